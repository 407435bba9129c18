//! Instruction files (`AGENTS.md`, `CLAUDE.md`, `CONTEXT.md`, `.claude/AGENTS.md`,
//! `.claude/CLAUDE.md`, `CLAUDE.local.md`): which runtime reads one where it is, and which
//! ignores it there, as opencode 1.18.34 and Claude Code 2.1.332 choose them (seen with both,
//! each against the scripted mock model: `tests/claude_runtime/instructions.rs`):
//!
//! - **opencode**, started in a folder, takes the names `AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` in
//!   this order and reads every file of the first name that any folder holds, from the start
//!   folder up to the git root; the other two names are ignored there, wherever they are. It does
//!   not read `.claude/` files nor `CLAUDE.local.md`. (Its user files: the global config
//!   folder's `AGENTS.md`, else `~/.claude/CLAUDE.md`.)
//! - **Claude Code** reads every `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md` from the
//!   start folder up to the file-system root; `AGENTS.md` and `.claude/AGENTS.md` (through its
//!   built-in AGENTS.md plugin, on by default) only when none of those folders holds one of
//!   those three. It never reads `CONTEXT.md`, but any of them is read through a `CLAUDE.md`'s
//!   `@path` import.
//!
//! The verdict is for a runtime started in the file's own folder (a file in a sub-folder is read
//! later, when the model reads a file there, by the same choice). The workspace looks up which
//! of the names the dialects weigh each folder holds ([`Level`]); each runtime's rule decides
//! ([`crate::analysis::instruction_readers`]).

use crate::analysis::dialect::Dialect;

/// Which instruction file: its path from the folder that holds it (`AGENTS.md`,
/// `.claude/CLAUDE.md`). The names are the dialects' (see `DialectSpec::instruction_names`);
/// two dialects that read one name write it alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Which(pub &'static str);

impl Which {
    /// The file's name as written in messages.
    pub fn name(self) -> &'static str {
        self.0
    }
}

/// What one folder of the chain holds, from the file's folder up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// The folder, as written in messages (`this folder`, `..`, `../..`).
    pub label: String,
    /// The instruction files it holds, of the names the dialects weigh ([`Present`]).
    pub present: Present,
    /// Inside the git work tree (opencode looks no higher).
    pub in_worktree: bool,
}

impl Level {
    /// Whether the folder holds instruction file `name`.
    pub fn has(&self, name: &str) -> bool {
        self.present.has(name)
    }
}

/// A set of the instruction files the registered dialects weigh
/// ([`Dialect::instruction_names`]), one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Present(u64);

impl Present {
    /// The names among `Dialect::instruction_names()` for which `holds` says yes.
    pub fn of(holds: impl Fn(&str) -> bool) -> Present {
        let mut bits = 0u64;
        for (i, n) in Dialect::instruction_names().iter().enumerate().take(64) {
            if holds(n) {
                bits |= 1 << i;
            }
        }
        Present(bits)
    }

    /// Whether `name` is in the set.
    pub fn has(self, name: &str) -> bool {
        Dialect::instruction_names()
            .iter()
            .take(64)
            .position(|n| *n == name)
            .is_some_and(|i| self.0 & (1 << i) != 0)
    }
}

/// One runtime's verdict on the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub runtime: Dialect,
    pub reads: bool,
    /// Why, in words.
    pub why: String,
}

/// The first folder of the chain (inside the git work tree only, with `worktree`) that `has`.
pub fn first_with(chain: &[Level], has: impl Fn(&Level) -> bool, worktree: bool) -> Option<&Level> {
    chain.iter().filter(|l| !worktree || l.in_worktree).find(|l| has(l))
}

/// The hover on the file's first line: who reads it here, who does not, and why.
pub fn describe(which: Which, verdicts: &[Verdict]) -> String {
    let mut md = format!("**`{}`**: instructions for the model\n\n", which.name());
    for v in verdicts {
        let mark = if v.reads { "reads it" } else { "ignores it here" };
        md.push_str(&format!("- **{}** {mark}: {}\n", v.runtime.product(), v.why));
    }
    md.push_str(
        "\n(For a runtime started in this folder; a file in a sub-folder is read when the model reads a file there.)\n",
    );
    md
}
