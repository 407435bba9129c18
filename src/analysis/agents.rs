//! What `explain` shows of any dialect's agents beyond their cards: each dialect's part of the
//! permission matrix (`--matrix`) and of the agent graph (`--graph`), as data the CLI lays out.
//! The dialects fill them in (their `explain.rs`); no dialect is named here.

use serde_json::Value;

/// One dialect's part of `explain --matrix`.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixPart {
    /// Where its JSON goes: `None` merges its keys into the top level (opencode's, which is
    /// always there), else under this key.
    pub json_key: Option<&'static str>,
    pub json: Value,
    /// The table for the terminal; `None` when the dialect has no agent here.
    pub table: Option<MatrixTable>,
}

/// A dialect's table: its agents against what it decides for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixTable {
    /// The line above the table.
    pub title: &'static str,
    pub headers: Vec<String>,
    /// Each agent's name and its cells, one per header.
    pub rows: Vec<(String, Vec<String>)>,
    /// What the cells mean, below the table.
    pub note: &'static str,
}

/// An agent (or a name an agent may start) in `explain --graph`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// The dialect's `--dialect` name.
    pub dialect: &'static str,
    pub name: String,
    /// Its mode (`primary`, `subagent`, `all`), or what the name is (`built-in`, `unknown`,
    /// `any` for a wildcard).
    pub mode: String,
    pub hidden: bool,
    /// How the graph shows it.
    pub label: String,
}

impl GraphNode {
    /// A node labelled as the graphs of every dialect label it: a wildcard as `every`, a name
    /// no agent has as such, a hidden agent as hidden.
    pub fn new(dialect: &'static str, name: &str, mode: &str, hidden: bool, every: &str) -> GraphNode {
        let label = match (name, hidden) {
            ("*", _) => every.to_string(),
            (name, _) if mode == "unknown" => format!("{name} (no such agent)"),
            (name, true) => format!("{name} (hidden)"),
            (name, false) => name.to_string(),
        };
        GraphNode {
            dialect,
            name: name.to_string(),
            mode: mode.to_string(),
            hidden,
            label,
        }
    }
}

/// That agent `from` may start agent `to` (`action`: `allow`, `ask`, or `handoff`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    pub dialect: &'static str,
    pub from: String,
    pub to: String,
    pub action: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_nodes_are_labelled_as_their_dialect_says() {
        let label =
            |name: &str, mode: &str, hidden: bool, every: &str| GraphNode::new("d", name, mode, hidden, every).label;
        // `*` is each dialect's own wildcard: Claude Code's `Agent` without a type, opencode's
        // `task: allow` for any subagent.
        assert_eq!(label("*", "any", false, "any agent type"), "any agent type");
        assert_eq!(label("*", "any", false, "every subagent"), "every subagent");
        assert_eq!(label("scout", "subagent", true, "x"), "scout (hidden)");
        assert_eq!(label("ghost", "unknown", false, "x"), "ghost (no such agent)");
        assert_eq!(label("fixer", "subagent", false, "x"), "fixer");
    }
}
