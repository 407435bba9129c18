//! Minimal text edits on YAML and JSONC mappings, for fixes: delete an entry, insert entries at
//! the start or the end of a mapping, write keys and values in the file's own style. Everything
//! outside the edited spans stays byte for byte as it was (comments, order, indentation, CRLF).

use super::diagnostic::Edit;
use super::syntax::{Map, Node, Style};
use super::text::Span;

pub struct Doc<'a> {
    pub text: &'a str,
    /// YAML (frontmatter) rather than JSON.
    pub yaml: bool,
}

impl Doc<'_> {
    pub fn newline(&self) -> &'static str {
        if self.text.contains("\r\n") { "\r\n" } else { "\n" }
    }

    /// `offset`, moved back to the start of the character it falls in.
    fn floor(&self, offset: usize) -> usize {
        let mut at = offset.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    fn line_start(&self, offset: usize) -> usize {
        self.text[..self.floor(offset)].rfind('\n').map_or(0, |i| i + 1)
    }

    /// The offset just past the line break of the line holding `offset` (or the end).
    fn line_end_after(&self, offset: usize) -> usize {
        let at = self.floor(offset);
        match self.text[at..].find('\n') {
            Some(i) => at + i + 1,
            None => self.text.len(),
        }
    }

    /// The blanks that start the line holding `offset`.
    pub fn indent_at(&self, offset: usize) -> &str {
        let start = self.line_start(offset);
        let line = &self.text[start..];
        let n = line.len() - line.trim_start_matches([' ', '\t']).len();
        &line[..n]
    }

    /// A key written in this file's style: JSON always quotes; YAML quotes only when needed.
    pub fn key(&self, name: &str) -> String {
        self.scalar(name)
    }

    /// A string value in this file's style.
    pub fn scalar(&self, s: &str) -> String {
        let plain_ok = !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/' | '.'))
            && !matches!(s, "true" | "false" | "null" | "yes" | "no" | "~")
            && !s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.');
        if self.yaml && plain_ok {
            s.to_string()
        } else {
            serde_json::to_string(s).unwrap_or_default()
        }
    }

    /// Whether a mapping node is written in flow style (`{...}`, always so in JSON).
    pub fn is_flow(&self, node: &Node) -> bool {
        !self.yaml || node.span.text(self.text).starts_with('{')
    }

    /// Delete entry `i` of `map` (the mapping `node`).
    pub fn delete_entry(&self, node: &Node, i: usize) -> Option<Edit> {
        let map = node.as_map()?;
        let e = map.entries.get(i)?;
        if !self.is_flow(node) {
            let start = self.line_start(e.key.span.start as usize);
            let last = (e.value.span.end as usize).max(e.key.span.end as usize);
            let end = self.line_end_after(last.saturating_sub(1).max(e.key.span.end as usize));
            return Some(Edit {
                span: Span::new(start, end),
                text: String::new(),
            });
        }
        let span = if let Some(next) = map.entries.get(i + 1) {
            Span::new(e.key.span.start as usize, next.key.span.start as usize)
        } else if i > 0 {
            Span::new(map.entries[i - 1].value.span.end as usize, e.value.span.end as usize)
        } else {
            Span::new(e.key.span.start as usize, e.value.span.end as usize)
        };
        Some(Edit {
            span,
            text: String::new(),
        })
    }

    /// Entries `key: value` written as this file writes them, for insertion.
    pub fn entry_text(&self, key: &str, value: &str) -> String {
        format!("{key}: {value}")
    }

    /// Insert entries (already written keys and values) before the first entry of a mapping.
    pub fn insert_first(&self, node: &Node, entries: &[(String, String)]) -> Option<Edit> {
        let map = node.as_map()?;
        if entries.is_empty() {
            return None;
        }
        let nl = self.newline();
        let Some(first) = map.entries.first() else {
            return self.insert_into_empty(node, entries);
        };
        let at = first.key.span.start as usize;
        if !self.is_flow(node) {
            let indent = self.indent_at(at);
            let text: String = entries
                .iter()
                .map(|(k, v)| format!("{indent}{}{nl}", self.entry_text(k, v)))
                .collect();
            return Some(Edit {
                span: Span::empty(self.line_start(at)),
                text,
            });
        }
        let open = node.span.start as usize;
        let multiline = self.text[open..at].contains('\n');
        let sep = if multiline {
            format!(",{nl}{}", self.indent_at(at))
        } else {
            ", ".to_string()
        };
        let text: String = entries
            .iter()
            .map(|(k, v)| format!("{}{sep}", self.entry_text(k, v)))
            .collect();
        Some(Edit {
            span: Span::empty(at),
            text,
        })
    }

    /// Insert entries after the last entry of a mapping.
    pub fn insert_last(&self, node: &Node, entries: &[(String, String)]) -> Option<Edit> {
        match node.as_map()?.entries.len() {
            0 if !entries.is_empty() => self.insert_into_empty(node, entries),
            n => self.insert_after(node, n.checked_sub(1)?, entries),
        }
    }

    /// Insert entries right after entry `i` of a mapping (on the lines after it, at its
    /// indentation, in a block mapping; after its value, in a flow one).
    pub fn insert_after(&self, node: &Node, i: usize, entries: &[(String, String)]) -> Option<Edit> {
        let map = node.as_map()?;
        let entry = map.entries.get(i)?;
        if entries.is_empty() {
            return None;
        }
        let nl = self.newline();
        let end = (entry.value.span.end as usize).max(entry.key.span.end as usize);
        if !self.is_flow(node) {
            let indent = self.indent_at(entry.key.span.start as usize).to_string();
            let at = self.line_end_after(end.saturating_sub(1));
            let lead = if at == self.text.len() && !self.text.ends_with('\n') {
                nl
            } else {
                ""
            };
            let text: String = entries
                .iter()
                .map(|(k, v)| format!("{indent}{}{nl}", self.entry_text(k, v)))
                .collect();
            return Some(Edit {
                span: Span::empty(at),
                text: format!("{lead}{text}"),
            });
        }
        let first_key = map.entries[0].key.span.start as usize;
        let multiline = self.text[node.span.start as usize..first_key].contains('\n');
        let sep = if multiline {
            format!(",{nl}{}", self.indent_at(entry.key.span.start as usize))
        } else {
            ", ".to_string()
        };
        let text: String = entries
            .iter()
            .map(|(k, v)| format!("{sep}{}", self.entry_text(k, v)))
            .collect();
        Some(Edit {
            span: Span::empty(end),
            text,
        })
    }

    fn insert_into_empty(&self, node: &Node, entries: &[(String, String)]) -> Option<Edit> {
        let t = node.span.text(self.text);
        // Only a closed `{ ... }` (an unclosed one has no place to insert before its end).
        if !t.starts_with('{') || !t.ends_with('}') || t.len() < 2 {
            return None;
        }
        let inner: Vec<String> = entries.iter().map(|(k, v)| self.entry_text(k, v)).collect();
        Some(Edit {
            span: Span::new(node.span.start as usize + 1, node.span.end as usize - 1),
            text: inner.join(", "),
        })
    }

    /// Rewrite all entries of a flow mapping (or JSON object) in a new order: `entries` are
    /// `(key text, value text)`; the separator of the original is kept.
    pub fn rewrite_flow(&self, node: &Node, entries: &[(String, String)]) -> Option<Edit> {
        let map = node.as_map()?;
        let (first, last) = (map.entries.first()?, map.entries.last()?);
        let start = first.key.span.start as usize;
        let end = (last.value.span.end as usize).max(last.key.span.end as usize);
        let multiline = self.text[node.span.start as usize..start].contains('\n');
        let sep = if multiline {
            format!(",{}{}", self.newline(), self.indent_at(start))
        } else {
            ", ".to_string()
        };
        let text = entries
            .iter()
            .map(|(k, v)| self.entry_text(k, v))
            .collect::<Vec<_>>()
            .join(&sep);
        Some(Edit {
            span: Span::new(start, end),
            text,
        })
    }

    /// Move entry `i` of a mapping to its front.
    pub fn move_to_front(&self, node: &Node, i: usize) -> Option<Vec<Edit>> {
        let map: &Map = node.as_map()?;
        if i == 0 || i >= map.entries.len() {
            return None;
        }
        let e = &map.entries[i];
        let key = e.key.span.text(self.text).to_string();
        let value = e.value.span.text(self.text).to_string();
        if value.contains('\n') {
            // A multi-line value would need re-indenting; not offered.
            return None;
        }
        Some(vec![
            self.delete_entry(node, i)?,
            self.insert_first(node, &[(key, value)])?,
        ])
    }
}

