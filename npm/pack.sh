#!/usr/bin/env bash
# Packs one release target for npm and for the release page:
#
#   npm/pack.sh --target TRIPLE --binary PATH --out DIR [--repository URL]
#
# writes into DIR
#   agent-lsp-<platform>-<version>.tgz        the platform package (npm pack), e.g. agent-lsp-linux-x64
#   agent-lsp-<version>.tgz                   the main package (once: kept when it is there already)
#   agent-lsp-<version>-<triple>.tar.gz       the release archive: the binary, README.md, license files
#                                             (.zip for windows targets)
# and puts their lines into DIR/SHA256SUMS (sha256sum format; a file packed again replaces its line).
#
# The version is Cargo.toml's [package] version. The committed files that carry it too
# (npm/agent-lsp/package.json: version and every optionalDependency; package.json at the root, the
# pre-commit hook's; .pre-commit-hooks.yaml's `agent-lsp@...`) must say the same, or this fails
# before writing anything. The platform package.json is generated from npm/platform/package.json.in.
# --repository URL (optional) is written into the package.json files and replaces
# `<repository URL>` in the launcher's message and the package README; without it they carry no repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/.." && pwd)"

die() { echo "npm/pack.sh: $*" >&2; exit 1; }

target="" binary="" out="" repository=""
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="${2:-}"; shift 2 ;;
    --binary) binary="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    --repository) repository="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "unknown argument \`$1\` (usage: npm/pack.sh --target TRIPLE --binary PATH --out DIR [--repository URL])" ;;
  esac
done
[ -n "$target" ] && [ -n "$binary" ] && [ -n "$out" ] ||
  die "usage: npm/pack.sh --target TRIPLE --binary PATH --out DIR [--repository URL]"
[ -f "$binary" ] || die "no binary at $binary"

# The Rust target triple → the npm platform (process.platform-process.arch).
case "$target" in
  x86_64-unknown-linux-musl|x86_64-unknown-linux-gnu) os=linux cpu=x64 ;;
  aarch64-unknown-linux-musl|aarch64-unknown-linux-gnu) os=linux cpu=arm64 ;;
  x86_64-apple-darwin) os=darwin cpu=x64 ;;
  aarch64-apple-darwin) os=darwin cpu=arm64 ;;
  x86_64-pc-windows-msvc) os=win32 cpu=x64 ;;
  *) die "unknown target \`$target\`; known: x86_64-unknown-linux-musl, aarch64-unknown-linux-musl, x86_64-apple-darwin, aarch64-apple-darwin, x86_64-pc-windows-msvc (and the -linux-gnu ones, packed as the same platforms)" ;;
esac
platform="$os-$cpu"
exe=agent-lsp
[ "$os" = win32 ] && exe=agent-lsp.exe

# The version, from Cargo.toml's [package] table, and every committed copy of it.
version="$(awk '/^\[/{inpkg=($0=="[package]")} inpkg && /^version *=/{gsub(/.*= *"|".*/,""); print; exit}' "$repo/Cargo.toml")"
[ -n "$version" ] || die "no [package] version in Cargo.toml"
mismatches="$(node - "$repo" "$version" <<'JS'
const fs = require("fs"), path = require("path");
const [repo, version] = process.argv.slice(2);
const wrong = [];
const main = JSON.parse(fs.readFileSync(path.join(repo, "npm/agent-lsp/package.json"), "utf8"));
if (main.version !== version) wrong.push(`npm/agent-lsp/package.json: version ${main.version}`);
for (const [name, v] of Object.entries(main.optionalDependencies || {}))
  if (v !== version) wrong.push(`npm/agent-lsp/package.json: optionalDependencies.${name} ${v}`);
