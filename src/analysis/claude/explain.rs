//! What `explain` shows of Claude Code's agents beyond their cards: their row of the matrix
//! (the tools each gets), their edges in the agent graph, and one permission question
//! answered from the agent's tool grant.

use serde_json::{Map, Value, json};

use super::Agent;
use super::tools::List;
use crate::analysis::Span;
use crate::analysis::agents::{GraphEdge, GraphNode, MatrixPart, MatrixTable};
use crate::analysis::provenance::{Source, WhereIs};
use crate::analysis::suggest;

/// The tools the Claude agents' `tools` and `disallowedTools` name: bare tool names (`Task` is
/// `Agent`) and exact MCP entries; unknown names and wildcards left out.
fn tools(agents: &[(&str, &Agent)]) -> Vec<String> {
    let mut tools: Vec<String> = Vec::new();
    for (_, a) in agents {
        let lists = [&a.tools, &a.disallowed];
        for item in lists.into_iter().flatten().flat_map(|l| l.items()) {
            let t = if item.text.starts_with("mcp__") {
                item.text.clone()
            } else {
                match super::tools::parts(&item.text).0 {
                    "Task" => "Agent".to_string(),
                    bare => bare.to_string(),
                }
            };
            let known = t.starts_with("mcp__") || super::schema::TOOLS.contains(&t.as_str());
            if known && !t.contains('*') && !tools.contains(&t) {
                tools.push(t);
            }
        }
    }
    tools.sort();
    tools
}

/// The agents (by registered name) against the tools they name: whether each gets the tool.
pub fn matrix(agents: &[(&str, &Agent)]) -> Option<MatrixPart> {
    if agents.is_empty() {
        return None;
    }
    let tools = tools(agents);
    let cm: Map<String, Value> = agents
        .iter()
        .map(|(n, a)| {
            let row: Map<String, Value> = tools
                .iter()
                .map(|t| (t.clone(), json!(super::card::tool_allowed(a, t))))
                .collect();
            (n.to_string(), Value::Object(row))
        })
        .collect();
    let json = json!({
        "agents": agents.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "tools": tools,
        "matrix": cm,
    });
    let table = MatrixTable {
        title: "Claude Code: the tools each agent gets",
        headers: tools.clone(),
        rows: agents
            .iter()
            .map(|(n, a)| {
                let cells = tools
                    .iter()
                    .map(|t| if super::card::tool_allowed(a, t) { "yes" } else { "no" }.to_string())
                    .collect();
                (n.to_string(), cells)
            })
            .collect(),
        note: "yes/no: whether the agent gets the tool (`tools` minus `disallowedTools`; no `tools` \
             means every tool of the conversation that starts it). Only tools some agent names \
             are shown.",
    };
    Some(MatrixPart {
        json_key: Some("claude"),
        json,
        table: Some(table),
    })
}

/// The agent graph: an edge from each agent's `Agent(...)` entry, or to the node `*` when it
/// may start any agent type; a name no agent has is a node of its own (`built-in` or
/// `unknown`).
pub fn graph(agents: &[(&str, &Agent)]) -> (Vec<GraphNode>, Vec<GraphEdge>) {
    let node = |name: &str, mode: &str| GraphNode::new("claude", name, mode, false, "any agent type");
    let mut nodes: Vec<GraphNode> = agents.iter().map(|(n, _)| node(n, "subagent")).collect();
    let mut edges = Vec::new();
    let mut extra: Vec<GraphNode> = Vec::new();
    for (n, a) in agents {
        let to: Vec<String> = match super::card::starts(a) {
            super::card::Starts::Nothing => Vec::new(),
            super::card::Starts::Any => vec!["*".to_string()],
            super::card::Starts::Only(types) => types,
        };
        for t in to {
            let known = t == "*" || agents.iter().any(|(m, _)| *m == t);
            if !known && !extra.iter().any(|x| x.name == t) {
                let mode = if super::schema::BUILTIN_AGENTS.iter().any(|(b, _)| *b == t) {
                    "built-in"
                } else {
                    "unknown"
                };
                extra.push(node(&t, mode));
            }
            if t == "*" && !extra.iter().any(|x| x.name == "*") {
                extra.push(node("*", "any"));
            }
            edges.push(GraphEdge {
                dialect: "claude",
                from: n.to_string(),
                to: t,
                action: "allow".into(),
            });
        }
    }
    nodes.extend(extra);
    (nodes, edges)
}

