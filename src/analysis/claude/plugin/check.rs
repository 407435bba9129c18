//! `plugin.json` checks: the plugin name, the field tables, each field's value and the small
//! value tests (URL, version range) shared with the marketplace.

use super::components::{PathRule, commands, inline_or_paths, paths, strings, strip_dot};
use super::cx::{Cx, Fate, Scope, brace, list};
use super::table::{Field, MARKETPLACE_ONLY, NPM_FIELDS, PLUGIN_FIELDS, SOURCE_KINDS, Shape, USER_CONFIG_TYPES};
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Map, Node, Value};
use crate::analysis::text::Span;

pub(super) fn plugin(cx: &mut Cx, root: &Node, map: &Map) {
    let scope = Scope::Plugin;
    match map.value("name") {
        None => cx.error(
            Code::MissingField,
            brace(root),
            "`name` is missing (the plugin's name is required)".into(),
            scope,
            Fate::Refused,
        ),
        Some(v) => plugin_name(cx, v, scope),
    }
    fields(cx, map, PLUGIN_FIELDS, scope);
    // The validator's advice, given once the file passes its schema.
    for (key, what) in [
        ("version", "No version specified (e.g. `\"1.0.0\"`)"),
        ("description", "No description: it tells users what the plugin does"),
        ("author", "No author (`{\"name\": ...}`), for attribution"),
    ] {
        if !map.contains(key) && !cx.schema_error {
            cx.warn(
                Code::MissingField,
                brace(root),
                format!("`{key}` is missing. {what}; `claude plugin validate` warns, Claude Code loads the plugin"),
                Effect::Works,
            );
        }
    }
}

pub(super) fn plugin_name(cx: &mut Cx, v: &Node, scope: Scope) {
    let Value::Str(s) = &v.value else {
        if !v.is_unknown() {
            cx.error(
                Code::InvalidType,
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
                scope,
                Fate::Refused,
            );
        }
        return;
    };
    cx.file.name = Some(s.clone());
    if s.is_empty() {
        cx.error(
            Code::InvalidValue,
            v.span,
            "the plugin's `name` is empty".into(),
            scope,
            Fate::Refused,
        );
        return;
    }
    if s.chars().any(is_control) {
        cx.error(
            Code::InvalidValue,
            v.span,
            "the plugin's `name` contains a control or bidirectional-formatting character".into(),
            scope,
            Fate::Refused,
        );
        return;
    }
    if s.contains(' ') {
        cx.error(
            Code::InvalidValue,
            v.span,
            format!("the plugin's `name` `{s}` contains a space (use kebab-case, e.g. `my-plugin`)"),
            scope,
            Fate::Refused,
        );
        return;
    }
    match reserved(s) {
        Some(true) => cx.out.push(
            Diagnostic::new(
                Code::InvalidName,
                v.span,
                format!(
                    "the plugin name `{s}` is reserved for Anthropic's own plugins (no third-party name starts with `claude-`, `anthropic-` or `cc-plugin-`, is `claude`, `claude-code`, `anthropic`, or puts `official` beside `claude` or `anthropic`): `claude plugin validate` rejects it"
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::Works),
        ),
        Some(false) => {
            cx.warn(
                Code::InvalidName,
                v.span,
                format!(
                    "the plugin name `{s}` reads as one of Anthropic's own (it holds the word `claude` or `anthropic`): name it for what it does; `claude plugin validate` warns"
                ),
                Effect::Works,
            );
        }
        None => {}
    }
    if scope == Scope::Entry {
        if !is_id(s) {
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
        return;
    }
    if is_kebab(s) {
        return;
    }
    let fate = if s.chars().any(|c| matches!(c, ':' | '/' | '\\' | '@') || is_blank(c)) {
        "Claude Code refuses a plugin with this name when it is loaded by path (`--plugin-dir`) and cannot install it from a marketplace that lists it under this name"
    } else if !is_id(s) {
        "Claude Code loads it by path, but cannot install it from a marketplace that lists it under this name"
    } else {
        "Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case"
    };
    let effect = if fate.starts_with("Claude Code refuses") {
        Effect::FileIgnored
    } else {
        Effect::Works
    };
    let kebab = to_kebab(s);
    let d = cx.warn(
        Code::InvalidName,
        v.span,
        format!("the plugin name `{s}` is not kebab-case (lowercase letters, digits and single hyphens): {fate}"),
        effect,
    );
    if !kebab.is_empty() && v.span.len() == s.len() + 2 {
        *d = d.clone().with_suggestion(v.span, format!("\"{kebab}\""));
    }
}

/// Whether a plugin name passes as one of Anthropic's own: `Some(true)` reserved (the validator
/// rejects it), `Some(false)` it holds the word (a warning), `None` neither. Case and the
/// separators `_`, `.` and spaces do not matter.
pub(super) fn reserved(name: &str) -> Option<bool> {
    let lower: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let words: Vec<&str> = lower.split('-').filter(|w| !w.is_empty()).collect();
    let joined = words.join("-");
    let brand = |w: &str| matches!(w, "claude" | "anthropic" | "anthropics");
    let reserved = ["claude-", "anthropic-", "anthropics-", "cc-plugin-"]
        .iter()
        .any(|p| joined.starts_with(p))
        || ["claude", "anthropic", "anthropics", "claude-code", "claude-mods"].contains(&joined.as_str())
        || ["claudecode", "claudemods"].contains(&words.concat().as_str())
        || words
            .windows(2)
            .any(|w| (w[0] == "official" && brand(w[1])) || (brand(w[0]) && w[1] == "official"));
    if reserved {
        Some(true)
    } else if words.iter().any(|w| brand(w)) {
        Some(false)
    } else {
        None
    }
}

fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn is_blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{200b}'..='\u{200d}' | '\u{feff}')
}

/// `my-plugin`: lowercase letters and digits in groups joined by single hyphens.
pub fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-')
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
}

