//! Which instruction file opencode 1.18.34 reads: the first of `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md`
//! that a folder from where it starts up to the git root holds, every file of that name (see [`crate::analysis::instructions`]).

use crate::analysis::dialect::Dialect;
use crate::analysis::instructions::{Level, Verdict, Which, first_with};

/// Whether a folder holds one of the names.
type Has = fn(&Level) -> bool;

/// opencode's verdict on instruction file `which` in the first folder of `chain`.
pub fn readers(which: Which, chain: &[Level]) -> Verdict {
    let runtime = Dialect::OpenCode;
    let verdict = |reads: bool, why: String| Verdict { runtime, reads, why };
    let rank = match which {
        Which::Agents => 0,
        Which::Claude => 1,
        Which::Context => 2,
        _ => {
            return verdict(false, format!("opencode never reads `{}`", which.name()));
        }
    };
    let names: [(&str, Has); 3] = [
        ("AGENTS.md", |l| l.agents),
        ("CLAUDE.md", |l| l.claude),
        ("CONTEXT.md", |l| l.context),
    ];
    for (name, has) in &names[..rank] {
        if let Some(l) = first_with(chain, has, true) {
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
