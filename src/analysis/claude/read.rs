//! How Claude Code 2.1.332 finds and parses an agent's frontmatter (spec `claude-code.md`
//! §7.1-7.3, §7.10 steps 1-3).
//!
//! - One leading BOM is stripped (a second one means no frontmatter).
//! - The block opens with `---`, optional spaces or tabs and a line break (LF or CRLF) at the
//!   very start, and ends at the **first later `---` anywhere** (mid-line, quoted, in a comment,
//!   indented, the first three of `----`). The closing hyphens, the spaces and tabs after them and
//!   one line break are removed; the rest is the body. No later `---`: no frontmatter.
//! - First pass: the block as YAML 1.2 core ([`yaml::parse_core`]).
//! - Only if it fails, the retry: the block rewritten line by line (values of `key: value` lines
//!   at column 0 wrapped in double quotes when they hold a YAML indicator, leading tabs made two
//!   spaces) and parsed again, spans mapped back onto the original text.
//!
//! Nothing here is a diagnostic: [`Reading`] holds what the loader sees, for the checks to judge.

use crate::analysis::syntax::yaml::{self, Edit};
use crate::analysis::syntax::{Map, Node, Parsed, Style, SyntaxError, Value};
use crate::analysis::text::Span;
pub(crate) use crate::analysis::text::js_space;

/// Claude Code skips an agent file larger than this many bytes (§7.1); [`read`] does not check it.
pub const MAX_FILE_BYTES: usize = 1_048_576;

/// The frontmatter block as the loader cuts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The opening `---` (3 bytes), right after an optional BOM.
    pub open: Span,
    /// The YAML text: from after the opening line break to the closing hyphens.
    pub yaml: Span,
    /// The three closing hyphens, wherever they are (mid-line, indented, the start of `----`).
    pub close: Span,
    /// The body (prompt): after the closing hyphens, the spaces and tabs after them and one line
    /// break.
    pub body: Span,
    /// The close is not a line of its own (`---` at column 0 with nothing but spaces or tabs after
    /// it): the block was cut short where the author did not mean it to end.
    pub early: bool,
}

/// What the loader made of the frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No block (nothing opens it at the first character, or nothing closes it): the file has no
    /// frontmatter, hence no `name`, and is skipped silently. `parsed.root` is `None`.
    NoFrontmatter,
    /// The first pass read a mapping, or the block is empty or comments only (an empty mapping).
    FirstPass,
    /// The first pass failed and the retry read a mapping.
    Retry,
    /// Both passes failed: the frontmatter is treated as empty and the agent is skipped.
    Failed,
    /// A pass succeeded but the block is a list, a single value, or several documents (non-empty
    /// content that is not a mapping): treated as empty. `first_errors` tells which pass it was.
    NotMapping,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// A leading BOM was stripped.
    pub bom: bool,
    pub block: Option<Block>,
    pub outcome: Outcome,
    /// The tree the loader uses, spans in the whole file:
    /// - [`Outcome::FirstPass`]: the first pass's mapping; for an empty or comment-only block an
    ///   empty mapping whose span is the YAML text;
    /// - [`Outcome::Retry`]: the retry's mapping, spans mapped back onto the original text (a value
    ///   the retry quoted spans the value as written, without quotes);
    /// - [`Outcome::NotMapping`]: the tree of the pass that succeeded (a list, a scalar, ...);
    /// - [`Outcome::Failed`]: the first pass's partial tree and errors (the loader uses nothing);
    /// - [`Outcome::NoFrontmatter`]: `Parsed::default()` (no root).
    ///
    /// Duplicate keys are in `parsed.duplicates` (accepted by the loader; the last one wins).
    pub parsed: Parsed,
    /// The first pass's errors: set whenever the first pass failed, also when the retry saved it.
    pub first_errors: Vec<SyntaxError>,
    /// The retry's errors, when it ran and failed too (its first one is what the loader logs).
    pub retry_errors: Vec<SyntaxError>,
    /// Values the retry wrapped in double quotes (spans of the original value text), in order.
    /// Set whenever the retry ran, also when it failed.
    pub quoted: Vec<Span>,
    /// When the block closed early: the top-level `key:` lines (column 0, plain key made of
    /// letters, digits, `_`, `-`, `.`, not starting with a digit, `-` or `.`) that ended up in the
    /// body, from the line after the close up to the next line that is exactly `---` (trailing
    /// spaces, tabs and CR allowed), or to the end of the file when there is none.
    pub lost_keys: Vec<(String, Span)>,
}

