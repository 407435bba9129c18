//! Hook matchers judged by Claude Code 2.1.332: which `PreToolUse` hooks run when the model calls
//! `Bash` with `git push origin main`. One project whose `.claude/settings.json` has one matcher
//! per case, each hook appending the case's name to a log; Claude Code runs `claude -p` against
//! the scripted mock model (`tests/agents/mock_model.py`, on 127.0.0.1), which calls the tool
//! once. A hook that ran is in the log.
//!
//! agent-lsp must agree: a matcher whose hooks do not run gets its `unknown-tool` warning (a name
//! no tool has, an MCP server without its tool, a permission rule as the matcher, a regular
//! expression JavaScript refuses), on the matcher's line; one whose hooks run gets none. The
//! `if` cases show what the fix of a rule written as the matcher does: the handler whose `if`
//! matches the call runs, the other does not.
//!
//! Recorded in `tests/verdicts/claude-hook-matchers.jsonl` (one line per case: whether its hook
//! ran), replayed by plain `cargo test`.

use std::path::Path;

use serde_json::{Value, json};

use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, canon, check_recording, git_init, judge_name, write};

const REC: &str = "claude-hook-matchers";

/// Each case: its name (what its hook writes to the log), the matcher, and the handler's `if`.
const CASES: &[(&str, &str, Option<&str>)] = &[
    ("exact", "Bash", None),
    ("names", "Edit|Bash", None),
    ("names-comma", "Edit, Bash", None),
    ("names-trailing-space", "Bash ", None),
    ("regex", "Ba.*", None),
    ("regex-anchored", "^Bash$", None),
    ("regex-dot", "B.sh", None),
    ("star", "*", None),
    ("empty", "", None),
    ("rule-as-matcher", "Bash(git push *)", None),
    ("rule-colon", "Bash(git:*)", None),
    ("typo", "Bsh", None),
    ("lower-case", "bash", None),
    ("prefix", "Bas", None),
    ("mcp-server", "mcp__github", None),
    ("invalid-regex", "Edit(", None),
    ("nothing-to-repeat", "*Bash", None),
    ("if-matches", "Bash", Some("Bash(git push *)")),
    ("if-other", "Bash", Some("Bash(npm *)")),
];

/// The settings file: one matcher a line (so that a finding's line names its case).
fn settings(log: &Path) -> String {
    let lines: Vec<String> = CASES
        .iter()
        .map(|(name, matcher, cond)| {
            let mut handler = json!({"type": "command", "command": format!("echo {name} >> {}", log.display())});
            if let Some(c) = cond {
                handler["if"] = json!(c);
            }
            format!("      {}", json!({"matcher": matcher, "hooks": [handler]}))
        })
        .collect();
    format!(
        "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n{}\n    ]\n  }}\n}}\n",
        lines.join(",\n")
    )
}

/// The settings text with the log's path replaced, as the recording hashes it.
fn input(text: &str, log: &Path) -> String {
    text.replace(&log.display().to_string(), "$LOG")
}

/// agent-lsp's disagreements with the verdicts (`case` → its hook ran).
fn compare(text: &str, ran: &serde_json::Map<String, Value>) -> Vec<String> {
    let (diags, ..) = agent_lsp::analysis::claude::settings::analyze(
        text,
        agent_lsp::analysis::claude::settings::SettingsFile::Project,
    );
    let index = agent_lsp::analysis::LineIndex::new(text);
    let mut out = Vec::new();
    for (i, (name, matcher, cond)) in CASES.iter().enumerate() {
        // The cases start on line 4 (0-based 3).
        let line = 3 + i as u32;
        let warned = diags.iter().any(|d| {
            d.code.as_str() == "unknown-tool"
                && index
                    .line_col(text, d.span.start as usize, agent_lsp::analysis::Encoding::Utf8)
                    .line
                    == line
        });
        let Some(ran) = ran.get(*name).and_then(Value::as_bool) else {
            out.push(format!("{name}: no verdict"));
            continue;
        };
        // An `if` that does not match the call is no mistake of the matcher's.
        let expected = if cond.is_some() { false } else { !ran };
        if warned != expected {
            out.push(format!(
                "{name} (`{matcher}`): Claude Code {} its hook; agent-lsp {}",
                if ran { "ran" } else { "did not run" },
                if warned { "warns" } else { "says nothing" }
            ));
        }
    }
    out
}

fn verdicts(log_text: &str) -> serde_json::Map<String, Value> {
    let ran: Vec<&str> = log_text.lines().map(str::trim).collect();
    CASES
        .iter()
        .map(|(name, ..)| (name.to_string(), json!(ran.contains(name))))
        .collect()
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn hook_matchers_agree_with_claude_code() {
    let bin =
        std::path::PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let project = tmp.join("project");
    git_init(&project);
    let log = tmp.join("ran.log");
    let text = settings(&log);
    write(&project, ".claude/settings.json", text.as_bytes());
    let script = tmp.join("script.json");
    write(
        &tmp,
        "script.json",
        json!([[{"tool": "Bash", "input": {"command": "git push origin main", "description": "push"}}], [{"text": "done"}]])
            .to_string()
            .as_bytes(),
    );
    super::mock::run_claude(&bin, &tmp, &project, &script);
    let ran = verdicts(&std::fs::read_to_string(&log).unwrap_or_default());
    // The control case ran: the tool was called and hooks work.
    assert_eq!(
        ran["exact"], true,
        "the `Bash` hook did not run: the call never happened?"
    );
    let mut rec = Recording::new(REC, &judge_name(), REGENERATE);
    rec.push(
        "settings",
        &verdict_support::hash(input(&text, &log).as_bytes()),
        json!({"ran": ran}),
    );
    let problems = compare(&text, &ran);
    check_recording(&rec, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-hook-matchers.jsonl`.
#[test]
fn hook_matchers_agree_with_recorded_claude_code() {
    let log = Path::new("/agent-lsp-hook-matchers/ran.log");
    let text = settings(log);
    let mut replay = Replay::load(REC);
    let recorded = replay
        .expect("settings", &verdict_support::hash(input(&text, log).as_bytes()))
        .clone();
    replay.finish();
    let ran = recorded["ran"].as_object().expect("ran").clone();
    let problems = compare(&text, &ran);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // What the recording says of the fix: the tool in `matcher`, the rule in `if`.
    assert_eq!(ran["if-matches"], true);
    assert_eq!(ran["if-other"], false);
}
