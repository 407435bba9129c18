//! What to show on hover, from the indexed workspace (no I/O): the effective agent on an agent
//! name, field and permission documentation on keys, and pattern explanations.

use crate::analysis::Span;
use crate::analysis::provenance::WhereIs;
use crate::analysis::syntax::path_at;
use crate::workspace::Workspace;

/// The hover text and the span it is about, for byte `offset` of file `id`.
pub fn at(ws: &Workspace, id: usize, offset: usize, where_is: WhereIs) -> Option<(String, Span)> {
    let f = &ws.files[id];
    if f.analysis.project().is_some() {
        return policy_at(ws, id, offset, where_is);
    }
    // An instruction file's first line: which runtimes read it here.
    let first = crate::analysis::text::first_line(&f.text);
    if offset <= first.end as usize
        && let Some((which, verdicts)) = ws.instruction_readers(id)
    {
        return Some((crate::analysis::instructions::describe(which, &verdicts), first));
    }
    // A dialect's own files: its hover, with who may do what a pattern under the cursor covers.
    if let Some(answer) = f.kind.dialect().spec().hover(ws, id, offset, where_is) {
        let mut h = answer?;
        if let Some((permission, pattern)) = &h.who_may {
            let who = who_may_pattern(ws, id, permission, pattern, where_is);
            if !who.is_empty() {
                h.text.truncate(h.text.trim_end().len());
                h.text.push_str(&who);
            }
        }
        return Some((h.text, h.span));
    }
    if f.analysis.skill().is_some() {
        return skill_at(ws, id, offset, where_is);
    }
    if let (Some(decl), Some(kind), crate::workspace::Role::Command { dir }) =
        (f.analysis.command(), f.kind.command(), &f.role)
    {
        // On a placeholder Claude Code fills in: what it becomes, and what the command sends.
        if let Some(p) = decl.placeholders.iter().find(|p| p.span.contains(offset)) {
            let body = f.text.get(decl.body.start as usize..).unwrap_or("");
            let md = kind
                .runtime
                .spec()
                .placeholder_hover(&kind.name, p, &f.text, body, &decl.arguments, None)?;
            return Some((md, p.span));
        }
        // On the `---` lines or the `agent` value: what the command does.
        let fm = crate::analysis::syntax::frontmatter::split(&f.text).frontmatter;
        let on_delims = fm
            .as_ref()
            .is_some_and(|fm| fm.open.contains(offset) || fm.close.is_some_and(|c| c.contains(offset)));
        let on_agent = decl.agent.as_ref().is_some_and(|(_, s)| s.contains(offset));
        // Without a frontmatter, the first line stands for the command, up to its end (where
        // the cursor sits after typing it), as every other span here counts its end.
        let first_line = Span::new(0, f.text.find('\n').unwrap_or(f.text.len()));
        if on_delims || on_agent || fm.is_none() && first_line.contains(offset) {
            let agents = ws.agents_for_command(kind.runtime, dir);
            let mode = decl
                .agent
                .as_ref()
                .and_then(|(a, _)| agents.iter().find(|(n, _)| n == a))
                .map(|(_, m)| m.as_str());
            let span = match (&decl.agent, &fm) {
                (Some((_, s)), _) if on_agent => *s,
                (_, Some(fm)) if fm.open.contains(offset) => fm.open,
                (_, Some(fm)) => fm.close.unwrap_or(fm.open),
                _ => first_line,
            };
            return Some((crate::analysis::command_card(kind, decl, mode, &f.text), span));
        }
        let root = f.analysis.parsed.root.as_ref()?;
        let path = path_at(root, offset);
        let last = path.last()?;
        if path.len() != 1 || !last.on_key {
            return None;
        }
        let (k, d) = crate::analysis::command_keys(kind.runtime)
            .iter()
            .find(|(k, _)| *k == last.key.name)?;
        return Some((format!("**`{k}`** (command field)\n\n{d}\n"), last.key.span));
    }
    None
}

/// How many agents a hover list shows before "and N more".
const LIST_CAP: usize = 12;

