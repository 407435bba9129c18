//! `hooks` in the frontmatter of skills and commands, judged by Claude Code 2.1.332: started with
//! one skill or command per case, its debug log says which lose their hooks and their
//! `allowed-tools` (`[ERROR] Skill 'x': ... (the skill loads with no hooks and no allowed-tools)`,
//! a guard event outside `hooks`, `Invalid hooks in skill 'x'`), and which lose one entry (`[WARN]
//! Skill 'x': ... entry ignored`).
//!
//! agent-lsp must agree, file by file: an error exactly where the skill loses its hooks, a warning
//! and no error where an entry alone is ignored, nothing on a valid one.
//!
//! Recorded in `tests/verdicts/claude-skill-hooks.jsonl` (one line: each case's verdict),
//! replayed by plain `cargo test`.

use std::path::Path;

use serde_json::{Value, json};

use super::oracle::{self, Home};
use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, canon, check_recording, git_init, judge_name, write};

const REC: &str = "claude-skill-hooks";

const GUARD_OK: &str =
    "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo ok\n";

/// Each case: its name (a skill's folder, or `commands/NAME` for a command) and its frontmatter
/// (besides `description` and `allowed-tools`).
const CASES: &[(&str, &str)] = &[
    ("good", GUARD_OK),
    (
        "guard-type",
        "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: shell\n          command: echo ok\n",
    ),
    (
        "guard-no-command",
        "hooks:\n  PermissionRequest:\n    - hooks:\n        - type: command\n",
    ),
    (
        "other-timeout",
        "hooks:\n  PostToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo ok\n          timeout: \"5\"\n",
    ),
    (
        "outside",
        "PreToolUse:\n  - matcher: Bash\n    hooks:\n      - type: command\n        command: echo ok\n",
    ),
    ("not-object", "hooks: \"echo ok\"\n"),
    ("commands/cmd-good", GUARD_OK),
    (
        "commands/cmd-guard",
        "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: shell\n",
    ),
    ("commands/cmd-not-object", "hooks: [1]\n"),
];

/// The name Claude Code gives the case (its skill's or command's name).
fn name_of(case: &str) -> &str {
    case.strip_prefix("commands/").unwrap_or(case)
}

/// The case's file, relative to the project, and its text.
fn file_of(case: &str, front: &str) -> (String, String) {
    let head = format!("description: Case {}\nallowed-tools: Bash(git status)\n", name_of(case));
    match case.strip_prefix("commands/") {
        Some(cmd) => (
            format!(".claude/commands/{cmd}.md"),
            format!("---\n{head}{front}---\nRun the case.\n"),
        ),
        // (opencode reads these skills too, and wants their `name`.)
        None => (
            format!(".claude/skills/{case}/SKILL.md"),
            format!("---\nname: {case}\n{head}{front}---\nRun the case.\n"),
        ),
    }
}

fn lay_out(project: &Path) {
    for (case, front) in CASES {
        let (rel, text) = file_of(case, front);
        write(project, &rel, text.as_bytes());
    }
}

fn input() -> String {
    let files: Vec<(String, String)> = CASES.iter().map(|(c, f)| file_of(c, f)).collect();
    verdict_support::hash_files(files.iter().map(|(n, t)| (n.as_str(), t.as_bytes())))
}

/// Each case's verdict from the debug log: `lost` (no hooks, no allowed-tools), `entry-ignored`
/// or `ok`.
fn verdicts(log: &str) -> serde_json::Map<String, Value> {
    CASES
        .iter()
        .map(|(case, _)| {
            let n = name_of(case);
            let of = |l: &&str| l.contains(&format!("Skill '{n}':")) || l.contains(&format!("skill '{n}'"));
            let lines: Vec<&str> = log.lines().filter(of).collect();
            let verdict = if lines.iter().any(|l| {
                l.contains("no hooks and no allowed-tools")
                    || l.contains("outside \"hooks\"")
                    || l.contains("Invalid hooks in skill")
            }) {
                "lost"
            } else if lines.iter().any(|l| l.contains("entry ignored")) {
                "entry-ignored"
            } else {
                "ok"
            };
            (case.to_string(), json!(verdict))
        })
        .collect()
}

fn compare(project: &Path, verdicts: &serde_json::Map<String, Value>) -> Vec<String> {
    let ws =
        agent_lsp::workspace::Workspace::load(&[project.to_path_buf()], &agent_lsp::workspace::Options::isolated())
            .expect("load the project");
    let diags = ws.diagnostics();
    let mut out = Vec::new();
    for (case, front) in CASES {
        let Some(v) = verdicts.get(*case).and_then(Value::as_str) else {
            out.push(format!("{case}: no verdict"));
            continue;
        };
        let path = project.join(file_of(case, front).0);
        let ours: Vec<(agent_lsp::analysis::Severity, &str)> = diags
            .iter()
            .filter(|(id, _)| ws.files[*id].path == path)
            .map(|(_, d)| (d.severity, d.code.as_str()))
            .collect();
        let errors = ours.iter().any(|(s, _)| *s == agent_lsp::analysis::Severity::Error);
        let ok = match v {
            "lost" => errors,
            "entry-ignored" => !errors && !ours.is_empty(),
            _ => ours.is_empty(),
        };
        if !ok {
            out.push(format!("{case}: Claude Code: {v}; agent-lsp: {ours:?}"));
        }
    }
    out
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn skill_hooks_agree_with_claude_code() {
    let bin =
        std::path::PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let project = tmp.join("project");
    git_init(&project);
    lay_out(&project);
    let debug = tmp.join("debug.txt");
    let load = oracle::load(&bin, &Home::new(&tmp), &project, &[], &debug);
    assert_eq!(load.version, oracle::VERSION);
    let log: String = load
        .log
        .entries
        .iter()
        .map(|(_, m)| format!("{}\n", m.replace('\n', " ")))
        .collect();
    let v = verdicts(&log);
    assert_eq!(v["good"], "ok");
    let mut rec = Recording::new(REC, &judge_name(), REGENERATE);
    rec.push("skills", &input(), json!({"verdicts": v}));
    let problems = compare(&project, &v);
    check_recording(&rec, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-skill-hooks.jsonl`.
#[test]
fn skill_hooks_agree_with_recorded_claude_code() {
    let mut replay = Replay::load(REC);
    let recorded = replay.expect("skills", &input()).clone();
    replay.finish();
    let tmp = tempfile::tempdir().unwrap();
    let project = canon(tmp.path()).join("project");
    git_init(&project);
    lay_out(&project);
    let v = recorded["verdicts"].as_object().expect("verdicts").clone();
    let problems = compare(&project, &v);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
