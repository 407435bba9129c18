//! `marketplace.json`: the top level, each plugin entry, its `source`, duplicate names.

use super::check::{fields, is_id, person, plugin_name, unknown, value};
use super::components::strip_dot;
use super::cx::{Cx, Fate, Scope, brace};
use super::table::{ENTRY_FIELDS, MARKETPLACE_FIELDS, Shape};
use crate::analysis::diagnostic::{Diagnostic, Effect, Location, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Map, Node, Value};
use crate::analysis::text::Span;

pub(super) fn marketplace(cx: &mut Cx, root: &Node, map: &Map) {
    let scope = Scope::Marketplace;
    cx.plugin_root = map
        .value("metadata")
        .and_then(Node::as_map)
        .and_then(|m| m.value("pluginRoot"))
        .and_then(Node::as_str)
        .map(strip_dot);
    match map.value("name") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`name` is missing (the marketplace's name is required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => match &v.value {
            Value::Str(s) => {
                cx.file.name = Some(s.clone());
                if s.contains(' ') {
                    cx.error(
                        Code::InvalidValue,
                        v.span,
                        format!("the marketplace name `{s}` contains a space (use kebab-case)"),
                        scope,
                        Fate::Refused,
                    );
                } else if !is_id(s) {
                    // Checked after the schema: the advice on missing fields still comes.
                    let schema_error = cx.schema_error;
                    cx.error(
                        Code::InvalidName,
                        v.span,
                        format!(
                            "`{s}` cannot be part of a plugin id (`plugin@marketplace`: letters, digits, `.`, `_` and `-`, starting with a letter or digit)"
                        ),
                        scope,
                        Fate::Refused,
                    );
                    cx.schema_error = schema_error;
                }
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
                scope,
                Fate::Refused,
            ),
        },
    }
    match map.value("owner") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`owner` is missing (`{\"name\": ...}`, required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => person(cx, "owner", v, scope, Fate::Refused),
    }
    match map.value("plugins") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`plugins` is missing (the list of plugins, required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => match &v.value {
            Value::Seq(items) => {
                if items.is_empty() {
                    cx.warn(
                        Code::MissingField,
                        v.span,
                        "`plugins` is empty: the marketplace offers no plugin".into(),
                        Effect::Works,
                    );
                }
                for item in items.iter() {
                    entry(cx, item);
                }
                duplicates(cx, items);
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                v.span,
                format!("`plugins` must be a list of plugin entries, not {}", v.type_name()),
                scope,
                Fate::Refused,
            ),
        },
    }
    if let Some(meta) = map.value("metadata") {
        match &meta.value {
            Value::Map(m) => {
                for e in m.entries.iter() {
                    let key = e.key.name.as_str();
                    if ["description", "version", "pluginRoot"].contains(&key) {
                        if !matches!(e.value.value, Value::Str(_) | Value::Unknown) {
                            cx.error(
                                Code::InvalidType,
                                e.value.span,
                                format!("`metadata.{key}` must be a string, not {}", e.value.type_name()),
                                scope,
                                Fate::Refused,
                            );
                        }
                    } else {
                        let near = suggest::closest(key, ["description", "version", "pluginRoot"]);
                        cx.warn(
                            Code::UnknownKey,
                            e.key.span,
                            format!(
                                "unknown field `metadata.{key}`: Claude Code ignores it.{}",
                                suggest::did_you_mean(near)
                            ),
                            Effect::ValueIgnored,
                        );
                    }
                }
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                meta.span,
                format!("`metadata` must be an object, not {}", meta.type_name()),
                scope,
                Fate::Refused,
            ),
        }
    }
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        match MARKETPLACE_FIELDS.iter().find(|f| f.name == key) {
            None => unknown(cx, key, e.key.span, MARKETPLACE_FIELDS, scope),
            Some(f) if f.shape == Shape::Text => value(cx, f.name, &e.value, Shape::Text, scope),
            Some(_) => {}
        }
    }
    let described = map.contains("description")
        || map
            .value("metadata")
            .and_then(Node::as_map)
            .is_some_and(|m| m.contains("description"));
    if !described && !cx.schema_error {
        cx.warn(
            Code::MissingField,
            brace(root),
            "`description` is missing. No description: it tells users what the marketplace offers; `claude plugin validate` warns".into(),
            Effect::Works,
        );
    }
}

/// One plugin entry of a marketplace.
pub(super) fn entry(cx: &mut Cx, item: &Node) {
    let scope = Scope::Entry;
    let Value::Map(m) = &item.value else {
        if !item.is_unknown() {
            cx.error(
                Code::InvalidType,
                item.span,
                format!(
                    "a plugin entry must be an object with `name` and `source`, not {}",
                    item.type_name()
                ),
                scope,
                Fate::Refused,
            );
        }
        return;
    };
    let mut name = None;
    match m.value("name") {
        None => cx.error(
            Code::MissingField,
            brace(item),
            "`name` is missing from this plugin entry".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => match &v.value {
            Value::Str(s) => {
                name = Some(s.clone());
                plugin_name(cx, v, scope);
            }
            Value::Unknown => {}
            _ => cx.error(
                Code::InvalidType,
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
                scope,
                Fate::Refused,
            ),
        },
    }
    if m.value("source").is_none() {
        cx.error(
            Code::MissingField,
            brace(item),
            "`source` is missing from this plugin entry (a `./` path or a source object)".into(),
            scope,
            Fate::Refused,
        );
    }
    fields(cx, m, ENTRY_FIELDS, scope);
    let local = m.value("source").and_then(|s| {
        let p = s.as_str()?;
        match (p.strip_prefix("./"), &cx.plugin_root) {
            (Some(_), _) => Some((strip_dot(p), s.span)),
            (None, Some(root)) if !root.is_empty() => Some((format!("{root}/{}", strip_dot(p)), s.span)),
            (None, Some(_)) => Some((strip_dot(p), s.span)),
            (None, None) => None,
        }
    });
    if let Some(n) = name {
        cx.file.entries.push((n, local));
    }
}

/// Plugin entries sharing a name: each is reported.
pub(super) fn duplicates(cx: &mut Cx, items: &[Node]) {
    let names: Vec<(&str, Span)> = items
        .iter()
        .filter_map(|i| {
            let n = i.as_map()?.value("name")?;
            Some((n.as_str()?, n.span))
        })
        .collect();
    for (i, (n, span)) in names.iter().enumerate() {
        let others: Vec<Span> = names
            .iter()
            .enumerate()
            .filter(|(j, (m, _))| *j != i && m == n)
            .map(|(_, (_, s))| *s)
            .collect();
        if others.is_empty() {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            *span,
            format!(
                "the plugin name `{n}` appears {} times in this marketplace: `claude plugin validate` rejects it, and `{n}@...` installs only one of them",
                others.len() + 1
            ),
        )
        .with_severity(Severity::Error)
        .with_effect(Effect::ValueIgnored);
        for o in others {
            d = d.with_related(Location::Here(o), "also named here");
        }
        cx.out.push(d);
    }
}
