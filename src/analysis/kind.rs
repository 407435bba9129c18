//! What a file is and what analysing it alone yields: [`FileKind`] (its dialect and its role in
//! that dialect), [`FileAnalysis`] and the dialect's [`Facts`]. Data and accessors only; the
//! dispatch of each capability on the kind is in `mod.rs`.

#[cfg(test)]
use super::example;
use super::syntax::Parsed;
use super::syntax::frontmatter::Split;
use super::{Diagnostic, Dialect, claude, command, copilot, opencode, project_file, skill, suppress, zuno};

/// What a file is: its dialect and its role in that dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    OpenCode(opencode::FileKind),
    Claude(claude::FileKind),
    Zuno(zuno::FileKind),
    /// A GitHub Copilot file: a custom agent, prompt, instructions, `.vscode/mcp.json`.
    Copilot(copilot::FileKind),
    #[cfg(test)]
    Example(example::FileKind),
    /// A `SKILL.md`, read by several runtimes.
    Skill(skill::SkillKind),
    /// A Markdown command (`/name`).
    Command(command::CommandKind),
    /// `agent-lsp.toml`: agent-lsp's own settings for a project.
    ProjectFile,
    /// A Claude Code plugin manifest: `.claude-plugin/plugin.json` or `marketplace.json`.
    Manifest(claude::plugin::Manifest),
    /// Claude Code's project settings, `.claude/settings.json` or `settings.local.json` (their
    /// permission rules only).
    Settings(claude::settings::SettingsFile),
    /// A Claude Code plugin's `hooks/hooks.json`.
    PluginHooks,
    /// A Claude Code memory file: `CLAUDE.md`, `CLAUDE.local.md`, `.claude/CLAUDE.md`, a rule of
    /// `.claude/rules/`, the user's `~/.claude/CLAUDE.md`.
    Memory(claude::memory::MemoryFile),
    /// A project's MCP servers for Claude Code: `.mcp.json`.
    McpJson,
    /// A Claude Code output style: `.claude/output-styles/**/*.md` (a project's or the user's), a
    /// plugin's `output-styles/`.
    OutputStyle(claude::output_style::Origin),
    /// A Claude Code plugin's `.mcp.json`, `.lsp.json` or `monitors/monitors.json`.
    PluginServers(claude::plugin::servers_file::ServersFile),
}

impl FileKind {
    pub fn dialect(&self) -> Dialect {
        match self {
            FileKind::OpenCode(_) => Dialect::OpenCode,
            FileKind::Claude(_) => Dialect::Claude,
            FileKind::Zuno(_) => Dialect::Zuno,
            FileKind::Copilot(_) => Dialect::Copilot,
            #[cfg(test)]
            FileKind::Example(_) => Dialect::Example,
            FileKind::Skill(k) => k.family,
            FileKind::Command(k) => k.runtime,
            // Not a runtime's file; it is checked whatever the dialects (see `project_file`).
            FileKind::ProjectFile => Dialect::OpenCode,
            FileKind::Manifest(_)
            | FileKind::Settings(_)
            | FileKind::PluginHooks
            | FileKind::Memory(_)
            | FileKind::McpJson
            | FileKind::OutputStyle(_)
            | FileKind::PluginServers(_) => Dialect::Claude,
        }
    }

    /// A Markdown file (an opencode agent or mode, a Claude Code or Zuno agent).
    pub fn is_markdown(&self) -> bool {
        !self.is_config()
            && !matches!(
                self,
                FileKind::Zuno(zuno::FileKind::Config)
                    | FileKind::Copilot(copilot::FileKind::Mcp)
                    | FileKind::OpenCode(opencode::FileKind::Tui)
                    | FileKind::OpenCode(opencode::FileKind::Theme)
                    | FileKind::ProjectFile
                    | FileKind::Manifest(_)
                    | FileKind::Settings(_)
                    | FileKind::PluginHooks
                    | FileKind::McpJson
                    | FileKind::PluginServers(_)
            )
    }

    /// Where the file's comments are, for `agent-lsp: ignore` directives.
    pub fn comments(&self) -> suppress::Comments {
        match self {
            // Claude Code reads settings as strict JSON: no comment to hold a directive.
            FileKind::ProjectFile
            | FileKind::Manifest(_)
            | FileKind::Settings(_)
            | FileKind::PluginHooks
            | FileKind::McpJson
            | FileKind::PluginServers(_)
            | FileKind::OpenCode(opencode::FileKind::Theme) => suppress::Comments::None,
            k if k.is_markdown() => suppress::Comments::Frontmatter,
            _ => suppress::Comments::Jsonc,
        }
    }

