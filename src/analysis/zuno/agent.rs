//! The checks of one Zuno agent (a `agents.<name>` entry of `zuno.json(c)` or a Markdown
//! frontmatter) and of a permission block. Zuno refuses the configuration on a schema error
//! (`ConfigError::Invalid`): those are errors with effect `refuses-to-start`. Unknown agent keys
//! are swept into `options`: a warning. Where Zuno's revisions disagree, a warning.

use super::schema::{self, FieldType};
use crate::analysis::color::is_hex_color;
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Location, Related, Severity};
use crate::analysis::permission::pattern_covers;
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Entry, Map, Node, Value};
use crate::analysis::text::Span;

pub(crate) fn refuse(code: Code, span: Span, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Error)
        .with_effect(Effect::RefusesToStart)
}

pub(crate) fn warn(code: Code, span: Span, effect: Effect, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Warning)
        .with_effect(effect)
}

/// Check one agent's settings. `markdown`: a frontmatter (where `name` is a field).
pub fn check(node: &Node, markdown: bool, text: &str, out: &mut Vec<Diagnostic>) {
    let Some(map) = node.as_map() else {
        if !matches!(node.value, Value::Null | Value::Unknown) {
            out.push(refuse(
                Code::InvalidType,
                node.span,
                format!(
                    "an agent must be an object of settings, not {}; Zuno refuses the configuration",
                    node.type_name()
                ),
            ));
        }
        return;
    };
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        if let Some((_, replacement)) = schema::AGENT_REJECTED.iter().find(|(k, _)| *k == key) {
            let mut d = refuse(
                Code::DeprecatedField,
                e.key.span,
                format!("Zuno rejects `{key}` and refuses the configuration: {replacement}"),
            );
            if key == "maxSteps" && !map.contains("steps") && e.key.span.text(text).trim_matches('"') == key {
                let quoted = e.key.span.text(text).starts_with('"');
                let new = if quoted { "\"steps\"" } else { "steps" };
                d = d.with_fix("Rename to `steps`", vec![Edit::new(e.key.span, new)], true);
            }
            out.push(d);
            continue;
        }
        let Some(field) = schema::agent_field(key).filter(|f| markdown || f.ty != FieldType::Name) else {
            unknown_key(e, map, text, out);
            continue;
        };
        if map.get(key).is_some_and(|last| last.key.span != e.key.span) {
            continue; // the last of duplicate JSON keys counts
        }
        check_field(e, field.ty, text, out);
    }
    // `variant` and `reasoning` need the agent's own model (code), which the docs deny.
    let model = map.value("model").is_some_and(|m| !matches!(m.value, Value::Null));
    let variant = map.get("variant").filter(|e| !matches!(e.value.value, Value::Null));
    let reasoning = map.get("reasoning").filter(|e| !matches!(e.value.value, Value::Null));
    for e in [variant, reasoning].into_iter().flatten() {
        if !model {
            out.push(warn(
                Code::InvalidValue,
                e.key.span,
                Effect::RefusesToStart,
                format!(
                    "`{}` applies only with the agent's own `model`; Zuno's code refuses it without one (its docs say it is ignored). Add `model`",
                    e.key.name
                ),
            ));
        }
    }
    if let (Some(v), Some(r)) = (variant, reasoning) {
        out.push(
            warn(
                Code::InvalidValue,
                r.key.span,
                Effect::RefusesToStart,
                "`variant` and `reasoning` are mutually exclusive in Zuno's code: set one of them".into(),
            )
            .with_related(Location::Here(v.key.span), "`variant` is set here"),
        );
    }
}

fn unknown_key(e: &Entry, map: &Map, text: &str, out: &mut Vec<Diagnostic>) {
    let key = e.key.name.as_str();
    let known = schema::AGENT_FIELDS.iter().map(|f| f.name).filter(|n| *n != "name");
    let near = suggest::closest(key, known).filter(|n| !map.contains(n));
    let mut d = warn(
        Code::UnknownKey,
        e.key.span,
        Effect::ValueIgnored,
        format!(
            "Zuno does not know `{key}`: it is swept into `options` and sent to the provider.{}",
            suggest::did_you_mean(near)
        ),
    );
    if let Some(n) = near {
        let raw = e.key.span.text(text);
        let new = if raw.starts_with('"') {
            format!("\"{n}\"")
        } else {
            n.to_string()
        };
        d = d.with_suggestion(e.key.span, new);
    }
    out.push(d);
}

