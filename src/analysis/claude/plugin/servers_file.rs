//! A plugin's `.lsp.json` (its language servers) and `monitors/monitors.json` (its background
//! monitors), read as Claude Code 2.1.332 reads them (seen with the runtime:
//! `tests/claude_runtime/plugin_files.rs`).
//!
//! Both are validated whole, each object strictly (a key the schema does not have is an error):
//!
//! - `.lsp.json`: an object of language servers by name, each with `command` (no spaces unless
//!   an absolute path: arguments go in `args`), `extensionToLanguage` (file extension to LSP
//!   language id, at least one) and optional settings ([`LSP_KEYS`]). One mistake anywhere and
//!   Claude Code loads none of the file's servers ("LSP config validation failed for .lsp.json in
//!   plugin x" in the debug log, nothing in the session);
//! - `monitors/monitors.json`: a list of monitors, each with `name` (unique in the plugin),
//!   `command`, `description` and `when` (`always`, the default, or `on-skill-invoke:<skill>`).
//!   One mistake and Claude Code arms none of them ("Failed to load monitors for x").
//!
//! A file that does not parse as strict JSON is lost the same way.

use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::closest;
use crate::analysis::syntax::strict::{strict_json, strict_json_fix};
use crate::analysis::syntax::{Map, Node, Parsed, Value, jsonc};
use crate::analysis::text::Span;

/// Which of a plugin's server files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServersFile {
    /// `.mcp.json` at the plugin's root (or a file the manifest's `mcpServers` names): read by
    /// [`crate::analysis::claude::mcp::analyze_plugin`].
    Mcp,
    /// `.lsp.json` (or a file the manifest's `lspServers` names).
    Lsp,
    /// `monitors/monitors.json` (or the file the manifest's `monitors` names).
    Monitors,
}

/// What a value must be.
#[derive(Clone, Copy, Debug)]
enum Want {
    /// A non-empty string.
    Text,
    /// A non-empty string with no space, unless it is an absolute path.
    Command,
    /// Any string.
    AnyText,
    /// A list of strings.
    Texts,
    /// An object of strings.
    TextMap,
    /// An object of strings with at least one entry.
    NonEmptyTextMap,
    /// One of these strings.
    OneOf(&'static [&'static str]),
    Bool,
    /// An integer above 0 (at most 2^31 - 1 for `requestTimeout`).
    Positive(u64),
    /// An integer of 0 or more.
    NonNegative,
    /// Anything.
    Any,
    /// `always` or `on-skill-invoke:<skill>`.
    When,
}

/// The keys of a language server, with what each takes and does.
pub const LSP_KEYS: &[(&str, &str)] = &[
    (
        "command",
        "The program that runs the server (`typescript-language-server`); its arguments go in `args`.",
    ),
    ("args", "The arguments of `command`, a list of strings."),
    (
        "extensionToLanguage",
        "File extension to LSP language id (`{\".ts\": \"typescript\"}`): the files the server is for. At least one.",
    ),
    ("transport", "`stdio` (the default) or `socket`."),
    ("env", "Environment variables for the server, an object of strings."),
    ("initializationOptions", "Passed to the server in `initialize`."),
    (
        "settings",
        "Passed to the server in `workspace/didChangeConfiguration`.",
    ),
    ("workspaceFolder", "The workspace folder the server is given."),
    (
        "startupTimeout",
        "How long to wait for the server to start, in milliseconds.",
    ),
    (
        "shutdownTimeout",
        "How long to wait for the server to stop, in milliseconds.",
    ),
    (
        "requestTimeout",
        "How long to wait for an answer, in milliseconds (60000 by default).",
    ),
    ("restartOnCrash", "Restart the server when it crashes."),
    ("maxRestarts", "How many restarts before giving up."),
    (
        "diagnostics",
        "`false`: keep navigation but do not put the server's diagnostics in the agent's context after edits.",
    ),
];

