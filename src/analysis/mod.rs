//! The pure analysis core: text in, spanned syntax and diagnostics out.
//!
//! Nothing in this module touches the file system, spawns work or knows about LSP; the caller
//! says what a file is ([`FileKind`]) and hands over its text. Three layers (see
//! `ARCHITECTURE.md`):
//!
//! - the shared layers, which know no dialect: [`text`], [`syntax`], [`rules`], [`diagnostic`],
//!   [`complete`](mod@complete), [`permission`], [`provenance`], [`command`], [`skill`] and the rest;
//! - the dialects side by side, each a folder of knowledge and rule functions that imports the
//!   shared layers and the interface ([`spec`]) only, registered by its `pub mod` line in the
//!   dialect block below (see [`registry`]);
//! - this file, with [`dialect`] and `kind.rs`, the list's expansion: the dialects' modules,
//!   [`Dialect`], [`FileKind`] (which dialect and role a file has), [`Facts`] and
//!   [`FileAnalysis`] (what one file yields), and the dispatch of each capability on the kind
//!   ([`analyze`], [`fix_all`], [`complete()`], [`ignore_edit`], commands and skills, built-in
//!   agents, the rules of a dialect). No file of the core but the list names a dialect.

// First: the registration list's macros, which `dialect.rs`, `kind.rs` and this file expand.
#[macro_use]
pub mod registry;

pub mod agents;
pub mod card;
pub mod color;
pub mod command;
pub mod complete;
pub mod diagnostic;
pub mod dialect;
pub mod discovery;
pub mod edit;
pub mod fix;
pub mod hash;
pub mod host;
pub mod instructions;
mod kind;
pub mod home;
pub mod launch;
pub mod naming;
pub mod permission;
pub mod policy;
pub mod project_file;
pub mod prompt;
pub mod provenance;
pub mod rules;
pub mod secret;
pub mod setup;
pub mod severity;
pub mod shape;
pub mod skill;
pub mod spec;
pub mod suggest;
pub mod suppress;
pub mod syntax;
pub mod text;

pub use card::mode_title;
pub use diagnostic::{Diagnostic, Edit, Effect, Fix, Location, Related, Severity, Tag};
pub use dialect::Dialect;
pub use fix::{FIX_ROUNDS, fix_all_rounds, fix_all_with, fixes_to_apply, is_broken, safe_fixes};
pub use kind::{Facts, FileAnalysis, FileKind};
pub use rules::{Code, Level, RULES, Rule};
pub use text::{Encoding, LineCol, LineIndex, Span};

use syntax::Parsed;

// The dialects, one line each: the registration. In `Dialect::ALL` order; the test dialect,
// compiled for tests only, first. `build.rs` reads this block into the registration list, which
// `dialect.rs`, `kind.rs` and the line after the block expand (see `registry.rs`).
#[cfg(test)]
pub mod example;
pub mod opencode;
pub mod claude;
pub mod zuno;
pub mod copilot;
pub mod codex;
pub mod gemini;
// End of the dialects.

for_each_dialect!(declare_dialect_specs);

impl Dialect {
    /// Whether an error that stops the runtime refuses the whole configuration (opencode, Zuno)
    /// rather than one file (Claude Code skips the file).
    pub fn refuses_configuration(self) -> bool {
        self.spec().refuses_configuration()
    }

    /// The places every registered runtime reads, for the path rules they share.
    pub fn places() -> &'static discovery::Places {
        static PLACES: std::sync::LazyLock<discovery::Places> = std::sync::LazyLock::new(|| {
            let mut p = discovery::Places::default();
            for &d in Dialect::REGISTERED {
                let spec = d.spec();
                p.folders.extend(spec.config_folders());
                p.skills.extend(spec.skill_homes().iter().map(|h| (d, *h)));
                p.commands.extend(spec.command_homes().iter().map(|h| (d, *h)));
            }
            p
        });
        &PLACES
    }

    /// The instruction files every registered runtime weighs, each once (see
    /// `DialectSpec::instruction_names`).
    pub fn instruction_names() -> &'static [&'static str] {
        static NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
            let mut out: Vec<&'static str> = Vec::new();
            for d in Dialect::REGISTERED {
                for n in d.spec().instruction_names() {
                    if !out.contains(n) {
                        out.push(n);
                    }
                }
            }
            out
        });
        &NAMES
    }

    /// The dialects in the order of `explain`'s sections for the terminal.
    pub fn list_order() -> Vec<Dialect> {
        let mut all = Dialect::ALL.to_vec();
        all.sort_by_key(|d| d.spec().list_rank());
        all
    }
}

