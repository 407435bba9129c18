//! Settings files judged by Claude Code 2.1.332: each case is a project's `.claude/settings.json`
//! holding `"permissions": {"defaultMode": "plan"}` beside what is tried. Claude Code started
//! there tells two things: the `Invalid setting skipped` lines of its debug file, each with the
//! JSON path of what it skipped, and the session's permission mode, which is `plan` only when it
//! applied the file. agent-lsp must agree on both:
//!
//! - the file is applied exactly when agent-lsp reports no error that voids it (`file-ignored`);
//! - every skipped entry has an agent-lsp error or warning within the lines of the value the
//!   path names;
//! - a file Claude Code applies whole, with no skip line, gets no agent-lsp error.
//!
//! The case files are printed here, one key per line, so that a path's lines are known.
//!
//! Recorded: the live test writes Claude Code's answer per case (the mode, and the skipped paths
//! with their messages) to `tests/verdicts/claude-settings.jsonl` with `RECORD_VERDICTS=1`, and
//! otherwise fails when it differs from that file. `settings_files_agree_with_recorded_claude_code`
//! (plain `cargo test`) lays each case out again, checks that its file hashes as recorded, and
//! compares agent-lsp with the recorded answer the same way (`compare`). Held-out files
//! (`CLAUDE_SETTINGS_EXTRA`) are compared live only.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use agent_lsp::analysis::claude::settings_schema::SETTINGS;
use agent_lsp::analysis::shape::Shape;

use super::oracle::{self, Home};
use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, agent_lsp, canon, check_recording, git_init, judge_name, write};

/// The recording of the settings cases.
const SETTINGS_REC: &str = "claude-settings";

/// Each case: a name and the settings beside the `plan` marker.
fn cases() -> Vec<(&'static str, Value)> {
    vec![
        // Voids the file.
        ("model-number", json!({"model": 5})),
        ("plugins-array", json!({"enabledPlugins": ["a@b"]})),
        ("allow-string", json!({"permissions": {"allow": "Bash"}})),
        ("cleanup-zero", json!({"cleanupPeriodDays": 0})),
        ("env-string", json!({"env": "A=1"})),
        ("statusline-no-command", json!({"statusLine": {"type": "command"}})),
        ("coauthor-string", json!({"includeCoAuthoredBy": "yes"})),
        (
            "guard-timeout",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": "5"}]}]}}),
        ),
        (
            "guard-type",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "shell", "command": "x"}]}]}}),
        ),
        (
            "guard-no-hooks",
            json!({"hooks": {"PermissionRequest": [{"matcher": "Bash"}]}}),
        ),
        ("guard-not-array", json!({"hooks": {"PreToolUse": "./guard.sh"}})),
        (
            "guard-no-command",
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command"}]}]}}),
        ),
        // Strips entries, applies the rest.
        (
            "rules-stripped",
            json!({"permissions": {"allow": ["Bash(npm test:*", "bash", 5, "Read(src/**)", "Bash()", "*"], "deny": ["Bash)", "Bash(a)b", ""]}}),
        ),
        (
            "hooks-stripped",
            json!({"hooks": {
                "PostToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": "5"}]}],
                "Stop": [{"hooks": [{"type": "shell"}]}],
                "SessionStart": [{"matcher": 5, "hooks": []}],
                "NotAnEvent": []
            }}),
        ),
        ("hooks-string", json!({"hooks": "x"})),
        // Silently dropped or kept: applied, no skip line (agent-lsp warns).
        ("silent-theme", json!({"theme": 5, "effortLevel": "extreme"})),
        (
            "unknown-keys",
            json!({"permisions": {"allow": ["Read"]}, "hook": {}, "modle": "opus"}),
        ),
        // Kept without a word where the object keeps what it does not know: applied, no skip
        // line (agent-lsp warns, with the did-you-mean).
        (
            "kept-unknown-keys",
            json!({"permissions": {"alow": ["Bash(git status)"], "defaultmode": "default", "Deny": []}, "sandbox": {"enabeld": true}}),
        ),
        // Read from managed settings only: deleted first, whatever the value; the file applies.
        (
            "managed-only",
            json!({"deniedModels": 5, "isolation": "x", "attributionProjectPolicy": {}}),
        ),
        ("env-any-value", json!({"env": {"A": 5, "B": {"x": 1}, "C": null}})),
        // The whole table: a wrong kind of value for every setting, every permissions key.
        ("every-setting-wrong", every_setting_wrong()),
        ("every-nested-key-wrong", every_nested_key_wrong()),
        // Valid, applied whole.
        (
            "valid",
            json!({
                "model": "opus",
                "env": {"NODE_ENV": "test"},
                "cleanupPeriodDays": 30,
                "includeCoAuthoredBy": false,
                "enabledPlugins": {"formatter@tools": true},
                "statusLine": {"type": "command", "command": "echo hi"},
                "permissions": {
                    "allow": ["Bash(npm test:*)", "Read(src/**)", "mcp__github__get_issue", "WebFetch(domain:docs.rs)"],
                    "ask": ["Bash(git push:*)"],
                    "deny": ["Read(./.env)", "Edit(//etc/**)"],
                    "additionalDirectories": ["../shared"]
                },
                "hooks": {
                    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo ok", "timeout": 10}]}],
                    "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "prompt", "prompt": "check $ARGUMENTS"}]}],
                    "Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}]
                }
            }),
        ),
    ]
}

