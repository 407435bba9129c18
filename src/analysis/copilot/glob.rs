//! `applyTo` patterns as VS Code matches them: comma-separated globs (a comma inside `{a,b}` is
//! part of the pattern), each relative to the workspace folder; a pattern that does not start
//! with `**/` or `/` matches at any depth (VS Code puts `**/` in front of it); `*`, `**` and
//! `**/*` match every file. `*` never crosses a `/`.

use crate::analysis::text::Span;

/// The patterns of an `applyTo` value, each with its byte range in `s` (trimmed).
pub fn split(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = s.as_bytes();
    let push = |from: usize, to: usize, out: &mut Vec<(usize, usize)>| {
        let part = &s[from..to];
        let lead = part.len() - part.trim_start().len();
        let trail = part.len() - part.trim_end().len();
        if from + lead < to - trail {
            out.push((from + lead, to - trail));
        }
    };
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = (depth - 1).max(0),
            b',' if depth == 0 => {
                push(start, i, &mut out);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(start, s.len(), &mut out);
    out
}

/// Whether the pattern matches every file.
pub fn matches_all(pattern: &str) -> bool {
    matches!(pattern, "*" | "**" | "**/*")
}

/// The pattern as VS Code matches it against a workspace-relative path.
fn anchored(pattern: &str) -> String {
    let p = pattern.strip_prefix("./").unwrap_or(pattern);
    if let Some(rest) = p.strip_prefix('/') {
        rest.to_string()
    } else if p.starts_with("**/") {
        p.to_string()
    } else {
        format!("**/{p}")
    }
}

/// `Ok` when the pattern can be read; the reason otherwise.
pub fn check(pattern: &str) -> Result<(), String> {
    compile(pattern).map(|_| ())
}

/// A matcher for one pattern.
pub fn compile(pattern: &str) -> Result<globset::GlobMatcher, String> {
    globset::GlobBuilder::new(&anchored(pattern))
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| e.kind().to_string())
}

/// The spans of the patterns of a value written at `value` whose text (unquoted) is `s`: exact
/// when the value is written on one line as is or in quotes, the whole value otherwise.
pub fn spans(s: &str, value: Span) -> Vec<(String, Span)> {
    let raw = value.len();
    let quote = usize::from(raw == s.len() + 2);
    let exact = raw == s.len() || quote == 1;
    split(s)
        .into_iter()
        .map(|(a, b)| {
            let span = if exact {
                let start = value.start as usize + quote + a;
                Span::new(start, start + (b - a))
            } else {
                value
            };
            (s[a..b].to_string(), span)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_match(pattern: &str, path: &str) -> bool {
        compile(pattern).unwrap().is_match(path)
    }

    #[test]
    fn patterns_split_on_commas_outside_braces() {
        let s = "**/*.{ts,tsx}, src/**/*.rs ,docs/*.md";
        let parts: Vec<&str> = split(s).into_iter().map(|(a, b)| &s[a..b]).collect();
        assert_eq!(parts, ["**/*.{ts,tsx}", "src/**/*.rs", "docs/*.md"]);
        assert!(split(" , ").is_empty());
    }

    #[test]
    fn a_relative_pattern_matches_at_any_depth_and_star_stays_in_its_folder() {
        assert!(is_match("*.py", "a/b/c.py"));
        assert!(is_match("src/*.rs", "crates/x/src/lib.rs"));
        assert!(!is_match("src/*.rs", "src/a/lib.rs"));
        assert!(is_match("/src/*.rs", "src/lib.rs"));
        assert!(!is_match("/src/*.rs", "x/src/lib.rs"));
        assert!(is_match("**/*.{ts,tsx}", "web/app.tsx"));
        assert!(matches_all("**") && matches_all("*") && matches_all("**/*") && !matches_all("**/*.md"));
    }

    #[test]
    fn an_unreadable_pattern_says_why() {
        assert!(check("src/[a-").is_err());
        assert!(check("src/{a,b").is_err());
        assert!(check("**/*.md").is_ok());
    }

    #[test]
    fn each_pattern_gets_its_own_span_when_written_on_one_line() {
        let text = "applyTo: \"*.ts, *.md\"";
        let value = Span::new(9, text.len());
        let got = spans("*.ts, *.md", value);
        assert_eq!(got[0].1.text(text), "*.ts");
        assert_eq!(got[1].1.text(text), "*.md");
        // A folded value: the whole value.
        assert_eq!(spans("*.ts", Span::new(0, 20))[0].1, Span::new(0, 20));
    }
}
