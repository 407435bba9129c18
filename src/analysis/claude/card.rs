//! The Claude Code agent as Claude Code will run it, for hover and `agent-lsp explain`: name,
//! description, model (aliases explained), the effective tool set (`tools` minus
//! `disallowedTools`), permission mode, the other settings, and which file wins the name.
//! Locations are rendered by the caller, so this stays free of paths and I/O.

use std::fmt::Write as _;

use super::agent::{Agent, Status};
use super::schema;
use super::tools::List;

/// The tools the agent gets, as a sentence and as a list (`None`: every tool of the parent).
pub fn effective_tools(a: &Agent) -> (String, Option<Vec<String>>) {
    let denied: Vec<String> = match &a.disallowed {
        Some(List::Items(items)) => items.iter().map(|i| i.text.clone()).collect(),
        _ => Vec::new(),
    };
    let minus = |s: String| {
        if denied.is_empty() {
            s
        } else {
            format!(
                "{s}, minus {}",
                denied.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>().join(", ")
            )
        }
    };
    match &a.tools {
        None | Some(List::All(_)) => (minus("every tool of the conversation that starts it".into()), None),
        Some(List::Empty(_)) => ("none (an empty `tools`)".into(), Some(Vec::new())),
        Some(List::Items(items)) => {
            let mut kept: Vec<String> = Vec::new();
            for i in items {
                let (name, spec) = super::tools::parts(&i.text);
                // MCP entries as written; `Task` is `Agent` (its agent types kept); other
                // specifiers are dropped by the loader; legacy and unknown names give nothing.
                let canonical = if i.text.starts_with("mcp__") {
                    i.text.clone()
                } else if name == "Agent" || name == "Task" {
                    spec.map_or("Agent".to_string(), |s| format!("Agent({s})"))
                } else if schema::TOOLS.contains(&name) {
                    name.to_string()
                } else {
                    continue;
                };
                if !removed(&denied, &canonical) && !kept.contains(&canonical) {
                    kept.push(canonical);
                }
            }
            let shown = if kept.is_empty() {
                "none: no entry names a tool, so Claude Code refuses to start it".to_string()
            } else {
                kept.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
            };
            (shown, Some(kept))
        }
    }
}

/// Whether a `disallowedTools` entry removes the tool entry `canonical` (`Agent(x)` is removed
/// by `Agent` or by itself; `mcp__srv` removes the server's tools).
fn removed(denied: &[String], canonical: &str) -> bool {
    let bare = super::tools::parts(canonical).0;
    denied.iter().any(|d| {
        d == canonical
            || d == bare
            || (d == "mcp__*" && canonical.starts_with("mcp__"))
            || (d.starts_with("mcp__") && canonical.starts_with(&format!("{d}__")))
    })
}

/// Whether the agent gets the tool `tool` (a bare name such as `Read` or `Agent`, or an MCP
/// entry): listed in its effective tools, or, without a `tools` restriction, not removed by
/// `disallowedTools`.
pub fn tool_allowed(a: &Agent, tool: &str) -> bool {
    match effective_tools(a).1 {
        Some(kept) => kept.iter().any(|k| k == tool || super::tools::parts(k).0 == tool),
        None => {
            let denied: Vec<String> = match &a.disallowed {
                Some(List::Items(items)) => items.iter().map(|i| i.text.clone()).collect(),
                _ => Vec::new(),
            };
            !removed(&denied, tool)
        }
    }
}

/// Which agent types the agent may start through its `Agent` tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Starts {
    /// None: no `Agent` tool.
    Nothing,
    /// Any agent type: no `tools` restriction, or a plain `Agent`.
    Any,
    /// The types of its `Agent(a, b)` entry (the last one, the only one that applies).
    Only(Vec<String>),
}

/// The agent types `a` may start, from its effective tools.
pub fn starts(a: &Agent) -> Starts {
    if !tool_allowed(a, "Agent") {
        return Starts::Nothing;
    }
    let Some(kept) = effective_tools(a).1 else {
        return Starts::Any;
    };
    match kept.iter().rev().find(|k| super::tools::parts(k).0 == "Agent") {
        Some(entry) => {
            let types: Vec<String> = super::tools::agent_types(entry)
                .into_iter()
                .map(|(s, e)| entry[s..e].to_string())
                .collect();
            if types.is_empty() {
                Starts::Any
            } else {
                Starts::Only(types)
            }
        }
        None => Starts::Nothing,
    }
}

