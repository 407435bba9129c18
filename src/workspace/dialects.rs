//! The dialects' agents as the workspace gathers them through the interface
//! ([`crate::analysis::spec::DialectSpec`]): for a start directory, what each dialect's runtime
//! reads there and which agents it builds ([`DialectAgents`], each agent one generic
//! [`ExplainedAgent`]); the agents a project governs; and the instruction files, which several
//! runtimes read. `explain` iterates [`Dialect::ALL`] over it; no dialect is named here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::model::*;
use crate::analysis::Dialect;
use crate::analysis::agents::{AgentSet, GraphEdge, GraphNode, MatrixPart};
pub use crate::analysis::agents::{ListRow, Listing};
use crate::analysis::card::PathNames;
use crate::analysis::provenance::WhereIs;

impl Workspace {
    /// The agents a project file in `dir` governs: every dialect's, from each place its runtime
    /// may be started at or below `dir`.
    pub fn governed_agents(&self, dir: &Path) -> Vec<DialectAgents<'_>> {
        self.governed_agents_of(dir, &Dialect::ALL)
    }

    /// [`Workspace::governed_agents`] of the `dialects` only.
    pub fn governed_agents_of(&self, dir: &Path, dialects: &[Dialect]) -> Vec<DialectAgents<'_>> {
        dialects
            .iter()
            .flat_map(|&d| {
                d.spec()
                    .starts(self, dir)
                    .into_iter()
                    .map(move |start| DialectAgents::gather(self, d, &start))
            })
            .collect()
    }

    /// The project directory of an opencode or Zuno file or a Claude Code settings file: the
    /// agents a "who may" question asked from it is about (`governed_agents` of this directory).
    pub fn who_dir_of_file(&self, id: usize) -> Option<PathBuf> {
        use crate::analysis::host::Host as _;
        let f = self.file(id)?;
        f.kind.dialect().spec().project_of_file(self, id)
    }

    /// An instruction file of a project (not the user's): which one, and its folder (see
    /// `DialectSpec::instruction_file`).
    pub(crate) fn instruction_file(&self, id: usize) -> Option<(crate::analysis::instructions::Which, PathBuf)> {
        let f = &self.files[id];
        let (which, dir) = f.kind.dialect().spec().instruction_file(self, id)?;
        let user = Dialect::REGISTERED
            .iter()
            .any(|d| d.spec().user_folders(&self.options).contains(&dir));
        if self.options.home.as_deref() == Some(dir.as_path()) || user {
            return None;
        }
        Some((which, dir))
    }

    /// Which runtimes read instruction file `id` where it is (for a runtime started in its
    /// folder), from the names each folder up to the root holds (in the workspace, or on disk).
    pub fn instruction_readers(
        &self,
        id: usize,
    ) -> Option<(
        crate::analysis::instructions::Which,
        Vec<crate::analysis::instructions::Verdict>,
    )> {
        self.instruction_file(id)?;
        self.instruction_verdicts(id, &self.instruction_importers())
    }

    /// [`Self::instruction_readers`] with the importers ([`Self::instruction_importers`]), which
    /// the caller looks up once for every file.
    fn instruction_verdicts(
        &self,
        id: usize,
        importers: &HashMap<PathBuf, PathBuf>,
    ) -> Option<(
        crate::analysis::instructions::Which,
        Vec<crate::analysis::instructions::Verdict>,
    )> {
        use crate::analysis::instruction_readers as readers;
        use crate::analysis::instructions::Level;
        let f = &self.files[id];
        let (which, dir) = self.instruction_file(id)?;
        let found: Vec<InstructionNames> = dir.ancestors().map(|a| self.instruction_names(a)).collect();
        let git_root = found.iter().position(|n| n.git);
        let chain: Vec<Level> = found
            .iter()
            .enumerate()
            .map(|(i, n)| Level {
                label: if i == 0 {
                    "this folder".into()
                } else {
                    vec![".."; i].join("/")
                },
                present: n.present,
                in_worktree: git_root.is_none_or(|g| i <= g),
            })
            .collect();
        let importer = importers
            .get(&f.path)
            .map(|by| relative_to(by, f.path.parent().unwrap_or(&f.path)));
        Some((which, readers(self, &dir, which, &chain, importer.as_deref())))
    }

    /// The instruction files folder `a` holds, in the workspace or on disk: looked up once per
    /// structure generation (and again when files appear or vanish on disk).
    fn instruction_names(&self, a: &Path) -> InstructionNames {
        let exists = |p: &Path| self.id(p).is_some_and(|i| self.files[i].live) || p.is_file();
        let look = || InstructionNames {
            present: crate::analysis::instructions::Present::of(|n| exists(&a.join(n))),
            git: a.join(".git").exists(),
        };
        let Ok(mut memo) = self.instruction_memo.lock() else {
            return look();
        };
        if memo.0 != self.structure {
            *memo = (self.structure, HashMap::new());
        }
        *memo.1.entry(a.to_path_buf()).or_insert_with(look)
    }

    /// The instruction files the dialects' files import (see
    /// `DialectSpec::instruction_imports`), each with the first file that imports it.
    fn instruction_importers(&self) -> HashMap<PathBuf, PathBuf> {
        let mut out = HashMap::new();
        for d in Dialect::REGISTERED {
            for (target, by) in d.spec().instruction_imports(self) {
                out.entry(target).or_insert(by);
            }
        }
        out
    }

    /// `shadowed-file` on the instruction files that no runtime reads where they are. (One
    /// that a runtime ignores while another reads it is the usual way to write for two
    /// runtimes: the hover on its first line says who reads it.)
    pub(crate) fn instruction_checks(&self) -> Vec<(usize, crate::analysis::Diagnostic)> {
        use crate::analysis::diagnostic::{Diagnostic, Effect};
        let importers = self.instruction_importers();
        let mut out = Vec::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            let Some((which, verdicts)) = self.instruction_verdicts(id, &importers) else {
                continue;
            };
            if verdicts.iter().any(|v| v.reads) {
                continue;
            }
            let why: Vec<&str> = verdicts.iter().map(|v| v.why.as_str()).collect();
            let message = format!("no runtime reads this `{}` here: {}", which.name(), why.join("; "));
            let span = crate::analysis::text::first_line(&f.text);
            out.push((
                id,
                Diagnostic::new(crate::analysis::Code::ShadowedFile, span, message).with_effect(Effect::ValueIgnored),
            ));
        }
        out
    }

    /// How cards show the machine's paths for a runtime started in `start`: relative to it, `~`
    /// for the home, skill folders as skills (as opencode's environment there finds them).
    pub fn path_names(&self, start: &Path) -> PathNames {
        let named = Dialect::ALL.iter().find_map(|d| d.spec().path_names(self, start));
        named.unwrap_or_else(|| PathNames {
            root: Some(key(start).to_string_lossy().into_owned()),
            ..PathNames::default()
        })
    }

    /// The agent names a command of `runtime` in `dir` can name, with their modes.
    pub fn agents_for_command(&self, runtime: Dialect, dir: &Path) -> Vec<(String, String)> {
        runtime.spec().command_agents(self, dir)
    }
}

