//! What Gemini CLI adds to the shared [`FileKind`] and [`FileAnalysis`]: its accessors for its
//! own kinds and facts (the registration list gives the conversions, see `registry.rs`).

use super::{Facts, FileKind as Kind};
use crate::analysis::{FileAnalysis, FileKind};

impl FileKind {
    /// A Gemini CLI file: its kind.
    pub fn gemini(&self) -> Option<&Kind> {
        self.own()
    }
}

impl FileAnalysis {
    /// A Gemini CLI file: what it declares.
    pub fn gemini(&self) -> Option<&Facts> {
        self.own()
    }
}
