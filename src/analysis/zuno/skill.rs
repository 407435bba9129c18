//! Skills as Zuno (`zuno.md` §4.1): `name` must be a string (else the skill is dropped); a `description`
//! present but not a string drops it; one absent hides it from discovery.
//!
//! How Zuno reads a `SKILL.md`'s frontmatter is not in its fact sheet: as the Agent Skills format
//! (a closed frontmatter, strict YAML). What it does with one that is not valid YAML is not
//! known, so that is a warning, never an error (the sheet's rule for what it does not confirm).
//!
//! Its rules are those the shared checks of [`crate::analysis::skill`] make, given as data.

use crate::analysis::dialect::Dialect;
use crate::analysis::skill::{self, Loader};

/// Zuno's skill rules, for the shared checks.
pub const LOADER: Loader = Loader {
    runtime: Dialect::Zuno,
    needs_name: true,
    folder_alias: false,
    needs_description: false,
    without_description: "Zuno hides it",
    keys: &[],
    values: |_| Vec::new(),
    duplicate: "Zuno cannot resolve a required skill named twice",
    // Strict YAML; what it does with a frontmatter strict YAML rejects is not settled.
    read: skill::strict_or_unknown,
};
