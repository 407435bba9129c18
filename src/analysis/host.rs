//! What a dialect may read of the project around a file: the one view of the workspace the
//! dialects get (the [`Host`] trait, implemented by the workspace). A dialect's cross-file
//! answers (its views, agents, completion and hover) are functions of a `&dyn Host`, so they sit
//! in its folder with no I/O: what the disk holds comes through the host, as rust-analyzer's
//! `ide` layer gets its files through a database.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::{Dialect, FileAnalysis, FileKind, LineIndex};

/// The user's own folders the runtimes read (the front end finds them in the environment; an
/// isolated run has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The home directory, for user-level skills (`~/.claude/skills`, `~/.agents/skills`).
    pub home: Option<PathBuf>,
    /// The user's folders and files each runtime reads, under the names its dialect gives them
    /// (`opencode.global_dir`), as the dialect finds them in the environment
    /// (`DialectSpec::user_options`) or a caller sets them ([`Options::with`]).
    pub user: BTreeMap<&'static str, PathBuf>,
}

impl Options {
    /// The user's folder or file a dialect calls `name`, when there is one.
    pub fn user(&self, name: &str) -> Option<&Path> {
        self.user.get(name).map(PathBuf::as_path)
    }

    /// Set (or, with `None`, unset) the user's folder or file a dialect calls `name`.
    pub fn set_user(&mut self, name: &'static str, path: Option<PathBuf>) {
        match path {
            Some(p) => {
                self.user.insert(name, p);
            }
            None => {
                self.user.remove(name);
            }
        }
    }

    /// These options with the user's folder or file `name` set to `path`.
    pub fn with(mut self, name: &'static str, path: impl Into<PathBuf>) -> Options {
        self.user.insert(name, path.into());
        self
    }
}

/// What part a file plays in its runtime: where it belongs and its place in the merge order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A file of a dialect that says its place itself: `dir` is the folder it belongs to (its
    /// project, its workspace folder, or a user-level folder) and `layer` its place in the
    /// runtime's merge order, as the dialect numbers it (see its `dialect.rs`).
    Dialect { dir: PathBuf, layer: u8 },
    /// A `SKILL.md`; `dir` is the project whose `.opencode/`, `.claude/`, `.agents/` or `.zuno/`
    /// holds it.
    Skill { dir: PathBuf },
    /// A command file; `dir` is its project.
    Command { dir: PathBuf },
    /// `agent-lsp.toml` or `.agent-lsp.toml`; `dir` holds it.
    ProjectFile { dir: PathBuf },
    /// A file given by path that no runtime reads where it sits (a `README.md`, a Markdown file
    /// outside every agents, commands and skills folder): not analysed, one finding says so.
    NotRead,
    /// A file a runtime reads that agent-lsp does not check yet: what it is (see
    /// `discover::read_not_checked`); not analysed, one finding says so.
    NotChecked(&'static str),
}

impl Role {
    /// The folder a file belongs to, whatever its role (none for a user config, a file not
    /// read or not checked).
    pub fn folder(&self) -> Option<&Path> {
        match self {
            Role::Dialect { dir, .. } | Role::Skill { dir } | Role::Command { dir } | Role::ProjectFile { dir } => {
                Some(dir)
            }
            Role::NotRead | Role::NotChecked(_) => None,
        }
    }

    /// The folder a file of a dialect belongs to, and its layer in the runtime's merge order.
    pub fn dialect(&self) -> Option<(&Path, u8)> {
        match self {
            Role::Dialect { dir, layer } => Some((dir, *layer)),
            _ => None,
        }
    }
}

/// One live file of the workspace, as a dialect sees it.
#[derive(Clone, Copy)]
pub struct HostFile<'a> {
    /// Its id: stable for the workspace's life.
    pub id: usize,
    pub path: &'a Path,
    pub kind: &'a FileKind,
    pub role: &'a Role,
    pub text: &'a str,
    pub index: &'a LineIndex,
    pub analysis: &'a FileAnalysis,
    /// The analysis after the values a runtime substitutes when it reads the file (opencode's
    /// `{env:...}` and `{file:...}`); the analysis itself when there are none.
    pub effective: &'a FileAnalysis,
    /// Under the paths the user asked about (its problems are reported).
    pub in_scope: bool,
}

