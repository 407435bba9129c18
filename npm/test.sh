#!/usr/bin/env bash
# The npm package as a user installs it, from a registry:
#
#   npm/test.sh BINARY [--no-precommit]
#
# packs BINARY for this machine with npm/pack.sh, publishes the platform package and the main
# package to a local verdaccio 6.8.0 (npm/test/package-lock.json, `npm ci`; 127.0.0.1, no uplink:
# it serves only what was published here), then in a fresh folder `npm install agent-lsp` and runs
# it the ways the README says: `npx agent-lsp check` (same output and status as BINARY),
# `--version`, `npm exec agent-lsp -- explain`, LSP over stdio through the launcher, SIGTERM, and
# the message on a platform without a package. Only this machine's platform package is published:
# npm must skip the other four optional dependencies. Last, unless --no-precommit, the npm
# pre-commit hook through the real pre-commit (tests/precommit/npm.sh) against the same registry.
# Every npm cache, config and folder is a fresh temporary one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: npm/test.sh BINARY [--no-precommit]" >&2; exit 1; }
binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
precommit=1
[ "${2:-}" = "--no-precommit" ] && precommit=0

start=$SECONDS
step_start=$SECONDS
step_name=""
step() {
  [ -z "$step_name" ] || printf '   %3d s  %s\n' $((SECONDS - step_start)) "$step_name"
  step_name="$1"
  step_start=$SECONDS
  [ -z "$1" ] || echo "== npm/test: $1"
}
fail() {
  echo "npm/test: FAILED: $*" >&2
  exit 1
}

work="$(mktemp -d)"
verdaccio_pid=""
cleanup() {
  if [ -n "$verdaccio_pid" ]; then kill "$verdaccio_pid" 2>/dev/null || true; wait "$verdaccio_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step "npm ci: verdaccio 6.8.0 (npm/test/package-lock.json)"
# The test's own tool, from npmjs.org with the lock file's integrity hashes and npm's usual cache
# (like tests/claude_runtime); nothing of agent-lsp comes from there.
(cd "$here/test" && npm ci --no-audit --no-fund --loglevel=error)

# From here on no npm setting of this machine applies: an empty user config, a fresh cache.
touch "$work/user-npmrc"
export npm_config_userconfig="$work/user-npmrc"
export npm_config_cache="$work/npm-cache"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

step "start verdaccio on 127.0.0.1"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
registry="http://127.0.0.1:$port/"
cat > "$work/verdaccio.yaml" <<YAML
storage: $work/storage
# No uplinks: the registry serves only what this test publishes.
uplinks: {}
packages:
  'agent-lsp*':
    access: \$all
    publish: \$all
  '**':
    access: \$all
    publish: \$authenticated
listen: 127.0.0.1:$port
# The platform package holds a 34 MB binary (the default limit is 10 MB).
max_body_size: 200mb
log: { type: file, path: $work/verdaccio.log, level: warn }
YAML
"$here/test/node_modules/.bin/verdaccio" --config "$work/verdaccio.yaml" > "$work/verdaccio.out" 2>&1 &
verdaccio_pid=$!
for _ in $(seq 100); do
  curl -fs "${registry}-/ping" > /dev/null 2>&1 && break
  kill -0 "$verdaccio_pid" 2>/dev/null || { cat "$work/verdaccio.out"; fail "verdaccio did not start"; }
  sleep 0.1
done
curl -fs "${registry}-/ping" > /dev/null || { cat "$work/verdaccio.out"; fail "verdaccio does not answer on $registry"; }
echo "verdaccio at $registry"

step "npm/pack.sh for this machine ($(uname -m) linux)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) triple=x86_64-unknown-linux-gnu platform=linux-x64 ;;
  Linux-aarch64) triple=aarch64-unknown-linux-gnu platform=linux-arm64 ;;
  *) fail "npm/test.sh runs on linux x64 and arm64" ;;
esac
"$here/pack.sh" --target "$triple" --binary "$binary" --out "$work/dist"
version="$(node -p 'require(process.argv[1]).version' "$here/agent-lsp/package.json")"
(cd "$work/dist" && sha256sum -c --quiet SHA256SUMS) || fail "SHA256SUMS does not match the files"

