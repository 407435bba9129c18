//! The Claude Code dialect (release 2.1.332): subagent files `.claude/agents/**/*.md`, user
//! agents in `~/.claude/agents/`, and plugin agents (`agents/` of a plugin).
//!
//! Facts: `shared/spec/claude-code.md`, above all §7 (confirmed by running the released loader).
//!
//! - [`read`]: how Claude Code finds and parses the frontmatter (§7.1-7.3): the block that ends
//!   at the first later `---`, the strict YAML 1.2 pass, the lenient retry.
//! - [`schema`]: what Claude Code knows, as data (keys, values, tools, model aliases, built-in
//!   agent types).
//! - [`tools`]: how `tools`/`disallowedTools`/`skills` lists are split, and what an entry is.
//! - [`agent`]: the checks of one agent file (§7.4-7.6, §7.9) and the agent Claude Code builds.
//! - [`project`]: the checks across files (duplicate names, `Agent(name)` references) and which
//!   file wins a name.
//! - [`card`]: the agent as Claude Code will run it, for hover and `explain`.
//! - [`complete`]: completion in a Claude agent's frontmatter.
//! - [`prompt`]: commands and skills as Claude Code shows them (description, argument hint) and
//!   expands them (`$ARGUMENTS`, `$0`, `$name`); the body's data types and links are shared
//!   ([`crate::analysis::prompt`]).
//! - [`command`]: Claude Code's command files (its keys, its reading, tool lists, card,
//!   completion).
//! - [`skill`]: Claude Code's skill rules (its keys and values, its reading of the body).
//! - [`plugin`]: the plugin manifests (`plugin.json`, `marketplace.json`) and how a plugin's
//!   commands and skills are listed.

pub mod agent;
pub mod card;
pub mod command;
pub mod complete;
pub mod plugin;
pub mod project;
pub mod prompt;
pub mod read;
pub mod schema;
pub mod skill;
pub mod tools;

use super::diagnostic::Diagnostic;

pub use agent::Agent;

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

/// Analyse one agent file on its own: the diagnostics and the agent Claude Code builds from it.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Agent, read::Reading) {
    let reading = read::read(text);
    let (mut diags, agent) = agent::check(kind, text, &reading);
    diags.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (diags, agent, reading)
}

pub(crate) use super::text::first_line;
