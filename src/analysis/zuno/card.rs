//! The merged Zuno agent, for hover and `agent-lsp explain`: mode, model, reasoning, delegates,
//! tools, the permission mode and rules in evaluation order, and where each value comes from.
//! Locations are rendered by the caller.

use std::fmt::Write as _;

use serde_json::Value as Json;

use super::project::MergedAgent;
use crate::analysis::provenance::WhereIs;

fn short(v: &Json) -> String {
    match v {
        Json::String(s) => format!("`{s}`"),
        Json::Array(a) => a
            .iter()
            .map(|x| match x {
                Json::String(s) => format!("`{s}`"),
                other => format!("`{other}`"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => {
            let s = other.to_string();
            if s.chars().count() > 80 {
                format!("`{}…`", s.chars().take(77).collect::<String>())
            } else {
                format!("`{s}`")
            }
        }
    }
}

/// The permission rules as Zuno evaluates them: `(tool, pattern, action)` in order (the last
/// match wins).
pub fn rules(a: &MergedAgent) -> (String, Vec<(String, String, String)>) {
    let Some((perm, _)) = a.fields.get("permission") else {
        return ("standard".into(), Vec::new());
    };
    let mode = perm
        .get("mode")
        .and_then(Json::as_str)
        .unwrap_or("standard")
        .to_string();
    // In the order written (the merged JSON sorts its keys).
    let out = a
        .rules
        .iter()
        .map(|r| (r.tool.clone(), r.pattern.clone(), r.action.clone()))
        .collect();
    (mode, out)
}

pub fn card(a: &MergedAgent, where_is: WhereIs) -> String {
    let mut out = String::new();
    let title = crate::analysis::card::mode_title("Zuno", a.mode(), a.builtin);
    let disabled = if a.flag("disable") { " — **disabled**" } else { "" };
    let _ = writeln!(out, "### `{}`: {title}{disabled}", a.name);
    if let Some(d) = a.str("description") {
        let _ = writeln!(out, "\n{}", d.trim());
    }
    // What the agent may do first: its tools and its permission rules, then the other fields.
    let field = |out: &mut String, key: &str| {
        if let Some((v, src)) = a.fields.get(key) {
            let _ = writeln!(out, "- **{key}**: {} ({})", short(v), where_is(*src));
        }
    };
    let (mode, rules) = rules(a);
    if let Some((v, src)) = a.fields.get("tools") {
        let _ = writeln!(out, "\n**Tools**: only {} ({})", short(v), where_is(*src));
    }
    if rules.is_empty() && !a.fields.contains_key("permission") {
        // A built-in agent's own restrictions live in Zuno's source, not in a file: say nothing.
        if !a.builtin {
            let _ = writeln!(
                out,
                "\n**Permission**: none of its own (Zuno's defaults, mode `standard`)"
            );
        }
    } else {
        let from = a
            .fields
            .get("permission")
            .map(|(_, s)| where_is(*s))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "\n**Permission** mode `{mode}` ({from}); rules in order, the last match wins:\n"
        );
        for (tool, pattern, action) in rules {
            let _ = writeln!(out, "- `{tool}` `{pattern}` → {action}");
        }
    }
    let others = [
        "model",
        "reasoning",
        "variant",
        "steps",
        "temperature",
        "top_p",
        "delegates",
        "requiredSkills",
        "color",
        "hidden",
    ];
    if others.iter().any(|k| a.fields.contains_key(*k)) {
        let _ = writeln!(out, "\n**Settings**\n");
        for key in others {
            field(&mut out, key);
        }
    }
    let defs: Vec<String> = a.definitions.iter().map(|s| where_is(*s)).collect();
    let _ = writeln!(out, "\nDefined in: {}.", defs.join("; "));
    out
}

/// The agent as JSON, for `explain --format json`.
pub fn json(a: &MergedAgent, where_is: WhereIs) -> Json {
    let (mode, rules) = rules(a);
    let fields: serde_json::Map<String, Json> = a
        .fields
        .iter()
        .filter(|(k, _)| k.as_str() != "permission")
        .map(|(k, (v, _))| (k.clone(), v.clone()))
        .collect();
    serde_json::json!({
        "dialect": "zuno",
        "name": a.name,
        "mode": a.mode(),
        "builtin": a.builtin,
        "disabled": a.flag("disable"),
        "fields": fields,
        "permission": {
            "mode": mode,
            "rules": rules.iter().map(|(t, p, act)| serde_json::json!({"permission": t, "pattern": p, "action": act})).collect::<Vec<_>>(),
        },
        "defined_in": a.definitions.iter().map(|s| where_is(*s)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::provenance::Source;
    use crate::analysis::zuno::project::{ViewFile, registry};
    use crate::analysis::zuno::{FileKind, analyze};

    #[test]
    fn the_card_lists_the_merged_agent() {
        let f = analyze(
            &FileKind::Config,
            r#"{"agents": {"rev": {"mode": "subagent", "model": "a/b", "delegates": ["fixer"], "permission": {"mode": "strict", "rules": {"*": "ask", "shell": {"git *": "allow"}}}}}}"#,
        )
        .2;
        let reg = registry(&[ViewFile { file: 0, zuno: &f }]);
        let wi = |s: Source| match s {
            Source::BuiltIn => "built-in".to_string(),
            Source::File { file, span } => format!("f{file}:{}", span.start),
        };
        assert_eq!(
            card(&reg["rev"], &wi),
            "### `rev`: Zuno subagent\n\n**Permission** mode `strict` (f0:12); rules in order, the last match wins:\n\n- `*` `*` → ask\n- `shell` `git *` → allow\n\n**Settings**\n\n- **model**: `a/b` (f0:12)\n- **delegates**: `fixer` (f0:12)\n\nDefined in: f0:12.\n"
        );
        assert!(card(&reg["orchestrator"], &wi).starts_with("### `orchestrator`: Zuno primary agent (built-in)\n"));
    }
}
