//! Invariants shared by the fuzz targets (included with `mod common;`; each target uses part).
#![allow(dead_code)]

use agent_lsp::analysis::{Code, Encoding, LineIndex, Location, Span};
use agent_lsp::analysis::{FileAnalysis, FileKind, analyze};

/// A span lies within the text and on char boundaries.
pub fn check_span(text: &str, span: Span, what: &str) {
    let (start, end) = (span.start as usize, span.end as usize);
    assert!(
        start <= end && end <= text.len(),
        "{what}: span {start}..{end} out of bounds ({} bytes)",
        text.len()
    );
    assert!(
        text.is_char_boundary(start) && text.is_char_boundary(end),
        "{what}: span {start}..{end} not on char boundaries"
    );
}

/// A byte offset converts to a line/column (UTF-16, UTF-32, UTF-8) and back to the same
/// offset, up to the two documented moves: an offset inside a CRLF pair goes to the pair's
/// start, and offset 0 of a file with a BOM is the first column after the BOM.
pub fn round_trip(index: &LineIndex, text: &str, offset: usize) {
    let bytes = text.as_bytes();
    let expected = if offset == 0 && text.starts_with('\u{feff}') {
        3
    } else if offset > 0 && bytes[offset - 1] == b'\r' && bytes.get(offset) == Some(&b'\n') {
        offset - 1
    } else {
        offset
    };
    for enc in [Encoding::Utf16, Encoding::Utf32, Encoding::Utf8] {
        let pos = index.line_col(text, offset, enc);
        let back = index.offset(text, pos, enc);
        assert_eq!(back, expected, "offset {offset} -> {pos:?} -> {back} ({enc:?})");
    }
}

pub fn has(a: &FileAnalysis, code: Code) -> bool {
    a.diagnostics.iter().any(|d| d.code == code)
}

/// The span invariants of one file's analysis: every span (diagnostic, related location in the
/// same file, fix edit, agent declaration, agent reference) is within the text and on char
/// boundaries; each diagnostic's start survives a `LineIndex` round trip; a fix's edits do not
/// overlap.
pub fn check_analysis(text: &str, analysis: &FileAnalysis) {
    let index = LineIndex::new(text);
    for d in &analysis.diagnostics {
        let what = format!("{:?} {:?}", d.code, d.message);
        check_span(text, d.span, &what);
        round_trip(&index, text, d.span.start as usize);
        for r in &d.related {
            if let Location::Here(s) = r.location {
                check_span(text, s, &format!("{what} (related)"));
            }
        }
        if let Some(fix) = &d.fix {
            let mut spans: Vec<Span> = fix.edits.iter().map(|e| e.span).collect();
            for &s in &spans {
                check_span(text, s, &format!("{what} (fix {:?})", fix.title));
            }
            spans.sort();
            for w in spans.windows(2) {
                assert!(
                    w[0].end <= w[1].start,
                    "{what}: fix {:?} has overlapping edits {:?}",
                    fix.title,
                    fix.edits
                );
            }
        }
    }
    for decl in analysis.agents() {
        check_span(text, decl.span, "agent declaration");
    }
    if let Some(z) = analysis.zuno() {
        for d in &z.agents {
            check_span(text, d.span, "Zuno agent declaration");
        }
        for r in &z.refs {
            check_span(text, r.span, "Zuno name reference");
        }
    }
    if let Some(c) = analysis.claude() {
        check_span(text, c.agent.name_span, "Claude agent name");
        for (_, s) in &c.agent.agent_refs {
            check_span(text, *s, "Claude Agent(type) reference");
        }
        for s in &c.reading.quoted {
            check_span(text, *s, "value quoted by the retry");
        }
        for (_, s) in &c.reading.lost_keys {
            check_span(text, *s, "key lost after an early `---`");
        }
        if let Some(b) = &c.reading.block {
            for (s, what) in [(b.open, "open"), (b.yaml, "yaml"), (b.close, "close"), (b.body, "body")] {
                check_span(text, s, &format!("Claude block {what}"));
            }
            assert!(b.open.end <= b.yaml.start && b.yaml.end <= b.close.start && b.close.end <= b.body.start);
            assert_eq!(b.close.text(text), "---", "the closing hyphens");
            assert_eq!(b.body.end as usize, text.len());
        }
    }
    for r in analysis.refs() {
        check_span(text, r.span, "agent reference");
    }
}

/// Analyse a file and check the span invariants; returns the analysis.
pub fn checked(kind: &FileKind, text: &str) -> FileAnalysis {
    let analysis = analyze(kind, text);
    check_analysis(text, &analysis);
    analysis
}
