//! Report formats of `agent-lsp check`: human (rustc/ruff-style snippets), json, github.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use crate::analysis::{Diagnostic, Encoding, LineCol, Location, Severity};
use crate::workspace::{File, Workspace};

/// Path shown to the user: relative to the current directory when possible, `/` separated.
pub fn display_path(path: &Path) -> String {
    // The current directory, as given and canonical, read once (a report may name a file
    // thousands of times).
    static CWD: std::sync::OnceLock<(Option<std::path::PathBuf>, Option<std::path::PathBuf>)> =
        std::sync::OnceLock::new();
    let (cwd, canonical) = CWD.get_or_init(|| {
        let cwd = std::env::current_dir().ok();
        let canonical = cwd.as_deref().and_then(|c| std::fs::canonicalize(c).ok());
        (cwd, canonical)
    });
    let rel = [cwd.as_deref(), canonical.as_deref()]
        .into_iter()
        .flatten()
        .find_map(|c| path.strip_prefix(c).ok())
        .unwrap_or(path);
    let s = rel.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_string).unwrap_or(s)
}

/// 1-based line and column (columns in Unicode scalar values).
fn pos(file: &File, offset: u32) -> (u32, u32) {
    let LineCol { line, col } = file.index.line_col(&file.text, offset as usize, Encoding::Utf32);
    (line + 1, col + 1)
}

pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub other: usize,
}

pub fn counts(diags: &[(usize, Diagnostic)]) -> Counts {
    let mut c = Counts {
        errors: 0,
        warnings: 0,
        other: 0,
    };
    for (_, d) in diags {
        match d.severity {
            Severity::Error => c.errors += 1,
            Severity::Warning => c.warnings += 1,
            _ => c.other += 1,
        }
    }
    c
}

struct Style {
    color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn severity(&self, s: Severity) -> String {
        let code = match s {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;36",
            Severity::Hint => "1;32",
        };
        self.paint(code, s.as_str())
    }
}

