//! The sections of `zuno.json(c)` that Zuno's fact sheet describes (`shared/spec/zuno.md` §1,
//! §3.2, §4.1), as data on the shared shape engine: `sandbox` (mode, network, what to do when no
//! sandbox is available) and `skills` (paths and URLs, with the two catalog settings of Zuno's
//! published schema). Every field may also be `null`, which Zuno reads as absent.
//!
//! There is no Zuno runtime to ask, so the checks are as lenient as the facts are thin: a value of
//! the wrong type or outside the documented values refuses the configuration (Zuno decodes it
//! into typed settings), and a key the sheet does not list is a warning, since whether Zuno
//! refuses or ignores it is not documented.

use super::agent::{refuse, warn};
use crate::analysis::diagnostic::{Diagnostic, Effect};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Field, IssueKind, Lit, Num, Object, Rest, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::Entry;

const STRINGS: Shape = Shape::Union(&[Shape::Array(&Shape::Str), Shape::Null]);

static SANDBOX: Object = Object {
    what: "Zuno's sandbox settings",
    fields: &[
        Field::opt(
            "mode",
            Shape::Union(&[
                Shape::Lit(&[
                    Lit::Str("read-only"),
                    Lit::Str("workspace-write"),
                    Lit::Str("danger-full-access"),
                ]),
                Shape::Null,
            ]),
            "What model-initiated shell calls may touch: `read-only`, `workspace-write` (the default: the project only) or `danger-full-access` (no sandbox).",
        ),
        Field::opt(
            "network",
            Shape::Union(&[Shape::Lit(&[Lit::Str("deny"), Lit::Str("allow")]), Shape::Null]),
            "Whether sandboxed shell calls reach the network: `deny` or `allow`.",
        ),
        Field::opt(
            "onUnavailable",
            Shape::Union(&[Shape::Lit(&[Lit::Str("deny"), Lit::Str("run-unconfined")]), Shape::Null]),
            "When the OS sandbox cannot run: `deny` the call, or `run-unconfined` (run it without a sandbox).",
        ),
    ],
    rest: Rest::Drop,
};

static SKILLS: Object = Object {
    what: "Zuno's skill settings",
    fields: &[
        Field::opt("paths", STRINGS, "More folders to search for `SKILL.md` files."),
        Field::opt("urls", STRINGS, "Skill indexes to download skills from."),
        Field::opt(
            "includeInstructions",
            Shape::Union(&[Shape::Bool, Shape::Null]),
            "Whether turns get the skill trigger policy and the catalog of skills.",
        ),
        Field::opt(
            "maxContextTokens",
            Shape::Union(&[
                Shape::Num(Num {
                    int: true,
                    min: shape::Bound::Incl(1.0),
                    max: None,
                }),
                Shape::Null,
            ]),
            "The most tokens the skill catalog may take (Zuno clamps values above 10,000).",
        ),
    ],
    rest: Rest::Drop,
};

/// The sections described here, by top-level key.
pub static SECTIONS: &[(&str, Shape)] = &[
    ("sandbox", Shape::Union(&[Shape::Object(&SANDBOX), Shape::Null])),
    ("skills", Shape::Union(&[Shape::Object(&SKILLS), Shape::Null])),
];

pub fn shape_of(key: &str) -> Option<&'static Shape> {
    SECTIONS.iter().find(|(k, _)| *k == key).map(|(_, s)| s)
}

