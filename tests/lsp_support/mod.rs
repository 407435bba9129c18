#![allow(dead_code)] // Shared by several test crates; each uses a part of it.
//! A small LSP client for the end-to-end tests of `agent-lsp serve`.
//!
//! It spawns the real binary with `AGENT_LSP_TEST_HOOKS=1` and `XDG_CONFIG_HOME`/`HOME` pointed
//! at empty temp dirs (so the machine's opencode configuration never leaks in), and speaks LSP
//! over the child's stdin/stdout with Content-Length framing:
//!
//! - a reader thread parses frames into a channel and answers the server's own requests
//!   (`client/registerCapability`, `workspace/configuration`) on the spot, logging them;
//! - [`Server::request`] matches the reply by id and keeps the notifications that arrive
//!   meanwhile; [`Server::expect_publish`] takes the next `publishDiagnostics` for one URI;
//! - [`Server::sync`] is a barrier: it edits a scratch `untitled:` document and waits for that
//!   publish. The server handles notifications in order and sends publishes in order, so
//!   everything caused by earlier messages has arrived by then;
//! - [`Server::finish`] checks that no publish is left unread, then shuts down and exits and
//!   expects status 0.
//!
//! Positions are computed here from the test's own model of the text, in UTF-8 bytes or UTF-16
//! code units, with `\n`, `\r\n` and a lone `\r` as line breaks (as the protocol says).

use std::collections::VecDeque;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tempfile::TempDir;

/// How long to wait for the server while it is silent (generous; the tests are fast).
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The scratch document [`Server::sync`] edits.
pub const BARRIER: &str = "untitled:agent-lsp-test-barrier";

pub const BIN: &str = env!("CARGO_BIN_EXE_agent-lsp");

// ---------------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------------

/// The negotiated position encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enc {
    Utf8,
    Utf16,
}

impl Enc {
    pub fn name(self) -> &'static str {
        match self {
            Enc::Utf8 => "utf-8",
            Enc::Utf16 => "utf-16",
        }
    }

    pub fn units(self, c: char) -> u32 {
        match self {
            Enc::Utf8 => c.len_utf8() as u32,
            Enc::Utf16 => c.len_utf16() as u32,
        }
    }
}

/// Zero-based line and column of the byte offset `off` (a char boundary, never between the
/// `\r` and `\n` of a CRLF) in `enc` units.
pub fn line_col(text: &str, off: usize, enc: Enc) -> (u32, u32) {
    assert!(text.is_char_boundary(off), "offset {off} is not a char boundary");
    let bytes = text.as_bytes();
    assert!(
        !(off > 0 && off < bytes.len() && bytes[off - 1] == b'\r' && bytes[off] == b'\n'),
        "offset {off} splits a CRLF"
    );
    let (mut line, mut col) = (0u32, 0u32);
    for (i, c) in text[..off].char_indices() {
        match c {
            '\n' => (line, col) = (line + 1, 0),
            '\r' if bytes.get(i + 1) == Some(&b'\n') => {}
            '\r' => (line, col) = (line + 1, 0),
            c => col += enc.units(c),
        }
    }
    (line, col)
}

pub fn position(text: &str, off: usize, enc: Enc) -> Value {
    let (line, character) = line_col(text, off, enc);
    json!({ "line": line, "character": character })
}

pub fn range(text: &str, start: usize, end: usize, enc: Enc) -> Value {
    json!({ "start": position(text, start, enc), "end": position(text, end, enc) })
}

/// The lines of `text` as `(start, end)` byte offsets without their line break (`\n`, `\r\n`
/// or a lone `\r`); a text ending in a line break has an empty last line.
pub fn lines(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((start, i));
                start = i + 1;
            }
            b'\r' => {
                out.push((start, i));
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push((start, text.len()));
    out
}

