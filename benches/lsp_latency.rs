//! Latency of `agent-lsp serve`, measured from the outside over stdio, as an editor sees it:
//!
//! - (a) `didChange` to its `publishDiagnostics` for a typical agent file (~40 lines with
//!   permission maps), 500 iterations alternating two edits;
//! - (b) the same for an `opencode.json` with 500 agents;
//! - (d) the same as (a) for a Claude Code agent (`.claude/agents/`, ~40 lines, a tool list and
//!   hooks), among 20 other Claude agents of the project;
//! - (c) `initialize` (then `initialized`) to the first `publishDiagnostics` for a generated
//!   2,000-file workspace, over several runs;
//! - (e) in one project with 2,000 Markdown agents and an `opencode.json` of 500 agents (all in
//!   one view, the worst case for cross-file checks): `initialize` to the first diagnostics of
//!   the opened agent, then (a)'s edit on that agent, and the server's resident memory;
//! - (f) the same with 10,000 Markdown agents in 10 packages of 1,000;
//! - with `AGNIX_LSP=/path/to/agnix-lsp` (`cargo install agnix-lsp@0.60.3`), the peer and
//!   agent-lsp side by side in one run: full-text edits of one agent alone and among 2,500,
//!   first publish, memory.
//!
//! It drives the release binary (`target/release/agent-lsp`, found next to this bench's own
//! executable) and prints p50 and p95 in milliseconds. Std only: a minimal LSP client with
//! Content-Length framing and just enough JSON scanning to read `publishDiagnostics`.
//!
//! Run with `cargo bench --bench lsp_latency`.

use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------------------------------------
// A minimal JSON scanner: the raw text of one member of an object.
// ---------------------------------------------------------------------------------------------

/// The end (exclusive) of the JSON value starting at `i` (after whitespace).
fn skip_value(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    match s.get(i) {
        Some(b'"') => {
            i += 1;
            while i < s.len() {
                match s[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1,
                    _ => i += 1,
                }
            }
            i
        }
        Some(b'{') | Some(b'[') => {
            let mut depth = 0usize;
            while i < s.len() {
                match s[i] {
                    b'"' => {
                        i = skip_value(s, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            i
        }
        _ => {
            while i < s.len() && !matches!(s[i], b',' | b'}' | b']') && !s[i].is_ascii_whitespace() {
                i += 1;
            }
            i
        }
    }
}

/// The raw value of `key` among the top-level members of the object `obj`.
fn member<'a>(obj: &'a str, key: &str) -> Option<&'a str> {
    let s = obj.as_bytes();
    let mut i = obj.find('{')? + 1;
    loop {
        while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b',') {
            i += 1;
        }
        if i >= s.len() || s[i] == b'}' {
            return None;
        }
        let key_end = skip_value(s, i);
        let name = &obj[i + 1..key_end - 1];
        i = key_end;
        while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b':') {
            i += 1;
        }
        let value_end = skip_value(s, i);
        if name == key {
            return Some(&obj[i..value_end]);
        }
        i = value_end;
    }
}

