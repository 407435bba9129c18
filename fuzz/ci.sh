#!/bin/sh
# CI step: fuzz every target for a fixed number of runs; any crash, timeout or out-of-memory
# fails the step (exit 1) and prints the input. Works on a stable toolchain.
#
#   fuzz/ci.sh                  # each target for a fixed number of runs (about 40 s each here)
#   FUZZ_SECONDS=300 fuzz/ci.sh # explore: each target for 300 s, FUZZ_SEED (default 1) as seed
#
# The default is reproducible: the same seed, the same seed corpus (seed.sh) and the same number
# of runs make libFuzzer try the same inputs on every machine, so CI fails only on a change of the
# code, never on the luck of a run (a CI run once found a crash that 40 s here had not). A cap of
# 120 s per target keeps a slow machine within budget; it then tries a prefix of the same inputs.
# Exploring finds new crashes: run it for long with other seeds, keep what it finds in
# regressions/ (README.md), and fix them.
#
# It installs cargo-fuzz (pinned) when missing, seeds the corpora (seed.sh), builds all
# targets at once and runs them one after the other. The whole step takes about 6 minutes on a
# 2-core machine from nothing (see README.md); the build is most of it.
set -eu
cd "$(dirname "$0")"
start=$(date +%s)
elapsed() { echo "[$(($(date +%s) - start))s] $*"; }

CARGO_FUZZ_VERSION=0.13.2
targets="frontmatter jsonc lsp analyze"
# Runs per target: about 40 s each on a 2-core machine.
runs_of() {
    case "$1" in
        frontmatter) echo 50000 ;;
        jsonc) echo 45000 ;;
        lsp) echo 12000 ;;
        analyze) echo 30000 ;;
    esac
}

# cargo-fuzz passes `-Z` flags to rustc; RUSTC_BOOTSTRAP=1 allows them on a stable toolchain.
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version 2>/dev/null | grep -qF "$CARGO_FUZZ_VERSION"; then
    cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
    elapsed "cargo-fuzz $CARGO_FUZZ_VERSION installed"
fi

cargo fmt --check

./seed.sh

# No sanitizer: the analysis has no `unsafe`, and AddressSanitizer would only slow the runs.
# 16 codegen units instead of cargo-fuzz's default of 1: the build uses every core, for slightly
# slower code.
build="--sanitizer none --codegen-units 16"
# shellcheck disable=SC2086
cargo fuzz build $build
elapsed "targets built"

rm -rf ci-artifacts
failed=""
for t in $targets; do
    dict=analyze.dict
    [ "$t" = lsp ] && dict=lsp.dict
    mkdir -p "ci-artifacts/$t"
    log="ci-artifacts/$t.log"
    if [ -n "${FUZZ_SECONDS:-}" ]; then
        budget="-max_total_time=$FUZZ_SECONDS"
        elapsed "fuzz $t for ${FUZZ_SECONDS}s"
    else
        budget="-runs=$(runs_of "$t") -max_total_time=120"
        elapsed "fuzz $t for $(runs_of "$t") runs"
    fi
    # shellcheck disable=SC2086
    if cargo fuzz run $build "$t" "corpus/$t" -- \
        -dict="$dict" -seed="${FUZZ_SEED:-1}" $budget -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="ci-artifacts/$t/" -print_final_stats=1 > "$log" 2>&1; then
        grep -a -E "DONE|stat::number_of_executed_units|stat::average_exec_per_sec" "$log" || true
    else
        failed="$failed $t"
        grep -a -E -A 8 "panicked at|ERROR: libFuzzer|ALARM|out-of-memory" "$log" | head -n 80
        for f in "ci-artifacts/$t"/*; do
            [ -f "$f" ] || continue
            echo "== $t: $f (reproduce: RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none $t $f)"
            od -An -c "$f" | head -n 40
        done
    fi
done

if [ -n "$failed" ]; then
    elapsed "fuzzing failed (crash, timeout or out-of-memory) in:$failed" >&2
    exit 1
fi
elapsed "fuzzing: no crash in $targets"