/// One part of a plugin id: letters, digits, `.`, `_`, `-`, starting with a letter or digit.
pub(super) fn is_id(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn to_kebab(s: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            prev_lower = true;
        } else {
            if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
            prev_lower = false;
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The fields of one object against a field table: unknown fields, then each known one.
pub(super) fn fields(cx: &mut Cx, map: &Map, table: &'static [Field], scope: Scope) {
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        let v = &e.value;
        let Some(field) = table.iter().find(|f| f.name == key) else {
            unknown(cx, key, e.key.span, table, scope);
            continue;
        };
        if scope == Scope::Plugin && matches!(key, "themes" | "monitors") {
            cx.warn(
                Code::DeprecatedField,
                e.key.span,
                format!(
                    "`{key}` is experimental: declare it under `experimental.{key}`; Claude Code still reads it at the top level, but a future release will not"
                ),
                Effect::Works,
            );
        }
        if key == "name" && scope != Scope::Plugin {
            continue; // checked with the entry or marketplace
        }
        value(cx, field.name, v, field.shape, scope);
    }
}

pub(super) fn unknown(cx: &mut Cx, key: &str, span: Span, table: &'static [Field], scope: Scope) {
    let ignored = match scope {
        Scope::Entry => "Claude Code ignores it in a marketplace entry",
        _ => "Claude Code ignores it at load time",
    };
    if scope == Scope::Plugin && MARKETPLACE_ONLY.contains(&key) {
        cx.warn(
            Code::UnknownKey,
            span,
            format!("`{key}` belongs in the plugin's entry in `marketplace.json`, not in `plugin.json`: {ignored}"),
            Effect::ValueIgnored,
        );
        return;
    }
    if scope == Scope::Plugin && key == "capabilities" {
        cx.warn(
            Code::DeprecatedField,
            span,
            "`capabilities` is no longer read (what a hooks module uses is read from its source): delete it".into(),
            Effect::ValueIgnored,
        );
        return;
    }
    let near = suggest::closest(key, table.iter().map(|f| f.name));
    let npm = if NPM_FIELDS.contains(&key) {
        " (an npm `package.json` field)"
    } else {
        ""
    };
    let d = cx.warn(
        Code::UnknownKey,
        span,
        format!("unknown field `{key}`{npm}: {ignored}.{}", suggest::did_you_mean(near)),
        Effect::ValueIgnored,
    );
    if let Some(n) = near {
        *d = d.clone().with_suggestion(span, format!("\"{n}\""));
    }
}

/// The fate of a type error in a field of this shape: descriptive fields are the validator's
/// alone in a plugin's own manifest; everything else is the loader's schema.
fn fate_of(shape: Shape, scope: Scope) -> Fate {
    match (scope, shape) {
        (Scope::Plugin, Shape::Text | Shape::Url | Shape::Person | Shape::Words) => Fate::Validator,
        _ => Fate::Refused,
    }
}

pub(super) fn value(cx: &mut Cx, key: &'static str, v: &Node, shape: Shape, scope: Scope) {
    if v.is_unknown() {
        return;
    }
    let fate = fate_of(shape, scope);
    let type_error = |cx: &mut Cx, want: &str| {
        cx.error(
            Code::InvalidType,
            v.span,
            format!("`{key}` must be {want}, not {}", v.type_name()),
            scope,
            fate,
        )
    };
    match shape {
        Shape::Name => {}
        Shape::Str | Shape::Text => {
            if !matches!(v.value, Value::Str(_)) {
                type_error(cx, "a string");
            }
        }
        Shape::Url => match &v.value {
            Value::Str(s) if !is_url(s) => cx.error(
                Code::InvalidValue,
                v.span,
                format!("`{key}` is not a URL (`https://...`)"),
                scope,
                fate,
            ),
            Value::Str(_) => {}
            _ => type_error(cx, "a URL string"),
        },
        Shape::Person => person(cx, key, v, scope, fate),
        Shape::Words | Shape::StrList => match &v.value {
            Value::Seq(items) => {
                for item in items
                    .iter()
                    .filter(|i| !matches!(i.value, Value::Str(_) | Value::Unknown))
                {
                    cx.error(
                        Code::InvalidType,
                        item.span,
                        format!("the items of `{key}` must be strings, not {}", item.type_name()),
                        scope,
                        fate,
                    );
                }
            }
            _ => type_error(cx, "a list of strings"),
        },
        Shape::Bool => {
            if !matches!(v.value, Value::Bool(_)) {
                type_error(cx, "`true` or `false`");
            }
        }
        Shape::Record => {
            if !matches!(v.value, Value::Map(_)) {
                type_error(cx, "an object");
            }
        }
        Shape::Dependencies => match &v.value {
            Value::Seq(items) => {
                for item in items.iter() {
                    let ok = match &item.value {
                        Value::Str(_) | Value::Unknown => true,
                        Value::Map(m) => m.value("name").is_some_and(|n| matches!(n.value, Value::Str(_))),
                        _ => false,
                    };
                    if !ok {
                        cx.error(
                            Code::InvalidType,
                            item.span,
                            "a dependency must be a plugin name or an object with a `name`".into(),
                            scope,
                            fate,
                        );
                    }
                }
            }
            _ => type_error(cx, "a list"),
        },
        Shape::Engines => match &v.value {
            Value::Map(m) => {
                if let Some(r) = m.value("claude-code")
                    && !r.is_unknown()
                    && !r.as_str().is_some_and(is_version_range)
                {
                    cx.error(
                        Code::InvalidValue,
                        r.span,
                        format!(
                            "`engines.claude-code` must be a version range such as `\">=2.1.0\"`, not {}; Claude Code ignores it",
                            r.display()
                        ),
                        Scope::Plugin,
                        Fate::Validator,
                    );
                }
            }
            _ => {
                cx.warn(
                    Code::InvalidType,
                    v.span,
                    format!(
                        "`engines` must be an object such as `{{\"claude-code\": \">=2.1.0\"}}`, not {}: Claude Code ignores it",
                        v.type_name()
                    ),
                    Effect::ValueIgnored,
                );
            }
        },
        Shape::Experimental => match &v.value {
            Value::Map(m) => {
                for e in m.entries.iter() {
                    match e.key.name.as_str() {
                        "monitors" => value(cx, "monitors", &e.value, Shape::Paths, scope),
                        "themes" => value(cx, "themes", &e.value, Shape::Paths, scope),
                        other => {
                            let near = suggest::closest(other, ["monitors", "themes"]);
                            cx.warn(
                                Code::UnknownKey,
                                e.key.span,
                                format!(
                                    "unknown experimental component `{other}`: Claude Code ignores it.{}",
                                    suggest::did_you_mean(near)
                                ),
                                Effect::ValueIgnored,
                            );
                        }
                    }
                }
            }
            _ => {
                cx.warn(
                    Code::InvalidType,
                    v.span,
                    format!(
                        "`experimental` must be an object of component declarations, not {}: Claude Code ignores it",
                        v.type_name()
                    ),
                    Effect::ValueIgnored,
                );
            }
        },
        Shape::UserConfig => user_config(cx, v, scope),
        Shape::Channels => match &v.value {
            Value::Seq(items) => {
                for item in items.iter() {
                    match &item.value {
                        Value::Map(m) => {
                            if !m.value("server").is_some_and(|s| matches!(s.value, Value::Str(_))) {
                                cx.error(
                                    Code::MissingField,
                                    brace(item),
                                    "a channel needs a string `server`".into(),
                                    scope,
                                    fate,
                                );
                            }
                        }
                        Value::Unknown => {}
                        _ => cx.error(
                            Code::InvalidType,
                            item.span,
                            format!("a channel must be an object with `server`, not {}", item.type_name()),
                            scope,
                            fate,
                        ),
                    }
                }
            }
            _ => type_error(cx, "a list"),
        },
        Shape::Agents => {
            let ok = paths(cx, key, v, scope, PathRule::AGENTS);
            if ok && scope == Scope::Plugin {
                cx.file.layout.agents = Some(strings(v).into_iter().map(|s| strip_dot(&s)).collect());
            }
        }
        Shape::Skills => {
            let ok = paths(cx, key, v, scope, PathRule::SKILLS);
            if ok && scope == Scope::Plugin {
                cx.file.layout.skills = strings(v).into_iter().map(|s| strip_dot(&s)).collect();
            }
        }
        Shape::Commands => commands(cx, v, scope),
        Shape::Hooks => inline_or_paths(cx, key, v, scope, PathRule::HOOKS),
        Shape::McpServers | Shape::LspServers => {
            inline_or_paths(cx, key, v, scope, PathRule::ANY_FILE);
            if scope == Scope::Plugin {
                let files: Vec<String> = match &v.value {
                    Value::Str(s) => vec![strip_dot(s)],
                    Value::Seq(items) => items.iter().filter_map(|i| i.as_str()).map(strip_dot).collect(),
                    _ => Vec::new(),
                };
                if key == "mcpServers" {
                    cx.file.layout.mcp_files = files;
                } else {
                    cx.file.layout.lsp_files = files;
                }
            }
        }
        Shape::Paths if key == "monitors" && matches!(v.value, Value::Seq(_)) => {
            // The monitors themselves, inline.
            let (found, _) = super::servers_file::check_monitors(v);
            cx.schema_error |= !found.is_empty();
            cx.out.extend(found);
            if scope == Scope::Plugin {
                cx.file.layout.monitors = Some(None);
            }
        }
        Shape::Paths => {
            let ok = paths(cx, key, v, scope, PathRule::ANY);
            if ok && scope == Scope::Plugin && key == "outputStyles" {
                cx.file.layout.output_styles = strings(v).into_iter().map(|s| strip_dot(&s)).collect();
            }
            if scope == Scope::Plugin && key == "monitors" {
                cx.file.layout.monitors = Some(v.as_str().map(strip_dot));
            }
        }
        Shape::Source => source(cx, v),
        Shape::Any => {}
    }
}

pub(super) fn person(cx: &mut Cx, key: &'static str, v: &Node, scope: Scope, fate: Fate) {
    match &v.value {
        Value::Map(m) => match m.value("name") {
            None => cx.error(
                Code::MissingField,
                brace(v),
                format!("`{key}.name` is missing"),
                scope,
                fate,
            ),
            Some(n) if !matches!(n.value, Value::Str(_) | Value::Unknown) => cx.error(
                Code::InvalidType,
                n.span,
                format!("`{key}.name` must be a string, not {}", n.type_name()),
                scope,
                fate,
            ),
            Some(_) => {}
        },
        _ => cx.error(
            Code::InvalidType,
            v.span,
            format!(
                "`{key}` must be an object such as `{{\"name\": \"...\", \"email\": \"...\"}}`, not {}",
                v.type_name()
            ),
            scope,
            fate,
        ),
    }
}

fn user_config(cx: &mut Cx, v: &Node, scope: Scope) {
    let Value::Map(m) = &v.value else {
        cx.error(
            Code::InvalidType,
            v.span,
            format!("`userConfig` must be an object of options, not {}", v.type_name()),
            scope,
            Fate::Refused,
        );
        return;
    };
    for e in m.entries.iter() {
        let name = &e.key.name;
        let Value::Map(opt) = &e.value.value else {
            if !e.value.is_unknown() {
                cx.error(
                    Code::InvalidType,
                    e.value.span,
                    format!("the option `{name}` must be an object, not {}", e.value.type_name()),
                    scope,
                    Fate::Refused,
                );
            }
            continue;
        };
        match opt.value("type") {
            Some(t) if t.as_str().is_some_and(|s| USER_CONFIG_TYPES.contains(&s)) || t.is_unknown() => {}
            Some(t) => cx.error(
                Code::InvalidValue,
                t.span,
                format!(
                    "the `type` of option `{name}` must be one of {}, not {}",
                    list(USER_CONFIG_TYPES),
                    t.display()
                ),
                scope,
                Fate::Refused,
            ),
            None => {}
        }
        for req in ["title", "description"] {
            match opt.value(req) {
                None => cx.error(
                    Code::MissingField,
                    brace(&e.value),
                    format!("the option `{name}` has no `{req}`"),
                    scope,
                    Fate::Refused,
                ),
                Some(s) if !matches!(s.value, Value::Str(_) | Value::Unknown) => cx.error(
                    Code::InvalidType,
                    s.span,
                    format!("the `{req}` of option `{name}` must be a string, not {}", s.type_name()),
                    scope,
                    Fate::Refused,
                ),
                Some(_) => {}
            }
        }
    }
}

/// A URL as `new URL(...)` takes it: a scheme, `:`, then something.
fn is_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
        && !s.contains(char::is_whitespace)
}

