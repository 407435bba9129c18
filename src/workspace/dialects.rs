//! The dialects side by side, as the workspace answers for them. This is the workspace layer's
//! one dispatch on [`Dialect`]:
//!
//! - the merged views per dialect: which files a runtime started in one directory reads, in
//!   precedence order, and what each view needs (opencode's environment and skills, Zuno's
//!   projects, Claude Code's files), with the agents a command of each runtime may name;
//! - for a start directory, what each dialect's runtime reads there and which agents it builds
//!   ([`DialectAgents`]), each agent as one generic [`ExplainedAgent`] (its name, its card and
//!   JSON, the files it rests on); `explain` iterates [`Dialect::ALL`] over it.
//!
//! Rendering stays with each dialect (`opencode::card`, `claude::card`, `zuno::card`); terminal
//! presentation stays with the CLI.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::model::*;
use crate::analysis::agents::{GraphEdge, GraphNode, MatrixPart};
use crate::analysis::card::PathNames;
use crate::analysis::claude::project::ClaudeFile;
use crate::analysis::opencode::card as opencode_card;
use crate::analysis::opencode::effective::{self, EffectiveAgent};
use crate::analysis::opencode::views::{DirKind, is_dot_opencode};
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::provenance::{Source, WhereIs};
use crate::analysis::zuno::project::MergedAgent;
use crate::analysis::{Dialect, FileKind, claude, copilot, opencode, zuno};

