#!/usr/bin/env bash
# `agent-lsp mcp` through real MCP clients, offline once installed:
#   1. the MCP inspector CLI (@modelcontextprotocol/inspector 0.15.0, pinned in package-lock.json):
#      tools/list and a tools/call of every tool on a small workspace, and one bad-argument call;
#   2. Claude Code 2.1.332 (`claude mcp list`, project .mcp.json, empty HOME): "✔ Connected";
#   3. opencode 1.18.34 (`opencode mcp list --pure`, opencode.json `mcp`, empty HOME): "✓ connected".
# Usage: tests/mcp/run.sh BINARY (e.g. target/debug/agent-lsp)
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 BINARY" >&2
  exit 2
fi
BIN="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
CLAUDE_BIN="$repo/tests/claude_runtime/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
OPENCODE_BIN="$repo/tests/runtime/node_modules/opencode-linux-x64/bin/opencode"

started=$(date +%s.%N)
step_start=$started
# Print how long the step just finished took.
step() {
  local now
  now=$(date +%s.%N)
  python3 -c "import sys; print(f'   {sys.argv[1]}: {float(sys.argv[3]) - float(sys.argv[2]):.1f}s')" "$1" "$step_start" "$now"
  step_start=$now
}

echo "== installs"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
step "npm ci tests/mcp (the inspector)"
if [ ! -x "$CLAUDE_BIN" ]; then
  (cd "$repo/tests/claude_runtime" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  step "npm ci tests/claude_runtime (Claude Code)"
fi
if [ ! -x "$OPENCODE_BIN" ]; then
  (cd "$repo/tests/runtime" && npm ci --no-audit --no-fund --loglevel=error)
  step "npm ci tests/runtime (opencode)"
fi
for b in "$CLAUDE_BIN" "$OPENCODE_BIN"; do
  if [ ! -x "$b" ]; then
    echo "missing after npm ci: $b" >&2
    exit 1
  fi
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# An empty home and XDG directories for the clients: nothing of this machine's configuration.
mkdir -p "$tmp/home" "$tmp/xdg/config" "$tmp/xdg/data" "$tmp/xdg/cache" "$tmp/xdg/state"
# (node's directory on PATH: the inspector is a node script)
node_dir="$(dirname "$(command -v node)")"
isolated() {
  env -i PATH="$node_dir:/usr/local/bin:/usr/bin:/bin" HOME="$tmp/home" \
    XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
    XDG_CACHE_HOME="$tmp/xdg/cache" XDG_STATE_HOME="$tmp/xdg/state" \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
    DISABLE_ERROR_REPORTING=1 AGENT_LSP_LOG=warn "$@"
}

# The workspace (shared with tests/mcp.rs): an opencode agent with a misspelt key and a
# catch-all written last, a Claude Code agent that lists Bash and removes it, an opencode.json
# rule for `build`.
ws="$tmp/ws"
mkdir -p "$ws"
cp -r "$here/workspace/." "$ws/"

# assert FILE CONDITION: CONDITION is a Python expression over `r` (the inspector's JSON), `s`
# (its structuredContent), `t` (the text of its first content) and `err` (isError).
assert() {
  python3 - "$@" <<'PY'
import json, sys
path, cond = sys.argv[1], sys.argv[2]
raw = open(path).read()
try:
    r = json.loads(raw)
except ValueError:
    sys.exit(f"FAIL: not JSON ({path}):\n{raw[:2000]}")
s = r.get("structuredContent") if isinstance(r, dict) else None
content = r.get("content") if isinstance(r, dict) else None
t = content[0]["text"] if content else None
err = r.get("isError") if isinstance(r, dict) else None
if not eval(cond):
    sys.exit(f"FAIL: {cond}\n{raw[:3000]}")
print(f"   ok: {cond}")
PY
}

n=0
# inspect ARGS...: the inspector CLI against the server on the workspace; the JSON it prints
# goes to a file whose name is printed.
inspect() {
  n=$((n + 1))
  out="$tmp/inspector-$n.json"
  (cd "$here" && isolated "$here/node_modules/.bin/mcp-inspector" --cli "$BIN" mcp --root "$ws" --no-global "$@") > "$out"
}

echo "== MCP inspector CLI 0.15.0"
inspect --method tools/list
assert "$out" '[x["name"] for x in r["tools"]] == ["check", "explain", "decide", "who_may", "rules"]'
assert "$out" 'all(p.get("description") for x in r["tools"] for p in x["inputSchema"]["properties"].values())'
assert "$out" 'all(x["annotations"]["readOnlyHint"] for x in r["tools"])'

inspect --method tools/call --tool-name check
assert "$out" 'err is False and s["summary"] == "0 errors, 2 warnings, 0 infos in 1 file (3 checked)"'
assert "$out" '[(d["path"], d["range"]["start"]["line"], d["code"], d["effect"]) for d in s["diagnostics"]] == [(".opencode/agents/review.md", 4, "unknown-key", "value-ignored"), (".opencode/agents/review.md", 9, "shadowed-rule", "rule-never-applies")]'
assert "$out" 's["diagnostics"][0]["fix"]["edits"][0]["new_text"] == "temperature"'

inspect --method tools/call --tool-name check --tool-arg 'paths=["opencode.json"]'
assert "$out" 's == {"files": 1, "checked": ["opencode.json"], "diagnostics": [], "summary": "1 file checked, no problems"}'

inspect --method tools/call --tool-name explain --tool-arg agent=review
assert "$out" 'len(s["agents"]) == 1 and s["agents"][0]["dialect"] == "opencode" and s["agents"][0]["key"] == "review" and s["agents"][0]["mode"] == "subagent"'
assert "$out" '"`review`" in s["agents"][0]["card"]'

inspect --method tools/call --tool-name explain --tool-arg agent=helper --tool-arg dialect=claude
assert "$out" 's["agents"][0]["tools"] == ["Read", "Grep"] and s["agents"][0]["card"].startswith("### `helper`: Claude Code agent")'

inspect --method tools/call --tool-name decide --tool-arg agent=review --tool-arg permission=bash --tool-arg 'input=git push origin main'
assert "$out" 's["answers"][0]["action"] == "ask" and s["answers"][0]["rule"] == {"permission": "bash", "pattern": "*", "action": "ask", "source": ".opencode/agents/review.md:9:5", "layer": "agent"}'

inspect --method tools/call --tool-name decide --tool-arg agent=helper --tool-arg permission=bash --tool-arg input=ls
assert "$out" 's["answers"][0]["action"] == "deny" and s["answers"][0]["tools"][0]["decided_by"] == "removed by `disallowedTools` entry `Bash` (.claude/agents/helper.md:5:18)"'

inspect --method tools/call --tool-name who_may --tool-arg permission=bash --tool-arg 'input=rm -rf /'
assert "$out" 's["summary"] == "bash \"rm -rf /\": 3 allow, 1 ask, 5 deny"'
assert "$out" '[a["action"] for a in s["agents"]] == ["allow"] * 3 + ["ask"] + ["deny"] * 5'
assert "$out" '[(a["action"], a["where"]) for a in s["agents"] if a["agent"] == "build"] == [("deny", "opencode.json:5:33")]'

inspect --method tools/call --tool-name rules --tool-arg code=shadowed-rule
assert "$out" 's["code"] == "shadowed-rule" and "last match wins" in s["explanation"]'

inspect --method tools/call --tool-name rules
"$BIN" rules --format json > "$tmp/rules.json"
assert "$out" '[x["code"] for x in s["rules"]] == [x["code"] for x in json.load(open(sys.argv[3]))["rules"]]' "$tmp/rules.json"
assert "$out" '{"code", "severity", "effect", "summary"} == set(s["rules"][0])'

# Bad arguments: a tool error that says what is wrong, not a protocol error.
inspect --method tools/call --tool-name decide --tool-arg agent=reveiw --tool-arg permission=bash --tool-arg input=ls
assert "$out" 'err is True and t == "no agent \"reveiw\" in this workspace. Did you mean `review`? The agents: opencode: build, plan, general, explore, compaction, title, summary, review; Claude Code: helper"'
inspect --method tools/call --tool-name decide --tool-arg agent=review --tool-arg permission=bash
assert "$out" 'err is True and t.startswith("missing required argument `input` for `decide`")'
step "inspector: $n runs"

echo "== Claude Code 2.1.332: claude mcp list"
proj="$tmp/claude-project"
mkdir -p "$proj" "$tmp/home/.claude"
cp -r "$ws/." "$proj/"
# A second server that cannot start (no such root), so that the check tells the two apart.
python3 - "$BIN" "$proj/.mcp.json" <<'PY'
import json, sys
bin, path = sys.argv[1], sys.argv[2]
json.dump({"mcpServers": {
    "agent-lsp": {"type": "stdio", "command": bin, "args": ["mcp", "--no-global"]},
    "agent-lsp-broken": {"type": "stdio", "command": bin, "args": ["mcp", "--root", "/nonexistent/agent-lsp-root"]},
}}, open(path, "w"))
PY
# Servers of a project .mcp.json stay "Pending approval" until approved.
echo '{"enabledMcpjsonServers": ["agent-lsp", "agent-lsp-broken"]}' > "$tmp/home/.claude/settings.json"
(cd "$proj" && isolated timeout 60 "$CLAUDE_BIN" mcp list) > "$tmp/claude.out" 2>&1 || true
cat "$tmp/claude.out"
python3 - "$tmp/claude.out" "$BIN" <<'PY'
import sys
text, bin = open(sys.argv[1]).read(), sys.argv[2]
want = f"agent-lsp: {bin} mcp --no-global - ✔ Connected"
assert want in text.splitlines(), f"FAIL: no line {want!r}"
broken = [l for l in text.splitlines() if l.startswith("agent-lsp-broken:")]
assert broken and "Connected" not in broken[0] and "Failed" in broken[0], f"FAIL: the broken server: {broken}"
print("   ok: agent-lsp ✔ Connected; the broken one:", broken[0].split(" - ")[-1])
PY
step "claude mcp list"

echo "== opencode 1.18.34: opencode mcp list --pure"
proj="$tmp/opencode-project"
mkdir -p "$proj"
git -C "$proj" init -q
python3 - "$BIN" "$proj/opencode.json" <<'PY'
import json, sys
bin, path = sys.argv[1], sys.argv[2]
json.dump({"$schema": "https://opencode.ai/config.json", "mcp": {
    "agent-lsp": {"type": "local", "command": [bin, "mcp", "--no-global"]},
    "agent-lsp-broken": {"type": "local", "command": [bin, "mcp", "--root", "/nonexistent/agent-lsp-root"]},
}}, open(path, "w"))
PY
(cd "$proj" && isolated timeout 90 "$OPENCODE_BIN" mcp list --pure) > "$tmp/opencode.out" 2>&1 || true
python3 - "$tmp/opencode.out" <<'PY'
import re, sys
text = re.sub(r"\x1b\[[0-9;]*m", "", open(sys.argv[1]).read())
print(text)
lines = [l.strip("│ ").strip() for l in text.splitlines()]
assert any(re.fullmatch(r"●\s+✓ agent-lsp\s+connected", l) for l in lines), "FAIL: no `✓ agent-lsp connected`"
broken = [l for l in lines if "agent-lsp-broken" in l]
assert broken and "connected" not in broken[0].replace("disconnected", ""), f"FAIL: the broken server: {broken}"
print("   ok: ✓ agent-lsp connected; the broken one:", broken[0])
PY
step "opencode mcp list"

python3 -c "import sys; print(f'== all passed in {float(sys.argv[2]) - float(sys.argv[1]):.1f}s')" "$started" "$(date +%s.%N)"
