//! The language server's document model, driven in-process through `agent_lsp::lsp::state::State`
//! (what the `didOpen`/`didChange`/`didClose`, hover, completion, definition, references,
//! rename, document-symbol and fix-all handlers call), against a plain `String` model.
//!
//! Input: the first byte picks the position encoding (even UTF-16, odd UTF-8, as negotiated);
//! the rest is a sequence of operations. Each operation is one byte `op` (`op & 7` the kind,
//! `(op >> 3) & 3` the document slot, `op >> 5` an argument), then its arguments: a position is
//! two bytes (line, column), a text runs to the next NUL byte or the end of the input.
//!
//! | `op & 7` | operation | arguments |
//! |---|---|---|
//! | 0 | `didOpen` (re-open replaces) | text |
//! | 1 | `didChange`, `1 + (op >> 5) % 3` incremental edits | per edit: start, end, text |
//! | 2 | `didChange`, full replacement | text |
//! | 3 | hover | position |
//! | 4 | completion | position |
//! | 5 | definition, references, prepareRename | position |
//! | 6 | `source.fixAll` edit, document symbols | |
//! | 7 | `didClose` | |
//!
//! Slots: 0 `opencode.json` and 1 `.opencode/agents/reviewer.md` of a workspace folder that does
//! not exist on disk (so nothing is read from disk), 2 an untitled Markdown document, 3 a Claude
//! Code agent `.claude/agents/helper.md` of the same workspace folder. A position's line byte is `line % line_count` (`0xFF`: the line
//! count itself, past the last line); its column byte is the column (`0xC0..=0xFE`: that many
//! units before the line end, minus `0xC0`; `0xFF`: `u32::MAX`). Positions are computed on the
//! model's text, as a client computes them on its buffer.
//!
//! A crash is any panic, or:
//!
//! - after every operation, each open document's text in the server equals the model's: the
//!   same edits applied to a `String`, with positions resolved as the LSP specification says
//!   (lines end at `\n`, `\r\n` or `\r`; a column past the line end is the line end) plus the
//!   server's documented choices (a column inside a character is that character's start; a
//!   reversed range is swapped; the position just past the last line, column 0, is the end of
//!   the text; any other position past the last line makes the server re-read the file from disk,
//!   here: empty, and drop the rest of the notification);
//! - every range the server returns (diagnostics, related locations, hover, completion edits,
//!   definitions, references, rename range, document symbols, the fix-all edit) is a valid
//!   position in its document: a line that exists, a column within it on a character boundary;
//! - the fix-all edit applied to the text gives `analysis::fix_all`'s text;
//! - only open documents have diagnostics (closing clears them);
//! - at the end, the diagnostics last published for each document equal those a fresh server
//!   publishes when the documents are opened with their final texts (as sets).
//!
//! A `{file:...}` substitution in the workspace config makes the server read that file; a
//! sequence stops before a config text that contains `{file:`, so that the fuzzer never reads
//! `/dev/zero` or the like.
#![no_main]

use std::str::FromStr;

use agent_lsp::analysis::Encoding;
use agent_lsp::analysis::opencode::FileKind as OcKind;
use agent_lsp::analysis::{FileKind, claude, fix_all};
use agent_lsp::lsp::settings::{GlobalConfig, Settings};
use agent_lsp::lsp::state::{Publish, State};
use libfuzzer_sys::fuzz_target;
use tower_lsp_server::ls_types::{
    Diagnostic, DocumentSymbol, Location, Position, Range, TextDocumentContentChangeEvent, Uri,
};

const ROOT: &str = "/nonexistent-agent-lsp-fuzz/project";
const SLOTS: usize = 4;

struct Slot {
    uri: &'static str,
    lang: &'static str,
    /// In the workspace folder (hover and navigation work there).
    workspace: bool,
}

const SLOT: [Slot; SLOTS] = [
    Slot {
        uri: "file:///nonexistent-agent-lsp-fuzz/project/opencode.json",
        lang: "json",
        workspace: true,
    },
    Slot {
        uri: "file:///nonexistent-agent-lsp-fuzz/project/.opencode/agents/reviewer.md",
        lang: "markdown",
        workspace: true,
    },
    Slot {
        uri: "untitled:Untitled-1",
        lang: "markdown",
        workspace: false,
    },
    Slot {
        uri: "file:///nonexistent-agent-lsp-fuzz/project/.claude/agents/helper.md",
        lang: "markdown",
        workspace: true,
    },
];

