//! A Claude Code agent's rules for a team policy (`analysis/policy/`).
//!
//! Claude Code decides a tool call in two steps: the agent must have the tool (its `tools` and
//! `disallowedTools`), then the project's permission rules decide (`.claude/settings.json`,
//! `.claude/settings.local.json`: deny first, then ask, then allow, whatever their order; §3),
//! and when none matches, the permission mode (the agent's `permissionMode`, else the settings'
//! `defaultMode`). Bash commands are split at `&&`, `||`, `;`, `|` and `&`, and every part must
//! be allowed. A path rule (`Read(./.env)`, `Edit(/src/**)`) is read as Claude Code 2.1.332
//! reads it (`path_patterns`, checked against the runtime by `tests/agents`), over paths
//! relative to the project. A `WebFetch(domain:x)` rule covers the URLs of that host; a `*` in
//! the domain is read as crossing `/`, which the ruleset's note says.

use super::agent::Agent;
use crate::analysis::policy::judge::{Ruleset, SourcedRule};
use crate::analysis::policy::solve::{Action, Order, Syntax};
use std::fmt::Write as _;

use crate::analysis::provenance::{Source, WhereIs};

/// The Claude Code tools a policy's `permission` is about: an opencode or Zuno permission key's
/// tools, or a Claude Code tool named as such (`Task` is `Agent`); `None` when no tool of
/// Claude Code corresponds.
pub fn tools_for(permission: &str) -> Option<Vec<&str>> {
    let mapped: &[&str] = match permission {
        "bash" | "shell" => &["Bash"],
        "edit" | "write" | "patch" | "apply_patch" => &["Edit", "Write", "MultiEdit", "NotebookEdit"],
        "read" => &["Read"],
        "glob" => &["Glob"],
        "grep" => &["Grep"],
        "webfetch" => &["WebFetch"],
        "websearch" | "web_search" => &["WebSearch"],
        "task" | "Task" => &["Agent"],
        "todowrite" | "todo_update" => &["TodoWrite"],
        "skill" => &["Skill"],
        "question" => &["AskUserQuestion"],
        _ if permission.starts_with("mcp__") || super::schema::TOOLS.contains(&permission) => {
            return Some(vec![permission]);
        }
        _ => return None,
    };
    Some(mapped.to_vec())
}

/// One permission rule of a settings file, as written (`Bash(git push:*)`), in its list.
#[derive(Clone, Debug)]
pub struct SettingsRule<'a> {
    pub action: Action,
    pub text: &'a str,
    pub source: Source,
}

/// `Tool(specifier)` split; `None` for a text that is no rule.
pub(super) fn split(rule: &str) -> Option<(&str, Option<&str>)> {
    let rule = rule.trim();
    match rule.split_once('(') {
        Some((tool, rest)) => Some((tool.trim(), Some(rest.strip_suffix(')')?))),
        None if !rule.is_empty() => Some((rule, None)),
        None => None,
    }
}

/// The tools whose rules are about file paths (gitignore-style specifiers).
const PATH_TOOLS: [&str; 7] = ["Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"];

/// Whether a rule naming `named` (a tool or an MCP glob) applies to `tool`. `Edit` rules cover
/// every edit tool, `Read` rules also `Glob` and `Grep`; `mcp__server` covers the server's tools.
pub(super) fn names_tool(named: &str, tool: &str) -> bool {
    const EDITS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];
    if named == tool
        || (named == "Edit" && EDITS.contains(&tool))
        || (named == "Read" && matches!(tool, "Glob" | "Grep"))
        || (named == "Task" && tool == "Agent")
    {
        return true;
    }
    if named.contains('*') {
        return crate::analysis::permission::wildcard_match(tool, named);
    }
    named.starts_with("mcp__") && !named["mcp__".len()..].contains("__") && tool.starts_with(&format!("{named}__"))
}

/// Where a rule's paths are read from: the project (Claude Code's working directory) and the
/// home directory.
#[derive(Clone, Copy, Debug)]
pub struct Places<'a> {
    pub root: &'a str,
    pub home: Option<&'a str>,
}

