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
//! test below).
//!
//! It needs the runtime: `tests/runtime/run.sh` installs it from npm (pinned in
//! `tests/runtime/package.json`) and runs this test with `OPENCODE_BIN` set.

mod cases;
mod config_fuzz;
mod oracle;
mod policy;
mod tui;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use agent_lsp::analysis::{Dialect, FileKind};
use agent_lsp::workspace::{Options, Role, Workspace};
use oracle::{Answer, Home, Server};
use serde_json::Value;

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
    Options {
        global_dir: Some(home.xdg_config.join("opencode")),
        home_dot_opencode: Some(home.home.join(".opencode")),
        config_file: None,
        config_dir: None,
        tui_config: None,
        home: Some(home.home.clone()),
        zuno_global: Some(home.xdg_config.join("zuno")),
    }
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
}

/// The findings of `check --format json` on `root`.
fn findings(home: &Home, root: &Path) -> Findings {
    let report = run_json(home, &["check", "--format", "json", &root.to_string_lossy()]);
    let mut out = Findings::default();
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let list = if d["effect"] == "refuses-to-start" {
            &mut out.refusing
        } else if d["effect"] == "file-ignored" && d["severity"] == "error" {
            &mut out.skipping
        } else {
            continue;
        };
        let path = PathBuf::from(d["path"].as_str().unwrap_or_default());
        let path = if path.is_absolute() { path } else { root.join(path) };
        let path = fs::canonicalize(&path).unwrap_or(path);
        list.entry(path).or_default().push(format!(
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
        if !kind.loaders.contains(&Dialect::OpenCode) || !project.starts_with(canon(dir)) {
            continue;
        }
        let Some(oc) = decl.runtimes.iter().find(|r| r.runtime == Dialect::OpenCode) else {
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
                    .any(|r| r.runtime != Dialect::OpenCode && r.loads == Some(false)),
            });
    }
    out
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
    let rules = |v: &Value| -> Vec<(String, String, String)> {
        v.as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
                (s("permission"), s("pattern"), s("action"))
            })
            .collect()
    };
    let (a, b) = (
        adjacent_runs_sorted(rules(&ours["permission"])),
        adjacent_runs_sorted(rules(&theirs["permission"])),
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
    server: &Server,
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
    if std::env::var_os("RUNTIME_TRACE").is_some() {
        eprintln!("asking opencode: {label}");
    }
    match server.agents(dir) {
        Answer::Refused(why) => {
            if predicted.is_empty() {
                note(
                    "*",
                    "refusal",
                    format!("opencode refuses ({why}); agent-lsp reports no refusal"),
                );
            }
            (n_ours, n_theirs, n_agree) = (0, 0, 0);
        }
        Answer::Agents(theirs) => {
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
            let (o, t) = (by_name(&ours), by_name(&theirs));
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
            compare_skills(tally, server, dir, skills, &found.skipping, &mut note);
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

/// Compare the skills opencode loads in `dir` with those agent-lsp says it loads (`ours`), and
/// the errors agent-lsp reports on them (`skipping`: the `file-ignored` errors per file).
fn compare_skills(
    tally: &mut Tally,
    server: &Server,
    dir: &Path,
    ours: &BTreeMap<String, Vec<OurSkill>>,
    skipping: &BTreeMap<PathBuf, Vec<String>>,
    note: &mut impl FnMut(&str, &str, String),
) {
    let Some(theirs) = server.skills(dir) else { return };
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    // opencode keeps one skill of a name (which one is not deterministic).
    let theirs: BTreeMap<&str, &oracle::Skill> = theirs.iter().map(|s| (s.name.as_str(), s)).collect();
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
fn compare_case(tally: &mut Tally, case: &Case, server: &Server, home: &Home) {
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
    }
    let canon = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    // Project directories laid out like a global config directory are compared as the global
    // directory (see the module docs); opencode started in them does not read their agents.
    let layout_dirs: BTreeSet<PathBuf> = ws
        .files
        .iter()
        .filter_map(|f| match &f.role {
            Role::Markdown { dir } if !dir.ends_with(".opencode") => Some(canon(dir)),
            _ => None,
        })
        .filter(|d| case.global.as_ref().is_none_or(|g| canon(g) != *d))
        .collect();
    let mut projects: Vec<PathBuf> = ws
        .project_views()
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
        let view: BTreeSet<PathBuf> = ws.view_for(&p).iter().map(|&id| canon(&ws.files[id].path)).collect();
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
        compare_project(tally, &label, server, home, &p, &view, &found, &skills);
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
        let case = Case {
            name: format!("corpus/{repo}"),
            root,
            global: global_dir,
        };
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
        let case = Case {
            name: format!("gen/{}", c.name),
            root,
            global: global_dir,
        };
        if case.global.is_some() {
            global.push(case);
        } else {
            project.push(case);
        }
    }
    (project, global)
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn agent_lsp_agrees_with_the_opencode_runtime() {
    let bin = PathBuf::from(
        std::env::var_os("OPENCODE_BIN")
            .expect("set OPENCODE_BIN to the opencode 1.18.34 binary (tests/runtime/run.sh)"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();

    // Project workspaces share one server and one empty home.
    let mut project_cases = Vec::new();
    let tw = tmp.join("test-workspace");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace"), &tw);
    git_init(&tw);
    project_cases.push(Case {
        name: "test-workspace".into(),
        root: tw,
        global: None,
    });
    let (corpus_project, corpus_global) = corpus_cases(&tmp);
    let (gen_project, gen_global) = generated_cases(&tmp);
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
    {
        let server = Server::start(&bin, &shared, &tmp).unwrap_or_else(|e| panic!("opencode serve: {e}"));
        for case in &project_cases {
            compare_case(&mut tally, case, &server, &shared);
        }
    }
    // A global config directory is per process: one server each.
    for case in corpus_global.iter().chain(&gen_global) {
        // The global directory is `<base>/home/.config/opencode`.
        let g = case.global.as_ref().unwrap();
        let base = g.ancestors().nth(3).unwrap();
        let home = Home::new(base, None);
        match Server::start(&bin, &home, &case.root) {
            Ok(server) => compare_case(&mut tally, case, &server, &home),
            // opencode reads the global layer when it starts: a refusal there stops the server.
            Err(why) => compare_start_refusal(&mut tally, case, &home, &why),
        }
    }

    eprintln!(
        "\n{:<70} {:>5} {:>5} {:>6} {:>7} {:>5}",
        "workspace[:project]", "ours", "oc", "agree", "skills", "ok"
    );
    for r in &tally.rows {
        eprintln!("{r}");
    }
    eprintln!(
        "\nprojects agreeing: {}/{}; agents agreeing on every field: {}/{}; skills: {}/{}",
        tally.projects_agreeing,
        tally.projects,
        tally.agents_agreeing,
        tally.agents,
        tally.skills_agreeing,
        tally.skills
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
}

#[test]
#[ignore = "needs the opencode runtime: tests/runtime/run.sh installs it and sets OPENCODE_BIN"]
fn policy_counterexamples_are_decided_so_by_opencode() {
    let bin = PathBuf::from(
        std::env::var_os("OPENCODE_BIN")
            .expect("set OPENCODE_BIN to the opencode 1.18.34 binary (tests/runtime/run.sh)"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let failures = policy::run(&bin, &tmp);
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
    let bin = PathBuf::from(
        std::env::var_os("OPENCODE_BIN")
            .expect("set OPENCODE_BIN to the opencode 1.18.34 binary (tests/runtime/run.sh)"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let tmp = fs::canonicalize(tmp.path()).unwrap();
    let (cases, failures) = tui::run(&bin, &tmp);
    eprintln!("\ntui.json: {cases} cases, {} disagreement(s)", failures.len());
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with opencode's terminal interface:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
