//! Completion and hover in `.mcp.json`, from [`super::schema`].

use super::schema::{self, FILE, INTERNAL, TRANSPORTS};
use crate::analysis::complete::{Item, ItemKind, item, json_context};
use crate::analysis::shape::{self, Lit, Object, Shape};
use crate::analysis::syntax::{Node, Parsed, path_at};
use crate::analysis::text::Span;

/// Which transports have a field of a server: "every server", "stdio server", "sse, http and
/// ws servers".
fn transports_of(name: &str) -> String {
    let with: Vec<&str> = TRANSPORTS
        .iter()
        .filter(|(t, s)| *t != "streamable-http" && matches!(s, Shape::Object(o) if o.field(name).is_some()))
        .map(|(t, _)| *t)
        .collect();
    match with.len() {
        4 => "every MCP server".into(),
        1 => format!("{} server", with[0]),
        _ => format!(
            "{} servers",
            shape::either(with.iter().map(|t| t.to_string()).collect())
        ),
    }
}

/// Completion at byte `offset`: the keys of the object at the cursor not yet written (a
/// server's fields, required ones first; the OAuth settings; a tool's settings), or the values
/// of the key being written (`type`, booleans, permissions).
pub fn complete(text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    let path: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let in_server = path.len() == 2 && path[0] == "mcpServers";
    // In a server whose `type` is written: that transport's fields only.
    let transport = if in_server {
        let parsed = crate::analysis::syntax::jsonc::parse(text);
        let ty = parsed
            .root
            .as_ref()
            .and_then(Node::as_map)
            .and_then(|m| m.value("mcpServers"))
            .and_then(Node::as_map)
            .and_then(|m| m.value(path[1]))
            .and_then(Node::as_map)
            .and_then(|m| m.value("type"))
            .and_then(Node::as_str)
            .map(str::to_string);
        ty.and_then(|t| match schema::transport(Some(&t)) {
            Some(Shape::Object(o)) => Some(*o),
            _ => None,
        })
    } else {
        None
    };
    let mut items: Vec<Item> = match &ctx.value_of {
        None => shape::lookup::fields_at(&FILE, &path)
            .into_iter()
            .filter(|(_, f)| !ctx.present.iter().any(|p| p == f.name))
            .filter(|(_, f)| !(in_server && INTERNAL.contains(&f.name)))
            .filter(|(_, f)| transport.is_none_or(|o: &Object| o.field(f.name).is_some()))
            .map(|(o, f)| {
                let (detail, rank) = if in_server {
                    let rank = match f.name {
                        "type" | "command" | "url" => 0,
                        "args" | "env" | "headers" => 1,
                        _ => 2,
                    };
                    (transports_of(f.name), rank)
                } else {
                    (o.what.to_string(), u8::from(!f.required))
                };
                let mut it = item(f.name, ItemKind::Key, &detail, Some(f.doc.to_string()), rank);
                it.insert = format!("\"{}\": ", f.name);
                it
            })
            .collect(),
        Some(key) => {
            let mut at = path.clone();
            at.push(key);
            shape::lookup::values_at(&FILE, &at)
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let (label, insert, detail) = match v {
                        Lit::Str(s) => (s.to_string(), format!("\"{s}\""), key.as_str()),
                        Lit::Bool(b) => (b.to_string(), b.to_string(), "boolean"),
                    };
                    let mut it = item(&label, ItemKind::Value, detail, None, i as u8);
                    it.insert = insert;
                    it
                })
                .collect()
        }
    };
    for it in &mut items {
        it.replace = ctx.replace;
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

/// The hover text at `offset` and the span it is about: on `mcpServers`, what the file holds; on
/// a server's name, what Claude Code runs and how its tools are named; on a key or value inside
/// a server, what the field does and takes (for the server's transport).
pub fn hover(parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let steps = path_at(root, offset);
    let last = steps.last()?;
    let keys: Vec<&str> = steps.iter().map(|s| s.key.name.as_str()).collect();
    let span = if last.on_key { last.key.span } else { last.value.span };
    if keys.len() == 2 && keys[0] == "mcpServers" && last.on_key {
        return Some((server_card(keys[1], last.value), span));
    }
    // Inside a server: its transport's field, when its `type` says which.
    if keys.len() >= 3 && keys[0] == "mcpServers" {
        let server = steps[1].value;
        let ty = server.as_map().and_then(|m| m.value("type")).and_then(Node::as_str);
        if let Some(Shape::Object(o)) = schema::transport(ty)
            && let Some(md) = field_doc(o, &keys[2..])
        {
            return Some((md, span));
        }
    }
    let found = shape::lookup::field_at(&FILE, &keys);
    let (owner, f) = found.first()?;
    let what = if keys.len() == 3 && keys[0] == "mcpServers" {
        transports_of(f.name)
    } else {
        owner.what.to_string()
    };
    Some((doc(f.name, &what, f.doc, &f.shape, f.required), span))
}

/// The documentation of the field at `path` below a server of this transport.
fn field_doc(server: &'static Object, path: &[&str]) -> Option<String> {
    let (first, rest) = path.split_first()?;
    let f = server.field(first)?;
    if rest.is_empty() {
        return Some(doc(f.name, server.what, f.doc, &f.shape, f.required));
    }
    let found = shape::lookup::field_at(&f.shape, rest);
    let (owner, g) = found.first()?;
    // Deeper in a record (`env`, `headers`): the record's field.
    Some(doc(g.name, owner.what, g.doc, &g.shape, g.required))
}

fn doc(name: &str, what: &str, text: &str, shape: &Shape, required: bool) -> String {
    let mut md = format!("**`{name}`** ({what})\n\n{text}\n\nValue: {}.", shape::describe(shape));
    if required {
        md.push_str(" Required: without it Claude Code skips the server.");
    }
    md.push('\n');
    md
}

/// What Claude Code does with the server `name` written as `value`.
fn server_card(name: &str, value: &Node) -> String {
    let map = value.as_map();
    let get = |k: &str| map.and_then(|m| m.value(k));
    let ty = get("type").and_then(Node::as_str);
    let mut md = format!("**`{name}`** (MCP server of this project)\n\n");
    match (schema::transport(ty), ty) {
        (Some(_), None | Some("stdio")) => {
            let mut line: Vec<String> = get("command")
                .and_then(Node::as_str)
                .map(str::to_string)
                .into_iter()
                .collect();
            if let Some(args) = get("args").and_then(|a| match &a.value {
                crate::analysis::syntax::Value::Seq(items) => Some(items),
                _ => None,
            }) {
                line.extend(args.iter().filter_map(Node::as_str).map(str::to_string));
            }
            md.push_str(&format!(
                "A local server: Claude Code runs `{}` and talks to it over stdin and stdout.\n",
                line.join(" ")
            ));
        }
        (Some(_), Some(t)) => {
            let url = get("url").and_then(Node::as_str).unwrap_or("?");
            md.push_str(&format!("A remote server ({t}) at `{url}`.\n"));
        }
        (None, _) => {}
    }
    md.push_str(&format!(
        "\nIts tools are named `mcp__{}__<tool>` (in `tools`, `allowed-tools` and permission rules). Claude Code asks each user to approve the servers of `.mcp.json` before it starts them (`enabledMcpjsonServers`, `disabledMcpjsonServers` and `enableAllProjectMcpServers` in the settings).\n",
        schema::tool_prefix(name)
    ));
    md
}

#[cfg(test)]
mod tests;
