//! Provenance: where a value a card or `explain` shows comes from (a runtime's built-in, or a
//! span of a file), and how a caller names that place. Shared by every dialect's merged view.

use crate::analysis::diagnostic::Location;
use crate::analysis::text::Span;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    BuiltIn,
    File { file: usize, span: Span },
}

impl Source {
    pub fn location(self) -> Location {
        match self {
            Source::BuiltIn => Location::BuiltIn,
            Source::File { file, span } => Location::File { file, span },
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

/// Renders a source: "built-in", or "path:line".
pub type WhereIs<'a> = &'a dyn Fn(Source) -> String;
