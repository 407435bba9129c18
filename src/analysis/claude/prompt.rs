//! Commands and skills as Claude Code 2.1.332 reads and expands them: the description and the
//! argument hint it shows, and the placeholders it fills in when `/name args` runs.
//!
//! Read from the released code and confirmed with it (the `initialize` listing, and a run against a
//! local mock of the model API that records the prompt sent):
//!
//! - **The hint**: `String(value)` of whatever YAML gives (`[focus-area]` is a list, shown as
//!   `focus-area`; `[a, b]` as `a,b`; `1.50` as `1.5`; a mapping as `[object Object]`); null or
//!   absent: no hint. Control and invisible characters become spaces; nothing is trimmed.
//! - **The description**: a string, trimmed (empty counts as none); a number or boolean as
//!   `String(value)`; anything else is dropped ("Description invalid ... - omitting"). Without
//!   one, the first non-blank line of the body (a Markdown heading's text without its `#`s),
//!   cut to 97 characters and `...` past 100; with no such line, `Custom command` (a command) or
//!   `Skill` (a skill). Then runs of control and invisible characters (line breaks, tabs) become
//!   one space, and `<` `>` become `&lt;` `&gt;`.
//! - **Placeholders** (everywhere in the body, code blocks and inline code included):
//!   `$ARGUMENTS` is the whole argument string; `$ARGUMENTS[N]` and `$N` the N-th argument
//!   **counting from 0** (`$0` is the first; the old documentation's `$1` is the second), left as
//!   written when there is no such argument; `$name` the argument at the position of `name` in
//!   `arguments` (empty when missing). A `$N` or `$name` followed by a letter, digit or `_` is not
//!   one. A backslash keeps a placeholder literal: `\$1` sends `$1`. When nothing was replaced and
//!   arguments were given, `\n\nARGUMENTS: <args>` is appended.

use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::{Span, js_space};

use crate::analysis::prompt::within;
pub use crate::analysis::prompt::{DescriptionFrom, Link, Placeholder, PlaceholderKind, code_spans, links};

/// JavaScript's `String(value)` of a value as Bun's YAML parser builds it (every number a
/// double). `None` for a value that could not be read.
pub fn js_string(node: &Node) -> Option<String> {
    fn go(node: &Node, top: bool, depth: usize) -> Option<String> {
        Some(match &node.value {
            Value::Str(s) => s.clone(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => crate::analysis::syntax::yaml::js_number(*i as f64),
            Value::Float(f) => crate::analysis::syntax::yaml::js_number(*f),
            // `String(null)` is "null"; inside an array `join` writes nothing for it.
            Value::Null if top => "null".into(),
            Value::Null => String::new(),
            Value::Map(_) => "[object Object]".into(),
            // A cycle cannot come out of YAML aliases here, but the depth is bounded anyway.
            Value::Seq(_) if depth > 64 => String::new(),
            Value::Seq(items) => {
                let mut parts = Vec::with_capacity(items.len());
                for item in items {
                    parts.push(go(item, false, depth + 1)?);
                }
                parts.join(",")
            }
            Value::Timestamp(iso) => iso.clone(),
            Value::Unknown => return None,
        })
    }
    go(node, true, 0)
}

/// The characters Claude Code's display cleaning replaces: controls (line breaks and tabs
/// included), line and paragraph separators, format characters, private use, Unicode's
/// default-ignorable ranges and the braille blank.
fn invisible(c: char) -> bool {
    let u = c as u32;
    matches!(u,
        0x00..=0x1f | 0x7f..=0x9f | 0xad | 0x34f | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890 | 0x891
        | 0x8e2 | 0x115f | 0x1160 | 0x17b4 | 0x17b5 | 0x180b..=0x180f | 0x200b..=0x200f | 0x2028..=0x202e
        | 0x2060..=0x206f | 0x2800 | 0x3164 | 0xe000..=0xf8ff | 0xfe00..=0xfe0f | 0xfeff | 0xffa0
        | 0xfff0..=0xfffb | 0x110bd | 0x110cd | 0x1107f | 0x13430..=0x1343f | 0x16fe4 | 0x1bca0..=0x1bca3
        | 0x1d173..=0x1d17a | 0xe0000..=0xe0fff | 0xf0000..=0x10ffff)
}

/// Joiners Claude Code keeps inside an emoji sequence (`👨‍💻`, `❤️`).
fn emoji_joiner(c: char) -> bool {
    matches!(c, '\u{200d}' | '\u{fe0e}' | '\u{fe0f}')
}

/// A character that may be part of an emoji sequence around a joiner (approximated: a symbol
/// outside ASCII that is not itself invisible, or a keycap base).
fn emoji_like(c: Option<char>) -> bool {
    c.is_some_and(|c| (c as u32 >= 0x2000 && !invisible(c)) || c.is_ascii_digit() || c == '#' || c == '*')
}

/// Text as Claude Code shows it in a listing: each run of control or invisible characters
/// becomes one space (joiners inside an emoji sequence are kept). Not trimmed.
pub fn one_line(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !invisible(c) {
            out.push(c);
            i += 1;
            continue;
        }
        let mut run = String::new();
        while i < chars.len() && invisible(chars[i]) {
            let c = chars[i];
            let keep = emoji_joiner(c)
                && emoji_like(i.checked_sub(1).map(|j| chars[j]))
                && (c != '\u{200d}' || emoji_like(chars.get(i + 1).copied()));
            if keep {
                run.push(c);
            } else if !run.ends_with(' ') {
                run.push(' ');
            }
            i += 1;
        }
        out.push_str(&run);
    }
    out
}