/// `(uri, version)` when `msg` is a `publishDiagnostics` notification.
fn publish_of(msg: &str) -> Option<(String, Option<i64>)> {
    if member(msg, "method")? != "\"textDocument/publishDiagnostics\"" {
        return None;
    }
    let params = member(msg, "params")?;
    let uri = member(params, "uri")?.trim_matches('"').to_string();
    let version = member(params, "version").and_then(|v| v.parse().ok());
    Some((uri, version))
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

struct Client {
    child: Child,
    stdin: ChildStdin,
    /// Each message the server sent, with the instant its last byte was read.
    rx: Receiver<(Instant, String)>,
    next_id: i64,
}

impl Client {
    fn spawn(bin: &Path, root: &Path, config_home: &Path) -> Client {
        let is_agnix = bin
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("agnix"));
        let mut command = Command::new(bin);
        if !is_agnix {
            command.arg("serve");
        }
        let mut child = command
            .current_dir(root)
            .env("XDG_CONFIG_HOME", config_home)
            .env("HOME", config_home)
            .env_remove("OPENCODE_CONFIG")
            .env_remove("OPENCODE_CONFIG_DIR")
            .env("AGENT_LSP_LOG", "warn")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn agent-lsp serve");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0u8; length.expect("Content-Length")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                // Timed here, where it arrives, not after the hop to the measuring thread.
                let arrived = Instant::now();
                if tx
                    .send((arrived, String::from_utf8(body).expect("UTF-8 body")))
                    .is_err()
                {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            rx,
            next_id: 1,
        }
    }

    fn send(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: &str) {
        self.send(&format!(r#"{{"jsonrpc":"2.0","method":"{method}","params":{params}}}"#));
    }

    fn request(&mut self, method: &str, params: &str) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#
        ));
        id
    }

    /// Read until `pred` holds for a message; the instant it arrived (read by the reader thread).
    fn wait(&mut self, what: &str, mut pred: impl FnMut(&str) -> bool) -> Instant {
        loop {
            let (arrived, msg) = self
                .rx
                .recv_timeout(TIMEOUT)
                .unwrap_or_else(|_| panic!("no {what} from the server"));
            if pred(&msg) {
                return arrived;
            }
        }
    }

    fn wait_response(&mut self, id: i64) {
        self.wait("response", |m| {
            member(m, "id").is_some_and(|v| v == id.to_string()) && member(m, "method").is_none()
        });
    }

    fn wait_publish(&mut self, uri: &str, version: Option<i64>) -> Instant {
        self.wait("publishDiagnostics", |m| {
            publish_of(m).is_some_and(|(u, v)| u == uri && (version.is_none() || v == version))
        })
    }

    fn initialize(&mut self, root: &Path) -> i64 {
        let root_uri = json_string(&format!("file://{}", root.display()));
        let params = format!(
            r#"{{"processId":null,"rootUri":{root_uri},"workspaceFolders":[{{"uri":{root_uri},"name":"bench"}}],"capabilities":{{}}}}"#
        );
        self.request("initialize", &params)
    }

    fn start(bin: &Path, root: &Path, config_home: &Path) -> Client {
        let mut c = Client::spawn(bin, root, config_home);
        let id = c.initialize(root);
        c.wait_response(id);
        c.notify("initialized", "{}");
        c
    }

    /// Spawn, `initialize`, `initialized`, open the Markdown document `uri` at once: the client,
    /// when `initialize` was sent, and when the document's first publish arrived (any version:
    /// agnix does not echo it).
    fn start_and_open(
        bin: &Path,
        root: &Path,
        config_home: &Path,
        uri: &str,
        text: &str,
    ) -> (Client, Instant, Instant) {
        let mut c = Client::spawn(bin, root, config_home);
        let sent = Instant::now();
        let id = c.initialize(root);
        c.wait_response(id);
        c.notify("initialized", "{}");
        c.open(uri, "markdown", 1, text);
        let first = c.wait_publish(uri, None);
        (c, sent, first)
    }

    fn open(&mut self, uri: &str, language: &str, version: i64, text: &str) {
        let params = format!(
            r#"{{"textDocument":{{"uri":{},"languageId":"{language}","version":{version},"text":{}}}}}"#,
            json_string(uri),
            json_string(text)
        );
        self.notify("textDocument/didOpen", &params);
    }

    /// One incremental change on a single line: columns `from..to` of `line` become `text`
    /// (ASCII lines, so UTF-16 columns are byte columns).
    fn change(&mut self, uri: &str, version: i64, line: usize, from: usize, to: usize, text: &str) {
        let params = format!(
            r#"{{"textDocument":{{"uri":{},"version":{version}}},"contentChanges":[{{"range":{{"start":{{"line":{line},"character":{from}}},"end":{{"line":{line},"character":{to}}}}},"text":{}}}]}}"#,
            json_string(uri),
            json_string(text)
        );
        self.notify("textDocument/didChange", &params);
    }

    /// A full-document `didChange` (agnix-lsp offers only full sync).
    fn change_full(&mut self, uri: &str, version: i64, text: &str) {
        let params = format!(
            r#"{{"textDocument":{{"uri":{},"version":{version}}},"contentChanges":[{{"text":{}}}]}}"#,
            json_string(uri),
            json_string(text)
        );
        self.notify("textDocument/didChange", &params);
    }

    fn finish(mut self) {
        let id = self.request("shutdown", "null");
        self.wait_response(id);
        self.send(r#"{"jsonrpc":"2.0","method":"exit"}"#);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// Workspaces
// ---------------------------------------------------------------------------------------------

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("agent-lsp-bench-{tag}-{}-{nanos}", std::process::id()));
        fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir.canonicalize().expect("canonical temp dir"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().expect("parent")).expect("create dirs");
    fs::write(path, text).expect("write file");
}

