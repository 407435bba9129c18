//! The workspace as the dialects see it: [`Host`] over the files it holds.

use std::path::Path;

use super::model::Workspace;
use crate::analysis::Dialect;
use crate::analysis::host::{Host, HostFile};

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

    fn id_of(&self, path: &Path) -> Option<usize> {
        self.id(path)
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
