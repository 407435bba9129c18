//! Navigation over agent names, from the indexed workspace (no I/O): where an agent is defined
//! and referenced, document and workspace symbols, and the edits of a rename.
//!
//! Definitions: a key under `agent`/`mode` in a config, a Markdown agent file (its frontmatter
//! `name` value when set). References: `default_agent`, a command's `agent`, a `task`
//! permission pattern, and `@name` in a Markdown prompt.

use crate::analysis::Dialect;
use crate::analysis::Span;
use crate::analysis::host::Host;
use crate::analysis::syntax::{Node, Value};
use crate::workspace::Workspace;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub file: usize,
    /// The name's text (inside quotes for quoted scalars).
    pub span: Span,
    pub definition: bool,
}

/// The span of the name inside a scalar's span (without its quotes).
fn inner(text: &str, span: Span) -> Span {
    let t = span.text(text);
    if t.len() >= 2 && (t.starts_with('"') && t.ends_with('"') || t.starts_with('\'') && t.ends_with('\'')) {
        Span::new(span.start as usize + 1, span.end as usize - 1)
    } else {
        span
    }
}

/// The definitions of what is under the cursor when it is no agent name (opencode: the skills
/// a `skill` permission pattern matches), as the file's dialect finds them.
pub fn other_definitions(ws: &Workspace, file: usize, offset: usize) -> Option<Vec<Occurrence>> {
    let defs = ws
        .files
        .get(file)?
        .kind
        .dialect()
        .spec()
        .other_definitions(ws, file, offset)?;
    Some(
        defs.into_iter()
            .map(|(id, span)| Occurrence {
                file: id,
                span: inner(&ws.files[id].text, span),
                definition: true,
            })
            .collect(),
    )
}

/// Every occurrence of every agent name in one file, with the name.
pub fn occurrences(ws: &Workspace, file: usize) -> Vec<(String, Occurrence)> {
    let f = &ws.files[file];
    if !f.live {
        return Vec::new();
    }
    let text = f.text.as_str();
    let mut out = Vec::new();
    let mut push = |name: &str, span: Span, definition: bool| {
        out.push((
            name.to_string(),
            Occurrence {
                file,
                span: inner(text, span),
                definition,
            },
        ))
    };
    if let Some(c) = f.analysis.command() {
        // A command file: its `agent` refers to an agent of its runtime.
        if let Some((name, span)) = &c.agent {
            push(name, *span, false);
        }
        return out;
    }
    if let Some(names) = ws.file(file).and_then(|h| f.kind.dialect().spec().agent_names(&h)) {
        for n in names {
            push(&n.name, n.span, n.definition);
        }
        return out;
    }
    out
}

/// The agent name under the cursor (a definition or a reference that names a known agent).
pub fn name_at(ws: &Workspace, file: usize, offset: usize) -> Option<(String, Span)> {
    let agents = known_agents(ws, ws.files[file].kind.dialect());
    occurrences(ws, file)
        .into_iter()
        .filter(|(n, o)| o.span.contains(offset) && (o.definition || agents.contains(n)))
        .map(|(n, o)| (n, o.span))
        .next()
}

