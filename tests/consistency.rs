//! One answer everywhere: the same question asked through the CLI's text, its JSON, the MCP
//! server and the language server's hover gets the same answer. The workspace has an agent
//! `reviewer` in all three dialects, so every front end must answer for each, in one order.

mod cli_support;
mod lsp_support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

const OPENCODE_JSON: &str = r#"{
  "$schema": "https://opencode.ai/config.json",
  "agent": {
    "reviewer": {
      "mode": "subagent",
      "description": "Reviews changes",
      "permission": {"bash": {"*": "ask", "git diff *": "allow", "git push *": "deny"}, "edit": "deny"}
    }
  }
}
"#;

const CLAUDE_AGENT: &str =
    "---\nname: reviewer\ndescription: Reviews changes 審査 🚀\ntools: Bash, Read\n---\nReview.\n";

const CLAUDE_SETTINGS: &str = r#"{
  "permissions": {
    "allow": ["Bash(git diff:*)"],
    "ask": ["Bash(git push:*)"],
    "deny": ["Read(./.env)", "WebFetch"],
    "defaultMode": "acceptEdits"
  }
}
"#;

const ZUNO_AGENT: &str = "---\nmode: subagent\ndescription: Reviews changes\npermission:\n  mode: standard\n  rules:\n    shell: { \"*\": ask, \"git push *\": deny }\n---\nReview.\n";

const FILES: &[(&str, &str)] = &[
    ("opencode.json", OPENCODE_JSON),
    (".claude/agents/reviewer.md", CLAUDE_AGENT),
    (".claude/settings.json", CLAUDE_SETTINGS),
    (".zuno/agents/reviewer.md", ZUNO_AGENT),
];

/// The questions: (permission, input).
const QUESTIONS: &[(&str, &str)] = &[
    ("bash", "git push origin main"),
    ("bash", "git diff HEAD"),
    ("Bash", "rm -rf /"),
    ("read", ".env"),
    ("edit", "src/main.rs"),
];

fn cli(root: &Path, args: &[&str]) -> cli_support::Output {
    let mut all = vec!["--no-global"];
    all.extend_from_slice(args);
    let mut cmd = cli_support::command(root, &["explain"]);
    cmd.args(all);
    cli_support::run(&mut cmd)
}

fn cli_json(root: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = cli(root, &all);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:#?}"))
}

/// Call MCP tools in one session; their results' structured content, in order.
fn mcp(root: &Path, calls: &[(&str, Value)]) -> Vec<Value> {
    let mut child = cli_support::command(root, &["mcp", "--root", &root.to_string_lossy(), "--no-global"])
        .env("AGENT_LSP_LOG", "error")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start agent-lsp mcp");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "consistency", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (i, (tool, args)) in calls.iter().enumerate() {
        lines.push(
            json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}),
        );
    }
    for l in &lines {
        writeln!(stdin, "{l}").expect("write");
    }
    drop(stdin);
    let mut results = vec![Value::Null; calls.len()];
    for line in BufReader::new(child.stdout.take().expect("stdout")).lines() {
        let v: Value = serde_json::from_str(&line.expect("line")).expect("JSON");
        let Some(id) = v["id"].as_u64().filter(|id| *id > 0) else {
            continue;
        };
        let r = &v["result"];
        assert_ne!(r["isError"], json!(true), "{}: {v}", calls[id as usize - 1].0);
        results[id as usize - 1] = r["structuredContent"].clone();
    }
    child.wait().expect("mcp exits");
    results
}

