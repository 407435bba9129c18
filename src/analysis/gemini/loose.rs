//! What zod's preprocessing lets a boolean or a number setting of Gemini CLI be: also a string
//! that reads as one (`"true"`, `" 12 "`). The generated schema ([`super::settings_schema`])
//! writes such settings with these shapes.

use crate::analysis::shape::Shape;

/// What a boolean setting takes beyond `true` and `false`: zod's preprocessing reads the strings
/// `"true"` and `"false"` (in any case) as booleans.
pub const LOOSE_BOOL: Shape = Shape::Union(&[Shape::Bool, Shape::Pattern(reads_as_bool, READS_AS_BOOL)]);
pub const READS_AS_BOOL: &str = "a string that reads as a boolean (\"true\" or \"false\")";

/// What a number setting takes: a number, or a string JavaScript's `Number()` reads as one.
pub const LOOSE_NUM: Shape = Shape::Union(&[
    Shape::Num(crate::analysis::shape::Num::ANY),
    Shape::Pattern(reads_as_number, READS_AS_NUMBER),
]);
pub const READS_AS_NUMBER: &str = "a string that reads as a number";

fn reads_as_bool(s: &str) -> bool {
    s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false")
}

/// Whether JavaScript's `Number(s)` gives a number (not `NaN`) for a string that is not blank.
pub fn reads_as_number(s: &str) -> bool {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return false;
    }
    let radix = |digits: &str, r: u32| !digits.is_empty() && digits.chars().all(|c| c.is_digit(r));
    if let Some(rest) = t.get(..2).map(str::to_ascii_lowercase) {
        match rest.as_str() {
            "0x" => return radix(&t[2..], 16),
            "0o" => return radix(&t[2..], 8),
            "0b" => return radix(&t[2..], 2),
            _ => {}
        }
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if unsigned == "Infinity" {
        return true;
    }
    // Rust's float syntax is JavaScript's decimal one, but for the words it also takes.
    unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') && t.parse::<f64>().is_ok()
}
