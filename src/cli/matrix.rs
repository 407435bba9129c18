//! `agent-lsp explain --matrix` (every agent against every permission key) and `--graph` (which
//! agent may start which subagent). The decisions come from the analysis layer
//! ([`EffectiveAgent::catch_all`], [`EffectiveAgent::may_start`], [`claude::card::starts`]); this
//! module only lays them out.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::analysis::opencode::effective::EffectiveAgent;
use crate::analysis::{claude, copilot};

/// A Claude Code agent of the view: its registered name and what the loader built.
pub type ClaudeAgent<'a> = (&'a str, &'a claude::Agent);

/// A Copilot custom agent: its name and what its file declares.
pub type CopilotAgent<'a> = (&'a str, &'a copilot::CopilotFile);

/// The tool sets of Copilot's matrix, in the order of its columns.
const COPILOT_SETS: &[&str] = &["edit", "execute", "read", "search", "web", "agent", "todo"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    Mermaid,
    Dot,
    Json,
}

/// The permission keys the agents' rules name (the wildcard key `*` left out), sorted.
fn permission_keys(agents: &[EffectiveAgent]) -> Vec<String> {
    let mut keys: Vec<String> = agents
        .iter()
        .flat_map(|a| a.permission.iter().map(|r| r.permission.clone()))
        .filter(|k| k != "*")
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The tools the Claude agents' `tools` and `disallowedTools` name: bare tool names (`Task` is
/// `Agent`) and exact MCP entries; unknown names and wildcards left out.
fn claude_tools(agents: &[ClaudeAgent]) -> Vec<String> {
    let mut tools: Vec<String> = Vec::new();
    for (_, a) in agents {
        let lists = [&a.tools, &a.disallowed];
        for item in lists.into_iter().flatten().flat_map(|l| l.items()) {
            let t = if item.text.starts_with("mcp__") {
                item.text.clone()
            } else {
                match claude::tools::parts(&item.text).0 {
                    "Task" => "Agent".to_string(),
                    bare => bare.to_string(),
                }
            };
            let known = t.starts_with("mcp__") || claude::schema::TOOLS.contains(&t.as_str());
            if known && !t.contains('*') && !tools.contains(&t) {
                tools.push(t);
            }
        }
    }
    tools.sort();
    tools
}

/// One table: a first column of row names, then one column per header.
struct Table {
    corner: &'static str,
    headers: Vec<String>,
    rows: Vec<(String, Vec<String>)>,
}

fn width_of(s: &str) -> usize {
    s.chars().count()
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width_of(s))))
}

