//! Completion and hover in Codex's TOML files, from the same schema that checks them
//! ([`super::schema`]): the keys a table takes (with their documentation), the values a key
//! takes, and on a key what it does.
//!
//! Where the cursor is comes from the text around it, so that a half-typed line still gets its
//! answer: the last `[table]` (or `[[array]]`) header above it, and on its line the dotted key
//! left of `=` (a value is being written) or the key being typed.

use crate::analysis::complete::{Item, ItemKind, item};
use crate::analysis::shape::{self, Lit};
use crate::analysis::text::Span;

/// The keys of an agent file of its own, beside the configuration's.
fn own_fields(agent: bool) -> &'static [(&'static str, &'static str)] {
    if agent { super::agent::OWN } else { &[] }
}

/// Split a dotted TOML key (`a."b.c".d`) into its keys.
fn split_dotted(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '.') => out.push(std::mem::take(&mut cur)),
            (None, c) if c.is_whitespace() => {}
            (None, c) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// The line holding `at`: its start and end.
fn line_at(text: &str, at: usize) -> (usize, usize) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (start, end)
}

/// The table the line starting at `line_start` is in: the keys of the last header above it.
fn table_above(text: &str, line_start: usize) -> Vec<String> {
    for line in text[..line_start].lines().rev() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix("[[").and_then(|h| h.split("]]").next()) {
            return split_dotted(h);
        }
        if let Some(h) = t.strip_prefix('[').and_then(|h| h.split(']').next()) {
            return split_dotted(h);
        }
    }
    Vec::new()
}

/// The position of `=` on a line, outside quotes.
fn equals(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => return None,
            (None, '=') => return Some(i),
            _ => {}
        }
    }
    None
}

fn is_key_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Completion at byte `at` of a Codex file (`agent`: an agent file, which also takes its own
/// fields).
pub fn complete(text: &str, at: usize, agent: bool) -> Vec<Item> {
    if at > text.len() || !text.is_char_boundary(at) {
        return Vec::new();
    }
    let (start, end) = line_at(text, at);
    let line = &text[start..end];
    let before = &text[start..at];
    if line.trim_start().starts_with('[') {
        // A table header: the tables the keys typed so far lead to.
        let inner = before.trim_start().trim_start_matches('[');
        let keys = split_dotted(inner);
        let parents = keys.split_last().map_or(&[][..], |(_, p)| p);
        let path: Vec<&str> = parents.iter().map(String::as_str).collect();
        // The key being typed: after the last `.` or `[` (ASCII, so a character boundary).
        let replace = Span::new(start + before.rfind(['.', '[']).map_or(0, |i| i + 1), at);
        return keys_items(&path, replace, &[], false, true)
            .into_iter()
            .map(|mut it| {
                it.insert = it.label.clone();
                it
            })
            .collect();
    }
    let table = table_above(text, start);
    let mut path: Vec<&str> = table.iter().map(String::as_str).collect();
    match equals(before) {
        Some(eq) => {
            // A value: the literals its key takes.
            let keys = split_dotted(&before[..eq]);
            path.extend(keys.iter().map(String::as_str));
            let typed = before[eq + 1..].trim_start();
            let replace = Span::new(at - typed.len(), at);
            let mut items: Vec<Item> = shape::lookup::values_at(&super::schema::CONFIG, &path)
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let (label, insert) = match v {
                        Lit::Str(s) => (s.to_string(), format!("\"{s}\"")),
                        Lit::Bool(b) => (b.to_string(), b.to_string()),
                    };
                    let mut it = item(
                        &label,
                        ItemKind::Value,
                        keys.last().map_or("", String::as_str),
                        None,
                        i as u8,
                    );
                    it.insert = insert;
                    it.replace = replace;
                    it
                })
                .collect();
            // Values Codex takes as written but documents.
            let known: &[&str] = match path.last().copied() {
                Some("model_reasoning_effort" | "plan_mode_reasoning_effort") if table.is_empty() => {
                    super::schema::REASONING_EFFORTS
                }
                Some("service_tier") if table.is_empty() => super::schema::SERVICE_TIERS,
                _ => &[],
            };
            for (i, v) in known.iter().enumerate() {
                let mut it = item(v, ItemKind::Value, path.last().copied().unwrap_or(""), None, i as u8);
                it.insert = format!("\"{v}\"");
                it.replace = replace;
                items.push(it);
            }
            items
        }
        None => {
            // A key: the fields of the table, less those written.
            let token_start = before
                .rfind(|c: char| !(is_key_char(c) || c == '.' || c == '"'))
                .map_or(0, |i| i + 1);
            let token = &before[token_start..];
            let keys = split_dotted(token);
            let parents = keys.split_last().map_or(&[][..], |(_, p)| p);
            path.extend(parents.iter().map(String::as_str));
            let present = present_keys(text, start);
            let replace = Span::new(start + token_start + token.rfind('.').map_or(0, |i| i + 1), at);
            let own = if table.is_empty() && parents.is_empty() {
                own_fields(agent)
            } else {
                &[]
            };
            let mut items: Vec<Item> = keys_items(&path, replace, &present, !own.is_empty(), false)
                .into_iter()
                .chain(own.iter().map(|(name, doc)| {
                    let mut it = item(name, ItemKind::Key, "an agent's own field", Some(doc.to_string()), 0);
                    it.insert = format!("{name} = ");
                    it.replace = replace;
                    it
                }))
                .filter(|it| !present.contains(&it.label))
                .collect();
            items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
            items
        }
    }
}

