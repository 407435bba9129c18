use super::*;
use crate::analysis::syntax::jsonc;

/// Problems as `guard? code `span`: message`, then advice as `code `span`: message`, then scripts.
fn show(text: &str) -> Vec<String> {
    let root = jsonc::parse(text).root.unwrap();
    let r = check(&root, text);
    let mut out: Vec<String> = r
        .problems
        .iter()
        .map(|p| {
            format!(
                "{}{} `{}`: {}",
                if p.guard {
                    "guard "
                } else if p.whole {
                    "whole "
                } else {
                    ""
                },
                p.code.as_str(),
                p.span.text(text),
                p.message
            )
        })
        .collect();
    out.extend(
        r.advice
            .iter()
            .map(|d| format!("advice {} `{}`: {}", d.code.as_str(), d.span.text(text), d.message)),
    );
    out.extend(r.scripts.iter().map(|s| format!("script {}", s.path)));
    out
}

#[test]
fn valid_hooks_of_every_type_are_silent() {
    let text = r#"{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": 30, "shell": "bash"}]}],
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "prompt", "prompt": "Check $ARGUMENTS"}, {"type": "agent", "prompt": "Verify"},
                         {"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"A": "b"}}, {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"x": 1}}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "make lint"}]}]}"#;
    assert_eq!(show(text), Vec::<String>::new());
}

#[test]
fn what_the_runtime_refuses_under_a_guard_and_elsewhere() {
    let text = r#"{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "shell", "command": "x"}]}],
        "PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": "5"}]}],
        "PostToolUse": [{"hooks": [{"type": "command", "timeout": 0}]}, {"matcher": 5, "hooks": []}, {"matcher": "x"}],
        "Stop": "x"}"#;
    assert_eq!(
        show(text),
        [
            "guard invalid-value `\"shell\"`: `shell` is not a hook type (`command`, `prompt`, `agent`, `http` or `mcp_tool`)",
            "guard invalid-type `\"5\"`: `timeout` must be a number greater than 0, got \"5\"",
            "invalid-value `0`: `timeout` must be a number greater than 0, got 0",
            "missing-field `\"command\"`: A command hook needs `command`",
            "invalid-type `5`: `PostToolUse.1.matcher` must be a string, not a number",
            "missing-field `\"matcher\"`: this matcher of `PostToolUse` has no `hooks` array of handlers",
            "invalid-type `\"x\"`: `Stop` must be an array of matchers, not a string",
        ]
    );
}

#[test]
fn hooks_that_are_not_an_object() {
    assert_eq!(
        show(r#""x""#),
        ["whole invalid-type `\"x\"`: `hooks` must be an object of hook event to matchers, not a string"]
    );
}

#[test]
fn advice_on_what_loads() {
    let text = r#"{"PreToolUze": [],
        "Stop": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "bash \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh --fast", "timeout": 5000, "comand": "x"}]}],
        "PostToolUse": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh\" && ./bin/after $HOME/x", "timeout": 600}]}]}"#;
    assert_eq!(
        show(text),
        [
            "advice unknown-key `\"PreToolUze\"`: `PreToolUze` is not a hook event: Claude Code ignores its hooks. Did you mean `PreToolUse`?",
            "advice ignored-field `\"Bash\"`: `Stop` takes no matcher: its hooks run every time, whatever `\"Bash\"` says",
            "advice unknown-key `\"comand\"`: `comand` is not a field of a command hook: Claude Code ignores it. Did you mean `command`?",
            "advice invalid-value `5000`: a hook's `timeout` is in seconds: 5000 is 83 minutes. Did you mean 5?",
            // The value holds escapes: the path where the source holds it once.
            "advice relative-hook-path `./bin/after`: `./bin/after` is relative to the folder Claude Code is in when the hook runs, and that folder moves when the model runs `cd`: from a subfolder the script is not found (status 127) and the hook does nothing. Write `\"$CLAUDE_PROJECT_DIR\"/bin/after` (in a plugin, `\"${CLAUDE_PLUGIN_ROOT}\"/bin/after`)",
            "script $CLAUDE_PROJECT_DIR/.claude/hooks/check.sh",
            "script ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh",
            "script ./bin/after",
        ]
    );
}

