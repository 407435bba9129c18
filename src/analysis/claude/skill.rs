//! Skills as Claude Code 2.1.332 loads them (`claude-code.md` §5): every field optional; the
//! command is named after `name` (the folder's name stays an alias), after the folder without
//! one; `description` falls back to the first paragraph; a plugin's skills run as
//! `/plugin:name`. Its own keys, and its reading of the body (placeholders, shown description,
//! argument hint, tool lists), after the Agent Skills checks of [`crate::analysis::skill`].

use super::{command, prompt, read};
use crate::analysis::complete::{Item, ItemKind, item};
use crate::analysis::diagnostic::Diagnostic;
use crate::analysis::dialect::Dialect;
use crate::analysis::skill::{self, Loader, Outcome, SkillDecl, SkillKind};
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

/// Claude Code's skill rules, for the shared checks.
pub const LOADER: Loader = Loader {
    runtime: Dialect::Claude,
    needs_name: false,
    folder_alias: true,
    needs_description: false,
    without_description: "Claude Code falls back to the first paragraph",
    keys: KEYS,
    values,
    duplicate: "Claude Code keeps one",
    read,
};

/// A `SKILL.md`'s frontmatter as Claude Code reads it (as an agent's, [`read::read`]): its block
/// (closed by the first `---` anywhere), the first pass, the retry that quotes values. A
/// frontmatter neither reads (a CRLF file is never rescued) leaves the skill with none of its
/// settings; a list or a single value reads as empty.
pub fn read(text: &str) -> skill::Reading {
    let r = read::read(text);
    let outcome = match r.outcome {
        read::Outcome::NoFrontmatter => Outcome::NoFrontmatter,
        read::Outcome::FirstPass => Outcome::Parsed,
        read::Outcome::Retry => Outcome::Retry,
        read::Outcome::Failed => Outcome::Failed,
        read::Outcome::NotMapping if r.first_errors.is_empty() => Outcome::Parsed,
        read::Outcome::NotMapping => Outcome::Retry,
    };
    let crlf = r.block.as_ref().is_some_and(|b| b.yaml.text(text).contains("\r\n"));
    skill::Reading {
        outcome,
        open: r.block.as_ref().map(|b| b.open),
        retried: if outcome == Outcome::Retry {
            r.quoted
        } else {
            Vec::new()
        },
        // What it cannot read: what the retry rejects, else what the first pass rejects.
        error: r.retry_errors.into_iter().chain(r.first_errors).next(),
        note: (outcome == Outcome::Failed && crlf).then(|| {
            "the file has CRLF line endings, so the retry, which quotes values with `: `, does nothing for it"
                .to_string()
        }),
        parsed: r.parsed,
    }
}

/// The keys of Claude Code's skills beyond the Agent Skills format's.
pub const KEYS: &[(&str, &str)] = &[
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

/// The values of Claude Code's enumerated skill keys.
fn values(key: &str) -> Vec<Item> {
    match key {
        "effort" => super::schema::EFFORTS
            .iter()
            .enumerate()
            .map(|(i, e)| item(e, ItemKind::Value, "effort", None, i as u8))
            .collect(),
        "context" => vec![item("fork", ItemKind::Value, "context", None, 0)],
        "shell" => vec![
            item("bash", ItemKind::Value, "shell", None, 0),
            item("powershell", ItemKind::Value, "shell", None, 1),
        ],
        "disable-model-invocation" | "user-invocable" | "background" => vec![
            item("true", ItemKind::Value, "boolean", None, 0),
            item("false", ItemKind::Value, "boolean", None, 1),
        ],
        _ => Vec::new(),
    }
}

/// The checks of a skill Claude Code loads, after the shared ones: the body as it reads it (and
/// its links), the placeholders it fills in (those inside code reported), the description it
/// shows, and what it reads of `allowed-tools`, `disallowed-tools`, `argument-hint` and
/// `arguments`.
pub fn check(kind: &SkillKind, text: &str, decl: &mut SkillDecl, out: &mut Vec<Diagnostic>) {
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
        listing_cut(map, out);
        fork(map, out);
        super::hooks::in_frontmatter(map, text, "skill", out);
        for key in ["allowed-tools", "disallowed-tools"] {
            if let Some(v) = map.value(key) {
                command::tools(key, v, map, text, out);
            }
        }
        if let Some(v) = map.value("argument-hint")
            && !matches!(v.value, Value::Null | Value::Str(_))
            && let Some(shown) = prompt::argument_hint(Some(v))
        {
            command::shown_differently(text, "argument-hint", v, &shown, out);
        }
    }
    decl.argument_hint = prompt::argument_hint(map.and_then(|m| m.value("argument-hint")));
    decl.arguments = prompt::argument_names(map.and_then(|m| m.value("arguments")));
    decl.placeholders = prompt::placeholders(text, decl.body, &decl.arguments);
    out.extend(command::placeholders_in_code(&kind.folder, text, &decl.placeholders));
    out.extend(command::argument_indexes(
        &kind.folder,
        text,
        &decl.placeholders,
        decl.argument_hint.as_deref(),
        &decl.arguments,
    ));
}

