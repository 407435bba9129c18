#!/usr/bin/env bash
# The npm pre-commit hook (`agent-lsp-npm`, language: node) end to end, as a team without Rust
# uses it:
#
#   tests/precommit/npm.sh REGISTRY_URL
#
# REGISTRY_URL is an npm registry that serves agent-lsp at the version of .pre-commit-hooks.yaml
# (npm/test.sh starts a local verdaccio, publishes there and calls this script; once agent-lsp is
# on npmjs.org, https://registry.npmjs.org/ works too). Installs the pinned pre-commit from PyPI
# into a venv, makes a throwaway git repository with an agent file holding a mistake and runs
# `pre-commit try-repo` on the hook with no cargo on PATH: pre-commit's node environment (system
# node, nodeenv) runs `npm install -g agent-lsp@VERSION` from the registry. The hook must fail and
# name the code and the file; once the file is fixed it must pass.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -eq 1 ] || { echo "usage: tests/precommit/npm.sh REGISTRY_URL (npm/test.sh calls it with its local registry)" >&2; exit 1; }
registry="$1"
PRE_COMMIT_VERSION=4.7.0
start=$SECONDS

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "pre-commit==$PRE_COMMIT_VERSION"
pre_commit="$work/venv/bin/pre-commit"
"$pre_commit" --version

# Both hooks check the same files (the npm one reuses the Rust one's pattern).
"$work/venv/bin/python" - "$repo/.pre-commit-hooks.yaml" <<'PY'
import sys, yaml
hooks = {h["id"]: h for h in yaml.safe_load(open(sys.argv[1]))}
npm = hooks["agent-lsp-npm"]
if npm["files"] != hooks["agent-lsp"]["files"]:
    sys.exit("tests/precommit/npm.sh: the npm hook's files pattern differs from the Rust hook's")
if npm["language"] != "node" or not any(d.startswith("agent-lsp@") for d in npm["additional_dependencies"]):
    sys.exit("tests/precommit/npm.sh: the npm hook is not language: node with agent-lsp@VERSION")
PY

export PRE_COMMIT_HOME="$work/pre-commit-home"
export npm_config_registry="$registry"
export npm_config_cache="$work/npm-cache"
export npm_config_update_notifier=false npm_config_audit=false npm_config_fund=false
export XDG_CONFIG_HOME="$work/xdg"
unset OPENCODE_CONFIG OPENCODE_CONFIG_DIR
# No Rust: cargo and rustc are not on PATH (so the hook cannot fall back to a build).
path=""
IFS=: read -r -a dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  [ -x "$d/cargo" ] || [ -x "$d/rustc" ] || path="${path:+$path:}$d"
done
export PATH="$path"
if command -v cargo > /dev/null; then echo "tests/precommit/npm.sh: cargo is still on PATH"; exit 1; fi

project="$work/project"
mkdir -p "$project/.opencode/agents"
cd "$project"
git init --quiet
git config user.email ci@example.invalid
git config user.name ci
printf '{\n  "default_agent": "reviewer"\n}\n' > opencode.json
printf -- '---\ndescription: Reviews code\nmode: primay\n---\nReview the code.\n' > .opencode/agents/reviewer.md
printf '# Notes\n\nmode: primay is not checked here.\n' > README.md
git add -A
git commit --quiet -m "agent with a mistake"

fail() {
  echo "tests/precommit/npm.sh: $*"
  cat "$work/out"
  exit 1
}

set +e
"$pre_commit" try-repo "$repo" agent-lsp-npm --all-files > "$work/out" 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "the hook passed on a file with \`mode: primay\`"
grep -q 'error\[invalid-value\]' "$work/out" || fail "no invalid-value diagnostic in the output"
grep -q -- '--> .opencode/agents/reviewer.md:3:7' "$work/out" || fail "the diagnostic does not name the file"
grep -q 'README.md' "$work/out" && fail "README.md was checked (the hook's files pattern is too wide)"
# The binary that ran came from the registry: pre-commit installed agent-lsp@VERSION, and npm
# fetched the platform package's tarball into this script's npm cache (try-repo keeps its
# environments in a temporary store of its own, so they cannot be looked at afterwards).
grep -q 'Initializing environment for .*:agent-lsp@' "$work/out" || fail "pre-commit did not install agent-lsp@VERSION"
grep -rqs 'agent-lsp-linux-[a-z0-9]*/-/agent-lsp-linux-' "$npm_config_cache/_cacache/index-v5" ||
  fail "npm fetched no agent-lsp platform package from $registry"
echo "the npm hook fails on the mistake: ok"

# A warning whose effect changes the runtime fails the hook too (`--fail-on effect`): opencode
# moves the unknown `temprature` into the provider options.
sed -i 's/mode: primay/mode: primary\ntemprature: 0.2/' .opencode/agents/reviewer.md
git commit --quiet -am "fix the mode, misspell a key"
set +e
"$pre_commit" try-repo "$repo" agent-lsp-npm --all-files > "$work/out" 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "the hook passed on a file with \`temprature: 0.2\` (a warning whose effect is value-ignored)"
grep -q 'warning\[unknown-key\]' "$work/out" || fail "no unknown-key diagnostic in the output"
grep -q -- '--> .opencode/agents/reviewer.md:4:1' "$work/out" || fail "the unknown-key diagnostic does not name the file"
echo "the npm hook fails on a warning that changes the runtime: ok"

sed -i 's/temprature: 0.2/temperature: 0.2/' .opencode/agents/reviewer.md
git commit --quiet -am "fix the key"
"$pre_commit" try-repo "$repo" agent-lsp-npm --all-files > "$work/out" 2>&1 || fail "the hook failed on the fixed file"
grep -q 'Passed' "$work/out" || fail "the hook did not run"
echo "the npm hook passes once the file is fixed: ok"

echo "tests/precommit/npm.sh: passed in $((SECONDS - start)) s"
