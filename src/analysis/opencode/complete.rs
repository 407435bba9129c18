//! Completion for agent frontmatter and `opencode.json(c)`: keys valid at the cursor (without
//! those already present) and values for the key being written. It works on half-typed text:
//! the context comes from a scan of the text before the cursor (indentation in YAML, an
//! incremental bracket/string scan in JSON), not from a full parse.

use super::FileKind;
use super::schema::{self, ACTIONS, AGENT_FIELDS, FieldType, MODES, PERMISSION_KEYS, THEME_COLORS, TOP_LEVEL_KEYS};
use crate::analysis::syntax::frontmatter;
use crate::analysis::text::Span;

/// What the workspace knows that completion offers.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Agents: name, mode, description.
    pub agents: Vec<(String, String, String)>,
    /// Model ids (`provider/model`) from `provider` sections and models already used.
    pub models: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Key,
    Value,
    Agent,
    Model,
    Color,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub label: String,
    pub kind: ItemKind,
    pub detail: String,
    pub documentation: Option<String>,
    /// The text to put in place of `replace`.
    pub insert: String,
    pub replace: Span,
    /// Sort order: lower first.
    pub rank: u8,
}

/// Where the cursor is, structurally.
#[derive(Debug, PartialEq)]
pub(crate) struct Context {
    /// Keys from the root down to the mapping the cursor is in.
    pub path: Vec<String>,
    /// `Some(key)`: completing the value of `key`; `None`: completing a key.
    pub value_of: Option<String>,
    /// The partial text under the cursor, to be replaced.
    pub replace: Span,
    /// Keys already present in the mapping (for key completion).
    pub present: Vec<String>,
    /// The partial token starts with a quote (JSON or quoted YAML).
    pub quoted: bool,
}

struct Fm {
    yaml: Span,
    close: Option<Span>,
}

