//! What `explain` shows of GitHub Copilot's custom agents beyond their cards: their row of the
//! matrix (the tool sets each has) and their edges in the agent graph.

use serde_json::{Map, Value, json};

use super::CopilotFile;
use crate::analysis::agents::{GraphEdge, GraphNode, MatrixPart, MatrixTable};

/// The tool sets of Copilot's matrix, in the order of its columns.
const SETS: &[&str] = &["edit", "execute", "read", "search", "web", "agent", "todo"];

/// The custom agents (by name) against the tool sets: whether each has the set.
pub fn matrix(agents: &[(&str, &CopilotFile)]) -> Option<MatrixPart> {
    if agents.is_empty() {
        return None;
    }
    let has_set = |f: &CopilotFile, set: &str| super::policy::grants(f, set).is_some();
    let cm: Map<String, Value> = agents
        .iter()
        .map(|(n, f)| {
            let row: Map<String, Value> = SETS.iter().map(|s| (s.to_string(), json!(has_set(f, s)))).collect();
            (n.to_string(), Value::Object(row))
        })
        .collect();
    let json = json!({
        "agents": agents.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "tool_sets": SETS,
        "matrix": cm,
    });
    let table = MatrixTable {
        title: "GitHub Copilot: the tool sets each agent has",
        headers: SETS.iter().map(|s| s.to_string()).collect(),
        rows: agents
            .iter()
            .map(|(n, f)| {
                let cells = SETS
                    .iter()
                    .map(|s| if has_set(f, s) { "yes" } else { "no" }.to_string())
                    .collect();
                (n.to_string(), cells)
            })
            .collect(),
        note: "yes/no: whether the agent's `tools` give it the set (the set, one of its tools, an \
             alias, `*`; no `tools` means every tool). Whether VS Code asks before a use is its \
             user's settings, not the agent's file.",
    };
    Some(MatrixPart {
        json_key: Some("copilot"),
        json,
        table: Some(table),
    })
}

/// The agent graph: the subagents an agent's `agents` names (`*`: every custom agent, action
/// `allow`) and its handoffs (action `handoff`); a name no agent has is a node of its own.
pub fn graph(agents: &[(&str, &CopilotFile)]) -> (Vec<GraphNode>, Vec<GraphEdge>) {
    let node = |name: &str, mode: &str| GraphNode::new("copilot", name, mode, false, "every custom agent");
    let mut nodes: Vec<GraphNode> = agents.iter().map(|(n, _)| node(n, "agent")).collect();
    let mut edges = Vec::new();
    let mut extra: Vec<GraphNode> = Vec::new();
    for (n, f) in agents {
        let subagents = f.agents.iter().flatten().map(|a| (a.name.as_str(), "allow"));
        let handoffs = f
            .handoffs
            .iter()
            .filter_map(|h| h.agent.as_ref())
            .map(|a| (a.name.as_str(), "handoff"));
        for (to, action) in subagents.chain(handoffs) {
            let known = agents.iter().any(|(m, _)| *m == to);
            if !known && !extra.iter().any(|x| x.name == to) {
                let mode = if to == "*" {
                    "any"
                } else if super::schema::BUILTIN_AGENTS.iter().any(|(b, _)| *b == to) {
                    "built-in"
                } else {
                    "unknown"
                };
                extra.push(node(to, mode));
            }
            edges.push(GraphEdge {
                dialect: "copilot",
                from: n.to_string(),
                to: to.to_string(),
                action: action.into(),
            });
        }
    }
    nodes.extend(extra);
    (nodes, edges)
}