/// The byte offset of the LSP position `line:character` (in `enc` units), or `None` when the
/// position is not in the text: a line past the last, a character past the end of its line, or
/// one that falls inside a character (a UTF-8 sequence or a UTF-16 surrogate pair).
pub fn offset_at(text: &str, line: u32, character: u32, enc: Enc) -> Option<usize> {
    let (start, end) = *lines(text).get(line as usize)?;
    let mut col = 0u32;
    for (i, c) in text[start..end].char_indices() {
        if col == character {
            return Some(start + i);
        }
        col += enc.units(c);
        if col > character {
            return None;
        }
    }
    (col == character).then_some(end)
}

/// The byte offsets of an LSP range, if both ends are in the text and start <= end.
pub fn offsets_of_range(text: &str, range: &Value, enc: Enc) -> Option<(usize, usize)> {
    let at = |p: &Value| offset_at(text, p["line"].as_u64()? as u32, p["character"].as_u64()? as u32, enc);
    let (s, e) = (at(&range["start"])?, at(&range["end"])?);
    (s <= e).then_some((s, e))
}

/// The byte range of the first occurrence of `needle` (which must occur).
pub fn find(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in {text:?}"));
    (at, at + needle.len())
}

/// The LSP range of the first occurrence of `needle`.
pub fn range_of(text: &str, needle: &str, enc: Enc) -> Value {
    let (s, e) = find(text, needle);
    range(text, s, e, enc)
}

/// An incremental change replacing bytes `start..end` of `text` with `new`, and the new text.
pub fn edit(text: &str, start: usize, end: usize, new: &str, enc: Enc) -> (Value, String) {
    let change = json!({ "range": range(text, start, end, enc), "text": new });
    let mut after = String::with_capacity(text.len() + new.len());
    after.push_str(&text[..start]);
    after.push_str(new);
    after.push_str(&text[end..]);
    (change, after)
}

/// Replace the first occurrence of `old` with `new`: the change and the new text.
pub fn replace(text: &str, old: &str, new: &str, enc: Enc) -> (Value, String) {
    let (s, e) = find(text, old);
    edit(text, s, e, new, enc)
}

// ---------------------------------------------------------------------------------------------
// Workspaces and diagnostics
// ---------------------------------------------------------------------------------------------

/// A temp dir holding `files` (relative path, content).
pub fn workspace(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("create temp dir");
    write_files(dir.path(), files);
    dir
}

pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().expect("file has a parent")).expect("create dirs");
        fs::write(&path, text).expect("write file");
    }
}

/// The canonical path of a temp dir (the server canonicalises what it finds).
pub fn root_of(dir: &TempDir) -> PathBuf {
    dir.path().canonicalize().expect("canonical temp dir")
}

