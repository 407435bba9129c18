//! `opencode.json(c)`: the JSONC parser and the config analysis, without fixes (cheap: tens of
//! thousands of executions per second).
//!
//! The input, read lossily as UTF-8, is a config file. A crash is any panic, or:
//!
//! - `jsonc::parse`: every node, key, syntax error and duplicate-key span lies within the text
//!   and on char boundaries; a child lies within its parent, a key before its value, entries and
//!   items in source order without overlap; every duplicate names two keys of the tree; the
//!   tree is no deeper than `MAX_DEPTH` (+1 for the cut-off node);
//! - on a text without syntax errors, every token reads back from its span: a string's span is
//!   its JSON literal, a number's span parses to its value, `true`/`false`/`null` are spelled so;
//! - where `serde_json` accepts the text (strict JSON, nesting within `MAX_DEPTH`), the parser
//!   reports no syntax error and builds the same value (numbers within a rounding error);
//! - the config analysis: the span invariants of the `analyze` target (diagnostics, related
//!   locations, fix edits, agent declarations and references within the text and on char
//!   boundaries; a diagnostic's start survives a `LineIndex` round trip in UTF-8/16/32 with the
//!   documented CRLF and BOM moves), and its tree is `jsonc::parse`'s.
#![no_main]

mod common;

use agent_lsp::analysis::Span;
use agent_lsp::analysis::analyze;
use agent_lsp::analysis::opencode::FileKind;
use agent_lsp::analysis::syntax::{MAX_DEPTH, Node, Parsed, Style, Value, depth, jsonc};
use common::{check_analysis, check_span};
use libfuzzer_sys::fuzz_target;

/// A JSON string literal decoded by `serde_json`; `None` when it holds a surrogate escape
/// (`\ud800` to `\udfff`): a lone one, which `serde_json` rejects and JavaScript's `JSON.parse`
/// (opencode) accepts, or a pair.
fn decode(literal: &str) -> Option<String> {
    match serde_json::from_str::<String>(literal) {
        Ok(s) => Some(s),
        Err(_) if has_surrogate_escape(literal) => None,
        Err(e) => panic!("{literal:?} is not a JSON string literal: {e}"),
    }
}

fn has_surrogate_escape(literal: &str) -> bool {
    let b = literal.as_bytes();
    (0..b.len().saturating_sub(3)).any(|i| {
        b[i] == b'\\'
            && b[i + 1] == b'u'
            && b[i + 2].eq_ignore_ascii_case(&b'd')
            && matches!(b[i + 3].to_ascii_lowercase(), b'8'..=b'9' | b'a'..=b'f')
    })
}

