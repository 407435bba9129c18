#!/bin/sh
# Build the seed corpora in fuzz/corpus/<target> from the repository's example files (and
# ../shared/corpus when it is there):
#
# - analyze:     a kind byte (0 config, 1 agent, 2 mode file, 3 Claude Code agent, 5 Zuno config,
#                6 Zuno agent, 7 skill, 8 + 10 * runtime command, 9 agent-lsp.toml, 59 Codex
#                config.toml, 69 Codex agent) + a file;
# - frontmatter: Markdown agents as they are;
# - jsonc:       config files as they are;
# - lsp:         an encoding byte, `didOpen` of a config and an agent (each text NUL-terminated),
#                then a few queries and edits (see fuzz_targets/lsp.rs for the format).
#
# Seeds are named after their source, so running it again overwrites rather than adds.
set -eu
cd "$(dirname "$0")"
for t in analyze frontmatter jsonc lsp; do mkdir -p "corpus/$t"; done

configs=$(
    find ../test-workspace ../tests -name 'opencode.json*' -type f 2>/dev/null | sort
    ls ../../shared/corpus/B_opencode_config/* 2>/dev/null || true
)
agents=$(
    find ../test-workspace -path '*agents*' -name '*.md' -type f | sort
    ls ../../shared/corpus/A_opencode_agent/* 2>/dev/null || true
)
modes=$(find ../test-workspace -path '*mode*' -name '*.md' -type f | sort)
# Claude Code agents: Markdown with frontmatter too, other keys.
claude=$(
    find ../test-workspace/.claude ../test-workspace/plugins -name '*.md' -type f | sort
    ls ../../shared/corpus/C_claude_agent/* 2>/dev/null || true
)

name() { # file -> a seed name unique per source file
    printf '%s' "$1" | sed 's|^\(\.\./\)*||' | tr -c 'A-Za-z0-9._-' '_'
}

n=0
for f in $configs; do
    { printf '\000'; cat "$f"; } > "corpus/analyze/$(name "$f")"
    cp "$f" "corpus/jsonc/$(name "$f")"
    n=$((n + 1))
done
for f in $agents; do
    { printf '\001'; cat "$f"; } > "corpus/analyze/$(name "$f")"
    cp "$f" "corpus/frontmatter/$(name "$f")"
    n=$((n + 1))
done
for f in $modes; do
    { printf '\002'; cat "$f"; } > "corpus/analyze/$(name "$f")"
    cp "$f" "corpus/frontmatter/$(name "$f")"
    n=$((n + 1))
done
for f in $(find ../test-workspace -name 'zuno.json*' -type f | sort); do
    { printf '\005'; cat "$f"; } > "corpus/analyze/$(name "$f")-zuno"
    cp "$f" "corpus/jsonc/$(name "$f")-zuno"
done
for f in $(find ../test-workspace/.zuno -name '*.md' -type f | sort); do
    { printf '\006'; cat "$f"; } > "corpus/analyze/$(name "$f")-zuno"
    cp "$f" "corpus/frontmatter/$(name "$f")"
done
for f in $claude; do
    { printf '\003'; cat "$f"; } > "corpus/analyze/$(name "$f")-claude"
    cp "$f" "corpus/frontmatter/$(name "$f")"
    n=$((n + 1))
done

# Skills (kind 7, opencode), commands (kind 8 + 10 * runtime) and a project file (kind 9).
for f in $(find ../test-workspace -name 'SKILL.md' -type f | sort); do
    { printf '\007'; cat "$f"; } > "corpus/analyze/$(name "$f")"
    cp "$f" "corpus/frontmatter/$(name "$f")"
    n=$((n + 1))
done
for f in $(find ../test-workspace -path '*command*' -name '*.md' -type f | sort); do
    case "$f" in
        */.claude/*) k='\022' ;; # 18: Claude Code
        */.zuno/*) k='\034' ;;   # 28: Zuno
        *) k='\010' ;;           # 8: opencode
    esac
    { printf "$k"; cat "$f"; } > "corpus/analyze/$(name "$f")"
    cp "$f" "corpus/frontmatter/$(name "$f")"
    n=$((n + 1))
done
{
    printf '\011'
    printf '# agent-lsp settings\n[rules]\nunknown-key = "warning"\nhidden-primary = "off"\n\n'
    printf '[files]\nexclude = ["legacy/**", "./drafts/*.md"]\ndialects = ["opencode", "claude"]\n'
} > corpus/analyze/project-file
n=$((n + 1))
# Codex: a project's config.toml (kind 59) and agent files (kind 69), from test-workspace and the
# corpus.
for f in $(find ../test-workspace/.codex ../tests/corpus/codex -name '*.toml' -type f | sort); do
    case "$f" in
        */config.toml) k='\073' ;; # 59
        *) k='\105' ;;             # 69
    esac
    { printf "$k"; cat "$f"; } > "corpus/analyze/$(name "$f")"
    n=$((n + 1))