/// What a model value means. Without `model` the agent inherits, by default: said so, since an
/// explicit `model: inherit` is a different file (Claude Code lists the one with a model and
/// the other without).
pub fn model_text(a: &Agent) -> String {
    match a.setting("model") {
        None => "`inherit` (not set): the model of the conversation that starts it".into(),
        Some(m) => match schema::MODEL_ALIASES.iter().find(|(x, _)| *x == m.value) {
            Some((x, what)) => format!("`{x}`: {what}"),
            None => format!("`{}`", m.value),
        },
    }
}

/// One file that defines the name, for the "defined in" lines.
pub struct Definer {
    pub location: String,
    pub source: String,
}

/// The card in Markdown. `definers`: every file defining the name as seen from here, the
/// active one first.
pub fn card(a: &Agent, registered: &str, definers: &[Definer]) -> String {
    let mut out = String::new();
    let status = match &a.status {
        Status::Loaded => String::new(),
        Status::NotAgent(why) => format!(" (not an agent: {why})"),
        Status::Skipped(why) => format!(" (**not loaded**: {why})"),
    };
    let _ = writeln!(out, "### `{registered}`: Claude Code agent{status}");
    if let Some(d) = &a.description {
        let first: String = d.trim().lines().next().unwrap_or("").chars().take(300).collect();
        let _ = writeln!(out, "\n{first}");
    }
    let (tools, _) = effective_tools(a);
    let _ = writeln!(out, "\n- **tools**: {tools}");
    let setting = |out: &mut String, s: &crate::analysis::claude::agent::Setting| {
        let v: String = s.value.chars().take(120).collect();
        let _ = writeln!(out, "- **{}**: `{}`", s.key, v.replace('`', "'"));
    };
    // What the agent may do first: its tools, what is taken away, its permission mode.
    for s in a.settings.iter().filter(|s| s.key == "disallowedTools") {
        setting(&mut out, s);
    }
    let mode = a
        .setting("permissionMode")
        .map_or("`default` (not set)".to_string(), |m| format!("`{}`", m.value));
    let _ = writeln!(out, "- **permission mode**: {mode}");
    let _ = writeln!(out, "- **model**: {}", model_text(a));
    for s in &a.settings {
        if !matches!(s.key, "model" | "permissionMode" | "disallowedTools") {
            setting(&mut out, s);
        }
    }
    if let Some((first, rest)) = definers.split_first() {
        let _ = writeln!(out, "\nDefined in {} ({}).", first.location, first.source);
        for d in rest {
            let _ = writeln!(out, "Shadowed: {} ({}).", d.location, d.source);
        }
    }
    out
}

/// The fields that show Claude Code's default because the file does not set them: `model`
/// (`inherit`) and `permissionMode` (`default`), in the JSON's `unset`.
pub fn unset(a: &Agent) -> Vec<&'static str> {
    ["model", "permissionMode"]
        .into_iter()
        .filter(|k| a.setting(k).is_none())
        .collect()
}

