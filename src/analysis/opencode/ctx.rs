//! What a check knows of where it runs (a Markdown frontmatter or a config entry, whether the
//! frontmatter parses), and the type error every opencode check reports the same way.

use super::DeclOrigin;
use crate::analysis::diagnostic::{Diagnostic, Edit};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Style, Value};

/// What is being checked, to tailor messages.
pub struct Ctx<'a> {
    pub origin: DeclOrigin,
    /// The whole file's text (to see what was written, e.g. an unquoted `#` color).
    pub text: &'a str,
    /// The frontmatter does not parse, so opencode reads none of these settings for now.
    pub lost: bool,
    /// The file is `tui.json(c)`: a value opencode refuses makes it skip the whole file (and
    /// start without it), not refuse to start.
    pub tui: bool,
}

impl Ctx<'_> {
    pub fn is_yaml(&self) -> bool {
        matches!(self.origin, DeclOrigin::Markdown | DeclOrigin::ModeFile)
    }

    /// What happens when the schema rejects a value, in this kind of file.
    pub fn consequence(&self) -> &'static str {
        if self.tui {
            return "opencode skips this whole file, so none of its settings apply";
        }
        if self.lost {
            return "once the YAML error is fixed, opencode will refuse to load the configuration because of it";
        }
        match self.origin {
            DeclOrigin::ModeFile => "opencode silently skips this agent",
            _ => "opencode refuses to load the configuration",
        }
    }
}

/// `invalid-type` with opencode's view of the value and a hint for YAML's usual traps.
pub fn type_error(key: &str, expected: &str, v: &Node, ctx: &Ctx) -> Diagnostic {
    let got = match &v.value {
        Value::Str(_) => format!("the string {}", v.display()),
        Value::Null => "null".to_string(),
        _ => format!("{} ({})", v.type_name(), v.display()),
    };
    // Without its quotes the number must still stand alone: text glued to the closing quote
    // (which some readers tolerate) would become part of a plain scalar.
    let stands_alone = ctx
        .text
        .get(v.span.end as usize..)
        .and_then(|rest| rest.chars().next())
        .is_none_or(|c| c.is_whitespace() || matches!(c, ',' | ']' | '}' | '#'));
    let mut msg = format!("`{key}` must be {expected}, got {got}; {}", ctx.consequence());
    if ctx.is_yaml() {
        match (&v.value, v.style) {
            (Value::Str(s), Style::Quoted)
                if expected.contains("number") && s.trim().parse::<f64>().is_ok() && stands_alone =>
            {
                msg.push_str(". Remove the quotes");
            }
            (Value::Str(s), Style::Plain)
                if expected.contains("boolean")
                    && matches!(s.to_ascii_lowercase().as_str(), "yes" | "no" | "on" | "off" | "y" | "n") =>
            {
                msg.push_str(&format!(
                    ". In opencode's YAML reader `{s}` is a string; write `{}`",
                    if matches!(s.to_ascii_lowercase().as_str(), "yes" | "on" | "y") {
                        "true"
                    } else {
                        "false"
                    }
                ));
            }
            (Value::Null, _) => msg.push_str(". The value is empty; remove the key or give it a value"),
            _ => {}
        }
    }
    let mut d = Diagnostic::new(Code::InvalidType, v.span, msg);
    if let (Value::Str(s), Style::Quoted) = (&v.value, v.style)
        && expected.contains("number")
        && s.trim().parse::<f64>().is_ok()
        && stands_alone
    {
        let edit = Edit {
            span: v.span,
            text: s.trim().to_string(),
        };
        d = d.with_fix("Remove the quotes", vec![edit], true);
    }
    d
}
