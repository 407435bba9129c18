//! The workspace layer: all file-system access. It finds the files opencode would load (spec
//! §2), reads them with size and encoding guards, runs the pure core on each, and groups them
//! into views (what opencode loads when started in one directory) for the cross-file checks.
//!
//! The store is incremental: the language server replaces one file's text ([`Workspace::upsert`])
//! or removes a file ([`Workspace::remove`]) and asks for diagnostics again; only that file is
//! re-analysed, and the views are derived from the files' paths and roles without touching disk.

mod cross;
pub mod discover;
mod policy;

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

/// How a config directory behaves in the merge order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DirKind {
    Global,
    HomeDot,
    EnvDir,
    DotOpencode,
    /// A project directory laid out like a global config directory.
    Layout,
}

fn is_dot_opencode(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == ".opencode")
}

impl Workspace {
    /// Discover and analyse everything under `paths` (directories or files).
    pub fn load(paths: &[PathBuf], options: &Options) -> Result<Workspace, LoadError> {
        let mut ws = Workspace {
            options: options.clone(),
            ..Workspace::default()
        };
        let mut explicit = Vec::new();
        for p in paths {
            let meta = fs::metadata(p).map_err(|e| LoadError {
                path: p.clone(),
                message: e.to_string(),
            })?;
            // Absolute and canonical, so that the walk up to the worktree and the views see the
            // same paths for `.`, `packages/api` and `/abs/repo/packages/api`.
            let canonical = fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if meta.is_dir() {
                ws.roots.push(canonical);
            } else {
                explicit.push((p.clone(), canonical));
            }
        }
        ws.load_user_layers();
        for root in ws.roots.clone() {
            ws.load_root(&root);
            // Read (without reporting on them) the layers opencode also loads when started there:
            // the configs and `.opencode/` folders of the ancestors up to the worktree top; for a
            // config directory (or a folder inside one) given as a path, those of its project.
            let project = enclosing_project(&root).unwrap_or_else(|| root.clone());
            ws.load_context(&project);
        }
        for (given, file) in &explicit {
            let Some((kind, role)) = ws.role_of(file).or_else(|| explicit_role(file)) else {
                return Err(LoadError {
                    path: given.clone(),
                    message: "not an opencode file (expected opencode.json, opencode.jsonc or a Markdown agent)".into(),
                });
            };
            let project = match &role {
                Role::ProjectConfig { dir } => Some(dir.clone()),
                Role::DirConfig { dir } | Role::Markdown { dir } if is_dot_opencode(dir) => {
                    dir.parent().map(Path::to_path_buf)
                }
                Role::Markdown { dir } => Some(dir.clone()),
                // Claude Code, Zuno, skill and command files: their project, so that the agents
                // they name resolve when the file is checked alone (as pre-commit passes it).
                Role::Claude { dir } | Role::Zuno { dir, .. } | Role::Skill { dir } | Role::Command { dir } => {
                    Some(dir.clone())
                }
                _ => None,
            };
            if role == Role::NotRead {
                ws.add_unread(file, kind, role, true, &Unread::NotRead);
                continue;
            }
            ws.read_and_add(file, kind, role, true);
            if let Some(project) = project {
                ws.load_context(&project);
            }
        }
        Ok(ws)
    }

    /// An empty workspace over `roots` (the language server fills it as it goes).
    pub fn new(roots: Vec<PathBuf>, options: Options) -> Workspace {
        let mut ws = Workspace {
            roots,
            options,
            ..Workspace::default()
        };
        ws.load_user_layers();
        ws
    }

    /// Discover and read everything under the roots (the language server's initial scan).
    pub fn scan(&mut self) {
        for root in self.roots.clone() {
            self.load_root(&root);
        }
    }

    /// The file at `path`, if loaded and live.
    pub fn id(&self, path: &Path) -> Option<usize> {
        let id = *self.by_path.get(&key(path))?;
        self.files[id].live.then_some(id)
    }

    /// Add or replace a file with the given text and analyse it. Returns its id.
    pub fn upsert(&mut self, path: &Path, kind: FileKind, role: Role, text: String, in_scope: bool) -> usize {
        let analysis = analysis::analyze(&kind, &text);
        let index = LineIndex::new(&text);
        self.upsert_analyzed(path, kind, role, text, (analysis, index), in_scope)
    }

    /// [`Workspace::upsert`] with the analysis and line index already computed.
    fn upsert_analyzed(
        &mut self,
        path: &Path,
        kind: FileKind,
        role: Role,
        text: String,
        (analysis, index): (FileAnalysis, LineIndex),
        in_scope: bool,
    ) -> usize {
        let file = File {
            path: path.to_path_buf(),
            kind,
            role,
            text,
            index,
            analysis,
            in_scope,
            live: true,
            resolved: None,
            stamp: 0,
            names: 0,
            shape: 0,
            content: 0,
            names_key: 0,
        };
        let id = match self.by_path.get(&key(path)) {
            Some(&id) => {
                let old = &self.files[id];
                let was_in_scope = old.in_scope && old.live;
                let kept = (old.stamp, old.names, old.shape, old.content, old.names_key);
                self.files[id] = file;
                let f = &mut self.files[id];
                f.in_scope |= was_in_scope;
                (f.stamp, f.names, f.shape, f.content, f.names_key) = kept;
                id
            }
            None => {
                self.files.push(file);
                let id = self.files.len() - 1;
                self.by_path.insert(key(path), id);
                id
            }
        };
        if matches!(self.files[id].kind, FileKind::ProjectFile) && !self.project_files.contains(&id) {
            self.project_files.push(id);
        }
        self.substitute(id);
        self.check_links(id);
        self.check_manifest(id);
        // A config with substitutions, a plugin manifest, may read other files: always a new
        // stamp.
        let force = self.files[id].resolved.is_some() || matches!(self.files[id].kind, FileKind::Manifest(_));
        self.restamp(id, force);
        if let Role::Zuno { dir, layer } = &self.files[id].role
            && !layer.is_global()
        {
            let dir = dir.clone();
            self.load_zuno_skills(&dir);
        }
        id
    }

