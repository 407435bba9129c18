//! Completion and navigation never fail: the real server (over LSP, through the client of
//! `lsp_support`) is asked for hover, definition, references (with and without the
//! declaration) and completion at every position of every opencode file of the bundled
//! workspace (every position of a line with non-ASCII text, a dense sample of the others; see
//! [`positions`]), in UTF-16 and, on the files with non-ASCII text, in UTF-8; for the document
//! symbols of each file; and at the end of every truncated (half-typed) copy of them. Every
//! answer must be a result, never an error, and every range in it must lie inside the text it
//! points into (on character boundaries, start before end); hover ranges and completion edits
//! must contain the position asked about, symbols' selection ranges their ranges. The core
//! completion is also run at every position of every prefix.

mod lsp_support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use agent_lsp::analysis::opencode::FileKind;
use agent_lsp::analysis::opencode::complete::{Known, complete};
use agent_lsp::workspace::{Options, Workspace};
use lsp_support::*;
use serde_json::{Value, json};

fn test_workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test-workspace")
        .canonicalize()
        .unwrap()
}

/// Completion for a file of any dialect.
fn complete_any(
    kind: &agent_lsp::analysis::FileKind,
    text: &str,
    at: usize,
    known: &Known,
) -> Vec<agent_lsp::analysis::opencode::complete::Item> {
    match kind {
        agent_lsp::analysis::FileKind::Opencode(k) => complete(k, text, at, known),
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::Agent(_)) => {
            let claude = agent_lsp::analysis::claude::complete::Known {
                agents: vec![("helper".into(), "d".into())],
                mcp_servers: vec!["mcp__github".into()],
                models: vec!["claude-opus-5".into()],
            };
            agent_lsp::analysis::claude::complete::complete(text, at, &claude)
        }
        agent_lsp::analysis::FileKind::Skill(_) => agent_lsp::analysis::complete_skill(text, at),
        agent_lsp::analysis::FileKind::Codex(k) => {
            agent_lsp::analysis::codex::editor::complete(text, at, *k == agent_lsp::analysis::codex::FileKind::Agent)
        }
        agent_lsp::analysis::FileKind::Gemini(_) => agent_lsp::analysis::gemini::editor::complete(text, at),
        agent_lsp::analysis::FileKind::ProjectFile => {
            agent_lsp::analysis::project_file::complete(text, at, agent_lsp::analysis::policy_vocabulary())
        }
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::Manifest(k)) => {
            agent_lsp::analysis::claude::plugin::complete(*k, text, at)
        }
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::PluginHooks) => {
            agent_lsp::analysis::claude::plugin::hooks_file::complete(text, at)
        }
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::Settings(_)) => {
            agent_lsp::analysis::claude::settings::complete(text, at, &["mcp__github".into()])
        }
        // Rules of `.claude/rules/` complete their `paths`; other memory files offer nothing.
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::Memory(
            agent_lsp::analysis::claude::memory::MemoryFile::Rule,
        )) => agent_lsp::analysis::claude::rules::complete(text, at),
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::Memory(_)) => Vec::new(),
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::OutputStyle(_)) => {
            agent_lsp::analysis::claude::output_style::complete(text, at)
        }
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::PluginServers(k)) => {
            agent_lsp::analysis::claude::plugin::servers_file::complete(*k, text, at)
        }
        agent_lsp::analysis::FileKind::Claude(agent_lsp::analysis::claude::FileKind::McpJson) => {
            agent_lsp::analysis::claude::mcp::complete(text, at)
        }
        agent_lsp::analysis::FileKind::Command(k) => agent_lsp::analysis::complete_command(
            k.runtime,
            text,
            at,
            &[("rev".into(), "subagent".into())],
            &["a/b".into()],
        ),
        agent_lsp::analysis::FileKind::Zuno(k) => {
            let zuno = agent_lsp::analysis::zuno::complete::Known {
                agents: vec![("helper".into(), "subagent".into(), "d".into())],
                skills: vec!["codemap".into()],
            };
            let config = *k == agent_lsp::analysis::zuno::FileKind::Config;
            agent_lsp::analysis::zuno::complete::complete(config, text, at, &zuno)
        }
        agent_lsp::analysis::FileKind::Copilot(k) => {
            let copilot = agent_lsp::analysis::copilot::complete::Known {
                agents: vec![("helper".into(), "d".into())],
                mcp_servers: vec!["github".into()],
            };
            agent_lsp::analysis::copilot::complete::complete(k, text, at, &copilot)
        }
    }
}

