#!/usr/bin/env python3
"""Assertions on the request log of mock_model.py: did a text reach the model, and when?

    expect.py LOG NAME --after-step S --text TEXT [--text TEXT ...] [--absent TEXT ...] [--same-turn | --max-late N] [--survey]

Looks through the main requests (those that got a script step) whose step is greater than S,
i.e. the requests sent after the model's tool call of step S, for every TEXT in the string
values of the request's messages. Prints one line: in which request each text first appears
("request S+1" is the same turn: the one that carries the tool's result).

Fails (exit 1) when a text never appears, or with --same-turn when it is not in request S+1,
showing the end of the request the text was expected in. With --survey nothing fails: the line
says "missing" instead (used to compare `serve` with `serve --for-agents`).

    expect.py LOG --excerpt MARKER_START MARKER_END
prints the first block of text between the markers found in any request (for the report).
"""
import argparse
import json
import sys


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)


def main_requests(log):
    requests = []
    with open(log, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if isinstance(r.get("step"), int):
                requests.append(r)
    return requests


def text_of(request):
    return "\n".join(strings(request["body"].get("messages", [])))


def tail_of(request, limit=2500):
    """The end of what the model sees: the last two messages."""
    messages = request["body"].get("messages", [])[-2:]
    text = json.dumps(messages, indent=1, ensure_ascii=False)
    return text if len(text) <= limit else "...\n" + text[-limit:]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("log")
    p.add_argument("name", nargs="?")
    p.add_argument("--after-step", type=int, default=0)
    p.add_argument("--text", action="append", default=[])
    p.add_argument("--absent", action="append", default=[],
                   help="a text that must not be in the last two messages of request S+1")
    p.add_argument("--same-turn", action="store_true")
    p.add_argument("--max-late", type=int, help="fail when a text arrives more than this many requests late")
    p.add_argument("--survey", action="store_true")
    p.add_argument("--excerpt", nargs=2)
    a = p.parse_args()
    requests = main_requests(a.log)
    if a.excerpt:
        start, end = a.excerpt
        for r in requests:
            t = text_of(r)
            i = t.find(start)
            if i >= 0:
                j = t.find(end, i)
                print(t[i:j + len(end)] if j >= 0 else t[i:])
                return 0
        print(f"(no {start!r} in any request)")
        return 1
    later = [r for r in requests if r["step"] > a.after_step]
    if not later:
        print(f"FAIL {a.name}: no request after step {a.after_step} reached the mock (the run stopped early?)")
        return 0 if a.survey else 1
    failed = False
    found = []
    for text in a.text:
        hit = next((r for r in later if text in text_of(r)), None)
        if hit is None:
            found.append(f"missing {text!r}")
            failed = True
        else:
            late = hit["step"] - (a.after_step + 1)
            found.append(f"{text!r} in request {hit['step']}" + (" (same turn)" if late == 0 else f" ({late} request(s) late)"))
            if (a.same_turn and late) or (a.max_late is not None and late > a.max_late):
                failed = True
    if a.absent:
        tail = "\n".join(strings(later[0]["body"].get("messages", [])[-2:]))
        for text in a.absent:
            if text in tail:
                found.append(f"{text!r} still in request {later[0]['step']}")
                failed = True
            else:
                found.append(f"{text!r} gone from request {later[0]['step']}")
    verdict = "ok  " if not failed else ("MISS" if a.survey else "FAIL")
    print(f"{verdict} {a.name}: " + "; ".join(found))
    if failed and not a.survey:
        expected_in = later[0]
        print(f"---- the end of request {expected_in['step']} (the one after the tool call of step {a.after_step}):")
        print(tail_of(expected_in))
        print("----")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
