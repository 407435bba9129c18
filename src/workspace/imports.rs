//! The files Claude Code reads because a file names them: a memory file's `@path` imports
//! (`CLAUDE.md` and the like, see [`crate::analysis::claude::memory`]) and a command's `@path`
//! mentions (see [`crate::analysis::claude::prompt::mentions`]). The analysis finds them; the disk
//! decides whether they name a file. Those that do not are `missing-path` warnings: Claude Code
//! leaves them out without a word. Run when a file is analysed and again by
//! [`Workspace::refresh_imports`] when files appear or vanish.

use std::path::{Path, PathBuf};

use super::model::*;
use crate::analysis::claude::memory;
use crate::analysis::diagnostic::{Effect, Severity};
use crate::analysis::prompt::FileRef;
use crate::analysis::{Code, Diagnostic};

/// Which kind of reference: where a relative path starts and what the finding says.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Refs {
    /// A memory file's imports: relative to the file's folder.
    Import,
    /// A command's mentions: relative to the project (the folder Claude Code starts in).
    Mention,
}

impl Workspace {
    /// The references of file `id` and the folder relative paths start at, if it has any.
    fn file_refs(&self, id: usize) -> Option<(Refs, &[FileRef], PathBuf)> {
        let f = &self.files[id];
        if let Some(m) = f.analysis.memory() {
            return Some((Refs::Import, &m.imports, f.path.parent()?.to_path_buf()));
        }
        // Only Claude Code's reading of a command finds mentions; a plugin's command runs in
        // whatever project the user starts Claude Code in.
        if f.kind.command()?.plugin {
            return None;
        }
        let Role::Command { dir } = &f.role else { return None };
        Some((Refs::Mention, &f.analysis.command()?.mentions, dir.clone()))
    }

    /// Where a reference of file `id` leads on disk, if it can be told (`~/` needs the home
    /// folder).
    pub fn file_ref_target(&self, id: usize, r: &FileRef) -> Option<PathBuf> {
        let (_, _, base) = self.file_refs(id)?;
        target(&r.path, &base, self.options.home.as_deref())
    }

    /// The references of file `id` that lead to a file or folder, with where: for document
    /// links.
    pub fn file_ref_links(&self, id: usize) -> Vec<(crate::analysis::Span, PathBuf)> {
        let Some((_, refs, base)) = self.file_refs(id) else {
            return Vec::new();
        };
        let home = self.options.home.as_deref();
        refs.iter()
            .filter_map(|r| {
                let t = target(&r.path, &base, home)?;
                t.exists().then_some((r.span, t))
            })
            .collect()
    }

    /// Look up the references of file `id` and replace its `missing-path` findings; returns
    /// whether they changed.
    pub(super) fn check_imports(&mut self, id: usize) -> bool {
        let found: Vec<Diagnostic> = match self.file_refs(id) {
            Some((which, refs, base)) => {
                let home = self.options.home.as_deref();
                let mut out = Vec::new();
                for r in refs {
                    match problem(which, r, &base, home) {
                        Some(d) => out.push(d),
                        None if which == Refs::Import => out.extend(nested(r, &base, home)),
                        None => {}
                    }
                }
                out
            }
            // Not a file with references: its `missing-path` findings, if any, are another
            // check's (opencode's paths, `paths.rs`).
            None => return false,
        };
        // Warnings only: a rule's `paths` that match no file are information of its own
        // (`check_rule_paths`).
        self.replace_findings_of(
            id,
            |d| d.code == Code::MissingPath && d.severity == Severity::Warning,
            found,
        )
    }

    /// Look up the references of every memory file and Claude Code command again (files were
    /// created or deleted); returns the files whose findings changed.
    pub fn refresh_imports(&mut self) -> Vec<usize> {
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| self.files[i].live && self.file_refs(i).is_some_and(|(_, refs, _)| !refs.is_empty()))
            .collect();
        ids.into_iter().filter(|&id| self.check_imports(id)).collect()
    }
}

