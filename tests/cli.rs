//! End-to-end tests of the `agent-lsp` binary: `check` in its three formats, exit statuses,
//! explicit files, cross-file and global-config resolution, and `rules`.
//!
//! Every test builds its workspace in a fresh temp dir, runs the real binary with that dir as
//! the current directory (so reported paths are relative) and `NO_COLOR=1`, and with
//! `--no-global` unless global handling is what is being tested. The environment variables that
//! locate the user's opencode configuration are always cleared or set explicitly, so the tests
//! never read the configuration of the machine they run on.
//!
//! Snapshots use expect-test; refresh them with `UPDATE_EXPECT=1 cargo test --test cli`.

mod cli_support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use agent_lsp::analysis::{Code, RULES};
use cli_support::*;
use expect_test::expect;
use serde_json::Value;
use tempfile::TempDir;

/// The broken agent used by several tests: an unknown mode, an unquoted color (a YAML comment),
/// a misspelt key and a quoted number.
const BROKEN_AGENT: &str = "---
description: Reviews code
mode: main
color: #FF5733
temprature: 0.2
steps: \"5\"
---
You review code.
";

const CLEAN_AGENT: &str = "---
description: Reviews code
mode: subagent
---
You review code.
";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// `agent-lsp check --no-global ARGS...` in `cwd`.
fn check(cwd: &Path, args: &[&str]) -> Output {
    let mut all = vec!["check", "--no-global"];
    all.extend_from_slice(args);
    agent_lsp(cwd, &all)
}

/// `agent-lsp check --no-global --format json ARGS...`, parsed; the run must succeed or report
/// problems (status 0 or 1) and print nothing on stderr.
fn check_json(cwd: &Path, args: &[&str]) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let out = check(cwd, &all);
    assert!(out.status == 0 || out.status == 1, "{out:#?}");
    assert_eq!(out.stderr, "", "{out:#?}");
    let report = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("invalid JSON ({e}): {}", out.stdout));
    (out.status, report)
}

/// One line per diagnostic of a JSON report: `path:line:col-line:col severity code`.
fn json_summary(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .expect("diagnostics is an array")
        .iter()
        .map(|d| {
            let r = &d["range"];
            format!(
                "{}:{}:{}-{}:{} {} {}",
                d["path"].as_str().expect("path"),
                r["start"]["line"],
                r["start"]["column"],
                r["end"]["line"],
                r["end"]["column"],
                d["severity"].as_str().expect("severity"),
                d["code"].as_str().expect("code"),
            )
        })
        .collect()
}

/// The `path:line:col` locations of a human report (`--> ...` lines).
fn human_locations(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("--> "))
        // The location, without the effect tag after it.
        .map(|l| l.split("  (").next().unwrap_or(l))
        .collect()
}

/// The summary: the last line, but for the count of unsafe fixes after it.
fn last_line(s: &str) -> &str {
    s.lines()
        .rev()
        .find(|l| !l.contains(" available with --unsafe-fixes "))
        .unwrap_or("")
}

// ---------------------------------------------------------------------------------------------
// Human format: snapshots
// ---------------------------------------------------------------------------------------------

