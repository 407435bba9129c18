"""The recorder of the MCP variables judge (tests/copilot_vscode/run.sh): what VS Code sends to the
servers of mcp-cases/.vscode/mcp.json once it has resolved their variables.

  python3 mcp_record.py serve PORT LOG   an MCP server over streamable HTTP on 127.0.0.1:PORT that
                                         answers `initialize` and `tools/list` and writes each
                                         request's path and `X-Probe` header as a JSON line to LOG
  python3 mcp_record.py spawn NAME ARG... run as a stdio server: writes NAME, ARGs and the
                                         variable E as a JSON line to $AGENT_LSP_PROBE_LOG, exits
"""
import http.server
import json
import os
import sys


def write(log, record):
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")


def serve(port, log):
    class Handler(http.server.BaseHTTPRequestHandler):
        def answer(self, status, body=None):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            try:
                req = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                req = {}
            write(log, {"server": self.path.strip("/"), "probe": self.headers.get("X-Probe")})
            method = req.get("method") if isinstance(req, dict) else None
            if method == "initialize":
                self.answer(200, {"jsonrpc": "2.0", "id": req.get("id"), "result": {
                    "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                    "serverInfo": {"name": "agent-lsp-probe", "version": "1"}}})
            elif method == "tools/list":
                self.answer(200, {"jsonrpc": "2.0", "id": req.get("id"), "result": {"tools": []}})
            else:
                self.answer(202)

        def do_GET(self):
            self.answer(405)

        def do_DELETE(self):
            self.answer(200)

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "spawn":
        write(os.environ["AGENT_LSP_PROBE_LOG"], {
            "server": sys.argv[2], "probe": " ".join(sys.argv[3:]), "env": os.environ.get("E")})
