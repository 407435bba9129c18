#!/usr/bin/env bash
# The Codex differential test: install the pinned Codex release from npm (lock file with
# integrity hashes; it needs no network, no login and no key once installed) and compare
# agent-lsp with it on every case of tests/codex_runtime (see main.rs).
# The test also compares Codex's answers with the recording tests/verdicts/codex-config.jsonl
# (which plain `cargo test` replays without Codex) and fails when it is stale; with
# RECORD_VERDICTS=1 it writes it instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# --ignore-scripts: the package's launcher is not used; the binary is the platform package's.
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
export CODEX_BIN="$here/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
if [ ! -x "$CODEX_BIN" ]; then
  echo "npm ci did not install @openai/codex-linux-x64 (an optional dependency of @openai/codex): $CODEX_BIN is missing" >&2
  exit 1
fi
"$CODEX_BIN" --version
cd "$here/../.."
cargo test --test codex_runtime -- --ignored --nocapture
