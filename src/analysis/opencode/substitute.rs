//! opencode's text substitutions in config files (spec §3.1): `{env:NAME}` becomes the
//! variable's value (empty when unset), `{file:path}` the trimmed content of a file (relative to
//! the config file's directory, `~/` expanded). A `{file:...}` whose file does not exist makes
//! opencode refuse to start ("bad file reference"), except on a line that starts with `//`.
//!
//! The core finds the references and applies values it is given; the workspace layer reads the
//! environment and the files. Values are replaced inside the parsed strings, so every span still
//! points at the text as written.

use super::Facts;
use crate::analysis::syntax::Parsed;
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Env,
    File,
}

/// One `{env:...}` or `{file:...}` reference in a config file's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub kind: Kind,
    /// The whole reference, braces included.
    pub span: Span,
    /// What is between `{env:` or `{file:` and `}`.
    pub arg: String,
}

impl Reference {
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        self.span.text(text)
    }
}

/// Every reference opencode substitutes, in text order. `{file:...}` on a line whose text
/// before it starts with `//` is left alone by opencode, so it is not listed.
pub fn references(text: &str) -> Vec<Reference> {
    let mut out = Vec::new();
    if !text.contains("{env:") && !text.contains("{file:") {
        return out;
    }
    let mut at = 0;
    while let Some(i) = text[at..].find('{') {
        let start = at + i;
        at = start + 1;
        let rest = &text[start..];
        let (kind, prefix) = if rest.starts_with("{env:") {
            (Kind::Env, "{env:")
        } else if rest.starts_with("{file:") {
            (Kind::File, "{file:")
        } else {
            continue;
        };
        // `[^}]+` then `}`: at least one character, no `}` inside (newlines allowed, as in JS).
        let body = &rest[prefix.len()..];
        let Some(close) = body.find('}') else { continue };
        if close == 0 {
            continue;
        }
        let end = start + prefix.len() + close + 1;
        if kind == Kind::File {
            let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
            if text[line_start..start].trim_start().starts_with("//") {
                at = end;
                continue;
            }
        }
        out.push(Reference {
            kind,
            span: Span::new(start, end),
            arg: body[..close].to_string(),
        });
        at = end;
    }
    out
}

/// The analysis as opencode sees the file after substitution: every string (keys and values)
/// of the tree and of the agent declarations with each reference replaced by `value(reference
/// text)` where that gives one. `None` when nothing changes.
pub fn apply(parsed: &Parsed, facts: &Facts, value: &dyn Fn(&str) -> Option<String>) -> Option<(Parsed, Facts)> {
    let mut changed = false;
    let mut parsed = parsed.clone();
    let mut out = facts.clone();
    if let Some(root) = &mut parsed.root {
        changed |= substitute_node(root, value);
    }
    for decl in &mut out.agents {
        if let Some(node) = &mut decl.node {
            changed |= substitute_node(node, value);
        }
        if let Some(s) = substitute_str(&decl.name, value) {
            decl.name = s;
            changed = true;
        }
    }
    for r in &mut out.refs {
        if let Some(s) = substitute_str(&r.name, value) {
            r.name = s;
            changed = true;
        }
    }
    changed.then_some((parsed, out))
}

fn substitute_str(s: &str, value: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    if !s.contains("{env:") && !s.contains("{file:") {
        return None;
    }
    let refs = references(s);
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    let mut changed = false;
    for r in refs {
        let (a, b) = (r.span.start as usize, r.span.end as usize);
        if let Some(v) = value(&s[a..b]) {
            out.push_str(&s[at..a]);
            out.push_str(&v);
            at = b;
            changed = true;
        }
    }
    out.push_str(&s[at..]);
    changed.then_some(out)
}

fn substitute_node(node: &mut Node, value: &dyn Fn(&str) -> Option<String>) -> bool {
    // Iterative: trees are bounded in depth, but this keeps the stack flat anyway.
    let mut changed = false;
    let mut stack: Vec<&mut Node> = vec![node];
    while let Some(n) = stack.pop() {
        match &mut n.value {
            Value::Str(s) => {
                if let Some(new) = substitute_str(s, value) {
                    *s = new;
                    changed = true;
                }
            }
            Value::Seq(items) => stack.extend(items.iter_mut()),
            Value::Map(m) => {
                for e in m.entries_mut() {
                    if let Some(new) = substitute_str(&e.key.name, value) {
                        e.key.name = new;
                        changed = true;
                    }
                    stack.push(&mut e.value);
                }
            }
            _ => {}
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::opencode::{FileKind, analyze};

    #[test]
    fn finds_references_and_skips_file_references_on_comment_lines() {
        let text = "{\n  // \"a\": \"{file:./gone.txt}\",\n  \"b\": \"{file:./p.txt}\", // {file:./c.txt}\n  \"c\": \"{env:HOME}x{env:}\"\n}";
        let refs = references(text);
        let shown: Vec<(&str, Kind)> = refs.iter().map(|r| (r.text(text), r.kind)).collect();
        assert_eq!(
            shown,
            [
                ("{file:./p.txt}", Kind::File),
                ("{file:./c.txt}", Kind::File),
                ("{env:HOME}", Kind::Env)
            ]
        );
        assert_eq!(refs[0].arg, "./p.txt");
    }

    #[test]
    fn applies_values_inside_strings_and_keeps_spans() {
        let text =
            r#"{"agent": {"f": {"description": "{file:./d.txt}", "model": "{env:P}/m"}}, "default_agent": "{env:D}"}"#;
        let a = analyze(&FileKind::Config, text);
        let value = |r: &str| match r {
            "{file:./d.txt}" => Some("from a file".to_string()),
            "{env:P}" => Some("prov".to_string()),
            "{env:D}" => Some("f".to_string()),
            _ => None,
        };
        let (_, s) = apply(&a.parsed, &a.facts, &value).expect("changed");
        let f = s.agents[0].node.as_ref().unwrap().as_map().unwrap();
        let d = f.value("description").unwrap();
        assert_eq!(d.as_str(), Some("from a file"));
        assert_eq!(d.span.text(text), "\"{file:./d.txt}\"");
        assert_eq!(f.value("model").unwrap().as_str(), Some("prov/m"));
        assert_eq!(s.refs[0].name, "f");
        let empty = analyze(&FileKind::Config, "{}");
        assert!(apply(&empty.parsed, &empty.facts, &value).is_none());
    }
}
