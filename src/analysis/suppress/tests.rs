use super::*;
use crate::analysis::FileKind;
use crate::analysis::{opencode, zuno};

fn md() -> FileKind {
    FileKind::Opencode(opencode::FileKind::Agent { name: "a".into() })
}

fn json() -> FileKind {
    FileKind::Opencode(opencode::FileKind::Config)
}

/// Each directive as (kind, target line text, codes).
fn parse(kind: &FileKind, text: &str) -> Vec<(bool, String, Vec<String>)> {
    directives(kind.comments(), text)
        .directives
        .iter()
        .map(|d| {
            (
                d.file,
                d.target.text(text).trim_end().to_string(),
                d.entries.iter().map(|e| e.name.clone()).collect(),
            )
        })
        .collect()
}

fn diag(code: Code, text: &str, needle: &str) -> Diagnostic {
    let at = text.find(needle).unwrap();
    Diagnostic::new(code, Span::new(at, at + needle.len()), "x")
}

fn names(d: &[Diagnostic], text: &str) -> Vec<(&'static str, String)> {
    d.iter()
        .map(|d| (d.code.as_str(), d.span.text(text).to_string()))
        .collect()
}

#[test]
fn trailing_and_above_comments_in_frontmatter() {
    let text = "---\na: 1 # agent-lsp: ignore[unknown-key]\n# agent-lsp:ignore[ unknown-key ,invalid-type ]\nb: 2\n---\n# agent-lsp: ignore[unknown-key]\n";
    assert_eq!(
        parse(&md(), text),
        vec![
            (
                false,
                "a: 1 # agent-lsp: ignore[unknown-key]".into(),
                vec!["unknown-key".into()]
            ),
            (false, "b: 2".into(), vec!["unknown-key".into(), "invalid-type".into()]),
        ]
    );
}

#[test]
fn hash_in_quotes_and_block_scalars_is_not_a_comment() {
    let closed =
        "---\ng: \"x\" # agent-lsp: ignore[invalid-type]\nh: [a, \"b # c\"] # agent-lsp: ignore[unknown-key]\n---\n";
    assert_eq!(parse(&md(), closed).len(), 2);
    let text = "---\na: \"x # agent-lsp: ignore[unknown-key]\"\nb: 'it''s # agent-lsp: ignore[unknown-key]'\nc: |\n  # agent-lsp: ignore[unknown-key]\nd: \"multi\n  # agent-lsp: ignore[unknown-key]\"\ne: don't # agent-lsp: ignore[invalid-type]\nf: x#agent-lsp: ignore[unknown-key]\n---\n";
    assert_eq!(
        parse(&md(), text),
        vec![(
            false,
            "e: don't # agent-lsp: ignore[invalid-type]".into(),
            vec!["invalid-type".into()]
        )]
    );
}

#[test]
fn an_escaped_quote_does_not_end_a_double_quoted_scalar() {
    // `\"` stays inside the string: the first `#` is text, the last one the comment.
    let text = "---\ndescription: \"Say \\\"hi # agent-lsp: ignore[unknown-key]\\\" to all\\\\\" # agent-lsp: ignore[invalid-type]\n---\n";
    assert_eq!(
        parse(&md(), text)
            .into_iter()
            .map(|(_, _, names)| names)
            .collect::<Vec<_>>(),
        [vec!["invalid-type".to_string()]]
    );
}

#[test]
fn the_markdown_body_and_files_without_frontmatter_take_no_directive() {
    assert!(parse(&md(), "no frontmatter # agent-lsp: ignore[unknown-key]\n").is_empty());
    assert!(parse(&md(), "---\na: 1\n---\nbody # agent-lsp: ignore[unknown-key]\n").is_empty());
}

#[test]
fn jsonc_comments_outside_strings() {
    let text = "{\n  \"a\": \"// agent-lsp: ignore[unknown-key]\", // agent-lsp: ignore[invalid-type]\n  /* agent-lsp: ignore-file[deprecated-field] */\n  \"b\": \"\\\" /* agent-lsp: ignore[unknown-key] */\"\n}\n";
    assert_eq!(
        parse(&json(), text),
        vec![
            (
                false,
                "  \"a\": \"// agent-lsp: ignore[unknown-key]\", // agent-lsp: ignore[invalid-type]".into(),
                vec!["invalid-type".into()]
            ),
            (
                true,
                "  \"b\": \"\\\" /* agent-lsp: ignore[unknown-key] */\"".into(),
                vec!["deprecated-field".into()]
            ),
        ]
    );
    // The same directive in a Zuno config.
    let zuno = FileKind::Zuno(zuno::FileKind::Config);
    assert_eq!(parse(&zuno, "{\"a\": 1 // agent-lsp: ignore[unknown-key]\n}").len(), 1);
}

