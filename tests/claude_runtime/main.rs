//! Claude Code is the judge: agent-lsp against the released Claude Code 2.1.332.
//!
//! For every workspace below, Claude Code (`claude -p` in stream-JSON mode, sent one
//! `initialize` request, in an empty home; see `oracle.rs`) is started in each project directory
//! of the workspace, and what it loads is compared with what agent-lsp tells a user about the same
//! directory, in the same home:
//!
//! - **Agents** (agent-lsp: `explain --root DIR --dialect claude --format json`, then `explain
//!   NAME ...` for each): the same names load (project, user-level `~/.claude/agents` and plugin
//!   agents, built-ins aside); each has exactly the same description and the same model, an unset
//!   model (no `model` in Claude Code's answer, `"unset": ["model", ...]` in agent-lsp's) kept
//!   apart from an explicit `inherit`. When one name is defined several times, the descriptions
//!   tell which file won (precedence across sources), and Claude Code's `Duplicate agent name
//!   ... active: PATH` line is compared with the file agent-lsp names first in `defined_in`.
//! - **Files** (agent-lsp: `check --format json`, and the reading of each file as
//!   `agent_lsp::workspace::Workspace` holds it): the unknown keys Claude Code's debug log names
//!   per file (the `unknown-key` diagnostics); which files fail both parse passes; which are
//!   skipped with a reason (a missing or non-string `name` or `description`, a bad `name`,
//!   malformed `hooks`); which are over 1 MiB.
//! - **Commands** (agent-lsp's reading of `.claude/commands/**/*.md` and Claude Code skills, from
//!   the library, since no command of agent-lsp prints them): the same commands load, with the
//!   same description and argument hint; a skill Claude Code lists is one agent-lsp says Claude
//!   Code loads (the skill's `SkillDecl::runtimes`), and gets no error that it is skipped
//!   (`file-ignored`) unless agent-lsp says another runtime that loads it there (opencode, judged
//!   by `tests/runtime`) skips it.
//!
//! Workspaces: `test-workspace/`; the public corpus (`../shared/corpus/`), one workspace per
//! repository with its Claude Code agents, commands and skills at their real paths (a repository
//! that publishes agents outside `.claude/agents/`, a collection meant for `~/.claude/agents/`, is
//! laid out in the home's `~/.claude/agents/` at its real path); and the generated cases of
//! `cases.rs` (spec `claude-code.md` §7). The test prints a table of agreement per workspace and
//! fails on any disagreement that `ALLOWED` does not list with its reason, and on an `ALLOWED`
//! entry that matches nothing.
//!
//! It needs the runtime: `tests/claude_runtime/run.sh` installs it from npm (pinned in
//! `package.json`, with integrity hashes in `package-lock.json`) and runs this test with
//! `CLAUDE_BIN` set.
//!
//! # Recorded verdicts and their replay
//!
//! The live tests (`#[ignore]`d, run by `run.sh`) record what Claude Code answered, in the form
//! the comparison reads it (`answers.rs`, with `tests/verdict_support`), one JSON line per case:
//!
//! - `tests/verdicts/claude-agents.jsonl`: per start (`id` = `workspace[:directory]`), the
//!   agents loaded (built-ins left out) with name, description and model; the commands and
//!   skills listed with description, argument hint and aliases; the `Duplicate agent name` active
//!   files; and, for a workspace's first start, what the debug file says about files (unknown
//!   keys, parse failures, skips with their reason, files over 1 MiB);
//! - `tests/verdicts/claude-settings.jsonl` (`settings.rs`): per settings case, the session's
//!   permission mode and the skipped JSON paths with their message;
//! - `tests/verdicts/claude-mcp.jsonl` (`mcp_json.rs`): per `.mcp.json`, the lines about the
//!   whole file, the servers skipped with their message, the servers listed;
//! - `tests/verdicts/claude-hook-matchers.jsonl` (`hook_matchers.rs`): which `PreToolUse` hooks
//!   ran when the scripted model (`tests/agents/mock_model.py`) called `Bash`, per matcher;
//! - `tests/verdicts/claude-rules.jsonl` (`rules.rs`): when each rule of `.claude/rules/` reached
//!   the model (at the start, after a matching file was read, never);
//! - `tests/verdicts/claude-skill-hooks.jsonl` (`skill_hooks.rs`): which skills and commands lose
//!   their hooks and `allowed-tools`, or one entry, for the `hooks` of their frontmatter;
//! - `tests/verdicts/claude-output-styles.jsonl` (`output_styles.rs`): the output styles Claude
//!   Code lists, the values its debug log says it left out, and which settings `outputStyle`
//!   reached the system prompt;
//! - `tests/verdicts/claude-plugin-files.jsonl` (`plugin_files.rs`): per plugin, which of its
//!   `.mcp.json`, `.lsp.json` and `monitors/monitors.json` Claude Code refused (whole, or a server
//!   of).
//!
//! Paths are written relative to the workspace, as `~/...` in the home, or `$TMP/...`; each line
//! carries `h`, the hash of the case's input (every file of the workspace and its home, the
//! settings or `.mcp.json` text). With `RECORD_VERDICTS=1 tests/claude_runtime/run.sh` the live
//! tests write the recordings; without it they fail when Claude Code's answers differ from the
//! committed ones (the recording is stale: the test names the cases). `CLAUDE_RUNTIME_ONLY`
//! (part of the workspaces) turns the comparison with the recording off, and refuses to record.
//!
//! The replays (`*_recorded_claude_code`, not ignored: plain `cargo test --test claude_runtime`,
//! with neither node nor Claude Code) lay every case out again, require its input to hash as
//! recorded (else the cases or their files changed since: record again), take Claude Code's
//! answer from the recording and run agent-lsp's side and the comparison exactly as the live
//! tests do (`compare_case`, `settings::compare`, `mcp_json::compare`: the only difference is
//! where the answer comes from), failing on any disagreement `ALLOWED` does not list and on an
//! `ALLOWED` entry that matches nothing. So a change of agent-lsp that breaks agreement with
//! Claude Code fails `cargo test` (and mutation testing sees it), not only the runtime's CI step.

