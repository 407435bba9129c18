#!/usr/bin/env python3
"""Summarise the LSP traffic a client sent (the stdin copy the wrapper in run.sh keeps):
how many times each method arrived, and the language ids of didOpen.

    lsp_trace.py CLIENT_TO_SERVER.log
"""
import collections
import json
import re
import sys


def frames(data):
    i = 0
    while True:
        m = re.search(rb"Content-Length: *(\d+)\r\n(?:[^\r\n]+\r\n)*\r\n", data[i:])
        if not m:
            return
        start = i + m.end()
        n = int(m.group(1))
        yield json.loads(data[start:start + n])
        i = start + n


def main():
    data = open(sys.argv[1], "rb").read()
    methods = collections.Counter()
    languages = collections.Counter()
    for f in frames(data):
        method = f.get("method")
        if method is None:
            continue
        methods[method] += 1
        if method == "textDocument/didOpen":
            doc = f["params"]["textDocument"]
            suffix = doc["uri"].rsplit("/", 1)[-1].rsplit(".", 1)[-1]
            languages[f".{suffix}={doc['languageId']}"] += 1
    print("methods: " + ", ".join(f"{m} x{n}" for m, n in sorted(methods.items())))
    print("didOpen language ids: " + (", ".join(f"{k} x{n}" for k, n in sorted(languages.items())) or "none"))


if __name__ == "__main__":
    main()