fn toml() -> FileKind {
    FileKind::Codex(crate::analysis::codex::FileKind::Config { project: true })
}

#[test]
fn toml_comments_outside_strings() {
    let text = "a = \"# agent-lsp: ignore[unknown-key]\" # agent-lsp: ignore[invalid-type]\nb = '# not one'\nc = \"\"\"\n# agent-lsp: ignore[unknown-key]\n\"\"\"\n# agent-lsp: ignore-file[deprecated-field]\nd = 1\ne = '''x # y'''\n";
    assert_eq!(
        parse(&toml(), text),
        vec![
            (
                false,
                "a = \"# agent-lsp: ignore[unknown-key]\" # agent-lsp: ignore[invalid-type]".into(),
                vec!["invalid-type".into()]
            ),
            (true, "d = 1".into(), vec!["deprecated-field".into()]),
        ]
    );
    // A directive above the line it applies to.
    assert_eq!(
        parse(&toml(), "# agent-lsp: ignore[unknown-key]\nmodle = \"o3\"\n"),
        vec![(false, "modle = \"o3\"".into(), vec!["unknown-key".into()])]
    );
}

#[test]
fn crlf_and_bom() {
    let text =
        "\u{feff}---\r\na: 1 # agent-lsp: ignore[unknown-key]\r\n# agent-lsp: ignore[invalid-type]\r\nb: 2\r\n---\r\n";
    let sup = directives(md().comments(), text);
    assert_eq!(sup.directives.len(), 2);
    assert_eq!(sup.directives[0].comment.text(text), "# agent-lsp: ignore[unknown-key]");
    assert_eq!(sup.directives[1].target.text(text), "b: 2\r\n");
    // Removing the trailing one keeps the line break; the one alone goes with its line.
    let d = vec![diag(Code::UnknownKey, text, "b")];
    let out = apply(&sup, d, Report::All);
    let fixed = crate::analysis::diagnostic::apply(
        text,
        &out.iter()
            .filter(|d| d.code == Code::UnusedSuppression)
            .flat_map(|d| d.fix.as_ref().unwrap().edits.clone())
            .collect::<Vec<_>>(),
    );
    assert_eq!(fixed, "\u{feff}---\r\na: 1\r\nb: 2\r\n---\r\n");
    let config = "\u{feff}{\"a\": 1 // agent-lsp: ignore[unknown-key]\r\n}";
    assert_eq!(
        parse(&json(), config)[0].1,
        "\u{feff}{\"a\": 1 // agent-lsp: ignore[unknown-key]"
    );
}

#[test]
fn suppresses_only_the_codes_listed_on_the_lines_they_apply_to() {
    let text = "---\na: 1 # agent-lsp: ignore[unknown-key]\nb: 2\n# agent-lsp: ignore-file[invalid-type]\n---\n";
    let sup = directives(md().comments(), text);
    let d = vec![
        diag(Code::UnknownKey, text, "a"),
        diag(Code::InvalidType, text, "1"),
        diag(Code::UnknownKey, text, "b"),
        diag(Code::InvalidType, text, "2"),
    ];
    assert_eq!(
        names(&apply(&sup, d, Report::All), text),
        vec![("unknown-key", "b".into())]
    );
}

#[test]
fn unused_codes_unknown_codes_and_bare_directives_are_reported() {
    let text = "---\na: 1 # agent-lsp: ignore[unknown-key, invalid-type]\nb: 2 # agent-lsp: ignore[unknwn-key]\nc: 3 # agent-lsp: ignore\nd: 4 # agent-lsp: ignore[invalid-type]\n---\n";
    let sup = directives(md().comments(), text);
    let d = vec![diag(Code::UnknownKey, text, "a")];
    let out = apply(&sup, d.clone(), Report::All);
    assert_eq!(
        names(&out, text),
        vec![
            ("unused-suppression", "invalid-type".into()),
            ("unused-suppression", "unknwn-key".into()),
            ("unused-suppression", "agent-lsp: ignore".into()),
            ("unused-suppression", "agent-lsp: ignore[invalid-type]".into()),
        ]
    );
    assert!(
        out[1].message.contains("Did you mean `unknown-key`?"),
        "{}",
        out[1].message
    );
    assert_eq!(out[1].suggestion().unwrap().text, "unknown-key");
    // Without the cross-file diagnostics, unused codes are not judged.
    assert_eq!(apply(&sup, d.clone(), Report::Local).len(), 2);
    assert!(apply(&sup, d, Report::Nothing).is_empty());
}

