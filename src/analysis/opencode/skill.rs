//! Skills as opencode 1.18 (spec `opencode.md` §12): the frontmatter must be a mapping with a string
//! `name` and `description` absent or a string, else the skill is skipped silently; the name
//! comes from `name`, not the folder; a skill without description is left out of the listing.
//!
//! Its rules are those the shared checks of [`crate::analysis::skill`] make, given as data.

use crate::analysis::dialect::Dialect;
use crate::analysis::skill::Loader;

/// opencode's skill rules, for the shared checks.
pub const LOADER: Loader = Loader {
    runtime: Dialect::OpenCode,
    needs_name: true,
    folder_alias: false,
    without_description: "opencode leaves the skill out of the list shown to the model",
    keys: &[],
    values: |_| Vec::new(),
    duplicate: "opencode keeps one of them, and which one is not deterministic",
};