fn uri(slot: usize) -> Uri {
    Uri::from_str(SLOT[slot].uri).expect("valid URI")
}

/// The kind the server gives a document, from what it was opened with (`None`: not analysed).
fn kind_of(slot: usize, opened_with: &str) -> Option<FileKind> {
    match slot {
        0 => Some(OcKind::Config.into()),
        1 => Some(
            OcKind::Agent {
                name: "reviewer".into(),
            }
            .into(),
        ),
        3 => Some(claude::AgentFile::project("helper").into()),
        _ => opened_with.trim_start_matches('\u{feff}').starts_with("---").then(|| {
            OcKind::Agent {
                name: "untitled:Untitled-1".into(),
            }
            .into()
        }),
    }
}

// ---------------------------------------------------------------------------------------------
// The model: positions on a plain string, as the LSP specification defines them.

/// Each line's start and the end of its content (before the line break); lines end at `\n`,
/// `\r\n` or `\r`, so a text with n line breaks has n + 1 lines.
fn lines(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                out.push((start, i));
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push((start, i));
                i += if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                start = i;
            }
            _ => i += 1,
        }
    }
    out.push((start, b.len()));
    out
}

fn width(c: char, enc: Encoding) -> usize {
    match enc {
        Encoding::Utf8 => c.len_utf8(),
        Encoding::Utf16 => c.len_utf16(),
        Encoding::Utf32 => 1,
    }
}

fn line_width(text: &str, (start, end): (usize, usize), enc: Encoding) -> usize {
    text[start..end].chars().map(|c| width(c, enc)).sum()
}

/// The byte offset a client position stands for in an edit; `None` past the last line.
fn edit_offset(text: &str, pos: Position, enc: Encoding) -> Option<usize> {
    let ls = lines(text);
    let line = pos.line as usize;
    if line >= ls.len() {
        return (line == ls.len() && pos.character == 0).then_some(text.len());
    }
    let (start, end) = ls[line];
    let want = pos.character as usize;
    let mut units = 0;
    for (i, c) in text[start..end].char_indices() {
        let w = width(c, enc);
        if units + w > want {
            return Some(start + i);
        }
        units += w;
    }
    Some(end)
}

/// The byte offset of a position the server sent, which must be exact: an existing line, a
/// column within it on a character boundary. `ls` is `lines(text)`.
fn exact_offset(text: &str, ls: &[(usize, usize)], pos: Position, enc: Encoding) -> Option<usize> {
    let (start, end) = *ls.get(pos.line as usize)?;
    let want = pos.character as usize;
    let mut units = 0;
    if want == 0 {
        return Some(start);
    }
    for (i, c) in text[start..end].char_indices() {
        units += width(c, enc);
        if units == want {
            return Some(start + i + c.len_utf8());
        }
        if units > want {
            return None;
        }
    }
    None
}

/// A text with its lines, to check the ranges the server sends.
struct Lined<'a> {
    text: &'a str,
    lines: Vec<(usize, usize)>,
}

impl Lined<'_> {
    fn new(text: &str) -> Lined<'_> {
        Lined {
            text,
            lines: lines(text),
        }
    }

    /// The byte range of a range the server sent; fails unless both ends are exact positions
    /// in order.
    fn range(&self, range: Range, enc: Encoding, what: &str) -> (usize, usize) {
        let start = exact_offset(self.text, &self.lines, range.start, enc);
        let end = exact_offset(self.text, &self.lines, range.end, enc);
        match (start, end) {
            (Some(s), Some(e)) if s <= e => (s, e),
            _ => panic!(
                "{what}: invalid range {range:?} ({start:?}..{end:?}, {enc:?}) in {:?}",
                self.text
            ),
        }
    }
}

fn check_range(text: &str, range: Range, enc: Encoding, what: &str) -> (usize, usize) {
    Lined::new(text).range(range, enc, what)
}