/// Hover on a `[[policy]]` table of `agent-lsp.toml`: which agents it holds for, which it fails
/// for, and why (the input, the deciding rule, where it is written).
fn policy_at(ws: &Workspace, id: usize, offset: usize, where_is: WhereIs) -> Option<(String, Span)> {
    use crate::analysis::policy::judge::Verdict;
    use std::fmt::Write as _;
    let f = &ws.files[id];
    let project = f.analysis.project()?;
    let (index, policy) = project
        .policies
        .iter()
        .enumerate()
        .find(|(_, p)| p.range.contains(offset))?;
    let dir = f.path.parent()?;
    let judged: Vec<_> = ws
        .judge_policies(id, dir)
        .into_iter()
        .filter(|j| j.policy == index)
        .collect();
    let inputs: Vec<String> = policy.inputs.iter().map(|(p, _)| format!("`{p}`")).collect();
    let mut out = format!(
        "### Policy `{}`\n\n`{}` on {}: at most **{}**",
        policy.id,
        policy.permission,
        inputs.join(", "),
        policy.at_most.as_str()
    );
    if let Some(m) = &policy.message {
        let _ = write!(out, " — {}", m.trim());
    }
    out.push_str("\n\n");
    let mut fails = Vec::new();
    let mut holds = Vec::new();
    let mut unproved = Vec::new();
    for j in &judged {
        let who = format!("`{}` ({})", j.agent, j.dialect.product());
        match &*j.verdict {
            Verdict::Violated { worst, .. } => {
                let (_, source, by) = j.ruleset.decider(worst.decider);
                fails.push(format!(
                    "- {who}: **{}** for `{}` {} — {by} ({})",
                    worst.action.as_str(),
                    j.tool,
                    crate::workspace::policy_check::show_input(&worst.witness),
                    where_is(source)
                ));
            }
            Verdict::Holds { deciders } => {
                let top = deciders.first().map_or("nothing matches", |o| o.action.as_str());
                holds.push(format!("- {who}: at most **{top}** for `{}`", j.tool));
            }
            Verdict::NotProved => unproved.push(format!("- {who}: not proved (too intricate)")),
        }
    }
    if judged.is_empty() {
        out.push_str("No agent of this project is selected by this policy.\n");
    }
    let mut section = |title: String, lines: &[String]| {
        if lines.is_empty() {
            return;
        }
        let _ = writeln!(out, "**{title}**\n");
        for l in lines.iter().take(LIST_CAP) {
            let _ = writeln!(out, "{l}");
        }
        if lines.len() > LIST_CAP {
            let _ = writeln!(out, "- … and {} more", lines.len() - LIST_CAP);
        }
        out.push('\n');
    };
    section(format!("Fails for {} of {}", fails.len(), judged.len()), &fails);
    section(format!("Holds for {} of {}", holds.len(), judged.len()), &holds);
    section("Not proved".to_string(), &unproved);
    Some((out, policy.range))
}

/// "Who may": every agent's strongest decision on an input `pattern` matches, for the hover on
/// a pattern key of a permission map.
fn who_may_pattern(ws: &Workspace, id: usize, permission: &str, pattern: &str, where_is: WhereIs) -> String {
    use std::fmt::Write as _;
    let Some(dir) = ws.who_dir_of_file(id) else {
        return String::new();
    };
    let mut rows = ws.who_may_pattern(&dir, permission, pattern);
    // Within a decision, the agents a written rule decides first: they are what can be edited
    // (the built-in agents' defaults follow).
    rows.sort_by_key(|w| (std::cmp::Reverse(w.action), w.rule.is_none()));
    if rows.is_empty() {
        return String::new();
    }
    let count = |a: &str| rows.iter().filter(|w| w.action.as_str() == a).count();
    let mut out = format!(
        "\n\n**Who may** (`{permission}` on inputs `{pattern}` matches): {} allow, {} ask, {} deny\n\n",
        count("allow"),
        count("ask"),
        count("deny")
    );
    for w in rows.iter().take(LIST_CAP) {
        let at = w.rule.map(|s| format!(" ({})", where_is(s))).unwrap_or_default();
        let _ = writeln!(
            out,
            "- `{}` ({}): **{}** for {} — {}{at}",
            w.agent,
            w.dialect.product(),
            w.action.as_str(),
            crate::workspace::policy_check::show_input(&w.input),
            w.by
        );
    }
    if rows.len() > LIST_CAP {
        let _ = writeln!(out, "- … and {} more", rows.len() - LIST_CAP);
    }
    out
}