#[test]
fn completion_at_every_position_of_every_prefix() {
    let ws = Workspace::load(&[test_workspace()], &Options::isolated()).unwrap();
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
            let items = complete_any(&f.kind, text, at, &known);
            for it in &items {
                assert!(it.replace.end as usize <= text.len() && text.is_char_boundary(it.replace.start as usize));
            }
            calls += 1;
        }
        for (cut, _) in text.match_indices('\n') {
            let prefix = &text[..cut];
            let _ = complete_any(&f.kind, prefix, prefix.len(), &known);
            let _ = agent_lsp::analysis::analyze(&f.kind, prefix);
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

// ---------------------------------------------------------------------------------------------
// Over LSP
// ---------------------------------------------------------------------------------------------

/// What the probes found, to check that they exercised something.
#[derive(Default, Debug)]
struct Seen {
    requests: usize,
    hovers: usize,
    definitions: usize,
    references: usize,
    completions: usize,
    symbols: usize,
}

/// The texts of the files a location may point into: the probed document (its buffer text) or
/// a file of the workspace on disk.
struct Texts {
    root: PathBuf,
    open: HashMap<String, String>,
}

impl Texts {
    fn of(&self, uri: &str) -> String {
        if let Some(t) = self.open.get(uri) {
            return t.clone();
        }
        let prefix = uri_of(&self.root);
        assert!(uri.starts_with(&prefix), "a location outside the workspace: {uri}");
        let path = self.root.join(uri[prefix.len()..].trim_start_matches('/'));
        assert_eq!(uri_of(&path), uri, "a URI that is not a workspace path");
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("a location in {uri}, which cannot be read: {e}"))
    }
}

fn pos_of(p: &Value) -> (u64, u64) {
    (p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap())
}

/// `range` is a valid range of `text`; the byte offsets.
fn valid_range(text: &str, range: &Value, enc: Enc, what: &str) -> (usize, usize) {
    offsets_of_range(text, range, enc).unwrap_or_else(|| panic!("{what}: invalid range {range} in {text:?}"))
}

/// `pos` (a valid position) lies inside `range` (ends included).
fn contains(range: &Value, pos: &Value) -> bool {
    pos_of(&range["start"]) <= pos_of(pos) && pos_of(pos) <= pos_of(&range["end"])
}

