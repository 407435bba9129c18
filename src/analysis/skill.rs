//! Skills (`SKILL.md`), one format read by three runtimes, each with its own rules:
//!
//! - opencode 1.18 (spec `opencode.md` §12): the frontmatter must be a mapping with a string
//!   `name` and `description` absent or a string, else the skill is skipped silently; the name
//!   comes from `name`, not the folder; a skill without description is left out of the listing.
//! - Claude Code (`claude-code.md` §5): every field optional; 2.1.332 names the command after
//!   `name` (the folder's name stays an alias), after the folder without one; `description`
//!   falls back to the first paragraph. A plugin's skills run as `/plugin:name`.
//! - Zuno (`zuno.md` §4.1): `name` must be a string (else the skill is dropped); a `description`
//!   present but not a string drops it; one absent hides it from discovery.
//!
//! What the Agent Skills format requires and no runtime enforces (a lowercase-hyphen name of
//! 1-64 characters equal to its folder, a description of 1-1024 characters, six known keys) is
//! reported as warnings.

use super::claude::prompt;
use super::diagnostic::{Diagnostic, Effect, Severity};
use super::dialect::Dialect;
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
    pub links: Vec<prompt::Link>,
    /// For a skill Claude Code loads: the description it shows (`description`, else the body's
    /// first line, else `Skill`; cleaned to one line, `<` `>` escaped, as its listing has it).
    pub shown_description: Option<String>,
    /// For a skill Claude Code loads: the argument hint it shows.
    pub argument_hint: Option<String>,
    /// For a skill Claude Code loads: the names of `arguments`.
    pub arguments: Vec<String>,
    /// For a skill Claude Code loads: the placeholders of the body it fills in.
    pub placeholders: Vec<prompt::Placeholder>,
}

/// Keys of the Agent Skills format and of Claude Code's skills.
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
    (
        "disallowed-tools",
        "Claude Code: tools removed while the skill is active.",
    ),
    ("when_to_use", "Claude Code: appended to the description."),
    (
        "argument-hint",
        "Claude Code: the hint shown after the name in the `/` menu. Quote it: unquoted, `[file]` is a YAML list and Claude Code shows `file`.",
    ),
    (
        "arguments",
        "Claude Code: names for the positional arguments: `$name` in the body is the argument at its position, as `$0` is the first.",
    ),
    (
        "disable-model-invocation",
        "Claude Code: `true` stops the model from invoking the skill itself.",
    ),
    ("user-invocable", "Claude Code: `false` hides it from the `/` menu."),
    ("model", "Claude Code: the model while the skill runs."),
    ("effort", "Claude Code: `low`, `medium`, `high`, `xhigh` or `max`."),
    ("context", "Claude Code: `fork` runs the skill in a forked subagent."),
    ("agent", "Claude Code: the subagent type for `context: fork`."),
    (
        "background",
        "Claude Code: with `context: fork`, run in the background.",
    ),
    ("hooks", "Claude Code: hooks scoped to the skill."),
    ("paths", "Claude Code: globs that limit automatic activation."),
    (
        "shell",
        "Claude Code: `bash` (default) or `powershell` for `!` commands.",
    ),
];

