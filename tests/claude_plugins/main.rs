//! Claude Code is the judge of its plugins: agent-lsp against the released Claude Code.
//!
//! For every workspace below, two questions, each asked of the runtime and of agent-lsp:
//!
//! - **Manifests** (`plugin.json`, `marketplace.json`): `claude plugin validate --json DIR`
//!   gives the validator's errors and warnings, each under a JSON path. agent-lsp must report,
//!   on the same field (for a marketplace entry: the same field of the same entry), a diagnostic
//!   of the same severity, and nothing of error or warning severity where the validator says
//!   nothing. Only what the validator judges is compared (see `OURS_ONLY` and `THEIRS_ONLY`).
//! - **What loads**: `claude -p --input-format stream-json` with `--plugin-dir` on the folder
//!   holding the plugins, asked to `initialize`, lists the agents (name, description) and the
//!   commands (name, description, argument hint; skills are listed as commands) of the plugins
//!   it loaded. agent-lsp must list the same: the agents, commands and skills of every plugin
//!   whose manifest has no diagnostic with the effect `file-ignored`, named as
//!   `discover::plugin_kind` names them, listed as `claude::plugin::listed` lists them; and no
//!   skill Claude Code lists gets an error that it is skipped (`file-ignored`).
//!
//! Workspaces: the generated plugins and marketplaces of `cases.rs`, `test-workspace/plugins`,
//! and the corpus (`../shared/corpus/`) laid out as one plugin per repository (its Claude
//! agents, its command files, its skills). `CLAUDE_PLUGINS_EXTRA` (folders separated by `:`)
//! adds marketplace checkouts: every plugin under each (a folder with
//! `.claude-plugin/plugin.json`) and its `marketplace.json`.
//!
//! The table gives, per workspace: the manifests validated; the fields either side judged (an
//! error or warning of the validator or of agent-lsp), agreeing/all; the agents and the commands
//! (skills included) either side lists, agreeing/all; the disagreements allowed. The test
//! prints a line per disagreement and fails on any disagreement that `ALLOWED` does not
//! list with its reason. It needs the runtime: `CLAUDE_BIN` is the released `claude` executable
//! (`tests/claude_runtime/run.sh` sets it); run by hand with
//! `CLAUDE_BIN=.../claude cargo test --test claude_plugins -- --ignored --nocapture`.

mod cases;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use agent_lsp::analysis::claude::plugin::{self, Manifest};
use agent_lsp::analysis::claude::{self, Source};
use agent_lsp::analysis::syntax::{Node, Value};
use agent_lsp::analysis::{Code, Effect, FileKind, Severity, Span};
use agent_lsp::workspace::{Options, Role, Workspace};
use serde_json::Value as Json;

/// Disagreements that are understood: (workspace, item, reason). The item is `manifest DIR KEY`
/// or `agent NAME` / `command NAME`, as the table prints it.
const ALLOWED: &[(&str, &str, &str)] = &[(
    "gen",
    "command d-named:inline",
    "a command written inline in plugin.json (`content`) is no file: agent-lsp lists the commands of files",
)];

/// agent-lsp findings on a manifest that the validator does not judge (it reads no other file,
/// and does not report what the loader does with a duplicate key): left out of the comparison.
const OURS_ONLY: &[(&str, &str)] = &[
    (
        "is set twice",
        "a duplicate key: the last one wins, the validator says nothing",
    ),
    (
        "replaces the plugin's",
        "a default folder that `agents`/`commands` leaves out: the loader logs it, the validator says nothing",
    ),
    (
        "is no folder of this marketplace",
        "a missing local source: `claude plugin install` fails (\"Source path does not exist\"), the validator says nothing",
    ),
];

/// Validator findings that are no load problem of the file validated: left out.
const THEIRS_ONLY: &[(&str, &str)] = &[
    (
        "Claude Desktop",
        "the Claude Desktop managed marketplace sync, not Claude Code",
    ),
    (
        "plugin.json →",
        "a finding on a plugin's own plugin.json, compared when that plugin is validated",
    ),
];

// ---------------------------------------------------------------------------------------------
// The runtime