fn check_locations(r: &Value, texts: &Texts, enc: Enc, what: &str) -> usize {
    if r.is_null() {
        return 0;
    }
    let list = r
        .as_array()
        .unwrap_or_else(|| panic!("{what}: not a list of locations: {r}"));
    for l in list {
        let uri = l["uri"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: a location without a uri: {l}"));
        valid_range(&texts.of(uri), &l["range"], enc, what);
    }
    list.len()
}

fn check_symbols(symbols: &[Value], text: &str, enc: Enc, parent: Option<(usize, usize)>, what: &str) -> usize {
    let mut n = 0;
    for sym in symbols {
        assert!(
            sym["name"].as_str().is_some_and(|n| !n.is_empty()),
            "{what}: a symbol without a name: {sym}"
        );
        let r = valid_range(text, &sym["range"], enc, what);
        let sel = valid_range(text, &sym["selectionRange"], enc, what);
        assert!(
            r.0 <= sel.0 && sel.1 <= r.1,
            "{what}: selectionRange outside range: {sym}"
        );
        if let Some(p) = parent {
            assert!(p.0 <= r.0 && r.1 <= p.1, "{what}: a child outside its parent: {sym}");
        }
        n += 1 + check_symbols(
            sym["children"].as_array().map_or(&[][..], Vec::as_slice),
            text,
            enc,
            Some(r),
            what,
        );
    }
    n
}

fn ok(s: &mut Server, method: &str, params: Value, seen: &mut Seen) -> Value {
    seen.requests += 1;
    s.request(method, params.clone())
        .unwrap_or_else(|e| panic!("{method} {params} answered with an error: {e}"))
}

const PROBES: [&str; 5] = [
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/references",
    "textDocument/completion",
];

/// Hover, definition, references (without and with the declaration) and completion at each of
/// `positions` of the open document `uri` whose text is `text`, sent in batches; every answer
/// is checked.
fn probe(s: &mut Server, uri: &str, text: &str, positions: &[Value], texts: &Texts, seen: &mut Seen) {
    for batch in positions.chunks(200) {
        let mut requests = Vec::new();
        for pos in batch {
            let at = json!({ "textDocument": { "uri": uri }, "position": pos });
            for (i, method) in PROBES.iter().enumerate() {
                let mut params = at.clone();
                if i == 2 || i == 3 {
                    params["context"] = json!({ "includeDeclaration": i == 3 });
                }
                requests.push((*method, params));
            }
        }
        let replies = s.requests(&requests);
        seen.requests += replies.len();
        for (pos, replies) in batch.iter().zip(replies.chunks(PROBES.len())) {
            let replies: Vec<Value> = replies
                .iter()
                .zip(PROBES)
                .map(|(r, m)| {
                    r.clone()
                        .unwrap_or_else(|e| panic!("{m} at {pos} of {uri} answered with an error: {e}"))
                })
                .collect();
            check_probe(uri, text, pos, s.enc, &replies, texts, seen);
        }
    }
}

fn check_probe(uri: &str, text: &str, pos: &Value, enc: Enc, replies: &[Value], texts: &Texts, seen: &mut Seen) {
    let what = |m: &str| format!("{m} at {pos} of {uri}");
    // A position past the end of its line (or of the text) is clamped, not an error; only the
    // positions inside the text are checked to lie inside the ranges of the answers.
    let valid = offset_at(text, pos_of(pos).0 as u32, pos_of(pos).1 as u32, enc).is_some();

    let h = &replies[0];
    if !h.is_null() {
        assert_eq!(h["contents"]["kind"], "markdown", "{}: {h}", what("hover"));
        assert!(
            h["contents"]["value"].as_str().is_some_and(|v| !v.trim().is_empty()),
            "{}: empty hover {h}",
            what("hover")
        );
        valid_range(text, &h["range"], enc, &what("hover"));
        if valid {
            assert!(
                contains(&h["range"], pos),
                "{}: the range misses the position: {h}",
                what("hover")
            );
        }
        seen.hovers += 1;
    }

    if check_locations(&replies[1], texts, enc, &what("definition")) > 0 {
        seen.definitions += 1;
    }

    let mut refs = Vec::new();
    for r in &replies[2..4] {
        check_locations(r, texts, enc, &what("references"));
        refs.push(r.as_array().cloned().unwrap_or_default());
    }
    // The references without the declaration are among those with it.
    for l in &refs[0] {
        assert!(
            refs[1].contains(l),
            "{}: {l} only without the declaration",
            what("references")
        );
    }
    if !refs[1].is_empty() {
        seen.references += 1;
    }

    let c = &replies[4];
    if !c.is_null() {
        let items = c
            .as_array()
            .unwrap_or_else(|| panic!("{}: not a list: {c}", what("completion")));
        for it in items {
            let what = what("completion");
            assert!(
                it["label"].as_str().is_some_and(|l| !l.is_empty()),
                "{what}: an item without a label: {it}"
            );
            let edit = &it["textEdit"];
            let range = &edit["range"];
            valid_range(text, range, enc, &what);
            assert_eq!(
                range["start"]["line"], range["end"]["line"],
                "{what}: a completion edit spans lines: {it}"
            );
            assert!(edit["newText"].is_string(), "{what}: {it}");
            if valid {
                assert!(
                    contains(range, pos),
                    "{what}: the edit does not contain the position: {it}"
                );
            }
        }
        if !items.is_empty() {
            seen.completions += 1;
        }
    }
}

/// The positions of `text` (in `enc` units) to probe: on a line with a non-ASCII character,
/// every character boundary (where the encodings differ and a range can split a character);
/// on other lines, a dense sample: the first two columns, every third column (shifted by one
/// on each line, so that across lines every column class is hit), the last character; on every
/// line its end and a column past it; and a line past the last.
fn positions(text: &str, enc: Enc) -> Vec<Value> {
    let mut out = Vec::new();
    let all = lines(text);
    for (n, &(start, end)) in all.iter().enumerate() {
        let line = &text[start..end];
        let every = !line.is_ascii();
        let last = line.chars().count().saturating_sub(1);
        let mut col = 0;
        for (i, c) in line.chars().enumerate() {
            if every || i < 2 || (i + n) % 3 == 0 || i == last {
                out.push(json!({ "line": n, "character": col }));
            }
            col += enc.units(c);
        }
        out.push(json!({ "line": n, "character": col }));
        out.push(json!({ "line": n, "character": col + 7 }));
    }
    out.push(json!({ "line": all.len() + 2, "character": 0 }));
    out
}

/// The opencode files of the bundled workspace, relative to it, with their text.
fn opencode_files(root: &Path) -> Vec<(String, String)> {
    let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
    let mut out: Vec<(String, String)> = ws
        .files
        .iter()
        .filter(|f| f.path.starts_with(root))
        .map(|f| {
            let rel = f.path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            (rel, f.text.clone())
        })
        .collect();
    out.sort();
    out
}

fn language_of(rel: &str) -> &'static str {
    if rel.ends_with(".md") { "markdown" } else { "json" }
}

