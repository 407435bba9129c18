//! Between the core's byte spans and LSP positions, in the negotiated encoding.

use ropey::Rope;
use tower_lsp_server::ls_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticTag, NumberOrString, Position, PositionEncodingKind,
};

use super::settings::Settings;
use crate::analysis::{self, Encoding, LineCol, LineIndex, Location, Span, Tag};

pub fn encoding_kind(e: Encoding) -> PositionEncodingKind {
    match e {
        Encoding::Utf8 => PositionEncodingKind::UTF8,
        Encoding::Utf16 => PositionEncodingKind::UTF16,
        Encoding::Utf32 => PositionEncodingKind::UTF32,
    }
}

/// UTF-8 when the client offers it (no conversion at all), else UTF-16 (the protocol default).
pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
    match offered {
        Some(list) if list.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

pub fn range(text: &str, index: &LineIndex, span: Span, enc: Encoding) -> lsp::Range {
    lsp::Range {
        start: position(text, index, span.start as usize, enc),
        end: position(text, index, span.end as usize, enc),
    }
}

/// A text whose lines and columns can be looked up.
pub struct Indexed<'a> {
    pub uri: &'a lsp::Uri,
    pub text: &'a str,
    pub index: &'a LineIndex,
}

/// Convert one core diagnostic; `None` when its code is turned off in the settings.
/// The most diagnostics published for one file: an editor cannot show more usefully, and a
/// file with hundreds of thousands of problems would flood the client.
pub const MAX_PUBLISHED: usize = 1000;

/// A file's diagnostics cut to the first [`MAX_PUBLISHED`] that `kept` keeps (the settings may
/// turn some off), with how many more it keeps after them and where the first of those is.
pub fn cap(
    diags: &[analysis::Diagnostic],
    kept: impl Fn(&analysis::Diagnostic) -> bool,
) -> (&[analysis::Diagnostic], Option<(usize, analysis::Span)>) {
    let Some(cut) = diags
        .iter()
        .enumerate()
        .filter(|(_, d)| kept(d))
        .nth(MAX_PUBLISHED)
        .map(|(i, _)| i)
    else {
        return (diags, None);
    };
    let (head, rest) = diags.split_at(cut);
    let more = rest.iter().filter(|d| kept(d)).count();
    (head, Some((more, rest[0].span)))
}

/// The last diagnostic of a file that has more than [`MAX_PUBLISHED`]: how many are not shown,
/// at the first of them.
pub fn more_problems(more: usize, here: &Indexed, at: analysis::Span, enc: Encoding) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: range(
            here.text,
            here.index,
            analysis::Span::new(at.start as usize, at.start as usize),
            enc,
        ),
        severity: Some(lsp::DiagnosticSeverity::INFORMATION),
        source: Some("agent-lsp".into()),
        message: format!(
            "{more} more problem{} in this file, from here on, are not shown (agent-lsp publishes at most {MAX_PUBLISHED} per file); `agent-lsp check` lists them all",
            if more == 1 { "" } else { "s" }
        ),
        ..Default::default()
    }
}

