#!/bin/sh
# Build a seed corpus for the `analyze` target in fuzz/corpus/analyze from the repository's
# example files: the first byte of each seed selects the kind (0 config, 1 agent, 2 mode file).
set -eu
cd "$(dirname "$0")"
out=corpus/analyze
mkdir -p "$out"
n=0
seed() { # kind-byte file
    n=$((n + 1))
    { printf "\\$1"; cat "$2"; } > "$out/seed-$n"
}
for f in $(find ../test-workspace ../tests -name 'opencode.json*' 2>/dev/null) ../../shared/corpus/B_opencode_config/*; do
    [ -f "$f" ] && seed 000 "$f"
done
for f in $(find ../test-workspace -path '*agents*' -name '*.md') ../../shared/corpus/A_opencode_agent/*; do
    [ -f "$f" ] && seed 001 "$f"
done
for f in $(find ../test-workspace -path '*mode*' -name '*.md'); do
    [ -f "$f" ] && seed 002 "$f"
done
echo "$n seeds in fuzz/$out"
