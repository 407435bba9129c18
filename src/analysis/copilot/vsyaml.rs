//! A frontmatter as VS Code's own YAML reader reads it, where that differs from a YAML parser.
//!
//! VS Code reads prompt files' headers with a small parser of its own, not a YAML library.
//! Observed in VS Code 1.139.1 (`tests/copilot_vscode/`, cases `colon-*` and `quote-*`):
//! - a plain value holding `: ` (`description: Review: finds bugs`) is read to the end of its
//!   line, without a word; YAML rejects it (GitHub.com's coding agent cannot read the file);
//! - after a quoted value, more text on its line (`'it\'s done'`, where `\'` closes the value
//!   and `s done'` follows) stops the reading there, without a word: the keys below are lost.
//!   (js-yaml 3 reads the rest as a second key, js-yaml 4 rejects it.)
//!
//! [`read`] finds both on a line scan, then parses a copy of the text of the same length in which
//! each such `:` is a `;` (the value then read from the original) and everything after the
//! quoted value is blank: the tree is VS Code's reading, its spans the file's.

use super::{CopilotFile, FileKind};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Parsed, Style, Value, yaml};
use crate::analysis::text::Span;

/// Where VS Code's reading departs from YAML's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quirk {
    /// A plain value holding `: `, on the span of that `:`; `value` is the whole value (without
    /// a trailing comment).
    ColonInPlain { colon: Span, value: Span },
    /// Text after a quoted value on its line (`rest`); `quoted` is the quoted value. VS Code
    /// reads nothing from there on.
    StopsAt { quoted: Span, rest: Span },
}

/// VS Code's reading of `yaml_text`, the frontmatter starting at byte `offset` of the file, with
/// where it departs from YAML.
pub fn read(yaml_text: &str, offset: usize) -> (Parsed, Vec<Quirk>) {
    let quirks = scan(yaml_text);
    if quirks.is_empty() {
        return (yaml::parse(yaml_text, offset), quirks);
    }
    let mut bytes = yaml_text.as_bytes().to_vec();
    let mut colons = Vec::new();
    for q in &quirks {
        match q {
            Quirk::ColonInPlain { colon, .. } => {
                bytes[colon.start as usize] = b';';
                colons.push(colon.start as usize + offset);
            }
            Quirk::StopsAt { rest, .. } => {
                for b in &mut bytes[rest.start as usize..] {
                    if !matches!(*b, b'\n' | b'\r') {
                        *b = b' ';
                    }
                }
            }
        }
    }
    // Only ASCII bytes replaced whole characters: still UTF-8.
    let copy = String::from_utf8(bytes).unwrap_or_else(|_| yaml_text.to_string());
    let mut parsed = yaml::parse(&copy, offset);
    if let Some(root) = &mut parsed.root {
        restore(root, &colons, yaml_text, offset);
    }
    let shift = |s: Span| Span::new(s.start as usize + offset, s.end as usize + offset);
    let quirks = quirks
        .into_iter()
        .map(|q| match q {
            Quirk::ColonInPlain { colon, value } => Quirk::ColonInPlain {
                colon: shift(colon),
                value: shift(value),
            },
            Quirk::StopsAt { quoted, rest } => Quirk::StopsAt {
                quoted: shift(quoted),
                rest: shift(rest),
            },
        })
        .collect();
    (parsed, quirks)
}