mod answers;
mod cases;
mod hook_matchers;
mod instructions;
mod mcp_json;
mod mock;
#[path = "../mock_support/mod.rs"]
mod mock_support;
mod oracle;
mod output_styles;
mod plugin_files;
mod rules;
mod settings;
mod skill_hooks;
#[path = "../verdict_support/mod.rs"]
mod verdict_support;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use agent_lsp::analysis::claude::agent::Status;
use agent_lsp::analysis::claude::read::Outcome;
use agent_lsp::analysis::{Effect, FileKind, Severity};
use agent_lsp::workspace::{Options, Role, Workspace};
use answers::{Answer, Places};
use oracle::Home;
use serde_json::Value;
use verdict_support::{Recording, Replay};

/// Disagreements that are understood and accepted: (workspace name prefix, subject or `*`,
/// field, reason). A subject is `agent NAME`, `file PATH` (relative to the workspace) or
/// `command NAME`. Entries whose reason starts with `pending:` are expected to go once the named
/// branch is merged (the test then fails on them as stale: remove them).
const ALLOWED: &[(&str, &str, &str, &str)] = &[
    // --- commands and skills: what agent-lsp does not model today
    ("test-workspace", "command lint", "name", SKILL_NAME),
    ("gen/commands", "command s-named", "name", SKILL_NAME),
    ("gen/commands", "command c-user", "exists", USER_COMMANDS),
    ("gen/commands", "command c-desc", "description", USER_COMMANDS),
    ("gen/commands", "command c-desc", "argument-hint", USER_COMMANDS),
    // --- plugins
    (
        "gen/plugins",
        "agent unnamed:u",
        "exists",
        "known gap: Claude Code refuses a plugin.json without `name` (its log: `invalid manifest file ... name: Invalid input: expected string, received undefined`) and loads none of its agents; agent-lsp reports that error on the manifest (`missing-field`, the plugin is not loaded) but still registers the plugin's agents, named after its folder",
    ),
    // --- agents: known gaps of the shared YAML parser, and one deliberate choice
    (
        "gen/block-scalars",
        "agent s-3",
        "description",
        "known gap: the shared YAML parser (saphyr) drops the blank lines that end a keep-chomped (`>+`, `|+`) block scalar, which Bun keeps (`keep\\n\\n`); only the trailing line breaks of such a description differ",
    ),
    ("gen/bom", "agent b-4", "exists", BOM_INSIDE),
    ("gen/bom", "file .claude/agents/b-4.md", "parse-failure", BOM_INSIDE),
    (
        "gen/hooks-and-values",
        "file .claude/agents/v-1.md",
        "unknown-keys",
        "agent-lsp is right on what matters: a `PreToolUse` at the top level skips the file, and agent-lsp reports exactly that as an error on the key (Claude Code logs `... is declared at the frontmatter top level, outside \"hooks\"` and skips it too); Claude Code's extra unknown-key line for the same key adds nothing a second diagnostic would",
    ),
];

const SKILL_NAME: &str = "not modelled: Claude Code 2.1.332 lists a skill under its frontmatter `name`, the folder only an alias; agent-lsp says the folder names it (skill.rs)";
const USER_COMMANDS: &str = "not modelled: agent-lsp does not read `~/.claude/commands/`, and in Claude Code 2.1.332 a user command replaces the project command of the same name (spec §4 says the project wins)";
const BOM_INSIDE: &str = "known gap: a U+FEFF inside a value: YAML 1.2 excludes it from content and the shared YAML parser (saphyr) rejects it, so agent-lsp reports a parse error and predicts a skip, while Bun reads it as a character and Claude Code loads the agent; no editor writes a BOM mid-line";

/// One workspace: a git repository, its home, and the directories Claude Code is started in.
struct Case {
    name: String,
    root: PathBuf,
    home: Home,
    /// The hash of its files (`verdict_support::hash_files`), taken once they are laid out.
    input: String,
}

impl Case {
    /// A workspace whose files are laid out: its input is hashed now, before anything runs in it
    /// (Claude Code writes into the home).
    fn new(name: String, root: PathBuf, home: Home) -> Case {
        let mut files = Vec::new();
        tree_files(&root, "", &mut files);
        tree_files(&home.home, "~/", &mut files);
        let input = verdict_support::hash_files(files.iter().map(|(n, b)| (n.as_str(), b.as_slice())));
        Case {
            name,
            root,
            home,
            input,
        }
    }

    /// Where its recorded paths are relative to (`tmp`: the run's temporary folder).
    fn places(&self, tmp: &Path) -> Places {
        Places::new(&self.root, &self.home.home, tmp)
    }
}

/// Every file under `dir` (but `.git`), named `prefix` + its path relative to `dir`.
fn tree_files(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = format!("{prefix}{}", e.file_name().to_string_lossy());
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            if e.file_name() != ".git" {
                tree_files(&e.path(), &format!("{name}/"), out);
            }
        } else if t.is_file() {
            out.push((name, fs::read(e.path()).unwrap()));
        }
    }
}

fn agent_lsp() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_agent-lsp"))
}