/// A fix that replaces a quoted string with another string keeps the quotes the file used:
/// `color: 'purpel'` becomes `color: 'purple'`, not `purple` or `"purple"`. Only where the
/// value changes and stays a string of one line (a fix that only changes the quoting, a quoted
/// number made a number, is left as it is).
pub fn keep_quotes(text: &str, d: &mut super::diagnostic::Diagnostic) {
    let Some(fix) = d.fix.as_deref_mut() else {
        return;
    };
    for e in &mut fix.edits {
        let Some(src) = text.get(e.span.range()) else {
            continue;
        };
        let (Some(q), Some(old)) = (quote_of(src), unquote(src)) else {
            continue;
        };
        let bare = quote_of(&e.text).is_none();
        let Some(new) = unquote(&e.text).or_else(|| bare.then(|| e.text.clone())) else {
            continue;
        };
        let literal = bare
            && (new.parse::<f64>().is_ok()
                || matches!(
                    new.as_str(),
                    "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
                ));
        if new.is_empty() || new == old || literal || new.contains([q, '\\', '\n', '\r']) {
            continue;
        }
        e.text = format!("{q}{new}{q}");
    }
}

/// The quote character a whole scalar is written in (`'x'`, `"x"`).
fn quote_of(s: &str) -> Option<char> {
    let q = s.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    (s.len() >= 2 && s.ends_with(q)).then_some(q)
}

