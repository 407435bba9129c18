//! The file store, kept incremental: a file added, replaced or removed is re-analysed alone,
//! with what one file's analysis needs from the others (`{file:}` references, links, plugin
//! manifests).

use std::path::{Path, PathBuf};

use super::model::*;
use super::read::{Unread, read_text, unchecked_file};
use crate::analysis::{self, Code, Diagnostic, FileAnalysis, FileKind, LineIndex, Span};

impl Workspace {
    /// The file at `path`, if loaded and live.
    pub fn id(&self, path: &Path) -> Option<usize> {
        let id = *self.by_path.get(&key(path))?;
        self.files[id].live.then_some(id)
    }

    /// Add or replace a file with the given text and analyse it. Returns its id.
    pub fn upsert(&mut self, path: &Path, kind: FileKind, role: Role, text: String, in_scope: bool) -> usize {
        let analysis = analysis::analyze(&kind, &text);
        let index = LineIndex::new(&text);
        self.upsert_analyzed(path, kind, role, text, (analysis, index), in_scope)
    }

    /// [`Workspace::upsert`] with the analysis and line index already computed.
    pub(super) fn upsert_analyzed(
        &mut self,
        path: &Path,
        kind: FileKind,
        role: Role,
        text: String,
        (analysis, index): (FileAnalysis, LineIndex),
        in_scope: bool,
    ) -> usize {
        let file = File {
            path: path.to_path_buf(),
            kind,
            role,
            text,
            index,
            analysis,
            in_scope,
            live: true,
            resolved: None,
            reads: false,
            stamp: 0,
            names: 0,
            shape: 0,
            content: 0,
            names_key: 0,
        };
        let id = match self.by_path.get(&key(path)) {
            Some(&id) => {
                let old = &self.files[id];
                let was_in_scope = old.in_scope && old.live;
                let kept = (old.stamp, old.names, old.shape, old.content, old.names_key);
                self.files[id] = file;
                let f = &mut self.files[id];
                f.in_scope |= was_in_scope;
                (f.stamp, f.names, f.shape, f.content, f.names_key) = kept;
                id
            }
            None => {
                self.files.push(file);
                let id = self.files.len() - 1;
                self.by_path.insert(key(path), id);
                id
            }
        };
        if self.files[id].kind.is_project_file() && !self.project_files.contains(&id) {
            self.project_files.push(id);
        }
        // A file whose checks read other files (a config with substitutions, a plugin
        // manifest): always a new stamp.
        let (_, reads) = self.check_on_disk(id, true);
        self.restamp(id, reads);
        self.load_project_skills(id);
        id
    }

