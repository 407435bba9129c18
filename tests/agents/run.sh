#!/usr/bin/env bash
# End to end with the real runtimes and a scripted mock model: when a model writes a broken agent
# file, does agent-lsp's finding reach the model, and in which request?
#
#   tests/agents/run.sh target/release/agent-lsp
#
# (a) opencode `debug lsp diagnostics` on an agent file, opencode.json and a command file.
# (b) opencode `run` and Claude Code `-p`, each driven by tests/agents/mock_model.py (a scripted
#     Anthropic Messages API on 127.0.0.1): the model writes agent files with a mistake of each
#     effect (refuses-to-start, file-ignored, value-ignored, rule-never-applies,
#     fails-when-used), then edits one; the requests it sends next are searched for
#     agent-lsp's messages and fixes.
# (d) agent-lsp's MCP server through both runtimes: the model calls `decide` (opencode: from the
#     project's `mcp` entry; Claude Code: from the plugin, loading the deferred tool with
#     ToolSearch first), and the tool result the runtime hands back is asserted.
# (e) Claude Code's path rules: the model reads 24 files under settings deny rules, and Claude Code
#     denies exactly the reads agent-lsp decides `deny` (`explain --who Read PATH`).
# (f) CLAUDE.md imports and a command's @mentions: the files Claude Code hands the model are
#     exactly those agent-lsp does not report as `missing-path`.
# (g) hook commands in a project and a plugin whose paths hold a space: the hooks Claude Code fails
#     to run (and the guard that then blocks nothing) are exactly agent-lsp's
#     `unquoted-path-variable` findings.
# (h) opencode `run` with a top-level deny and two agents: the one whose own `bash: allow`
#     agent-lsp reports as `overridden-deny` runs the denied command, the other is refused, and
#     after agent-lsp's fix (`check --fix --unsafe-fixes`) the first is refused too; and
#     the Task tool lists exactly the subagents agent-lsp reports as `undescribed-subagent` as
#     "This subagent should only be called manually by the user." (or with an empty description).
# (i) Claude Code `-p` with one allow rule for a program that runs whatever its arguments hold
#     (`Bash(env *)`, `Bash(python3:*)`, ...): the rules that let a command they do not name run
#     are exactly those agent-lsp reports as `broad-grant`; the narrower twins run nothing.
# (j) Claude Code `-p` with a PreToolUse guard named by a relative path: after the model's
#     `cd sub` the guard is not found and the command it refuses runs, where the anchored
#     guard refuses it; agent-lsp reports `relative-hook-path` on the first only.
# (c) `claude plugin validate` on editors/claude-code and on the marketplace, and agent-lsp's own
#     check of both.
#
# The runtimes come from tests/runtime and tests/claude_runtime (their pinned package-lock.json);
# `npm ci` runs there only when the executable is missing. Each runtime runs with an empty HOME
# and XDG directories, in a temporary git repository, talking only to 127.0.0.1.
#
# Environment:
#   AGENTS_SERVE_ARGS  the server's arguments (default "serve --for-agents")
#   AGENTS_SURVEY=1    report which texts reach the model without failing (to compare
#                      `AGENTS_SERVE_ARGS=serve` with the default)
#   AGENTS_KEEP=1      keep the temporary directory (it is also kept when an assertion fails)
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 path/to/agent-lsp" >&2
  exit 2
fi
BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
read -r -a SERVE <<< "${AGENTS_SERVE_ARGS:-serve --for-agents}"
SURVEY=()
[ "${AGENTS_SURVEY:-0}" = 1 ] && SURVEY=(--survey)

tmp="$(mktemp -d "${TMPDIR:-/tmp}/agent-lsp-agents.XXXXXX")"
mock_pids=()
status=1
cleanup() {
  for p in "${mock_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ "$status" = 0 ] && [ "${AGENTS_KEEP:-0}" != 1 ]; then
    rm -rf "$tmp"
  else
    echo "(kept $tmp: mock logs in */requests.jsonl, LSP traffic in */lsp.*)"
  fi
}
trap cleanup EXIT

