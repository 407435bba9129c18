//! A plugin's `.mcp.json`, `.lsp.json` and `monitors/monitors.json`, judged by Claude Code
//! 2.1.332: one plugin per case, all loaded with `--plugin-dir` in one session asked to
//! `initialize`; its debug log names what it refused: `Invalid MCP server config for S in
//! PATH` (that server is dropped), `LSP config validation failed for .lsp.json in plugin P` or
//! `Failed to read/parse .lsp.json in plugin P` (none of the file's language servers), `Failed
//! to load monitors for P` (none of the plugin's monitors).
//!
//! agent-lsp must agree, file by file: an error exactly on the files Claude Code refuses (whole,
//! or a server of), nothing on the others.
//!
//! Recorded in `tests/verdicts/claude-plugin-files.jsonl`, replayed by plain `cargo test`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::oracle::{self, Home};
use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, canon, check_recording, judge_name, write};

const REC: &str = "claude-plugin-files";

const LSP_OK: &str = r#"{"ts": {"command": "typescript-language-server", "args": ["--stdio"], "extensionToLanguage": {".ts": "typescript"}}}"#;
const MONITORS_OK: &str = r#"[{"name": "log", "command": "tail -f app.log", "description": "Watch the log"}]"#;

/// Each case: a plugin's name, and its files (path from its root, text).
const CASES: &[(&str, &[(&str, &str)])] = &[
    (
        "good",
        &[
            (".mcp.json", r#"{"github": {"command": "gh-mcp", "args": ["serve"]}}"#),
            (".lsp.json", LSP_OK),
            ("monitors/monitors.json", MONITORS_OK),
        ],
    ),
    (
        "mcp-wrapped",
        &[(
            ".mcp.json",
            r#"{"mcpServers": {"db": {"type": "http", "url": "https://example.com/mcp"}}}"#,
        )],
    ),
    (
        "mcp-bad-type",
        &[(".mcp.json", r#"{"ok": {"command": "x"}, "bad": {"command": 5}}"#)],
    ),
    ("mcp-typo", &[(".mcp.json", r#"{"typo": {"comand": "x"}}"#)]),
    (
        "lsp-space",
        &[(
            ".lsp.json",
            r#"{"ts": {"command": "typescript-language-server --stdio", "extensionToLanguage": {".ts": "typescript"}}}"#,
        )],
    ),
    (
        "lsp-unknown",
        &[(
            ".lsp.json",
            r#"{"ts": {"command": "tsls", "extensionToLanguage": {".ts": "typescript"}, "extraKey": 1}}"#,
        )],
    ),
    ("lsp-missing", &[(".lsp.json", r#"{"ts": {"command": "tsls"}}"#)]),
    (
        "lsp-empty-map",
        &[(".lsp.json", r#"{"ts": {"command": "tsls", "extensionToLanguage": {}}}"#)],
    ),
    (
        "lsp-syntax",
        &[(
            ".lsp.json",
            r#"{"ts": {"command": "tsls", "extensionToLanguage": {".ts": "typescript"},}}"#,
        )],
    ),
    (
        "lsp-transport",
        &[(
            ".lsp.json",
            r#"{"ts": {"command": "tsls", "extensionToLanguage": {".ts": "typescript"}, "transport": "tcp"}}"#,
        )],
    ),
    (
        "mon-missing",
        &[("monitors/monitors.json", r#"[{"name": "w", "command": "x"}]"#)],
    ),
    (
        "mon-unknown",
        &[(
            "monitors/monitors.json",
            r#"[{"name": "w", "command": "x", "description": "d", "extra": 1}]"#,
        )],
    ),
    (
        "mon-dup",
        &[(
            "monitors/monitors.json",
            r#"[{"name": "w", "command": "x", "description": "d"}, {"name": "w", "command": "y", "description": "e"}]"#,
        )],
    ),
    (
        "mon-when",
        &[(
            "monitors/monitors.json",
            r#"[{"name": "w", "command": "x", "description": "d", "when": "sometimes"}]"#,
        )],
    ),
    (
        "mon-skill",
        &[(
            "monitors/monitors.json",
            r#"[{"name": "w", "command": "x", "description": "d", "when": "on-skill-invoke:deploy"}]"#,
        )],
    ),
    (
        "mon-object",
        &[(
            "monitors/monitors.json",
            r#"{"name": "w", "command": "x", "description": "d"}"#,
        )],
    ),
];

/// A manifest for plugin `name`.
fn manifest(name: &str) -> String {
    json!({"name": name, "version": "1.0.0", "description": "d", "author": {"name": "a"}}).to_string()
}

/// Lay the plugins out under `dir`; returns their roots.
fn lay_out(dir: &Path) -> Vec<PathBuf> {
    CASES
        .iter()
        .map(|(name, files)| {
            let root = dir.join(name);
            write(&root, ".claude-plugin/plugin.json", manifest(name).as_bytes());
            for (rel, text) in *files {
                write(&root, rel, text.as_bytes());
            }
            root
        })
        .collect()
}

fn input() -> String {
    let files: Vec<(String, &str)> = CASES
        .iter()
        .flat_map(|(name, files)| files.iter().map(move |(rel, text)| (format!("{name}/{rel}"), *text)))
        .collect();
    verdict_support::hash_files(files.iter().map(|(n, t)| (n.as_str(), t.as_bytes())))
}

/// Per plugin: what the debug log says Claude Code refused (`mcp`, `lsp`, `monitors`).
fn verdicts(log: &str, dir: &Path) -> serde_json::Map<String, Value> {
    CASES
        .iter()
        .map(|(name, _)| {
            let mcp_path = dir.join(name).join(".mcp.json");
            let mut refused: Vec<&str> = Vec::new();
            if log.lines().any(|l| {
                l.contains("Invalid MCP server config for ") && l.contains(mcp_path.to_string_lossy().as_ref())
            }) {
                refused.push("mcp");
            }
            if log.lines().any(|l| {
                (l.contains("LSP config validation failed for .lsp.json in plugin ")
                    || l.contains("Failed to read/parse .lsp.json"))
                    && l.contains(&format!("in plugin {name}:"))
            }) {
                refused.push("lsp");
            }
            if log
                .lines()
                .any(|l| l.contains(&format!("Failed to load monitors for {name} from")))
            {
                refused.push("monitors");
            }
            (name.to_string(), json!(refused))
        })
        .collect()
}

fn compare(dir: &Path, verdicts: &serde_json::Map<String, Value>) -> Vec<String> {
    let ws = agent_lsp::workspace::Workspace::load(&[dir.to_path_buf()], &agent_lsp::workspace::Options::isolated())
        .expect("load the plugins");
    let diags = ws.diagnostics();
    let mut out = Vec::new();
    for (name, files) in CASES {
        let Some(refused) = verdicts.get(*name).and_then(Value::as_array) else {
            out.push(format!("{name}: no verdict"));
            continue;
        };
        for (rel, _) in *files {
            let what = match *rel {
                ".mcp.json" => "mcp",
                ".lsp.json" => "lsp",
                _ => "monitors",
            };
            let path = dir.join(name).join(rel);
            if ws.id(&path).is_none() {
                out.push(format!("{name}/{rel}: agent-lsp does not read it"));
                continue;
            }
            let errors: Vec<&str> = diags
                .iter()
                .filter(|(id, d)| ws.files[*id].path == path && d.severity == agent_lsp::analysis::Severity::Error)
                .map(|(_, d)| d.message.as_str())
                .collect();
            let runtime = refused.iter().any(|r| r == what);
            if runtime == errors.is_empty() {
                out.push(format!(
                    "{name}/{rel}: Claude Code {}; agent-lsp: {errors:?}",
                    if runtime {
                        "refuses it (or a server of it)"
                    } else {
                        "takes it"
                    }
                ));
            }
        }
    }
    out
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn plugin_files_agree_with_claude_code() {
    let bin = PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let plugins_dir = tmp.join("plugins");
    let plugins = lay_out(&plugins_dir);
    let project = tmp.join("project");
    super::git_init(&project);
    let debug = tmp.join("debug.txt");
    let load = oracle::load(&bin, &Home::new(&tmp), &project, &plugins, &debug);
    assert_eq!(load.version, oracle::VERSION);
    let log: String = load
        .log
        .entries
        .iter()
        .map(|(_, m)| format!("{}\n", m.replace('\n', " ")))
        .collect();
    let v = verdicts(&log, &plugins_dir);
    assert_eq!(v["good"], json!([]), "the valid plugin is refused?\n{log}");
    assert_eq!(
        v["lsp-space"],
        json!(["lsp"]),
        "the debug log says nothing of .lsp.json?\n{log}"
    );
    let mut rec = Recording::new(REC, &judge_name(), REGENERATE);
    rec.push("plugins", &input(), json!({"refused": v}));
    let problems = compare(&plugins_dir, &v);
    check_recording(&rec, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-plugin-files.jsonl`.
#[test]
fn plugin_files_agree_with_recorded_claude_code() {
    let mut replay = Replay::load(REC);
    let recorded = replay.expect("plugins", &input()).clone();
    replay.finish();
    let tmp = tempfile::tempdir().unwrap();
    let dir = canon(tmp.path()).join("plugins");
    lay_out(&dir);
    let v = recorded["refused"].as_object().expect("refused").clone();
    let problems = compare(&dir, &v);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
