//! Inline suppressions: `agent-lsp: ignore[CODE, ...]` comments, as ruff's `noqa` and ESLint's
//! disable comments.
//!
//! Where a directive may be written: in a `#` comment of the YAML frontmatter of a Markdown file
//! (a `#` inside a quoted string or a block scalar is not a comment; the Markdown body takes
//! none), and in a `//` or `/* */` comment of a JSONC file (not inside a string).
//!
//! - `agent-lsp: ignore[a, b]` after something on its line suppresses the codes `a` and `b` for
//!   the diagnostics that *start* on that line; alone on its line, for those that start on the
//!   next line.
//! - `agent-lsp: ignore-file[a]` anywhere suppresses `a` in the whole file.
//! - Codes are the rule codes, case-sensitive, separated by commas; whitespace is free. A bare
//!   `agent-lsp: ignore` (no brackets) suppresses nothing and is reported: a blanket suppression
//!   would hide the next, different mistake on that line.
//!
//! Parsing ([`directives`]) is pure and runs once per file (the result is kept in
//! `FileAnalysis`). [`apply`] runs where a file's full diagnostics are assembled (its own and
//! the cross-file ones), drops the suppressed ones and reports, as `unused-suppression`, every
//! code that matched nothing, every unknown code and every directive without codes. That rule
//! itself cannot be suppressed.

use super::complete::{Item, ItemKind};
use super::diagnostic::{Diagnostic, Edit};
use super::rules::{Code, RULES};
use super::syntax::frontmatter;
use super::text::Span;

/// The word that starts every directive.
const MARKER: &str = "agent-lsp:";

/// One code written in a directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub span: Span,
    /// `None`: not a rule code.
    pub code: Option<Code>,
}

/// One `agent-lsp: ignore...` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// The whole comment it is in, from its `#`, `//` or `/*` to its end (line break excluded).
    pub comment: Span,
    /// From `agent-lsp:` to the closing `]` (or the end of the word `ignore...`).
    pub span: Span,
    /// `ignore-file`: applies to the whole file.
    pub file: bool,
    /// The line a line directive applies to, its line break included (empty when there is no
    /// such line).
    pub target: Span,
    /// Between the brackets (`None`: no `[`).
    pub list: Option<Span>,
    /// The `[` is never closed.
    pub unclosed: bool,
    pub entries: Vec<Entry>,
    /// What to delete to remove the comment and leave the line tidy: the comment and the
    /// blanks before it, or its whole line when it is alone there.
    pub removal: Span,
}

/// The directives of one file, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suppressions {
    pub directives: Vec<Directive>,
}

/// What [`apply`] reports besides dropping suppressed diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// Nothing (e.g. `fix_all`, which only must not fix what is suppressed).
    Nothing,
    /// Unknown codes and directives without codes, not unused codes: some diagnostics of the
    /// file (the cross-file ones) are not known yet.
    Local,
    /// Everything: the diagnostics given are all of the file's.
    All,
}

/// A comment found in a file.
struct Comment {
    /// From the comment marker to its end (line break excluded).
    span: Span,
    /// The text after the marker (`#`, `//`, `/*`), up to `*/` or the line end.
    body: Span,
}

/// Where a file's comments are, for `agent-lsp: ignore` directives (the registration says it
/// for each kind of file, see `FileKind::comments`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comments {
    /// `#` comments of a Markdown file's YAML frontmatter.
    Frontmatter,
    /// `//` and `/* */` comments of a JSONC file.
    Jsonc,
    /// `#` comments of a TOML file (outside its strings).
    Toml,
    /// None taken: agent-lsp's own project file (TOML: fix it or its levels instead) and strict
    /// JSON without comments (a plugin manifest).
    None,
}

/// Find the directives of a file. `split` is the frontmatter split when the dialect
/// computed one (it is recomputed otherwise).
pub fn directives(kind: Comments, text: &str) -> Suppressions {
    if !text.contains(MARKER) {
        return Suppressions::default();
    }
    let comments = comments(kind, text);
    let directives = comments.iter().filter_map(|c| parse_directive(text, c)).collect();
    Suppressions { directives }
}

fn comments(kind: Comments, text: &str) -> Vec<Comment> {
    if kind == Comments::None {
        return Vec::new();
    }
    if kind == Comments::Frontmatter {
        let split = frontmatter::split(text);
        match &split.frontmatter {
            Some(fm) => yaml_lines(text, fm.yaml)
                .into_iter()
                .filter_map(|l| {
                    l.comment.map(|at| Comment {
                        span: Span::new(at, l.end),
                        body: Span::new(at + 1, l.end),
                    })
                })
                .collect(),
            None => Vec::new(),
        }
    } else if kind == Comments::Toml {
        toml_scan(text).0
    } else {
        jsonc_comments(text)
    }
}