    /// An opencode config file (`opencode.json(c)`).
    pub fn is_config(&self) -> bool {
        matches!(self, FileKind::OpenCode(opencode::FileKind::Config))
    }

    /// opencode's `tui.json(c)`: the terminal interface's settings.
    pub fn is_tui(&self) -> bool {
        matches!(self, FileKind::OpenCode(opencode::FileKind::Tui))
    }

    /// A custom theme of opencode's terminal interface (`themes/*.json`).
    pub fn is_theme(&self) -> bool {
        matches!(self, FileKind::OpenCode(opencode::FileKind::Theme))
    }

    pub fn opencode(&self) -> Option<&opencode::FileKind> {
        match self {
            FileKind::OpenCode(k) => Some(k),
            _ => None,
        }
    }

    /// A Claude Code agent file: where it comes from.
    pub fn claude(&self) -> Option<&claude::FileKind> {
        match self {
            FileKind::Claude(k) => Some(k),
            _ => None,
        }
    }

    /// A GitHub Copilot file.
    pub fn copilot(&self) -> Option<&copilot::FileKind> {
        match self {
            FileKind::Copilot(k) => Some(k),
            _ => None,
        }
    }

    /// A Zuno file (`zuno.json(c)` or a Markdown agent).
    pub fn zuno(&self) -> Option<&zuno::FileKind> {
        match self {
            FileKind::Zuno(k) => Some(k),
            _ => None,
        }
    }

    /// A `SKILL.md`.
    pub fn skill(&self) -> Option<&skill::SkillKind> {
        match self {
            FileKind::Skill(k) => Some(k),
            _ => None,
        }
    }

    /// A command file.
    pub fn command(&self) -> Option<&command::CommandKind> {
        match self {
            FileKind::Command(k) => Some(k),
            _ => None,
        }
    }

    /// A Claude Code plugin manifest.
    pub fn manifest(&self) -> Option<claude::plugin::Manifest> {
        match self {
            FileKind::Manifest(k) => Some(*k),
            _ => None,
        }
    }

    /// Claude Code's `.claude/settings.json` or `settings.local.json`.
    pub fn settings(&self) -> Option<claude::settings::SettingsFile> {
        match self {
            FileKind::Settings(k) => Some(*k),
            _ => None,
        }
    }

    /// A Claude Code plugin's `hooks/hooks.json`.
    pub fn plugin_hooks() -> FileKind {
        FileKind::PluginHooks
    }

    /// A Claude Code plugin's `hooks/hooks.json`.
    pub fn is_plugin_hooks(&self) -> bool {
        matches!(self, FileKind::PluginHooks)
    }

    /// A Claude Code memory file (`CLAUDE.md` and the like).
    pub fn memory(&self) -> Option<claude::memory::MemoryFile> {
        match self {
            FileKind::Memory(k) => Some(*k),
            _ => None,
        }
    }

    /// A Claude Code output style: where it is defined.
    pub fn output_style(&self) -> Option<&claude::output_style::Origin> {
        match self {
            FileKind::OutputStyle(o) => Some(o),
            _ => None,
        }
    }

    /// A Claude Code plugin's server file (`.mcp.json`, `.lsp.json`, `monitors.json`).
    pub fn plugin_servers(&self) -> Option<claude::plugin::servers_file::ServersFile> {
        match self {
            FileKind::PluginServers(k) => Some(*k),
            _ => None,
        }
    }

    /// Claude Code's `.mcp.json`.
    pub fn is_mcp_json(&self) -> bool {
        matches!(self, FileKind::McpJson)
    }

    /// `agent-lsp.toml`: agent-lsp's own settings for a project.
    pub fn is_project_file(&self) -> bool {
        matches!(self, FileKind::ProjectFile)
    }
}

impl From<skill::SkillKind> for FileKind {
    fn from(k: skill::SkillKind) -> FileKind {
        FileKind::Skill(k)
    }
}

impl From<command::CommandKind> for FileKind {
    fn from(k: command::CommandKind) -> FileKind {
        FileKind::Command(k)
    }
}

impl From<claude::plugin::Manifest> for FileKind {
    fn from(k: claude::plugin::Manifest) -> FileKind {
        FileKind::Manifest(k)
    }
}

impl From<claude::settings::SettingsFile> for FileKind {
    fn from(k: claude::settings::SettingsFile) -> FileKind {
        FileKind::Settings(k)
    }
}

impl From<claude::plugin::servers_file::ServersFile> for FileKind {
    fn from(k: claude::plugin::servers_file::ServersFile) -> FileKind {
        FileKind::PluginServers(k)
    }
}

impl From<claude::output_style::Origin> for FileKind {
    fn from(k: claude::output_style::Origin) -> FileKind {
        FileKind::OutputStyle(k)
    }
}

