//! Hover in Claude Code's files: an agent's card on its name, its delimiters and the agents it
//! names, field and tool documentation; the settings' rules with the agents they affect (and
//! who may run a Bash rule's commands, which the front end adds); the keys of plugin files,
//! `.mcp.json`, rules and output styles.

use std::path::Path;

use super::{card, project, schema};
use crate::analysis::Span;
use crate::analysis::host::{Host, HostFile};
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::Hover;
use crate::analysis::syntax::path_at;

/// The hover at byte `offset` of file `id`: `None` when it is none of Claude Code's files with
/// a hover of their own.
pub fn hover(host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
    let f = host.file(id)?;
    let k = f.kind;
    let mine = k.is_plugin_hooks()
        || k.memory() == Some(super::memory::MemoryFile::Rule)
        || k.output_style().is_some()
        || k.plugin_servers().is_some()
        || k.is_mcp_json()
        || k.manifest().is_some()
        || f.analysis.settings().is_some()
        || f.analysis.claude().is_some();
    mine.then(|| own(host, &f, id, offset, where_is))
}

fn plain(found: Option<(String, Span)>) -> Option<Hover> {
    found.map(|(text, span)| Hover::new(text, span))
}

fn own(host: &dyn Host, f: &HostFile, id: usize, offset: usize, where_is: WhereIs) -> Option<Hover> {
    if f.kind.is_plugin_hooks() {
        // A plugin's hooks: the same documentation as the settings' `hooks`.
        return plain(super::settings::hover(&f.analysis.parsed, offset));
    }
    if f.kind.memory() == Some(super::memory::MemoryFile::Rule) {
        // A rule of `.claude/rules/`: what its frontmatter's keys do.
        let reading = super::read::read(f.text);
        return plain(super::rules::hover(&reading, offset));
    }
    if let Some(origin) = f.kind.output_style() {
        // An output style: what its keys do, and the name Claude Code lists it under.
        let style = f.analysis.output_style()?;
        let stem = f.path.file_stem().map(|n| n.to_string_lossy()).unwrap_or_default();
        let listed = super::output_style::listed_name(origin, style, &stem);
        return plain(super::output_style::hover(f.text, offset, &listed));
    }
    if let Some(k) = f.kind.plugin_servers() {
        // A plugin's `.mcp.json`, `.lsp.json` or `monitors.json`: the key under the cursor.
        return plain(super::plugin::servers_file::hover(k, &f.analysis.parsed, offset));
    }
    if f.kind.is_mcp_json() {
        // `.mcp.json`: the server under the cursor, or the field and what it takes.
        return plain(super::mcp::hover(&f.analysis.parsed, offset));
    }
    if let Some(kind) = f.kind.manifest() {
        return plain(super::plugin::hover(kind, &f.analysis.parsed, offset));
    }
    if let Some(settings) = f.analysis.settings() {
        // On a permission rule: what it does, and the project's agents it applies to; elsewhere
        // what the setting under the cursor does.
        let Some(rule) = settings.rule_at(offset) else {
            return plain(super::settings::hover(&f.analysis.parsed, offset));
        };
        let mut md = super::settings::describe(rule);
        let mut who_may = None;
        // A rule of a voided file says so, with the line that voids it.
        if let Some(v) = &settings.voided {
            let line = f
                .index
                .line_col(f.text, v.span.start as usize, crate::analysis::Encoding::Utf8)
                .line
                + 1;
            md.push_str(&format!(
                "\n**Not applied**: Claude Code applies nothing of this file because of line {line} ({})\n",
                v.why.replace('`', "'")
            ));
        }
        let agents = super::views::agents_under_rule(host, id, rule);
        if agents.is_empty() {
            md.push_str("\nNo Claude Code agent of this project has the tool.\n");
        } else {
            let names: Vec<String> = agents.iter().map(|a| format!("`{a}`")).collect();
            md.push_str(&format!(
                "\nAffects these agents of the project (their tools include `{}`): {}\n",
                rule.tool,
                names.join(", ")
            ));
        }
        // A Bash rule's commands: who may run them, in every dialect (`git push:*` is `git push *`).
        if rule.tool == "Bash" {
            let spec = rule.specifier.as_deref().map(str::trim).unwrap_or("*");
            let pattern = match spec.strip_suffix(":*") {
                Some(stem) => format!("{stem} *"),
                None => spec.to_string(),
            };
            who_may = Some(("bash".to_string(), pattern));
        }
        return Some(Hover {
            text: md,
            span: rule.span,
            who_may,
        });
    }
    plain(agent_at(host, id, offset, where_is))
}

