//! How serious a finding is (its severity), what the runtime does about it (its effect) and
//! the editor tags it carries. Below the rule catalog, which gives each rule its defaults.

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
    /// A mistake in agent-lsp's own project file (`agent-lsp.toml`): no runtime is affected,
    /// but agent-lsp does not apply the setting (a policy is not checked, a level or an exclude
    /// not used).
    NotApplied,
}

impl Effect {
    pub const ALL: [Effect; 7] = [
        Effect::RefusesToStart,
        Effect::FileIgnored,
        Effect::ValueIgnored,
        Effect::RuleNeverApplies,
        Effect::FailsWhenUsed,
        Effect::Works,
        Effect::NotApplied,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::RefusesToStart => "refuses-to-start",
            Effect::FileIgnored => "file-ignored",
            Effect::ValueIgnored => "value-ignored",
            Effect::RuleNeverApplies => "rule-never-applies",
            Effect::FailsWhenUsed => "fails-when-used",
            Effect::Works => "works-but-risky",
            Effect::NotApplied => "not-applied",
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
            Effect::NotApplied => "agent-lsp does not apply this setting of agent-lsp.toml (no runtime is affected)",
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
