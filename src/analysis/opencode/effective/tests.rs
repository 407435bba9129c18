use super::*;
use crate::analysis::opencode::{Analysis, FileKind, analyze};

fn build(files: &[(FileKind, &str)]) -> Vec<EffectiveAgent> {
    let analyses: Vec<Analysis> = files.iter().map(|(k, t)| analyze(k, t)).collect();
    let view: Vec<ViewFile> = analyses
        .iter()
        .enumerate()
        .map(|(file, analysis)| ViewFile {
            file,
            parsed: &analysis.parsed,
            facts: &analysis.facts,
            group: file,
        })
        .collect();
    agents(&view, &Env::default())
}

fn get<'a>(agents: &'a [EffectiveAgent], name: &str) -> &'a EffectiveAgent {
    agents.iter().find(|a| a.name == name).unwrap()
}

fn md(name: &str) -> FileKind {
    FileKind::Agent { name: name.into() }
}

#[test]
fn catch_all_counts_only_rules_that_can_still_decide() {
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"x": {"permission": {"bash": {"ls": "allow", "*": "deny", "git *": "ask", "rm *": "deny"}, "task": {"*": "deny", "rev": "allow"}}}}}"#,
    )]);
    let x = get(&a, "x");
    // `ls` comes before the catch-all deny and never decides.
    assert_eq!(x.catch_all("bash"), ("deny", 2));
    assert_eq!(x.catch_all("task"), ("deny", 1));
    // The default `*` allow decides; read keeps its three `.env` rules.
    assert_eq!(x.catch_all("edit"), ("allow", 0));
    assert_eq!(x.catch_all("read"), ("allow", 3));
    // explore denies everything first, then allows read: the default `.env` rules are gone.
    assert_eq!(get(&a, "explore").catch_all("read"), ("allow", 0));
    assert_eq!(get(&a, "explore").catch_all("edit"), ("deny", 0));
    assert_eq!(x.may_start("rev"), "allow");
    assert_eq!(x.may_start("general"), "deny");
    assert_eq!(get(&a, "plan").may_start("general"), "deny");
    assert_eq!(get(&a, "plan").may_start("x"), "allow");
}

#[test]
fn builtins_match_the_spec() {
    let a = build(&[]);
    let names: Vec<&str> = a.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        ["build", "plan", "general", "explore", "compaction", "title", "summary"]
    );
    let plan = get(&a, "plan");
    assert_eq!(plan.evaluate("edit", "src/main.rs").0, "deny");
    assert_eq!(plan.evaluate("edit", ".opencode/plans/x.md").0, "allow");
    assert_eq!(plan.evaluate("task", "general").0, "deny");
    assert_eq!(plan.evaluate("bash", "ls").0, "allow");
    let build = get(&a, "build");
    assert_eq!(build.evaluate("read", "src/.env").0, "ask");
    assert_eq!(build.evaluate("read", ".env.local").0, "ask");
    assert_eq!(build.evaluate("read", "a/b/.env.example").0, "allow");
    assert_eq!(build.evaluate("question", "*").0, "allow");
    assert_eq!(build.evaluate("doom_loop", "read").0, "ask");
    assert_eq!(build.evaluate("external_directory", "/tmp/x/*").0, "ask");
    assert_eq!(
        build
            .evaluate("external_directory", "~/.local/share/opencode/tool-output/a")
            .0,
        "allow"
    );
    let general = get(&a, "general");
    assert_eq!(general.evaluate("todowrite", "*").0, "deny");
    assert_eq!(general.mode.value, "subagent");
    let explore = get(&a, "explore");
    assert_eq!(explore.evaluate("edit", "a").0, "deny");
    assert_eq!(explore.evaluate("grep", "x").0, "allow");
    assert_eq!(explore.prompt.value, Prompt::BuiltIn("agent/prompt/explore.txt"));
    // opencode 1.18.34's agent.ts: the hidden agents' own prompts; build and plan have none.
    for (name, prompt) in [
        ("compaction", Prompt::BuiltIn("prompt/compaction.txt")),
        ("title", Prompt::BuiltIn("prompt/title.txt")),
        ("summary", Prompt::BuiltIn("prompt/summary.txt")),
        ("build", Prompt::ProviderDefault),
        ("plan", Prompt::ProviderDefault),
    ] {
        assert_eq!(get(&a, name).prompt.value, prompt, "{name}");
    }
    let title = get(&a, "title");
    assert!(title.hidden.value);
    assert_eq!(title.temperature.as_ref().unwrap().value, 0.5);
    assert_eq!(title.evaluate("bash", "ls").0, "deny");
}

