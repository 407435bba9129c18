//! `agent-lsp explain`: the merged effective agent, as opencode would build it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::analysis::provenance::Source;
use crate::analysis::{Code, Dialect, Effect, Encoding, Severity, suggest};
use crate::workspace::dialects::{self, DialectAgents, Listing};
use crate::workspace::{Options, Workspace};

pub struct Args {
    pub agent: Option<String>,
    pub root: PathBuf,
    pub json: bool,
    /// Cards as Markdown (as the editor shows them) instead of rendered for the terminal.
    pub markdown: bool,
    /// ANSI styles allowed (a terminal, no `NO_COLOR`).
    pub color: bool,
    pub options: Options,
    pub check: Option<(String, String)>,
    /// `--who PERMISSION INPUT`: every agent's decision for one input.
    pub who: Option<(String, String)>,
    /// Only this dialect's agents.
    pub dialect: Option<Dialect>,
    /// `--matrix` or `--graph` instead of the list or a card.
    pub view: Option<View>,
}

pub enum View {
    Matrix { json: bool },
    Graph(super::matrix::GraphFormat),
}

/// The terminal width for tables: `COLUMNS` when set, else 100.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w > 0)
        .unwrap_or(100)
}

pub use super::render::where_is;

/// " Did you mean `x`?": the near miss `closest`, and the nested agents whose last name is
/// `name` (`team/reviewer` for `reviewer`, on a `/` boundary).
pub fn suggestions<'a>(name: &str, names: impl Iterator<Item = &'a str>, closest: Option<&'a str>) -> String {
    let suffix = format!("/{name}");
    let mut nested: Vec<&str> = names.filter(|n| n.ends_with(&suffix)).collect();
    nested.sort_unstable();
    let mut all: Vec<&str> = closest.into_iter().collect();
    for n in nested {
        if !all.contains(&n) {
            all.push(n);
        }
    }
    if all.len() < 2 {
        return suggest::did_you_mean(all.first().copied());
    }
    let list: Vec<String> = all.iter().map(|n| format!("`{n}`")).collect();
    format!(" Did you mean {}?", list.join(" or "))
}

