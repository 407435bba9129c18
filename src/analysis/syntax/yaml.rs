//! YAML (frontmatter) into the spanned tree, on `saphyr-parser`'s pull API.
//!
//! Why this parser: it gives a start and end span for every key and value, never expands aliases
//! itself, is iterative (no stack overflow on deep block nesting) and hands out every event that
//! precedes a syntax error, so a half-typed file still yields a partial tree.
//!
//! Two things are done here that the parser leaves to its caller:
//! - saphyr-parser counts offsets in Unicode scalars; they are turned into byte offsets.
//! - Scalars are resolved the way opencode's frontmatter reader does (gray-matter with js-yaml 3
//!   `safeLoad`, a YAML 1.1 flavour): `yes` stays a string, `1:30` is the integer 90, `017` is
//!   octal 15, `~`/`null`/empty are null.
//!
//! Hostile input is bounded: aliases are resolved by copying at most [`ALIAS_BUDGET`] nodes in
//! total, and nesting deeper than [`super::MAX_DEPTH`] is cut off with a syntax error.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan, Tag};

use super::{DuplicateKey, Entry, Key, MAX_DEPTH, Map, Node, Parsed, Style, SyntaxError, Value};
use crate::analysis::text::Span;

/// Total number of nodes that alias resolution may copy in one document.
pub const ALIAS_BUDGET: usize = 10_000;

/// Maps the parser's char indices to byte offsets.
struct CharMap {
    /// `(char index, byte index)` right after each non-ASCII char; empty for ASCII text.
    checkpoints: Vec<(usize, usize)>,
    len_chars: usize,
    len_bytes: usize,
}

impl CharMap {
    fn new(text: &str) -> CharMap {
        let mut checkpoints = Vec::new();
        let mut chars = 0;
        if !text.is_ascii() {
            for (byte, ch) in text.char_indices() {
                chars += 1;
                if !ch.is_ascii() {
                    checkpoints.push((chars, byte + ch.len_utf8()));
                }
            }
        } else {
            chars = text.len();
        }
        CharMap {
            checkpoints,
            len_chars: chars,
            len_bytes: text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        if char_index >= self.len_chars {
            return self.len_bytes;
        }
        let at = self.checkpoints.partition_point(|(c, _)| *c <= char_index);
        match at.checked_sub(1).map(|i| self.checkpoints[i]) {
            Some((c, b)) => b + (char_index - c),
            None => char_index,
        }
    }
}

enum Frame {
    Map {
        start: usize,
        anchor: usize,
        flow_end: usize,
        entries: Vec<Entry>,
        pending: Option<Key>,
        seen: HashMap<String, Span>,
    },
    Seq {
        start: usize,
        anchor: usize,
        items: Vec<Node>,
    },
}

struct Builder<'t> {
    text: &'t str,
    offset: usize,
    chars: CharMap,
    stack: Vec<Frame>,
    /// > 0 while inside a collection that is deeper than the depth limit: events are skipped.
    skipping: usize,
    skip_start: usize,
    /// Anchored nodes with their size in nodes.
    anchors: HashMap<usize, (Node, usize)>,
    alias_budget: usize,
    root: Option<Node>,
    errors: Vec<SyntaxError>,
    duplicates: Vec<DuplicateKey>,
}

/// Parse `text`, a YAML document that starts at byte `offset` of the file (spans are shifted by
/// it).
pub fn parse(text: &str, offset: usize) -> Parsed {
    let mut b = Builder {
        text,
        offset,
        chars: CharMap::new(text),
        stack: Vec::new(),
        skipping: 0,
        skip_start: 0,
        anchors: HashMap::new(),
        alias_budget: ALIAS_BUDGET,
        root: None,
        errors: Vec::new(),
        duplicates: Vec::new(),
    };
    let mut parser = Parser::new_from_str(text);
    let mut documents = 0;
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => match event {
                Event::StreamEnd => break,
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        let at = b.span(span);
                        b.errors.push(SyntaxError {
                            span: at,
                            message: "a second YAML document starts here; frontmatter holds one".into(),
                        });
                        break;
                    }
                }
                other => b.event(other, span),
            },
            Some(Err(err)) => {
                let at = b.chars.byte(err.marker().index());
                let end = next_char_end(text, at);
                b.errors.push(SyntaxError {
                    span: Span::new(at + offset, end + offset),
                    message: err.info().to_string(),
                });
                break;
            }
        }
    }
    b.finish()
}