const LSP_WANTS: &[(&str, Want)] = &[
    ("command", Want::Command),
    ("args", Want::Texts),
    ("extensionToLanguage", Want::NonEmptyTextMap),
    ("transport", Want::OneOf(&["stdio", "socket"])),
    ("env", Want::TextMap),
    ("initializationOptions", Want::Any),
    ("settings", Want::Any),
    ("workspaceFolder", Want::AnyText),
    ("startupTimeout", Want::Positive(u64::MAX)),
    ("shutdownTimeout", Want::Positive(u64::MAX)),
    ("requestTimeout", Want::Positive(2_147_483_647)),
    ("restartOnCrash", Want::Bool),
    ("maxRestarts", Want::NonNegative),
    ("diagnostics", Want::Bool),
];

/// The keys of a monitor, with what each does.
pub const MONITOR_KEYS: &[(&str, &str)] = &[
    (
        "name",
        "The monitor's id, unique in the plugin (re-arming the same name starts no second one).",
    ),
    (
        "command",
        "The shell command, run for the whole session; each line it prints reaches the model as a notification. `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}`, `${CLAUDE_PROJECT_DIR}`, `${user_config.*}` and `${VAR}` are substituted; it runs in the session's folder.",
    ),
    (
        "description",
        "What is watched, shown in the task panel and in notifications.",
    ),
    (
        "when",
        "`always` (the default: at session start and plugin reload) or `on-skill-invoke:<skill>` (the first time that skill runs).",
    ),
];

const MONITOR_WANTS: &[(&str, Want)] = &[
    ("name", Want::Text),
    ("command", Want::Text),
    ("description", Want::Text),
    ("when", Want::When),
];

/// What such a file declares: its language servers (name, where, and the file extensions each
/// is for) or its monitors' names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Declared {
    /// The file loads (no mistake voids it).
    pub loads: bool,
    /// Each server or monitor: its name and where it is written.
    pub names: Vec<(String, Span)>,
    /// `.lsp.json`: per server, its file extensions and their languages.
    pub languages: Vec<(String, Vec<(String, String)>)>,
}

struct Cx<'a> {
    file: ServersFile,
    out: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    /// A mistake: the whole file is lost.
    fn lost(&mut self, code: Code, span: Span, what: String) {
        let tail = match self.file {
            ServersFile::Lsp => "Claude Code loads none of this file's language servers",
            ServersFile::Monitors => "Claude Code arms none of this plugin's monitors",
            ServersFile::Mcp => "Claude Code loads none of this file's MCP servers",
        };
        self.out.push(
            Diagnostic::new(code, span, format!("{what}: {tail}"))
                .with_severity(Severity::Error)
                .with_effect(Effect::FileIgnored),
        );
    }
}

/// Analyse the file: its diagnostics, tree and what it declares.
pub fn analyze(file: ServersFile, text: &str) -> (Vec<Diagnostic>, Parsed, Declared) {
    let mut out = Vec::new();
    let mut declared = Declared::default();
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        let mut cx = Cx { file, out: &mut out };
        cx.lost(
            Code::SyntaxError,
            crate::analysis::text::first_line(text),
            "the file is empty, which is not JSON".into(),
        );
        return (out, Parsed::default(), declared);
    }
    let parsed = jsonc::parse(text);
    {
        let mut cx = Cx { file, out: &mut out };
        for e in &parsed.errors {
            cx.lost(Code::SyntaxError, e.span, e.message.clone());
        }
    }
    for (span, what) in strict_json(text) {
        let mut cx = Cx { file, out: &mut out };
        cx.lost(
            Code::SyntaxError,
            span,
            format!("{what} (the file is read as strict JSON)"),
        );
        if let Some(d) = out.pop() {
            out.push(strict_json_fix(d, what));
        }
    }
    if !out.is_empty() {
        return (out, parsed, declared);
    }
    let Some(root) = parsed.root.as_ref() else {
        return (out, parsed, declared);
    };
    let mut cx = Cx { file, out: &mut out };
    match file {
        ServersFile::Lsp => lsp(&mut cx, root, &mut declared),
        ServersFile::Monitors => monitors(&mut cx, root, &mut declared),
        ServersFile::Mcp => {}
    }
    declared.loads = out.iter().all(|d| d.severity != Severity::Error);
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, declared)
}