/// Every agent name of one dialect defined somewhere in the workspace, plus its built-ins.
pub fn known_agents(ws: &Workspace, dialect: Dialect) -> Vec<String> {
    let mut names: Vec<String> = crate::analysis::builtin_agents(dialect)
        .into_iter()
        .map(str::to_string)
        .collect();
    for (id, f) in ws.files.iter().enumerate() {
        if !f.live || f.kind.dialect() != dialect {
            continue;
        }
        // The names its dialect says the file defines (a Claude Code plugin agent under
        // `plugin:name`, the name `Agent(...)` entries use).
        for (name, o) in occurrences(ws, id) {
            if o.definition && !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// All occurrences of `name` in the files of `dialect`, definitions first in file order.
pub fn find(ws: &Workspace, dialect: Dialect, name: &str) -> Vec<Occurrence> {
    let mut out: Vec<Occurrence> = (0..ws.files.len())
        .filter(|&id| ws.files[id].kind.dialect() == dialect)
        .flat_map(|id| occurrences(ws, id))
        .filter(|(n, _)| n == name)
        .map(|(_, o)| o)
        .collect();
    out.sort_by_key(|o| !o.definition);
    out
}

/// Definitions of `name` in the merge order of the view of `from` (later layers win).
pub fn definitions(ws: &Workspace, from: usize, name: &str) -> Vec<Occurrence> {
    let dialect = ws.files[from].kind.dialect();
    let view = dialect.spec().view_of_file(ws, from);
    let mut defs: Vec<Occurrence> = find(ws, dialect, name).into_iter().filter(|o| o.definition).collect();
    defs.sort_by_key(|o| view.iter().position(|&v| v == o.file).unwrap_or(usize::MAX));
    defs
}

/// One symbol of a document outline.
#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub agent: bool,
    pub span: Span,
    pub selection: Span,
    pub children: Vec<Symbol>,
}

/// The outline: agents (and commands) of a config; the keys of a frontmatter.
pub fn document_symbols(ws: &Workspace, file: usize) -> Vec<Symbol> {
    let f = &ws.files[file];
    let Some(root) = &f.analysis.parsed.root else {
        return Vec::new();
    };
    // The top-level keys whose entries are agents.
    let sections = f.kind.dialect().spec().agent_sections(&f.kind);
    fn walk(node: &Node, depth: usize, agent_level: Option<usize>, sections: &[&str]) -> Vec<Symbol> {
        let Value::Map(map) = &node.value else {
            return Vec::new();
        };
        map.entries
            .iter()
            .map(|e| {
                let is_agent = agent_level == Some(depth);
                let detail = match &e.value.value {
                    Value::Map(_) | Value::Seq(_) => None,
                    _ => Some(e.value.display()),
                };
                let next_agent_level = if depth == 0 && sections.contains(&e.key.name.as_str()) {
                    Some(1)
                } else {
                    agent_level
                };
                Symbol {
                    name: e.key.name.clone(),
                    detail,
                    agent: is_agent,
                    span: e.key.span.cover(e.value.span),
                    selection: e.key.span,
                    children: if depth < 3 {
                        walk(&e.value, depth + 1, next_agent_level, sections)
                    } else {
                        Vec::new()
                    },
                }
            })
            .collect()
    }
    walk(root, 0, None, sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Options;
    use std::fs;

    #[test]
    fn definitions_and_references() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        fs::create_dir_all(root.join(".opencode/agents/team")).unwrap();
        fs::write(
            root.join("opencode.json"),
            r#"{"default_agent": "team/lead", "agent": {"rev": {}}, "command": {"c": {"template": "t", "agent": "rev"}}, "permission": {"task": {"rev": "allow"}}}"#,
        )
        .unwrap();
        fs::write(
            root.join(".opencode/agents/rev.md"),
            "---\nmode: subagent\n---\nAsk @team/lead, not email@x.\n",
        )
        .unwrap();
        fs::write(
            root.join(".opencode/agents/team/lead.md"),
            "---\nmode: primary\n---\nDelegate to @rev.\n",
        )
        .unwrap();
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let cfg = ws.files.iter().position(|f| f.path.ends_with("opencode.json")).unwrap();
        let opencode = ws.files[cfg].kind.dialect();
        let refs = find(&ws, opencode, "rev");
        let texts: Vec<(&str, bool)> = refs
            .iter()
            .map(|o| (o.span.text(&ws.files[o.file].text), o.definition))
            .collect();
        assert_eq!(texts.iter().filter(|(_, d)| *d).count(), 2, "{texts:?}");
        assert_eq!(texts.iter().filter(|(t, d)| *t == "rev" && !d).count(), 3, "{texts:?}");
        let lead = find(&ws, opencode, "team/lead");
        assert_eq!(lead.iter().filter(|o| !o.definition).count(), 2);
        assert_eq!(lead.iter().filter(|o| o.definition).count(), 1);
        // The `email@x` is not a mention.
        assert!(find(&ws, opencode, "x").is_empty());
        let at = ws.files[cfg].text.find("team/lead").unwrap() + 2;
        assert_eq!(name_at(&ws, cfg, at).unwrap().0, "team/lead");
        let syms = document_symbols(&ws, cfg);
        let agent = syms.iter().find(|s| s.name == "agent").unwrap();
        assert!(agent.children[0].agent);
    }
}