/// A typical agent: about 40 lines, permission maps, a few findings.
fn agent_file(i: usize, mode: &str) -> String {
    format!(
        "---
description: Reviews pull requests for correctness, style and security ({i})
mode: {mode}
model: anthropic/claude-sonnet-4
temperature: 0.1
color: \"#FF5733\"
steps: 8
permission:
  edit: deny
  webfetch: ask
  bash:
    \"*\": ask
    \"git diff*\": allow
    \"git log *\": allow
    \"git status\": allow
    \"npm test\": allow
    \"rm -rf *\": deny
  external_directory:
    \"~/src/**\": allow
    \"*\": ask
tools:
  write: false
colr: blue
---
You are a careful reviewer.

When reviewing:
- Check error handling and edge cases.
- Check that tests cover the change.
- Point out security problems first.
- Suggest concrete fixes, with code.

Output format:
1. Summary
2. Blocking issues
3. Suggestions
4. Nits

Be concise. Do not rewrite the whole file.
"
    )
}

fn claude_agent_file(i: usize, mode: &str) -> String {
    format!(
        "---
name: reviewer{i}
description: Reviews pull requests for correctness, style and security. Use after every change.
tools: Read, Grep, Glob, Bash, Agent(helper1, Explore), mcp__github__get_pull_request
disallowedTools: Write
model: sonnet
permissionMode: {mode}
maxTurns: 20
effort: high
memory: project
color: cyan
hooks:
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: command
          command: ./scripts/check.sh
tool: Read
---
You are a careful reviewer.

When reviewing:
- Check error handling and edge cases.
- Check that tests cover the change.
- Point out security problems first.
- Suggest concrete fixes, with code.

Output format:
1. Summary
2. Blocking issues
3. Suggestions
4. Nits

Be concise. Do not rewrite the whole file.
"
    )
}

