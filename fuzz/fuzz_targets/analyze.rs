//! Parse and analyse arbitrary input as an opencode file.
//!
//! The first byte picks the kind (config, Markdown agent, Markdown mode file); the rest, read
//! lossily as UTF-8, is analysed. A crash is any panic in the analysis, or a broken invariant:
//!
//! - every span (diagnostic, related location in the same file, fix edit, agent declaration,
//!   agent reference) lies within the text and on char boundaries;
//! - a diagnostic's start converts to a line/column (UTF-16, UTF-32, UTF-8) and back to the same
//!   offset, give or take the two documented moves (an offset inside a CRLF pair goes to the
//!   pair's start; offset 0 of a file with a BOM is the first column after the BOM);
//! - a fix's edits do not overlap, and applying it gives a text that analyses without panicking;
//!   a safe fix on a file that parsed leaves no syntax error and sets no key twice;
//! - `fix_all` gives a text that analyses without panicking, and parses if the input did.
#![no_main]

use agent_lsp::analysis::diagnostic::apply;
use agent_lsp::analysis::opencode::{FileAnalysis, FileKind, analyze, fix_all};
use agent_lsp::analysis::{Code, Encoding, LineIndex, Location, Span};
use libfuzzer_sys::fuzz_target;

fn check_span(text: &str, span: Span, what: &str) {
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

fn round_trip(index: &LineIndex, text: &str, offset: usize) {
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

fn has(a: &FileAnalysis, code: Code) -> bool {
    a.diagnostics.iter().any(|d| d.code == code)
}

/// All span invariants of one analysis; returns it for the fix checks.
fn checked(kind: &FileKind, text: &str) -> FileAnalysis {
    let analysis = analyze(kind, text);
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
    for decl in &analysis.agents {
        check_span(text, decl.span, "agent declaration");
    }
    for r in &analysis.refs {
        check_span(text, r.span, "agent reference");
    }
    analysis
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let kind = match selector % 3 {
        0 => FileKind::Config,
        1 => FileKind::Agent { name: "fuzz".into() },
        _ => FileKind::Mode { name: "fuzz".into() },
    };
    let text = String::from_utf8_lossy(rest);
    let analysis = checked(&kind, &text);
    let parsed = !has(&analysis, Code::SyntaxError);
    let no_duplicates = !has(&analysis, Code::DuplicateKey);
    for d in &analysis.diagnostics {
        let Some(fix) = &d.fix else { continue };
        let out = apply(&text, &fix.edits);
        let after = checked(&kind, &out);
        if fix.safe && parsed {
            assert!(
                !has(&after, Code::SyntaxError),
                "safe fix {:?} broke the syntax: {out:?}",
                fix.title
            );
        }
        // On a file that does not parse, fixes are computed from the partial tree: only the
        // absence of panics is checked there.
        if fix.safe && parsed && no_duplicates {
            assert!(
                !has(&after, Code::DuplicateKey),
                "safe fix {:?} set a key twice: {out:?}",
                fix.title
            );
        }
    }
    let (fixed, titles) = fix_all(&kind, &text);
    let after = checked(&kind, &fixed);
    if parsed {
        assert!(
            !has(&after, Code::SyntaxError),
            "fix_all {titles:?} broke the syntax: {fixed:?}"
        );
    }
});
