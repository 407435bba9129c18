//! A Markdown agent file: frontmatter settings plus the body as prompt. Rules: `syntax-error`,
//! `duplicate-key`, `misplaced-frontmatter`, `prompt-overridden`, `deprecated-field` (mode
//! files), and every agent-field rule through [`super::agent`].
//!
//! opencode's reader is forgiving in one way this module reproduces: when the YAML does not
//! parse, it retries once after a "sanitizer" that turns a top-level `key: value` whose plain
//! value contains `:` into a block scalar (`description: Use when: x` works). Only when that
//! retry fails too is the frontmatter lost.

use super::agent::{self, Ctx};
pub use super::decl::Reading;
use super::{AgentDecl, Analysis, DeclOrigin, Facts};
use crate::analysis::diagnostic::{Diagnostic, Effect, Location, Severity};
use crate::analysis::rules::Code;
use crate::analysis::syntax::frontmatter::{self, Frontmatter};
use crate::analysis::syntax::{Node, Parsed, Style, SyntaxError, Value, yaml};
use crate::analysis::text::Span;
use crate::analysis::text::js_space as is_js_space;

pub fn analyze(text: &str, path_name: &str, origin: DeclOrigin) -> Analysis {
    let split = frontmatter::split(text);
    let mut out = Vec::new();
    if let Some(at) = split.misplaced_open {
        out.push(Diagnostic::new(
            Code::MisplacedFrontmatter,
            at,
            "this frontmatter does not start on the first line, so opencode reads it as part of the prompt and none of its settings apply. Move `---` to the very first line",
        ));
    }
    let mut parsed = Parsed::default();
    let mut reading = Reading::NoFrontmatter;
    let mut scripted = false;
    // Without a frontmatter, a declaration points at the first line of text.
    let mut decl_span = {
        let start = split.body.start as usize;
        let rest = &text[start..];
        let lead = rest.len() - rest.trim_start().len();
        let line = rest[lead..].lines().next().unwrap_or("").trim_end();
        Span::new(start + lead, start + lead + line.len())
    };
    if let Some(fm) = &split.frontmatter {
        decl_span = fm.open;
        (parsed, reading) = parse_frontmatter(text, fm, &mut out);
        scripted = matches!(engine(text, fm).as_str(), "js" | "javascript");
        if fm.close.is_none() {
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    fm.open,
                    "this frontmatter is never closed (no `---` line after it): opencode reads the rest of the file as YAML, so the agent gets no prompt, and if that text is not valid YAML it loads the whole file as a bare prompt instead. Add a closing `---` line",
                )
                .with_effect(if reading.lost() {
                    Effect::FileIgnored
                } else {
                    Effect::ValueIgnored
                }),
            );
        }
        let ctx = Ctx {
            origin,
            text,
            lost: reading.lost(),
            tui: false,
        };
        let mut fields = Vec::new();
        if let Some(root) = &parsed.root {
            match &root.value {
                Value::Map(_) => agent::check(root, &ctx, &mut fields),
                Value::Null | Value::Unknown => {}
                // opencode spreads a scalar or list into numbered keys ("0", "1", ...) that go to
                // provider options: the file loads, but no setting applies.
                _ => fields.push(
                    Diagnostic::new(
                        Code::InvalidType,
                        root.span,
                        format!(
                            "the frontmatter should be `key: value` settings, got {}; opencode loads the agent without any of it",
                            root.type_name()
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored),
                ),
            }
        }
        if reading.lost() {
            // What can be read is still checked, but nothing in a lost frontmatter reaches
            // opencode: no field problem can stop it.
            for d in &mut fields {
                if d.severity == Severity::Error {
                    debug_assert!(
                        d.code.rule().allows(Severity::Warning),
                        "`{}` cannot be a warning: add the case to rules::OTHER_SEVERITIES",
                        d.code.as_str()
                    );
                    d.severity = Severity::Warning;
                }
                if d.effect == Effect::RefusesToStart {
                    d.effect = Effect::ValueIgnored;
                }
                d.message
                    .push_str(" (for now the YAML error in this frontmatter means none of its settings are read)");
            }
        } else if origin == DeclOrigin::ModeFile && fields.iter().any(|d| d.effect == Effect::RefusesToStart) {
            // opencode decodes `mode/` files on their own and skips the ones that fail.
            reading = Reading::Skipped;
            for d in &mut fields {
                if d.effect == Effect::RefusesToStart {
                    d.effect = Effect::FileIgnored;
                }
            }
        }
        out.extend(fields);
    }
    // What opencode uses: the settings when the frontmatter was read, nothing when it was lost.
    let settings = parsed.root.as_ref().filter(|r| r.as_map().is_some() && !reading.lost());
    // A lost frontmatter makes the whole file the prompt: nothing to say about the body.
    if !reading.lost() {
        check_prompt(text, &split, settings, &mut out);
    }
    if origin == DeclOrigin::ModeFile {
        let span = split.frontmatter.as_ref().map(|f| f.open).unwrap_or(decl_span);
        out.push(Diagnostic::new(
            Code::DeprecatedField,
            span,
            "`mode/` directories are deprecated: opencode still loads this file as a primary agent. Move it to `agents/` and set `mode: primary`",
        ));
    }
    // Frontmatter `name` replaces the path-derived name (and becomes the registry key).
    let (name, span) = match settings.and_then(|r| r.as_map()).and_then(|m| m.value("name")) {
        Some(n) if n.as_str().is_some_and(|s| !s.is_empty()) => (n.as_str().unwrap_or_default().to_string(), n.span),
        _ => (path_name.to_string(), decl_span),
    };
    let prompt = match reading {
        Reading::Bare => Span::new(0, text.len()),
        _ => split.body,
    };
    // A scalar or list frontmatter is spread into numbered keys ("0", "1", ...), which are not
    // agent fields and end up in the provider options.
    let node = match parsed.root.as_ref().filter(|_| !reading.lost()) {
        Some(root) if root.as_map().is_some() => Some(root.clone()),
        Some(root) => spread(root),
        None => None,
    };
    let agents = match reading {
        Reading::Skipped => Vec::new(),
        _ => vec![AgentDecl {
            name,
            span,
            origin,
            node,
            body_empty: prompt.text(text).trim().is_empty(),
            whole_file: reading == Reading::Bare,
            prompt_hash: Some(super::prompt_hash(prompt.text(text).trim())),
        }],
    };
    Analysis {
        parsed,
        diagnostics: out,
        facts: Facts {
            split: Some(split),
            reading: Some(reading),
            agents,
            refs: Vec::new(),
            has_plugins: false,
            scripted,
            paths: Vec::new(),
        },
    }
}

