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
pub mod prompt;
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

/// Everything known about one file after analysing it alone. `parsed` and `diagnostics` are
/// filled for every dialect; the rest by the dialect it belongs to.
#[derive(Clone, Debug, Default)]
pub struct FileAnalysis {
    pub parsed: Parsed,
    /// opencode Markdown files: where the frontmatter and body are.
    pub split: Option<Split>,
    /// opencode Markdown files: how opencode reads it (settings read, rescued, lost, skipped).
    pub reading: Option<opencode::markdown::Reading>,
    pub diagnostics: Vec<Diagnostic>,
    /// opencode agents this file declares, in file order.
    pub agents: Vec<opencode::AgentDecl>,
    /// opencode agent names this file refers to (`default_agent`, command `agent`).
    pub refs: Vec<opencode::AgentRef>,
    /// The config lists plugins, which may define agents this analysis cannot see.
    pub has_plugins: bool,
    /// Claude Code agent files: the reading and the agent.
    pub claude: Option<Box<ClaudeFile>>,
    /// Zuno files: the agents declared and the names referred to.
    pub zuno: Option<Box<zuno::ZunoFile>>,
    /// `SKILL.md` files: the skill declared.
    pub skill: Option<Box<skill::SkillDecl>>,
    /// Command files: the command declared.
    pub command: Option<Box<command::CommandDecl>>,
    /// `agent-lsp.toml`: what it sets.
    pub project: Option<Box<project_file::ProjectFile>>,
    /// Plugin manifests: what they declare.
    pub manifest: Option<Box<claude::plugin::ManifestFile>>,
    /// The `agent-lsp: ignore[...]` comments of the file (applied where the file's full
    /// diagnostics are assembled, see [`suppress::apply`]).
    pub suppressions: suppress::Suppressions,
}

/// Analyse one file on its own.
pub fn analyze(kind: &FileKind, text: &str) -> FileAnalysis {
    let mut analysis = analyze_dialect(kind, text);
    analysis.suppressions = suppress::directives(kind, text, analysis.split.as_ref());
    analysis
}

fn analyze_dialect(kind: &FileKind, text: &str) -> FileAnalysis {
    match kind {
        FileKind::OpenCode(k) => opencode::analyze(k, text),
        FileKind::Claude(k) => {
            let (diagnostics, agent, reading) = claude::analyze(k, text);
            FileAnalysis {
                parsed: reading.parsed.clone(),
                diagnostics,
                claude: Some(Box::new(ClaudeFile { reading, agent })),
                ..FileAnalysis::default()
            }
        }
        FileKind::ProjectFile => {
            let (project, diagnostics) = project_file::parse(text);
            FileAnalysis {
                diagnostics,
                project: Some(Box::new(project)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Command(k) => {
            let (diagnostics, parsed, decl) = analyze_command(k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                command: Some(Box::new(decl)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Skill(k) => {
            let (diagnostics, parsed, decl) = analyze_skill(k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                skill: Some(Box::new(decl)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Manifest(k) => {
            let (diagnostics, parsed, file) = claude::plugin::analyze(*k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                manifest: Some(Box::new(file)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Zuno(k) => {
            let (diagnostics, parsed, file) = zuno::analyze(k, text);
            FileAnalysis {
                parsed,
                diagnostics,
                zuno: Some(Box::new(file)),
                ..FileAnalysis::default()
            }
        }
    }
}

/// The runtime that reads a command file, and how: Claude Code's own reading, or the template
/// reading opencode and Zuno share (with the hint on a Claude Code key either does not read).
pub fn analyze_command(kind: &command::CommandKind, text: &str) -> (Vec<Diagnostic>, Parsed, command::CommandDecl) {
    let template = match kind.runtime {
        Dialect::Claude => return claude::command::analyze(kind, text),
        Dialect::OpenCode => opencode::command::TEMPLATE,
        Dialect::Zuno => zuno::command::TEMPLATE,
    };
    let rules = command::Template {
        other_keys: Some((Dialect::Claude.product(), claude::command::KEYS)),
        ..template
    };
    command::analyze(kind, text, &rules)
}

/// The frontmatter keys a runtime reads in a command file, with their documentation.
pub fn command_keys(runtime: Dialect) -> &'static [(&'static str, &'static str)] {
    match runtime {
        Dialect::Claude => claude::command::KEYS,
        Dialect::OpenCode => opencode::command::KEYS,
        Dialect::Zuno => zuno::command::KEYS,
    }
}

/// The hover card of a command. `agent_mode`: the mode of its agent when known (for the
/// subtask rule); `text`: the file's text.
pub fn command_card(
    kind: &command::CommandKind,
    decl: &command::CommandDecl,
    agent_mode: Option<&str>,
    text: &str,
) -> String {
    match kind.runtime {
        Dialect::Claude => claude::command::card(kind, decl, text),
        Dialect::OpenCode | Dialect::Zuno => command::card(kind, decl, agent_mode),
    }
}

/// Completion in a command file's frontmatter: its runtime's keys; values for `agent` (the
/// project's agents, with their modes), `model` (Claude Code's aliases, then the `models` the
/// workspace knows), booleans and enums; tool names in Claude Code's `allowed-tools` and
/// `disallowed-tools` lists (the entry under the cursor).
pub fn complete_command(
    runtime: Dialect,
    text: &str,
    offset: usize,
    agents: &[(String, String)],
    models: &[String],
) -> Vec<complete::Item> {
    match runtime {
        Dialect::Claude => claude::command::complete(text, offset, agents, models),
        Dialect::OpenCode | Dialect::Zuno => {
            let values = |key: &str, _| match key {
                "model" => Some(command::Values::Items(command::model_items(models))),
                // Claude Code's effort levels are offered in every command file.
                "effort" => Some(command::Values::Items(claude::command::effort_items())),
                _ => None,
            };
            command::complete(text, offset, command_keys(runtime), agents, &values)
        }
    }
}

/// What each runtime that loads skills does with one, in the order of [`Dialect::ALL`].
const SKILL_LOADERS: [skill::Loader; 3] = [opencode::skill::LOADER, claude::skill::LOADER, zuno::skill::LOADER];

/// Analyse one `SKILL.md`: the Agent Skills checks and the rules the runtimes share, then the
/// checks of each runtime that loads it and reads it its own way (Claude Code).
pub fn analyze_skill(kind: &skill::SkillKind, text: &str) -> (Vec<Diagnostic>, Parsed, skill::SkillDecl) {
    let (mut out, parsed, mut decl) = skill::analyze(kind, text, &SKILL_LOADERS);
    for runtime in &kind.loaders {
        match runtime {
            Dialect::Claude => claude::skill::check(kind, text, &mut decl, &mut out),
            Dialect::OpenCode | Dialect::Zuno => {}
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

/// Every key a `SKILL.md` may have (the format's, then the runtimes' own), with its documentation.
pub fn skill_keys() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    skill::keys(&SKILL_LOADERS)
}

/// Completion in a skill's frontmatter: the keys not yet present, and the values of the
/// enumerated ones.
pub fn complete_skill(text: &str, offset: usize) -> Vec<complete::Item> {
    skill::complete(text, offset, &SKILL_LOADERS)
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