/// The `#` comments of a TOML text, outside its strings, and the spans of its multi-line strings
/// (`"""..."""`, `\'\'\'...\'\'\'`), inside which a `#` is text.
fn toml_scan(text: &str) -> (Vec<Comment>, Vec<Span>) {
    let b = text.as_bytes();
    let mut comments = Vec::new();
    let mut multi = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            q @ (b'"' | b'\'') if b[i..].starts_with(&[q, q, q]) => {
                let close = [q, q, q];
                let mut j = i + 3;
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += if q == b'"' && b[j] == b'\\' { 2 } else { 1 };
                }
                // Up to two more quotes belong to the string (`""""` ends with a quote in it).
                let mut end = (j + 3).min(b.len());
                while end < b.len() && b[end] == q && end < j + 5 {
                    end += 1;
                }
                multi.push(Span::new(i, end));
                i = end;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if q == b'"' && b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'#' => {
                let nl = text[i..].find('\n').map_or(b.len(), |n| i + n);
                let end = if nl > i && b[nl - 1] == b'\r' { nl - 1 } else { nl };
                comments.push(Comment {
                    span: Span::new(i, end.max(i + 1)),
                    body: Span::new(i + 1, end.max(i + 1)),
                });
                i = nl;
            }
            _ => i += 1,
        }
    }
    (comments, multi)
}

/// One line of a YAML frontmatter, as far as comments go.
#[derive(Clone, Copy, Debug)]
struct YamlLine {
    start: usize,
    /// The line end, before `\r\n` or `\n`.
    end: usize,
    /// Where a `#` comment starts on it.
    comment: Option<usize>,
    /// Something other than blanks and a comment, outside scalars that run over lines.
    content: bool,
    /// The line is inside a block scalar or starts or ends inside a quoted scalar: a `#`
    /// appended to it would not be a comment.
    open: bool,
}

/// Scan the lines of a YAML text for comments: `#` at the start of a line or after a blank,
/// outside quoted scalars (which may run over several lines) and block scalars.
fn yaml_lines(text: &str, yaml: Span) -> Vec<YamlLine> {
    let mut out = Vec::new();
    let mut quote: Option<u8> = None;
    let mut block: Option<usize> = None;
    let mut pos = yaml.start as usize;
    let end = (yaml.end as usize).min(text.len());
    while pos < end {
        let line_end_nl = text[pos..end].find('\n').map_or(end, |i| pos + i);
        let line_end = if text[pos..line_end_nl].ends_with('\r') {
            line_end_nl - 1
        } else {
            line_end_nl
        };
        let b = &text.as_bytes()[pos..line_end];
        let indent = b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
        let blank = indent == b.len();
        let mut line = YamlLine {
            start: pos,
            end: line_end,
            comment: None,
            content: false,
            open: quote.is_some(),
        };
        if let Some(parent) = block {
            if blank || indent > parent {
                line.open = true;
                out.push(line);
                pos = line_end_nl + 1;
                continue;
            }
            block = None;
        }
        let mut i = 0;
        let mut last: Option<u8> = None; // the last non-blank byte outside quotes
        while i < b.len() {
            let c = b[i];
            if let Some(q) = quote {
                if q == b'"' && c == b'\\' {
                    i += 2;
                    continue;
                }
                if c == q {
                    if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                        i += 2;
                        continue;
                    }
                    quote = None;
                    last = Some(c);
                }
                i += 1;
                continue;
            }
            let after_blank = i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t';
            match c {
                b'#' if after_blank => {
                    line.comment = Some(pos + i);
                    break;
                }
                b'"' | b'\'' => {
                    let starts_value = match last {
                        None => true,
                        Some(b'[' | b'{' | b',') => true,
                        Some(b':' | b'-' | b'?') => after_blank,
                        _ => false,
                    };
                    if starts_value {
                        quote = Some(c);
                    }
                    line.content = true;
                    last = Some(c);
                }
                b' ' | b'\t' => {}
                _ => {
                    line.content = true;
                    last = Some(c);
                }
            }
            i += 1;
        }
        if quote.is_some() {
            line.open = true;
        } else {
            // A block scalar indicator ends the value part: `key: |`, `- >-`, `key: |2`.
            let value = &b[..line.comment.map_or(b.len(), |c| c - pos)];
            let value = trim_end(value);
            let token_start = value
                .iter()
                .rposition(|&c| c == b' ' || c == b'\t')
                .map_or(0, |i| i + 1);
            let token = &value[token_start..];
            let indicator = matches!(token.first(), Some(b'|' | b'>'))
                && token[1..].iter().all(|c| matches!(c, b'-' | b'+' | b'0'..=b'9'));
            let before = trim_end(&value[..token_start]);
            if indicator && matches!(before.last(), Some(b':' | b'-') | None) {
                block = Some(indent);
            }
        }
        out.push(line);
        pos = line_end_nl + 1;
    }
    out
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b.iter().rposition(|&c| c != b' ' && c != b'\t').map_or(0, |i| i + 1);
    &b[..n]
}

