//! YAML (frontmatter) into the spanned tree, on `saphyr-parser`'s pull API.
//!
//! Why this parser: it gives a start and end span for every key and value, never expands aliases
//! itself, is iterative (no stack overflow on deep block nesting) and hands out every event that
//! precedes a syntax error, so a half-typed file still yields a partial tree.
//!
//! What is done here that the parser leaves to its caller:
//! - saphyr-parser counts offsets in Unicode scalars; they are turned into byte offsets.
//! - The document is read the way opencode's frontmatter reader reads it (gray-matter with
//!   js-yaml 3 `safeLoad`, a YAML 1.1 flavour), checked against the real library by
//!   `tests/yaml_differential.rs`:
//!   - plain scalars resolve as in js-yaml's `DEFAULT_SAFE_SCHEMA`: `yes` stays a string, `1:30`
//!     is the integer 90, `017` is octal 15, `~`/`null`/empty are null, a timestamp is a `Date`
//!     (here [`Value::Unknown`]);
//!   - explicit tags (`!!str`, `!!int`, `!!set`, `!!omap`, `!!pairs`, ...) resolve or fail as in
//!     js-yaml, and any other tag is an error ("unknown tag");
//!   - keys are turned into strings as JavaScript does (`~` is `"null"`, `[a, b]` is `"a,b"`, a
//!     map is `"[object Object]"`), and duplicates are found on those strings;
//!   - merge keys (`<<: *base`, plain only) merge mappings and fail on anything else;
//!   - what js-yaml rejects and saphyr accepts is an error too: non-printable characters in
//!     scalars, a NUL byte, an empty implicit key (`: x`), a tag or anchor on the first key of a
//!     block mapping, content after a `...` document end;
//!   - what js-yaml accepts and saphyr rejects is read as js-yaml reads it, by parsing again a
//!     normalised copy of the text (see [`normalise`]): tabs before block content count as no
//!     indentation, a tab may follow `:`, continuation lines of quoted scalars need no
//!     indentation, and a comment may follow a closing quote or bracket directly.
//!
//! [`parse_core`] reads the other flavour, YAML 1.2 with the core schema, the way Claude Code's
//! parser (Bun's built-in YAML) reads it (spec `claude-code.md` §7.3, first pass):
//! - plain scalars resolve by the core schema ([`resolve_core`]): `yes`/`on` and dates stay
//!   strings, `017` is 17, `0o17` is 15, no `_` separators, no sexagesimal numbers;
//! - duplicate keys are accepted (the last one wins in [`Map::get`]); they are still listed in
//!   [`Parsed::duplicates`], not as errors;
//! - an unknown tag is dropped (the node reads as if untagged); a core tag (`!!str`, `!!int`, ...)
//!   resolves, and falls back to the untagged reading when it cannot;
//! - `<<` is an ordinary key (no merge);
//! - several documents (`a: 1\n...\nb: 2`) make a list of them, as Bun returns them;
//! - saphyr's own errors are the errors (a tab as indentation is one): no normalised retry, none of
//!   js-yaml's extra rejections;
//! - nesting past the depth limit is not an error (Bun reads it): the cut-off collection is
//!   [`Value::Unknown`]; an alias expansion past the budget still is one.
//!
//! Hostile input is bounded: aliases are resolved by copying at most [`ALIAS_BUDGET`] nodes in
//! total, and nesting deeper than [`super::MAX_DEPTH`] is cut off with a syntax error.

use std::collections::{HashMap, HashSet};

use saphyr_parser::{Event, Parser, ScalarStyle, Span as YSpan, Tag};

use super::{DuplicateKey, Entry, Key, MAX_DEPTH, Map, Node, Parsed, Style, SyntaxError, Value};
use crate::analysis::text::Span;

/// Total number of nodes that alias resolution may copy in one document.
pub const ALIAS_BUDGET: usize = 10_000;

/// js-yaml's bound on the keys merged in one document (`maxTotalMergeKeys`).
const MERGE_BUDGET: usize = 10_000;

/// The prefix of the YAML core tags (`!!str` is `tag:yaml.org,2002:str`).
const CORE: &str = "tag:yaml.org,2002:";

/// Maps the parser's char indices to byte offsets in the original text.
struct CharMap {
    /// `(char index, byte index)` right after each non-ASCII char; empty for ASCII text.
    checkpoints: Vec<(usize, usize)>,
    len_chars: usize,
    len_bytes: usize,
    /// When the parsed text is a normalised copy: its runs, sorted, with where they come from.
    back: Vec<Segment>,
    /// The length of the original text (the parsed one may have a line break added).
    original_len: usize,
}

impl CharMap {
    fn new(text: &str, back: Vec<Segment>, original_len: usize) -> CharMap {
        let mut checkpoints = Vec::new();
        let mut chars = 0;
        if !text.is_ascii() {
            for (byte, ch) in text.char_indices() {
                chars += 1;
                if !ch.is_ascii() {
                    checkpoints.push((chars, byte + ch.len_utf8()));
                }
            }
        } else {
            chars = text.len();
        }
        CharMap {
            checkpoints,
            len_chars: chars,
            len_bytes: text.len(),
            back,
            original_len,
        }
    }

    /// The byte offset in the parsed text.
    fn local(&self, char_index: usize) -> usize {
        if char_index >= self.len_chars {
            return self.len_bytes;
        }
        let at = self.checkpoints.partition_point(|(c, _)| *c <= char_index);
        match at.checked_sub(1).map(|i| self.checkpoints[i]) {
            Some((c, b)) => b + (char_index - c),
            None => char_index,
        }
    }

    /// The byte offset in the original text.
    fn byte(&self, char_index: usize) -> usize {
        self.original(self.local(char_index))
    }

    fn original(&self, local: usize) -> usize {
        if self.back.is_empty() {
            return local.min(self.original_len);
        }
        let i = self.back.partition_point(|s| s.copy <= local).saturating_sub(1);
        let s = self.back[i];
        (s.original + (local - s.copy).min(s.len)).min(self.original_len)
    }
}

/// A collection's tag, as js-yaml names it.
type TagName = Option<String>;

enum Frame {
    Map {
        start: usize,
        anchor: usize,
        tag: TagName,
        flow: bool,
        flow_end: usize,
        entries: Vec<Entry>,
        /// The key read, waiting for its value, and whether it is a merge key (a plain `<<`).
        pending: Option<(Key, bool)>,
        /// Keys read so far (merge keys included).
        keys: usize,
        /// Key name to the index of its (first) entry.
        index: HashMap<String, usize>,
        /// Keys that came from a merge: a later explicit key replaces them silently.
        overridable: HashSet<String>,
    },
    Seq {
        start: usize,
        anchor: usize,
        tag: TagName,
        items: Vec<Node>,
    },
}

/// Which parser's reading to reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flavor {
    /// js-yaml 3 `safeLoad` (YAML 1.1 flavour), as opencode reads frontmatter.
    JsYaml,
    /// YAML 1.2 core schema, as Bun's built-in parser (Claude Code) reads it.
    Core,
}

struct Builder<'t> {
    flavor: Flavor,
    /// The documents completed so far ([`Flavor::Core`] reads them all).
    documents: Vec<Node>,
    /// The text as written.
    original: &'t str,
    /// The text parsed (the original, or its normalised copy).
    text: &'t str,
    offset: usize,
    chars: CharMap,
    stack: Vec<Frame>,
    /// > 0 while inside a collection that is deeper than the depth limit: events are skipped.
    skipping: usize,
    skip_start: usize,
    /// Anchored nodes with their size in nodes.
    anchors: HashMap<usize, (Node, usize)>,
    alias_budget: usize,
    merge_budget: usize,
    /// The node being completed is a plain, untagged `<<` (a merge key when it is a key).
    merge_candidate: bool,
    /// The node being completed carries a tag or an anchor.
    has_properties: bool,
    root: Option<Node>,
    errors: Vec<SyntaxError>,
    duplicates: Vec<DuplicateKey>,
}

/// Parse `text`, a YAML document that starts at byte `offset` of the file (spans are shifted by
/// it).
pub fn parse(text: &str, offset: usize) -> Parsed {
    // js-yaml adds a line break to a text that does not end with one (which matters for the
    // last line of a block scalar); positions past the end map to the end.
    let owned;
    let base = if text.is_empty() || text.ends_with(['\n', '\r']) {
        text
    } else {
        owned = format!("{text}\n");
        &owned
    };
    let first = parse_as(text, base, offset, Vec::new(), Flavor::JsYaml);
    if first.errors.is_empty() {
        return first;
    }
    // What saphyr rejects and js-yaml reads: parse a normalised copy, with offsets mapped back.
    match normalise(base) {
        Some((copy, back)) => {
            let second = parse_as(text, &copy, offset, back, Flavor::JsYaml);
            // When both fail, the one that read further tells the real problem.
            let at = |p: &Parsed| p.errors.first().map_or(usize::MAX, |e| e.span.start as usize);
            if at(&second) > at(&first) { second } else { first }
        }
        None => first,
    }
}

/// Parse `text`, a YAML document that starts at byte `offset` of the file, as YAML 1.2 with the
/// core schema, the way Bun's built-in YAML parser reads it (see the module documentation).
pub fn parse_core(text: &str, offset: usize) -> Parsed {
    core_as(text, None, offset)
}

/// [`Flavor::Core`] on `text`, or on its rewritten `copy` (with the map back), working around
/// saphyr's two known departures from YAML 1.2 and Bun there, each by parsing a patched copy
/// again (byte for byte the same length, so offsets do not move):
/// - it rejects a tab right after a `:` indicator (`key:\tvalue`): the tabs between the `:` and
///   the value become spaces;
/// - it stops at 256 nested flow collections ("recursion limit exceeded"; Bun reads 300): the
///   collection that is too deep becomes a `~` followed by blanks (its line breaks kept). It lies
///   past [`super::MAX_DEPTH`] anyway, so the tree holds an unknown value there either way.
///
/// One site is patched at a time, while the bytes parsed stay under [`PATCH_BUDGET`] plus 16 times
/// the text's length (hundreds of sites in an agent file; past the budget the error stands).
fn core_as(text: &str, copy: Option<(String, Vec<Segment>)>, offset: usize) -> Parsed {
    let (copy, back) = match copy {
        Some((copy, back)) => (copy, back),
        None => (text.to_string(), Vec::new()),
    };
    let mut bytes = copy.into_bytes();
    let mut budget = PATCH_BUDGET + 16 * bytes.len();
    loop {
        // Patches only write ASCII over whole chars, so the copy stays UTF-8.
        let copy = std::str::from_utf8(&bytes).unwrap_or_default();
        let parsed = parse_as(text, copy, offset, back.clone(), Flavor::Core);
        let Some((at, kind)) = patch_site(copy, &parsed, &back, offset) else {
            return parsed;
        };
        if budget < bytes.len() {
            return parsed;
        }
        budget -= bytes.len();
        match kind {
            Patch::TabAfterColon => {
                for b in &mut bytes[at] {
                    if *b == b'\t' {
                        *b = b' ';
                    }
                }
            }
            Patch::TooDeep => {
                let from = at.start;
                for b in &mut bytes[at] {
                    if !matches!(*b, b'\n' | b'\r') {
                        *b = b' ';
                    }
                }
                bytes[from] = b'~';
            }
        }
    }
}

/// Bytes that [`parse_core`] may parse again to work around saphyr (see [`core_as`]).
const PATCH_BUDGET: usize = 4 << 20;

enum Patch {
    TabAfterColon,
    TooDeep,
}

/// Where to patch `copy` after the first error of `parsed`, when it is one of saphyr's departures
/// from Bun (see [`core_as`]).
fn patch_site(copy: &str, parsed: &Parsed, back: &[Segment], offset: usize) -> Option<(std::ops::Range<usize>, Patch)> {
    let err = parsed.errors.first()?;
    let tab = err.message.contains("must be followed by a valid YAML whitespace");
    let deep = err.message == "recursion limit exceeded";
    if !tab && !deep {
        return None;
    }
    // The error's position in the copy.
    let original = (err.span.start as usize).checked_sub(offset)?;
    let local = if back.is_empty() {
        original
    } else {
        let s = back
            .iter()
            .rev()
            .find(|s| s.original <= original && original <= s.original + s.len)?;
        s.copy + (original - s.original)
    };
    if tab {
        // Reported at the value after the blanks.
        let before = copy.get(..local)?;
        let blanks = before.len() - before.trim_end_matches([' ', '\t']).len();
        let colon = local - blanks;
        return (colon > 0 && before[..colon].ends_with(':') && before[colon..].contains('\t'))
            .then_some((colon..local, Patch::TabAfterColon));
    }
    // Reported at the opening bracket that is one too deep (or right after it).
    let open = copy.get(..local + 1)?.rfind(['[', '{'])?;
    let close = flow_end(copy.as_bytes(), open)?;
    Some((open..close, Patch::TooDeep))
}