/// A value of a kind `shape` takes none of (`None` when it takes anything).
fn wrong(shape: &Shape) -> Option<Value> {
    fn kinds(s: &Shape, k: &mut [bool; 6]) {
        // string, number, bool, array, object, null
        match s {
            Shape::Any | Shape::Custom(_) => *k = [true; 6],
            Shape::Str | Shape::Pattern(..) => k[0] = true,
            Shape::Lit(_) => {}
            Shape::Num(_) | Shape::Int(_) => k[1] = true,
            Shape::Bool => k[2] = true,
            Shape::Array(_) | Shape::Tuple(_) => k[3] = true,
            Shape::Record(_) | Shape::Object(_) => k[4] = true,
            Shape::Null => k[5] = true,
            Shape::Union(ms) => ms.iter().for_each(|m| kinds(m, k)),
        }
    }
    let mut k = [false; 6];
    kinds(shape, &mut k);
    [
        json!("zz-not-a-value"),
        json!(12.5),
        json!(true),
        json!(["zz"]),
        json!({"zz": 1}),
    ]
    .into_iter()
    .zip(k)
    .find(|(_, taken)| !taken)
    .map(|(v, _)| v)
}

/// Every setting of the table (but `permissions` and `hooks`, which have cases of their own) with
/// a value of a kind it does not take: Claude Code logs a skip line for each it checks.
fn every_setting_wrong() -> Value {
    let Shape::Object(top) = &SETTINGS else { unreachable!() };
    let mut m = serde_json::Map::new();
    for f in top.fields {
        if matches!(f.name, "permissions" | "hooks") {
            continue;
        }
        if let Some(v) = wrong(&f.shape) {
            m.insert(f.name.to_string(), v);
        }
    }
    Value::Object(m)
}

/// Every object-shaped setting (`permissions`, `sandbox`, `statusLine`, ...) with a value of a
/// wrong kind for each of its keys, one level further down for the objects inside (but
/// `permissions.defaultMode`, the marker).
fn every_nested_key_wrong() -> Value {
    fn object(shape: &Shape, depth: usize, top: bool) -> Option<Value> {
        let Shape::Object(o) = shape else { return None };
        let mut m = serde_json::Map::new();
        for f in o.fields {
            if top && f.name == "defaultMode" {
                continue;
            }
            let v = match (&f.shape, depth) {
                (Shape::Object(_), 0) => object(&f.shape, 1, false),
                _ => wrong(&f.shape),
            };
            if let Some(v) = v {
                m.insert(f.name.to_string(), v);
            }
        }
        (!m.is_empty()).then_some(Value::Object(m))
    }
    let Shape::Object(top) = &SETTINGS else { unreachable!() };
    let mut m = serde_json::Map::new();
    for f in top.fields {
        if let Some(v) = object(&f.shape, 0, f.name == "permissions") {
            m.insert(f.name.to_string(), v);
        }
    }
    Value::Object(m)
}

