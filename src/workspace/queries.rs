//! The questions the server and the CLI ask of the whole workspace: every diagnostic (file and
//! cross-file, suppressions and project settings applied), a refusal by a runtime, the scope.

use std::collections::HashMap;
use std::path::PathBuf;

use super::cross;
use super::model::*;
use crate::analysis::{self, Code, Diagnostic};

impl Workspace {
    /// The secrets written in the workspace's files or filled in from the environment (see
    /// `analysis::secret`), each once: what agent-lsp prints hides them.
    pub fn secrets(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for f in self.files.iter().filter(|f| f.live) {
            let resolved = f.resolved.iter().flat_map(|r| r.secrets.iter());
            for s in f.analysis.secrets.iter().chain(resolved) {
                if !out.contains(&s.as_str()) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// `text` with the workspace's secrets hidden (their first characters kept).
    pub fn hide_secrets(&self, text: &str) -> String {
        let secrets = self.secrets();
        if secrets.is_empty() {
            return text.to_string();
        }
        analysis::secret::mask(text, &secrets)
    }

    /// Every diagnostic of the files in scope: each file's own, plus the cross-file ones of
    /// every unit (de-duplicated), sorted by file and position. Computed from nothing (the
    /// language server keeps them up to date with `refresh_cross` instead).
    pub fn diagnostics(&self) -> Vec<(usize, Diagnostic)> {
        let mut by_file: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
        for (id, f) in self.files.iter().enumerate() {
            if f.in_scope && f.live && !f.analysis.diagnostics.is_empty() {
                by_file.insert(id, f.analysis.diagnostics.clone());
            }
        }
        self.merge(by_file, self.all_cross())
    }

    /// [`Workspace::diagnostics`] for a one-shot report: each file's own diagnostics are moved
    /// out of the workspace rather than copied (a file with hundreds of thousands of findings
    /// is not held twice). The workspace keeps everything else.
    pub fn take_diagnostics(&mut self) -> Vec<(usize, Diagnostic)> {
        let cross = self.all_cross();
        let mut by_file: HashMap<usize, Vec<Diagnostic>> = HashMap::new();
        for (id, f) in self.files.iter_mut().enumerate() {
            if f.in_scope && f.live && !f.analysis.diagnostics.is_empty() {
                by_file.insert(id, std::mem::take(&mut f.analysis.diagnostics));
            }
        }
        self.merge(by_file, cross)
    }

    /// The cross-file diagnostics of every unit, computed from nothing.
    pub(super) fn all_cross(&self) -> Vec<(usize, Diagnostic)> {
        self.units().iter().flat_map(|def| self.unit_diagnostics(def)).collect()
    }

    /// Add the cross-file diagnostics (de-duplicated) to the own ones; sort by file and position.
    pub(super) fn merge(
        &self,
        mut by_file: HashMap<usize, Vec<Diagnostic>>,
        cross: Vec<(usize, Diagnostic)>,
    ) -> Vec<(usize, Diagnostic)> {
        let mut seen: std::collections::HashSet<(usize, u32, u32, Code, String)> = std::collections::HashSet::new();
        for (id, d) in cross {
            if seen.insert((id, d.span.start, d.span.end, d.code, d.message.clone())) {
                by_file.entry(id).or_default().push(d);
            }
        }
        // A file with suppressions may have nothing else to report: its unused ones.
        for (id, f) in self.files.iter().enumerate() {
            if f.in_scope && f.live && !f.analysis.suppressions.is_empty() {
                by_file.entry(id).or_default();
            }
        }
        let mut ids: Vec<usize> = by_file.keys().copied().collect();
        ids.sort_by(|a, b| self.files[*a].path.cmp(&self.files[*b].path));
        let mut out = Vec::new();
        for id in ids {
            let d = by_file.remove(&id).unwrap_or_default();
            let mut d = cross::suppressed(&self.files[id], d);
            self.apply_policy(id, &mut d);
            cross::sort(&mut d);
            out.extend(d.into_iter().map(|d| (id, d)));
        }
        out
    }

    /// One finding for the user's global configuration when it makes a runtime refuse to
    /// start: it is read in every project but not reported on, so without this `check` would say
    /// `ok` while the runtime cannot start. On the first such error, with the count.
    pub fn global_refusal(&self) -> Option<(usize, Diagnostic)> {
        let global: Vec<PathBuf> = crate::analysis::Dialect::REGISTERED
            .iter()
            .flat_map(|d| d.spec().user_folders(&self.options))
            .collect();
        let mut found: Vec<(usize, &Diagnostic)> = Vec::new();
        for (id, f) in self.files.iter().enumerate() {
            if !f.live || f.in_scope || !global.iter().any(|g| f.path.starts_with(g)) {
                continue;
            }
            found.extend(
                f.analysis
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == analysis::Severity::Error && d.effect == analysis::Effect::RefusesToStart)
                    .map(|d| (id, d)),
            );
        }
        let (id, first) = *found.first()?;
        let n = found.len();
        let product = self.files[id].kind.dialect().product();
        let mut d = first.clone();
        d.message = format!(
            "the global configuration has {n} error{} that make{} {product} refuse to start in every project; the first: {}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            first.message
        );
        d.fix = None;
        Some((id, d))
    }

    /// How many files are reported on: in scope, and not left out by a project file.
    pub fn files_in_scope(&self) -> usize {
        self.checked_files().count()
    }

    /// The ids of the files reported on (those [`Workspace::files_in_scope`] counts).
    pub fn checked_files(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.files.len()).filter(|&i| self.files[i].in_scope && self.files[i].live && !self.excluded(i))
    }
}
