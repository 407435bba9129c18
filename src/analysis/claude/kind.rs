//! What a file is to Claude Code: where an agent file comes from, decided by the caller from
//! its path.

/// Where an agent file comes from; decides precedence and the plugin rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// `.claude/agents/` of a project (closest to the working directory wins).
    Project,
    /// `~/.claude/agents/`.
    User,
    /// An agent of a plugin (a directory with `.claude-plugin/plugin.json`). `plugin` is the
    /// namespace of its name: the plugin's name, then the agent's sub-folders below `agents/`
    /// (`tools:review` for `agents/review/security.md`), joined by `:` as Claude Code joins them.
    Plugin { plugin: String },
}

impl Source {
    pub fn label(&self) -> String {
        match self {
            Source::Project => "project".into(),
            Source::User => "user".into(),
            Source::Plugin { plugin } => format!("plugin {plugin}"),
        }
    }
}

/// What a file is to Claude Code; decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileKind {
    pub source: Source,
    /// The file name without `.md` (a plugin agent without `name` is named after it; its
    /// sub-folders are in the namespace, see [`Source::Plugin`]).
    pub stem: String,
}

impl FileKind {
    pub fn project(stem: &str) -> FileKind {
        FileKind {
            source: Source::Project,
            stem: stem.into(),
        }
    }

    pub fn is_plugin(&self) -> bool {
        matches!(self.source, Source::Plugin { .. })
    }
}

/// The size above which the loader skips a file (§7.1).
pub const MAX_BYTES: usize = 1_048_576;