#[test]
fn script_paths_leave_out_what_cannot_be_known() {
    assert_eq!(script_paths("node ./x.js"), ["./x.js"]);
    assert_eq!(script_paths("$CLAUDE_PROJECT_DIR/$NAME.sh"), Vec::<String>::new());
    assert_eq!(script_paths("python3 .claude/hooks/*.py"), Vec::<String>::new());
    assert_eq!(script_paths("echo 'a ./b'"), Vec::<String>::new());
    assert_eq!(script_paths("a;./b|./c"), ["./b", "./c"]);
}

#[test]
fn tool_matchers_that_match_no_tool() {
    let text = r#"{"PreToolUse": [
        {"matcher": "Bash(git push *)", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b"}]},
        {"matcher": "Bsh", "hooks": [{"type": "command", "command": "c"}]},
        {"matcher": "Edit|bash, mcp__github", "hooks": [{"type": "command", "command": "d"}]},
        {"matcher": "Edit(", "hooks": [{"type": "command", "command": "e"}]},
        {"matcher": "[Ee]dit", "hooks": [{"type": "command", "command": "f"}]},
        {"matcher": "*Edit", "hooks": [{"type": "command", "command": "g"}]}
      ],
      "PermissionDenied": [{"matcher": "mcp__github", "hooks": [{"type": "command", "command": "h"}]}]}"#;
    assert_eq!(
        show(text),
        [
            "advice unknown-tool `\"Bash(git push *)\"`: `Bash(git push *)` is a permission rule, not a tool name: as a matcher it is a regular expression that matches no tool, so these `PreToolUse` hooks never run. Put `Bash` in `matcher` and the rule in each handler's `if`",
            "advice unknown-tool `Bsh`: `Bsh` matches no tool (a matcher of names takes each exactly, case included), so these `PreToolUse` hooks never run. Did you mean `Bash`?",
            "advice unknown-tool `bash`: `bash` matches no tool (a matcher of names takes each exactly, case included), so it never triggers these `PreToolUse` hooks. Did you mean `Bash`?",
            "advice unknown-tool `mcp__github`: `mcp__github` matches no tool: an MCP server's tools are named `mcp__github__<tool>`; `mcp__github__.*` matches them all, so it never triggers these `PreToolUse` hooks",
            "advice unknown-tool `\"Edit(\"`: `Edit(` is not a valid regular expression (a `(` that is never closed): Claude Code logs \"Invalid regex pattern in hook matcher\", so these `PreToolUse` hooks never run",
            "advice unknown-tool `\"*Edit\"`: `*Edit` is not a valid regular expression (a quantifier with nothing to repeat): Claude Code logs \"Invalid regex pattern in hook matcher\", so these `PreToolUse` hooks never run",
            "advice unknown-tool `mcp__github`: `mcp__github` matches no tool: an MCP server's tools are named `mcp__github__<tool>`; `mcp__github__.*` matches them all, so these `PermissionDenied` hooks never run",
        ]
    );
    // The fix: the tool in `matcher`, the rule in each handler's `if`.
    let root = jsonc::parse(text).root.unwrap();
    let r = check(&root, text);
    let fixed = crate::analysis::diagnostic::apply(text, &r.advice[0].fix.as_ref().unwrap().edits);
    assert!(
        fixed.contains(r#"{"matcher": "Bash", "hooks": [{"if": "Bash(git push *)", "type": "command", "command": "a"}, {"if": "Bash(git push *)", "type": "command", "command": "b"}]}"#),
        "{fixed}"
    );
    // A server with its tool, a real regex, an old name, a matcher on an event of other names: nothing.
    let text = r#"{"PostToolUse": [{"matcher": "mcp__github__get_issue|Task|MultiEdit", "hooks": [{"type": "command", "command": "x"}]},
        {"matcher": "Notebook.*|mcp__.*__search", "hooks": [{"type": "command", "command": "x"}]},
        {"matcher": "", "hooks": [{"type": "command", "command": "x"}]}, {"matcher": "*", "hooks": [{"type": "command", "command": "x"}]}],
      "SessionStart": [{"matcher": "Bash(git x)", "hooks": [{"type": "command", "command": "x"}]}]}"#;
    assert_eq!(show(text), Vec::<String>::new());
    // A handler with an `if` already: no fix (the rules would need merging).
    let text = r#"{"PreToolUse": [{"matcher": "Bash(rm:*)", "hooks": [{"type": "command", "command": "a", "if": "Bash(x)"}]}]}"#;
    let root = jsonc::parse(text).root.unwrap();
    assert!(check(&root, text).advice[0].fix.is_none());
}

