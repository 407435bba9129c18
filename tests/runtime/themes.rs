//! opencode's terminal interface as the judge of custom themes (`themes/*.json`) and of the
//! `theme` a `tui.json` chooses: for every case below, the TUI of the released opencode 1.18.34 is
//! started (`opencode --pure`, in a pseudo-terminal made by `script` that announces true color, in
//! an empty home, no network asked for) in a fresh git project whose `tui.json` chooses a theme.
//! The chosen theme's `background` is a color no built-in theme has; the screen opencode draws
//! says whether the theme was applied (the background's escape sequence appears) or not (opencode
//! keeps its default theme; its log says nothing either way).
//!
//! agent-lsp (the library, on the same files, with the same global config folder) must agree,
//! case by case: the theme is applied exactly when agent-lsp reports no error on the case's
//! theme files and nothing on the `theme` of its `tui.json`.
//!
//! Recorded in `tests/verdicts/opencode-themes.jsonl` (per case: `applied`), replayed by plain
//! `cargo test`.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agent_lsp::analysis::Severity;
use agent_lsp::workspace::{Options, Workspace};
use serde_json::{Value, json};

use super::Source;
use super::oracle::Home;
use super::verdict_support::{Recording, hash_files};

const RECORDING: &str = "opencode-themes";
const JUDGE: &str =
    "opencode 1.18.34 (opencode-linux-x64 from npm), its terminal interface (opencode --pure) and the screen it draws";

/// The chosen theme's background: `#123456`, drawn as `48;2;18;52;86`.
const BACKGROUND: &str = "#123456";
const DRAWN: &str = "48;2;18;52;86";

