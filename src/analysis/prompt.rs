//! The body of a command or skill, as data shared by the runtimes that read one: where a shown
//! description comes from, the placeholders a runtime fills in, and the Markdown the body holds
//! (its code spans, its relative links to files, the files it names). Dialect neutral: what a
//! runtime makes of a body (Claude Code's description, hint and expansion, its `@path`
//! references) lives in its folder (`claude/prompt.rs`, `claude/memory.rs`).

use crate::analysis::text::Span;

/// Where the description a runtime shows comes from (Claude Code's reading is in its dialect's
/// `prompt.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescriptionFrom {
    /// `description` (a string, number or boolean).
    Field,
    /// The first non-blank line of the body.
    Body,
    /// No description and a blank body: `Custom command` or `Skill`.
    Default,
}

/// One placeholder a runtime replaces in a body (Claude Code's are in its dialect's `prompt.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The placeholder as written (`$1`, `$ARGUMENTS[0]`, `$file`).
    pub span: Span,
    pub kind: PlaceholderKind,
    /// Inside a fenced code block or an inline code span.
    pub in_code: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceholderKind {
    /// `$ARGUMENTS`: the whole argument string.
    All,
    /// `$N`: argument N, counting from 0.
    Index(usize),
    /// `$ARGUMENTS[N]`: argument N, counting from 0.
    ArgumentsIndex(usize),
    /// `$name`: the argument at this position of `arguments`.
    Named(String, usize),
}

/// Whether `at` lies in one of `spans` (sorted, not overlapping).
pub(crate) fn within(spans: &[Span], at: usize) -> bool {
    let i = spans.partition_point(|s| (s.end as usize) <= at);
    spans.get(i).is_some_and(|s| s.start as usize <= at)
}

/// The code of a Markdown body: fenced code blocks (from the opening fence line to the end of
/// the closing one, or of the body) and inline code spans (between matching backtick runs in one
/// paragraph, backticks excluded). Indented code blocks are not recognised.
pub fn code_spans(text: &str, body: Span) -> Vec<Span> {
    let (start, end) = (body.start as usize, (body.end as usize).min(text.len()));
    let Some(body_text) = text.get(start..end) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Lines, with their offsets.
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut pos = start;
    for line in body_text.split_inclusive('\n') {
        lines.push((pos, line));
        pos += line.len();
    }
    let mut fence: Option<(u8, usize, usize)> = None; // (char, length, start)
    let mut paragraph: Vec<(usize, &str)> = Vec::new();
    let flush = |paragraph: &mut Vec<(usize, &str)>, out: &mut Vec<Span>| {
        inline_code(paragraph, out);
        paragraph.clear();
    };
    for &(at, line) in &lines {
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.bytes().take_while(|c| *c == b' ').count();
        let rest = &content[indent..];
        let run = |ch: u8| rest.bytes().take_while(|c| *c == ch).count();
        match fence {
            Some((ch, len, from)) => {
                let n = run(ch);
                if indent <= 3 && n >= len && rest[n..].trim().is_empty() {
                    out.push(Span::new(from, at + content.len()));
                    fence = None;
                }
            }
            None => {
                let opener = if indent <= 3 {
                    [b'`', b'~']
                        .into_iter()
                        .map(|ch| (ch, run(ch)))
                        .find(|(ch, n)| *n >= 3 && !(*ch == b'`' && rest[*n..].contains('`')))
                } else {
                    None
                };
                if let Some((ch, n)) = opener {
                    flush(&mut paragraph, &mut out);
                    fence = Some((ch, n, at));
                } else if content.trim().is_empty() {
                    flush(&mut paragraph, &mut out);
                } else {
                    paragraph.push((at, line));
                }
            }
        }
    }
    if let Some((_, _, from)) = fence {
        out.push(Span::new(from, end));
    }
    flush(&mut paragraph, &mut out);
    out.sort_by_key(|s| s.start);
    out
}