fn big_config(agents: usize) -> String {
    let mut s = String::from(
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"default_agent\": \"agent0\",\n  \"agent\": {\n",
    );
    for i in 0..agents {
        let _ = write!(
            s,
            "    \"agent{i}\": {{\n      \"description\": \"Agent number {i}\",\n      \"mode\": \"{}\",\n      \"model\": \"anthropic/claude-sonnet-4\",\n      \"temperature\": 0.1,\n      \"permission\": {{\n        \"edit\": \"deny\",\n        \"bash\": {{ \"*\": \"ask\", \"git diff*\": \"allow\", \"git log *\": \"allow\" }}\n      }}\n    }}{}\n",
            if i == 0 { "primary" } else { "subagent" },
            if i + 1 < agents { "," } else { "" }
        );
    }
    s.push_str("  }\n}\n");
    s
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(name: &str, mut samples: Vec<f64>) {
    samples.sort_by(f64::total_cmp);
    let pct = |p: f64| samples[((p * samples.len() as f64).ceil() as usize).clamp(1, samples.len()) - 1];
    println!(
        "{name:<52} n={:<4} p50 {:>8.3} ms   p95 {:>8.3} ms   max {:>8.3} ms",
        samples.len(),
        pct(0.50),
        pct(0.95),
        samples[samples.len() - 1]
    );
}

/// `didChange` to `publishDiagnostics`, alternating two single-line edits of `line`.
fn edit_latency(c: &mut Client, uri: &str, line: usize, col: usize, a: &str, b: &str, iterations: usize) -> Vec<f64> {
    let warmup = 20;
    let mut samples = Vec::with_capacity(iterations);
    let mut version = 1;
    let mut current = a;
    for i in 0..warmup + iterations {
        let next = if current == a { b } else { a };
        version += 1;
        let sent = Instant::now();
        c.change(uri, version, line, col, col + current.len(), next);
        let got = c.wait_publish(uri, Some(version));
        current = next;
        if i >= warmup {
            samples.push(ms(got - sent));
        }
    }
    samples
}

fn bench_agent_file(bin: &Path, home: &Path) {
    let ws = TempDir::new("agent");
    let text = agent_file(0, "subagent");
    write(&ws.0, ".opencode/agents/reviewer.md", &text);
    write(&ws.0, "opencode.json", "{ \"default_agent\": \"build\" }\n");
    let mut c = Client::start(bin, &ws.0, home);
    let uri = format!("file://{}", ws.0.join(".opencode/agents/reviewer.md").display());
    c.open(&uri, "markdown", 1, &text);
    c.wait_publish(&uri, Some(1));
    // Line 2 is `mode: subagent`: flip it to an invalid mode and back (diagnostics change).
    let samples = edit_latency(&mut c, &uri, 2, 6, "subagent", "subagnt", 500);
    report("(a) didChange -> publish, 40-line agent", samples);
    c.finish();
}

fn bench_claude_agent(bin: &Path, home: &Path) {
    let ws = TempDir::new("claude");
    for i in 1..=20 {
        write(
            &ws.0,
            &format!(".claude/agents/a{i}.md"),
            &claude_agent_file(i, "default"),
        );
    }
    let text = claude_agent_file(0, "plan");
    write(&ws.0, ".claude/agents/reviewer.md", &text);
    let mut c = Client::start(bin, &ws.0, home);
    let uri = format!("file://{}", ws.0.join(".claude/agents/reviewer.md").display());
    c.open(&uri, "markdown", 1, &text);
    c.wait_publish(&uri, Some(1));
    // Line 6 is `permissionMode: plan`: flip it to an invalid mode and back.
    let samples = edit_latency(&mut c, &uri, 6, 16, "plan", "Plan", 500);
    report("(d) didChange -> publish, 40-line Claude agent", samples);
    c.finish();
}

fn bench_big_config(bin: &Path, home: &Path) {
    let ws = TempDir::new("config");
    let text = big_config(500);
    write(&ws.0, "opencode.json", &text);
    let mut c = Client::start(bin, &ws.0, home);
    let uri = format!("file://{}", ws.0.join("opencode.json").display());
    c.open(&uri, "json", 1, &text);
    c.wait_publish(&uri, Some(1));
    // The `mode` line of the last agent: `      "mode": "subagent",`.
    let line = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"mode\": \"subagent\""))
        .map(|(i, _)| i)
        .last()
        .expect("a mode line");
    let col = text.lines().nth(line).unwrap().find("subagent").unwrap();
    let samples = edit_latency(&mut c, &uri, line, col, "subagent", "subagnt", 500);
    report("(b) didChange -> publish, opencode.json, 500 agents", samples);
    c.finish();
}

fn bench_workspace_scan(bin: &Path, home: &Path) {
    let ws = TempDir::new("scan");
    // 20 packages, each an opencode.json and 99 agents: 2,000 files.
    let mut files = 0;
    for p in 0..20 {
        write(
            &ws.0,
            &format!("packages/p{p}/opencode.json"),
            "{\n  \"default_agent\": \"a0\",\n  \"agnet\": {}\n}\n",
        );
        files += 1;
        for a in 0..99 {
            let mode = if a == 0 { "primary" } else { "subagent" };
            write(
                &ws.0,
                &format!("packages/p{p}/.opencode/agents/a{a}.md"),
                &agent_file(a, mode),
            );
            files += 1;
        }
    }
    assert_eq!(files, 2000);
    let runs = 8;
    let mut samples = Vec::new();
    for run in 0..runs + 1 {
        let mut c = Client::spawn(bin, &ws.0, home);
        let sent = Instant::now();
        let id = c.initialize(&ws.0);
        c.wait_response(id);
        c.notify("initialized", "{}");
        let got = c.wait("the first publishDiagnostics", |m| publish_of(m).is_some());
        // The first run warms the file-system cache.
        if run > 0 {
            samples.push(ms(got - sent));
        }
        c.finish();
    }
    report("(c) initialize -> first publish, 2,000 files", samples);
}

