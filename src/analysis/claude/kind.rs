//! What a file is to Claude Code: where an agent file comes from, decided by the caller from
//! its path.

/// Where an agent file comes from; decides precedence and the plugin rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// `.claude/agents/` of a project (closest to the working directory wins).
    Project,
    /// `~/.claude/agents/`.
    User,
    /// An agent of a plugin (a directory with `.claude-plugin/plugin.json`). `plugin` is the
    /// namespace of its name: the plugin's name, then the agent's sub-folders below `agents/`
    /// (`tools:review` for `agents/review/security.md`), joined by `:` as Claude Code joins them.
    Plugin { plugin: String },
}

impl Source {
    pub fn label(&self) -> String {
        match self {
            Source::Project => "project".into(),
            Source::User => "user".into(),
            Source::Plugin { plugin } => format!("plugin {plugin}"),
        }
    }
}

/// What a file is to Claude Code; decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A subagent file: `.claude/agents/`, the user's, a plugin's `agents/`.
    Agent(AgentFile),
    /// A plugin manifest: `.claude-plugin/plugin.json` or `marketplace.json`.
    Manifest(super::plugin::Manifest),
    /// The settings, `.claude/settings.json` or `settings.local.json`, or the user's.
    Settings(super::settings::SettingsFile),
    /// A plugin's `hooks/hooks.json`.
    PluginHooks,
    /// A memory file: `CLAUDE.md`, `CLAUDE.local.md`, `.claude/CLAUDE.md`, a rule of
    /// `.claude/rules/`, the user's `~/.claude/CLAUDE.md`.
    Memory(super::memory::MemoryFile),
    /// A project's MCP servers: `.mcp.json`.
    McpJson,
    /// An output style: `.claude/output-styles/**/*.md` (a project's or the user's), a plugin's
    /// `output-styles/`.
    OutputStyle(super::output_style::Origin),
    /// A plugin's `.mcp.json`, `.lsp.json` or `monitors/monitors.json`.
    PluginServers(super::plugin::servers_file::ServersFile),
}

/// A subagent file: where it comes from and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentFile {
    pub source: Source,
    /// The file name without `.md` (a plugin agent without `name` is named after it; its
    /// sub-folders are in the namespace, see [`Source::Plugin`]).
    pub stem: String,
}

impl AgentFile {
    pub fn project(stem: &str) -> AgentFile {
        AgentFile {
            source: Source::Project,
            stem: stem.into(),
        }
    }

    pub fn is_plugin(&self) -> bool {
        matches!(self.source, Source::Plugin { .. })
    }
}

/// The size above which the loader skips a file (§7.1).
pub const MAX_BYTES: usize = 1_048_576;
