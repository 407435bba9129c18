use super::*;
use crate::analysis::claude::{AgentFile, Source, analyze};

/// `(code, severity, text under the span)` of every diagnostic of a project agent.
fn diags(text: &str) -> Vec<(Code, Severity, String)> {
    diags_as(&AgentFile::project("x"), text)
}

fn diags_as(kind: &AgentFile, text: &str) -> Vec<(Code, Severity, String)> {
    analyze(kind, text)
        .0
        .into_iter()
        .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
        .collect()
}

fn agent(text: &str) -> Agent {
    analyze(&AgentFile::project("x"), text).1
}

fn plugin() -> AgentFile {
    AgentFile {
        source: Source::Plugin { plugin: "tools".into() },
        stem: "file-name".into(),
    }
}

const OK: &str = "---\nname: rev\ndescription: Reviews code\n";

fn with(extra: &str) -> String {
    format!("{OK}{extra}---\nBody\n")
}

#[test]
fn a_complete_agent_is_clean() {
    let t = with(
        "tools: Read, Grep, Agent(Explore), mcp__github__get_issue\ndisallowedTools: mcp__*\nmodel: claude-opus-5\npermissionMode: manual\neffort: MED\nmaxTurns: \"1,000\"\nmemory: local\nisolation: remote\nbackground: \"true\"\ncolor: pink\nskills: [a, b]\nomitClaudeMd: true\ninitialPrompt: Start\nautoCompactWindow: 200000\nmcpServers:\n  - github\n  - pw:\n      type: stdio\n      command: npx\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: '\"$CLAUDE_PROJECT_DIR\"/x.sh'\nexperimental:\n  cacheTtl: 1h\n",
    );
    assert_eq!(diags(&t), []);
    let a = agent(&t);
    assert!(a.loaded());
    assert_eq!(a.setting("permissionMode").unwrap().value, "default");
    assert_eq!(a.setting("effort").unwrap().value, "medium");
    assert_eq!(a.setting("maxTurns").unwrap().value, "1000");
    assert_eq!(a.agent_refs.len(), 1);
}

#[test]
fn the_name_decides_whether_it_is_an_agent() {
    // No name: a reference document (info), nothing else checked.
    assert_eq!(
        diags("---\ndescription: d\nbogus: 1\n---\n"),
        [(Code::MissingField, Severity::Info, "---".into())]
    );
    for empty in ["", " \"\"", " 0", " false", " null"] {
        let t = format!("---\nname:{empty}\ndescription: d\n---\n");
        let d = diags(&t);
        assert_eq!(d.len(), 1, "{t}");
        assert_eq!((d[0].0, d[0].1), (Code::MissingField, Severity::Info), "{t}");
    }
    // Other non-strings skip the file: an error on the value.
    assert_eq!(
        diags("---\nname: [agent-name]\ndescription: d\n---\n"),
        [(Code::MissingField, Severity::Error, "[agent-name]".into())]
    );
    assert_eq!(
        diags("---\nname: 123\ndescription: d\n---\n"),
        [(Code::MissingField, Severity::Error, "123".into())]
    );
    for bad in ["-rev", "team:rev", "team\u{ff1a}rev"] {
        let t = format!("---\nname: {bad}\ndescription: d\n---\n");
        assert_eq!(diags(&t), [(Code::InvalidName, Severity::Error, bad.into())], "{t}");
    }
    let long = "a".repeat(257);
    assert_eq!(
        diags(&format!("---\nname: {long}\ndescription: d\n---\n"))[0].0,
        Code::InvalidName
    );
    // What the loader accepts.
    for good in ["Rev Iewer", "rev_1", &"a".repeat(256), "rev-"] {
        assert_eq!(
            diags(&format!("---\nname: {good}\ndescription: d\n---\n")),
            [],
            "{good}"
        );
    }
    // Keys are case-sensitive.
    assert_eq!(diags("---\nName: rev\ndescription: d\n---\n")[0].0, Code::MissingField);
}