/// Check one top-level entry whose section is described here.
pub fn check(entry: &Entry, out: &mut Vec<Diagnostic>) {
    let Some(shape) = shape_of(&entry.key.name) else { return };
    let decoded = shape::decode(
        &entry.value,
        shape,
        entry.key.span,
        std::slice::from_ref(&entry.key.name),
    );
    for issue in &decoded.issues {
        let path = issue.path.join(".");
        let message = match &issue.kind {
            IssueKind::Type { expected, got } | IssueKind::Value { expected, got } => {
                let literals = shape::string_literals(expected);
                let suggestion = got.as_str().and_then(|s| closest(s, literals.iter().copied()));
                format!(
                    "`{path}` must be {}, got {}; Zuno refuses the configuration.{}",
                    shape::describe(expected),
                    got.display(),
                    did_you_mean(suggestion)
                )
            }
            IssueKind::Number { num, got } => format!(
                "`{path}` must be {}, got {}; Zuno refuses the configuration",
                num.describe(),
                got.display()
            ),
            IssueKind::NoBranch { union, got, .. } => format!(
                "`{path}` must be {}, got {}; Zuno refuses the configuration",
                shape::describe(union),
                got.display()
            ),
            // No required field, tuple or tagged union in these sections.
            IssueKind::Missing { .. }
            | IssueKind::Extra { .. }
            | IssueKind::MissingItem { .. }
            | IssueKind::Unknown { .. } => {
                format!("`{path}` is not what Zuno expects; Zuno refuses the configuration")
            }
        };
        let code = match issue.kind {
            IssueKind::Value { .. } | IssueKind::Number { .. } => Code::InvalidValue,
            _ => Code::InvalidType,
        };
        out.push(refuse(code, issue.span, message.trim_end_matches('.').to_string()));
    }
    for d in &decoded.dropped {
        let key = d.key.name.as_str();
        let listed: Vec<String> = d.object.fields.iter().map(|f| format!("`{}`", f.name)).collect();
        let suggestion = d.object.suggest(key);
        let mut diag = warn(
            Code::UnknownKey,
            d.key.span,
            Effect::ValueIgnored,
            format!(
                "`{key}` is not one of the fields of {} (Zuno documents {}); whether Zuno ignores or refuses it is not documented.{}",
                d.object.what,
                shape::either(listed),
                did_you_mean(suggestion)
            ),
        );
        if let Some(s) = suggestion {
            diag = diag.with_suggestion(d.key.span, format!("\"{s}\""));
        }
        out.push(diag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::diagnostic::Severity;

    fn run(text: &str) -> Vec<(Code, Severity, String, String)> {
        let (diags, _, _) = crate::analysis::zuno::analyze(&crate::analysis::zuno::FileKind::Config, text);
        diags
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string(), d.message))
            .collect()
    }

    #[test]
    fn documented_sections_are_checked() {
        let text = r#"{"sandbox": {"mode": "read_only", "network": true, "onUnavaliable": "deny"}, "skills": {"paths": "skills", "maxContextTokens": 0}}"#;
        let got = run(text);
        let brief: Vec<(Code, Severity, &str)> = got.iter().map(|(c, s, t, _)| (*c, *s, t.as_str())).collect();
        assert_eq!(
            brief,
            [
                (Code::InvalidValue, Severity::Error, "\"read_only\""),
                (Code::InvalidType, Severity::Error, "true"),
                (Code::UnknownKey, Severity::Warning, "\"onUnavaliable\""),
                (Code::InvalidType, Severity::Error, "\"skills\""),
                (Code::InvalidValue, Severity::Error, "0"),
            ]
        );
        assert_eq!(
            got[0].3,
            "`sandbox.mode` must be \"read-only\", \"workspace-write\", \"danger-full-access\" or null, got \"read_only\"; Zuno refuses the configuration. Did you mean `read-only`?"
        );
        assert_eq!(
            got[2].3,
            "`onUnavaliable` is not one of the fields of Zuno's sandbox settings (Zuno documents `mode`, `network` or `onUnavailable`); whether Zuno ignores or refuses it is not documented. Did you mean `onUnavailable`?"
        );
    }

    #[test]
    fn valid_and_null_values_are_silent() {
        let text = r#"{"sandbox": {"mode": "workspace-write", "network": null, "onUnavailable": "run-unconfined"}, "skills": {"paths": ["a"], "urls": null, "includeInstructions": true, "maxContextTokens": 4000}}"#;
        assert_eq!(run(text), []);
        assert_eq!(run(r#"{"sandbox": null, "skills": null}"#), []);
    }
}
