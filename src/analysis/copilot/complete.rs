//! Completion in a Copilot file's frontmatter (the keys of its kind, those not yet written;
//! `target`, `excludeAgent` and boolean values; tool sets, their tools and the workspace's MCP
//! servers in `tools`; models; agents in `agent`, `agents` and a handoff's `agent`) and in
//! `.vscode/mcp.json` (its keys and server types).

use super::FileKind;
use super::mcp;
use super::schema::{self, Kind};
use crate::analysis::complete::{Context, Item, ItemKind, item, json_context, yaml_context_in};
use crate::analysis::syntax::frontmatter;
use crate::analysis::text::Span;

/// What the workspace knows: the custom agents (name, description) and MCP server names.
#[derive(Clone, Debug, Default)]
pub struct Known {
    pub agents: Vec<(String, String)>,
    pub mcp_servers: Vec<String>,
}

pub fn complete(kind: &FileKind, text: &str, offset: usize, known: &Known) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    if kind.is_json() {
        return complete_mcp(text, offset);
    }
    let Some(header) = kind.header() else {
        return Vec::new();
    };
    let split = frontmatter::split(text);
    let Some(ctx) = split
        .frontmatter
        .and_then(|fm| yaml_context_in(text, offset, fm.yaml, fm.close))
    else {
        return Vec::new();
    };
    let path: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let mut items = match (&ctx.value_of, path.as_slice()) {
        (None, []) => keys(
            &ctx,
            schema::keys(header).iter().map(|k| (k.name, k.doc)),
            header.noun(),
        ),
        // Inside a handoff (`handoffs: - label: ...`).
        (None, ["handoffs", ..]) => keys(&ctx, schema::HANDOFF_KEYS.iter().copied(), "handoff"),
        (Some(key), ["handoffs", ..]) if key == "agent" => agents(known, key),
        (Some(key), ["handoffs", ..]) if key == "send" => booleans(key),
        (Some(key), ["handoffs", ..]) if key == "model" => models(key),
        (Some(key), []) => values(header, key, known),
        _ => Vec::new(),
    };
    for it in &mut items {
        it.replace = ctx.replace;
        let needs_quotes = ctx.quoted || it.label.starts_with(['*', '&', '!', '#', '@', '`']);
        let body = if needs_quotes && !ctx.quoted {
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
    // A flow list (`tools: [edit, se`): only the entry under the cursor is replaced.
    if matches!(ctx.value_of.as_deref(), Some("tools" | "agents" | "model")) {
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let start = text[line_start..offset]
            .rfind(['[', ',', ' ', '\t', '\'', '"'])
            .map_or(ctx.replace.start as usize, |i| line_start + i + 1)
            .max(ctx.replace.start as usize);
        for it in &mut items {
            it.replace = Span::new(start, offset);
            it.insert = it.label.clone();
        }
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

fn keys<'a>(ctx: &Context, all: impl Iterator<Item = (&'a str, &'a str)>, detail: &str) -> Vec<Item> {
    all.filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
        .filter(|(k, _)| !matches!(*k, "user-invokable" | "infer" | "mode"))
        .map(|(k, d)| item(k, ItemKind::Key, detail, Some(d.to_string()), 0))
        .collect()
}

fn booleans(key: &str) -> Vec<Item> {
    ["true", "false"]
        .iter()
        .map(|b| item(b, ItemKind::Value, key, None, 0))
        .collect()
}

fn models(key: &str) -> Vec<Item> {
    schema::MODELS
        .iter()
        .map(|m| item(m, ItemKind::Value, key, None, 0))
        .collect()
}

fn agents(known: &Known, key: &str) -> Vec<Item> {
    let mut out: Vec<Item> = known
        .agents
        .iter()
        .map(|(n, d)| item(n, ItemKind::Agent, "custom agent", Some(d.clone()), 0))
        .collect();
    for (n, d) in schema::BUILTIN_AGENTS {
        if !out.iter().any(|i| i.label == *n) {
            out.push(item(n, ItemKind::Agent, "built-in agent", Some(d.to_string()), 1));
        }
    }
    let _ = key;
    out
}

fn values(header: Kind, key: &str, known: &Known) -> Vec<Item> {
    match key {
        "target" => schema::TARGETS
            .iter()
            .map(|(v, d)| item(v, ItemKind::Value, key, Some(d.to_string()), 0))
            .collect(),
        "excludeAgent" => schema::EXCLUDE_AGENTS
            .iter()
            .map(|(v, d)| item(v, ItemKind::Value, key, Some(d.to_string()), 0))
            .collect(),
        "user-invocable" | "disable-model-invocation" => booleans(key),
        "model" => models(key),
        "agent" if header == Kind::Prompt => agents(known, key),
        "agents" => {
            let mut out: Vec<Item> = known
                .agents
                .iter()
                .map(|(n, d)| item(n, ItemKind::Agent, "custom agent", Some(d.clone()), 0))
                .collect();
            out.push(item("*", ItemKind::Value, key, Some("Every custom agent.".into()), 1));
            out
        }
        "tools" => {
            let mut out: Vec<Item> = schema::TOOL_SETS
                .iter()
                .map(|s| item(s.name, ItemKind::Value, "tool set", Some(s.doc.to_string()), 0))
                .collect();
            out.extend(
                known
                    .mcp_servers
                    .iter()
                    .map(|s| item(&format!("{s}/*"), ItemKind::Value, "MCP server", None, 1)),
            );
            out.extend(
                schema::qualified_tool_names()
                    .iter()
                    .map(|t| item(t, ItemKind::Value, "tool", None, 2)),
            );
            out
        }
        _ => Vec::new(),
    }
}

fn complete_mcp(text: &str, offset: usize) -> Vec<Item> {
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    let path: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let mut items: Vec<Item> = match (&ctx.value_of, path.as_slice()) {
        (None, []) => mcp::TOP_KEYS
            .iter()
            .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
            .map(|(k, d)| item(k, ItemKind::Key, "mcp.json", Some(d.to_string()), 0))
            .collect(),
        (None, ["servers", _]) => {
            let remote = ctx.present.iter().any(|p| p == "url");
            let keys = if remote { mcp::REMOTE_KEYS } else { mcp::STDIO_KEYS };
            keys.iter()
                .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
                .map(|(k, d)| item(k, ItemKind::Key, "MCP server", Some(d.to_string()), 0))
                .collect()
        }
        (Some(key), ["servers", _]) if key == "type" => mcp::TYPES
            .iter()
            .map(|(k, d)| item(k, ItemKind::Value, "type", Some(d.to_string()), 0))
            .collect(),
        _ => Vec::new(),
    };
    for it in &mut items {
        it.replace = ctx.replace;
        let body = format!("\"{}\"", it.label);
        it.insert = if ctx.value_of.is_none() {
            format!("{body}: ")
        } else {
            body
        };
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The items at the cursor `|` of `text`, with `agents` the workspace's custom agents.
    fn items(text: &str, agents: &[&str]) -> Vec<Item> {
        let kind = FileKind::Agent {
            name: "p".into(),
            form: super::super::AgentForm::AgentMd,
        };
        let known = Known {
            agents: agents.iter().map(|a| (a.to_string(), format!("{a} agent"))).collect(),
            mcp_servers: vec![],
        };
        let at = text.find('|').expect("a cursor");
        let text = text.replace('|', "");
        complete(&kind, &text, at, &known)
    }

    fn labels(text: &str) -> Vec<String> {
        items(text, &["implementer"]).into_iter().map(|i| i.label).collect()
    }

    /// (label, insert) of each item, with `@ops` a custom agent beside `implementer`.
    fn inserts(text: &str) -> Vec<(String, String)> {
        items(text, &["implementer", "@ops"])
            .into_iter()
            .map(|i| (i.label, i.insert))
            .collect()
    }

    #[test]
    fn a_handoffs_agent_and_send_complete_empty_partly_typed_or_quoted() {
        let agents = ["implementer", "agent", "ask", "edit", "plan"];
        for text in [
            "---\nname: p\nhandoffs:\n  - label: Go\n    agent: |\n---\n",
            "---\nname: p\nhandoffs:\n  - label: Go\n    agent: imp|\n---\n",
            "---\nname: p\nhandoffs:\n  - label: Go\n    agent: \"|\"\n---\n",
            // A list not indented under its key, and the agent the first key of its item.
            "---\nname: p\nhandoffs:\n- label: Go\n  agent: |\n---\n",
            "---\nname: p\nhandoffs:\n  - agent: |\n---\n",
        ] {
            assert_eq!(labels(text), agents, "{text}");
        }
        assert_eq!(
            labels("---\nname: p\nhandoffs:\n  - label: Go\n    send: |\n---\n"),
            ["false", "true"]
        );
    }

    #[test]
    fn a_label_yaml_would_misread_is_quoted_unless_the_cursor_is_in_quotes() {
        let keys = inserts("---\nname: p\n|\n---\n");
        assert!(
            keys.contains(&("description".into(), "description: ".into())),
            "{keys:?}"
        );
        let bare = inserts("---\nname: p\nhandoffs:\n  - label: Go\n    agent: |\n---\n");
        assert!(bare.contains(&("implementer".into(), "implementer".into())), "{bare:?}");
        assert!(bare.contains(&("@ops".into(), "\"@ops\"".into())), "{bare:?}");
        let quoted = inserts("---\nname: p\nhandoffs:\n  - label: Go\n    agent: \"|\"\n---\n");
        assert!(quoted.contains(&("@ops".into(), "@ops".into())), "{quoted:?}");
        assert!(
            quoted.contains(&("implementer".into(), "implementer".into())),
            "{quoted:?}"
        );
    }

    #[test]
    fn a_handoffs_keys_are_those_its_own_item_lacks() {
        let keys =
            labels("---\nname: p\nhandoffs:\n  - label: A\n    agent: x\n  - label: B\n    |\n  - prompt: C\n---\n");
        assert!(keys.contains(&"agent".to_string()), "{keys:?}");
        assert!(keys.contains(&"prompt".to_string()), "{keys:?}");
        assert!(!keys.contains(&"label".to_string()), "{keys:?}");
    }
}