fn list(loaders: &[Dialect]) -> String {
    let names: Vec<&str> = loaders.iter().map(|d| d.product()).collect();
    names.join(" and ")
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

pub fn analyze(kind: &SkillKind, text: &str) -> (Vec<Diagnostic>, Parsed, SkillDecl) {
    let (mut out, parsed, mut decl) = analyze_frontmatter(kind, text);
    body(kind, text, &mut decl, &mut out);
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

/// What the body holds: its links; for a skill Claude Code loads, the placeholders it fills in
/// (those inside code reported), and what it reads of `allowed-tools`, `disallowed-tools`,
/// `argument-hint` and `arguments`.
fn body(kind: &SkillKind, text: &str, decl: &mut SkillDecl, out: &mut Vec<Diagnostic>) {
    use crate::analysis::claude::read;
    if !kind.loaders.contains(&Dialect::Claude) {
        decl.body = Span::new(frontmatter::split(text).body.start as usize, text.len());
        decl.links = prompt::links(text, decl.body);
        return;
    }
    // As Claude Code reads it: its block, its lenient retry, every blank after the closing `---`
    // eaten.
    let reading = read::read(text);
    let start = match &reading.block {
        Some(b) => {
            let rest = &text[b.body.start as usize..];
            b.body.start as usize + (rest.len() - rest.trim_start_matches(read::js_space).len())
        }
        None => 0,
    };
    decl.body = Span::new(start, text.len());
    decl.links = prompt::links(text, decl.body);
    let map = match reading.outcome {
        read::Outcome::FirstPass | read::Outcome::Retry => reading.parsed.root.as_ref().and_then(Node::as_map),
        _ => None,
    };
    let body_text = &text[start..];
    decl.shown_description =
        Some(prompt::description(map.and_then(|m| m.value("description")), body_text, "Skill").text);
    if let Some(map) = map {
        for key in ["allowed-tools", "disallowed-tools"] {
            if let Some(v) = map.value(key) {
                crate::analysis::command::tools(key, v, text, out);
            }
        }
        if let Some(v) = map.value("argument-hint")
            && !matches!(v.value, Value::Null | Value::Str(_))
            && let Some(shown) = prompt::argument_hint(Some(v))
        {
            crate::analysis::command::shown_differently(text, "argument-hint", v, &shown, out);
        }
    }
    decl.argument_hint = prompt::argument_hint(map.and_then(|m| m.value("argument-hint")));
    decl.arguments = prompt::argument_names(map.and_then(|m| m.value("arguments")));
    decl.placeholders = prompt::placeholders(text, decl.body, &decl.arguments);
    out.extend(crate::analysis::command::placeholders_in_code(
        &kind.folder,
        text,
        &decl.placeholders,
    ));
}

/// The frontmatter of a `SKILL.md` against the runtimes that load it.
fn analyze_frontmatter(kind: &SkillKind, text: &str) -> (Vec<Diagnostic>, Parsed, SkillDecl) {
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
    let strict: Vec<Dialect> = kind
        .loaders
        .iter()
        .copied()
        .filter(|d| matches!(d, Dialect::OpenCode | Dialect::Zuno))
        .collect();
    let claude = kind.loaders.contains(&Dialect::Claude);
    // Skipped by the runtimes that need a name: an error only if one of them loads it here.
    let skipped = |span: Span, why: String| {
        let sev = if strict.is_empty() {
            Severity::Warning
        } else {
            Severity::Error
        };
        let who = if strict.is_empty() {
            "opencode and Zuno would skip this skill".to_string()
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
        if claude {
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
            if claude {
                decl.name = Some(kind.folder.clone());
            }
        }
        Some((v, _)) => match &v.value {
            Value::Str(s) => {
                decl.name = Some(s.clone());
                decl.span = v.span;
                format_name(kind, s, v, claude, &mut out);
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
                "there is no `description`: opencode leaves the skill out of the list shown to the model and Zuno hides it; Claude Code falls back to the first paragraph. Say what the skill does and when to use it",
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        ),
        Some(v) => match &v.value {
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
            _ => out.push(skipped(v.span, format!("`description` must be a string, not {}", v.type_name()))),
        },
    }
    // Keys no runtime reads.
    let known = KEYS.iter().map(|(k, _)| *k);
    for e in map.entries.iter() {
        if KEYS.iter().any(|(k, _)| *k == e.key.name) {
            continue;
        }
        let near = suggest::closest(&e.key.name, known.clone());
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
fn format_name(kind: &SkillKind, s: &str, v: &Node, claude: bool, out: &mut Vec<Diagnostic>) {
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
        // Claude Code 2.1.332 lists the skill under its `name`; the folder's name is an alias.
        let ns = kind.namespace.as_ref().map(|n| format!("{n}:")).unwrap_or_default();
        let claude_note = if claude {
            format!(" Claude Code lists it as `/{ns}{s}` (`/{ns}{}` works too)", kind.folder)
        } else {
            String::new()
        };
        let mut d = Diagnostic::new(
            Code::NameMismatch,
            v.span,
            format!(
                "the skill is named `{s}` but its folder is `{}`; the Agent Skills format wants them equal.{claude_note}",
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
    fn tool_lists_of_skills_claude_code_loads() {
        use Code::*;
        use Severity::Warning;
        // A space- or comma-separated string, or a list, as in a command.
        let t = "---\nname: tdd\ndescription: d\nallowed-tools: Rd Grep, Bash(git diff:*)\ndisallowed-tools: [Wrte, mcp__x__y]\n---\nSteps.\n";
        let (d, _, _) = analyze(&kind(CLAUDE), t);
        let got: Vec<(Code, Severity, &str, &str)> = d
            .iter()
            .map(|d| (d.code, d.severity, d.span.text(t), d.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    UnknownTool,
                    Warning,
                    "Rd",
                    "Claude Code has no tool `Rd`; this rule pre-approves nothing. Did you mean `Read`?"
                ),
                (
                    UnknownTool,
                    Warning,
                    "Wrte",
                    "Claude Code has no tool `Wrte`; this entry removes nothing. Did you mean `Write`?"
                ),
            ]
        );
        assert_eq!(
            d[0].suggestion().map(|e| (e.span.text(t), e.text.as_str())),
            Some(("Rd", "Read"))
        );
        // Only for Claude Code: opencode reads no tool list.
        assert_eq!(diags(&kind(OC), t), []);
    }

    #[test]
    fn skills_as_claude_code_expands_them() {
        let t = "---\nname: tdd\ndescription: d\nargument-hint: [file]\narguments: [file]\n---\n\nTest $file.\n```sh\nfor f in *; do echo $1; done\n```\n";
        let (d, _, decl) = analyze(&kind(CLAUDE), t);
        let got: Vec<(Code, Severity, &str)> = d.iter().map(|d| (d.code, d.severity, d.span.text(t))).collect();
        assert_eq!(
            got,
            [
                (Code::InvalidType, Severity::Warning, "[file]"),
                (Code::PlaceholderInCode, Severity::Warning, "$1"),
            ]
        );
        assert_eq!(
            d[1].message,
            "Claude Code replaces `$1` inside code too: it is the second argument (Claude Code counts from `$0`) and `/tdd one two three` puts `two` here. Write `\\$1` to keep it literal"
        );
        assert_eq!(decl.argument_hint.as_deref(), Some("file"));
        assert_eq!(decl.arguments, ["file"]);
        assert_eq!(
            decl.body.text(t),
            "Test $file.\n```sh\nfor f in *; do echo $1; done\n```\n"
        );
        // Not for a skill only opencode loads.
        let (d, _, decl) = analyze(&kind(OC), t);
        assert!(d.is_empty(), "{d:?}");
        assert!(decl.placeholders.is_empty());
    }

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

/// Completion in a skill's frontmatter: the keys not yet present, and the values of the
/// enumerated ones.
pub fn complete(text: &str, offset: usize) -> Vec<crate::analysis::complete::Item> {
    use crate::analysis::complete::{ItemKind, item, yaml_context_in};
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
        None => KEYS
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| !ctx.present.iter().any(|p| p == k))
            .map(|(i, (k, d))| {
                item(
                    k,
                    ItemKind::Key,
                    "skill field",
                    Some(d.to_string()),
                    if i < 6 { 0 } else { 1 },
                )
            })
            .collect(),
        Some("effort") => crate::analysis::claude::schema::EFFORTS
            .iter()
            .enumerate()
            .map(|(i, e)| item(e, ItemKind::Value, "effort", None, i as u8))
            .collect(),
        Some("context") => vec![item("fork", ItemKind::Value, "context", None, 0)],
        Some("shell") => vec![
            item("bash", ItemKind::Value, "shell", None, 0),
            item("powershell", ItemKind::Value, "shell", None, 1),
        ],
        Some("disable-model-invocation" | "user-invocable" | "background") => vec![
            item("true", ItemKind::Value, "boolean", None, 0),
            item("false", ItemKind::Value, "boolean", None, 1),
        ],
        _ => Vec::new(),
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
    use super::complete;

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
}