/// The server's resident memory (`VmRSS`), in MiB, on Linux.
fn rss_mib(c: &Client) -> Option<f64> {
    let status = fs::read_to_string(format!("/proc/{}/status", c.child.id())).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// A large workspace: `packages` project folders, each with `per` Markdown agents; the first also
/// has an `opencode.json` with `json_agents` agents. Returns the path of the agent to edit (in
/// the first package) and its text.
fn large_workspace(root: &Path, packages: usize, per: usize, json_agents: usize) -> (PathBuf, String) {
    for p in 0..packages {
        let dir = if packages == 1 {
            String::new()
        } else {
            format!("packages/p{p}/")
        };
        if p == 0 {
            write(root, &format!("{dir}opencode.json"), &big_config(json_agents));
        }
        for a in 0..per {
            write(
                root,
                &format!("{dir}.opencode/agents/md{a}.md"),
                &agent_file(a, if a % 10 == 0 { "primary" } else { "subagent" }),
            );
        }
    }
    let dir = if packages == 1 {
        root.to_path_buf()
    } else {
        root.join("packages/p0")
    };
    let path = dir.join(".opencode/agents/md1.md");
    let text = fs::read_to_string(&path).expect("the agent to edit");
    (path, text)
}

fn bench_large(bin: &Path, home: &Path, tag: &str, label: &str, packages: usize, per: usize, json_agents: usize) {
    let ws = TempDir::new(tag);
    let (path, text) = large_workspace(&ws.0, packages, per, json_agents);
    let uri = format!("file://{}", path.display());
    // Warm the file-system cache once.
    let c = Client::start(bin, &ws.0, home);
    c.finish();
    let (mut c, sent, first) = Client::start_and_open(bin, &ws.0, home, &uri, &text);
    report(
        &format!("({label}) initialize -> first publish of the opened agent"),
        vec![ms(first - sent)],
    );
    // A large workspace is indexed in the background: the other agents' publishes (each has a
    // finding) come when the index is ready. Keystrokes are measured after that.
    let other = format!("file://{}", path.with_file_name("md0.md").display());
    let ready = c.wait_publish(&other, None);
    report(
        &format!("({label}) initialize -> index ready (every file published)"),
        vec![ms(ready - sent)],
    );
    let samples = edit_latency(&mut c, &uri, 2, 6, "subagent", "subagnt", 300);
    report(&format!("({label}) didChange -> publish, an agent among them"), samples);
    if let Some(mib) = rss_mib(&c) {
        println!("({label}) resident memory of the server after indexing and the edits: {mib:.1} MiB");
    }
    c.finish();
}

/// The same measurements with agnix-lsp (`AGNIX_LSP=/path/to/agnix-lsp`), the closest peer, on
/// the same workspaces and edits: full-document changes (its only sync), and the first publish
/// for the document after each change (agnix does not echo versions).
fn bench_agnix(agnix: &Path, ours: &Path, home: &Path) {
    for (label, bin) in [("agent-lsp", ours), ("agnix-lsp", agnix)] {
        // One agent in a 1-file workspace.
        let ws = TempDir::new("peer-a");
        let a = agent_file(0, "subagent");
        let b = a.replacen("mode: subagent", "mode: subagnt", 1);
        write(&ws.0, ".opencode/agents/reviewer.md", &a);
        let mut c = Client::start(bin, &ws.0, home);
        let uri = format!("file://{}", ws.0.join(".opencode/agents/reviewer.md").display());
        c.open(&uri, "markdown", 1, &a);
        c.wait_publish(&uri, None);
        let samples = full_edit_latency(&mut c, &uri, &a, &b, 200);
        report(
            &format!("(peer {label}) full-text didChange -> publish, 1 agent"),
            samples,
        );
        c.finish();
        // The same among 2,000 Markdown agents and an opencode.json of 500.
        let ws = TempDir::new("peer-e");
        let (path, a) = large_workspace(&ws.0, 1, 2000, 500);
        let b = a.replacen("mode: subagent", "mode: subagnt", 1);
        let uri = format!("file://{}", path.display());
        let (mut c, sent, first) = Client::start_and_open(bin, &ws.0, home, &uri, &a);
        report(
            &format!("(peer {label}) initialize -> first publish of the opened agent, 2,500 agents"),
            vec![ms(first - sent)],
        );
        if label == "agent-lsp" {
            // Wait for the background index (see `bench_large`).
            let other = format!("file://{}", path.with_file_name("md0.md").display());
            c.wait_publish(&other, None);
        }
        let samples = full_edit_latency(&mut c, &uri, &a, &b, 200);
        report(
            &format!("(peer {label}) full-text didChange -> publish, among 2,500"),
            samples,
        );
        // A keystroke in that workspace's opencode.json of 500 agents (the last agent's mode).
        let config = ws.0.join("opencode.json");
        let a = fs::read_to_string(&config).expect("the config");
        let at = a.rfind("\"subagent\"").expect("a subagent mode");
        let b = format!("{}\"subagnt\"{}", &a[..at], &a[at + "\"subagent\"".len()..]);
        let config_uri = format!("file://{}", config.display());
        c.open(&config_uri, "json", 1, &a);
        c.wait_publish(&config_uri, None);
        let samples = full_edit_latency(&mut c, &config_uri, &a, &b, 100);
        report(
            &format!("(peer {label}) full-text didChange -> publish, opencode.json of 500"),
            samples,
        );
        if let Some(mib) = rss_mib(&c) {
            println!("(peer {label}) resident memory with 2,500 agents: {mib:.1} MiB");
        }
        c.finish();
    }
}

/// `didChange` (full text) to the next publish for `uri`, alternating `a` and `b`.
fn full_edit_latency(c: &mut Client, uri: &str, a: &str, b: &str, iterations: usize) -> Vec<f64> {
    let warmup = 10;
    let mut samples = Vec::with_capacity(iterations);
    for i in 0..warmup + iterations {
        let text = if i % 2 == 0 { b } else { a };
        let version = i as i64 + 2;
        let sent = Instant::now();
        c.change_full(uri, version, text);
        // The publish of this version (agnix-lsp's publishes carry no version: its next one).
        let got = c.wait("publishDiagnostics", |m| {
            publish_of(m).is_some_and(|(u, v)| u == uri && v.is_none_or(|v| v == version))
        });
        if i >= warmup {
            samples.push(ms(got - sent));
        }
    }
    samples
}

/// `AGENT_LSP_BIN` when set (to compare two builds), else `target/release/agent-lsp`.
fn find_binary() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("AGENT_LSP_BIN") {
        return Some(PathBuf::from(bin));
    }
    let exe = std::env::current_exe().ok()?;
    let name = format!("agent-lsp{}", std::env::consts::EXE_SUFFIX);
    // target/release/deps/lsp_latency-<hash> -> target/release/agent-lsp
    exe.ancestors()
        .skip(1)
        .take(3)
        .map(|dir| dir.join(&name))
        .find(|p| p.is_file() && p.parent().and_then(Path::file_name).is_some_and(|n| n == "release"))
}