/// The files a command's body names for Claude Code to attach, `@path` (2.1.332, from its
/// prompt's mention reader; confirmed by running `claude -p /name` against a mock model, which
/// received a `Read` of the file named and nothing for a missing one):
///
/// - an `@` at the start of the text or after a blank (or `。`, `、`, `？`, `！`), then either
///   `"a quoted path"` or the run of non-blanks, whose trailing characters other than letters,
///   digits and `_` are dropped (`@notes.md.` names `notes.md`); code is not left out, but a
///   `` `@x` `` has a backtick before its `@`, so it is no mention;
/// - `#` and what follows it is cut off (`#L10-20`, a line range);
/// - relative to the folder Claude Code starts in (not the command's), `~` the home folder; a
///   folder is listed, a missing file attaches nothing, without a word.
///
/// Left out: `@agent-<name>` (an agent mention), mentions with `:` (an MCP resource) or a `$`
/// (a placeholder, filled in when the command runs).
pub fn mentions(text: &str, body: Span) -> Vec<crate::analysis::prompt::FileRef> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let opens = |prev: Option<char>| prev.is_none_or(|c| js_space(c) || "\u{3002}\u{3001}\u{ff1f}\u{ff01}".contains(c));
    let (from, to) = (body.start as usize, (body.end as usize).min(text.len()));
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    while let Some(k) = text[i..to].find('@') {
        let at = i + k;
        i = at + 1;
        if !opens(text[from..at].chars().next_back()) {
            continue;
        }
        let (start, end) = if b.get(at + 1) == Some(&b'"') {
            // `@"a path"`: up to the next quote.
            let Some(close) = text[at + 2..to].find('"') else {
                continue;
            };
            let path = &text[at + 2..at + 2 + close];
            if path.is_empty() || path.ends_with(" (agent)") {
                continue;
            }
            (at + 2, at + 2 + close)
        } else {
            let run = text[at..to].find(js_space).map_or(to, |n| at + n);
            let mut end = run;
            while end > at + 1 && !word(b[end - 1]) {
                end -= 1;
            }
            if end < at + 2 {
                continue;
            }
            (at + 1, end)
        };
        i = end.max(i);
        let written = &text[start..end];
        let path = written.split('#').next().unwrap_or("");
        if path.is_empty() || path.starts_with("agent-") || path.contains(['$', ':']) {
            continue;
        }
        out.push(crate::analysis::prompt::FileRef {
            path: path.to_string(),
            span: Span::new(start, end),
            in_code: false,
        });
    }
    out
}

/// `<` and `>` as the listing escapes them in descriptions.
pub fn escape_angles(s: &str) -> String {
    s.replace('<', "&lt;").replace('>', "&gt;")
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(js_space)
}

