//! Completion for agent frontmatter, `opencode.json(c)` and `tui.json(c)` (from its own table,
//! see [`super::tui::complete`]): keys valid at the cursor (without those already present) and
//! values for the key being written. It works on half-typed text: the context comes from a scan
//! of the text before the cursor (indentation in YAML, an incremental bracket/string scan in
//! JSON), not from a full parse.

use super::FileKind;
use super::config_schema::{BUILTIN_LSP_SERVERS, CONFIG};
use super::schema::{self, ACTIONS, AGENT_FIELDS, FieldType, MODES, PERMISSION_KEYS, THEME_COLORS};
use crate::analysis::complete::{Context, item, json_context, yaml_context};
pub use crate::analysis::complete::{Item, ItemKind};
use crate::analysis::shape;

/// What the workspace knows that completion offers.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Agents: name, mode, description.
    pub agents: Vec<(String, String, String)>,
    /// Model ids (`provider/model`) from `provider` sections and models already used.
    pub models: Vec<String>,
}

pub fn complete(kind: &FileKind, text: &str, offset: usize, known: &Known) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let (ctx, yaml) = match kind {
        FileKind::Config | FileKind::Tui | FileKind::Theme => (json_context(text, offset), false),
        FileKind::Agent { .. } | FileKind::Mode { .. } => (yaml_context(text, offset), true),
    };
    let Some(ctx) = ctx else { return Vec::new() };
    let is_md = kind.is_markdown();
    let mut items = match (&ctx.value_of, kind) {
        (_, FileKind::Tui) => super::tui::complete(&ctx),
        (_, FileKind::Theme) => super::theme::complete(&ctx, text),
        (None, _) => keys(&ctx, is_md, known),
        (Some(key), _) => values(&ctx, key, is_md, known),
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
    if is_md {
        return Vec::new();
    }
    // Every other section, from the config's table.
    let keys: Vec<&str> = path.iter().map(String::as_str).collect();
    let mut out: Vec<Item> = shape::lookup::fields_at(&CONFIG, &keys)
        .into_iter()
        .filter(|(_, f)| absent(f.name) && f.deprecated.is_none())
        .map(|(o, f)| {
            let rank = match (keys.is_empty(), f.required) {
                (true, _) if matches!(f.name, "agent" | "default_agent" | "permission" | "model") => 0,
                (true, _) => 1,
                (false, true) => 0,
                (false, false) => 1,
            };
            let detail = if keys.is_empty() { "opencode config" } else { o.what };
            item(f.name, ItemKind::Key, detail, Some(f.doc.to_string()), rank)
        })
        .collect();
    // The language servers opencode knows by name.
    if keys == ["lsp"] {
        out.extend(
            BUILTIN_LSP_SERVERS
                .iter()
                .filter(|n| absent(n))
                .map(|n| item(n, ItemKind::Key, "built-in language server", None, 1)),
        );
    }
    out
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
            _ => table_values(path, key),
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
        // Every other section: the values its table allows.
        return if is_md { Vec::new() } else { table_values(path, key) };
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
/// The values the config's table allows for `key` in the object at `path`.
fn table_values(path: &[String], key: &str) -> Vec<Item> {
    let mut keys: Vec<&str> = path.iter().map(String::as_str).collect();
    keys.push(key);
    shape::lookup::values_at(&CONFIG, &keys)
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let (label, detail) = match v {
                shape::Lit::Str(s) => (s.to_string(), key),
                shape::Lit::Bool(b) => (b.to_string(), "boolean"),
            };
            item(&label, ItemKind::Value, detail, None, i as u8)
        })
        .collect()
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

    #[test]
    fn every_section_completes_from_the_table() {
        let c = FileKind::Config;
        // Top level: deprecated keys are not offered, present ones neither.
        let l = labels(&c, "{\"share\": \"auto\", \"|");
        assert!(
            l.contains(&"mcp".to_string()) && l.contains(&"lsp".to_string()),
            "{l:?}"
        );
        assert!(
            !l.iter().any(|k| k == "share" || k == "autoshare" || k == "layout"),
            "{l:?}"
        );
        // An MCP server: both forms' fields, the required ones first.
        let l = labels(&c, "{\"mcp\": {\"github\": {\"type\": \"local\", \"|");
        assert_eq!(
            l,
            [
                "command",
                "url",
                "cwd",
                "enabled",
                "environment",
                "headers",
                "oauth",
                "timeout"
            ]
        );
        assert_eq!(
            insert(&c, "{\"mcp\": {\"g\": {\"env|", "environment"),
            "{\"mcp\": {\"g\": {\"environment\": "
        );
        // Deeper: a model's limits, a remote server's OAuth settings.
        assert_eq!(
            labels(&c, "{\"provider\": {\"p\": {\"models\": {\"m\": {\"limit\": {\"|"),
            ["context", "output", "input"]
        );
        assert!(labels(&c, "{\"mcp\": {\"r\": {\"oauth\": {\"|").contains(&"clientId".to_string()));
        // Inside an array of objects.
        assert_eq!(
            labels(&c, "{\"experimental\": {\"policies\": [{\"|"),
            ["action", "effect", "resource"]
        );
        // Values: literals and booleans, in every section, in the table's order.
        assert_eq!(labels(&c, "{\"share\": \"|"), ["manual", "auto", "disabled"]);
        assert_eq!(labels(&c, "{\"autoupdate\": |"), ["true", "false", "notify"]);
        assert_eq!(
            insert(&c, "{\"autoupdate\": |}", "notify"),
            "{\"autoupdate\": \"notify\"}"
        );
        assert_eq!(labels(&c, "{\"mcp\": {\"x\": {\"type\": \"|"), ["local", "remote"]);
        assert_eq!(labels(&c, "{\"logLevel\": \"|"), ["DEBUG", "INFO", "WARN", "ERROR"]);
        assert_eq!(
            labels(
                &c,
                "{\"provider\": {\"p\": {\"models\": {\"m\": {\"modalities\": {\"input\": [\"|"
            ),
            ["text", "audio", "image", "video", "pdf"]
        );
        // Language servers opencode knows by name.
        assert!(labels(&c, "{\"lsp\": {\"|").contains(&"rust".to_string()));
        // Commands: their fields.
        assert_eq!(
            labels(&c, "{\"command\": {\"x\": {\"|"),
            ["template", "agent", "description", "model", "subtask", "variant"]
        );
    }
}
