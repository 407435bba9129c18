//! Words the Gemini dialect's messages share (and its tests' rendering of findings).

use crate::analysis::syntax::{Node, Value};

/// A value's type as a message says it, with the value when it is a scalar (`a string ("yes")`).
pub fn got_text(node: &Node) -> String {
    match &node.value {
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            format!("{} ({})", node.type_name(), node.display())
        }
        _ => node.type_name().to_string(),
    }
}

/// Each finding as `severity code [the text under it]: message`, for the tests.
#[cfg(test)]
pub fn rendered(out: &[crate::analysis::Diagnostic], text: &str) -> Vec<String> {
    out.iter()
        .map(|d| {
            format!(
                "{:?} {} [{}]: {}",
                d.severity,
                d.code.as_str(),
                d.span.text(text),
                d.message
            )
        })
        .collect()
}
