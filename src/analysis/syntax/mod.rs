//! One spanned tree for YAML frontmatter and JSONC config.
//!
//! Parsing never fails: each parser returns a [`Parsed`] with the tree it could build (possibly
//! partial) and the syntax errors it met. Every key and every value carries the byte span of its
//! source text in the whole file, so a diagnostic can sit exactly on it.

pub mod frontmatter;
pub mod jsonc;
pub mod strict;
pub mod toml;
pub mod yaml;

use super::text::Span;
use std::sync::Arc;

/// Nesting deeper than this is not built into the tree (the rest is reported as a syntax error).
/// Agent files nest four or five levels; the limit only exists to bound time, memory and stack.
pub const MAX_DEPTH: usize = 64;

/// How a scalar was written; needed for precise messages and for minimal edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A YAML plain scalar, or a JSON number/keyword.
    Plain,
    /// A YAML single- or double-quoted scalar, or a JSON string.
    Quoted,
    /// A YAML literal (`|`) or folded (`>`) block scalar.
    Block,
    /// A collection.
    Collection,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Map),
    /// A YAML timestamp, as the JavaScript `Date` it becomes, in `toISOString()` form
    /// (`2024-01-02` is `2024-01-02T00:00:00.000Z`): what opencode receives and prints.
    Timestamp(String),
    /// Something that is there but could not be built: an alias to an unknown anchor, a
    /// collection cut off by a syntax error or the depth limit, a YAML timestamp. Checks treat
    /// it as unknown and stay silent about it.
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub span: Span,
    pub style: Style,
    pub value: Value,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    /// Entries in source order; duplicates are kept (see [`Map::get`]). Shared: cloning a map
    /// (an agent declaration keeps its settings, a YAML alias repeats its anchor) costs a
    /// reference count, not a copy of the subtree.
    pub entries: Arc<Vec<Entry>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: Key,
    pub value: Node,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    pub name: String,
    /// The key's source text, quotes included.
    pub span: Span,
}

/// A syntax error met while parsing, at the exact place the parser stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// A duplicate key: the key that repeats and the first occurrence.
#[derive(Clone, Debug, PartialEq)]
pub struct DuplicateKey {
    pub name: String,
    pub first: Span,
    pub duplicate: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// The root value; `None` when nothing at all could be read (an empty document is `Null`).
    pub root: Option<Node>,
    pub errors: Vec<SyntaxError>,
    pub duplicates: Vec<DuplicateKey>,
}

impl Node {
    pub fn new(span: Span, style: Style, value: Value) -> Node {
        Node { span, style, value }
    }

    pub fn as_map(&self) -> Option<&Map> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self.value {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self.value, Value::Unknown)
    }

    /// A short description of the value's type for messages: "a string", "null", ...
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) | Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "an object",
            Value::Timestamp(_) => "a date",
            Value::Unknown => "an unreadable value",
        }
    }

    /// The value as JSON, the way opencode holds it after parsing: for a map the last of
    /// duplicate keys wins; non-finite numbers become `null` (as `JSON.stringify` writes them);
    /// an unreadable value is `null`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null | Value::Unknown => J::Null,
            Value::Timestamp(iso) => J::String(iso.clone()),
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Value::Str(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(m) => J::Object(
                m.entries
                    .iter()
                    .map(|e| (e.key.name.clone(), e.value.to_json()))
                    .collect(),
            ),
        }
    }

    /// The value written the way opencode's messages print it, e.g. `"5"`, `["read","edit"]`.
    pub fn display(&self) -> String {
        fn go(node: &Node, out: &mut String, budget: &mut usize) {
            if *budget == 0 {
                out.push('…');
                return;
            }
            *budget -= 1;
            match &node.value {
                Value::Null => out.push_str("null"),
                Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Value::Int(i) => out.push_str(&i.to_string()),
                Value::Float(f) => out.push_str(&f.to_string()),
                Value::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
                Value::Seq(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        go(item, out, budget);
                    }
                    out.push(']');
                }
                Value::Map(map) => {
                    out.push('{');
                    for (i, e) in map.entries.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        out.push_str(&serde_json::to_string(&e.key.name).unwrap_or_default());
                        out.push(':');
                        go(&e.value, out, budget);
                    }
                    out.push('}');
                }
                Value::Timestamp(iso) => out.push_str(iso),
                Value::Unknown => out.push('…'),
            }
        }
        let mut out = String::new();
        let mut budget = 12;
        go(self, &mut out, &mut budget);
        if out.chars().count() > 80 {
            let cut: String = out.chars().take(77).collect();
            return cut + "…";
        }
        out
    }
}

impl Map {
    pub fn new(entries: Vec<Entry>) -> Map {
        Map {
            entries: Arc::new(entries),
        }
    }

    /// The entries to change in place (copied first when shared).
    pub fn entries_mut(&mut self) -> &mut Vec<Entry> {
        Arc::make_mut(&mut self.entries)
    }

