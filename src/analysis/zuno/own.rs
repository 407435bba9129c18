//! What Zuno adds to the shared [`FileKind`] and [`FileAnalysis`]: its accessors for its own
//! kinds and facts (the registration list gives the conversions, see `registry.rs`).

use super::{FileKind as Kind, ZunoFile};
use crate::analysis::{FileAnalysis, FileKind};

impl FileKind {
    /// A Zuno file: its kind.
    pub fn zuno(&self) -> Option<&Kind> {
        self.own()
    }
}

impl FileAnalysis {
    /// A Zuno file: what it declares.
    pub fn zuno(&self) -> Option<&ZunoFile> {
        self.own()
    }
}