/// The `file://` URI of `path`, percent-encoded as editors do (for the ASCII temp paths of most
/// tests this is `format!("file://{}", path.display())`).
pub fn uri_of(path: &Path) -> String {
    let mut out = String::from("file://");
    for &b in path.to_str().expect("UTF-8 path").as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One line per diagnostic: `line:col-line:col S code` (S is E, W, I or H).
pub fn summary(publish: &Value) -> Vec<String> {
    publish["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("no diagnostics array in {publish}"))
        .iter()
        .map(|d| {
            let r = &d["range"];
            let sev = match d["severity"].as_i64() {
                Some(1) => "E",
                Some(2) => "W",
                Some(3) => "I",
                Some(4) => "H",
                _ => "?",
            };
            format!(
                "{}:{}-{}:{} {sev} {}",
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"],
                d["code"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

pub fn is_publish_for(msg: &Value, uri: &str) -> bool {
    msg["method"] == "textDocument/publishDiagnostics" && msg["params"]["uri"] == uri
}

// ---------------------------------------------------------------------------------------------
// Framing
// ---------------------------------------------------------------------------------------------

pub fn frame(body: &str) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// Read one frame: `Ok(None)` at a clean end of stream.
pub fn read_frame(r: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    let mut first = true;
    loop {
        let mut line = String::new();
        let n = r.read_line(&mut line).map_err(|e| format!("reading a header: {e}"))?;
        if n == 0 {
            return if first {
                Ok(None)
            } else {
                Err("end of stream inside the headers".into())
            };
        }
        first = false;
        if line == "\r\n" {
            break;
        }
        let header = line
            .strip_suffix("\r\n")
            .ok_or_else(|| format!("header not ended by CRLF: {line:?}"))?;
        let (name, value) = header
            .split_once(": ")
            .ok_or_else(|| format!("malformed header {header:?}"))?;
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.parse::<usize>().map_err(|e| format!("bad Content-Length: {e}"))?);
        }
    }
    let length = length.ok_or("no Content-Length header")?;
    let mut body = vec![0u8; length];
    r.read_exact(&mut body).map_err(|e| format!("reading a body: {e}"))?;
    let msg: Value = serde_json::from_slice(&body).map_err(|e| format!("body is not JSON ({e})"))?;
    if msg["jsonrpc"] != "2.0" {
        return Err(format!("not JSON-RPC 2.0: {msg}"));
    }
    Ok(Some(msg))
}

type Writer = Arc<Mutex<Option<ChildStdin>>>;

fn write_to(writer: &Writer, bytes: &[u8]) -> bool {
    let mut guard = writer.lock().unwrap();
    match guard.as_mut() {
        Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()).is_ok(),
        None => false,
    }
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

/// How the client presents itself in `initialize`.
#[derive(Clone, Debug)]
pub struct Setup {
    /// `general.positionEncodings`; `None` leaves the field out.
    pub encodings: Option<Vec<&'static str>>,
    pub init_options: Option<Value>,
    /// The value returned for every item of a `workspace/configuration` request.
    pub config_reply: Value,
    /// `workspace.didChangeWatchedFiles.dynamicRegistration`.
    pub dynamic_watch: bool,
    /// `workspace.configuration`.
    pub configuration: bool,
    /// Whether the server's requests are answered at all.
    pub answer_requests: bool,
    /// `workspace.workspaceEdit`; `None` leaves it out (a client that applies plain text
    /// edits only). The default has document changes and file renames.
    pub workspace_edit: Option<Value>,
    /// `window.workDoneProgress`.
    pub work_done_progress: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            encodings: None,
            init_options: None,
            config_reply: Value::Null,
            dynamic_watch: true,
            configuration: true,
            answer_requests: true,
            workspace_edit: Some(json!({ "documentChanges": true, "resourceOperations": ["rename"] })),
            work_done_progress: false,
        }
    }
}

impl Setup {
    pub fn utf8() -> Setup {
        Setup {
            encodings: Some(vec!["utf-8", "utf-16"]),
            ..Setup::default()
        }
    }

    pub fn for_enc(enc: Enc) -> Setup {
        match enc {
            Enc::Utf8 => Setup::utf8(),
            Enc::Utf16 => Setup::default(),
        }
    }
}

pub struct Server {
    child: Child,
    writer: Writer,
    rx: Receiver<Result<Value, String>>,
    /// Notifications read but not yet taken by a test.
    queue: VecDeque<Value>,
    next_id: i64,
    stderr: Arc<Mutex<String>>,
    /// Every request the server sent us, in order.
    server_requests: Arc<Mutex<Vec<Value>>>,
    config_reply: Arc<Mutex<Value>>,
    answer_requests: Arc<AtomicBool>,
    pub enc: Enc,
    pub root: PathBuf,
    barrier: i32,
    _config_dirs: (TempDir, TempDir),
}

impl Server {
    /// Spawn `agent-lsp serve` for the workspace at `root`; nothing is sent yet.
    pub fn spawn(root: &Path) -> Server {
        Server::spawn_with_args(root, &["serve"])
    }

    /// Spawn `agent-lsp ARGS...` (a `serve` command line) for the workspace at `root`.
    pub fn spawn_with_args(root: &Path, args: &[&str]) -> Server {
        let xdg = tempfile::tempdir().expect("temp XDG_CONFIG_HOME");
        let home = tempfile::tempdir().expect("temp HOME");
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(root)
            .env("AGENT_LSP_TEST_HOOKS", "1")
            .env("XDG_CONFIG_HOME", xdg.path())
            .env("HOME", home.path())
            .env_remove("OPENCODE_CONFIG")
            .env_remove("OPENCODE_CONFIG_DIR")
            .env_remove("AGENT_LSP_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn agent-lsp serve");
        let writer: Writer = Arc::new(Mutex::new(child.stdin.take()));
        let stdout = child.stdout.take().expect("stdout");
        let stderr_pipe = child.stderr.take().expect("stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let server_requests = Arc::new(Mutex::new(Vec::new()));
        let config_reply = Arc::new(Mutex::new(Value::Null));
        let answer_requests = Arc::new(AtomicBool::new(true));
        let (tx, rx) = mpsc::channel();
        {
            let stderr = stderr.clone();
            std::thread::spawn(move || {
                let mut r = BufReader::new(stderr_pipe);
                let mut line = String::new();
                while r.read_line(&mut line).is_ok_and(|n| n > 0) {
                    stderr.lock().unwrap().push_str(&line);
                    line.clear();
                }
            });
        }
        {
            let writer = writer.clone();
            let log = server_requests.clone();
            let config = config_reply.clone();
            let answer_requests = answer_requests.clone();
            std::thread::spawn(move || {
                let mut r = BufReader::new(stdout);
                loop {
                    match read_frame(&mut r) {
                        Ok(None) => break,
                        Ok(Some(msg)) if msg.get("method").is_some() && msg.get("id").is_some() => {
                            let reply = answer(&msg, &config.lock().unwrap());
                            log.lock().unwrap().push(msg);
                            if answer_requests.load(Ordering::SeqCst) {
                                write_to(&writer, &frame(&reply.to_string()));
                            }
                        }
                        Ok(Some(msg)) => {
                            if tx.send(Ok(msg)).is_err() {
                                break;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            break;
                        }
                    }
                }
            });
        }
        Server {
            child,
            writer,
            rx,
            queue: VecDeque::new(),
            next_id: 1,
            stderr,
            server_requests,
            config_reply,
            answer_requests,
            enc: Enc::Utf16,
            root: root.to_path_buf(),
            barrier: 0,
            _config_dirs: (xdg, home),
        }
    }

    /// Spawn, `initialize` (checking the negotiated encoding), `initialized`; with
    /// `workspace.configuration`, wait until the server pulled its settings.
    pub fn start(root: &Path, setup: Setup) -> Server {
        let mut s = Server::spawn(root);
        let result = s.initialize(&setup);
        let expected = if setup.encodings.as_ref().is_some_and(|e| e.contains(&"utf-8")) {
            Enc::Utf8
        } else {
            Enc::Utf16
        };
        assert_eq!(result["capabilities"]["positionEncoding"], expected.name(), "{result}");
        s.enc = expected;
        s.notify("initialized", json!({}));
        if !setup.answer_requests {
            // The first request stays pending and holds back the others.
            let first = if setup.dynamic_watch {
                "client/registerCapability"
            } else {
                "workspace/configuration"
            };
            if setup.dynamic_watch || setup.configuration {
                s.wait_server_request(first, 1);
            }
        } else if setup.configuration {
            s.wait_server_request("workspace/configuration", 1);
        }
        s
    }

    pub fn initialize_params(&self, setup: &Setup) -> Value {
        let root = uri_of(&self.root);
        let mut caps = json!({
            "workspace": {
                "configuration": setup.configuration,
                "didChangeWatchedFiles": { "dynamicRegistration": setup.dynamic_watch },
                "workspaceFolders": true,
            },
            "textDocument": {
                "synchronization": { "dynamicRegistration": false },
                "publishDiagnostics": { "relatedInformation": true, "versionSupport": true },
            },
        });
        if let Some(encodings) = &setup.encodings {
            caps["general"] = json!({ "positionEncodings": encodings });
        }
        if let Some(edit) = &setup.workspace_edit {
            caps["workspace"]["workspaceEdit"] = edit.clone();
        }
        if setup.work_done_progress {
            caps["window"] = json!({ "workDoneProgress": true });
        }
        let mut params = json!({
            "processId": std::process::id(),
            "clientInfo": { "name": "agent-lsp-tests" },
            "rootUri": root,
            "workspaceFolders": [{ "uri": root, "name": "ws" }],
            "capabilities": caps,
        });
        if let Some(opts) = &setup.init_options {
            params["initializationOptions"] = opts.clone();
        }
        params
    }

    /// Send `initialize` for `setup`; the result.
    pub fn initialize(&mut self, setup: &Setup) -> Value {
        *self.config_reply.lock().unwrap() = setup.config_reply.clone();
        self.answer_requests.store(setup.answer_requests, Ordering::SeqCst);
        let params = self.initialize_params(setup);
        self.request("initialize", params).expect("initialize succeeds")
    }

    /// Change what `workspace/configuration` is answered with from now on.
    pub fn set_config_reply(&self, value: Value) {
        *self.config_reply.lock().unwrap() = value;
    }

    pub fn server_requests(&self, method: &str) -> Vec<Value> {
        self.server_requests
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m["method"] == method)
            .cloned()
            .collect()
    }

    /// Wait until the server has sent `count` requests of `method` (all answered by then).
    pub fn wait_server_request(&self, method: &str, count: usize) -> Vec<Value> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let found = self.server_requests(method);
            if found.len() >= count {
                return found;
            }
            if Instant::now() > deadline {
                panic!(
                    "timed out waiting for {count} {method} request(s) from the server\n{}",
                    self.stderr_text()
                );
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    pub fn stderr_text(&self) -> String {
        format!("--- server stderr ---\n{}", self.stderr.lock().unwrap())
    }

    /// Wait (up to [`TIMEOUT`]) until the server's log contains `needle`.
    pub fn wait_log(&self, needle: &str) {
        let deadline = Instant::now() + TIMEOUT;
        while !self.stderr.lock().unwrap().contains(needle) {
            if Instant::now() > deadline {
                panic!("the server never logged {needle:?}\n{}", self.stderr_text());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    pub fn send_raw(&self, bytes: &[u8]) {
        assert!(write_to(&self.writer, bytes), "cannot write to the server's stdin");
    }

    pub fn send(&self, msg: &Value) {
        self.send_raw(&frame(&msg.to_string()));
    }

    pub fn notify(&self, method: &str, params: Value) {
        let mut msg = json!({ "jsonrpc": "2.0", "method": method });
        if !params.is_null() {
            msg["params"] = params;
        }
        self.send(&msg);
    }

    /// The next message from the server; panics after [`TIMEOUT`] of silence.
    pub fn recv(&mut self, waiting_for: &str) -> Value {
        match self.rx.recv_timeout(TIMEOUT) {
            Ok(Ok(msg)) => msg,
            Ok(Err(e)) => panic!(
                "protocol error while waiting for {waiting_for}: {e}\n{}",
                self.stderr_text()
            ),
            Err(RecvTimeoutError::Timeout) => panic!(
                "timed out waiting for {waiting_for}; unread: {:?}\n{}",
                self.queue,
                self.stderr_text()
            ),
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "the server closed stdout while waiting for {waiting_for}\n{}",
                    self.stderr_text()
                )
            }
        }
    }

    /// Keep a notification for later; barrier publishes are dropped, responses are unexpected.
    fn stash(&mut self, msg: Value) {
        if msg.get("method").is_none() {
            panic!("unexpected response: {msg}");
        }
        if !is_publish_for(&msg, BARRIER) {
            self.queue.push_back(msg);
        }
    }

    /// Send a request and wait for its reply: `Ok(result)` or `Err(error)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        if !params.is_null() {
            msg["params"] = params;
        }
        self.send(&msg);
        self.response(&json!(id), method)
    }

    /// Send several requests at once and wait for all their replies (in any order): the
    /// results in the order of `requests`.
    pub fn requests(&mut self, requests: &[(&str, Value)]) -> Vec<Result<Value, Value>> {
        let first = self.next_id;
        let mut bytes = Vec::new();
        for (method, params) in requests {
            let mut msg = json!({ "jsonrpc": "2.0", "id": self.next_id, "method": method });
            if !params.is_null() {
                msg["params"] = params.clone();
            }
            self.next_id += 1;
            bytes.extend(frame(&msg.to_string()));
        }
        self.send_raw(&bytes);
        let mut out: Vec<Option<Result<Value, Value>>> = vec![None; requests.len()];
        let mut missing = requests.len();
        while missing > 0 {
            let msg = self.recv(&format!("{missing} of {} responses", requests.len()));
            if msg.get("method").is_some() {
                self.stash(msg);
                continue;
            }
            let slot = msg["id"]
                .as_i64()
                .and_then(|id| usize::try_from(id - first).ok())
                .and_then(|i| out.get_mut(i))
                .unwrap_or_else(|| panic!("a response to another request: {msg}"));
            assert!(slot.is_none(), "two responses with one id: {msg}");
            *slot = Some(match msg.get("error") {
                Some(e) => Err(e.clone()),
                None => Ok(msg.get("result").cloned().expect("a response has a result or an error")),
            });
            missing -= 1;
        }
        out.into_iter().map(Option::unwrap).collect()
    }

    /// Wait for the response with `id`.
    pub fn response(&mut self, id: &Value, what: &str) -> Result<Value, Value> {
        loop {
            let msg = self.recv(&format!("the response to {what}"));
            if msg.get("method").is_none() {
                assert_eq!(&msg["id"], id, "a response to another request: {msg}");
                return match msg.get("error") {
                    Some(e) => Err(e.clone()),
                    None => Ok(msg.get("result").cloned().expect("a response has a result or an error")),
                };
            }
            self.stash(msg);
        }
    }

    /// The next `publishDiagnostics` params for `uri` (others are kept for later).
    pub fn expect_publish(&mut self, uri: &str) -> Value {
        if let Some(i) = self.queue.iter().position(|m| is_publish_for(m, uri)) {
            return self.queue.remove(i).unwrap()["params"].take();
        }
        loop {
            let mut msg = self.recv(&format!("publishDiagnostics for {uri}"));
            if is_publish_for(&msg, uri) {
                return msg["params"].take();
            }
            self.stash(msg);
        }
    }

    /// Skip the publishes for `uri` until the one for `version`.
    pub fn expect_version(&mut self, uri: &str, version: i64) -> Value {
        loop {
            let p = self.expect_publish(uri);
            match p["version"].as_i64() {
                Some(v) if v == version => return p,
                Some(v) if v < version => continue,
                _ => panic!("expected the publish for version {version} of {uri}, got {p}"),
            }
        }
    }

    /// Barrier: everything the server sends because of earlier messages has arrived after this.
    pub fn sync(&mut self) {
        self.barrier += 1;
        let v = self.barrier;
        let text = format!("---\ndescription: barrier {v}\n---\nBody\n");
        if v == 1 {
            self.notify(
                "textDocument/didOpen",
                json!({ "textDocument": { "uri": BARRIER, "languageId": "markdown", "version": v, "text": text } }),
            );
        } else {
            self.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": BARRIER, "version": v }, "contentChanges": [{ "text": text }] }),
            );
        }
        loop {
            let msg = self.recv("the barrier publish");
            if is_publish_for(&msg, BARRIER) && msg["params"]["version"] == v {
                return;
            }
            self.stash(msg);
        }
    }

    /// Every message received until one with `method` for which `pred` holds (that one
    /// included), in order; publishes among them stay queued for `take_publishes`.
    pub fn notifications_until(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            let msg = self.recv(&format!("{method} notification"));
            let done = msg["method"] == method && pred(&msg);
            if msg["method"] == "textDocument/publishDiagnostics" {
                self.stash(msg);
            } else {
                out.push(msg);
            }
            if done {
                return out;
            }
        }
    }

    /// After a barrier: every publish received so far, in order.
    pub fn take_publishes(&mut self) -> Vec<Value> {
        self.sync();
        let mut out = Vec::new();
        let mut rest = VecDeque::new();
        for mut m in self.queue.drain(..) {
            if m["method"] == "textDocument/publishDiagnostics" {
                out.push(m["params"].take());
            } else {
                rest.push_back(m);
            }
        }
        self.queue = rest;
        out
    }

    /// After a barrier, nothing at all is left unread.
    pub fn assert_quiet(&mut self) {
        let publishes = self.take_publishes();
        assert!(
            publishes.is_empty() && self.queue.is_empty(),
            "unexpected messages from the server: {publishes:#?} {:#?}",
            self.queue
        );
    }

    pub fn open(&self, uri: &str, language_id: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language_id, "version": version, "text": text } }),
        );
    }

    pub fn change(&self, uri: &str, version: i64, changes: Vec<Value>) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
    }

    pub fn change_full(&self, uri: &str, version: i64, text: &str) {
        self.change(uri, version, vec![json!({ "text": text })]);
    }

    pub fn close(&self, uri: &str) {
        self.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    }

    pub fn close_stdin(&self) {
        self.writer.lock().unwrap().take();
    }

    /// Wait for the process to end; `None` if it is still running after [`TIMEOUT`].
    pub fn wait_exit(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Check that nothing is left unread, then `shutdown` and `exit`: status 0.
    pub fn finish(mut self) {
        self.assert_quiet();
        assert_eq!(self.request("shutdown", Value::Null), Ok(Value::Null));
        self.notify("exit", Value::Null);
        let status = self.wait_exit();
        assert_eq!(
            status.and_then(|s| s.code()),
            Some(0),
            "exit after shutdown\n{}",
            self.stderr_text()
        );
    }
}

