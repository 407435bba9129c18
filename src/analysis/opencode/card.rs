//! Text views of the effective agent: the Markdown card shown on hover and by
//! `agent-lsp explain AGENT`, the agent list, field documentation and pattern explanations.
//! Locations are rendered by the caller (`where_is`), so this stays free of paths and I/O.

use std::fmt::Write as _;

use super::effective::{EffectiveAgent, Prompt};
use super::project::{Source, Sourced};
use super::schema::{self, FieldType};
use crate::analysis::permission::{covers, pattern_covers};
pub use crate::analysis::provenance::WhereIs;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn sourced<T>(v: &Option<Sourced<T>>, show: impl Fn(&T) -> String, where_is: WhereIs) -> (String, String) {
    match v {
        Some(s) => (show(&s.value), where_is(s.source)),
        None => ("—".into(), "not set".into()),
    }
}

pub fn prompt_text(p: &Prompt) -> String {
    match p {
        Prompt::ProviderDefault => "the provider's default system prompt".into(),
        Prompt::BuiltIn(f) => format!("opencode's built-in `{f}`"),
        Prompt::Body { empty: false } => "the Markdown body".into(),
        Prompt::Body { empty: true } => "none (the Markdown body is empty): the provider's default".into(),
        Prompt::WholeFile => "the whole file, frontmatter included (its YAML does not parse)".into(),
        Prompt::File(f) => format!("the file `{f}`"),
        Prompt::Inline(first) => format!("inline text (\"{first}…\")"),
    }
}

/// A JSON value on one line, shortened for a table cell.
fn short_json(v: &serde_json::Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        s.chars().take(77).collect::<String>() + "…"
    } else {
        s
    }
}

/// The agent card in Markdown, decision first: what the agent may do (one line per
/// permission: its action for any input, and the patterns that decide otherwise), then the
/// settings that are set (with where), then every permission rule in evaluation order.
pub fn card(a: &EffectiveAgent, where_is: WhereIs, changed: &[String]) -> String {
    let mut out = String::new();
    let title = crate::analysis::card::mode_title("opencode", &a.mode.value, a.native);
    let _ = writeln!(out, "### `{}`: {title}", a.name);
    if let Some(d) = &a.description {
        let _ = writeln!(out, "\n{}", d.value.trim());
    }
    let _ = writeln!(
        out,
        "\n**Permissions**: what it may do (the last matching rule decides; with no rule, ask)\n"
    );
    for line in permission_summary(a) {
        let _ = writeln!(out, "- {line}");
    }
    if !changed.is_empty() {
        let _ = writeln!(out, "\n**This file changes:** {}", changed.join("; "));
    }
    // Only what is set somewhere (a built-in value is shown by its name in the title).
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |name: &str, (value, from): (String, String)| rows.push((name.to_string(), value, from));
    if let Some(d) = &a.display_name {
        row("shown as", (d.value.clone(), where_is(d.source)));
    }
    if a.mode.source != Source::BuiltIn {
        row("mode", (a.mode.value.clone(), where_is(a.mode.source)));
    }
    if a.hidden.source != Source::BuiltIn || a.hidden.value {
        row("hidden", (a.hidden.value.to_string(), where_is(a.hidden.source)));
    }
    let mut set = |name: &str, v: (String, String)| {
        if v.1 != "not set" {
            row(name, v);
        }
    };
    set("model", sourced(&a.model, |m| format!("`{m}`"), where_is));
    set("variant", sourced(&a.variant, |m| m.clone(), where_is));
    set("temperature", sourced(&a.temperature, |t| t.to_string(), where_is));
    set("top_p", sourced(&a.top_p, |t| t.to_string(), where_is));
    set("steps", sourced(&a.steps, |t| t.to_string(), where_is));
    set("color", sourced(&a.color, |c| format!("`{c}`"), where_is));
    row("prompt", (prompt_text(&a.prompt.value), where_is(a.prompt.source)));
    for (k, v) in &a.options {
        row(
            &format!("options.{k}"),
            (format!("`{}`", short_json(&v.value)), where_is(v.source)),
        );
    }
    let _ = writeln!(out, "\n**Settings**\n\n| setting | value | from |\n|---|---|---|");
    for (name, value, from) in rows {
        let _ = writeln!(out, "| {name} | {} | {} |", cell(&value), cell(&from));
    }
    let _ = writeln!(
        out,
        "\n**Every permission rule, in evaluation order** (a later rule wins over an earlier one)\n"
    );
    for (i, r) in a.permission.iter().enumerate() {
        let perm = if r.permission == "*" {
            "every permission".to_string()
        } else {
            format!("`{}`", r.permission)
        };
        let input = if r.pattern == "*" {
            "any input".to_string()
        } else {
            format!("`{}`", r.pattern)
        };
        let _ = writeln!(out, "{}. {perm}, {input}: {} ({})", i + 1, r.action, where_is(r.source));
    }
    if a.definitions.iter().any(|s| *s != Source::BuiltIn) {
        let defs: Vec<String> = a
            .definitions
            .iter()
            .filter(|s| **s != Source::BuiltIn)
            .map(|s| where_is(*s))
            .collect();
        let _ = writeln!(out, "\nDefined in (merge order): {}", defs.join(", "));
    }
    out
}

