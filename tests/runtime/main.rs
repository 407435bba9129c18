//! The runtime is the judge: agent-lsp against the released opencode 1.18.34.
//!
//! For every workspace below, opencode (`opencode serve --pure`, one process per home, asked
//! `GET /agent?directory=P` for each project directory P) and agent-lsp (`explain --format
//! json`, `check --format json`, run as the binary users run, in the same empty home) must agree:
//!
//! - **Refusals:** opencode refuses to load the configuration in P if and only if agent-lsp
//!   reports a diagnostic whose effect is `refuses-to-start` in a file opencode loads in P.
//! - **Agents:** the same agent names, and for each agent the same mode, native, hidden,
//!   description, model, variant, temperature, top_p, color, steps, options (as JSON values) and
//!   permission rules (permission, pattern, action), rule by rule in evaluation order.
//! - **Skills:** opencode's skills (`GET /skill?directory=P`, built-ins aside) are those agent-lsp
//!   says opencode loads in P (each `SKILL.md` read as opencode reads it: the skill's
//!   `SkillDecl::runtimes`), with the same names, files and descriptions; and a skill opencode
//!   loads gets no error that it is skipped (`file-ignored`) unless agent-lsp says another
//!   runtime that loads it there skips it.
//!
//! Workspaces: `test-workspace/`, the public corpus (`../shared/corpus/`, each repository laid
//! out at its files' real paths; a repository laid out as a global config directory is checked
//! as the global directory, which is how such repositories are used), and the generated cases
//! of `cases.rs`. The test prints a table of agreement per workspace and fails on any
//! disagreement that `ALLOWED` does not list with its reason.
//!
//! `config_fuzz.rs` is a second test of this target: generated `opencode.json` files, each judged
//! by opencode's `GET /config` (see its module docs).
//! `tui.rs` makes opencode's terminal interface the judge of `tui.json` the same way (its own
//! test below), and `themes.rs` of custom themes and the `theme` a `tui.json` chooses.
//!
//! The live tests need the runtime: `tests/runtime/run.sh` installs it from npm (pinned in
//! `tests/runtime/package.json`) and runs them (`--ignored`) with `OPENCODE_BIN` set.
//!
//! **Recorded verdicts.** Each live test also writes down what opencode answered, in
//! `tests/verdicts/` (the format: `tests/verdict_support/mod.rs`; one JSON line per case, with the
//! hash of its input): `opencode-agents.jsonl` (this test: per start directory, opencode's refusal
//! and why, or each agent's compared fields and the skills; per global layout that stops
//! opencode, why), `opencode-config.jsonl` (`config_fuzz.rs`), `opencode-tui.jsonl` (`tui.rs`),
//! `opencode-themes.jsonl` (`themes.rs`) and `opencode-policy.jsonl` (`policy.rs`). A recording keeps only what the comparison reads,
//! and no path of the run: `<root>` is the workspace, `<home>` its home, `<tmp>` the run's
//! temporary directory, `<TMPDIR>` the system's (see [`Norm`]); a run of permission rules that
//! every agent of a directory has is written once (see [`factor_rules`]). With
//! `RECORD_VERDICTS=1` the live tests write these files; without it they fail when opencode's
//! answers are no longer the recorded ones (so CI, running them, proves the recordings current).
//! The live tests judge opencode's answer as read back from its record, so what is recorded is
//! all the judgement reads.
//!
//! **Replays.** The tests that are not ignored (plain `cargo test --test runtime`; no opencode,
//! node or network, about 15 s in a debug build) read those files, lay out the same inputs,
//! require each to hash as recorded, run agent-lsp's side exactly as the live tests do, and
//! compare it with the recorded answers through the same functions and allow-lists: live and
//! replay differ only in where opencode's answer comes from (the [`Opencode`] trait here,
//! [`Source`] in `tui.rs` and `policy.rs`, `Answer::from_record` in `config_fuzz.rs`). A start
//! directory agent-lsp no longer finds, or one it finds that was never asked about, fails the
//! replay: rerun `RECORD_VERDICTS=1 tests/runtime/run.sh`. opencode writes into the files it
//! reads (a `$schema` line, `.opencode/.gitignore`): the live test puts the workspace back as
//! laid out after each answer, so that agent-lsp reads what the replay lays out.

mod cases;
mod config_fuzz;
mod instructions;
#[path = "../mock_support/mod.rs"]
mod mock_support;
mod oracle;
mod policy;
mod themes;
mod tui;
#[path = "../verdict_support/mod.rs"]
mod verdict_support;

use agent_lsp::analysis::opencode::place::Place;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use agent_lsp::analysis::{Dialect, FileKind};
use agent_lsp::workspace::{Options, Role, Workspace};
use oracle::{Home, Server, Skill};
use serde_json::{Map, Value, json};
use verdict_support::{Recording, hash_files};

/// Disagreements that are understood and accepted: (workspace name prefix, agent name or `*`,
/// field, reason).
const ALLOWED: &[(&str, &str, &str, &str)] = &[
    (
        "gen/frontmatter-engines",
        "j",
        "mode",
        "a `---js` frontmatter is JavaScript that opencode's reader evaluates; agent-lsp never runs code from a file (it warns instead)",
    ),
    (
        "gen/frontmatter-engines",
        "j",
        "description",
        "a `---js` frontmatter is JavaScript that opencode's reader evaluates; agent-lsp never runs code from a file (it warns instead)",
    ),
];

/// One workspace to compare: a git repository, and for a global-config layout the directory
/// that becomes the global config directory.
struct Case {
    name: String,
    root: PathBuf,
    /// Files of the global config directory (`$XDG_CONFIG_HOME/opencode`), relative to it.
    global: Option<PathBuf>,
    /// The files and folders as laid out (`.git` aside), to put back what opencode writes.
    layout: Layout,
    /// The hash of the files as laid out (`project/PATH`, `global/PATH`): the recorded input.
    h: String,
}

impl Case {
    /// A case laid out at `root` (and `global`): its files are read now.
    fn new(name: String, root: PathBuf, global: Option<PathBuf>) -> Case {
        let layout = Layout::of([Some(&root), global.as_ref()].into_iter().flatten());
        let named: Vec<(String, &[u8])> = layout
            .files
            .iter()
            .map(|(path, bytes)| {
                let (prefix, rel) = match (path.strip_prefix(&root), &global) {
                    (Ok(rel), _) => ("project", rel),
                    (Err(_), Some(g)) => ("global", path.strip_prefix(g).unwrap()),
                    (Err(_), None) => unreachable!(),
                };
                (format!("{prefix}/{}", rel.to_string_lossy()), bytes.as_slice())
            })
            .collect();
        let h = hash_files(named.iter().map(|(n, b)| (n.as_str(), *b)));
        Case {
            name,
            root,
            global,
            layout,
            h,
        }
    }
}