#[test]
fn the_description_is_required_and_a_string() {
    assert_eq!(
        diags("---\nname: rev\n---\n"),
        [(Code::MissingField, Severity::Error, "rev".into())]
    );
    for bad in ["42", "true", "[a]", "\"\"", ""] {
        let t = format!("---\nname: rev\ndescription: {bad}\n---\n");
        let d = diags(&t);
        assert_eq!((d[0].0, d[0].1), (Code::MissingField, Severity::Error), "{t}");
    }
    // Whitespace only is accepted; `\n` becomes a line break.
    assert_eq!(diags("---\nname: rev\ndescription: \" \"\n---\n"), []);
    assert_eq!(
        agent("---\nname: rev\ndescription: a\\nb\n---\n").description.unwrap(),
        "a\nb"
    );
}

#[test]
fn invalid_values_are_dropped_with_a_warning() {
    let cases: &[(&str, Code, &str)] = &[
        ("permissionMode: Plan\n", Code::InvalidValue, "Plan"),
        ("permissionMode: true\n", Code::InvalidValue, "true"),
        ("effort: ultracode\n", Code::InvalidValue, "ultracode"),
        ("effort: \" Medium \"\n", Code::InvalidValue, "\" Medium \""),
        ("maxTurns: 0\n", Code::InvalidValue, "0"),
        ("maxTurns: 2.5\n", Code::InvalidValue, "2.5"),
        ("maxTurns: abc\n", Code::InvalidValue, "abc"),
        ("memory: Project\n", Code::InvalidValue, "Project"),
        ("isolation: container\n", Code::InvalidValue, "container"),
        ("background: yes\n", Code::InvalidValue, "yes"),
        ("color: teal\n", Code::InvalidColor, "teal"),
        ("color: Red\n", Code::InvalidColor, "Red"),
        ("autoCompactWindow: 5000\n", Code::InvalidValue, "5000"),
        ("initialPrompt: \"  \"\n", Code::InvalidValue, "\"  \""),
        ("model: 42\n", Code::InvalidType, "42"),
        ("model: sonet\n", Code::InvalidModel, "sonet"),
        (
            "mcpServers: [{pw: {type: carrier}}]\n",
            Code::InvalidValue,
            "{type: carrier}",
        ),
        ("mcpServers: [42]\n", Code::InvalidType, "42"),
        ("tool: Read\n", Code::UnknownKey, "tool"),
        ("outputStyle: x\n", Code::UnknownKey, "outputStyle"),
    ];
    for (line, code, under) in cases {
        let t = with(line);
        assert_eq!(diags(&t), [(*code, Severity::Warning, under.to_string())], "{line}");
        assert!(agent(&t).loaded(), "{line}");
    }
    // What the loader accepts leniently.
    for line in [
        "permissionMode: \n",
        "effort: 7\n",
        "effort: \"7 levels\"\n",
        "effort: 2.5\n",
        "maxTurns: \"20 turns\"\n",
        "maxTurns: \"1e2\"\n",
        "model: INHERIT\n",
        "model: gpt-4o\n",
        "background: false\n",
        "omitClaudeMd: \"true\"\n",
    ] {
        assert_eq!(diags(&with(line)), [], "{line}");
    }
    assert_eq!(
        agent(&with("model: INHERIT\n")).setting("model").unwrap().value,
        "inherit"
    );
    assert_eq!(
        agent(&with("maxTurns: \"1e2\"\n")).setting("maxTurns").unwrap().value,
        "100"
    );
    // A color that YAML reads as a comment.
    let d = analyze(&AgentFile::project("x"), &with("color: #FF5733\n")).0;
    assert_eq!(d[0].code, Code::InvalidColor);
    assert!(d[0].message.contains("YAML comment"), "{}", d[0].message);
}

