//! Checks of one agent's settings: an `agent.<name>` / `mode.<name>` entry in a config, or the
//! frontmatter of a Markdown agent. Rules: `invalid-type`, `invalid-value`, `invalid-color`,
//! `invalid-model`, `unknown-key`, `deprecated-field`, `hidden-primary`, `v2-permissions`.

use super::DeclOrigin;
pub use super::ctx::{Ctx, type_error};
use super::permission;
use super::schema::{self, FieldType, MODES, THEME_COLORS};
use crate::analysis::color::is_hex_color;
use crate::analysis::diagnostic::{Diagnostic, Edit};
use crate::analysis::edit::{Doc, requote};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Entry, Map, Node, Value};

/// Check an agent's settings node; `node` should be a map.
pub fn check(node: &Node, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let map = match &node.value {
        Value::Map(map) => map,
        Value::Unknown => return,
        Value::Null if ctx.is_yaml() => return,
        _ => {
            out.push(Diagnostic::new(
                Code::InvalidType,
                node.span,
                format!(
                    "an agent's settings must be an object, got {}; {}",
                    node.type_name(),
                    ctx.consequence()
                ),
            ));
            return;
        }
    };
    let mut unknown = 0;
    let mut unlisted: Option<(crate::analysis::Span, usize)> = None;
    for (i, entry) in map.entries.iter().enumerate() {
        match schema::agent_field(&entry.key.name) {
            Some(field) => check_field(entry, field.ty, (node, i), ctx, out),
            None if unknown < MAX_UNKNOWN_KEYS || entry.key.name == "permissions" => {
                unknown += 1;
                unknown_key(entry, map, ctx, out);
            }
            None => unlisted.get_or_insert((entry.key.span, 0)).1 += 1,
        }
    }
    if let Some((span, n)) = unlisted {
        out.push(Diagnostic::new(
            Code::UnknownKey,
            span,
            format!(
                "this key and {} more after it are not agent fields either; opencode passes them all to the model provider as `options`. They are not listed one by one: an agent with more than {MAX_UNKNOWN_KEYS} unknown keys is generated, not written",
                n - 1
            ),
        ));
    }
    check_hidden_primary(map, ctx, out);
}

/// Unknown keys reported one by one per agent; the rest get one finding that counts them. A
/// report of hundreds of thousands of lines helps nobody, and costs time and memory.
pub const MAX_UNKNOWN_KEYS: usize = 10_000;

/// `at`: the settings mapping and the entry's index in it (for fixes that edit around it).
fn check_field(entry: &Entry, ty: FieldType, at: (&Node, usize), ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let key = entry.key.name.as_str();
    let v = &entry.value;
    // In a Markdown agent the body replaces `prompt` before opencode checks it
    // (`prompt-overridden` says so); its type does not matter.
    if v.is_unknown() || (key == "prompt" && ctx.is_yaml()) {
        return;
    }
    match ty {
        FieldType::Name => {
            // A disabled agent is deleted before its name is read: nothing fails.
            let disabled = at.0.as_map().and_then(|m| m.value("disable")).and_then(Node::as_bool) == Some(true);
            if !matches!(v.value, Value::Str(_) | Value::Null) && !disabled {
                out.push(Diagnostic::new(
                    Code::InvalidType,
                    v.span,
                    format!(
                        "`name` must be a string, got {} ({}); opencode loads the configuration but then cannot list its agents (`Expected string, got {}`), so nothing starts. Quote it",
                        v.type_name(),
                        v.display(),
                        v.display()
                    ),
                ));
            }
        }
        FieldType::String => {
            if v.as_str().is_none() {
                out.push(type_error(key, "a string", v, ctx));
            }
        }
        FieldType::Number => match &v.value {
            Value::Int(_) => {}
            Value::Float(f) if f.is_finite() => {}
            Value::Float(_) => out.push(Diagnostic::new(
                Code::InvalidValue,
                v.span,
                format!("`{key}` must be a finite number; {}", ctx.consequence()),
            )),
            _ => out.push(type_error(key, "a number", v, ctx)),
        },
        FieldType::PositiveInt => check_steps(entry, at, ctx, out),
        FieldType::Bool => {
            if v.as_bool().is_none() {
                out.push(type_error(key, "a boolean (true or false)", v, ctx));
            }
        }
        FieldType::Mode => check_mode(entry, ctx, out),
        FieldType::Color => check_color(entry, ctx, out),
        FieldType::Model => check_model("model", v, ctx, out),
        FieldType::Object => {
            if v.as_map().is_none() {
                out.push(type_error(key, "an object", v, ctx));
            }
        }
        FieldType::Tools => check_tools(at, ctx, out),
        FieldType::Permission => permission::check(v, ctx, out),
    }
}

