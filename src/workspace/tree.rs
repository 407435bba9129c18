//! Bounded walks of a folder: the files a predicate keeps, depth first, bounded in depth and
//! count, each folder entered once. What discovery, plugins and skills share.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }

    fn read_file(&self, path: &Path) -> Result<String, String> {
        super::read::read_text(path)
            .map(|(text, _)| text)
            .map_err(|why| why.to_string())
    }

    fn files_below(&self, dir: &Path) -> Option<Arc<Vec<PathBuf>>> {
        files_below(dir).map(Arc::new)
    }

    fn glob_matches(&self, dir: &Path, pattern: &str) -> bool {
        glob_in(dir, pattern)
    }
}

/// The real file system, with what the disk checks ask remembered until the disk changes
/// ([`CachedDisk::clear`]): a keystroke in a file that names paths costs no file-system call.
#[derive(Debug, Default)]
pub struct CachedDisk {
    /// What is at a path: nothing, or a file, a folder, something else.
    stat: Mutex<HashMap<PathBuf, Option<Entry>>>,
    below: Mutex<HashMap<PathBuf, Option<Arc<Vec<PathBuf>>>>>,
    globs: Mutex<HashMap<(PathBuf, String), bool>>,
}

impl CachedDisk {
    /// Forget everything (files appeared or vanished).
    pub fn clear(&self) {
        if let Ok(mut m) = self.stat.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.below.lock() {
            m.clear();
        }
        if let Ok(mut m) = self.globs.lock() {
            m.clear();
        }
    }

    /// What is at `path`, a symlink followed.
    fn stat(&self, path: &Path) -> Option<Entry> {
        let look = || {
            fs::metadata(path).ok().map(|m| match () {
                () if m.is_file() => Entry::File,
                () if m.is_dir() => Entry::Dir,
                () => Entry::Other,
            })
        };
        match self.stat.lock() {
            Ok(mut m) => *m.entry(path.to_path_buf()).or_insert_with(look),
            Err(_) => look(),
        }
    }
}

/// What a path holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    File,
    Dir,
    Other,
}

impl crate::analysis::discovery::Disk for CachedDisk {
    fn is_file(&self, path: &Path) -> bool {
        self.stat(path) == Some(Entry::File)
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.stat(path) == Some(Entry::Dir)
    }

    fn read_text(&self, path: &Path, max: u64) -> Option<String> {
        FsDisk.read_text(path, max)
    }

    fn list(&self, dir: &Path) -> Vec<(PathBuf, bool)> {
        FsDisk.list(dir)
    }

    fn files_under(&self, dir: &Path, dot: bool, skip: bool, keep: &dyn Fn(&Path, &str) -> bool) -> Vec<PathBuf> {
        FsDisk.files_under(dir, dot, skip, keep)
    }

    fn env(&self, key: &str) -> Option<String> {
        FsDisk.env(key)
    }

    fn exists(&self, path: &Path) -> bool {
        self.stat(path).is_some()
    }

    fn read_file(&self, path: &Path) -> Result<String, String> {
        FsDisk.read_file(path)
    }

    fn files_below(&self, dir: &Path) -> Option<Arc<Vec<PathBuf>>> {
        let look = || files_below(dir).map(Arc::new);
        match self.below.lock() {
            Ok(mut m) => m.entry(dir.to_path_buf()).or_insert_with(look).clone(),
            Err(_) => look(),
        }
    }

    fn glob_matches(&self, dir: &Path, pattern: &str) -> bool {
        let look = || glob_in(dir, pattern);
        match self.globs.lock() {
            Ok(mut m) => *m.entry((dir.to_path_buf(), pattern.to_string())).or_insert_with(look),
            Err(_) => look(),
        }
    }
}

/// How many directory entries a glob may visit before it is taken to match (a huge tree must not
/// stall a keystroke; a warning is only given when the answer is certain).
const GLOB_BUDGET: usize = 20_000;

/// The files below `dir`, relative to it, as the ignore rules leave them (`None`: more entries
/// than the budget, so no pattern gets a verdict).
fn files_below(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut walk = ignore::WalkBuilder::new(dir);
    walk.hidden(false)
        .filter_entry(|e| !(e.depth() > 0 && e.file_name() == ".git"));
    let mut budget = GLOB_BUDGET;
    let mut out = Vec::new();
    for entry in walk.build().flatten() {
        if budget == 0 {
            return None;
        }
        budget -= 1;
        if entry.file_type().is_some_and(|t| t.is_file())
            && let Ok(rel) = entry.path().strip_prefix(dir)
        {
            out.push(rel.to_path_buf());
        }
    }
    Some(out)
}

/// Whether `pattern` (a path or a glob, relative to `dir`) matches a file in `dir`.
fn glob_in(dir: &Path, pattern: &str) -> bool {
    let is_glob = pattern.contains(['*', '?', '[', '{']);
    if !is_glob {
        return dir.join(pattern).is_file();
    }
    let Ok(glob) = globset::GlobBuilder::new(pattern).literal_separator(true).build() else {
        // A pattern the glob reader cannot read: no verdict.
        return true;
    };
    let matcher = glob.compile_matcher();
    // Walk only below the pattern's literal prefix, no deeper than it can reach.
    let literal: Vec<&str> = pattern
        .split('/')
        .take_while(|s| !s.contains(['*', '?', '[', '{']))
        .collect();
    let base = dir.join(literal.join("/"));
    let segments = pattern.split('/').count();
    let max_depth = if pattern.contains("**") {
        None
    } else {
        Some(segments - literal.len())
    };
    let mut walk = ignore::WalkBuilder::new(&base);
    walk.standard_filters(false).hidden(true).max_depth(max_depth);
    let mut budget = GLOB_BUDGET;
    for entry in walk.build().flatten() {
        if budget == 0 {
            return true;
        }
        budget -= 1;
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Ok(rel) = entry.path().strip_prefix(dir)
            && matcher.is_match(rel)
        {
            return true;
        }
    }
    false
}