fn check_field(e: &Entry, ty: FieldType, text: &str, out: &mut Vec<Diagnostic>) {
    let v = &e.value;
    let key = e.key.name.as_str();
    if matches!(v.value, Value::Null | Value::Unknown) {
        return;
    }
    let wrong = |expected: &str| {
        refuse(
            Code::InvalidType,
            v.span,
            format!(
                "`{key}` must be {expected}, not {}; Zuno refuses the configuration",
                v.type_name()
            ),
        )
    };
    match ty {
        FieldType::String | FieldType::Name => {
            if !matches!(v.value, Value::Str(_)) {
                out.push(wrong("a string"));
            }
        }
        FieldType::Number => {
            if !matches!(v.value, Value::Int(_) | Value::Float(_)) {
                out.push(wrong("a number"));
            }
        }
        FieldType::Bool => {
            if !matches!(v.value, Value::Bool(_)) {
                out.push(wrong("`true` or `false`"));
            }
        }
        FieldType::PositiveInt => match v.value {
            Value::Int(n) if (1..=u32::MAX as i64).contains(&n) => {}
            Value::Int(_) => out.push(refuse(
                Code::InvalidValue,
                v.span,
                format!("`{key}` must be an integer of at least 1; Zuno refuses the configuration"),
            )),
            Value::Float(f) if f.fract() == 0.0 && f >= 1.0 => {}
            _ => out.push(wrong("an integer of at least 1")),
        },
        FieldType::Mode => enum_value(v, key, schema::MODES, out),
        FieldType::Reasoning => enum_value(v, key, schema::REASONING, out),
        FieldType::Model => match &v.value {
            Value::Str(s) if s.contains('/') && !s.starts_with('/') && !s.ends_with('/') => {}
            Value::Str(s) => out.push(warn(
                Code::InvalidModel,
                v.span,
                Effect::FailsWhenUsed,
                format!("`{s}` is not of the form `provider/model`: Zuno models are always provider-prefixed"),
            )),
            _ => out.push(wrong("a string `provider/model`")),
        },
        FieldType::Color => match &v.value {
            Value::Str(s) if is_hex_color(s) || crate::analysis::color::THEME_COLORS.contains(&s.as_str()) => {}
            Value::Str(s) => {
                let near = suggest::closest(s, crate::analysis::color::THEME_COLORS.iter().copied());
                let mut d = refuse(
                    Code::InvalidColor,
                    v.span,
                    format!(
                        "`{s}` is neither `#rrggbb` nor a theme color ({}); Zuno refuses the configuration",
                        crate::analysis::color::THEME_COLORS.join(", ")
                    ),
                );
                if let Some(n) = near {
                    d = d.with_suggestion(v.span, crate::analysis::edit::requote(v, n));
                }
                out.push(d);
            }
            _ => out.push(wrong("a color string")),
        },
        FieldType::Names => names(e, text, out),
        FieldType::Object => {
            if !matches!(v.value, Value::Map(_)) {
                out.push(wrong("an object"));
            }
        }
        FieldType::Permission => permission(v, text, out),
    }
}

fn enum_value(v: &Node, key: &str, values: &[&str], out: &mut Vec<Diagnostic>) {
    let Value::Str(s) = &v.value else {
        out.push(refuse(
            Code::InvalidType,
            v.span,
            format!("`{key}` must be one of {}, not {}", values.join(", "), v.type_name()),
        ));
        return;
    };
    if values.contains(&s.as_str()) {
        return;
    }
    let near = suggest::closest(s, values.iter().copied());
    let mut d = refuse(
        Code::InvalidValue,
        v.span,
        format!(
            "`{s}` is not a valid `{key}` ({}); Zuno refuses the configuration.{}",
            values.join(", "),
            suggest::did_you_mean(near)
        ),
    );
    if let Some(n) = near {
        d = d.with_suggestion(v.span, crate::analysis::edit::requote(v, n));
    }
    out.push(d);
}

