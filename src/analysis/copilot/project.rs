//! The checks across a workspace's Copilot files: the agents by name (duplicates), what names
//! them (a handoff's `agent`, a prompt's `agent`, an agent's `agents`) and the MCP servers an
//! agent's `tools` refer to (`server/*`), against the servers of `.vscode/mcp.json` and the
//! agent's own `mcp-servers`.

use std::collections::HashMap;

use super::schema;
use super::{CopilotFile, FileKind, Named};
use crate::analysis::diagnostic::{Diagnostic, Effect, Location, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;

/// How many unknown names of one workspace folder get a "did you mean".
const MAX_SUGGESTIONS: usize = 100;

/// One Copilot file of the workspace folder.
#[derive(Clone, Copy, Debug)]
pub struct ViewFile<'a> {
    pub file: usize,
    pub kind: &'a FileKind,
    pub facts: &'a CopilotFile,
}

/// The custom agents by name, in file order. When files share a name, the one whose file is
/// named after it (`planner.agent.md` for `planner`) holds it, else the first in path order; the
/// others are the duplicates.
pub fn registry<'a>(files: &[ViewFile<'a>]) -> Vec<(&'a str, ViewFile<'a>)> {
    let mut out: Vec<(&'a str, ViewFile<'a>)> = Vec::new();
    let mut at: HashMap<&'a str, usize> = HashMap::new();
    for f in files {
        if !matches!(f.kind, FileKind::Agent { .. }) {
            continue;
        }
        let name = f.facts.shown_name(f.kind);
        let named_after = |v: &ViewFile| v.kind.file_name() == Some(name);
        match at.get(name) {
            Some(&i) if !named_after(&out[i].1) && named_after(f) => out[i].1 = *f,
            Some(_) => {}
            None => {
                at.insert(name, out.len());
                out.push((name, *f));
            }
        }
    }
    out
}

/// Whether a `tools` entry's prefix names a tool set or an extension (`publisher.name/tool`)
/// rather than an MCP server.
fn is_mcp_reference(name: &str) -> Option<&str> {
    let (prefix, _) = name.split_once('/')?;
    if schema::TOOL_SETS.iter().any(|s| s.name == prefix) || prefix.contains('.') || prefix.is_empty() {
        return None;
    }
    Some(prefix)
}

