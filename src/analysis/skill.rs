//! Skills (`SKILL.md`), one format (Agent Skills) read by several runtimes, each with its own
//! rules. Shared below the dialects: what a skill is ([`SkillKind`], [`SkillDecl`]), the checks
//! of the format (a lowercase-hyphen name of 1-64 characters equal to its folder, a description of
//! 1-1024 characters, the known keys; reported as warnings, since no runtime enforces them), and
//! what the runtimes' rules have in common, parameterised by each runtime's [`Loader`] (its
//! `skill.rs`: `opencode/skill.rs`, `claude/skill.rs`, `zuno/skill.rs`):
//!
//! - opencode 1.18 (spec `opencode.md` §12) and Zuno (`zuno.md` §4.1) skip a skill without a
//!   string `name`, or whose `description` is not a string.
//! - Claude Code (`claude-code.md` §5): every field optional; the name falls back to the folder;
//!   its own reading of the body is `claude/skill.rs`.
//!
//! Each runtime reads the frontmatter with its own reader ([`Loader::read`]): opencode's retries
//! after its sanitizer, Claude Code's after quoting values, and either may not read a file the
//! other reads. A skill every runtime at its place reads, some only through their retry, gets a
//! `lenient-parse` warning on each value to quote; one a runtime that needs a name cannot read is
//! an error naming that runtime; the other checks run on what the runtimes read.
//!
//! The composition (the format's checks, then each loader's) is `analyze_skill` in
//! `analysis/mod.rs`.

use super::complete::{Item, ItemKind, item, yaml_context_in};
use super::diagnostic::{Diagnostic, Edit, Effect, Severity};
use super::dialect::Dialect;
use super::prompt::{Link, Placeholder};
use super::rules::Code;
use super::suggest;
use super::syntax::frontmatter;
use super::syntax::{Node, Parsed, SyntaxError, Value, yaml};
use super::text::Span;

/// Where a `SKILL.md` is, decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillKind {
    /// The folder that holds it (the skill's directory name).
    pub folder: String,
    /// The runtimes that load a skill at this place (empty: none does).
    pub loaders: Vec<Dialect>,
    /// For a `SKILL.md` no runtime loads: where it should go instead.
    pub misplaced: Option<String>,
    /// The runtime whose folder it sits in (`.claude/` is Claude Code's, `.zuno/` Zuno's, the
    /// rest opencode's), for grouping by dialect.
    pub family: Dialect,
    /// A Claude Code plugin's skill: the namespace of its command (`plugin`, or `plugin:sub` in
    /// a sub-folder of a commands folder), so that it runs as `/plugin:name`.
    pub namespace: Option<String>,
}

/// What a skill file declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkillDecl {
    /// The name the runtimes register (`name`, or the folder where a runtime falls back to it).
    pub name: Option<String>,
    /// The `name` value, or the file's first line.
    pub span: Span,
    pub description: Option<String>,
    /// Where the body starts (after the frontmatter).
    pub body: Span,
    /// The relative links of the body to files (checked for existence by the workspace).
    pub links: Vec<Link>,
    /// For a skill Claude Code loads: the description it shows (`description`, else the body's
    /// first line, else `Skill`; cleaned to one line, `<` `>` escaped, as its listing has it).
    pub shown_description: Option<String>,
    /// For a skill Claude Code loads: the argument hint it shows.
    pub argument_hint: Option<String>,
    /// For a skill Claude Code loads: the names of `arguments`.
    pub arguments: Vec<String>,
    /// For a skill Claude Code loads: the placeholders of the body it fills in.
    pub placeholders: Vec<Placeholder>,
    /// What each runtime that loads skills at this place makes of it, in the order of
    /// [`SkillKind::loaders`].
    pub runtimes: Vec<RuntimeSkill>,
}

impl SkillDecl {
    /// The name `runtime` registers the skill under, if it loads it.
    pub fn name_for(&self, runtime: Dialect) -> Option<&str> {
        self.runtimes
            .iter()
            .find(|r| r.runtime == runtime && r.loads == Some(true))
            .and_then(|r| r.name.as_deref())
    }
}

/// What one runtime makes of a skill, read as it reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeSkill {
    pub runtime: Dialect,
    /// Whether it loads the skill; `None` when that is not known (Zuno and a frontmatter that is
    /// not valid YAML).
    pub loads: Option<bool>,
    /// The name it registers (its `name`, or the folder's where it falls back to it).
    pub name: Option<String>,
    /// The `description` it reads (the frontmatter's string).
    pub description: Option<String>,
}

/// How a runtime's reader reads the frontmatter of a `SKILL.md` (each runtime's `skill::read`,
/// its [`Loader::read`]): what its skill loader then finds in it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    pub outcome: Outcome,
    /// The opening `---`, when there is a frontmatter.
    pub open: Option<Span>,
    /// For [`Outcome::Parsed`] and [`Outcome::Retry`]: what the loader gets, spans in the file (a
    /// value a retry rewrote spans the value as written). An empty frontmatter has no root or a
    /// null one.
    pub parsed: Parsed,
    /// For [`Outcome::Retry`]: the values the retry rewrote (quoted, or made a block of text),
    /// as written.
    pub retried: Vec<Span>,
    /// When strict YAML does not read it: the first thing it rejects.
    pub error: Option<SyntaxError>,
    /// For [`Outcome::Failed`]: why the retry does not rescue it, when the reason is particular
    /// (a clause for the message).
    pub note: Option<String>,
}

impl Reading {
    /// The loader gets a tree (the frontmatter read, as written or through the retry).
    pub fn has_tree(&self) -> bool {
        matches!(self.outcome, Outcome::Parsed | Outcome::Retry)
    }
}

/// What a runtime's reader makes of a `SKILL.md`'s frontmatter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// No frontmatter that the reader finds: no fields.
    #[default]
    NoFrontmatter,
    /// Read as written.
    Parsed,
    /// Strict YAML rejects it; the runtime's lenient retry reads it.
    Retry,
    /// Neither its first reading nor its retry reads it: the loader finds no fields.
    Failed,
    /// Strict YAML rejects it, and what the runtime does then is not known.
    Unknown,
}

/// The keys of the Agent Skills format (a runtime's own keys are its [`Loader::keys`]).
pub const KEYS: &[(&str, &str)] = &[
    (
        "name",
        "The skill's name: lowercase letters, digits and single hyphens, 1-64 characters, equal to its folder (Agent Skills format). opencode and Zuno require it; for Claude Code 2.1.332 it names the command (the folder's name stays an alias).",
    ),
    (
        "description",
        "What the skill does and when to use it, 1-1024 characters. Without it opencode leaves the skill out of the listing and Zuno hides it.",
    ),
    ("license", "The skill's license (accepted, not acted on)."),
    (
        "compatibility",
        "Environment requirements, at most 500 characters (accepted, not acted on).",
    ),
    ("metadata", "A free-form map of strings."),
    (
        "allowed-tools",
        "Claude Code: tools pre-approved while the skill is active (space- or comma-separated, or a list).",
    ),
];

