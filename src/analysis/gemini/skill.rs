//! How Gemini CLI 0.61.0 loads a `SKILL.md` (its `skillLoader`, seen in the system instruction
//! the model gets: `<available_skills>`, judged by `tests/gemini_runtime`): from `.gemini/skills/`
//! and `.agents/skills/` of a trusted project and of the user's home, the file right in the folder
//! or one folder below (`skills/<name>/SKILL.md`), no deeper.
//!
//! The frontmatter must open the file (`---` and a line break, no BOM) and close with a line
//! starting `---`. js-yaml reads it; when that throws, or gives no string `name` and
//! `description`, a line reader takes over: the last line `name: ...` and the last
//! `description: ...` (with the indented lines after it), at any indentation, as written. A skill
//! for which neither finds both is skipped without a word: no `name`, no `description`. Of two
//! skills of one name the one read later wins, with a warning ("Skill conflict detected").

use crate::analysis::Dialect;
use crate::analysis::skill::{Loader, Outcome, Reading};
use crate::analysis::syntax::{Entry, Key, Map, Node, Parsed, Style, Value, yaml};
use crate::analysis::text::Span;

/// Gemini CLI as a runtime that loads skills.
pub const LOADER: Loader = Loader {
    runtime: Dialect::Gemini,
    needs_name: true,
    folder_alias: false,
    needs_description: true,
    without_description: "Gemini CLI skips the skill without a word",
    keys: &[],
    values: |_| Vec::new(),
    duplicate: "Gemini CLI keeps the one it reads last and warns \"Skill conflict detected\"",
    read,
};

/// The frontmatter Gemini CLI's pattern finds: after `---` and a line break at the very start,
/// up to the first line break followed by `---`. The span of the text between.
fn block(text: &str) -> Option<(Span, Span)> {
    let start = if text.starts_with("---\n") {
        4
    } else if text.starts_with("---\r\n") {
        5
    } else {
        return None;
    };
    let q = start + text[start..].find("\n---")?;
    // (`\r?\n---`: a line break's `\r` is not the YAML's.)
    let end = if text[start..q].ends_with('\r') { q - 1 } else { q };
    Some((Span::new(0, 3), Span::new(start, end)))
}

/// A value the line reader takes: where it is written and the text it gives.
type Taken = (Span, String);

/// What the line reader takes: the last `name:` line's value and the last `description:`
/// line's value, with the indented lines that follow it joined by spaces (spans of the first
/// value as written, for the fix; the text Gemini CLI gets).
fn by_lines(text: &str, yaml: Span) -> (Option<Taken>, Option<Taken>) {
    let (mut name, mut description) = (None, None);
    let body = yaml.text(text);
    let mut lines = Vec::new();
    let mut at = yaml.start as usize;
    for l in body.split('\n') {
        let line = l.strip_suffix('\r').unwrap_or(l);
        lines.push((at, line));
        at += l.len() + 1;
    }
    let value_of = |start: usize, line: &str, key: &str| -> Option<(Span, String)> {
        let t = line.trim_start();
        let rest = t.strip_prefix(key)?.strip_prefix(':')?;
        let lead = rest.len() - rest.trim_start().len();
        let v = rest.trim();
        let s = start + (line.len() - t.len()) + key.len() + 1 + lead;
        Some((Span::new(s, s + v.len()), v.to_string()))
    };
    let mut i = 0;
    while i < lines.len() {
        let (start, line) = lines[i];
        if let Some(v) = value_of(start, line, "name") {
            name = Some(v);
        } else if let Some((span, first)) = value_of(start, line, "description") {
            let mut parts = vec![first];
            while let Some(&(_, next)) = lines.get(i + 1) {
                let indented = next.starts_with([' ', '\t']) && !next.trim().is_empty();
                if !indented {
                    break;
                }
                parts.push(next.trim().to_string());
                i += 1;
            }
            let joined: Vec<String> = parts.into_iter().filter(|p| !p.is_empty()).collect();
            description = Some((span, joined.join(" ")));
        }
        i += 1;
    }
    (name, description)
}

