//! Colours an agent may be given: a `#RRGGBB` hex value or a theme colour name. opencode and
//! Zuno accept the same set.

/// The theme colour names (opencode 1.18.34, §3; Zuno reads the same names).
pub const THEME_COLORS: &[&str] = &["primary", "secondary", "accent", "success", "warning", "error", "info"];

/// `#` and six hex digits.
pub fn is_hex_color(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colors() {
        assert!(is_hex_color("#4F7CAC"));
        assert!(is_hex_color("#abcdef"));
        assert!(!is_hex_color("#abcde"));
        assert!(!is_hex_color("4F7CAC0"));
        assert!(!is_hex_color("#4F7CAG"));
        assert!(!is_hex_color("#4F7CAC "));
    }
}
