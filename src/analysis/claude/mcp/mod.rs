//! `.mcp.json`: a project's MCP servers, read as Claude Code 2.1.332 reads them
//! ([`schema`] through [`shape::decode`]), with `claude mcp list` as the judge
//! (`tests/claude_runtime/mcp_json.rs`).
//!
//! Claude Code started in a folder reads the `.mcp.json` of that folder and of every folder
//! above it, past the repository's top too (the closest wins a name), and none below it; a
//! `.mcp.json` git ignores is read all the same. The file is strict JSON:
//!
//! - a file that does not parse (comments and trailing commas included), whose top level is not
//!   an object, or without an `mcpServers` object loads no server: an error with the effect
//!   `file-ignored` (`syntax-error`, `invalid-type`, `missing-field`); a blank file is no servers;
//! - each server is read alone, by its `type` (none: `stdio`): a server Claude Code skips ("Skipped
//!   — invalid MCP server config for ...", an unknown or refused `type`, a `url` without `type`, a
//!   reserved name) is an error on the exact key or value with the effect `value-ignored` (the
//!   server does not start; the others load): `invalid-type`, `invalid-value`, `missing-field`,
//!   `invalid-name`;
//! - a key Claude Code drops without a word is an `unknown-key` warning with a did-you-mean;
//! - blanks around a command, URL, argument, variable or header are a warning (Claude Code says
//!   so and uses them as written); `${VAR}` where Claude Code leaves it as written (in `oauth`;
//!   opencode's `{env:VAR}`; a form it does not expand) is `unsubstituted-variable`. Claude Code
//!   replaces `${VAR}` and `${VAR:-default}` in `command`, `args`, `env` values, `url` and
//!   `headers` values; whether a variable is set is known only where it runs (it warns "Missing
//!   environment variables" and keeps the text), so that is not reported.
//!
//! A server it keeps still waits for each user's approval (`enabledMcpjsonServers` and the
//! other settings, which count only once the folder is trusted): that is [`names`]' business.
//! Measured with `claude mcp list` on 1,118 servers: every one it skips has an error here on its
//! line, none it keeps has one (`tests/claude_runtime/mcp_json.rs`).
//!
//! Completion and hover come from the same table ([`complete`], [`hover`]). What the file
//! declares ([`McpFile`]) serves the cross-file checks ([`names`]).

pub mod names;
pub mod schema;

mod editor;

pub use editor::{complete, hover};

use super::plugin::{strict_json, strict_json_fix};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Location, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Dropped, Issue, IssueKind, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Key, Map, Node, Parsed, Value, jsonc};
use crate::analysis::text::Span;

/// Why Claude Code skips a server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// A name it keeps for itself (`__proto__`, `workspace`, ...).
    Reserved,
    /// A `type` it does not know.
    UnknownType,
    /// `sdk` or `claudeai-proxy`, which no configuration file may declare.
    RefusedType,
    /// A `url` but no `type` (and no `command`).
    UrlWithoutType,
    /// The transport's schema refuses it: the paths of the reasons, as Claude Code writes them
    /// (`args.0`, `(root)`).
    Invalid(Vec<String>),
}

/// One server of `mcpServers` (of a key written twice, the last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    pub name: String,
    /// Its key.
    pub key: Span,
    /// Why Claude Code skips it; `None`: it loads.
    pub skip: Option<Skip>,
    /// `stdio`, `sse`, `http`, `ws` when it loads.
    pub transport: Option<&'static str>,
}

/// What one `.mcp.json` declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct McpFile {
    /// Claude Code reads the servers (the file parses and has an `mcpServers` object, or is
    /// blank).
    pub read: bool,
    pub servers: Vec<Server>,
}

impl McpFile {
    /// The server whose key holds byte `offset`.
    pub fn server_at(&self, offset: usize) -> Option<&Server> {
        self.servers.iter().find(|s| s.key.contains(offset))
    }
}

/// Analyse a `.mcp.json`: diagnostics, the parsed tree and the servers it declares.
pub fn analyze(text: &str) -> (Vec<Diagnostic>, Parsed, McpFile) {
    analyze_as(text, false)
}