pub fn human(ws: &Workspace, diags: &[(usize, Diagnostic)], color: bool) -> String {
    let style = Style { color };
    let mut out = String::new();
    for (id, d) in diags {
        snippet(&mut out, ws, *id, d, &style);
    }
    let c = counts(diags);
    let files = ws.files_in_scope();
    let with_problems = {
        let mut ids: Vec<usize> = diags.iter().map(|(i, _)| *i).collect();
        ids.dedup();
        ids.len()
    };
    let excluded = (0..ws.files.len())
        .filter(|&i| ws.files[i].in_scope && ws.files[i].live && ws.excluded(i))
        .count();
    if diags.is_empty() && files == 0 && excluded > 0 {
        let _ = writeln!(
            out,
            "no file to check: the {excluded} found {} excluded by agent-lsp.toml",
            if excluded == 1 { "is" } else { "are" }
        );
    } else if diags.is_empty() && files == 0 {
        let _ = writeln!(
            out,
            "no files found to check: nothing here that {} reads (agents, configs, commands, skills, prompt files)",
            crate::analysis::Dialect::products_or()
        );
    } else if diags.is_empty() {
        let _ = writeln!(
            out,
            "{}: {files} file{} checked, no problems",
            style.paint("1;32", "ok"),
            plural(files)
        );
    } else {
        let mut parts = Vec::new();
        if c.errors > 0 {
            parts.push(format!("{} error{}", c.errors, plural(c.errors)));
        }
        if c.warnings > 0 {
            parts.push(format!("{} warning{}", c.warnings, plural(c.warnings)));
        }
        if c.other > 0 {
            parts.push(format!("{} info{}", c.other, plural(c.other)));
        }
        let _ = writeln!(
            out,
            "Found {} in {with_problems} file{} ({files} checked)",
            parts.join(", "),
            plural(with_problems)
        );
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn snippet(out: &mut String, ws: &Workspace, id: usize, d: &Diagnostic, style: &Style) {
    let file = &ws.files[id];
    let (line, col) = pos(file, d.span.start);
    let _ = writeln!(
        out,
        "{}{} {}",
        style.severity(d.severity),
        style.paint("1", &format!("[{}]:", d.code.as_str())),
        d.message.replace('\n', "\\n").replace('\r', "\\r")
    );
    let gutter = " ".repeat(line.to_string().len());
    // What the runtime does, where it is more than "works", by the name `--effect` takes
    // (the message says which runtime): after the location.
    let effect = if d.effect == crate::analysis::Effect::Works {
        String::new()
    } else {
        format!("  {}", style.paint("2", &format!("(effect: {})", d.effect.as_str())))
    };
    let _ = writeln!(
        out,
        "{gutter}{} {}:{line}:{col}{effect}",
        style.paint("1;34", "-->"),
        display_path(&file.path)
    );
    // A file agent-lsp did not read (where no runtime reads it, binary, too large) has no text
    // in the workspace: its first line is read from the disk when it is text, else no excerpt
    // is shown (rather than an empty line 1).
    let unread = d.code == crate::analysis::Code::UncheckedFile && file.text.is_empty();
    if !unread {
        excerpt(out, file, d, line, &gutter, style);
    } else if let Some(first) = first_line_on_disk(&file.path) {
        let bar = style.paint("1;34", "|");
        let _ = writeln!(out, "{gutter} {bar}");
        let _ = writeln!(out, "{} {bar} {}", style.paint("1;34", "1"), first.replace('\t', " "));
        let _ = writeln!(out, "{gutter} {bar} {}", style.paint("1;34", "^"));
    }
    // The fix, as the hook and the JSON's `suggestion` give it, on every diagnostic that has
    // one, unless the message already says "Did you mean `x`?" of its replacement (a message
    // merely naming a valid value among others does not).
    let said = d.suggestion().is_some_and(|s| {
        let mean = format!("did you mean `{}`", s.text.trim_matches('"')).to_lowercase();
        d.message.to_lowercase().contains(&mean)
    });
    if let (Some(f), Some(words), false) = (&d.fix, d.fix_in_words(), said) {
        let safe = if f.safe {
            " (safe: `check --fix` applies it)"
        } else {
            ""
        };
        let _ = writeln!(out, "{gutter} {} help: {words}{safe}", style.paint("1;34", "="));
    }
    // A finding with many related places (one catch-all making 60 rules dead) shows the first
    // few; the JSON and SARIF outputs and the editor list them all.
    const NOTES: usize = 8;
    // ("1 more" would take the line the one note needs.)
    let shown = if d.related.len() == NOTES + 1 { NOTES + 1 } else { NOTES };
    for r in d.related.iter().take(shown) {
        let at = match &r.location {
            Location::Here(span) => {
                let (l, c) = pos(file, span.start);
                format!("{}:{l}:{c}", display_path(&file.path))
            }
            Location::File { file: other, span } => {
                let f = &ws.files[*other];
                let (l, c) = pos(f, span.start);
                format!("{}:{l}:{c}", display_path(&f.path))
            }
            Location::BuiltIn => "built-in".to_string(),
        };
        let _ = writeln!(out, "{gutter} {} note: {} ({at})", style.paint("1;34", "="), r.message);
    }
    if d.related.len() > shown {
        let _ = writeln!(
            out,
            "{gutter} {} note: {} more (`--format json` lists them all)",
            style.paint("1;34", "="),
            d.related.len() - shown
        );
    }
    out.push('\n');
}

/// The first line of the file at `path` when it reads as text (at most 4 KiB looked at, no NUL
/// byte, valid UTF-8 up to the line's end; a BOM and a CR left out).
fn first_line_on_disk(path: &std::path::Path) -> Option<String> {
    use std::io::Read as _;
    let mut head = Vec::new();
    std::fs::File::open(path).ok()?.take(4096).read_to_end(&mut head).ok()?;
    if head.contains(&0) {
        return None;
    }
    let line = head.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let line = line.trim_start_matches('\u{feff}').trim_end_matches('\r');
    (!line.trim().is_empty()).then(|| line.to_string())
}

/// The line of `d`'s start, with `^` under its span.
fn excerpt(out: &mut String, file: &File, d: &Diagnostic, line: u32, gutter: &str, style: &Style) {
    let range = file.index.line_range(&file.text, line as usize - 1);
    let text = &file.text[range.clone()];
    let text_shown = text.trim_start_matches('\u{feff}');
    let bom = text.len() - text_shown.len();
    let start = (d.span.start as usize).clamp(range.start + bom, range.end);
    let end = (d.span.end as usize).clamp(start, range.end);
    let pad = UnicodeWidthStr::width(&file.text[range.start + bom..start]);
    let width = UnicodeWidthStr::width(&file.text[start..end]).max(1);
    let bar = style.paint("1;34", "|");
    let _ = writeln!(out, "{gutter} {bar}");
    // A secret written on the line is shown by its first characters only (see
    // `analysis::secret`), at the same width so that the marker stays under its place.
    let secrets: Vec<&str> = file.analysis.secrets.iter().map(String::as_str).collect();
    let _ = writeln!(
        out,
        "{} {bar} {}",
        style.paint("1;34", &line.to_string()),
        crate::analysis::secret::mask(text_shown, &secrets).replace('\t', " ")
    );
    let marker = if d.severity == Severity::Error { "1;31" } else { "1;33" };
    let _ = writeln!(
        out,
        "{gutter} {bar} {}{}",
        " ".repeat(pad),
        style.paint(marker, &"^".repeat(width))
    );
}

#[derive(Serialize)]
struct JsonReport<'a> {
    files: usize,
    /// The files checked (as displayed), in path order: every file counted in `files`.
    checked: Vec<String>,
    /// With `--fix`: what was changed, per file (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<Vec<JsonFixed<'a>>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonFixed<'a> {
    path: &'a str,
    fixes: &'a [String],
}

/// What `check --fix` changed: per file (as displayed), the titles of the fixes applied.
pub type Fixed = std::collections::BTreeMap<String, Vec<String>>;

#[derive(Serialize)]
struct JsonPos {
    line: u32,
    column: u32,
}

#[derive(Serialize)]
struct JsonRange {
    start: JsonPos,
    end: JsonPos,
}

#[derive(Serialize)]
struct JsonRelated {
    path: String,
    range: Option<JsonRange>,
    message: String,
}

#[derive(Serialize)]
struct JsonSuggestion<'a> {
    range: JsonRange,
    replacement: &'a str,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: String,
    range: JsonRange,
    severity: &'static str,
    code: &'static str,
    /// What the runtime does about it (`refuses-to-start`, `file-ignored`, ...).
    effect: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<JsonRelated>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<JsonSuggestion<'a>>,
}