/// Apply one change to the model; `Err` for a position past the last line.
fn apply(text: &mut String, change: &TextDocumentContentChangeEvent, enc: Encoding) -> Result<(), ()> {
    let Some(range) = change.range else {
        *text = change.text.clone();
        return Ok(());
    };
    let s = edit_offset(text, range.start, enc).ok_or(())?;
    let e = edit_offset(text, range.end, enc).ok_or(())?;
    text.replace_range(s.min(e)..s.max(e), &change.text);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Decoding the input.

struct Input<'a> {
    data: &'a [u8],
}

impl Input<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.data.split_first()?;
        self.data = rest;
        Some(b)
    }

    fn text(&mut self) -> String {
        let end = self.data.iter().position(|&b| b == 0).unwrap_or(self.data.len());
        let text = String::from_utf8_lossy(&self.data[..end]).into_owned();
        self.data = &self.data[(end + 1).min(self.data.len())..];
        text
    }

    fn position(&mut self, text: &str, enc: Encoding) -> Option<Position> {
        let (lb, cb) = (self.byte()?, self.byte()?);
        let ls = lines(text);
        let line = if lb == 0xFF { ls.len() } else { lb as usize % ls.len() };
        let w = ls.get(line).map_or(0, |&l| line_width(text, l, enc));
        let col = match cb {
            0xFF => u32::MAX,
            0xC0.. => w.saturating_sub((cb - 0xC0) as usize) as u32,
            _ => cb as u32,
        };
        Some(Position::new(line as u32, col))
    }
}

// ---------------------------------------------------------------------------------------------
// The session.

#[derive(Clone)]
struct Doc {
    text: String,
    opened_with: String,
}

struct Session {
    state: State,
    enc: Encoding,
    docs: [Option<Doc>; SLOTS],
    /// Slots in the order they were last opened.
    order: Vec<usize>,
    /// The diagnostics last published per slot.
    published: [Option<Vec<Diagnostic>>; SLOTS],
    version: i32,
}

fn settings() -> Settings {
    Settings {
        global: GlobalConfig::Off,
        ..Settings::default()
    }
}

fn new_state(enc: Encoding) -> State {
    State::new(vec![ROOT.into()], enc, settings())
}

fn slot_of(uri: &Uri) -> Option<usize> {
    SLOT.iter().position(|s| s.uri == uri.as_str())
}

/// Keep the last publish per slot; fail on a publish for a document the session never had.
fn record(published: &mut [Option<Vec<Diagnostic>>; SLOTS], out: Vec<Publish>) {
    for p in out {
        let slot = slot_of(&p.uri).unwrap_or_else(|| panic!("publish for an unknown document {:?}", p.uri));
        published[slot] = Some(p.diagnostics);
    }
}

/// Diagnostics as a set: serialised and sorted.
fn normalized(diags: &[Diagnostic]) -> Vec<String> {
    let mut v: Vec<String> = diags
        .iter()
        .map(|d| serde_json::to_string(d).expect("serialisable"))
        .collect();
    v.sort();
    v
}

impl Session {
    fn text_of(&self, slot: usize) -> Option<&str> {
        self.docs[slot].as_ref().map(|d| d.text.as_str())
    }

