//! Completion for Zuno: top-level keys of `zuno.json(c)`, agent fields (in `agents.<name>` and
//! in a frontmatter), modes, reasoning levels, permission modes, permission keys and actions,
//! tool names, agent names (in `delegates` and `default_agent`). On half-typed text, with the
//! context scans shared with the opencode dialect.

use super::schema::{self, FieldType};
use crate::analysis::complete::{Context, Item, ItemKind, item, json_context, yaml_context_in};
use crate::analysis::syntax::frontmatter;

/// What the workspace knows: agents (name, mode, description) and skill names.
#[derive(Clone, Debug, Default)]
pub struct Known {
    pub agents: Vec<(String, String, String)>,
    pub skills: Vec<String>,
}

pub fn complete(config: bool, text: &str, offset: usize, known: &Known) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let ctx = if config {
        json_context(text, offset)
    } else {
        let split = frontmatter::split(text);
        split
            .frontmatter
            .and_then(|fm| yaml_context_in(text, offset, fm.yaml, fm.close))
    };
    let Some(ctx) = ctx else { return Vec::new() };
    // Where the agent settings start in the path: 0 in a frontmatter, 2 under `agents.<name>`.
    let base = if !config {
        Some(0)
    } else if ctx.path.len() >= 2 && matches!(ctx.path[0].as_str(), "agents" | "agent") {
        Some(2)
    } else {
        None
    };
    let rel: Vec<&str> = match base {
        Some(b) => ctx.path[b..].iter().map(String::as_str).collect(),
        None => ctx.path.iter().map(String::as_str).collect(),
    };
    let mut items = match (&ctx.value_of, base) {
        (None, None) if ctx.path.is_empty() => {
            keys(&ctx, schema::TOP_LEVEL.iter().map(|(k, d)| (*k, *d)), "Zuno setting")
        }
        (None, Some(_)) if rel.is_empty() => keys(
            &ctx,
            schema::AGENT_FIELDS
                .iter()
                .filter(|f| !config || f.ty != FieldType::Name)
                .map(|f| (f.name, f.doc)),
            "Zuno agent field",
        ),
        (None, _) if rel == ["permission"] || (base.is_none() && ctx.path == ["permission"]) => keys(
            &ctx,
            [
                ("mode", "`standard`, `strict` or `allow_all`."),
                ("rules", "Tool rules; the last match wins."),
            ]
            .into_iter(),
            "permission",
        ),
        (None, _)
            if rel.len() == 2 && rel[0] == "permission" && rel[1] == "rules"
                || base.is_none() && ctx.path == ["permission", "rules"] =>
        {
            keys(
                &ctx,
                schema::PERMISSION_KEYS.iter().map(|(k, d)| (*k, *d)),
                "permission",
            )
        }
        // The documented sections: their fields.
        (None, None) if ctx.path.len() == 1 && super::sections::shape_of(&ctx.path[0]).is_some() => {
            let shape = super::sections::shape_of(&ctx.path[0]).unwrap_or(&crate::analysis::shape::Shape::Any);
            let fields: Vec<(&str, &str)> = crate::analysis::shape::lookup::fields_at(shape, &[])
                .into_iter()
                .map(|(_, f)| (f.name, f.doc))
                .collect();
            keys(&ctx, fields.into_iter(), &ctx.path[0])
        }
        (Some(key), None) if ctx.path.len() == 1 && super::sections::shape_of(&ctx.path[0]).is_some() => {
            let shape = super::sections::shape_of(&ctx.path[0]).unwrap_or(&crate::analysis::shape::Shape::Any);
            crate::analysis::shape::lookup::values_at(shape, &[key])
                .into_iter()
                .enumerate()
                .map(|(i, l)| {
                    let label = match l {
                        crate::analysis::shape::Lit::Str(s) => s.to_string(),
                        crate::analysis::shape::Lit::Bool(b) => b.to_string(),
                    };
                    item(&label, ItemKind::Value, key, None, i as u8)
                })
                .collect()
        }
        (Some(key), _) => values(key, &rel, config && base.is_none(), known),
        _ => Vec::new(),
    };
    let yaml = !config;
    for it in &mut items {
        it.replace = ctx.replace;
        let quoted = !yaml || ctx.quoted || it.label.starts_with(['#', '*', '$']);
        let bare = matches!(it.label.as_str(), "true" | "false") && it.kind == ItemKind::Value && !yaml;
        let body = if quoted && !bare {
            format!("\"{}\"", it.label)
        } else {
            it.label.clone()
        };
        it.insert = if ctx.value_of.is_none() {
            format!("{body}: ")
        } else {
            body
        };
    }
    // A YAML flow list (`delegates: [fixer, re`): replace only the entry under the cursor.
    if yaml && matches!(ctx.value_of.as_deref(), Some("delegates" | "tools" | "requiredSkills")) {
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let start = text[line_start..offset]
            .rfind(['[', ',', ' ', '\t'])
            .map_or(ctx.replace.start as usize, |i| line_start + i + 1)
            .max(ctx.replace.start as usize);
        for it in &mut items {
            it.replace = crate::analysis::text::Span::new(start, offset);
            it.insert = it.label.clone();
        }
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

fn keys<'a>(ctx: &Context, all: impl Iterator<Item = (&'a str, &'a str)>, detail: &str) -> Vec<Item> {
    all.filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
        .map(|(k, d)| item(k, ItemKind::Key, detail, Some(d.to_string()), 0))
        .collect()
}

