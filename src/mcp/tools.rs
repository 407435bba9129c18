//! The MCP tools: their schemas and what they answer. Each call reads the workspace from disk
//! again (an agent may have written a file since the last call) and answers with JSON, or with
//! the sentence that says what is wrong with the arguments.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::analysis::{Code, Dialect, RULES, suggest};
use crate::cli::{decide, explain, render};
use crate::workspace::dialects::{DialectAgents, ExplainedAgent};
use crate::workspace::policy_check::WhoMay;
use crate::workspace::{Options, Workspace};

/// What every call needs: the root the server was started in (canonical) and the options.
pub struct Context {
    pub root: PathBuf,
    pub options: Options,
}

/// One tool: its name, what it is for, and its parameters (name, JSON type, required,
/// description). In descriptions, `{dialects}` stands for every dialect's product ("opencode,
/// Claude Code, Zuno and GitHub Copilot") and `{dialect_names}` for their names as arguments
/// take them: both come from the one list of dialects, so that a new one is named everywhere.
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
}

/// A description with its placeholders filled in (see [`ToolSpec`]).
pub fn described(text: &str) -> String {
    text.replace("{dialects}", &Dialect::products())
        .replace("{dialect_names}", &Dialect::names_described())
}

impl ToolSpec {
    pub fn description(&self) -> String {
        described(self.description)
    }
}

pub struct Param {
    pub name: &'static str,
    /// `string` or `array` (of strings).
    pub ty: &'static str,
    pub required: bool,
    pub description: &'static str,
    /// The values a string may take, when they are few.
    pub one_of: &'static [&'static str],
    /// The values are the dialects' names ([`Dialect::ALL`]).
    pub dialects: bool,
}

const DIALECT: Param = Param {
    name: "dialect",
    ty: "string",
    required: false,
    description: "Only this dialect's agent: {dialect_names}. Without it, every dialect that has an agent of that name answers.",
    one_of: &[],
    dialects: true,
};

const AGENT: Param = Param {
    name: "agent",
    ty: "string",
    required: true,
    description: "The agent's name as its runtime registers it (opencode: the key or file name, e.g. `build` or `review`; Claude Code: its `name`).",
    one_of: &[],
    dialects: false,
};

const PERMISSION: Param = Param {
    name: "permission",
    ty: "string",
    required: true,
    description: "An opencode permission key (`bash`, `edit`, `read`, `webfetch`, `task`, `external_directory`, ...) or, for Claude Code agents, a tool name (`Bash`, `Edit`, `mcp__server__tool`), for GitHub Copilot agents a tool set (`execute`, `edit`, `read`, `search`, `web`, `agent`); keys map to Claude Code tools (`bash`→Bash, `edit`→Edit/Write/MultiEdit/NotebookEdit, `read`→Read, `webfetch`→WebFetch, `task`→Agent) and to Copilot's tool sets (`bash`→execute, `webfetch`→web, `task`→agent).",
    one_of: &[],
    dialects: false,
};

const INPUT: Param = Param {
    name: "input",
    ty: "string",
    required: true,
    description: "What the permission is asked for: the command for `bash` (`git push origin main`), the path for `edit`/`read`, the URL for `webfetch`, the subagent's name for `task`.",
    one_of: &[],
    dialects: false,
};

pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "check",
        description: "Check the agent definition files of {dialects} (agents, configs, commands, skills, settings, hooks, MCP files) and report the diagnostics: file, line/column range (1-based), severity, code, what the runtime does about it (`effect`: refuses-to-start, file-ignored, value-ignored, rule-never-applies, fails-when-used, works-but-risky; `not-applied` for a mistake in agent-lsp.toml), the message, and the fix as text edits (`safe` fixes keep behaviour). Call it after writing or editing an agent file.",
        params: &[Param {
            name: "paths",
            ty: "array",
            required: false,
            description: "Files or directories to check, relative to the workspace root (e.g. [\".opencode/agent/review.md\"]); default: the whole workspace.",
            one_of: &[],
            dialects: false,
        }],
    },
    ToolSpec {
        name: "explain",
        description: "Show an agent as its runtime builds it: `agents`, one entry per dialect that has an agent of that name ({dialects}, in that order), each the effective agent as JSON (merged layers, model, mode, resolved permission rules with where each is written, tools, problems) with its `card` as Markdown; what `agent-lsp explain NAME --format json` prints. Call it before editing an agent file.",
        params: &[AGENT, DIALECT],
    },
    ToolSpec {
        name: "decide",
        description: "Answer one permission question for one agent: `answers`, one per dialect that has an agent of that name (as `agent-lsp explain NAME --check PERMISSION INPUT --format json`), each with allow, ask or deny for PERMISSION on INPUT, the rule that decides (`decided_by`) and where it is written (`where`). opencode and Zuno: the last matching permission rule of the merged agent. Claude Code: the agent's tool grant (`tools`, `disallowedTools`, listed per tool under `tools`), then the project's rules in .claude/settings.json and settings.local.json, then the permission mode; a rule of a settings file Claude Code voids that would decide otherwise is under `unapplied`, with the line that voids it. GitHub Copilot: the agent's `tools` (a tool set it leaves out is denied; VS Code's own settings decide whether it asks).",
        params: &[AGENT, PERMISSION, INPUT, DIALECT],
    },
    ToolSpec {
        name: "who_may",
        description: "Every agent of the workspace (all dialects) with its decision for PERMISSION on INPUT, the deciding rule and where it is written, `allow` first, then `ask`, then `deny`: the answers of `agent-lsp explain --who`.",
        params: &[PERMISSION, INPUT],
    },
    ToolSpec {
        name: "rules",
        description: "The rules agent-lsp checks: with `code`, its full explanation (why it matters, a bad and a good example); without, the catalog (code, default severity, effect, summary).",
        params: &[Param {
            name: "code",
            ty: "string",
            required: false,
            description: "A rule code, e.g. `shadowed-rule` or `unknown-key`; leave it out for the catalog.",
            one_of: &[],
            dialects: false,
        }],
    },
];

/// The JSON schema of a tool's arguments.
pub fn input_schema(spec: &ToolSpec) -> Map<String, Value> {
    let mut props = Map::new();
    for p in spec.params {
        let mut schema = json!({"type": p.ty, "description": described(p.description)});
        if p.ty == "array" {
            schema["items"] = json!({"type": "string"});
        }
        if !p.one_of.is_empty() {
            schema["enum"] = json!(p.one_of);
        }
        if p.dialects {
            schema["enum"] = json!(Dialect::ALL.map(|d| d.as_str()));
        }
        props.insert(p.name.to_string(), schema);
    }
    let required: Vec<&str> = spec.params.iter().filter(|p| p.required).map(|p| p.name).collect();
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    schema.insert("additionalProperties".into(), json!(false));
    schema
}

/// Run tool `name` on `args`: the answer, or what is wrong (the text of a tool error).
pub fn call(ctx: &Context, name: &str, args: &Map<String, Value>) -> Result<Value, String> {
    let Some(spec) = TOOLS.iter().find(|t| t.name == name) else {
        return Err(format!(
            "no tool `{name}`.{} The tools: {}",
            suggest::did_you_mean(suggest::closest(name, TOOLS.iter().map(|t| t.name))),
            TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        ));
    };
    let a = Args::new(spec, args)?;
    match name {
        "check" => check(ctx, a.paths("paths")?),
        "explain" => explain_agent(ctx, &a.string("agent")?, a.dialect()?),
        "decide" => decide(
            ctx,
            &a.string("agent")?,
            &a.string("permission")?,
            &a.string("input")?,
            a.dialect()?,
        ),
        "who_may" => who_may(ctx, &a.string("permission")?, &a.string("input")?),
        _ => rules(a.optional_string("code")?.as_deref()),
    }
}