/// The diagnostics of the checks across `files`, each with the id of the file it is on.
pub fn check(files: &[ViewFile]) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    let agents = registry(files);
    let by_name: HashMap<&str, &ViewFile> = agents.iter().map(|(n, v)| (*n, v)).collect();
    // Duplicate agent names: each file after the first of a name.
    for f in files.iter().filter(|f| matches!(f.kind, FileKind::Agent { .. })) {
        let name = f.facts.shown_name(f.kind);
        if let Some(first) = by_name.get(name)
            && first.file != f.file
        {
            let at = f.facts.name.as_ref().map_or(f.facts.anchor, |n| n.span);
            out.push((
                f.file,
                Diagnostic::new(
                    Code::DuplicateAgent,
                    at,
                    format!("another custom agent is already called `{name}`: VS Code lists one of them only"),
                )
                .with_related(
                    Location::File {
                        file: first.file,
                        span: first.facts.name.as_ref().map_or(first.facts.anchor, |n| n.span),
                    },
                    "the other agent of that name",
                ),
            ));
        }
    }
    let names: Vec<&str> = agents
        .iter()
        .map(|(n, _)| *n)
        .chain(schema::BUILTIN_AGENTS.iter().map(|(n, _)| *n))
        .collect();
    let known: std::collections::HashSet<&str> = names.iter().copied().collect();
    // "Did you mean" costs a pass over every name: given to the first references only, so that a
    // hostile workspace costs what a large one does.
    let suggestions = std::cell::Cell::new(0usize);
    let unknown_agent = |r: &Named, what: &str| -> Option<Diagnostic> {
        if known.contains(r.name.as_str()) {
            return None;
        }
        suggestions.set(suggestions.get() + 1);
        let near = if suggestions.get() <= MAX_SUGGESTIONS {
            suggest::closest(&r.name, names.iter().copied())
        } else {
            None
        };
        let mut d = Diagnostic::new(
            Code::UnknownAgent,
            r.span,
            format!(
                "no agent is called `{}` (the built-in `agent`, `ask`, `edit`, `plan`, or a custom agent of `.github/agents/`): {what}.{}",
                r.name,
                suggest::did_you_mean(near)
            ),
        );
        if let Some(n) = near {
            d = d.with_suggestion(r.span, n);
        }
        Some(d)
    };
    let servers: Vec<&str> = files
        .iter()
        .filter(|f| matches!(f.kind, FileKind::Mcp))
        .flat_map(|f| f.facts.mcp_servers.iter().map(|s| s.name.as_str()))
        .collect();
    let has_mcp_json = files.iter().any(|f| matches!(f.kind, FileKind::Mcp));
    for f in files {
        for h in &f.facts.handoffs {
            if let Some(a) = &h.agent
                && let Some(d) = unknown_agent(a, "VS Code shows no button for this handoff")
            {
                out.push((f.file, d));
            }
        }
        if let Some(a) = &f.facts.agent
            && let Some(d) = unknown_agent(a, "the prompt runs in the agent picked in the chat")
        {
            out.push((f.file, d));
        }
        for a in f.facts.agents.iter().flatten() {
            // `*`, a custom agent, or the built-in `agent` (the others cannot be subagents).
            if a.name == "*" || a.name == "agent" {
                continue;
            }
            if !by_name.contains_key(a.name.as_str()) && schema::BUILTIN_AGENTS.iter().any(|(n, _)| *n == a.name) {
                out.push((
                    f.file,
                    Diagnostic::new(
                        Code::UnknownAgent,
                        a.span,
                        format!(
                            "`{}` is a built-in agent, which cannot be run as a subagent: VS Code ignores the entry",
                            a.name
                        ),
                    )
                    .with_effect(Effect::ValueIgnored),
                ));
                continue;
            }
            if let Some(d) = unknown_agent(a, "it cannot be run as a subagent") {
                out.push((f.file, d));
            }
        }
        for t in f.facts.tools.iter().flatten() {
            let Some(server) = is_mcp_reference(&t.name) else {
                continue;
            };
            if servers.contains(&server) || f.facts.mcp_servers.iter().any(|s| s.name == server) {
                continue;
            }
            let mut all: Vec<&str> = servers.clone();
            all.extend(f.facts.mcp_servers.iter().map(|s| s.name.as_str()));
            let near = suggest::closest(server, all.iter().copied());
            let message = if has_mcp_json {
                format!(
                    "no MCP server is called `{server}`: neither `.vscode/mcp.json` nor this agent's `mcp-servers` declares it, so the entry gives no tool.{}",
                    suggest::did_you_mean(near)
                )
            } else {
                format!(
                    "no MCP server of this workspace is called `{server}` (there is no `.vscode/mcp.json`, and a server of your VS Code profile is not seen here): unless one is, the entry gives no tool"
                )
            };
            let mut d = Diagnostic::new(Code::UnknownMcpServer, t.span, message).with_effect(Effect::ValueIgnored);
            if !has_mcp_json {
                d = d.with_severity(Severity::Info);
            }
            if let Some(n) = near {
                let rest = &t.name[server.len()..];
                d = d.with_suggestion(t.span, format!("{n}{rest}"));
            }
            out.push((f.file, d));
        }
    }
    out
}

/// Where a Copilot file defines its agent: its `name`, else its first line.
pub fn source(f: &ViewFile) -> crate::analysis::provenance::Source {
    crate::analysis::provenance::Source::File {
        file: f.file,
        span: f.facts.name.as_ref().map_or(f.facts.anchor, |n| n.span),
    }
}
