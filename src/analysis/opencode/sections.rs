//! Every section of `opencode.json(c)` that has no rules of its own (agents, permissions,
//! commands and models do), decoded as opencode 1.18.34 decodes it ([`config_schema::CONFIG`]
//! through [`shape::decode`]):
//!
//! - a value opencode refuses is an error on that value, with opencode's reason and path
//!   (`invalid-type`, `invalid-value`, `missing-field`; effect `refuses-to-start`);
//! - a key opencode drops without a word is an `unknown-key` warning on that key, with a
//!   did-you-mean and its replacement (`env` → `environment`);
//! - the V2 spellings 1.18 converts (`skills` as a list, `compaction.keep`,
//!   `experimental.subagent_depth`, an MCP server's `disabled`) are said to be converted;
//! - a custom language server without `extensions`, which opencode drops, is reported;
//! - `${VAR}`, which opencode leaves as it is (it substitutes `{env:VAR}`), is a warning with
//!   the `{env:VAR}` replacement (`unsubstituted-variable`);
//! - the paths opencode looks up on disk (`instructions`, `skills.paths`, local `references`,
//!   local plugins) are handed to the workspace as [`PathRef`]s, which reports those that match
//!   nothing (`missing-path`).

use super::config_schema::{BUILTIN_LSP_SERVERS, CONFIG, OWN_RULES};
use super::ctx::{Ctx, type_error};
pub use super::decl::{PathKind, PathRef};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Decoded, Dropped, Issue, IssueKind, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Entry, Node, Value};
use crate::analysis::text::Span;

/// The top-level fields these checks decode (the others have rules of their own).
pub fn decodes(key: &str) -> bool {
    let Shape::Object(top) = &CONFIG else { return false };
    top.field(key).is_some() && !OWN_RULES.contains(&key)
}

/// Check one top-level entry of the config (one that [`decodes`]), the one that wins when the
/// key is written twice.
pub fn check(entry: &Entry, ctx: &Ctx, paths: &mut Vec<PathRef>, out: &mut Vec<Diagnostic>) {
    let Shape::Object(top) = &CONFIG else { return };
    let Some(field) = top.field(&entry.key.name) else {
        return;
    };
    let key = entry.key.name.as_str();
    let v = &entry.value;
    // The V2 spelling of `skills`: a list, split into paths and URLs.
    if key == "skills"
        && let Value::Seq(items) = &v.value
        && items.iter().all(|i| i.as_str().is_some() || i.is_unknown())
    {
        out.push(
            Diagnostic::new(
                Code::DeprecatedField,
                entry.key.span,
                "a list for `skills` is opencode V2's spelling; opencode 1.18 converts it (URLs into `skills.urls`, the rest into `skills.paths`). Write `{\"paths\": [...], \"urls\": [...]}`",
            )
            .with_effect(Effect::Works),
        );
        for i in items {
            if let Some(s) = i.as_str().filter(|s| !is_url(s)) {
                paths.push(path_ref(PathKind::SkillsPath, s, i.span));
            }
        }
        return;
    }
    let path = vec![key.to_string()];
    let mut decoded = shape::decode(v, &field.shape, entry.key.span, &path);
    v2_conversions(&mut decoded, out);
    report(&decoded, ctx, out);
    if key == "lsp" {
        custom_lsp_without_extensions(v, out);
    }
    if key == "skills" {
        skill_urls(v, out);
    }
    if key == "plugin" {
        repeated_plugins(v, out);
    }
    variables(v, ctx.text, out);
    collect_paths(key, v, paths);
}