/// The agent as JSON, for `explain --format json`. `model` and `permissionMode` are the values
/// the agent runs with; `unset` names those of them that are defaults, not set in the file.
pub fn json(a: &Agent, registered: &str, definers: &[Definer]) -> serde_json::Value {
    let (_, tools) = effective_tools(a);
    let mut settings = serde_json::Map::new();
    for s in a
        .settings
        .iter()
        .filter(|s| !matches!(s.key, "model" | "permissionMode"))
    {
        settings.insert(s.key.to_string(), serde_json::Value::String(s.value.clone()));
    }
    serde_json::json!({
        "dialect": "claude",
        "name": registered,
        "loaded": a.loaded(),
        "description": a.description,
        "model": a.setting("model").map_or("inherit".to_string(), |m| m.value.clone()),
        "permissionMode": a.setting("permissionMode").map_or("default".to_string(), |m| m.value.clone()),
        "unset": unset(a),
        "tools": tools,
        "settings": settings,
        "defined_in": definers.iter().map(|d| serde_json::json!({"location": d.location, "source": d.source})).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::claude::{AgentFile, analyze};

    fn agent(text: &str) -> Agent {
        analyze(&AgentFile::project("x"), text).1
    }

    #[test]
    fn the_effective_tool_set() {
        let a = agent(
            "---\nname: a\ndescription: d\ntools: Read, Task(x), LS, mcp__gh__issue, Grep\ndisallowedTools: Grep\n---\n",
        );
        assert_eq!(effective_tools(&a).1.unwrap(), ["Read", "Agent(x)", "mcp__gh__issue"]);
        let all = agent("---\nname: a\ndescription: d\ndisallowedTools: mcp__*\n---\n");
        assert_eq!(
            effective_tools(&all).0,
            "every tool of the conversation that starts it, minus `mcp__*`"
        );
        let none = agent("---\nname: a\ndescription: d\ntools:\n---\n");
        assert_eq!(effective_tools(&none).1.unwrap(), Vec::<String>::new());
        let bash = agent("---\nname: a\ndescription: d\ntools: Bash(git diff:*)\n---\n");
        assert_eq!(effective_tools(&bash).1.unwrap(), ["Bash"]);
    }

    #[test]
    fn tools_and_agent_types_it_may_start() {
        let a = agent("---\nname: a\ndescription: d\ntools: Read, Agent(x), Task(y, z)\n---\n");
        assert!(tool_allowed(&a, "Read") && tool_allowed(&a, "Agent") && !tool_allowed(&a, "Bash"));
        assert_eq!(starts(&a), Starts::Only(vec!["y".into(), "z".into()]));
        let all = agent("---\nname: a\ndescription: d\ndisallowedTools: Bash\n---\n");
        assert!(tool_allowed(&all, "Read") && !tool_allowed(&all, "Bash"));
        assert_eq!(starts(&all), Starts::Any);
        let plain = agent("---\nname: a\ndescription: d\ntools: Agent, Read\n---\n");
        assert_eq!(starts(&plain), Starts::Any);
        let none = agent("---\nname: a\ndescription: d\ntools: Read\n---\n");
        assert_eq!(starts(&none), Starts::Nothing);
        let denied = agent("---\nname: a\ndescription: d\ndisallowedTools: Agent\n---\n");
        assert_eq!(starts(&denied), Starts::Nothing);
    }

    #[test]
    fn the_card_says_what_runs() {
        let a = agent(
            "---\nname: rev\ndescription: Reviews code\nmodel: sonnet\npermissionMode: manual\ncolor: cyan\n---\n",
        );
        let c = card(
            &a,
            "rev",
            &[
                Definer {
                    location: "a.md:2".into(),
                    source: "project".into(),
                },
                Definer {
                    location: "~/b.md:2".into(),
                    source: "user".into(),
                },
            ],
        );
        assert_eq!(
            c,
            "### `rev`: Claude Code agent\n\nReviews code\n\n- **tools**: every tool of the conversation that starts it\n- **permission mode**: `default`\n- **model**: `sonnet`: the latest Sonnet model\n- **color**: `cyan`\n\nDefined in a.md:2 (project).\nShadowed: ~/b.md:2 (user).\n"
        );
    }

    /// Claude Code lists an agent without `model` with no model, and one with `model: inherit`
    /// (any case) with `inherit`: the card and the JSON keep the two apart.
    #[test]
    fn an_unset_model_is_shown_as_the_default() {
        let unset = agent("---\nname: a\ndescription: d\n---\n");
        let explicit = agent("---\nname: a\ndescription: d\nmodel: Inherit\npermissionMode: plan\n---\n");
        assert_eq!(
            model_text(&unset),
            "`inherit` (not set): the model of the conversation that starts it"
        );
        assert_eq!(
            model_text(&explicit),
            "`inherit`: the model of the conversation that starts the agent (the default)"
        );
        let (u, e) = (json(&unset, "a", &[]), json(&explicit, "a", &[]));
        assert_eq!(
            (&u["model"], &u["permissionMode"], &u["unset"]),
            (
                &serde_json::json!("inherit"),
                &serde_json::json!("default"),
                &serde_json::json!(["model", "permissionMode"])
            )
        );
        assert_eq!(
            (&e["model"], &e["permissionMode"], &e["unset"]),
            (
                &serde_json::json!("inherit"),
                &serde_json::json!("plan"),
                &serde_json::json!([])
            )
        );
        assert!(card(&unset, "a", &[]).contains("- **model**: `inherit` (not set): "));
    }
}
