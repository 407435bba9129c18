#!/usr/bin/env python3
"""A scripted mock of the Anthropic Messages API, for end-to-end tests of agent runtimes.

    mock_model.py --script STEPS.json --log REQUESTS.jsonl --port-file PORT [--var NAME=VALUE ...]

Listens on 127.0.0.1 (a free port, written to --port-file once the server is ready) and answers
POST /v1/messages, streaming (SSE, the event sequence of the real API) or not.

The script is a JSON list of steps; a step is a list of content blocks, each either
{"text": "..."} or {"tool": "Write", "input": {...}}. "{{NAME}}" in any string of the script is
replaced by the value given with --var NAME=VALUE (e.g. the project's absolute path).

Which step answers a request: the number of assistant messages already in the request's
conversation (0 for the first turn, 1 after the first tool result, ...), so a retried request
gets the same answer. Past the last step, the answer is the text "done". Requests that offer no
tools (title generation, summaries, quota probes) are side requests: they get a short text and
consume no step. POST /v1/messages/count_tokens answers a rough count.

Every request (method, path, body) is appended to the log as one JSON line, with the step it
got ("step": n, or "side"), so a test can assert on what the model would see.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()


def substitute(value, variables):
    if isinstance(value, str):
        for name, replacement in variables.items():
            value = value.replace("{{" + name + "}}", replacement)
        return value
    if isinstance(value, list):
        return [substitute(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, variables) for k, v in value.items()}
    return value


def content_for(blocks, step_index):
    """The step's blocks as API content blocks."""
    content = []
    for i, block in enumerate(blocks):
        if "tool" in block:
            content.append({
                "type": "tool_use",
                "id": f"toolu_mock_{step_index:02d}_{i:02d}",
                "name": block["tool"],
                "input": block.get("input", {}),
            })
        else:
            content.append({"type": "text", "text": block.get("text", "")})
    return content


def sse(event, data):
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "mock-anthropic/1"

    def log_message(self, fmt, *args):  # quiet: the JSON log is the record
        pass

    def record(self, entry):
        entry = {"time": round(time.time(), 3), **entry}
        with LOCK, open(self.server.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(entry) + "\n")

    def send_json(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.send_header("request-id", "req_mock")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.record({"method": "GET", "path": self.path})
        self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock: no such endpoint"}})

    do_HEAD = do_GET

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        path = self.path.split("?", 1)[0]
        if path.endswith("/count_tokens"):
            self.record({"method": "POST", "path": self.path, "step": "count_tokens", "body": body})
            self.send_json(200, {"input_tokens": max(1, len(raw) // 4)})
            return
        if not path.endswith("/messages"):
            self.record({"method": "POST", "path": self.path, "step": "unknown", "body": body})
            self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock: no such endpoint"}})
            return
        messages = body.get("messages") or []
        if body.get("tools"):
            step = sum(1 for m in messages if m.get("role") == "assistant")
            steps = self.server.steps
            blocks = steps[step] if step < len(steps) else [{"text": "done"}]
            label = step
        else:
            blocks = [{"text": "Mock title"}]
            label = "side"
        self.record({"method": "POST", "path": self.path, "step": label, "body": body})
        content = content_for(blocks, label if isinstance(label, int) else 99)
        stop = "tool_use" if any(c["type"] == "tool_use" for c in content) else "end_turn"
        model = body.get("model", "mock-model")
        message_id = f"msg_mock_{label}"
        usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if not body.get("stream"):
            self.send_json(200, {
                "id": message_id, "type": "message", "role": "assistant", "model": model,
                "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage,
            })
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("request-id", "req_mock")
        self.send_header("connection", "close")
        self.end_headers()
        out = [sse("message_start", {"type": "message_start", "message": {
            "id": message_id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}})]
        out.append(sse("ping", {"type": "ping"}))
        for index, block in enumerate(content):
            if block["type"] == "text":
                out.append(sse("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "text", "text": ""}}))
                out.append(sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                       "delta": {"type": "text_delta", "text": block["text"]}}))
            else:
                out.append(sse("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "tool_use", "id": block["id"],
                                                                         "name": block["name"], "input": {}}}))
                text = json.dumps(block["input"])
                # Two deltas, split mid-JSON, as the real API streams partial JSON.
                half = len(text) // 2
                for part in (text[:half], text[half:]):
                    out.append(sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                           "delta": {"type": "input_json_delta", "partial_json": part}}))
            out.append(sse("content_block_stop", {"type": "content_block_stop", "index": index}))
        out.append(sse("message_delta", {"type": "message_delta",
                                         "delta": {"stop_reason": stop, "stop_sequence": None},
                                         "usage": {"output_tokens": 5}}))
        out.append(sse("message_stop", {"type": "message_stop"}))
        self.wfile.write(b"".join(out))
        self.wfile.flush()
        self.close_connection = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--var", action="append", default=[], help="NAME=VALUE, replaces {{NAME}} in the script")
    args = parser.parse_args()
    variables = dict(v.split("=", 1) for v in args.var)
    with open(args.script, encoding="utf-8") as f:
        steps = substitute(json.load(f), variables)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.steps = steps
    server.log_path = args.log
    open(args.log, "a").close()
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