/// JavaScript's object spread of a non-object: a string gives one key per character, a list one
/// per item, anything else nothing.
fn spread(root: &Node) -> Option<Node> {
    let entry = |i: usize, value: Node| crate::analysis::syntax::Entry {
        key: crate::analysis::syntax::Key {
            name: i.to_string(),
            span: root.span,
        },
        value,
    };
    let entries: Vec<crate::analysis::syntax::Entry> = match &root.value {
        // Bounded: a huge scalar would otherwise make one entry per character.
        Value::Str(s) => s
            .encode_utf16()
            .take(10_000)
            .collect::<Vec<u16>>()
            .iter()
            .enumerate()
            .map(|(i, unit)| {
                let ch = String::from_utf16_lossy(std::slice::from_ref(unit));
                entry(i, Node::new(root.span, Style::Quoted, Value::Str(ch)))
            })
            .collect(),
        Value::Seq(items) => items
            .iter()
            .take(10_000)
            .cloned()
            .enumerate()
            .map(|(i, n)| entry(i, n))
            .collect(),
        _ => return None,
    };
    Some(Node::new(
        root.span,
        Style::Collection,
        Value::Map(crate::analysis::syntax::Map::new(entries)),
    ))
}

/// What opencode's reader hands to the agent loader for a Markdown file, as plain data: the
/// frontmatter data and the body (before opencode trims it). This is what the differential test
/// against gray-matter and js-yaml compares (`tests/yaml_differential.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    pub reading: Reading,
    /// The parsed frontmatter (`{}` when there is none, when it is empty or when it was lost).
    pub data: serde_json::Value,
    /// gray-matter's `content`: the body, or the whole file when the frontmatter was lost.
    pub content: String,
}

pub fn read(text: &str) -> Read {
    let a = analyze(text, "", DeclOrigin::Markdown);
    let reading = a.facts.reading.unwrap_or(Reading::NoFrontmatter);
    let data = match (&a.parsed.root, reading.lost()) {
        (Some(root), false) if !matches!(root.value, Value::Null) => root.to_json(),
        _ => serde_json::Value::Object(serde_json::Map::new()),
    };
    // gray-matter drops a byte order mark before it does anything else.
    let content = match (reading, &a.facts.split) {
        (Reading::Bare | Reading::Skipped, _) | (_, None) => text.trim_start_matches('\u{feff}').to_string(),
        (_, Some(split)) => split.body.text(text).to_string(),
    };
    Read { reading, data, content }
}

/// What happens to a file whose frontmatter gray-matter cannot read.
const LOADED_BARE: &str =
    "opencode silently loads the whole file, frontmatter included, as the prompt of a plain `mode: all` agent";

