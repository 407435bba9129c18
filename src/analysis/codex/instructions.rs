//! The instruction chain as Codex 0.171.0 reads it (seen with `codex debug prompt-input`, which
//! prints what the model gets, and `--strict-config exec`, which warns about the budget:
//! `tests/codex_runtime/`):
//!
//! - the project's root is the nearest folder, from the one Codex starts in up, that holds
//!   `.git`; without one, Codex reads the start folder only;
//! - in each folder from the root down to the start folder, Codex takes the first of
//!   `AGENTS.override.md`, `AGENTS.md` and the names of `project_doc_fallback_filenames` that the
//!   folder holds, and that one only: an `AGENTS.override.md` hides the `AGENTS.md` beside it,
//!   even when it is blank;
//! - a blank file (whitespace only) is skipped and costs nothing;
//! - the files share one budget of `project_doc_max_bytes` bytes (32768 unless set; 0 reads
//!   none), filled from the root down: the file where it runs out is cut at that byte (inside a
//!   character too, which the model then gets as U+FFFD), and the files after it are left out.
//!   The blank lines that join the files cost nothing.
//!
//! The user's `$CODEX_HOME/AGENTS.md` is read apart, outside the budget.
//!
//! [`take`] is the rule, on sizes alone; [`findings`] turns it into what is reported on one file
//! of the chain (the one of the start folder: what a session started there gets).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::analysis::Dialect;
use crate::analysis::diagnostic::{Diagnostic, Effect};
use crate::analysis::host::{Host, HostFile, memoized};
use crate::analysis::instructions::{Level, Verdict, Which};
use crate::analysis::rules::Code;
use crate::analysis::severity::Severity;
use crate::analysis::text::Span;

/// The file that takes the place of `AGENTS.md` in its folder.
pub const OVERRIDE: &str = "AGENTS.override.md";
/// The instruction file of every folder.
pub const AGENTS: &str = "AGENTS.md";
/// The names Codex weighs in every folder, in its order (the fallback names come after).
pub const NAMES: &[&str] = &[OVERRIDE, AGENTS];
/// `project_doc_max_bytes` unless set.
pub const DEFAULT_BUDGET: u64 = 32 * 1024;

/// An instruction file a folder holds, as its size counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    pub name: String,
    /// Its length in bytes.
    pub len: u64,
    /// Whitespace only.
    pub blank: bool,
}

/// The candidate names of a folder, in Codex's order: `AGENTS.override.md`, `AGENTS.md`, then
/// the fallback names (each once).
pub fn candidates(fallbacks: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = NAMES.to_vec();
    for f in fallbacks {
        if !out.contains(&f.as_str()) {
            out.push(f);
        }
    }
    out
}

/// How many bytes Codex takes from each folder of `chain` (root first; each folder's files
/// present, in Codex's order: it takes the first) under `budget`: `None` for a folder that
/// holds none of the names.
pub fn take(chain: &[Vec<Doc>], budget: u64) -> Vec<Option<u64>> {
    let mut left = budget;
    chain
        .iter()
        .map(|docs| {
            let doc = docs.first()?;
            let bytes = if doc.blank { 0 } else { doc.len.min(left) };
            left -= bytes;
            Some(bytes)
        })
        .collect()
}

/// One folder of the chain as [`findings`] reads it: its label relative to the file's folder
/// (`..`, `../..`) and the files it holds, in Codex's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folder {
    pub label: String,
    pub docs: Vec<Doc>,
}

