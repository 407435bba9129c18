//! A minimal dialect, compiled only for tests: it proves that a dialect is a folder plus its
//! `pub mod` line in `analysis/mod.rs` (see `registry.rs` and `ARCHITECTURE.md`). The runtime "Example" reads agents from
//! `.example/agents/*.md`: Markdown with a YAML frontmatter of two keys, `description` (a
//! string, required) and `model` (a string). Built on the shared syntax, diagnostics and rules
//! only; it imports no other dialect.

use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Parsed, Value, frontmatter, yaml};

pub mod dialect;

/// The frontmatter keys Example reads.
pub const KEYS: &[&str] = &["description", "model"];

/// The rules Example's files are checked by.
pub const RULES: &[Code] = &[
    Code::SyntaxError,
    Code::UnknownKey,
    Code::MissingField,
    Code::InvalidType,
];

/// What a file is to Example; decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `.example/agents/<name>.md`.
    Agent { name: String },
}

/// What an Example agent file declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub name: String,
    pub description: Option<String>,
}

/// Analyse one file: the diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, Facts) {
    let FileKind::Agent { name } = kind;
    let mut facts = Facts {
        name: name.clone(),
        description: None,
    };
    let mut out = Vec::new();
    let split = frontmatter::split(text);
    let Some(fm) = split.frontmatter else {
        let at = crate::analysis::text::first_line(text);
        out.push(Diagnostic::new(
            Code::MissingField,
            at,
            "an Example agent needs a frontmatter with `description`",
        ));
        return (out, Parsed::default(), facts);
    };
    let Some(_) = fm.close else {
        out.push(Diagnostic::new(
            Code::SyntaxError,
            fm.open,
            "this frontmatter is never closed",
        ));
        return (out, Parsed::default(), facts);
    };
    let parsed = yaml::parse_core(fm.yaml.text(text), fm.yaml.start as usize);
    for e in &parsed.errors {
        out.push(Diagnostic::new(Code::SyntaxError, e.span, e.message.clone()));
    }
    let entries = parsed
        .root
        .as_ref()
        .and_then(|r| r.as_map())
        .map(|m| m.js_entries())
        .unwrap_or_default();
    for (key, value) in &entries {
        let k = key.name.as_str();
        if !KEYS.contains(&k) {
            let near = suggest::closest(k, KEYS.iter().copied());
            let msg = format!("Example ignores the unknown key `{k}`.{}", suggest::did_you_mean(near));
            let mut d = Diagnostic::new(Code::UnknownKey, key.span, msg);
            if let Some(n) = near {
                d = d.with_suggestion(key.span, n);
            }
            out.push(d);
        } else if let Value::Str(s) = &value.value {
            if k == "description" {
                facts.description = Some(s.clone());
            }
        } else {
            let msg = format!("`{k}` must be a string, not {}", value.type_name());
            out.push(Diagnostic::new(Code::InvalidType, value.span, msg));
        }
    }
    if parsed.errors.is_empty() && !entries.iter().any(|(k, _)| k.name == "description") {
        out.push(Diagnostic::new(
            Code::MissingField,
            fm.open,
            "an Example agent needs a `description`",
        ));
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, facts)
}

mod tests;
