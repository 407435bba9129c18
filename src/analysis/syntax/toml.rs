//! TOML into the one spanned tree (see [`super`]): tables and inline tables become maps,
//! arrays and arrays of tables become sequences, and every key and value keeps the byte span
//! of its text. Built on `toml_edit`, which parses whole documents and keeps spans.
//!
//! A TOML parser stops at the first error. So that a half-typed file still gets findings for
//! the rest, the line the error is on is blanked (spaces, so that every other byte keeps its
//! place) and the text is parsed again, a bounded number of times; the errors are all
//! reported, the tree is the one the last parse built.

use super::{Entry, Key, Map, Node, Parsed, Style, SyntaxError, Value};
use crate::analysis::text::Span;
use toml_edit::{Item, Table, TableLike};

/// How many broken lines are blanked before giving up on a tree.
const MAX_RETRIES: usize = 16;

/// Parse a TOML document.
pub fn parse(text: &str) -> Parsed {
    let mut errors = Vec::new();
    let mut work: Option<String> = None;
    for _ in 0..=MAX_RETRIES {
        let src = work.as_deref().unwrap_or(text);
        match toml_edit::Document::parse(src) {
            Ok(doc) => {
                let mut root = table_node(doc.as_table(), Span::new(0, text.len()), 0);
                // The document is the whole text.
                root.span = Span::new(0, text.len());
                return Parsed {
                    root: Some(root),
                    errors,
                    duplicates: Vec::new(),
                };
            }
            Err(e) => {
                let (start, end) = e.span().map_or((0, 0), |r| (r.start, r.end.max(r.start)));
                let span = Span::new(start.min(src.len()), end.min(src.len()));
                errors.push(SyntaxError {
                    span,
                    message: message(&e),
                });
                let (from, to) = line_around(src, span.start as usize);
                let blank: String = src[from..to].chars().map(|c| " ".repeat(c.len_utf8())).collect();
                let mut next = src.to_string();
                next.replace_range(from..to, &blank);
                if next == src {
                    break;
                }
                work = Some(next);
            }
        }
    }
    Parsed {
        root: None,
        errors,
        duplicates: Vec::new(),
    }
}

/// The first line of a `toml_edit` error, without the snippet it draws.
fn message(e: &toml_edit::TomlError) -> String {
    let m = e.message().trim();
    m.lines().next().unwrap_or(m).trim().to_string()
}

/// The line holding `offset`, without its line break: `(start, end)`. When that line is blank
/// already (an error at a line's end, an unclosed table), the previous non-blank line.
fn line_around(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    loop {
        let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
        let line = text[start..end].trim_end_matches('\r');
        if !line.trim().is_empty() || start == 0 {
            return (start, start + line.len());
        }
        offset = start - 1;
    }
}

fn span_of(r: Option<std::ops::Range<usize>>, fallback: Span) -> Span {
    r.map_or(fallback, |r| Span::new(r.start, r.end.max(r.start)))
}

/// A `[table]` (or one that dotted keys and deeper headers make): its span runs from its header
/// (or key) to the end of the last thing in it, so that what it holds lies inside it.
fn table_node(table: &Table, fallback: Span, depth: usize) -> Node {
    let span = span_of(table.span(), fallback);
    let mut node = map_node(table, span, depth);
    if let Value::Map(m) = &node.value {
        let (start, end) = m.entries.iter().fold((span.start, span.end), |(s, e), entry| {
            (
                s.min(entry.key.span.start).min(entry.value.span.start),
                e.max(entry.key.span.end).max(entry.value.span.end),
            )
        });
        node.span = Span { start, end };
    }
    node
}