/// The project as the dialects see it: the files the workspace holds, and the few facts of the
/// machine their answers rest on. No method writes or runs anything.
pub trait Host {
    /// How many file slots there are (ids are below it; a removed file's slot stays).
    fn slots(&self) -> usize;
    /// The live file `id`.
    fn file(&self, id: usize) -> Option<HostFile<'_>>;
    /// The names of the skills `dialect`'s runtime finds for the folder `dir` beyond the files
    /// the workspace holds (read when the folder's first file was added); `None` when they
    /// were not looked for.
    fn skill_names(&self, dialect: Dialect, dir: &Path) -> Option<Vec<String>>;
    /// The names of the skills `dialect`'s runtime finds in the user's own folders.
    fn user_skill_names(&self, dialect: Dialect) -> &[String];
    /// The live file at `path`.
    fn id_of(&self, path: &Path) -> Option<usize>;
    /// What `dialect` read of the user's own files when the workspace loaded (its type is the
    /// dialect's own: Claude Code's is the MCP servers of `~/.claude.json`).
    fn dialect_state(&self, dialect: Dialect) -> Option<&(dyn Any + Send + Sync)>;
    /// The user's own folders, as the front end found them.
    fn options(&self) -> &Options;
    /// The folders the user asked about.
    fn roots(&self) -> &[PathBuf];
    /// The worktree tops above files and config folders given as paths: their project's
    /// layers are read up to there.
    fn context_roots(&self) -> &[PathBuf];
    /// Changes when a file is added or removed or changes role, kind or scope.
    fn generation(&self) -> u64;
    /// Answers remembered for [`Host::generation`] (see [`memoized`]).
    fn memo(&self) -> &Memo;
    /// `path` as the workspace keys files: canonical when it exists.
    fn canonical(&self, path: &Path) -> PathBuf;
    /// The system's temporary folder.
    fn temp_dir(&self) -> PathBuf;
    /// The disk, read-only, for the dialects' path rules.
    fn disk(&self) -> &dyn Disk;
}

/// Answers a dialect remembers while the workspace's files keep their places: by the type of
/// the answer and a path, with the generation they were found in.
#[derive(Debug, Default)]
pub struct Memo(Mutex<HashMap<(TypeId, PathBuf), Remembered>>);

impl Memo {
    /// Forget every answer (the disk changed under them).
    pub fn clear(&self) {
        if let Ok(mut m) = self.0.lock() {
            m.clear();
        }
    }
}

/// One remembered answer, with the generation it was found in.
type Remembered = (u64, Arc<dyn Any + Send + Sync>);

/// The answer of type `T` for `key`, found by `find` unless remembered for the host's current
/// generation.
pub fn memoized<T: Clone + Send + Sync + 'static>(host: &dyn Host, key: &Path, find: impl FnOnce() -> T) -> T {
    let generation = host.generation();
    let slot = (TypeId::of::<T>(), key.to_path_buf());
    if let Ok(memo) = host.memo().0.lock()
        && let Some((g, v)) = memo.get(&slot)
        && *g == generation
        && let Some(v) = v.downcast_ref::<T>()
    {
        return v.clone();
    }
    let found = find();
    if let Ok(mut memo) = host.memo().0.lock() {
        memo.insert(slot, (generation, Arc::new(found.clone())));
    }
    found
}

impl dyn Host + '_ {
    /// Every live file, in id order.
    pub fn files(&self) -> impl Iterator<Item = HostFile<'_>> {
        (0..self.slots()).filter_map(move |id| self.file(id))
    }

    /// The live files of `dialect`'s own kinds that say their place ([`Role::Dialect`]), with
    /// their folder and layer.
    pub fn files_of(&self, dialect: Dialect) -> impl Iterator<Item = (HostFile<'_>, &Path, u8)> {
        self.files().filter_map(move |f| {
            let (dir, layer) = f.role.dialect()?;
            (f.kind.dialect() == dialect).then_some((f, dir, layer))
        })
    }
}

