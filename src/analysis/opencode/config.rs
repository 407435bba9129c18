//! `opencode.json` / `opencode.jsonc`: top-level keys, `agent` and `mode` entries, `command`
//! entries, `default_agent`; every other section through [`sections`]. Rules: `syntax-error`,
//! `duplicate-key`, `unknown-key`, `v2-permissions`, `deprecated-field`, `missing-template`,
//! `invalid-type`, `invalid-value`, and every agent and permission rule for the entries.

use super::agent::{self, Ctx};
use super::schema::{COMMAND_FIELDS, TOP_LEVEL_KEYS, V2_IGNORED_KEYS, V2_LOWERED_KEYS};
use super::{AgentDecl, AgentRef, Analysis, DeclOrigin, Facts, RefKind, permission, sections};
use crate::analysis::diagnostic::{Diagnostic, Effect, Location, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::closest;
use crate::analysis::syntax::{Entry, Map, Node, Value, jsonc};

pub fn analyze(text: &str) -> Analysis {
    let parsed = jsonc::parse(text);
    let mut out = Vec::new();
    for err in &parsed.errors {
        out.push(Diagnostic::new(
            Code::SyntaxError,
            err.span,
            format!("{}; opencode cannot parse this file and refuses to start", err.message),
        ));
    }
    for dup in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                dup.first,
                format!(
                    "\"{}\" is set again later in this object; opencode keeps only the last value, so this one is ignored",
                    dup.name
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored)
            .with_related(Location::Here(dup.duplicate), "the value that wins"),
        );
    }
    let mut analysis = Facts::default();
    let ctx = Ctx {
        origin: DeclOrigin::AgentKey,
        text,
        lost: false,
        tui: false,
    };
    if let Some(root) = &parsed.root {
        match &root.value {
            Value::Map(map) => check_top_level(root, map, &ctx, &mut analysis, &mut out),
            Value::Unknown => {}
            _ => out.push(Diagnostic::new(
                Code::InvalidType,
                root.span,
                format!(
                    "the config must be a JSON object, got {}; opencode refuses to start",
                    root.type_name()
                ),
            )),
        }
    }
    Analysis {
        parsed,
        diagnostics: out,
        facts: analysis,
    }
}

fn check_top_level(root: &Node, map: &Map, ctx: &Ctx, analysis: &mut Facts, out: &mut Vec<Diagnostic>) {
    for (index, entry) in map.entries.iter().enumerate() {
        let key = entry.key.name.as_str();
        let v = &entry.value;
        match key {
            "agent" => agents(entry, DeclOrigin::AgentKey, ctx, analysis, out),
            "mode" => {
                let mut d = Diagnostic::new(
                    Code::DeprecatedField,
                    entry.key.span,
                    "the top-level `mode` key is deprecated: opencode merges each entry into `agent` as a primary agent (winning over `agent` entries of the same name). Use `agent` with `mode: primary`",
                );
                if let Some(edits) = mode_to_agent(ctx.text, root, index) {
                    d = d.with_fix("Move the `mode` entries into `agent` with `mode: primary`", edits, true);
                }
                out.push(d);
                agents(entry, DeclOrigin::ModeKey, ctx, analysis, out);
            }
            "permission" => permission::check(v, ctx, out),
            "tools" => {
                if entry.value.as_map().is_some() || entry.value.is_unknown() {
                    agent::check_tools((root, index), ctx, out);
                } else {
                    agent::check(&tools_as_agent(entry), ctx, out);
                }
            }
            "model" | "small_model" if !v.is_unknown() => agent::check_model(key, v, ctx, out),
            "default_agent" => match v.as_str() {
                Some(name) => analysis.refs.push(AgentRef {
                    name: name.to_string(),
                    span: v.span,
                    kind: RefKind::DefaultAgent,
                }),
                None if v.is_unknown() => {}
                None => out.push(agent::type_error(key, "a string (an agent name)", v, ctx)),
            },
            "command" => commands(entry, ctx, analysis, out),
            "plugin" => {
                if let Value::Seq(items) = &v.value {
                    analysis.has_plugins |= !items.is_empty();
                }
            }
            "permissions" => {
                let mut d = Diagnostic::new(
                    Code::V2Permissions,
                    entry.key.span,
                    "`permissions` is opencode V2 syntax; opencode 1.18 refuses to start (\"V2 permissions are not supported by OpenCode V1\"). Use `permission` rules",
                );
                if !map.contains("permission") {
                    d = d.with_suggestion(entry.key.span, "\"permission\"");
                }
                out.push(d);
            }
            "autoshare" | "reference" | "layout" => deprecated_top_level(root, index, ctx, out),
            _ if TOP_LEVEL_KEYS.contains(&key) => {}
            _ => unknown_top_level(entry, map, analysis, out),
        }
        // Every other section, as opencode decodes it (the value that wins a repeated key).
        if sections::decodes(key) && map.get(key).is_some_and(|last| std::ptr::eq(last, entry)) {
            sections::check(entry, ctx, &mut analysis.paths, out);
        }
    }
}

