//! The pure analysis core: text in, spanned syntax and diagnostics out.
//!
//! Nothing in this module touches the file system, spawns work or knows about LSP; the caller
//! says what a file is ([`FileKind`]) and hands over its text. Layers, from the bottom:
//!
//! - [`text`]: byte spans and the line/column conversion (UTF-8, UTF-16, scalars).
//! - [`syntax`]: frontmatter splitting, YAML and JSONC parsers into one spanned tree.
//! - [`rules`]: the catalog of diagnostic codes with their documentation.
//! - [`opencode`]: the opencode dialect: its schema as data and the rule functions that check a
//!   file, then a project (the merged agent registry, `default_agent`).
//! - [`claude`]: the Claude Code dialect, on the same syntax trees, diagnostics and edits.
//!
//! A dialect is a folder of knowledge (schema data) and rule functions. What is shared lives
//! here: [`FileKind`] (which dialect and role a file has, decided by the caller from its path),
//! [`FileAnalysis`] (what one file yields) and [`analyze`]/[`fix_all`], which dispatch to the
//! dialect.

pub mod claude;
pub mod color;
pub mod command;
pub mod complete;
pub mod diagnostic;
pub mod edit;
pub mod hash;
pub mod opencode;
pub mod permission;
pub mod project_file;
pub mod provenance;
pub mod rules;
pub mod skill;
pub mod suggest;
pub mod suppress;
pub mod syntax;
pub mod text;
pub mod zuno;

pub use diagnostic::{Diagnostic, Edit, Effect, Fix, Location, Related, Severity, Tag};
pub use rules::{Code, Level, RULES, Rule};
pub use text::{Encoding, LineCol, LineIndex, Span};

use syntax::Parsed;
use syntax::frontmatter::Split;

/// The agent-file dialects agent-lsp reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    OpenCode,
    Claude,
    Zuno,
}

impl Dialect {
    pub const ALL: [Dialect; 3] = [Dialect::OpenCode, Dialect::Claude, Dialect::Zuno];

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::OpenCode => "opencode",
            Dialect::Claude => "claude",
            Dialect::Zuno => "zuno",
        }
    }

    /// The product's name, for messages.
    pub fn product(self) -> &'static str {
        match self {
            Dialect::OpenCode => "opencode",
            Dialect::Claude => "Claude Code",
            Dialect::Zuno => "Zuno",
        }
    }

    pub fn parse(s: &str) -> Option<Dialect> {
        match s.to_ascii_lowercase().as_str() {
            "opencode" => Some(Dialect::OpenCode),
            "claude" | "claude-code" | "claudecode" => Some(Dialect::Claude),
            "zuno" => Some(Dialect::Zuno),
            _ => None,
        }
    }
}

/// What a file is: its dialect and its role in that dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    OpenCode(opencode::FileKind),
    Claude(claude::FileKind),
    Zuno(zuno::FileKind),
    /// A `SKILL.md`, read by several runtimes.
    Skill(skill::SkillKind),
    /// A Markdown command (`/name`).
    Command(command::CommandKind),
    /// `agent-lsp.toml`: agent-lsp's own settings for a project.
    ProjectFile,
    /// A Claude Code plugin manifest: `.claude-plugin/plugin.json` or `marketplace.json`.
    Manifest(claude::plugin::Manifest),
}

impl FileKind {
    pub fn dialect(&self) -> Dialect {
        match self {
            FileKind::OpenCode(_) => Dialect::OpenCode,
            FileKind::Claude(_) => Dialect::Claude,
            FileKind::Zuno(_) => Dialect::Zuno,
            FileKind::Skill(k) => k.family,
            FileKind::Command(k) => k.runtime,
            // Not a runtime's file; it is checked whatever the dialects (see `project_file`).
            FileKind::ProjectFile => Dialect::OpenCode,
            FileKind::Manifest(_) => Dialect::Claude,
        }
    }

    /// A Markdown file (an opencode agent or mode, a Claude Code or Zuno agent).
    pub fn is_markdown(&self) -> bool {
        !self.is_config()
            && !matches!(
                self,
                FileKind::Zuno(zuno::FileKind::Config) | FileKind::ProjectFile | FileKind::Manifest(_)
            )
    }

    /// An opencode config file (`opencode.json(c)`).
    pub fn is_config(&self) -> bool {
        matches!(self, FileKind::OpenCode(opencode::FileKind::Config))
    }

    pub fn opencode(&self) -> Option<&opencode::FileKind> {
        match self {
            FileKind::OpenCode(k) => Some(k),
            _ => None,
        }
    }
}

impl From<opencode::FileKind> for FileKind {
    fn from(k: opencode::FileKind) -> FileKind {
        FileKind::OpenCode(k)
    }
}