/// What a runtime that loads skills does with one, as the shared checks need to know it: each
/// runtime's `skill::LOADER`.
#[derive(Clone, Copy, Debug)]
pub struct Loader {
    pub runtime: Dialect,
    /// It skips a skill without a string `name`, or whose `description` is not a string.
    pub needs_name: bool,
    /// Without `name`, it names the skill after its folder; one named otherwise it lists as
    /// `/name`, the folder's name an alias.
    pub folder_alias: bool,
    /// It skips a skill that has no frontmatter or no `description` (and, one that does not need
    /// a `name`, Codex, one whose `name` is longer than 64 characters).
    pub needs_description: bool,
    /// What it does with a skill without `description`, for the message (the runtimes that need
    /// a name first, joined with "and", then the others).
    pub without_description: &'static str,
    /// The frontmatter keys it reads beyond the format's [`KEYS`], with their documentation.
    pub keys: &'static [(&'static str, &'static str)],
    /// Its values of a key of its own, for completion.
    pub values: fn(&str) -> Vec<Item>,
    /// What it does with two skills of one project sharing a name, for the `duplicate-skill`
    /// message.
    pub duplicate: &'static str,
    /// How its reader reads a `SKILL.md`'s frontmatter.
    pub read: fn(&str) -> Reading,
}

impl Loader {
    /// Whether it names a skill without `name` after its folder (a runtime that needs a name
    /// never does).
    fn names_by_folder(&self) -> bool {
        self.folder_alias || (self.needs_description && !self.needs_name)
    }

    /// Whether it skips a skill whose `name` is longer than 64 characters (a runtime that needs
    /// a description and not a name: Codex).
    fn drops_long_names(&self) -> bool {
        self.needs_description && !self.needs_name
    }
}

/// Every key a skill may have: the format's, then each runtime's own (`runtimes`: every
/// runtime's [`Loader`]).
pub fn keys<'a>(runtimes: &'a [Loader]) -> impl Iterator<Item = &'static (&'static str, &'static str)> + 'a {
    KEYS.iter().chain(runtimes.iter().flat_map(|r| r.keys.iter()))
}

/// The loaders of `kind` among `runtimes`, in the order of `kind.loaders`.
fn loaders_of<'a>(kind: &SkillKind, runtimes: &'a [Loader]) -> Vec<&'a Loader> {
    kind.loaders
        .iter()
        .filter_map(|d| runtimes.iter().find(|r| r.runtime == *d))
        .collect()
}

fn list(loaders: &[Dialect]) -> String {
    let names: Vec<&str> = loaders.iter().map(|d| d.product()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// What the runtimes do with a skill without description: those that need a name, joined with
/// "and", then the others, each after a `;`.
fn without_description(runtimes: &[&Loader]) -> String {
    let strict: Vec<&str> = runtimes
        .iter()
        .filter(|r| r.needs_name)
        .map(|r| r.without_description)
        .collect();
    let mut out = strict.join(" and ");
    for r in runtimes.iter().filter(|r| !r.needs_name) {
        if !out.is_empty() {
            out.push_str("; ");
        }
        out.push_str(r.without_description);
    }
    out
}

/// Analyse one `SKILL.md`.
/// A reference to a skill (an opencode `skill` permission pattern, a Claude Code agent's
/// `skills` entry) that matches none of `skills`, the skills a runtime finds for the project:
/// whether to report it and how. `None`: do not report. `Some(Some(near))`: a near miss of an
/// existing skill (a typo), a warning with a fix. `Some(None)`: no near miss, an info.
///
/// Skills also come from places no project file shows (a user's own skill folders, a CI machine
/// without them): so nothing is reported without a near miss when `project_has_skills` is false.
pub fn unknown_skill<'a>(reference: &str, skills: &[&'a str], project_has_skills: bool) -> Option<Option<&'a str>> {
    let near = if reference.contains(['*', '?']) {
        None
    } else {
        suggest::closest(reference, skills.iter().copied())
    };
    (near.is_some() || project_has_skills).then_some(near)
}