/// opencode 1.18's conversion of a V2 `agents` map (spec §13): each entry whose id is not also
/// in `agent` becomes an agent with `system` as `prompt`, `disabled` as `disable`, a
/// `provider/model#variant` split into `model` and `variant`, `request.body` as `options`;
/// other keys are dropped. An entry that does not fit the V2 schema is dropped with a warning.
fn lower_v2_agents(entry: &Entry, top: &Map, analysis: &mut Facts, out: &mut Vec<Diagnostic>) {
    use crate::analysis::syntax::{Key, Map as SMap, Style};
    let Some(v2) = entry.value.as_map() else { return };
    let legacy = top.value("agent").and_then(Node::as_map);
    for (id, value) in v2.js_entries() {
        if legacy.is_some_and(|l| l.contains(&id.name)) {
            continue;
        }
        let Some(fields) = value.as_map() else { continue };
        let mut lowered: Vec<crate::analysis::syntax::Entry> = Vec::new();
        let mut malformed: Option<String> = None;
        let mut push = |name: &str, key_span: crate::analysis::Span, node: Node| {
            lowered.push(crate::analysis::syntax::Entry {
                key: Key {
                    name: name.to_string(),
                    span: key_span,
                },
                value: node,
            });
        };
        for (k, v) in fields.js_entries() {
            let str_node = |s: &str| Node::new(v.span, Style::Quoted, Value::Str(s.to_string()));
            let ok = match k.name.as_str() {
                "description" | "system" => v.as_str().is_some(),
                "mode" => v.as_str().is_some_and(|m| super::schema::MODES.contains(&m)),
                "hidden" | "disabled" => v.as_bool().is_some(),
                "color" => v.as_str().is_some_and(|c| {
                    c.len() == 7 && c.starts_with('#') && c[1..].chars().all(|d| d.is_ascii_hexdigit())
                }),
                "steps" => matches!(v.value, Value::Int(n) if n > 0),
                "model" => match (&v.value, v.as_map()) {
                    (Value::Str(s), _) => {
                        let (model, variant) = match s.split_once('#') {
                            Some((m, var)) => (m, Some(var)),
                            None => (s.as_str(), None),
                        };
                        let fits = model
                            .split_once('/')
                            .is_some_and(|(p, m)| !p.is_empty() && !m.is_empty())
                            && variant.is_none_or(|v| !v.is_empty() && !v.contains('#'));
                        if fits {
                            push("model", k.span, str_node(model));
                            if let Some(var) = variant {
                                push("variant", k.span, str_node(var));
                            }
                        }
                        fits
                    }
                    (_, Some(m)) => {
                        let s = |f: &str| m.value(f).and_then(Node::as_str);
                        match (s("providerID"), s("model")) {
                            (Some(p), Some(model)) if !p.contains(['/', '#']) && !model.contains('#') => {
                                push("model", k.span, str_node(&format!("{p}/{model}")));
                                if let Some(var) = s("variant") {
                                    push("variant", k.span, str_node(var));
                                }
                                true
                            }
                            _ => false,
                        }
                    }
                    _ => false,
                },
                "request" => match v.as_map() {
                    Some(r) => {
                        if let Some(body) = r.value("body") {
                            if body.as_map().is_some() {
                                push("options", k.span, body.clone());
                            }
                        }
                        r.value("body").is_none_or(|b| b.as_map().is_some())
                            && r.value("headers").is_none_or(|h| h.as_map().is_some())
                    }
                    None => false,
                },
                _ => true,
            };
            if !ok {
                malformed.get_or_insert_with(|| k.name.clone());
                continue;
            }
            match k.name.as_str() {
                "description" | "mode" | "hidden" | "color" | "steps" => push(&k.name, k.span, v.clone()),
                "system" => push("prompt", k.span, v.clone()),
                "disabled" => push("disable", k.span, v.clone()),
                _ => {}
            }
        }
        if let Some(field) = malformed {
            out.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    id.span,
                    format!(
                        "this V2 agent does not fit the V2 schema (`{field}`), so opencode 1.18 drops it (\"Native setting could not be lowered because it is malformed\")"
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored),
            );
            continue;
        }
        analysis.agents.push(AgentDecl {
            name: id.name.clone(),
            span: id.span,
            origin: DeclOrigin::AgentKey,
            node: Some(Node::new(value.span, Style::Collection, Value::Map(SMap::new(lowered)))),
            body_empty: false,
            whole_file: false,
            prompt_hash: None,
        });
    }
}

