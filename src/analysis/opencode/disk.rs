//! What opencode's configs name on disk: the paths (`instructions`, `skills.paths`, local
//! `references`, local plugins), looked up as opencode 1.18.34 looks them up; the ones that
//! match nothing are `missing-path` warnings on the config; and the `{env:...}` and `{file:...}`
//! values opencode substitutes when it reads a config. Run when a config is analysed and again
//! when files appear or vanish.
//!
//! How opencode resolves each (from its code, confirmed by the runtime tests):
//! - an `instructions` entry: `~/` is the home folder; an absolute path is a glob of its last
//!   segment in its folder; anything else is a glob tried in the folder opencode starts in and
//!   each parent up to the worktree's root; URLs are fetched instead;
//! - a `skills.paths` folder: `~/` is the home folder; relative to the folder opencode starts in;
//!   it must be a folder;
//! - a local `references` folder: `~/` is the home folder; relative to the config's folder;
//! - a plugin path (`file://`, `./`, `../`, absolute): relative to the config's folder.
//!
//! agent-lsp takes the project a config belongs to as the folder opencode starts in. In a global
//! config, relative `instructions` and `skills.paths` depend on the project opencode is started
//! in, so they are not checked.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::sections::{PathKind, PathRef};
use crate::analysis::diagnostic::{Effect, Severity};
use crate::analysis::discovery::normalize;
use crate::analysis::host::{Disk, Host};
use crate::analysis::spec::{DiskFindings, Substituted};
use crate::analysis::{Code, Diagnostic};

/// opencode's checks of file `id` that look at the disk.
pub fn checks(host: &dyn Host, id: usize) -> Vec<DiskFindings> {
    config_paths(host, id).into_iter().collect()
}

fn config_paths(host: &dyn Host, id: usize) -> Option<DiskFindings> {
    let f = host.file(id)?;
    // Other files' `missing-path` findings are theirs (Claude Code's imports, `imports.rs`;
    // hooks, below).
    if !f.kind.is_config() {
        return None;
    }
    let paths: &[PathRef] = &f.analysis.opencode().paths;
    let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::MissingPath);
    if paths.is_empty() && !had {
        return None;
    }
    let config_dir = f.path.parent()?;
    // The folder opencode starts in, for a project's config; none for a global one.
    let project: Option<&Path> = match super::place::place(&f) {
        Some((dir, super::place::Place::Project)) => Some(dir),
        Some((dir, super::place::Place::Dir)) if dir.file_name().is_some_and(|n| n == ".opencode") => dir.parent(),
        _ => None,
    };
    let home = host.options().home.as_deref();
    let mut found = Vec::new();
    for p in paths {
        let d = missing(p, config_dir, project, home, host.disk());
        // The same finding where the path is written now.
        if let Some(mut d) = d {
            d.span = p.span;
            found.push(d);
        }
    }
    Some(DiskFindings {
        own: Some(|d| d.code == Code::MissingPath),
        found,
    })
}

