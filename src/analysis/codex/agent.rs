//! A Codex custom agent: a `.toml` file under `.codex/agents/` (or `~/.codex/agents/`, searched
//! through subfolders; other extensions are not read). Its own fields are `name`,
//! `description`, `developer_instructions` (all three required, none blank) and
//! `nickname_candidates`; every other key is a configuration layer applied to the agent's
//! sessions (`model`, `sandbox_mode`, `mcp_servers`, ...).
//!
//! Codex 0.171.0 drops the whole agent, with a warning only when a session starts
//! ("Ignoring malformed agent role definition"), for: an unknown key at the top level, a wrong
//! type or value anywhere in it, a missing or blank `name`, `description` or
//! `developer_instructions`, and a `name` another file of the folder already took (the first
//! file by path keeps it). Unknown keys deeper down are ignored, as in `config.toml`.

use super::layer::{self, Layer, Settings};
use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Parsed, Value};
use crate::analysis::text::Span;

/// The agent's own fields, with what each is for.
pub const OWN: &[(&str, &str)] = &[
    (
        "name",
        "The agent's name: what the model passes as `agent_type` to spawn it. Required.",
    ),
    (
        "description",
        "What the agent is for, shown to the model in the list of agents it may spawn. Required, not blank.",
    ),
    (
        "developer_instructions",
        "The agent's prompt, given as developer instructions. Required, not blank.",
    ),
    (
        "nickname_candidates",
        "Nicknames for the agent's threads (a list of strings).",
    ),
];

/// What an agent file defines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Role {
    pub name: Option<String>,
    /// Where `name`'s value is written.
    pub name_span: Option<Span>,
    pub description: Option<String>,
    /// Whether `name` and `description` are written (a role that `[agents.<name>]` of a
    /// `config.toml` points at takes them from there: see `project.rs`).
    pub has_name: bool,
    pub has_description: bool,
    /// Whether Codex loads it (nothing in the file makes Codex drop it; a duplicate name is a
    /// matter of the folder).
    pub loads: bool,
}

/// Check an agent file: what it defines and why Codex would drop it.
pub fn check(parsed: &Parsed, text: &str) -> (Vec<Diagnostic>, Role, Settings) {
    let mut out = Vec::new();
    let mut role = Role::default();
    for e in &parsed.errors {
        out.push(Layer::Agent.refuse(
            Code::SyntaxError,
            e.span,
            format!("{}: {}", e.message, Layer::Agent.refusal()),
        ));
    }
    let Some(root) = &parsed.root else {
        return (out, role, Settings::default());
    };
    let Some(map) = root.as_map() else {
        return (out, role, Settings::default());
    };
    let settings = layer::check(root, map, &super::schema::CONFIG, Layer::Agent, &mut out);
    let config_keys = super::schema::TOP.iter().map(|f| f.name);
    for e in map.entries.iter() {
        let k = e.key.name.as_str();
        if OWN.iter().any(|(n, _)| *n == k) || super::schema::TOP.iter().any(|f| f.name == k) {
            continue;
        }
        let near = closest(k, OWN.iter().map(|(n, _)| *n).chain(config_keys.clone()));
        let mut d = Layer::Agent.refuse(
            Code::UnknownKey,
            e.key.span,
            format!(
                "`{k}` is neither a field of an agent file nor a configuration key: {}.{}",
                Layer::Agent.refusal(),
                did_you_mean(near)
            ),
        );
        if let Some(n) = near {
            d = d.with_suggestion(e.key.span, n);
        }
        out.push(d);
    }
    // The three required fields, each a string that is not blank. A missing `name` or
    // `description` is the folder's matter (`project.rs`): a `config.toml` may give them.
    role.has_name = map.contains("name");
    role.has_description = map.contains("description");
    for (field, _) in &OWN[..3] {
        match map.get(field) {
            None if *field != "developer_instructions" => {}
            None => {
                // A misspelling already reported above says where the field went (the field
                // itself is not written, so any key close to it is one).
                let misspelt = map.entries.iter().any(|e| closest(&e.key.name, [*field]).is_some());
                if !misspelt && parsed.errors.is_empty() {
                    out.push(Layer::Agent.refuse(
                        Code::MissingField,
                        crate::analysis::text::first_line(text),
                        format!("an agent file must define `{field}`: {}", Layer::Agent.refusal()),
                    ));
                }
            }
            Some(e) => match &e.value.value {
                Value::Str(s) if s.trim().is_empty() => out.push(Layer::Agent.refuse(
                    Code::InvalidValue,
                    e.value.span,
                    format!("`{field}` is blank: {}", Layer::Agent.refusal()),
                )),
                Value::Str(s) => match *field {
                    "name" => {
                        role.name = Some(s.clone());
                        role.name_span = Some(e.value.span);
                    }
                    "description" => role.description = Some(s.clone()),
                    _ => {}
                },
                _ => out.push(Layer::Agent.refuse(
                    Code::InvalidType,
                    e.value.span,
                    format!(
                        "`{field}` must be a string, not {}: {}",
                        e.value.type_name(),
                        Layer::Agent.refusal()
                    ),
                )),
            },
        }
    }
    if let Some(e) = map.get("nickname_candidates") {
        let strings = matches!(&e.value.value, Value::Seq(items) if items.iter().all(|i| i.as_str().is_some()));
        if !strings {
            out.push(Layer::Agent.refuse(
                Code::InvalidType,
                e.value.span,
                format!(
                    "`nickname_candidates` must be a list of strings, not {}: {}",
                    e.value.type_name(),
                    Layer::Agent.refusal()
                ),
            ));
        }
    }
    role.loads = !out
        .iter()
        .any(|d| d.severity == crate::analysis::diagnostic::Severity::Error);
    (out, role, settings)
}
