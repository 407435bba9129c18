//! What the disk says about a package a file starts without a version (`unpinned-package`, see
//! `analysis::launch`): a package the project installs is run from `node_modules` by `npx`,
//! `bunx` and `npm exec`, pinned by its lockfile, so there is nothing to report; otherwise the
//! version to pin to, where the project's lockfile or the user's npx cache shows one, is the fix.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use crate::analysis::Code;
use crate::analysis::diagnostic::{Diagnostic, Edit};
use crate::analysis::launch::{Unpinned, exact};

/// The largest lockfile read (a lockfile is searched, not parsed).
const MAX_LOCKFILE: u64 = 64 << 20;

/// A file's modification time and length: what it was read at.
type Stamp = (Option<SystemTime>, u64);

/// What was read from a file (a manifest, a lockfile, npx's cache folder) about one package,
/// kept while the file's stamp stays the same: a keystroke in `.mcp.json` reads no lockfile again.
#[derive(Debug, Default)]
pub(crate) struct Memo(Mutex<HashMap<Asked, (Stamp, Option<String>)>>);

/// A file or folder, and the package asked about.
type Asked = (PathBuf, String);

impl Memo {
    /// What `read` says about `name` from the file or folder at `path` (`None` when there is
    /// none), read again only when `path` changed.
    fn get(&self, path: &Path, name: &str, read: impl FnOnce() -> Option<String>) -> Option<String> {
        let meta = std::fs::metadata(path).ok()?;
        let stamp = (meta.modified().ok(), meta.len());
        let key = (path.to_path_buf(), name.to_string());
        if let Ok(m) = self.0.lock()
            && let Some((s, answer)) = m.get(&key)
            && *s == stamp
        {
            return answer.clone();
        }
        let answer = read();
        if let Ok(mut m) = self.0.lock() {
            m.insert(key, (stamp, answer.clone()));
        }
        answer
    }
}

/// What is known of one npm package on this machine.
#[derive(Debug, PartialEq)]
pub(super) enum Known {
    /// The project installs it: `npx` runs that one.
    Installed,
    /// A version seen in the project's lockfile, or (`true`) in npx's cache.
    Seen(String, bool),
    Nothing,
}

/// Add to `d` the fix that pins `u` to `version`, seen in the project's lockfile or (`cache`)
/// npx's cache.
pub(super) fn pin(d: &mut Diagnostic, u: &Unpinned, text: &str, version: &str, cache: bool) {
    let written = u.span.text(text);
    // (Where the file's escapes hide the word, the span is the whole value: no edit then.)
    if !written.starts_with(u.name.as_str()) {
        return;
    }
    let pinned = format!("{}@{version}", u.name);
    let place = if cache {
        "npx's cache"
    } else {
        "the project's package-lock.json"
    };
    d.message.push_str(&format!(" {version} is the version in {place}."));
    let fixed = std::mem::replace(d, Diagnostic::new(Code::UnpinnedPackage, u.span, String::new()));
    *d = fixed.with_fix(
        format!("Pin to `{pinned}` (the version in {place})"),
        vec![Edit::new(u.span, pinned)],
        false,
    );
}

/// What the project above `dir` and the user's npx cache say about npm package `name`. `local`:
/// the runner prefers the project's install (`npx`, `bunx`, `npm exec`; not `pnpm dlx` or
/// `yarn dlx`, which always fetch).
pub(super) fn npm_package(dir: &Path, name: &str, local: bool, home: Option<&Path>, memo: &Memo) -> Known {
    for d in dir.ancestors() {
        let manifest = d.join("package.json");
        if local
            && memo
                .get(&manifest, name, || {
                    read_small(&manifest).filter(|t| lists(t, name)).map(|_| String::new())
                })
                .is_some()
        {
            return Known::Installed;
        }
        let lock = d.join("package-lock.json");
        if let Some(version) = memo.get(&lock, name, || read_small(&lock).and_then(|t| locked_version(&t, name))) {
            return Known::Seen(version, false);
        }
        if d.join(".git").exists() {
            break;
        }
    }
    let Some(npx) = home.map(|h| h.join(".npm").join("_npx")) else {
        return Known::Nothing;
    };
    // (The folder's stamp changes when npx adds a package's folder to it.)
    match memo.get(&npx, name, || cached_version(&npx, name)) {
        Some(version) => Known::Seen(version, true),
        None => Known::Nothing,
    }
}

fn read_small(path: &Path) -> Option<String> {
    read_at_most(path, MAX_LOCKFILE)
}

/// The text of the file at `path` when it is a file of at most `max` bytes.
fn read_at_most(path: &Path, max: u64) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > max {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

/// Whether a `package.json` lists `name` among the packages it installs.
fn lists(manifest: &str, name: &str) -> bool {
    let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(manifest) else {
        return false;
    };
    ["dependencies", "devDependencies", "optionalDependencies"]
        .iter()
        .any(|k| {
            m.get(*k)
                .and_then(|v| v.as_object())
                .is_some_and(|deps| deps.contains_key(name))
        })
}

/// The version a `package-lock.json` (v2, v3) installs at `node_modules/<name>`: searched for,
/// not parsed (a lockfile runs to megabytes).
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let key = format!("\"node_modules/{name}\"");
    let at = lock.find(&key)? + key.len();
    let rest = lock[at..]
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('{')?;
    // The entry's own fields come before any nested object; its version is one of them.
    let entry = &rest[..rest.find(['{', '}']).unwrap_or(rest.len())];
    let v = entry
        .split("\"version\"")
        .nth(1)?
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    let version = &v[..v.find('"')?];
    exact(version).then(|| version.to_string())
}