/// The reply to a request from the server.
fn answer(msg: &Value, config: &Value) -> Value {
    let id = msg["id"].clone();
    match msg["method"].as_str().unwrap_or("") {
        "client/registerCapability" | "client/unregisterCapability" | "window/workDoneProgress/create" => {
            json!({ "jsonrpc": "2.0", "id": id, "result": null })
        }
        "workspace/configuration" => {
            let n = msg["params"]["items"].as_array().map_or(1, Vec::len);
            json!({ "jsonrpc": "2.0", "id": id, "result": vec![config.clone(); n] })
        }
        _ => {
            json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "not handled by the test client" } })
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("{}", self.stderr_text());
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// An open document and the test's model of its text.
pub struct Doc {
    pub uri: String,
    pub version: i64,
    pub text: String,
    pub enc: Enc,
}

impl Doc {
    /// Open `uri` with `text` (version 1); the document and its first publish.
    pub fn open(s: &mut Server, uri: &str, language_id: &str, text: &str) -> (Doc, Value) {
        s.open(uri, language_id, 1, text);
        let p = s.expect_version(uri, 1);
        let doc = Doc {
            uri: uri.to_string(),
            version: 1,
            text: text.to_string(),
            enc: s.enc,
        };
        (doc, p)
    }

    /// Send `changes` (each computed against the text left by the previous one, as
    /// [`edit`] returns them) in one `didChange`; the publish for the new version.
    pub fn send(&mut self, s: &mut Server, changes: Vec<(Value, String)>) -> Value {
        let mut json_changes = Vec::new();
        for (c, after) in changes {
            json_changes.push(c);
            self.text = after;
        }
        self.version += 1;
        s.change(&self.uri, self.version, json_changes);
        s.expect_version(&self.uri, self.version)
    }

