//! `agent-lsp explain`: the list, the card, `--check`, JSON shapes, unknown agents.

mod cli_support;

use std::path::Path;

use cli_support::{command, write};

fn project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        r#"{
  "permission": { "edit": "allow" },
  "agent": {
    "rev": { "mode": "subagent", "model": "anthropic/claude-sonnet-4", "permission": { "bash": { "*": "ask", "git push *": "deny" } } },
    "build": { "disable": true }
  }
}
"#,
    );
    write(
        t.path(),
        ".opencode/agents/rev.md",
        "---\ntemperature: 0.3\ntools:\n  write: false\n---\nYou review code.\n",
    );
    t
}

/// The temporary directory the binary sees: opencode allows `<tmp>/opencode/*` in
/// `external_directory`, so the cards name it.
const TMP: &str = "/agent-lsp-test-tmp";

fn explain(dir: &Path, args: &[&str]) -> (i32, String, String) {
    explain_in(dir, dir, args)
}

/// `agent-lsp explain ARGS... --no-global` run in `cwd`, with `HOME` at `home`.
fn explain_in(cwd: &Path, home: &Path, args: &[&str]) -> (i32, String, String) {
    let out = command(cwd, &["explain"])
        .args(args)
        .arg("--no-global")
        .env("HOME", home)
        .env("TMPDIR", TMP)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn list_shows_every_agent_with_its_origin() {
    let t = project();
    let (code, out, _) = explain(t.path(), &[]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("name"));
    // build is disabled; the built-ins follow opencode's order; rev is defined in two files.
    assert!(!out.contains("\nbuild "));
    assert!(lines[1].starts_with("plan "));
    let rev = lines.iter().find(|l| l.starts_with("rev ")).unwrap();
    assert!(
        rev.contains("subagent") && rev.contains("opencode.json:4:5") && rev.contains(".opencode/agents/rev.md:1:1")
    );
}

/// A project whose `rev` sets every field: the model and bash rules in `opencode.json`, the
/// rest in its Markdown file (an unknown key there becomes a provider option).
fn card_project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        r#"{
  "permission": { "edit": "allow" },
  "agent": {
    "rev": { "model": "anthropic/claude-sonnet-4", "permission": { "bash": { "*": "ask", "git push *": "deny" } } }
  }
}
"#,
    );
    write(
        t.path(),
        ".opencode/agents/rev.md",
        "---\ndescription: Reviews code\nmode: subagent\nhidden: true\ntemperature: 0.3\ntop_p: 0.9\nsteps: 8\ncolor: \"#FF5733\"\nreasoningEffort: high\npermission:\n  webfetch: deny\n---\nYou review code.\n",
    );
    t
}

/// The rules every agent starts with (opencode's defaults), then the user's `rules`, then the
/// final allow of the tool-output directory; `home` is `$HOME`.
/// Each of `rules` is (permission, pattern, action, where, layer).
/// The one answer of an `explain NAME --format json` list (one entry per dialect that has the
/// agent).
fn one(out: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let list = v.as_array().unwrap_or_else(|| panic!("not a list: {out}"));
    assert_eq!(list.len(), 1, "{out}");
    list[0].clone()
}

fn with_defaults(home: &str, rules: &[(&str, &str, &str, &str, &str)]) -> serde_json::Value {
    let tool_output = format!("{home}/.local/share/opencode/tool-output/*");
    let tmp = format!("{TMP}/opencode/*");
    let mut all: Vec<(&str, &str, &str, &str, &str)> = vec![
        ("*", "*", "allow", "built-in", "default"),
        ("doom_loop", "*", "ask", "built-in", "default"),
        ("external_directory", "*", "ask", "built-in", "default"),
        ("external_directory", &tool_output, "allow", "built-in", "default"),
        ("external_directory", &tmp, "allow", "built-in", "default"),
        ("question", "*", "deny", "built-in", "default"),
        ("plan_enter", "*", "deny", "built-in", "default"),
        ("plan_exit", "*", "deny", "built-in", "default"),
        ("read", "*", "allow", "built-in", "default"),
        ("read", "*.env", "ask", "built-in", "default"),
        ("read", "*.env.*", "ask", "built-in", "default"),
        ("read", "*.env.example", "allow", "built-in", "default"),
    ];
    all.extend(rules.iter().copied());
    all.push(("external_directory", &tool_output, "allow", "built-in", "default"));
    serde_json::Value::Array(
        all.into_iter()
            .map(|(permission, pattern, action, source, layer)| {
                serde_json::json!({ "permission": permission, "pattern": pattern, "action": action, "source": source, "layer": layer })
            })
            .collect(),
    )
}