/// The wildcards over inputs a rule's specifier stands for (in [`Syntax::ClaudePath`] for the
/// path tools, else [`Syntax::Claude`]), and whether they are approximate (a domain wildcard's
/// `*` read as crossing `/`).
fn patterns_of(tool: &str, specifier: Option<&str>, places: Places) -> (Vec<String>, bool) {
    let path = PATH_TOOLS.contains(&tool);
    match specifier.map(str::trim) {
        None | Some("*") | Some("") => (vec![if path { "**" } else { "*" }.into()], false),
        Some(s) if matches!(tool, "Bash" | "PowerShell") => (vec![s.to_string()], false),
        Some(s) if path => (path_patterns(s, places), false),
        Some(s) => match s.strip_prefix("domain:").filter(|_| tool == "WebFetch") {
            Some(domain) => (
                ["http://", "https://"]
                    .iter()
                    .flat_map(|scheme| [format!("{scheme}{domain}"), format!("{scheme}{domain}/*")])
                    .collect(),
                domain.contains('*'),
            ),
            // Another specifier (`Agent(Explore)`, an MCP tool's) as a wildcard over the input.
            None => (vec![s.to_string()], s.contains('*')),
        },
    }
}

/// The paths a path specifier matches, as [`Syntax::ClaudePath`] patterns over paths relative
/// to the project: `//x` is the absolute `/x`,
/// `~/x` under the home, `/x` from the project's root; any other pattern (`x`, `./x`,
/// `secrets/**`) at any depth under it, as Claude Code 2.1.332 reads them (`Read(./.env)` also
/// denies `sub/.env`; the fact sheet's "relative to cwd" does not say so: the runtime test
/// `tests/agents` shows it). `**/` matches no folder too; a trailing `/` is a folder only; a
/// matched folder covers what it holds.
fn path_patterns(spec: &str, places: Places) -> Vec<String> {
    let (base, anchored) = if let Some(rest) = spec.strip_prefix("//") {
        (format!("/{rest}"), true)
    } else if let Some(rest) = spec.strip_prefix("~/") {
        match places.home {
            Some(home) => (format!("{}/{rest}", home.trim_end_matches('/')), true),
            None => (spec.to_string(), true),
        }
    } else if let Some(rest) = spec.strip_prefix('/') {
        (rest.to_string(), true)
    } else {
        (spec.trim_start_matches("./").to_string(), false)
    };
    let base = super::super::policy::judge::relative_path(&base, places.root);
    let mut out: Vec<String> = Vec::new();
    let mut add = |p: String| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    // An absolute `<dir>/**` over a folder that holds the project covers the project's paths too.
    if let Some(dir) = base.strip_suffix("/**")
        && base.starts_with('/')
        && format!("{}/", places.root.trim_end_matches('/')).starts_with(&format!("{dir}/"))
    {
        add("**".to_string());
    }
    let mut variants = vec![base.clone()];
    if !anchored && !base.starts_with("**/") {
        variants.push(format!("**/{base}"));
    }
    for v in variants.clone() {
        if let Some(rest) = v.strip_prefix("**/") {
            variants.push(rest.to_string());
        }
        if v.contains("/**/") {
            variants.push(v.replace("/**/", "/"));
        }
    }
    for v in variants {
        match v.strip_suffix('/') {
            // A folder only: what it holds.
            Some(folder) => add(format!("{folder}/**")),
            None => {
                add(v.clone());
                if !v.ends_with("**") {
                    add(format!("{v}/**"));
                }
            }
        }
    }
    out
}

/// Where the mode that decides unmatched calls comes from.
#[derive(Clone, Copy, Debug)]
pub struct DefaultMode<'a> {
    pub mode: &'a str,
    pub source: Source,
}

/// The decision for a call no rule matches, under `mode`, for `tool`.
fn unmatched(mode: &str, tool: &str) -> (Action, &'static str) {
    let read_only = matches!(tool, "Read" | "Glob" | "Grep" | "LSP" | "ToolSearch");
    let edits = matches!(tool, "Edit" | "Write" | "MultiEdit" | "NotebookEdit");
    match mode {
        "bypassPermissions" => (Action::Allow, "`bypassPermissions` runs it without asking"),
        "auto" => (Action::Allow, "`auto` lets a classifier allow it without asking"),
        "dontAsk" => (Action::Deny, "`dontAsk` refuses what is not allowed by a rule"),
        "acceptEdits" if edits => (Action::Allow, "`acceptEdits` accepts file edits without asking"),
        _ if read_only => (Action::Allow, "read-only tools run without asking"),
        "plan" if edits || tool == "Bash" => (Action::Deny, "`plan` mode does not change anything"),
        _ => (Action::Ask, "Claude Code asks"),
    }
}