/// Files (with their bytes) and folders under some roots, `.git` left out: what was laid out,
/// to be put back after opencode wrote into it.
struct Layout {
    roots: Vec<PathBuf>,
    files: BTreeMap<PathBuf, Vec<u8>>,
    dirs: BTreeSet<PathBuf>,
}

impl Layout {
    fn of<'a>(roots: impl IntoIterator<Item = &'a PathBuf>) -> Layout {
        let mut layout = Layout {
            roots: roots.into_iter().cloned().collect(),
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
        };
        for r in layout.roots.clone() {
            layout.read(&r);
        }
        layout
    }

    fn read(&mut self, dir: &Path) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if e.file_name() == ".git" {
                continue;
            }
            if p.is_dir() {
                self.dirs.insert(p.clone());
                self.read(&p);
            } else {
                self.files.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }

    /// Put back the files as laid out: rewrite those changed, remove what was added.
    fn restore(&self) {
        let now = Layout::of(&self.roots);
        for path in now.files.keys().filter(|p| !self.files.contains_key(*p)) {
            fs::remove_file(path).unwrap();
        }
        for dir in now.dirs.iter().rev().filter(|d| !self.dirs.contains(*d)) {
            let _ = fs::remove_dir(dir);
        }
        for (path, bytes) in &self.files {
            if now.files.get(path) != Some(bytes) {
                fs::write(path, bytes).unwrap();
            }
        }
    }
}

fn agent_lsp() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_agent-lsp"))
}

fn git_init(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let ok = Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "git init in {}", dir.display());
}

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, bytes).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            fs::copy(&p, &dest).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// agent-lsp's side

/// agent-lsp's options for a home (what `Options::from_env` resolves in that environment).
fn options(home: &Home) -> Options {
    use agent_lsp::analysis::opencode::user::{GLOBAL_DIR, HOME_DOT_OPENCODE};
    Options {
        home: Some(home.home.clone()),
        ..Options::default()
    }
    .with(GLOBAL_DIR, home.xdg_config.join("opencode"))
    .with(HOME_DOT_OPENCODE, home.home.join(".opencode"))
    .with(
        agent_lsp::analysis::zuno::discover::GLOBAL,
        home.xdg_config.join("zuno"),
    )
}

fn run_json(home: &Home, args: &[&str]) -> Value {
    let out = home.command(&agent_lsp()).args(args).output().expect("run agent-lsp");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "agent-lsp {args:?}: not JSON ({e}); status {:?}\nstdout: {stdout}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Every agent agent-lsp builds for a start directory, as `explain NAME --format json` prints it.
fn our_agents(home: &Home, dir: &Path) -> Vec<Value> {
    let d = dir.to_string_lossy();
    let list = run_json(home, &["explain", "--root", &d, "--format", "json"]);
    list.as_array()
        .expect("explain list")
        .iter()
        .map(|a| {
            let key = a["key"].as_str().expect("key");
            // One entry per dialect that has an agent of that name: opencode's.
            let v = run_json(
                home,
                &[
                    "explain",
                    key,
                    "--root",
                    &d,
                    "--dialect",
                    "opencode",
                    "--format",
                    "json",
                ],
            );
            v.as_array().and_then(|l| l.first()).cloned().unwrap_or(v)
        })
        .collect()
}

/// What `check --format json` reports that the runtime can confirm, per path (canonical).
#[derive(Default)]
struct Findings {
    /// The diagnostics whose effect is `refuses-to-start`.
    refusing: BTreeMap<PathBuf, Vec<String>>,
    /// The errors whose effect is `file-ignored` (a skill, an agent skipped).
    skipping: BTreeMap<PathBuf, Vec<String>>,
    /// The agents `undescribed-subagent` names (the first quoted name of its message).
    undescribed: BTreeMap<PathBuf, Vec<String>>,
    /// The files whose frontmatter agent-lsp says opencode may not read as settings (a
    /// `syntax-error`, `duplicate-key`, `no-frontmatter` or `misplaced-frontmatter` on them):
    /// their agents' missing description is that finding's.
    unread: BTreeSet<PathBuf>,
}

/// The findings of `check --format json` on `root`.
fn findings(home: &Home, root: &Path) -> Findings {
    let report = run_json(home, &["check", "--format", "json", &root.to_string_lossy()]);
    let mut out = Findings::default();
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        // The file, canonical.
        let at = || {
            let path = PathBuf::from(d["path"].as_str().unwrap_or_default());
            let path = if path.is_absolute() { path } else { root.join(path) };
            fs::canonicalize(&path).unwrap_or(path)
        };
        if d["code"] == "undescribed-subagent" {
            let name = d["message"]
                .as_str()
                .unwrap_or_default()
                .split('"')
                .nth(1)
                .unwrap_or_default();
            out.undescribed.entry(at()).or_default().push(name.to_string());
            continue;
        }
        let code = d["code"].as_str().unwrap_or_default();
        if [
            "syntax-error",
            "duplicate-key",
            "no-frontmatter",
            "misplaced-frontmatter",
        ]
        .contains(&code)
        {
            out.unread.insert(at());
        }
        let list = if d["effect"] == "refuses-to-start" {
            &mut out.refusing
        } else if d["effect"] == "file-ignored" && d["severity"] == "error" {
            &mut out.skipping
        } else {
            continue;
        };
        list.entry(at()).or_default().push(format!(
            "{} {}:{}",
            d["code"].as_str().unwrap_or_default(),
            d["range"]["start"]["line"],
            d["range"]["start"]["column"]
        ));
    }
    out
}

/// A skill agent-lsp says opencode loads in a project directory.
struct OurSkill {
    /// Its `SKILL.md` (canonical).
    path: PathBuf,
    description: Option<String>,
    /// agent-lsp says another runtime that loads skills at its place skips it (so an error that
    /// it is skipped can be right).
    skipped_by_another: bool,
}

/// The skills agent-lsp says opencode loads when started in `project`, by name: the `SKILL.md`
/// files of the project's and its ancestors' skill folders, each as opencode reads it.
fn our_skills(ws: &Workspace, project: &Path) -> BTreeMap<String, Vec<OurSkill>> {
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out: BTreeMap<String, Vec<OurSkill>> = BTreeMap::new();
    for f in ws.files.iter().filter(|f| f.live) {
        let (Role::Skill { dir }, FileKind::Skill(kind), Some(decl)) = (&f.role, &f.kind, f.analysis.skill()) else {
            continue;
        };
        if !kind.loaders.contains(&Dialect::Opencode) || !project.starts_with(canon(dir)) {
            continue;
        }
        let Some(oc) = decl.runtimes.iter().find(|r| r.runtime == Dialect::Opencode) else {
            continue;
        };
        if oc.loads != Some(true) {
            continue;
        }
        out.entry(oc.name.clone().unwrap_or_default())
            .or_default()
            .push(OurSkill {
                path: canon(&f.path),
                description: oc.description.clone(),
                skipped_by_another: decl
                    .runtimes
                    .iter()
                    .any(|r| r.runtime != Dialect::Opencode && r.loads == Some(false)),
            });
    }
    out
}

