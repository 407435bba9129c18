//! A header value read as one scalar, with the finding when it is of another type.

use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Value};

pub(super) fn type_error(key: &str, node: &Node, want: &str, out: &mut Vec<Diagnostic>) {
    out.push(Diagnostic::new(
        Code::InvalidType,
        node.span,
        format!("`{key}` must be {want}, not {}; Copilot ignores it", node.type_name()),
    ));
}

/// A string value; `None` (with a diagnostic) for anything else. Null is "not set".
pub(super) fn string<'a>(key: &str, node: &'a Node, out: &mut Vec<Diagnostic>) -> Option<&'a str> {
    match &node.value {
        Value::Str(s) => Some(s),
        Value::Null | Value::Unknown => None,
        _ => {
            type_error(key, node, "a string", out);
            None
        }
    }
}