/// Top-level keys the schema marks `@deprecated`: `autoshare` (use `share`), `reference` (use
/// `references`), `layout` (no effect: opencode always uses the stretch layout).
fn deprecated_top_level(root: &Node, index: usize, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    use crate::analysis::diagnostic::Edit;
    use crate::analysis::edit::Doc;
    let Some(map) = root.as_map() else { return };
    let Some(entry) = map.entries.get(index) else { return };
    let doc = Doc {
        text: ctx.text,
        yaml: false,
    };
    let span = entry.key.span;
    let d = match entry.key.name.as_str() {
        "autoshare" => Diagnostic::new(
            Code::DeprecatedField,
            span,
            "`autoshare` is deprecated; opencode still reads it, but the current key is `share` (`\"share\": \"auto\"` shares new sessions automatically)",
        ),
        "reference" => {
            let d = Diagnostic::new(
                Code::DeprecatedField,
                span,
                "`reference` is deprecated; opencode reads it only when `references` is not set. Rename it to `references`",
            );
            if map.contains("references") {
                d
            } else {
                d.with_fix(
                    "Rename to `references`",
                    vec![Edit {
                        span,
                        text: doc.key("references"),
                    }],
                    true,
                )
            }
        }
        _ => {
            let d = Diagnostic::new(
                Code::DeprecatedField,
                span,
                "`layout` is deprecated and has no effect: opencode always uses the stretch layout. Remove it",
            )
            .with_effect(Effect::ValueIgnored);
            match doc.delete_entry(root, index) {
                Some(e) => d.with_fix("Remove `layout`", vec![e], true),
                None => d,
            }
        }
    };
    out.push(d);
}

