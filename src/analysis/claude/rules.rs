//! Rules scoped to paths: the frontmatter of `.claude/rules/**/*.md` as Claude Code 2.1.332 reads
//! it (seen with the runtime: `tests/claude_runtime/rules.rs`).
//!
//! A rule is a memory file: its body is handed to the model whole, its frontmatter removed. The
//! frontmatter is read as an agent's is (a lenient retry when the YAML fails, see [`super::read`])
//! and only `paths` is taken from it: a list of glob patterns, or one string of them separated by
//! commas (a comma inside `{a,b}` is part of the pattern, braces are expanded). A pattern's
//! trailing `/**` is cut, and patterns that are all `**` are none. With patterns, the rule is
//! loaded when Claude reads a file they match (gitignore-style, from the project's folder: a
//! pattern without `/` matches at any depth, `./src/*.ts` matches nothing); without any (no
//! `paths`, an empty or falsy one, a number, a mapping, only items that are not strings) it is
//! loaded at the start of every session, for every file.
//!
//! The checks ([`check`]): a key other than `paths` (ignored; `globs` and `applyTo` are other
//! tools' words, with the rename as a fix), a `paths` that gives no pattern (the rule loads for
//! every file), an item that is not a string, a pattern starting with `./`, a list only the retry
//! reads (as one pattern that matches nothing). Whether a pattern matches a file of the project
//! is the workspace's to say (`missing-path`, information).

use super::read::{Outcome, Reading};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::did_you_mean;
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

/// Keys other tools use for what Claude Code calls `paths`.
const OTHER_NAMES: &[&str] = &["globs", "glob", "applyTo", "path", "files", "include", "patterns"];

/// The patterns a rule is loaded for, each with where it is written (the whole string when the
/// value is one string of several); empty when it is loaded for every file.
pub fn patterns(reading: &Reading) -> Vec<(String, Span)> {
    let Some(paths) = paths_node(reading) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Span)> = Vec::new();
    let mut push = |s: &str, span: Span| {
        for p in split(s) {
            let p = p.strip_suffix("/**").unwrap_or(&p).to_string();
            if !p.is_empty() {
                out.push((p, span));
            }
        }
    };
    match &paths.value {
        Value::Str(s) => push(s, paths.span),
        Value::Seq(items) => {
            for i in items {
                if let Some(s) = i.as_str() {
                    push(s, i.span);
                }
            }
        }
        _ => {}
    }
    if out.iter().all(|(p, _)| p == "**") {
        out.clear();
    }
    out
}

/// The `paths` node the loader takes (none when the frontmatter is not read).
fn paths_node(reading: &Reading) -> Option<&Node> {
    if !matches!(reading.outcome, Outcome::FirstPass | Outcome::Retry) {
        return None;
    }
    reading.parsed.root.as_ref()?.as_map()?.value("paths")
}

/// A string of patterns split at the commas outside braces, trimmed; braces expanded (at most a
/// hundred results).
pub fn split(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '{' => {
                depth += 1;
                cur.push(c);
            }
            '}' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    parts.push(cur);
    let mut out = Vec::new();
    for p in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        expand(p, &mut out);
    }
    out
}

/// `a{b,c}d` as `abd` and `acd`, the first brace pair at a time; past a hundred patterns, the rest
/// as written.
fn expand(p: &str, out: &mut Vec<String>) {
    let mut stack = vec![p.to_string()];
    while let Some(s) = stack.pop() {
        let (Some(open), Some(close)) = (s.find('{'), s.find('}')) else {
            out.push(s);
            continue;
        };
        if close < open || out.len() + stack.len() > 100 {
            out.push(s);
            continue;
        }
        let (head, inner, tail) = (&s[..open], &s[open + 1..close], &s[close + 1..]);
        for alt in inner.split(',').rev() {
            stack.push(format!("{head}{}{tail}", alt.trim()));
        }
    }
}

