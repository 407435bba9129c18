//! Loading: the roots the user gave, the user-level layers, the layers around a project, and
//! the files each dialect's runtime brings along, each file found given its kind and role by
//! the dialects' path rules (see [`super::discover`] for the walk).

use std::fs;
use std::path::{Path, PathBuf};

use super::discover;
use super::model::*;
use super::read::{Unread, read_text};
use super::tree::FsDisk;
use crate::analysis::discovery::{self, Claim, Load, Stage};
use crate::analysis::spec::At;
use crate::analysis::{self, Diagnostic, Dialect, FileAnalysis, FileKind, LineIndex};

/// The stages of the path rules, in the order they are asked.
const STAGES: [Stage; 4] = [Stage::Own, Stage::UserSkills, Stage::ByName, Stage::Layout];

impl Workspace {
    /// Discover and analyse everything under `paths` (directories or files).
    pub fn load(paths: &[PathBuf], options: &Options) -> Result<Workspace, LoadError> {
        let mut ws = Workspace {
            options: options.clone(),
            ..Workspace::default()
        };
        let mut explicit = Vec::new();
        for p in paths {
            let meta = fs::metadata(p).map_err(|e| LoadError {
                path: p.clone(),
                message: e.to_string(),
            })?;
            // Absolute and canonical, so that the walk up to the worktree and the views see the
            // same paths for `.`, `packages/api` and `/abs/repo/packages/api`.
            let canonical = fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if meta.is_dir() {
                ws.roots.push(canonical);
            } else {
                explicit.push((p.clone(), canonical));
            }
        }
        ws.load_user_layers();
        for root in ws.roots.clone() {
            ws.load_root(&root);
            // Read (without reporting on them) the layers the runtimes also load when started
            // there: those of the ancestors up to the worktree top; for a config directory (or
            // a folder inside one) given as a path, those of its project.
            let project = Dialect::REGISTERED
                .iter()
                .find_map(|d| d.spec().enclosing_project(&root))
                .unwrap_or_else(|| root.clone());
            ws.load_context(&project);
        }
        for (given, file) in &explicit {
            let Some((kind, role)) = ws.role_of(file).or_else(|| ws.kind_alone(file)) else {
                return Err(LoadError {
                    path: given.clone(),
                    message: "not an opencode file (expected opencode.json, opencode.jsonc or a Markdown agent)".into(),
                });
            };
            // Its project, so that the agents it names resolve when the file is checked alone (as
            // pre-commit passes it).
            let project = kind
                .dialect()
                .spec()
                .project_of_role(&role)
                .unwrap_or_else(|| match &role {
                    Role::Dialect { dir, .. } | Role::Skill { dir } | Role::Command { dir } => Some(dir.clone()),
                    _ => None,
                });
            if role == Role::NotRead {
                ws.add_unread(file, kind, role, true, &Unread::NotRead);
                continue;
            }
            if let Role::NotChecked(what) = role {
                ws.add_unread(file, kind, role, true, &Unread::NotChecked(what));
                continue;
            }
            ws.read_and_add(file, kind, role, true);
            if let Some(project) = project {
                ws.load_context(&project);
            }
        }
        Ok(ws)
    }

    /// An empty workspace over `roots` (the language server fills it as it goes).
    pub fn new(roots: Vec<PathBuf>, options: Options) -> Workspace {
        let mut ws = Workspace {
            roots,
            options,
            ..Workspace::default()
        };
        ws.load_user_layers();
        ws
    }

    /// Discover and read everything under the roots (the language server's initial scan).
    pub fn scan(&mut self) {
        for root in self.roots.clone() {
            self.load_root(&root);
            let root = fs::canonicalize(&root).unwrap_or(root);
            self.load_above(&root);
        }
    }