impl Workspace {
    /// The agents a project file in `dir` governs: every dialect's, from each place its runtime
    /// may be started at or below `dir`.
    pub fn governed_agents(&self, dir: &Path) -> Vec<DialectAgents<'_>> {
        let mut out = Vec::new();
        for (view_dir, _) in crate::analysis::opencode::views::project_views(self) {
            if view_dir.starts_with(dir) {
                out.push(DialectAgents::gather(self, Dialect::OpenCode, &view_dir));
            }
        }
        out.push(DialectAgents::gather(self, Dialect::Claude, dir));
        for zuno_dir in zuno::dialect::projects(self) {
            if zuno_dir.starts_with(dir) {
                out.push(DialectAgents::gather(self, Dialect::Zuno, &zuno_dir));
            }
        }
        for copilot_dir in copilot::dialect::folders(self) {
            if copilot_dir.starts_with(dir) {
                out.push(DialectAgents::gather(self, Dialect::Copilot, &copilot_dir));
            }
        }
        out
    }

    /// [`Workspace::governed_agents`] but opencode's: Claude Code's and Zuno's agents.
    pub fn governed_agents_beside_opencode(&self, dir: &Path) -> Vec<DialectAgents<'_>> {
        let mut out = vec![DialectAgents::gather(self, Dialect::Claude, dir)];
        for zuno_dir in zuno::dialect::projects(self) {
            if zuno_dir.starts_with(dir) {
                out.push(DialectAgents::gather(self, Dialect::Zuno, &zuno_dir));
            }
        }
        for copilot_dir in copilot::dialect::folders(self) {
            if copilot_dir.starts_with(dir) {
                out.push(DialectAgents::gather(self, Dialect::Copilot, &copilot_dir));
            }
        }
        out
    }

    /// The project directory of an opencode or Zuno file or a Claude Code settings file: the
    /// agents a "who may" question asked from it is about (`governed_agents` of this directory).
    pub fn who_dir_of_file(&self, id: usize) -> Option<PathBuf> {
        match &self.files[id].role {
            Role::ClaudeSettings { dir } => Some(dir.clone()),
            role if zuno::dialect::project_of(&self.files[id].kind, role).is_some() => {
                zuno::dialect::project_of(&self.files[id].kind, role)
            }
            _ => crate::analysis::opencode::views::project_dir_of_file(self, id),
        }
    }

    /// An instruction file of a project (not the user's): which one, and its folder.
    pub(crate) fn instruction_file<'a>(&self, f: &'a File) -> Option<(crate::analysis::instructions::Which, &'a Path)> {
        use crate::analysis::claude::memory::MemoryFile;
        use crate::analysis::instructions::Which;
        let Role::Memory { dir } = &f.role else { return None };
        if self.options.home.as_deref() == Some(dir.as_path())
            || self.options.global_dir.as_deref() == Some(dir.as_path())
        {
            return None;
        }
        let in_dot_claude = f
            .path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".claude");
        let which = match (f.kind.memory()?, in_dot_claude) {
            (MemoryFile::Agents, true) => Which::DotClaudeAgents,
            (MemoryFile::Agents, false) => Which::Agents,
            (MemoryFile::Context, _) => Which::Context,
            (MemoryFile::Project, true) => Which::DotClaudeClaude,
            (MemoryFile::Project, false) => Which::Claude,
            (MemoryFile::Local, _) => Which::ClaudeLocal,
            (MemoryFile::Rule | MemoryFile::User, _) => return None,
        };
        Some((which, dir))
    }

    /// Which runtimes read instruction file `id` where it is (for a runtime started in its
    /// folder), from the names each folder up to the root holds (in the workspace, or on disk).
    pub fn instruction_readers(
        &self,
        id: usize,
    ) -> Option<(
        crate::analysis::instructions::Which,
        Vec<crate::analysis::instructions::Verdict>,
    )> {
        self.instruction_verdicts(id, &self.instruction_importers())
    }

    /// [`Self::instruction_readers`] with the importers ([`Self::instruction_importers`]), which
    /// the caller looks up once for every file.
    fn instruction_verdicts(
        &self,
        id: usize,
        importers: &HashMap<PathBuf, PathBuf>,
    ) -> Option<(
        crate::analysis::instructions::Which,
        Vec<crate::analysis::instructions::Verdict>,
    )> {
        use crate::analysis::instruction_readers as readers;
        use crate::analysis::instructions::Level;
        let f = &self.files[id];
        let (which, dir) = self.instruction_file(f)?;
        let found: Vec<InstructionNames> = dir.ancestors().map(|a| self.instruction_names(a)).collect();
        let git_root = found.iter().position(|n| n.git);
        let chain: Vec<Level> = found
            .iter()
            .enumerate()
            .map(|(i, n)| Level {
                label: if i == 0 {
                    "this folder".into()
                } else {
                    vec![".."; i].join("/")
                },
                agents: n.agents,
                claude: n.claude,
                context: n.context,
                dot_claude_claude: n.dot_claude_claude,
                claude_local: n.claude_local,
                in_worktree: git_root.is_none_or(|g| i <= g),
            })
            .collect();
        let importer = importers
            .get(&f.path)
            .map(|by| relative_to(by, f.path.parent().unwrap_or(&f.path)));
        Some((which, readers(which, &chain, importer.as_deref())))
    }

    /// The instruction files folder `a` holds, in the workspace or on disk: looked up once per
    /// structure generation (and again when files appear or vanish on disk).
    fn instruction_names(&self, a: &Path) -> InstructionNames {
        let exists = |p: &Path| self.id(p).is_some_and(|i| self.files[i].live) || p.is_file();
        let look = || InstructionNames {
            agents: exists(&a.join("AGENTS.md")),
            claude: exists(&a.join("CLAUDE.md")),
            context: exists(&a.join("CONTEXT.md")),
            dot_claude_claude: exists(&a.join(".claude").join("CLAUDE.md")),
            claude_local: exists(&a.join("CLAUDE.local.md")),
            git: a.join(".git").exists(),
        };
        let Ok(mut memo) = self.instruction_memo.lock() else {
            return look();
        };
        if memo.0 != self.structure {
            *memo = (self.structure, HashMap::new());
        }
        *memo.1.entry(a.to_path_buf()).or_insert_with(look)
    }

    /// The files the memory files Claude Code reads (a `CLAUDE.md` and the like, not an
    /// `AGENTS.md`) import with `@path`, each with the first file that imports it.
    fn instruction_importers(&self) -> HashMap<PathBuf, PathBuf> {
        use crate::analysis::claude::memory::MemoryFile;
        let mut out = HashMap::new();
        for (i, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            if !matches!(
                f.kind.memory(),
                Some(MemoryFile::Project | MemoryFile::Local | MemoryFile::User)
            ) {
                continue;
            }
            let Some(m) = f.analysis.memory() else { continue };
            for r in &m.imports {
                if let Some(t) = self.file_ref_target(i, r)
                    && t != f.path
                {
                    out.entry(t).or_insert_with(|| f.path.clone());
                }
            }
        }
        out
    }

    /// `shadowed-file` on the instruction files that no runtime reads where they are. (One
    /// that a runtime ignores while another reads it is the usual way to write for two
    /// runtimes: the hover on its first line says who reads it.)
    pub(crate) fn instruction_checks(&self) -> Vec<(usize, crate::analysis::Diagnostic)> {
        use crate::analysis::diagnostic::{Diagnostic, Effect};
        let importers = self.instruction_importers();
        let mut out = Vec::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            let Some((which, verdicts)) = self.instruction_verdicts(id, &importers) else {
                continue;
            };
            if verdicts.iter().any(|v| v.reads) {
                continue;
            }
            let why: Vec<&str> = verdicts.iter().map(|v| v.why.as_str()).collect();
            let message = format!("no runtime reads this `{}` here: {}", which.name(), why.join("; "));
            let span = crate::analysis::text::first_line(&f.text);
            out.push((
                id,
                Diagnostic::new(crate::analysis::Code::ShadowedFile, span, message).with_effect(Effect::ValueIgnored),
            ));
        }
        out
    }

    /// The `theme` of each `tui.json` against the themes opencode started there has (see
    /// [`crate::analysis::opencode::theme::check_choice`]).
    pub(crate) fn theme_checks(&self) -> Vec<(usize, crate::analysis::Diagnostic)> {
        use crate::analysis::opencode::theme;
        let themes: Vec<(&Path, &str, bool)> = self
            .files
            .iter()
            .filter(|f| f.live && f.kind.is_theme())
            .filter_map(|f| {
                let Role::Theme { dir } = &f.role else { return None };
                let stem = f.path.file_stem()?.to_str()?;
                let parses = !f
                    .analysis
                    .diagnostics
                    .iter()
                    .any(|d| d.code == crate::analysis::Code::SyntaxError);
                Some((dir.as_path(), stem, parses))
            })
            .collect();
        let global = self.options.global_dir.as_deref();
        let mut out = Vec::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live && f.kind.is_tui()) {
            let Role::Tui { dir } = &f.role else { continue };
            let Some(v) = f
                .analysis
                .parsed
                .root
                .as_ref()
                .and_then(|r| r.as_map())
                .and_then(|m| m.value("theme"))
            else {
                continue;
            };
            let Some(wanted) = v.as_str() else { continue };
            // Where opencode starts to read this file: the project (the folder above a
            // `.opencode/`); a user folder's file applies anywhere.
            let start = if is_dot_opencode(dir) {
                dir.parent()
            } else {
                Some(dir.as_path())
            };
            let user = global == Some(dir.as_path())
                || crate::analysis::opencode::views::dir_kind(self, dir) != DirKind::Layout && !is_dot_opencode(dir);
            let visible: Vec<&(&Path, &str, bool)> = themes
                .iter()
                .filter(|(d, _, _)| {
                    user || Some(*d) == global || d.parent().zip(start).is_some_and(|(p, s)| s.starts_with(p))
                })
                .collect();
            let custom: Vec<&str> = visible.iter().map(|(_, n, _)| *n).collect();
            let broken = visible.iter().find(|(_, _, parses)| !parses).map(|(d, n, _)| {
                let folder = d.file_name().map(|f| f.to_string_lossy()).unwrap_or_default();
                format!("{folder}/themes/{n}.json")
            });
            if let Some(d) = theme::check_choice(wanted, v.span, &custom, broken.as_deref(), global.is_some()) {
                out.push((id, d));
            }
        }
        out
    }

    /// The checks across Claude Code's output styles and the settings that choose one (see
    /// [`claude::output_style::check_across`]).
    pub(crate) fn output_style_checks(&self) -> Vec<(usize, crate::analysis::Diagnostic)> {
        use claude::output_style::{Choice, Listed, listed_name};
        let mut styles: Vec<Listed> = Vec::new();
        let mut choices: Vec<Choice> = Vec::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            match (&f.role, &f.kind) {
                (Role::OutputStyle { dir }, FileKind::OutputStyle(origin)) => {
                    let Some(style) = f.analysis.output_style() else {
                        continue;
                    };
                    let stem = f
                        .path
                        .file_name()
                        .map(|n| n.to_string_lossy())
                        .unwrap_or_default()
                        .trim_end_matches(".md")
                        .to_string();
                    styles.push(Listed {
                        file: id,
                        name: listed_name(origin, style, &stem),
                        span: style.name_span(),
                        dir,
                        rel: f
                            .path
                            .strip_prefix(dir)
                            .unwrap_or(&f.path)
                            .to_string_lossy()
                            .replace('\\', "/"),
                        plugin: matches!(origin, claude::output_style::Origin::Plugin { .. }),
                    });
                }
                (Role::ClaudeSettings { dir }, FileKind::Settings(k)) => {
                    let applied = f.analysis.settings().is_some_and(|s| s.voided.is_none());
                    choices.push(Choice {
                        file: id,
                        root: f.analysis.parsed.root.as_ref().filter(|_| applied),
                        dir,
                        user: *k == claude::settings::SettingsFile::User,
                    });
                }
                _ => {}
            }
        }
        styles.sort_by(|a, b| self.files[a.file].path.cmp(&self.files[b.file].path));
        claude::output_style::check_across(&styles, &choices, self.options.home.as_deref())
    }

    /// `unknown-mcp-server` (info) on the `mcp__<server>__...` entries of the `tools` and
    /// `disallowedTools` of a project's Claude Code agents whose server no `.mcp.json` Claude
    /// Code reads there, no server of the user's `~/.claude.json` and no agent's own
    /// `mcpServers` declares. Only when the user's servers are known; never for user or plugin
    /// agents (they run in any project).
    pub(crate) fn mcp_tool_refs(&self) -> Vec<(usize, crate::analysis::Diagnostic)> {
        let Some(user) = &self.claude_user_servers else {
            return Vec::new();
        };
        let views = claude::views::mcp_files(self);
        let files = claude::views::files(self);
        let inline: Vec<String> = files
            .iter()
            .filter_map(|f| f.agent.setting("mcpServers"))
            .flat_map(|s| s.value.split(", ").map(str::to_string).collect::<Vec<_>>())
            .collect();
        let inline: Vec<&str> = inline.iter().map(String::as_str).collect();
        let mut out = Vec::new();
        for f in files.iter().filter(|f| f.kind.source == claude::Source::Project) {
            let refs: Vec<claude::mcp::names::ToolRef> = [&f.agent.tools, &f.agent.disallowed]
                .into_iter()
                .flatten()
                .flat_map(|l| l.items())
                .map(|i| claude::mcp::names::ToolRef {
                    text: &i.text,
                    span: i.span,
                    exact: i.exact,
                })
                .collect();
            if refs.is_empty() {
                continue;
            }
            out.extend(
                claude::mcp::names::check_refs(&refs, f.owner, &views, user, &inline)
                    .into_iter()
                    .map(|d| (f.file, d)),
            );
        }
        out
    }

    /// How cards show the machine's paths for a runtime started in `start`: relative to it, `~`
    /// for the home, skill folders as skills (as opencode's environment there finds them).
    pub fn path_names(&self, start: &Path) -> PathNames {
        opencode::views::path_names(self, start, &opencode::views::effective_env(self, start))
    }

    /// The agent names a command of `runtime` in `dir` can name, with their modes.
    pub fn agents_for_command(&self, runtime: Dialect, dir: &Path) -> Vec<(String, String)> {
        runtime.spec().command_agents(self, dir)
    }
}