#[test]
fn human_broken_agent() {
    let ws = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 1);
    assert_eq!(out.stderr, "");
    assert!(!out.stdout.contains('\x1b'), "NO_COLOR and a pipe: no escape codes");
    expect![[r##"
        error[invalid-value]: `mode` must be "subagent", "primary" or "all", got "main"; opencode refuses to load the configuration. Did you mean `primary`?
         --> .opencode/agents/rev.md:3:7  (effect: refuses-to-start)
          |
        3 | mode: main
          |       ^^^^

        error[invalid-color]: unquoted, `#FF5733` is a YAML comment, so `color` is null and opencode refuses to load the configuration; quote it: "#FF5733"
         --> .opencode/agents/rev.md:4:8  (effect: refuses-to-start)
          |
        4 | color: #FF5733
          |        ^^^^^^^
          = help: Quote the color (writes `"#FF5733"`) (safe: `check --fix` applies it)

        warning[unknown-key]: `temprature` is not an agent field; opencode passes it to the model provider as `options.temprature`. Did you mean `temperature`?
         --> .opencode/agents/rev.md:5:1  (effect: value-ignored)
          |
        5 | temprature: 0.2
          | ^^^^^^^^^^

        error[invalid-type]: `steps` must be a whole number greater than 0, got the string "5"; opencode refuses to load the configuration. Remove the quotes
         --> .opencode/agents/rev.md:6:8  (effect: refuses-to-start)
          |
        6 | steps: "5"
          |        ^^^
          = help: Remove the quotes (writes `5`) (safe: `check --fix` applies it)

        Found 3 errors, 1 warning in 1 file (1 checked)
        2 more fixes available with --unsafe-fixes (review: `--diff --unsafe-fixes`)
    "##]]
    .assert_eq(&out.stdout);
}

/// Wide characters (CJK, emoji) before the offending value on the same line: the caret is
/// placed by display width (2 columns each), the `-->` column counts Unicode scalar values.
#[test]
fn human_wide_characters_before_the_error() {
    let yaml_line = "{description: \"审查代码 🚀\", mode: main}";
    let json_line = r#"{"agent": {"rev": {"description": "审查代码 🚀", "mode": "main"}}}"#;
    let ws = workspace(&[
        (
            ".opencode/agents/rev.md",
            &format!("---\n{yaml_line}\n---\nYou review code.\n"),
        ),
        ("opencode.json", &format!("{json_line}\n")),
    ]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 1);
    expect![[r#"
        error[invalid-value]: `mode` must be "subagent", "primary" or "all", got "main"; opencode refuses to load the configuration. Did you mean `primary`?
         --> .opencode/agents/rev.md:2:31  (effect: refuses-to-start)
          |
        2 | {description: "审查代码 🚀", mode: main}
          |                                    ^^^^

        error[invalid-value]: `mode` must be "subagent", "primary" or "all", got "main"; opencode refuses to load the configuration. Did you mean `primary`?
         --> opencode.json:1:53  (effect: refuses-to-start)
          |
        1 | {"agent": {"rev": {"description": "审查代码 🚀", "mode": "main"}}}
          |                                                          ^^^^^^

        Found 2 errors in 2 files (2 checked)
        2 more fixes available with --unsafe-fixes (review: `--diff --unsafe-fixes`)
    "#]]
    .assert_eq(&out.stdout);

    // The caret sits under the value: its offset in the caret line equals the display width of
    // everything before the value in the source line (the only non-ASCII characters here are
    // wide, 2 columns each).
    let width = |s: &str| s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum::<usize>();
    let lines: Vec<&str> = out.stdout.lines().collect();
    for (source, value) in [(yaml_line, "main}"), (json_line, "\"main\"")] {
        let shown = lines
            .iter()
            .position(|l| l.ends_with(source))
            .unwrap_or_else(|| panic!("source line {source:?} not shown"));
        let caret_line = lines[shown + 1];
        let source_start = lines[shown].len() - source.len();
        let caret = caret_line.find('^').expect("a caret line follows the source line");
        let prefix = &source[..source.rfind(value).expect("value in line")];
        assert_eq!(caret - source_start, width(prefix), "caret misaligned under {source:?}");
    }
}

#[test]
fn human_crlf_file() {
    let ws = workspace(&[(
        ".opencode/agents/rev.md",
        "---\r\ndescription: Reviews code\r\nmode: main\r\nsteps: \"5\"\r\n---\r\nYou review code.\r\n",
    )]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 1);
    assert!(!out.stdout.contains('\r'), "no carriage return leaks into the report");
    expect![[r#"
        error[invalid-value]: `mode` must be "subagent", "primary" or "all", got "main"; opencode refuses to load the configuration. Did you mean `primary`?
         --> .opencode/agents/rev.md:3:7  (effect: refuses-to-start)
          |
        3 | mode: main
          |       ^^^^

        error[invalid-type]: `steps` must be a whole number greater than 0, got the string "5"; opencode refuses to load the configuration. Remove the quotes
         --> .opencode/agents/rev.md:4:8  (effect: refuses-to-start)
          |
        4 | steps: "5"
          |        ^^^
          = help: Remove the quotes (writes `5`) (safe: `check --fix` applies it)

        Found 2 errors in 1 file (1 checked)
        1 more fix available with --unsafe-fixes (review: `--diff --unsafe-fixes`)
    "#]]
    .assert_eq(&out.stdout);
}

#[test]
fn human_bom_files() {
    let ws = workspace(&[
        (
            ".opencode/agents/rev.md",
            "\u{feff}---\nmode: main\n---\nYou review code.\n",
        ),
        // The error is on the BOM's line: the BOM is neither shown nor counted.
        ("opencode.json", "\u{feff}{\"default_agent\": 5}\n"),
    ]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 1);
    assert!(!out.stdout.contains('\u{feff}'), "the BOM is not printed");
    expect![[r#"
        error[invalid-value]: `mode` must be "subagent", "primary" or "all", got "main"; opencode refuses to load the configuration. Did you mean `primary`?
         --> .opencode/agents/rev.md:2:7  (effect: refuses-to-start)
          |
        2 | mode: main
          |       ^^^^

        error[invalid-type]: `default_agent` must be a string (an agent name), got a number (5); opencode refuses to load the configuration
         --> opencode.json:1:19  (effect: refuses-to-start)
          |
        1 | {"default_agent": 5}
          |                   ^

        Found 2 errors in 2 files (2 checked)
        1 more fix available with --unsafe-fixes (review: `--diff --unsafe-fixes`)
    "#]]
    .assert_eq(&out.stdout);
}

#[test]
fn human_clean_workspace_prints_the_summary_only() {
    let ws = workspace(&[
        (".opencode/agents/rev.md", CLEAN_AGENT),
        (
            "opencode.json",
            "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n",
        ),
    ]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 0);
    assert_eq!(out.stderr, "");
    expect![[r#"
        ok: 2 files checked, no problems
    "#]]
    .assert_eq(&out.stdout);
}

#[test]
fn human_cross_file_note_and_info_summary() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (".opencode/agents/rev.md", CLEAN_AGENT),
        (
            ".opencode/agents/log.md",
            "---\ndescription: Reads logs\nmode: subagent\npermission:\n  bash:\n    \"git log*\": allow\n---\nYou read logs.\n",
        ),
    ]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 1);
    expect![[r#"
        info[broad-pattern]: "git log*" also allows commands that merely start with `git log` (e.g. `git logx`); "git log *" allows `git log` with or without arguments, and nothing else
         --> .opencode/agents/log.md:6:5
          |
        6 |     "git log*": allow
          |     ^^^^^^^^^^

        error[invalid-default-agent]: default agent "rev" is a subagent; opencode fails with `default agent "rev" is a subagent`. Use a primary agent, or give "rev" `mode: primary` or `all`
         --> opencode.json:2:20  (effect: fails-when-used)
          |
        2 |   "default_agent": "rev"
          |                    ^^^^^
          = note: its mode is set here (.opencode/agents/rev.md:3:7)

        Found 1 error, 1 info in 2 files (3 checked)
    "#]]
    .assert_eq(&out.stdout);
}

/// One catch-all written last makes ten rules dead: one finding on it, the first eight dead
/// rules as notes and a count of the rest (the JSON lists all ten).
#[test]
fn human_one_cause_one_finding_with_its_notes_capped() {
    let rules: String = (0..10).map(|i| format!("    \"tool{i} *\": deny\n")).collect();
    let agent = format!(
        "---\ndescription: Runs tools\nmode: subagent\npermission:\n  bash:\n{rules}    \"*\": ask\n---\nYou run tools.\n"
    );
    let ws = workspace(&[(".opencode/agents/tools.md", &agent)]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 0, "{}", out.stdout);
    expect![[r#"
        warning[shadowed-rule]: this catch-all makes 10 rules above it dead: opencode uses the last matching rule, and it matches every input they match. Put it first so that they decide
          --> .opencode/agents/tools.md:16:5  (effect: rule-never-applies)
           |
        16 |     "*": ask
           |     ^^^
           = help: Move the catch-all "*": ask to the front
           = note: never applies: `bash` "tool0 *": deny (.opencode/agents/tools.md:6:5)
           = note: never applies: `bash` "tool1 *": deny (.opencode/agents/tools.md:7:5)
           = note: never applies: `bash` "tool2 *": deny (.opencode/agents/tools.md:8:5)
           = note: never applies: `bash` "tool3 *": deny (.opencode/agents/tools.md:9:5)
           = note: never applies: `bash` "tool4 *": deny (.opencode/agents/tools.md:10:5)
           = note: never applies: `bash` "tool5 *": deny (.opencode/agents/tools.md:11:5)
           = note: never applies: `bash` "tool6 *": deny (.opencode/agents/tools.md:12:5)
           = note: never applies: `bash` "tool7 *": deny (.opencode/agents/tools.md:13:5)
           = note: 2 more (`--format json` lists them all)

        Found 1 warning in 1 file (1 checked)
        1 more fix available with --unsafe-fixes (review: `--diff --unsafe-fixes`)
    "#]]
    .assert_eq(&out.stdout);
    let (_, v) = check_json(ws.path(), &[]);
    assert_eq!(v["diagnostics"][0]["related"].as_array().map(Vec::len), Some(10), "{v}");
    // Nine: all of them, rather than "1 more" on the line the ninth needs.
    let rules: String = (0..9).map(|i| format!("    \"tool{i} *\": deny\n")).collect();
    let agent = format!(
        "---\ndescription: Runs tools\nmode: subagent\npermission:\n  bash:\n{rules}    \"*\": ask\n---\nYou run tools.\n"
    );
    let ws = workspace(&[(".opencode/agents/tools.md", &agent)]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.stdout.matches("= note: never applies").count(), 9, "{}", out.stdout);
    assert!(!out.stdout.contains(" more (`--format json`"), "{}", out.stdout);
}

// ---------------------------------------------------------------------------------------------
// JSON format
// ---------------------------------------------------------------------------------------------

fn assert_position(v: &Value) {
    let obj = v.as_object().expect("position is an object");
    let keys: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["line", "column"]), "{v}");
    for k in ["line", "column"] {
        assert!(obj[k].as_u64().is_some_and(|n| n >= 1), "1-based {k}: {v}");
    }
}

fn assert_range(v: &Value) {
    let obj = v.as_object().expect("range is an object");
    let keys: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
    assert_eq!(keys, BTreeSet::from(["start", "end"]), "{v}");
    assert_position(&obj["start"]);
    assert_position(&obj["end"]);
    let key = |p: &Value| (p["line"].as_u64(), p["column"].as_u64());
    assert!(key(&obj["start"]) <= key(&obj["end"]), "start after end: {v}");
}

#[test]
fn json_report_has_the_documented_shape() {
    let ws = workspace(&[
        (".opencode/agents/rev.md", BROKEN_AGENT),
        (
            ".opencode/agents/team/lead.md",
            "---\ndescription: Leads\nmode: primary\nhidden: yes\n---\nYou lead.\n",
        ),
        ("opencode.json", "{\n  \"default_agent\": \"nobody\"\n}\n"),
    ]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 1);

    let top: BTreeSet<&str> = report.as_object().expect("object").keys().map(String::as_str).collect();
    assert_eq!(top, BTreeSet::from(["files", "checked", "diagnostics"]));
    assert_eq!(report["files"], 3);
    // The files checked, by path: as many as `files`.
    assert_eq!(
        report["checked"],
        serde_json::json!([
            ".opencode/agents/rev.md",
            ".opencode/agents/team/lead.md",
            "opencode.json"
        ])
    );

    let codes: BTreeSet<&str> = RULES.iter().map(|r| r.name).collect();
    for d in report["diagnostics"].as_array().expect("array") {
        let obj = d.as_object().expect("diagnostic is an object");
        let keys: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
        let required = BTreeSet::from(["path", "range", "severity", "code", "effect", "message"]);
        // `related` and `suggestion` are optional extras, not (yet) in the README's description
        // of the format.
        let optional = BTreeSet::from(["related", "suggestion"]);
        assert!(keys.is_superset(&required), "missing keys in {d}");
        assert!(
            keys.is_subset(&required.union(&optional).copied().collect()),
            "unexpected keys in {d}"
        );

        let path = obj["path"].as_str().expect("path is a string");
        assert!(
            !path.contains('\\') && !path.starts_with("./") && !path.starts_with('/'),
            "{path}"
        );
        assert_range(&obj["range"]);
        assert!(["error", "warning", "info", "hint"].contains(&obj["severity"].as_str().expect("severity")));
        assert!(codes.contains(obj["code"].as_str().expect("code")), "{d}");
        assert!(
            agent_lsp::analysis::Effect::parse(obj["effect"].as_str().expect("effect")).is_some(),
            "{d}"
        );
        assert!(!obj["message"].as_str().expect("message").is_empty());
        if let Some(s) = obj.get("suggestion") {
            assert_range(&s["range"]);
            assert!(s["replacement"].is_string(), "{d}");
        }
    }

    assert_eq!(
        json_summary(&report),
        [
            ".opencode/agents/rev.md:3:7-3:11 error invalid-value",
            ".opencode/agents/rev.md:4:8-4:15 error invalid-color",
            ".opencode/agents/rev.md:5:1-5:11 warning unknown-key",
            ".opencode/agents/rev.md:6:8-6:11 error invalid-type",
            ".opencode/agents/team/lead.md:4:9-4:12 error invalid-type",
            "opencode.json:2:20-2:28 error invalid-default-agent",
        ]
    );
}

#[test]
fn json_columns_count_unicode_scalar_values() {
    // `{"agent": {"rev": {"description": "` is 35 characters; `审查代码 🚀` is 6 scalar values
    // (10 display columns, 7 UTF-16 units, 17 bytes); then `", "mode": ` is 10 more, so the
    // value `"main"` starts at column 35 + 6 + 1 + 10 + 1 = 53 and ends (exclusive) at 59.
    let ws = workspace(&[
        (
            "opencode.json",
            "{\"agent\": {\"rev\": {\"description\": \"审查代码 🚀\", \"mode\": \"main\"}}}\n",
        ),
        (
            ".opencode/agents/x.md",
            "---\n{description: \"审查代码 🚀\", mode: main}\n---\nYou review code.\n",
        ),
    ]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 1);
    assert_eq!(
        json_summary(&report),
        [
            // `{description: "` (15) + 6 scalars + `", mode: ` (9): the value starts at 31.
            ".opencode/agents/x.md:2:31-2:35 error invalid-value",
            "opencode.json:1:53-1:59 error invalid-value",
        ]
    );
}

#[test]
fn json_positions_ignore_the_bom_and_crlf() {
    let ws = workspace(&[
        ("opencode.json", "\u{feff}{\"default_agent\": 5}\n"),
        (
            ".opencode/agents/rev.md",
            "---\r\ndescription: Reviews code\r\nmode: main\r\n---\r\nYou review code.\r\n",
        ),
    ]);
    let (_, report) = check_json(ws.path(), &[]);
    assert_eq!(
        json_summary(&report),
        [
            ".opencode/agents/rev.md:3:7-3:11 error invalid-value",
            "opencode.json:1:19-1:20 error invalid-type",
        ]
    );
}

#[test]
fn json_related_locations_and_suggestions() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (".opencode/agents/rev.md", CLEAN_AGENT),
    ]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 1);
    let diags = report["diagnostics"].as_array().expect("array");
    assert_eq!(diags.len(), 1, "{report:#}");
    let d = &diags[0];
    assert_eq!(d["path"], "opencode.json");
    assert_eq!(d["code"], "invalid-default-agent");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        d["range"],
        serde_json::json!({"start": {"line": 2, "column": 20}, "end": {"line": 2, "column": 25}})
    );
    assert_eq!(
        d["related"],
        serde_json::json!([{
            "path": ".opencode/agents/rev.md",
            "range": {"start": {"line": 3, "column": 7}, "end": {"line": 3, "column": 15}},
            "message": "its mode is set here",
        }])
    );

    let ws = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    let (_, report) = check_json(ws.path(), &[]);
    let first = &report["diagnostics"][0];
    assert_eq!(first["code"], "invalid-value");
    assert_eq!(
        first["suggestion"],
        serde_json::json!({
            "range": {"start": {"line": 3, "column": 7}, "end": {"line": 3, "column": 11}},
            "replacement": "primary",
        })
    );
}

/// A diagnostic with a fix tells it in every format: the JSON's `suggestion`, the hook's
/// `Fix:` line and the human output's `help:` line name the same replacement, even where the
/// message lists the valid values rather than saying "did you mean".
#[test]
fn every_format_gives_the_same_suggestion() {
    let agent = "---\nname: a\ndescription: Edits files\npermissionMode: acceptEdit\n---\nEdit.\n";
    let ws = workspace(&[(".claude/agents/a.md", agent)]);
    let (_, report) = check_json(ws.path(), &[]);
    let d = &report["diagnostics"][0];
    assert_eq!(d["code"], "invalid-value", "{report:#}");
    assert_eq!(d["suggestion"]["replacement"], "acceptEdits", "{report:#}");

    let human = check(ws.path(), &[]);
    assert!(
        human.stdout.contains("= help: Replace with `acceptEdits`"),
        "{}",
        human.stdout
    );

    let event = serde_json::json!({
        "hook_event_name": "PostToolUse",
        "cwd": ws.path(),
        "tool_input": {"file_path": ".claude/agents/a.md"},
    });
    let mut cmd = command(ws.path(), &["hook"]);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("start agent-lsp hook");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), event.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().expect("hook output");
    let hook: Value = serde_json::from_slice(&out.stdout).expect("the hook prints JSON");
    let told = hook["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(told.contains("Fix: Replace with `acceptEdits`"), "{told}");
}

#[test]
fn json_clean_workspace_and_severities() {
    let ws = workspace(&[(".opencode/agents/rev.md", CLEAN_AGENT)]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 0);
    assert_eq!(
        report,
        serde_json::json!({"files": 1, "checked": [".opencode/agents/rev.md"], "diagnostics": []})
    );

    let ws = workspace(&[(
        ".opencode/agents/log.md",
        "---\ndescription: Reads logs\nmode: primary\ntopP: 0.9\npermission:\n  bash:\n    \"git log*\": allow\n---\nYou read logs.\n",
    )]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 0, "warnings and infos only");
    assert_eq!(
        json_summary(&report),
        [
            ".opencode/agents/log.md:4:1-4:5 warning unknown-key",
            ".opencode/agents/log.md:7:5-7:15 info broad-pattern",
        ]
    );
}

#[test]
fn json_paths_are_relative_with_forward_slashes() {
    let ws = workspace(&[
        ("app/opencode.json", "{\"default_agent\": 1}\n"),
        ("app/.opencode/agents/team/rev.md", "---\nmode: main\n---\nx\n"),
    ]);
    let (_, report) = check_json(ws.path(), &[]);
    assert_eq!(
        json_summary(&report),
        [
            "app/.opencode/agents/team/rev.md:2:7-2:11 error invalid-value",
            "app/opencode.json:1:19-1:20 error invalid-type",
        ]
    );
    // Given as `./app`, the paths are the same.
    let (_, again) = check_json(ws.path(), &["./app"]);
    assert_eq!(json_summary(&again), json_summary(&report));
}

// ---------------------------------------------------------------------------------------------
// GitHub format
// ---------------------------------------------------------------------------------------------

#[test]
fn github_annotations() {
    let ws = workspace(&[
        (".opencode/agents/rev.md", BROKEN_AGENT),
        (
            ".opencode/agents/log.md",
            "---\ndescription: Reads logs\nmode: subagent\npermission:\n  bash:\n    \"git log*\": allow\n---\nYou read logs.\n",
        ),
    ]);
    let out = check(ws.path(), &["--format", "github"]);
    assert_eq!(out.status, 1);
    assert_eq!(out.stderr, "");
    expect![[r##"
        ::notice file=.opencode/agents/log.md,line=6,col=5,endLine=6,endColumn=15,title=agent-lsp broad-pattern::"git log*" also allows commands that merely start with `git log` (e.g. `git logx`); "git log *" allows `git log` with or without arguments, and nothing else
        ::error file=.opencode/agents/rev.md,line=3,col=7,endLine=3,endColumn=11,title=agent-lsp invalid-value::`mode` must be "subagent", "primary" or "all", got "main"; opencode refuses to load the configuration. Did you mean `primary`?
        ::error file=.opencode/agents/rev.md,line=4,col=8,endLine=4,endColumn=15,title=agent-lsp invalid-color::unquoted, `#FF5733` is a YAML comment, so `color` is null and opencode refuses to load the configuration; quote it: "#FF5733"
        ::warning file=.opencode/agents/rev.md,line=5,col=1,endLine=5,endColumn=11,title=agent-lsp unknown-key::`temprature` is not an agent field; opencode passes it to the model provider as `options.temprature`. Did you mean `temperature`?
        ::error file=.opencode/agents/rev.md,line=6,col=8,endLine=6,endColumn=11,title=agent-lsp invalid-type::`steps` must be a whole number greater than 0, got the string "5"; opencode refuses to load the configuration. Remove the quotes
    "##]]
    .assert_eq(&out.stdout);
    for line in out.stdout.lines() {
        assert!(
            ["::error ", "::warning ", "::notice "]
                .iter()
                .any(|p| line.starts_with(p)),
            "{line}"
        );
    }
}

#[test]
fn github_clean_workspace_prints_nothing() {
    let ws = workspace(&[(".opencode/agents/rev.md", CLEAN_AGENT)]);
    let out = check(ws.path(), &["--format", "github"]);
    assert_eq!(out.status, 0);
    assert_eq!(out.stdout, "");
}

/// In the message, `%`, CR and LF are escaped; in properties (file, title) also `:` and `,`.
#[cfg(unix)]
#[test]
fn github_escapes_messages_and_properties() {
    let ws = workspace(&[(
        "a,b:c%d/.opencode/agents/r.md",
        // A quoted key holding `%` and an escaped newline: it ends up in the message.
        "---\ndescription: x\n\"50%\\nof\": 1\n---\nx\n",
    )]);
    let out = check(ws.path(), &["--format", "github"]);
    assert_eq!(out.status, 0);
    assert_eq!(
        out.stdout.lines().count(),
        1,
        "one annotation on one line: {}",
        out.stdout
    );
    let line = out.stdout.trim_end();
    let (head, message) = line
        .split_once("::")
        .and_then(|(_, rest)| rest.split_once("::"))
        .expect("::level ...::");
    assert_eq!(
        head,
        "warning file=a%2Cb%3Ac%25d/.opencode/agents/r.md,line=3,col=1,endLine=3,endColumn=10,title=agent-lsp unknown-key"
    );
    assert!(message.starts_with("`50%25%0Aof` is not an agent field"), "{message}");
    assert!(!message.contains('\n') && !message.contains('\r'));
    // Every `%` in the data is the start of an escape.
    for (i, _) in message.match_indices('%') {
        assert!(
            ["%25", "%0A", "%0D"].iter().any(|e| message[i..].starts_with(e)),
            "{message}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Exit status
// ---------------------------------------------------------------------------------------------

#[test]
fn exit_status_clean_warnings_and_errors() {
    let clean = workspace(&[(".opencode/agents/rev.md", CLEAN_AGENT)]);
    assert_eq!(check(clean.path(), &[]).status, 0);
    assert_eq!(check(clean.path(), &["--deny-warnings"]).status, 0);

    let warnings = workspace(&[(
        ".opencode/agents/rev.md",
        "---\ndescription: Reviews code\nmode: subagent\ntemprature: 0.2\n---\nYou review code.\n",
    )]);
    let out = check(warnings.path(), &[]);
    assert_eq!(out.status, 0, "warnings only: {out:#?}");
    assert_eq!(last_line(&out.stdout), "Found 1 warning in 1 file (1 checked)");
    assert_eq!(check(warnings.path(), &["--deny-warnings"]).status, 1);
    assert_eq!(
        check(warnings.path(), &["--deny-warnings", "--format", "json"]).status,
        1
    );
    assert_eq!(
        check(warnings.path(), &["--deny-warnings", "--format", "github"]).status,
        1
    );

    let infos = workspace(&[(
        ".opencode/agents/log.md",
        "---\ndescription: Reads logs\nmode: subagent\npermission:\n  bash:\n    \"git log*\": allow\n---\nYou read logs.\n",
    )]);
    assert_eq!(check(infos.path(), &["--deny-warnings"]).status, 0, "infos never fail");

    let errors = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    for format in ["human", "json", "github"] {
        assert_eq!(check(errors.path(), &["--format", format]).status, 1, "{format}");
    }
}

/// `--fail-on effect` (the hooks' and the Action's default): a warning about something that
/// changes what the runtime does fails, one about what works as written does not; the last
/// `--fail-on` given wins, so a hook's user can relax it with `args`.
#[test]
fn fail_on_effect_fails_on_what_changes_the_runtime() {
    // `temprature` is moved into the provider options: value-ignored.
    let typo = workspace(&[(
        ".opencode/agents/rev.md",
        "---\ndescription: Reviews code\nmode: subagent\ntemprature: 0.2\n---\nYou review code.\n",
    )]);
    assert_eq!(check(typo.path(), &[]).status, 0);
    assert_eq!(check(typo.path(), &["--fail-on", "error"]).status, 0);
    assert_eq!(check(typo.path(), &["--fail-on", "effect"]).status, 1);
    assert_eq!(check(typo.path(), &["--fail-on", "warning"]).status, 1);
    assert_eq!(
        check(typo.path(), &["--fail-on", "effect", "--fail-on", "error"]).status,
        0
    );
    assert_eq!(
        check(typo.path(), &["--fail-on", "error", "--fail-on", "effect"]).status,
        1
    );
    // `maxSteps` still works (deprecated: works-but-risky): a warning that does not fail.
    let deprecated = workspace(&[(
        ".opencode/agents/rev.md",
        "---\ndescription: Reviews code\nmode: subagent\nmaxSteps: 5\n---\nYou review code.\n",
    )]);
    let out = check(deprecated.path(), &["--fail-on", "effect"]);
    assert_eq!(last_line(&out.stdout), "Found 1 warning in 1 file (1 checked)");
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(check(deprecated.path(), &["--fail-on", "warning"]).status, 1);
    // Errors always fail; `--deny-warnings` is `--fail-on warning`.
    let errors = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    assert_eq!(check(errors.path(), &["--fail-on", "error"]).status, 1);
    assert_eq!(
        check(deprecated.path(), &["--deny-warnings", "--fail-on", "effect"]).status,
        1
    );
    let bad = check(typo.path(), &["--fail-on", "effects"]);
    assert_eq!(bad.status, 2);
    assert!(
        bad.stderr.contains("invalid value 'effects' for '--fail-on <WHAT>'"),
        "{}",
        bad.stderr
    );
}

#[test]
fn exit_status_2_for_a_missing_path_with_nothing_on_stdout() {
    let ws = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    for args in [
        &["does-not-exist"][..],
        &[".", "does-not-exist"],
        &["--format", "json", "does-not-exist"],
    ] {
        let out = check(ws.path(), args);
        assert_eq!(out.status, 2, "{args:?}: {out:#?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(
            out.stderr.starts_with("agent-lsp: error: does-not-exist: "),
            "{args:?}: {}",
            out.stderr
        );
    }
}

/// Usage errors exit with 2, print nothing on stdout, and say what is wrong on the first line
/// of stderr (clap's wording), followed by the usage of the command.
#[test]
fn exit_status_2_for_usage_errors() {
    let ws = workspace(&[(".opencode/agents/rev.md", CLEAN_AGENT)]);
    for (args, first_line, usage) in [
        (
            &["check", "--bogus"][..],
            "error: unexpected argument '--bogus' found",
            Some("Usage: agent-lsp check [OPTIONS] [PATHS]..."),
        ),
        (
            &["check", "--format", "xml"],
            "error: invalid value 'xml' for '--format <FORMAT>'",
            None,
        ),
        (
            &["check", "--global-dir"],
            "error: a value is required for '--global-dir <DIR>' but none was supplied",
            None,
        ),
        (
            &["check", "--effect", "sometimes"],
            "error: invalid value 'sometimes' for '--effect <EFFECT>': unknown effect `sometimes`; one of refuses-to-start, file-ignored, value-ignored, rule-never-applies, fails-when-used, works-but-risky, not-applied",
            None,
        ),
        (
            &["frobnicate"],
            "error: unrecognized subcommand 'frobnicate'",
            Some("Usage: agent-lsp <COMMAND>"),
        ),
        (
            &["explain", "--format", "xml"],
            "error: invalid value 'xml' for '--format <FORMAT>'",
            None,
        ),
        (
            &["explain", "rev", "--check", "bash"],
            "error: 2 values required for '--check <PERMISSION> <INPUT>' but 1 was provided",
            Some("Usage: agent-lsp explain [OPTIONS] [AGENT]"),
        ),
        (
            &["explain", "--check", "bash", "ls"],
            "agent-lsp: error: --check needs an AGENT",
            None,
        ),
        (
            &["serve", "--bogus"],
            "error: unexpected argument '--bogus' found",
            Some("Usage: agent-lsp serve [OPTIONS]"),
        ),
        (
            &["rules", "a", "b"],
            "error: unexpected argument 'b' found",
            Some("Usage: agent-lsp rules [OPTIONS] [CODE]"),
        ),
    ] {
        let out = agent_lsp(ws.path(), args);
        assert_eq!(out.status, 2, "{args:?}: {out:#?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert_eq!(out.stderr.lines().next(), Some(first_line), "{args:?}: {}", out.stderr);
        if let Some(usage) = usage {
            assert!(out.stderr.lines().any(|l| l == usage), "{args:?}: {}", out.stderr);
        }
    }
    // No command at all: the help, on stderr, and 2.
    let help = agent_lsp(ws.path(), &["--help"]).stdout;
    let out = agent_lsp(ws.path(), &[]);
    assert_eq!((out.status, out.stdout.as_str()), (2, ""));
    assert_eq!(out.stderr, help);
    // A file that is not an opencode file.
    fs::write(ws.path().join("notes.txt"), "hello\n").unwrap();
    let out = check(ws.path(), &["notes.txt"]);
    assert_eq!(out.status, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "agent-lsp: error: notes.txt: not an opencode file (expected opencode.json, opencode.jsonc or a Markdown agent)\n"
    );
}

#[test]
fn version_is_the_package_version() {
    // The runtime releases it names are the ones the differential tests install.
    let pinned = |manifest: &str, package: &str| -> String {
        let m: serde_json::Value = serde_json::from_str(manifest).unwrap();
        m["dependencies"][package].as_str().unwrap().to_string()
    };
    let opencode = pinned(include_str!("runtime/package.json"), "opencode-linux-x64");
    let claude = pinned(include_str!("claude_runtime/package.json"), "@anthropic-ai/claude-code");
    let codex = pinned(include_str!("codex_runtime/package.json"), "@openai/codex");
    let gemini = pinned(include_str!("gemini_runtime/package.json"), "@google/gemini-cli");
    // Copilot's judge: the VS Code of the code-server `tests/copilot_vscode/run.sh` installs
    // (code-server 4.X.Y carries VS Code 1.X.Y).
    let code_server = include_str!("copilot_vscode/run.sh")
        .lines()
        .find_map(|l| l.strip_prefix("code_server_version="))
        .unwrap();
    let vscode = format!("1.{}", code_server.split_once('.').unwrap().1);
    let ws = workspace(&[]);
    for flag in ["--version", "-V"] {
        let out = agent_lsp(ws.path(), &[flag]);
        assert_eq!(out.status, 0, "{flag}");
        assert_eq!(
            out.stdout,
            format!(
                "agent-lsp {} (checked against opencode {opencode}, Claude Code {claude}, GitHub Copilot (VS Code {vscode}), Codex {codex}, Gemini CLI {gemini})\n",
                env!("CARGO_PKG_VERSION")
            ),
            "{flag}"
        );
        assert_eq!(out.stderr, "", "{flag}");
    }
}

/// The commands listed by `--help` (the `Commands:` section), with their one-line summaries.
fn help_commands(help: &str) -> Vec<(&str, &str)> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let l = l.trim_start();
            let (name, summary) = l.split_once(' ').unwrap_or((l, ""));
            (name, summary.trim())
        })
        .collect()
}

/// The long options listed by a `--help`.
fn help_options(help: &str) -> Vec<&str> {
    help.lines()
        .filter_map(|l| l.split("--").nth(1))
        .map(|rest| rest.split([' ', ',', '\n']).next().unwrap())
        .collect()
}

#[test]
fn help_lists_every_command_and_option() {
    let ws = workspace(&[]);
    let top = agent_lsp(ws.path(), &["--help"]);
    assert_eq!(top.status, 0);
    assert_eq!(top.stderr, "");
    // The runtimes are named from the one list of dialects: every product, the last one too.
    assert!(top.stdout.starts_with(
        "Language server and checker for AI-agent definition files: the agents, configs, commands, skills, settings, hooks and MCP files of opencode, Claude Code, Zuno, GitHub Copilot, Codex and Gemini CLI\n\nUsage: agent-lsp <COMMAND>\n"
    ), "{}", top.stdout);
    let check = agent_lsp(ws.path(), &["check", "--help"]);
    for product in agent_lsp::analysis::Dialect::ALL.map(|d| d.product()) {
        assert!(
            check.stdout.lines().next().unwrap_or_default().contains(product),
            "{}",
            check.stdout
        );
    }
    assert_eq!(
        help_commands(&top.stdout),
        [
            (
                "check",
                "Check the agent files of opencode, Claude Code, Zuno, GitHub Copilot, Codex and Gemini CLI (agents, configs, commands, skills, settings, hooks, MCP files), and report problems"
            ),
            (
                "explain",
                "Show an agent as its runtime builds it (merged layers, resolved permissions, tools), or list them"
            ),
            ("serve", "Run the language server on stdin/stdout"),
            (
                "mcp",
                "Serve MCP (Model Context Protocol) on stdin/stdout: read-only tools for coding agents"
            ),
            ("rules", "List the rules, or explain one in full"),
            (
                "setup",
                "Print the config that runs agent-lsp as language server and MCP server of opencode or Claude Code, or merge it into the project"
            ),
            (
                "hook",
                "Claude Code hook (after Write/Edit): tell the model what in the written file changes what the runtime does"
            ),
            ("help", "Print this message or the help of the given subcommand(s)"),
        ]
    );
    // `-h` and `help` print the same.
    for args in [&["-h"][..], &["help"]] {
        let out = agent_lsp(ws.path(), args);
        assert_eq!((out.status, out.stdout.as_str()), (0, top.stdout.as_str()), "{args:?}");
    }
    // Each command's help: its usage line and every option the README documents.
    for (command, usage, options) in [
        (
            "check",
            "Usage: agent-lsp check [OPTIONS] [PATHS]...",
            &[
                "format",
                "no-global",
                "global-dir",
                "deny-warnings",
                "fail-on",
                "fix",
                "unsafe-fixes",
                "diff",
                "effect",
                "help",
            ][..],
        ),
        (
            "explain",
            "Usage: agent-lsp explain [OPTIONS] [AGENT]",
            &[
                "root",
                "format",
                "no-global",
                "global-dir",
                "check",
                "dialect",
                "matrix",
                "who",
                "graph",
                "help",
            ],
        ),
        (
            "serve",
            "Usage: agent-lsp serve [OPTIONS]",
            &["stdio", "for-agents", "help"],
        ),
        (
            "mcp",
            "Usage: agent-lsp mcp [OPTIONS]",
            &["root", "no-global", "global-dir", "help"],
        ),
        ("rules", "Usage: agent-lsp rules [OPTIONS] [CODE]", &["format", "help"]),
        (
            "setup",
            "Usage: agent-lsp setup [OPTIONS] <RUNTIME>",
            &["root", "write", "absolute", "global", "hook", "help"],
        ),
    ] {
        for args in [vec![command, "--help"], vec!["help", command]] {
            let out = agent_lsp(ws.path(), &args);
            assert_eq!(out.status, 0, "{args:?}");
            assert_eq!(out.stderr, "", "{args:?}");
            assert!(out.stdout.lines().any(|l| l == usage), "{args:?}: {}", out.stdout);
            assert_eq!(help_options(&out.stdout), options, "{args:?}: {}", out.stdout);
        }
    }
}

#[test]
fn check_without_a_path_checks_the_current_directory() {
    let ws = workspace(&[
        (".opencode/agents/rev.md", BROKEN_AGENT),
        ("sub/opencode.json", "{\"default_agent\": 1}\n"),
    ]);
    let implicit = check(ws.path(), &[]);
    let explicit = check(ws.path(), &["."]);
    assert_eq!(implicit.status, 1);
    assert_eq!(implicit.stdout, explicit.stdout);
    assert_eq!(
        human_locations(&implicit.stdout),
        [
            ".opencode/agents/rev.md:3:7",
            ".opencode/agents/rev.md:4:8",
            ".opencode/agents/rev.md:5:1",
            ".opencode/agents/rev.md:6:8",
            "sub/opencode.json:1:19",
        ]
    );
    let ws = workspace(&[]);
    let out = check(ws.path(), &[]);
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (
            0,
            "no files found to check: nothing here that opencode, Claude Code, Zuno, GitHub Copilot, Codex or Gemini CLI reads (agents, configs, commands, skills, prompt files)\n"
        )
    );
}

#[test]
fn files_agent_lsp_does_not_analyse_are_findings_in_every_format() {
    // A binary opencode.json, an opencode agent over 4 MiB and a Claude Code agent over 4 MiB:
    // each is a finding on its own file (the Claude one an error, since Claude Code skips agent
    // files over 1 MiB), in every format, and nothing goes to stderr.
    let big = format!("---\ndescription: huge\n---\n{}", "x".repeat(5 << 20));
    let ws = workspace(&[
        ("opencode.json", "{\"a\":\0}"),
        (".opencode/agents/huge.md", &big),
        (".claude/agents/huge.md", &big),
    ]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 1, "{report:#}");
    let found: Vec<(String, String, String, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = |p: &str, sev: &str| (p.to_string(), "unchecked-file".to_string(), sev.to_string(), 1);
    assert_eq!(
        found,
        [
            expected(".claude/agents/huge.md", "error"),
            expected(".opencode/agents/huge.md", "warning"),
            expected("opencode.json", "warning"),
        ]
    );
    assert_eq!(report["files"], 3);
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "agent-lsp did not analyse this file: it is 5.0 MiB (5242906 bytes), over the 4 MiB agent-lsp reads; Claude Code skips agent files over 1 MiB, so this agent does not load",
            "agent-lsp did not analyse this file: it is 5.0 MiB (5242906 bytes), over the 4 MiB agent-lsp reads; opencode still reads it, so whatever it defines is unchecked and unknown to the other checks",
            "agent-lsp did not analyse this file: it holds NUL bytes (a binary file); opencode still reads it, so whatever it defines is unchecked and unknown to the other checks",
        ]
    );
    for (format, each) in [
        ("human", "unchecked-file"),
        ("github", "unchecked-file"),
        ("sarif", "\"ruleId\": \"unchecked-file\""),
    ] {
        let out = check(ws.path(), &["--format", format]);
        assert_eq!(out.status, 1, "{format}");
        assert_eq!(out.stderr, "", "{format}");
        assert_eq!(out.stdout.matches(each).count(), 3, "{format}: {}", out.stdout);
    }

    // Alone, a skipped file is still a file checked: a warning, exit 0 (1 with --deny-warnings).
    let ws = workspace(&[("opencode.json", "{\"a\":\0}")]);
    let out = check(ws.path(), &[]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert!(
        out.stdout.ends_with("Found 1 warning in 1 file (1 checked)\n"),
        "{}",
        out.stdout
    );
    assert_eq!(check(ws.path(), &["--deny-warnings"]).status, 1);
}

/// A file agent-lsp did not read (a README given by path) shows its real first line, read from
/// the disk, never an empty line 1; a binary file shows no excerpt.
#[test]
fn human_output_shows_the_first_line_of_a_file_not_read() {
    let ws = workspace(&[("README.md", "\u{feff}# Title 見出し\r\n\r\nText.\r\n")]);
    let out = check(ws.path(), &["README.md"]);
    assert_eq!(out.status, 0, "{out:#?}");
    expect![[r#"
        info[unchecked-file]: no runtime reads this file where it is, so agent-lsp does not analyse it: an agent goes in `.opencode/agents/`, `.claude/agents/` or `.github/agents/<name>.agent.md` (Copilot leaves a README.md there out), a command in `.opencode/commands/` or `.claude/commands/`, a skill in `.claude/skills/<name>/SKILL.md` or `.opencode/skills/<name>/SKILL.md`
         --> README.md:1:1  (effect: file-ignored)
          |
        1 | # Title 見出し
          | ^

        Found 1 info in 1 file (1 checked)
    "#]]
    .assert_eq(&out.stdout);
    std::fs::create_dir_all(ws.path().join(".opencode/agents")).unwrap();
    std::fs::write(ws.path().join(".opencode/agents/bin.md"), b"\0\x01\x02\n").unwrap();
    let out = check(ws.path(), &[".opencode/agents/bin.md"]);
    assert!(out.stdout.contains("--> .opencode/agents/bin.md:1:1"), "{}", out.stdout);
    assert!(!out.stdout.contains(" | "), "{}", out.stdout);
}

#[test]
fn a_global_dir_that_does_not_exist_is_an_error() {
    let ws = workspace(&[(".opencode/agents/rev.md", CLEAN_AGENT)]);
    for args in [
        &["check", "--global-dir", "nope"][..],
        &["explain", "--global-dir", "nope"][..],
        &["mcp", "--global-dir", "nope"][..],
    ] {
        let out = agent_lsp(ws.path(), args);
        assert_eq!(out.status, 2, "{args:?}");
        assert_eq!(out.stdout, "", "{args:?}");
        assert_eq!(
            out.stderr, "agent-lsp: error: --global-dir nope: no such directory\n",
            "{args:?}"
        );
    }
    for command in ["check", "mcp"] {
        let out = agent_lsp(ws.path(), &[command, "--global-dir", ".opencode/agents/rev.md"]);
        assert_eq!(out.status, 2, "{command}");
        assert!(
            out.stderr.ends_with("rev.md: not a directory\n"),
            "{command}: {}",
            out.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Explicit files
// ---------------------------------------------------------------------------------------------

fn project_with_both_files() -> TempDir {
    workspace(&[
        (".opencode/agents/rev.md", BROKEN_AGENT),
        (
            "opencode.json",
            "{\n  \"default_agent\": \"build\",\n  \"agnet\": {}\n}\n",
        ),
    ])
}

#[test]
fn explicit_agent_file() {
    let ws = project_with_both_files();
    let out = check(ws.path(), &[".opencode/agents/rev.md"]);
    assert_eq!(out.status, 1);
    assert_eq!(
        human_locations(&out.stdout),
        [
            ".opencode/agents/rev.md:3:7",
            ".opencode/agents/rev.md:4:8",
            ".opencode/agents/rev.md:5:1",
            ".opencode/agents/rev.md:6:8",
        ]
    );
    assert_eq!(
        last_line(&out.stdout),
        "Found 3 errors, 1 warning in 1 file (1 checked)"
    );
}

#[test]
fn explicit_config_file() {
    let ws = project_with_both_files();
    let out = check(ws.path(), &["opencode.json"]);
    assert_eq!(out.status, 0, "a warning only: {out:#?}");
    assert_eq!(human_locations(&out.stdout), ["opencode.json:3:3"]);
    assert!(out.stdout.contains("warning[unknown-key]"), "{}", out.stdout);
    assert_eq!(last_line(&out.stdout), "Found 1 warning in 1 file (1 checked)");
}

#[test]
fn directory_with_both_files_and_no_duplicates() {
    let ws = project_with_both_files();
    let all = [
        ".opencode/agents/rev.md:3:7",
        ".opencode/agents/rev.md:4:8",
        ".opencode/agents/rev.md:5:1",
        ".opencode/agents/rev.md:6:8",
        "opencode.json:3:3",
    ];
    let out = check(ws.path(), &["."]);
    assert_eq!(human_locations(&out.stdout), all);
    assert_eq!(
        last_line(&out.stdout),
        "Found 3 errors, 2 warnings in 2 files (2 checked)"
    );
    // The directory and files inside it, some twice: each diagnostic once.
    let out = check(
        ws.path(),
        &[".", "opencode.json", ".opencode/agents/rev.md", "./opencode.json"],
    );
    assert_eq!(human_locations(&out.stdout), all);
    assert_eq!(
        last_line(&out.stdout),
        "Found 3 errors, 2 warnings in 2 files (2 checked)"
    );
    // Both files given explicitly.
    let out = check(ws.path(), &["opencode.json", ".opencode/agents/rev.md"]);
    assert_eq!(human_locations(&out.stdout), all);
}

/// Both files of one project given explicitly, as a pre-commit hook or
/// `git diff --name-only | xargs agent-lsp check` does: they are checked together, so
/// `opencode.json` sees the agent defined in `.opencode/agents/rev.md`.
#[test]
fn explicit_files_of_one_project_see_each_other() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (".opencode/agents/rev.md", &CLEAN_AGENT.replace("subagent", "primary")),
    ]);
    assert_eq!(check(ws.path(), &[]).status, 0, "the directory is clean");
    for args in [
        ["opencode.json", ".opencode/agents/rev.md"],
        [".opencode/agents/rev.md", "opencode.json"],
    ] {
        let out = check(ws.path(), &args);
        assert_eq!(
            (out.status, out.stdout.as_str()),
            (0, "ok: 2 files checked, no problems\n"),
            "{args:?}"
        );
    }
}

/// One file given explicitly is checked in its project: `agent-lsp check opencode.json` in a
/// project whose `.opencode/agents/rev.md` defines the primary agent `rev` sees `rev`, as
/// opencode started in that directory does, so `default_agent: "rev"` is not reported; only the
/// given file is reported on (the agent's own problems are not).
#[test]
fn explicit_config_file_is_checked_in_its_project() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (
            ".opencode/agents/rev.md",
            &CLEAN_AGENT
                .replace("subagent", "primary")
                .replace("mode:", "colr: red\nmode:"),
        ),
    ]);
    let out = check(ws.path(), &["opencode.json"]);
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 1 file checked, no problems\n")
    );
    // The agent is what the config sees: as a subagent, it cannot be the default agent.
    write_files(ws.path(), &[(".opencode/agents/rev.md", CLEAN_AGENT)]);
    let (status, report) = check_json(ws.path(), &["opencode.json"]);
    assert_eq!(status, 1);
    assert_eq!(
        json_summary(&report),
        ["opencode.json:2:20-2:25 error invalid-default-agent"]
    );
}

/// `agent-lsp check .opencode` (or `.opencode/agents`) checks the agents inside: a config
/// directory given as the path is recognised as one (not only as a child of a walked
/// directory), so the broken agent is reported and the run fails with status 1, rather than
/// passing with `ok: 0 files checked, no problems`, a false green in CI.
#[test]
fn a_config_directory_given_as_path_is_checked() {
    let ws = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    for dir in [".opencode", ".opencode/agents"] {
        let out = check(ws.path(), &[dir]);
        assert_eq!(out.status, 1, "{dir}: {out:#?}");
        assert_eq!(
            last_line(&out.stdout),
            "Found 3 errors, 1 warning in 1 file (1 checked)",
            "{dir}"
        );
    }
}

/// A marketplace laid out like the public ones: every plugin's manifest, agents, commands and
/// skills are checked, as a directory or file by file.
#[test]
fn plugins_are_checked_whole() {
    let ws = workspace(&[
        (
            ".claude-plugin/marketplace.json",
            "{\n  \"name\": \"m\",\n  \"description\": \"d\",\n  \"owner\": {\"name\": \"o\"},\n  \"plugins\": [{\"name\": \"kit\", \"source\": \"plugins/kit\"}]\n}\n",
        ),
        (
            "plugins/kit/.claude-plugin/plugin.json",
            "{\n  \"name\": \"kit\",\n  \"version\": \"1.0.0\",\n  \"description\": \"d\",\n  \"author\": {\"name\": \"a\"},\n  \"agents\": \"./agents\"\n}\n",
        ),
        ("plugins/kit/agents/a.md", "---\nname: a\ndescription: d\n---\nBody\n"),
        (
            "plugins/kit/commands/ship.md",
            "---\nname: deploy\ndescription: d\nalowed-tools: Read\n---\nShip\n",
        ),
        (
            "plugins/kit/skills/notes/SKILL.md",
            "---\nname: note\ndescription: d\n---\nBody\n",
        ),
    ]);
    let (status, report) = check_json(ws.path(), &["."]);
    assert_eq!(status, 1);
    assert_eq!(report["files"], 5);
    assert_eq!(
        json_summary(&report),
        [
            ".claude-plugin/marketplace.json:5:41-5:54 error invalid-value",
            "plugins/kit/.claude-plugin/plugin.json:6:13-6:23 error invalid-value",
            "plugins/kit/commands/ship.md:4:1-4:13 warning unknown-key",
            "plugins/kit/skills/notes/SKILL.md:2:7-2:11 warning name-mismatch",
        ]
    );
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages[1],
        "`./agents` must end with `.md` (`agents` lists agent files, not a folder: list each file, or leave `agents` out to read `agents/`): Claude Code does not load the plugin"
    );
    assert_eq!(
        messages[3],
        "the skill is named `note` but its folder is `notes`; the Agent Skills format wants them equal. Claude Code lists it as `/kit:note` (`/kit:notes` works too)"
    );
    // File by file, as pre-commit passes them: each is read as part of its plugin.
    for (file, want) in [
        (
            "plugins/kit/.claude-plugin/plugin.json",
            vec!["plugins/kit/.claude-plugin/plugin.json:6:13-6:23 error invalid-value"],
        ),
        (
            "plugins/kit/commands/ship.md",
            vec!["plugins/kit/commands/ship.md:4:1-4:13 warning unknown-key"],
        ),
        (
            "plugins/kit/skills/notes/SKILL.md",
            vec!["plugins/kit/skills/notes/SKILL.md:2:7-2:11 warning name-mismatch"],
        ),
    ] {
        let (_, report) = check_json(ws.path(), &[file]);
        assert_eq!(report["files"], 1, "{file}");
        assert_eq!(json_summary(&report), want, "{file}");
    }
}

/// A plugin built into a folder the walk otherwise leaves out (`dist/`), and deep below the root,
/// is found by `check` at the repository's root, as when its folder is given by path; and a
/// `CLAUDE.md` with an import that names no file gets `missing-path`, at the root and by path.
#[test]
fn plugins_anywhere_and_memory_imports_from_the_root() {
    let ws = workspace(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            "dist/claude/plugins/go-dev/.claude-plugin/plugin.json",
            "{\n  \"name\": \"go-dev\",\n  \"version\": \"1.0.0\",\n  \"description\": \"d\",\n  \"author\": {\"name\": \"a\"}\n}\n",
        ),
        (
            "dist/claude/plugins/go-dev/agents/gopher.md",
            "---\nname: gopher\ndescription: Writes Go\ntools: Read, LS\n---\nWrite Go.\n",
        ),
        ("CLAUDE.md", "# Rules\nSee @docs/style.md and @docs/gone.md\n"),
        ("docs/style.md", "Style.\n"),
    ]);
    let want = [
        "CLAUDE.md:2:25-2:37 warning missing-path",
        "dist/claude/plugins/go-dev/agents/gopher.md:4:14-4:16 warning unknown-tool",
    ];
    let (_, report) = check_json(ws.path(), &["."]);
    assert_eq!(json_summary(&report), want);
    let (_, report) = check_json(ws.path(), &["dist/claude/plugins/go-dev"]);
    assert_eq!(json_summary(&report), want[1..]);
    // File by file, as pre-commit passes them.
    for (file, want) in [
        ("CLAUDE.md", &want[..1]),
        ("dist/claude/plugins/go-dev/agents/gopher.md", &want[1..]),
    ] {
        let (_, report) = check_json(ws.path(), &[file]);
        assert_eq!(json_summary(&report), want, "{file}");
    }
}

/// A `SKILL.md` whose description holds `: ` is not valid YAML, yet opencode 1.18.34 (its
/// sanitizer) and Claude Code 2.1.332 (its quoting retry) both load it (`tests/runtime`,
/// `tests/claude_runtime`): a `lenient-parse` warning with a fix, never an error; the skill's
/// name counts for the `skill` permission. A key set twice is an error naming opencode, which
/// skips that skill (js-yaml throws; Claude Code keeps the last).
#[test]
fn skills_with_a_colon_in_a_value_load_in_every_runtime() {
    let long = format!(
        "Use this skill when: {}",
        "the user asks for release notes. ".repeat(33)
    );
    let long = &long[..1100];
    let plugin_skill = format!("---\nname: notes\ndescription: {long}\n---\nBody\n");
    let ws = workspace(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            ".opencode/skills/demo/SKILL.md",
            "---\nname: demo\ndescription: Use this when: the user asks\n---\nBody\n",
        ),
        (
            ".claude/skills/demo2/SKILL.md",
            "---\nname: demo2\ndescription: Use this when: the user asks\n---\nBody\n",
        ),
        (
            ".opencode/agents/a.md",
            "---\ndescription: d\nmode: subagent\npermission:\n  skill:\n    demo: allow\n    demo2: allow\n---\nA\n",
        ),
        (
            "plugins/kit/.claude-plugin/plugin.json",
            "{\"name\": \"kit\", \"version\": \"1.0.0\", \"description\": \"d\", \"author\": {\"name\": \"a\"}}\n",
        ),
        ("plugins/kit/skills/notes/SKILL.md", &plugin_skill),
    ]);
    let out = check(ws.path(), &["."]);
    assert_eq!(out.status, 0, "warnings only: {out:#?}");
    assert_eq!(
        human_locations(&out.stdout),
        [
            ".claude/skills/demo2/SKILL.md:3:14",
            ".opencode/skills/demo/SKILL.md:3:14",
            "plugins/kit/skills/notes/SKILL.md:3:14",
            "plugins/kit/skills/notes/SKILL.md:3:14",
        ]
    );
    let (_, report) = check_json(ws.path(), &["."]);
    assert_eq!(
        json_summary(&report),
        [
            ".claude/skills/demo2/SKILL.md:3:14-3:42 warning lenient-parse",
            ".opencode/skills/demo/SKILL.md:3:14-3:42 warning lenient-parse",
            "plugins/kit/skills/notes/SKILL.md:3:14-3:1114 warning invalid-value",
            "plugins/kit/skills/notes/SKILL.md:3:14-3:1114 warning lenient-parse",
        ]
    );
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "this value is not valid YAML (a plain value may not contain `: `); Claude Code and opencode read the skill only through their lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees",
            "this value is not valid YAML (a plain value may not contain `: `); opencode reads the skill only through its lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees",
            "the Agent Skills format wants a description of 1 to 1024 characters; this one has 1100",
            "this value is not valid YAML (a plain value may not contain `: `); Claude Code reads the skill only through its lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees",
        ]
    );
    // The fix quotes each value; then every reader agrees and only the length is left.
    let out = check(ws.path(), &["--fix", "."]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(
        fs::read_to_string(ws.path().join(".opencode/skills/demo/SKILL.md")).unwrap(),
        "---\nname: demo\ndescription: \"Use this when: the user asks\"\n---\nBody\n"
    );
    let (_, report) = check_json(ws.path(), &["."]);
    assert_eq!(
        json_summary(&report),
        ["plugins/kit/skills/notes/SKILL.md:3:14-3:1116 warning invalid-value"]
    );
    // A key set twice: opencode skips the skill (an error), Claude Code reads it.
    fs::write(
        ws.path().join(".claude/skills/demo2/SKILL.md"),
        "---\nname: demo2\ndescription: d\nname: demo2\n---\nBody\n",
    )
    .unwrap();
    let (status, report) = check_json(ws.path(), &[".claude/skills/demo2/SKILL.md"]);
    assert_eq!(status, 1);
    assert_eq!(
        json_summary(&report),
        [".claude/skills/demo2/SKILL.md:4:1-4:5 error syntax-error"]
    );
    assert_eq!(
        report["diagnostics"][0]["message"],
        "`name` is set twice, which js-yaml rejects: opencode cannot read this frontmatter, even with its lenient retry: it skips this skill; Claude Code reads it"
    );
    assert_eq!(report["diagnostics"][0]["effect"], "file-ignored");
}

