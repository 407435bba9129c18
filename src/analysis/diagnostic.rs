//! What the analysis reports: plain data with byte spans, no LSP types.

pub use super::severity::{Effect, Severity, Tag};

use super::rules::Code;
use super::text::Span;

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
    /// The place has no effect because of the diagnostic (a rule of a file the runtime voids):
    /// the editor shows it faded, as a hint that belongs to the diagnostic, not a finding of
    /// its own.
    pub lost: bool,
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

    /// Another severity than the rule's default: one the catalog lists for the rule
    /// ([`super::rules::OTHER_SEVERITIES`]); a debug build refuses any other.
    #[track_caller]
    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        debug_assert!(
            self.code.rule().allows(severity),
            "`{}` cannot be {}: add the case to rules::OTHER_SEVERITIES, with when",
            self.code.as_str(),
            severity.as_str()
        );
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
            lost: false,
        });
        self
    }

    /// A place in the same file that has no effect because of this diagnostic (see
    /// [`Related::lost`]): listed with the diagnostic, faded in the editor.
    pub fn with_lost(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related {
            location: Location::Here(span),
            message: message.into(),
            lost: true,
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

    /// The message with its fix told in words (`\nFix: ...`), for a reader who sees no code
    /// actions: a model in a coding agent.
    pub fn message_with_fix(&self) -> String {
        match self.fix_in_words() {
            Some(fix) => format!("{}\nFix: {fix}.", self.message),
            None => self.message.clone(),
        }
    }

    /// The fix told in words, the same in every output that shows it (the hook's and an agent
    /// client's `Fix:`, the human output's `help:`): its title, and what it writes when the
    /// title does not say.
    pub fn fix_in_words(&self) -> Option<String> {
        let fix = self.fix.as_ref()?;
        let writes = match fix.edits.as_slice() {
            [e] if !e.text.is_empty()
                && !e.text.contains('\n')
                && e.text.len() <= 200
                && !fix.title.contains(e.text.trim()) =>
            {
                format!(" (writes `{}`)", e.text.trim())
            }
            _ => String::new(),
        };
        Some(format!("{}{writes}", fix.title.trim_end_matches('.')))
    }

    /// The fix's edit when it is a single replacement.
    pub fn suggestion(&self) -> Option<&Edit> {
        match &self.fix {
            Some(f) if f.edits.len() == 1 => f.edits.first(),
            _ => None,
        }
    }
}
