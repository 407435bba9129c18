//! Team policies through the binary: `check` in its formats (the finding, its place, its
//! counterexample, SARIF's policy id), the exit status, `explain --who` (human and JSON), across
//! the three dialects, and a policy's own mistakes.

mod cli_support;

use cli_support::*;
use serde_json::Value;

const CONFIG: &str = r#"{
  "agent": {
    "deployer": {
      "mode": "subagent",
      "description": "Deploys",
      "permission": { "bash": { "*": "ask", "git *": "allow" } }
    }
  }
}
"#;
const REVIEWER: &str = "---\ndescription: Reviews\nmode: subagent\npermission:\n  bash:\n    \"*\": deny\n    \"git diff *\": allow\n---\nReview.\n";
const CLAUDE_AGENT: &str = "---\nname: pusher\ndescription: Pushes\ntools: Bash, Read\n---\nPush.\n";
const CLAUDE_SETTINGS: &str = r#"{"permissions": {"allow": ["Bash(git *)"], "ask": ["Bash(git push:*)"]}}"#;
const ZUNO: &str = r#"{"agents": {"lead": {"mode": "primary", "description": "Leads", "permission": {"mode": "standard", "rules": {"shell": {"*": "ask", "git *": "allow"}}}}}}"#;
const POLICY: &str = r#"[[policy]]
id = "no-unattended-push"
message = "Pushing needs a human"
permission = "bash"
inputs = ["git push", "git push *"]
at-most = "ask"
agents = ["deployer", "reviewer", "pusher", "lead"]
"#;

fn project() -> tempfile::TempDir {
    workspace(&[
        ("opencode.json", CONFIG),
        (".opencode/agents/reviewer.md", REVIEWER),
        (".claude/agents/pusher.md", CLAUDE_AGENT),
        (".claude/settings.json", CLAUDE_SETTINGS),
        ("zuno.json", ZUNO),
        ("agent-lsp.toml", POLICY),
    ])
}

fn policy_findings(v: &Value) -> Vec<(String, u64, String)> {
    let mut out = Vec::new();
    for d in v["diagnostics"].as_array().into_iter().flatten() {
        if d["code"] == "policy-violation" {
            out.push((
                d["path"].as_str().unwrap_or_default().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap_or_default().to_string(),
            ));
        }
    }
    out
}