#[test]
fn did_you_mean_fixes() {
    let fix = |line: &str| {
        let t = with(line);
        let d = analyze(&AgentFile::project("x"), &t).0;
        let f = d[0].fix.as_ref().expect("a fix");
        (crate::analysis::diagnostic::apply(&t, &f.edits), f.safe)
    };
    assert_eq!(fix("permissionMode: Plan\n"), (with("permissionMode: plan\n"), false));
    assert_eq!(fix("allowed-tools: Read\n"), (with("tools: Read\n"), false));
    // No rename onto a key that is already there.
    let t = with("tools: Read, Grep\nallowed-tools: Read\n");
    let d = analyze(&AgentFile::project("x"), &t).0;
    assert_eq!(d.len(), 1);
    assert!(d[0].fix.is_none() && d[0].message.contains("already set"), "{d:?}");
    // The added description is a placeholder that satisfies the loader.
    let t = "---\nname: rev\n---\n";
    let d = analyze(&AgentFile::project("x"), t).0;
    let out = crate::analysis::diagnostic::apply(t, &d[0].fix.as_ref().unwrap().edits);
    assert_eq!(out, "---\nname: rev\ndescription: \"Use this agent when ...\"\n---\n");
    assert_eq!(analyze(&AgentFile::project("x"), &out).0, []);
    assert_eq!(fix("tools: Read, grep\n"), (with("tools: Read, Grep\n"), false));
    assert_eq!(fix("tools: Task(rev)\n"), (with("tools: Agent(rev)\n"), true));
    assert_eq!(fix("tools: MultiEdit\n"), (with("tools: Edit\n"), false));
    assert_eq!(fix("model: sonet\n"), (with("model: sonnet\n"), false));
    // A duplicate key: removing the ignored one changes nothing.
    assert_eq!(fix("model: opus\nmodel: haiku\n"), (with("model: haiku\n"), true));
}

#[test]
fn tool_lists() {
    let d = diags(&with("tools: Read, grep, LS, Bash(git diff:*), Frobnicate\n"));
    assert_eq!(
        d,
        [
            (Code::UnknownTool, Severity::Warning, "grep".into()),
            (Code::UnknownTool, Severity::Warning, "LS".into()),
            (Code::IgnoredSpecifier, Severity::Warning, "Bash(git diff:*)".into()),
            (Code::UnknownTool, Severity::Warning, "Frobnicate".into()),
        ]
    );
    // A near name is offered (a case slip, or two edits away); a far one is not.
    let all = analyze(&AgentFile::project("x"), &with("tools: Read, grep, Raed, Frobnicate\n")).0;
    let offered: Vec<Option<&str>> = all.iter().map(|d| d.suggestion().map(|e| e.text.as_str())).collect();
    assert_eq!(offered, [Some("Grep"), Some("Read"), None]);
    // Nothing resolves: the agent would start with zero tools.
    let d = analyze(&AgentFile::project("x"), &with("tools: Frob, Nicate\n")).0;
    assert!(d.iter().any(|d| d.message.contains("zero tools")), "{d:?}");
    // Several Agent(...) entries: only the last applies.
    let d = diags(&with("tools: Agent(a), Read, Agent(b)\n"));
    assert_eq!(d, [(Code::ShadowedRule, Severity::Warning, "Agent(a)".into())]);
    // Three: one finding on the entry that applies, the ignored ones related.
    let text = with("tools: Agent(a), Read, Agent(b), Agent(c)\n");
    let all = analyze(&AgentFile::project("x"), &text).0;
    let d: Vec<_> = all.iter().filter(|d| d.code == Code::ShadowedRule).collect();
    assert_eq!(d.len(), 1, "{all:?}");
    assert_eq!(d[0].span.text(&text), "Agent(c)");
    assert_eq!(
        d[0].message,
        "only this `Agent(...)` entry applies: Claude Code ignores the 2 before it; merge the agent types into one entry"
    );
    let related: Vec<&str> = d[0]
        .related
        .iter()
        .map(|r| match r.location {
            crate::analysis::diagnostic::Location::Here(s) => s.text(&text),
            _ => "elsewhere",
        })
        .collect();
    assert_eq!(related, ["Agent(a)", "Agent(b)"]);
    assert!(d[0].tags.is_empty(), "the entry that applies is not faded");
    // An empty `tools` means no tools; an explicit `[]` is taken as meant.
    assert_eq!(diags(&with("tools:\n"))[0].0, Code::InvalidValue);
    assert_eq!(diags(&with("tools: \"\"\n"))[0].0, Code::InvalidValue);
    assert_eq!(diags(&with("tools: []\n")), []);
    // `*` means every tool; lists, MCP names and Agent types are fine.
    assert_eq!(diags(&with("tools: \"*\"\n")), []);
    assert_eq!(diags(&with("tools:\n  - Read\n  - mcp__x\n  - Agent(a, b)\n")), []);
    // A specifier in `disallowedTools` removes the whole tool (2.1.332).
    assert_eq!(
        diags(&with("disallowedTools: Bash(rm:*)\n")),
        [(Code::IgnoredSpecifier, Severity::Warning, "Bash(rm:*)".into())]
    );
    assert_eq!(diags(&with("disallowedTools: Bash, mcp__x__y\n")), []);
    // Entries of a YAML list sit on the exact item.
    let t = with("tools:\n  - Read\n  - \"grepp\"\n");
    assert_eq!(diags(&t), [(Code::UnknownTool, Severity::Warning, "grepp".into())]);
}

