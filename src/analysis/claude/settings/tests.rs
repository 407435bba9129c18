use super::*;

/// The diagnostics of a settings file as `code at "spanned text": message [fix]`.
fn diags(text: &str) -> Vec<String> {
    let (out, _, _) = analyze(text, SettingsFile::Project);
    out.iter()
        .map(|d| {
            let fix = d
                .fix
                .as_ref()
                .map(|f| {
                    format!(
                        " [{} -> {:?}]",
                        f.title,
                        f.edits.iter().map(|e| &e.text).collect::<Vec<_>>()
                    )
                })
                .unwrap_or_default();
            format!("{} at {:?}: {}{fix}", d.code.as_str(), &text[d.span.range()], d.message)
        })
        .collect()
}

fn one(text: &str) -> String {
    let d = diags(text);
    assert_eq!(d.len(), 1, "{d:#?}");
    d[0].clone()
}

#[test]
fn real_style_settings_give_nothing() {
    let text = r#"{"permissions":{"allow":["Bash(npm run test:*)","Read(~/.zshrc)","WebFetch(domain:example.com)","mcp__github__*"],"deny":["Bash(curl:*)","Read(./.env)"],"ask":["Bash(git push:*)"]},"env":{"X":"1"},"hooks":{}}"#;
    assert_eq!(diags(text), Vec::<String>::new());
    let text = r#"{
  // comments are fine
  "model": "opus",
  "permissions": {
    "allow": ["Bash(git diff *)", "Edit(src/**)", "Agent(Explore)", "Task(reviewer)", "Cd(/tmp)", "mcp__github", "mcp__github__get_issue", "mcp__claude_ai_drive__*"],
    "deny": ["*", "mcp__*", "Bash(run_in_background:true)", "Agent(model:opus)", "my_tool", "Bash(path:*)"],
    "ask": ["PowerShell(Get-Item *)", "MultiEdit"],
    "defaultMode": "acceptEdits",
    "additionalDirectories": ["../docs"]
  }
}"#;
    assert_eq!(diags(text), Vec::<String>::new());
    assert_eq!(
        diags(r#"{"permissions":{"defaultMode":"manual"}}"#),
        Vec::<String>::new()
    );
    assert_eq!(diags(r#"{"env":{}}"#), Vec::<String>::new());
}

#[test]
fn read_gives_the_rules_in_file_order() {
    let text = r#"{"permissions":{"deny":["Read(./.env)"],"allow":["Bash(git diff:*)", "Bash"],"defaultMode":"plan"}}"#;
    let s = read(text);
    let rules: Vec<_> = s
        .rules
        .iter()
        .map(|r| (r.list, r.tool.as_str(), r.specifier.as_deref(), &text[r.span.range()]))
        .collect();
    assert_eq!(
        rules,
        [
            (List::Deny, "Read", Some("./.env"), "\"Read(./.env)\""),
            (List::Allow, "Bash", Some("git diff:*"), "\"Bash(git diff:*)\""),
            (List::Allow, "Bash", None, "\"Bash\""),
        ]
    );
    let (mode, span) = s.default_mode.clone().unwrap();
    assert_eq!((mode.as_str(), &text[span.range()]), ("plan", "\"plan\""));
    assert_eq!(
        s.rule_at(text.find("git diff").unwrap()).unwrap().text,
        "Bash(git diff:*)"
    );
}

#[test]
fn command_patterns_in_wildcard_form() {
    let pattern = |t: &str| {
        let (tool, spec) = split_rule(t);
        command_pattern(&PermissionRule {
            list: List::Allow,
            tool: tool.into(),
            specifier: spec.map(Into::into),
            span: Span::default(),
            text: t.into(),
        })
    };
    assert_eq!(pattern("Bash").as_deref(), Some("*"));
    assert_eq!(pattern("Bash(*)").as_deref(), Some("*"));
    assert_eq!(pattern("Bash(git diff:*)").as_deref(), Some("git diff *"));
    assert_eq!(pattern("Bash(git:* push)").as_deref(), Some("git:* push"));
    assert_eq!(pattern("PowerShell(Get-Item *)").as_deref(), Some("Get-Item *"));
    assert_eq!(pattern("Read(./.env)"), None);
}

#[test]
fn a_colon_star_before_the_end_is_literal() {
    assert_eq!(
        one(r#"{"permissions":{"allow":["Bash(git:* push)"]}}"#),
        "ignored-permission-rule at \":*\": `:*` means \"followed by anything\" only at the end of a pattern; here Claude Code matches `:*` literally. Did you mean ` *`? [Replace with ` *` -> [\" *\"]]"
    );
    // At the end it is the legacy prefix form; in another tool it means nothing special.
    assert_eq!(
        diags(r#"{"permissions":{"allow":["Bash(git push:*)","Read(a:*b)"]}}"#),
        Vec::<String>::new()
    );
    // Escaped: the whole string.
    let d = one(r#"{"permissions":{"deny":["Bash(echo \"a\":* b)"]}}"#);
    assert!(
        d.starts_with(r#"ignored-permission-rule at "\"Bash(echo \\\"a\\\":* b)\"""#),
        "{d}"
    );
}

#[test]
fn path_rules_on_tools_that_never_consult_them() {
    assert_eq!(
        one(r#"{"permissions":{"deny":["Write(src/**)"]}}"#),
        "ignored-permission-rule at \"\\\"Write(src/**)\\\"\": Claude Code never consults path rules on `Write` (startup warning): `Edit(...)` rules cover every edit tool, `Read(...)` rules cover reading and `Glob`. Use `Edit(src/**)` [Replace `Write` with `Edit` -> [\"Edit\"]]"
    );
    let d = one(r#"{"permissions":{"allow":["NotebookEdit(*.ipynb)"]}}"#);
    assert!(d.ends_with("[Replace `NotebookEdit` with `Edit` -> [\"Edit\"]]"), "{d}");
    let d = one(r#"{"permissions":{"ask":["MultiEdit(x)"]}}"#);
    assert!(d.contains("Use `Edit(x)`"), "{d}");
    let d = one(r#"{"permissions":{"deny":["Glob(*.env)"]}}"#);
    assert!(d.contains("Use `Read(*.env)`") && !d.contains('['), "{d}");
    // The fix applies to the tool name only.
    let text = r#"{"permissions":{"deny":["Write(src/**)"]}}"#;
    let (out, _, _) = analyze(text, SettingsFile::Project);
    let e = &out[0].fix.as_ref().unwrap().edits[0];
    assert_eq!(&text[e.span.range()], "Write");
    // Bare tools are fine.
    assert_eq!(
        diags(r#"{"permissions":{"deny":["Write","Glob"]}}"#),
        Vec::<String>::new()
    );
}

#[test]
fn unknown_tools() {
    assert_eq!(
        one(r#"{"permissions":{"deny":["bash(rm *)"]}}"#),
        "unknown-tool at \"bash\": `bash` is not a Claude Code tool: Claude Code skips the rule (tool names start with an uppercase letter). Did you mean `Bash`? [Replace with `Bash` -> [\"Bash\"]]"
    );
    assert_eq!(
        one(r#"{"permissions":{"ask":["WebFetc"]}}"#),
        "unknown-tool at \"WebFetc\": `WebFetc` is not a Claude Code tool: Claude Code warns at start-up and the rule never matches. Did you mean `WebFetch`? [Replace with `WebFetch` -> [\"WebFetch\"]]"
    );
    assert_eq!(
        one(r#"{"permissions":{"allow":["LS"]}}"#),
        "unknown-tool at \"LS\": `LS` is not a Claude Code tool (`LS` no longer exists; listing files is `Glob` (or `Bash`)): the rule never matches. Did you mean `Glob`? [Replace with `Glob` -> [\"Glob\"]]"
    );
    let d = one(r#"{"permissions":{"allow":["Frobnicate(x)"]}}"#);
    assert!(
        d.starts_with("unknown-tool at \"Frobnicate\"") && !d.contains("Did you mean"),
        "{d}"
    );
    // Names with `_` or `*` are exempt in deny and ask.
    assert_eq!(
        diags(r#"{"permissions":{"deny":["my_tool","Web*","mcp__x__y"]}}"#),
        Vec::<String>::new()
    );
}

#[test]
fn parameter_rules_on_primary_fields() {
    assert_eq!(
        one(r#"{"permissions":{"deny":["Bash(command:rm -rf *)"]}}"#),
        "ignored-permission-rule at \"\\\"Bash(command:rm -rf *)\\\"\": `command` is `Bash`'s primary field, which a parameter rule cannot target: Claude Code ignores this rule (startup warning). Write the pattern itself, as in `Bash(rm -rf *)`"
    );
    let d = one(r#"{"permissions":{"ask":["Read(file_path:/etc/passwd)"]}}"#);
    assert!(d.contains("`file_path` is `Read`'s primary field"), "{d}");
    // Param rules are deny/ask only: in allow it is a plain pattern; other params are fine.
    assert_eq!(
        diags(
            r#"{"permissions":{"allow":["Bash(command:ls)"],"deny":["Agent(model:opus)","WebFetch(domain:x.com)"]}}"#
        ),
        Vec::<String>::new()
    );
}

#[test]
fn unanchored_allow_globs() {
    for (rule, tool) in [
        ("*", "*"),
        ("mcp__*", "mcp__*"),
        ("mcp__git*", "mcp__git*"),
        ("*__search(x)", "*__search"),
    ] {
        let text = format!(r#"{{"permissions":{{"allow":["{rule}"]}}}}"#);
        let d = one(&text);
        assert_eq!(
            d,
            format!(
                "ignored-permission-rule at \"{tool}\": Claude Code skips `{tool}` in `allow`: a wildcard in an allow rule's tool name must follow a literal `mcp__<server>__`, as in `mcp__github__*`"
            )
        );
    }
    assert_eq!(
        diags(r#"{"permissions":{"allow":["mcp__github__*","mcp__a__get_*"]}}"#),
        Vec::<String>::new()
    );
}

#[test]
fn wrong_types_and_modes() {
    const VOIDS: &str = "Claude Code applies nothing of this settings file (its permission rules, hooks and every other setting) until this is fixed; it only logs `Invalid setting skipped`";
    assert_eq!(
        diags(r#"{"permissions":{"allow":"Bash","deny":["Read", 3, null]}}"#),
        [
            format!("invalid-type at \"\\\"Bash\\\"\": `permissions.allow` must be an array of rule strings, got \"Bash\": {VOIDS}"),
            "invalid-type at \"3\": a permission rule is a string such as `\"Bash(npm test)\"`, not a number: Claude Code removes this item (the rest of the list applies)".to_string(),
            "invalid-type at \"null\": a permission rule is a string such as `\"Bash(npm test)\"`, not null: Claude Code removes this item (the rest of the list applies)".to_string(),
        ]
    );
    assert_eq!(
        one(r#"{"permissions":["Bash"]}"#),
        format!(
            "invalid-type at \"[\\\"Bash\\\"]\": `permissions` must be an object (the `permissions` setting), got [\"Bash\"]: {VOIDS}"
        )
    );
    assert_eq!(
        one(r#"{"permissions":{"defaultMode":"acceptedits"}}"#),
        format!(
            "invalid-value at \"\\\"acceptedits\\\"\": `permissions.defaultMode` must be \"acceptEdits\", \"auto\", \"bypassPermissions\", \"default\", \"dontAsk\", \"plan\" or \"manual\", got \"acceptedits\" (did you mean `acceptEdits`?): {VOIDS} [Replace with `\"acceptEdits\"` -> [\"\\\"acceptEdits\\\"\"]]"
        )
    );
    let d = one(r#"{"permissions":{"defaultMode":true}}"#);
    assert!(
        d.starts_with("invalid-type at \"true\": `permissions.defaultMode` must be"),
        "{d}"
    );
    let (out, _, s) = analyze(r#"{"permissions":{"defaultMode":"x"}}"#, SettingsFile::Project);
    assert_eq!(out[0].severity, Severity::Error);
    assert!(s.voided.is_some());
}

#[test]
fn hover_says_what_a_rule_does() {
    let s = read(
        r#"{"permissions":{"deny":["Bash(git push:*)","Bash","Read(./.env)","mcp__github","WebFetch(domain:x.com)"],"ask":["Agent(Explore)"],"allow":["mcp__github__*","mcp__a__b"]}}"#,
    );
    let lines: Vec<String> = s
        .rules
        .iter()
        .map(|r| describe(r).lines().next().unwrap().to_string())
        .collect();
    assert_eq!(
        lines,
        [
            "**deny**: `Bash` commands matching `git push *` (also `git push`)",
            "**deny**: every `Bash` command",
            "**deny**: `Read` on paths matching `./.env` (gitignore-style)",
            "**deny**: every tool of the MCP server `github`",
            "**deny**: fetching from `x.com`",
            "**ask**: starting the agent `Explore`",
            "**allow**: every tool of the MCP server `github`",
            "**allow**: the MCP tool `mcp__a__b`",
        ]
    );
}

#[test]
fn completion_offers_tools_in_the_lists_only() {
    let labels = |text: &str| {
        let at = text.find('|').unwrap();
        let text = text.replace('|', "");
        complete(&text, at, &["mcp__github".to_string()])
            .into_iter()
            .map(|i| (i.label, i.insert, text[i.replace.range()].to_string()))
            .collect::<Vec<_>>()
    };
    let items = labels(r#"{"permissions":{"deny":["Ba|"]}}"#);
    assert!(
        items.contains(&("Bash".into(), "\"Bash\"".into(), "\"Ba\"".into())),
        "{items:?}"
    );
    assert!(items.iter().any(|(l, _, _)| l == "mcp__github"));
    assert!(items.iter().any(|(l, _, _)| l == "WebFetch"));
    let modes = labels(r#"{"permissions":{"defaultMode":"|"}}"#);
    assert_eq!(modes.len(), PERMISSION_MODES.len());
    assert_eq!(labels(r#"{"permissions":{"deny":["Bash(gi|"]}}"#), []);
    assert_eq!(labels(r#"{"env":{"allow":["|"]}}"#), []);
}

#[test]
fn the_two_file_names_in_a_claude_folder() {
    use std::path::Path;
    assert_eq!(
        SettingsFile::of_path(Path::new("/p/.claude/settings.json")),
        Some(SettingsFile::Project)
    );
    assert_eq!(
        SettingsFile::of_path(Path::new("/p/.claude/settings.local.json")),
        Some(SettingsFile::Local)
    );
    assert_eq!(SettingsFile::of_path(Path::new("/p/.claude/x/settings.json")), None);
    assert_eq!(SettingsFile::of_path(Path::new("/p/settings.json")), None);
}

/// `code severity effect at "spanned": message` of a settings file of `kind`.
fn whole(text: &str, kind: SettingsFile) -> (Vec<String>, Settings) {
    let (out, _, s) = analyze(text, kind);
    let lines = out
        .iter()
        .map(|d| {
            format!(
                "{} {} {} at {:?}: {}",
                d.code.as_str(),
                d.severity.as_str(),
                d.effect.as_str(),
                &text[d.span.range()],
                d.message
            )
        })
        .collect();
    (lines, s)
}

/// The related places of each diagnostic that has some: `(spanned text, message, lost)`.
fn related(text: &str, kind: SettingsFile) -> Vec<Vec<(String, String, bool)>> {
    let (out, _, _) = analyze(text, kind);
    out.iter()
        .filter(|d| !d.related.is_empty())
        .map(|d| {
            d.related
                .iter()
                .map(|r| {
                    let crate::analysis::diagnostic::Location::Here(span) = r.location else {
                        panic!("a settings file relates places of itself only")
                    };
                    (text[span.range()].to_string(), r.message.clone(), r.lost)
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_refused_value_voids_the_whole_file_as_claude_code_does() {
    // Measured with 2.1.332: `model: 5` beside a valid `defaultMode` leaves sessions in `default`
    // mode (the whole file is dropped, whatever the log line says).
    let (d, s) = whole(
        r#"{"model": 5, "cleanupPeriodDays": 0, "permissions": {"defaultMode": "acceptEdits", "allow": ["Bash(git diff *)"]}}"#,
        SettingsFile::Project,
    );
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(d[0].starts_with("invalid-type error file-ignored at \"5\": `model` must be a string, got 5: Claude Code applies nothing of this settings file"), "{d:#?}");
    assert!(d[1].starts_with("invalid-value error file-ignored at \"0\": `cleanupPeriodDays` must be a whole number greater than 0, got 0"), "{d:#?}");
    // One cause, one finding: the rule it voids is a related place of the first reason only,
    // marked lost (faded in the editor), not a finding of its own.
    assert_eq!(
        related(
            r#"{"model": 5, "cleanupPeriodDays": 0, "permissions": {"defaultMode": "acceptEdits", "allow": ["Bash(git diff *)"]}}"#,
            SettingsFile::Project
        ),
        [vec![(
            "\"Bash(git diff *)\"".to_string(),
            "not applied: `Bash(git diff *)` in `allow`".to_string(),
            true
        )]]
    );
    let v = s.voided.unwrap();
    assert_eq!(v.why, "`model` must be a string, got 5");
}

#[test]
fn what_claude_code_strips_and_keeps_the_rest() {
    let (d, s) = whole(
        r#"{"permissions": {"allow": ["Bash(npm test:*", "bash", "Bash()", "", "*", "Read(src/**)", 5],
             "deny": ["Bash)", "Bash(a)b"]},
            "hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": "5"}]}], "NotAnEvent": []},
            "env": {"A": 5, "B": {"x": 1}, "C": null}}"#,
        SettingsFile::Project,
    );
    assert!(s.voided.is_none(), "{d:#?}");
    let rules: Vec<&str> = s.rules.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(rules, ["Read(src/**)"]);
    let brief: Vec<String> = d.iter().map(|l| l.split(": ").next().unwrap().to_string()).collect();
    assert_eq!(
        brief,
        [
            "invalid-value error rule-never-applies at \"\\\"Bash(npm test:*\\\"\"",
            "unknown-tool error rule-never-applies at \"bash\"",
            "invalid-value error rule-never-applies at \"\\\"Bash()\\\"\"",
            "invalid-value error rule-never-applies at \"\\\"\\\"\"",
            "ignored-permission-rule error rule-never-applies at \"*\"",
            "invalid-type error value-ignored at \"5\"",
            "invalid-value error rule-never-applies at \"\\\"Bash)\\\"\"",
            "invalid-value error rule-never-applies at \"\\\"Bash(a)b\\\"\"",
            "invalid-type error value-ignored at \"\\\"5\\\"\"",
            "unknown-key warning value-ignored at \"\\\"NotAnEvent\\\"\"",
        ]
    );
    assert!(d[0].ends_with("`Bash(npm test:*` has no closing `)`: a rule is `Tool` or `Tool(content)`, ending at the `)`: Claude Code skips this rule (the rest of the list applies)"), "{}", d[0]);
}

#[test]
fn a_broken_guard_hook_voids_the_file_and_its_rules() {
    let (d, s) = whole(
        "{\"permissions\": {\"deny\": [\"Read(./.env)\"]},\n \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"shell\", \"command\": \"x\"}]}]}}",
        SettingsFile::Project,
    );
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(
        d[0].starts_with("invalid-value error file-ignored at \"\\\"shell\\\"\": `shell` is not a hook type"),
        "{}",
        d[0]
    );
    assert!(
        d[0].contains(
            "may be what guards the permissions beside it: Claude Code applies nothing of this settings file"
        ),
        "{}",
        d[0]
    );
    // The rule it voids is the hook's related place.
    assert_eq!(
        related(
            "{\"permissions\": {\"deny\": [\"Read(./.env)\"]},\n \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"shell\", \"command\": \"x\"}]}]}}",
            SettingsFile::Project
        ),
        [vec![(
            "\"Read(./.env)\"".to_string(),
            "not applied: `Read(./.env)` in `deny`".to_string(),
            true
        )]]
    );
    assert!(s.voided.is_some());
    // `hooks` that is not an object: the field is ignored, the rest applies.
    let (d, s) = whole(
        r#"{"hooks": "x", "permissions": {"defaultMode": "plan"}}"#,
        SettingsFile::Project,
    );
    assert!(s.voided.is_none());
    assert_eq!(s.default_mode.as_ref().map(|(m, _)| m.as_str()), Some("plan"));
    assert!(
        d[0].ends_with("Claude Code ignores `hooks` (the rest of the file applies)"),
        "{d:#?}"
    );
}

#[test]
fn silent_settings_unknown_keys_and_nested_keys() {
    let (d, s) = whole(
        r#"{"bashOutputMaxChars": -1, "effortLevel": "max", "permisions": {}, "statusLine": {"type": "command", "command": "x", "paddin": 1}}"#,
        SettingsFile::Project,
    );
    assert!(s.voided.is_none());
    assert_eq!(
        d,
        [
            "invalid-value warning value-ignored at \"-1\": `bashOutputMaxChars` must be a whole number greater than 0, got -1: Claude Code replaces this value with nothing, without a word (the rest of the file applies)",
            "invalid-value warning value-ignored at \"\\\"max\\\"\": `effortLevel` must be \"low\", \"medium\", \"high\" or \"xhigh\", got \"max\": Claude Code replaces this value with nothing, without a word (the rest of the file applies)",
            "unknown-key warning value-ignored at \"\\\"permisions\\\"\": `permisions` is not a Claude Code setting: Claude Code keeps it without a word and never reads it. Did you mean `permissions`?",
            "unknown-key warning value-ignored at \"\\\"paddin\\\"\": `paddin` is not a field of the `statusLine` setting: Claude Code never reads it. Did you mean `padding`?",
        ]
    );
}

#[test]
fn bypass_and_auto_are_not_granted_by_a_project() {
    for kind in [SettingsFile::Project, SettingsFile::Local] {
        let (d, s) = whole(r#"{"permissions": {"defaultMode": "bypassPermissions"}}"#, kind);
        assert_eq!(s.default_mode, None);
        assert_eq!(d.len(), 1);
        assert!(d[0].starts_with("ignored-field warning value-ignored at \"\\\"bypassPermissions\\\"\": Claude Code ignores `defaultMode: bypassPermissions`"), "{}", d[0]);
    }
    let (d, s) = whole(r#"{"permissions": {"defaultMode": "auto"}}"#, SettingsFile::User);
    assert!(d.is_empty(), "{d:#?}");
    assert_eq!(s.default_mode.map(|(m, _)| m), Some("auto".to_string()));
    // `manual` is read as `default`.
    let (_, s) = whole(r#"{"permissions": {"defaultMode": "manual"}}"#, SettingsFile::Project);
    assert_eq!(s.default_mode.map(|(m, _)| m), Some("default".to_string()));
}

#[test]
fn completion_offers_every_key_and_value_of_the_tables() {
    let labels = |text: &str| {
        let at = text.find('|').unwrap();
        let text = text.replace('|', "");
        complete(&text, at, &[])
            .into_iter()
            .map(|i| (i.label, i.insert))
            .collect::<Vec<(String, String)>>()
    };
    let has = |items: &[(String, String)], label: &str| items.iter().any(|(l, _)| l == label);
    // Top-level settings, those present left out, written as JSON keys.
    let top = labels(r#"{"model": "x", "|"}"#);
    assert!(
        top.contains(&("permissions".into(), "\"permissions\": ".into())),
        "{top:?}"
    );
    assert!(has(&top, "hooks") && has(&top, "env") && has(&top, "enabledPlugins"));
    assert!(!has(&top, "model"), "{top:?}");
    // Inside `permissions`: its keys; the values of an enum.
    let perms = labels(r#"{"permissions": {"|"}}"#);
    assert!(
        ["allow", "ask", "deny", "defaultMode", "additionalDirectories"]
            .iter()
            .all(|k| has(&perms, k)),
        "{perms:?}"
    );
    // Hook events, then a matcher's keys, then a handler's keys and types.
    let events = labels(r#"{"hooks": {"|"}}"#);
    assert_eq!(events.len(), crate::analysis::claude::hooks::EVENTS.len());
    assert!(has(&events, "PreToolUse"));
    let matcher = labels(r#"{"hooks": {"Stop": [{"|"}]}}"#);
    assert_eq!(
        matcher.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        ["hooks", "matcher"]
    );
    let handler = labels(r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "|"}]}]}}"#);
    assert!(
        has(&handler, "command") && has(&handler, "timeout") && has(&handler, "url"),
        "{handler:?}"
    );
    assert!(!has(&handler, "type"));
    let types = labels(r#"{"hooks": {"Stop": [{"hooks": [{"type": "|"}]}]}}"#);
    assert_eq!(
        types.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(),
        ["command", "prompt", "agent", "http", "mcp_tool"]
    );
    // A boolean is written bare.
    let b = labels(r#"{"includeGitInstructions": |}"#);
    assert!(b.contains(&("true".into(), "true".into())), "{b:?}");
}

#[test]
fn hover_says_what_each_setting_and_hook_field_does() {
    let at = |text: &str, needle: &str| {
        let (_, parsed, _) = analyze(text, SettingsFile::Project);
        let offset = text.find(needle).unwrap() + 1;
        super::hover(&parsed, offset).map(|(md, span)| (md, span.text(text).to_string()))
    };
    let text = r#"{"model": "opus", "theme": 5, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": 10}]}]}}"#;
    let (md, under) = at(text, "\"model\"").unwrap();
    assert_eq!(under, "\"model\"");
    assert!(md.starts_with("**`model`** (Claude Code's settings)"), "{md}");
    assert!(md.contains("voids the whole file"), "{md}");
    let (md, _) = at(text, "\"theme\"").unwrap();
    assert!(md.contains("dropped without a word"), "{md}");
    let (md, under) = at(text, "\"PreToolUse\"").unwrap();
    assert_eq!(under, "\"PreToolUse\"");
    assert!(md.contains("voids the whole file it sits in"), "{md}");
    let (md, under) = at(text, "\"timeout\"").unwrap();
    assert_eq!(under, "\"timeout\"");
    assert!(md.starts_with("**`timeout`**") && md.contains("Seconds"), "{md}");
    // On a value: the setting it belongs to.
    let (md, under) = at(text, "\"opus\"").unwrap();
    assert_eq!(under, "\"opus\"");
    assert!(md.starts_with("**`model`**"), "{md}");
    // Nothing on an unknown key.
    assert_eq!(at(r#"{"modle": 1}"#, "\"modle\""), None);
}

#[test]
fn mcp_servers_in_settings_point_at_mcp_json() {
    let (d, _) = whole(r#"{"mcpServers": {"a": {"command": "x"}}}"#, SettingsFile::Project);
    assert_eq!(
        d,
        [
            "unknown-key warning value-ignored at \"\\\"mcpServers\\\"\": `mcpServers` is not a Claude Code setting: Claude Code keeps it without a word and never reads it. MCP servers go in the project's `.mcp.json` (or `claude mcp add`), not in settings."
        ]
    );
}

/// A rule missing its `)` says so, with a fix that adds it.
#[test]
fn a_rule_missing_its_closing_parenthesis_gets_it_added() {
    let d = one(r#"{"permissions": {"allow": ["Bash(npm test:*"]}}"#);
    assert!(d.contains("`Bash(npm test:*` has no closing `)`"), "{d}");
    assert!(d.ends_with(r#" [Add the missing `)` -> [")"]]"#), "{d}");
    let text = r#"{"permissions": {"allow": ["Bash(npm test:*"]}}"#;
    let (out, _, _) = analyze(text, SettingsFile::Project);
    let edit = &out[0].fix.as_ref().unwrap().edits[0];
    let mut fixed = text.to_string();
    fixed.replace_range(edit.span.range(), &edit.text);
    assert_eq!(fixed, r#"{"permissions": {"allow": ["Bash(npm test:*)"]}}"#);
    // Written with an escape, the rule's place in the text is not known: no fix.
    let d = one(r#"{"permissions": {"deny": ["Bash(\u0072m:*"]}}"#);
    assert!(d.contains("has no closing `)`") && !d.contains(" ["), "{d}");
}

#[test]
fn keys_an_object_keeps_without_reading_them_are_reported_with_their_fix() {
    // `permissions` keeps what it does not know: the rules under `alow` never apply.
    let text = r#"{"permissions": {"alow": ["Bash(git status)"], "defaultmode": "plan", "deny": [], "Deny": []}, "sandbox": {"enabeld": true}}"#;
    let d = diags(text);
    assert_eq!(
        d,
        [
            "unknown-key at \"\\\"alow\\\"\": `alow` is not a field of the `permissions` setting: Claude Code keeps it without a word and never reads it (rules written under it are not applied). Did you mean `allow`? [Replace with `\"allow\"` -> [\"\\\"allow\\\"\"]]",
            "unknown-key at \"\\\"defaultmode\\\"\": `defaultmode` is not a field of the `permissions` setting: Claude Code keeps it without a word and never reads it. Did you mean `defaultMode`? [Replace with `\"defaultMode\"` -> [\"\\\"defaultMode\\\"\"]]",
            // `deny` is there already: renaming would replace its rules, so no fix.
            "unknown-key at \"\\\"Deny\\\"\": `Deny` is not a field of the `permissions` setting: Claude Code keeps it without a word and never reads it (rules written under it are not applied). Did you mean `deny`?",
            "unknown-key at \"\\\"enabeld\\\"\": `enabeld` is not a field of the `sandbox` setting: Claude Code keeps it without a word and never reads it. Did you mean `enabled`? [Replace with `\"enabled\"` -> [\"\\\"enabled\\\"\"]]",
        ]
    );
    // Warnings: the file applies (Claude Code logs nothing for them).
    let (out, _, s) = analyze(text, SettingsFile::Project);
    assert!(s.voided.is_none());
    assert!(out.iter().all(|d| d.severity == Severity::Warning));
    // The known keys of `permissions`: nothing.
    assert_eq!(
        diags(
            r#"{"permissions": {"allow": [], "ask": [], "deny": [], "defaultMode": "plan", "additionalDirectories": [], "disableBypassPermissionsMode": "disable"}}"#
        ),
        Vec::<String>::new()
    );
}

/// `broad-grant`: an allow for every command of a shell tool, on the rule; nothing where a deny
/// or ask rule of the file takes in the whole tool again, or for a narrower rule.
#[test]
fn an_allow_for_the_whole_shell_is_a_broad_grant() {
    for rule in ["Bash", "Bash(*)", "Bash(:*)", "PowerShell"] {
        let text = format!(r#"{{"permissions":{{"allow":["Read","{rule}"],"deny":["Bash(rm *)"]}}}}"#);
        let d = one(&text);
        assert!(
            d.starts_with(&format!(
                "broad-grant at \"\\\"{rule}\\\"\": `{rule}` in `allow` runs every "
            )),
            "{d}"
        );
    }
    assert!(one(r#"{"permissions":{"allow":["Bash"]}}"#).contains("as in `Bash(npm test *)`"));
    for text in [
        r#"{"permissions":{"allow":["Bash(npm test *)","Bash(* --help)"]}}"#,
        r#"{"permissions":{"allow":["Bash"],"deny":["Bash"]}}"#,
        r#"{"permissions":{"allow":["Bash(*)"],"ask":["Bash(*)"]}}"#,
        r#"{"permissions":{"allow":["Bash"],"deny":["*"]}}"#,
        r#"{"permissions":{"deny":["Bash"],"ask":["PowerShell"]}}"#,
    ] {
        assert_eq!(diags(text), Vec::<String>::new(), "{text}");
    }
    // A deny for other tools, or for some commands only, leaves the grant.
    assert_eq!(
        diags(r#"{"permissions":{"allow":["Bash"],"deny":["Bash(rm *)","Read"]}}"#).len(),
        1
    );
    assert_eq!(
        diags(r#"{"permissions":{"allow":["Bash"],"deny":["PowerShell"]}}"#).len(),
        1
    );
    // A file Claude Code ignores grants nothing.
    let d = diags(r#"{"permissions":{"allow":["Bash"]},"model":1}"#);
    assert!(d.iter().all(|d| !d.starts_with("broad-grant")), "{d:#?}");
}

/// `broad-grant`: an allow for a program that runs whatever its arguments hold (`python3 *`,
/// `env *`, `bash -c *`) lets every command through; a script or folder named is narrower.
#[test]
fn an_allow_for_a_runner_with_any_arguments_is_a_broad_grant() {
    let d = one(r#"{"permissions":{"allow":["Bash(npm test *)","Bash(python3:*)"]}}"#);
    assert_eq!(
        d,
        "broad-grant at \"\\\"Bash(python3:*)\\\"\": `Bash(python3:*)` in `allow` lets every Bash command run without asking, for everyone who uses this file: `python3 -c` runs whatever code it is given, so the model runs any command through it (deny and ask rules still stop what they name). Allow the scripts it needs instead, as in `Bash(python3 scripts/check.py *)`"
    );
    assert!(one(r#"{"permissions":{"allow":["Bash(env *)"]}}"#).contains(": `env` runs whatever command follows it, "));
    assert!(
        one(r#"{"permissions":{"allow":["Bash(bash -c *)"]}}"#)
            .contains(": `bash -c` runs whatever code it is given, ")
    );
    for text in [
        r#"{"permissions":{"allow":["Bash(python3 scripts/check.py *)","Bash(uv sync *)","Bash(npx prettier *)"]}}"#,
        r#"{"permissions":{"ask":["Bash(env *)"],"deny":["Bash(python3 *)"]}}"#,
        r#"{"permissions":{"allow":["Bash(env *)"],"deny":["Bash"]}}"#,
        r#"{"permissions":{"allow":["Read(env *)"]}}"#,
    ] {
        assert_eq!(diags(text), Vec::<String>::new(), "{text}");
    }
}
