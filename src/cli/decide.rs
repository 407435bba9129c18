//! One permission question answered for an agent of any dialect: what `explain NAME --check`
//! prints and what the MCP tool `decide` returns. Both front ends call [`answers`], so the same
//! question gets the same answer, in the same order (the dialects' list order) and shape.

use std::path::Path;

use serde_json::{Value, json};

use crate::analysis::provenance::Source;
use crate::analysis::{Dialect, suggest};
use crate::workspace::Workspace;
use crate::workspace::dialects::ExplainedAgent;
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

/// Agent `a`'s answer to one permission question, or why it has none: its dialect's own
/// answer (opencode's merged agent, Claude Code's tool grant), else the decision `explain
/// --who` gives.
fn decision(ws: &Workspace, root: &Path, a: &ExplainedAgent, permission: &str, input: &str) -> Result<Value, String> {
    let wi = |s: Source| super::render::where_is(ws, s);
    let rows = std::cell::OnceCell::new();
    let rows = || rows.get_or_init(|| ws.who_may(root, permission, input));
    let row = || rows().iter().find(|w| w.agent == a.name && w.dialect == a.dialect);
    if let Some(answer) = a.decide(permission, input, &|| row().map(|w| row_json(ws, w)), &wi) {
        return answer;
    }
    known_permission(permission)?;
    let Some(row) = row() else {
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
