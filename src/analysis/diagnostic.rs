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

/// What the runtime does because of the problem a diagnostic reports: machine-readable, in
/// `check --format json`, in `Diagnostic.data` for the language server and in `agent-lsp rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// The runtime refuses the configuration: it does not start, or it cannot list its agents.
    RefusesToStart,
    /// The file is skipped, or loaded as a bare prompt with every setting lost.
    FileIgnored,
    /// A value is ignored, dropped or changed (and the rest loads).
    ValueIgnored,
    /// A permission rule that never applies or never decides.
    RuleNeverApplies,
    /// Loads, but fails when it is used: starting a session, running a command, calling the model.
    FailsWhenUsed,
    /// Works as written, but is deprecated or risky.
    Works,
}

impl Effect {
    pub const ALL: [Effect; 6] = [
        Effect::RefusesToStart,
        Effect::FileIgnored,
        Effect::ValueIgnored,
        Effect::RuleNeverApplies,
        Effect::FailsWhenUsed,
        Effect::Works,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::RefusesToStart => "refuses-to-start",
            Effect::FileIgnored => "file-ignored",
            Effect::ValueIgnored => "value-ignored",
            Effect::RuleNeverApplies => "rule-never-applies",
            Effect::FailsWhenUsed => "fails-when-used",
            Effect::Works => "works-but-risky",
        }
    }

    /// What it means, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            Effect::RefusesToStart => "the runtime refuses to start",
            Effect::FileIgnored => "the file is skipped or loaded as a bare prompt",
            Effect::ValueIgnored => "the value is ignored or changed",
            Effect::RuleNeverApplies => "the rule never applies",
            Effect::FailsWhenUsed => "fails when used",
            Effect::Works => "works, but deprecated or risky",
        }
    }

    pub fn parse(s: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.as_str() == s)
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Related {
    pub location: Location,
    pub message: String,
}

/// A replacement the user can accept: the text under `span` becomes `text`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

impl Edit {
    pub fn new(span: Span, text: impl Into<String>) -> Edit {
        Edit {
            span,
            text: text.into(),
        }
    }
}

/// A fix: edits to the file that make the diagnostic go away, leaving everything else as it was.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    pub title: String,
    /// Non-overlapping edits, in any order.
    pub edits: Vec<Edit>,
    /// Safe fixes keep what opencode does the same or only repair what it rejects; `check
    /// --fix` and "fix all" apply only those. Others (a "did you mean") change behaviour and
    /// are offered one at a time.
    pub safe: bool,
}

/// Apply edits to a text (edits must not overlap).
pub fn apply(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0usize;
    for e in sorted {
        let (s, end) = (e.span.start as usize, e.span.end as usize);
        if s < at || end > text.len() || !text.is_char_boundary(s) || !text.is_char_boundary(end) {
            continue;
        }
        out.push_str(&text[at..s]);
        out.push_str(&e.text);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// What the runtime does about it (the rule's default unless the case says otherwise).
    pub effect: Effect,
    pub span: Span,
    pub message: String,
    pub related: Vec<Related>,
    pub tags: &'static [Tag],
    /// The fix, when there is one clear way to repair the problem.
    pub fix: Option<Box<Fix>>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and tags.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        let rule = code.rule();
        Diagnostic {
            code,
            severity: rule.severity,
            effect: rule.effect,
            span,
            message: message.into(),
            related: Vec::new(),
            tags: rule.tags,
            fix: None,
        }
    }

    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    pub fn with_effect(mut self, effect: Effect) -> Diagnostic {
        self.effect = effect;
        self
    }

    pub fn with_related(mut self, location: Location, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            location,
            message: message.into(),
        });
        self
    }

    /// A "did you mean" replacement of one span (not safe: it changes what opencode does).
    pub fn with_suggestion(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        let text = text.into();
        self.fix = Some(Box::new(Fix {
            title: format!("Replace with `{text}`"),
            edits: vec![Edit { span, text }],
            safe: false,
        }));
        self
    }

    pub fn with_fix(mut self, title: impl Into<String>, edits: Vec<Edit>, safe: bool) -> Diagnostic {
        self.fix = Some(Box::new(Fix {
            title: title.into(),
            edits,
            safe,
        }));
        self
    }

    /// The fix's edit when it is a single replacement.
    pub fn suggestion(&self) -> Option<&Edit> {
        match &self.fix {
            Some(f) if f.edits.len() == 1 => f.edits.first(),
            _ => None,
        }
    }
}