/// What one dialect shows from a start directory: the files its runtime reads there and the
/// agents it builds from them.
pub struct DialectAgents<'ws> {
    pub dialect: Dialect,
    /// The files the runtime reads from the start directory (those agent-lsp did not analyse
    /// included): the ones whose problems concern it.
    pub files: Vec<usize>,
    agents: Agents<'ws>,
}

enum Agents<'ws> {
    /// opencode's effective agents of the view of the start directory.
    OpenCode(Vec<EffectiveAgent>),
    /// Claude Code's agent files, the directory they are seen from and the registry (the winning
    /// file of each name).
    Claude {
        files: Vec<ClaudeFile<'ws>>,
        dir: PathBuf,
        registry: Vec<(String, ClaudeFile<'ws>)>,
        /// The project's settings rules and `defaultMode` (what decides for its agents' tools).
        settings: ClaudeSettings<'ws>,
    },
    /// Zuno's merged agents, by name (disabled ones included).
    Zuno(BTreeMap<String, MergedAgent>),
    /// Copilot's files of the workspace folder and its custom agents by name (the first file of
    /// each name).
    Copilot {
        files: Vec<copilot::project::ViewFile<'ws>>,
        registry: Vec<(&'ws str, copilot::project::ViewFile<'ws>)>,
    },
}