// ---------------------------------------------------------------------------------------------
// Cross-file: default_agent
// ---------------------------------------------------------------------------------------------

#[test]
fn default_agent_must_be_a_primary_agent() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (".opencode/agents/rev.md", CLEAN_AGENT),
    ]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 1);
    assert_eq!(
        json_summary(&report),
        ["opencode.json:2:20-2:25 error invalid-default-agent"]
    );
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("\"rev\" is a subagent"), "{message}");

    write_files(
        ws.path(),
        &[(".opencode/agents/rev.md", &CLEAN_AGENT.replace("subagent", "primary"))],
    );
    let out = check(ws.path(), &[]);
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );
    write_files(
        ws.path(),
        &[(".opencode/agents/rev.md", &CLEAN_AGENT.replace("subagent", "all"))],
    );
    assert_eq!(check(ws.path(), &[]).status, 0, "mode: all can be the default agent");
}

/// A sub-project whose `default_agent` is an agent of the enclosing project: opencode started
/// in the sub-project loads the enclosing project's config too (up to the worktree top), so the
/// agent exists there.
fn sub_project_using_a_parent_agent() -> TempDir {
    workspace(&[
        (
            "opencode.json",
            r#"{"agent": {"rootonly": {"mode": "primary", "prompt": "x"}}}"#,
        ),
        ("packages/api/opencode.json", "{\"default_agent\": \"rootonly\"}\n"),
    ])
}

