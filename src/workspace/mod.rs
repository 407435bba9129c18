//! The workspace layer: all file-system access. It finds the files opencode would load (spec
//! §2), reads them with size and encoding guards, runs the pure core on each, and groups them
//! into views (what opencode loads when started in one directory) for the cross-file checks.
//!
//! The store is incremental: the language server replaces one file's text ([`Workspace::upsert`])
//! or removes a file ([`Workspace::remove`]) and asks for diagnostics again; only that file is
//! re-analysed, and the views are derived from the files' paths and roles without touching disk.

mod cross;
pub mod dialects;
pub mod discover;
mod host;
mod load;
mod model;
mod pins;
mod policy;
pub mod policy_check;
mod queries;
mod read;
mod store;
#[cfg(test)]
mod tests;
mod tree;
mod units;

pub use load::brings_files;
pub use read::{Unread, read_text, unchecked_file};

pub use model::{File, LoadError, MAX_FILE_SIZE, Options, Role, Workspace};
pub use units::{Unit, UnitDef};