#[test]
fn unused_suppression_cannot_be_suppressed() {
    let text = "---\na: 1 # agent-lsp: ignore[unused-suppression]\n---\n";
    let sup = directives(md().comments(), text);
    let d = vec![diag(Code::UnusedSuppression, text, "a")];
    let out = apply(&sup, d, Report::All);
    assert_eq!(out.len(), 2);
    assert!(out.iter().all(|d| d.code == Code::UnusedSuppression));
}

#[test]
fn removal_fixes_keep_the_line_tidy() {
    let fix = |kind: &FileKind, text: &str| -> String {
        let sup = directives(kind.comments(), text);
        let out = apply(&sup, Vec::new(), Report::All);
        let edits: Vec<Edit> = out.iter().flat_map(|d| d.fix.as_ref().unwrap().edits.clone()).collect();
        crate::analysis::diagnostic::apply(text, &edits)
    };
    assert_eq!(
        fix(&md(), "---\na: 1   # agent-lsp: ignore[unknown-key]\n---\n"),
        "---\na: 1\n---\n"
    );
    assert_eq!(
        fix(&md(), "---\n  # agent-lsp: ignore[unknown-key]\na: 1\n---\n"),
        "---\na: 1\n---\n"
    );
    assert_eq!(
        fix(&json(), "{\n  /* agent-lsp: ignore[unknown-key] */ \"a\": 1\n}"),
        "{\n  \"a\": 1\n}"
    );
    assert_eq!(
        fix(&json(), "{\"a\": 1 // agent-lsp: ignore[unknown-key]\n}"),
        "{\"a\": 1\n}"
    );
    // A comment that says more than the directive keeps the rest.
    assert_eq!(
        fix(&md(), "---\na: 1 # legacy name; agent-lsp: ignore[unknown-key]\n---\n"),
        "---\na: 1 # legacy name;\n---\n"
    );
    assert_eq!(
        fix(&json(), "{\"a\": 1 /* agent-lsp: ignore[unknown-key] see #12 */\n}"),
        "{\"a\": 1 /* see #12 */\n}"
    );
    // One unused code of several: only it goes, with its comma.
    let text = "---\na: 1 # agent-lsp: ignore[invalid-type, unknown-key]\n---\n";
    let sup = directives(md().comments(), text);
    let out = apply(&sup, vec![diag(Code::UnknownKey, text, "a")], Report::All);
    let edits = out[0].fix.as_ref().unwrap().edits.clone();
    assert_eq!(
        crate::analysis::diagnostic::apply(text, &edits),
        "---\na: 1 # agent-lsp: ignore[unknown-key]\n---\n"
    );
}

#[test]
fn not_directives() {
    for text in [
        "---\na: 1 # agent-lsp: ignored[unknown-key]\n---\n",
        "---\na: 1 # agent-lsp: check[unknown-key]\n---\n",
        "---\na: 1 # Agent-LSP: ignore[unknown-key]\n---\n",
    ] {
        assert!(parse(&md(), text).is_empty(), "{text}");
    }
    // Codes are case-sensitive: `Unknown-Key` is an unknown code.
    let text = "---\na: 1 # agent-lsp: ignore[Unknown-Key]\n---\n";
    let sup = directives(md().comments(), text);
    assert_eq!(sup.directives[0].entries[0].code, None);
}

