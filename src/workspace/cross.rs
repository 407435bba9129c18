//! Incremental cross-file checks.
//!
//! The cross-file checks are split into **units**, each a pure function of a known list of
//! files: one per opencode view (its registry, `default_agent`, command agents, duplicate
//! Markdown agents, skill patterns), one for the Claude Code agents, one for skill duplicates,
//! one for command files' `agent`, one per Zuno project, one per workspace folder with Copilot files. Every file carries a **stamp** that
//! changes only when something a cross-file check reads of it may have changed: for a Markdown
//! file with a frontmatter, its frontmatter text and whether its body is empty (typing in the
//! body leaves the stamp alone); for any other file, its whole text; and its role, kind and
//! scope. A change of role, kind, scope or liveness (a file created, deleted, opened from
//! outside the folders) also bumps the workspace's **structure** generation, which rebuilds the
//! list of units (the views depend on where the files are).
//!
//! [`Workspace::refresh_cross`] recomputes only the units whose input stamps changed and keeps
//! an index of their diagnostics per file, so that a keystroke costs the file's own analysis
//! plus the units that contain it, never a pass over the whole workspace's diagnostics. Its
//! result is, by construction, what [`Workspace::diagnostics`] computes from nothing; a
//! property test drives random edits, creations and deletions through a server and compares its
//! publishes with a fresh server's.

use std::collections::HashMap;
use std::path::Path;

use super::model::*;
use super::units::{Deps, Unit, UnitDef};
use crate::analysis::spec::UnitRef;
use crate::analysis::{Code, Diagnostic, Dialect, FileKind};

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use crate::analysis::suppress::{self, Report};

/// What a cross-file check may read of a file, hashed: the frontmatter (up to the last line
/// that starts with `---`) and whether the rest is blank, for a Markdown file that starts with
/// one; the whole text otherwise.
pub(super) fn content_key(kind: &FileKind, text: &str) -> u64 {
    let mut h = crate::analysis::hash::FxHasher::default();
    let t = text.strip_prefix('\u{feff}').unwrap_or(text);
    let cut = if kind.is_markdown() && t.starts_with("---") {
        // The end of the last line starting with `---`: conservative (a `---` in the body only
        // makes more of the text count). With the opening line alone the frontmatter is never
        // closed and the runtimes read the rest as its YAML: all of the text counts.
        let offset = text.len() - t.len();
        let mut end = None;
        let mut pos = 0;
        let mut fences = 0;
        for line in t.split_inclusive('\n') {
            if line.starts_with("---") {
                end = Some(pos + line.len());
                fences += 1;
            }
            pos += line.len();
        }
        end.filter(|_| fences > 1).map(|e| offset + e)
    } else {
        None
    };
    match cut {
        Some(e) => {
            text[..e].hash(&mut h);
            text[e..].trim().is_empty().hash(&mut h);
        }
        None => text.hash(&mut h),
    }
    h.finish()
}

/// What the name-level checks read of a file, hashed (see [`Deps`]): what its dialect says
/// they read of it (`DialectSpec::names_key`), else its content key.
pub(super) fn names_key(f: &File, content: u64) -> u64 {
    f.kind
        .dialect()
        .spec()
        .names_key(&f.kind, f.effective_analysis())
        .unwrap_or(content)
}

/// The place of a file in the views, hashed.
pub(super) fn shape_key(f: &File) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (f.live, f.in_scope).hash(&mut h);
    format!("{:?}{:?}", f.role, f.kind).hash(&mut h);
    f.path.hash(&mut h);
    h.finish()
}

impl Workspace {
    /// Record a change of file `id`: a new stamp when what the cross-file checks read of it may
    /// have changed (`force`: always, e.g. its substituted values changed), a new structure
    /// generation when its place in the views changed.
    pub(super) fn restamp(&mut self, id: usize, force: bool) {
        let f = &self.files[id];
        let shape = shape_key(f);
        let content = if f.live { content_key(&f.kind, &f.text) } else { 0 };
        let shape_changed = shape != f.shape;
        if shape_changed {
            self.structure += 1;
        }
        if shape_changed || content != f.content || force {
            let names = if f.live { names_key(f, content) } else { 0 };
            self.clock += 1;
            let clock = self.clock;
            let f = &mut self.files[id];
            f.stamp = clock;
            if shape_changed || force || names != f.names_key {
                f.names = clock;
                f.names_key = names;
            }
            f.shape = shape;
            f.content = content;
        }
    }