fn unknown_top_level(entry: &Entry, map: &Map, analysis: &mut Facts, out: &mut Vec<Diagnostic>) {
    let key = entry.key.name.as_str();
    let span = entry.key.span;
    if let Some((_, v1)) = V2_LOWERED_KEYS.iter().find(|(k, _)| *k == key) {
        let mut d = Diagnostic::new(
            Code::UnknownKey,
            span,
            format!("`{key}` is the opencode V2 spelling; opencode 1.18 converts it into `{v1}`. Write `{v1}`"),
        )
        .with_effect(Effect::Works);
        if !map.contains(v1) {
            d = d.with_suggestion(span, format!("\"{v1}\""));
        }
        out.push(d);
        // The lowered agents exist for opencode: declare them as it converts them.
        if key == "agents" {
            lower_v2_agents(entry, map, analysis, out);
        }
        return;
    }
    // Terminal settings moved out of `opencode.json` into `tui.json` (opencode 1.x); the
    // terminal interface migrates them once, when no `tui.json` is beside the file.
    if TUI_KEYS.contains(&key) {
        let what = if key == "tui" {
            "When there is no `tui.json` beside this file, opencode's terminal interface moves only its `scroll_speed`, `scroll_acceleration` and `diff_style` into a new one, at the top level, and drops the rest"
        } else {
            "When there is no `tui.json` beside this file, opencode's terminal interface moves it into a new one"
        };
        out.push(Diagnostic::new(
            Code::UnknownKey,
            span,
            format!(
                "`{key}` is not an opencode config key: it is a setting of the terminal interface, which reads `tui.json`. {what} (rewriting this file, with a `.tui-migration.bak` copy of it); when there is one, opencode ignores `{key}` here. Move it to `tui.json`"
            ),
        ));
        return;
    }
    let suggestion = V2_IGNORED_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, s)| *s)
        .unwrap_or_else(|| closest(key, TOP_LEVEL_KEYS.iter().copied()));
    let mut d = Diagnostic::new(
        Code::UnknownKey,
        span,
        format!(
            "`{key}` is not an opencode config key; opencode 1.18 silently ignores it (older versions refuse to start).{}",
            crate::analysis::suggest::did_you_mean(suggestion)
        ),
    );
    if let Some(s) = suggestion.filter(|s| !map.contains(s)) {
        d = d.with_suggestion(span, format!("\"{s}\""));
    }
    out.push(d);
}

/// Keys of the terminal client's settings, which opencode 1.x reads from `tui.json`.
const TUI_KEYS: &[&str] = &["theme", "keybinds", "tui"];

/// `agent` / `mode`: an object of agent name to settings.
fn agents(entry: &Entry, origin: DeclOrigin, ctx: &Ctx, analysis: &mut Facts, out: &mut Vec<Diagnostic>) {
    let v = &entry.value;
    let Some(map) = v.as_map() else {
        if !v.is_unknown() {
            out.push(agent::type_error(
                &entry.key.name,
                "an object of agent name to settings",
                v,
                ctx,
            ));
        }
        return;
    };
    let agent_ctx = Ctx {
        origin,
        text: ctx.text,
        lost: false,
        tui: false,
    };
    for e in map.entries.iter() {
        agent::check(&e.value, &agent_ctx, out);
    }
    // An agent name set twice: the last settings replace the first ones.
    for (key, value) in map.js_entries() {
        analysis.agents.push(AgentDecl {
            name: key.name.clone(),
            span: key.span,
            origin,
            node: value.as_map().is_some().then(|| value.clone()),
            body_empty: false,
            whole_file: false,
            prompt_hash: None,
        });
    }
}

fn commands(entry: &Entry, ctx: &Ctx, analysis: &mut Facts, out: &mut Vec<Diagnostic>) {
    let Some(map) = entry.value.as_map() else {
        if !entry.value.is_unknown() {
            out.push(agent::type_error(
                "command",
                "an object of command name to settings",
                &entry.value,
                ctx,
            ));
        }
        return;
    };
    for cmd in map.entries.iter() {
        let Some(fields) = cmd.value.as_map() else {
            if !cmd.value.is_unknown() {
                out.push(agent::type_error(
                    &format!("command.{}", cmd.key.name),
                    "an object",
                    &cmd.value,
                    ctx,
                ));
            }
            continue;
        };
        if !fields.contains("template") {
            out.push(Diagnostic::new(
                Code::MissingTemplate,
                cmd.key.span,
                format!("command \"{}\" has no `template`; opencode refuses to start (`Missing key` at command.{}.template)", cmd.key.name, cmd.key.name),
            ));
        }
        for f in fields.entries.iter() {
            let name = f.key.name.as_str();
            let v = &f.value;
            match name {
                "template" | "description" | "model" | "variant" | "agent"
                    if v.as_str().is_none() && !v.is_unknown() =>
                {
                    out.push(agent::type_error(name, "a string", v, ctx));
                }
                "subtask" if v.as_bool().is_none() && !v.is_unknown() => {
                    out.push(agent::type_error(name, "a boolean", v, ctx));
                }
                "agent" => {
                    if let Some(a) = v.as_str() {
                        analysis.refs.push(AgentRef {
                            name: a.to_string(),
                            span: v.span,
                            kind: RefKind::CommandAgent,
                        });
                    }
                }
                _ if COMMAND_FIELDS.contains(&name) => {}
                _ => {
                    let suggestion = closest(name, COMMAND_FIELDS.iter().copied());
                    out.push(Diagnostic::new(
                        Code::UnknownKey,
                        f.key.span,
                        format!(
                            "`{name}` is not a command field; opencode drops it silently.{}",
                            crate::analysis::suggest::did_you_mean(suggestion)
                        ),
                    ));
                }
            }
        }
    }
}