    /// The entry opencode uses for `name`: the last one (YAML duplicates are a syntax error
    /// anyway; for JSON, the last value wins as in `JSON.parse`).
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.key.name == name)
    }

    pub fn value(&self, name: &str) -> Option<&Node> {
        self.get(name).map(|e| &e.value)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// The entries as a JavaScript object holds them after parsing: a key set twice keeps the
    /// position of its first occurrence and the value of its last.
    pub fn js_entries(&self) -> Vec<(&Key, &Node)> {
        if self.entries.len() < 2 {
            return self.entries.iter().map(|e| (&e.key, &e.value)).collect();
        }
        // A small map: look back for a repeated key instead of building a table.
        if self.entries.len() <= 16 {
            let mut out: Vec<(&Key, &Node)> = Vec::with_capacity(self.entries.len());
            for e in self.entries.iter() {
                match out.iter().position(|(k, _)| k.name == e.key.name) {
                    Some(i) => out[i].1 = &e.value,
                    None => out.push((&e.key, &e.value)),
                }
            }
            return out;
        }
        let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        let mut out: Vec<(&Key, &Node)> = Vec::with_capacity(self.entries.len());
        for e in self.entries.iter() {
            match at.get(e.key.name.as_str()) {
                Some(&i) => out[i].1 = &e.value,
                None => {
                    at.insert(&e.key.name, out.len());
                    out.push((&e.key, &e.value));
                }
            }
        }
        out
    }
}

/// One step of the path from the root to a position: the entry whose key or value holds it.
#[derive(Clone, Copy, Debug)]
pub struct Step<'a> {
    pub key: &'a Key,
    pub value: &'a Node,
    /// The position is on the key itself (not in the value).
    pub on_key: bool,
}

/// The chain of map entries that contain byte `offset`, outermost first (what is under the
/// cursor, for hover and completion).
pub fn path_at(root: &Node, offset: usize) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    let mut node = root;
    while let Value::Map(map) = &node.value {
        let hit = map
            .entries
            .iter()
            .rev()
            .find(|e| e.key.span.contains(offset) || (e.value.span.contains(offset) && !e.value.span.is_empty()));
        let Some(e) = hit else { break };
        let on_key = e.key.span.contains(offset);
        out.push(Step {
            key: &e.key,
            value: &e.value,
            on_key,
        });
        if on_key {
            break;
        }
        node = &e.value;
    }
    out
}

/// The depth of a tree. Parsers cut nesting at [`MAX_DEPTH`], so the recursive walks (and the
/// default drop) over a tree are bounded; tests use this to check the bound.
pub fn depth(node: &Node) -> usize {
    match &node.value {
        Value::Seq(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Map(m) => 1 + m.entries.iter().map(|e| depth(&e.value)).max().unwrap_or(0),
        _ => 1,
    }
}

/// Where the characters of string `value` start in the source, when `node` writes them as they
/// are (no escape): after its opening quote, or at its start for a plain YAML scalar.
pub fn content_start(node: &Node, text: &str, value: &str) -> Option<usize> {
    let written = node.span.text(text);
    let start = node.span.start as usize;
    if written == value {
        return Some(start);
    }
    let quoted = written.len() == value.len() + 2
        && matches!(written.as_bytes()[0], b'"' | b'\'')
        && written.as_bytes()[written.len() - 1] == written.as_bytes()[0];
    (quoted && &written[1..written.len() - 1] == value).then_some(start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a string's characters start: after its quote, at the start of a plain scalar, and
    /// nowhere when the source holds an escape or other quotes.
    #[test]
    fn content_start_is_found_only_for_a_string_written_as_it_reads() {
        let at = |text: &str, value: &str| {
            let root = jsonc::parse(text).root.unwrap();
            let node = &root.as_map().unwrap().entries[0].value;
            content_start(node, text, value)
        };
        assert_eq!(at(r#"{"a": "xy"}"#, "xy"), Some(7));
        assert_eq!(at(r#"{"a": "x\"y"}"#, "x\"y"), None);
        let plain = yaml::parse("a: xy z\n", 0);
        let node = &plain.root.as_ref().unwrap().as_map().unwrap().entries[0].value;
        assert_eq!(content_start(node, "a: xy z\n", "xy z"), Some(3));
        let single = yaml::parse("a: 'xy'\n", 0);
        let node = &single.root.as_ref().unwrap().as_map().unwrap().entries[0].value;
        assert_eq!(content_start(node, "a: 'xy'\n", "xy"), Some(4));
        // Two characters more, but not a pair of quotes around it; quotes that differ.
        let node = Node {
            span: Span::new(0, 4),
            style: Style::Quoted,
            value: Value::Str("xy".into()),
        };
        assert_eq!(content_start(&node, "(xy)", "xy"), None);
        assert_eq!(content_start(&node, "'xy\"", "xy"), None);
        assert_eq!(content_start(&node, "\"xy'", "xy"), None);
        assert_eq!(content_start(&node, "\"ab\"", "xy"), None);
        assert_eq!(content_start(&node, "xyzw", "xy"), None);
    }
}
