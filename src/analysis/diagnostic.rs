//! What the analysis reports: plain data with byte spans, no LSP types.

use super::rules::Code;
use super::text::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        Some(match s {
            "error" => Severity::Error,
            "warning" | "warn" => Severity::Warning,
            "info" | "information" => Severity::Info,
            "hint" => Severity::Hint,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tag {
    /// Shown struck through by editors.
    Deprecated,
    /// Shown faded by editors: the code has no effect.
    Unnecessary,
}

/// Where a related location lives: in the same file, or in another file of the project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Here(Span),
    /// Another file, by the id the caller gave it, and a span in that file's text.
    File {
        file: usize,
        span: Span,
    },
    /// A built-in agent or default: no source location.
    BuiltIn,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub location: Location,
    pub message: String,
}

/// A replacement the user can accept: the text under `span` becomes `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    pub related: Vec<Related>,
    pub tags: Vec<Tag>,
    /// A "did you mean" replacement, when there is exactly one likely intent.
    pub suggestion: Option<Edit>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and tags.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        let rule = code.rule();
        Diagnostic {
            code,
            severity: rule.severity,
            span,
            message: message.into(),
            related: Vec::new(),
            tags: rule.tags.to_vec(),
            suggestion: None,
        }
    }

    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    pub fn with_related(mut self, location: Location, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            location,
            message: message.into(),
        });
        self
    }

    pub fn with_suggestion(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.suggestion = Some(Edit {
            span,
            text: text.into(),
        });
        self
    }
}