    /// Replace bytes `start..end` with `new`; the publish.
    pub fn edit(&mut self, s: &mut Server, start: usize, end: usize, new: &str) -> Value {
        let change = edit(&self.text, start, end, new, self.enc);
        self.send(s, vec![change])
    }

    /// Replace the first `old` with `new`; the publish.
    pub fn replace(&mut self, s: &mut Server, old: &str, new: &str) -> Value {
        let change = replace(&self.text, old, new, self.enc);
        self.send(s, vec![change])
    }

    pub fn range_of(&self, needle: &str) -> Value {
        range_of(&self.text, needle, self.enc)
    }
}

// ---------------------------------------------------------------------------------------------
// A workspace of files on disk with a server on it, and the expectations the dialect tests
// build (ranges inside a context, diagnostics as published, quick fixes).
// ---------------------------------------------------------------------------------------------

/// A temporary workspace and a server started on it.
pub struct Ws {
    pub _dir: TempDir,
    pub root: PathBuf,
    pub s: Server,
}

impl Ws {
    /// Write `files`, start a server on them in `enc`; the workspace and the publishes of its
    /// scan.
    pub fn start(files: &[(&str, &str)], enc: Enc) -> (Ws, Vec<Value>) {
        let dir = workspace(files);
        let root = root_of(&dir);
        let mut s = Server::start(&root, Setup::for_enc(enc));
        let scan = s.take_publishes();
        (Ws { _dir: dir, root, s }, scan)
    }