step "npm/pack.sh refuses an unknown target and a version that differs from Cargo.toml's"
set +e
"$here/pack.sh" --target riscv64gc-unknown-linux-gnu --binary "$binary" --out "$work/no" > "$work/pack-err.out" 2>&1; s=$?
set -e
[ "$s" -ne 0 ] && grep -q 'unknown target `riscv64gc-unknown-linux-gnu`' "$work/pack-err.out" || { cat "$work/pack-err.out"; fail "pack.sh took an unknown target"; }
mkdir -p "$work/bumped"
cp -R "$here" "$work/bumped/npm"
rm -rf "$work/bumped/npm/test/node_modules"
cp "$repo/README.md" "$repo/.pre-commit-hooks.yaml" "$work/bumped/"
sed 's/^version = ".*"/version = "9.9.9"/' "$repo/Cargo.toml" > "$work/bumped/Cargo.toml"
set +e
"$work/bumped/npm/pack.sh" --target "$triple" --binary "$binary" --out "$work/no" > "$work/pack-err.out" 2>&1; s=$?
set -e
cat "$work/pack-err.out"
[ "$s" -ne 0 ] && grep -q 'Cargo.toml says version 9.9.9' "$work/pack-err.out" && [ ! -e "$work/no" ] || fail "pack.sh packed with a version that differs from Cargo.toml's"

step "npm publish agent-lsp-$platform and agent-lsp $version (the other four platform packages are not published)"
# verdaccio lets anyone publish agent-lsp*, but npm publish wants a token to send.
printf '//127.0.0.1:%s/:_authToken=npm-test-anonymous\n' "$port" > "$work/user-npmrc"
for tgz in "agent-lsp-$platform-$version.tgz" "agent-lsp-$version.tgz"; do
  npm publish "$work/dist/$tgz" --registry "$registry" --loglevel=error > /dev/null ||
    fail "npm publish $tgz"
done
: > "$work/user-npmrc"

step "npm install agent-lsp in a fresh folder (.npmrc → the local registry)"
user="$work/user"
mkdir -p "$user"
cd "$user"
printf 'registry=%s\n' "$registry" > .npmrc
npm init -y > /dev/null
npm install agent-lsp --no-audit --no-fund > "$work/install.out" 2>&1 || { cat "$work/install.out"; fail "npm install agent-lsp"; }
cat "$work/install.out"
[ -x "node_modules/agent-lsp-$platform/bin/agent-lsp" ] || fail "the platform package agent-lsp-$platform was not installed"
others="$(cd node_modules && ls -d agent-lsp-* | grep -v "^agent-lsp-$platform\$" || true)"
[ -z "$others" ] || fail "npm installed platform packages of other platforms: $others"
[ "$(node -p 'require("agent-lsp/package.json").version')" = "$version" ] || fail "installed agent-lsp is not $version"
cp -R "$repo/test-workspace" test-workspace

step "npx agent-lsp check test-workspace --no-global: exit 1, the binary's output"
set +e
"$binary" check test-workspace --no-global > "$work/direct.out" 2>&1
direct=$?
npx agent-lsp check test-workspace --no-global > "$work/npx.out" 2>&1
via_npx=$?
set -e
[ "$direct" -eq 1 ] || fail "the binary itself exited $direct on test-workspace (expected 1)"
[ "$via_npx" -eq 1 ] || { cat "$work/npx.out"; fail "npx agent-lsp check exited $via_npx, expected 1"; }
diff -u "$work/direct.out" "$work/npx.out" || fail "npx agent-lsp check printed something else than the binary"
tail -n 1 "$work/npx.out"

step "npx agent-lsp --version"
v_direct="$("$binary" --version)"
v_npx="$(npx agent-lsp --version)"
[ "$v_direct" = "$v_npx" ] || fail "npx agent-lsp --version says '$v_npx', the binary '$v_direct'"
echo "$v_npx"