fn claude_bin() -> PathBuf {
    PathBuf::from(std::env::var_os("CLAUDE_BIN").expect("CLAUDE_BIN: the released `claude` executable"))
}

/// `claude` with an empty home, offline.
fn claude(home: &Path) -> Command {
    let mut c = Command::new(claude_bin());
    for (k, sub) in [
        ("HOME", ""),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ] {
        c.env(k, home.join(sub));
    }
    for k in [
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
        "DISABLE_TELEMETRY",
        "DISABLE_AUTOUPDATER",
        "DISABLE_ERROR_REPORTING",
    ] {
        c.env(k, "1");
    }
    c.env_remove("ANTHROPIC_API_KEY");
    c
}

/// The validator's findings on the manifest of `dir`: (path, severity, message).
fn validate(dir: &Path) -> Vec<(String, Severity, String)> {
    let home = tempfile::tempdir().expect("home");
    let out = claude(home.path())
        .args(["plugin", "validate", "--json"])
        .arg(dir)
        .output()
        .expect("run claude plugin validate");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Json = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "claude plugin validate {}: not JSON ({e})\n{stdout}\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut found = Vec::new();
    for (list, severity) in [("errors", Severity::Error), ("warnings", Severity::Warning)] {
        for f in report["manifest"][list].as_array().into_iter().flatten() {
            found.push((
                f["path"].as_str().unwrap_or_default().to_string(),
                severity,
                f["message"].as_str().unwrap_or_default().to_string(),
            ));
        }
    }
    found
}

/// A listed agent or command: name, description, argument hint (empty for agents).
type Item = (String, String, String);

