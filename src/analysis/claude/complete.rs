//! Completion in a Claude Code agent's frontmatter: keys (without those already present), and
//! values for `model`, `color`, `permissionMode`, `effort`, `memory`, `isolation`, `background`,
//! and tool names in `tools`/`disallowedTools` (with `mcp__` servers already used in the
//! workspace, and `Agent(<type>)` for the known agents). Works on half-typed text, with the same
//! context scan as the opencode dialect.

use super::schema::{self, FieldType};
use crate::analysis::complete::{Item, ItemKind, item, yaml_context_in};
use crate::analysis::syntax::frontmatter;
use crate::analysis::text::Span;

/// What the workspace knows that completion offers.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Claude agents of the workspace: name and description.
    pub agents: Vec<(String, String)>,
    /// `mcp__<server>` prefixes already used in the workspace's tool lists.
    pub mcp_servers: Vec<String>,
    /// Model names already used by Claude agents.
    pub models: Vec<String>,
}

pub fn complete(text: &str, offset: usize, known: &Known) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    // The block as Claude Code finds it; while it is not closed yet, up to the end.
    let reading = super::read::read(text);
    let ctx = match &reading.block {
        Some(b) => yaml_context_in(text, offset, b.yaml, Some(b.close)),
        None => {
            let split = frontmatter::split(text);
            let Some(fm) = split.frontmatter else {
                return Vec::new();
            };
            yaml_context_in(text, offset, fm.yaml, fm.close)
        }
    };
    let Some(ctx) = ctx else { return Vec::new() };
    if !ctx.path.is_empty() {
        return Vec::new();
    }
    let mut items = match &ctx.value_of {
        None => schema::FIELDS
            .iter()
            .filter(|f| !ctx.present.iter().any(|p| p == f.name))
            .map(|f| {
                let rank = match f.name {
                    "name" | "description" => 0,
                    "tools" | "model" | "disallowedTools" | "permissionMode" | "color" => 1,
                    _ => 2,
                };
                item(
                    f.name,
                    ItemKind::Key,
                    "Claude Code agent field",
                    Some(f.doc.to_string()),
                    rank,
                )
            })
            .collect(),
        Some(key) => values(key, text, ctx.replace, offset, known),
    };
    let list_item = matches!(ctx.value_of.as_deref(), Some("tools" | "disallowedTools"));
    // Inside `Agent(` ... : agent types, each replacing the type under the cursor.
    if ctx.value_of.as_deref() == Some("tools") {
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..offset];
        if let Some(open) = before.rfind('(')
            && before[open..].find(')').is_none()
            && ["Agent", "Task"].iter().any(|t| before[..open].ends_with(t))
        {
            let from = before.rfind([',', '(']).map_or(0, |i| i + 1);
            let lead = before[from..].len() - before[from..].trim_start().len();
            let start = line_start + from + lead;
            let mut items: Vec<Item> = schema::BUILTIN_AGENTS
                .iter()
                .map(|(n, d)| (n.to_string(), d.to_string()))
                .chain(known.agents.iter().cloned())
                .map(|(n, d)| {
                    let mut it = item(&n, ItemKind::Agent, "agent type", Some(d), 0);
                    it.insert = n.clone();
                    it.replace = Span::new(start, offset);
                    it
                })
                .collect();
            items.sort_by(|a, b| a.label.cmp(&b.label));
            items.dedup_by(|a, b| a.label == b.label);
            return items;
        }
    }
    for it in &mut items {
        it.replace = ctx.replace;
        let needs_quotes = it.label.starts_with(['#', '*', '"', '\'', '[', '{']) || it.label.contains(": ");
        let body = if (ctx.quoted || needs_quotes) && !list_item {
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
    if list_item {
        // In a comma-separated list, complete the entry under the cursor only.
        let start = list_entry_start(text, offset, ctx.replace);
        for it in &mut items {
            it.replace = Span::new(start, offset);
        }
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

/// Where the entry under the cursor starts in a space- or comma-separated list value whose
/// whole value spans `value`.
pub fn list_entry_start(text: &str, offset: usize, value: Span) -> usize {
    text[..offset]
        .rfind([',', ' ', '[', '\t'])
        .map_or(value.start as usize, |i| (i + 1).max(value.start as usize))
}

/// `model` values: Claude Code's aliases (when `aliases`), then the `models` the workspace uses
/// (an alias is not offered twice).
pub fn model_items(aliases: bool, models: &[String]) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    if aliases {
        out.extend(
            schema::MODEL_ALIASES
                .iter()
                .map(|(a, d)| item(a, ItemKind::Model, "model alias", Some(d.to_string()), 0)),
        );
    }
    for m in models {
        if !out.iter().any(|i| &i.label == m) {
            out.push(item(m, ItemKind::Model, "used in this workspace", None, 1));
        }
    }
    out
}

fn values(key: &str, _text: &str, _replace: Span, _offset: usize, known: &Known) -> Vec<Item> {
    let Some(field) = schema::field(key) else {
        return Vec::new();
    };
    let v = |label: &str, doc: &str, rank: u8| item(label, ItemKind::Value, key, Some(doc.to_string()), rank);
    match field.ty {
        FieldType::Enum(values) => values
            .iter()
            .map(|x| {
                let kind = if key == "color" {
                    ItemKind::Color
                } else {
                    ItemKind::Value
                };
                item(x, kind, key, None, 0)
            })
            .collect(),
        FieldType::Effort => schema::EFFORTS.iter().map(|e| v(e, "reasoning effort", 0)).collect(),
        FieldType::Bool | FieldType::LooseBool => vec![v("true", "", 0), v("false", "", 0)],
        FieldType::Model => model_items(true, &known.models),
        FieldType::List if key != "skills" => {
            let mut out: Vec<Item> = schema::TOOLS
                .iter()
                .map(|t| {
                    let removed = schema::SUBAGENT_REMOVED.contains(t);
                    let doc = if removed {
                        "Removed from subagents by Claude Code (kept only when the agent runs as the main session)"
                    } else {
                        "built-in tool"
                    };
                    item(
                        t,
                        ItemKind::Value,
                        "tool",
                        Some(doc.to_string()),
                        if removed { 3 } else { 0 },
                    )
                })
                .collect();
            for s in &known.mcp_servers {
                out.push(item(s, ItemKind::Value, "MCP server used in this workspace", None, 1));
            }
            if key == "tools" {
                for (name, desc) in schema::BUILTIN_AGENTS
                    .iter()
                    .map(|(n, d)| (n.to_string(), d.to_string()))
                    .chain(known.agents.iter().cloned())
                {
                    out.push(item(
                        &format!("Agent({name})"),
                        ItemKind::Agent,
                        "agent type",
                        Some(desc),
                        2,
                    ));
                }
            } else {
                out.push(item("mcp__*", ItemKind::Value, "every MCP tool", None, 1));
            }
            out
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str) -> Vec<String> {
        let at = text.find('|').expect("cursor");
        let t = text.replace('|', "");
        complete(&t, at, &Known::default())
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn keys_values_and_tools() {
        let keys = labels("---\nname: x\n|\n---\n");
        assert!(keys.contains(&"description".to_string()));
        assert!(!keys.contains(&"name".to_string()));
        assert_eq!(labels("---\npermissionMode: |\n---\n"), schema::PERMISSION_MODES);
        assert!(labels("---\ncolor: |\n---\n").contains(&"cyan".to_string()));
        let tools = labels("---\ntools: Read, Gr|\n---\n");
        assert!(tools.contains(&"Grep".to_string()) && tools.contains(&"Agent(Explore)".to_string()));
        // Half-typed: no closing `---` yet.
        assert!(labels("---\nname: x\nmo|").contains(&"model".to_string()));
        assert!(labels("---\nmodel: |").contains(&"sonnet".to_string()));
    }

    #[test]
    fn agent_types_inside_agent_parentheses() {
        let t = "---\ntools: Read, Agent(Explore, he\n---\n";
        let at = t.find("he\n").unwrap() + 2;
        let known = Known {
            agents: vec![("helper".into(), "Helps".into())],
            ..Known::default()
        };
        let items = complete(t, at, &known);
        let helper = items.iter().find(|i| i.label == "helper").expect("helper offered");
        assert_eq!((helper.replace.text(t), helper.insert.as_str()), ("he", "helper"));
        assert!(items.iter().all(|i| i.kind == ItemKind::Agent), "only agent types");
        // Right after `(`: the whole list, replacing nothing.
        let t = "---\ntools: Agent(\n---\n";
        let at = t.find("(\n").unwrap() + 1;
        let items = complete(t, at, &known);
        assert!(items.iter().any(|i| i.label == "Explore" && i.replace.is_empty()));
    }

    #[test]
    fn a_tool_entry_replaces_only_itself() {
        let t = "---\ntools: Read, Gr\n---\n";
        let at = t.find("Gr").unwrap() + 2;
        let items = complete(t, at, &Known::default());
        let grep = items.iter().find(|i| i.label == "Grep").unwrap();
        assert_eq!(grep.replace.text(t), "Gr");
        assert_eq!(grep.insert, "Grep");
    }
}