/// The diagnostics of `quirks` in a file of `kind` that declares `file`: a plain value holding
/// `: ` where GitHub.com's coding agent reads the file (VS Code reads it), with a fix that quotes
/// it; the end of VS Code's reading after a quoted value, always.
pub fn report(kind: &FileKind, file: &CopilotFile, quirks: &[Quirk], text: &str, out: &mut Vec<Diagnostic>) {
    // GitHub.com reads agents (unless `target: vscode`) and instructions, not prompt files.
    let github = match kind {
        FileKind::Agent { .. } => file.targets().1,
        FileKind::Instructions { .. } | FileKind::RepoInstructions => true,
        FileKind::Prompt { .. } | FileKind::Mcp => false,
    };
    let mut quoted: Option<Span> = None;
    for q in quirks {
        match q {
            Quirk::ColonInPlain { colon, value } if github => {
                if quoted == Some(*value) {
                    continue;
                }
                quoted = Some(*value);
                let written = value.text(text);
                let mut d = Diagnostic::new(
                    Code::SyntaxError,
                    *colon,
                    "a plain value holding `: ` is not valid YAML: GitHub.com's coding agent cannot read this file (VS Code reads the value to the end of the line). Quote the value",
                )
                .with_effect(Effect::FileIgnored);
                // A value that goes on over the next lines is not quoted by a fix.
                if !continues(text, *value) {
                    let fix = format!("'{}'", written.replace('\'', "''"));
                    d = d.with_fix("Quote the value", vec![Edit::new(*value, fix)], true);
                }
                out.push(d);
            }
            Quirk::ColonInPlain { .. } => {}
            Quirk::StopsAt { quoted, rest } => {
                let escaped = quoted.text(text).starts_with('\'') && quoted.text(text).ends_with("\\'");
                out.push(
                    Diagnostic::new(
                        Code::SyntaxError,
                        *rest,
                        format!(
                            "text after the quoted value: VS Code stops reading the frontmatter here, without a word, and every key below this line is lost{}.{}",
                            if github { "; GitHub.com's coding agent cannot read the file" } else { "" },
                            if escaped {
                                " Inside single quotes a quote is written twice (`''`): `\\'` ends the value"
                            } else {
                                " Quote the whole value"
                            }
                        ),
                    )
                    .with_effect(Effect::ValueIgnored),
                );
            }
        }
    }
}

/// Whether the value at `value` goes on over the next line: that line is more indented than the
/// value's own line, and not blank.
fn continues(text: &str, value: Span) -> bool {
    let line_start = text[..value.start as usize].rfind('\n').map_or(0, |i| i + 1);
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let own = indent(&text[line_start..]);
    let Some(next) = text[value.end as usize..].split('\n').nth(1) else {
        return false;
    };
    let next = next.trim_end_matches('\r');
    !next.trim().is_empty() && indent(next) > own && next.trim() != "---"
}

/// The plain scalars holding a patched `:` get their text back from the original.
fn restore(node: &mut Node, colons: &[usize], original: &str, offset: usize) {
    match &mut node.value {
        Value::Seq(items) => items.iter_mut().for_each(|n| restore(n, colons, original, offset)),
        Value::Map(m) => m
            .entries_mut()
            .iter_mut()
            .for_each(|e| restore(&mut e.value, colons, original, offset)),
        Value::Str(s) if node.style == Style::Plain => {
            let (start, end) = (node.span.start as usize, node.span.end as usize);
            if colons.iter().any(|&c| c >= start && c < end)
                && let Some(text) = original.get(start.saturating_sub(offset)..end.saturating_sub(offset))
            {
                // A plain scalar over several lines is folded: its lines joined by a space.
                *s = text
                    .split(['\n', '\r'])
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
            }
        }
        _ => {}
    }
}