#[test]
fn hooks_problems_skip_the_file_only_under_a_guard_event() {
    // `hooks` that is no object, or a broken PreToolUse/PermissionRequest entry: not loaded.
    for (hooks, code, under) in [
        ("hooks: x\n", Code::InvalidType, "x"),
        ("hooks:\n  PreToolUse: ./check.sh\n", Code::InvalidType, "./check.sh"),
        (
            "hooks:\n  PreToolUse:\n    - matcher: Bash\n",
            Code::MissingField,
            "matcher",
        ),
        (
            "hooks:\n  PermissionRequest:\n    - hooks:\n        - type: shell\n",
            Code::InvalidValue,
            "shell",
        ),
    ] {
        let t = with(hooks);
        let d = diags(&t);
        assert_eq!(d.len(), 1, "{hooks}: {d:?}");
        assert_eq!((d[0].0, d[0].1), (code, Severity::Error), "{hooks}");
        assert!(under.starts_with(d[0].2.trim_end()), "{hooks}: {:?}", d[0].2);
        assert!(!agent(&t).loaded(), "{hooks}");
    }
    // The same entry under another event is dropped, and the agent loads (2.1.332).
    let t = with("hooks:\n  Stop:\n    - hooks:\n        - type: shell\n");
    assert_eq!(diags(&t), [(Code::InvalidValue, Severity::Warning, "shell".into())]);
    assert!(agent(&t).loaded());
    let t = with(
        "hooks:\n  PostToolUse:\n    - hooks:\n        - type: command\n          command: x\n          timeout: \"5\"\n",
    );
    assert_eq!(diags(&t), [(Code::InvalidType, Severity::Warning, "\"5\"".into())]);
    assert!(agent(&t).loaded());
    // What loads but is likely a mistake: a matcher on an event without matchers, milliseconds.
    let t = with(
        "hooks:\n  Stop:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: x\n          timeout: 5000\n",
    );
    let d = diags(&t);
    assert_eq!(
        d,
        [
            (Code::IgnoredField, Severity::Warning, "Bash".into()),
            (Code::InvalidValue, Severity::Warning, "5000".into()),
        ],
        "{d:?}"
    );
    assert!(agent(&t).loaded());
    // The card lists the events the agent hooks, in file order.
    let a = agent(&with(
        "hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: x\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: y\n",
    ));
    let hooks: Vec<&str> = a
        .settings
        .iter()
        .filter(|s| s.key == "hooks")
        .map(|s| s.value.as_str())
        .collect();
    assert_eq!(hooks, ["Stop, PreToolUse"]);
    // The scripts the commands run are handed on.
    let a = agent(&with(
        "hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: $CLAUDE_PROJECT_DIR/.claude/hooks/stop.sh --quiet\n",
    ));
    assert_eq!(
        a.hook_scripts.iter().map(|s| s.path.as_str()).collect::<Vec<_>>(),
        ["$CLAUDE_PROJECT_DIR/.claude/hooks/stop.sh"]
    );
    // An unknown event is a warning (lenient).
    let d = diags(&with(
        "hooks:\n  PreTool:\n    - hooks:\n        - type: command\n          command: x\n",
    ));
    assert_eq!(d, [(Code::UnknownKey, Severity::Warning, "PreTool".into())]);
    // A hook event at the top level skips the file.
    let d = diags(&with("PreToolUse:\n  - hooks: []\n"));
    assert_eq!(d, [(Code::InvalidType, Severity::Error, "PreToolUse".into())]);
}