/// The first line of a description, cut to 60 characters.
fn first_line(d: Option<&str>) -> String {
    let line = d.unwrap_or("").lines().next().unwrap_or("").trim();
    let mut out: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// Rows in columns two spaces apart, as the opencode list is; no trailing spaces.
fn table<const N: usize>(header: [&str; N], rows: &[[String; N]]) -> String {
    use unicode_width::UnicodeWidthStr;
    let mut widths = header.map(|h| h.width());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    let mut out = String::new();
    let mut line = |cells: Vec<&str>| {
        let mut l = String::new();
        for (i, cell) in cells.iter().enumerate() {
            l.push_str(cell);
            if i + 1 < N {
                l.push_str(&" ".repeat(widths[i].saturating_sub(cell.width()) + 2));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(header.to_vec());
    for row in rows {
        line(row.iter().map(String::as_str).collect());
    }
    out
}

/// A finding that makes a runtime refuse the configuration or leave a file out, or a file
/// agent-lsp did not analyse: what `explain` says first, so that no output shows a broken
/// configuration as if it ran.
struct Problem {
    dialect: Dialect,
    file: usize,
    /// The runtime refuses the whole configuration (opencode, Zuno).
    refuses: bool,
    location: String,
    code: &'static str,
    message: String,
}

/// The problems of the files each runtime reads here (opencode's view, Zuno's view, the
/// Claude Code agent files of the project, the user and the plugins).
fn problems(ws: &Workspace, dialects: &[DialectAgents]) -> Vec<Problem> {
    let mut out = Vec::new();
    for d in dialects {
        let (dialect, refuses_configuration) = (d.dialect, d.refuses_configuration());
        for &id in &d.files {
            let f = &ws.files[id];
            if !f.live {
                continue;
            }
            for d in &f.analysis.diagnostics {
                let serious =
                    d.severity == Severity::Error && matches!(d.effect, Effect::RefusesToStart | Effect::FileIgnored);
                if !serious && d.code != Code::UncheckedFile {
                    continue;
                }
                out.push(Problem {
                    dialect,
                    file: id,
                    refuses: serious && d.effect == Effect::RefusesToStart && refuses_configuration,
                    location: where_is(ws, Source::File { file: id, span: d.span }),
                    code: d.code.rule().name,
                    message: d.message.clone(),
                });
            }
        }
    }
    out
}

fn problem_json(p: &Problem) -> Value {
    json!({"dialect": p.dialect.as_str(), "location": p.location, "code": p.code, "refuses_to_start": p.refuses, "message": p.message})
}

/// The lines that open every `explain` output when something is wrong, one per runtime and
/// kind: whether it refuses the configuration (with the first error), which files it leaves
/// out, which files agent-lsp did not read. Empty when all is well.
fn banner(ws: &Workspace, problems: &[Problem]) -> Vec<String> {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let files = |ps: &[&Problem]| {
        let mut ids: Vec<usize> = ps.iter().map(|p| p.file).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut names: Vec<String> = ids
            .iter()
            .take(5)
            .map(|&id| super::render::display_path(&ws.files[id].path))
            .collect();
        if ids.len() > 5 {
            names.push(format!("and {} more", ids.len() - 5));
        }
        (ids.len(), names.join(", "))
    };
    let mut out = Vec::new();
    // (only a runtime that refuses a whole configuration has refusing problems)
    for dialect in Dialect::ALL {
        let refusing: Vec<&Problem> = problems.iter().filter(|p| p.dialect == dialect && p.refuses).collect();
        if let Some(first) = refusing.first() {
            let n = refusing.len();
            out.push(format!(
                "{} refuses this configuration: {n} error{}, the first at {} [{}]; run `agent-lsp check`",
                dialect.product(),
                plural(n),
                first.location,
                first.code
            ));
        }
    }
    for dialect in Dialect::ALL {
        let left: Vec<&Problem> = problems
            .iter()
            .filter(|p| p.dialect == dialect && !p.refuses && p.code != "unchecked-file")
            .collect();
        if !left.is_empty() {
            let (n, names) = files(&left);
            out.push(format!(
                "{} leaves out {n} file{}: {names}",
                dialect.product(),
                plural(n)
            ));
        }
    }
    // By dialect, then where they are: the same list however the files were loaded.
    let mut unread: Vec<&Problem> = problems.iter().filter(|p| p.code == "unchecked-file").collect();
    unread.sort_by_key(|p| (Dialect::ALL.iter().position(|d| *d == p.dialect), p.location.as_str()));
    if !unread.is_empty() {
        let (n, names) = files(&unread);
        out.push(format!(
            "agent-lsp did not analyse {n} file{} (over 4 MiB, binary or unreadable): {names}",
            plural(n)
        ));
    }
    out
}

/// The problems that concern one agent: those in the files that define it.
fn problems_of<'a>(problems: &'a [Problem], dialect: Dialect, files: &[usize]) -> Vec<&'a Problem> {
    problems
        .iter()
        .filter(|p| p.dialect == dialect && files.contains(&p.file))
        .collect()
}

/// The files that would define agent `name` but do not load (the runtime skips them, or
/// agent-lsp did not analyse them), with the reason: what `explain NAME` says instead of "no
/// agent".
pub fn unloaded_definers(ws: &Workspace, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (id, f) in ws.files.iter().enumerate() {
        if !f.live {
            continue;
        }
        let Some(why) = dialects::would_define(ws, id, name) else {
            continue;
        };
        // The reason, else the file's own errors that leave it out.
        let errors: Vec<String> = f
            .analysis
            .diagnostics
            .iter()
            .filter(|d| {
                d.code == Code::UncheckedFile
                    || (d.severity == Severity::Error
                        && matches!(d.effect, Effect::FileIgnored | Effect::RefusesToStart))
            })
            .map(|d| {
                format!(
                    "{}: {} [{}]",
                    where_is(ws, Source::File { file: id, span: d.span }),
                    d.message,
                    d.code.rule().name
                )
            })
            .collect();
        let at = where_is(
            ws,
            Source::File {
                file: id,
                span: crate::analysis::Span::new(0, 0),
            },
        );
        match (why, errors.is_empty()) {
            (Some(why), true) => out.push(format!("{at}: {why}")),
            (Some(why), false) => out.push(format!("{at}: {why}:\n    {}", errors.join("\n    "))),
            (None, false) => out.push(format!("{at}:\n    {}", errors.join("\n    "))),
            (None, true) => {}
        }
    }
    out
}

/// What each runtime started in `root` reads and builds: `dialect`'s, else those of the
/// dialects the project file (`agent-lsp.toml`) reports on.
pub fn gather<'ws>(ws: &'ws Workspace, root: &Path, dialect: Option<Dialect>) -> Vec<DialectAgents<'ws>> {
    let root_canonical = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    // (a path inside the root, so that the root's own project file counts)
    let project = ws
        .project_file_for(&root_canonical.join("agent-lsp.toml"))
        .map(|(_, p)| p.clone());
    let wants = |d: Dialect| match dialect {
        Some(x) => x == d,
        None => project.as_ref().is_none_or(|p| p.reports(d)),
    };
    Dialect::ALL
        .into_iter()
        .filter(|d| wants(*d))
        .map(|d| DialectAgents::gather(ws, d, root))
        .collect()
}

