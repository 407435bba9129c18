//! A Codex agent for a team policy (`analysis/policy/`) and for "who may": Codex has no rules
//! per command or per path. Two settings decide for every input alike: `sandbox_mode` (what a
//! command or an edit may touch without asking) and `approval_policy` (whether Codex asks to go
//! beyond it), each from the last layer that sets it (the agent's file, the project's
//! `config.toml`, the user's). As Codex documents them:
//!
//! - reading is never asked for;
//! - a command runs without asking inside the sandbox; what the sandbox stops (a write outside
//!   the workspace, the network under `workspace-write`) fails, and Codex asks to run it outside
//!   the sandbox unless `approval_policy = "never"`; `danger-full-access` has no sandbox;
//! - an edit of the workspace's files needs no approval under `workspace-write` and
//!   `danger-full-access`; under `read-only` Codex asks for each, or, with `never`, cannot edit.
//!
//! Unset, the sandbox is `workspace-write` (a trusted project) and the approval policy
//! `on-request` (an interactive session; `codex exec` runs with `never`). What the sandbox stops
//! depends on the command, which no file says: the answer is the one for the command the sandbox
//! lets through, and a policy Codex's settings break is a warning, not an error.

use crate::analysis::policy::judge::Ruleset;
use crate::analysis::policy::solve::{Action, Order, Syntax};
use crate::analysis::provenance::Source;

/// What a policy's permission is to Codex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Shell,
    Edit,
    Read,
}

fn kind(permission: &str) -> Option<(Kind, &'static str)> {
    Some(match permission {
        "bash" | "Bash" | "shell" | "execute" | "exec" => (Kind::Shell, "shell"),
        "edit" | "write" | "apply_patch" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit" => {
            (Kind::Edit, "apply_patch")
        }
        "read" | "Read" | "grep" | "glob" | "list" | "Grep" | "Glob" => (Kind::Read, "read"),
        _ => return None,
    })
}