/// A tool's arguments, checked against its parameters.
struct Args<'a> {
    tool: &'static str,
    map: &'a Map<String, Value>,
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> Args<'a> {
    fn new(spec: &'static ToolSpec, map: &'a Map<String, Value>) -> Result<Args<'a>, String> {
        let names = || spec.params.iter().map(|p| p.name);
        for key in map.keys() {
            if !names().any(|n| n == key) {
                let takes: Vec<String> = names().map(|n| format!("`{n}`")).collect();
                return Err(format!(
                    "unknown argument `{key}` for `{}`.{} It takes: {}",
                    spec.name,
                    suggest::did_you_mean(suggest::closest(key, names())),
                    takes.join(", ")
                ));
            }
        }
        for p in spec.params.iter().filter(|p| p.required) {
            if !map.contains_key(p.name) {
                return Err(format!(
                    "missing required argument `{}` for `{}`: {}",
                    p.name, spec.name, p.description
                ));
            }
        }
        Ok(Args { tool: spec.name, map })
    }

    fn optional_string(&self, key: &str) -> Result<Option<String>, String> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(format!(
                "argument `{key}` of `{}` must be a string, not {}",
                self.tool,
                type_name(v)
            )),
        }
    }

    /// A required string, not empty.
    fn string(&self, key: &str) -> Result<String, String> {
        match self.optional_string(key)? {
            Some(s) if !s.trim().is_empty() => Ok(s),
            _ => Err(format!("argument `{key}` of `{}` is empty", self.tool)),
        }
    }

    fn dialect(&self) -> Result<Option<Dialect>, String> {
        let Some(s) = self.optional_string("dialect")? else {
            return Ok(None);
        };
        Dialect::parse(&s).map(Some).ok_or_else(|| {
            let names: Vec<String> = Dialect::ALL.iter().map(|d| format!("`{}`", d.as_str())).collect();
            format!("unknown dialect `{s}`: one of {}", names.join(", "))
        })
    }

    fn paths(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    v => Err(format!(
                        "`{key}[{i}]` of `{}` must be a string (a path), not {}",
                        self.tool,
                        type_name(v)
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            // One path given as a string: what was meant is clear.
            Some(Value::String(s)) => Ok(Some(vec![s.clone()])),
            Some(v) => Err(format!(
                "argument `{key}` of `{}` must be an array of paths, not {}",
                self.tool,
                type_name(v)
            )),
        }
    }
}

fn load(ctx: &Context, paths: &[PathBuf]) -> Result<Workspace, String> {
    Workspace::load(paths, &ctx.options).map_err(|e| format!("cannot read the workspace: {e}"))
}

/// `path` (relative to the root, or absolute) as a path inside the root; an error when it does
/// not exist or leads out of the root.
fn inside_root(ctx: &Context, path: &str) -> Result<PathBuf, String> {
    let joined = ctx.root.join(path);
    let canonical = std::fs::canonicalize(&joined).map_err(|e| {
        format!(
            "path `{path}` cannot be read ({e}); paths are relative to the workspace root {}",
            ctx.root.display()
        )
    })?;
    if !canonical.starts_with(&ctx.root) {
        return Err(format!(
            "path `{path}` is outside the workspace root {}; this server answers for files under it only",
            ctx.root.display()
        ));
    }
    Ok(canonical)
}

fn check(ctx: &Context, paths: Option<Vec<String>>) -> Result<Value, String> {
    let paths: Vec<PathBuf> = match paths {
        None => vec![ctx.root.clone()],
        Some(ps) if ps.is_empty() => vec![ctx.root.clone()],
        Some(ps) => ps.iter().map(|p| inside_root(ctx, p)).collect::<Result<_, _>>()?,
    };
    let mut ws = load(ctx, &paths)?;
    let mut diags = ws.take_diagnostics();
    diags.extend(ws.global_refusal());
    // `check --format json`, each diagnostic with its whole fix added.
    let mut report: Value =
        serde_json::from_str(&render::json(&ws, &diags, None)).map_err(|e| format!("internal error: {e}"))?;
    if let Some(list) = report["diagnostics"].as_array_mut() {
        for (v, (id, d)) in list.iter_mut().zip(&diags) {
            let Some(fix) = &d.fix else { continue };
            let file = &ws.files[*id];
            let edits: Vec<Value> = fix
                .edits
                .iter()
                .map(|e| json!({"range": render::range_json(file, e.span), "new_text": e.text}))
                .collect();
            v["fix"] = json!({"title": fix.title, "safe": fix.safe, "edits": edits});
        }
    }
    let c = render::counts(&diags);
    let files = ws.files_in_scope();
    let mut with_problems: Vec<usize> = diags.iter().map(|(id, _)| *id).collect();
    with_problems.sort_unstable();
    with_problems.dedup();
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let summary = if diags.is_empty() && files == 0 {
        format!(
            "no files found to check: nothing here that {} reads",
            crate::analysis::Dialect::products_or()
        )
    } else if diags.is_empty() {
        format!("{} checked, no problems", plural(files, "file"))
    } else {
        format!(
            "{}, {}, {} in {} ({files} checked)",
            plural(c.errors, "error"),
            plural(c.warnings, "warning"),
            plural(c.other, "info"),
            plural(with_problems.len(), "file"),
        )
    };
    report["summary"] = json!(summary);
    if !ws.errors.is_empty() {
        report["unreadable"] = ws
            .errors
            .iter()
            .map(|(p, why)| json!({"path": render::display_path(p), "error": why}))
            .collect();
    }
    Ok(hidden(&ws, report))
}

