//! What Codex adds to the shared [`FileKind`] and [`FileAnalysis`]: its accessors for its own
//! kinds and facts (the registration list gives the conversions, see `registry.rs`).

use super::{Facts, FileKind as Kind};
use crate::analysis::{FileAnalysis, FileKind};

impl FileKind {
    /// A Codex file: its kind.
    pub fn codex(&self) -> Option<&Kind> {
        self.own()
    }
}

impl FileAnalysis {
    /// A Codex file: what it declares.
    pub fn codex(&self) -> Option<&Facts> {
        self.own()
    }
}