/// The ruleset of Claude Code agent `agent` (written in file `file`) for `tool`, with the
/// project's settings rules and the mode that applies when the agent sets none.
pub fn ruleset(
    agent: &Agent,
    file: usize,
    tool: &str,
    settings: &[SettingsRule],
    mode: Option<DefaultMode>,
    places: Places,
) -> Ruleset {
    let at = |span| Source::File { file, span };
    if !super::card::tool_allowed(agent, tool) {
        let span = agent
            .disallowed
            .as_ref()
            .and_then(|l| {
                l.items()
                    .iter()
                    .find(|i| names_tool(split(&i.text).map_or("", |s| s.0), tool))
            })
            .map(|i| i.span)
            .unwrap_or(agent.name_span);
        return Ruleset {
            rules: Vec::new(),
            syntax: Syntax::Claude,
            order: Order::Claude {
                default: Action::Deny,
                split: false,
            },
            default_label: format!("the agent does not have `{tool}` (its `tools` and `disallowedTools`)"),
            default_source: at(span),
            home: None,
            root: None,
            note: None,
            assumed_default: false,
            unapplied: Vec::new(),
        };
    }
    let mut approximate = false;
    let mut rules = Vec::new();
    for r in settings {
        let Some((named, specifier)) = split(r.text) else {
            continue;
        };
        if !names_tool(named, tool) {
            continue;
        }
        let (patterns, approx) = patterns_of(tool, specifier, places);
        approximate |= approx;
        let list = match r.action {
            Action::Deny => "deny",
            Action::Ask => "ask",
            Action::Allow => "allow",
        };
        // Under Claude Code's order (deny, ask, allow; the first match), a rule read as several
        // wildcards is those wildcards side by side.
        for pattern in patterns {
            rules.push(SourcedRule {
                pattern,
                action: r.action,
                source: r.source,
                label: format!("`{}` in `permissions.{list}`", r.text),
            });
        }
    }
    let (mode, mode_source) = match agent.setting("permissionMode") {
        Some(s) => (s.value.as_str(), at(s.span)),
        None => mode.map_or(("default", Source::BuiltIn), |m| (m.mode, m.source)),
    };
    let (default, why) = unmatched(mode, tool);
    let path = PATH_TOOLS.contains(&tool);
    Ruleset {
        rules,
        syntax: if path { Syntax::ClaudePath } else { Syntax::Claude },
        order: Order::Claude {
            default,
            split: matches!(tool, "Bash" | "PowerShell"),
        },
        default_label: format!("no permission rule matches and the mode is `{mode}`: {why}"),
        default_source: mode_source,
        home: places.home.filter(|_| path).map(str::to_string),
        root: path.then(|| places.root.to_string()),
        note: approximate
            .then(|| format!("`{tool}` rules are read with `*` also crossing `/` (Claude Code's stops at `/`)")),
        assumed_default: false,
        unapplied: Vec::new(),
    }
}

/// The rules of a settings file Claude Code voids that would decide for the agent's tools, and
/// what voids the file: what the card says so that an answer that changed says why. Empty when
/// no such rule names a tool the agent has.
pub fn voided_section(a: &Agent, cause: Source, why: &str, rules: &[SettingsRule], where_is: WhereIs) -> String {
    let lost = applying(a, rules);
    if lost.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\nNot applied: Claude Code applies nothing of the settings file of these rules because of {} ({})\n\n",
        where_is(cause),
        why.replace('`', "'")
    );
    for action in [Action::Deny, Action::Ask, Action::Allow] {
        for r in lost.iter().filter(|r| r.action == action) {
            let _ = writeln!(
                out,
                "- {}: `{}` ({})",
                action.as_str(),
                r.text.replace('`', "'"),
                where_is(r.source)
            );
        }
    }
    out
}

/// The rules of `rules` that name a tool agent `a` has.
fn applying<'r, 'a>(a: &Agent, rules: &'r [SettingsRule<'a>]) -> Vec<&'r SettingsRule<'a>> {
    let has = |named: &str| {
        super::card::tool_allowed(a, named)
            || super::schema::TOOLS
                .iter()
                .any(|t| names_tool(named, t) && super::card::tool_allowed(a, t))
    };
    rules
        .iter()
        .filter(|r| split(r.text).is_some_and(|(named, _)| has(named)))
        .collect()
}