fn check_mode(entry: &Entry, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let v = &entry.value;
    let Some(mode) = v.as_str() else {
        out.push(type_error("mode", "one of \"subagent\", \"primary\", \"all\"", v, ctx));
        return;
    };
    if MODES.contains(&mode) {
        return;
    }
    let suggestion = closest(mode, MODES.iter().copied()).or(match mode.to_ascii_lowercase().as_str() {
        "main" | "default" | "agent" => Some("primary"),
        "sub" | "sub-agent" | "sub_agent" | "child" => Some("subagent"),
        "both" | "any" => Some("all"),
        _ => None,
    });
    let mut d = Diagnostic::new(
        Code::InvalidValue,
        v.span,
        format!(
            "`mode` must be \"subagent\", \"primary\" or \"all\", got {}; {}.{}",
            v.display(),
            ctx.consequence(),
            did_you_mean(suggestion)
        ),
    );
    if let Some(s) = suggestion {
        d = d.with_suggestion(v.span, requote(v, s));
    }
    out.push(d);
}

fn check_color(entry: &Entry, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let v = &entry.value;
    let allowed =
        "`#` and six hex digits, or a theme color (primary, secondary, accent, success, warning, error, info)";
    match &v.value {
        Value::Str(s) => {
            if is_hex_color(s) || THEME_COLORS.contains(&s.as_str()) {
                return;
            }
            let suggestion = if s.len() == 4 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit()) {
                let long: String = s[1..].chars().flat_map(|c| [c, c]).collect();
                Some(format!("#{long}"))
            } else if s.len() == 9 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit()) {
                Some(s[..7].to_string())
            } else if THEME_COLORS.contains(&s.trim()) {
                Some(s.trim().to_string())
            } else {
                css_color(s).map(str::to_string)
            };
            let mut msg = format!(
                "invalid color {}: opencode accepts {allowed}; {}.",
                v.display(),
                ctx.consequence()
            );
            if let Some(s) = &suggestion {
                msg.push_str(&format!(" Did you mean `{s}`?"));
            }
            let mut d = Diagnostic::new(Code::InvalidColor, v.span, msg);
            if let Some(s) = suggestion {
                let text = if ctx.is_yaml() && s.starts_with('#') {
                    format!("\"{s}\"")
                } else {
                    requote(v, &s)
                };
                d = d.with_suggestion(v.span, text);
            }
            out.push(d);
        }
        Value::Null if ctx.is_yaml() => {
            // `color: #FF5733` is `color:` followed by a comment.
            let line_rest = ctx.text[entry.key.span.end as usize..]
                .split(['\n', '\r'])
                .next()
                .unwrap_or("");
            let after = line_rest.trim_start_matches(':').trim_start();
            if let Some(hash) = after.strip_prefix('#') {
                let written: String = hash.chars().take_while(|c| !c.is_whitespace()).collect();
                let start = entry.key.span.end as usize + (line_rest.len() - after.len());
                let span = crate::analysis::text::Span::new(start, start + 1 + written.len());
                let mut d = Diagnostic::new(
                    Code::InvalidColor,
                    span,
                    format!(
                        "unquoted, `#{written}` is a YAML comment, so `color` is null and {}; quote it: \"#{written}\"",
                        ctx.consequence()
                    ),
                );
                if is_hex_color(&format!("#{written}")) {
                    let edit = Edit {
                        span,
                        text: format!("\"#{written}\""),
                    };
                    d = d.with_fix("Quote the color", vec![edit], true);
                }
                out.push(d);
            } else {
                out.push(Diagnostic::new(
                    Code::InvalidColor,
                    entry.key.span,
                    format!(
                        "`color` is empty (null); {}. Give a color or remove the key",
                        ctx.consequence()
                    ),
                ));
            }
        }
        _ => out.push(Diagnostic::new(
            Code::InvalidColor,
            v.span,
            format!(
                "`color` must be a string: {allowed}; got {}; {}",
                v.type_name(),
                ctx.consequence()
            ),
        )),
    }
}

