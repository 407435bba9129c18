#!/usr/bin/env python3
"""Run Gemini CLI on each case, offline, and record what it says.

Usage: judge.py --node NODE --gemini BUNDLE/gemini.js --cases CASES.json --jobs N [--netns]

CASES.json is a list of {"dir": project folder, "start": folder to run in, "out": result file,
"extensions": folders of the project to install as extensions (optional)}.
Each case runs `gemini -p hi` in its own empty HOME (user settings that turn off usage statistics
and update checks and select the API-key auth) against a stand-in for the Gemini API on
127.0.0.1 (mock_api.py, one per worker), and its result file gets {"rc", "stdout", "stderr",
"requests"}: the exit status, what Gemini CLI printed, and the body of each request it sent.

With --netns the script runs in a network namespace of its own (`unshare -rn`): it brings the
loopback interface up so that the stand-in can listen, and nothing else is reachable.
`--allowed-mcp-server-names none` keeps Gemini CLI from starting the MCP servers of a case.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

USER_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    # No hook of a case runs (a project's hooks would run commands at start).
    "hooksConfig": {"enabled": False},
}


def loopback_up():
    import fcntl
    import socket
    import struct

    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    flags = struct.unpack("16sh", fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sh", b"lo", 0)))[1]
    fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))
    s.close()


class Mock:
    def __init__(self, work):
        self.log = os.path.join(work, "requests.jsonl")
        port_file = os.path.join(work, "port")
        self.proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "mock_api.py"), "--log", self.log, "--port-file", port_file]
        )
        for _ in range(200):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.05)
        self.port = open(port_file).read().strip()

    def take(self):
        """The bodies of the requests since the last call."""
        try:
            with open(self.log, encoding="utf-8") as f:
                lines = f.readlines()
        except FileNotFoundError:
            return []
        open(self.log, "w").close()
        return [json.loads(l) for l in lines if l.strip()]

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def acknowledge(home, project):
    """Acknowledge the project's agents, as a user does once per agent and content: Gemini CLI
    leaves an unacknowledged project agent out of a headless run without a word. The name is
    the frontmatter's `name:` line as written (a file whose name is not read this way is not
    acknowledged, and is then left out as it would be)."""
    import hashlib
    import re

    agents_dir = os.path.join(project, ".gemini", "agents")
    if not os.path.isdir(agents_dir):
        return
    acks = {}
    for entry in sorted(os.listdir(agents_dir)):
        path = os.path.join(agents_dir, entry)
        if not entry.endswith(".md") or entry.startswith("_") or not os.path.isfile(path):
            continue
        raw = open(path, "rb").read()
        text = raw.decode("utf-8", "replace")
        m = re.search(r"^name:[ \t]*['\"]?([^'\"\r\n]*?)['\"]?[ \t]*\r?$", text, re.M)
        if not m:
            continue
        # A remote agent is acknowledged by its card's URL, or by the hash of its card's JSON.
        url = re.search(r"^agent_card_url:[ \t]*(\S+?)[ \t]*\r?$", text, re.M)
        card = re.search(r"^agent_card_json:[ \t]*'((?:[^']|'')*)'[ \t]*\r?$", text, re.M)
        if url:
            acks[m.group(1)] = url.group(1)
        elif card:
            acks[m.group(1)] = hashlib.sha256(card.group(1).replace("''", "'").encode("utf-8")).hexdigest()
        else:
            acks[m.group(1)] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    path = os.path.join(home, ".gemini", "acknowledgments", "agents.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({project: acks}, f)


def run_case(args, mock, work, case):
    home = os.path.join(work, "home")
    shutil.rmtree(home, ignore_errors=True)
    os.makedirs(os.path.join(home, ".gemini"))
    # A case's own user settings (`_home/.gemini/settings.json`) replace the judge's.
    own = os.path.join(case["dir"], "_home", ".gemini", "settings.json")
    if os.path.exists(own):
        shutil.copyfile(own, os.path.join(home, ".gemini", "settings.json"))
    else:
        with open(os.path.join(home, ".gemini", "settings.json"), "w") as f:
            json.dump(USER_SETTINGS, f)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "GEMINI_API_KEY": "x",
        "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:" + mock.port,
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GEMINI_CLI_NO_RELAUNCH": "true",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    acknowledge(home, case["dir"])
    # An extension of the case is installed as `gemini extensions install` leaves it: a copy of
    # its folder in ~/.gemini/extensions/.
    for ext in case.get("extensions", []):
        src = os.path.join(case["dir"], ext)
        shutil.copytree(src, os.path.join(home, ".gemini", "extensions", os.path.basename(src)))
    mock.take()
    cmd = [args.node, args.gemini, "-p", case.get("prompt", "hi"), "-m", "gemini-2.5-pro", "--allowed-mcp-server-names", "none"]
    try:
        p = subprocess.run(cmd, cwd=case["start"], env=env, capture_output=True, timeout=90, stdin=subprocess.DEVNULL)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or b"", e.stderr or b""
    result = {
        "home": home,
        "rc": rc,
        "stdout": out.decode("utf-8", "replace"),
        "stderr": err.decode("utf-8", "replace"),
        "requests": mock.take(),
    }
    with open(case["out"], "w", encoding="utf-8") as f:
        json.dump(result, f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", required=True)
    parser.add_argument("--gemini", required=True)
    parser.add_argument("--cases", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--netns", action="store_true")
    args = parser.parse_args()
    if args.netns:
        loopback_up()
    cases = json.load(open(args.cases))
    lock = threading.Lock()
    queue = list(reversed(cases))

    def worker():
        work = tempfile.mkdtemp(prefix="agent-lsp-gemini-judge-")
        mock = Mock(work)
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    case = queue.pop()
                run_case(args, mock, work, case)
        finally:
            mock.stop()
            shutil.rmtree(work, ignore_errors=True)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
