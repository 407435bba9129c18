#!/usr/bin/env bash
# The pre-commit hook end to end: install the pinned pre-commit from PyPI into a venv, make a
# throwaway git repository with an agent file holding a mistake and a .pre-commit-config.yaml that
# names this repository's hook at its HEAD commit, as a user's does, and run it with
# `pre-commit run --all-files` (pre-commit clones the repository and builds agent-lsp with
# `cargo install`). The hook must fail and name the code and the file; once the file is fixed it
# must pass. (A file given alone is checked in its project: tests/cli.rs covers that.)
#
# The hook is that of the committed HEAD: uncommitted changes are not in it (said when there are
# some). pre-commit installs it once into PRE_COMMIT_HOME and the second run reuses it, as on a
# user's machine. The build goes to CARGO_TARGET_DIR=target/precommit, whose dependencies stay
# compiled between local runs; on a clean tree (CI) to target/, where `cargo build --release` has
# compiled most of them minutes before (`cargo install` ignores Cargo.lock, as pre-commit runs it:
# a dependency with a newer release is compiled again; measured 191 s for the step, 337 s with
# two installs), and the binary it builds from the same commit lands in target/release, as the
# repository's own build would.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
PRE_COMMIT_VERSION=4.7.0
start=$(date +%s)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "pre-commit==$PRE_COMMIT_VERSION"
pre_commit="$work/venv/bin/pre-commit"
"$pre_commit" --version

# The hook's `files` pattern takes every kind of agent file and nothing else.
"$work/venv/bin/python" - "$repo/.pre-commit-hooks.yaml" <<'PY'
import re, sys, yaml
files = re.compile(yaml.safe_load(open(sys.argv[1]))[0]["files"])
checked = [
    "opencode.json", "sub/opencode.jsonc", ".opencode/opencode.json", "zuno.json", ".zuno/zuno.jsonc",
    ".opencode/agents/a.md", ".opencode/agent/team/b.md", ".opencode/mode/m.md", ".opencode/modes/m.md",
    ".opencode/commands/x/y.md", ".opencode/command/c.md", ".claude/agents/a.md", ".claude/agents/t/b.md",
    ".claude/commands/c.md", ".claude/skills/tdd/SKILL.md", ".opencode/skills/tdd/SKILL.md",
    ".opencode/tdd/SKILL.md", ".agents/skills/x/SKILL.md", ".zuno/skill/x/SKILL.md", ".zuno/agents/a.md",
    ".zuno/mode/m.md", ".zuno/commands/c.md", "pkg/.claude/agents/a.md", "agent-lsp.toml",
    "pkg/.agent-lsp.toml", ".claude-plugin/plugin.json", "plugins/p/.claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json", "CLAUDE.md", "pkg/CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md",
    ".claude/rules/go.md", ".claude/rules/lang/go.md", "dist/claude/plugins/go-dev/.claude-plugin/plugin.json",
    "dist/claude/plugins/go-dev/agents/gopher.md", "plugins/kit/commands/x/ship.md",
    "plugins/kit/skills/notes/SKILL.md", "dist/.claude-plugin/marketplace.json",
    ".claude/settings.json", ".claude/settings.local.json", "pkg/.claude/settings.json", ".mcp.json",
    "pkg/.mcp.json",
]
not_checked = [
    "README.md", "docs/agents/a.md", "opencode.json.bak", "myopencode.json", ".claude/command/c.md",
    ".opencode/agents/a.txt", "SKILL.md", "skills/x/SKILL.md", ".opencode/modes/a/b.md",
    "settings.json", ".claude/x/settings.json", "package.json", "my-agent-lsp.toml", "agent-lsp.toml.bak",
    "mcp.json", ".mcp.json.bak",
    "plugin.json", ".claude-plugin/other.json", "MYCLAUDE.md", "CLAUDE.md.bak", "docs/claude.md",
    ".claude/rules/go.txt", "plugins/agents/a.md", "plugins/kit/skills/SKILL.md", "plugins/kit/docs/a.md",
]
wrong = [p for p in checked if not files.search(p)] + [p for p in not_checked if files.search(p)]
if wrong:
    sys.exit(f"tests/precommit: the files pattern is wrong for {wrong}")
PY

export PRE_COMMIT_HOME="$work/pre-commit-home"
rev="$(git -C "$repo" rev-parse HEAD)"
if git -C "$repo" diff --quiet HEAD; then
  export CARGO_TARGET_DIR="$repo/target"
else
  echo "tests/precommit: the hook of HEAD ($rev) is checked; uncommitted changes are not in it"
  export CARGO_TARGET_DIR="$repo/target/precommit"
fi
# The hook reads no global opencode configuration of this machine.
export XDG_CONFIG_HOME="$work/xdg"
unset OPENCODE_CONFIG OPENCODE_CONFIG_DIR

project="$work/project"
mkdir -p "$project/.opencode/agents"
cd "$project"
git init --quiet
git config user.email ci@example.invalid
git config user.name ci
printf '{\n  "default_agent": "reviewer"\n}\n' > opencode.json
# A warning, not an error: opencode moves the unknown `temprature` into the provider options.
# The hook (`--fail-on effect`) fails on it, as on every finding that changes what the runtime
# does; errors fail anyway (tests/cli.rs).
printf -- '---\ndescription: Reviews code\nmode: primary\ntemprature: 0.2\n---\nReview the code.\n' > .opencode/agents/reviewer.md
printf '# Notes\n\ntemprature: 0.2 is not checked here.\n' > README.md
printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: agent-lsp\n' "$repo" "$rev" > .pre-commit-config.yaml
git add -A
git commit --quiet -m "agent with a mistake"

fail() {
  echo "tests/precommit: $*"
  cat "$work/out"
  exit 1
}

set +e
"$pre_commit" run --all-files > "$work/out" 2>&1
status=$?
set -e
[ "$status" -ne 0 ] || fail "the hook passed on a file with \`temprature: 0.2\` (a warning whose effect is value-ignored)"
grep -q 'warning\[unknown-key\]' "$work/out" || fail "no unknown-key diagnostic in the output"
grep -q -- '--> .opencode/agents/reviewer.md:4:1' "$work/out" || fail "the diagnostic does not name the file"
grep -q 'README.md' "$work/out" && fail "README.md was checked (the hook's files pattern is too wide)"
grep -q 'Installing environment' "$work/out" || fail "pre-commit did not install the hook"
echo "the hook fails on the mistake: ok"

sed -i 's/temprature: 0.2/temperature: 0.2/' .opencode/agents/reviewer.md
git commit --quiet -am "fix the key"
"$pre_commit" run --all-files > "$work/out" 2>&1 || fail "the hook failed on the fixed file"
grep -q 'Passed' "$work/out" || fail "the hook did not run"
grep -q 'Installing environment' "$work/out" && fail "the second run installed the hook again"
echo "the hook passes once the file is fixed: ok"

echo "tests/precommit: passed in $(( $(date +%s) - start )) s"