fn next_char_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map(|c| at + c.len_utf8())
        .unwrap_or(at)
}

impl Builder<'_> {
    fn span(&self, s: YSpan) -> Span {
        Span::new(
            self.chars.byte(s.start.index()) + self.offset,
            self.chars.byte(s.end.index()) + self.offset,
        )
    }

    fn event(&mut self, event: Event<'_>, span: YSpan) {
        let sp = self.span(span);
        if self.skipping > 0 {
            match event {
                Event::MappingStart(..) | Event::SequenceStart(..) => self.skipping += 1,
                Event::MappingEnd | Event::SequenceEnd => {
                    self.skipping -= 1;
                    if self.skipping == 0 {
                        let node = Node::new(
                            Span::new(self.skip_start, sp.end as usize),
                            Style::Collection,
                            Value::Unknown,
                        );
                        self.complete(node);
                    }
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let mut sp = sp;
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
                    // Block scalars run to the start of the next line; end at the last content.
                    let local = (sp.start as usize - self.offset)..(sp.end as usize - self.offset);
                    let trimmed = self
                        .text
                        .get(local.clone())
                        .map(|t| t.trim_end().len())
                        .unwrap_or(local.len());
                    sp = Span::new(sp.start as usize, sp.start as usize + trimmed);
                }
                let node = scalar(&value, style, tag.as_deref(), sp);
                self.remember(anchor, &node);
                self.complete(node);
            }
            Event::Alias(id) => {
                let node = match self.anchors.get(&id) {
                    Some((target, size)) => {
                        let size = *size;
                        if size > self.alias_budget {
                            let reported = self.alias_budget == 0;
                            self.alias_budget = 0;
                            if !reported {
                                self.errors.push(SyntaxError {
                                    span: sp,
                                    message: format!(
                                        "alias expansion exceeds {ALIAS_BUDGET} nodes (a billion-laughs document?); not expanded"
                                    ),
                                });
                            }
                            Node::new(sp, Style::Plain, Value::Unknown)
                        } else {
                            self.alias_budget -= size;
                            let mut copy = target.clone();
                            copy.span = sp;
                            copy
                        }
                    }
                    None => Node::new(sp, Style::Plain, Value::Unknown),
                };
                self.complete(node);
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                if self.stack.len() >= MAX_DEPTH {
                    self.skipping = 1;
                    self.skip_start = sp.start as usize;
                    self.errors.push(SyntaxError {
                        span: sp,
                        message: format!("nesting deeper than {MAX_DEPTH} levels is not analysed"),
                    });
                    return;
                }
                let start = sp.start as usize;
                let frame = if matches!(event, Event::MappingStart(..)) {
                    Frame::Map {
                        start,
                        anchor,
                        flow_end: 0,
                        entries: Vec::new(),
                        pending: None,
                        seen: HashMap::new(),
                    }
                } else {
                    Frame::Seq {
                        start,
                        anchor,
                        items: Vec::new(),
                    }
                };
                self.stack.push(frame);
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(Frame::Map { flow_end, .. }) = self.stack.last_mut() {
                    *flow_end = sp.end as usize;
                }
                self.close(Some(sp.end as usize));
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentStart(_) | Event::DocumentEnd => {}
        }
    }

    fn remember(&mut self, anchor: usize, node: &Node) {
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), count(node)));
        }
    }

    /// Pop the top frame into a node. `end` is the end event's end (flow collections end at
    /// their closing bracket; block collections end with their last child).
    fn close(&mut self, end: Option<usize>) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let (node, anchor) = match frame {
            Frame::Map {
                start,
                anchor,
                mut entries,
                flow_end,
                ..
            } => {
                merge_keys(&mut entries);
                let last = entries.last().map(|e| e.value.span.end as usize).unwrap_or(start);
                let end = end.unwrap_or(last).max(last).max(flow_end);
                let end = if flow_end == 0 { last.max(start) } else { end };
                (
                    Node::new(Span::new(start, end), Style::Collection, Value::Map(Map { entries })),
                    anchor,
                )
            }
            Frame::Seq { start, anchor, items } => {
                let last = items.last().map(|n| n.span.end as usize).unwrap_or(start);
                let end = end.unwrap_or(last).max(last);
                (
                    Node::new(Span::new(start, end), Style::Collection, Value::Seq(items)),
                    anchor,
                )
            }
        };
        self.remember(anchor, &node);
        self.complete(node);
    }

    fn complete(&mut self, node: Node) {
        match self.stack.last_mut() {
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries, pending, seen, ..
            }) => match pending.take() {
                None => {
                    let name = match &node.value {
                        Value::Str(s) => s.clone(),
                        Value::Null => String::new(),
                        _ => node.display(),
                    };
                    *pending = Some(Key { name, span: node.span });
                }
                Some(key) => {
                    if let Some(first) = seen.get(&key.name) {
                        self.duplicates.push(DuplicateKey {
                            name: key.name.clone(),
                            first: *first,
                            duplicate: key.span,
                        });
                    } else {
                        seen.insert(key.name.clone(), key.span);
                    }
                    entries.push(Entry { key, value: node });
                }
            },
        }
    }

    fn finish(mut self) -> Parsed {
        // A syntax error leaves collections open: close them with what they hold. A key whose
        // value never came is dropped, so that nothing is reported about a value nobody wrote.
        while !self.stack.is_empty() {
            self.close(None);
        }
        let root = self.root.or_else(|| {
            if self.errors.is_empty() {
                Some(Node::new(Span::empty(self.offset), Style::Plain, Value::Null))
            } else {
                None
            }
        });
        Parsed {
            root,
            errors: self.errors,
            duplicates: self.duplicates,
        }
    }
}

