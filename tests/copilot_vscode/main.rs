//! VS Code is the judge of GitHub Copilot's files: agent-lsp against the prompt-file validator of
//! VS Code 1.139.1 (the one inside code-server 4.139.1), on the cases of
//! `tests/copilot_vscode/cases/` (a workspace of agents, chat modes, prompt files, instructions
//! and a `.vscode/mcp.json`).
//!
//! `run.sh` opens each case file in a real code-server and writes the markers VS Code puts on it
//! (see its header); this test reads them, from the live run (`COPILOT_VSCODE_MARKERS`, the
//! `#[ignore]`d test `run.sh` starts) or from the recording `tests/verdicts/copilot-vscode.jsonl`
//! (plain `cargo test`), and holds agent-lsp's diagnostics of the same workspace to them, line by
//! line:
//!
//! - every marker of VS Code has a diagnostic of agent-lsp on its line whose code says the same
//!   thing ([`category`]: an unknown attribute is `unknown-key`, `ignored-field` or
//!   `deprecated-field`; a wrong value `invalid-type` or `invalid-value`; ...);
//! - every diagnostic of agent-lsp has a marker of VS Code on its line that says the same;
//!
//! but for the differences [`vs_code_only`] and [`agent_lsp_only`] list, each with its reason:
//! what VS Code cannot know without the Copilot extension, an MCP server it started or an
//! extension installed (tool names), what agent-lsp does not check (the body's `#tool:` and file
//! references), and what agent-lsp checks beyond VS Code's validator (GitHub.com's reading,
//! `applyTo` against the workspace's files, names across files). Severities are not compared:
//! VS Code shows an unknown key as a faded hint, agent-lsp as a warning.
//!
//! Recording: `RECORD_VERDICTS=1 tests/copilot_vscode/run.sh` rewrites the recording; without it
//! the live test fails when VS Code's markers differ from the recorded ones. Every case line
//! carries the hash of the whole cases workspace (VS Code's messages name the other agents).

#[path = "../verdict_support/mod.rs"]
mod verdict_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agent_lsp::analysis::{Encoding, Severity};
use agent_lsp::workspace::{Options, Workspace};
use serde_json::{Value, json};
use verdict_support::{Recording, Replay, hash_files};

const NAME: &str = "copilot-vscode";
const JUDGE: &str = "VS Code 1.139.1 (code-server 4.139.1): the prompt-file validator's markers";
const REGENERATE: &str = "RECORD_VERDICTS=1 tests/copilot_vscode/run.sh";

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/copilot_vscode/cases")
}

/// Every file of the cases workspace, by relative path.
fn case_files() -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, root, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&cases_dir(), &cases_dir(), &mut out);
    out
}

fn workspace_hash(files: &BTreeMap<String, Vec<u8>>) -> String {
    hash_files(files.iter().map(|(k, v)| (k.as_str(), v.as_slice())))
}

/// One marker as the comparison reads it.
#[derive(Clone, Debug)]
struct Marker {
    line: u32,
    message: String,
    code: Option<String>,
}

/// A marker as recorded: its start, end, severity, code and message.
fn marker_json(m: &Value) -> Value {
    json!({
        "range": m["range"],
        "severity": m["severity"],
        "code": m["code"],
        "message": m["message"],
    })
}

fn markers_of(recorded: &Value) -> Vec<Marker> {
    recorded["markers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| Marker {
            line: m["range"][0].as_u64().unwrap_or(0) as u32,
            message: m["message"].as_str().unwrap_or_default().to_string(),
            code: m["code"].as_str().map(str::to_string),
        })
        .collect()
}

/// The agent-lsp codes that say what a marker of VS Code says.
fn category(m: &Marker) -> &'static [&'static str] {
    let msg = m.message.as_str();
    let has = |s: &str| msg.contains(s);
    if m.code.as_deref().is_some_and(|c| c.starts_with("promptValidator."))
        || msg.starts_with("Unknown tool")
        || msg.starts_with("Unknown extension tool")
    {
        &["unknown-tool", "unknown-mcp-server", "deprecated-field"]
    } else if has("has been renamed") {
        &["deprecated-field"]
    } else if msg.starts_with("Chat modes have been renamed") {
        &["deprecated-file"]
    } else if has("is not supported in") || has("is ignored when running locally") {
        &["unknown-key", "ignored-field", "deprecated-field"]
    } else if has("has been deprecated") || has("is deprecated") {
        &["deprecated-field"]
    } else if msg.starts_with("Duplicate key") {
        &["duplicate-key"]
    } else if msg.starts_with("Expected") || msg.starts_with("Unexpected") || msg.starts_with("Missing value") {
        &["syntax-error"]
    } else if msg.starts_with("Unknown agent") {
        &["unknown-agent"]
    } else if msg.starts_with("Unknown property") || msg.starts_with("Unknown permission scope") {
        &["unknown-key"]
    } else if msg.starts_with("Missing required properties") || msg.starts_with("Hook command must specify") {
        &["missing-field"]
    } else if has("also needs to be enabled in the header") || has("is only supported when using agents") {
        &["ignored-field"]
    } else if msg.starts_with("Unknown hook event type") || msg.starts_with("When 'agents' and 'tools'") {
        &["invalid-value"]
    } else {
        // The shape and value checks: "must be a string", "must not be empty", "must be one of",
        // "Invalid header", "Invalid permission value", "valid glob pattern", ...
        &["invalid-type", "invalid-value", "unknown-agent"]
    }
}

