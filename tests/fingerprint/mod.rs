//! The whole effective agent set of a file, as comparable data: every agent and every field of
//! it (permission rules included, in evaluation order), without source locations, which move
//! when a fix edits the text. Used to prove that a fix keeps what opencode does.

use agent_lsp::analysis::opencode::effective::{self, EffectiveAgent};
use agent_lsp::analysis::opencode::project::ViewFile;
use agent_lsp::analysis::opencode::{FileKind, analyze};

/// One agent: its name and `(field, value)` pairs.
pub type Agent = (String, Vec<(&'static str, String)>);

fn fields(a: &EffectiveAgent) -> Vec<(&'static str, String)> {
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    vec![
        ("display_name", opt(a.display_name.as_ref().map(|d| d.value.clone()))),
        ("native", a.native.to_string()),
        ("mode", a.mode.value.clone()),
        ("hidden", a.hidden.value.to_string()),
        ("model", opt(a.model.as_ref().map(|m| m.value.clone()))),
        ("variant", opt(a.variant.as_ref().map(|m| m.value.clone()))),
        ("temperature", opt(a.temperature.as_ref().map(|m| m.value.to_string()))),
        ("top_p", opt(a.top_p.as_ref().map(|m| m.value.to_string()))),
        ("steps", opt(a.steps.as_ref().map(|m| m.value.to_string()))),
        ("color", opt(a.color.as_ref().map(|m| m.value.clone()))),
        ("description", opt(a.description.as_ref().map(|m| m.value.clone()))),
        ("prompt", format!("{:?}", a.prompt.value)),
        (
            "options",
            a.options
                .iter()
                .map(|(k, v)| format!("{k}={}", v.value))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        (
            "permission",
            a.permission
                .iter()
                .map(|r| format!("{} {:?} {}", r.permission, r.pattern, r.action))
                .collect::<Vec<_>>()
                .join("; "),
        ),
    ]
}

/// Every agent opencode would build from this one file (with the built-ins).
pub fn agents(kind: &FileKind, text: &str) -> Vec<Agent> {
    let a = analyze(kind, text);
    let view = [ViewFile {
        file: 0,
        parsed: &a.parsed,
        facts: &a.facts,
        group: 0,
    }];
    effective::agents(&view, &effective::Env::default())
        .iter()
        .map(|a| (a.name.clone(), fields(a)))
        .collect()
}

/// The differences between two agent sets: `agent.field: before -> after`, and agents that
/// appear or disappear.
pub fn diff(before: &[Agent], after: &[Agent]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, fb) in before {
        match after.iter().find(|(n, _)| n == name) {
            None => out.push(format!("{name}: removed")),
            Some((_, fa)) => {
                for ((field, b), (_, a)) in fb.iter().zip(fa) {
                    if b == a {
                        continue;
                    }
                    if *field == "permission" {
                        out.push(format!("{name}.permission: {}", rule_diff(b, a)));
                    } else {
                        out.push(format!("{name}.{field}: {b} -> {a}"));
                    }
                }
            }
        }
    }
    for (name, _) in after {
        if !before.iter().any(|(n, _)| n == name) {
            out.push(format!("{name}: added"));
        }
    }
    out
}

/// Rules removed and added (as multisets), or "reordered" when the same rules come in another
/// order.
fn rule_diff(before: &str, after: &str) -> String {
    let b: Vec<&str> = before.split("; ").collect();
    let a: Vec<&str> = after.split("; ").collect();
    let minus = |x: &[&str], y: &[&str]| -> Vec<String> {
        let mut rest: Vec<&str> = y.to_vec();
        let mut out = Vec::new();
        for r in x {
            match rest.iter().position(|q| q == r) {
                Some(i) => {
                    rest.remove(i);
                }
                None => out.push(r.to_string()),
            }
        }
        out
    };
    let (removed, added) = (minus(&b, &a), minus(&a, &b));
    if removed.is_empty() && added.is_empty() {
        return "reordered".into();
    }
    let mut parts: Vec<String> = removed.iter().map(|r| format!("-{r}")).collect();
    parts.extend(added.iter().map(|r| format!("+{r}")));
    parts.join(", ")
}