/// Agent `a` as `explain AGENT --format json` prints it: its card as JSON and the problems of
/// the files that define it.
pub fn agent_json(ws: &Workspace, gathered: &[DialectAgents], a: &dialects::ExplainedAgent) -> Value {
    let problems = problems(ws, gathered);
    let mut v = a.json(&|s| where_is(ws, s));
    v["problems"] = Value::Array(
        problems_of(&problems, a.dialect, &a.problem_files())
            .into_iter()
            .map(problem_json)
            .collect(),
    );
    v
}

/// The agents of `found` (one per dialect) as `explain NAME --format json` prints them and the
/// MCP tool `explain` returns them: a list in the dialects' order, each with its problems and,
/// with `card`, its card as Markdown.
pub fn explained_json(
    ws: &Workspace,
    root: &Path,
    gathered: &[DialectAgents],
    found: &[dialects::ExplainedAgent],
    card: bool,
) -> Vec<Value> {
    let paths = ws.path_names(root);
    found
        .iter()
        .map(|a| {
            let mut v = agent_json(ws, gathered, a);
            v["dialect"] = json!(a.dialect.as_str());
            if card {
                v["card"] = json!(a.card(&|s| where_is(ws, s), &paths));
            }
            v
        })
        .collect()
}

/// Returns the exit status.
pub fn run(args: Args) -> i32 {
    let ws = match Workspace::load(std::slice::from_ref(&args.root), &args.options) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("agent-lsp: error: {e}");
            return 2;
        }
    };
    super::out::hide(&ws.secrets());
    let gathered = gather(&ws, &args.root, args.dialect);
    let all_dialects: Vec<Dialect> = gathered.iter().map(|g| g.dialect).collect();
    let wi = |s: Source| where_is(&ws, s);
    let problems = problems(&ws, &gathered);
    let refused = |d: Dialect| problems.iter().any(|p| p.dialect == d && p.refuses);
    // Exit 1 when a runtime whose agents are shown refuses the configuration: what is shown is
    // not what runs.
    let status = |dialects: &[Dialect]| i32::from(dialects.iter().any(|d| refused(*d)));
    // The banner goes first: on stdout for a human, as comments in Mermaid and DOT, on stderr
    // beside JSON (whose shape stays).
    // Only about the runtimes a question is about: `explain NAME` of a Claude Code agent says
    // nothing of opencode's configuration.
    let say_banner_of = |only: &[Dialect], prefix: Option<&str>| {
        let about: Vec<Problem> = problems
            .iter()
            .filter(|p| only.contains(&p.dialect))
            .map(|p| Problem {
                location: p.location.clone(),
                message: p.message.clone(),
                ..*p
            })
            .collect();
        let banner = banner(&ws, &about);
        if banner.is_empty() {
            return;
        }
        match prefix {
            Some(prefix) => {
                for line in &banner {
                    outln!("{prefix}{line}");
                }
                if prefix.is_empty() {
                    outln!();
                }
            }
            None => {
                for line in &banner {
                    eprintln!("agent-lsp: {line}");
                }
            }
        }
    };
    let say_banner = |prefix: Option<&str>| say_banner_of(&all_dialects, prefix);
    if let Some((permission, input)) = &args.who {
        say_banner(if args.json { None } else { Some("") });
        return match who(&ws, &args, permission, input) {
            Ok(()) => status(&all_dialects),
            Err(message) => {
                eprintln!("agent-lsp: error: {message}");
                2
            }
        };
    }
    if let Some(view) = &args.view {
        let out = match view {
            View::Matrix { json } => {
                say_banner(if *json { None } else { Some("") });
                let parts: Vec<_> = gathered.iter().filter_map(DialectAgents::matrix).collect();
                super::matrix::matrix(&parts, *json, terminal_width())
            }
            View::Graph(format) => {
                say_banner(match format {
                    super::matrix::GraphFormat::Mermaid => Some("%% "),
                    super::matrix::GraphFormat::Dot => Some("// "),
                    super::matrix::GraphFormat::Json => None,
                });
                let collapse = *format != super::matrix::GraphFormat::Json;
                let (nodes, edges): (Vec<_>, Vec<_>) = gathered.iter().map(|d| d.graph(collapse)).unzip();
                super::matrix::graph(&nodes.concat(), &edges.concat(), *format)
            }
        };
        out!("{out}");
        return status(&all_dialects);
    }
    let problems_of_agent = |a: &dialects::ExplainedAgent| problems_of(&problems, a.dialect, &a.problem_files());
    let problems_json = |ps: Vec<&Problem>| Value::Array(ps.into_iter().map(problem_json).collect());
    let Some(name) = &args.agent else {
        if args.json {
            say_banner(None);
            let mut list: Vec<Value> = Vec::new();
            for a in gathered.iter().flat_map(DialectAgents::agents) {
                let mut v = a.list_json(&wi);
                v["problems"] = problems_json(problems_of_agent(&a));
                list.push(v);
            }
            outln!("{}", serde_json::to_string_pretty(&list).unwrap_or_default());
        } else {
            say_banner(Some(""));
            let marked = |a: &dialects::ExplainedAgent| !problems_of_agent(a).is_empty();
            for d in crate::analysis::Dialect::list_order() {
                let Some(agents) = gathered.iter().find(|g| g.dialect == d) else {
                    continue;
                };
                match agents.listing(&wi, &marked) {
                    Listing::Text(text) => out!("{text}"),
                    Listing::Rows { detail, rows } => {
                        let rows: Vec<[String; 4]> = rows
                            .into_iter()
                            .map(|r| [r.name, r.detail, r.defined_in, first_line(r.description.as_deref())])
                            .collect();
                        if !rows.is_empty() {
                            outln!("\n{} agents:\n", d.product());
                            out!("{}", table(["name", detail, "defined in", "description"], &rows));
                        }
                    }
                }
            }
        }
        return status(&all_dialects);
    };
    let found: Vec<dialects::ExplainedAgent> = gathered.iter().filter_map(|g| g.find(name)).collect();
    if found.is_empty() {
        let names = || gathered.iter().flat_map(DialectAgents::names);
        let unloaded = unloaded_definers(&ws, name);
        if !unloaded.is_empty() {
            eprintln!(
                "agent-lsp: error: \"{name}\" is defined here, but does not load:\n  {}",
                unloaded.join("\n  ")
            );
            return 1;
        }
        let s = suggest::closest(name, names());
        eprintln!(
            "agent-lsp: error: no agent \"{name}\" in this project.{}",
            suggestions(name, names(), s)
        );
        // A name that names nothing is a usage error, as an unknown rule code is.
        return 2;
    }
    let dialects: Vec<Dialect> = found.iter().map(|a| a.dialect).collect();
    // A card is Markdown; on a terminal it is rendered, with `--format markdown` it is not.
    let show = |md: String| {
        if args.markdown {
            md
        } else {
            super::term::render(&md, args.color)
        }
    };
    let labelled = dialects.len() > 1;
    let paths = ws.path_names(&args.root);
    say_banner_of(
        &dialects,
        if args.json || args.check.is_some() {
            None
        } else {
            Some("")
        },
    );
    // A card's own problems, in full, right after the banner.
    if !args.json && args.check.is_none() {
        let own: Vec<&Problem> = found.iter().flat_map(problems_of_agent).collect();
        for p in &own {
            outln!("! {}: {} [{}]", p.location, p.message, p.code);
        }
        if !own.is_empty() {
            outln!();
        }
    }
    let status = status(&dialects);
    // Every dialect that has the agent answers, in the same order and shape as over MCP.
    if let Some((permission, input)) = &args.check {
        let answers = super::decide::answers(&ws, &args.root, &found, permission, input);
        if let Some(errors) = super::decide::all_failed(&answers) {
            eprintln!("agent-lsp: error: {errors}");
            return 2;
        }
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&answers).unwrap_or_default());
        } else {
            for (i, (v, a)) in answers.iter().zip(&found).enumerate() {
                if labelled {
                    outln!("{}{}:", if i > 0 { "\n" } else { "" }, a.dialect.product());
                }
                out!("{}", super::decide::text(v));
            }
        }
        return status;
    }
    if args.json {
        let list = explained_json(&ws, &args.root, &gathered, &found, false);
        outln!("{}", serde_json::to_string_pretty(&list).unwrap_or_default());
        return status;
    }
    let mut printed = false;
    for a in &found {
        if labelled {
            outln!("{}{}:\n", if printed { "\n" } else { "" }, a.dialect.product());
            printed = true;
        }
        out!("{}", show(a.card(&wi, &paths)));
    }
    status
}