fn git_init(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let ok = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "git init in {}", dir.display());
}

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, bytes).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            fs::copy(&p, &dest).unwrap();
        }
    }
}

fn canon(p: &Path) -> PathBuf {
    fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Every directory under `dir` (itself included), hidden ones too.
fn dirs_under(dir: &Path, out: &mut Vec<PathBuf>) {
    out.push(dir.to_path_buf());
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut subs: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.is_symlink() && p.file_name().is_some_and(|n| n != ".git"))
        .collect();
    subs.sort();
    for s in subs {
        dirs_under(&s, out);
    }
}

// ---------------------------------------------------------------------------------------------
// agent-lsp's side

fn run_json(home: &Home, cwd: &Path, args: &[&str]) -> Value {
    let out = home
        .command(&agent_lsp())
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run agent-lsp");
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "agent-lsp {args:?}: not JSON ({e}); status {:?}\nstdout: {stdout}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// An agent as agent-lsp's `explain` shows it.
struct OurAgent {
    description: String,
    /// `None` when `unset` names `model`.
    model: Option<String>,
    /// The file `defined_in` names first (the active one).
    file: PathBuf,
}

/// The Claude agents agent-lsp says load when Claude Code starts in `dir`.
fn our_agents(home: &Home, root: &Path, dir: &Path) -> BTreeMap<String, OurAgent> {
    let d = dir.to_string_lossy();
    let list = run_json(
        home,
        root,
        &["explain", "--root", &d, "--dialect", "claude", "--format", "json"],
    );
    let mut out = BTreeMap::new();
    for a in list.as_array().expect("explain list") {
        if a["dialect"] != "claude" {
            continue;
        }
        let name = a["name"].as_str().expect("name").to_string();
        let v = run_json(
            home,
            root,
            &[
                "explain",
                &name,
                "--root",
                &d,
                "--dialect",
                "claude",
                "--format",
                "json",
            ],
        );
        // A list with the one Claude Code entry (`--dialect claude`).
        let v = v.as_array().and_then(|l| l.first()).cloned().unwrap_or(v);
        let unset: Vec<&str> = v["unset"]
            .as_array()
            .unwrap_or_else(|| panic!("explain {name}: no `unset` in {v}"))
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let model = (!unset.contains(&"model")).then(|| v["model"].as_str().unwrap_or_default().to_string());
        let location = v["defined_in"][0]["location"].as_str().unwrap_or_default();
        out.insert(
            name,
            OurAgent {
                description: v["description"].as_str().unwrap_or_default().to_string(),
                model,
                file: canon(&root.join(strip_line_col(location))),
            },
        );
    }
    out
}

/// `path:2:7` → `path`.
fn strip_line_col(location: &str) -> &str {
    let mut s = location;
    for _ in 0..2 {
        if let Some((head, tail)) = s.rsplit_once(':')
            && !tail.is_empty()
            && tail.bytes().all(|b| b.is_ascii_digit())
        {
            s = head;
        }
    }
    s
}

/// The top-level unknown keys agent-lsp reports per file (`check --format json` on `path`, with
/// `--no-global` for the user's own agents, which agent-lsp otherwise reads only to resolve
/// names): the key of each `unknown-key` diagnostic that starts a line (a key nested in `hooks`
/// is not a frontmatter key), unquoted, each once, in file order.
fn our_unknown_keys(home: &Home, root: &Path, path: &Path, no_global: bool) -> BTreeMap<PathBuf, Vec<String>> {
    let p = path.to_string_lossy();
    let mut args = vec!["check", "--format", "json"];
    if no_global {
        args.push("--no-global");
    }
    args.push(&p);
    let report = run_json(home, root, &args);
    let mut out: BTreeMap<PathBuf, Vec<(u64, u64, String)>> = BTreeMap::new();
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        if d["code"] != "unknown-key" {
            continue;
        }
        let file = PathBuf::from(d["path"].as_str().unwrap_or_default());
        let file = canon(&if file.is_absolute() { file } else { root.join(file) });
        let Ok(text) = fs::read_to_string(&file) else { continue };
        let pos = |p: &Value| (p["line"].as_u64().unwrap_or(0), p["column"].as_u64().unwrap_or(0));
        let (start, end) = (pos(&d["range"]["start"]), pos(&d["range"]["end"]));
        if start.1 != 1 {
            continue;
        }
        let key = unquote(&slice(&text, start, end));
        out.entry(file).or_default().push((start.0, start.1, key));
    }
    out.into_iter()
        .map(|(f, mut keys)| {
            keys.sort();
            let mut unique: Vec<String> = Vec::new();
            for (_, _, k) in keys {
                if !unique.contains(&k) {
                    unique.push(k);
                }
            }
            (f, unique)
        })
        .collect()
}

/// A YAML key as written (`"a b"`, `'it''s'`, `plain`) → the key.
fn unquote(key: &str) -> String {
    if key.len() >= 2 && key.starts_with('"') && key.ends_with('"') {
        serde_json::from_str::<String>(key).unwrap_or_else(|_| key[1..key.len() - 1].to_string())
    } else if key.len() >= 2 && key.starts_with('\'') && key.ends_with('\'') {
        key[1..key.len() - 1].replace("''", "'")
    } else {
        key.to_string()
    }
}

/// The text between two 1-based (line, column) positions, columns in characters; the line
/// breaks are `\n` (a `\r` before one belongs to the line).
fn slice(text: &str, start: (u64, u64), end: (u64, u64)) -> String {
    let text = text.strip_prefix('\u{feff}').map_or(text, |t| t);
    let line = |n: u64| text.split('\n').nth(n.saturating_sub(1) as usize).unwrap_or("");
    if start.0 != end.0 {
        return line(start.0).chars().skip(start.1.saturating_sub(1) as usize).collect();
    }
    line(start.0)
        .chars()
        .skip(start.1.saturating_sub(1) as usize)
        .take(end.1.saturating_sub(start.1) as usize)
        .collect()
}

