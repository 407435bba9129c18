use super::*;

/// `severity code at "spanned text": message` of each finding.
fn diags(file: ServersFile, text: &str) -> Vec<String> {
    analyze(file, text)
        .0
        .iter()
        .map(|d| {
            format!(
                "{} {} at {:?}: {}",
                d.severity.as_str(),
                d.code.as_str(),
                d.span.text(text),
                d.message
            )
        })
        .collect()
}

const TS: &str = r#"{"ts": {"command": "typescript-language-server", "args": ["--stdio"], "extensionToLanguage": {".ts": "typescript", ".tsx": "typescriptreact"}}}"#;

#[test]
fn valid_files_get_nothing_and_declare_their_servers() {
    assert_eq!(diags(ServersFile::Lsp, TS), Vec::<String>::new());
    let (_, _, d) = analyze(ServersFile::Lsp, TS);
    assert!(d.loads);
    assert_eq!(d.names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["ts"]);
    assert_eq!(
        d.languages,
        [(
            "ts".to_string(),
            vec![
                (".ts".to_string(), "typescript".to_string()),
                (".tsx".to_string(), "typescriptreact".to_string())
            ]
        )]
    );
    let full = r#"{"go": {"command": "/usr/local/bin/go pls", "extensionToLanguage": {".go": "go"}, "transport": "socket", "env": {"A": "b"}, "initializationOptions": {"x": [1]}, "settings": 5, "workspaceFolder": "", "startupTimeout": 1, "shutdownTimeout": 2, "requestTimeout": 2147483647, "restartOnCrash": true, "maxRestarts": 0, "diagnostics": false}}"#;
    assert_eq!(diags(ServersFile::Lsp, full), Vec::<String>::new());
    let monitors = r#"[{"name": "log", "command": "tail -f log", "description": "Watch the log"}, {"name": "ci", "command": "x", "description": "d", "when": "on-skill-invoke:deploy"}, {"name": "a", "command": "x", "description": "d", "when": "always"}]"#;
    assert_eq!(diags(ServersFile::Monitors, monitors), Vec::<String>::new());
    let (_, _, d) = analyze(ServersFile::Monitors, monitors);
    assert!(d.loads);
    assert_eq!(
        d.names.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["log", "ci", "a"]
    );
}

#[test]
fn one_mistake_loses_every_language_server_of_the_file() {
    let text = r#"{"ts": {"command": "typescript-language-server --stdio", "extensionToLanguage": {".ts": "typescript"}, "extraKey": 1}, "py": {"command": "pyright"}}"#;
    assert_eq!(
        diags(ServersFile::Lsp, text),
        [
            "error invalid-value at \"\\\"typescript-language-server --stdio\\\"\": `command` of the server `ts` holds a space (`typescript-language-server --stdio`): Claude Code refuses it (\"Use args array for arguments\"); put the program in `command` and its arguments in `args`: Claude Code loads none of this file's language servers",
            "error unknown-key at \"\\\"extraKey\\\"\": the server `ts` has no `extraKey` (an unknown key is refused): Claude Code loads none of this file's language servers",
            "error missing-field at \"\\\"py\\\"\": the server `py` needs `extensionToLanguage`: Claude Code loads none of this file's language servers",
        ]
    );
    assert!(!analyze(ServersFile::Lsp, text).2.loads);
    for (bad, what) in [
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {}}}"#,
            "needs at least one entry",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": 1}}}"#,
            "must map to strings only",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "transport": "tcp"}}"#,
            "must be `stdio` or `socket`, not `tcp`",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "startupTimeout": 0}}"#,
            "from 1 to",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "requestTimeout": 2147483648}}"#,
            "from 1 to 2147483647",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "maxRestarts": -1}}"#,
            "must be 0 or more",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "maxRestarts": 1.5}}"#,
            "must be a whole number",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "args": ["a", 1]}}"#,
            "must hold strings only",
        ),
        (
            r#"{"a": {"command": "x", "extensionToLanguage": {".a": "a"}, "restartOnCrash": "yes"}}"#,
            "must be `true` or `false`, not a string",
        ),
        (
            r#"{"a": {"command": "", "extensionToLanguage": {".a": "a"}}}"#,
            "must not be empty",
        ),
        (
            r#"{"a": {"command": 5, "extensionToLanguage": {".a": "a"}}}"#,
            "must be a string, not a number",
        ),
        (r#"{"a": "pyright"}"#, "must be an object, not a string"),
        (r#"["pyright"]"#, "an object of language servers by name, not a list"),
        ("{\"a\": {},}", "trailing comma"),
        ("", "empty"),
    ] {
        let found = diags(ServersFile::Lsp, bad);
        assert!(
            found.iter().any(|f| f.starts_with("error") && f.contains(what)),
            "{bad}: {found:?}"
        );
    }
    // A misspelt key: the fix names the key, unless it is there already.
    let text = r#"{"a": {"comand": "x", "extensionToLanguage": {".a": "a"}}}"#;
    let (d, _, _) = analyze(ServersFile::Lsp, text);
    let fix = d.iter().find_map(|d| d.fix.as_ref()).expect("a fix");
    assert_eq!(fix.edits[0].text, "\"command\"");
    let text = r#"{"a": {"comand": "x", "command": "x", "extensionToLanguage": {".a": "a"}}}"#;
    assert!(analyze(ServersFile::Lsp, text).0.iter().all(|d| d.fix.is_none()));
}