/// The permission rules of a project's Claude Code settings files and its `defaultMode`, with
/// where it is written.
type ClaudeSettings<'ws> = (
    Vec<claude::policy::SettingsRule<'ws>>,
    Option<(String, Source)>,
    Vec<VoidedRules<'ws>>,
);

/// A settings file Claude Code voids: the cause (its place and words) and the rules it loses.
pub use claude::views::VoidedRules;

/// One agent of one dialect, as `explain` shows it.
pub struct ExplainedAgent<'a> {
    pub dialect: Dialect,
    /// The name it is registered under (opencode's key).
    pub name: &'a str,
    agent: AgentRef<'a>,
}

#[derive(Clone, Copy)]
enum AgentRef<'a> {
    OpenCode(&'a EffectiveAgent),
    Claude {
        file: &'a ClaudeFile<'a>,
        files: &'a [ClaudeFile<'a>],
        dir: &'a Path,
        settings: &'a ClaudeSettings<'a>,
    },
    Zuno(&'a MergedAgent),
    Copilot {
        file: copilot::project::ViewFile<'a>,
        files: &'a [copilot::project::ViewFile<'a>],
    },
}

/// How a dialect lists its agents for the terminal.
pub enum Listing {
    /// As the dialect renders its list (opencode's, like `opencode agent list`).
    Text(String),
    /// One row per agent, under the heading of the second column.
    Rows { detail: &'static str, rows: Vec<ListRow> },
}

/// One agent in a [`Listing::Rows`].
pub struct ListRow {
    pub name: String,
    /// Zuno's mode, Claude Code's model.
    pub detail: String,
    pub defined_in: String,
    /// The whole description (the CLI cuts it).
    pub description: Option<String>,
}

impl<'ws> DialectAgents<'ws> {
    /// What `dialect`'s runtime started in `start` reads and builds.
    pub fn gather(ws: &'ws Workspace, dialect: Dialect, start: &Path) -> DialectAgents<'ws> {
        let dir = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
        let (files, agents) = match dialect {
            Dialect::OpenCode => {
                let view = crate::analysis::opencode::views::view_for(ws, start);
                let agents = effective::agents(
                    &crate::analysis::opencode::views::view_files(ws, &view),
                    &crate::analysis::opencode::views::effective_env(ws, start),
                );
                (view, Agents::OpenCode(agents))
            }
            Dialect::Claude => {
                let files = claude::views::files(ws);
                let registry = claude::project::registry(&files, &dir);
                // Every Claude Code agent file, those agent-lsp did not read included.
                let ids = (0..ws.files.len())
                    .filter(|&id| matches!(ws.files[id].kind, FileKind::Claude(_)))
                    .collect();
                let (rules, mode) = claude::views::permission_rules(ws, &dir);
                let settings = (rules, mode, claude::views::voided_rules(ws, &dir));
                (
                    ids,
                    Agents::Claude {
                        files,
                        dir,
                        registry,
                        settings,
                    },
                )
            }
            Dialect::Zuno => {
                let view = zuno::dialect::view_for(ws, &dir);
                let agents = if view.is_empty() {
                    BTreeMap::new()
                } else {
                    zuno::project::registry(&zuno::dialect::view_files(ws, &view))
                };
                (view, Agents::Zuno(agents))
            }
            Dialect::Copilot => {
                // The workspace folder the start directory is in (the deepest one).
                let project = copilot::dialect::folders(ws)
                    .into_iter()
                    .filter(|p| dir.starts_with(p) || start.starts_with(p))
                    .max_by_key(|p| p.components().count());
                let ids = project.map(|p| copilot::dialect::files_of(ws, &p)).unwrap_or_default();
                let files = copilot::dialect::view_files(ws, &ids);
                let registry = copilot::project::registry(&files);
                (ids, Agents::Copilot { files, registry })
            }
            #[cfg(test)]
            Dialect::Example => (Vec::new(), Agents::Zuno(BTreeMap::new())),
        };
        DialectAgents { dialect, files, agents }
    }

    /// Whether an error that stops the runtime refuses the whole configuration (opencode, Zuno)
    /// rather than one file (Claude Code skips the file).
    pub fn refuses_configuration(&self) -> bool {
        self.dialect.refuses_configuration()
    }

    /// The agents the runtime offers (Zuno's disabled ones left out), in the dialect's order.
    pub fn agents(&self) -> Vec<ExplainedAgent<'_>> {
        match &self.agents {
            Agents::OpenCode(agents) => agents
                .iter()
                .map(|a| self.explained(AgentRef::OpenCode(a), &a.name))
                .collect(),
            Agents::Claude {
                files,
                dir,
                registry,
                settings,
            } => registry
                .iter()
                .map(|(n, file)| {
                    self.explained(
                        AgentRef::Claude {
                            file,
                            files,
                            dir,
                            settings,
                        },
                        n,
                    )
                })
                .collect(),
            Agents::Zuno(agents) => agents
                .iter()
                .filter(|(_, a)| !a.flag("disable"))
                .map(|(n, a)| self.explained(AgentRef::Zuno(a), n))
                .collect(),
            Agents::Copilot { files, registry } => registry
                .iter()
                .map(|(n, f)| self.explained(AgentRef::Copilot { file: *f, files }, n))
                .collect(),
        }
    }

