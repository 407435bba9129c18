//! The GitHub Copilot dialect: custom agents (`.github/agents/*.agent.md`, the legacy
//! `.github/chatmodes/*.chatmode.md`), prompt files (`.github/prompts/*.prompt.md`), instructions
//! (`.github/instructions/**/*.instructions.md`, `.github/copilot-instructions.md`) and the MCP
//! servers of `.vscode/mcp.json`, as VS Code and GitHub.com's coding agent read them.
//! Facts: [`schema`]; the judge is VS Code's own prompt-file validator (`tests/copilot_vscode/`).
//!
//! - [`schema`]: the keys of each kind of file, the hosts that read them, tool sets, agents.
//! - [`header`]: one file's frontmatter, key by key.
//! - [`mcp`]: `.vscode/mcp.json`, its servers.
//! - [`glob`]: `applyTo` patterns as VS Code matches them.
//! - [`project`]: the checks across files (handoffs, `agent`, `agents`, MCP servers, duplicates).
//! - [`card`]: the effective agent, prompt or instructions for hover and `explain`.
//! - [`complete`]: completion of keys and values.
//! - [`policy`]: an agent's tool sets for team policies and "who may" (decided only where it lacks them).

pub mod card;
pub mod complete;
pub mod glob;
pub mod header;
pub mod mcp;
pub mod policy;
pub mod project;
pub mod schema;

use super::diagnostic::{Diagnostic, Effect, Severity};
use super::rules::Code;
use super::syntax::{Parsed, frontmatter, yaml};
use super::text::Span;
use schema::Kind;

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

/// Analyse one file: its diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, CopilotFile) {
    let mut out = Vec::new();
    let (parsed, file) = match kind {
        FileKind::Mcp => mcp::analyze(text, &mut out),
        _ => markdown(kind, text, &mut out),
    };
    // Copilot refuses no configuration: a header it cannot read loses the file (GitHub.com), a
    // wrong value is ignored.
    for d in &mut out {
        if d.effect == Effect::RefusesToStart {
            d.effect = if d.code == Code::SyntaxError {
                Effect::FileIgnored
            } else {
                Effect::ValueIgnored
            };
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, file)
}

fn markdown(kind: &FileKind, text: &str, out: &mut Vec<Diagnostic>) -> (Parsed, CopilotFile) {
    let split = frontmatter::split(text);
    let mut file = CopilotFile {
        anchor: super::text::first_line(text),
        body: split.body,
        ..CopilotFile::default()
    };
    if let FileKind::Agent {
        form: AgentForm::ChatMode,
        name,
    } = kind
    {
        out.push(
            Diagnostic::new(
                Code::DeprecatedFile,
                file.anchor,
                format!(
                    "chat modes are custom agents now: VS Code reads this file as the agent `{name}` and GitHub.com does not read it; rename it to `.github/agents/{name}.agent.md`"
                ),
            )
            .with_effect(Effect::Works),
        );
    }
    let Some(header_kind) = kind.header() else {
        return (Parsed::default(), file);
    };
    let Some(fm) = split.frontmatter else {
        if let Some(open) = split.misplaced_open.or_else(|| fenced_open(text)) {
            out.push(Diagnostic::new(
                Code::MisplacedFrontmatter,
                open,
                "a frontmatter must start on the file's first line: Copilot reads this one as part of the prompt",
            ));
        }
        if header_kind == Kind::Agent && *kind != FileKind::RepoInstructions {
            out.push(
                Diagnostic::new(
                    Code::MissingField,
                    file.anchor,
                    "GitHub.com's coding agent needs a `description` in a frontmatter; VS Code takes the agent without one",
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::Works),
            );
        }
        return (Parsed::default(), file);
    };
    file.anchor = fm.open;
    file.yaml = Some(fm.yaml);
    file.close = fm.close;
    if fm.close.is_none() {
        out.push(Diagnostic::new(
            Code::SyntaxError,
            fm.open,
            "this frontmatter is never closed: Copilot reads no header and takes the whole file as the prompt",
        ));
        return (Parsed::default(), file);
    }
    // Read as js-yaml reads it: lenient where GitHub's own examples need it (a flow list closed
    // at its key's indentation), and still refusing `description: Expert: does X`.
    let parsed = yaml::parse(fm.yaml.text(text), fm.yaml.start as usize);
    header::check(kind, header_kind, &parsed, fm.open, text, &mut file, out);
    (parsed, file)
}

/// A frontmatter wrapped in a Markdown code fence (a file that starts with ```` ```chatagent ````
/// and has its `---` on the next line): Copilot reads no header.
fn fenced_open(text: &str) -> Option<Span> {
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = t.find('\n')?;
    if !t[..first_end].trim_start().starts_with("```") {
        return None;
    }
    let second = &t[first_end + 1..];
    let second = second.strip_prefix('\r').unwrap_or(second);
    second.starts_with("---").then(|| {
        let start = text.len() - second.len();
        Span::new(start, start + 3)
    })
}

#[cfg(test)]
mod tests;