    fn lined(&self) -> Vec<Option<Lined<'_>>> {
        (0..SLOTS).map(|slot| self.text_of(slot).map(Lined::new)).collect()
    }

    fn check_location(&self, lined: &[Option<Lined>], loc: &Location, what: &str) {
        let slot = slot_of(&loc.uri).unwrap_or_else(|| panic!("{what}: location in an unknown document {:?}", loc.uri));
        let text = lined[slot]
            .as_ref()
            .unwrap_or_else(|| panic!("{what}: location in a closed document {:?}", loc.uri));
        text.range(loc.range, self.enc, what);
    }

    fn check_symbols(&self, text: &Lined, symbols: &[DocumentSymbol]) {
        for s in symbols {
            text.range(s.range, self.enc, "document symbol");
            text.range(s.selection_range, self.enc, "document symbol selection");
            self.check_symbols(text, s.children.as_deref().unwrap_or_default());
        }
    }

    /// After every operation: texts agree, published ranges are valid, closed documents have
    /// no diagnostics.
    fn check(&mut self, out: Vec<Publish>, what: &str) {
        let lined = self.lined();
        for p in &out {
            let slot = slot_of(&p.uri).unwrap_or_else(|| panic!("{what}: publish for an unknown document {:?}", p.uri));
            let Some(text) = &lined[slot] else {
                assert!(
                    p.diagnostics.is_empty(),
                    "{what}: diagnostics for closed document {:?}: {:?}",
                    p.uri,
                    p.diagnostics
                );
                continue;
            };
            for d in &p.diagnostics {
                text.range(d.range, self.enc, &format!("{what}: diagnostic {:?}", d.message));
                for r in d.related_information.iter().flatten() {
                    self.check_location(
                        &lined,
                        &r.location,
                        &format!("{what}: related location of {:?}", d.message),
                    );
                }
            }
        }
        drop(lined);
        record(&mut self.published, out);
        for slot in 0..SLOTS {
            let server = self.state.text(&uri(slot));
            assert_eq!(
                server.as_deref(),
                self.text_of(slot),
                "{what}: the server's text of slot {slot} differs from the model's"
            );
        }
    }

    fn open(&mut self, slot: usize, text: String) {
        self.version += 1;
        let out = self.state.open(uri(slot), SLOT[slot].lang, self.version, text.clone());
        self.docs[slot] = Some(Doc {
            text: text.clone(),
            opened_with: text,
        });
        self.order.retain(|&s| s != slot);
        self.order.push(slot);
        self.check(out, "didOpen");
    }

    fn change(&mut self, slot: usize, changes: Vec<TextDocumentContentChangeEvent>, new_text: String) {
        self.version += 1;
        let out = self.state.change(&uri(slot), self.version, changes);
        if let Some(doc) = &mut self.docs[slot] {
            doc.text = new_text;
        }
        self.check(out, "didChange");
    }

    fn close(&mut self, slot: usize) {
        let out = self.state.close(&uri(slot));
        self.docs[slot] = None;
        self.order.retain(|&s| s != slot);
        self.check(out, "didClose");
    }

    fn queries(&mut self, slot: usize, kind: u8, pos: Position) {
        let u = uri(slot);
        let enc = self.enc;
        let text = self.text_of(slot).map(str::to_string);
        let need = |what: &str| -> String {
            text.clone()
                .unwrap_or_else(|| panic!("{what} answered for a closed document"))
        };
        match kind {
            3 => {
                if let Some(h) = self.state.hover(&u, pos)
                    && let Some(r) = h.range
                {
                    check_range(&need("hover"), r, enc, "hover range");
                }
            }
            4 => {
                for item in self.state.completion(&u, pos).unwrap_or_default() {
                    match &item.text_edit {
                        Some(tower_lsp_server::ls_types::CompletionTextEdit::Edit(e)) => {
                            check_range(
                                &need("completion"),
                                e.range,
                                enc,
                                &format!("completion {:?}", item.label),
                            );
                        }
                        Some(other) => panic!("unexpected completion edit {other:?}"),
                        None => {}
                    }
                }
            }
            _ => {
                let definitions = self.state.definition(&u, pos).unwrap_or_default();
                let references = self.state.references(&u, pos, true).unwrap_or_default();
                let lined = self.lined();
                for loc in &definitions {
                    self.check_location(&lined, loc, "definition");
                }
                for loc in &references {
                    self.check_location(&lined, loc, "reference");
                }
                if let Ok(Some(r)) = self.state.prepare_rename(&u, pos) {
                    check_range(&need("prepareRename"), r, enc, "prepareRename range");
                }
            }
        }
    }

    fn fix_all(&mut self, slot: usize) {
        let u = uri(slot);
        let edit = self.state.fix_all_edit(&u);
        if let Some(symbols) = self.state.document_symbols(&u) {
            let text = self.text_of(slot).expect("symbols of a closed document");
            self.check_symbols(&Lined::new(text), &symbols);
        }
        let Some(doc) = &self.docs[slot] else {
            assert!(edit.is_none(), "fix-all edit for a closed document: {edit:?}");
            return;
        };
        let expected = kind_of(slot, &doc.opened_with).and_then(|kind| {
            let (fixed, titles) = fix_all(&kind, &doc.text);
            (!titles.is_empty() && fixed != doc.text).then_some(fixed)
        });
        match (edit, expected) {
            (None, None) => {}
            (Some(e), Some(fixed)) => {
                let (s, end) = check_range(&doc.text, e.range, self.enc, "fix-all edit");
                let mut got = doc.text.clone();
                got.replace_range(s..end, &e.new_text);
                assert_eq!(got, fixed, "the fix-all edit {e:?} does not give fix_all's text");
            }
            (edit, expected) => panic!("fix-all edit {edit:?}, fix_all gives {expected:?}"),
        }
    }

    /// The diagnostics last published equal a fresh server's for the final texts.
    fn finish(self) {
        let mut fresh = new_state(self.enc);
        let mut published: [Option<Vec<Diagnostic>>; SLOTS] = Default::default();
        for &slot in &self.order {
            let doc = self.docs[slot].as_ref().expect("open");
            // Open with the final text, unless the text at opening decided the kind differently
            // (an untitled Markdown document is an agent when it opens with `---`).
            let direct = kind_of(slot, &doc.opened_with) == kind_of(slot, &doc.text);
            let first = if direct { &doc.text } else { &doc.opened_with };
            let out = fresh.open(uri(slot), SLOT[slot].lang, 1, first.clone());
            record(&mut published, out);
            if *first != doc.text {
                let full = TextDocumentContentChangeEvent {
                    range: None,
                    range_length: None,
                    text: doc.text.clone(),
                };
                let out = fresh.change(&uri(slot), 2, vec![full]);
                record(&mut published, out);
            }
        }
        for (slot, theirs) in published.iter().enumerate() {
            let ours = self.published[slot].as_deref().unwrap_or_default();
            if self.docs[slot].is_none() {
                assert!(ours.is_empty(), "closed slot {slot} kept diagnostics {ours:?}");
                continue;
            }
            let theirs = theirs.as_deref().unwrap_or_default();
            assert_eq!(
                normalized(ours),
                normalized(theirs),
                "slot {slot}: the diagnostics published after the edits differ from a fresh analysis of {:?}",
                self.text_of(slot)
            );
        }
    }
}

