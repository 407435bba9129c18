//! Instruction files (`AGENTS.md`, `CLAUDE.md`, `CONTEXT.md` and Claude Code's own) judged by
//! opencode 1.18.34: which of them reach the model. One git project per case, each file's text a
//! marker; `opencode run` starts in the case's start folder (an empty home, `--pure`) against the
//! scripted mock model of `tests/agents/mock_model.py` on 127.0.0.1, and a file whose marker is in
//! the first request is read.
//!
//! agent-lsp must agree: for each file of the start folder (and its `.claude/`), the verdict of
//! `Workspace::instruction_readers` for opencode (the hover on the file's first line) says
//! `reads` exactly when opencode read it.
//!
//! Recorded in `tests/verdicts/opencode-instructions.jsonl` (one line per case), replayed by plain
//! `cargo test`.

use std::path::{Path, PathBuf};

use agent_lsp::workspace::{Options, Workspace};
use serde_json::{Value, json};

use super::oracle::Home;
use super::verdict_support::{Recording, Replay, hash_files};
use super::{git_init, write};

const RECORDING: &str = "opencode-instructions";
const JUDGE: &str = "opencode 1.18.34 (opencode-linux-x64 from npm), opencode run against a mock model on 127.0.0.1";

/// Each case: its name, its files (path from the git project, which `../` leaves; text before
/// the marker) and the folder opencode starts in.
type Case = (&'static str, &'static [(&'static str, &'static str)], &'static str);

const CASES: &[Case] = &[
    (
        "all-three",
        &[("AGENTS.md", ""), ("CLAUDE.md", ""), ("CONTEXT.md", "")],
        ".",
    ),
    ("claude-and-context", &[("CLAUDE.md", ""), ("CONTEXT.md", "")], "."),
    ("context-alone", &[("CONTEXT.md", "")], "."),
    (
        "agents-in-the-parent",
        &[("AGENTS.md", ""), ("sub/CLAUDE.md", ""), ("sub/CONTEXT.md", "")],
        "sub",
    ),
    (
        "claude-at-both-levels",
        &[("CLAUDE.md", ""), ("sub/CLAUDE.md", "")],
        "sub",
    ),
    (
        "agents-above-the-git-root",
        &[("../AGENTS.md", ""), ("CLAUDE.md", "")],
        ".",
    ),
    (
        "dot-claude",
        &[
            (".claude/CLAUDE.md", ""),
            (".claude/AGENTS.md", ""),
            ("CLAUDE.local.md", ""),
        ],
        ".",
    ),
    (
        "imported",
        &[("CLAUDE.md", "Read @CONTEXT.md\n"), ("CONTEXT.md", "")],
        ".",
    ),
];

/// The marker of file `path` of case `case`.
fn marker(case: &str, path: &str) -> String {
    format!("INSTR-MARKER-{case}-{}", path.replace(['/', '.'], "-"))
}

fn text(case: &str, path: &str, before: &str) -> String {
    format!("{before}{}\n", marker(case, path))
}

/// The case's files under `dir/project` (the git project; `../` paths land in `dir`).
fn lay_out(dir: &Path, case: &Case) -> PathBuf {
    let project = dir.join("project");
    git_init(&project);
    for (path, before) in case.1 {
        let full = project.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text(case.0, path, before)).unwrap();
    }
    project
}

fn input(case: &Case) -> String {
    let texts: Vec<(String, String)> = case
        .1
        .iter()
        .map(|(p, before)| (p.to_string(), text(case.0, p, before)))
        .chain([("start".to_string(), case.2.to_string())])
        .collect();
    hash_files(texts.iter().map(|(n, t)| (n.as_str(), t.as_bytes())))
}

/// Run `opencode run go` in `start` against the mock model; the requests' bodies, side requests
/// (titles) left out.
fn run_opencode(bin: &Path, tmp: &Path, project: &Path, start: &Path) -> Vec<Value> {
    let script = tmp.join("script.json");
    write(tmp, "script.json", json!([[{"text": "done"}]]).to_string().as_bytes());
    let mock = super::mock_support::Mock::start(tmp, &script);
    // The model, through the project's config (it names no instruction file).
    let config = json!({
        "model": "anthropic/claude-sonnet-4-5",
        "provider": {"anthropic": {"options": {"baseURL": format!("http://127.0.0.1:{}/v1", mock.port), "apiKey": "mock"}}}
    });
    write(project, "opencode.json", config.to_string().as_bytes());
    let home = Home::new(tmp, None);
    let out = home
        .command(bin)
        .current_dir(start)
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
        .args(["run", "--pure", "go"])
        .output()
        .expect("run opencode");
    let requests = mock.finish();
    assert!(
        out.status.success(),
        "opencode run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    requests
}

/// agent-lsp's disagreements on the files of the start folder.
fn compare(project: &Path, case: &Case, read: &serde_json::Map<String, Value>) -> Vec<String> {
    let (name, files, start) = case;
    let ws = Workspace::load(&[project.to_path_buf()], &Options::isolated()).expect("load the project");
    let start = project.join(start);
    let mut out = Vec::new();
    for (path, _) in files.iter() {
        let full = project.join(path);
        let folder = full.parent().expect("a folder");
        if folder != start && folder != start.join(".claude") {
            continue;
        }
        let Some(opencode_read) = read.get(*path).and_then(Value::as_bool) else {
            out.push(format!("{name}/{path}: no verdict"));
            continue;
        };
        let Some(verdicts) = ws.id(&full).and_then(|id| ws.instruction_readers(id)) else {
            out.push(format!("{name}/{path}: agent-lsp gives no verdict"));
            continue;
        };
        match verdicts.1.iter().find(|v| v.runtime.product() == "opencode") {
            Some(v) if v.reads == opencode_read => {}
            Some(v) => out.push(format!(
                "{name}/{path}: opencode {}; agent-lsp: {}",
                if opencode_read { "reads it" } else { "does not read it" },
                v.why
            )),
            None => out.push(format!("{name}/{path}: agent-lsp has no opencode verdict")),
        }
    }
    out
}

/// Every case, against opencode (`bin`) or the recording; the disagreements and the recording.
pub fn run(bin: Option<&Path>) -> (Vec<String>, Recording) {
    let mut rec = Recording::new(RECORDING, JUDGE, "RECORD_VERDICTS=1 tests/runtime/run.sh");
    let mut replay = bin.is_none().then(|| Replay::load(RECORDING));
    let mut problems = Vec::new();
    for case in CASES {
        let tmp = tempfile::tempdir().unwrap();
        let tmp = std::fs::canonicalize(tmp.path()).unwrap();
        let project = lay_out(&tmp, case);
        let read = match (bin, replay.as_mut()) {
            (Some(bin), _) => {
                let requests = run_opencode(bin, &tmp, &project, &project.join(case.2));
                assert!(!requests.is_empty(), "{}: the model got no request", case.0);
                let first = requests[0].to_string();
                let read: serde_json::Map<String, Value> = case
                    .1
                    .iter()
                    .map(|(p, _)| (p.to_string(), json!(first.contains(&marker(case.0, p)))))
                    .collect();
                rec.push(case.0, &input(case), json!({"read": read}));
                read
            }
            (None, Some(replay)) => replay.expect(case.0, &input(case))["read"]
                .as_object()
                .expect("read")
                .clone(),
            (None, None) => unreachable!(),
        };
        problems.extend(compare(&project, case, &read));
    }
    if let Some(replay) = replay {
        replay.finish();
    }
    (problems, rec)
}