done

# Gemini CLI: settings.json (kind 79), agents (149), commands (219), GEMINI.md (124) from
# test-workspace and the corpus; an extension manifest (9) and a skill it loads (247), inline.
for f in $(find ../test-workspace/.gemini ../test-workspace/GEMINI.md ../tests/corpus/gemini -type f \( -name '*.json' -o -name '*.md' -o -name '*.toml' \) | sort); do
    case "$f" in
        */settings.json) k='\117' ;; # 79
        */GEMINI.md) k='\174' ;;     # 124
        *.toml) k='\333' ;;          # 219
        *.md) k='\225' ;;            # 149
        *) continue ;;
    esac
    { printf "$k"; cat "$f"; } > "corpus/analyze/$(name "$f")-gemini"
    n=$((n + 1))
done
printf '\011{"name": "ext", "version": "1.0.0", "contextFileName": ["GEMINI.md", "../x.md"], "mcpServers": {"s": {"command": "x", "comand": 1}}}\n' > corpus/analyze/gemini-extension
printf '\367---\nname: 123\ndescription: Use when: x\n  more\n---\nBody.\n' > corpus/analyze/gemini-skill
n=$((n + 2))

# lsp: pair the i-th small config with the i-th small agent (both under 2 kB, so that a seed
# fits in -max_len=4096), in both encodings, and append some operations:
#   03 01 04        hover on slot 0 at line 1, column 4
#   0c 01 02        completion on slot 1 at line 1, column 2
#   05 02 06        definition/references/rename on slot 0 at line 2, column 6
#   06 0e           fix-all edit and symbols of slots 0 and 1
#   29 01 00 01 ff "x" 00 02 00 02 00 "y: 1\n" 00
#                   two edits on slot 1: replace line 1 with "x", insert a line at line 2
#   10 ... 00       open the untitled Markdown document (slot 2) with the agent
#   18 ... 00       open the Claude Code agent (slot 3) with test-workspace's code-reviewer
#   1b 01 04        hover on slot 3 at line 1, column 4
#   1f 17           close slots 3 and 2
small() { [ "$(wc -c < "$1")" -lt 2048 ]; }
small_configs=$(for f in $configs; do small "$f" && echo "$f"; done || true)
small_agents=$(for f in $agents; do small "$f" && echo "$f"; done || true)
set -- $small_agents
i=0
for c in $small_configs; do
    [ $# -gt 0 ] || break
    a=$(eval "echo \${$((i % $# + 1))}")
    i=$((i + 1))
    for enc in 000 001; do
        out="corpus/lsp/$(name "$c")-$enc"
        {
            printf "\\$enc\\000"; cat "$c"
            printf '\000\010'; cat "$a"
            printf '\000\003\001\004\014\001\002\005\002\006\006\016'
            printf '\051\001\000\001\377x\000\002\000\002\000y: 1\n\000'
            printf '\020'; cat "$a"
            printf '\000\030'; cat ../test-workspace/.claude/agents/code-reviewer.md
            printf '\000\033\001\004\037\027'
        } > "$out"
        n=$((n + 1))
    done
done
# Inputs that once failed a target (fuzz/regressions/<target>/) are seeds too, so every run
# checks them again first.
for t in analyze frontmatter jsonc lsp; do
    for f in regressions/$t/*; do
        [ -f "$f" ] || continue
        cp "$f" "corpus/$t/regression-$(basename "$f")"
        n=$((n + 1))
    done
done
echo "$n seeds in fuzz/corpus/{analyze,frontmatter,jsonc,lsp}"
