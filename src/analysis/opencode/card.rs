//! Text views of the effective agent: the Markdown card shown on hover and by
//! `agent-lsp explain AGENT`, the agent list, field documentation and pattern explanations.
//! Locations are rendered by the caller (`where_is`), so this stays free of paths and I/O.

use std::fmt::Write as _;

use super::effective::{EffectiveAgent, Prompt, Rule};
use super::permission::{covers, pattern_covers};
use super::project::{Source, Sourced};
use super::schema::{self, FieldType};

/// Renders a source: "built-in", or "path:line".
pub type WhereIs<'a> = &'a dyn Fn(Source) -> String;

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

/// The agent card in Markdown.
pub fn card(a: &EffectiveAgent, where_is: WhereIs, changed: &[String]) -> String {
    let mut out = String::new();
    let kind = if a.native { "built-in agent" } else { "agent" };
    let _ = writeln!(out, "### `{}`: {} {kind}", a.name, a.mode.value);
    if let Some(d) = &a.display_name {
        let _ = writeln!(out, "\nShown as \"{}\" ({}).", d.value, where_is(d.source));
    }
    if let Some(d) = &a.description {
        let _ = writeln!(out, "\n{}", d.value.trim());
    }
    let _ = writeln!(out, "\n| field | value | from |\n|---|---|---|");
    let mut row = |name: &str, (value, from): (String, String)| {
        let _ = writeln!(out, "| {name} | {} | {} |", cell(&value), cell(&from));
    };
    row("mode", (a.mode.value.clone(), where_is(a.mode.source)));
    row("hidden", (a.hidden.value.to_string(), where_is(a.hidden.source)));
    row("model", sourced(&a.model, |m| format!("`{m}`"), where_is));
    row("variant", sourced(&a.variant, |m| m.clone(), where_is));
    row("temperature", sourced(&a.temperature, |t| t.to_string(), where_is));
    row("top_p", sourced(&a.top_p, |t| t.to_string(), where_is));
    row("steps", sourced(&a.steps, |t| t.to_string(), where_is));
    row("color", sourced(&a.color, |c| format!("`{c}`"), where_is));
    row("prompt", (prompt_text(&a.prompt.value), where_is(a.prompt.source)));
    for (k, v) in &a.options {
        row(
            &format!("options.{k}"),
            (format!("`{}`", short_json(&v.value)), where_is(v.source)),
        );
    }
    let _ = writeln!(
        out,
        "\n**Permissions** (last matching rule wins; no match is `ask`)\n\n| permission | for `*` | rules in evaluation order |\n|---|---|---|"
    );
    for (key, action) in a.decisions() {
        let winner = a.evaluate(&key, "*").1.map(|r| r as *const Rule);
        let rules: Vec<String> = a
            .permission
            .iter()
            .filter(|r| covers(&r.permission, &key) || r.permission == key)
            .map(|r| {
                let mark = if Some(r as *const Rule) == winner { " ✔" } else { "" };
                let perm = if r.permission == key {
                    String::new()
                } else {
                    format!("[{}] ", r.permission)
                };
                format!("{perm}`{}` {}{mark} ({})", r.pattern, r.action, where_is(r.source))
            })
            .collect();
        let _ = writeln!(out, "| {} | **{action}** | {} |", cell(&key), cell(&rules.join(" · ")));
    }
    if !changed.is_empty() {
        let _ = writeln!(out, "\n**This file changes:** {}", changed.join("; "));
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
pub fn list(agents: &[EffectiveAgent], where_is: WhereIs) -> String {
    let width = agents.iter().map(|a| a.name.len()).max().unwrap_or(4).max(4);
    let mut out = String::new();
    let _ = writeln!(out, "{:<width$}  {:<8}  {:<6}  defined in", "name", "mode", "hidden");
    for a in agents {
        let defs: Vec<String> = a.definitions.iter().map(|s| where_is(*s)).collect();
        let _ = writeln!(
            out,
            "{:<width$}  {:<8}  {:<6}  {}",
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
