//! A Copilot agent for a team policy (`analysis/policy/`) and for "who may": Copilot grants tool
//! sets, not rules per input. What an agent file decides is whether the agent has the tools of
//! a permission at all:
//!
//! - without them (a `tools` list that leaves the set out) it cannot use them: `deny`, decided;
//! - with them (no `tools`, `*`, the set, one of its tools, an alias), whether VS Code asks before
//!   each use is up to its user's settings (`chat.tools.terminal.autoApprove`,
//!   `chat.tools.edits.autoApprove`, the approvals given in a session), which no agent file holds:
//!   that cannot be decided here. The ruleset says so, and assumes `ask` (a policy it breaks is a
//!   warning, not an error).

use super::schema;
use super::{CopilotFile, FileKind};
use crate::analysis::policy::judge::Ruleset;
use crate::analysis::policy::solve::{Action, Order, Syntax};
use crate::analysis::provenance::Source;

/// The tool set a policy's permission names (`bash` is `execute`, `edit` and `write` are `edit`),
/// or `None` when Copilot has no tools of that kind.
pub fn set_for(permission: &str) -> Option<&'static str> {
    Some(match permission {
        "bash" | "Bash" | "shell" | "execute" => "execute",
        "edit" | "write" | "apply_patch" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => "edit",
        "read" | "Read" | "NotebookRead" => "read",
        "grep" | "glob" | "list" | "Grep" | "Glob" | "search" | "codesearch" => "search",
        "webfetch" | "websearch" | "WebFetch" | "WebSearch" | "web" => "web",
        "task" | "Task" | "Agent" | "agent" => "agent",
        "todowrite" | "TodoWrite" | "todo" => "todo",
        _ => return None,
    })
}

/// Whether the agent's `tools` give it the set: `Some(entry)` naming the entry that does (`None`
/// inside for "no `tools`: every tool"), `None` when they leave it out.
pub fn grants<'a>(f: &'a CopilotFile, set: &str) -> Option<Option<&'a super::Named>> {
    let Some(tools) = &f.tools else {
        return Some(None);
    };
    tools
        .iter()
        .find(|t| {
            let n = t.name.as_str();
            n == schema::ALL_TOOLS
                || schema::tool_set(n).is_some_and(|s| s.name == set)
                || n.split_once('/').is_some_and(|(p, _)| p == set)
                || schema::set_of_tool(n).is_some_and(|s| s.name == set)
                || schema::RENAMED_TOOLS
                    .iter()
                    .any(|(old, new)| *old == n && new.split('/').next() == Some(set))
        })
        .map(Some)
}

/// The ruleset of the agent of file `file` for the policy permission `permission`.
pub fn ruleset(file: usize, kind: &FileKind, f: &CopilotFile, permission: &str) -> Option<Ruleset> {
    let set = set_for(permission)?;
    let at = |span| Source::File { file, span };
    let agent_at = at(f.name.as_ref().map_or(f.anchor, |n| n.span));
    let name = f.shown_name(kind);
    let (default, label, source, note, assumed) = match grants(f, set) {
        None => (
            Action::Deny,
            format!("`{set}` is not among the `tools` of `{name}`: it cannot use them"),
            f.tools
                .as_ref()
                .and_then(|t| t.first())
                .map_or(agent_at, |t| at(t.span)),
            None,
            false,
        ),
        Some(entry) => (
            Action::Ask,
            match entry {
                Some(t) => format!(
                    "`{}` gives `{name}` the `{set}` tools; whether VS Code asks before each use is its user's settings, not this file (assumed: ask)",
                    t.name
                ),
                None => format!(
                    "`{name}` has every tool (no `tools`); whether VS Code asks before each use is its user's settings, not this file (assumed: ask)"
                ),
            },
            entry.map_or(agent_at, |t| at(t.span)),
            Some(
                "Copilot grants tool sets, not rules per input: this cannot be decided from the agent's file (VS Code's `chat.tools.*.autoApprove` settings decide)".to_string(),
            ),
            true,
        ),
    };
    Some(Ruleset {
        rules: Vec::new(),
        syntax: Syntax::OpenCode,
        order: Order::LastMatch { default },
        default_label: label,
        default_source: source,
        home: None,
        root: None,
        note,
        assumed_default: assumed,
        unapplied: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> CopilotFile {
        let k = FileKind::Agent {
            name: "a".into(),
            form: super::super::AgentForm::AgentMd,
        };
        super::super::analyze(&k, text).2
    }

    #[test]
    fn an_agent_without_the_tools_is_denied_and_one_with_them_is_undecided() {
        let k = FileKind::Agent {
            name: "a".into(),
            form: super::super::AgentForm::AgentMd,
        };
        let ro = facts("---\ndescription: x\ntools: [search, read]\n---\n");
        let r = ruleset(0, &k, &ro, "edit").unwrap();
        assert_eq!(r.order, Order::LastMatch { default: Action::Deny });
        assert!(!r.assumed_default && r.note.is_none());
        let rw = facts("---\ndescription: x\ntools: [search, 'edit/editFiles']\n---\n");
        let r = ruleset(0, &k, &rw, "Write").unwrap();
        assert_eq!(r.order, Order::LastMatch { default: Action::Ask });
        assert!(r.assumed_default && r.note.is_some());
        assert!(r.default_label.contains("`edit/editFiles`"), "{}", r.default_label);
        // No `tools`: every tool; renamed names count for their new set.
        assert!(grants(&facts("---\ndescription: x\n---\n"), "execute").is_some());
        assert!(grants(&facts("---\ndescription: x\ntools: [runCommands]\n---\n"), "execute").is_some());
        assert!(grants(&facts("---\ndescription: x\ntools: [Bash]\n---\n"), "execute").is_some());
        assert!(ruleset(0, &k, &ro, "skill").is_none());
    }
}