/// What Codex does with file `name` (its `text`) of the last folder of `chain` (root first) for
/// a session started in that folder, under `budget`; `None` when it reads it whole.
pub fn findings(chain: &[Folder], name: &str, text: &str, budget: u64) -> Option<Diagnostic> {
    let (last, above) = chain.split_last()?;
    let mine = last.docs.iter().position(|d| d.name == name)?;
    if budget == 0 {
        return None;
    }
    if mine > 0 {
        // Hidden by the first file of its folder: said of `AGENTS.md` under a file that is
        // not blank (a blank one hides it too: said on the blank file).
        let first = &last.docs[0];
        return (name == AGENTS && first.name == OVERRIDE && !first.blank).then(|| {
            Diagnostic::new(
                Code::ShadowedFile,
                crate::analysis::text::first_line(text),
                format!(
                    "Codex reads the `{OVERRIDE}` beside this file instead: in each folder it takes `{OVERRIDE}`, else `{AGENTS}`, and never both"
                ),
            )
            .with_severity(Severity::Info)
            .with_effect(Effect::ValueIgnored)
        });
    }
    let me = &last.docs[0];
    if me.blank {
        let hidden = last.docs.get(1).filter(|_| name == OVERRIDE)?;
        return Some(
            Diagnostic::new(
                Code::ShadowedFile,
                crate::analysis::text::first_line(text),
                format!(
                    "this `{OVERRIDE}` is blank, and it hides the `{}` beside it: Codex skips a blank file and reads no other of its folder, so it gives the model nothing from this folder",
                    hidden.name
                ),
            )
            .with_effect(Effect::ValueIgnored),
        );
    }
    let docs: Vec<Vec<Doc>> = chain.iter().map(|f| f.docs.clone()).collect();
    let taken = take(&docs, budget);
    let kept = taken.last().copied().flatten()?;
    if kept >= me.len {
        return None;
    }
    let used: Vec<String> = above
        .iter()
        .zip(&taken)
        .filter_map(|(f, t)| {
            let bytes = (*t)?;
            (bytes > 0).then(|| format!("`{}/{}` ({bytes} bytes)", f.label, f.docs[0].name))
        })
        .collect();
    let before: u64 = taken[..above.len()].iter().flatten().sum();
    let files = match used.len() {
        0 => String::new(),
        1..=3 => used.join(", "),
        n => format!("{} and {} more", used[..2].join(", "), n - 2),
    };
    let (span, message) = if kept == 0 {
        (
            crate::analysis::text::first_line(text),
            format!(
                "Codex leaves this file out of a session started in its folder: the files above it, read first from the git root down, use up the {budget}-byte budget of project instructions (`project_doc_max_bytes`): {files}"
            ),
        )
    } else {
        let cut = kept as usize;
        let mut start = cut.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let split = if start < cut {
            " (the cut falls inside a character, which the model gets as `\u{fffd}`)"
        } else {
            ""
        };
        let why = if before == 0 {
            format!("the {budget}-byte budget of project instructions (`project_doc_max_bytes`) ends here")
        } else {
            format!(
                "the files above it, read first from the git root down, use {before} of the {budget}-byte budget of project instructions (`project_doc_max_bytes`): {files}"
            )
        };
        (
            cut_span(text, start),
            format!(
                "Codex cuts this file here: it gives the model the first {kept} of its {} bytes and leaves out the rest{split}, since {why}",
                me.len
            ),
        )
    };
    Some(Diagnostic::new(Code::TruncatedInstructions, span, message).with_effect(Effect::ValueIgnored))
}

/// Where a cut at byte `start` of `text` is shown: from there to the end of its line (the line
/// break itself when the cut falls on it; the text's last character at its end).
fn cut_span(text: &str, start: usize) -> Span {
    let end = text[start..].find(['\n', '\r']).map_or(text.len(), |i| start + i);
    if end > start {
        return Span::new(start, end);
    }
    match text[start..].chars().next() {
        Some(c) => Span::new(start, start + c.len_utf8()),
        None => {
            let before = text[..start].chars().next_back().map_or(0, char::len_utf8);
            Span::new(start - before, start)
        }
    }
}

