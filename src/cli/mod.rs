//! The command line: `agent-lsp check`, `agent-lsp rules`.

#[macro_use]
mod out;

pub mod decide;
mod diff;
pub mod explain;
pub mod hook;
pub mod matrix;
pub mod render;
pub mod sarif;
pub mod setup;
pub mod term;

pub use out::write_stdout;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::analysis::{Code, RULES};
use crate::workspace::{Options, Workspace};

/// The help texts that name the runtimes, from the one list of dialects
/// ([`crate::analysis::Dialect::products`]).
fn about() -> String {
    format!(
        "Language server and checker for AI-agent definition files: the agents, configs, commands, skills, settings, hooks and MCP files of {}",
        crate::analysis::Dialect::products()
    )
}

fn check_about() -> String {
    format!(
        "Check the agent files of {} (agents, configs, commands, skills, settings, hooks, MCP files), and report problems",
        crate::analysis::Dialect::products()
    )
}

#[derive(Parser)]
#[command(name = "agent-lsp", version, about = about())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(about = check_about())]
    Check(CheckArgs),
    /// Show an agent as its runtime builds it (merged layers, resolved permissions, tools), or list them.
    Explain(ExplainArgs),
    /// Run the language server on stdin/stdout.
    Serve {
        /// Accepted for editors that pass it; stdio is the only transport.
        #[arg(long)]
        stdio: bool,
        /// The client is a coding agent (opencode, Claude Code): publish every finding that
        /// changes what the runtime does as an error (opencode shows the model only errors;
        /// Claude Code at most 10 a file, errors first), with its fix in the message. Same as
        /// the setting `agentLsp.forAgents`.
        #[arg(long)]
        for_agents: bool,
    },
    /// Serve MCP (Model Context Protocol) on stdin/stdout: read-only tools for coding agents.
    Mcp {
        /// The project directory the tools answer for.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Do not read the user's global opencode configuration.
        #[arg(long)]
        no_global: bool,
        /// Use this directory as the global config directory instead of ~/.config/opencode.
        #[arg(long, value_name = "DIR")]
        global_dir: Option<PathBuf>,
    },
    /// List the rules, or explain one in full.
    Rules {
        /// A rule code, e.g. `shadowed-rule`.
        code: Option<String>,
        /// Output format: `json` prints the catalog (or the one rule) as JSON; `markdown` the
        /// book's page of the rule (or the rules' index page).
        #[arg(long, value_enum, default_value_t = ExplainFormat::Human)]
        format: ExplainFormat,
    },
    /// Print the config that runs agent-lsp as language server and MCP server of opencode or Claude Code, or merge it into the project.
    Setup(SetupArgs),
    /// Claude Code hook (after Write/Edit): tell the model what in the written file changes what the runtime does
    Hook,
}

