#!/usr/bin/env bash
# Mutation testing of the Rust code a change touches: cargo-mutants on `git diff BASE` (committed
# and working-tree changes of `src/**/*.rs` against BASE; new untracked files are not in it).
#
# usage: scripts/mutants.sh [BASE | --sample K[/SHARD] | --mutants FILE] [--timeout-total SECONDS]
#                           [--timeout SECONDS] [--output DIR] [--log] [-- CARGO_MUTANTS_ARGS...]
#   BASE             the revision to diff against; default origin/main if it exists, else the
#                    merge base with main, else HEAD~1
#   --sample K/S     instead of a diff: shard S of K of the whole crate's mutants, round-robin
#                    (`--shard S/K --sharding round-robin`: every K-th mutant from the S-th), to
#                    measure what the suite misses; `--sample K` alone picks S from today's date
#                    (days since 1970 mod K), so that each day measures where nobody looked
#   --mutants FILE   exactly the mutants FILE names, one per line as this script prints a miss
#                    (`src/x.rs:12:5: replace ...`), e.g. to check that new tests kill them
#   --log            with --sample: append the run's line to scripts/mutants-log.md
#   --timeout-total  cap on the whole run (default 1800 s, 3600 s with --sample); what was
#                    found so far is reported
#   --timeout        per-mutant cap on the test run, in seconds (default: three times the
#                    unmutated run's time)
#   --output DIR     where mutants.out/ goes (default target/mutants-out)
#   after `--`       passed to cargo mutants as they are (e.g. `-- --jobs 2`)
#
# Exit status: 0 no mutant missed, 1 some mutant missed (each printed `file:line:col: replacement`),
# 2 usage error, 3 cargo-mutants could not test (the unmutated tree fails its tests, the build
# breaks, ...).
#
# The tests run through `cargo nextest run --profile mutants` when cargo-nextest is installed:
# that profile (.config/nextest.toml) leaves out the slowest tests. Without nextest, `cargo test`
# with the same tests skipped.
set -euo pipefail

usage() {
    sed -n '5,22p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

base=""
sample=""
shard=""
named=""
log=""
total=""
per_mutant=""
output=""
extra=()
while (($# > 0)); do
    case "$1" in
        --timeout-total)
            [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || usage
            total=$2
            shift 2
            ;;
        --timeout)
            [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || usage
            per_mutant=$2
            shift 2
            ;;
        --sample)
            [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*(/[0-9]+)?$ ]] || usage
            sample=${2%%/*}
            [[ $2 == */* ]] && shard=${2#*/}
            shift 2
            ;;
        --mutants)
            [[ $# -ge 2 && -f $2 ]] || usage
            named=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
            shift 2
            ;;
        --log)
            log=1
            shift
            ;;
        --output)
            [[ $# -ge 2 ]] || usage
            output=$2
            shift 2
            ;;
        --)
            shift
            extra=("$@")
            break
            ;;
        -h | --help) usage ;;
        -*)
            echo "unknown option: $1" >&2
            usage
            ;;
        *)
            [[ -z $base ]] || usage
            base=$1
            shift
            ;;
    esac
done

root=$(git rev-parse --show-toplevel)
cd "$root"
command -v cargo-mutants >/dev/null || {
    echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
    exit 3
}

modes=0
for m in "$base" "$sample" "$named"; do [[ -n $m ]] && modes=$((modes + 1)); done
((modes <= 1)) || usage
[[ -z $log || -n $sample ]] || usage
# A sample of 1 in 200 takes about 40 minutes on 2 cores; a diff run is usually far smaller.
if [[ -z $total ]]; then
    if [[ -n $sample ]]; then total=3600; else total=1800; fi
fi
if [[ -n $sample && -z $shard ]]; then
    shard=$(($(date -u +%s) / 86400 % sample))
fi
[[ -z $shard ]] || ((shard < sample)) || {
    echo "the shard must be below K: --sample $sample/$shard" >&2
    exit 2
}
if ((modes == 0)); then
    if git rev-parse --verify --quiet origin/main >/dev/null; then
        base=origin/main
    elif mb=$(git merge-base HEAD main 2>/dev/null); then
        base=$mb
    else
        base=HEAD~1
    fi
fi