/// Inline code spans of one paragraph (its lines, with their offsets), backticks excluded.
pub(crate) fn inline_code(lines: &[(usize, &str)], out: &mut Vec<Span>) {
    let Some(&(first, _)) = lines.first() else { return };
    let text: String = lines.iter().map(|(_, l)| *l).collect();
    let b = text.as_bytes();
    let mut unmatched = std::collections::HashSet::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let n = b[i..].iter().take_while(|c| **c == b'`').count();
        let open_end = i + n;
        if unmatched.contains(&n) {
            i = open_end;
            continue;
        }
        // The next run of exactly n backticks closes it.
        let mut j = open_end;
        let mut close = None;
        while j < b.len() {
            if b[j] == b'`' {
                let m = b[j..].iter().take_while(|c| **c == b'`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(c) => {
                out.push(Span::new(first + open_end, first + c));
                i = c + n;
            }
            None => {
                // No run of this length follows: none will later either.
                unmatched.insert(n);
                i = open_end;
            }
        }
    }
}

/// A file a body names by path for its runtime to read (Claude Code's `@path`): the path as the
/// runtime resolves it, where it is written, and whether it is inside code. Where a relative path
/// starts is the runtime's (see the function that found it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRef {
    /// The path as the runtime reads it (an anchor cut off, escapes undone).
    pub path: String,
    /// The path as written (after the `@`).
    pub span: Span,
    /// Inside a fenced code block or an inline code span.
    pub in_code: bool,
}

/// A relative link of a Markdown body to a file: the path as written (relative to the file's
/// folder, `${CLAUDE_SKILL_DIR}/` removed, fragment and query removed, `%xx` decoded) and the span
/// of the destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub path: String,
    pub span: Span,
}

