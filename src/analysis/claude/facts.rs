//! What a Claude Code file declares ([`Facts`]), by kind of file: what the shared
//! [`FileAnalysis`](crate::analysis::FileAnalysis) holds for it.

/// What a Claude Code file declares, by kind of file.
#[derive(Clone, Debug)]
pub enum Facts {
    /// An agent file: how the loader read it and the agent.
    Agent(Box<AgentFacts>),
    /// A plugin manifest: what it declares.
    Manifest(super::plugin::ManifestFile),
    /// The settings: their permission rules.
    Settings(super::settings::Settings),
    /// A plugin's `hooks/hooks.json`: the scripts its hooks run.
    PluginHooks(Vec<super::hooks::Script>),
    /// A memory file: its `@path` imports.
    Memory(super::memory::Memory),
    /// `.mcp.json` (a project's or a plugin's): the MCP servers it declares.
    Mcp(super::mcp::McpFile),
    /// An output style: the name its frontmatter gives.
    OutputStyle(super::output_style::Style),
    /// A plugin's `.lsp.json` or `monitors.json`: the servers or monitors it declares.
    PluginServers(super::plugin::servers_file::Declared),
}

/// A Claude Code agent file as the loader reads it.
#[derive(Clone, Debug)]
pub struct AgentFacts {
    pub reading: super::read::Reading,
    pub agent: super::Agent,
}