/// The keys written directly in the table the line at `line_start` is in (below the last header
/// above it), for not offering them again.
fn present_keys(text: &str, line_start: usize) -> Vec<String> {
    let header_start = text[..line_start]
        .lines()
        .rev()
        .scan(line_start, |pos, l| {
            *pos -= l.len() + 1;
            Some((*pos, l))
        })
        .find(|(_, l)| l.trim_start().starts_with('['))
        .map_or(0, |(p, _)| p);
    let mut out = Vec::new();
    for l in text[header_start..]
        .lines()
        .skip(usize::from(header_start > 0 || text.starts_with('[')))
    {
        if l.trim_start().starts_with('[') {
            break;
        }
        if let Some(eq) = equals(l) {
            if let Some(k) = split_dotted(&l[..eq]).first() {
                out.push(k.clone());
            }
        }
    }
    out
}

/// The keys of the table at `path` (`tables_only`: those that are tables themselves, for a
/// `[header]`), less `present`.
fn keys_items(path: &[&str], replace: Span, present: &[String], agent_ranked: bool, tables_only: bool) -> Vec<Item> {
    let is_table = |f: &shape::Field| matches!(f.shape, shape::Shape::Object(_) | shape::Shape::Record(_));
    let mut items: Vec<Item> = shape::lookup::fields_at(&super::schema::CONFIG, path)
        .into_iter()
        .filter(|(_, f)| !present.iter().any(|p| p == f.name) && (!tables_only || is_table(f)))
        .map(|(o, f)| {
            let table = is_table(f);
            let detail = if table {
                format!("a table of {}", o.what)
            } else {
                format!("{} ({})", shape::describe(&f.shape), o.what)
            };
            let mut it = item(
                f.name,
                ItemKind::Key,
                &detail,
                Some(f.doc.to_string()),
                1 + u8::from(agent_ranked),
            );
            it.insert = if table {
                f.name.to_string()
            } else {
                format!("{} = ", f.name)
            };
            it.replace = replace;
            it
        })
        .collect();
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

/// On a key of a Codex file: what it does and takes, and the span of the key.
pub fn hover(text: &str, at: usize, agent: bool) -> Option<(String, Span)> {
    if at > text.len() || !text.is_char_boundary(at) {
        return None;
    }
    let (start, end) = line_at(text, at);
    let line = &text[start..end];
    // The key (one dotted segment) under the cursor.
    let col = at - start;
    let seg_start = line[..col].rfind(|c: char| !is_key_char(c)).map_or(0, |i| i + 1);
    let seg_end = line[col..]
        .find(|c: char| !is_key_char(c))
        .map_or(line.len(), |i| col + i);
    if seg_start >= seg_end {
        return None;
    }
    let span = Span::new(start + seg_start, start + seg_end);
    let header = line.trim_start().starts_with('[');
    let eq = equals(line);
    if !header && eq.is_some_and(|e| seg_start > e) {
        return None;
    }
    let mut path: Vec<String> = if header { Vec::new() } else { table_above(text, start) };
    let left = if header {
        line[..seg_end].trim_start().trim_start_matches('[').to_string()
    } else {
        line[..seg_end].to_string()
    };
    path.extend(split_dotted(&left));
    let name = path.last()?.clone();
    if agent
        && path.len() == 1
        && let Some((_, doc)) = super::agent::OWN.iter().find(|(n, _)| *n == name)
    {
        return Some((format!("**`{name}`** (an agent's own field)\n\n{doc}"), span));
    }
    let keys: Vec<&str> = path.iter().map(String::as_str).collect();
    let (o, f) = shape::lookup::field_at(&super::schema::CONFIG, &keys)
        .into_iter()
        .next()?;
    let mut text = format!(
        "**`{}`**: {} ({})\n\n{}",
        f.name,
        shape::describe(&f.shape),
        o.what,
        f.doc
    );
    let values = shape::string_literals(&f.shape);
    if !values.is_empty() {
        text.push_str(&format!(
            "\n\nValues: {}.",
            values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    text.push_str(
        "\n\nA wrong type or value here makes Codex refuse the file; a key it does not know is ignored without a word.",
    );
    Some((text, span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, agent: bool) -> Vec<String> {
        let at = text.find('|').unwrap();
        let t = text.replace('|', "");
        complete(&t, at, agent).into_iter().map(|i| i.label).collect()
    }

    #[test]
    fn keys_of_the_table_and_values_of_the_key() {
        let l = labels("model = \"o3\"\nappro|", false);
        assert!(l.contains(&"approval_policy".to_string()), "{l:?}");
        assert!(
            !l.contains(&"model".to_string()),
            "a key written is not offered again: {l:?}"
        );
        let l = labels("approval_policy = |", false);
        assert_eq!(l, ["untrusted", "on-failure", "on-request", "never"]);
        let l = labels("[mcp_servers.docs]\ncommand = \"npx\"\n|", false);
        assert!(
            l.contains(&"args".to_string()) && !l.contains(&"command".to_string()),
            "{l:?}"
        );
        assert!(!l.contains(&"model".to_string()), "{l:?}");
        let l = labels("[tui]\nnotification_method = \"|", false);
        assert!(l.contains(&"osc777".to_string()), "{l:?}");
        let l = labels("model_reasoning_effort = |", false);
        assert!(l.contains(&"xhigh".to_string()), "{l:?}");
        let l = labels("[mcp_|", false);
        assert!(l.contains(&"mcp_servers".to_string()), "{l:?}");
        assert!(!l.contains(&"model".to_string()), "only tables in a header: {l:?}");
        // The span replaced is the key being typed, on character boundaries, whatever comes
        // before it (a quoted key with CJK, spaces).
        let t = "[mcp_servers.\"日 本\".e";
        let items = complete(t, t.len(), false);
        assert!(
            items.iter().any(|i| i.label == "env"),
            "{:?}",
            items.iter().map(|i| &i.label).collect::<Vec<_>>()
        );
        assert!(items.iter().all(|i| i.replace.text(t) == "e"));
        let t = "[mcp_servers.x]\nenv.A\n";
        assert!(complete(t, t.len() - 1, false).iter().all(|i| i.replace.text(t) == "A"));
        let l = labels("features.|", false);
        assert!(l.contains(&"multi_agent_v2".to_string()), "{l:?}");
    }

    #[test]
    fn an_agent_file_offers_its_own_fields_first() {
        let items = {
            let t = "name = \"r\"\n";
            complete(t, t.len(), true)
        };
        assert_eq!(items[0].label, "description");
        assert!(!items.iter().any(|i| i.label == "name"));
        assert!(items.iter().any(|i| i.label == "sandbox_mode"));
        assert!(
            !labels("|", false).contains(&"developer_instructions".to_string())
                || super::super::schema::TOP
                    .iter()
                    .any(|f| f.name == "developer_instructions")
        );
        assert!(
            !labels("|", false).contains(&"nickname_candidates".to_string()),
            "a config.toml has no agent fields"
        );
    }

    #[test]
    fn hover_says_what_a_key_does() {
        let t = "[mcp_servers.docs]\ncommand = \"npx\"\nstartup_timeout_sec = 5\n";
        let at = t.find("startup").unwrap() + 3;
        let (h, span) = hover(t, at, false).unwrap();
        assert!(h.contains("startup_timeout_sec") && h.contains("seconds"), "{h}");
        assert_eq!(span.text(t), "startup_timeout_sec");
        let at = t.find("mcp_servers").unwrap() + 2;
        let (h, _) = hover(t, at, false).unwrap();
        assert!(h.contains("MCP servers"), "{h}");
        let t = "sandbox_mode = \"read-only\"\n";
        let (h, _) = hover(t, 2, false).unwrap();
        assert!(h.contains("`danger-full-access`"), "{h}");
        assert!(
            hover(t, t.find("read").unwrap(), false).is_none(),
            "no hover on a value"
        );
        let t = "developer_instructions = \"x\"\n";
        let (h, _) = hover(t, 3, true).unwrap();
        assert!(h.contains("agent's own field"), "{h}");
        assert!(hover("", 0, false).is_none());
        assert!(hover("日本 = 1", 3, false).is_none());
    }
}