/// gray-matter's frontmatter block: the YAML text, without the line break before the closing
/// `\n---`.
fn block_text<'a>(text: &'a str, fm: &Frontmatter) -> &'a str {
    let yaml_text = fm.yaml.text(text);
    match fm.close {
        Some(_) => yaml_text.strip_suffix('\n').unwrap_or(yaml_text),
        None => yaml_text,
    }
}

/// The engine the rest of the opening line names for gray-matter (`""` for none), lowercased.
pub(super) fn engine(text: &str, fm: &Frontmatter) -> String {
    Span::new(fm.open.end as usize, fm.yaml.start as usize)
        .text(text)
        .trim_end_matches(['\r', '\n'])
        .trim_matches(is_js_space)
        .to_lowercase()
}

/// What opencode's fallback makes of a frontmatter strict YAML does not read (see
/// [`parse_frontmatter`]).
pub(super) struct Fallback {
    /// The first thing js-yaml rejects: an error, or a key set twice.
    pub strict: Option<SyntaxError>,
    /// When the sanitizer rewrote the block and the retry threw too: its first error, on the
    /// original text.
    pub retry: Option<SyntaxError>,
    /// The values the sanitizer rewrites as blocks of text (the trimmed values, in the file).
    pub values: Vec<Span>,
}

/// The first thing js-yaml rejects in `parsed`, spans as they are.
fn first_problem(parsed: &Parsed) -> Option<SyntaxError> {
    parsed.errors.first().cloned().or_else(|| {
        parsed.duplicates.first().map(|d| SyntaxError {
            span: d.duplicate,
            message: format!("`{}` is set twice, which js-yaml rejects", d.name),
        })
    })
}

/// opencode's fallback on a frontmatter: what strict YAML rejects, what the sanitizer rewrites
/// and what its retry rejects.
pub(super) fn fallback(text: &str, fm: &Frontmatter) -> Fallback {
    let offset = fm.yaml.start as usize;
    let yaml_text = block_text(text, fm);
    let strict = first_problem(&yaml::parse(yaml_text, offset));
    let mut values = Vec::new();
    let mut retry = None;
    if let Some(s) = sanitizable(text, fm).then(|| sanitize(yaml_text)).flatten() {
        let mut pos = offset;
        for raw in yaml_text.split('\n') {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if let Some((_, value)) = rewrite_point(line) {
                values.push(value.shifted(pos));
            }
            pos += raw.len() + 1;
        }
        if s.rewritten {
            retry = first_problem(&yaml::parse(&s.text, 0)).map(|e| SyntaxError {
                span: Span::new(
                    s.original(e.span.start as usize) + offset,
                    s.original(e.span.end as usize) + offset,
                ),
                message: e.message,
            });
        }
    }
    Fallback { strict, retry, values }
}

/// opencode retries once with its sanitizer; it only rewrites a closed block that follows a
/// bare `---` line.
fn sanitizable(text: &str, fm: &Frontmatter) -> bool {
    fm.close.is_some() && fm.open.start == 0 && (text[3..].starts_with('\n') || text[3..].starts_with("\r\n"))
}

