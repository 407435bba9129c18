//! A `GEMINI.md`: instructions Gemini CLI gives the model, from the user's `~/.gemini/` and from
//! every folder between the project's root (the nearest folder with a `.git`) and where it
//! starts (0.61.0 reads none of the folders below at start: the judge's
//! `context:nested-imports-and-sub-folders`). `context.fileName` in the settings replaces the
//! name (`AGENTS.md` is read only when it names it).
//!
//! `@path` imports the file at `path` (relative to the importing file) in place: an `@` at the
//! start of the text or after a blank, then a path up to the next blank that starts with `.`,
//! `/` or a letter; not inside backticks (inline code or a fenced block). Gemini CLI 0.61.0
//! replaces an import it cannot read with `<!-- Import failed: path - ENOENT ... -->` in the
//! text the model gets (and logs "Failed to import"), and one outside the project (or a URL)
//! with `<!-- Import failed: path - Path traversal attempt -->`.

use crate::analysis::text::Span;

/// The name Gemini CLI reads unless `context.fileName` names others.
pub const NAME: &str = "GEMINI.md";

/// The imports of a context file: each path as written, and where (`@` included).
pub fn imports(text: &str) -> Vec<(String, Span)> {
    let code = code_regions(text);
    let b = text.as_bytes();
    let blank = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = text[i..].find('@').map(|k| i + k) {
        if at > 0 && !blank(b[at - 1]) {
            i = at + 1;
            continue;
        }
        let mut j = at + 1;
        while j < b.len() && !blank(b[j]) {
            j += 1;
        }
        let path = &text[at + 1..j];
        let first = path.as_bytes().first().copied();
        let starts_right = first.is_some_and(|c| c == b'.' || c == b'/' || c.is_ascii_alphabetic());
        if starts_right && !code.iter().any(|&(s, e)| at >= s && at < e) {
            out.push((path.to_string(), Span::new(at, j)));
        }
        i = j + 1;
        if i >= b.len() {
            break;
        }
    }
    out
}

/// The regions between matching runs of backticks (`` `x` ``, a fenced block), as
/// ``/(`+)([\s\S]*?)\1/g`` finds them: at each backtick, the longest run that recurs later
/// (as a substring: it may be part of a longer run), else one backtick shorter, down to one.
fn code_regions(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let start = i;
        let run = b[start..].iter().take_while(|&&c| c == b'`').count();
        let found = (1..=run).rev().find_map(|n| {
            let fence = &text[start..start + n];
            text[start + n..].find(fence).map(|k| start + n + k + n)
        });
        match found {
            Some(end) => {
                out.push((start, end));
                i = end;
            }
            None => i = start + 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        imports(text).into_iter().map(|(p, _)| p).collect()
    }

    #[test]
    fn imports_are_found_as_gemini_cli_finds_them() {
        assert_eq!(
            paths("@docs/a.md\nSee @./b.md and @/abs/c.md."),
            vec!["docs/a.md", "./b.md", "/abs/c.md."]
        );
        // Not after a letter (an e-mail), not `@` alone, not a path starting with a digit or `-`.
        assert!(paths("mail me@example.com, @ alone, @1.md, @-x").is_empty());
        // A mention is an import too.
        assert_eq!(paths("Ask @alice first."), vec!["alice"]);
        // Not in code.
        assert!(paths("`@inline.md` and\n```\n@fenced.md\n```\n").is_empty());
        assert_eq!(paths("`code` then @after.md"), vec!["after.md"]);
        let text = "x @p.md y";
        let (_, span) = &imports(text)[0];
        assert_eq!(span.text(text), "@p.md");
    }

    #[test]
    fn an_unclosed_backtick_hides_nothing() {
        assert_eq!(paths("a ` b @c.md"), vec!["c.md"]);
        assert_eq!(paths("``a` @x.md ``"), Vec::<String>::new());
    }
}