#[test]
fn ignore_edit_appends_or_extends() {
    let edit = |kind: &FileKind, text: &str, needle: &str, code: Code| -> Option<String> {
        let a = crate::analysis::analyze(kind, text);
        let e = ignore_edit(
            kind.comments(),
            text,
            &a.suppressions,
            a.parses_as_written(),
            text.find(needle).unwrap(),
            code,
        )?;
        Some(crate::analysis::diagnostic::apply(text, &[e]))
    };
    assert_eq!(
        edit(&md(), "---\na: 1  \n---\n", "a", Code::UnknownKey).unwrap(),
        "---\na: 1 # agent-lsp: ignore[unknown-key]\n---\n"
    );
    assert_eq!(
        edit(
            &md(),
            "---\n# agent-lsp: ignore[invalid-type]\na: 1\n---\n",
            "a: 1",
            Code::UnknownKey
        )
        .unwrap(),
        "---\n# agent-lsp: ignore[invalid-type, unknown-key]\na: 1\n---\n"
    );
    assert_eq!(
        edit(&json(), "{\n  \"a\": 1\n}", "\"a\"", Code::UnknownKey).unwrap(),
        "{\n  \"a\": 1 // agent-lsp: ignore[unknown-key]\n}"
    );
    // No comment can go in the body, on a delimiter, in a block scalar or a multi-line string.
    assert_eq!(edit(&md(), "---\na: 1\n---\nbody\n", "body", Code::UnknownKey), None);
    assert_eq!(edit(&md(), "---\na: 1\n---\nbody\n", "---", Code::UnknownKey), None);
    assert_eq!(edit(&md(), "---\na: |\n  x\n---\n", "x", Code::UnknownKey), None);
    assert_eq!(edit(&md(), "---\na: \"x\n  y\"\n---\n", "y", Code::UnknownKey), None);
    assert_eq!(
        edit(&md(), "---\r\na: 1 \r\n---\r\n", "a", Code::UnknownKey).unwrap(),
        "---\r\na: 1 # agent-lsp: ignore[unknown-key]\r\n---\r\n"
    );
    // Not on a plain scalar that goes on over the next line (the comment would end it).
    assert_eq!(edit(&md(), "---\na: long\n  text\n---\n", "a:", Code::UnknownKey), None);
    assert_eq!(
        edit(&md(), "---\na:\n  b: 1\n---\n", "a:", Code::UnknownKey).unwrap(),
        "---\na: # agent-lsp: ignore[unknown-key]\n  b: 1\n---\n"
    );
    assert_eq!(edit(&json(), "{\n /* a\n b */ }", "b", Code::UnknownKey), None);
    // TOML: after the value, never inside a multi-line string, and not on a comment's line alone.
    assert_eq!(
        edit(&toml(), "modle = \"o3\"\n", "modle", Code::UnknownKey).unwrap(),
        "modle = \"o3\" # agent-lsp: ignore[unknown-key]\n"
    );
    assert_eq!(
        edit(&toml(), "x = \"\"\"\nmodle\n\"\"\"\n", "modle", Code::UnknownKey),
        None
    );
    assert_eq!(edit(&toml(), "# only a comment\n", "only", Code::UnknownKey), None);
    assert_eq!(edit(&md(), "---\na: 1\n---\n", "a", Code::UnusedSuppression), None);
}

#[test]
fn hover_on_a_code_shows_its_rule() {
    let text = "---\na: 1 # agent-lsp: ignore[unknown-key, nope]\n---\n";
    let sup = directives(md().comments(), text);
    let (md, span) = hover(&sup, text.find("known").unwrap()).unwrap();
    assert_eq!(span.text(text), "unknown-key");
    assert!(md.contains("A key the runtime does not know"), "{md}");
    assert!(
        hover(&sup, text.find("nope").unwrap())
            .unwrap()
            .0
            .contains("not an agent-lsp rule code")
    );
    assert!(hover(&sup, text.find("a:").unwrap()).is_none());
}

#[test]
fn many_directives_and_diagnostics() {
    let mut text = String::from("---\n");
    for i in 0..20_000 {
        text.push_str(&format!("k{i}: 1 # agent-lsp: ignore[unknown-key]\n"));
    }
    text.push_str("# agent-lsp: ignore-file[invalid-type]\n---\n");
    let sup = directives(md().comments(), &text);
    assert_eq!(sup.directives.len(), 20_001);
    let mut d = Vec::new();
    for (at, _) in text.match_indices("\nk").map(|(at, m)| (at + 1, m)) {
        d.push(Diagnostic::new(Code::UnknownKey, Span::new(at, at + 1), "x"));
        d.push(Diagnostic::new(Code::InvalidType, Span::new(at + 1, at + 2), "x"));
    }
    // Every line's unknown key and every invalid type suppressed, nothing unused.
    assert!(apply(&sup, d, Report::All).is_empty());
}

