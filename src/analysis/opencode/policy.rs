//! An opencode agent's rules for a team policy (`analysis/policy/`): the merged ruleset of the
//! effective agent (built-in defaults, config, Markdown) for the policy's permission, decided as
//! opencode decides, the last matching rule winning and `ask` when none matches (§6.4).

use super::effective::{EffectiveAgent, Rule};
use crate::analysis::policy::judge::{Ruleset, SourcedRule};
use crate::analysis::policy::solve::{Action, Order, Syntax};
use crate::analysis::provenance::Source;

/// The opencode permission a policy's `permission` names: itself, or the key a Claude Code tool
/// or a Zuno permission corresponds to (`Bash` and `shell` are `bash`; `mcp__s__t` is `s_t`).
pub fn permission_for(name: &str) -> String {
    let mapped = match name {
        "Bash" | "shell" => "bash",
        "Edit" | "Write" | "MultiEdit" | "NotebookEdit" | "write" | "apply_patch" => "edit",
        "Read" => "read",
        "Glob" => "glob",
        "Grep" => "grep",
        "WebFetch" => "webfetch",
        "WebSearch" | "web_search" => "websearch",
        "Agent" | "Task" => "task",
        "TodoWrite" | "todo_update" => "todowrite",
        "Skill" => "skill",
        "AskUserQuestion" => "question",
        other => {
            if let Some((server, tool)) = other.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
                return format!("{server}_{tool}");
            }
            other
        }
    };
    mapped.to_string()
}

fn label(r: &Rule) -> String {
    format!("`{}` \"{}\": {}", r.permission, r.pattern, r.action)
}

/// The ruleset of `agent` for the policy permission `name`; `home` expands `~` in the policy's
/// patterns as opencode expands its rules'.
pub fn ruleset(agent: &EffectiveAgent, name: &str, home: Option<&str>) -> Ruleset {
    let permission = permission_for(name);
    let rules = agent
        .permission
        .iter()
        .filter(|r| {
            r.permission == permission
                || r.permission == "*"
                || (r.permission.contains(['*', '?', '\\'])
                    && crate::analysis::permission::wildcard_match(&permission, &r.permission))
        })
        .filter_map(|r| {
            Some(SourcedRule {
                pattern: r.pattern.clone(),
                action: Action::parse(&r.action)?,
                source: r.source,
                label: label(r),
            })
        })
        .collect();
    Ruleset {
        rules,
        syntax: Syntax::OpenCode,
        order: Order::LastMatch { default: Action::Ask },
        default_label: format!("no rule of `{permission}` matches: opencode asks"),
        default_source: Source::BuiltIn,
        home: home.map(str::to_string),
        root: None,
        note: None,
        assumed_default: false,
        unapplied: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names_map_to_opencode_keys() {
        assert_eq!(permission_for("bash"), "bash");
        assert_eq!(permission_for("Bash"), "bash");
        assert_eq!(permission_for("shell"), "bash");
        assert_eq!(permission_for("Write"), "edit");
        assert_eq!(permission_for("Agent"), "task");
        assert_eq!(permission_for("mcp__github__push"), "github_push");
        assert_eq!(permission_for("external_directory"), "external_directory");
    }
}
