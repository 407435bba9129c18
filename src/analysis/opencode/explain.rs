//! What `explain` shows of opencode's effective agents beyond their cards: their row of the
//! permission matrix, their edges in the agent graph, and one permission question answered.

use serde_json::{Map, Value, json};

use super::effective::{EffectiveAgent, Rule};
use crate::analysis::agents::{GraphEdge, GraphNode, MatrixPart, MatrixTable};
use crate::analysis::provenance::WhereIs;
use crate::analysis::suggest;

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

/// The agents against the permission keys their rules name: the action for an input only the
/// catch-all matches, and how many pattern rules refine it. Its JSON is the matrix's top level.
pub fn matrix(agents: &[EffectiveAgent]) -> MatrixPart {
    let keys = permission_keys(agents);
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
    let json = json!({
        "agents": agents.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        "permissions": keys,
        "matrix": m,
    });
    let table = (!agents.is_empty()).then(|| MatrixTable {
        title: "opencode: each agent's action for a call of each permission",
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
        note: "allow/ask/deny: the action for an input that only the catch-all `*` matches (the last \
             matching rule wins; ask when none matches). +N: N rules with other patterns decide \
             some inputs, e.g. `ask+3` = ask for `*`, 3 pattern rules refine it (see `agent-lsp \
             explain AGENT`, or `agent-lsp explain AGENT --check PERMISSION INPUT` for one input).",
    });
    MatrixPart {
        json_key: None,
        json,
        table,
    }
}

/// The agent graph: an edge where an agent's `task` permission for a subagent (mode `subagent`
/// or `all`, hidden included) is `allow` or `ask`. With `collapse`, an agent that may start
/// every subagent with one action gets a single edge to the node `*` (every subagent).
pub fn graph(agents: &[EffectiveAgent], collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
    let node = |name: &str, mode: &str, hidden: bool| GraphNode::new("opencode", name, mode, hidden, "every subagent");
    let mut nodes: Vec<GraphNode> = agents
        .iter()
        .map(|a| node(&a.name, &a.mode.value, a.hidden.value))
        .collect();
    let mut edges = Vec::new();
    let targets: Vec<&EffectiveAgent> = agents.iter().filter(|a| a.mode.value != "primary").collect();
    let mut every = false;
    for a in agents {
        let starts: Vec<GraphEdge> = targets
            .iter()
            .map(|t| (t, a.may_start(&t.name)))
            .filter(|(_, action)| *action == "allow" || *action == "ask")
            .map(|(t, action)| GraphEdge {
                dialect: "opencode",
                from: a.name.clone(),
                to: t.name.clone(),
                action: action.to_string(),
            })
            .collect();
        match starts.first() {
            Some(first)
                if collapse
                    && targets.len() > 1
                    && starts.len() == targets.len()
                    && starts.iter().all(|e| e.action == first.action) =>
            {
                every = true;
                edges.push(GraphEdge {
                    to: "*".into(),
                    ..first.clone()
                });
            }
            _ => edges.extend(starts),
        }
    }
    if every {
        nodes.push(node("*", "any", false));
    }
    (nodes, edges)
}

/// An opencode permission rule as JSON, with where it is set.
pub fn rule_json(r: &Rule, where_is: WhereIs) -> Value {
    json!({
        "permission": r.permission,
        "pattern": r.pattern,
        "action": r.action,
        "source": where_is(r.source),
        "layer": r.layer.as_str(),
    })
}

/// `explain NAME --check PERMISSION INPUT --format json`: the action, the deciding rule and
/// where it is written, and whether opencode knows the permission.
pub fn check_json(agent: &EffectiveAgent, permission: &str, input: &str, where_is: WhereIs) -> Value {
    let (action, rule) = agent.evaluate(permission, input);
    let mut out = json!({"permission": permission, "input": input, "action": action, "rule": rule.map(|r| rule_json(r, where_is))});
    if let Some(near) = unknown_permission(agent, permission) {
        out["known_permission"] = json!(false);
        out["did_you_mean"] = json!(near);
    }
    out
}

/// The agent's answer to one permission question: the last matching rule of the merged agent.
/// A Claude Code tool or Zuno permission names opencode's key (`Bash` is `bash`), as `explain
/// --who` and the team policies read it.
pub fn decide(agent: &EffectiveAgent, permission: &str, input: &str, where_is: WhereIs) -> Value {
    let key = super::policy::permission_for(permission);
    let mut v = check_json(agent, &key, input, where_is);
    if key != permission {
        v["opencode_permission"] = json!(key);
    }
    let rule = v["rule"].clone();
    v["decided_by"] = json!(match rule.is_null() {
        true => "no rule matches: opencode asks".to_string(),
        false => format!(
            "`{}` \"{}\": {}",
            rule["permission"].as_str().unwrap_or(""),
            rule["pattern"].as_str().unwrap_or(""),
            rule["action"].as_str().unwrap_or(""),
        ),
    });
    v["where"] = rule.get("source").cloned().unwrap_or(Value::Null);
    if v.get("known_permission").is_some() {
        let near = v["did_you_mean"]
            .as_str()
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        v["note"] = json!(format!(
            "`{permission}` is no permission opencode knows and no rule of this agent names it{near}; only a custom or MCP tool of that name would be decided so"
        ));
    }
    v
}

/// `Some(near miss)` when `permission` is neither a permission key opencode knows nor named by
/// one of the agent's rules (a custom or MCP tool would be, or is matched by `*` only).
fn unknown_permission(agent: &EffectiveAgent, permission: &str) -> Option<Option<String>> {
    use super::schema;
    if schema::permission_key(permission).is_some() || agent.permission.iter().any(|r| r.permission == permission) {
        return None;
    }
    let names = schema::PERMISSION_KEYS.iter().map(|k| k.name).chain(
        agent
            .permission
            .iter()
            .map(|r| r.permission.as_str())
            .filter(|p| *p != "*"),
    );
    Some(suggest::closest(permission, names).map(str::to_string))
}
