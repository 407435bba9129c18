//! Completion shared by every dialect: the item a completion offers, and where the cursor is
//! in half-typed text (YAML frontmatter by indentation, JSON by an incremental bracket and
//! string scan; no full parse).

use crate::analysis::syntax::frontmatter;
use crate::analysis::text::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Key,
    Value,
    Agent,
    Model,
    Color,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub label: String,
    pub kind: ItemKind,
    pub detail: String,
    pub documentation: Option<String>,
    /// The text to put in place of `replace`.
    pub insert: String,
    pub replace: Span,
    /// Sort order: lower first.
    pub rank: u8,
}

/// Where the cursor is, structurally.
#[derive(Debug, PartialEq)]
pub struct Context {
    /// Keys from the root down to the mapping the cursor is in.
    pub path: Vec<String>,
    /// `Some(key)`: completing the value of `key`; `None`: completing a key.
    pub value_of: Option<String>,
    /// The partial text under the cursor, to be replaced.
    pub replace: Span,
    /// Keys already present in the mapping (for key completion).
    pub present: Vec<String>,
    /// The partial token starts with a quote (JSON or quoted YAML).
    pub quoted: bool,
}

struct Fm {
    yaml: Span,
    close: Option<Span>,
}

/// A completion item with no edit yet: the caller sets `insert` and `replace`.
pub fn item(label: &str, kind: ItemKind, detail: &str, doc: Option<String>, rank: u8) -> Item {
    Item {
        label: label.to_string(),
        kind,
        detail: detail.to_string(),
        documentation: doc,
        insert: String::new(),
        replace: Span::default(),
        rank,
    }
}

// ---------------------------------------------------------------------------------------------
// YAML: context from indentation.
// ---------------------------------------------------------------------------------------------

/// The completion context at `offset` in a Markdown file's frontmatter.
pub fn yaml_context(text: &str, offset: usize) -> Option<Context> {
    let split = frontmatter::split(text);
    let fm = split.frontmatter?;
    yaml_context_in(text, offset, fm.yaml, fm.close)
}

/// The completion context at `offset` in a frontmatter whose YAML starts at `yaml.start` and
/// whose closing delimiter (if any) is `close`. Shared by every dialect.
pub fn yaml_context_in(text: &str, offset: usize, yaml: Span, close: Option<Span>) -> Option<Context> {
    let fm = Fm { yaml, close };
    // Inside the frontmatter only (an unclosed one runs to the end).
    if offset < fm.yaml.start as usize || fm.close.is_some_and(|c| offset > c.start as usize) {
        return None;
    }
    if fm.close.is_some_and(|c| offset == c.start as usize) && !text[..offset].ends_with('\n') {
        return None;
    }
    let line_start = text[..offset]
        .rfind('\n')
        .map_or(0, |i| i + 1)
        .max(fm.yaml.start as usize);
    let line = &text[line_start..offset];
    if line.trim_start().starts_with('#') {
        return None;
    }
    let indent = line.len() - line.trim_start_matches(' ').len();
    let content = &line[indent..];
    let content = content.strip_prefix("- ").unwrap_or(content);
    // Which key's value, if the line has `key:` before the cursor.
    let (value_of, partial_start) = match split_key(content) {
        Some((key, value_at)) => (Some(key), line_start + indent + value_at),
        None => (None, line_start + indent),
    };
    let partial = &text[partial_start..offset];
    let quoted = partial.starts_with(['"', '\'']);
    // A partial containing a space in key position is not something we complete (prose).
    if value_of.is_none() && partial.contains(": ") {
        return None;
    }
    // The parent path: lines above with less indentation that open a mapping (`key:`).
    let mut path: Vec<(usize, String)> = Vec::new();
    // The cursor on a list item (`- b`): the items beside it, as indented as its `-`, are of the
    // same list, whose key is at most that indented (`tools:` then `- a`, indented or not).
    let mut want = if line[indent..].starts_with("- ") {
        indent + 1
    } else {
        indent
    };
    let yaml_text = &text[fm.yaml.start as usize..line_start];
    for l in yaml_text.lines().rev() {
        let li = l.len() - l.trim_start_matches(' ').len();
        let c = l.trim();
        if c.is_empty() || c.starts_with('#') {
            continue;
        }
        // A list item (`- label: Go`) above the cursor's line: the mapping the cursor is in is
        // an item of that list (this one or a later one), whose key is further up, at most as
        // indented as the `-` (`handoffs:` then `- label: ...`, indented or not).
        if li < want && (c == "-" || c.starts_with("- ")) {
            want = li + 1;
            continue;
        }
        if li < want
            && let Some((k, at)) = split_key(&l[li..])
            && l[li + at..].trim().is_empty()
        {
            path.push((li, k));
            want = li;
            if li == 0 {
                break;
            }
        } else if li < want {
            // Less indented but not a mapping key: the structure is not one we know.
            return None;
        }
    }
    path.reverse();
    let path: Vec<String> = path.into_iter().map(|(_, k)| k).collect();
    // Keys already present at this level: sibling lines with the same indentation under the
    // same parent.
    // A key written after `- ` sits two columns further in; a list item is a mapping of its
    // own, so only the keys of the cursor's item count.
    let key_indent = if line[indent..].starts_with("- ") {
        indent + 2
    } else {
        indent
    };
    let mut present = Vec::new();
    let body_start = fm.yaml.start as usize;
    let body = &text[body_start..fm.close.map_or(text.len(), |c| c.start as usize)];
    let mut depth_keys: Vec<(usize, String)> = Vec::new();
    let mut at = body_start;
    for raw in body.split_inclusive('\n') {
        let here = at;
        at += raw.len();
        let l = raw.trim_end_matches(['\n', '\r']);
        let li = l.len() - l.trim_start_matches(' ').len();
        let c = l.trim();
        if c.is_empty() || c.starts_with('#') {
            continue;
        }
        let (li, rest, item) = match l[li..].strip_prefix("- ") {
            Some(rest) => (li + 2, rest.trim_start_matches(' '), true),
            None => (li, &l[li..], false),
        };
        let Some((k, _)) = split_key(rest) else { continue };
        depth_keys.retain(|(d, _)| *d < li);
        let parents: Vec<&str> = depth_keys.iter().map(|(_, k)| k.as_str()).collect();
        if li == key_indent && parents == path.iter().map(String::as_str).collect::<Vec<_>>() {
            if item {
                // The next item, past the cursor's line: the cursor's item ends here.
                if here > line_start {
                    break;
                }
                present.clear();
            }
            present.push(k.clone());
        }
        depth_keys.push((li, k));
    }
    Some(Context {
        path,
        value_of,
        replace: Span::new(partial_start, offset + closing_quote(text, offset, quoted)),
        present,
        quoted,
    })
}

