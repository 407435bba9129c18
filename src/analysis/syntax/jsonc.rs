//! JSONC (`opencode.json`, `opencode.jsonc`) into the spanned tree.
//!
//! The grammar is what opencode accepts: JSON plus `//` and `/* */` comments and trailing commas
//! (opencode reads both file names with the same JSONC reader). Unquoted keys, single quotes and
//! other JSON5 forms are errors, as there.
//!
//! A hand-written recursive-descent parser, because an editor needs what off-the-shelf JSONC
//! crates do not give: it keeps going after an error (a missing comma, a half-typed value, an
//! unclosed object) and returns the partial tree plus every error, with byte spans. Recursion is
//! bounded by [`super::MAX_DEPTH`]; deeper content is skipped without recursion.

use std::collections::HashMap;

use super::{DuplicateKey, Entry, Key, MAX_DEPTH, Map, Node, Parsed, Style, SyntaxError, Value};
use crate::analysis::text::Span;

pub fn parse(text: &str) -> Parsed {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut p = P {
        src: text.as_bytes(),
        text,
        pos: start,
        errors: Vec::new(),
        duplicates: Vec::new(),
    };
    p.trivia();
    if p.pos >= p.src.len() {
        // An empty file is a syntax error for opencode's reader.
        p.error(Span::empty(p.pos), "the file is empty; expected a JSON object");
        return p.done(None);
    }
    let root = p.value(0);
    p.trivia();
    if root.is_some() && p.pos < p.src.len() {
        let at = p.pos;
        p.error(
            Span::new(at, p.char_end(at)),
            "unexpected content after the end of the top-level value",
        );
    }
    p.done(root)
}

struct P<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    errors: Vec<SyntaxError>,
    duplicates: Vec<DuplicateKey>,
}

