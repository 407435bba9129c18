//! `agent-lsp setup <runtime>`, the part a dialect knows: which config files make its runtime
//! start agent-lsp (as language server, MCP server, hook) and what goes in them. A dialect that
//! can be set up answers [`DialectSpec::setup`](super::spec::DialectSpec::setup) with the
//! [`Step`]s; the CLI reads and writes the files (merging by text edits, see [`merge`]) and
//! prints the report. Pure: what the dialect needs of the machine comes in the [`Ask`].

pub mod merge;
pub mod toml;

use std::path::{Path, PathBuf};

use merge::Want;

/// What `setup` was asked, and what the dialect may need of the machine.
pub struct Ask<'a> {
    /// The project directory (`--root`).
    pub root: &'a Path,
    /// The user's own config files instead of the project's (`--global`).
    pub global: bool,
    /// Merge the entries into the files (`--write`), rather than print them.
    pub write: bool,
    /// The hook too (`--hook`).
    pub hook: bool,
    /// The words that start agent-lsp in the config files (`agent-lsp`, `npx --no-install
    /// agent-lsp`, a path), before its own arguments.
    pub argv: &'a [String],
    /// The options given, for a command line to repeat (` --root DIR --global ...`).
    pub again: &'a str,
    /// An environment variable (as set, empty or not).
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// The user's home directory (`HOME`, when set and not empty).
    pub home: Option<&'a Path>,
    /// Whether a file exists.
    pub exists: &'a dyn Fn(&Path) -> bool,
    /// The agent-lsp checkout this binary was built in, shell-quoted (`<agent-lsp clone>` when
    /// there is none), and its path when there is one.
    pub clone_shown: &'a str,
    pub clone: Option<&'a Path>,
    /// This binary's path.
    pub exe: &'a str,
    /// The `agent-lsp` PATH finds, and whether it is this binary.
    pub on_path: Option<(PathBuf, bool)>,
}

impl Ask<'_> {
    /// `argv` with more arguments, as a JSON array.
    pub fn command(&self, args: &[&str]) -> serde_json::Value {
        serde_json::Value::Array(
            self.argv
                .iter()
                .map(String::as_str)
                .chain(args.iter().copied())
                .map(|s| serde_json::Value::String(s.to_string()))
                .collect(),
        )
    }

    /// The entry of a stdio MCP server under `parent` (`mcpServers`, `mcp_servers`) named
    /// `agent-lsp`: `argv` with more arguments, as `command` (the program) and `args` (the rest),
    /// as Claude Code's `.mcp.json` and Codex's `config.toml` write a server.
    pub fn stdio_server(&self, parent: &'static str, args: &[&str]) -> merge::Want<'static> {
        let (command, rest) = self
            .argv
            .split_first()
            .map_or(("agent-lsp", &[][..]), |(c, r)| (c.as_str(), r));
        let args: Vec<&str> = rest.iter().map(String::as_str).chain(args.iter().copied()).collect();
        merge::Want::member(
            parent,
            "agent-lsp",
            merge::J::obj(vec![
                ("command", merge::J::Val(serde_json::json!(command))),
                ("args", merge::J::Val(serde_json::json!(args))),
            ]),
        )
    }

    /// `argv` with more arguments, as a shell command line.
    pub fn shell(&self, args: &[&str]) -> String {
        shell_line(self.argv, args)
    }

    /// A file under the root as the user would type it: relative to the root given.
    pub fn shown(&self, name: &str) -> String {
        if self.root == Path::new(".") {
            name.to_string()
        } else {
            self.root.join(name).display().to_string()
        }
    }

    /// The home directory, which `--global` needs.
    pub fn home(&self) -> Result<&Path, String> {
        self.home.ok_or_else(|| "--global: HOME is not set".to_string())
    }
}

/// `argv` with more arguments, as a shell command line.
pub fn shell_line(argv: &[String], args: &[&str]) -> String {
    argv.iter()
        .map(|a| sh_quote(a))
        .chain(args.iter().map(|a| a.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Quote for a POSIX shell when needed.
pub fn sh_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '+' | ':' | '@' | '~' | ','))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// One part of the report, in order.
pub enum Step {
    /// Text printed as it is.
    Say(String),
    /// A config file to merge entries into (or whose entries to print).
    File(File),
}

/// The language of a config file `setup` merges into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// JSON with comments (opencode, Claude Code): merged by text edits ([`merge`]).
    Jsonc,
    /// TOML (Codex): merged through `toml_edit` ([`toml`]).
    Toml,
}

impl Syntax {
    /// Merge `want` into `text` (see [`merge::merge`]).
    pub fn merge(self, text: &str, want: &Want) -> Result<(String, merge::Change), String> {
        match self {
            Syntax::Jsonc => merge::merge(text, want),
            Syntax::Toml => toml::merge(text, want),
        }
    }

    /// Parse `text` into agent-lsp's tree, to read back what was merged.
    pub fn parse(self, text: &str) -> Result<crate::analysis::syntax::Node, String> {
        match self {
            Syntax::Jsonc => merge::parse_object(text),
            Syntax::Toml => toml::parse_table(text),
        }
    }

    /// The text of a file with nothing in it, which the entries are shown merged into.
    pub fn empty(self) -> &'static str {
        match self {
            Syntax::Jsonc => "{}",
            Syntax::Toml => "",
        }
    }
}

/// A config file `setup` merges entries into.
pub struct File {
    pub path: PathBuf,
    pub syntax: Syntax,
    /// Its path as the report shows it.
    pub shown: String,
    /// The text of a new file, before the entries.
    pub initial: String,
    /// Hold the merged file to agent-lsp's own analysis (no new finding).
    pub analyse: bool,
    pub wants: Vec<Want<'static>>,
    /// What the report adds once the file changed.
    pub after_change: String,
    /// The command that merges it (for the printed plan).
    pub merge_it: String,
}