    /// Read the `{file:...}` references of every config again, and check the paths of every
    /// plugin manifest again (a referenced file was created, changed or deleted); returns the
    /// files that have any.
    pub fn refresh_file_references(&mut self) -> Vec<usize> {
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && (f.kind.is_config() && f.text.contains("{file:") || matches!(f.kind, FileKind::Manifest(_)))
            })
            .collect();
        for &id in &ids {
            let f = &mut self.files[id];
            f.analysis = analysis::analyze(&f.kind, &f.text);
            self.substitute(id);
            self.check_manifest(id);
            self.restamp(id, true);
        }
        ids
    }

    /// opencode's `{env:...}` and `{file:...}` substitutions in a config file: the values are
    /// read here (the environment, the referenced files) and applied to a copy of the analysis;
    /// a reference to a missing file is a `bad-file-reference` error on the reference.
    fn substitute(&mut self, id: usize) {
        use crate::analysis::opencode::substitute::{self, Kind};
        let f = &self.files[id];
        if !f.kind.is_config() {
            return;
        }
        let refs = substitute::references(&f.text);
        if refs.is_empty() {
            self.files[id].resolved = None;
            return;
        }
        let dir = f.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let home = self.options.home.clone();
        let mut values: HashMap<String, String> = HashMap::new();
        let mut problems = Vec::new();
        for r in &refs {
            let text = r.text(&f.text).to_string();
            match r.kind {
                Kind::Env => {
                    values.insert(text, std::env::var(&r.arg).unwrap_or_default());
                }
                Kind::File => {
                    let target = match (r.arg.strip_prefix("~/"), &home) {
                        (Some(rest), Some(h)) => h.join(rest),
                        // Without the user's home (`--no-global`) a `~/` path cannot be known.
                        (Some(_), None) => continue,
                        _ if Path::new(&r.arg).is_absolute() => PathBuf::from(&r.arg),
                        _ => dir.join(&r.arg),
                    };
                    let target = normalize(&target);
                    match read_text(&target) {
                        Ok((content, _)) => {
                            values.insert(text, content.trim().to_string());
                        }
                        Err(why) => {
                            let missing = !target.exists();
                            problems.push(Diagnostic::new(
                                Code::BadFileReference,
                                r.span,
                                if missing {
                                    format!(
                                        "`{}` does not exist; opencode refuses to start (`bad file reference`)",
                                        target.display()
                                    )
                                } else {
                                    format!(
                                        "`{}` cannot be read ({why}); opencode refuses to start (`bad file reference`)",
                                        target.display()
                                    )
                                },
                            ));
                        }
                    }
                }
            }
        }
        let f = &mut self.files[id];
        f.resolved = substitute::apply(&f.analysis, &|t: &str| values.get(t).cloned());
        f.analysis.diagnostics.extend(problems);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
    }

    /// Replace the text of a loaded file (an editor keystroke) and analyse it again; no path
    /// lookup, no file-system call.
    pub fn set_text(&mut self, id: usize, text: String) {
        let f = &mut self.files[id];
        f.analysis = analysis::analyze(&f.kind, &text);
        f.index = LineIndex::new(&text);
        f.text = text;
        f.live = true;
        f.in_scope = true;
        self.substitute(id);
        self.check_links(id);
        self.check_manifest(id);
        let force = self.files[id].resolved.is_some() || matches!(self.files[id].kind, FileKind::Manifest(_));
        self.restamp(id, force);
    }

    /// The relative links of a `SKILL.md` to files that do not exist (`broken-link`), in its own
    /// diagnostics: the analysis found the links, the file system decides. Run when the file is
    /// analysed and again by [`Workspace::refresh_skill_links`] when files appear or vanish.
    /// Returns whether the file's broken links changed.
    fn check_links(&mut self, id: usize) -> bool {
        use crate::analysis::diagnostic::{Effect, Severity};
        let f = &self.files[id];
        let Some(decl) = f.analysis.skill.as_ref() else {
            return false;
        };
        let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::BrokenLink);
        if decl.links.is_empty() && !had {
            return false;
        }
        let Some(folder) = f.path.parent() else { return false };
        let mut found = Vec::new();
        for link in &decl.links {
            let target = normalize(&folder.join(&link.path));
            if target.exists() {
                continue;
            }
            found.push(
                Diagnostic::new(
                    Code::BrokenLink,
                    link.span,
                    format!(
                        "`{}` does not exist (links resolve from the skill's folder): a model that follows this link finds no file",
                        link.path
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::FailsWhenUsed),
            );
        }
        let f = &mut self.files[id];
        let old: Vec<&Diagnostic> = f
            .analysis
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::BrokenLink)
            .collect();
        let same = old.len() == found.len()
            && old
                .iter()
                .zip(&found)
                .all(|(a, b)| a.span == b.span && a.message == b.message);
        if same {
            return false;
        }
        f.analysis.diagnostics.retain(|d| d.code != Code::BrokenLink);
        f.analysis.diagnostics.extend(found);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
        true
    }

    /// Check the links of every `SKILL.md` again (files were created or deleted); returns the
    /// skills whose broken links changed.
    pub fn refresh_skill_links(&mut self) -> Vec<usize> {
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && f.analysis.skill.as_ref().is_some_and(|s| !s.links.is_empty())
            })
            .collect();
        ids.into_iter().filter(|&id| self.check_links(id)).collect()
    }

    /// Remove a file (deleted on disk). Its id is not reused.
    pub fn remove(&mut self, path: &Path) -> Option<usize> {
        let id = self.id(path)?;
        let f = &mut self.files[id];
        f.live = false;
        f.text = String::new();
        f.analysis = FileAnalysis::default();
        f.resolved = None;
        f.index = LineIndex::new("");
        self.restamp(id, false);
        Some(id)
    }

    /// Read a file from disk and add it; read problems land in `errors`.
    pub fn read_and_add(&mut self, path: &Path, kind: FileKind, role: Role, in_scope: bool) -> Option<usize> {
        if let Some(id) = self.id(path) {
            if in_scope {
                self.set_in_scope(id, true);
            }
            return Some(id);
        }
        if self.errors.iter().any(|(p, _)| p == path || key(p) == key(path)) {
            return None;
        }
        let (text, problem) = match read_text(path) {
            Ok(r) => r,
            Err(why) => return Some(self.add_unread(path, kind, role, in_scope, &why)),
        };
        let id = self.upsert(path, kind, role, text, in_scope);
        if let Some(problem) = problem {
            self.files[id].analysis.diagnostics.insert(0, problem);
        }
        Some(id)
    }

    /// Add a file that could not be analysed (too large, binary, unreadable): it is in the
    /// workspace with no text and one `unchecked-file` diagnostic, so that every report and the
    /// editor account for it.
    pub fn add_unread(&mut self, path: &Path, kind: FileKind, role: Role, in_scope: bool, why: &Unread) -> usize {
        let analysis = FileAnalysis {
            diagnostics: vec![unchecked_file(&kind, why)],
            ..FileAnalysis::default()
        };
        self.upsert_analyzed(
            path,
            kind,
            role,
            String::new(),
            (analysis, LineIndex::new("")),
            in_scope,
        )
    }

    /// The reason a loaded file was not analysed, if it was not.
    pub fn unread(&self, id: usize) -> Option<&Diagnostic> {
        let f = &self.files[id];
        f.text
            .is_empty()
            .then(|| f.analysis.diagnostics.iter().find(|d| d.code == Code::UncheckedFile))
            .flatten()
    }

    /// What a path is to opencode, given the roots and user directories of this workspace:
    /// `None` for a file opencode does not read.
    pub fn role_of(&self, path: &Path) -> Option<(FileKind, Role)> {
        let name = path.file_name()?.to_string_lossy();
        let parent = path.parent()?;
        if let Some(g) = &self.options.global_dir
            && parent == g
            && ["config.json", "opencode.json", "opencode.jsonc"].contains(&name.as_ref())
        {
            let order = match name.as_ref() {
                "config.json" => 0,
                "opencode.json" => 1,
                _ => 2,
            };
            return Some((OcKind::Config.into(), Role::UserConfig(order)));
        }
        if self.options.config_file.as_deref() == Some(path) {
            return Some((OcKind::Config.into(), Role::UserConfig(3)));
        }
        if crate::analysis::project_file::NAMES.contains(&name.as_ref()) {
            return Some((
                FileKind::ProjectFile,
                Role::ProjectFile {
                    dir: parent.to_path_buf(),
                },
            ));
        }
        if discover::CONFIG_NAMES.contains(&name.as_ref()) {
            let in_config_dir = is_dot_opencode(parent)
                || self.options.home_dot_opencode.as_deref() == Some(parent)
                || self.options.config_dir.as_deref() == Some(parent);
            let role = if in_config_dir {
                Role::DirConfig {
                    dir: parent.to_path_buf(),
                }
            } else {
                Role::ProjectConfig {
                    dir: parent.to_path_buf(),
                }
            };
            return Some((OcKind::Config.into(), role));
        }
        if let Some(role) = plugin_role(path) {
            return role;
        }
        if let Some((kind, dir)) = discover::claude_kind(path, self.options.home.as_deref()) {
            return Some((kind.into(), Role::Claude { dir }));
        }
        if let Some((kind, dir, layer)) = discover::zuno_kind(path, self.options.zuno_global.as_deref()) {
            return Some((kind.into(), Role::Zuno { dir, layer }));
        }
        if let Some((kind, dir)) = discover::skill_kind(path) {
            return Some((FileKind::Skill(kind), Role::Skill { dir }));
        }
        if let Some((kind, dir)) = discover::command_kind(path) {
            return Some((FileKind::Command(kind), Role::Command { dir }));
        }
        if path.extension().is_none_or(|e| e != "md") {
            return None;
        }
        // A command of a config directory other than `.opencode/` (the global one, `~/.opencode`,
        // `$OPENCODE_CONFIG_DIR`, a directory laid out like them): `{command,commands}/**/*.md`.
        for anc in path.ancestors().skip(1) {
            let Some(comp) = anc.file_name().map(|c| c.to_string_lossy()) else {
                break;
            };
            if !matches!(comp.as_ref(), "command" | "commands") {
                continue;
            }
            let dir = anc.parent()?;
            if !is_dot_opencode(dir) && self.is_config_dir(dir) {
                let rel = path.strip_prefix(anc).ok()?.to_string_lossy().replace('\\', "/");
                let name = rel.strip_suffix(".md").unwrap_or(&rel).to_string();
                let kind = crate::analysis::command::CommandKind {
                    plugin: false,
                    runtime: crate::analysis::Dialect::OpenCode,
                    name,
                };
                return Some((FileKind::Command(kind), Role::Command { dir: dir.to_path_buf() }));
            }
            break;
        }
        // The config directory is the parent of the nearest `agent(s)/` or `mode(s)/` folder.
        let mut rel = Vec::new();
        for anc in path.ancestors().skip(1) {
            let comp = anc.file_name()?.to_string_lossy().into_owned();
            let is_agents = matches!(comp.as_str(), "agent" | "agents");
            let is_modes = matches!(comp.as_str(), "mode" | "modes");
            if is_agents || (is_modes && rel.is_empty()) {
                let dir = anc.parent()?;
                if !self.is_config_dir(dir) {
                    rel.push(comp);
                    continue;
                }
                let relative = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
                let name = opencode::agent_name_from_relative_path(&relative);
                let kind = if is_agents {
                    OcKind::Agent { name }
                } else {
                    OcKind::Mode { name }
                };
                return Some((kind.into(), Role::Markdown { dir: dir.to_path_buf() }));
            }
            rel.push(comp);
        }
        None
    }

    fn is_config_dir(&self, dir: &Path) -> bool {
        self.dir_kind(dir) != DirKind::Layout
            || discover::CONFIG_NAMES
                .iter()
                .any(|n| dir.join(n).is_file() || self.id(&dir.join(n)).is_some())
    }

    fn dir_kind(&self, dir: &Path) -> DirKind {
        if self.options.global_dir.as_deref() == Some(dir) {
            DirKind::Global
        } else if self.options.home_dot_opencode.as_deref() == Some(dir) {
            DirKind::HomeDot
        } else if self.options.config_dir.as_deref() == Some(dir) {
            DirKind::EnvDir
        } else if is_dot_opencode(dir) {
            DirKind::DotOpencode
        } else {
            DirKind::Layout
        }
    }

    fn in_roots(&self, path: &Path) -> bool {
        self.roots.iter().any(|r| path.starts_with(r))
    }

    fn load_user_layers(&mut self) {
        self.load_user_skills();
        // Claude Code user agents (`~/.claude/agents/`): read for resolution, not reported on.
        if let Some(home) = self.options.home.clone() {
            for p in discover::claude_agents(&home.join(".claude").join("agents")) {
                if let Some((kind, role)) = self.role_of(&p) {
                    self.read_and_add(&p, kind, role, false);
                }
            }
        }
        // Zuno's global directory: its config and Markdown agents, read for resolution.
        if let Some(dir) = self.options.zuno_global.clone() {
            let mut found: Vec<PathBuf> = discover::ZUNO_CONFIG_NAMES.iter().map(|n| dir.join(n)).collect();
            for sub in ["agent", "agents", "mode", "modes"] {
                found.extend(discover::claude_agents(&dir.join(sub)));
            }
            for p in found.into_iter().filter(|p| p.is_file()) {
                if let Some((kind, role)) = self.role_of(&p) {
                    let in_scope = self.in_roots(&p);
                    self.read_and_add(&p, kind, role, in_scope);
                }
            }
        }
        let o = self.options.clone();
        let mut user_files: Vec<PathBuf> = Vec::new();
        if let Some(dir) = &o.global_dir {
            user_files.extend(
                ["config.json", "opencode.json", "opencode.jsonc"]
                    .iter()
                    .map(|n| dir.join(n)),
            );
        }
        user_files.extend(o.config_file.clone());
        for dir in [&o.home_dot_opencode, &o.config_dir].into_iter().flatten() {
            user_files.extend(discover::CONFIG_NAMES.iter().map(|n| dir.join(n)));
        }
        for f in user_files {
            if f.is_file()
                && let Some((kind, role)) = self.role_of(&f)
            {
                let in_scope = self.in_roots(&f);
                self.read_and_add(&f, kind, role, in_scope);
            }
        }
        for dir in [&o.global_dir, &o.home_dot_opencode, &o.config_dir]
            .into_iter()
            .flatten()
        {
            self.load_markdown_of(dir);
        }
    }

    /// Load the Markdown agents of `dir` if it is laid out as a config directory; returns the
    /// ids added or refreshed.
    pub fn load_config_dir_agents(&mut self, dir: &Path) -> Vec<usize> {
        let has_agents = ["agent", "agents", "mode", "modes"]
            .iter()
            .any(|s| dir.join(s).is_dir());
        if !has_agents {
            return Vec::new();
        }
        let in_scope = self.in_roots(dir);
        let mut ids = Vec::new();
        for (p, kind) in discover::markdown_agents(dir) {
            ids.extend(self.read_and_add(&p, kind.into(), Role::Markdown { dir: dir.to_path_buf() }, in_scope));
        }
        ids
    }

    /// Load (or re-read) what the Claude Code plugin at `root` contributes, as its manifest on
    /// disk says; files of it already loaded whose kind changed (the plugin was renamed, a
    /// custom path added or dropped) are re-analysed, and those it no longer contributes
    /// removed. Returns the ids added or changed.
    pub fn load_plugin(&mut self, root: &Path) -> Vec<usize> {
        let mut touched = Vec::new();
        let Some(plugin) = discover::Plugin::at(root) else {
            return touched;
        };
        let members = discover::plugin_files(&plugin);
        // Files of the plugin already loaded: their kind as the manifest now says.
        let loaded: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live
                    && f.path.starts_with(root)
                    && matches!(
                        f.role,
                        Role::Claude { ref dir } | Role::Command { ref dir } | Role::Skill { ref dir } if dir == root
                    )
            })
            .collect();
        for id in loaded {
            let path = self.files[id].path.clone();
            match self.role_of(&path) {
                Some((kind, role)) if kind != self.files[id].kind || role != self.files[id].role => {
                    let text = std::mem::take(&mut self.files[id].text);
                    let in_scope = self.files[id].in_scope;
                    touched.push(self.upsert(&path, kind, role, text, in_scope));
                }
                Some(_) => {}
                None => touched.extend(self.remove(&path)),
            }
        }
        let items: Vec<(PathBuf, FileKind, Role, bool)> = members
            .into_iter()
            .filter(|(p, _)| self.id(p).is_none())
            .map(|(p, member)| {
                let in_scope = self.in_roots(&p);
                let dir = plugin.root.clone();
                let (kind, role) = match member {
                    discover::Member::Agent(k) => (k.into(), Role::Claude { dir }),
                    discover::Member::Command(k) => (FileKind::Command(k), Role::Command { dir }),
                    discover::Member::Skill(k) => (FileKind::Skill(k), Role::Skill { dir }),
                };
                (p, kind, role, in_scope)
            })
            .collect();
        let paths: Vec<PathBuf> = items.iter().map(|(p, ..)| p.clone()).collect();
        self.read_and_add_all(items);
        touched.extend(paths.iter().filter_map(|p| self.id(p)));
        touched
    }

    /// The checks of a plugin manifest that read the disk: every component path it declares
    /// exists (and is what its field wants); a custom `agents` or `commands` leaves the
    /// default folder's files out; a marketplace's local plugin sources exist.
    fn check_manifest(&mut self, id: usize) {
        use crate::analysis::claude::plugin::{Manifest, Want};
        use crate::analysis::{Effect, Severity};
        let f = &self.files[id];
        let (FileKind::Manifest(kind), Some(m), Some(root)) =
            (&f.kind, &f.analysis.manifest, f.path.parent().and_then(Path::parent))
        else {
            return;
        };
        let error = |span: Span, message: String, effect: Effect| {
            Diagnostic::new(Code::InvalidValue, span, message)
                .with_severity(Severity::Error)
                .with_effect(effect)
        };
        let mut out = Vec::new();
        match kind {
            Manifest::Plugin => {
                for p in &m.paths {
                    let target = root.join(p.path.trim_start_matches("./"));
                    let problem = match fs::metadata(&target) {
                        Err(_) => Some(format!(
                            "`{}` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it",
                            p.path
                        )),
                        Ok(meta) if p.want == Want::Dir && !meta.is_dir() => Some(format!(
                            "`{}` is a file: `{}` lists folders that hold `SKILL.md` (here `./{}`); Claude Code skips it",
                            p.path,
                            p.field,
                            Path::new(p.path.trim_start_matches("./"))
                                .parent()
                                .map(|d| d.to_string_lossy().into_owned())
                                .unwrap_or_default()
                        )),
                        Ok(meta) if p.want == Want::File && meta.is_dir() => Some(format!(
                            "`{}` is a folder: `{}` lists files; Claude Code skips it",
                            p.path, p.field
                        )),
                        Ok(_) => None,
                    };
                    if let Some(message) = problem {
                        out.push(error(p.span, message, Effect::ValueIgnored));
                    }
                }
                // `agents` and `commands` replace their default folder.
                let root_map = f.analysis.parsed.root.as_ref().and_then(|r| r.as_map());
                for (field, set) in [
                    ("agents", m.layout.agents.is_some()),
                    ("commands", m.layout.commands.is_some()),
                ] {
                    let Some(entry) = root_map.and_then(|r| r.get(field)).filter(|_| set) else {
                        continue;
                    };
                    // As the text says (an editor's buffer may differ from the disk).
                    let plugin = discover::Plugin {
                        root: root.to_path_buf(),
                        name: m.name.clone().unwrap_or_default(),
                        layout: m.layout.clone(),
                    };
                    let listed: std::collections::HashSet<PathBuf> =
                        discover::plugin_files(&plugin).into_iter().map(|(p, _)| p).collect();
                    // What the default folder would give without the field.
                    let mut default = plugin.clone();
                    if field == "agents" {
                        default.layout.agents = None;
                    } else {
                        default.layout.commands = None;
                    }
                    let folder = root.join(field);
                    let mut left_out: Vec<PathBuf> = discover::plugin_files(&default)
                        .into_iter()
                        .map(|(p, _)| p)
                        .filter(|p| p.starts_with(&folder) && !listed.contains(p))
                        .collect();
                    if left_out.is_empty() {
                        continue;
                    }
                    left_out.sort();
                    let first = left_out[0]
                        .strip_prefix(root)
                        .map(|r| r.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            entry.key.span,
                            format!(
                                "setting `{field}` replaces the plugin's `{field}/` folder: Claude Code does not load the {} file{} there that `{field}` leaves out (`{first}`{})",
                                left_out.len(),
                                if left_out.len() == 1 { "" } else { "s" },
                                if left_out.len() > 1 { ", ..." } else { "" }
                            ),
                        )
                        .with_severity(Severity::Warning)
                        // Not `file-ignored`: on a manifest, that effect means the plugin does
                        // not load.
                        .with_effect(Effect::ValueIgnored),
                    );
                }
            }
            Manifest::Marketplace => {
                for (name, source) in &m.entries {
                    let Some((p, span)) = source else { continue };
                    if !root.join(p).is_dir() {
                        out.push(error(
                            *span,
                            format!(
                                "`{p}` is no folder of this marketplace: Claude Code cannot install `{name}` (\"Source path does not exist\"); `claude plugin validate` does not check it"
                            ),
                            Effect::FailsWhenUsed,
                        ));
                    }
                }
            }
        }
        if out.is_empty() {
            return;
        }
        let f = &mut self.files[id];
        f.analysis.diagnostics.extend(out);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
    }

    fn load_markdown_of(&mut self, dir: &Path) {
        let in_scope = self.in_roots(dir);
        let items = discover::markdown_agents(dir)
            .into_iter()
            .map(|(p, kind)| (p, kind.into(), Role::Markdown { dir: dir.to_path_buf() }, in_scope))
            .collect();
        self.read_and_add_all(items);
    }

    /// [`Workspace::read_and_add`] for many files: those not loaded yet are read and analysed
    /// on every core, then added in the order given.
    fn read_and_add_all(&mut self, items: Vec<(PathBuf, FileKind, Role, bool)>) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
        let (fresh, known): (Vec<_>, Vec<_>) = items
            .into_iter()
            .partition(|(p, ..)| self.id(p).is_none() && !self.errors.iter().any(|(e, _)| e == p));
        for (p, kind, role, in_scope) in known {
            self.read_and_add(&p, kind, role, in_scope);
        }
        if threads < 2 || fresh.len() < 32 {
            for (p, kind, role, in_scope) in fresh {
                self.read_and_add(&p, kind, role, in_scope);
            }
            return;
        }
        type Read = Result<(String, Option<Diagnostic>, FileAnalysis, LineIndex), Unread>;
        let work = |(p, kind, ..): &(PathBuf, FileKind, Role, bool)| -> Read {
            let (text, problem) = read_text(p)?;
            let analysis = analysis::analyze(kind, &text);
            let index = LineIndex::new(&text);
            Ok((text, problem, analysis, index))
        };
        let chunk = fresh.len().div_ceil(threads);
        let results: Vec<Read> = std::thread::scope(|scope| {
            let handles: Vec<_> = fresh
                .chunks(chunk)
                .map(|part| scope.spawn(move || part.iter().map(work).collect::<Vec<Read>>()))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        for ((p, kind, role, in_scope), result) in fresh.into_iter().zip(results) {
            match result {
                Ok((text, problem, analysis, index)) => {
                    let id = self.upsert_analyzed(&p, kind, role, text, (analysis, index), in_scope);
                    if let Some(problem) = problem {
                        self.files[id].analysis.diagnostics.insert(0, problem);
                    }
                }
                Err(why) => {
                    self.add_unread(&p, kind, role, in_scope, &why);
                }
            }
        }
    }

    fn load_root(&mut self, root: &Path) {
        let found = discover::walk(root);
        self.errors.extend(found.unreadable.iter().cloned());
        for c in &found.configs {
            if let Some((kind, role)) = self.role_of(c) {
                self.read_and_add(c, kind, role, true);
            }
        }
        // Claude Code plugins: everything each one contributes, custom paths included.
        for c in &found.configs {
            if crate::analysis::claude::plugin::Manifest::of_path(c)
                == Some(crate::analysis::claude::plugin::Manifest::Plugin)
                && let Some(plugin_root) = c.parent().and_then(Path::parent)
            {
                self.load_plugin(plugin_root);
            }
        }
        for d in &found.config_dirs {
            self.load_markdown_of(d);
        }
        // Markdown agents whose config directory lies above the root (the root is a config
        // directory or a folder inside one).
        for md in &found.markdown {
            if self.id(md).is_none()
                && let Some((kind, role)) = self.role_of(md)
            {
                self.read_and_add(md, kind, role, true);
            }
        }
    }

    /// Read, without reporting on them, the layers opencode would load when started in
    /// `project`: configs and `.opencode/` of it and its ancestors up to the worktree top (the
    /// first directory holding `.git`, else the file-system root).
    fn load_context(&mut self, project: &Path) {
        let project = fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
        let mut top = project.clone();
        for anc in project.ancestors().take(64) {
            for name in discover::CONFIG_NAMES {
                let f = anc.join(name);
                if f.is_file()
                    && let Some((kind, role)) = self.role_of(&f)
                {
                    self.read_and_add(&f, kind, role, false);
                }
            }
            let dot = anc.join(".opencode");
            if dot.is_dir() {
                for name in discover::CONFIG_NAMES {
                    let f = dot.join(name);
                    if f.is_file() {
                        self.read_and_add(&f, OcKind::Config.into(), Role::DirConfig { dir: dot.clone() }, false);
                    }
                }
                self.load_markdown_of(&dot);
            }
            // agent-lsp's own project file: it governs what is reported under it.
            for name in crate::analysis::project_file::NAMES {
                let f = anc.join(name);
                if self.id(&f).is_none() && f.is_file() {
                    self.read_and_add(
                        &f,
                        FileKind::ProjectFile,
                        Role::ProjectFile { dir: anc.to_path_buf() },
                        false,
                    );
                }
            }
            // Zuno reads `zuno.json(c)` and `.zuno/` of each ancestor too.
            let dot_zuno = anc.join(".zuno");
            let mut zuno_files: Vec<PathBuf> = discover::ZUNO_CONFIG_NAMES.iter().map(|n| anc.join(n)).collect();
            zuno_files.extend(discover::ZUNO_CONFIG_NAMES.iter().map(|n| dot_zuno.join(n)));
            if dot_zuno.is_dir() {
                for sub in ["agent", "agents", "mode", "modes"] {
                    zuno_files.extend(discover::claude_agents(&dot_zuno.join(sub)));
                }
            }
            for f in zuno_files.into_iter().filter(|f| f.is_file()) {
                if let Some((kind, role)) = self.role_of(&f) {
                    self.read_and_add(&f, kind, role, false);
                }
            }
            // Claude Code walks up from where it starts too: `.claude/agents/` of each ancestor.
            let claude = anc.join(".claude").join("agents");
            if claude.is_dir() {
                for f in discover::claude_agents(&claude) {
                    if let Some((kind, role)) = self.role_of(&f) {
                        self.read_and_add(&f, kind, role, false);
                    }
                }
            }
            top = anc.to_path_buf();
            if anc.join(".git").exists() {
                break;
            }
        }
        if !self.context_roots.contains(&top) {
            self.context_roots.push(top);
        }
    }

    /// The views: for each project directory, the live files opencode would load when started
    /// there, in precedence order (later wins). Derived from paths and roles only.
    pub fn views(&self) -> Vec<Vec<usize>> {
        self.project_views().into_iter().map(|(_, v)| v).collect()
    }

    /// The views with the project directory each belongs to (those with a file in scope).
    pub fn project_views(&self) -> Vec<(PathBuf, Vec<usize>)> {
        self.all_project_views(false)
    }

    /// Every project directory's view; `all` keeps those without a file in scope too (a start
    /// directory that only sees user-level agents).
    fn all_project_views(&self, all: bool) -> Vec<(PathBuf, Vec<usize>)> {
        let live: Vec<usize> = (0..self.files.len()).filter(|&i| self.files[i].live).collect();
        let sorted = |mut ids: Vec<usize>| {
            // Within a directory: `.json` before `.jsonc`; agents before modes, then by path.
            ids.sort_by_key(|&i| {
                let f = &self.files[i];
                (
                    matches!(f.kind, FileKind::OpenCode(OcKind::Mode { .. })),
                    f.path.extension().is_some_and(|e| e == "jsonc"),
                    f.path.clone(),
                )
            });
            ids
        };
        let select = |pred: &dyn Fn(&Role) -> bool| {
            sorted(live.iter().copied().filter(|&i| pred(&self.files[i].role)).collect())
        };
        let mut user: Vec<usize> = live
            .iter()
            .copied()
            .filter(|&i| matches!(self.files[i].role, Role::UserConfig(_)))
            .collect();
        user.sort_by_key(|&i| match self.files[i].role {
            Role::UserConfig(o) => o,
            _ => 0,
        });
        // Project directories.
        let mut projects: Vec<PathBuf> = self.roots.clone();
        for &i in &live {
            match &self.files[i].role {
                Role::ProjectConfig { dir } => projects.push(dir.clone()),
                Role::DirConfig { dir } | Role::Markdown { dir } => match self.dir_kind(dir) {
                    DirKind::DotOpencode => projects.extend(dir.parent().map(Path::to_path_buf)),
                    DirKind::Layout => projects.push(dir.clone()),
                    _ => {}
                },
                Role::UserConfig(_)
                | Role::Claude { .. }
                | Role::Zuno { .. }
                | Role::Skill { .. }
                | Role::Command { .. }
                | Role::ProjectFile { .. }
                | Role::Manifest { .. }
                | Role::NotRead => {}
            }
        }
        projects.sort();
        projects.dedup();
        let user_dir = |kind: DirKind| {
            select(&|r: &Role| match r {
                Role::DirConfig { dir } | Role::Markdown { dir } => self.dir_kind(dir) == kind,
                _ => false,
            })
        };
        let global_md = user_dir(DirKind::Global);
        let home_dot = user_dir(DirKind::HomeDot);
        let env_dir = user_dir(DirKind::EnvDir);
        let mut views = Vec::new();
        for p in &projects {
            // The chain of directories runs from the farthest root or worktree top above `p`.
            let root = self
                .roots
                .iter()
                .chain(&self.context_roots)
                .filter(|r| p.starts_with(r))
                .min_by_key(|r| r.as_os_str().len());
            let mut chain: Vec<&Path> = match root {
                Some(r) => p.ancestors().take_while(|a| a.starts_with(r)).collect(),
                None => vec![p.as_path()],
            };
            chain.reverse(); // farthest first
            let mut view = user.clone();
            for d in &chain {
                view.extend(select(&|r: &Role| matches!(r, Role::ProjectConfig { dir } if dir == d)));
            }
            view.extend(global_md.iter().copied());
            for d in &chain {
                if self.dir_kind(d) == DirKind::Layout {
                    view.extend(select(&|r: &Role| matches!(r, Role::Markdown { dir } if dir == d)));
                }
            }
            for d in chain.iter().rev() {
                let dot = d.join(".opencode");
                view.extend(select(&|r: &Role| matches!(r, Role::DirConfig { dir } if *dir == dot)));
                view.extend(select(&|r: &Role| matches!(r, Role::Markdown { dir } if *dir == dot)));
            }
            // opencode's command files of those `.opencode/` folders: read at start (a schema
            // error there refuses the configuration).
            for d in &chain {
                view.extend(live.iter().copied().filter(|&i| {
                    let f = &self.files[i];
                    matches!(&f.role, Role::Command { dir } if dir == d)
                        && matches!(&f.kind, FileKind::Command(k) if k.runtime == crate::analysis::Dialect::OpenCode)
                }));
            }
            view.extend(home_dot.iter().copied());
            view.extend(env_dir.iter().copied());
            let mut seen = std::collections::HashSet::new();
            view.retain(|i| seen.insert(*i));
            if all || view.iter().any(|&i| self.files[i].in_scope) {
                views.push((p.clone(), view));
            }
        }
        views
    }

    /// The files opencode loads when started in `dir` (the view of the nearest project at or
    /// above it); only user-level files when there is none.
    pub fn view_for(&self, dir: &Path) -> Vec<usize> {
        let dir = key(dir);
        let views = self.all_project_views(true);
        views
            .iter()
            .filter(|(p, _)| dir.starts_with(key(p)))
            .max_by_key(|(p, _)| p.as_os_str().len())
            .or_else(|| views.first())
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// The view in which to show a file's agents: the one of the project the file belongs to
    /// (a nested project's view also contains its ancestors' files, but is not theirs).
    pub fn view_of_file(&self, id: usize) -> Vec<usize> {
        let own = self.project_dir_of_file(id);
        let views = self.project_views();
        let containing = || views.iter().filter(|(_, v)| v.contains(&id));
        own.and_then(|own| containing().find(|(p, _)| *p == own))
            .or_else(|| containing().min_by_key(|(p, _)| p.as_os_str().len()))
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| vec![id])
    }

    /// The view as the core takes it.
    pub fn view_files(&self, view: &[usize]) -> Vec<project::ViewFile<'_>> {
        let groups = self.groups();
        view.iter()
            .map(|&id| project::ViewFile {
                file: id,
                analysis: self.files[id].effective_analysis(),
                group: groups[id],
            })
            .collect()
    }

    /// What the effective-agent model needs from the environment when opencode is started in
    /// `start`: opencode's data and temporary directories, the home directory, the worktree
    /// (the nearest directory holding `.git`, `/` outside git) and the skill directories, found
    /// as opencode finds them (spec §12.1; `skills.paths` and `skills.urls` are not read).
    pub fn effective_env(&self, start: &Path) -> crate::analysis::opencode::effective::Env {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let home = env("HOME");
        let data_dir = env("XDG_DATA_HOME")
            .map(|x| format!("{x}/opencode"))
            .or_else(|| home.as_ref().map(|h| format!("{h}/.local/share/opencode")))
            .unwrap_or_else(|| "~/.local/share/opencode".into());
        let tmp = std::env::temp_dir();
        let tmp = tmp.to_string_lossy();
        let tmp_dir = format!("{}/opencode", tmp.trim_end_matches('/'));
        let start = fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
        let worktree = start
            .ancestors()
            .find(|a| a.join(".git").exists())
            .unwrap_or(Path::new("/"))
            .to_path_buf();
        let skill_dirs = self.skill_dirs(&start, &worktree);
        crate::analysis::opencode::effective::Env {
            data_dir,
            home,
            tmp_dir,
            worktree: Some(worktree.to_string_lossy().into_owned()),
            skill_dirs,
        }
    }

    /// The directory of every `SKILL.md` opencode 1.18 finds when started in `start`, in its
    /// order: `~/.claude/skills` and `~/.agents/skills`, the `.claude/skills` and
    /// `.agents/skills` of each directory from `start` up to the worktree, then the
    /// `{skill,skills}/` folders of the config directories.
    fn skill_dirs(&self, start: &Path, worktree: &Path) -> Vec<String> {
        let mut files: Vec<PathBuf> = Vec::new();
        let external = external_skill_folders();
        if let Some(home) = &self.options.home {
            for e in &external {
                files.extend(discover::skill_files(&home.join(e), &["skills"], true));
            }
        }
        for dir in start.ancestors() {
            for e in &external {
                files.extend(discover::skill_files(&dir.join(e), &["skills"], true));
            }
            if dir == worktree {
                break;
            }
        }
        let mut config_dirs: Vec<PathBuf> = Vec::new();
        config_dirs.extend(self.options.global_dir.clone());
        for dir in start.ancestors() {
            config_dirs.push(dir.join(".opencode"));
            if dir == worktree {
                break;
            }
        }
        config_dirs.extend(self.options.home_dot_opencode.clone());
        config_dirs.extend(self.options.config_dir.clone());
        let mut seen = std::collections::HashSet::new();
        for d in config_dirs.into_iter().filter(|d| seen.insert(d.clone())) {
            files.extend(discover::skill_files(&d, &["skill", "skills"], false));
        }
        let mut dirs: Vec<String> = Vec::new();
        for f in files {
            if let Some(parent) = f.parent() {
                let d = parent.to_string_lossy().into_owned();
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
        dirs
    }

    /// The project directory a file belongs to (where opencode would be started to load it).
    pub fn project_dir_of_file(&self, id: usize) -> Option<PathBuf> {
        match &self.files[id].role {
            Role::ProjectConfig { dir } => Some(dir.clone()),
            Role::DirConfig { dir } | Role::Markdown { dir } if is_dot_opencode(dir) => {
                dir.parent().map(Path::to_path_buf)
            }
            Role::DirConfig { dir } | Role::Markdown { dir } => Some(dir.clone()),
            Role::UserConfig(_)
            | Role::Claude { .. }
            | Role::Zuno { .. }
            | Role::Skill { .. }
            | Role::Command { .. }
            | Role::ProjectFile { .. }
            | Role::Manifest { .. }
            | Role::NotRead => None,
        }
    }

    /// The environment for a file's view: started in its project, else in the first root.
    pub fn effective_env_for_file(&self, id: Option<usize>) -> crate::analysis::opencode::effective::Env {
        let start = id
            .and_then(|id| self.project_dir_of_file(id))
            .or_else(|| self.roots.first().cloned())
            .unwrap_or_else(|| PathBuf::from("/"));
        self.effective_env(&start)
    }

    /// Every diagnostic of the files in scope: each file's own, plus the cross-file ones of
    /// every unit (de-duplicated), sorted by file and position. Computed from nothing (the
    /// language server keeps them up to date with `refresh_cross` instead).
    pub fn diagnostics(&self) -> Vec<(usize, Diagnostic)> {
        let mut by_file: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate() {
            if f.in_scope && f.live && !f.analysis.diagnostics.is_empty() {
                by_file.insert(id, f.analysis.diagnostics.clone());
            }
        }
        self.merge(by_file, self.all_cross())
    }

    /// [`Workspace::diagnostics`] for a one-shot report: each file's own diagnostics are moved
    /// out of the workspace rather than copied (a file with hundreds of thousands of findings
    /// is not held twice). The workspace keeps everything else.
    pub fn take_diagnostics(&mut self) -> Vec<(usize, Diagnostic)> {
        let cross = self.all_cross();
        let mut by_file: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
        for (id, f) in self.files.iter_mut().enumerate() {
            if f.in_scope && f.live && !f.analysis.diagnostics.is_empty() {
                by_file.insert(id, std::mem::take(&mut f.analysis.diagnostics));
            }
        }
        self.merge(by_file, cross)
    }

    /// The cross-file diagnostics of every unit, computed from nothing.
    fn all_cross(&self) -> Vec<(usize, Diagnostic)> {
        self.units().iter().flat_map(|def| self.unit_diagnostics(def)).collect()
    }

    /// Add the cross-file diagnostics (de-duplicated) to the own ones; sort by file and position.
    fn merge(
        &self,
        mut by_file: HashMap<usize, Vec<Diagnostic>>,
        cross: Vec<(usize, Diagnostic)>,
    ) -> Vec<(usize, Diagnostic)> {
        let mut seen: std::collections::HashSet<(usize, u32, u32, Code, String)> = std::collections::HashSet::new();
        for (id, d) in cross {
            if seen.insert((id, d.span.start, d.span.end, d.code, d.message.clone())) {
                by_file.entry(id).or_default().push(d);
            }
        }
        // A file with suppressions may have nothing else to report: its unused ones.
        for (id, f) in self.files.iter().enumerate() {
            if f.in_scope && f.live && !f.analysis.suppressions.is_empty() {
                by_file.entry(id).or_default();
            }
        }
        let mut ids: Vec<usize> = by_file.keys().copied().collect();
        ids.sort_by(|a, b| self.files[*a].path.cmp(&self.files[*b].path));
        let mut out = Vec::new();
        for id in ids {
            let d = by_file.remove(&id).unwrap_or_default();
            let mut d = cross::suppressed(&self.files[id], d);
            self.apply_policy(id, &mut d);
            cross::sort(&mut d);
            out.extend(d.into_iter().map(|d| (id, d)));
        }
        out
    }

    /// The agent names a command of `runtime` in `dir` can name, with their modes.
    pub fn agents_for_command(&self, runtime: crate::analysis::Dialect, dir: &Path) -> Vec<(String, String)> {
        use crate::analysis::Dialect;
        match runtime {
            Dialect::OpenCode => {
                // Names and modes only: the registry, not the full effective agents.
                let view = self.view_for(dir);
                project::registry(&self.view_files(&view))
                    .agents
                    .into_iter()
                    .filter(|a| a.disabled.is_none())
                    .map(|a| (a.name, a.mode.value))
                    .collect()
            }
            Dialect::Claude => {
                let files = self.claude_files();
                claude::schema::BUILTIN_AGENTS
                    .iter()
                    .map(|(n, _)| (n.to_string(), "subagent".to_string()))
                    .chain(
                        claude::project::registry(&files, dir)
                            .into_iter()
                            .map(|(n, _)| (n, "subagent".to_string())),
                    )
                    .collect()
            }
            Dialect::Zuno => {
                let view = self.zuno_view_for(dir);
                crate::analysis::zuno::project::registry(&self.zuno_view_files(&view))
                    .into_values()
                    .filter(|a| !a.flag("disable"))
                    .map(|a| (a.name.clone(), a.mode().to_string()))
                    .collect()
            }
        }
    }

    /// A command's `agent` that names no agent of its runtime in its project.
    pub(crate) fn command_agents(&self) -> Vec<(usize, Diagnostic)> {
        use crate::analysis::diagnostic::{Effect, Severity};
        let mut out = Vec::new();
        let mut cache: HashMap<(crate::analysis::Dialect, &Path), Vec<(String, String)>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live && f.in_scope) {
            let (Role::Command { dir }, FileKind::Command(kind), Some(decl)) = (&f.role, &f.kind, &f.analysis.command)
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
            let (Role::Skill { dir }, FileKind::Skill(kind), Some(decl)) = (&f.role, &f.kind, &f.analysis.skill) else {
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
                let span = f.analysis.skill.as_ref().map(|d| d.span).unwrap_or_default();
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
                    let os = self.files[o]
                        .analysis
                        .skill
                        .as_ref()
                        .map(|d| d.span)
                        .unwrap_or_default();
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

    /// Read the names of the user-level skills opencode loads (spec §12.1), honouring
    /// `OPENCODE_DISABLE_EXTERNAL_SKILLS` and `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS`.
    fn load_user_skills(&mut self) {
        let o = &self.options;
        let mut files = Vec::new();
        if let Some(home) = &o.home {
            for e in external_skill_folders() {
                files.extend(discover::skill_files(&home.join(e), &["skills"], true));
            }
        }
        for dir in [&o.global_dir, &o.home_dot_opencode, &o.config_dir]
            .into_iter()
            .flatten()
        {
            files.extend(discover::skill_files(dir, &["skill", "skills"], false));
        }
        self.user_skills = files
            .iter()
            .filter_map(|p| read_text(p).ok())
            .filter_map(|(text, _)| skill_name(&text))
            .collect();
        // Claude Code names a personal skill by its folder, one level below `skills/`.
        if let Some(home) = &self.options.home {
            let root = home.join(".claude").join("skills");
            if let Ok(entries) = fs::read_dir(&root) {
                let mut names: Vec<String> = entries
                    .flatten()
                    .filter(|e| e.path().join("SKILL.md").is_file())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                self.user_claude_skills = names;
            }
        }
    }

    /// The skills Claude Code finds for the project in `owner`, by the name an agent's `skills`
    /// uses (the folder): the project's `.claude/skills/<name>/` and the user's; and whether
    /// the project has skills of its own.
    pub fn claude_skills(&self, owner: &Path) -> (Vec<&str>, bool) {
        let mut names: Vec<&str> = Vec::new();
        for f in self.files.iter().filter(|f| f.live) {
            if let (Role::Skill { dir }, FileKind::Skill(kind)) = (&f.role, &f.kind)
                && dir == owner
                && kind.loaders.contains(&crate::analysis::Dialect::Claude)
            {
                names.push(kind.folder.as_str());
            }
        }
        let own = !names.is_empty();
        names.extend(self.user_claude_skills.iter().map(String::as_str));
        (names, own)
    }

    /// The names of the skills opencode started in `project` loads: the user-level ones, those
    /// of the workspace's `SKILL.md` files that it reads from there (the project's and its
    /// ancestors' `.opencode/`, `.claude/` and `.agents/` skill folders); not the built-in
    /// `customize-opencode`. A name can appear twice (a duplicate skill).
    pub fn opencode_skills(&self, project: &Path) -> Vec<(String, Option<usize>)> {
        let mut out: Vec<(String, Option<usize>)> = self.user_skills.iter().map(|n| (n.clone(), None)).collect();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            let (Role::Skill { dir }, FileKind::Skill(kind), Some(decl)) = (&f.role, &f.kind, &f.analysis.skill) else {
                continue;
            };
            if kind.loaders.contains(&crate::analysis::Dialect::OpenCode)
                && project.starts_with(dir)
                && let Some(name) = &decl.name
            {
                out.push((name.clone(), Some(id)));
            }
        }
        out
    }

    /// The project directories of the Zuno files in scope.
    pub fn zuno_projects(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .files
            .iter()
            .filter(|f| f.live && f.in_scope)
            .filter_map(|f| match &f.role {
                Role::Zuno { dir, layer } if !layer.is_global() => Some(dir.clone()),
                _ => None,
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The Zuno files that Zuno started in `dir` reads, in its merge order (later wins): the
    /// global config, bare `zuno.json(c)` from the farthest ancestor down, `.zuno/` configs
    /// likewise, then Markdown agents (global, then `.zuno/` ones).
    pub fn zuno_view_for(&self, dir: &Path) -> Vec<usize> {
        let mut view: Vec<(u8, usize, PathBuf, usize)> = self
            .files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.live)
            .filter_map(|(id, f)| match &f.role {
                Role::Zuno { dir: d, layer } if layer.is_global() || dir.starts_with(d) => {
                    Some((layer.order(), d.components().count(), f.path.clone(), id))
                }
                _ => None,
            })
            .collect();
        view.sort();
        view.into_iter().map(|(_, _, _, id)| id).collect()
    }

    /// The view of a Zuno file: that of its project.
    pub fn zuno_view_of_file(&self, id: usize) -> Vec<usize> {
        match &self.files[id].role {
            Role::Zuno { dir, .. } => self.zuno_view_for(dir),
            _ => Vec::new(),
        }
    }

    pub fn zuno_view_files(&self, view: &[usize]) -> Vec<crate::analysis::zuno::project::ViewFile<'_>> {
        view.iter()
            .filter_map(|&id| {
                Some(crate::analysis::zuno::project::ViewFile {
                    file: id,
                    zuno: self.files[id].analysis.zuno.as_deref()?,
                })
            })
            .collect()
    }

    /// The skill names a Zuno file's project can load (read when its first file was added).
    pub fn zuno_skills_of_file(&self, id: usize) -> Vec<String> {
        match &self.files[id].role {
            Role::Zuno { dir, .. } => self.zuno_skills.get(dir).cloned().unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Read the skills a Zuno project can load: `.zuno/{skill,skills}/**/SKILL.md` and
    /// `.agents/skills/**/SKILL.md` of the project and its ancestors, and the global
    /// `{skill,skills}/`. A skill's name is its frontmatter `name`.
    fn load_zuno_skills(&mut self, project: &Path) {
        if self.zuno_skills.contains_key(project) {
            return;
        }
        let mut files = Vec::new();
        for anc in project.ancestors().take(64) {
            files.extend(discover::skill_files(&anc.join(".zuno"), &["skill", "skills"], true));
            files.extend(discover::skill_files(&anc.join(".agents"), &["skills"], true));
            if anc.join(".git").exists() {
                break;
            }
        }
        if let Some(g) = &self.options.zuno_global {
            files.extend(discover::skill_files(g, &["skill", "skills"], true));
        }
        let names = files
            .iter()
            .filter_map(|p| read_text(p).ok())
            .filter_map(|(text, _)| skill_name(&text))
            .collect();
        self.zuno_skills.insert(project.to_path_buf(), names);
    }

    /// Every live Claude Code agent file, for the cross-file checks and resolution.
    pub fn claude_files(&self) -> Vec<claude::project::ClaudeFile<'_>> {
        self.files
            .iter()
            .enumerate()
            .filter(|(_, f)| f.live)
            .filter_map(|(id, f)| {
                let (FileKind::Claude(kind), Role::Claude { dir }, Some(c)) = (&f.kind, &f.role, &f.analysis.claude)
                else {
                    return None;
                };
                Some(claude::project::ClaudeFile {
                    file: id,
                    path: &f.path,
                    kind,
                    owner: dir,
                    agent: &c.agent,
                })
            })
            .collect()
    }

    /// The directory Claude Code runs in for a Claude file: its project (the home directory
    /// for user agents, the plugin root for plugin agents).
    pub fn claude_dir_of_file(&self, id: usize) -> Option<&Path> {
        match &self.files[id].role {
            Role::Claude { dir } => Some(dir),
            _ => None,
        }
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

    /// One finding for the user's global configuration when it makes a runtime refuse to
    /// start: it is read in every project but not reported on, so without this `check` would say
    /// `ok` while the runtime cannot start. On the first such error, with the count.
    pub fn global_refusal(&self) -> Option<(usize, Diagnostic)> {
        let o = &self.options;
        let global: Vec<&Path> = [
            &o.global_dir,
            &o.home_dot_opencode,
            &o.config_dir,
            &o.config_file,
            &o.zuno_global,
        ]
        .into_iter()
        .flatten()
        .map(PathBuf::as_path)
        .collect();
        let mut found: Vec<(usize, &Diagnostic)> = Vec::new();
        for (id, f) in self.files.iter().enumerate() {
            if !f.live || f.in_scope || !global.iter().any(|g| f.path.starts_with(g)) {
                continue;
            }
            found.extend(
                f.analysis
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == analysis::Severity::Error && d.effect == analysis::Effect::RefusesToStart)
                    .map(|d| (id, d)),
            );
        }
        let (id, first) = *found.first()?;
        let n = found.len();
        let product = self.files[id].kind.dialect().product();
        let mut d = first.clone();
        d.message = format!(
            "the global configuration has {n} error{} that make{} {product} refuse to start in every project; the first: {}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            first.message
        );
        d.fix = None;
        Some((id, d))
    }

    /// The files reported on: in scope, and not left out by a project file.
    pub fn files_in_scope(&self) -> usize {
        (0..self.files.len())
            .filter(|&i| self.files[i].in_scope && self.files[i].live && !self.excluded(i))
            .count()
    }
}

/// The project directory around a root that is a config directory or lies inside one.
fn enclosing_project(root: &Path) -> Option<PathBuf> {
    let root = fs::canonicalize(root).ok()?;
    if is_dot_opencode(&root) {
        return root.parent().map(Path::to_path_buf);
    }
    for anc in root.ancestors().take(8) {
        let name = anc.file_name()?.to_string_lossy();
        if ["agent", "agents", "mode", "modes"].contains(&name.as_ref()) {
            let dir = anc.parent()?;
            return if is_dot_opencode(dir) {
                dir.parent().map(Path::to_path_buf)
            } else {
                Some(dir.to_path_buf())
            };
        }
    }
    None
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

/// The folders whose `skills/` opencode reads outside its config folders (`.claude`, `.agents`),
/// as the environment leaves them (`OPENCODE_DISABLE_EXTERNAL_SKILLS` turns both off,
/// `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS` the first).
fn external_skill_folders() -> Vec<&'static str> {
    let flag = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    if flag("OPENCODE_DISABLE_EXTERNAL_SKILLS") {
        return Vec::new();
    }
    let mut out = Vec::new();
    if !flag("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS") {
        out.push(".claude");
    }
    out.push(".agents");
    out
}

/// The `name` of a `SKILL.md` frontmatter (a plain or quoted one-line value).
fn skill_name(text: &str) -> Option<String> {
    let rest = text.trim_start_matches('\u{feff}').strip_prefix("---")?;
    for line in rest.lines().skip(1) {
        if line.trim_end() == "---" {
            break;
        }
        if let Some(v) = line.strip_prefix("name:") {
            let v = v.trim().trim_matches(['"', '\'']);
            return (!v.is_empty()).then(|| v.to_string());
        }
    }
    None
}

/// The key a path is stored under: canonical when it exists, so that `./a` and `a` are one file.
fn key(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// What a file is to a Claude Code plugin: a manifest, or a file the plugin contributes (an
/// agent, a command, a skill; see [`discover::plugin_kind`]). `Some(None)`: a `SKILL.md` inside a
/// plugin that the plugin does not load and no other runtime would (not a misplaced skill of a
/// project: the plugin's own rules decide). `None`: not a plugin's file.
fn plugin_role(path: &Path) -> Option<Option<(FileKind, Role)>> {
    use crate::analysis::claude::plugin::Manifest;
    if let Some(m) = Manifest::of_path(path) {
        let dir = path.parent()?.parent()?.to_path_buf();
        return Some(Some((FileKind::Manifest(m), Role::Manifest { dir })));
    }
    let name = path.file_name()?.to_string_lossy();
    if !name.ends_with(".md") {
        return None;
    }
    // The runtimes' own folders hold no plugin's files: no search for a manifest above them (a
    // large `.claude/agents/` costs a stat per ancestor and file otherwise).
    let in_config_folder = path.ancestors().skip(1).any(|a| {
        let parent = a.parent().and_then(Path::file_name);
        matches!(a.file_name().and_then(|n| n.to_str()), Some(".opencode" | ".zuno"))
            || (parent.is_some_and(|p| p == ".claude")
                && matches!(
                    a.file_name().and_then(|n| n.to_str()),
                    Some("agents" | "commands" | "skills")
                ))
    });
    if in_config_folder {
        return None;
    }
    let plugin = discover::Plugin::of(path)?;
    match discover::plugin_member(&plugin, path) {
        Some(discover::Member::Agent(k)) => Some(Some((k.into(), Role::Claude { dir: plugin.root }))),
        Some(discover::Member::Command(k)) => Some(Some((FileKind::Command(k), Role::Command { dir: plugin.root }))),
        Some(discover::Member::Skill(k)) => Some(Some((FileKind::Skill(k), Role::Skill { dir: plugin.root }))),
        None if name == "SKILL.md" => match discover::skill_kind(path) {
            Some((k, dir)) if k.misplaced.is_none() => Some(Some((FileKind::Skill(k), Role::Skill { dir }))),
            _ => Some(None),
        },
        None => None,
    }
}

/// A file named explicitly that is not in an opencode location: analysed on its own.
fn explicit_role(path: &Path) -> Option<(FileKind, Role)> {
    if let Some(role) = plugin_role(path) {
        return role;
    }
    if let Some((kind, project)) = discover::claude_kind(path, None) {
        return Some((kind.into(), Role::Claude { dir: project }));
    }
    if let Some((kind, dir, layer)) = discover::zuno_kind(path, None) {
        return Some((kind.into(), Role::Zuno { dir, layer }));
    }
    let kind = discover::classify(path)?;
    let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
    // opencode reads a config by its name, and a Markdown agent in an `agent(s)/` or `mode(s)/`
    // folder; any other Markdown or JSON file given by path is read by no runtime.
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let in_agents_folder = path.ancestors().skip(1).any(|a| {
        a.file_name()
            .is_some_and(|n| ["agent", "agents", "mode", "modes"].contains(&n.to_string_lossy().as_ref()))
    });
    let read = match &kind {
        OcKind::Config => discover::CONFIG_NAMES.contains(&name.as_str()) || name == "config.json",
        _ => in_agents_folder,
    };
    if !read {
        return Some((kind.into(), Role::NotRead));
    }
    let role = match &kind {
        OcKind::Config => Role::ProjectConfig { dir: parent },
        _ => Role::Markdown {
            dir: path
                .ancestors()
                .skip(1)
                .find(|a| {
                    a.file_name()
                        .is_some_and(|n| ["agent", "agents", "mode", "modes"].contains(&n.to_string_lossy().as_ref()))
                })
                .and_then(Path::parent)
                .unwrap_or(&parent)
                .to_path_buf(),
        },
    };
    Some((kind.into(), role))
}

/// Why a file was not analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// Over [`MAX_FILE_SIZE`]: the size in bytes.
    TooLarge(u64),
    /// NUL bytes in its first 8 KiB.
    Binary,
    /// It could not be read (the operating system's reason).
    Io(String),
    /// Given by path, but no runtime reads it where it sits.
    NotRead,
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::TooLarge(n) => write!(
                f,
                "file is {n} bytes, larger than the {MAX_FILE_SIZE} bytes agent-lsp analyses; skipped"
            ),
            Unread::Binary => f.write_str("binary file (contains NUL bytes); skipped"),
            Unread::Io(e) => f.write_str(e),
            Unread::NotRead => f.write_str("no runtime reads this file where it is; not analysed"),
        }
    }
}

/// The `unchecked-file` diagnostic of a file agent-lsp did not analyse, saying what the runtime
/// that reads it does with it. On the file's start: the whole file is its subject.
pub fn unchecked_file(kind: &FileKind, why: &Unread) -> Diagnostic {
    let reason = match why {
        Unread::TooLarge(n) => format!(
            "agent-lsp did not analyse this file: it is {} MiB ({n} bytes), over the {} MiB agent-lsp reads",
            mib(*n),
            MAX_FILE_SIZE >> 20
        ),
        Unread::Binary => "agent-lsp did not analyse this file: it holds NUL bytes (a binary file)".to_string(),
        Unread::Io(e) => format!("agent-lsp could not read this file ({e})"),
        Unread::NotRead => {
            let what = if kind.is_config() {
                "opencode reads a config only as `opencode.json` or `opencode.jsonc` (in a project, `.opencode/` or the global config folder)"
            } else {
                "an agent goes in `.opencode/agents/` or `.claude/agents/`, a command in `.opencode/commands/` or `.claude/commands/`, a skill in `.claude/skills/<name>/SKILL.md` or `.opencode/skills/<name>/SKILL.md`"
            };
            let d = Diagnostic::new(
                Code::UncheckedFile,
                Span::new(0, 0),
                format!("no runtime reads this file where it is, so agent-lsp does not analyse it: {what}"),
            );
            return d
                .with_severity(analysis::Severity::Info)
                .with_effect(analysis::Effect::FileIgnored);
        }
    };
    let d = Diagnostic::new(Code::UncheckedFile, Span::new(0, 0), String::new());
    match kind {
        // Claude Code skips an agent file over 1 MiB (spec §7.1): the agent does not load.
        FileKind::Claude(_) if matches!(why, Unread::TooLarge(n) if *n > claude::MAX_BYTES as u64) => {
            let message = format!("{reason}; Claude Code skips agent files over 1 MiB, so this agent does not load");
            Diagnostic { message, ..d }
                .with_severity(analysis::Severity::Error)
                .with_effect(analysis::Effect::FileIgnored)
        }
        FileKind::ProjectFile => Diagnostic {
            message: format!("{reason}; its settings are not applied"),
            ..d
        },
        _ => Diagnostic {
            message: format!(
                "{reason}; {} still reads it, so whatever it defines is unchecked and unknown to the other checks",
                kind.dialect().product()
            ),
            ..d
        },
    }
}

/// Bytes in MiB with one decimal.
fn mib(n: u64) -> String {
    format!("{:.1}", n as f64 / (1u64 << 20) as f64)
}

/// Read a file as text, with guards: too large or binary is an error; invalid UTF-8 is read
/// lossily with a diagnostic at the first bad byte.
pub fn read_text(path: &Path) -> Result<(String, Option<Diagnostic>), Unread> {
    let meta = fs::metadata(path).map_err(|e| Unread::Io(e.to_string()))?;
    if meta.len() > MAX_FILE_SIZE {
        return Err(Unread::TooLarge(meta.len()));
    }
    let bytes = fs::read(path).map_err(|e| Unread::Io(e.to_string()))?;
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err(Unread::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, None)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let d = Diagnostic::new(
                Code::SyntaxError,
                Span::new(at, at + '\u{fffd}'.len_utf8()),
                format!("the file is not valid UTF-8 (byte {at}); opencode reads it with replacement characters"),
            )
            .with_effect(crate::analysis::Effect::ValueIgnored);
            Ok((text, Some(d)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Code;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    fn codes(ws: &Workspace) -> Vec<(String, &'static str)> {
        ws.diagnostics()
            .into_iter()
            .map(|(id, d)| {
                let rel = ws.files[id]
                    .path
                    .strip_prefix(&ws.roots[0])
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, d.code.as_str())
            })
            .collect()
    }

    #[test]
    fn skill_links_to_missing_files() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        let skill = "---\nname: tdd\ndescription: d\n---\nRead [the guide](references/guide.md), [run](${CLAUDE_SKILL_DIR}/scripts/run.sh),\n[up](../shared/notes.md#part), [here](./SKILL.md) and [web](https://x.y/z.md).\n";
        write(root, ".claude/skills/tdd/SKILL.md", skill);
        write(root, ".claude/skills/shared/notes.md", "notes");
        let mut ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let id = ws.id(&root.join(".claude/skills/tdd/SKILL.md")).unwrap();
        let broken = |ws: &Workspace| -> Vec<(String, String)> {
            ws.diagnostics()
                .into_iter()
                .filter(|(_, d)| d.code == Code::BrokenLink)
                .map(|(i, d)| (d.span.text(&ws.files[i].text).to_string(), d.message))
                .collect()
        };
        assert_eq!(
            broken(&ws),
            [
                (
                    "references/guide.md".to_string(),
                    "`references/guide.md` does not exist (links resolve from the skill's folder): a model that follows this link finds no file".to_string()
                ),
                (
                    "${CLAUDE_SKILL_DIR}/scripts/run.sh".to_string(),
                    "`scripts/run.sh` does not exist (links resolve from the skill's folder): a model that follows this link finds no file".to_string()
                ),
            ]
        );
        // A file created later clears its warning once the links are checked again.
        write(root, ".claude/skills/tdd/references/guide.md", "guide");
        assert_eq!(ws.refresh_skill_links(), [id]);
        assert_eq!(broken(&ws).len(), 1);
        assert_eq!(ws.refresh_skill_links(), Vec::<usize>::new());
        // An edit re-checks the links of the file edited.
        ws.set_text(id, skill.replace("scripts/run.sh", "references/guide.md"));
        assert_eq!(broken(&ws), []);
        // A deleted file brings it back.
        fs::remove_file(root.join(".claude/skills/tdd/references/guide.md")).unwrap();
        assert_eq!(ws.refresh_skill_links(), [id]);
        assert_eq!(broken(&ws).len(), 2);
    }

    const PRIMARY: &str = "---\nmode: primary\n---\nPrompt\n";
    const SUBAGENT: &str = "---\nmode: subagent\n---\nPrompt\n";

    #[test]
    fn ancestor_dot_opencode_beats_the_nearer_one() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(root, "sub/opencode.json", r#"{"default_agent": "x"}"#);
        write(root, ".opencode/agents/x.md", SUBAGENT);
        write(root, "sub/.opencode/agents/x.md", PRIMARY);
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        // Started in sub/, opencode merges sub/.opencode first and the ancestor's file last.
        assert_eq!(codes(&ws), [("sub/opencode.json".to_string(), "invalid-default-agent")]);
        // Swapped, the primary definition wins.
        write(root, ".opencode/agents/x.md", PRIMARY);
        write(root, "sub/.opencode/agents/x.md", SUBAGENT);
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        assert_eq!(codes(&ws), []);
    }

    #[test]
    fn effective_agent_follows_the_view_of_the_start_directory() {
        use crate::analysis::opencode::effective;
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(
            root,
            ".opencode/agents/x.md",
            "---
mode: subagent
temperature: 0.1
---
P
",
        );
        write(
            root,
            "sub/.opencode/agents/x.md",
            "---
mode: primary
temperature: 0.9
model: a/b
---
P
",
        );
        write(root, "sub/opencode.json", "{}");
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let env = effective::Env::default();
        let from_sub = effective::agents(&ws.view_files(&ws.view_for(&root.join("sub"))), &env);
        let x = from_sub.iter().find(|a| a.name == "x").unwrap();
        // The ancestor's file is merged last and wins where it sets a field; the nearer file
        // still contributes what only it sets.
        assert_eq!(x.mode.value, "subagent");
        assert_eq!(x.temperature.as_ref().unwrap().value, 0.1);
        assert_eq!(x.model.as_ref().unwrap().value, "a/b");
        let from_root = effective::agents(&ws.view_files(&ws.view_for(root)), &env);
        assert!(from_root.iter().find(|a| a.name == "x").unwrap().model.is_none());
    }

    #[test]
    fn markdown_beats_json_and_mode_beats_agent() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(
            root,
            "opencode.json",
            r#"{"default_agent": "rev", "agent": {"rev": {"mode": "subagent"}}}"#,
        );
        write(root, ".opencode/agents/rev.md", PRIMARY);
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        assert_eq!(codes(&ws), []);
        write(root, ".opencode/agents/rev.md", SUBAGENT);
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        assert_eq!(codes(&ws), [("opencode.json".to_string(), "invalid-default-agent")]);
        // A deprecated mode/ file is primary and is merged after agents/.
        write(root, ".opencode/mode/rev.md", "---\ndescription: d\n---\nPrompt\n");
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        // Two files of one directory defining one agent are reported.
        assert_eq!(
            codes(&ws),
            [
                (".opencode/agents/rev.md".to_string(), "duplicate-agent"),
                (".opencode/mode/rev.md".to_string(), "deprecated-field"),
                (".opencode/mode/rev.md".to_string(), "duplicate-agent"),
            ]
        );
    }

    #[test]
    fn global_layer_disable_and_agents() {
        let t = tempfile::tempdir().unwrap();
        let g = tempfile::tempdir().unwrap();
        let root = t.path();
        write(root, "opencode.json", r#"{"default_agent": "build"}"#);
        write(g.path(), "opencode.json", r#"{"agent": {"build": {"disable": true}}}"#);
        write(
            g.path(),
            "agents/helper.md",
            "---\nmode: primary\ncolor: red\n---\nPrompt\n",
        );
        let options = Options {
            global_dir: Some(g.path().to_path_buf()),
            ..Options::default()
        };
        let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
        let d = ws.diagnostics();
        // The global agent's own problem is not reported; the disabled default agent is.
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].1.code, Code::InvalidDefaultAgent);
        assert!(d[0].1.message.contains("disabled"));
        write(root, "opencode.json", r#"{"default_agent": "helper"}"#);
        let ws = Workspace::load(&[root.to_path_buf()], &options).unwrap();
        assert!(ws.diagnostics().is_empty());
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        assert_eq!(ws.diagnostics().len(), 1);
    }

    #[test]
    fn global_config_layout_and_nested_names() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        // A repository holding a global config directory: opencode.json next to agents/.
        write(
            root,
            "dotfiles/opencode/opencode.json",
            r#"{"default_agent": "team/lead"}"#,
        );
        write(root, "dotfiles/opencode/agents/team/lead.md", PRIMARY);
        // Markdown outside any config directory is not an opencode agent.
        write(root, "docs/agents/notes.md", "---\nmode: main\n---\n");
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        assert_eq!(codes(&ws), []);
        assert_eq!(ws.files_in_scope(), 2);
        // Its commands are opencode commands (nested names too), resolved against its agents;
        // a `commands/` folder outside a config directory is nothing.
        write(
            root,
            "dotfiles/opencode/commands/git/ship.md",
            "---\nagent: team/leed\n---\nShip $1\n",
        );
        write(root, "docs/commands/ship.md", "---\nagent: nobody\n---\nx\n");
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        assert_eq!(
            codes(&ws),
            [("dotfiles/opencode/commands/git/ship.md".to_string(), "unknown-agent")]
        );
        let id = ws.id(&root.join("dotfiles/opencode/commands/git/ship.md")).unwrap();
        match &ws.files[id].kind {
            FileKind::Command(k) => assert_eq!(
                (k.runtime, k.name.as_str()),
                (crate::analysis::Dialect::OpenCode, "git/ship")
            ),
            other => panic!("{other:?}"),
        }
        assert!(ws.id(&root.join("docs/commands/ship.md")).is_none());
        // The same in the global directory given in the options.
        let options = Options {
            global_dir: Some(root.join("dotfiles/opencode")),
            ..Options::isolated()
        };
        let ws = Workspace::new(vec![root.to_path_buf()], options);
        let (kind, _) = ws.role_of(&root.join("dotfiles/opencode/command/x.md")).unwrap();
        assert!(matches!(kind, FileKind::Command(_)), "{kind:?}");
    }

    #[test]
    fn file_references_are_read_and_missing_ones_refuse() {
        use crate::analysis::Effect;
        use crate::analysis::opencode::effective;
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        write(
            root,
            "opencode.jsonc",
            "{\n  // \"prompt\": \"{file:./commented.txt}\"\n  \"agent\": {\"a\": {\"description\": \"{file:./d.txt}\", \"prompt\": \"{file:./gone.md}\"}}\n}\n",
        );
        write(root, "d.txt", "  from a file \n");
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let d = ws.diagnostics();
        assert_eq!(d.len(), 1, "{d:#?}");
        let f = &ws.files[d[0].0];
        assert_eq!(d[0].1.code, Code::BadFileReference);
        assert_eq!(d[0].1.effect, Effect::RefusesToStart);
        assert_eq!(d[0].1.span.text(&f.text), "{file:./gone.md}");
        assert!(
            d[0].1.message.contains(&root.join("gone.md").display().to_string()),
            "{}",
            d[0].1.message
        );
        let agents = effective::agents(&ws.view_files(&ws.view_for(root)), &effective::Env::default());
        let a = agents.iter().find(|a| a.name == "a").unwrap();
        assert_eq!(a.description.as_ref().unwrap().value, "from a file");
    }

    #[test]
    fn skill_directories_in_discovery_order() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        for d in [
            ".opencode/skill/deep/er",
            ".opencode/skills/b",
            ".opencode/skill/a",
            ".claude/skills/c",
            ".agents/skills/d",
            "sub/.claude/skills/e",
            "sub/.opencode/skills/f",
        ] {
            write(root, &format!("{d}/SKILL.md"), "---\nname: s\n---\n");
        }
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let env = ws.effective_env(&root.join("sub"));
        let canon = std::fs::canonicalize(root).unwrap();
        let rel: Vec<String> = env
            .skill_dirs
            .iter()
            .map(|d| Path::new(d).strip_prefix(&canon).unwrap().display().to_string())
            .collect();
        assert_eq!(
            rel,
            [
                "sub/.claude/skills/e",
                ".claude/skills/c",
                ".agents/skills/d",
                "sub/.opencode/skills/f",
                ".opencode/skill/a",
                ".opencode/skills/b",
                ".opencode/skill/deep/er",
            ]
        );
        assert_eq!(env.worktree.as_deref(), Some(canon.to_str().unwrap()));
    }

    /// Every file of a plugin, as `(relative path, kind)` with the name Claude Code gives it.
    fn plugin_view(ws: &Workspace, root: &Path) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = ws
            .files
            .iter()
            .filter(|f| f.live)
            .filter_map(|f| {
                let rel = f.path.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/");
                let what = match &f.kind {
                    FileKind::Claude(k) => match &k.source {
                        claude::Source::Plugin { plugin } => format!("agent {plugin}:{}", k.stem),
                        _ => return None,
                    },
                    FileKind::Command(k) => format!("command {}", k.name),
                    FileKind::Skill(k) => format!("skill {}:{}", k.namespace.as_deref().unwrap_or("-"), k.folder),
                    FileKind::Manifest(m) => format!("manifest {}", m.file_name()),
                    _ => return None,
                };
                Some((rel, what))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_plugin_is_read_whole() {
        let t = tempfile::tempdir().unwrap();
        let root = &fs::canonicalize(t.path()).unwrap();
        let p = root.join("plugins/tools");
        let manifest = r#"{"name": "tools", "version": "1.0.0", "description": "d", "author": {"name": "a"}}"#;
        write(&p, ".claude-plugin/plugin.json", manifest);
        let md = "---\ndescription: d\n---\nBody\n";
        for f in [
            "agents/a.md",
            "agents/sub/b.md",
            "commands/c.md",
            "commands/sub/d.md",
            "commands/sk/SKILL.md",
            "commands/sk/ref.md",
            "skills/s/SKILL.md",
            "skills/s/deep/SKILL.md",
            "skills/s/notes.md",
            "SKILL.md",
            "extra/x.md",
        ] {
            write(&p, f, md);
        }
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let want = [
            (".claude-plugin/plugin.json", "manifest plugin.json"),
            ("agents/a.md", "agent tools:a"),
            ("agents/sub/b.md", "agent tools:sub:b"),
            ("commands/c.md", "command tools:c"),
            ("commands/sk/SKILL.md", "skill tools:sk"),
            ("commands/sub/d.md", "command tools:sub:d"),
            ("skills/s/SKILL.md", "skill tools:s"),
        ];
        let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(plugin_view(&ws, &p), want);
        // A plugin's skill folder is not a misplaced skill, and nothing is reported.
        assert_eq!(codes(&ws), []);
        // A plugin's repository may hold a project of its own: its `.claude/` is the project's.
        write(
            &p,
            ".claude/agents/dev.md",
            "---\nname: dev\ndescription: d\n---\nBody\n",
        );
        write(
            &p,
            ".claude/skills/dev/SKILL.md",
            "---\nname: dev\ndescription: d\n---\nBody\n",
        );
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let kind = |rel: &str| ws.files[ws.id(&p.join(rel)).unwrap()].kind.clone();
        assert_eq!(
            kind(".claude/agents/dev.md"),
            FileKind::Claude(claude::FileKind::project("dev"))
        );
        match kind(".claude/skills/dev/SKILL.md") {
            FileKind::Skill(k) => assert_eq!((k.namespace, k.loaders.len()), (None, 2)),
            other => panic!("{other:?}"),
        }
        fs::remove_dir_all(p.join(".claude")).unwrap();
        // Custom paths: `agents` and `commands` replace their folder, `skills` adds one; paths
        // that do not exist, and the default files left out, are reported on the manifest.
        write(
            &p,
            ".claude-plugin/plugin.json",
            r#"{"name": "tools", "version": "1.0.0", "description": "d", "author": {"name": "a"},
                "agents": ["./extra/x.md", "./gone.md"], "commands": "./commands/sub", "skills": ["./commands", "./nope"]}"#,
        );
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let want = [
            (".claude-plugin/plugin.json", "manifest plugin.json"),
            ("commands/sk/SKILL.md", "skill tools:sk"),
            ("commands/sub/d.md", "command tools:d"),
            ("extra/x.md", "agent tools:x"),
            ("skills/s/SKILL.md", "skill tools:s"),
        ];
        let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(plugin_view(&ws, &p), want);
        let id = ws.id(&p.join(".claude-plugin/plugin.json")).unwrap();
        let f = &ws.files[id];
        let found: Vec<(&str, &str, String)> = ws
            .diagnostics()
            .iter()
            .filter(|(i, _)| *i == id)
            .map(|(_, d)| (d.code.as_str(), d.span.text(&f.text), d.message.clone()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "invalid-value",
                    "\"agents\"",
                    "setting `agents` replaces the plugin's `agents/` folder: Claude Code does not load the 2 files there that `agents` leaves out (`agents/a.md`, ...)".to_string()
                ),
                (
                    "invalid-value",
                    "\"./gone.md\"",
                    "`./gone.md` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it".to_string()
                ),
                (
                    "invalid-value",
                    "\"commands\"",
                    "setting `commands` replaces the plugin's `commands/` folder: Claude Code does not load the 1 file there that `commands` leaves out (`commands/c.md`)".to_string()
                ),
                (
                    "invalid-value",
                    "\"./nope\"",
                    "`./nope` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it".to_string()
                ),
            ]
        );
        // The language server follows a manifest changed on disk: the plugin renamed, the
        // custom paths dropped.
        let mut ws = ws;
        write(
            &p,
            ".claude-plugin/plugin.json",
            &manifest.replace("\"tools\"", "\"kit\""),
        );
        let (kind, role) = ws.role_of(&p.join(".claude-plugin/plugin.json")).unwrap();
        ws.upsert(
            &p.join(".claude-plugin/plugin.json"),
            kind,
            role,
            fs::read_to_string(p.join(".claude-plugin/plugin.json")).unwrap(),
            true,
        );
        ws.load_plugin(&p);
        let want = [
            (".claude-plugin/plugin.json", "manifest plugin.json"),
            ("agents/a.md", "agent kit:a"),
            ("agents/sub/b.md", "agent kit:sub:b"),
            ("commands/c.md", "command kit:c"),
            ("commands/sk/SKILL.md", "skill kit:sk"),
            ("commands/sub/d.md", "command kit:sub:d"),
            ("skills/s/SKILL.md", "skill kit:s"),
        ];
        let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(plugin_view(&ws, &p), want);
        // A marketplace whose local source is no folder.
        write(
            root,
            ".claude-plugin/marketplace.json",
            r#"{"name": "m", "description": "d", "owner": {"name": "o"}, "plugins": [{"name": "tools", "source": "./plugins/tools"}, {"name": "gone", "source": "./plugins/gone"}]}"#,
        );
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let id = ws.id(&root.join(".claude-plugin/marketplace.json")).unwrap();
        let d: Vec<(&str, String)> = ws
            .diagnostics()
            .iter()
            .filter(|(i, _)| *i == id)
            .map(|(_, d)| (d.span.text(&ws.files[id].text), d.message.clone()))
            .collect();
        assert_eq!(
            d,
            [(
                "\"./plugins/gone\"",
                "`plugins/gone` is no folder of this marketplace: Claude Code cannot install `gone` (\"Source path does not exist\"); `claude plugin validate` does not check it".to_string()
            )]
        );
    }

    #[test]
    fn a_start_directory_sees_its_ancestors_and_user_agents() {
        let t = tempfile::tempdir().unwrap();
        let g = tempfile::tempdir().unwrap();
        let root = t.path();
        std::fs::create_dir(root.join(".git")).unwrap();
        write(root, ".opencode/agents/up.md", PRIMARY);
        write(root, "pkg/sub/opencode.json", "{}");
        write(g.path(), "agents/global.md", SUBAGENT);
        let options = Options {
            global_dir: Some(g.path().to_path_buf()),
            ..Options::default()
        };
        // Loaded from the nested project only, as `explain --root pkg/sub` does.
        let sub = root.join("pkg/sub");
        let ws = Workspace::load(std::slice::from_ref(&sub), &options).unwrap();
        let names: Vec<String> = ws
            .view_for(&sub)
            .iter()
            .flat_map(|&id| ws.files[id].analysis.agents.iter().map(|a| a.name.clone()))
            .collect();
        assert_eq!(names, ["global", "up"]);
        // An empty start directory still sees the user-level agents.
        let empty = tempfile::tempdir().unwrap();
        let ws = Workspace::load(&[empty.path().to_path_buf()], &options).unwrap();
        assert_eq!(ws.view_for(empty.path()).len(), 1);
    }
}