/// The quirks of `text`, spans relative to it; nothing is read after a [`Quirk::StopsAt`].
fn scan(text: &str) -> Vec<Quirk> {
    let mut out = Vec::new();
    let mut pos = 0;
    // Inside a block scalar: the indentation of the line that opened it.
    let mut block: Option<usize> = None;
    // Open brackets of a flow collection that spans lines.
    let mut flow = 0usize;
    for raw in text.split_inclusive('\n') {
        let line_start = pos;
        pos += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let indent = line.len() - line.trim_start_matches(' ').len();
        let content = &line[indent..];
        if let Some(open) = block {
            if content.trim().is_empty() || indent > open {
                continue;
            }
            block = None;
        }
        if flow > 0 {
            flow = brackets(line, flow);
            continue;
        }
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        // `- ` items before a key.
        let mut at = indent;
        while line[at..].starts_with("- ") {
            at += 2;
            at += line[at..].len() - line[at..].trim_start_matches(' ').len();
        }
        let rest = &line[at..];
        if rest.starts_with(['"', '\'', '[', '{', '?', '&', '*', '!', '#', '|', '>', '%', '@', '`']) {
            flow = brackets(line, 0);
            continue;
        }
        let Some(colon) = key_colon(rest) else {
            continue;
        };
        let after = &rest[colon + 1..];
        let value_at = at + colon + 1 + (after.len() - after.trim_start_matches([' ', '\t']).len());
        let value = &line[value_at..];
        match value.as_bytes().first() {
            None | Some(b'#' | b'&' | b'*' | b'!' | b'%' | b'@' | b'`') => {}
            Some(b'|' | b'>') => block = Some(indent),
            Some(b'[' | b'{') => flow = brackets(value, 0),
            Some(&q @ (b'\'' | b'"')) => {
                let Some(close) = closing(value, q) else {
                    // Over several lines: left to the YAML parser.
                    continue;
                };
                let tail = &value[close + 1..];
                let trimmed = tail.trim_start_matches([' ', '\t']);
                // A comment needs a blank before its `#`.
                let comment = trimmed.starts_with('#') && trimmed.len() < tail.len();
                if !(trimmed.is_empty() || comment) {
                    let rest_at = line_start + value_at + close + 1 + (tail.len() - trimmed.len());
                    out.push(Quirk::StopsAt {
                        quoted: Span::new(line_start + value_at, line_start + value_at + close + 1),
                        rest: Span::new(rest_at, line_start + line.len()),
                    });
                    return out;
                }
            }
            Some(_) => {
                // A plain value, up to a comment.
                let end = value.find(" #").or_else(|| value.find("\t#")).unwrap_or(value.len());
                let plain = value[..end].trim_end_matches([' ', '\t']);
                let b = plain.as_bytes();
                let value_span = Span::new(line_start + value_at, line_start + value_at + plain.len());
                for (i, &c) in b.iter().enumerate() {
                    if c == b':' && (i + 1 == b.len() || matches!(b[i + 1], b' ' | b'\t')) {
                        let p = line_start + value_at + i;
                        out.push(Quirk::ColonInPlain {
                            colon: Span::new(p, p + 1),
                            value: value_span,
                        });
                    }
                }
            }
        }
    }
    out
}

/// Where the key of a `key: value` line ends (its `:`), for a plain key.
fn key_colon(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    (0..b.len())
        .find(|&i| b[i] == b':' && (i + 1 == b.len() || matches!(b[i + 1], b' ' | b'\t')))
        .filter(|&i| i > 0 && !rest[..i].contains(" #"))
}

