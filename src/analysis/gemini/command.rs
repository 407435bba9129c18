//! A Gemini CLI custom command: a `.toml` file under `.gemini/commands/` (or the user's
//! `~/.gemini/commands/`), at any depth; its path names it (`git/commit.toml` is `/git:commit`).
//!
//! Gemini CLI 0.61.0 parses the file as TOML and validates it with zod: `prompt` (a string) is
//! required, `description` (a string) is optional, and any other key is dropped without a word.
//! A file that does not parse or validate is skipped, with "Skipping invalid command file" only
//! when the command is typed; the `/name` then goes to the model as plain text.

use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Field, IssueKind, Object, Rest, Shape};
use crate::analysis::suggest::did_you_mean;
use crate::analysis::syntax::{Parsed, toml};
use crate::analysis::text::Span;

/// A command file's fields.
pub const COMMAND: Object = Object {
    what: "a Gemini CLI command",
    fields: &[
        Field::req(
            "prompt",
            Shape::Str,
            "What the command sends to the model. `{{args}}` is replaced by what follows the command (else the arguments are appended), `!{...}` by a shell command's output (after you confirm it), `@{path}` by a file's content.",
        ),
        Field::opt(
            "description",
            Shape::Str,
            "One line shown in the `/` menu (else \"Custom command from <file>\").",
        ),
    ],
    // A plain `z.object`: other keys are dropped without a word.
    rest: Rest::Drop,
};
static COMMAND_SHAPE: Shape = Shape::Object(&COMMAND);

const SKIPPED: &str = "Gemini CLI skips this command file (\"Skipping invalid command file\", said only when the command is typed; `/name` then goes to the model as plain text)";

fn skipped(code: Code, span: Span, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Error)
        .with_effect(Effect::FileIgnored)
}

/// The command a file of `commands/` at `rel` (its path below that folder, `/`-separated)
/// defines: each folder and the name without `.toml`, characters other than letters, digits,
/// `_`, `-` and `.` made `_`, joined by `:`.
pub fn name_of(rel: &str) -> String {
    let stem = rel.strip_suffix(".toml").unwrap_or(rel);
    stem.split('/')
        .map(|segment| {
            let s: String = segment
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if s.chars().count() > 50 {
                format!("{}...", s.chars().take(47).collect::<String>())
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join(":")
}

/// Check a command file.
pub fn check(text: &str) -> (Vec<Diagnostic>, Parsed) {
    let parsed = toml::parse(text);
    let mut out = Vec::new();
    for e in &parsed.errors {
        out.push(skipped(
            Code::SyntaxError,
            e.span,
            format!("{}: this is not valid TOML: {SKIPPED}", e.message),
        ));
    }
    if !out.is_empty() {
        return (out, parsed);
    }
    let Some(root) = &parsed.root else {
        return (out, parsed);
    };
    let decoded = shape::decode(root, &COMMAND_SHAPE, crate::analysis::text::first_line(text), &[]);
    for issue in &decoded.issues {
        let what = format!("`{}`", issue.path.join("."));
        let d = match &issue.kind {
            IssueKind::Missing { field, .. } => skipped(
                Code::MissingField,
                issue.span,
                format!(
                    "this command has no `{}`, which Gemini CLI requires: {SKIPPED}",
                    field.name
                ),
            ),
            IssueKind::Type { expected, got } => skipped(
                Code::InvalidType,
                issue.span,
                format!(
                    "{what} must be {}, not {}: {SKIPPED}",
                    shape::describe(expected),
                    got.type_name()
                ),
            ),
            _ => skipped(Code::InvalidValue, issue.span, format!("{what} is refused: {SKIPPED}")),
        };
        out.push(decoded.finding(issue, d));
    }
    for d in &decoded.dropped {
        if decoded.misspelt(d) {
            continue;
        }
        let near = COMMAND.suggest(&d.key.name);
        let mut diag = Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "a Gemini CLI command has no `{}` (only `prompt` and `description`): it is dropped without a word.{}",
                d.key.name,
                did_you_mean(near)
            ),
        );
        if let Some(n) = near {
            diag = diag.with_suggestion(d.key.span, n);
        }
        out.push(diag);
    }
    (out, parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(text: &str) -> Vec<String> {
        super::super::words::rendered(&check(text).0, text)
    }

    #[test]
    fn a_command_needs_a_string_prompt_and_drops_the_rest() {
        assert!(findings("description = \"Review\"\nprompt = \"\"\"\nReview {{args}}.\n\"\"\"\n").is_empty());
        let f = findings("description = \"Review\"\n");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].starts_with("Error missing-field [description = \"Review\"]: this command has no `prompt`"),
            "{f:?}"
        );
        let f = findings("prompt = 3\n");
        assert!(
            f[0].starts_with("Error invalid-type [3]: `prompt` must be a string, not"),
            "{f:?}"
        );
        let f = findings("prompt = \"p\"\nmodel = \"gemini-2.5-pro\"\n");
        assert_eq!(
            f,
            vec![
                "Warning unknown-key [model]: a Gemini CLI command has no `model` (only `prompt` and `description`): it is dropped without a word."
            ]
        );
        // A misspelt `prompt` is said once, on the misspelling.
        let f = findings("promt = \"p\"\n");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].starts_with("Error missing-field [promt]"), "{f:?}");
        assert!(findings("prompt = \"unclosed\n")[0].starts_with("Error syntax-error"));
    }

    #[test]
    fn the_path_names_the_command() {
        assert_eq!(name_of("review.toml"), "review");
        assert_eq!(name_of("git/commit.toml"), "git:commit");
        assert_eq!(name_of("my cmd/ä.toml"), "my_cmd:_");
        assert_eq!(
            name_of(&format!("{}.toml", "a".repeat(60))),
            format!("{}...", "a".repeat(47))
        );
        // Fifty characters are kept whole; one more is cut.
        assert_eq!(name_of(&format!("{}.toml", "b".repeat(50))), "b".repeat(50));
        assert_eq!(
            name_of(&format!("{}.toml", "b".repeat(51))),
            format!("{}...", "b".repeat(47))
        );
    }
}