/// The newest version of `name` in npx's cache (`~/.npm/_npx/<hash>/node_modules/<name>`).
fn cached_version(npx: &Path, name: &str) -> Option<String> {
    let mut best: Option<(Vec<u64>, String)> = None;
    for entry in std::fs::read_dir(npx).ok()?.flatten() {
        let manifest = entry.path().join("node_modules").join(name).join("package.json");
        let Some(text) = read_small(&manifest) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let Some(version) = v.get("version").and_then(|v| v.as_str()).filter(|v| exact(v)) else {
            continue;
        };
        let key = numbers(version);
        if best.as_ref().is_none_or(|(k, ..)| key > *k) {
            best = Some((key, version.to_string()));
        }
    }
    best.map(|(_, v)| v)
}

/// A version's numbers, to compare (`1.10.0` after `1.9.0`).
fn numbers(v: &str) -> Vec<u64> {
    v.split(['-', '+'])
        .next()
        .unwrap_or("")
        .split('.')
        .map(|p| p.parse().unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lockfile_versions() {
        let lock = r#"{ "packages": {
            "": { "name": "app" },
            "node_modules/@scope/pkg": { "version": "2.0.1", "resolved": "x" },
            "node_modules/pkg": { "dependencies": { "a": "1" }, "version": "9.9.9" },
            "node_modules/other": { "resolved": "y", "version": "1.4.0" },
            "node_modules/bad": { "version": "latest" }
        } }"#;
        assert_eq!(locked_version(lock, "@scope/pkg").as_deref(), Some("2.0.1"));
        assert_eq!(locked_version(lock, "other").as_deref(), Some("1.4.0"));
        // The version of a nested object is not the entry's.
        assert_eq!(locked_version(lock, "pkg"), None);
        assert_eq!(locked_version(lock, "bad"), None);
        assert_eq!(locked_version(lock, "missing"), None);
        assert_eq!(locked_version(lock, "@scope"), None);
    }

    #[test]
    fn manifests_and_versions() {
        assert!(lists(
            r#"{ "devDependencies": { "agent-lsp": "^0.1.0" } }"#,
            "agent-lsp"
        ));
        assert!(lists(r#"{ "optionalDependencies": { "x": "1" } }"#, "x"));
        assert!(!lists(r#"{ "peerDependencies": { "x": "1" } }"#, "x"));
        assert!(!lists(r#"{ "dependencies": { "y": "1" } }"#, "x"));
        assert!(!lists("not json", "x"));
        assert!(numbers("1.10.0") > numbers("1.9.0"));
    }

    #[test]
    fn only_small_files_are_read() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("package-lock.json");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_at_most(&file, 10).as_deref(), Some("0123456789"));
        assert_eq!(read_at_most(&file, 9), None);
        assert_eq!(read_at_most(tmp.path(), u64::MAX), None);
        assert_eq!(read_at_most(&tmp.path().join("none"), 10), None);
    }

    #[test]
    fn the_project_then_the_cache() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("pkg/.claude")).unwrap();
        std::fs::write(root.join("package.json"), r#"{ "devDependencies": { "tool": "^1" } }"#).unwrap();
        std::fs::write(
            root.join("package-lock.json"),
            r#"{ "packages": { "node_modules/tool": { "version": "1.2.0" }, "node_modules/dep": { "version": "3.1.4" } } }"#,
        )
        .unwrap();
        let dir = root.join("pkg/.claude");
        let memo = Memo::default();
        assert_eq!(npm_package(&dir, "tool", true, None, &memo), Known::Installed);
        // `pnpm dlx` fetches it anyway: the lockfile's version is the pin.
        assert_eq!(
            npm_package(&dir, "tool", false, None, &memo),
            Known::Seen("1.2.0".into(), false)
        );
        assert_eq!(
            npm_package(&dir, "dep", true, None, &memo),
            Known::Seen("3.1.4".into(), false)
        );
        assert_eq!(npm_package(&dir, "new", true, None, &memo), Known::Nothing);
        // The user's npx cache: the newest version there.
        let home = tmp.path().join("home");
        for (hash, version) in [("a1", "1.9.0"), ("b2", "1.10.0"), ("c3", "oops")] {
            let p = home.join(".npm/_npx").join(hash).join("node_modules/new");
            std::fs::create_dir_all(&p).unwrap();
            std::fs::write(p.join("package.json"), format!(r#"{{ "version": "{version}" }}"#)).unwrap();
        }
        assert_eq!(
            npm_package(&dir, "new", true, Some(&home), &memo),
            Known::Seen("1.10.0".into(), true)
        );
        // A lockfile read again once it changed (and not before: the answer is remembered).
        std::fs::write(
            root.join("package-lock.json"),
            r#"{ "packages": { "node_modules/dep": { "version": "3.10.0" } } }"#,
        )
        .unwrap();
        assert_eq!(
            npm_package(&dir, "dep", true, None, &memo),
            Known::Seen("3.10.0".into(), false)
        );
        // The search stops at the repository's top.
        assert_eq!(npm_package(&root.join("pkg"), "x", true, None, &memo), Known::Nothing);
    }
}