/// `tools`, `delegates`, `requiredSkills`: a list of strings, not empty, no blank or repeated
/// entry (Zuno's code refuses each).
fn names(e: &Entry, _text: &str, out: &mut Vec<Diagnostic>) {
    let key = e.key.name.as_str();
    let Value::Seq(items) = &e.value.value else {
        let extra = if key == "tools" && matches!(e.value.value, Value::Map(_)) {
            ". A `tools` map of switches is the old opencode form: use `permission` rules (or list the tools)"
        } else {
            ""
        };
        out.push(refuse(
            Code::InvalidType,
            e.value.span,
            format!(
                "`{key}` must be a list of names, not {}; Zuno refuses the configuration{extra}",
                e.value.type_name()
            ),
        ));
        return;
    };
    if items.is_empty() {
        out.push(refuse(
            Code::InvalidValue,
            e.value.span,
            format!("agent `{key}` must not be empty when present (Zuno refuses the configuration); remove it instead"),
        ));
        return;
    }
    let mut seen: Vec<(&str, Span)> = Vec::new();
    for item in items {
        match &item.value {
            Value::Str(s) if s.trim().is_empty() => out.push(refuse(
                Code::InvalidValue,
                item.span,
                format!("agent `{key}` entries must not be empty; Zuno refuses the configuration"),
            )),
            Value::Str(s) => {
                if let Some((_, first)) = seen.iter().find(|(x, _)| *x == s.as_str()) {
                    out.push(
                        refuse(
                            Code::InvalidValue,
                            item.span,
                            format!("agent `{key}` contains `{s}` twice; Zuno refuses the configuration"),
                        )
                        .with_related(Location::Here(*first), "first listed here"),
                    );
                } else {
                    seen.push((s, item.span));
                    if key == "tools" && !schema::TOOLS.contains(&s.as_str()) {
                        let near = suggest::closest(s, schema::TOOLS.iter().copied());
                        if near.is_some() || !s.contains(['_', '-', '.']) {
                            let mut d = warn(
                                Code::InvalidValue,
                                item.span,
                                Effect::ValueIgnored,
                                format!(
                                    "`{s}` is not one of Zuno's tools (MCP and plugin tools are fine if they exist).{}",
                                    suggest::did_you_mean(near)
                                ),
                            );
                            if let Some(n) = near {
                                d = d.with_suggestion(item.span, crate::analysis::edit::requote(item, n));
                            }
                            out.push(d);
                        }
                    }
                }
            }
            Value::Unknown => {}
            _ => out.push(refuse(
                Code::InvalidType,
                item.span,
                format!("agent `{key}` entries must be strings, not {}", item.type_name()),
            )),
        }
    }
}

/// A permission block: `{mode, rules}` (newest), or the older simple form.
pub fn permission(v: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    match &v.value {
        Value::Str(s) if schema::ACTIONS.contains(&s.as_str()) => out.push(warn(
            Code::InvalidType,
            v.span,
            Effect::RefusesToStart,
            format!("a bare `\"{s}\"` for every tool is the older form; the newest Zuno requires `{{\"mode\": ..., \"rules\": {{\"*\": \"{s}\"}}}}`"),
        )),
        Value::Map(m) => {
            let wrapped = m.entries.iter().all(|e| matches!(e.key.name.as_str(), "mode" | "rules"));
            if !wrapped {
                if m.contains("mode") || m.contains("rules") {
                    for e in m.entries.iter().filter(|e| !matches!(e.key.name.as_str(), "mode" | "rules")) {
                        out.push(refuse(
                            Code::UnknownKey,
                            e.key.span,
                            format!(
                                "a permission block has only `mode` and `rules`; Zuno refuses `{}` here. Put tool rules under `rules`",
                                e.key.name
                            ),
                        ));
                    }
                } else {
                    out.push(warn(
                        Code::InvalidType,
                        v.span,
                        Effect::RefusesToStart,
                        "tool rules directly under `permission` are the older form; the newest Zuno requires them under `rules` (`{\"mode\": \"standard\", \"rules\": {...}}`)".into(),
                    ));
                    rules(v, text, out);
                    return;
                }
            }
            if let Some(mode) = m.value("mode")
                && !matches!(mode.value, Value::Null)
            {
                let modes: Vec<&str> = schema::PERMISSION_MODES.iter().map(|(n, _)| *n).collect();
                enum_value(mode, "permission.mode", &modes, out);
            }
            if let Some(r) = m.value("rules")
                && !matches!(r.value, Value::Null)
            {
                if matches!(r.value, Value::Map(_)) {
                    rules(r, text, out);
                } else {
                    out.push(refuse(
                        Code::InvalidType,
                        r.span,
                        format!("`rules` must be an object of tool rules, not {}", r.type_name()),
                    ));
                }
            }
        }
        Value::Null | Value::Unknown => {}
        _ => out.push(refuse(
            Code::InvalidType,
            v.span,
            format!("`permission` must be an object `{{mode, rules}}`, not {}", v.type_name()),
        )),
    }
}

