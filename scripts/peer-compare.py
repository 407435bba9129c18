#!/usr/bin/env python3
"""Side by side with the peer linter (agnix) on the risks of issue 50, category by category.

usage: scripts/peer-compare.py AGNIX.json AGENT-LSP.json

AGNIX.json is `agnix --format json .` and AGENT-LSP.json `agent-lsp check --no-global --format
json .`, both run in the same folder (a folder of repositories, each with a `.git` of its own so
that agent-lsp reads each as a project). agnix 0.60.3 builds from crates.io with `cargo install
agnix-cli --locked` (some six minutes on two cores; its npm package downloads the binary from
github.com). Prints, per risk, how many findings each reports and in how many files, how many sit
on the same line, and the places only one of them names: read those by hand (a place only the
peer names can be a file no runtime reads where it is, which agent-lsp reports as
`unchecked-file` when asked about it).

The held-out set measured in issue 50's note is listed in scripts/peer-heldout.tsv.
"""
import collections
import json
import sys

# risk: (the peer's rule ids, agent-lsp's codes, a filter on agent-lsp's message)
CATEGORIES = {
    "secret": ({"OC-CFG-005", "MCP-018", "MCP-028", "XP-SK-003"}, {"hardcoded-secret"}, None),
    "unpinned": ({"MCP-027"}, {"unpinned-package"}, None),
    "home folder": ({"XP-003", "CC-SK-021"}, {"home-path"}, None),
    "unquoted path variable": ({"CC-HK-030"}, {"unquoted-path-variable", "relative-hook-path"}, None),
    "all of the shell": ({"CC-SET-036", "CC-SK-007", "OC-PM-006"}, {"broad-grant"}, lambda m: "Bash" in m or "bash" in m),
    "external_directory": ({"OC-PM-004"}, {"broad-grant"}, lambda m: "external_directory" in m),
    "no description": ({"CC-AG-002", "OC-AG-010", "OC-007"}, {"undescribed-subagent", "missing-field"}, lambda m: "description" in m),
    "SSE transport": ({"MCP-012"}, set(), None),
}


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    peer = json.load(open(sys.argv[1]))["diagnostics"]
    ours = json.load(open(sys.argv[2]))["diagnostics"]
    for risk, (rules, codes, keep) in CATEGORIES.items():
        p = collections.Counter((d["file"].removeprefix("./"), d["line"]) for d in peer if d["rule"] in rules)
        o = collections.Counter(
            (d["path"].removeprefix("./"), d["range"]["start"]["line"])
            for d in ours
            if d["code"] in codes and (keep is None or keep(d["message"]))
        )
        pf, of = {f for f, _ in p}, {f for f, _ in o}
        print(
            f"== {risk}: peer {sum(p.values())} in {len(pf)} files; agent-lsp {sum(o.values())} in {len(of)} files; "
            f"same line {sum((p & o).values())}, same file {len(pf & of)}"
        )
        for place in sorted(set(p) - set(o)):
            print("   peer only:", *place)
        for place in sorted(set(o) - set(p)):
            print("   agent-lsp only:", *place)
    return 0


if __name__ == "__main__":
    sys.exit(main())