/// `key: rest` → the key (unquoted) and the offset of `rest` in the line.
fn split_key(content: &str) -> Option<(String, usize)> {
    let (key, after) = if let Some(q) = content.strip_prefix('"') {
        let end = q.find('"')?;
        (q[..end].to_string(), 1 + end + 1)
    } else if let Some(q) = content.strip_prefix('\'') {
        let end = q.find('\'')?;
        (q[..end].to_string(), 1 + end + 1)
    } else {
        let colon = content
            .find(": ")
            .or_else(|| content.strip_suffix(':').map(|s| s.len()))?;
        (content[..colon].trim_end().to_string(), colon)
    };
    let rest = &content[after..];
    let rest = rest.strip_prefix(':')?;
    let lead = rest.len() - rest.trim_start().len();
    if key.is_empty() {
        return None;
    }
    Some((key, after + 1 + lead))
}

/// An auto-inserted closing quote right after the cursor is replaced too.
fn closing_quote(text: &str, offset: usize, quoted: bool) -> usize {
    if quoted && text[offset..].starts_with('"') {
        1
    } else {
        0
    }
}

// ---------------------------------------------------------------------------------------------
// JSON: context from an incremental scan of the text before the cursor.
// ---------------------------------------------------------------------------------------------

#[derive(Debug)]
struct Frame {
    object: bool,
    /// The key this container is the value of.
    key: Option<String>,
    /// Keys seen in this object.
    keys: Vec<String>,
}

