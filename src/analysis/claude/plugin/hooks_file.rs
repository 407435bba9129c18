//! A plugin's `hooks/hooks.json`, read as Claude Code 2.1.332 reads it (measured by loading a
//! plugin with `--plugin-dir`, see the closing note of issue 36): strict JSON, an object with
//! `hooks` (the hooks, read by the shared [`crate::analysis::claude::hooks`] checks), `modules`
//! (hooks modules) and `description`.
//!
//! - a file that does not parse, is not an object, or has neither `hooks` nor `modules`: Claude
//!   Code logs "Failed to load hooks" and loads the plugin without these hooks (an error on the
//!   file, effect `file-ignored`);
//! - `hooks` that is not an object, or a broken entry under `PreToolUse` or `PermissionRequest`:
//!   the plugin is not loaded at all ("Failed to load session plugin"), since such a hook may be
//!   what guards it;
//! - a broken entry under any other event, an unknown event, an unknown top-level key: ignored
//!   (a warning on it).

use super::{strict_json, strict_json_fix};
use crate::analysis::claude::hooks::{self, Script};
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Parsed, Value, jsonc};

const KEYS: &[&str] = &["hooks", "modules", "description"];

/// The diagnostics, the tree, and the scripts the hooks run.
pub fn analyze(text: &str) -> (Vec<Diagnostic>, Parsed, Vec<Script>) {
    let parsed = jsonc::parse(text);
    let unread = |what: String| {
        format!("{what}: Claude Code cannot read this hooks file and loads the plugin without its hooks")
    };
    let mut out: Vec<Diagnostic> = parsed
        .errors
        .iter()
        .map(|e| Diagnostic::new(Code::SyntaxError, e.span, unread(e.message.clone())).with_effect(Effect::FileIgnored))
        .collect();
    for (span, what) in strict_json(text) {
        out.push(strict_json_fix(
            Diagnostic::new(
                Code::SyntaxError,
                span,
                unread(format!("{what} (the file is read as strict JSON)")),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
            what,
        ));
    }
    let mut scripts = Vec::new();
    let Some(root) = parsed.root.as_ref() else {
        return (out, parsed, scripts);
    };
    let Some(map) = root.as_map() else {
        if !matches!(root.value, Value::Unknown) {
            out.push(
                Diagnostic::new(
                    Code::InvalidType,
                    root.span,
                    unread(format!(
                        "a hooks file is a JSON object with `hooks`, not {}",
                        root.type_name()
                    )),
                )
                .with_severity(Severity::Error)
                .with_effect(Effect::FileIgnored),
            );
        }
        return (out, parsed, scripts);
    };
    for (key, _) in map.js_entries() {
        if !KEYS.contains(&key.name.as_str()) {
            let near = closest(&key.name, KEYS.iter().copied());
            out.push(
                Diagnostic::new(
                    Code::UnknownKey,
                    key.span,
                    format!(
                        "`{}` is not a key of a hooks file: Claude Code ignores it.{}",
                        key.name,
                        did_you_mean(near)
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            );
        }
    }
    if !map.contains("hooks") && !map.contains("modules") {
        let at = map.entries.first().map_or(root.span, |e| e.key.span);
        out.push(
            Diagnostic::new(
                Code::MissingField,
                at,
                unread("a hooks file needs `hooks` (the hook matchers) or `modules` (hooks modules)".into()),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
    }
    if let Some(value) = map.value("hooks") {
        let report = hooks::check(value, text);
        for p in &report.problems {
            let d = if p.guard || p.whole {
                let why = if p.guard {
                    " (a broken PreToolUse or PermissionRequest hook may be what guards it)"
                } else {
                    ""
                };
                Diagnostic::new(
                    p.code,
                    p.span,
                    format!("{}: Claude Code does not load the plugin{why}", p.message),
                )
                .with_severity(Severity::Error)
                .with_effect(Effect::FileIgnored)
            } else {
                Diagnostic::new(
                    p.code,
                    p.span,
                    format!("{}: Claude Code ignores this entry (the other hooks load)", p.message),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored)
            };
            out.push(d);
        }
        out.extend(report.advice);
        scripts = report.scripts;
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, scripts)
}

/// Completion in a hooks file: its three keys at the top, then what the settings' `hooks` takes
/// (events, matchers, handlers, their values).
pub fn complete(text: &str, offset: usize) -> Vec<crate::analysis::complete::Item> {
    use crate::analysis::complete::{ItemKind, item, json_context};
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    match (ctx.path.first().map(String::as_str), &ctx.value_of) {
        (Some("hooks"), _) | (None, Some(_)) => crate::analysis::claude::settings::complete(text, offset, &[]),
        (None, None) => {
            let docs = [
                "The hooks: hook event to a list of `{matcher, hooks}`.",
                "Hooks modules (JavaScript files).",
                "What these hooks do.",
            ];
            let mut items: Vec<_> = KEYS
                .iter()
                .zip(docs)
                .filter(|(k, _)| !ctx.present.iter().any(|p| p == *k))
                .map(|(k, d)| {
                    let mut it = item(k, ItemKind::Key, "plugin hooks file", Some(d.to_string()), 0);
                    it.insert = format!("\"{k}\": ");
                    it.replace = ctx.replace;
                    it
                })
                .collect();
            items.sort_by(|a, b| a.label.cmp(&b.label));
            items
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Vec<String> {
        analyze(text)
            .0
            .iter()
            .map(|d| {
                format!(
                    "{} {} {} {}",
                    d.severity.as_str(),
                    d.code.as_str(),
                    d.effect.as_str(),
                    d.span.text(text)
                )
            })
            .collect()
    }

    #[test]
    fn completion_offers_the_keys_then_the_hooks() {
        let labels = |text: &str| {
            let at = text.find('|').unwrap();
            let text = text.replace('|', "");
            complete(&text, at).into_iter().map(|i| i.label).collect::<Vec<_>>()
        };
        assert_eq!(labels(r#"{"|"}"#), ["description", "hooks", "modules"]);
        assert!(labels(r#"{"hooks": {"|"}}"#).contains(&"PreToolUse".to_string()));
        assert!(labels(r#"{"hooks": {"Stop": [{"hooks": [{"type": "|"}]}]}}"#).contains(&"command".to_string()));
    }

    #[test]
    fn what_claude_code_loads_and_refuses() {
        assert_eq!(
            run(r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}"#),
            Vec::<String>::new()
        );
        assert_eq!(run(r#"{"description": "d", "modules": []}"#), Vec::<String>::new());
        // Another event's broken entry: dropped, the plugin loads.
        assert_eq!(
            run(r#"{"hooks": {"Stop": [{"hooks": [{"type": "shell", "command": "echo"}]}]}}"#),
            ["warning invalid-value value-ignored \"shell\""]
        );
        // A guard event's: the plugin is not loaded.
        assert_eq!(
            run(r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "shell", "command": "echo"}]}]}}"#),
            ["error invalid-value file-ignored \"shell\""]
        );
        assert_eq!(run(r#"{"hooks": "x"}"#), ["error invalid-type file-ignored \"x\""]);
        // Neither `hooks` nor `modules`, not JSON: the hooks are not loaded.
        assert_eq!(
            run(r#"{"description": "x"}"#),
            ["error missing-field file-ignored \"description\""]
        );
        let broken = run(r#"{"hooks": {"#);
        assert!(
            !broken.is_empty() && broken.iter().all(|d| d.starts_with("error syntax-error file-ignored")),
            "{broken:?}"
        );
        assert_eq!(
            run(r#"{"hooks": {"NotAnEvent": []}, "hook": 1}"#),
            [
                "warning unknown-key value-ignored \"NotAnEvent\"",
                "warning unknown-key value-ignored \"hook\""
            ]
        );
        // The scripts the commands run.
        let (_, _, s) = analyze(
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/stop.sh"}]}]}}"#,
        );
        assert_eq!(
            s.iter().map(|s| s.path.as_str()).collect::<Vec<_>>(),
            ["${CLAUDE_PLUGIN_ROOT}/bin/stop.sh"]
        );
    }
}