#[derive(clap::Args)]
struct SetupArgs {
    /// The runtime to set up.
    #[arg(value_parser = setup::runtime_parser())]
    runtime: crate::analysis::Dialect,
    /// The project directory.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Merge the entries into the config files (keeping their formatting and comments).
    #[arg(long)]
    write: bool,
    /// Name agent-lsp by this binary's absolute path: a path of this machine, wrong for a file
    /// others share. Without it, the entries run `agent-lsp` from PATH, or the project's own
    /// package when package.json pins agent-lsp (through npx, pnpm, yarn or bun).
    #[arg(long)]
    absolute: bool,
    /// The user's own config instead of the project's, for every project: opencode's
    /// `$XDG_CONFIG_HOME/opencode/opencode.json` (`~/.config/opencode/`); Claude Code's
    /// `~/.claude.json` (user MCP servers) and `~/.claude/settings.json` (the hook).
    #[arg(long, conflicts_with = "root")]
    global: bool,
    /// Claude Code: also the PostToolUse hook (`agent-lsp hook` after Write, Edit and
    /// MultiEdit) in `.claude/settings.json`, which hands the findings on a file Claude Code
    /// writes to the model in the same turn.
    #[arg(long)]
    hook: bool,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Workspace directories (everything under them is discovered) or single files.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Do not read the user's global opencode configuration.
    #[arg(long)]
    no_global: bool,
    /// Use this directory as the global config directory instead of ~/.config/opencode.
    #[arg(long, value_name = "DIR")]
    global_dir: Option<PathBuf>,
    /// Exit with status 1 on warnings too (same as `--fail-on warning`).
    #[arg(long)]
    deny_warnings: bool,
    /// What makes the exit status 1: `error` (the default), `effect` (also a warning about
    /// something that changes what the runtime does: every effect but `works-but-risky`; the
    /// pre-commit hooks and the GitHub Action use it) or `warning` (every warning). Infos and
    /// hints never do. Given twice, the last wins.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = FailOn::Error, overrides_with = "fail_on")]
    fail_on: FailOn,
    /// Apply the safe fixes on disk, then remove unused suppressions (files with nothing to fix
    /// are not touched), then report what remains.
    #[arg(long)]
    fix: bool,
    /// With `--fix` or `--diff`: the unsafe fixes too (did-you-mean replacements and other fixes
    /// that change what the runtime does; review them with `--diff` first).
    #[arg(long)]
    unsafe_fixes: bool,
    /// Print what `--fix` would change as a unified diff per file, and write nothing; exit with
    /// status 1 when there is something to change, 0 when not.
    #[arg(long, conflicts_with = "format")]
    diff: bool,
    /// Report only diagnostics with these runtime effects (comma-separated), e.g.
    /// `--effect refuses-to-start`.
    #[arg(long, value_delimiter = ',', value_name = "EFFECT", value_parser = parse_effect)]
    effect: Vec<crate::analysis::Effect>,
}

fn parse_effect(s: &str) -> Result<crate::analysis::Effect, String> {
    crate::analysis::Effect::parse(s).ok_or_else(|| {
        let all: Vec<&str> = crate::analysis::Effect::ALL.iter().map(|e| e.as_str()).collect();
        format!("unknown effect `{s}`; one of {}", all.join(", "))
    })
}

#[derive(clap::Args)]
struct ExplainArgs {
    /// The agent; without it, every agent is listed.
    agent: Option<String>,
    /// The project directory opencode would start in.
    #[arg(long, default_value = ".")]
    root: PathBuf,
    /// Output format: `human` (the default: rendered for the terminal), `markdown` (the card as
    /// the editor shows it) or `json`; for `--graph`, `mermaid` (the default), `dot` or `json`.
    #[arg(long, value_enum)]
    format: Option<ExplainFormat>,
    /// Do not read the user's global opencode configuration.
    #[arg(long)]
    no_global: bool,
    /// Use this directory as the global config directory instead of ~/.config/opencode.
    #[arg(long, value_name = "DIR")]
    global_dir: Option<PathBuf>,
    /// Answer one question: the action for PERMISSION on INPUT and the rule that decides it, for
    /// every dialect that has the agent (e.g. `--check bash "git push"`; Claude Code: a tool
    /// name or the opencode key that maps to it).
    #[arg(long, num_args = 2, value_names = ["PERMISSION", "INPUT"])]
    check: Option<Vec<String>>,
    /// Only this dialect's agents; without it, a name of several dialects answers for each (a
    /// list in JSON).
    #[arg(long, value_parser = dialect_value())]
    dialect: Option<crate::analysis::Dialect>,
    /// Every agent against every permission key: the action for an input only `*` matches, and
    /// how many pattern rules refine it (Claude Code agents: against the tools they name).
    #[arg(long, conflicts_with_all = ["agent", "check", "graph"])]
    matrix: bool,
    /// Who may: every agent of every dialect with its decision for PERMISSION on INPUT, the
    /// rule that decides it and where it is written (e.g. `--who bash "git push origin main"`).
    #[arg(long, num_args = 2, value_names = ["PERMISSION", "INPUT"], conflicts_with_all = ["agent", "check", "graph", "matrix"])]
    who: Option<Vec<String>>,
    /// Which agent may start which subagent (`task` permission, Claude Code `Agent(...)`).
    #[arg(long, conflicts_with_all = ["agent", "check"])]
    graph: bool,
}