fn json_range(file: &File, span: crate::analysis::Span) -> JsonRange {
    let (l1, c1) = pos(file, span.start);
    let (l2, c2) = pos(file, span.end);
    JsonRange {
        start: JsonPos { line: l1, column: c1 },
        end: JsonPos { line: l2, column: c2 },
    }
}

/// A span of `file` as `check --format json` writes a range (1-based lines and columns).
pub fn range_json(file: &File, span: crate::analysis::Span) -> serde_json::Value {
    serde_json::to_value(json_range(file, span)).unwrap_or_default()
}

pub fn json(ws: &Workspace, diags: &[(usize, Diagnostic)], fixed: Option<&Fixed>) -> String {
    let report = JsonReport {
        files: ws.files_in_scope(),
        checked: {
            let mut paths: Vec<String> = ws.checked_files().map(|i| display_path(&ws.files[i].path)).collect();
            paths.sort();
            paths
        },
        fixed: fixed.map(|f| f.iter().map(|(path, fixes)| JsonFixed { path, fixes }).collect()),
        diagnostics: diags
            .iter()
            .map(|(id, d)| {
                let file = &ws.files[*id];
                JsonDiagnostic {
                    path: display_path(&file.path),
                    range: json_range(file, d.span),
                    severity: d.severity.as_str(),
                    code: d.code.as_str(),
                    effect: d.effect.as_str(),
                    message: &d.message,
                    related: d
                        .related
                        .iter()
                        .map(|r| match &r.location {
                            Location::Here(span) => JsonRelated {
                                path: display_path(&file.path),
                                range: Some(json_range(file, *span)),
                                message: r.message.clone(),
                            },
                            Location::File { file: other, span } => JsonRelated {
                                path: display_path(&ws.files[*other].path),
                                range: Some(json_range(&ws.files[*other], *span)),
                                message: r.message.clone(),
                            },
                            Location::BuiltIn => JsonRelated {
                                path: "<built-in>".into(),
                                range: None,
                                message: r.message.clone(),
                            },
                        })
                        .collect(),
                    suggestion: d.suggestion().map(|s| JsonSuggestion {
                        range: json_range(file, s.span),
                        replacement: &s.text,
                    }),
                }
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&report).unwrap_or_default();
    s.push('\n');
    s
}

/// GitHub Actions workflow commands (`::error file=...::message`).
pub fn github(ws: &Workspace, diags: &[(usize, Diagnostic)]) -> String {
    fn data(s: &str) -> String {
        s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
    }
    fn prop(s: &str) -> String {
        data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let mut out = String::new();
    for (id, d) in diags {
        let file = &ws.files[*id];
        let (l1, c1) = pos(file, d.span.start);
        let (l2, c2) = pos(file, d.span.end);
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            _ => "notice",
        };
        let _ = writeln!(
            out,
            "::{level} file={},line={l1},col={c1},endLine={l2},endColumn={c2},title={}::{}",
            prop(&display_path(&file.path)),
            prop(&format!("agent-lsp {}", d.code.as_str())),
            data(&d.message)
        );
    }
    out
}

/// Where a value comes from, as `path:line:column` (1-based) or `built-in`.
pub fn where_is(ws: &Workspace, s: crate::analysis::provenance::Source) -> String {
    use crate::analysis::provenance::Source;
    match s {
        Source::BuiltIn => "built-in".into(),
        Source::File { file, span } => {
            let f = &ws.files[file];
            let p = f.index.line_col(&f.text, span.start as usize, Encoding::Utf32);
            format!("{}:{}:{}", display_path(&f.path), p.line + 1, p.col + 1)
        }
    }
}
