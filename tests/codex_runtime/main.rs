//! Codex is the judge: agent-lsp against the released Codex CLI 0.171.0 (npm `@openai/codex`,
//! its linux-x64 binary).
//!
//! Each case is a trusted project with a `.codex/config.toml`, or with agent files in
//! `.codex/agents/`. Codex is asked, offline, in an empty home:
//!
//! - `codex debug prompt-input hi` (the project trusted with `-c projects=...`): it exits 1 on a
//!   configuration it refuses, naming the file, line and column (`config.toml:2:19: unknown
//!   variant ...`); otherwise it prints what the model would get, where the agents it loaded are
//!   listed ("Available roles:");
//! - `codex --strict-config exec hi`, for a configuration it takes: it names one key it does not
//!   know per run (`unknown configuration field 'mcp_servers.x.comand'`), so the line is blanked
//!   and it is asked again, until it gets past the configuration (the session header), when it is
//!   stopped (it would go on to the network, which it cannot reach: `unshare -rn` where the
//!   machine allows it, and `openai_base_url` on a closed port of 127.0.0.1 in any case).
//!
//! agent-lsp (`check --format json` over every case at once) must agree: a configuration Codex
//! refuses has an agent-lsp error with the effect `refuses-to-start` on the line Codex names (or,
//! when Codex names a table's header, inside that table), and one it takes has none; the keys
//! Codex names as unknown are the `unknown-key` findings, line for line; an agent file Codex
//! loads has no agent-lsp error, and one it drops has one.
//!
//! The cases: hand-written ones (`CONFIGS`, `AGENTS`) and generated ones: every field of the
//! configuration's schema as agent-lsp holds it (`codex::schema`), given a valid value, a value
//! of the wrong type, a value out of its range or set, and a misspelt name. So the schema is held
//! to the release key by key.
//!
//! Recorded: the live test writes what Codex said per case to `tests/verdicts/codex-config.jsonl`
//! with `RECORD_VERDICTS=1` (`tests/codex_runtime/run.sh`), and otherwise fails when it differs;
//! `agent_lsp_agrees_with_recorded_codex` (plain `cargo test`) lays the cases out again, requires
//! each to hash as recorded, and compares agent-lsp with the recorded answers.

#[path = "../verdict_support/mod.rs"]
mod verdict_support;

mod cases;
mod docs;
mod skills;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verdict_support::{Recording, Replay, judge_each};

use cases::Case;

const REC: &str = "codex-config";
const JUDGE: &str = "Codex 0.171.0 (@openai/codex, linux-x64)";
const REGENERATE: &str = "RECORD_VERDICTS=1 tests/codex_runtime/run.sh";

fn agent_lsp() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_agent-lsp"))
}

/// Lay the cases out under `root/<id>/`, each a project (a `.git` folder marks its root, with
/// the `HEAD` file that makes Codex take the folder for a repository: a project trusted at its
/// root is then trusted in its sub-folders).
fn lay_out(root: &Path, cases: &[Case]) {
    for c in cases {
        let dir = root.join(&c.id);
        fs::create_dir_all(&dir).unwrap();
        if c.git {
            fs::create_dir_all(dir.join(".git")).unwrap();
            fs::write(dir.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        }
        for (rel, text) in &c.files {
            let p = dir.join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, text).unwrap();
        }
    }
}

/// agent-lsp's findings per case: `(file relative to the case, 1-based line, code, severity,
/// effect, message)`.
type Found = BTreeMap<String, Vec<docs::Finding>>;

