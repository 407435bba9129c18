//! Skills as opencode 1.18 (spec `opencode.md` §12): the frontmatter must be a mapping with a string
//! `name` and `description` absent or a string, else the skill is skipped silently; the name
//! comes from `name`, not the folder; a skill without description is left out of the listing.
//!
//! opencode reads a `SKILL.md` as it reads a Markdown agent ([`super::markdown`], spec §3.2,
//! §12.2): gray-matter with js-yaml, then, when that throws, one retry after its sanitizer (a
//! top-level plain value holding `:` made a block of text). When the sanitizer changes nothing,
//! gray-matter's cache hands back empty data: no `name`, the skill is skipped; when the retry
//! throws too, it is skipped as well. Confirmed with 1.18.34 by `tests/runtime` (`GET /skill`).
//!
//! Its rules are those the shared checks of [`crate::analysis::skill`] make, given as data.

use super::markdown::{self, Reading as Read};
use crate::analysis::dialect::Dialect;
use crate::analysis::skill::{Loader, Outcome, Reading};
use crate::analysis::syntax::SyntaxError;
use crate::analysis::syntax::frontmatter;

/// opencode's skill rules, for the shared checks.
pub const LOADER: Loader = Loader {
    runtime: Dialect::Opencode,
    needs_name: true,
    folder_alias: false,
    needs_description: false,
    without_description: "opencode leaves the skill out of the list shown to the model",
    keys: &[],
    values: |_| Vec::new(),
    duplicate: "opencode keeps one of them, and which one is not deterministic",
    read,
};

/// A `SKILL.md`'s frontmatter as opencode's reader reads it.
pub fn read(text: &str) -> Reading {
    let Some(fm) = frontmatter::split(text).frontmatter else {
        return Reading::default();
    };
    let mut scratch = Vec::new();
    let (parsed, how) = markdown::parse_frontmatter(text, &fm, &mut scratch);
    let open = Some(fm.open);
    // A `---js` frontmatter is JavaScript that gray-matter runs; agent-lsp runs no code.
    if matches!(markdown::engine(text, &fm).as_str(), "js" | "javascript") {
        return Reading {
            outcome: Outcome::Unknown,
            open,
            ..Reading::default()
        };
    }
    let outcome = match how {
        Read::NoFrontmatter => Outcome::NoFrontmatter,
        Read::Parsed => Outcome::Parsed,
        Read::Rescued => Outcome::Retry,
        Read::Bare | Read::Skipped => Outcome::Failed,
    };
    if outcome == Outcome::Parsed {
        return Reading {
            outcome,
            open,
            parsed,
            ..Reading::default()
        };
    }
    let fallback = markdown::fallback(text, &fm);
    // What it cannot read: after a rewrite, what the retry rejects; else what strict YAML
    // rejects (another engine than YAML: where the reader reported it).
    let error = match outcome {
        Outcome::Failed => fallback.retry.or(fallback.strict),
        _ => fallback.strict,
    }
    .or_else(|| {
        scratch.first().map(|d| SyntaxError {
            span: d.span,
            message: "opencode's frontmatter reader cannot read this".into(),
        })
    });
    Reading {
        outcome,
        open,
        parsed,
        retried: if outcome == Outcome::Retry {
            fallback.values
        } else {
            Vec::new()
        },
        error,
        note: None,
    }
}
