//! `tui.json` / `tui.jsonc`: the settings of opencode's terminal interface, read as opencode
//! 1.18.34 reads them ([`tui_schema::TUI`] through [`shape::decode`]):
//!
//! - the legacy `tui` wrapper is taken apart first, as opencode does (`{...tui, ...rest}`: its
//!   keys count as top-level ones, and a key also written at the top level keeps the top-level
//!   value); a `tui` that is not an object is deleted (`deprecated-field`, `duplicate-key`,
//!   `invalid-type`);
//! - a value opencode refuses is an error on that value with opencode's path: opencode skips the
//!   whole file, logging only "skipping invalid tui config" (`invalid-type`, `invalid-value`,
//!   `missing-field`; effect `file-ignored`), as it does when the file does not parse
//!   (`syntax-error`);
//! - a key opencode drops without a word is an `unknown-key` warning with a did-you-mean: a
//!   setting it does not know (or one of `opencode.json`), a field of a section, and a keybind
//!   name it does not know (removed before decoding).
//!
//! Completion and hover come from the same table ([`complete`], [`hover`]).

use super::config_schema::CONFIG;
use super::ctx::Ctx;
use super::tui_schema::{self, TUI};
use super::{Analysis, DeclOrigin, Facts, sections};
use crate::analysis::complete::{Context, Item, ItemKind, item};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Location, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Dropped, Shape};
use crate::analysis::suggest::did_you_mean;
use crate::analysis::syntax::{Entry, Map, Node, Parsed, Style, Value, jsonc, path_at};
use crate::analysis::text::Span;

/// The legacy wrapper of the settings (opencode 1.x before `tui.json` had them at the top).
const WRAPPER: &str = "tui";

pub fn analyze(text: &str) -> Analysis {
    // opencode reads an empty file as no settings (a blank one does not parse).
    if text.is_empty() {
        return Analysis::default();
    }
    let parsed = jsonc::parse(text);
    let mut out = Vec::new();
    for err in &parsed.errors {
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                err.span,
                format!(
                    "{}; opencode cannot parse this file and skips it, so none of its settings apply",
                    err.message
                ),
            )
            .with_effect(Effect::FileIgnored),
        );
    }
    for dup in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                dup.first,
                format!(
                    "\"{}\" is set again later in this object; opencode keeps only the last value, so this one is ignored",
                    dup.name
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored)
            .with_related(Location::Here(dup.duplicate), "the value that wins"),
        );
    }
    let ctx = Ctx {
        origin: DeclOrigin::AgentKey,
        text,
        lost: false,
        tui: true,
    };
    if let Some(root) = &parsed.root {
        match &root.value {
            Value::Map(map) => check(root, map, &ctx, &mut out),
            Value::Unknown => {}
            _ => out.push(
                Diagnostic::new(
                    Code::InvalidType,
                    root.span,
                    format!(
                        "the settings must be a JSON object, got {}; opencode ignores this file",
                        root.type_name()
                    ),
                )
                .with_effect(Effect::FileIgnored),
            ),
        }
    }
    Analysis {
        parsed,
        diagnostics: out,
        facts: Facts::default(),
    }
}