/// Codex's verdict on instruction file `which` in the first folder of `chain` (for the hover:
/// who reads a file where it is).
pub fn reader(which: Which, chain: &[Level]) -> Verdict {
    let verdict = |reads: bool, why: String| Verdict {
        runtime: Dialect::Codex,
        reads,
        why,
    };
    const CHAIN: &str = "one file per folder from the git root down to where it starts, root first, all sharing one budget (`project_doc_max_bytes`, 32 KiB unless set)";
    match which.name() {
        OVERRIDE => verdict(
            true,
            format!(
                "Codex reads it in place of this folder's `{AGENTS}`, in a session started here or below: {CHAIN}; a blank one is skipped, and still hides `{AGENTS}`"
            ),
        ),
        AGENTS if chain.first().is_some_and(|l| l.has(OVERRIDE)) => verdict(
            false,
            format!("Codex reads the `{OVERRIDE}` of this folder instead: it takes `{OVERRIDE}`, else `{AGENTS}`"),
        ),
        AGENTS => verdict(
            true,
            format!("Codex reads it, in a session started here or below: {CHAIN}"),
        ),
        other => verdict(
            false,
            format!(
                "Codex reads `{other}` only where `project_doc_fallback_filenames` names it and the folder holds no `{OVERRIDE}` or `{AGENTS}`"
            ),
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// On the workspace

/// The files of the chain's unit: the instruction files Codex may read (`AGENTS.override.md`,
/// `AGENTS.md` and the fallback names any Codex configuration gives), and, as inputs besides
/// them, the configuration files (which set the budget and the fallback names).
pub fn unit_files(host: &dyn Host) -> (Vec<usize>, Vec<usize>) {
    let configs: Vec<HostFile> = host
        .files_of(Dialect::Codex)
        .filter(|(f, ..)| matches!(f.kind.own(), Some(super::FileKind::Config { .. })))
        .map(|(f, ..)| f)
        .collect();
    let mut names: Vec<&str> = NAMES.to_vec();
    for c in &configs {
        names.extend(
            settings(c)
                .and_then(|s| s.doc_fallbacks.as_ref())
                .into_iter()
                .flatten()
                .map(String::as_str),
        );
    }
    let view: Vec<usize> = host
        .files()
        .filter(|f| {
            f.path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| names.contains(&n))
        })
        .map(|f| f.id)
        .collect();
    let mut inputs = view.clone();
    inputs.extend(configs.iter().map(|c| c.id));
    (view, inputs)
}

/// The findings of the chain on the instruction files `view`: each as the one of the start
/// folder of a session (the files of Codex's own `home`, read outside the budget, aside), where
/// Codex is in use.
pub fn check(host: &dyn Host, view: &[usize], home: Option<&Path>) -> Vec<(usize, Diagnostic)> {
    let mut found: HashMap<PathBuf, Vec<Doc>> = HashMap::new();
    let mut out = Vec::new();
    for &id in view {
        let Some(f) = host.file(id) else { continue };
        let (Some(dir), Some(name)) = (f.path.parent(), f.path.file_name().and_then(|n| n.to_str())) else {
            continue;
        };
        if home == Some(dir) {
            continue;
        }
        let dirs = chain_dirs(host, dir);
        let layers = layers(host, home, &dirs);
        let fallbacks = layers
            .iter()
            .rev()
            .find_map(|s| s.doc_fallbacks.clone())
            .unwrap_or_default();
        let budget = layers
            .iter()
            .rev()
            .find_map(|s| s.doc_max_bytes)
            .unwrap_or(DEFAULT_BUDGET);
        let names = candidates(&fallbacks);
        if !names.contains(&name) {
            continue;
        }
        let chain: Vec<Folder> = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| Folder {
                label: vec![".."; dirs.len() - 1 - i].join("/"),
                docs: names
                    .iter()
                    .filter_map(|n| {
                        let key = d.join(n);
                        found
                            .entry(key.clone())
                            .or_insert_with(|| doc_at(host, &key, n))
                            .first()
                            .cloned()
                    })
                    .collect(),
            })
            .collect();
        let in_use = !layers.is_empty()
            || chain.iter().any(|c| c.docs.iter().any(|d| d.name == OVERRIDE))
            || dirs.iter().any(|d| {
                memoized(host, &d.join(".codex"), || {
                    CodexFolder(host.disk().is_dir(&d.join(".codex")))
                })
                .0
            });
        if !in_use {
            continue;
        }
        if let Some(d) = findings(&chain, name, f.text, budget) {
            out.push((id, d));
        }
    }
    out
}

/// Whether a `.codex` folder is there (remembered while the files keep their places).
#[derive(Clone, Copy)]
struct CodexFolder(bool);

/// Whether a folder holds `.git`, likewise.
#[derive(Clone, Copy)]
struct GitMarker(bool);

/// An instruction file on disk that the workspace does not hold, likewise.
#[derive(Clone)]
struct OnDisk(Option<(u64, bool)>);

/// The folders Codex reads from, started in `dir`: from the nearest folder holding `.git` down
/// to `dir` (`dir` alone without one).
fn chain_dirs(host: &dyn Host, dir: &Path) -> Vec<PathBuf> {
    let root = dir
        .ancestors()
        .position(|a| memoized(host, a, || GitMarker(host.disk().exists(&a.join(".git")))).0);
    let mut dirs: Vec<PathBuf> = dir
        .ancestors()
        .take(root.map_or(1, |r| r + 1))
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

/// The configuration layers that apply to a session started at the end of `dirs`: the user's,
/// then each project's on the way, from the root down.
fn layers<'h>(host: &'h dyn Host, home: Option<&Path>, dirs: &[PathBuf]) -> Vec<&'h super::layer::Settings> {
    let mut found: Vec<(usize, &super::layer::Settings)> = host
        .files_of(Dialect::Codex)
        .filter(|(f, ..)| matches!(f.kind.own(), Some(super::FileKind::Config { .. })))
        .filter_map(|(f, dir, _)| {
            let depth = if Some(dir) == home {
                0
            } else {
                1 + dirs.iter().position(|d| d == dir)?
            };
            Some((depth, settings(&f)?))
        })
        .collect();
    found.sort_by_key(|(depth, _)| *depth);
    found.into_iter().map(|(_, s)| s).collect()
}