#[test]
fn what_js_regexps_refuse() {
    for ok in ["Edit|Write", "Notebook.*", "(?:a|b)", "[(]x", "a\\(b", "x?", "(a)(b)"] {
        assert_eq!(js_regex_error(ok), None, "{ok}");
    }
    for (bad, why) in [
        ("a)", "a `)` with no `(`"),
        ("(a", "a `(` that is never closed"),
        ("[a", "a `[` that is never closed"),
        ("+a", "a quantifier with nothing to repeat"),
        ("a|?b", "a quantifier with nothing to repeat"),
    ] {
        assert_eq!(js_regex_error(bad), Some(why), "{bad}");
    }
    assert_eq!(rule_as_matcher("Bash(npm:*)"), Some(("Bash", "npm:*")));
    assert_eq!(rule_as_matcher("Read(src/**)"), Some(("Read", "src/**")));
    for not in ["Bash(ls)", "bash(a b)", "Bash(a|b c)", "Bash(a b", "(a b)", "Bash( a)"] {
        assert_eq!(rule_as_matcher(not), None, "{not}");
    }
}

#[test]
fn hooks_in_a_skills_frontmatter() {
    let show = |text: &str| -> Vec<String> {
        let root = crate::analysis::syntax::yaml::parse(text, 0).root.unwrap();
        let mut out = vec![Diagnostic::new(Code::UnknownKey, Span::new(0, 1), "placeholder")];
        in_frontmatter(root.as_map().unwrap(), text, "skill", &mut out);
        out.iter()
            .map(|d| {
                format!(
                    "{} {} `{}`: {}",
                    d.severity.as_str(),
                    d.code.as_str(),
                    d.span.text(text),
                    d.message
                )
            })
            .collect()
    };
    // A broken guard entry: the skill loses its hooks and its allowed-tools.
    assert_eq!(
        show("hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: shell\n          command: x\n"),
        [
            "warning unknown-key `h`: placeholder",
            "error invalid-value `shell`: `shell` is not a hook type (`command`, `prompt`, `agent`, `http` or `mcp_tool`): Claude Code loads this skill with no hooks and no `allowed-tools`",
        ]
    );
    // Elsewhere: the entry alone is ignored.
    assert_eq!(
        show(
            "hooks:\n  PostToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: x\n          timeout: \"5\"\n"
        )[1],
        "warning invalid-type `\"5\"`: `timeout` must be a number greater than 0, got \"5\": Claude Code ignores this entry (the other hooks apply)"
    );
    // Not an object.
    assert!(show("hooks: nope\n")[1].starts_with("error invalid-type `nope`: `hooks` must be an object"));
    // A guard event at the top: one error, instead of the "unknown key" said before it.
    let text = "PreToolUse:\n  - matcher: Bash\n";
    let root = crate::analysis::syntax::yaml::parse(text, 0).root.unwrap();
    let mut out = vec![Diagnostic::new(
        Code::UnknownKey,
        Span::new(0, 10),
        "no runtime reads it",
    )];
    in_frontmatter(root.as_map().unwrap(), text, "skill", &mut out);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(
        out[0].message,
        "`PreToolUse` is at the top of the frontmatter, outside `hooks`: Claude Code loads this skill with no hooks and no `allowed-tools`"
    );
    assert_eq!(out[0].severity, Severity::Error);
    // Valid hooks: nothing.
    assert_eq!(
        show("hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo ok\n").len(),
        1
    );
}

