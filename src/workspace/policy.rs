//! The project's own settings (`agent-lsp.toml`) applied to what is reported.
//!
//! A file is governed by the nearest project file in its directory or an ancestor, up to the
//! workspace root that holds it: the top of its worktree, or the folder given when that is
//! higher (`agent-lsp.toml` before `.agent-lsp.toml` in one directory).
//! Files it excludes (by glob, relative to its directory) or whose dialect it leaves out are
//! still read, since their agents exist for the runtime, but nothing is reported on them. Its
//! `[rules]` levels change or silence each code, its `select`, `ignore` and `per-file-ignores`
//! choose what is reported ([`ProjectFile::level_of`]), except for the codes an editor setting
//! decides ([`Workspace::set_editor_codes`]): there the editor wins.

use std::path::Path;

use crate::analysis::{Code, Diagnostic};

use super::Workspace;
use crate::analysis::Level;
use crate::analysis::project_file::{NAMES, ProjectFile};

impl Workspace {
    /// The project file governing `path`, with its id.
    pub fn project_file_for(&self, path: &Path) -> Option<(usize, &ProjectFile)> {
        if self.project_files.is_empty() {
            return None;
        }
        // Up to the workspace root holding the file: a folder given, or the top of the worktree
        // around it (for a file given alone, as pre-commit passes them, or a sub-folder).
        let root = self
            .roots
            .iter()
            .chain(&self.context_roots)
            .filter(|r| path.starts_with(r))
            .min_by_key(|r| r.as_os_str().len())?;
        for dir in path.ancestors().skip(1) {
            for name in NAMES {
                if let Some(id) = self.id(&dir.join(name))
                    && let Some(p) = self.files[id].analysis.project()
                {
                    return Some((id, p));
                }
            }
            if dir == root.as_path() {
                break;
            }
        }
        None
    }

    /// Whether the project file leaves file `id` out of every report.
    pub fn excluded(&self, id: usize) -> bool {
        let f = &self.files[id];
        if f.kind.is_project_file() {
            return false;
        }
        self.project_file_for(&f.path)
            .is_some_and(|(pid, p)| self.excludes(pid, p, id))
    }

    /// Whether project file `pid` (`p`) leaves file `id` out: its dialect is not reported, or an
    /// `exclude` glob (relative to the project file's directory) matches it.
    fn excludes(&self, pid: usize, p: &ProjectFile, id: usize) -> bool {
        if !p.reports(self.files[id].kind.dialect()) {
            return true;
        }
        self.relative(pid, id).is_some_and(|r| p.excludes(&r))
    }

    /// The path of file `id` relative to project file `pid`'s directory, `/`-separated; `None`
    /// for a file outside it.
    fn relative(&self, pid: usize, id: usize) -> Option<String> {
        let dir = self.files[pid].path.parent().unwrap_or(Path::new(""));
        let relative = self.files[id].path.strip_prefix(dir).ok()?;
        let parts: Vec<String> = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(parts.join("/"))
    }

    /// The codes whose level an editor setting decides (the project file does not change them).
    pub fn set_editor_codes(&mut self, codes: Vec<Code>) {
        self.editor_codes = codes;
    }

    /// Apply the project file governing file `id` to its diagnostics.
    pub(super) fn apply_policy(&self, id: usize, diags: &mut Vec<Diagnostic>) {
        if diags.iter().any(|d| d.code == Code::UnpinnedPackage) {
            self.pin_packages(id, diags);
        }
        // What is said of a file no one else receives (outside a repository, or one git ignores):
        // a home folder's path there names a file that is there, a grant is that person's
        // choice, and a secret is where it belongs. One look at the disk for all three.
        if diags
            .iter()
            .any(|d| matches!(d.code, Code::HomePath | Code::BroadGrant | Code::HardcodedSecret))
        {
            let path = &self.files[id].path;
            let ignored = super::discover::git_ignored(path);
            let committed = !ignored && super::discover::in_repository(path);
            if committed {
                // A path that is not there (`missing-path`, `broken-link`) is that finding's.
                let missing: Vec<_> = diags
                    .iter()
                    .filter(|d| matches!(d.code, Code::MissingPath | Code::BrokenLink))
                    .map(|d| d.span)
                    .collect();
                diags.retain(|d| {
                    d.code != Code::HomePath || !missing.iter().any(|m| m.start <= d.span.start && d.span.end <= m.end)
                });
            } else {
                diags.retain(|d| !matches!(d.code, Code::HomePath | Code::BroadGrant));
            }
            if ignored {
                diags.retain(|d| d.code != Code::HardcodedSecret);
            }
        }
        if diags.is_empty() || self.project_files.is_empty() {
            return;
        }
        let f = &self.files[id];
        // One lookup for both the exclusion and the levels (a project file's levels apply to
        // itself too, but it never excludes itself).
        let Some((pid, p)) = self.project_file_for(&f.path) else {
            return;
        };
        if !f.kind.is_project_file() && self.excludes(pid, p, id) {
            diags.clear();
            return;
        }
        if !p.has_rules() {
            return;
        }
        let relative = if p.per_file.is_empty() {
            None
        } else {
            self.relative(pid, id)
        };
        diags.retain_mut(|d| {
            if self.editor_codes.contains(&d.code) {
                return true;
            }
            match p.level_of(d, relative.as_deref()) {
                Some(Level::Off) => false,
                Some(Level::On(s)) => {
                    d.severity = s;
                    true
                }
                None => true,
            }
        });
    }
}

impl Workspace {
    /// Drop the `unpinned-package` findings of file `id` that the project's own install
    /// answers, and give the others the version to pin to where one is known.
    pub(super) fn pin_packages(&self, id: usize, diags: &mut Vec<Diagnostic>) {
        let f = &self.files[id];
        let dir = f.path.parent().unwrap_or(Path::new(""));
        diags.retain_mut(|d| {
            if d.code != Code::UnpinnedPackage {
                return true;
            }
            let Some(u) = f.analysis.unpinned.iter().find(|u| u.span == d.span) else {
                return true;
            };
            if u.registry != crate::analysis::launch::Registry::Npm {
                return true;
            }
            let local = matches!(u.runner.as_str(), "npx" | "bunx" | "npm exec" | "npm x");
            match super::pins::npm_package(dir, &u.name, local, self.options.home.as_deref(), &self.pins) {
                super::pins::Known::Installed => false,
                super::pins::Known::Seen(version, cache) => {
                    super::pins::pin(d, u, &f.text, &version, cache);
                    true
                }
                super::pins::Known::Nothing => true,
            }
        });
    }
}
