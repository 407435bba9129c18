//! What Gemini CLI's files name on disk: an extension's context files (a `GEMINI.md`'s imports
//! are [`super::imports`]).

use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::did_you_mean;

use super::extension::Manifest;

/// The context files a manifest names that do not exist in the extension's folder (the one
/// holding `manifest_path`): Gemini CLI leaves each out without a word.
pub fn missing_context_files(
    manifest_path: &std::path::Path,
    manifest: &Manifest,
    disk: &dyn crate::analysis::discovery::Disk,
) -> Vec<Diagnostic> {
    let Some(dir) = manifest_path.parent() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, span) in &manifest.context_files {
        let target = dir.join(name);
        if disk.is_file(&target) {
            continue;
        }
        let what = if disk.is_dir(&target) {
            "is a folder, not a file"
        } else {
            "does not exist in the extension"
        };
        let near = disk.closest_sibling(&target);
        let mut d = Diagnostic::new(
            Code::MissingPath,
            *span,
            format!(
                "`{name}` {what}: Gemini CLI leaves this context file out without a word (`gemini extensions validate` fails on it).{}",
                did_you_mean(near.as_deref())
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near {
            let rel = std::path::Path::new(name)
                .with_file_name(&n)
                .to_string_lossy()
                .replace('\\', "/");
            d = d.with_suggestion(*span, format!("\"{rel}\""));
        }
        out.push(d);
    }
    out
}
