//! The released opencode runtime as an oracle: `opencode serve --pure` in an empty home, asked
//! for the agents it builds in a directory (`GET /agent?directory=...`) and the skills it loads
//! there (`GET /skill?directory=...`, what `opencode debug skill` prints).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// The environment both opencode and agent-lsp run in: an empty home and XDG directories, so
/// that nothing of the machine's own configuration leaks in.
#[derive(Clone, Debug)]
pub struct Home {
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME`; the global config directory is its `opencode/`.
    pub xdg_config: PathBuf,
}

impl Home {
    /// A home under `dir`; the XDG config directory is `xdg_config` when given (to make a
    /// repository laid out as a global config directory the global directory).
    pub fn new(dir: &Path, xdg_config: Option<PathBuf>) -> Home {
        let home = dir.join("home");
        let xdg_config = xdg_config.unwrap_or_else(|| home.join(".config"));
        for d in [&home, &xdg_config] {
            std::fs::create_dir_all(d).expect("create home");
        }
        Home { home, xdg_config }
    }

    pub fn envs(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            ("HOME", self.home.clone()),
            ("XDG_CONFIG_HOME", self.xdg_config.clone()),
            ("XDG_DATA_HOME", self.home.join(".local/share")),
            ("XDG_CACHE_HOME", self.home.join(".cache")),
            ("XDG_STATE_HOME", self.home.join(".local/state")),
        ]
    }

    /// A command with only this environment (plus PATH and TMPDIR).
    pub fn command(&self, program: &Path) -> Command {
        let mut c = Command::new(program);
        c.env_clear();
        for key in ["PATH", "TMPDIR", "LANG"] {
            if let Some(v) = std::env::var_os(key) {
                c.env(key, v);
            }
        }
        c.envs(self.envs());
        c
    }
}

/// A skill opencode loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    pub name: String,
    pub description: Option<String>,
    /// Its `SKILL.md`.
    pub location: PathBuf,
}

pub struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Start a server; `Err` with what it printed when it refuses to start (a configuration it
    /// reads at start-up, the global layer, is invalid).
    pub fn start(bin: &Path, home: &Home, cwd: &Path) -> Result<Server, String> {
        let mut child = home
            .command(bin)
            .args(["serve", "--pure", "--port", "0", "--hostname", "127.0.0.1"])
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let (tx, rx) = mpsc::channel::<String>();
        // Both readers hold a sender: the channel disconnects when the process has exited.
        for stream in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let _ = tx.send(line);
                }
            });
        }
        drop(tx);
        let mut seen = Vec::new();
        let port = loop {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => {
                    if let Some(rest) = line.split("listening on http://127.0.0.1:").nth(1) {
                        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                        break digits.parse::<u16>().expect("port");
                    }
                    seen.push(line);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = child.wait();
                    let text = strip_ansi(&seen.join("\n"));
                    let error = text.lines().find(|l| l.contains("Error")).unwrap_or(&text).to_string();
                    return Err(error);
                }
                Err(e) => {
                    let _ = child.kill();
                    panic!("opencode serve did not start ({e}); it printed:\n{}", seen.join("\n"));
                }
            }
        };
        Ok(Server { child, port })
    }

    /// The skills opencode loads when started in `dir` (name, description, location), the
    /// built-in ones (location `<built-in>`) left out; `None` when it refuses the configuration.
    pub fn skills(&self, dir: &Path) -> Option<Vec<Skill>> {
        let query = format!("/skill?directory={}", percent_encode(&dir.to_string_lossy()));
        let (status, body) = self.get(&query);
        let value: Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {query}: {status}, not JSON ({e}): {body}"));
        let Value::Array(items) = value else { return None };
        (status == 200).then(|| {
            items
                .iter()
                .filter(|s| s["location"] != "<built-in>")
                .map(|s| Skill {
                    name: s["name"].as_str().unwrap_or_default().to_string(),
                    description: s.get("description").and_then(Value::as_str).map(str::to_string),
                    location: PathBuf::from(s["location"].as_str().unwrap_or_default()),
                })
                .collect()
        })
    }

    /// `GET <endpoint>?directory=<dir>`: the HTTP status and the JSON body. For `/config`, the
    /// decoded configuration on 200, else the error (its name and data: the issues and their
    /// paths); for `/agent`, the agents, else the error.
    pub fn ask(&self, endpoint: &str, dir: &Path) -> (u16, Value) {
        let query = format!("{endpoint}?directory={}", percent_encode(&dir.to_string_lossy()));
        let (status, body) = self.get(&query);
        let value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {query}: {status}, not JSON ({e}): {body}"));
        (status, value)
    }

    /// The server's process id (to read its memory use).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to opencode serve");
        stream.set_read_timeout(Some(Duration::from_secs(120))).ok();
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAccept: application/json\r\n\r\n");
        stream.write_all(request.as_bytes()).expect("send request");
        // Read the head, then exactly the body (servers may keep the connection open).
        let mut raw = Vec::new();
        let mut buf = [0u8; 65536];
        let split = loop {
            if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                break i;
            }
            let n = stream.read(&mut buf).expect("read response head");
            assert!(n > 0, "connection closed before the response head");
            raw.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
        let mut body = raw[split + 4..].to_vec();
        let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        let chunked = head.contains("transfer-encoding: chunked");
        loop {
            let complete = match length {
                Some(len) => body.len() >= len,
                None if chunked => body.windows(5).any(|w| w == b"0\r\n\r\n"),
                None => false,
            };
            if complete {
                break;
            }
            let n = stream.read(&mut buf).expect("read response body");
            if n == 0 {
                break;
            }
            body.extend_from_slice(&buf[..n]);
        }
        if chunked {
            body = dechunk(&body);
        }
        (status, String::from_utf8_lossy(&body).into_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = body.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&body[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = eol + 2;
        out.extend_from_slice(&body[start..(start + size).min(body.len())]);
        body = &body[(start + size + 2).min(body.len())..];
    }
    out
}

fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One line for an error answer: its name and the first issue or message (cut at 160
/// characters).
pub fn describe_error(v: &Value) -> String {
    let name = v.get("name").and_then(Value::as_str).unwrap_or("error");
    let data = v.get("data").cloned().unwrap_or(Value::Null);
    let detail = data
        .get("issues")
        .and_then(|i| i.get(0))
        .map(|i| format!("{} at {}", i["message"], i["path"]))
        .or_else(|| data.get("message").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| data.to_string());
    let detail: String = detail.chars().take(160).collect();
    format!("{name}: {detail}")
}
