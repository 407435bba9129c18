//! The pure analysis core: text in, spanned syntax and diagnostics out.
//!
//! Nothing in this module touches the file system, spawns work or knows about LSP; the caller
//! says what a file is ([`FileKind`]) and hands over its text. Layers, from the bottom:
//!
//! - [`text`]: byte spans and the line/column conversion (UTF-8, UTF-16, scalars).
//! - [`syntax`]: frontmatter splitting, YAML and JSONC parsers into one spanned tree.
//! - [`rules`]: the catalog of diagnostic codes with their documentation.
//! - [`opencode`]: the opencode dialect: its schema as data and the rule functions that check a
//!   file, then a project (the merged agent registry, `default_agent`).

pub mod claude;
pub mod diagnostic;
pub mod edit;
pub mod opencode;
pub mod rules;
pub mod suggest;
pub mod syntax;
pub mod text;

pub use diagnostic::{Diagnostic, Edit, Effect, Fix, Location, Related, Severity, Tag};
pub use rules::{Code, RULES, Rule};
pub use text::{Encoding, LineCol, LineIndex, Span};
