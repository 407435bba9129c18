//! Split a Markdown agent file into frontmatter and body, the way opencode's reader
//! (gray-matter) does.
//!
//! - The file (after an optional UTF-8 BOM) must start with `---`; a fourth `-` or a leading
//!   blank line means "no frontmatter", and the whole file is the prompt.
//! - The frontmatter ends at the first line that starts with `---` (`\n---`, so CRLF works too).
//! - With no closing line, gray-matter takes the *whole rest of the file* as YAML and the body
//!   is empty.

use crate::analysis::text::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frontmatter {
    /// The opening `---`.
    pub open: Span,
    /// The YAML text between the delimiter lines (starts right after the opening line).
    pub yaml: Span,
    /// The closing `---`, if there is one.
    pub close: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub frontmatter: Option<Frontmatter>,
    /// The prompt: everything after the closing line (the whole file without frontmatter).
    pub body: Span,
    /// A `---` line that would open a frontmatter but comes after blank lines, so opencode
    /// treats it as prompt text.
    pub misplaced_open: Option<Span>,
}

pub fn split(text: &str) -> Split {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[start..];
    if !rest.starts_with("---") || rest[3..].starts_with('-') {
        let misplaced_open = misplaced(text, start);
        return Split {
            frontmatter: None,
            body: Span::new(start, text.len()),
            misplaced_open,
        };
    }
    let open = Span::new(start, start + 3);
    // The rest of the first line may name a language (`---yaml`); the YAML starts after it.
    let line_end = rest.find('\n').map(|i| start + i + 1).unwrap_or(text.len());
    let yaml_start = match rest.find('\n') {
        Some(_) => line_end,
        None => no_line_break(text, start + 3),
    };
    // Search from the opening line's `\n` (when there is one) so that an empty frontmatter
    // (`---\n---`) closes at once.
    let search_from = if text[..line_end].ends_with('\n') {
        line_end - 1
    } else {
        line_end
    };
    match text[search_from..].find("\n---") {
        Some(i) => {
            let close_start = search_from + i + 1;
            let yaml_end = close_start;
            let mut body_start = close_start + 3;
            // gray-matter keeps the rest of the closing line in the body, minus one line break.
            if text[body_start..].starts_with('\r') {
                body_start += 1;
            }
            if text[body_start..].starts_with('\n') {
                body_start += 1;
            }
            Split {
                frontmatter: Some(Frontmatter {
                    open,
                    yaml: Span::new(yaml_start, yaml_end.max(yaml_start)),
                    close: Some(Span::new(close_start, close_start + 3)),
                }),
                body: Span::new(body_start, text.len()),
                misplaced_open: None,
            }
        }
        None => Split {
            frontmatter: Some(Frontmatter {
                open,
                yaml: Span::new(yaml_start, text.len()),
                close: None,
            }),
            body: Span::empty(text.len()),
            misplaced_open: None,
        },
    }
}

/// Where the YAML starts in a file that is a single line `---…` (from byte `after`, right after
/// the dashes). gray-matter takes the language name as the rest of the line *but its last
/// character* (`str.slice(0, str.search(/\r?\n/))` with no match is `slice(0, -1)`): when that
/// name is blank, the YAML is the whole rest, else its last character (and gray-matter then
/// looks for an engine of that name).
fn no_line_break(text: &str, after: usize) -> usize {
    let rest = &text[after..];
    match rest.char_indices().last() {
        Some((last, _)) if !rest[..last].trim().is_empty() => after + last,
        _ => after,
    }
}