/// The diagnostics of a rule's frontmatter.
pub fn check(text: &str, reading: &Reading) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let every = "loads this rule at the start of every session, for every file";
    if reading.outcome == Outcome::Failed {
        let span = reading.first_errors.first().map(|e| e.span).unwrap_or_default();
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                span,
                format!("this frontmatter is not valid YAML, even as Claude Code retries it: it reads no `paths`, and {every}"),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
        return out;
    }
    let Some(map) = reading.parsed.root.as_ref().and_then(Node::as_map) else {
        return out;
    };
    let has_paths = map.contains("paths");
    for e in map.entries.iter().filter(|e| e.key.name != "paths") {
        let name = e.key.name.as_str();
        let meant = OTHER_NAMES.contains(&name) && !has_paths;
        let mut d = Diagnostic::new(
            Code::UnknownKey,
            e.key.span,
            format!(
                "Claude Code reads only `paths` in a rule's frontmatter and ignores `{name}`{}",
                if meant {
                    format!(", so it {every}.{}", did_you_mean(Some("paths")))
                } else {
                    String::new()
                }
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if meant {
            d = d.with_fix(
                format!("Rename `{name}` to `paths`"),
                vec![Edit::new(e.key.span, "paths")],
                false,
            );
        }
        out.push(d);
    }
    let Some(paths) = map.value("paths") else {
        return out;
    };
    // A list only the retry reads: one pattern, the list's text.
    if reading.outcome == Outcome::Retry && reading.quoted.contains(&paths.span) {
        out.push(
            Diagnostic::new(
                Code::LenientParse,
                paths.span,
                format!(
                    "this list is not valid YAML: Claude Code reads it, through its lenient retry, as the one pattern `{}`, which matches no file, so this rule is never loaded",
                    paths.span.text(text)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
        return out;
    }
    let none = |why: &str| {
        Diagnostic::new(Code::InvalidValue, paths.span, format!("{why}: Claude Code {every}"))
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored)
    };
    match &paths.value {
        Value::Str(s) if s.trim().is_empty() => out.push(none("`paths` is empty")),
        Value::Null => out.push(none("`paths` is empty")),
        Value::Seq(items) if items.is_empty() => out.push(none("`paths` lists no pattern")),
        Value::Str(_) => dot_slash(paths, text, &mut out),
        Value::Seq(items) => {
            for i in items {
                if i.as_str().is_some() {
                    dot_slash(i, text, &mut out);
                } else if !i.is_unknown() {
                    out.push(
                        Diagnostic::new(
                            Code::InvalidType,
                            i.span,
                            format!("a pattern of `paths` is a string, not {}: Claude Code leaves it out", i.type_name()),
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::ValueIgnored),
                    );
                }
            }
            if items.iter().all(|i| i.as_str().is_none()) {
                out.push(none("no item of `paths` is a pattern"));
            }
        }
        Value::Unknown => {}
        _ => out.push(
            Diagnostic::new(
                Code::InvalidType,
                paths.span,
                format!(
                    "`paths` must be a list of glob patterns (or one string of them, separated by commas), not {}: Claude Code reads no pattern from it, and {every}",
                    paths.type_name()
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        ),
    }
    out
}

/// Each pattern of a string value that starts with `./`: it matches no file (paths are matched
/// from the project's folder, written without `./`); the fix takes the `./` away.
fn dot_slash(node: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    let Some(s) = node.as_str() else { return };
    let raw = node.span.text(text);
    let skip = usize::from(raw.starts_with(['"', '\'']));
    let exact = raw.get(skip..skip + s.len()) == Some(s);
    let mut at = 0;
    for part in s.split(',') {
        let lead = part.len() - part.trim_start().len();
        let start = at + lead;
        at += part.len() + 1;
        if !part.trim_start().starts_with("./") {
            continue;
        }
        let pattern = part.trim();
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            node.span,
            format!(
                "`{pattern}` matches no file: Claude Code matches a rule's paths from the project's folder, written without `./`"
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if exact {
            let from = node.span.start as usize + skip + start;
            d.span = Span::new(from, from + pattern.len());
            d = d.with_fix("Remove the `./`", vec![Edit::new(Span::new(from, from + 2), "")], false);
        }
        out.push(d);
    }
}

/// What `paths` is, for hover and completion.
pub const PATHS_DOC: &str = "The files this rule is for: a list of glob patterns (or one string of them, separated by commas), matched gitignore-style from the project's folder (`src/**/*.ts`; a pattern without `/` matches at any depth). Claude Code loads the rule when it reads a file they match; without patterns, at the start of every session, for every file.";

/// Completion in a rule's frontmatter: the key `paths` (the only one Claude Code reads).
pub fn complete(text: &str, offset: usize) -> Vec<crate::analysis::complete::Item> {
    use crate::analysis::complete::{ItemKind, item, yaml_context};
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let Some(ctx) = yaml_context(text, offset) else {
        return Vec::new();
    };
    if ctx.value_of.is_some() || !ctx.path.is_empty() || ctx.present.iter().any(|k| k == "paths") {
        return Vec::new();
    }
    let mut it = item("paths", ItemKind::Key, "rule", Some(PATHS_DOC.to_string()), 0);
    it.replace = ctx.replace;
    it.insert = "paths: ".into();
    vec![it]
}

/// Hover in a rule's frontmatter: what `paths` does, on the key.
pub fn hover(reading: &Reading, offset: usize) -> Option<(String, Span)> {
    let map = reading.parsed.root.as_ref()?.as_map()?;
    let e = map.entries.iter().find(|e| e.key.span.contains(offset))?;
    let md = if e.key.name == "paths" {
        format!("**`paths`** (a rule of `.claude/rules/`)\n\n{PATHS_DOC}\n")
    } else {
        format!(
            "**`{}`**: Claude Code reads only `paths` in a rule's frontmatter and ignores this key.\n",
            e.key.name
        )
    };
    Some((md, e.key.span))
}

#[cfg(test)]
mod tests;