/// `path:line:column` and `path:line` name the same place: the hover shows lines only.
fn lines_only(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(".md:").or_else(|| rest.find(".json:")) {
        let colon = i + rest[i..].find(':').unwrap_or(0);
        out.push_str(&rest[..=colon]);
        rest = &rest[colon + 1..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        out.push_str(&rest[..digits]);
        rest = &rest[digits..];
        if let Some(col) = rest.strip_prefix(':') {
            let n = col.chars().take_while(char::is_ascii_digit).count();
            if n > 0 {
                rest = &col[n..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn every_front_end_answers_the_same_permission_questions() {
    let dir = cli_support::workspace(FILES);
    let root = dir.path();
    let calls: Vec<(&str, Value)> = QUESTIONS
        .iter()
        .map(|(p, i)| ("decide", json!({"agent": "reviewer", "permission": p, "input": i})))
        .chain(
            QUESTIONS
                .iter()
                .map(|(p, i)| ("who_may", json!({"permission": p, "input": i}))),
        )
        .collect();
    let answers = mcp(root, &calls);
    for (n, (permission, input)) in QUESTIONS.iter().enumerate() {
        let over_mcp = &answers[n]["answers"];
        // JSON: the same list, every dialect in the order of the cards.
        let json = cli_json(root, &["reviewer", "--check", permission, input]);
        assert_eq!(&json, over_mcp, "{permission} {input}");
        let dialects: Vec<&str> = json
            .as_array()
            .expect("a list")
            .iter()
            .map(|a| a["dialect"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(dialects, ["opencode", "claude", "zuno"], "{json}");
        // Text: each dialect's action and deciding rule, under its label.
        let text = cli(root, &["reviewer", "--check", permission, input]).stdout;
        let labels = ["opencode:", "Claude Code:", "Zuno:"];
        let sections: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(sections.len(), 3, "{text}");
        for ((section, label), answer) in sections.iter().zip(labels).zip(json.as_array().unwrap()) {
            let action = answer["action"].as_str().expect("an action");
            let by = answer["decided_by"].as_str().expect("decided_by");
            assert!(section.starts_with(label), "{section}");
            assert!(
                section.contains(&format!("reviewer: {permission} \"{input}\" → {action}\n")),
                "{section}\n{answer}"
            );
            assert!(section.contains(by), "{section}\n{answer}");
            if let Some(at) = answer["where"].as_str() {
                assert!(section.contains(&format!("({at})")), "{section}\n{answer}");
            }
        }
        // Who may: the same decision for the agent in each dialect.
        let who = cli_json(root, &["--who", permission, input]);
        let mcp_who = &answers[QUESTIONS.len() + n]["agents"];
        for answer in json.as_array().unwrap() {
            let dialect = answer["dialect"].as_str().unwrap();
            let row = |rows: &Value, key: &str| -> Value {
                rows.as_array()
                    .expect("rows")
                    .iter()
                    .find(|r| r[key] == "reviewer" && r["dialect"] == dialect)
                    .map(|r| {
                        r.get("decision")
                            .or_else(|| r.get("action"))
                            .cloned()
                            .unwrap_or_default()
                    })
                    .unwrap_or_default()
            };
            assert_eq!(row(&who["agents"], "name"), answer["action"], "{dialect}: {who}");
            assert_eq!(row(mcp_who, "agent"), answer["action"], "{dialect}: {mcp_who}");
        }
    }
    // Spot checks of what the answers say: the deny rule of each dialect, the settings rule.
    let push = &answers[0]["answers"];
    assert_eq!(
        [&push[0]["action"], &push[1]["action"], &push[2]["action"]],
        [&json!("deny"), &json!("ask"), &json!("deny")]
    );
    assert_eq!(push[1]["decided_by"], "`Bash(git push:*)` in `permissions.ask`");
}

#[test]
fn every_front_end_shows_the_same_agent() {
    let dir = cli_support::workspace(FILES);
    let root = dir.path();
    let over_mcp = &mcp(root, &[("explain", json!({"agent": "reviewer"}))])[0]["agents"];
    // JSON: the MCP entries without their cards.
    let mut without_cards = over_mcp.clone();
    for a in without_cards.as_array_mut().expect("a list") {
        a.as_object_mut().expect("an object").remove("card");
    }
    assert_eq!(cli_json(root, &["reviewer"]), without_cards);
    // Markdown: each dialect's card, as MCP gives it.
    for a in over_mcp.as_array().unwrap() {
        let dialect = a["dialect"].as_str().unwrap();
        let md = cli(root, &["reviewer", "--dialect", dialect, "--format", "markdown"]).stdout;
        assert_eq!(md, a["card"].as_str().unwrap(), "{dialect}");
    }
    let card = |d: &str| -> &str {
        over_mcp
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["dialect"] == d)
            .and_then(|a| a["card"].as_str())
            .unwrap_or_default()
    };
    // The Claude Code card shows the settings rules that decide for its tools, not the
    // WebFetch rule (it has no WebFetch), and the project's mode.
    let claude = card("claude");
    assert!(
        claude.contains("- ask: `Bash(git push:*)` (.claude/settings.json:4:13)"),
        "{claude}"
    );
    assert!(claude.contains("- deny: `Read(./.env)`"), "{claude}");
    assert!(!claude.contains("WebFetch"), "{claude}");
    assert!(claude.contains("`defaultMode`: `acceptEdits`"), "{claude}");

    // The editor: hover on each definition shows the same agent (the hover's places name lines,
    // not columns; opencode's hover folds the defaults the full card lists one by one).
    let enc = lsp_support::Enc::Utf16;
    let (mut ws, _) = lsp_support::Ws::start(FILES, enc);
    let hover = |ws: &mut lsp_support::Ws, file: &str, text: &str, context: &str, needle: &str| -> String {
        let uri = ws.uri(file);
        let r =
            ws.s.request("textDocument/hover", lsp_support::at(&uri, text, context, needle, enc))
                .expect("hover");
        r["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("no hover: {r}"))
            .to_string()
    };
    let claude_hover = hover(
        &mut ws,
        ".claude/agents/reviewer.md",
        CLAUDE_AGENT,
        "name: reviewer",
        "reviewer",
    );
    assert_eq!(claude_hover, lines_only(claude));
    let opencode_hover = hover(&mut ws, "opencode.json", OPENCODE_JSON, "\"reviewer\"", "reviewer");
    let opencode = lines_only(card("opencode"));
    let permission_lines: Vec<&str> = opencode_hover.lines().filter(|l| l.starts_with("- `")).collect();
    assert!(permission_lines.len() >= 2, "{opencode_hover}");
    for l in permission_lines {
        assert!(
            opencode.lines().any(|c| c == l),
            "hover line {l:?} is not in the card:\n{opencode}"
        );
    }
    assert!(
        opencode_hover.starts_with("### `reviewer`: opencode subagent"),
        "{opencode_hover}"
    );
}
