//! `agent-lsp setup <opencode|claude> [--root DIR] [--write]`: the configuration that makes a
//! coding agent use this binary as its language server and MCP server, printed, or with
//! `--write` merged into the project's config file by text edits that keep everything else
//! (see [`merge`]).

mod merge;

use std::path::{Path, PathBuf};

use merge::{Change, J, Want};
use serde_json::json;

use crate::workspace::{Options, Workspace};

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Runtime {
    /// `lsp` and `mcp` entries in opencode.json(c).
    Opencode,
    /// The agent-lsp plugin, and an `.mcp.json` entry.
    Claude,
}

const SCHEMA: &str = "https://opencode.ai/config.json";

/// opencode 1.18.34 runs no language server when `lsp` is unset (or `false`), and every built-in
/// one plus the configured ones when it is `true` or an object.
const LSP_ADDED: &str = "the file had no `lsp`; where no config sets it, opencode runs no language \
     server at all, and an `lsp` object also turns on opencode's built-in servers (TypeScript, \
     Python, Go, ...); turn one off with `\"<name>\": {\"disabled\": true}` in `lsp`";

const LSP_FALSE: &str = "turns every language server off in opencode, agent-lsp's too, so agent-lsp \
     will not add one. To use agent-lsp, replace `false` with `{}` (an object keeps opencode's \
     built-in servers on; turn one off with `\"<name>\": {\"disabled\": true}`), then run this again";

/// How a file is written: atomically (the CLI's `write_atomically`, passed in by the caller, so
/// that this module does not import its parent).
pub type WriteFile = fn(&Path, &str) -> std::io::Result<()>;

/// Run `setup`; returns the exit status (0 done, 2 refused or failed).
pub fn run(runtime: Runtime, root: &Path, write: bool, write_file: WriteFile) -> i32 {
    let result = Exe::find().and_then(|exe| {
        if !root.is_dir() {
            return Err(format!(
                "--root {}: {}",
                root.display(),
                if root.exists() {
                    "not a directory"
                } else {
                    "no such directory"
                }
            ));
        }
        match runtime {
            Runtime::Opencode => opencode(&exe, root, write.then_some(write_file)),
            Runtime::Claude => claude(&exe, root, write.then_some(write_file)),
        }
    });
    match result {
        Ok(report) => {
            out!("{report}");
            0
        }
        Err(e) => {
            eprintln!("agent-lsp: error: {e}");
            2
        }
    }
}

/// This binary, as the configs must name it.
struct Exe {
    /// Absolute and canonical, as UTF-8 (JSON configs cannot hold anything else).
    path: String,
    /// Under a cargo `target/debug` or `target/release` directory.
    in_target: bool,
    /// A checkout of agent-lsp: the one this binary was built in, if it is still there.
    clone: Option<PathBuf>,
}

impl Exe {
    fn find() -> Result<Exe, String> {
        let exe = std::env::current_exe()
            .and_then(std::fs::canonicalize)
            .map_err(|e| format!("cannot find this program's own path: {e}"))?;
        let path = exe
            .to_str()
            .ok_or_else(|| format!("{}: the binary's path is not UTF-8", exe.display()))?
            .to_string();
        // `target/debug/agent-lsp`, `target/<triple>/release/agent-lsp`.
        let target = exe.ancestors().find(|a| {
            a.file_name().is_some_and(|n| n == "target")
                && exe.strip_prefix(a).is_ok_and(|rest| {
                    rest.components()
                        .any(|c| c.as_os_str() == "debug" || c.as_os_str() == "release")
                })
        });
        let is_clone = |d: &Path| d.join("Cargo.toml").is_file() && d.join("editors").is_dir();
        let clone = target
            .and_then(Path::parent)
            .filter(|d| is_clone(d))
            .map(Path::to_path_buf)
            .or_else(|| {
                let built_in = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
                is_clone(&built_in).then_some(built_in)
            });
        Ok(Exe {
            path,
            in_target: target.is_some(),
            clone,
        })
    }

    fn header(&self) -> String {
        let mut s = format!("agent-lsp binary: {}\n", self.path);
        if self.in_target {
            s.push_str(&format!(
                "note: this binary is in a cargo target directory, which `cargo clean` deletes; for a \
                 lasting path, install it (`cargo install --path {}`) and run `agent-lsp setup` from \
                 the installed binary\n",
                self.clone_shown()
            ));
        }
        s
    }