/// What one dialect shows from a start directory: the files its runtime reads there and the
/// agents it builds from them (see each dialect's `agents.rs`).
pub struct DialectAgents<'ws> {
    pub dialect: Dialect,
    /// The files the runtime reads from the start directory (those agent-lsp did not analyse
    /// included): the ones whose problems concern it.
    pub files: Vec<usize>,
    set: Box<dyn AgentSet + 'ws>,
}

impl<'ws> DialectAgents<'ws> {
    /// What `dialect`'s runtime started in `start` reads and builds.
    pub fn gather(ws: &'ws Workspace, dialect: Dialect, start: &Path) -> DialectAgents<'ws> {
        let (files, set) = dialect.spec().agents(ws, start);
        DialectAgents { dialect, files, set }
    }

    /// Whether an error that stops the runtime refuses the whole configuration (opencode, Zuno)
    /// rather than one file (Claude Code skips the file).
    pub fn refuses_configuration(&self) -> bool {
        self.dialect.refuses_configuration()
    }

    /// The agents the runtime offers (Zuno's disabled ones left out), in the dialect's order.
    pub fn agents(&self) -> Vec<ExplainedAgent<'_>> {
        self.set.agents()
    }

    /// The agent called `name` (opencode: by key, else by display name).
    pub fn find(&self, name: &str) -> Option<ExplainedAgent<'_>> {
        self.set.find(name)
    }

    /// Every name an agent has here (Zuno's disabled ones included), for suggestions.
    pub fn names(&self) -> Vec<&str> {
        self.set.names()
    }

    /// The list for the terminal; `marked` says which agents to mark as having problems.
    pub fn listing(&self, where_is: WhereIs, marked: &dyn Fn(&ExplainedAgent) -> bool) -> Listing {
        self.set.listing(where_is, marked)
    }

    /// Its part of `explain --matrix`; `None` when the dialect has none.
    pub fn matrix(&self) -> Option<MatrixPart> {
        self.set.matrix()
    }

    /// Its part of `explain --graph`.
    pub fn graph(&self, collapse: bool) -> (Vec<GraphNode>, Vec<GraphEdge>) {
        self.set.graph(collapse)
    }
}

/// One agent of one dialect, as `explain` shows it.
pub use crate::analysis::agents::Explained as ExplainedAgent;

/// `Some(why)` when file `f` would define agent `name`, `why` being the reason its runtime
/// does not load it when the dialect says one (Claude Code's skipped files).
pub fn would_define(ws: &Workspace, id: usize, name: &str) -> Option<Option<String>> {
    use crate::analysis::host::Host as _;
    let f = ws.file(id)?;
    f.kind.dialect().spec().would_define(&f, name)
}

/// `path` as written from folder `from` (`CLAUDE.md`, `.claude/CLAUDE.md`, `../CLAUDE.md`).
pub(super) fn relative_to(path: &Path, from: &Path) -> String {
    let common = from.ancestors().find(|a| path.starts_with(a));
    let Some(common) = common else {
        return path.display().to_string();
    };
    let ups = from.components().count() - common.components().count();
    let mut out: Vec<String> = vec!["..".into(); ups];
    out.extend(
        path.strip_prefix(common)
            .unwrap_or(path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    out.join("/")
}
