//! `agent-lsp explain`: the list, the card, `--check`, JSON shapes, unknown agents.

use std::fs;
use std::path::Path;
use std::process::Command;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

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

fn explain(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
        .arg("explain")
        .args(args)
        .arg("--no-global")
        .current_dir(dir)
        .env("HOME", dir)
        .env_remove("XDG_DATA_HOME")
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

#[test]
fn json_card_has_the_documented_shape() {
    let t = project();
    let (code, out, _) = explain(t.path(), &["rev", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in [
        "name",
        "mode",
        "hidden",
        "native",
        "model",
        "temperature",
        "top_p",
        "steps",
        "color",
        "description",
        "options",
        "permission",
        "decisions",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["mode"], "subagent");
    assert_eq!(v["temperature"], 0.3);
    assert_eq!(v["native"], false);
    // tools.write: false became an edit deny after the top-level edit allow, so edit is denied.
    assert_eq!(v["decisions"]["edit"], "deny");
    assert_eq!(v["decisions"]["bash"], "ask");
    let last_edit = v["permission"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|r| r["permission"] == "edit")
        .unwrap();
    assert_eq!(last_edit["source"], ".opencode/agents/rev.md:4:3");
}

#[test]
fn check_answers_one_question_with_the_deciding_rule() {
    let t = project();
    let (code, out, _) = explain(
        t.path(),
        &["rev", "--check", "bash", "git push origin", "--format", "json"],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
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
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["action"], "allow");
}

#[test]
fn human_card_lists_fields_sources_and_permissions() {
    let t = project();
    let (code, out, _) = explain(t.path(), &["rev"]);
    assert_eq!(code, 0);
    assert!(out.contains("### `rev`: subagent agent"), "{out}");
    assert!(
        out.contains("| temperature | 0.3 | .opencode/agents/rev.md:2:14 |"),
        "{out}"
    );
    assert!(out.contains("| bash | **ask** |"), "{out}");
    assert!(out.contains("`git push *` deny"), "{out}");
}

#[test]
fn unknown_agent_is_exit_1_with_did_you_mean() {
    let t = project();
    let (code, out, err) = explain(t.path(), &["revv"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("Did you mean `rev`?"), "{err}");
    let (code, _, err) = explain(t.path(), &["--check", "bash", "ls"]);
    assert_eq!(code, 2, "{err}");
}
