#!/usr/bin/env bash
# The differential fuzzer of opencode.json (tests/runtime/config_fuzz.rs) on a larger batch than
# CI's: generated configs judged by the released opencode 1.18.34 and by agent-lsp, case by case.
#
# usage: scripts/config-fuzz.sh [CASES] [SEED]
#   CASES  how many cases (default 2000; CI runs 300)
#   SEED   the generator's seed (default 1, CI's); case i of a seed is the same whatever CASES
#
# The environment passes through: CONFIG_FUZZ_JOBS (concurrent requests to opencode, default 2),
# CONFIG_FUZZ_BATCH (cases per opencode server, default 500), CONFIG_FUZZ_SHOW (how many
# disagreeing cases are printed in full, default 30), CONFIG_FUZZ_ONLY=3,17 (just these cases of
# the seed), CONFIG_FUZZ_RECORD=FILE (every case and opencode's answer as JSON Lines).
#
# Exit status: 0 when every case agrees, non-zero otherwise (the report says where).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cases="${1:-2000}"
seed="${2:-1}"
case "$cases$seed" in
  *[!0-9]*) echo "usage: scripts/config-fuzz.sh [CASES] [SEED]  (numbers)" >&2; exit 2 ;;
esac
cd "$root/tests/runtime"
npm ci --no-audit --no-fund --loglevel=error
export OPENCODE_BIN="$root/tests/runtime/node_modules/opencode-linux-x64/bin/opencode"
"$OPENCODE_BIN" --version
cd "$root"
CONFIG_FUZZ_CASES="$cases" CONFIG_FUZZ_SEED="$seed" \
  cargo test --test runtime -- --ignored config_fuzz --nocapture