    /// What the path rules may consult.
    fn at(&self) -> At<'_> {
        At {
            host: self,
            disk: &FsDisk,
            places: Dialect::places(),
        }
    }

    /// What a path is to the runtimes, given the roots and user directories of this workspace:
    /// `None` for a file no runtime reads. agent-lsp's own project file first; then each stage
    /// of the dialects' path rules, asked in registry order, with the skill and command folders
    /// several runtimes share between the stages (see [`Stage`]).
    pub fn role_of(&self, path: &Path) -> Option<(FileKind, Role)> {
        let name = path.file_name()?.to_string_lossy();
        let parent = path.parent()?;
        if crate::analysis::project_file::NAMES.contains(&name.as_ref()) {
            let dir = parent.to_path_buf();
            return Some((FileKind::ProjectFile, Role::ProjectFile { dir }));
        }
        let at = self.at();
        let ask = |stage: Stage| -> Claim {
            Dialect::REGISTERED
                .iter()
                .find_map(|d| d.spec().kind_of(path, &at, stage))
        };
        for stage in STAGES {
            if let Some(claim) = ask(stage) {
                return claim;
            }
            let shared = match stage {
                Stage::Own => discovery::skill_kind(path, at.places).map(|(k, dir)| (k.into(), Role::Skill { dir })),
                Stage::UserSkills => {
                    discovery::command_kind(path, at.places).map(|(k, dir)| (k.into(), Role::Command { dir }))
                }
                Stage::ByName | Stage::Layout => None,
            };
            if shared.is_some() {
                return shared;
            }
        }
        None
    }

    /// What a file named explicitly is when no place the runtimes read holds it: analysed on
    /// its own.
    pub(super) fn kind_alone(&self, path: &Path) -> Option<(FileKind, Role)> {
        let at = self.at();
        STAGES.into_iter().find_map(|stage| {
            Dialect::REGISTERED
                .iter()
                .find_map(|d| d.spec().kind_alone(path, &at, stage))
        })?
    }

    pub(super) fn in_roots(&self, path: &Path) -> bool {
        self.roots.iter().any(|r| path.starts_with(r))
    }

    /// Read what each runtime reads of the user's own folders: the names of its skills, its
    /// own state, and its files (reported when under the roots, unless read for resolution only).
    pub(super) fn load_user_layers(&mut self) {
        let mut files = Vec::new();
        for &d in Dialect::REGISTERED {
            let layer = d.spec().user_layer(&self.options, &FsDisk);
            if let Some(names) = layer.skill_names {
                self.user_skills.insert(d, names);
            }
            match layer.state {
                Some(state) => self.dialect_state.insert(d, state),
                None => self.dialect_state.remove(&d),
            };
            files.extend(layer.files);
        }
        self.load_all(files);
    }

    /// Read the files `loads` names, in order: those of a known kind (which their dialect found
    /// on disk) in batches (see [`Workspace::read_and_add_all`]), the others, where they exist, as
    /// the path rules say. Returns the ids added or refreshed.
    pub(super) fn load_all(&mut self, loads: Vec<Load>) -> Vec<usize> {
        let mut ids = Vec::new();
        let mut batch: Vec<(PathBuf, FileKind, Role, bool)> = Vec::new();
        for load in loads {
            let in_scope = load.report && self.in_roots(&load.path);
            match load.known {
                Some((kind, role)) => batch.push((load.path, kind, role, in_scope)),
                None => {
                    ids.extend(self.flush(std::mem::take(&mut batch)));
                    if load.path.is_file()
                        && let Some((kind, role)) = self.role_of(&load.path)
                    {
                        ids.extend(self.read_and_add(&load.path, kind, role, in_scope));
                    }
                }
            }
        }
        ids.extend(self.flush(batch));
        ids
    }

    /// Read a batch of files of known kinds (found on disk by their dialect); their ids.
    fn flush(&mut self, batch: Vec<(PathBuf, FileKind, Role, bool)>) -> Vec<usize> {
        if batch.is_empty() {
            return Vec::new();
        }
        self.read_and_add_all(batch)
    }

    /// The files a file that appeared on disk in `role` brings along before it is read (a new
    /// `opencode.json` can make its folder a config folder: its Markdown agents join); returns
    /// the ids added or refreshed.
    pub fn load_beside(&mut self, role: &Role) -> Vec<usize> {
        let loads: Vec<Load> = {
            let at = self.at();
            Dialect::REGISTERED
                .iter()
                .flat_map(|d| d.spec().files_beside(role, &at))
                .collect()
        };
        self.load_all(loads)
    }

    /// Load (or re-read) the files of the bundle at `root` (a Claude Code plugin), as it says
    /// on disk; files of it already loaded whose kind changed (the plugin was renamed, a custom
    /// path added or dropped) are re-analysed, and those it no longer holds removed. Returns the
    /// ids added or changed.
    pub fn load_bundle(&mut self, root: &Path) -> Vec<usize> {
        let mut touched = Vec::new();
        let Some(members) = Dialect::REGISTERED
            .iter()
            .find_map(|d| d.spec().bundle_files(root, &FsDisk))
        else {
            return touched;
        };
        // Files of the bundle already loaded: their kind as it now says.
        let loaded: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && f.path.starts_with(root) && f.role.folder() == Some(root)
            })
            .collect();
        for id in loaded {
            let path = self.files[id].path.clone();
            match self.role_of(&path) {
                Some((kind, role)) if kind != self.files[id].kind || role != self.files[id].role => {
                    let text = std::mem::take(&mut self.files[id].text);
                    let in_scope = self.files[id].in_scope;
                    touched.push(self.upsert(&path, kind, role, text, in_scope));
                }
                Some(_) => {}
                None => touched.extend(self.remove(&path)),
            }
        }
        let fresh: Vec<Load> = members.into_iter().filter(|l| self.id(&l.path).is_none()).collect();
        touched.extend(self.load_all(fresh));
        touched
    }

    /// [`Workspace::read_and_add`] for many files: those not loaded yet are read and analysed
    /// on every core, then added in the order given.
    pub(super) fn read_and_add_all(&mut self, items: Vec<(PathBuf, FileKind, Role, bool)>) -> Vec<usize> {
        let mut ids = Vec::new();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
        let (fresh, known): (Vec<_>, Vec<_>) = items
            .into_iter()
            .partition(|(p, ..)| self.id(p).is_none() && !self.errors.iter().any(|(e, _)| e == p));
        for (p, kind, role, in_scope) in known {
            ids.extend(self.read_and_add(&p, kind, role, in_scope));
        }
        // Reading on one thread or on several gives the same workspace (the files are added in
        // the order given either way): this choice is speed only, and no test can tell a
        // changed condition here (`threads == 2`, say) from this one.
        if threads < 2 || fresh.len() < 32 {
            for (p, kind, role, in_scope) in fresh {
                ids.extend(self.read_and_add(&p, kind, role, in_scope));
            }
            return ids;
        }
        type Read = Result<(String, Option<Diagnostic>, FileAnalysis, LineIndex), Unread>;
        let work = |(p, kind, ..): &(PathBuf, FileKind, Role, bool)| -> Read {
            let (text, problem) = read_text(p)?;
            let analysis = analysis::analyze(kind, &text);
            let index = LineIndex::new(&text);
            Ok((text, problem, analysis, index))
        };
        let chunk = fresh.len().div_ceil(threads);
        let results: Vec<Read> = std::thread::scope(|scope| {
            let handles: Vec<_> = fresh
                .chunks(chunk)
                .map(|part| scope.spawn(move || part.iter().map(work).collect::<Vec<Read>>()))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        for ((p, kind, role, in_scope), result) in fresh.into_iter().zip(results) {
            match result {
                Ok((text, problem, analysis, index)) => {
                    let id = self.upsert_analyzed(&p, kind, role, text, (analysis, index), in_scope);
                    ids.push(id);
                    if let Some(problem) = problem {
                        self.files[id].analysis.diagnostics.insert(0, problem);
                    }
                }
                Err(why) => {
                    ids.push(self.add_unread(&p, kind, role, in_scope, &why));
                }
            }
        }
        ids
    }

    pub(super) fn load_root(&mut self, root: &Path) {
        let found = discover::walk(root);
        self.errors.extend(found.unreadable.iter().cloned());
        for c in &found.configs {
            if let Some((kind, role)) = self.role_of(c) {
                self.read_and_add(c, kind, role, true);
            }
        }
        // Bundles (Claude Code plugins): everything each one holds, custom paths included.
        for c in &found.configs {
            if let Some(id) = self.id(c)
                && let Some(bundle) = brings_files(&self.files[id].kind, &self.files[id].role)
            {
                self.load_bundle(&bundle);
            }
        }
        for (d, dir) in &found.folders {
            let loads = d.spec().folder_files(dir, &FsDisk);
            self.load_all(loads);
        }
        // Documents whose config directory lies above the root (the root is a config
        // directory or a folder inside one).
        for md in &found.markdown {
            if self.id(md).is_none()
                && let Some((kind, role)) = self.role_of(md)
                && role != Role::NotRead
            {
                self.read_and_add(md, kind, role, true);
            }
        }
    }

    /// Read, without reporting on them, the layers the runtimes would load when started in
    /// `project`: those of it and its ancestors up to the worktree top (the first directory
    /// holding `.git`, else the file-system root), and those of every folder above it.
    pub(super) fn load_context(&mut self, project: &Path) {
        let project = fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
        let mut top = project.clone();
        for anc in project.ancestors().take(64) {
            // agent-lsp's own project file: it governs what is reported under it.
            for name in crate::analysis::project_file::NAMES {
                let f = anc.join(name);
                if self.id(&f).is_none() && f.is_file() {
                    let role = Role::ProjectFile { dir: anc.to_path_buf() };
                    self.read_and_add(&f, FileKind::ProjectFile, role, false);
                }
            }
            let loads: Vec<Load> = Dialect::REGISTERED
                .iter()
                .flat_map(|d| d.spec().context_files(anc, &FsDisk))
                .collect();
            self.load_all(loads);
            top = anc.to_path_buf();
            if anc.join(".git").exists() {
                break;
            }
        }
        self.load_above(&project);
        if !self.context_roots.contains(&top) {
            self.context_roots.push(top);
        }
    }

    /// Read the files the runtimes read in every folder above `dir` (Claude Code started there
    /// reads the `.mcp.json` of every folder above it, past the repository's top too), reported
    /// when under the roots.
    pub(super) fn load_above(&mut self, dir: &Path) {
        let loads: Vec<Load> = dir
            .ancestors()
            .take(64)
            .flat_map(|anc| Dialect::REGISTERED.iter().flat_map(move |d| d.spec().files_above(anc)))
            .filter(|f| self.id(f).is_none())
            .map(Load::path)
            .collect();
        self.load_all(loads);
    }

    /// Read the skills the runtime of the file `id` finds for its project beyond the files held
    /// (Zuno's), once per project.
    pub(super) fn load_project_skills(&mut self, id: usize) {
        let (kind, role) = (&self.files[id].kind, &self.files[id].role);
        let dialect = kind.dialect();
        let Some(project) = dialect.spec().skill_project(kind, role) else {
            return;
        };
        let key = (dialect, project);
        if self.dialect_skills.contains_key(&key) {
            return;
        }
        let names = dialect
            .spec()
            .project_skill_files(&key.1, &self.options, &FsDisk)
            .iter()
            .filter_map(|p| read_text(p).ok())
            .filter_map(|(text, _)| discovery::skill_name(&text))
            .collect();
        self.dialect_skills.insert(key, names);
    }
}

/// The folder whose files a file brings along once read: a plugin manifest decides what its
/// plugin contributes, and under which name (see [`Workspace::load_bundle`]).
pub fn brings_files(kind: &FileKind, role: &Role) -> Option<PathBuf> {
    Dialect::REGISTERED.iter().find_map(|d| d.spec().bundle_of(kind, role))
}