/// A plugin's `.mcp.json` (at its root, or a file its manifest's `mcpServers` names), as Claude
/// Code 2.1.332 reads it: the servers under `mcpServers`, or, without that key, the whole object
/// as the servers by name (seen with the runtime: `{"good": {"command": ...}}` starts
/// `plugin:kit:good`). Each server is checked as in a project's `.mcp.json`; one Claude Code
/// refuses is dropped alone.
pub fn analyze_plugin(text: &str) -> (Vec<Diagnostic>, Parsed, McpFile) {
    analyze_as(text, true)
}

fn analyze_as(text: &str, plugin: bool) -> (Vec<Diagnostic>, Parsed, McpFile) {
    let mut out = Vec::new();
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if body.trim().is_empty() {
        // Claude Code reads a blank file as no servers.
        return (
            out,
            Parsed::default(),
            McpFile {
                read: true,
                servers: Vec::new(),
            },
        );
    }
    let parsed = jsonc::parse(text);
    let not_json = |message: &str| {
        Diagnostic::new(
            Code::SyntaxError,
            Span::default(),
            format!("{message}: Claude Code cannot parse `.mcp.json` (\"MCP config is not a valid JSON\") and loads none of its servers"),
        )
        .with_effect(Effect::FileIgnored)
    };
    for e in &parsed.errors {
        let mut d = not_json(&e.message);
        d.span = e.span;
        out.push(d);
    }
    for (span, what) in strict_json(text) {
        let mut d = not_json(&format!("{what} (the file is read as strict JSON)"));
        d.span = span;
        out.push(strict_json_fix(d, what));
    }
    if !out.is_empty() {
        out.sort_by_key(|d| (d.span.start, d.span.end));
        return (out, parsed, McpFile::default());
    }
    for dup in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                dup.first,
                format!(
                    "\"{}\" is set again later in this object: Claude Code keeps only the last value, so this one is ignored",
                    dup.name
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored)
            .with_related(Location::Here(dup.duplicate), "the value that wins"),
        );
    }
    let mut file = McpFile::default();
    match (&parsed.root, plugin) {
        (Some(root), true) if root.as_map().is_some_and(|m| !m.contains("mcpServers")) => {
            // The servers by name, at the top.
            file.read = true;
            for (key, value) in root.as_map().into_iter().flat_map(|m| m.js_entries()) {
                let server = check_server(key, value, text, &mut out);
                file.servers.push(server);
            }
        }
        (Some(root), _) => check_root(root, text, &mut file, &mut out),
        (None, _) => {}
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, file)
}

fn check_root(root: &Node, text: &str, file: &mut McpFile, out: &mut Vec<Diagnostic>) {
    let map = match &root.value {
        Value::Map(map) => map,
        Value::Unknown => return,
        _ => {
            let why = if matches!(root.value, Value::Null) {
                "\"MCP config is not a valid JSON\""
            } else {
                "\"Invalid input: expected object\""
            };
            out.push(
                Diagnostic::new(
                    Code::InvalidType,
                    root.span,
                    format!(
                        "`.mcp.json` must hold an object (`{{\"mcpServers\": {{...}}}}`), got {}: Claude Code loads none of its servers ({why})",
                        root.type_name()
                    ),
                )
                .with_effect(Effect::FileIgnored),
            );
            return;
        }
    };
    let Shape::Object(top) = &schema::FILE else { return };
    // Without `mcpServers`, the key that reads like it (`servers`, `mcp_servers`, ...) carries
    // the error that no server loads, with the rename.
    let stand_in = match map.value("mcpServers") {
        None => map
            .js_entries()
            .into_iter()
            .map(|(k, _)| k)
            .find(|k| top.field(&k.name).is_none() && top.suggest(&k.name) == Some("mcpServers")),
        Some(_) => None,
    };
    for (key, _) in map.js_entries() {
        if top.field(&key.name).is_some() || stand_in.is_some_and(|s| s.span == key.span) {
            continue;
        }
        out.push(unknown_top_key(key, top.suggest(&key.name), map));
    }
    match map.value("mcpServers") {
        None => {
            let (span, tail) = match stand_in {
                Some(k) => (
                    k.span,
                    format!(" It has `{}`: Claude Code reads servers from `mcpServers` only", k.name),
                ),
                None => (Span::new(root.span.start as usize, root.span.start as usize + 1), String::new()),
            };
            let mut d = Diagnostic::new(
                Code::MissingField,
                span,
                format!("`.mcp.json` has no `mcpServers` object: Claude Code loads none of its servers.{tail}"),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored);
            if let Some(k) = stand_in {
                d = d.with_fix(
                    format!("Rename `{}` to `mcpServers`", k.name),
                    vec![Edit::new(k.span, "\"mcpServers\"")],
                    true,
                );
            }
            out.push(d);
        }
        Some(node) => match &node.value {
            Value::Map(servers) => {
                file.read = true;
                for (key, value) in servers.js_entries() {
                    let server = check_server(key, value, text, out);
                    file.servers.push(server);
                }
            }
            Value::Unknown => file.read = true,
            _ => out.push(
                Diagnostic::new(
                    Code::InvalidType,
                    node.span,
                    format!(
                        "`mcpServers` must be an object of servers by name, got {}: Claude Code loads none of the servers of this file",
                        got_text(node)
                    ),
                )
                .with_effect(Effect::FileIgnored),
            ),
        },
    }
}