// ---------------------------------------------------------------------------------------------
// opencode's side: asked live, or read from the recording

const AGENTS_RECORDING: &str = "opencode-agents";
const JUDGE: &str = "opencode 1.18.34 (opencode-linux-x64 from npm), opencode serve --pure";
const REGENERATE: &str = "RECORD_VERDICTS=1 tests/runtime/run.sh";

/// The paths of a run that differ between machines and runs, and their placeholders in a
/// recording: the run's temporary directory (`<tmp>`: every workspace and home is laid out in
/// it), the system's (`<TMPDIR>`: opencode allows `$TMPDIR/opencode/*`), and the places of a
/// case ([`Norm::with`]: `<root>`, `<home>`, `<dir>`).
pub(crate) struct Norm {
    /// (placeholder, path), replaced in this order when recording, in the reverse order back.
    pairs: Vec<(String, String)>,
}

impl Norm {
    pub(crate) fn new(tmp: &Path) -> Norm {
        let temp_dir = std::env::temp_dir();
        let temp_dir = temp_dir.to_string_lossy();
        Norm {
            pairs: vec![
                ("<tmp>".into(), tmp.to_string_lossy().into_owned()),
                (
                    "<TMPDIR>/opencode/".into(),
                    format!("{}/opencode/", temp_dir.trim_end_matches('/')),
                ),
            ],
        }
    }

    /// This norm with `path` (inside the run's temporary directory) written `placeholder`.
    pub(crate) fn with(mut self, placeholder: &str, path: &Path) -> Norm {
        self.pairs
            .insert(0, (placeholder.into(), path.to_string_lossy().into_owned()));
        self
    }

    /// A value as recorded: this run's paths replaced by their placeholders.
    pub(crate) fn record(&self, v: &Value) -> Value {
        let mut text = v.to_string();
        for (placeholder, path) in &self.pairs {
            text = text.replace(path.as_str(), placeholder);
        }
        serde_json::from_str(&text).expect("JSON with placeholders")
    }

    /// A recorded value with this run's paths.
    pub(crate) fn this_run(&self, v: &Value) -> Value {
        let mut text = v.to_string();
        for (placeholder, path) in self.pairs.iter().rev() {
            text = text.replace(placeholder.as_str(), path);
        }
        serde_json::from_str(&text).expect("JSON with paths")
    }
}

/// The norm of a case: its root is `<root>`, its home `<home>`.
fn case_norm(tmp: &Path, case: &Case, home: &Home) -> Norm {
    Norm::new(tmp).with("<home>", &home.home).with("<root>", &case.root)
}

/// The fields of opencode's agents that `compare_agent` reads (one absent reads as null).
const AGENT_FIELDS: &[&str] = &[
    "mode",
    "native",
    "hidden",
    "description",
    "model",
    "variant",
    "temperature",
    "topP",
    "color",
    "steps",
    "options",
    "permission",
];

/// What opencode says in one start directory, as recorded: `{"refused": why}`, or `{"agents":
/// {NAME: fields}, "rules": {"@N": rules}, "skills": {NAME: {"description", "file"}}}`. The
/// fields are those of [`AGENT_FIELDS`] that are not null; each permission rule is `[permission,
/// pattern, action]`, each run of [`adjacent_runs_sorted`] sorted (their order there is the file
/// system's), and a run of rules that every agent has is written once in `rules` and `"@N"` in
/// the agents' lists (see [`factor_rules`]). The skills are those of `GET /skill` but the
/// built-in ones, one per name (`skills` is absent when that request fails).
fn ask_opencode(server: &Server, dir: &Path, norm: &Norm) -> Value {
    let (status, agents) = server.ask("/agent", dir);
    let agents = norm.record(&agents);
    let Some(list) = agents.as_array().filter(|_| status == 200) else {
        return json!({ "refused": oracle::describe_error(&agents) });
    };
    let mut by_name: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for a in list {
        let mut fields = Map::new();
        for &k in AGENT_FIELDS {
            match a.get(k) {
                None | Some(Value::Null) => {}
                Some(rules) if k == "permission" => {
                    let rules = adjacent_runs_sorted(permission_rules(rules));
                    fields.insert(
                        k.into(),
                        rules.into_iter().map(|(p, pat, act)| json!([p, pat, act])).collect(),
                    );
                }
                Some(v) => {
                    fields.insert(k.into(), v.clone());
                }
            }
        }
        by_name.insert(a["name"].as_str().unwrap_or_default().into(), fields);
    }
    let with_rules: Vec<String> = by_name
        .iter()
        .filter(|(_, f)| f.get("permission").is_some_and(Value::is_array))
        .map(|(n, _)| n.clone())
        .collect();
    let mut lists: Vec<Vec<Value>> = with_rules
        .iter()
        .map(|n| match by_name.get_mut(n).unwrap().remove("permission") {
            Some(Value::Array(rules)) => rules,
            _ => unreachable!(),
        })
        .collect();
    let blocks = factor_rules(&mut lists);
    for (n, rules) in with_rules.iter().zip(lists) {
        by_name
            .get_mut(n)
            .unwrap()
            .insert("permission".into(), Value::Array(rules));
    }
    let mut answer = json!({ "agents": by_name });
    if !blocks.is_empty() {
        answer["rules"] = Value::Object(blocks);
    }
    if let Some(skills) = server.skills(dir) {
        let by_name: Map<String, Value> = skills
            .into_iter()
            .map(|s| {
                let mut v = json!({ "file": s.location });
                if let Some(d) = s.description {
                    v["description"] = json!(d);
                }
                (s.name, v)
            })
            .collect();
        answer["skills"] = norm.record(&Value::Object(by_name));
    }
    answer
}