/// Whether Claude Code agent `agent` (in file `file`) gets `tool`, and the sentence that says
/// where that is decided. For `Agent`, `input` is the agent type to start.
fn grant(agent: &Agent, file: usize, tool: &str, input: &str, where_is: WhereIs) -> Value {
    let at = |span: Span| where_is(Source::File { file, span });
    let granted = super::card::tool_allowed(agent, tool);
    // Which single entry decides: probe the agent with that entry alone.
    let deciding = |list: &Option<List>, grants: bool| -> Option<String> {
        let items = list.as_ref()?.items();
        items.iter().rev().find_map(|item| {
            let mut probe = agent.clone();
            let alone = Some(List::Items(vec![item.clone()]));
            if grants {
                (probe.tools, probe.disallowed) = (alone, None);
            } else {
                (probe.tools, probe.disallowed) = (None, alone);
            }
            (super::card::tool_allowed(&probe, tool) == grants).then(|| format!("`{}` ({})", item.text, at(item.span)))
        })
    };
    let (mut granted, mut why) = match (&agent.tools, granted) {
        (_, false) if deciding(&agent.disallowed, false).is_some() => (
            false,
            format!(
                "removed by `disallowedTools` entry {}",
                deciding(&agent.disallowed, false).unwrap_or_default()
            ),
        ),
        (None | Some(List::All(_)), true) => (
            true,
            format!(
                "no `tools` restriction: every tool of the conversation that starts it ({})",
                at(agent.name_span)
            ),
        ),
        (Some(List::Items(_)), true) => (
            true,
            format!(
                "listed in `tools`: {}",
                deciding(&agent.tools, true).unwrap_or_default()
            ),
        ),
        (Some(List::Empty(span)), _) => (false, format!("an empty `tools` gives no tool ({})", at(*span))),
        (Some(List::Items(items)), _) => (
            false,
            format!(
                "not in `tools` ({})",
                items.first().map(|i| at(i.span)).unwrap_or_else(|| at(agent.name_span))
            ),
        ),
        (_, false) => (false, format!("not granted ({})", at(agent.name_span))),
    };
    if tool == "Agent" && granted {
        if let super::card::Starts::Only(types) = super::card::starts(agent) {
            if !types.iter().any(|t| t == input) {
                granted = false;
                why = format!("{why}; its `Agent(...)` entry names only {}", types.join(", "));
            }
        }
    }
    json!({"tool": tool, "granted": granted, "decided_by": why})
}

/// A Claude Code agent's answer: its tool grant for the tools of `permission`, with the
/// decision `explain --who` gives (the grant, the project's settings rules, the mode).
///
/// `row` is the decision `explain --who` gives for the agent, as JSON; `None` when Claude Code
/// does not load it.
pub fn decide(
    (agent, file): (&Agent, usize),
    permission: &str,
    input: &str,
    row: Option<Value>,
    where_is: WhereIs,
) -> Result<Value, String> {
    let Some(tools) = super::policy::tools_for(permission) else {
        let near = suggest::closest(
            permission,
            [
                "bash",
                "edit",
                "read",
                "glob",
                "grep",
                "webfetch",
                "websearch",
                "task",
                "todowrite",
            ]
            .into_iter()
            .chain(super::schema::TOOLS.iter().copied()),
        );
        return Err(format!(
            "`{permission}` names no Claude Code tool: give an opencode permission key that maps to one (bash, edit, read, glob, grep, webfetch, websearch, task, todowrite) or a Claude Code tool name (Bash, Read, mcp__server__tool, ...).{}",
            suggest::did_you_mean(near)
        ));
    };
    let Some(row) = row else {
        return Err(format!(
            "Claude Code does not load the agent of {}, so it is never asked for a permission; `explain` says why",
            where_is(Source::File {
                file,
                span: agent.name_span
            })
        ));
    };
    let grants: Vec<Value> = tools.iter().map(|t| grant(agent, file, t, input, where_is)).collect();
    let mode = agent.setting("permissionMode").map(|s| s.value.clone());
    let mut v = row;
    v["tools"] = json!(grants);
    v["permission_mode"] = json!(mode);
    v["how_decided"] = json!(
        "Claude Code decides from the agent's tool grant (`tools`, `disallowedTools`: `tools` says which tool the agent has and where that is written), then the project's permission rules in .claude/settings.json and .claude/settings.local.json (deny first, then ask, then allow), then the permission mode; a specifier such as `Bash(git *)` in `tools` grants all of the tool"
    );
    Ok(v)
}
