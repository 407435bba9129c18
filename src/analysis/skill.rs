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
//! The composition (the format's checks, then each loader's) is `analyze_skill` in
//! `analysis/mod.rs`.

use super::complete::{Item, ItemKind, item, yaml_context_in};
use super::diagnostic::{Diagnostic, Effect, Severity};
use super::dialect::Dialect;
use super::prompt::{Link, Placeholder};
use super::rules::Code;
use super::suggest;
use super::syntax::frontmatter;
use super::syntax::{Node, Parsed, Value, yaml};
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
    names.join(" and ")
}

/// What the runtimes do with a skill without description: those that need a name, joined with
/// "and", then the others, each after a `;`.
fn without_description(runtimes: &[Loader]) -> String {
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

/// The frontmatter of a `SKILL.md` against the runtimes that load it.
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
    let strict: Vec<Dialect> = loaders.iter().filter(|l| l.needs_name).map(|l| l.runtime).collect();
    // A loader that names a skill after its folder.
    let alias = loaders.iter().copied().find(|l| l.folder_alias);
    // Skipped by the runtimes that need a name: an error only if one of them loads it here.
    let skipped = |span: Span, why: String| {
        let sev = if strict.is_empty() {
            Severity::Warning
        } else {
            Severity::Error
        };
        let who = if strict.is_empty() {
            let all: Vec<Dialect> = runtimes.iter().filter(|l| l.needs_name).map(|l| l.runtime).collect();
            format!("{} would skip this skill", list(&all))
        } else {
            format!(
                "{} skip{} this skill",
                list(&strict),
                if strict.len() == 1 { "s" } else { "" }
            )
        };
        Diagnostic::new(Code::MissingField, span, format!("{why}: {who}"))
            .with_severity(sev)
            .with_effect(Effect::FileIgnored)
    };
    let split = frontmatter::split(text);
    let Some(fm) = split.frontmatter.filter(|f| f.close.is_some()) else {
        if !strict.is_empty() {
            out.push(skipped(first, "no frontmatter with a `name`".into()));
        }
        if alias.is_some() {
            decl.name = Some(kind.folder.clone());
        }
        return (out, Parsed::default(), decl);
    };
    let parsed = yaml::parse_core(fm.yaml.text(text), fm.yaml.start as usize);
    if let Some(e) = parsed.errors.first() {
        let sev = if kind.loaders.is_empty() {
            Severity::Warning
        } else {
            Severity::Error
        };
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                e.span,
                format!(
                    "{}: the frontmatter does not parse, so the skill has no name or description",
                    e.message
                ),
            )
            .with_severity(sev)
            .with_effect(Effect::FileIgnored),
        );
        return (out, parsed, decl);
    }
    let Some(map) = parsed.root.as_ref().and_then(Node::as_map) else {
        out.push(skipped(
            fm.open,
            "the frontmatter is not a mapping of `key: value` pairs".into(),
        ));
        return (out, parsed, decl);
    };
    // name
    match map.get("name").map(|e| (&e.value, e.key.span)) {
        None => {
            if !strict.is_empty() {
                out.push(skipped(fm.open, "there is no `name`".into()));
            }
            if alias.is_some() {
                decl.name = Some(kind.folder.clone());
            }
        }
        Some((v, _)) => match &v.value {
            Value::Str(s) => {
                decl.name = Some(s.clone());
                decl.span = v.span;
                format_name(kind, s, v, alias, &mut out);
            }
            Value::Unknown => {}
            _ => out.push(skipped(
                v.span,
                format!("`name` must be a string, not {}", v.type_name()),
            )),
        },
    }
    // description
    match map.get("description").map(|e| &e.value) {
        None => out.push(
            Diagnostic::new(
                Code::MissingField,
                decl.span,
                format!(
                    "there is no `description`: {}. Say what the skill does and when to use it",
                    without_description(runtimes)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        ),
        Some(v) => {
            match &v.value {
                Value::Str(s) => {
                    decl.description = Some(s.clone());
                    let n = s.chars().count();
                    if n == 0 || n > 1024 {
                        out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            v.span,
                            format!("the Agent Skills format wants a description of 1 to 1024 characters; this one has {n}"),
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::Works),
                    );
                    }
                }
                Value::Unknown => {}
                _ => out.push(skipped(
                    v.span,
                    format!("`description` must be a string, not {}", v.type_name()),
                )),
            }
        }
    }
    // Keys no runtime reads.
    for e in map.entries.iter() {
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

/// The Agent Skills name rules (warnings: no runtime enforces them).
fn format_name(kind: &SkillKind, s: &str, v: &Node, alias: Option<&Loader>, out: &mut Vec<Diagnostic>) {
    let n = s.chars().count();
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

    fn kind(loaders: &[Dialect]) -> SkillKind {
        SkillKind {
            folder: "tdd".into(),
            loaders: loaders.to_vec(),
            namespace: None,
            misplaced: None,
            family: Dialect::OpenCode,
        }
    }

    fn diags(k: &SkillKind, text: &str) -> Vec<(Code, Severity, String)> {
        analyze(k, text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    const OC: &[Dialect] = &[Dialect::OpenCode];

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
        // Broken YAML.
        assert_eq!(
            diags(&kind(OC), "---\nname: tdd\ndescription: a: b\n---\n")[0].0,
            SyntaxError
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

    const CLAUDE: &[Dialect] = &[Dialect::Claude, Dialect::OpenCode];

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
            family: Dialect::OpenCode,
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