/// The end (after the closing bracket) of the flow collection opening at `open`, skipping quoted
/// scalars and comments; `None` when it does not close.
fn flow_end(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if i > 0 && matches!(b[i - 1], b'[' | b'{' | b',' | b' ' | b'\t' | b'\n' | b'\r') => {
                i += 1;
                while i < b.len() {
                    if b[i] == b'\'' {
                        if b.get(i + 1) == Some(&b'\'') {
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    i += 1;
                }
            }
            b'#' if i > 0 && matches!(b[i - 1], b' ' | b'\t') => {
                while i < b.len() && !matches!(b[i], b'\n' | b'\r') {
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// One replacement in a text: bytes `from..to` (on char boundaries) become `with`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub from: usize,
    pub to: usize,
    pub with: String,
}

/// [`parse_core`] on a rewritten copy of `text` (the `edits` applied, in order; overlapping ones
/// are skipped), with every span mapped back onto `text`: a position in a replacement maps to the
/// start of what it replaced plus its distance into it (capped at the end of the replaced text),
/// so an inserted quote maps onto the place it was inserted and an escape `\"` onto the `"` it
/// stands for.
pub fn parse_core_edited(text: &str, offset: usize, edits: &[Edit]) -> Parsed {
    if edits.is_empty() {
        return parse_core(text, offset);
    }
    let rewritten = apply(text, edits.iter().map(|e| (e.from, e.to, e.with.as_str())));
    core_as(text, Some(rewritten), offset)
}

/// Parse `parsed` (the original text or its normalised copy, whose offsets map back to the
/// original through `back`).
fn parse_as(original: &str, parsed: &str, offset: usize, back: Vec<Segment>, flavor: Flavor) -> Parsed {
    let js = flavor == Flavor::JsYaml;
    let mut b = Builder {
        flavor,
        documents: Vec::new(),
        original,
        text: parsed,
        offset,
        chars: CharMap::new(parsed, back, original.len()),
        stack: Vec::new(),
        skipping: 0,
        skip_start: 0,
        anchors: HashMap::new(),
        alias_budget: ALIAS_BUDGET,
        merge_budget: MERGE_BUDGET,
        merge_candidate: false,
        has_properties: false,
        root: None,
        errors: Vec::new(),
        duplicates: Vec::new(),
    };
    if let Some(at) = original.find('\0').filter(|_| js) {
        b.errors.push(SyntaxError {
            span: Span::new(at + offset, at + 1 + offset),
            message: "a NUL character is not allowed in YAML (js-yaml rejects the whole document)".into(),
        });
    }
    let mut parser = Parser::new_from_str(parsed);
    let mut documents = 0;
    loop {
        match parser.next_event() {
            None => break,
            Some(Ok((event, span))) => match event {
                Event::StreamEnd => break,
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 && js {
                        let at = b.span(span);
                        b.errors.push(SyntaxError {
                            span: at,
                            message: "a second YAML document starts here; frontmatter holds one".into(),
                        });
                        break;
                    }
                }
                other => b.event(other, span),
            },
            Some(Err(err)) => {
                let local = b.chars.local(err.marker().index());
                let at = b.chars.original(local);
                let end = b.chars.original(next_char_end(parsed, local));
                b.errors.push(SyntaxError {
                    span: Span::new(at + offset, end.max(at) + offset),
                    message: err.info().to_string(),
                });
                break;
            }
        }
    }
    if b.errors.is_empty()
        && js
        && let Some(at) = after_document_end(parsed)
    {
        let at = b.chars.original(at);
        b.errors.push(SyntaxError {
            span: Span::new(at + offset, next_char_end(original, at) + offset),
            message: "content after the `...` document end marker: js-yaml reads a second document and rejects the frontmatter".into(),
        });
    }
    b.finish()
}

/// Where content follows a `...` document end line (js-yaml then finds a second document, even
/// when nothing came before the marker).
fn after_document_end(text: &str) -> Option<usize> {
    let mut pos = 0;
    let mut ended = false;
    for line in text.split_inclusive(['\n', '\r']) {
        let content = line.trim_end_matches(['\n', '\r']);
        let marker = content
            .strip_prefix("...")
            .filter(|r| r.is_empty() || r.starts_with([' ', '\t']));
        if ended {
            let t = content.trim_start_matches([' ', '\t']);
            if !t.is_empty() && !t.starts_with('#') {
                return Some(pos + (content.len() - t.len()));
            }
        } else if let Some(rest) = marker {
            ended = true;
            let t = rest.trim_start_matches([' ', '\t']);
            if !t.is_empty() && !t.starts_with('#') {
                return Some(pos + (content.len() - t.len()));
            }
        }
        pos += line.len();
    }
    None
}

fn next_char_end(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|rest| rest.chars().next())
        .map(|c| at + c.len_utf8())
        .unwrap_or(at)
}

/// A tag as js-yaml names it: `!!str` is `tag:yaml.org,2002:str`, `!x` is `!x`, `!<x>` is `x`, a
/// lone `!` is `!`.
fn tag_name(tag: Option<&Tag>) -> TagName {
    tag.map(|t| format!("{}{}", t.handle, t.suffix))
}

impl Builder<'_> {
    fn span(&self, s: YSpan) -> Span {
        Span::new(
            self.chars.byte(s.start.index()) + self.offset,
            self.chars.byte(s.end.index()) + self.offset,
        )
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(SyntaxError {
            span,
            message: message.into(),
        });
    }

    fn event(&mut self, event: Event<'_>, span: YSpan) {
        let sp = self.span(span);
        if self.skipping > 0 {
            match event {
                Event::MappingStart(..) | Event::SequenceStart(..) => self.skipping += 1,
                Event::MappingEnd | Event::SequenceEnd => {
                    self.skipping -= 1;
                    if self.skipping == 0 {
                        let node = Node::new(
                            Span::new(self.skip_start, sp.end as usize),
                            Style::Collection,
                            Value::Unknown,
                        );
                        self.complete(node);
                    }
                }
                _ => {}
            }
            return;
        }
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let local = self.chars.local(span.start.index())..self.chars.local(span.end.index());
                let raw = self.text.get(local).unwrap_or_default();
                let mut sp = sp;
                if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
                    // Block scalars run to the start of the next line; end at the last content.
                    let trimmed = raw.trim_end().len();
                    let end = self.chars.original(self.chars.local(span.start.index()) + trimmed) + self.offset;
                    sp = Span::new(sp.start as usize, end.max(sp.start as usize));
                }
                let tag = tag_name(tag.as_deref());
                // js-yaml keeps the blanks that end a line of a multi-line quoted scalar. (The
                // parser's end of a multi-line quoted scalar may lie past its closing quote: the
                // span ends at the quote.)
                let mut folded = None;
                // What js-yaml checks for non-printable characters: the content as written.
                let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
                let mut written: &str = if quoted { raw } else { &value };
                if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
                    // The span may start with the node's tag or anchor.
                    let quote = if style == ScalarStyle::SingleQuoted { '\'' } else { '"' };
                    let at = self.chars.local(span.start.index());
                    let from = at + self.text.get(at..).and_then(|t| t.find(quote)).unwrap_or(0);
                    if let Some((js, len)) = self.text.get(from..).and_then(js_quoted) {
                        let end = self.chars.original(from + len) + self.offset;
                        sp = Span::new(sp.start as usize, end.max(sp.start as usize));
                        written = &self.text[from..from + len];
                        if written.contains(['\n', '\r']) && self.flavor == Flavor::JsYaml {
                            folded = Some(js);
                        }
                    }
                }
                if self.flavor == Flavor::JsYaml
                    && let Some(message) = unprintable(written, style)
                {
                    self.error(sp, message);
                }
                if self.flavor == Flavor::Core && matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
                    let at_end = self.chars.local(span.end.index()) >= self.text.len();
                    folded = block_line_breaks(&value, raw, at_end.then_some(self.text));
                }
                let value = folded.as_deref().unwrap_or(&value);
                let resolved = match self.flavor {
                    Flavor::JsYaml => scalar_value(value, style, tag.as_deref()),
                    Flavor::Core => Ok(core_scalar_value(value, style, tag.as_deref())),
                };
                let node = match resolved {
                    Ok(v) => Node::new(sp, node_style(style), v),
                    Err(message) => {
                        self.error(sp, message);
                        Node::new(sp, node_style(style), Value::Unknown)
                    }
                };
                self.merge_candidate =
                    self.flavor == Flavor::JsYaml && tag.is_none() && style == ScalarStyle::Plain && value == "<<";
                self.has_properties = tag.is_some() || anchor != 0;
                self.remember(anchor, &node);
                self.complete(node);
            }
            Event::Alias(id) => {
                let node = match self.anchors.get(&id) {
                    Some((target, size)) => {
                        let size = *size;
                        if size > self.alias_budget {
                            let reported = self.alias_budget == 0;
                            self.alias_budget = 0;
                            if !reported {
                                self.error(
                                    sp,
                                    format!(
                                        "alias expansion exceeds {ALIAS_BUDGET} nodes (a billion-laughs document?); not expanded"
                                    ),
                                );
                            }
                            Node::new(sp, Style::Plain, Value::Unknown)
                        } else {
                            self.alias_budget -= size;
                            let mut copy = target.clone();
                            copy.span = sp;
                            copy
                        }
                    }
                    // An alias to an anchor whose collection is still open: js-yaml builds a
                    // cyclic value.
                    None => Node::new(sp, Style::Plain, Value::Unknown),
                };
                self.merge_candidate = false;
                self.has_properties = false;
                self.complete(node);
            }
            Event::MappingStart(anchor, ref tag) | Event::SequenceStart(anchor, ref tag) => {
                if self.stack.len() >= MAX_DEPTH {
                    self.skipping = 1;
                    self.skip_start = sp.start as usize;
                    // Bun reads any depth (§7.3: 300 nested brackets parse): for the core
                    // flavour the cut-off collection is only an unknown value, not an error.
                    if self.flavor == Flavor::JsYaml {
                        self.error(sp, format!("nesting deeper than {MAX_DEPTH} levels is not analysed"));
                    }
                    return;
                }
                let start = sp.start as usize;
                let tag = tag_name(tag.as_deref());
                let frame = if matches!(event, Event::MappingStart(..)) {
                    let at = self.chars.local(span.start.index());
                    Frame::Map {
                        start,
                        anchor,
                        tag,
                        flow: self.text.as_bytes().get(at) == Some(&b'{'),
                        flow_end: 0,
                        entries: Vec::new(),
                        pending: None,
                        keys: 0,
                        index: HashMap::new(),
                        overridable: HashSet::new(),
                    }
                } else {
                    Frame::Seq {
                        start,
                        anchor,
                        tag,
                        items: Vec::new(),
                    }
                };
                self.stack.push(frame);
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(Frame::Map { flow_end, .. }) = self.stack.last_mut() {
                    *flow_end = sp.end as usize;
                }
                self.close(Some(sp.end as usize));
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentStart(_) | Event::DocumentEnd => {}
        }
    }

    fn remember(&mut self, anchor: usize, node: &Node) {
        if anchor != 0 {
            self.anchors.insert(anchor, (node.clone(), count(node)));
        }
    }

    /// Pop the top frame into a node. `end` is the end event's end (flow collections end at
    /// their closing bracket; block collections end with their last child).
    fn close(&mut self, end: Option<usize>) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let (node, anchor, tag) = match frame {
            Frame::Map {
                start,
                anchor,
                tag,
                entries,
                flow_end,
                ..
            } => {
                let last = entries.last().map(|e| e.value.span.end as usize).unwrap_or(start);
                let end = end.unwrap_or(last).max(last).max(flow_end);
                let end = if flow_end == 0 { last.max(start) } else { end };
                (
                    Node::new(Span::new(start, end), Style::Collection, Value::Map(Map::new(entries))),
                    anchor,
                    tag,
                )
            }
            Frame::Seq {
                start,
                anchor,
                tag,
                items,
            } => {
                let last = items.last().map(|n| n.span.end as usize).unwrap_or(start);
                let end = end.unwrap_or(last).max(last);
                (
                    Node::new(Span::new(start, end), Style::Collection, Value::Seq(items)),
                    anchor,
                    tag,
                )
            }
        };
        let tagged = match self.flavor {
            Flavor::JsYaml => collection_tag(node, tag.as_deref()),
            // Bun: a core collection tag fits or is ignored, any other tag is dropped.
            Flavor::Core => Ok(node),
        };
        let node = match tagged {
            Ok(node) => node,
            Err((node, message)) => {
                self.error(node.span, message);
                node
            }
        };
        self.merge_candidate = false;
        self.has_properties = tag.is_some() || anchor != 0;
        self.remember(anchor, &node);
        self.complete(node);
    }

    fn complete(&mut self, node: Node) {
        let merge_candidate = std::mem::take(&mut self.merge_candidate);
        let has_properties = std::mem::take(&mut self.has_properties);
        let original = self.original;
        let offset = self.offset;
        let js = self.flavor == Flavor::JsYaml;
        let mut errors: Vec<SyntaxError> = Vec::new();
        match self.stack.last_mut() {
            None if !js => self.documents.push(node),
            None => {
                if self.root.is_none() {
                    self.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                pending,
                index,
                overridable,
                flow,
                keys,
                ..
            }) => {
                match pending.take() {
                    None => {
                        *keys += 1;
                        if js && !*flow && *keys == 1 && has_properties {
                            errors.push(SyntaxError {
                                span: node.span,
                                message: "js-yaml cannot read a tag or an anchor on the first key of a block mapping"
                                    .into(),
                            });
                        }
                        if js && !*flow && !has_properties && node.span.is_empty() && node.value == Value::Null {
                            // An empty key: js-yaml accepts it after `?`, not as `: value`.
                            let at = (node.span.start as usize).saturating_sub(offset);
                            let before = original.get(..at).unwrap_or_default();
                            // `?` then `:` on a later line is an explicit pair; `? :` is not.
                            let explicit = before.trim_end().ends_with('?')
                                && !before.trim_end_matches([' ', '\t']).ends_with('?');
                            if original.get(at..).is_some_and(|r| r.starts_with(':')) && !explicit {
                                errors.push(SyntaxError {
                                span: Span::new(node.span.start as usize, node.span.start as usize + 1),
                                message: "a `:` with no key before it: js-yaml rejects an empty key unless it follows `?`".into(),
                            });
                            }
                        }
                        let name = match js_key(&node) {
                            Ok(name) => name,
                            // Bun's own rules for odd keys are not known: no error there.
                            Err(_) if !js => node.display(),
                            Err(message) => {
                                errors.push(SyntaxError {
                                    span: node.span,
                                    message,
                                });
                                node.display()
                            }
                        };
                        *pending = Some((Key { name, span: node.span }, merge_candidate));
                    }
                    // A merge key is not an entry: its mappings' entries are.
                    Some((_, true)) => {
                        if let Err(message) = merge(entries, index, overridable, &node, &mut self.merge_budget) {
                            errors.push(SyntaxError {
                                span: node.span,
                                message,
                            });
                        }
                    }
                    Some((key, false)) => match index.get(&key.name).copied() {
                        Some(i) if overridable.remove(&key.name) => {
                            entries[i] = Entry { key, value: node };
                        }
                        Some(i) => {
                            self.duplicates.push(DuplicateKey {
                                name: key.name.clone(),
                                first: entries[i].key.span,
                                duplicate: key.span,
                            });
                            entries.push(Entry { key, value: node });
                        }
                        None => {
                            index.insert(key.name.clone(), entries.len());
                            entries.push(Entry { key, value: node });
                        }
                    },
                }
            }
        }
        self.errors.extend(errors);
    }

    fn finish(mut self) -> Parsed {
        // A syntax error leaves collections open: close them with what they hold. A key whose
        // value never came is dropped, so that nothing is reported about a value nobody wrote.
        while !self.stack.is_empty() {
            self.close(None);
        }
        if self.flavor == Flavor::Core {
            // Bun returns the one document, or the list of them when there are several.
            self.root = match self.documents.len() {
                0 | 1 => self.documents.pop(),
                _ => {
                    let start = self.documents[0].span.start as usize;
                    let end = self.documents.last().map_or(start, |d| d.span.end as usize);
                    let docs = std::mem::take(&mut self.documents);
                    Some(Node::new(
                        Span::new(start, end.max(start)),
                        Style::Collection,
                        Value::Seq(docs),
                    ))
                }
            };
        }
        let root = self.root.or_else(|| {
            if self.errors.is_empty() {
                Some(Node::new(Span::empty(self.offset), Style::Plain, Value::Null))
            } else {
                None
            }
        });
        Parsed {
            root,
            errors: self.errors,
            duplicates: self.duplicates,
        }
    }
}