fn map_node(table: &dyn TableLike, span: Span, depth: usize) -> Node {
    if depth >= super::MAX_DEPTH {
        return Node::new(span, Style::Collection, Value::Unknown);
    }
    let mut entries = Vec::new();
    for (name, item) in table.iter() {
        let key_span = table
            .get_key_value(name)
            .and_then(|(k, _)| k.span())
            .map_or(span, |r| Span::new(r.start, r.end));
        let value = item_node(item, key_span, depth + 1);
        entries.push(Entry {
            key: Key {
                name: name.to_string(),
                span: key_span,
            },
            value,
        });
    }
    Node::new(span, Style::Collection, Value::Map(Map::new(entries)))
}

fn item_node(item: &Item, key_span: Span, depth: usize) -> Node {
    match item {
        Item::None => Node::new(key_span, Style::Plain, Value::Unknown),
        Item::Value(v) => value_node(v, key_span, depth),
        // A `[table]`: its span is its header (or, for a table only dotted keys or deeper
        // headers make, its key).
        Item::Table(t) => table_node(t, key_span, depth),
        Item::ArrayOfTables(a) => {
            let span = span_of(a.span(), key_span);
            if depth >= super::MAX_DEPTH {
                return Node::new(span, Style::Collection, Value::Unknown);
            }
            let items = a.iter().map(|t| table_node(t, key_span, depth + 1)).collect();
            Node::new(span, Style::Collection, Value::Seq(items))
        }
    }
}

