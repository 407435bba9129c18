//! Merging one `"parent": {"name": value}` entry into a JSONC file, or one item into a
//! `"parent": {"name": [...]}` array, by text edits on the byte spans of [`jsonc::parse`]: the
//! rest of the file (comments, order, indentation, trailing commas, CRLF, a byte-order mark)
//! stays byte for byte as it was. The file is never re-serialised; new text follows the
//! indentation, line breaks and trailing-comma habit of the file.

use crate::analysis::diagnostic::apply;
use crate::analysis::syntax::{Map, Node, Value, jsonc};
use crate::analysis::{Edit, Encoding, LineIndex, Span};

/// A value to write: objects are laid out over lines like the file's own; anything else is
/// written on one line (`["a", "b"]`).
#[derive(Clone, Debug)]
pub enum J {
    Obj(Vec<(String, J)>),
    /// An array laid out over lines like an object (one item a line).
    Arr(Vec<J>),
    Val(serde_json::Value),
}

impl J {
    pub fn obj(members: Vec<(&str, J)>) -> J {
        J::Obj(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    pub fn to_json(&self) -> serde_json::Value {
        match self {
            J::Obj(members) => {
                serde_json::Value::Object(members.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
            J::Arr(items) => serde_json::Value::Array(items.iter().map(J::to_json).collect()),
            J::Val(v) => v.clone(),
        }
    }
}

/// Where the value goes.
#[derive(Clone, Copy)]
pub enum Place {
    /// `parent.name` is the value.
    Member,
    /// `parent.name` is an array and the value one of its items: appended, unless an item is
    /// `ours` already (e.g. a hook entry that runs `agent-lsp hook`, whatever its matcher).
    Append { ours: fn(&serde_json::Value) -> bool },
}

/// What to do when the parent key holds `true` or `false` rather than an object.
pub struct Want<'a> {
    /// The top-level key (`lsp`, `mcp`, `mcpServers`).
    pub parent: &'a str,
    /// The entry under it (`agent-lsp`).
    pub name: &'a str,
    pub value: J,
    pub place: Place,
    /// `true` as the parent's value means the same as an object (opencode's `lsp: true`: the
    /// built-in servers on), so it may become one.
    pub true_is_object: bool,
    /// Why `false` cannot be merged into, and how to go on; `None`: like any other non-object.
    pub false_refusal: Option<&'a str>,
    /// What the user should know when the parent key is added (it was not set).
    pub note_if_added: Option<&'a str>,
}

impl<'a> Want<'a> {
    /// `parent.name` set to `value`, where the parent is an object like any other.
    pub fn member(parent: &'a str, name: &'a str, value: J) -> Want<'a> {
        Want {
            parent,
            name,
            value,
            place: Place::Member,
            true_is_object: false,
            false_refusal: None,
            note_if_added: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The entry is there with this value already.
    Unchanged,
    /// The parent key was added, holding the entry.
    AddedParent,
    /// The entry was added to the parent object.
    Added,
    /// The entry was there with another value, now replaced.
    Replaced,
    /// The parent was `true`; it is now an object holding the entry.
    FromTrue,
}

/// Parse `text` as JSONC; a syntax error is refused with its line and column (1-based).
pub fn parse_object(text: &str) -> Result<Node, String> {
    let parsed = jsonc::parse(text);
    if let Some(e) = parsed.errors.first() {
        let at = LineIndex::new(text).line_col(text, e.span.start as usize, Encoding::Utf32);
        return Err(format!("{}:{}: {}", at.line + 1, at.col + 1, e.message));
    }
    match parsed.root {
        Some(root) if root.as_map().is_some() => Ok(root),
        Some(root) => Err(format!("the top-level value is {}, not an object", describe(&root))),
        None => Err("1:1: expected a JSON object".to_string()),
    }
}

fn describe(node: &Node) -> String {
    match &node.value {
        Value::Bool(b) => format!("`{b}`"),
        Value::Null => "`null`".to_string(),
        Value::Seq(_) => "an array".to_string(),
        _ => node.type_name().to_string(),
    }
}

/// Merge `want` into `text`; returns the new text (equal to `text` when unchanged) and what
/// changed, or why not (line:column first).
pub fn merge(text: &str, want: &Want) -> Result<(String, Change), String> {
    let root = parse_object(text)?;
    let f = Format::of(text, &root);
    let map = root.as_map().expect("parse_object returns an object");
    let at = |span: Span| {
        let p = LineIndex::new(text).line_col(text, span.start as usize, Encoding::Utf32);
        format!("{}:{}", p.line + 1, p.col + 1)
    };
    if let Place::Append { ours } = want.place {
        return append(text, &root, &f, want, ours, &at);
    }
    let Some(parent) = map.get(want.parent) else {
        let value = J::Obj(vec![(want.name.to_string(), want.value.clone())]);
        let edits = f.insert_member(&root, want.parent, &value, true);
        return Ok((apply(text, &edits), Change::AddedParent));
    };
    let node = &parent.value;
    match &node.value {
        Value::Map(m) => match m.get(want.name) {
            Some(e) if e.value.to_json() == want.value.to_json() => Ok((text.to_string(), Change::Unchanged)),
            Some(e) => {
                let multiline = node.span.text(text).contains('\n');
                let base = f.indent_of_line(e.key.span.start as usize);
                let new = f.render(&want.value, base, multiline);
                Ok((apply(text, &[Edit::new(e.value.span, new)]), Change::Replaced))
            }
            None => {
                let in_lines = root.span.text(text).contains('\n');
                let edits = f.insert_member(node, want.name, &want.value, in_lines);
                Ok((apply(text, &edits), Change::Added))
            }
        },
        Value::Bool(true) if want.true_is_object => {
            let value = J::Obj(vec![(want.name.to_string(), want.value.clone())]);
            let base = f.indent_of_line(parent.key.span.start as usize);
            let multiline = root.span.text(text).contains('\n');
            let new = f.render(&value, base, multiline);
            Ok((apply(text, &[Edit::new(node.span, new)]), Change::FromTrue))
        }
        Value::Bool(false) if want.false_refusal.is_some() => Err(format!(
            "{}: `\"{}\": false` {}",
            at(parent.key.span),
            want.parent,
            want.false_refusal.unwrap_or_default()
        )),
        _ => Err(format!(
            "{}: `{}` is {}; it must be an object to hold the `{}` entry. Fix it, then run this again",
            at(parent.key.span),
            want.parent,
            describe(node),
            want.name
        )),
    }
}

/// [`merge`] of a [`Place::Append`] value.
fn append(
    text: &str,
    root: &Node,
    f: &Format,
    want: &Want,
    ours: fn(&serde_json::Value) -> bool,
    at: &dyn Fn(Span) -> String,
) -> Result<(String, Change), String> {
    let map = root.as_map().expect("parse_object returns an object");
    let in_lines = root.span.text(text).contains('\n');
    let array = J::Arr(vec![want.value.clone()]);
    let Some(parent) = map.get(want.parent) else {
        let value = J::Obj(vec![(want.name.to_string(), array)]);
        let edits = f.insert_member(root, want.parent, &value, true);
        return Ok((apply(text, &edits), Change::AddedParent));
    };
    let Some(m) = parent.value.as_map() else {
        return Err(format!(
            "{}: `{}` is {}; it must be an object to hold `{}`. Fix it, then run this again",
            at(parent.key.span),
            want.parent,
            describe(&parent.value),
            want.name
        ));
    };
    let Some(entry) = m.get(want.name) else {
        let edits = f.insert_member(&parent.value, want.name, &array, in_lines);
        return Ok((apply(text, &edits), Change::Added));
    };
    match &entry.value.value {
        Value::Seq(items) if items.iter().any(|i| ours(&i.to_json())) => Ok((text.to_string(), Change::Unchanged)),
        Value::Seq(_) => {
            let in_lines = parent.value.span.text(text).contains('\n');
            let edits = f.insert_item(&entry.value, &want.value, in_lines);
            Ok((apply(text, &edits), Change::Added))
        }
        _ => Err(format!(
            "{}: `{}.{}` is {}; it must be an array. Fix it, then run this again",
            at(entry.key.span),
            want.parent,
            want.name,
            describe(&entry.value)
        )),
    }
}

/// The habits of a file: its line break, one level of indentation, trailing commas.
struct Format<'a> {
    text: &'a str,
    nl: &'static str,
    unit: String,
    trailing_commas: bool,
}

impl<'a> Format<'a> {
    fn of(text: &'a str, root: &Node) -> Format<'a> {
        let mut f = Format {
            text,
            nl: if text.contains("\r\n") { "\r\n" } else { "\n" },
            unit: String::new(),
            trailing_commas: false,
        };
        let mut unit = None;
        let mut trailing = false;
        f.survey(root, &mut unit, &mut trailing);
        f.unit = unit.unwrap_or_else(|| "  ".to_string());
        f.trailing_commas = trailing;
        f
    }

    /// Find the first level of indentation (a member's line indentation beyond its object's)
    /// and whether any multi-line object or array ends with a comma.
    fn survey(&self, node: &Node, unit: &mut Option<String>, trailing: &mut bool) {
        let (close, last_end, first_start, children): (usize, Option<usize>, Option<usize>, Vec<&Node>) =
            match &node.value {
                Value::Map(m) => (
                    node.span.end as usize,
                    m.entries.last().map(|e| e.value.span.end as usize),
                    m.entries.first().map(|e| e.key.span.start as usize),
                    m.entries.iter().map(|e| &e.value).collect(),
                ),
                Value::Seq(items) => (
                    node.span.end as usize,
                    items.last().map(|v| v.span.end as usize),
                    items.first().map(|v| v.span.start as usize),
                    items.iter().collect(),
                ),
                _ => return,
            };
        if !node.span.text(self.text).contains('\n') {
            return;
        }
        if let (Some(last), Some(first)) = (last_end, first_start) {
            if scan_after(self.text, last, close.saturating_sub(1)).comma.is_some() {
                *trailing = true;
            }
            if unit.is_none() && self.starts_line(first) {
                let outer = self.indent_of_line(node.span.start as usize);
                let inner = self.indent_of_line(first);
                if inner.len() > outer.len() && inner.starts_with(outer) {
                    *unit = Some(inner[outer.len()..].to_string());
                }
            }
        }
        for c in children {
            self.survey(c, unit, trailing);
        }
    }

    fn line_start(&self, offset: usize) -> usize {
        self.text[..offset].rfind('\n').map_or(0, |i| i + 1)
    }

    /// The indentation of the line holding `offset` (after a byte-order mark on the first line).
    fn indent_of_line(&self, offset: usize) -> &'a str {
        let mut start = self.line_start(offset);
        if start == 0 && self.text.starts_with('\u{feff}') {
            start = 3;
        }
        let line = &self.text[start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    /// Whether only indentation precedes `offset` on its line.
    fn starts_line(&self, offset: usize) -> bool {
        let start = self.line_start(offset);
        self.text[start..offset]
            .trim_start_matches('\u{feff}')
            .chars()
            .all(|c| c == ' ' || c == '\t')
    }

    /// `value` as text: an object over lines at `base` indentation (its members one level
    /// deeper), or on one line.
    fn render(&self, value: &J, base: &str, multiline: bool) -> String {
        match value {
            J::Obj(members) if members.is_empty() => "{}".to_string(),
            J::Obj(members) if multiline => {
                let inner = format!("{base}{}", self.unit);
                let mut out = String::from("{");
                for (i, (k, v)) in members.iter().enumerate() {
                    let comma = if i + 1 < members.len() || self.trailing_commas {
                        ","
                    } else {
                        ""
                    };
                    out.push_str(&format!(
                        "{}{inner}{}: {}{comma}",
                        self.nl,
                        key(k),
                        self.render(v, &inner, true)
                    ));
                }
                out.push_str(&format!("{}{base}}}", self.nl));
                out
            }
            J::Obj(members) => {
                let inner: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("{}: {}", key(k), self.render(v, "", false)))
                    .collect();
                format!("{{{}}}", inner.join(", "))
            }
            J::Arr(items) if items.is_empty() => "[]".to_string(),
            J::Arr(items) if multiline => {
                let inner = format!("{base}{}", self.unit);
                let mut out = String::from("[");
                for (i, v) in items.iter().enumerate() {
                    let comma = if i + 1 < items.len() || self.trailing_commas {
                        ","
                    } else {
                        ""
                    };
                    out.push_str(&format!("{}{inner}{}{comma}", self.nl, self.render(v, &inner, true)));
                }
                out.push_str(&format!("{}{base}]", self.nl));
                out
            }
            J::Arr(items) => {
                let inner: Vec<String> = items.iter().map(|v| self.render(v, "", false)).collect();
                format!("[{}]", inner.join(", "))
            }
            J::Val(v) => inline(v),
        }
    }

    /// The edits that add `"name": value` as the last member of the object `node`. An empty
    /// object is opened over lines when `in_lines` (its container is laid out over lines).
    fn insert_member(&self, node: &Node, name: &str, value: &J, in_lines: bool) -> Vec<Edit> {
        let map: &Map = node.as_map().expect("an object");
        let last = map
            .entries
            .last()
            .map(|e| (e.key.span.start as usize, e.value.span.end as usize));
        self.insert_last(
            node,
            last,
            &|base, multiline| format!("{}: {}", key(name), self.render(value, base, multiline)),
            in_lines,
        )
    }

    /// The edits that add `value` as the last item of the array `node`.
    fn insert_item(&self, node: &Node, value: &J, in_lines: bool) -> Vec<Edit> {
        let last = match &node.value {
            Value::Seq(items) => items.last().map(|v| (v.span.start as usize, v.span.end as usize)),
            _ => None,
        };
        self.insert_last(
            node,
            last,
            &|base, multiline| self.render(value, base, multiline),
            in_lines,
        )
    }

    /// The edits that add a member or item (`new(indentation, multiline)` is its text) after the
    /// last one of the collection `node`, which starts at `last.0` and ends at `last.1`.
    fn insert_last(
        &self,
        node: &Node,
        last: Option<(usize, usize)>,
        new: &dyn Fn(&str, bool) -> String,
        in_lines: bool,
    ) -> Vec<Edit> {
        let text = self.text;
        let open = node.span.start as usize;
        let close = node.span.end as usize - 1;
        let multiline = text[open..=close].contains('\n');
        let Some((last_start, end)) = last else {
            // An empty object: `{}` becomes `{⏎  "name": value⏎}`; comments inside stay before it.
            let base = self.indent_of_line(open);
            let inner = format!("{base}{}", self.unit);
            let member = new(&inner, true);
            let comma = if self.trailing_commas { "," } else { "" };
            let mut ip = close;
            while ip > open + 1 && matches!(text.as_bytes()[ip - 1], b' ' | b'\t' | b'\r' | b'\n') {
                ip -= 1;
            }
            if !in_lines && !text[open..close].contains('\n') {
                let member = new("", false);
                let space = if ip > open + 1 { " " } else { "" };
                return vec![Edit::new(Span::new(ip, close), format!("{space}{member}"))];
            }
            return if text[ip..close].contains('\n') {
                vec![Edit::new(Span::empty(ip), format!("{}{inner}{member}{comma}", self.nl))]
            } else {
                vec![Edit::new(
                    Span::new(ip, close),
                    format!("{}{inner}{member}{comma}{}{base}", self.nl, self.nl),
                )]
            };
        };
        let after = scan_after(text, end, close);
        if !multiline {
            let member = new("", false);
            return match after.comma {
                Some(c) => vec![Edit::new(Span::empty(c + 1), format!(" {member},"))],
                None => vec![Edit::new(Span::empty(end), format!(", {member}"))],
            };
        }
        let indent = if self.starts_line(last_start) {
            self.indent_of_line(last_start).to_string()
        } else {
            format!("{}{}", self.indent_of_line(open), self.unit)
        };
        let member = new(&indent, true);
        let nl = self.nl;
        match (after.comma, after.line_end) {
            // `"a": 1, // note⏎` → the new member on the next line, with its own trailing comma.
            (Some(c), Some(eol)) if c < eol => vec![Edit::new(Span::empty(eol), format!("{nl}{indent}{member},"))],
            (Some(c), None) => vec![Edit::new(Span::empty(c + 1), format!("{nl}{indent}{member},"))],
            // A comma on a later line than the value: keep it as the new member's trailing comma.
            (Some(_), Some(_)) => vec![Edit::new(Span::empty(end), format!(",{nl}{indent}{member}"))],
            // `"a": 1 // note⏎` → a comma after the value, the member after the comment.
            (None, Some(eol)) => vec![
                Edit::new(Span::empty(end), ","),
                Edit::new(Span::empty(eol), format!("{nl}{indent}{member}")),
            ],
            (None, None) => vec![Edit::new(Span::empty(end), format!(",{nl}{indent}{member}"))],
        }
    }
}

/// What follows the last member of a collection before its closing bracket at `close`.
struct After {
    /// The offset of a trailing comma.
    comma: Option<usize>,
    /// The offset of the first line break outside a comment (of the `\r` of a CRLF).
    line_end: Option<usize>,
}

fn scan_after(text: &str, from: usize, close: usize) -> After {
    let b = text.as_bytes();
    let mut out = After {
        comma: None,
        line_end: None,
    };
    let mut i = from;
    while i < close {
        match b[i] {
            b',' => {
                out.comma.get_or_insert(i);
                i += 1;
            }
            b'\r' | b'\n' => {
                out.line_end.get_or_insert(i);
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < close && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < close && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    out
}

fn key(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_default()
}

/// A value on one line, with a space after each comma and colon.
fn inline(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(items) => format!("[{}]", items.iter().map(inline).collect::<Vec<_>>().join(", ")),
        serde_json::Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", key(k), inline(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want(true_is_object: bool) -> Want<'static> {
        Want {
            parent: "lsp",
            name: "x",
            value: J::obj(vec![("command", J::Val(serde_json::json!(["a", "b"])))]),
            place: Place::Member,
            true_is_object,
            false_refusal: Some("turns it off"),
            note_if_added: None,
        }
    }

    fn merged(text: &str) -> String {
        let (out, _) = merge(text, &want(true)).unwrap();
        assert!(jsonc::parse(&out).errors.is_empty(), "{out}");
        out
    }

    #[test]
    fn layouts() {
        assert_eq!(
            merged("{}"),
            "{\n  \"lsp\": {\n    \"x\": {\n      \"command\": [\"a\", \"b\"]\n    }\n  }\n}"
        );
        assert_eq!(
            merged("{\"a\": 1}"),
            "{\"a\": 1, \"lsp\": {\"x\": {\"command\": [\"a\", \"b\"]}}}"
        );
        assert_eq!(
            merged("{\n\t\"a\": 1, // n\n}\n"),
            "{\n\t\"a\": 1, // n\n\t\"lsp\": {\n\t\t\"x\": {\n\t\t\t\"command\": [\"a\", \"b\"],\n\t\t},\n\t},\n}\n"
        );
        assert_eq!(
            merged("{\n  \"a\": 1 /* n */\n}"),
            "{\n  \"a\": 1, /* n */\n  \"lsp\": {\n    \"x\": {\n      \"command\": [\"a\", \"b\"]\n    }\n  }\n}"
        );
        assert_eq!(
            merged("{\n  \"lsp\": {\n    // none yet\n  }\n}"),
            "{\n  \"lsp\": {\n    // none yet\n    \"x\": {\n      \"command\": [\"a\", \"b\"]\n    }\n  }\n}"
        );
        assert_eq!(
            merged("{\"lsp\": true}"),
            "{\"lsp\": {\"x\": {\"command\": [\"a\", \"b\"]}}}"
        );
        assert_eq!(
            merged("{\"lsp\": {\"x\": 1}}"),
            "{\"lsp\": {\"x\": {\"command\": [\"a\", \"b\"]}}}"
        );
    }

    #[test]
    fn comments_duplicates_and_no_change() {
        // A comment on the line after the last member stays after the new one; so does a block
        // comment that spans lines after the value.
        assert_eq!(
            merged("{\n  \"a\": 1\n  // end\n}"),
            "{\n  \"a\": 1,\n  \"lsp\": {\n    \"x\": {\n      \"command\": [\"a\", \"b\"]\n    }\n  }\n  // end\n}"
        );
        assert_eq!(
            merged("{\n  \"a\": 1 /* one\n  two */\n}"),
            "{\n  \"a\": 1, /* one\n  two */\n  \"lsp\": {\n    \"x\": {\n      \"command\": [\"a\", \"b\"]\n    }\n  }\n}"
        );
        // Duplicate keys: the last one is the one opencode reads, and the one changed.
        assert_eq!(
            merged("{\"lsp\": {\"x\": 1}, \"lsp\": {}}"),
            "{\"lsp\": {\"x\": 1}, \"lsp\": {\"x\": {\"command\": [\"a\", \"b\"]}}}"
        );
        assert_eq!(
            merged("{\"lsp\": { /* c */ }}"),
            "{\"lsp\": { /* c */ \"x\": {\"command\": [\"a\", \"b\"]}}}"
        );
        // Already there: the same text back.
        let done = "{\"lsp\": {\"x\": {\"command\": [\"a\", \"b\"]}}}";
        assert_eq!(merge(done, &want(true)).unwrap(), (done.to_string(), Change::Unchanged));
    }

    #[test]
    fn refusals() {
        assert_eq!(
            merge("{\"lsp\": false}", &want(true)).unwrap_err(),
            "1:2: `\"lsp\": false` turns it off"
        );
        assert!(
            merge("{\"lsp\": true}", &want(false))
                .unwrap_err()
                .contains("is `true`")
        );
        assert_eq!(
            merge("{\n  \"a\" 1\n}", &want(true)).unwrap_err(),
            "2:6: expected `:` after \"a\""
        );
        assert!(merge("[]", &want(true)).unwrap_err().contains("an array"));
    }

    fn hook_want() -> Want<'static> {
        Want {
            parent: "hooks",
            name: "Post",
            value: J::obj(vec![("command", J::Val(serde_json::json!("x")))]),
            place: Place::Append {
                ours: |v| v["command"] == "x",
            },
            true_is_object: false,
            false_refusal: None,
            note_if_added: None,
        }
    }

    fn appended(text: &str) -> String {
        let (out, change) = merge(text, &hook_want()).unwrap();
        assert!(jsonc::parse(&out).errors.is_empty(), "{out}");
        assert_ne!(change, Change::Unchanged, "{text}");
        // Once there, it stays one.
        assert_eq!(merge(&out, &hook_want()).unwrap(), (out.clone(), Change::Unchanged));
        out
    }

    #[test]
    fn append_to_an_array() {
        assert_eq!(
            appended("{}"),
            "{\n  \"hooks\": {\n    \"Post\": [\n      {\n        \"command\": \"x\"\n      }\n    ]\n  }\n}"
        );
        assert_eq!(
            appended("{\n  \"hooks\": {\n    \"Pre\": []\n  }\n}"),
            "{\n  \"hooks\": {\n    \"Pre\": [],\n    \"Post\": [\n      {\n        \"command\": \"x\"\n      }\n    ]\n  }\n}"
        );
        // The other entries stay, before it.
        assert_eq!(
            appended("{\n  \"hooks\": {\n    \"Post\": [\n      {\"command\": \"lint\"} // mine\n    ]\n  }\n}"),
            "{\n  \"hooks\": {\n    \"Post\": [\n      {\"command\": \"lint\"}, // mine\n      {\n        \"command\": \"x\"\n      }\n    ]\n  }\n}"
        );
        assert_eq!(
            appended("{\"hooks\": {\"Post\": [{\"command\": \"lint\"}]}}"),
            "{\"hooks\": {\"Post\": [{\"command\": \"lint\"}, {\"command\": \"x\"}]}}"
        );
        assert_eq!(
            appended("{\n  \"hooks\": {\n    \"Post\": []\n  }\n}"),
            "{\n  \"hooks\": {\n    \"Post\": [\n      {\n        \"command\": \"x\"\n      }\n    ]\n  }\n}"
        );
        assert!(
            merge("{\"hooks\": {\"Post\": {}}}", &hook_want())
                .unwrap_err()
                .contains("must be an array")
        );
        assert!(
            merge("{\"hooks\": []}", &hook_want())
                .unwrap_err()
                .contains("must be an object")
        );
    }
}