/// The comments of a JSONC text, outside strings.
fn jsonc_comments(text: &str) -> Vec<Comment> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let nl = text[i..].find('\n').map_or(b.len(), |n| i + n);
                let end = if nl > i && b[nl - 1] == b'\r' { nl - 1 } else { nl };
                let end = end.max(i + 2);
                out.push(Comment {
                    span: Span::new(i, end),
                    body: Span::new(i + 2, end),
                });
                i = nl;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (body_end, end) = match text[i + 2..].find("*/") {
                    Some(n) => (i + 2 + n, i + 4 + n),
                    None => (b.len(), b.len()),
                };
                out.push(Comment {
                    span: Span::new(i, end),
                    body: Span::new(i + 2, body_end),
                });
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// The start of the line holding `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The end of the line holding `at` (before its line break) and the start of the next line.
fn line_end(text: &str, at: usize) -> (usize, usize) {
    match text[at..].find('\n') {
        Some(i) => {
            let nl = at + i;
            let end = if nl > 0 && text.as_bytes()[nl - 1] == b'\r' {
                nl - 1
            } else {
                nl
            };
            (end.max(at), nl + 1)
        }
        None => (text.len(), text.len()),
    }
}

fn is_code_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

fn parse_directive(text: &str, c: &Comment) -> Option<Directive> {
    let body = c.body.text(text);
    let at = body.find(MARKER)?;
    let base = c.body.start as usize + at;
    let rest = &body[at + MARKER.len()..];
    let ws = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start();
    let word_start = base + MARKER.len() + ws;
    let (file, word_len) = if rest.starts_with("ignore-file") {
        (true, "ignore-file".len())
    } else if rest.starts_with("ignore") {
        (false, "ignore".len())
    } else {
        return None;
    };
    if rest[word_len..].starts_with(is_code_char) {
        // `ignored`, `ignore-files`: not a directive.
        return None;
    }
    let after_word = &rest[word_len..];
    let ws2 = after_word.len() - after_word.trim_start().len();
    let mut span_end = word_start + word_len;
    let mut list = None;
    let mut unclosed = false;
    let mut entries = Vec::new();
    if after_word.trim_start().starts_with('[') {
        let open = word_start + word_len + ws2;
        let inner = &text[open + 1..c.body.end as usize];
        let (inner_len, closed) = match inner.find(']') {
            Some(n) => (n, true),
            None => (inner.len(), false),
        };
        unclosed = !closed;
        let list_span = Span::new(open + 1, open + 1 + inner_len);
        span_end = if closed {
            open + 2 + inner_len
        } else {
            list_span.end as usize
        };
        let mut pos = open + 1;
        for part in text[list_span.range()].split(',') {
            let lead = part.len() - part.trim_start().len();
            let name = part.trim();
            if !name.is_empty() {
                let start = pos + lead;
                entries.push(Entry {
                    name: name.to_string(),
                    span: Span::new(start, start + name.len()),
                    code: Code::from_name(name),
                });
            }
            pos += part.len() + 1;
        }
        list = Some(list_span);
    }
    let (cs, ce) = (c.span.start as usize, c.span.end as usize);
    let ls = line_start(text, cs);
    let (le, next) = line_end(text, ce);
    let nothing_before = text[ls..cs].trim().is_empty();
    let nothing_after = text[ce..le].trim().is_empty();
    let alone = nothing_before && nothing_after;
    let target = if alone {
        let (_, after) = line_end(text, next);
        Span::new(next, after)
    } else {
        let (_, after) = line_end(text, cs);
        Span::new(ls, after)
    };
    let (body_start, body_end) = (c.body.start as usize, c.body.end as usize);
    let other_text =
        !text[body_start..base].trim().is_empty() || !text[span_end.min(body_end)..body_end].trim().is_empty();
    let removal = if other_text {
        // The comment says more than the directive: only the directive goes.
        let before = text[body_start..base].trim_end().len();
        Span::new(body_start + before, span_end)
    } else if alone {
        Span::new(ls, next)
    } else if !nothing_before {
        let keep = ls + text[ls..cs].trim_end().len();
        Span::new(keep, ce)
    } else {
        let trailing = text[ce..le].len() - text[ce..le].trim_start().len();
        Span::new(cs, ce + trailing)
    };
    Some(Directive {
        comment: c.span,
        span: Span::new(base, span_end),
        file,
        target,
        list,
        unclosed,
        entries,
        removal,
    })
}

