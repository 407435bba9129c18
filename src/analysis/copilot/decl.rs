//! What a Copilot file is (decided by the caller from its path) and what it declares.

use super::schema::Kind;
use crate::analysis::text::Span;

/// What a file is to Copilot; decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A custom agent; `name` is its file name without `.agent.md` (or `.chatmode.md`, `.md`).
    Agent { name: String, form: AgentForm },
    /// A prompt file; `name` is its file name without `.prompt.md`.
    Prompt { name: String },
    /// An instructions file; `name` is its file name without `.instructions.md`.
    Instructions { name: String },
    /// `.github/copilot-instructions.md`: added to every request, no frontmatter read.
    RepoInstructions,
    /// `.vscode/mcp.json`: the workspace's MCP servers for VS Code.
    Mcp,
}

/// How an agent file is named and where it sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentForm {
    /// `.github/agents/<name>.agent.md`.
    AgentMd,
    /// `.github/agents/<name>.md`: read as an agent too.
    PlainMd,
    /// `<name>.chatmode.md`, the older chat mode: read as an agent, to be renamed.
    ChatMode,
}

impl FileKind {
    /// The kind of frontmatter the file has (`None`: a file without one).
    pub fn header(&self) -> Option<Kind> {
        match self {
            FileKind::Agent { .. } => Some(Kind::Agent),
            FileKind::Prompt { .. } => Some(Kind::Prompt),
            // VS Code reads `copilot-instructions.md` as an instructions file too.
            FileKind::Instructions { .. } | FileKind::RepoInstructions => Some(Kind::Instructions),
            FileKind::Mcp => None,
        }
    }

    /// The name the file gives when its frontmatter names none.
    pub fn file_name(&self) -> Option<&str> {
        match self {
            FileKind::Agent { name, .. } | FileKind::Prompt { name } | FileKind::Instructions { name } => Some(name),
            FileKind::RepoInstructions | FileKind::Mcp => None,
        }
    }

    /// How an agent file's name ends after the agent's name (`.agent.md`, `.chatmode.md`,
    /// `.md`): a rename of an agent named by its file keeps it.
    pub fn agent_suffix(&self) -> Option<&'static str> {
        match self {
            FileKind::Agent { form, .. } => Some(match form {
                AgentForm::AgentMd => ".agent.md",
                AgentForm::PlainMd => ".md",
                AgentForm::ChatMode => ".chatmode.md",
            }),
            _ => None,
        }
    }

    /// Where a chat mode moves to, relative to its workspace folder
    /// (`.github/agents/<name>.agent.md`), as VS Code's "Migrate to custom agent file" moves it.
    pub fn migrated_path(&self) -> Option<String> {
        match self {
            FileKind::Agent {
                name,
                form: AgentForm::ChatMode,
            } => Some(format!(".github/agents/{name}.agent.md")),
            _ => None,
        }
    }

    /// A JSON file (`.vscode/mcp.json`).
    pub fn is_json(&self) -> bool {
        matches!(self, FileKind::Mcp)
    }
}

/// A name with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub span: Span,
}

/// One handoff of an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handoff {
    pub label: Option<String>,
    pub agent: Option<Named>,
    pub prompt: Option<String>,
    pub send: Option<bool>,
    pub model: Option<String>,
    /// The handoff's item.
    pub span: Span,
}

/// What a Copilot file declares, read from its frontmatter (or, for `mcp.json`, its servers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopilotFile {
    /// The frontmatter's `name`.
    pub name: Option<Named>,
    pub description: Option<String>,
    /// `target`, when it is one of the two values.
    pub target: Option<Named>,
    /// `tools` (`None`: not set, every tool).
    pub tools: Option<Vec<Named>>,
    /// `model`, each name of it.
    pub models: Vec<Named>,
    pub argument_hint: Option<String>,
    pub handoffs: Vec<Handoff>,
    /// `agents` (`None`: not set).
    pub agents: Option<Vec<Named>>,
    /// A prompt's `agent` (or `mode`).
    pub agent: Option<Named>,
    /// `applyTo`'s patterns, each on the span of the value that holds it.
    pub apply_to: Vec<Named>,
    /// `excludeAgent`.
    pub exclude_agent: Vec<Named>,
    /// `user-invocable` (or `user-invokable`).
    pub user_invocable: Option<bool>,
    /// `disable-model-invocation` (or `infer`, inverted).
    pub model_invocation_disabled: Option<bool>,
    /// `mcp-servers` (GitHub.com) or, in `mcp.json`, `servers`: the server names.
    pub mcp_servers: Vec<Named>,
    /// Where the frontmatter's YAML is, and its closing line.
    pub yaml: Option<Span>,
    pub close: Option<Span>,
    /// The opening `---` (the file's first line without one): where the file's agent is defined.
    pub anchor: Span,
    /// The body, the prompt.
    pub body: Span,
}

impl CopilotFile {
    /// The name the agent (or prompt) goes by: its `name`, else the file's name.
    pub fn shown_name<'a>(&'a self, kind: &'a FileKind) -> &'a str {
        self.name
            .as_ref()
            .map(|n| n.name.as_str())
            .filter(|n| !n.trim().is_empty())
            .or(kind.file_name())
            .unwrap_or("")
    }

    /// Which hosts read the file: VS Code and GitHub.com unless `target` picks one.
    pub fn targets(&self) -> (bool, bool) {
        match self.target.as_ref().map(|t| t.name.as_str()) {
            Some("vscode") => (true, false),
            Some("github-copilot") => (false, true),
            _ => (true, true),
        }
    }
}