    fn clone_shown(&self) -> String {
        self.clone
            .as_deref()
            .map(|c| sh_quote(&c.display().to_string()))
            .unwrap_or_else(|| "<agent-lsp clone>".to_string())
    }
}

fn opencode_wants(exe: &Exe) -> [Want<'static>; 2] {
    [
        Want {
            parent: "lsp",
            name: "agent-lsp",
            value: J::obj(vec![
                ("command", J::Val(json!([exe.path, "serve", "--for-agents"]))),
                ("extensions", J::Val(json!([".md", ".json", ".jsonc"]))),
            ]),
            true_is_object: true,
            false_refusal: Some(LSP_FALSE),
            note_if_added: Some(LSP_ADDED),
        },
        Want {
            parent: "mcp",
            name: "agent-lsp",
            value: J::obj(vec![
                ("type", J::Val(json!("local"))),
                ("command", J::Val(json!([exe.path, "mcp"]))),
                ("enabled", J::Val(json!(true))),
            ]),
            true_is_object: false,
            false_refusal: None,
            note_if_added: None,
        },
    ]
}

fn claude_want(exe: &Exe) -> Want<'static> {
    Want {
        parent: "mcpServers",
        name: "agent-lsp",
        value: J::obj(vec![
            ("command", J::Val(json!(exe.path))),
            ("args", J::Val(json!(["mcp"]))),
        ]),
        true_is_object: false,
        false_refusal: None,
        note_if_added: None,
    }
}

/// A path under the root as the user would type it: relative to the root given.
fn shown(root: &Path, name: &str) -> String {
    if root == Path::new(".") {
        name.to_string()
    } else {
        root.join(name).display().to_string()
    }
}

/// `--root DIR` as typed, for a command line to repeat.
fn root_arg(root: &Path) -> String {
    if root == Path::new(".") {
        String::new()
    } else {
        format!(" --root {}", sh_quote(&root.display().to_string()))
    }
}

/// Quote for a POSIX shell when needed.
fn sh_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '+' | ':' | '@' | '~' | ','))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The entries as a fresh file holds them (the snippet to copy).
fn snippet(wants: &[Want]) -> String {
    let mut text = "{}".to_string();
    for w in wants {
        text = merge::merge(&text, w).map(|(t, _)| t).unwrap_or(text);
    }
    text
}

fn opencode(exe: &Exe, root: &Path, write: Option<WriteFile>) -> Result<String, String> {
    let (json, jsonc) = (root.join("opencode.json"), root.join("opencode.jsonc"));
    let mut out = exe.header();
    let name = match (json.exists(), jsonc.exists()) {
        (true, true) => {
            out.push_str(&format!(
                "note: both {} and {} exist; opencode reads both and opencode.jsonc wins, so the \
                 entries go there\n",
                shown(root, "opencode.json"),
                shown(root, "opencode.jsonc")
            ));
            "opencode.jsonc"
        }
        (false, true) => "opencode.jsonc",
        _ => "opencode.json",
    };
    let path = root.join(name);
    let wants = opencode_wants(exe);
    let file = Target {
        path: &path,
        shown: shown(root, name),
        initial: format!("{{\n  \"$schema\": \"{SCHEMA}\"\n}}\n"),
        analyse: true,
    };
    if let Some(write_file) = write {
        let (report, changed) = file.write(&wants, write_file)?;
        out.push_str(&report);
        if changed {
            out.push_str(
                "opencode starts them from its next session in this project; `opencode debug config` shows \
                 the merged `lsp` and `mcp`\n",
            );
        }
    } else {
        out.push_str(&format!("\nAdd to {} (merged with what is there):\n", file.shown));
        out.push_str(&snippet(&wants));
        out.push_str(&format!("\n\n{}", file.plan(&wants)));
        out.push_str(&format!(
            "Merge it (comments and formatting kept): agent-lsp setup opencode --write{}\n",
            root_arg(root)
        ));
    }
    Ok(out)
}