start=$(date +%s.%N)
step_start=$start
timings=()
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }
step() {
  if [ -n "${step_name:-}" ]; then timings+=("$(elapsed "$step_start") s  $step_name"); fi
  step_name="$*"
  step_start=$(date +%s.%N)
  echo "== [$(elapsed "$start") s] $*"
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# ---- the runtimes
step "runtimes (npm ci only when missing)"
OPENCODE="$root/tests/runtime/node_modules/opencode-linux-x64/bin/opencode"
CLAUDE="$root/tests/claude_runtime/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
if [ ! -x "$OPENCODE" ]; then
  (cd "$root/tests/runtime" && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ ! -x "$CLAUDE" ]; then
  (cd "$root/tests/claude_runtime" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
[ -x "$OPENCODE" ] || fail "no opencode executable at $OPENCODE after npm ci in tests/runtime"
[ -x "$CLAUDE" ] || fail "no Claude Code executable at $CLAUDE after npm ci in tests/claude_runtime (its linux-x64 platform package is an optional dependency)"
echo "opencode $("$OPENCODE" --version 2>/dev/null | tail -n 1), Claude Code $(HOME="$tmp" "$CLAUDE" --version 2>/dev/null), agent-lsp ${SERVE[*]}"

# `agent-lsp` on PATH (the plugin's command) is a wrapper that keeps a copy of the LSP traffic:
# $AGENT_LSP_TRACE.<subcommand>.in (client to server) and .out.
mkdir -p "$tmp/bin"
cat > "$tmp/bin/agent-lsp" <<EOF
#!/bin/sh
trace="\${AGENT_LSP_TRACE:-$tmp/lsp}.\${1:-none}"
tee -a "\$trace.in" | "$BIN" "\$@" | tee -a "\$trace.out"
EOF
chmod +x "$tmp/bin/agent-lsp"

# run_in HOME_DIR PROJECT command...: an empty home, only 127.0.0.1, a 120 s limit.
run_in() {
  local home="$1" project="$2"
  shift 2
  mkdir -p "$home"
  (cd "$project" && env -i PATH="$tmp/bin:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 TMPDIR="${TMPDIR:-/tmp}" \
    HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" \
    XDG_CACHE_HOME="$home/.cache" XDG_STATE_HOME="$home/.local/state" \
    NO_PROXY=127.0.0.1 AGENT_LSP_TRACE="${TRACE:-$(dirname "$project")/lsp}" \
    "${RUN_ENV[@]}" timeout 120 "$@")
}
RUN_ENV=()

# claude_env: RUN_ENV for Claude Code talking to the mock model on $PORT, offline; as root,
# bypassPermissions also needs IS_SANDBOX=1.
claude_env() {
  RUN_ENV=(ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" ANTHROPIC_API_KEY=mock
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 DISABLE_ERROR_REPORTING=1)
  if [ "$(id -u)" = 0 ]; then RUN_ENV+=(IS_SANDBOX=1); fi
}

# claude_trusted DIR LABEL: Claude Code -p in DIR/project, trusted (a project's allow rules apply
# only then), with the home DIR/home and the mock model of DIR/script.json; then agent-lsp's check
# of the project into DIR/check.json.
claude_trusted() {
  local p="$1"
  python3 -c 'import json, sys; json.dump({"projects": {sys.argv[2]: {"hasTrustDialogAccepted": True}}}, open(sys.argv[1], "w"))' \
    "$p/home/.claude.json" "$(cd "$p/project" && pwd -P)"
  start_mock "$p"
  claude_env
  run_in "$p/home" "$p/project" "$CLAUDE" -p "go" --permission-mode default > "$p/out.txt" 2> "$p/err.txt" < /dev/null ||
    fail "claude -p ($2) failed: $(tail -n 20 "$p/err.txt")"
  RUN_ENV=()
  (cd "$p/project" && "$BIN" check . --no-global --format json > "$p/check.json") || true
}

new_project() {
  mkdir -p "$1/project"
  git -C "$1/project" init -q
}

# start_mock DIR: the mock model with DIR/script.json; sets PORT.
start_mock() {
  local dir="$1"
  rm -f "$dir/port"
  python3 "$here/mock_model.py" --script "$dir/script.json" --log "$dir/requests.jsonl" \
    --port-file "$dir/port" --var "PROJECT=$dir/project" &
  mock_pids+=($!)
  for _ in $(seq 100); do
    [ -s "$dir/port" ] && break
    sleep 0.1
  done
  [ -s "$dir/port" ] || fail "the mock model did not start within 10 s"
  PORT="$(cat "$dir/port")"
}

lsp_command_json() {
  python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$tmp/bin/agent-lsp" "${SERVE[@]}"
}

# ---- (a) opencode debug lsp diagnostics
step "(a) opencode debug lsp diagnostics: agent file, opencode.json, command file"
d="$tmp/oc-diag"
new_project "$d"
mkdir -p "$d/project/.opencode/agents" "$d/project/.opencode/commands"
cat > "$d/project/opencode.json" <<EOF
{
  "\$schema": "https://opencode.ai/config.json",
  "default_agent": "ghost",
  "lsp": {"agent-lsp": {"command": $(lsp_command_json), "extensions": [".md", ".json", ".jsonc"]}}
}
EOF
printf -- '---\ndescription: Reviews code\ndescripton: typo\n---\nYou review.\n' > "$d/project/.opencode/agents/reviewer.md"
printf -- '---\ndescription: Ships it\nagent: nosuchagent\n---\nShip $ARGUMENTS\n' > "$d/project/.opencode/commands/x.md"
# The three runs in parallel, each with its own copy of the project and its own home.
diag_files=(.opencode/agents/reviewer.md opencode.json .opencode/commands/x.md)
diag_pids=()
for i in 0 1 2; do
  cp -r "$d/project" "$d/project$i"
  (TRACE="$d/lsp$i" run_in "$d/home$i" "$d/project$i" "$OPENCODE" debug lsp diagnostics "${diag_files[$i]}" --pure \
    > "$d/diag$i.json" 2> "$d/diag$i.err") &
  diag_pids+=($!)
done
diag() { # INDEX CODE MESSAGE-PART
  local file="${diag_files[$1]}"
  wait "${diag_pids[$1]}" || fail "opencode debug lsp diagnostics $file failed: $(tail -n 5 "$d/diag$1.err")"
  python3 - "$d/diag$1.json" "$file" "$2" "$3" <<'EOF' || fail "opencode debug lsp diagnostics $file: no $2 with '$3' (see above)"
import json, sys
out, file, code, part = sys.argv[1:]
data = json.load(open(out))
diags = next((v for k, v in data.items() if k.endswith("/" + file)), None)
if diags is None:
    print(f"no diagnostics for {file}; files: {list(data)}")
    sys.exit(1)
hit = [d for d in diags if d.get("code") == code and part in d["message"]]
if not hit:
    print(f"{file}: no {code} with {part!r}; got: {json.dumps(diags, indent=1)[:2000]}")
    sys.exit(1)
print(f"ok   {file}: {code} (severity {hit[0]['severity']}, source {hit[0].get('source')}): {hit[0]['message'][:100]}")
EOF
}
diag 0 unknown-key '`descripton` is not an agent field'
diag 1 invalid-default-agent 'default agent "ghost" not found'
diag 2 unknown-agent 'no opencode agent `nosuchagent`'
echo "-- LSP traffic from opencode debug lsp diagnostics (three runs):"
cat "$d"/lsp?."${SERVE[0]}".in > "$d/lsp.all.in"
python3 "$here/lsp_trace.py" "$d/lsp.all.in"

# ---- (b) opencode end to end
step "(b) opencode run with the mock model: write (five effects), write, edit"
d="$tmp/oc-e2e"
new_project "$d"
cat > "$d/script.json" <<'EOF'
[
  [{"text": "Writing the reviewer."},
   {"tool": "write", "input": {"filePath": "{{PROJECT}}/.opencode/agents/reviewer.md",
     "content": "---\ndescription: Reviews code\nmode: primry\nmodel: claude-sonnet\ndescripton: typo\npermission:\n  bash:\n    \"git diff\": allow\n    \"*\": ask\n---\nYou review code.\n"}}],
  [{"tool": "write", "input": {"filePath": "{{PROJECT}}/.opencode/agents/notes.md",
     "content": "Notes about the agents, no frontmatter.\n"}}],
  [{"tool": "edit", "input": {"filePath": "{{PROJECT}}/.opencode/agents/reviewer.md",
     "oldString": "mode: primry", "newString": "mode: primary"}}],
  [{"text": "done"}]
]
EOF
start_mock "$d"
cat > "$d/project/opencode.json" <<EOF
{
  "\$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4-5",
  "provider": {"anthropic": {"options": {"baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "mock"}}},
  "lsp": {"agent-lsp": {"command": $(lsp_command_json), "extensions": [".md", ".json", ".jsonc"]}}
}
EOF
git -C "$d/project" add -A
run_in "$d/home" "$d/project" "$OPENCODE" run --pure "go" > "$d/out.txt" 2> "$d/err.txt" ||
  fail "opencode run failed: $(tail -n 20 "$d/err.txt")"
log="$d/requests.jsonl"
python3 "$here/expect.py" "$log" "opencode refuses-to-start (invalid-value) + fix" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text 'got "primry"' --text 'Fix: Replace with `primary`'
python3 "$here/expect.py" "$log" "opencode value-ignored (unknown-key)" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text '`descripton` is not an agent field'
python3 "$here/expect.py" "$log" "opencode fails-when-used (invalid-model)" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text '"claude-sonnet" is not of the form `provider/model`'
python3 "$here/expect.py" "$log" "opencode rule-never-applies (shadowed-rule) + fix" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text 'this rule never applies' --text 'Fix: Move the catch-all'
python3 "$here/expect.py" "$log" "opencode file-ignored (no-frontmatter)" --after-step 1 --same-turn "${SURVEY[@]}" \
  --text 'this file has no frontmatter'
python3 "$here/expect.py" "$log" "opencode edit: the fixed error leaves the edit's result" --after-step 2 --same-turn "${SURVEY[@]}" \
  --absent 'got "primry"'
echo "-- what the model sees after the first write (opencode's write tool result):"
python3 "$here/expect.py" "$log" --excerpt "LSP errors detected" "</diagnostics>" || true
echo "-- LSP traffic from opencode:"
python3 "$here/lsp_trace.py" "$d/lsp.${SERVE[0]}.in"

# ---- (b) Claude Code end to end
step "(b) Claude Code -p with the mock model and the plugin: Write (effects), Read, Edit, Read"
d="$tmp/cc-e2e"
new_project "$d"
plugin="$root/editors/claude-code"
if [ "${SERVE[*]}" != "serve --for-agents" ]; then
  # The shipped plugin, with the server's arguments replaced.
  cp -r "$plugin" "$d/plugin"
  python3 - "$d/plugin/.claude-plugin/plugin.json" "${SERVE[@]}" <<'EOF'
import json, sys
path, args = sys.argv[1], sys.argv[2:]
m = json.load(open(path))
m["lspServers"]["agent-lsp"]["args"] = args
json.dump(m, open(path, "w"), indent=2)
EOF
  plugin="$d/plugin"
fi
cat > "$d/script.json" <<'EOF'
[
  [{"text": "Writing three agents."},
   {"tool": "Write", "input": {"file_path": "{{PROJECT}}/.claude/agents/nodesc.md",
     "content": "---\nname: nodesc\n---\nYou do things.\n"}},
   {"tool": "Write", "input": {"file_path": "{{PROJECT}}/.claude/agents/reviewer.md",
     "content": "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Frobnicate, Agent(a), Agent(b)\nmodel: sonet\n---\nYou review code.\n"}},
   {"tool": "Write", "input": {"file_path": "{{PROJECT}}/.opencode/agents/planner.md",
     "content": "---\ndescription: Plans work\nmode: primry\npermission:\n  bash:\n    \"git log*\": allow\n    \"*\": ask\n---\nYou plan.\n"}}],
  [{"tool": "Read", "input": {"file_path": "{{PROJECT}}/.claude/agents/reviewer.md"}}],
  [{"tool": "Edit", "input": {"file_path": "{{PROJECT}}/.claude/agents/reviewer.md",
     "old_string": "model: sonet\n", "new_string": "model: sonet\ncolor: purpel\n"}}],
  [{"tool": "Read", "input": {"file_path": "{{PROJECT}}/.claude/agents/nodesc.md"}}],
  [{"tool": "Read", "input": {"file_path": "{{PROJECT}}/.claude/agents/reviewer.md"}}],
  [{"text": "done"}]
]
EOF
start_mock "$d"
# Writing under .claude/ needs a permission that --allowedTools does not give (Claude Code
# protects its own folder), hence bypassPermissions; as root that also needs IS_SANDBOX=1.
claude_env
run_in "$d/home" "$d/project" "$CLAUDE" -p "go" --output-format stream-json --verbose --plugin-dir "$plugin" \
  --permission-mode bypassPermissions --allowedTools "Write,Edit,Read" --debug > "$d/out.jsonl" 2> "$d/err.txt" ||
  fail "claude -p failed: $(tail -n 20 "$d/err.txt")"
RUN_ENV=()
grep -q '"permission_denials":\[\]' "$d/out.jsonl" || fail "Claude Code denied a tool call: $(grep -o '"permission_denials":.\{0,400\}' "$d/out.jsonl")"
log="$d/requests.jsonl"
# The plugin's PostToolUse hook (`agent-lsp hook`) tells the model in the very next request.
python3 "$here/expect.py" "$log" "claude hook: file-ignored (missing-field) + fix" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text 'agent-lsp checked .claude/agents/nodesc.md: 1 finding changes what the runtime does' \
  --text 'there is no `description`: Claude Code skips this agent' --text 'Fix: Add a `description`'
python3 "$here/expect.py" "$log" "claude hook: value-ignored (unknown-tool, shadowed-rule)" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text 'agent-lsp checked .claude/agents/reviewer.md' \
  --text 'Claude Code has no tool `Frobnicate`' --text 'only the last `Agent(...)` entry applies'
python3 "$here/expect.py" "$log" "claude hook: fails-when-used (invalid-model) + fix" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text '`sonet` is no model alias' --text 'Fix: Replace with `sonnet`'
python3 "$here/expect.py" "$log" "claude hook: Edit, value-ignored (invalid-color) + fix" --after-step 2 --same-turn "${SURVEY[@]}" \
  --text 'Claude Code has no color `purpel`' --text 'Fix: Replace with `purple`'
# Claude Code writing an opencode agent: the effects no Claude Code agent rule has.
python3 "$here/expect.py" "$log" "claude hook: an opencode agent, refuses-to-start + rule-never-applies + fixes" --after-step 0 --same-turn "${SURVEY[@]}" \
  --text 'agent-lsp checked .opencode/agents/planner.md: 2 findings change what the runtime does' \
  --text 'got "primry"; opencode refuses to load the configuration' --text 'Fix: Replace with `primary`' \
  --text 'this rule never applies' --text 'Fix: Move the catch-all'
# The language server's diagnostics come asynchronously (see README.md): in the first request
# built after the server published them (one request late in every run so far; more than two
# fails). They carry the rule code and the source.
python3 "$here/expect.py" "$log" "claude LSP: file-ignored (missing-field) + fix" --after-step 0 --max-late 2 "${SURVEY[@]}" \
  --text '<new-diagnostics>' --text '[missing-field] (agent-lsp)' --text '[invalid-model] (agent-lsp)'
python3 "$here/expect.py" "$log" "claude LSP: Edit, value-ignored (invalid-color)" --after-step 2 --max-late 2 "${SURVEY[@]}" \
  --text '[invalid-color] (agent-lsp)'
echo "claude refuses-to-start, rule-never-applies: no rule gives these effects for a Claude Code agent file; asserted above on the opencode agent Claude Code wrote"
echo "-- what the model sees (the first <new-diagnostics> block; Claude Code sends it as a message of role \"system\" after the tool result):"
python3 "$here/expect.py" "$log" --excerpt "<new-diagnostics>" "</new-diagnostics>" || true
echo "-- what the model sees in the same turn (the plugin's hook; Claude Code adds it after the tool result):"
python3 "$here/expect.py" "$log" --excerpt "agent-lsp checked .claude/agents/reviewer.md" "Fix: Replace with \`sonnet\`." || true
echo "-- LSP traffic from Claude Code:"
python3 "$here/lsp_trace.py" "$d/lsp.${SERVE[0]}.in"

# ---- (d) the MCP server through both runtimes: the model asks, the runtime hands back the answer
step "(d) agent-lsp mcp through opencode run and Claude Code -p: the model calls decide"
d="$tmp/oc-mcp"
new_project "$d"
mkdir -p "$d/project/.opencode/agents"
printf -- '---\ndescription: Reviews code\nmode: subagent\npermission:\n  bash:\n    "*": ask\n    "git push*": deny\n---\nYou review code.\n' \
  > "$d/project/.opencode/agents/reviewer.md"
cat > "$d/script.json" <<'EOF'
[
  [{"tool": "agent-lsp_decide", "input": {"agent": "reviewer", "permission": "bash", "input": "git push origin main"}}],
  [{"text": "done"}]
]
EOF
start_mock "$d"
cat > "$d/project/opencode.json" <<EOF
{
  "\$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4-5",
  "provider": {"anthropic": {"options": {"baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "mock"}}},
  "mcp": {"agent-lsp": {"type": "local", "command": ["$tmp/bin/agent-lsp", "mcp"], "enabled": true}}
}
EOF
git -C "$d/project" add -A
run_in "$d/home" "$d/project" "$OPENCODE" run --pure "go" > "$d/out.txt" 2> "$d/err.txt" ||
  fail "opencode run (MCP) failed: $(tail -n 20 "$d/err.txt")"
python3 "$here/expect.py" "$d/requests.jsonl" "opencode MCP decide: the deciding rule and where it is written" --after-step 0 --same-turn \
  --text '"action": "deny"' --text '.opencode/agents/reviewer.md:7:5'
echo "-- what the model gets back from decide (opencode's tool result):"
python3 "$here/expect.py" "$d/requests.jsonl" --excerpt '"action"' '}' || true

d="$tmp/cc-mcp"
new_project "$d"
mkdir -p "$d/project/.claude/agents"
printf -- '---\nname: helper\ndescription: Answers questions about the code\ntools: Read, Grep\n---\nYou answer questions.\n' \
  > "$d/project/.claude/agents/helper.md"
# Claude Code defers MCP tools: the model loads the schema with ToolSearch, then calls the tool.
cat > "$d/script.json" <<'EOF'
[
  [{"tool": "ToolSearch", "input": {"query": "select:mcp__plugin_agent-lsp_agent-lsp__decide", "max_results": 1}}],
  [{"tool": "mcp__plugin_agent-lsp_agent-lsp__decide", "input": {"agent": "helper", "permission": "bash", "input": "git push"}}],
  [{"text": "done"}]
]
EOF
start_mock "$d"
claude_env
run_in "$d/home" "$d/project" "$CLAUDE" -p "go" --output-format stream-json --verbose --plugin-dir "$plugin" \
  --permission-mode bypassPermissions > "$d/out.jsonl" 2> "$d/err.txt" ||
  fail "claude -p (MCP) failed: $(tail -n 20 "$d/err.txt")"
RUN_ENV=()
python3 "$here/expect.py" "$d/requests.jsonl" "claude MCP: ToolSearch loads decide" --after-step 0 --same-turn \
  --text 'mcp__plugin_agent-lsp_agent-lsp__decide'
python3 "$here/expect.py" "$d/requests.jsonl" "claude MCP decide: a Claude Code agent's tool grant" --after-step 1 --same-turn \
  --text '"action":"deny"' --text 'not in `tools` (.claude/agents/helper.md:4:8)'
echo "-- what the model gets back from decide (Claude Code's tool result: the structured content, compact):"
python3 "$here/expect.py" "$d/requests.jsonl" --excerpt '{"action"' ']}' || true

# ---- (e) Claude Code's path rules, judged by Claude Code: the model reads files under deny
# rules; Claude Code must deny exactly the reads agent-lsp's policy model decides `deny`.
step "(e) Claude Code -p: Read under settings deny rules, Claude Code's denials against agent-lsp's decisions"
d="$tmp/cc-paths"
new_project "$d"
paths=(.env sub/.env secrets/a.txt secrets/deep/b.txt sub/secrets/c.txt key.pem deep/dir/key.pem
  config/prod.json sub/config/prod.json config/dev.json id_rsa a/b/id_rsa build/out.js x/build/y.js
  keys/a.key keys/sub/b.key src/app.ts src/lib/util.ts vault/x.txt sub/vault/y.txt secrets.txt notes.pem.txt
  README.md docs/guide.md)
for f in "${paths[@]}"; do
  mkdir -p "$d/project/$(dirname "$f")"
  echo "the text of $f" > "$d/project/$f"
done
mkdir -p "$d/project/.claude/agents"
printf -- '---\nname: reader\ndescription: Reads files\ntools: Read\n---\nYou read.\n' > "$d/project/.claude/agents/reader.md"
# The last rule is absolute (`//` and the project's path).
python3 -c 'import json, sys
rules = ["./.env", "secrets/**", "*.pem", "/config/prod.json", "**/id_rsa", "build/", "/keys/*.key", "src/*.ts",
         "/" + sys.argv[2] + "/vault/**"]
json.dump({"permissions": {"deny": [f"Read({r})" for r in rules]}}, open(sys.argv[1], "w"))' \
  "$d/project/.claude/settings.json" "$(cd "$d/project" && pwd -P)"
# One step: the model asks for every read at once.
python3 -c 'import json, sys
reads = [{"tool": "Read", "input": {"file_path": "{{PROJECT}}/" + p}} for p in sys.argv[2:]]
json.dump([reads, [{"text": "done"}]], open(sys.argv[1], "w"))' "$d/script.json" "${paths[@]}"
start_mock "$d"
claude_env
run_in "$d/home" "$d/project" "$CLAUDE" -p "go" --output-format stream-json --verbose \
  --permission-mode default > "$d/out.jsonl" 2> "$d/err.txt" ||
  fail "claude -p (path rules) failed: $(tail -n 20 "$d/err.txt")"
RUN_ENV=()
for f in "${paths[@]}"; do
  (cd "$d/project" && "$BIN" explain --no-global --who Read "$f" --dialect claude --format json) \
    > "$d/who.${f//\//_}.json" || fail "agent-lsp explain --who Read $f"
done
python3 "$here/paths_judged.py" "$d" "${paths[@]}" || fail "Claude Code and agent-lsp disagree on a path rule (see above)"

# ---- (f) CLAUDE.md imports and a command's @mentions, judged by Claude Code: what reaches the
# model is exactly what agent-lsp does not report as `missing-path`.
step "(f) Claude Code -p: CLAUDE.md imports and a command's @mentions against agent-lsp's missing-path"
d="$tmp/cc-memory"
new_project "$d"
mkdir -p "$d/project/docs" "$d/project/sub" "$d/project/.claude/commands"
printf '# Project\nRead @docs/present.md and @missing.md then @notes.md, too.\nNot an import: `@code.md`. Not text: @image.png here. A folder: @sub here.\n' \
  > "$d/project/CLAUDE.md"
printf 'PRESENT-MARKER @deeper.md @deeper-missing.md\n' > "$d/project/docs/present.md"
echo "DEEPER-MARKER" > "$d/project/docs/deeper.md"
echo "NOTES-MARKER" > "$d/project/notes.md"
echo "CODE-MARKER" > "$d/project/code.md"
echo "PNG-MARKER" > "$d/project/image.png"
printf -- '---\ndescription: Ship it\n---\nCommand body @docs/present.md and @cmd-missing.md\n' \
  > "$d/project/.claude/commands/ship.md"
echo '[[{"text": "done"}]]' > "$d/script.json"
start_mock "$d"
claude_env
run_in "$d/home" "$d/project" "$CLAUDE" -p "go" --output-format stream-json --verbose \
  > "$d/out.jsonl" 2> "$d/err.txt" || fail "claude -p (memory) failed: $(tail -n 20 "$d/err.txt")"
mv "$d/requests.jsonl" "$d/requests.go.jsonl"
run_in "$d/home" "$d/project" "$CLAUDE" -p "/ship" --output-format stream-json --verbose \
  > "$d/out.cmd.jsonl" 2> "$d/err.txt" || fail "claude -p /ship failed: $(tail -n 20 "$d/err.txt")"
RUN_ENV=()
mv "$d/requests.jsonl" "$d/requests.cmd.jsonl"
mv "$d/requests.go.jsonl" "$d/requests.jsonl"
(cd "$d/project" && "$BIN" check . --no-global --format json > "$d/check.json") || true
python3 "$here/memory_judged.py" "$d" || fail "Claude Code and agent-lsp disagree on imports (see above)"

# ---- (g) hook commands whose path variable is not in double quotes, judged by Claude Code: in a
# project and a plugin whose paths hold a space, the hooks that fail (and the guard that then
# blocks nothing) are exactly those agent-lsp reports as `unquoted-path-variable`.
step "(g) Claude Code -p: hook path variables in a folder with a space, against agent-lsp's unquoted-path-variable"
d="$tmp/cc-hooks with space"
new_project "$d"
g="$d/my plugin"
mkdir -p "$d/project/.claude/hooks" "$g/.claude-plugin" "$g/hooks" "$g/scripts"
: > "$d/marks.txt"
printf '#!/bin/sh\necho "$1" >> "%s"\n' "$d/marks.txt" > "$d/project/.claude/hooks/mark.sh"
printf '#!/bin/sh\necho guard >> "%s"\necho "blocked by the guard" >&2\nexit 2\n' "$d/marks.txt" > "$d/project/.claude/hooks/block.sh"
cp "$d/project/.claude/hooks/mark.sh" "$g/scripts/mark.sh"
chmod +x "$d/project/.claude/hooks/"*.sh "$g/scripts/mark.sh"
python3 - "$d/project/.claude/settings.json" "$g" <<'PY'
import json, sys
def handlers(*commands):
    return [{"matcher": "Bash", "hooks": [{"type": "command", "command": c} for c in commands]}]
json.dump({"hooks": {"PreToolUse": handlers(
    "$CLAUDE_PROJECT_DIR/.claude/hooks/mark.sh unquoted",
    "${CLAUDE_PROJECT_DIR}/.claude/hooks/mark.sh braced",
    '"$CLAUDE_PROJECT_DIR"/.claude/hooks/mark.sh quoted',
    "'$CLAUDE_PROJECT_DIR'/.claude/hooks/mark.sh single",
    "$CLAUDE_PROJECT_DIR/.claude/hooks/block.sh guard")}}, open(sys.argv[1], "w"), indent=2)
json.dump({"name": "guards", "version": "1.0.0"}, open(sys.argv[2] + "/.claude-plugin/plugin.json", "w"))
json.dump({"hooks": {"PreToolUse": handlers(
    "${CLAUDE_PLUGIN_ROOT}/scripts/mark.sh plugin-braced",
    "$CLAUDE_PLUGIN_ROOT/scripts/mark.sh plugin-unquoted",
    '"${CLAUDE_PLUGIN_ROOT}"/scripts/mark.sh plugin-quoted',
    "'${CLAUDE_PLUGIN_ROOT}'/scripts/mark.sh plugin-single")}}, open(sys.argv[2] + "/hooks/hooks.json", "w"), indent=2)
PY
python3 -c 'import json, sys
json.dump([[{"tool": "Bash", "input": {"command": "touch " + json.dumps(sys.argv[2]), "description": "mark"}}],
           [{"text": "done"}]], open(sys.argv[1], "w"))' "$d/script.json" "$d/bash-ran"
start_mock "$d"
claude_env
run_in "$d/home" "$d/project" "$CLAUDE" -p "go" --output-format stream-json --verbose --plugin-dir "$g" \
  --allowedTools Bash > "$d/out.jsonl" 2> "$d/err.txt" || fail "claude -p (hooks) failed: $(tail -n 20 "$d/err.txt")"
RUN_ENV=()
(cd "$d/project" && "$BIN" check . "$g" --no-global --format json > "$d/check.json") || true
python3 - "$d" <<'PY' || fail "Claude Code and agent-lsp disagree on which hooks fail (see above)"
import json, os, sys
d = sys.argv[1]
ran = set(open(os.path.join(d, "marks.txt")).read().split())
report = json.load(open(os.path.join(d, "check.json")))
files = {".claude/settings.json": os.path.join(d, "project/.claude/settings.json"),
         "my plugin/hooks/hooks.json": os.path.join(d, "my plugin/hooks/hooks.json")}
labels, reported = set(), set()
for path in files.values():
    for line in open(path):
        if line.strip().startswith('"command":'):
            labels.add(json.loads("{" + line.strip().rstrip(",") + "}")["command"].split()[-1])
for f in report["diagnostics"]:
    if f["code"] != "unquoted-path-variable":
        continue
    path = next(p for k, p in files.items() if f["path"].replace(os.sep, "/").endswith(k))
    line = open(path).read().splitlines()[f["range"]["start"]["line"] - 1]
    reported.add(json.loads("{" + line.strip().rstrip(",") + "}")["command"].split()[-1])
failed = labels - ran
print(f"hooks that ran: {sorted(ran)}; failed: {sorted(failed)}; agent-lsp reports: {sorted(reported)}")
ok = failed == reported and {"quoted", "plugin-quoted"} <= ran and "guard" in failed
if not os.path.exists(os.path.join(d, "bash-ran")):
    print("the Bash call did not run: the unquoted guard blocked it after all")
    ok = False
sys.exit(0 if ok else 1)
PY

# ---- (h) an agent's allow over a top-level deny, and subagents without a description, judged by
# opencode: what it runs, and how its Task tool lists each subagent to the model.
step "(h) opencode run: overridden-deny and undescribed-subagent against what opencode does"
d="$tmp/oc-risk"
new_project "$d"
mkdir -p "$d/project/.opencode/agents"
echo '[[{"tool": "bash", "input": {"command": "touch ran.txt", "description": "mark"}}], [{"text": "done"}]]' > "$d/script.json"
start_mock "$d"
cat > "$d/project/opencode.json" <<EOF
{
  "model": "anthropic/claude-sonnet-4-5",
  "provider": {"anthropic": {"options": {"baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "mock"}}},
  "permission": {"bash": {"*": "allow", "touch *": "deny"}},
  "agent": {
    "ship": {"mode": "primary", "description": "Ships.", "permission": {"bash": "allow"}},
    "plain": {"mode": "primary", "description": "Keeps the guard."},
    "lister": {"prompt": "Lists."}
  }
}
EOF
printf -- '---\nmode: subagent\n---\nYou test.\n' > "$d/project/.opencode/agents/tester.md"
printf -- '---\nmode: subagent\ndescription: ""\n---\nYou note.\n' > "$d/project/.opencode/agents/blank.md"
printf -- '---\nmode: subagent\ndescription: Reviews a change.\n---\nYou review.\n' > "$d/project/.opencode/agents/reviewer.md"
git -C "$d/project" add -A
for agent in ship plain; do
  rm -f "$d/project/ran.txt" "$d/requests.jsonl"
  run_in "$d/home" "$d/project" "$OPENCODE" run --pure --agent "$agent" "go" > "$d/out.$agent.txt" 2> "$d/err.$agent.txt" ||
    fail "opencode run --agent $agent failed: $(tail -n 20 "$d/err.$agent.txt")"
  if [ -e "$d/project/ran.txt" ]; then echo ran > "$d/ran.$agent"; fi
  cp "$d/requests.jsonl" "$d/requests.$agent.jsonl"
done
(cd "$d/project" && "$BIN" check . --no-global --format json > "$d/check.json") || true
python3 - "$d" <<'PY' || fail "opencode and agent-lsp disagree on overridden-deny or undescribed-subagent (see above)"
import json, os, re, sys
d = sys.argv[1]
report = json.load(open(os.path.join(d, "check.json")))
def named(code):
    return sorted(f["message"].split('"')[1] for f in report["diagnostics"] if f["code"] == code)
ran = sorted(a for a in ("ship", "plain") if os.path.exists(os.path.join(d, "ran." + a)))
overriding = named("overridden-deny")
print(f"agents that ran the denied `touch`: {ran}; agent-lsp's overridden-deny: {overriding}")
ok = ran == overriding == ["ship"]
task = None
for line in open(os.path.join(d, "requests.plain.jsonl")):
    body = json.loads(line).get("body") or {}
    for tool in body.get("tools") or []:
        if tool.get("name") == "task":
            task = tool["description"]
if task is None:
    print("no request offered the task tool")
    sys.exit(1)
listed = dict(re.findall(r"^- ([^:\n]+): ?(.*)$", task.split("Available agent types")[-1], re.M))
manual = "This subagent should only be called manually by the user."
undescribed = sorted(n for n, text in listed.items() if text.strip() in ("", manual))
reported = named("undescribed-subagent")
print(f"the task tool lists without a description: {undescribed}; agent-lsp's undescribed-subagent: {reported}")
ok = ok and undescribed == reported == ["blank", "lister", "tester"] and "reviewer" in listed
sys.exit(0 if ok else 1)
PY
# The fix, judged too: `check --fix --unsafe-fixes` on a copy restates the deny in `ship`'s own
# rules, and opencode then refuses `ship` the command; agent-lsp reports nothing there any more.
cp -r "$d/project" "$d/fixed"
rm -f "$d/fixed/ran.txt"
(cd "$d/fixed" && "$BIN" check . --no-global --fix --unsafe-fixes > "$d/fix.txt" 2>&1) || true
grep -q '"ship": {.*"bash": {"\*": "allow", "touch \*": "deny"}' "$d/fixed/opencode.json" ||
  fail "the overridden-deny fix did not restate the deny in ship's rules: $(cat "$d/fixed/opencode.json" "$d/fix.txt")"
run_in "$d/home" "$d/fixed" "$OPENCODE" run --pure --agent ship "go" > "$d/out.fixed.txt" 2> "$d/err.fixed.txt" ||
  fail "opencode run --agent ship (fixed) failed: $(tail -n 20 "$d/err.fixed.txt")"
[ ! -e "$d/fixed/ran.txt" ] || fail "after the overridden-deny fix, opencode still let ship run the denied touch"
(cd "$d/fixed" && "$BIN" check . --no-global --format json > "$d/check.fixed.json") || true
python3 - "$d/check.fixed.json" <<'PY' || fail "agent-lsp still reports overridden-deny after its own fix"
import json, sys
left = [f for f in json.load(open(sys.argv[1]))["diagnostics"] if f["code"] == "overridden-deny"]
print(f"after the fix: opencode refused ship the denied touch; overridden-deny findings left: {len(left)}")
sys.exit(1 if left else 0)
PY

# ---- (i) an allow rule for a program that runs whatever its arguments hold, judged by Claude
# Code: each rule alone in a trusted project's settings, the model asks for a command the rule
# does not name (through that program); the rules that let it run must be exactly those
# agent-lsp reports as `broad-grant`, and the narrower twins let nothing through.
step "(i) Claude Code -p: allow rules for command runners against agent-lsp's broad-grant"
d="$tmp/cc-runners"
mkdir -p "$d"
cases=(
  'env|Bash(env *)|env touch ran'
  'python|Bash(python3:*)|python3 -c "open('"'ran'"', '"'w'"')"'
  'shell|Bash(bash -c *)|bash -c "touch ran"'
  'xargs|Bash(xargs *)|xargs touch ran < /dev/null'
  'timeout|Bash(timeout *)|timeout 5 touch ran'
  'npm-exec|Bash(npm exec *)|npm exec -- touch ran'
  'script|Bash(python3 scripts/check.py *)|python3 -c "open('"'ran'"', '"'w'"')"'
  'npm-test|Bash(npm test *)|touch ran'
)
for c in "${cases[@]}"; do
  IFS='|' read -r name rule command <<< "$c"
  p="$d/$name"
  mkdir -p "$p/project/.claude" "$p/home"
  git -C "$p/project" init -q
  python3 -c 'import json, sys; json.dump({"permissions": {"allow": [sys.argv[2]]}}, open(sys.argv[1], "w"))' \
    "$p/project/.claude/settings.json" "$rule"
  python3 -c 'import json, sys; json.dump([[{"tool": "Bash", "input": {"command": sys.argv[2], "description": "run"}}], [{"text": "done"}]], open(sys.argv[1], "w"))' \
    "$p/script.json" "$command"
  claude_trusted "$p" "$rule"
done
python3 - "$d" "${cases[@]}" <<'PY' || fail "Claude Code and agent-lsp disagree on an allow rule for a command runner (see above)"
import json, os, sys
d = sys.argv[1]
ok = True
for case in sys.argv[2:]:
    name, rule, command = case.split("|", 2)
    ran = os.path.exists(os.path.join(d, name, "project", "ran"))
    report = json.load(open(os.path.join(d, name, "check.json")))
    reported = any(f["code"] == "broad-grant" for f in report["diagnostics"])
    good = ran == reported
    ok = ok and good
    print(f"{'ok  ' if good else 'FAIL'} {rule:38} Claude Code ran `{command}`: {ran}; agent-lsp broad-grant: {reported}")
# The measure is only worth something when both sides of it occur.
ran = [c for c in sys.argv[2:] if os.path.exists(os.path.join(d, c.split("|")[0], "project", "ran"))]
sys.exit(0 if ok and 0 < len(ran) < len(sys.argv[2:]) else 1)
PY

# ---- (j) a hook script named from the current folder, judged by Claude Code: the model runs
# `cd sub`, then a command the PreToolUse guard refuses. The guard named by a relative path is
# not found from `sub` and the command runs; the anchored one refuses it. The projects where it
# ran must be exactly those agent-lsp reports as `relative-hook-path`.
step "(j) Claude Code -p: a guard hook named by a relative path, after the model's cd, against agent-lsp's relative-hook-path"
d="$tmp/cc-relative"
for variant in relative anchored; do
  p="$d/$variant"
  mkdir -p "$p/project/.claude/hooks" "$p/project/sub" "$p/home"
  git -C "$p/project" init -q
  printf '#!/bin/sh\nif grep -q touch; then echo "refused by the guard" >&2; exit 2; fi\nexit 0\n' > "$p/project/.claude/hooks/guard.sh"
  chmod +x "$p/project/.claude/hooks/guard.sh"
  if [ "$variant" = relative ]; then guard='.claude/hooks/guard.sh'; else guard='"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'; fi
  python3 -c 'import json, sys
json.dump({"permissions": {"allow": ["Bash(cd *)", "Bash(touch *)"]},
           "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": sys.argv[2]}]}]}},
          open(sys.argv[1], "w"), indent=2)' "$p/project/.claude/settings.json" "$guard"
  echo '[[{"tool": "Bash", "input": {"command": "cd sub", "description": "cd"}}], [{"tool": "Bash", "input": {"command": "touch ran", "description": "mark"}}], [{"text": "done"}]]' > "$p/script.json"
  claude_trusted "$p" "$variant guard"
done
python3 - "$d" <<'PY' || fail "Claude Code and agent-lsp disagree on a guard hook named by a relative path (see above)"
import json, os, sys
d = sys.argv[1]
ran, reported = [], []
for variant in ("relative", "anchored"):
    if os.path.exists(os.path.join(d, variant, "project", "sub", "ran")):
        ran.append(variant)
    report = json.load(open(os.path.join(d, variant, "check.json")))
    if any(f["code"] == "relative-hook-path" for f in report["diagnostics"]):
        reported.append(variant)
print(f"the guard let `touch` run after `cd sub`: {ran}; agent-lsp's relative-hook-path: {reported}")
sys.exit(0 if ran == reported == ["relative"] else 1)
PY

# ---- (c) the plugin and the marketplace
step "(c) claude plugin validate (plugin, marketplace) and agent-lsp check of both"
validate() {
  local out="$tmp/validate.$(basename "$1").json"
  (cd "$tmp" && env -i PATH=/usr/bin:/bin HOME="$tmp/validate-home" "$CLAUDE" plugin validate --json --strict "$1" > "$out") ||
    fail "claude plugin validate --strict $1: $(head -c 3000 "$out")"
  python3 - "$out" <<'EOF' || fail "claude plugin validate $1 (see above)"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["manifest"]
print(f"ok   {m['type']} {m['file']}: success={d['success']}, errors={m['errors']}, warnings={m['warnings']}")
sys.exit(0 if d["success"] and not m["errors"] and not m["warnings"] else 1)
EOF
}
mkdir -p "$tmp/validate-home"
validate "$root/editors/claude-code"
validate "$root"
(cd "$root" && "$BIN" check editors/claude-code .claude-plugin --no-global) || fail "agent-lsp check editors/claude-code .claude-plugin is not clean"

step "done"
printf '%s\n' "${timings[@]}"
echo "total $(elapsed "$start") s"
status=0