/// Parse the frontmatter as opencode does; returns the tree to check (the strict parse, or the
/// sanitizer's rewrite mapped back to original offsets) and how opencode reads it.
pub(super) fn parse_frontmatter(text: &str, fm: &Frontmatter, out: &mut Vec<Diagnostic>) -> (Parsed, Reading) {
    let offset = fm.yaml.start as usize;
    // gray-matter's block stops before the line break of the closing `\n---`.
    let yaml_text = block_text(text, fm);
    // Only blank and `# comment` lines: gray-matter does not parse it and gives no settings.
    if gray_matter_empty(yaml_text) {
        return (Parsed::default(), Reading::Parsed);
    }
    // The rest of the opening line names gray-matter's engine.
    let language_span = Span::new(fm.open.end as usize, fm.yaml.start as usize);
    let raw = language_span.text(text);
    let language = engine(text, fm);
    match language.as_str() {
        "" | "yaml" | "yml" => {}
        "json" => return parse_json_frontmatter(fm, yaml_text, out),
        "js" | "javascript" => {
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    language_span,
                    "opencode's frontmatter reader (gray-matter) runs a `---javascript` frontmatter as JavaScript code; agent-lsp does not run it, so none of these settings are checked. Use a YAML frontmatter",
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::Works),
            );
            return (Parsed::default(), Reading::Parsed);
        }
        other => {
            let at = Span::new(
                fm.open.end as usize + (raw.len() - raw.trim_start_matches(is_js_space).len()),
                fm.open.end as usize + raw.trim_end_matches(['\r', '\n']).trim_end_matches(is_js_space).len(),
            );
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    at,
                    format!(
                        "`---{other}` asks gray-matter (opencode's frontmatter reader) for a \"{other}\" parser, which it does not have: {LOADED_BARE}. Write `---` alone on the first line"
                    ),
                )
                .with_effect(Effect::FileIgnored),
            );
            return (Parsed::default(), Reading::Bare);
        }
    }
    let mut parsed = yaml::parse(yaml_text, offset);
    let broken = !parsed.errors.is_empty() || !parsed.duplicates.is_empty();
    if !broken {
        return (parsed, Reading::Parsed);
    }
    // opencode retries once with its sanitizer.
    let sanitized = if sanitizable(text, fm) {
        sanitize(yaml_text)
    } else {
        None
    };
    let retry = sanitized
        .as_ref()
        .filter(|s| s.rewritten)
        .map(|s| yaml::parse(&s.text, 0));
    if let (Some(s), Some(retry)) = (&sanitized, &retry)
        && retry.errors.is_empty()
        && retry.duplicates.is_empty()
    {
        for err in &parsed.errors {
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    err.span,
                    format!(
                        "strict YAML rejects this ({}); opencode's fallback reads the value as plain text, so the agent loads, but other tools will not. Quote the value",
                        err.message
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::Works),
            );
        }
        let mut root = retry.root.clone();
        if let Some(root) = &mut root {
            remap(root, &|pos| s.original(pos) + offset);
        }
        parsed.root = root;
        parsed.errors.clear();
        parsed.duplicates.clear();
        return (parsed, Reading::Rescued);
    }
    let reading = if sanitized.is_some_and(|s| s.changed) {
        Reading::Skipped
    } else {
        Reading::Bare
    };
    let consequence = match reading {
        Reading::Skipped => "opencode skips this agent file without any message",
        _ => {
            "opencode silently loads the whole file, frontmatter included, as the prompt of a plain `mode: all` agent: every setting here is lost"
        }
    };
    for err in &parsed.errors {
        let mut message = format!("invalid YAML: {}; {consequence}", err.message);
        if let Some(hint) = hint(text, err.span) {
            message.push_str(". ");
            message.push_str(hint);
        }
        out.push(Diagnostic::new(Code::SyntaxError, err.span, message).with_effect(Effect::FileIgnored));
    }
    for dup in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                dup.duplicate,
                format!(
                    "`{}` is set twice; in YAML that is an error, and {consequence}",
                    dup.name
                ),
            )
            .with_related(Location::Here(dup.first), "first set here"),
        );
    }
    (parsed, reading)
}

/// A `---json` frontmatter, which gray-matter reads with `JSON.parse`. When it does not parse,
/// opencode's sanitizer (which needs a bare `---` line) does not apply: the file loads bare.
fn parse_json_frontmatter(fm: &Frontmatter, block: &str, out: &mut Vec<Diagnostic>) -> (Parsed, Reading) {
    let offset = fm.yaml.start as usize;
    let mut parsed = crate::analysis::syntax::jsonc::parse(block);
    parsed.duplicates.clear();
    if let Some(root) = &mut parsed.root {
        remap(root, &|pos| pos + offset);
    }
    for e in &mut parsed.errors {
        e.span = Span::new(e.span.start as usize + offset, e.span.end as usize + offset);
    }
    if parsed.errors.is_empty() {
        return (parsed, Reading::Parsed);
    }
    for err in &parsed.errors {
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                err.span,
                format!(
                    "invalid JSON in a `---json` frontmatter: {}; {LOADED_BARE}",
                    err.message
                ),
            )
            .with_effect(Effect::FileIgnored),
        );
    }
    (parsed, Reading::Bare)
}

/// A hint for the usual causes of a YAML error on a line.
fn hint(text: &str, at: Span) -> Option<&'static str> {
    let start = text[..at.start as usize].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or("");
    let trimmed = line.trim_start();
    if trimmed.starts_with('*') {
        return Some("A key starting with `*` is read as a YAML alias; quote it: \"*\"");
    }
    if line.contains('\t') {
        return Some("YAML does not allow tabs for indentation; use spaces");
    }
    if let Some((_, value)) = trimmed.split_once(": ")
        && value.contains(": ")
        && !value.starts_with(['"', '\''])
    {
        return Some("The value contains `: `; quote the whole value");
    }
    None
}

