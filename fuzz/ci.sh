#!/bin/sh
# CI step: fuzz every target for a short fixed budget; any crash, timeout or out-of-memory
# fails the step (exit 1) and prints the input. Works on a stable toolchain.
#
#   fuzz/ci.sh              # each target for FUZZ_SECONDS (default 40) seconds
#   FUZZ_SECONDS=300 fuzz/ci.sh
#
# It installs cargo-fuzz (pinned) when missing, seeds the corpora (seed.sh), builds all
# targets at once and runs them one after the other. The whole step takes about 6 minutes on a
# 2-core machine from nothing (see README.md); the build is most of it.
set -eu
cd "$(dirname "$0")"
start=$(date +%s)
elapsed() { echo "[$(($(date +%s) - start))s] $*"; }

CARGO_FUZZ_VERSION=0.13.2
seconds=${FUZZ_SECONDS:-40}
targets="frontmatter jsonc lsp analyze"

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
    elapsed "fuzz $t for ${seconds}s"
    # shellcheck disable=SC2086
    if cargo fuzz run $build "$t" "corpus/$t" -- \
        -dict="$dict" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
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
elapsed "fuzzing: no crash in $targets (${seconds}s each)"
