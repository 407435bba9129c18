//! Which instruction file opencode 1.18.34 reads: the first of `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md`
//! that a folder from where it starts up to the git root holds, every file of that name (see [`crate::analysis::instructions`]).

use crate::analysis::dialect::Dialect;
use crate::analysis::instructions::{Level, Verdict, Which, first_with};

/// The names opencode takes, in its order: every file of the first that a folder holds.
pub const NAMES: &[&str] = &["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/// opencode's verdict on instruction file `which` in the first folder of `chain`.
pub fn readers(which: Which, chain: &[Level]) -> Verdict {
    let runtime = Dialect::Opencode;
    let verdict = |reads: bool, why: String| Verdict { runtime, reads, why };
    let Some(rank) = NAMES.iter().position(|n| *n == which.name()) else {
        return verdict(false, format!("opencode never reads `{}`", which.name()));
    };
    for name in &NAMES[..rank] {
        if let Some(l) = first_with(chain, |l| l.has(name), true) {
            return verdict(
                false,
                format!(
                    "opencode reads `{name}` ({}) and then no `{}`: it takes the first of `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` that a folder up to the git root holds",
                    l.label,
                    which.name()
                ),
            );
        }
    }
    verdict(
        true,
        format!(
            "opencode reads it (the first of `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` up to the git root is `{}`)",
            which.name()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::instructions::Present;

    /// A folder holding `files`, as the workspace sees it when opencode alone is registered:
    /// only the names opencode says it weighs are looked up.
    fn folder(files: &[&str]) -> Level {
        let weighs = Dialect::Opencode.spec().instruction_names();
        Level {
            label: "this folder".into(),
            present: Present::of(|n| weighs.contains(&n) && files.contains(&n)),
            in_worktree: true,
        }
    }

    #[test]
    fn the_first_name_a_folder_holds_wins_among_those_opencode_weighs() {
        let both = [folder(&["AGENTS.md", "CLAUDE.md", "CONTEXT.md"])];
        assert!(readers(Which("AGENTS.md"), &both).reads);
        let claude = readers(Which("CLAUDE.md"), &both);
        assert!(!claude.reads);
        assert!(
            claude.why.starts_with("opencode reads `AGENTS.md` (this folder)"),
            "{}",
            claude.why
        );
        assert!(!readers(Which("CONTEXT.md"), &both).reads);
        // Without `AGENTS.md`, `CLAUDE.md` wins, and `CONTEXT.md` only when it is alone.
        assert!(readers(Which("CLAUDE.md"), &[folder(&["CLAUDE.md", "CONTEXT.md"])]).reads);
        assert!(!readers(Which("CONTEXT.md"), &[folder(&["CLAUDE.md", "CONTEXT.md"])]).reads);
        assert!(readers(Which("CONTEXT.md"), &[folder(&["CONTEXT.md"])]).reads);
        // A name opencode never reads.
        let never = readers(Which("CLAUDE.local.md"), &both);
        assert!(
            !never.reads && never.why == "opencode never reads `CLAUDE.local.md`",
            "{}",
            never.why
        );
    }
}
