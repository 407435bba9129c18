//! Output styles judged by Claude Code 2.1.332: a project with one style per case under
//! `.claude/output-styles/` and a plugin (`--plugin-dir`) whose manifest's `outputStyles` lists a
//! folder (its `output-styles/` is then not read). Claude Code's `initialize` answer lists the
//! styles it offers (`available_output_styles`); its debug log says which values it left out
//! (`Description invalid for x - omitting`, `has force-for-plugin set ... Ignoring`). Then, for
//! each settings `outputStyle` of [`CHOICES`], one `claude -p` against the mock model shows
//! whether the style reached the system prompt (`# Output Style: NAME`).
//!
//! agent-lsp must agree: the names it lists for the style files are the ones Claude Code lists;
//! a file Claude Code complains about gets a finding; a valid one gets none; a settings
//! `outputStyle` gets a finding exactly when its style is not applied.
//!
//! Recorded in `tests/verdicts/claude-output-styles.jsonl`, replayed by plain `cargo test`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::oracle::{self, Home};
use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, canon, check_recording, git_init, judge_name, write};

const REC: &str = "claude-output-styles";

/// What a case is meant to be: a valid style (no finding), or one with a mistake.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Meant {
    Valid,
    Mistake,
}

/// Each case: its file (under the project's `.claude/output-styles/`, or `kit/` for the
/// plugin's), its text, and what it means.
const CASES: &[(&str, &str, Meant)] = &[
    (
        "terse.md",
        "---\nname: Terse\ndescription: Short answers\nkeep-coding-instructions: true\n---\nAnswer in one line. STYLE-TERSE\n",
        Meant::Valid,
    ),
    ("plain.md", "Answer plainly.\n", Meant::Valid),
    (
        "team/nested.md",
        "---\ndescription: In a sub-folder\n---\nx\n",
        Meant::Valid,
    ),
    ("empty-name.md", "---\nname: \"\"\n---\nx\n", Meant::Valid),
    ("number.md", "---\nname: 5\n---\nx\n", Meant::Mistake),
    ("list.md", "---\nname: [a, b]\n---\nx\n", Meant::Mistake),
    ("retry.md", "---\nname: [x, y\n---\nx\n", Meant::Mistake),
    ("failed.md", "---\nname: a\n  bad: [\n---\nx\n", Meant::Mistake),
    ("desc-list.md", "---\ndescription: [a, b]\n---\nx\n", Meant::Mistake),
    ("force.md", "---\nforce-for-plugin: true\n---\nx\n", Meant::Mistake),
    (
        "unknown-key.md",
        "---\nkeep-coding-instruction: true\n---\nx\n",
        Meant::Mistake,
    ),
    ("dup-a.md", "---\nname: Twin\n---\nx\n", Meant::Valid),
    ("dup-b.md", "---\nname: Twin\n---\nx\n", Meant::Mistake),
    // Not read: the manifest's `outputStyles` replaces the plugin's `output-styles/`.
    ("kit/output-styles/brief.md", "---\nname: Brief\n---\nx\n", Meant::Valid),
    (
        "kit/more/extra.md",
        "---\nname: Extra\nforce-for-plugin: false\n---\nx\n",
        Meant::Valid,
    ),
];

/// The settings' `outputStyle` values tried, each in one session.
const CHOICES: &[&str] = &["Terse", "terse", "kit:Extra", "kit:Brief", "Learning"];

const MANIFEST: &str =
    r#"{"name": "kit", "version": "1.0.0", "description": "d", "author": {"name": "a"}, "outputStyles": ["./more/"]}"#;

/// The case's path from the project.
fn rel(case: &str) -> String {
    if case.starts_with("kit/") {
        case.to_string()
    } else {
        format!(".claude/output-styles/{case}")
    }
}

fn lay_out(project: &Path) {
    for (case, text, _) in CASES {
        write(project, &rel(case), text.as_bytes());
    }
    write(project, "kit/.claude-plugin/plugin.json", MANIFEST.as_bytes());
}

fn input() -> String {
    let mut files: Vec<(String, &[u8])> = CASES.iter().map(|(c, t, _)| (rel(c), t.as_bytes())).collect();
    files.push(("manifest".into(), MANIFEST.as_bytes()));
    files.push(("choices".into(), b""));
    let choices = CHOICES.join("\n");
    files.last_mut().unwrap().1 = choices.as_bytes();
    verdict_support::hash_files(files.iter().map(|(n, t)| (n.as_str(), *t)))
}

/// The debug log's complaints, by the style they name: `description` or `force-for-plugin`.
fn complaints(log: &str) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for line in log.lines() {
        let named = if let Some(rest) = line.split("Description invalid for ").nth(1) {
            rest.split(" - omitting").next().map(|n| (n, "description"))
        } else if let Some(rest) = line.split("Output style \"").nth(1) {
            rest.split("\" has force-for-plugin set")
                .next()
                .map(|n| (n, "force-for-plugin"))
        } else {
            None
        };
        if let Some((name, what)) = named {
            out.insert(name.to_string(), json!(what));
        }
    }
    out
}

/// The project loaded as agent-lsp reads it (the plugin with it).
fn workspace(project: &Path) -> agent_lsp::workspace::Workspace {
    agent_lsp::workspace::Workspace::load(&[project.to_path_buf()], &agent_lsp::workspace::Options::isolated())
        .expect("load the project")
}