#[test]
fn check_reports_each_violation_on_its_rule_with_a_counterexample() {
    let ws = project();
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    assert_eq!(out.status, 1, "{out:#?}");
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = policy_findings(&v);
    // opencode's deployer: allowed by its `git *` rule. Zuno's lead: its `git *` rule too.
    // Claude Code's pusher: `Bash(git push:*)` asks for every push (deny, ask, allow order), and
    // the reviewer denies: both hold.
    assert_eq!(found.len(), 2, "{found:#?}");
    let oc = found.iter().find(|f| f.0 == "opencode.json").expect("on opencode.json");
    assert_eq!(oc.1, 6, "{oc:?}");
    assert!(
        oc.2.starts_with("policy `no-unattended-push` does not hold for agent `deployer` (opencode): `bash` `git push` gets `allow` (`bash` \"git *\": allow)"),
        "{}",
        oc.2
    );
    let zuno = found.iter().find(|f| f.0 == "zuno.json").expect("on zuno.json");
    assert!(
        zuno.2.contains("agent `lead` (Zuno): `shell` `git push` gets `allow`"),
        "{}",
        zuno.2
    );

    // SARIF carries the policy's id.
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "sarif", "."]);
    let sarif: Value = serde_json::from_str(&out.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let policy: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "policy-violation").collect();
    assert_eq!(policy.len(), 2);
    assert!(policy.iter().all(|r| r["properties"]["policy"] == "no-unattended-push"));
    assert!(policy.iter().all(|r| {
        r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .is_some_and(|u| u.ends_with("agent-lsp.toml"))
    }));

    // Fixed in both runtimes: nothing, and a clean exit.
    write(
        ws.path(),
        "opencode.json",
        &CONFIG.replace(r#""git *": "allow" }"#, r#""git *": "allow", "git push*": "ask" }"#),
    );
    write(
        ws.path(),
        "zuno.json",
        &ZUNO.replace(r#""git *": "allow"}"#, r#""git *": "allow", "git push*": "deny"}"#),
    );
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(policy_findings(&v).is_empty(), "{}", out.stdout);
}

#[test]
fn explain_who_lists_every_agent_with_its_deciding_rule() {
    let ws = project();
    let out = agent_lsp(
        ws.path(),
        &[
            "explain",
            "--no-global",
            "--who",
            "bash",
            "git push origin main",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status, 0, "{out:#?}");
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["permission"], "bash");
    assert_eq!(v["input"], "git push origin main");
    let agents = v["agents"].as_array().unwrap();
    let row = |name: &str, dialect: &str| -> &Value {
        agents
            .iter()
            .find(|a| a["name"] == name && a["dialect"] == dialect)
            .unwrap_or_else(|| panic!("{name} ({dialect}) in {agents:#?}"))
    };
    let d = row("deployer", "opencode");
    assert_eq!(d["decision"], "allow");
    assert_eq!(d["rule"]["path"], "opencode.json");
    assert_eq!(
        (d["rule"]["line"].as_u64(), d["rule"]["column"].as_u64()),
        (Some(6), Some(45))
    );
    let r = row("reviewer", "opencode");
    assert_eq!(r["decision"], "deny");
    assert_eq!(r["rule"]["path"], ".opencode/agents/reviewer.md");
    assert_eq!(row("pusher", "claude")["decision"], "ask");
    assert_eq!(row("pusher", "claude")["rule"]["path"], ".claude/settings.json");
    assert_eq!(row("lead", "zuno")["decision"], "allow");
    // A built-in default decides: no place.
    let build = row("build", "opencode");
    assert_eq!(build["decision"], "allow");
    assert!(build["rule"].is_null(), "{build:#}");
    // Strongest first.
    let ranks: Vec<&str> = agents.iter().filter_map(|a| a["decision"].as_str()).collect();
    let mut sorted = ranks.clone();
    sorted.sort_by_key(|a| match *a {
        "allow" => 0,
        "ask" => 1,
        _ => 2,
    });
    assert_eq!(ranks, sorted);

    // Human: a count line and a table.
    let out = agent_lsp(
        ws.path(),
        &["explain", "--no-global", "--who", "bash", "git push origin main"],
    );
    assert!(out.stdout.contains("bash \"git push origin main\": "), "{}", out.stdout);
    assert!(out.stdout.contains("deployer (opencode)"), "{}", out.stdout);
    // A permission no runtime has: a usage error with a did-you-mean.
    let out = agent_lsp(ws.path(), &["explain", "--no-global", "--who", "bsh", "ls"]);
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("Did you mean `bash`?"), "{}", out.stderr);
}

#[test]
fn a_broken_policy_is_reported_and_the_others_still_run() {
    let ws = project();
    let broken =
        format!("{POLICY}\n[[policy]]\nid = \"typo\"\npermission = \"bsh\"\ninputs = [\"*\"]\nat-most = \"deny\"\n");
    write(ws.path(), "agent-lsp.toml", &broken);
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(policy_findings(&v).len(), 2, "{}", out.stdout);
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == "agent-lsp.toml")
        .expect("agent-lsp.toml reported");
    assert_eq!(d["code"], "invalid-value");
    let start = &d["range"]["start"];
    assert_eq!((start["line"].as_u64(), start["column"].as_u64()), (Some(11), Some(15)));
    assert!(d["message"].as_str().unwrap().contains("Did you mean `bash`?"));
}