/// Where the quoted value opening `value` with `quote` closes, on its line.
fn closing(value: &str, quote: u8) -> Option<usize> {
    let b = value.as_bytes();
    let mut i = 1;
    while i < b.len() {
        match b[i] {
            b'\\' if quote == b'"' => i += 1,
            c if c == quote => {
                if quote == b'\'' && b.get(i + 1) == Some(&b'\'') {
                    i += 1;
                } else {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The flow brackets still open after `line`, with `depth` open before it (quotes skipped).
fn brackets(line: &str, mut depth: usize) -> usize {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth = depth.saturating_sub(1),
            q @ (b'\'' | b'"') if i == 0 || matches!(b[i - 1], b' ' | b',' | b'[' | b'{') => {
                match closing(&line[i..], q) {
                    Some(c) => i += c,
                    None => return depth,
                }
            }
            b'#' if i > 0 && b[i - 1] == b' ' => return depth,
            _ => {}
        }
        i += 1;
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(parsed: &Parsed, key: &str) -> Option<String> {
        parsed.root.as_ref()?.as_map()?.value(key)?.as_str().map(str::to_string)
    }

    #[test]
    fn a_plain_value_holding_a_colon_is_read_to_the_end_of_its_line() {
        let t = "name: x\ndescription: Security review: finds secrets # note\ntools: [read, 'a: b']\n";
        let (p, q) = read(t, 4);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(
            value_of(&p, "description").as_deref(),
            Some("Security review: finds secrets")
        );
        let at = t.find("review:").unwrap() + 6;
        assert_eq!(
            q,
            vec![Quirk::ColonInPlain {
                colon: Span::new(at + 4, at + 5),
                value: Span::new(t.find("Security").unwrap() + 4, t.find(" # note").unwrap() + 4),
            }]
        );
        // The strict reading rejects it.
        assert!(!yaml::parse(t, 4).errors.is_empty());
    }

    #[test]
    fn text_after_a_quoted_value_stops_the_reading() {
        for (t, kept) in [
            ("argument-hint: ''\ndescription: 'it\\'s fine'\nname: ''\n", "'it\\'"),
            ("description: \"a\" b\nname: ''\n", "\"a\""),
        ] {
            let (p, q) = read(t, 0);
            assert!(p.errors.is_empty(), "{t}: {:?}", p.errors);
            let map = p.root.as_ref().unwrap().as_map().unwrap();
            assert!(!map.contains("name"), "{t}: the keys below are lost");
            assert!(map.contains("description"));
            let [Quirk::StopsAt { quoted, rest }] = q.as_slice() else {
                panic!("{t}: {q:?}");
            };
            assert_eq!(quoted.text(t), kept);
            assert_eq!(rest.end as usize, t.find("\nname").unwrap());
        }
    }

    fn report_of(kind: &FileKind, text: &str) -> Vec<Diagnostic> {
        let start = text.find('\n').unwrap() + 1;
        let end = text.rfind("---").unwrap();
        let (parsed, quirks) = read(&text[start..end], start);
        let mut file = CopilotFile::default();
        if let Some(t) = parsed
            .root
            .as_ref()
            .and_then(|r| r.as_map()?.value("target")?.as_str().map(str::to_string))
        {
            file.target = Some(crate::analysis::copilot::Named {
                name: t,
                span: Span::new(0, 0),
            });
        }
        let mut out = Vec::new();
        report(kind, &file, &quirks, text, &mut out);
        out
    }

    #[test]
    fn a_colon_in_a_value_is_an_error_where_github_reads_the_file() {
        let agent = FileKind::Agent {
            name: "a".into(),
            form: crate::analysis::copilot::AgentForm::AgentMd,
        };
        let prompt = FileKind::Prompt { name: "p".into() };
        let t = "---\ndescription: Review: it's done\n---\n";
        let d = report_of(&agent, t);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, Code::SyntaxError);
        assert_eq!(d[0].span.text(t), ":");
        let fix = d[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.edits[0].text, "'Review: it''s done'");
        assert_eq!(fix.edits[0].span.text(t), "Review: it's done");
        // VS Code alone reads it: nothing to say.
        assert!(report_of(&prompt, t).is_empty());
        assert!(report_of(&agent, "---\ntarget: vscode\ndescription: Review: done\n---\n").is_empty());
        // A value over two lines gets no fix.
        let d = report_of(&agent, "---\ndescription: Review: one\n  two\n---\n");
        assert!(d.len() == 1 && d[0].fix.is_none(), "{d:?}");
    }

    #[test]
    fn text_after_a_quoted_value_is_an_error_everywhere() {
        let prompt = FileKind::Prompt { name: "p".into() };
        let t = "---\ndescription: 'it\\'s done'\nagent: plan\n---\n";
        let d = report_of(&prompt, t);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].span.text(t), "s done'");
        assert!(
            d[0].message.contains("`''`") && !d[0].message.contains("GitHub.com"),
            "{}",
            d[0].message
        );
    }

    #[test]
    fn a_quote_opens_a_string_only_where_a_flow_entry_starts() {
        // `don't`: the apostrophe is part of the word, and the list closes on its line.
        assert_eq!(brackets("tools: [don't, edit]", 0), 0);
        assert_eq!(brackets("tools: [don't, edit,", 0), 1);
        // After a blank, a comma or a bracket (or first on the line), a quote opens a string,
        // whose brackets do not count.
        assert_eq!(brackets("['a]',\"b}\", {'c]': x", 0), 2);
        assert_eq!(brackets("'x]' [", 0), 1);
    }

    #[test]
    fn valid_yaml_has_no_quirk() {
        for t in [
            "description: 'it''s fine' # ok\nurl: http://x:8080/a\n",
            "description: \"say \\\"hi\\\": now\"\n",
            "prompt: |\n  Step: one\n  a: b: c\nname: x\n",
            "tools: [read,\n  'a: b', edit]\nname: x\n",
            "handoffs:\n  - label: Go\n    agent: x\n",
            "time: 12:30\n",
        ] {
            assert_eq!(scan(t), vec![], "{t}");
        }
    }
}