/// What decides for an agent: its `sandbox_mode` and `approval_policy` as the last layer that
/// sets each writes it, with where; and where the agent itself is defined.
pub struct Settings<'a> {
    pub sandbox: Option<(&'a str, Source)>,
    pub approval: Option<(&'a str, Source)>,
    pub defined: Source,
}

/// The ruleset of an agent with settings `a` for the policy permission `permission`, with the
/// tool it stands for; `None` where Codex has no such permission.
pub fn ruleset(a: &Settings, permission: &str) -> Option<(String, Ruleset)> {
    let (kind, tool) = kind(permission)?;
    let sandbox = a.sandbox;
    let approval = a.approval;
    let sandbox_v = sandbox.as_ref().map_or("workspace-write", |(v, _)| v);
    let approval_v = approval.as_ref().map_or("on-request", |(v, _)| v);
    let sandbox_said = match &sandbox {
        Some((v, _)) => format!("`sandbox_mode = \"{v}\"`"),
        None => "the `workspace-write` sandbox (Codex's default in a trusted project)".to_string(),
    };
    let approval_said = match &approval {
        Some((v, _)) => format!("`approval_policy = \"{v}\"`"),
        None => "`on-request` (Codex's default in an interactive session; `codex exec` uses `never`)".to_string(),
    };
    let never = approval_v == "never";
    let (action, label, by) = match (kind, sandbox_v) {
        (Kind::Read, _) => (
            Action::Allow,
            "Codex reads files without asking, in every sandbox".to_string(),
            None,
        ),
        (_, "danger-full-access") => (
            Action::Allow,
            format!("{sandbox_said}: no sandbox, so Codex runs commands and edits files without asking"),
            sandbox.as_ref(),
        ),
        (Kind::Shell, _) if never => (
            Action::Allow,
            format!(
                "Codex runs every command without asking, inside {sandbox_said}; with {approval_said} what the sandbox stops fails, and Codex never asks"
            ),
            approval.as_ref(),
        ),
        (Kind::Shell, _) => (
            Action::Allow,
            format!(
                "Codex runs every command without asking, inside {sandbox_said}; it asks only to run one outside the sandbox ({approval_said})"
            ),
            sandbox.as_ref().or(approval.as_ref()),
        ),
        (Kind::Edit, "read-only") if never => (
            Action::Deny,
            format!("{sandbox_said} refuses edits, and with {approval_said} Codex never asks: it cannot edit"),
            approval.as_ref(),
        ),
        (Kind::Edit, "read-only") => (
            Action::Ask,
            format!("{sandbox_said} stops edits: Codex asks before each ({approval_said})"),
            sandbox.as_ref(),
        ),
        (Kind::Edit, _) => (
            Action::Allow,
            format!("Codex edits the workspace's files without asking under {sandbox_said}"),
            sandbox.as_ref(),
        ),
    };
    let source = by.map_or(a.defined, |(_, s)| *s);
    Some((
        tool.to_string(),
        Ruleset {
            rules: Vec::new(),
            syntax: Syntax::OpenCode,
            order: Order::LastMatch { default: action },
            default_label: label,
            default_source: source,
            home: None,
            root: None,
            note: Some(
                "Codex has no rules per command or path: its sandbox and approval policy decide for every input alike (what the sandbox stops depends on the command)".to_string(),
            ),
            assumed_default: true,
            unapplied: Vec::new(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::text::Span;

    /// The decision and where it is said to come from, for settings `sandbox` and `approval`
    /// in file 7 (at bytes 10 and 20).
    fn decide(
        permission: &str,
        sandbox: Option<&str>,
        approval: Option<&str>,
    ) -> Option<(String, Action, Source, String)> {
        let a = Settings {
            sandbox: sandbox.map(|s| (s, at(10))),
            approval: approval.map(|v| (v, at(20))),
            defined: Source::File {
                file: 3,
                span: Span::new(0, 1),
            },
        };
        let (tool, r) = ruleset(&a, permission)?;
        assert!(r.rules.is_empty() && r.assumed_default && r.note.is_some());
        let Order::LastMatch { default } = r.order else {
            panic!("{:?}", r.order)
        };
        Some((tool, default, r.default_source, r.default_label))
    }

    fn at(start: usize) -> Source {
        Source::File {
            file: 7,
            span: Span::new(start, start + 1),
        }
    }

    #[test]
    fn the_sandbox_and_the_approval_policy_decide() {
        use Action::*;
        let own = Source::File {
            file: 3,
            span: Span::new(0, 1),
        };
        // (permission, sandbox_mode, approval_policy, tool, decision, what decides)
        type Case<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a str, Action, Source);
        let cases: &[Case] = &[
            ("bash", None, None, "shell", Allow, own),
            ("bash", Some("read-only"), Some("never"), "shell", Allow, at(20)),
            ("bash", Some("read-only"), Some("on-request"), "shell", Allow, at(10)),
            ("bash", None, Some("on-request"), "shell", Allow, at(20)),
            (
                "Bash",
                Some("danger-full-access"),
                Some("never"),
                "shell",
                Allow,
                at(10),
            ),
            ("edit", None, None, "apply_patch", Allow, own),
            (
                "Write",
                Some("workspace-write"),
                Some("never"),
                "apply_patch",
                Allow,
                at(10),
            ),
            ("edit", Some("read-only"), Some("never"), "apply_patch", Deny, at(20)),
            ("edit", Some("read-only"), None, "apply_patch", Ask, at(10)),
            ("edit", Some("read-only"), Some("granular"), "apply_patch", Ask, at(10)),
            ("edit", Some("danger-full-access"), None, "apply_patch", Allow, at(10)),
            ("read", Some("read-only"), Some("never"), "read", Allow, own),
        ];
        for (permission, sandbox, approval, tool, action, source) in cases {
            let (t, a, s, label) = decide(permission, *sandbox, *approval).unwrap();
            assert_eq!(
                (t.as_str(), a, s),
                (*tool, *action, *source),
                "{permission} {sandbox:?} {approval:?}: {label}"
            );
        }
        assert_eq!(decide("webfetch", None, None), None);
        let (.., label) = decide("edit", Some("read-only"), None).unwrap();
        assert_eq!(
            label,
            "`sandbox_mode = \"read-only\"` stops edits: Codex asks before each (`on-request` (Codex's default in an interactive session; `codex exec` uses `never`))"
        );
        let (.., label) = decide("bash", None, Some("never")).unwrap();
        assert_eq!(
            label,
            "Codex runs every command without asking, inside the `workspace-write` sandbox (Codex's default in a trusted project); with `approval_policy = \"never\"` what the sandbox stops fails, and Codex never asks"
        );
    }
}