/// `--dialect`: the name of one of the dialects ([`crate::analysis::Dialect::ALL`]).
fn dialect_value() -> impl clap::builder::TypedValueParser<Value = crate::analysis::Dialect> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(crate::analysis::Dialect::ALL.map(|d| d.as_str()))
        .try_map(|name| crate::analysis::Dialect::parse(&name).ok_or("no such dialect"))
}

#[derive(Clone, Copy, ValueEnum)]
enum ExplainFormat {
    Human,
    // A card as the editor shows it (Markdown), not rendered for the terminal.
    Markdown,
    Json,
    Mermaid,
    Dot,
}

/// `check --fail-on`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FailOn {
    Error,
    Effect,
    Warning,
}

impl FailOn {
    /// Whether `d` makes `check` exit with status 1.
    fn fails(self, d: &crate::analysis::Diagnostic) -> bool {
        use crate::analysis::{Effect, Severity};
        match d.severity {
            Severity::Error => true,
            Severity::Warning => match self {
                FailOn::Error => false,
                FailOn::Effect => d.effect != Effect::Works,
                FailOn::Warning => true,
            },
            Severity::Info | Severity::Hint => false,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
    Github,
    // SARIF 2.1.0, for GitHub code scanning and other SARIF consumers.
    Sarif,
}

/// `--version`: the package's version and the runtime releases the rules were checked against,
/// so that "agrees with the runtime" says which runtime.
fn version() -> String {
    let runtimes: Vec<String> = crate::analysis::Dialect::ALL
        .iter()
        .filter_map(|d| Some(format!("{} {}", d.product(), d.checked_against()?)))
        .collect();
    format!(
        "{} (checked against {})",
        env!("CARGO_PKG_VERSION"),
        runtimes.join(", ")
    )
}

/// Run the CLI; returns the process exit status (0 clean, 1 problems, 2 usage or I/O failure).
pub fn main() -> i32 {
    let command = <Cli as clap::CommandFactory>::command().version(&*Box::leak(version().into_boxed_str()));
    let cli = match command
        .try_get_matches()
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Check(args) => check(args),
        Command::Hook => hook::run(),
        Command::Serve { for_agents, .. } => crate::lsp::run(crate::lsp::settings::Settings {
            for_agents,
            ..Default::default()
        }),
        Command::Mcp {
            root,
            no_global,
            global_dir,
        } => match global_dir_exists(global_dir.as_deref()) {
            Err(code) => code,
            Ok(()) => crate::mcp::run(root, no_global, global_dir),
        },
        Command::Explain(a) => {
            if let Err(code) = global_dir_exists(a.global_dir.as_deref()) {
                return code;
            }
            if a.check.is_some() && a.agent.is_none() {
                eprintln!("agent-lsp: error: --check needs an AGENT");
                return 2;
            }
            let view = match (a.matrix, a.graph, a.format) {
                (true, _, Some(ExplainFormat::Markdown)) | (_, true, Some(ExplainFormat::Markdown)) => {
                    eprintln!("agent-lsp: error: --format markdown is for a card or the list, not --matrix or --graph");
                    return 2;
                }
                (false, false, Some(ExplainFormat::Mermaid | ExplainFormat::Dot)) => {
                    eprintln!("agent-lsp: error: --format mermaid and dot need --graph");
                    return 2;
                }
                (true, _, Some(ExplainFormat::Mermaid | ExplainFormat::Dot)) => {
                    eprintln!("agent-lsp: error: --matrix prints human or json");
                    return 2;
                }
                (_, true, Some(ExplainFormat::Human)) => {
                    eprintln!("agent-lsp: error: --graph prints mermaid, dot or json");
                    return 2;
                }
                (true, _, f) => Some(explain::View::Matrix {
                    json: matches!(f, Some(ExplainFormat::Json)),
                }),
                (_, true, f) => Some(explain::View::Graph(match f {
                    Some(ExplainFormat::Dot) => matrix::GraphFormat::Dot,
                    Some(ExplainFormat::Json) => matrix::GraphFormat::Json,
                    _ => matrix::GraphFormat::Mermaid,
                })),
                _ => None,
            };
            explain::run(explain::Args {
                agent: a.agent,
                root: a.root,
                json: matches!(a.format, Some(ExplainFormat::Json)),
                markdown: matches!(a.format, Some(ExplainFormat::Markdown)),
                color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
                view,
                options: Options::from_env(a.no_global, a.global_dir),
                check: a.check.and_then(|c| Some((c.first()?.clone(), c.get(1)?.clone()))),
                who: a.who.and_then(|c| Some((c.first()?.clone(), c.get(1)?.clone()))),
                dialect: a.dialect,
            })
        }
        Command::Setup(a) => setup::run(
            &setup::Args {
                runtime: a.runtime,
                root: a.root,
                write: a.write,
                absolute: a.absolute,
                global: a.global,
                hook: a.hook,
            },
            write_atomically,
        ),
        Command::Rules { code, format } => match format {
            ExplainFormat::Human | ExplainFormat::Json | ExplainFormat::Markdown => rules(code.as_deref(), format),
            _ => {
                eprintln!("agent-lsp: error: rules prints human, json or markdown");
                2
            }
        },
    }
}

fn check(args: CheckArgs) -> i32 {
    if let Err(code) = global_dir_exists(args.global_dir.as_deref()) {
        return code;
    }
    let options = Options::from_env(args.no_global, args.global_dir);
    let mut ws = match Workspace::load(&args.paths, &options) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("agent-lsp: error: {e}");
            return 2;
        }
    };
    out::hide(&ws.secrets());
    if args.diff {
        return diff(ws, args.unsafe_fixes);
    }
    let mut fixed = render::Fixed::new();
    if args.fix {
        match fix(&mut ws, &args.paths, &options, args.unsafe_fixes) {
            Ok((f, _)) => fixed = f,
            Err(code) => return code,
        }
    }
    let fixed_report: String = fixed
        .iter()
        .map(|(path, titles)| format!("fixed {path}: {}\n", titles.join("; ")))
        .collect();
    let mut diags = ws.take_diagnostics();
    diags.extend(ws.global_refusal());
    if !args.effect.is_empty() {
        diags.retain(|(_, d)| args.effect.contains(&d.effect));
    }
    let report = match args.format {
        Format::Human => {
            let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let mut report = render::human(&ws, &diags, color);
            if !args.unsafe_fixes {
                report.push_str(&unsafe_fixes_hint(&diags));
            }
            report
        }
        Format::Json => render::json(&ws, &diags, args.fix.then_some(&fixed)),
        Format::Github => render::github(&ws, &diags),
        Format::Sarif => sarif::sarif(&ws, &diags, &sarif_root(&args.paths)),
    };
    let report = if args.fix && matches!(args.format, Format::Human) {
        format!(
            "{fixed_report}{}{report}",
            if fixed_report.is_empty() { "" } else { "\n" }
        )
    } else {
        report
    };
    let report = out::masked(&report);
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(report.as_bytes())
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return 2;
    }
    let mut io_failed = false;
    for (path, why) in &ws.errors {
        eprintln!("agent-lsp: warning: {}: {why}", render::display_path(path));
        io_failed = true;
    }
    let fail_on = if args.deny_warnings {
        FailOn::Warning
    } else {
        args.fail_on
    };
    let status = if diags.iter().any(|(_, d)| fail_on.fails(d)) {
        1
    } else if io_failed && ws.files_in_scope() == 0 {
        2
    } else {
        0
    };
    // The process ends here: freeing every tree and finding one by one would only cost time
    // (a tenth of the run on a file of 200,000 findings).
    std::mem::forget(diags);
    std::mem::forget(ws);
    status
}