/// `v` with the workspace's secrets hidden (see `analysis::secret`): no tool answers with one.
fn hidden(ws: &Workspace, v: Value) -> Value {
    if ws.secrets().is_empty() {
        return v;
    }
    serde_json::from_str(&ws.hide_secrets(&v.to_string())).unwrap_or(v)
}

/// The dialects an agent of this name would be looked up in, for messages.
fn scope(dialect: Option<Dialect>) -> String {
    dialect
        .map(|d| format!(" among the {} agents", d.product()))
        .unwrap_or_default()
}

/// The agents called `name`, one per dialect that has one (in the dialects' list order), or
/// what is wrong: no such agent (with the near names and the agents there are), or defined but
/// not loaded.
fn find<'g>(
    ws: &Workspace,
    root: &Path,
    gathered: &'g [DialectAgents],
    name: &str,
    dialect: Option<Dialect>,
) -> Result<Vec<ExplainedAgent<'g>>, String> {
    let found: Vec<ExplainedAgent> = gathered.iter().filter_map(|g| g.find(name)).collect();
    if !found.is_empty() {
        return Ok(found);
    }
    let unloaded = explain::unloaded_definers(ws, name);
    if !unloaded.is_empty() {
        return Err(format!(
            "\"{name}\" is defined here, but does not load:\n  {}",
            unloaded.join("\n  ")
        ));
    }
    if let Some(d) = dialect {
        let elsewhere: Vec<&str> = Dialect::ALL
            .into_iter()
            .filter(|o| *o != d && DialectAgents::gather(ws, *o, root).find(name).is_some())
            .map(|o| o.as_str())
            .collect();
        if !elsewhere.is_empty() {
            return Err(format!(
                "\"{name}\" is no {} agent here; it is an agent of dialect `{}`: pass that `dialect`, or none",
                d.product(),
                elsewhere.join("` and `")
            ));
        }
    }
    let names = || gathered.iter().flat_map(DialectAgents::names);
    let near = explain::suggestions(name, names(), suggest::closest(name, names()));
    let existing: Vec<String> = gathered
        .iter()
        .filter(|g| !g.names().is_empty())
        .map(|g| format!("{}: {}", g.dialect.product(), g.names().join(", ")))
        .collect();
    Err(format!(
        "no agent \"{name}\" in this workspace{}.{near} The agents: {}",
        scope(dialect),
        if existing.is_empty() {
            "none".to_string()
        } else {
            existing.join("; ")
        }
    ))
}

fn explain_agent(ctx: &Context, name: &str, dialect: Option<Dialect>) -> Result<Value, String> {
    let ws = load(ctx, std::slice::from_ref(&ctx.root))?;
    let gathered = explain::gather(&ws, &ctx.root, dialect);
    let found = find(&ws, &ctx.root, &gathered, name, dialect)?;
    let v = json!({"agent": name, "agents": explain::explained_json(&ws, &ctx.root, &gathered, &found, true)});
    Ok(hidden(&ws, v))
}

fn decide(ctx: &Context, name: &str, permission: &str, input: &str, dialect: Option<Dialect>) -> Result<Value, String> {
    let ws = load(ctx, std::slice::from_ref(&ctx.root))?;
    let gathered = explain::gather(&ws, &ctx.root, dialect);
    let found = find(&ws, &ctx.root, &gathered, name, dialect)?;
    let answers = decide::answers(&ws, &ctx.root, &found, permission, input);
    // No dialect could answer: the question is wrong (as `explain --check` exits 2).
    if let Some(errors) = decide::all_failed(&answers) {
        return Err(errors);
    }
    Ok(hidden(
        &ws,
        json!({"agent": name, "permission": permission, "input": input, "answers": answers}),
    ))
}

/// The answers of `explain --who` (every agent of every dialect, strongest first) as JSON rows.
fn who_rows(ws: &Workspace, rows: &[WhoMay]) -> Vec<Value> {
    rows.iter()
        .map(|w| {
            let mut v = decide::row_json(ws, w);
            v["agent"] = json!(w.agent);
            v["dialect"] = json!(w.dialect.as_str());
            v
        })
        .collect()
}

