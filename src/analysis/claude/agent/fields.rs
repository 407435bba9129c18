//! The value of each recognised field against the schema (enums, `model`, `effort`, `maxTurns`).

use super::hooks::{hooks, mcp_servers};
use super::lists::check_list;
use super::model::{Agent, Ctx, Setting};
use crate::analysis::claude::schema::{self, FieldType};
use crate::analysis::claude::tools::{self, List};
use crate::analysis::diagnostic::{Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Style, Value};
use crate::analysis::text::Span;

/// Check one recognised field and keep what the loader keeps.
pub(super) fn field_value(cx: &mut Ctx, agent: &mut Agent, field: &schema::Field, key_span: Span, v: &Node) {
    if matches!(v.value, Value::Unknown) {
        return;
    }
    let key = field.name;
    let keep = |agent: &mut Agent, value: String| {
        agent.settings.push(Setting {
            key,
            value,
            span: key_span,
        })
    };
    let plugin = cx.kind.is_plugin();
    match field.ty {
        FieldType::Name | FieldType::Description | FieldType::Any => {
            if !matches!(field.ty, FieldType::Any) {
                return;
            }
            keep(agent, v.display());
        }
        FieldType::List => {
            let list = tools::read(v, cx.text);
            check_list(cx, agent, key, v, &list);
            match key {
                "tools" => agent.tools = Some(list),
                "disallowedTools" => agent.disallowed = Some(list),
                _ => keep(agent, list_display(&list)),
            }
        }
        FieldType::Model => match &v.value {
            Value::Str(s) if !s.trim().is_empty() => {
                let m = s.trim();
                let m = if m.eq_ignore_ascii_case("inherit") {
                    "inherit"
                } else {
                    m
                };
                model_hint(cx, v, m);
                keep(agent, m.to_string());
            }
            Value::Null => {}
            _ => {
                cx.dropped(
                    Code::InvalidType,
                    v.span,
                    "`model` must be a model name or alias; Claude Code drops this value and the agent uses the parent's model".into(),
                );
            }
        },
        FieldType::Enum(values) => {
            let s = match &v.value {
                Value::Str(s) => Some(s.as_str()),
                Value::Null => {
                    if key == "permissionMode" {
                        return;
                    }
                    None
                }
                _ => None,
            };
            if key == "permissionMode" && s == Some("manual") {
                keep(agent, "default".into());
                return;
            }
            if key == "isolation" && plugin && s != Some("worktree") {
                enum_problem(cx, (key, key_span), &["worktree"], v, s);
                return;
            }
            if let Some(s) = s
                && values.contains(&s)
            {
                keep(agent, s.to_string());
                return;
            }
            if key == "color" && plugin {
                // Not checked at load for plugin agents.
                keep(agent, v.display());
                return;
            }
            enum_problem(cx, (key, key_span), values, v, s);
        }
        FieldType::Effort => match effort(&v.value) {
            Some(level) => keep(agent, level),
            None => {
                let shown = loader_shown(v);
                let d = cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "invalid effort '{shown}': Claude Code drops it. Valid options: low, medium, high, xhigh, max or an integer"
                    ),
                );
                if let Value::Str(s) = &v.value
                    && let Some(level) = schema::EFFORTS.iter().find(|l| l.eq_ignore_ascii_case(s.trim()))
                {
                    *d = d.clone().with_suggestion(v.span, *level);
                }
            }
        },
        FieldType::PositiveInt => match max_turns(&v.value) {
            Some(n) => keep(agent, n.to_string()),
            None => {
                let shown = loader_shown(v);
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!("invalid maxTurns '{shown}': Claude Code drops it. It must be a positive integer"),
                );
            }
        },
        FieldType::CompactWindow => match v.value {
            Value::Int(n) if n >= 100_000 => keep(agent, n.to_string()),
            _ => {
                let shown = loader_shown(v);
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "invalid autoCompactWindow '{shown}': Claude Code drops it. It must be an integer of at least 100000"
                    ),
                );
            }
        },
        FieldType::Bool => match &v.value {
            Value::Bool(b) => keep(agent, b.to_string()),
            Value::Str(s) if s == "true" || s == "false" => keep(agent, s.clone()),
            _ => {
                let shown = loader_shown(v);
                let d = cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!("invalid background value '{shown}': Claude Code drops it. It must be `true` or `false`"),
                );
                let fixed = match &v.value {
                    Value::Str(s) if matches!(s.to_lowercase().as_str(), "yes" | "on" | "y") => Some("true"),
                    Value::Str(s) if matches!(s.to_lowercase().as_str(), "no" | "off" | "n") => Some("false"),
                    Value::Int(1) => Some("true"),
                    Value::Int(0) => Some("false"),
                    _ => None,
                };
                if let Some(f) = fixed {
                    *d = d.clone().with_suggestion(v.span, f);
                }
            }
        },
        FieldType::LooseBool => {
            let on = matches!(&v.value, Value::Bool(true)) || matches!(&v.value, Value::Str(s) if s == "true");
            if !on && !matches!(v.value, Value::Bool(false) | Value::Null) {
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "`{key}` is on only for `true`; Claude Code reads `{}` as false",
                        v.span.text(cx.text)
                    ),
                );
            }
            keep(agent, on.to_string());
        }
        FieldType::Text => match &v.value {
            Value::Str(s) if !s.trim().is_empty() => keep(agent, s.clone()),
            _ => {
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!("`{key}` must be a non-blank string; Claude Code drops this value"),
                );
            }
        },
        FieldType::McpServers => mcp_servers(cx, agent, v),
        FieldType::Hooks => hooks(cx, agent, v),
    }
}