    /// The agent called `name` (opencode: by key, else by display name).
    pub fn find(&self, name: &str) -> Option<ExplainedAgent<'_>> {
        match &self.agents {
            Agents::OpenCode(agents) => agents
                .iter()
                .find(|a| a.name == name)
                .or_else(|| agents.iter().find(|a| shown_name(a) == name))
                .map(|a| self.explained(AgentRef::OpenCode(a), &a.name)),
            // The registry holds one file per name: its agent is the one of that name.
            Agents::Claude { .. } => self.agents().into_iter().find(|a| a.name == name),
            Agents::Zuno(agents) => agents
                .get_key_value(name)
                .filter(|(_, a)| !a.flag("disable"))
                .map(|(n, a)| self.explained(AgentRef::Zuno(a), n)),
            Agents::Copilot { .. } => self.agents().into_iter().find(|a| a.name == name),
        }
    }

    /// Every name an agent has here (Zuno's disabled ones included), for suggestions.
    pub fn names(&self) -> Vec<&str> {
        match &self.agents {
            Agents::OpenCode(agents) => agents.iter().map(|a| a.name.as_str()).collect(),
            Agents::Claude { registry, .. } => registry.iter().map(|(n, _)| n.as_str()).collect(),
            Agents::Zuno(agents) => agents.keys().map(String::as_str).collect(),
            Agents::Copilot { registry, .. } => registry.iter().map(|(n, _)| *n).collect(),
        }
    }

