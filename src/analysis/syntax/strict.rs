//! What makes a JSON file invalid as strict JSON (`JSON.parse`, which Claude Code's plugin files and
//! opencode's themes are read with) although agent-lsp's recovering parser reads it: comments and
//! trailing commas.

use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::text::Span;

/// A strict-JSON finding of [`strict_json`] with its fix: a trailing comma is removed (safe: the
/// runtime reads nothing of the file until it is).
pub(crate) fn strict_json_fix(d: Diagnostic, what: &str) -> Diagnostic {
    if what == TRAILING_COMMA {
        let span = d.span;
        d.with_fix(
            "Remove the trailing comma",
            vec![crate::analysis::diagnostic::Edit::new(span, "")],
            true,
        )
    } else {
        d
    }
}

const TRAILING_COMMA: &str = "a trailing comma";

/// What makes the text invalid as strict JSON although the recovering parser reads it: comments
/// and trailing commas, with what each is.
pub(crate) fn strict_json(text: &str) -> Vec<(Span, &'static str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // The last comma outside strings and comments, while only blanks and comments follow it.
    let mut comma: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            b'"' => {
                comma = None;
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
                out.push((Span::new(i, end), "a comment"));
                i = end;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                out.push((Span::new(i, end), "a comment"));
                i = end;
                continue;
            }
            b',' => comma = Some(i),
            b'}' | b']' => {
                if let Some(c) = comma.take() {
                    out.push((Span::new(c, c + 1), TRAILING_COMMA));
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => comma = None,
        }
        i += 1;
    }
    out
}
