#!/usr/bin/env bash
# Checks that every file that states agent-lsp's version states the one in Cargo.toml, and that
# the release tag, when given, is `v<that version>`. Prints each file with its version; exits 1
# and lists the differing ones when any differs (2 when a file cannot be read).
#
#   scripts/check-versions.sh [TAG]     (TAG: v0.1.0, or refs/tags/v0.1.0)
#
# Checked: Cargo.lock's agent-lsp entry; the VS Code extension (package.json, package-lock.json);
# the Claude Code plugin (plugin.json) and its marketplace (.claude-plugin/marketplace.json:
# `metadata.version` and each plugin's `version`, where present); the Zed extension
# (extension.toml, Cargo.toml); a package.json at the root; the npm packages that
# .pre-commit-hooks.yaml installs (`agent-lsp@<version>`); under npm/, every package.json and
# package.json template (any file named package.json*; a private one without a version, such as a
# test harness, is only listed): its `version` and the versions it pins of agent-lsp's own
# packages (`optionalDependencies` / `dependencies` named agent-lsp-*). A template's placeholder
# (a value with `{`, `$` or `@`, or 0.0.0) is filled at pack time and is listed, not compared.
# Files that do not exist are listed as absent. Needs python3 3.11+ (tomllib).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 1 ]; then
  echo "usage: scripts/check-versions.sh [TAG]" >&2
  exit 2
fi

exec python3 - "${1:-}" << 'PY'
import glob, json, re, sys, tomllib

tag = sys.argv[1]
rows = []      # (file, what, version or None, status)
errors = []

def load_toml(path):
    with open(path, "rb") as f:
        return tomllib.load(f)

def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)

try:
    want = load_toml("Cargo.toml")["package"]["version"]
except Exception as e:  # noqa: BLE001
    print(f"cannot read the version of Cargo.toml: {e}", file=sys.stderr)
    sys.exit(2)

PLACEHOLDER = re.compile(r"[{}$@]|^0\.0\.0$")

def add(path, what, version, template=False):
    if version is None:
        rows.append((path, what, "-", "no version"))
    elif not isinstance(version, str):
        rows.append((path, what, repr(version), "DIFFERS"))
    elif template and PLACEHOLDER.search(version):
        rows.append((path, what, version, "placeholder"))
    else:
        rows.append((path, what, version, "ok" if version == want else "DIFFERS"))

def read(path, fn):
    try:
        fn(path)
    except FileNotFoundError:
        rows.append((path, "", "-", "absent"))
    except Exception as e:  # noqa: BLE001
        errors.append(f"{path}: {e}")

def cargo_lock(path):
    own = [p for p in load_toml(path).get("package", []) if p.get("name") == "agent-lsp" and "source" not in p]
    if not own:
        errors.append(f"{path}: no agent-lsp entry")
    for p in own:
        add(path, "agent-lsp", p.get("version"))

def vscode(path):
    add(path, "version", load_json(path).get("version"))

def vscode_lock(path):
    d = load_json(path)
    add(path, "version", d.get("version"))
    add(path, 'packages[""].version', d.get("packages", {}).get("", {}).get("version"))

def plugin(path):
    add(path, "version", load_json(path).get("version"))

def marketplace(path):
    d = load_json(path)
    found = False
    if "version" in d.get("metadata", {}):
        add(path, "metadata.version", d["metadata"]["version"])
        found = True
    for p in d.get("plugins", []):
        if "version" in p:
            add(path, f"plugins[{p.get('name')}].version", p["version"])
            found = True
    if not found:
        rows.append((path, "", "-", "no versions"))

def hooks(path):
    with open(path, encoding="utf-8") as f:
        found = re.findall(r"agent-lsp@([^\"'\s\],]+)", f.read())
    if not found:
        rows.append((path, "", "-", "no versions"))
    for v in found:
        add(path, "agent-lsp@", v)

def zed_ext(path):
    add(path, "version", load_toml(path).get("version"))

def zed_cargo(path):
    add(path, "package.version", load_toml(path).get("package", {}).get("version"))

def npm(path):
    try:
        d = load_json(path)
    except json.JSONDecodeError:
        if path.endswith(".json"):
            raise
        # A template that is JSON only once filled in: its "version" fields as text.
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r'"(version|agent-lsp(?:-[\w-]+)?)"\s*:\s*"([^"]*)"', text):
            add(path, m.group(1), m.group(2), template=True)
        return
    if d.get("private") is True and "version" not in d:
        rows.append((path, "", "-", "private, no version"))
        return
    add(path, f"{d.get('name', '?')} version", d.get("version"), template=True)
    for section in ("optionalDependencies", "dependencies"):
        for name, v in sorted(d.get(section, {}).items()):
            if name == "agent-lsp" or name.startswith("agent-lsp-"):
                add(path, f"{section}.{name}", v, template=True)

read("Cargo.lock", cargo_lock)
read("editors/vscode/package.json", vscode)
read("editors/vscode/package-lock.json", vscode_lock)
read("editors/claude-code/.claude-plugin/plugin.json", plugin)
read(".claude-plugin/marketplace.json", marketplace)
read(".pre-commit-hooks.yaml", hooks)
read("package.json", npm)
read("editors/zed/extension.toml", zed_ext)
read("editors/zed/Cargo.toml", zed_cargo)
npm_files = sorted(
    f for f in glob.glob("npm/**/package.json*", recursive=True) if "/node_modules/" not in f
)
if npm_files:
    for f in npm_files:
        read(f, npm)
else:
    rows.append(("npm/*/package.json*", "", "-", "absent"))
if tag:
    t = tag.removeprefix("refs/tags/")
    rows.append(("(tag)", t, t, "ok" if t == f"v{want}" else f"DIFFERS (expected v{want})"))

print(f"Cargo.toml: {want}")
width = max(len(f"{f} {w}".strip()) for f, w, _, _ in rows)
for f, w, v, status in rows:
    print(f"  {f'{f} {w}'.strip():<{width}}  {v:<12} {status}")
for e in errors:
    print(f"error: {e}", file=sys.stderr)
bad = [r for r in rows if r[3].startswith("DIFFERS")]
if bad:
    print(f"FAIL: {len(bad)} version(s) differ from Cargo.toml's {want}:")
    for f, w, v, _ in bad:
        print(f"  {f'{f} {w}'.strip()}: {v}")
    sys.exit(1)
if errors:
    sys.exit(2)
print(f"OK: every version is {want}" + (f", and so is the tag {tag.removeprefix('refs/tags/')}" if tag else ""))
PY