/// The file system as the dialects' path rules see it: read-only, bounded walks, symlinks
/// followed. The workspace gives the real one.
pub trait Disk {
    /// Whether a regular file is at `path` (a symlink followed).
    fn is_file(&self, path: &Path) -> bool;
    /// Whether a folder is at `path` (a symlink followed).
    fn is_dir(&self, path: &Path) -> bool;
    /// The text of the file at `path` (lossy UTF-8), when it can be read and is at most `max`
    /// bytes long.
    fn read_text(&self, path: &Path, max: u64) -> Option<String>;
    /// The entries of folder `dir`, sorted by path, each with whether it is a folder.
    fn list(&self, dir: &Path) -> Vec<(PathBuf, bool)>;
    /// The files below `dir` that `keep` takes (by path and file name), each folder entered once,
    /// bounded in depth and count. `dot`: enter hidden folders; `skip`: leave out dependency
    /// and build folders (`node_modules/`, `target/`, ...). In no particular order.
    fn files_under(&self, dir: &Path, dot: bool, skip: bool, keep: &dyn Fn(&Path, &str) -> bool) -> Vec<PathBuf>;
    /// An environment variable the runtime reads (unset when empty).
    fn env(&self, key: &str) -> Option<String>;
    /// Whether anything is at `path` (a symlink followed).
    fn exists(&self, path: &Path) -> bool;
    /// A file's text as agent-lsp reads a file it analyses (size and encoding guards), or why
    /// it cannot be read.
    fn read_file(&self, path: &Path) -> Result<String, String>;
    /// The files below `dir`, relative to it, as the ignore rules leave them (a file git ignores
    /// is not in a workspace an editor searches); `None` when there are more than a budget
    /// allows (no pattern gets a verdict then).
    fn files_below(&self, dir: &Path) -> Option<std::sync::Arc<Vec<PathBuf>>>;
    /// Whether `pattern` (a path or a glob, relative to `dir`) matches a file in `dir`; `true`
    /// when the pattern cannot be read or the walk passes its budget (no verdict).
    fn glob_matches(&self, dir: &Path, pattern: &str) -> bool;
}

impl dyn Disk + '_ {
    /// The name of the entry beside `target` (a missing file) closest to its own, when one is
    /// close enough to be a typo (`env-var.md` for `env-vars.md`).
    pub fn closest_sibling(&self, target: &Path) -> Option<String> {
        let name = target.file_name()?.to_str()?;
        let names: Vec<String> = self
            .list(target.parent()?)
            .into_iter()
            .filter_map(|(p, _)| Some(p.file_name()?.to_str()?.to_string()))
            .collect();
        super::suggest::closest(name, names.iter().map(String::as_str)).map(str::to_string)
    }

    /// Every Markdown file below `dir`, hidden folders included, sorted.
    pub fn markdown_under(&self, dir: &Path) -> Vec<PathBuf> {
        let mut out = self.files_under(dir, true, false, &|p, _| p.extension().is_some_and(|e| e == "md"));
        out.sort();
        out
    }

    /// Every `SKILL.md` under `dir/<sub>` for each of `subs` (`""` for `dir` itself), at any
    /// depth, as the runtimes' skill globs find them (`skills/**/SKILL.md`); `dot` enters hidden
    /// folders. Shallower files first, then by path: the runtimes' globs return them level by
    /// level (the order within a level follows the file system; only the order of `allow` rules
    /// next to each other depends on it, which never changes a decision).
    pub fn skill_files(&self, dir: &Path, subs: &[&str], dot: bool) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for sub in subs {
            let base = if sub.is_empty() {
                dir.to_path_buf()
            } else {
                dir.join(sub)
            };
            if self.is_dir(&base) {
                out.extend(self.files_under(&base, dot, true, &|_, name| name == "SKILL.md"));
            }
        }
        out.sort_by(|a, b| {
            let depth = |p: &PathBuf| p.strip_prefix(dir).map_or(0, |r| r.components().count());
            (depth(a), a).cmp(&(depth(b), b))
        });
        out
    }
}