    /// Mark a file as reported on or not.
    pub fn set_in_scope(&mut self, id: usize, in_scope: bool) {
        if self.files[id].in_scope != in_scope {
            self.files[id].in_scope = in_scope;
            self.restamp(id, false);
        }
    }

    /// The cross-file units of the workspace, with the files each reads.
    pub fn units(&self) -> Vec<UnitDef> {
        let ids = |pred: &dyn Fn(&File) -> bool| -> Vec<usize> {
            (0..self.files.len())
                .filter(|&i| self.files[i].live && pred(&self.files[i]))
                .collect()
        };
        let skills = ids(&|f| matches!(f.role, Role::Skill { .. }));
        let mut out = Vec::new();
        for dialect in Dialect::ALL {
            for u in dialect.spec().units(self) {
                out.push(UnitDef {
                    unit: Unit::Dialect {
                        dialect,
                        part: u.part,
                        dir: u.dir,
                    },
                    view: u.view,
                    inputs: u.inputs,
                    groups: u.groups,
                });
            }
        }
        if !skills.is_empty() {
            out.push(UnitDef {
                unit: Unit::Skills,
                view: Vec::new(),
                inputs: skills,
                groups: Vec::new(),
            });
        }
        if self
            .files
            .iter()
            .any(|f| f.live && matches!(f.role, Role::Command { .. }))
        {
            // A command's `agent` resolves against its project's agents: any file may matter.
            out.push(UnitDef {
                unit: Unit::Commands,
                view: Vec::new(),
                inputs: ids(&|_| true),
                groups: Vec::new(),
            });
        }
        // The memory files but rules (whose edits are frequent and import nothing that
        // counts here): one may import another (`@AGENTS.md`).
        let instructions = ids(&|f| f.kind.dialect().spec().reads_instructions(&f.kind));
        if (0..self.files.len()).any(|id| self.files[id].live && self.instruction_file(id).is_some()) {
            out.push(UnitDef {
                unit: Unit::Instructions,
                view: Vec::new(),
                inputs: instructions,
                groups: Vec::new(),
            });
        }
        let policy_files = self.policy_files();
        if !policy_files.is_empty() {
            for (pid, dir) in policy_files {
                out.extend(self.policy_units(pid, &dir));
            }
        }
        out
    }

    /// The signature of the stamps a unit's result depends on.
    fn signature(&self, def: &UnitDef, deps: &Deps) -> u64 {
        let mut h = crate::analysis::hash::FxHasher::default();
        match deps {
            Deps::All => {
                for &i in &def.inputs {
                    (i, self.files[i].stamp).hash(&mut h);
                }
            }
            Deps::Names(files, names) => {
                for &i in &def.inputs {
                    (i, self.files[i].names).hash(&mut h);
                }
                h.write_u8(0xff);
                for &i in files {
                    let f = &self.files[i];
                    if f.resolved.is_some() {
                        // Substituted values are not the text: the whole file.
                        (i, f.stamp).hash(&mut h);
                        continue;
                    }
                    // The settings of the agents looked up, as written and where: a keystroke
                    // in another agent of the same config leaves them alone.
                    for (at, span) in f.kind.dialect().spec().declarations(&f.analysis, names) {
                        (i, at, span).hash(&mut h);
                        match span.map(|s| f.text.get(s.start as usize..s.end as usize)) {
                            Some(Some(written)) => written.hash(&mut h),
                            Some(None) => f.stamp.hash(&mut h),
                            None => {}
                        }
                    }
                }
            }
        }
        h.finish()
    }

    /// The diagnostics of one unit, for the files in scope only.
    pub fn unit_diagnostics(&self, def: &UnitDef) -> Vec<(usize, Diagnostic)> {
        self.unit_diagnostics_and_deps(def).0
    }

    /// [`Workspace::unit_diagnostics`], with what they were computed from.
    fn unit_diagnostics_and_deps(&self, def: &UnitDef) -> (Vec<(usize, Diagnostic)>, Deps) {
        let mut deps = Deps::All;
        let mut out = match &def.unit {
            Unit::Dialect { dialect, part, dir } => {
                let unit = UnitRef {
                    part,
                    dir: dir.as_deref(),
                    view: &def.view,
                    groups: &def.groups,
                };
                let (d, reads) = dialect.spec().check_unit(self, unit);
                deps = reads;
                d
            }
            Unit::Skills => self.duplicate_skills(),
            Unit::Commands => {
                // Names (and whether each agent is disabled) only, for every runtime.
                deps = Deps::Names(Vec::new(), Vec::new());
                self.command_agents()
            }
            Unit::Instructions => self.instruction_checks(),
            Unit::Policies(pid) => match self.files[*pid].path.parent() {
                Some(dir) => self.policy_diagnostics(*pid, dir),
                None => Vec::new(),
            },
            Unit::PolicyFile { project, file } => {
                self.policy_diagnostics_of_file(*project, *file, (&def.view, &def.groups))
            }
        };
        out.retain(|(id, _)| self.files[*id].in_scope);
        for (id, d) in &mut out {
            crate::analysis::edit::keep_quotes(&self.files[*id].text, d);
        }
        (out, deps)
    }