/// `value` printed as JSON, one key or item per line; the lines (0-based, first and last) of the
/// value at each path (`a.b.0.c`) are recorded.
fn print(value: &Value) -> (String, Vec<(String, usize, usize)>) {
    fn go(v: &Value, path: &str, indent: usize, out: &mut String, at: &mut Vec<(String, usize, usize)>) {
        let line = |out: &String| out.matches('\n').count();
        let start = line(out);
        let pad = "  ".repeat(indent + 1);
        let child = |k: &str| {
            if path.is_empty() {
                k.to_string()
            } else {
                format!("{path}.{k}")
            }
        };
        match v {
            Value::Object(m) if !m.is_empty() => {
                out.push_str("{\n");
                for (i, (k, x)) in m.iter().enumerate() {
                    out.push_str(&format!("{pad}{}: ", Value::String(k.clone())));
                    go(x, &child(k), indent + 1, out, at);
                    out.push_str(if i + 1 < m.len() { ",\n" } else { "\n" });
                }
                out.push_str(&format!("{}}}", "  ".repeat(indent)));
            }
            Value::Array(items) if !items.is_empty() => {
                out.push_str("[\n");
                for (i, x) in items.iter().enumerate() {
                    out.push_str(&pad);
                    go(x, &child(&i.to_string()), indent + 1, out, at);
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str(&format!("{}]", "  ".repeat(indent)));
            }
            _ => out.push_str(&v.to_string()),
        }
        at.push((path.to_string(), start, line(out)));
    }
    let mut out = String::new();
    let mut at = Vec::new();
    go(value, "", 0, &mut out, &mut at);
    out.push('\n');
    (out, at)
}

/// The JSON path of a skip line about `file`: `<file>: <path>: <message>`.
fn skipped_paths(log: &oracle::Log, file: &Path) -> Vec<(String, String)> {
    let head = format!("{}: ", file.display());
    log.entries
        .iter()
        .filter_map(|(_, m)| {
            let rest = m.split_once("Invalid setting skipped")?.1;
            let rest = &rest[rest.find(&head)? + head.len()..];
            let (path, msg) = rest.split_once(": ")?;
            Some((path.to_string(), msg.lines().next().unwrap_or_default().to_string()))
        })
        .collect()
}

/// One case laid out: a project with its `.claude/settings.json`, in its own home.
struct Laid {
    name: String,
    root: PathBuf,
    home: Home,
    base: PathBuf,
    /// The settings file's text, and the lines of the value at each JSON path.
    text: String,
    lines: Vec<(String, usize, usize)>,
    /// The settings file (canonical).
    file: PathBuf,
}

/// Lay out a case under `tmp`: the marker `permissions.defaultMode: plan` added to `value`.
fn lay_out(tmp: &Path, name: &str, mut value: Value) -> Laid {
    let base = tmp.join(name.replace('/', "_"));
    let root = base.join("proj");
    git_init(&root);
    let home = Home::new(&base);
    let perms = value
        .as_object_mut()
        .unwrap()
        .entry("permissions")
        .or_insert_with(|| json!({}));
    if let Some(p) = perms.as_object_mut() {
        p.insert("defaultMode".into(), json!("plan"));
    }
    let (text, lines) = print(&value);
    write(&root, ".claude/settings.json", text.as_bytes());
    let file = canon(&root.join(".claude/settings.json"));
    Laid {
        name: name.to_string(),
        root,
        home,
        base,
        text,
        lines,
        file,
    }
}

/// What Claude Code made of a settings file: the session's permission mode, and the paths it
/// skipped with its message.
#[derive(Debug, Default, PartialEq)]
struct Answer {
    mode: Option<String>,
    skipped: Vec<(String, String)>,
}

impl Answer {
    fn to_json(&self) -> Value {
        let mut v = json!({"mode": self.mode});
        if !self.skipped.is_empty() {
            v["skipped"] = json!(self.skipped);
        }
        v
    }

    fn from_json(v: &Value) -> Answer {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        Answer {
            mode: v["mode"].as_str().map(str::to_string),
            skipped: v["skipped"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| (text(&p[0]), text(&p[1])))
                .collect(),
        }
    }
}

/// agent-lsp's diagnostics on the case's settings file: severity, effect, line, message.
fn ours(laid: &Laid) -> Vec<(String, String, usize, String)> {
    let out = laid
        .home
        .command(&agent_lsp())
        .args(["check", "--no-global", "--format", "json", "."])
        .current_dir(&laid.root)
        .output()
        .expect("run agent-lsp");
    let v: Value = serde_json::from_slice(&out.stdout).expect("check --format json");
    v["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["path"] == ".claude/settings.json")
        .map(|d| {
            (
                d["severity"].as_str().unwrap_or_default().to_string(),
                d["effect"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize,
                d["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Compare agent-lsp with Claude Code's answer on one case: its row of the table, and the
/// disagreements.
fn compare(laid: &Laid, answer: &Answer) -> (String, Vec<String>) {
    let (name, text, lines) = (&laid.name, &laid.text, &laid.lines);
    let applied = answer.mode.as_deref() == Some("plan");
    let skipped = &answer.skipped;
    let ours = ours(laid);
    let voids = ours.iter().any(|(s, e, _, _)| s == "error" && e == "file-ignored");
    let mut disagreements = Vec::new();
    let mut say = |what: String| {
        disagreements.push(format!("{name}: {what}\n{text}ours: {ours:#?}\nskipped: {skipped:#?}"));
    };
    if applied == voids {
        say(format!(
            "Claude Code {} the file (mode {:?}); agent-lsp {}",
            if applied { "applies" } else { "does not apply" },
            answer.mode,
            if voids {
                "says it is voided"
            } else {
                "does not say it is voided"
            }
        ));
    }
    for (path, msg) in skipped {
        let span = lines.iter().find(|(p, _, _)| p == path);
        // agent-lsp's lines are 1-based.
        let found = ours.iter().any(|(s, _, line, _)| {
            matches!(s.as_str(), "error" | "warning") && span.is_none_or(|(_, a, b)| (a + 1..=b + 1).contains(line))
        });
        if !found {
            say(format!("nothing of agent-lsp on `{path}` ({msg})"));
        }
    }
    // Each error of agent-lsp lies in what Claude Code skipped.
    for (s, _, line, msg) in &ours {
        let covered = skipped.iter().any(|(path, _)| {
            lines
                .iter()
                .find(|(p, _, _)| p == path)
                .is_none_or(|(_, a, b)| (a + 1..=b + 1).contains(line))
        });
        if s == "error" && !covered {
            say(format!("agent-lsp's error on line {line} matches no skip line: {msg}"));
        }
    }
    if applied && skipped.is_empty() && ours.iter().any(|(s, _, _, _)| s == "error") {
        say("Claude Code takes the file whole, agent-lsp reports an error".into());
    }
    let row = format!(
        "{name:<24} applied {:<5} skipped {:>2}  ours {:>2}  {}",
        applied,
        skipped.len(),
        ours.len(),
        if disagreements.is_empty() { "ok" } else { "DISAGREE" }
    );
    (row, disagreements)
}

/// Print the table; fail on any disagreement.
fn report(rows: &[String], disagreements: &[String], judge: &str) {
    eprintln!("\nsettings files against {judge}:");
    for r in rows {
        eprintln!("  {r}");
    }
    eprintln!(
        "agreeing: {}/{}",
        rows.iter().filter(|r| r.ends_with("ok")).count(),
        rows.len()
    );
    assert!(!rows.is_empty(), "nothing was compared");
    assert!(
        disagreements.is_empty(),
        "{} disagreement(s) with {judge}:\n{}",
        disagreements.len(),
        disagreements.join("\n\n")
    );
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn settings_files_agree_with_claude_code() {
    let bin =
        std::path::PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("set CLAUDE_BIN (tests/claude_runtime/run.sh)"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let mut disagreements = Vec::new();
    let mut rows = Vec::new();
    let mut all: Vec<(String, Value)> = cases().into_iter().map(|(n, v)| (n.to_string(), v)).collect();
    // Held-out settings files (not in this repository): `CLAUDE_SETTINGS_EXTRA=DIR`, each
    // `*.json` of DIR a case.
    let extra = std::env::var_os("CLAUDE_SETTINGS_EXTRA");
    if let Some(dir) = &extra {
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("CLAUDE_SETTINGS_EXTRA is a folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            match serde_json::from_str::<Value>(&text) {
                Ok(v) if v.is_object() => all.push((format!("extra/{}", p.file_stem().unwrap().to_string_lossy()), v)),
                _ => eprintln!("skipped (not a JSON object): {}", p.display()),
            }
        }
    }
    let mut rec = Recording::new(SETTINGS_REC, &judge_name(), REGENERATE);
    for (name, value) in all {
        let laid = lay_out(&tmp, &name, value);
        let load = oracle::load(&bin, &laid.home, &laid.root, &[], &laid.base.join("debug.txt"));
        assert_eq!(load.version, oracle::VERSION);
        let answer = Answer {
            mode: load.mode.clone(),
            skipped: skipped_paths(&load.log, &laid.file),
        };
        // Held-out files are not recorded (the replay could not lay them out).
        if !name.starts_with("extra/") {
            rec.push(&name, &verdict_support::hash(laid.text.as_bytes()), answer.to_json());
        }
        let (row, d) = compare(&laid, &answer);
        rows.push(row);
        disagreements.extend(d);
    }
    check_recording(&rec, false);
    report(&rows, &disagreements, &judge_name());
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-settings.jsonl`.
#[test]
fn settings_files_agree_with_recorded_claude_code() {
    let mut replay = Replay::load(SETTINGS_REC);
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let (mut rows, mut disagreements) = (Vec::new(), Vec::new());
    for (name, value) in cases() {
        let laid = lay_out(&tmp, name, value);
        let recorded = replay.expect(name, &verdict_support::hash(laid.text.as_bytes()));
        let (row, d) = compare(&laid, &Answer::from_json(recorded));
        rows.push(row);
        disagreements.extend(d);
    }
    replay.finish();
    report(&rows, &disagreements, &format!("the recorded {}", judge_name()));
}

#[test]
fn a_settings_answer_survives_its_recording() {
    let a = Answer {
        mode: Some("plan".into()),
        skipped: vec![("permissions.allow.1".into(), "Invalid rule".into())],
    };
    assert_eq!(Answer::from_json(&a.to_json()), a);
    let b = Answer::default();
    assert_eq!(b.to_json(), json!({"mode": null}));
    assert_eq!(Answer::from_json(&b.to_json()), b);
}
