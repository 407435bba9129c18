//! Completion and hover for every key of a settings file, from the same tables the checks use
//! ([`super::super::settings_schema`] and the shared [`super::super::hooks`] shapes): keys valid
//! where the cursor is (those already present left out), the values a key takes, and on hover
//! what a setting does and takes. Permission rules have their own completion and hover
//! ([`super::complete`], [`super::describe`]).

use crate::analysis::claude::hooks::{EVENTS, GUARDS, MATCHER, NO_MATCHER};
use crate::analysis::claude::settings_schema::{MANAGED_ONLY, SETTINGS, silent};
use crate::analysis::complete::{Context, Item, ItemKind, item};
use crate::analysis::shape::{self, Lit, Shape};
use crate::analysis::syntax::{Node, Parsed, Value};
use crate::analysis::text::Span;

/// Where a path (keys from the root) leads: into the settings table, or below `hooks.<event>`
/// into a matcher (with the path below the matcher).
enum Place<'p> {
    Settings(&'p [&'p str]),
    /// `hooks` itself: its keys are events.
    Events,
    Matcher(&'p str, &'p [&'p str]),
}

fn place<'p>(keys: &'p [&'p str]) -> Place<'p> {
    match keys {
        ["hooks"] => Place::Events,
        ["hooks", event, rest @ ..] => Place::Matcher(event, rest),
        _ => Place::Settings(keys),
    }
}

/// Keys and values for a settings file at `ctx` (without edits: the caller writes them).
pub fn complete(ctx: &Context) -> Vec<Item> {
    let keys: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let absent = |name: &str| !ctx.present.iter().any(|p| p == name);
    match (&ctx.value_of, place(&keys)) {
        (None, Place::Events) => EVENTS
            .iter()
            .filter(|e| absent(e))
            .map(|e| {
                let rank = u8::from(!matches!(*e, "PreToolUse" | "PostToolUse" | "Stop" | "SessionStart"));
                item(e, ItemKind::Key, "hook event", Some(event_doc(e)), rank)
            })
            .collect(),
        (None, Place::Matcher(_, rest)) => fields(&MATCHER, rest, &absent, None),
        (None, Place::Settings(path)) => fields(&SETTINGS, path, &absent, path.is_empty().then_some("setting")),
        (Some(key), Place::Matcher(_, rest)) => values(&MATCHER, rest, key),
        (Some(key), Place::Settings(path)) => values(&SETTINGS, path, key),
        (Some(_), Place::Events) => Vec::new(),
    }
}

fn fields(root: &'static Shape, path: &[&str], absent: &dyn Fn(&str) -> bool, detail: Option<&str>) -> Vec<Item> {
    shape::lookup::fields_at(root, path)
        .into_iter()
        .filter(|(_, f)| absent(f.name) && f.deprecated.is_none())
        .map(|(o, f)| {
            let doc = (!f.doc.is_empty()).then(|| f.doc.to_string());
            item(
                f.name,
                ItemKind::Key,
                detail.unwrap_or(o.what),
                doc,
                u8::from(!f.required),
            )
        })
        .collect()
}

fn values(root: &'static Shape, path: &[&str], key: &str) -> Vec<Item> {
    let mut at = path.to_vec();
    at.push(key);
    shape::lookup::values_at(root, &at)
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let (label, detail) = match v {
                Lit::Str(s) => (s.to_string(), key),
                Lit::Bool(b) => (b.to_string(), "boolean"),
            };
            item(&label, ItemKind::Value, detail, None, i as u8)
        })
        .collect()
}

fn event_doc(event: &str) -> String {
    let mut doc = "A hook event: a list of `{\"matcher\": ..., \"hooks\": [...]}`.".to_string();
    if GUARDS.contains(&event) {
        doc.push_str(" A broken entry here voids the whole file it sits in (its permission rules too).");
    }
    if NO_MATCHER.contains(&event) {
        doc.push_str(" Takes no matcher: its hooks run every time.");
    }
    doc
}

/// The keys from the root to what holds `offset`, arrays looked through, and the span hovered
/// (the key, or the value when the offset is in it and it is not a container).
fn keys_at(root: &Node, offset: usize) -> (Vec<&str>, Option<Span>) {
    let mut keys = Vec::new();
    let mut node = root;
    loop {
        match &node.value {
            Value::Map(map) => {
                let Some(e) = map.entries.iter().rev().find(|e| {
                    e.key.span.contains(offset) || (e.value.span.contains(offset) && !e.value.span.is_empty())
                }) else {
                    return (keys, None);
                };
                keys.push(e.key.name.as_str());
                if e.key.span.contains(offset) {
                    return (keys, Some(e.key.span));
                }
                node = &e.value;
            }
            Value::Seq(items) => match items.iter().find(|i| i.span.contains(offset)) {
                Some(i) => node = i,
                None => return (keys, None),
            },
            _ => return (keys, Some(node.span)),
        }
    }
}

/// The hover text at `offset` of a settings file and the span it is about: what the setting,
/// hook event or hook field under the cursor does and takes.
pub fn hover(parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let (keys, span) = keys_at(root, offset);
    let span = span?;
    let md = match place(&keys) {
        Place::Events | Place::Settings([]) => return None,
        Place::Matcher(event, []) => {
            if !EVENTS.contains(&event) {
                return None;
            }
            format!("**`{event}`** (hook event)\n\n{}\n", event_doc(event))
        }
        Place::Matcher(_, rest) => describe(&MATCHER, rest, None)?,
        Place::Settings(path) => describe(&SETTINGS, path, Some(path))?,
    };
    Some((md, span))
}

fn describe(root: &'static Shape, path: &[&str], settings: Option<&[&str]>) -> Option<String> {
    let found = shape::lookup::field_at(root, path);
    let (_, f) = found.first()?;
    let owners: Vec<String> = found.iter().map(|(o, _)| o.what.to_string()).collect();
    let mut md = format!("**`{}`** ({})\n\n", f.name, shape::either(owners));
    if !f.doc.is_empty() {
        md.push_str(f.doc);
        md.push_str("\n\n");
    }
    md.push_str(&format!("Value: {}.", shape::describe(&f.shape)));
    if let Some(path) = settings {
        let keys: Vec<String> = path.iter().map(|k| k.to_string()).collect();
        if MANAGED_ONLY.contains(path.first().unwrap_or(&"")) {
            md.push_str(" Read from managed settings only: in this file Claude Code ignores it.");
        } else if silent(&keys) {
            md.push_str(" A value Claude Code cannot read is dropped without a word; the rest of the file applies.");
        } else if !matches!(path.first(), Some(&"hooks" | &"env")) {
            md.push_str(" A value Claude Code cannot read voids the whole file (its permission rules too).");
        }
    }
    if let Some(instead) = f.deprecated {
        md.push_str(&format!("\n\nDeprecated: use `{instead}`."));
    }
    md.push('\n');
    Some(md)
}
