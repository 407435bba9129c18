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
pub fn take<'a>(chain: impl IntoIterator<Item = &'a [Doc]>, budget: u64) -> Vec<Option<u64>> {
    let mut left = budget;
    chain
        .into_iter()
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
    let taken = take(chain.iter().map(|f| f.docs.as_slice()), budget);
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
    let configs = configs(host, home);
    let mut seen = Seen::default();
    // The instruction files the workspace holds, by path (the others are read from the disk).
    for &id in view {
        if let Some(f) = host.file(id) {
            seen.held.insert(f.path.to_path_buf(), id);
        }
    }
    let mut out = Vec::new();
    for &id in view {
        let Some(f) = host.file(id) else { continue };
        let (Some(dir), Some(name)) = (f.path.parent(), f.path.file_name().and_then(|n| n.to_str())) else {
            continue;
        };
        if home == Some(dir) {
            continue;
        }
        let root = seen.git_root(host, dir).unwrap_or_else(|| dir.to_path_buf());
        let layers = layers(&configs, dir, &root);
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
        // Most files fit and hide nothing: only those that may not are looked at whole.
        let own = seen.docs(host, dir, &names).to_vec();
        let before = match dir.parent() {
            Some(parent) if dir != root && own.first().is_some_and(|d| d.name == name) => {
                seen.sum(host, parent, &root, &names)
            }
            _ => 0,
        };
        if !worth_a_look(&own, name, before, budget) {
            continue;
        }
        let mut dirs: Vec<&Path> = dir.ancestors().take_while(|a| a.starts_with(&root)).collect();
        dirs.reverse();
        let chain: Vec<Folder> = dirs
            .iter()
            .enumerate()
            .map(|(i, d)| Folder {
                label: vec![".."; dirs.len() - 1 - i].join("/"),
                docs: seen.docs(host, d, &names).to_vec(),
            })
            .collect();
        let in_use = !layers.is_empty()
            || chain.iter().any(|c| c.docs.iter().any(|d| d.name == OVERRIDE))
            || dirs.iter().any(|d| seen.has_codex(host, d));
        if !in_use {
            continue;
        }
        if let Some(d) = findings(&chain, name, f.text, budget) {
            out.push((id, d));
        }
    }
    out
}

/// Whether file `name` of a folder holding `own` (Codex's order) may get a finding, the files
/// above it taking `before` bytes: it is hidden by an override, it is a blank override hiding
/// another, or it does not fit. The others are read whole: [`findings`] would say nothing.
fn worth_a_look(own: &[Doc], name: &str, before: u64, budget: u64) -> bool {
    match own.iter().position(|d| d.name == name) {
        None => false,
        Some(0) if own[0].blank => name == OVERRIDE && own.len() > 1,
        Some(0) => before + own[0].len > budget,
        Some(_) => name == AGENTS && own[0].name == OVERRIDE && !own[0].blank,
    }
}

/// What one run of [`check`] found of the folders, each looked up once (the disk's answers are
/// also remembered across runs, while the files keep their places).
#[derive(Default)]
struct Seen {
    /// The instruction files of a folder, for a list of names.
    docs: HashMap<PathBuf, (Vec<String>, Vec<Doc>)>,
    /// The nearest folder holding `.git`, from a folder up (`None`: none).
    roots: HashMap<PathBuf, Option<PathBuf>>,
    /// The bytes the files of a chain take, from its root down to a folder, before any budget,
    /// for a list of names (joined).
    sums: HashMap<(String, PathBuf), u64>,
    /// The instruction files the workspace holds.
    held: HashMap<PathBuf, usize>,
    codex: HashMap<PathBuf, bool>,
}

