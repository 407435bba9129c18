//! What Gemini CLI makes of one `agents/` folder as a whole: two files of one name.
//!
//! Gemini CLI registers the agents of a folder in the order it lists the folder (the order on
//! disk, which is no order a user sees), and a later agent of a name replaces the earlier one
//! without a word: of two files named alike, one is lost, and which depends on the disk.

use std::path::Path;

use super::agent::AgentDecl;
use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::rules::Code;
use crate::analysis::text::{Span, first_line};

/// An agent file of the folder, as the check reads it.
pub struct AgentFile<'a> {
    pub id: usize,
    pub path: &'a Path,
    pub text: &'a str,
    pub decl: &'a AgentDecl,
}

/// The findings of one folder's agent files (given in path order): each file that defines a
/// name an earlier one (by path) already defines, on its `name`.
pub fn check(files: &[AgentFile]) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    let mut names: Vec<(&str, &Path)> = Vec::new();
    for f in files {
        let Some(name) = f.decl.name.as_deref().filter(|_| f.decl.loads) else {
            continue;
        };
        match names.iter().find(|(n, _)| *n == name) {
            Some((_, first)) => {
                let span: Span = f.decl.name_span.unwrap_or_else(|| first_line(f.text));
                out.push((
                    f.id,
                    Diagnostic::new(
                        Code::DuplicateAgent,
                        span,
                        format!(
                            "`{}` also defines the agent `{name}`: Gemini CLI loads both and keeps the one it reads last, in the folder's order on disk, so one of the two is lost without a word",
                            first.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
                        ),
                    ),
                ));
            }
            None => names.push((name, f.path)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_file_of_a_name_is_told_of_the_first() {
        let text = "---\nname: twin\ndescription: d\n---\n";
        let (_, _, decl) = super::super::agent::check(text);
        let (_, _, broken) = super::super::agent::check("---\nname: twin\n---\n");
        let files = [
            AgentFile {
                id: 0,
                path: Path::new("/w/.gemini/agents/a.md"),
                text,
                decl: &decl,
            },
            AgentFile {
                id: 1,
                path: Path::new("/w/.gemini/agents/b.md"),
                text,
                decl: &decl,
            },
            // Not loaded: it takes no name.
            AgentFile {
                id: 2,
                path: Path::new("/w/.gemini/agents/c.md"),
                text,
                decl: &broken,
            },
        ];
        let found = check(&files);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].0, found[0].1.code), (1, Code::DuplicateAgent));
        assert_eq!(found[0].1.span.text(text), "twin");
        assert!(
            found[0].1.message.starts_with("`a.md` also defines the agent `twin`"),
            "{}",
            found[0].1.message
        );
        assert!(check(&files[..1]).is_empty());
    }
}