fn node_style(style: ScalarStyle) -> Style {
    match style {
        ScalarStyle::Plain => Style::Plain,
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => Style::Quoted,
        ScalarStyle::Literal | ScalarStyle::Folded => Style::Block,
    }
}

/// js-yaml's value for a scalar: implicit resolution for an untagged plain scalar, a string for
/// a quoted or block one, and the tag's own rules otherwise (an error when they fail).
fn scalar_value(text: &str, style: ScalarStyle, tag: Option<&str>) -> Result<Value, String> {
    // An empty plain scalar is an empty node: js-yaml resolves a tag against `null`.
    let empty = style == ScalarStyle::Plain && text.is_empty();
    let Some(tag) = tag else {
        return Ok(if style == ScalarStyle::Plain {
            resolve_plain(text)
        } else {
            Value::Str(text.to_string())
        });
    };
    // The non-specific tag: no resolution, a plain scalar stays a string.
    if tag == "!" {
        return Ok(if empty {
            Value::Null
        } else {
            Value::Str(text.to_string())
        });
    }
    let unknown = || format!("unknown tag !<{tag}>");
    let Some(kind) = tag.strip_prefix(CORE) else {
        return Err(unknown());
    };
    let value = match kind {
        "str" => Some(Value::Str(text.to_string())),
        "null" => (empty || matches!(text, "~" | "null" | "Null" | "NULL")).then_some(Value::Null),
        "bool" => resolve_bool(text),
        "int" => resolve_int(text),
        "float" => resolve_float(text).map(Value::Float),
        "timestamp" => timestamp_iso(text).map(Value::Timestamp),
        "binary" => (!empty && is_base64(text)).then_some(Value::Unknown),
        "merge" => match text {
            "" if empty => Some(Value::Null),
            "<<" => Some(Value::Str(text.to_string())),
            _ => None,
        },
        // A collection type on an empty node is an empty collection.
        "map" | "set" if empty => Some(Value::Map(Map::default())),
        "seq" | "omap" | "pairs" if empty => Some(Value::Seq(Vec::new())),
        _ => return Err(unknown()),
    };
    value.ok_or_else(|| format!("cannot resolve a node with !<{tag}> explicit tag"))
}

/// A scalar's value as Bun reads it: core-schema resolution for an untagged plain scalar, a
/// string for a quoted or block one. A core tag resolves when it can (else the tag is ignored);
/// any other tag is dropped.
fn core_scalar_value(text: &str, style: ScalarStyle, tag: Option<&str>) -> Value {
    let plain = style == ScalarStyle::Plain;
    let untagged = || {
        if plain {
            resolve_core(text)
        } else {
            Value::Str(text.to_string())
        }
    };
    let Some(tag) = tag else {
        return untagged();
    };
    if tag == "!" {
        return Value::Str(text.to_string());
    }
    let resolved = match tag.strip_prefix(CORE) {
        Some("str") => Some(Value::Str(text.to_string())),
        Some("null") => (text.is_empty() || matches!(text, "~" | "null" | "Null" | "NULL")).then_some(Value::Null),
        Some("bool") => resolve_bool(text),
        Some("int") => core_int(text),
        Some("float") => core_float(text)
            .or_else(|| core_int(text).map(|v| number_f64(&v)))
            .map(Value::Float),
        _ => None,
    };
    resolved.unwrap_or_else(untagged)
}

fn number_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

/// YAML 1.2 core schema resolution of a plain scalar (what Bun's parser does): null
/// (`~`, `null`, `Null`, `NULL`, empty), bool (`true`/`True`/`TRUE`, `false`/`False`/`FALSE`),
/// int (`[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`), float (`[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)
/// ([eE][-+]?[0-9]+)?`, `[-+]?.inf`, `.nan` in their three spellings); anything else is a string
/// (dates included).
pub fn resolve_core(s: &str) -> Value {
    if matches!(s, "" | "~" | "null" | "Null" | "NULL") {
        return Value::Null;
    }
    if let Some(b) = resolve_bool(s) {
        return b;
    }
    if let Some(i) = core_int(s) {
        return i;
    }
    if let Some(f) = core_float(s) {
        return Value::Float(f);
    }
    Value::Str(s.to_string())
}

/// Core-schema integers; past i64 the float JavaScript would hold.
fn core_int(s: &str) -> Option<Value> {
    let b = s.as_bytes();
    let (radix, digits, negative) = if let Some(d) = s.strip_prefix("0o") {
        (8, d, false)
    } else if let Some(d) = s.strip_prefix("0x") {
        (16, d, false)
    } else {
        match b.first()? {
            b'-' => (10, &s[1..], true),
            b'+' => (10, &s[1..], false),
            _ => (10, s, false),
        }
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let value = radix_value(digits, radix);
    Some(if negative { value.neg() } else { value }.into_value())
}

/// Core-schema floats.
fn core_float(s: &str) -> Option<f64> {
    let (sign, body) = match s.as_bytes().first()? {
        b'-' => (-1.0, &s[1..]),
        b'+' => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return Some(sign * f64::INFINITY);
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    let b = body.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        i += frac_digits;
    } else if int_digits == 0 {
        return None;
    }
    // `.` alone, or `.e3`: no digits at all.
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp = b[j.min(b.len())..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp == 0 {
            return None;
        }
        i = j + exp;
    }
    if i != b.len() {
        return None;
    }
    Some(sign * parse_float(body))
}

/// A block scalar's value with its final line breaks as YAML 1.2 has them, where saphyr differs
/// (`None` when it does not): with clip chomping (no `+`/`-`) a block scalar ends with at most
/// one line break; when it runs to the end of a text (`text`) whose last line has content and no
/// line break, it ends with none unless kept (saphyr adds one). `raw` is the scalar's source.
fn block_line_breaks(value: &str, raw: &str, text: Option<&str>) -> Option<String> {
    let header = raw.find(['|', '>']).map_or("", |i| {
        let h = &raw[i + 1..];
        &h[..h.find(|c: char| !matches!(c, '+' | '-' | '0'..='9')).unwrap_or(h.len())]
    });
    if header.contains('-') {
        return None;
    }
    let mut out = value;
    if !header.contains('+') {
        let trimmed = out.trim_end_matches('\n');
        if out.len() > trimmed.len() + 1 {
            out = &value[..trimmed.len() + 1];
        }
    }
    let unterminated = text.is_some_and(|t| t.rsplit(['\n', '\r']).next().is_some_and(|l| !l.trim().is_empty()));
    if unterminated {
        out = out.strip_suffix('\n').unwrap_or(out);
    }
    (out.len() != value.len()).then(|| out.to_string())
}

/// A char iterator that can peek and tell what is left.
struct Cursor<'a>(std::str::Chars<'a>);

impl Iterator for Cursor<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        self.0.next()
    }
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.0.clone().next()
    }
}

/// A quoted scalar's value as js-yaml 3 reads it from its source (which starts at the opening
/// quote), and the length of that source up to the closing quote: like YAML, except that the
/// blanks ending a line before a folded line break are kept (`"a \n b"` is `"a  b"`). `None`
/// when the source is not a well-formed quoted scalar.
fn js_quoted(raw: &str) -> Option<(String, usize)> {
    let q = raw.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &raw[1..];
    let mut out = String::new();
    let mut chars = Cursor(inner.chars());
    // Skip blanks and line breaks after a line break; returns the breaks seen (js-yaml's
    // `skipSeparationSpace`).
    fn separation(chars: &mut Cursor<'_>, mut breaks: usize) -> usize {
        while let Some(c) = chars.peek() {
            match c {
                ' ' | '\t' => {
                    chars.next();
                }
                '\n' => {
                    chars.next();
                    breaks += 1;
                }
                '\r' => {
                    chars.next();
                    if chars.peek() == Some('\n') {
                        chars.next();
                    }
                    breaks += 1;
                }
                _ => break,
            }
        }
        breaks
    }
    let mut pending_surrogate: Option<u32> = None;
    let mut closed = false;
    while let Some(c) = chars.next() {
        if (c != '\\' || q != '"') && pending_surrogate.take().is_some() {
            out.push('\u{fffd}');
        }
        match c {
            '\'' if q == '\'' => {
                // A doubled quote is a quote; a single one closes.
                if chars.peek() != Some('\'') {
                    closed = true;
                    break;
                }
                chars.next();
                out.push('\'');
            }
            '"' if q == '"' => {
                closed = true;
                break;
            }
            '\n' | '\r' => {
                if c == '\r' && chars.peek() == Some('\n') {
                    chars.next();
                }
                match separation(&mut chars, 1) {
                    1 => out.push(' '),
                    n => out.extend(std::iter::repeat_n('\n', n - 1)),
                }
            }
            '\\' if q == '"' => {
                let e = chars.next()?;
                let simple = match e {
                    '0' => Some('\0'),
                    'a' => Some('\u{7}'),
                    'b' => Some('\u{8}'),
                    't' | '\t' => Some('\t'),
                    'n' => Some('\n'),
                    'v' => Some('\u{b}'),
                    'f' => Some('\u{c}'),
                    'r' => Some('\r'),
                    'e' => Some('\u{1b}'),
                    ' ' => Some(' '),
                    '"' => Some('"'),
                    '/' => Some('/'),
                    '\\' => Some('\\'),
                    'N' => Some('\u{85}'),
                    '_' => Some('\u{a0}'),
                    'L' => Some('\u{2028}'),
                    'P' => Some('\u{2029}'),
                    _ => None,
                };
                let hex = match e {
                    'x' => 2,
                    'u' => 4,
                    'U' => 8,
                    _ => 0,
                };
                if let Some(s) = simple {
                    if pending_surrogate.take().is_some() {
                        out.push('\u{fffd}');
                    }
                    out.push(s);
                } else if hex > 0 {
                    let mut code = 0u32;
                    for _ in 0..hex {
                        code = code.checked_mul(16)?.checked_add(chars.next()?.to_digit(16)?)?;
                    }
                    // JavaScript strings are UTF-16: a high then a low surrogate make one char,
                    // a lone one becomes U+FFFD here.
                    match (pending_surrogate.take(), code) {
                        (Some(high), 0xDC00..=0xDFFF) => {
                            out.push(char::from_u32(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))?);
                        }
                        (high, 0xD800..=0xDBFF) => {
                            if high.is_some() {
                                out.push('\u{fffd}');
                            }
                            pending_surrogate = Some(code);
                        }
                        (high, _) => {
                            if high.is_some() {
                                out.push('\u{fffd}');
                            }
                            out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                        }
                    }
                } else if e == '\n' || e == '\r' {
                    if e == '\r' && chars.peek() == Some('\n') {
                        chars.next();
                    }
                    separation(&mut chars, 0);
                } else {
                    return None;
                }
            }
            _ => out.push(c),
        }
    }
    if pending_surrogate.is_some() {
        out.push('\u{fffd}');
    }
    if !closed {
        return None;
    }
    // What follows the closing quote (not walked: the text may go on for long).
    let rest = chars.0.as_str().len();
    Some((out, raw.len() - rest))
}

