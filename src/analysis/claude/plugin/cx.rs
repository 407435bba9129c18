//! The state of one manifest's check (the diagnostics so far, what the file declares) and how a
//! problem is reported: which file or entry it stops, and whether the loader or only the
//! validator cares.

use super::model::ManifestFile;
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::syntax::Node;
use crate::analysis::text::Span;

/// Which file, and where in it: the plugin's own manifest, or an entry of a marketplace.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Plugin,
    Marketplace,
    Entry,
}

/// How bad a problem is, as Claude Code treats it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Fate {
    /// The loader's schema: the plugin (marketplace, entry) is refused.
    Refused,
    /// Checked by the validator only; Claude Code still loads it.
    Validator,
}

pub(super) struct Cx {
    pub(super) out: Vec<Diagnostic>,
    pub(super) file: ManifestFile,
    /// A marketplace's `metadata.pluginRoot`: plugin sources without `./` are read below it.
    pub(super) plugin_root: Option<String>,
    /// The file breaks the schema (or is no JSON): the validator then leaves out its advice on
    /// missing descriptive fields.
    pub(super) schema_error: bool,
}

impl Cx {
    pub(super) fn error(&mut self, code: Code, span: Span, what: String, scope: Scope, fate: Fate) {
        self.schema_error = true;
        let (tail, effect) = match (scope, fate) {
            (Scope::Plugin, Fate::Refused) => ("Claude Code does not load the plugin", Effect::FileIgnored),
            (Scope::Marketplace, Fate::Refused) => ("Claude Code cannot add the marketplace", Effect::FileIgnored),
            (Scope::Entry, _) => (
                "the marketplace loads, but Claude Code cannot install this plugin",
                Effect::FailsWhenUsed,
            ),
            (_, Fate::Validator) => (
                "`claude plugin validate` rejects it, though Claude Code loads the plugin",
                Effect::Works,
            ),
        };
        self.out.push(
            Diagnostic::new(code, span, format!("{what}: {tail}"))
                .with_severity(Severity::Error)
                .with_effect(effect),
        );
    }

    pub(super) fn warn(&mut self, code: Code, span: Span, message: String, effect: Effect) -> &mut Diagnostic {
        self.out.push(
            Diagnostic::new(code, span, message)
                .with_severity(Severity::Warning)
                .with_effect(effect),
        );
        self.out.last_mut().expect("just pushed")
    }
}

/// The opening brace of an object (where a missing key is reported).
pub(super) fn brace(node: &Node) -> Span {
    Span::new(node.span.start as usize, node.span.start as usize + 1)
}

/// The items quoted as code and joined with commas: `` `a`, `b` ``.
pub(super) fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    quoted.join(", ")
}
