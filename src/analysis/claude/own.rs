//! What Claude Code adds to the shared [`FileKind`] and [`FileAnalysis`]: its accessors for its
//! own kinds and facts, and the conversions from each kind of its files (the registration list
//! gives those of its `FileKind` and `Facts`, see `registry.rs`).

use super::facts::{AgentFacts, Facts};
use super::hooks::Script;
use super::kind::{AgentFile, FileKind as Kind};
use super::mcp::McpFile;
use super::memory::{Memory, MemoryFile};
use super::output_style::{Origin, Style};
use super::plugin::servers_file::{Declared, ServersFile};
use super::plugin::{Manifest, ManifestFile};
use super::settings::{Settings, SettingsFile};
use crate::analysis::{FileAnalysis, FileKind};

impl FileKind {
    /// A Claude Code file: its kind.
    pub fn claude_file(&self) -> Option<&Kind> {
        self.own()
    }

    /// A Claude Code agent file: where it comes from.
    pub fn claude(&self) -> Option<&AgentFile> {
        match self.claude_file()? {
            Kind::Agent(k) => Some(k),
            _ => None,
        }
    }

    /// A Claude Code plugin manifest.
    pub fn manifest(&self) -> Option<Manifest> {
        match self.claude_file()? {
            Kind::Manifest(k) => Some(*k),
            _ => None,
        }
    }

    /// Claude Code's `.claude/settings.json` or `settings.local.json`, or the user's.
    pub fn settings(&self) -> Option<SettingsFile> {
        match self.claude_file()? {
            Kind::Settings(k) => Some(*k),
            _ => None,
        }
    }

    /// A Claude Code plugin's `hooks/hooks.json`.
    pub fn plugin_hooks() -> FileKind {
        Kind::PluginHooks.into()
    }

    /// A Claude Code plugin's `hooks/hooks.json`.
    pub fn is_plugin_hooks(&self) -> bool {
        self.claude_file() == Some(&Kind::PluginHooks)
    }

    /// A Claude Code memory file (`CLAUDE.md` and the like).
    pub fn memory(&self) -> Option<MemoryFile> {
        match self.claude_file()? {
            Kind::Memory(k) => Some(*k),
            _ => None,
        }
    }

    /// A Claude Code output style: where it is defined.
    pub fn output_style(&self) -> Option<&Origin> {
        match self.claude_file()? {
            Kind::OutputStyle(o) => Some(o),
            _ => None,
        }
    }

    /// A Claude Code plugin's server file (`.mcp.json`, `.lsp.json`, `monitors.json`).
    pub fn plugin_servers(&self) -> Option<ServersFile> {
        match self.claude_file()? {
            Kind::PluginServers(k) => Some(*k),
            _ => None,
        }
    }

    /// Claude Code's `.mcp.json`.
    pub fn is_mcp_json(&self) -> bool {
        self.claude_file() == Some(&Kind::McpJson)
    }
}

/// Each kind of Claude Code file into the shared kind.
macro_rules! into_kind {
    ($($payload:ty => $variant:ident),+ $(,)?) => {
        $(
            impl From<$payload> for FileKind {
                fn from(k: $payload) -> FileKind {
                    Kind::$variant(k).into()
                }
            }
        )+
    };
}

into_kind! {
    AgentFile => Agent,
    Manifest => Manifest,
    SettingsFile => Settings,
    MemoryFile => Memory,
    Origin => OutputStyle,
    ServersFile => PluginServers,
}

/// The accessors of Claude Code's facts on the shared `FileAnalysis`: each gives its kind of
/// file's facts, `None` for any other file.
macro_rules! facts_accessors {
    ($( $(#[doc = $doc:literal])* $name:ident -> $ty:ty = $variant:ident; )+) => {
        impl FileAnalysis {
            $(
                $(#[doc = $doc])*
                pub fn $name(&self) -> Option<&$ty> {
                    match self.own::<Facts>()? {
                        Facts::$variant(f) => Some(f),
                        _ => None,
                    }
                }
            )+
        }
    };
}

facts_accessors! {
    /// A Claude Code agent file: how the loader read it and the agent.
    claude -> AgentFacts = Agent;
    /// A plugin manifest: what it declares.
    manifest -> ManifestFile = Manifest;
    /// A plugin's `hooks/hooks.json`: the scripts its hooks run.
    plugin_hook_scripts -> [Script] = PluginHooks;
    /// Claude Code settings: their permission rules.
    settings -> Settings = Settings;
    /// Claude Code memory files: their imports.
    memory -> Memory = Memory;
    /// A plugin's `.lsp.json` or `monitors.json`: what it declares.
    plugin_servers -> Declared = PluginServers;
    /// An output style: what it declares.
    output_style -> Style = OutputStyle;
    /// `.mcp.json`: the MCP servers it declares.
    mcp -> McpFile = Mcp;
}