#[test]
fn json_card_has_the_documented_values() {
    let t = card_project();
    let home = t.path().to_str().unwrap();
    let (code, out, err) = explain(t.path(), &["rev", "--format", "json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = one(&out);
    let expected = serde_json::json!({
        "dialect": "opencode",
        "name": "rev",
        "key": "rev",
        "mode": "subagent",
        "hidden": true,
        "native": false,
        "model": "anthropic/claude-sonnet-4",
        "variant": null,
        "temperature": 0.3,
        "top_p": 0.9,
        "steps": 8,
        "color": "#FF5733",
        "description": "Reviews code",
        "prompt": "the Markdown body",
        "options": { "reasoningEffort": "high" },
        "permission": with_defaults(home, &[
            ("edit", "*", "allow", "opencode.json:2:19", "config"),
            ("bash", "*", "ask", "opencode.json:4:78", "agent"),
            ("bash", "git push *", "deny", "opencode.json:4:90", "agent"),
            ("webfetch", "*", "deny", ".opencode/agents/rev.md:11:3", "agent"),
        ]),
        "decisions": {
            "*": "allow",
            "bash": "ask",
            "doom_loop": "ask",
            "edit": "allow",
            "external_directory": "ask",
            "plan_enter": "deny",
            "plan_exit": "deny",
            "question": "deny",
            "read": "allow",
            "webfetch": "deny",
        },
        "defined_in": ["opencode.json:4:5", ".opencode/agents/rev.md:1:1"],
        "problems": [],
    });
    assert_eq!(v, expected, "{out}");
}

/// The agent of `project()`: `tools.write: false` became an edit deny after the top-level edit
/// allow, so edit is denied; fields that are not set are null.
#[test]
fn json_card_of_a_merged_agent() {
    let t = project();
    let home = t.path().to_str().unwrap();
    let (code, out, _) = explain(t.path(), &["rev", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = one(&out);
    let expected = serde_json::json!({
        "dialect": "opencode",
        "name": "rev",
        "key": "rev",
        "mode": "subagent",
        "hidden": false,
        "native": false,
        "model": "anthropic/claude-sonnet-4",
        "variant": null,
        "temperature": 0.3,
        "top_p": null,
        "steps": null,
        "color": null,
        "description": null,
        "prompt": "the Markdown body",
        "options": {},
        "permission": with_defaults(home, &[
            ("edit", "*", "allow", "opencode.json:2:19", "config"),
            ("bash", "*", "ask", "opencode.json:4:98", "agent"),
            ("bash", "git push *", "deny", "opencode.json:4:110", "agent"),
            ("edit", "*", "deny", ".opencode/agents/rev.md:4:3", "agent"),
        ]),
        "decisions": {
            "*": "allow",
            "bash": "ask",
            "doom_loop": "ask",
            "edit": "deny",
            "external_directory": "ask",
            "plan_enter": "deny",
            "plan_exit": "deny",
            "question": "deny",
            "read": "allow",
        },
        "defined_in": ["opencode.json:4:5", ".opencode/agents/rev.md:1:1"],
        "problems": [],
    });
    assert_eq!(v, expected, "{out}");
}

/// The list, as JSON: every agent opencode would list, in its order, with its origin (`build`
/// is disabled by the config and left out).
#[test]
fn json_list_has_the_documented_values() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["--format", "json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let built_in = |name: &str, mode: &str, hidden: bool| serde_json::json!({ "dialect": "opencode", "name": name, "key": name, "mode": mode, "hidden": hidden, "native": true, "defined_in": ["built-in"], "problems": [] });
    let expected = serde_json::json!([
        built_in("plan", "primary", false),
        built_in("general", "subagent", false),
        built_in("explore", "subagent", false),
        built_in("compaction", "primary", true),
        built_in("title", "primary", true),
        built_in("summary", "primary", true),
        { "dialect": "opencode", "name": "rev", "key": "rev", "mode": "subagent", "hidden": false, "native": false,
          "defined_in": ["opencode.json:4:5", ".opencode/agents/rev.md:1:1"], "problems": [] },
    ]);
    assert_eq!(v, expected, "{out}");
}

/// `--root DIR` explains the project in DIR from any current directory; file sources are
/// shown relative to the current directory when under it, else as the root was given.
#[test]
fn root_explains_another_directory() {
    let t = card_project();
    let home = t.path();
    let elsewhere = tempfile::tempdir().unwrap();
    let root = t.path().to_str().unwrap();
    let (code, out, err) = explain_in(elsewhere.path(), home, &["rev", "--root", root, "--format", "json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = one(&out);
    // The same card as from inside the project, with the file sources under the root.
    let (_, inside, _) = explain(t.path(), &["rev", "--format", "json"]);
    let inside = inside
        .replace("\"opencode.json:", &format!("\"{root}/opencode.json:"))
        .replace("\".opencode/agents/", &format!("\"{root}/.opencode/agents/"));
    assert_eq!(v, one(&inside), "{out}");
    assert_eq!(v["defined_in"][1], format!("{root}/.opencode/agents/rev.md:1:1"));
    // The list, and `--check`, from elsewhere too.
    let (code, out, _) = explain_in(elsewhere.path(), home, &["--root", root]);
    assert_eq!(code, 0);
    let rev = out
        .lines()
        .find(|l| l.starts_with("rev "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(rev.contains(&format!("{root}/opencode.json:4:5")), "{out}");
    let (code, out, _) = explain_in(
        elsewhere.path(),
        home,
        &[
            "rev",
            "--root",
            root,
            "--check",
            "bash",
            "git push origin",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = one(&out);
    assert_eq!(v["action"], "deny");
    assert_eq!(v["rule"]["source"], format!("{root}/opencode.json:4:90"));
    // From the current directory without --root, the project is not found: only built-ins.
    let (code, out, _) = explain_in(elsewhere.path(), home, &["rev"]);
    assert_eq!(code, 2, "{out}");
    // A relative --root is resolved against the current directory (the sources, under it,
    // are shown relative to it).
    let parent = t.path().parent().unwrap();
    let name = t.path().file_name().unwrap().to_str().unwrap();
    let (code, out, _) = explain_in(parent, home, &["--root", name]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("{name}/opencode.json:4:5")), "{out}");
}

#[test]
fn check_answers_one_question_with_the_deciding_rule() {
    let t = project();
    let (code, out, _) = explain(
        t.path(),
        &["rev", "--check", "bash", "git push origin", "--format", "json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = one(&out);
    assert_eq!(v["action"], "deny");
    assert_eq!(v["rule"]["pattern"], "git push *");
    assert_eq!(v["rule"]["source"], "opencode.json:4:110");
    // The top-level `edit: allow` re-opens editing in plan (user rules come after plan's own).
    let (_, out, _) = explain(t.path(), &["plan", "--check", "edit", "src/main.rs"]);
    assert!(out.contains("→ allow") && out.contains("opencode.json:2:19"), "{out}");
    // No rule at all matches an unknown permission of an agent whose rules all name others.
    let (_, out, _) = explain(
        t.path(),
        &["plan", "--check", "edit", ".opencode/plans/x.md", "--format", "json"],
    );
    let v: serde_json::Value = one(&out);
    assert_eq!(v["action"], "allow");
}

#[test]
fn human_card_lists_fields_sources_and_permissions() {
    let t = project();
    let (code, out, _) = explain(t.path(), &["rev", "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(out.contains("### `rev`: opencode subagent"), "{out}");
    assert!(
        out.contains("| temperature | 0.3 | .opencode/agents/rev.md:2:14 |"),
        "{out}"
    );
    // On a terminal (the default format) the same card is rendered: no Markdown markers, the
    // table in aligned columns (colour only on a terminal without NO_COLOR).
    let (code, rendered, _) = explain(t.path(), &["rev"]);
    assert_eq!(code, 0);
    assert!(rendered.starts_with("rev: opencode subagent\n"), "{rendered}");
    assert!(
        !rendered.contains("**") && !rendered.contains('`') && !rendered.contains("|---|"),
        "{rendered}"
    );
    assert!(!rendered.contains('\x1b'), "{rendered}");
    let row = rendered.lines().find(|l| l.starts_with("temperature ")).unwrap();
    let header = rendered.lines().find(|l| l.starts_with("setting ")).unwrap();
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        ["temperature", "0.3", ".opencode/agents/rev.md:2:14"]
    );
    assert_eq!(row.find("0.3"), header.find("value"), "{rendered}");
    // Decision first: the permission summary, then the settings, then every rule in order.
    let summary = out.find("- `bash`: **ask**, except `git push *`: deny").expect(&out);
    let settings = out.find("| temperature |").expect(&out);
    let rules = out
        .find("`bash`, `git push *`: deny (opencode.json:4:110)")
        .expect(&out);
    assert!(summary < settings && settings < rules, "{out}");
    // Only the settings that are set: no row for what nothing sets.
    assert!(!out.contains("not set") && !out.contains("| top_p |"), "{out}");
}

#[test]
fn unknown_agent_is_exit_2_with_did_you_mean() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["revv"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("Did you mean `rev`?"), "{err}");
    let (code, _, err) = explain(t.path(), &["--check", "bash", "ls"]);
    assert_eq!(code, 2, "{err}");
}

/// A project with a sub-project (its own `opencode.json` below the project's): opencode
/// started in the sub-project loads both configs, so both agents exist there.
fn project_with_a_sub_project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        r#"{"agent": {"rootonly": {"mode": "primary", "prompt": "x"}}}"#,
    );
    write(
        t.path(),
        "packages/api/opencode.json",
        r#"{"agent": {"apionly": {"mode": "primary", "prompt": "x"}}}"#,
    );
    t
}

/// The agents of an `explain --format json` list that are not built in.
fn own_agents(out: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v.as_array()
        .unwrap()
        .iter()
        .filter(|a| a["native"] == false)
        .map(|a| a["key"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn root_of_a_sub_project_from_elsewhere() {
    let t = project_with_a_sub_project();
    let sub = t.path().join("packages/api");
    let elsewhere = tempfile::tempdir().unwrap();
    for cwd in [elsewhere.path(), sub.as_path(), t.path()] {
        let (code, out, _) = explain_in(cwd, t.path(), &["--root", sub.to_str().unwrap(), "--format", "json"]);
        assert_eq!(code, 0);
        assert_eq!(own_agents(&out), ["rootonly", "apionly"], "from {cwd:?}: {out}");
    }
    // The project itself does not see its sub-project's agents.
    let (_, out, _) = explain_in(
        elsewhere.path(),
        t.path(),
        &["--root", t.path().to_str().unwrap(), "--format", "json"],
    );
    assert_eq!(own_agents(&out), ["rootonly"], "{out}");
}

/// The same sub-project as a relative path: the default `--root .` in the sub-project, or
/// `--root packages/api` from the project.
#[test]
fn relative_root_of_a_sub_project() {
    let t = project_with_a_sub_project();
    let sub = t.path().join("packages/api");
    let (code, out, _) = explain_in(&sub, t.path(), &["--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(own_agents(&out), ["rootonly", "apionly"], "in the sub-project: {out}");
    let (code, out, _) = explain_in(t.path(), t.path(), &["--root", "packages/api", "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(own_agents(&out), ["rootonly", "apionly"], "--root packages/api: {out}");
}

// ---------------------------------------------------------------------------------------------
// Claude Code agents
// ---------------------------------------------------------------------------------------------

fn claude_project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, Task(helper), LS\ndisallowedTools: Grep\nmodel: opus\npermissionMode: manual\ncolor: cyan\n---\nReview.\n",
    );
    write(
        t.path(),
        ".claude/agents/helper.md",
        "---\nname: helper\ndescription: Helps\n---\n",
    );
    write(
        t.path(),
        "sub/.claude/agents/helper.md",
        "---\nname: helper\ndescription: Closer\n---\n",
    );
    t
}

#[test]
fn claude_agent_card_and_json() {
    let t = claude_project();
    let (code, out, err) = explain(t.path(), &["reviewer", "--format", "markdown"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "### `reviewer`: Claude Code agent\n\nReviews code\n\n- **tools**: `Read`, `Agent(helper)`\n- **permission mode**: `default`\n- **model**: `opus`: the latest Opus model\n- **color**: `cyan`\n\nDefined in .claude/agents/reviewer.md:2:7 (project).\n"
    );
    let (code, out, _) = explain(t.path(), &["reviewer", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = one(&out);
    assert_eq!(
        v,
        serde_json::json!({
            "dialect": "claude", "name": "reviewer", "loaded": true, "description": "Reviews code",
            "model": "opus", "permissionMode": "default", "unset": [], "tools": ["Read", "Agent(helper)"],
            "settings": {"color": "cyan"},
            "defined_in": [{"location": ".claude/agents/reviewer.md:2:7", "source": "project"}],
            "problems": [],
        })
    );
}

/// An agent without `model` inherits by default; one with `model: inherit` says so. Claude Code
/// lists the first with no model and the second with `inherit`: the card says "(not set)" and
/// the JSON names the defaults in `unset` (as for `permissionMode`).
#[test]
fn claude_unset_model_is_the_default() {
    let t = claude_project();
    write(
        t.path(),
        ".claude/agents/explicit.md",
        "---\nname: explicit\ndescription: Inherits on purpose\nmodel: inherit\n---\n",
    );
    let (code, out, _) = explain(t.path(), &["helper", "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("\n- **permission mode**: `default` (not set)\n- **model**: `inherit` (not set): the model of the conversation that starts it\n"),
        "{out}"
    );
    let (_, out, _) = explain(t.path(), &["explicit", "--format", "markdown"]);
    assert!(
        out.contains("\n- **model**: `inherit`: the model of the conversation that starts the agent (the default)\n"),
        "{out}"
    );
    let json = |name: &str| -> serde_json::Value {
        let (code, out, _) = explain(t.path(), &[name, "--format", "json"]);
        assert_eq!(code, 0, "{out}");
        one(&out)
    };
    let (helper, explicit) = (json("helper"), json("explicit"));
    assert_eq!(
        (&helper["model"], &helper["unset"]),
        (
            &serde_json::json!("inherit"),
            &serde_json::json!(["model", "permissionMode"])
        )
    );
    assert_eq!(
        (&explicit["model"], &explicit["unset"]),
        (&serde_json::json!("inherit"), &serde_json::json!(["permissionMode"]))
    );
}

/// From a nested project, its own `.claude/agents/` wins over its ancestors'.
#[test]
fn claude_closest_project_wins() {
    let t = claude_project();
    let (code, out, err) = explain(t.path(), &["helper", "--root", "sub"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("\nCloser\n"), "{out}");
    assert!(
        out.ends_with("Defined in sub/.claude/agents/helper.md:2:7 (project).\nShadowed: .claude/agents/helper.md:2:7 (project).\n"),
        "{out}"
    );
    let (_, out, _) = explain(t.path(), &["helper"]);
    assert!(out.contains("\nHelps\n") && !out.contains("Shadowed"), "{out}");
}

/// A name that is both an opencode and a Claude agent: both cards in human form; JSON and
/// `--check` need `--dialect`.
#[test]
fn a_name_in_both_dialects() {
    let t = claude_project();
    write(
        t.path(),
        ".opencode/agents/reviewer.md",
        "---\nmode: subagent\n---\nReview.\n",
    );
    let (code, out, _) = explain(t.path(), &["reviewer", "--format", "markdown"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("opencode:\n\n### `reviewer`: opencode subagent"),
        "{out}"
    );
    assert!(
        out.contains("\nClaude Code:\n\n### `reviewer`: Claude Code agent"),
        "{out}"
    );
    // JSON: a list with every dialect's agent, in the order of the text.
    let (code, out, err) = explain(t.path(), &["reviewer", "--format", "json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let dialects: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["dialect"].as_str().unwrap())
        .collect();
    assert_eq!(dialects, ["opencode", "claude"]);
    let (code, out, _) = explain(t.path(), &["reviewer", "--format", "json", "--dialect", "claude"]);
    assert_eq!(code, 0);
    assert_eq!(one(&out)["dialect"], "claude");
    let (code, out, _) = explain(t.path(), &["reviewer", "--format", "json", "--dialect", "opencode"]);
    assert_eq!(code, 0);
    assert_eq!(one(&out)["mode"], "subagent");
    // The list names both dialects.
    let (_, out, _) = explain(t.path(), &["--format", "json", "--dialect", "claude"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["helper", "reviewer"]);
    // `--check` answers for every dialect that has the agent: Claude Code's from its tool grant
    // (`Read`, `Agent(helper)`: no `Edit`).
    let (code, out, err) = explain(t.path(), &["reviewer", "--check", "edit", "a.md"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.starts_with("opencode:\nreviewer: edit \"a.md\" → "), "{out}");
    assert!(
        out.contains("\nClaude Code:\nreviewer: edit \"a.md\" → deny\n"),
        "{out}"
    );
    let (_, out, _) = explain(
        t.path(),
        &["reviewer", "--check", "edit", "a.md", "--dialect", "claude"],
    );
    assert!(out.starts_with("reviewer: edit \"a.md\" → deny\n"), "{out}");
    // An unknown name suggests from both dialects.
    let (code, _, err) = explain(t.path(), &["helpr"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "agent-lsp: error: no agent \"helpr\" in this project. Did you mean `helper`?\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Zuno agents
// ---------------------------------------------------------------------------------------------

fn zuno_project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "zuno.json",
        r#"{"default_agent": "lead", "agents": {"lead": {"mode": "primary", "model": "a/b", "delegates": ["docs"], "permission": {"mode": "strict", "rules": {"*": "ask", "shell": {"git *": "allow"}}}}}}"#,
    );
    write(
        t.path(),
        ".zuno/agents/docs.md",
        "---\nmode: subagent\ndescription: Writes docs\n---\nWrite.\n",
    );
    write(t.path(), ".zuno/agents/lead.md", "---\nreasoning: high\n---\nLead.\n");
    t
}

/// The merged Zuno agent: the config entry and the Markdown file of the same name, each value
/// with its source, the permission mode and rules in order.
#[test]
fn zuno_agent_card_and_json() {
    let t = zuno_project();
    let (code, out, err) = explain(t.path(), &["lead", "--format", "markdown"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "### `lead`: Zuno primary agent\n\n**Permission** mode `strict` (zuno.json:1:38); rules in order, the last match wins:\n\n- `*` `*` → ask\n- `shell` `git *` → allow\n\n**Settings**\n\n- **model**: `a/b` (zuno.json:1:38)\n- **reasoning**: `high` (.zuno/agents/lead.md:1:1)\n- **delegates**: `docs` (zuno.json:1:38)\n\nDefined in: zuno.json:1:38; .zuno/agents/lead.md:1:1.\n"
    );
    let (code, out, _) = explain(t.path(), &["lead", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = one(&out);
    assert_eq!(
        v,
        serde_json::json!({
            "dialect": "zuno", "name": "lead", "mode": "primary", "builtin": false, "disabled": false,
            "fields": {"mode": "primary", "model": "a/b", "delegates": ["docs"], "reasoning": "high"},
            "permission": {"mode": "strict", "rules": [
                {"permission": "*", "pattern": "*", "action": "ask"},
                {"permission": "shell", "pattern": "git *", "action": "allow"}]},
            "defined_in": ["zuno.json:1:38", ".zuno/agents/lead.md:1:1"],
            "problems": [],
        })
    );
    // A built-in, and the list with the project's agents.
    let (code, out, _) = explain(t.path(), &["fixer", "--dialect", "zuno"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("fixer: Zuno subagent (built-in)\n"), "{out}");
    let (_, out, _) = explain(t.path(), &["--format", "json", "--dialect", "zuno"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"lead") && names.contains(&"docs") && names.contains(&"orchestrator"),
        "{names:?}"
    );
    // `--check` answers for a Zuno agent too (its permission rules, `shell` for `bash`).
    let (code, out, err) = explain(t.path(), &["lead", "--check", "bash", "ls"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.starts_with("lead: bash \"ls\" → "), "{out}");
    let (_, out, _) = explain(t.path(), &["lead", "--check", "bash", "ls", "--format", "json"]);
    let v = one(&out);
    assert_eq!(
        (&v["dialect"], &v["agent"]),
        (&serde_json::json!("zuno"), &serde_json::json!("lead"))
    );
    assert!(v["action"].is_string(), "{out}");
}

/// A project opencode refuses (`mode: main`), a Claude Code agent it skips (no
/// `description`), and an agent file over 4 MiB that agent-lsp does not read.
fn broken_project() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".opencode/agents/planner.md",
        "---\nmode: main\ndescription: Plans\n---\nYou plan.\n",
    );
    write(
        t.path(),
        ".opencode/agents/lead.md",
        "---\nmode: primary\ndescription: Leads\npermission:\n  task:\n    planner: allow\n---\nYou lead.\n",
    );
    write(
        t.path(),
        ".opencode/agents/huge.md",
        &format!("---\ndescription: Huge\n---\n{}", "x".repeat(5 << 20)),
    );
    write(
        t.path(),
        ".claude/agents/debugger.md",
        "---\nname: debugger\ntools: Read\n---\nDebug.\n",
    );
    t
}

#[test]
fn explain_says_first_when_the_runtime_refuses_or_leaves_files_out() {
    let t = broken_project();
    let banner = [
        "opencode refuses this configuration: 1 error, the first at .opencode/agents/planner.md:2:7 [invalid-value]; run `agent-lsp check`",
        "Claude Code leaves out 1 file: .claude/agents/debugger.md",
        "agent-lsp did not analyse 1 file (over 4 MiB, binary or unreadable): .opencode/agents/huge.md",
    ];
    // The list: the banner, then the table with the affected agent marked.
    let (code, out, err) = explain(t.path(), &[]);
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..3], banner, "{out}");
    assert_eq!(lines[3], "");
    assert!(lines[4].starts_with("  name "), "{out}");
    let row = |name: &str| {
        *lines
            .iter()
            .find(|l| l[2.min(l.len())..].starts_with(&format!("{name} ")))
            .unwrap()
    };
    assert!(row("planner").starts_with("! planner "), "{out}");
    assert!(row("lead").starts_with("  lead "), "{out}");

    // The card: the banner of its own runtime only (an opencode agent's card says nothing of
    // Claude Code's files), then this agent's own problem in full, then the card.
    let (code, out, _) = explain(t.path(), &["planner"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], [banner[0], banner[2]], "{out}");
    assert!(
        lines[3].starts_with(
            "! .opencode/agents/planner.md:2:7: `mode` must be \"subagent\", \"primary\" or \"all\", got \"main\""
        ),
        "{out}"
    );
    assert!(lines[3].ends_with("[invalid-value]"), "{out}");
    // A Claude Code agent's card: only what concerns Claude Code.
    let (_, out, _) = explain(t.path(), &["--dialect", "claude"]);
    assert!(!out.contains("opencode refuses"), "{out}");

    // Graphs carry it as comments; JSON keeps its shape, the banner goes to stderr, and each
    // agent lists its problems.
    let (code, out, _) = explain(t.path(), &["--graph"]);
    assert_eq!(code, 1);
    assert!(out.starts_with(&format!("%% {}\n", banner[0])), "{out}");
    let (_, out, _) = explain(t.path(), &["--graph", "--format", "dot"]);
    assert!(out.starts_with(&format!("// {}\n", banner[0])), "{out}");
    let (code, out, err) = explain(t.path(), &["--format", "json"]);
    assert_eq!(code, 1);
    let expected_err: String = banner.iter().map(|l| format!("agent-lsp: {l}\n")).collect();
    assert_eq!(err, expected_err);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    let of = |name: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(of("lead")["problems"], serde_json::json!([]));
    let p = &of("planner")["problems"][0];
    assert_eq!(
        (&p["location"], &p["code"], &p["refuses_to_start"], &p["dialect"]),
        (
            &serde_json::json!(".opencode/agents/planner.md:2:7"),
            &serde_json::json!("invalid-value"),
            &serde_json::json!(true),
            &serde_json::json!("opencode")
        )
    );
    let (_, out, err) = explain(t.path(), &["planner", "--format", "json"]);
    // Only the runtime of the agent asked about: not Claude Code's file left out.
    assert_eq!(
        err,
        expected_err.replace(
            "agent-lsp: Claude Code leaves out 1 file: .claude/agents/debugger.md\n",
            ""
        )
    );
    let card = one(&out);
    assert_eq!(card["problems"][0]["code"], "invalid-value");
    let (code, out, _) = explain(t.path(), &["--matrix"]);
    assert_eq!(code, 1);
    assert!(out.starts_with(&format!("{}\n", banner[0])), "{out}");

    // An agent that does not load says where it is defined and why, not "no agent".
    let (code, out, err) = explain(t.path(), &["debugger"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "agent-lsp: error: \"debugger\" is defined here, but does not load:\n  .claude/agents/debugger.md:1:1: Claude Code skips this file (no description):\n    .claude/agents/debugger.md:2:7: there is no `description`: Claude Code skips this agent (\"Missing required \\\"description\\\" field\"). Say when Claude should delegate to it [missing-field]\n"
    );
    let (code, _, err) = explain(t.path(), &["huge"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("agent-lsp: error: \"huge\" is defined here, but does not load:\n  .opencode/agents/huge.md:1:1:\n    .opencode/agents/huge.md:1:1: agent-lsp did not analyse this file: it is 5.0 MiB"),
        "{err}"
    );

    // A healthy project prints no banner and exits 0.
    let t = project();
    let (code, out, err) = explain(t.path(), &["rev"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("rev: opencode subagent"), "{out}");
}

#[test]
fn check_of_an_unknown_permission_says_so_with_a_did_you_mean() {
    let t = project();
    let (code, out, _) = explain(t.path(), &["rev", "--check", "bahs", "ls"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().last().unwrap(),
        "  note: `bahs` is no permission opencode knows and no rule of this agent names it (did you mean `bash`?); only a custom or MCP tool of that name would be decided so"
    );
    let (_, out, _) = explain(t.path(), &["rev", "--check", "bahs", "ls", "--format", "json"]);
    let v: serde_json::Value = one(&out);
    assert_eq!(
        (&v["known_permission"], &v["did_you_mean"]),
        (&serde_json::json!(false), &serde_json::json!("bash"))
    );
    // A known permission, and a tool named by a rule, get no note.
    let (_, out, _) = explain(t.path(), &["rev", "--check", "bash", "ls"]);
    assert!(!out.contains("note:"), "{out}");
    let (_, out, _) = explain(t.path(), &["rev", "--check", "bash", "ls", "--format", "json"]);
    let v: serde_json::Value = one(&out);
    assert_eq!(v.get("known_permission"), None);
}

/// `explain AGENT` lists the permissions in the hover card's order, in full: what the agent's
/// own files set, what else differs from opencode's defaults (with where), then each default.
#[test]
fn the_card_leads_with_what_the_agent_sets_and_lists_every_default() {
    let t = card_project();
    let (code, out, err) = explain(t.path(), &["rev", "--format", "markdown"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let block = out
        .split("**Permissions**")
        .nth(1)
        .and_then(|rest| rest.split("**Settings**").next())
        .expect(&out);
    let lines: Vec<&str> = block.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(
        lines,
        [
            "- `bash`: **ask**, except `git push *`: deny",
            "- `webfetch`: **deny**",
            "- `edit`: **allow** (opencode.json:2:19)",
            "- `doom_loop`: **ask** (opencode's default)",
            "- `external_directory`: **ask**, except `<tmpdir>/opencode/*`, `~/.local/share/opencode/tool-output/*`: allow (opencode's default)",
            "- `question`: **deny** (opencode's default)",
            "- `plan_enter`: **deny** (opencode's default)",
            "- `plan_exit`: **deny** (opencode's default)",
            "- `read`: **allow**, except `*.env`, `*.env.*`: ask; `*.env.example`: allow (opencode's default)",
            "- any other permission: **allow** (opencode's default)",
        ],
        "{out}"
    );
}

/// A permission the config sets for every agent is shown with the rule that decides it (the
/// catch-all written last), not the first rule of that permission.
#[test]
fn a_config_permission_is_shown_with_its_deciding_rule() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        "{\n  \"permission\": {\n    \"bash\": {\n      \"git *\": \"allow\",\n      \"*\": \"ask\"\n    }\n  },\n  \"agent\": { \"rev\": { \"description\": \"r\", \"mode\": \"subagent\" } }\n}\n",
    );
    let (code, out, _) = explain(t.path(), &["rev", "--format", "markdown"]);
    assert_eq!(code, 0, "{out}");
    let first = out
        .split("**Permissions**")
        .nth(1)
        .and_then(|rest| rest.lines().find(|l| l.starts_with("- ")))
        .expect(&out);
    assert_eq!(first, "- `bash`: **ask** (opencode.json:5:7)", "{out}");
}

/// Rules of the `*` permission with a pattern decide inputs of every permission: they are the
/// exceptions of a permission the agent denies.
#[test]
fn a_wildcard_permission_rule_is_an_exception_of_every_permission() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".opencode/agents/rev.md",
        "---\ndescription: r\nmode: subagent\npermission:\n  bash: deny\n  \"*\":\n    \"git *\": allow\n---\nReview.\n",
    );
    let (code, out, _) = explain(t.path(), &["rev", "--format", "markdown"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\n- `bash`: **deny**, except `git *`: allow\n"), "{out}");
}

/// A config that only adds an exception to a permission (its catch-all stays opencode's
/// default): the line says where that exception is written.
#[test]
fn a_config_exception_alone_is_shown_with_where_it_is_written() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        "{\n  \"permission\": {\n    \"edit\": \"ask\",\n    \"bash\": { \"git push *\": \"deny\" }\n  },\n  \"agent\": { \"rev\": { \"description\": \"r\", \"mode\": \"subagent\" } }\n}\n",
    );
    let (code, out, _) = explain(t.path(), &["rev", "--format", "markdown"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\n- `edit`: **ask** (opencode.json:3:5)\n"), "{out}");
    assert!(
        out.contains("\n- `bash`: **allow**, except `git push *`: deny (opencode.json:4:15)\n"),
        "{out}"
    );
}

/// A config rule of the `*` permission with a pattern changes every permission's exceptions: a
/// permission whose action stays opencode's default is no longer shown as a default.
#[test]
fn a_default_permission_with_a_config_exception_is_not_a_default() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        "opencode.json",
        "{\n  \"permission\": {\n    \"*\": { \"rm *\": \"deny\" }\n  },\n  \"agent\": { \"rev\": { \"description\": \"r\", \"mode\": \"subagent\" } }\n}\n",
    );
    let (code, out, _) = explain(t.path(), &["rev", "--format", "markdown"]);
    assert_eq!(code, 0, "{out}");
    let read = out.lines().find(|l| l.starts_with("- `read`:")).expect(&out);
    assert!(
        read.contains("`rm *`: deny") && !read.ends_with("(opencode's default)"),
        "{out}"
    );
}