fn claude(exe: &Exe, root: &Path, write: Option<WriteFile>) -> Result<String, String> {
    let mut out = exe.header();
    let clone = exe.clone_shown();
    let plugin_dir = match &exe.clone {
        Some(c) => sh_quote(&c.join("editors").join("claude-code").display().to_string()),
        None => "<agent-lsp clone>/editors/claude-code".to_string(),
    };
    out.push_str(&format!(
        "\nLanguage server: the agent-lsp plugin (editors/claude-code)\n  \
         claude plugin marketplace add {clone}\n  \
         claude plugin install agent-lsp@agent-lsp\n\
         or for one session:\n  \
         claude --plugin-dir {plugin_dir}\n"
    ));
    out.push_str(&on_path(exe));
    let path = root.join(".mcp.json");
    let want = claude_want(exe);
    let file = Target {
        path: &path,
        shown: shown(root, ".mcp.json"),
        initial: "{}\n".to_string(),
        analyse: false,
    };
    if let Some(write_file) = write {
        out.push_str("\nMCP server (the plugin declares it too: this is for a project without the plugin):\n");
        let (report, changed) = file.write(std::slice::from_ref(&want), write_file)?;
        out.push_str(&report);
        if changed {
            out.push_str(
                "Claude Code asks to approve the project's MCP server `agent-lsp` when it next starts here \
                 (approved servers are listed in `enabledMcpjsonServers`)\n",
            );
        }
    } else {
        out.push_str(&format!(
            "\nMCP server (the plugin declares it too: this is for a project without the plugin): add to {} (merged with what is there):\n",
            file.shown
        ));
        out.push_str(&snippet(std::slice::from_ref(&want)));
        out.push_str(&format!(
            "\nor, for you only:\n  claude mcp add agent-lsp -- {} mcp\n\n{}",
            sh_quote(&exe.path),
            file.plan(std::slice::from_ref(&want))
        ));
        out.push_str(&format!(
            "Merge it (comments and formatting kept): agent-lsp setup claude --write{}\n",
            root_arg(root)
        ));
    }
    Ok(out)
}

/// Whether `agent-lsp` is on PATH (the plugin runs it from there), and if not, how to put it.
fn on_path(exe: &Exe) -> String {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("agent-lsp"))
            .find(|p| p.is_file())
    });
    match found {
        Some(p) if std::fs::canonicalize(&p).is_ok_and(|c| c.to_str() == Some(exe.path.as_str())) => {
            format!(
                "The plugin runs `agent-lsp` from PATH: {} is this binary\n",
                p.display()
            )
        }
        Some(p) => format!(
            "The plugin runs `agent-lsp` from PATH: that is {}, not this binary\n",
            p.display()
        ),
        None => format!(
            "The plugin runs `agent-lsp` from PATH, and it is not there; link this binary into a \
             PATH directory:\n  ln -s {} ~/.local/bin/agent-lsp\nor install it: cargo install --path {}\n",
            sh_quote(&exe.path),
            exe.clone_shown()
        ),
    }
}

/// A merge's result: the text, what changed (one phrase per entry), and notes to print.
struct Merged {
    text: String,
    changes: Vec<String>,
    changed: bool,
    notes: String,
}

/// The config file to merge into.
struct Target<'a> {
    path: &'a Path,
    shown: String,
    /// The text of a new file, before the entries.
    initial: String,
    /// Check the result with agent-lsp's own analysis (an opencode config).
    analyse: bool,
}

/// A change in words: as done (`added ...`), or as `--write` would make it (`adds ...`).
fn describe(want: &Want, change: Change, done: bool) -> String {
    let (p, n) = (want.parent, want.name);
    let verb = |past: &str, present: &str| if done { past.to_string() } else { present.to_string() };
    match change {
        Change::Unchanged => format!("`{p}.{n}` already set"),
        Change::AddedParent | Change::Added => format!("{} `{p}.{n}`", verb("added", "adds")),
        Change::Replaced => format!(
            "{} `{p}.{n}` (it {} another value)",
            verb("replaced", "replaces"),
            verb("had", "has")
        ),
        Change::FromTrue if done => {
            format!("`\"{p}\": true` became an object holding `{n}` (the built-in servers stay on)")
        }
        Change::FromTrue => {
            format!("turns `\"{p}\": true` into an object holding `{n}` (the built-in servers stay on)")
        }
    }
}