/// Why a marker of VS Code has no counterpart in agent-lsp, if it may not.
fn vs_code_only(file: &str, m: &Marker, body_from: u32) -> Option<&'static str> {
    if !file.starts_with(".github/") {
        return Some(
            "VS Code validates a `.prompt.md` or `.chatmode.md` in any folder, but loads them only from `.github/`: agent-lsp reads the files Copilot loads",
        );
    }
    if file == ".github/agents/README.md" {
        return Some(
            "VS Code's validator marks a README of `.github/agents/`, which its agent list leaves out: agent-lsp does not read it",
        );
    }
    if m.line >= body_from && (m.message.starts_with("File '") || m.message.starts_with("Invalid file reference")) {
        return Some("the body's `#file:` references and Markdown links are not checked by agent-lsp");
    }
    let tool = m.message.split('\'').nth(1).unwrap_or_default();
    if category(m)[0] == "unknown-tool" && (tool.contains('/') || tool.contains('.')) {
        return Some(
            "an MCP server's or an extension's tool: VS Code knows its tools only once the server runs or the extension is installed (none here); agent-lsp checks the server against `.vscode/mcp.json`",
        );
    }
    if category(m)[0] == "unknown-tool" && agent_lsp::analysis::copilot::schema::tool_set(tool).is_some() {
        return Some(
            "a tool set of the Copilot extension (`edit`, `search`, `web`): a VS Code without it knows 32 tools only",
        );
    }
    if category(m)[0] == "unknown-tool" && agent_lsp::analysis::copilot::schema::set_of_tool(tool).is_some() {
        return Some(
            "a tool of the Copilot extension written the older way: agent-lsp says it is renamed, a VS Code without the extension does not know it",
        );
    }
    None
}

/// Why a diagnostic of agent-lsp has no counterpart in VS Code, if it may not.
fn agent_lsp_only(code: &str, severity: Severity, line: u32, message: &str) -> Option<&'static str> {
    match code {
        "syntax-error" if message.starts_with("a plain value holding `: `") => Some(
            "a plain value holding `: `, which VS Code reads to the end of its line and YAML rejects: said for GitHub.com's coding agent",
        ),
        "syntax-error" if message.contains("VS Code stops reading the frontmatter here, without a word") => Some(
            "text after a quoted value: VS Code stops reading the header there and says nothing (its markers on the keys below are missing, which shows it)",
        ),
        "missing-path" => Some("`applyTo` matched against the workspace's files: VS Code's validator does not look"),
        "duplicate-agent" => Some("two agents of one name: VS Code's validator reads one file at a time"),
        "ignored-field" if severity == Severity::Hint => Some(
            "a key GitHub.com's coding agent ignores (GitHub's documentation), said as a hint: VS Code judges for itself",
        ),
        "broad-grant" => Some("an agent with every tool: an opinion about risk, not something the validator checks"),
        "missing-field" if line == 0 => Some(
            "no `description`, which GitHub.com's coding agent needs (GitHub's documentation): VS Code takes the agent",
        ),
        _ => None,
    }
}

/// agent-lsp's diagnostics of the cases workspace: (file, line, code, severity, message).
fn agent_lsp_diagnostics() -> BTreeMap<String, Vec<(u32, String, Severity, String)>> {
    let root = cases_dir();
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).expect("load the cases");
    let root = std::fs::canonicalize(&root).unwrap();
    let mut out: BTreeMap<String, Vec<(u32, String, Severity, String)>> = BTreeMap::new();
    for (id, d) in ws.diagnostics() {
        let f = &ws.files[id];
        let path = std::fs::canonicalize(&f.path).unwrap_or(f.path.clone());
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let pos = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf16);
        out.entry(rel)
            .or_default()
            .push((pos.line, d.code.as_str().to_string(), d.severity, d.message.clone()));
    }
    out
}

/// The line after a file's frontmatter (its body starts there; 0 without a frontmatter).
fn body_from(text: &[u8]) -> u32 {
    let text = String::from_utf8_lossy(text);
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return 0;
    }
    for (i, l) in lines.enumerate() {
        if l.trim_end() == "---" {
            return i as u32 + 2;
        }
    }
    u32::MAX
}