fn lsp(cx: &mut Cx, root: &Node, declared: &mut Declared) {
    let Some(servers) = root.as_map() else {
        if !root.is_unknown() {
            cx.lost(
                Code::InvalidType,
                root.span,
                format!(
                    "`.lsp.json` is an object of language servers by name, not {}",
                    root.type_name()
                ),
            );
        }
        return;
    };
    for (key, value) in servers.js_entries() {
        declared.names.push((key.name.clone(), key.span));
        let Some(server) = value.as_map() else {
            if !value.is_unknown() {
                cx.lost(
                    Code::InvalidType,
                    value.span,
                    format!("the server `{}` must be an object, not {}", key.name, value.type_name()),
                );
            }
            continue;
        };
        object(cx, &format!("the server `{}`", key.name), key.span, server, LSP_WANTS);
        let languages = server
            .value("extensionToLanguage")
            .and_then(Node::as_map)
            .map(|m| {
                m.js_entries()
                    .into_iter()
                    .filter_map(|(k, v)| Some((k.name.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        declared.languages.push((key.name.clone(), languages));
    }
}

/// The monitors of a manifest's inline `monitors` list, checked as in `monitors.json`.
pub fn check_monitors(list: &Node) -> (Vec<Diagnostic>, Declared) {
    let mut out = Vec::new();
    let mut declared = Declared::default();
    let mut cx = Cx {
        file: ServersFile::Monitors,
        out: &mut out,
    };
    monitors(&mut cx, list, &mut declared);
    declared.loads = out.is_empty();
    (out, declared)
}

fn monitors(cx: &mut Cx, root: &Node, declared: &mut Declared) {
    let Value::Seq(items) = &root.value else {
        if !root.is_unknown() {
            cx.lost(
                Code::InvalidType,
                root.span,
                format!(
                    "`monitors.json` is a list of monitors (`[{{\"name\": ..., \"command\": ..., \"description\": ...}}]`), not {}",
                    root.type_name()
                ),
            );
        }
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let Some(monitor) = item.as_map() else {
            if !item.is_unknown() {
                cx.lost(
                    Code::InvalidType,
                    item.span,
                    format!("monitor {} must be an object, not {}", i + 1, item.type_name()),
                );
            }
            continue;
        };
        let what = match monitor.value("name").and_then(Node::as_str) {
            Some(n) => format!("the monitor `{n}`"),
            None => format!("monitor {}", i + 1),
        };
        let anchor = Span::new(item.span.start as usize, item.span.start as usize + 1);
        object(cx, &what, anchor, monitor, MONITOR_WANTS);
        if let Some(name) = monitor.value("name")
            && let Some(n) = name.as_str()
        {
            if let Some((_, first)) = declared.names.iter().find(|(m, _)| m == n) {
                let first = *first;
                cx.lost(
                    Code::DuplicateKey,
                    name.span,
                    format!("another monitor is named `{n}` already (names must be unique in a plugin)"),
                );
                if let Some(d) = cx.out.pop() {
                    cx.out.push(d.with_related(
                        crate::analysis::diagnostic::Location::Here(first),
                        "the first monitor with this name",
                    ));
                }
            }
            declared.names.push((n.to_string(), name.span));
        }
    }
}

/// Check one strict object: unknown keys, missing required keys, each value.
fn object(cx: &mut Cx, what: &str, anchor: Span, map: &Map, wants: &[(&str, Want)]) {
    let keys = || wants.iter().map(|(k, _)| *k);
    for (key, value) in map.js_entries() {
        let Some((_, want)) = wants.iter().find(|(k, _)| *k == key.name) else {
            let near = closest(&key.name, keys()).filter(|n| !map.contains(n));
            let hint = near.map_or_else(
                || " (an unknown key is refused)".to_string(),
                |n| format!(" (did you mean `{n}`?)"),
            );
            cx.lost(
                Code::UnknownKey,
                key.span,
                format!("{what} has no `{}`{hint}", key.name),
            );
            if let Some(n) = near
                && let Some(d) = cx.out.pop()
            {
                cx.out.push(d.with_suggestion(key.span, format!("\"{n}\"")));
            }
            continue;
        };
        if let Some(problem) = check_value(*want, value) {
            let code = if matches!(problem.0, Shape::Type) {
                Code::InvalidType
            } else {
                Code::InvalidValue
            };
            cx.lost(code, value.span, format!("`{}` of {what} {}", key.name, problem.1));
        }
    }
    let required: &[&str] = match wants.first().map(|(k, _)| *k) {
        Some("command") => &["command", "extensionToLanguage"],
        _ => &["name", "command", "description"],
    };
    let missing: Vec<String> = required
        .iter()
        .filter(|k| !map.contains(k))
        .map(|k| format!("`{k}`"))
        .collect();
    if !missing.is_empty() {
        cx.lost(
            Code::MissingField,
            anchor,
            format!("{what} needs {}", missing.join(" and ")),
        );
    }
}

enum Shape {
    Type,
    Value,
}

/// What is wrong with a value, if anything.
fn check_value(want: Want, v: &Node) -> Option<(Shape, String)> {
    let wrong = |expected: &str| Some((Shape::Type, format!("must be {expected}, not {}", v.type_name())));
    match (want, &v.value) {
        (_, Value::Unknown) | (Want::Any, _) => None,
        (Want::Text | Want::When, Value::Str(s)) if s.is_empty() => Some((Shape::Value, "must not be empty".into())),
        (Want::Text | Want::AnyText, Value::Str(_)) => None,
        (Want::When, Value::Str(s)) => match s.strip_prefix("on-skill-invoke:") {
            _ if s == "always" => None,
            Some(skill) if !skill.is_empty() => None,
            Some(_) => Some((Shape::Value, "must name a skill after `on-skill-invoke:`".into())),
            None => Some((
                Shape::Value,
                format!("must be `always` or `on-skill-invoke:<skill>`, not `{s}`"),
            )),
        },
        (Want::Command, Value::Str(s)) if s.is_empty() => Some((Shape::Value, "must not be empty".into())),
        (Want::Command, Value::Str(s)) if s.contains(' ') && !s.starts_with('/') => Some((
            Shape::Value,
            format!(
                "holds a space (`{s}`): Claude Code refuses it (\"Use args array for arguments\"); put the program in `command` and its arguments in `args`"
            ),
        )),
        (Want::Command, Value::Str(_)) => None,
        (Want::Texts, Value::Seq(items)) => items
            .iter()
            .find(|i| !matches!(i.value, Value::Str(_) | Value::Unknown))
            .map(|i| (Shape::Type, format!("must hold strings only, not {}", i.type_name()))),
        (Want::TextMap | Want::NonEmptyTextMap, Value::Map(m)) => {
            if let Some(e) = m
                .entries
                .iter()
                .find(|e| !matches!(e.value.value, Value::Str(_) | Value::Unknown))
            {
                return Some((
                    Shape::Type,
                    format!("must map to strings only (`{}` is {})", e.key.name, e.value.type_name()),
                ));
            }
            (matches!(want, Want::NonEmptyTextMap) && m.entries.is_empty())
                .then(|| (Shape::Value, "needs at least one entry".into()))
        }
        (Want::OneOf(values), Value::Str(s)) => (!values.contains(&s.as_str())).then(|| {
            let all: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
            (Shape::Value, format!("must be {}, not `{s}`", all.join(" or ")))
        }),
        (Want::Bool, Value::Bool(_)) => None,
        (Want::Positive(max), Value::Int(i)) => (*i < 1 || *i as u64 > max)
            .then(|| (Shape::Value, format!("must be a whole number from 1 to {max}, not {i}"))),
        (Want::NonNegative, Value::Int(i)) => (*i < 0).then(|| (Shape::Value, format!("must be 0 or more, not {i}"))),
        (Want::Positive(_) | Want::NonNegative, Value::Float(f)) => {
            Some((Shape::Value, format!("must be a whole number, not {f}")))
        }
        (Want::Text | Want::AnyText | Want::Command | Want::When | Want::OneOf(_), _) => wrong("a string"),
        (Want::Texts, _) => wrong("a list of strings"),
        (Want::TextMap | Want::NonEmptyTextMap, _) => wrong("an object of strings"),
        (Want::Bool, _) => wrong("`true` or `false`"),
        (Want::Positive(_) | Want::NonNegative, _) => wrong("a number"),
    }
}

/// Completion: the keys of a server or monitor not written yet.
pub fn complete(file: ServersFile, text: &str, offset: usize) -> Vec<crate::analysis::complete::Item> {
    use crate::analysis::complete::{ItemKind, item, json_context};
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = json_context(text, offset) else {
        return Vec::new();
    };
    // A server's keys one level down (`{"ts": {|}}`); a monitor's in the list's objects.
    let depth_ok = match file {
        ServersFile::Lsp => ctx.path.len() == 1,
        ServersFile::Monitors => ctx.path.len() <= 1,
        ServersFile::Mcp => return crate::analysis::claude::mcp::complete(text, offset),
    };
    let (keys, detail) = match file {
        ServersFile::Lsp => (LSP_KEYS, "language server"),
        _ => (MONITOR_KEYS, "monitor"),
    };
    match &ctx.value_of {
        None if depth_ok => keys
            .iter()
            .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
            .map(|(k, d)| {
                let mut it = item(k, ItemKind::Key, detail, Some(d.to_string()), 0);
                it.insert = format!("\"{k}\": ");
                it.replace = ctx.replace;
                it
            })
            .collect(),
        Some(key) if key == "transport" || key == "when" => {
            let values: &[&str] = if key == "transport" {
                &["stdio", "socket"]
            } else {
                &["always", "on-skill-invoke:"]
            };
            values
                .iter()
                .map(|v| {
                    let mut it = item(v, ItemKind::Value, key, None, 0);
                    it.insert = format!("\"{v}\"");
                    it.replace = ctx.replace;
                    it
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Hover on a key: what it does.
pub fn hover(file: ServersFile, parsed: &Parsed, offset: usize) -> Option<(String, Span)> {
    let keys = match file {
        ServersFile::Lsp => LSP_KEYS,
        ServersFile::Monitors => MONITOR_KEYS,
        ServersFile::Mcp => return crate::analysis::claude::mcp::hover(parsed, offset),
    };
    let key = key_at(parsed.root.as_ref()?, offset, 0)?;
    let (name, doc) = keys.iter().find(|(k, _)| *k == key.name)?;
    Some((format!("**`{name}`**\n\n{doc}\n"), key.span))
}

/// The key written at `offset`, in the objects of the tree down to a server or monitor.
fn key_at(node: &Node, offset: usize, depth: usize) -> Option<&crate::analysis::syntax::Key> {
    if depth > 2 {
        return None;
    }
    match &node.value {
        Value::Map(m) => m.entries.iter().find_map(|e| {
            if e.key.span.contains(offset) {
                Some(&e.key)
            } else if e.value.span.contains(offset) {
                key_at(&e.value, offset, depth + 1)
            } else {
                None
            }
        }),
        Value::Seq(items) => items
            .iter()
            .find(|i| i.span.contains(offset))
            .and_then(|i| key_at(i, offset, depth + 1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
