//! Hover in opencode's files: the effective agent's card on an agent name (with what this file
//! changes of it), field and permission documentation, what a pattern rule decides (and who may
//! do what it covers, which the front end adds), every key of `opencode.json` and `tui.json`.

use super::{card, effective, permission};
use crate::analysis::Span;
use crate::analysis::host::Host;
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::Hover;
use crate::analysis::syntax::{Step, path_at};

/// The hover at byte `offset` of file `id`: `None` when it is none of opencode's files.
pub fn hover(host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
    let f = host.file(id)?;
    f.kind.opencode()?;
    if f.kind.is_tui() {
        // opencode's terminal settings: what the setting or keybind under the cursor does.
        return Some(super::tui::hover(&f.analysis.parsed, offset).map(|(text, span)| Hover::new(text, span)));
    }
    Some(own(host, id, offset, where_is))
}

fn own(host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Hover> {
    let f = host.file(id)?;
    let is_md = !f.kind.is_config();
    // On a Markdown file's delimiters: this file's agent.
    if is_md && let Some(fm) = f.analysis.split().and_then(|s| s.frontmatter.as_ref()) {
        for span in [Some(fm.open), fm.close].into_iter().flatten() {
            if span.contains(offset) {
                let name = f.analysis.agents().first()?.name.clone();
                return Some(Hover::new(agent_card(host, id, &name, where_is)?, span));
            }
        }
    }
    // A Markdown agent without a frontmatter opencode reads (none at all, or one after a blank
    // line): the card on the line where the agent is declared.
    if is_md
        && f.analysis.split().and_then(|s| s.frontmatter.as_ref()).is_none()
        && let Some(decl) = f.analysis.agents().first()
    {
        let start = f.text[..(decl.span.start as usize).min(f.text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let end = f.text[start..].find('\n').map_or(f.text.len(), |i| start + i);
        let line = Span::new(start, end.max(start));
        if (start..=end).contains(&offset) {
            let name = decl.name.clone();
            return Some(Hover::new(agent_card(host, id, &name, where_is)?, line));
        }
    }
    let root = f.analysis.parsed.root.as_ref()?;
    let path = path_at(root, offset);
    let last = path.last()?;
    let keys: Vec<&str> = path.iter().map(|s| s.key.name.as_str()).collect();
    // Where the agent settings start in this path: frontmatter at 0, `agent.X` at 2.
    let agent_base = if is_md {
        Some(0)
    } else if matches!(keys.first(), Some(&"agent") | Some(&"mode")) && keys.len() >= 2 {
        Some(2)
    } else {
        None
    };
    // Agent names.
    if !is_md && keys.len() == 2 && matches!(keys[0], "agent" | "mode") && last.on_key {
        return Some(Hover::new(agent_card(host, id, keys[1], where_is)?, last.key.span));
    }
    if !is_md && keys == ["default_agent"] && !last.on_key {
        let name = last.value.as_str()?;
        return Some(Hover::new(agent_card(host, id, name, where_is)?, last.value.span));
    }
    if !is_md && keys.len() == 3 && keys[0] == "command" && keys[2] == "agent" && !last.on_key {
        let name = last.value.as_str()?;
        return Some(Hover::new(agent_card(host, id, name, where_is)?, last.value.span));
    }
    if is_md && keys == ["name"] && !last.on_key {
        let name = f.analysis.agents().first()?.name.clone();
        return Some(Hover::new(agent_card(host, id, &name, where_is)?, last.value.span));
    }
    // Permission blocks: top-level, or an agent's.
    let perm_at = if keys.first() == Some(&"permission") && !is_md {
        Some(0)
    } else {
        agent_base.filter(|b| keys.get(*b) == Some(&"permission"))
    };
    if let Some(p) = perm_at {
        let rel = &path[p..];
        match rel.len() {
            2 if last.on_key => {
                return Some(Hover::new(card::permission_doc(&last.key.name)?, last.key.span));
            }
            3 if last.on_key => {
                let perm = rel[1].key.name.as_str();
                let pattern = last.key.name.as_str();
                if perm == "task"
                    && let Some(c) = agent_card(host, id, pattern, where_is)
                {
                    return Some(Hover::new(c, last.key.span));
                }
                let text = pattern_hover(&rel[0], perm, pattern)?;
                return Some(Hover {
                    text,
                    span: last.key.span,
                    who_may: Some((perm.to_string(), pattern.to_string())),
                });
            }
            _ => {}
        }
    }
    // Field keys of an agent.
    if let Some(b) = agent_base
        && path.len() == b + 1
        && last.on_key
    {
        return Some(Hover::new(card::field_doc(&last.key.name)?, last.key.span));
    }
    // Every other key of the config, and its value: what the field does and takes.
    if !is_md && agent_base.is_none() {
        let doc = super::config_schema::hover(&keys)?;
        let span = if last.on_key { last.key.span } else { last.value.span };
        return Some(Hover::new(doc, span));
    }
    None
}

/// The explanation of one pattern rule, with the rules of its permission block.
fn pattern_hover(block: &Step, perm: &str, pattern: &str) -> Option<String> {
    let map = block.value.as_map()?;
    let rules = permission::compile(map);
    let triples: Vec<(&str, &str, &str)> = rules.iter().map(|r| (r.permission, r.pattern, r.action)).collect();
    let index = triples.iter().position(|(p, q, _)| *p == perm && *q == pattern)?;
    Some(crate::analysis::permission::pattern_doc(&triples, index))
}

/// The card of agent `name` as seen from file `id`, with what this file changed.
fn agent_card(host: &dyn Host, id: usize, name: &str, where_is: WhereIs) -> Option<String> {
    let view = super::views::view_of_file(host, id);
    let env = super::views::effective_env_for_file(host, Some(id));
    let after = effective::agents(&super::views::view_files(host, &view), &env);
    let agent = after.iter().find(|a| a.name == name)?;
    let without: Vec<usize> = view.iter().copied().filter(|&i| i != id).collect();
    let before = effective::agents(&super::views::view_files(host, &without), &env);
    let defines_here = agent
        .definitions
        .iter()
        .any(|s| matches!(s, crate::analysis::provenance::Source::File { file, .. } if *file == id));
    let changed = if defines_here {
        card::changes(before.iter().find(|a| a.name == name), agent, id)
    } else {
        Vec::new()
    };
    let start = super::views::project_dir_of_file(host, id)
        .or_else(|| host.roots().first().cloned())
        .unwrap_or_default();
    let paths = super::views::path_names(host, &start, &env);
    Some(card::card(agent, where_is, &changed, &paths, card::Detail::Hover))
}
