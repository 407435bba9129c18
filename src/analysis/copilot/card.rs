//! The effective Copilot agent (or prompt, or instructions) for hover and `agent-lsp explain`:
//! which hosts read it, what it may use (each tool set spelt out, MCP servers with where they
//! are declared), which model, its handoffs and subagents, and where it is defined.
//! Locations are rendered by the caller.

use std::fmt::Write as _;

use serde_json::{Value as Json, json};

use super::project::ViewFile;
use super::schema;
use super::{CopilotFile, FileKind};
use crate::analysis::provenance::{Source, WhereIs};

/// What the card needs from the other files of the workspace.
pub struct Context<'a> {
    /// Every Copilot file of the workspace folder (the agents, `mcp.json`).
    pub files: &'a [ViewFile<'a>],
}

fn hosts(f: &CopilotFile) -> &'static str {
    match f.targets() {
        (true, false) => "VS Code only (`target: vscode`)",
        (false, true) => "GitHub.com's coding agent only (`target: github-copilot`)",
        _ => "VS Code and GitHub.com's coding agent",
    }
}

/// What one `tools` entry gives, in words.
pub fn tool_meaning(name: &str, cx: &Context, f: &CopilotFile, where_is: WhereIs) -> String {
    if name == schema::ALL_TOOLS {
        return "every tool".into();
    }
    if let Some(set) = schema::tool_set(name) {
        let alias = if set.name == name {
            String::new()
        } else {
            format!(" (GitHub.com's name for `{}`)", set.name)
        };
        let tools = if set.tools.is_empty() {
            String::new()
        } else {
            format!(": {}", set.tools.join(", "))
        };
        return format!("{}{alias}{tools}", set.doc.trim_end_matches('.'));
    }
    if let Some((prefix, rest)) = name.split_once('/') {
        if schema::TOOL_SETS.iter().any(|s| s.name == prefix) {
            return format!("one tool of the `{prefix}` set");
        }
        if prefix.contains('.') {
            return format!("the tool `{rest}` of the extension `{prefix}`");
        }
        let what = if rest == "*" {
            "every tool".to_string()
        } else {
            format!("the tool `{rest}`")
        };
        let declared = cx
            .files
            .iter()
            .filter(|v| matches!(v.kind, FileKind::Mcp))
            .find_map(|v| {
                v.facts.mcp_servers.iter().find(|s| s.name == prefix).map(|s| {
                    where_is(Source::File {
                        file: v.file,
                        span: s.span,
                    })
                })
            });
        return match declared {
            Some(at) => format!("{what} of the MCP server `{prefix}` ({at})"),
            None if f.mcp_servers.iter().any(|s| s.name == prefix) => {
                format!("{what} of the MCP server `{prefix}` (its own `mcp-servers`, GitHub.com)")
            }
            None => format!("{what} of the MCP server `{prefix}`, which no `.vscode/mcp.json` here declares"),
        };
    }
    if let Some((_, new)) = schema::RENAMED_TOOLS.iter().find(|(old, _)| *old == name) {
        return format!("the older name of `{new}`");
    }
    match schema::set_of_tool(name) {
        Some(set) => format!("one tool of the `{}` set (written `{}/{name}` now)", set.name, set.name),
        None => "not a tool Copilot knows: ignored".into(),
    }
}

/// The card of a Copilot file, as Markdown.
pub fn card(kind: &FileKind, f: &CopilotFile, defined: Source, cx: &Context, where_is: WhereIs) -> String {
    let mut out = String::new();
    let name = f.shown_name(kind);
    let title = match kind {
        FileKind::Agent {
            form: super::AgentForm::ChatMode,
            ..
        } => "GitHub Copilot custom agent (a chat mode file)",
        FileKind::Agent { .. } => "GitHub Copilot custom agent",
        FileKind::Prompt { .. } => "GitHub Copilot prompt file",
        FileKind::Instructions { .. } => "GitHub Copilot instructions",
        FileKind::RepoInstructions => "GitHub Copilot repository instructions",
        FileKind::Mcp => "VS Code MCP servers",
    };
    match kind {
        FileKind::Prompt { .. } => {
            let _ = writeln!(out, "### `/{name}`: {title}");
        }
        FileKind::RepoInstructions | FileKind::Mcp => {
            let _ = writeln!(out, "### {title}");
        }
        _ => {
            let _ = writeln!(out, "### `{name}`: {title}");
        }
    }
    if let Some(d) = &f.description {
        let _ = writeln!(out, "\n{}", d.trim());
    }
    match kind {
        FileKind::Agent { .. } => agent(&mut out, f, cx, where_is),
        FileKind::Prompt { .. } => {
            let runs_in = f
                .agent
                .as_ref()
                .map_or("the agent picked in the chat", |a| a.name.as_str());
            let _ = writeln!(
                out,
                "\n**Runs in**: `{runs_in}` (VS Code; GitHub.com does not read prompt files)"
            );
            tools(&mut out, f, cx, where_is);
            models(&mut out, f);
        }
        FileKind::Instructions { .. } => {
            if f.apply_to.is_empty() {
                let _ = writeln!(
                    out,
                    "\n**Applies to**: no file by itself (no `applyTo`): added when asked for, or when its description fits"
                );
            } else {
                let list = f
                    .apply_to
                    .iter()
                    .map(|p| format!("`{}`", p.name))
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = writeln!(out, "\n**Applies to**: {list}");
            }
            if !f.exclude_agent.is_empty() {
                let list = f
                    .exclude_agent
                    .iter()
                    .map(|p| format!("`{}`", p.name))
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = writeln!(out, "- **Not read by** GitHub.com's {list}");
            }
        }
        FileKind::RepoInstructions => {
            let _ = writeln!(
                out,
                "\nAdded to every Copilot chat request in this repository (VS Code, GitHub.com's coding agent and code review)."
            );
        }
        FileKind::Mcp => {
            let _ = writeln!(out, "\n**Servers**: {}", f.mcp_servers.len());
            for s in &f.mcp_servers {
                let _ = writeln!(
                    out,
                    "- `{}`: an agent's `tools` entry `{}/*` gives it its tools",
                    s.name, s.name
                );
            }
        }
    }
    if !matches!(kind, FileKind::Mcp | FileKind::RepoInstructions) {
        let _ = writeln!(out, "\nDefined in {}", where_is(defined));
    }
    out
}