fn agent_lsp_findings(root: &Path, cases: &[Case]) -> Found {
    let home = root.join("_home");
    fs::create_dir_all(&home).unwrap();
    let out = Command::new(agent_lsp())
        .args(["check", "--no-global", "--format", "json"])
        .arg(root)
        .env("HOME", &home)
        .env("CODEX_HOME", home.join(".codex"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .output()
        .expect("run agent-lsp");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "agent-lsp check --format json: {e}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut found: Found = cases.iter().map(|c| (c.id.clone(), Vec::new())).collect();
    let root = root.canonicalize().unwrap_or(root.to_path_buf());
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let path = PathBuf::from(d["path"].as_str().unwrap_or_default());
        let path = path.canonicalize().unwrap_or(path);
        let Ok(rel) = path.strip_prefix(&root) else { continue };
        let mut parts = rel.components();
        let Some(id) = parts.next() else { continue };
        let id = id.as_os_str().to_string_lossy().to_string();
        let file = parts.as_path().to_string_lossy().to_string();
        let s = |k: &str| d[k].as_str().unwrap_or_default().to_string();
        if let Some(list) = found.get_mut(&id) {
            list.push((
                file,
                d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize,
                s("code"),
                s("severity"),
                s("effect"),
                s("message"),
            ));
        }
    }
    found
}

/// Where agent-lsp says more than `--strict-config` shows, and why that is right: `(case id
/// prefix, reason)`. Each must match a case that disagrees.
const ALLOWED: &[(&str, &str)] = &[(
    "gen:agents.x.",
    "a role declared in `[agents.<name>]` is read into a flattened map that `--strict-config` does not look into: Codex ignores a misspelt key there without a word, and agent-lsp warns",
)];

/// Whether agent-lsp agrees with Codex's `answer` on `case`; the disagreements.
fn compare(case: &Case, answer: &Value, found: &[docs::Finding]) -> Vec<String> {
    let mut out = Vec::new();
    if docs::is_doc_case(case) {
        out.extend(docs::compare(case, answer, found));
    }
    if skills::is_skill_case(case) {
        out.extend(skills::compare(case, answer, found));
    }
    if let Some(servers) = answer.get("servers").and_then(Value::as_array)
        && !servers.iter().any(|s| s == "agent-lsp")
    {
        out.push(format!("`codex mcp list` does not list agent-lsp: {servers:?}"));
    }
    let config = ".codex/config.toml";
    let refusing: Vec<usize> = found
        .iter()
        .filter(|(f, _, _, sev, eff, _)| f == config && sev == "error" && eff == "refuses-to-start")
        .map(|(_, l, ..)| *l)
        .collect();
    match answer.get("refused") {
        Some(r) => {
            let line = r["line"].as_u64().map(|l| l as usize);
            let text = case.text(config).unwrap_or_default();
            let ok = match line {
                _ if refusing.is_empty() => false,
                None => true,
                Some(l) => refusing.contains(&l) || in_table(text, l, &refusing),
            };
            if !ok {
                out.push(format!(
                    "Codex refuses ({}), agent-lsp's refusing errors are on lines {refusing:?}",
                    r["message"].as_str().unwrap_or_default()
                ));
            }
        }
        None => {
            if !refusing.is_empty() {
                out.push(format!("Codex starts, agent-lsp says it refuses on lines {refusing:?}"));
            }
            if let Some(unknown) = answer.get("unknown").and_then(Value::as_array) {
                let theirs: BTreeSet<usize> = unknown
                    .iter()
                    .filter_map(|u| u["line"].as_u64())
                    .map(|l| l as usize)
                    .collect();
                let ours: BTreeSet<usize> = found
                    .iter()
                    .filter(|(f, _, code, ..)| f == config && code == "unknown-key")
                    .map(|(_, l, ..)| *l)
                    .collect();
                if theirs != ours {
                    out.push(format!(
                        "Codex ignores the keys on lines {theirs:?} ({}), agent-lsp reports unknown keys on {ours:?}",
                        unknown
                            .iter()
                            .filter_map(|u| u["key"].as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
        }
    }
    if let Some(roles) = answer.get("roles").and_then(Value::as_array) {
        let theirs: BTreeSet<String> = roles.iter().filter_map(Value::as_str).map(String::from).collect();
        let mut ours = BTreeSet::new();
        for (rel, text) in &case.files {
            if !rel.starts_with(".codex/agents/") || !rel.ends_with(".toml") {
                continue;
            }
            // Codex drops the file (an error), or keeps another of the same name (a
            // `duplicate-agent` warning).
            let dropped = found
                .iter()
                .any(|(f, _, code, sev, ..)| f == rel && (sev == "error" || code == "duplicate-agent"));
            let name = cases::declared_name(case, rel).or_else(|| cases::name_of(text));
            if let Some(name) = name
                && !dropped
            {
                ours.insert(name);
            }
        }
        if theirs != ours {
            out.push(format!(
                "Codex loads the agents {theirs:?}, agent-lsp says {ours:?} load"
            ));
        }
        // Of several files of one name, the one agent-lsp keeps is the one Codex keeps.
        if let Some(descriptions) = answer.get("descriptions").and_then(Value::as_object) {
            for (rel, text) in &case.files {
                let kept = rel.starts_with(".codex/agents/")
                    && !found
                        .iter()
                        .any(|(f, _, code, sev, ..)| f == rel && (sev == "error" || code == "duplicate-agent"));
                let (Some(name), Some(description)) = (cases::name_of(text), cases::description_of(text)) else {
                    continue;
                };
                if kept
                    && let Some(theirs) = descriptions.get(&name).and_then(Value::as_str)
                    && theirs.lines().next().unwrap_or_default().trim() != description.trim()
                {
                    out.push(format!(
                        "Codex keeps another `{name}` than {rel} (its description: {theirs:?})"
                    ));
                }
            }
        }
    }
    out
}

/// The disagreements of case `id` that `ALLOWED` does not excuse (the entries used are noted).
fn allow(id: &str, bad: Vec<String>, used: &mut BTreeSet<&'static str>) -> Vec<String> {
    match ALLOWED.iter().find(|(prefix, _)| id.starts_with(prefix)) {
        Some((prefix, _)) if !bad.is_empty() => {
            used.insert(prefix);
            Vec::new()
        }
        _ => bad,
    }
}

fn unused(used: &BTreeSet<&'static str>) -> Vec<String> {
    ALLOWED
        .iter()
        .filter(|(p, _)| !used.contains(p))
        .map(|(p, why)| format!("ALLOWED entry {p} ({why}) excuses no disagreement: remove it"))
        .collect()
}

/// Whether `line` is a `[table]` header of `text` and one of `lines` lies in that table.
fn in_table(text: &str, line: usize, lines: &[usize]) -> bool {
    let all: Vec<&str> = text.lines().collect();
    let is_header = |l: usize| all.get(l - 1).is_some_and(|s| s.trim_start().starts_with('['));
    if line == 0 || !is_header(line) {
        return false;
    }
    let end = (line + 1..=all.len()).find(|l| is_header(*l)).unwrap_or(all.len() + 1);
    lines.iter().any(|l| (line..end).contains(l))
}

// ---------------------------------------------------------------------------------------------
// The judge

struct Codex {
    bin: PathBuf,
    unshare: bool,
}

impl Codex {
    fn new() -> Codex {
        let bin = PathBuf::from(std::env::var("CODEX_BIN").expect("CODEX_BIN (tests/codex_runtime/run.sh sets it)"));
        let unshare = Command::new("unshare")
            .args(["-rn", "true"])
            .status()
            .is_ok_and(|s| s.success());
        if !unshare {
            eprintln!(
                "codex_runtime: no network namespace here (unshare -rn); Codex's model URL points at a closed port of 127.0.0.1"
            );
        }
        Codex { bin, unshare }
    }

    /// Codex run in `dir` (the case's project, or the folder of it a case starts in), the
    /// project and `dir` trusted.
    fn command(&self, dir: &Path, project: &Path, home: &Path, args: &[&str]) -> Command {
        let mut c = if self.unshare {
            let mut c = Command::new("unshare");
            c.arg("-rn").arg(&self.bin);
            c
        } else {
            Command::new(&self.bin)
        };
        let mut trusted = vec![project];
        if dir != project {
            trusted.push(dir);
        }
        let entries: Vec<String> = trusted
            .iter()
            .map(|p| format!("\"{}\"={{trust_level=\"trusted\"}}", p.display()))
            .collect();
        let trust = format!("projects={{{}}}", entries.join(","));
        c.args(["-c", &trust, "-c", "openai_base_url=\"http://127.0.0.1:9/v1\""])
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("CODEX_HOME", home.join(".codex"))
            .env("RUST_BACKTRACE", "0")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null());
        c
    }

    /// What Codex says of the case laid out in `dir`.
    fn judge(&self, dir: &Path, home: &Path, case: &Case) -> Value {
        fs::create_dir_all(home.join(".codex")).unwrap();
        let start = dir.join(&case.start);
        let out = self
            .command(&start, dir, home, &["debug", "prompt-input", "hi"])
            .output()
            .expect("run codex");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut answer = serde_json::Map::new();
        if !out.status.success() {
            answer.insert("refused".into(), refusal(&format!("{stderr}\n{stdout}"), dir));
            return Value::Object(answer);
        }
        if docs::is_doc_case(case) {
            answer.insert("docs".into(), json!(docs::received(&stdout, case)));
        }
        if skills::is_skill_case(case) {
            answer.insert("skills".into(), json!(skills::offered(&stdout, dir)));
        }
        if case.has_agents() {
            let roles = roles(&stdout);
            answer.insert("roles".into(), json!(roles.keys().collect::<Vec<_>>()));
            answer.insert("descriptions".into(), json!(roles));
        }
        if case.text(".codex/config.toml").is_some() {
            answer.insert("unknown".into(), json!(self.unknown_keys(dir, home)));
        }
        if case.id.starts_with("setup:") {
            // `codex mcp list` lists the servers without starting them.
            let out = self
                .command(dir, dir, home, &["mcp", "list"])
                .output()
                .expect("run codex");
            let listed: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .skip(1)
                .filter_map(|l| l.split_whitespace().next().map(str::to_string))
                .collect();
            answer.insert("servers".into(), json!(listed));
        }
        Value::Object(answer)
    }

    /// The keys `--strict-config` names, one per run, each line blanked before the next run.
    fn unknown_keys(&self, dir: &Path, home: &Path) -> Vec<Value> {
        let path = dir.join(".codex/config.toml");
        let original = fs::read_to_string(&path).unwrap();
        let mut text = original.clone();
        let mut found = Vec::new();
        for _ in 0..40 {
            fs::write(&path, &text).unwrap();
            let said = self.strict_run(dir, home);
            let Some((line, key)) = unknown_field(&said) else { break };
            found.push(json!({"line": line, "key": key}));
            let mut lines: Vec<String> = text.lines().map(String::from).collect();
            match lines.get_mut(line - 1) {
                Some(l) if !l.trim_start().starts_with('[') => *l = String::new(),
                _ => break,
            }
            text = lines.join("\n") + "\n";
        }
        fs::write(&path, original).unwrap();
        found
    }

    /// `codex --strict-config exec hi`, stopped once it is past the configuration.
    fn strict_run(&self, dir: &Path, home: &Path) -> String {
        let mut child = self
            .command(
                dir,
                dir,
                home,
                &["--strict-config", "exec", "--skip-git-repo-check", "hi"],
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run codex");
        let mut stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
        let tx2 = tx.clone();
        let t1 = std::thread::spawn(move || pump(&mut stdout, tx));
        let t2 = std::thread::spawn(move || pump(&mut stderr, tx2));
        let start = Instant::now();
        let mut said = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(chunk) => said.extend(chunk),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(_) => {}
            }
            let text = String::from_utf8_lossy(&said);
            if text.contains("OpenAI Codex v") || start.elapsed() > Duration::from_secs(20) {
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        let _ = (t1.join(), t2.join());
        while let Ok(chunk) = rx.try_recv() {
            said.extend(chunk);
        }
        String::from_utf8_lossy(&said).to_string()
    }
}

fn pump(r: &mut impl Read, tx: std::sync::mpsc::Sender<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = r.read(&mut buf) {
        if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
            break;
        }
    }
}

/// `config.toml:12:1: unknown configuration field `a.b``: the line and the key.
fn unknown_field(said: &str) -> Option<(usize, String)> {
    let at = said.find("unknown configuration field `")?;
    let key = said[at + "unknown configuration field `".len()..]
        .split('`')
        .next()?
        .to_string();
    let before = &said[..at];
    let loc = before.rsplit("config.toml:").next()?;
    let line = loc.split(':').next()?.trim().parse().ok()?;
    Some((line, key))
}

/// The reason Codex gives for refusing: the line and column it names in `config.toml`, and its
/// message (paths relative to the case).
fn refusal(said: &str, dir: &Path) -> Value {
    let said = said.replace(&dir.display().to_string(), "<case>");
    for l in said.lines() {
        if let Some(at) = l.find("config.toml:") {
            let rest = &l[at + "config.toml:".len()..];
            let mut parts = rest.splitn(3, ':');
            let line = parts.next().and_then(|s| s.trim().parse::<u64>().ok());
            let col = parts.next().and_then(|s| s.trim().parse::<u64>().ok());
            if let (Some(line), Some(col)) = (line, col) {
                return json!({"line": line, "column": col, "message": parts.next().unwrap_or_default().trim()});
            }
        }
    }
    let message = said
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("Error"))
        .or_else(|| said.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or_default();
    json!({"line": null, "message": message})
}

/// The agents `prompt-input` lists ("Available roles:", each `name: {` its description `}`),
/// the built-in ones aside, with their descriptions.
fn roles(stdout: &str) -> BTreeMap<String, String> {
    const BUILT_IN: &[&str] = &["default", "explorer", "worker"];
    let Ok(items) = serde_json::from_str::<Value>(stdout.trim_start_matches(|c| c != '[')) else {
        return BTreeMap::new();
    };
    let mut found = BTreeMap::new();
    let mut stack = vec![&items];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.contains("Available roles:") => {
                let list = s.split("Available roles:").nth(1).unwrap_or_default();
                let mut lines = list.lines();
                while let Some(l) = lines.next() {
                    if let Some(name) = l.strip_suffix(": {") {
                        let description: Vec<&str> = lines.by_ref().take_while(|d| *d != "}").collect();
                        if !BUILT_IN.contains(&name) {
                            found.insert(name.to_string(), description.join("\n"));
                        }
                    }
                }
            }
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    found
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("agent-lsp-codex-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn report(failures: &[String], agreed: usize, total: usize) {
    eprintln!("codex_runtime: {agreed} of {total} cases agree");
    if !failures.is_empty() {
        panic!("{} disagreements with Codex:\n{}", failures.len(), failures.join("\n"));
    }
}

#[test]
#[ignore = "needs Codex: tests/codex_runtime/run.sh"]
fn agent_lsp_agrees_with_codex() {
    let codex = Codex::new();
    // `CODEX_CASES=<prefix>` runs the cases of that prefix only (nothing is recorded then).
    let only = std::env::var("CODEX_CASES").ok().filter(|p| !p.is_empty());
    let mut cases = cases::all();
    cases.retain(|c| only.as_ref().is_none_or(|p| c.id.starts_with(p.as_str())));
    let root = tmp("live");
    let cases_dir = root.join("cases");
    lay_out(&cases_dir, &cases);
    let found = agent_lsp_findings(&cases_dir, &cases);
    let mut rec = Recording::new(REC, JUDGE, REGENERATE);
    let mut used = BTreeSet::new();
    let mut failures = Vec::new();
    let mut agreed = 0;
    let answers = judge_each(&cases, |i, c| {
        let dir = cases_dir.join(&c.id).canonicalize().unwrap();
        let home = root.join(format!("home{i}"));
        let answer = codex.judge(&dir, &home, c);
        let _ = fs::remove_dir_all(&home);
        answer
    });
    for (c, answer) in cases.iter().zip(answers) {
        let bad = allow(&c.id, compare(c, &answer, &found[&c.id]), &mut used);
        if bad.is_empty() {
            agreed += 1;
        }
        failures.extend(bad.into_iter().map(|b| format!("{}: {b}", c.id)));
        rec.push(&c.id, &c.hash(), answer);
    }
    if only.is_none() {
        failures.extend(unused(&used));
        failures.extend(rec.write_or_compare());
    }
    let _ = fs::remove_dir_all(&root);
    report(&failures, agreed, cases.len());
}

#[test]
fn agent_lsp_agrees_with_recorded_codex() {
    let mut replay = Replay::load(REC);
    let cases = cases::all();
    let root = tmp("replay");
    lay_out(&root, &cases);
    let found = agent_lsp_findings(&root, &cases);
    let mut used = BTreeSet::new();
    let mut failures = Vec::new();
    let mut agreed = 0;
    for c in &cases {
        let answer = replay.expect(&c.id, &c.hash()).clone();
        let bad = allow(&c.id, compare(c, &answer, &found[&c.id]), &mut used);
        if bad.is_empty() {
            agreed += 1;
        }
        failures.extend(bad.into_iter().map(|b| format!("{}: {b}", c.id)));
    }
    failures.extend(unused(&used));
    failures.extend(replay.unasked());
    let _ = fs::remove_dir_all(&root);
    report(&failures, agreed, cases.len());
}