/// What decides for the agent's tools besides its grant: the project's settings rules that
/// name a tool it has (deny first, then ask, then allow, each in the order written) and the
/// settings' `defaultMode` when the agent sets no `permissionMode`. Empty when there is none.
pub fn settings_section(
    a: &Agent,
    rules: &[SettingsRule],
    default_mode: Option<(&str, Source)>,
    where_is: WhereIs,
) -> String {
    let mut out = String::new();
    if a.setting("permissionMode").is_none()
        && let Some((mode, source)) = default_mode
    {
        let _ = writeln!(
            out,
            "\nIts permission mode is the project's `defaultMode`: `{mode}` ({}).",
            where_is(source)
        );
    }
    let applying = applying(a, rules);
    if applying.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\nPermission rules for its tools (project settings: deny first, then ask, then allow)\n"
    );
    for action in [Action::Deny, Action::Ask, Action::Allow] {
        for r in applying.iter().filter(|r| r.action == action) {
            let _ = writeln!(
                out,
                "- {}: `{}` ({})",
                action.as_str(),
                r.text.replace('`', "'"),
                where_is(r.source)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent_of(text: &str) -> Agent {
        crate::analysis::claude::analyze(&crate::analysis::claude::AgentFile::project("x"), text).1
    }

    #[test]
    fn the_settings_rules_that_decide_for_its_tools() {
        use crate::analysis::claude::policy::SettingsRule;
        use crate::analysis::policy::solve::Action;
        let at = |n: u32| Source::File {
            file: 0,
            span: crate::analysis::Span::new(n as usize, n as usize + 1),
        };
        let rules = [
            SettingsRule {
                action: Action::Allow,
                text: "Bash(npm test:*)",
                source: at(1),
            },
            SettingsRule {
                action: Action::Deny,
                text: "Bash(rm -rf:*)",
                source: at(2),
            },
            SettingsRule {
                action: Action::Ask,
                text: "Edit(src/**)",
                source: at(3),
            },
            SettingsRule {
                action: Action::Deny,
                text: "WebFetch",
                source: at(4),
            },
        ];
        let where_is = |s: Source| match s {
            Source::File { span, .. } => format!("s.json:{}", span.start),
            Source::BuiltIn => "built-in".into(),
        };
        // Bash and Write (named by `Edit` rules): the WebFetch rule decides nothing for it.
        let a = agent_of("---\nname: a\ndescription: d\ntools: Bash, Write\n---\n");
        expect_test::expect![[r#"

            Its permission mode is the project's `defaultMode`: `acceptEdits` (s.json:9).

            Permission rules for its tools (project settings: deny first, then ask, then allow)

            - deny: `Bash(rm -rf:*)` (s.json:2)
            - ask: `Edit(src/**)` (s.json:3)
            - allow: `Bash(npm test:*)` (s.json:1)
        "#]]
        .assert_eq(&settings_section(&a, &rules, Some(("acceptEdits", at(9))), &where_is));
        // Its own mode wins; no tool a rule names: nothing to say.
        let own = agent_of("---\nname: a\ndescription: d\ntools: Read\npermissionMode: plan\n---\n");
        assert_eq!(
            settings_section(&own, &rules, Some(("acceptEdits", at(9))), &where_is),
            ""
        );
        // No `tools`: every rule names a tool it has.
        let all = agent_of("---\nname: a\ndescription: d\n---\n");
        assert_eq!(
            settings_section(&all, &rules, None, &where_is).matches("\n- ").count(),
            4
        );
    }

    #[test]
    fn rules_name_their_tools() {
        assert_eq!(split("Bash(git push:*)"), Some(("Bash", Some("git push:*"))));
        assert_eq!(split("Bash"), Some(("Bash", None)));
        assert_eq!(split("Bash(x"), None);
        assert!(names_tool("Edit", "Write") && names_tool("Task", "Agent") && !names_tool("Edit", "Read"));
        assert!(names_tool("mcp__github", "mcp__github__push") && !names_tool("mcp__git", "mcp__github__push"));
        assert!(names_tool("mcp__github__*", "mcp__github__push") && names_tool("*", "Bash"));
        assert!(names_tool("Read", "Glob") && names_tool("Read", "Grep") && !names_tool("Read", "Edit"));
        let places = Places {
            root: "/p",
            home: Some("/h"),
        };
        assert_eq!(patterns_of("Bash", Some("*"), places), (vec!["*".into()], false));
        assert_eq!(
            patterns_of("Bash", Some("git push:*"), places),
            (vec!["git push:*".into()], false)
        );
        assert_eq!(
            patterns_of("Edit", Some("src/**"), places),
            (vec!["src/**".into(), "**/src/**".into()], false)
        );
        assert_eq!(patterns_of("Read", None, places), (vec!["**".into()], false));
        assert_eq!(
            patterns_of("Agent", Some("Explore"), places),
            (vec!["Explore".into()], false)
        );
        assert_eq!(
            patterns_of("Agent", Some("domain:x"), places),
            (vec!["domain:x".into()], false)
        );
        assert_eq!(patterns_of("mcp__s__t", Some("a*"), places), (vec!["a*".into()], true));
        assert_eq!(
            patterns_of("WebFetch", Some("domain:example.com"), places),
            (
                vec![
                    "http://example.com".into(),
                    "http://example.com/*".into(),
                    "https://example.com".into(),
                    "https://example.com/*".into()
                ],
                false
            )
        );
        assert_eq!(tools_for("bash"), Some(vec!["Bash"]));
        assert_eq!(tools_for("shell"), Some(vec!["Bash"]));
        assert_eq!(
            tools_for("edit"),
            Some(vec!["Edit", "Write", "MultiEdit", "NotebookEdit"])
        );
        assert_eq!(tools_for("task"), Some(vec!["Agent"]));
        assert_eq!(tools_for("Task"), Some(vec!["Agent"]));
        assert_eq!(
            tools_for("mcp__github__create_issue"),
            Some(vec!["mcp__github__create_issue"])
        );
        assert_eq!(tools_for("WebFetch"), Some(vec!["WebFetch"]));
        assert_eq!(tools_for("Bash"), Some(vec!["Bash"]));
        assert_eq!(tools_for("external_directory"), None);
    }

    /// Claude Code's path rules (§3) as [`Syntax::ClaudePath`] patterns over paths relative to
    /// the project `/p`.
    #[test]
    fn path_rules_are_read_gitignore_style_from_the_project() {
        let places = Places {
            root: "/p",
            home: Some("/h"),
        };
        let cases: [(&str, &[&str]); 14] = [
            // Anchored at the project's root or outside it: `/`, `//`, `~/`.
            ("/src/**", &["src/**"]),
            ("/src/*.ts", &["src/*.ts", "src/*.ts/**"]),
            ("/config/prod.json", &["config/prod.json", "config/prod.json/**"]),
            ("//p/src/main.rs", &["src/main.rs", "src/main.rs/**"]),
            ("~/.ssh/**", &["/h/.ssh/**"]),
            // An absolute folder holding the project covers its paths.
            ("//**", &["**", "/**"]),
            ("//p/**", &["**"]),
            ("//q/**", &["/q/**"]),
            // Anything else, `./` or not, at any depth.
            ("./.env", &[".env", ".env/**", "**/.env", "**/.env/**"]),
            ("secrets/**", &["secrets/**", "**/secrets/**"]),
            ("*.key", &["*.key", "*.key/**", "**/*.key", "**/*.key/**"]),
            ("build/", &["build/**", "**/build/**"]),
            // `**/` also matches no folder.
            ("**/.env", &["**/.env", "**/.env/**", ".env", ".env/**"]),
            (
                "docs/**/draft.md",
                &[
                    "docs/**/draft.md",
                    "docs/**/draft.md/**",
                    "**/docs/**/draft.md",
                    "**/docs/**/draft.md/**",
                    "docs/draft.md",
                    "docs/draft.md/**",
                    "**/docs/draft.md",
                    "**/docs/draft.md/**",
                ],
            ),
        ];
        for (spec, want) in cases {
            assert_eq!(path_patterns(spec, places), want.to_vec(), "{spec}");
        }
    }

    #[test]
    fn the_mode_decides_what_no_rule_matches() {
        assert_eq!(unmatched("default", "Bash").0, Action::Ask);
        assert_eq!(unmatched("default", "Read").0, Action::Allow);
        assert_eq!(unmatched("acceptEdits", "Write").0, Action::Allow);
        assert_eq!(unmatched("acceptEdits", "Bash").0, Action::Ask);
        assert_eq!(unmatched("bypassPermissions", "Bash").0, Action::Allow);
        assert_eq!(unmatched("dontAsk", "Bash").0, Action::Deny);
        assert_eq!(unmatched("plan", "Edit").0, Action::Deny);
    }
}