fn check_prompt(text: &str, split: &frontmatter::Split, settings: Option<&Node>, out: &mut Vec<Diagnostic>) {
    let body_empty = split.body.text(text).trim().is_empty();
    let prompt = settings.and_then(|s| s.as_map()).and_then(|m| m.get("prompt"));
    match prompt {
        Some(entry) => {
            let message = if body_empty {
                "the Markdown body always replaces a frontmatter `prompt:`, even when it is empty as here, so this prompt is never used and the agent runs on the provider's default prompt. Move the text into the body"
            } else {
                "the Markdown body always replaces a frontmatter `prompt:`, so this prompt is never used. Move the text into the body"
            };
            out.push(Diagnostic::new(Code::PromptOverridden, entry.key.span, message));
        }
        None if body_empty && split.frontmatter.is_some() => {
            let fm = split.frontmatter.as_ref();
            let span = fm.and_then(|f| f.close).or(fm.map(|f| f.open)).unwrap_or_default();
            // An unclosed frontmatter is already reported; its empty body follows from it.
            if fm.is_some_and(|f| f.close.is_some()) {
                out.push(Diagnostic::new(
                    Code::PromptOverridden,
                    span,
                    "the body after the frontmatter is empty, so this agent has no prompt: opencode uses the provider's default system prompt (a built-in agent of the same name loses its own). Write the instructions below this line",
                ));
            }
        }
        None => {}
    }
}

/// The result of opencode's sanitizer, with a way back to original offsets.
struct Sanitized {
    text: String,
    /// `(offset in sanitized text, offset in original text)` at the start of each copied chunk.
    chunks: Vec<(usize, usize)>,
    /// A line was rewritten as a block scalar.
    rewritten: bool,
    /// The text differs from the original at all: a rewrite, or CRLF line breaks, which the
    /// sanitizer joins back with `\n` (a changed text is parsed again instead of coming from
    /// gray-matter's cache, so the file is skipped rather than loaded bare).
    changed: bool,
}

impl Sanitized {
    fn original(&self, pos: usize) -> usize {
        let i = self.chunks.partition_point(|(s, _)| *s <= pos).saturating_sub(1);
        let (s, o) = self.chunks.get(i).copied().unwrap_or((0, 0));
        o + (pos - s)
    }
}

/// gray-matter's test for an empty frontmatter: with `# comment` lines removed
/// (`/^\s*#[^\n]+/gm`), nothing but white space is left.
fn gray_matter_empty(block: &str) -> bool {
    block.split('\n').all(|line| {
        let t = line.trim_start_matches(is_js_space);
        (t.starts_with('#') && t.len() > 1) || t.chars().all(is_js_space)
    })
}

/// opencode's `fallbackSanitization` on gray-matter's frontmatter block (the text between the
/// delimiter lines, without the line break before the closing `---`), with JavaScript's rules:
/// lines split at `\r?\n`; a top-level `key: value` line whose value contains `:` becomes
/// `key: |-` and the trimmed value on an indented line; lines are joined with `\n`.
fn sanitize(block: &str) -> Option<Sanitized> {
    // The pattern's group stops before `\r?\n---`: a CR before the closing line stays put.
    let (body, tail) = match block.strip_suffix('\r') {
        Some(b) => (b, "\r"),
        None => (block, ""),
    };
    let mut text = String::with_capacity(block.len() + 64);
    let mut chunks = vec![(0, 0)];
    let mut rewritten = false;
    let mut pos = 0;
    let lines: Vec<&str> = body.split('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        // `\r?\n`: a CR before the line feed belongs to the break.
        let line = if i + 1 < lines.len() {
            raw.strip_suffix('\r').unwrap_or(raw)
        } else {
            raw
        };
        if i > 0 {
            text.push('\n');
            chunks.push((text.len(), pos));
        }
        match rewrite_point(line) {
            Some((key_end, value)) => {
                text.push_str(&line[..key_end]);
                text.push_str(": |-\n  ");
                chunks.push((text.len(), pos + value.start as usize));
                text.push_str(value.text(line));
                rewritten = true;
            }
            None => text.push_str(line),
        }
        pos += raw.len() + 1;
    }
    text.push_str(tail);
    let changed = rewritten || body.contains("\r\n");
    Some(Sanitized {
        text,
        chunks,
        rewritten,
        changed,
    })
}

/// For a line the sanitizer rewrites: where the key ends, and the trimmed value's span in the
/// line. The pattern is `^([a-zA-Z_][a-zA-Z0-9_]*)\s*:\s*(.*)$` with JavaScript's `\s` and `.`
/// (which stops at CR, LF, U+2028 and U+2029).
fn rewrite_point(line: &str) -> Option<(usize, Span)> {
    let trimmed = line.trim_matches(is_js_space);
    if trimmed.is_empty() || trimmed.starts_with('#') || line.starts_with(is_js_space) {
        return None;
    }
    let bytes = line.as_bytes();
    if !(bytes[0].is_ascii_alphabetic() || bytes[0] == b'_') {
        return None;
    }
    let key_end = bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after_key = line[key_end..].trim_start_matches(is_js_space);
    let after_colon = after_key.strip_prefix(':')?;
    let rest = after_colon.trim_start_matches(is_js_space);
    if rest.contains(['\r', '\n', '\u{2028}', '\u{2029}']) {
        return None;
    }
    let value = rest.trim_end_matches(is_js_space);
    if value.is_empty() || value == ">" || value == "|" || value.starts_with(['"', '\'']) || !value.contains(':') {
        return None;
    }
    let start = line.len() - rest.len();
    Some((key_end, Span::new(start, start + value.len())))
}

