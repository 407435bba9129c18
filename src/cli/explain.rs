//! `agent-lsp explain`: the merged effective agent, as opencode would build it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::analysis::opencode::card;
use crate::analysis::opencode::effective::{self, EffectiveAgent, Rule};
use crate::analysis::opencode::project::Source;
use crate::analysis::{Dialect, Encoding, suggest};
use crate::analysis::{claude, zuno};
use crate::workspace::{Options, Workspace};

pub struct Args {
    pub agent: Option<String>,
    pub root: PathBuf,
    pub json: bool,
    pub options: Options,
    pub check: Option<(String, String)>,
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

fn where_is(ws: &Workspace, s: Source) -> String {
    match s {
        Source::BuiltIn => "built-in".into(),
        Source::File { file, span } => {
            let f = &ws.files[file];
            let p = f.index.line_col(&f.text, span.start as usize, Encoding::Utf32);
            format!("{}:{}:{}", super::render::display_path(&f.path), p.line + 1, p.col + 1)
        }
    }
}

fn rule_json(ws: &Workspace, r: &Rule) -> Value {
    json!({"permission": r.permission, "pattern": r.pattern, "action": r.action, "source": where_is(ws, r.source)})
}

fn agent_json(ws: &Workspace, a: &EffectiveAgent) -> Value {
    let v = |x: Option<Value>| x.unwrap_or(Value::Null);
    json!({
        "name": shown_name(a),
        "key": a.name,
        "mode": a.mode.value,
        "hidden": a.hidden.value,
        "native": a.native,
        "model": v(a.model.as_ref().map(|s| json!(s.value))),
        "variant": v(a.variant.as_ref().map(|s| json!(s.value))),
        "temperature": v(a.temperature.as_ref().map(|s| json!(s.value))),
        "top_p": v(a.top_p.as_ref().map(|s| json!(s.value))),
        "steps": v(a.steps.as_ref().map(|s| json!(s.value))),
        "color": v(a.color.as_ref().map(|s| json!(s.value))),
        "description": v(a.description.as_ref().map(|s| json!(s.value))),
        "prompt": card::prompt_text(&a.prompt.value),
        "options": a.options.iter().map(|(k, s)| (k.clone(), s.value.clone())).collect::<serde_json::Map<String, Value>>(),
        "permission": a.permission.iter().map(|r| rule_json(ws, r)).collect::<Vec<_>>(),
        "decisions": a.decisions().into_iter().map(|(k, act)| (k, json!(act))).collect::<serde_json::Map<String, Value>>(),
        "defined_in": a.definitions.iter().map(|s| where_is(ws, *s)).collect::<Vec<_>>(),
    })
}

/// The name opencode shows: the display name of a config entry, else the key.
fn shown_name(a: &EffectiveAgent) -> &str {
    a.display_name.as_ref().map_or(a.name.as_str(), |d| d.value.as_str())
}

/// " Did you mean `x`?": the near miss `closest`, and the nested agents whose last name is
/// `name` (`team/reviewer` for `reviewer`, on a `/` boundary).
fn suggestions<'a>(name: &str, names: impl Iterator<Item = &'a str>, closest: Option<&'a str>) -> String {
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

/// Returns the exit status.
pub fn run(args: Args) -> i32 {
    let ws = match Workspace::load(std::slice::from_ref(&args.root), &args.options) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("agent-lsp: error: {e}");
            return 2;
        }
    };
    let view = ws.view_for(Path::new(&args.root));
    // `--dialect`, else the dialects the project file (`agent-lsp.toml`) reports on.
    let root_canonical = std::fs::canonicalize(&args.root).unwrap_or_else(|_| args.root.clone());
    // (a path inside the root, so that the root's own project file counts)
    let project = ws
        .project_file_for(&root_canonical.join("agent-lsp.toml"))
        .map(|(_, p)| p.clone());
    let wants = |d: Dialect| match args.dialect {
        Some(x) => x == d,
        None => project.as_ref().is_none_or(|p| p.reports(d)),
    };
    let agents = if wants(Dialect::OpenCode) {
        effective::agents(&ws.view_files(&view), &ws.effective_env(&args.root))
    } else {
        Vec::new()
    };
    let wi = |s: Source| where_is(&ws, s);
    let root = std::fs::canonicalize(&args.root).unwrap_or_else(|_| args.root.clone());
    let claude_files = ws.claude_files();
    let claude_agents = if wants(Dialect::Claude) {
        claude::project::registry(&claude_files, &root)
    } else {
        Vec::new()
    };
    let claude_definers = |name: &str| -> Vec<claude::card::Definer> {
        claude::project::candidates(&claude_files, &root, name)
            .iter()
            .map(|f| claude::card::Definer {
                location: wi(Source::File {
                    file: f.file,
                    span: f.agent.name_span,
                }),
                source: f.kind.source.label(),
            })
            .collect()
    };
    let zuno_view = ws.zuno_view_for(&root);
    let zuno_agents = if wants(Dialect::Zuno) && !zuno_view.is_empty() {
        zuno::project::registry(&ws.zuno_view_files(&zuno_view))
    } else {
        Default::default()
    };
    if let Some(view) = &args.view {
        let claude: Vec<super::matrix::ClaudeAgent> =
            claude_agents.iter().map(|(n, f)| (n.as_str(), f.agent)).collect();
        let out = match view {
            View::Matrix { json } => super::matrix::matrix(&agents, &claude, *json, terminal_width()),
            View::Graph(format) => super::matrix::graph(&agents, &claude, *format),
        };
        print!("{out}");
        return 0;
    }
    let Some(name) = &args.agent else {
        if args.json {
            let mut list: Vec<Value> = agents
                .iter()
                .map(|a| json!({"dialect": "opencode", "name": shown_name(a), "key": a.name, "mode": a.mode.value, "hidden": a.hidden.value, "native": a.native, "defined_in": a.definitions.iter().map(|s| wi(*s)).collect::<Vec<_>>()}))
                .collect();
            for (n, _) in &claude_agents {
                let defs: Vec<String> = claude_definers(n).into_iter().map(|d| d.location).collect();
                list.push(json!({"dialect": "claude", "name": n, "key": n, "defined_in": defs}));
            }
            for a in zuno_agents.values().filter(|a| !a.flag("disable")) {
                let defs: Vec<String> = a.definitions.iter().map(|s| wi(*s)).collect();
                list.push(json!({"dialect": "zuno", "name": a.name, "key": a.name, "mode": a.mode(), "hidden": a.flag("hidden"), "native": a.builtin, "defined_in": defs}));
            }
            println!("{}", serde_json::to_string_pretty(&list).unwrap_or_default());
        } else {
            if wants(Dialect::OpenCode) {
                print!("{}", card::list(&agents, &wi));
            }
            if !zuno_agents.is_empty() {
                println!("\nZuno agents:\n");
                for a in zuno_agents.values().filter(|a| !a.flag("disable") && !a.flag("hidden")) {
                    let d: String = a.str("description").unwrap_or("").chars().take(80).collect();
                    let at = a.definitions.last().map(|s| wi(*s)).unwrap_or_default();
                    println!("- `{}` ({}, {at}): {d}", a.name, a.mode());
                }
            }
            if !claude_agents.is_empty() {
                println!("\nClaude Code agents:\n");
                for (n, f) in &claude_agents {
                    let d = f
                        .agent
                        .description
                        .as_deref()
                        .unwrap_or("")
                        .lines()
                        .next()
                        .unwrap_or("");
                    let d: String = d.chars().take(80).collect();
                    let at = claude_definers(n)
                        .into_iter()
                        .next()
                        .map(|d| d.location)
                        .unwrap_or_default();
                    println!("- `{n}` ({at}): {d}");
                }
            }
        }
        return 0;
    };
    let agent = agents
        .iter()
        .find(|a| &a.name == name)
        .or_else(|| agents.iter().find(|a| shown_name(a) == name));
    let claude_agent = claude_agents.iter().find(|(n, _)| n == name).map(|(_, f)| f);
    let zuno_agent = zuno_agents.get(name.as_str()).filter(|a| !a.flag("disable"));
    let mut dialects: Vec<Dialect> = Vec::new();
    if agent.is_some() {
        dialects.push(Dialect::OpenCode);
    }
    if claude_agent.is_some() {
        dialects.push(Dialect::Claude);
    }
    if zuno_agent.is_some() {
        dialects.push(Dialect::Zuno);
    }
    if dialects.is_empty() {
        let names = || {
            agents
                .iter()
                .map(|a| a.name.as_str())
                .chain(claude_agents.iter().map(|(n, _)| n.as_str()))
                .chain(zuno_agents.keys().map(String::as_str))
        };
        let s = suggest::closest(name, names());
        eprintln!(
            "agent-lsp: error: no agent \"{name}\" in this project.{}",
            suggestions(name, names(), s)
        );
        return 1;
    }
    if dialects.len() > 1 && (args.json || args.check.is_some()) {
        let products: Vec<&str> = dialects.iter().map(|d| d.product()).collect();
        let flags: Vec<String> = dialects.iter().map(|d| format!("--dialect {}", d.as_str())).collect();
        eprintln!(
            "agent-lsp: error: \"{name}\" is an agent of several dialects here ({}); add {}",
            products.join(", "),
            flags.join(" or ")
        );
        return 2;
    }
    if args.check.is_some() && agent.is_none() {
        eprintln!(
            "agent-lsp: error: --check answers opencode permission questions; \"{name}\" is a {} agent",
            dialects[0].product()
        );
        return 2;
    }
    let labelled = dialects.len() > 1;
    let mut printed = false;
    let mut header = |product: &str| {
        if labelled {
            println!("{}{product}:\n", if printed { "\n" } else { "" });
            printed = true;
        }
    };
    if let Some(a) = agent
        && labelled
    {
        header("opencode");
        print!("{}", card::card(a, &wi, &[]));
    }
    if let Some(c) = claude_agent {
        let defs = claude_definers(name);
        header("Claude Code");
        if args.json {
            let v = claude::card::json(c.agent, name, &defs);
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        } else {
            print!("{}", claude::card::card(c.agent, name, &defs));
        }
    }
    if let Some(z) = zuno_agent {
        header("Zuno");
        if args.json {
            let v = zuno::card::json(z, &wi);
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        } else {
            print!("{}", zuno::card::card(z, &wi));
        }
    }
    let Some(agent) = agent.filter(|_| !labelled) else {
        return 0;
    };
    match &args.check {
        Some((permission, input)) => {
            let (action, rule) = agent.evaluate(permission, input);
            if args.json {
                let out = json!({"permission": permission, "input": input, "action": action, "rule": rule.map(|r| rule_json(&ws, r))});
                println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            } else {
                match rule {
                    Some(r) => println!(
                        "{}: {permission} \"{input}\" → {action}\n  decided by `{}` \"{}\": {} ({})",
                        agent.name,
                        r.permission,
                        r.pattern,
                        r.action,
                        wi(r.source)
                    ),
                    None => println!(
                        "{}: {permission} \"{input}\" → ask\n  no rule matches (opencode asks)",
                        agent.name
                    ),
                }
            }
        }
        None => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&agent_json(&ws, agent)).unwrap_or_default()
                );
            } else {
                print!("{}", card::card(agent, &wi, &[]));
            }
        }
    }
    0
}