/// `--global-dir DIR` must name a directory: a typo would otherwise read no global
/// configuration without a word. Returns the exit status on failure.
fn global_dir_exists(dir: Option<&std::path::Path>) -> Result<(), i32> {
    match dir {
        Some(dir) if !dir.is_dir() => {
            eprintln!(
                "agent-lsp: error: --global-dir {}: {}",
                dir.display(),
                if dir.exists() {
                    "not a directory"
                } else {
                    "no such directory"
                }
            );
            Err(2)
        }
        _ => Ok(()),
    }
}

/// "N more fixes available with --unsafe-fixes" for the human summary: the unsafe fixes of the
/// findings reported (each once), or nothing.
fn unsafe_fixes_hint(diags: &[(usize, crate::analysis::Diagnostic)]) -> String {
    let mut unsafe_fixes: Vec<(usize, &crate::analysis::Fix)> = diags
        .iter()
        .filter_map(|(id, d)| Some((*id, d.fix.as_deref().filter(|f| !f.safe)?)))
        .collect();
    unsafe_fixes.dedup();
    match unsafe_fixes.len() {
        0 => String::new(),
        n => format!(
            "{n} more fix{} available with --unsafe-fixes (review: `--diff --unsafe-fixes`)\n",
            if n == 1 { "" } else { "es" }
        ),
    }
}