fn tools(out: &mut String, f: &CopilotFile, cx: &Context, where_is: WhereIs) {
    match &f.tools {
        None => {
            let _ = writeln!(out, "\n**Tools**: every tool (no `tools`)");
        }
        Some(t) if t.is_empty() => {
            let _ = writeln!(out, "\n**Tools**: none (`tools: []`)");
        }
        Some(t) => {
            let _ = writeln!(out, "\n**Tools**: only these");
            for e in t {
                let _ = writeln!(out, "- `{}`: {}", e.name, tool_meaning(&e.name, cx, f, where_is));
            }
        }
    }
}

fn models(out: &mut String, f: &CopilotFile) {
    match f.models.as_slice() {
        [] => {
            let _ = writeln!(out, "\n**Model**: the one picked in the chat");
        }
        [one] => {
            let _ = writeln!(out, "\n**Model**: `{}`", one.name);
        }
        many => {
            let list = many
                .iter()
                .map(|m| format!("`{}`", m.name))
                .collect::<Vec<_>>()
                .join(", then ");
            let _ = writeln!(out, "\n**Model**: {list} (the first one available)");
        }
    }
}

fn agent(out: &mut String, f: &CopilotFile, cx: &Context, where_is: WhereIs) {
    let _ = writeln!(out, "\n**Read by**: {}", hosts(f));
    tools(out, f, cx, where_is);
    models(out, f);
    if !f.handoffs.is_empty() {
        let _ = writeln!(out, "\n**Handoffs** (VS Code):");
        for h in &f.handoffs {
            let label = h.label.as_deref().unwrap_or("(no label)");
            let to = h.agent.as_ref().map_or("(no agent)", |a| a.name.as_str());
            let known = cx
                .files
                .iter()
                .any(|v| matches!(v.kind, FileKind::Agent { .. }) && v.facts.shown_name(v.kind) == to)
                || schema::BUILTIN_AGENTS.iter().any(|(n, _)| *n == to);
            let missing = if known { "" } else { " (no such agent: no button)" };
            let send = if h.send == Some(true) { ", sent at once" } else { "" };
            let model = h.model.as_deref().map(|m| format!(", on `{m}`")).unwrap_or_default();
            let _ = writeln!(out, "- \"{label}\" → `{to}`{missing}{send}{model}");
        }
    }
    if let Some(a) = &f.agents {
        let list = if a.is_empty() {
            "none".to_string()
        } else {
            a.iter().map(|n| format!("`{}`", n.name)).collect::<Vec<_>>().join(", ")
        };
        let _ = writeln!(out, "\n**Subagents it may run**: {list}");
    }
    let listed = f.user_invocable != Some(false);
    let as_sub = f.model_invocation_disabled != Some(true);
    let _ = writeln!(
        out,
        "\n**Offered**: {}; {}",
        if listed {
            "in the agents list"
        } else {
            "not in the agents list (`user-invocable: false`)"
        },
        if as_sub {
            "other agents may run it as a subagent"
        } else {
            "never run as a subagent (`disable-model-invocation`)"
        }
    );
}

/// The card as JSON (`explain --json`).
pub fn json(kind: &FileKind, f: &CopilotFile, defined: Source, where_is: WhereIs) -> Json {
    let names = |v: &[super::Named]| v.iter().map(|n| n.name.clone()).collect::<Vec<_>>();
    let (vscode, github) = f.targets();
    json!({
        "dialect": "copilot",
        "name": f.shown_name(kind),
        "description": f.description,
        "hosts": { "vscode": vscode, "github": github },
        "tools": f.tools.as_deref().map(names),
        "model": names(&f.models),
        "handoffs": f.handoffs.iter().map(|h| json!({
            "label": h.label,
            "agent": h.agent.as_ref().map(|a| a.name.clone()),
            "prompt": h.prompt,
            "send": h.send.unwrap_or(false),
            "model": h.model,
        })).collect::<Vec<_>>(),
        "agents": f.agents.as_deref().map(names),
        "user_invocable": f.user_invocable.unwrap_or(true),
        "model_invocable": f.model_invocation_disabled != Some(true),
        "defined_in": [where_is(defined)],
    })
}