    /// The URI of a file of the workspace.
    pub fn uri(&self, rel: &str) -> String {
        uri_of(&self.root.join(rel))
    }
}

/// The byte range of `needle` inside the first occurrence of `context` in `text`.
pub fn within(text: &str, context: &str, needle: &str) -> (usize, usize) {
    let (c, _) = find(text, context);
    let (s, e) = find(&text[c..], needle);
    (c + s, c + e)
}

/// The LSP range of `needle` inside the first `context` of `text`.
pub fn range_in(text: &str, context: &str, needle: &str, enc: Enc) -> Value {
    let (s, e) = within(text, context, needle);
    range(text, s, e, enc)
}

/// The LSP location of `needle` inside the first `context` of `text` (the file `uri`).
pub fn loc(uri: &str, text: &str, context: &str, needle: &str, enc: Enc) -> Value {
    json!({ "uri": uri, "range": range_in(text, context, needle, enc) })
}

/// Text document position params one character into `needle` (inside the first `context`).
pub fn at(uri: &str, text: &str, context: &str, needle: &str, enc: Enc) -> Value {
    let (s, _) = within(text, context, needle);
    let next = text[s..].chars().next().map_or(0, char::len_utf8);
    json!({ "textDocument": { "uri": uri }, "position": position(text, s + next, enc) })
}

