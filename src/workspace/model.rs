//! The workspace's data: the files it holds with their kind, role and analysis, the options it
//! was loaded with, and the small path helpers every part of it shares.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::units::CrossCache;
pub use crate::analysis::host::{Options, Role};
use crate::analysis::{Code, FileAnalysis, FileKind, LineIndex};

pub use super::read::MAX_FILE_SIZE;

impl Options {
    /// Nothing outside the given paths is read.
    pub fn isolated() -> Options {
        Options::default()
    }

    /// As the runtimes find the user's folders in the environment (see
    /// `DialectSpec::user_options`). `global_dir` is the global configuration folder the user
    /// named; `no_global` reads nothing outside the given paths.
    pub fn from_env(no_global: bool, global_dir: Option<PathBuf>) -> Options {
        if no_global {
            return Options::isolated();
        }
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let mut o = Options {
            home: env("HOME"),
            ..Options::default()
        };
        for d in crate::analysis::Dialect::REGISTERED {
            d.spec().user_options(&env, global_dir.as_deref(), &mut o);
        }
        o
    }
}

/// One file read from disk (or given by an editor) and analysed.
#[derive(Debug)]
pub struct File {
    pub path: PathBuf,
    pub kind: FileKind,
    pub role: Role,
    pub text: String,
    pub index: LineIndex,
    pub analysis: FileAnalysis,
    /// Diagnostics are reported for files under the paths the user asked about; global files
    /// only contribute their agents.
    pub in_scope: bool,
    /// False once the file was removed; its slot stays so that ids remain stable.
    pub live: bool,
    /// For a config file with `{env:...}` or `{file:...}` references: the analysis with the
    /// values opencode substitutes (what the effective agents and cross-file checks use).
    pub resolved: Option<FileAnalysis>,
    /// Whether its analysis reads other files (its checks that add to it do): analysed again
    /// when files change on disk.
    pub reads: bool,
    /// Changes when what the cross-file checks read of the file may have changed (see
    /// `cross.rs`), with the two hashes it is derived from.
    pub stamp: u64,
    /// Changes when the file's part in the name-level checks may have changed (see
    /// `cross::names_key`); always together with `stamp`, often not when it changes.
    pub names: u64,
    pub(super) shape: u64,
    pub(super) content: u64,
    pub(super) names_key: u64,
}

impl File {
    /// The analysis opencode's view of the file rests on: after substitutions, when there are
    /// any.
    pub fn effective_analysis(&self) -> &FileAnalysis {
        self.resolved.as_ref().unwrap_or(&self.analysis)
    }
}

#[derive(Debug, Default)]
pub struct Workspace {
    pub files: Vec<File>,
    /// Paths that could not be read, with the reason.
    pub errors: Vec<(PathBuf, String)>,
    /// The directories the user asked about.
    pub roots: Vec<PathBuf>,
    /// Worktree tops above explicit files and config directories given as paths: their
    /// project's layers are read (not reported) up to there.
    pub(super) context_roots: Vec<PathBuf>,
    pub options: Options,
    pub(super) by_path: HashMap<PathBuf, usize>,
    /// The skill names a runtime finds for a project beyond the files held (Zuno's, for
    /// `requiredSkills`), by dialect and project folder.
    pub(super) dialect_skills: HashMap<(crate::analysis::Dialect, PathBuf), Vec<String>>,
    /// The names of the user-level skills opencode loads in every project (`~/.claude/skills`,
    /// `~/.agents/skills`, the `{skill,skills}/` of the user config directories).
    /// (opencode's), and the user's Claude Code skills (`~/.claude/skills/<name>/SKILL.md`, by
    /// folder name): the skills each runtime finds in the user's folders, by dialect.
    pub(super) user_skills: HashMap<crate::analysis::Dialect, Vec<String>>,
    /// The MCP servers of the user's `~/.claude.json` (user and local scope); `None` when they
    /// cannot be known (no home, the file unreadable, `CLAUDE_CONFIG_DIR` set, an organization's
    /// `managed-mcp.json`), and then no `mcp__` tool entry is judged.
    pub(super) dialect_state: HashMap<crate::analysis::Dialect, Box<dyn std::any::Any + Send + Sync>>,
    /// The last stamp given to a file.
    pub(super) clock: u64,
    /// Bumped when a file is added or removed or changes role, kind or scope.
    pub(super) structure: u64,
    /// The cross-file results, kept up to date by `refresh_cross`.
    pub(super) cross: CrossCache,
    /// The ids of the project files (`agent-lsp.toml`) ever loaded (see `policy.rs`).
    pub(super) project_files: Vec<usize>,
    /// The codes an editor setting decides, which project files leave alone.
    pub(super) editor_codes: Vec<Code>,
    /// The policies' verdicts already proved (see `policy_check.rs`).
    pub(super) policy_memo: super::units::Memo,
    /// What the dialects remember while the files keep their places (opencode's environment
    /// per start directory, which reads the disk).
    pub(super) memo: crate::analysis::host::Memo,
    /// The disk as the dialects' checks see it, with what they asked remembered until files
    /// appear or vanish.
    pub(super) disk: super::tree::CachedDisk,
    /// The instruction files each folder holds (in the workspace or on disk), with the
    /// structure generation they were looked up for; cleared with `disk`.
    pub(super) instruction_memo: std::sync::Mutex<(u64, HashMap<PathBuf, InstructionNames>)>,
    /// What the manifests, lockfiles and npx's cache say of the packages the files start
    /// (`unpinned-package`, see `pins.rs`).
    pub(super) pins: super::pins::Memo,
}

/// The instruction files one folder holds, and whether it is a git work tree's root.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct InstructionNames {
    /// The instruction files it holds, of those the registered runtimes weigh.
    pub present: crate::analysis::instructions::Present,
    pub git: bool,
}

/// A path given by the user that does not exist or is not an opencode file.
#[derive(Debug)]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

pub(super) use crate::analysis::discovery::normalize;

/// The key a path is stored under: canonical when it exists, so that `./a` and `a` are one file.
pub(super) fn key(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
