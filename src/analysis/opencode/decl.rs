//! What a file is to opencode (decided by the caller from its path) and what it declares: the
//! agents, the names it refers to, how a Markdown file was read.

use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::syntax::frontmatter::Split;
use crate::analysis::syntax::{Node, Parsed};
use crate::analysis::text::Span;

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
    /// `tui.json` or `tui.jsonc`: the settings of opencode's terminal interface (theme,
    /// keybinds, scrolling...), read apart from the config.
    Tui,
    /// A custom theme of the terminal interface: `themes/*.json` of a config folder.
    Theme,
}

impl FileKind {
    pub fn is_markdown(&self) -> bool {
        matches!(self, FileKind::Agent { .. } | FileKind::Mode { .. })
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

/// What one opencode file yields on its own.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub parsed: Parsed,
    pub diagnostics: Vec<Diagnostic>,
    pub facts: Facts,
}

/// What an opencode file declares, for the project pass.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Markdown files: where the frontmatter and body are.
    pub split: Option<Split>,
    /// Markdown files: how opencode reads it (settings read, rescued, lost, skipped).
    pub reading: Option<Reading>,
    /// The agents this file declares, in file order.
    pub agents: Vec<AgentDecl>,
    /// The agent names this file refers to (`default_agent`, command `agent`).
    pub refs: Vec<AgentRef>,
    /// The config lists plugins, which may define agents this analysis cannot see.
    pub has_plugins: bool,
    /// Markdown files: a JavaScript frontmatter, whose settings opencode computes and agent-lsp
    /// does not (it reads none of them).
    pub scripted: bool,
    /// Config files: the paths opencode looks up on disk (`instructions`, `skills.paths`, local
    /// `references` and plugins), for the workspace to check.
    pub paths: Vec<PathRef>,
}

/// A path in the config that opencode looks up on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRef {
    pub kind: PathKind,
    /// As written.
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathKind {
    /// An `instructions` entry: a file path or a glob (relative to the project, `~/` for the
    /// home folder); URLs are not listed.
    Instructions,
    /// A `skills.paths` folder (relative to the directory opencode starts in).
    SkillsPath,
    /// A local folder of `references` (`{path}`, or a string that is not a URL).
    Reference,
    /// A plugin given as a file path or `file://` URL.
    Plugin,
}

/// A hash of a prompt's text, to compare prompts across files without keeping the text.
pub fn prompt_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

pub use crate::analysis::naming::agent_name_from_relative_path;

/// How opencode's Markdown reader (gray-matter with js-yaml 3, plus one retry after its
/// sanitizer) reads a file. Confirmed against the 1.18.34 runtime by `tests/runtime.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// No frontmatter: no settings, the body is the prompt.
    NoFrontmatter,
    /// The frontmatter parsed as written.
    Parsed,
    /// Strict YAML failed, and the sanitizer's rewrite (a top-level plain value holding `:`
    /// turned into a block scalar) parsed: the settings load.
    Rescued,
    /// The YAML failed and the sanitizer changed nothing: gray-matter's cache hands back empty
    /// settings with the whole file, frontmatter included, as the body. The agent loads as a
    /// bare `mode: all` agent whose prompt is the raw file.
    Bare,
    /// The YAML failed, and failed again after the sanitizer changed the text: opencode skips
    /// the file without a message (no agent).
    Skipped,
}

impl Reading {
    /// The frontmatter's settings are lost (bare agent or skipped file).
    pub fn lost(self) -> bool {
        matches!(self, Reading::Bare | Reading::Skipped)
    }
}