#[test]
fn completion_inside_brackets_skips_listed_codes() {
    let text = "---\na: 1 # agent-lsp: ignore[unknown-key, inv]\n---\n";
    let sup = directives(md().comments(), text);
    let at = text.find("inv]").unwrap() + 3;
    let items = complete(&sup, text, at).unwrap();
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert!(labels.contains(&"invalid-type"));
    assert!(!labels.contains(&"unknown-key") && !labels.contains(&"unused-suppression"));
    assert_eq!(items[0].replace.text(text), "inv");
    assert!(complete(&sup, text, text.find("a:").unwrap()).is_none());
}

#[test]
fn the_project_file_takes_no_suppressions() {
    let text = "[rules] # agent-lsp: ignore[unknown-key]\nunknwn = 1\n";
    let kind = FileKind::ProjectFile;
    assert!(directives(kind.comments(), text).directives.is_empty());
    let analysis = crate::analysis::analyze(&kind, text);
    assert!(!analysis.diagnostics.is_empty());
    assert_eq!(
        ignore_edit(
            kind.comments(),
            text,
            &analysis.suppressions,
            analysis.parses_as_written(),
            42,
            Code::UnknownKey
        ),
        None
    );
}

/// An ignore comment is offered only where the file parses as written, by agent-lsp and by the
/// runtime's first pass: where the runtime had to retry (a `: ` in a plain value) a new ` # ...`
/// could be read as part of the value.
#[test]
fn a_file_parses_as_written_when_no_pass_had_to_rescue_it() {
    let opencode = FileKind::Opencode(crate::analysis::opencode::FileKind::Agent { name: "a".into() });
    let claude = FileKind::from(crate::analysis::claude::AgentFile::project("a"));
    for kind in [&opencode, &claude] {
        let parses = |text: &str| crate::analysis::analyze(kind, text).parses_as_written();
        assert!(parses("---\ndescription: Use it\n---\nBody\n"), "{kind:?}");
        // Read on the runtime's second pass: agent-lsp's tree is clean, the runtime's first is not.
        assert!(!parses("---\ndescription: Use when: x\n---\nBody\n"), "{kind:?}");
    }
    // A syntax error agent-lsp sees, in a file whose runtime has no pass of its own.
    let config = FileKind::Opencode(crate::analysis::opencode::FileKind::Config);
    assert!(crate::analysis::analyze(&config, "{\"a\": 1}").parses_as_written());
    assert!(!crate::analysis::analyze(&config, "{\"a\": }").parses_as_written());
}

/// Where each kind of file holds the comments of ignore directives: a Markdown file's
/// frontmatter, a JSONC config's `//` comments, none in strict JSON (a theme, Claude Code's
/// settings) or in `agent-lsp.toml`.
#[test]
fn each_kind_of_file_says_where_its_comments_are() {
    use crate::analysis::opencode::FileKind as Oc;
    let cases = [
        (
            FileKind::Opencode(Oc::Agent { name: "a".into() }),
            Comments::Frontmatter,
        ),
        (FileKind::Opencode(Oc::Config), Comments::Jsonc),
        (FileKind::Opencode(Oc::Tui), Comments::Jsonc),
        (FileKind::Opencode(Oc::Theme), Comments::None),
        (
            FileKind::from(crate::analysis::claude::settings::SettingsFile::Project),
            Comments::None,
        ),
        (
            FileKind::from(crate::analysis::claude::AgentFile::project("a")),
            Comments::Frontmatter,
        ),
        (FileKind::Zuno(crate::analysis::zuno::FileKind::Config), Comments::Jsonc),
        (
            FileKind::Copilot(crate::analysis::copilot::FileKind::Mcp),
            Comments::Jsonc,
        ),
        (FileKind::ProjectFile, Comments::None),
        (toml(), Comments::Toml),
        (FileKind::Codex(crate::analysis::codex::FileKind::Agent), Comments::Toml),
    ];
    for (kind, comments) in cases {
        assert_eq!(kind.comments(), comments, "{kind:?}");
        assert_eq!(kind.is_markdown(), comments == Comments::Frontmatter, "{kind:?}");
    }
}
