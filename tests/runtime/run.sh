#!/usr/bin/env bash
# The runtime differential test: install the pinned opencode release from npm (no network is
# needed once installed) and compare agent-lsp with it on every workspace of tests/runtime, and
# on the generated opencode.json cases of config_fuzz.rs (300 from seed 1; CONFIG_FUZZ_CASES and
# CONFIG_FUZZ_SEED change that, scripts/config-fuzz.sh runs a larger batch).
#
# The tests also compare opencode's answers with the recordings tests/verdicts/opencode-*.jsonl
# (agents, config, tui, policy) and fail when they differ; RECORD_VERDICTS=1 in the environment
# (scripts/record-verdicts.sh sets it) makes them write the recordings instead. Plain
# `cargo test --test runtime` replays the recordings without opencode (see main.rs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
npm ci --no-audit --no-fund --loglevel=error
export OPENCODE_BIN="$here/node_modules/opencode-linux-x64/bin/opencode"
"$OPENCODE_BIN" --version
cd "$here/../.."
cargo test --test runtime -- --ignored --nocapture
