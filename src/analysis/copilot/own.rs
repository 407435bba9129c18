//! What GitHub Copilot adds to the shared [`FileKind`] and [`FileAnalysis`]: its accessors for its own
//! kinds and facts (the registration list gives the conversions, see `registry.rs`).

use super::{CopilotFile, FileKind as Kind};
use crate::analysis::{FileAnalysis, FileKind};

impl FileKind {
    /// A GitHub Copilot file: its kind.
    pub fn copilot(&self) -> Option<&Kind> {
        self.own()
    }
}

impl FileAnalysis {
    /// A GitHub Copilot file: what it declares.
    pub fn copilot(&self) -> Option<&CopilotFile> {
        self.own()
    }
}