/// A top-level key other than `mcpServers`: dropped.
fn unknown_top_key(key: &Key, suggestion: Option<&'static str>, map: &Map) -> Diagnostic {
    // `servers` is reported with the missing `mcpServers`, when it is.
    let suggestion = suggestion.filter(|s| !map.contains(s));
    let d = Diagnostic::new(
        Code::UnknownKey,
        key.span,
        format!(
            "`{}` is not a key of `.mcp.json`: Claude Code drops it without a word (it reads `mcpServers` only).{}",
            key.name,
            did_you_mean(suggestion)
        ),
    );
    match suggestion {
        Some(s) => d.with_suggestion(key.span, format!("\"{s}\"")),
        None => d,
    }
}

/// The effect of a refused server, for messages.
fn skipped(name: &str) -> String {
    format!("Claude Code skips the server `{name}` (the others load)")
}

fn check_server(key: &Key, value: &Node, text: &str, out: &mut Vec<Diagnostic>) -> Server {
    let name = key.name.as_str();
    let mut server = Server {
        name: name.to_string(),
        key: key.span,
        skip: None,
        transport: None,
    };
    let error = |code: Code, span: Span, message: String| {
        Diagnostic::new(code, span, message)
            .with_severity(Severity::Error)
            .with_effect(Effect::ValueIgnored)
    };
    if schema::PROTO_NAMES.contains(&name) {
        out.push(error(
            Code::InvalidName,
            key.span,
            format!(
                "\"{name}\" is a reserved MCP server name (a property of every JavaScript object): {}",
                skipped(name)
            ),
        ));
        server.skip = Some(Skip::Reserved);
        return server;
    }
    if value.is_unknown() {
        return server;
    }
    let map = value.as_map();
    let ty_node = map.and_then(|m| m.value("type"));
    let ty = ty_node.and_then(Node::as_str);
    if let (Some(t), Some(tn)) = (ty, ty_node)
        && schema::transport(Some(t)).is_none()
    {
        if let Some((_, why)) = schema::REFUSED_TYPES.iter().find(|(r, _)| *r == t) {
            out.push(error(
                Code::InvalidValue,
                tn.span,
                format!(
                    "a server of `.mcp.json` cannot have `\"type\": \"{t}\"`: {why}. {}",
                    skipped(name)
                ),
            ));
            server.skip = Some(Skip::RefusedType);
        } else {
            let types = schema::TRANSPORTS.iter().map(|(t, _)| *t);
            let near = closest(t, types.clone()).or_else(|| {
                schema::TRANSPORTS
                    .iter()
                    .map(|(t, _)| *t)
                    .find(|k| k.eq_ignore_ascii_case(t))
            });
            let mut d = error(
                Code::InvalidValue,
                tn.span,
                format!(
                    "unknown MCP server type \"{t}\": the type is `stdio`, `sse`, `http` (or `streamable-http`) or `ws`; {}{}",
                    skipped(name),
                    then_did_you_mean(near)
                ),
            );
            if let Some(n) = near {
                d = d.with_suggestion(tn.span, format!("\"{n}\""));
            }
            out.push(d);
            server.skip = Some(Skip::UnknownType);
        }
        return server;
    }
    let Some(shape) = schema::transport(ty) else {
        return server;
    };
    let decoded = shape::decode(value, shape, key.span, &[]);
    let url_without_type = map.is_some_and(|m| !m.contains("type") && m.contains("url") && !m.contains("command"));
    if decoded.refused() && url_without_type {
        let mut d = error(
            Code::MissingField,
            key.span,
            format!(
                "the server `{name}` has a `url` but no `type`: Claude Code reads it as a local server, which needs a `command`, so it skips it (the others load). Add `\"type\": \"http\"` (or `\"sse\"` / `\"ws\"`)"
            ),
        );
        if value.span.text(text).starts_with('{') {
            let at = value.span.start as usize + 1;
            d = d.with_fix(
                "Add `\"type\": \"http\"`",
                vec![Edit::new(Span::new(at, at), "\"type\": \"http\", ")],
                false,
            );
        }
        out.push(d);
        server.skip = Some(Skip::UrlWithoutType);
    } else if decoded.refused() {
        let mut paths = Vec::new();
        for issue in &decoded.issues {
            paths.push(if issue.path.is_empty() {
                "(root)".to_string()
            } else {
                issue.path.join(".")
            });
            out.push(decoded.finding(issue, issue_diagnostic(issue, name)));
        }
        server.skip = Some(Skip::Invalid(paths));
    } else if schema::is_reserved(name) {
        out.push(error(
            Code::InvalidName,
            key.span,
            format!(
                "\"{name}\" is a reserved MCP server name (Claude Code keeps `{}` for a server of its own): {}",
                schema::tool_prefix(name),
                skipped(name)
            ),
        ));
        server.skip = Some(Skip::Reserved);
    } else {
        server.transport = Some(match ty.unwrap_or("stdio") {
            "streamable-http" => "http",
            t => schema::TRANSPORTS
                .iter()
                .map(|(n, _)| *n)
                .find(|n| *n == t)
                .unwrap_or("stdio"),
        });
    }
    let other_transports: Vec<&Shape> = schema::TRANSPORTS
        .iter()
        .map(|(_, s)| *s)
        .filter(|s| !std::ptr::eq(*s, shape))
        .collect();
    for d in &decoded.dropped {
        // A remote server without `type`: its remote fields are what the error is about.
        let remote_field = d.path.is_empty()
            && other_transports
                .iter()
                .any(|s| matches!(s, Shape::Object(o) if o.field(&d.key.name).is_some()));
        if server.skip == Some(Skip::UrlWithoutType) && remote_field {
            continue;
        }
        if decoded.misspelt(d) {
            continue;
        }
        out.push(dropped(d, name, &other_transports));
    }
    if server.skip.is_none()
        && let Some(map) = map
    {
        blanks(map, name, out);
        variables(map, out);
    }
    server
}