impl P<'_> {
    fn done(self, root: Option<Node>) -> Parsed {
        Parsed {
            root,
            errors: self.errors,
            duplicates: self.duplicates,
        }
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        // One error per position is enough; recovery may revisit a spot.
        if self.errors.last().is_some_and(|e| e.span.start == span.start) {
            return;
        }
        if self.errors.len() < 100 {
            self.errors.push(SyntaxError {
                span,
                message: message.into(),
            });
        }
    }

    fn char_end(&self, at: usize) -> usize {
        self.text
            .get(at..)
            .and_then(|r| r.chars().next())
            .map(|c| at + c.len_utf8())
            .unwrap_or(at)
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    /// Skip whitespace and comments.
    fn trivia(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.src.get(self.pos + 1) == Some(&b'/') => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' || c == b'\r' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                Some(b'/') if self.src.get(self.pos + 1) == Some(&b'*') => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        match self.peek() {
                            None => {
                                self.error(Span::new(start, start + 2), "unterminated block comment");
                                break;
                            }
                            Some(b'*') if self.src.get(self.pos + 1) == Some(&b'/') => {
                                self.pos += 2;
                                break;
                            }
                            _ => self.pos += 1,
                        }
                    }
                }
                _ => break,
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        self.trivia();
        let start = self.pos;
        match self.peek()? {
            b'{' | b'[' if depth >= MAX_DEPTH => {
                self.skip_nested();
                self.error(
                    Span::new(start, start + 1),
                    format!("nesting deeper than {MAX_DEPTH} levels is not analysed"),
                );
                Some(Node::new(Span::new(start, self.pos), Style::Collection, Value::Unknown))
            }
            b'{' => Some(self.object(depth)),
            b'[' => Some(self.array(depth)),
            b'"' => {
                let (s, span) = self.string();
                Some(Node::new(span, Style::Quoted, Value::Str(s)))
            }
            b'-' | b'0'..=b'9' => Some(self.number()),
            c if c.is_ascii_alphabetic() || c == b'\'' || c == b'_' || c == b'.' || c == b'+' => {
                let end = self.word_end();
                let word = &self.text[start..end];
                self.pos = end;
                let span = Span::new(start, end);
                match word {
                    "true" => Some(Node::new(span, Style::Plain, Value::Bool(true))),
                    "false" => Some(Node::new(span, Style::Plain, Value::Bool(false))),
                    "null" => Some(Node::new(span, Style::Plain, Value::Null)),
                    _ => {
                        let msg = if c == b'\'' {
                            "single-quoted strings are not JSON; use double quotes".to_string()
                        } else {
                            format!("`{word}` is not a JSON value; strings need double quotes")
                        };
                        self.error(span, msg);
                        Some(Node::new(span, Style::Plain, Value::Unknown))
                    }
                }
            }
            _ => None,
        }
    }

    /// End of a run of characters that could belong to a bare word or a mistyped literal.
    fn word_end(&self) -> usize {
        let mut end = self.pos;
        if self.src.get(end) == Some(&b'\'') {
            end += 1;
            while end < self.src.len() && self.src[end] != b'\'' && self.src[end] != b'\n' {
                end += 1;
            }
            return (end + 1).min(self.src.len());
        }
        while end < self.src.len() {
            let c = self.src[end];
            if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'+' | b'-') || c >= 0x80 {
                end += 1;
            } else {
                break;
            }
        }
        while end < self.src.len() && !self.text.is_char_boundary(end) {
            end += 1;
        }
        end.max(self.pos + 1).min(self.src.len())
    }

    /// Skip a collection that is too deep, without recursion.
    fn skip_nested(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'"' => {
                    self.string();
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    fn string(&mut self) -> (String, Span) {
        let start = self.pos;
        self.pos += 1;
        // Fast path: no escape and no control character before the closing quote.
        let rest = &self.src[self.pos..];
        if let Some(end) = rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20)
            && rest[end] == b'"'
        {
            let s = self.text[self.pos..self.pos + end].to_string();
            self.pos += end + 1;
            return (s, Span::new(start, self.pos));
        }
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                self.error(Span::new(start, start + 1), "unterminated string");
                return (out, Span::new(start, self.pos));
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return (out, Span::new(start, self.pos));
                }
                b'\n' | b'\r' => {
                    self.error(
                        Span::new(start, start + 1),
                        "unterminated string (strings cannot span lines)",
                    );
                    return (out, Span::new(start, self.pos));
                }
                b'\\' => {
                    let esc_start = self.pos;
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hex = |p: &Self, at: usize| -> Option<u32> {
                                let h = p.text.get(at..at + 4)?;
                                if !h.bytes().all(|b| b.is_ascii_hexdigit()) {
                                    return None;
                                }
                                u32::from_str_radix(h, 16).ok()
                            };
                            match hex(self, self.pos + 1) {
                                Some(hi) => {
                                    self.pos += 4;
                                    let mut ch = char::from_u32(hi);
                                    if (0xD800..0xDC00).contains(&hi)
                                        && self.src.get(self.pos + 1) == Some(&b'\\')
                                        && self.src.get(self.pos + 2) == Some(&b'u')
                                        && let Some(lo) = hex(self, self.pos + 3)
                                        && (0xDC00..0xE000).contains(&lo)
                                    {
                                        ch = char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                                        self.pos += 6;
                                    }
                                    out.push(ch.unwrap_or('\u{fffd}'));
                                }
                                None => {
                                    self.error(Span::new(esc_start, esc_start + 2), "invalid unicode escape");
                                }
                            }
                        }
                        _ => {
                            let end = self.char_end(self.pos);
                            self.error(Span::new(esc_start, end), "invalid escape sequence");
                        }
                    }
                    // `char_end` is past `pos` whenever a character starts there, as one does
                    // after the ASCII `\`: the `max` only guards the loop against a position
                    // inside a character, which no input reaches (a mutant of it is equivalent).
                    self.pos = self.char_end(self.pos).max(self.pos + 1).min(self.src.len());
                }
                c if c < 0x20 => {
                    self.error(Span::new(self.pos, self.pos + 1), "control character in string");
                    self.pos += 1;
                }
                _ => {
                    let end = self.char_end(self.pos);
                    out.push_str(&self.text[self.pos..end]);
                    self.pos = end;
                }
            }
        }
    }

    fn number(&mut self) -> Node {
        let start = self.pos;
        let s = self.src;
        let mut i = self.pos;
        if s.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        let mut valid = i > int_start && !(s[int_start] == b'0' && i - int_start > 1);
        let mut is_float = false;
        if s.get(i) == Some(&b'.') {
            is_float = true;
            i += 1;
            let f = i;
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
            valid &= i > f;
        }
        if matches!(s.get(i), Some(b'e' | b'E')) {
            is_float = true;
            i += 1;
            if matches!(s.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let e = i;
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
            valid &= i > e;
        }
        // Swallow trailing junk such as `5px` so that the error covers it.
        while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'.') {
            valid = false;
            i += 1;
        }
        self.pos = i;
        let span = Span::new(start, i);
        let text = &self.text[start..i];
        if !valid {
            self.error(span, format!("`{text}` is not a valid JSON number"));
            return Node::new(span, Style::Plain, Value::Unknown);
        }
        let value = if is_float {
            text.parse().map(Value::Float).unwrap_or(Value::Unknown)
        } else {
            text.parse()
                .map(Value::Int)
                .or_else(|_| text.parse().map(Value::Float))
                .unwrap_or(Value::Unknown)
        };
        Node::new(span, Style::Plain, value)
    }

    fn array(&mut self, depth: usize) -> Node {
        let start = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.trivia();
            match self.peek() {
                None => {
                    self.error(Span::new(start, start + 1), "unclosed `[`: the array is never closed");
                    break;
                }
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => {}
            }
            let before = self.pos;
            match self.value(depth + 1) {
                Some(v) => items.push(v),
                None => {
                    let at = self.pos;
                    self.error(Span::new(at, self.char_end(at)), "expected a value");
                }
            }
            self.trivia();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') | None => {}
                Some(b'}') => {
                    // A `}` where `]` belongs: report it and close the array here.
                    let at = self.pos;
                    self.error(Span::new(at, at + 1), "expected `,` or `]`");
                    break;
                }
                Some(_) => {
                    let at = self.pos;
                    self.error(Span::empty(at), "expected `,` or `]`");
                    if self.pos == before {
                        self.pos = self.char_end(self.pos);
                    }
                }
            }
        }
        Node::new(Span::new(start, self.pos), Style::Collection, Value::Seq(items))
    }

    fn object(&mut self, depth: usize) -> Node {
        let start = self.pos;
        self.pos += 1;
        let mut entries: Vec<Entry> = Vec::new();
        let mut seen: HashMap<String, Span> = HashMap::new();
        loop {
            self.trivia();
            let key_start = self.pos;
            let key = match self.peek() {
                None => {
                    self.error(Span::new(start, start + 1), "unclosed `{`: the object is never closed");
                    break;
                }
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                Some(b'"') => {
                    let (name, span) = self.string();
                    Key { name, span }
                }
                Some(b',') => {
                    self.error(Span::new(key_start, key_start + 1), "unexpected `,`");
                    self.pos += 1;
                    continue;
                }
                Some(c) if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'\'' => {
                    let end = self.word_end();
                    let raw = &self.text[key_start..end];
                    let name = raw.trim_matches('\'').to_string();
                    self.pos = end;
                    let span = Span::new(key_start, end);
                    self.error(span, "property names must be double-quoted strings");
                    Key { name, span }
                }
                Some(_) => {
                    let end = self.char_end(key_start);
                    self.error(Span::new(key_start, end), "expected a property name or `}`");
                    if self.recover_in_object() {
                        continue;
                    }
                    break;
                }
            };
            self.trivia();
            if self.peek() == Some(b':') {
                self.pos += 1;
            } else {
                self.error(
                    Span::empty(key.span.end as usize),
                    format!("expected `:` after \"{}\"", key.name),
                );
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        continue;
                    }
                    Some(b'}') | None => continue,
                    _ => {}
                }
            }
            let value = match self.value(depth + 1) {
                Some(v) => v,
                None => {
                    let at = self.pos;
                    self.error(
                        Span::new(at, self.char_end(at)),
                        format!("expected a value for \"{}\"", key.name),
                    );
                    // Keep the key (completion and "did you mean" still apply to it) with an
                    // unknown value that checks ignore.
                    let v = Node::new(Span::empty(at), Style::Plain, Value::Unknown);
                    if matches!(self.peek(), Some(b',' | b'}') | None) {
                        self.push_entry(&mut entries, &mut seen, key, v);
                        if self.peek() == Some(b',') {
                            self.pos += 1;
                        }
                        continue;
                    }
                    self.push_entry(&mut entries, &mut seen, key, v);
                    if self.recover_in_object() {
                        continue;
                    }
                    break;
                }
            };
            self.push_entry(&mut entries, &mut seen, key, value);
            self.trivia();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') | None => {}
                Some(b'"') => {
                    let at = self.pos;
                    self.error(Span::empty(at), "expected `,` between properties");
                }
                Some(b']') => {
                    let at = self.pos;
                    self.error(Span::new(at, at + 1), "expected `,` or `}`");
                    break;
                }
                Some(_) => {
                    let at = self.pos;
                    self.error(Span::new(at, self.char_end(at)), "expected `,` or `}`");
                    if !self.recover_in_object() {
                        break;
                    }
                }
            }
        }
        Node::new(
            Span::new(start, self.pos),
            Style::Collection,
            Value::Map(Map::new(entries)),
        )
    }

    fn push_entry(&mut self, entries: &mut Vec<Entry>, seen: &mut HashMap<String, Span>, key: Key, value: Node) {
        // Small objects: a linear scan is cheaper than hashing; large ones use the map.
        if entries.len() < 16 {
            if let Some(first) = entries.iter().find(|e| e.key.name == key.name) {
                self.duplicates.push(DuplicateKey {
                    name: key.name.clone(),
                    first: first.key.span,
                    duplicate: key.span,
                });
            }
            if entries.len() == 15 {
                for e in entries.iter() {
                    seen.entry(e.key.name.clone()).or_insert(e.key.span);
                }
                seen.entry(key.name.clone()).or_insert(key.span);
            }
            entries.push(Entry { key, value });
            return;
        }
        if let Some(first) = seen.get(&key.name) {
            self.duplicates.push(DuplicateKey {
                name: key.name.clone(),
                first: *first,
                duplicate: key.span,
            });
        } else {
            seen.insert(key.name.clone(), key.span);
        }
        entries.push(Entry { key, value });
    }

    /// Skip to the next `,` (consumed) or `}` (left) of the current object, stepping over nested
    /// collections and strings. Returns false at the end of the text.
    fn recover_in_object(&mut self) -> bool {
        let mut depth = 0usize;
        loop {
            self.trivia();
            let Some(c) = self.peek() else { return false };
            match c {
                b'"' => {
                    self.string();
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b']' if depth > 0 => depth -= 1,
                b'}' if depth > 0 => depth -= 1,
                b'}' => return true,
                b',' if depth == 0 => {
                    self.pos += 1;
                    return true;
                }
                _ => {}
            }
            self.pos = self.char_end(self.pos).max(self.pos + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_deep_a_collection_is_skipped_and_what_follows_is_read() {
        let deep = format!("{}\"x]\"{}", "[".repeat(70), "]".repeat(70));
        let text = format!("{{\"a\": {deep}, \"b\": 1}}");
        let p = parse(&text);
        // The `[` at depth MAX_DEPTH (the object is depth 0), 6 bytes after `{"a": `.
        let cut = "{\"a\": ".len() + MAX_DEPTH - 1;
        assert_eq!(
            p.errors,
            [SyntaxError {
                span: Span::new(cut, cut + 1),
                message: format!("nesting deeper than {MAX_DEPTH} levels is not analysed"),
            }]
        );
        let root = p.root.unwrap();
        let m = root.as_map().unwrap();
        let mut n = m.value("a").unwrap();
        for _ in 1..MAX_DEPTH {
            let Value::Seq(items) = &n.value else {
                panic!("not a sequence: {n:?}")
            };
            n = &items[0];
        }
        // The whole too-deep array, up to its own `]` (the `]` in the string does not end it).
        let skipped = 70 - (MAX_DEPTH - 1);
        assert_eq!(
            n.span.text(&text),
            format!("{}\"x]\"{}", "[".repeat(skipped), "]".repeat(skipped))
        );
        assert_eq!(n.value, Value::Unknown);
        assert_eq!(m.value("b").unwrap().value, Value::Int(1));
        assert_eq!(m.value("b").unwrap().span.text(&text), "1");
    }

    #[test]
    fn a_string_cut_by_a_line_break_points_at_its_opening_quote() {
        let text = "{\"a\": \"b\\n c\n}";
        let p = parse(text);
        assert_eq!(p.errors[0].message, "unterminated string (strings cannot span lines)");
        assert_eq!(p.errors[0].span, Span::new(6, 7));
        assert_eq!(p.errors[0].span.text(text), "\"");
    }

    #[test]
    fn after_a_stray_character_the_object_resumes_past_the_collection_that_follows_it() {
        let text = r#"{"a": 1, @{"x": 1, "y": [2, {"z": 3}]}, "c": 3}"#;
        let p = parse(text);
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        assert_eq!(p.errors[0].span.text(text), "@");
        let root = p.root.unwrap();
        let keys: Vec<&str> = root
            .as_map()
            .unwrap()
            .entries
            .iter()
            .map(|e| e.key.name.as_str())
            .collect();
        assert_eq!(keys, ["a", "c"]);
    }

    #[test]
    fn a_bracket_that_does_not_close_an_object() {
        let text = "{\"a\": 1]";
        let p = parse(text);
        assert_eq!(
            p.errors,
            [SyntaxError {
                span: Span::new(7, 8),
                message: "expected `,` or `}`".into(),
            }]
        );
        assert_eq!(p.errors[0].span.text(text), "]");
        assert_eq!(
            p.root.unwrap().as_map().unwrap().value("a").unwrap().value,
            Value::Int(1)
        );
    }

    #[test]
    fn comments_trailing_commas_and_spans() {
        let text = "{\n  // c\n  \"agent\": { /* x */ \"rev\": { \"mode\": \"subagent\", }, },\n}\n";
        let p = parse(text);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        let root = p.root.unwrap();
        let agent = root.as_map().unwrap().get("agent").unwrap();
        assert_eq!(agent.key.span.text(text), "\"agent\"");
        let rev = agent.value.as_map().unwrap().get("rev").unwrap();
        let mode = rev.value.as_map().unwrap().get("mode").unwrap();
        assert_eq!(mode.value.span.text(text), "\"subagent\"");
        assert_eq!(mode.value.as_str(), Some("subagent"));
    }

    #[test]
    fn utf8_spans_are_bytes() {
        let text = "{\"description\": \"审查代码 🚀 ok\", \"x\": 1}";
        let p = parse(text);
        let m = p.root.unwrap();
        let d = m.as_map().unwrap().get("description").unwrap();
        assert_eq!(d.value.span.text(text), "\"审查代码 🚀 ok\"");
        assert_eq!(d.value.as_str(), Some("审查代码 🚀 ok"));
    }

    #[test]
    fn numbers_and_literals() {
        let p = parse("[1, -2.5, 1e3, true, null, 01, 5px]");
        let root = p.root.unwrap();
        let Value::Seq(items) = &root.value else { panic!() };
        assert_eq!(items[0].value, Value::Int(1));
        assert_eq!(items[1].value, Value::Float(-2.5));
        assert_eq!(items[2].value, Value::Float(1000.0));
        assert_eq!(items[3].value, Value::Bool(true));
        assert_eq!(items[4].value, Value::Null);
        assert_eq!(items[5].value, Value::Unknown);
        assert_eq!(p.errors.len(), 2);
    }

    #[test]
    fn recovery_keeps_what_can_be_read() {
        // A missing comma, a half-typed value and an unclosed object.
        let text = "{\n \"model\": \"a/b\"\n \"default_agent\": \"rev\",\n \"agent\": { \"rev\": { \"mode\": \n";
        let p = parse(text);
        assert!(p.errors.len() >= 2, "{:?}", p.errors);
        let root = p.root.unwrap();
        let m = root.as_map().unwrap();
        assert_eq!(m.value("model").unwrap().as_str(), Some("a/b"));
        assert_eq!(m.value("default_agent").unwrap().as_str(), Some("rev"));
        let rev = m.value("agent").unwrap().as_map().unwrap().value("rev").unwrap();
        assert!(rev.as_map().unwrap().value("mode").unwrap().is_unknown());
    }

    #[test]
    fn duplicates_and_escapes() {
        let text = r#"{"a": "\u00e9\ud83d\ude80\n", "a": 2}"#;
        let p = parse(text);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(p.duplicates.len(), 1);
        let root = p.root.unwrap();
        assert_eq!(root.as_map().unwrap().entries[0].value.as_str(), Some("é🚀\n"));
    }

    #[test]
    fn json5_forms_are_errors() {
        for text in ["{a: 1}", "{'a': 1}", "{\"a\": 'x'}", "{\"a\": 1} }", "", "{\"a\": 0x1}"] {
            assert!(!parse(text).errors.is_empty(), "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let p = parse(&text);
        assert!(p.errors.iter().any(|e| e.message.contains("nesting")));
        let unclosed = "{\"a\":".repeat(50_000);
        let p = parse(&unclosed);
        assert!(!p.errors.is_empty());
    }
}