/// Hover in a Claude Code agent: the agent card on its name or delimiters and on `Agent(<type>)`
/// entries, field documentation on keys, tool documentation on tool entries.
fn agent_at(host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<(String, Span)> {
    let f = host.file(id)?;
    let c = f.analysis.claude()?;
    let dir = super::views::dir_of_file(host, id)?;
    if let Some(block) = &c.reading.block {
        for span in [block.open, block.close] {
            if span.contains(offset) {
                return Some((own_card_of(host, id, dir, where_is)?, span));
            }
        }
    }
    for (name, span) in &c.agent.agent_refs {
        if span.contains(offset) {
            if let Some(card) = card_of(host, dir, name, where_is) {
                return Some((card, *span));
            }
            let (_, doc) = schema::BUILTIN_AGENTS.iter().find(|(b, _)| b == name)?;
            return Some((format!("### `{name}`: built-in Claude Code agent\n\n{doc}\n"), *span));
        }
    }
    let root = f.analysis.parsed.root.as_ref()?;
    let path = path_at(root, offset);
    let last = path.last()?;
    if path.len() != 1 {
        return None;
    }
    let key = last.key.name.as_str();
    if last.on_key {
        let field = schema::field(key)?;
        // Said once, whether or not the field's documentation already says it.
        let plugin = if field.plugin_ignored && !field.doc.contains("Ignored for plugin agents") {
            " Ignored for plugin agents."
        } else {
            ""
        };
        return Some((
            format!("**`{key}`** (Claude Code agent field)\n\n{}{plugin}\n", field.doc),
            last.key.span,
        ));
    }
    if key == "name" {
        return Some((own_card_of(host, id, dir, where_is)?, last.value.span));
    }
    // A tool entry.
    let list = match key {
        "tools" => c.agent.tools.as_ref(),
        "disallowedTools" => c.agent.disallowed.as_ref(),
        _ => None,
    }?;
    let item = list.items().iter().find(|i| i.exact && i.span.contains(offset))?;
    let (name, _) = super::tools::parts(&item.text);
    let doc = if let Some(rest) = item.text.strip_prefix("mcp__") {
        let mut parts = rest.splitn(2, "__");
        let server = parts.next().unwrap_or("");
        match parts.next() {
            Some("*") => format!("Every tool of the MCP server `{server}`."),
            Some(tool) => format!("The tool `{tool}` of the MCP server `{server}`."),
            None if server == "*" => "Every MCP tool.".to_string(),
            None => format!("Every tool of the MCP server `{server}`."),
        }
    } else if schema::TOOLS.contains(&name) {
        let removed = if schema::SUBAGENT_REMOVED.contains(&name) {
            " Claude Code removes it from subagents; it is kept only when this agent runs as the main session (`--agent`)."
        } else {
            ""
        };
        format!("**`{name}`**: a built-in Claude Code tool.{removed}")
    } else if let Some((_, _, why)) = schema::legacy(name) {
        format!("**`{name}`**: {why}.")
    } else {
        return None;
    };
    Some((doc, item.span))
}

/// The card of the agent file `id` defines: the agent Claude Code runs under its registered
/// name (a plugin agent's is `plugin:name`) when it loads, else this file's agent with the reason
/// it is not loaded.
fn own_card_of(host: &dyn Host, id: usize, dir: &Path, where_is: WhereIs) -> Option<String> {
    let files = super::views::files(host);
    let this = files.iter().find(|f| f.file == id)?;
    if let Some(registered) = this.registered()
        && let Some(c) = card_of(host, dir, &registered, where_is)
    {
        return Some(c);
    }
    let name = this.agent.name.as_ref()?;
    let definer = card::Definer {
        location: where_is(crate::analysis::provenance::Source::File {
            file: id,
            span: this.agent.name_span,
        }),
        source: this.kind.source.label(),
    };
    Some(card::card(this.agent, name, &[definer]))
}

/// The card of Claude agent `name` as seen from the project directory `dir`.
fn card_of(host: &dyn Host, dir: &Path, name: &str, where_is: WhereIs) -> Option<String> {
    let files = super::views::files(host);
    let found = project::candidates(&files, dir, name);
    let first = found.first()?;
    let definers: Vec<card::Definer> = found
        .iter()
        .map(|f| card::Definer {
            location: where_is(crate::analysis::provenance::Source::File {
                file: f.file,
                span: f.agent.name_span,
            }),
            source: f.kind.source.label(),
        })
        .collect();
    // The project's settings rules for its tools, as `explain` shows them.
    let (rules, mode) = super::views::permission_rules(host, dir);
    let mode = mode.as_ref().map(|(m, s)| (m.as_str(), *s));
    let mut md = card::card(first.agent, name, &definers);
    md.push_str(&super::policy::settings_section(first.agent, &rules, mode, where_is));
    for (cause, why, lost) in super::views::voided_rules(host, dir) {
        md.push_str(&super::policy::voided_section(
            first.agent,
            cause,
            &why,
            &lost,
            where_is,
        ));
    }
    Some(md)
}