impl Code {
    /// The dialects whose files this rule checks, in [`Dialect::ALL`] order: each dialect lists
    /// its own rules in its schema, beyond [`rules::EVERY_DIALECT`].
    pub fn dialects(self) -> &'static [Dialect] {
        static BY_CODE: std::sync::OnceLock<Vec<Vec<Dialect>>> = std::sync::OnceLock::new();
        let table = BY_CODE.get_or_init(|| {
            RULES
                .iter()
                .map(|r| {
                    Dialect::ALL
                        .into_iter()
                        .filter(|d| {
                            (shares_every_dialect_rules(*d) && rules::EVERY_DIALECT.contains(&r.code))
                                || rules_of(*d).contains(&r.code)
                        })
                        .collect()
                })
                .collect()
        });
        &table[self as usize]
    }
}

/// Whether a dialect's files are checked by the rules of [`rules::EVERY_DIALECT`] (Copilot lists
/// its whole set instead: it has no permissions, skills or commands of its own).
pub fn shares_every_dialect_rules(dialect: Dialect) -> bool {
    dialect.spec().shares_every_dialect_rules()
}

/// The rules a dialect's files are checked by beyond [`rules::EVERY_DIALECT`] (all of them for a
/// dialect that does not share those).
pub fn rules_of(dialect: Dialect) -> &'static [Code] {
    dialect.spec().rules()
}

#[cfg(test)]
mod rule_scope_tests {
    use super::*;

    #[test]
    fn every_rule_checks_some_dialect_and_each_dialect_lists_a_rule_once() {
        for r in RULES {
            assert!(!r.code.dialects().is_empty(), "{} is in no dialect's RULES", r.name);
        }
        for d in Dialect::ALL {
            let rules = rules_of(d);
            for (i, c) in rules.iter().enumerate() {
                assert!(!rules[..i].contains(c), "{} listed twice by {}", c.as_str(), d.as_str());
                assert!(
                    !shares_every_dialect_rules(d) || !rules::EVERY_DIALECT.contains(c),
                    "{} is every dialect's already",
                    c.as_str()
                );
            }
        }
        assert_eq!(Code::PlaceholderInCode.dialects(), [Dialect::Claude]);
        assert_eq!(Code::UnknownSkill.dialects(), [Dialect::Opencode, Dialect::Claude]);
        assert_eq!(Code::InvalidDefaultAgent.dialects(), [Dialect::Opencode, Dialect::Zuno]);
    }
}

/// Analyse one file on its own.
pub fn analyze(kind: &FileKind, text: &str) -> FileAnalysis {
    let mut analysis = analyze_dialect(kind, text);
    let mut secrets = analysis
        .parsed
        .root
        .as_ref()
        .map(|root| secret::find(root, text))
        .unwrap_or_default();
    if kind.is_markdown() {
        // The prose after the frontmatter: a prompt, a skill's steps, an instruction file.
        secret::add_prose(&mut secrets, text, syntax::frontmatter::split(text).body.start as usize);
    }
    let spec = kind.dialect().spec();
    if Code::HomePath.dialects().contains(&kind.dialect()) {
        let found = home::find(text);
        analysis
            .diagnostics
            .extend(found.iter().map(|h| home::diagnostic(h, text)));
    }
    if Code::UnpinnedPackage.dialects().contains(&kind.dialect())
        && let Some(root) = &analysis.parsed.root
    {
        let mut found = launch::find(root, text);
        // A command the runtime refuses (opencode's `command` written as one string) starts
        // nothing: that error is the finding.
        found.retain(|u| {
            !analysis
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.span.start <= u.span.start && u.span.end <= d.span.end)
        });
        analysis.diagnostics.extend(found.iter().map(launch::diagnostic));
        analysis.unpinned = found;
    }
    for s in &secrets {
        let fix = spec.secret_fix(kind, &s.path);
        analysis.diagnostics.push(secret::diagnostic(s, text, fix));
    }
    analysis.secrets = secrets.into_iter().map(|s| s.text).collect();
    for d in &mut analysis.diagnostics {
        edit::keep_quotes(text, d);
    }
    analysis.suppressions = suppress::directives(kind.comments(), text);
    analysis
}