/// The string a quoted scalar holds (`''` in single quotes is `'`; double quotes as JSON reads
/// them); `None` when it is not one quoted scalar.
fn unquote(s: &str) -> Option<String> {
    match quote_of(s)? {
        '\'' => {
            let inner = &s[1..s.len() - 1];
            (!inner.replace("''", "").contains('\'')).then(|| inner.replace("''", "'"))
        }
        _ => serde_json::from_str::<String>(s).ok(),
    }
}

/// The replacement text for a scalar, keeping its quoting.
pub fn requote(v: &Node, s: &str) -> String {
    match v.style {
        Style::Quoted if !v.span.is_empty() => {
            // Keep the quote character the user chose.
            format!("\"{s}\"")
        }
        _ => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::diagnostic::apply;
    use crate::analysis::syntax::{jsonc, yaml};

    fn yaml_map(text: &str, key: &str) -> Node {
        let r = yaml::parse(text, 0).root.unwrap();
        r.as_map().unwrap().value(key).unwrap().clone()
    }

    /// The text a one-edit fix writes for the value at `at` of `text`, after [`keep_quotes`].
    fn kept(text: &str, at: &str, replacement: &str) -> String {
        let start = text.find(at).unwrap();
        let span = Span::new(start, start + at.len());
        let mut d = crate::analysis::diagnostic::Diagnostic::new(crate::analysis::rules::Code::InvalidValue, span, "m")
            .with_suggestion(span, replacement);
        keep_quotes(text, &mut d);
        d.fix.unwrap().edits[0].text.clone()
    }

    #[test]
    fn a_fix_keeps_the_quotes_the_value_was_written_in() {
        // A new string in the value's own quotes, whatever the fix wrote.
        assert_eq!(kept("color: 'purpel'\n", "'purpel'", "purple"), "'purple'");
        assert_eq!(kept("mode: 'primery'\n", "'primery'", "\"primary\""), "'primary'");
        assert_eq!(kept("mode: \"primery\"\n", "\"primery\"", "primary"), "\"primary\"");
        assert_eq!(kept("{\"a\": \"x\"}", "\"x\"", "\"y\""), "\"y\"");
        // `''` in single quotes is one quote: it is the same value.
        assert_eq!(kept("a: 'it''s'\n", "'it''s'", "it's"), "it's");
        // Unquoted: as the fix wrote it.
        assert_eq!(kept("color: purpel\n", "purpel", "purple"), "purple");
        // Only the quoting changes (a quoted number made a number): as the fix wrote it.
        assert_eq!(kept("steps: \"5\"\n", "\"5\"", "5"), "5");
        // A number, boolean or null made of a string is a change of type: as written.
        assert_eq!(kept("x: 'five'\n", "'five'", "5"), "5");
        assert_eq!(kept("x: 'nope'\n", "'nope'", "true"), "true");
        assert_eq!(kept("x: 'nope'\n", "'nope'", "false"), "false");
        assert_eq!(kept("x: 'nope'\n", "'nope'", "null"), "null");
        // What the quotes cannot hold as they are: as written.
        assert_eq!(kept("x: 'a'\n", "'a'", "it's"), "it's");
        assert_eq!(kept("x: \"a\"\n", "\"a\"", "b\\c"), "b\\c");
        assert_eq!(kept("x: 'a'\n", "'a'", "two\nlines"), "two\nlines");
        // Not one quoted scalar: as written.
        assert_eq!(kept("x: 'a' 'b'\n", "'a' 'b'", "c"), "c");
        assert_eq!(kept("x: '\n", "'", "c"), "c");
        // A deletion stays one.
        assert_eq!(kept("x: 'a'\n", "'a'", ""), "");
    }

    #[test]
    fn yaml_block_edits_keep_the_rest() {
        let text = "permission:\r\n  bash: ask # keep\r\n  edit: deny\r\nmode: all\r\n";
        let doc = Doc { text, yaml: true };
        let m = yaml_map(text, "permission");
        let out = apply(
            text,
            &[doc.insert_first(&m, &[("webfetch".into(), "deny".into())]).unwrap()],
        );
        assert_eq!(
            out,
            "permission:\r\n  webfetch: deny\r\n  bash: ask # keep\r\n  edit: deny\r\nmode: all\r\n"
        );
        let out = apply(text, &[doc.delete_entry(&m, 1).unwrap()]);
        assert_eq!(out, "permission:\r\n  bash: ask # keep\r\nmode: all\r\n");
        let out = apply(text, &[doc.insert_last(&m, &[("\"*\"".into(), "ask".into())]).unwrap()]);
        assert_eq!(
            out,
            "permission:\r\n  bash: ask # keep\r\n  edit: deny\r\n  \"*\": ask\r\nmode: all\r\n"
        );
        let out = apply(text, &doc.move_to_front(&m, 1).unwrap());
        assert_eq!(
            out,
            "permission:\r\n  edit: deny\r\n  bash: ask # keep\r\nmode: all\r\n"
        );
        // After an entry in the middle: on the lines after it (its comment kept on its line).
        let out = apply(
            text,
            &[doc
                .insert_after(&m, 0, &[("a".into(), "1".into()), ("b".into(), "2".into())])
                .unwrap()],
        );
        assert_eq!(
            out,
            "permission:\r\n  bash: ask # keep\r\n  a: 1\r\n  b: 2\r\n  edit: deny\r\nmode: all\r\n"
        );
        assert_eq!(doc.insert_after(&m, 2, &[("a".into(), "1".into())]), None);
        assert_eq!(doc.insert_after(&m, 0, &[]), None);
        // A flow mapping in YAML: after the entry's value.
        let flow = "permission: {bash: ask, edit: deny}\n";
        let f = Doc { text: flow, yaml: true };
        let fm = yaml_map(flow, "permission");
        assert_eq!(
            apply(flow, &[f.insert_after(&fm, 0, &[("a".into(), "1".into())]).unwrap()]),
            "permission: {bash: ask, a: 1, edit: deny}\n"
        );
    }

    #[test]
    fn json_edits_keep_the_rest() {
        let text =
            "{\n  // c\n  \"bash\": {\n    \"rm *\": \"deny\",\n    \"*\": \"ask\"\n  },\n  \"edit\": \"deny\"\n}\n";
        let doc = Doc { text, yaml: false };
        let root = jsonc::parse(text).root.unwrap();
        let bash = root.as_map().unwrap().value("bash").unwrap().clone();
        let out = apply(text, &doc.move_to_front(&bash, 1).unwrap());
        assert_eq!(
            out,
            "{\n  // c\n  \"bash\": {\n    \"*\": \"ask\",\n    \"rm *\": \"deny\"\n  },\n  \"edit\": \"deny\"\n}\n"
        );
        assert!(jsonc::parse(&out).errors.is_empty());
        // After the first entry of a multi-line object: on a line of its own.
        let out = apply(
            text,
            &[doc
                .insert_after(&bash, 0, &[("\"x\"".into(), "\"deny\"".into())])
                .unwrap()],
        );
        assert_eq!(
            out,
            "{\n  // c\n  \"bash\": {\n    \"rm *\": \"deny\",\n    \"x\": \"deny\",\n    \"*\": \"ask\"\n  },\n  \"edit\": \"deny\"\n}\n"
        );
        assert!(jsonc::parse(&out).errors.is_empty());
        let out = apply(text, &[doc.delete_entry(&root, 1).unwrap()]);
        assert_eq!(
            out,
            "{\n  // c\n  \"bash\": {\n    \"rm *\": \"deny\",\n    \"*\": \"ask\"\n  }\n}\n"
        );
        let out = apply(text, &[doc.delete_entry(&root, 0).unwrap()]);
        assert_eq!(out, "{\n  // c\n  \"edit\": \"deny\"\n}\n");
        let one = "{\"a\": {}, \"b\": {\"x\": 1}}";
        let d = Doc { text: one, yaml: false };
        let r = jsonc::parse(one).root.unwrap();
        let a = r.as_map().unwrap().value("a").unwrap().clone();
        let b = r.as_map().unwrap().value("b").unwrap().clone();
        assert_eq!(
            apply(one, &[d.insert_last(&a, &[("\"k\"".into(), "1".into())]).unwrap()]),
            "{\"a\": {\"k\": 1}, \"b\": {\"x\": 1}}"
        );
        // Nothing to insert: no edit, into an empty mapping or after an entry.
        assert_eq!(d.insert_last(&a, &[]), None);
        assert_eq!(d.insert_last(&b, &[]), None);
        assert_eq!(
            apply(one, &[d.insert_first(&b, &[("\"k\"".into(), "1".into())]).unwrap()]),
            "{\"a\": {}, \"b\": {\"k\": 1, \"x\": 1}}"
        );
    }

    #[test]
    fn values_ending_in_multibyte_characters() {
        let text = "tools:\n  a: x →\n  b: y\n";
        let doc = Doc { text, yaml: true };
        let root = yaml::parse(text, 0).root.unwrap();
        let tools = root.as_map().unwrap().value("tools").unwrap().clone();
        assert_eq!(apply(text, &[doc.delete_entry(&tools, 0).unwrap()]), "tools:\n  b: y\n");
        assert_eq!(apply(text, &[doc.delete_entry(&root, 0).unwrap()]), "");
    }

    #[test]
    fn scalars_in_each_style() {
        let y = Doc { text: "", yaml: true };
        assert_eq!(y.scalar("edit"), "edit");
        assert_eq!(y.scalar("rm -rf *"), "\"rm -rf *\"");
        assert_eq!(y.scalar("yes"), "\"yes\"");
        let j = Doc { text: "", yaml: false };
        assert_eq!(j.scalar("edit"), "\"edit\"");
    }

    #[test]
    fn a_fix_quotes_what_would_not_stay_a_plain_string() {
        let y = Doc { text: "", yaml: true };
        // A leading digit, `-` or `.` would read as a number, a sequence entry or a float.
        assert_eq!(y.scalar("1.5"), "\"1.5\"");
        assert_eq!(y.scalar("2x"), "\"2x\"");
        assert_eq!(y.scalar("-rf"), "\"-rf\"");
        assert_eq!(y.scalar(".5"), "\".5\"");
        assert_eq!(y.scalar(".hidden"), "\".hidden\"");
        // The same characters later on are fine.
        assert_eq!(y.scalar("v1.5-rc"), "v1.5-rc");
        assert_eq!(y.scalar("git/push"), "git/push");
    }
}
