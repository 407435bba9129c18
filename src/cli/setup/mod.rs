//! `agent-lsp setup <runtime> [--root DIR | --global] [--write] [--absolute] [--hook]`: the
//! configuration that makes a coding agent use agent-lsp as its language server and MCP server
//! (and, where the runtime has one, its hook), printed, or with `--write` merged into the config
//! files by text edits that keep everything else (see [`merge`]). What goes where is the
//! dialect's (`DialectSpec::setup`); this module finds the binary, reads and writes the files.
//!
//! A project's files are shared, so the entries name agent-lsp as it runs for everyone: the
//! project's own package when package.json pins it, else `agent-lsp` from PATH; this binary's
//! absolute path only with `--absolute` (see [`Launch::choose`]).

use std::path::{Path, PathBuf};

use crate::analysis::Dialect;
use crate::analysis::setup::merge::{Change, Place, Want};
use crate::analysis::setup::{Ask, Step, Syntax, sh_quote, shell_line};
use crate::workspace::{Options, Workspace};

/// How a file is written: atomically (the CLI's `write_atomically`, passed in by the caller, so
/// that this module does not import its parent).
pub type WriteFile = fn(&Path, &str) -> std::io::Result<()>;

/// What `setup` was asked.
pub struct Args {
    pub runtime: Dialect,
    /// The project directory.
    pub root: PathBuf,
    /// Merge the entries into the files, rather than print them.
    pub write: bool,
    /// Name this binary by its absolute path.
    pub absolute: bool,
    /// The user's own config files instead of the project's.
    pub global: bool,
    /// The runtime's hook too (Claude Code's `PostToolUse`).
    pub hook: bool,
}

/// The runtimes `setup` takes, for the command line: each dialect that can be set up, with what
/// it writes.
pub fn runtime_parser() -> impl clap::builder::TypedValueParser<Value = Dialect> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = Dialect::ALL
        .iter()
        .filter_map(|d| Some(PossibleValue::new(d.as_str()).help(d.spec().setup_help()?)));
    PossibleValuesParser::new(values).try_map(|s| Dialect::parse(&s).ok_or_else(|| format!("no runtime `{s}`")))
}

/// Run `setup`; returns the exit status (0 done, 2 refused or failed).
pub fn run(args: &Args, write_file: WriteFile) -> i32 {
    let result = Exe::find().and_then(|exe| {
        let launch = Launch::choose(&exe, args);
        let again = again(args);
        let env = |k: &str| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned());
        let home = home().ok();
        let exists = |p: &Path| p.exists();
        let clone_shown = exe.clone_shown();
        let ask = Ask {
            root: &args.root,
            global: args.global,
            write: args.write,
            hook: args.hook,
            argv: &launch.argv,
            again: &again,
            env: &env,
            home: home.as_deref(),
            exists: &exists,
            clone_shown: &clone_shown,
            clone: exe.clone.as_deref(),
            exe: &exe.path,
            on_path: on_path().map(|p| {
                let this = std::fs::canonicalize(&p).is_ok_and(|c| c.to_str() == Some(exe.path.as_str()));
                (p, this)
            }),
        };
        let steps = args.runtime.spec().setup(&ask)?;
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
        let write = args.write.then_some(write_file);
        let mut report = exe.header(&launch);
        let mut untouched = false;
        for step in &steps {
            match step {
                Step::Say(text) => report.push_str(text),
                Step::File(file) => {
                    let (text, left) = one_file(file, write)?;
                    report.push_str(&text);
                    untouched |= left;
                }
            }
        }
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

    /// `argv` with more arguments, as a shell command line.
    fn shell(&self, args: &[&str]) -> String {
        shell_line(&self.argv, args)
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

/// The entries as a fresh file holds them (the snippet to copy).
fn snippet(syntax: Syntax, wants: &[Want]) -> String {
    let mut text = syntax.empty().to_string();
    for w in wants {
        text = syntax.merge(&text, w).map(|(t, _)| t).unwrap_or(text);
    }
    text.trim_end().to_string()
}

/// Print or write one file's entries: the report on it, and whether it was left untouched
/// because its runtime reads none of it (see [`Target::broken`]).
fn one_file(file: &crate::analysis::setup::File, write: Option<WriteFile>) -> Result<(String, bool), String> {
    let target = Target {
        path: &file.path,
        syntax: file.syntax,
        shown: file.shown.clone(),
        initial: file.initial.clone(),
        analyse: file.analyse,
    };
    let wants = &file.wants;
    let mut out = String::new();
    if let Some(write_file) = write {
        // What the merge itself refuses (a file that does not parse at all, a value of another
        // type where the entries go) is an error; a file its runtime reads none of is left as
        // it is, and the others are written.
        target.merged(target.read()?.as_deref(), wants, true)?;
        if let Some(why) = target.broken()? {
            return Ok((why, true));
        }
        let (report, changed) = target.write(wants, write_file)?;
        out.push_str(&report);
        if changed {
            out.push_str(&file.after_change);
        }
    } else {
        out.push_str(&format!("Add to {} (merged with what is there):\n", target.shown));
        out.push_str(&snippet(file.syntax, wants));
        out.push_str(&format!("\n\n{}", target.plan(wants)));
        if let Some(why) = target.broken()? {
            out.push_str(&why);
        }
        out.push_str(&format!("Merge it (comments and formatting kept): {}\n", file.merge_it));
    }
    Ok((out, false))
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
    syntax: Syntax,
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
            let (t, change) = self
                .syntax
                .merge(&m.text, w)
                .map_err(|e| format!("{}:{e}", self.shown))?;
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
        let root = self
            .syntax
            .parse(&text)
            .map_err(|e| format!("the merged text does not parse ({e})"))?;
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

#[cfg(test)]
mod tests {
    use super::runtime_parser;
    use crate::analysis::Dialect;

    /// `setup` takes the runtimes whose dialect says what to write, by their `--dialect` names,
    /// and refuses the others.
    #[test]
    fn setup_takes_the_runtimes_that_can_be_set_up() {
        let cmd = clap::Command::new("setup").arg(clap::Arg::new("runtime").value_parser(runtime_parser()));
        let parse = |s: &str| {
            cmd.clone()
                .try_get_matches_from(["setup", s])
                .map(|m| *m.get_one::<Dialect>("runtime").expect("parsed"))
        };
        assert_eq!(parse("opencode").ok(), Some(Dialect::Opencode));
        assert_eq!(parse("claude").ok(), Some(Dialect::Claude));
        assert_eq!(parse("codex").ok(), Some(Dialect::Codex));
        assert_eq!(parse("gemini").ok(), Some(Dialect::Gemini));
        for other in ["zuno", "copilot", "cursor"] {
            let e = parse(other).expect_err(other).to_string();
            assert!(e.contains("[possible values: opencode, claude, codex, gemini]"), "{e}");
        }
        // The help says what each writes, in the dialect's words.
        let help = cmd.clone().render_long_help().to_string();
        assert!(
            help.contains("opencode: `lsp` and `mcp` entries in opencode.json(c)"),
            "{help}"
        );
        assert!(
            help.contains("claude:   The agent-lsp plugin, and an `.mcp.json` entry"),
            "{help}"
        );
        assert!(
            help.contains("codex:    An `[mcp_servers.agent-lsp]` table in .codex/config.toml"),
            "{help}"
        );
        assert!(
            help.contains("gemini:   An `mcpServers` entry in .gemini/settings.json"),
            "{help}"
        );
    }
}
