#!/usr/bin/env bash
# The Claude Code differential test: install the pinned Claude Code release from npm (lock file
# with integrity hashes; it needs no network once installed, no login and no key) and compare
# agent-lsp with it on every workspace of tests/claude_runtime; then, when it exists, the plugin
# harness tests/claude_plugins with the same executable.
# The claude_runtime tests also compare Claude Code's answers with the recordings
# tests/verdicts/claude-{agents,settings,mcp}.jsonl (which plain `cargo test` replays without the
# runtime) and fail when they are stale; with RECORD_VERDICTS=1 they write them instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# --ignore-scripts: the package's postinstall only sets up its own `claude` launcher, which is
# not used; the executable is the platform package's.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
export CLAUDE_BIN="$here/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
# The platform package is an optional dependency: npm skips it silently when it does not fit
# the machine, so say so here rather than fail later with a missing file.
if [ ! -x "$CLAUDE_BIN" ]; then
  echo "npm ci did not install @anthropic-ai/claude-code-linux-x64 (an optional dependency of @anthropic-ai/claude-code): $CLAUDE_BIN is missing" >&2
  exit 1
fi
cd "$here/../.."
cargo test --test claude_runtime -- --ignored --nocapture
# The plugin harness (plugin.json, marketplace.json, plugin commands and skills), same judge.
if [ -d tests/claude_plugins ]; then
  cargo test --test claude_plugins -- --ignored --nocapture
fi