fn within(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Structural invariants of one node and its children; `clean` when the text had no syntax
/// error (tokens then read back from their spans). Returns the keys seen.
fn check_node(text: &str, node: &Node, clean: bool, keys: &mut Vec<(String, Span)>) {
    check_span(text, node.span, "node");
    let src = node.span.text(text);
    match &node.value {
        Value::Map(m) => {
            let mut last = node.span.start;
            for e in m.entries.iter() {
                check_span(text, e.key.span, "key");
                assert!(
                    within(e.key.span, node.span),
                    "key {:?} outside its object {:?}",
                    e.key,
                    node.span
                );
                assert!(
                    within(e.value.span, node.span),
                    "value of {:?} outside its object",
                    e.key
                );
                assert!(e.key.span.start >= last, "entries out of order at {:?}", e.key);
                assert!(e.key.span.end <= e.value.span.start, "key {:?} after its value", e.key);
                last = e.value.span.end;
                if clean && let Some(name) = decode(e.key.span.text(text)) {
                    assert_eq!(name, e.key.name, "key decoded differently");
                }
                keys.push((e.key.name.clone(), e.key.span));
                check_node(text, &e.value, clean, keys);
            }
        }
        Value::Seq(items) => {
            let mut last = node.span.start;
            for item in items {
                assert!(
                    within(item.span, node.span),
                    "item {:?} outside its array {:?}",
                    item.span,
                    node.span
                );
                assert!(item.span.start >= last, "items out of order at {:?}", item.span);
                last = item.span.end;
                check_node(text, item, clean, keys);
            }
        }
        Value::Str(s) if clean => {
            assert_eq!(node.style, Style::Quoted);
            if let Some(lit) = decode(src) {
                assert_eq!(&lit, s, "string {src:?} decoded differently");
            }
        }
        Value::Int(i) if clean => assert_eq!(src.parse::<i64>().ok(), Some(*i), "integer {src:?}"),
        Value::Float(f) if clean => {
            let parsed: f64 = src.parse().unwrap_or_else(|_| panic!("float {src:?} does not parse"));
            assert!(
                parsed == *f || (parsed.is_nan() && f.is_nan()),
                "float {src:?} read as {f}"
            );
        }
        Value::Bool(b) if clean => assert_eq!(src, if *b { "true" } else { "false" }),
        Value::Null if clean => assert_eq!(src, "null"),
        _ => {}
    }
}

fn check_parsed(text: &str, parsed: &Parsed) {
    for e in &parsed.errors {
        check_span(text, e.span, &format!("syntax error {:?}", e.message));
    }
    let clean = parsed.errors.is_empty();
    let mut keys = Vec::new();
    if let Some(root) = &parsed.root {
        assert!(
            depth(root) <= MAX_DEPTH + 1,
            "tree deeper than {MAX_DEPTH}: {}",
            depth(root)
        );
        check_node(text, root, clean, &mut keys);
    }
    for d in &parsed.duplicates {
        check_span(text, d.first, "duplicate (first)");
        check_span(text, d.duplicate, "duplicate");
        assert!(d.first.start < d.duplicate.start, "duplicate before its first: {d:?}");
        for span in [d.first, d.duplicate] {
            assert!(
                keys.iter().any(|(name, s)| *s == span && *name == d.name),
                "duplicate {d:?} names no key of the tree"
            );
        }
    }
}

/// Nesting depth of a JSON value (a scalar is 0, `[]` is 1).
fn json_depth(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => 1 + a.iter().map(json_depth).max().unwrap_or(0),
        serde_json::Value::Object(o) => 1 + o.values().map(json_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Equal JSON values, numbers compared as `f64` within a rounding error (`serde_json`'s default
/// float parsing is not always correctly rounded; Rust's `str::parse` is).
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs())
        }
        (J::Array(x), J::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b)),
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;

    let parsed = jsonc::parse(text);
    check_parsed(text, &parsed);

    if let Ok(strict) = serde_json::from_str::<serde_json::Value>(text)
        && json_depth(&strict) <= MAX_DEPTH
    {
        assert!(
            parsed.errors.is_empty(),
            "serde_json accepts the text, the parser reports {:?}",
            parsed.errors
        );
        let ours = parsed.root.as_ref().map(Node::to_json);
        assert!(
            ours.as_ref().is_some_and(|v| same_json(v, &strict)),
            "serde_json reads {strict}, the parser {ours:?}"
        );
    }

    let analysis = analyze(&FileKind::Config.into(), text);
    check_analysis(text, &analysis);
    // The same text as Zuno's configuration.
    let zuno = analyze(&agent_lsp::analysis::zuno::FileKind::Config.into(), text);
    check_analysis(text, &zuno);
    assert!(zuno.parsed == parsed, "Zuno parsed the configuration differently");
    assert!(analysis.parsed == parsed, "the analysis parsed differently");
    // The same text as opencode's `tui.json` (an empty file is no settings, not an error).
    let tui = analyze(&FileKind::Tui.into(), text);
    check_analysis(text, &tui);
    assert!(
        tui.parsed == parsed || text.is_empty(),
        "tui.json parsed the text differently"
    );
});