/// The relative file links of a body (`[x](path)`, `![x](path)`, `[x]: path`), outside code.
/// URLs, anchors, absolute paths, `~` paths, other `${...}` variables and paths holding a `$`
/// placeholder are left out.
pub fn links(text: &str, body: Span) -> Vec<Link> {
    let (start, end) = (body.start as usize, (body.end as usize).min(text.len()));
    let Some(body_text) = text.get(start..end) else {
        return Vec::new();
    };
    let code = code_spans(text, body);
    let in_code = |at: usize| within(&code, at);
    let mut out = Vec::new();
    let b = body_text.as_bytes();
    let mut line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        let at_line_start = line_start;
        if c != b' ' {
            line_start = false;
        }
        if c == b'\\' {
            i += 2;
            continue;
        }
        if c != b'[' || in_code(start + i) {
            i += 1;
            continue;
        }
        // The matching `]` on the same line, within a bound (so that a line of unclosed `[`
        // costs linear time).
        let mut depth = 0usize;
        let mut j = i;
        let mut close = None;
        let limit = (i + MAX_LINK_TEXT).min(b.len());
        while j < limit && b[j] != b'\n' {
            match b[j] {
                b'\\' => j += 1,
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(j);
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let Some(close) = close else {
            i += 1;
            continue;
        };
        let dest = if b.get(close + 1) == Some(&b'(') {
            destination(body_text, close + 2, true).filter(|(_, e)| ends(body_text, *e, Some(b')')))
        } else if at_line_start && b.get(close + 1) == Some(&b':') {
            let mut k = close + 2;
            while matches!(b.get(k), Some(b' ' | b'\t')) {
                k += 1;
            }
            destination(body_text, k, false).filter(|(_, e)| ends(body_text, *e, None))
        } else {
            None
        };
        if let Some((from, to)) = dest
            && let Some(path) = relative_path(&body_text[from..to])
        {
            out.push(Link {
                path,
                span: Span::new(start + from, start + to),
            });
        }
        i = close + 1;
    }
    out
}

/// The longest link text looked at, in bytes.
const MAX_LINK_TEXT: usize = 1000;

/// The destination starting at `at` (after `(` or `]: `): its byte range, without `<` `>`.
fn destination(s: &str, at: usize, inline: bool) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let mut k = at;
    if inline {
        while matches!(b.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
    }
    if b.get(k) == Some(&b'<') {
        let end = s[k + 1..].find(['>', '\n'])? + k + 1;
        return (b[end] == b'>').then_some((k + 1, end));
    }
    let mut depth = 0usize;
    let mut e = k;
    while e < b.len() {
        match b[e] {
            b' ' | b'\t' | b'\n' | b'\r' => break,
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            b'\\' => e += 1,
            _ => {}
        }
        e += 1;
    }
    let e = e.min(b.len());
    (e > k).then_some((k, e))
}

/// Whether a destination ending at `e` is followed by what completes a link: optional blanks, an
/// optional quoted title, then `close` (an inline link's `)`) or the end of the line (a
/// reference definition).
fn ends(s: &str, e: usize, close: Option<u8>) -> bool {
    let b = s.as_bytes();
    let mut k = e;
    if b.get(k) == Some(&b'>') {
        k += 1;
    }
    let blanks = |k: &mut usize| {
        while matches!(b.get(*k), Some(b' ' | b'\t')) {
            *k += 1;
        }
    };
    blanks(&mut k);
    if let Some(&q @ (b'"' | b'\'' | b'(')) = b.get(k) {
        let end = if q == b'(' { b')' } else { q };
        let line = s[k + 1..].find('\n').map_or(s.len(), |n| k + 1 + n);
        match s[k + 1..line].find(end as char) {
            Some(p) => k += p + 2,
            None => return false,
        }
        blanks(&mut k);
    }
    match close {
        Some(c) => b.get(k) == Some(&c),
        None => matches!(b.get(k), None | Some(b'\n' | b'\r')),
    }
}

/// A link destination as a path relative to the file's folder, or `None` when it is not one.
fn relative_path(dest: &str) -> Option<String> {
    let dest = dest.trim();
    let dest = match dest.strip_prefix("${CLAUDE_SKILL_DIR}") {
        Some(rest) => rest.trim_start_matches('/'),
        None => dest,
    };
    let cut = dest.find(['#', '?']).unwrap_or(dest.len());
    let path = &dest[..cut];
    if path.is_empty() || path.starts_with(['/', '\\', '~']) || path.contains('$') {
        return None;
    }
    // A scheme (`https:`, `mailto:`) or a drive letter.
    if let Some(colon) = path.find(':')
        && path[..colon]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    {
        return None;
    }
    if path.contains("{{") || path.contains('<') {
        return None;
    }
    Some(percent_decode(path))
}

/// `decodeURIComponent` of a path: each `%XX` made its byte; text that is then no UTF-8 is
/// left as it is.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(h) = s.get(i + 1..i + 3)
            && let Ok(v) = u8::from_str_radix(h, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_of_a_body() {
        let text = "a `x` b\n\n~~~~\nin\n```\nstill in\n~~~~\nout `un\n\nclosed ``y`` \\`z `w`\n```\nopen to the end\n";
        let spans: Vec<&str> = code_spans(text, Span::new(0, text.len()))
            .into_iter()
            .map(|s| s.text(text))
            .collect();
        assert_eq!(
            spans,
            ["x", "~~~~\nin\n```\nstill in\n~~~~", "y", "w", "```\nopen to the end\n"]
        );
    }

    #[test]
    fn relative_links() {
        let text = "See [a](references/a.md), ![img](assets/x%20y.png \"t\"), [b](<with space.md>),\n[web](https://x.y/z), [anchor](#top), [abs](/etc/passwd), [home](~/x), [mail](mailto:a@b),\n[dir](${CLAUDE_SKILL_DIR}/scripts/run.sh), [root](${CLAUDE_PLUGIN_ROOT}/x), [frag](guide.md#part),\n[p](docs/$1.md) `[code](not/a/link.md)`\n[ref]: ./refs/r.md\n  [c]: c.md \"title\"\n[nested [x]](n.md) [empty]() [win](C:\\x)\n";
        let got: Vec<(String, &str)> = links(text, Span::new(0, text.len()))
            .into_iter()
            .map(|l| (l.path, l.span.text(text)))
            .collect();
        assert_eq!(
            got,
            [
                ("references/a.md".to_string(), "references/a.md"),
                ("assets/x y.png".to_string(), "assets/x%20y.png"),
                ("with space.md".to_string(), "with space.md"),
                ("scripts/run.sh".to_string(), "${CLAUDE_SKILL_DIR}/scripts/run.sh"),
                ("guide.md".to_string(), "guide.md#part"),
                ("./refs/r.md".to_string(), "./refs/r.md"),
                ("c.md".to_string(), "c.md"),
                ("n.md".to_string(), "n.md"),
            ]
        );
    }
}