/// What agent-lsp makes of each Claude agent file: its reading's outcome and status.
struct OurFile {
    outcome: Outcome,
    status: Status,
    has_name: bool,
    plugin: bool,
}

/// A command as agent-lsp reads it.
#[derive(Debug)]
struct OurCommand {
    /// The directory whose `.claude/` holds it (the project, or the home).
    owner: PathBuf,
    description: Option<String>,
    argument_hint: Option<String>,
    file: PathBuf,
    /// For a skill: agent-lsp says Claude Code loads it.
    loads: bool,
    /// For a skill: agent-lsp's errors that it is skipped (`file-ignored`), unless it says
    /// another runtime that loads it there skips it.
    skip_errors: Vec<String>,
}

/// agent-lsp's reading of the workspace through the library: the Claude agent files, and the
/// commands and skills Claude Code reads (by name).
fn our_files(case: &Case) -> (BTreeMap<PathBuf, OurFile>, Vec<(String, OurCommand)>) {
    let opts = Options {
        home: Some(case.home.home.clone()),
        ..Options::isolated()
    };
    let ws = Workspace::load(std::slice::from_ref(&case.root), &opts).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let mut files = BTreeMap::new();
    let mut commands = Vec::new();
    let diagnostics = ws.diagnostics();
    for (id, f) in ws.files.iter().enumerate().filter(|(_, f)| f.live) {
        match (&f.kind, &f.role) {
            (FileKind::Claude(agent_lsp::analysis::claude::FileKind::Agent(kind)), _) => {
                if let Some(c) = f.analysis.claude() {
                    files.insert(
                        canon(&f.path),
                        OurFile {
                            outcome: c.reading.outcome,
                            status: c.agent.status.clone(),
                            has_name: c.agent.name.is_some(),
                            plugin: kind.is_plugin(),
                        },
                    );
                }
            }
            (FileKind::Command(kind), Role::Command { dir })
                if kind.runtime == agent_lsp::analysis::Dialect::Claude =>
            {
                let decl = f.analysis.command();
                // A command hidden from the `/` menu (`user-invocable` not true) is not listed.
                if decl.is_some_and(|d| d.hidden) {
                    continue;
                }
                commands.push((
                    kind.name.clone(),
                    OurCommand {
                        owner: canon(dir),
                        description: decl.and_then(|d| d.description.clone()),
                        argument_hint: decl.and_then(|d| d.argument_hint.clone()),
                        file: canon(&f.path),
                        loads: true,
                        skip_errors: Vec::new(),
                    },
                ));
            }
            (FileKind::Skill(kind), Role::Skill { dir })
                if kind.loaders.contains(&agent_lsp::analysis::Dialect::Claude)
                    && f.path
                        .parent()
                        .and_then(Path::parent)
                        .is_some_and(|p| p.ends_with(".claude/skills")) =>
            {
                let decl = f.analysis.skill();
                let runtimes = decl.map(|d| d.runtimes.as_slice()).unwrap_or_default();
                let skipped_by_another = runtimes
                    .iter()
                    .any(|r| r.runtime != agent_lsp::analysis::Dialect::Claude && r.loads == Some(false));
                let skip_errors = diagnostics
                    .iter()
                    .filter(|(i, d)| {
                        *i == id
                            && d.severity == Severity::Error
                            && d.effect == Effect::FileIgnored
                            && !skipped_by_another
                    })
                    .map(|(_, d)| format!("{} {}", d.code.as_str(), d.message))
                    .collect();
                // agent-lsp's word: "Claude Code names the command after the folder".
                commands.push((
                    kind.folder.clone(),
                    OurCommand {
                        owner: canon(dir),
                        description: decl.and_then(|d| d.shown_description.clone()),
                        argument_hint: decl.and_then(|d| d.argument_hint.clone()),
                        file: canon(&f.path),
                        loads: runtimes
                            .iter()
                            .any(|r| r.runtime == agent_lsp::analysis::Dialect::Claude && r.loads == Some(true)),
                        skip_errors,
                    },
                ));
            }
            _ => {}
        }
    }
    (files, commands)
}

// ---------------------------------------------------------------------------------------------
// Comparison

#[derive(Default)]
struct Tally {
    rows: Vec<String>,
    disagreements: Vec<String>,
    allowed: Vec<String>,
    starts: usize,
    starts_agreeing: usize,
    agents: usize,
    agents_agreeing: usize,
    files: usize,
    files_agreeing: usize,
    commands: usize,
    commands_agreeing: usize,
    /// Allow-list entries that matched a disagreement in this run.
    used: BTreeSet<usize>,
}

/// The reason an allow-list entry gives for this disagreement; the entry is marked used.
fn allowed(used: &mut BTreeSet<usize>, workspace: &str, subject: &str, field: &str) -> Option<&'static str> {
    let i = ALLOWED
        .iter()
        .position(|(w, s, f, _)| workspace.starts_with(w) && (*s == "*" || *s == subject) && *f == field)?;
    used.insert(i);
    Some(ALLOWED[i].3)
}

