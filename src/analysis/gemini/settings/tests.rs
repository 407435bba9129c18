use super::*;
use crate::analysis::syntax::jsonc;

/// Each finding as `severity code [text under it]: message`, in file order.
fn findings(text: &str) -> Vec<String> {
    let parsed = jsonc::parse(text);
    let (mut out, _) = check(text, &parsed);
    out.sort_by_key(|d| (d.span.start, d.span.end));
    super::super::words::rendered(&out, text)
}

#[test]
fn a_valid_file_gets_nothing() {
    let text = r#"{
  // Comments are stripped before the file is parsed.
  "general": { "vimMode": true, "preferredEditor": "neovim", "checkpointing": { "enabled": false } },
  "ui": { "theme": "GitHub", "footer": { "hideCWD": true } },
  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] },
  "model": { "name": "gemini-2.5-pro", "maxSessionTurns": 20 },
  "tools": { "sandbox": false, "exclude": ["run_shell_command"] },
  "telemetry": false,
  "mcpServers": {
    "docs": { "command": "npx", "args": ["-y", "docs-mcp"], "env": { "TOKEN": "$DOCS_TOKEN" }, "trust": false },
    "remote": { "httpUrl": "https://example.com/mcp", "headers": { "X-Key": "k" }, "timeout": 5000 }
  }
}
"#;
    assert_eq!(findings(text), Vec::<String>::new());
}

#[test]
fn strings_that_zod_reads_as_booleans_and_numbers_are_taken() {
    let text = r#"{ "general": { "vimMode": "TRUE" }, "model": { "maxSessionTurns": " 12 " } }"#;
    assert_eq!(findings(text), Vec::<String>::new());
    assert!(
        reads_as_number("0x1F") && reads_as_number("-1.5e3") && reads_as_number("Infinity") && reads_as_number(".5")
    );
    assert!(!reads_as_number("") && !reads_as_number("  ") && !reads_as_number("inf") && !reads_as_number("NaN"));
    assert!(!reads_as_number("-0x10") && !reads_as_number("0x") && !reads_as_number("12px"));
    // Octal and binary as `Number()` reads them, their digits held to their base.
    assert!(reads_as_number("0o17") && reads_as_number("0B101") && reads_as_number("0XfF"));
    assert!(!reads_as_number("0o8") && !reads_as_number("0b2") && !reads_as_number("0xg"));
}

#[test]
fn a_wrong_type_is_a_warning_on_the_value_in_gemini_s_words() {
    let f = findings(r#"{ "general": { "vimMode": "yes", "maxAttempts": true } }"#);
    assert_eq!(
        f,
        vec![
            "Warning invalid-type [\"yes\"]: `general.vimMode` must be a boolean (true or false), not a string (\"yes\"): Gemini CLI warns at every start (\"Invalid configuration in .../settings.json\") and uses the value as written",
            "Warning invalid-type [true]: `general.maxAttempts` must be a number, not a boolean (true): Gemini CLI warns at every start (\"Invalid configuration in .../settings.json\") and uses the value as written",
        ]
    );
}

#[test]
fn an_enum_value_gets_a_did_you_mean() {
    let text = r#"{ "general": { "preferredEditor": "neovm" } }"#;
    let parsed = jsonc::parse(text);
    let (out, _) = check(text, &parsed);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].code, Code::InvalidValue);
    assert!(out[0].message.contains("Did you mean `neovim`?"), "{}", out[0].message);
    assert_eq!(out[0].span.text(text), "\"neovm\"");
}