impl Target<'_> {
    fn read(&self) -> Result<Option<String>, String> {
        match std::fs::read_to_string(self.path) {
            Ok(t) => Ok(Some(t)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: cannot read: {e}", self.shown)),
        }
    }

    /// The merged text and what changed, or the refusal.
    fn merged(&self, original: Option<&str>, wants: &[Want], done: bool) -> Result<Merged, String> {
        let mut m = Merged {
            text: original.map_or_else(|| self.initial.clone(), str::to_string),
            changes: Vec::new(),
            changed: false,
            notes: String::new(),
        };
        for w in wants {
            let (t, change) = merge::merge(&m.text, w).map_err(|e| format!("{}:{e}", self.shown))?;
            m.changed |= change != Change::Unchanged;
            m.changes.push(describe(w, change, done));
            if let (Change::AddedParent, Some(note)) = (change, w.note_if_added) {
                m.notes.push_str(&format!("note: {note}\n"));
            }
            m.text = t;
        }
        Ok(m)
    }

    /// What `--write` would do, as a line (and notes).
    fn plan(&self, wants: &[Want]) -> String {
        let original = match self.read() {
            Ok(o) => o,
            Err(e) => return format!("note: {e}\n"),
        };
        match self.merged(original.as_deref(), wants, false) {
            Ok(m) if original.is_none() => format!("{}: not there yet; --write creates it\n{}", self.shown, m.notes),
            Ok(m) if !m.changed => format!("{}: already set up\n", self.shown),
            Ok(m) => format!("{}: --write {}\n{}", self.shown, m.changes.join("; "), m.notes),
            Err(e) => format!("--write would refuse: {e}\n"),
        }
    }

    /// Merge the entries into the file, atomically; then read it back and hold it to the result
    /// (and, for an opencode config, to agent-lsp's analysis: no new finding). Returns the report
    /// and whether the file changed.
    fn write(&self, wants: &[Want], write_file: WriteFile) -> Result<(String, bool), String> {
        let original = self.read()?;
        let Merged {
            text,
            changes,
            changed,
            notes,
        } = self.merged(original.as_deref(), wants, true)?;
        if original.is_some() && !changed {
            return Ok((format!("{}: already set up; nothing changed\n", self.shown), false));
        }
        // Through a symbolic link to the file it names (a rename would replace the link).
        let real = std::fs::canonicalize(self.path).unwrap_or_else(|_| self.path.to_path_buf());
        let before = match (&original, self.analyse) {
            (Some(_), true) => findings(&real)?,
            _ => Vec::new(),
        };
        write_file(&real, &text).map_err(|e| format!("{}: cannot write: {e}", self.shown))?;
        if let Err(e) = self.verify(&real, &text, wants, &before) {
            // Put the file back as it was.
            let _ = match &original {
                Some(o) => write_file(&real, o),
                None => std::fs::remove_file(&real),
            };
            return Err(format!("{}: {e}; the file is left as it was", self.shown));
        }
        let report = format!(
            "{} {}: {}\n{notes}",
            if original.is_some() { "updated" } else { "created" },
            self.shown,
            changes.join("; ")
        );
        Ok((report, true))
    }

    fn verify(&self, real: &Path, written: &str, wants: &[Want], before: &[String]) -> Result<(), String> {
        let text = std::fs::read_to_string(real).map_err(|e| format!("cannot read it back: {e}"))?;
        if text != written {
            return Err("it changed while being written".to_string());
        }
        let root = merge::parse_object(&text).map_err(|e| format!("the merged text does not parse ({e})"))?;
        for w in wants {
            let got = root
                .as_map()
                .and_then(|m| m.value(w.parent))
                .and_then(|p| p.as_map())
                .and_then(|m| m.value(w.name))
                .map(|v| v.to_json());
            if got.as_ref() != Some(&w.value.to_json()) {
                return Err(format!(
                    "the merged text does not hold `{}.{}` as intended",
                    w.parent, w.name
                ));
            }
        }
        if self.analyse {
            let mut left = before.to_vec();
            let mut new = Vec::new();
            for f in findings(real)? {
                match left.iter().position(|b| *b == f) {
                    Some(i) => {
                        left.swap_remove(i);
                    }
                    None => new.push(f),
                }
            }
            if !new.is_empty() {
                return Err(format!("the merge would add findings: {}", new.join("; ")));
            }
        }
        Ok(())
    }
}

/// agent-lsp's findings on one config file, read from disk, without the spans (which move).
fn findings(path: &Path) -> Result<Vec<String>, String> {
    let ws = Workspace::load(&[path.to_path_buf()], &Options::isolated())
        .map_err(|e| format!("cannot analyse {}: {e}", path.display()))?;
    Ok(ws
        .diagnostics()
        .into_iter()
        .map(|(_, d)| format!("{}: {}", d.code.rule().name, d.message))
        .collect())
}