#[test]
fn a_sub_project_given_as_an_absolute_path_sees_the_enclosing_project() {
    let ws = sub_project_using_a_parent_agent();
    let sub = ws.path().join("packages/api");
    let elsewhere = workspace(&[]);
    for cwd in [elsewhere.path(), sub.as_path(), ws.path()] {
        let out = check(cwd, &[sub.to_str().unwrap()]);
        assert_eq!(
            (out.status, out.stdout.as_str()),
            (0, "ok: 1 file checked, no problems\n"),
            "from {cwd:?}"
        );
    }
}

/// The same sub-project as a relative path: `agent-lsp check` (the default `.`) run in it, or
/// `agent-lsp check packages/api` run in the project. Actual: the enclosing project's layers
/// are not read, and `default agent "rootonly" not found` is reported (status 1).
#[test]
fn a_sub_project_given_as_a_relative_path_sees_the_enclosing_project() {
    let ws = sub_project_using_a_parent_agent();
    let sub = ws.path().join("packages/api");
    for (cwd, args) in [(sub.as_path(), &[][..]), (ws.path(), &["packages/api"])] {
        let out = check(cwd, args);
        assert_eq!(
            (out.status, out.stdout.as_str()),
            (0, "ok: 1 file checked, no problems\n"),
            "{args:?} in {cwd:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Global configuration
// ---------------------------------------------------------------------------------------------

const HELPER_AGENT: &str = "---\ndescription: Helps\nmode: primary\n---\nYou help.\n";

/// A project whose `default_agent` is defined only in a global config directory.
/// opencode's terminal settings: a project's `tui.json`, a `.opencode/` folder's `tui.jsonc`
/// and one in a package below are found by the walk and checked (each refusal on its value,
/// with opencode's effect: the file is skipped); `--fix` writes the legacy wrapper's keys at
/// the top level; the file `$OPENCODE_TUI_CONFIG` names is read whatever its name.
#[test]
fn tui_json_is_discovered_and_checked() {
    let ws = workspace(&[
        (
            "tui.json",
            "{\n  \"theme\": \"opencode\",\n  \"scroll_speed\": 0,\n  \"keybinds\": {\"app_exitt\": \"ctrl+q\"}\n}\n",
        ),
        (".opencode/tui.jsonc", "{\"mouse\": 1}"),
        ("packages/web/tui.json", "{\"tui\": {\"diff_style\": \"auto\"}}\n"),
        ("terminal/mine.json", "{\"cursor\": {\"style\": \"bar\"}}"),
    ]);
    let (status, report) = check_json(ws.path(), &[]);
    assert_eq!(status, 1);
    assert_eq!(report["files"], 3, "{report:#}");
    expect![[r#"
        [
            ".opencode/tui.jsonc:1:11-1:12 error invalid-type",
            "packages/web/tui.json:1:2-1:7 warning deprecated-field",
            "tui.json:3:19-3:20 error invalid-value",
            "tui.json:4:16-4:27 warning unknown-key",
        ]
    "#]]
    .assert_debug_eq(&json_summary(&report));
    let effects: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["effect"].as_str().unwrap())
        .collect();
    assert_eq!(
        effects,
        ["file-ignored", "works-but-risky", "file-ignored", "value-ignored"]
    );
    // Given by path, alone.
    let out = check(ws.path(), &[".opencode/tui.jsonc"]);
    assert_eq!(last_line(&out.stdout), "Found 1 error in 1 file (1 checked)");
    // The safe fix unwraps the legacy `tui`.
    let out = check(ws.path(), &["--fix", "packages/web/tui.json"]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(
        fs::read_to_string(ws.path().join("packages/web/tui.json")).unwrap(),
        "{\"diff_style\": \"auto\"}\n"
    );
    // `$OPENCODE_TUI_CONFIG`: read and reported when it lies under the paths checked.
    let custom = fs::canonicalize(ws.path()).unwrap().join("terminal/mine.json");
    let global = ws.path().join("no-global");
    fs::create_dir_all(&global).unwrap();
    let out = run(command(
        ws.path(),
        &["check", "--format", "json", "--global-dir", "no-global", "terminal"],
    )
    .env("OPENCODE_TUI_CONFIG", &custom));
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    expect![[r#"
        [
            "terminal/mine.json:1:22-1:27 error invalid-value",
        ]
    "#]]
    .assert_debug_eq(&json_summary(&report));
}

fn project_using_global_helper() -> TempDir {
    workspace(&[
        ("project/opencode.json", "{\n  \"default_agent\": \"helper\"\n}\n"),
        ("project/.opencode/agents/rev.md", CLEAN_AGENT),
    ])
}

#[test]
fn global_dir_agents_resolve() {
    let root = project_using_global_helper();
    write_files(root.path(), &[("global/agents/helper.md", HELPER_AGENT)]);
    let project = root.path().join("project");
    let global = root.path().join("global");
    let global = global.to_str().unwrap();

    let out = agent_lsp(&project, &["check", "--global-dir", global]);
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );

    let out = check(&project, &[]);
    assert_eq!(out.status, 1);
    assert_eq!(human_locations(&out.stdout), ["opencode.json:2:20"]);
    assert!(
        out.stdout.contains("default agent \"helper\" not found"),
        "{}",
        out.stdout
    );

    // A relative --global-dir works as well.
    let out = agent_lsp(&project, &["check", "--global-dir", "../global"]);
    assert_eq!(out.status, 0, "{out:#?}");
}

#[test]
fn global_files_are_not_reported_but_a_refusal_is_summarised() {
    let root = project_using_global_helper();
    let project = root.path().join("project");
    let global = root.path().join("global");
    let run = |format: &str| {
        agent_lsp(
            &project,
            &["check", "--format", format, "--global-dir", global.to_str().unwrap()],
        )
    };
    // Warnings only (an unknown key in an agent and in the config): nothing is reported.
    write_files(
        root.path(),
        &[
            (
                "global/agents/helper.md",
                "---\ndescription: Helps\nmode: primary\ntemprature: 1\n---\nYou help.\n",
            ),
            ("global/opencode.json", "{\n  \"agnet\": {}\n}\n"),
        ],
    );
    for format in ["human", "json", "github"] {
        let out = run(format);
        assert_eq!(out.status, 0, "{format}: {out:#?}");
        assert_eq!(out.stderr, "", "{format}");
        match format {
            "human" => assert_eq!(out.stdout, "ok: 2 files checked, no problems\n"),
            "json" => assert_eq!(
                serde_json::from_str::<Value>(&out.stdout).unwrap(),
                serde_json::json!({"files": 2, "checked": [".opencode/agents/rev.md", "opencode.json"], "diagnostics": []})
            ),
            _ => assert_eq!(out.stdout, ""),
        }
    }
    // Errors that make opencode refuse to start in every project: one finding, on the first.
    write_files(
        root.path(),
        &[
            (
                "global/agents/helper.md",
                "---\ndescription: Helps\nmode: primary\ncolor: #FF0000\ntemprature: 1\n---\nYou help.\n",
            ),
            ("global/agents/broken.md", BROKEN_AGENT),
            (
                "global/opencode.json",
                "{\n  \"agnet\": {},\n  \"default_agent\": 5\n}\n",
            ),
        ],
    );
    let out = run("json");
    assert_eq!(out.status, 1, "{out:#?}");
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let diags = report["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{report:#}");
    let d = &diags[0];
    assert!(d["path"].as_str().unwrap().ends_with("global/opencode.json"), "{d:#}");
    assert_eq!(
        (
            d["range"]["start"]["line"].as_u64(),
            d["range"]["start"]["column"].as_u64()
        ),
        (Some(3), Some(20))
    );
    assert_eq!(d["code"], "invalid-type");
    assert_eq!(d["effect"], "refuses-to-start");
    assert_eq!(
        d["message"],
        "the global configuration has 5 errors that make opencode refuse to start in every project; the first: `default_agent` must be a string (an agent name), got a number (5); opencode refuses to load the configuration"
    );
    // `--effect` still filters it.
    assert_eq!(
        agent_lsp(
            &project,
            &[
                "check",
                "--effect",
                "value-ignored",
                "--global-dir",
                global.to_str().unwrap()
            ]
        )
        .status,
        0
    );
}

#[test]
fn default_global_dir_is_xdg_config_home_opencode() {
    let root = project_using_global_helper();
    write_files(root.path(), &[("xdg/opencode/agents/helper.md", HELPER_AGENT)]);
    fs::create_dir_all(root.path().join("home")).unwrap();
    let project = root.path().join("project");

    let out = run(command(&project, &["check"])
        .env("XDG_CONFIG_HOME", root.path().join("xdg"))
        .env("HOME", root.path().join("home")));
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );

    // --no-global ignores it.
    let out = run(command(&project, &["check", "--no-global"])
        .env("XDG_CONFIG_HOME", root.path().join("xdg"))
        .env("HOME", root.path().join("home")));
    assert_eq!(out.status, 1);
    assert_eq!(human_locations(&out.stdout), ["opencode.json:2:20"]);

    // With XDG_CONFIG_HOME set, ~/.config/opencode is not the global dir.
    write_files(root.path(), &[("home/.config/opencode/agents/other.md", HELPER_AGENT)]);
    fs::remove_file(root.path().join("xdg/opencode/agents/helper.md")).unwrap();
    let out = run(command(&project, &["check"])
        .env("XDG_CONFIG_HOME", root.path().join("xdg"))
        .env("HOME", root.path().join("home")));
    assert_eq!(out.status, 1, "{out:#?}");
}

#[test]
fn without_xdg_config_home_the_global_dir_is_home_config_opencode() {
    let root = project_using_global_helper();
    write_files(root.path(), &[("home/.config/opencode/agents/helper.md", HELPER_AGENT)]);
    let project = root.path().join("project");
    let out = run(command(&project, &["check"]).env("HOME", root.path().join("home")));
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );
}

#[test]
fn home_dot_opencode_agents_resolve() {
    let root = project_using_global_helper();
    write_files(root.path(), &[("home/.opencode/agents/helper.md", HELPER_AGENT)]);
    let project = root.path().join("project");
    let out = run(command(&project, &["check"]).env("HOME", root.path().join("home")));
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );
    let out = run(command(&project, &["check", "--no-global"]).env("HOME", root.path().join("home")));
    assert_eq!(out.status, 1);
}

#[test]
fn opencode_config_and_opencode_config_dir_resolve() {
    let root = project_using_global_helper();
    write_files(
        root.path(),
        &[
            // Not reported: `colr` is a typo, but the file is outside the checked paths.
            (
                "extra.json",
                r#"{"agent": {"helper": {"mode": "primary", "prompt": "x", "colr": 1}}}"#,
            ),
            ("config-dir/agents/helper.md", HELPER_AGENT),
        ],
    );
    let project = root.path().join("project");
    let out = run(command(&project, &["check"]).env("OPENCODE_CONFIG", root.path().join("extra.json")));
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );
    let out = run(command(&project, &["check"]).env("OPENCODE_CONFIG_DIR", root.path().join("config-dir")));
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 2 files checked, no problems\n")
    );
    let out =
        run(command(&project, &["check", "--no-global"]).env("OPENCODE_CONFIG_DIR", root.path().join("config-dir")));
    assert_eq!(out.status, 1);
}

// ---------------------------------------------------------------------------------------------
// agent-lsp rules
// ---------------------------------------------------------------------------------------------

#[test]
fn rules_lists_every_code() {
    let ws = workspace(&[]);
    let out = agent_lsp(ws.path(), &["rules"]);
    assert_eq!(out.status, 0);
    assert_eq!(out.stderr, "");
    let listed: Vec<(&str, &str)> = out
        .stdout
        .lines()
        .map(|l| {
            let mut words = l.split_whitespace();
            (words.next().unwrap_or(""), words.next().unwrap_or(""))
        })
        .collect();
    // The default severity first, then the others the rule can have.
    let severities: Vec<String> = RULES
        .iter()
        .map(|r| {
            r.severities()
                .iter()
                .map(|(s, _)| s.as_str())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    let expected: Vec<(&str, &str)> = RULES
        .iter()
        .zip(&severities)
        .map(|(r, s)| (r.name, s.as_str()))
        .collect();
    assert_eq!(listed, expected);
    assert!(listed.contains(&("ignored-permission-rule", "warning/error")));
    for (line, rule) in out.stdout.lines().zip(RULES) {
        assert!(line.ends_with(rule.summary), "{line}");
    }
    // Columns: every summary starts in the same column, whatever the dialects (the widest,
    // `opencode,claude,zuno`, does not push it out).
    let starts: BTreeSet<usize> = out
        .stdout
        .lines()
        .zip(RULES)
        .map(|(line, rule)| line.len() - rule.summary.len())
        .collect();
    assert_eq!(starts.len(), 1, "{}", out.stdout);
}

#[test]
fn rules_explains_one_rule() {
    let ws = workspace(&[]);
    let out = agent_lsp(ws.path(), &["rules", "shadowed-rule"]);
    assert_eq!(out.status, 0);
    assert_eq!(out.stderr, "");
    assert_eq!(out.stdout, agent_lsp::cli::rule_doc(Code::ShadowedRule));
    expect![[r#"
        shadowed-rule (warning, tagged unnecessary; effect: rule-never-applies, the rule never applies)
        Dialects: opencode, Claude Code, Zuno

        A permission rule that can never decide, because a later rule matches everything it matches; an `Agent(...)` tool entry that a later one replaces.

        opencode evaluates permission rules with "last match wins": no specificity, no deny-first. A catch-all written last, such as `"*": ask`, overrides every rule before it.

        Bad:
            bash:
              "git push *": deny
              "*": allow

        Good:
            bash:
              "*": allow
              "git push *": deny
    "#]]
    .assert_eq(&out.stdout);

    for rule in RULES {
        let out = agent_lsp(ws.path(), &["rules", rule.name]);
        assert_eq!(out.status, 0, "{}", rule.name);
        assert!(
            out.stdout
                .starts_with(&format!("{} ({}", rule.name, rule.severity.as_str()))
        );
        for part in [rule.summary, rule.explanation, "\nBad:\n", "\nGood:\n"] {
            assert!(out.stdout.contains(part), "{}: missing {part:?}", rule.name);
        }
    }
}

#[test]
fn rules_json_is_the_catalog() {
    let ws = workspace(&[]);
    let out = agent_lsp(ws.path(), &["rules", "--format", "json"]);
    assert_eq!((out.status, out.stderr.as_str()), (0, ""));
    let v: Value = serde_json::from_str(&out.stdout).expect("JSON");
    let rules = v["rules"].as_array().expect("rules array");
    assert_eq!(rules.len(), RULES.len());
    for (j, rule) in rules.iter().zip(RULES) {
        let dialects: Vec<&str> = rule.code.dialects().iter().map(|d| d.as_str()).collect();
        assert_eq!(
            j,
            &serde_json::json!({
                "code": rule.name,
                "severity": rule.severity.as_str(),
                "severities": rule
                    .severities()
                    .iter()
                    .map(|(s, when)| match when {
                        Some(when) => serde_json::json!({"severity": s.as_str(), "when": when}),
                        None => serde_json::json!({"severity": s.as_str(), "default": true}),
                    })
                    .collect::<Vec<_>>(),
                "effect": rule.effect.as_str(),
                "dialects": dialects,
                "tags": j["tags"],
                "summary": rule.summary,
                "explanation": rule.explanation,
                "bad": rule.bad,
                "good": rule.good,
            })
        );
    }
    let shadowed = rules
        .iter()
        .find(|r| r["code"] == "shadowed-rule")
        .expect("shadowed-rule");
    assert_eq!(shadowed["tags"], serde_json::json!(["unnecessary"]));
    assert_eq!(shadowed["dialects"], serde_json::json!(["opencode", "claude", "zuno"]));
    // One rule: the same object alone.
    let one = agent_lsp(ws.path(), &["rules", "shadowed-rule", "--format", "json"]);
    assert_eq!(one.status, 0);
    assert_eq!(&serde_json::from_str::<Value>(&one.stdout).expect("JSON"), shadowed);
    // The human list stays the default.
    let human = agent_lsp(ws.path(), &["rules"]);
    assert!(human.stdout.starts_with("syntax-error "), "{}", human.stdout);
}

#[test]
fn rules_unknown_code_exits_2_with_a_suggestion() {
    let ws = workspace(&[]);
    let out = agent_lsp(ws.path(), &["rules", "nope"]);
    assert_eq!(out.status, 2);
    assert_eq!(out.stdout, "");
    // Nothing is close to `nope`, so there is no suggestion.
    assert_eq!(out.stderr, "agent-lsp: error: no rule `nope`.\n");

    // The start of a rule's name is enough for a suggestion; a start several rules share is not.
    let out = agent_lsp(ws.path(), &["rules", "placeholder"]);
    assert_eq!(
        (out.status, out.stderr.as_str()),
        (
            2,
            "agent-lsp: error: no rule `placeholder`. Did you mean `placeholder-in-code`?\n"
        )
    );
    let out = agent_lsp(ws.path(), &["rules", "shadowed"]);
    assert_eq!(
        (out.status, out.stderr.as_str()),
        (2, "agent-lsp: error: no rule `shadowed`.\n"),
        "shadowed-rule and shadowed-file share the start"
    );
    let out = agent_lsp(ws.path(), &["rules", "invalid"]);
    assert_eq!(
        (out.status, out.stderr.as_str()),
        (2, "agent-lsp: error: no rule `invalid`.\n")
    );
    // Formats `rules` does not print are refused, not ignored.
    for format in ["mermaid", "dot"] {
        let out = agent_lsp(ws.path(), &["rules", "--format", format]);
        assert_eq!(
            (out.status, out.stdout.as_str(), out.stderr.as_str()),
            (2, "", "agent-lsp: error: rules prints human, json or markdown\n"),
            "{format}"
        );
    }
    for typo in ["shadowed-rul", "shadowed_rule", "ShadowedRule", "shadowd-rule"] {
        let out = agent_lsp(ws.path(), &["rules", typo]);
        assert_eq!(out.status, 2, "{typo}");
        assert_eq!(out.stdout, "", "{typo}");
        assert_eq!(
            out.stderr,
            format!("agent-lsp: error: no rule `{typo}`. Did you mean `shadowed-rule`?\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The catalog elsewhere (the book's rules table: tests/book.rs)
// ---------------------------------------------------------------------------------------------

/// The VS Code extension's `agentLsp.severity` setting offers exactly the catalog's codes.
#[test]
fn vscode_severity_setting_lists_every_rule() {
    let manifest: Value = serde_json::from_str(include_str!("../editors/vscode/package.json")).unwrap();
    let codes: Vec<&str> = manifest["contributes"]["configuration"]["properties"]["agentLsp.severity"]["propertyNames"]
        ["enum"]
        .as_array()
        .expect("the severity setting's propertyNames.enum")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let catalog: Vec<&str> = RULES.iter().map(|r| r.name).collect();
    assert_eq!(codes, catalog);
}

#[test]
fn effect_filter_keeps_only_those_effects() {
    let ws = workspace(&[(".opencode/agents/rev.md", BROKEN_AGENT)]);
    let (_, all) = check_json(ws.path(), &[]);
    let effects = |r: &Value| -> BTreeSet<String> {
        r["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["effect"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        effects(&all),
        BTreeSet::from(["refuses-to-start".to_string(), "value-ignored".to_string()])
    );
    let (status, refusals) = check_json(ws.path(), &["--effect", "refuses-to-start"]);
    assert_eq!(status, 1);
    assert_eq!(effects(&refusals), BTreeSet::from(["refuses-to-start".to_string()]));
    assert_eq!(
        refusals["diagnostics"].as_array().unwrap().len(),
        all["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["effect"] == "refuses-to-start")
            .count()
    );
    // Only warnings left: exit 0.
    let (status, ignored) = check_json(ws.path(), &["--effect", "value-ignored,works-but-risky"]);
    assert_eq!(status, 0);
    assert_eq!(effects(&ignored), BTreeSet::from(["value-ignored".to_string()]));
    let out = check(ws.path(), &["--effect", "sometimes"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("unknown effect `sometimes`"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// Claude Code agents
// ---------------------------------------------------------------------------------------------

const CLAUDE_REVIEWER: &str =
    "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Agent(helper)\n---\nReview.\n";
const CLAUDE_HELPER: &str = "---\nname: helper\ndescription: Helps\n---\nHelp.\n";

/// User agents (`~/.claude/agents/`) resolve names and are never reported on; `--no-global`
/// leaves them out.
#[test]
fn claude_user_agents_resolve_and_are_not_reported() {
    let root = tempfile::tempdir().unwrap();
    write_files(
        root.path(),
        &[
            ("project/.claude/agents/reviewer.md", CLAUDE_REVIEWER),
            // A broken user agent: never reported.
            ("home/.claude/agents/helper.md", CLAUDE_HELPER),
            ("home/.claude/agents/broken.md", "---\nname: -x\n---\n"),
        ],
    );
    let project = root.path().join("project");
    let out = run(command(&project, &["check"]).env("HOME", root.path().join("home")));
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 1 file checked, no problems\n")
    );
    let out = run(command(&project, &["check", "--no-global"]).env("HOME", root.path().join("home")));
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(human_locations(&out.stdout), [".claude/agents/reviewer.md:4:20"]);
    assert!(
        out.stdout
            .contains("warning[unknown-agent]: no agent `helper` is defined"),
        "{}",
        out.stdout
    );
}

/// A Claude agent given as a file is checked as one; errors only where Claude Code skips it.
#[test]
fn claude_agent_file_checked_directly() {
    let ws = workspace(&[
        (".claude/agents/bad.md", "---\nname: a:b\ndescription: d\n---\n"),
        (
            ".claude/agents/ok.md",
            "---\nname: ok\ndescription: d\ntools: Read, grep\n---\n",
        ),
    ]);
    let (status, v) = check_json(ws.path(), &[".claude/agents/bad.md"]);
    assert_eq!(status, 1);
    assert_eq!(v["files"], 1);
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["code"].as_str(), d["severity"].as_str(), d["effect"].as_str()),
        (Some("invalid-name"), Some("error"), Some("file-ignored"))
    );
    assert_eq!(d["range"]["start"], serde_json::json!({"line": 2, "column": 7}));
    let (status, v) = check_json(ws.path(), &[".claude/agents/ok.md"]);
    assert_eq!(status, 0);
    assert_eq!(v["diagnostics"][0]["code"], "unknown-tool");
    assert_eq!(v["diagnostics"][0]["suggestion"]["replacement"], "Grep");
}

// ---------------------------------------------------------------------------------------------
// Zuno
// ---------------------------------------------------------------------------------------------

/// `zuno.json` given as a file is checked as Zuno's (not opencode's) configuration; a refusal is
/// an error, a swept unknown agent key a warning; `--fix` renames `maxSteps`.
#[test]
fn zuno_config_checked_directly_and_fixed() {
    let ws = workspace(&[(
        "zuno.json",
        "{\n  \"agents\": {\n    \"a\": { \"mode\": \"subagent\", \"maxSteps\": 5, \"temprature\": 1 }\n  }\n}\n",
    )]);
    let (status, v) = check_json(ws.path(), &["zuno.json"]);
    assert_eq!(status, 1);
    let got: Vec<(String, String, u64, u64)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("deprecated-field".into(), "error".into(), 3, 32),
            ("unknown-key".into(), "warning".into(), 3, 47),
        ]
    );
    let out = check(ws.path(), &["--fix", "zuno.json"]);
    assert_eq!(out.status, 0, "{out:#?}");
    assert_eq!(
        fs::read_to_string(ws.path().join("zuno.json")).unwrap(),
        "{\n  \"agents\": {\n    \"a\": { \"mode\": \"subagent\", \"steps\": 5, \"temprature\": 1 }\n  }\n}\n"
    );
}

/// Checking a nested package reads the Zuno layers of its ancestors (not reported on), as Zuno
/// does when it starts there: the root's agents resolve.
#[test]
fn zuno_package_sees_its_ancestors() {
    let ws = workspace(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("zuno.json", r#"{"agents": {"lead": {"mode": "primary"}}}"#),
        (".zuno/agents/writer.md", "---\nmode: subagent\n---\nWrite.\n"),
        (
            "packages/web/zuno.json",
            r#"{"default_agent": "lead", "agents": {"web": {"delegates": ["writer"]}}}"#,
        ),
    ]);
    let out = check(ws.path(), &["packages/web"]);
    assert_eq!(
        (out.status, out.stdout.as_str()),
        (0, "ok: 1 file checked, no problems\n"),
        "{out:#?}"
    );
    // Without the root's files, both names are unknown.
    fs::remove_file(ws.path().join("zuno.json")).unwrap();
    fs::remove_file(ws.path().join(".zuno/agents/writer.md")).unwrap();
    let out = check(ws.path(), &["packages/web"]);
    assert_eq!(
        human_locations(&out.stdout),
        ["packages/web/zuno.json:1:19", "packages/web/zuno.json:1:60"],
        "{}",
        out.stdout
    );
}

// ---------------------------------------------------------------------------------------------
// The project file (agent-lsp.toml)
// ---------------------------------------------------------------------------------------------

/// `[rules]` changes a code's level or turns it off; `[files]` excludes paths and dialects;
/// the nearest project file wins; its own mistakes are reported on the exact value.
#[test]
fn project_file_tunes_the_report() {
    let agent = "---\ndescription: d\nmode: primay\ncolour: red\n---\nBody\n";
    let ws = workspace(&[
        (".opencode/agents/a.md", agent),
        ("vendor/x/.opencode/agents/b.md", agent),
        (
            ".claude/agents/c.md",
            "---\nname: c\ndescription: d\ntools: Reed\n---\nBody\n",
        ),
        ("pkg/.opencode/agents/p.md", agent),
    ]);
    let (_, before) = check_json(ws.path(), &[]);
    let before = json_summary(&before);
    assert!(before.iter().any(|l| l.starts_with("vendor/")), "{before:#?}");
    assert!(before.iter().any(|l| l.starts_with(".claude/")), "{before:#?}");
    assert!(
        before.contains(&".opencode/agents/a.md:4:1-4:7 warning unknown-key".to_string()),
        "{before:#?}"
    );
    write_files(
        ws.path(),
        &[
            (
                "agent-lsp.toml",
                "[rules]\n\"unknown-key\" = \"error\"\n\"invalid-value\" = \"off\"\n\n[files]\nexclude = [\"vendor/**\"]\ndialects = [\"opencode\"]\n",
            ),
            // Nearer: for pkg/ only `unknown-key` is off (the root's levels do not apply there).
            ("pkg/.agent-lsp.toml", "[rules]\nunknown-key = \"off\"\n"),
        ],
    );
    let (status, after) = check_json(ws.path(), &[]);
    assert_eq!(
        json_summary(&after),
        [
            ".opencode/agents/a.md:4:1-4:7 error unknown-key",
            "pkg/.opencode/agents/p.md:3:7-3:13 error invalid-value",
        ]
    );
    assert_eq!(status, 1);
    // The human summary counts only the files reported on: a.md, p.md and the two project files.
    let out = check(ws.path(), &[]);
    assert_eq!(last_line(&out.stdout), "Found 2 errors in 2 files (4 checked)");
    // A mistake in the project file is reported like any other, and the rest of it applies.
    write_files(
        ws.path(),
        &[("pkg/.agent-lsp.toml", "[rules]\nunknown-key = \"of\"\n[file]\n")],
    );
    let (_, report) = check_json(ws.path(), &[]);
    assert_eq!(
        json_summary(&report),
        [
            ".opencode/agents/a.md:4:1-4:7 error unknown-key",
            "pkg/.agent-lsp.toml:2:15-2:19 error invalid-value",
            "pkg/.agent-lsp.toml:3:2-3:6 warning unknown-key",
            "pkg/.opencode/agents/p.md:3:7-3:13 error invalid-value",
            "pkg/.opencode/agents/p.md:4:1-4:7 warning unknown-key",
        ]
    );
}

/// `select`, `ignore` and `[rules.per-file-ignores]` choose what is reported, as in ruff: by
/// code, by effect or `all`, the more specific deciding; per file by glob.
#[test]
fn project_file_selects_and_ignores_rules() {
    let agent = "---\ndescription: d\nmode: primay\ncolour: red\n---\nBody\n";
    let ws = workspace(&[
        (".opencode/agents/a.md", agent),
        ("examples/.opencode/agents/b.md", agent),
        (
            "agent-lsp.toml",
            "[rules]\nselect = [\"all\"]\nignore = [\"value-ignored\"]\n\n[rules.per-file-ignores]\n\"examples/**\" = [\"invalid-value\"]\n",
        ),
    ]);
    let (_, report) = check_json(ws.path(), &[]);
    // `colour` (value-ignored) is off everywhere; the bad mode only outside examples/.
    assert_eq!(
        json_summary(&report),
        [".opencode/agents/a.md:3:7-3:13 error invalid-value"]
    );
    // The code selected back beats the effect ignored.
    write_files(
        ws.path(),
        &[(
            "agent-lsp.toml",
            "[rules]\nignore = [\"value-ignored\"]\nselect = [\"all\", \"unknown-key\"]\n",
        )],
    );
    let (_, report) = check_json(ws.path(), &[]);
    assert_eq!(
        json_summary(&report),
        [
            ".opencode/agents/a.md:3:7-3:13 error invalid-value",
            ".opencode/agents/a.md:4:1-4:7 warning unknown-key",
            "examples/.opencode/agents/b.md:3:7-3:13 error invalid-value",
            "examples/.opencode/agents/b.md:4:1-4:7 warning unknown-key",
        ]
    );
}

/// Files given one by one (as pre-commit passes them) and sub-folders follow the project file
/// at the top of their worktree.
#[test]
fn project_file_applies_to_files_given_alone() {
    let agent = "---\ndescription: d\nmode: primay\ncolour: red\n---\nBody\n";
    let ws = workspace(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".opencode/agents/a.md", agent),
        ("vendor/x/.opencode/agents/b.md", agent),
        (
            "agent-lsp.toml",
            "[rules]\nunknown-key = \"off\"\n[files]\nexclude = [\"vendor/**\"]\n",
        ),
    ]);
    let out = check(ws.path(), &[".opencode/agents/a.md", "vendor/x/.opencode/agents/b.md"]);
    assert_eq!(human_locations(&out.stdout), [".opencode/agents/a.md:3:7"], "{out:#?}");
    assert_eq!(last_line(&out.stdout), "Found 1 error in 1 file (1 checked)");
    let out = check(ws.path(), &["vendor"]);
    assert_eq!(
        out.stdout,
        "no file to check: the 1 found is excluded by agent-lsp.toml\n"
    );
    assert_eq!(out.status, 0);
}

/// Suppressions apply before the project file's levels: a suppression of a code the project
/// turns off is still used (not reported), and the project file can turn `unused-suppression`
/// off like any rule.
#[test]
fn suppressions_apply_before_the_project_file() {
    let ws = workspace(&[
        (
            ".opencode/agents/a.md",
            "---\ndescription: d\ncolour: red # agent-lsp: ignore[unknown-key]\nmode: sub # agent-lsp: ignore[unknown-key]\n---\nBody\n",
        ),
        ("agent-lsp.toml", "[rules]\nunknown-key = \"off\"\n"),
    ]);
    let (_, report) = check_json(ws.path(), &[]);
    // The second directive suppresses nothing (the line has an invalid value, not a key).
    assert_eq!(
        json_summary(&report),
        [
            ".opencode/agents/a.md:4:7-4:10 error invalid-value",
            ".opencode/agents/a.md:4:13-4:43 warning unused-suppression",
        ]
    );
    write_files(
        ws.path(),
        &[(
            "agent-lsp.toml",
            "[rules]\nunknown-key = \"off\"\nunused-suppression = \"off\"\n",
        )],
    );
    let (_, report) = check_json(ws.path(), &[]);
    assert_eq!(
        json_summary(&report),
        [".opencode/agents/a.md:4:7-4:10 error invalid-value"]
    );
}

/// `explain` lists the dialects the project file reports on, unless `--dialect` says otherwise.
#[test]
fn project_file_dialects_apply_to_explain() {
    let ws = workspace(&[
        (".opencode/agents/a.md", CLEAN_AGENT),
        (".claude/agents/c.md", "---\nname: c\ndescription: d\n---\nBody\n"),
    ]);
    let list = |args: &[&str]| {
        let mut all = vec!["explain", "--root", "."];
        all.extend_from_slice(args);
        agent_lsp(ws.path(), &all).stdout
    };
    assert!(list(&[]).contains("Claude Code agents"));
    write_files(ws.path(), &[("agent-lsp.toml", "[files]\ndialects = [\"opencode\"]\n")]);
    let out = list(&[]);
    assert!(
        !out.contains("Claude Code agents") && out.contains(".opencode/agents/a.md"),
        "{out}"
    );
    assert!(list(&["--dialect", "claude"]).contains("\nc  "));
}

// ---------------------------------------------------------------------------------------------
// explain: suggestions
// ---------------------------------------------------------------------------------------------

#[test]
fn explain_suggests_a_nested_agent_by_its_last_name() {
    let ws = workspace(&[
        (".opencode/agents/team/reviewer.md", CLEAN_AGENT),
        (".opencode/agents/ops/reviewer.md", CLEAN_AGENT),
        (".opencode/agents/previewer.md", CLEAN_AGENT),
    ]);
    let out = agent_lsp(ws.path(), &["explain", "--no-global", "reviewer"]);
    assert_eq!(out.status, 2);
    assert_eq!(out.stdout, "");
    // `previewer` is a near miss; the nested ones match on a `/` boundary.
    assert_eq!(
        out.stderr,
        "agent-lsp: error: no agent \"reviewer\" in this project. Did you mean `previewer` or `ops/reviewer` or `team/reviewer`?\n"
    );
    // `viewer` ends `team/reviewer` but not on a `/` boundary: no nested suggestion.
    let out = agent_lsp(ws.path(), &["explain", "--no-global", "viewer"]);
    assert_eq!(out.status, 2);
    assert!(!out.stderr.contains("team/reviewer"), "{}", out.stderr);

    let ws = workspace(&[(".opencode/agents/team/reviewer.md", CLEAN_AGENT)]);
    let out = agent_lsp(ws.path(), &["explain", "--no-global", "reviewer"]);
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "agent-lsp: error: no agent \"reviewer\" in this project. Did you mean `team/reviewer`?\n"
    );
    // The nested name itself is found.
    let out = agent_lsp(ws.path(), &["explain", "--no-global", "team/reviewer"]);
    assert_eq!(out.status, 0, "{out:#?}");
}

/// A file checked alone (as pre-commit passes staged files) is checked in its project: a
/// command's agent, a Claude Code `Agent(<type>)` entry and a Zuno delegate defined in files not
/// given still resolve, and nothing of those files is reported.
#[test]
fn explicit_files_of_every_dialect_see_their_project() {
    let ws = workspace(&[
        (
            ".opencode/agents/helper.md",
            "---\ndescription: H\nmode: primary\n---\nH.\n",
        ),
        ("opencode.json", "{\"default_agent\": \"helper\"}\n"),
        (
            ".opencode/command/r.md",
            "---\ndescription: run\nagent: helper\n---\nRun.\n",
        ),
        (
            ".claude/agents/a.md",
            "---\nname: a\ndescription: A\ntools: Agent(b), Read\n---\nA.\n",
        ),
        (
            ".claude/agents/b.md",
            "---\nname: b\ndescription: B\ntools: nope\n---\nB.\n",
        ),
        (
            "zuno.json",
            "{\"default_agent\": \"z\", \"agents\": {\"z\": {\"mode\": \"primary\", \"delegates\": [\"zd\"]}}}\n",
        ),
        (".zuno/agents/zd.md", "---\nmode: subagent\ndescription: D\n---\nD.\n"),
    ]);
    for file in [
        "opencode.json",
        ".opencode/command/r.md",
        ".claude/agents/a.md",
        "zuno.json",
    ] {
        let out = check(ws.path(), &[file]);
        assert_eq!(
            (out.status, out.stdout.as_str()),
            (0, "ok: 1 file checked, no problems\n"),
            "{file}"
        );
    }
    // The same files with a dangling reference are reported.
    write_files(
        ws.path(),
        &[(
            ".opencode/command/r.md",
            "---\ndescription: run\nagent: helpr\n---\nRun.\n",
        )],
    );
    let out = check(ws.path(), &[".opencode/command/r.md"]);
    assert!(out.stdout.contains("warning[unknown-agent]"), "{}", out.stdout);
}

/// `agent-lsp explain | head -1`: a reader that stops early ends the output quietly (status 0,
/// no panic about a broken pipe on stderr).
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    // More output than a pipe holds (64 KiB), so that the writer meets the closed end.
    let many: Vec<(String, String)> = (0..2000)
        .map(|i| (format!(".opencode/agents/a{i}.md"), CLEAN_AGENT.to_string()))
        .collect();
    let files: Vec<(&str, &str)> = many.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let ws = workspace(&files);
    for args in [
        &["explain", "--no-global"][..],
        &["explain", "--no-global", "--format", "json"][..],
    ] {
        let mut child = command(ws.path(), args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Read one byte, then close the pipe.
        let mut one = [0u8; 1];
        child.stdout.take().unwrap().read_exact(&mut one).unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            matches!(out.status.code(), Some(0)),
            "{args:?}: {:?} {stderr}",
            out.status
        );
    }
}

/// A file given by path is read as the runtime that finds it there reads it, or not at all:
/// a `README.md` or a Markdown file outside every agents folder gets one informational line,
/// never another dialect's findings (it used to be read as an opencode agent `README`).
#[test]
fn a_file_no_runtime_reads_where_it_sits_gets_one_info_line() {
    let ws = workspace(&[
        ("README.md", "# Notes\n\nmode: main\n"),
        ("docs/agent.md", "---\nmode: main\ncolr: red\n---\nBody\n"),
        ("settings.json", "{\"agnet\": {}}\n"),
        (".opencode/agents/rev.md", BROKEN_AGENT),
    ]);
    let (status, report) = check_json(ws.path(), &["README.md", "docs/agent.md", "settings.json"]);
    assert_eq!(status, 0, "{report:#}");
    let found: Vec<(&str, &str, &str, &str)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["effect"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("README.md", "unchecked-file", "info", "file-ignored"),
            ("docs/agent.md", "unchecked-file", "info", "file-ignored"),
            ("settings.json", "unchecked-file", "info", "file-ignored"),
        ]
    );
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("no runtime reads this file where it is, so agent-lsp does not analyse it: an agent goes in `.opencode/agents/`"),
        "{message}"
    );
    // The same file where opencode reads it is analysed as before.
    let (status, report) = check_json(ws.path(), &[".opencode/agents/rev.md"]);
    assert_eq!(status, 1);
    assert!(report["diagnostics"].as_array().unwrap().len() >= 3, "{report:#}");
}
