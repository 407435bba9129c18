//! Which files the runtimes read, found by walking a workspace: a bounded walk that honours the
//! ignore rules as ripgrep does, asking each registered dialect which files it keeps (see
//! `DialectSpec::walk_keeps`). What each file is, the workspace asks the path rules
//! (`Workspace::role_of`).

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::tree::{FsDisk, MAX_DEPTH, MAX_ENTRIES, PLUGIN_DIRS, SKIP_DIRS};
use crate::analysis::discovery::Pile;
use crate::analysis::{Dialect, FileKind};

/// Everything found under one root.
#[derive(Debug, Default)]
pub struct Found {
    /// Config files (a dialect's configs, `agent-lsp.toml`), sorted: read first.
    pub configs: Vec<PathBuf>,
    /// The folders a dialect loads as a whole (opencode's config directories), each with its
    /// dialect.
    pub folders: Vec<(Dialect, PathBuf)>,
    /// The other files a dialect keeps (Markdown agents, `SKILL.md`, memory files), sorted: what
    /// each is, if anything, is decided by the caller.
    pub markdown: Vec<PathBuf>,
    /// Directories the walk could not read, with the reason.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// The pile a walk puts a file on: agent-lsp's own project file and the configs of any dialect
/// first, a `SKILL.md` (read by several runtimes) and any dialect's documents after.
fn keeps(path: &Path, depth: usize) -> Option<Pile> {
    let name = path.file_name()?.to_string_lossy();
    if crate::analysis::project_file::NAMES.contains(&name.as_ref()) {
        return Some(Pile::Config);
    }
    let mut pile = (name == "SKILL.md").then_some(Pile::Document);
    for d in Dialect::REGISTERED {
        match d.spec().walk_keeps(path, depth, &FsDisk) {
            Some(Pile::Config) => return Some(Pile::Config),
            Some(Pile::Document) => pile = Some(Pile::Document),
            None => {}
        }
    }
    pile
}

/// The config folders of every runtime and the shared skill folders: read even where git
/// ignores them (a personal `.opencode/` listed in a global `.gitignore` is still what opencode
/// loads).
fn config_folders() -> Vec<&'static str> {
    let places = Dialect::places();
    let mut out = places.folders.clone();
    for (_, h) in &places.skills {
        if !out.contains(&h.folder) {
            out.push(h.folder);
        }
    }
    out
}
/// Walk `root` as ripgrep does (the `ignore` crate): `.gitignore` (inside a git repository),
/// `.ignore`, the global git excludes and `.git/info/exclude` are honoured, hidden folders are
/// entered, the dependency and build folders of [`SKIP_DIRS`] are left out, symlinks are
/// followed (a loop is entered once). The runtimes' config folders ([`config_folders`]) are
/// walked even when ignored, since the runtimes read them regardless.
/// The walk's rules (see the module documentation), without the order.
fn walker(root: &Path) -> ignore::WalkBuilder {
    walker_skipping(root, SKIP_DIRS)
}

/// [`walker`] leaving out the folders named in `skip` (below the root).
fn walker_skipping(root: &Path, skip: &'static [&'static str]) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(false)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_global(true)
        .git_exclude(true)
        .follow_links(true)
        .max_depth(Some(MAX_DEPTH))
        .filter_entry(|e| {
            !(e.depth() > 0
                && e.file_type().is_some_and(|t| t.is_dir())
                && skip.contains(&e.file_name().to_string_lossy().as_ref()))
        });
    b
}

/// Whether git ignores the file at `path` (`.gitignore` inside a repository, the global
/// excludes, `.git/info/exclude`): a file that is not committed.
pub(crate) fn git_ignored(path: &Path) -> bool {
    match (path.parent(), path.file_name().and_then(|n| n.to_str())) {
        (Some(dir), Some(name)) => path.is_file() && ignored(dir, name),
        _ => false,
    }
}

/// Whether the file at `path` is inside a git repository (a `.git` above it); with
/// [`git_ignored`], whether git would commit it.
pub(crate) fn in_repository(path: &Path) -> bool {
    path.ancestors().skip(1).any(|d| d.join(".git").exists())
}

/// Whether the ignore rules of [`walker`] leave out the folder `name` of `dir` (a walk that starts
/// in a folder does not judge the folder itself).
fn ignored(dir: &Path, name: &str) -> bool {
    let name = std::ffi::OsString::from(name);
    !walker_skipping(dir, &[])
        .max_depth(Some(1))
        .filter_entry(move |e| e.depth() == 0 || e.file_name() == name.as_os_str())
        .build()
        .flatten()
        .any(|e| e.depth() == 1)
}

/// The files under `root` that a dialect keeps even in build folders (a plugin built into
/// `dist/`), at any depth, the ignore rules of [`walker`] honoured but the build folders of
/// [`PLUGIN_DIRS`] entered.
fn build_folder_files(root: &Path) -> Vec<PathBuf> {
    const SKIP: &[&str] = &[
        ".git",
        "node_modules",
        "target",
        ".venv",
        "venv",
        "__pycache__",
        ".hg",
        ".svn",
    ];
    let mut out = Vec::new();
    let mut entries = 0usize;
    for entry in walker_skipping(root, SKIP).build().flatten() {
        entries += 1;
        if entries > MAX_ENTRIES {
            break;
        }
        if entry.file_type().is_some_and(|t| t.is_file())
            && Dialect::REGISTERED
                .iter()
                .any(|d| d.spec().kept_in_build_folders(entry.path()))
        {
            out.push(entry.path().to_path_buf());
        }
    }
    out
}