fn analyze_dialect(kind: &FileKind, text: &str) -> FileAnalysis {
    match kind {
        FileKind::ProjectFile => {
            let (project, diagnostics) = project_file::parse(text, policy_vocabulary());
            FileAnalysis {
                diagnostics,
                facts: Facts::Project(Box::new(project)),
                ..FileAnalysis::default()
            }
        }
        FileKind::Command(k) => {
            let (diagnostics, parsed, decl) = analyze_command(k, text);
            FileAnalysis::of(parsed, diagnostics, Facts::Command(Box::new(decl)))
        }
        FileKind::Skill(k) => {
            let (diagnostics, parsed, decl) = analyze_skill(k, text);
            FileAnalysis::of(parsed, diagnostics, Facts::Skill(Box::new(decl)))
        }
        // A dialect's own kinds.
        k => k.dialect().spec().analyze(k, text).unwrap_or_default(),
    }
}

/// The runtime that reads a command file, and how: its own reading (Claude Code), or the
/// template reading opencode and Zuno share (with the hint on a key that a runtime reading
/// commands its own way reads and this one does not).
pub fn analyze_command(kind: &command::CommandKind, text: &str) -> (Vec<Diagnostic>, Parsed, command::CommandDecl) {
    let spec = kind.runtime.spec();
    if let Some(read) = spec.analyze_command(kind, text) {
        return read;
    }
    // Copilot's prompt files are its own kind, never a command.
    let Some(template) = spec.command_template() else {
        return Default::default();
    };
    let other = Dialect::ALL
        .iter()
        .find(|d| d.spec().reads_commands_itself())
        .map(|d| (d.product(), d.spec().command_keys()));
    let rules = command::Template {
        other_keys: other,
        ..template
    };
    command::analyze(kind, text, &rules)
}

/// The frontmatter keys a runtime reads in a command file, with their documentation.
pub fn command_keys(runtime: Dialect) -> &'static [(&'static str, &'static str)] {
    runtime.spec().command_keys()
}

/// The hover card of a command. `agent_mode`: the mode of its agent when known (for the
/// subtask rule); `text`: the file's text.
pub fn command_card(
    kind: &command::CommandKind,
    decl: &command::CommandDecl,
    agent_mode: Option<&str>,
    text: &str,
) -> String {
    let spec = kind.runtime.spec();
    match spec.command_card(kind, decl, text) {
        Some(card) => card,
        None if spec.command_template().is_some() => command::card(kind, decl, agent_mode),
        None => String::new(),
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
    let spec = runtime.spec();
    if let Some(items) = spec.complete_command(text, offset, agents, models) {
        return items;
    }
    if spec.command_template().is_none() {
        return Vec::new();
    }
    let values = |key: &str, _| match key {
        "model" => Some(command::Values::Items(command::model_items(models))),
        // A value another runtime takes (Claude Code's effort levels) is offered in every
        // command file.
        key => Dialect::ALL
            .iter()
            .find_map(|d| d.spec().command_values(key))
            .map(command::Values::Items),
    };
    command::complete(text, offset, command_keys(runtime), agents, &values)
}

/// Each runtime's skill rules, in [`Dialect::ALL`] order.
pub fn skill_loaders() -> &'static [skill::Loader] {
    static LOADERS: std::sync::OnceLock<Vec<skill::Loader>> = std::sync::OnceLock::new();
    LOADERS.get_or_init(|| Dialect::ALL.iter().filter_map(|d| d.spec().skill_loader()).collect())
}