#[test]
fn one_mistake_arms_no_monitor() {
    let text = r#"[{"name": "w", "command": "tail -f log"}, {"name": "w", "command": "x", "description": "d", "extra": 1, "when": "on-skill-invoke:"}, 5]"#;
    let found = diags(ServersFile::Monitors, text);
    assert_eq!(
        found,
        [
            "error missing-field at \"{\": the monitor `w` needs `description`: Claude Code arms none of this plugin's monitors",
            "error duplicate-key at \"\\\"w\\\"\": another monitor is named `w` already (names must be unique in a plugin): Claude Code arms none of this plugin's monitors",
            "error unknown-key at \"\\\"extra\\\"\": the monitor `w` has no `extra` (an unknown key is refused): Claude Code arms none of this plugin's monitors",
            "error invalid-value at \"\\\"on-skill-invoke:\\\"\": `when` of the monitor `w` must name a skill after `on-skill-invoke:`: Claude Code arms none of this plugin's monitors",
            "error invalid-type at \"5\": monitor 3 must be an object, not a number: Claude Code arms none of this plugin's monitors",
        ]
    );
    let (d, _, declared) = analyze(ServersFile::Monitors, text);
    assert!(!declared.loads);
    let dup = d.iter().find(|d| d.code == Code::DuplicateKey).unwrap();
    assert_eq!(dup.related[0].message, "the first monitor with this name");
    assert_eq!(
        diags(
            ServersFile::Monitors,
            r#"[{"name": "a", "command": "x", "description": "d", "when": "sometimes"}]"#
        ),
        [
            "error invalid-value at \"\\\"sometimes\\\"\": `when` of the monitor `a` must be `always` or `on-skill-invoke:<skill>`, not `sometimes`: Claude Code arms none of this plugin's monitors"
        ]
    );
    assert_eq!(
        diags(ServersFile::Monitors, r#"{"name": "a"}"#),
        [
            "error invalid-type at \"{\\\"name\\\": \\\"a\\\"}\": `monitors.json` is a list of monitors (`[{\"name\": ..., \"command\": ..., \"description\": ...}]`), not an object: Claude Code arms none of this plugin's monitors"
        ]
    );
    // An empty `command`, `description` or `when`.
    let found = diags(
        ServersFile::Monitors,
        r#"[{"name": "a", "command": "", "description": "d", "when": ""}]"#,
    );
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found.iter().all(|f| f.contains("must not be empty")), "{found:#?}");
    // Inline in a manifest: the same checks.
    let parsed = crate::analysis::syntax::jsonc::parse(r#"[{"name": "a", "command": "x"}]"#);
    let (found, declared) = check_monitors(parsed.root.as_ref().unwrap());
    assert_eq!(found.len(), 1);
    assert!(!declared.loads);
}

#[test]
fn completion_and_hover() {
    let text = r#"{"ts": {"command": "x", }}"#;
    let at = text.find(", ").unwrap() + 2;
    let items = complete(ServersFile::Lsp, text, at);
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    assert!(labels.contains(&"extensionToLanguage"), "{labels:?}");
    assert!(!labels.contains(&"command"), "written already: {labels:?}");
    assert_eq!(items[0].insert, format!("\"{}\": ", items[0].label));
    // Not at the top (server names go there).
    assert!(complete(ServersFile::Lsp, "{}", 1).is_empty());
    let text = r#"{"ts": {"transport": ""}}"#;
    let at = text.find(": \"").unwrap() + 3;
    let labels: Vec<String> = complete(ServersFile::Lsp, text, at)
        .into_iter()
        .map(|i| i.label)
        .collect();
    assert_eq!(labels, ["stdio", "socket"]);
    let text = r#"[{"name": "a", }]"#;
    let at = text.find(", ").unwrap() + 2;
    let labels: Vec<String> = complete(ServersFile::Monitors, text, at)
        .into_iter()
        .map(|i| i.label)
        .collect();
    assert_eq!(labels, ["command", "description", "when"]);

    let parsed = crate::analysis::syntax::jsonc::parse(TS);
    let (md, span) = hover(ServersFile::Lsp, &parsed, TS.find("extensionToLanguage").unwrap()).unwrap();
    assert_eq!(span.text(TS), "\"extensionToLanguage\"");
    assert!(md.contains("LSP language id"), "{md}");
    assert!(hover(ServersFile::Lsp, &parsed, 2).is_none(), "a server's name");
    let text = r#"[{"when": "always"}]"#;
    let parsed = crate::analysis::syntax::jsonc::parse(text);
    let (md, _) = hover(ServersFile::Monitors, &parsed, 4).unwrap();
    assert!(md.contains("on-skill-invoke"), "{md}");
}
