//! The released Claude Code as an oracle: `claude -p` in stream-JSON mode, started in a project
//! directory with an empty home, asked to `initialize`. Its answer lists the agents and commands
//! that loaded; its debug file has a line per problem it noticed in a file.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// The release the harness is pinned to (`package.json`); the runtime reports its version.
pub const VERSION: &str = "2.1.332";

/// The environment Claude Code and agent-lsp run in: an empty home and XDG directories, so that
/// nothing of the machine's own configuration leaks in, and Claude Code's switches that keep it
/// off the network (it then needs no login and no key).
#[derive(Clone, Debug)]
pub struct Home {
    pub home: PathBuf,
}

impl Home {
    pub fn new(dir: &Path) -> Home {
        let home = dir.join("home");
        std::fs::create_dir_all(&home).expect("create home");
        Home { home }
    }

    /// `~/.claude/agents`: the user's agents.
    pub fn user_agents(&self) -> PathBuf {
        self.home.join(".claude").join("agents")
    }

    /// A command with only this environment (plus PATH, TMPDIR, LANG).
    pub fn command(&self, program: &Path) -> Command {
        let mut c = Command::new(program);
        c.env_clear();
        for key in ["PATH", "TMPDIR", "LANG"] {
            if let Some(v) = std::env::var_os(key) {
                c.env(key, v);
            }
        }
        let h = &self.home;
        c.env("HOME", h)
            .env("XDG_CONFIG_HOME", h.join(".config"))
            .env("XDG_DATA_HOME", h.join(".local/share"))
            .env("XDG_CACHE_HOME", h.join(".cache"))
            .env("XDG_STATE_HOME", h.join(".local/state"))
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_ERROR_REPORTING", "1");
        c
    }
}

/// An agent Claude Code loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    pub name: String,
    pub description: String,
    /// `None` when the file sets no model (the answer has no `model` key then).
    pub model: Option<String>,
}

impl Agent {
    /// An agent as Claude Code lists it in its `initialize` answer (`name`, `description`,
    /// `model`), the recordings keep the same fields.
    pub fn from_json(a: &Value) -> Agent {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        Agent {
            name: text(&a["name"]),
            description: text(&a["description"]),
            model: a.get("model").and_then(Value::as_str).map(str::to_string),
        }
    }
}

/// A command (or skill) Claude Code loaded; built-in and bundled ones are left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cmd {
    pub name: String,
    /// As listed, with the source Claude Code appends (` (project)`, ` (user)`, ...).
    pub description: String,
    pub argument_hint: String,
    pub aliases: Vec<String>,
}

/// What one start of Claude Code loaded and logged.
#[derive(Debug)]
pub struct Load {
    pub version: String,
    pub agents: Vec<Agent>,
    pub commands: Vec<Cmd>,
    /// The session's permission mode (`current_permission_mode`): `plan` only when a settings
    /// file saying so was applied.
    pub mode: Option<String>,
    /// The output styles it lists (`available_output_styles`), built-in ones first.
    pub output_styles: Vec<String>,
    pub log: Log,
}

/// The debug file, read for what it says about files.
#[derive(Debug, Default)]
pub struct Log {
    /// Every entry (continuation lines joined to their entry), level and message.
    pub entries: Vec<(String, String)>,
}

/// The unknown keys one file's warning names: at most five are listed, `more` counts the rest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnknownKeys {
    pub keys: Vec<String>,
    pub more: usize,
}

