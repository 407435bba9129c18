#!/usr/bin/env bash
# Records what the reference implementations answer, into tests/verdicts/*.jsonl, which plain
# `cargo test` replays (tests/verdict_support/mod.rs says how): gray-matter + js-yaml on the
# generated frontmatter cases, opencode 1.18.34 on its cases and generated configs, Claude Code
# 2.1.332 on its agents, settings and .mcp.json files, VS Code 1.139.1 (code-server 4.139.1) on
# the GitHub Copilot cases, Codex 0.171.0 on its configurations and agents, Gemini CLI 0.61.0 on
# its settings. Each harness installs its pinned judge from npm and runs it offline.
#
# usage: scripts/record-verdicts.sh [yaml] [opencode] [claude] [copilot] [codex] [gemini]   (default: all six)
#
# Run it after changing a harness's cases, generator or allow-list, or the pinned version of a
# judge; commit the rewritten recordings with the change. Without RECORD_VERDICTS the same
# harnesses (CI runs them) fail when the judge's answers are no longer the recorded ones.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
which=("$@")
((${#which[@]} > 0)) || which=(yaml opencode claude copilot codex gemini)
export RECORD_VERDICTS=1
for w in "${which[@]}"; do
  case "$w" in
    yaml) tests/yaml_diff/run.sh ;;
    opencode) tests/runtime/run.sh ;;
    claude) tests/claude_runtime/run.sh ;;
    copilot) tests/copilot_vscode/run.sh ;;
    codex) tests/codex_runtime/run.sh ;;
    gemini) tests/gemini_runtime/run.sh ;;
    *) echo "unknown judge: $w (yaml, opencode, claude, copilot, codex or gemini)" >&2; exit 2 ;;
  esac
done
git status --short tests/verdicts