/// Factor out of rule lists (rules as arrays) the runs of rules that all of them have: the
/// longest such run (the first of the shortest list) becomes `"@1"` wherever it occurs, then the
/// longest of what is left `"@2"`, and so on. Returns the runs by name.
fn factor_rules(lists: &mut [Vec<Value>]) -> Map<String, Value> {
    let mut blocks = Map::new();
    if lists.len() < 2 {
        return blocks;
    }
    let occurs = |list: &[Value], run: &[Value]| list.windows(run.len()).any(|w| w == run);
    loop {
        let base = lists.iter().min_by_key(|l| l.len()).unwrap().clone();
        let mut best: Option<&[Value]> = None;
        for i in 0..base.len() {
            for j in (i + 1..=base.len()).rev() {
                if best.is_some_and(|b| j - i <= b.len()) {
                    break;
                }
                let run = &base[i..j];
                if run.iter().all(Value::is_array) && lists.iter().all(|l| occurs(l, run)) {
                    best = Some(run);
                    break;
                }
            }
        }
        let Some(run) = best else { break };
        let name = format!("@{}", blocks.len() + 1);
        for list in lists.iter_mut() {
            let mut out = Vec::new();
            let mut k = 0;
            while k < list.len() {
                if list[k..].starts_with(run) {
                    out.push(json!(name));
                    k += run.len();
                } else {
                    out.push(list[k].clone());
                    k += 1;
                }
            }
            *list = out;
        }
        blocks.insert(name, Value::Array(run.to_vec()));
    }
    blocks
}

/// What opencode says in one start directory, read back from its record (with this run's paths).
struct Theirs {
    /// It refuses the configuration there: its error, in a line.
    refused: Option<String>,
    /// The agents it builds, as `GET /agent` gives them (the fields compared).
    agents: Vec<Value>,
    /// The skills it loads (built-in ones aside); `None` when it refuses.
    skills: Option<Vec<Skill>>,
}

impl Theirs {
    fn from_record(record: &Value, norm: &Norm) -> Theirs {
        let v = norm.this_run(record);
        if let Some(why) = v.get("refused") {
            return Theirs {
                refused: Some(why.as_str().unwrap_or_default().to_string()),
                agents: Vec::new(),
                skills: None,
            };
        }
        let agents = v["agents"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, fields)| {
                let mut a = fields.clone();
                a["name"] = json!(name);
                if let Some(rules) = fields.get("permission").and_then(Value::as_array) {
                    a["permission"] = rules
                        .iter()
                        .flat_map(|r| match r.as_str() {
                            Some(block) => v["rules"][block].as_array().expect("a recorded run of rules").clone(),
                            None => vec![r.clone()],
                        })
                        .map(|r| json!({"permission": r[0], "pattern": r[1], "action": r[2]}))
                        .collect();
                }
                a
            })
            .collect();
        let skills = v.get("skills").and_then(Value::as_object).map(|m| {
            m.iter()
                .map(|(name, s)| Skill {
                    name: name.clone(),
                    description: s.get("description").and_then(Value::as_str).map(str::to_string),
                    location: PathBuf::from(s["file"].as_str().unwrap_or_default()),
                })
                .collect()
        });
        Theirs {
            refused: None,
            agents,
            skills,
        }
    }
}

/// Where opencode's answers come from: the running release ([`Live`], which records them as they
/// come) or the recording ([`Replay`]).
trait Opencode {
    /// opencode started in `cwd` with `home`. For a workspace with a global layer (`case`): `Err`
    /// with what it printed when it refuses to start. The shared server must start.
    fn start(&mut self, home: &Home, cwd: &Path, case: Option<&Case>) -> Result<(), String>;
    /// What it says in the start directory `dir` of `case` (`label` names both); `None` when
    /// there is no recorded answer for it.
    fn answer(&mut self, case: &Case, home: &Home, label: &str, dir: &Path) -> Option<Theirs>;
}

/// The released opencode, asked over HTTP.
struct Live {
    bin: PathBuf,
    tmp: PathBuf,
    server: Option<Server>,
    recording: Recording,
}

impl Opencode for Live {
    fn start(&mut self, home: &Home, cwd: &Path, case: Option<&Case>) -> Result<(), String> {
        self.server = None;
        let started = Server::start(&self.bin, home, cwd);
        if let Some(case) = case {
            case.layout.restore();
        }
        match started {
            Ok(server) => {
                self.server = Some(server);
                Ok(())
            }
            Err(why) => {
                if let Some(case) = case {
                    let why = case_norm(&self.tmp, case, home).record(&json!(why));
                    self.recording
                        .push(&case.name, &case.h, json!({ "start_refused": why }));
                }
                Err(why)
            }
        }
    }

    fn answer(&mut self, case: &Case, home: &Home, label: &str, dir: &Path) -> Option<Theirs> {
        if std::env::var_os("RUNTIME_TRACE").is_some() {
            eprintln!("asking opencode: {label}");
        }
        let server = self.server.as_ref().expect("opencode started");
        let norm = case_norm(&self.tmp, case, home);
        let record = ask_opencode(server, dir, &norm);
        case.layout.restore();
        self.recording.push(label, &case.h, record.clone());
        // Judged from the record, as the replay judges: what is recorded is all that is judged.
        Some(Theirs::from_record(&record, &norm))
    }
}

/// opencode's recorded answers.
struct Replay {
    recorded: verdict_support::Replay,
    tmp: PathBuf,
}

impl Replay {
    fn new(tmp: &Path) -> Replay {
        Replay {
            recorded: verdict_support::Replay::load(AGENTS_RECORDING),
            tmp: tmp.to_path_buf(),
        }
    }

    /// The recorded line `id` of `case` (its input must hash as recorded).
    fn line(&mut self, id: &str, case: &Case) -> Option<Value> {
        self.recorded.answer(id, &case.h).cloned()
    }
}

impl Opencode for Replay {
    fn start(&mut self, home: &Home, _: &Path, case: Option<&Case>) -> Result<(), String> {
        let Some(case) = case else { return Ok(()) };
        let refused = self
            .recorded
            .recording
            .get(&case.name)
            .is_some_and(|l| l.get("start_refused").is_some());
        match refused.then(|| self.line(&case.name, case)).flatten() {
            Some(line) => {
                let why = case_norm(&self.tmp, case, home).this_run(&line["start_refused"]);
                Err(why.as_str().unwrap_or_default().to_string())
            }
            None => Ok(()),
        }
    }

    fn answer(&mut self, case: &Case, home: &Home, label: &str, _: &Path) -> Option<Theirs> {
        let line = self.line(label, case)?;
        let norm = case_norm(&self.tmp, case, home);
        (line.get("start_refused").is_none()).then(|| Theirs::from_record(&line, &norm))
    }
}

// ---------------------------------------------------------------------------------------------
// Comparison

fn num_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| num_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| num_eq(v, w)))
        }
        _ => a == b,
    }
}

fn or_null(v: Option<&Value>) -> Value {
    v.cloned().unwrap_or(Value::Null)
}