impl Log {
    fn parse(text: &str) -> Log {
        let mut entries: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            // `2026-12-01T21:21:28.636Z [WARN] message`
            let head = line.split_once(' ').and_then(|(stamp, rest)| {
                let ok = stamp.len() >= 20 && stamp.as_bytes()[4] == b'-' && stamp.ends_with('Z');
                let rest = rest.strip_prefix('[')?;
                let (level, msg) = rest.split_once("] ")?;
                ok.then(|| (level.to_string(), msg.to_string()))
            });
            match head {
                Some(e) => entries.push(e),
                None => {
                    if let Some(last) = entries.last_mut() {
                        last.1.push('\n');
                        last.1.push_str(line);
                    }
                }
            }
        }
        Log { entries }
    }

    fn messages(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(_, m)| m.as_str())
    }

    /// `Agent file <path> has a frontmatter key(s) Claude Code does not recognize or apply: ...`
    pub fn unknown_keys(&self) -> BTreeMap<PathBuf, UnknownKeys> {
        let mut out = BTreeMap::new();
        for m in self.messages() {
            let Some(rest) = m
                .strip_prefix("Agent file ")
                .or_else(|| m.strip_prefix("Plugin agent file "))
            else {
                continue;
            };
            for marker in [
                " has a frontmatter key Claude Code does not recognize or apply: ",
                " has frontmatter keys Claude Code does not recognize or apply: ",
            ] {
                if let Some((path, list)) = rest.split_once(marker) {
                    out.insert(PathBuf::from(path), parse_key_list(list));
                }
            }
        }
        out
    }

    /// Files whose frontmatter failed both passes: `YAML frontmatter in <path> failed to parse
    /// and was ignored` (project and user agents) or `Failed to parse YAML frontmatter in
    /// <path>` (logged for every file, plugin agents included, which still load).
    pub fn parse_failures(&self) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        for m in self.messages() {
            if let Some(rest) = m.strip_prefix("YAML frontmatter in ")
                && let Some((path, _)) = rest.split_once(" failed to parse and was ignored")
            {
                out.insert(PathBuf::from(path));
            }
            if let Some(rest) = m.strip_prefix("Failed to parse YAML frontmatter in ")
                && let Some((path, _)) = rest.split_once(": ")
            {
                out.insert(PathBuf::from(path));
            }
        }
        out
    }

    /// Agent files skipped with a reason: `Failed to parse agent from <path>: <reason>`.
    pub fn skipped(&self) -> BTreeMap<PathBuf, String> {
        let mut out = BTreeMap::new();
        for m in self.messages() {
            if let Some(rest) = m.strip_prefix("Failed to parse agent from ")
                && let Some((path, why)) = rest.split_once(": ")
            {
                out.insert(PathBuf::from(path), why.to_string());
            }
        }
        out
    }

    /// Files skipped for their size: `... skipping <path>: not a regular file or exceeds
    /// 1048576 byte limit`.
    pub fn too_big(&self) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        for m in self.messages() {
            if let Some((head, _)) = m.split_once(": not a regular file or exceeds")
                && let Some(i) = head.rfind("kipping ")
            {
                let path = &head[i + "kipping ".len()..];
                out.insert(PathBuf::from(path.strip_prefix("plugin agent ").unwrap_or(path)));
            }
        }
        out
    }

    /// `[agents] Duplicate agent name '<name>' (<source>): <paths> — active: <path>`: the name
    /// and the file that is active.
    pub fn duplicates(&self) -> BTreeMap<String, PathBuf> {
        let mut out = BTreeMap::new();
        for m in self.messages() {
            if let Some(rest) = m.strip_prefix("[agents] Duplicate agent name '")
                && let Some((name, tail)) = rest.split_once("' (")
                && let Some((_, active)) = tail.rsplit_once(" — active: ")
            {
                out.insert(name.to_string(), PathBuf::from(active.trim()));
            }
        }
        out
    }
}

/// `"a" (did you mean "b"?), "c" … and 3 more` → keys `a`, `c`, more 3. Keys are JSON strings.
fn parse_key_list(list: &str) -> UnknownKeys {
    let mut out = UnknownKeys::default();
    let mut rest = list.trim_end();
    loop {
        rest = rest.trim_start_matches([',', ' ']);
        if let Some(s) = rest.strip_prefix('"') {
            let (key, after) = json_string(s);
            out.keys.push(key);
            rest = after;
            if let Some(s) = rest.strip_prefix(" (did you mean \"") {
                let (_, after) = json_string(s);
                rest = after.strip_prefix("?)").unwrap_or(after);
            }
        } else if let Some(i) = rest.find("and ") {
            out.more = rest[i + 4..]
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            break;
        } else {
            break;
        }
    }
    out
}

/// The JSON string whose opening quote was just consumed, and the text after its closing quote.
fn json_string(s: &str) -> (String, &str) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => break,
            _ => i += 1,
        }
    }
    let end = i.min(s.len());
    let raw = &s[..end];
    let key = serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_string());
    (key, s.get(end + 1..).unwrap_or(""))
}