/// Probe the files of the bundled workspace (with `only_non_ascii`, those with a non-ASCII
/// character: on ASCII text both encodings are the same numbers).
fn probe_every_file(enc: Enc, only_non_ascii: bool) -> Seen {
    let root = test_workspace();
    let mut files = opencode_files(&root);
    assert!(files.len() >= 20, "{files:?}");
    if only_non_ascii {
        files.retain(|(_, t)| !t.is_ascii());
    }
    assert!(
        files.iter().any(|(_, t)| t.chars().any(|c| c.len_utf16() == 2)),
        "some text has characters outside the BMP (surrogate pairs in UTF-16)"
    );
    let mut s = Server::start(&root, Setup::for_enc(enc));
    s.take_publishes();
    let mut seen = Seen::default();
    for (rel, text) in &files {
        let uri = uri_of(&root.join(rel));
        s.open(&uri, language_of(rel), 1, text);
        let texts = Texts {
            root: root.clone(),
            open: HashMap::from([(uri.clone(), text.clone())]),
        };
        probe(&mut s, &uri, text, &positions(text, enc), &texts, &mut seen);
        let r = ok(
            &mut s,
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
            &mut seen,
        );
        let symbols = r.as_array().unwrap_or_else(|| panic!("documentSymbol of {rel}: {r}"));
        seen.symbols += check_symbols(symbols, text, enc, None, &format!("documentSymbol of {rel}"));
        s.close(&uri);
        s.take_publishes();
    }
    // Each kind of answer came up many times (the workspace is full of agent names, keys and
    // values), so the range checks above checked something.
    eprintln!("{}: {seen:?}", enc.name());
    s.finish();
    seen
}

#[test]
fn lsp_features_at_every_position_utf16() {
    let seen = probe_every_file(Enc::Utf16, false);
    assert!(seen.hovers > 500, "{seen:?}");
    assert!(seen.definitions > 50, "{seen:?}");
    assert!(seen.references > 50, "{seen:?}");
    assert!(seen.completions > 1000, "{seen:?}");
    assert!(seen.symbols > 100, "{seen:?}");
}

#[test]
fn lsp_features_at_every_position_utf8() {
    let seen = probe_every_file(Enc::Utf8, true);
    assert!(seen.hovers > 100, "{seen:?}");
    assert!(seen.definitions > 10, "{seen:?}");
    assert!(seen.references > 10, "{seen:?}");
    assert!(seen.completions > 100, "{seen:?}");
    assert!(seen.symbols > 10, "{seen:?}");
}

/// Half-typed files: every prefix of every file cut at a line end (and in the middle of each
/// line), opened as the buffer of that file and probed at its end and on its last line.
#[test]
fn lsp_features_at_the_end_of_every_prefix() {
    let root = test_workspace();
    let enc = Enc::Utf16;
    let mut s = Server::start(&root, Setup::for_enc(enc));
    s.take_publishes();
    let mut seen = Seen::default();
    for (rel, text) in &opencode_files(&root) {
        let uri = uri_of(&root.join(rel));
        let mut version = 1;
        s.open(&uri, language_of(rel), version, "");
        let mut cuts: Vec<usize> = Vec::new();
        for &(start, end) in &lines(text) {
            let mid = (start..=start + (end - start) / 2)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap();
            cuts.extend([mid, end]);
        }
        for cut in cuts {
            let prefix = &text[..cut];
            version += 1;
            s.change_full(&uri, version, prefix);
            let texts = Texts {
                root: root.clone(),
                open: HashMap::from([(uri.clone(), prefix.to_string())]),
            };
            let (line, col) = line_col(prefix, prefix.len(), enc);
            let positions: Vec<Value> = [0, col / 2, col]
                .iter()
                .map(|c| json!({ "line": line, "character": c }))
                .collect();
            probe(&mut s, &uri, prefix, &positions, &texts, &mut seen);
            let r = ok(
                &mut s,
                "textDocument/documentSymbol",
                json!({ "textDocument": { "uri": uri } }),
                &mut seen,
            );
            seen.symbols += check_symbols(
                r.as_array().unwrap(),
                prefix,
                enc,
                None,
                &format!("documentSymbol of {rel}"),
            );
        }
        s.close(&uri);
        s.take_publishes();
    }
    eprintln!("prefixes: {seen:?}");
    assert!(seen.hovers > 100, "{seen:?}");
    assert!(seen.definitions > 50, "{seen:?}");
    assert!(seen.completions > 500, "{seen:?}");
    assert!(seen.symbols > 1000, "{seen:?}");
    s.finish();
}