/// The built-in agents of an empty project (name → the agent), to tell them from the
/// workspace's own (a project agent named `Explore` replaces the built-in one).
fn builtins(bin: &Path, tmp: &Path) -> Vec<oracle::Agent> {
    let dir = tmp.join("empty");
    git_init(&dir.join("repo"));
    let home = Home::new(&dir);
    let load = oracle::load(bin, &home, &dir.join("repo"), &[], &dir.join("debug.txt"));
    assert_eq!(load.version, oracle::VERSION, "the installed Claude Code");
    let names: BTreeSet<&str> = load.agents.iter().map(|a| a.name.as_str()).collect();
    for b in ["claude", "Explore", "general-purpose", "Plan", "statusline-setup"] {
        assert!(names.contains(b), "built-in agent {b} missing: {names:?}");
    }
    assert!(
        load.commands.is_empty(),
        "an empty project has commands: {:?}",
        load.commands
    );
    load.agents
}

/// Claude Code's command description without the source it appends (` (project)`, ` (user)`).
fn strip_source(description: &str) -> &str {
    for suffix in [" (project)", " (user)"] {
        if let Some(d) = description.strip_suffix(suffix) {
            return d;
        }
    }
    description
}

/// One start of Claude Code in a workspace: the directory, and the plugin folders it is given.
struct Start<'a> {
    /// Its place among the workspace's starts: the first, in the root, reads the files.
    index: usize,
    /// `workspace[:directory relative to the root]`, the recorded id.
    label: &'a str,
    dir: &'a Path,
    plugins: &'a [PathBuf],
}

