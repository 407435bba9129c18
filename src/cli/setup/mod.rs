//! `agent-lsp setup <opencode|claude> [--root DIR | --global] [--write] [--absolute] [--hook]`:
//! the configuration that makes a coding agent use agent-lsp as its language server and MCP
//! server (and, for Claude Code, its `PostToolUse` hook), printed, or with `--write` merged into
//! the config files by text edits that keep everything else (see [`merge`]).
//!
//! A project's files are shared, so the entries name agent-lsp as it runs for everyone: the
//! project's own package when package.json pins it, else `agent-lsp` from PATH; this binary's
//! absolute path only with `--absolute` (see [`Launch::choose`]).

mod merge;

use std::path::{Path, PathBuf};

use merge::{Change, J, Place, Want};
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

/// What `setup` was asked.
pub struct Args {
    pub runtime: Runtime,
    /// The project directory.
    pub root: PathBuf,
    /// Merge the entries into the files, rather than print them.
    pub write: bool,
    /// Name this binary by its absolute path.
    pub absolute: bool,
    /// The user's own config files instead of the project's.
    pub global: bool,
    /// Claude Code: the `PostToolUse` hook too.
    pub hook: bool,
}

/// Run `setup`; returns the exit status (0 done, 2 refused or failed).
pub fn run(args: &Args, write_file: WriteFile) -> i32 {
    let result = Exe::find().and_then(|exe| {
        if args.hook && matches!(args.runtime, Runtime::Opencode) {
            return Err(
                "--hook is for `setup claude`: opencode hands the language server's errors to the model in \
                 the same turn without one"
                    .to_string(),
            );
        }
        if !args.global && !args.root.is_dir() {
            return Err(format!(
                "--root {}: {}",
                args.root.display(),
                if args.root.exists() {
                    "not a directory"
                } else {
                    "no such directory"
                }
            ));
        }
        let launch = Launch::choose(&exe, args);
        let write = args.write.then_some(write_file);
        let (report, untouched) = match args.runtime {
            Runtime::Opencode => opencode(&exe, &launch, args, write),
            Runtime::Claude => claude(&exe, &launch, args, write),
        }?;
        Ok((report, launch.warning, untouched))
    });
    match result {
        Ok((report, warning, untouched)) => {
            out!("{report}");
            if let Some(w) = warning {
                eprintln!("agent-lsp: warning: {w}");
            }
            // A file left as it was (its runtime reads none of it): not set up yet.
            i32::from(untouched)
        }
        Err(e) => {
            eprintln!("agent-lsp: error: {e}");
            2
        }
    }
}

/// How the config files start agent-lsp.
struct Launch {
    /// The words before agent-lsp's own arguments (`agent-lsp`, `npx --no-install agent-lsp`, a
    /// path).
    argv: Vec<String>,
    /// How it was chosen, for the report.
    why: String,
    /// For stderr: the entries will not work for everyone, or not yet.
    warning: Option<String>,
    /// `argv` is this binary's path.
    absolute: bool,
}

