//! One permission question answered for an agent of any dialect: what `explain NAME --check`
//! prints and what the MCP tool `decide` returns. Both front ends call [`answers`], so the same
//! question gets the same answer, in the same order (the dialects' list order) and shape.

use std::path::Path;

use serde_json::{Value, json};

use crate::analysis::claude;
use crate::analysis::opencode::effective::EffectiveAgent;
use crate::analysis::provenance::Source;
use crate::analysis::{Dialect, Span, suggest};
use crate::workspace::Workspace;
use crate::workspace::dialects::{self, ExplainedAgent};
use crate::workspace::policy_check::WhoMay;

/// Every agent of `found` (one per dialect) answering PERMISSION on INPUT: an answer, or
/// `{"error": ...}` saying why that dialect's agent has none. Each carries `agent`, `dialect`,
/// `permission` and `input`.
pub fn answers(ws: &Workspace, root: &Path, found: &[ExplainedAgent], permission: &str, input: &str) -> Vec<Value> {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let root = root.as_path();
    found
        .iter()
        .map(|a| {
            let mut v = decision(ws, root, a, permission, input).unwrap_or_else(|e| json!({"error": e}));
            v["agent"] = json!(a.name);
            v["dialect"] = json!(a.dialect.as_str());
            v["permission"] = json!(permission);
            v["input"] = json!(input);
            v
        })
        .collect()
}