impl From<zuno::FileKind> for FileKind {
    fn from(k: zuno::FileKind) -> FileKind {
        FileKind::Zuno(k)
    }
}

impl From<claude::FileKind> for FileKind {
    fn from(k: claude::FileKind) -> FileKind {
        FileKind::Claude(k)
    }
}

/// What a card's title says of an agent's mode: "opencode subagent", "Zuno primary agent",
/// "opencode agent, primary and subagent" (`all`), "opencode agent with mode `main`" (a mode
/// the runtime rejects), with " (built-in)" for a runtime's own agent.
pub fn mode_title(product: &str, mode: &str, builtin: bool) -> String {
    let what = match mode {
        "subagent" => format!("{product} subagent"),
        "primary" => format!("{product} primary agent"),
        "all" => format!("{product} agent, primary and subagent"),
        other => format!("{product} agent with mode `{other}`"),
    };
    if builtin { format!("{what} (built-in)") } else { what }
}

/// A Claude Code agent file as the loader reads it.
#[derive(Clone, Debug)]
pub struct ClaudeFile {
    pub reading: claude::read::Reading,
    pub agent: claude::Agent,
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
}

/// What a file declares, one variant per kind of file.
#[derive(Clone, Debug, Default)]
pub enum Facts {
    /// Nothing (a file not analysed, or a kind that declares nothing).
    #[default]
    None,
    /// opencode files: the agents declared, the names referred to, how Markdown was read.
    OpenCode(Box<opencode::Facts>),
    /// Claude Code agent files: the reading and the agent.
    Claude(Box<ClaudeFile>),
    /// Zuno files: the agents declared and the names referred to.
    Zuno(Box<zuno::ZunoFile>),
    /// `SKILL.md` files: the skill declared.
    Skill(Box<skill::SkillDecl>),
    /// Command files: the command declared.
    Command(Box<command::CommandDecl>),
    /// `agent-lsp.toml`: what it sets.
    Project(Box<project_file::ProjectFile>),
    /// Plugin manifests: what they declare.
    Manifest(Box<claude::plugin::ManifestFile>),
}

/// An opencode file's facts when the file is not one (no agents, no references).
static NO_OPENCODE_FACTS: opencode::Facts = opencode::Facts {
    split: None,
    reading: None,
    agents: Vec::new(),
    refs: Vec::new(),
    has_plugins: false,
};

impl FileAnalysis {
    /// An opencode file's facts (empty for any other file).
    pub fn opencode(&self) -> &opencode::Facts {
        match &self.facts {
            Facts::OpenCode(f) => f,
            _ => &NO_OPENCODE_FACTS,
        }
    }

    /// opencode agents this file declares, in file order.
    pub fn agents(&self) -> &[opencode::AgentDecl] {
        &self.opencode().agents
    }

    /// opencode agent names this file refers to (`default_agent`, command `agent`).
    pub fn refs(&self) -> &[opencode::AgentRef] {
        &self.opencode().refs
    }

    /// opencode Markdown files: where the frontmatter and body are.
    pub fn split(&self) -> Option<&Split> {
        self.opencode().split.as_ref()
    }

    /// opencode Markdown files: how opencode reads it.
    pub fn reading(&self) -> Option<opencode::markdown::Reading> {
        self.opencode().reading
    }

    /// The opencode config lists plugins, which may define agents this analysis cannot see.
    pub fn has_plugins(&self) -> bool {
        self.opencode().has_plugins
    }

    pub fn claude(&self) -> Option<&ClaudeFile> {
        match &self.facts {
            Facts::Claude(f) => Some(f),
            _ => None,
        }
    }

    pub fn zuno(&self) -> Option<&zuno::ZunoFile> {
        match &self.facts {
            Facts::Zuno(f) => Some(f),
            _ => None,
        }
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

    pub fn manifest(&self) -> Option<&claude::plugin::ManifestFile> {
        match &self.facts {
            Facts::Manifest(f) => Some(f),
            _ => None,
        }
    }

    /// The file as opencode reads it after `{env:}`/`{file:}` substitution (`None` when
    /// nothing changes or the file is not opencode's).
    pub fn substituted(&self, value: &dyn Fn(&str) -> Option<String>) -> Option<FileAnalysis> {
        let Facts::OpenCode(facts) = &self.facts else {
            return None;
        };
        let (parsed, facts) = opencode::substitute::apply(&self.parsed, facts, value)?;
        Some(FileAnalysis {
            parsed,
            diagnostics: self.diagnostics.clone(),
            suppressions: self.suppressions.clone(),
            facts: Facts::OpenCode(Box::new(facts)),
        })
    }

    /// The file as opencode's project pass sees it.
    pub fn opencode_view(&self, file: usize, group: usize) -> opencode::project::ViewFile<'_> {
        opencode::project::ViewFile {
            file,
            parsed: &self.parsed,
            facts: self.opencode(),
            group,
        }
    }
}