/// A tag on a collection, as js-yaml applies it: `!!map`/`!!set` on mappings, `!!seq`,
/// `!!omap`, `!!pairs` on sequences, anything else is an unknown tag.
fn collection_tag(node: Node, tag: Option<&str>) -> Result<Node, (Node, String)> {
    let Some(tag) = tag.filter(|t| *t != "!") else {
        return Ok(node);
    };
    let cannot = format!("cannot resolve a node with !<{tag}> explicit tag");
    let unknown = format!("unknown tag !<{tag}>");
    match (&node.value, tag.strip_prefix(CORE)) {
        (Value::Map(_), Some("map")) | (Value::Seq(_), Some("seq")) => Ok(node),
        (Value::Map(m), Some("set")) => {
            if m.entries.iter().all(|e| e.value.value == Value::Null) {
                Ok(node)
            } else {
                Err((node, cannot))
            }
        }
        (Value::Seq(items), Some("omap")) => {
            let mut keys = HashSet::new();
            let ok = items.iter().all(|item| match &item.value {
                Value::Map(m) if m.entries.len() == 1 => keys.insert(m.entries[0].key.name.clone()),
                _ => false,
            });
            if ok { Ok(node) } else { Err((node, cannot)) }
        }
        (Value::Seq(items), Some("pairs")) => {
            let ok = items
                .iter()
                .all(|item| matches!(&item.value, Value::Map(m) if m.entries.len() == 1));
            if !ok {
                return Err((node, cannot));
            }
            // `[{a: 1}]` becomes `[["a", 1]]`.
            let pairs = items
                .iter()
                .filter_map(|item| item.as_map().and_then(|m| m.entries.first()))
                .map(|e| {
                    let key = Node::new(e.key.span, Style::Plain, Value::Str(e.key.name.clone()));
                    let span = Span::new(e.key.span.start as usize, e.value.span.end as usize);
                    Node::new(span, Style::Collection, Value::Seq(vec![key, e.value.clone()]))
                })
                .collect();
            Ok(Node::new(node.span, Style::Collection, Value::Seq(pairs)))
        }
        _ => Err((node, unknown)),
    }
}

/// js-yaml's checks on the characters of a scalar as written: quoted scalars take JSON's
/// characters, the others YAML's printable ones.
fn unprintable(raw: &str, style: ScalarStyle) -> Option<&'static str> {
    match style {
        ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => raw
            .chars()
            .any(|c| (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
            .then_some("a control character in a quoted scalar (js-yaml: expected valid JSON character)"),
        _ => raw.chars().any(|c| {
            matches!(c as u32, 0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1F | 0x7F..=0x84 | 0x86..=0x9F | 0xFFFE | 0xFFFF)
        })
        .then_some("a non-printable character in a scalar (js-yaml: the stream contains non-printable characters)"),
    }
}

/// A mapping key as JavaScript turns it into a property name (js-yaml's `String(keyNode)`).
fn js_key(node: &Node) -> Result<String, String> {
    Ok(match &node.value {
        Value::Str(s) => s.clone(),
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => js_number(*f),
        Value::Map(_) => "[object Object]".into(),
        Value::Seq(items) => {
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                parts.push(match &item.value {
                    Value::Seq(_) => return Err("nested arrays are not supported inside keys".into()),
                    Value::Null => String::new(),
                    _ => js_key(item)?,
                });
            }
            parts.join(",")
        }
        // js-yaml writes a date key in the local time zone; the ISO form stands in for it.
        Value::Timestamp(_) | Value::Unknown => node.display(),
    })
}

/// JavaScript's `Number.prototype.toString()`.
pub(crate) fn js_number(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if f == 0.0 {
        return "0".into();
    }
    let e = format!("{:e}", f.abs());
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    let n = exp + 1;
    let body = if k <= n && n <= 21 {
        digits + &"0".repeat((n - k) as usize)
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let rest = if k == 1 {
            String::new()
        } else {
            format!(".{}", &digits[1..])
        };
        let sign = if n - 1 < 0 { '-' } else { '+' };
        format!("{}{rest}e{sign}{}", &digits[..1], (n - 1).abs())
    };
    if f < 0.0 { format!("-{body}") } else { body }
}

/// A merge key's value merged into a mapping, as js-yaml does it: the keys the mapping does not
/// have yet are added (a later explicit key may replace them); the value must be a mapping or a
/// sequence of them.
fn merge(
    entries: &mut Vec<Entry>,
    index: &mut HashMap<String, usize>,
    overridable: &mut HashSet<String>,
    source: &Node,
    budget: &mut usize,
) -> Result<(), String> {
    let sources: Vec<&Node> = match &source.value {
        Value::Seq(items) if items.len() > 100 => return Err("abnormal merge sequence size".into()),
        Value::Seq(items) => items.iter().collect(),
        _ => vec![source],
    };
    for s in sources {
        let merged: Vec<Entry> = match &s.value {
            Value::Map(m) => m.entries.to_vec(),
            // An array is an object too: its indices are its keys.
            Value::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(i, n)| Entry {
                    key: Key {
                        name: i.to_string(),
                        span: n.span,
                    },
                    value: n.clone(),
                })
                .collect(),
            // A date, binary data, a cyclic value: objects with no keys of their own.
            Value::Timestamp(_) | Value::Unknown => Vec::new(),
            _ => return Err("cannot merge mappings; the provided source object is unacceptable".into()),
        };
        let work = 1 + merged.len();
        if work > *budget {
            *budget = 0;
            return Err(format!("merge keys exceeded maxTotalMergeKeys ({MERGE_BUDGET})"));
        }
        *budget -= work;
        for e in merged {
            if !index.contains_key(&e.key.name) {
                index.insert(e.key.name.clone(), entries.len());
                overridable.insert(e.key.name.clone());
                entries.push(e);
            }
        }
    }
    Ok(())
}

fn count(node: &Node) -> usize {
    match &node.value {
        Value::Seq(items) => 1 + items.iter().map(count).sum::<usize>(),
        Value::Map(m) => 1 + m.entries.iter().map(|e| count(&e.value)).sum::<usize>(),
        _ => 1,
    }
}

/// js-yaml 3 `DEFAULT_SAFE_SCHEMA` resolution of a plain scalar (null, bool, int, float,
/// timestamp; `<<` stays a string).
pub fn resolve_plain(s: &str) -> Value {
    if matches!(s, "" | "~" | "null" | "Null" | "NULL") {
        return Value::Null;
    }
    if let Some(b) = resolve_bool(s) {
        return b;
    }
    if let Some(i) = resolve_int(s) {
        return i;
    }
    if let Some(f) = resolve_float(s) {
        return Value::Float(f);
    }
    if let Some(iso) = timestamp_iso(s) {
        return Value::Timestamp(iso);
    }
    Value::Str(s.to_string())
}

