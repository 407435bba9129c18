//! What Copilot's files name on disk: the `applyTo` patterns of an instructions file, matched
//! against the files of its workspace folder as VS Code matches them.

use std::path::PathBuf;

use crate::analysis::diagnostic::{Effect, Severity};
use crate::analysis::host::{Host, memoized};
use crate::analysis::spec::DiskFindings;
use crate::analysis::{Code, Diagnostic, Span};

/// Copilot's checks of file `id` that look at the disk.
pub fn checks(host: &dyn Host, id: usize) -> Vec<DiskFindings> {
    apply_to(host, id).into_iter().collect()
}

/// Whether an `applyTo` pattern matches a file of its workspace folder (`None`: no verdict).
#[derive(Clone, Copy)]
struct Matched(Option<bool>);

/// Look up the `applyTo` patterns of Copilot instructions file `id` in its workspace folder
/// and replace its `missing-path` findings; returns whether they changed. The walk follows
/// the ignore rules (a file git ignores is not in the workspace VS Code searches) and has a
/// budget: past it, no verdict.
fn apply_to(host: &dyn Host, id: usize) -> Option<DiskFindings> {
    let f = host.file(id)?;
    let c = f.analysis.copilot()?;
    let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::MissingPath);
    if c.apply_to.is_empty() && !had {
        return None;
    }
    // Its workspace folder.
    let dir = f.role.dialect().map(|(d, _)| d.to_path_buf())?;
    let patterns: Vec<(String, Span)> = c.apply_to.iter().map(|p| (p.name.clone(), p.span)).collect();
    // Teams write patterns ahead of their files: one pattern that matches is enough for the
    // instructions to apply, so a finding only when no pattern matches anything, and then as
    // information.
    let mut unmatched = Vec::new();
    for (pattern, span) in &patterns {
        if super::glob::matches_all(pattern) {
            unmatched.clear();
            break;
        }
        let key = PathBuf::from(format!("{}\u{0}{pattern}", dir.display()));
        let matched = memoized(host, &key, || {
            Matched(
                super::glob::compile(pattern)
                    .ok()
                    .and_then(|m| Some(host.disk().files_below(&dir)?.iter().any(|f| m.is_match(f)))),
            )
        })
        .0;
        if matched != Some(false) {
            // A pattern that matches, or one with no verdict: nothing to say.
            unmatched.clear();
            break;
        }
        unmatched.push((pattern.as_str(), *span));
    }
    let mut found = Vec::new();
    if let (Some(first), Some(last)) = (unmatched.first(), unmatched.last()) {
        let (span, message) = match unmatched.as_slice() {
            [(pattern, span)] => (
                *span,
                format!(
                    "`{pattern}` matches no file of this workspace yet: Copilot adds these instructions to no request by itself until such a file exists"
                ),
            ),
            all => (
                Span::new(first.1.start as usize, last.1.end as usize),
                format!(
                    "none of the {} patterns of `applyTo` matches a file of this workspace yet: Copilot adds these instructions to no request by itself until such a file exists",
                    all.len()
                ),
            ),
        };
        found.push(
            Diagnostic::new(Code::MissingPath, span, message)
                .with_severity(Severity::Info)
                .with_effect(Effect::ValueIgnored),
        );
    }
    Some(DiskFindings {
        own: Some(|d| d.code == Code::MissingPath),
        found,
    })
}