#[test]
fn top_level_permission_comes_after_builtin_restrictions() {
    let a = build(&[(FileKind::Config, r#"{"permission": {"edit": "allow"}}"#)]);
    assert_eq!(get(&a, "plan").evaluate("edit", "src/main.rs").0, "allow");
    let a = build(&[(FileKind::Config, r#"{"permission": {"*": "allow"}}"#)]);
    assert_eq!(get(&a, "title").evaluate("bash", "ls").0, "allow");
}

#[test]
fn layers_merge_in_order_and_markdown_wins() {
    let a = build(&[
        (
            FileKind::Config,
            r#"{"agent": {"rev": {"mode": "subagent", "model": "a/b", "temperature": 0.1}}}"#,
        ),
        (md("rev"), "---\nmode: primary\ntemperature: 0.3\n---\nReview.\n"),
    ]);
    let rev = get(&a, "rev");
    assert_eq!(rev.mode.value, "primary");
    assert_eq!(rev.model.as_ref().unwrap().value, "a/b");
    assert_eq!(rev.temperature.as_ref().unwrap().value, 0.3);
    assert!(matches!(
        rev.temperature.as_ref().unwrap().source,
        Source::File { file: 1, .. }
    ));
    assert_eq!(rev.prompt.value, Prompt::Body { empty: false });
    assert_eq!(rev.definitions.len(), 2);
}

#[test]
fn mode_entries_win_and_disable_removes() {
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"x": {"mode": "subagent"}, "build": {"disable": true}}, "mode": {"x": {}}}"#,
    )]);
    assert_eq!(get(&a, "x").mode.value, "primary");
    assert!(a.iter().all(|a| a.name != "build"));
    // Disabled in the global layer, re-enabled later.
    let a = build(&[
        (FileKind::Config, r#"{"agent": {"build": {"disable": true}}}"#),
        (FileKind::Config, r#"{"agent": {"build": {"disable": false}}}"#),
    ]);
    assert!(a.iter().any(|a| a.name == "build"));
}

#[test]
fn overridden_permission_key_keeps_its_position() {
    // Layer 1: {"*": "deny", "bash": "allow"}; layer 2 sets "*" again to "ask". The merged
    // object keeps "*" first, so bash stays allowed (bash is the later rule).
    let a = build(&[
        (
            FileKind::Config,
            r#"{"agent": {"x": {"permission": {"*": "deny", "bash": "allow"}}}}"#,
        ),
        (FileKind::Config, r#"{"agent": {"x": {"permission": {"*": "ask"}}}}"#),
    ]);
    let x = get(&a, "x");
    assert_eq!(x.evaluate("bash", "ls").0, "allow");
    assert_eq!(x.evaluate("edit", "a").0, "ask");
    assert_eq!(x.mode.value, "all");
}

#[test]
fn tools_and_max_steps_convert() {
    let a = build(&[(
        md("t"),
        "---\ntools:\n  write: false\n  bash: true\npermission:\n  bash: ask\nmaxSteps: 7\n---\nBody\n",
    )]);
    let t = get(&a, "t");
    assert_eq!(t.evaluate("edit", "a.rs").0, "deny");
    assert_eq!(t.evaluate("bash", "ls").0, "ask");
    assert_eq!(t.steps.as_ref().unwrap().value, 7);
}

#[test]
fn spec_evaluation_vectors() {
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"x": {"permission": {"bash": {"*":"ask","git diff *":"allow","git log*":"allow","rm *":"deny"}}}}}"#,
    )]);
    let x = get(&a, "x");
    for (input, want) in [
        ("git diff", "allow"),
        ("git diff --stat", "allow"),
        ("git diffx", "ask"),
        ("git logger", "allow"),
        ("rm", "deny"),
        ("GIT diff", "ask"),
    ] {
        assert_eq!(x.evaluate("bash", input).0, want, "{input}");
    }
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"y": {"permission": {"bash": {"rm *":"deny","*":"allow"}}}}}"#,
    )]);
    assert_eq!(get(&a, "y").evaluate("bash", "rm x").0, "allow");
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"z": {"permission": {"*":"deny","mymcp_*":"allow"}}}}"#,
    )]);
    assert_eq!(get(&a, "z").evaluate("mymcp_search", "*").0, "allow");
    assert_eq!(get(&a, "z").evaluate("bash", "ls").0, "deny");
}

#[test]
fn tool_output_allow_is_appended_unless_denied() {
    let a = build(&[]);
    let last = get(&a, "build").permission.last().unwrap().clone();
    assert_eq!(last.permission, "external_directory");
    assert_eq!(last.action, "allow");
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"x": {"permission": {"external_directory": {"~/.local/share/opencode/tool-output/*": "deny"}}}}}"#,
    )]);
    assert_eq!(get(&a, "x").permission.last().unwrap().action, "deny");
}