/// `explain --who PERMISSION INPUT`: every agent of every dialect with its decision for the
/// input, the rule that decides it and where that rule is written.
fn who(ws: &Workspace, args: &Args, permission: &str, input: &str) -> Result<(), String> {
    super::decide::known_permission(permission)?;
    let root = std::fs::canonicalize(&args.root).unwrap_or_else(|_| args.root.clone());
    let rows: Vec<_> = ws
        .who_may(&root, permission, input)
        .into_iter()
        .filter(|w| args.dialect.is_none_or(|d| d == w.dialect))
        .collect();
    let place = |s: &Option<Source>| -> Option<(String, u32, u32)> {
        let Some(Source::File { file, span }) = s else {
            return None;
        };
        let f = &ws.files[*file];
        let p = f.index.line_col(&f.text, span.start as usize, Encoding::Utf32);
        Some((super::render::display_path(&f.path), p.line + 1, p.col + 1))
    };
    if args.json {
        let agents: Vec<Value> = rows
            .iter()
            .map(|w| {
                json!({
                    "name": w.agent,
                    "dialect": w.dialect.as_str(),
                    "tool": w.tool,
                    "decision": w.action.as_str(),
                    "decided_by": w.by,
                    "rule": place(&w.rule).map(|(path, line, column)| json!({"path": path, "line": line, "column": column})),
                    "unapplied": w.unapplied.as_ref().map(|u| super::decide::unapplied_json(ws, u, w.dialect)),
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&json!({"permission": permission, "input": input, "agents": agents}))
                .unwrap_or_default()
        );
        return Ok(());
    }
    let count = |a: &str| rows.iter().filter(|w| w.action.as_str() == a).count();
    outln!(
        "{permission} \"{input}\": {} allow, {} ask, {} deny\n",
        count("allow"),
        count("ask"),
        count("deny")
    );
    let table_rows: Vec<[String; 4]> = rows
        .iter()
        .map(|w| {
            let at = place(&w.rule).map_or("built-in".to_string(), |(p, l, c)| format!("{p}:{l}:{c}"));
            let by = match &w.unapplied {
                Some(u) => format!("{}; {} not applied (below)", w.by, u.action.as_str()),
                None => w.by.clone(),
            };
            [
                format!("{} ({})", w.agent, w.dialect.as_str()),
                w.action.as_str().to_string(),
                by,
                at,
            ]
        })
        .collect();
    out!("{}", table(["agent", "decision", "decided by", "where"], &table_rows));
    // What a voided settings file would decide, under the table.
    let unapplied: Vec<String> = rows
        .iter()
        .filter_map(|w| {
            let u = w.unapplied.as_ref()?;
            Some(format!(
                "\nnot applied, for {} ({}): {}",
                w.agent,
                w.dialect.as_str(),
                super::decide::unapplied_words(ws, u, w.dialect)
            ))
        })
        .collect();
    for line in unapplied {
        outln!("{line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::first_line;

    #[test]
    fn a_listed_description_is_its_first_line_cut_at_60_characters() {
        assert_eq!(first_line(None), "");
        assert_eq!(first_line(Some("  Reviews code\nThen more")), "Reviews code");
        // Characters, not bytes: sixty `é` are whole; one more is cut with `…`.
        let sixty = "é".repeat(60);
        assert_eq!(first_line(Some(&sixty)), sixty);
        assert_eq!(first_line(Some(&format!("{sixty}x"))), format!("{sixty}…"));
    }
}