    /// The list for the terminal; `marked` says which agents to mark as having problems.
    pub fn listing(&self, where_is: WhereIs, marked: &dyn Fn(&ExplainedAgent) -> bool) -> Listing {
        match &self.agents {
            Agents::OpenCode(agents) => {
                let marked = |a: &EffectiveAgent| marked(&self.explained(AgentRef::OpenCode(a), &a.name));
                Listing::Text(opencode_card::list(agents, where_is, &marked))
            }
            Agents::Claude {
                files, dir, registry, ..
            } => Listing::Rows {
                detail: "model",
                rows: registry
                    .iter()
                    .map(|(n, f)| {
                        let at = definers(files, dir, n, where_is)
                            .into_iter()
                            .next()
                            .map(|d| d.location)
                            .unwrap_or_default();
                        let model = f
                            .agent
                            .setting("model")
                            .map_or("(inherit)".to_string(), |s| s.value.to_string());
                        ListRow {
                            name: n.clone(),
                            detail: model,
                            defined_in: at,
                            description: f.agent.description.clone(),
                        }
                    })
                    .collect(),
            },
            Agents::Zuno(agents) => Listing::Rows {
                detail: "mode",
                rows: agents
                    .values()
                    .filter(|a| !a.flag("disable") && !a.flag("hidden"))
                    .map(|a| ListRow {
                        name: a.name.clone(),
                        detail: a.mode().to_string(),
                        defined_in: a.definitions.last().map(|s| where_is(*s)).unwrap_or_default(),
                        description: a.str("description").map(str::to_string),
                    })
                    .collect(),
            },
            Agents::Copilot { registry, .. } => Listing::Rows {
                detail: "model",
                rows: registry
                    .iter()
                    .map(|(n, f)| ListRow {
                        name: n.to_string(),
                        detail: f
                            .facts
                            .models
                            .first()
                            .map_or("(the chat's)".to_string(), |m| m.name.clone()),
                        defined_in: where_is(copilot::dialect::source(f)),
                        description: f.facts.description.clone(),
                    })
                    .collect(),
            },
        }
    }

    /// Its part of `explain --matrix`; `None` when the dialect has none.
    pub fn matrix(&self) -> Option<MatrixPart> {
        match &self.agents {
            Agents::OpenCode(agents) => Some(opencode::explain::matrix(agents)),
            Agents::Claude { registry, .. } => {
                let agents: Vec<(&str, &claude::Agent)> = registry.iter().map(|(n, f)| (n.as_str(), f.agent)).collect();
                claude::explain::matrix(&agents)
            }
            Agents::Zuno(_) => None,
            Agents::Copilot { registry, .. } => {
                let agents: Vec<(&str, &copilot::CopilotFile)> = registry.iter().map(|(n, f)| (*n, f.facts)).collect();
                copilot::explain::matrix(&agents)
            }
        }
    }

    /// Its part of `explain --graph` (`collapse`: one edge to `*` for an agent that may start
    /// every subagent alike).
    pub fn graph(&self, collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
        match &self.agents {
            Agents::OpenCode(agents) => opencode::explain::graph(agents, collapse),
            Agents::Claude { registry, .. } => {
                let agents: Vec<(&str, &claude::Agent)> = registry.iter().map(|(n, f)| (n.as_str(), f.agent)).collect();
                claude::explain::graph(&agents)
            }
            Agents::Zuno(_) => (Vec::new(), Vec::new()),
            Agents::Copilot { registry, .. } => {
                let agents: Vec<(&str, &copilot::CopilotFile)> = registry.iter().map(|(n, f)| (*n, f.facts)).collect();
                copilot::explain::graph(&agents)
            }
        }
    }

    fn explained<'a>(&self, agent: AgentRef<'a>, name: &'a str) -> ExplainedAgent<'a> {
        ExplainedAgent {
            dialect: self.dialect,
            name,
            agent,
        }
    }
}

/// One opencode effective agent as an [`ExplainedAgent`] (policies judge agents of reduced views).
pub fn explained_opencode(a: &EffectiveAgent) -> ExplainedAgent<'_> {
    ExplainedAgent {
        dialect: Dialect::OpenCode,
        name: &a.name,
        agent: AgentRef::OpenCode(a),
    }
}

impl<'a> ExplainedAgent<'a> {
    /// The files its definition rests on: those whose problems concern it.
    pub fn problem_files(&self) -> Vec<usize> {
        match self.agent {
            AgentRef::OpenCode(a) => files_of(&a.definitions),
            AgentRef::Claude { file, .. } => vec![file.file],
            AgentRef::Zuno(a) => files_of(&a.definitions),
            AgentRef::Copilot { file, .. } => vec![file.file],
        }
    }

    /// Its entry in the JSON list of agents (without its problems).
    pub fn list_json(&self, where_is: WhereIs) -> Value {
        let dialect = self.dialect.as_str();
        match self.agent {
            AgentRef::OpenCode(a) => json!({
                "dialect": dialect,
                "name": shown_name(a),
                "key": a.name,
                "mode": a.mode.value,
                "hidden": a.hidden.value,
                "native": a.native,
                "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
            }),
            AgentRef::Claude { files, dir, .. } => {
                let defs: Vec<String> = definers(files, dir, self.name, where_is)
                    .into_iter()
                    .map(|d| d.location)
                    .collect();
                json!({"dialect": dialect, "name": self.name, "key": self.name, "defined_in": defs})
            }
            AgentRef::Zuno(a) => json!({
                "dialect": dialect,
                "name": a.name,
                "key": a.name,
                "mode": a.mode(),
                "hidden": a.flag("hidden"),
                "native": a.builtin,
                "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
            }),
            AgentRef::Copilot { file, .. } => json!({
                "dialect": dialect,
                "name": self.name,
                "key": self.name,
                "defined_in": [where_is(copilot::dialect::source(&file))],
            }),
        }
    }