/// A few CSS color names Claude Code agents use, mapped to a close hex value.
fn css_color(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "red" => "#FF0000",
        "green" => "#00FF00",
        "blue" => "#0000FF",
        "yellow" => "#FFFF00",
        "purple" => "#800080",
        "orange" => "#FFA500",
        "pink" => "#FFC0CB",
        "cyan" => "#00FFFF",
        "teal" => "#008080",
        "magenta" => "#FF00FF",
        "gray" | "grey" => "#808080",
        "white" => "#FFFFFF",
        "black" => "#000000",
        _ => return None,
    })
}

/// `model` (and the top-level `small_model`): a string `provider/model`.
pub fn check_model(key: &str, v: &Node, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let Some(model) = v.as_str() else {
        out.push(type_error(key, "a string (provider/model)", v, ctx));
        return;
    };
    // Substitutions are resolved by opencode before parsing; their result is unknown here.
    if model.contains("{env:") || model.contains("{file:") {
        return;
    }
    let ok = match model.split_once('/') {
        Some((provider, id)) => !provider.trim().is_empty() && !id.trim().is_empty(),
        None => false,
    };
    if !ok {
        out.push(Diagnostic::new(
            Code::InvalidModel,
            v.span,
            format!(
                "`{key}` {} is not of the form `provider/model` (e.g. `anthropic/claude-sonnet-4`); opencode splits it at the first `/` and fails when the model is used (\"configured model ... is not valid\")",
                v.display()
            ),
        ));
    }
}

fn check_steps(entry: &Entry, at: (&Node, usize), ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let Some(map) = at.0.as_map() else { return };
    let key = entry.key.name.as_str();
    let v = &entry.value;
    // A JavaScript number is a whole number only up to 2^53 - 1.
    let safe = crate::analysis::shape::MAX_SAFE_INT;
    match &v.value {
        Value::Int(n) if *n > 0 && (*n as f64) <= safe => {}
        Value::Float(f) if f.fract() == 0.0 && *f > 0.0 && *f <= safe => {}
        Value::Int(n) if *n > 0 => out.push(Diagnostic::new(
            Code::InvalidValue,
            v.span,
            format!(
                "`{key}` must be a whole number opencode can hold (at most 9007199254740991), got {n}; {}",
                ctx.consequence()
            ),
        )),
        Value::Int(n) => out.push(Diagnostic::new(
            Code::InvalidValue,
            v.span,
            format!("`{key}` must be greater than 0, got {n}; {}", ctx.consequence()),
        )),
        Value::Float(f) => out.push(Diagnostic::new(
            Code::InvalidValue,
            v.span,
            format!(
                "`{key}` must be a whole number greater than 0, got {f}; {}",
                ctx.consequence()
            ),
        )),
        _ => out.push(type_error(key, "a whole number greater than 0", v, ctx)),
    }
    if key == "maxSteps" {
        let message = if map.contains("steps") {
            "`maxSteps` is deprecated, and ignored here: `steps` is also set and wins. Remove `maxSteps`".to_string()
        } else {
            "`maxSteps` is deprecated; opencode still reads it as `steps`. Rename it to `steps`".to_string()
        };
        let mut d = Diagnostic::new(Code::DeprecatedField, entry.key.span, message);
        let doc = Doc {
            text: ctx.text,
            yaml: ctx.is_yaml(),
        };
        if map.contains("steps") {
            if let Some(edit) = doc.delete_entry(at.0, at.1) {
                d = d.with_fix("Remove `maxSteps` (`steps` wins)", vec![edit], true);
            }
        } else {
            let edit = Edit {
                span: entry.key.span,
                text: doc.key("steps"),
            };
            d = d.with_fix("Rename `maxSteps` to `steps`", vec![edit], true);
        }
        out.push(d);
    }
}