/// Whether a string is a URL (which opencode fetches instead of reading a file).
fn is_url(s: &str) -> bool {
    let lower = s.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

fn path_ref(kind: PathKind, s: &str, span: Span) -> PathRef {
    PathRef {
        kind,
        text: s.to_string(),
        span,
    }
}

// ---------------------------------------------------------------------------------------------
// Messages

fn report(decoded: &Decoded, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for issue in &decoded.issues {
        out.push(decoded.finding(issue, issue_diagnostic(issue, ctx)));
    }
    for d in decoded.dropped.iter().filter(|d| !decoded.misspelt(d)) {
        out.push(dropped(d));
    }
}

fn dotted(path: &[String]) -> String {
    path.join(".")
}

pub(super) fn issue_diagnostic(issue: &Issue, ctx: &Ctx) -> Diagnostic {
    let path = dotted(&issue.path);
    let refuses = ctx.consequence();
    match &issue.kind {
        IssueKind::Type { expected, got } => {
            let d = type_error(&path, &shape::describe(expected), got, ctx);
            match wrap_fix(expected, got, issue.path.last().map(String::as_str)) {
                Some((title, text)) => d.with_fix(title, vec![Edit::new(got.span, text)], true),
                None => d,
            }
        }
        IssueKind::Value { expected, got } => {
            let literals = shape::string_literals(expected);
            let suggestion = got.as_str().and_then(|s| closest(s, literals.iter().copied()));
            let d = Diagnostic::new(
                Code::InvalidValue,
                issue.span,
                format!(
                    "`{path}` must be {}, got {}; {refuses}{}",
                    shape::describe(expected),
                    got.display(),
                    then_did_you_mean(suggestion)
                ),
            );
            match suggestion {
                Some(s) => d.with_suggestion(got.span, format!("\"{s}\"")),
                None => d,
            }
        }
        IssueKind::Number { num, got } => Diagnostic::new(
            Code::InvalidValue,
            issue.span,
            format!("`{path}` must be {}, got {}; {refuses}", num.describe(), got.display()),
        ),
        IssueKind::Missing { object, field } => {
            let parent = dotted(&issue.path[..issue.path.len().saturating_sub(1)]);
            Diagnostic::new(
                Code::MissingField,
                issue.span,
                format!(
                    "`{parent}` has no `{}`, which {} needs; {refuses} (`Missing key` at {path})",
                    field.name, object.what
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::RefusesToStart)
        }
        // opencode's objects drop unknown keys; none of its shapes is strict.
        IssueKind::Unknown { object } => Diagnostic::new(
            Code::UnknownKey,
            issue.span,
            format!("`{path}` is not a field of {}; {refuses}", object.what),
        ),
        IssueKind::Extra { tuple } => {
            let parent = dotted(&issue.path[..issue.path.len().saturating_sub(1)]);
            Diagnostic::new(
                Code::InvalidValue,
                issue.span,
                format!(
                    "`{parent}` must be {}, and this item is one too many; {refuses}",
                    shape::describe(tuple)
                ),
            )
        }
        IssueKind::MissingItem { tuple } => {
            let parent = dotted(&issue.path[..issue.path.len().saturating_sub(1)]);
            Diagnostic::new(
                Code::InvalidValue,
                issue.span,
                format!("`{parent}` must be {}; {refuses}", shape::describe(tuple)),
            )
        }
        IssueKind::NoBranch { union, got, tag } => match tag {
            Some((_, Some(value))) => {
                let tags = shape::tag_values(union);
                let values: Vec<String> = tags.iter().map(|l| l.json()).collect();
                let names = tags.iter().filter_map(|l| match l {
                    shape::Lit::Str(s) => Some(*s),
                    shape::Lit::Bool(_) => None,
                });
                let suggestion = value.as_str().and_then(|s| closest(s, names));
                let d = Diagnostic::new(
                    Code::InvalidValue,
                    issue.span,
                    format!(
                        "`{path}` must be {}, got {}; {refuses}{}",
                        shape::either(values),
                        value.display(),
                        then_did_you_mean(suggestion)
                    ),
                );
                match suggestion {
                    Some(s) => d.with_suggestion(value.span, format!("\"{s}\"")),
                    None => d,
                }
            }
            Some((field, None)) => {
                let values: Vec<String> = shape::tag_values(union).iter().map(|l| l.json()).collect();
                Diagnostic::new(
                    Code::MissingField,
                    issue.span,
                    format!(
                        "`{path}` has no `{}`: it must say {}; {refuses} (`Missing key` at {path}.{})",
                        field.name,
                        shape::either(values),
                        field.name
                    ),
                )
                .with_severity(Severity::Error)
                .with_effect(Effect::RefusesToStart)
            }
            None => type_error(&path, &shape::describe(union), got, ctx),
        },
    }
}

/// `. Did you mean `x`?` after a sentence, or nothing.
fn then_did_you_mean(suggestion: Option<&str>) -> String {
    match suggestion {
        Some(_) => format!(".{}", did_you_mean(suggestion)),
        None => String::new(),
    }
}

/// A string where an array of strings is expected: the array opencode wants. A `command` is
/// split at its spaces (when nothing in it is quoted); anything else becomes its only item.
fn wrap_fix(expected: &Shape, got: &Node, key: Option<&str>) -> Option<(String, String)> {
    let Value::Str(s) = &got.value else { return None };
    let wants_strings = match expected {
        Shape::Array(item) => matches!(item, Shape::Str),
        _ => false,
    };
    if !wants_strings {
        return None;
    }
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let splits = key == Some("command") && !s.contains(['"', '\'', '\\', '`', '$']);
    if splits {
        let parts: Vec<String> = s.split_whitespace().map(quote).collect();
        if parts.is_empty() {
            return None;
        }
        let text = format!("[{}]", parts.join(", "));
        return Some((format!("Split into an array: `{text}`"), text));
    }
    let text = format!("[{}]", quote(s));
    Some((format!("Make it an array: `{text}`"), text))
}

pub(super) fn dropped(d: &Dropped) -> Diagnostic {
    let key = d.key.name.as_str();
    let at = if d.path.is_empty() {
        String::new()
    } else {
        format!(" (in `{}`)", dotted(&d.path))
    };
    if d.other_member_has_it {
        return Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{key}` is dropped: opencode reads this entry{at} as {}, the first form it fits, which has no `{key}`",
                d.object.what
            ),
        );
    }
    let suggestion = d.object.suggest(key);
    let mut diag = Diagnostic::new(
        Code::UnknownKey,
        d.key.span,
        format!(
            "`{key}` is not a field of {}{at}: opencode drops it without a word.{}",
            d.object.what,
            did_you_mean(suggestion)
        ),
    );
    if let Some(s) = suggestion {
        diag = diag.with_suggestion(d.key.span, format!("\"{s}\""));
    }
    diag
}

// ---------------------------------------------------------------------------------------------
// What the runtime does beyond the schema

/// The V2 spellings opencode 1.18 converts before it decodes (`shared/spec/opencode.md` §13,
/// confirmed with the runtime): not dropped, converted.
fn v2_conversions(decoded: &mut Decoded, out: &mut Vec<Diagnostic>) {
    let converted = |d: &Dropped| -> Option<&'static str> {
        let parent: Vec<&str> = d.path.iter().map(String::as_str).collect();
        match (parent.as_slice(), d.key.name.as_str()) {
            (["compaction"], "keep") if keep_tokens(d.value) => Some("`compaction.preserve_recent_tokens`"),
            (["compaction"], "buffer") if non_negative_int(d.value) => Some("`compaction.reserved`"),
            (["experimental"], "subagent_depth") if non_negative_int(d.value) => Some("the top-level `subagent_depth`"),
            (["mcp", _], "disabled") if d.value.as_bool().is_some() => Some("`enabled` (its opposite)"),
            _ => None,
        }
    };
    decoded.dropped.retain(|d| match converted(d) {
        Some(v1) => {
            out.push(
                Diagnostic::new(
                    Code::DeprecatedField,
                    d.key.span,
                    format!(
                        "`{}` is opencode V2's spelling; opencode 1.18 converts it into {v1}. Write that instead",
                        d.key.name
                    ),
                )
                .with_effect(Effect::Works),
            );
            false
        }
        None => true,
    });
}

fn non_negative_int(v: &Node) -> bool {
    matches!(v.value, Value::Int(n) if n >= 0)
}

/// `compaction.keep` as V2 writes it: `{"tokens": n}`.
fn keep_tokens(v: &Node) -> bool {
    v.as_map()
        .is_some_and(|m| m.value("tokens").is_none_or(non_negative_int))
}

/// A language server opencode does not know, without `extensions`: opencode drops it before
/// decoding (with a logged warning only).
fn custom_lsp_without_extensions(v: &Node, out: &mut Vec<Diagnostic>) {
    let Some(map) = v.as_map() else { return };
    for (key, entry) in map.js_entries() {
        if BUILTIN_LSP_SERVERS.contains(&key.name.as_str()) {
            continue;
        }
        let Some(fields) = entry.as_map() else { continue };
        let disabled = fields.value("disabled").and_then(Node::as_bool) == Some(true);
        let has_command = fields
            .value("command")
            .is_some_and(|c| matches!(c.value, Value::Seq(_)));
        if disabled || !has_command || fields.contains("extensions") {
            continue;
        }
        // Only a slip of one letter: a custom server's own name is often close to a known one.
        let known = BUILTIN_LSP_SERVERS
            .iter()
            .copied()
            .find(|b| key.name.len() >= 4 && strsim::osa_distance(&key.name, b) == 1);
        let mut d = Diagnostic::new(
            Code::MissingField,
            key.span,
            format!(
                "`{}` is not a language server opencode knows, and it has no `extensions`: opencode drops it (a custom server needs the file extensions it serves, e.g. `\"extensions\": [\".ext\"]`).{}",
                key.name,
                did_you_mean(known)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if let Some(k) = known {
            d = d.with_suggestion(key.span, format!("\"{k}\""));
        }
        out.push(d);
    }
}

/// A plugin listed twice: opencode loads each plugin once, from its last entry (an npm package
/// by its name whatever the version, a file by its path), and drops the earlier ones.
fn repeated_plugins(v: &Node, out: &mut Vec<Diagnostic>) {
    let Value::Seq(items) = &v.value else { return };
    let specs: Vec<Option<(String, &Node)>> = items
        .iter()
        .map(|item| {
            let spec = match &item.value {
                Value::Str(_) => item,
                Value::Seq(pair) => pair.first()?,
                _ => return None,
            };
            Some((plugin_identity(spec.as_str()?), item))
        })
        .collect();
    for (i, spec) in specs.iter().enumerate() {
        let Some((id, item)) = spec else { continue };
        let Some((_, last)) = specs[i + 1..].iter().flatten().rev().find(|(other, _)| other == id) else {
            continue;
        };
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                item.span,
                format!(
                    "the plugin `{id}` is listed again later: opencode loads each plugin once, from its last entry (with that entry's options), so this one is dropped"
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored)
            .with_related(crate::analysis::diagnostic::Location::Here(last.span), "the entry that is loaded"),
        );
    }
}

/// What opencode tells plugins apart by: an npm package's name (without its version), a file's
/// path.
fn plugin_identity(spec: &str) -> String {
    let spec = spec.trim();
    // A `file://` URL is taken as written; a path is resolved (here: normalised).
    if spec.starts_with("file://") {
        return spec.to_string();
    }
    if plugin_is_path(spec) {
        let path = spec;
        let mut parts: Vec<&str> = Vec::new();
        for seg in path.split('/') {
            match seg {
                "." | "" if !parts.is_empty() => {}
                ".." if parts.last().is_some_and(|p| *p != "..") => {
                    parts.pop();
                }
                s => parts.push(s),
            }
        }
        return parts.join("/");
    }
    // `@scope/name@1.2` and `name@1.2`: the name is up to the version's `@`.
    let at = if let Some(rest) = spec.strip_prefix('@') {
        rest.find('@').map(|i| i + 1)
    } else {
        spec.find('@')
    };
    match at {
        Some(i) => spec[..i].to_string(),
        None => spec.to_string(),
    }
}

/// A `skills.urls` entry that is not an absolute URL: opencode resolves `index.json` against it
/// when it builds the agents, the resolution throws, and nothing starts (the configuration
/// itself decodes).
fn skill_urls(v: &Node, out: &mut Vec<Diagnostic>) {
    let Some(Value::Seq(urls)) = v.as_map().and_then(|m| m.value("urls")).map(|n| &n.value) else {
        return;
    };
    for u in urls {
        let Some(s) = u.as_str() else { continue };
        if has_scheme(s) {
            continue;
        }
        out.push(
            Diagnostic::new(
                Code::InvalidValue,
                u.span,
                format!(
                    "`{s}` is not a URL opencode can fetch skills from (`index.json` cannot be resolved against it): it fails when it builds the agents, so nothing starts. Write the whole URL (`https://...`); a folder belongs in `skills.paths`"
                ),
            )
            .with_effect(Effect::RefusesToStart),
        );
    }
}

/// An absolute URL that a relative path resolves against: a scheme (`https:`, `file:`), and
/// either a scheme the URL standard treats as special or a path after it (`mailto:x` has none,
/// so `index.json` cannot be resolved against it; `http:host` reads as `http://host/`).
fn has_scheme(s: &str) -> bool {
    let s = s.trim();
    let Some(i) = s.find(':').filter(|i| *i > 0) else {
        return false;
    };
    let scheme = s[..i].to_ascii_lowercase();
    let well_formed = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let special = matches!(scheme.as_str(), "http" | "https" | "file" | "ftp" | "ws" | "wss");
    well_formed && (special || s[i + 1..].starts_with('/'))
}

/// `${VAR}` in a string: opencode substitutes `{env:VAR}`, so the text stays as written. Not in
/// a command after a shell's `-c` (the shell expands it there).
fn variables(v: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    fn walk(v: &Node, text: &str, out: &mut Vec<Diagnostic>, depth: usize) {
        if depth > crate::analysis::syntax::MAX_DEPTH {
            return;
        }
        match &v.value {
            Value::Str(s) if s.contains("${") => shell_variables(v.span, text, out),
            Value::Seq(items) => {
                // Up to a shell's `-c`: what follows it is the shell's to expand.
                let shell = items
                    .iter()
                    .position(|p| matches!(p.as_str(), Some("-c" | "/c" | "/C" | "-Command" | "-lc")));
                for item in &items[..shell.unwrap_or(items.len())] {
                    walk(item, text, out, depth + 1);
                }
            }
            Value::Map(m) => {
                for e in m.entries.iter() {
                    walk(&e.value, text, out, depth + 1);
                }
            }
            _ => {}
        }
    }
    walk(v, text, out, 0);
}

/// Each `${NAME}` in the source text of a string (`$`, braces and name characters are never
/// escaped in JSON, so the source holds them as the value does).
fn shell_variables(span: Span, text: &str, out: &mut Vec<Diagnostic>) {
    let Some(raw) = text.get(span.start as usize..span.end as usize) else {
        return;
    };
    let mut at = 0;
    while let Some(i) = raw[at..].find("${") {
        let start = at + i;
        at = start + 2;
        let Some(len) = raw[start + 2..].find('}') else { break };
        let name = &raw[start + 2..start + 2 + len];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let whole = &raw[start..start + 3 + len];
        let at_span = Span::new(span.start as usize + start, span.start as usize + start + whole.len());
        out.push(
            Diagnostic::new(
                Code::UnsubstitutedVariable,
                at_span,
                format!(
                    "opencode does not expand `{whole}`: the value keeps these characters as they are. opencode substitutes `{{env:{name}}}` (empty when `{name}` is unset)"
                ),
            )
            .with_fix(
                format!("Replace with `{{env:{name}}}`"),
                vec![Edit::new(at_span, format!("{{env:{name}}}"))],
                false,
            ),
        );
    }
}

/// The paths opencode looks up on disk, for the workspace to check.
fn collect_paths(key: &str, v: &Node, paths: &mut Vec<PathRef>) {
    let strings = |node: &Node| -> Vec<(String, Span)> {
        match &node.value {
            Value::Seq(items) => items
                .iter()
                .filter_map(|i| i.as_str().map(|s| (s.to_string(), i.span)))
                .collect(),
            _ => Vec::new(),
        }
    };
    match key {
        "instructions" => {
            for (s, span) in strings(v) {
                if !is_url(&s) {
                    paths.push(path_ref(PathKind::Instructions, &s, span));
                }
            }
        }
        "skills" => {
            if let Some(p) = v.as_map().and_then(|m| m.value("paths")) {
                for (s, span) in strings(p) {
                    paths.push(path_ref(PathKind::SkillsPath, &s, span));
                }
            }
        }
        "references" | "reference" => {
            let Some(map) = v.as_map() else { return };
            for (_, r) in map.js_entries() {
                let local = match &r.value {
                    Value::Str(s) if looks_local(s) => Some((s.clone(), r.span)),
                    Value::Map(m) if !m.contains("repository") => m
                        .value("path")
                        .and_then(|p| p.as_str().map(|s| (s.to_string(), p.span))),
                    _ => None,
                };
                if let Some((s, span)) = local {
                    paths.push(path_ref(PathKind::Reference, &s, span));
                }
            }
        }
        "plugin" => {
            let Value::Seq(items) = &v.value else { return };
            for item in items {
                let spec = match &item.value {
                    Value::Str(_) => Some(item),
                    Value::Seq(pair) => pair.first(),
                    _ => None,
                };
                if let Some(spec) = spec
                    && let Some(s) = spec.as_str()
                    && plugin_is_path(s)
                {
                    paths.push(path_ref(PathKind::Plugin, s, spec.span));
                }
            }
        }
        _ => {}
    }
}

/// A reference string that names a local folder (not a URL or a `owner/repo` shorthand).
fn looks_local(s: &str) -> bool {
    s.starts_with(['.', '/', '~']) || s.starts_with("file://")
}

/// A plugin spec that is a file path rather than an npm package.
fn plugin_is_path(s: &str) -> bool {
    s.starts_with("file://") || s.starts_with("./") || s.starts_with("../") || s.starts_with('/') || s.starts_with("~/")
}

#[cfg(test)]
mod tests;
