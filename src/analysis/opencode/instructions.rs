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
