"""The launcher as an LSP client and a process manager see it (npm/test.sh).

lsp LAUNCHER    initialize through the launcher, check serverInfo.name, shutdown + exit → status 0
signal LAUNCHER SIGTERM, SIGINT, SIGHUP to the launcher of a running `serve`: the binary ends, the launcher
                dies of the same signal
"""
import json, os, signal, subprocess, sys, time


def send(proc, msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def read(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit("lsp: the server closed stdout before answering")
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def answer(proc, id_):
    while True:
        msg = read(proc)
        if msg.get("id") == id_ and "method" not in msg:
            return msg


def lsp(launcher, root):
    proc = subprocess.Popen([launcher, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": "file://" + root, "capabilities": {},
        "workspaceFolders": [{"uri": "file://" + root, "name": "ws"}]}})
    init = answer(proc, 1)
    name = init.get("result", {}).get("serverInfo", {}).get("name")
    if name != "agent-lsp":
        sys.exit(f"lsp: initialize answered serverInfo.name {name!r}: {init}")
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    answer(proc, 2)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.stdin.close()
    status = proc.wait(timeout=10)
    if status != 0:
        sys.exit(f"lsp: the launcher exited with {status} after shutdown and exit")
    print(f"lsp: initialize → serverInfo.name agent-lsp {init['result']['serverInfo'].get('version')}, shutdown + exit → 0")


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except FileNotFoundError:
        return []


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def sig(launcher, signum):
    proc = subprocess.Popen([launcher, "serve"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    kids = []
    while not kids and time.time() < deadline:
        kids = children(proc.pid)
        time.sleep(0.05)
    if not kids:
        sys.exit("signal: the launcher started no child")
    child = kids[0]
    # The binary, once the launcher's fork has exec'd it.
    cmd = ""
    while not cmd.endswith("agent-lsp") and time.time() < deadline:
        with open(f"/proc/{child}/cmdline", "rb") as f:
            cmd = f.read().split(b"\0")[0].decode()
        time.sleep(0.02)
    proc.send_signal(signum)
    status = proc.wait(timeout=10)
    deadline = time.time() + 5
    while alive(child) and time.time() < deadline:
        time.sleep(0.05)
    if alive(child):
        os.kill(child, signal.SIGKILL)
        sys.exit(f"signal: the binary {cmd} (pid {child}) outlived the launcher's {signum.name}")
    if status != -signum:
        sys.exit(f"signal: the launcher ended with {status}, not by {signum.name}")
    print(f"signal: {signum.name} to the launcher ended the binary ({os.path.basename(cmd)}, pid {child}); the launcher died of {signum.name}")


if __name__ == "__main__":
    {"lsp": lambda: lsp(sys.argv[2], sys.argv[3]), "signal": lambda: [sig(sys.argv[2], s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)]}[sys.argv[1]]()