/// The names agent-lsp lists for the style files, sorted.
fn listed(ws: &agent_lsp::workspace::Workspace) -> Vec<String> {
    let mut names: Vec<String> = ws
        .files
        .iter()
        .filter_map(|f| {
            let origin = f.kind.output_style()?;
            let style = f.analysis.output_style()?;
            let stem = f.path.file_stem()?.to_string_lossy().into_owned();
            Some(agent_lsp::analysis::claude::output_style::listed_name(
                origin, style, &stem,
            ))
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// agent-lsp's disagreements with the recorded verdicts.
fn compare(project: &Path, verdict: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let ws = workspace(project);
    let mut runtime: Vec<String> = verdict["listed"]
        .as_array()
        .expect("listed")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .filter(|n| !agent_lsp::analysis::claude::output_style::BUILTIN.contains(&n.as_str()))
        .collect();
    runtime.sort();
    let ours = listed(&ws);
    if ours != runtime {
        out.push(format!("styles listed: Claude Code {runtime:?}, agent-lsp {ours:?}"));
    }
    let diags = ws.diagnostics();
    let findings = |path: &Path| -> Vec<String> {
        diags
            .iter()
            .filter(|(id, _)| ws.files[*id].path == path)
            .map(|(_, d)| format!("{} {}", d.code.as_str(), d.message))
            .collect()
    };
    let complaints = verdict["complaints"].as_object().expect("complaints");
    for (case, _, meant) in CASES {
        let path = project.join(rel(case));
        let found = findings(&path);
        let id = ws.id(&path);
        let name = id
            .and_then(|id| {
                let f = &ws.files[id];
                let stem = f.path.file_stem()?.to_string_lossy().into_owned();
                Some(agent_lsp::analysis::claude::output_style::listed_name(
                    f.kind.output_style()?,
                    f.analysis.output_style()?,
                    &stem,
                ))
            })
            .unwrap_or_default();
        let complained = complaints.get(&name).and_then(Value::as_str);
        if let Some(what) = complained
            && !found.iter().any(|f| f.contains(what))
        {
            out.push(format!(
                "{case}: Claude Code leaves out its {what}; agent-lsp: {found:?}"
            ));
        }
        match meant {
            Meant::Valid if !found.is_empty() => out.push(format!("{case}: valid, yet agent-lsp says {found:?}")),
            Meant::Mistake if found.is_empty() => out.push(format!("{case}: a mistake agent-lsp does not see")),
            _ => {}
        }
    }
    let applied = verdict["applied"].as_object().expect("applied");
    for choice in CHOICES {
        let Some(took) = applied.get(*choice).and_then(Value::as_bool) else {
            out.push(format!("outputStyle {choice}: no verdict"));
            continue;
        };
        let settings = project.join(".claude/settings.local.json");
        write(
            project,
            ".claude/settings.local.json",
            json!({ "outputStyle": choice }).to_string().as_bytes(),
        );
        let ws = workspace(project);
        let found: Vec<String> = ws
            .diagnostics()
            .into_iter()
            .filter(|(id, _)| ws.files[*id].path == settings)
            .map(|(_, d)| d.message)
            .collect();
        if took != found.is_empty() {
            out.push(format!(
                "outputStyle {choice}: Claude Code {} it; agent-lsp: {found:?}",
                if took { "applies" } else { "does not apply" }
            ));
        }
    }
    let _ = std::fs::remove_file(project.join(".claude/settings.local.json"));
    out
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn output_styles_agree_with_claude_code() {
    let bin = PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let project = tmp.join("project");
    git_init(&project);
    lay_out(&project);
    let plugins = [project.join("kit")];
    let debug = tmp.join("debug.txt");
    let load = oracle::load(&bin, &Home::new(&tmp), &project, &plugins, &debug);
    assert_eq!(load.version, oracle::VERSION);
    assert!(
        load.output_styles.iter().any(|s| s == "Terse"),
        "{:?}",
        load.output_styles
    );
    let log: String = load
        .log
        .entries
        .iter()
        .map(|(_, m)| format!("{}\n", m.replace('\n', " ")))
        .collect();
    write(&tmp, "script.json", json!([[{"text": "done"}]]).to_string().as_bytes());
    let mut applied = serde_json::Map::new();
    for choice in CHOICES {
        write(
            &project,
            ".claude/settings.local.json",
            json!({ "outputStyle": choice }).to_string().as_bytes(),
        );
        let requests = super::mock::run_claude_with(&bin, &tmp, &project, &tmp.join("script.json"), &plugins);
        let first = requests.first().map(Value::to_string).unwrap_or_default();
        applied.insert(
            choice.to_string(),
            json!(first.contains(&format!("# Output Style: {choice}\\n"))),
        );
    }
    let _ = std::fs::remove_file(project.join(".claude/settings.local.json"));
    assert_eq!(applied["Terse"], true, "the mock run shows no style: {applied:?}");
    let verdict = json!({
        "listed": load.output_styles,
        "complaints": complaints(&log),
        "applied": applied,
    });
    let mut rec = Recording::new(REC, &judge_name(), REGENERATE);
    rec.push("output-styles", &input(), verdict.clone());
    let problems = compare(&project, &verdict);
    check_recording(&rec, false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-output-styles.jsonl`.
#[test]
fn output_styles_agree_with_recorded_claude_code() {
    let mut replay = Replay::load(REC);
    let recorded = replay.expect("output-styles", &input()).clone();
    replay.finish();
    let tmp = tempfile::tempdir().unwrap();
    let project = canon(tmp.path()).join("project");
    git_init(&project);
    lay_out(&project);
    let problems = compare(&project, &recorded);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
