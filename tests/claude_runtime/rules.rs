//! Rules scoped to paths (`.claude/rules/**/*.md`) judged by Claude Code 2.1.332: when each rule
//! reaches the model. One project with one rule per case, each body a marker, and `src/app.ts`;
//! `claude -p` runs against the scripted mock model (`mock.rs`), which reads `src/app.ts` once. A
//! rule whose marker is in the first request is loaded at the start (for every file); one whose
//! marker arrives only after the read is loaded for the file it matches; one that never arrives
//! is never loaded.
//!
//! agent-lsp must agree with what the author meant (each case says: scoped to paths, or loaded
//! always): a rule meant to be scoped that Claude Code loads at the start, or never, gets a
//! finding of agent-lsp on its file; one Claude Code loads as meant gets none.
//!
//! Recorded in `tests/verdicts/claude-rules.jsonl` (one line: when each rule was loaded), replayed
//! by plain `cargo test`.

use std::path::Path;

use serde_json::{Value, json};

use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, canon, check_recording, git_init, judge_name, write};

const REC: &str = "claude-rules";

/// What the author meant: the rule for the files its patterns name, or for every file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Meant {
    Scoped,
    Always,
}

/// Each case: the rule's file under `.claude/rules/`, its frontmatter (none: no frontmatter),
/// and what it means.
const CASES: &[(&str, Option<&str>, Meant)] = &[
    ("valid.md", Some("paths: [\"src/**/*.ts\"]"), Meant::Scoped),
    ("string.md", Some("paths: \"src/**/*.ts\""), Meant::Scoped),
    ("comma.md", Some("paths: \"lib/*.py, src/*.ts\""), Meant::Scoped),
    ("brace.md", Some("paths: \"src/{app,other}.ts\""), Meant::Scoped),
    ("block-list.md", Some("paths:\n  - \"src/**\""), Meant::Scoped),
    ("basename.md", Some("paths: [\"*.ts\"]"), Meant::Scoped),
    ("plain-name.md", Some("paths: [\"app.ts\"]"), Meant::Scoped),
    ("mixed.md", Some("paths: [42, \"src/**/*.ts\"]"), Meant::Scoped),
    ("sub/nested.md", Some("paths: [\"src/*.ts\"]"), Meant::Scoped),
    ("number.md", Some("paths: 42"), Meant::Scoped),
    ("globs.md", Some("globs: src/**/*.ts"), Meant::Scoped),
    ("apply-to.md", Some("applyTo: \"src/**\""), Meant::Scoped),
    ("empty-list.md", Some("paths: []"), Meant::Scoped),
    ("empty-string.md", Some("paths: \"\""), Meant::Scoped),
    ("not-yet.md", Some("paths: [\"lib/**/*.py\"]"), Meant::Scoped),
    ("dot-slash.md", Some("paths: [\"./src/*.ts\"]"), Meant::Scoped),
    ("unclosed.md", Some("paths: [\"src/**/*.ts\""), Meant::Scoped),
    ("no-frontmatter.md", None, Meant::Always),
    ("every-file.md", Some("paths: [\"**\"]"), Meant::Always),
];

/// The text of case `name`'s rule.
fn text_of(name: &str, front: Option<&str>) -> String {
    let marker = format!("RULE-MARKER-{}", name.trim_end_matches(".md").replace('/', "-"));
    match front {
        Some(f) => format!("---\n{f}\n---\n{marker}\n"),
        None => format!("{marker}\n"),
    }
}

/// Lay the project out under `dir`.
fn lay_out(dir: &Path) {
    for (name, front, _) in CASES {
        write(dir, &format!(".claude/rules/{name}"), text_of(name, *front).as_bytes());
    }
    write(dir, "src/app.ts", b"export const app = 1;\n");
    write(dir, "lib/notes.txt", b"notes\n");
}

/// The input the recording hashes: every case's file, by name.
fn input() -> String {
    let texts: Vec<(String, String)> = CASES
        .iter()
        .map(|(name, front, _)| (name.to_string(), text_of(name, *front)))
        .collect();
    let files: Vec<(&str, &[u8])> = texts.iter().map(|(n, t)| (n.as_str(), t.as_bytes())).collect();
    verdict_support::hash_files(files)
}

/// When each rule arrived: `start` (the first request), `read` (only after `src/app.ts` was read)
/// or `never`.
fn verdicts(requests: &[Value]) -> serde_json::Map<String, Value> {
    let first = requests.first().map(Value::to_string).unwrap_or_default();
    let all: String = requests.iter().map(Value::to_string).collect();
    CASES
        .iter()
        .map(|(name, ..)| {
            let marker = format!("RULE-MARKER-{}", name.trim_end_matches(".md").replace('/', "-"));
            let when = if first.contains(&marker) {
                "start"
            } else if all.contains(&marker) {
                "read"
            } else {
                "never"
            };
            (name.to_string(), json!(when))
        })
        .collect()
}

/// agent-lsp's disagreements: a finding on a rule's file exactly when Claude Code does not load
/// it as its author meant.
fn compare(project: &Path, when: &serde_json::Map<String, Value>) -> Vec<String> {
    let ws =
        agent_lsp::workspace::Workspace::load(&[project.to_path_buf()], &agent_lsp::workspace::Options::isolated())
            .expect("load the project");
    let diags = ws.diagnostics();
    let mut out = Vec::new();
    for (name, _, meant) in CASES {
        let Some(w) = when.get(*name).and_then(Value::as_str) else {
            out.push(format!("{name}: no verdict"));
            continue;
        };
        let path = project.join(".claude/rules").join(name);
        // What the findings say of the whole rule (an item of `paths` left out is another matter:
        // the rule still loads as meant when its other patterns do).
        let found: Vec<&str> = diags
            .iter()
            .filter(|(id, d)| ws.files[*id].path == path && !d.message.contains("leaves it out"))
            .map(|(_, d)| d.code.as_str())
            .collect();
        let as_meant = match meant {
            Meant::Scoped => w == "read",
            Meant::Always => w == "start",
        };
        if found.is_empty() != as_meant {
            out.push(format!(
                "{name}: Claude Code loads it {w} ({}as meant); agent-lsp: {found:?}",
                if as_meant { "" } else { "not " }
            ));
        }
    }
    out
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn rules_agree_with_claude_code() {
    let bin =
        std::path::PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let project = tmp.join("project");
    git_init(&project);
    lay_out(&project);
    let app = project.join("src/app.ts");
    write(
        &tmp,
        "script.json",
        json!([[{"tool": "Read", "input": {"file_path": app}}], [{"text": "done"}]])
            .to_string()
            .as_bytes(),
    );
    let requests = super::mock::run_claude(&bin, &tmp, &project, &tmp.join("script.json"));
    let when = verdicts(&requests);
    assert_eq!(
        when["no-frontmatter.md"], "start",
        "a rule with no frontmatter is loaded at the start"
    );
    assert_eq!(when["valid.md"], "read", "the read of src/app.ts did not happen?");
    let mut rec = Recording::new(REC, &judge_name(), REGENERATE);
    rec.push("rules", &input(), json!({"loaded": when}));
    let problems = compare(&project, &when);
    check_recording(&rec, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-rules.jsonl`.
#[test]
fn rules_agree_with_recorded_claude_code() {
    let mut replay = Replay::load(REC);
    let recorded = replay.expect("rules", &input()).clone();
    replay.finish();
    let tmp = tempfile::tempdir().unwrap();
    let project = canon(tmp.path()).join("project");
    git_init(&project);
    lay_out(&project);
    let when = recorded["loaded"].as_object().expect("loaded").clone();
    let problems = compare(&project, &when);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