#[test]
fn an_unknown_setting_is_ignored_without_a_word_and_a_server_refuses_one() {
    let f = findings(r#"{ "general": { "vimMod": true }, "mcpServers": { "docs": { "comand": "x" } } }"#);
    assert_eq!(
        f,
        vec![
            "Warning unknown-key [\"vimMod\"]: Gemini CLI has no setting `vimMod` in `general` and ignores it without a word. Did you mean `vimMode`?",
            "Warning unknown-key [\"comand\"]: `comand` is not a field of an MCP server (`mcpServers.docs`): Gemini CLI warns at every start (\"Unrecognized key(s) in object: 'comand'\") and does not read it. Did you mean `command`?",
        ]
    );
}

#[test]
fn flat_v1_keys_are_named_with_their_nested_place() {
    let f = findings(r#"{ "contextFileName": "AGENTS.md", "model": "gemini-2.5-pro", "autoAccept": true }"#);
    assert_eq!(f.len(), 3, "{f:?}");
    assert!(
        f[0].starts_with(
            "Warning unknown-key [\"contextFileName\"]: `contextFileName` is the old flat form of `context.fileName`"
        ),
        "{f:?}"
    );
    assert!(
        f[1].starts_with("Warning invalid-type [\"gemini-2.5-pro\"]: `model` is a section of settings now"),
        "{f:?}"
    );
    assert!(f[1].ends_with("This is the old flat form of `model.name`"), "{f:?}");
    assert!(
        f[2].starts_with(
            "Warning unknown-key [\"autoAccept\"]: `autoAccept` is a setting of Gemini CLI's old flat form"
        ),
        "{f:?}"
    );
    // Each moved key comes with its move.
    let text = r#"{ "model": "gemini-2.5-pro" }"#;
    let parsed = jsonc::parse(text);
    let (out, _) = check(text, &parsed);
    let fix = out[0].fix.as_ref().expect("a fix");
    assert_eq!(
        crate::analysis::diagnostic::apply(text, &fix.edits),
        r#"{ "model": { "name": "gemini-2.5-pro" } }"#
    );
}

#[test]
fn args_as_one_string_is_said_with_what_it_breaks_and_split() {
    let text = r#"{ "mcpServers": { "docs": { "command": "x", "args": "--stdio --port 1" } } }"#;
    let parsed = jsonc::parse(text);
    let (out, _) = check(text, &parsed);
    assert_eq!(out.len(), 1);
    assert!(
        out[0]
            .message
            .ends_with("`gemini mcp list` stops on it (\"server.args?.join is not a function\")"),
        "{}",
        out[0].message
    );
    let fix = out[0].fix.as_ref().expect("a fix");
    assert_eq!(
        crate::analysis::diagnostic::apply(text, &fix.edits),
        r#"{ "mcpServers": { "docs": { "command": "x", "args": ["--stdio", "--port", "1"] } } }"#
    );
}

#[test]
fn what_stops_gemini_cli_is_an_error() {
    let f = findings("{ \"general\": { \"vimMode\": true }, }");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].starts_with("Error syntax-error [,]: a trailing comma"), "{f:?}");
    let f = findings("\u{feff}{}");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("Error syntax-error [\u{feff}]: a byte order mark (BOM) starts the file"),
        "{f:?}"
    );
    let f = findings("[1]");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("\"Settings file is not a valid JSON object\""), "{f:?}");
    let f = findings("{ \"general\": ");
    assert!(f.iter().all(|l| l.starts_with("Error syntax-error")), "{f:?}");
    let f = findings(r#"{ "ui": { "theme": "a", "theme": "b" } }"#);
    assert_eq!(
        f,
        vec![
            "Warning duplicate-key [\"theme\"]: `theme` is written twice in this object: Gemini CLI reads the last one"
        ]
    );
}

#[test]
fn what_a_file_declares() {
    let text = r#"{ "context": { "fileName": "AGENTS.md" }, "mcpServers": { "a": {}, "b": {} } }"#;
    let (_, s) = check(text, &jsonc::parse(text));
    assert_eq!(s.context_file_names, Some(vec!["AGENTS.md".to_string()]));
    let text = r#"{ "context": { "fileName": ["A.md", 3, "B.md"] } }"#;
    let (_, s) = check(text, &jsonc::parse(text));
    assert_eq!(s.context_file_names, Some(vec!["A.md".to_string(), "B.md".to_string()]));
    let text = r#"{ "context": { "fileName": true } }"#;
    assert_eq!(check(text, &jsonc::parse(text)).1.context_file_names, None);
}