/// `context` and `agent`: only `context: fork` forks, and only then is `agent` read (2.1.332:
/// anything else runs the skill inline, without a word). Whether the agent exists is a
/// cross-file question (`claude::project::check_skill_agents`).
fn fork(map: &crate::analysis::syntax::Map, out: &mut Vec<Diagnostic>) {
    use crate::analysis::diagnostic::{Effect, Severity};
    use crate::analysis::rules::Code;
    let context = map.value("context");
    let forks = context.and_then(Node::as_str) == Some("fork");
    if let Some(c) = context.filter(|c| !forks && !matches!(c.value, Value::Null)) {
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            c.span,
            format!(
                "`context` takes only `fork`, not {}: Claude Code runs this skill inline, in the conversation",
                c.display()
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if c.as_str().is_some_and(|s| strsim::levenshtein(s, "fork") <= 2) {
            d = d.with_suggestion(c.span, "fork");
        }
        out.push(d);
    }
    if let Some(a) = map.get("agent").filter(|_| !forks) {
        out.push(
            Diagnostic::new(
                Code::IgnoredField,
                a.key.span,
                "`agent` is read only with `context: fork`: Claude Code runs this skill inline and never starts the agent".to_string(),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
    }
}

/// The most of `description` (then ` - ` and `when_to_use`) Claude Code 2.1.332 shows the
/// model in its skill listing, in UTF-16 units: past it, the first 1,535 and `…` (measured).
const LISTING_MAX: usize = 1536;

/// A description (with `when_to_use`) longer than the listing shows: a warning on the value
/// where the cut falls.
fn listing_cut(map: &crate::analysis::syntax::Map, out: &mut Vec<Diagnostic>) {
    use crate::analysis::diagnostic::{Effect, Severity};
    use crate::analysis::rules::Code;
    let units = |s: &str| s.encode_utf16().count();
    let Some(desc) = map.value("description") else { return };
    let Some(d) = desc.as_str() else { return };
    let when = map
        .value("when_to_use")
        .filter(|w| w.as_str().is_some_and(|s| !s.is_empty()));
    let total = units(d) + when.and_then(Node::as_str).map_or(0, |w| 3 + units(w));
    if total <= LISTING_MAX {
        return;
    }
    let (at, what) = match when {
        Some(w) if units(d) + 3 < LISTING_MAX => (w, "`description` and `when_to_use` together"),
        _ => (desc, "`description`"),
    };
    out.push(
        Diagnostic::new(
            Code::InvalidValue,
            at.span,
            format!(
                "{what} come to {total} characters: Claude Code's skill listing shows the model only the first {} and `…`, so the rest never helps it choose this skill",
                LISTING_MAX - 1
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::diagnostic::Severity;
    use crate::analysis::rules::Code;

    #[test]
    fn agent_is_read_only_when_the_skill_forks() {
        let found = |fm: &str| {
            let t = format!("---\nname: tdd\ndescription: d\n{fm}---\nBody\n");
            let mut out = Vec::new();
            check(&kind(&[Dialect::Claude]), &t, &mut SkillDecl::default(), &mut out);
            out.iter()
                .map(|d| (d.code, d.span.text(&t).to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(found("context: fork\nagent: Explore\n"), []);
        assert_eq!(found("agent: Explore\n"), [(Code::IgnoredField, "agent".to_string())]);
        assert_eq!(
            found("context: forkk\nagent: Explore\n"),
            [
                (Code::InvalidValue, "forkk".to_string()),
                (Code::IgnoredField, "agent".to_string())
            ]
        );
    }

    #[test]
    fn the_listing_cuts_a_long_description() {
        let long = "d".repeat(1536);
        let cut = |fm: &str| {
            let t = format!("---\nname: tdd\n{fm}---\nBody\n");
            let mut out = Vec::new();
            check(&kind(&[Dialect::Claude]), &t, &mut SkillDecl::default(), &mut out);
            out.iter()
                .map(|d| (d.code, d.span.text(&t).chars().take(12).collect::<String>()))
                .collect::<Vec<_>>()
        };
        assert_eq!(cut(&format!("description: {long}\n")), []);
        assert_eq!(
            cut(&format!("description: {long}x\n")),
            [(Code::InvalidValue, "dddddddddddd".to_string())]
        );
        // With `when_to_use`: ` - ` joins them, and the cut falls in `when_to_use`.
        let half = "d".repeat(800);
        assert_eq!(
            cut(&format!("description: {half}\nwhen_to_use: {}\n", "w".repeat(734))),
            [(Code::InvalidValue, "wwwwwwwwwwww".to_string())]
        );
        assert_eq!(
            cut(&format!("description: {half}\nwhen_to_use: {}\n", "w".repeat(733))),
            []
        );
        // The warning sits where the cut falls: in `when_to_use` when the description and ` - `
        // are shown whole (1,532 + 3 units), else in the description (1,533: the cut falls in
        // ` - `, and nothing of `when_to_use` is shown).
        for (d, on) in [(1532, "ww"), (1533, "dddddddddddd")] {
            assert_eq!(
                cut(&format!("description: {}\nwhen_to_use: ww\n", "d".repeat(d))),
                [(Code::InvalidValue, on.to_string())],
                "{d}"
            );
        }
        // UTF-16 units: an emoji counts two.
        assert_eq!(cut(&format!("description: {}\n", "😀".repeat(768))), []);
        assert_eq!(cut(&format!("description: {}x\n", "😀".repeat(768))).len(), 1);
    }

    fn kind(loaders: &[Dialect]) -> SkillKind {
        SkillKind {
            folder: "tdd".into(),
            loaders: loaders.to_vec(),
            namespace: None,
            misplaced: None,
            family: Dialect::Opencode,
        }
    }

    /// The shared checks, then Claude Code's when it loads the skill, as `analyze_skill` in
    /// `analysis/mod.rs` composes them (beside Claude Code, a stand-in for a runtime that needs a
    /// name, as opencode).
    fn analyze(kind: &SkillKind, text: &str) -> (Vec<Diagnostic>, crate::analysis::syntax::Parsed, SkillDecl) {
        let needs_name = Loader {
            runtime: Dialect::Opencode,
            needs_name: true,
            folder_alias: false,
            needs_description: false,
            without_description: "hides it",
            keys: &[],
            values: |_| Vec::new(),
            duplicate: "keeps one",
            read: skill::strict,
        };
        let (mut out, parsed, mut decl) = crate::analysis::skill::analyze(kind, text, &[needs_name, LOADER]);
        if kind.loaders.contains(&Dialect::Claude) {
            check(kind, text, &mut decl, &mut out);
        }
        out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
        (out, parsed, decl)
    }

    fn diags(k: &SkillKind, text: &str) -> Vec<(Code, Severity, String)> {
        analyze(k, text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    const OC: &[Dialect] = &[Dialect::Opencode];
    const CLAUDE: &[Dialect] = &[Dialect::Claude, Dialect::Opencode];

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
                (Code::InvalidType, Severity::Info, "[file]"),
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
}
