//! Commands and skills as a plugin lists them.

use crate::analysis::claude::read;
use crate::analysis::syntax::{Node, Value};

/// A command or skill as Claude Code lists it (`/plugin:name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub description: String,
    pub argument_hint: String,
}

/// What Claude Code lists for a plugin command or skill file: `path_name` is the name its path
/// gives (`plugin:sub:file`, `plugin:folder`); a frontmatter `name` replaces its last segment.
/// The description is the frontmatter's (collapsed to one line), else the body's first line
/// (headings unmarked, HTML-escaped, at most 100 characters), else `Plugin command` or `Plugin
/// skill`.
pub fn listed(path_name: &str, skill: bool, text: &str) -> Listed {
    let reading = read::read(text);
    let map = match reading.outcome {
        read::Outcome::FirstPass | read::Outcome::Retry => reading.parsed.root.as_ref().and_then(Node::as_map),
        _ => None,
    };
    let get = |k: &str| {
        map.and_then(|m| m.value(k))
            .and_then(js_string)
            .filter(|s| !s.is_empty())
    };
    let name = match get("name") {
        Some(n) => match path_name.rsplit_once(':') {
            Some((ns, _)) => format!("{ns}:{n}"),
            None => n,
        },
        None => path_name.to_string(),
    };
    // A list or an object is no description: the body's line is used.
    let description = map
        .and_then(|m| m.value("description"))
        .filter(|n| {
            matches!(
                n.value,
                Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_)
            )
        })
        .and_then(js_string)
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| {
            let body = match &reading.block {
                Some(b) if reading.outcome != read::Outcome::NoFrontmatter => b.body.text(text),
                _ => text.strip_prefix('\u{feff}').unwrap_or(text),
            };
            first_line(body).unwrap_or_else(|| if skill { "Plugin skill" } else { "Plugin command" }.into())
        });
    Listed {
        name,
        description,
        argument_hint: get("argument-hint").unwrap_or_default(),
    }
}

/// A YAML value as JavaScript's `String(value)` writes it (lists joined with `,`); `None` for
/// null.
pub(crate) fn js_string(n: &Node) -> Option<String> {
    Some(match &n.value {
        Value::Str(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Value::Float(f) => f.to_string(),
        Value::Seq(items) => items
            .iter()
            .map(|i| js_string(i).unwrap_or_default())
            .collect::<Vec<_>>()
            .join(","),
        Value::Map(_) => "[object Object]".into(),
        Value::Timestamp(t) => t.clone(),
        Value::Null | Value::Unknown => return None,
    })
}

/// The body's first non-blank line, as the listing shows it.
fn first_line(body: &str) -> Option<String> {
    let line = body.lines().map(str::trim).find(|l| !l.is_empty())?;
    let unmarked = match line.trim_start_matches('#') {
        rest if rest.len() < line.len() && rest.starts_with([' ', '\t']) => rest.trim(),
        _ => line,
    };
    let escaped = unmarked.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    Some(if escaped.chars().count() > 100 {
        escaped.chars().take(97).collect::<String>() + "..."
    } else {
        escaped
    })
}