impl From<claude::memory::MemoryFile> for FileKind {
    fn from(k: claude::memory::MemoryFile) -> FileKind {
        FileKind::Memory(k)
    }
}

impl From<opencode::FileKind> for FileKind {
    fn from(k: opencode::FileKind) -> FileKind {
        FileKind::OpenCode(k)
    }
}

impl From<zuno::FileKind> for FileKind {
    fn from(k: zuno::FileKind) -> FileKind {
        FileKind::Zuno(k)
    }
}

impl From<copilot::FileKind> for FileKind {
    fn from(k: copilot::FileKind) -> FileKind {
        FileKind::Copilot(k)
    }
}

impl From<claude::FileKind> for FileKind {
    fn from(k: claude::FileKind) -> FileKind {
        FileKind::Claude(k)
    }
}

/// A Claude Code agent file as the loader reads it.
#[derive(Clone, Debug)]
pub struct ClaudeFile {
    pub reading: claude::read::Reading,
    pub agent: claude::Agent,
}

/// Everything known about one file after analysing it alone: what every file has (its tree,
/// its diagnostics, its suppression comments) and what its dialect makes of it ([`Facts`]).
#[derive(Clone, Debug, Default)]
pub struct FileAnalysis {
    pub parsed: Parsed,
    pub diagnostics: Vec<Diagnostic>,
    /// The `agent-lsp: ignore[...]` comments of the file (applied where the file's full
    /// diagnostics are assembled, see [`suppress::apply`]).
    pub suppressions: suppress::Suppressions,
    /// What the file declares, in its dialect's terms.
    pub facts: Facts,
}

/// What a file declares, one variant per kind of file.
#[derive(Clone, Debug, Default)]
pub enum Facts {
    /// Nothing (a file not analysed, or a kind that declares nothing).
    #[default]
    None,
    /// opencode files: the agents declared, the names referred to, how Markdown was read.
    OpenCode(Box<opencode::Facts>),
    /// Claude Code agent files: the reading and the agent.
    Claude(Box<ClaudeFile>),
    /// Zuno files: the agents declared and the names referred to.
    Zuno(Box<zuno::ZunoFile>),
    /// GitHub Copilot files: what their frontmatter (or `mcp.json`) declares.
    Copilot(Box<copilot::CopilotFile>),
    #[cfg(test)]
    Example(Box<example::Facts>),
    /// `SKILL.md` files: the skill declared.
    Skill(Box<skill::SkillDecl>),
    /// Command files: the command declared.
    Command(Box<command::CommandDecl>),
    /// `agent-lsp.toml`: what it sets.
    Project(Box<project_file::ProjectFile>),
    /// Plugin manifests: what they declare.
    Manifest(Box<claude::plugin::ManifestFile>),
    /// Claude Code settings: their permission rules.
    Settings(Box<claude::settings::Settings>),
    /// A plugin's `hooks/hooks.json`: the scripts its hooks run.
    PluginHooks(Vec<claude::hooks::Script>),
    /// Claude Code memory files: their `@path` imports.
    Memory(Box<claude::memory::Memory>),
    /// `.mcp.json`: the MCP servers it declares.
    Mcp(Box<claude::mcp::McpFile>),
    /// Output styles: the name their frontmatter gives.
    OutputStyle(Box<claude::output_style::Style>),
    /// A plugin's `.lsp.json` or `monitors.json`: the servers or monitors it declares.
    PluginServers(Box<claude::plugin::servers_file::Declared>),
}

/// An opencode file's facts when the file is not one (no agents, no references).
static NO_OPENCODE_FACTS: opencode::Facts = opencode::Facts {
    split: None,
    reading: None,
    agents: Vec::new(),
    refs: Vec::new(),
    has_plugins: false,
    paths: Vec::new(),
};

impl FileAnalysis {
    /// What a dialect's reading of one file gives: its tree, its diagnostics and its facts (the
    /// suppression comments are read after).
    pub fn of(parsed: Parsed, diagnostics: Vec<Diagnostic>, facts: Facts) -> FileAnalysis {
        FileAnalysis {
            parsed,
            diagnostics,
            facts,
            ..FileAnalysis::default()
        }
    }

    /// An opencode file's facts (empty for any other file).
    pub fn opencode(&self) -> &opencode::Facts {
        match &self.facts {
            Facts::OpenCode(f) => f,
            _ => &NO_OPENCODE_FACTS,
        }
    }

    /// opencode agents this file declares, in file order.
    pub fn agents(&self) -> &[opencode::AgentDecl] {
        &self.opencode().agents
    }