#[test]
fn plugin_agents_follow_their_own_rules() {
    let p = plugin();
    // No name: the file name; no frontmatter: still loaded.
    let (d, a, _) = analyze(&p, "---\ndescription: d\n---\n");
    assert_eq!(d, []);
    assert_eq!(a.name.as_deref(), Some("file-name"));
    let (_, a, _) = analyze(&p, "Just a prompt\n");
    assert_eq!(a.name.as_deref(), Some("file-name"));
    assert!(a.loaded());
    // Ignored fields, `when_to_use` accepted, color unchecked, isolation only worktree.
    let t = "---\nname: r\nwhen_to_use: d\npermissionMode: plan\nhooks: {}\ninitialPrompt: go\ncolor: teal\nisolation: remote\n---\n";
    let d = diags_as(&p, t);
    assert_eq!(
        d,
        [
            (Code::IgnoredField, Severity::Warning, "permissionMode".into()),
            (Code::IgnoredField, Severity::Warning, "hooks".into()),
            (Code::IgnoredField, Severity::Warning, "initialPrompt".into()),
            (Code::InvalidValue, Severity::Warning, "remote".into()),
        ]
    );
    // A name with `:` is fine in a plugin (it is namespaced anyway); a number description is text.
    assert_eq!(diags_as(&p, "---\nname: a\ndescription: 42\n---\n"), []);
    // Without a description of its own, Claude Code lists `Agent from <plugin> plugin`.
    for text in [
        "---\nname: a\n---\n",
        "---\nname: a\ndescription: [a]\n---\n",
        "Just a prompt\n",
        "---\ndescription: a: b: c\n  d: - e\n---\n",
    ] {
        let (_, a, _) = analyze(&p, text);
        assert_eq!(a.description.as_deref(), Some("Agent from tools plugin"), "{text}");
    }
    let (_, a, _) = analyze(&p, "---\nname: a\ndescription: 42\n---\n");
    assert_eq!(a.description.as_deref(), Some("42"));
    // Names and descriptions as Claude Code 2.1.332 lists them (run with `--plugin-dir`): a
    // name is `String(name)`, empty or null gives the file name; a description is trimmed
    // and a written `\n` kept.
    for (name, want) in [
        ("5", "5"),
        ("false", "false"),
        ("0", "0"),
        ("[a, b]", "a,b"),
        ("{x: 1}", "[object Object]"),
        ("null", "file-name"),
        ("\"\"", "file-name"),
        ("[]", "file-name"),
    ] {
        let (_, a, _) = analyze(&p, &format!("---\nname: {name}\ndescription: d\n---\n"));
        assert_eq!(a.name.as_deref(), Some(want), "{name}");
    }
    let (_, a, _) = analyze(&p, "---\nname: a\ndescription: |\n  one\\n\n  two\n---\n");
    assert_eq!(a.description.as_deref(), Some("one\\n\ntwo"));
    let (_, a, _) = analyze(&AgentFile::project("x"), "---\nname: a\ndescription: one\\ntwo\n---\n");
    assert_eq!(a.description.as_deref(), Some("one\ntwo"));
}