/// The deprecated top-level `mode` (entry `mi` of the root) as `agent` entries with
/// `"mode": "primary"`: renamed in place when there is no `agent`, moved into `agent` when no
/// name is in both.
fn mode_to_agent(text: &str, root: &Node, mi: usize) -> Option<Vec<crate::analysis::diagnostic::Edit>> {
    use crate::analysis::diagnostic::Edit;
    use crate::analysis::edit::Doc;
    let doc = Doc { text, yaml: false };
    let map = root.as_map()?;
    let mode = map.entries.get(mi)?;
    let entries = mode.value.as_map()?;
    // Each entry's settings with `"mode": "primary"` set.
    let mut primary_edits = Vec::new();
    let mut moved: Vec<(String, String)> = Vec::new();
    for e in entries.entries.iter() {
        let settings = e.value.as_map()?;
        let mut local: Vec<Edit> = Vec::new();
        match settings.get("mode") {
            Some(m) if m.value.as_str() == Some("primary") => {}
            Some(m) => local.push(Edit {
                span: m.value.span,
                text: "\"primary\"".into(),
            }),
            None => local.push(doc.insert_first(&e.value, &[("\"mode\"".into(), "\"primary\"".into())])?),
        }
        // The entry's text with its own edits applied (for moving it).
        let shifted: Vec<Edit> = local
            .iter()
            .map(|x| Edit {
                span: crate::analysis::text::Span::new(
                    (x.span.start - e.value.span.start) as usize,
                    (x.span.end - e.value.span.start) as usize,
                ),
                text: x.text.clone(),
            })
            .collect();
        moved.push((
            e.key.span.text(text).to_string(),
            crate::analysis::diagnostic::apply(e.value.span.text(text), &shifted),
        ));
        primary_edits.extend(local);
    }
    match map.get("agent") {
        None => {
            let mut edits = vec![Edit {
                span: mode.key.span,
                text: "\"agent\"".into(),
            }];
            edits.extend(primary_edits);
            Some(edits)
        }
        Some(agent) => {
            let existing = agent.value.as_map()?;
            if entries.entries.iter().any(|e| existing.contains(&e.key.name)) {
                return None;
            }
            Some(vec![
                doc.insert_last(&agent.value, &moved)?,
                doc.delete_entry(root, mi)?,
            ])
        }
    }
}

/// Wrap one top-level entry as an agent settings map so the agent-field checks apply to it.
fn single(entry: &Entry, as_key: &str) -> crate::analysis::syntax::Node {
    use crate::analysis::syntax::{Key, Node, Style};
    let mut e = entry.clone();
    e.key = Key {
        name: as_key.to_string(),
        span: entry.key.span,
    };
    Node::new(entry.value.span, Style::Collection, Value::Map(Map::new(vec![e])))
}