pub fn diagnostic(
    d: &analysis::Diagnostic,
    here: &Indexed,
    other: &dyn Fn(usize) -> Option<(lsp::Uri, lsp::Range)>,
    settings: &Settings,
    enc: Encoding,
) -> Option<lsp::Diagnostic> {
    let severity = settings.severity_for(d)?;
    let severity = match severity {
        analysis::Severity::Error => lsp::DiagnosticSeverity::ERROR,
        analysis::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        analysis::Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        analysis::Severity::Hint => lsp::DiagnosticSeverity::HINT,
    };
    let tags: Vec<DiagnosticTag> = d
        .tags
        .iter()
        .map(|t| match t {
            Tag::Deprecated => DiagnosticTag::DEPRECATED,
            Tag::Unnecessary => DiagnosticTag::UNNECESSARY,
        })
        .collect();
    let related: Vec<DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            let location = match &r.location {
                Location::Here(span) => lsp::Location::new(here.uri.clone(), range(here.text, here.index, *span, enc)),
                Location::File { file, .. } => {
                    let (uri, range) = other(*file)?;
                    lsp::Location::new(uri, range)
                }
                Location::BuiltIn => return None,
            };
            Some(DiagnosticRelatedInformation {
                location,
                message: r.message.clone(),
            })
        })
        .collect();
    // The "did you mean" replacement travels with the diagnostic, so that a code action needs
    // no memory of earlier requests.
    // The runtime effect always; the fix when there is one.
    let mut data = serde_json::json!({ "effect": d.effect.as_str() });
    if let Some(f) = &d.fix {
        let edits: Vec<serde_json::Value> = f
            .edits
            .iter()
            .map(|e| serde_json::json!({ "range": range(here.text, here.index, e.span, enc), "newText": e.text }))
            .collect();
        data["fix"] = serde_json::json!({ "title": f.title, "edits": edits, "safe": f.safe });
    }
    let data = Some(data);
    Some(lsp::Diagnostic {
        range: range(here.text, here.index, d.span, enc),
        severity: Some(severity),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        code_description: code_description(d.code),
        source: Some("agent-lsp".to_string()),
        message: settings.message_for(d),
        related_information: (!related.is_empty()).then_some(related),
        tags: (!tags.is_empty()).then_some(tags),
        data,
    })
}

/// The faded hints of a diagnostic's lost places ([`analysis::Related::lost`]: the rules of a
/// settings file the runtime voids, the rules a catch-all makes dead): each place of the same
/// file shown faded, saying which finding it belongs to. Nothing when the diagnostic itself is
/// turned off, and none for a coding agent (`forAgents`).
pub fn lost_hints(
    d: &analysis::Diagnostic,
    here: &Indexed,
    settings: &Settings,
    enc: Encoding,
) -> Vec<lsp::Diagnostic> {
    // A model reads no faded text: for a coding agent, the related places say it.
    if settings.severity_for(d).is_none() || settings.for_agents {
        return Vec::new();
    }
    let line = position(here.text, here.index, d.span.start as usize, Encoding::Utf8).line + 1;
    d.related
        .iter()
        .filter(|r| r.lost)
        .filter_map(|r| match r.location {
            Location::Here(span) => Some(lsp::Diagnostic {
                range: range(here.text, here.index, span, enc),
                severity: Some(lsp::DiagnosticSeverity::HINT),
                code: Some(NumberOrString::String(d.code.as_str().to_string())),
                code_description: code_description(d.code),
                source: Some("agent-lsp".to_string()),
                message: format!("{}, because of the {} on line {line}", r.message, d.code.as_str()),
                related_information: Some(vec![DiagnosticRelatedInformation {
                    location: lsp::Location::new(here.uri.clone(), range(here.text, here.index, d.span, enc)),
                    message: "the cause".into(),
                }]),
                tags: Some(vec![DiagnosticTag::UNNECESSARY]),
                data: Some(serde_json::json!({ "effect": d.effect.as_str(), "lostBecauseOf": d.code.as_str() })),
            }),
            _ => None,
        })
        .collect()
}

/// The rule's page (`Code::doc_url`), which editors link from the code (always a valid URI).
fn code_description(code: analysis::Code) -> Option<lsp::CodeDescription> {
    use std::str::FromStr;
    lsp::Uri::from_str(&code.doc_url())
        .ok()
        .map(|href| lsp::CodeDescription { href })
}

/// Why a change could not be applied.
#[derive(Debug)]
pub struct OutOfBounds {
    pub position: Position,
    pub lines: usize,
}

