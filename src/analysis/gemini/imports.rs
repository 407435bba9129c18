//! A `GEMINI.md`'s imports against the disk ([`super::context`] finds them): each one Gemini
//! CLI 0.61.0 cannot read (the model gets `<!-- Import failed: path - ENOENT ... -->` in its
//! place) or will not (outside the project, the nearest folder with a `.git` above the file, or
//! a URL: "Path traversal attempt").

use std::path::{Component, Path, PathBuf};

use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::discovery::Disk;
use crate::analysis::rules::Code;
use crate::analysis::suggest::did_you_mean;
use crate::analysis::text::Span;

/// The project an import must stay in: the nearest folder at or above `dir` with a `.git`, else
/// `dir` itself.
fn project_root(dir: &Path, disk: &dyn Disk) -> PathBuf {
    dir.ancestors()
        .find(|a| disk.exists(&a.join(".git")))
        .unwrap_or(dir)
        .to_path_buf()
}

/// `path` with `.` and `..` resolved as `path.resolve` does (without the disk).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn warning(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::MissingPath, span, message)
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored)
}

/// Gemini CLI processes the imports of files this deep at most (the context file is 0).
const MAX_DEPTH: usize = 5;

/// The findings of the imports of the context file at `file`: each import that fails, and each
/// import that fails in a file it brings in (said on the import that brings it in).
pub fn check(file: &Path, imports: &[(String, Span)], disk: &dyn Disk) -> Vec<Diagnostic> {
    let Some(dir) = file.parent() else { return Vec::new() };
    let root = project_root(dir, disk);
    let mut out = direct(dir, &root, imports, disk);
    for (path, span) in imports {
        if out.iter().any(|d| d.span == *span) {
            continue;
        }
        let target = normalise(&dir.join(path));
        let mut seen = vec![target.clone()];
        let mut failed = Vec::new();
        nested(&target, &root, 1, &mut seen, disk, &mut failed);
        for (inner, from, why) in failed {
            let from = from
                .strip_prefix(&root)
                .unwrap_or(&from)
                .to_string_lossy()
                .replace('\\', "/");
            out.push(warning(
                *span,
                format!(
                    "`@{path}` brings in `{from}`, whose `@{inner}` {why}: the model gets `<!-- Import failed: {inner} - ... -->` there, inside this file's text"
                ),
            ));
        }
    }
    out
}