/// Start Claude Code in `cwd` (with `--plugin-dir` for each of `plugins`), ask it to
/// `initialize`, and read its answer and debug file. Panics when it does not answer in time.
pub fn load(bin: &Path, home: &Home, cwd: &Path, plugins: &[PathBuf], debug_file: &Path) -> Load {
    let _ = std::fs::remove_file(debug_file);
    let mut cmd = home.command(bin);
    cmd.args([
        "-p",
        "--input-format",
        "stream-json",
        "--output-format",
        "stream-json",
        "--verbose",
        "--debug-file",
    ])
    .arg(debug_file);
    for p in plugins {
        cmd.arg("--plugin-dir").arg(p);
    }
    let mut child = cmd
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"{\"type\":\"control_request\",\"request_id\":\"r1\",\"request\":{\"subtype\":\"initialize\"}}\n")
        .expect("send initialize");
    stdin.flush().ok();
    let stdout = child.stdout.take().expect("stdout");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && v["type"] == "control_response"
            {
                let _ = tx.send(v);
            }
        }
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut s);
        s
    });
    let answer = rx.recv_timeout(Duration::from_secs(120));
    // Closing stdin ends the session; it writes the rest of its debug file and exits.
    drop(stdin);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while child.try_wait().ok().flatten().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.wait();
    let stderr = err_reader.join().unwrap_or_default();
    let answer = answer.unwrap_or_else(|e| {
        panic!(
            "Claude Code in {} gave no control_response ({e}); stderr:\n{stderr}",
            cwd.display()
        )
    });
    let r = &answer["response"];
    assert_eq!(
        r["subtype"],
        "success",
        "initialize failed in {}: {answer}",
        cwd.display()
    );
    let r = &r["response"];
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let agents = r["agents"]
        .as_array()
        .expect("agents in the answer")
        .iter()
        .map(Agent::from_json)
        .collect();
    let commands = r["commands"]
        .as_array()
        .expect("commands in the answer")
        .iter()
        .filter(|c| c["builtin"] != true)
        .map(|c| Cmd {
            name: text(&c["name"]),
            description: text(&c["description"]),
            argument_hint: text(&c["argumentHint"]),
            aliases: c["aliases"].as_array().into_iter().flatten().map(text).collect(),
        })
        .collect();
    let log = Log::parse(&std::fs::read_to_string(debug_file).unwrap_or_default());
    Load {
        version: text(&r["claude_code_version"]),
        agents,
        commands,
        mode: r["current_permission_mode"].as_str().map(str::to_string),
        output_styles: r["available_output_styles"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect(),
        log,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_lists_as_the_runtime_writes_them() {
        assert_eq!(
            parse_key_list("\"foo\""),
            UnknownKeys {
                keys: vec!["foo".into()],
                more: 0
            }
        );
        assert_eq!(
            parse_key_list("\"Tools\" (did you mean \"tools\"?), \"a \\\"q\\\"\", \"mode\", \"x\", \"y\" … and 2 more"),
            UnknownKeys {
                keys: vec!["Tools".into(), "a \"q\"".into(), "mode".into(), "x".into(), "y".into()],
                more: 2
            }
        );
    }

    #[test]
    fn debug_entries_and_what_they_name() {
        let log = Log::parse(
            "2026-12-01T21:21:28.636Z [WARN] Agent file /p/a.md has a frontmatter key Claude Code does not recognize or apply: \"foo\"\n\
             2026-12-01T21:21:28.636Z [ERROR] Agent file /p/b.md: Missing required \"description\" field in frontmatter\n\
             2026-12-01T21:21:28.636Z [DEBUG] Failed to parse agent from /p/b.md: Missing required \"description\" field in frontmatter\n\
             2026-12-01T21:21:28.637Z [ERROR] YAML frontmatter in /p/c.md failed to parse and was ignored: YAML Parse error: Unexpected token\n\
             second line of it\n\
             2026-12-01T21:21:28.637Z [DEBUG] [agents] Duplicate agent name 'd' (projectSettings): /p/d1.md, /p/d2.md — active: /p/d2.md\n",
        );
        assert_eq!(log.entries.len(), 5);
        assert!(log.entries[3].1.ends_with("\nsecond line of it"));
        assert_eq!(log.unknown_keys()[Path::new("/p/a.md")].keys, ["foo"]);
        assert_eq!(log.skipped().keys().collect::<Vec<_>>(), [Path::new("/p/b.md")]);
        assert!(log.parse_failures().contains(Path::new("/p/c.md")));
        assert_eq!(log.duplicates()["d"], Path::new("/p/d2.md"));
    }
}
