//! Which instruction files Claude Code 2.1.332 reads: every `CLAUDE.md`, `.claude/CLAUDE.md`,
//! `CLAUDE.local.md`; `AGENTS.md` only where none of those is found; never `CONTEXT.md` but
//! through an import (see [`crate::analysis::instructions`]).

use crate::analysis::dialect::Dialect;
use crate::analysis::instructions::{Level, Verdict, Which, first_with};

pub const AGENTS: Which = Which("AGENTS.md");
pub const CLAUDE: Which = Which("CLAUDE.md");
pub const CONTEXT: Which = Which("CONTEXT.md");
pub const DOT_CLAUDE_AGENTS: Which = Which(".claude/AGENTS.md");
pub const DOT_CLAUDE_CLAUDE: Which = Which(".claude/CLAUDE.md");
pub const CLAUDE_LOCAL: Which = Which("CLAUDE.local.md");

/// The instruction files a folder may hold that Claude Code weighs (`.claude/AGENTS.md` aside:
/// it never decides whether another is read).
pub const NAMES: &[&str] = &[AGENTS.0, CLAUDE.0, CONTEXT.0, DOT_CLAUDE_CLAUDE.0, CLAUDE_LOCAL.0];

/// Claude Code's verdict on instruction file `which` in the first folder of `chain`;
/// `imported_by` names a file Claude Code reads that imports it (`@AGENTS.md`), if one does.
pub fn readers(which: Which, chain: &[Level], imported_by: Option<&str>) -> Verdict {
    let runtime = Dialect::Claude;
    let verdict = |reads: bool, why: String| Verdict { runtime, reads, why };
    if let Some(importer) = imported_by.filter(|_| [AGENTS, DOT_CLAUDE_AGENTS, CONTEXT].contains(&which)) {
        return verdict(true, format!("Claude Code reads it through the import in `{importer}`"));
    }
    match which {
        CLAUDE | DOT_CLAUDE_CLAUDE | CLAUDE_LOCAL => verdict(true, "Claude Code reads it".into()),
        AGENTS | DOT_CLAUDE_AGENTS => {
            let own = [CLAUDE, DOT_CLAUDE_CLAUDE, CLAUDE_LOCAL];
            match first_with(chain, |l| own.iter().any(|w| l.has(w.name())), false) {
                Some(l) => {
                    let name = own.iter().find(|w| l.has(w.name())).map_or("CLAUDE.md", |w| w.name());
                    verdict(
                        false,
                        format!(
                            "Claude Code reads `{name}` ({}) instead: it reads `AGENTS.md` only where no folder up to the root holds a `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` (or a `CLAUDE.md` imports it)",
                            l.label
                        ),
                    )
                }
                None => verdict(
                    true,
                    "Claude Code reads it (no `CLAUDE.md`, `.claude/CLAUDE.md` or `CLAUDE.local.md` up to the root; its built-in AGENTS.md plugin reads `AGENTS.md` then)".into(),
                ),
            }
        }
        // `CONTEXT.md`, and the instruction files of other runtimes.
        _ => verdict(false, format!("Claude Code never reads `{}`", which.name())),
    }
}