/// The Markdown and JSON files under `root` that the walk would visit, counted up to just
/// past `limit` (an upper bound of the files [`walk`] finds, cheap to stop early): enough to
/// tell a small workspace from a large one without walking all of a large one.
pub fn count_candidates_past(root: &Path, limit: usize) -> usize {
    let mut n = 0;
    for entry in walker(root).build().flatten() {
        let name = entry.file_name().to_string_lossy();
        if entry.file_type().is_some_and(|t| t.is_file())
            && (name.ends_with(".md") || name.ends_with(".json") || name.ends_with(".jsonc"))
        {
            n += 1;
            if n > limit {
                break;
            }
        }
    }
    n
}

/// Sorts a file the walk met onto its pile.
fn sort_onto(found: &mut Found, path: &Path, depth: usize) {
    match keeps(path, depth) {
        Some(Pile::Config) => found.configs.push(path.to_path_buf()),
        Some(Pile::Document) => found.markdown.push(path.to_path_buf()),
        None => {}
    }
}

pub fn walk(root: &Path) -> Found {
    let mut found = Found::default();
    let walker = walker(root).sort_by_file_name(|a, b| a.cmp(b)).build();
    let mut dirs: BTreeMap<PathBuf, ()> = BTreeMap::new();
    let mut entries = 0usize;
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                // A symlink loop is entered once, silently; anything else is reported.
                if !is_loop(&e) {
                    let path = match &e {
                        ignore::Error::WithPath { path, .. } => path.clone(),
                        _ => root.to_path_buf(),
                    };
                    found.unreadable.push((path, e.to_string()));
                }
                continue;
            }
        };
        entries += 1;
        if entries > MAX_ENTRIES {
            break;
        }
        let path = entry.path();
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            dirs.insert(path.to_path_buf(), ());
            continue;
        }
        sort_onto(&mut found, path, entry.depth());
    }
    // Files in the build folders the walk leaves out (`dist/`, `build/`), where the ignore rules
    // let them be.
    for dir in dirs.keys() {
        for name in PLUGIN_DIRS {
            let d = dir.join(name);
            if !dirs.contains_key(&d) && d.is_dir() && !ignored(dir, name) {
                found.configs.extend(build_folder_files(&d));
            }
        }
    }
    // Config folders the ignore rules hid.
    let folders = config_folders();
    let mut hidden: Vec<PathBuf> = Vec::new();
    for dir in dirs.keys() {
        for f in &folders {
            let c = dir.join(f);
            if !dirs.contains_key(&c) && c.is_dir() {
                hidden.push(c);
            }
        }
    }
    // Files a runtime reads even where git ignores them.
    for dir in dirs.keys() {
        for d in Dialect::REGISTERED {
            for p in d.spec().read_when_ignored(dir) {
                if p.is_file() {
                    sort_onto(&mut found, &p, 1);
                }
            }
        }
    }
    let mut all_dirs: Vec<PathBuf> = dirs.into_keys().collect();
    for c in hidden {
        let (more, entered) = walk_unfiltered(&c);
        found.configs.extend(more.configs);
        found.markdown.extend(more.markdown);
        found.unreadable.extend(more.unreadable);
        all_dirs.extend(entered);
    }
    found.configs.sort();
    found.configs.dedup();
    found.markdown.sort();
    found.markdown.dedup();
    all_dirs.sort();
    all_dirs.dedup();
    for d in Dialect::REGISTERED {
        for f in d.spec().whole_folders(&all_dirs, &found.configs) {
            found.folders.push((*d, f));
        }
    }
    found
}

/// A file-system loop (a symlink to an ancestor), however the walker wraps it.
fn is_loop(e: &ignore::Error) -> bool {
    match e {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

/// Walk `root` without ignore rules, following symlinks once each (a loop is entered only
/// once): for the config folders that ignore rules hide. With the folders it entered.
fn walk_unfiltered(root: &Path) -> (Found, Vec<PathBuf>) {
    let mut found = Found::default();
    let mut entered = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    let mut entries = 0usize;
    while let Some((dir, depth)) = stack.pop() {
        let Ok(canonical) = fs::canonicalize(&dir) else {
            continue;
        };
        if !seen.insert(canonical) {
            continue;
        }
        let read = match fs::read_dir(&dir) {
            Ok(r) => r,
            Err(e) => {
                found.unreadable.push((dir.clone(), e.to_string()));
                continue;
            }
        };
        entered.push(dir.clone());
        let mut names: Vec<(String, PathBuf, bool)> = Vec::new();
        for entry in read.flatten() {
            entries += 1;
            if entries > MAX_ENTRIES {
                break;
            }
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            // Follow symlinks: `metadata` resolves them; a dangling link is skipped.
            let is_dir = fs::metadata(&path).map(|m| m.is_dir()).unwrap_or(false);
            names.push((name, path, is_dir));
        }
        names.sort();
        for (name, path, is_dir) in &names {
            if *is_dir {
                if depth < MAX_DEPTH && !SKIP_DIRS.contains(&name.as_str()) {
                    stack.push((path.clone(), depth + 1));
                }
            } else {
                sort_onto(&mut found, path, depth + 1);
            }
        }
    }
    found.configs.sort();
    found.markdown.sort();
    (found, entered)
}

#[cfg(test)]
mod tests;

/// What to analyse a document as when no place a runtime reads holds it: the first dialect
/// that takes it alone (JSON named like a config or declaring a schema, an MCP file, Markdown
/// with a frontmatter in an agents folder).
pub fn solo_kind(path: Option<&Path>, uri: &str, language_id: &str, text: &str) -> Option<FileKind> {
    let name = path
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| uri.rsplit('/').next().unwrap_or("").to_string());
    Dialect::REGISTERED
        .iter()
        .find_map(|d| d.spec().solo_kind(path, &name, language_id, text, &FsDisk))
}