/// Read an agent file's frontmatter the way Claude Code 2.1.332 does.
pub fn read(text: &str) -> Reading {
    let bom = text.starts_with('\u{feff}');
    let mut reading = Reading {
        bom,
        block: None,
        outcome: Outcome::NoFrontmatter,
        parsed: Parsed::default(),
        first_errors: Vec::new(),
        retry_errors: Vec::new(),
        quoted: Vec::new(),
        lost_keys: Vec::new(),
    };
    let Some(block) = find_block(text, if bom { 3 } else { 0 }) else {
        return reading;
    };
    if block.early {
        reading.lost_keys = lost_keys(text, block.close);
    }
    let yaml_text = block.yaml.text(text);
    let at = block.yaml.start as usize;
    reading.block = Some(block.clone());

    let first = yaml::parse_core(yaml_text, at);
    if first.errors.is_empty() {
        reading.outcome = classify(&first, Outcome::FirstPass);
        reading.parsed = normalise_empty(first, block.yaml);
        return reading;
    }
    reading.first_errors = first.errors.clone();

    let (edits, quoted) = retry_edits(yaml_text);
    reading.quoted = quoted.iter().map(|s| s.shifted(at)).collect();
    let second = yaml::parse_core_edited(yaml_text, at, &edits);
    if second.errors.is_empty() {
        reading.outcome = classify(&second, Outcome::Retry);
        reading.parsed = normalise_empty(second, block.yaml);
    } else {
        reading.outcome = Outcome::Failed;
        reading.retry_errors = second.errors;
        reading.parsed = first;
    }
    reading
}

/// §7.2: the block at byte `start` (after the BOM), if one opens and closes.
fn find_block(text: &str, start: usize) -> Option<Block> {
    let b = text.as_bytes();
    if !text[start..].starts_with("---") {
        return None;
    }
    let mut i = start + 3;
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match b.get(i) {
        Some(b'\n') => i += 1,
        Some(b'\r') if b.get(i + 1) == Some(&b'\n') => i += 2,
        _ => return None,
    }
    let yaml_start = i;
    let close_start = yaml_start + text[yaml_start..].find("---")?;
    let close_end = close_start + 3;
    let mut body = close_end;
    while matches!(b.get(body), Some(b' ' | b'\t')) {
        body += 1;
    }
    let blanks_end = body;
    match b.get(body) {
        Some(b'\n') => body += 1,
        Some(b'\r') if b.get(body + 1) == Some(&b'\n') => body += 2,
        _ => {}
    }
    // A line of its own: at column 0 (the YAML always starts a line) and nothing but blanks
    // before the line break or the end of the file.
    let at_line_start = b[close_start - 1] == b'\n';
    let alone = body > blanks_end || blanks_end == b.len();
    Some(Block {
        open: Span::new(start, start + 3),
        yaml: Span::new(yaml_start, close_start),
        close: Span::new(close_start, close_end),
        body: Span::new(body, text.len()),
        early: !(at_line_start && alone),
    })
}

/// The outcome of a pass that succeeded: a mapping or an empty block is `ok`, anything else
/// [`Outcome::NotMapping`].
fn classify(parsed: &Parsed, ok: Outcome) -> Outcome {
    match parsed.root.as_ref() {
        Some(root) if matches!(root.value, Value::Map(_)) || is_empty(root) => ok,
        None => ok,
        Some(_) => Outcome::NotMapping,
    }
}

/// An empty document (no content, or comments only).
fn is_empty(root: &Node) -> bool {
    root.value == Value::Null && root.span.is_empty()
}

/// An empty block reads as an empty mapping spanning the YAML text.
fn normalise_empty(mut parsed: Parsed, yaml: Span) -> Parsed {
    if parsed.root.as_ref().is_none_or(is_empty) {
        parsed.root = Some(Node::new(yaml, Style::Collection, Value::Map(Map::default())));
    }
    parsed
}