pub fn complete(kind: &FileKind, text: &str, offset: usize, known: &Known) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let (ctx, yaml) = match kind {
        FileKind::Config => (json_context(text, offset), false),
        _ => (yaml_context(text, offset), true),
    };
    let Some(ctx) = ctx else { return Vec::new() };
    let is_md = kind.is_markdown();
    let mut items = match &ctx.value_of {
        None => keys(&ctx, is_md, known),
        Some(key) => values(&ctx, key, is_md, known),
    };
    let write = |s: &str, item_kind: ItemKind| -> String {
        if yaml {
            let needs_quotes = s.starts_with(['#', '*', '"', '\'']) || s.contains(": ") || s.contains(" #");
            if ctx.quoted || needs_quotes {
                format!("\"{s}\"")
            } else {
                s.to_string()
            }
        } else if item_kind == ItemKind::Value && matches!(s, "true" | "false") {
            s.to_string()
        } else {
            format!("\"{s}\"")
        }
    };
    for it in &mut items {
        it.replace = ctx.replace;
        let body = write(&it.label, it.kind);
        it.insert = match (ctx.value_of.is_none(), yaml) {
            (true, true) => format!("{body}: "),
            (true, false) => format!("{body}: "),
            _ => body,
        };
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

pub(crate) fn item(label: &str, kind: ItemKind, detail: &str, doc: Option<String>, rank: u8) -> Item {
    Item {
        label: label.to_string(),
        kind,
        detail: detail.to_string(),
        documentation: doc,
        insert: String::new(),
        replace: Span::default(),
        rank,
    }
}

/// The path's role: where agent settings start, and whether we are in a permission block.
fn agent_base(path: &[String], is_md: bool) -> Option<usize> {
    if is_md {
        Some(0)
    } else if path.len() >= 2 && matches!(path[0].as_str(), "agent" | "mode" | "agents") {
        Some(2)
    } else {
        None
    }
}

fn permission_base(path: &[String], is_md: bool) -> Option<usize> {
    if !is_md && path.first().map(String::as_str) == Some("permission") {
        return Some(0);
    }
    let b = agent_base(path, is_md)?;
    (path.get(b).map(String::as_str) == Some("permission")).then_some(b)
}

fn keys(ctx: &Context, is_md: bool, known: &Known) -> Vec<Item> {
    let path = &ctx.path;
    let absent = |k: &str| !ctx.present.iter().any(|p| p == k);
    if let Some(p) = permission_base(path, is_md) {
        return match path.len() - p {
            // Permission keys: known ones first, with what each matches.
            1 => PERMISSION_KEYS
                .iter()
                .filter(|k| absent(k.name))
                .map(|k| {
                    let only = if k.value == schema::PermissionValue::ActionOnly {
                        " (action only)"
                    } else {
                        ""
                    };
                    item(
                        k.name,
                        ItemKind::Key,
                        &format!("permission{only}"),
                        Some(format!("Matches {}.", k.matches)),
                        0,
                    )
                })
                .chain(absent("*").then(|| {
                    item(
                        "*",
                        ItemKind::Key,
                        "every permission",
                        Some("A catch-all: put it first; the last matching rule wins.".into()),
                        1,
                    )
                }))
                .collect(),
            // Patterns: agent names under `task`, the catch-all elsewhere.
            2 => {
                let perm = path[p + 1].as_str();
                let mut out: Vec<Item> = Vec::new();
                if absent("*") {
                    out.push(item(
                        "*",
                        ItemKind::Key,
                        "every input",
                        Some("The catch-all; put it first.".into()),
                        0,
                    ));
                }
                if perm == "task" {
                    out.extend(
                        known
                            .agents
                            .iter()
                            .filter(|(n, m, _)| m != "primary" && absent(n))
                            .map(|(n, m, d)| {
                                item(
                                    n,
                                    ItemKind::Agent,
                                    &format!("{m} agent"),
                                    (!d.is_empty()).then(|| d.clone()),
                                    1,
                                )
                            }),
                    );
                }
                out
            }
            _ => Vec::new(),
        };
    }
    if let Some(b) = agent_base(path, is_md) {
        if path.len() == b {
            return AGENT_FIELDS
                .iter()
                .filter(|f| absent(f.name) && f.name != "maxSteps" && f.name != "tools")
                .map(|f| item(f.name, ItemKind::Key, "agent field", super::card::field_doc(f.name), 0))
                .collect();
        }
        return Vec::new();
    }
    if !is_md && path.is_empty() {
        return TOP_LEVEL_KEYS
            .iter()
            .filter(|k| absent(k) && !matches!(**k, "mode" | "tools" | "reference"))
            .map(|k| {
                item(
                    k,
                    ItemKind::Key,
                    "opencode config",
                    None,
                    if matches!(*k, "agent" | "default_agent" | "permission" | "model") {
                        0
                    } else {
                        1
                    },
                )
            })
            .collect();
    }
    if !is_md && path.len() == 2 && path[0] == "command" {
        return schema::COMMAND_FIELDS
            .iter()
            .filter(|k| absent(k))
            .map(|k| item(k, ItemKind::Key, "command field", None, 0))
            .collect();
    }
    Vec::new()
}

fn values(ctx: &Context, key: &str, is_md: bool, known: &Known) -> Vec<Item> {
    let path = &ctx.path;
    let agents = |filter: &dyn Fn(&str) -> bool| -> Vec<Item> {
        known
            .agents
            .iter()
            .filter(|(_, m, _)| filter(m))
            .map(|(n, m, d)| {
                item(
                    n,
                    ItemKind::Agent,
                    &format!("{m} agent"),
                    (!d.is_empty()).then(|| d.clone()),
                    0,
                )
            })
            .collect()
    };
    let models = || -> Vec<Item> {
        known
            .models
            .iter()
            .map(|m| item(m, ItemKind::Model, "model", None, 0))
            .collect()
    };
    if let Some(p) = permission_base(path, is_md) {
        let depth = path.len() - p;
        if depth == 1 || depth == 2 {
            return ACTIONS
                .iter()
                .enumerate()
                .map(|(i, a)| item(a, ItemKind::Value, "action", None, i as u8))
                .collect();
        }
        return Vec::new();
    }
    if !is_md && path.is_empty() {
        return match key {
            "default_agent" => agents(&|m| m != "subagent"),
            "model" | "small_model" => models(),
            _ => Vec::new(),
        };
    }
    if !is_md && path.len() == 2 && path[0] == "command" {
        return match key {
            "agent" => agents(&|_| true),
            "model" => models(),
            "subtask" => ["true", "false"]
                .iter()
                .map(|b| item(b, ItemKind::Value, "boolean", None, 0))
                .collect(),
            _ => Vec::new(),
        };
    }
    let Some(b) = agent_base(path, is_md) else {
        return Vec::new();
    };
    if path.len() != b {
        return Vec::new();
    }
    let Some(field) = schema::agent_field(key) else {
        return Vec::new();
    };
    match field.ty {
        FieldType::Mode => MODES
            .iter()
            .map(|m| {
                let doc = match *m {
                    "primary" => "Selectable with Tab; the main agent of a session.",
                    "subagent" => "Called by other agents through the Task tool, or with @name.",
                    _ => "Both primary and subagent (the default for new agents).",
                };
                item(m, ItemKind::Value, "mode", Some(doc.into()), 0)
            })
            .collect(),
        FieldType::Bool => ["true", "false"]
            .iter()
            .map(|b| item(b, ItemKind::Value, "boolean", None, 0))
            .collect(),
        FieldType::Color => THEME_COLORS
            .iter()
            .map(|c| item(c, ItemKind::Color, "theme color", None, 0))
            .chain(std::iter::once(item(
                "#RRGGBB",
                ItemKind::Color,
                "hex color (# and six hex digits)",
                None,
                1,
            )))
            .collect(),
        FieldType::Model => models(),
        FieldType::Permission => ACTIONS
            .iter()
            .map(|a| item(a, ItemKind::Value, "action for everything", None, 1))
            .collect(),
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// YAML: context from indentation.
// ---------------------------------------------------------------------------------------------

fn yaml_context(text: &str, offset: usize) -> Option<Context> {
    let split = frontmatter::split(text);
    let fm = split.frontmatter?;
    yaml_context_in(text, offset, fm.yaml, fm.close)
}

/// The completion context at `offset` in a frontmatter whose YAML starts at `yaml.start` and
/// whose closing delimiter (if any) is `close`. Shared by every dialect.
pub(crate) fn yaml_context_in(text: &str, offset: usize, yaml: Span, close: Option<Span>) -> Option<Context> {
    let fm = Fm { yaml, close };
    // Inside the frontmatter only (an unclosed one runs to the end).
    if offset < fm.yaml.start as usize || fm.close.is_some_and(|c| offset > c.start as usize) {
        return None;
    }
    if fm.close.is_some_and(|c| offset == c.start as usize) && !text[..offset].ends_with('\n') {
        return None;
    }
    let line_start = text[..offset]
        .rfind('\n')
        .map_or(0, |i| i + 1)
        .max(fm.yaml.start as usize);
    let line = &text[line_start..offset];
    if line.trim_start().starts_with('#') {
        return None;
    }
    let indent = line.len() - line.trim_start_matches(' ').len();
    let content = &line[indent..];
    let content = content.strip_prefix("- ").unwrap_or(content);
    // Which key's value, if the line has `key:` before the cursor.
    let (value_of, partial_start) = match split_key(content) {
        Some((key, value_at)) => (Some(key), line_start + indent + value_at),
        None => (None, line_start + indent),
    };
    let partial = &text[partial_start..offset];
    let quoted = partial.starts_with(['"', '\'']);
    // A partial containing a space in key position is not something we complete (prose).
    if value_of.is_none() && partial.contains(": ") {
        return None;
    }
    // The parent path: lines above with less indentation that open a mapping (`key:`).
    let mut path: Vec<(usize, String)> = Vec::new();
    let mut want = indent;
    let yaml_text = &text[fm.yaml.start as usize..line_start];
    for l in yaml_text.lines().rev() {
        let li = l.len() - l.trim_start_matches(' ').len();
        let c = l.trim();
        if c.is_empty() || c.starts_with('#') {
            continue;
        }
        if li < want
            && let Some((k, at)) = split_key(&l[li..])
            && l[li + at..].trim().is_empty()
        {
            path.push((li, k));
            want = li;
            if li == 0 {
                break;
            }
        } else if li < want {
            // Less indented but not a mapping key: the structure is not one we know.
            return None;
        }
    }
    path.reverse();
    let path: Vec<String> = path.into_iter().map(|(_, k)| k).collect();
    // Keys already present at this level: sibling lines with the same indentation under the
    // same parent.
    let mut present = Vec::new();
    let body = &text[fm.yaml.start as usize..fm.close.map_or(text.len(), |c| c.start as usize)];
    let mut depth_keys: Vec<(usize, String)> = Vec::new();
    for l in body.lines() {
        let li = l.len() - l.trim_start_matches(' ').len();
        let c = l.trim();
        if c.is_empty() || c.starts_with('#') {
            continue;
        }
        let Some((k, _)) = split_key(&l[li..]) else { continue };
        depth_keys.retain(|(d, _)| *d < li);
        let parents: Vec<&str> = depth_keys.iter().map(|(_, k)| k.as_str()).collect();
        if li == indent && parents == path.iter().map(String::as_str).collect::<Vec<_>>() {
            present.push(k.clone());
        }
        depth_keys.push((li, k));
    }
    Some(Context {
        path,
        value_of,
        replace: Span::new(partial_start, offset + closing_quote(text, offset, quoted)),
        present,
        quoted,
    })
}

/// `key: rest` → the key (unquoted) and the offset of `rest` in the line.
fn split_key(content: &str) -> Option<(String, usize)> {
    let (key, after) = if let Some(q) = content.strip_prefix('"') {
        let end = q.find('"')?;
        (q[..end].to_string(), 1 + end + 1)
    } else if let Some(q) = content.strip_prefix('\'') {
        let end = q.find('\'')?;
        (q[..end].to_string(), 1 + end + 1)
    } else {
        let colon = content
            .find(": ")
            .or_else(|| content.strip_suffix(':').map(|s| s.len()))?;
        (content[..colon].trim_end().to_string(), colon)
    };
    let rest = &content[after..];
    let rest = rest.strip_prefix(':')?;
    let lead = rest.len() - rest.trim_start().len();
    if key.is_empty() {
        return None;
    }
    Some((key, after + 1 + lead))
}

/// An auto-inserted closing quote right after the cursor is replaced too.
fn closing_quote(text: &str, offset: usize, quoted: bool) -> usize {
    if quoted && text[offset..].starts_with('"') {
        1
    } else {
        0
    }
}

// ---------------------------------------------------------------------------------------------
// JSON: context from an incremental scan of the text before the cursor.
// ---------------------------------------------------------------------------------------------

#[derive(Debug)]
struct Frame {
    object: bool,
    /// The key this container is the value of.
    key: Option<String>,
    /// Keys seen in this object.
    keys: Vec<String>,
}

pub(crate) fn json_context(text: &str, offset: usize) -> Option<Context> {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    // The last key read in the innermost object, and whether a `:` followed it.
    let mut pending_key: Option<String> = None;
    let mut after_colon = false;
    let mut i = 0;
    while i < offset {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < offset && b[i] != b'\n' {
                    i += 1;
                }
                if i >= offset {
                    return None; // in a comment
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match text[i + 2..].find("*/") {
                Some(end) if i + 2 + end + 2 <= offset => i = i + 2 + end + 1,
                _ => return None,
            },
            b'"' => {
                let start = i;
                i += 1;
                let mut s = String::new();
                let mut closed = false;
                while i < b.len() {
                    if i >= offset {
                        break;
                    }
                    match b[i] {
                        b'\\' => {
                            i += 2;
                            continue;
                        }
                        b'"' => {
                            closed = true;
                            break;
                        }
                        b'\n' => break,
                        _ => {}
                    }
                    i += 1;
                }
                let end = i.min(offset);
                s.push_str(&text[start + 1..end]);
                if !closed {
                    // The cursor is inside this string: a key or a value being typed.
                    let in_object = stack.last().is_some_and(|f| f.object);
                    let value_of = if in_object && after_colon {
                        pending_key.clone()
                    } else {
                        None
                    };
                    if in_object && !after_colon {
                        return Some(json_ctx(&stack, None, start, offset, text, true));
                    }
                    // A string item of a list (`"delegates": ["|"]`): a value of the list's key.
                    if let Some(list) = stack.last().filter(|f| !f.object)
                        && let Some(k) = list.key.clone()
                    {
                        return Some(json_ctx(&stack[..stack.len() - 1], Some(k), start, offset, text, true));
                    }
                    return value_of.map(|k| json_ctx(&stack, Some(k), start, offset, text, true));
                }
                let in_object = stack.last().is_some_and(|f| f.object);
                if in_object && !after_colon {
                    pending_key = Some(s.clone());
                    if let Some(f) = stack.last_mut() {
                        f.keys.push(s);
                    }
                } else {
                    after_colon = false;
                }
            }
            b':' => after_colon = true,
            b',' => {
                after_colon = false;
                pending_key = None;
            }
            b'{' | b'[' => {
                let key = if after_colon { pending_key.take() } else { None };
                stack.push(Frame {
                    object: b[i] == b'{',
                    key,
                    keys: Vec::new(),
                });
                after_colon = false;
                pending_key = None;
            }
            b'}' | b']' => {
                stack.pop();
                after_colon = false;
                pending_key = None;
            }
            _ => {}
        }
        i += 1;
    }
    let in_object = stack.last().is_some_and(|f| f.object);
    if !in_object {
        return None;
    }
    // Not inside a string: a bare word being typed (or nothing yet).
    let word_start = text[..offset]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |p| p + 1);
    if after_colon {
        let key = pending_key?;
        Some(json_ctx(&stack, Some(key), word_start, offset, text, false))
    } else {
        Some(json_ctx(&stack, None, word_start, offset, text, false))
    }
}

fn json_ctx(
    stack: &[Frame],
    value_of: Option<String>,
    start: usize,
    offset: usize,
    text: &str,
    quoted: bool,
) -> Context {
    let path: Vec<String> = stack.iter().skip(1).filter_map(|f| f.key.clone()).collect();
    let present = stack.last().map(|f| f.keys.clone()).unwrap_or_default();
    Context {
        path,
        value_of,
        replace: Span::new(start, offset + closing_quote(text, offset, quoted)),
        present,
        quoted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(kind: &FileKind, text: &str) -> Vec<String> {
        let offset = text.find('|').unwrap();
        let text = text.replace('|', "");
        let known = Known {
            agents: vec![
                ("build".into(), "primary".into(), String::new()),
                ("reviewer".into(), "subagent".into(), "Reviews code".into()),
            ],
            models: vec!["anthropic/claude-sonnet-4".into()],
        };
        complete(kind, &text, offset, &known)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    fn agent() -> FileKind {
        FileKind::Agent { name: "x".into() }
    }

    fn insert(kind: &FileKind, text: &str, label: &str) -> String {
        let offset = text.find('|').unwrap();
        let clean = text.replace('|', "");
        let items = complete(kind, &clean, offset, &Known::default());
        let it = items.iter().find(|i| i.label == label).unwrap();
        let mut out = clean.clone();
        out.replace_range(it.replace.range(), &it.insert);
        out
    }

    #[test]
    fn yaml_values_in_half_typed_files() {
        assert_eq!(
            labels(&agent(), "---\nmode: |\n---\nBody\n"),
            ["all", "primary", "subagent"]
        );
        assert_eq!(labels(&agent(), "---\nmode: sub|"), ["all", "primary", "subagent"]);
        assert_eq!(
            insert(&agent(), "---\nmode: sub|\n---\n", "subagent"),
            "---\nmode: subagent\n---\n"
        );
        assert!(labels(&agent(), "---\nhidden: |\n---\n").contains(&"true".to_string()));
        assert!(labels(&agent(), "---\ncolor: |\n---\n").contains(&"accent".to_string()));
        assert_eq!(
            insert(&agent(), "---\ncolor: |\n---\n", "#RRGGBB"),
            "---\ncolor: \"#RRGGBB\"\n---\n"
        );
        assert_eq!(labels(&agent(), "---\nmodel: |\n---\n"), ["anthropic/claude-sonnet-4"]);
        assert_eq!(
            labels(&agent(), "---\npermission:\n  bash: |\n---\n"),
            ["allow", "ask", "deny"]
        );
        assert_eq!(
            labels(&agent(), "---\npermission:\n  bash:\n    \"git *\": |\n---\n"),
            ["allow", "ask", "deny"]
        );
    }

    #[test]
    fn yaml_keys_leave_out_present_ones() {
        let l = labels(&agent(), "---\nmode: all\n|\n---\n");
        assert!(
            l.contains(&"description".to_string()) && !l.contains(&"mode".to_string()),
            "{l:?}"
        );
        let l = labels(&agent(), "---\npermission:\n  edit: deny\n  |\n---\n");
        assert_eq!(l[0], "bash");
        assert!(!l.contains(&"edit".to_string()));
        assert_eq!(
            labels(&agent(), "---\npermission:\n  task:\n    |\n---\n"),
            ["*", "reviewer"]
        );
        assert_eq!(
            insert(&agent(), "---\ntemp|\n---\n", "temperature"),
            "---\ntemperature: \n---\n"
        );
        // Nothing in the body.
        assert!(labels(&agent(), "---\nmode: all\n---\nmode: |").is_empty());
    }

    #[test]
    fn json_contexts() {
        let c = FileKind::Config;
        assert_eq!(
            labels(&c, "{\"agent\": {\"x\": {\"mode\": \"|"),
            ["all", "primary", "subagent"]
        );
        assert_eq!(
            insert(&c, "{\"agent\": {\"x\": {\"mode\": \"sub|\"}}}", "subagent"),
            "{\"agent\": {\"x\": {\"mode\": \"subagent\"}}}"
        );
        assert_eq!(
            insert(&c, "{\"agent\": {\"x\": {\"mode\": |}}}", "primary"),
            "{\"agent\": {\"x\": {\"mode\": \"primary\"}}}"
        );
        assert_eq!(labels(&c, "{\"default_agent\": \"|\"}"), ["build"]);
        assert_eq!(
            labels(&c, "{\"command\": {\"r\": {\"agent\": \"|"),
            ["build", "reviewer"]
        );
        let l = labels(&c, "{\n  // c\n  \"model\": \"a/b\",\n  \"|\n}");
        assert!(
            l.contains(&"agent".to_string()) && !l.contains(&"model".to_string()),
            "{l:?}"
        );
        assert_eq!(
            insert(&c, "{\"agent\": {\"x\": {\"hid|", "hidden"),
            "{\"agent\": {\"x\": {\"hidden\": "
        );
        assert_eq!(labels(&c, "{\"permission\": {\"bash\": |"), ["allow", "ask", "deny"]);
        assert_eq!(
            labels(&c, "{\"agent\": {\"x\": {\"permission\": {\"task\": {\"|"),
            ["*", "reviewer"]
        );
        assert!(labels(&c, "{\"agent\": {\"x\": {\"hidden\": |").contains(&"true".to_string()));
        assert_eq!(
            insert(&c, "{\"agent\": {\"x\": {\"hidden\": |", "true"),
            "{\"agent\": {\"x\": {\"hidden\": true"
        );
    }
}