/// A complete theme (every color of [`agent_lsp::analysis::opencode::theme::KEYS`]), grey but for
/// its background, with `edit` applied to its `theme` object.
fn theme(edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> String {
    let mut colors = serde_json::Map::new();
    for k in agent_lsp::analysis::opencode::theme::KEYS {
        if !matches!(*k, "selectedListItemText" | "backgroundMenu" | "thinkingOpacity") {
            colors.insert(k.to_string(), json!("grey"));
        }
    }
    colors.insert("background".into(), json!("bg"));
    edit(&mut colors);
    serde_json::to_string_pretty(&json!({
        "$schema": "https://opencode.ai/theme.json",
        "defs": {"bg": BACKGROUND, "grey": "#808080"},
        "theme": colors,
    }))
    .unwrap()
}

/// One case: files from the case directory (`proj/` the git project, `xdg/` the XDG config
/// folder), and the folder below `proj/` opencode starts in.
struct Case {
    name: &'static str,
    files: Vec<(&'static str, String)>,
    start: &'static str,
}

fn chooses(name: &str) -> String {
    json!({ "theme": name }).to_string()
}

fn cases() -> Vec<Case> {
    let mine = || theme(|_| {});
    vec![
        Case {
            name: "custom",
            files: vec![
                ("proj/.opencode/themes/mine.json", mine()),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "a-sibling-does-not-parse",
            files: vec![
                ("proj/.opencode/themes/mine.json", mine()),
                (
                    "proj/.opencode/themes/other.json",
                    "{\"theme\": {\"primary\": \"#ff0000\",}}".into(),
                ),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "a-reference-to-nothing",
            files: vec![
                (
                    "proj/.opencode/themes/mine.json",
                    theme(|t| {
                        t.insert("text".into(), json!("nosuch"));
                    }),
                ),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "a-cycle",
            files: vec![
                (
                    "proj/.opencode/themes/mine.json",
                    theme(|t| {
                        t.insert("primary".into(), json!("accent"));
                        t.insert("accent".into(), json!("primary"));
                    }),
                ),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "dark-only-in-dark-mode",
            files: vec![
                (
                    "proj/.opencode/themes/mine.json",
                    theme(|t| {
                        t.insert("text".into(), json!({"dark": "#eeeeee"}));
                    }),
                ),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "an-unknown-color-key",
            files: vec![
                (
                    "proj/.opencode/themes/mine.json",
                    theme(|t| {
                        t.insert("primry".into(), json!("#ff0000"));
                    }),
                ),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "a-misspelt-name",
            files: vec![
                ("proj/.opencode/themes/mine.json", mine()),
                ("proj/tui.json", chooses("mnie")),
            ],
            start: "",
        },
        Case {
            name: "the-global-folder",
            files: vec![
                ("xdg/opencode/themes/mine.json", mine()),
                ("proj/tui.json", chooses("mine")),
            ],
            start: "",
        },
        Case {
            name: "a-parent-dot-opencode",
            files: vec![
                ("proj/.opencode/themes/mine.json", mine()),
                ("proj/tui.json", chooses("mine")),
                ("proj/sub/keep", String::new()),
            ],
            start: "sub",
        },
    ]
}

fn case_hash(case: &Case) -> String {
    let files: Vec<(String, Vec<u8>)> = case
        .files
        .iter()
        .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
        .chain(std::iter::once(("start".to_string(), case.start.as_bytes().to_vec())))
        .collect();
    hash_files(files.iter().map(|(p, t)| (p.as_str(), t.as_slice())))
}

/// Start the TUI in `start` and watch the screen: whether the chosen theme's background was drawn
/// (once opencode's default one has been, the theme has had time to load).
fn opencode_applies(bin: &Path, home: &Home, start: &Path, screen: &Path) -> bool {
    let out = fs::File::create(screen).expect("screen file");
    let mut cmd = home.command(Path::new("script"));
    cmd.args(["-qfec", &format!("exec '{}' --pure", bin.display()), "/dev/null"])
        .current_dir(start)
        .env("TERM", "xterm-256color")
        .env("COLORTERM", "truecolor")
        .env("SHELL", "/bin/sh")
        .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
        .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
        .env("NO_UPDATE_NOTIFIER", "1")
        .env("npm_config_offline", "true")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null());
    let mut script = cmd
        .spawn()
        .expect("run `script` (util-linux) to give opencode a terminal");
    let drawn = || String::from_utf8_lossy(&fs::read(screen).unwrap_or_default()).into_owned();
    let started = Instant::now();
    let mut first_frame: Option<Instant> = None;
    let applied = loop {
        let text = drawn();
        if text.contains(DRAWN) {
            break true;
        }
        if first_frame.is_none() && text.contains("48;2;") {
            first_frame = Some(Instant::now());
        }
        // Themes load in the first moments after the first frame; 6 s after it, no change comes.
        if first_frame.is_some_and(|t| t.elapsed() > Duration::from_secs(6))
            || started.elapsed() > Duration::from_secs(30)
        {
            break false;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let children = fs::read_to_string(format!("/proc/{0}/task/{0}/children", script.id())).unwrap_or_default();
    for pid in children.split_whitespace() {
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{pid}")]).status();
    }
    let _ = script.kill();
    let _ = script.wait();
    assert!(
        applied || first_frame.is_some(),
        "opencode drew nothing in {}:\n{}",
        start.display(),
        drawn()
    );
    applied
}

/// Judge every case. Returns the number of cases, the disagreements and (live) the recording.
pub fn run(source: Source, tmp: &Path) -> (usize, Vec<String>, Recording) {
    let mut failures = Vec::new();
    let mut recording = Recording::new(RECORDING, JUDGE, super::REGENERATE);
    let cases = cases();
    for case in &cases {
        let dir = tmp.join(format!("theme-{}", case.name));
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
        let home = Home::new(&dir, Some(dir.join("xdg")));
        let start = proj.join(case.start);
        let h = case_hash(case);
        let applied = match source {
            Source::Live(bin) => {
                let layout = super::Layout::of([&dir]);
                let applied = opencode_applies(bin, &home, &start, &dir.join("screen.txt"));
                layout.restore();
                let _ = fs::remove_file(dir.join("screen.txt"));
                recording.push(case.name, &h, json!({ "applied": applied }));
                applied
            }
            Source::Replay(recorded) => {
                let mut recorded = recorded.borrow_mut();
                let Some(line) = recorded.answer(case.name, &h) else {
                    failures.push(recorded.not_recorded(case.name));
                    continue;
                };
                line["applied"].as_bool().expect("applied")
            }
        };
        // agent-lsp: the project and the global config folder.
        let global = home.xdg_config.join("opencode");
        let options = Options {
            home: Some(home.home.clone()),
            ..Options::isolated()
        }
        .with(agent_lsp::analysis::opencode::user::GLOBAL_DIR, global.clone());
        let mut roots = vec![proj.clone()];
        if global.is_dir() {
            roots.push(global.clone());
        }
        let mut ws = Workspace::load(&roots, &options).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        ws.refresh_cross();
        let mut ours: Vec<String> = Vec::new();
        for (rel, _) in &case.files {
            let path = dir.join(rel);
            if !rel.ends_with(".json") {
                continue;
            }
            let Some(id) = ws.id(&path) else {
                failures.push(format!("{} {rel}: agent-lsp does not read it", case.name));
                continue;
            };
            let is_tui = ws.files[id].kind.is_tui();
            for d in ws.file_diagnostics(id) {
                if d.severity == Severity::Error || is_tui {
                    ours.push(format!("{rel}: {} {}", d.code.as_str(), d.message));
                }
            }
        }
        if applied != ours.is_empty() {
            failures.push(format!(
                "{}: opencode {} the theme; agent-lsp: {ours:?}",
                case.name,
                if applied { "applies" } else { "does not apply" }
            ));
        }
        eprintln!(
            "theme {:<28} {}",
            case.name,
            if applied { "applied" } else { "default theme" }
        );
    }
    (cases.len(), failures, recording)
}