/// §7.3, the retry's rewrite of the block `yaml`: the edits (offsets in `yaml`) and the spans of
/// the values it wraps in double quotes.
///
/// Modelled on the loader's line regex `^([a-zA-Z_-]+):\s+(.+)$` over the block split on `\n`
/// (JavaScript's `\s` and `.`: a line ending in `\r` never matches), the rewritten line being
/// `key: "value"` with `\` and `"` escaped; then `^\t+` on every line becomes two spaces a tab.
fn retry_edits(yaml: &str) -> (Vec<Edit>, Vec<Span>) {
    let mut edits = Vec::new();
    let mut quoted = Vec::new();
    let mut pos = 0;
    for line in yaml.split('\n') {
        let start = pos;
        pos += line.len() + 1;
        if let Some((colon, value)) = rewritable(line)
            && needs_quotes(&line[value..])
        {
            let (value_start, value_end) = (start + value, start + line.len());
            edits.push(Edit {
                from: start + colon + 1,
                to: value_start,
                with: " ".into(),
            });
            edits.push(Edit {
                from: value_start,
                to: value_start,
                with: "\"".into(),
            });
            for (i, c) in line[value..].char_indices() {
                if c == '\\' || c == '"' {
                    edits.push(Edit {
                        from: value_start + i,
                        to: value_start + i + 1,
                        with: format!("\\{c}"),
                    });
                }
            }
            edits.push(Edit {
                from: value_end,
                to: value_end,
                with: "\"".into(),
            });
            quoted.push(Span::new(value_start, value_end));
            continue;
        }
        // Leading tabs (a rewritten line starts with a letter, so has none).
        for i in 0..line.bytes().take_while(|c| *c == b'\t').count() {
            edits.push(Edit {
                from: start + i,
                to: start + i + 1,
                with: "  ".into(),
            });
        }
    }
    (edits, quoted)
}

/// JavaScript's line terminators (what `.` does not match).
fn js_line_end(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `^([a-zA-Z_-]+):\s+(.+)$` on one line: the index of the colon and where the value starts.
/// (When the part after the colon is all whitespace the regex still matches a blank value, which
/// is never rewritten: `None` then.)
fn rewritable(line: &str) -> Option<(usize, usize)> {
    let key = line
        .bytes()
        .take_while(|c| c.is_ascii_alphabetic() || *c == b'_' || *c == b'-')
        .count();
    if key == 0 || line.as_bytes().get(key) != Some(&b':') {
        return None;
    }
    let rest = &line[key + 1..];
    let value = rest.find(|c: char| !js_space(c))?;
    if value == 0 || rest[value..].contains(js_line_end) {
        return None;
    }
    Some((key, key + 1 + value))
}

/// Whether the retry wraps this value in double quotes.
fn needs_quotes(value: &str) -> bool {
    let wrapped = |q: char| value.starts_with(q) && value.ends_with(q);
    if wrapped('"') || wrapped('\'') {
        return false;
    }
    if value.starts_with('[') && value.ends_with(']') {
        let p = yaml::parse_core(value, 0);
        if p.errors.is_empty() && p.root.as_ref().is_some_and(|r| matches!(r.value, Value::Seq(_))) {
            return false;
        }
    }
    value.contains(['{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`']) || value.contains(": ")
}

/// The top-level `key:` lines that an early close left in the body (see [`Reading::lost_keys`]).
fn lost_keys(text: &str, close: Span) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let Some(nl) = text[close.end as usize..].find('\n') else {
        return out;
    };
    let mut pos = close.end as usize + nl + 1;
    for line in text[pos..].split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let content = line.trim_end_matches('\n');
        if content
            .strip_prefix("---")
            .is_some_and(|r| r.trim_end_matches([' ', '\t', '\r']).is_empty())
        {
            break;
        }
        let b = content.as_bytes();
        if !b.first().is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') {
            continue;
        }
        let key = b
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
            .count();
        if b.get(key) == Some(&b':') && b.get(key + 1).is_none_or(|c| matches!(c, b' ' | b'\t' | b'\r')) {
            out.push((content[..key].to_string(), Span::new(start, start + key)));
        }
    }
    out
}

#[cfg(test)]
mod tests;
