//! The header's keys that hold a structure: `handoffs`, `applyTo`, `hooks` and `github` (see
//! the parent module for the plain keys).

use super::super::schema;
use super::super::{CopilotFile, Handoff, Named, glob};
use super::scalar::{string, type_error};
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Node, Value};

pub(super) fn handoffs(node: &Node, file: &mut CopilotFile, out: &mut Vec<Diagnostic>) {
    let items = match &node.value {
        Value::Seq(items) => items,
        Value::Null | Value::Unknown => return,
        _ => {
            type_error("handoffs", node, "a list of handoffs", out);
            return;
        }
    };
    // The labels seen, in lower case (VS Code compares them so).
    let mut labels = std::collections::HashSet::new();
    for it in items {
        let Value::Map(m) = &it.value else {
            if !matches!(it.value, Value::Null | Value::Unknown) {
                type_error("each handoff", it, "a mapping with `label`, `agent` and `prompt`", out);
            }
            continue;
        };
        let mut h = Handoff {
            span: it.span,
            ..Handoff::default()
        };
        for (k, v) in m.js_entries() {
            match k.name.as_str() {
                "label" => h.label = string("label", v, out).map(str::to_string),
                "prompt" => h.prompt = string("prompt", v, out).map(str::to_string),
                "model" => h.model = string("model", v, out).map(str::to_string),
                "agent" => {
                    h.agent = string("agent", v, out).map(|s| Named {
                        name: s.to_string(),
                        span: v.span,
                    })
                }
                "send" | "showContinueOn" => match &v.value {
                    Value::Bool(b) if k.name == "send" => h.send = Some(*b),
                    Value::Bool(_) | Value::Null | Value::Unknown => {}
                    _ => type_error(&k.name, v, "`true` or `false`", out),
                },
                other => {
                    let names = schema::HANDOFF_KEYS.iter().map(|(n, _)| *n);
                    let near = suggest::closest(other, names);
                    let mut d = Diagnostic::new(
                        Code::UnknownKey,
                        k.span,
                        format!(
                            "a handoff has no key `{other}`: VS Code ignores it.{}",
                            suggest::did_you_mean(near)
                        ),
                    );
                    if let Some(n) = near {
                        d = d.with_suggestion(k.span, n);
                    }
                    out.push(d);
                }
            }
        }
        let missing: Vec<&str> = ["label", "agent", "prompt"]
            .into_iter()
            .filter(|k| !m.contains(k))
            .collect();
        if !missing.is_empty() {
            let list = missing
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            out.push(
                Diagnostic::new(
                    Code::MissingField,
                    // The item's first key: the item's own span runs on to the next line.
                    m.entries.first().map_or(it.span, |e| e.key.span),
                    format!("this handoff has no {list}: VS Code reports it and shows no button for it"),
                )
                .with_effect(Effect::ValueIgnored),
            );
        }
        if let (Some(label), Some(node)) = (&h.label, m.value("label")) {
            if !label.chars().any(char::is_alphanumeric) {
                out.push(Diagnostic::new(
                    Code::InvalidValue,
                    node.span,
                    "a handoff's `label` needs at least one letter or digit",
                ));
            } else if !labels.insert(label.to_lowercase()) {
                out.push(Diagnostic::new(
                    Code::InvalidValue,
                    node.span,
                    format!("another handoff is already labelled `{label}`: VS Code wants each label once"),
                ));
            }
        }
        file.handoffs.push(h);
    }
}

pub(super) fn apply_to(node: &Node, file: &mut CopilotFile, out: &mut Vec<Diagnostic>) {
    match &node.value {
        Value::Str(s) => {
            let patterns = glob::spans(s, node.span);
            if s.trim().is_empty() {
                out.push(Diagnostic::new(
                    Code::InvalidValue,
                    node.span,
                    "`applyTo` is empty: VS Code reports it as an error, and the instructions apply to no file",
                ));
            }
            for (name, span) in patterns {
                let p = Named { name, span };
                if let Err(why) = glob::check(&p.name) {
                    out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            p.span,
                            format!(
                                "`{}` is not a glob pattern VS Code can read ({why}); it matches nothing",
                                p.name
                            ),
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::ValueIgnored),
                    );
                    continue;
                }
                file.apply_to.push(p);
            }
        }
        Value::Null | Value::Unknown => {}
        _ => type_error(
            "applyTo",
            node,
            "a string of glob patterns (separate several with commas)",
            out,
        ),
    }
}

