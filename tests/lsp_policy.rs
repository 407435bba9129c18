//! Team policies over real LSP pipes: a `[[policy]]` of `agent-lsp.toml` is checked against
//! every agent as files are typed, its finding sits on the rule that lets an input through
//! (with the policy and the other rules as related locations), it follows edits of the agent
//! files and of the project file, and hover and completion work in `agent-lsp.toml`.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

const CONFIG: &str = r#"{
  "agent": {
    "build": {
      "permission": { "bash": { "*": "ask", "git *": "allow" } }
    }
  }
}
"#;
const REVIEWER: &str = "---\ndescription: Reviews diffs 审查 🚀\nmode: subagent\npermission:\n  edit: deny\n  bash:\n    \"*\": deny\n    \"git diff *\": allow\n---\nYou review.\n";
const POLICY: &str = r#"# Team policies
[[policy]]
id = "no-unattended-push"
message = "Pushing needs a human"
permission = "bash"
inputs = ["git push*"]
at-most = "ask"
agents = ["build", "reviewer"]
"#;

fn start(enc: Enc) -> (tempfile::TempDir, Server) {
    let ws = workspace(&[
        ("opencode.json", CONFIG),
        (".opencode/agents/reviewer.md", REVIEWER),
        ("agent-lsp.toml", POLICY),
    ]);
    let s = Server::start(&root_of(&ws), Setup::for_enc(enc));
    (ws, s)
}

fn policy_diags(publish: &Value) -> Vec<Value> {
    publish["diagnostics"]
        .as_array()
        .map(|a| a.iter().filter(|d| d["code"] == "policy-violation").cloned().collect())
        .unwrap_or_default()
}

#[test]
fn a_violation_sits_on_the_rule_that_lets_the_input_through_and_follows_edits() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, mut s) = start(enc);
        let root = root_of(&ws);
        let cfg = uri_of(&root.join("opencode.json"));
        let toml = uri_of(&root.join("agent-lsp.toml"));
        let scan = s.take_publishes();
        let p = scan.iter().rfind(|p| p["uri"] == cfg).expect("opencode.json published");
        let found = policy_diags(p);
        assert_eq!(found.len(), 1, "{p:#}");
        let d = &found[0];
        assert_eq!(d["range"], range_of(CONFIG, "\"git *\": \"allow\"", enc), "{enc:?}");
        assert_eq!(d["severity"], 1);
        let message = d["message"].as_str().unwrap();
        assert!(
            message.contains(
                "policy `no-unattended-push` does not hold for agent `build` (opencode): `bash` `git push` gets `allow`"
            ),
            "{message}"
        );
        assert!(message.contains("Pushing needs a human"), "{message}");
        // Related: the policy's id in agent-lsp.toml (`"*": ask` decides no push: `git *` is
        // later and matches every one).
        let related = d["relatedInformation"].as_array().unwrap();
        assert_eq!(related.len(), 1, "{related:#?}");
        assert_eq!(related[0]["location"]["uri"], toml);
        assert_eq!(
            related[0]["location"]["range"],
            range_of(POLICY, "no-unattended-push", enc)
        );
        // The reviewer (every command but `git diff` denied) holds: nothing on its file.
        let rev = uri_of(&root.join(".opencode/agents/reviewer.md"));
        if let Some(p) = scan.iter().rfind(|p| p["uri"] == rev) {
            assert!(policy_diags(p).is_empty(), "{p:#}");
        }

        // Typed: a later rule that asks for pushes makes the policy hold.
        let fixed = CONFIG.replace(r#""git *": "allow" }"#, r#""git *": "allow", "git push*": "ask" }"#);
        s.open(&cfg, "json", 1, CONFIG);
        s.change_full(&cfg, 2, &fixed);
        s.sync();
        let got = s.take_publishes();
        let p = got
            .iter()
            .rfind(|p| p["uri"] == cfg)
            .expect("opencode.json re-published");
        assert!(policy_diags(p).is_empty(), "{p:#}");

        // The project file typed: `at-most = "deny"` fails again, now on the asking rule.
        let strict = POLICY.replace("at-most = \"ask\"", "at-most = \"deny\"");
        s.open(&toml, "toml", 1, POLICY);
        s.change_full(&toml, 2, &strict);
        s.sync();
        let got = s.take_publishes();
        let p = got
            .iter()
            .rfind(|p| p["uri"] == cfg)
            .expect("opencode.json re-published");
        let found = policy_diags(p);
        assert_eq!(found.len(), 1, "{p:#}");
        assert_eq!(found[0]["range"], range_of(&fixed, "\"git push*\": \"ask\"", enc));
        assert!(found[0]["message"].as_str().unwrap().contains("gets `ask`"));
        // The reviewer denies every push: still nothing there.
        if let Some(p) = got.iter().rfind(|p| p["uri"] == rev) {
            assert!(policy_diags(p).is_empty(), "{p:#}");
        }
        // A mistake in the policy is on its value, and the policy stops running.
        let broken = strict.replace("\"bash\"", "\"bsh\"");
        s.change_full(&toml, 3, &broken);
        s.sync();
        let got = s.take_publishes();
        let t = got
            .iter()
            .rfind(|p| p["uri"] == toml)
            .expect("agent-lsp.toml published");
        let d = &t["diagnostics"][0];
        assert_eq!(d["code"], "invalid-value");
        assert_eq!(d["range"], range_of(&broken, "bsh", enc));
        // No runtime is affected: agent-lsp does not apply the policy.
        assert_eq!(d["data"]["effect"], "not-applied", "{d:#}");
        let p = got
            .iter()
            .rfind(|p| p["uri"] == cfg)
            .expect("opencode.json re-published");
        assert!(policy_diags(p).is_empty(), "{p:#}");
        s.finish();
    }
}