/// `. Did you mean `x`?` after a sentence, or nothing.
fn then_did_you_mean(suggestion: Option<&str>) -> String {
    match suggestion {
        Some(_) => format!(".{}", did_you_mean(suggestion)),
        None => String::new(),
    }
}

/// Where a refused value is, for messages: `` `args.0` `` of the server, or the server itself.
fn subject(path: &[String], name: &str) -> String {
    if path.is_empty() {
        format!("the server `{name}`")
    } else {
        format!("`{}`", path.join("."))
    }
}

/// A value as a message shows it: its type, and the value when that says more (`a number (5)`,
/// `null`).
fn got_text(node: &Node) -> String {
    let (t, d) = (node.type_name(), node.display());
    if d == t { t.to_string() } else { format!("{t} ({d})") }
}

fn issue_diagnostic(issue: &Issue, name: &str) -> Diagnostic {
    let what = subject(&issue.path, name);
    let skip = skipped(name);
    let (code, message, suggestion) = match &issue.kind {
        IssueKind::Type { expected, got } => (
            Code::InvalidType,
            format!(
                "{what} must be {}, got {}: {skip}",
                shape::describe(expected),
                got_text(got)
            ),
            None,
        ),
        IssueKind::Value { expected, got } => {
            let literals = shape::string_literals(expected);
            let near = got.as_str().and_then(|s| closest(s, literals.iter().copied()));
            (
                Code::InvalidValue,
                format!(
                    "{what} must be {}, got {}: {skip}{}",
                    shape::describe(expected),
                    got.display(),
                    then_did_you_mean(near)
                ),
                near.map(|n| (got.span, format!("\"{n}\""))),
            )
        }
        IssueKind::Number { num, got } => (
            Code::InvalidValue,
            format!("{what} must be {}, got {}: {skip}", num.describe(), got.display()),
            None,
        ),
        IssueKind::Missing { object, field } => {
            let parent = subject(&issue.path[..issue.path.len().saturating_sub(1)], name);
            (
                Code::MissingField,
                format!("{parent} has no `{}`, which {} needs: {skip}", field.name, object.what),
                None,
            )
        }
        IssueKind::Unknown { object } => (
            Code::UnknownKey,
            format!("{what} is not a field of {}: {skip}", object.what),
            None,
        ),
        IssueKind::Extra { tuple } | IssueKind::MissingItem { tuple } => (
            Code::InvalidValue,
            format!("{what} must be {}: {skip}", shape::describe(tuple)),
            None,
        ),
        IssueKind::NoBranch { union, got, .. } => (
            Code::InvalidType,
            format!(
                "{what} must be {}, got {}: {skip}",
                shape::describe(union),
                got.display()
            ),
            None,
        ),
    };
    let d = Diagnostic::new(code, issue.span, message)
        .with_severity(Severity::Error)
        .with_effect(Effect::ValueIgnored);
    match suggestion {
        Some((span, text)) => d.with_suggestion(span, text),
        None => d,
    }
}

