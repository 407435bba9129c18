//! Completion and hover in `settings.json`, from the schema that checks it
//! ([`super::settings_schema`]): the settings a section takes, with their documentation and
//! defaults; the values a setting takes; on a key, what it does and takes.

use super::settings_schema::SETTINGS;
use crate::analysis::complete::{Item, ItemKind, item, json_context};
use crate::analysis::shape::{self, Lit, Shape};
use crate::analysis::syntax::{Parsed, path_at};
use crate::analysis::text::Span;

/// Completion at byte `offset`: the settings of the section at the cursor not yet written, or
/// the values of the setting being written.
pub fn complete(text: &str, offset: usize) -> Vec<Item> {
    complete_in(&SETTINGS, text, offset)
}

/// Completion at byte `offset` in a JSON file of `schema` (settings, an extension's manifest).
pub fn complete_in(schema: &'static Shape, text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    let path: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let mut items: Vec<Item> = match &ctx.value_of {
        None => shape::lookup::fields_at(schema, &path)
            .into_iter()
            .filter(|(_, f)| !ctx.present.iter().any(|p| p == f.name))
            .map(|(o, f)| {
                let mut it = item(
                    f.name,
                    ItemKind::Key,
                    o.what,
                    Some(f.doc.to_string()),
                    u8::from(!f.required),
                );
                it.insert = format!("\"{}\": ", f.name);
                it
            })
            .collect(),
        Some(key) => {
            let mut at = path.clone();
            at.push(key);
            let mut values = shape::lookup::values_at(schema, &at);
            values.dedup();
            values
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

/// The hover text at `offset` and the span it is about: on a setting's key or value, what it
/// does and takes; on a flat (v1) key, where it lives now.
pub fn hover(parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    hover_in(&SETTINGS, parsed, offset)
}

/// The hover at `offset` in a JSON file of `schema`.
pub fn hover_in(schema: &'static Shape, parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let steps = path_at(root, offset);
    let last = steps.last()?;
    let keys: Vec<&str> = steps.iter().map(|s| s.key.name.as_str()).collect();
    let span = if last.on_key { last.key.span } else { last.value.span };
    let found = shape::lookup::field_at(schema, &keys);
    let Some((owner, f)) = found.first() else {
        if std::ptr::eq(schema, &SETTINGS)
            && let [key] = keys.as_slice()
            && let Some(to) = super::v1::moved(key)
        {
            return Some((
                format!(
                    "**`{key}`**: the old flat form of `{to}`. Gemini CLI reads only the nested form and ignores this key.\n"
                ),
                span,
            ));
        }
        return None;
    };
    let dotted = keys.join(".");
    let mut md = format!("**`{dotted}`** ({})\n\n", owner.what);
    if !f.doc.is_empty() {
        md.push_str(f.doc);
        md.push_str("\n\n");
    }
    md.push_str(&format!("Value: {}.", value_words(&f.shape)));
    if f.required {
        md.push_str(" Required.");
    }
    md.push('\n');
    Some((md, span))
}

/// Completion in an agent's frontmatter: the fields not yet written, the values of `kind`, the
/// tools of `tools`.
pub fn complete_agent(text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let split = crate::analysis::syntax::frontmatter::split(text);
    let Some(fm) = split.frontmatter else {
        return Vec::new();
    };
    if offset < fm.yaml.start as usize || fm.close.is_some_and(|c| offset > c.start as usize) {
        return Vec::new();
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..offset];
    // The frontmatter above this line (none when the line is the opening one).
    let above = text.get(fm.yaml.start as usize..line_start).unwrap_or("");
    let object = &super::agent::LOCAL;
    // A value: after `key:` on this line, or a list item under `tools:`.
    let key_of_line = line.split_once(':').map(|(k, _)| k.trim());
    let in_tools_list = line.trim_start().starts_with('-')
        && above
            .lines()
            .rev()
            .find(|l| !l.trim_start().starts_with('-') && !l.trim().is_empty())
            .is_some_and(|l| l.trim_end().trim_end_matches(':') == "tools");
    let typed_start = line
        .rfind(|c: char| c.is_whitespace() || matches!(c, '[' | ',' | ':' | '-'))
        .map_or(line_start, |i| line_start + i + 1);
    let replace = Span::new(typed_start, offset);
    let mut items: Vec<Item> = if in_tools_list || key_of_line == Some("tools") {
        super::tool_names::BUILT_IN
            .iter()
            .map(|t| item(t, ItemKind::Value, "Gemini CLI tool", None, 0))
            .chain(["*", "mcp_*"].map(|t| item(t, ItemKind::Value, "every tool of its kind", None, 1)))
            .collect()
    } else if let Some(key) = key_of_line {
        match key {
            "kind" => ["local", "remote"]
                .iter()
                .map(|v| item(v, ItemKind::Value, "kind", None, 0))
                .collect(),
            _ => Vec::new(),
        }
    } else {
        let written: Vec<&str> = above
            .lines()
            .filter_map(|l| l.split_once(':').map(|(k, _)| k.trim()))
            .collect();
        object
            .fields
            .iter()
            .filter(|f| !written.contains(&f.name))
            .map(|f| {
                let mut it = item(
                    f.name,
                    ItemKind::Key,
                    object.what,
                    Some(f.doc.to_string()),
                    u8::from(!f.required),
                );
                it.insert = format!("{}: ", f.name);
                it
            })
            .collect()
    };
    for it in &mut items {
        it.replace = replace;
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

/// The hover on a field of an agent's frontmatter: what it does and takes.
pub fn hover_agent(parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let steps = path_at(root, offset);
    let first = steps.first()?;
    let f = super::agent::LOCAL
        .field(&first.key.name)
        .or_else(|| super::agent::REMOTE_URL.field(&first.key.name))
        .or_else(|| super::agent::REMOTE_JSON.field(&first.key.name))?;
    let span = if first.on_key { first.key.span } else { first.value.span };
    let mut md = format!(
        "**`{}`** (a Gemini CLI agent)\n\n{}\n\nValue: {}.",
        f.name,
        f.doc,
        shape::describe(&f.shape)
    );
    if f.required {
        md.push_str(" Required: without it Gemini CLI does not load the agent.");
    }
    md.push('\n');
    Some((md, span))
}

/// Completion in a command file: its two keys, on a line of their own.
pub fn complete_command(text: &str, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let typed = &text[line_start..offset];
    if typed.contains('=') || !typed.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Vec::new();
    }
    super::command::COMMAND
        .fields
        .iter()
        .filter(|f| {
            !text
                .lines()
                .any(|l| l.split('=').next().is_some_and(|k| k.trim() == f.name))
        })
        .map(|f| {
            let mut it = item(
                f.name,
                ItemKind::Key,
                "Gemini CLI command",
                Some(f.doc.to_string()),
                u8::from(!f.required),
            );
            it.insert = format!("{} = ", f.name);
            it.replace = Span::new(line_start, offset);
            it
        })
        .collect()
}

/// The hover in a command file: on a key, what it does; on the first line, the command the
/// path names.
pub fn hover_command(path: &std::path::Path, parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let steps = path_at(root, offset);
    let first = steps.first()?;
    let f = super::command::COMMAND.field(&first.key.name)?;
    let span = if first.on_key { first.key.span } else { first.value.span };
    let rel = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .skip_while(|c| c != "commands")
        .skip(1)
        .collect::<Vec<_>>()
        .join("/");
    let name = super::command::name_of(&rel);
    Some((
        format!("**`{}`** (Gemini CLI command `/{name}`)\n\n{}\n", f.name, f.doc),
        span,
    ))
}

/// The hover on a `GEMINI.md`'s first line: what Gemini CLI does with it.
pub fn hover_context(text: &str, offset: usize) -> Option<(String, Span)> {
    let first = crate::analysis::text::first_line(text);
    if offset > first.end as usize {
        return None;
    }
    Some((
        "**`GEMINI.md`**: instructions for the model\n\n- **Gemini CLI** reads it when it starts here or in a folder below: the user's `~/.gemini/GEMINI.md`, then each `GEMINI.md` from the project's root (the nearest folder with `.git`) down to where it starts (one in a folder below that is not read at start); `context.fileName` in the settings adds names to it (`GEMINI.md` is still read). `@path` imports a file in place (relative to this one, inside the project; not in code).\n".to_string(),
        first,
    ))
}

/// What a setting takes, in the words a user reads: `true` or `false` (also as a string), ...
fn value_words(shape: &Shape) -> String {
    match shape {
        Shape::Union([Shape::Bool, Shape::Pattern(..)]) => "true or false".into(),
        Shape::Union([Shape::Num(_), Shape::Pattern(..)]) => "a number".into(),
        other => shape::describe(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::jsonc;

    fn labels(text: &str) -> Vec<String> {
        let at = text.find('|').unwrap();
        let text = text.replacen('|', "", 1);
        complete(&text, at).into_iter().map(|i| i.label).collect()
    }

    #[test]
    fn completion_offers_the_settings_of_a_section_and_the_values_of_a_setting() {
        let top = labels("{ | }");
        assert!(
            top.contains(&"general".to_string()) && top.contains(&"mcpServers".to_string()),
            "{top:?}"
        );
        let general = labels("{ \"general\": { \"vimMode\": true, | } }");
        assert!(general.contains(&"preferredEditor".to_string()), "{general:?}");
        assert!(
            !general.contains(&"vimMode".to_string()),
            "written already: {general:?}"
        );
        let editor = labels("{ \"general\": { \"preferredEditor\": | } }");
        assert!(editor.contains(&"neovim".to_string()), "{editor:?}");
        let flag = labels("{ \"general\": { \"vimMode\": | } }");
        assert_eq!(flag, vec!["true", "false"]);
        let server = labels("{ \"mcpServers\": { \"docs\": { | } } }");
        assert!(
            server.contains(&"command".to_string()) && server.contains(&"httpUrl".to_string()),
            "{server:?}"
        );
    }

    #[test]
    fn agent_completion_offers_fields_tools_and_kinds_and_never_panics() {
        let at = |text: &str| {
            let at = text.find('|').unwrap();
            let text = text.replacen('|', "", 1);
            complete_agent(&text, at)
                .into_iter()
                .map(|i| i.label)
                .collect::<Vec<_>>()
        };
        let fields = at("---\nname: a\n|\n---\n");
        assert!(
            fields.contains(&"description".to_string()) && !fields.contains(&"name".to_string()),
            "{fields:?}"
        );
        assert!(at("---\ntools: [|]\n---\n").contains(&"read_file".to_string()));
        assert!(at("---\ntools:\n  - |\n---\n").contains(&"grep_search".to_string()));
        assert_eq!(at("---\nkind: |\n---\n"), vec!["local", "remote"]);
        assert!(at("body|").is_empty());
        // Every prefix of a file, every offset: no panic.
        let text = "---\nname: a\ntools:\n  - read_file\n---\nbody é\n";
        for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
            for at in 0..=end + 1 {
                let _ = complete_agent(&text[..end], at);
                let _ = complete_command(&text[..end], at);
            }
        }
    }

    #[test]
    fn hover_documents_a_setting_and_an_old_flat_key() {
        let text = "{ \"general\": { \"vimMode\": true }, \"contextFileName\": \"A.md\" }";
        let parsed = jsonc::parse(text);
        let (md, span) = hover(&parsed, text.find("vimMode").unwrap()).unwrap();
        assert!(
            md.starts_with("**`general.vimMode`**") && md.contains("Value: true or false."),
            "{md}"
        );
        assert_eq!(span.text(text), "\"vimMode\"");
        let (md, _) = hover(&parsed, text.find("contextFileName").unwrap()).unwrap();
        assert!(md.contains("old flat form of `context.fileName`"), "{md}");
        assert!(hover(&parsed, 0).is_none());
    }
}