    /// Bring the cross-file results up to date; returns the files whose cross-file diagnostics
    /// may have changed (every file, after a structure change).
    pub fn refresh_cross(&mut self) -> HashSet<usize> {
        let mut cache = std::mem::take(&mut self.cross);
        let mut changed: HashSet<usize> = HashSet::new();
        if cache.structure != Some(self.structure) {
            cache.units = self.units();
            cache.structure = Some(self.structure);
            let keep: HashSet<&Unit> = cache.units.iter().map(|d| &d.unit).collect();
            let gone: Vec<Unit> = cache.results.keys().filter(|u| !keep.contains(u)).cloned().collect();
            for u in gone {
                if let Some((_, _, files)) = cache.results.remove(&u) {
                    for id in files {
                        changed.insert(id);
                        if let Some(v) = cache.by_file.get_mut(&id) {
                            v.retain(|(w, _)| *w != u);
                        }
                    }
                }
            }
            // Scope and liveness may have changed anywhere.
            changed.extend(0..self.files.len());
        }
        for def in &cache.units {
            if cache
                .results
                .get(&def.unit)
                .is_some_and(|(deps, sig, _)| *sig == self.signature(def, deps))
            {
                continue;
            }
            let (out, deps) = self.unit_diagnostics_and_deps(def);
            let sig = self.signature(def, &deps);
            if let Some((_, _, old)) = cache.results.remove(&def.unit) {
                for id in old {
                    changed.insert(id);
                    if let Some(v) = cache.by_file.get_mut(&id) {
                        v.retain(|(w, _)| *w != def.unit);
                        if v.is_empty() {
                            cache.by_file.remove(&id);
                        }
                    }
                }
            }
            let mut files: Vec<usize> = Vec::with_capacity(out.len());
            for (id, d) in out {
                changed.insert(id);
                files.push(id);
                cache.by_file.entry(id).or_default().push((def.unit.clone(), d));
            }
            files.sort_unstable();
            files.dedup();
            cache.results.insert(def.unit.clone(), (deps, sig, files));
        }
        self.cross = cache;
        changed
    }

    /// A file's own diagnostics (when in scope), without the cross-file ones; its suppressions
    /// applied, unused ones not reported (the cross-file diagnostics are not known).
    pub fn own_diagnostics(&self, id: usize) -> Vec<Diagnostic> {
        let f = &self.files[id];
        let mut out = if f.in_scope && f.live {
            suppress::apply(&f.analysis.suppressions, f.analysis.diagnostics.clone(), Report::Local)
        } else {
            Vec::new()
        };
        self.apply_policy(id, &mut out);
        sort(&mut out);
        out
    }

    /// Every diagnostic of one file: its own (when in scope) and the cross-file ones of the
    /// units, de-duplicated (a file in several views gets the same finding from each), sorted by
    /// position. Needs [`Workspace::refresh_cross`] first.
    pub fn file_diagnostics(&self, id: usize) -> Vec<Diagnostic> {
        let f = &self.files[id];
        let mut out = if f.in_scope && f.live {
            f.analysis.diagnostics.clone()
        } else {
            Vec::new()
        };
        if let Some(cross) = self.cross.by_file.get(&id) {
            let mut seen: HashSet<(u32, u32, crate::analysis::Code, &str)> = HashSet::new();
            for (_, d) in cross {
                if seen.insert((d.span.start, d.span.end, d.code, d.message.as_str())) {
                    out.push(d.clone());
                }
            }
        }
        let mut out = suppressed(f, out);
        self.apply_policy(id, &mut out);
        sort(&mut out);
        out
    }
}

/// A file's full diagnostics (own and cross-file) with its suppressions applied and the unused
/// ones reported; out of scope, none.
pub(super) fn suppressed(f: &File, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if !(f.in_scope && f.live) {
        return diags;
    }
    suppress::apply(&f.analysis.suppressions, diags, Report::All)
}

