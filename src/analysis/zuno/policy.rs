//! A Zuno agent's rules for a team policy (`analysis/policy/`): its merged `permission.rules`
//! for the policy's permission, the last matching rule winning (§3.1). `allow_all` turns every
//! `ask` into `allow` and keeps the denials. What Zuno does when no rule matches is not in the
//! fact sheet: `ask` is assumed (`allow` under `allow_all`), and the ruleset says so.

use super::project::MergedAgent;
use crate::analysis::permission::wildcard_match;
use crate::analysis::policy::judge::{Ruleset, SourcedRule};
use crate::analysis::policy::solve::{Action, Order, Syntax};
use crate::analysis::provenance::Source;

/// The Zuno rule key a policy's `permission` names (`bash` and `Bash` are `shell`).
pub fn permission_for(name: &str) -> &str {
    match name {
        "bash" | "Bash" => "shell",
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "write" | "apply_patch" => "edit",
        "Read" => "read",
        "Glob" => "glob",
        "Grep" => "grep",
        "WebFetch" => "webfetch",
        "WebSearch" | "websearch" => "web_search",
        "Agent" | "Task" => "task",
        "TodoWrite" | "todowrite" => "todo_update",
        "Skill" => "skill",
        "AskUserQuestion" => "question",
        other => other,
    }
}

/// The tools a rule key governs (`edit` covers `write` and `apply_patch`).
fn tools_of(key: &str) -> Vec<&str> {
    match key {
        "edit" => vec!["edit", "write", "apply_patch"],
        other => vec![other],
    }
}

/// The ruleset of `agent` for the policy permission `name`.
pub fn ruleset(agent: &MergedAgent, name: &str) -> Ruleset {
    let key = permission_for(name);
    let listed = agent.list("tools");
    if agent.fields.contains_key("tools") && !tools_of(key).iter().any(|t| listed.iter().any(|l| l == t)) {
        // An exact allowlist of the tools the model sees, without this one.
        let source = agent.fields.get("tools").map_or(Source::BuiltIn, |(_, s)| *s);
        return Ruleset {
            rules: Vec::new(),
            syntax: Syntax::OpenCode,
            order: Order::LastMatch { default: Action::Deny },
            default_label: format!("`{key}` is not among the agent's `tools`"),
            default_source: source,
            home: None,
            root: None,
            note: None,
            assumed_default: false,
            unapplied: Vec::new(),
        };
    }
    let (mode, _) = super::card::rules(agent);
    // The permission block, else the agent's own definition (what a finding points at).
    let defined = agent
        .definitions
        .iter()
        .rev()
        .find(|s| matches!(s, Source::File { .. }))
        .copied();
    let source = agent
        .fields
        .get("permission")
        .map(|(_, s)| *s)
        .or(defined)
        .unwrap_or(Source::BuiltIn);
    let all = mode == "allow_all";
    let lift = |a: Action| if all && a == Action::Ask { Action::Allow } else { a };
    let rules = agent
        .rules
        .iter()
        .filter(|r| wildcard_match(key, &r.tool))
        .filter_map(|r| {
            let (tool, pattern, action) = (&r.tool, &r.pattern, &r.action);
            Some(SourcedRule {
                pattern: pattern.clone(),
                action: lift(Action::parse(action)?),
                source: r.source,
                label: match all && action == "ask" {
                    true => format!("`{tool}` \"{pattern}\": ask (allow under `allow_all`)"),
                    false => format!("`{tool}` \"{pattern}\": {action}"),
                },
            })
        })
        .collect();
    Ruleset {
        rules,
        syntax: Syntax::OpenCode,
        order: Order::LastMatch {
            default: lift(Action::Ask),
        },
        default_label: match all {
            true => format!("no rule of `{key}` matches: Zuno's `allow_all` mode allows"),
            false if agent.builtin && !agent.fields.contains_key("permission") => format!(
                "no rule of `{key}` matches: Zuno's built-in permissions for `{}` are not documented, `ask` is assumed",
                agent.name
            ),
            false => format!("no rule of `{key}` matches: Zuno asks (assumed; not in its documentation)"),
        },
        default_source: source,
        home: None,
        root: None,
        note: None,
        assumed_default: true,
        unapplied: Vec::new(),
    }
}