#[test]
fn relative_paths_as_node_computes_them() {
    assert_eq!(
        relative_path("/w/repo", "/home/u/.local/share/opencode/plans/*.md"),
        "../../home/u/.local/share/opencode/plans/*.md"
    );
    assert_eq!(relative_path("/w/repo", "/w/repo/x/y"), "x/y");
    assert_eq!(relative_path("/", "/a/b"), "a/b");
    assert_eq!(relative_path("/a/b/", "/a/b"), "");
    assert_eq!(relative_path("/a/./b/../c", "/a/d"), "../d");
}

#[test]
fn whitelist_and_plan_rules_follow_the_environment() {
    let env = Env {
        data_dir: "/h/.local/share/opencode".into(),
        home: Some("/h".into()),
        tmp_dir: "/tmp/opencode".into(),
        worktree: Some("/w".into()),
        skill_dirs: vec![
            "/w/.claude/skills/a".into(),
            "/w/.claude/skills/a".into(),
            "/w/s/b".into(),
        ],
    };
    let views: Vec<ViewFile> = Vec::new();
    let a = agents(&views, &env);
    let ext: Vec<(&str, &str)> = get(&a, "build")
        .permission
        .iter()
        .filter(|r| r.permission == "external_directory")
        .map(|r| (r.pattern.as_str(), r.action.as_str()))
        .collect();
    assert_eq!(
        ext,
        [
            ("*", "ask"),
            ("/h/.local/share/opencode/tool-output/*", "allow"),
            ("/tmp/opencode/*", "allow"),
            ("/w/.claude/skills/a/*", "allow"),
            ("/w/s/b/*", "allow"),
            ("/h/.local/share/opencode/tool-output/*", "allow"),
        ]
    );
    let plan = get(&a, "plan");
    assert!(
        plan.permission
            .iter()
            .any(|r| r.permission == "edit" && r.pattern == "../h/.local/share/opencode/plans/*.md")
    );
    assert_eq!(
        plan.description.as_ref().unwrap().value,
        "Plan mode. Disallows all edit tools."
    );
    assert!(get(&a, "title").description.is_none());
}

#[test]
fn json_duplicates_keep_the_first_position_and_the_last_value() {
    let a = build(&[(
        FileKind::Config,
        r#"{"agent": {"x": {"permission": {"bash": {"rm *": "deny", "*": "allow", "rm *": "ask"}}}}}"#,
    )]);
    let bash: Vec<(&str, &str)> = get(&a, "x")
        .permission
        .iter()
        .filter(|r| r.permission == "bash")
        .map(|r| (r.pattern.as_str(), r.action.as_str()))
        .collect();
    assert_eq!(bash, [("rm *", "ask"), ("*", "allow")]);
}

#[test]
fn options_merge_deeply_and_unknown_keys_replace_entries() {
    let a = build(&[
        (
            FileKind::Config,
            r#"{"agent": {"o": {"options": {"a": {"x": 1, "y": 2}, "b": [1], "k": 1}}}}"#,
        ),
        (
            md("o"),
            "---\noptions:\n  a:\n    y: 3\n  b: [2]\nk: {z: true}\n---\nP\n",
        ),
    ]);
    let o = get(&a, "o");
    let opts: serde_json::Map<String, serde_json::Value> =
        o.options.iter().map(|(k, v)| (k.clone(), v.value.clone())).collect();
    assert_eq!(
        serde_json::Value::Object(opts),
        serde_json::json!({"a": {"x": 1, "y": 3}, "b": [2], "k": {"z": true}})
    );
    assert!(matches!(o.options[0].1.source, Source::File { file: 1, .. }));
}

#[test]
fn display_names_come_from_config_entries_and_markdown_resets_them() {
    let a = build(&[(FileKind::Config, r#"{"agent": {"k": {"name": "Display"}}}"#)]);
    assert_eq!(get(&a, "k").display_name.as_ref().unwrap().value, "Display");
    let a = build(&[
        (FileKind::Config, r#"{"agent": {"k": {"name": "Display"}}}"#),
        (md("k"), "---\ndescription: d\n---\nP\n"),
    ]);
    assert!(get(&a, "k").display_name.is_none());
}

#[test]
fn lost_frontmatter_builds_a_bare_agent() {
    let a = build(&[(md("b"), "---\nmode: subagent\nmode: primary\nmodel: a/b\n---\nP\n")]);
    let b = get(&a, "b");
    assert_eq!(b.mode.value, "all");
    assert!(b.model.is_none());
    assert_eq!(b.prompt.value, Prompt::WholeFile);
}