/// The fields on which the two agents differ: (field, ours, theirs).
fn compare_agent(ours: &Value, theirs: &Value) -> Vec<(String, String, String)> {
    let mut diffs = Vec::new();
    let mut field = |name: &str, a: Value, b: Value| {
        if !num_eq(&a, &b) {
            diffs.push((name.to_string(), a.to_string(), b.to_string()));
        }
    };
    field("mode", ours["mode"].clone(), theirs["mode"].clone());
    field(
        "native",
        ours["native"].clone(),
        or_null(theirs.get("native")).as_bool().unwrap_or(false).into(),
    );
    field(
        "hidden",
        ours["hidden"].clone(),
        or_null(theirs.get("hidden")).as_bool().unwrap_or(false).into(),
    );
    field(
        "description",
        ours["description"].clone(),
        or_null(theirs.get("description")),
    );
    let model = ours["model"].as_str().map(|m| {
        let (p, rest) = m.split_once('/').unwrap_or((m, ""));
        serde_json::json!({"providerID": p, "modelID": rest})
    });
    field("model", model.unwrap_or(Value::Null), or_null(theirs.get("model")));
    field("variant", ours["variant"].clone(), or_null(theirs.get("variant")));
    field(
        "temperature",
        ours["temperature"].clone(),
        or_null(theirs.get("temperature")),
    );
    field("top_p", ours["top_p"].clone(), or_null(theirs.get("topP")));
    field("color", ours["color"].clone(), or_null(theirs.get("color")));
    field("steps", ours["steps"].clone(), or_null(theirs.get("steps")));
    field("options", ours["options"].clone(), or_null(theirs.get("options")));
    let (a, b) = (
        adjacent_runs_sorted(permission_rules(&ours["permission"])),
        adjacent_runs_sorted(permission_rules(&theirs["permission"])),
    );
    if a != b {
        let first = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)).unwrap_or(0);
        let show = |r: Option<&(String, String, String)>| match r {
            Some((p, pat, act)) => format!("#{first} {p} {pat:?} {act}"),
            None => format!("#{first} (none)"),
        };
        diffs.push((
            "permission".into(),
            format!("{} rules, {}", a.len(), show(a.get(first))),
            format!("{} rules, {}", b.len(), show(b.get(first))),
        ));
    }
    diffs
}

/// An agent's permission rules: (permission, pattern, action), in evaluation order.
fn permission_rules(v: &Value) -> Vec<(String, String, String)> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (s("permission"), s("pattern"), s("action"))
        })
        .collect()
}

/// Rules next to each other with the same permission and action can be reordered without
/// changing any decision (whichever of them matches last gives the same action), so each such
/// run is compared as a sorted list. The runtime's order within a run depends on the file
/// system in one place: the skill directories of the `external_directory` whitelist.
fn adjacent_runs_sorted(mut rules: Vec<(String, String, String)>) -> Vec<(String, String, String)> {
    let mut start = 0;
    while start < rules.len() {
        let mut end = start + 1;
        while end < rules.len() && rules[end].0 == rules[start].0 && rules[end].2 == rules[start].2 {
            end += 1;
        }
        rules[start..end].sort();
        start = end;
    }
    rules
}

#[derive(Default)]
struct Tally {
    rows: Vec<String>,
    disagreements: Vec<String>,
    allowed: Vec<String>,
    agents: usize,
    agents_agreeing: usize,
    skills: usize,
    skills_agreeing: usize,
    projects: usize,
    projects_agreeing: usize,
    /// Subagents opencode lists without a description (each must be reported).
    undescribed: usize,
}

/// The reason an allow-list entry gives for this disagreement; the entry is marked used.
fn allowed(workspace: &str, agent: &str, field: &str) -> Option<&'static str> {
    let i = ALLOWED
        .iter()
        .position(|(w, a, f, _)| workspace.starts_with(w) && (*a == "*" || *a == agent) && *f == field)?;
    USED.with(|u| u.borrow_mut().insert(i));
    Some(ALLOWED[i].3)
}

thread_local! {
    /// Allow-list entries that matched a disagreement in this run.
    static USED: std::cell::RefCell<BTreeSet<usize>> = const { std::cell::RefCell::new(BTreeSet::new()) };
}

/// Compare one start directory.
#[allow(clippy::too_many_arguments)]
fn compare_project(
    tally: &mut Tally,
    label: &str,
    theirs: &Theirs,
    home: &Home,
    dir: &Path,
    view: &BTreeSet<PathBuf>,
    found: &Findings,
    skills: &BTreeMap<String, Vec<OurSkill>>,
) {
    let refusing = &found.refusing;
    let mut problems: Vec<(String, String, String)> = Vec::new();
    let mut note = |agent: &str, field: &str, text: String| {
        problems.push((agent.to_string(), field.to_string(), text));
    };
    let predicted: Vec<String> = refusing
        .iter()
        .filter(|(p, _)| view.contains(*p))
        .flat_map(|(p, ds)| {
            ds.iter()
                .map(move |d| format!("{} {d}", p.file_name().unwrap_or_default().to_string_lossy()))
        })
        .collect();
    let (n_ours, n_theirs, n_agree);
    let skills_before = (tally.skills, tally.skills_agreeing);
    match &theirs.refused {
        Some(why) => {
            if predicted.is_empty() {
                note(
                    "*",
                    "refusal",
                    format!("opencode refuses ({why}); agent-lsp reports no refusal"),
                );
            }
            (n_ours, n_theirs, n_agree) = (0, 0, 0);
        }
        None => {
            if !predicted.is_empty() {
                note(
                    "*",
                    "refusal",
                    format!(
                        "opencode loads it; agent-lsp predicts a refusal: {}",
                        predicted.join(", ")
                    ),
                );
            }
            let ours = our_agents(home, dir);
            let by_name = |v: &[Value]| -> BTreeMap<String, Value> {
                v.iter()
                    .map(|a| (a["name"].as_str().unwrap_or_default().to_string(), a.clone()))
                    .collect()
            };
            let (o, t) = (by_name(&ours), by_name(&theirs.agents));
            n_ours = o.len();
            n_theirs = t.len();
            let mut agree = 0;
            for name in o.keys().chain(t.keys()).collect::<BTreeSet<_>>() {
                match (o.get(name), t.get(name)) {
                    (Some(a), Some(b)) => {
                        let diffs = compare_agent(a, b);
                        if diffs.is_empty() {
                            agree += 1;
                        }
                        for (f, x, y) in diffs {
                            note(name, &f, format!("agent-lsp {x} | opencode {y}"));
                        }
                    }
                    (Some(_), None) => note(name, "exists", "agent-lsp has it, opencode does not".into()),
                    (None, Some(_)) => note(name, "exists", "opencode has it, agent-lsp does not".into()),
                    (None, None) => {}
                }
            }
            n_agree = agree;
            // The subagents the Task tool lists without a description (mode not `primary`,
            // hidden ones included; opencode lists them as "This subagent should only be called
            // manually by the user.", or by name alone when the description is blank) are those
            // `undescribed-subagent` names in the files of the view.
            // An agent of a file whose frontmatter is not read is that finding's.
            let unread = |name: &str| {
                let stem = name.rsplit('/').next().unwrap_or(name);
                found
                    .unread
                    .iter()
                    .any(|p| view.contains(p) && p.file_stem().is_some_and(|s| s.to_string_lossy() == stem))
            };
            let undescribed_theirs: BTreeSet<&String> = t
                .iter()
                .filter(|(name, a)| {
                    a["mode"] != "primary"
                        && a.get("description")
                            .and_then(Value::as_str)
                            .is_none_or(|d| d.trim().is_empty())
                        && !unread(name)
                })
                .map(|(name, _)| name)
                .collect();
            let undescribed_ours: BTreeSet<&String> = found
                .undescribed
                .iter()
                .filter(|(p, _)| view.contains(*p))
                .flat_map(|(_, names)| names)
                .collect();
            for name in undescribed_theirs.symmetric_difference(&undescribed_ours) {
                let (says, does) = if undescribed_ours.contains(name) {
                    ("reports", "lists it with a description")
                } else {
                    ("does not report", "lists it without one")
                };
                note(
                    name,
                    "undescribed-subagent",
                    format!("agent-lsp {says} it | opencode's Task tool {does}"),
                );
            }
            tally.undescribed += undescribed_theirs.len();
            compare_skills(tally, theirs.skills.as_deref(), skills, &found.skipping, &mut note);
        }
    }
    tally.projects += 1;
    tally.agents += n_theirs.max(n_ours);
    tally.agents_agreeing += n_agree;
    let mut open = 0;
    for (agent, field, text) in problems {
        let line = format!("{label}: {agent}: {field}: {text}");
        match allowed(label, &agent, &field) {
            Some(why) => tally.allowed.push(format!("{line}\n      allowed: {why}")),
            None => {
                open += 1;
                tally.disagreements.push(line);
            }
        }
    }
    if open == 0 {
        tally.projects_agreeing += 1;
    }
    let skills = format!(
        "{}/{}",
        tally.skills_agreeing - skills_before.1,
        tally.skills - skills_before.0
    );
    tally.rows.push(format!(
        "{label:<70} {:>5} {:>5} {:>6} {skills:>7} {:>5}",
        n_ours,
        n_theirs,
        n_agree,
        if open == 0 {
            "yes".to_string()
        } else {
            format!("{open} no")
        }
    ));
}