/// YAML merge keys (`<<: *base`), which js-yaml applies: entries of the merged maps that the map
/// does not set itself.
fn merge_keys(entries: &mut Vec<Entry>) {
    if !entries.iter().any(|e| e.key.name == "<<") {
        return;
    }
    let mut merged = Vec::new();
    let mut own = Vec::new();
    for e in entries.drain(..) {
        if e.key.name == "<<" {
            match e.value.value {
                Value::Map(m) => merged.extend(m.entries),
                Value::Seq(items) => {
                    for item in items {
                        if let Value::Map(m) = item.value {
                            merged.extend(m.entries);
                        }
                    }
                }
                _ => own.push(Entry {
                    key: e.key,
                    value: e.value,
                }),
            }
        } else {
            own.push(e);
        }
    }
    let mut names: std::collections::HashSet<String> = own.iter().map(|e| e.key.name.clone()).collect();
    for m in merged {
        if names.insert(m.key.name.clone()) {
            own.push(m);
        }
    }
    *entries = own;
}

fn count(node: &Node) -> usize {
    match &node.value {
        Value::Seq(items) => 1 + items.iter().map(count).sum::<usize>(),
        Value::Map(m) => 1 + m.entries.iter().map(|e| count(&e.value)).sum::<usize>(),
        _ => 1,
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>, span: Span) -> Node {
    let node_style = match style {
        ScalarStyle::Plain => Style::Plain,
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => Style::Quoted,
        ScalarStyle::Literal | ScalarStyle::Folded => Style::Block,
    };
    let value = match tag {
        Some(tag) if tag.handle == "tag:yaml.org,2002:" || tag.handle == "!!" => match tag.suffix.as_str() {
            "str" => Value::Str(text.to_string()),
            "null" => Value::Null,
            "bool" | "int" | "float" => resolve_plain(text),
            _ => Value::Unknown,
        },
        Some(_) => Value::Unknown,
        None if style == ScalarStyle::Plain => resolve_plain(text),
        None => Value::Str(text.to_string()),
    };
    Node::new(span, node_style, value)
}

/// js-yaml 3 `DEFAULT_SAFE_SCHEMA` resolution of a plain scalar.
pub fn resolve_plain(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(i) = resolve_int(s) {
        return Value::Int(i);
    }
    if let Some(f) = resolve_float(s) {
        return Value::Float(f);
    }
    if is_timestamp(s) {
        return Value::Unknown;
    }
    Value::Str(s.to_string())
}

fn split_sign(s: &str) -> (i64, &str) {
    match s.as_bytes().first() {
        Some(b'-') => (-1, &s[1..]),
        Some(b'+') => (1, &s[1..]),
        _ => (1, s),
    }
}

fn resolve_int(s: &str) -> Option<i64> {
    let (sign, body) = split_sign(s);
    if body.is_empty() || body.ends_with('_') {
        return None;
    }
    let digits = |t: &str, radix: u32| -> Option<i64> {
        let clean: String = t.chars().filter(|c| *c != '_').collect();
        if clean.is_empty() {
            return None;
        }
        i64::from_str_radix(&clean, radix).ok()
    };
    let value = if let Some(b) = body.strip_prefix("0b") {
        b.chars()
            .all(|c| c == '0' || c == '1' || c == '_')
            .then(|| digits(b, 2))??
    } else if let Some(h) = body.strip_prefix("0x") {
        h.chars()
            .all(|c| c.is_ascii_hexdigit() || c == '_')
            .then(|| digits(h, 16))??
    } else if body == "0" {
        0
    } else if let Some(o) = body.strip_prefix('0') {
        o.chars()
            .all(|c| ('0'..='7').contains(&c) || c == '_')
            .then(|| digits(o, 8))??
    } else if body.contains(':') {
        // Sexagesimal: 1:30 is 90.
        let mut parts = body.split(':');
        let first = parts.next()?;
        if !first.starts_with(|c: char| ('1'..='9').contains(&c))
            || !first.chars().all(|c| c.is_ascii_digit() || c == '_')
        {
            return None;
        }
        let mut total = digits(first, 10)?;
        for part in parts {
            if part.is_empty() || part.len() > 2 || !part.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let n: i64 = part.parse().ok()?;
            if n >= 60 {
                return None;
            }
            total = total.checked_mul(60)?.checked_add(n)?;
        }
        total
    } else {
        if !body.starts_with(|c: char| ('1'..='9').contains(&c))
            || !body.chars().all(|c| c.is_ascii_digit() || c == '_')
        {
            return None;
        }
        digits(body, 10)?
    };
    value.checked_mul(sign)
}

fn resolve_float(s: &str) -> Option<f64> {
    let (sign, body) = split_sign(s);
    match body {
        ".inf" | ".Inf" | ".INF" => return Some(sign as f64 * f64::INFINITY),
        ".nan" | ".NaN" | ".NAN" if sign == 1 && !s.starts_with('+') => return Some(f64::NAN),
        _ => {}
    }
    if s.ends_with('_') || body.is_empty() {
        return None;
    }
    // [0-9][0-9_]* ( . [0-9_]* )? ( [eE][-+]?[0-9]+ )?   or   . [0-9_]+ (exp)?
    let bytes = body.as_bytes();
    let mut i = 0;
    let int_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
        i += 1;
    }
    let int_part = &body[int_start..i];
    if !int_part.is_empty() && (int_part.starts_with('_') || (int_part.starts_with('0') && int_part.len() > 1)) {
        return None;
    }
    let mut frac = "";
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        let f = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
            i += 1;
        }
        frac = &body[f..i];
        if int_part.is_empty() && frac.is_empty() {
            return None;
        }
    } else if int_part.is_empty() {
        return None;
    }
    let mut exp = "";
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let e = i;
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        let d = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if d == i {
            return None;
        }
        exp = &body[e..i];
    }
    if i != bytes.len() {
        return None;
    }
    let clean: String = format!("{int_part}.{frac}{exp}")
        .chars()
        .filter(|c| *c != '_')
        .collect();
    let clean = if clean.starts_with('.') {
        format!("0{clean}")
    } else {
        clean
    };
    let value: f64 = clean.trim_end_matches('.').parse().ok()?;
    Some(sign as f64 * value)
}

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5].is_ascii_digit()
        && (b[6] == b'-' || (b[6].is_ascii_digit() && b[7] == b'-'))
        && s[..10].bytes().filter(|c| *c == b'-').count() == 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str) -> Node {
        let p = parse(text, 0);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        p.root.unwrap()
    }

    #[test]
    fn spans_are_bytes_with_cjk_and_emoji() {
        let text = "description: 审查代码 🚀 ok\nmode: subagent\npermission:\n  bash:\n    \"git push *\": deny\n";
        let r = root(text);
        let m = r.as_map().unwrap();
        let desc = m.get("description").unwrap();
        assert_eq!(desc.key.span.text(text), "description");
        assert_eq!(desc.value.span.text(text), "审查代码 🚀 ok");
        let mode = m.get("mode").unwrap();
        assert_eq!(mode.key.span, Span::new(34, 38));
        assert_eq!(mode.value.span.text(text), "subagent");
        let bash = m.value("permission").unwrap().as_map().unwrap().get("bash").unwrap();
        assert_eq!(bash.key.span.text(text), "bash");
        let rule = &bash.value.as_map().unwrap().entries[0];
        assert_eq!(rule.key.name, "git push *");
        assert_eq!(rule.key.span.text(text), "\"git push *\"");
        assert_eq!(rule.value.span.text(text), "deny");
    }

    #[test]
    fn js_yaml_3_scalar_resolution() {
        let cases: &[(&str, Value)] = &[
            ("yes", Value::Str("yes".into())),
            ("on", Value::Str("on".into())),
            ("1:30", Value::Int(90)),
            ("017", Value::Int(15)),
            ("0x1F", Value::Int(31)),
            ("1_000", Value::Int(1000)),
            ("~", Value::Null),
            ("", Value::Null),
            ("True", Value::Bool(true)),
            ("0.5", Value::Float(0.5)),
            ("2.5", Value::Float(2.5)),
            ("-1", Value::Int(-1)),
            ("1e3", Value::Float(1000.0)),
            (".5", Value::Float(0.5)),
            ("08", Value::Str("08".into())),
            ("n", Value::Str("n".into())),
            ("5", Value::Int(5)),
            ("2024-01-01", Value::Unknown),
        ];
        for (text, want) in cases {
            assert_eq!(&resolve_plain(text), want, "{text}");
        }
        assert_eq!(resolve_plain(".inf"), Value::Float(f64::INFINITY));
    }

    #[test]
    fn quoted_scalars_stay_strings() {
        let r = root("steps: \"5\"\nhidden: 'true'\n");
        let m = r.as_map().unwrap();
        assert_eq!(m.value("steps").unwrap().value, Value::Str("5".into()));
        assert_eq!(m.value("steps").unwrap().style, Style::Quoted);
        assert_eq!(m.value("hidden").unwrap().value, Value::Str("true".into()));
    }

    #[test]
    fn unquoted_hex_color_is_a_comment() {
        let text = "color: #FF5733\n";
        let r = root(text);
        let v = r.as_map().unwrap().value("color").unwrap();
        assert_eq!(v.value, Value::Null);
    }

    #[test]
    fn duplicates_are_reported_with_both_spans() {
        let text = "mode: a\nmode: b\npermission:\n  bash: allow\n  bash: deny\n";
        let p = parse(text, 0);
        assert_eq!(p.duplicates.len(), 2);
        assert_eq!(p.duplicates[0].first.text(text), "mode");
        assert_eq!(p.duplicates[0].duplicate, Span::new(8, 12));
        assert_eq!(p.duplicates[1].name, "bash");
    }

    #[test]
    fn partial_tree_before_a_syntax_error() {
        let text = "mode: x\npermission:\n\tbash: deny\n";
        let p = parse(text, 0);
        assert_eq!(p.errors.len(), 1);
        let r = p.root.unwrap();
        let m = r.as_map().unwrap();
        assert_eq!(m.value("mode").unwrap().as_str(), Some("x"));
    }

    #[test]
    fn error_position_is_in_bytes() {
        let text = "description: 审查\nmode: \"unterminated\n";
        let p = parse(text, 0);
        assert_eq!(p.errors.len(), 1);
        let err = &p.errors[0];
        assert!(err.span.start as usize >= text.find('"').unwrap(), "{err:?}");
        assert!(text.is_char_boundary(err.span.start as usize));
    }

    #[test]
    fn offset_is_applied() {
        let p = parse("mode: x\n", 4);
        let r = p.root.unwrap();
        assert_eq!(r.as_map().unwrap().get("mode").unwrap().key.span, Span::new(4, 8));
    }

    #[test]
    fn billion_laughs_is_bounded() {
        let mut text = String::from("l0: &l0 [a, b, c, d, e, f, g, h, i, j]\n");
        for level in 1..10 {
            let refs = vec![format!("*l{}", level - 1); 10].join(", ");
            text.push_str(&format!("l{level}: &l{level} [{refs}]\n"));
        }
        let p = parse(&text, 0);
        assert!(p.errors.iter().any(|e| e.message.contains("alias expansion")));
    }

    #[test]
    fn deep_block_nesting_is_cut_off() {
        let text = "- ".repeat(100_000) + "x\n";
        let p = parse(&text, 0);
        assert!(p.errors.iter().any(|e| e.message.contains("nesting")));
        assert!(depth(p.root.as_ref().unwrap()) <= MAX_DEPTH + 1);
    }

    use super::super::depth;

    #[test]
    fn merge_keys_apply() {
        let r = root("base: &b\n  mode: subagent\nagent:\n  <<: *b\n  hidden: true\n");
        let agent = r.as_map().unwrap().value("agent").unwrap().as_map().unwrap();
        assert!(agent.contains("mode"));
        assert!(!agent.contains("<<"));
    }
}