/// A js-yaml timestamp as the JavaScript `Date` it becomes, written as `Date.toISOString()`
/// writes it (what opencode prints and passes on): `2024-01-02` is
/// `2024-01-02T00:00:00.000Z`. `Date.UTC` carries overflowing fields over (`2023-02-30` is
/// March 2) and reads years 0 to 99 as 1900 to 1999.
pub fn timestamp_iso(s: &str) -> Option<String> {
    if !is_timestamp(s) {
        return None;
    }
    let num = |t: &str| t.parse::<i64>().ok();
    let (date, rest) = match s.find(['T', 't', ' ', '\t']) {
        Some(i) => (&s[..i], Some(s[i..].trim_start_matches(['T', 't', ' ', '\t']))),
        None => (s, None),
    };
    let mut parts = date.split('-');
    let (year, month, day) = (num(parts.next()?)?, num(parts.next()?)?, num(parts.next()?)?);
    let (mut hour, mut minute, mut second, mut millis, mut delta_min) = (0, 0, 0, 0, 0);
    if let Some(time) = rest {
        // h:mm:ss[.fraction][ ][Z | ±h[:mm]]
        let zone_at = time.find(['Z', '+', '-']).unwrap_or(time.len());
        let (clock, zone) = time.split_at(zone_at);
        let clock = clock.trim_end_matches([' ', '\t']);
        let (hms, fraction) = match clock.split_once('.') {
            Some((h, f)) => (h, f),
            None => (clock, ""),
        };
        let mut f = hms.split(':');
        hour = num(f.next()?)?;
        minute = num(f.next()?)?;
        second = num(f.next()?)?;
        let ms: String = fraction.chars().take(3).collect();
        millis = if ms.is_empty() { 0 } else { num(&format!("{ms:0<3}"))? };
        if let Some(sign) = zone.chars().next().filter(|c| *c != 'Z') {
            let (h, m) = match zone[1..].split_once(':') {
                Some((h, m)) => (num(h)?, num(m)?),
                None => (num(&zone[1..])?, 0),
            };
            delta_min = (h * 60 + m) * if sign == '-' { -1 } else { 1 };
        }
    }
    let year = if (0..=99).contains(&year) { year + 1900 } else { year };
    // Months carry into years, days into months (Date.UTC).
    let month0 = month - 1;
    let (y, m0) = (year + month0.div_euclid(12), month0.rem_euclid(12));
    let days = days_from_civil(y, m0 + 1, 1) + (day - 1);
    let ms = days * 86_400_000 + ((hour * 60 + minute - delta_min) * 60 + second) * 1000 + millis;
    let (days, in_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else {
        format!("{}{:06}", if y < 0 { '-' } else { '+' }, y.abs())
    };
    Some(format!(
        "{year}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    ))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1 to 12).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn resolve_bool(s: &str) -> Option<Value> {
    match s {
        "true" | "True" | "TRUE" => Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// js-yaml's `resolveYamlInteger` and `constructYamlInteger`: decimal, `0b`, `0x`, a leading `0`
/// for octal, `_` separators, sexagesimal `1:30`. Past i64 the value is the (rounded) float
/// JavaScript computes.
fn resolve_int(data: &str) -> Option<Value> {
    let (negative, body) = match data.as_bytes().first()? {
        b'-' => (true, &data[1..]),
        b'+' => (false, &data[1..]),
        _ => (false, data),
    };
    let b = body.as_bytes();
    let valid = |digits: &str, ok: fn(u8) -> bool| {
        digits.bytes().all(|c| c == b'_' || ok(c)) && digits.bytes().any(ok) && !digits.ends_with('_')
    };
    let (radix, digits) = match b {
        [b'0'] => (10, "0"),
        [b'0', b'b', ..] => (2, &body[2..]),
        [b'0', b'x', ..] => (16, &body[2..]),
        [b'0', ..] => (8, &body[1..]),
        _ => (10, body),
    };
    let value = match radix {
        2 if valid(digits, |c| c == b'0' || c == b'1') => radix_value(digits, 2),
        16 if valid(digits, |c| c.is_ascii_hexdigit()) => radix_value(digits, 16),
        8 if valid(digits, |c| (b'0'..=b'7').contains(&c)) => radix_value(digits, 8),
        10 if b.first() != Some(&b'_') => {
            let (head, tail) = match digits.find(':') {
                Some(i) => (&digits[..i], Some(&digits[i..])),
                None => (digits, None),
            };
            if !head.bytes().all(|c| c == b'_' || c.is_ascii_digit())
                || !head.bytes().any(|c| c.is_ascii_digit())
                || (tail.is_none() && head.ends_with('_'))
            {
                return None;
            }
            match tail {
                None => radix_value(head, 10),
                Some(tail) => {
                    // (:[0-5]?[0-9])+
                    let parts: Vec<&str> = tail[1..].split(':').collect();
                    let ok = parts.iter().all(|p| {
                        let p = p.as_bytes();
                        match p {
                            [d] => d.is_ascii_digit(),
                            [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
                            _ => false,
                        }
                    });
                    if !ok {
                        return None;
                    }
                    let mut value = Number::Int(0);
                    let mut base = Number::Int(1);
                    let mut all = vec![radix_value(head, 10)];
                    all.extend(parts.iter().map(|p| radix_value(p, 10)));
                    for d in all.into_iter().rev() {
                        value = value.add(d.mul(base));
                        base = base.mul(Number::Int(60));
                    }
                    value
                }
            }
        }
        _ => return None,
    };
    Some(if negative { value.neg() } else { value }.into_value())
}

/// An integer as exact as i64 allows, else the float JavaScript holds.
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    fn f(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    fn add(self, other: Number) -> Number {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => {
                a.checked_add(b).map_or(Number::Float(a as f64 + b as f64), Number::Int)
            }
            _ => Number::Float(self.f() + other.f()),
        }
    }

    fn mul(self, other: Number) -> Number {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => {
                a.checked_mul(b).map_or(Number::Float(a as f64 * b as f64), Number::Int)
            }
            _ => Number::Float(self.f() * other.f()),
        }
    }

    fn neg(self) -> Number {
        match self {
            Number::Int(i) => i.checked_neg().map_or(Number::Float(-(i as f64)), Number::Int),
            Number::Float(f) => Number::Float(-f),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Number::Int(i) => Value::Int(i),
            Number::Float(f) => Value::Float(f),
        }
    }
}

/// Digits (with `_` separators) in a radix: exact when they fit in i64, else a float.
fn radix_value(digits: &str, radix: u32) -> Number {
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    if let Ok(i) = i64::from_str_radix(&clean, radix) {
        return Number::Int(i);
    }
    if radix == 10 {
        return Number::Float(clean.parse().unwrap_or(f64::INFINITY));
    }
    if let Ok(u) = u128::from_str_radix(&clean, radix) {
        return Number::Float(u as f64);
    }
    Number::Float(
        clean
            .chars()
            .filter_map(|c| c.to_digit(radix))
            .fold(0.0, |acc, d| acc * radix as f64 + d as f64),
    )
}

/// js-yaml's `YAML_FLOAT_PATTERN` and `constructYamlFloat`.
fn resolve_float(data: &str) -> Option<f64> {
    if data.ends_with('_') || !float_syntax(data.as_bytes()) {
        return None;
    }
    let v: String = data.chars().filter(|c| *c != '_').collect::<String>().to_lowercase();
    let (sign, body) = match v.as_bytes().first() {
        Some(b'-') => (-1.0, &v[1..]),
        Some(b'+') => (1.0, &v[1..]),
        _ => (1.0, &v[..]),
    };
    match body {
        ".inf" => return Some(sign * f64::INFINITY),
        ".nan" => return Some(f64::NAN),
        _ => {}
    }
    if body.contains(':') {
        let mut value = 0.0;
        let mut base = 1.0;
        for part in body.rsplit(':') {
            value += parse_float(part) * base;
            base *= 60.0;
        }
        return Some(sign * value);
    }
    Some(sign * parse_float(body))
}

/// `parseFloat` on text that matched the float pattern (so `1.`, `.5`, `1.e3` occur).
fn parse_float(s: &str) -> f64 {
    let s = s.replace(".e", "e");
    let s = s.strip_suffix('.').unwrap_or(&s);
    let s = if s.starts_with('.') {
        format!("0{s}")
    } else {
        s.to_string()
    };
    s.parse().unwrap_or(0.0)
}

/// `^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?
/// |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`
fn float_syntax(b: &[u8]) -> bool {
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && (b[*i].is_ascii_digit() || b[*i] == b'_') {
            *i += 1;
        }
        *i - start
    };
    let exponent = |i: &mut usize| {
        if *i < b.len() && (b[*i] == b'e' || b[*i] == b'E') {
            let mut j = *i + 1;
            if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            let start = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > start {
                *i = j;
            }
        }
    };
    let signed = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    // [-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?
    let first = || {
        let mut i = signed;
        match b.get(i) {
            Some(b'0') => i += 1,
            // The first digit is one of `digits`.
            Some(b'1'..=b'9') => _ = digits(&mut i),
            _ => return false,
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
        exponent(&mut i);
        i == b.len()
    };
    // \.[0-9_]+(?:[eE][-+]?[0-9]+)?
    let second = || {
        let mut i = 1;
        if b.first() != Some(&b'.') || digits(&mut i) == 0 {
            return false;
        }
        exponent(&mut i);
        i == b.len()
    };
    // [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    let third = || {
        let mut i = signed;
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        digits(&mut i);
        let mut parts = 0;
        while b.get(i) == Some(&b':') {
            i += 1;
            match (b.get(i), b.get(i + 1)) {
                (Some(b'0'..=b'5'), Some(d)) if d.is_ascii_digit() => i += 2,
                (Some(d), _) if d.is_ascii_digit() => i += 1,
                _ => return false,
            }
            parts += 1;
        }
        if parts == 0 || b.get(i) != Some(&b'.') {
            return false;
        }
        i += 1;
        digits(&mut i);
        i == b.len()
    };
    let special = || matches!(&b[signed..], b".inf" | b".Inf" | b".INF") || matches!(b, b".nan" | b".NaN" | b".NAN");
    first() || second() || third() || special()
}

/// js-yaml's timestamp: `YYYY-MM-DD`, or a date and time
/// (`YYYY-M-D[Tt ]h:mm:ss[.f][ ][Z|±h[:mm]]`).
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    // One or two digits from `i`; returns the index after them.
    let one_or_two = |i: usize| -> Option<usize> {
        if !digit(i) {
            return None;
        }
        Some(if digit(i + 1) { i + 2 } else { i + 1 })
    };
    if b.len() == 10
        && (0..4).all(digit)
        && b[4] == b'-'
        && digit(5)
        && digit(6)
        && b[7] == b'-'
        && digit(8)
        && digit(9)
    {
        return true;
    }
    let time = || -> Option<()> {
        if !(0..4).all(digit) || b.get(4) != Some(&b'-') {
            return None;
        }
        let i = one_or_two(5)?;
        (b.get(i) == Some(&b'-')).then_some(())?;
        let mut i = one_or_two(i + 1)?;
        match b.get(i) {
            Some(b'T' | b't') => i += 1,
            Some(b' ' | b'\t') => {
                while matches!(b.get(i), Some(b' ' | b'\t')) {
                    i += 1;
                }
            }
            _ => return None,
        }
        i = one_or_two(i)?;
        for _ in 0..2 {
            (b.get(i) == Some(&b':') && digit(i + 1) && digit(i + 2)).then_some(())?;
            i += 3;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            while digit(i) {
                i += 1;
            }
        }
        // (?:[ \t]*(Z|[-+]h[:mm]))?$: blanks only before a time zone.
        let before_zone = i;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match b.get(i) {
            None if i == before_zone => {}
            None => return None,
            Some(b'Z') => i += 1,
            Some(b'-' | b'+') => {
                i = one_or_two(i + 1)?;
                if b.get(i) == Some(&b':') && digit(i + 1) && digit(i + 2) {
                    i += 3;
                }
            }
            _ => return None,
        }
        (i == b.len()).then_some(())
    };
    time().is_some()
}

/// js-yaml's `resolveYamlBinary`: base64 characters (line breaks ignored) making whole bytes.
fn is_base64(s: &str) -> bool {
    let mut bits = 0usize;
    for c in s.chars() {
        match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '+' | '/' | '=' => bits += 6,
            '\n' | '\r' => {}
            _ => return false,
        }
    }
    bits % 8 == 0
}

/// A copy of a text that saphyr rejects, rewritten so that saphyr reads it as js-yaml does, with
/// the map back to the original's byte offsets; `None` when there is nothing to rewrite.
///
/// Every rewrite changes only blanks that carry no content, so the values stay those js-yaml
/// reads:
/// - js-yaml counts only spaces as indentation: blanks after the leading spaces that hold a tab
///   are dropped (`\tkey: x` is a key at column 0, as js-yaml reads it);
/// - a tab after an indicator (`key:\tvalue`, `-\titem`) becomes a space;
/// - continuation lines of a quoted scalar are indented past its opening quote (js-yaml does not
///   check their indentation; their leading blanks are folded away either way);
/// - a comment right after a closing quote or bracket (`"x"# note`) gets a space before it.
///
/// Block scalar content is left alone (its tabs are content).
fn normalise(text: &str) -> Option<(String, Vec<Segment>)> {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    // Inside block scalar content whose parent is indented this much.
    let mut block: Option<isize> = None;
    // Inside a quoted scalar: its quote and the column its continuation lines need.
    // and, when it is a mapping value, the column of its key.
    let mut quote: Option<(u8, usize, Option<usize>)> = None;
    // A plain scalar that continues on lines indented more than this.
    let mut plain: Option<isize> = None;
    // The last line ended where a node starts (`key:`), at this indentation (-1: the document
    // start).
    let mut opened: Option<isize> = Some(-1);
    let mut flow = 0usize;
    // The column the lines of a flow collection need (past the key that holds it).
    let mut flow_col = 0usize;
    let mut pos = 0;
    for line in lines(text) {
        let start = pos;
        pos += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let b = content.as_bytes();
        let spaces = b.iter().take_while(|c| **c == b' ').count();
        let blank_end = b.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
        let blank = blank_end == b.len();
        if let Some(parent) = block {
            if spaces as isize > parent {
                continue;
            }
            if blank {
                // For js-yaml a tab makes the line a less indented one, which ends the block
                // scalar (it is not an empty line of it): a comment does that for saphyr.
                if let Some(tab) = b.iter().position(|c| *c == b'\t') {
                    edits.push((start + tab, start + tab + 1, "#".into()));
                    block = None;
                }
                continue;
            }
            block = None;
        }
        let mut i;
        let mut continuation = false;
        let mut key_col = line_key_column(b);
        if let Some((q, column, value_of)) = quote {
            // A document marker (followed by a blank) ends a quoted scalar for both parsers.
            if (content.starts_with("---") || content.starts_with("..."))
                && b.get(3).is_none_or(|c| matches!(c, b' ' | b'\t'))
            {
                continue;
            }
            if blank {
                if b.contains(&b'\t') {
                    edits.push((start, start + blank_end, String::new()));
                }
                continue;
            }
            if spaces < column || blank_end > spaces {
                edits.push((start, start + blank_end, " ".repeat(column)));
            }
            if q == b'"' {
                surrogates(b, blank_end, start, &mut edits);
            }
            match closing_quote(b, blank_end, q) {
                Some(end) => {
                    quote = None;
                    i = end;
                    comment_after(b, i, start, &mut edits);
                    if let Some(col) = value_of {
                        key_col = col;
                        if spaces == col {
                            split_after_quote(b, i, start, col, &mut edits);
                        }
                    }
                }
                None => continue,
            }
        } else {
            let comment = !blank && b[blank_end] == b'#';
            continuation = !blank && !comment && plain.is_some_and(|p| spaces as isize > p);
            if !blank && !continuation {
                plain = None;
            }
            if blank_end > spaces && flow == 0 {
                // Only spaces indent for js-yaml; but the first line of a nested block
                // collection (or a sequence at its parent's indentation) sits at its column,
                // tabs included.
                let entry =
                    b.get(blank_end) == Some(&b'-') && b.get(blank_end + 1).is_none_or(|c| matches!(c, b' ' | b'\t'));
                let nested = !blank
                    && !comment
                    && !continuation
                    && opened.is_some_and(|p| spaces as isize > p || (entry && spaces as isize == p));
                let with = if nested {
                    " ".repeat(blank_end - spaces)
                } else {
                    String::new()
                };
                edits.push((start + spaces, start + blank_end, with));
            }
            if flow > 0 && !blank && (spaces < flow_col || blank_end > spaces) {
                // js-yaml does not check the indentation of a flow collection's lines. (Only the
                // lines that need it are rewritten; rewriting every line, as a mutant `>=` of
                // `blank_end > spaces` does, reads the same: the line keeps at least the column
                // the collection needs, and the map back keeps every node's offsets.)
                edits.push((start, start + blank_end, " ".repeat(flow_col)));
            }
            if blank || comment {
                continue;
            }
            i = blank_end;
        }
        // Scan the rest of the line for what changes the state of the next lines.
        let mut node_start = quote.is_none() && i == blank_end && !continuation;
        let mut in_plain = continuation;
        // A `:` indicator came before on this line (so a quoted scalar is a mapping value).
        let mut after_colon = false;
        let opened_before = opened;
        opened = None;
        while i < b.len() {
            let c = b[i];
            let next = b.get(i + 1).copied();
            let blank_next = next.is_none_or(|n| matches!(n, b' ' | b'\t'));
            match c {
                b' ' | b'\t' => {
                    i += 1;
                    continue;
                }
                b'#' if i == 0 || matches!(b[i - 1], b' ' | b'\t') => {
                    in_plain = false;
                    break;
                }
                b'"' | b'\'' if node_start => {
                    if c == b'"' {
                        surrogates(b, i + 1, start, &mut edits);
                    }
                    match closing_quote(b, i + 1, c) {
                        Some(end) => {
                            i = end;
                            node_start = false;
                            in_plain = false;
                            comment_after(b, i, start, &mut edits);
                            if after_colon
                                && flow == 0
                                && spaces == key_col
                                && split_after_quote(b, i, start, key_col, &mut edits)
                            {
                                node_start = true;
                                after_colon = false;
                            }
                            continue;
                        }
                        None => {
                            // A mapping value: after `key:` on this line, or alone on the line after
                            // it.
                            let value_of = if flow > 0 {
                                None
                            } else if after_colon {
                                Some(key_col)
                            } else if i == blank_end {
                                opened_before.and_then(|p| usize::try_from(p).ok())
                            } else {
                                None
                            };
                            quote = Some((c, char_column(content, i) + 1, value_of));
                            in_plain = false;
                            node_start = false;
                            break;
                        }
                    }
                }
                b'|' | b'>' if node_start && flow == 0 => {
                    let mut j = i + 1;
                    while j < b.len() && matches!(b[j], b'0'..=b'9' | b'+' | b'-') {
                        j += 1;
                    }
                    let rest = content[j..].trim_start_matches([' ', '\t']);
                    if rest.is_empty() || (rest.starts_with('#') && j < b.len() && matches!(b[j], b' ' | b'\t')) {
                        let at_line_start = i == blank_end;
                        block = Some(if at_line_start {
                            spaces as isize - 1
                        } else {
                            spaces as isize
                        });
                        node_start = false;
                        break;
                    }
                    node_start = false;
                    in_plain = true;
                }
                b':' | b'-' | b'?' if blank_next && (c == b':' || node_start) => {
                    // Tabs after an indicator become spaces.
                    let mut j = i + 1;
                    while j < b.len() && matches!(b[j], b' ' | b'\t') {
                        if b[j] == b'\t' {
                            edits.push((start + j, start + j + 1, " ".into()));
                        }
                        j += 1;
                    }
                    node_start = true;
                    in_plain = false;
                    after_colon |= c == b':';
                    i += 1;
                    continue;
                }
                b'[' | b'{' if node_start || flow > 0 => {
                    if flow == 0 {
                        flow_col = key_col + 1;
                    }
                    flow += 1;
                    node_start = true;
                }
                b']' | b'}' if flow > 0 => {
                    flow -= 1;
                    node_start = false;
                    comment_after(b, i + 1, start, &mut edits);
                }
                b',' if flow > 0 => node_start = true,
                b'!' | b'&' if node_start => {
                    // A tag or an anchor: the node starts after it.
                    while i < b.len() && !matches!(b[i], b' ' | b'\t') {
                        i += 1;
                    }
                    continue;
                }
                _ => {
                    in_plain |= node_start;
                    node_start = false;
                }
            }
            i += 1;
        }
        if flow == 0 && quote.is_none() && block.is_none() {
            if node_start {
                opened = Some(spaces as isize);
            }
            if in_plain && !continuation {
                plain = Some(spaces as isize);
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    Some(apply(
        text,
        edits.iter().map(|(from, to, with)| (*from, *to, with.as_str())),
    ))
}

/// A copy of `text` with the edits (`from..to` becomes `with`, in order; one that starts before
/// the end of the previous one is skipped) and the map of its runs back to `text`.
fn apply<'e>(text: &str, edits: impl Iterator<Item = (usize, usize, &'e str)>) -> (String, Vec<Segment>) {
    let mut copy = String::with_capacity(text.len() + 16);
    let mut back = Vec::new();
    let mut at = 0;
    for (from, to, with) in edits {
        // (`is_char_boundary` is false past the end too.)
        if from < at || to < from || !text.is_char_boundary(from) || !text.is_char_boundary(to) {
            continue;
        }
        back.push(Segment {
            copy: copy.len(),
            original: at,
            len: from - at,
        });
        copy.push_str(&text[at..from]);
        back.push(Segment {
            copy: copy.len(),
            original: from,
            len: to - from,
        });
        copy.push_str(with);
        at = to;
    }
    back.push(Segment {
        copy: copy.len(),
        original: at,
        len: text.len() - at,
    });
    copy.push_str(&text[at..]);
    (copy, back)
}

/// A run of the normalised copy that starts at `copy` and maps to `original`, where it covers
/// `len` bytes (a rewritten run maps every position past `len` to its end).
#[derive(Clone, Copy, Debug)]
struct Segment {
    copy: usize,
    original: usize,
    len: usize,
}

/// The lines of a text with their line breaks: `\n`, `\r\n`, or a lone `\r` (a line break for
/// both parsers).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= b.len() {
            return None;
        }
        let mut i = start;
        while i < b.len() {
            match b[i] {
                b'\n' => break,
                b'\r' if b.get(i + 1) != Some(&b'\n') => break,
                _ => i += 1,
            }
        }
        let end = (i + 1).min(b.len());
        let line = &text[start..end];
        start = end;
        Some(line)
    })
}