/// Compare the skills opencode loads in a directory (`theirs`, none when it refuses) with those
/// agent-lsp says it loads (`ours`), and the errors agent-lsp reports on them (`skipping`: the
/// `file-ignored` errors per file).
fn compare_skills(
    tally: &mut Tally,
    theirs: Option<&[Skill]>,
    ours: &BTreeMap<String, Vec<OurSkill>>,
    skipping: &BTreeMap<PathBuf, Vec<String>>,
    note: &mut impl FnMut(&str, &str, String),
) {
    let Some(theirs) = theirs else { return };
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    // opencode keeps one skill of a name (which one is not deterministic).
    let theirs: BTreeMap<&str, &Skill> = theirs.iter().map(|s| (s.name.as_str(), s)).collect();
    let names: BTreeSet<&str> = ours.keys().map(String::as_str).chain(theirs.keys().copied()).collect();
    for name in names {
        let subject = format!("skill {name}");
        tally.skills += 1;
        match (ours.get(name), theirs.get(name)) {
            (Some(os), Some(t)) => {
                let location = canon(&t.location);
                let Some(o) = os.iter().find(|o| o.path == location) else {
                    note(
                        &subject,
                        "file",
                        format!("opencode reads {}, agent-lsp another file", location.display()),
                    );
                    continue;
                };
                let mut agree = true;
                if o.description != t.description {
                    agree = false;
                    note(
                        &subject,
                        "description",
                        format!("agent-lsp {:?} | opencode {:?}", o.description, t.description),
                    );
                }
                if let Some(errors) = skipping.get(&o.path).filter(|_| !o.skipped_by_another) {
                    agree = false;
                    note(
                        &subject,
                        "error",
                        format!(
                            "opencode loads it; agent-lsp reports that it is skipped: {}",
                            errors.join(", ")
                        ),
                    );
                }
                if agree {
                    tally.skills_agreeing += 1;
                }
            }
            (Some(os), None) => note(
                &subject,
                "exists",
                format!(
                    "agent-lsp says opencode loads {}; opencode does not",
                    os[0].path.display()
                ),
            ),
            (None, Some(t)) => {
                let location = canon(&t.location);
                let said = skipping
                    .get(&location)
                    .map(|e| format!(" (agent-lsp: {})", e.join(", ")));
                note(
                    &subject,
                    "exists",
                    format!(
                        "opencode loads {}; agent-lsp says it does not{}",
                        location.display(),
                        said.unwrap_or_default()
                    ),
                );
            }
            (None, None) => {}
        }
    }
}

/// Compare every project directory of a workspace (its views), or, for a global layout, the
/// empty start directory with that global directory.
fn compare_case(tally: &mut Tally, case: &Case, opencode: &mut dyn Opencode, home: &Home) {
    let opts = options(home);
    let mut roots = vec![case.root.clone()];
    if let Some(g) = &case.global {
        roots.push(g.clone());
    }
    let ws = Workspace::load(&roots, &opts).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let mut found = Findings::default();
    for r in &roots {
        let f = findings(home, r);
        found.refusing.extend(f.refusing);
        found.skipping.extend(f.skipping);
        found.undescribed.extend(f.undescribed);
        found.unread.extend(f.unread);
    }
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    // Project directories laid out like a global config directory are compared as the global
    // directory (see the module docs); opencode started in them does not read their agents.
    let layout_dirs: BTreeSet<PathBuf> = ws
        .files
        .iter()
        .filter_map(|f| match (f.kind.opencode(), Place::of(&f.role)) {
            (Some(_), Some((dir, Place::Markdown))) if !dir.ends_with(".opencode") => Some(canon(dir)),
            _ => None,
        })
        .filter(|d| case.global.as_ref().is_none_or(|g| canon(g) != *d))
        .collect();
    let mut projects: Vec<PathBuf> = agent_lsp::analysis::opencode::views::project_views(&ws)
        .into_iter()
        .map(|(p, _)| canon(&p))
        .filter(|p| !layout_dirs.contains(p) && p.starts_with(canon(&case.root)))
        .collect();
    if projects.is_empty() || case.global.is_some() {
        projects.push(canon(&case.root));
    }
    projects.sort();
    projects.dedup();
    for p in projects {
        let view: BTreeSet<PathBuf> = agent_lsp::analysis::opencode::views::view_for(&ws, &p)
            .iter()
            .map(|&id| canon(&ws.files[id].path))
            .collect();
        let rel = p
            .strip_prefix(canon(&case.root))
            .unwrap_or(&p)
            .to_string_lossy()
            .into_owned();
        let label = if rel.is_empty() {
            case.name.clone()
        } else {
            format!("{}:{rel}", case.name)
        };
        let skills = our_skills(&ws, &p);
        let Some(theirs) = opencode.answer(case, home, &label, &p) else {
            tally.projects += 1;
            tally.disagreements.push(format!(
                "{label}: no recorded answer of opencode's for this start directory (rerun with {REGENERATE})"
            ));
            continue;
        };
        compare_project(tally, &label, &theirs, home, &p, &view, &found, &skills);
    }
}

