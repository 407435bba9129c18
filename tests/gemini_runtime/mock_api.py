#!/usr/bin/env python3
"""A stand-in for the Gemini API on 127.0.0.1, for running Gemini CLI offline as a judge.

Each request is appended to --log as one JSON line ({"path": ..., "body": ...}).
`...:streamGenerateContent` gets one short SSE chunk, `...:countTokens` a count, anything else
`{}`. The port it listens on is written to --port-file once it is ready.
"""
import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "OK"}]}, "finishReason": "STOP", "index": 0}
    ],
    "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def answer(self, status, ctype, payload):
            data = payload.encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.answer(200, "application/json", "{}")

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"null")
            except ValueError:
                body = raw.decode("utf-8", "replace")
            with lock, open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps({"path": self.path, "body": body}) + "\n")
            if ":streamGenerateContent" in self.path:
                self.answer(200, "text/event-stream", "data: " + json.dumps(CHUNK) + "\r\n\r\n")
            elif ":countTokens" in self.path:
                self.answer(200, "application/json", json.dumps({"totalTokens": 1}))
            else:
                self.answer(200, "application/json", "{}")

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