    /// Its card as JSON (without its problems).
    pub fn json(&self, where_is: WhereIs) -> Value {
        match self.agent {
            AgentRef::OpenCode(a) => opencode_json(a, where_is),
            AgentRef::Claude { file, files, dir, .. } => {
                claude::card::json(file.agent, self.name, &definers(files, dir, self.name, where_is))
            }
            AgentRef::Zuno(a) => zuno::card::json(a, where_is),
            AgentRef::Copilot { file, .. } => {
                copilot::card::json(file.kind, file.facts, copilot::dialect::source(&file), where_is)
            }
        }
    }

    /// Its card, as Markdown, in full (`explain`): every permission listed.
    pub fn card(&self, where_is: WhereIs, paths: &PathNames) -> String {
        match self.agent {
            AgentRef::OpenCode(a) => opencode_card::card(a, where_is, &[], paths, opencode_card::Detail::Full),
            AgentRef::Claude {
                file,
                files,
                dir,
                settings: (rules, mode, voided),
            } => {
                let mode = mode.as_ref().map(|(m, s)| (m.as_str(), *s));
                let mut card = claude::card::card(file.agent, self.name, &definers(files, dir, self.name, where_is));
                card.push_str(&claude::policy::settings_section(file.agent, rules, mode, where_is));
                for (cause, why, lost) in voided {
                    card.push_str(&claude::policy::voided_section(file.agent, *cause, why, lost, where_is));
                }
                card
            }
            AgentRef::Zuno(a) => zuno::card::card(a, where_is),
            AgentRef::Copilot { file, files } => {
                let cx = copilot::card::Context { files };
                copilot::card::card(file.kind, file.facts, copilot::dialect::source(&file), &cx, where_is)
            }
        }
    }

    /// The agent's own answer to one permission question, when its dialect answers it
    /// itself: opencode's merged agent (its last matching rule), Claude Code's tool grant beside
    /// `row`, the decision `explain --who` gives (`None` when Claude Code does not load it).
    /// `None` for the dialects `explain --who` answers for.
    pub fn decide(
        &self,
        permission: &str,
        input: &str,
        row: &dyn Fn() -> Option<Value>,
        where_is: WhereIs,
    ) -> Option<Result<Value, String>> {
        match self.agent {
            AgentRef::OpenCode(a) => Some(Ok(opencode::explain::decide(a, permission, input, where_is))),
            AgentRef::Claude { file, .. } => Some(claude::explain::decide(
                (file.agent, file.file),
                permission,
                input,
                row(),
                where_is,
            )),
            AgentRef::Zuno(_) | AgentRef::Copilot { .. } => None,
        }
    }

    /// The agent's mode as its runtime reads it (`primary`, `subagent`, `all`); `None` for a
    /// runtime without modes (Claude Code).
    pub fn mode(&self) -> Option<&'a str> {
        match self.agent {
            AgentRef::OpenCode(a) => Some(a.mode.value.as_str()),
            AgentRef::Claude { .. } | AgentRef::Copilot { .. } => None,
            AgentRef::Zuno(a) => Some(a.mode()),
        }
    }

    /// The agent's rules for a policy's `permission`, one ruleset per tool it stands for (with
    /// the tool's name; Claude Code's `edit` is four tools), or `None` when its runtime has no
    /// such permission. `home` expands `~` in opencode patterns.
    pub fn rulesets(&self, ws: &Workspace, permission: &str, home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        match self.agent {
            AgentRef::OpenCode(a) => {
                let key = opencode::policy::permission_for(permission);
                Some(vec![(key, opencode::policy::ruleset(a, permission, home))])
            }
            AgentRef::Claude { file, dir, .. } => {
                let tools = claude::policy::tools_for(permission)?;
                let (rules, mode) = claude::views::permission_rules(ws, dir);
                let root = dir.to_string_lossy();
                let places = claude::policy::Places { root: &root, home };
                let mode = mode
                    .as_ref()
                    .map(|(m, s)| claude::policy::DefaultMode { mode: m, source: *s });
                let voided = claude::views::voided_rules(ws, dir);
                Some(
                    tools
                        .into_iter()
                        .map(|t| {
                            let mut r = claude::policy::ruleset(file.agent, file.file, t, &rules, mode, places);
                            // What a voided settings file would decide: said beside the answer.
                            for (cause, why, lost) in &voided {
                                let v = claude::policy::ruleset(file.agent, file.file, t, lost, mode, places);
                                if !v.rules.is_empty() {
                                    r.unapplied.push(crate::analysis::policy::judge::Unapplied {
                                        rules: v.rules,
                                        cause: *cause,
                                        why: why.clone(),
                                    });
                                }
                            }
                            (t.to_string(), r)
                        })
                        .collect(),
                )
            }
            AgentRef::Zuno(a) => {
                let key = zuno::policy::permission_for(permission).to_string();
                Some(vec![(key, zuno::policy::ruleset(a, permission))])
            }
            // Copilot has tool sets, not rules: decided where the agent lacks them (see
            // `copilot::policy`).
            AgentRef::Copilot { file, .. } => {
                let r = copilot::policy::ruleset(file.file, file.kind, file.facts, permission)?;
                Some(vec![(copilot::policy::set_for(permission)?.to_string(), r)])
            }
        }
    }

    /// Where the agent is defined last (its file and the span of its definition); `None` for
    /// a built-in agent no file touches.
    pub fn defined_at(&self) -> Option<Source> {
        match self.agent {
            AgentRef::OpenCode(a) => a
                .definitions
                .iter()
                .rev()
                .find(|s| matches!(s, Source::File { .. }))
                .copied(),
            AgentRef::Claude { file, .. } => Some(Source::File {
                file: file.file,
                span: file.agent.name_span,
            }),
            AgentRef::Zuno(a) => a
                .definitions
                .iter()
                .rev()
                .find(|s| matches!(s, Source::File { .. }))
                .copied(),
            AgentRef::Copilot { file, .. } => Some(copilot::dialect::source(&file)),
        }
    }
}

