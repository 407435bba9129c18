//! The agent the loader builds from one file, and the state of one file's check that the
//! field checks share (the diagnostics found so far).

use crate::analysis::claude::AgentFile;
use crate::analysis::claude::tools::List;
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::text::Span;

/// Whether Claude Code loads the file as an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Status {
    #[default]
    Loaded,
    /// Not an agent: a reference document (no frontmatter, no `name`).
    NotAgent(String),
    /// Skipped with a reason in the debug log.
    Skipped(String),
}

/// One setting as the loader keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub key: &'static str,
    /// The value as Claude Code uses it (after its conversions: `manual` is `default`, `med` is
    /// `medium`, `"20 turns"` is 20).
    pub value: String,
    pub span: Span,
}

/// The agent Claude Code builds from one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Agent {
    /// The agent type it registers (`name`, or the file name for a plugin agent without one).
    pub name: Option<String>,
    /// Where the name is written: the `name` value, else the file's first line.
    pub name_span: Span,
    pub status: Status,
    pub description: Option<String>,
    /// Every other field the loader keeps, in file order.
    pub settings: Vec<Setting>,
    /// `tools` (None: every tool of the parent).
    pub tools: Option<List>,
    pub disallowed: Option<List>,
    /// Agent types named in `Agent(...)`/`Task(...)` entries of `tools`.
    pub agent_refs: Vec<(String, Span)>,
    /// The entries of `skills` (skills preloaded into the agent), with the spans of those a fix
    /// may replace exactly.
    pub skills: Vec<(String, Span, bool)>,
    /// The scripts its hooks' `command`s run, for the workspace to look up.
    pub hook_scripts: Vec<crate::analysis::claude::hooks::Script>,
}

impl Agent {
    pub fn loaded(&self) -> bool {
        self.status == Status::Loaded && self.name.is_some()
    }

    pub fn setting(&self, key: &str) -> Option<&Setting> {
        self.settings.iter().rev().find(|s| s.key == key)
    }
}

pub(super) struct Ctx<'a> {
    pub(super) text: &'a str,
    pub(super) kind: &'a AgentFile,
    pub(super) out: Vec<Diagnostic>,
}

impl Ctx<'_> {
    pub(super) fn push(
        &mut self,
        code: Code,
        severity: Severity,
        effect: Effect,
        span: Span,
        message: String,
    ) -> &mut Diagnostic {
        self.out.push(
            Diagnostic::new(code, span, message)
                .with_severity(severity)
                .with_effect(effect),
        );
        self.out.last_mut().expect("just pushed")
    }

    /// A value dropped or changed: a warning.
    pub(super) fn dropped(&mut self, code: Code, span: Span, message: String) -> &mut Diagnostic {
        self.push(code, Severity::Warning, Effect::ValueIgnored, span, message)
    }

    /// The file is skipped: an error.
    pub(super) fn skipped(&mut self, code: Code, span: Span, message: String) -> &mut Diagnostic {
        self.push(code, Severity::Error, Effect::FileIgnored, span, message)
    }
}