/// Compare one workspace: every start directory. `judge` gives Claude Code's answer for a
/// start: live (`oracle::load`) or recorded (`tests/verdicts/claude-agents.jsonl`).
fn compare_case(tally: &mut Tally, case: &Case, judge: &mut dyn FnMut(&Case, &Start) -> Answer) {
    let root = canon(&case.root);
    let (our_files, our_commands) = our_files(case);
    // Unknown keys: the workspace, and the user's agents (outside it; checked on their own).
    let mut our_keys = our_unknown_keys(&case.home, &root, &root, false);
    let user_agents = case.home.user_agents();
    if user_agents.is_dir() {
        our_keys.extend(our_unknown_keys(&case.home, &root, &user_agents, true));
    }
    // Start directories: the root, and every directory with its own `.claude/`.
    let mut all = Vec::new();
    dirs_under(&root, &mut all);
    let plugins: Vec<PathBuf> = all
        .iter()
        .filter(|d| d.join(".claude-plugin").join("plugin.json").is_file())
        .cloned()
        .collect();
    let starts: Vec<PathBuf> = all
        .iter()
        .filter(|d| **d == root || (d.join(".claude").is_dir() && !plugins.iter().any(|p| d.starts_with(p))))
        .cloned()
        .collect();
    let mut file_problems: BTreeMap<PathBuf, Vec<(String, String)>> = BTreeMap::new();
    for (i, dir) in starts.iter().enumerate() {
        let rel = dir.strip_prefix(&root).unwrap_or(dir).to_string_lossy().into_owned();
        let label = if rel.is_empty() {
            case.name.clone()
        } else {
            format!("{}:{rel}", case.name)
        };
        let visible_plugins: Vec<PathBuf> = plugins.iter().filter(|p| p.starts_with(dir)).cloned().collect();
        let load = judge(
            case,
            &Start {
                index: i,
                label: &label,
                dir,
                plugins: &visible_plugins,
            },
        );
        let mut problems: Vec<(String, String, String)> = Vec::new();
        let rel_of = |p: &Path| -> String {
            let p = canon(p);
            match p.strip_prefix(&root) {
                Ok(r) => r.to_string_lossy().into_owned(),
                Err(_) => match p.strip_prefix(canon(&case.home.home)) {
                    Ok(r) => format!("~/{}", r.to_string_lossy()),
                    Err(_) => p.to_string_lossy().into_owned(),
                },
            }
        };

        // --- agents
        let ours = our_agents(&case.home, &root, dir);
        let theirs: BTreeMap<String, &oracle::Agent> = load.agents.iter().map(|a| (a.name.clone(), a)).collect();
        let names: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
        let mut agree = 0;
        let dups = &load.duplicates;
        for name in &names {
            let subject = format!("agent {name}");
            let before = problems.len();
            match (ours.get(*name), theirs.get(*name)) {
                (Some(o), Some(t)) => {
                    if o.description != t.description {
                        problems.push((
                            subject.clone(),
                            "description".into(),
                            format!("agent-lsp {:?} | Claude Code {:?}", o.description, t.description),
                        ));
                    }
                    if o.model != t.model {
                        problems.push((
                            subject.clone(),
                            "model".into(),
                            format!("agent-lsp {:?} | Claude Code {:?}", o.model, t.model),
                        ));
                    }
                    if let Some(active) = dups.get(*name)
                        && canon(active) != o.file
                    {
                        problems.push((
                            subject.clone(),
                            "active-file".into(),
                            format!("agent-lsp {} | Claude Code {}", rel_of(&o.file), rel_of(active)),
                        ));
                    }
                }
                (Some(o), None) => problems.push((
                    subject.clone(),
                    "exists".into(),
                    format!("agent-lsp loads it ({}), Claude Code does not", rel_of(&o.file)),
                )),
                (None, Some(t)) => problems.push((
                    subject.clone(),
                    "exists".into(),
                    format!("Claude Code loads it ({:?}), agent-lsp does not", t.description),
                )),
                (None, None) => {}
            }
            if problems.len() == before {
                agree += 1;
            }
        }
        tally.agents += names.len();
        tally.agents_agreeing += agree;

        // --- files: read once per workspace, from the first start (the root sees them all)
        if i == 0 {
            let log = load.files.as_ref().expect("the first start reads the files");
            let (their_keys, failures, skipped, too_big) =
                (&log.unknown_keys, &log.parse_failures, &log.skipped, &log.too_big);
            let mut paths: BTreeSet<PathBuf> = our_files.keys().cloned().collect();
            for p in their_keys.keys().chain(failures).chain(skipped.keys()).chain(too_big) {
                let p = canon(p);
                if p.components().any(|c| c.as_os_str() == "agents") {
                    paths.insert(p);
                }
            }
            for p in paths {
                let mut out: Vec<(String, String)> = Vec::new();
                let ours = our_files.get(&p);
                // Unknown keys: Claude Code checks them once a file has a string name.
                let theirs_k = their_keys.get(&p).cloned().unwrap_or_default();
                let ours_k = our_keys.get(&p).cloned().unwrap_or_default();
                let checked = !theirs_k.keys.is_empty() || ours.is_some_and(|f| f.has_name);
                if checked {
                    let listed_ok = theirs_k.keys.iter().all(|k| ours_k.contains(k));
                    let count_ok = theirs_k.keys.len() + theirs_k.more == ours_k.len();
                    if !(listed_ok && count_ok) {
                        let more = if theirs_k.more > 0 {
                            format!(" and {} more", theirs_k.more)
                        } else {
                            String::new()
                        };
                        out.push((
                            "unknown-keys".into(),
                            format!("agent-lsp {ours_k:?} | Claude Code {:?}{more}", theirs_k.keys),
                        ));
                    }
                }
                let fact = |name: &str, a: bool, b: bool, out: &mut Vec<(String, String)>| {
                    if a != b {
                        out.push((
                            name.to_string(),
                            format!("agent-lsp {} | Claude Code {}", yes(a), yes(b)),
                        ));
                    }
                };
                let plugin = ours.is_some_and(|f| f.plugin);
                let skip_reason = |f: &OurFile| match &f.status {
                    Status::Skipped(why) => Some(why.clone()),
                    _ => None,
                };
                let our_big = ours.and_then(skip_reason).is_some_and(|w| w == "over 1 MiB");
                fact("over-1-MiB", our_big, too_big.iter().any(|b| canon(b) == p), &mut out);
                if !our_big {
                    fact(
                        "parse-failure",
                        ours.is_some_and(|f| f.outcome == Outcome::Failed),
                        failures.iter().any(|b| canon(b) == p),
                        &mut out,
                    );
                    let our_skip = ours
                        .and_then(skip_reason)
                        .filter(|w| w != "frontmatter failed to parse" && !plugin);
                    let their_skip = skipped.iter().find(|(b, _)| canon(b) == p).map(|(_, w)| w.clone());
                    if our_skip.is_some() != their_skip.is_some() {
                        out.push((
                            "skipped".into(),
                            format!("agent-lsp {our_skip:?} | Claude Code {their_skip:?}"),
                        ));
                    }
                }
                tally.files += 1;
                if out.is_empty() {
                    tally.files_agreeing += 1;
                }
                file_problems.entry(p).or_default().extend(out);
            }
            for (p, out) in &file_problems {
                for (field, text) in out {
                    problems.push((format!("file {}", rel_of(p)), field.clone(), text.clone()));
                }
            }
        }

        // --- commands (and skills) agent-lsp reads for this start: its project's and its
        // ancestors', the closest first
        let mut our_cmds: BTreeMap<&str, &OurCommand> = BTreeMap::new();
        let mut visible: Vec<&(String, OurCommand)> =
            our_commands.iter().filter(|(_, c)| dir.starts_with(&c.owner)).collect();
        visible.sort_by_key(|(_, c)| usize::MAX - c.owner.components().count());
        for (n, c) in visible {
            our_cmds.entry(n.as_str()).or_insert(c);
        }
        // Matched by name, or by an alias (a skill whose `name` differs from its folder is
        // listed under the `name`, the folder an alias).
        let mut matched: BTreeSet<&str> = BTreeSet::new();
        let mut cmd_agree = 0;
        let mut n_cmds = 0;
        for (name, o) in &our_cmds {
            n_cmds += 1;
            let subject = format!("command {name}");
            let before = problems.len();
            let found = load
                .commands
                .iter()
                .find(|c| c.name == *name)
                .or_else(|| load.commands.iter().find(|c| c.aliases.iter().any(|a| a == name)));
            match found {
                Some(t) => {
                    matched.insert(t.name.as_str());
                    if t.name != *name {
                        problems.push((
                            subject.clone(),
                            "name".into(),
                            format!(
                                "agent-lsp `/{name}` | Claude Code `/{}` (aliases {:?})",
                                t.name, t.aliases
                            ),
                        ));
                    }
                    let theirs = strip_source(&t.description);
                    if o.description.as_deref().unwrap_or("") != theirs {
                        problems.push((
                            subject.clone(),
                            "description".into(),
                            format!("agent-lsp {:?} | Claude Code {theirs:?}", o.description),
                        ));
                    }
                    if o.argument_hint.as_deref().unwrap_or("") != t.argument_hint {
                        problems.push((
                            subject.clone(),
                            "argument-hint".into(),
                            format!("agent-lsp {:?} | Claude Code {:?}", o.argument_hint, t.argument_hint),
                        ));
                    }
                    if !o.loads {
                        problems.push((
                            subject.clone(),
                            "loads".into(),
                            "Claude Code lists it; agent-lsp says Claude Code does not load it".into(),
                        ));
                    }
                    if !o.skip_errors.is_empty() {
                        problems.push((
                            subject.clone(),
                            "error".into(),
                            format!(
                                "Claude Code lists it; agent-lsp reports that it is skipped: {}",
                                o.skip_errors.join("; ")
                            ),
                        ));
                    }
                }
                None => problems.push((
                    subject.clone(),
                    "exists".into(),
                    format!("agent-lsp reads it ({}), Claude Code does not list it", rel_of(&o.file)),
                )),
            }
            if problems.len() == before {
                cmd_agree += 1;
            }
        }
        // Plugin commands and skills (Claude Code lists them as `(plugin) description`) are
        // compared by tests/claude_plugins, which models their names and listing.
        let plugin_names: Vec<String> = visible_plugins
            .iter()
            .filter_map(|p| fs::read_to_string(p.join(".claude-plugin").join("plugin.json")).ok())
            .filter_map(|t| serde_json::from_str::<Value>(&t).ok())
            .filter_map(|v| v["name"].as_str().map(str::to_string))
            .collect();
        let from_plugin = |c: &&oracle::Cmd| {
            plugin_names
                .iter()
                .any(|n| c.name.starts_with(&format!("{n}:")) && c.description.starts_with(&format!("({n}) ")))
        };
        for t in load
            .commands
            .iter()
            .filter(|c| !matched.contains(c.name.as_str()))
            .filter(|c| !from_plugin(c))
        {
            n_cmds += 1;
            problems.push((
                format!("command {}", t.name),
                "exists".into(),
                format!(
                    "Claude Code lists it ({:?}, aliases {:?}), agent-lsp has no such command",
                    t.description, t.aliases
                ),
            ));
        }
        tally.commands += n_cmds;
        tally.commands_agreeing += cmd_agree;

        let mut open = 0;
        for (subject, field, text) in problems {
            let line = format!("{label}: {subject}: {field}: {text}");
            match allowed(&mut tally.used, &label, &subject, &field) {
                Some(why) => tally.allowed.push(format!("{line}\n      allowed: {why}")),
                None => {
                    open += 1;
                    tally.disagreements.push(line);
                }
            }
        }
        tally.starts += 1;
        if open == 0 {
            tally.starts_agreeing += 1;
        }
        let files = if i == 0 {
            let n = file_problems.len();
            let bad = file_problems.values().filter(|v| !v.is_empty()).count();
            format!("{}/{n}", n - bad)
        } else {
            "-".into()
        };
        tally.rows.push(format!(
            "{label:<58} {:>7} {:>7} {:>9} {:>7}",
            format!("{agree}/{}", names_len(&ours, &theirs)),
            files,
            format!("{cmd_agree}/{n_cmds}"),
            if open == 0 {
                "yes".to_string()
            } else {
                format!("{open} no")
            }
        ));
    }
}

