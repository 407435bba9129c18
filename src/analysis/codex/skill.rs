//! How Codex 0.171.0 loads a `SKILL.md` (seen with `codex debug prompt-input`, which lists the
//! skills the model is offered, and `codex exec`, which logs why it skips one:
//! `tests/codex_runtime/`): from `.agents/skills/` and `.codex/skills/` of the project, at any
//! depth. It skips a file without a frontmatter ("missing YAML frontmatter delimited by ---"),
//! without a `description` ("missing field `description`") or whose `name` is longer than 64
//! characters; without a `name` it names the skill after its folder. It takes another name
//! than the folder's, upper case, other keys, and a description that is a number; of two skills
//! of one name it lists both. A frontmatter strict YAML rejects it often reads anyway (`Use
//! when: a: b` becomes the description as written): what it does then is not settled, so
//! agent-lsp says nothing of it.

use crate::analysis::Dialect;
use crate::analysis::skill::{self, Loader};

/// Codex as a runtime that loads skills.
pub const LOADER: Loader = Loader {
    runtime: Dialect::Codex,
    needs_name: false,
    folder_alias: false,
    needs_description: true,
    without_description: "Codex skips the skill (\"missing field `description`\")",
    keys: &[],
    values: |_| Vec::new(),
    duplicate: "Codex lists both under one name",
    // Strict YAML; what it does with a frontmatter strict YAML rejects is not settled.
    read: skill::strict_or_unknown,
};