/// The rules object: keys and actions, dead keys, shadowed rules (last match wins).
fn rules(r: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    let Some(map) = r.as_map() else { return };
    for e in map.js_entries().into_iter() {
        let (key, v) = (e.0, e.1);
        let name = key.name.as_str();
        if let Some((_, governs)) = schema::DEAD_PERMISSION_KEYS.iter().find(|(k, _)| *k == name) {
            out.push(refuse(
                Code::UnknownPermission,
                key.span,
                format!("Zuno rejects rules under `{name}`: they can never match. `{governs}` governs it"),
            ));
            continue;
        }
        if let Some((_, new)) = schema::OLD_PERMISSION_KEYS.iter().find(|(k, _)| *k == name) {
            let d = warn(
                Code::UnknownPermission,
                key.span,
                Effect::RuleNeverApplies,
                format!("`{name}` is the older name; Zuno's tool is `{new}`, so this rule may match nothing"),
            )
            .with_suggestion(key.span, key_text(key.span.text(text), new));
            out.push(d);
        } else if !schema::PERMISSION_KEYS.iter().any(|(k, _)| *k == name) && !name.contains(['*', '_', '.']) {
            let near = suggest::closest(name, schema::PERMISSION_KEYS.iter().map(|(k, _)| *k));
            if let Some(n) = near {
                out.push(
                    warn(
                        Code::UnknownPermission,
                        key.span,
                        Effect::RuleNeverApplies,
                        format!("no Zuno tool is called `{name}`; did you mean `{n}`?"),
                    )
                    .with_suggestion(key.span, key_text(key.span.text(text), n)),
                );
            }
        }
        match &v.value {
            Value::Str(s) => {
                action(v, s, out);
            }
            Value::Map(patterns) => {
                if schema::ACTION_ONLY_KEYS.contains(&name) {
                    out.push(refuse(
                        Code::InvalidType,
                        v.span,
                        format!("permission `{name}` takes a bare action, not per-pattern rules; Zuno refuses the configuration"),
                    ));
                    continue;
                }
                let mut seen: Vec<(&str, Span)> = Vec::new();
                for (pk, pv) in patterns.js_entries() {
                    match &pv.value {
                        Value::Str(s) => action(pv, s, out),
                        Value::Unknown => {}
                        _ => out.push(refuse(
                            Code::InvalidType,
                            pv.span,
                            format!(
                                "a rule's action must be `allow`, `ask` or `deny`, not {}",
                                pv.type_name()
                            ),
                        )),
                    }
                    seen.push((pk.name.as_str(), pk.span));
                }
                shadowed(name, &seen, patterns, out);
            }
            Value::Null | Value::Unknown => {}
            _ => out.push(refuse(
                Code::InvalidType,
                v.span,
                format!(
                    "`{name}` must be an action or an object of pattern rules, not {}",
                    v.type_name()
                ),
            )),
        }
    }
}

/// A key's replacement text, quoted as the original is.
fn key_text(raw: &str, new: &str) -> String {
    if raw.starts_with('"') {
        format!("\"{new}\"")
    } else {
        new.to_string()
    }
}

fn action(v: &Node, s: &str, out: &mut Vec<Diagnostic>) {
    if schema::ACTIONS.contains(&s) {
        return;
    }
    let near = suggest::closest(s, schema::ACTIONS.iter().copied());
    let mut d = refuse(
        Code::InvalidValue,
        v.span,
        format!(
            "`{s}` is not an action (allow, ask, deny); Zuno refuses the configuration.{}",
            suggest::did_you_mean(near)
        ),
    );
    if let Some(n) = near {
        d = d.with_suggestion(v.span, crate::analysis::edit::requote(v, n));
    }
    out.push(d);
}

