//! The workspace layer: all file-system access. It finds the files opencode would load (spec
//! §2), reads them with size and encoding guards, runs the pure core on each, and groups them
//! into views (what opencode loads when started in one directory) for the cross-file checks.
//!
//! The store is incremental: the language server replaces one file's text ([`Workspace::upsert`])
//! or removes a file ([`Workspace::remove`]) and asks for diagnostics again; only that file is
//! re-analysed, and the views are derived from the files' paths and roles without touching disk.

mod cross;
pub mod discover;
mod load;
mod policy;
mod queries;
mod read;
mod store;
#[cfg(test)]
mod tests;
mod views;

use load::{DirKind, external_skill_folders, is_dot_opencode};
pub use read::{Unread, read_text, unchecked_file};

pub use cross::{Unit, UnitDef};

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::analysis::opencode::{self, FileKind as OcKind, project};
use crate::analysis::{self, Code, Diagnostic, FileAnalysis, FileKind, LineIndex, Span, claude};

/// Files larger than this are not analysed (no agent file comes near it).
pub const MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// Where opencode's user-level configuration lives, and whether to read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The global config directory (`$XDG_CONFIG_HOME/opencode` or `~/.config/opencode`).
    pub global_dir: Option<PathBuf>,
    /// `~/.opencode`.
    pub home_dot_opencode: Option<PathBuf>,
    /// `$OPENCODE_CONFIG`: one extra config file.
    pub config_file: Option<PathBuf>,
    /// `$OPENCODE_CONFIG_DIR`: one extra config directory.
    pub config_dir: Option<PathBuf>,
    /// The home directory, for user-level skills (`~/.claude/skills`, `~/.agents/skills`).
    pub home: Option<PathBuf>,
    /// Zuno's global config directory (`$XDG_CONFIG_HOME/zuno` or `~/.config/zuno`).
    pub zuno_global: Option<PathBuf>,
}

impl Options {
    /// Nothing outside the given paths is read.
    pub fn isolated() -> Options {
        Options::default()
    }

    /// As opencode resolves it from the environment. `global_dir` overrides the global
    /// directory; `no_global` reads nothing outside the given paths.
    pub fn from_env(no_global: bool, global_dir: Option<PathBuf>) -> Options {
        if no_global {
            return Options::isolated();
        }
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = env("HOME");
        let global = global_dir.or_else(|| {
            env("XDG_CONFIG_HOME")
                .map(|x| x.join("opencode"))
                .or_else(|| home.as_ref().map(|h| h.join(".config").join("opencode")))
        });
        Options {
            global_dir: global,
            home_dot_opencode: home.as_ref().map(|h| h.join(".opencode")),
            config_file: env("OPENCODE_CONFIG"),
            config_dir: env("OPENCODE_CONFIG_DIR"),
            zuno_global: env("XDG_CONFIG_HOME")
                .map(|x| x.join("zuno"))
                .or_else(|| home.as_ref().map(|h| h.join(".config").join("zuno"))),
            home,
        }
    }
}

/// What part a file plays in opencode's merge order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A config file read before project configs: the global directory's `config.json`,
    /// `opencode.json`, `opencode.jsonc` (orders 0 to 2) and `$OPENCODE_CONFIG` (order 3).
    UserConfig(u8),
    /// `opencode.json(c)` in a project directory.
    ProjectConfig { dir: PathBuf },
    /// `opencode.json(c)` inside a config directory (`.opencode/`, `~/.opencode`,
    /// `$OPENCODE_CONFIG_DIR`).
    DirConfig { dir: PathBuf },
    /// A Markdown agent of a config directory.
    Markdown { dir: PathBuf },
    /// A Claude Code agent file; `dir` owns its `.claude/agents/` (the project, or the home
    /// directory for user agents) or is the plugin's root.
    Claude { dir: PathBuf },
    /// A Zuno file; `dir` is its project (or Zuno's global directory), `layer` its place in
    /// Zuno's merge order (see [`discover::ZunoLayer`]).
    Zuno { dir: PathBuf, layer: discover::ZunoLayer },
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
    /// A Claude Code plugin manifest (`.claude-plugin/plugin.json` or `marketplace.json`);
    /// `dir` is the plugin's (or marketplace's) root.
    Manifest { dir: PathBuf },
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
    /// Changes when what the cross-file checks read of the file may have changed (see
    /// `cross.rs`), with the two hashes it is derived from.
    pub stamp: u64,
    /// Changes when the file's part in the name-level checks may have changed (see
    /// `cross::names_key`); always together with `stamp`, often not when it changes.
    pub names: u64,
    shape: u64,
    content: u64,
    names_key: u64,
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
    context_roots: Vec<PathBuf>,
    pub options: Options,
    by_path: HashMap<PathBuf, usize>,
    /// Skill names per Zuno project directory (for `requiredSkills`).
    zuno_skills: HashMap<PathBuf, Vec<String>>,
    /// The names of the user-level skills opencode loads in every project (`~/.claude/skills`,
    /// `~/.agents/skills`, the `{skill,skills}/` of the user config directories).
    user_skills: Vec<String>,
    /// The user's Claude Code skills (`~/.claude/skills/<name>/SKILL.md`), by folder name.
    user_claude_skills: Vec<String>,
    /// The last stamp given to a file.
    clock: u64,
    /// Bumped when a file is added or removed or changes role, kind or scope.
    structure: u64,
    /// The cross-file results, kept up to date by `refresh_cross`.
    cross: cross::CrossCache,
    /// The ids of the project files (`agent-lsp.toml`) ever loaded (see `policy.rs`).
    project_files: Vec<usize>,
    /// The codes an editor setting decides, which project files leave alone.
    editor_codes: Vec<Code>,
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