impl Launch {
    /// A project's files are shared: the project's own package (`npx --no-install agent-lsp`,
    /// the same version for everyone, as the editors prefer it), else `agent-lsp` from PATH;
    /// this machine's path only with `--absolute`. The user's own files (`--global`): PATH first,
    /// else this binary's path.
    fn choose(exe: &Exe, args: &Args) -> Launch {
        let path_of_this = || vec![exe.path.clone()];
        if args.absolute {
            return Launch {
                argv: path_of_this(),
                why: "--absolute: a path of this machine".to_string(),
                warning: (!args.global).then(|| {
                    format!(
                        "the entries name agent-lsp by a path of this machine ({}): whoever else uses the \
                         project's files cannot start it. Without --absolute, setup writes `agent-lsp` (run \
                         from PATH) or, when package.json pins agent-lsp, the package manager's command",
                        exe.path
                    )
                }),
                absolute: true,
            };
        }
        if !args.global {
            if let Some((manager, argv)) = pinned(&args.root) {
                return Launch {
                    why: format!("package.json pins agent-lsp: the project's version, through {manager}"),
                    argv,
                    warning: None,
                    absolute: false,
                };
            }
        }
        match on_path() {
            Some(p) => Launch {
                argv: vec!["agent-lsp".to_string()],
                why: format!("on PATH: {}", p.display()),
                warning: None,
                absolute: false,
            },
            None if args.global => Launch {
                argv: path_of_this(),
                why: "this binary's path: `agent-lsp` is not on PATH".to_string(),
                warning: None,
                absolute: true,
            },
            None => Launch {
                argv: vec!["agent-lsp".to_string()],
                why: "not on PATH yet: see the warning".to_string(),
                warning: Some(format!(
                    "`agent-lsp` is not on PATH, so the entries do not start it yet. Install it for the \
                     project (`npm i -D agent-lsp`, then run this again: the entries then run the project's \
                     package) or for you (`cargo install --locked agent-lsp`, or link this binary: `ln -s {} \
                     ~/.local/bin/agent-lsp`); --absolute writes this binary's path instead",
                    sh_quote(&exe.path)
                )),
                absolute: false,
            },
        }
    }

    /// `argv` with more arguments, as a JSON array.
    fn command(&self, args: &[&str]) -> serde_json::Value {
        json!(
            self.argv
                .iter()
                .map(String::as_str)
                .chain(args.iter().copied())
                .collect::<Vec<_>>()
        )
    }