/// The char index of an LSP position in a rope. A column past the end of its line is clamped
/// to the line end (as the protocol says); a line past the end of the document is an error.
pub fn rope_char(rope: &Rope, pos: Position, enc: Encoding) -> Result<usize, OutOfBounds> {
    let line = pos.line as usize;
    let lines = rope.len_lines();
    if line >= lines {
        // The position just past the last line break, column 0, is the end of the text.
        if line == lines && pos.character == 0 {
            return Ok(rope.len_chars());
        }
        return Err(OutOfBounds { position: pos, lines });
    }
    let line_start = rope.line_to_char(line);
    let line_slice = rope.line(line);
    // Content of the line without its line break.
    let mut content_chars = line_slice.len_chars();
    while content_chars > 0 {
        let c = line_slice.char(content_chars - 1);
        if c == '\n' || c == '\r' {
            content_chars -= 1;
        } else {
            break;
        }
    }
    let col = pos.character as usize;
    let offset_chars = match enc {
        Encoding::Utf32 => col.min(content_chars),
        Encoding::Utf8 => {
            let content_bytes = line_slice.slice(..content_chars).len_bytes();
            let b = col.min(content_bytes);
            // A byte inside a character moves to the character's start.
            line_slice.byte_to_char(b)
        }
        Encoding::Utf16 => {
            let content_units = line_slice.slice(..content_chars).len_utf16_cu();
            let u = col.min(content_units);
            line_slice.utf16_cu_to_char(u)
        }
    };
    Ok(line_start + offset_chars)
}

/// LSP position of a byte offset in a plain text (for tests and untitled documents).
/// `LineIndex` gives a leading BOM zero width (right for humans); a client that sent the BOM in
/// the text counts it, so it is added back here.
pub fn position(text: &str, index: &LineIndex, offset: usize, enc: Encoding) -> Position {
    let LineCol { line, col } = index.line_col(text, offset, enc);
    let bom = if line == 0 && offset >= 3 && text.starts_with('\u{feff}') {
        match enc {
            Encoding::Utf8 => 3,
            _ => 1,
        }
    } else {
        0
    };
    Position::new(line, col + bom)
}

/// The byte offset of an LSP position (the inverse of [`position`]).
pub fn offset(text: &str, index: &LineIndex, pos: Position, enc: Encoding) -> usize {
    let mut col = pos.character;
    if pos.line == 0 && text.starts_with('\u{feff}') {
        col = col.saturating_sub(if enc == Encoding::Utf8 { 3 } else { 1 });
    }
    index.offset(text, LineCol { line: pos.line, col }, enc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rope_positions_in_every_encoding() {
        let rope = Rope::from_str("a: 审查 🚀 x\r\nb\n");
        // `x` is char 8; UTF-16 column 9 (the emoji is two units); UTF-8 column 15.
        assert_eq!(rope_char(&rope, Position::new(0, 8), Encoding::Utf32).unwrap(), 8);
        assert_eq!(rope_char(&rope, Position::new(0, 9), Encoding::Utf16).unwrap(), 8);
        assert_eq!(rope_char(&rope, Position::new(0, 15), Encoding::Utf8).unwrap(), 8);
        // Inside the emoji (UTF-16 column 7, UTF-8 column 12): the emoji's start.
        assert_eq!(rope_char(&rope, Position::new(0, 7), Encoding::Utf16).unwrap(), 6);
        assert_eq!(rope_char(&rope, Position::new(0, 12), Encoding::Utf8).unwrap(), 6);
        // Past the line end: clamped before the CRLF.
        assert_eq!(rope_char(&rope, Position::new(0, 99), Encoding::Utf16).unwrap(), 9);
        assert_eq!(rope_char(&rope, Position::new(1, 1), Encoding::Utf16).unwrap(), 12);
        assert_eq!(rope_char(&rope, Position::new(2, 0), Encoding::Utf16).unwrap(), 13);
        assert!(rope_char(&rope, Position::new(5, 0), Encoding::Utf16).is_err());
        // A BOM that the client sent is a character like any other.
        let rope = Rope::from_str("\u{feff}ab");
        assert_eq!(rope_char(&rope, Position::new(0, 1), Encoding::Utf16).unwrap(), 1);
        assert_eq!(rope_char(&rope, Position::new(0, 3), Encoding::Utf8).unwrap(), 1);
    }

    #[test]
    fn negotiation_prefers_utf8() {
        assert_eq!(
            negotiate(Some(&[PositionEncodingKind::UTF16, PositionEncodingKind::UTF8])),
            Encoding::Utf8
        );
        assert_eq!(negotiate(Some(&[PositionEncodingKind::UTF32])), Encoding::Utf16);
        assert_eq!(negotiate(None), Encoding::Utf16);
    }
}
