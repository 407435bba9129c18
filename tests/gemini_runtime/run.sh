#!/usr/bin/env bash
# The Gemini CLI differential test: install the pinned Gemini CLI release from npm (lock file
# with integrity hashes; a single bundled package, no install scripts) and compare agent-lsp with
# it on every case of tests/gemini_runtime (see main.rs), offline: a stand-in for the Gemini API
# on 127.0.0.1 answers it, inside a network namespace with no route out where the machine
# allows one.
# The test also compares Gemini CLI's answers with the recording tests/verdicts/gemini.jsonl
# (which plain `cargo test` replays without Gemini CLI) and fails when it is stale; with
# RECORD_VERDICTS=1 it writes it instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
npm ci --ignore-scripts --omit=optional --no-audit --no-fund --loglevel=error
node "$here/node_modules/@google/gemini-cli/bundle/gemini.js" --version
cd "$here/../.."
cargo test --test gemini_runtime -- --ignored --nocapture
