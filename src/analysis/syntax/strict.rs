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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each finding as (where it starts, its text, what it is).
    fn found(text: &str) -> Vec<(usize, &str, &'static str)> {
        strict_json(text)
            .into_iter()
            .map(|(s, what)| (s.start as usize, &text[s.start as usize..s.end as usize], what))
            .collect()
    }

    #[test]
    fn comments_and_trailing_commas_with_their_spans() {
        let t = "{\n  \"a\": 1, // one\n  \"b\": /* two */ [1, 2,],\n  \"c\": \"x // y /* z */\",\n}\n";
        let last = t.rfind(',').unwrap();
        assert_eq!(
            found(t),
            vec![
                (t.find("// one").unwrap(), "// one", "a comment"),
                (t.find("/* two */").unwrap(), "/* two */", "a comment"),
                (t.find("2,]").unwrap() + 1, ",", TRAILING_COMMA),
                (last, ",", TRAILING_COMMA),
            ]
        );
    }

    #[test]
    fn inside_strings_and_after_a_lone_slash_nothing() {
        // An escaped quote does not end the string: what follows it is still the string.
        assert_eq!(found("{\"d\": \"6\\\" // not a comment, /* nor this */\"}"), vec![]);
        // A slash that starts no comment is no comment (the parser reports it).
        assert_eq!(found("{\"a\": 4 / 2}"), vec![]);
        // An unclosed block comment runs to the end.
        assert_eq!(found("{} /* open"), vec![(3, "/* open", "a comment")]);
    }
}
