//! What a Zuno file is (decided by the caller from its path) and what it declares: agents and
//! the names it refers to.

use crate::analysis::syntax::Node;
use crate::analysis::text::Span;

/// What a file is to Zuno; decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `zuno.json` or `zuno.jsonc`.
    Config,
    /// A Markdown agent; `name` is derived from the path (`agents/team/x.md` is `team/x`).
    Agent { name: String },
    /// A Markdown file in a `mode/` or `modes/` folder, which Zuno rejects.
    Mode { name: String },
}

/// One agent as one file declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentDecl {
    pub name: String,
    /// The JSON key, the frontmatter `name` value, or the opening `---`.
    pub span: Span,
    /// The agent's settings (`None` for a Markdown agent without frontmatter).
    pub node: Option<Node>,
    pub markdown: bool,
}

/// A reference to an agent or skill by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameRef {
    pub name: String,
    pub span: Span,
    pub kind: RefKind,
    /// The agent whose field holds it (`None` for `default_agent`).
    pub from: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    DefaultAgent,
    Delegate,
    RequiredSkill,
}

/// What a Zuno file yields on its own.
#[derive(Clone, Debug, Default)]
pub struct ZunoFile {
    pub agents: Vec<AgentDecl>,
    pub refs: Vec<NameRef>,
    /// For Markdown files: where the frontmatter is.
    pub yaml: Option<Span>,
    pub close: Option<Span>,
}