/// The skills of a message: up to eight names, sorted, then how many more.
pub fn skill_list(skills: &[&str]) -> String {
    let mut list: Vec<&str> = skills.to_vec();
    list.sort_unstable();
    list.dedup();
    if list.is_empty() {
        return "none".into();
    }
    let shown: Vec<String> = list.iter().take(8).map(|s| format!("`{s}`")).collect();
    let more = list.len().saturating_sub(8);
    format!(
        "{}{}",
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// The checks of one `SKILL.md` that the format and the runtimes' shared rules make, against the
/// runtimes that load it (`runtimes`: every runtime's [`Loader`]); the body as it follows the
/// frontmatter, with its links. A runtime that reads the body its own way (Claude Code) then
/// runs its checks (see `analyze_skill` in `analysis/mod.rs`).
pub fn analyze(kind: &SkillKind, text: &str, runtimes: &[Loader]) -> (Vec<Diagnostic>, Parsed, SkillDecl) {
    let (mut out, parsed, mut decl) = analyze_frontmatter(kind, text, runtimes);
    decl.body = Span::new(frontmatter::split(text).body.start as usize, text.len());
    decl.links = super::prompt::links(text, decl.body);
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

/// The frontmatter of a `SKILL.md` against the runtimes that load it, each reading it with its
/// own reader ([`Loader::read`]): what each one cannot read, skips or reads only through a retry
/// (per runtime), then the format's checks on the reading a YAML reader shares with a runtime
/// (the first runtime's that reads it as written, else the first's that reads it through its
/// retry; [`strict`] for a skill no runtime loads).
fn analyze_frontmatter(kind: &SkillKind, text: &str, runtimes: &[Loader]) -> (Vec<Diagnostic>, Parsed, SkillDecl) {
    let mut out = Vec::new();
    let first = crate::analysis::text::first_line(text);
    let mut decl = SkillDecl {
        span: first,
        ..SkillDecl::default()
    };
    if let Some(where_to) = &kind.misplaced {
        out.push(
            Diagnostic::new(
                Code::MisplacedSkill,
                first,
                format!("no runtime loads a `SKILL.md` here; move this folder to {where_to}"),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::FileIgnored),
        );
    }
    let loaders = loaders_of(kind, runtimes);
    let seen: Vec<(&Loader, Reading)> = loaders.iter().map(|l| (*l, (l.read)(text))).collect();
    // Every runtime that would skip a skill without a string `name` (for the skills no such
    // runtime loads).
    let all_strict: Vec<Dialect> = runtimes.iter().filter(|l| l.needs_name).map(|l| l.runtime).collect();
    // The format's own reading of a skill no runtime loads.
    let format_reading = if seen.is_empty() {
        strict_without_loader(text, first, &mut out)
    } else {
        syntax(text, first, &seen, &mut out);
        None
    };
    let reference = match &format_reading {
        Some(r) => Some(r),
        None => seen
            .iter()
            .map(|(_, r)| r)
            .find(|r| r.outcome == Outcome::Parsed)
            .or_else(|| seen.iter().map(|(_, r)| r).find(|r| r.outcome == Outcome::Retry)),
    };
    // What each runtime that needs a name finds missing or of the wrong type, on its own reading.
    let mut skips: Vec<(Span, String, Vec<Dialect>)> = Vec::new();
    for (l, r) in seen.iter().filter(|(l, r)| l.needs_name && r.has_tree()) {
        if let Some((span, why)) = skip_reason(r, first) {
            match skips.iter_mut().find(|(s, w, _)| *s == span && *w == why) {
                Some((_, _, who)) => who.push(l.runtime),
                None => skips.push((span, why, vec![l.runtime])),
            }
        }
    }
    for (span, why, who) in skips {
        out.push(
            Diagnostic::new(
                Code::MissingField,
                span,
                format!(
                    "{why}: {} skip{} this skill",
                    list(&who),
                    if who.len() == 1 { "s" } else { "" }
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
    }
    // No runtime here needs a name: what the others would skip (a warning).
    if !loaders.iter().any(|l| l.needs_name)
        && let Some(r) = reference
        && let Some((span, why)) = skip_reason(r, first)
        && why != NO_NAME
    {
        out.push(
            Diagnostic::new(
                Code::MissingField,
                span,
                format!("{why}: {} would skip this skill", list(&all_strict)),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::FileIgnored),
        );
    }
    decl.runtimes = seen.iter().map(|(l, r)| runtime_skill(kind, l, r)).collect();
    let alias = loaders.iter().copied().find(|l| l.folder_alias);
    // A runtime that names a skill without `name` after its folder.
    let by_folder = loaders.iter().any(|l| l.names_by_folder());
    let parsed = match reference {
        Some(r) => r.parsed.clone(),
        None => seen.iter().map(|(_, r)| r.parsed.clone()).next().unwrap_or_default(),
    };
    let map = match reference.map(|r| r.parsed.root.as_ref()) {
        None => {
            // Nothing a YAML reader shares: a runtime that names the skill after its folder
            // still loads it so.
            if by_folder {
                decl.name = Some(kind.folder.clone());
            }
            return (out, parsed, decl);
        }
        Some(None) => None,
        Some(Some(root)) => match &root.value {
            Value::Map(m) => Some(m),
            Value::Null => None,
            _ => return (out, parsed, decl),
        },
    };
    // name
    match map.and_then(|m| m.get("name")).map(|e| &e.value) {
        None => {
            if by_folder {
                decl.name = Some(kind.folder.clone());
            }
        }
        Some(v) => {
            if let Value::Str(s) = &v.value {
                decl.name = Some(s.clone());
                decl.span = v.span;
                let drops = loaders
                    .iter()
                    .copied()
                    .filter(|l| l.drops_long_names())
                    .map(|l| l.runtime)
                    .collect::<Vec<_>>();
                format_name(kind, s, v, alias, &drops, &mut out);
            }
        }
    }
    // description: a runtime here that skips a skill without one makes it an error.
    let dropped = loaders.iter().any(|l| l.needs_description);
    // What the runtimes that load it here do without one (every runtime's, where none does).
    let said: Vec<&Loader> = if loaders.is_empty() {
        runtimes.iter().collect()
    } else {
        loaders.clone()
    };
    match map.and_then(|m| m.get("description")).map(|e| &e.value) {
        None => out.push(
            Diagnostic::new(
                Code::MissingField,
                decl.span,
                format!(
                    "there is no `description`: {}. Say what the skill does and when to use it",
                    without_description(&said)
                ),
            )
            .with_severity(if dropped { Severity::Error } else { Severity::Warning })
            .with_effect(if dropped {
                Effect::FileIgnored
            } else {
                Effect::ValueIgnored
            }),
        ),
        Some(v) => {
            if let Value::Str(s) = &v.value {
                decl.description = Some(s.clone());
                let n = s.chars().count();
                if n == 0 || n > 1024 {
                    out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            v.span,
                            format!(
                                "the Agent Skills format wants a description of 1 to 1024 characters; this one has {n}"
                            ),
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::Works),
                    );
                }
            }
        }
    }
    // Keys no runtime reads.
    for e in map.iter().flat_map(|m| m.entries.iter()) {
        if keys(runtimes).any(|(k, _)| *k == e.key.name) {
            continue;
        }
        let near = suggest::closest(&e.key.name, keys(runtimes).map(|(k, _)| *k));
        let mut d = Diagnostic::new(
            Code::UnknownKey,
            e.key.span,
            format!(
                "no runtime reads `{}` in a skill (the Agent Skills format allows name, description, license, compatibility, metadata, allowed-tools; uploading it to Claude rejects other keys).{}",
                e.key.name,
                suggest::did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near
            && e.key.span.text(text) == e.key.name
        {
            d = d.with_suggestion(e.key.span, n);
        }
        out.push(d);
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

const NO_NAME: &str = "there is no `name`";

/// Why a runtime that needs a string `name` (and a `description` that is absent or a string)
/// skips a skill, on its reading (one with a tree): the span to point at and the reason.
fn skip_reason(r: &Reading, first: Span) -> Option<(Span, String)> {
    let open = r.open.unwrap_or(first);
    let map = match r.parsed.root.as_ref() {
        None => None,
        Some(root) => match &root.value {
            Value::Map(m) => Some(m),
            Value::Null => None,
            Value::Unknown => return None,
            _ => {
                return Some((open, "the frontmatter is not a mapping of `key: value` pairs".into()));
            }
        },
    };
    match map.and_then(|m| m.get("name")).map(|e| &e.value) {
        None => return Some((open, NO_NAME.into())),
        Some(v) if !matches!(v.value, Value::Str(_) | Value::Unknown) => {
            return Some((v.span, format!("`name` must be a string, not {}", v.type_name())));
        }
        Some(_) => {}
    }
    match map.and_then(|m| m.get("description")).map(|e| &e.value) {
        Some(v) if !matches!(v.value, Value::Str(_) | Value::Unknown) => {
            Some((v.span, format!("`description` must be a string, not {}", v.type_name())))
        }
        _ => None,
    }
}

/// What one runtime makes of the skill, from its reading.
fn runtime_skill(kind: &SkillKind, l: &Loader, r: &Reading) -> RuntimeSkill {
    let map = r
        .has_tree()
        .then(|| r.parsed.root.as_ref().and_then(Node::as_map))
        .flatten();
    let string = |key: &str| {
        map.and_then(|m| m.value(key))
            .and_then(Node::as_str)
            .map(str::to_string)
    };
    let (name, description) = (string("name"), string("description"));
    if l.needs_name {
        // One that needs a description too skips a skill without one.
        let described = !l.needs_description || description.is_some();
        let loads = match r.outcome {
            Outcome::Unknown => None,
            _ => Some(r.has_tree() && skip_reason(r, Span::default()).is_none() && described),
        };
        RuntimeSkill {
            runtime: l.runtime,
            loads,
            name: if loads == Some(true) { name } else { None },
            description: if loads == Some(true) { description } else { None },
        }
    } else {
        // It loads every skill at its place (one that needs a description: that has one, and a
        // name it takes), named after its folder when `name` is no string.
        let named = map.and_then(|m| m.value("name")).is_some();
        let loads = if !l.needs_description {
            Some(true)
        } else if r.outcome == Outcome::Unknown {
            None
        } else {
            Some(map.is_some_and(|m| {
                m.value("description").is_some_and(|d| {
                    matches!(
                        d.value,
                        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_)
                    )
                }) && !too_long(name.as_deref())
            }))
        };
        RuntimeSkill {
            runtime: l.runtime,
            loads,
            name: match name {
                Some(n) => Some(n),
                None if !named && l.names_by_folder() => Some(kind.folder.clone()),
                None => None,
            },
            description,
        }
    }
}

/// A skill no runtime loads, read as the Agent Skills format (strict YAML): a frontmatter that
/// does not parse is a warning. Returns the reading for the format's checks.
fn strict_without_loader(text: &str, first: Span, out: &mut Vec<Diagnostic>) -> Option<Reading> {
    let r = strict(text);
    match r.outcome {
        Outcome::NoFrontmatter => None,
        Outcome::Parsed | Outcome::Retry => Some(r),
        Outcome::Failed | Outcome::Unknown => {
            let e = r.error.clone().unwrap_or(SyntaxError {
                span: first,
                message: "not YAML".into(),
            });
            out.push(
                Diagnostic::new(
                    Code::SyntaxError,
                    e.span,
                    format!(
                        "{}: the frontmatter does not parse, so the skill has no name or description",
                        e.message
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::FileIgnored),
            );
            None
        }
    }
}

/// "its" or "their".
fn its(n: usize) -> &'static str {
    if n == 1 { "its" } else { "their" }
}

/// The third person singular `s` for one subject.
fn s(n: usize) -> &'static str {
    if n == 1 { "s" } else { "" }
}

/// The start of the line that holds `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].rfind('\n').map_or(0, |i| i + 1)
}

/// What the runtimes that load a skill cannot read in its frontmatter, or read only through a
/// retry (`seen`: each loader with its reading): a skipped file is an error naming the runtimes
/// that skip it; a file every runtime reads, some only through a retry, a `lenient-parse`
/// warning on each value to quote. Nothing when every runtime reads it as written.
fn syntax(text: &str, first: Span, seen: &[(&Loader, Reading)], out: &mut Vec<Diagnostic>) {
    let of = |o: Outcome| -> Vec<&(&Loader, Reading)> { seen.iter().filter(|(_, r)| r.outcome == o).collect() };
    let runtimes = |v: &[&(&Loader, Reading)]| -> Vec<Dialect> { v.iter().map(|(l, _)| l.runtime).collect() };
    // Skipped for lack of a frontmatter.
    let skipping = of(Outcome::NoFrontmatter);
    let none: Vec<Dialect> = skipping
        .iter()
        .filter(|(l, _)| l.needs_name || l.needs_description)
        .map(|(l, _)| l.runtime)
        .collect();
    if !none.is_empty() {
        let what = if skipping.iter().any(|(l, _)| l.needs_description) {
            "no frontmatter"
        } else {
            "no frontmatter with a `name`"
        };
        out.push(
            Diagnostic::new(
                Code::MissingField,
                first,
                format!("{what}: {} skip{} this skill", list(&none), s(none.len())),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
    }
    let (failed, retry, parsed, unknown) = (
        of(Outcome::Failed),
        of(Outcome::Retry),
        of(Outcome::Parsed),
        runtimes(&of(Outcome::Unknown)),
    );
    let unknown_note = (!unknown.is_empty()).then(|| {
        format!(
            "how {} read{} a frontmatter that is not valid YAML is not documented (it may skip the skill)",
            list(&unknown),
            s(unknown.len())
        )
    });
    // The values to quote: those a retry rewrote that a YAML reader rejects or reads otherwise,
    // one per line (the runtimes whose retry rewrote it).
    let mut values: Vec<(Span, Vec<Dialect>)> = Vec::new();
    for (l, r) in &retry {
        for v in r.retried.iter().filter(|v| needs_quotes(v.text(text))) {
            let line = line_of(text, v.start as usize);
            match values.iter_mut().find(|(s, _)| line_of(text, s.start as usize) == line) {
                Some((_, who)) => who.push(l.runtime),
                None => values.push((*v, vec![l.runtime])),
            }
        }
    }
    let retried_by = |who: &[Dialect]| {
        format!(
            "{} read{} it only through {} lenient retry",
            list(who),
            s(who.len()),
            its(who.len())
        )
    };
    // The runtimes that cannot read it, per error.
    let mut reported: Vec<usize> = Vec::new();
    let mut groups: Vec<(SyntaxError, Vec<&(&Loader, Reading)>)> = Vec::new();
    for f in &failed {
        let e = f.1.error.clone().unwrap_or(SyntaxError {
            span: f.1.open.unwrap_or(first),
            message: "not YAML".into(),
        });
        match groups.iter_mut().find(|(g, _)| g.span == e.span) {
            Some((_, v)) => v.push(*f),
            None => groups.push((e, vec![*f])),
        }
    }
    for (e, group) in groups {
        let skip: Vec<Dialect> = group
            .iter()
            .filter(|(l, _)| l.needs_name)
            .map(|(l, _)| l.runtime)
            .collect();
        let all = runtimes(&group);
        let notes: Vec<&str> = group.iter().filter_map(|(_, r)| r.note.as_deref()).collect();
        // What each one then does: one that needs a name skips the skill, another loads it
        // bare.
        let mut does = Vec::new();
        let who = |d: &[Dialect]| if all.len() == 1 { "it".to_string() } else { list(d) };
        if !skip.is_empty() {
            does.push(format!(
                "{} skip{} this skill",
                who(&skip),
                s(if all.len() == 1 { 1 } else { skip.len() })
            ));
        }
        let bare: Vec<Dialect> = group
            .iter()
            .filter(|(l, _)| !l.needs_name)
            .map(|(l, _)| l.runtime)
            .collect();
        if !bare.is_empty() {
            does.push(format!(
                "{} load{} the skill with none of its settings",
                who(&bare),
                s(if all.len() == 1 { 1 } else { bare.len() })
            ));
        }
        let mut parts = vec![format!(
            "{} cannot read this frontmatter, even with {} lenient retry{}: {}",
            list(&all),
            its(all.len()),
            if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            },
            does.join(", and ")
        )];
        if !retry.is_empty() {
            parts.push(retried_by(&runtimes(&retry)));
        }
        if !parsed.is_empty() {
            let who = runtimes(&parsed);
            parts.push(format!("{} read{} it", list(&who), s(who.len())));
        }
        parts.extend(unknown_note.clone());
        let line = line_of(text, e.span.start as usize);
        reported.push(line);
        let quote = values.iter().find(|(v, _)| line_of(text, v.start as usize) == line);
        let mut d = Diagnostic::new(
            Code::SyntaxError,
            e.span,
            format!(
                "{}: {}{}",
                e.message,
                parts.join("; "),
                if quote.is_some() {
                    ". Quote the value so that every YAML reader agrees"
                } else {
                    ""
                }
            ),
        );
        d = if skip.is_empty() {
            d.with_severity(Severity::Warning).with_effect(Effect::ValueIgnored)
        } else {
            d.with_severity(Severity::Error).with_effect(Effect::FileIgnored)
        };
        if let Some((v, _)) = quote.filter(|(v, _)| !continued(text, *v)) {
            d = d.with_fix("Quote the value", vec![quote_edit(text, *v)], true);
        }
        out.push(d);
    }
    // Read, some only through a retry: each value to quote.
    for (v, who) in values
        .iter()
        .filter(|(v, _)| !reported.contains(&line_of(text, v.start as usize)))
    {
        let raw = v.text(text);
        let mut message = format!(
            "this value is not valid YAML ({}); {} read{} the skill only through {} lenient retry, which reads it as plain text",
            why_quote(raw),
            list(who),
            s(who.len()),
            its(who.len())
        );
        if let Some(n) = &unknown_note {
            message.push_str("; ");
            message.push_str(n);
        }
        message.push_str(". Quote it so that every YAML reader agrees");
        let d = Diagnostic::new(Code::LenientParse, *v, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works);
        // A value whose next line is indented goes on there: quoting its first line alone
        // would leave the rest as broken YAML, so no fix is offered.
        out.push(if continued(text, *v) {
            d
        } else {
            d.with_fix("Quote the value", vec![quote_edit(text, *v)], true)
        });
    }
    // A retry that rescued it otherwise (tabs made spaces, ...): on the error.
    if failed.is_empty() && values.is_empty() && !retry.is_empty() {
        let e = retry.iter().find_map(|(_, r)| r.error.clone());
        let span = e.as_ref().map_or(first, |e| e.span);
        let mut message = format!(
            "this frontmatter is not valid YAML{}; {}",
            e.map(|e| format!(" ({})", e.message)).unwrap_or_default(),
            retried_by(&runtimes(&retry))
        );
        if let Some(n) = &unknown_note {
            message.push_str("; ");
            message.push_str(n);
        }
        message.push_str(". Fix it so that every YAML reader agrees");
        out.push(
            Diagnostic::new(Code::LenientParse, span, message)
                .with_severity(Severity::Warning)
                .with_effect(Effect::Works),
        );
    }
    // Only runtimes whose reading is not known cannot read it.
    if failed.is_empty()
        && retry.is_empty()
        && let Some(n) = &unknown_note
    {
        let e = seen
            .iter()
            .find_map(|(l, r)| unknown.contains(&l.runtime).then(|| r.error.clone()).flatten());
        let span = e.as_ref().map_or(first, |e| e.span);
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                span,
                format!(
                    "{}: {n}. Fix the YAML so that every reader agrees",
                    e.map_or("not valid YAML".into(), |e| e.message)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::FileIgnored),
        );
    }
}

/// Whether a value a retry read as plain text needs quoting for every YAML reader to read the
/// same: strict YAML (js-yaml's and YAML 1.2's) rejects it on a line of its own, or reads
/// something else.
fn needs_quotes(raw: &str) -> bool {
    let value = raw.trim_end_matches([' ', '\t']);
    let line = format!("k: {value}\n");
    [yaml::parse(&line, 0), yaml::parse_core(&line, 0)].iter().any(|p| {
        !p.errors.is_empty()
            || p.root
                .as_ref()
                .and_then(Node::as_map)
                .and_then(|m| m.value("k"))
                .and_then(Node::as_str)
                != Some(value)
    })
}

/// Why a value needs quoting, for the message.
fn why_quote(raw: &str) -> &'static str {
    if raw.contains(": ") {
        "a plain value may not contain `: `"
    } else if raw.trim_end().ends_with(':') {
        "a plain value may not end with `:`"
    } else if raw.contains(" #") {
        "` #` would start a comment"
    } else {
        "it starts with or holds a character YAML reserves"
    }
}

/// The value at `span` goes on past it: the line after the one `span` ends on is indented and
/// holds something (a continuation of the value, or of the structure it opens), or something
/// other than a comment follows it on its line.
fn continued(text: &str, span: Span) -> bool {
    let rest = text.get(span.end as usize..).unwrap_or_default();
    // What follows the value on its own line (a control character the value's span leaves out)
    // would stand after the closing quote: no fix either.
    let line = rest
        .split('\n')
        .next()
        .unwrap_or_default()
        .trim_matches([' ', '\t', '\r']);
    if !line.is_empty() && !line.starts_with('#') {
        return true;
    }
    let Some(nl) = rest.find('\n') else { return false };
    let next = rest[nl + 1..].lines().next().unwrap_or_default();
    next.starts_with([' ', '\t']) && !next.trim().is_empty() && !next.trim_start().starts_with('#')
}

/// The value `span` written as a double-quoted YAML string (trailing blanks left out).
fn quote_edit(text: &str, span: Span) -> Edit {
    let raw = span.text(text);
    let value = raw.trim_end_matches([' ', '\t']);
    let end = span.start as usize + value.len();
    // `key:value` (no space after the colon) is read by the lenient retry as `key: value`, and
    // so is `key:` before a form feed or a no-break space (JavaScript's `\s`); in YAML the colon
    // marks a key only before a space or a tab, so the quoted value gets a space in their place.
    let before = &text[..span.start as usize];
    let gap = before.trim_end_matches(|c: char| c != '\n' && c != '\r' && super::text::js_space(c));
    let mut start = span.start as usize;
    let mut quoted = String::with_capacity(value.len() + 3);
    if gap.ends_with(':') && !matches!(before[gap.len()..].chars().next(), Some(' ' | '\t')) {
        start = gap.len();
        quoted.push(' ');
    }
    let span = Span::new(start, end);
    quoted.push('"');
    for c in value.chars() {
        match c {
            '\\' => quoted.push_str("\\\\"),
            '"' => quoted.push_str("\\\""),
            // A control character is no printable YAML character: written as an escape, it
            // reads back as itself (a tab may stand as it is).
            c if c.is_control() && c != '\t' => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    Edit::new(span, quoted)
}

/// A `SKILL.md`'s frontmatter read as strict YAML by a runtime whose reading of a frontmatter
/// strict YAML rejects is not settled ([`Outcome::Unknown`] then).
pub fn strict_or_unknown(text: &str) -> Reading {
    let mut r = strict(text);
    if r.outcome == Outcome::Failed {
        r.outcome = Outcome::Unknown;
    }
    r
}

/// The Agent Skills format's own reading of a `SKILL.md`: a closed frontmatter (gray-matter's
/// split) as strict YAML 1.2, with no retry ([`Outcome::Failed`] when it does not parse). For a
/// skill no runtime loads, and for a runtime known to read skills so.
pub fn strict(text: &str) -> Reading {
    let split = frontmatter::split(text);
    let Some(fm) = split.frontmatter.filter(|f| f.close.is_some()) else {
        return Reading::default();
    };
    let parsed = yaml::parse_core(fm.yaml.text(text), fm.yaml.start as usize);
    Reading {
        outcome: if parsed.errors.is_empty() {
            Outcome::Parsed
        } else {
            Outcome::Failed
        },
        open: Some(fm.open),
        error: parsed.errors.first().cloned(),
        parsed,
        retried: Vec::new(),
        note: None,
    }
}

/// Whether a `name` is longer than a runtime that needs a description takes (64 characters).
fn too_long(name: Option<&str>) -> bool {
    name.is_some_and(|n| n.chars().count() > 64)
}

/// The Agent Skills name rules (warnings: no runtime enforces them), but for the length the
/// runtimes `drops` enforce (they skip the skill).
fn format_name(
    kind: &SkillKind,
    s: &str,
    v: &Node,
    alias: Option<&Loader>,
    drops: &[Dialect],
    out: &mut Vec<Diagnostic>,
) {
    let n = s.chars().count();
    if n > 64 && !drops.is_empty() {
        out.push(
            Diagnostic::new(
                Code::InvalidName,
                v.span,
                format!(
                    "the name has {n} characters, more than 64: {} skip{} this skill (\"invalid name: exceeds maximum length of 64 characters\")",
                    list(drops),
                    if drops.len() == 1 { "s" } else { "" }
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
        return;
    }
    let shape = !s.is_empty()
        && n <= 64
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !shape {
        out.push(
            Diagnostic::new(
                Code::InvalidName,
                v.span,
                format!(
                    "the Agent Skills format wants a name of 1 to 64 lowercase letters, digits and single hyphens; `{s}` is not one (the runtimes accept it)"
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works),
        );
    }
    if s != kind.folder {
        // A runtime that names a skill after its folder lists it under its `name`, the folder's
        // name an alias (Claude Code 2.1.332).
        let ns = kind.namespace.as_ref().map(|n| format!("{n}:")).unwrap_or_default();
        let alias_note = match alias {
            Some(l) => format!(
                " {} lists it as `/{ns}{s}` (`/{ns}{}` works too)",
                l.runtime.product(),
                kind.folder
            ),
            None => String::new(),
        };
        let mut d = Diagnostic::new(
            Code::NameMismatch,
            v.span,
            format!(
                "the skill is named `{s}` but its folder is `{}`; the Agent Skills format wants them equal.{alias_note}",
                kind.folder
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::Works);
        if v.span.len() == s.len() {
            d = d.with_suggestion(v.span, kind.folder.clone());
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze_skill as analyze;
    use expect_test::expect;

    fn kind(loaders: &[Dialect]) -> SkillKind {
        SkillKind {
            folder: "tdd".into(),
            loaders: loaders.to_vec(),
            namespace: None,
            misplaced: None,
            family: Dialect::Opencode,
        }
    }

    fn diags(k: &SkillKind, text: &str) -> Vec<(Code, Severity, String)> {
        analyze(k, text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    const OC: &[Dialect] = &[Dialect::Opencode];

    #[test]
    fn a_good_skill_is_clean() {
        let t = "---\nname: tdd\ndescription: Red, green, refactor.\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\nSteps.\n";
        assert_eq!(diags(&kind(OC), t), []);
        let (_, _, d) = analyze(&kind(OC), t);
        assert_eq!(d.name.as_deref(), Some("tdd"));
    }

    #[test]
    fn what_the_runtimes_enforce() {
        use Code::*;
        // A non-string name: skipped by opencode (error); Claude only: a warning.
        assert_eq!(
            diags(&kind(OC), "---\nname: 42\ndescription: d\n---\n"),
            [(MissingField, Severity::Error, "42".into())]
        );
        assert_eq!(
            diags(&kind(&[Dialect::Claude]), "---\nname: [a]\ndescription: d\n---\n"),
            [(MissingField, Severity::Warning, "[a]".into())]
        );
        // No name: opencode and Zuno skip it; Claude names it after the folder.
        assert_eq!(
            diags(&kind(OC), "---\ndescription: d\n---\n"),
            [(MissingField, Severity::Error, "---".into())]
        );
        assert_eq!(diags(&kind(&[Dialect::Claude]), "---\ndescription: d\n---\n"), []);
        assert_eq!(
            analyze(&kind(&[Dialect::Claude]), "Just text\n").2.name.as_deref(),
            Some("tdd")
        );
        // A description that is not a string; none at all.
        assert_eq!(
            diags(&kind(&[Dialect::Zuno]), "---\nname: tdd\ndescription: [a]\n---\n"),
            [(MissingField, Severity::Error, "[a]".into())]
        );
        assert_eq!(
            diags(&kind(OC), "---\nname: tdd\n---\n"),
            [(MissingField, Severity::Warning, "tdd".into())]
        );
        // Broken YAML that opencode cannot read, even through its retry.
        assert_eq!(
            diags(&kind(OC), "---\nname: tdd\ndescription: a\nfoo: \"b\n---\n"),
            [(SyntaxError, Severity::Error, "\"".into())]
        );
    }

    /// Every diagnostic of a skill at a place `loaders` read: code, severity, the text under its
    /// span, its message, and the file after its fix.
    fn render(loaders: &[Dialect], text: &str) -> String {
        let mut out = String::new();
        for d in analyze(&kind(loaders), text).0 {
            out.push_str(&format!(
                "{} {} `{}`: {}\n",
                d.code.as_str(),
                d.severity.as_str(),
                d.span.text(text),
                d.message
            ));
            if let Some(f) = d.fix.as_ref() {
                out.push_str(&format!(
                    "  fix: {:?}\n",
                    crate::analysis::diagnostic::apply(text, &f.edits)
                ));
            }
        }
        out
    }

    /// A runtime, whether it loads the skill, the name and the description it reads.
    type Seen = (Dialect, Option<bool>, Option<String>, Option<String>);

    /// What each runtime makes of the skill.
    fn runtimes(loaders: &[Dialect], text: &str) -> Vec<Seen> {
        analyze(&kind(loaders), text)
            .2
            .runtimes
            .into_iter()
            .map(|r| (r.runtime, r.loads, r.name, r.description))
            .collect()
    }

    const COLON: &str = "---\nname: tdd\ndescription: Use this when: the user asks\n---\nBody\n";

    #[test]
    fn a_value_with_a_colon_loads_through_each_runtimes_retry() {
        // opencode alone (`.opencode/skills/`): its sanitizer reads the value as text.
        expect![[r#"
            lenient-parse warning `Use this when: the user asks`: this value is not valid YAML (a plain value may not contain `: `); opencode reads the skill only through its lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees
              fix: "---\nname: tdd\ndescription: \"Use this when: the user asks\"\n---\nBody\n"
        "#]]
        .assert_eq(&render(OC, COLON));
        let said = |d: Dialect| {
            (
                d,
                Some(true),
                Some("tdd".to_string()),
                Some("Use this when: the user asks".to_string()),
            )
        };
        assert_eq!(runtimes(OC, COLON), [said(Dialect::Opencode)]);
        let decl = analyze(&kind(OC), COLON).2;
        assert_eq!(decl.name.as_deref(), Some("tdd"));
        assert_eq!(decl.span.text(COLON), "tdd");
        assert_eq!(decl.description.as_deref(), Some("Use this when: the user asks"));
        assert_eq!(decl.name_for(Dialect::Opencode), Some("tdd"));
        // `.claude/skills/`: Claude Code's retry quotes it, opencode's reads it.
        expect![[r#"
            lenient-parse warning `Use this when: the user asks`: this value is not valid YAML (a plain value may not contain `: `); Claude Code and opencode read the skill only through their lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees
              fix: "---\nname: tdd\ndescription: \"Use this when: the user asks\"\n---\nBody\n"
        "#]]
        .assert_eq(&render(CLAUDE, COLON));
        assert_eq!(
            runtimes(CLAUDE, COLON),
            [said(Dialect::Claude), said(Dialect::Opencode)]
        );
        // A plugin's skill: Claude Code alone.
        expect![[r#"
            lenient-parse warning `Use this when: the user asks`: this value is not valid YAML (a plain value may not contain `: `); Claude Code reads the skill only through its lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees
              fix: "---\nname: tdd\ndescription: \"Use this when: the user asks\"\n---\nBody\n"
        "#]]
        .assert_eq(&render(&[Dialect::Claude], COLON));
        // `.agents/skills/`: opencode's retry reads it; what Zuno does is not known (a warning).
        let agents = &[Dialect::Opencode, Dialect::Zuno];
        expect![[r#"
            lenient-parse warning `Use this when: the user asks`: this value is not valid YAML (a plain value may not contain `: `); opencode reads the skill only through its lenient retry, which reads it as plain text; how Zuno reads a frontmatter that is not valid YAML is not documented (it may skip the skill). Quote it so that every YAML reader agrees
              fix: "---\nname: tdd\ndescription: \"Use this when: the user asks\"\n---\nBody\n"
        "#]]
        .assert_eq(&render(agents, COLON));
        assert_eq!(
            runtimes(agents, COLON),
            [said(Dialect::Opencode), (Dialect::Zuno, None, None, None)]
        );
        // `.zuno/skills/`: Zuno alone, never an error.
        expect![[r#"
            syntax-error warning `:`: mapping values are not allowed in this context: how Zuno reads a frontmatter that is not valid YAML is not documented (it may skip the skill). Fix the YAML so that every reader agrees
        "#]]
        .assert_eq(&render(&[Dialect::Zuno], COLON));
        // Quoted, it is clean everywhere.
        let quoted = "---\nname: tdd\ndescription: \"Use this when: the user asks\"\n---\nBody\n";
        for loaders in [OC, CLAUDE, agents, &[Dialect::Zuno], &[Dialect::Claude]] {
            assert_eq!(render(loaders, quoted), "", "{loaders:?}");
        }
    }

    #[test]
    fn no_quote_fix_for_a_value_that_goes_on_below() {
        // Found by the fuzzer: quoting the first line of a value continued on an indented next
        // line left broken YAML behind. The warning stays; the fix is withheld.
        let t = "---\nname: tdd\ndescription: Use this when: the user\n  asks for it\n---\nBody\n";
        let d = analyze(&kind(CLAUDE), t).0;
        let lenient: Vec<_> = d.iter().filter(|d| d.code == Code::LenientParse).collect();
        assert_eq!(lenient.len(), 1, "{d:#?}");
        assert!(lenient[0].fix.is_none(), "{:#?}", lenient[0]);
        // Something the value's span leaves out after it on its line (found by the fuzzer: a
        // vertical tab): no fix.
        assert!(continued("x: a\u{b}\n", Span::new(3, 4)));
        assert!(!continued("x: a # note\n", Span::new(3, 4)));
        // A control character inside the value is escaped in the quotes.
        let e = quote_edit("x: a\u{1}b\n", Span::new(3, 6));
        assert_eq!(e.text, "\"a\\u0001b\"");
        // `key:value` with no space (found by the fuzzer): the quoted value gets one, or the
        // line would be one plain scalar and no key at all.
        let t = "---\nname: tdd\ndescription:(T{\"a\": {b c.\n---\nBody\n";
        let d = analyze(&kind(&[Dialect::Opencode]), t).0;
        let fix = d
            .iter()
            .find(|d| d.code == Code::LenientParse)
            .and_then(|d| d.fix.as_ref());
        let fix = fix.expect("a quote fix");
        let fixed = crate::analysis::diagnostic::apply(t, &fix.edits);
        assert!(fixed.contains("description: \"(T{\\\"a\\\": {b c.\"\n"), "{fixed}");
        assert!(analyze(&kind(&[Dialect::Opencode]), &fixed).0.is_empty(), "{fixed}");
        // `key:` and a form feed (found by the fuzzer): the retry reads a value there, YAML does
        // not; the form feed makes way for a space, or the quoted line would still be no key.
        let t = "---\nname:\u{c}depcription: Deploys\ndescription: Deploys the app.\n---\nBody\n";
        let d = analyze(&kind(&[Dialect::Opencode]), t).0;
        let fixes: Vec<_> = d
            .iter()
            .filter(|d| d.code == Code::LenientParse)
            .filter_map(|d| d.fix.as_ref())
            .collect();
        assert_eq!(fixes.len(), 1, "{d:#?}");
        let fixed = crate::analysis::diagnostic::apply(t, &fixes[0].edits);
        assert!(fixed.contains("\nname: \"depcription: Deploys\"\n"), "{fixed:?}");
        let after: Vec<_> = analyze(&kind(&[Dialect::Opencode]), &fixed)
            .0
            .into_iter()
            .map(|d| d.code)
            .collect();
        // The name itself is still no Agent Skills name; the YAML is now read alike.
        assert_eq!(after, [Code::InvalidName, Code::NameMismatch], "{fixed}");
        // A space after the colon stays; only the value is quoted.
        let e = quote_edit("x: \u{c}a: b\n", Span::new(4, 8));
        assert_eq!((e.span, e.text.as_str()), (Span::new(4, 8), "\"a: b\""));
        // A comment or a blank line below is no continuation: the fix is offered.
        for below in ["# note\n", "\n", "other: x\n"] {
            let t = format!("---\nname: tdd\ndescription: Use this when: asked\n{below}---\nBody\n");
            let d = analyze(&kind(CLAUDE), &t).0;
            let fixes: usize = d
                .iter()
                .filter(|d| d.code == Code::LenientParse)
                .filter(|d| d.fix.is_some())
                .count();
            assert_eq!(fixes, 1, "{below:?}: {d:#?}");
        }
    }

    #[test]
    fn the_checks_run_on_what_the_runtimes_read() {
        // A real plugin skill's shape: 1,100 characters of description with a `: ` in it.
        let long = format!(
            "Use this skill when: {}",
            "the user asks for release notes. ".repeat(33)
        );
        let long = &long[..1100];
        let t = format!("---\nname: Release_Notes\ndescription: {long}\nlicence: MIT\n---\nBody\n");
        let got: Vec<(Code, Severity, String)> = diags(&kind(CLAUDE), &t);
        assert_eq!(
            got,
            [
                (Code::InvalidName, Severity::Warning, "Release_Notes".into()),
                (Code::NameMismatch, Severity::Warning, "Release_Notes".into()),
                (Code::InvalidValue, Severity::Warning, long.to_string()),
                (Code::LenientParse, Severity::Warning, long.to_string()),
                (Code::UnknownKey, Severity::Warning, "licence".into()),
            ]
        );
        let d = analyze(&kind(CLAUDE), &t).0;
        assert_eq!(
            d[2].message,
            "the Agent Skills format wants a description of 1 to 1024 characters; this one has 1100"
        );
        let decl = analyze(&kind(OC), &t).2;
        assert_eq!(decl.name.as_deref(), Some("Release_Notes"));
        assert_eq!(decl.description.as_deref(), Some(long));
        // A name that is no string, read through the retry: opencode skips the skill.
        expect![[r#"
            missing-field error `42`: `name` must be a string, not a number: opencode skips this skill
            lenient-parse warning `a: b`: this value is not valid YAML (a plain value may not contain `: `); opencode reads the skill only through its lenient retry, which reads it as plain text. Quote it so that every YAML reader agrees
              fix: "---\nname: 42\ndescription: \"a: b\"\n---\n"
        "#]]
        .assert_eq(&render(OC, "---\nname: 42\ndescription: a: b\n---\n"));
        assert_eq!(
            runtimes(OC, "---\nname: 42\ndescription: a: b\n---\n"),
            [(Dialect::Opencode, Some(false), None, None)]
        );
    }

    #[test]
    fn one_runtime_skips_what_another_reads() {
        // CRLF: Claude Code's retry does nothing (it loads the skill bare), opencode's reads it.
        let crlf = "---\r\nname: tdd\r\ndescription: Use this when: crlf\r\n---\r\nBody\r\n";
        expect![[r#"
            syntax-error warning `:`: mapping values are not allowed in this context: Claude Code cannot read this frontmatter, even with its lenient retry (the file has CRLF line endings, so the retry, which quotes values with `: `, does nothing for it): it loads the skill with none of its settings; opencode reads it only through its lenient retry. Quote the value so that every YAML reader agrees
              fix: "---\r\nname: tdd\r\ndescription: \"Use this when: crlf\"\r\n---\r\nBody\r\n"
        "#]]
        .assert_eq(&render(CLAUDE, crlf));
        assert_eq!(
            runtimes(CLAUDE, crlf),
            [
                (Dialect::Claude, Some(true), Some("tdd".into()), None),
                (
                    Dialect::Opencode,
                    Some(true),
                    Some("tdd".into()),
                    Some("Use this when: crlf".into())
                )
            ]
        );
        // A key set twice: Claude Code keeps the last, js-yaml throws and the sanitizer changes
        // nothing, so opencode finds no name.
        let twice = "---\nname: tdd\ndescription: d\nname: tdd\n---\nBody\n";
        expect![[r#"
            syntax-error error `name`: `name` is set twice, which js-yaml rejects: opencode cannot read this frontmatter, even with its lenient retry: it skips this skill; Claude Code reads it
        "#]]
        .assert_eq(&render(CLAUDE, twice));
        assert_eq!(analyze(&kind(CLAUDE), twice).2.name_for(Dialect::Opencode), None);
        assert_eq!(analyze(&kind(CLAUDE), twice).2.name_for(Dialect::Claude), Some("tdd"));
        // Neither reads it: opencode skips the skill, Claude Code loads it bare.
        let broken = "---\nname: tdd\ndescription: a\nfoo: \"b\n---\nBody\n";
        expect![[r#"
            syntax-error error `"`: while scanning a quoted scalar, found unexpected end of stream: Claude Code and opencode cannot read this frontmatter, even with their lenient retry: opencode skips this skill, and Claude Code loads the skill with none of its settings
        "#]]
        .assert_eq(&render(CLAUDE, broken));
        assert_eq!(analyze(&kind(CLAUDE), broken).2.name.as_deref(), Some("tdd"));
        // The sanitizer rewrote a value, but the retry throws on another line: the error is
        // there.
        let retry_fails = "---\nname: tdd\ndescription: Use it: now\nmetadata:\n  x: a: b\n---\nBody\n";
        let d = analyze(&kind(OC), retry_fails).0;
        assert_eq!(
            d.iter().map(|d| (d.code, d.severity, d.span.start)).collect::<Vec<_>>(),
            [(
                Code::SyntaxError,
                Severity::Error,
                retry_fails.find("a: b").unwrap() as u32 + 1
            )]
        );
        assert_eq!(
            d[0].message,
            "mapping values are not allowed in this context: opencode cannot read this frontmatter, even with its lenient retry: it skips this skill"
        );
    }

    #[test]
    fn what_opencodes_reader_reads_and_the_format_alone_does_not() {
        // An unclosed frontmatter: gray-matter reads the rest of the file as YAML.
        let unclosed = "---\nname: tdd\ndescription: d\n";
        assert_eq!(diags(&kind(OC), unclosed), []);
        assert_eq!(
            runtimes(OC, unclosed),
            [(Dialect::Opencode, Some(true), Some("tdd".into()), Some("d".into()))]
        );
        // Zuno reads none: a closed frontmatter is needed.
        assert_eq!(
            diags(&kind(&[Dialect::Zuno]), unclosed),
            [(Code::MissingField, Severity::Error, "---".into())]
        );
        // js-yaml's `1:30` is a number (sexagesimal): no name for opencode.
        assert_eq!(
            diags(&kind(OC), "---\nname: 1:30\ndescription: d\n---\n"),
            [(Code::MissingField, Severity::Error, "1:30".into())]
        );
        // A `---js` frontmatter runs as code in gray-matter: not known, so no error.
        assert!(
            diags(&kind(OC), "---js\n{name: 'tdd'}\n---\nBody\n")
                .iter()
                .all(|d| d.1 != Severity::Error)
        );
        // A skill no runtime loads: a warning, as before.
        let k = SkillKind {
            misplaced: Some("`.opencode/skills/tdd/`".into()),
            ..kind(&[])
        };
        let t = "---\nname: tdd\ndescription: a: b\n---\n";
        let got: Vec<(Code, Severity, String, String)> = analyze(&k, t)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(t).to_string(), d.message))
            .collect();
        assert_eq!(
            got,
            [
                (
                    Code::MisplacedSkill,
                    Severity::Warning,
                    "---".into(),
                    "no runtime loads a `SKILL.md` here; move this folder to `.opencode/skills/tdd/`".into()
                ),
                (
                    Code::SyntaxError,
                    Severity::Warning,
                    ":".into(),
                    "mapping values are not allowed in this context: the frontmatter does not parse, so the skill has no name or description".into()
                ),
            ]
        );
    }

    #[test]
    fn what_the_format_wants() {
        use Code::*;
        use Severity::Warning;
        assert_eq!(
            diags(&kind(OC), "---\nname: TDD_cycle\ndescription: d\n---\n"),
            [
                (InvalidName, Warning, "TDD_cycle".into()),
                (NameMismatch, Warning, "TDD_cycle".into())
            ]
        );
        assert_eq!(
            diags(&kind(OC), "---\nname: tdd-cycle\ndescription: d\n---\n"),
            [(NameMismatch, Warning, "tdd-cycle".into())]
        );
        let long = "x".repeat(1025);
        assert_eq!(
            diags(&kind(OC), &format!("---\nname: tdd\ndescription: {long}\n---\n"))[0].0,
            InvalidValue
        );
        assert_eq!(
            diags(
                &kind(OC),
                "---\nname: tdd\ndescription: d\nversion: 2\nlicence: MIT\n---\n"
            ),
            [
                (UnknownKey, Warning, "version".into()),
                (UnknownKey, Warning, "licence".into())
            ]
        );
        // The did-you-mean fix.
        let t = "---\nname: tdd\ndescription: d\nlicence: MIT\n---\n";
        let d = analyze(&kind(OC), t).0;
        assert_eq!(d[0].suggestion().map(|e| e.text.as_str()), Some("license"));
    }

    const CLAUDE: &[Dialect] = &[Dialect::Claude, Dialect::Opencode];

    #[test]
    fn links_of_a_skill() {
        let t = "---\nname: tdd\ndescription: d\n---\nRead [the guide](references/guide.md) and [x](https://x.y).\n`[not](code.md)`\n";
        for loaders in [OC, CLAUDE, &[]] {
            let (_, _, decl) = analyze(&kind(loaders), t);
            let got: Vec<(&str, &str)> = decl.links.iter().map(|l| (l.path.as_str(), l.span.text(t))).collect();
            assert_eq!(got, [("references/guide.md", "references/guide.md")]);
        }
    }

    #[test]
    fn misplaced_skills() {
        let k = SkillKind {
            folder: "tdd".into(),
            loaders: Vec::new(),
            namespace: None,
            misplaced: Some("`.opencode/skills/tdd/`".into()),
            family: Dialect::Opencode,
        };
        let d = diags(&k, "---\nname: tdd\ndescription: d\n---\n");
        assert_eq!(d, [(Code::MisplacedSkill, Severity::Warning, "---".into())]);
        // Not loaded anywhere: problems are warnings, never errors.
        let d = diags(&k, "---\ndescription: d\n---\n");
        assert!(d.iter().all(|x| x.1 == Severity::Warning), "{d:?}");
    }
}

/// Completion in a skill's frontmatter: the keys not yet present (the format's first, then the
/// runtimes' own), and the values of the enumerated ones (`runtimes`: every runtime's
/// [`Loader`], each giving the values of its keys).
pub fn complete(text: &str, offset: usize, runtimes: &[Loader]) -> Vec<Item> {
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let split = frontmatter::split(text);
    let Some(ctx) = split
        .frontmatter
        .and_then(|fm| yaml_context_in(text, offset, fm.yaml, fm.close))
    else {
        return Vec::new();
    };
    if !ctx.path.is_empty() {
        return Vec::new();
    }
    let mut items: Vec<_> = match ctx.value_of.as_deref() {
        None => keys(runtimes)
            .enumerate()
            .filter(|(_, (k, _))| !ctx.present.iter().any(|p| p == k))
            .map(|(i, (k, d))| {
                item(
                    k,
                    ItemKind::Key,
                    "skill field",
                    Some(d.to_string()),
                    if i < KEYS.len() { 0 } else { 1 },
                )
            })
            .collect(),
        Some(key) => runtimes.iter().flat_map(|r| (r.values)(key)).collect(),
    };
    for it in &mut items {
        it.replace = ctx.replace;
        it.insert = if ctx.value_of.is_none() {
            format!("{}: ", it.label)
        } else {
            it.label.clone()
        };
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

#[cfg(test)]
mod complete_tests {
    use crate::analysis::complete_skill as complete;

    #[test]
    fn keys_and_values() {
        let t = "---\nname: tdd\n\n---\n";
        let at = t.find("\n\n").unwrap() + 1;
        let labels: Vec<String> = complete(t, at).into_iter().map(|i| i.label).collect();
        assert_eq!(
            &labels[..5],
            ["allowed-tools", "compatibility", "description", "license", "metadata"]
        );
        assert!(!labels.contains(&"name".to_string()));
        let t = "---\ncontext: \n---\n";
        let at = t.find(": ").unwrap() + 2;
        assert_eq!(
            complete(t, at).into_iter().map(|i| i.label).collect::<Vec<_>>(),
            ["fork"]
        );
    }

    #[test]
    fn shell_values() {
        let t = "---\nname: tdd\nshell: \n---\n";
        let at = t.find("shell: ").unwrap() + "shell: ".len();
        let items: Vec<(String, String)> = complete(t, at).into_iter().map(|i| (i.label, i.insert)).collect();
        assert_eq!(
            items,
            [
                ("bash".to_string(), "bash".to_string()),
                ("powershell".to_string(), "powershell".to_string())
            ]
        );
    }
}