/// `tools` (in an agent, or at the top of a config): deprecated; the fix converts it into
/// `permission` exactly as opencode does.
pub fn check_tools(at: (&Node, usize), ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let Some(entry) = at.0.as_map().and_then(|m| m.entries.get(at.1)) else {
        return;
    };
    let v = &entry.value;
    // A value of the wrong type gets one finding that says both: what opencode does (refuses)
    // and what to write instead.
    if !matches!(v.value, Value::Map(_) | Value::Unknown) {
        let mut d = type_error("tools", "an object of tool name to true/false", v, ctx);
        d.message.push_str(if matches!(v.value, Value::Seq(_) | Value::Str(_)) {
            ". `tools` is deprecated too, and a list of tool names is Claude Code or Copilot syntax; in opencode write e.g. `permission: { edit: deny }`"
        } else {
            ". `tools` is deprecated too: write `permission` instead, e.g. `permission: { edit: deny }`"
        });
        out.push(d);
        return;
    }
    let mut d = Diagnostic::new(
        Code::DeprecatedField,
        entry.key.span,
        "`tools` is deprecated; opencode converts it to permission rules (true is allow, false is deny; write, edit and patch become `edit`). Use `permission` instead",
    );
    let doc = Doc {
        text: ctx.text,
        yaml: ctx.is_yaml(),
    };
    if let Some(edits) = tools_to_permission(&doc, at.0, at.1) {
        d = d.with_fix("Convert `tools` to `permission`", edits, true);
    }
    out.push(d);
    if let Value::Map(map) = &v.value {
        for e in map.entries.iter() {
            if e.value.as_bool().is_none() && !e.value.is_unknown() {
                out.push(type_error(
                    &format!("tools.{}", e.key.name),
                    "true or false",
                    &e.value,
                    ctx,
                ));
            }
        }
    }
}

