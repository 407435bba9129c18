//! `.mcp.json` with Claude Code as the judge: `claude mcp list` (in the same empty home as the
//! agent cases) prints "MCP config diagnostics" for the `.mcp.json` of the folder it starts in,
//! one line per server it skips or warns about (`[Warning] [a] mcpServers.a: Skipped — ...`) and
//! one line for a file it cannot read at all (`[Error] MCP config is not a valid JSON`), and lists
//! the servers it keeps (`a: cmd args - ⏸ Pending approval`).
//!
//! Each case is one folder with one `.mcp.json`. Server cases write one server per line, so that
//! a server is its line. For every case:
//!
//! - a server Claude Code skips has an agent-lsp error on its line (and a server it keeps has
//!   none): `agent-lsp check --format json`, run once over every case folder;
//! - a file Claude Code cannot read (a line without a server) has an agent-lsp error with the
//!   effect `file-ignored`, and a file it reads has none;
//! - what Claude Code lists is what it kept (the parse of its output is checked too).
//!
//! The cases: hand-written files (every skip reason the release prints, valid servers of each
//! transport, variables, blanks, reserved names, strict-JSON problems, a file without
//! `mcpServers`), and generated ones: each field of each transport given values of every JSON
//! type and the edge values of its constraint. The test prints a tally and fails on any
//! disagreement.
//!
//! Recorded: the live test writes what `claude mcp list` said per case (the lines about the
//! file, the servers skipped with their message, the servers listed) to
//! `tests/verdicts/claude-mcp.jsonl` with `RECORD_VERDICTS=1`, and otherwise fails when it
//! differs from that file. `mcp_json_agrees_with_recorded_claude_code` (plain `cargo test`) lays
//! the cases out again, checks that each file hashes as recorded, runs agent-lsp the same way and
//! compares it with the recorded answers (`compare`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use super::answers::Places;
use super::oracle::Home;
use super::verdict_support::{self, Recording, Replay};
use super::{REGENERATE, agent_lsp, canon, check_recording, judge_name};

/// The recording of the `.mcp.json` cases.
const MCP_REC: &str = "claude-mcp";

/// One `.mcp.json` to judge.
struct McpCase {
    name: String,
    /// The file's text.
    text: String,
    /// Server name by (1-based) line, for server cases.
    lines: BTreeMap<usize, String>,
}

/// A file of servers, one a line: `{"mcpServers": {` then `"name": value,` each.
fn servers(name: &str, list: &[(String, String)]) -> McpCase {
    let mut text = String::from("{\"mcpServers\": {\n");
    let mut lines = BTreeMap::new();
    for (i, (server, value)) in list.iter().enumerate() {
        let comma = if i + 1 < list.len() { "," } else { "" };
        text.push_str(&format!("{}: {value}{comma}\n", serde_json::to_string(server).unwrap()));
        lines.insert(i + 2, server.clone());
    }
    text.push_str("}}\n");
    McpCase {
        name: name.to_string(),
        text,
        lines,
    }
}