/// A semver range (`>=2.1.0`, `^2.1`, `2.x`, `>=2.0.0 <3`, `*`).
fn is_version_range(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.split("||").all(|alt| {
            alt.split_whitespace().all(|part| {
                let v = part.trim_start_matches(['>', '<', '=', '^', '~', 'v']);
                v == "*"
                    || (!v.is_empty()
                        && v.split('.').take(3).all(|n| {
                            n.chars()
                                .next()
                                .is_some_and(|c| c.is_ascii_digit() || matches!(c, 'x' | 'X' | '*'))
                        }))
            })
        })
}

/// A marketplace entry's `source`.
pub(super) fn source(cx: &mut Cx, v: &Node) {
    let scope = Scope::Entry;
    match &v.value {
        Value::Str(s) => {
            if !s.starts_with("./") && cx.plugin_root.is_none() {
                cx.error(
                    Code::InvalidValue,
                    v.span,
                    format!("the source `{s}` must start with `./` (relative to the marketplace root)"),
                    scope,
                    Fate::Refused,
                );
            } else if s.split(['/', '\\']).any(|seg| seg == "..") {
                cx.error(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "the source `{s}` contains `..`: sources are relative to the marketplace root (the folder holding `.claude-plugin/`), not to `marketplace.json`"
                    ),
                    scope,
                    Fate::Refused,
                );
            }
        }
        Value::Map(m) => {
            let kind = m.value("source");
            match kind.and_then(Node::as_str) {
                Some(k) if SOURCE_KINDS.iter().any(|(n, _)| *n == k) => {
                    let (_, needs) = SOURCE_KINDS.iter().find(|(n, _)| *n == k).expect("found");
                    for need in *needs {
                        if !m.value(need).is_some_and(|n| matches!(n.value, Value::Str(_))) {
                            cx.error(
                                Code::MissingField,
                                brace(v),
                                format!("a `{k}` source needs a string `{need}`"),
                                scope,
                                Fate::Refused,
                            );
                        }
                    }
                    if let Some(sha) = m.value("sha")
                        && !sha.as_str().is_some_and(|s| {
                            s.len() == 40 && s.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
                        })
                    {
                        cx.error(
                            Code::InvalidValue,
                            sha.span,
                            "`sha` must be a full 40-character lowercase git commit SHA".into(),
                            scope,
                            Fate::Refused,
                        );
                    }
                }
                Some(k) => {
                    let kinds: Vec<&str> = SOURCE_KINDS.iter().map(|(n, _)| *n).collect();
                    let near = suggest::closest(k, kinds.iter().copied());
                    cx.error(
                        Code::InvalidValue,
                        kind.map_or(v.span, |n| n.span),
                        format!(
                            "`{k}` is no source type (one of {}).{}",
                            list(&kinds),
                            suggest::did_you_mean(near)
                        ),
                        scope,
                        Fate::Refused,
                    );
                }
                None => cx.error(
                    Code::MissingField,
                    kind.map_or(brace(v), |n| n.span),
                    "a source object needs `source`: `github`, `url`, `git-subdir` or `npm`".into(),
                    scope,
                    Fate::Refused,
                ),
            }
        }
        Value::Unknown => {}
        _ => cx.error(
            Code::InvalidType,
            v.span,
            format!("`source` must be a `./` path or a source object, not {}", v.type_name()),
            scope,
            Fate::Refused,
        ),
    }
}
