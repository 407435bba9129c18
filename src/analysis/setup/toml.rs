//! Merging one `[parent.name]` table into a TOML file (Codex's `config.toml`), through
//! `toml_edit`, which keeps the rest of the file as it was written: comments, order, blank
//! lines and the layout of every other table. Only a table entry is merged ([`Place::Member`]);
//! the values are strings, booleans, numbers and arrays of them.

use toml_edit::{Array, DocumentMut, Item, Table, Value as TomlValue};

use super::merge::{Change, J, Place, Want};
use crate::analysis::syntax::{Node, toml};

/// Parse `text` as TOML into agent-lsp's tree (for reading back what was merged); a syntax
/// error is refused with its line and column (1-based).
pub fn parse_table(text: &str) -> Result<Node, String> {
    let parsed = toml::parse(text);
    if let Some(e) = parsed.errors.first() {
        let p = crate::analysis::LineIndex::new(text).line_col(
            text,
            e.span.start as usize,
            crate::analysis::Encoding::Utf32,
        );
        return Err(format!("{}:{}: {}", p.line + 1, p.col + 1, e.message));
    }
    Ok(parsed.root.unwrap_or_else(|| {
        Node::new(
            crate::analysis::Span::new(0, 0),
            crate::analysis::syntax::Style::Block,
            crate::analysis::syntax::Value::Map(Default::default()),
        )
    }))
}

/// Merge `want` into `text`; the new text (equal to `text` when unchanged) and what changed, or
/// why not (line:column first).
pub fn merge(text: &str, want: &Want) -> Result<(String, Change), String> {
    if let Place::Append { .. } = want.place {
        return Err("an entry appended to a list is not merged into TOML".to_string());
    }
    let root = parse_table(text)?;
    let map = root.as_map();
    let entry = map.and_then(|m| m.get(want.parent));
    let parent = entry.map(|e| &e.value);
    let current = parent.and_then(Node::as_map).and_then(|m| m.value(want.name));
    if current.is_some_and(|c| c.to_json() == want.value.to_json()) {
        return Ok((text.to_string(), Change::Unchanged));
    }
    if let Some(e) = entry.filter(|e| e.value.as_map().is_none()) {
        let p = &e.value;
        let at = crate::analysis::LineIndex::new(text).line_col(
            text,
            e.key.span.start as usize,
            crate::analysis::Encoding::Utf32,
        );
        return Err(format!(
            "{}:{}: `{}` is {}, not a table: agent-lsp's entry cannot go into it",
            at.line + 1,
            at.col + 1,
            want.parent,
            p.type_name()
        ));
    }
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        let line = e
            .span()
            .and_then(|s| text.get(..s.start))
            .map_or(0, |t| t.matches('\n').count());
        format!("{}:1: {}", line + 1, e.message())
    })?;
    let change = match (parent.is_some(), current.is_some()) {
        (false, _) => Change::AddedParent,
        (true, false) => Change::Added,
        (true, true) => Change::Replaced,
    };
    let mut entry = table_of(&want.value);
    if !text.trim().is_empty() && current.is_none() {
        entry.decor_mut().set_prefix("\n");
    }
    if parent.is_none() {
        let mut t = Table::new();
        t.set_implicit(true);
        doc.insert(want.parent, Item::Table(t));
    }
    let Some(table) = doc.get_mut(want.parent).and_then(Item::as_table_like_mut) else {
        return Err(format!("`{}` is not a table", want.parent));
    };
    match table.get_mut(want.name) {
        // In place: the table keeps its place in the file, and its header's comments.
        Some(Item::Table(old)) => {
            old.clear();
            for (k, v) in entry.iter() {
                old.insert(k, v.clone());
            }
        }
        _ => {
            table.insert(want.name, Item::Table(entry));
        }
    }
    let mut out = doc.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok((out, change))
}

/// The table `value` (an object) is written as.
fn table_of(value: &J) -> Table {
    let mut t = Table::new();
    if let J::Obj(members) = value {
        for (k, v) in members {
            if let Some(v) = value_of(&v.to_json()) {
                t.insert(k, Item::Value(v));
            }
        }
    }
    t
}

fn value_of(v: &serde_json::Value) -> Option<TomlValue> {
    use serde_json::Value as Js;
    Some(match v {
        Js::String(s) => TomlValue::from(s.as_str()),
        Js::Bool(b) => TomlValue::from(*b),
        Js::Number(n) => match n.as_i64() {
            Some(i) => TomlValue::from(i),
            None => TomlValue::from(n.as_f64()?),
        },
        Js::Array(items) => {
            let mut a = Array::new();
            for i in items {
                a.push_formatted(value_of(i)?);
            }
            a.fmt();
            TomlValue::Array(a)
        }
        Js::Null | Js::Object(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want() -> Want<'static> {
        Want::member(
            "mcp_servers",
            "agent-lsp",
            J::obj(vec![
                ("command", J::Val(serde_json::json!("agent-lsp"))),
                ("args", J::Val(serde_json::json!(["mcp"]))),
            ]),
        )
    }

    #[test]
    fn a_new_table_goes_at_the_end_and_the_rest_stays_as_written() {
        let text = "# Mine.\nmodel = \"gpt-5\"   # the model\n\n[mcp_servers.docs]\ncommand = \"npx\"\n";
        let (out, change) = merge(text, &want()).unwrap();
        assert_eq!(change, Change::Added);
        assert_eq!(
            out,
            "# Mine.\nmodel = \"gpt-5\"   # the model\n\n[mcp_servers.docs]\ncommand = \"npx\"\n\n[mcp_servers.agent-lsp]\ncommand = \"agent-lsp\"\nargs = [\"mcp\"]\n"
        );
        // Merged again: unchanged, byte for byte.
        assert_eq!(merge(&out, &want()).unwrap(), (out.clone(), Change::Unchanged));
        // Into an empty file, and into one without `mcp_servers`.
        let (out, change) = merge("", &want()).unwrap();
        assert_eq!(change, Change::AddedParent);
        assert_eq!(
            out,
            "[mcp_servers.agent-lsp]\ncommand = \"agent-lsp\"\nargs = [\"mcp\"]\n"
        );
        let (out, change) = merge("model = \"o3\"", &want()).unwrap();
        assert_eq!(change, Change::AddedParent);
        assert_eq!(
            out,
            "model = \"o3\"\n\n[mcp_servers.agent-lsp]\ncommand = \"agent-lsp\"\nargs = [\"mcp\"]\n"
        );
    }

    #[test]
    fn another_value_is_replaced_in_place_and_a_non_table_refused() {
        let text =
            "[mcp_servers.agent-lsp] # ours\ncommand = \"old\"\nenv = { A = \"1\" }\n\n[tui]\nanimations = false\n";
        let (out, change) = merge(text, &want()).unwrap();
        assert_eq!(change, Change::Replaced);
        assert_eq!(
            out,
            "[mcp_servers.agent-lsp] # ours\ncommand = \"agent-lsp\"\nargs = [\"mcp\"]\n\n[tui]\nanimations = false\n"
        );
        let e = merge("\nmcp_servers = 3\n", &want()).unwrap_err();
        assert_eq!(
            e,
            "2:1: `mcp_servers` is a number, not a table: agent-lsp's entry cannot go into it"
        );
        let e = merge("model = \n", &want()).unwrap_err();
        assert!(e.starts_with("1:"), "{e}");
        let append = Want {
            place: Place::Append { ours: |_| true },
            ..want()
        };
        assert!(merge("", &append).is_err());
    }
}