/// What Claude Code started in an empty git repository with `--plugin-dir` on each of `dirs`
/// lists: agents and commands (built-ins left out).
fn load(dirs: &[PathBuf]) -> (Vec<Item>, Vec<Item>) {
    let home = tempfile::tempdir().expect("home");
    let project = tempfile::tempdir().expect("project");
    let ok = Command::new("git")
        .args(["init", "-q"])
        .current_dir(project.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "git init");
    let mut cmd = claude(home.path());
    cmd.current_dir(project.path())
        .args([
            "-p",
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
            "--debug-file",
        ])
        .arg(home.path().join("debug.log"));
    for d in dirs {
        cmd.arg("--plugin-dir").arg(d);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run claude");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"{\"type\":\"control_request\",\"request_id\":\"r1\",\"request\":{\"subtype\":\"initialize\"}}\n")
        .expect("write the request");
    // Read the output on threads, and give the runtime two minutes (it takes about one second).
    let pipe = |r: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_thread = pipe(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
    );
    let err_thread = pipe(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while child.try_wait().expect("wait for claude").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("claude did not answer within two minutes");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let stdout_bytes = out_thread.join().unwrap_or_default();
    let stderr_bytes = err_thread.join().unwrap_or_default();
    let stdout = String::from_utf8_lossy(&stdout_bytes);
    let response: Json = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .find(|j| j["type"] == "control_response")
        .unwrap_or_else(|| {
            panic!(
                "no control_response\n{stdout}\n{}",
                String::from_utf8_lossy(&stderr_bytes)
            )
        });
    let r = &response["response"]["response"];
    let s = |v: &Json| v.as_str().unwrap_or_default().to_string();
    let agents = r["agents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| s(&a["name"]).contains(':'))
        .map(|a| (s(&a["name"]), s(&a["description"]), String::new()))
        .collect();
    let commands = r["commands"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["builtin"] != Json::Bool(true) && s(&c["name"]).contains(':'))
        .map(|c| (s(&c["name"]), s(&c["description"]), s(&c["argumentHint"])))
        .collect();
    (agents, commands)
}

// ---------------------------------------------------------------------------------------------
// agent-lsp's side

/// The field a finding is about: the first key, or for a marketplace entry `plugins.N.key`.
fn field_key(segments: &[String]) -> String {
    let n = if segments.first().is_some_and(|s| s == "plugins") && segments.len() >= 2 {
        3
    } else {
        1
    };
    segments.iter().take(n).cloned().collect::<Vec<_>>().join(".")
}

/// The keys (and list indices) from the root down to the node at `at`.
fn path_to(node: &Node, at: usize, out: &mut Vec<String>) {
    match &node.value {
        Value::Map(m) => {
            for e in m.entries.iter().rev() {
                if e.key.span.contains(at) {
                    out.push(e.key.name.clone());
                    return;
                }
                if e.value.span.contains(at) {
                    out.push(e.key.name.clone());
                    path_to(&e.value, at, out);
                    return;
                }
            }
        }
        Value::Seq(items) => {
            if let Some((i, item)) = items.iter().enumerate().find(|(_, i)| i.span.contains(at)) {
                out.push(i.to_string());
                path_to(item, at, out);
            }
        }
        _ => {}
    }
}

/// The backticked words of a message.
fn ticked(message: &str) -> Vec<&str> {
    message.split('`').skip(1).step_by(2).collect()
}

/// The field of an agent-lsp diagnostic on a manifest.
fn our_key(root: Option<&Node>, text: &str, span: Span, code: Code, message: &str) -> String {
    // The file does not parse: the validator says so of the whole file.
    if code == Code::SyntaxError {
        return String::new();
    }
    let mut segments = Vec::new();
    if let Some(root) = root {
        path_to(root, span.start as usize, &mut segments);
    }
    // A missing field is reported on its object's brace: the field is named in the message.
    if code == Code::MissingField && span.text(text) == "{" {
        let words = ticked(message);
        let word = if message.contains(" has no ") || message.contains(" needs ") {
            words.last()
        } else {
            words.first()
        };
        if let Some(w) = word {
            segments.push(w.rsplit('.').next().unwrap_or(w).to_string());
        }
    }
    field_key(&segments)
}

/// The validator's path as segments (`plugins[0].name` and `plugins.0.name` alike).
fn their_key(path: &str) -> String {
    if matches!(path, "json" | "root" | "") {
        return String::new();
    }
    let segments: Vec<String> = path
        .replace('[', ".")
        .replace(']', "")
        .split('.')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    field_key(&segments)
}

/// The most severe of each field's findings.
fn worst(findings: impl IntoIterator<Item = (String, Severity)>) -> BTreeMap<String, Severity> {
    let mut out: BTreeMap<String, Severity> = BTreeMap::new();
    for (k, s) in findings {
        let e = out.entry(k).or_insert(s);
        if s == Severity::Error {
            *e = Severity::Error;
        }
    }
    out
}

fn sev(s: Option<&Severity>) -> &'static str {
    match s {
        Some(Severity::Error) => "error",
        Some(Severity::Warning) => "warning",
        Some(_) => "info",
        None => "-",
    }
}

/// agent-lsp's view of the plugins under `roots`: the manifests (with their diagnostics), and
/// the agents and commands (skills included) of the plugins Claude Code loads.
struct Ours {
    ws: Workspace,
}

impl Ours {
    fn load(roots: &[PathBuf]) -> Ours {
        let ws = Workspace::load(roots, &Options::isolated()).expect("agent-lsp loads");
        Ours { ws }
    }

    fn manifest(&self, path: &Path) -> Option<usize> {
        self.ws.id(path)
    }

    /// The fields with an error or a warning of agent-lsp on the manifest `id`.
    fn findings(&self, id: usize) -> BTreeMap<String, Severity> {
        let f = &self.ws.files[id];
        let diagnostics = f.analysis.diagnostics.iter().filter(|d| {
            matches!(d.severity, Severity::Error | Severity::Warning)
                && !OURS_ONLY.iter().any(|(m, _)| d.message.contains(m))
        });
        worst(diagnostics.map(|d| {
            (
                our_key(f.analysis.parsed.root.as_ref(), &f.text, d.span, d.code, &d.message),
                d.severity,
            )
        }))
    }

    /// The roots of the plugins Claude Code loads, with each plugin's name.
    fn loading(&self) -> BTreeMap<PathBuf, String> {
        let mut out = BTreeMap::new();
        for f in self.ws.files.iter().filter(|f| f.live) {
            let (FileKind::Claude(claude::FileKind::Manifest(Manifest::Plugin)), Some(dir)) =
                (&f.kind, f.role.folder())
            else {
                continue;
            };
            if f.analysis.diagnostics.iter().any(|d| d.effect == Effect::FileIgnored) {
                continue;
            }
            let name = f.analysis.manifest().and_then(|m| m.name.clone()).unwrap_or_default();
            out.insert(dir.to_path_buf(), name);
        }
        out
    }

    /// The errors agent-lsp reports that a skill of a loading plugin is skipped (`file-ignored`),
    /// by the name Claude Code lists it under: none is right for a skill Claude Code lists (it
    /// is the only runtime that loads a plugin's skills).
    fn skill_errors(&self) -> BTreeMap<String, Vec<String>> {
        let loading = self.loading();
        let diagnostics = self.ws.diagnostics();
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (id, f) in self.ws.files.iter().enumerate().filter(|(_, f)| f.live) {
            let (FileKind::Skill(k), Role::Skill { dir }) = (&f.kind, &f.role) else {
                continue;
            };
            let Some(ns) = k.namespace.as_ref().filter(|_| loading.contains_key(dir)) else {
                continue;
            };
            let errors: Vec<String> = diagnostics
                .iter()
                .filter(|(i, d)| *i == id && d.severity == Severity::Error && d.effect == Effect::FileIgnored)
                .map(|(_, d)| format!("{} {}", d.code.as_str(), d.message))
                .collect();
            if !errors.is_empty() {
                let l = plugin::listed(&format!("{ns}:{}", k.folder), true, &f.text);
                out.entry(l.name).or_default().extend(errors);
            }
        }
        out
    }

    /// The agents and commands of the loading plugins, as Claude Code lists them.
    fn listed(&self) -> (Vec<Item>, Vec<Item>) {
        let loading = self.loading();
        let mut agents: BTreeMap<String, Item> = BTreeMap::new();
        let mut commands: Vec<(String, Item)> = Vec::new();
        let mut skills: Vec<(String, Item)> = Vec::new();
        let mut files: Vec<usize> = (0..self.ws.files.len()).filter(|&i| self.ws.files[i].live).collect();
        files.sort_by(|a, b| self.ws.files[*a].path.cmp(&self.ws.files[*b].path));
        for id in files {
            let f = &self.ws.files[id];
            match (&f.kind, f.role.folder()) {
                (FileKind::Claude(claude::FileKind::Agent(k)), Some(dir)) if loading.contains_key(dir) => {
                    let Source::Plugin { plugin: ns } = &k.source else {
                        continue;
                    };
                    let Some(c) = f.analysis.claude() else { continue };
                    if !c.agent.loaded() {
                        continue;
                    }
                    let name = format!("{ns}:{}", c.agent.name.clone().unwrap_or_default());
                    let top = &loading[dir];
                    let description = c
                        .agent
                        .description
                        .clone()
                        .unwrap_or_else(|| format!("Agent from {top} plugin"));
                    agents.entry(name.clone()).or_insert((name, description, String::new()));
                }
                (FileKind::Command(k), Some(dir)) if loading.contains_key(dir) => {
                    let l = plugin::listed(&k.name, false, &f.text);
                    commands.push((k.name.clone(), (l.name, l.description, l.argument_hint)));
                }
                (FileKind::Skill(k), Some(dir)) if loading.contains_key(dir) => {
                    let Some(ns) = &k.namespace else { continue };
                    let path_name = format!("{ns}:{}", k.folder);
                    let l = plugin::listed(&path_name, true, &f.text);
                    skills.push((path_name, (l.name, l.description, l.argument_hint)));
                }
                _ => {}
            }
        }
        // A command and a skill of one path name: the command is listed.
        let command_names: BTreeSet<&String> = commands.iter().map(|(p, _)| p).collect();
        let mut listed: Vec<Item> = commands.iter().map(|(_, i)| i.clone()).collect();
        listed.extend(
            skills
                .iter()
                .filter(|(p, _)| !command_names.contains(p))
                .map(|(_, i)| i.clone()),
        );
        (agents.into_values().collect(), listed)
    }
}

// ---------------------------------------------------------------------------------------------
// Workspaces

struct Case {
    name: String,
    /// Folders holding plugins (each given to `--plugin-dir`).
    plugin_dirs: Vec<PathBuf>,
    /// Folders whose manifest is validated (plugins and marketplaces).
    validated: Vec<PathBuf>,
    /// What agent-lsp loads.
    roots: Vec<PathBuf>,
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    fs::write(p, text).expect("write");
}

fn generated(tmp: &Path) -> Vec<Case> {
    let plugins = tmp.join("gen/plugins");
    let mut validated = Vec::new();
    for g in cases::plugins() {
        for (rel, text) in &g.files {
            write(&plugins.join(&g.dir), rel, text);
        }
        validated.push(plugins.join(&g.dir));
    }
    let markets = tmp.join("gen-marketplaces");
    let mut market_dirs = Vec::new();
    for g in cases::marketplaces() {
        for (rel, text) in &g.files {
            write(&markets.join(&g.dir), rel, text);
        }
        market_dirs.push(markets.join(&g.dir));
    }
    vec![
        Case {
            name: "gen".into(),
            plugin_dirs: vec![plugins.clone()],
            validated,
            roots: vec![plugins],
        },
        Case {
            name: "gen-marketplaces".into(),
            plugin_dirs: Vec::new(),
            validated: market_dirs.clone(),
            roots: market_dirs,
        },
    ]
}

/// A kebab-case plugin name for a repository.
fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// The corpus as plugins: one per repository, with its Claude agents in `agents/` (below the
/// sub-folders of their real path after `agents/`), its command files in `commands/` and its
/// skills in `skills/<folder>/`.
fn corpus(tmp: &Path) -> Option<Case> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let manifest = fs::read_to_string(corpus.join("MANIFEST.tsv")).ok()?;
    let plugins = tmp.join("corpus/plugins");
    let mut made = BTreeSet::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [kind, local, repo, path, ..] = cols[..] else {
            continue;
        };
        let rel = match kind {
            "C_claude_agent" => {
                let below = path.rsplit_once("agents/").map_or(path, |(_, r)| r);
                format!("agents/{below}")
            }
            "D_skill_command" if path.ends_with("SKILL.md") => {
                let folder = Path::new(path)
                    .parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                format!("skills/{folder}/SKILL.md")
            }
            "D_skill_command" => {
                let file = Path::new(path).file_name()?.to_string_lossy().into_owned();
                format!("commands/{file}")
            }
            _ => continue,
        };
        let name = format!("c-{}", kebab(repo));
        let dir = plugins.join(&name);
        let text = fs::read_to_string(corpus.join(local)).ok()?;
        write(&dir, &rel, &text);
        if made.insert(name.clone()) {
            write(
                &dir,
                ".claude-plugin/plugin.json",
                &format!(
                    "{{\"name\": \"{name}\", \"version\": \"1.0.0\", \"description\": \"{repo}, from the corpus\", \"author\": {{\"name\": \"corpus\"}}}}\n"
                ),
            );
        }
    }
    Some(Case {
        name: "corpus".into(),
        plugin_dirs: vec![plugins.clone()],
        validated: made.iter().map(|n| plugins.join(n)).collect(),
        roots: vec![plugins],
    })
}