const rootPkg = path.join(repo, "package.json");
if (fs.existsSync(rootPkg)) {
  const root = JSON.parse(fs.readFileSync(rootPkg, "utf8"));
  if (root.version !== version) wrong.push(`package.json: version ${root.version}`);
}
const hooks = fs.readFileSync(path.join(repo, ".pre-commit-hooks.yaml"), "utf8");
for (const m of hooks.matchAll(/agent-lsp@([^"'\s\]]+)/g))
  if (m[1] !== version) wrong.push(`.pre-commit-hooks.yaml: agent-lsp@${m[1]}`);
console.log(wrong.join("\n"));
JS
)"
[ -z "$mismatches" ] || die "Cargo.toml says version $version, but
$mismatches
(set them all to $version)"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
licenses=()
for f in LICENSE LICENSE-MIT LICENSE-APACHE LICENSE.md COPYING; do
  [ -f "$repo/$f" ] && licenses+=("$f")
done
[ ${#licenses[@]} -gt 0 ] || echo "npm/pack.sh: warning: the repository has no LICENSE file; the packages and the archive carry none" >&2

# The repository field, when given, goes into both package.json files.
set_repository() {
  node - "$1" "$repository" <<'JS'
const fs = require("fs");
const [file, url] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
if (url) pkg.repository = { type: "git", url };
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
JS
}

npm_pack() { # DIR → the tarball's file name in $out
  (cd "$1" && npm pack --silent --pack-destination "$out" --cache "$work/npm-cache" | tail -n 1)
}

written=()

# 1. The platform package.
pdir="$work/agent-lsp-$platform"
mkdir -p "$pdir/bin"
sed -e "s/@PLATFORM@/$platform/g" -e "s/@VERSION@/$version/g" -e "s/@TRIPLE@/$target/g" \
    -e "s/@OS@/$os/g" -e "s/@CPU@/$cpu/g" -e "s/@EXE@/$exe/g" \
    "$here/platform/package.json.in" > "$pdir/package.json"
set_repository "$pdir/package.json"
cp "$binary" "$pdir/bin/$exe"
chmod 755 "$pdir/bin/$exe"
for f in "${licenses[@]}"; do cp "$repo/$f" "$pdir/"; done
written+=("$(npm_pack "$pdir")")

# 2. The main package, once per DIR.
main_tgz="agent-lsp-$version.tgz"
if [ -f "$out/$main_tgz" ]; then
  echo "npm/pack.sh: $main_tgz is there already (kept)"
else
  mdir="$work/agent-lsp"
  cp -R "$here/agent-lsp" "$mdir"
  set_repository "$mdir/package.json"
  if [ -n "$repository" ]; then
    for f in bin/agent-lsp.js README.md; do
      sed -i.bak "s#<repository URL>#$repository#g" "$mdir/$f" && rm "$mdir/$f.bak"
    done
  fi
  for f in "${licenses[@]}"; do cp "$repo/$f" "$mdir/"; done
  got="$(npm_pack "$mdir")"
  [ "$got" = "$main_tgz" ] || die "npm pack wrote $got, expected $main_tgz"
  written+=("$main_tgz")
fi

# 3. The release archive.
name="agent-lsp-$version-$target"
mkdir -p "$work/archive/$name"
cp "$binary" "$work/archive/$name/$exe"
chmod 755 "$work/archive/$name/$exe"
cp "$repo/README.md" "$work/archive/$name/"
for f in "${licenses[@]}"; do cp "$repo/$f" "$work/archive/$name/"; done
if [ "$os" = win32 ]; then
  rm -f "$out/$name.zip"
  (cd "$work/archive" && zip -q -r "$out/$name.zip" "$name")
  written+=("$name.zip")
else
  tar -C "$work/archive" -czf "$out/$name.tar.gz" "$name"
  written+=("$name.tar.gz")
fi

# 4. SHA256SUMS: one line per file, a file packed again replaces its line.
sums="$out/SHA256SUMS"
touch "$sums"
for f in "${written[@]}"; do
  grep -v "  $f\$" "$sums" > "$work/sums" || true
  cat "$work/sums" > "$sums"
  if command -v sha256sum > /dev/null; then
    (cd "$out" && sha256sum "$f") >> "$sums"
  else
    (cd "$out" && shasum -a 256 "$f") >> "$sums"
  fi
done

echo "npm/pack.sh: agent-lsp $version for $target ($platform) in $out:"
for f in "${written[@]}"; do echo "  $f"; done
echo "  SHA256SUMS"
