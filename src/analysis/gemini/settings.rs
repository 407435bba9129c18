//! A `settings.json` as Gemini CLI 0.61.0 reads it (the user's `~/.gemini/settings.json`, a
//! project's `.gemini/settings.json`).
//!
//! Gemini CLI strips comments, parses the rest with `JSON.parse` (a trailing comma or any other
//! syntax error stops it: "Please fix the configuration file(s) and try again"), expands `$VAR`
//! in strings, then validates the object against its settings schema
//! ([`super::settings_schema`], generated from the release). A value of the wrong type is a
//! warning it prints at every start ("Invalid configuration in ...: Error in: general.vimMode
//! Expected boolean, received string", five at most), and the value is then used as written. A
//! key no setting has is kept without a word, so a misspelt or old (v1, flat) key does nothing;
//! only an MCP server refuses keys it does not know (with the same warning). The flat v1 keys
//! are named with where they live now ([`super::v1`]).

use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::edit::Doc;
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Dropped, Issue, IssueKind, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Map, Node, Parsed, Value};
use crate::analysis::text::Span;

#[cfg(test)]
use super::loose::reads_as_number;
use super::loose::{READS_AS_BOOL, READS_AS_NUMBER};
use super::words::got_text;

/// What a settings file declares that other checks read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// `context.fileName`, as written (a string or the strings of an array): the names Gemini CLI
    /// reads as context files instead of `GEMINI.md`.
    pub context_file_names: Option<Vec<String>>,
}

/// Check a `settings.json` (the user's and a project's alike: one validator reads both).
pub fn check(text: &str, parsed: &Parsed) -> (Vec<Diagnostic>, Settings) {
    let mut out = Vec::new();
    for e in &parsed.errors {
        out.push(refuses_to_start(e.span, format!("{}: Gemini CLI cannot parse this settings.json and does not start (\"Please fix the configuration file(s) and try again\")", e.message)));
    }
    // `JSON.parse` of the text as read: a byte order mark is a character it refuses.
    if text.starts_with('\u{feff}') {
        out.push(
            refuses_to_start(
                Span::new(0, 3),
                "a byte order mark (BOM) starts the file: Gemini CLI parses settings.json with `JSON.parse`, which refuses it (\"Unexpected token\"), and does not start".to_string(),
            )
            .with_fix("Remove the byte order mark", vec![Edit::new(Span::new(0, 3), "")], true),
        );
    }
    // `JSON.parse` after the comments are stripped: a trailing comma stops it too.
    if parsed.errors.is_empty() {
        for (span, what) in crate::analysis::syntax::strict::strict_json(text) {
            if what.starts_with("a trailing comma") {
                let d = refuses_to_start(
                    span,
                    format!(
                        "{what}: Gemini CLI reads settings.json as JSON with comments, and a trailing comma stops it (\"Please fix the configuration file(s) and try again\")"
                    ),
                );
                out.push(crate::analysis::syntax::strict::strict_json_fix(d, what));
            }
        }
    }
    for dup in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                dup.duplicate,
                format!(
                    "`{}` is written twice in this object: Gemini CLI reads the last one",
                    dup.name
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
    }
    let Some(root) = &parsed.root else {
        return (out, Settings::default());
    };
    let Some(map) = root.as_map() else {
        if !root.is_unknown() {
            out.push(refuses_to_start(
                root.span,
                "a settings.json must hold an object: Gemini CLI says \"Settings file is not a valid JSON object\" and does not start".to_string(),
            ));
        }
        return (out, Settings::default());
    };
    let doc = Doc { text, yaml: false };
    let decoded = shape::decode(root, &super::settings_schema::SETTINGS, Span::new(0, 0), &[]);
    for issue in &decoded.issues {
        out.push(issue_finding(issue, root, &doc));
    }
    for d in decoded.dropped.iter().chain(&decoded.kept) {
        out.push(dropped(d, root, &doc));
    }
    mcp_arg_strings(map, &mut out);
    whole_shell_allowed(map, &mut out);
    (out, settings_of(map))
}

