//! Any dialect's agents as `explain`, the hover card, the matrix and the policies see them: the
//! agents one runtime builds from a start directory ([`AgentSet`]), each one behind [`Agent`]
//! (its card, JSON, rules and decisions), and each dialect's part of the permission matrix
//! (`--matrix`) and of the agent graph (`--graph`), as data the CLI lays out. The dialects fill
//! them in (their `agents.rs` and `explain.rs`); no dialect is named here.

use serde_json::Value;

use super::Dialect;
use super::card::PathNames;
use super::host::Host;
use super::policy::judge::Ruleset;
use super::provenance::{Source, WhereIs};

/// The agents one runtime builds from a start directory.
pub trait AgentSet {
    /// The agents the runtime offers, in the dialect's order (disabled ones left out).
    fn agents(&self) -> Vec<Explained<'_>>;
    /// The agent called `name`.
    fn find(&self, name: &str) -> Option<Explained<'_>> {
        self.agents().into_iter().find(|a| a.name == name)
    }
    /// Every name an agent has here (disabled ones included), for suggestions.
    fn names(&self) -> Vec<&str> {
        self.agents().into_iter().map(|a| a.name).collect()
    }
    /// The list for the terminal; `marked` says which agents to mark as having problems.
    fn listing(&self, where_is: WhereIs, marked: &dyn Fn(&Explained) -> bool) -> Listing;
    /// Its part of `explain --matrix`.
    fn matrix(&self) -> Option<MatrixPart> {
        None
    }
    /// Its part of `explain --graph` (`collapse`: one edge to `*` for an agent that may start
    /// every subagent alike).
    fn graph(&self, collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
        let _ = collapse;
        (Vec::new(), Vec::new())
    }
}

/// A runtime with no agents to show.
pub struct NoAgents;

impl AgentSet for NoAgents {
    fn agents(&self) -> Vec<Explained<'_>> {
        Vec::new()
    }

    fn listing(&self, _: WhereIs, _: &dyn Fn(&Explained) -> bool) -> Listing {
        Listing::Rows {
            detail: "mode",
            rows: Vec::new(),
        }
    }
}

/// One agent of one dialect, as `explain` shows it.
pub trait Agent {
    /// The files its definition rests on: those whose problems concern it.
    fn problem_files(&self) -> Vec<usize>;
    /// Its entry in the JSON list of agents (without its problems).
    fn list_json(&self, where_is: WhereIs) -> Value;
    /// Its card as JSON (without its problems).
    fn json(&self, where_is: WhereIs) -> Value;
    /// Its card, as Markdown, in full (`explain`).
    fn card(&self, where_is: WhereIs, paths: &PathNames) -> String;
    /// Its mode as its runtime reads it (`primary`, `subagent`, `all`); `None` for a runtime
    /// without modes.
    fn mode(&self) -> Option<&str> {
        None
    }
    /// Its rules for a policy's `permission`, one ruleset per tool it stands for (with the
    /// tool's name), or `None` when its runtime has no such permission. `home` expands `~`.
    fn rulesets(&self, host: &dyn Host, permission: &str, home: Option<&str>) -> Option<Vec<(String, Ruleset)>>;
    /// Where it is defined last; `None` for a built-in agent no file touches.
    fn defined_at(&self) -> Option<Source>;
    /// Its own answer to one permission question, when its dialect answers it itself (`row`:
    /// the decision `explain --who` gives it); `None` for the dialects `explain --who` answers
    /// for.
    fn decide(
        &self,
        permission: &str,
        input: &str,
        row: &dyn Fn() -> Option<Value>,
        where_is: WhereIs,
    ) -> Option<Result<Value, String>> {
        let _ = (permission, input, row, where_is);
        None
    }
}

/// One agent with its dialect and the name it is registered under.
pub struct Explained<'a> {
    pub dialect: Dialect,
    pub name: &'a str,
    pub agent: Box<dyn Agent + 'a>,
}

impl Explained<'_> {
    pub fn problem_files(&self) -> Vec<usize> {
        self.agent.problem_files()
    }

    pub fn list_json(&self, where_is: WhereIs) -> Value {
        self.agent.list_json(where_is)
    }

    pub fn json(&self, where_is: WhereIs) -> Value {
        self.agent.json(where_is)
    }

    pub fn card(&self, where_is: WhereIs, paths: &PathNames) -> String {
        self.agent.card(where_is, paths)
    }

    pub fn mode(&self) -> Option<&str> {
        self.agent.mode()
    }

    pub fn rulesets(&self, host: &dyn Host, permission: &str, home: Option<&str>) -> Option<Vec<(String, Ruleset)>> {
        self.agent.rulesets(host, permission, home)
    }

    pub fn defined_at(&self) -> Option<Source> {
        self.agent.defined_at()
    }

    pub fn decide(
        &self,
        permission: &str,
        input: &str,
        row: &dyn Fn() -> Option<Value>,
        where_is: WhereIs,
    ) -> Option<Result<Value, String>> {
        self.agent.decide(permission, input, row, where_is)
    }
}

/// How a dialect lists its agents for the terminal.
pub enum Listing {
    /// As the dialect renders its list (opencode's, like `opencode agent list`).
    Text(String),
    /// One row per agent, under the heading of the second column.
    Rows { detail: &'static str, rows: Vec<ListRow> },
}

/// One agent in a [`Listing::Rows`].
pub struct ListRow {
    pub name: String,
    /// Zuno's mode, Claude Code's model.
    pub detail: String,
    pub defined_in: String,
    /// The whole description (the CLI cuts it).
    pub description: Option<String>,
}

/// The files among `definitions` (not the built-in).
pub fn files_of(definitions: &[Source]) -> Vec<usize> {
    definitions
        .iter()
        .filter_map(|s| match *s {
            Source::File { file, .. } => Some(file),
            Source::BuiltIn => None,
        })
        .collect()
}

/// The last of `definitions` that is a file's.
pub fn last_file(definitions: &[Source]) -> Option<Source> {
    definitions
        .iter()
        .rev()
        .find(|s| matches!(s, Source::File { .. }))
        .copied()
}

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

    #[test]
    fn the_files_a_definition_rests_on_leave_the_built_in_out() {
        use crate::analysis::Span;
        let at = |file| Source::File {
            file,
            span: Span::new(0, 1),
        };
        let defs = [Source::BuiltIn, at(3), at(7), Source::BuiltIn];
        assert_eq!(files_of(&defs), [3, 7]);
        assert_eq!(last_file(&defs), Some(at(7)));
        assert_eq!(last_file(&[Source::BuiltIn]), None);
        assert!(files_of(&[Source::BuiltIn]).is_empty());
    }
}
