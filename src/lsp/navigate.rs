//! Navigation over agent names, from the indexed workspace (no I/O): where an agent is defined
//! and referenced, document and workspace symbols, and the edits of a rename.
//!
//! Definitions: a key under `agent`/`mode` in a config, a Markdown agent file (its frontmatter
//! `name` value when set). References: `default_agent`, a command's `agent`, a `task`
//! permission pattern, and `@name` in a Markdown prompt.

use crate::analysis::Dialect;
use crate::analysis::Span;
use crate::analysis::host::Host;
use crate::analysis::opencode::DeclOrigin;
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

/// The `skill` permission pattern under `offset` in an opencode file (a key of a `skill` map under
/// `permission`, at the top of a config, in an `agent`/`mode` entry, or in a Markdown agent's
/// frontmatter), with its span.
pub fn skill_pattern_at(ws: &Workspace, file: usize, offset: usize) -> Option<(String, Span)> {
    let f = &ws.files[file];
    // `tui.json` has no permissions (a `permission` key there is dropped).
    if f.kind.opencode().is_none() || f.kind.is_tui() || f.kind.is_theme() {
        return None;
    }
    let root = f.analysis.parsed.root.as_ref()?;
    let path = crate::analysis::syntax::path_at(root, offset);
    let names: Vec<&str> = path.iter().map(|s| s.key.name.as_str()).collect();
    let last = path.last().filter(|s| s.on_key)?;
    let prefix_ok = match names.as_slice() {
        ["permission", "skill", _] => true,
        ["agent" | "mode", _, "permission", "skill", _] => f.kind.is_config(),
        _ => false,
    };
    prefix_ok.then(|| (last.key.name.clone(), inner(&f.text, last.key.span)))
}

/// The `SKILL.md` files whose skill a `skill` permission pattern of file `from` matches, among
/// those opencode loads for that file's project.
pub fn skill_definitions(ws: &Workspace, from: usize, pattern: &str) -> Vec<Occurrence> {
    let Some(dir) = ws.project_dir_of_file(from) else {
        return Vec::new();
    };
    ws.opencode_skills(&dir)
        .into_iter()
        .filter(|(name, _)| crate::analysis::permission::wildcard_match(name, pattern))
        .filter_map(|(_, id)| {
            let id = id?;
            let span = ws.files[id].analysis.skill()?.span;
            Some(Occurrence {
                file: id,
                span: inner(&ws.files[id].text, span),
                definition: true,
            })
        })
        .collect()
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
    for decl in f.analysis.agents() {
        match decl.origin {
            DeclOrigin::AgentKey | DeclOrigin::ModeKey => push(&decl.name, decl.span, true),
            DeclOrigin::Markdown | DeclOrigin::ModeFile => {
                // The frontmatter `name` value, else the opening `---` of the file.
                push(&decl.name, decl.span, true);
            }
        }
    }
    let Some(root) = f.analysis.parsed.root.as_ref().and_then(Node::as_map) else {
        return out;
    };
    let task_patterns = |perm: Option<&Node>, push: &mut dyn FnMut(&str, Span, bool)| {
        if let Some(task) = perm
            .and_then(Node::as_map)
            .and_then(|p| p.value("task"))
            .and_then(Node::as_map)
        {
            for e in task.entries.iter() {
                push(&e.key.name, e.key.span, false);
            }
        }
    };
    if f.kind.is_config() {
        if let Some(v) = root.value("default_agent")
            && let Some(name) = v.as_str()
        {
            push(name, v.span, false);
        }
        if let Some(commands) = root.value("command").and_then(Node::as_map) {
            for c in commands.entries.iter() {
                if let Some(v) = c.value.as_map().and_then(|m| m.value("agent"))
                    && let Some(name) = v.as_str()
                {
                    push(name, v.span, false);
                }
            }
        }
        task_patterns(root.value("permission"), &mut push);
        for section in ["agent", "mode"] {
            if let Some(agents) = root.value(section).and_then(Node::as_map) {
                for a in agents.entries.iter() {
                    task_patterns(a.value.as_map().and_then(|m| m.value("permission")), &mut push);
                }
            }
        }
    } else {
        task_patterns(root.value("permission"), &mut push);
    }
    if f.kind.is_markdown()
        && let Some(split) = &f.analysis.split()
    {
        let body = split.body;
        let b = body.text(text);
        for (i, _) in b.match_indices('@') {
            let before = b[..i].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '`') {
                continue;
            }
            let name: String = b[i + 1..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '.'))
                .collect();
            let name = name.trim_end_matches(['.', '/']);
            if !name.is_empty() {
                let start = body.start as usize + i + 1;
                push(name, Span::new(start, start + name.len()), false);
            }
        }
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
        let own = ws.file(id).is_some_and(|h| dialect.spec().agent_names(&h).is_some());
        if own {
            // Claude Code agents under the names `Agent(...)` entries use (`plugin:name` for a
            // plugin agent); Zuno agents, which its analysis keeps apart from opencode's.
            for (name, o) in occurrences(ws, id) {
                if o.definition && !names.contains(&name) {
                    names.push(name);
                }
            }
        } else {
            for d in f.analysis.agents() {
                if !names.contains(&d.name) {
                    names.push(d.name.clone());
                }
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
    // opencode's views are the workspace's still: the dialects that merge otherwise say theirs.
    let view = match dialect.spec().view_of_file(ws, from) {
        v if v.is_empty() => ws.view_of_file(from),
        v => v,
    };
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