/// Analyse one `SKILL.md`: the Agent Skills checks and the rules the runtimes share, then the
/// checks of each runtime that loads it and reads it its own way (Claude Code).
pub fn analyze_skill(kind: &skill::SkillKind, text: &str) -> (Vec<Diagnostic>, Parsed, skill::SkillDecl) {
    let (mut out, parsed, mut decl) = skill::analyze(kind, text, skill_loaders());
    for runtime in &kind.loaders {
        runtime.spec().check_skill(kind, text, &mut decl, &mut out);
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

/// Every key a `SKILL.md` may have (the format's, then the runtimes' own), with its documentation.
pub fn skill_keys() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    skill::keys(skill_loaders())
}

/// Completion in a skill's frontmatter: the keys not yet present, and the values of the
/// enumerated ones.
pub fn complete_skill(text: &str, offset: usize) -> Vec<complete::Item> {
    skill::complete(text, offset, skill_loaders())
}

/// The edit that makes a diagnostic of `code` starting at `at` ignored on its line (see
/// [`suppress::ignore_edit`]), for a file of this kind analysed as `analysis`.
pub fn ignore_edit(kind: &FileKind, text: &str, analysis: &FileAnalysis, at: usize, code: Code) -> Option<Edit> {
    suppress::ignore_edit(
        kind.comments(),
        text,
        &analysis.suppressions,
        analysis.parses_as_written(),
        at,
        code,
    )
}

/// Apply every safe fix of a file's own diagnostics, repeatedly (a fix can reveal another), and
/// return the new text with the titles of the fixes applied. Overlapping fixes wait for the
/// next round.
pub fn fix_all(kind: &FileKind, text: &str) -> (String, Vec<String>) {
    fix_all_including(kind, text, false)
}

/// [`fix_all`], with the unsafe fixes too when `unsafe_fixes` (the did-you-mean replacements:
/// `check --fix --unsafe-fixes`).
pub fn fix_all_including(kind: &FileKind, text: &str, unsafe_fixes: bool) -> (String, Vec<String>) {
    let diagnose = |t: &str| {
        let a = analyze(kind, t);
        if a.diagnostics.iter().any(is_broken) {
            // Left as is: `fix_all_rounds` stops on it.
            return a.diagnostics;
        }
        // A suppressed diagnostic is not fixed either.
        suppress::apply(&a.suppressions, a.diagnostics, suppress::Report::Nothing)
    };
    fix_all_rounds(text, &diagnose, unsafe_fixes)
}

// The server's questions to the registration (completion, built-in agents, navigation).

pub fn complete(
    kind: &FileKind,
    text: &str,
    offset: usize,
    host: &dyn host::Host,
    id: Option<usize>,
) -> Vec<complete::Item> {
    match kind {
        FileKind::Skill(_) => complete_skill(text, offset),
        FileKind::Command(k) => {
            // The agents a command of its runtime may name, from the folder it belongs to.
            let file = id.and_then(|id| host.file(id));
            let agents = match file.map(|f| f.role) {
                Some(host::Role::Command { dir }) => k.runtime.spec().command_agents(host, dir),
                _ => Vec::new(),
            };
            let models = k.runtime.spec().models(host);
            complete_command(k.runtime, text, offset, &agents, &models)
        }
        FileKind::ProjectFile => project_file::complete(text, offset, policy_vocabulary()),
        k => k
            .dialect()
            .spec()
            .complete(k, text, offset, host, id)
            .unwrap_or_default(),
    }
}

/// Which runtimes read an instruction file of folder `dir` where it is (see [`instructions`]):
/// each runtime's own rule, in [`Dialect::ALL`] order.
pub fn instruction_readers(
    host: &dyn host::Host,
    dir: &std::path::Path,
    which: instructions::Which,
    chain: &[instructions::Level],
    imported_by: Option<&str>,
) -> Vec<instructions::Verdict> {
    Dialect::ALL
        .iter()
        .filter_map(|d| d.spec().instruction_reader(host, dir, which, chain, imported_by))
        .collect()
}

/// The names of a dialect's built-in agents, in its catalog's order.
pub fn builtin_agents(dialect: Dialect) -> Vec<&'static str> {
    dialect.spec().builtin_agents()
}