/// Analyse one file on its own.
pub fn analyze(kind: &FileKind, text: &str) -> FileAnalysis {
    let mut analysis = analyze_dialect(kind, text);
    analysis.suppressions = suppress::directives(kind, text, analysis.split());
    analysis
}

fn analyze_dialect(kind: &FileKind, text: &str) -> FileAnalysis {
    match kind {
        FileKind::OpenCode(k) => {
            let a = opencode::analyze(k, text);
            FileAnalysis {
                parsed: a.parsed,
                diagnostics: a.diagnostics,
                facts: Facts::OpenCode(Box::new(a.facts)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Claude(k) => {
            let (diagnostics, agent, reading) = claude::analyze(k, text);
            FileAnalysis {
                parsed: reading.parsed.clone(),
                diagnostics,
                facts: Facts::Claude(Box::new(ClaudeFile { reading, agent })),
                ..FileAnalysis::default()
            }
        }
        FileKind::ProjectFile => {
            let (project, diagnostics) = project_file::parse(text);
            FileAnalysis {
                diagnostics,
                facts: Facts::Project(Box::new(project)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Command(k) => {
            let (diagnostics, parsed, decl) = command::analyze(k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                facts: Facts::Command(Box::new(decl)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Skill(k) => {
            let (diagnostics, parsed, decl) = skill::analyze(k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                facts: Facts::Skill(Box::new(decl)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Manifest(k) => {
            let (diagnostics, parsed, file) = claude::plugin::analyze(*k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                facts: Facts::Manifest(Box::new(file)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Zuno(k) => {
            let (diagnostics, parsed, file) = zuno::analyze(k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                facts: Facts::Zuno(Box::new(file)),
                ..FileAnalysis::default()
            }
        }
    }
}

/// Apply every safe fix of a file's own diagnostics, repeatedly (a fix can reveal another), and
/// return the new text with the titles of the fixes applied. Overlapping fixes wait for the
/// next round.
pub fn fix_all(kind: &FileKind, text: &str) -> (String, Vec<String>) {
    fix_all_with(text, &|t| {
        let a = analyze(kind, t);
        if a.diagnostics.iter().any(is_broken) {
            // Left as is: `fix_all_with` stops on it.
            return a.diagnostics;
        }
        // A suppressed diagnostic is not fixed either.
        suppress::apply(&a.suppressions, a.diagnostics, suppress::Report::Nothing)
    })
}

/// A diagnostic that leaves the tree partial: fixes wait until it is repaired.
pub fn is_broken(d: &Diagnostic) -> bool {
    d.code == Code::SyntaxError || (d.code == Code::DuplicateKey && d.severity == Severity::Error)
}

/// The safe fixes of `diagnostics` that can be applied together: each once, and none whose
/// edits overlap an earlier one's (the later waits for the next round).
pub fn safe_fixes<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<&'a Fix> {
    let mut taken: Vec<&Fix> = Vec::new();
    for d in diagnostics {
        let Some(f) = d.fix.as_deref().filter(|f| f.safe) else {
            continue;
        };
        if taken.contains(&f) {
            continue;
        }
        let overlaps = taken.iter().flat_map(|t| &t.edits).any(|a| {
            f.edits.iter().any(|b| {
                a.span.start < b.span.end.max(b.span.start + 1) && b.span.start < a.span.end.max(a.span.start + 1)
            })
        });
        if !overlaps {
            taken.push(f);
        }
    }
    taken
}

/// The most rounds of [`fix_all`]: a round stops as soon as nothing changes, so only a
/// pathological file comes near it. Eight rounds once fell short on a Claude Code agent whose
/// lines repeated keys over and over, each quoting fix of its lenient reading revealing more
/// duplicates (found by the `analyze` fuzz target: it needed nine, and a second `fix_all` then
/// still changed the file).
pub const FIX_ROUNDS: usize = 32;

/// [`fix_all`] on any analysis function.
pub fn fix_all_with(text: &str, diagnose: &dyn Fn(&str) -> Vec<Diagnostic>) -> (String, Vec<String>) {
    let mut text = text.to_string();
    let mut applied = Vec::new();
    for _ in 0..FIX_ROUNDS {
        let diagnostics = diagnose(&text);
        // Fixes are computed from the tree; on a file that does not parse, that tree is partial.
        let broken = diagnostics.iter().any(is_broken);
        if broken {
            break;
        }
        let taken = safe_fixes(&diagnostics);
        if taken.is_empty() {
            break;
        }
        let edits: Vec<Edit> = taken.iter().flat_map(|f| f.edits.iter().cloned()).collect();
        applied.extend(taken.iter().map(|f| f.title.clone()));
        let next = diagnostic::apply(&text, &edits);
        if next == text {
            break;
        }
        text = next;
    }
    (text, applied)
}