/// The disagreements between VS Code's markers (by file) and agent-lsp, one line each; the
/// agreement table is printed.
fn compare(judged: &BTreeMap<String, Vec<Marker>>, files: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let ours = agent_lsp_diagnostics();
    let mut problems = Vec::new();
    let (mut agreed, mut tolerated) = (0, 0);
    for (file, markers) in judged {
        let mine = ours.get(file).cloned().unwrap_or_default();
        let from = files.get(file).map_or(0, |t| body_from(t));
        for m in markers {
            let cat = category(m);
            if mine
                .iter()
                .any(|(l, c, _, _)| *l == m.line && cat.contains(&c.as_str()))
            {
                agreed += 1;
            } else if let Some(_why) = vs_code_only(file, m, from) {
                tolerated += 1;
            } else {
                problems.push(format!(
                    "{file}:{}: VS Code says {:?} ({cat:?}); agent-lsp says nothing of the kind on that line",
                    m.line + 1,
                    m.message
                ));
            }
        }
        for (line, code, severity, message) in &mine {
            if markers
                .iter()
                .any(|m| m.line == *line && category(m).contains(&code.as_str()))
            {
                continue;
            }
            if agent_lsp_only(code, *severity, *line, message).is_some() {
                tolerated += 1;
                continue;
            }
            problems.push(format!(
                "{file}:{}: agent-lsp says {code} {message:?}; VS Code says nothing of the kind on that line",
                line + 1
            ));
        }
    }
    for file in ours.keys().filter(|f| !judged.contains_key(*f)) {
        problems.push(format!("{file}: agent-lsp reports on it, VS Code did not look at it"));
    }
    eprintln!(
        "copilot-vscode: {} files, {agreed} markers agreed, {tolerated} differences allowed, {} disagreements",
        judged.len(),
        problems.len()
    );
    problems
}