output=${output:-$root/target/mutants-out}
mkdir -p "$output"
output=$(cd "$output" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$SECONDS

if [[ -n $sample ]]; then
    select=(--shard "$shard/$sample" --sharding round-robin)
    what="the sample (shard $shard of $sample of the crate's mutants, round-robin)"
elif [[ -n $named ]]; then
    # One anchored name filter per mutant and the files they are in (cargo-mutants 27 lists its
    # struct-field deletions whatever the name filter says: --file keeps those to these files).
    select=()
    while IFS= read -r line; do
        [[ -n $line ]] || continue
        select+=(-F "^$(printf '%s' "$line" | sed 's/[][\.^$*+?(){}|]/\\&/g')\$" --file "${line%%:*}")
    done <"$named"
    what="the mutants named in $named"
else
    git rev-parse --verify --quiet "$base^{commit}" >/dev/null || {
        echo "not a revision: $base" >&2
        exit 2
    }
    diff=$work/diff.patch
    git diff "$base" -- 'src/*.rs' >"$diff"
    if [[ ! -s $diff ]]; then
        echo "no change to src/**/*.rs since $base: nothing to mutate"
        exit 0
    fi
    select=(--in-diff "$diff")
    what="the diff against $base ($(git rev-parse --short "$base"))"
fi
listed=$(cargo mutants "${select[@]}" --list 2>"$work/list.err" | wc -l) || {
    cat "$work/list.err" >&2
    exit 3
}
echo "$listed mutants in $what"
if ((listed == 0)); then
    exit 0
fi

# cargo-mutants builds in a copy of the tree under $TMPDIR: the tests read ../shared/corpus beside
# the checkout, so the copy gets one too.
scratch=$work/scratch
mkdir -p "$scratch"
[[ -e $root/../shared ]] && ln -s "$(cd "$root/../shared" && pwd)" "$scratch/shared"

# The `mutants` cargo profile (Cargo.toml): the dev profile without debug info, linked faster.
args=("${select[@]}" --output "$output" --profile mutants)
# A mutant that makes the tests hang is noticed all the same: three times the unmutated run is
# room enough (the slowest passing mutant runs took 45 s against a 50 s baseline on 2 cores), where
# cargo-mutants' own five times spent 40 % of a sample's wall time waiting out four hangs.
if [[ -n $per_mutant ]]; then
    args+=(--timeout "$per_mutant")
else
    args+=(--timeout-multiplier 3)
fi
test_args=()
if cargo nextest --version >/dev/null 2>&1; then
    args+=(--test-tool nextest)
    export NEXTEST_PROFILE=mutants
else
    # The same tests as the nextest profile `mutants` leaves out.
    test_args=(-- --skip policies_hold_or_fail_with_counterexamples_on_the_corpus
        --skip lsp_features_at_every_position_utf16 --skip lsp_features_at_the_end_of_every_prefix
        --skip agrees_with_brute_force_on_every_short_input)
fi

# Builds go to their own target directory, kept between runs (dependencies are built once), never
# the checkout's target/debug. Its parent is not the clone, so `agent-lsp setup` in the tests
# names the copy's source as the one it was built from (tests/setup.rs pins that path).
# Not with more than one job: each job mutates its own copy of the tree, but the copies build
# the same artifacts, so in one shared target directory a job's build can overwrite another's
# (or look fresh to it) and a mutant is judged by another mutant's binary (seen: mutants reported
# missed that their tests kill). Each job then builds in its copy's own target directory.
jobs=1
for ((i = 0; i < ${#extra[@]}; i++)); do
    case "${extra[$i]}" in
        --jobs=* | -j=*) jobs=${extra[$i]#*=} ;;
        --jobs | -j) jobs=${extra[$((i + 1))]:-1} ;;
        -j[0-9]*) jobs=${extra[$i]#-j} ;;
    esac
done
target=(CARGO_TARGET_DIR="$root/target/mutants/target")
if [[ $jobs != 1 ]]; then
    target=()
    echo "$jobs jobs: each builds in its own copy's target directory (dependencies built once per job)"
fi
status=0
env "${target[@]}" TMPDIR="$scratch" RUST_LIB_BACKTRACE=0 \
    timeout --signal=INT --kill-after=60 "$total" \
    cargo mutants "${args[@]}" "${extra[@]}" -- "${test_args[@]}" || status=$?

out=$output/mutants.out
count() { if [[ -f $out/$1 ]]; then grep -c . "$out/$1" || true; else echo 0; fi; }
caught=$(count caught.txt)
missed=$(count missed.txt)
timed_out=$(count timeout.txt)
unviable=$(count unviable.txt)
wall=$((SECONDS - start))

if ((missed > 0)); then
    echo
    echo "missed (no test fails when the code is changed so):"
    sed 's/^/  /' "$out/missed.txt"
fi
echo
echo "mutants:             $listed"
echo "caught:              $caught"
echo "missed:              $missed"
echo "timed out:           $timed_out"
echo "unviable:            $unviable"
echo "wall time:           ${wall} s"
echo "details:             $out (log/ has each mutant's build and test output)"
if ((status == 124 || status == 130)); then
    echo "stopped at the ${total} s cap: $((listed - caught - missed - timed_out - unviable)) mutants not tested"
fi

if [[ -n $log ]] && ((status != 124 && status != 130)); then
    viable=$((caught + missed + timed_out))
    rate=$(awk -v m="$missed" -v v="$viable" 'BEGIN { printf "%.1f %%", v ? 100 * m / v : 0 }')
    printf '| %s | %s | %s/%s | %s | %s | %s | %s | %s | %s | %s s |\n' "$(date -u +%F)" \
        "$(git rev-parse --short HEAD)" "$shard" "$sample" "$listed" "$caught" "$missed" "$timed_out" \
        "$unviable" "$rate" "$wall" >>"$root/scripts/mutants-log.md"
    echo "logged in scripts/mutants-log.md"
fi

if ((missed > 0)); then
    exit 1
fi
# cargo-mutants: 0 all caught, 2 some missed, 3 some timed out; 4 means the unmutated tree failed.
case $status in
    0 | 2 | 3 | 124 | 130) exit 0 ;;
    *)
        echo "cargo mutants failed (exit $status); see $out/debug.log and $out/log/" >&2
        exit 3
        ;;
esac