fn remap(node: &mut Node, f: &dyn Fn(usize) -> usize) {
    let map_span = |s: Span| Span::new(f(s.start as usize), f(s.end as usize));
    node.span = map_span(node.span);
    match &mut node.value {
        Value::Seq(items) => items.iter_mut().for_each(|n| remap(n, f)),
        Value::Map(m) => {
            for e in m.entries_mut() {
                e.key.span = map_span(e.key.span);
                remap(&mut e.value, f);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze_agent(text: &str) -> Analysis {
        analyze(text, "reviewer", DeclOrigin::Markdown)
    }

    fn codes(a: &Analysis) -> Vec<&'static str> {
        a.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn valid_file_is_silent_and_declares_the_agent() {
        let text = "---\ndescription: Reviews code\nmode: subagent\n---\nYou review code.\n";
        let a = analyze_agent(text);
        assert!(a.diagnostics.is_empty(), "{:#?}", a.diagnostics);
        assert_eq!(a.facts.agents[0].name, "reviewer");
        assert_eq!(a.facts.agents[0].mode().unwrap().0, "subagent");
    }

    #[test]
    fn name_overrides_the_path() {
        let a = analyze_agent("---\nname: OpenCoder\n---\nBody\n");
        assert_eq!(a.facts.agents[0].name, "OpenCoder");
    }

    #[test]
    fn sanitizer_rescues_colons_in_values() {
        let text = "---\ndescription: Checks five patterns: repeated code\nmode: subagent\ncolor: red\n---\nBody\n";
        let a = analyze_agent(text);
        // Strict YAML fails (a warning), opencode loads it, and the rest is still checked with
        // spans in the original text.
        assert_eq!(codes(&a), ["syntax-error", "invalid-color"]);
        assert_eq!(a.diagnostics[0].severity, Severity::Warning);
        assert_eq!(a.diagnostics[1].span.text(text), "red");
        let settings = a.facts.agents[0].node.as_ref().unwrap();
        let desc = settings.as_map().unwrap().value("description").unwrap();
        assert_eq!(desc.span.text(text), "Checks five patterns: repeated code");
    }

    #[test]
    fn broken_yaml_is_an_error_that_says_what_opencode_does() {
        let text = "---\ndescription: x\npermission:\n  *: deny\n---\nBody\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["syntax-error"]);
        let d = &a.diagnostics[0];
        assert_eq!(d.severity, Severity::Error);
        assert!(d.message.contains("whole file"), "{}", d.message);
        assert!(d.message.contains("alias"), "{}", d.message);
    }

    #[test]
    fn duplicate_keys() {
        let text = "---\nmode: subagent\nmode: primary\n---\nBody\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["duplicate-key"]);
        assert_eq!(a.diagnostics[0].span.text(text), "mode");
        assert_eq!(a.diagnostics[0].span.start, 19);
    }

    #[test]
    fn unclosed_frontmatter() {
        let text = "---\nmode: subagent\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["syntax-error"]);
        assert_eq!(a.diagnostics[0].span.text(text), "---");
    }

    #[test]
    fn prompt_overridden_and_empty_body() {
        let text = "---\nprompt: Review code.\n---\nBody\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["prompt-overridden"]);
        assert_eq!(a.diagnostics[0].span.text(text), "prompt");
        let text = "---\nmode: subagent\n---\n\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["prompt-overridden"]);
        assert_eq!(a.diagnostics[0].span.start, 19);
    }

    #[test]
    fn misplaced_frontmatter() {
        let text = "\n---\nmode: subagent\n---\nBody\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["misplaced-frontmatter"]);
        // A horizontal rule in a prompt is not a frontmatter.
        assert!(analyze_agent("Intro\n\n---\n\nMore\n").diagnostics.is_empty());
    }

    #[test]
    fn scalar_frontmatter_is_a_warning() {
        let a = analyze_agent("---\njust text\n---\nBody\n");
        assert_eq!(codes(&a), ["invalid-type"]);
        assert_eq!(a.diagnostics[0].severity, Severity::Warning);
    }

    #[test]
    fn mode_files_are_deprecated() {
        let a = analyze("---\ndescription: d\n---\nBody\n", "debug", DeclOrigin::ModeFile);
        assert_eq!(codes(&a), ["deprecated-field"]);
        assert_eq!(a.facts.agents[0].mode().unwrap().0, "primary");
    }

    #[test]
    fn crlf_bom_and_unicode_positions() {
        let text = "\u{feff}---\r\ndescription: 审查代码 🚀\r\nmode: main\r\n---\r\nBody\r\n";
        let a = analyze_agent(text);
        assert_eq!(codes(&a), ["invalid-value"]);
        assert_eq!(a.diagnostics[0].span.text(text), "main");
    }

    #[test]
    fn how_opencode_reads_each_kind_of_frontmatter() {
        let cases: &[(&str, Reading)] = &[
            ("Just a prompt.\n", Reading::NoFrontmatter),
            ("---\nmode: subagent\n---\nBody\n", Reading::Parsed),
            ("---\ndescription: Use when: x\n---\nBody\n", Reading::Rescued),
            // Nothing for the sanitizer to rewrite: gray-matter's cache hands back the whole file.
            ("---\nmode: subagent\nmode: primary\n---\nBody\n", Reading::Bare),
            ("---\npermission:\n  *: deny\n---\nBody\n", Reading::Bare),
            // Rewritten, and still broken: skipped.
            (
                "---\ndescription: a: b\nmode: x\nmode: y\n---\nBody\n",
                Reading::Skipped,
            ),
            // CRLF: the sanitizer joins lines with `\n`, so the text changes and the file is skipped.
            (
                "---\r\nmode: subagent\r\nmode: primary\r\n---\r\nBody\r\n",
                Reading::Skipped,
            ),
            // No closing line: the sanitizer does not apply.
            ("---\ndescription: a: b\nmode: subagent\n", Reading::Bare),
            // A BOM before `---`: the sanitizer's pattern does not match.
            (
                "\u{feff}---\ndescription: a: b\nmode: subagent\n---\nB\n",
                Reading::Bare,
            ),
        ];
        for (text, want) in cases {
            assert_eq!(analyze_agent(text).facts.reading, Some(*want), "{text:?}");
        }
    }

    #[test]
    fn a_lost_frontmatter_declares_a_bare_agent_and_a_skipped_one_none() {
        let bare = analyze_agent("---\nmode: subagent\nmode: primary\ncolor: teal\n---\nBody\n");
        let decl = &bare.facts.agents[0];
        assert!(decl.node.is_none() && decl.whole_file && !decl.body_empty);
        assert_eq!(decl.name, "reviewer");
        // The field problem is still shown, but it cannot stop opencode now.
        let color = bare.diagnostics.iter().find(|d| d.code == Code::InvalidColor).unwrap();
        assert_eq!(color.severity, Severity::Warning);
        assert_eq!(color.effect, Effect::ValueIgnored);
        assert!(
            color.message.contains("once the YAML error is fixed"),
            "{}",
            color.message
        );
        let dup = bare.diagnostics.iter().find(|d| d.code == Code::DuplicateKey).unwrap();
        assert_eq!((dup.severity, dup.effect), (Severity::Error, Effect::FileIgnored));
        let skipped = analyze_agent("---\ndescription: a: b\nmode: x\nmode: y\n---\nBody\n");
        assert!(skipped.facts.agents.is_empty());
        assert!(
            skipped
                .diagnostics
                .iter()
                .any(|d| d.message.contains("skips this agent file"))
        );
    }

    #[test]
    fn rescued_and_unclosed_effects() {
        let a = analyze_agent("---\ndescription: Use when: x\n---\nBody\n");
        assert_eq!(a.diagnostics[0].effect, Effect::Works);
        let a = analyze_agent("---\nmode: subagent\n");
        assert_eq!(codes(&a), ["syntax-error"]);
        assert_eq!(a.diagnostics[0].effect, Effect::ValueIgnored);
        assert_eq!(a.facts.agents[0].mode().unwrap().0, "subagent");
    }

    #[test]
    fn mode_files_with_schema_errors_are_skipped() {
        let a = analyze("---\nhidden: yes\n---\nBody\n", "focus", DeclOrigin::ModeFile);
        assert!(a.facts.agents.is_empty());
        let d = a.diagnostics.iter().find(|d| d.code == Code::InvalidType).unwrap();
        assert_eq!(d.effect, Effect::FileIgnored);
        let ok = analyze("---\nhidden: true\n---\nBody\n", "focus", DeclOrigin::ModeFile);
        assert_eq!(ok.facts.agents.len(), 1);
    }

    #[test]
    fn scalar_and_list_frontmatter_spread_into_numbered_keys() {
        let a = analyze_agent("---\nhi\n---\nBody\n");
        let map = a.facts.agents[0].node.as_ref().unwrap().as_map().unwrap();
        let keys: Vec<(&str, Option<&str>)> = map
            .entries
            .iter()
            .map(|e| (e.key.name.as_str(), e.value.as_str()))
            .collect();
        assert_eq!(keys, [("0", Some("h")), ("1", Some("i"))]);
        let a = analyze_agent("---\n- x\n- 2\n---\nBody\n");
        let map = a.facts.agents[0].node.as_ref().unwrap().as_map().unwrap();
        assert_eq!(map.entries.len(), 2);
        assert_eq!(map.entries[1].value.value, Value::Int(2));
        assert!(analyze_agent("---\n42\n---\nBody\n").facts.agents[0].node.is_none());
    }

    #[test]
    fn frontmatter_prompt_type_does_not_matter() {
        let a = analyze_agent("---\nprompt: ~\n---\nBody\n");
        assert_eq!(codes(&a), ["prompt-overridden"]);
    }

    #[test]
    fn read_gives_what_opencode_hands_to_the_loader() {
        let r = read("---\nmode: subagent\n---\nBody\n");
        assert_eq!((r.reading, r.content.as_str()), (Reading::Parsed, "Body\n"));
        assert_eq!(r.data, serde_json::json!({"mode": "subagent"}));
        let text = "---\nmode: a\nmode: b\n---\nBody\n";
        let r = read(text);
        assert_eq!((r.reading, r.content.as_str()), (Reading::Bare, text));
        assert_eq!(r.data, serde_json::json!({}));
    }

    #[test]
    fn no_frontmatter_points_at_the_first_line() {
        let text = "\n\n# Notes  \nmore\n";
        let a = analyze_agent(text);
        assert_eq!(a.facts.agents[0].span.text(text), "# Notes");
    }

    #[test]
    fn engines_named_on_the_opening_line() {
        assert_eq!(
            analyze_agent("---yaml\nmode: subagent\n---\nB\n").facts.reading,
            Some(Reading::Parsed)
        );
        assert_eq!(
            analyze_agent("---YML\nmode: subagent\n---\nB\n").facts.reading,
            Some(Reading::Parsed)
        );
        let json = analyze_agent("---json\n{\"mode\": \"subagent\"}\n---\nB\n");
        assert_eq!(json.facts.reading, Some(Reading::Parsed));
        assert_eq!(json.facts.agents[0].mode().unwrap().0, "subagent");
        assert_eq!(
            analyze_agent("---json\n{mode: x}\n---\nB\n").facts.reading,
            Some(Reading::Bare)
        );
        let toml = "---toml\nmode = \"subagent\"\n---\nB\n";
        let a = analyze_agent(toml);
        assert_eq!(a.facts.reading, Some(Reading::Bare));
        assert_eq!(codes(&a), ["syntax-error"]);
        assert_eq!(a.diagnostics[0].span.text(toml), "toml");
        let js = analyze_agent("---js\n{mode: 'subagent'}\n---\nB\n");
        assert_eq!(
            (js.facts.reading, js.diagnostics[0].severity),
            (Some(Reading::Parsed), Severity::Warning)
        );
        assert!(js.facts.agents[0].node.is_none());
    }

    #[test]
    fn the_sanitizer_follows_javascript() {
        // `^---\r?\n`: a lone CR after the dashes is not a line break for the pattern.
        assert_eq!(
            analyze_agent("---\r\r\ndescription: Use when: x\n---\nB\n")
                .facts
                .reading,
            Some(Reading::Bare)
        );
        assert_eq!(
            analyze_agent("---\r\ndescription: Use when: x\n---\nB\n").facts.reading,
            Some(Reading::Rescued)
        );
        // `.` stops at U+2028: the line is not rewritten.
        assert_eq!(
            analyze_agent("---\ndescription: d\u{2028}: x\n---\nB\n").facts.reading,
            Some(Reading::Bare)
        );
        // JavaScript's trim keeps U+0085.
        let r = read("---\ndescription: \u{85}a: b\n---\nB\n");
        assert_eq!(r.reading, Reading::Rescued);
        assert_eq!(r.data, serde_json::json!({"description": "\u{85}a: b"}));
    }

    #[test]
    fn gray_matter_emptiness_and_the_final_line_break() {
        for text in [
            "---\n\u{a0}\n---\nB\n",
            "---\n# note\0\n---\nB\n",
            "---\n\n  # c\n---\nB\n",
        ] {
            let r = read(text);
            assert_eq!(
                (r.reading, r.data.clone()),
                (Reading::Parsed, serde_json::json!({})),
                "{text:?}"
            );
        }
        // The block stops before the line break of `\n---`: a keep-chomped scalar at the end
        // has one line break less.
        assert_eq!(
            read("---\nd: |+\n  text\n\n---\nBody\n").data,
            serde_json::json!({"d": "text\n"})
        );
        // A file with a BOM whose frontmatter is lost: the BOM is not part of the content.
        assert_eq!(read("\u{feff}---\na: b: c\n---\nB\n").content, "---\na: b: c\n---\nB\n");
    }
}
