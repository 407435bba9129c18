#!/usr/bin/env python3
"""Claude Code's denials against agent-lsp's decisions, for step (e) of run.sh.

    paths_judged.py DIR PATH...

DIR/out.jsonl is Claude Code's `-p --output-format stream-json` output after the model asked to
`Read` every PATH (relative to DIR/project); DIR/who.<PATH with / as _>.json is
`agent-lsp explain --who Read PATH --dialect claude --format json` in that project. Prints one
line per path and exits 1 when Claude Code denied a read agent-lsp does not decide `deny`, or
read a file agent-lsp decides `deny`, or when the probe has no denial or no read.
"""
import json
import sys


def main():
    d, paths = sys.argv[1], sys.argv[2:]
    project = d + "/project/"
    with open(d + "/out.jsonl", encoding="utf-8") as f:
        results = [json.loads(line) for line in f if '"type":"result"' in line]
    if not results:
        print("no result message in out.jsonl")
        return 1
    denied = {x["tool_input"]["file_path"][len(project):] for x in results[-1]["permission_denials"]}
    bad = 0
    for p in paths:
        with open(f"{d}/who.{p.replace('/', '_')}.json", encoding="utf-8") as f:
            row = json.load(f)["agents"][0]
        ours = row["decision"] == "deny"
        ok = ours == (p in denied)
        bad += not ok
        runtime = "denied" if p in denied else "read"
        print(f"{'ok ' if ok else 'BAD'}  {p:22} Claude Code: {runtime:6}  agent-lsp: {row['decision']:5} ({row['decided_by']})")
    if {p in denied for p in paths} != {True, False}:
        print("the probe needs reads Claude Code denies and reads it allows")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
