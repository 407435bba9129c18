//! An extension's manifest, `gemini-extension.json`, as Gemini CLI 0.61.0 loads it (its
//! `ExtensionManager`, judged by `tests/gemini_runtime` with the extension installed in the
//! user's `~/.gemini/extensions/`): the folder that holds it is the extension.
//!
//! It reads the file with `JSON.parse` (no comments, no trailing comma, no BOM) and needs a
//! `name` and a `version` (`missing "version"`); the name may hold only letters, digits and `-`.
//! Any of these failing, it skips the whole extension ("Warning: Skipping extension in ...").
//! Nothing else is checked: a key it does not know is ignored without a word, a value of the wrong
//! type is used as written, and its MCP servers are not held to the settings' schema. Its context
//! files (`contextFileName`, else `GEMINI.md`) must be relative paths inside the extension: one
//! that is not is left out with "[ExtensionManager] Invalid contextFileName"; one that does not
//! exist is left out without a word (`gemini extensions validate` fails on it). `gemini
//! extensions validate` also warns about a version that is not semver.

use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Field, IssueKind, Object, Rest, Shape};
use crate::analysis::suggest::did_you_mean;
use crate::analysis::syntax::{Node, Parsed, Value};
use crate::analysis::text::Span;

use super::settings::dotted;
use super::settings_schema::{DEF_CUSTOM_THEME, DEF_MCP_SERVER_CONFIG, DEF_STRING_OR_STRING_ARRAY};
use super::words::got_text;

/// The file name.
pub const FILE: &str = "gemini-extension.json";

/// What Gemini CLI reads of the manifest (from its `ExtensionConfig` and the loader).
pub static MANIFEST: Shape = Shape::Object(&Object {
    what: "an extension manifest",
    fields: &[
        Field::req(
            "name",
            Shape::Str,
            "The extension's name: letters, digits and `-` only. Gemini CLI skips an extension without one.",
        ),
        Field::req(
            "version",
            Shape::Str,
            "The extension's version (semver, e.g. `1.0.0`). Gemini CLI skips an extension without one.",
        ),
        Field::opt(
            "description",
            Shape::Str,
            "A short description of the extension, shown in the extensions gallery (geminicli.com/extensions).",
        ),
        Field::opt(
            "contextFileName",
            DEF_STRING_OR_STRING_ARRAY,
            "The context file(s) loaded into every session, relative to the extension's folder (default `GEMINI.md`, when it exists).",
        ),
        Field::opt(
            "mcpServers",
            Shape::Record(&DEF_MCP_SERVER_CONFIG),
            "MCP servers the extension brings, as in settings.json (`trust` is dropped).",
        ),
        Field::opt(
            "excludeTools",
            Shape::Array(&Shape::Str),
            "Tools to turn off while the extension is active (`run_shell_command(rm -rf)` for a command).",
        ),
        Field::opt(
            "settings",
            Shape::Array(&Shape::Object(&Object {
                what: "an extension setting",
                fields: &[
                    Field::req("name", Shape::Str, "The setting's name, as the user is asked for it."),
                    Field::req("description", Shape::Str, "What the setting is for."),
                    Field::req("envVar", Shape::Str, "The environment variable it is stored in."),
                    Field::opt("sensitive", Shape::Bool, "Kept in the keychain, not in a `.env` file."),
                ],
                rest: Rest::Drop,
            })),
            "Settings the user is asked for at install, each stored in an environment variable.",
        ),
        Field::opt(
            "themes",
            Shape::Array(&DEF_CUSTOM_THEME),
            "Custom themes the extension brings.",
        ),
        Field::opt(
            "plan",
            Shape::Object(&Object {
                what: "the plan settings",
                fields: &[Field::opt(
                    "directory",
                    Shape::Str,
                    "Where plans are kept, relative to the project (no `..`, not absolute).",
                )],
                rest: Rest::Drop,
            }),
            "Plan mode settings.",
        ),
        Field::opt(
            "migratedTo",
            Shape::Str,
            "Where the extension moved to: Gemini CLI offers to install it from there.",
        ),
    ],
    rest: Rest::Drop,
});

/// What a manifest declares that the disk checks read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Manifest {
    /// Gemini CLI loads the extension (nothing stops it).
    pub loads: bool,
    /// The context files it names, each as written and where (empty: `GEMINI.md` by default).
    pub context_files: Vec<(String, Span)>,
}