impl Suppressions {
    pub fn is_empty(&self) -> bool {
        self.directives.is_empty()
    }
}

/// Drop the diagnostics a directive suppresses and add, as `report` says, the
/// `unused-suppression` findings. `unused-suppression` itself is never suppressed.
pub fn apply(sup: &Suppressions, diags: Vec<Diagnostic>, report: Report) -> Vec<Diagnostic> {
    if sup.directives.is_empty() {
        return diags;
    }
    let mut used: Vec<Vec<bool>> = sup.directives.iter().map(|d| vec![false; d.entries.len()]).collect();
    // The known codes of line directives by target line (lines never overlap: two targets are
    // equal or apart), and those of file directives by code: a file with many directives and
    // many diagnostics costs a binary search per diagnostic.
    let mut lines: Vec<(u32, u32, Code, usize, usize)> = Vec::new();
    let mut whole: Vec<Vec<(usize, usize)>> = vec![Vec::new(); RULES.len()];
    for (i, dir) in sup.directives.iter().enumerate() {
        for (j, e) in dir.entries.iter().enumerate() {
            let Some(code) = e.code else { continue };
            if dir.file {
                whole[code as usize].push((i, j));
            } else {
                lines.push((dir.target.start, dir.target.end, code, i, j));
            }
        }
    }
    lines.sort_unstable_by_key(|l| (l.0, l.2));
    let mut out = Vec::with_capacity(diags.len());
    for d in diags {
        let mut hit = false;
        if d.code != Code::UnusedSuppression {
            for &(i, j) in &whole[d.code as usize] {
                used[i][j] = true;
                hit = true;
            }
            let at = d.span.start;
            let k = lines.partition_point(|l| l.0 <= at);
            if let Some(&(line, ..)) = k.checked_sub(1).map(|k| &lines[k]) {
                for &(start, end, code, i, j) in lines[..k].iter().rev().take_while(|l| l.0 == line) {
                    if start <= at && at < end && code == d.code {
                        used[i][j] = true;
                        hit = true;
                    }
                }
            }
        }
        if !hit {
            out.push(d);
        }
    }
    if report != Report::Nothing {
        for (dir, used) in sup.directives.iter().zip(&used) {
            out.extend(findings(dir, used, report == Report::All));
        }
    }
    out
}

trait ContainsStart {
    fn contains_start(self, at: usize) -> bool;
}

impl ContainsStart for Span {
    fn contains_start(self, at: usize) -> bool {
        self.start as usize <= at && at < self.end as usize
    }
}

fn remove_comment(dir: &Directive) -> Vec<Edit> {
    vec![Edit::new(dir.removal, "")]
}

/// The edit that removes entry `i` of a directive with its comma.
fn remove_entry(dir: &Directive, i: usize) -> Vec<Edit> {
    let e = &dir.entries;
    if e.len() == 1 {
        return remove_comment(dir);
    }
    let span = if i + 1 < e.len() {
        Span::new(e[i].span.start as usize, e[i + 1].span.start as usize)
    } else {
        Span::new(e[i - 1].span.end as usize, e[i].span.end as usize)
    };
    vec![Edit::new(span, "")]
}