/// What the fixes change: per file, the text before and after.
type Changes = std::collections::BTreeMap<PathBuf, (String, String)>;

/// `check --diff`: what `check --fix` would change, as a unified diff per file on stdout, and
/// the fixes per file on stderr; nothing is written. Exit status 1 when there is a change.
fn diff(mut ws: Workspace, unsafe_fixes: bool) -> i32 {
    let (fixed, changes) = match fix_in(&mut ws, unsafe_fixes, &mut |_, _, _| Ok(())) {
        Ok(done) => done,
        Err(code) => return code,
    };
    let mut out = String::new();
    for (path, (before, after)) in &changes {
        out.push_str(&diff::unified(&render::display_path(path), before, after));
    }
    // The secrets of the files as they were (hidden since `check` read them): a fix writes none.
    let out = out::masked(&out);
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(out.as_bytes()).and_then(|_| stdout.flush()).is_err() {
        return 2;
    }
    for (path, titles) in &fixed {
        eprintln!("would fix {path}: {}", titles.join("; "));
    }
    if !unsafe_fixes {
        let mut diags = ws.diagnostics();
        diags.extend(ws.global_refusal());
        eprint!("{}", unsafe_fixes_hint(&diags));
    }
    for (path, why) in &ws.errors {
        eprintln!("agent-lsp: warning: {}: {why}", render::display_path(path));
    }
    i32::from(!changes.is_empty())
}

/// `check --fix`: apply the safe fixes (and the unsafe ones with `unsafe_fixes`) of every
/// reported file on disk, then read the workspace again. See [`fix_in`].
fn fix(
    ws: &mut Workspace,
    paths: &[PathBuf],
    options: &Options,
    unsafe_fixes: bool,
) -> Result<(render::Fixed, Changes), i32> {
    let mut written = false;
    let done = fix_in(ws, unsafe_fixes, &mut |ws, id, text| {
        let path = ws.files[id].path.clone();
        write_atomically(&path, text).map_err(|e| {
            eprintln!(
                "agent-lsp: error: {}: cannot write the fixes: {e}",
                render::display_path(&path)
            );
            2
        })?;
        written = true;
        Ok(())
    });
    if written {
        *ws = Workspace::load(paths, options).map_err(|e| {
            eprintln!("agent-lsp: error: {e}");
            2
        })?;
    }
    done
}