impl Seen {
    fn docs(&mut self, host: &dyn Host, dir: &Path, names: &[&str]) -> &[Doc] {
        let fresh = self
            .docs
            .get(dir)
            .is_none_or(|(n, _)| n.len() != names.len() || n.iter().zip(names).any(|(a, b)| a != b));
        if fresh {
            let docs = names
                .iter()
                .filter_map(|n| {
                    let path = dir.join(n);
                    doc_at(host, self.held.get(&path).copied(), &path, n)
                })
                .collect();
            self.docs
                .insert(dir.to_path_buf(), (names.iter().map(|n| n.to_string()).collect(), docs));
        }
        self.docs.get(dir).map_or(&[], |(_, d)| d.as_slice())
    }

    /// The nearest folder from `dir` up that holds `.git`.
    fn git_root(&mut self, host: &dyn Host, dir: &Path) -> Option<PathBuf> {
        if let Some(r) = self.roots.get(dir) {
            return r.clone();
        }
        let here = memoized(host, dir, || GitMarker(host.disk().exists(&dir.join(".git")))).0;
        let r = if here {
            Some(dir.to_path_buf())
        } else {
            dir.parent().and_then(|p| self.git_root(host, p))
        };
        self.roots.insert(dir.to_path_buf(), r.clone());
        r
    }

    /// The bytes of the files Codex takes from `root` down to `dir` (the first of `names` each
    /// folder holds, blank ones aside), before any budget.
    fn sum(&mut self, host: &dyn Host, dir: &Path, root: &Path, names: &[&str]) -> u64 {
        let key = (names.join("\n"), dir.to_path_buf());
        if let Some(&n) = self.sums.get(&key) {
            return n;
        }
        let own = self
            .docs(host, dir, names)
            .first()
            .filter(|d| !d.blank)
            .map_or(0, |d| d.len);
        let above = match dir.parent() {
            Some(parent) if dir != root && dir.starts_with(root) => self.sum(host, parent, root, names),
            _ => 0,
        };
        self.sums.insert(key, own + above);
        own + above
    }

    fn has_codex(&mut self, host: &dyn Host, dir: &Path) -> bool {
        if let Some(&b) = self.codex.get(dir) {
            return b;
        }
        let b = memoized(host, &dir.join(".codex"), || {
            CodexFolder(host.disk().is_dir(&dir.join(".codex")))
        })
        .0;
        self.codex.insert(dir.to_path_buf(), b);
        b
    }
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

/// Codex's configuration files: the project each belongs to (`None`: the user's), and what it
/// sets.
fn configs<'h>(host: &'h dyn Host, home: Option<&Path>) -> Vec<(Option<&'h Path>, &'h super::layer::Settings)> {
    host.files_of(Dialect::Codex)
        .filter(|(f, ..)| matches!(f.kind.own(), Some(super::FileKind::Config { .. })))
        .filter_map(|(f, dir, _)| Some(((Some(dir) != home).then_some(dir), settings(&f)?)))
        .collect()
}

/// The configuration layers that apply to a session started in `dir`, whose chain starts at
/// `root`: the user's, then each project's on the way, from the root down.
fn layers<'h>(
    configs: &[(Option<&'h Path>, &'h super::layer::Settings)],
    dir: &Path,
    root: &Path,
) -> Vec<&'h super::layer::Settings> {
    let mut found: Vec<(usize, &super::layer::Settings)> = configs
        .iter()
        .filter_map(|(project, s)| {
            let depth = match project {
                None => 0,
                Some(p) if dir.starts_with(p) && p.starts_with(root) => p.components().count(),
                Some(_) => return None,
            };
            Some((depth, *s))
        })
        .collect();
    found.sort_by_key(|(depth, _)| *depth);
    found.into_iter().map(|(_, s)| s).collect()
}

fn settings<'h>(f: &HostFile<'h>) -> Option<&'h super::layer::Settings> {
    let facts: &super::Facts = f.analysis.own()?;
    Some(&facts.settings)
}