#[test]
fn hover_and_completion_in_the_project_file_and_who_may_on_a_pattern() {
    let (ws, mut s) = start(Enc::Utf16);
    let root = root_of(&ws);
    s.take_publishes();
    let toml = uri_of(&root.join("agent-lsp.toml"));
    s.open(&toml, "toml", 1, POLICY);
    let (at, _) = find(POLICY, "inputs");
    let r = s
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": toml}, "position": position(POLICY, at, Enc::Utf16)}),
        )
        .unwrap();
    let text = r["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.starts_with("### Policy `no-unattended-push`"), "{text}");
    assert!(text.contains("**Fails for 1 of 2**"), "{text}");
    assert!(
        text.contains("- `build` (opencode): **allow** for `bash` `git push`"),
        "{text}"
    );
    assert!(
        text.contains("**Holds for 1 of 2**\n\n- `reviewer` (opencode): at most **deny**"),
        "{text}"
    );

    // Completion of the limit and of the permission.
    let typed = format!("{POLICY}\n[[policy]]\nid = \"x\"\nat-most = \"");
    s.change_full(&toml, 2, &typed);
    let r = s
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": toml}, "position": position(&typed, typed.len(), Enc::Utf16)}),
        )
        .unwrap();
    let items = r
        .as_array()
        .cloned()
        .or_else(|| r["items"].as_array().cloned())
        .unwrap_or_default();
    let labels: Vec<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    assert_eq!(labels, ["deny", "ask", "allow"]);

    // Who may, on the pattern key of a permission map.
    let cfg = uri_of(&root.join("opencode.json"));
    let (at, _) = find(CONFIG, "git *");
    let r = s
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": cfg}, "position": position(CONFIG, at, Enc::Utf16)}),
        )
        .unwrap();
    let text = r["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        text.contains("**Who may** (`bash` on inputs `git *` matches)"),
        "{text}"
    );
    assert!(
        text.contains("- `build` (opencode): **allow** for `git` — `bash` \"git *\": allow (opencode.json:4)"),
        "{text}"
    );
    assert!(
        text.contains("- `title` (opencode): **deny** for `git` — `*` \"*\": deny\n"),
        "{text}"
    );
    assert!(
        text.contains("- `reviewer` (opencode): **allow** for `git diff`"),
        "{text}"
    );
    // The half-typed project file is a syntax error until the quote closes.
    let got = s.take_publishes();
    assert!(
        got.iter()
            .any(|p| p["uri"] == toml && p["diagnostics"][0]["code"] == "syntax-error"),
        "{got:#?}"
    );
    s.finish();
}