fn names_len(ours: &BTreeMap<String, OurAgent>, theirs: &BTreeMap<String, &oracle::Agent>) -> usize {
    ours.keys().chain(theirs.keys()).collect::<BTreeSet<_>>().len()
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

// ---------------------------------------------------------------------------------------------
// Workspaces

struct Entry {
    kind: String,
    local_file: String,
    repo: String,
    path: String,
}

/// The corpus: `../shared/corpus` beside the repository (CI clones the repository with `shared/`
/// beside it; a worktree finds it the same way from the main checkout's parent).
fn corpus_dir() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let beside = here.join("../shared/corpus");
    if beside.join("MANIFEST.tsv").is_file() {
        return beside;
    }
    here.ancestors()
        .map(|a| a.join("shared/corpus"))
        .find(|c| c.join("MANIFEST.tsv").is_file())
        .unwrap_or(beside)
}

fn manifest() -> Vec<Entry> {
    let path = corpus_dir().join("MANIFEST.tsv");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Entry {
                kind: f[0].into(),
                local_file: f[1].into(),
                repo: f[2].into(),
                path: f[3].into(),
            }
        })
        .collect()
}

/// Whether a corpus file is Claude Code's: an agent, or a command or skill under `.claude/`.
fn is_claude(e: &Entry) -> bool {
    e.kind.starts_with('C') || (e.kind.starts_with('D') && e.path.starts_with(".claude/"))
}

/// The corpus, one workspace per repository with Claude Code files. Agents under
/// `.claude/agents/` stay there; a collection published elsewhere in its repository (meant to be
/// copied into `~/.claude/agents/`) is laid out there, at its path in the repository.
fn corpus_cases(tmp: &Path) -> Vec<Case> {
    let mut repos: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for e in manifest().into_iter().filter(is_claude) {
        repos.entry(e.repo.clone()).or_default().push(e);
    }
    let mut out = Vec::new();
    for (repo, files) in repos {
        let base = tmp.join("corpus").join(repo.replace('/', "__"));
        let root = base.join("repo");
        git_init(&root);
        let home = Home::new(&base);
        for e in &files {
            let bytes = fs::read(corpus_dir().join(&e.local_file)).unwrap();
            if e.path.starts_with(".claude/") {
                write(&root, &e.path, &bytes);
            } else {
                write(&home.user_agents(), &e.path, &bytes);
            }
        }
        out.push(Case::new(format!("corpus/{repo}"), root, home));
    }
    out
}

fn generated_cases(tmp: &Path) -> Vec<Case> {
    cases::cases()
        .into_iter()
        .map(|c| {
            let base = tmp.join("gen").join(c.name);
            let root = base.join("repo");
            git_init(&root);
            let home = Home::new(&base);
            for (path, bytes) in &c.files {
                write(&root, path, bytes);
            }
            for (path, bytes) in &c.home {
                write(&home.home, path, bytes);
            }
            Case::new(format!("gen/{}", c.name), root, home)
        })
        .collect()
}