/// Lay the table out within `width` columns: when the whole table is wider, the columns are
/// split into several tables stacked one under the other, each repeating the first column.
/// Every cell is padded, so all lines of one table have the same width.
fn render_table(t: &Table, width: usize) -> String {
    const GAP: usize = 2;
    let first = t
        .rows
        .iter()
        .map(|(n, _)| width_of(n))
        .chain([width_of(t.corner)])
        .max()
        .unwrap_or(0);
    let col_w: Vec<usize> = (0..t.headers.len())
        .map(|i| {
            t.rows
                .iter()
                .map(|(_, cells)| width_of(&cells[i]))
                .chain([width_of(&t.headers[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    // Greedy chunks of columns; a column too wide on its own still gets a table.
    let mut chunks: Vec<Vec<usize>> = Vec::new();
    let mut used = first;
    for (i, cw) in col_w.iter().enumerate() {
        let w = GAP + cw;
        match chunks.last_mut() {
            Some(c) if used + w <= width => c.push(i),
            _ => {
                chunks.push(vec![i]);
                used = first;
            }
        }
        used += w;
    }
    if chunks.is_empty() {
        chunks.push(Vec::new());
    }
    let mut out = String::new();
    for (n, chunk) in chunks.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let line = |name: &str, cells: &dyn Fn(usize) -> String| {
            let mut l = pad(name, first);
            for &i in chunk {
                l.push_str(&" ".repeat(GAP));
                l.push_str(&pad(&cells(i), col_w[i]));
            }
            // No trailing spaces (a last cell narrower than its column).
            l.truncate(l.trim_end().len());
            l
        };
        let _ = writeln!(out, "{}", line(t.corner, &|i| t.headers[i].clone()));
        for (name, cells) in &t.rows {
            let _ = writeln!(out, "{}", line(name, &|i| cells[i].clone()));
        }
    }
    out
}

/// Word-wrap prose to `width` columns.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && width_of(&line) + 1 + width_of(word) > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The matrix: opencode agents against permission keys, then Claude Code agents against tools,
/// then Copilot agents against tool sets. `width`: the terminal width for the human form.
pub fn matrix(
    agents: &[EffectiveAgent],
    claude_agents: &[ClaudeAgent],
    copilot_agents: &[CopilotAgent],
    json: bool,
    width: usize,
) -> String {
    let has_set = |f: &copilot::CopilotFile, set: &str| copilot::policy::grants(f, set).is_some();
    let keys = permission_keys(agents);
    let tools = claude_tools(claude_agents);
    if json {
        let mut m = Map::new();
        for a in agents {
            let row: Map<String, Value> = keys
                .iter()
                .map(|k| {
                    let (action, patterns) = a.catch_all(k);
                    (k.clone(), json!({"action": action, "patterns": patterns}))
                })
                .collect();
            m.insert(a.name.clone(), Value::Object(row));
        }
        let mut out = json!({
            "agents": agents.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
            "permissions": keys,
            "matrix": m,
        });
        if !claude_agents.is_empty() {
            let cm: Map<String, Value> = claude_agents
                .iter()
                .map(|(n, a)| {
                    let row: Map<String, Value> = tools
                        .iter()
                        .map(|t| (t.clone(), json!(claude::card::tool_allowed(a, t))))
                        .collect();
                    (n.to_string(), Value::Object(row))
                })
                .collect();
            out["claude"] = json!({
                "agents": claude_agents.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
                "tools": tools,
                "matrix": cm,
            });
        }
        if !copilot_agents.is_empty() {
            let cm: Map<String, Value> = copilot_agents
                .iter()
                .map(|(n, f)| {
                    let row: Map<String, Value> = COPILOT_SETS
                        .iter()
                        .map(|s| (s.to_string(), json!(has_set(f, s))))
                        .collect();
                    (n.to_string(), Value::Object(row))
                })
                .collect();
            out["copilot"] = json!({
                "agents": copilot_agents.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
                "tool_sets": COPILOT_SETS,
                "matrix": cm,
            });
        }
        return format!("{}\n", serde_json::to_string_pretty(&out).unwrap_or_default());
    }
    let mut out = String::new();
    if !agents.is_empty() {
        let table = Table {
            corner: "agent",
            headers: keys.clone(),
            rows: agents
                .iter()
                .map(|a| {
                    let cells = keys
                        .iter()
                        .map(|k| match a.catch_all(k) {
                            (action, 0) => action.to_string(),
                            (action, n) => format!("{action}+{n}"),
                        })
                        .collect();
                    (a.name.clone(), cells)
                })
                .collect(),
        };
        out.push_str("opencode: each agent's action for a call of each permission\n\n");
        out.push_str(&render_table(&table, width));
        out.push('\n');
        out.push_str(&wrap(
            "allow/ask/deny: the action for an input that only the catch-all `*` matches (the last \
             matching rule wins; ask when none matches). +N: N rules with other patterns decide \
             some inputs, e.g. `ask+3` = ask for `*`, 3 pattern rules refine it (see `agent-lsp \
             explain AGENT`, or `agent-lsp explain AGENT --check PERMISSION INPUT` for one input).",
            width,
        ));
    }
    if !claude_agents.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        let table = Table {
            corner: "agent",
            headers: tools.clone(),
            rows: claude_agents
                .iter()
                .map(|(n, a)| {
                    let cells = tools
                        .iter()
                        .map(|t| if claude::card::tool_allowed(a, t) { "yes" } else { "no" }.to_string())
                        .collect();
                    (n.to_string(), cells)
                })
                .collect(),
        };
        out.push_str("Claude Code: the tools each agent gets\n\n");
        out.push_str(&render_table(&table, width));
        out.push('\n');
        out.push_str(&wrap(
            "yes/no: whether the agent gets the tool (`tools` minus `disallowedTools`; no `tools` \
             means every tool of the conversation that starts it). Only tools some agent names \
             are shown.",
            width,
        ));
    }
    if !copilot_agents.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        let table = Table {
            corner: "agent",
            headers: COPILOT_SETS.iter().map(|s| s.to_string()).collect(),
            rows: copilot_agents
                .iter()
                .map(|(n, f)| {
                    let cells = COPILOT_SETS
                        .iter()
                        .map(|s| if has_set(f, s) { "yes" } else { "no" }.to_string())
                        .collect();
                    (n.to_string(), cells)
                })
                .collect(),
        };
        out.push_str("GitHub Copilot: the tool sets each agent has\n\n");
        out.push_str(&render_table(&table, width));
        out.push('\n');
        out.push_str(&wrap(
            "yes/no: whether the agent's `tools` give it the set (the set, one of its tools, an \
             alias, `*`; no `tools` means every tool). Whether VS Code asks before a use is its \
             user's settings, not the agent's file.",
            width,
        ));
    }
    out
}

struct Node {
    dialect: &'static str,
    name: String,
    mode: String,
    hidden: bool,
}

struct Edge {
    dialect: &'static str,
    from: String,
    to: String,
    action: String,
}

/// The agent graph: opencode edges where an agent's `task` permission for a subagent (mode
/// `subagent` or `all`, hidden included) is `allow` or `ask`; Claude Code edges from each
/// agent's `Agent(...)` entry, or to the node `*` when it may start any agent type. With
/// `collapse`, an opencode agent that may start every subagent with one action gets a single
/// edge to the node `*` (every subagent) instead of one edge per subagent. GitHub Copilot edges
/// from each custom agent's `agents` (subagents it may run, action `allow`) and its handoffs
/// (action `handoff`); a name no agent has is a node of its own, `unknown`.
fn build_graph(
    agents: &[EffectiveAgent],
    claude_agents: &[ClaudeAgent],
    copilot_agents: &[CopilotAgent],
    collapse: bool,
) -> (Vec<Node>, Vec<Edge>) {
    let mut nodes: Vec<Node> = agents
        .iter()
        .map(|a| Node {
            dialect: "opencode",
            name: a.name.clone(),
            mode: a.mode.value.clone(),
            hidden: a.hidden.value,
        })
        .collect();
    let mut edges = Vec::new();
    let targets: Vec<&EffectiveAgent> = agents.iter().filter(|a| a.mode.value != "primary").collect();
    let mut every = false;
    for a in agents {
        let starts: Vec<Edge> = targets
            .iter()
            .map(|t| (t, a.may_start(&t.name)))
            .filter(|(_, action)| *action == "allow" || *action == "ask")
            .map(|(t, action)| Edge {
                dialect: "opencode",
                from: a.name.clone(),
                to: t.name.clone(),
                action: action.to_string(),
            })
            .collect();
        if collapse
            && targets.len() > 1
            && starts.len() == targets.len()
            && starts.iter().all(|e| e.action == starts[0].action)
        {
            every = true;
            edges.push(Edge {
                to: "*".into(),
                ..starts.into_iter().next().expect("more than one target")
            });
        } else {
            edges.extend(starts);
        }
    }
    if every {
        nodes.push(Node {
            dialect: "opencode",
            name: "*".into(),
            mode: "any".into(),
            hidden: false,
        });
    }
    let claude_node = |name: &str, mode: &str| Node {
        dialect: "claude",
        name: name.to_string(),
        mode: mode.to_string(),
        hidden: false,
    };
    nodes.extend(claude_agents.iter().map(|(n, _)| claude_node(n, "subagent")));
    let mut extra: Vec<Node> = Vec::new();
    for (n, a) in claude_agents {
        let to: Vec<String> = match claude::card::starts(a) {
            claude::card::Starts::Nothing => Vec::new(),
            claude::card::Starts::Any => vec!["*".to_string()],
            claude::card::Starts::Only(types) => types,
        };
        for t in to {
            let known = t == "*" || claude_agents.iter().any(|(m, _)| *m == t);
            if !known && !extra.iter().any(|x| x.name == t) {
                let mode = if claude::schema::BUILTIN_AGENTS.iter().any(|(b, _)| *b == t) {
                    "built-in"
                } else {
                    "unknown"
                };
                extra.push(claude_node(&t, mode));
            }
            if t == "*" && !extra.iter().any(|x| x.name == "*") {
                extra.push(claude_node("*", "any"));
            }
            edges.push(Edge {
                dialect: "claude",
                from: n.to_string(),
                to: t,
                action: "allow".into(),
            });
        }
    }
    nodes.extend(extra);
    // GitHub Copilot: the subagents an agent's `agents` names (`*`: every custom agent) and its
    // handoffs (a button that hands the conversation on).
    let copilot_node = |name: &str, mode: &str| Node {
        dialect: "copilot",
        name: name.to_string(),
        mode: mode.to_string(),
        hidden: false,
    };
    nodes.extend(copilot_agents.iter().map(|(n, _)| copilot_node(n, "agent")));
    let mut extra: Vec<Node> = Vec::new();
    for (n, f) in copilot_agents {
        let subagents = f.agents.iter().flatten().map(|a| (a.name.as_str(), "allow"));
        let handoffs = f
            .handoffs
            .iter()
            .filter_map(|h| h.agent.as_ref())
            .map(|a| (a.name.as_str(), "handoff"));
        for (to, action) in subagents.chain(handoffs) {
            let known = copilot_agents.iter().any(|(m, _)| *m == to);
            if !known && !extra.iter().any(|x| x.name == to) {
                let mode = if to == "*" {
                    "any"
                } else if copilot::schema::BUILTIN_AGENTS.iter().any(|(b, _)| *b == to) {
                    "built-in"
                } else {
                    "unknown"
                };
                extra.push(copilot_node(to, mode));
            }
            edges.push(Edge {
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

fn node_label(n: &Node) -> String {
    match (n.name.as_str(), n.hidden) {
        ("*", _) if n.dialect == "claude" => "any agent type".into(),
        ("*", _) if n.dialect == "copilot" => "every custom agent".into(),
        (name, _) if n.mode == "unknown" => format!("{name} (no such agent)"),
        ("*", _) => "every subagent".into(),
        (name, true) => format!("{name} (hidden)"),
        (name, false) => name.to_string(),
    }
}

pub fn graph(
    agents: &[EffectiveAgent],
    claude_agents: &[ClaudeAgent],
    copilot_agents: &[CopilotAgent],
    format: GraphFormat,
) -> String {
    let (nodes, edges) = build_graph(agents, claude_agents, copilot_agents, format != GraphFormat::Json);
    let index = |dialect: &str, name: &str| {
        nodes
            .iter()
            .position(|n| n.dialect == dialect && n.name == name)
            .unwrap_or(0)
    };
    let mut out = String::new();
    match format {
        GraphFormat::Json => {
            let v = json!({
                "nodes": nodes.iter().map(|n| json!({"name": n.name, "mode": n.mode, "dialect": n.dialect, "hidden": n.hidden})).collect::<Vec<_>>(),
                "edges": edges.iter().map(|e| json!({"from": e.from, "to": e.to, "action": e.action, "dialect": e.dialect})).collect::<Vec<_>>(),
            });
            out = format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
        GraphFormat::Mermaid => {
            out.push_str("flowchart LR\n");
            let both = nodes.iter().any(|n| n.dialect != nodes[0].dialect);
            for d in crate::analysis::Dialect::ALL {
                let dialect = d.as_str();
                let group: Vec<(usize, &Node)> =
                    nodes.iter().enumerate().filter(|(_, n)| n.dialect == dialect).collect();
                if group.is_empty() {
                    continue;
                }
                let indent = if both { "    " } else { "  " };
                if both {
                    let _ = writeln!(out, "  subgraph {dialect}[\"{}\"]", d.product());
                }
                for (i, n) in group {
                    let label = node_label(n).replace('"', "#quot;");
                    let _ = writeln!(out, "{indent}n{i}[\"{label}\"]");
                }
                if both {
                    out.push_str("  end\n");
                }
            }
            for e in &edges {
                let (a, b) = (index(e.dialect, &e.from), index(e.dialect, &e.to));
                if e.action == "ask" {
                    let _ = writeln!(out, "  n{a} -. ask .-> n{b}");
                } else if e.action == "handoff" {
                    let _ = writeln!(out, "  n{a} == handoff ==> n{b}");
                } else {
                    let _ = writeln!(out, "  n{a} --> n{b}");
                }
            }
        }
        GraphFormat::Dot => {
            let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
            let id = |dialect: &str, name: &str| q(&format!("{dialect}:{name}"));
            out.push_str("digraph agents {\n  rankdir=LR;\n");
            for n in &nodes {
                let style = if n.hidden { ", style=dashed" } else { "" };
                let _ = writeln!(
                    out,
                    "  {} [label={}{style}];",
                    id(n.dialect, &n.name),
                    q(&node_label(n))
                );
            }
            for e in &edges {
                let attrs = match e.action.as_str() {
                    "ask" => " [label=\"ask\", style=dashed]",
                    "handoff" => " [label=\"handoff\", style=bold]",
                    _ => "",
                };
                let _ = writeln!(out, "  {} -> {}{attrs};", id(e.dialect, &e.from), id(e.dialect, &e.to));
            }
            out.push_str("}\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_nodes_are_labelled_by_dialect() {
        let node = |dialect: &'static str, name: &str, hidden: bool| Node {
            dialect,
            name: name.into(),
            mode: "subagent".into(),
            hidden,
        };
        // `*` is Claude Code's `Agent` without a type, opencode's `task: allow` for any subagent.
        assert_eq!(node_label(&node("claude", "*", false)), "any agent type");
        assert_eq!(node_label(&node("opencode", "*", false)), "every subagent");
        assert_eq!(node_label(&node("opencode", "scout", true)), "scout (hidden)");
        assert_eq!(node_label(&node("zuno", "fixer", false)), "fixer");
    }

    #[test]
    fn stacked_tables_fit_and_stay_aligned() {
        let t = Table {
            corner: "agent",
            headers: vec!["bash".into(), "external_directory".into(), "edit".into()],
            rows: vec![
                ("build".into(), vec!["allow".into(), "ask+2".into(), "allow".into()]),
                (
                    "a-long-agent-name".into(),
                    vec!["deny".into(), "ask".into(), "deny+1".into()],
                ),
            ],
        };
        let out = render_table(&t, 45);
        let tables: Vec<&str> = out.split("\n\n").collect();
        assert_eq!(tables.len(), 2, "{out}");
        expect_test::expect![[r#"
            agent              bash   external_directory
            build              allow  ask+2
            a-long-agent-name  deny   ask

            agent              edit
            build              allow
            a-long-agent-name  deny+1
        "#]]
        .assert_eq(&out);
        for table in tables {
            assert!(table.lines().all(|l| width_of(l) <= 45 && !l.ends_with(' ')), "{table}");
        }
        assert!(render_table(&t, 200).split("\n\n").count() == 1);
    }
}