    /// Analyse again, with the disk as it is now, every file whose analysis reads other files
    /// (a config's `{file:...}` references, a plugin manifest's paths): a referenced file was
    /// created, changed or deleted. Returns those files.
    pub fn refresh_file_references(&mut self) -> Vec<usize> {
        self.disk.clear();
        self.memo.clear();
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| self.files[i].live && self.files[i].reads)
            .collect();
        for &id in &ids {
            let f = &mut self.files[id];
            f.analysis = analysis::analyze(&f.kind, &f.text);
            self.check_on_disk(id, true);
            self.restamp(id, true);
        }
        ids
    }

    /// Run the checks of file `id` that look at the disk (see `DialectSpec::disk_checks`): the
    /// values its runtime substitutes and the checks that add to its analysis when it was just
    /// analysed (`fresh`), and those that replace their own findings always. Returns whether its
    /// findings changed, and whether its checks read other files.
    pub(super) fn check_on_disk(&mut self, id: usize, fresh: bool) -> (bool, bool) {
        let spec = self.files[id].kind.dialect().spec();
        let mut reads = false;
        if fresh {
            let sub = spec.substitute(self, id);
            // Values substituted from other files or the environment.
            reads = sub.is_some();
            let f = &mut self.files[id];
            match sub {
                Some(s) => {
                    f.resolved = s.resolved;
                    f.analysis.diagnostics.extend(s.problems);
                    f.analysis
                        .diagnostics
                        .sort_by_key(|d| (d.span.start, d.span.end, d.code));
                }
                None => f.resolved = None,
            }
        }
        let mut changed = self.check_links(id);
        for check in spec.disk_checks(self, id) {
            match check.own {
                Some(own) => changed |= self.replace_findings_of(id, own, check.found),
                None if fresh => {
                    reads = true;
                    changed |= self.replace_findings_of(id, |_| false, check.found);
                }
                None => {}
            }
        }
        if fresh {
            self.files[id].reads = reads;
        }
        (changed, self.files[id].reads)
    }

    /// The files file `id` names that exist (document links).
    pub fn file_links(&self, id: usize) -> Vec<(Span, PathBuf)> {
        self.files[id].kind.dialect().spec().file_links(self, id)
    }

    /// Run every file's disk checks again (files were created or deleted); returns the files
    /// whose findings changed.
    pub fn refresh_disk_checks(&mut self) -> Vec<usize> {
        self.disk.clear();
        self.memo.clear();
        if let Ok(memo) = self.instruction_memo.get_mut() {
            memo.1.clear();
        }
        (0..self.files.len())
            .filter(|&id| self.files[id].live && self.check_on_disk(id, false).0)
            .collect()
    }

    /// Replace the text of a loaded file (an editor keystroke) and analyse it again; no path
    /// lookup, no file-system call.
    pub fn set_text(&mut self, id: usize, text: String) {
        let f = &mut self.files[id];
        f.analysis = analysis::analyze(&f.kind, &text);
        f.index = LineIndex::new(&text);
        f.text = text;
        f.live = true;
        f.in_scope = true;
        let (_, reads) = self.check_on_disk(id, true);
        self.restamp(id, reads);
    }

    /// The relative links of a `SKILL.md` to files that do not exist (`broken-link`), in its own
    /// diagnostics: the analysis found the links, the file system decides. Run when the file is
    /// analysed and again by [`Workspace::refresh_skill_links`] when files appear or vanish.
    /// Returns whether the file's broken links changed.
    pub(super) fn check_links(&mut self, id: usize) -> bool {
        use crate::analysis::diagnostic::{Effect, Severity};
        let f = &self.files[id];
        let Some(decl) = f.analysis.skill() else {
            return false;
        };
        let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::BrokenLink);
        if decl.links.is_empty() && !had {
            return false;
        }
        let Some(folder) = f.path.parent() else { return false };
        let mut found = Vec::new();
        for link in &decl.links {
            let target = normalize(&folder.join(&link.path));
            if target.exists() {
                continue;
            }
            let near = (&super::tree::FsDisk as &dyn crate::analysis::discovery::Disk).closest_sibling(&target);
            let (path_near, fix) = match &near {
                Some(n) => {
                    let dir = link.path.rfind('/').map_or("", |i| &link.path[..=i]);
                    (Some(format!("{dir}{n}")), name_span(&f.text, link.span, &target))
                }
                None => (None, None),
            };
            let mut message = format!(
                "`{}` does not exist (links resolve from the skill's folder): a model that follows this link finds no file",
                link.path
            );
            if let Some(p) = &path_near {
                message.push_str(&format!(".{}", crate::analysis::suggest::did_you_mean(Some(p))));
            }
            let mut d = Diagnostic::new(Code::BrokenLink, link.span, message)
                .with_severity(Severity::Warning)
                .with_effect(Effect::FailsWhenUsed);
            if let (Some(n), Some(span)) = (&near, fix) {
                d = d.with_suggestion(span, n.as_str());
            }
            found.push(d);
        }
        self.replace_findings(id, Code::BrokenLink, found)
    }

    /// Replace the findings of `code` in file `id` by `found` (those a disk lookup gave); returns
    /// whether they changed (same spans and messages: nothing to publish).
    pub(super) fn replace_findings(&mut self, id: usize, code: Code, found: Vec<Diagnostic>) -> bool {
        self.replace_findings_of(id, |d| d.code == code, found)
    }

    /// [`Workspace::replace_findings`] for the findings `which` picks (two checks that report one
    /// code on one file each replace their own).
    pub(super) fn replace_findings_of(
        &mut self,
        id: usize,
        which: impl Fn(&Diagnostic) -> bool,
        found: Vec<Diagnostic>,
    ) -> bool {
        let f = &mut self.files[id];
        let mut old = f.analysis.diagnostics.iter().filter(|d| which(d));
        let same = old.clone().count() == found.len()
            && found
                .iter()
                .all(|b| old.next().is_some_and(|a| a.span == b.span && a.message == b.message));
        if same {
            return false;
        }
        f.analysis.diagnostics.retain(|d| !which(d));
        f.analysis.diagnostics.extend(found);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
        true
    }

    /// Check the links of every `SKILL.md` again (files were created or deleted); returns the
    /// skills whose broken links changed.
    pub fn refresh_skill_links(&mut self) -> Vec<usize> {
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && f.analysis.skill().is_some_and(|s| !s.links.is_empty())
            })
            .collect();
        ids.into_iter().filter(|&id| self.check_links(id)).collect()
    }

    /// Remove a file (deleted on disk). Its id is not reused.
    pub fn remove(&mut self, path: &Path) -> Option<usize> {
        let id = self.id(path)?;
        let f = &mut self.files[id];
        f.live = false;
        f.text = String::new();
        f.analysis = FileAnalysis::default();
        f.resolved = None;
        f.index = LineIndex::new("");
        self.restamp(id, false);
        Some(id)
    }

    /// Read a file from disk and add it; read problems land in `errors`.
    pub fn read_and_add(&mut self, path: &Path, kind: FileKind, role: Role, in_scope: bool) -> Option<usize> {
        if let Role::NotChecked(what) = role {
            return Some(self.add_unread(path, kind, role, in_scope, &Unread::NotChecked(what)));
        }
        if let Some(id) = self.id(path) {
            if in_scope {
                self.set_in_scope(id, true);
            }
            return Some(id);
        }
        if self.errors.iter().any(|(p, _)| p == path || key(p) == key(path)) {
            return None;
        }
        let (text, problem) = match read_text(path) {
            Ok(r) => r,
            Err(why) => return Some(self.add_unread(path, kind, role, in_scope, &why)),
        };
        let id = self.upsert(path, kind, role, text, in_scope);
        if let Some(problem) = problem {
            self.files[id].analysis.diagnostics.insert(0, problem);
        }
        Some(id)
    }

    /// Add a file that could not be analysed (too large, binary, unreadable): it is in the
    /// workspace with no text and one `unchecked-file` diagnostic, so that every report and the
    /// editor account for it.
    pub fn add_unread(&mut self, path: &Path, kind: FileKind, role: Role, in_scope: bool, why: &Unread) -> usize {
        let analysis = FileAnalysis {
            diagnostics: vec![unchecked_file(&kind, why)],
            ..FileAnalysis::default()
        };
        self.upsert_analyzed(
            path,
            kind,
            role,
            String::new(),
            (analysis, LineIndex::new("")),
            in_scope,
        )
    }

    /// The reason a loaded file was not analysed, if it was not.
    pub fn unread(&self, id: usize) -> Option<&Diagnostic> {
        let f = &self.files[id];
        f.text
            .is_empty()
            .then(|| f.analysis.diagnostics.iter().find(|d| d.code == Code::UncheckedFile))
            .flatten()
    }
}

/// Where the file name of `target` is written inside the link at `span` (its last occurrence,
/// before any `#anchor`).
fn name_span(text: &str, span: Span, target: &Path) -> Option<Span> {
    let name = target.file_name()?.to_str()?;
    let written = text.get(span.range())?;
    let written = written.split('#').next().unwrap_or(written);
    let at = written.rfind(name)?;
    let start = span.start as usize + at;
    Some(Span::new(start, start + name.len()))
}