/// A key Claude Code drops: a field of another transport, or unknown (with a did-you-mean).
fn dropped(d: &Dropped, name: &str, others: &[&Shape]) -> Diagnostic {
    let key = d.key.name.as_str();
    let at = if d.path.is_empty() {
        format!("the server `{name}`")
    } else {
        format!("`{}` of the server `{name}`", d.path.join("."))
    };
    let elsewhere = d.path.is_empty()
        && others
            .iter()
            .any(|s| matches!(s, Shape::Object(o) if o.field(key).is_some()));
    if elsewhere {
        return Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{key}` is not read for {} (it is a field of another transport): Claude Code drops it from {at} without a word",
                d.object.what
            ),
        );
    }
    let suggestion = d.object.suggest(key);
    let hint = match key {
        "cwd" => " Claude Code has no working-directory setting for a server.",
        "disabled" | "enabled" => {
            " To turn a server of `.mcp.json` off, list it in `disabledMcpjsonServers` of `.claude/settings.local.json`."
        }
        _ => "",
    };
    let diag = Diagnostic::new(
        Code::UnknownKey,
        d.key.span,
        format!(
            "`{key}` is not a field of {}: Claude Code drops it from {at} without a word.{}{hint}",
            d.object.what,
            did_you_mean(suggestion)
        ),
    );
    match suggestion {
        Some(s) => diag.with_suggestion(d.key.span, format!("\"{s}\"")),
        None => diag,
    }
}

/// Blanks at either end of a command, URL, argument, variable or header (name or value):
/// Claude Code warns and uses them as written.
fn blanks(map: &Map, name: &str, out: &mut Vec<Diagnostic>) {
    let padded = |s: &str| s != s.trim();
    let mut warn = |span: Span, what: String| {
        out.push(
            Diagnostic::new(
                Code::InvalidValue,
                span,
                format!(
                    "{what} starts or ends with a blank: Claude Code warns \"Leading or trailing whitespace\" for the server `{name}` and uses it as written, so the server may not start or connect"
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::FailsWhenUsed),
        );
    };
    for (key, value) in map.js_entries() {
        match (key.name.as_str(), &value.value) {
            ("command" | "url", Value::Str(s)) if padded(s) => warn(value.span, format!("`{}`", key.name)),
            ("args", Value::Seq(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if item.as_str().is_some_and(padded) {
                        warn(item.span, format!("`args.{i}`"));
                    }
                }
            }
            ("env" | "headers", Value::Map(m)) => {
                let noun = if key.name == "env" { "variable" } else { "header" };
                for (k, v) in m.js_entries() {
                    if padded(&k.name) {
                        warn(k.span, format!("the {noun} name `{}`", k.name));
                    }
                    if v.as_str().is_some_and(padded) {
                        warn(v.span, format!("`{}.{}`", key.name, k.name));
                    }
                }
            }
            _ => {}
        }
    }
}

/// `${...}` where Claude Code leaves it as written.
fn variables(map: &Map, out: &mut Vec<Diagnostic>) {
    let mut warn = |node: &Node, message: String| {
        out.push(Diagnostic::new(Code::UnsubstitutedVariable, node.span, message));
    };
    for (key, value) in map.js_entries() {
        let expanded = matches!(key.name.as_str(), "command" | "args" | "env" | "url" | "headers");
        let strings: Vec<(String, &Node)> = match &value.value {
            Value::Str(_) => vec![(format!("`{}`", key.name), value)],
            Value::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(i, n)| (format!("`{}.{i}`", key.name), n))
                .collect(),
            Value::Map(m) => m
                .js_entries()
                .into_iter()
                .map(|(k, n)| (format!("`{}.{}`", key.name, k.name), n))
                .collect(),
            _ => Vec::new(),
        };
        for (what, node) in strings {
            let Some(s) = node.as_str() else { continue };
            if expanded {
                if let Some(form) = unexpanded_form(s) {
                    warn(
                        node,
                        format!(
                            "{what} holds `{form}`, which Claude Code does not expand: it replaces `${{VAR}}` and `${{VAR:-default}}` only, and sends the rest as written"
                        ),
                    );
                }
            } else if key.name == "oauth"
                && let Some(var) = expansion(s)
            {
                warn(
                    node,
                    format!(
                        "{what} holds `{var}`, but Claude Code replaces variables only in `command`, `args`, `env`, `url` and `headers`: this value is used as written"
                    ),
                );
            }
        }
    }
}

/// The first `${NAME}` or `${NAME:-default}` of `s` (what Claude Code expands).
fn expansion(s: &str) -> Option<&str> {
    let mut rest = s;
    let mut offset = 0;
    while let Some(i) = rest.find("${") {
        let start = offset + i;
        let after = &s[start + 2..];
        let end = after.find('}')?;
        let inner = &after[..end];
        let name = inner.split_once(":-").map_or(inner, |(n, _)| n);
        if is_var_name(name) {
            return Some(&s[start..start + 2 + end + 1]);
        }
        offset = start + 2;
        rest = &s[offset..];
    }
    None
}

fn is_var_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A variable written in a form Claude Code does not expand: opencode's `{env:VAR}`, or a
/// `${...}` that is not `${NAME}` or `${NAME:-default}` (`${VAR-x}`, `${env:VAR}`, `${1}`).
fn unexpanded_form(s: &str) -> Option<&str> {
    if let Some(i) = s.find("{env:")
        && (i == 0 || !s[..i].ends_with('$'))
        && let Some(end) = s[i..].find('}')
    {
        return Some(&s[i..i + end + 1]);
    }
    let mut from = 0;
    while let Some(i) = s[from..].find("${") {
        let start = from + i;
        let end = s[start + 2..].find('}')?;
        let inner = &s[start + 2..start + 2 + end];
        let name = inner.split_once(":-").map_or(inner, |(n, _)| n);
        if !is_var_name(name) {
            return Some(&s[start..start + 2 + end + 1]);
        }
        from = start + 2 + end + 1;
    }
    None
}

#[cfg(test)]
mod tests;