fn who_may(ctx: &Context, permission: &str, input: &str) -> Result<Value, String> {
    decide::known_permission(permission)?;
    let ws = load(ctx, std::slice::from_ref(&ctx.root))?;
    let rows = ws.who_may(&ctx.root, permission, input);
    let count = |action: &str| rows.iter().filter(|w| w.action.as_str() == action).count();
    let summary = format!(
        "{permission} \"{input}\": {} allow, {} ask, {} deny",
        count("allow"),
        count("ask"),
        count("deny")
    );
    let v = json!({"permission": permission, "input": input, "summary": summary, "agents": who_rows(&ws, &rows)});
    Ok(hidden(&ws, v))
}

fn rules(code: Option<&str>) -> Result<Value, String> {
    let Some(name) = code else {
        let all: Vec<Value> = RULES
            .iter()
            .map(|r| json!({"code": r.name, "severity": r.severity.as_str(), "effect": r.effect.as_str(), "summary": r.summary}))
            .collect();
        return Ok(json!({"rules": all}));
    };
    let Some(code) = Code::from_name(name) else {
        // A near miss, else the one rule whose name starts with it (`shadowed`).
        let lower = name.to_ascii_lowercase();
        let mut starting = RULES.iter().map(|r| r.name).filter(|n| n.starts_with(&lower));
        let near = suggest::closest(name, RULES.iter().map(|r| r.name))
            .or_else(|| starting.next().filter(|_| starting.next().is_none()));
        return Err(format!(
            "no rule `{name}`.{} `rules` without `code` lists them all",
            suggest::did_you_mean(near)
        ));
    };
    let r = code.rule();
    let dialects: Vec<&str> = code.dialects().iter().map(|d| d.as_str()).collect();
    Ok(json!({
        "code": r.name,
        "severity": r.severity.as_str(),
        "effect": r.effect.as_str(),
        "dialects": dialects,
        "summary": r.summary,
        "explanation": crate::cli::rule_doc::rule_doc(code),
    }))
}

/// The workspace root as given (`.` by default), canonical; an error when it is no directory.
pub fn root(dir: &Path) -> Result<PathBuf, String> {
    match std::fs::canonicalize(dir) {
        Ok(p) if p.is_dir() => Ok(p),
        Ok(_) => Err(format!("--root {}: not a directory", dir.display())),
        Err(e) => Err(format!("--root {}: {e}", dir.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn schemas_say_what_is_required_and_allowed() {
        let decide = TOOLS.iter().find(|t| t.name == "decide").expect("decide");
        let schema = Value::Object(input_schema(decide));
        assert_eq!(schema["required"], json!(["agent", "permission", "input"]));
        assert_eq!(
            schema["properties"]["dialect"]["enum"],
            json!(Dialect::ALL.map(|d| d.as_str()))
        );
        let check = TOOLS.iter().find(|t| t.name == "check").expect("check");
        let schema = Value::Object(input_schema(check));
        assert_eq!(schema["properties"]["paths"]["items"], json!({"type": "string"}));
        assert!(schema.get("required").is_none());
    }

    #[test]
    fn arguments_are_checked_before_anything_is_read() {
        let ctx = Context {
            root: PathBuf::from("/nonexistent/agent-lsp-mcp-root"),
            options: Options::isolated(),
        };
        let err = |tool: &str, v: Value| call(&ctx, tool, &args(v)).expect_err("an error");
        assert_eq!(
            err("who_may", json!({"permission": ["bash"], "input": "ls"})),
            "argument `permission` of `who_may` must be a string, not an array"
        );
        assert_eq!(
            err("explain", json!({"agnet": "x"})),
            "unknown argument `agnet` for `explain`. Did you mean `agent`? It takes: `agent`, `dialect`"
        );
        assert_eq!(
            err("explain", json!({"agent": null})),
            "argument `agent` of `explain` is empty"
        );
        assert_eq!(
            err("chek", json!({})),
            "no tool `chek`. Did you mean `check`? The tools: check, explain, decide, who_may, rules"
        );
    }

    #[test]
    fn a_root_must_be_a_directory() {
        assert!(root(Path::new("/nonexistent/agent-lsp-mcp-root")).is_err());
        assert!(root(Path::new("Cargo.toml")).is_err_and(|e| e.ends_with("not a directory")));
    }
}