/// The description Claude Code shows for a command or skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// As shown (cleaned to one line, `<` `>` escaped).
    pub text: String,
    pub from: DescriptionFrom,
    /// `description` is there but is a list or a mapping: dropped.
    pub invalid: bool,
}

/// The description of a command (`default` is `Custom command`) or skill (`Skill`).
pub fn description(value: Option<&Node>, body: &str, default: &str) -> Description {
    let mut invalid = false;
    let given = match value.map(|n| &n.value) {
        Some(Value::Str(s)) => Some(js_trim(s).to_string()).filter(|s| !s.is_empty()),
        Some(Value::Int(_) | Value::Float(_) | Value::Bool(_)) => value.and_then(js_string),
        Some(Value::Seq(_) | Value::Map(_)) => {
            invalid = true;
            None
        }
        _ => None,
    };
    let (raw, from) = match given {
        Some(d) => (d, DescriptionFrom::Field),
        None => match body_line(body) {
            Some(line) => (line, DescriptionFrom::Body),
            None => (default.to_string(), DescriptionFrom::Default),
        },
    };
    Description {
        text: escape_angles(&one_line(&raw)),
        from,
        invalid,
    }
}

/// The first non-blank line of a body as Claude Code makes a description of it: trimmed, a
/// Markdown heading's `#`s dropped, over 100 characters (UTF-16 units) cut to 97 and `...`.
pub fn body_line(body: &str) -> Option<String> {
    let line = body.split('\n').map(js_trim).find(|l| !l.is_empty())?;
    let text = heading_text(line).unwrap_or(line);
    if text.encode_utf16().count() <= 100 {
        return Some(text.to_string());
    }
    let mut out = String::new();
    let mut units = 0;
    for c in text.chars() {
        let n = c.len_utf16();
        if units + n > 97 {
            if units < 97 {
                // Half of a surrogate pair: a lone surrogate, which the cleaning makes a space.
                out.push('\u{200b}');
            }
            break;
        }
        units += n;
        out.push(c);
    }
    out.push_str("...");
    Some(out)
}

