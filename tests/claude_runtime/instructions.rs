//! Instruction files (`AGENTS.md`, `CLAUDE.md`, `CONTEXT.md`, `.claude/AGENTS.md`,
//! `.claude/CLAUDE.md`, `CLAUDE.local.md`) judged by Claude Code 2.1.332: which of them reach the
//! model. One project per case, each file's text a marker; `claude -p` runs in the case's start
//! folder against the scripted mock model (`mock.rs`), and a file whose marker is in the first
//! request is read.
//!
//! agent-lsp must agree: for each file of the start folder (and its `.claude/`), the verdict of
//! `Workspace::instruction_readers` for Claude Code (the hover on the file's first line) says
//! `reads` exactly when Claude Code read it.
//!
//! Recorded in `tests/verdicts/claude-instructions.jsonl` (one line per case), replayed by plain
//! `cargo test`.

use std::path::Path;

use serde_json::{Value, json};

use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, canon, check_recording, git_init, judge_name, write};

const REC: &str = "claude-instructions";

/// Each case: its name, its files (path, text before the marker) and the folder Claude Code
/// starts in.
type Case = (&'static str, &'static [(&'static str, &'static str)], &'static str);

const CASES: &[Case] = &[
    ("agents-alone", &[("AGENTS.md", "")], "."),
    ("agents-and-claude", &[("AGENTS.md", ""), ("CLAUDE.md", "")], "."),
    ("agents-and-context", &[("AGENTS.md", ""), ("CONTEXT.md", "")], "."),
    ("context-alone", &[("CONTEXT.md", "")], "."),
    ("dot-claude-agents", &[(".claude/AGENTS.md", "")], "."),
    (
        "dot-claude-both",
        &[(".claude/AGENTS.md", ""), (".claude/CLAUDE.md", "")],
        ".",
    ),
    (
        "agents-and-dot-claude-claude",
        &[("AGENTS.md", ""), (".claude/CLAUDE.md", "")],
        ".",
    ),
    ("agents-and-local", &[("AGENTS.md", ""), ("CLAUDE.local.md", "")], "."),
    (
        "claude-in-the-parent",
        &[("CLAUDE.md", ""), ("sub/AGENTS.md", ""), ("sub/CONTEXT.md", "")],
        "sub",
    ),
    (
        "imported",
        &[
            ("CLAUDE.md", "Read @AGENTS.md\nand @CONTEXT.md\n"),
            ("AGENTS.md", ""),
            ("CONTEXT.md", ""),
        ],
        ".",
    ),
];

/// The marker of file `path` of case `case`.
fn marker(case: &str, path: &str) -> String {
    format!("INSTR-MARKER-{case}-{}", path.replace(['/', '.'], "-"))
}

fn lay_out(dir: &Path, case: &Case) {
    let (name, files, _) = case;
    for (path, before) in files.iter() {
        write(dir, path, format!("{before}{}\n", marker(name, path)).as_bytes());
    }
}

/// The input the recording hashes for a case: its files and start folder.
fn input(case: &Case) -> String {
    let (name, files, start) = case;
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|(p, before)| (p.to_string(), format!("{before}{}\n", marker(name, p))))
        .chain([("start".to_string(), start.to_string())])
        .collect();
    verdict_support::hash_files(texts.iter().map(|(n, t)| (n.as_str(), t.as_bytes())))
}

/// Which files reached the model, by path.
fn verdicts(case: &Case, requests: &[Value]) -> serde_json::Map<String, Value> {
    let first = requests.first().map(Value::to_string).unwrap_or_default();
    let (name, files, _) = case;
    files
        .iter()
        .map(|(path, _)| (path.to_string(), json!(first.contains(&marker(name, path)))))
        .collect()
}

/// agent-lsp's disagreements on the files of the start folder.
fn compare(project: &Path, case: &Case, read: &serde_json::Map<String, Value>) -> Vec<String> {
    let (name, files, start) = case;
    let ws =
        agent_lsp::workspace::Workspace::load(&[project.to_path_buf()], &agent_lsp::workspace::Options::isolated())
            .expect("load the project");
    let start = project.join(start);
    let mut out = Vec::new();
    for (path, _) in files.iter() {
        let full = project.join(path);
        let folder = full.parent().expect("a folder");
        let here = folder == start || folder == start.join(".claude");
        if !here {
            continue;
        }
        let Some(claude_read) = read.get(*path).and_then(Value::as_bool) else {
            out.push(format!("{name}/{path}: no verdict"));
            continue;
        };
        let Some(id) = ws.id(&full) else {
            out.push(format!("{name}/{path}: not in the workspace"));
            continue;
        };
        let Some((_, verdicts)) = ws.instruction_readers(id) else {
            out.push(format!("{name}/{path}: agent-lsp gives no verdict"));
            continue;
        };
        let ours = verdicts.iter().find(|v| v.runtime.product() == "Claude Code");
        match ours {
            Some(v) if v.reads == claude_read => {}
            Some(v) => out.push(format!(
                "{name}/{path}: Claude Code {}; agent-lsp: {}",
                if claude_read { "reads it" } else { "does not read it" },
                v.why
            )),
            None => out.push(format!("{name}/{path}: agent-lsp has no Claude Code verdict")),
        }
    }
    out
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn instruction_files_agree_with_claude_code() {
    let bin =
        std::path::PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let mut rec = Recording::new(REC, &judge_name(), REGENERATE);
    let mut problems = Vec::new();
    for case in CASES {
        let tmp = tempfile::tempdir().unwrap();
        let tmp = canon(tmp.path());
        let project = tmp.join("project");
        git_init(&project);
        lay_out(&project, case);
        write(&tmp, "script.json", json!([[{"text": "done"}]]).to_string().as_bytes());
        let requests = super::mock::run_claude(&bin, &tmp, &project.join(case.2), &tmp.join("script.json"));
        assert!(!requests.is_empty(), "{}: the model got no request", case.0);
        let read = verdicts(case, &requests);
        rec.push(case.0, &input(case), json!({"read": read}));
        problems.extend(compare(&project, case, &read));
    }
    check_recording(&rec, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-instructions.jsonl`.
#[test]
fn instruction_files_agree_with_recorded_claude_code() {
    let mut replay = Replay::load(REC);
    let mut problems = Vec::new();
    for case in CASES {
        let read = replay.expect(case.0, &input(case))["read"]
            .as_object()
            .expect("read")
            .clone();
        let tmp = tempfile::tempdir().unwrap();
        let project = canon(tmp.path()).join("project");
        git_init(&project);
        lay_out(&project, case);
        problems.extend(compare(&project, case, &read));
    }
    replay.finish();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
