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

pub(super) fn collect_md(dir: &Path, out: &mut Vec<PathBuf>, depth: usize, seen: &mut HashSet<PathBuf>) {
    let md = |p: &Path, _: &str| p.extension().is_some_and(|e| e == "md");
    walk_files(dir, (true, false), &md, depth, out, seen);
}

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

/// Every `SKILL.md` under `dir/<sub>` for each of `subs` (`""` for `dir` itself), at any depth,
/// as opencode's skill globs find them (`skills/**/SKILL.md`, `{skill,skills}/**/SKILL.md`,
/// `**/SKILL.md`); `dot` enters hidden directories. Shallower files first, then by path: the
/// runtime's glob returns them level by level (its order within a level follows the file
/// system; only the order of `allow` rules next to each other depends on it, which never
/// changes a decision).
pub fn skill_files(dir: &Path, subs: &[&str], dot: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in subs {
        let base = if sub.is_empty() {
            dir.to_path_buf()
        } else {
            dir.join(sub)
        };
        if base.is_dir() {
            let skill = |_: &Path, name: &str| name == "SKILL.md";
            walk_files(&base, (dot, true), &skill, 0, &mut out, &mut HashSet::new());
        }
    }
    out.sort_by(|a, b| {
        let depth = |p: &PathBuf| p.strip_prefix(dir).map_or(0, |r| r.components().count());
        (depth(a), a).cmp(&(depth(b), b))
    });
    out
}