/// `broad-grant`: `run_shell_command` without a command in `tools.allowed`, which lets every
/// shell command past the confirmation dialog, unless `tools.confirmationRequired` (which takes
/// precedence) or `tools.exclude` names the tool again.
fn whole_shell_allowed(map: &Map, out: &mut Vec<Diagnostic>) {
    const SHELL: &str = "run_shell_command";
    // A file Gemini CLI refuses grants nothing: that error is the finding.
    if out.iter().any(|d| d.severity == Severity::Error) {
        return;
    }
    let Some(tools) = map.value("tools").and_then(Node::as_map) else {
        return;
    };
    let names = |key: &str| -> Vec<&Node> {
        match tools.value(key).map(|v| &v.value) {
            Some(Value::Seq(items)) => items.iter().collect(),
            _ => Vec::new(),
        }
    };
    let whole = |n: &&Node| n.as_str().is_some_and(|s| s.trim() == SHELL);
    if names("confirmationRequired").iter().chain(&names("exclude")).any(whole) {
        return;
    }
    for item in names("allowed").into_iter().filter(whole) {
        out.push(Diagnostic::new(
            Code::BroadGrant,
            item.span,
            "`run_shell_command` in `tools.allowed` lets every shell command the model chooses past the confirmation dialog, for everyone who uses this file: name the commands instead, as in `run_shell_command(npm test)`",
        ));
    }
}

fn refuses_to_start(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::SyntaxError, span, message)
        .with_severity(Severity::Error)
        .with_effect(Effect::RefusesToStart)
}

/// "`a.b.c`", as Gemini CLI names a setting (`mcpServers.docs.args`, an index as `[0]`).
pub fn dotted(path: &[String]) -> String {
    let mut s = String::new();
    for k in path {
        if !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()) {
            s.push_str(&format!("[{k}]"));
        } else {
            if !s.is_empty() {
                s.push('.');
            }
            s.push_str(k);
        }
    }
    s
}

/// What Gemini CLI says a shape expects, in its words: a boolean, a number.
fn expected(shape: &Shape) -> String {
    match shape {
        Shape::Union([Shape::Bool, Shape::Pattern(_, w)]) if *w == READS_AS_BOOL => "a boolean (true or false)".into(),
        Shape::Union([Shape::Num(_), Shape::Pattern(_, w)]) if *w == READS_AS_NUMBER => "a number".into(),
        Shape::Union(members) => {
            let parts: Vec<String> = members.iter().map(expected).collect();
            shape::either(parts)
        }
        other => shape::describe(other),
    }
}

/// Whether `shape` is a boolean or a number that zod also reads from a string.
fn loose(shape: &Shape) -> bool {
    matches!(shape, Shape::Union([Shape::Bool | Shape::Num(_), Shape::Pattern(_, w)]) if *w == READS_AS_BOOL || *w == READS_AS_NUMBER)
}

const WARNS: &str =
    "Gemini CLI warns at every start (\"Invalid configuration in .../settings.json\") and uses the value as written";

fn warn(code: Code, span: Span, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Warning)
        .with_effect(Effect::FailsWhenUsed)
}

fn issue_finding(issue: &Issue, root: &Node, doc: &Doc) -> Diagnostic {
    let what = format!("`{}`", dotted(&issue.path));
    let (code, message, suggestion) = match &issue.kind {
        IssueKind::Type { expected: e, got } | IssueKind::NoBranch { union: e, got, .. } => {
            // A flat (v1) setting written at the top level where a section now is (`"model":
            // "gemini-2.5-pro"`): the section's setting is meant.
            if let [key] = issue.path.as_slice()
                && let Some(to) = super::v1::moved(key)
            {
                let mut d = warn(
                    Code::InvalidType,
                    issue.span,
                    format!(
                        "{what} is a section of settings now, not {}: {WARNS}. This is the old flat form of `{to}`",
                        got_text(got)
                    ),
                );
                if let Some(fix) = super::v1::fix(root, key, to, doc) {
                    d = d.with_fix(format!("Move it to `{to}`"), fix, true);
                }
                return d;
            }
            (
                Code::InvalidType,
                format!("{what} must be {}, not {}: {WARNS}", expected(e), got_text(got)),
                None,
            )
        }
        // A string where a boolean or a number goes: zod's type error.
        IssueKind::Value { expected: e, got } if loose(e) => (
            Code::InvalidType,
            format!("{what} must be {}, not {}: {WARNS}", expected(e), got_text(got)),
            None,
        ),
        IssueKind::Value { expected: e, got } => {
            let literals = shape::string_literals(e);
            let near = got.as_str().and_then(|s| closest(s, literals.iter().copied()));
            (
                Code::InvalidValue,
                format!(
                    "{what} must be {}, not {}: {WARNS}.{}",
                    expected(e),
                    got.display(),
                    did_you_mean(near)
                ),
                near.map(|n| (got.span, format!("\"{n}\""))),
            )
        }
        IssueKind::Number { num, got } => (
            Code::InvalidValue,
            format!("{what} must be {}, not {}: {WARNS}", num.describe(), got.display()),
            None,
        ),
        IssueKind::Missing { object, field } => {
            let parent = dotted(&issue.path[..issue.path.len().saturating_sub(1)]);
            (
                Code::MissingField,
                format!(
                    "`{parent}` has no `{}`, which {} needs: {WARNS}",
                    field.name, object.what
                ),
                None,
            )
        }
        IssueKind::Unknown { object } => {
            let key = issue.path.last().map(String::as_str).unwrap_or_default();
            let near = object.suggest(key);
            let parent = dotted(&issue.path[..issue.path.len().saturating_sub(1)]);
            (
                Code::UnknownKey,
                format!(
                    "`{key}` is not a field of {} (`{parent}`): Gemini CLI warns at every start (\"Unrecognized key(s) in object: '{key}'\") and does not read it.{}",
                    object.what,
                    did_you_mean(near)
                ),
                near.map(|n| (issue.span, format!("\"{n}\""))),
            )
        }
        IssueKind::Extra { tuple } | IssueKind::MissingItem { tuple } => (
            Code::InvalidValue,
            format!("{what} must be {}: {WARNS}", shape::describe(tuple)),
            None,
        ),
    };
    let mut d = warn(code, issue.span, message);
    if code == Code::UnknownKey {
        d = d.with_effect(Effect::ValueIgnored);
    }
    match suggestion {
        Some((span, text)) => d.with_suggestion(span, text),
        None => d,
    }
}