/// The fixes of every reported file, in rounds until nothing changes (a fix can reveal another,
/// in its file or in another: at most [`crate::analysis::FIX_ROUNDS`]). Each round applies
/// first each file's own fixes ([`crate::analysis::fix_all_including`], itself round after
/// round: fixes that overlap wait for the next), then those of the cross-file checks (a
/// handoff or a prompt naming an agent that another file defines), as the workspace reports
/// them. Then, with the workspace holding every file as fixed, the removal of unused
/// suppressions, which only the whole workspace can tell (a suppression of a cross-file code is
/// used or not depending on other files). `put(ws, id, text)` writes the new text of file `id`
/// to disk (`--fix`), or does nothing (`--diff`); either way the workspace then holds and
/// analyses the new text. Files with nothing to fix are not touched. Returns what was fixed
/// per file (in path order) and the texts before and after, or the exit status on a failure.
fn fix_in(
    ws: &mut Workspace,
    unsafe_fixes: bool,
    put: &mut dyn FnMut(&mut Workspace, usize, &str) -> Result<(), i32>,
) -> Result<(render::Fixed, Changes), i32> {
    let mut fixed = render::Fixed::new();
    let mut changes = Changes::new();
    let reported: Vec<usize> = ws.checked_files().collect();
    let mut replace = |ws: &mut Workspace, id: usize, text: String, titles: Vec<String>| -> Result<(), i32> {
        let path = ws.files[id].path.clone();
        let before = ws.files[id].text.clone();
        changes.entry(path.clone()).or_insert((before, String::new())).1 = text.clone();
        fixed.entry(render::display_path(&path)).or_default().extend(titles);
        put(ws, id, &text)?;
        // The text now in place, as read (`set_text` keeps it; a write is read back the same).
        ws.set_text(id, text);
        Ok(())
    };
    for _ in 0..crate::analysis::FIX_ROUNDS {
        let mut changed = false;
        for &id in &reported {
            let f = &ws.files[id];
            let (text, titles) = crate::analysis::fix_all_including(&f.kind, &f.text, unsafe_fixes);
            if titles.is_empty() || text == f.text {
                continue;
            }
            replace(ws, id, text, titles)?;
            changed = true;
        }
        // The fixes only the workspace knows: those of the cross-file checks.
        let mut by_file: std::collections::BTreeMap<usize, Vec<crate::analysis::Diagnostic>> =
            std::collections::BTreeMap::new();
        for (id, d) in ws.diagnostics() {
            if d.fix.is_some() && d.code != Code::UnusedSuppression && reported.contains(&id) {
                by_file.entry(id).or_default().push(d);
            }
        }
        for (id, ds) in by_file {
            if ws.files[id].analysis.diagnostics.iter().any(crate::analysis::is_broken) {
                continue;
            }
            let taken = crate::analysis::fix::fixes_to_apply(&ds, unsafe_fixes);
            let edits: Vec<crate::analysis::Edit> = taken.iter().flat_map(|f| f.edits.iter().cloned()).collect();
            let text = crate::analysis::diagnostic::apply(&ws.files[id].text, &edits);
            if taken.is_empty() || text == ws.files[id].text {
                continue;
            }
            let titles = taken.iter().map(|f| f.title.clone()).collect();
            replace(ws, id, text, titles)?;
            changed = true;
        }
        if !changed {
            break;
        }
    }
    // Unused suppressions, now that every file is as fixed.
    let diags = ws.diagnostics();
    let mut by_file: std::collections::BTreeMap<usize, Vec<&crate::analysis::Diagnostic>> =
        std::collections::BTreeMap::new();
    for (id, d) in &diags {
        if d.code == Code::UnusedSuppression {
            by_file.entry(*id).or_default().push(d);
        }
    }
    let mut second = Vec::new();
    for (id, ds) in by_file {
        // In a file that does not parse, what a suppression would suppress may not be read yet.
        if ws.files[id].analysis.diagnostics.iter().any(crate::analysis::is_broken) {
            continue;
        }
        let fixes = crate::analysis::safe_fixes(ds);
        if fixes.is_empty() {
            continue;
        }
        let f = &ws.files[id];
        let edits: Vec<crate::analysis::Edit> = fixes.iter().flat_map(|f| f.edits.iter().cloned()).collect();
        let text = crate::analysis::diagnostic::apply(&f.text, &edits);
        if text == f.text {
            continue;
        }
        second.push((id, text, fixes.iter().map(|f| f.title.clone()).collect::<Vec<_>>()));
    }
    for (id, text, titles) in second {
        replace(ws, id, text, titles)?;
    }
    Ok((fixed, changes))
}

