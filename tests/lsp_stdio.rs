//! The server's stdin and stdout as editors give them: a socket (libuv's child processes, hence
//! VS Code and Neovim, use socket pairs), and a regular file (read and written through tokio's
//! blocking pool). Pipes are what every other end-to-end test uses.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_agent-lsp");

fn frame(msg: &Value) -> Vec<u8> {
    let body = msg.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn read_frame(r: &mut impl BufRead) -> Value {
    let mut length = None;
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the server closed its output");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = Some(n.parse::<usize>().unwrap());
        }
    }
    let mut body = vec![0; length.expect("a Content-Length header")];
    r.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

/// The messages of a short session: initialize, open an agent with an invalid mode, shut down.
fn session(root: &std::path::Path) -> [Value; 5] {
    let uri = format!("file://{}/.opencode/agents/r.md", root.display());
    [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": format!("file://{}", root.display()), "capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": "---\nmode: subagnt\n---\nBody\n"}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        json!({"jsonrpc": "2.0", "method": "exit"}),
    ]
}

/// Whether descriptor `fd` of process `pid` is in non-blocking mode, as `/proc` shows it: the
/// server reads and writes it on its runtime's thread (`None` off Linux).
fn non_blocking(pid: u32, fd: u32) -> Option<bool> {
    let info = std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{fd}")).ok()?;
    let flags = info.lines().find_map(|l| l.strip_prefix("flags:"))?.trim();
    Some(u32::from_str_radix(flags, 8).ok()? & 0o4000 != 0)
}

fn command(root: &std::path::Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .current_dir(root)
        .env("HOME", root)
        .env("XDG_CONFIG_HOME", root.join("config"))
        .env_remove("OPENCODE_CONFIG")
        .env_remove("OPENCODE_CONFIG_DIR")
        .stderr(Stdio::null());
    cmd
}

/// The publish for the opened agent carries its `invalid-value`; the shutdown is answered.
fn check_replies(replies: &[Value]) {
    let publish = replies
        .iter()
        .find(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"].as_str().unwrap().ends_with("r.md")
        })
        .unwrap_or_else(|| panic!("no publish for r.md in {replies:#?}"));
    assert_eq!(
        publish["params"]["diagnostics"][0]["code"], "invalid-value",
        "{publish}"
    );
    assert!(
        replies.iter().any(|m| m["id"] == 2 && m["result"].is_null()),
        "{replies:#?}"
    );
}

/// Read replies until `done` holds for the list, answering the server's own requests
/// (configuration, registrations) through `answer`.
fn replies_until(
    next: &mut dyn FnMut() -> Value,
    answer: &mut dyn FnMut(&Value),
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let mut replies = Vec::new();
    while !done(&replies) {
        let m = next();
        if m.get("id").is_some() && m.get("method").is_some() {
            answer(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
        }
        replies.push(m);
    }
    replies
}

fn complete(replies: &[Value]) -> bool {
    let published = replies.iter().any(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"].as_str().is_some_and(|u| u.ends_with("r.md"))
    });
    published && replies.iter().any(|m| m["id"] == 2)
}

#[test]
fn serves_over_a_socket() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (ours, theirs) = UnixStream::pair().unwrap();
    let mut child = command(&root)
        .stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs.try_clone().unwrap())))
        .stdout(Stdio::from(std::os::fd::OwnedFd::from(theirs)))
        .spawn()
        .unwrap();
    ours.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut writer = ours.try_clone().unwrap();
    let mut reader = BufReader::new(ours);
    let [init, initialized, open, shutdown, exit] = session(&root);
    writer.write_all(&frame(&init)).unwrap();
    assert_eq!(read_frame(&mut reader)["id"], 1);
    if cfg!(target_os = "linux") {
        assert_eq!(non_blocking(child.id(), 0), Some(true), "stdin");
        assert_eq!(non_blocking(child.id(), 1), Some(true), "stdout");
    }
    for m in [initialized, open, shutdown] {
        writer.write_all(&frame(&m)).unwrap();
    }
    let mut answers = writer.try_clone().unwrap();
    let replies = replies_until(
        &mut || read_frame(&mut reader),
        &mut |m| answers.write_all(&frame(m)).unwrap(),
        complete,
    );
    check_replies(&replies);
    writer.write_all(&frame(&exit)).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// stdout to a regular file goes through tokio's blocking pool; stdin is a pipe.
#[test]
fn writes_to_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let out = root.join("out");
    let mut child = command(&root)
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&out).unwrap())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let [init, initialized, open, shutdown, exit] = session(&root);
    // Read the file as it grows.
    let mut file = std::fs::File::open(&out).unwrap();
    let started = std::time::Instant::now();
    let mut seen = Vec::new();
    let mut next = || loop {
        if let Some((m, used)) = try_frame(&seen) {
            seen.drain(..used);
            return m;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no reply in {:?}",
            String::from_utf8_lossy(&seen)
        );
        std::thread::sleep(Duration::from_millis(5));
        file.read_to_end(&mut seen).unwrap();
    };
    stdin.write_all(&frame(&init)).unwrap();
    assert_eq!(next()["id"], 1);
    if cfg!(target_os = "linux") {
        assert_eq!(non_blocking(child.id(), 0), Some(true), "stdin, a pipe");
        assert_eq!(non_blocking(child.id(), 1), Some(false), "stdout, a file");
    }
    for m in [initialized, open, shutdown] {
        stdin.write_all(&frame(&m)).unwrap();
    }
    let replies = replies_until(&mut next, &mut |m| stdin.write_all(&frame(m)).unwrap(), complete);
    check_replies(&replies);
    stdin.write_all(&frame(&exit)).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

/// The first whole frame of `data` and the bytes it takes, or `None` while it is incomplete.
fn try_frame(data: &[u8]) -> Option<(Value, usize)> {
    let header_end = data.windows(4).position(|w| w == b"\r\n\r\n")?;
    let header = std::str::from_utf8(&data[..header_end]).ok()?;
    let length: usize = header.strip_prefix("Content-Length: ")?.trim().parse().ok()?;
    let end = header_end + 4 + length;
    let value = serde_json::from_slice(data.get(header_end + 4..end)?).ok()?;
    Some((value, end))
}

/// stdin that is neither a pipe nor a socket (here `/dev/null`) goes through tokio's blocking
/// pool too: its end of input ends the server (status 1: no `shutdown` came).
#[test]
fn ends_at_the_end_of_an_input_that_is_no_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let status = command(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
}