/// A key Gemini CLI keeps without reading it.
fn dropped(d: &Dropped, root: &Node, doc: &Doc) -> Diagnostic {
    let name = &d.key.name;
    let at = if d.path.is_empty() {
        String::new()
    } else {
        format!(" in `{}`", dotted(&d.path))
    };
    // A flat (v1) key at the top level: where it lives now.
    if d.path.is_empty()
        && let Some(to) = super::v1::moved(name)
    {
        let mut diag = Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{name}` is the old flat form of `{to}`: Gemini CLI reads only the nested form now and ignores `{name}` without a word"
            ),
        );
        if let Some(fix) = super::v1::fix(root, name, to, doc) {
            diag = diag.with_fix(format!("Move it to `{to}`"), fix, true);
        }
        return diag;
    }
    if d.path.is_empty() && super::v1::RETIRED.contains(&name.as_str()) {
        return Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{name}` is a setting of Gemini CLI's old flat form that it no longer has anywhere: it is ignored without a word"
            ),
        );
    }
    let near = d.object.suggest(name);
    let mut diag = Diagnostic::new(
        Code::UnknownKey,
        d.key.span,
        format!(
            "Gemini CLI has no setting `{name}`{at} and ignores it without a word.{}",
            did_you_mean(near)
        ),
    );
    if let Some(n) = near {
        diag = diag.with_suggestion(d.key.span, format!("\"{n}\""));
    }
    diag
}

/// `args` written as one string: besides the warning, `gemini mcp list` stops on it
/// (`TypeError: server.args?.join is not a function`). Said in the type finding's words.
fn mcp_arg_strings(map: &Map, out: &mut [Diagnostic]) {
    let Some(servers) = map.value("mcpServers").and_then(Node::as_map) else {
        return;
    };
    for e in servers.entries.iter() {
        let Some(args) = e.value.as_map().and_then(|m| m.value("args")) else {
            continue;
        };
        if let Value::Str(s) = &args.value
            && let Some(d) = out
                .iter_mut()
                .find(|d| d.span == args.span && d.code == Code::InvalidType)
        {
            d.message
                .push_str(". `gemini mcp list` stops on it (\"server.args?.join is not a function\")");
            let items: Vec<String> = s
                .split_whitespace()
                .map(|a| serde_json::Value::String(a.to_string()).to_string())
                .collect();
            let list = format!("[{}]", items.join(", "));
            *d = d.clone().with_fix(
                "Write the arguments as an array",
                vec![Edit::new(args.span, list)],
                false,
            );
        }
    }
}

fn settings_of(map: &Map) -> Settings {
    let context_file_names = map
        .value("context")
        .and_then(Node::as_map)
        .and_then(|m| m.value("fileName"))
        .and_then(|v| match &v.value {
            Value::Str(s) => Some(vec![s.clone()]),
            Value::Seq(items) => Some(items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect()),
            _ => None,
        });
    Settings { context_file_names }
}

#[cfg(test)]
mod tests;