    /// opencode agent names this file refers to (`default_agent`, command `agent`).
    pub fn refs(&self) -> &[opencode::AgentRef] {
        &self.opencode().refs
    }

    /// opencode Markdown files: where the frontmatter and body are.
    pub fn split(&self) -> Option<&Split> {
        self.opencode().split.as_ref()
    }

    /// opencode Markdown files: how opencode reads it.
    pub fn reading(&self) -> Option<opencode::markdown::Reading> {
        self.opencode().reading
    }

    /// The opencode config lists plugins, which may define agents this analysis cannot see.
    pub fn has_plugins(&self) -> bool {
        self.opencode().has_plugins
    }

    pub fn claude(&self) -> Option<&ClaudeFile> {
        match &self.facts {
            Facts::Claude(f) => Some(f),
            _ => None,
        }
    }

    pub fn copilot(&self) -> Option<&copilot::CopilotFile> {
        match &self.facts {
            Facts::Copilot(f) => Some(f),
            _ => None,
        }
    }

    pub fn zuno(&self) -> Option<&zuno::ZunoFile> {
        match &self.facts {
            Facts::Zuno(f) => Some(f),
            _ => None,
        }
    }

    pub fn skill(&self) -> Option<&skill::SkillDecl> {
        match &self.facts {
            Facts::Skill(f) => Some(f),
            _ => None,
        }
    }

    pub fn command(&self) -> Option<&command::CommandDecl> {
        match &self.facts {
            Facts::Command(f) => Some(f),
            _ => None,
        }
    }

    pub fn project(&self) -> Option<&project_file::ProjectFile> {
        match &self.facts {
            Facts::Project(f) => Some(f),
            _ => None,
        }
    }

    pub fn manifest(&self) -> Option<&claude::plugin::ManifestFile> {
        match &self.facts {
            Facts::Manifest(f) => Some(f),
            _ => None,
        }
    }

    /// Claude Code settings: their permission rules.
    /// A plugin's `hooks/hooks.json`: the scripts its hooks run.
    pub fn plugin_hook_scripts(&self) -> Option<&[claude::hooks::Script]> {
        match &self.facts {
            Facts::PluginHooks(s) => Some(s),
            _ => None,
        }
    }

    pub fn settings(&self) -> Option<&claude::settings::Settings> {
        match &self.facts {
            Facts::Settings(f) => Some(f),
            _ => None,
        }
    }

    /// Claude Code memory files: their imports.
    pub fn memory(&self) -> Option<&claude::memory::Memory> {
        match &self.facts {
            Facts::Memory(f) => Some(f),
            _ => None,
        }
    }

    /// A plugin's `.lsp.json` or `monitors.json`: what it declares.
    pub fn plugin_servers(&self) -> Option<&claude::plugin::servers_file::Declared> {
        match &self.facts {
            Facts::PluginServers(f) => Some(f),
            _ => None,
        }
    }

    /// An output style: what it declares.
    pub fn output_style(&self) -> Option<&claude::output_style::Style> {
        match &self.facts {
            Facts::OutputStyle(f) => Some(f),
            _ => None,
        }
    }

    /// `.mcp.json`: the MCP servers it declares.
    pub fn mcp(&self) -> Option<&claude::mcp::McpFile> {
        match &self.facts {
            Facts::Mcp(f) => Some(f),
            _ => None,
        }
    }

    /// The file as opencode reads it after `{env:}`/`{file:}` substitution (`None` when
    /// nothing changes or the file is not opencode's).
    pub fn substituted(&self, value: &dyn Fn(&str) -> Option<String>) -> Option<FileAnalysis> {
        let Facts::OpenCode(facts) = &self.facts else {
            return None;
        };
        let (parsed, facts) = opencode::substitute::apply(&self.parsed, facts, value)?;
        Some(FileAnalysis {
            parsed,
            diagnostics: self.diagnostics.clone(),
            suppressions: self.suppressions.clone(),
            facts: Facts::OpenCode(Box::new(facts)),
        })
    }

    /// The file's syntax parsed as written, by agent-lsp and by the runtime's first pass (a
    /// runtime's retry may read a new ` # ...` comment as part of a value).
    pub fn parses_as_written(&self) -> bool {
        self.parsed.errors.is_empty()
            && self.reading().is_none_or(|r| r == opencode::markdown::Reading::Parsed)
            && self.claude().is_none_or(|c| c.reading.first_errors.is_empty())
    }

    /// The file as opencode's project pass sees it.
    pub fn opencode_view(&self, file: usize, group: usize) -> opencode::project::ViewFile<'_> {
        opencode::project::ViewFile {
            file,
            parsed: &self.parsed,
            facts: self.opencode(),
            group,
        }
    }
}