#[test]
fn a_matcher_s_fix_sits_on_the_name_quoted_or_not() {
    // YAML, unquoted: the finding and its fix on the name inside the value.
    let text =
        "hooks:\n  PreToolUse:\n    - matcher: Edit|Bsh\n      hooks:\n        - type: command\n          command: x\n";
    let root = crate::analysis::syntax::yaml::parse(text, 0).root.unwrap();
    let mut out = Vec::new();
    in_frontmatter(root.as_map().unwrap(), text, "skill", &mut out);
    let d = out
        .iter()
        .find(|d| d.code == Code::UnknownTool)
        .expect("the matcher's finding");
    assert_eq!(d.span.text(text), "Bsh");
    let fixed = crate::analysis::diagnostic::apply(text, &d.fix.as_ref().expect("a fix").edits);
    assert!(fixed.contains("- matcher: Edit|Bash\n"), "{fixed}");
    // A server without its tool: the fix only where the matcher is that one name.
    let fix_of = |matcher: &str| {
        let text = format!(
            r#"{{"PreToolUse": [{{"matcher": "{matcher}", "hooks": [{{"type": "command", "command": "a"}}]}}]}}"#
        );
        let root = jsonc::parse(&text).root.unwrap();
        let r = check(&root, &text);
        r.advice[0].fix.as_ref().map(|f| f.edits[0].text.clone())
    };
    assert_eq!(fix_of("mcp__github").as_deref(), Some("mcp__github__.*"));
    assert_eq!(fix_of("Bash,mcp__github"), None);
}

/// The path variables a command leaves outside double quotes, as the text of each.
fn exposed(command: &str) -> Vec<(String, bool)> {
    exposed_path_variables(command)
        .into_iter()
        .map(|e| (command[e.start..e.end].to_string(), e.single))
        .collect()
}

#[test]
fn path_variables_outside_double_quotes() {
    let bare = |s: &str| vec![(s.to_string(), false)];
    assert_eq!(
        exposed("$CLAUDE_PROJECT_DIR/.claude/hooks/a.sh"),
        bare("$CLAUDE_PROJECT_DIR")
    );
    assert_eq!(
        exposed("bash ${CLAUDE_PLUGIN_ROOT}/x.sh --y"),
        bare("${CLAUDE_PLUGIN_ROOT}")
    );
    assert_eq!(
        exposed("cd ${CLAUDE_PLUGIN_DATA:-/tmp} && ls"),
        bare("${CLAUDE_PLUGIN_DATA:-/tmp}")
    );
    assert_eq!(exposed("x.sh > $CLAUDE_PROJECT_DIR/log"), bare("$CLAUDE_PROJECT_DIR"));
    assert_eq!(
        exposed("'$CLAUDE_PROJECT_DIR'/a.sh; \"$CLAUDE_PROJECT_DIR\"/b.sh; $CLAUDE_PLUGIN_ROOT/c"),
        vec![
            ("$CLAUDE_PROJECT_DIR".to_string(), true),
            ("$CLAUDE_PLUGIN_ROOT".to_string(), false)
        ]
    );
    for safe in [
        "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/a.sh",
        "\"${CLAUDE_PLUGIN_ROOT}/scripts/x.sh\" arg",
        "node \"$CLAUDE_PROJECT_DIR/x.js\" \\$CLAUDE_PROJECT_DIR",
        "DIR=$CLAUDE_PROJECT_DIR/x; echo \"$DIR\"",
        "export ROOT=${CLAUDE_PLUGIN_ROOT}",
        "$CLAUDE_PROJECT_DIRX/a.sh",
        "$OTHER/a.sh",
        "echo ok # $CLAUDE_PROJECT_DIR/a.sh",
        "\"$(dirname \"$CLAUDE_PROJECT_DIR\")\"/a.sh",
        "[[ -f $CLAUDE_PROJECT_DIR/a ]] && echo y",
        "case $CLAUDE_PROJECT_DIR in *) ;; esac",
        "${CLAUDE_PROJECT_DIR",
        "",
        "$",
    ] {
        assert_eq!(exposed(safe), vec![], "{safe}");
    }
}