pub fn json_context(text: &str, offset: usize) -> Option<Context> {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    // The last key read in the innermost object, and whether a `:` followed it.
    let mut pending_key: Option<String> = None;
    let mut after_colon = false;
    let mut i = 0;
    while i < offset {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < offset && b[i] != b'\n' {
                    i += 1;
                }
                if i >= offset {
                    return None; // in a comment
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match text[i + 2..].find("*/") {
                Some(end) if i + 2 + end + 2 <= offset => i = i + 2 + end + 1,
                _ => return None,
            },
            b'"' => {
                let start = i;
                i += 1;
                let mut s = String::new();
                let mut closed = false;
                while i < b.len() {
                    if i >= offset {
                        break;
                    }
                    match b[i] {
                        b'\\' => {
                            i += 2;
                            continue;
                        }
                        b'"' => {
                            closed = true;
                            break;
                        }
                        b'\n' => break,
                        _ => {}
                    }
                    i += 1;
                }
                let end = i.min(offset);
                s.push_str(&text[start + 1..end]);
                if !closed {
                    // The cursor is inside this string: a key or a value being typed.
                    let in_object = stack.last().is_some_and(|f| f.object);
                    let value_of = if in_object && after_colon {
                        pending_key.clone()
                    } else {
                        None
                    };
                    if in_object && !after_colon {
                        return Some(json_ctx(&stack, None, start, offset, text, true));
                    }
                    // A string item of a list (`"delegates": ["|"]`): a value of the list's key.
                    if let Some(list) = stack.last().filter(|f| !f.object)
                        && let Some(k) = list.key.clone()
                    {
                        return Some(json_ctx(&stack[..stack.len() - 1], Some(k), start, offset, text, true));
                    }
                    return value_of.map(|k| json_ctx(&stack, Some(k), start, offset, text, true));
                }
                let in_object = stack.last().is_some_and(|f| f.object);
                if in_object && !after_colon {
                    pending_key = Some(s.clone());
                    if let Some(f) = stack.last_mut() {
                        f.keys.push(s);
                    }
                } else {
                    after_colon = false;
                }
            }
            b':' => after_colon = true,
            b',' => {
                after_colon = false;
                pending_key = None;
            }
            b'{' | b'[' => {
                let key = if after_colon { pending_key.take() } else { None };
                stack.push(Frame {
                    object: b[i] == b'{',
                    key,
                    keys: Vec::new(),
                });
                after_colon = false;
                pending_key = None;
            }
            b'}' | b']' => {
                stack.pop();
                after_colon = false;
                pending_key = None;
            }
            _ => {}
        }
        i += 1;
    }
    let in_object = stack.last().is_some_and(|f| f.object);
    if !in_object {
        return None;
    }
    // Not inside a string: a bare word being typed (or nothing yet).
    let word_start = text[..offset]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |p| p + 1);
    if after_colon {
        let key = pending_key?;
        Some(json_ctx(&stack, Some(key), word_start, offset, text, false))
    } else {
        Some(json_ctx(&stack, None, word_start, offset, text, false))
    }
}

fn json_ctx(
    stack: &[Frame],
    value_of: Option<String>,
    start: usize,
    offset: usize,
    text: &str,
    quoted: bool,
) -> Context {
    let path: Vec<String> = stack.iter().skip(1).filter_map(|f| f.key.clone()).collect();
    let present = stack.last().map(|f| f.keys.clone()).unwrap_or_default();
    Context {
        path,
        value_of,
        replace: Span::new(start, offset + closing_quote(text, offset, quoted)),
        present,
        quoted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(path, value_of, present keys)` at the `|` of `text`.
    fn at(text: &str) -> (Vec<String>, Option<String>, Vec<String>) {
        let offset = text.find('|').expect("a cursor");
        let text = text.replace('|', "");
        let c = yaml_context(&text, offset).expect("a context");
        (c.path, c.value_of, c.present)
    }

    #[test]
    fn list_items_lead_to_the_key_of_their_list() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        // In an item's mapping, below its first line (indented list, or not).
        assert_eq!(
            at("---\nhandoffs:\n  - label: A\n    agent: |\n---\n").0,
            s(&["handoffs"])
        );
        assert_eq!(at("---\nhandoffs:\n- label: A\n  agent: |\n---\n").0, s(&["handoffs"]));
        // On an item of a list whose earlier items are as indented: the list's key.
        assert_eq!(at("---\ntools:\n- a\n- |\n---\n").0, s(&["tools"]));
        assert_eq!(at("---\ntools:\n  - a\n  - |\n---\n").0, s(&["tools"]));
        // A key as indented as the items above it is a key of the top level.
        assert_eq!(
            at("---\nhandoffs:\n- label: A\nagent: |\n---\n"),
            (vec![], Some("agent".into()), s(&["handoffs", "agent"]))
        );
        // The keys present are those of the cursor's own item only.
        assert_eq!(
            at("---\nhandoffs:\n  - label: A\n    agent: x\n  - label: B\n    |\n  - prompt: C\n---\n").2,
            s(&["label"])
        );
        // Unindented items; the cursor on an item's own first line (its key counts).
        assert_eq!(at("---\nhandoffs:\n- label: A\n  |\n---\n").2, s(&["label"]));
        assert_eq!(
            at("---\nhandoffs:\n  - label: A\n    prompt: B\n  - agent: |\n---\n").2,
            s(&["agent"])
        );
        // The items of another list, at the same depth, are not this one's.
        assert_eq!(at("---\na:\n  - x: 1\nb:\n  - y: 2\n    |\n---\n").2, s(&["y"]));
    }
}
