//! What Codex decides over a `.codex` folder as a whole (a project's, or `$CODEX_HOME`): which
//! agent files become agents.
//!
//! An agent file needs a `name` and a `description`, unless a role of the folder's `config.toml`
//! points at it (`[agents.<name>] config_file = "./agents/x.toml"`): the role's key is then its
//! name and the role's `description` counts. Codex 0.171.0 drops an agent file that has neither
//! ("must define a non-empty `name`", "must define a description"), and of two files that give
//! the same name it keeps the first by path ("duplicate agent role name ... discovered").

use std::path::{Component, Path, PathBuf};

use super::agent::Role;
use super::layer::Settings;
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::text::{Span, first_line};

/// One file of the folder, as the check reads it.
pub struct FolderFile<'a> {
    pub id: usize,
    pub path: &'a Path,
    pub text: &'a str,
    /// An agent file: what it defines.
    pub agent: Option<&'a Role>,
    /// A `config.toml`: what it sets.
    pub config: Option<&'a Settings>,
}

/// `a/./b/../c` as `a/c`, without touching the disk.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The roles the folder's configuration declares with a role file: the file (normalized), the
/// role's name and its description.
pub fn declared_roles<'a>(files: &'a [FolderFile]) -> Vec<(PathBuf, &'a str, Option<&'a str>)> {
    let mut out = Vec::new();
    for f in files {
        let Some(settings) = f.config else { continue };
        let base = f.path.parent().unwrap_or(Path::new(""));
        for r in &settings.role_decls {
            if let Some(file) = &r.config_file {
                out.push((normalize(&base.join(file)), r.name.as_str(), r.description.as_deref()));
            }
        }
    }
    out
}

/// The agent files of the folder Codex loads, by name, the first by path of each: the file's id
/// and its name (the declaring role's, or its own).
pub fn loaded<'a>(files: &'a [FolderFile<'a>]) -> Vec<(usize, String)> {
    let dropped: Vec<usize> = check(files).into_iter().map(|(id, _)| id).collect();
    let declared = declared_roles(files);
    let mut agents: Vec<&FolderFile> = files.iter().filter(|f| f.agent.is_some()).collect();
    agents.sort_by_key(|f| f.path);
    agents
        .into_iter()
        .filter(|f| f.agent.is_some_and(|r| r.loads) && !dropped.contains(&f.id))
        .filter_map(|f| {
            let name = declared
                .iter()
                .find(|(p, ..)| *p == normalize(f.path))
                .map(|(_, n, _)| (*n).to_string())
                .or_else(|| f.agent.and_then(|r| r.name.clone()))?;
            Some((f.id, name))
        })
        .collect()
}