/// `name` is a built-in agent of the dialect.
pub fn is_builtin_agent(dialect: Dialect, name: &str) -> bool {
    dialect.spec().is_builtin_agent(name)
}

/// `name` is how the dialect calls a plugin's agent (Claude Code's `plugin:name`), which the
/// agent's own file does not spell.
pub fn is_plugin_agent_name(dialect: Dialect, name: &str) -> bool {
    dialect.spec().is_plugin_agent_name(name)
}

/// The permission keys and tool names of every runtime, for the policies of `agent-lsp.toml`
/// (checking `permission`, completing it).
pub fn policy_vocabulary() -> &'static policy::spec::Vocabulary {
    static VOCAB: std::sync::OnceLock<policy::spec::Vocabulary> = std::sync::OnceLock::new();
    VOCAB.get_or_init(|| {
        // Each runtime's names, in registry order; a name an earlier runtime gave keeps its
        // description (`knows` and `closest` take any).
        let mut names: Vec<(&'static str, &'static str)> = Vec::new();
        for d in Dialect::ALL {
            for (name, what) in d.spec().policy_names() {
                if !names.iter().any(|(n, _)| *n == name) {
                    names.push((name, what));
                }
            }
        }
        policy::spec::Vocabulary {
            names,
            dialects: Dialect::ALL.iter().map(|d| d.as_str()).collect(),
        }
    })
}

#[cfg(test)]
mod instruction_tests {
    use super::Dialect;
    use super::instruction_readers as readers;
    use super::instructions::*;

