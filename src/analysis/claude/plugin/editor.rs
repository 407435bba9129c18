//! Editor support: completion and hover in the manifests.

use super::model::Manifest;
use super::table::{ENTRY_FIELDS, Field, MARKETPLACE_FIELDS, PLUGIN_FIELDS, SOURCE_KINDS, USER_CONFIG_TYPES};
use crate::analysis::complete::{Item, ItemKind, item, json_context};
use crate::analysis::syntax::{Parsed, Value, path_at};
use crate::analysis::text::Span;

/// The field table of the object at `path` (keys from the root), if it is a known one.
fn table_at(kind: Manifest, path: &[String]) -> Option<&'static [Field]> {
    match (kind, path) {
        (Manifest::Plugin, []) => Some(PLUGIN_FIELDS),
        (Manifest::Marketplace, []) => Some(MARKETPLACE_FIELDS),
        (Manifest::Marketplace, [p]) if p == "plugins" => Some(ENTRY_FIELDS),
        _ => None,
    }
}

/// Completion in a manifest: field names (without those present) and values of enum-like fields.
pub fn complete(kind: Manifest, text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    let quote = |s: &str| format!("\"{s}\"");
    let mut items: Vec<Item> = match &ctx.value_of {
        None => {
            // The nested objects (`author`, `owner`, `metadata`, `experimental`) have no table:
            // their keys are the `extra` ones below.
            let table: &[Field] = table_at(kind, &ctx.path).unwrap_or(&[]);
            let mut out: Vec<Item> = table
                .iter()
                .filter(|f| !ctx.present.iter().any(|p| p == f.name))
                .map(|f| {
                    let rank = match f.name {
                        "name" | "version" | "description" | "author" | "source" | "owner" | "plugins" => 0,
                        _ => 1,
                    };
                    item(
                        f.name,
                        ItemKind::Key,
                        "Claude Code manifest field",
                        Some(f.doc.into()),
                        rank,
                    )
                })
                .collect();
            let extra: &[(&str, &str)] = match (kind, ctx.path.as_slice()) {
                (_, [p]) if p == "author" || p == "owner" => &[
                    ("name", "Name (required)."),
                    ("email", "E-mail address."),
                    ("url", "Web page."),
                ],
                (Manifest::Marketplace, [p]) if p == "metadata" => &[
                    ("description", "What the marketplace offers."),
                    ("version", "The marketplace's version."),
                    ("pluginRoot", "Prepended to relative plugin sources."),
                ],
                (Manifest::Plugin, [p]) if p == "experimental" => &[
                    ("monitors", "Monitor files or folders (`./` paths)."),
                    ("themes", "Theme files or folders (`./` paths)."),
                ],
                _ => &[],
            };
            out.extend(
                extra
                    .iter()
                    .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
                    .map(|(k, d)| item(k, ItemKind::Key, "Claude Code manifest field", Some((*d).into()), 0)),
            );
            for it in &mut out {
                it.insert = format!("{}: ", quote(&it.label));
            }
            out
        }
        Some(key) => {
            let values: Vec<(&str, &str)> = match (kind, ctx.path.as_slice(), key.as_str()) {
                (_, _, "defaultEnabled" | "strict") => vec![("true", ""), ("false", "")],
                (_, [p], "source") if p == "plugins" => SOURCE_KINDS
                    .iter()
                    .map(|(k, _)| (*k, "source type"))
                    .chain([("./plugins/", "a folder of this repository")])
                    .collect(),
                (_, [p, ..], "source") if p == "plugins" => {
                    SOURCE_KINDS.iter().map(|(k, _)| (*k, "source type")).collect()
                }
                (Manifest::Plugin, [], "agents") => vec![("./agents/", "an agent file (`.md`)")],
                (Manifest::Plugin, [], "commands") => vec![("./commands/", "a command folder or file")],
                (Manifest::Plugin, [], "skills") => vec![("./skills/", "a folder of skill folders")],
                (Manifest::Plugin, [], "hooks") => vec![("./hooks/hooks.json", "a hooks file")],
                (Manifest::Plugin, [], "mcpServers") => vec![("./.mcp.json", "an MCP servers file")],
                (Manifest::Plugin, [], "license") => {
                    vec![
                        ("MIT", ""),
                        ("Apache-2.0", ""),
                        ("BSD-3-Clause", ""),
                        ("GPL-3.0-only", ""),
                    ]
                }
                (Manifest::Plugin, [p], "type") if p == "userConfig" => {
                    USER_CONFIG_TYPES.iter().map(|t| (*t, "option type")).collect()
                }
                _ => Vec::new(),
            };
            values
                .into_iter()
                .map(|(v, d)| {
                    let mut it = item(v, ItemKind::Value, d, None, 0);
                    it.insert = if matches!(v, "true" | "false") {
                        v.to_string()
                    } else {
                        quote(v)
                    };
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

/// Hover on a field name of a manifest: its documentation, and the span of the key.
pub fn hover(kind: Manifest, parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let steps = path_at(root, offset);
    let first = steps.first()?;
    let (table, what, step) = match kind {
        Manifest::Plugin if steps.len() == 1 && first.on_key => (PLUGIN_FIELDS, "`plugin.json` field", first),
        Manifest::Marketplace if steps.len() == 1 && first.on_key => {
            (MARKETPLACE_FIELDS, "`marketplace.json` field", first)
        }
        Manifest::Marketplace if first.key.name == "plugins" && !first.on_key => {
            // A plugin entry (an item of the list): its own fields.
            let Value::Seq(items) = &first.value.value else {
                return None;
            };
            let item = items.iter().find(|i| i.span.contains(offset))?;
            let inner = path_at(item, offset);
            let key = inner.first().filter(|s| inner.len() == 1 && s.on_key)?;
            let f = ENTRY_FIELDS.iter().find(|f| f.name == key.key.name)?;
            return Some((
                format!("**`{}`** (marketplace plugin entry field)\n\n{}\n", f.name, f.doc),
                key.key.span,
            ));
        }
        _ => return None,
    };
    let f = table.iter().find(|f| f.name == step.key.name)?;
    Some((format!("**`{}`** ({what})\n\n{}\n", f.name, f.doc), step.key.span))
}
