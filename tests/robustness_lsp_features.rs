//! Completion and navigation never panic: every position of every file of the bundled
//! workspace, and of truncated (half-typed) copies of them.

use agent_lsp::analysis::opencode::complete::{Known, complete};
use agent_lsp::analysis::opencode::{FileKind, analyze};
use agent_lsp::workspace::{Options, Workspace};

#[test]
fn completion_at_every_position_of_every_prefix() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace");
    let ws = Workspace::load(&[root], &Options::isolated()).unwrap();
    let known = Known {
        agents: vec![("a".into(), "primary".into(), String::new())],
        models: vec!["p/m".into()],
    };
    let mut calls = 0;
    for f in &ws.files {
        let text = &f.text;
        // The whole file at every position, and every prefix cut at a line end (a file being
        // typed) at its end.
        for (at, _) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
            let items = complete(&f.kind, text, at, &known);
            for it in &items {
                assert!(it.replace.end as usize <= text.len() && text.is_char_boundary(it.replace.start as usize));
            }
            calls += 1;
        }
        for (cut, _) in text.match_indices('\n') {
            let prefix = &text[..cut];
            let _ = complete(&f.kind, prefix, prefix.len(), &known);
            let _ = analyze(&f.kind, prefix);
            calls += 1;
        }
    }
    assert!(calls > 1000);
    // Kinds against the wrong text.
    for text in [
        "{\"a\": \"",
        "---\nmode: ",
        "---\n  - x: ",
        "{\"agent\": {\"x\": {\"permission\": {\"task\": {\"",
    ] {
        for kind in [FileKind::Config, FileKind::Agent { name: "x".into() }] {
            for at in 0..=text.len() {
                let _ = complete(&kind, text, at, &known);
            }
        }
    }
}