/// A mistake in agent-lsp.toml changes nothing a runtime does: its effect is `not-applied`
/// (the policy is not checked), the same in every format, never `refuses-to-start`.
#[test]
fn a_mistake_in_the_project_file_is_not_applied_in_every_format() {
    let ws = project();
    let broken =
        format!("{POLICY}\n[[policy]]\nid = \"typo\"\npermission = \"bsh\"\ninputs = [\"*\"]\nat-most = \"never\"\n");
    write(ws.path(), "agent-lsp.toml", &broken);
    let json = agent_lsp(
        ws.path(),
        &["check", "--no-global", "--format", "json", "agent-lsp.toml"],
    );
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let effects: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"] == "agent-lsp.toml")
        .map(|d| d["effect"].as_str().unwrap())
        .collect();
    assert_eq!(effects, ["not-applied", "not-applied"], "{}", json.stdout);
    let human = agent_lsp(ws.path(), &["check", "--no-global", "agent-lsp.toml"]);
    assert_eq!(
        human.stdout.matches("(effect: not-applied)").count(),
        2,
        "{}",
        human.stdout
    );
    assert!(!human.stdout.contains("refuses-to-start"), "{}", human.stdout);
    let sarif = agent_lsp(
        ws.path(),
        &["check", "--no-global", "--format", "sarif", "agent-lsp.toml"],
    );
    let v: Value = serde_json::from_str(&sarif.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{}", sarif.stdout);
    for r in results {
        assert_eq!(r["properties"]["effect"], "not-applied", "{r}");
    }
    // A project file agent-lsp cannot read: its settings are not applied either.
    std::fs::write(ws.path().join("agent-lsp.toml"), b"[rules]\0\n").unwrap();
    let json = agent_lsp(
        ws.path(),
        &["check", "--no-global", "--format", "json", "agent-lsp.toml"],
    );
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(
        (d["code"].as_str(), d["effect"].as_str()),
        (Some("unchecked-file"), Some("not-applied")),
        "{}",
        json.stdout
    );
}

#[test]
fn a_violation_is_suppressed_like_any_code() {
    let ws = project();
    let md = "---\ndescription: Ships\nmode: subagent\npermission:\n  bash:\n    \"git *\": allow  # agent-lsp: ignore[policy-violation]\n---\nShip.\n";
    write(ws.path(), ".opencode/agents/shipper.md", md);
    write(
        ws.path(),
        "agent-lsp.toml",
        &POLICY.replace("\"lead\"]", "\"lead\", \"shipper\"]"),
    );
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = policy_findings(&v);
    assert!(found.iter().all(|f| f.0 != ".opencode/agents/shipper.md"), "{found:#?}");
    assert!(
        !v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "unused-suppression"),
        "{}",
        out.stdout
    );
    // Without the comment, it is there.
    write(
        ws.path(),
        ".opencode/agents/shipper.md",
        &md.replace("  # agent-lsp: ignore[policy-violation]", ""),
    );
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = policy_findings(&v);
    assert!(
        found.iter().any(|f| f.0 == ".opencode/agents/shipper.md" && f.1 == 6),
        "{found:#?}"
    );
}

#[test]
fn an_agent_is_judged_in_every_view_it_has() {
    // At the root `build` denies every command; in `packages/web`, whose config is merged over
    // the root's when opencode starts there, it allows `git *`.
    let ws = workspace(&[
        (
            "opencode.json",
            r#"{"agent": {"build": {"permission": {"bash": "deny"}}}}"#,
        ),
        (
            "packages/web/opencode.json",
            r#"{"agent": {"build": {"permission": {"bash": {"git *": "allow"}}}}}"#,
        ),
        ("agent-lsp.toml", &POLICY.replace("agents = [", "agents = [\"build\", ")),
    ]);
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = policy_findings(&v);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "packages/web/opencode.json");
    assert!(
        found[0]
            .2
            .contains("agent `build` (opencode): `bash` `git push` gets `allow`"),
        "{}",
        found[0].2
    );
}

