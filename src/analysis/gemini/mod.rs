//! The Gemini CLI dialect: Google's Gemini CLI as release 0.61.0 reads its files. Facts:
//! `shared/spec/other-dialects.md` §4 and §7.2, and the release itself (`tests/gemini_runtime`
//! runs it offline against a stand-in for its API, on generated and collected files, and records
//! its verdicts).
//!
//! - [`settings_schema`]: what `settings.json` may hold, generated from the release.
//! - [`settings`]: a `settings.json` checked against it: what stops Gemini CLI, what it warns
//!   about, what it ignores without a word; [`v1`] the old flat keys and where they live now.
//! - [`editor`]: completion and hover in `settings.json`, from the same schema.
//! - [`dialect`]: Gemini CLI behind the one dialect interface (which files it reads).

pub mod dialect;
pub mod editor;
pub mod loose;
mod own;
pub mod settings;
#[rustfmt::skip]
pub mod settings_schema;
pub mod v1;

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
];

/// What a file is to Gemini CLI; decided from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A `settings.json`: the user's (`~/.gemini/`) or a project's (`.gemini/`, applied only in
    /// a trusted folder).
    Settings { project: bool },
}

/// What a Gemini CLI file declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// A settings file: what it sets that other checks read.
    pub settings: settings::Settings,
}

/// Analyse one file: the diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, Facts) {
    match kind {
        FileKind::Settings { project } => {
            let parsed = jsonc::parse(text);
            let scope = if *project {
                settings::Scope::Project
            } else {
                settings::Scope::User
            };
            let (mut out, settings) = settings::check(text, &parsed, scope);
            out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            (out, parsed, Facts { settings })
        }
    }
}