/// The order of a file's diagnostics: by position, then rule, then message.
pub(super) fn sort(d: &mut [Diagnostic]) {
    d.sort_by(|a, b| {
        (a.span.start, a.span.end, a.code, &a.message).cmp(&(b.span.start, b.span.end, b.code, &b.message))
    });
}

impl Workspace {
    /// A command's `agent` that names no agent of its runtime in its project.
    pub(crate) fn command_agents(&self) -> Vec<(usize, Diagnostic)> {
        use crate::analysis::diagnostic::{Effect, Severity};
        let mut out = Vec::new();
        let mut cache: HashMap<(crate::analysis::Dialect, &Path), Vec<(String, String)>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live && f.in_scope) {
            let (Role::Command { dir }, Some(kind), Some(decl)) = (&f.role, f.kind.command(), f.analysis.command())
            else {
                continue;
            };
            let Some((agent, span)) = &decl.agent else { continue };
            let names = cache
                .entry((kind.runtime, dir.as_path()))
                .or_insert_with(|| self.agents_for_command(kind.runtime, dir));
            if names.iter().any(|(n, _)| n == agent) {
                continue;
            }
            let near = crate::analysis::suggest::closest(agent, names.iter().map(|(n, _)| n.as_str()));
            let mut d = Diagnostic::new(
                Code::UnknownAgent,
                *span,
                format!(
                    "no {} agent `{agent}` is defined for this project: the command fails when it runs.{}",
                    kind.runtime.product(),
                    crate::analysis::suggest::did_you_mean(near)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::FailsWhenUsed);
            if let Some(n) = near {
                let raw = span.text(&f.text);
                let new = if raw.starts_with(['"', '\'']) {
                    format!("\"{n}\"")
                } else {
                    n.to_string()
                };
                d = d.with_suggestion(*span, new);
            }
            out.push((id, d));
        }
        out
    }

    /// Skills of one project with the same name that one runtime loads together.
    pub(crate) fn duplicate_skills(&self) -> Vec<(usize, Diagnostic)> {
        use crate::analysis::diagnostic::{Effect, Location, Severity};
        let mut by_name: HashMap<(&Path, &str), Vec<usize>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate().filter(|(_, f)| f.live) {
            let (Role::Skill { dir }, Some(kind), Some(decl)) = (&f.role, f.kind.skill(), f.analysis.skill()) else {
                continue;
            };
            // A plugin lists two skills of one name both (`/plugin:name` twice): not this check.
            if kind.loaders.is_empty() || kind.namespace.is_some() {
                continue;
            }
            if let Some(name) = &decl.name {
                by_name.entry((dir.as_path(), name.as_str())).or_default().push(id);
            }
        }
        let mut out = Vec::new();
        for ((_, name), ids) in by_name.into_iter().filter(|(_, v)| v.len() > 1) {
            for &id in &ids {
                let f = &self.files[id];
                let Some(kind) = f.kind.skill() else { continue };
                // The others a runtime that loads this one also loads.
                let others: Vec<usize> = ids
                    .iter()
                    .copied()
                    .filter(|&o| o != id)
                    .filter(|&o| {
                        self.files[o]
                            .kind
                            .skill()
                            .is_some_and(|k| k.loaders.iter().any(|d| kind.loaders.contains(d)))
                    })
                    .collect();
                if others.is_empty() || !f.in_scope {
                    continue;
                }
                let span = f.analysis.skill().map(|d| d.span).unwrap_or_default();
                let shared = |d: crate::analysis::Dialect| {
                    kind.loaders.contains(&d)
                        && others
                            .iter()
                            .any(|&o| self.files[o].kind.skill().is_some_and(|k| k.loaders.contains(&d)))
                };
                let effects: Vec<&str> = crate::analysis::skill_loaders()
                    .iter()
                    .filter(|l| shared(l.runtime))
                    .map(|l| l.duplicate)
                    .collect();
                let mut d = Diagnostic::new(
                    Code::DuplicateSkill,
                    span,
                    format!(
                        "{} other `SKILL.md` of this project also define{} the skill `{name}`: {}",
                        others.len(),
                        if others.len() == 1 { "s" } else { "" },
                        effects.join("; ")
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::ValueIgnored);
                for o in others {
                    let os = self.files[o].analysis.skill().map(|d| d.span).unwrap_or_default();
                    d = d.with_related(
                        Location::File { file: o, span: os },
                        format!("`{name}` is also defined here"),
                    );
                }
                out.push((id, d));
            }
        }
        out.sort_by_key(|(id, _)| *id);
        out
    }
}