/// Check a `gemini-extension.json`.
pub fn check(text: &str, parsed: &Parsed) -> (Vec<Diagnostic>, Manifest) {
    let mut out = Vec::new();
    for e in &parsed.errors {
        out.push(skips(
            Code::SyntaxError,
            e.span,
            format!("{}: `JSON.parse` cannot read this file", e.message),
            None,
        ));
    }
    if text.starts_with('\u{feff}') {
        out.push(
            skips(
                Code::SyntaxError,
                Span::new(0, 3),
                "a byte order mark (BOM) starts the file, which `JSON.parse` refuses".into(),
                None,
            )
            .with_fix("Remove the byte order mark", vec![Edit::new(Span::new(0, 3), "")], true),
        );
    }
    if parsed.errors.is_empty() {
        for (span, what) in crate::analysis::syntax::strict::strict_json(text) {
            let d = skips(
                Code::SyntaxError,
                span,
                format!("{what}, which `JSON.parse` refuses"),
                None,
            );
            out.push(crate::analysis::syntax::strict::strict_json_fix(d, what));
        }
    }
    for dup in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                dup.duplicate,
                format!("`{}` is written twice: Gemini CLI reads the last one", dup.name),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
    }
    let mut manifest = Manifest::default();
    let Some(root) = &parsed.root else {
        return (out, manifest);
    };
    let Some(map) = root.as_map() else {
        if !root.is_unknown() {
            out.push(skips(
                Code::InvalidType,
                root.span,
                format!("the manifest must be an object, not {}", got_text(root)),
                Some("missing \"name\""),
            ));
        }
        return (out, manifest);
    };
    // `name` and `version`: present and not empty (`!rawConfig.name`), the name a slug.
    let first = Span::new(root.span.start as usize, root.span.start as usize + 1);
    for key in ["name", "version"] {
        match map.value(key) {
            None => out.push(skips(
                Code::MissingField,
                first,
                format!("there is no `{key}`"),
                Some(&format!("missing \"{key}\"")),
            )),
            Some(v) if falsy(v) => out.push(skips(
                Code::MissingField,
                v.span,
                format!("`{key}` is {}, which JavaScript takes as no {key}", got_text(v)),
                Some(&format!("missing \"{key}\"")),
            )),
            Some(_) => {}
        }
    }
    if let Some(v) = map.value("name")
        && !falsy(v)
    {
        match v.as_str() {
            Some(s) if slug(s) => {}
            Some(s) => {
                let fixed = slugged(s);
                let mut d = skips(
                    Code::InvalidName,
                    v.span,
                    format!("\"{s}\" is not a valid extension name (letters, digits and `-` only)"),
                    Some("Invalid extension name"),
                );
                if !fixed.is_empty() {
                    d = d.with_suggestion(v.span, format!("\"{fixed}\""));
                }
                out.push(d);
            }
            // A number passes the name's pattern, then fails where Gemini CLI hashes the name
            // ("The \"data\" argument must be of type string").
            None => {
                let mut d = skips(
                    Code::InvalidType,
                    v.span,
                    format!("`name` must be a string, not {}", got_text(v)),
                    None,
                );
                if let Value::Int(i) = v.value {
                    d = d.with_suggestion(v.span, format!("\"{i}\""));
                }
                out.push(d);
            }
        }
    }
    if let Some(v) = map.value("version")
        && let Some(s) = v.as_str()
        && !s.is_empty()
        && !semver(s)
    {
        out.push(
            warn(
                Code::InvalidValue,
                v.span,
                format!(
                    "\"{s}\" is not a semver version (such as `1.0.0`): `gemini extensions validate` warns about it"
                ),
            )
            .with_effect(Effect::Works),
        );
    }
    // The rest: read as written, never checked by Gemini CLI.
    let decoded = shape::decode(root, &MANIFEST, Span::new(0, 0), &[]);
    for issue in &decoded.issues {
        let at = dotted(&issue.path);
        if issue.path.len() == 1 && (at == "name" || at == "version") {
            continue;
        }
        let d = match &issue.kind {
            IssueKind::Unknown { object } => {
                let key = issue.path.last().map(String::as_str).unwrap_or_default();
                let near = object.suggest(key);
                let mut d = warn(
                    Code::UnknownKey,
                    issue.span,
                    format!(
                        "`{key}` is not a field of {}: Gemini CLI does not check an extension's servers and ignores it without a word.{}",
                        object.what,
                        did_you_mean(near)
                    ),
                )
                .with_effect(Effect::ValueIgnored);
                if let Some(n) = near {
                    d = d.with_suggestion(issue.span, format!("\"{n}\""));
                }
                d
            }
            IssueKind::Missing { object, field } => warn(
                Code::MissingField,
                issue.span,
                format!(
                    "`{}` has no `{}`, which {} needs: Gemini CLI does not check it",
                    dotted(&issue.path[..issue.path.len().saturating_sub(1)]),
                    field.name,
                    object.what
                ),
            ),
            IssueKind::Type { expected, got }
            | IssueKind::Value { expected, got }
            | IssueKind::NoBranch {
                union: expected, got, ..
            } => warn(
                Code::InvalidType,
                issue.span,
                format!(
                    "`{at}` must be {}, not {}: Gemini CLI does not check it and uses the value as written",
                    shape::describe(expected),
                    got_text(got)
                ),
            ),
            IssueKind::Number { num, got } => warn(
                Code::InvalidValue,
                issue.span,
                format!(
                    "`{at}` must be {}, not {}: Gemini CLI does not check it",
                    num.describe(),
                    got.display()
                ),
            ),
            IssueKind::Extra { tuple } | IssueKind::MissingItem { tuple } => warn(
                Code::InvalidValue,
                issue.span,
                format!("`{at}` must be {}", shape::describe(tuple)),
            ),
        };
        out.push(d);
    }
    for d in decoded.dropped.iter().chain(&decoded.kept) {
        let near = d.object.suggest(&d.key.name);
        let at = if d.path.is_empty() {
            "an extension manifest".to_string()
        } else {
            format!("`{}`", dotted(&d.path))
        };
        let mut diag = warn(
            Code::UnknownKey,
            d.key.span,
            format!(
                "Gemini CLI does not read `{}` in {at} and ignores it without a word.{}",
                d.key.name,
                did_you_mean(near)
            ),
        )
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near {
            diag = diag.with_suggestion(d.key.span, format!("\"{n}\""));
        }
        out.push(diag);
    }
    // `trust` of an extension's MCP server: dropped (`filterMcpConfig`).
    if let Some(servers) = map.value("mcpServers").and_then(Node::as_map) {
        for server in servers.entries.iter().filter_map(|e| e.value.as_map()) {
            if let Some(t) = server.get("trust") {
                out.push(
                    warn(
                        Code::UnknownKey,
                        t.key.span,
                        "Gemini CLI drops `trust` from an extension's MCP servers: only the user's settings can trust a server".to_string(),
                    )
                    .with_effect(Effect::ValueIgnored),
                );
            }
        }
    }
    // The context files: each a relative path inside the extension.
    if let Some(v) = map.value("contextFileName")
        && !falsy(v)
    {
        let items: Vec<&Node> = match &v.value {
            Value::Seq(items) => items.iter().collect(),
            _ => vec![v],
        };
        for item in items {
            // Not a string: the type finding above says it.
            let Some(s) = item.as_str() else { continue };
            match invalid_path(s) {
                Some(why) => out.push(
                    warn(
                        Code::InvalidValue,
                        item.span,
                        format!(
                            "`{s}` is not a context file path Gemini CLI takes ({why}): it leaves it out (\"[ExtensionManager] Invalid contextFileName\")"
                        ),
                    )
                    .with_effect(Effect::ValueIgnored),
                ),
                None => manifest.context_files.push((s.to_string(), item.span)),
            }
        }
    }
    manifest.loads = !out.iter().any(|d| d.severity == Severity::Error);
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, manifest)
}

