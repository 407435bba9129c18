//! What the loader's retry (the lenient parse) rescues, and the frontmatter cut short by a `---`.

use super::model::Ctx;
use crate::analysis::claude::read::{Block, Reading};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::text::Span;

/// The retry rescued the file: one warning per value it quoted, with the quoting as a fix.
/// The start of the line that holds `offset`.
pub(super) fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

pub(super) fn lenient(cx: &mut Ctx, reading: &Reading, skip_lines: &[usize]) {
    let found = lenient_parse(cx.text, reading, skip_lines);
    cx.out.extend(found);
}

/// A file that loads only through the lenient retry (agents, commands, skills): one
/// `lenient-parse` warning per value the retry quoted (`skip_lines`: the starts of lines whose
/// quoting is reported otherwise), with the quoting as a fix; one on the first error when the
/// retry only turned tabs into spaces.
pub(crate) fn lenient_parse(text: &str, reading: &Reading, skip_lines: &[usize]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if reading.quoted.is_empty() {
        let span = reading.first_errors.first().map(|e| e.span).unwrap_or_default();
        out.push(
            Diagnostic::new(
                Code::LenientParse,
                span,
                "this frontmatter is not valid YAML; Claude Code loads it only through its lenient retry (tabs read as spaces)",
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works),
        );
        return out;
    }
    for &span in &reading.quoted {
        if skip_lines.contains(&line_of(text, span.start as usize)) {
            continue;
        }
        let raw = span.text(text);
        let quoted = format!("\"{}\"", raw.replace('\\', "\\\\").replace('"', "\\\""));
        let why = if raw.contains(": ") {
            "a plain value may not contain `: `"
        } else if raw.contains(" #") {
            "` #` would start a comment"
        } else {
            "it starts with or holds a character YAML reserves"
        };
        // The retry also writes one space after the colon; do the same when the separator holds
        // other characters JavaScript counts as white space (a no-break space, a U+FEFF), which
        // YAML does not.
        let line_start = text[..span.start as usize].rfind('\n').map_or(0, |p| p + 1);
        let sep_start = text[line_start..span.start as usize]
            .rfind(':')
            .map(|c| line_start + c + 1);
        let edit = match sep_start {
            Some(from) if !text[from..span.start as usize].chars().all(|c| c == ' ' || c == '\t') => {
                Edit::new(Span::new(from, span.end as usize), format!(" {quoted}"))
            }
            _ => Edit::new(span, quoted),
        };
        out.push(
            Diagnostic::new(
                Code::LenientParse,
                span,
                format!(
                    "this value is not valid YAML ({why}); Claude Code reads the file only through its lenient retry, which quotes it. Quote it so that every YAML reader agrees"
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works)
            .with_fix("Quote the value as Claude Code's retry does", vec![edit], true),
        );
    }
    out
}

/// A `---` inside the block that closes it early (agents, commands, skills): what it cuts off.
pub(crate) fn truncated(block: &Block, reading: &Reading) -> Diagnostic {
    let lost: Vec<String> = reading.lost_keys.iter().map(|(k, _)| format!("`{k}`")).collect();
    let tail = if lost.is_empty() {
        String::new()
    } else {
        format!(
            "; {} after it become{} prompt text",
            lost.join(", "),
            if lost.len() == 1 { "s" } else { "" }
        )
    };
    Diagnostic::new(
        Code::TruncatedFrontmatter,
        block.close,
        format!(
            "this `---` ends the frontmatter: Claude Code closes it at the first `---` anywhere, even inside a value or a comment{tail}"
        ),
    )
    .with_severity(Severity::Warning)
    .with_effect(Effect::ValueIgnored)
}