/// `^#+\s+(\S.*)$` on a trimmed line (`.` stops at JavaScript's line terminators).
fn heading_text(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches('#');
    if rest.len() == line.len() {
        return None;
    }
    let text = rest.trim_start_matches(js_space);
    if text.len() == rest.len() || text.is_empty() {
        return None;
    }
    if text.contains(['\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(text)
}

/// The argument hint Claude Code shows: `None` when `argument-hint` is absent or null.
pub fn argument_hint(value: Option<&Node>) -> Option<String> {
    let v = value?;
    if matches!(v.value, Value::Null) {
        return None;
    }
    js_string(v).map(|s| one_line(&s))
}

/// The names of `arguments` (a list of strings, or one string split at white space), without
/// blank or all-digit names; at most 64 names of at most 64 characters take part.
pub fn argument_names(value: Option<&Node>) -> Vec<String> {
    let keep = |s: &str| !s.trim().is_empty() && !s.chars().all(|c| c.is_ascii_digit());
    let names: Vec<String> = match value.map(|n| &n.value) {
        Some(Value::Seq(items)) => items
            .iter()
            .filter_map(|n| n.as_str())
            .filter(|s| keep(s))
            .map(str::to_string)
            .collect(),
        Some(Value::Str(s)) => s.split(js_space).filter(|s| keep(s)).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    names
}

impl PlaceholderKind {
    /// Which argument it stands for, in words.
    pub fn meaning(&self) -> String {
        match self {
            PlaceholderKind::All => "all the arguments as typed".into(),
            PlaceholderKind::Index(n) | PlaceholderKind::ArgumentsIndex(n) => {
                format!("the {} argument (Claude Code counts from `$0`)", ordinal(*n + 1))
            }
            PlaceholderKind::Named(name, n) => {
                format!("the {} argument (`{name}` in `arguments`)", ordinal(*n + 1))
            }
        }
    }
}

fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ];
    match WORDS.get(n.wrapping_sub(1)) {
        Some(w) => (*w).to_string(),
        None => {
            let suffix = match (n % 10, n % 100) {
                (1, x) if x != 11 => "st",
                (2, x) if x != 12 => "nd",
                (3, x) if x != 13 => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

/// The names that take part in substitution, with their positions: at most 64, each at most 64
/// characters; a repeated name keeps its first position.
fn active_names(names: &[String]) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for (i, n) in names.iter().enumerate().take(64) {
        if n.chars().count() <= 64 && !out.iter().any(|(m, _)| *m == n) {
            out.push((n.as_str(), i));
        }
    }
    out
}

fn word_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// What starts at `text[at..]` (a `$`): the placeholder and its length in bytes.
fn placeholder_at(text: &str, at: usize, names: &[(&str, usize)]) -> Option<(PlaceholderKind, usize)> {
    let b = text.as_bytes();
    let rest = &text[at + 1..];
    // Named arguments first, the longest name first.
    let mut best: Option<(PlaceholderKind, usize)> = None;
    for (name, i) in names {
        if let Some(after) = rest.strip_prefix(name) {
            let next = after.as_bytes().first().copied();
            if next.is_some_and(|c| word_char(c) || c == b'[') {
                continue;
            }
            if best.as_ref().is_none_or(|(_, len)| name.len() + 1 > *len) {
                best = Some((PlaceholderKind::Named((*name).to_string(), *i), name.len() + 1));
            }
        }
    }
    if best.is_some() {
        return best;
    }
    if let Some(after) = rest.strip_prefix("ARGUMENTS[") {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && after.as_bytes().get(digits) == Some(&b']') {
            let n = after[..digits].parse().unwrap_or(usize::MAX);
            return Some((PlaceholderKind::ArgumentsIndex(n), 1 + 10 + digits + 1));
        }
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && !b.get(at + 1 + digits).is_some_and(|c| word_char(*c)) {
        let n = rest[..digits].parse().unwrap_or(usize::MAX);
        return Some((PlaceholderKind::Index(n), 1 + digits));
    }
    if rest.starts_with("ARGUMENTS") {
        return Some((PlaceholderKind::All, 1 + 9));
    }
    None
}

/// Whether the `$` at `at` is escaped: a backslash before it that is not itself escaped.
fn escaped(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    at >= 1 && b[at - 1] == b'\\' && !(at >= 2 && b[at - 2] == b'\\')
}

/// Every placeholder of the body `body` (a span of `text`), in order.
pub fn placeholders(text: &str, body: Span, names: &[String]) -> Vec<Placeholder> {
    let names = active_names(names);
    let code = code_spans(text, body);
    let mut out = Vec::new();
    let (start, end) = (body.start as usize, (body.end as usize).min(text.len()));
    let mut i = start;
    while let Some(rel) = text.get(i..end).and_then(|t| t.find('$')) {
        let at = i + rel;
        let upto = &text[..end];
        match placeholder_at(upto, at, &names) {
            Some((kind, len)) if !escaped(upto, at) => {
                let span = Span::new(at, at + len);
                let in_code = within(&code, at);
                out.push(Placeholder { span, kind, in_code });
                i = at + len;
            }
            _ => i = at + 1,
        }
    }
    out
}

/// What `/name args` sends with this body (see the module documentation); `args` is split into
/// words as a shell would (quotes removed).
pub fn expand(body: &str, args: &str, names: &[String]) -> String {
    let words = crate::analysis::command::tokenize(args);
    let active = active_names(names);
    let mut out = String::with_capacity(body.len() + args.len());
    let mut replaced = false;
    let mut i = 0;
    while let Some(rel) = body[i..].find(['$', '\\']) {
        let at = i + rel;
        out.push_str(&body[i..at]);
        if body.as_bytes()[at] == b'\\' {
            // `\$` before a placeholder (the backslash not itself escaped) is a literal `$`.
            let lone = !(at >= 1 && body.as_bytes()[at - 1] == b'\\');
            if lone
                && body.as_bytes().get(at + 1) == Some(&b'$')
                && (placeholder_at(body, at + 1, &active).is_some()
                    || body.as_bytes().get(at + 2).is_some_and(u8::is_ascii_digit))
            {
                out.push('$');
                i = at + 2;
                // The `$` is consumed: what follows is text.
                let skip = body[i..].bytes().take_while(|c| word_char(*c)).count();
                out.push_str(&body[i..i + skip]);
                i += skip;
            } else {
                out.push('\\');
                i = at + 1;
            }
            continue;
        }
        match placeholder_at(body, at, &active) {
            Some((kind, len)) => {
                let value = match &kind {
                    PlaceholderKind::All => Some(args.to_string()),
                    PlaceholderKind::Index(n) | PlaceholderKind::ArgumentsIndex(n) => words.get(*n).cloned(),
                    PlaceholderKind::Named(_, n) => Some(words.get(*n).cloned().unwrap_or_default()),
                };
                match value {
                    Some(v) => {
                        out.push_str(&v);
                        replaced = true;
                    }
                    None => out.push_str(&body[at..at + len]),
                }
                i = at + len;
            }
            None => {
                out.push('$');
                i = at + 1;
            }
        }
    }
    out.push_str(&body[i..]);
    if !replaced && !args.is_empty() {
        out.push_str("\n\nARGUMENTS: ");
        out.push_str(args);
    }
    out
}

/// The arguments the hover cards show a command or skill run with.
pub const SAMPLE_ARGS: &str = "one two three";

/// What one placeholder becomes with [`SAMPLE_ARGS`], in words for a hover or a message.
pub fn sample_value(name: &str, p: &Placeholder, written: &str) -> String {
    let words = crate::analysis::command::tokenize(SAMPLE_ARGS);
    let value = match &p.kind {
        PlaceholderKind::All => Some(SAMPLE_ARGS.to_string()),
        PlaceholderKind::Index(n) | PlaceholderKind::ArgumentsIndex(n) => words.get(*n).cloned(),
        PlaceholderKind::Named(_, n) => {
            return match words.get(*n) {
                Some(v) => format!("`/{name} {SAMPLE_ARGS}` puts `{v}` here"),
                None => format!("`/{name} {SAMPLE_ARGS}` puts nothing here (there is no such argument)"),
            };
        }
    };
    match value {
        Some(v) => format!("`/{name} {SAMPLE_ARGS}` puts `{v}` here"),
        None => format!("`/{name} {SAMPLE_ARGS}` leaves it as `{written}` (there is no such argument)"),
    }
}

/// The hover section that shows what `/name one two three` sends: the body expanded (after the
/// line Claude Code puts before a skill's, when `base_dir` is given), cut at 400 characters.
pub fn sends(name: &str, body: &str, names: &[String], base_dir: Option<&str>) -> String {
    let mut full = String::new();
    if let Some(dir) = base_dir {
        full.push_str(&format!("Base directory for this skill: {dir}\n\n"));
    }
    full.push_str(&expand(body, SAMPLE_ARGS, names));
    let mut shown: String = full.chars().take(400).collect();
    if shown.len() < full.len() {
        shown.push('…');
    }
    let longest = shown.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!(
        "`/{name} {SAMPLE_ARGS}` sends:\n\n{fence}\n{}\n{fence}\n",
        shown.trim_end()
    )
}

/// Hover on a placeholder of a Claude Code command or skill (`base_dir`: a skill's folder).
pub fn placeholder_hover(
    name: &str,
    p: &crate::analysis::prompt::Placeholder,
    text: &str,
    body: &str,
    arguments: &[String],
    base_dir: Option<&str>,
) -> String {
    let written = p.span.text(text);
    let code = if p.in_code {
        " It is replaced inside code too; write `\\{written}` to keep it literal."
    } else {
        ""
    };
    let code = code.replace("{written}", written);
    format!(
        "**`{written}`**: {}. {}.{code}\n\n{}",
        p.kind.meaning(),
        sample_value(name, p, written),
        sends(name, body, arguments, base_dir)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::yaml;

    fn value(yaml_text: &str) -> Node {
        let p = yaml::parse_core(&format!("v: {yaml_text}\n"), 0);
        p.root.unwrap().as_map().unwrap().value("v").unwrap().clone()
    }

    /// Measured with the released runtime (the `initialize` listing's `argumentHint`).
    #[test]
    fn hints_as_the_runtime_shows_them() {
        for (written, shown) in [
            ("[focus-area]", Some("focus-area")),
            ("[a, b]", Some("a,b")),
            ("[a, [b, c]]", Some("a,b,c")),
            ("[1, true, null, 2.0]", Some("1,true,,2")),
            ("[ ]", Some("")),
            ("[[]]", Some("")),
            ("{a: 1}", Some("[object Object]")),
            ("1.50", Some("1.5")),
            ("1e3", Some("1000")),
            (".nan", Some("NaN")),
            ("-1", Some("-1")),
            ("true", Some("true")),
            ("2024-01-01", Some("2024-01-01")),
            ("\"  pad  \"", Some("  pad  ")),
            ("\"<file> [x]\"", Some("<file> [x]")),
            ("|\n  a\n  b\n", Some("a b ")),
            ("\"\"", Some("")),
            ("~", None),
            ("", None),
        ] {
            let v = value(written);
            assert_eq!(argument_hint(Some(&v)).as_deref(), shown, "{written:?}");
        }
        assert_eq!(argument_hint(None), None);
    }

    /// Measured with the released runtime (the listing's `description`, without " (project)").
    #[test]
    fn descriptions_as_the_runtime_shows_them() {
        let d = |written: Option<&str>, body: &str| {
            let v = written.map(value);
            let d = description(v.as_ref(), body, "Custom command");
            (d.text, d.from)
        };
        use DescriptionFrom::*;
        assert_eq!(d(Some("a <b> & c"), "Body"), ("a &lt;b&gt; & c".into(), Field));
        assert_eq!(d(Some("|\n  line1\n  line2\n"), "B"), ("line1 line2".into(), Field));
        assert_eq!(
            d(Some("\"tab\\there  two\\n\\nnl\""), "B"),
            ("tab here  two nl".into(), Field)
        );
        assert_eq!(d(None, "\n\n# Heading text\nmore\n"), ("Heading text".into(), Body));
        let long = "x".repeat(150);
        assert_eq!(d(None, &long), (format!("{}...", "x".repeat(97)), Body));
        assert_eq!(d(None, &"x".repeat(100)), ("x".repeat(100), Body));
        assert_eq!(d(Some("\"  \""), "  Body line  \n"), ("Body line".into(), Body));
        assert_eq!(d(Some("[a]"), "Fallback\n"), ("Fallback".into(), Body));
        assert!(description(Some(&value("[a]")), "x", "C").invalid);
        assert_eq!(d(None, ""), ("Custom command".into(), Default));
        assert_eq!(d(Some("0x1F"), "B"), ("31".into(), Field));
        assert_eq!(d(Some(".inf"), "B"), ("Infinity".into(), Field));
        assert_eq!(d(Some("-.inf"), "B"), ("-Infinity".into(), Field));
        assert_eq!(
            d(Some("12345678901234567890"), "B"),
            ("12345678901234567000".into(), Field)
        );
        assert_eq!(d(Some("1.0"), "B"), ("1".into(), Field));
        assert_eq!(d(Some("0o17"), "B"), ("15".into(), Field));
        assert_eq!(d(Some("false"), "B"), ("false".into(), Field));
        assert_eq!(d(Some("~"), "# \nBody\n"), ("#".into(), Body));
        assert_eq!(d(Some("\"\""), "###### Six\n"), ("Six".into(), Body));
        assert_eq!(d(None, "#NoSpace\n"), ("#NoSpace".into(), Body));
        assert_eq!(d(None, "CRLF body\r\nmore\r\n"), ("CRLF body".into(), Body));
        assert_eq!(d(Some("\"a\\tb\""), "B"), ("a b".into(), Field));
        // A cut through an emoji leaves half a surrogate pair, shown as a space.
        let emoji = format!("{}🚀tail{}", "x".repeat(96), "y".repeat(10));
        assert_eq!(d(None, &emoji).0, format!("{} ...", "x".repeat(96)));
        // Emoji sequences keep their joiners.
        assert_eq!(one_line("dev 👨\u{200d}💻 ❤\u{fe0f}"), "dev 👨\u{200d}💻 ❤\u{fe0f}");
        assert_eq!(one_line("a\u{200b}\u{200b}b\r\nc"), "a b c");
    }

    #[test]
    fn argument_names_are_read_as_the_runtime_reads_them() {
        assert_eq!(argument_names(Some(&value("[file, mode, 2]"))), ["file", "mode"]);
        assert_eq!(argument_names(Some(&value("file  mode"))), ["file", "mode"]);
        assert_eq!(argument_names(Some(&value("42"))), Vec::<String>::new());
        assert_eq!(argument_names(None), Vec::<String>::new());
    }

    /// Confirmed end to end: the prompt the released runtime sent to a mock of the model API
    /// for `/t first "second word" third` and for `/t` alone.
    #[test]
    fn expansion_follows_the_runtime() {
        let body = "A0=[$0] A1=[$1] A2=[$2] A9=[$9] AR=[$ARGUMENTS] AR0=[$ARGUMENTS[0]] AR1=[$ARGUMENTS[1]] AR5=[$ARGUMENTS[5]] esc=[\\$1] esc2=[\\\\$1] w=[$1abc] X=[$ARGUMENTSX]\n```sh\necho $1 $ARGUMENTS\n```\ninline `$0`\n";
        assert_eq!(
            expand(body, "first \"second word\" third", &[]),
            "A0=[first] A1=[second word] A2=[third] A9=[$9] AR=[first \"second word\" third] AR0=[first] AR1=[second word] AR5=[$ARGUMENTS[5]] esc=[$1] esc2=[\\\\second word] w=[$1abc] X=[first \"second word\" thirdX]\n```sh\necho second word first \"second word\" third\n```\ninline `first`\n"
        );
        assert_eq!(
            expand(body, "", &[]),
            "A0=[$0] A1=[$1] A2=[$2] A9=[$9] AR=[] AR0=[$ARGUMENTS[0]] AR1=[$ARGUMENTS[1]] AR5=[$ARGUMENTS[5]] esc=[$1] esc2=[\\\\$1] w=[$1abc] X=[X]\n```sh\necho $1 \n```\ninline `$0`\n"
        );
        let names = vec!["file".to_string(), "mode".to_string()];
        assert_eq!(
            expand(
                "S0=[$0] S1=[$1] F=[$file] M=[$mode] F2=[$file[0]] Fx=[$filex]\n",
                "a.txt fast extra",
                &names
            ),
            "S0=[a.txt] S1=[fast] F=[a.txt] M=[fast] F2=[$file[0]] Fx=[$filex]\n"
        );
        // A named argument with no value is empty.
        assert_eq!(expand("[$mode]", "a", &names), "[]");
        assert_eq!(
            expand("No placeholders here.\n", "x y", &[]),
            "No placeholders here.\n\n\nARGUMENTS: x y"
        );
        assert_eq!(expand("No placeholders here.\n", "", &[]), "No placeholders here.\n");
        // Out of range only: nothing replaced, the arguments appended.
        assert_eq!(expand("Only $5", "a", &[]), "Only $5\n\nARGUMENTS: a");
        assert_eq!(expand("Cost $ and \\ and $x", "", &[]), "Cost $ and \\ and $x");
    }

    #[test]
    fn a_backslash_escapes_a_placeholder_unless_it_is_escaped_itself() {
        let found = |text: &str| -> Vec<String> {
            placeholders(text, Span::new(0, text.len()), &[])
                .into_iter()
                .map(|p| p.span.text(text).to_string())
                .collect()
        };
        assert_eq!(found("abc\\$1"), Vec::<String>::new());
        // The backslash before `$` is itself escaped: the placeholder stands (the pair is looked
        // for right before the `$`, wherever in the text it is).
        assert_eq!(found("abc\\\\$1"), ["$1"]);
        assert_eq!(found("Cost: abcdefgh\\\\$2 and \\$3 and x\\$4"), ["$2"]);
    }

    #[test]
    fn placeholders_and_whether_they_are_in_code() {
        let text = "---\narguments: file\n---\nUse $0 and \\$1 and $file.\n```sh\nawk '{print $1}' $ARGUMENTS\n```\nSee `$ARGUMENTS[2]` and ``a ` $3``.\n$1abc $filex\n";
        let body = Span::new(text.find("Use").unwrap(), text.len());
        let got: Vec<(String, PlaceholderKind, bool)> = placeholders(text, body, &["file".to_string()])
            .into_iter()
            .map(|p| (p.span.text(text).to_string(), p.kind, p.in_code))
            .collect();
        use PlaceholderKind::*;
        assert_eq!(
            got,
            [
                ("$0".into(), Index(0), false),
                ("$file".into(), Named("file".into(), 0), false),
                ("$1".into(), Index(1), true),
                ("$ARGUMENTS".into(), All, true),
                ("$ARGUMENTS[2]".into(), ArgumentsIndex(2), true),
                ("$3".into(), Index(3), true),
            ]
        );
    }

    #[test]
    fn what_the_sample_arguments_put_in() {
        let p = |kind| Placeholder {
            span: Span::new(0, 2),
            kind,
            in_code: true,
        };
        use PlaceholderKind::*;
        assert_eq!(
            sample_value("x", &p(Index(2)), "$2"),
            "`/x one two three` puts `three` here"
        );
        assert_eq!(
            sample_value("x", &p(ArgumentsIndex(3)), "$ARGUMENTS[3]"),
            "`/x one two three` leaves it as `$ARGUMENTS[3]` (there is no such argument)"
        );
        assert_eq!(
            sample_value("x", &p(Named("e".into(), 4)), "$e"),
            "`/x one two three` puts nothing here (there is no such argument)"
        );
        assert_eq!(
            sample_value("x", &p(All), "$ARGUMENTS"),
            "`/x one two three` puts `one two three` here"
        );
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(
            p(Index(11)).kind.meaning(),
            "the 12th argument (Claude Code counts from `$0`)"
        );
    }

    #[test]
    fn hostile_bodies_do_not_panic() {
        let alphabet = [
            "$",
            "\\",
            "`",
            "```",
            "~~~",
            "[",
            "]",
            "(",
            ")",
            "<",
            ">",
            "ARGUMENTS",
            "[1]",
            "0",
            "9",
            "é",
            "🚀",
            "\n",
            " ",
            "#",
            ":",
            "%",
            "%4",
            "${CLAUDE_SKILL_DIR}",
            "file",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            let mut s = String::new();
            for _ in 0..(seed % 30) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let all = Span::new(0, s.len());
            let names = vec!["file".to_string()];
            for p in placeholders(&s, all, &names) {
                assert!(s.is_char_boundary(p.span.start as usize) && s.is_char_boundary(p.span.end as usize));
            }
            for l in links(&s, all) {
                assert!(s.get(l.span.start as usize..l.span.end as usize).is_some(), "{s:?}");
            }
            for c in code_spans(&s, all) {
                assert!(s.get(c.start as usize..c.end as usize).is_some(), "{s:?}");
            }
            let _ = expand(&s, "a b", &names);
            let _ = body_line(&s);
        }
    }

    /// A command's `@path` mentions: the path and the text it is written as.
    fn mentioned(text: &str, expected: expect_test::Expect) {
        let out: Vec<String> = mentions(text, Span::new(0, text.len()))
            .iter()
            .map(|r| format!("{} <- {:?}", r.path, &text[r.span.start as usize..r.span.end as usize]))
            .collect();
        expected.assert_eq(&out.join("\n"));
    }

    #[test]
    fn mentions_drop_trailing_punctuation_and_anchors() {
        mentioned(
            "See @docs/a.md, then @b.md. And (@c.md) @d.md#L10-20 @e.md#intro\n",
            expect_test::expect![[r#"
                docs/a.md <- "docs/a.md"
                b.md <- "b.md"
                d.md <- "d.md#L10-20"
                e.md <- "e.md#intro""#]],
        );
    }

    #[test]
    fn mentions_start_after_a_blank_quoted_paths_keep_blanks() {
        mentioned(
            "@first.md me@mail.com `@code.md` ` @spaced.md` @\"my notes.md\" @\"helper (agent)\"\n",
            expect_test::expect![[r#"
                first.md <- "first.md"
                spaced.md <- "spaced.md"
                my notes.md <- "my notes.md""#]],
        );
    }

    #[test]
    fn mentions_that_are_not_files() {
        mentioned(
            "@agent-reviewer @github:repo://x @$1 @$ARGUMENTS @. @,\n",
            expect_test::expect![[""]],
        );
    }
}