/// Write through a temporary file in the same directory and rename it over the original, so
/// that a crash never leaves a half-written file; the original's permissions are kept.
fn write_atomically(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.agent-lsp-fix.{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The root that SARIF locations are relative to: the first directory among the paths, else
/// the current directory (absolute and canonical, as the workspace's file paths are).
fn sarif_root(paths: &[PathBuf]) -> PathBuf {
    let dir = paths
        .iter()
        .find(|p| p.is_dir())
        .cloned()
        .unwrap_or_else(|| PathBuf::from("."));
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

fn rules(code: Option<&str>, format: ExplainFormat) -> i32 {
    let json = matches!(format, ExplainFormat::Json);
    let mut out = String::new();
    match code {
        None if matches!(format, ExplainFormat::Markdown) => out = rule_doc::rules_index(),
        None if json => {
            let all: Vec<serde_json::Value> = RULES.iter().map(rule_json).collect();
            out = serde_json::to_string_pretty(&serde_json::json!({ "rules": all })).unwrap_or_default();
            out.push('\n');
        }
        None => {
            let dialects = |r: &crate::analysis::Rule| -> String {
                let ds: Vec<&str> = r.code.dialects().iter().map(|d| d.as_str()).collect();
                ds.join(",")
            };
            let name_w = RULES.iter().map(|r| r.name.len()).max().unwrap_or(0);
            let dialects_w = RULES.iter().map(|r| dialects(r).len()).max().unwrap_or(0);
            let severity_w = RULES
                .iter()
                .map(|r| rule_doc::severity_list(r.code).len())
                .max()
                .unwrap_or(0);
            for r in RULES {
                out.push_str(&format!(
                    "{:<name_w$}  {:<severity_w$}  {:<18}  {:<dialects_w$}  {}\n",
                    r.name,
                    rule_doc::severity_list(r.code),
                    r.effect.as_str(),
                    dialects(r),
                    r.summary
                ));
            }
        }
        Some(name) => {
            let Some(code) = Code::from_name(name) else {
                // A near miss, else the rule whose name starts with it (`shadowed`).
                let suggestion = crate::analysis::suggest::closest(name, RULES.iter().map(|r| r.name)).or_else(|| {
                    let lower = name.to_ascii_lowercase();
                    let mut starts = RULES
                        .iter()
                        .map(|r| r.name)
                        .filter(|n| !lower.is_empty() && n.starts_with(&lower));
                    match (starts.next(), starts.next()) {
                        (Some(one), None) => Some(one),
                        _ => None,
                    }
                });
                eprintln!(
                    "agent-lsp: error: no rule `{name}`.{}",
                    crate::analysis::suggest::did_you_mean(suggestion)
                );
                return 2;
            };
            if json {
                out = serde_json::to_string_pretty(&rule_json(code.rule())).unwrap_or_default();
                out.push('\n');
            } else if matches!(format, ExplainFormat::Markdown) {
                out = rule_doc::rule_page(code);
            } else {
                out.push_str(&rule_doc(code));
            }
        }
    }
    out!("{out}");
    0
}

/// One rule as `agent-lsp rules --format json` prints it (`book/src/rules-command.md` documents the fields).
fn rule_json(r: &crate::analysis::Rule) -> serde_json::Value {
    let dialects: Vec<&str> = r.code.dialects().iter().map(|d| d.as_str()).collect();
    let tags: Vec<String> = r.tags.iter().map(|t| format!("{t:?}").to_lowercase()).collect();
    serde_json::json!({
        "code": r.name,
        "severity": r.severity.as_str(),
        "severities": r
            .severities()
            .iter()
            .map(|(s, when)| match when {
                Some(when) => serde_json::json!({ "severity": s.as_str(), "when": when }),
                None => serde_json::json!({ "severity": s.as_str(), "default": true }),
            })
            .collect::<Vec<_>>(),
        "effect": r.effect.as_str(),
        "dialects": dialects,
        "tags": tags,
        "summary": r.summary,
        "explanation": r.explanation,
        "bad": r.bad,
        "good": r.good,
    })
}

// In its own file, so that `agent-lsp mcp` uses it without importing this one (which starts it).
pub mod rule_doc;
pub use rule_doc::rule_doc;