/// Claude Code reads a path rule gitignore-style from the project's root (`./.env`, `//abs`,
/// `**/`, a name without `/` at any depth): a policy those rules keep is proved to hold, and
/// `explain --who` decides a path however it is written.
#[test]
fn claude_path_rules_are_read_from_the_project_root() {
    let settings =
        r#"{"permissions": {"deny": ["Read(./.env)", "Read(secrets/**)", "Read(*.pem)"], "ask": ["Edit(/src/**)"]}}"#;
    let policy = r#"[[policy]]
id = "no-env"
permission = "read"
inputs = [".env", "./.env", "secrets/*", "deploy/key.pem"]
at-most = "deny"

[[policy]]
id = "src-needs-a-human"
permission = "edit"
inputs = ["src/*"]
at-most = "ask"
"#;
    let ws = workspace(&[
        (
            ".claude/agents/reader.md",
            "---\nname: reader\ndescription: Reads\ntools: Read, Edit\n---\nRead.\n",
        ),
        (".claude/settings.json", settings),
        ("agent-lsp.toml", policy),
    ]);
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(policy_findings(&v), Vec::new(), "{}", out.stdout);
    let root = std::fs::canonicalize(ws.path()).unwrap();
    // `./.env` and `secrets/**` hold at any depth too, as Claude Code 2.1.332 reads them.
    for input in [
        ".env".to_string(),
        "./.env".to_string(),
        format!("{}/.env", root.display()),
        "sub/.env".into(),
        "secrets/a/b.txt".into(),
        "lib/secrets/c.txt".into(),
        "deploy/key.pem".into(),
    ] {
        let out = agent_lsp(
            ws.path(),
            &["explain", "--no-global", "--who", "read", &input, "--format", "json"],
        );
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        let reader = &v["agents"][0];
        assert_eq!(
            (reader["name"].as_str(), reader["decision"].as_str()),
            (Some("reader"), Some("deny")),
            "{input}: {v:#}"
        );
        assert_eq!(reader["rule"]["path"], ".claude/settings.json", "{input}");
    }
    // Elsewhere, reading runs without asking; the policy then fails with that input.
    std::fs::write(
        ws.path().join("agent-lsp.toml"),
        "[[policy]]\nid = \"no-config\"\npermission = \"read\"\ninputs = [\"config/*\"]\nat-most = \"deny\"\n",
    )
    .unwrap();
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = policy_findings(&v);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].2.contains("`Read` `config/` gets `allow`"), "{}", found[0].2);
}

/// A settings file that Claude Code voids (here a `PreToolUse` hook of an unknown type) applies
/// none of its rules: `--who` and the policies no longer count its `ask`, and the voiding hook
/// and the voided rule both say so.
#[test]
fn a_voided_settings_file_counts_for_nothing() {
    let ws = project();
    write(
        ws.path(),
        ".claude/settings.json",
        r#"{"permissions": {"allow": ["Bash(git *)"], "ask": ["Bash(git push:*)"]},
 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "shell", "command": "./guard.sh"}]}]}}"#,
    );
    let out = agent_lsp(
        ws.path(),
        &[
            "explain",
            "--no-global",
            "--who",
            "bash",
            "git push origin main",
            "--format",
            "json",
        ],
    );
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let pusher = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "pusher" && a["dialect"] == "claude")
        .expect("pusher")
        .clone();
    // No rule of the file decides: the default mode asks, and no settings line is named.
    assert_eq!(pusher["decision"], "ask", "{pusher:#}");
    assert!(pusher["rule"].is_null(), "{pusher:#}");
    let out = agent_lsp(ws.path(), &["check", "--no-global", "--format", "json", "."]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let on_settings: Vec<(String, String, u64)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["path"] == ".claude/settings.json")
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        on_settings,
        [("invalid-value".to_string(), "error".to_string(), 2)],
        "{:#}",
        v["diagnostics"]
    );
    // One cause, one finding: the two rules it voids are its related places, on line 1.
    let voiding = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == ".claude/settings.json")
        .unwrap();
    let lost: Vec<(&str, u64)> = voiding["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["message"].as_str().unwrap(),
                r["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lost,
        [
            ("not applied: `Bash(git *)` in `allow`", 1),
            ("not applied: `Bash(git push:*)` in `ask`", 1)
        ]
    );
}
