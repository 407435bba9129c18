//! opencode's terminal interface as the judge of `tui.json`: for every case below, the TUI of
//! the released opencode 1.18.34 is started (`opencode --pure`, in a pseudo-terminal made by
//! `script`, in an empty home, no network asked for, no port opened) in a fresh git project, and
//! its log (`$XDG_DATA_HOME/opencode/log/`) says what it did with each `tui.json(c)` it read:
//! `skipping invalid tui config` (with the reasons and their paths), `applying tui config`, or
//! nothing after `loading tui config` (a file with no setting left). The process is killed once
//! every file of the case was loaded (or the log shows the instance being created, which comes
//! after the TUI settings are read).
//!
//! agent-lsp (the library, on the same files, with the same user directories) must agree, file
//! by file:
//!
//! - it reads every file opencode reads, as a `tui.json`;
//! - it reports an error whose effect is `file-ignored` exactly on the files opencode skips (a
//!   settings file that is not an object, which opencode drops without a log line, is the one
//!   such error on a file opencode reads and does not skip);
//! - on a skipped file, each path opencode names is one agent-lsp names, or lies inside or
//!   around one, and the other way round (opencode lists the failure of every form a union
//!   allows, such as the key missing from the other form of a keybind object; agent-lsp the
//!   form meant).
//!
//! What opencode did is recorded per case in `tests/verdicts/opencode-tui.jsonl` (each file, by its
//! path in the case directory: `applied`, `read`, or `{"skipped": reasons}`), and the replay
//! (`Source::Replay`, plain `cargo test`) judges agent-lsp against that record with the same code.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agent_lsp::analysis::{Effect, Severity};
use agent_lsp::workspace::{Options, Workspace};

use serde_json::{Map, Value, json};

use super::Source;
use super::oracle::Home;
use super::verdict_support::{Recording, hash_files};

const RECORDING: &str = "opencode-tui";
const JUDGE: &str =
    "opencode 1.18.34 (opencode-linux-x64 from npm), its terminal interface (opencode --pure) and its log";

/// One case: files relative to the case directory (`proj/` is the git project, `home/` the
/// home directory), where opencode starts (below `proj/`) and `$OPENCODE_TUI_CONFIG` (relative
/// to the case directory).
struct Case {
    name: &'static str,
    files: Vec<(&'static str, &'static str)>,
    start: &'static str,
    tui_config: Option<&'static str>,
}

/// A project with one `tui.json`.
fn one(name: &'static str, text: &'static str) -> Case {
    Case {
        name,
        files: vec![("proj/tui.json", text)],
        start: "",
        tui_config: None,
    }
}