pub(super) fn hooks(node: &Node, file: &CopilotFile, out: &mut Vec<Diagnostic>) {
    let Value::Map(m) = &node.value else {
        if !matches!(node.value, Value::Null | Value::Unknown) {
            type_error("hooks", node, "a mapping of hook events to lists of commands", out);
        }
        return;
    };
    let events: Vec<&str> = match file.targets() {
        (true, false) => schema::HOOK_EVENTS_VSCODE.to_vec(),
        (false, true) => schema::HOOK_EVENTS_GITHUB.to_vec(),
        _ => schema::HOOK_EVENTS_VSCODE
            .iter()
            .chain(schema::HOOK_EVENTS_GITHUB)
            .copied()
            .collect(),
    };
    for (k, v) in m.js_entries() {
        if !events.contains(&k.name.as_str()) {
            let near = suggest::closest(&k.name, events.iter().copied());
            let mut d = Diagnostic::new(
                Code::InvalidValue,
                k.span,
                format!(
                    "no hook event is called `{}`: its commands never run.{}",
                    k.name,
                    suggest::did_you_mean(near)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored);
            if let Some(n) = near {
                d = d.with_suggestion(k.span, n);
            }
            out.push(d);
        }
        match &v.value {
            Value::Seq(commands) => {
                for c in commands {
                    hook_command(c, file, out);
                }
            }
            Value::Null | Value::Unknown => {}
            _ => type_error(&format!("the hook event `{}`", k.name), v, "a list of commands", out),
        }
    }
}

/// One command of a hook event: `type: command` and what to run (VS Code: `command` or a
/// command per system; GitHub.com: `bash` or `powershell`), `cwd`, `env`, `timeout`.
fn hook_command(c: &Node, file: &CopilotFile, out: &mut Vec<Diagnostic>) {
    let Value::Map(m) = &c.value else {
        if !matches!(c.value, Value::Null | Value::Unknown) {
            type_error("a hook command", c, "a mapping (`type: command`, `command`)", out);
        }
        return;
    };
    let github_only = file.targets() == (false, true);
    let runs: &[&str] = if github_only {
        &["bash", "powershell"]
    } else {
        &["command", "windows", "linux", "osx", "bash", "powershell"]
    };
    let known = ["type", "cwd", "env", "timeout", "timeoutSec"];
    for (k, v) in m.js_entries() {
        match k.name.as_str() {
            "type" => {
                if v.as_str() != Some("command") {
                    out.push(Diagnostic::new(
                        Code::InvalidValue,
                        v.span,
                        "a hook command's `type` is `command`: VS Code refuses anything else",
                    ));
                }
            }
            "timeout" | "timeoutSec" if !matches!(v.value, Value::Int(_) | Value::Float(_)) => {
                type_error(&k.name, v, "a number of seconds", out)
            }
            "cwd" if !matches!(v.value, Value::Str(_)) => type_error("cwd", v, "a string", out),
            "env" if !matches!(v.value, Value::Map(_)) => type_error("env", v, "a mapping of strings", out),
            n if known.contains(&n) || runs.contains(&n) => {}
            n => {
                let near = suggest::closest(n, known.iter().chain(runs).copied());
                let mut d = Diagnostic::new(
                    Code::UnknownKey,
                    k.span,
                    format!(
                        "a hook command has no `{n}`: VS Code warns and ignores it.{}",
                        suggest::did_you_mean(near)
                    ),
                );
                if let Some(s) = near {
                    d = d.with_suggestion(k.span, s);
                }
                out.push(d);
            }
        }
    }
    if !runs.iter().any(|r| m.contains(r)) {
        let list = runs.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", ");
        out.push(
            Diagnostic::new(
                Code::MissingField,
                m.entries.first().map_or(c.span, |e| e.key.span),
                format!("this hook command runs nothing: it needs one of {list}"),
            )
            .with_effect(Effect::ValueIgnored),
        );
    }
}

pub(super) fn github(node: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Map(m) = &node.value else {
        if !matches!(node.value, Value::Null | Value::Unknown) {
            type_error("github", node, "a mapping (`permissions`)", out);
        }
        return;
    };
    for (k, v) in m.js_entries() {
        if k.name != "permissions" {
            out.push(Diagnostic::new(
                Code::UnknownKey,
                k.span,
                format!("`github` has `permissions` only; VS Code warns about `{}`", k.name),
            ));
            continue;
        }
        let Value::Map(p) = &v.value else {
            type_error("permissions", v, "a mapping of scopes to access levels", out);
            continue;
        };
        for (scope, level) in p.js_entries() {
            if !schema::GITHUB_SCOPES.contains(&scope.name.as_str()) {
                let near = suggest::closest(&scope.name, schema::GITHUB_SCOPES.iter().copied());
                let mut d = Diagnostic::new(
                    Code::UnknownKey,
                    scope.span,
                    format!(
                        "no permission scope is called `{}`.{}",
                        scope.name,
                        suggest::did_you_mean(near)
                    ),
                );
                if let Some(n) = near {
                    d = d.with_suggestion(scope.span, n);
                }
                out.push(d);
            }
            match &level.value {
                Value::Str(l) if !["read", "write", "none"].contains(&l.as_str()) => out.push(Diagnostic::new(
                    Code::InvalidValue,
                    level.span,
                    format!("`{}` is `read`, `write` or `none`, not `{l}`", scope.name),
                )),
                Value::Str(_) | Value::Null | Value::Unknown => {}
                _ => type_error(
                    &format!("the scope `{}`", scope.name),
                    level,
                    "`read`, `write` or `none`",
                    out,
                ),
            }
        }
    }
}