/// The imports that fail in the file at `file`, brought in at `depth`, and in what it brings
/// in: (the import as written, the file writing it, why).
fn nested(
    file: &Path,
    root: &Path,
    depth: usize,
    seen: &mut Vec<PathBuf>,
    disk: &dyn Disk,
    out: &mut Vec<(String, PathBuf, &'static str)>,
) {
    if depth >= MAX_DEPTH {
        return;
    }
    let Some(text) = disk.read_text(file, 4 * 1024 * 1024) else {
        return;
    };
    let Some(dir) = file.parent() else { return };
    for (path, _) in super::context::imports(&text) {
        let target = normalise(&dir.join(&path));
        let why = if path.starts_with("file://") || path.starts_with("http://") || path.starts_with("https://") {
            Some("is a URL")
        } else if !target.starts_with(root) {
            Some("is outside the project")
        } else if !disk.is_file(&target) {
            Some("does not exist")
        } else {
            None
        };
        match why {
            Some(why) => out.push((path, file.to_path_buf(), why)),
            None if !seen.contains(&target) => {
                seen.push(target.clone());
                nested(&target, root, depth + 1, seen, disk, out);
                seen.pop();
            }
            None => {}
        }
    }
}

/// The findings of the imports written in the context file itself.
fn direct(dir: &Path, root: &Path, imports: &[(String, Span)], disk: &dyn Disk) -> Vec<Diagnostic> {
    let root = root.to_path_buf();
    let mut out = Vec::new();
    for (path, span) in imports {
        if path.starts_with("file://") || path.starts_with("http://") || path.starts_with("https://") {
            out.push(warning(
                *span,
                format!("Gemini CLI does not import a URL: the model gets `<!-- Import failed: {path} - Path traversal attempt -->` here"),
            ));
            continue;
        }
        let target = normalise(&dir.join(path));
        if !target.starts_with(&root) {
            out.push(warning(
                *span,
                format!(
                    "`@{path}` is outside the project ({}): Gemini CLI does not import it, and the model gets `<!-- Import failed: {path} - Path traversal attempt -->` here",
                    root.display()
                ),
            ));
            continue;
        }
        if disk.is_file(&target) {
            continue;
        }
        let what = if disk.is_dir(&target) {
            "is a folder, not a file"
        } else {
            "does not exist"
        };
        // `@docs/a.md.` at the end of a sentence: the `.` is part of the path.
        let trimmed = path.trim_end_matches(['.', ',', ';', ':', ')', '!', '?', '"', '\'']);
        // (An empty `trimmed` names the folder itself, no file.)
        let hint = if trimmed != path && disk.is_file(&normalise(&dir.join(trimmed))) {
            format!(
                " The path runs to the next blank: `{}` after `{trimmed}` is part of it (put a blank before it).",
                &path[trimmed.len()..]
            )
        } else if !path.contains(['/', '.']) {
            " An `@` before a word at the start of a line or after a blank imports a file of that name.".to_string()
        } else {
            String::new()
        };
        let near = disk.closest_sibling(&target).filter(|_| hint.is_empty());
        let mut d = warning(
            *span,
            format!(
                "`{path}` {what}: Gemini CLI logs \"Failed to import {path}\" and the model gets `<!-- Import failed: {path} - ... -->` in place of `@{path}`.{}{hint}",
                did_you_mean(near.as_deref())
            ),
        );
        if let Some(n) = near {
            let rel = Path::new(path).with_file_name(&n).to_string_lossy().replace('\\', "/");
            d = d.with_suggestion(*span, format!("@{rel}"));
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files by path, with their text.
    struct FakeDisk(Vec<(&'static str, &'static str)>);

    impl Disk for FakeDisk {
        fn is_file(&self, p: &Path) -> bool {
            self.0.iter().any(|(f, _)| Path::new(f) == p)
        }
        fn is_dir(&self, p: &Path) -> bool {
            self.0
                .iter()
                .any(|(f, _)| Path::new(f).starts_with(p) && Path::new(f) != p)
        }
        fn read_text(&self, p: &Path, max: u64) -> Option<String> {
            self.0
                .iter()
                .find(|(f, _)| Path::new(f) == p)
                .filter(|(_, t)| t.len() as u64 <= max)
                .map(|(_, t)| t.to_string())
        }
        fn list(&self, dir: &Path) -> Vec<(PathBuf, bool)> {
            self.0
                .iter()
                .map(|(f, _)| Path::new(f))
                .filter(|f| f.parent() == Some(dir))
                .map(|f| (f.to_path_buf(), false))
                .collect()
        }
        fn files_under(&self, _: &Path, _: bool, _: bool, _: &dyn Fn(&Path, &str) -> bool) -> Vec<PathBuf> {
            Vec::new()
        }
        fn env(&self, _: &str) -> Option<String> {
            None
        }
        fn exists(&self, p: &Path) -> bool {
            self.is_file(p) || self.is_dir(p)
        }
        fn read_file(&self, _: &Path) -> Result<String, String> {
            Err(String::new())
        }
        fn files_below(&self, _: &Path) -> Option<std::sync::Arc<Vec<PathBuf>>> {
            None
        }
        fn glob_matches(&self, _: &Path, _: &str) -> bool {
            true
        }
    }

    fn messages(text: &str) -> Vec<String> {
        messages_with(vec![], text)
    }

    /// The findings on `text` (a `/w/GEMINI.md`) with the files of `messages` and `more`.
    fn messages_with(more: Vec<(&'static str, &'static str)>, text: &str) -> Vec<String> {
        let mut files = vec![
            ("/w/.git/HEAD", ""),
            ("/w/docs/style.md", "Short sentences."),
            ("/w/docs/missing.md", ""),
            ("/w/docs/a.md", "A brings @b.md and @../nowhere.md"),
            ("/w/docs/b.md", "B brings @a.md again and @c.md"),
        ];
        files.extend(more);
        let disk = FakeDisk(files);
        let imports = super::super::context::imports(text);
        check(Path::new("/w/GEMINI.md"), &imports, &disk)
            .into_iter()
            .map(|d| format!("[{}] {}", d.span.text(text), d.message))
            .collect()
    }

    #[test]
    fn each_import_gemini_cli_cannot_read_is_said_on_it() {
        assert!(messages("@docs/style.md and @./docs/missing.md").is_empty());
        let m = messages("@docs/missng.md");
        assert_eq!(m.len(), 1);
        assert!(
            m[0].starts_with("[@docs/missng.md] `docs/missng.md` does not exist"),
            "{m:?}"
        );
        assert!(m[0].ends_with("Did you mean `missing.md`?"), "{m:?}");
        let m = messages("See @docs/style.md.");
        assert!(m[0].contains("`.` after `docs/style.md` is part of it"), "{m:?}");
        // Punctuation after a path that does not exist either: no such hint.
        let m = messages("See @docs/nothere.md.");
        assert!(
            m[0].contains("`docs/nothere.md.` does not exist") && !m[0].contains("part of it"),
            "{m:?}"
        );
        let m = messages("Ask @alice");
        assert!(m[0].contains("An `@` before a word"), "{m:?}");
        let m = messages("@docs");
        assert!(m[0].contains("is a folder, not a file"), "{m:?}");
        let m = messages("@../outside.md @https://example.com/x.md");
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(
            m[0].contains("is outside the project (/w)") && m[0].contains("Path traversal attempt"),
            "{m:?}"
        );
        assert!(
            m[1].starts_with("[@https://example.com/x.md] Gemini CLI does not import a URL"),
            "{m:?}"
        );
    }

    #[test]
    fn a_direct_failure_does_not_hide_what_another_import_brings_in() {
        let m = messages("@docs/missng.md @docs/a.md");
        assert_eq!(m.len(), 3, "{m:?}");
        assert!(
            m[0].starts_with("[@docs/missng.md] `docs/missng.md` does not exist"),
            "{m:?}"
        );
        assert!(
            m[1..]
                .iter()
                .all(|m| m.starts_with("[@docs/a.md] `@docs/a.md` brings in")),
            "{m:?}"
        );
    }

    #[test]
    fn every_url_scheme_is_a_url() {
        for url in ["http://x/a.md", "https://x/b.md", "file:///w/docs/style.md"] {
            let m = messages(&format!("@{url}"));
            assert_eq!(m.len(), 1, "{m:?}");
            assert!(m[0].contains("Gemini CLI does not import a URL"), "{m:?}");
        }
    }

    #[test]
    fn imports_are_followed_five_files_deep() {
        // GEMINI.md, then l1 to l4 read; l5 is brought in but not read.
        let chain = |fails_in: usize| {
            let files: Vec<(&'static str, &'static str)> = (1..=5)
                .map(|i| {
                    let path: &'static str = Box::leak(format!("/w/l{i}.md").into_boxed_str());
                    let text = if i == fails_in {
                        format!("@l{}.md @gone{i}.md", i + 1)
                    } else {
                        format!("@l{}.md", i + 1)
                    };
                    (path, &*Box::leak(text.into_boxed_str()))
                })
                .chain([("/w/l6.md", "")])
                .collect();
            messages_with(files, "@l1.md")
        };
        for i in 1..=4 {
            let m = chain(i);
            assert_eq!(m.len(), 1, "{i}: {m:?}");
            assert!(
                m[0].contains(&format!("brings in `l{i}.md`, whose `@gone{i}.md` does not exist")),
                "{m:?}"
            );
        }
        assert!(chain(5).is_empty());
    }

    #[test]
    fn urls_in_an_imported_file_are_said_as_urls() {
        let m = messages_with(
            vec![(
                "/w/docs/urls.md",
                "@http://x/a.md @https://x/b.md @file:///w/docs/style.md",
            )],
            "@docs/urls.md",
        );
        assert_eq!(m.len(), 3, "{m:?}");
        for (m, url) in m
            .iter()
            .zip(["http://x/a.md", "https://x/b.md", "file:///w/docs/style.md"])
        {
            assert!(m.contains(&format!("whose `@{url}` is a URL")), "{m}");
        }
    }

    #[test]
    fn an_imported_file_is_read_up_to_four_megabytes() {
        // Past 5 KB and past 1 MB, under 4 MB: read, and its failing import said.
        for size in [6 * 1024, 2 * 1024 * 1024] {
            let text: &'static str = Box::leak(format!("{} @gone.md\n", "x".repeat(size)).into_boxed_str());
            let m = messages_with(vec![("/w/docs/big.md", text)], "@docs/big.md");
            assert_eq!(m.len(), 1, "{size}: {m:?}");
            assert!(m[0].contains("whose `@gone.md` does not exist"), "{m:?}");
        }
        // Larger: not read, so nothing is said of it.
        let text: &'static str = Box::leak(format!("{} @gone.md\n", "x".repeat(4 * 1024 * 1024)).into_boxed_str());
        assert!(messages_with(vec![("/w/docs/big.md", text)], "@docs/big.md").is_empty());
    }

    #[test]
    fn what_an_imported_file_fails_to_import_is_said_on_the_import() {
        let m = messages("@docs/a.md");
        assert_eq!(
            m,
            vec![
                "[@docs/a.md] `@docs/a.md` brings in `docs/b.md`, whose `@c.md` does not exist: the model gets `<!-- Import failed: c.md - ... -->` there, inside this file's text",
                "[@docs/a.md] `@docs/a.md` brings in `docs/a.md`, whose `@../nowhere.md` does not exist: the model gets `<!-- Import failed: ../nowhere.md - ... -->` there, inside this file's text",
            ]
        );
    }
}