/// One line per permission the agent's rules name: its action for any input, and the patterns
/// that decide otherwise (rules after the one deciding `*`, not overridden by a later rule),
/// grouped by action: "`bash`: **deny**, except `git diff *`, `git log *`: allow". The
/// catch-all permission `*` comes last, as "any other permission".
pub fn permission_summary(a: &EffectiveAgent) -> Vec<String> {
    let mut lines = Vec::new();
    let mut last = None;
    for (key, action) in a.decisions() {
        let (_, decider) = a.evaluate(&key, "*");
        let from = decider
            .and_then(|d| a.permission.iter().rposition(|r| std::ptr::eq(r, d)))
            .map_or(0, |i| i + 1);
        let later = &a.permission[from..];
        let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
        for (i, r) in later.iter().enumerate() {
            if r.pattern == "*" || !(covers(&r.permission, &key) || r.permission == key) {
                continue;
            }
            // Overridden for all its inputs by a later rule of the same permission: it decides
            // nothing.
            let overridden = later[i + 1..].iter().any(|l| {
                (covers(&l.permission, &key) || l.permission == key) && pattern_covers(&l.pattern, &r.pattern)
            });
            if overridden || r.action == action {
                continue;
            }
            match groups.iter_mut().find(|(act, _)| *act == r.action) {
                Some((_, patterns)) => patterns.push(&r.pattern),
                None => groups.push((&r.action, vec![&r.pattern])),
            }
        }
        let except = groups
            .iter()
            .map(|(act, patterns)| {
                // A few patterns by name; the full list is in the rules below.
                const SHOWN: usize = 4;
                let mut p: Vec<String> = patterns.iter().take(SHOWN).map(|p| format!("`{}`", cell(p))).collect();
                if patterns.len() > SHOWN {
                    p.push(format!("{} more", patterns.len() - SHOWN));
                }
                format!("{}: {act}", p.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ");
        let name = if key == "*" {
            "any other permission".to_string()
        } else {
            format!("`{}`", cell(&key))
        };
        let line = if except.is_empty() {
            format!("{name}: **{action}**")
        } else {
            format!("{name}: **{action}**, except {except}")
        };
        if key == "*" {
            last = Some(line);
        } else {
            lines.push(line);
        }
    }
    lines.extend(last);
    lines
}

/// What `after` (with one more file) changed compared with `before`, for the fields that file
/// sets. `before` is `None` when the file creates the agent.
pub fn changes(before: Option<&EffectiveAgent>, after: &EffectiveAgent, file: usize) -> Vec<String> {
    let mine = |s: Source| matches!(s, Source::File { file: f, .. } if f == file);
    let Some(before) = before else {
        return vec![format!("defines `{}`", after.name)];
    };
    let mut out = Vec::new();
    let mut field = |name: &str, was: String, now: String, src: Option<Source>| {
        if src.is_some_and(mine) && was != now {
            out.push(format!("{name} {was} → {now}"));
        }
    };
    let opt = |v: &Option<Sourced<String>>| v.as_ref().map(|s| s.value.clone()).unwrap_or("unset".into());
    let num = |v: &Option<Sourced<f64>>| v.as_ref().map(|s| s.value.to_string()).unwrap_or("unset".into());
    field(
        "mode",
        before.mode.value.clone(),
        after.mode.value.clone(),
        Some(after.mode.source),
    );
    field(
        "hidden",
        before.hidden.value.to_string(),
        after.hidden.value.to_string(),
        Some(after.hidden.source),
    );
    field(
        "model",
        opt(&before.model),
        opt(&after.model),
        after.model.as_ref().map(|s| s.source),
    );
    field(
        "color",
        opt(&before.color),
        opt(&after.color),
        after.color.as_ref().map(|s| s.source),
    );
    field(
        "description",
        opt(&before.description).chars().take(30).collect(),
        opt(&after.description).chars().take(30).collect(),
        after.description.as_ref().map(|s| s.source),
    );
    field(
        "temperature",
        num(&before.temperature),
        num(&after.temperature),
        after.temperature.as_ref().map(|s| s.source),
    );
    field(
        "top_p",
        num(&before.top_p),
        num(&after.top_p),
        after.top_p.as_ref().map(|s| s.source),
    );
    field(
        "steps",
        before
            .steps
            .as_ref()
            .map(|s| s.value.to_string())
            .unwrap_or("unset".into()),
        after
            .steps
            .as_ref()
            .map(|s| s.value.to_string())
            .unwrap_or("unset".into()),
        after.steps.as_ref().map(|s| s.source),
    );
    field(
        "prompt",
        prompt_text(&before.prompt.value),
        prompt_text(&after.prompt.value),
        Some(after.prompt.source),
    );
    let added = after.permission.iter().filter(|r| mine(r.source)).count();
    if added > 0 {
        let changed_decisions: Vec<String> = after
            .decisions()
            .into_iter()
            .filter(|(k, act)| before.evaluate(k, "*").0 != act)
            .map(|(k, act)| format!("`{k}` {} → {act}", before.evaluate(&k, "*").0))
            .collect();
        let mut s = format!("adds {added} permission rule{}", if added == 1 { "" } else { "s" });
        if !changed_decisions.is_empty() {
            s.push_str(&format!(" ({})", changed_decisions.join(", ")));
        }
        out.push(s);
    }
    out
}

/// One line per agent, like `opencode agent list`.
/// The agents as a table; when `marked` holds for some (their files have problems that make
/// opencode refuse or skip them), a first column marks those with `!`.
pub fn list(agents: &[EffectiveAgent], where_is: WhereIs, marked: &dyn Fn(&EffectiveAgent) -> bool) -> String {
    let width = agents.iter().map(|a| a.name.len()).max().unwrap_or(4).max(4);
    let marks = agents.iter().any(marked);
    let mark = |a: Option<&EffectiveAgent>| match (marks, a) {
        (false, _) => "",
        (true, Some(a)) if marked(a) => "! ",
        (true, _) => "  ",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}{:<width$}  {:<8}  {:<6}  defined in",
        mark(None),
        "name",
        "mode",
        "hidden"
    );
    for a in agents {
        let defs: Vec<String> = a.definitions.iter().map(|s| where_is(*s)).collect();
        let _ = writeln!(
            out,
            "{}{:<width$}  {:<8}  {:<6}  {}",
            mark(Some(a)),
            a.name,
            a.mode.value,
            if a.hidden.value { "yes" } else { "no" },
            defs.join(", ")
        );
    }
    out
}

/// Documentation of an agent field, for hover on its key.
pub fn field_doc(name: &str) -> Option<String> {
    let f = schema::agent_field(name)?;
    let ty = match f.ty {
        FieldType::String => "string",
        FieldType::Number => "number",
        FieldType::PositiveInt => "integer > 0",
        FieldType::Bool => "boolean",
        FieldType::Mode => "\"subagent\" | \"primary\" | \"all\"",
        FieldType::Color => "\"#rrggbb\" | theme color",
        FieldType::Model => "\"provider/model\"",
        FieldType::Object => "object",
        FieldType::Tools => "{ tool: boolean } (deprecated)",
        FieldType::Permission => "action | { permission: action | { pattern: action } }",
        FieldType::Name => "string",
    };
    Some(format!("**`{}`**: `{ty}`\n\n{}", f.name, f.doc))
}

/// Documentation of a permission key, for hover on it.
pub fn permission_doc(name: &str) -> Option<String> {
    if let Some(k) = schema::permission_key(name) {
        let value = match k.value {
            schema::PermissionValue::ActionOnly => "an action only (allow, ask, deny)",
            schema::PermissionValue::ActionOrObject => "an action, or an object of pattern → action",
        };
        return Some(format!(
            "**`{}`** permission: {value}.\n\nPatterns match {}.",
            k.name, k.matches
        ));
    }
    schema::DEAD_PERMISSION_KEYS
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(k, why)| format!("**`{k}`**: no tool consults this permission ({why})."))
}

/// What a pattern rule matches and whether a later rule in the same list shadows it.
pub fn pattern_doc(rules: &[(&str, &str, &str)], index: usize) -> String {
    let (perm, pattern, action) = rules[index];
    let mut out = format!("`{perm}` rule `\"{pattern}\": {action}`\n\n");
    let star = pattern.contains('*') || pattern.contains('?');
    if pattern == "*" {
        out.push_str("Matches every input.");
    } else if !star {
        out.push_str(&format!("Matches exactly `{pattern}`."));
    } else {
        out.push_str("`*` matches any text (including `/`), `?` one character; case-sensitive.");
        if let Some(stem) = pattern.strip_suffix(" *") {
            out.push_str(&format!(" Also matches `{stem}` with nothing after it."));
        }
    }
    if let Some((p, pat, act)) = rules[index + 1..]
        .iter()
        .rev()
        .find(|(p, pat, _)| covers(p, perm) && pattern_covers(pat, pattern))
    {
        out.push_str(&format!(
            "\n\n**Never decides**: the later rule `{p}` `\"{pat}\": {act}` matches everything this one matches (last match wins)."
        ));
    }
    out
}