/// The edits that replace `tools` (entry `ti` of `parent`) by the permission rules opencode
/// derives from it: in place when there is no `permission`; otherwise the derived keys that
/// `permission` does not set go to its front (explicit rules win, and opencode puts the derived
/// keys first) and `tools` is removed.
pub fn tools_to_permission(doc: &Doc, parent: &Node, ti: usize) -> Option<Vec<Edit>> {
    let pmap = parent.as_map()?;
    let tools = pmap.entries.get(ti)?;
    let tmap = tools.value.as_map()?;
    // Derived keys in JavaScript assignment order: first position, last value.
    let mut derived: Vec<(String, &str, usize)> = Vec::new();
    for (i, e) in tmap.entries.iter().enumerate() {
        let action = if e.value.as_bool()? { "allow" } else { "deny" };
        let key = schema::tools_key_to_permission(&e.key.name).to_string();
        match derived.iter_mut().find(|(k, _, _)| *k == key) {
            Some(slot) => slot.1 = action,
            None => derived.push((key, action, i)),
        }
    }
    let mut edits = Vec::new();
    match pmap.get("permission") {
        None => {
            edits.push(Edit {
                span: tools.key.span,
                text: doc.key("permission"),
            });
            if derived.len() < tmap.entries.len() && doc.is_flow(&tools.value) {
                // Keys that collapse into one (write, edit, patch): deleting flow entries one by
                // one would overlap, so the mapping is rewritten.
                let all: Vec<(String, String)> = derived.iter().map(|(k, a, _)| (doc.key(k), doc.scalar(a))).collect();
                edits.push(doc.rewrite_flow(&tools.value, &all)?);
                return Some(edits);
            }
            for (i, e) in tmap.entries.iter().enumerate() {
                match derived.iter().find(|(_, _, first)| *first == i) {
                    Some((key, action, _)) => {
                        if e.key.name != *key {
                            edits.push(Edit {
                                span: e.key.span,
                                text: doc.key(key),
                            });
                        }
                        edits.push(Edit {
                            span: e.value.span,
                            text: doc.scalar(action),
                        });
                    }
                    None => edits.push(doc.delete_entry(&tools.value, i)?),
                }
            }
        }
        Some(p) => {
            // opencode's `{...derived, ...permission}`: an explicit key that is also derived
            // keeps the derived key's position (with the explicit value), so it moves to the
            // front with the derived keys.
            let explicit = p.value.as_map()?;
            let collides = derived.iter().any(|(k, _, _)| explicit.contains(k));
            if collides && doc.is_flow(&p.value) {
                // Deleting entries one by one would overlap in a flow mapping: rewrite it.
                let text_of = |e: &crate::analysis::syntax::Entry| {
                    (
                        e.key.span.text(doc.text).to_string(),
                        e.value.span.text(doc.text).to_string(),
                    )
                };
                let mut all: Vec<(String, String)> = Vec::new();
                for (k, action, _) in &derived {
                    match explicit.get(k) {
                        Some(e) => all.push(text_of(e)),
                        None => all.push((doc.key(k), doc.scalar(action))),
                    }
                }
                let mut seen: std::collections::HashSet<&str> = derived.iter().map(|(k, _, _)| k.as_str()).collect();
                for e in explicit.entries.iter() {
                    if seen.insert(e.key.name.as_str()) {
                        all.push(text_of(e));
                    }
                }
                edits.push(doc.rewrite_flow(&p.value, &all)?);
                edits.push(doc.delete_entry(parent, ti)?);
                return Some(edits);
            }
            let mut front = Vec::new();
            for (k, action, _) in &derived {
                match explicit.entries.iter().position(|e| e.key.name == *k) {
                    Some(idx) => {
                        let e = &explicit.entries[idx];
                        let value = e.value.span.text(doc.text);
                        if value.contains('\n') {
                            return None;
                        }
                        front.push((e.key.span.text(doc.text).to_string(), value.to_string()));
                        edits.push(doc.delete_entry(&p.value, idx)?);
                    }
                    None => front.push((doc.key(k), doc.scalar(action))),
                }
            }
            if !front.is_empty() {
                edits.push(doc.insert_first(&p.value, &front)?);
            }
            edits.push(doc.delete_entry(parent, ti)?);
        }
    }
    Some(edits)
}

fn unknown_key(entry: &Entry, map: &Map, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let key = entry.key.name.as_str();
    let span = entry.key.span;
    if key == "permissions" && !ctx.is_yaml() {
        let mut d = Diagnostic::new(
            Code::V2Permissions,
            span,
            "`permissions` is opencode V2 syntax; opencode 1.18 refuses to start (\"V2 permissions are not supported by OpenCode V1\"). Did you mean `permission`?",
        );
        if !map.contains("permission") {
            d = d.with_suggestion(span, "\"permission\"");
        }
        out.push(d);
        return;
    }
    let names = schema::AGENT_FIELDS.iter().map(|f| f.name);
    let suggestion = match key {
        "system" => Some("prompt"),
        "disabled" => Some("disable"),
        "topP" | "top-p" | "topp" => Some("top_p"),
        "max_steps" | "maxsteps" => Some("steps"),
        _ => closest(key, names),
    };
    let message = if key == "permissions" {
        "`permissions` is not an agent field; opencode ignores this block (it goes to provider options), so none of these rules apply. Did you mean `permission`?".to_string()
    } else {
        format!(
            "`{key}` is not an agent field; opencode passes it to the model provider as `options.{key}`.{}",
            match suggestion {
                Some(s) => format!(" Did you mean `{s}`?"),
                None => " If that is intended, put it under `options`".to_string(),
            }
        )
    };
    let mut d = Diagnostic::new(Code::UnknownKey, span, message);
    // No rename onto a key that is already there: it would set the key twice.
    if let Some(s) = suggestion.filter(|s| !map.contains(s)) {
        let text = if ctx.is_yaml() && entry.key.span.len() == key.len() {
            s.to_string()
        } else {
            format!("\"{s}\"")
        };
        d = d.with_suggestion(span, text);
    }
    out.push(d);
}