    /// `argv` with more arguments, as a shell command line.
    fn shell(&self, args: &[&str]) -> String {
        self.argv
            .iter()
            .map(|a| sh_quote(a))
            .chain(args.iter().map(|a| a.to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// When the project's package.json pins agent-lsp (`dependencies` or `devDependencies`): its
/// package manager and the command that runs the installed package without ever downloading
/// one. The manager is the one package.json's `packageManager` names, else the one whose
/// lockfile is in the project or above it (a workspace's lockfile is at its root), else npm.
fn pinned(root: &Path) -> Option<(&'static str, Vec<String>)> {
    let text = std::fs::read_to_string(root.join("package.json")).ok()?;
    let manifest: serde_json::Value = serde_json::from_str(&text).ok()?;
    let pins = ["dependencies", "devDependencies"]
        .iter()
        .any(|k| manifest.get(k).and_then(|d| d.get("agent-lsp")).is_some());
    if !pins {
        return None;
    }
    let declared = manifest.get("packageManager").and_then(|v| v.as_str()).map(|pm| {
        let (name, version) = pm.split_once('@').unwrap_or((pm, ""));
        match name {
            "pnpm" => Manager::Pnpm,
            "yarn" if version.starts_with("1.") => Manager::YarnClassic,
            "yarn" => Manager::Yarn,
            "bun" => Manager::Bun,
            _ => Manager::Npm,
        }
    });
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let from_lockfile = || {
        root.ancestors().find_map(|dir| {
            if dir.join("pnpm-lock.yaml").is_file() {
                Some(Manager::Pnpm)
            } else if let Ok(lock) = std::fs::read_to_string(dir.join("yarn.lock")) {
                // Yarn 2 and later write `__metadata:`; Yarn 1 `# yarn lockfile v1`.
                Some(if lock.contains("__metadata:") {
                    Manager::Yarn
                } else {
                    Manager::YarnClassic
                })
            } else if dir.join("bun.lock").is_file() || dir.join("bun.lockb").is_file() {
                Some(Manager::Bun)
            } else if dir.join("package-lock.json").is_file() || dir.join("npm-shrinkwrap.json").is_file() {
                Some(Manager::Npm)
            } else {
                None
            }
        })
    };
    let manager = declared.or_else(from_lockfile).unwrap_or(Manager::Npm);
    let words: &[&str] = match manager {
        // `--no-install`: the project's package or nothing, never a download of another version.
        Manager::Npm => &["npx", "--no-install", "agent-lsp"],
        // Runs only what is installed.
        Manager::Pnpm => &["pnpm", "exec", "agent-lsp"],
        // Yarn 1 prints `yarn run v1...` and the command on stdout unless silent, which would
        // break the LSP and MCP streams.
        Manager::YarnClassic => &["yarn", "--silent", "agent-lsp"],
        Manager::Yarn => &["yarn", "agent-lsp"],
        // `bun run` runs the installed binary and never installs (`bunx` would).
        Manager::Bun => &["bun", "run", "agent-lsp"],
    };
    let name = match manager {
        Manager::Npm => "npm",
        Manager::Pnpm => "pnpm",
        Manager::YarnClassic => "yarn 1",
        Manager::Yarn => "yarn",
        Manager::Bun => "bun",
    };
    Some((name, words.iter().map(|w| w.to_string()).collect()))
}

#[derive(Clone, Copy)]
enum Manager {
    Npm,
    Pnpm,
    YarnClassic,
    Yarn,
    Bun,
}

/// The `agent-lsp` that PATH finds, as a shell would: an executable file in an absolute PATH
/// directory. A `node_modules/.bin` directory does not count: npx and `npm run` put one on PATH
/// for the command they run (`npx agent-lsp setup ...`), and an agent started without them
/// would not find it there.
fn on_path() -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    let names: &[&str] = if cfg!(windows) {
        &["agent-lsp.exe", "agent-lsp.cmd", "agent-lsp"]
    } else {
        &["agent-lsp"]
    };
    std::env::split_paths(&paths)
        .filter(|d| d.is_absolute() && !d.ends_with(Path::new("node_modules").join(".bin")))
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// The user's home directory.
fn home() -> Result<PathBuf, String> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| "--global: HOME is not set".to_string())
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
        // `target/debug/agent-lsp`, `target/<triple>/release/agent-lsp`, or any profile's folder
        // in a target directory cargo marked with its `CACHEDIR.TAG` (`CARGO_TARGET_DIR`
        // elsewhere, a custom profile such as the `mutants` one).
        let target = exe.ancestors().skip(1).find(|a| {
            a.join("CACHEDIR.TAG").is_file()
                || a.file_name().is_some_and(|n| n == "target")
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

    fn header(&self, launch: &Launch) -> String {
        let mut s = format!(
            "agent-lsp binary: {}\ncommand in the config: {} ({})\n",
            self.path,
            launch.shell(&[]),
            launch.why
        );
        if self.in_target && launch.absolute {
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

fn opencode_wants(launch: &Launch) -> [Want<'static>; 2] {
    [
        Want {
            parent: "lsp",
            name: "agent-lsp",
            value: J::obj(vec![
                ("command", J::Val(launch.command(&["serve", "--for-agents"]))),
                ("extensions", J::Val(json!([".md", ".json", ".jsonc"]))),
            ]),
            place: Place::Member,
            true_is_object: true,
            false_refusal: Some(LSP_FALSE),
            note_if_added: Some(LSP_ADDED),
        },
        Want {
            parent: "mcp",
            name: "agent-lsp",
            value: J::obj(vec![
                ("type", J::Val(json!("local"))),
                ("command", J::Val(launch.command(&["mcp"]))),
                ("enabled", J::Val(json!(true))),
            ]),
            place: Place::Member,
            true_is_object: false,
            false_refusal: None,
            note_if_added: None,
        },
    ]
}

fn claude_want(launch: &Launch) -> Want<'static> {
    let (command, rest) = launch.argv.split_first().expect("a command");
    let args: Vec<&str> = rest.iter().map(String::as_str).chain(["mcp"]).collect();
    Want {
        parent: "mcpServers",
        name: "agent-lsp",
        value: J::obj(vec![("command", J::Val(json!(command))), ("args", J::Val(json!(args)))]),
        place: Place::Member,
        true_is_object: false,
        false_refusal: None,
        note_if_added: None,
    }
}

/// The tools whose results the hook checks: the files Claude Code writes (as the plugin's hook).
const HOOK_MATCHER: &str = "Write|Edit|MultiEdit";

/// The `PostToolUse` entry that runs `agent-lsp hook`, as the plugin declares it.
fn hook_want(launch: &Launch) -> Want<'static> {
    Want {
        parent: "hooks",
        name: "PostToolUse",
        value: J::obj(vec![
            ("matcher", J::Val(json!(HOOK_MATCHER))),
            (
                "hooks",
                J::Arr(vec![J::obj(vec![
                    ("type", J::Val(json!("command"))),
                    ("command", J::Val(json!(launch.shell(&["hook"])))),
                    ("timeout", J::Val(json!(30))),
                ])]),
            ),
        ]),
        place: Place::Append {
            ours: runs_agent_lsp_hook,
        },
        true_is_object: false,
        false_refusal: None,
        note_if_added: None,
    }
}

/// Whether a `PostToolUse` entry runs `agent-lsp hook` already (however agent-lsp is named: from
/// PATH, by a path, through npx), whatever its matcher: that one is left as the user set it.
fn runs_agent_lsp_hook(entry: &serde_json::Value) -> bool {
    let Some(hooks) = entry.get("hooks").and_then(|h| h.as_array()) else {
        return false;
    };
    hooks.iter().filter_map(|h| h.get("command")?.as_str()).any(|c| {
        c.trim()
            .strip_suffix("hook")
            .map(|rest| rest.trim_end().trim_end_matches(['\'', '"']))
            .is_some_and(|program| program.ends_with("agent-lsp") && program.len() < c.trim().len())
    })
}

/// A path under the root as the user would type it: relative to the root given.
fn shown(root: &Path, name: &str) -> String {
    if root == Path::new(".") {
        name.to_string()
    } else {
        root.join(name).display().to_string()
    }
}

/// The options given, for a command line to repeat (`--root DIR`, `--global`, ...).
fn again(args: &Args) -> String {
    let mut s = String::new();
    if args.root != Path::new(".") && !args.global {
        s.push_str(&format!(" --root {}", sh_quote(&args.root.display().to_string())));
    }
    for (on, flag) in [
        (args.global, " --global"),
        (args.absolute, " --absolute"),
        (args.hook, " --hook"),
    ] {
        if on {
            s.push_str(flag);
        }
    }
    s
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

/// Print or write one file's entries: the part of the report about it.
/// The report on one file, and whether it was left untouched because its runtime reads none of
/// it (see [`Target::broken`]).
fn one_file(
    file: &Target,
    wants: &[Want],
    write: Option<WriteFile>,
    after_change: &str,
    merge_it: &str,
) -> Result<(String, bool), String> {
    let mut out = String::new();
    if let Some(write_file) = write {
        // What the merge itself refuses (a file that does not parse at all, a value of another
        // type where the entries go) is an error; a file its runtime reads none of is left as
        // it is, and the others are written.
        file.merged(file.read()?.as_deref(), wants, true)?;
        if let Some(why) = file.broken()? {
            return Ok((why, true));
        }
        let (report, changed) = file.write(wants, write_file)?;
        out.push_str(&report);
        if changed {
            out.push_str(after_change);
        }
    } else {
        out.push_str(&format!("Add to {} (merged with what is there):\n", file.shown));
        out.push_str(&snippet(wants));
        out.push_str(&format!("\n\n{}", file.plan(wants)));
        if let Some(why) = file.broken()? {
            out.push_str(&why);
        }
        out.push_str(&format!("Merge it (comments and formatting kept): {merge_it}\n"));
    }
    Ok((out, false))
}

/// opencode.json or opencode.jsonc in `dir`: the jsonc when it exists (opencode reads both, and
/// the jsonc wins); a note when both do.
fn opencode_file(dir: &Path, shown_as: &dyn Fn(&str) -> String, out: &mut String) -> &'static str {
    match (dir.join("opencode.json").exists(), dir.join("opencode.jsonc").exists()) {
        (true, true) => {
            out.push_str(&format!(
                "note: both {} and {} exist; opencode reads both and opencode.jsonc wins, so the \
                 entries go there\n",
                shown_as("opencode.json"),
                shown_as("opencode.jsonc")
            ));
            "opencode.jsonc"
        }
        (false, true) => "opencode.jsonc",
        _ => "opencode.json",
    }
}

fn opencode(exe: &Exe, launch: &Launch, args: &Args, write: Option<WriteFile>) -> Result<(String, bool), String> {
    let mut out = exe.header(launch);
    let dir = if args.global {
        // Where opencode reads the user's config: `$XDG_CONFIG_HOME/opencode`, else
        // `~/.config/opencode`.
        std::env::var_os("XDG_CONFIG_HOME")
            .filter(|x| !x.is_empty())
            .map(|x| PathBuf::from(x).join("opencode"))
            .map_or_else(|| home().map(|h| h.join(".config").join("opencode")), Ok)?
    } else {
        args.root.clone()
    };
    let shown_as = |name: &str| {
        if args.global {
            dir.join(name).display().to_string()
        } else {
            shown(&args.root, name)
        }
    };
    let name = opencode_file(&dir, &shown_as, &mut out);
    let path = dir.join(name);
    let wants = opencode_wants(launch);
    let file = Target {
        path: &path,
        shown: shown_as(name),
        initial: format!("{{\n  \"$schema\": \"{SCHEMA}\"\n}}\n"),
        analyse: true,
    };
    let after = if args.global {
        "opencode starts them from its next session, in every project; `opencode debug config` shows the \
         merged `lsp` and `mcp`\n"
    } else {
        "opencode starts them from its next session in this project; `opencode debug config` shows the \
         merged `lsp` and `mcp`\n"
    };
    if write.is_none() {
        out.push('\n');
    }
    let (report, untouched) = one_file(
        &file,
        &wants,
        write,
        after,
        &format!("agent-lsp setup opencode --write{}", again(args)),
    )?;
    out.push_str(&report);
    Ok((out, untouched))
}

fn claude(exe: &Exe, launch: &Launch, args: &Args, write: Option<WriteFile>) -> Result<(String, bool), String> {
    if args.global && std::env::var_os("CLAUDE_CONFIG_DIR").is_some() {
        return Err(
            "--global: CLAUDE_CONFIG_DIR is set, which moves Claude Code's user configuration; add the MCP \
             server with `claude mcp add --scope user agent-lsp -- agent-lsp mcp` instead"
                .to_string(),
        );
    }
    let mut out = exe.header(launch);
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
    out.push_str(&plugin_on_path(exe));
    let (path, shown_mcp) = if args.global {
        let p = home()?.join(".claude.json");
        let s = p.display().to_string();
        (p, s)
    } else {
        (args.root.join(".mcp.json"), shown(&args.root, ".mcp.json"))
    };
    let want = claude_want(launch);
    let file = Target {
        path: &path,
        shown: shown_mcp,
        initial: "{}\n".to_string(),
        analyse: false,
    };
    let wants = std::slice::from_ref(&want);
    out.push_str("\nMCP server (the plugin declares it too: this is for a project without the plugin):\n");
    let after = if args.global {
        "Claude Code starts the MCP server `agent-lsp` in every project from its next session\n"
    } else {
        "Claude Code asks to approve the project's MCP server `agent-lsp` when it next starts here \
         (approved servers are listed in `enabledMcpjsonServers`)\n"
    };
    let (report, mut untouched) = one_file(
        &file,
        wants,
        write,
        after,
        &format!("agent-lsp setup claude --write{}", again(args)),
    )?;
    out.push_str(&report);
    if write.is_none() {
        out.push_str(&format!(
            "or, for you only:\n  claude mcp add{} agent-lsp -- {}\n",
            if args.global { " --scope user" } else { "" },
            launch.shell(&["mcp"])
        ));
    }
    let settings = if args.global {
        home()?.join(".claude").join("settings.json")
    } else {
        args.root.join(".claude").join("settings.json")
    };
    let shown_settings = if args.global {
        settings.display().to_string()
    } else {
        shown(&args.root, ".claude/settings.json")
    };
    if !args.hook {
        if write.is_none() {
            out.push_str(&format!(
                "\nHook (the plugin declares it too): a PostToolUse hook that hands the findings on a \
                 file Claude Code writes to the model in the same turn: agent-lsp setup claude --hook{}\n",
                again(&Args {
                    hook: false,
                    absolute: args.absolute,
                    global: args.global,
                    write: false,
                    root: args.root.clone(),
                    runtime: args.runtime,
                })
            ));
        }
        return Ok((out, untouched));
    }
    let want = hook_want(launch);
    let file = Target {
        path: &settings,
        shown: shown_settings,
        initial: "{}\n".to_string(),
        analyse: true,
    };
    out.push_str(&format!(
        "\nHook (the plugin declares it too: with the plugin, it would run twice): `{}` after each \
         {}, which hands the findings on the file written to the model in the same turn:\n",
        launch.shell(&["hook"]),
        HOOK_MATCHER.replace('|', ", ")
    ));
    let (report, hook_untouched) = one_file(
        &file,
        std::slice::from_ref(&want),
        write,
        "Claude Code runs it from its next session\n",
        &format!("agent-lsp setup claude --write{}", again(args)),
    )?;
    out.push_str(&report);
    untouched |= hook_untouched;
    Ok((out, untouched))
}

/// Whether `agent-lsp` is on PATH (the plugin runs it from there), and if not, how to put it.
fn plugin_on_path(exe: &Exe) -> String {
    match on_path() {
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
    if let Place::Append { .. } = want.place {
        return match change {
            Change::Unchanged => format!("`{p}.{n}` runs agent-lsp already"),
            _ => format!("{} an entry to `{p}.{n}`", verb("added", "adds")),
        };
    }
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
    /// Why the entries must not go into the file as it is: its runtime reads none of it (it
    /// does not parse as the runtime reads it, the runtime refuses it, or voids it), so what
    /// `--write` adds would have no effect. Each such finding, and what to do; `None` for a
    /// file that is fine or not there yet.
    fn broken(&self) -> Result<Option<String>, String> {
        if self.read()?.is_none() {
            return Ok(None);
        }
        let real = std::fs::canonicalize(self.path).unwrap_or_else(|_| self.path.to_path_buf());
        let Ok(ws) = Workspace::load(std::slice::from_ref(&real), &Options::isolated()) else {
            return Ok(None);
        };
        let diagnostics = ws.diagnostics();
        let refuses = diagnostics.iter().any(|(_, d)| {
            d.severity == crate::analysis::Severity::Error && d.effect == crate::analysis::Effect::RefusesToStart
        });
        let blocking: Vec<String> = diagnostics
            .into_iter()
            .filter(|(_, d)| {
                d.severity == crate::analysis::Severity::Error
                    && matches!(
                        d.effect,
                        crate::analysis::Effect::RefusesToStart | crate::analysis::Effect::FileIgnored
                    )
            })
            .map(|(id, d)| {
                let f = &ws.files[id];
                let at = f
                    .index
                    .line_col(&f.text, d.span.start as usize, crate::analysis::Encoding::Utf32);
                format!(
                    "  {}:{}:{}: {} [{}]\n",
                    self.shown,
                    at.line + 1,
                    at.col + 1,
                    d.message,
                    d.code.rule().name
                )
            })
            .collect();
        if blocking.is_empty() {
            return Ok(None);
        }
        let product = ws.files.first().map_or("the runtime", |f| f.kind.dialect().product());
        Ok(Some(format!(
            "left {} as it is: {product} {} as it stands, so entries added to it would do nothing. Fix {} first (`agent-lsp check {}` shows {}), then run this again:\n{}",
            self.shown,
            if refuses {
                "refuses this configuration"
            } else {
                "reads none of it"
            },
            if blocking.len() == 1 { "this" } else { "these" },
            self.shown,
            if blocking.len() == 1 { "it" } else { "them" },
            blocking.concat()
        )))
    }

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
        if original.is_none() {
            if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("{}: cannot create {}: {e}", self.shown, dir.display()))?;
            }
        }
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
            let holds = match (w.place, &got) {
                (Place::Member, _) => got.as_ref() == Some(&w.value.to_json()),
                (Place::Append { ours }, Some(serde_json::Value::Array(items))) => items.iter().any(ours),
                (Place::Append { .. }, _) => false,
            };
            if !holds {
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