fn s(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

/// A whole file, as written.
fn raw(name: &str, text: &str) -> McpCase {
    McpCase {
        name: name.to_string(),
        text: text.to_string(),
        lines: BTreeMap::new(),
    }
}

fn hand_written() -> Vec<McpCase> {
    vec![
        servers(
            "stdio",
            &[
                s("ok-plain", r#"{"command": "npx", "args": ["-y", "@scope/server"]}"#),
                s(
                    "ok-typed",
                    r#"{"type": "stdio", "command": "./bin/s", "env": {"A": "1"}, "timeout": 3000}"#,
                ),
                s(
                    "ok-vars",
                    r#"{"command": "${HOME}/bin/s", "args": ["${A:-x}", "${B}"], "env": {"K": "${K:-d}"}}"#,
                ),
                s(
                    "ok-forms",
                    r#"{"command": "x", "args": ["{env:TOKEN}", "${A-x}", "${env:B}", "${1}"]}"#,
                ),
                s("ok-blank", r#"{"command": " x ", "args": ["a "], "env": {" K": "v "}}"#),
                s(
                    "ok-dropped",
                    r#"{"command": "x", "cwd": "/tmp", "disabled": true, "url": "https://x", "comand": "y"}"#,
                ),
                s(
                    "ok-internal",
                    r#"{"command": "x", "role": 5, "bareElicitationCapability": true, "alwaysLoad": false}"#,
                ),
                s("bad-command-number", r#"{"command": 5}"#),
                s("bad-command-empty", r#"{"command": ""}"#),
                s("bad-command-missing", r#"{"comand": "x"}"#),
                s("bad-args-item", r#"{"command": "x", "args": [1]}"#),
                s("bad-args-string", r#"{"command": "x", "args": "-y"}"#),
                s("bad-env-value", r#"{"command": "x", "env": {"A": 1}}"#),
                s("bad-timeout-zero", r#"{"command": "x", "timeout": 0}"#),
                s("bad-timeout-float", r#"{"command": "x", "timeout": 1.5}"#),
                s("bad-bare", r#"{"command": "x", "bareElicitationCapability": "yes"}"#),
                s("bad-not-object", r#""npx server""#),
                s("bad-null", "null"),
                s("bad-type-number", r#"{"type": 5, "command": "x"}"#),
                s("bad-skipped-vars", r#"{"command": "{env:X}", "args": [1]}"#),
            ],
        ),
        servers(
            "remote",
            &[
                s(
                    "ok-sse",
                    r#"{"type": "sse", "url": "https://x.dev/sse", "headers": {"Authorization": "Bearer ${API_KEY}"}}"#,
                ),
                s(
                    "ok-http",
                    r#"{"type": "http", "url": "${BASE:-https://x.dev}/mcp", "oauth": {"clientId": "c", "callbackPort": 8080, "authServerMetadataUrl": "https://auth.x.dev/.well-known", "scopes": "read write", "xaa": false}, "tools": [{"name": "t", "permission_policy": "always_ask"}], "toolPermissions": {"t": "allow"}, "headersHelper": "./token.sh", "discoveryCache": true}"#,
                ),
                s(
                    "ok-streamable",
                    r#"{"type": "streamable-http", "url": "https://x.dev/mcp"}"#,
                ),
                s("ok-ws", r#"{"type": "ws", "url": "wss://x.dev/ws"}"#),
                s(
                    "ok-loose",
                    r#"{"type": "http", "url": "https://x.dev", "displayName": 5, "role": [], "request_timeout_ms": "soon", "orgMaxPermission": 1}"#,
                ),
                s(
                    "ok-oauth-vars",
                    r#"{"type": "http", "url": "https://x/{env:HOST}", "oauth": {"clientId": "${CLIENT_ID}", "clientid": "x"}}"#,
                ),
                s(
                    "ok-ws-dropped",
                    r#"{"type": "ws", "url": "wss://x", "oauth": {"clientId": 5}, "tools": 5}"#,
                ),
                s("bad-url-missing", r#"{"type": "http"}"#),
                s("bad-url-number", r#"{"type": "http", "url": 5}"#),
                s(
                    "bad-callback-port",
                    r#"{"type": "sse", "url": "https://x", "oauth": {"callbackPort": "1"}}"#,
                ),
                s(
                    "bad-metadata-http",
                    r#"{"type": "http", "url": "https://x", "oauth": {"authServerMetadataUrl": "http://x"}}"#,
                ),
                s(
                    "bad-tools",
                    r#"{"type": "http", "url": "https://x", "tools": [{"permission_policy": "always"}]}"#,
                ),
                s(
                    "bad-tool-permission",
                    r#"{"type": "http", "url": "https://x", "toolPermissions": {"a": "deny"}}"#,
                ),
                s(
                    "bad-headers",
                    r#"{"type": "sse", "url": "https://x", "headers": {"A": 1}}"#,
                ),
                s("bad-url-no-type", r#"{"url": "https://x.dev/mcp"}"#),
            ],
        ),
        servers(
            "types-and-names",
            &[
                s("bad-type-typo", r#"{"type": "stdioo", "command": "x"}"#),
                s("bad-type-case", r#"{"type": "HTTP", "url": "https://x"}"#),
                s("bad-type-websocket", r#"{"type": "websocket", "url": "wss://x"}"#),
                s("bad-type-sdk", r#"{"type": "sdk", "name": "x"}"#),
                s(
                    "bad-type-proxy",
                    r#"{"type": "claudeai-proxy", "url": "https://x", "id": "y"}"#,
                ),
                s("workspace", r#"{"command": "x"}"#),
                s("__proto__", r#"{"command": "x"}"#),
                s("Claude in Chrome", r#"{"command": "x"}"#),
                s("computer-use", r#"{"command": "x"}"#),
                s("claude_ai", r#"{"command": "x"}"#),
                s("my-workspace", r#"{"command": "x"}"#),
                s("ide", r#"{"command": "x"}"#),
                s("a.b", r#"{"command": "x"}"#),
                s("日本🚀", r#"{"command": "x"}"#),
                s("", r#"{"command": "x"}"#),
            ],
        ),
        raw("comment", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}} // c\n}\n"),
        raw(
            "block-comment",
            "/* c */ {\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\n",
        ),
        raw("trailing-comma", "{\"mcpServers\": {\"a\": {\"command\": \"x\"},}}\n"),
        raw("unclosed", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}\n"),
        raw("top-array", "[1]\n"),
        raw("top-null", "null\n"),
        raw("top-string", "\"x\"\n"),
        raw("top-number", "5\n"),
        raw("empty-object", "{}\n"),
        raw("servers-key", "{\"servers\": {\"a\": {\"command\": \"x\"}}}\n"),
        raw("mcp-servers-key", "{\"mcp_servers\": {\"a\": {\"command\": \"x\"}}}\n"),
        raw("servers-array", "{\"mcpServers\": []}\n"),
        raw("servers-null", "{\"mcpServers\": null}\n"),
        raw("servers-string", "{\"mcpServers\": \"a\"}\n"),
        raw("blank", "  \n"),
        raw("empty-file", ""),
        raw("bom", "\u{feff}{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}\n"),
        raw("no-servers", "{\"mcpServers\": {}}\n"),
        raw(
            "extra-keys",
            "{\"$schema\": \"x\", \"mcpServers\": {\"a\": {\"command\": \"x\"}}, \"version\": 1}\n",
        ),
        raw(
            "duplicate-server",
            "{\"mcpServers\": {\"a\": {\"command\": 5}, \"a\": {\"command\": \"x\"}}}\n",
        ),
        raw("single-quotes", "{'mcpServers': {}}\n"),
    ]
}

/// Values of every JSON type and the edges of each field's constraint, each given to a field of
/// a server that is otherwise valid.
fn generated() -> Vec<McpCase> {
    let any = [
        "5",
        "1.5",
        "-1",
        "0",
        "true",
        "null",
        "\"\"",
        "\" \"",
        "\"x\"",
        "[]",
        "[\"x\"]",
        "[1]",
        "{}",
        "{\"a\": \"b\"}",
        "{\"a\": 1}",
    ];
    let fields_stdio = [
        "command",
        "args",
        "env",
        "timeout",
        "alwaysLoad",
        "bareElicitationCapability",
        "role",
        "type",
    ];
    let fields_remote = [
        "url",
        "headers",
        "headersHelper",
        "oauth",
        "timeout",
        "request_timeout_ms",
        "tools",
        "alwaysLoad",
        "displayName",
        "bareElicitationCapability",
        "discoveryCache",
        "role",
        "toolPermissions",
        "orgMaxPermission",
    ];
    let extra_timeout = ["1e3", "2147483648", "9007199254740993", "1.0"];
    let oauth = [
        "{\"callbackPort\": 0}",
        "{\"callbackPort\": 1.5}",
        "{\"callbackPort\": 65536}",
        "{\"scopes\": \"\"}",
        "{\"xaa\": \"y\"}",
        "{\"clientId\": 5}",
        "{\"authServerMetadataUrl\": \"https://\"}",
        "{\"authServerMetadataUrl\": \"https:// x\"}",
        "{\"authServerMetadataUrl\": \"HTTPS://x\"}",
        "{\"authServerMetadataUrl\": \"https://x/?a#b\"}",
        "{\"authServerMetadataUrl\": 5}",
        "{\"unknown\": 1}",
    ];
    let tools = [
        "[{\"name\": 5}]",
        "[{\"name\": \"t\", \"permission_policy\": 5}]",
        "[\"t\"]",
        "[{}]",
        "[{\"name\": \"t\", \"x\": 1}]",
    ];
    let long_url = format!("\"https://x.dev/{}\"", "a".repeat(65_536));
    let mut out = Vec::new();
    let mut list = Vec::new();
    for f in fields_stdio {
        let values: Vec<&str> = any
            .iter()
            .copied()
            .chain(if f == "timeout" {
                extra_timeout.to_vec()
            } else {
                Vec::new()
            })
            .collect();
        for (i, v) in values.iter().enumerate() {
            let server = if f == "command" {
                format!("{{\"command\": {v}}}")
            } else {
                format!("{{\"command\": \"x\", \"{f}\": {v}}}")
            };
            list.push((format!("stdio-{f}-{i}"), server));
        }
    }
    out.push(servers("gen-stdio", &list));
    for t in ["sse", "http", "streamable-http", "ws"] {
        let mut list = Vec::new();
        for f in fields_remote {
            let mut values: Vec<String> = any.iter().map(|s| s.to_string()).collect();
            match f {
                "timeout" | "request_timeout_ms" => values.extend(extra_timeout.iter().map(|s| s.to_string())),
                "oauth" => values.extend(oauth.iter().map(|s| s.to_string())),
                "tools" => values.extend(tools.iter().map(|s| s.to_string())),
                "url" => values.push(long_url.clone()),
                _ => {}
            }
            for (i, v) in values.iter().enumerate() {
                let server = if f == "url" {
                    format!("{{\"type\": \"{t}\", \"url\": {v}}}")
                } else {
                    format!("{{\"type\": \"{t}\", \"url\": \"https://x.dev\", \"{f}\": {v}}}")
                };
                list.push((format!("{t}-{f}-{i}"), server));
            }
        }
        out.push(servers(&format!("gen-{t}"), &list));
    }
    out
}

/// What Claude Code said about one folder's `.mcp.json`.
#[derive(Debug, Default, PartialEq)]
struct Theirs {
    /// Servers it skipped, with its message.
    skipped: BTreeMap<String, String>,
    /// Servers it warned about but kept.
    warned: BTreeMap<String, String>,
    /// Lines about the whole file.
    file: Vec<String>,
    /// Servers it lists (kept).
    listed: BTreeSet<String>,
}

fn claude_mcp_list(bin: &Path, home: &Home, dir: &Path, declared: &[String]) -> Theirs {
    let out = home
        .command(bin)
        .args(["mcp", "list"])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let mut theirs = Theirs::default();
    for line in text.lines() {
        let t = line.trim_start_matches([' ', '├', '└', '│']);
        let rest = t.strip_prefix("[Warning] ").or_else(|| t.strip_prefix("[Error] "));
        if let Some(rest) = rest {
            // `[name] mcpServers.name: message`, or a line about the file.
            let server = declared
                .iter()
                .find(|n| rest.starts_with(&format!("[{n}] mcpServers.{n}: ")));
            match server {
                Some(n) => {
                    let msg = rest[format!("[{n}] mcpServers.{n}: ").len()..].to_string();
                    if msg.starts_with("Skipped") || msg.contains("reserved MCP server name") {
                        theirs.skipped.insert(n.clone(), msg);
                    } else {
                        theirs.warned.insert(n.clone(), msg);
                    }
                }
                None => theirs.file.push(rest.to_string()),
            }
            continue;
        }
        // The listing: `name: what - status`.
        if let Some(n) = declared
            .iter()
            .find(|n| line.strip_prefix(&format!("{n}: ")).is_some_and(|r| r.contains(" - ")))
        {
            theirs.listed.insert(n.clone());
        }
    }
    theirs
}

/// An agent-lsp diagnostic: its (1-based) line, severity, effect, code, message.
#[derive(Debug, Clone)]
struct Ours {
    line: usize,
    severity: String,
    effect: String,
    code: String,
    message: String,
}

fn our_diagnostics(home: &Home, root: &Path) -> BTreeMap<String, Vec<Ours>> {
    let out = home
        .command(&agent_lsp())
        .args(["check", "--format", "json", "."])
        .current_dir(root)
        .output()
        .expect("run agent-lsp");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "agent-lsp check: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut by_case: BTreeMap<String, Vec<Ours>> = BTreeMap::new();
    for d in v["diagnostics"].as_array().expect("diagnostics") {
        let path = d["path"].as_str().unwrap_or_default();
        let Some(case) = path.strip_suffix("/.mcp.json") else {
            continue;
        };
        let case = case.trim_start_matches("./").to_string();
        by_case.entry(case).or_default().push(Ours {
            line: d["range"]["start"]["line"].as_u64().unwrap_or(0) as usize,
            severity: d["severity"].as_str().unwrap_or_default().to_string(),
            effect: d["effect"].as_str().unwrap_or_default().to_string(),
            code: d["code"].as_str().unwrap_or_default().to_string(),
            message: d["message"].as_str().unwrap_or_default().to_string(),
        });
    }
    by_case
}

/// The servers a file declares, as JSON reads it (the last of a name written twice), for
/// matching Claude Code's lines; empty when it is not an object of servers.
fn declared(text: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap_or(Value::Null);
    let mut names: Vec<String> = v["mcpServers"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    // Longest first: `[a.b] mcpServers.a.b:` must not be read as server `a`.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names
}

impl Theirs {
    /// The recorded form: what the comparison reads (not the warnings), paths in messages
    /// written relative to the case's folder (`at`).
    fn to_json(&self, at: &Places) -> Value {
        let mut v = json!({"listed": self.listed});
        if !self.file.is_empty() {
            v["file"] = json!(self.file.iter().map(|l| at.text(l)).collect::<Vec<_>>());
        }
        if !self.skipped.is_empty() {
            let m: serde_json::Map<String, Value> = self
                .skipped
                .iter()
                .map(|(n, m)| (n.clone(), json!(at.text(m))))
                .collect();
            v["skipped"] = Value::Object(m);
        }
        v
    }

    fn from_json(v: &Value) -> Theirs {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        Theirs {
            skipped: v["skipped"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(n, m)| (n.clone(), text(m)))
                .collect(),
            warned: BTreeMap::new(),
            file: v["file"].as_array().into_iter().flatten().map(text).collect(),
            listed: v["listed"].as_array().into_iter().flatten().map(text).collect(),
        }
    }
}

/// The cases, laid out under `root` (a folder each), and the home they run in.
fn lay_out(tmp: &Path) -> (Vec<McpCase>, Home, std::path::PathBuf) {
    let home = Home::new(tmp);
    let root = tmp.join("cases");
    let mut cases = hand_written();
    cases.extend(generated());
    for c in &cases {
        let dir = root.join(&c.name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join(".mcp.json"), &c.text).unwrap();
    }
    (cases, home, root)
}

/// The tally of the comparison.
#[derive(Default)]
struct Tally {
    problems: Vec<String>,
    rows: Vec<String>,
    servers: usize,
    skipped: usize,
    files: usize,
    refused: usize,
    servers_agreeing: usize,
}

/// Compare agent-lsp's diagnostics on one case (`mine`) with what Claude Code said about it.
fn compare(t: &mut Tally, c: &McpCase, theirs: &Theirs, mine: &[Ours]) {
    let errors: Vec<&Ours> = mine.iter().filter(|d| d.severity == "error").collect();
    t.files += 1;
    // The whole file.
    let they_refuse_file = !theirs.file.is_empty();
    let we_refuse_file = errors.iter().any(|d| d.effect == "file-ignored");
    if they_refuse_file {
        t.refused += 1;
    }
    if they_refuse_file != we_refuse_file {
        t.problems.push(format!(
            "{}: Claude Code {} the file ({:?}); agent-lsp {}",
            c.name,
            if they_refuse_file { "refuses" } else { "reads" },
            theirs.file,
            if we_refuse_file {
                "says it is ignored"
            } else {
                "does not say it is ignored"
            }
        ));
    }
    // Each server: skipped or kept.
    let mut agree = 0;
    for (line, name) in &c.lines {
        t.servers += 1;
        let skipped = theirs.skipped.get(name);
        let on_line: Vec<&&Ours> = errors.iter().filter(|d| d.line == *line).collect();
        if skipped.is_some() {
            t.skipped += 1;
        }
        let ok = match skipped {
            Some(why) => {
                let ok = !on_line.is_empty();
                if !ok {
                    t.problems.push(format!(
                        "{} `{name}` (line {line}): Claude Code skips it ({why}); agent-lsp has no error there",
                        c.name
                    ));
                }
                ok
            }
            None => {
                let ok = on_line.is_empty();
                if !ok {
                    let ds: Vec<String> = on_line.iter().map(|d| format!("{}: {}", d.code, d.message)).collect();
                    t.problems.push(format!(
                        "{} `{name}` (line {line}): Claude Code keeps it; agent-lsp errors: {ds:?}",
                        c.name
                    ));
                }
                // The parse of Claude Code's output: a kept server is listed.
                if !theirs.listed.contains(name) && !name.is_empty() && !they_refuse_file {
                    t.problems.push(format!(
                        "{} `{name}`: neither skipped nor listed by Claude Code (parse of its output?)",
                        c.name
                    ));
                }
                ok
            }
        };
        if ok {
            agree += 1;
        }
    }
    t.servers_agreeing += agree;
    t.rows.push(format!(
        "{:<22} {:>8} {:>8} {:>8} {:>6}",
        c.name,
        c.lines.len(),
        c.lines.values().filter(|n| theirs.skipped.contains_key(*n)).count(),
        agree,
        if they_refuse_file { "refused" } else { "read" }
    ));
}

/// Print the tally; fail on any disagreement.
fn report(t: &Tally, judge: &str) {
    eprintln!(
        "\n{:<22} {:>8} {:>8} {:>8} {:>6}",
        "case", "servers", "skipped", "agree", "file"
    );
    for r in &t.rows {
        eprintln!("{r}");
    }
    eprintln!(
        "\n.mcp.json against {judge}: {} files ({} refused whole), {} servers on their own line ({} skipped); servers agreeing: {}/{}; disagreements: {}",
        t.files,
        t.refused,
        t.servers,
        t.skipped,
        t.servers_agreeing,
        t.servers,
        t.problems.len()
    );
    for p in &t.problems {
        eprintln!("  {p}");
    }
    assert!(t.servers > 0 && t.skipped > 0, "nothing was compared");
    assert!(t.problems.is_empty(), "{} disagreements with {judge}", t.problems.len());
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn mcp_json_agrees_with_claude_code() {
    let bin = std::path::PathBuf::from(
        std::env::var_os("CLAUDE_BIN")
            .expect("set CLAUDE_BIN to the Claude Code 2.1.332 executable (tests/claude_runtime/run.sh)"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let (cases, home, root) = lay_out(&tmp);
    let ours = our_diagnostics(&home, &root);
    let mut rec = Recording::new(MCP_REC, &judge_name(), REGENERATE);
    let mut t = Tally::default();
    for c in &cases {
        let dir = root.join(&c.name);
        let theirs = claude_mcp_list(&bin, &home, &dir, &declared(&c.text));
        rec.push(
            &c.name,
            &verdict_support::hash(c.text.as_bytes()),
            theirs.to_json(&Places::new(&dir, &home.home, &tmp)),
        );
        compare(
            &mut t,
            c,
            &theirs,
            ours.get(&c.name).map(Vec::as_slice).unwrap_or_default(),
        );
    }
    check_recording(&rec, false);
    report(&t, &judge_name());
}

/// The replay: `claude mcp list`'s answers from `tests/verdicts/claude-mcp.jsonl`.
#[test]
fn mcp_json_agrees_with_recorded_claude_code() {
    let mut replay = Replay::load(MCP_REC);
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let (cases, home, root) = lay_out(&tmp);
    let ours = our_diagnostics(&home, &root);
    let mut t = Tally::default();
    for c in &cases {
        let theirs = Theirs::from_json(replay.expect(&c.name, &verdict_support::hash(c.text.as_bytes())));
        compare(
            &mut t,
            c,
            &theirs,
            ours.get(&c.name).map(Vec::as_slice).unwrap_or_default(),
        );
    }
    replay.finish();
    report(&t, &format!("the recorded {}", judge_name()));
}

#[test]
fn an_mcp_answer_survives_its_recording() {
    let tmp = tempfile::tempdir().unwrap();
    let t = canon(tmp.path());
    let at = Places::new(&t.join("c"), &t.join("home"), &t);
    let theirs = Theirs {
        skipped: [("a".to_string(), "Skipped — x".to_string())].into(),
        warned: BTreeMap::new(),
        file: vec![format!(
            "MCP config is not a valid JSON: {}/.mcp.json",
            t.join("c").display()
        )],
        listed: ["b".to_string()].into(),
    };
    let v = theirs.to_json(&at);
    assert_eq!(v["file"][0], "MCP config is not a valid JSON: ./.mcp.json");
    let back = Theirs::from_json(&v);
    assert_eq!((&back.skipped, &back.listed), (&theirs.skipped, &theirs.listed));
    assert_eq!(back.to_json(&at), v);
}