/// opencode refused to start at all (a bad global layer): agent-lsp must predict a refusal.
fn compare_start_refusal(tally: &mut Tally, case: &Case, home: &Home, why: &str) {
    let mut refusing = BTreeMap::new();
    refusing.extend(findings(home, &case.root).refusing);
    if let Some(g) = &case.global {
        refusing.extend(findings(home, g).refusing);
    }
    tally.projects += 1;
    let ok = !refusing.is_empty();
    let line = format!(
        "{}: *: refusal: opencode refuses to start ({why}); agent-lsp reports no refusal",
        case.name
    );
    if ok {
        tally.projects_agreeing += 1;
    } else if let Some(reason) = allowed(&case.name, "*", "refusal") {
        tally.allowed.push(format!("{line}\n      allowed: {reason}"));
    } else {
        tally.disagreements.push(line);
    }
    tally.rows.push(format!(
        "{:<70} {:>5} {:>5} {:>6} {:>7} {:>5}",
        case.name,
        "-",
        "-",
        "-",
        "-",
        if ok { "yes" } else { "1 no" }
    ));
}

// ---------------------------------------------------------------------------------------------
// Workspaces

struct Entry {
    kind: String,
    local_file: String,
    repo: String,
    path: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

fn manifest() -> Vec<Entry> {
    let text = fs::read_to_string(corpus_dir().join("MANIFEST.tsv")).expect("read MANIFEST.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                kind: f[0].into(),
                local_file: f[1].into(),
                repo: f[2].into(),
                path: f[3].into(),
            }
        })
        .collect()
}

/// The corpus, one workspace per repository. A repository whose agents sit in a top-level
/// `agent(s)/` folder (a published global config directory) becomes the global directory.
fn corpus_cases(tmp: &Path) -> (Vec<Case>, Vec<Case>) {
    let mut repos: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for e in manifest() {
        repos.entry(e.repo.clone()).or_default().push(e);
    }
    let (mut project, mut global) = (Vec::new(), Vec::new());
    for (repo, files) in repos {
        if !files.iter().any(|e| e.kind.starts_with('A') || e.kind.starts_with('B')) {
            continue;
        }
        let slug = repo.replace('/', "__");
        let is_global = files.iter().any(|e| {
            e.kind.starts_with('A')
                && ["agent/", "agents/", "mode/", "modes/"]
                    .iter()
                    .any(|p| e.path.starts_with(p))
        });
        let base = tmp.join("corpus").join(&slug);
        let (root, global_dir) = if is_global {
            (base.join("start"), Some(base.join("home/.config/opencode")))
        } else {
            (base.join("repo"), None)
        };
        git_init(&root);
        let dest = global_dir.as_deref().unwrap_or(&root);
        for e in &files {
            let bytes = fs::read(corpus_dir().join(&e.local_file)).unwrap();
            write(dest, &e.path, &bytes);
        }
        let case = Case::new(format!("corpus/{repo}"), root, global_dir);
        if is_global {
            global.push(case);
        } else {
            project.push(case);
        }
    }
    (project, global)
}

fn generated_cases(tmp: &Path) -> (Vec<Case>, Vec<Case>) {
    let (mut project, mut global) = (Vec::new(), Vec::new());
    for c in cases::CASES {
        let base = tmp.join("gen").join(c.name);
        let root = base.join("repo");
        git_init(&root);
        for (path, text) in c.files {
            write(&root, path, text.as_bytes());
        }
        let global_dir = (!c.global.is_empty()).then(|| base.join("home/.config/opencode"));
        if let Some(g) = &global_dir {
            for (path, text) in c.global {
                write(g, path, text.as_bytes());
            }
        }
        let case = Case::new(format!("gen/{}", c.name), root, global_dir);
        if case.global.is_some() {
            global.push(case);
        } else {
            project.push(case);
        }
    }
    (project, global)
}

/// Lay out every workspace in `tmp` and compare agent-lsp with `opencode` on each.
fn judge_workspaces(tmp: &Path, opencode: &mut dyn Opencode) -> Tally {
    // Project workspaces share one server and one empty home.
    let mut project_cases = Vec::new();
    let tw = tmp.join("test-workspace");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace"), &tw);
    git_init(&tw);
    project_cases.push(Case::new("test-workspace".into(), tw, None));
    let (corpus_project, corpus_global) = corpus_cases(tmp);
    let (gen_project, gen_global) = generated_cases(tmp);
    project_cases.extend(corpus_project);
    project_cases.extend(gen_project);

    let mut tally = Tally::default();
    let shared = Home::new(&tmp.join("shared-home"), None);
    // opencode creates this file on first start when there is none; create it first so that
    // both sides see the same global layer from the start.
    write(
        &shared.xdg_config,
        "opencode/opencode.jsonc",
        br#"{"$schema": "https://opencode.ai/config.json"}"#,
    );
    let shared_layer = Layout::of([&shared.xdg_config.join("opencode")]);
    opencode
        .start(&shared, tmp, None)
        .unwrap_or_else(|e| panic!("opencode serve: {e}"));
    for case in &project_cases {
        shared_layer.restore();
        compare_case(&mut tally, case, opencode, &shared);
    }
    // A global config directory is per process: one server each.
    for case in corpus_global.iter().chain(&gen_global) {
        // The global directory is `<base>/home/.config/opencode`.
        let g = case.global.as_ref().unwrap();
        let base = g.ancestors().nth(3).unwrap();
        let home = Home::new(base, None);
        match opencode.start(&home, &case.root, Some(case)) {
            Ok(()) => compare_case(&mut tally, case, opencode, &home),
            // opencode reads the global layer when it starts: a refusal there stops the server.
            Err(why) => compare_start_refusal(&mut tally, case, &home, &why),
        }
    }
    tally
}