/// The imports of the file an import reads, and theirs, as deep as Claude Code goes
/// ([`memory::MAX_IMPORT_DEPTH`]), that name no file: each a finding on `r`, the import that leads
/// there (the file imported is no file agent-lsp checks on its own). A file Claude Code reads as a
/// memory file anyway (a `CLAUDE.md`, a rule) is checked on its own, and not followed here.
fn nested(r: &FileRef, base: &Path, home: Option<&Path>) -> Vec<Diagnostic> {
    let Some(first) = target(&r.path, base, home) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut seen = vec![first.clone()];
    // (the file, how deep it is, the chain of paths that leads to it)
    let mut stack = vec![(first, 1usize, vec![r.path.clone()])];
    while let Some((file, depth, chain)) = stack.pop() {
        if depth >= memory::MAX_IMPORT_DEPTH
            || crate::analysis::claude::discover::memory_kind(&file, home).is_some()
            || !memory::is_text(&file.to_string_lossy())
        {
            continue;
        }
        let Ok((text, _)) = super::read::read_text(&file) else {
            continue;
        };
        let Some(folder) = file.parent() else { continue };
        for inner in memory::imports(&text) {
            let Some(t) = target(&inner.path, folder, home) else {
                continue;
            };
            if seen.contains(&t) {
                continue;
            }
            seen.push(t.clone());
            let via = chain.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" → ");
            if !t.exists() {
                out.push(
                    Diagnostic::new(
                        Code::MissingPath,
                        r.span,
                        format!(
                            "`{}` (imported by {via}, from its folder) names no file: Claude Code leaves that import out without a word",
                            inner.path
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored),
                );
            } else if t.is_file() {
                let mut chain = chain.clone();
                chain.push(inner.path.clone());
                stack.push((t, depth + 1, chain));
            }
        }
    }
    out
}

/// The punctuation a sentence puts right after a path, which Claude Code keeps in an import.
const TRAILING: &[char] = &['.', ',', ';', ':', '!', '?', ')', ']', '"', '\''];

/// Where a path leads: `~/` from the home folder, an absolute path as is, anything else from
/// `base`.
fn target(path: &str, base: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let p = if let Some(rest) = path.strip_prefix("~/") {
        home?.join(rest)
    } else if path == "~" {
        home?.to_path_buf()
    } else {
        base.join(path)
    };
    Some(normalize(&p))
}

/// The finding for a reference Claude Code does not read, if it does not.
fn problem(which: Refs, r: &FileRef, base: &Path, home: Option<&Path>) -> Option<Diagnostic> {
    let t = target(&r.path, base, home)?;
    let message = match which {
        Refs::Import if t.is_dir() => format!(
            "`{}` is a folder: Claude Code imports files only and leaves this import out without a word",
            r.path
        ),
        Refs::Import if t.is_file() && !memory::is_text(&r.path) => format!(
            "`{}` is not a text file Claude Code imports (its extension is not one of a text file's): the import is left out, said only in the debug log",
            r.path
        ),
        Refs::Import
            if !t.exists()
                && let p = r.path.trim_end_matches(TRAILING)
                && p.len() < r.path.len()
                && target(p, base, home).is_some_and(|t| t.is_file()) =>
        {
            let punct = &r.path[p.len()..];
            format!(
                "`{}` names no file: `{punct}` right after the path is part of it for Claude Code, which leaves the import out without a word (`{p}` exists; put a blank before the `{punct}`)",
                r.path
            )
        }
        Refs::Import if !t.exists() => format!(
            "`{}` names no file (an import resolves from this file's folder{}): Claude Code leaves the import out without a word, so the model never sees it",
            r.path,
            if r.path.starts_with("~/") {
                ", `~/` from the home folder"
            } else {
                ""
            }
        ),
        Refs::Mention if !t.exists() => format!(
            "`{}` names no file (a command's `@path` resolves from the folder Claude Code starts in, the project): Claude Code attaches nothing for it, without a word",
            r.path
        ),
        _ => return None,
    };
    Some(
        Diagnostic::new(Code::MissingPath, r.span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
    )
}