fn findings(dir: &Directive, used: &[bool], all: bool) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let word = if dir.file { "ignore-file" } else { "ignore" };
    if dir.unclosed {
        out.push(
            Diagnostic::new(
                Code::UnusedSuppression,
                dir.span,
                format!("This `agent-lsp: {word}[` is never closed with `]`: it suppresses nothing."),
            )
            .with_fix("Remove the suppression comment", remove_comment(dir), false),
        );
        return out;
    }
    if dir.entries.is_empty() {
        let what = if dir.list.is_some() {
            "lists no code"
        } else {
            "names no code"
        };
        out.push(
            Diagnostic::new(
                Code::UnusedSuppression,
                dir.span,
                format!(
                    "This `agent-lsp: {word}` {what}, so it suppresses nothing: name the codes to ignore, e.g. \
`agent-lsp: {word}[unknown-key]` (a blanket suppression would hide the next, different mistake)."
                ),
            )
            .with_fix("Remove the suppression comment", remove_comment(dir), true),
        );
        return out;
    }
    let mut unknown = false;
    for (i, e) in dir.entries.iter().enumerate() {
        if e.code.is_none() {
            unknown = true;
            let names = RULES
                .iter()
                .filter(|r| r.code != Code::UnusedSuppression)
                .map(|r| r.name);
            let close = super::suggest::closest(&e.name, names);
            let d = Diagnostic::new(
                Code::UnusedSuppression,
                e.span,
                format!(
                    "`{}` is not an agent-lsp rule code, so it suppresses nothing.{}",
                    e.name,
                    super::suggest::did_you_mean(close)
                ),
            );
            out.push(match close {
                Some(c) => d.with_suggestion(e.span, c),
                None => d.with_fix(format!("Remove `{}`", e.name), remove_entry(dir, i), true),
            });
        } else if e.code == Some(Code::UnusedSuppression) {
            unknown = true;
            out.push(
                Diagnostic::new(
                    Code::UnusedSuppression,
                    e.span,
                    "`unused-suppression` cannot be suppressed: remove the suppression that is unused instead.",
                )
                .with_fix("Remove `unused-suppression`", remove_entry(dir, i), true),
            );
        }
    }
    if !all {
        return out;
    }
    let where_ = if dir.file {
        "in this file"
    } else {
        "on the line it applies to"
    };
    let unused: Vec<usize> = (0..dir.entries.len())
        .filter(|&i| !used[i] && dir.entries[i].code.is_some_and(|c| c != Code::UnusedSuppression))
        .collect();
    if !unknown && unused.len() == dir.entries.len() {
        let names: Vec<String> = dir.entries.iter().map(|e| format!("`{}`", e.name)).collect();
        out.push(
            Diagnostic::new(
                Code::UnusedSuppression,
                dir.span,
                format!(
                    "Unused suppression: no {} diagnostic starts {where_}.",
                    names.join(" or ")
                ),
            )
            .with_fix("Remove the unused suppression", remove_comment(dir), true),
        );
        return out;
    }
    for i in unused {
        let e = &dir.entries[i];
        out.push(
            Diagnostic::new(
                Code::UnusedSuppression,
                e.span,
                format!("Unused suppression: no `{}` diagnostic starts {where_}.", e.name),
            )
            .with_fix(format!("Remove `{}`", e.name), remove_entry(dir, i), true),
        );
    }
    out
}