impl Workspace {
    /// A command's `agent` that names no agent of its runtime in its project.
    pub(crate) fn command_agents(&self) -> Vec<(usize, Diagnostic)> {
        use crate::analysis::diagnostic::{Effect, Severity};
        let mut out = Vec::new();
        let mut cache: HashMap<(crate::analysis::Dialect, &Path), Vec<(String, String)>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live && f.in_scope) {
            let (Role::Command { dir }, FileKind::Command(kind), Some(decl)) = (&f.role, &f.kind, f.analysis.command())
            else {
                continue;
            };
            let Some((agent, span)) = &decl.agent else { continue };
            let names = cache
                .entry((kind.runtime, dir.as_path()))
                .or_insert_with(|| self.agents_for_command(kind.runtime, dir));
            if names.iter().any(|(n, _)| n == agent) {
                continue;
            }
            let near = crate::analysis::suggest::closest(agent, names.iter().map(|(n, _)| n.as_str()));
            let mut d = Diagnostic::new(
                Code::UnknownAgent,
                *span,
                format!(
                    "no {} agent `{agent}` is defined for this project: the command fails when it runs.{}",
                    kind.runtime.product(),
                    crate::analysis::suggest::did_you_mean(near)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::FailsWhenUsed);
            if let Some(n) = near {
                let raw = span.text(&f.text);
                let new = if raw.starts_with(['"', '\'']) {
                    format!("\"{n}\"")
                } else {
                    n.to_string()
                };
                d = d.with_suggestion(*span, new);
            }
            out.push((id, d));
        }
        out
    }

    /// Skills of one project with the same name that one runtime loads together.
    pub(crate) fn duplicate_skills(&self) -> Vec<(usize, Diagnostic)> {
        use crate::analysis::diagnostic::{Effect, Location, Severity};
        let mut by_name: HashMap<(&Path, &str), Vec<usize>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            let (Role::Skill { dir }, FileKind::Skill(kind), Some(decl)) = (&f.role, &f.kind, f.analysis.skill())
            else {
                continue;
            };
            // A plugin lists two skills of one name both (`/plugin:name` twice): not this check.
            if kind.loaders.is_empty() || kind.namespace.is_some() {
                continue;
            }
            if let Some(name) = &decl.name {
                by_name.entry((dir.as_path(), name.as_str())).or_default().push(id);
            }
        }
        let mut out = Vec::new();
        for ((_, name), ids) in by_name.into_iter().filter(|(_, v)| v.len() > 1) {
            for &id in &ids {
                let f = &self.files[id];
                let FileKind::Skill(kind) = &f.kind else { continue };
                // The others a runtime that loads this one also loads.
                let others: Vec<usize> = ids
                    .iter()
                    .copied()
                    .filter(|&o| o != id)
                    .filter(|&o| match &self.files[o].kind {
                        FileKind::Skill(k) => k.loaders.iter().any(|d| kind.loaders.contains(d)),
                        _ => false,
                    })
                    .collect();
                if others.is_empty() || !f.in_scope {
                    continue;
                }
                let span = f.analysis.skill().map(|d| d.span).unwrap_or_default();
                let shared = |d: crate::analysis::Dialect| {
                    kind.loaders.contains(&d)
                        && others.iter().any(|&o| match &self.files[o].kind {
                            FileKind::Skill(k) => k.loaders.contains(&d),
                            _ => false,
                        })
                };
                let mut effects = Vec::new();
                if shared(crate::analysis::Dialect::OpenCode) {
                    effects.push("opencode keeps one of them, and which one is not deterministic");
                }
                if shared(crate::analysis::Dialect::Claude) {
                    effects.push("Claude Code keeps one");
                }
                if shared(crate::analysis::Dialect::Zuno) {
                    effects.push("Zuno cannot resolve a required skill named twice");
                }
                let mut d = Diagnostic::new(
                    Code::DuplicateSkill,
                    span,
                    format!(
                        "{} other `SKILL.md` of this project also define{} the skill `{name}`: {}",
                        others.len(),
                        if others.len() == 1 { "s" } else { "" },
                        effects.join("; ")
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored);
                for o in others {
                    let os = self.files[o].analysis.skill().map(|d| d.span).unwrap_or_default();
                    d = d.with_related(
                        Location::File { file: o, span: os },
                        format!("`{name}` is also defined here"),
                    );
                }
                out.push((id, d));
            }
        }
        out.sort_by_key(|(id, _)| *id);
        out
    }

    /// Files of one config directory share a group (their directory's first file id).
    pub(crate) fn groups(&self) -> Vec<usize> {
        let mut first: HashMap<&Path, usize> = HashMap::new();
        (0..self.files.len())
            .map(|id| match &self.files[id].role {
                Role::Markdown { dir } | Role::DirConfig { dir } => *first.entry(dir.as_path()).or_insert(id),
                _ => id,
            })
            .collect()
    }
}

/// A path with `.` and `..` components resolved lexically (as Node's `path.resolve` does).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The key a path is stored under: canonical when it exists, so that `./a` and `a` are one file.
fn key(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}