fn tools_as_agent(entry: &Entry) -> crate::analysis::syntax::Node {
    single(entry, "tools")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(a: &Analysis) -> Vec<&'static str> {
        a.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn valid_config_is_silent() {
        let text = r##"{
  // comment
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4",
  "default_agent": "rev",
  "permission": { "*": "ask", "bash": { "*": "ask", "git status": "allow" }, "webfetch": "deny" },
  "agent": {
    "rev": { "mode": "primary", "description": "Reviews", "color": "#112233", "permission": { "edit": "deny" } },
    "build": { "disable": true },
  },
  "command": { "test": { "template": "Run tests", "agent": "rev", "subtask": true } },
  "plugin": ["oh-my-opencode"],
  "subagent_depth": 2,
}"##;
        let a = analyze(text);
        assert!(a.diagnostics.is_empty(), "{:#?}", a.diagnostics);
        assert_eq!(a.facts.agents.len(), 2);
        assert_eq!(a.facts.refs.len(), 2);
        assert!(a.facts.has_plugins);
    }

    #[test]
    fn unknown_top_level_keys() {
        let text = r#"{"agnet": {}, "plugins": [], "agents": {"x": {}}}"#;
        let a = analyze(text);
        assert_eq!(codes(&a), ["unknown-key"; 3]);
        assert!(a.diagnostics[0].message.contains("`agent`"));
        assert!(a.diagnostics[1].message.contains("`plugin`"));
        assert!(a.diagnostics[2].message.contains("V2"));
        assert_eq!(a.facts.agents.len(), 1);
    }

    #[test]
    fn terminal_settings_point_to_tui_json() {
        let text = r#"{"theme": "dark", "keybinds": {}, "tui": {"scroll_speed": 2}}"#;
        let a = analyze(text);
        assert_eq!(codes(&a), ["unknown-key"; 3]);
        let spans: Vec<&str> = a
            .diagnostics
            .iter()
            .map(|d| &text[d.span.start as usize..d.span.end as usize])
            .collect();
        assert_eq!(spans, ["\"theme\"", "\"keybinds\"", "\"tui\""]);
        assert_eq!(
            a.diagnostics[0].message,
            "`theme` is not an opencode config key: it is a setting of the terminal interface, which reads `tui.json`. When there is no `tui.json` beside this file, opencode's terminal interface moves it into a new one (rewriting this file, with a `.tui-migration.bak` copy of it); when there is one, opencode ignores `theme` here. Move it to `tui.json`"
        );
        assert!(
            a.diagnostics[2]
                .message
                .contains("moves only its `scroll_speed`, `scroll_acceleration` and `diff_style`")
        );
        // No did-you-mean replacement: no config key is meant.
        assert!(a.diagnostics.iter().all(|d| d.fix.is_none()), "{:#?}", a.diagnostics);
    }

    #[test]
    fn syntax_errors_keep_the_rest() {
        let text = "{\n  \"agent\": { \"x\": { \"mode\": \"main\" } }\n  \"model\": \"a/b\",\n}";
        let a = analyze(text);
        assert_eq!(codes(&a), ["syntax-error", "invalid-value"]);
    }

    #[test]
    fn json_duplicates_are_warnings_on_the_ignored_key() {
        let text = r#"{"permission": {"bash": {"git commit *": "ask", "git commit *": "allow"}}}"#;
        let a = analyze(text);
        assert_eq!(codes(&a), ["duplicate-key"]);
        assert_eq!(a.diagnostics[0].severity, Severity::Warning);
        assert_eq!(a.diagnostics[0].span.start, 25);
    }

    #[test]
    fn v2_permissions_and_deprecated_mode_and_tools() {
        let a = analyze(r#"{"permissions": [], "mode": {"m": {}}, "tools": {"write": false}}"#);
        assert_eq!(codes(&a), ["v2-permissions", "deprecated-field", "deprecated-field"]);
    }

    #[test]
    fn commands() {
        let text = r#"{"command": {"a": {"description": "x", "agnet": "b"}}}"#;
        let a = analyze(text);
        assert_eq!(codes(&a), ["missing-template", "unknown-key"]);
    }

    #[test]
    fn top_level_model_and_default_agent_types() {
        let a = analyze(r#"{"model": "gpt-4", "small_model": "a/b", "default_agent": 5, "subagent_depth": -1}"#);
        assert_eq!(codes(&a), ["invalid-model", "invalid-type", "invalid-value"]);
    }

    #[test]
    fn v2_agents_are_lowered_as_opencode_does() {
        let text = r#"{"agents": {"v": {"system": "S", "disabled": false, "model": "openai/gpt-5#high", "request": {"body": {"x": 1}, "headers": {}}, "mode": "subagent", "extra": 1}, "bad": {"color": "red"}, "kept": {"mode": "primary"}}, "agent": {"kept": {"mode": "subagent"}}}"#;
        let a = analyze(text);
        let v = a.facts.agents.iter().find(|d| d.name == "v").unwrap();
        let m = v.node.as_ref().unwrap().as_map().unwrap();
        let keys: Vec<&str> = m.entries.iter().map(|e| e.key.name.as_str()).collect();
        assert_eq!(keys, ["prompt", "disable", "model", "variant", "options", "mode"]);
        assert_eq!(m.value("model").unwrap().as_str(), Some("openai/gpt-5"));
        assert_eq!(m.value("variant").unwrap().as_str(), Some("high"));
        // A malformed V2 entry is dropped with a warning; an id also in `agent` keeps the V1 one.
        assert!(a.facts.agents.iter().all(|d| d.name != "bad"));
        let kept: Vec<_> = a.facts.agents.iter().filter(|d| d.name == "kept").collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].mode().unwrap().0, "subagent");
        let d = a.diagnostics.iter().find(|d| d.code == Code::InvalidValue).unwrap();
        assert_eq!((d.severity, d.effect), (Severity::Warning, Effect::ValueIgnored));
        assert_eq!(d.span.text(text), "\"bad\"");
    }

    #[test]
    fn deprecated_top_level_keys() {
        let text = r#"{"autoshare": true, "reference": {}, "layout": "stretch"}"#;
        let a = analyze(text);
        let got: Vec<(&str, &str, bool)> = a
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code.as_str(),
                    d.span.text(text),
                    d.fix.as_ref().is_some_and(|f| f.safe),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("deprecated-field", "\"autoshare\"", false),
                ("deprecated-field", "\"reference\"", true),
                ("deprecated-field", "\"layout\"", true)
            ]
        );
        let (fixed, _) = crate::analysis::opencode::fix_all(&crate::analysis::opencode::FileKind::Config, text);
        assert_eq!(fixed, r#"{"autoshare": true, "references": {}}"#);
    }

    #[test]
    fn a_json_agent_set_twice_is_declared_once_with_the_last_settings() {
        let a = analyze(r#"{"agent": {"a": {"mode": "subagent"}, "a": {"description": "d"}}}"#);
        assert_eq!(a.facts.agents.len(), 1);
        assert!(a.facts.agents[0].mode().is_none());
    }

    #[test]
    fn name_must_be_a_string() {
        let a = analyze(r#"{"agent": {"a": {"name": 42}, "b": {"name": "B"}}}"#);
        assert_eq!(a.diagnostics.len(), 1);
        assert_eq!(a.diagnostics[0].code, Code::InvalidType);
        assert_eq!(a.diagnostics[0].effect, Effect::RefusesToStart);
        // A disabled agent is deleted before its name is read (opencode 1.18.34 starts).
        let a = analyze(r#"{"agent": {"a": {"name": 42, "disable": true}}}"#);
        assert!(a.diagnostics.is_empty(), "{:#?}", a.diagnostics);
    }

    #[test]
    fn steps_beyond_what_a_javascript_number_holds() {
        let a = analyze(r#"{"agent": {"a": {"steps": 9007199254740992}, "b": {"steps": 9007199254740991}}}"#);
        assert_eq!(codes(&a), ["invalid-value"]);
        assert!(
            a.diagnostics[0].message.contains("at most 9007199254740991"),
            "{}",
            a.diagnostics[0].message
        );
    }
}