pub const ERROR: i64 = 1;
pub const WARNING: i64 = 2;
pub const HINT: i64 = 4;

/// The page of the book a diagnostic of `code` links to (`codeDescription.href`): the rule's
/// page in the repository, a file of `book/src/rules/`.
pub fn rule_href(code: &str) -> String {
    let page = format!("book/src/rules/{code}.md");
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(&page).is_file(),
        "{page} does not exist"
    );
    format!("{}/blob/main/{page}", env!("CARGO_PKG_REPOSITORY"))
}

/// A diagnostic as the server publishes it (`data` carries the effect and the fix).
pub fn diag(range: Value, severity: i64, code: &str, message: &str, data: Value) -> Value {
    json!({
        "range": range,
        "severity": severity,
        "code": code,
        "codeDescription": { "href": rule_href(code) },
        "source": "agent-lsp",
        "message": message,
        "data": data,
    })
}

/// `data` with a fix of one edit.
pub fn fix_data(effect: &str, title: &str, range: Value, new_text: &str, safe: bool) -> Value {
    json!({
        "effect": effect,
        "fix": { "title": title, "edits": [{ "range": range, "newText": new_text }], "safe": safe },
    })
}

/// The publishes by URI; fails if one URI is published twice.
pub fn by_uri(publishes: &[Value]) -> std::collections::BTreeMap<String, Value> {
    let mut out = std::collections::BTreeMap::new();
    for p in publishes {
        let uri = p["uri"].as_str().unwrap().to_string();
        assert!(
            out.insert(uri.clone(), p["diagnostics"].clone()).is_none(),
            "{uri} published twice"
        );
    }
    out
}

/// Apply LSP text edits (ranges in `enc`, all against `text`) to a text.
pub fn apply_edits(text: &str, edits: &[Value], enc: Enc) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let (a, b) = offsets_of_range(text, &e["range"], enc).unwrap_or_else(|| panic!("bad range {e}"));
            (a, b, e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (a, b, t) in spans {
        out.replace_range(a..b, &t);
    }
    out
}

/// The quick fixes the server offers for `diagnostics` of document `uri`.
pub fn quick_fixes(s: &mut Server, uri: &str, diagnostics: &Value) -> Vec<Value> {
    s.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } },
                "context": { "diagnostics": diagnostics, "only": ["quickfix"] } }),
    )
    .unwrap()
    .as_array()
    .unwrap()
    .clone()
}