/// How the loader prints a value in its messages (`'null'` for an empty one).
fn loader_shown(v: &Node) -> String {
    match &v.value {
        Value::Null => "null".into(),
        Value::Str(s) => s.clone(),
        _ => v.display(),
    }
}

fn list_display(list: &List) -> String {
    match list {
        List::All(_) => "*".into(),
        List::Empty(_) => "(none)".into(),
        List::Items(items) => items.iter().map(|i| i.text.as_str()).collect::<Vec<_>>().join(", "),
    }
}

/// `effort` as the loader reads it (§7.5), or None when it drops it.
pub fn effort(v: &Value) -> Option<String> {
    match v {
        Value::Int(n) => Some(n.to_string()),
        Value::Float(f) if f.is_finite() => Some((f.trunc() as i64).to_string()),
        Value::Str(s) => {
            if let Some(l) = schema::EFFORTS.iter().find(|l| l.eq_ignore_ascii_case(s)) {
                return Some(l.to_string());
            }
            if s.eq_ignore_ascii_case("med") {
                return Some("medium".into());
            }
            leading_int(s).map(|n| n.to_string())
        }
        _ => None,
    }
}

/// JavaScript `parseInt` on a string: optional sign, then digits, after leading whitespace.
fn leading_int(s: &str) -> Option<i64> {
    let t = s.trim_start();
    let (sign, rest) = match t.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    digits.parse::<i64>().ok().map(|n| sign * n)
}

/// `maxTurns` as the loader reads it (§7.5): a positive integer; strings leniently.
pub fn max_turns(v: &Value) -> Option<i64> {
    let n = match v {
        Value::Int(n) => *n,
        Value::Str(s) => {
            let t: String = s.trim().chars().filter(|c| *c != ',').collect();
            // The longest leading decimal literal (`1e2`, `2.5`, `20 turns`).
            let mut best = None;
            for end in (1..=t.len()).rev() {
                if t.is_char_boundary(end)
                    && let Ok(f) = t[..end].parse::<f64>()
                    && !t[..end].contains(['i', 'I', 'n', 'N'])
                {
                    best = Some(f);
                    break;
                }
            }
            let f = best?;
            if !f.is_finite() {
                return None;
            }
            f.trunc() as i64
        }
        _ => return None,
    };
    (n >= 1).then_some(n)
}

fn enum_problem(cx: &mut Ctx, key: (&str, Span), values: &[&str], v: &Node, s: Option<&str>) {
    let (key, key_span) = key;
    let near = s.and_then(|s| {
        values
            .iter()
            .find(|x| x.eq_ignore_ascii_case(s.trim()))
            .or_else(|| {
                values
                    .iter()
                    .map(|x| (strsim::levenshtein(&x.to_lowercase(), &s.to_lowercase()), x))
                    .filter(|(d, _)| *d <= 2)
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, x)| x)
            })
            .copied()
    });
    let shown = loader_shown(v);
    let (code, message) = match key {
        "color" => {
            let rest = &cx.text[key_span.end as usize..];
            let line = rest.split(['\n', '\r']).next().unwrap_or("");
            let comment = line.trim_start_matches(':').trim_start().starts_with('#');
            let extra = if matches!(v.value, Value::Null) && comment {
                ". A value starting with `#` is a YAML comment, so the color is empty; Claude Code has no hex colors"
            } else {
                ""
            };
            (
                Code::InvalidColor,
                format!(
                    "Claude Code has no color `{shown}` and drops it silently{extra}. Its colors: {}",
                    values.join(", ")
                ),
            )
        }
        "permissionMode" => (
            Code::InvalidValue,
            format!(
                "invalid permissionMode '{shown}': Claude Code ignores it. Valid options: {}",
                values.join(", ")
            ),
        ),
        "memory" => (
            Code::InvalidValue,
            format!(
                "invalid memory value '{shown}': Claude Code drops it. Valid options: {}",
                values.join(", ")
            ),
        ),
        "isolation" if cx.kind.is_plugin() => (
            Code::InvalidValue,
            format!("a plugin agent's isolation can only be `worktree`; Claude Code drops '{shown}' silently"),
        ),
        _ => (
            Code::InvalidValue,
            format!(
                "invalid {key} value '{shown}': Claude Code drops it. Valid options: {}",
                values.join(", ")
            ),
        ),
    };
    let d = cx.dropped(code, v.span, message);
    if let Some(n) = near
        && !v.span.is_empty()
    {
        *d = d.clone().with_suggestion(v.span, n);
    }
}

/// A warning for model names one typo away from an alias (model ids are open-ended).
fn model_hint(cx: &mut Ctx, v: &Node, m: &str) {
    if schema::MODEL_ALIASES.iter().any(|(a, _)| *a == m) || m.starts_with("claude-") || m.contains(['/', ':', '.']) {
        return;
    }
    let near = schema::MODEL_ALIASES
        .iter()
        .map(|(a, _)| (strsim::levenshtein(a, &m.to_lowercase()), *a))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d);
    if let Some((_, alias)) = near {
        let d = cx.push(
            Code::InvalidModel,
            Severity::Warning,
            Effect::FailsWhenUsed,
            v.span,
            format!("`{m}` is no model alias; did you mean `{alias}`? Claude Code keeps the name and the request fails when the agent runs"),
        );
        if v.style == Style::Plain {
            *d = d.clone().with_suggestion(v.span, alias);
        }
    }
}
