//! Server settings, from `initializationOptions`, `workspace/configuration` (section
//! `agentLsp`) and `workspace/didChangeConfiguration` (which some clients send partially: only
//! the keys present change anything).
//!
//! ```json
//! { "severity": { "broad-pattern": "off", "unknown-key": "error" },
//!   "globalConfig": true,          // or false, or "/path/to/opencode/config/dir"
//!   "logLevel": "info",
//!   "forAgents": false }           // true: `serve --for-agents`
//! ```
//!
//! `forAgents` is for clients that are coding agents (opencode, Claude Code): opencode hands
//! the model only errors, Claude Code at most ten a file, errors first; so every finding that
//! changes what the runtime does is published as an error, with its fix in the message (a model
//! sees no code actions).

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::analysis::{Code, Diagnostic, Effect, Severity};

pub use crate::analysis::rules::Level;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalConfig {
    /// Read the global config directory as opencode does (the default).
    Default,
    Off,
    Dir(PathBuf),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub severity: HashMap<Code, Level>,
    pub global: GlobalConfig,
    pub log_level: Option<String>,
    /// The client is a coding agent: see the module documentation.
    pub for_agents: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            severity: HashMap::new(),
            global: GlobalConfig::Default,
            log_level: None,
            for_agents: false,
        }
    }
}

impl Settings {
    /// Merge the keys present in `value` (an `agentLsp` object, or an object holding one).
    /// Returns the problems found (unknown codes or levels), to be logged.
    pub fn merge(&mut self, value: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        let obj = match value.get("agentLsp") {
            Some(inner) => inner,
            None => value,
        };
        let Some(obj) = obj.as_object() else { return problems };
        if let Some(sev) = obj.get("severity") {
            // Clients send the whole table: it replaces the previous one. (An empty Lua table
            // arrives as `[]`.)
            if sev.as_array().is_some_and(Vec::is_empty) {
                self.severity.clear();
            }
            match sev.as_object() {
                Some(map) => {
                    self.severity.clear();
                    for (code, level) in map {
                        let Some(code) = Code::from_name(code) else {
                            problems.push(format!("unknown rule code `{code}` in agentLsp.severity"));
                            continue;
                        };
                        match level.as_str() {
                            Some("off") | Some("none") => {
                                self.severity.insert(code, Level::Off);
                            }
                            Some("default") | None if level.is_null() || level.as_str() == Some("default") => {
                                self.severity.remove(&code);
                            }
                            Some(s) => match Severity::parse(s) {
                                Some(sv) => {
                                    self.severity.insert(code, Level::On(sv));
                                }
                                None => problems.push(format!("unknown severity `{s}` for `{}`", code.as_str())),
                            },
                            None => problems.push(format!("severity of `{}` must be a string", code.as_str())),
                        }
                    }
                }
                None if sev.is_null() || sev.as_array().is_some_and(Vec::is_empty) => self.severity.clear(),
                None => problems.push("agentLsp.severity must be an object".into()),
            }
        }
        if let Some(g) = obj.get("globalConfig") {
            match g {
                Value::Bool(true) | Value::Null => self.global = GlobalConfig::Default,
                Value::Bool(false) => self.global = GlobalConfig::Off,
                Value::String(s) if s.is_empty() => self.global = GlobalConfig::Default,
                Value::String(s) => self.global = GlobalConfig::Dir(PathBuf::from(s)),
                _ => problems.push("agentLsp.globalConfig must be true, false or a directory path".into()),
            }
        }
        if let Some(l) = obj.get("logLevel") {
            self.log_level = l.as_str().map(str::to_string);
        }
        match obj.get("forAgents") {
            None => {}
            Some(Value::Bool(b)) => self.for_agents = *b,
            Some(Value::Null) => self.for_agents = false,
            Some(_) => problems.push("agentLsp.forAgents must be true or false".into()),
        }
        problems
    }

    /// The severity to publish a diagnostic with, or `None` when its code is turned off.
    pub fn severity_of(&self, code: Code, default: Severity) -> Option<Severity> {
        match self.severity.get(&code) {
            Some(Level::Off) => None,
            Some(Level::On(s)) => Some(*s),
            None => Some(default),
        }
    }

    /// The severity to publish `d` with, or `None` when its code is turned off. For an agent
    /// client, a finding that changes what the runtime does is an error unless the settings
    /// name its code.
    pub fn severity_for(&self, d: &Diagnostic) -> Option<Severity> {
        match self.severity.get(&d.code) {
            Some(Level::Off) => None,
            Some(Level::On(s)) => Some(*s),
            None if self.for_agents && d.effect != Effect::Works => Some(Severity::Error),
            None => Some(d.severity),
        }
    }

