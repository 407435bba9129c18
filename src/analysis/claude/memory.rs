//! Claude Code's memory files (release 2.1.332) and their `@path` imports.
//!
//! Which files (from its loader, confirmed by running it with a scripted model): at start, for
//! every folder from the file-system root's child down to the folder it starts in, that folder's
//! `CLAUDE.md`, then `.claude/CLAUDE.md`, then `.claude/rules/**/*.md`, then `CLAUDE.local.md`;
//! before them the user's `~/.claude/CLAUDE.md` and `~/.claude/rules/**/*.md`. The same files of a
//! folder below the start are read later, when Claude reads a file in that folder. Each file is
//! given to the model whole, its frontmatter removed, each import right after the file that
//! imports it.
//!
//! How an import is found ([`imports`]): Claude Code lexes the body as Markdown and looks in its
//! text, not in code (fenced or indented blocks, code spans), not in HTML (an HTML block is left
//! out unless it is a comment, whose text after the comment still counts; inline tags and
//! comments are left out, the text between tags counts), not in link destinations or image
//! texts, not after a backslash. An import is `@` at the start of a piece of text or after a
//! blank, then everything up to the next blank (`\ ` keeps a blank in the path): a `.` or `,`
//! right after the path is part of it. What follows a `#` is cut off. The path must start with
//! `./`, `~/`, `/` or a letter, digit, `.`, `_` or `-`. A relative path starts at the importing
//! file's folder, `~/` at the home folder.
//!
//! What Claude Code then does (judged in the workspace, which sees the disk): it reads the file if
//! it is a file (4 MiB at most) whose extension, if it has one, is a text file's ([`TEXT_EXTENSIONS`];
//! others are skipped with a debug-log line); a missing file, a folder, a file already read and an
//! import more than four imports deep are skipped without a word; a project file's import outside
//! the folder Claude Code starts in is read only once the user approved external imports.
//!
//! How this was checked with the runtime (Claude Code 2.1.332, `claude -p go` with an empty home
//! against the scripted mock model of `tests/agents/`, which logs every request): the first
//! request holds one `Contents of <path> (<label>):` section per memory file and per import
//! read. An import that names a file arrives right after its importer (an import of an import
//! too, from the importing file's folder); `@missing.md`, `@notes.md,` (looked up as
//! `notes.md,`), `@sub` (a folder) and `` `@code.md` `` arrive nowhere, and nothing in the
//! session or the output says so; `--debug-file` logs only the folder ("not a regular file") and
//! the non-text file ("Skipping non-text file in @include"), not the missing one. A rule of
//! `.claude/rules/` imports from its own folder (`@x.md` in `.claude/rules/r.md` is
//! `.claude/rules/x.md`). A nested `CLAUDE.md` below the start folder is not in the first request.
//! Step (f) of `tests/agents/run.sh` repeats this and compares it with `agent-lsp check`.

use crate::analysis::prompt::{FileRef, inline_code};
use crate::analysis::syntax::Parsed;
use crate::analysis::text::Span;

use super::read::{self, js_space};

/// Which memory file, from its path (see `workspace::discover::memory_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryFile {
    /// `CLAUDE.md` or `.claude/CLAUDE.md` of a folder: the project's, a parent's or a
    /// sub-folder's ("project instructions, checked into the codebase").
    Project,
    /// `CLAUDE.local.md` ("user's private project instructions, not checked in").
    Local,
    /// A Markdown file under a project's `.claude/rules/` (any depth).
    Rule,
    /// The user's `~/.claude/CLAUDE.md` or a file under `~/.claude/rules/`: imports outside the
    /// project are read without asking.
    User,
    /// `AGENTS.md` of a folder (or `.claude/AGENTS.md`): opencode's first choice, and Claude
    /// Code's where no `CLAUDE.md` is found (see [`crate::analysis::instructions`]); its imports
    /// are Claude Code's.
    Agents,
    /// `CONTEXT.md` of a folder: opencode's third choice; Claude Code never reads it (so no
    /// import of it is expanded).
    Context,
}

impl MemoryFile {
    /// What Claude Code calls the file when it hands it to the model.
    pub fn label(self) -> &'static str {
        match self {
            MemoryFile::Project | MemoryFile::Rule | MemoryFile::Agents | MemoryFile::Context => "project instructions",
            MemoryFile::Local => "private project instructions",
            MemoryFile::User => "global instructions for all projects",
        }
    }
}