    fn level(label: &str, names: &[&'static str]) -> Level {
        Level {
            label: label.into(),
            present: Present::of(|n| names.contains(&n)),
            in_worktree: true,
        }
    }

    /// The verdicts where no file of the workspace chooses the names (no settings at hand).
    fn no_settings_readers(
        which: Which,
        chain: &[Level],
        imported_by: Option<&str>,
    ) -> Vec<crate::analysis::instructions::Verdict> {
        let ws = crate::workspace::Workspace::load(&[], &crate::workspace::Options::isolated()).unwrap();
        readers(&ws, std::path::Path::new("/p"), which, chain, imported_by)
    }

    const AGENTS: Which = Which("AGENTS.md");
    const CLAUDE: Which = Which("CLAUDE.md");
    const CONTEXT: Which = Which("CONTEXT.md");
    const DOT_CLAUDE_AGENTS: Which = Which(".claude/AGENTS.md");
    const DOT_CLAUDE_CLAUDE: Which = Which(".claude/CLAUDE.md");
    const CLAUDE_LOCAL: Which = Which("CLAUDE.local.md");

    fn reads(which: Which, chain: &[Level]) -> (bool, bool) {
        let v = no_settings_readers(which, chain, None);
        (v[0].reads, v[1].reads)
    }

    #[test]
    fn a_level_holds_the_names_the_dialects_weigh() {
        // One bit per name: the registered dialects' names fit.
        assert!(
            Dialect::instruction_names().len() <= 64,
            "{:?}",
            Dialect::instruction_names()
        );
        let l = level("this folder", &["CLAUDE.md", "CLAUDE.local.md"]);
        assert!(l.has("CLAUDE.md") && l.has("CLAUDE.local.md"));
        assert!(!l.has("AGENTS.md") && !l.has(".claude/CLAUDE.md"));
        // A name no dialect weighs is never held.
        assert!(!level("x", &["NOTES.md"]).has("NOTES.md"));
        assert_eq!(
            level("x", &[]),
            Level {
                label: "x".into(),
                present: Present::default(),
                in_worktree: true
            }
        );
    }

    #[test]
    fn who_reads_what() {
        let all = [level("this folder", &["AGENTS.md", "CLAUDE.md", "CONTEXT.md"])];
        // (opencode, Claude Code)
        assert_eq!(reads(AGENTS, &all), (true, false));
        assert_eq!(reads(CLAUDE, &all), (false, true));
        assert_eq!(reads(CONTEXT, &all), (false, false));
        let alone = [level("this folder", &["AGENTS.md"])];
        assert_eq!(reads(AGENTS, &alone), (true, true));
        let alone = [level("this folder", &["CONTEXT.md"])];
        assert_eq!(reads(CONTEXT, &alone), (true, false));
        // A parent's file counts: a `CLAUDE.md` above stops Claude Code's AGENTS.md; an
        // `AGENTS.md` above stops opencode's CLAUDE.md (inside the work tree only).
        let chain = [
            level("this folder", &["AGENTS.md", "CONTEXT.md"]),
            level("..", &["CLAUDE.md"]),
        ];
        assert_eq!(reads(AGENTS, &chain), (true, false));
        assert_eq!(reads(CONTEXT, &chain), (false, false));
        let mut above = level("..", &["AGENTS.md"]);
        above.in_worktree = false;
        let chain = [level("this folder", &["CLAUDE.md"]), above.clone()];
        assert_eq!(reads(CLAUDE, &chain), (true, true));
        above.in_worktree = true;
        let chain = [level("this folder", &["CLAUDE.md"]), above];
        let v = no_settings_readers(CLAUDE, &chain, None);
        assert!(!v[0].reads && v[0].why.contains("`AGENTS.md` (..)"), "{}", v[0].why);
        // `.claude/` files: Claude Code's only.
        let chain = [level("this folder", &[".claude/CLAUDE.md"])];
        assert_eq!(reads(DOT_CLAUDE_AGENTS, &chain), (false, false));
        assert_eq!(reads(DOT_CLAUDE_CLAUDE, &chain), (false, true));
        assert_eq!(reads(CLAUDE_LOCAL, &chain), (false, true));
        let chain = [level("this folder", &[])];
        assert_eq!(reads(DOT_CLAUDE_AGENTS, &chain), (false, true));
        // `CLAUDE.local.md` takes the place of `AGENTS.md` for Claude Code too.
        let chain = [level("this folder", &["AGENTS.md", "CLAUDE.local.md"])];
        let v = no_settings_readers(AGENTS, &chain, None);
        assert!(v[0].reads && !v[1].reads);
        assert!(
            v[1].why
                .starts_with("Claude Code reads `CLAUDE.local.md` (this folder) instead"),
            "{}",
            v[1].why
        );
        let chain = [level("this folder", &["AGENTS.md", ".claude/CLAUDE.md"])];
        assert!(
            no_settings_readers(AGENTS, &chain, None)[1]
                .why
                .starts_with("Claude Code reads `.claude/CLAUDE.md`")
        );
    }

    #[test]
    fn an_import_makes_claude_code_read_it() {
        let all = [level("this folder", &["AGENTS.md", "CLAUDE.md", "CONTEXT.md"])];
        for which in [AGENTS, DOT_CLAUDE_AGENTS, CONTEXT] {
            let v = no_settings_readers(which, &all, Some("CLAUDE.md"));
            assert!(v[1].reads, "{which:?}");
            assert_eq!(v[1].why, "Claude Code reads it through the import in `CLAUDE.md`");
        }
        // opencode does not follow imports.
        assert!(!no_settings_readers(CONTEXT, &all, Some("CLAUDE.md"))[0].reads);
    }

    #[test]
    fn the_description_names_each_runtime() {
        let all = [level("this folder", &["AGENTS.md", "CLAUDE.md"])];
        let md = describe(AGENTS, &no_settings_readers(AGENTS, &all, None));
        assert!(md.contains("**opencode** reads it"), "{md}");
        assert!(
            md.contains("**Claude Code** ignores it here: Claude Code reads `CLAUDE.md` (this folder)"),
            "{md}"
        );
    }
}
