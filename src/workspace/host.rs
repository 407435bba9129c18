//! The workspace as the dialects see it: [`Host`] over the files it holds.

use std::path::{Path, PathBuf};

use super::model::{Workspace, key};
use crate::analysis::Dialect;
use crate::analysis::host::{Host, HostFile, Memo, Options};

impl Host for Workspace {
    fn slots(&self) -> usize {
        self.files.len()
    }

    fn file(&self, id: usize) -> Option<HostFile<'_>> {
        let f = self.files.get(id).filter(|f| f.live)?;
        Some(HostFile {
            id,
            path: &f.path,
            kind: &f.kind,
            role: &f.role,
            text: &f.text,
            index: &f.index,
            analysis: &f.analysis,
            effective: f.effective_analysis(),
            in_scope: f.in_scope,
        })
    }

    fn user_skill_names(&self, dialect: Dialect) -> &[String] {
        self.user_skills.get(&dialect).map_or(&[], Vec::as_slice)
    }

    fn dialect_state(&self, dialect: Dialect) -> Option<&(dyn std::any::Any + Send + Sync)> {
        self.dialect_state.get(&dialect).map(|b| b.as_ref())
    }

    fn id_of(&self, path: &Path) -> Option<usize> {
        self.id(path)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    fn context_roots(&self) -> &[PathBuf] {
        &self.context_roots
    }

    fn generation(&self) -> u64 {
        self.structure
    }

    fn memo(&self) -> &Memo {
        &self.memo
    }

    fn canonical(&self, path: &Path) -> PathBuf {
        key(path)
    }

    fn temp_dir(&self) -> PathBuf {
        std::env::temp_dir()
    }

    fn disk(&self) -> &dyn crate::analysis::discovery::Disk {
        &self.disk
    }

    fn skill_names(&self, dialect: Dialect, dir: &Path) -> Option<Vec<String>> {
        self.dialect_skills.get(&(dialect, dir.to_path_buf())).cloned()
    }
}

impl Workspace {
    /// Whether a runtime finds skills for a project beyond the files held (Zuno does): a skill
    /// that appears or goes away then means reading them again.
    pub fn finds_skills_itself(&self) -> bool {
        !self.dialect_skills.is_empty()
    }
}