/// Replays the recording: the same workspace, and agent-lsp agrees with what VS Code said.
#[test]
fn agent_lsp_agrees_with_the_recorded_vs_code_validator() {
    let files = case_files();
    let h = workspace_hash(&files);
    let mut replay = Replay::load(NAME);
    let ids: Vec<String> = replay
        .recording
        .cases
        .iter()
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect();
    let mut judged = BTreeMap::new();
    for id in &ids {
        assert!(files.contains_key(id), "{id}: recorded, but not a case file any more");
        judged.insert(id.clone(), markers_of(replay.expect(id, &h)));
    }
    replay.finish();
    let problems = compare(&judged, &files);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The live comparison: `run.sh` has VS Code write its markers to `COPILOT_VSCODE_MARKERS`; they
/// are compared with agent-lsp, then recorded (`RECORD_VERDICTS=1`) or held to the recording.
#[test]
#[ignore = "needs VS Code's markers: run tests/copilot_vscode/run.sh"]
fn agent_lsp_agrees_with_the_vs_code_validator() {
    let path = std::env::var("COPILOT_VSCODE_MARKERS").expect("COPILOT_VSCODE_MARKERS: the markers run.sh wrote");
    let live: BTreeMap<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read the markers")).expect("markers JSON");
    let files = case_files();
    let h = workspace_hash(&files);
    let mut rec = Recording::new(NAME, JUDGE, REGENERATE);
    let mut judged = BTreeMap::new();
    for (file, markers) in &live {
        let list: Vec<Value> = markers.as_array().into_iter().flatten().map(marker_json).collect();
        let answer = json!({ "markers": list });
        judged.insert(file.clone(), markers_of(&answer));
        rec.push(file, &h, answer);
    }
    let mut problems = compare(&judged, &files);
    problems.extend(rec.write_or_compare());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The MCP variables session: which servers of `mcp-cases/.vscode/mcp.json` VS Code starts, and
// with what, against agent-lsp's `unresolved-variable` and `unsubstituted-variable`.
// ---------------------------------------------------------------------------------------------

const MCP_NAME: &str = "copilot-vscode-mcp";
const MCP_JUDGE: &str =
    "VS Code 1.139.1 (code-server 4.139.1): the MCP servers of .vscode/mcp.json it starts, and what it sends them";

fn mcp_case() -> (PathBuf, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/copilot_vscode/mcp-cases");
    let text = std::fs::read_to_string(root.join(".vscode/mcp.json")).expect("read mcp-cases/.vscode/mcp.json");
    (root, text)
}

/// The servers of the case file, each with its line (0-based; one server a line).
fn mcp_servers(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    let mut inside = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("\"servers\"") {
            inside = true;
            continue;
        }
        if inside && line.starts_with("    \"") {
            let name = t[1..].split('"').next().unwrap_or_default().to_string();
            out.push((name, i as u32));
        }
    }
    out
}

/// VS Code's verdict on each server from the live session's output: not started (the error it
/// showed), or started, with what reached the recorder.
fn mcp_verdicts(live: &Value, servers: &[(String, u32)]) -> BTreeMap<String, Value> {
    let errors: Vec<&str> = live["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    servers
        .iter()
        .map(|(name, _)| {
            let prefix = format!("Error starting {name}: ");
            let verdict = match errors.iter().find_map(|e| e.strip_prefix(&prefix)) {
                Some(error) => json!({ "started": false, "error": error.trim_start_matches("CodeExpectedError: ") }),
                None => match live["received"].get(name) {
                    Some(r) => json!({ "started": true, "probe": r["probe"], "env": r["env"] }),
                    None => json!({ "started": null }),
                },
            };
            (name.clone(), verdict)
        })
        .collect()
}

/// Whether a value still holds a variable as written: a balanced `${...}`, or `{env:...}`.
fn holds_a_variable(s: &str) -> bool {
    let balanced = s.match_indices("${").any(|(i, _)| s[i..].contains('}'));
    balanced || s.contains("{env:")
}

/// The disagreements between VS Code's verdicts and agent-lsp's findings on each server's line.
fn mcp_compare(verdicts: &BTreeMap<String, Value>) -> Vec<String> {
    let (root, text) = mcp_case();
    let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).expect("load mcp-cases");
    let mut codes: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (id, d) in ws.diagnostics() {
        let f = &ws.files[id];
        if !f.path.ends_with(".vscode/mcp.json") {
            continue;
        }
        let line = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf16).line;
        codes.entry(line).or_default().push(d.code.as_str().to_string());
    }
    let mut problems = Vec::new();
    let mut agreed = 0;
    for (name, line) in mcp_servers(&text) {
        let Some(v) = verdicts.get(&name) else {
            problems.push(format!("{name}: no verdict"));
            continue;
        };
        let ours = codes.get(&line).cloned().unwrap_or_default();
        let has = |c: &str| ours.iter().any(|o| o == c);
        let ok = match v["started"].as_bool() {
            // VS Code refused to start it: agent-lsp says it cannot resolve a variable.
            Some(false) => has("unresolved-variable"),
            // Started: a variable sent as written is `unsubstituted-variable`; else nothing.
            Some(true) => {
                let sent = format!(
                    "{} {}",
                    v["probe"].as_str().unwrap_or_default(),
                    v["env"].as_str().unwrap_or_default()
                );
                if holds_a_variable(&sent) {
                    has("unsubstituted-variable") && !has("unresolved-variable")
                } else {
                    ours.is_empty()
                }
            }
            None => false,
        };
        if ok {
            agreed += 1;
        } else {
            problems.push(format!("{name} (line {}): VS Code: {v}; agent-lsp: {ours:?}", line + 1));
        }
    }
    println!(
        "copilot-vscode-mcp: {agreed} servers agreed, {} disagreements",
        problems.len()
    );
    problems
}

/// Replays the MCP session's recording: agent-lsp agrees with what VS Code did with each server.
#[test]
fn agent_lsp_agrees_with_the_recorded_mcp_session() {
    let (_, text) = mcp_case();
    let h = verdict_support::hash(text.as_bytes());
    let mut replay = Replay::load(MCP_NAME);
    let mut verdicts = BTreeMap::new();
    for (name, _) in mcp_servers(&text) {
        verdicts.insert(name.clone(), replay.expect(&name, &h).clone());
    }
    replay.finish();
    let problems = mcp_compare(&verdicts);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The live comparison: `run.sh` writes the MCP session's output to `COPILOT_VSCODE_MCP`.
#[test]
#[ignore = "needs the MCP session of VS Code: run tests/copilot_vscode/run.sh"]
fn agent_lsp_agrees_with_the_mcp_session() {
    let path = std::env::var("COPILOT_VSCODE_MCP").expect("COPILOT_VSCODE_MCP: what run.sh's MCP session wrote");
    let live: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read the MCP session")).expect("MCP session JSON");
    let (_, text) = mcp_case();
    let servers = mcp_servers(&text);
    let verdicts = mcp_verdicts(&live, &servers);
    let h = verdict_support::hash(text.as_bytes());
    let mut rec = Recording::new(MCP_NAME, MCP_JUDGE, REGENERATE);
    for (name, _) in &servers {
        rec.push(name, &h, verdicts[name].clone());
    }
    let mut problems = mcp_compare(&verdicts);
    problems.extend(rec.write_or_compare());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_value_holds_a_variable_when_its_braces_close() {
    assert!(holds_a_variable("[${workspaceFoldr}]"));
    assert!(holds_a_variable("[{env:X}]"));
    assert!(!holds_a_variable("[$X $ ${]"));
    assert!(!holds_a_variable("[from-env]"));
}
