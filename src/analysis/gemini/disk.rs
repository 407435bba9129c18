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

#[cfg(test)]
mod tests {
    use crate::analysis::Code;
    use crate::workspace::{Options, Workspace};

    #[test]
    fn a_context_file_the_extension_does_not_hold_is_said_on_its_name() {
        let t = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(t.path()).unwrap();
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::write(
            root.join("gemini-extension.json"),
            r#"{"name": "x", "version": "1.0.0", "contextFileName": ["GEMINI.md", "docs/STYLE.md", "docs/gone.md", "docs"]}"#,
        )
        .unwrap();
        std::fs::write(root.join("GEMINI.md"), "Rules.\n").unwrap();
        std::fs::write(root.join("docs/STYLE.md"), "Style.\n").unwrap();
        std::fs::write(root.join("docs/GONE.md"), "Near.\n").unwrap();
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).unwrap();
        let text = std::fs::read_to_string(root.join("gemini-extension.json")).unwrap();
        let found: Vec<(Code, String, String)> = ws
            .diagnostics()
            .into_iter()
            .filter(|(id, _)| ws.files[*id].path.ends_with("gemini-extension.json"))
            .map(|(_, d)| (d.code, d.span.text(&text).to_string(), d.message.clone()))
            .collect();
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!(
            (found[0].0, found[0].1.as_str()),
            (Code::MissingPath, "\"docs/gone.md\"")
        );
        assert!(
            found[0].2.contains("does not exist") && found[0].2.contains("Did you mean"),
            "{}",
            found[0].2
        );
        assert_eq!((found[1].0, found[1].1.as_str()), (Code::MissingPath, "\"docs\""));
        assert!(found[1].2.contains("is a folder"), "{}", found[1].2);
    }
}