fn cases() -> Vec<Case> {
    let mut cases = vec![
        one(
            "valid-everything",
            r#"{
  // comments and trailing commas
  "$schema": "https://opencode.ai/tui.json", "theme": "opencode",
  "keybinds": {"leader": "ctrl+x", "app_exit": false, "help_show": "none", "docs_open": {"name": "x", "ctrl": true, "extra": 1},
               "diff_open": {"key": "x", "event": "press", "foo": 1}, "dialog.select.prev": "up",
               "diff_close": ["a", {"name": "b"}, {"key": {"name": "c"}, "preventDefault": true, "fallthrough": false}]},
  "plugin": ["x", ["y", {}]], "plugin_enabled": {"x": false}, "leader_timeout": 1500,
  "attention": {"enabled": true, "notifications": false, "sound": true, "volume": 0.5, "sound_pack": "p", "sounds": {"default": "", "done": "d.wav"}},
  "prompt": {"max_height": 3, "max_width": "auto"}, "scroll_speed": 0.001, "scroll_acceleration": {"enabled": true},
  "diff_style": "stacked", "cursor": {"style": "default", "blinking": false}, "mouse": false,
}"#,
        ),
        one(
            "numbers-as-json-writes-them",
            r#"{"leader_timeout": 1e3, "scroll_speed": 1E-3}"#,
        ),
        one("dropped-keys-only", r#"{"foo": 1, "thme": "x", "model": "a/b"}"#),
        one("unknown-keybind-any-value", r#"{"keybinds": {"app_exitt": 5}}"#),
        one(
            "keybind-number",
            r#"{"keybinds": {"app_exit": 5, "app_exitt": 5}, "mouse": true}"#,
        ),
        one("keybind-true", r#"{"keybinds": {"app_exit": true}}"#),
        one("keybind-null", r#"{"keybinds": {"leader": null}}"#),
        one("keybind-list-item", r#"{"keybinds": {"app_exit": [true]}}"#),
        one("keybind-key-number", r#"{"keybinds": {"app_exit": {"key": 5}}}"#),
        one("keybind-name-number", r#"{"keybinds": {"app_exit": {"name": 5}}}"#),
        one(
            "keybind-ctrl-string",
            r#"{"keybinds": {"app_exit": {"name": "x", "ctrl": "yes"}}}"#,
        ),
        one("keybind-no-key", r#"{"keybinds": {"app_exit": {"event": "press"}}}"#),
        one(
            "keybind-event",
            r#"{"keybinds": {"app_exit": {"key": "x", "event": "hold"}}}"#,
        ),
        one(
            "keybind-prevent-default",
            r#"{"keybinds": {"app_exit": {"key": "x", "preventDefault": "yes"}}}"#,
        ),
        one("keybinds-not-object", r#"{"keybinds": 5}"#),
        one("wrapper-refused", r#"{"tui": {"scroll_speed": 0}}"#),
        one("wrapper-not-object", r#"{"tui": 5, "theme": "x"}"#),
        one("wrapper-null", r#"{"tui": null, "mouse": true}"#),
        one(
            "wrapper-overridden",
            r#"{"tui": {"scroll_speed": 0, "mouse": 1}, "scroll_speed": 1, "mouse": true}"#,
        ),
        one(
            "wrapper-paths",
            r#"{"tui": {"diff_style": "x", "keybinds": {"app_exit": 5}}}"#,
        ),
        one("wrapper-in-wrapper", r#"{"tui": {"tui": {"mouse": 1}}}"#),
        one("leader-timeout-float", r#"{"leader_timeout": 1.5}"#),
        one("leader-timeout-zero", r#"{"leader_timeout": 0}"#),
        one("leader-timeout-huge", r#"{"leader_timeout": 100000000000000000000}"#),
        one("leader-timeout-unsafe", r#"{"leader_timeout": 9007199254740993}"#),
        one(
            "volume-and-unknown-sound",
            r#"{"attention": {"volume": 2, "sounds": {"bogus": "x"}}}"#,
        ),
        one("unknown-sound-any-value", r#"{"attention": {"sounds": {"bogus": 5}}}"#),
        one("sound-number", r#"{"attention": {"sounds": {"default": 5}}}"#),
        one(
            "attention-fields",
            r#"{"attention": {"volume": -0.1, "sound_pack": 1, "enabled": "y"}}"#,
        ),
        one("max-width-word", r#"{"prompt": {"max_width": "wide"}}"#),
        one("max-width-float", r#"{"prompt": {"max_width": 2.5}}"#),
        one("max-width-zero", r#"{"prompt": {"max_width": 0}}"#),
        one(
            "acceleration-extra-and-height",
            r#"{"scroll_acceleration": {"enabled": true, "speed": 2}, "prompt": {"max_height": 0}}"#,
        ),
        one("acceleration-empty", r#"{"scroll_acceleration": {}}"#),
        one("cursor-style", r#"{"cursor": {"style": "bar"}}"#),
        one("plugin-number", r#"{"plugin": ["x", ["y", {}], 5]}"#),
        one("plugin-short-tuple", r#"{"plugin": [["y"]]}"#),
        one("plugin-long-tuple", r#"{"plugin": [["y", {}, 3]]}"#),
        one("plugin-options-number", r#"{"plugin": [["y", 5]]}"#),
        one("plugin-enabled-string", r#"{"plugin_enabled": {"a": "yes"}}"#),
        one("mouse-string", r#"{"mouse": "true"}"#),
        one(
            "several-at-once",
            r#"{"scroll_speed": 0.0005, "leader_timeout": "100", "$schema": 5, "diff_style": "sideways"}"#,
        ),
        one("duplicate-key-last-wins", r#"{"mouse": "x", "mouse": true}"#),
        one("trailing-comma", r#"{"theme": "a",}"#),
        one("syntax-error", r#"{"theme": "a",,}"#),
        one("blank", "  \n"),
        one("empty", ""),
        one("array", "[]"),
        one("null", "null"),
        one(
            "env-substitution",
            r#"{"theme": "{env:AGENT_LSP_UNSET}", "mouse": true}"#,
        ),
        one("comment-first", "// settings\n{\"mouse\": 1}"),
    ];
    cases.extend([
        Case {
            name: "test-workspace",
            files: vec![("proj/tui.json", include_str!("../../test-workspace/tui.json"))],
            start: "",
            tui_config: None,
        },
        Case {
            name: "jsonc-and-json",
            files: vec![
                ("proj/tui.json", r#"{"mouse": 1}"#),
                ("proj/tui.jsonc", r#"{"mouse": true}"#),
            ],
            start: "",
            tui_config: None,
        },
        Case {
            name: "dot-opencode",
            files: vec![("proj/.opencode/tui.json", r#"{"mouse": 1}"#)],
            start: "",
            tui_config: None,
        },
        Case {
            name: "a-package-and-its-project",
            files: vec![
                ("proj/tui.json", r#"{"theme": "x"}"#),
                ("proj/packages/web/tui.jsonc", r#"{"diff_style": "x"}"#),
                ("proj/packages/web/.opencode/tui.json", r#"{"keybinds": {"leader": 1}}"#),
            ],
            start: "packages/web",
            tui_config: None,
        },
        Case {
            name: "user-directories",
            files: vec![
                ("home/.config/opencode/tui.json", r#"{"mouse": 1}"#),
                ("home/.opencode/tui.jsonc", r#"{"cursor": {"blinking": "no"}}"#),
                ("proj/tui.json", r#"{"theme": "x"}"#),
            ],
            start: "",
            tui_config: None,
        },
        Case {
            name: "opencode-tui-config",
            files: vec![("custom/terminal.json", r#"{"scroll_speed": -1}"#)],
            start: "",
            tui_config: Some("custom/terminal.json"),
        },
    ]);
    cases
}

/// What opencode did with one file.
#[derive(Debug, Default)]
struct Read {
    applied: bool,
    /// The reasons it skipped the file, if it did.
    skipped: Option<String>,
}

/// A value of opencode's log line (`key=value` or `key="..."` with `\n`, `\"` and `\\`).
fn log_value(line: &str, key: &str) -> Option<String> {
    let rest = line.split(&format!(" {key}=")).nth(1)?;
    let Some(quoted) = rest.strip_prefix('"') else {
        return Some(rest.split(' ').next().unwrap_or_default().to_string());
    };
    let mut out = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    Some(out)
}

/// Start the TUI in `start` and read what it did with each settings file.
fn opencode_reads(
    bin: &Path,
    home: &Home,
    start: &Path,
    extra_env: &[(&str, PathBuf)],
    expected: &[PathBuf],
) -> BTreeMap<PathBuf, Read> {
    let log_dir = home.home.join(".local/share/opencode/log");
    let mut cmd = home.command(Path::new("script"));
    cmd.args(["-qfec", &format!("exec '{}' --pure", bin.display()), "/dev/null"])
        .current_dir(start)
        .env("TERM", "xterm-256color")
        .env("SHELL", "/bin/sh")
        // Nothing from the network: no update check, no model list.
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
        .env("NO_UPDATE_NOTIFIER", "1")
        .env("npm_config_offline", "true")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let mut script = cmd
        .spawn()
        .expect("run `script` (util-linux) to give opencode a terminal");
    let log = || -> String {
        let mut text = String::new();
        for e in fs::read_dir(&log_dir).into_iter().flatten().flatten() {
            if let Ok(mut f) = fs::File::open(e.path()) {
                let _ = f.read_to_string(&mut text);
            }
        }
        text
    };
    // Done when every file expected was loaded (the settings are read in one pass of a few
    // milliseconds; its verdict line follows at once), or when the instance is being created
    // (with no file expected, an empty one: the pass is over by then).
    let done = |text: &str| {
        text.contains("message=\"creating instance\"")
            || !expected.is_empty()
                && expected
                    .iter()
                    .all(|p| text.contains(&format!("message=\"loading tui config\" path={}", p.display())))
    };
    let started = Instant::now();
    while !done(&log()) && started.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(500));
    // opencode runs in its own session (and process group) under `script`: end that group.
    let children = fs::read_to_string(format!("/proc/{0}/task/{0}/children", script.id())).unwrap_or_default();
    for pid in children.split_whitespace() {
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{pid}")]).status();
    }
    let _ = script.kill();
    let _ = script.wait();
    let text = log();
    assert!(
        done(&text),
        "opencode did not start in {}; its log:\n{text}",
        start.display()
    );
    let mut reads: BTreeMap<PathBuf, Read> = BTreeMap::new();
    for line in text.lines() {
        let Some(path) = log_value(line, "path").map(PathBuf::from) else {
            continue;
        };
        if line.contains("message=\"loading tui config\"") {
            reads.entry(path).or_default();
        } else if line.contains("message=\"applying tui config\"") {
            reads.entry(path).or_default().applied = true;
        } else if line.contains("message=\"skipping invalid tui config\"") {
            reads.entry(path).or_default().skipped = Some(log_value(line, "reason").unwrap_or_default());
        }
    }
    reads
}

/// The paths opencode names in its reasons (the last word of each `↳` line), each with
/// whether it is a `Missing key`.
fn their_paths(reason: &str) -> Vec<(String, bool)> {
    reason
        .lines()
        .filter_map(|l| l.strip_prefix("↳ "))
        .filter_map(|l| Some((l.rsplit(' ').next()?.to_string(), l.starts_with("Missing key "))))
        .collect()
}

/// Two paths that name the same place, or one inside the other.
fn related(a: &str, b: &str) -> bool {
    a == b || a.starts_with(&format!("{b}.")) || b.starts_with(&format!("{a}."))
}

fn parent(path: &str) -> &str {
    path.rsplit_once('.').map_or("", |(p, _)| p)
}

/// A path of opencode's is explained by one of agent-lsp's when they are related, or when it is
/// a key missing from the very object agent-lsp reports on: opencode lists the failure of each
/// form a union allows (a keybind's `{name}` and `{key}` objects), agent-lsp that of the form
/// the object is written in.
fn explained(theirs: &(String, bool), ours: &str) -> bool {
    let (t, missing) = theirs;
    related(ours, t) || (*missing && parent(t) == parent(ours))
}

/// The input of a case, hashed: its files, where opencode starts and `$OPENCODE_TUI_CONFIG`.
fn case_hash(case: &Case) -> String {
    let mut named: Vec<(String, &[u8])> = case
        .files
        .iter()
        .map(|(rel, text)| (format!("file/{rel}"), text.as_bytes()))
        .collect();
    named.push(("start".into(), case.start.as_bytes()));
    named.push(("tui_config".into(), case.tui_config.unwrap_or_default().as_bytes()));
    hash_files(named.iter().map(|(n, b)| (n.as_str(), *b)))
}

/// What opencode did with each file, as recorded: `{"files": {PATH: "applied" | "read" |
/// {"skipped": reasons}}}`, each path relative to the case directory (`<dir>` stands for it in
/// the reasons).
fn record(reads: &BTreeMap<PathBuf, Read>, dir: &Path) -> Value {
    let d = dir.to_string_lossy();
    let files: Map<String, Value> = reads
        .iter()
        .map(|(path, read)| {
            let rel = path.strip_prefix(dir).map_or_else(
                |_| path.to_string_lossy().replace(&*d, "<dir>"),
                |r| r.to_string_lossy().into_owned(),
            );
            let what = match (&read.skipped, read.applied) {
                (Some(reason), _) => json!({ "skipped": reason.replace(&*d, "<dir>") }),
                (None, true) => json!("applied"),
                (None, false) => json!("read"),
            };
            (rel, what)
        })
        .collect();
    json!({ "files": files })
}

/// The reads a record stands for, in the case directory `dir`.
fn from_record(record: &Value, dir: &Path) -> BTreeMap<PathBuf, Read> {
    let d = dir.to_string_lossy();
    record["files"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(rel, what)| {
            let read = Read {
                applied: what == "applied",
                skipped: what
                    .get("skipped")
                    .map(|r| r.as_str().unwrap_or_default().replace("<dir>", &d)),
            };
            (dir.join(rel.replace("<dir>", &d)), read)
        })
        .collect()
}

/// Judge every case: opencode's side from `source`. Returns the number of cases, the
/// disagreements, and (live) the recording of opencode's answers.
pub fn run(source: Source, tmp: &Path) -> (usize, Vec<String>, Recording) {
    let mut failures = Vec::new();
    let mut recording = Recording::new(RECORDING, JUDGE, super::REGENERATE);
    let cases = cases();
    for case in &cases {
        let dir = tmp.join(format!("tui-{}", case.name));
        let proj = dir.join("proj");
        fs::create_dir_all(&proj).unwrap();
        assert!(
            Command::new("git")
                .args(["init", "-q"])
                .current_dir(&proj)
                .status()
                .unwrap()
                .success()
        );
        for (rel, text) in &case.files {
            let p = dir.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        let home = Home::new(&dir, None);
        let tui_config = case.tui_config.map(|rel| dir.join(rel));
        let env: Vec<(&str, PathBuf)> = tui_config.iter().map(|p| ("OPENCODE_TUI_CONFIG", p.clone())).collect();
        let start = proj.join(case.start);
        fs::create_dir_all(&start).unwrap();
        let expected: Vec<PathBuf> = case
            .files
            .iter()
            .filter(|(_, text)| !text.is_empty())
            .map(|(rel, _)| dir.join(rel))
            .collect();
        let h = case_hash(case);
        let theirs = match source {
            Source::Live(bin) => {
                // What opencode writes (its log, its database, a `$schema` line) is removed after:
                // agent-lsp reads the case as laid out, as in the replay.
                let layout = super::Layout::of([&dir]);
                let reads = opencode_reads(bin, &home, &start, &env, &expected);
                layout.restore();
                let record = record(&reads, &dir);
                recording.push(case.name, &h, record.clone());
                // Judged from the record, as the replay judges.
                from_record(&record, &dir)
            }
            Source::Replay(recorded) => {
                let mut recorded = recorded.borrow_mut();
                let Some(line) = recorded.answer(case.name, &h) else {
                    failures.push(recorded.not_recorded(case.name));
                    continue;
                };
                from_record(line, &dir)
            }
        };

        // agent-lsp, over every folder a file of the case is in (so that each is reported).
        use agent_lsp::analysis::opencode::user::{GLOBAL_DIR, HOME_DOT_OPENCODE, TUI_CONFIG};
        let mut options = Options {
            home: Some(home.home.clone()),
            ..Options::isolated()
        }
        .with(GLOBAL_DIR, home.xdg_config.join("opencode"))
        .with(HOME_DOT_OPENCODE, home.home.join(".opencode"));
        options.set_user(TUI_CONFIG, tui_config.clone());
        let mut roots = vec![proj.clone()];
        for d in [home.home.clone(), dir.join("custom")] {
            if d.is_dir() {
                roots.push(d);
            }
        }
        let ws = Workspace::load(&roots, &options).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        for (path, read) in &theirs {
            let at = format!("{} {}", case.name, path.strip_prefix(&dir).unwrap_or(path).display());
            let Some(id) = ws.id(path).filter(|&id| ws.files[id].kind.is_tui()) else {
                failures.push(format!(
                    "{at}: opencode reads it, agent-lsp does not read it as a tui.json"
                ));
                continue;
            };
            let diags = ws.file_diagnostics(id);
            let skips: Vec<_> = diags
                .iter()
                .filter(|d| d.severity == Severity::Error && d.effect == Effect::FileIgnored)
                .collect();
            let not_an_object = skips
                .iter()
                .any(|d| d.message.starts_with("the settings must be a JSON object"));
            let show = || {
                diags
                    .iter()
                    .map(|d| format!("  ours: {} {} {}", d.code.as_str(), d.effect.as_str(), d.message))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            match (&read.skipped, skips.is_empty()) {
                (Some(reason), true) => failures.push(format!(
                    "{at}: opencode skips it, agent-lsp finds no reason:\n  theirs: {reason}\n{}",
                    show()
                )),
                (None, false) if !not_an_object || read.applied => failures.push(format!(
                    "{at}: agent-lsp says opencode skips it, opencode {}:\n{}",
                    if read.applied { "applies it" } else { "reads it" },
                    show()
                )),
                (Some(reason), false) if !reason.contains("is not valid JSON(C)") => {
                    // Where: every path of theirs near one of ours, and the other way round.
                    let ours: Vec<String> = skips
                        .iter()
                        .filter_map(|d| d.message.split('`').nth(1).map(str::to_string))
                        .collect();
                    let theirs = their_paths(reason);
                    let lone_theirs: Vec<&String> = theirs
                        .iter()
                        .filter(|t| !ours.iter().any(|o| explained(t, o)))
                        .map(|(t, _)| t)
                        .collect();
                    let lone_ours: Vec<&String> = ours
                        .iter()
                        .filter(|o| !theirs.iter().any(|t| explained(t, o)))
                        .collect();
                    if !lone_theirs.is_empty() || !lone_ours.is_empty() {
                        failures.push(format!(
                            "{at}: the paths differ (theirs alone: {lone_theirs:?}, ours alone: {lone_ours:?}):\n  theirs: {reason}\n{}",
                            show()
                        ));
                    }
                }
                (Some(_), false) if !skips.iter().any(|d| d.code.as_str() == "syntax-error") => {
                    failures.push(format!("{at}: opencode cannot parse it, agent-lsp can:\n{}", show()));
                }
                _ => {}
            }
        }
        eprintln!(
            "tui {:<34} {}",
            case.name,
            theirs
                .iter()
                .map(|(p, r)| format!(
                    "{}: {}",
                    p.strip_prefix(&dir).unwrap_or(p).display(),
                    match (r.applied, &r.skipped) {
                        (_, Some(_)) => "skipped",
                        (true, None) => "applied",
                        (false, None) => "read, nothing applied",
                    }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
        // A file of the case opencode did not even log (an empty one): nothing to skip.
        for (rel, _) in &case.files {
            let path = dir.join(rel);
            if theirs.contains_key(&path) {
                continue;
            }
            let skipped = ws
                .id(&path)
                .filter(|&id| ws.files[id].kind.is_tui())
                .is_some_and(|id| ws.file_diagnostics(id).iter().any(|d| d.effect == Effect::FileIgnored));
            if skipped {
                failures.push(format!(
                    "{} {rel}: opencode passes over it, agent-lsp says it is skipped",
                    case.name
                ));
            }
        }
    }
    if let Source::Replay(recorded) = source {
        failures.extend(recorded.borrow().unasked());
    }
    (cases.len(), failures, recording)
}
