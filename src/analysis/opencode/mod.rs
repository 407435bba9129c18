//! The opencode (V1, 1.18) dialect.
//!
//! - [`schema`]: what opencode knows, as data (fields, keys, colors, built-in agents).
//! - [`agent`]: checks of one agent's fields, shared by JSON entries and Markdown frontmatter.
//! - [`permission`]: checks of a permission block, and opencode's wildcard matching.
//! - [`config`]: checks of `opencode.json(c)` top-level keys.
//! - [`markdown`]: checks of a Markdown agent file (frontmatter and body).
//! - [`project`]: the merged agent registry and the checks that need it (`default_agent`,
//!   duplicate agents, command agents).
//! - [`command`]: the keys of a command file and how opencode reads one (for the shared
//!   template reading).
//! - [`skill`]: opencode's skill rules (for the shared skill checks).
//!
//! [`analyze`] checks one file; [`project::check`] checks a set of files that opencode would
//! load together (a "view"), in precedence order.

pub mod agent;
pub mod card;
pub mod command;
pub mod complete;
pub mod config;
pub mod effective;
pub mod markdown;
pub mod permission;
pub mod project;
pub mod schema;
pub mod skill;
pub mod substitute;

use super::syntax::Node;
use super::text::Span;

/// What a file is to opencode; decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `opencode.json`, `opencode.jsonc` or the legacy global `config.json`.
    Config,
    /// A Markdown agent from an `agent/` or `agents/` directory; `name` is derived from the path
    /// (`agents/team/reviewer.md` is `team/reviewer`).
    Agent { name: String },
    /// A Markdown agent from a deprecated `mode/` or `modes/` directory (forced `mode: primary`).
    Mode { name: String },
}

impl FileKind {
    pub fn is_markdown(&self) -> bool {
        !matches!(self, FileKind::Config)
    }
}

/// Where an agent declaration comes from within its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclOrigin {
    /// `agent.<name>` in a config.
    AgentKey,
    /// `mode.<name>` in a config (merged last, forced primary).
    ModeKey,
    /// A Markdown file in `agent(s)/`.
    Markdown,
    /// A Markdown file in `mode(s)/` (forced primary).
    ModeFile,
}

/// One agent as one file declares it. The full map is kept so that later stages (the effective
/// agent, hover) can read every field with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentDecl {
    pub name: String,
    /// The span to point at when talking about this declaration: the JSON key, the frontmatter
    /// `name` value, or the opening `---` of a Markdown file.
    pub span: Span,
    pub origin: DeclOrigin,
    /// The agent's settings (an empty map when the file has none).
    pub node: Option<Node>,
    /// For Markdown agents: the body (the prompt) is blank.
    pub body_empty: bool,
    /// For Markdown agents whose frontmatter opencode could not read: the prompt is the whole
    /// file, frontmatter included, and no setting applies.
    pub whole_file: bool,
    /// For Markdown agents: a hash of the prompt as opencode sets it (the trimmed body), to tell
    /// whether it replaces a config prompt with the same text.
    pub prompt_hash: Option<u64>,
}

impl AgentDecl {
    pub fn field(&self, key: &str) -> Option<&Node> {
        self.node.as_ref()?.as_map()?.value(key)
    }

    /// `mode` as this declaration sets it (mode files and `mode.<name>` force `primary`).
    pub fn mode(&self) -> Option<(&str, Option<Span>)> {
        match self.origin {
            DeclOrigin::ModeKey | DeclOrigin::ModeFile => Some(("primary", None)),
            _ => {
                let n = self.field("mode")?;
                Some((n.as_str()?, Some(n.span)))
            }
        }
    }

    pub fn bool_field(&self, key: &str) -> Option<(bool, Span)> {
        let n = self.field(key)?;
        Some((n.as_bool()?, n.span))
    }
}

/// A reference to an agent by name, to be resolved against the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentRef {
    pub name: String,
    pub span: Span,
    pub kind: RefKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    DefaultAgent,
    CommandAgent,
}

pub use crate::analysis::FileAnalysis;

/// Analyse one file on its own.
pub fn analyze(kind: &FileKind, text: &str) -> FileAnalysis {
    let mut analysis = match kind {
        FileKind::Config => config::analyze(text),
        FileKind::Agent { name } => markdown::analyze(text, name, DeclOrigin::Markdown),
        FileKind::Mode { name } => markdown::analyze(text, name, DeclOrigin::ModeFile),
    };
    analysis.diagnostics.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    analysis
}

/// Apply every safe fix of a file's own diagnostics, repeatedly (a fix can reveal another), and
/// return the new text with the titles of the fixes applied. Overlapping fixes wait for the
/// next round.
pub fn fix_all(kind: &FileKind, text: &str) -> (String, Vec<String>) {
    crate::analysis::fix_all_with(text, &|t| analyze(kind, t).diagnostics)
}

/// A hash of a prompt's text, to compare prompts across files without keeping the text.
pub fn prompt_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// The agent name opencode derives from a Markdown path relative to its config directory:
/// `agents/team/reviewer.md` is `team/reviewer`, `agent/foo.bar.md` is `foo.bar`.
pub fn agent_name_from_relative_path(relative: &str) -> String {
    let rel = relative.replace('\\', "/");
    let rel = ["agents/", "agent/", "modes/", "mode/"]
        .iter()
        .find_map(|p| rel.strip_prefix(p))
        .unwrap_or(&rel);
    match rel.rfind('.') {
        Some(dot) if dot > rel.rfind('/').map_or(0, |s| s + 1) => rel[..dot].to_string(),
        _ => rel.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::agent_name_from_relative_path as name;

    #[test]
    fn names_from_paths() {
        assert_eq!(name("agents/team/reviewer.md"), "team/reviewer");
        assert_eq!(name("agent/foo.bar.md"), "foo.bar");
        assert_eq!(name("mode\\debug.md"), "debug");
        assert_eq!(name("agents/neo.agent.md"), "neo.agent");
    }
}
