//! Which instruction files Claude Code 2.1.332 reads: every `CLAUDE.md`, `.claude/CLAUDE.md`,
//! `CLAUDE.local.md`; `AGENTS.md` only where none of those is found; never `CONTEXT.md` but
//! through an import (see [`crate::analysis::instructions`]).

use crate::analysis::dialect::Dialect;
use crate::analysis::instructions::{Level, Verdict, Which, first_with};

/// Claude Code's verdict on instruction file `which` in the first folder of `chain`;
/// `imported_by` names a file Claude Code reads that imports it (`@AGENTS.md`), if one does.
pub fn readers(which: Which, chain: &[Level], imported_by: Option<&str>) -> Verdict {
    let runtime = Dialect::Claude;
    let verdict = |reads: bool, why: String| Verdict { runtime, reads, why };
    if let Some(importer) =
        imported_by.filter(|_| matches!(which, Which::Agents | Which::DotClaudeAgents | Which::Context))
    {
        return verdict(true, format!("Claude Code reads it through the import in `{importer}`"));
    }
    match which {
        Which::Claude | Which::DotClaudeClaude | Which::ClaudeLocal => verdict(true, "Claude Code reads it".into()),
        Which::Context => verdict(false, "Claude Code never reads `CONTEXT.md`".into()),
        Which::Agents | Which::DotClaudeAgents => {
            match first_with(chain, |l| l.claude || l.dot_claude_claude || l.claude_local, false) {
                Some(l) => {
                    let name = if l.claude {
                        "CLAUDE.md"
                    } else if l.dot_claude_claude {
                        ".claude/CLAUDE.md"
                    } else {
                        "CLAUDE.local.md"
                    };
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
    }
}