fn values(key: &str, rel: &[&str], top: bool, known: &Known) -> Vec<Item> {
    let v = |label: &str, doc: &str| item(label, ItemKind::Value, key, Some(doc.to_string()), 0);
    // Enumerations keep their own order (`off` … `max`), not the alphabet.
    let ordered = |values: &[&str]| -> Vec<Item> {
        values
            .iter()
            .enumerate()
            .map(|(i, x)| item(x, ItemKind::Value, key, None, i as u8))
            .collect()
    };
    // The workspace's merged agents (built-ins included, with their merged mode) when known;
    // else the built-ins as Zuno ships them.
    let agents = |filter: &dyn Fn(&str) -> bool| -> Vec<Item> {
        let mut out: Vec<Item> = Vec::new();
        for (n, mode, d) in &known.agents {
            if filter(mode) && !out.iter().any(|i| &i.label == n) {
                let rank = if schema::builtin(n).is_some() { 1 } else { 0 };
                out.push(item(n, ItemKind::Agent, mode, Some(d.clone()), rank));
            }
        }
        if known.agents.is_empty() {
            out.extend(
                schema::BUILTIN_AGENTS
                    .iter()
                    .filter(|b| !b.hidden && filter(b.mode))
                    .map(|b| item(b.name, ItemKind::Agent, b.mode, Some(b.description.to_string()), 1)),
            );
        }
        out
    };
    if top && key == "default_agent" {
        return agents(&|m| m != "subagent");
    }
    if rel.first() == Some(&"permission") {
        return match (rel.len(), key) {
            (1, "mode") => schema::PERMISSION_MODES
                .iter()
                .enumerate()
                .map(|(i, (m, d))| item(m, ItemKind::Value, key, Some(d.to_string()), i as u8))
                .collect(),
            (_, _) => schema::ACTIONS.iter().map(|a| v(a, "")).collect(),
        };
    }
    if !rel.is_empty() {
        return Vec::new();
    }
    match key {
        "mode" => ordered(schema::MODES),
        "reasoning" => ordered(schema::REASONING),
        "hidden" | "disable" => vec![v("true", ""), v("false", "")],
        "color" => crate::analysis::color::THEME_COLORS
            .iter()
            .map(|c| item(c, ItemKind::Color, "theme color", None, 0))
            .collect(),
        "delegates" => agents(&|m| m != "primary"),
        "tools" => schema::TOOLS.iter().map(|t| v(t, "tool")).collect(),
        "requiredSkills" => known.skills.iter().map(|s| v(s, "skill")).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(config: bool, text: &str) -> Vec<String> {
        let at = text.find('|').unwrap();
        let t = text.replace('|', "");
        // As the server passes them: the merged agents, built-ins included.
        let known = Known {
            agents: vec![
                ("rev".into(), "subagent".into(), "Reviews".into()),
                ("fixer".into(), "subagent".into(), String::new()),
                ("plan".into(), "primary".into(), String::new()),
                ("orchestrator".into(), "primary".into(), String::new()),
            ],
            skills: vec!["codemap".into()],
        };
        complete(config, &t, at, &known).into_iter().map(|i| i.label).collect()
    }

    #[test]
    fn keys_and_values() {
        assert!(labels(true, "{\"|\"}").contains(&"agents".to_string()));
        assert!(labels(true, "{\"agents\": {\"a\": {\"|\"}}}").contains(&"reasoning".to_string()));
        assert_eq!(
            labels(true, "{\"agents\": {\"a\": {\"reasoning\": \"|\"}}}"),
            schema::REASONING
        );
        let d = labels(true, "{\"agents\": {\"a\": {\"delegates\": [\"|\"]}}}");
        assert!(
            d.contains(&"rev".to_string()) && d.contains(&"fixer".to_string()) && !d.contains(&"plan".to_string()),
            "{d:?}"
        );
        let d = labels(true, "{\"default_agent\": \"|\"}");
        assert!(
            d.contains(&"orchestrator".to_string()) && !d.contains(&"rev".to_string()),
            "{d:?}"
        );
        assert_eq!(
            labels(true, "{\"permission\": {\"mode\": \"|\"}}"),
            ["standard", "strict", "allow_all"]
        );
        assert!(labels(true, "{\"permission\": {\"rules\": {\"|\"}}}").contains(&"shell".to_string()));
        assert!(labels(false, "---\nmode: |\n---\n").contains(&"subagent".to_string()));
        assert_eq!(labels(false, "---\nreasoning: |\n---\n"), schema::REASONING);
        // In a YAML flow list, only the entry under the cursor is replaced.
        let t = "---\ndelegates: [fixer, re\n---\n";
        let at = t.find("re\n").unwrap() + 2;
        let known = Known {
            agents: vec![("rev".into(), "subagent".into(), "Reviews".into())],
            skills: Vec::new(),
        };
        let items = complete(false, t, at, &known);
        let rev = items.iter().find(|i| i.label == "rev").expect("rev offered");
        assert_eq!((rev.replace.text(t), rev.insert.as_str()), ("re", "rev"));
        // With the workspace's agents known, only they are offered (merged modes, no disabled ones).
        assert!(
            !items.iter().any(|i| i.label == "fixer"),
            "the built-ins come from the workspace list"
        );
        assert!(labels(false, "---\nre|\n---\n").contains(&"requiredSkills".to_string()));
        // The documented sections: their fields and values.
        let mut l = labels(true, "{\"sandbox\": {\"|\"}}");
        l.sort();
        assert_eq!(l, ["mode", "network", "onUnavailable"]);
        assert_eq!(
            labels(true, "{\"sandbox\": {\"mode\": \"|\"}}"),
            ["read-only", "workspace-write", "danger-full-access"]
        );
        assert!(labels(true, "{\"skills\": {\"|\"}}").contains(&"paths".to_string()));
    }
}