fn check(root: &Node, map: &Map, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    // The settings as opencode decodes them: the wrapper's keys first, then the others (which
    // win over the wrapper's).
    // The top-level entry that wins for `name` (the last one).
    let top_level = |name: &str| map.entries.iter().rev().find(|e| e.key.name == name && name != WRAPPER);
    let mut entries: Vec<Entry> = Vec::new();
    if let Some(wrapper) = map.get(WRAPPER) {
        match &wrapper.value.value {
            Value::Map(inner) => {
                out.push(wrapper_deprecated(root, wrapper, inner, ctx.text));
                for (key, _) in inner.js_entries() {
                    if let Some(winner) = top_level(&key.name) {
                        out.push(
                            Diagnostic::new(
                                Code::DuplicateKey,
                                key.span,
                                format!(
                                    "`{}` is also set at the top level, which wins: opencode ignores this one",
                                    key.name
                                ),
                            )
                            .with_severity(Severity::Warning)
                            .with_effect(Effect::ValueIgnored)
                            .with_related(Location::Here(winner.key.span), "the value that wins"),
                        );
                    }
                }
                entries.extend(
                    inner
                        .entries
                        .iter()
                        .filter(|e| top_level(&e.key.name).is_none())
                        .cloned(),
                );
            }
            Value::Unknown => {}
            _ => {
                let got = &wrapper.value;
                out.push(
                    Diagnostic::new(
                        Code::InvalidType,
                        got.span,
                        format!(
                            "`tui` must be an object (the old wrapper of these settings), got {} ({}); opencode deletes it and reads the rest of the file",
                            got.type_name(),
                            got.display()
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored),
                );
            }
        }
    }
    entries.extend(map.entries.iter().filter(|e| e.key.name != WRAPPER).cloned());
    let settings = Node::new(root.span, Style::Collection, Value::Map(Map::new(entries)));
    let decoded = shape::decode(&settings, &TUI, root.span, &[]);
    for issue in &decoded.issues {
        let mut d = sections::issue_diagnostic(issue, ctx);
        if d.effect == Effect::RefusesToStart {
            d.effect = Effect::FileIgnored;
        }
        out.push(d);
    }
    for d in &decoded.dropped {
        out.push(dropped(d));
    }
}

/// The legacy `tui` wrapper, with a fix that writes its keys at the top level when that
/// changes nothing (it is written once, no key of it is also at the top level, and nothing in
/// it can swallow the text after it: a comment).
fn wrapper_deprecated(root: &Node, wrapper: &Entry, inner: &Map, text: &str) -> Diagnostic {
    let d = Diagnostic::new(
        Code::DeprecatedField,
        wrapper.key.span,
        "`tui` is the old wrapper of these settings: opencode reads its keys as if they were written at the top level (where a key is in both, the top-level value wins). Write them at the top level",
    );
    let Some(map) = root.as_map() else { return d };
    let Some(index) = map.entries.iter().position(|e| std::ptr::eq(e, wrapper)) else {
        return d;
    };
    let once = map.entries.iter().filter(|e| e.key.name == WRAPPER).count() == 1;
    let clash = !once
        || inner
            .entries
            .iter()
            .any(|e| e.key.name == WRAPPER || map.entries.iter().any(|t| t.key.name == e.key.name));
    let body = wrapper
        .value
        .span
        .text(text)
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .map(str::trim);
    match body {
        Some(body) if !clash && !body.contains('/') => {
            let body = body.strip_suffix(',').unwrap_or(body).trim_end();
            let edit = if body.is_empty() {
                crate::analysis::edit::Doc { text, yaml: false }.delete_entry(root, index)
            } else {
                Some(Edit::new(
                    Span::new(wrapper.key.span.start as usize, wrapper.value.span.end as usize),
                    body,
                ))
            };
            match edit {
                Some(e) => d.with_fix("Write the keys of `tui` at the top level", vec![e], true),
                None => d,
            }
        }
        _ => d,
    }
}

fn dropped(d: &Dropped) -> Diagnostic {
    let key = d.key.name.as_str();
    let (message, suggestion) = match d.path.as_slice() {
        [] if in_opencode_json(key) => (
            format!(
                "`{key}` is a setting of `opencode.json`, not of `tui.json`: opencode drops it here without a word. Move it to `opencode.json`"
            ),
            None,
        ),
        [] => {
            let s = d.object.suggest(key);
            (
                format!(
                    "`{key}` is not a setting of `tui.json`: opencode drops it without a word.{}",
                    did_you_mean(s)
                ),
                s,
            )
        }
        [k] if k == "keybinds" => {
            let s = d.object.suggest(key);
            (
                format!(
                    "`{key}` is not a keybind opencode knows: it removes the name before reading the keybinds, so it binds nothing.{}",
                    did_you_mean(s)
                ),
                s,
            )
        }
        _ => return sections::dropped(d),
    };
    let diag = Diagnostic::new(Code::UnknownKey, d.key.span, message);
    match suggestion {
        Some(s) => diag.with_suggestion(d.key.span, format!("\"{s}\"")),
        None => diag,
    }
}

/// A top-level key of `opencode.json` (which `tui.json` does not read).
fn in_opencode_json(key: &str) -> bool {
    let Shape::Object(config) = &CONFIG else { return false };
    config.field(key).is_some()
}

/// The keys opencode reads at `path`: the legacy wrapper counts as the top level.
fn unwrapped<'a>(path: &'a [&'a str]) -> &'a [&'a str] {
    match path {
        [first, rest @ ..] if *first == WRAPPER => rest,
        _ => path,
    }
}

/// Completion items at the cursor's context (the caller writes them into the text): the keys
/// of the object at the cursor not yet written (the keybinds opencode knows under `keybinds`,
/// each with what it does), or the literal and boolean values of the key being written.
pub fn complete(ctx: &Context) -> Vec<Item> {
    let keys: Vec<&str> = ctx.path.iter().map(String::as_str).collect();
    let path = unwrapped(&keys);
    let keybinds = path == ["keybinds"];
    match &ctx.value_of {
        None => shape::lookup::fields_at(&TUI, path)
            .into_iter()
            .filter(|(_, f)| !ctx.present.iter().any(|p| p == f.name))
            .map(|(o, f)| {
                let detail = match (path.is_empty(), keybinds) {
                    (true, _) => "tui.json",
                    (_, true) => "keybind",
                    _ => o.what,
                };
                item(
                    f.name,
                    ItemKind::Key,
                    detail,
                    Some(f.doc.to_string()),
                    u8::from(!f.required),
                )
            })
            .collect(),
        Some(key) => {
            let mut at: Vec<&str> = path.to_vec();
            at.push(key);
            let detail = if keybinds { "keybind" } else { key.as_str() };
            shape::lookup::values_at(&TUI, &at)
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let (label, detail) = match v {
                        shape::Lit::Str(s) => (s.to_string(), detail),
                        shape::Lit::Bool(b) => (b.to_string(), "boolean"),
                    };
                    item(&label, ItemKind::Value, detail, None, i as u8)
                })
                .collect()
        }
    }
}

/// The hover text at `offset` and the span it is about: on a key or its value, what the
/// setting does and takes (a keybind: the action it triggers); on `tui`, what the wrapper is.
pub fn hover(parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let root = parsed.root.as_ref()?;
    let path = path_at(root, offset);
    let last = path.last()?;
    let keys: Vec<&str> = path.iter().map(|s| s.key.name.as_str()).collect();
    let span = if last.on_key { last.key.span } else { last.value.span };
    if keys == [WRAPPER] {
        let doc = "**`tui`** (deprecated)\n\nThe old wrapper of these settings. opencode reads its keys as if they were written at the top level; where a key is in both, the top-level value wins. A `tui` that is not an object is deleted.\n";
        return Some((doc.to_string(), span));
    }
    Some((tui_schema::hover(unwrapped(&keys))?, span))
}

#[cfg(test)]
mod tests;