fn test_workspace() -> Case {
    let plugins = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace/plugins");
    let validated = fs::read_dir(&plugins)
        .map(|r| r.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    Case {
        name: "test-workspace".into(),
        plugin_dirs: vec![plugins.clone()],
        validated,
        roots: vec![plugins],
    }
}

/// A marketplace checkout: every plugin under it, and its own manifest.
fn extra(root: &Path) -> Case {
    let mut plugin_roots = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        if d.join(".claude-plugin/plugin.json").is_file() {
            plugin_roots.push(d.clone());
        }
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = e.file_name();
            if p.is_dir() && !name.to_string_lossy().starts_with('.') && name != "node_modules" {
                stack.push(p);
            }
        }
    }
    plugin_roots.sort();
    let mut plugin_dirs: Vec<PathBuf> = plugin_roots
        .iter()
        .filter_map(|p| p.parent().map(Path::to_path_buf))
        .collect();
    plugin_dirs.sort();
    plugin_dirs.dedup();
    let mut validated = plugin_roots;
    if root.join(".claude-plugin/marketplace.json").is_file() {
        validated.push(root.to_path_buf());
    }
    Case {
        name: format!("extra:{}", root.display()),
        plugin_dirs,
        validated,
        roots: vec![root.to_path_buf()],
    }
}