fn settings<'h>(f: &HostFile<'h>) -> Option<&'h super::layer::Settings> {
    let facts: &super::Facts = f.analysis.own()?;
    Some(&facts.settings)
}

/// The instruction file at `path` (named `name`), from the workspace or else the disk: none
/// when there is none, or it cannot be read.
fn doc_at(host: &dyn Host, path: &Path, name: &str) -> Vec<Doc> {
    let sized = match host.id_of(path).and_then(|id| host.file(id)) {
        Some(f) => Some((f.text.len() as u64, f.text.trim().is_empty())),
        None => {
            memoized(host, path, || {
                OnDisk(
                    host.disk()
                        .read_file(path)
                        .ok()
                        .map(|t| (t.len() as u64, t.trim().is_empty())),
                )
            })
            .0
        }
    };
    sized
        .map(|(len, blank)| Doc {
            name: name.to_string(),
            len,
            blank,
        })
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, len: u64) -> Doc {
        Doc {
            name: name.into(),
            len,
            blank: false,
        }
    }

    fn folder(label: &str, docs: Vec<Doc>) -> Folder {
        Folder {
            label: label.into(),
            docs,
        }
    }

    #[test]
    fn the_budget_is_filled_from_the_root_and_blank_files_cost_nothing() {
        let blank = Doc {
            blank: true,
            ..doc(AGENTS, 16)
        };
        let chain = vec![
            vec![doc(AGENTS, 11)],
            vec![],
            vec![blank],
            vec![doc(AGENTS, 16)],
            vec![doc(AGENTS, 4)],
        ];
        let taken = take(&chain, 20);
        assert_eq!(taken, vec![Some(11), None, Some(0), Some(9), Some(0)]);
        assert_eq!(
            candidates(&["CLAUDE.md".into(), AGENTS.into(), "CLAUDE.md".into()]),
            vec![OVERRIDE, AGENTS, "CLAUDE.md"]
        );
    }

    #[test]
    fn the_file_the_budget_runs_out_in_is_cut_there_with_the_byte_counts() {
        // The measured case: a 32,216-byte root file leaves 552 bytes of a 1,415-byte one.
        let text = format!("{}\n{}\n", "a".repeat(551), "b".repeat(862));
        let chain = vec![
            folder("..", vec![doc(AGENTS, 32216)]),
            folder("this folder", vec![doc(AGENTS, 1415)]),
        ];
        let d = findings(&chain, AGENTS, &text, DEFAULT_BUDGET).unwrap();
        assert_eq!(d.code, Code::TruncatedInstructions);
        assert_eq!(d.severity, Severity::Warning);
        // Byte 552 is the first `b`: the span is the rest of its line.
        assert_eq!(d.span, Span::new(552, 1414));
        assert_eq!(
            d.message,
            "Codex cuts this file here: it gives the model the first 552 of its 1415 bytes and leaves out the rest, since the files above it, read first from the git root down, use 32216 of the 32768-byte budget of project instructions (`project_doc_max_bytes`): `../AGENTS.md` (32216 bytes)"
        );
        // Read whole when it fits.
        let fits = vec![
            folder("..", vec![doc(AGENTS, 32216)]),
            folder("this folder", vec![doc(AGENTS, 552)]),
        ];
        assert_eq!(findings(&fits, AGENTS, "x", DEFAULT_BUDGET), None);
        // No budget (`project_doc_max_bytes = 0`): nothing is read, on purpose.
        assert_eq!(findings(&chain, AGENTS, &text, 0), None);
    }

    #[test]
    fn a_root_file_over_the_budget_and_a_file_after_the_cut() {
        let text = "one\ntwo\n";
        let alone = vec![folder("this folder", vec![doc(AGENTS, 8)])];
        let d = findings(&alone, AGENTS, text, 4).unwrap();
        // The cut falls on the line break: the span is the break.
        assert_eq!(d.span, Span::new(4, 7));
        assert!(
            d.message
                .ends_with("since the 4-byte budget of project instructions (`project_doc_max_bytes`) ends here"),
            "{}",
            d.message
        );
        let after = vec![
            folder("../..", vec![doc("CLAUDE.md", 10)]),
            folder("..", vec![doc(OVERRIDE, 3), doc(AGENTS, 50)]),
            folder("this folder", vec![doc(AGENTS, 8)]),
        ];
        let d = findings(&after, AGENTS, text, 13).unwrap();
        assert_eq!(d.span, Span::new(0, 3));
        assert_eq!(
            d.message,
            "Codex leaves this file out of a session started in its folder: the files above it, read first from the git root down, use up the 13-byte budget of project instructions (`project_doc_max_bytes`): `../../CLAUDE.md` (10 bytes), `../AGENTS.override.md` (3 bytes)"
        );
        let many: Vec<Folder> = (0..5)
            .map(|i| folder(&format!("f{i}"), vec![doc(AGENTS, 2)]))
            .chain([folder("this folder", vec![doc(AGENTS, 8)])])
            .collect();
        let d = findings(&many, AGENTS, text, 10).unwrap();
        assert!(
            d.message
                .ends_with("`f0/AGENTS.md` (2 bytes), `f1/AGENTS.md` (2 bytes) and 3 more"),
            "{}",
            d.message
        );
    }

    #[test]
    fn a_cut_inside_a_character_says_so_and_starts_at_the_character() {
        // `BBBBBBBBé…` with 9 bytes left: the cut splits `é` (bytes 8 and 9).
        let text = "BBBBBBBB\u{e9}BBBBB\n";
        let chain = vec![
            folder("..", vec![doc(AGENTS, 11)]),
            folder("this folder", vec![doc(AGENTS, 16)]),
        ];
        let d = findings(&chain, AGENTS, text, 20).unwrap();
        assert_eq!(d.span, Span::new(8, 15));
        assert!(d.message.contains("the first 9 of its 16 bytes and leaves out the rest (the cut falls inside a character, which the model gets as `\u{fffd}`)"), "{}", d.message);
        // At the end of a text with no line break.
        assert_eq!(cut_span("ab", 2), Span::new(1, 2));
        assert_eq!(cut_span("a\r\nb", 1), Span::new(1, 2));
    }

    #[test]
    fn an_override_hides_agents_md_and_a_blank_one_hides_the_folder() {
        let beside = vec![folder("this folder", vec![doc(OVERRIDE, 5), doc(AGENTS, 9)])];
        let d = findings(&beside, AGENTS, "Hidden.\n", DEFAULT_BUDGET).unwrap();
        assert_eq!((d.code, d.severity), (Code::ShadowedFile, Severity::Info));
        assert_eq!(d.span, Span::new(0, 7));
        assert_eq!(findings(&beside, OVERRIDE, "Over.\n", DEFAULT_BUDGET), None);
        // A fallback name after `AGENTS.md` is the user's choice of order: nothing said.
        let fallback = vec![folder("this folder", vec![doc(AGENTS, 5), doc("CLAUDE.md", 9)])];
        assert_eq!(findings(&fallback, "CLAUDE.md", "x\n", DEFAULT_BUDGET), None);
        let blank = Doc {
            blank: true,
            ..doc(OVERRIDE, 2)
        };
        let hiding = vec![folder("this folder", vec![blank.clone(), doc(AGENTS, 9)])];
        assert_eq!(findings(&hiding, AGENTS, "Hidden.\n", DEFAULT_BUDGET), None);
        let d = findings(&hiding, OVERRIDE, " \n", DEFAULT_BUDGET).unwrap();
        assert_eq!((d.code, d.severity), (Code::ShadowedFile, Severity::Warning));
        assert_eq!(
            d.message,
            "this `AGENTS.override.md` is blank, and it hides the `AGENTS.md` beside it: Codex skips a blank file and reads no other of its folder, so it gives the model nothing from this folder"
        );
        // A blank file alone hides nothing.
        let alone = vec![folder("this folder", vec![blank])];
        assert_eq!(findings(&alone, OVERRIDE, " \n", DEFAULT_BUDGET), None);
        assert_eq!(findings(&alone, AGENTS, "x", DEFAULT_BUDGET), None);
        assert_eq!(findings(&[], AGENTS, "x", DEFAULT_BUDGET), None);
    }
}