/// Every workspace, laid out under `tmp`: `test-workspace/`, the corpus, the generated cases.
fn workspaces(tmp: &Path) -> Vec<Case> {
    let mut all = Vec::new();
    let tw_base = tmp.join("test-workspace");
    let tw = tw_base.join("repo");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace"), &tw);
    git_init(&tw);
    all.push(Case::new("test-workspace".into(), tw, Home::new(&tw_base)));
    all.extend(corpus_cases(tmp));
    all.extend(generated_cases(tmp));
    all
}

/// `CLAUDE_RUNTIME_ONLY=TEXT`: only the workspaces whose name contains it.
fn only() -> Option<String> {
    std::env::var("CLAUDE_RUNTIME_ONLY").ok()
}

/// Compare every workspace (but those `only` leaves out), with Claude Code's answers from
/// `judge`.
fn compare_all(all: &[Case], judge: &mut dyn FnMut(&Case, &Start) -> Answer) -> Tally {
    let only = only();
    let mut tally = Tally::default();
    for case in all {
        if only.as_ref().is_some_and(|o| !case.name.contains(o.as_str())) {
            continue;
        }
        compare_case(&mut tally, case, judge);
    }
    tally
}

/// Print the table and fail on any disagreement not allowed, and on an allow-list entry that
/// matched nothing (when every workspace was compared).
fn report(tally: &Tally, judge: &str) {
    eprintln!(
        "\n{:<58} {:>7} {:>7} {:>9} {:>7}",
        "workspace[:start directory]", "agents", "files", "commands", "ok"
    );
    for r in &tally.rows {
        eprintln!("{r}");
    }
    eprintln!(
        "\nstarts agreeing: {}/{}; agents agreeing on every field: {}/{}; agent files: {}/{}; commands: {}/{}",
        tally.starts_agreeing,
        tally.starts,
        tally.agents_agreeing,
        tally.agents,
        tally.files_agreeing,
        tally.files,
        tally.commands_agreeing,
        tally.commands
    );
    if !tally.allowed.is_empty() {
        eprintln!("\nallowed disagreements ({}):", tally.allowed.len());
        for a in &tally.allowed {
            eprintln!("  {a}");
        }
    }
    assert!(tally.agents > 0 && tally.files > 0, "nothing was compared");
    if only().is_none() {
        // An entry that no longer matches anything is stale: the list must not rot.
        let stale: Vec<String> = (0..ALLOWED.len())
            .filter(|i| !tally.used.contains(i))
            .map(|i| format!("{} {} {}", ALLOWED[i].0, ALLOWED[i].1, ALLOWED[i].2))
            .collect();
        assert!(
            stale.is_empty(),
            "allow-list entries that match nothing any more: {stale:?}"
        );
    }
    assert!(
        tally.disagreements.is_empty(),
        "{} disagreement(s) with {judge}:\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n")
    );
}

/// The recording of the agent starts.
const AGENTS: &str = "claude-agents";

/// How every recording of this harness is redone.
const REGENERATE: &str = "RECORD_VERDICTS=1 tests/claude_runtime/run.sh";

/// The judge, as the recordings' headers name it.
fn judge_name() -> String {
    format!("Claude Code {} (@anthropic-ai/claude-code, linux-x64)", oracle::VERSION)
}

/// Fail on the differences between what the judge answered and the committed recording (or
/// write it, with `RECORD_VERDICTS=1`). Skipped, with a word, when only some cases ran.
fn check_recording(rec: &Recording, partial: bool) {
    if partial {
        assert!(
            !verdict_support::recording(),
            "RECORD_VERDICTS with a filter (CLAUDE_RUNTIME_ONLY, CLAUDE_SETTINGS_EXTRA) would record part of {}",
            rec.name
        );
        eprintln!(
            "{}: some cases left out, the recording is neither compared nor written",
            rec.name
        );
        return;
    }
    let stale = rec.write_or_compare();
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
#[ignore = "needs Claude Code: tests/claude_runtime/run.sh installs it and sets CLAUDE_BIN"]
fn agent_lsp_agrees_with_claude_code() {
    let bin = PathBuf::from(
        std::env::var_os("CLAUDE_BIN")
            .expect("set CLAUDE_BIN to the Claude Code 2.1.332 executable (tests/claude_runtime/run.sh)"),
    );
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let builtin = builtins(&bin, &tmp);
    let all = workspaces(&tmp);
    let mut rec = Recording::new(AGENTS, &judge_name(), REGENERATE);
    let tally = compare_all(&all, &mut |case, start| {
        let debug = tmp.join(format!("debug-{}-{}.txt", case.name.replace('/', "_"), start.index));
        let load = oracle::load(&bin, &case.home, start.dir, start.plugins, &debug);
        let answer = Answer::from_load(&load, &builtin, start.index == 0);
        rec.push(start.label, &case.input, answer.to_json(&case.places(&tmp)));
        answer
    });
    // The recording first: a stale one is the news when agent-lsp also disagrees.
    check_recording(&rec, only().is_some());
    report(&tally, &judge_name());
}

/// The replay: Claude Code's answers from `tests/verdicts/claude-agents.jsonl`, agent-lsp run as
/// the live test runs it, on the same workspaces laid out again.
#[test]
fn agent_lsp_agrees_with_recorded_claude_code() {
    let mut replay = Replay::load(AGENTS);
    let tmp = tempfile::tempdir().unwrap();
    let tmp = canon(tmp.path());
    let all = workspaces(&tmp);
    let tally = compare_all(&all, &mut |case, start| {
        Answer::from_json(replay.expect(start.label, &case.input), &case.places(&tmp))
    });
    if only().is_none() {
        replay.finish();
    }
    report(&tally, &format!("the recorded {}", judge_name()));
}
