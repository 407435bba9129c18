//! The Gemini CLI dialect: Google's Gemini CLI as release 0.61.0 reads its files. Facts:
//! `shared/spec/other-dialects.md` §4 and §7.2, and the release itself (`tests/gemini_runtime`
//! runs it offline against a stand-in for its API, on generated and collected files, and records
//! its verdicts).
//!
//! - [`settings_schema`], [`tool_names`]: what `settings.json` may hold and the tools an agent
//!   may name, generated from the release (`tests/gemini_runtime/generate.mjs`).
//! - [`settings`]: a `settings.json` checked against it: what stops Gemini CLI, what it warns
//!   about, what it ignores without a word; [`v1`] the old flat keys and where they live now.
//! - [`agent`]: a subagent file (`.gemini/agents/*.md`) and why Gemini CLI would not load it.
//! - [`agents`]: the agents Gemini CLI registers, as `explain` shows them.
//! - [`context`]: a `GEMINI.md` and its `@path` imports.
//! - [`command`]: a custom command (`.gemini/commands/**/*.toml`).
//! - [`extension`]: an extension's manifest (`gemini-extension.json`) and its context files.
//! - [`skill`]: how Gemini CLI loads a `SKILL.md` (the shared skill checks run it).
//! - [`project`]: an `agents/` folder as a whole (two files of one name).
//! - [`editor`]: completion and hover in `settings.json`, from the same schema.
//! - [`setup`]: `agent-lsp setup gemini`.
//! - [`dialect`]: Gemini CLI behind the one dialect interface (which files it reads).

pub mod agent;
pub mod agents;
pub mod command;
pub mod context;
pub mod imports;
pub mod dialect;
pub mod disk;
pub mod editor;
pub mod extension;
pub mod loose;
pub mod project;
mod own;
pub mod settings;
pub mod setup;
pub mod skill;
#[rustfmt::skip]
pub mod settings_schema;
#[rustfmt::skip]
pub mod tool_names;
pub mod v1;
mod words;

use super::diagnostic::Diagnostic;
use super::rules::Code;
use super::syntax::{Parsed, jsonc};

/// The rules Gemini CLI's files are checked by.
pub const RULES: &[Code] = &[
    Code::SyntaxError,
    Code::DuplicateKey,
    Code::UnknownKey,
    Code::InvalidType,
    Code::InvalidValue,
    Code::MissingField,
    Code::NoFrontmatter,
    Code::InvalidName,
    Code::UnknownTool,
    Code::DuplicateAgent,
    Code::MissingPath,
    Code::HardcodedSecret,
    Code::UnpinnedPackage,
    Code::HomePath,
    Code::BroadGrant,
];

/// What a file is to Gemini CLI; decided from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A `settings.json`: the user's (`~/.gemini/`) or a project's (`.gemini/`, applied only in
    /// a trusted folder).
    Settings { project: bool },
    /// A subagent: a Markdown file directly in `.gemini/agents/` (or the user's
    /// `~/.gemini/agents/`) whose name does not start with `_`.
    Agent,
    /// A custom command: a `.toml` file under `.gemini/commands/` (or the user's
    /// `~/.gemini/commands/`), at any depth.
    Command,
    /// A `GEMINI.md`: instructions, with `@path` imports.
    Context,
    /// An extension's manifest, `gemini-extension.json`, anywhere: its folder is the extension
    /// (installed, a copy of it in `~/.gemini/extensions/`).
    Extension,
}

/// What a Gemini CLI file declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// A settings file: what it sets that other checks read.
    pub settings: settings::Settings,
    /// An agent file: the agent it defines.
    pub agent: Option<agent::AgentDecl>,
    /// A context file: its imports, each path as written and where.
    pub imports: Vec<(String, crate::analysis::text::Span)>,
    /// An extension's manifest: what it declares.
    pub extension: Option<extension::Manifest>,
}

/// Analyse one file: the diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, Facts) {
    match kind {
        FileKind::Settings { .. } => {
            let parsed = jsonc::parse(text);
            let (mut out, settings) = settings::check(text, &parsed);
            out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            (
                out,
                parsed,
                Facts {
                    settings,
                    ..Facts::default()
                },
            )
        }
        FileKind::Context => (
            Vec::new(),
            Parsed::default(),
            Facts {
                imports: context::imports(text),
                ..Facts::default()
            },
        ),
        FileKind::Extension => {
            let parsed = jsonc::parse(text);
            let (out, manifest) = extension::check(text, &parsed);
            (
                out,
                parsed,
                Facts {
                    extension: Some(manifest),
                    ..Facts::default()
                },
            )
        }
        FileKind::Command => {
            let (mut out, parsed) = command::check(text);
            out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            (out, parsed, Facts::default())
        }
        FileKind::Agent => {
            let (mut out, parsed, decl) = agent::check(text);
            out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            (
                out,
                parsed,
                Facts {
                    agent: Some(decl),
                    ..Facts::default()
                },
            )
        }
    }
}