// ---------------------------------------------------------------------------------------------
// The comparison

struct Tally {
    name: String,
    /// Manifests validated.
    files: usize,
    manifests: (usize, usize),
    agents: (usize, usize),
    commands: (usize, usize),
    allowed: usize,
}

fn allowed(case: &str, item: &str) -> Option<&'static str> {
    ALLOWED
        .iter()
        .find(|(c, i, _)| case.starts_with(c) && *i == item)
        .map(|(_, _, r)| *r)
}

/// Compare one workspace; disagreements not allowed go to `failures`.
fn compare(case: &Case, failures: &mut Vec<String>) -> Tally {
    let ours = Ours::load(&case.roots);
    let mut t = Tally {
        name: case.name.clone(),
        files: 0,
        manifests: (0, 0),
        agents: (0, 0),
        commands: (0, 0),
        allowed: 0,
    };
    let mut report = |t: &mut Tally, item: String, detail: String| match allowed(&case.name, &item) {
        Some(reason) => {
            t.allowed += 1;
            println!("  allowed  {item}: {detail} ({reason})");
        }
        None => {
            println!("  DISAGREE {item}: {detail}");
            failures.push(format!("{}: {item}: {detail}", case.name));
        }
    };
    // Manifests.
    for dir in &case.validated {
        let manifest = [Manifest::Plugin, Manifest::Marketplace]
            .iter()
            .map(|m| dir.join(".claude-plugin").join(m.file_name()))
            .find(|p| p.is_file());
        let Some(manifest) = manifest else { continue };
        t.files += 1;
        let found = validate(dir);
        // A file that is no JSON: the validator judges nothing else.
        let syntax = found.iter().any(|(p, _, _)| p == "json");
        let theirs = worst(
            found
                .into_iter()
                .filter(|(p, _, m)| !THEIRS_ONLY.iter().any(|(x, _)| m.contains(x) || p.contains(x)))
                .map(|(p, s, _)| (their_key(&p), s)),
        );
        let Some(id) = ours.manifest(&manifest) else {
            report(
                &mut t,
                format!("manifest {}", dir.display()),
                "not read by agent-lsp".into(),
            );
            continue;
        };
        let mut mine = ours.findings(id);
        if syntax {
            mine.retain(|k, _| k.is_empty());
        }
        let keys: BTreeSet<&String> = theirs.keys().chain(mine.keys()).collect();
        let short = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for k in keys {
            t.manifests.1 += 1;
            if theirs.get(k) == mine.get(k) {
                t.manifests.0 += 1;
            } else {
                report(
                    &mut t,
                    format!("manifest {short} {}", if k.is_empty() { "(root)" } else { k }),
                    format!("validator {}, agent-lsp {}", sev(theirs.get(k)), sev(mine.get(k))),
                );
            }
        }
    }
    // What loads.
    if !case.plugin_dirs.is_empty() {
        let (their_agents, their_commands) = load(&case.plugin_dirs);
        let loading = ours.loading();
        let names: BTreeSet<&str> = loading.values().map(String::as_str).collect();
        let ours_only = |n: &str| names.contains(n.split(':').next().unwrap_or_default());
        let (our_agents, our_commands) = ours.listed();
        // A skill Claude Code lists gets no error that it is skipped.
        let skill_errors = ours.skill_errors();
        for (n, _, _) in &their_commands {
            if let Some(errors) = skill_errors.get(n) {
                report(
                    &mut t,
                    format!("command {n}"),
                    format!(
                        "Claude Code lists it; agent-lsp reports that it is skipped: {}",
                        errors.join("; ")
                    ),
                );
            }
        }
        // Descriptions of plugin commands are prefixed with `(plugin) `.
        let their_commands: Vec<Item> = their_commands
            .into_iter()
            .map(|(n, d, h)| {
                let top = n.split(':').next().unwrap_or_default();
                let d = d.strip_prefix(&format!("({top}) ")).map(str::to_string).unwrap_or(d);
                (n, d, h)
            })
            .collect();
        for (what, theirs, mine, tally) in [
            ("agent", their_agents, our_agents, 0),
            ("command", their_commands, our_commands, 1),
        ] {
            let key = |i: &Item| (i.0.clone(), i.1.clone());
            let mut theirs: BTreeMap<String, Vec<Item>> = theirs.into_iter().fold(BTreeMap::new(), |mut m, i| {
                m.entry(i.0.clone()).or_default().push(i);
                m
            });
            let mut mine: BTreeMap<String, Vec<Item>> = mine.into_iter().fold(BTreeMap::new(), |mut m, i| {
                m.entry(i.0.clone()).or_default().push(i);
                m
            });
            let names: BTreeSet<String> = theirs.keys().chain(mine.keys()).cloned().collect();
            for n in names {
                let mut a = theirs.remove(&n).unwrap_or_default();
                let mut b = mine.remove(&n).unwrap_or_default();
                a.sort_by_key(key);
                b.sort_by_key(key);
                let counter = if tally == 0 { &mut t.agents } else { &mut t.commands };
                counter.1 += 1;
                if a == b {
                    counter.0 += 1;
                    continue;
                }
                let show = |v: &[Item]| {
                    v.iter()
                        .map(|(_, d, h)| {
                            if h.is_empty() {
                                format!("{d:?}")
                            } else {
                                format!("{d:?} [{h}]")
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let detail = match (a.is_empty(), b.is_empty() && !ours_only(&n)) {
                    (true, _) => format!("only agent-lsp lists it: {}", show(&b)),
                    (_, true) => format!("only Claude Code lists it: {}", show(&a)),
                    _ => format!("Claude Code {}; agent-lsp {}", show(&a), show(&b)),
                };
                report(&mut t, format!("{what} {n}"), detail);
            }
        }
    }
    t
}

#[test]
#[ignore = "needs the released Claude Code: set CLAUDE_BIN (tests/claude_runtime/run.sh does)"]
fn plugins_as_claude_code_reads_them() {
    let tmp = tempfile::tempdir().expect("tmp");
    let tmp = fs::canonicalize(tmp.path()).expect("canonical");
    let mut cases = generated(&tmp);
    cases.push(test_workspace());
    cases.extend(corpus(&tmp));
    if let Some(extra_dirs) = std::env::var_os("CLAUDE_PLUGINS_EXTRA") {
        for d in std::env::split_paths(&extra_dirs) {
            cases.push(extra(&fs::canonicalize(&d).unwrap_or(d)));
        }
    }
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for case in &cases {
        println!("== {}", case.name);
        table.push(compare(case, &mut failures));
    }
    println!(
        "\n{:<32} {:>9} {:>14} {:>12} {:>12} {:>8}",
        "workspace", "manifests", "fields judged", "agents", "commands", "allowed"
    );
    for t in &table {
        let name: String = t.name.chars().take(32).collect();
        println!(
            "{name:<32} {:>9} {:>14} {:>12} {:>12} {:>8}",
            t.files,
            format!("{}/{}", t.manifests.0, t.manifests.1),
            format!("{}/{}", t.agents.0, t.agents.1),
            format!("{}/{}", t.commands.0, t.commands.1),
            t.allowed
        );
    }
    println!("\nleft out of the manifest comparison:");
    for (m, why) in OURS_ONLY.iter().chain(THEIRS_ONLY) {
        println!("  {m:?}: {why}");
    }
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with Claude Code:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The key mapping itself (runs without the runtime).
#[test]
fn keys_of_findings() {
    assert_eq!(their_key("plugins[0].name"), "plugins.0.name");
    assert_eq!(their_key("plugins.0.source.sha"), "plugins.0.source");
    assert_eq!(their_key("agents[0]"), "agents");
    assert_eq!(their_key("json"), "");
    let text = r#"{"name": "m", "plugins": [{"name": "a"}, {"source": "./x", "author": {"email": "e"}}]}"#;
    let (diags, parsed, _) = plugin::analyze(Manifest::Marketplace, text);
    let keys: Vec<String> = diags
        .iter()
        .map(|d| our_key(parsed.root.as_ref(), text, d.span, d.code, &d.message))
        .collect();
    assert_eq!(
        keys,
        ["owner", "plugins.0.source", "plugins.1.name", "plugins.1.author"]
    );
    let _ = claude::plugin::is_kebab("a");
}
