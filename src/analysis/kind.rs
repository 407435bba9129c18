//! What a file is and what analysing it alone yields: the shared part of [`FileKind`] and
//! [`Facts`] (the enums themselves come from the registration list, see `registry.rs`) and
//! [`FileAnalysis`]. A dialect's own accessors for its kinds and facts are in its folder.

use super::registry::Own;
use super::syntax::Parsed;
use super::{Diagnostic, Dialect, command, project_file, skill, suppress};

// The `FileKind` and `Facts` enums, from the registration list (`registry.rs`).
for_each_dialect!(declare_kinds);

impl FileKind {
    /// The dialect that reads the file: its own kind's, a skill's family, a command's runtime.
    pub fn dialect(&self) -> Dialect {
        match (self.registered_dialect(), self) {
            (Some(d), _) => d,
            (None, FileKind::Skill(k)) => k.family,
            (None, FileKind::Command(k)) => k.runtime,
            // `agent-lsp.toml` is no runtime's file; it is checked whatever the dialects (see
            // `project_file`), under the first registered.
            (None, _) => Dialect::ALL[0],
        }
    }

    /// The dialect's own kind, when the file is one of `T`'s dialect (`kind.own::<d::FileKind>()`).
    pub fn own<T: Own<FileKind>>(&self) -> Option<&T> {
        T::own(self)
    }

    /// A Markdown file: an agent, a command, a skill, an instruction file.
    pub fn is_markdown(&self) -> bool {
        self.comments() == suppress::Comments::Frontmatter
    }

    /// Where the file's comments are, for `agent-lsp: ignore` directives.
    pub fn comments(&self) -> suppress::Comments {
        match self {
            // TOML: fix it or its levels instead.
            FileKind::ProjectFile => suppress::Comments::None,
            FileKind::Skill(_) | FileKind::Command(_) => suppress::Comments::Frontmatter,
            k => k.dialect().spec().comments(k),
        }
    }

    /// A `SKILL.md`.
    pub fn skill(&self) -> Option<&skill::SkillKind> {
        match self {
            FileKind::Skill(k) => Some(k),
            _ => None,
        }
    }

    /// A command file.
    pub fn command(&self) -> Option<&command::CommandKind> {
        match self {
            FileKind::Command(k) => Some(k),
            _ => None,
        }
    }

    /// `agent-lsp.toml`: agent-lsp's own settings for a project.
    pub fn is_project_file(&self) -> bool {
        matches!(self, FileKind::ProjectFile)
    }
}

impl From<skill::SkillKind> for FileKind {
    fn from(k: skill::SkillKind) -> FileKind {
        FileKind::Skill(k)
    }
}

impl From<command::CommandKind> for FileKind {
    fn from(k: command::CommandKind) -> FileKind {
        FileKind::Command(k)
    }
}

/// Everything known about one file after analysing it alone: what every file has (its tree,
/// its diagnostics, its suppression comments) and what its dialect makes of it ([`Facts`]).
#[derive(Clone, Debug, Default)]
pub struct FileAnalysis {
    pub parsed: Parsed,
    pub diagnostics: Vec<Diagnostic>,
    /// The `agent-lsp: ignore[...]` comments of the file (applied where the file's full
    /// diagnostics are assembled, see [`suppress::apply`]).
    pub suppressions: suppress::Suppressions,
    /// What the file declares, in its dialect's terms.
    pub facts: Facts,
    /// The secrets written in the file, or filled in from the environment (see
    /// [`super::secret`]): what agent-lsp prints hides them, whether `hardcoded-secret` is
    /// reported or not.
    pub secrets: Vec<String>,
    /// The packages the file starts without a pinned version (see [`super::launch`]): the
    /// workspace looks for the version to pin to.
    pub unpinned: Vec<super::launch::Unpinned>,
}

impl FileAnalysis {
    /// What a dialect's reading of one file gives: its tree, its diagnostics and its facts (the
    /// suppression comments are read after).
    pub fn of(parsed: Parsed, diagnostics: Vec<Diagnostic>, facts: impl Into<Facts>) -> FileAnalysis {
        FileAnalysis {
            parsed,
            diagnostics,
            facts: facts.into(),
            ..FileAnalysis::default()
        }
    }

    /// The dialect's own facts, when the file is one of `T`'s dialect
    /// (`analysis.own::<d::Facts>()`).
    pub fn own<T: Own<Facts>>(&self) -> Option<&T> {
        T::own(&self.facts)
    }

    pub fn skill(&self) -> Option<&skill::SkillDecl> {
        match &self.facts {
            Facts::Skill(f) => Some(f),
            _ => None,
        }
    }

    pub fn command(&self) -> Option<&command::CommandDecl> {
        match &self.facts {
            Facts::Command(f) => Some(f),
            _ => None,
        }
    }

    pub fn project(&self) -> Option<&project_file::ProjectFile> {
        match &self.facts {
            Facts::Project(f) => Some(f),
            _ => None,
        }
    }

    /// The file's syntax parsed as written, by agent-lsp and by the runtime's first pass (a
    /// runtime's retry may read a new ` # ...` comment as part of a value).
    pub fn parses_as_written(&self) -> bool {
        self.parsed.errors.is_empty()
            && self
                .facts
                .registered_dialect()
                .is_none_or(|d| d.spec().parses_as_written(self))
    }
}