fn main() {
    check_scanner();
    let Some(bin) = find_binary() else {
        println!("lsp_latency: target/release/agent-lsp not found; build it first with `cargo build --release`");
        return;
    };
    let home = TempDir::new("home");
    println!("lsp_latency: {}", bin.display());
    // `cargo bench` passes `--bench`; a non-flag argument selects rows by substring of their
    // group name: `agent`, `claude`, `config`, `scan`, `large`, `huge`, `peer`.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let started = Instant::now();
    if wanted("agent") {
        bench_agent_file(&bin, &home.0);
    }
    if wanted("claude") {
        bench_claude_agent(&bin, &home.0);
    }
    if wanted("config") {
        bench_big_config(&bin, &home.0);
    }
    if wanted("scan") {
        bench_workspace_scan(&bin, &home.0);
    }
    if wanted("large") {
        bench_large(&bin, &home.0, "large", "e: 2,000 md + 500 json", 1, 2000, 500);
    }
    if wanted("huge") {
        bench_large(&bin, &home.0, "huge", "f: 10,000 md", 10, 1000, 500);
    }
    if let Some(agnix) = std::env::var_os("AGNIX_LSP")
        && wanted("peer")
    {
        bench_agnix(Path::new(&agnix), &bin, &home.0);
    }
    println!("lsp_latency: done in {:.1} s", started.elapsed().as_secs_f64());
}

/// The scanner reads the top-level `uri`, not one nested in a related location.
fn check_scanner() {
    let msg = r#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":[{"message":"a \"uri\": x","relatedInformation":[{"location":{"uri":"file:///other"}}]}],"uri":"file:///x","version":3}}"#;
    assert_eq!(publish_of(msg), Some(("file:///x".to_string(), Some(3))));
}