/// Rules that a later rule of the same key always overrides (the last match wins).
fn shadowed(key: &str, patterns: &[(&str, Span)], map: &Map, out: &mut Vec<Diagnostic>) {
    let action_of = |span: Span| {
        map.entries
            .iter()
            .find(|e| e.key.span == span)
            .and_then(|e| e.value.as_str())
            .unwrap_or("")
    };
    // (the later rule, the earlier rules it makes dead), by the later rule.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, (earlier, espan)) in patterns.iter().enumerate() {
        let Some(j) = patterns[i + 1..]
            .iter()
            .position(|(l, _)| pattern_covers(l, earlier))
            .map(|j| i + 1 + j)
        else {
            continue;
        };
        let (later, lspan) = &patterns[j];
        if action_of(*espan) == action_of(*lspan) && *later != "*" {
            continue;
        }
        match groups.iter_mut().find(|(l, _)| *l == j) {
            Some((_, dead)) => dead.push(i),
            None => groups.push((j, vec![i])),
        }
    }
    // One finding per cause: on the dead rule when it is alone, else on the rule that makes
    // several dead, with them as related locations.
    for (j, dead) in groups {
        let (later, lspan) = patterns[j];
        match dead.as_slice() {
            [i] => {
                let earlier = patterns[*i].0;
                out.push(Diagnostic {
                    related: vec![Related {
                        location: Location::Here(lspan),
                        message: format!("`{later}` comes later and matches everything `{earlier}` matches"),
                        lost: false,
                    }],
                    ..warn(
                        Code::ShadowedRule,
                        patterns[*i].1,
                        Effect::RuleNeverApplies,
                        format!(
                            "this `{key}` rule never decides: Zuno applies the last matching rule, and `{later}` below matches everything `{earlier}` matches. Put narrow rules after broad ones"
                        ),
                    )
                });
            }
            many => {
                let mut d = warn(
                    Code::ShadowedRule,
                    lspan,
                    Effect::RuleNeverApplies,
                    format!(
                        "this `{key}` rule makes {} rules above it dead: Zuno applies the last matching rule, and `{later}` matches every input they match. Put it before them",
                        many.len()
                    ),
                );
                // The live rule itself is not faded; the dead ones are its related locations.
                d.tags = &[];
                d.related = many
                    .iter()
                    .map(|&i| Related {
                        location: Location::Here(patterns[i].1),
                        message: format!("never decides: `{}` → {}", patterns[i].0, action_of(patterns[i].1)),
                        lost: true,
                    })
                    .collect();
                out.push(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::jsonc;

    fn diags(agent_json: &str) -> Vec<(Code, Severity, String)> {
        let text = agent_json;
        let parsed = jsonc::parse(text);
        let mut out = Vec::new();
        check(parsed.root.as_ref().unwrap(), false, text, &mut out);
        out.into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    #[test]
    fn a_complete_agent_is_clean() {
        let t = r#"{"description": "d", "mode": "subagent", "model": "anthropic/claude", "reasoning": "high",
            "temperature": 0.2, "top_p": 1, "steps": 8, "color": "accent", "hidden": false, "disable": false,
            "prompt": "p", "tools": ["read", "shell"], "delegates": ["fixer"], "requiredSkills": ["s"],
            "options": {}, "permission": {"mode": "strict", "rules": {"*": "ask", "shell": {"*": "ask", "git *": "allow"}}}}"#;
        assert_eq!(diags(t), []);
    }

    #[test]
    fn wrong_types_values_and_lists() {
        use Code::*;
        use Severity::*;
        let cases: &[(&str, Code, Severity, &str)] = &[
            (r#"{"mode": "main"}"#, InvalidValue, Error, "\"main\""),
            (
                r#"{"reasoning": "extreme", "model": "a/b"}"#,
                InvalidValue,
                Error,
                "\"extreme\"",
            ),
            (r#"{"steps": 0}"#, InvalidValue, Error, "0"),
            (r#"{"steps": "8"}"#, InvalidType, Error, "\"8\""),
            (r#"{"color": "teal"}"#, InvalidColor, Error, "\"teal\""),
            (r#"{"hidden": "yes"}"#, InvalidType, Error, "\"yes\""),
            (r#"{"delegates": []}"#, InvalidValue, Error, "[]"),
            (r#"{"delegates": ["a", " "]}"#, InvalidValue, Error, "\" \""),
            (
                r#"{"tools": {"write": false}}"#,
                InvalidType,
                Error,
                "{\"write\": false}",
            ),
            (r#"{"model": "gpt-4o"}"#, InvalidModel, Warning, "\"gpt-4o\""),
            (r#"{"maxSteps": 5}"#, DeprecatedField, Error, "\"maxSteps\""),
            (r#"{"temprature": 0.1}"#, UnknownKey, Warning, "\"temprature\""),
            (r#"{"variant": "high"}"#, InvalidValue, Warning, "\"variant\""),
            (r#"{"tools": ["shel"]}"#, InvalidValue, Warning, "\"shel\""),
        ];
        for (t, code, sev, under) in cases {
            assert_eq!(diags(t), [(*code, *sev, under.to_string())], "{t}");
        }
        // A repeated entry points at the repeat.
        assert_eq!(
            diags(r#"{"requiredSkills": ["a", "a"]}"#),
            [(Code::InvalidValue, Severity::Error, "\"a\"".into())]
        );
        // MCP and plugin tool names are left alone.
        assert_eq!(diags(r#"{"tools": ["mcp_github.issue", "my-plugin"]}"#), []);
    }

    #[test]
    fn permission_blocks() {
        use Code::*;
        use Severity::*;
        let p = |s: &str| diags(&format!(r#"{{"permission": {s}}}"#));
        assert_eq!(p(r#"{"mode": "yolo"}"#), [(InvalidValue, Error, "\"yolo\"".into())]);
        assert_eq!(
            p(r#"{"mode": "standard", "shell": "ask"}"#),
            [(UnknownKey, Error, "\"shell\"".into())]
        );
        assert_eq!(
            p(r#"{"edit": "deny"}"#),
            [(InvalidType, Warning, "{\"edit\": \"deny\"}".into())]
        );
        assert_eq!(p(r#""ask""#), [(InvalidType, Warning, "\"ask\"".into())]);
        // `null` is no permission block: Zuno's defaults, nothing to report.
        assert_eq!(p("null"), []);
        assert_eq!(
            p(r#"{"rules": {"write": "deny"}}"#),
            [(UnknownPermission, Error, "\"write\"".into())]
        );
        assert_eq!(
            p(r#"{"rules": {"bash": "ask"}}"#),
            [(UnknownPermission, Warning, "\"bash\"".into())]
        );
        assert_eq!(
            p(r#"{"rules": {"shel": "ask"}}"#),
            [(UnknownPermission, Warning, "\"shel\"".into())]
        );
        assert_eq!(
            p(r#"{"rules": {"question": {"*": "ask"}}}"#),
            [(InvalidType, Error, "{\"*\": \"ask\"}".into())]
        );
        assert_eq!(
            p(r#"{"rules": {"read": "maybe"}}"#),
            [(InvalidValue, Error, "\"maybe\"".into())]
        );
        // Last match wins: a catch-all written last shadows the narrow rules before it.
        assert_eq!(
            p(r#"{"rules": {"shell": {"git push*": "deny", "*": "ask"}}}"#),
            [(ShadowedRule, Warning, "\"git push*\"".into())]
        );
        assert_eq!(p(r#"{"rules": {"shell": {"*": "ask", "git push*": "deny"}}}"#), []);
        // A narrower rule under a broader one that is not a catch-all: reported when the actions
        // differ, not when the broader one decides the same.
        assert_eq!(
            p(r#"{"rules": {"shell": {"git push": "deny", "git *": "allow"}}}"#),
            [(ShadowedRule, Warning, "\"git push\"".into())]
        );
        assert_eq!(
            p(r#"{"rules": {"shell": {"git status": "allow", "git *": "allow"}}}"#),
            []
        );
        // A catch-all that makes several rules dead: one finding, on it, the dead rules related.
        let text = r#"{"permission": {"rules": {"shell": {"git push*": "deny", "rm *": "deny", "*": "ask"}}}}"#;
        let mut out = Vec::new();
        check(jsonc::parse(text).root.as_ref().unwrap(), false, text, &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].span.text(text), "\"*\"");
        assert_eq!(
            out[0].message,
            "this `shell` rule makes 2 rules above it dead: Zuno applies the last matching rule, and `*` matches every input they match. Put it before them"
        );
        let related: Vec<(&str, &str)> = out[0]
            .related
            .iter()
            .map(|r| match r.location {
                Location::Here(s) => (s.text(text), r.message.as_str()),
                _ => panic!("{r:?}"),
            })
            .collect();
        assert_eq!(
            related,
            [
                ("\"git push*\"", "never decides: `git push*` → deny"),
                ("\"rm *\"", "never decides: `rm *` → deny")
            ]
        );
        assert!(out[0].tags.is_empty());
        // MCP, plugin and skill tool keys are kept.
        assert_eq!(p(r#"{"rules": {"github_create_issue": "ask", "mcp.*": "deny"}}"#), []);
    }
}