/// What a memory file holds for the checks: its imports, in file order; for a rule of
/// `.claude/rules/`, the patterns of its `paths` (none: it is loaded for every file).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    pub imports: Vec<FileRef>,
    pub paths: Vec<(String, Span)>,
}

/// The extensions of the files an import may name (compared in lower case); a path without an
/// extension is read too.
pub const TEXT_EXTENSIONS: &[&str] = &[
    "md",
    "txt",
    "text",
    "json",
    "yaml",
    "yml",
    "toml",
    "xml",
    "csv",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "js",
    "ts",
    "tsx",
    "jsx",
    "mjs",
    "cjs",
    "mts",
    "cts",
    "py",
    "pyi",
    "pyw",
    "rb",
    "erb",
    "rake",
    "go",
    "rs",
    "java",
    "kt",
    "kts",
    "scala",
    "c",
    "cpp",
    "cc",
    "cxx",
    "h",
    "hpp",
    "hxx",
    "cs",
    "swift",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "env",
    "ini",
    "cfg",
    "conf",
    "config",
    "properties",
    "sql",
    "graphql",
    "gql",
    "proto",
    "vue",
    "svelte",
    "astro",
    "ejs",
    "hbs",
    "pug",
    "jade",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "dart",
    "ex",
    "exs",
    "erl",
    "hrl",
    "clj",
    "cljs",
    "cljc",
    "edn",
    "hs",
    "lhs",
    "elm",
    "ml",
    "mli",
    "f",
    "f90",
    "f95",
    "for",
    "cmake",
    "make",
    "makefile",
    "gradle",
    "sbt",
    "rst",
    "adoc",
    "asciidoc",
    "org",
    "tex",
    "latex",
    "lock",
    "log",
    "diff",
    "patch",
];

/// The extension of a path's last segment as Node's `path.extname` gives it, without the dot:
/// `None` when there is none (`NOTES`, `.env`), `Some("")` for a name ending in `.`.
pub fn extension(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dot = name.rfind('.')?;
    // A leading dot (`.env`, `..`) starts a name, not an extension.
    if name[..dot].chars().all(|c| c == '.') {
        return None;
    }
    Some(&name[dot + 1..])
}

