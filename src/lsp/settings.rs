//! Server settings, from `initializationOptions`, `workspace/configuration` (section
//! `agentLsp`) and `workspace/didChangeConfiguration` (which some clients send partially: only
//! the keys present change anything).
//!
//! ```json
//! { "severity": { "broad-pattern": "off", "unknown-key": "error" },
//!   "globalConfig": true,          // or false, or "/path/to/opencode/config/dir"
//!   "logLevel": "info" }
//! ```

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::analysis::{Code, Severity};

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
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            severity: HashMap::new(),
            global: GlobalConfig::Default,
            log_level: None,
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
}