fn value_node(v: &toml_edit::Value, key_span: Span, depth: usize) -> Node {
    use toml_edit::Value as V;
    let span = span_of(v.span(), key_span);
    match v {
        V::String(s) => Node::new(span, Style::Quoted, Value::Str(s.value().clone())),
        V::Integer(i) => Node::new(span, Style::Plain, Value::Int(*i.value())),
        V::Float(f) => Node::new(span, Style::Plain, Value::Float(*f.value())),
        V::Boolean(b) => Node::new(span, Style::Plain, Value::Bool(*b.value())),
        V::Datetime(d) => Node::new(span, Style::Plain, Value::Timestamp(d.value().to_string())),
        V::Array(a) => {
            if depth >= super::MAX_DEPTH {
                return Node::new(span, Style::Collection, Value::Unknown);
            }
            let items = a.iter().map(|x| value_node(x, span, depth + 1)).collect();
            Node::new(span, Style::Collection, Value::Seq(items))
        }
        V::InlineTable(t) => map_node(t, span, depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str) -> Node {
        parse(text).root.expect("a tree")
    }

    fn at<'a>(n: &'a Node, path: &[&str]) -> &'a Node {
        path.iter()
            .fold(n, |n, k| n.as_map().and_then(|m| m.value(k)).expect(k))
    }

    fn key_text<'a>(text: &'a str, n: &Node, path: &[&str]) -> &'a str {
        let (last, init) = path.split_last().unwrap();
        let parent = at(n, init);
        parent.as_map().unwrap().get(last).unwrap().key.span.text(text)
    }

    #[test]
    fn values_and_keys_keep_their_spans() {
        let text = "model = \"o3\"\nmax = 5\nratio = 1.5\non = true\nlist = [\"a\", 2]\n\n[mcp_servers.docs]\ncommand = \"npx\"\nenv = { KEY = \"v\" }\n";
        let r = root(text);
        assert_eq!(at(&r, &["model"]).span.text(text), "\"o3\"");
        assert_eq!(at(&r, &["model"]).as_str(), Some("o3"));
        assert_eq!(at(&r, &["max"]).value, Value::Int(5));
        assert_eq!(at(&r, &["ratio"]).value, Value::Float(1.5));
        assert_eq!(at(&r, &["on"]).value, Value::Bool(true));
        let Value::Seq(items) = &at(&r, &["list"]).value else {
            panic!()
        };
        assert_eq!(items[1].span.text(text), "2");
        assert_eq!(key_text(text, &r, &["mcp_servers", "docs", "command"]), "command");
        assert_eq!(key_text(text, &r, &["mcp_servers", "docs"]), "docs");
        assert_eq!(key_text(text, &r, &["mcp_servers"]), "mcp_servers");
        assert_eq!(at(&r, &["mcp_servers", "docs", "env", "KEY"]).span.text(text), "\"v\"");
        assert_eq!(key_text(text, &r, &["mcp_servers", "docs", "env", "KEY"]), "KEY");
    }

    #[test]
    fn a_table_covers_what_it_holds() {
        let text = "top = 1\n[tui]\nanimations = true\ntheme = \"x\"\n\n[mcp_servers.a]\ncommand = \"x\"\n[mcp_servers.b]\nurl = \"u\"\n";
        let r = root(text);
        assert_eq!(
            at(&r, &["tui"]).span.text(text),
            "[tui]\nanimations = true\ntheme = \"x\""
        );
        let servers = at(&r, &["mcp_servers"]).span.text(text);
        assert!(
            servers.starts_with("[mcp_servers.a]") && servers.ends_with("url = \"u\""),
            "{servers}"
        );
        assert_eq!(r.span.text(text), text);
    }

    #[test]
    fn dotted_keys_and_arrays_of_tables_nest() {
        let text = "a.b.c = 1\n[[skills.config]]\npath = \"x\"\nenabled = false\n";
        let r = root(text);
        assert_eq!(at(&r, &["a", "b", "c"]).value, Value::Int(1));
        assert_eq!(key_text(text, &r, &["a", "b"]), "b");
        let Value::Seq(items) = &at(&r, &["skills", "config"]).value else {
            panic!()
        };
        assert_eq!(items.len(), 1);
        assert_eq!(at(&items[0], &["enabled"]).value, Value::Bool(false));
    }

    #[test]
    fn a_broken_line_is_reported_and_the_rest_is_read() {
        let text = "model = \"o3\"\napproval_policy = \nsandbox_mode = \"read-only\"\n";
        let p = parse(text);
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        assert_eq!(text[..p.errors[0].span.start as usize].lines().count(), 2);
        let r = p.root.unwrap();
        assert_eq!(at(&r, &["sandbox_mode"]).as_str(), Some("read-only"));
        assert!(r.as_map().unwrap().value("approval_policy").is_none());
        // A key without `=` is seen on the next line: the key's line is the one left out, not
        // the table header after it.
        let text = "[tui]\nanimations = false\nnotification_m\n[mcp_servers.x]\ncomand = \"npx\"\n";
        let p = parse(text);
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        let r = p.root.unwrap();
        assert!(at(&r, &["mcp_servers", "x"]).as_map().unwrap().contains("comand"));
        assert!(!at(&r, &["tui"]).as_map().unwrap().contains("comand"));
        // A line that is itself wrong from its first column is the one left out.
        let text = "model = \"o3\"\n= 5\nsandbox_mode = \"read-only\"\n";
        let p = parse(text);
        let r = p.root.unwrap();
        assert_eq!(at(&r, &["model"]).as_str(), Some("o3"));
        assert_eq!(at(&r, &["sandbox_mode"]).as_str(), Some("read-only"));
    }

    #[test]
    fn duplicates_are_syntax_errors_and_hostile_text_is_bounded() {
        let p = parse("a = 1\na = 2\n");
        assert_eq!(p.errors.len(), 1);
        assert!(p.errors[0].message.contains("duplicate"), "{}", p.errors[0].message);
        let deep = format!("a = {}1{}", "[".repeat(5000), "]".repeat(5000));
        let p = parse(&deep);
        assert!(!p.errors.is_empty());
        let garbage = "=\n".repeat(1000);
        let p = parse(&garbage);
        assert!(p.errors.len() <= MAX_RETRIES + 1);
        // CJK, emoji, CRLF: spans stay on character boundaries.
        let text = "# 日本 🎉\r\nname = \"名前 🎉\"\r\nbad = \r\n";
        let p = parse(text);
        let r = p.root.unwrap();
        assert_eq!(at(&r, &["name"]).span.text(text), "\"名前 🎉\"");
        assert_eq!(p.errors.len(), 1);
    }
}