fn check_hidden_primary(map: &Map, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let Some(hidden) = map.get("hidden") else {
        return;
    };
    if hidden.value.as_bool() != Some(true) {
        return;
    }
    let primary = match ctx.origin {
        DeclOrigin::ModeFile | DeclOrigin::ModeKey => true,
        _ => map.value("mode").and_then(Node::as_str) == Some("primary"),
    };
    if primary {
        out.push(Diagnostic::new(
            Code::HiddenPrimary,
            hidden.key.span.cover(hidden.value.span),
            "a hidden primary agent cannot be reached: it is left out of the Tab cycle and default-agent choice, and primary agents are not offered to the Task tool. Use `mode: subagent` for a hidden helper, or remove `hidden`",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::{jsonc, yaml};

    /// Found by the `analyze` fuzz target: text glued to a quoted number (which the reader
    /// tolerates) would join a plain scalar without the quotes, so no fix is offered there.
    #[test]
    fn no_unquoting_fix_when_text_is_glued_to_the_quote() {
        let glued = "steps: \"8\"\u{fffd}\u{fffd}den: yes\n";
        let d = yaml_diags(glued);
        let steps = d
            .iter()
            .find(|d| d.code == Code::InvalidType)
            .expect("invalid-type on steps");
        assert!(
            steps.fix.is_none() && !steps.message.contains("Remove the quotes"),
            "{steps:?}"
        );
        let alone = yaml_diags("steps: \"8\" # eight\n");
        assert_eq!(
            alone[0].fix.as_ref().map(|f| f.title.as_str()),
            Some("Remove the quotes")
        );
    }

    fn yaml_diags(text: &str) -> Vec<Diagnostic> {
        let parsed = yaml::parse(text, 0);
        let mut out = Vec::new();
        let ctx = Ctx {
            origin: DeclOrigin::Markdown,
            text,
            lost: false,
            tui: false,
        };
        check(parsed.root.as_ref().unwrap(), &ctx, &mut out);
        out
    }

    fn json_diags(text: &str) -> Vec<Diagnostic> {
        let parsed = jsonc::parse(text);
        let mut out = Vec::new();
        let ctx = Ctx {
            origin: DeclOrigin::AgentKey,
            text,
            lost: false,
            tui: false,
        };
        check(parsed.root.as_ref().unwrap(), &ctx, &mut out);
        out
    }

    fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
        diags.iter().map(|d| d.code.as_str()).collect()
    }

    fn one(text: &str) -> Diagnostic {
        let d = yaml_diags(text);
        assert_eq!(d.len(), 1, "{d:#?}");
        d.into_iter().next().unwrap()
    }

    #[test]
    fn valid_agent_is_silent() {
        let text = "description: Reviews code 审查 🚀\nmode: subagent\nmodel: anthropic/claude-sonnet-4\ntemperature: 0.1\ntop_p: 0.9\nsteps: 5\nhidden: false\ndisable: false\ncolor: \"#FF5733\"\noptions:\n  reasoningEffort: high\nname: Reviewer\nvariant: fast\n";
        assert!(yaml_diags(text).is_empty(), "{:#?}", yaml_diags(text));
        for c in ["primary", "accent", "info", "'#abcdef'"] {
            assert!(yaml_diags(&format!("color: {c}\n")).is_empty(), "{c}");
        }
    }

    #[test]
    fn invalid_type_fires_on_the_value() {
        let text = "steps: \"5\"\n";
        let d = one(text);
        assert_eq!(d.code, Code::InvalidType);
        assert_eq!(d.span.text(text), "\"5\"");
        assert!(d.message.contains("Remove the quotes"), "{}", d.message);
        let d = one("temperature: \"0.5\"\n");
        assert_eq!(d.code, Code::InvalidType);
        let text = "hidden: yes\n";
        let d = one(text);
        assert_eq!(d.code, Code::InvalidType);
        assert!(d.message.contains("write `true`"), "{}", d.message);
        let d = one("description:\n");
        assert_eq!(d.code, Code::InvalidType);
        // Close cases that must not fire.
        assert!(yaml_diags("steps: 5\ntemperature: 0.5\nhidden: true\n").is_empty());
    }

    #[test]
    fn tools_list_is_one_type_error_that_says_tools_is_deprecated() {
        // One mistake, one finding: the type error (opencode refuses) says it is deprecated too.
        let text = "tools: [read, edit]\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["invalid-type"]);
        assert_eq!(d[0].span.text(text), "[read, edit]");
        assert!(
            d[0].message.ends_with("`tools` is deprecated too, and a list of tool names is Claude Code or Copilot syntax; in opencode write e.g. `permission: { edit: deny }`"),
            "{}",
            d[0].message
        );
        let text = "tools: 3\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["invalid-type"]);
        assert!(
            d[0].message
                .ends_with("`tools` is deprecated too: write `permission` instead, e.g. `permission: { edit: deny }`"),
            "{}",
            d[0].message
        );
        let d = yaml_diags("tools:\n  write: false\n  bash: true\n");
        assert_eq!(codes(&d), ["deprecated-field"]);
        assert_eq!(d[0].tags, [crate::analysis::Tag::Deprecated]);
    }

    #[test]
    fn invalid_value_mode_and_steps() {
        let text = "mode: main\n";
        let d = one(text);
        assert_eq!(d.code, Code::InvalidValue);
        assert_eq!(d.span.text(text), "main");
        assert!(d.message.contains("Did you mean `primary`"), "{}", d.message);
        assert_eq!(one("mode: subagnet\n").suggestion().cloned().unwrap().text, "subagent");
        assert_eq!(one("steps: 0\n").code, Code::InvalidValue);
        assert_eq!(one("steps: 2.5\n").code, Code::InvalidValue);
        assert!(yaml_diags("mode: all\nsteps: 1\n").is_empty());
        // `5.0` is the JavaScript number 5, a whole number: taken; `0.0` is not above 0.
        assert!(yaml_diags("steps: 5.0\n").is_empty());
        assert_eq!(one("steps: 0.0\n").code, Code::InvalidValue);
    }

    #[test]
    fn colors() {
        let text = "color: #FF5733\n";
        let d = one(text);
        assert_eq!(d.code, Code::InvalidColor);
        assert_eq!(d.span.text(text), "#FF5733");
        assert_eq!(d.suggestion().cloned().unwrap().text, "\"#FF5733\"");
        let text = "color: red\n";
        let d = one(text);
        assert_eq!(d.code, Code::InvalidColor);
        assert_eq!(d.span.text(text), "red");
        assert_eq!(
            one("color: \"#abc\"\n").suggestion().cloned().unwrap().text,
            "\"#aabbcc\""
        );
        assert_eq!(one("color: \"primary \"\n").code, Code::InvalidColor);
        assert!(json_diags("{\"color\": \"#8B5CF6\"}").is_empty());
        assert_eq!(codes(&json_diags("{\"color\": \"teal\"}")), ["invalid-color"]);
    }

    #[test]
    fn unknown_keys_with_did_you_mean() {
        let text = "temprature: 0.2\ntopP: 0.9\npermissions:\n  edit: deny\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["unknown-key", "unknown-key", "unknown-key"]);
        assert_eq!(d[0].span.text(text), "temprature");
        assert!(d[0].message.contains("options.temprature") && d[0].message.contains("`temperature`"));
        assert!(d[1].message.contains("`top_p`"));
        assert!(d[2].message.contains("`permission`"));
        let d = yaml_diags("quickSwitch: true\n");
        assert_eq!(codes(&d), ["unknown-key"]);
        assert!(d[0].message.contains("under `options`"));
        // JSON `permissions` is the V2 hard error.
        assert_eq!(codes(&json_diags("{\"permissions\": []}")), ["v2-permissions"]);
        // The fix writes the key as the file writes it: bare in YAML, quoted where it is quoted.
        for (text, fix) in [
            ("temprature: 0.2\n", "temperature"),
            ("\"temprature\": 0.2\n", "\"temperature\""),
            ("'temprature': 0.2\n", "\"temperature\""),
        ] {
            assert_eq!(yaml_diags(text)[0].suggestion().unwrap().text, fix, "{text}");
        }
        assert_eq!(
            json_diags("{\"temprature\": 0.2}")[0].suggestion().unwrap().text,
            "\"temperature\""
        );
    }

    #[test]
    fn unknown_keys_beyond_the_limit_are_counted_in_one_finding() {
        let mut text = String::new();
        for i in 0..super::MAX_UNKNOWN_KEYS + 5 {
            text.push_str(&format!("k{i}: v\n"));
            if i == super::MAX_UNKNOWN_KEYS + 2 {
                text.push_str("mode: subagnt\n");
            }
        }
        let d = yaml_diags(&text);
        let unknown: Vec<&Diagnostic> = d.iter().filter(|d| d.code == Code::UnknownKey).collect();
        assert_eq!(unknown.len(), super::MAX_UNKNOWN_KEYS + 1);
        let last = unknown.last().unwrap();
        assert_eq!(last.span.text(&text), format!("k{}", super::MAX_UNKNOWN_KEYS));
        assert!(
            last.message.contains("this key and 4 more after it"),
            "{}",
            last.message
        );
        // Known fields after the limit are still checked.
        assert_eq!(d.iter().filter(|d| d.code == Code::InvalidValue).count(), 1);
        // A JSON `permissions` after the limit is still the V2 error.
        let mut json = String::from("{");
        for i in 0..super::MAX_UNKNOWN_KEYS + 1 {
            json.push_str(&format!("\"k{i}\": 1, "));
        }
        json.push_str("\"permissions\": []}");
        assert_eq!(
            json_diags(&json)
                .iter()
                .filter(|d| d.code == Code::V2Permissions)
                .count(),
            1
        );
    }

    #[test]
    fn max_steps() {
        let d = yaml_diags("maxSteps: 10\n");
        assert_eq!(codes(&d), ["deprecated-field"]);
        assert_eq!(d[0].suggestion().unwrap().text, "steps");
        let d = yaml_diags("steps: 5\nmaxSteps: 10\n");
        assert!(d[0].message.contains("ignored"));
    }

    #[test]
    fn models() {
        let text = "model: claude-sonnet-4\n";
        let d = one(text);
        assert_eq!(d.code, Code::InvalidModel);
        assert_eq!(d.span.text(text), "claude-sonnet-4");
        assert!(yaml_diags("model: openrouter/anthropic/claude\n").is_empty());
        assert!(json_diags("{\"model\": \"{file:./m.txt}\"}").is_empty());
    }

    #[test]
    fn hidden_primary() {
        let text = "mode: primary\nhidden: true\n";
        let d = one(text);
        assert_eq!(d.code, Code::HiddenPrimary);
        assert!(yaml_diags("mode: subagent\nhidden: true\n").is_empty());
    }

    #[test]
    fn settings_must_be_an_object() {
        assert_eq!(codes(&json_diags("\"x\"")), ["invalid-type"]);
    }
}