/// A `SKILL.md`'s frontmatter as Gemini CLI reads it: as written when js-yaml gives a string
/// `name` and `description`; through its line reader otherwise ([`Outcome::Retry`], the two
/// values as the line reader takes them, the rest as YAML read it when it did); skipped when
/// neither reads both ([`Outcome::Failed`] when YAML fails, else the tree as written, which
/// lacks what the shared checks then name).
pub fn read(text: &str) -> Reading {
    let Some((open, yaml_span)) = block(text) else {
        return Reading::default();
    };
    let parsed = yaml::parse_core(yaml_span.text(text), yaml_span.start as usize);
    let strict_ok = parsed.errors.is_empty() && parsed.duplicates.is_empty();
    let map = parsed.root.as_ref().and_then(Node::as_map);
    let both = map.is_some_and(|m| {
        m.value("name").and_then(Node::as_str).is_some() && m.value("description").and_then(Node::as_str).is_some()
    });
    if strict_ok && both {
        return Reading {
            outcome: Outcome::Parsed,
            open: Some(open),
            parsed,
            ..Reading::default()
        };
    }
    let (name, description) = by_lines(text, yaml_span);
    let (Some(name), Some(description)) = (name, description) else {
        // Skipped: the shared checks name what is missing on YAML's reading, or YAML's error.
        return Reading {
            outcome: if strict_ok { Outcome::Parsed } else { Outcome::Failed },
            open: Some(open),
            error: parsed.errors.first().cloned(),
            parsed,
            ..Reading::default()
        };
    };
    // What the line reader gives, put in the place of YAML's `name` and `description` (the other
    // keys as YAML read them, when it did).
    let string = |(span, s): &Taken| Node::new(*span, Style::Plain, Value::Str(s.clone()));
    let mut entries: Vec<Entry> = match map.filter(|_| strict_ok) {
        Some(m) => m
            .entries
            .iter()
            .filter(|e| e.key.name != "name" && e.key.name != "description")
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    for (key, v) in [("name", &name), ("description", &description)] {
        let key_at = v.0.start as usize;
        let key_span = text[..key_at].rfind(key).map_or(v.0, |k| Span::new(k, k + key.len()));
        entries.push(Entry {
            key: Key {
                name: key.to_string(),
                span: key_span,
            },
            value: string(v),
        });
    }
    entries.sort_by_key(|e| e.key.span.start);
    let root = Node::new(yaml_span, Style::Collection, Value::Map(Map::new(entries)));
    Reading {
        outcome: Outcome::Retry,
        open: Some(open),
        // The values YAML cannot read as written (a number it reads, and one that is fine
        // beside another YAML fails on, are nothing to quote).
        retried: [name.0, description.0]
            .into_iter()
            .filter(|v| !yaml::parse_core(&format!("k: {}", v.text(text)), 0).errors.is_empty())
            .collect(),
        error: parsed.errors.first().cloned(),
        parsed: Parsed {
            root: Some(root),
            errors: Vec::new(),
            duplicates: Vec::new(),
        },
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(text: &str) -> (Outcome, Option<String>, Option<String>) {
        let r = read(text);
        let m = r.parsed.root.as_ref().and_then(Node::as_map);
        let s = |k: &str| m.and_then(|m| m.value(k)).and_then(Node::as_str).map(String::from);
        (r.outcome, s("name"), s("description"))
    }

    #[test]
    fn as_written_when_yaml_gives_both_strings() {
        let (o, n, d) = seen("---\nname: a\ndescription: |\n  one\n  two\n---\nbody\n");
        assert_eq!(
            (o, n.as_deref(), d.as_deref()),
            (Outcome::Parsed, Some("a"), Some("one\ntwo"))
        );
        // An empty frontmatter is YAML's nothing.
        assert_eq!(read("---\r\n\r\n---\r\n").outcome, Outcome::Parsed);
        // What Gemini CLI's pattern captures (`^---\r?\n([\s\S]*?)\r?\n---`): not the `\r`.
        let text = "---\r\nname: a\r\n---\r\n";
        let (open, yaml) = block(text).unwrap();
        assert_eq!((open.text(text), yaml.text(text)), ("---", "name: a"));
        assert_eq!(block("---\nname: a\n---\n").unwrap().1, Span::new(4, 11));
    }

    #[test]
    fn the_line_reader_takes_what_yaml_does_not() {
        // A number is no string for js-yaml; the line reader takes it as written.
        let (o, n, _) = seen("---\nname: 123\ndescription: d\n---\n");
        assert_eq!((o, n.as_deref()), (Outcome::Retry, Some("123")));
        // A colon in a plain value: YAML throws, the line reader reads it.
        let (o, n, d) = seen("---\nname: c\ndescription: Use when: x\n  and more\n---\n");
        assert_eq!(
            (o, n.as_deref(), d.as_deref()),
            (Outcome::Retry, Some("c"), Some("Use when: x and more"))
        );
        // CRLF.
        let (o, n, d) = seen("---\r\nname: c\r\ndescription: Use when: x\r\n---\r\n");
        assert_eq!(
            (o, n.as_deref(), d.as_deref()),
            (Outcome::Retry, Some("c"), Some("Use when: x"))
        );
        // The last `name:` line wins, even an indented one.
        let (_, n, _) = seen("---\nname: 1\nmetadata:\n  name: inner\ndescription: d\n---\n");
        assert_eq!(n.as_deref(), Some("inner"));
        // A description's lines stop at the next key's line, which is read too.
        let (o, n, d) = seen("---\ndescription: Use when: x\n  more\nname: c\n---\n");
        assert_eq!(
            (o, n.as_deref(), d.as_deref()),
            (Outcome::Retry, Some("c"), Some("Use when: x more"))
        );
    }

    #[test]
    fn skipped_without_both() {
        assert_eq!(read("---\ndescription: d\n---\n").outcome, Outcome::Parsed);
        assert_eq!(read("---\nname: n\n---\n").outcome, Outcome::Parsed);
        assert_eq!(read("---\nname: [\n---\n").outcome, Outcome::Failed);
        // What the shared checks read of a skipped file: where it opens, YAML's error, its tree.
        let failed = read("---\nname: [\n---\n");
        assert_eq!(failed.open, Some(Span::new(0, 3)));
        assert!(failed.error.is_some());
        let no_name = read("---\ndescription: d\n---\n");
        assert_eq!(no_name.open, Some(Span::new(0, 3)));
        assert!(no_name.error.is_none());
        let m = no_name.parsed.root.as_ref().and_then(Node::as_map).unwrap();
        assert_eq!(m.value("description").and_then(Node::as_str), Some("d"));
        assert_eq!(read("---\nname: n\ndescription: d\n---\n").open, Some(Span::new(0, 3)));
        // No frontmatter at the very start: a BOM, a blank line, an unclosed one.
        assert_eq!(
            read("\u{feff}---\nname: n\ndescription: d\n---\n").outcome,
            Outcome::NoFrontmatter
        );
        assert_eq!(
            read("\n---\nname: n\ndescription: d\n---\n").outcome,
            Outcome::NoFrontmatter
        );
        assert_eq!(read("---\nname: n\ndescription: d\n").outcome, Outcome::NoFrontmatter);
    }

    #[test]
    fn spans_are_the_values_as_written() {
        let text = "---\nname: [x\ndescription:   d e\n---\n";
        let r = read(text);
        let got: Vec<&str> = r.retried.iter().map(|s| s.text(text)).collect();
        assert_eq!(got, ["[x"]);
        // An indented `name:` line, spaces after its colon: the span is the value's still.
        let indented = "---\nmetadata:\n  name:   [x\ndescription: d\n---\n";
        let got: Vec<&str> = read(indented).retried.iter().map(|s| s.text(indented)).collect();
        assert_eq!(got, ["[x"]);
        // Only the value YAML fails on is to quote, not a number beside it (quoting that would
        // not help, and applying the fix again and again never ended: a fuzz seed found it).
        let other = "---\nname: 123\ndescription: Use when: x\n  more\n---\n";
        let got: Vec<&str> = read(other).retried.iter().map(|s| s.text(other)).collect();
        assert_eq!(got, ["Use when: x"]);
        // Nothing to quote where YAML reads the values (a number).
        assert!(read("---\nname: 123\ndescription: d\n---\n").retried.is_empty());
        let m = r.parsed.root.as_ref().and_then(Node::as_map).unwrap();
        let keys: Vec<&str> = m.entries.iter().map(|e| e.key.span.text(text)).collect();
        assert_eq!(keys, ["name", "description"]);
        // The other keys as YAML read them, the line reader's two in place of YAML's (in source order).
        let other = "---\nname: 123\nlicense: x\ndescription: d\n---\n";
        let r = read(other);
        let m = r.parsed.root.as_ref().and_then(Node::as_map).unwrap();
        let keys: Vec<&str> = m.entries.iter().map(|e| e.key.name.as_str()).collect();
        assert_eq!(keys, ["name", "license", "description"]);
    }
}
