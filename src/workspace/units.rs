//! The units of cross-file checks: what each covers and the cache of their results (see
//! `cross.rs` for how they are kept up to date).

use std::collections::HashMap;
use std::path::PathBuf;

use crate::analysis::{Diagnostic, Dialect};

/// One group of cross-file checks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A dialect's own (see its `units`): which of its checks, and for a check per project the
    /// folder.
    Dialect {
        dialect: Dialect,
        part: &'static str,
        dir: Option<PathBuf>,
    },
    /// Skills defined twice.
    Skills,
    /// Commands whose `agent` names no agent of their runtime.
    Commands,
    /// Instruction files (`AGENTS.md`, `CLAUDE.md`, `CONTEXT.md`): which runtime ignores each.
    Instructions,
    /// The team policies of one project file (by id) over the agents it governs, but those of
    /// opencode Markdown files.
    Policies(usize),
    /// The team policies of one project file over the agent of one opencode Markdown file, as
    /// opencode started in the file's project builds it.
    PolicyFile { project: usize, file: usize },
}

/// A unit with the files it reads: `view` (a view's files, in merge order) and `inputs` (every
/// file whose change may change its result).
#[derive(Clone, Debug)]
pub struct UnitDef {
    pub unit: Unit,
    pub view: Vec<usize>,
    pub inputs: Vec<usize>,
    /// For a view: the group of each file of `view` (files of one config directory share one),
    /// computed with the unit list since it depends on roles only.
    pub groups: Vec<usize>,
}

/// The cached results (see the module documentation).
#[derive(Debug, Default)]
pub struct CrossCache {
    /// The structure generation the unit list was built for (`None`: never built).
    pub(super) structure: Option<u64>,
    pub(super) units: Vec<UnitDef>,
    /// Per unit: what its result was computed from, the signature of those stamps, and the
    /// files its diagnostics are on (the diagnostics themselves are in `by_file` only).
    pub(super) results: HashMap<Unit, (Deps, u64, Vec<usize>)>,
    /// Per file: the cross-file diagnostics of every unit, by unit.
    pub(super) by_file: HashMap<usize, Vec<(Unit, Diagnostic)>>,
}

/// What a unit's last result was computed from, so that the next refresh knows what to compare:
/// every input entirely (its `stamp`), or the name-level part of each (its `names` stamp) and
/// the declarations of some names.
pub use crate::analysis::spec::Reads as Deps;

/// The policies' verdicts already proved, by the hash of the question (see `policy_check.rs`).
#[derive(Debug, Default)]
pub struct Memo(pub(super) std::sync::Mutex<HashMap<u64, std::sync::Arc<crate::analysis::policy::judge::Verdict>>>);
