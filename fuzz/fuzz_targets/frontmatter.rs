//! Markdown agent files: the frontmatter split, opencode's reading and the analysis, without
//! fixes (cheap: tens of thousands of executions per second).
//!
//! The input, read lossily as UTF-8, is a Markdown agent file. A crash is any panic, or:
//!
//! - `frontmatter::split`: every span (opening and closing `---`, YAML, body, misplaced `---`)
//!   lies within the text and on char boundaries; the delimiters are `---`, the opening one at
//!   offset 0 (3 after a BOM), the closing one at a line start; the YAML lies between them and
//!   the body after them, running to the end of the text; without a frontmatter the body is the
//!   whole text (after a BOM);
//! - `markdown::read`: without settings (no frontmatter, or settings lost) the data is `{}`;
//!   the content is the body, or the whole file (without a BOM, which gray-matter strips) when
//!   the settings are lost;
//! - `markdown::analyze` (Markdown agent kind): the span invariants of the `analyze` target
//!   (diagnostics, related locations, fix edits, agent declarations within the text and on char
//!   boundaries; a diagnostic's start survives a `LineIndex` round trip in UTF-8/16/32 with the
//!   documented CRLF and BOM moves); its split is `split`'s, its reading is `read`'s.
#![no_main]

mod common;

use agent_lsp::analysis::opencode::FileKind;
use agent_lsp::analysis::opencode::markdown::{self, Reading};
use agent_lsp::analysis::syntax::frontmatter::split;
use agent_lsp::analysis::{analyze, claude};
use common::{check_analysis, check_span};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };

    let s = split(text);
    check_span(text, s.body, "body");
    assert_eq!(s.body.end as usize, text.len(), "the body runs to the end: {s:?}");
    if let Some(m) = s.misplaced_open {
        check_span(text, m, "misplaced `---`");
    }
    match &s.frontmatter {
        None => assert_eq!(
            s.body.start as usize, bom,
            "no frontmatter: the body is the file: {s:?}"
        ),
        Some(fm) => {
            check_span(text, fm.open, "opening `---`");
            check_span(text, fm.yaml, "YAML");
            assert_eq!(fm.open.start as usize, bom, "the opening `---` starts the file: {s:?}");
            assert_eq!(fm.open.text(text), "---", "{s:?}");
            assert!(fm.yaml.start >= fm.open.end, "YAML before the opening `---`: {s:?}");
            assert!(s.body.start >= fm.yaml.end, "body before the YAML ends: {s:?}");
            if let Some(close) = fm.close {
                check_span(text, close, "closing `---`");
                assert_eq!(close.text(text), "---", "{s:?}");
                assert_eq!(
                    text.as_bytes()[close.start as usize - 1],
                    b'\n',
                    "closing `---` mid-line: {s:?}"
                );
                assert!(fm.yaml.end <= close.start, "YAML past the closing `---`: {s:?}");
                assert!(s.body.start >= close.end, "body before the closing `---`: {s:?}");
            }
        }
    }

    let read = markdown::read(text);
    if read.reading.lost() {
        // gray-matter strips a byte order mark before anything else.
        let whole = text.strip_prefix('\u{feff}').unwrap_or(text);
        assert_eq!(read.content, whole, "settings lost: the content is the whole file");
    }
    if read.reading.lost() || read.reading == Reading::NoFrontmatter {
        assert!(
            read.data.as_object().is_some_and(|o| o.is_empty()),
            "{:?}: data should be empty, is {}",
            read.reading,
            read.data
        );
    }
    if !read.reading.lost() {
        assert_eq!(
            read.content,
            s.body.text(text),
            "{:?}: the content is the body",
            read.reading
        );
    }

    let kind = FileKind::Agent { name: "fuzz".into() };
    let analysis = analyze(&kind.into(), text);
    check_analysis(text, &analysis);
    assert_eq!(analysis.split(), Some(&s), "the analysis splits differently");
    assert_eq!(analysis.reading(), Some(read.reading), "the analysis reads differently");

    // The same text as a Claude Code agent: Claude's own block rules, both passes, the checks.
    let analysis = analyze(&claude::AgentFile::project("fuzz").into(), text);
    check_analysis(text, &analysis);
    let c = analysis.claude().expect("a Claude analysis");
    assert_eq!(
        c.reading.block,
        claude::read::read(text).block,
        "the analysis finds another block"
    );
});
