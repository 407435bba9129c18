//! The Codex dialect: OpenAI Codex CLI's `config.toml` (the user's `~/.codex/config.toml`, a
//! project's `.codex/config.toml`) and its custom agents (`.codex/agents/**/*.toml`), as Codex
//! 0.171.0 reads them. Facts: `shared/spec/other-dialects.md` §1 and §7.1, and the release itself
//! (`tests/codex_runtime` runs it on generated and collected files and records its verdicts).
//!
//! - [`schema`] and [`features`]: what `config.toml` may hold, as data.
//! - [`layer`]: one configuration layer checked against it (a `config.toml`, or the settings of
//!   an agent file): what makes Codex refuse to start and what it ignores without a word.
//! - [`agent`]: an agent file: its `name`, `description` and `developer_instructions`, and why
//!   Codex would drop it.
//! - [`instructions`]: the chain of `AGENTS.md` files Codex gives the model, under one budget
//!   (`AGENTS.override.md` is Codex's own file kind; `AGENTS.md` is read wherever it is loaded).
//! - [`dialect`]: Codex behind the one dialect interface (which files it reads, hover,
//!   completion).

pub mod agent;
pub mod agents;
pub mod dialect;
pub mod editor;
pub mod features;
pub mod instructions;
pub mod layer;
mod own;
pub mod policy;
pub mod project;
pub mod schema;
pub mod setup;
pub mod skill;

use super::diagnostic::Diagnostic;
use super::rules::Code;
use super::syntax::{Parsed, toml};

/// The rules Codex's files are checked by.
pub const RULES: &[Code] = &[
    Code::SyntaxError,
    Code::UnknownKey,
    Code::InvalidType,
    Code::InvalidValue,
    Code::MissingField,
    Code::DeprecatedField,
    Code::IgnoredField,
    Code::DuplicateAgent,
    Code::ShadowedFile,
    Code::TruncatedInstructions,
    Code::HardcodedSecret,
    Code::UnpinnedPackage,
    Code::HomePath,
    Code::BroadGrant,
];

/// What a file is to Codex; decided from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A `config.toml`: the user's (`~/.codex/`, always read) or a project's (`.codex/`, read
    /// only when the project is trusted).
    Config { project: bool },
    /// A custom agent: a `.toml` file under `.codex/agents/` (or `~/.codex/agents/`).
    Agent,
    /// An `AGENTS.override.md`, which Codex reads in place of the `AGENTS.md` of its folder
    /// (plain Markdown: what is said of it comes from the chain, [`instructions`]).
    Instructions,
}

/// What a Codex file declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// An agent file: the agent it defines.
    pub agent: Option<agent::Role>,
    /// The settings that decide what runs without asking, as written in this file.
    pub settings: layer::Settings,
}

/// Analyse one file: the diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, Facts) {
    // Markdown, read as a whole by the chain's unit: nothing to parse here.
    let project = match kind {
        FileKind::Instructions => return (Vec::new(), Parsed::default(), Facts::default()),
        FileKind::Config { project } => Some(*project),
        FileKind::Agent => None,
    };
    let parsed = toml::parse(text);
    let (mut out, facts) = match project {
        Some(project) => {
            let (out, settings) = layer::check_config(&parsed, project);
            (out, Facts { agent: None, settings })
        }
        None => {
            let (out, role, settings) = agent::check(&parsed, text);
            (
                out,
                Facts {
                    agent: Some(role),
                    settings,
                },
            )
        }
    };
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, facts)
}

#[cfg(test)]
mod tests;