/// Would the server read a file for this text (a `{file:...}` in the workspace config)?
fn reads_files(slot: usize, text: &str) -> bool {
    SLOT[slot].workspace && slot == 0 && text.contains("{file:")
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input { data };
    let Some(first) = input.byte() else { return };
    let enc = if first & 1 == 0 {
        Encoding::Utf16
    } else {
        Encoding::Utf8
    };
    let mut s = Session {
        state: new_state(enc),
        enc,
        docs: Default::default(),
        order: Vec::new(),
        published: Default::default(),
        version: 0,
    };
    while let Some(op) = input.byte() {
        let slot = ((op >> 3) & 3) as usize;
        let arg = op >> 5;
        match op & 7 {
            0 => {
                let text = input.text();
                if reads_files(slot, &text) {
                    break;
                }
                s.open(slot, text);
            }
            kind @ (1 | 2) => {
                let current = s.text_of(slot).unwrap_or_default().to_string();
                // The client's view: positions are computed on it, edit after edit.
                let mut client = current.clone();
                let mut changes = Vec::new();
                let count = if kind == 1 { 1 + arg % 3 } else { 1 };
                for _ in 0..count {
                    let range = if kind == 1 {
                        let (Some(a), Some(b)) = (input.position(&client, enc), input.position(&client, enc)) else {
                            break;
                        };
                        Some(Range::new(a, b))
                    } else {
                        None
                    };
                    let change = TextDocumentContentChangeEvent {
                        range,
                        range_length: None,
                        text: input.text(),
                    };
                    let _ = apply(&mut client, &change, enc);
                    changes.push(change);
                }
                if changes.is_empty() {
                    break;
                }
                // The server's semantics: a position past the last line re-reads the document
                // from disk (nothing there: empty) and drops the rest of the notification.
                let mut model = current;
                for c in &changes {
                    if apply(&mut model, c, enc).is_err() {
                        model.clear();
                        break;
                    }
                }
                if reads_files(slot, &model) {
                    break;
                }
                s.change(slot, changes, model);
            }
            kind @ 3..=5 => {
                let text = s.text_of(slot).unwrap_or_default().to_string();
                let Some(pos) = input.position(&text, enc) else { break };
                s.queries(slot, kind, pos);
            }
            6 => s.fix_all(slot),
            _ => s.close(slot),
        }
    }
    s.finish();
});