/// Why Gemini CLI refuses a context file's path (`validateContextFilePath`, in short); `None` when it takes it.
fn invalid_path(s: &str) -> Option<&'static str> {
    if s.trim().is_empty() {
        return Some("it is empty");
    }
    if s.contains('\0') {
        return Some("it holds a null byte");
    }
    let bytes = s.as_bytes();
    let windows_drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if s.starts_with('/') || s.starts_with('\\') || windows_drive {
        return Some("an absolute path");
    }
    if s.contains("..") || crate::analysis::prompt::percent_decode(s).contains("..") {
        return Some("`..` is not allowed");
    }
    None
}

/// A value JavaScript takes as false (`!value`).
fn falsy(v: &Node) -> bool {
    match &v.value {
        Value::Null | Value::Bool(false) => true,
        Value::Str(s) => s.is_empty(),
        Value::Int(0) => true,
        Value::Float(f) => *f == 0.0 || f.is_nan(),
        _ => false,
    }
}

fn slug(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// The name made one Gemini CLI takes: other characters made `-`, runs of them one.
fn slugged(s: &str) -> String {
    let mut out = String::new();
    for c in s.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// A semver version as `semver.valid` takes it (a leading `v` or `=` allowed).
fn semver(s: &str) -> bool {
    let s = s.trim();
    let s = s.strip_prefix('=').unwrap_or(s);
    let s = s.strip_prefix('v').unwrap_or(s);
    let (core, rest) = match s.find(['-', '+']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    let parts: Vec<&str> = core.split('.').collect();
    let number =
        |p: &&str| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()) && (p.len() == 1 || !p.starts_with('0'));
    let ident = |p: &str| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let tail_ok = match rest.chars().next() {
        None => true,
        Some(_) => {
            let (pre, build) = match rest.find('+') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            let pre_ok = pre.is_empty() || pre[1..].split('.').all(ident);
            let build_ok = build.is_none_or(|b| b.split('.').all(ident));
            pre_ok && build_ok
        }
    };
    parts.len() == 3 && parts.iter().all(number) && tail_ok
}

/// An error: Gemini CLI skips the extension, saying `said` after "Failed to load extension
/// config from ...:" when that is known.
fn skips(code: Code, span: Span, what: String, said: Option<&str>) -> Diagnostic {
    let said = said.map(|s| format!(": {s}")).unwrap_or_default();
    Diagnostic::new(
        code,
        span,
        format!("{what}: Gemini CLI skips the whole extension (\"Skipping extension in ...{said}\")"),
    )
    .with_severity(Severity::Error)
    .with_effect(Effect::FileIgnored)
}

fn warn(code: Code, span: Span, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Warning)
        .with_effect(Effect::FailsWhenUsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::syntax::jsonc;

    /// (code, severity, effect, the text it is on) of each finding.
    fn found(text: &str) -> Vec<(Code, Severity, Effect, String)> {
        let (out, _) = check(text, &jsonc::parse(text));
        out.into_iter()
            .map(|d| (d.code, d.severity, d.effect, d.span.text(text).to_string()))
            .collect()
    }

    fn loads(text: &str) -> bool {
        check(text, &jsonc::parse(text)).1.loads
    }

    #[test]
    fn a_good_manifest_is_clean() {
        let text = r#"{
  "name": "my-ext",
  "version": "1.2.3-beta.1+build.5",
  "contextFileName": ["GEMINI.md", "docs/more.md"],
  "mcpServers": { "docs": { "command": "node", "args": ["server.js"], "env": { "A": "b" } } },
  "excludeTools": ["run_shell_command(rm -rf)"],
  "description": "What it does.",
  "settings": [{ "name": "Key", "description": "The key", "envVar": "MY_KEY", "sensitive": true }],
  "plan": { "directory": "plans" },
  "migratedTo": "https://github.com/o/r"
}"#;
        assert_eq!(found(text), []);
        assert!(loads(text));
        let (_, m) = check(text, &jsonc::parse(text));
        let names: Vec<&str> = m.context_files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["GEMINI.md", "docs/more.md"]);
    }

    #[test]
    fn what_makes_gemini_cli_skip_the_extension() {
        use Code::*;
        let skip = |text: &str, code: Code, on: &str| {
            let f = found(text);
            assert!(
                f.iter()
                    .any(|(c, s, e, t)| *c == code && *s == Severity::Error && *e == Effect::FileIgnored && t == on),
                "{text}: {f:?}"
            );
            assert!(!loads(text), "{text}");
        };
        skip("{\"version\": \"1.0.0\"}", MissingField, "{");
        skip("{\"name\": \"a\"}", MissingField, "{");
        skip("{\"name\": \"\", \"version\": \"1.0.0\"}", MissingField, "\"\"");
        skip("{\"name\": \"a\", \"version\": 0}", MissingField, "0");
        // Every value JavaScript takes as false is no value.
        skip("{\"name\": null, \"version\": \"1.0.0\"}", MissingField, "null");
        skip("{\"name\": false, \"version\": \"1.0.0\"}", MissingField, "false");
        skip("{\"name\": \"a\", \"version\": 0.0}", MissingField, "0.0");
        // A number that is not zero is a version (not semver, not missing).
        let f = found("{\"name\": \"a\", \"version\": 1.5}");
        assert!(f.iter().all(|(c, ..)| *c != MissingField), "{f:?}");
        skip(
            "{\"name\": \"my ext\", \"version\": \"1.0.0\"}",
            InvalidName,
            "\"my ext\"",
        );
        skip(
            "{\"name\": \"my_ext\", \"version\": \"1.0.0\"}",
            InvalidName,
            "\"my_ext\"",
        );
        skip("{\"name\": [\"a\"], \"version\": \"1.0.0\"}", InvalidType, "[\"a\"]");
        skip("[]", InvalidType, "[]");
        skip("{\"name\": \"a\", // x\n \"version\": \"1.0.0\"}", SyntaxError, "// x");
        skip("{\"name\": \"a\", \"version\": \"1.0.0\",}", SyntaxError, ",");
        skip(
            "\u{feff}{\"name\": \"a\", \"version\": \"1.0.0\"}",
            SyntaxError,
            "\u{feff}",
        );
        skip("{\"name\": \"a\", \"version\": }", SyntaxError, "}");
        // The name's fix.
        let text = "{\"name\": \"My Cool_ext!\", \"version\": \"1.0.0\"}";
        let (out, _) = check(text, &jsonc::parse(text));
        assert_eq!(out[0].fix.as_ref().unwrap().edits[0].text, "\"My-Cool-ext\"");
    }

    #[test]
    fn what_it_takes_and_what_it_ignores() {
        use Code::*;
        // A number for a name: skipped (a type error where the name is hashed).
        let text = "{\"name\": 123, \"version\": \"1.0.0\"}";
        assert!(!loads(text));
        assert_eq!(
            found(text),
            [(InvalidType, Severity::Error, Effect::FileIgnored, "123".into())]
        );
        // Not semver: `gemini extensions validate` warns; it works.
        for v in ["1", "1.0", "01.0.0", "1.0.0-", "x"] {
            let text = format!("{{\"name\": \"a\", \"version\": \"{v}\"}}");
            assert_eq!(
                found(&text),
                [(InvalidValue, Severity::Warning, Effect::Works, format!("\"{v}\""))],
                "{v}"
            );
        }
        for v in ["1.0.0", "v1.0.0", "=1.0.0", "10.20.30-rc.1", "1.0.0+x-y"] {
            assert_eq!(found(&format!("{{\"name\": \"a\", \"version\": \"{v}\"}}")), [], "{v}");
        }
        // Unknown keys, anywhere; wrong types.
        let text = r#"{"name": "a", "version": "1.0.0", "contextFilename": "X.md",
 "mcpServers": {"s": {"comand": "x", "trust": true}}, "excludeTools": "run_shell_command", "plan": {"dir": "p"}}"#;
        let got: Vec<(Code, String)> = found(text).into_iter().map(|(c, _, _, t)| (c, t)).collect();
        assert_eq!(
            got,
            [
                (UnknownKey, "\"contextFilename\"".into()),
                (UnknownKey, "\"comand\"".into()),
                (UnknownKey, "\"trust\"".into()),
                (InvalidType, "\"run_shell_command\"".into()),
                (UnknownKey, "\"dir\"".into()),
            ]
        );
    }

    #[test]
    fn context_file_paths_it_refuses() {
        for bad in [
            "",
            " ",
            "/etc/x.md",
            "C:\\\\x.md",
            "../x.md",
            "a/../../x.md",
            "%2e%2e/x.md",
        ] {
            assert!(invalid_path(bad).is_some(), "{bad}");
        }
        for good in ["GEMINI.md", "docs/a.md", "a%20b.md", "./x.md"] {
            assert_eq!(invalid_path(good), None, "{good}");
        }
        let text = r#"{"name": "a", "version": "1.0.0", "contextFileName": ["ok.md", "../up.md", 3]}"#;
        let (out, m) = check(text, &jsonc::parse(text));
        assert_eq!(
            m.context_files.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            ["ok.md"]
        );
        let on: Vec<&str> = out.iter().map(|d| d.span.text(text)).collect();
        assert_eq!(on, ["\"../up.md\"", "3"]);
    }
}