/// The edit that makes a diagnostic of `code` starting at `at` ignored on its line: the code
/// added to the line directive that applies there, or a new trailing comment. `None` where no
/// comment can be written (the Markdown body, a delimiter line, a line inside a multi-line
/// string or block scalar, a line with nothing but a comment), in a file that does not parse as
/// written (a runtime's retry may read a new ` # ...` as part of a value: Claude Code's quotes
/// every value holding `: `), and for `unused-suppression`.
pub fn ignore_edit(
    kind: Comments,
    text: &str,
    sup: &Suppressions,
    parses_as_written: bool,
    at: usize,
    code: Code,
) -> Option<Edit> {
    if code == Code::UnusedSuppression || at > text.len() || !parses_as_written || kind == Comments::None {
        return None;
    }
    let name = code.as_str();
    // An existing directive for that line.
    if let Some(dir) = sup
        .directives
        .iter()
        .find(|d| !d.file && !d.unclosed && d.list.is_some() && d.target.contains_start(at))
    {
        if dir.entries.iter().any(|e| e.code == Some(code)) {
            return None;
        }
        let list = dir.list?;
        return Some(match dir.entries.last() {
            Some(last) => Edit::new(Span::empty(last.span.end as usize), format!(", {name}")),
            None => Edit::new(list, name),
        });
    }
    let ls = line_start(text, at);
    let (le, _) = line_end(text, at.max(ls));
    if kind == Comments::Frontmatter {
        let split = frontmatter::split(text);
        let fm = split.frontmatter?;
        let lines = yaml_lines(text, fm.yaml);
        let n = lines.iter().position(|l| l.start == ls)?;
        let line = lines[n];
        if line.open || !line.content {
            return None;
        }
        // A comment ends a plain scalar: not on a line whose value goes on over the next lines
        // (`description: a long` + `  text`), which would become a syntax error. Conservative:
        // any more indented line after one that does not end with `:`.
        let indent = |l: &YamlLine| text[l.start..l.end].len() - text[l.start..l.end].trim_start().len();
        let value_end = line.comment.unwrap_or(line.end);
        let opens_map = text[ls..value_end].trim_end().ends_with(':');
        let next = lines[n + 1..].iter().find(|l| l.content || l.open);
        if next.is_some_and(|next| indent(next) > indent(&line)) && !opens_map {
            return None;
        }
        let end = ls + trim_end(&text.as_bytes()[ls..le]).len();
        Some(Edit::new(Span::new(end, le), format!(" # agent-lsp: ignore[{name}]")))
    } else if kind == Comments::Toml {
        let (comments, multi) = toml_scan(text);
        // The line must start and end outside a multi-line string, and hold something before
        // any comment.
        let inside = |p: usize| multi.iter().any(|m| (m.start as usize) < p && p < m.end as usize);
        if inside(ls) || inside(le) {
            return None;
        }
        let first_comment = comments
            .iter()
            .map(|c| c.span.start as usize)
            .find(|&s| s >= ls && s < le.max(ls + 1))
            .unwrap_or(le);
        if text[ls..first_comment].trim().is_empty() {
            return None;
        }
        let end = ls + text[ls..le].trim_end().len();
        Some(Edit::new(Span::new(end, le), format!(" # agent-lsp: ignore[{name}]")))
    } else {
        let comments = jsonc_comments(text);
        // The line must start and end outside a block comment, and hold something before any
        // comment.
        let inside = |p: usize| {
            comments
                .iter()
                .any(|c| (c.span.start as usize) < p && p < c.span.end as usize)
        };
        if inside(ls) || inside(le) {
            return None;
        }
        let first_comment = comments
            .iter()
            .map(|c| c.span.start as usize)
            .find(|&s| s >= ls && s < le.max(ls + 1))
            .unwrap_or(le);
        if text[ls..first_comment].trim().is_empty() {
            return None;
        }
        let end = ls + text[ls..le].trim_end().len();
        Some(Edit::new(Span::new(end, le), format!(" // agent-lsp: ignore[{name}]")))
    }
}

/// Hover on a code of a directive: the rule's name, default severity and summary.
pub fn hover(sup: &Suppressions, at: usize) -> Option<(String, Span)> {
    let e = sup
        .directives
        .iter()
        .flat_map(|d| &d.entries)
        .find(|e| e.span.start as usize <= at && at <= e.span.end as usize)?;
    let markdown = match e.code {
        Some(code) => {
            let r = code.rule();
            format!(
                "**`{}`** ({}, {})\n\n{}\n\n`agent-lsp rules {}` explains it.",
                r.name,
                r.severity.as_str(),
                r.effect.as_str(),
                r.summary,
                r.name
            )
        }
        None => format!("`{}` is not an agent-lsp rule code.", e.name),
    };
    Some((markdown, e.span))
}

/// Completion of rule codes inside the brackets of a directive: every code but those already
/// listed (and `unused-suppression`), with its summary. `None` outside a directive's brackets.
pub fn complete(sup: &Suppressions, text: &str, at: usize) -> Option<Vec<Item>> {
    let dir = sup
        .directives
        .iter()
        .find(|d| d.list.is_some_and(|l| l.start as usize <= at && at <= l.end as usize))?;
    let bytes = text.as_bytes();
    let mut start = at;
    while start > 0 && is_code_char(bytes[start - 1] as char) {
        start -= 1;
    }
    let mut end = at;
    while end < bytes.len() && is_code_char(bytes[end] as char) {
        end += 1;
    }
    let replace = Span::new(start, end);
    let listed: Vec<Code> = dir
        .entries
        .iter()
        .filter(|e| e.span != replace)
        .filter_map(|e| e.code)
        .collect();
    Some(
        RULES
            .iter()
            .filter(|r| r.code != Code::UnusedSuppression && !listed.contains(&r.code))
            .map(|r| Item {
                label: r.name.to_string(),
                kind: ItemKind::Value,
                detail: r.summary.to_string(),
                documentation: Some(r.explanation.to_string()),
                insert: r.name.to_string(),
                replace,
                rank: 0,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