/// Hover in a `SKILL.md`: the skill (who loads it, every file of the project that defines the
/// name; for Claude Code, what `/name one two three` sends) on its `name` or its `---` line, and
/// on a placeholder Claude Code fills in; documentation on keys.
fn skill_at(ws: &Workspace, id: usize, offset: usize, where_is: WhereIs) -> Option<(String, Span)> {
    use crate::analysis::provenance::Source;
    let f = &ws.files[id];
    let decl = f.analysis.skill()?;
    let kind = f.kind.skill()?;
    let folder = f.path.parent().map(|p| p.display().to_string());
    let body = f.text.get(decl.body.start as usize..).unwrap_or("");
    if let Some(p) = decl.placeholders.iter().find(|p| p.span.contains(offset)) {
        let md = kind.loaders.iter().find_map(|d| {
            d.spec()
                .placeholder_hover(&kind.folder, p, &f.text, body, &decl.arguments, folder.as_deref())
        })?;
        return Some((md, p.span));
    }
    let on_name = decl.span.contains(offset) || (offset < 3 && f.text.starts_with("---"));
    if !on_name {
        let root = f.analysis.parsed.root.as_ref()?;
        let path = path_at(root, offset);
        let last = path.last()?;
        if path.len() != 1 || !last.on_key {
            return None;
        }
        let (k, d) = crate::analysis::skill_keys().find(|(k, _)| *k == last.key.name)?;
        return Some((format!("**`{k}`** (skill field)\n\n{d}\n"), last.key.span));
    }
    let name = decl.name.clone().unwrap_or_else(|| kind.folder.clone());
    let mut md = format!("### `{name}`: skill\n");
    if let Some(d) = &decl.description {
        md.push_str(&format!("\n{}\n", d.trim()));
    }
    let loaders: Vec<&str> = kind.loaders.iter().map(|d| d.product()).collect();
    md.push_str(&match (&kind.misplaced, loaders.is_empty()) {
        (Some(to), _) => format!("\n**Not loaded by any runtime here**: move it to {to}.\n"),
        (None, true) => "\nNot loaded by any runtime here.\n".to_string(),
        (None, false) => format!("\nLoaded by {}.\n", loaders.join(", ")),
    });
    let crate::workspace::Role::Skill { dir } = &f.role else {
        return None;
    };
    let same: Vec<String> = ws
        .files
        .iter()
        .enumerate()
        .filter(|(_, g)| g.live && matches!(&g.role, crate::workspace::Role::Skill { dir: d } if d == dir))
        .filter(|(_, g)| g.analysis.skill().and_then(|s| s.name.as_deref()) == Some(name.as_str()))
        .map(|(i, g)| {
            where_is(Source::File {
                file: i,
                span: g.analysis.skill().map(|s| s.span).unwrap_or_default(),
            })
        })
        .collect();
    if same.len() > 1 {
        md.push_str(&format!(
            "\nDefined {} times in this project ({}); opencode keeps one, not deterministically.\n",
            same.len(),
            same.join("; ")
        ));
    }
    // What each runtime that loads it adds (what `/name` sends, who may load it).
    for d in &kind.loaders {
        md.push_str(&d.spec().skill_notes(ws, id, where_is).unwrap_or_default());
    }
    let span = if decl.span.contains(offset) {
        decl.span
    } else {
        Span::new(0, 3.min(f.text.len()))
    };
    Some((md, span))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::Options;
    use std::fs;

    fn setup() -> (tempfile::TempDir, Workspace) {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        fs::create_dir_all(root.join(".opencode/agents")).unwrap();
        fs::write(
            root.join("opencode.json"),
            r#"{"default_agent": "rev", "agent": {"rev": {"model": "a/b"}}, "permission": {"bash": {"git push *": "deny", "*": "ask"}, "task": {"rev": "allow"}}}"#,
        )
        .unwrap();
        fs::write(
            root.join(".opencode/agents/rev.md"),
            "---\nmode: primary\ntemperature: 0.2\n---\nReview.\n",
        )
        .unwrap();
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        (t, ws)
    }

    fn hover(ws: &Workspace, file: &str, needle: &str, delta: usize) -> Option<(String, String)> {
        let id = ws.files.iter().position(|f| f.path.ends_with(file)).unwrap();
        let text = &ws.files[id].text;
        let offset = text.find(needle).unwrap() + delta;
        let wi = |s: crate::analysis::provenance::Source| format!("{s:?}");
        at(ws, id, offset, &wi).map(|(md, span)| (md, span.text(text).to_string()))
    }

    #[test]
    fn agent_cards_on_names() {
        let (_t, ws) = setup();
        let (md, under) = hover(&ws, "opencode.json", "\"rev\", \"agent\"", 2).unwrap();
        assert_eq!(under, "\"rev\"");
        assert!(md.contains("### `rev`: opencode primary agent"), "{md}");
        assert!(md.contains("| temperature | 0.2 |"), "{md}");
        let (md, under) = hover(&ws, "opencode.json", "\"rev\": {\"model", 1).unwrap();
        assert_eq!(under, "\"rev\"");
        // This file sets the model; the card says what it changed.
        assert!(md.contains("**This file changes:**") && md.contains("model"), "{md}");
        let (md, _) = hover(&ws, "rev.md", "---", 1).unwrap();
        assert!(md.contains("### `rev`") && md.contains("mode all → primary"), "{md}");
        // A task pattern naming an agent.
        let (md, _) = hover(&ws, "opencode.json", "\"rev\": \"allow\"", 1).unwrap();
        assert!(md.contains("### `rev`"), "{md}");
    }

    #[test]
    fn docs_on_every_config_section() {
        let t = tempfile::tempdir().unwrap();
        fs::write(
            t.path().join("opencode.json"),
            r#"{"share": "auto", "lsp": {"rust": {"command": ["ra"], "env": {}}}, "mcp": {"docs": {"type": "remote", "url": "u"}}}"#,
        )
        .unwrap();
        let ws = Workspace::load(&[t.path().to_path_buf()], &Options::isolated()).unwrap();
        // A key deep in a section, and a value: the field's meaning and what it takes.
        let (text, on) = hover(&ws, "opencode.json", "\"env\"", 2).unwrap();
        assert_eq!(on, "\"env\"");
        assert!(text.starts_with("**`env`** (a language server)"), "{text}");
        assert!(text.contains("Value: an object whose values are strings."), "{text}");
        let (text, on) = hover(&ws, "opencode.json", "\"remote\"", 2).unwrap();
        assert_eq!(on, "\"remote\"");
        assert!(
            text.starts_with("**`type`** (a local MCP server or a remote MCP server)"),
            "{text}"
        );
        assert!(
            text.contains("Required: opencode refuses to start without it."),
            "{text}"
        );
        let (text, _) = hover(&ws, "opencode.json", "\"share\"", 2).unwrap();
        assert!(text.contains("Value: \"manual\", \"auto\" or \"disabled\"."), "{text}");
        // A name of the user's (an MCP server's) is not a field.
        assert!(hover(&ws, "opencode.json", "\"docs\"", 2).is_none());
    }

    #[test]
    fn docs_on_keys_and_patterns() {
        let (_t, ws) = setup();
        let (md, under) = hover(&ws, "rev.md", "temperature", 2).unwrap();
        assert_eq!(under, "temperature");
        assert!(md.contains("**`temperature`**: `number`"), "{md}");
        let (md, _) = hover(&ws, "opencode.json", "\"bash\"", 2).unwrap();
        assert!(md.contains("**`bash`** permission"), "{md}");
        let (md, _) = hover(&ws, "opencode.json", "\"git push *\"", 2).unwrap();
        assert!(md.contains("Also matches `git push` with nothing after it"), "{md}");
        assert!(md.contains("**Never decides**"), "{md}");
        let (md, _) = hover(&ws, "opencode.json", "\"*\": \"ask\"", 1).unwrap();
        assert!(
            md.contains("Matches every input.") && !md.contains("Never decides"),
            "{md}"
        );
        // Nothing on a plain value.
        assert!(hover(&ws, "rev.md", "0.2", 1).is_none());
    }

    /// A pattern key of a Zuno agent's `permission.rules`: what it matches, whether a later rule
    /// shadows it, and who may run what it matches, in every dialect of the project.
    #[test]
    fn zuno_pattern_keys_say_what_they_match_and_who_may() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        fs::write(
            root.join("zuno.json"),
            r#"{"agents": {"lead": {"mode": "primary", "description": "Leads", "permission": {"mode": "standard", "rules": {"shell": {"git push*": "deny", "*": "ask", "git status": "allow"}}}}}}"#,
        )
        .unwrap();
        fs::write(
            root.join("opencode.json"),
            r#"{"agent": {"pusher": {"mode": "subagent", "description": "Pushes", "permission": {"bash": {"git *": "allow"}}}}}"#,
        )
        .unwrap();
        fs::create_dir_all(root.join(".claude/agents")).unwrap();
        fs::write(
            root.join(".claude/agents/helper.md"),
            "---\nname: helper\ndescription: Helps\ntools: Bash\n---\nHelp.\n",
        )
        .unwrap();
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let (md, under) = hover(&ws, "zuno.json", "\"git push*\"", 2).unwrap();
        assert_eq!(under, "\"git push*\"");
        assert!(md.starts_with("`shell` rule `\"git push*\": deny`"), "{md}");
        assert!(
            md.contains("**Never decides**: the later rule `shell` `\"*\": ask`"),
            "{md}"
        );
        assert!(
            md.contains("**Who may** (`shell` on inputs `git push*` matches)"),
            "{md}"
        );
        // Zuno's `shell` is opencode's `bash`: the opencode agent is listed with its rule.
        assert!(md.contains("- `pusher` (opencode): **allow** for `git push`"), "{md}");
        assert!(md.contains("- `lead` (Zuno): **ask** for `git push`"), "{md}");
        // The project's Claude Code agents too (Claude Code asks for `Bash` in the default mode).
        assert!(md.contains("- `helper` (Claude Code): **ask** for `git push`"), "{md}");
        let (md, _) = hover(&ws, "zuno.json", "\"git status\"", 2).unwrap();
        assert!(
            md.contains("Matches exactly `git status`.") && !md.contains("Never decides"),
            "{md}"
        );
    }

    /// A Bash rule of Claude Code's settings: the agents it affects, and who may run the commands
    /// it matches, in every dialect.
    #[test]
    fn a_settings_bash_rule_says_who_may_run_what_it_matches() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        fs::create_dir_all(root.join(".claude/agents")).unwrap();
        fs::write(
            root.join(".claude/settings.json"),
            r#"{"permissions": {"ask": ["Bash(git push:*)"], "deny": ["Read(./.env)"]}}"#,
        )
        .unwrap();
        fs::write(
            root.join(".claude/agents/helper.md"),
            "---\nname: helper\ndescription: Helps\ntools: Bash, Read\n---\nHelp.\n",
        )
        .unwrap();
        fs::write(
            root.join("opencode.json"),
            r#"{"agent": {"pusher": {"mode": "subagent", "description": "Pushes", "permission": {"bash": {"git *": "allow"}}}}}"#,
        )
        .unwrap();
        let ws = Workspace::load(&[root.to_path_buf()], &Options::isolated()).unwrap();
        let (md, under) = hover(&ws, "settings.json", "\"Bash(git push", 2).unwrap();
        assert_eq!(under, "\"Bash(git push:*)\"");
        assert!(
            md.contains("Affects these agents of the project (their tools include `Bash`): `helper`"),
            "{md}"
        );
        assert!(
            md.contains("**Who may** (`bash` on inputs `git push *` matches)"),
            "{md}"
        );
        assert!(
            md.contains("- `pusher` (opencode): **allow** for `git push` — `bash` \"git *\": allow"),
            "{md}"
        );
        assert!(
            md.contains("- `helper` (Claude Code): **ask** for `git push` — `Bash(git push:*)` in `permissions.ask`"),
            "{md}"
        );
        // A path rule: no "who may" (its specifier is not an opencode pattern).
        let (md, _) = hover(&ws, "settings.json", "\"Read(", 2).unwrap();
        assert!(!md.contains("Who may"), "{md}");
    }
}