step "npm exec agent-lsp -- explain --root test-workspace --no-global"
set +e
"$binary" explain --root test-workspace --no-global > "$work/explain-direct.out" 2>&1
e_direct=$?
npm exec agent-lsp -- explain --root test-workspace --no-global > "$work/explain-npm.out" 2>&1
e_npm=$?
set -e
[ "$e_npm" -eq "$e_direct" ] || { cat "$work/explain-npm.out"; fail "npm exec explain exited $e_npm, the binary $e_direct"; }
diff -u "$work/explain-direct.out" "$work/explain-npm.out" || fail "npm exec explain printed something else than the binary"
grep -q . "$work/explain-npm.out" || fail "explain printed nothing"
echo "exit $e_npm, $(wc -l < "$work/explain-npm.out") lines, same as the binary"

step "LSP over stdio through node_modules/.bin/agent-lsp serve"
python3 "$here/test/lsp_signal.py" lsp "$user/node_modules/.bin/agent-lsp" "$user/test-workspace"

step "SIGTERM, SIGINT, SIGHUP to the launcher"
python3 "$here/test/lsp_signal.py" signal "$user/node_modules/.bin/agent-lsp"

step "exit status passes through; AGENT_LSP_BINARY"
set +e
node_modules/.bin/agent-lsp check --no-such-option > /dev/null 2>&1; s_npm=$?
"$binary" check --no-such-option > /dev/null 2>&1; s_direct=$?
set -e
[ "$s_npm" -eq "$s_direct" ] || fail "a usage error exits $s_npm through the launcher, $s_direct from the binary"
printf '#!/bin/sh\necho "override $*"\nexit 7\n' > "$work/fake-agent-lsp"
chmod +x "$work/fake-agent-lsp"
set +e
out="$(AGENT_LSP_BINARY="$work/fake-agent-lsp" node_modules/.bin/agent-lsp a b)"; s=$?
set -e
[ "$s" -eq 7 ] && [ "$out" = "override a b" ] || fail "AGENT_LSP_BINARY: got '$out', exit $s"
echo "usage error: $s_npm = $s_direct; AGENT_LSP_BINARY ran the override with the arguments, exit 7 passed through"

step "a platform without a package, and the platform package missing"
set +e
AGENT_LSP_TEST_PLATFORM=linux-riscv64 node_modules/.bin/agent-lsp --version > "$work/riscv.out" 2>&1; s=$?
set -e
cat "$work/riscv.out"
[ "$s" -eq 2 ] || fail "linux-riscv64: exit $s, expected 2"
grep -q 'linux-riscv64' "$work/riscv.out" && grep -q 'agent-lsp-linux-riscv64' "$work/riscv.out" &&
  grep -q 'cargo install' "$work/riscv.out" || fail "the linux-riscv64 message lacks the platform, the package or cargo install"
mv "node_modules/agent-lsp-$platform" "$work/moved-platform-package"
set +e
npx agent-lsp --version > "$work/missing.out" 2>&1; s=$?
set -e
mv "$work/moved-platform-package" "node_modules/agent-lsp-$platform"
cat "$work/missing.out"
[ "$s" -eq 2 ] || fail "platform package removed: exit $s, expected 2"
grep -q "agent-lsp-$platform" "$work/missing.out" && grep -q 'cargo install' "$work/missing.out" ||
  fail "the missing-package message lacks the package name or cargo install"

step "a Node.js older than engines.node (18)"
# process.versions.node made to say 16 before the launcher runs: the floor check, not old syntax.
echo 'Object.defineProperty(process.versions, "node", { value: "16.20.2" });' > "$work/old-node.js"
set +e
NODE_OPTIONS="--require $work/old-node.js" node_modules/.bin/agent-lsp --version > "$work/old.out" 2>&1; s=$?
set -e
cat "$work/old.out"
[ "$s" -eq 2 ] && grep -q 'Node.js 16.20.2 is too old' "$work/old.out" && grep -q 'Node.js 18 or later' "$work/old.out" ||
  fail "Node 16: exit $s, expected 2 and the message"

if [ "$precommit" = 1 ]; then
  step "the npm pre-commit hook (tests/precommit/npm.sh) against this registry"
  "$repo/tests/precommit/npm.sh" "$registry"
fi

step ""
echo "npm/test: passed in $((SECONDS - start)) s"