/// The instruction file at `path` (named `name`), from the workspace (its file `held`) or else
/// the disk: none when there is none, or it cannot be read.
fn doc_at(host: &dyn Host, held: Option<usize>, path: &Path, name: &str) -> Option<Doc> {
    let (len, blank) = match held.and_then(|id| host.file(id)) {
        Some(f) => (f.text.len() as u64, f.text.trim().is_empty()),
        None => {
            memoized(host, path, || {
                OnDisk(
                    host.disk()
                        .read_file(path)
                        .ok()
                        .map(|t| (t.len() as u64, t.trim().is_empty())),
                )
            })
            .0?
        }
    };
    Some(Doc {
        name: name.to_string(),
        len,
        blank,
    })
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
        let chain = [
            vec![doc(AGENTS, 11)],
            vec![],
            vec![blank],
            vec![doc(AGENTS, 16)],
            vec![doc(AGENTS, 4)],
        ];
        let taken = take(chain.iter().map(Vec::as_slice), 20);
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
    fn only_a_file_that_may_get_a_finding_is_looked_at_whole() {
        let blank = |name: &str| Doc {
            blank: true,
            ..doc(name, 3)
        };
        let over = doc(OVERRIDE, 5);
        let agents = doc(AGENTS, 9);
        // Fits exactly, or not.
        assert!(!worth_a_look(std::slice::from_ref(&agents), AGENTS, 11, 20));
        assert!(worth_a_look(std::slice::from_ref(&agents), AGENTS, 12, 20));
        // Hidden by an override, by a blank one (said on the override), by `AGENTS.md`.
        assert!(worth_a_look(&[over.clone(), agents.clone()], AGENTS, 0, 100));
        assert!(!worth_a_look(&[blank(OVERRIDE), agents.clone()], AGENTS, 0, 100));
        assert!(!worth_a_look(&[agents.clone(), doc("NOTES.md", 1)], "NOTES.md", 0, 100));
        // A blank override: only beside another file.
        assert!(worth_a_look(&[blank(OVERRIDE), agents.clone()], OVERRIDE, 0, 100));
        assert!(!worth_a_look(&[blank(OVERRIDE)], OVERRIDE, 0, 100));
        assert!(!worth_a_look(&[blank(AGENTS), doc("NOTES.md", 1)], AGENTS, 0, 100));
        assert!(!worth_a_look(&[over], AGENTS, 0, 100));
    }

    #[test]
    fn a_blank_file_above_uses_nothing_and_is_not_named() {
        let blank = Doc {
            blank: true,
            ..doc(AGENTS, 40)
        };
        let chain = vec![
            folder("../..", vec![doc(AGENTS, 10)]),
            folder("..", vec![blank]),
            folder("this folder", vec![doc(AGENTS, 8)]),
        ];
        let d = findings(&chain, AGENTS, "one\ntwo\n", 14).unwrap();
        assert!(
            d.message.ends_with("use 10 of the 14-byte budget of project instructions (`project_doc_max_bytes`): `../../AGENTS.md` (10 bytes)"),
            "{}",
            d.message
        );
    }

    #[test]
    fn the_layers_of_a_session_are_the_user_s_then_the_projects_on_the_way_root_first() {
        use super::super::layer::Settings;
        let s = |n: u64| Settings {
            doc_max_bytes: Some(n),
            ..Settings::default()
        };
        let (user, top, sub, other) = (s(1), s(2), s(3), s(4));
        let p = |x: &'static str| Some(Path::new(x));
        // Out of order, as the workspace may hold them.
        let configs = vec![
            (p("/w/sub"), &sub),
            (p("/other"), &other),
            (p("/w"), &top),
            (None, &user),
        ];
        let got = |dir: &str, root: &str| -> Vec<u64> {
            layers(&configs, Path::new(dir), Path::new(root))
                .iter()
                .filter_map(|s| s.doc_max_bytes)
                .collect()
        };
        assert_eq!(got("/w/sub/x", "/w"), [1, 2, 3]);
        // A project above the chain's root is not on the way.
        assert_eq!(got("/w/sub/x", "/w/sub"), [1, 3]);
        assert_eq!(got("/elsewhere", "/elsewhere"), [1]);
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