    /// The message to publish `d` with: for an agent client, the fix is told in words, as a
    /// model sees no code actions.
    pub fn message_for(&self, d: &Diagnostic) -> String {
        if self.for_agents {
            d.message_with_fix()
        } else {
            d.message.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn partial_merges() {
        let mut s = Settings::default();
        assert!(
            s.merge(&json!({"agentLsp": {"severity": {"broad-pattern": "off", "unknown-key": "error"}}}))
                .is_empty()
        );
        assert_eq!(s.severity_of(Code::BroadPattern, Severity::Info), None);
        assert_eq!(
            s.severity_of(Code::UnknownKey, Severity::Warning),
            Some(Severity::Error)
        );
        // A partial update (no `severity`) leaves the severities alone.
        s.merge(&json!({"globalConfig": false}));
        assert_eq!(s.global, GlobalConfig::Off);
        assert_eq!(s.severity_of(Code::BroadPattern, Severity::Info), None);
        // A new severity table replaces the old one.
        s.merge(&json!({"severity": {"unknown-key": "error"}}));
        assert_eq!(s.severity_of(Code::BroadPattern, Severity::Info), Some(Severity::Info));
        s.merge(&json!({"severity": []}));
        assert_eq!(
            s.severity_of(Code::UnknownKey, Severity::Warning),
            Some(Severity::Warning)
        );
        let problems = s.merge(&json!({"severity": {"nope": "off", "unknown-key": "loud"}}));
        assert_eq!(problems.len(), 2);
    }

    fn diag(code: Code, severity: Severity, effect: Effect) -> Diagnostic {
        Diagnostic::new(code, crate::analysis::Span::new(0, 1), "the message")
            .with_severity(severity)
            .with_effect(effect)
    }

    #[test]
    fn for_agents_raises_what_changes_the_runtime_and_tells_the_fix() {
        let mut s = Settings::default();
        let ignored = diag(Code::UnknownKey, Severity::Warning, Effect::ValueIgnored)
            .with_suggestion(crate::analysis::Span::new(0, 1), "temperature");
        let risky = diag(Code::DeprecatedField, Severity::Warning, Effect::Works).with_fix(
            "Rename `maxSteps` to `steps`",
            vec![crate::analysis::Edit::new(crate::analysis::Span::new(0, 1), "steps")],
            true,
        );
        let quoted = diag(Code::InvalidColor, Severity::Error, Effect::RefusesToStart).with_fix(
            "Quote the color",
            vec![crate::analysis::Edit::new(
                crate::analysis::Span::new(0, 1),
                "\"#ff0000\"",
            )],
            true,
        );
        // An editor: the rules' own severities and messages.
        assert_eq!(s.severity_for(&ignored), Some(Severity::Warning));
        assert_eq!(s.message_for(&ignored), "the message");
        assert!(s.merge(&json!({"forAgents": true})).is_empty());
        assert!(s.for_agents);
        assert_eq!(s.severity_for(&ignored), Some(Severity::Error));
        assert_eq!(s.message_for(&ignored), "the message\nFix: Replace with `temperature`.");
        // Works as written: its severity stays; the fix is still told.
        assert_eq!(s.severity_for(&risky), Some(Severity::Warning));
        assert_eq!(s.message_for(&risky), "the message\nFix: Rename `maxSteps` to `steps`.");
        // A title that does not show the text gets it.
        assert_eq!(
            s.message_for(&quoted),
            "the message\nFix: Quote the color (writes `\"#ff0000\"`)."
        );
        // A level the settings give wins, `off` included.
        s.merge(&json!({"severity": {"unknown-key": "hint"}}));
        assert_eq!(s.severity_for(&ignored), Some(Severity::Hint));
        s.merge(&json!({"severity": {"unknown-key": "off"}}));
        assert_eq!(s.severity_for(&ignored), None);
        // A partial update leaves it on; `false` and `null` turn it off; anything else is a problem.
        s.merge(&json!({"logLevel": "debug"}));
        assert!(s.for_agents);
        assert_eq!(
            s.merge(&json!({"forAgents": "yes"})),
            ["agentLsp.forAgents must be true or false"]
        );
        assert!(s.for_agents);
        s.merge(&json!({"forAgents": null}));
        assert!(!s.for_agents);
    }
}