/// `Some(why)` when file `f` would define agent `name`, `why` being the reason its runtime
/// does not load it when the dialect says one (Claude Code's skipped files).
pub fn would_define(f: &File, name: &str) -> Option<Option<String>> {
    match &f.kind {
        FileKind::Claude(k) => {
            let c = f.analysis.claude();
            let named = c.and_then(|c| c.agent.name.as_deref()).unwrap_or(&k.stem);
            let why = match c.map(|c| &c.agent.status) {
                Some(claude::agent::Status::Skipped(why)) => Some(format!("Claude Code skips this file ({why})")),
                Some(claude::agent::Status::NotAgent(why)) => {
                    Some(format!("Claude Code does not read it as an agent ({why})"))
                }
                _ => None,
            };
            (named == name).then_some(why)
        }
        FileKind::OpenCode(opencode::FileKind::Agent { name: n } | opencode::FileKind::Mode { name: n })
        | FileKind::Zuno(zuno::FileKind::Agent { name: n } | zuno::FileKind::Mode { name: n }) => {
            (n == name).then_some(None)
        }
        _ => None,
    }
}

fn opencode_json(a: &EffectiveAgent, where_is: WhereIs) -> Value {
    let v = |x: Option<Value>| x.unwrap_or(Value::Null);
    json!({
        "name": shown_name(a),
        "key": a.name,
        "mode": a.mode.value,
        "hidden": a.hidden.value,
        "native": a.native,
        "model": v(a.model.as_ref().map(|s| json!(s.value))),
        "variant": v(a.variant.as_ref().map(|s| json!(s.value))),
        "temperature": v(a.temperature.as_ref().map(|s| json!(s.value))),
        "top_p": v(a.top_p.as_ref().map(|s| json!(s.value))),
        "steps": v(a.steps.as_ref().map(|s| json!(s.value))),
        "color": v(a.color.as_ref().map(|s| json!(s.value))),
        "description": v(a.description.as_ref().map(|s| json!(s.value))),
        "prompt": opencode_card::prompt_text(&a.prompt.value),
        "options": a.options.iter().map(|(k, s)| (k.clone(), s.value.clone())).collect::<serde_json::Map<String, Value>>(),
        "permission": a.permission.iter().map(|r| opencode::explain::rule_json(r, where_is)).collect::<Vec<_>>(),
        "decisions": a.decisions().into_iter().map(|(k, act)| (k, json!(act))).collect::<serde_json::Map<String, Value>>(),
        "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
    })
}

/// The name opencode shows: the display name of a config entry, else the key.
fn shown_name(a: &EffectiveAgent) -> &str {
    a.display_name.as_ref().map_or(a.name.as_str(), |d| d.value.as_str())
}

/// The files among `definitions` (not the built-in).
fn files_of(definitions: &[Source]) -> Vec<usize> {
    definitions
        .iter()
        .filter_map(|s| match *s {
            Source::File { file, .. } => Some(file),
            Source::BuiltIn => None,
        })
        .collect()
}

/// The Claude Code files that define `name` seen from `dir`, in precedence order.
fn definers(files: &[ClaudeFile], dir: &Path, name: &str, where_is: WhereIs) -> Vec<claude::card::Definer> {
    claude::project::candidates(files, dir, name)
        .iter()
        .map(|f| claude::card::Definer {
            location: where_is(Source::File {
                file: f.file,
                span: f.agent.name_span,
            }),
            source: f.kind.source.label(),
        })
        .collect()
}

/// `path` as written from folder `from` (`CLAUDE.md`, `.claude/CLAUDE.md`, `../CLAUDE.md`).
pub(super) fn relative_to(path: &Path, from: &Path) -> String {
    let common = from.ancestors().find(|a| path.starts_with(a));
    let Some(common) = common else {
        return path.display().to_string();
    };
    let ups = from.components().count() - common.components().count();
    let mut out: Vec<String> = vec!["..".into(); ups];
    out.extend(
        path.strip_prefix(common)
            .unwrap_or(path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    out.join("/")
}