/// The finding for a path that matches nothing, if it does.
pub fn missing(
    p: &PathRef,
    config_dir: &Path,
    project: Option<&Path>,
    home: Option<&Path>,
    disk: &dyn Disk,
) -> Option<Diagnostic> {
    let text = p.text.trim();
    if text.is_empty() {
        return None;
    }
    let in_home = |rest: &str| home.map(|h| h.join(rest));
    let relative = !text.starts_with("~/") && !Path::new(text).is_absolute();
    let (found, message) = match p.kind {
        PathKind::Instructions => {
            let found = match text.strip_prefix("~/") {
                Some(rest) => {
                    let path = in_home(rest)?;
                    disk.glob_matches(path.parent()?, &file_name(&path)?)
                }
                None if Path::new(text).is_absolute() => {
                    let path = PathBuf::from(text);
                    disk.glob_matches(path.parent()?, &file_name(&path)?)
                }
                None => up_to_worktree(project?, disk).any(|dir| disk.glob_matches(&dir, text)),
            };
            let place = if relative {
                " in the project's folder or its parents up to the repository's root"
            } else {
                ""
            };
            (
                found,
                format!("`{text}` matches no file{place}: opencode skips this instructions entry without a word"),
            )
        }
        PathKind::SkillsPath => {
            let path = match text.strip_prefix("~/") {
                Some(rest) => in_home(rest)?,
                None if Path::new(text).is_absolute() => PathBuf::from(text),
                None => project?.join(text),
            };
            let place = if relative { " in the project's folder" } else { "" };
            (
                disk.is_dir(&path),
                format!(
                    "there is no folder `{text}`{place}: opencode skips it (it only logs \"skill path not found\")"
                ),
            )
        }
        PathKind::Reference => {
            let path = match text.strip_prefix("~/") {
                Some(rest) => in_home(rest)?,
                None => config_dir.join(text),
            };
            let place = if relative { " beside this config" } else { "" };
            (
                disk.is_dir(&path),
                format!("there is no folder `{text}`{place}: the agents find nothing in this reference"),
            )
        }
        PathKind::Plugin => {
            let raw = text.strip_prefix("file://").unwrap_or(text);
            let place = if !Path::new(raw).is_absolute() {
                " beside this config"
            } else {
                ""
            };
            (
                disk.exists(&config_dir.join(raw)),
                format!("there is no file `{raw}`{place}: opencode cannot load this plugin"),
            )
        }
    };
    if found {
        return None;
    }
    Some(
        Diagnostic::new(Code::MissingPath, p.span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
    )
}

fn file_name(path: &Path) -> Option<String> {
    Some(path.file_name()?.to_string_lossy().into_owned())
}

/// The folder opencode starts in and its parents, up to the repository's root (the first holding
/// `.git`; the file system's root outside a repository), as opencode's `globUp` walks them.
pub fn up_to_worktree<'d>(start: &Path, disk: &'d dyn Disk) -> impl Iterator<Item = PathBuf> + 'd {
    let mut next = Some(start.to_path_buf());
    let mut depth = 0;
    std::iter::from_fn(move || {
        let dir = next.take()?;
        depth += 1;
        if !disk.exists(&dir.join(".git")) && depth < 64 {
            next = dir.parent().map(Path::to_path_buf);
        }
        Some(dir)
    })
}

pub fn substitute(host: &dyn Host, id: usize) -> Option<Substituted> {
    use super::substitute::{self, Kind};
    let f = host.file(id)?;
    if !f.kind.is_config() {
        return None;
    }
    let refs = substitute::references(f.text);
    if refs.is_empty() {
        return None;
    }
    let disk = host.disk();
    let dir = f.path.parent().map(Path::to_path_buf).unwrap_or_default();
    let home = host.options().home.clone();
    let mut values: HashMap<String, String> = HashMap::new();
    let mut problems = Vec::new();
    let mut unreadable: Vec<(PathBuf, Diagnostic)> = Vec::new();
    for r in &refs {
        let text = r.text(f.text).to_string();
        match r.kind {
            Kind::Env => {
                values.insert(text, disk.env(&r.arg).unwrap_or_default());
            }
            Kind::File => {
                let target = match (r.arg.strip_prefix("~/"), &home) {
                    (Some(rest), Some(h)) => h.join(rest),
                    // Without the user's home (`--no-global`) a `~/` path cannot be known.
                    (Some(_), None) => continue,
                    _ if Path::new(&r.arg).is_absolute() => PathBuf::from(&r.arg),
                    _ => dir.join(&r.arg),
                };
                let target = normalize(&target);
                match disk.read_file(&target) {
                    Ok(content) => {
                        values.insert(text, content.trim().to_string());
                    }
                    Err(why) => {
                        // One finding per file that cannot be read, on its first reference,
                        // the others related: one missing file is one mistake.
                        if let Some((_, first)) = unreadable.iter_mut().find(|(t, _)| *t == target) {
                            first.related.push(crate::analysis::diagnostic::Related {
                                location: crate::analysis::diagnostic::Location::Here(r.span),
                                message: "another reference to the same file".into(),
                                lost: false,
                            });
                            continue;
                        }
                        let missing = !disk.exists(&target);
                        let d = Diagnostic::new(
                            Code::BadFileReference,
                            r.span,
                            if missing {
                                format!(
                                    "`{}` does not exist; opencode refuses to start (`bad file reference`)",
                                    target.display()
                                )
                            } else {
                                format!(
                                    "`{}` cannot be read ({why}); opencode refuses to start (`bad file reference`)",
                                    target.display()
                                )
                            },
                        );
                        unreadable.push((target, d));
                    }
                }
            }
        }
    }
    for (_, mut d) in unreadable {
        if !d.related.is_empty() {
            d.message
                .push_str(&format!(" (referenced {} times in this file)", d.related.len() + 1));
        }
        problems.push(d);
    }
    Some(Substituted {
        resolved: f.analysis.substituted(&|t: &str| values.get(t).cloned()),
        problems,
    })
}
