//! Bounded walks of a folder: the files a predicate keeps, depth first, bounded in depth and
//! count, each folder entered once. What discovery, plugins and skills share.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Directories never entered: they hold dependencies or build output, not agent files.
pub(super) const SKIP_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    "dist",
    "build",
    ".hg",
    ".svn",
];

/// The folders of [`SKIP_DIRS`] a repository may still ship a Claude Code plugin in (a plugin built
/// into `dist/claude/plugins/go-dev/`): searched for plugin and marketplace manifests only.
pub(super) const PLUGIN_DIRS: &[&str] = &["dist", "build"];

/// Limits that keep a walk of a hostile tree bounded.
pub(super) const MAX_DEPTH: usize = 40;
pub(super) const MAX_ENTRIES: usize = 500_000;

/// The files under `dir` that `keep` takes (by path and file name), depth first, bounded in depth
/// and count, each directory entered once (symlink loops). `(dot, skip)`: enter hidden
/// directories; leave out the dependency and build folders of [`SKIP_DIRS`].
pub(super) fn walk_files(
    dir: &Path,
    (dot, skip): (bool, bool),
    keep: &dyn Fn(&Path, &str) -> bool,
    depth: usize,
    out: &mut Vec<PathBuf>,
    seen: &mut HashSet<PathBuf>,
) {
    if depth > MAX_DEPTH || out.len() > MAX_ENTRIES {
        return;
    }
    let Ok(canonical) = fs::canonicalize(dir) else { return };
    if !seen.insert(canonical) {
        return;
    }
    let Ok(read) = fs::read_dir(dir) else { return };
    for entry in read.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        match fs::metadata(&path) {
            Ok(m) if m.is_dir() => {
                let hidden = !dot && name.starts_with('.');
                let skipped = skip && SKIP_DIRS.contains(&name.as_ref());
                if !hidden && !skipped {
                    walk_files(&path, (dot, skip), keep, depth + 1, out, seen);
                }
            }
            Ok(m) if m.is_file() && keep(&path, &name) => out.push(path),
            _ => {}
        }
    }
}

/// The real file system, read-only, as the dialects' path rules see it.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsDisk;

impl crate::analysis::discovery::Disk for FsDisk {
    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn read_text(&self, path: &Path, max: u64) -> Option<String> {
        let meta = fs::metadata(path).ok()?;
        if meta.len() > max {
            return None;
        }
        let bytes = fs::read(path).ok()?;
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn list(&self, dir: &Path) -> Vec<(PathBuf, bool)> {
        let Ok(read) = fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut out: Vec<(PathBuf, bool)> = read
            .flatten()
            .take(MAX_ENTRIES)
            .map(|e| {
                let p = e.path();
                let is_dir = p.is_dir();
                (p, is_dir)
            })
            .collect();
        out.sort();
        out
    }

    fn files_under(&self, dir: &Path, dot: bool, skip: bool, keep: &dyn Fn(&Path, &str) -> bool) -> Vec<PathBuf> {
        let mut out = Vec::new();
        walk_files(dir, (dot, skip), keep, 0, &mut out, &mut HashSet::new());
        out
    }

    fn env(&self, key: &str) -> Option<String> {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(|v| v.to_string_lossy().into_owned())
    }
}