/// UTF-16 surrogate escapes in a double-quoted scalar from `from` to its closing quote (or the
/// end of the line), which saphyr rejects: a high and a low one make the character
/// (`\uD83D\uDE80` is `\U0001F680`), a lone one becomes `\uFFFD` (what a JavaScript string
/// holding it turns into as UTF-8).
fn surrogates(b: &[u8], from: usize, line_start: usize, edits: &mut Vec<(usize, usize, String)>) {
    let escape = |i: usize| -> Option<u32> {
        if b.get(i) != Some(&b'\\') || b.get(i + 1) != Some(&b'u') {
            return None;
        }
        let hex = std::str::from_utf8(b.get(i + 2..i + 6)?).ok()?;
        u32::from_str_radix(hex, 16)
            .ok()
            .filter(|c| (0xD800..=0xDFFF).contains(c))
    };
    let mut i = from;
    while i < b.len() && b[i] != b'"' {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        match escape(i) {
            Some(high @ 0xD800..=0xDBFF) => match escape(i + 6).filter(|low| *low >= 0xDC00) {
                Some(low) => {
                    let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    edits.push((line_start + i, line_start + i + 12, format!("\\U{c:08X}")));
                    i += 12;
                }
                None => {
                    edits.push((line_start + i, line_start + i + 6, "\\uFFFD".into()));
                    i += 6;
                }
            },
            Some(_) => {
                edits.push((line_start + i, line_start + i + 6, "\\uFFFD".into()));
                i += 6;
            }
            None => i += 2,
        }
    }
}

/// The index after the quote that closes a quoted scalar started before `from`, on this line.
fn closing_quote(b: &[u8], from: usize, q: u8) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        if b[i] == q {
            if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                i += 2;
                continue;
            }
            return Some(i + 1);
        }
        if q == b'"' && b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    None
}

/// The column where the first key of a line starts (after its indentation, `- ` and `? `).
fn line_key_column(b: &[u8]) -> usize {
    let mut i = 0;
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        if matches!(b.get(i), Some(b'-' | b'?')) && matches!(b.get(i + 1), Some(b' ' | b'\t')) {
            i += 1;
            while i < b.len() && matches!(b[i], b' ' | b'\t') {
                i += 1;
            }
            continue;
        }
        return i;
    }
}

/// js-yaml reads `key: "value" other: x` as two entries of one mapping: when `key: value`
/// follows a quoted mapping value on its line, start it on a line of its own at the key's
/// column. Returns whether it did.
fn split_after_quote(
    b: &[u8],
    i: usize,
    line_start: usize,
    key_col: usize,
    edits: &mut Vec<(usize, usize, String)>,
) -> bool {
    let mut j = i;
    while j < b.len() && matches!(b[j], b' ' | b'\t') {
        j += 1;
    }
    if j == b.len() || matches!(b[j], b'#' | b':' | b',' | b']' | b'}') {
        return false;
    }
    // The rest is `key:` or `key: value` (a `:` followed by a blank, before any comment).
    let rest = &b[j..];
    let indicator = (0..rest.len()).any(|k| {
        rest[k] == b':'
            && rest.get(k + 1).is_none_or(|c| matches!(c, b' ' | b'\t'))
            && !rest[..k]
                .windows(2)
                .any(|w| matches!(w[0], b' ' | b'\t') && w[1] == b'#')
    });
    if !indicator {
        return false;
    }
    edits.push((line_start + i, line_start + j, format!("\n{}", " ".repeat(key_col))));
    true
}

/// js-yaml reads `#` right after a closing quote or bracket as a comment; saphyr wants a blank.
fn comment_after(b: &[u8], i: usize, line_start: usize, edits: &mut Vec<(usize, usize, String)>) {
    if b.get(i) == Some(&b'#') {
        edits.push((line_start + i, line_start + i, " ".into()));
    }
}