/// The findings of the folder's files.
pub fn check(files: &[FolderFile]) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    // The roles the folder's configuration declares, by the file they point at.
    let mut declared: Vec<(PathBuf, &str, bool)> = Vec::new();
    for (path, name, description) in declared_roles(files) {
        declared.push((path, name, description.is_some()));
    }
    let drop = |id: usize, span: Span, message: String| {
        (
            id,
            Diagnostic::new(Code::MissingField, span, message)
                .with_severity(Severity::Error)
                .with_effect(Effect::FileIgnored),
        )
    };
    let mut names: Vec<(String, &Path)> = Vec::new();
    let mut agents: Vec<&FolderFile> = files.iter().filter(|f| f.agent.is_some()).collect();
    agents.sort_by_key(|f| f.path);
    for f in agents {
        let Some(role) = f.agent else { continue };
        // A file Codex drops for a reason of its own is reported there (a misspelt
        // `descripton` is that reason, not a missing `description` besides).
        if !role.loads {
            continue;
        }
        let decl = declared.iter().find(|(p, ..)| *p == normalize(f.path));
        let name = match (decl, &role.name) {
            (Some((_, key, _)), _) => Some((*key).to_string()),
            (None, Some(n)) => Some(n.clone()),
            (None, None) => None,
        };
        if name.is_none() && !role.has_name {
            out.push(drop(
                f.id,
                first_line(f.text),
                "an agent file must define a non-empty `name` (no `[agents.<name>]` of the folder's config.toml points at this file with `config_file`): Codex drops this agent (a warning names the file only when a session starts)".into(),
            ));
            continue;
        }
        let described = decl.is_some_and(|(_, _, d)| *d) || role.has_description;
        if !described {
            out.push(drop(
                f.id,
                first_line(f.text),
                format!(
                    "the agent `{}` has no `description` (nor does a role of the folder's config.toml give it one): Codex drops it (a warning names it only when a session starts)",
                    name.as_deref().unwrap_or_default()
                ),
            ));
            continue;
        }
        let Some(name) = name else { continue };
        if let Some((_, first)) = names.iter().find(|(n, _)| *n == name) {
            let span = role.name_span.unwrap_or_else(|| first_line(f.text));
            out.push((
                f.id,
                Diagnostic::new(
                    Code::DuplicateAgent,
                    span,
                    format!(
                        "another agent file of this folder is named `{name}` ({}): Codex keeps the first by path and drops this one",
                        first.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
                    ),
                ),
            ));
            continue;
        }
        names.push((name, f.path));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::codex::{FileKind, analyze};

    struct Owned {
        path: PathBuf,
        text: String,
        facts: crate::analysis::codex::Facts,
    }

    fn owned(path: &str, text: &str) -> Owned {
        let kind = if path.ends_with("config.toml") {
            FileKind::Config { project: true }
        } else {
            FileKind::Agent
        };
        let (_, _, facts) = analyze(&kind, text);
        Owned {
            path: PathBuf::from(path),
            text: text.to_string(),
            facts,
        }
    }

    fn run(files: &[Owned]) -> Vec<(usize, Code, String)> {
        let view: Vec<FolderFile> = files
            .iter()
            .enumerate()
            .map(|(id, f)| FolderFile {
                id,
                path: &f.path,
                text: &f.text,
                agent: f.facts.agent.as_ref(),
                config: f.path.ends_with("config.toml").then_some(&f.facts.settings),
            })
            .collect();
        check(&view)
            .into_iter()
            .map(|(id, d)| (id, d.code, d.message))
            .collect()
    }

    #[test]
    fn a_role_of_the_config_names_and_describes_its_file() {
        let config = owned(
            "/p/.codex/config.toml",
            "[agents.reviewer]\ndescription = \"Find risks.\"\nconfig_file = \"./agents/reviewer.toml\"\n",
        );
        let referenced = owned(
            "/p/.codex/agents/reviewer.toml",
            "model = \"o3\"\ndeveloper_instructions = \"x\"\n",
        );
        let orphan = owned("/p/.codex/agents/orphan.toml", "developer_instructions = \"x\"\n");
        let nodesc = owned(
            "/p/.codex/agents/nodesc.toml",
            "name = \"nodesc\"\ndeveloper_instructions = \"x\"\n",
        );
        let found = run(&[config, referenced, orphan, nodesc]);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!((found[0].0, found[0].1), (3, Code::MissingField));
        assert!(found[0].2.contains("description"), "{}", found[0].2);
        assert_eq!((found[1].0, found[1].1), (2, Code::MissingField));
        assert!(found[1].2.contains("non-empty `name`"), "{}", found[1].2);
    }

    #[test]
    fn the_first_file_by_path_keeps_a_name() {
        let a = owned(
            "/p/.codex/agents/a.toml",
            "name = \"dup\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\n",
        );
        let b = owned(
            "/p/.codex/agents/b.toml",
            "name = \"dup\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\n",
        );
        let found = run(&[b, a]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!((found[0].0, found[0].1), (0, Code::DuplicateAgent));
        assert!(found[0].2.contains("a.toml"), "{}", found[0].2);
        // A file Codex drops for another reason takes no name.
        let broken = owned("/p/.codex/agents/a.toml", "name = \"dup\"\ndescription = \"d\"\n");
        let b = owned(
            "/p/.codex/agents/b.toml",
            "name = \"dup\"\ndescription = \"d\"\ndeveloper_instructions = \"x\"\n",
        );
        assert!(run(&[broken, b]).is_empty());
        assert_eq!(
            normalize(Path::new("/p/.codex/./agents/../agents/x.toml")),
            PathBuf::from("/p/.codex/agents/x.toml")
        );
    }
}