/// When no agent could answer: what each said, one line per dialect (the dialect's product
/// name first when there are several).
pub fn all_failed(answers: &[Value]) -> Option<String> {
    let errors: Vec<(&str, &str)> = answers
        .iter()
        .map(|v| {
            let e = v.get("error").and_then(Value::as_str)?;
            Some((v["dialect"].as_str().unwrap_or_default(), e))
        })
        .collect::<Option<_>>()?;
    match errors.as_slice() {
        [] => None,
        [(_, e)] => Some((*e).to_string()),
        many => Some(
            many.iter()
                .map(|(d, e)| {
                    format!(
                        "{}: {e}",
                        crate::analysis::Dialect::parse(d).map_or(*d, |d| d.product())
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    }
}

/// One answer for the terminal: the action and the rule that decides it, with where it is
/// written; the notes of the JSON answer below it.
pub fn text(v: &Value) -> String {
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
    let (agent, permission, input) = (s("agent"), s("permission"), s("input"));
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return format!("{agent}: {permission} \"{input}\": no answer: {e}\n");
    }
    let mut out = format!("{agent}: {permission} \"{input}\" → {}\n", s("action"));
    let at = v
        .get("where")
        .and_then(Value::as_str)
        .map(|w| format!(" ({w})"))
        .unwrap_or_default();
    let by = s("decided_by");
    if by.starts_with("no ") {
        out.push_str(&format!("  {by}{at}\n"));
    } else {
        out.push_str(&format!("  decided by {by}{at}\n"));
    }
    for t in v.get("tools").and_then(Value::as_array).into_iter().flatten() {
        let granted = if t["granted"].as_bool() == Some(true) {
            "has"
        } else {
            "does not have"
        };
        out.push_str(&format!(
            "  tool: the agent {granted} `{}`: {}\n",
            t["tool"].as_str().unwrap_or_default(),
            t["decided_by"].as_str().unwrap_or_default()
        ));
    }
    if let Some(mode) = v.get("permission_mode").and_then(Value::as_str) {
        out.push_str(&format!("  permission mode: {mode}\n"));
    }
    if let Some(says) = v.pointer("/unapplied/says").and_then(Value::as_str) {
        out.push_str(&format!("  not applied: {says}\n"));
    }
    if let Some(note) = v.get("note").and_then(Value::as_str) {
        out.push_str(&format!("  note: {note}\n"));
    }
    out
}

/// Agent `a`'s answer to one permission question, or why it has none.
fn decision(ws: &Workspace, root: &Path, a: &ExplainedAgent, permission: &str, input: &str) -> Result<Value, String> {
    if let Some(agent) = a.effective() {
        // A Claude Code tool or Zuno permission names opencode's key (`Bash` is `bash`), as
        // `explain --who` and the team policies read it.
        let key = crate::analysis::opencode::policy::permission_for(permission);
        let mut v = check_json(ws, agent, &key, input);
        if key != permission {
            v["opencode_permission"] = json!(key);
        }
        let rule = v["rule"].clone();
        v["decided_by"] = json!(match rule.is_null() {
            true => "no rule matches: opencode asks".to_string(),
            false => format!(
                "`{}` \"{}\": {}",
                rule["permission"].as_str().unwrap_or(""),
                rule["pattern"].as_str().unwrap_or(""),
                rule["action"].as_str().unwrap_or(""),
            ),
        });
        v["where"] = rule.get("source").cloned().unwrap_or(Value::Null);
        if v.get("known_permission").is_some() {
            let near = v["did_you_mean"]
                .as_str()
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default();
            v["note"] = json!(format!(
                "`{permission}` is no permission opencode knows and no rule of this agent names it{near}; only a custom or MCP tool of that name would be decided so"
            ));
        }
        return Ok(v);
    }
    let rows = ws.who_may(root, permission, input);
    let row = rows.iter().find(|w| w.agent == a.name && w.dialect == a.dialect);
    if let Some(c) = a.claude() {
        return claude_decision(ws, c, permission, input, row);
    }
    known_permission(permission)?;
    let Some(row) = row else {
        return Err(format!(
            "\"{}\" is a {} agent agent-lsp has no permission rules for",
            a.name,
            a.dialect.product()
        ));
    };
    Ok(row_json(ws, row))
}

/// One decision of [`Workspace::who_may`]: the action, the tool, the deciding rule and where it
/// is written.
pub fn row_json(ws: &Workspace, w: &WhoMay) -> Value {
    let mut v = json!({
        "action": w.action.as_str(),
        "tool": w.tool,
        "decided_by": w.by,
        "where": w.rule.map(|s| super::render::where_is(ws, s)),
    });
    if let Some(u) = &w.unapplied {
        v["unapplied"] = unapplied_json(ws, u, w.dialect);
    }
    v
}

/// A rule the runtime does not apply that would decide otherwise: the rule, where it is
/// written, what it would decide, and the place and words of what stops it.
pub fn unapplied_json(ws: &Workspace, u: &crate::analysis::policy::judge::Unapplies, dialect: Dialect) -> Value {
    let wi = |s| super::render::where_is(ws, s);
    json!({
        "action": u.action.as_str(),
        "rule": u.label,
        "where": wi(u.rule),
        "not_applied_because": u.why,
        "cause": wi(u.cause),
        "says": unapplied_words(ws, u, dialect),
    })
}

/// The sentence: "`Bash(curl:*)` in `permissions.deny` (x:16:7) would decide deny, but Claude
/// Code applies nothing of that file because of x:18:20 (why)".
pub fn unapplied_words(ws: &Workspace, u: &crate::analysis::policy::judge::Unapplies, dialect: Dialect) -> String {
    let wi = |s| super::render::where_is(ws, s);
    format!(
        "{} ({}) would decide {}, but {} applies nothing of that file because of {} ({})",
        u.label,
        wi(u.rule),
        u.action.as_str(),
        dialect.product(),
        wi(u.cause),
        u.why
    )
}

/// Whether Claude Code agent `agent` (in file `file`) gets `tool`, and the sentence that says
/// where that is decided. For `Agent`, `input` is the agent type to start.
fn claude_grant(ws: &Workspace, agent: &claude::Agent, file: usize, tool: &str, input: &str) -> Value {
    use claude::tools::List;
    let at = |span: Span| super::render::where_is(ws, Source::File { file, span });
    let granted = claude::card::tool_allowed(agent, tool);
    // Which single entry decides: probe the agent with that entry alone.
    let deciding = |list: &Option<List>, grants: bool| -> Option<String> {
        let items = list.as_ref()?.items();
        items.iter().rev().find_map(|item| {
            let mut probe = agent.clone();
            let alone = Some(List::Items(vec![item.clone()]));
            if grants {
                (probe.tools, probe.disallowed) = (alone, None);
            } else {
                (probe.tools, probe.disallowed) = (None, alone);
            }
            (claude::card::tool_allowed(&probe, tool) == grants).then(|| format!("`{}` ({})", item.text, at(item.span)))
        })
    };
    let (mut granted, mut why) = match (&agent.tools, granted) {
        (_, false) if deciding(&agent.disallowed, false).is_some() => (
            false,
            format!(
                "removed by `disallowedTools` entry {}",
                deciding(&agent.disallowed, false).unwrap_or_default()
            ),
        ),
        (None | Some(List::All(_)), true) => (
            true,
            format!(
                "no `tools` restriction: every tool of the conversation that starts it ({})",
                at(agent.name_span)
            ),
        ),
        (Some(List::Items(_)), true) => (
            true,
            format!(
                "listed in `tools`: {}",
                deciding(&agent.tools, true).unwrap_or_default()
            ),
        ),
        (Some(List::Empty(span)), _) => (false, format!("an empty `tools` gives no tool ({})", at(*span))),
        (Some(List::Items(items)), _) => (
            false,
            format!(
                "not in `tools` ({})",
                items.first().map(|i| at(i.span)).unwrap_or_else(|| at(agent.name_span))
            ),
        ),
        (_, false) => (false, format!("not granted ({})", at(agent.name_span))),
    };
    if tool == "Agent" && granted {
        if let claude::card::Starts::Only(types) = claude::card::starts(agent) {
            if !types.iter().any(|t| t == input) {
                granted = false;
                why = format!("{why}; its `Agent(...)` entry names only {}", types.join(", "));
            }
        }
    }
    json!({"tool": tool, "granted": granted, "decided_by": why})
}

/// A Claude Code agent's answer: its tool grant for the tools of `permission`, with the
/// decision `explain --who` gives (the grant, the project's settings rules, the mode).
fn claude_decision(
    ws: &Workspace,
    (agent, file): (&claude::Agent, usize),
    permission: &str,
    input: &str,
    row: Option<&WhoMay>,
) -> Result<Value, String> {
    let Some(tools) = claude::policy::tools_for(permission) else {
        let near = suggest::closest(
            permission,
            [
                "bash",
                "edit",
                "read",
                "glob",
                "grep",
                "webfetch",
                "websearch",
                "task",
                "todowrite",
            ]
            .into_iter()
            .chain(claude::schema::TOOLS.iter().copied()),
        );
        return Err(format!(
            "`{permission}` names no Claude Code tool: give an opencode permission key that maps to one (bash, edit, read, glob, grep, webfetch, websearch, task, todowrite) or a Claude Code tool name (Bash, Read, mcp__server__tool, ...).{}",
            suggest::did_you_mean(near)
        ));
    };
    let Some(row) = row else {
        return Err(format!(
            "Claude Code does not load the agent of {}, so it is never asked for a permission; `explain` says why",
            super::render::where_is(
                ws,
                Source::File {
                    file,
                    span: agent.name_span
                }
            )
        ));
    };
    let grants: Vec<Value> = tools.iter().map(|t| claude_grant(ws, agent, file, t, input)).collect();
    let mode = agent.setting("permissionMode").map(|s| s.value.clone());
    let mut v = row_json(ws, row);
    v["tools"] = json!(grants);
    v["permission_mode"] = json!(mode);
    v["how_decided"] = json!(
        "Claude Code decides from the agent's tool grant (`tools`, `disallowedTools`: `tools` says which tool the agent has and where that is written), then the project's permission rules in .claude/settings.json and .claude/settings.local.json (deny first, then ask, then allow), then the permission mode; a specifier such as `Bash(git *)` in `tools` grants all of the tool"
    );
    Ok(v)
}

/// `explain NAME --check PERMISSION INPUT --format json`: the action, the deciding rule and
/// where it is written, and whether opencode knows the permission.
pub fn check_json(ws: &Workspace, agent: &EffectiveAgent, permission: &str, input: &str) -> Value {
    let wi = |s: Source| super::render::where_is(ws, s);
    let (action, rule) = agent.evaluate(permission, input);
    let mut out = json!({"permission": permission, "input": input, "action": action, "rule": rule.map(|r| dialects::rule_json(r, &wi))});
    if let Some(near) = unknown_permission(agent, permission) {
        out["known_permission"] = json!(false);
        out["did_you_mean"] = json!(near);
    }
    out
}

/// `Some(near miss)` when `permission` is neither a permission key opencode knows nor named by
/// one of the agent's rules (a custom or MCP tool would be, or is matched by `*` only).
fn unknown_permission(agent: &EffectiveAgent, permission: &str) -> Option<Option<String>> {
    use crate::analysis::opencode::schema;
    if schema::permission_key(permission).is_some() || agent.permission.iter().any(|r| r.permission == permission) {
        return None;
    }
    let names = schema::PERMISSION_KEYS.iter().map(|k| k.name).chain(
        agent
            .permission
            .iter()
            .map(|r| r.permission.as_str())
            .filter(|p| *p != "*"),
    );
    Some(suggest::closest(permission, names).map(str::to_string))
}

/// An error unless some runtime consults a permission or tool called `permission` (what
/// `explain --who` and the MCP tools `who_may` and `decide` ask about).
pub fn known_permission(permission: &str) -> Result<(), String> {
    let vocab = crate::analysis::policy_vocabulary();
    if crate::analysis::policy::spec::plausible_permission(permission, vocab) {
        return Ok(());
    }
    Err(format!(
        "no runtime consults a permission or tool called `{permission}` (opencode and Zuno permission keys, Claude Code tools, GitHub Copilot tool sets, MCP tools).{}",
        suggest::did_you_mean(vocab.closest(permission))
    ))
}