#[test]
fn an_unquoted_path_variable_in_a_hook_is_reported_with_its_fix() {
    let text = r#"{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh"}]}],
        "PostToolUse": [{"hooks": [{"type": "command", "command": "'${CLAUDE_PLUGIN_ROOT}'/fmt.sh"}, {"type": "command", "command": "fmt.sh", "args": ["$CLAUDE_PROJECT_DIR/x"]}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/stop.sh", "onFailure": "block"}, {"type": "command", "command": "$CLAUDE_PROJECT_DIR/x.ps1", "shell": "powershell"}]}]}"#;
    let root = jsonc::parse(text).root.unwrap();
    let r = check(&root, text);
    let found: Vec<(&str, &str)> = r
        .advice
        .iter()
        .filter(|d| d.code == Code::UnquotedPathVariable)
        .map(|d| (d.span.text(text), d.message.as_str()))
        .collect();
    assert_eq!(found.len(), 3, "{found:#?}");
    assert_eq!(found[0].0, "$CLAUDE_PROJECT_DIR");
    assert!(
        found[0]
            .1
            .ends_with("a PreToolUse hook that fails blocks nothing: the tool call goes ahead unchecked. Write `\"$CLAUDE_PROJECT_DIR\"`"),
        "{}",
        found[0].1
    );
    assert_eq!(found[1].0, "${CLAUDE_PLUGIN_ROOT}");
    assert!(
        found[1].1.starts_with("`${CLAUDE_PLUGIN_ROOT}` is in single quotes"),
        "{}",
        found[1].1
    );
    assert_eq!(found[2].0, "${CLAUDE_PLUGIN_ROOT}");
    assert!(
        found[2]
            .1
            .contains("the script is not found and the hook fails (status 127). Write"),
        "{}",
        found[2].1
    );
    // The fix quotes the variable inside the JSON string; none for the single-quoted one.
    let d = &r
        .advice
        .iter()
        .filter(|d| d.code == Code::UnquotedPathVariable)
        .collect::<Vec<_>>();
    let fixed = crate::analysis::diagnostic::apply(text, &d[0].fix.as_ref().unwrap().edits);
    assert!(
        fixed.contains(r#""command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh""#),
        "{fixed}"
    );
    assert!(d[0].fix.as_ref().unwrap().safe);
    assert!(d[1].fix.is_none());
}

/// `broad-grant`: a `PermissionRequest` hook without a matcher (or with `*`), on the matcher or on
/// `hooks` beside where it would be; nothing for a matcher that names tools, or for other events.
#[test]
fn a_permission_request_hook_for_every_tool() {
    let broad = |text: &str| -> Vec<String> {
        let root = jsonc::parse(text).root.unwrap();
        check(&root, text)
            .advice
            .iter()
            .filter(|d| d.code == Code::BroadGrant)
            .map(|d| d.span.text(text).to_string())
            .collect()
    };
    let h = r#"[{"type": "command", "command": "approve.sh"}]"#;
    assert_eq!(
        broad(&format!(r#"{{"PermissionRequest": [{{"hooks": {h}}}]}}"#)),
        ["\"hooks\""]
    );
    assert_eq!(
        broad(&format!(
            r#"{{"PermissionRequest": [{{"matcher": "*", "hooks": {h}}}, {{"matcher": "", "hooks": {h}}}]}}"#
        )),
        ["\"*\"", "\"\""]
    );
    assert!(
        broad(&format!(
            r#"{{"PermissionRequest": [{{"matcher": "Bash|Write", "hooks": {h}}}]}}"#
        ))
        .is_empty()
    );
    assert_eq!(
        broad(&format!(
            r#"{{"PermissionRequest": [{{"matcher": " .* ", "hooks": {h}}}, {{"matcher": null, "hooks": {h}}}]}}"#
        )),
        ["\" .* \"", "\"hooks\""]
    );
    assert!(broad(&format!(r#"{{"PreToolUse": [{{"hooks": {h}}}]}}"#)).is_empty());
    assert!(broad(r#"{"PermissionRequest": [{"hooks": []}]}"#).is_empty());
    let root = jsonc::parse(&format!(r#"{{"PermissionRequest": [{{"hooks": {h}}}]}}"#))
        .root
        .unwrap();
    let text = format!(r#"{{"PermissionRequest": [{{"hooks": {h}}}]}}"#);
    let r = check(&root, &text);
    assert!(
        r.advice[0]
            .message
            .starts_with("this `PermissionRequest` hook runs on every permission request, for every tool")
    );
}

/// What a failing hook costs, in the message: a PreToolUse guard lets the call through, one with
/// `onFailure: block` refuses every call; a line with backquotes or a here-document is not read.
#[test]
fn the_message_says_what_the_failing_hook_does() {
    let message = |event: &str, extra: &str| -> String {
        let text = format!(
            r#"{{"{event}": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "$CLAUDE_PROJECT_DIR/g.sh"{extra}}}]}}]}}"#
        );
        let root = jsonc::parse(&text).root.unwrap();
        let r = check(&root, &text);
        let d: Vec<_> = r
            .advice
            .iter()
            .filter(|d| d.code == Code::UnquotedPathVariable)
            .collect();
        assert_eq!(d.len(), 1, "{event}{extra}");
        d[0].message.clone()
    };
    assert!(message("PreToolUse", "").contains("a PreToolUse hook that fails blocks nothing"));
    assert!(
        message("PreToolUse", r#", "onFailure": "block""#)
            .contains("the hook fails (status 127), and with `onFailure: block` every call it guards is refused")
    );
    assert!(
        message("PostToolUse", r#", "onFailure": "block""#)
            .contains("is not found and the hook fails (status 127). Write")
    );
    assert!(message("PreToolUse", r#", "onFailure": "continue""#).contains("blocks nothing"));
    for line in ["`cat $CLAUDE_PROJECT_DIR/x`", "cat <<EOF\n$CLAUDE_PROJECT_DIR/x\nEOF"] {
        assert_eq!(exposed(line), vec![], "{line}");
    }
    // A `#` inside a word starts no comment; an option's `=` is no assignment (the shell splits
    // it), a name with `_` before `=` is one; what follows a braced variable is read after it;
    // an escaped `$` at the start expands nothing.
    let bare = |s: &str| (s.to_string(), false);
    assert_eq!(exposed("echo a#b $CLAUDE_PROJECT_DIR/x"), [bare("$CLAUDE_PROJECT_DIR")]);
    assert_eq!(
        exposed("tool --dir=$CLAUDE_PROJECT_DIR/x"),
        [bare("$CLAUDE_PROJECT_DIR")]
    );
    assert_eq!(exposed("MY_DIR=$CLAUDE_PROJECT_DIR/x; ls"), vec![]);
    assert_eq!(
        exposed("x ${CLAUDE_PROJECT_DIR:-\"/a b\"} $CLAUDE_PLUGIN_ROOT/y"),
        [bare("${CLAUDE_PROJECT_DIR:-\"/a b\"}"), bare("$CLAUDE_PLUGIN_ROOT")]
    );
    assert_eq!(exposed("\\$CLAUDE_PROJECT_DIR/x"), vec![]);
    assert_eq!(
        exposed("a \\$CLAUDE_PROJECT_DIR/x $CLAUDE_PLUGIN_ROOT"),
        [bare("$CLAUDE_PLUGIN_ROOT")]
    );
    // Tabs and parentheses end a word: the variable after them is reported.
    assert_eq!(
        exposed("(cd\t$CLAUDE_PROJECT_DIR)"),
        vec![("$CLAUDE_PROJECT_DIR".to_string(), false)]
    );
    assert_eq!(
        exposed("x=1;$CLAUDE_PROJECT_DIR/a"),
        vec![("$CLAUDE_PROJECT_DIR".to_string(), false)]
    );
}

/// The fix in YAML: inside a quoted value the quotes go around the variable; a plain value that
/// starts with it is written in single quotes; no fix where that cannot be done.
#[test]
fn the_quoting_fix_in_yaml() {
    use crate::analysis::syntax::yaml;
    let fixed = |value: &str| -> Option<String> {
        let text = format!("PreToolUse:\n  - hooks:\n      - type: command\n        command: {value}\n");
        let root = yaml::parse(&text, 0).root.unwrap();
        let r = check(&root, &text);
        let d = r
            .advice
            .iter()
            .find(|d| d.code == Code::UnquotedPathVariable)
            .expect(value);
        d.fix.as_ref().map(|f| {
            crate::analysis::diagnostic::apply(&text, &f.edits)
                .lines()
                .last()
                .unwrap()
                .trim()
                .to_string()
        })
    };
    assert_eq!(
        fixed("$CLAUDE_PROJECT_DIR/g.sh").as_deref(),
        Some("command: '\"$CLAUDE_PROJECT_DIR\"/g.sh'")
    );
    assert_eq!(
        fixed("bash $CLAUDE_PROJECT_DIR/g.sh").as_deref(),
        Some("command: bash \"$CLAUDE_PROJECT_DIR\"/g.sh")
    );
    assert_eq!(
        fixed("'$CLAUDE_PROJECT_DIR/g.sh'").as_deref(),
        Some("command: '\"$CLAUDE_PROJECT_DIR\"/g.sh'")
    );
    assert_eq!(
        fixed("\"$CLAUDE_PROJECT_DIR/g.sh\"").as_deref(),
        Some("command: \"\\\"$CLAUDE_PROJECT_DIR\\\"/g.sh\"")
    );
    assert_eq!(fixed("$CLAUDE_PROJECT_DIR/g.sh it's"), None);
}

/// The scripts `relative_scripts` finds in a command, as written.
fn relative(command: &str) -> Vec<&str> {
    relative_scripts(command)
        .into_iter()
        .map(|(s, e)| &command[s..e])
        .collect()
}

#[test]
fn scripts_run_by_a_relative_path() {
    // The program, quoted or not, after assignments; the script an interpreter is given; each
    // simple command of a list.
    assert_eq!(relative(".claude/hooks/guard.sh"), [".claude/hooks/guard.sh"]);
    assert_eq!(relative("./guard.sh --strict"), ["./guard.sh"]);
    assert_eq!(
        relative("\".claude/hooks/my guard.sh\""),
        ["\".claude/hooks/my guard.sh\""]
    );
    assert_eq!(relative("LEVEL=2 scripts/lint.sh"), ["scripts/lint.sh"]);
    assert_eq!(relative("python3 -u scripts/check.py --all"), ["scripts/check.py"]);
    assert_eq!(relative("/usr/bin/bash hooks/x.sh"), ["hooks/x.sh"]);
    assert_eq!(relative("uv run scripts/x.py"), ["scripts/x.py"]);
    assert_eq!(
        relative("echo start; .claude/a.sh && node tools/b.js | tee log/out"),
        [".claude/a.sh", "tools/b.js"]
    );
    // A redirection's file is neither a program nor a script.
    assert_eq!(relative("./x.sh > logs/out.txt 2>&1"), ["./x.sh"]);
    assert_eq!(relative("./x.sh >&2; echo done >> logs/hook.log"), ["./x.sh"]);
    // `>&` takes a file as well as a descriptor (in bash: stdout and stderr both to it).
    assert_eq!(relative("./x.sh >& logs/out.txt"), ["./x.sh"]);
    assert_eq!(relative("./x.sh >&logs/out.txt"), ["./x.sh"]);
    assert_eq!(relative("jq . < data/in.json"), Vec::<&str>::new());
    assert_eq!(relative("cat >logs/a"), Vec::<&str>::new());
    assert_eq!(relative("2>/dev/null ./y.sh"), ["./y.sh"]);
    assert_eq!(relative("> logs/a ./x.sh"), ["./x.sh"]);
    assert_eq!(relative("python3 2 scripts/x.py"), Vec::<&str>::new());
    // `&` ends a command (but not in `>&`), a `#` inside a word is part of it.
    assert_eq!(relative("./a.sh & ./b.sh"), ["./a.sh", "./b.sh"]);
    assert_eq!(relative("&./x.sh"), ["./x.sh"]);
    assert_eq!(relative("./x.sh#1"), ["./x.sh#1"]);
    // Anchored, absolute, home, a bare program found on PATH, an argument that is not the
    // script, a URL, a glob or a variable: nothing.
    for command in [
        "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh",
        "${CLAUDE_PLUGIN_ROOT}/x.sh",
        "/opt/hooks/x.sh",
        "~/bin/x.sh",
        "npx prettier --write src/app.ts",
        "jq -r .tool_input.command | grep -q rm",
        "python3 \"$CLAUDE_PROJECT_DIR/x.py\"",
        "curl https://example.com/x.sh",
        "bash scripts/*.sh",
        "",
        "# .claude/x.sh",
        "true; #./b.sh",
        "bash https://example.com/install.sh",
        // Escaped: a quote inside double quotes, a `;` outside.
        "echo \"a \\\" ; ./evil.sh\"",
        "echo a\\;./x.sh",
    ] {
        assert_eq!(relative(command), Vec::<&str>::new(), "{command}");
    }
    // A command that changes folder itself, or whose words agent-lsp does not read.
    for command in [
        "cd \"$CLAUDE_PROJECT_DIR\" && .claude/hooks/guard.sh",
        "pushd x; ./y.sh",
        "$(git rev-parse --show-toplevel)/.claude/x.sh",
        "echo $(./inner.sh)",
        "echo `./inner.sh`",
        "[[ -f a ]] && ./x.sh",
        "./x.sh <<EOF",
        "./run.sh `date`",
    ] {
        assert_eq!(relative(command), Vec::<&str>::new(), "{command}");
    }
}

#[test]
fn a_relative_hook_script_is_reported_with_what_its_failure_does() {
    let text = r#"{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ".claude/hooks/guard.sh"}, {"type": "command", "command": "bash ./gate.sh", "onFailure": "block"}, {"type": "command", "command": "./x.sh", "args": []}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "python3 scripts/done.py"}]}]}"#;
    let found: Vec<String> = show(text)
        .into_iter()
        .filter(|l| l.starts_with("advice relative-hook-path"))
        .collect();
    assert_eq!(
        found,
        [
            "advice relative-hook-path `.claude/hooks/guard.sh`: `.claude/hooks/guard.sh` is relative to the folder Claude Code is in when the hook runs, and that folder moves when the model runs `cd`: from a subfolder the script is not found (status 127), and a PreToolUse hook that fails blocks nothing: the tool call goes ahead unchecked. Write `\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh` (in a plugin, `\"${CLAUDE_PLUGIN_ROOT}\"/.claude/hooks/guard.sh`)",
            "advice relative-hook-path `./gate.sh`: `./gate.sh` is relative to the folder Claude Code is in when the hook runs, and that folder moves when the model runs `cd`: from a subfolder the script is not found, and with `onFailure: block` every call it guards is refused. Write `\"$CLAUDE_PROJECT_DIR\"/gate.sh` (in a plugin, `\"${CLAUDE_PLUGIN_ROOT}\"/gate.sh`)",
            "advice relative-hook-path `scripts/done.py`: `scripts/done.py` is relative to the folder Claude Code is in when the hook runs, and that folder moves when the model runs `cd`: from a subfolder the script is not found (status 127) and the hook does nothing. Write `\"$CLAUDE_PROJECT_DIR\"/scripts/done.py` (in a plugin, `\"${CLAUDE_PLUGIN_ROOT}\"/scripts/done.py`)",
        ]
    );
}

/// A timeout in milliseconds: the fix writes the seconds where they are whole, and is not
/// offered where they are not (1500 is 1.5 s: a fix to `1.5` would be a guess at the unit).
#[test]
fn a_timeout_in_milliseconds_is_fixed_only_to_whole_seconds() {
    let fix_of = |timeout: &str| {
        let text =
            format!(r#"{{"Stop": [{{"hooks": [{{"type": "command", "command": "x", "timeout": {timeout}}}]}}]}}"#);
        let root = jsonc::parse(&text).root.unwrap();
        let r = check(&root, &text);
        let d = r
            .advice
            .iter()
            .find(|d| d.code == Code::InvalidValue)
            .expect("the timeout's advice");
        (
            d.message.clone(),
            d.fix
                .as_ref()
                .map(|f| crate::analysis::diagnostic::apply(&text, &f.edits)),
        )
    };
    let (message, fixed) = fix_of("6000");
    assert!(message.contains("6000 is 100 minutes. Did you mean 6?"), "{message}");
    assert!(fixed.unwrap().contains(r#""timeout": 6}"#));
    let (message, fixed) = fix_of("1500");
    assert!(message.contains("1500 is 25 minutes. Did you mean 1.5?"), "{message}");
    assert_eq!(fixed, None);
}