/// A `---` line that comes after nothing but blank lines and HTML comments (a license header,
/// say), followed later by a closing `---`.
fn misplaced(text: &str, start: usize) -> Option<Span> {
    let rest = &text[start..];
    let mut trimmed = rest;
    loop {
        let t = trimmed.trim_start_matches([' ', '\t', '\r', '\n']);
        match t
            .strip_prefix("<!--")
            .and_then(|c| c.find("-->").map(|end| &c[end + 3..]))
        {
            Some(after) => trimmed = after,
            None => {
                trimmed = t;
                break;
            }
        }
    }
    let skipped = &rest[..rest.len() - trimmed.len()];
    if skipped.contains('\n') && trimmed.starts_with("---") && !trimmed[3..].starts_with('-') {
        let at = start + (rest.len() - trimmed.len());
        // Only if a closing delimiter follows: otherwise it is just a thematic break.
        if trimmed[3..].contains("\n---") {
            return Some(Span::new(at, at + 3));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_split() {
        let text = "---\nmode: subagent\n---\nYou review code.\n";
        let s = split(text);
        let fm = s.frontmatter.unwrap();
        assert_eq!(fm.yaml.text(text), "mode: subagent\n");
        assert_eq!(fm.close.unwrap().start, 19);
        assert_eq!(s.body.text(text), "You review code.\n");
    }

    #[test]
    fn crlf_and_bom() {
        let text = "\u{feff}---\r\nmode: subagent\r\n---\r\nBody\r\n";
        let s = split(text);
        let fm = s.frontmatter.unwrap();
        assert_eq!(fm.open, Span::new(3, 6));
        assert_eq!(fm.yaml.text(text), "mode: subagent\r\n");
        assert_eq!(s.body.text(text), "Body\r\n");
    }

    #[test]
    fn leading_blank_line_means_no_frontmatter() {
        let text = "\n---\nmode: subagent\n---\nBody\n";
        let s = split(text);
        assert!(s.frontmatter.is_none());
        assert_eq!(s.body.text(text), text);
        assert_eq!(s.misplaced_open, Some(Span::new(1, 4)));
    }

    #[test]
    fn frontmatter_after_a_comment_is_misplaced() {
        let text = "<!-- SPDX-License-Identifier: MIT -->\n---\nmode: subagent\n---\nBody\n";
        let s = split(text);
        assert!(s.frontmatter.is_none());
        assert_eq!(s.misplaced_open.unwrap().text(text), "---");
        // Prose before a horizontal rule is not a frontmatter.
        assert!(split("Intro\n---\nMore\n---\n").misplaced_open.is_none());
    }

    #[test]
    fn unclosed_frontmatter_takes_the_rest() {
        let text = "---\nmode: subagent\nBody text\n";
        let s = split(text);
        let fm = s.frontmatter.unwrap();
        assert!(fm.close.is_none());
        assert_eq!(fm.yaml.text(text), "mode: subagent\nBody text\n");
        assert!(s.body.is_empty());
    }

    #[test]
    fn single_line_file_reads_as_gray_matter_does() {
        // No line break: gray-matter's language is the rest of the line minus its last
        // character, and the YAML is that last character (or the whole rest when the language
        // would be blank).
        let yaml = |text: &str| {
            let s = split(text);
            s.frontmatter.map(|f| f.yaml.text(text).to_string())
        };
        assert_eq!(yaml("---x").as_deref(), Some("x"));
        assert_eq!(yaml("---").as_deref(), Some(""));
        assert_eq!(yaml("--- x").as_deref(), Some(" x"));
        assert_eq!(yaml("---ab").as_deref(), Some("b"));
        assert_eq!(yaml("---é").as_deref(), Some("é"));
        assert_eq!(yaml("\u{feff}---:").as_deref(), Some(":"));
        // With a line break the whole first line is the language.
        assert_eq!(yaml("---ab\nc").as_deref(), Some("c"));
    }

    #[test]
    fn empty_frontmatter_and_four_dashes() {
        let s = split("---\n---\nBody");
        assert_eq!(s.frontmatter.unwrap().yaml, Span::new(4, 4));
        assert!(split("----\nx\n").frontmatter.is_none());
        assert!(split("no frontmatter").frontmatter.is_none());
        assert!(split("---").frontmatter.is_some());
        // A first line ending in a multibyte character, with no line break.
        for text in ["---é", "---🚀", "\u{feff}---x审"] {
            let s = split(text);
            assert!(s.frontmatter.unwrap().close.is_none());
        }
    }
}