#[test]
fn prose_shortened_by_yaml() {
    let t = with("initialPrompt: Handles C# and F# code #1 priority\n");
    assert_eq!(
        diags(&t),
        [(Code::InvalidValue, Severity::Warning, "#1 priority".into())]
    );
    let t = with("initialPrompt: !important note\n");
    assert_eq!(
        diags(&t),
        [(Code::InvalidValue, Severity::Warning, "!important".into())]
    );
    // A comment on a short value is just a comment; `C#` is not one.
    assert_eq!(diags(&with("model: sonnet # fast\n")), []);
    assert_eq!(diags(&with("initialPrompt: Use C# daily\n")), []);
    assert_eq!(diags(&with("initialPrompt: \"Use it #1\"\n")), []);
}

#[test]
fn files_without_an_agent() {
    assert_eq!(
        diags("# Notes\n"),
        [(Code::NoFrontmatter, Severity::Info, "# Notes".into())]
    );
    assert_eq!(diags("---\n- a\n- b\n---\n")[0].0, Code::InvalidType);
    assert_eq!(diags("---\n- a\n- b\n---\n")[0].1, Severity::Info);
    let huge = format!("{OK}---\n{}", "x".repeat(MAX_BYTES));
    assert_eq!(diags(&huge)[0].1, Severity::Error);
}

#[test]
fn agent_types_in_tools_are_referenced_at_their_exact_spans() {
    let t = with("tools:\n  - Read\n  - Agent(Explore, code-reviewer)\n");
    let refs: Vec<(String, String)> = agent(&t)
        .agent_refs
        .iter()
        .map(|(name, span)| (name.clone(), span.text(&t).to_string()))
        .collect();
    assert_eq!(
        refs,
        [
            ("Explore".to_string(), "Explore".to_string()),
            ("code-reviewer".to_string(), "code-reviewer".to_string())
        ]
    );
    let at = t.find("code-reviewer").unwrap();
    assert_eq!(agent(&t).agent_refs[1].1, Span::new(at, at + "code-reviewer".len()));
    // The legacy `Task(...)` names its types the same way (and is deprecated).
    let t = with("tools: Read, Task(Plan)\n");
    let at = t.find("Plan").unwrap();
    assert_eq!(agent(&t).agent_refs, [("Plan".to_string(), Span::new(at, at + 4))]);
}

/// `Bash(npm test:*` in `tools`: the loader cuts it at the space; one finding says the `)` is
/// missing (not that `test:*` is no tool), with a fix that adds it.
#[test]
fn a_tool_entry_missing_its_closing_parenthesis() {
    for (key, line) in [
        ("tools", "tools: Read, Bash(npm test:*\n"),
        ("tools", "tools: [Read, \"Bash(npm test:*\"]\n"),
        ("disallowedTools", "disallowedTools: Bash(npm test:*, Write\n"),
    ] {
        let t = with(line);
        let (d, _, _) = analyze(&AgentFile::project("x"), &t);
        let found: Vec<_> = d.iter().filter(|d| d.code == Code::UnknownTool).collect();
        assert_eq!(found.len(), 1, "{key}: {d:#?}");
        let d = found[0];
        assert_eq!(d.span.text(&t), "Bash(npm test:*", "{key}");
        assert!(
            d.message.contains("`Bash(npm test:*` has no closing `)`"),
            "{}",
            d.message
        );
        let fix = d.fix.as_ref().expect("a fix");
        assert_eq!(fix.title, "Add the missing `)`");
        let mut fixed = t.clone();
        fixed.replace_range(fix.edits[0].span.range(), &fix.edits[0].text);
        assert!(fixed.contains("Bash(npm test:*)"), "{fixed}");
        assert!(diags(&fixed).iter().all(|(c, _, _)| *c != Code::UnknownTool), "{fixed}");
    }
}