#[test]
fn a_setting_is_named_as_gemini_cli_names_it() {
    let path = |p: &[&str]| dotted(&p.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(path(&["mcpServers", "docs", "args", "0"]), "mcpServers.docs.args[0]");
    assert_eq!(path(&["general", "vimMode"]), "general.vimMode");
    // An empty key is no index.
    assert_eq!(path(&["a", ""]), "a.");
    assert_eq!(path(&["12", "x1"]), "[12].x1");
}

#[test]
fn a_loose_boolean_or_number_is_said_plainly_and_another_union_as_written() {
    assert_eq!(expected(&super::super::loose::LOOSE_BOOL), "a boolean (true or false)");
    assert_eq!(expected(&super::super::loose::LOOSE_NUM), "a number");
    fn any(_: &str) -> bool {
        true
    }
    const BOOL_OR_PATH: Shape = Shape::Union(&[Shape::Bool, Shape::Pattern(any, "a path")]);
    const NUM_OR_PATH: Shape = Shape::Union(&[
        Shape::Num(crate::analysis::shape::Num::ANY),
        Shape::Pattern(any, "a path"),
    ]);
    for s in [expected(&BOOL_OR_PATH), expected(&NUM_OR_PATH)] {
        assert!(s.contains("a path"), "{s}");
    }
}

#[test]
fn an_unknown_key_is_a_value_ignored_and_the_retired_ones_only_at_the_top() {
    let text = r#"{ "general": { "vimMode": "yes", "colour": 1, "autoAccept": true }, "colour": 2 }"#;
    let (out, _) = check(text, &jsonc::parse(text));
    for d in &out {
        let unknown = d.code == Code::UnknownKey;
        assert_eq!(d.effect == Effect::ValueIgnored, unknown, "{d:?}");
        // Neither a nested `autoAccept` nor an unknown top-level key is a retired setting.
        assert!(!d.message.contains("no longer has"), "{d:?}");
    }
    assert_eq!(out.iter().filter(|d| d.code == Code::UnknownKey).count(), 3, "{out:#?}");
    let f = findings(r#"{ "autoAccept": true }"#);
    assert!(f[0].contains("no longer has anywhere"), "{f:?}");
}

#[test]
fn args_as_one_string_is_said_on_args_alone() {
    let text = r#"{ "general": { "vimMode": 3 }, "mcpServers": { "docs": { "command": "x", "args": "--port 1" } } }"#;
    let (out, _) = check(text, &jsonc::parse(text));
    let on = |t: &str| out.iter().find(|d| d.span.text(text) == t).expect(t);
    assert!(!on("3").message.contains("gemini mcp list"), "{out:#?}");
    assert!(on("\"--port 1\"").message.contains("gemini mcp list"), "{out:#?}");
    assert!(on("\"--port 1\"").fix.is_some());
}

/// `broad-grant`: `run_shell_command` without a command in `tools.allowed`, on the item; nothing
/// for a command of it, or where `confirmationRequired` or `exclude` names the tool again.
#[test]
fn the_whole_shell_past_the_confirmation_dialog() {
    let text = r#"{ "tools": { "allowed": ["read_file", "run_shell_command", "run_shell_command(git)"] } }"#;
    let f = findings(text);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].contains("broad-grant")
            && f[0].contains("\"run_shell_command\"")
            && f[0].contains("past the confirmation dialog"),
        "{}",
        f[0]
    );
    for safe in [
        r#"{ "tools": { "allowed": ["run_shell_command(npm test)"] } }"#,
        r#"{ "tools": { "allowed": ["run_shell_command"], "confirmationRequired": ["run_shell_command"] } }"#,
        r#"{ "tools": { "allowed": ["run_shell_command"], "exclude": ["run_shell_command"] } }"#,
        r#"{ "allowedTools": ["run_shell_command"] }"#,
        // A file Gemini CLI refuses to start on grants nothing.
        "{ \"tools\": { \"allowed\": [\"run_shell_command\"] }, }",
    ] {
        assert!(!findings(safe).iter().any(|f| f.contains("broad-grant")), "{safe}");
    }
}
