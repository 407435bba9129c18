//! The full documentation of one rule, as `agent-lsp rules CODE` prints it (and the MCP `rules`
//! tool returns it).

use crate::analysis::{Code, Severity};

/// The full documentation of one rule, as `agent-lsp rules CODE` prints it.
pub fn rule_doc(code: Code) -> String {
    let r = code.rule();
    let indent = |s: &str| s.lines().map(|l| format!("    {l}\n")).collect::<String>();
    let tags = if r.tags.is_empty() {
        String::new()
    } else {
        format!(
            ", tagged {}",
            r.tags
                .iter()
                .map(|t| format!("{t:?}").to_lowercase())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let dialects: Vec<&str> = code.dialects().iter().map(|d| d.product()).collect();
    format!(
        "{} ({}{tags}; effect: {}, {})\nDialects: {}\n\n{}\n\n{}\n\nBad:\n{}\nGood:\n{}",
        r.name,
        match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        },
        r.effect.as_str(),
        r.effect.describe(),
        dialects.join(", "),
        r.summary,
        r.explanation,
        indent(r.bad),
        indent(r.good)
    )
}
