//! The hover card's Markdown, rendered for a terminal: headings and `**bold**` in bold (when
//! colour is allowed), code spans in cyan without their backticks, tables aligned in columns
//! with their separator row dropped, bullets and numbered lists kept. Only the subset the cards
//! write is understood; any other line is printed as it is.

use unicode_width::UnicodeWidthStr;

const BOLD: &str = "\x1b[1m";
const CODE: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

/// Render `markdown` for a terminal; `color` allows ANSI styles.
pub fn render(markdown: &str, color: bool) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = markdown.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if is_table_row(line) {
            let start = i;
            while i < lines.len() && is_table_row(lines[i]) {
                i += 1;
            }
            table(&lines[start..i], color, &mut out);
            continue;
        }
        if let Some(title) = heading(line) {
            out.push_str(&styled(&inline(title, false), BOLD, color));
        } else {
            out.push_str(&inline(line, color));
        }
        out.push('\n');
        i += 1;
    }
    out
}

/// The text of a `#` to `######` heading.
fn heading(line: &str) -> Option<&str> {
    let hashes = line.len() - line.trim_start_matches('#').len();
    (1..=6)
        .contains(&hashes)
        .then(|| line[hashes..].strip_prefix(' '))
        .flatten()
}

fn is_table_row(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 2 && t.starts_with('|') && t.ends_with('|')
}

/// The cells of a table row, split on `|` outside code spans, with `\|` unescaped.
fn cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let inner = &t[1..t.len() - 1];
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut in_code = false;
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' if !in_code => out.push(std::mem::take(&mut cell)),
            _ => {
                in_code ^= c == '`';
                cell.push(c);
            }
        }
    }
    out.push(cell);
    out.into_iter().map(|s| s.trim().to_string()).collect()
}

fn is_separator(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':')))
}

/// A table: columns as wide as their widest cell, two spaces apart, the header in bold.
fn table(rows: &[&str], color: bool, out: &mut String) {
    let parsed: Vec<Vec<String>> = rows
        .iter()
        .map(|r| cells(r))
        .filter(|c| !is_separator(c))
        .map(|row| row.iter().map(|c| inline(c, false)).collect())
        .collect();
    let columns = parsed.iter().map(Vec::len).max().unwrap_or(0);
    let width = |col: usize| {
        parsed
            .iter()
            .filter_map(|r| r.get(col))
            .map(|c| c.width())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..columns).map(width).collect();
    for (n, row) in parsed.iter().enumerate() {
        let mut line = String::new();
        for (col, cell) in row.iter().enumerate() {
            let last = col + 1 == row.len();
            line.push_str(cell);
            if !last {
                line.push_str(&" ".repeat(widths[col].saturating_sub(cell.width()) + 2));
            }
        }
        let line = line.trim_end().to_string();
        out.push_str(&if n == 0 { styled(&line, BOLD, color) } else { line });
        out.push('\n');
    }
}

fn styled(text: &str, style: &str, color: bool) -> String {
    if color && !text.is_empty() {
        format!("{style}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// `**bold**` and `` `code` `` within a line: styled, or plain text without the markers.
fn inline(line: &str, color: bool) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('`')
            && let Some(end) = after.find('`')
        {
            out.push_str(&styled(&after[..end], CODE, color));
            rest = &after[end + 1..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("**")
            && let Some(end) = after.find("**")
            && end > 0
        {
            out.push_str(&styled(&inline(&after[..end], false), BOLD, color));
            rest = &after[end + 2..];
            continue;
        }
        let next = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == '`' || *c == '*')
            .map_or(rest.len(), |(i, _)| i);
        out.push_str(&rest[..next]);
        rest = &rest[next..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: &str = "### `team/reviewer`: subagent\n\nReviews **diffs**.\n\n- `bash`: **deny**, except `git diff *`: allow\n\n| setting | value | from |\n|---|---|---|\n| mode | subagent | a.md:3:7 |\n| temperature | 0.1 | a.md:4:14 |\n\n1. `read`, `*.env`: ask (built-in)\n";

    #[test]
    fn plain_text_without_markers_and_aligned_tables() {
        expect_test::expect![[r#"
            team/reviewer: subagent

            Reviews diffs.

            - bash: deny, except git diff *: allow

            setting      value     from
            mode         subagent  a.md:3:7
            temperature  0.1       a.md:4:14

            1. read, *.env: ask (built-in)
        "#]]
        .assert_eq(&render(CARD, false));
    }

    #[test]
    fn colour_styles_headings_bold_code_and_the_table_header() {
        let out = render(CARD, true);
        let first = out.lines().next().unwrap();
        assert_eq!(first, "\x1b[1mteam/reviewer: subagent\x1b[0m");
        assert!(out.contains("Reviews \x1b[1mdiffs\x1b[0m."), "{out:?}");
        assert!(out.contains("\x1b[1msetting      value     from\x1b[0m\n"), "{out:?}");
        assert!(out.contains("\x1b[36m*.env\x1b[0m"), "{out:?}");
    }

    #[test]
    fn pipes_in_code_and_escaped_pipes_stay_in_their_cell() {
        let t = "| a | b |\n|---|---|\n| `x|y` | p \\| q |\n";
        assert_eq!(render(t, false), "a    b\nx|y  p | q\n");
    }

    #[test]
    fn wide_characters_are_aligned_by_display_width() {
        let t = "| k | v |\n|---|---|\n| 日本 | 1 |\n| ab | 2 |\n";
        assert_eq!(render(t, false), "k     v\n日本  1\nab    2\n");
    }

    #[test]
    fn unmatched_markers_and_other_lines_are_kept() {
        assert_eq!(render("a * b ` c **d\n#nohead\n", false), "a * b ` c **d\n#nohead\n");
    }
}