/// The column (in chars, as saphyr counts) of byte `i` of a line.
fn char_column(line: &str, i: usize) -> usize {
    line.get(..i).map_or(i, |s| s.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(text: &str) -> Node {
        let p = parse(text, 0);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        p.root.unwrap()
    }

    #[test]
    fn spans_are_bytes_with_cjk_and_emoji() {
        let text = "description: 审查代码 🚀 ok\nmode: subagent\npermission:\n  bash:\n    \"git push *\": deny\n";
        let r = root(text);
        let m = r.as_map().unwrap();
        let desc = m.get("description").unwrap();
        assert_eq!(desc.key.span.text(text), "description");
        assert_eq!(desc.value.span.text(text), "审查代码 🚀 ok");
        let mode = m.get("mode").unwrap();
        assert_eq!(mode.key.span, Span::new(34, 38));
        assert_eq!(mode.value.span.text(text), "subagent");
        let bash = m.value("permission").unwrap().as_map().unwrap().get("bash").unwrap();
        assert_eq!(bash.key.span.text(text), "bash");
        let rule = &bash.value.as_map().unwrap().entries[0];
        assert_eq!(rule.key.name, "git push *");
        assert_eq!(rule.key.span.text(text), "\"git push *\"");
        assert_eq!(rule.value.span.text(text), "deny");
    }

    #[test]
    fn js_yaml_3_scalar_resolution() {
        let cases: &[(&str, Value)] = &[
            ("yes", Value::Str("yes".into())),
            ("on", Value::Str("on".into())),
            ("1:30", Value::Int(90)),
            ("017", Value::Int(15)),
            ("0x1F", Value::Int(31)),
            ("1_000", Value::Int(1000)),
            ("~", Value::Null),
            ("", Value::Null),
            ("True", Value::Bool(true)),
            ("0.5", Value::Float(0.5)),
            ("2.5", Value::Float(2.5)),
            ("-1", Value::Int(-1)),
            ("1e3", Value::Float(1000.0)),
            (".5", Value::Float(0.5)),
            ("08", Value::Str("08".into())),
            ("n", Value::Str("n".into())),
            ("5", Value::Int(5)),
            ("2024-01-01", Value::Timestamp("2024-01-01T00:00:00.000Z".into())),
            // The exact js-yaml patterns.
            ("-.5", Value::Str("-.5".into())),
            ("+.5", Value::Str("+.5".into())),
            ("._5", Value::Float(0.5)),
            ("1:30.5", Value::Float(90.5)),
            ("0:0.", Value::Float(0.0)),
            ("1_:30", Value::Int(90)),
            ("0o17", Value::Str("0o17".into())),
            ("0X1F", Value::Str("0X1F".into())),
            ("0x_", Value::Str("0x_".into())),
            ("1.e3", Value::Float(1000.0)),
            ("0xFFFFFFFFFFFFFFFFFF", Value::Float(4722366482869645213696.0)),
            ("-9223372036854775807", Value::Int(-i64::MAX)),
            ("9223372036854775808", Value::Float(9223372036854775808.0)),
            ("2024-1-5", Value::Str("2024-1-5".into())),
            ("2024-01-15abc", Value::Str("2024-01-15abc".into())),
            ("2024-1-5 1:02:03", Value::Timestamp("2024-01-05T01:02:03.000Z".into())),
            (
                "2024-01-15T10:30:00.5 +05:30",
                Value::Timestamp("2024-01-15T05:00:00.500Z".into()),
            ),
            ("2024-01-15T10:30:00 ", Value::Str("2024-01-15T10:30:00 ".into())),
            ("<<", Value::Str("<<".into())),
        ];
        for (text, want) in cases {
            assert_eq!(&resolve_plain(text), want, "{text}");
        }
        assert_eq!(resolve_plain(".inf"), Value::Float(f64::INFINITY));
        // Past 128 bits, digit by digit as JavaScript's parseInt (node 24 answered these).
        assert_eq!(
            resolve_plain(&format!("0x{}", "f".repeat(33))),
            Value::Float(5.444517870735016e39)
        );
    }

    #[test]
    fn sexagesimal_integers_past_i64_are_the_float_javascript_computes() {
        let r = root("a: 3000000000000000:00:00\nb: 10000000000000000000:00\nc: 2:03:04\n");
        let m = r.as_map().unwrap();
        // 3e15 * 3600 overflows i64: the product of the floats.
        assert_eq!(m.value("a").unwrap().value, Value::Float(1.08e19));
        // A head past i64 is a float already: times 60.
        assert_eq!(m.value("b").unwrap().value, Value::Float(6e20));
        assert_eq!(m.value("c").unwrap().value, Value::Int(2 * 3600 + 3 * 60 + 4));
    }

    #[test]
    fn content_after_a_document_end_is_pointed_at() {
        // saphyr reads a second `...` as another end marker; js-yaml as the content of a second
        // document. The error points at its first character.
        for (text, at) in [
            ("a: 1\n...\n...\n", 9),
            ("a: 1\n...\n\n# c\n...\n", 14),
            ("...\n...\n", 4),
            ("a: 1\r\n...\r\n...\r\n", 11),
        ] {
            let p = parse(text, 0);
            assert_eq!(
                p.errors,
                [SyntaxError {
                    span: Span::new(at, at + 1),
                    message: "content after the `...` document end marker: js-yaml reads a second document and rejects the frontmatter".into(),
                }],
                "{text:?}"
            );
        }
    }

    #[test]
    fn quoted_scalars_stay_strings() {
        let r = root("steps: \"5\"\nhidden: 'true'\n");
        let m = r.as_map().unwrap();
        assert_eq!(m.value("steps").unwrap().value, Value::Str("5".into()));
        assert_eq!(m.value("steps").unwrap().style, Style::Quoted);
        assert_eq!(m.value("hidden").unwrap().value, Value::Str("true".into()));
    }

    #[test]
    fn unquoted_hex_color_is_a_comment() {
        let text = "color: #FF5733\n";
        let r = root(text);
        let v = r.as_map().unwrap().value("color").unwrap();
        assert_eq!(v.value, Value::Null);
    }

    #[test]
    fn duplicates_are_reported_with_both_spans() {
        let text = "mode: a\nmode: b\npermission:\n  bash: allow\n  bash: deny\n";
        let p = parse(text, 0);
        assert_eq!(p.duplicates.len(), 2);
        assert_eq!(p.duplicates[0].first.text(text), "mode");
        assert_eq!(p.duplicates[0].duplicate, Span::new(8, 12));
        assert_eq!(p.duplicates[1].name, "bash");
    }

    #[test]
    fn partial_tree_before_a_syntax_error() {
        let text = "mode: x\npermission:\n  bash: [deny\n";
        let p = parse(text, 0);
        assert_eq!(p.errors.len(), 1);
        let r = p.root.unwrap();
        let m = r.as_map().unwrap();
        assert_eq!(m.value("mode").unwrap().as_str(), Some("x"));
    }

    /// The parse of a text, as JSON (unknown values as null), or its first error.
    fn json(text: &str) -> Result<serde_json::Value, String> {
        let p = parse(text, 0);
        match (p.errors.first(), p.duplicates.first()) {
            (Some(e), _) => Err(e.message.clone()),
            (None, Some(d)) => Err(format!("duplicate {}", d.name)),
            (None, None) => Ok(p.root.map(|r| r.to_json()).unwrap_or_default()),
        }
    }

    #[test]
    fn edits_that_do_not_fit_the_text_are_skipped() {
        // Inverted, past the end, inside a character, overlapping the previous one: the copy
        // takes only the one that fits, and maps back through it.
        let text = "añb: 1";
        let edits = [(3, 1, "x"), (4, 99, "y"), (2, 3, "z"), (0, 1, "A"), (0, 2, "B")];
        let (copy, back) = apply(text, edits.into_iter());
        assert_eq!(copy, "Añb: 1");
        let runs: Vec<(usize, usize, usize)> = back.iter().map(|s| (s.copy, s.original, s.len)).collect();
        assert_eq!(runs, [(0, 0, 0), (0, 0, 1), (1, 1, 6)]);
    }

    #[test]
    fn tabs_read_as_js_yaml_reads_them() {
        // Only spaces indent for js-yaml: a tab-indented line is at column 0, so this
        // permission block is empty and `bash` a top-level key (as opencode reads it).
        let text = "mode: x\npermission:\n\tbash: deny\n";
        assert_eq!(
            json(text),
            Ok(serde_json::json!({"mode": "x", "permission": null, "bash": "deny"}))
        );
        // Spaces then a tab: the spaces count.
        assert_eq!(
            json("a:\n  b: 1\n  \tc: 2"),
            Ok(serde_json::json!({"a": {"b": 1, "c": 2}}))
        );
        // A tab after `:` separates like a space.
        assert_eq!(
            json("mode:\tsubagent\nsteps:\t5"),
            Ok(serde_json::json!({"mode": "subagent", "steps": 5}))
        );
        // The first line of a nested block sits at its column, tabs included.
        assert!(json("\tp:\ne:").is_err());
        // Block scalar content keeps its tabs.
        assert_eq!(
            json("a: |\n  x\n  \ty\nb:\tz"),
            Ok(serde_json::json!({"a": "x\n\ty\n", "b": "z"}))
        );
        // A blank line holding a tab, no deeper than the block's parent, ends the block scalar
        // (gray-matter 4.0.3 + js-yaml 3 answered so for both).
        for text in ["a: |\n  text\n\t\nb: 1\n", "a: |\n  text\n \t\nb: 1\n"] {
            assert_eq!(json(text), Ok(serde_json::json!({"a": "text\n", "b": 1})), "{text:?}");
        }
        // So an indented line after it is no more of the block, but a mistake ("bad indentation
        // of a mapping entry" for js-yaml).
        assert!(json("a: |\n  text\n\t\n  more\n").is_err());
        assert!(json("a: >\n  text\n\t\n  more\nb: 1\n").is_err());
        // Spans stay in the original text.
        let text = "mode: x\npermission:\n\tbash: deny\n";
        let r = parse(text, 0).root.unwrap();
        let bash = r.as_map().unwrap().get("bash").unwrap();
        assert_eq!(bash.key.span.text(text), "bash");
        assert_eq!(bash.value.span.text(text), "deny");
    }

    #[test]
    fn quoted_scalars_read_as_js_yaml_reads_them() {
        // Hex escapes of 2, 4 and 8 digits, and a surrogate pair, on one line and over two
        // (where the blank before the break is kept): gray-matter 4.0.3 + js-yaml 3 answered so.
        assert_eq!(
            json("a: \"caf\\u00e9 \\U0001F680 \\x41 \\ud83d\\ude80\""),
            Ok(serde_json::json!({"a": "café 🚀 A 🚀"}))
        );
        assert_eq!(
            json("a: \"caf\\u00e9 \\U0001F680 \n  \\x41 \\ud83d\\ude80\""),
            Ok(serde_json::json!({"a": "café 🚀  A 🚀"}))
        );
        // Continuation lines need no indentation, and a line's trailing blanks are kept before
        // the fold.
        let text = "description: \"Use when\nthe user asks  \n  for a review\"\nmode: subagent";
        assert_eq!(
            json(text),
            Ok(serde_json::json!({"description": "Use when the user asks   for a review", "mode": "subagent"}))
        );
        let r = parse(text, 0).root.unwrap();
        let d = r.as_map().unwrap().value("description").unwrap();
        assert!(d.span.text(text).starts_with('"') && d.span.text(text).ends_with('"'));
        // The span of a multi-line quoted scalar ends at its closing quote.
        let text = "d: 'a\n  b' # note\n";
        let r = parse(text, 0).root.unwrap();
        assert_eq!(r.as_map().unwrap().value("d").unwrap().span.text(text), "'a\n  b'");
        // A comment right after the closing quote.
        assert_eq!(json("color: \"#fff\"# note"), Ok(serde_json::json!({"color": "#fff"})));
        // `key: "value" other: x` is two entries for js-yaml.
        assert_eq!(
            json("name: \"q\" a: b\nmode: x"),
            Ok(serde_json::json!({"name": "q", "a": "b", "mode": "x"}))
        );
        // A lone CR is a line break inside a quoted scalar too.
        assert_eq!(json("d: \"a\rb\""), Ok(serde_json::json!({"d": "a b"})));
        // Blank lines inside a quoted scalar: n line breaks fold to n - 1 newlines.
        assert_eq!(
            json("d: \"a\n\n\n  b\"\nmode: x"),
            Ok(serde_json::json!({"d": "a\n\nb", "mode": "x"}))
        );
        assert_eq!(json("d: 'a\n\n  b'"), Ok(serde_json::json!({"d": "a\nb"})));
        // Escapes, and UTF-16 pairs written as two escapes.
        assert_eq!(
            json("d: \"\\t\\x41\\u00e9\\uD83D\\uDE80\n  x\""),
            Ok(serde_json::json!({"d": "\tAé🚀 x"}))
        );
        // An escape js-yaml does not know is no well-formed scalar (not a character of code 0).
        assert_eq!(js_quoted("\"a\\qb\""), None);
        assert_eq!(js_quoted("\"a\\x4\""), None);
        assert_eq!(js_quoted("\"\\x41\" rest"), Some(("A".to_string(), 6)));
    }

    #[test]
    fn explicit_tags_follow_js_yaml() {
        assert_eq!(
            json("a: !!str 5\nb: !!int '7'\nc: !!float 1\nd: ! 5\ne: !!str"),
            Ok(serde_json::json!({"a": "5", "b": 7, "c": 1.0, "d": "5", "e": ""}))
        );
        assert_eq!(
            json("s: !!set {a, b}\no: !!omap [a: 1]\np: !!pairs [a: 1]"),
            Ok(serde_json::json!({"s": {"a": null, "b": null}, "o": [{"a": 1}], "p": [["a", 1]]}))
        );
        assert_eq!(
            json("e: !!map\nf: !!seq\ng: !!null"),
            Ok(serde_json::json!({"e": {}, "f": [], "g": null}))
        );
        for bad in [
            "a: !custom x",
            "a: !!int abc",
            "a: !!bool yes",
            "a: !!null x",
            "a: !!int {}",
            "a: !!str [x]",
            "a: !!map x",
            "a: !!set {a: 1}",
            "a: !!omap [a, b]",
            "a: !!float",
            "a: !!binary $$",
            "a: !!js/undefined",
        ] {
            assert!(json(bad).is_err(), "{bad}");
        }
        // Binary data is a value we do not build; a timestamp is the JavaScript date it becomes.
        let r = parse("a: !!binary aGVsbG8=\nb: 2024-01-15", 0).root.unwrap();
        let m = r.as_map().unwrap();
        assert!(m.value("a").unwrap().is_unknown());
        assert_eq!(
            m.value("b").unwrap().value,
            Value::Timestamp("2024-01-15T00:00:00.000Z".into())
        );
    }

    #[test]
    fn keys_are_strings_as_in_javascript() {
        assert_eq!(
            json("~: a\n1.0: b\n0x1F: c\ntrue: d\n[x, y]: e\n{k: v}: f\n.inf: g\n1e21: h"),
            Ok(
                serde_json::json!({"null": "a", "1": "b", "31": "c", "true": "d", "x,y": "e", "[object Object]": "f", "Infinity": "g", "1e+21": "h"})
            )
        );
        // Duplicates are found on those strings.
        assert!(json("1: a\n'1': b").is_err());
        assert!(json("? [a]\n: 1\n? [[a]]\n: 2").is_err());
        assert_eq!(js_number(0.000001), "0.000001");
        assert_eq!(js_number(1e-7), "1e-7");
        assert_eq!(js_number(-1.5), "-1.5");
        assert_eq!(js_number(123456789012345680000.0), "123456789012345680000");
    }

    #[test]
    fn merge_keys_follow_js_yaml() {
        // Explicit keys win wherever they are; the first merged source wins.
        let text = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  x: 0\n  <<: [*a, *b]\n  z: 3\n  <<: {w: 4}";
        assert_eq!(
            json(text).unwrap()["c"],
            serde_json::json!({"x": 0, "y": 1, "z": 3, "w": 4})
        );
        // A quoted "<<" is a plain key; a merge of anything but mappings fails.
        assert_eq!(json("\"<<\": 1"), Ok(serde_json::json!({"<<": 1})));
        assert!(json("a:\n  <<: 5").is_err());
        assert!(json("a:\n  <<:").is_err());
        assert!(json("a:\n  <<: [1]").is_err());
        // A key set twice after the merge is still a duplicate.
        assert!(json("a: &a {x: 1}\nb:\n  <<: *a\n  x: 2\n  x: 3").is_err());
    }

    #[test]
    fn what_js_yaml_rejects() {
        for bad in [
            ": x",
            "a: 1\n: x",
            "- : x",
            "? : x",
            "&k a: x",
            "!!str a: x",
            "a: \"\u{1}\"",
            "a: b\u{7f}",
            "a: b\0",
            "a: 1\n...\nb: 2",
            "...\nb: 2",
            "a: 1\n...\n...",
        ] {
            assert!(json(bad).is_err(), "{bad:?}");
        }
        for good in ["?\n: x", "{: x}", "a: 1\n...\n# end", "b: 1\n&k a: x", "a: \"\\u0001\""] {
            assert!(json(good).is_ok(), "{good:?}: {:?}", json(good));
        }
    }

    #[test]
    fn error_position_is_in_bytes() {
        let text = "description: 审查\nmode: \"unterminated\n";
        let p = parse(text, 0);
        assert_eq!(p.errors.len(), 1);
        let err = &p.errors[0];
        assert!(err.span.start as usize >= text.find('"').unwrap(), "{err:?}");
        assert!(text.is_char_boundary(err.span.start as usize));
    }

    #[test]
    fn offset_is_applied() {
        let p = parse("mode: x\n", 4);
        let r = p.root.unwrap();
        assert_eq!(r.as_map().unwrap().get("mode").unwrap().key.span, Span::new(4, 8));
    }

    #[test]
    fn billion_laughs_is_bounded() {
        let mut text = String::from("l0: &l0 [a, b, c, d, e, f, g, h, i, j]\n");
        for level in 1..10 {
            let refs = vec![format!("*l{}", level - 1); 10].join(", ");
            text.push_str(&format!("l{level}: &l{level} [{refs}]\n"));
        }
        let p = parse(&text, 0);
        assert!(p.errors.iter().any(|e| e.message.contains("alias expansion")));
    }

    #[test]
    fn deep_block_nesting_is_cut_off() {
        let text = "- ".repeat(100_000) + "x\n";
        let p = parse(&text, 0);
        assert!(p.errors.iter().any(|e| e.message.contains("nesting")));
        assert!(depth(p.root.as_ref().unwrap()) <= MAX_DEPTH + 1);
    }

    use super::super::depth;

    #[test]
    fn merge_keys_apply() {
        let r = root("base: &b\n  mode: subagent\nagent:\n  <<: *b\n  hidden: true\n");
        let agent = r.as_map().unwrap().value("agent").unwrap().as_map().unwrap();
        assert!(agent.contains("mode"));
        assert!(!agent.contains("<<"));
    }

    #[test]
    fn timestamps_are_the_dates_javascript_builds() {
        for (text, iso) in [
            ("2024-01-02", "2024-01-02T00:00:00.000Z"),
            ("2001-2-4 1:59:43", "2001-02-04T01:59:43.000Z"),
            ("2001-12-14t21:59:43.10-05:00", "2001-12-15T02:59:43.100Z"),
            ("2001-12-14 21:59:43.123456 Z", "2001-12-14T21:59:43.123Z"),
            ("2023-02-30", "2023-03-02T00:00:00.000Z"),
            ("2024-13-01", "2025-01-01T00:00:00.000Z"),
            ("0050-06-01", "1950-06-01T00:00:00.000Z"),
            ("1969-12-31 23:59:59 +1", "1969-12-31T22:59:59.000Z"),
            ("9999-12-31 23:59:59 -1", "+010000-01-01T00:59:59.000Z"),
        ] {
            assert_eq!(timestamp_iso(text).as_deref(), Some(iso), "{text}");
        }
        assert_eq!(timestamp_iso("2024-1-5"), None);
    }

    // The YAML 1.2 core flavour (Bun, for Claude Code).

    fn core(text: &str) -> Node {
        let p = parse_core(text, 0);
        assert!(p.errors.is_empty(), "{text:?}: {:?}", p.errors);
        p.root.unwrap()
    }

    fn core_json(text: &str) -> Result<serde_json::Value, String> {
        let p = parse_core(text, 0);
        match p.errors.first() {
            Some(e) => Err(e.message.clone()),
            None => Ok(p.root.map(|r| r.to_json()).unwrap_or_default()),
        }
    }

    #[test]
    fn core_scalar_resolution() {
        let cases: &[(&str, Value)] = &[
            ("", Value::Null),
            ("~", Value::Null),
            ("null", Value::Null),
            ("Null", Value::Null),
            ("NULL", Value::Null),
            ("nULL", Value::Str("nULL".into())),
            ("true", Value::Bool(true)),
            ("True", Value::Bool(true)),
            ("TRUE", Value::Bool(true)),
            ("false", Value::Bool(false)),
            ("False", Value::Bool(false)),
            ("FALSE", Value::Bool(false)),
            ("tRUE", Value::Str("tRUE".into())),
            ("yes", Value::Str("yes".into())),
            ("no", Value::Str("no".into())),
            ("on", Value::Str("on".into())),
            ("off", Value::Str("off".into())),
            ("y", Value::Str("y".into())),
            ("42", Value::Int(42)),
            ("-42", Value::Int(-42)),
            ("+42", Value::Int(42)),
            ("017", Value::Int(17)),
            ("08", Value::Int(8)),
            ("0o17", Value::Int(15)),
            ("0o18", Value::Str("0o18".into())),
            ("-0o17", Value::Str("-0o17".into())),
            ("0x1F", Value::Int(31)),
            ("0X1F", Value::Str("0X1F".into())),
            ("0b101", Value::Str("0b101".into())),
            ("1_000", Value::Str("1_000".into())),
            ("1:30", Value::Str("1:30".into())),
            ("2.5", Value::Float(2.5)),
            ("-2.5", Value::Float(-2.5)),
            (".5", Value::Float(0.5)),
            ("5.", Value::Float(5.0)),
            ("1e3", Value::Float(1000.0)),
            ("1.5E-2", Value::Float(0.015)),
            ("1e", Value::Str("1e".into())),
            (".", Value::Str(".".into())),
            ("-", Value::Str("-".into())),
            ("1:30.5", Value::Str("1:30.5".into())),
            ("2024-01-01", Value::Str("2024-01-01".into())),
            (
                "2001-12-14t21:59:43.10-05:00",
                Value::Str("2001-12-14t21:59:43.10-05:00".into()),
            ),
            ("<<", Value::Str("<<".into())),
            ("9223372036854775808", Value::Float(9223372036854775808.0)),
        ];
        for (text, want) in cases {
            assert_eq!(&resolve_core(text), want, "{text}");
        }
        for (text, want) in [
            (".inf", f64::INFINITY),
            ("-.Inf", f64::NEG_INFINITY),
            ("+.INF", f64::INFINITY),
        ] {
            assert_eq!(resolve_core(text), Value::Float(want), "{text}");
        }
        for text in [".nan", ".NaN", ".NAN"] {
            assert!(matches!(resolve_core(text), Value::Float(f) if f.is_nan()), "{text}");
        }
        assert_eq!(resolve_core("-.nan"), Value::Str("-.nan".into()));
        // In a document, quoted values stay strings.
        let r = core("a: 017\nb: '017'\nc: \"true\"\nd: |\n  42\n");
        let m = r.as_map().unwrap();
        assert_eq!(m.value("a").unwrap().value, Value::Int(17));
        assert_eq!(m.value("b").unwrap().as_str(), Some("017"));
        assert_eq!(m.value("c").unwrap().as_str(), Some("true"));
        assert_eq!(m.value("d").unwrap().as_str(), Some("42\n"));
    }

    #[test]
    fn core_duplicates_are_accepted_and_listed() {
        let text = "a: 1\nb: 2\na: 3\n";
        let p = parse_core(text, 0);
        assert!(p.errors.is_empty());
        assert_eq!(p.duplicates.len(), 1);
        assert_eq!(p.duplicates[0].first, Span::new(0, 1));
        assert_eq!(p.duplicates[0].duplicate, Span::new(10, 11));
        assert_eq!(
            p.root.unwrap().as_map().unwrap().value("a").unwrap().value,
            Value::Int(3)
        );
    }

    #[test]
    fn core_tags() {
        let r = core(
            "a: !important note\nb: !!str 42\nc: !!int \"7\"\nd: !!int abc\ne: !!float 1\nf: ! 12\ng: !x [1, 2]\nh: !!bool yes\ni: !!null ~\n",
        );
        let m = r.as_map().unwrap();
        assert_eq!(m.value("a").unwrap().as_str(), Some("note"));
        // The span starts at the tag, as for every tagged node.
        assert_eq!(m.value("a").unwrap().span, Span::new(3, 18));
        assert_eq!(m.value("b").unwrap().as_str(), Some("42"));
        assert_eq!(m.value("c").unwrap().value, Value::Int(7));
        assert_eq!(m.value("d").unwrap().as_str(), Some("abc"));
        assert_eq!(m.value("e").unwrap().value, Value::Float(1.0));
        assert_eq!(m.value("f").unwrap().as_str(), Some("12"));
        assert_eq!(m.value("g").unwrap().to_json(), serde_json::json!([1, 2]));
        assert_eq!(m.value("h").unwrap().as_str(), Some("yes"));
        assert_eq!(m.value("i").unwrap().value, Value::Null);
    }

    #[test]
    fn core_tabs() {
        // A tab as indentation is an error; after `key:` or inside a value it is fine.
        assert!(core_json("a:\n\t- x\n").is_err());
        assert!(core_json("a:\n\tb: c\n").is_err());
        assert!(core_json("a: b\n\tc: d\n").is_err());
        let many: String = (0..200).map(|i| format!("k{i}:\tv{i}\n")).collect();
        let r = core(&many);
        let m = r.as_map().unwrap();
        assert_eq!(m.entries.len(), 200);
        let e = m.get("k199").unwrap();
        assert_eq!(e.value.span.text(&many), "v199");
        for (text, want) in [
            ("a:\tb\n", serde_json::json!({"a": "b"})),
            ("a:\t\t b\tc\n", serde_json::json!({"a": "b\tc"})),
            ("- a:\tb\n", serde_json::json!([{"a": "b"}])),
            ("a: {b:\tc}\n", serde_json::json!({"a": {"b": "c"}})),
            ("a: \"x:\ty\"\n", serde_json::json!({"a": "x:\ty"})),
            ("a: |\n  x:\ty\n", serde_json::json!({"a": "x:\ty\n"})),
            ("a: b\n\t# comment\n", serde_json::json!({"a": "b"})),
            ("a:\t# c\n", serde_json::json!({"a": null})),
        ] {
            assert_eq!(core_json(text), Ok(want), "{text:?}");
        }
    }

    #[test]
    fn core_reads_what_js_yaml_rejects_or_rewrites() {
        // js-yaml-only rejections and normalisations do not apply.
        assert!(core_json("&k a: x\n").is_ok());
        assert!(core_json("!!str a: x\n").is_ok());
        assert!(core_json("a: 1\n...\n# end\n").is_ok());
        // `<<` is an ordinary key.
        let r = core("base: &b\n  x: 1\nagent:\n  <<: *b\n  y: 2\n");
        let agent = r.as_map().unwrap().value("agent").unwrap().as_map().unwrap();
        assert!(agent.contains("<<"));
        assert!(!agent.contains("x"));
        // Several documents are a list of them.
        assert_eq!(
            core_json("a: 1\n...\nb: 2\n"),
            Ok(serde_json::json!([{"a": 1}, {"b": 2}]))
        );
        // A multi-line quoted scalar folds as YAML 1.2 says (trailing blanks dropped).
        assert_eq!(core_json("a: \"x  \n  y\"\n"), Ok(serde_json::json!({"a": "x y"})));
        // No line break is added at the end: a block scalar's last line keeps none.
        assert_eq!(core_json("a: |\n  x"), Ok(serde_json::json!({"a": "x"})));
        assert_eq!(core_json("a: >\n  x\n  y"), Ok(serde_json::json!({"a": "x y"})));
        assert_eq!(core_json("a: |+\n  x"), Ok(serde_json::json!({"a": "x"})));
        assert_eq!(core_json("a: |-\n  x"), Ok(serde_json::json!({"a": "x"})));
        assert_eq!(core_json("a: |\n  x\n"), Ok(serde_json::json!({"a": "x\n"})));
        assert_eq!(core_json("a: |\n  x\n  "), Ok(serde_json::json!({"a": "x\n"})));
        assert_eq!(
            core_json("a: |\n  x\nb: 1"),
            Ok(serde_json::json!({"a": "x\n", "b": 1}))
        );
    }

    #[test]
    fn core_errors_on_what_yaml_1_2_rejects() {
        for bad in [
            "a: x: y\n",
            "a: Use it. Examples:\n",
            "a: @x\n",
            "a: `x`\n",
            "a: %x\n",
            "a: *nope\n",
            "a: - b\n",
            "a: ? b\n",
            "a: {x} y\n",
            "a: [x] y\n",
            "a: \"x\" y\n",
            "a: \"x\n",
            "a: [x\n",
            "name:foo\nb: c\n",
            "a: x\nb\n",
        ] {
            assert!(core_json(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn core_edited_spans_map_back() {
        // `a: x: y` with the value quoted, as Claude Code's retry does.
        let text = "k: 1\na:\t\\x: \"y\"\n";
        let edits = [
            Edit {
                from: 7,
                to: 8,
                with: " ".into(),
            },
            Edit {
                from: 8,
                to: 8,
                with: "\"".into(),
            },
            Edit {
                from: 8,
                to: 9,
                with: "\\\\".into(),
            },
            Edit {
                from: 12,
                to: 13,
                with: "\\\"".into(),
            },
            Edit {
                from: 14,
                to: 15,
                with: "\\\"".into(),
            },
            Edit {
                from: 15,
                to: 15,
                with: "\"".into(),
            },
        ];
        let p = parse_core_edited(text, 10, &edits);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        let r = p.root.unwrap();
        let e = r.as_map().unwrap().get("a").unwrap();
        assert_eq!(e.value.as_str(), Some("\\x: \"y\""));
        assert_eq!(e.key.span, Span::new(15, 16));
        assert_eq!(e.value.span, Span::new(18, 25));
        assert_eq!(e.value.span.shifted(0).range(), 18..25);
        assert_eq!(
            &text[e.value.span.start as usize - 10..e.value.span.end as usize - 10],
            "\\x: \"y\""
        );
        // An error in the copy maps into the original.
        let p = parse_core_edited(
            "a: b\n\tc: d\n",
            0,
            &[Edit {
                from: 5,
                to: 6,
                with: "  ".into(),
            }],
        );
        assert!(p.errors.first().is_some_and(|e| e.span.end as usize <= 11));
    }

    #[test]
    fn a_plain_scalar_continued_on_a_line_starting_with_a_quote() {
        // The tab after `k:` sends the text through the normaliser; the line `  "two` continues
        // the plain scalar `one` (it is deeper than `c`), so its quote opens nothing.
        assert_eq!(
            json("k:\tv\nc: one\n  \"two\nd: 3\n"),
            Ok(serde_json::json!({"k": "v", "c": "one \"two", "d": 3}))
        );
    }

    #[test]
    fn depth_counts_every_level_of_maps_and_sequences() {
        // The bound checks below rest on `depth` being exact: a map holding a sequence holding
        // a map holding a sequence is five levels deep with its scalar.
        let p = parse_core("a: [[1], {b: [2]}]\n", 0);
        assert_eq!(depth(p.root.as_ref().unwrap()), 5);
        let p = parse_core("- - - x\n", 0);
        assert_eq!(depth(p.root.as_ref().unwrap()), 4);
        assert_eq!(depth(parse_core("x\n", 0).root.as_ref().unwrap()), 1);
    }

    #[test]
    fn core_hostile_input_is_bounded() {
        let mut text = String::from("l0: &l0 [a, b, c, d, e, f, g, h, i, j]\n");
        for level in 1..10 {
            let refs = vec![format!("*l{}", level - 1); 10].join(", ");
            text.push_str(&format!("l{level}: &l{level} [{refs}]\n"));
        }
        let p = parse_core(&text, 0);
        assert!(p.errors.iter().any(|e| e.message.contains("alias expansion")));
        let text = "- ".repeat(100_000) + "x\n";
        let p = parse_core(&text, 0);
        assert!(depth(p.root.as_ref().unwrap()) <= MAX_DEPTH + 1);
        assert!(p.errors.is_empty());
        let text = format!("a: {}{}\n", "[".repeat(300), "]".repeat(300));
        let p = parse_core(&text, 0);
        assert!(p.errors.is_empty());
        let a = p.root.unwrap().as_map().unwrap().value("a").unwrap().clone();
        assert_eq!(a.span.text(&text), &text[3..603]);
        assert!(depth(&a) <= MAX_DEPTH + 1);
        // Deep flow content over several lines, with quotes and comments, then more keys.
        let inner = "x, \"]}\", 'it''s [', {b: c} # ]\n  , é";
        let text = format!("a: {}{inner}{}\nb: 2\n", "[".repeat(300), "]".repeat(300));
        let p = parse_core(&text, 0);
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        let r = p.root.unwrap();
        assert_eq!(r.as_map().unwrap().value("b").unwrap().value, Value::Int(2));
        // Unbalanced: still an error.
        let text = format!("a: {}x\n", "[".repeat(300));
        assert!(!parse_core(&text, 0).errors.is_empty());
        // Many `key:\tvalue` sites in a large text stay within the budget (and may fail).
        let text = "k:\tv\n".repeat(100_000);
        let start = std::time::Instant::now();
        let _ = parse_core(&text, 0);
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
    }
}
