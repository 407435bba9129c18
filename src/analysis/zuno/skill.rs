//! Skills as Zuno (`zuno.md` §4.1): `name` must be a string (else the skill is dropped); a `description`
//! present but not a string drops it; one absent hides it from discovery.
//!
//! Its rules are those the shared checks of [`crate::analysis::skill`] make, given as data.

use crate::analysis::dialect::Dialect;
use crate::analysis::skill::Loader;

/// Zuno's skill rules, for the shared checks.
pub const LOADER: Loader = Loader {
    runtime: Dialect::Zuno,
    needs_name: true,
    folder_alias: false,
    without_description: "Zuno hides it",
    keys: &[],
    values: |_| Vec::new(),
    duplicate: "Zuno cannot resolve a required skill named twice",
};