/// Whether Claude Code reads a file with this path's extension as an import.
pub fn is_text(path: &str) -> bool {
    extension(path).is_none_or(|e| TEXT_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// How deep imports go: the file itself is level 0, a file it imports level 1, ...; Claude Code
/// reads levels 0 to 4.
pub const MAX_IMPORT_DEPTH: usize = 4;

/// Analyse a memory file on its own: its frontmatter (Claude Code removes it) and its imports.
/// No diagnostic comes from the text alone: whether an import names a file is the disk's to say.
pub fn analyze(text: &str) -> (Parsed, Memory) {
    let (_, parsed, memory) = analyze_as(MemoryFile::Project, text);
    (parsed, memory)
}

/// [`analyze`] for a file of this kind: a rule of `.claude/rules/` also has its frontmatter's
/// `paths` read and checked (see [`super::rules`]).
pub fn analyze_as(kind: MemoryFile, text: &str) -> (Vec<crate::analysis::Diagnostic>, Parsed, Memory) {
    let reading = read::read(text);
    let body = reading.block.as_ref().map_or(0, |b| b.body.start as usize);
    let (diagnostics, paths) = if kind == MemoryFile::Rule {
        let diagnostics = super::rules::check(text, &reading);
        // The patterns the workspace matches against the project: not those already reported
        // as matching nothing (a `./` prefix, a list only the retry reads).
        let mut paths = super::rules::patterns(&reading);
        paths.retain(|(p, span)| {
            !p.starts_with("./")
                && !diagnostics
                    .iter()
                    .any(|d| d.code == crate::analysis::Code::LenientParse && d.span == *span)
        });
        (diagnostics, paths)
    } else {
        (Vec::new(), Vec::new())
    };
    (
        diagnostics,
        reading.parsed,
        Memory {
            // No runtime expands the imports of a `CONTEXT.md`.
            imports: if kind == MemoryFile::Context {
                Vec::new()
            } else {
                imports_from(text, body)
            },
            paths,
        },
    )
}

/// The imports of a memory file (see the module documentation), in file order.
pub fn imports(text: &str) -> Vec<FileRef> {
    let body = read::read(text).block.map_or(0, |b| b.body.start as usize);
    imports_from(text, body)
}

/// What ends an HTML block (CommonMark's seven kinds, as the Markdown lexer Claude Code uses has
/// them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HtmlEnd {
    /// A line holding this text (`</script>`, `-->`, `?>`, `>`, `]]>`).
    Text(&'static str),
    /// A blank line.
    Blank,
}

/// The block tags that start an HTML block of kind 6.
const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];

/// The HTML block a line (its text after the indentation) starts, if any; `in_paragraph`: the
/// line would continue a paragraph (only kinds 1 to 6 interrupt one).
fn html_start(rest: &str, in_paragraph: bool) -> Option<HtmlEnd> {
    let lower = rest.to_ascii_lowercase();
    let b = lower.as_bytes();
    if b.first() != Some(&b'<') {
        return None;
    }
    for (tag, end) in [
        ("script", "</script>"),
        ("pre", "</pre>"),
        ("style", "</style>"),
        ("textarea", "</textarea>"),
    ] {
        if let Some(after) = lower[1..].strip_prefix(tag)
            && after.chars().next().is_none_or(|c| c == '>' || c.is_ascii_whitespace())
        {
            return Some(HtmlEnd::Text(end));
        }
    }
    if lower.starts_with("<!--") {
        return Some(HtmlEnd::Text("-->"));
    }
    if lower.starts_with("<?") {
        return Some(HtmlEnd::Text("?>"));
    }
    if lower.starts_with("<![cdata[") {
        return Some(HtmlEnd::Text("]]>"));
    }
    if b.get(1) == Some(&b'!') && b.get(2).is_some_and(u8::is_ascii_alphabetic) {
        return Some(HtmlEnd::Text(">"));
    }
    let name_at = if b.get(1) == Some(&b'/') { 2 } else { 1 };
    let name_len = b[name_at..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
        .count();
    if name_len == 0 || !b[name_at].is_ascii_alphabetic() {
        return None;
    }
    let name = &lower[name_at..name_at + name_len];
    let after = &lower[name_at + name_len..];
    if BLOCK_TAGS.contains(&name)
        && (after.is_empty() || after.starts_with(['>', ' ', '\t']) || after.starts_with("/>"))
    {
        return Some(HtmlEnd::Blank);
    }
    // Kind 7: a whole open or closing tag, alone on its line.
    if !in_paragraph && let Some(close) = after.find('>') {
        let attrs = &after[..close];
        if !attrs.contains('<') && after[close + 1..].trim().is_empty() && (name_at == 1 || attrs.trim().is_empty()) {
            return Some(HtmlEnd::Blank);
        }
    }
    None
}

/// The column width of a line's indentation (a tab reaches the next multiple of four) and its
/// length in bytes.
fn indentation(line: &str) -> (usize, usize) {
    let mut cols = 0;
    let mut bytes = 0;
    for c in line.bytes() {
        match c {
            b' ' => cols += 1,
            b'\t' => cols += 4 - cols % 4,
            _ => break,
        }
        bytes += 1;
    }
    (cols, bytes)
}

/// A fence opener (`` ``` `` or `~~~`, three or more, a backtick fence's info without a
/// backtick): its character and length.
fn fence_open(rest: &str) -> Option<(u8, usize)> {
    [b'`', b'~'].into_iter().find_map(|ch| {
        let n = rest.bytes().take_while(|c| *c == ch).count();
        (n >= 3 && !(ch == b'`' && rest[n..].contains('`'))).then_some((ch, n))
    })
}

/// A list item's marker (`-`, `+`, `*`, `1.`, `1)` and a blank): the column its content starts
/// at, counted from the marker.
fn list_marker(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    let marker = match b.first()? {
        b'-' | b'+' | b'*' => 1,
        c if c.is_ascii_digit() => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 9 || !matches!(b.get(digits), Some(b'.' | b')')) {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    match b.get(marker) {
        None | Some(b'\n' | b'\r') => Some(marker + 1),
        Some(b' ' | b'\t') => {
            let blanks = b[marker..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
            // Five blanks or more: the content is indented code, starting one blank in.
            Some(marker + if blanks > 4 { 1 } else { blanks })
        }
        _ => None,
    }
}

/// The imports of `text`, whose Markdown body starts at byte `body`.
fn imports_from(text: &str, body: usize) -> Vec<FileRef> {
    // Pass 1, blocks: the byte ranges left out (code blocks, HTML), the runs of paragraph text
    // (each a list of lines) and where each line's content starts.
    let mut skip: Vec<Span> = Vec::new();
    let mut paragraphs: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut starts: Vec<usize> = Vec::new();
    let mut paragraph: Vec<(usize, &str)> = Vec::new();
    let mut fence: Option<(u8, usize, usize)> = None;
    let mut html: Option<(HtmlEnd, usize)> = None;
    // The content column of the list item the text is in.
    let mut list: Option<usize> = None;
    let mut blank_before = true;
    let mut pos = body;
    let lines: Vec<&str> = text.get(body..).unwrap_or("").split_inclusive('\n').collect();
    let html_block = |from: usize, to: usize, skip: &mut Vec<Span>| {
        let block = &text[from..to];
        let trimmed = block.trim_start();
        if trimmed.starts_with("<!--") && block.contains("-->") {
            // A comment block: its comments are left out, the rest is text.
            let mut at = 0;
            while let Some(open) = block[at..].find("<!--") {
                let open = at + open;
                let Some(close) = block[open + 4..].find("-->") else {
                    break;
                };
                let close = open + 4 + close + 3;
                skip.push(Span::new(from + open, from + close));
                at = close;
            }
        } else {
            skip.push(Span::new(from, to));
        }
    };
    let mut html_from = 0;
    for line in lines {
        let at = pos;
        pos += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some((ch, len, from)) = fence {
            let (cols, bytes) = indentation(content);
            let rest = &content[bytes..];
            let n = rest.bytes().take_while(|c| *c == ch).count();
            if cols <= 3 && n >= len && rest[n..].trim().is_empty() {
                skip.push(Span::new(from, at + content.len()));
                fence = None;
            }
            continue;
        }
        if let Some((end, _)) = html {
            match end {
                HtmlEnd::Blank if content.trim().is_empty() => {
                    html_block(html_from, at, &mut skip);
                    html = None;
                    blank_before = true;
                }
                HtmlEnd::Blank => {}
                HtmlEnd::Text(t) => {
                    if content.to_ascii_lowercase().contains(t) {
                        html_block(html_from, at + content.len(), &mut skip);
                        html = None;
                    }
                }
            }
            continue;
        }
        if content.trim().is_empty() {
            if !paragraph.is_empty() {
                paragraphs.push(std::mem::take(&mut paragraph));
            }
            blank_before = true;
            continue;
        }
        let (cols, bytes) = indentation(content);
        let in_paragraph = !paragraph.is_empty();
        // Indented code: four columns in, not continuing a paragraph, not a list item's text.
        if cols >= 4 && !in_paragraph {
            match list {
                Some(c) if cols < c + 4 => {}
                _ => {
                    skip.push(Span::new(at, at + content.len()));
                    continue;
                }
            }
        }
        // Block quote markers, then the block the line starts.
        let mut inner = bytes;
        loop {
            let rest = &content[inner..];
            let (_, b) = indentation(rest);
            if rest[b..].starts_with('>') {
                inner += b + 1;
                if content[inner..].starts_with(' ') {
                    inner += 1;
                }
            } else {
                break;
            }
        }
        let (icols, ibytes) = indentation(&content[inner..]);
        let rest = &content[inner + ibytes..];
        if icols <= 3 {
            if let Some((ch, n)) = fence_open(rest) {
                if !paragraph.is_empty() {
                    paragraphs.push(std::mem::take(&mut paragraph));
                }
                fence = Some((ch, n, at));
                continue;
            }
            if let Some(end) = html_start(rest, in_paragraph) {
                if !paragraph.is_empty() {
                    paragraphs.push(std::mem::take(&mut paragraph));
                }
                html_from = at;
                let closes_here = matches!(end, HtmlEnd::Text(t) if rest.to_ascii_lowercase()[1..].contains(t));
                if closes_here {
                    html_block(at, at + content.len(), &mut skip);
                } else {
                    html = Some((end, at));
                }
                continue;
            }
            if let Some(c) = list_marker(rest) {
                list = Some(inner + ibytes + c);
            } else if blank_before && list.is_some_and(|c| cols < c) {
                list = None;
            }
        }
        blank_before = false;
        starts.push(at + inner + ibytes);
        paragraph.push((at, line));
    }
    if let Some((_, _, from)) = fence {
        skip.push(Span::new(from, text.len()));
    }
    if html.is_some() {
        html_block(html_from, text.len(), &mut skip);
    }
    if !paragraph.is_empty() {
        paragraphs.push(paragraph);
    }
    // Pass 2, inline: code spans (with their backticks), HTML comments, tags and autolinks, link
    // destinations.
    let mut ends: Vec<usize> = Vec::new();
    for p in &paragraphs {
        let mut spans = Vec::new();
        inline_code(p, &mut spans);
        for s in spans {
            let (mut from, mut to) = (s.start as usize, s.end as usize);
            while from > 0 && text.as_bytes()[from - 1] == b'`' {
                from -= 1;
            }
            while text.as_bytes().get(to) == Some(&b'`') {
                to += 1;
            }
            skip.push(Span::new(from, to));
            ends.push(to);
        }
        let (first, last) = (p[0].0, p[p.len() - 1].0 + p[p.len() - 1].1.len());
        let para = &text[first..last];
        let b = para.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\\' {
                i += 2;
                continue;
            }
            if b[i] == b'<' {
                if para[i..].starts_with("<!--") {
                    if let Some(close) = para[i + 4..].find("-->") {
                        let to = i + 4 + close + 3;
                        skip.push(Span::new(first + i, first + to));
                        ends.push(first + to);
                        i = to;
                        continue;
                    }
                } else if b
                    .get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?'))
                    && let Some(close) = para[i + 1..].find(['>', '<', '\n'])
                    && b[i + 1 + close] == b'>'
                {
                    let to = i + 1 + close + 1;
                    skip.push(Span::new(first + i, first + to));
                    ends.push(first + to);
                    i = to;
                    continue;
                }
            }
            if b[i] == b']' && b.get(i + 1) == Some(&b'(') {
                // The destination, up to the matching `)` on the line.
                let mut depth = 0usize;
                let mut j = i + 1;
                while j < b.len() && b[j] != b'\n' {
                    match b[j] {
                        b'\\' => j += 1,
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if j < b.len() && b[j] == b')' {
                    skip.push(Span::new(first + i + 1, first + j + 1));
                    ends.push(first + j + 1);
                    i = j + 1;
                    continue;
                }
            }
            i += 1;
        }
    }
    skip.sort_by_key(|s| (s.start, s.end));
    ends.sort_unstable();
    let skipped = |at: usize| {
        let k = skip.partition_point(|s| (s.end as usize) <= at);
        skip[..k.min(skip.len())]
            .iter()
            .chain(skip.get(k))
            .any(|s| s.start as usize <= at && at < s.end as usize)
    };
    // Pass 3: the imports.
    let mut out = Vec::new();
    for p in &paragraphs {
        let (first, last) = (p[0].0, p[p.len() - 1].0 + p[p.len() - 1].1.len());
        let mut i = first;
        while let Some(k) = text[i..last].find('@') {
            let at = i + k;
            i = at + 1;
            if skipped(at) {
                continue;
            }
            let Some(opener) = starts_text(text, at, &starts, &ends) else {
                continue;
            };
            let (end, path) = token(text, at + 1, last, opener, &skipped);
            if end == at + 1 {
                continue;
            }
            i = end;
            let Some(path) = path.filter(|p| valid(p)) else {
                continue;
            };
            out.push(FileRef {
                path,
                span: Span::new(at + 1, end),
                in_code: false,
            });
        }
    }
    // The text of comment blocks (outside paragraphs) counts too.
    for s in comment_block_text(text, body, &skip, &paragraphs) {
        let mut i = s.start as usize;
        let last = s.end as usize;
        while let Some(k) = text[i..last].find('@') {
            let at = i + k;
            i = at + 1;
            if skipped(at) {
                continue;
            }
            let prev = text[..at].chars().next_back();
            if !(at == s.start as usize || prev.is_none_or(js_space) || ends.binary_search(&at).is_ok()) {
                continue;
            }
            let (end, path) = token(text, at + 1, last, Opener::None, &skipped);
            if end == at + 1 {
                continue;
            }
            i = end;
            if let Some(path) = path.filter(|p| valid(p)) {
                out.push(FileRef {
                    path,
                    span: Span::new(at + 1, end),
                    in_code: false,
                });
            }
        }
    }
    out.sort_by_key(|r| r.span.start);
    out
}

/// The text of HTML comment blocks besides their comments: the ranges of the body in no
/// paragraph and not left out.
fn comment_block_text(text: &str, body: usize, skip: &[Span], paragraphs: &[Vec<(usize, &str)>]) -> Vec<Span> {
    // Ranges covered by a paragraph or left out.
    let mut covered: Vec<(usize, usize)> = skip.iter().map(|s| (s.start as usize, s.end as usize)).collect();
    for p in paragraphs {
        covered.push((p[0].0, p[p.len() - 1].0 + p[p.len() - 1].1.len()));
    }
    covered.sort_unstable();
    // Only what an HTML comment block leaves: a gap between a comment and its line's end, on a
    // line that holds a comment's end.
    let mut out = Vec::new();
    for s in skip {
        let (from, to) = (s.start as usize, s.end as usize);
        if from < body || !text[from..to].starts_with("<!--") || !text[from..to].ends_with("-->") {
            continue;
        }
        let line_end = text[to..].find('\n').map_or(text.len(), |n| to + n);
        let mut gap_end = line_end;
        for &(a, b) in &covered {
            if a >= to {
                gap_end = gap_end.min(a);
            }
            if a < to && b > to {
                gap_end = to;
            }
        }
        if gap_end > to && text[to..gap_end].contains('@') {
            out.push(Span::new(to, gap_end));
        }
    }
    out
}

/// What a piece of text starting right before an `@` was opened by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opener {
    /// A line start, a blank or the end of code or HTML.
    None,
    /// A link's text (`[`): it ends at the `]` before `(`.
    Link,
    /// Emphasis (`*`, `_`): it ends at the closing run.
    Emphasis(u8),
}

/// Whether the `@` at `at` starts a piece of the lexer's text or follows a blank (how its
/// pattern `(^|\s)@` matches), and what opened that text.
fn starts_text(text: &str, at: usize, starts: &[usize], ends: &[usize]) -> Option<Opener> {
    if starts.binary_search(&at).is_ok() || ends.binary_search(&at).is_ok() {
        return Some(Opener::None);
    }
    let before = &text[..at];
    let prev = before.chars().next_back()?;
    if js_space(prev) {
        return Some(Opener::None);
    }
    let b = text.as_bytes();
    match prev {
        '[' => {
            // A link's text (not an image's): a `]` before `(` closes it on the line.
            if before[..before.len() - 1].ends_with('!') {
                return None;
            }
            let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
            let close = text[at..line_end].find("](")?;
            (!text[at..at + close].contains('[')).then_some(Opener::Link)
        }
        '*' | '_' => {
            let c = prev as u8;
            let run = before.bytes().rev().take_while(|x| *x == c).count();
            let run_start = at - run;
            // An opener: after a line start, a blank or punctuation.
            let ok = run_start == 0
                || starts.binary_search(&run_start).is_ok()
                || text[..run_start]
                    .chars()
                    .next_back()
                    .is_some_and(|p| js_space(p) || p.is_ascii_punctuation());
            if !ok {
                return None;
            }
            // A closing run later on the line, after a non-blank.
            let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
            let closes =
                (at + 1..line_end).any(|k| b[k] == c && !js_space(text[..k].chars().next_back().unwrap_or(' ')));
            closes.then_some(Opener::Emphasis(c))
        }
        _ => None,
    }
}

/// The import token after the `@` (from `from`, before `last`): where it ends and the path it
/// names (`None` when empty after the anchor is cut).
fn token(
    text: &str,
    from: usize,
    last: usize,
    opener: Opener,
    skipped: &dyn Fn(usize) -> bool,
) -> (usize, Option<String>) {
    let b = text.as_bytes();
    let mut end = from;
    while end < last {
        let c = text[end..].chars().next().unwrap_or(' ');
        if js_space(c) || skipped(end) {
            break;
        }
        if c == '\\' {
            if b.get(end + 1) == Some(&b' ') {
                end += 2;
                continue;
            }
            break;
        }
        match opener {
            Opener::Link if c == ']' && b.get(end + 1) == Some(&b'(') => break,
            Opener::Emphasis(e) if c as u32 == e as u32 => {
                // A closing run: for `_`, one followed by a blank, punctuation or the end.
                let run = b[end..].iter().take_while(|x| **x == e).count();
                let next = text[end + run..].chars().next();
                if e == b'*' || next.is_none_or(|n| js_space(n) || n.is_ascii_punctuation()) {
                    break;
                }
                end += run;
                continue;
            }
            _ => {}
        }
        end += c.len_utf8();
    }
    let raw = &text[from..end];
    let raw = raw.split('#').next().unwrap_or("");
    let path = raw.replace("\\ ", " ");
    (end, (!path.is_empty()).then_some(path))
}

/// Whether Claude Code takes a path as an import: it starts with `./`, `~/`, `/` (not `/` alone),
/// or a letter, digit, `.`, `_` or `-`.
fn valid(path: &str) -> bool {
    path.starts_with("./")
        || path.starts_with("~/")
        || (path.starts_with('/') && path != "/")
        || path
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests;