/// Print the table and fail on any disagreement not allowed, on an allow-list entry that matched
/// nothing, and on `recording` (the differences between opencode's answers and the recording).
fn conclude(tally: &Tally, recording: &[String]) {
    eprintln!(
        "\n{:<70} {:>5} {:>5} {:>6} {:>7} {:>5}",
        "workspace[:project]", "ours", "oc", "agree", "skills", "ok"
    );
    for r in &tally.rows {
        eprintln!("{r}");
    }
    eprintln!(
        "\nprojects agreeing: {}/{}; agents agreeing on every field: {}/{}; skills: {}/{}; subagents listed without a description (each reported): {}",
        tally.projects_agreeing,
        tally.projects,
        tally.agents_agreeing,
        tally.agents,
        tally.skills_agreeing,
        tally.skills,
        tally.undescribed
    );
    if !tally.allowed.is_empty() {
        eprintln!("\nallowed disagreements ({}):", tally.allowed.len());
        for a in &tally.allowed {
            eprintln!("  {a}");
        }
    }
    // An entry that no longer matches anything is stale: the list must not rot.
    let stale: Vec<String> = (0..ALLOWED.len())
        .filter(|i| !USED.with(|u| u.borrow().contains(i)))
        .map(|i| format!("{} {} {}", ALLOWED[i].0, ALLOWED[i].1, ALLOWED[i].2))
        .collect();
    assert!(
        stale.is_empty(),
        "allow-list entries that match nothing any more: {stale:?}"
    );
    assert!(
        tally.disagreements.is_empty(),
        "{} disagreement(s) with opencode:\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n")
    );
    assert!(recording.is_empty(), "{}", recording.join("\n"));
}

fn opencode_bin() -> PathBuf {
    PathBuf::from(
        std::env::var_os("OPENCODE_BIN")
            .expect("set OPENCODE_BIN to the opencode 1.18.34 binary (tests/runtime/run.sh)"),
    )
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn agent_lsp_agrees_with_the_opencode_runtime() {
    let bin = opencode_bin();
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let mut live = Live {
        bin,
        tmp: tmp.clone(),
        server: None,
        recording: Recording::new(AGENTS_RECORDING, JUDGE, REGENERATE),
    };
    let tally = judge_workspaces(&tmp, &mut live);
    live.server = None;
    conclude(&tally, &live.recording.write_or_compare());
}

/// The replay of `agent_lsp_agrees_with_the_opencode_runtime`: opencode's answers are those of
/// `tests/verdicts/opencode-agents.jsonl`.
#[test]
fn agent_lsp_agrees_with_the_recorded_opencode_agents() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let mut replay = Replay::new(&tmp);
    let tally = judge_workspaces(&tmp, &mut replay);
    conclude(&tally, &replay.recorded.unasked());
}

/// Where opencode's answers come from in `policy.rs` and `tui.rs`: the binary, run (its answers
/// recorded), or the recording.
#[derive(Clone, Copy)]
enum Source<'a> {
    Live(&'a Path),
    Replay(&'a std::cell::RefCell<verdict_support::Replay>),
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn policy_counterexamples_are_decided_so_by_opencode() {
    let bin = opencode_bin();
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let (failures, recording) = policy::run(Source::Live(&bin), &tmp);
    let recorded = recording.write_or_compare();
    assert!(
        failures.is_empty(),
        "{} disagreement(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(recorded.is_empty(), "{}", recorded.join("\n"));
}

/// The replay of `policy_counterexamples_are_decided_so_by_opencode`.
#[test]
fn policy_counterexamples_are_decided_so_by_the_recorded_opencode() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let recorded = std::cell::RefCell::new(verdict_support::Replay::load("opencode-policy"));
    let (failures, _) = policy::run(Source::Replay(&recorded), &tmp);
    assert!(
        failures.is_empty(),
        "{} disagreement(s):\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn tui_json_is_judged_as_opencode_s_terminal_judges_it() {
    let bin = opencode_bin();
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let (cases, failures, recording) = tui::run(Source::Live(&bin), &tmp);
    let recorded = recording.write_or_compare();
    eprintln!("\ntui.json: {cases} cases, {} disagreement(s)", failures.len());
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with opencode's terminal interface:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(recorded.is_empty(), "{}", recorded.join("\n"));
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn themes_are_judged_as_opencode_s_terminal_draws_them() {
    let bin = opencode_bin();
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let (cases, failures, recording) = themes::run(Source::Live(&bin), &tmp);
    let recorded = recording.write_or_compare();
    eprintln!("\nthemes: {cases} cases, {} disagreement(s)", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(recorded.is_empty(), "{}", recorded.join("\n"));
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn instruction_files_are_read_as_opencode_reads_them() {
    let bin = opencode_bin();
    let (failures, recording) = instructions::run(Some(&bin));
    let recorded = recording.write_or_compare();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(recorded.is_empty(), "{}", recorded.join("\n"));
}

/// The replay of `instruction_files_are_read_as_opencode_reads_them`.
#[test]
fn instruction_files_are_read_as_the_recorded_opencode_read_them() {
    let (failures, _) = instructions::run(None);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The replay of `themes_are_judged_as_opencode_s_terminal_draws_them`.
#[test]
fn themes_are_judged_as_the_recorded_opencode_drew_them() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let recorded = std::cell::RefCell::new(verdict_support::Replay::load("opencode-themes"));
    let (cases, failures, _) = themes::run(Source::Replay(&recorded), &tmp);
    eprintln!("\nthemes: {cases} cases, {} disagreement(s)", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The replay of `tui_json_is_judged_as_opencode_s_terminal_judges_it`.
#[test]
fn tui_json_is_judged_as_the_recorded_opencode_judged_it() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let recorded = std::cell::RefCell::new(verdict_support::Replay::load("opencode-tui"));
    let (cases, failures, _) = tui::run(Source::Replay(&recorded), &tmp);
    eprintln!("\ntui.json: {cases} cases, {} disagreement(s)", failures.len());
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with the recorded terminal interface:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A recorded start directory's rule lists read back as they were: the runs factored out of them
/// expand to the same rules.
#[test]
fn factored_rules_read_back_as_they_were() {
    let r = |p: &str, pat: &str, a: &str| json!([p, pat, a]);
    let common = vec![r("*", "*", "allow"), r("read", "*.env", "ask")];
    let mut lists = vec![
        [common.clone(), vec![r("edit", "*", "deny")], common.clone()].concat(),
        [vec![r("bash", "*", "ask")], common.clone()].concat(),
        [common.clone(), vec![r("bash", "*", "ask")]].concat(),
    ];
    let before = lists.clone();
    let blocks = factor_rules(&mut lists);
    assert_eq!(blocks["@1"], json!(common));
    assert_eq!(lists[0], vec![json!("@1"), r("edit", "*", "deny"), json!("@1")]);
    let mut agents = Map::new();
    for (i, l) in lists.iter().enumerate() {
        agents.insert(format!("a{i}"), json!({ "permission": l }));
    }
    let record = json!({ "agents": agents, "rules": blocks });
    let theirs = Theirs::from_record(&record, &Norm::new(Path::new("/nowhere")));
    for (a, b) in theirs.agents.iter().zip(&before) {
        let rules: Vec<Value> = a["permission"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| json!([x["permission"], x["pattern"], x["action"]]))
            .collect();
        assert_eq!(&rules, b);
    }
}
