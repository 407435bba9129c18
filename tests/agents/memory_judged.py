#!/usr/bin/env python3
"""Step (f) of run.sh: CLAUDE.md imports and a command's @mentions, judged by Claude Code.

    memory_judged.py DIR

DIR holds requests.jsonl (the mock model's log of `claude -p go`), requests.cmd.jsonl (of
`claude -p /ship`), check.json (`agent-lsp check --format json` of DIR/project) and project/.
Claude Code hands the model each memory file and each import it reads as "Contents of <path>",
and a command's @mention as a Read of the file. Asserted: the files that reach the model are
exactly the imports (and mentions) agent-lsp does not report as `missing-path`, and every
`missing-path` finding names a path Claude Code left out.
"""
import json
import os
import sys

d = sys.argv[1]
project = os.path.realpath(os.path.join(d, "project"))


def texts(log):
    out = []
    for line in open(log, encoding="utf-8"):
        e = json.loads(line)
        for m in (e.get("body") or {}).get("messages") or []:
            c = m.get("content")
            if isinstance(c, str):
                out.append(c)
            else:
                for x in c or []:
                    out.append(x.get("text") or json.dumps(x.get("content")))
    return "\n".join(out)


memory_sent = texts(os.path.join(d, "requests.jsonl"))
command_sent = texts(os.path.join(d, "requests.cmd.jsonl"))
check = json.load(open(os.path.join(d, "check.json")))
findings = {(f["path"], f["code"]) for f in check["diagnostics"]}
missing = sorted(
    (f["path"], f["message"].split("`")[1]) for f in check["diagnostics"] if f["code"] == "missing-path"
)
fails = []
# What agent-lsp reports: exactly these, nothing else.
expected = [
    (".claude/commands/ship.md", "cmd-missing.md"),
    ("CLAUDE.md", "deeper-missing.md"),  # imported by docs/present.md, said on its import
    ("CLAUDE.md", "image.png"),
    ("CLAUDE.md", "missing.md"),
    ("CLAUDE.md", "notes.md,"),
    ("CLAUDE.md", "sub"),
]
if missing != expected:
    fails.append(f"agent-lsp's missing-path findings: {missing}, expected {expected}")
other = sorted(c for c in findings if c[1] != "missing-path")
if other:
    fails.append(f"other findings: {other}")
# What Claude Code gives the model.
reached = {
    "docs/present.md": True,  # an import that names a file
    "docs/deeper.md": True,  # an import of an import, from the importing file's folder
    "docs/deeper-missing.md": False,
    "notes.md": False,  # written `@notes.md,`: Claude Code looks for `notes.md,`
    "missing.md": False,
    "image.png": False,  # a file, not text
    "code.md": False,  # in a code span: no import
}
for rel, want in reached.items():
    got = f"Contents of {project}/{rel} " in memory_sent
    print(f"{'ok  ' if got == want else 'FAIL'} {rel}: {'reaches' if got else 'does not reach'} the model")
    if got != want:
        fails.append(f"{rel} {'reached' if got else 'did not reach'} the model")
for marker in ["MISSING", "CODE-MARKER", "PNG-MARKER", "NOTES-MARKER"]:
    if marker in memory_sent:
        fails.append(f"{marker} reached the model")
# The command: its present mention is read, the missing one attaches nothing.
read_present = f'"file_path":"{project}/docs/present.md"' in command_sent.replace(" ", "")
print(f"{'ok  ' if read_present else 'FAIL'} /ship: @docs/present.md is read for the model")
if not read_present:
    fails.append("the command's @docs/present.md was not read")
if f"{project}/cmd-missing.md" in command_sent:
    fails.append("the command's missing mention was attached")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
