//! End-to-end tests of `agent-lsp mcp`: the real binary over pipes, speaking newline-delimited
//! JSON-RPC as an MCP client does (initialize, notifications/initialized, tools/list,
//! tools/call), on small workspaces written to temp dirs. They assert what a model would read:
//! decisions and where their rules are written, diagnostics, cards, rule explanations, and the
//! exact text of the tool errors bad arguments get.
//!
//! Snapshots use expect-test; refresh them with `UPDATE_EXPECT=1 cargo test --test mcp`.

mod cli_support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use agent_lsp::analysis::{Code, RULES};
use cli_support::{command, workspace};
use expect_test::expect;
use serde_json::{Value, json};

/// The workspace of `tests/mcp/workspace` (shared with `tests/mcp/run.sh`): an opencode agent
/// with a misspelt key and a catch-all written last (it shadows the rules before it), a Claude
/// Code agent that lists Bash and removes it again, and an opencode.json that adds a rule to
/// `build`.
const FILES: &[(&str, &str)] = &[
    (
        ".opencode/agents/review.md",
        include_str!("mcp/workspace/.opencode/agents/review.md"),
    ),
    (
        ".claude/agents/helper.md",
        include_str!("mcp/workspace/.claude/agents/helper.md"),
    ),
    ("opencode.json", include_str!("mcp/workspace/opencode.json")),
];

/// One MCP session with the server started on `root`.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// The `initialize` result.
    init: Value,
}

impl Session {
    fn start(root: &Path) -> Session {
        let mut child = command(root, &["mcp", "--root", &root.to_string_lossy(), "--no-global"])
            .env("AGENT_LSP_LOG", "error")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start agent-lsp mcp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = Session {
            child,
            stdin,
            stdout,
            next_id: 1,
            init: Value::Null,
        };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "tests/mcp.rs", "version": "1"}}),
        );
        s.init = init["result"].clone();
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    /// Send a request and return the whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read from the server");
            assert!(n > 0, "the server closed stdout before answering {method}");
            let message: Value = serde_json::from_str(&line).expect("one JSON message per line");
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    /// `tools/call`: whether it is a tool error, and its text. The answer must be a result
    /// (never a JSON-RPC error), with one text content; a success carries the same JSON as
    /// `structuredContent`.
    fn call(&mut self, tool: &str, args: Value) -> (bool, String) {
        let response = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert!(response.get("error").is_none(), "a JSON-RPC error: {response}");
        let result = &response["result"];
        let content = result["content"].as_array().expect("content");
        assert_eq!(content.len(), 1, "{result}");
        assert_eq!(content[0]["type"], "text");
        let text = content[0]["text"].as_str().expect("text").to_string();
        let is_error = result["isError"] == json!(true);
        if !is_error {
            let parsed: Value = serde_json::from_str(&text).expect("the text is JSON");
            assert_eq!(result["structuredContent"], parsed);
        }
        (is_error, text)
    }

    /// A successful call's JSON.
    fn ok(&mut self, tool: &str, args: Value) -> Value {
        let (is_error, text) = self.call(tool, args);
        assert!(!is_error, "{tool} failed: {text}");
        serde_json::from_str(&text).expect("JSON")
    }

    /// The one answer of a successful `decide` or `explain` (a list with an entry per dialect
    /// that has the agent).
    fn one(&mut self, tool: &str, args: Value) -> Value {
        let v = self.ok(tool, args);
        let list = v
            .get("answers")
            .or_else(|| v.get("agents"))
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("no list: {v}"));
        assert_eq!(list.len(), 1, "{v}");
        list[0].clone()
    }

    /// A tool error's text.
    fn error(&mut self, tool: &str, args: Value) -> String {
        let (is_error, text) = self.call(tool, args);
        assert!(is_error, "{tool} succeeded: {text}");
        text
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The workspace of [`FILES`] and a session on it.
fn session() -> (tempfile::TempDir, Session) {
    let dir = workspace(FILES);
    let s = Session::start(dir.path());
    (dir, s)
}

#[test]
fn initialize_gives_instructions_and_lists_the_five_tools() {
    let (_dir, mut s) = session();
    assert_eq!(s.init["serverInfo"]["name"], "agent-lsp");
    assert_eq!(s.init["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(s.init["capabilities"]["tools"].is_object(), "{}", s.init);
    let instructions = s.init["instructions"].as_str().expect("instructions").to_string();
    assert!(
        instructions.contains("Before editing an agent file, call `explain`"),
        "{instructions}"
    );
    assert!(
        instructions.contains("After writing one, call `check`"),
        "{instructions}"
    );

    let list = s.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    // Every dialect is named, from the one list: in the instructions, in what `check` and
    // `explain` cover, and as a value `dialect` takes.
    for d in agent_lsp::analysis::Dialect::ALL {
        assert!(
            instructions.contains(d.product()),
            "{} not in {instructions}",
            d.product()
        );
        for tool in ["check", "explain"] {
            let t = tools.iter().find(|t| t["name"] == tool).unwrap();
            let description = t["description"].as_str().unwrap();
            assert!(description.contains(d.product()), "{tool}: {description}");
        }
        let decide = tools.iter().find(|t| t["name"] == "decide").unwrap();
        let dialects = decide["inputSchema"]["properties"]["dialect"]["enum"]
            .as_array()
            .unwrap();
        assert!(dialects.contains(&json!(d.as_str())), "{dialects:?}");
    }
    let summary: Vec<String> = tools
        .iter()
        .map(|t| {
            let schema = &t["inputSchema"];
            let props = schema["properties"].as_object().expect("properties");
            for (name, p) in props {
                assert!(
                    p["description"].as_str().is_some_and(|d| d.len() > 20),
                    "{}.{name} has no description",
                    t["name"]
                );
            }
            assert_eq!(t["annotations"]["readOnlyHint"], true);
            assert_eq!(schema["additionalProperties"], false);
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!(
                "{}({}) required [{}]",
                t["name"].as_str().unwrap_or(""),
                props.keys().cloned().collect::<Vec<_>>().join(", "),
                required.join(", ")
            )
        })
        .collect();
    expect![[r#"
        check(paths) required []
        explain(agent, dialect) required [agent]
        decide(agent, dialect, input, permission) required [agent, permission, input]
        who_may(input, permission) required [permission, input]
        rules(code) required []"#]]
    .assert_eq(&summary.join("\n"));
}

#[test]
fn check_reports_the_diagnostics_with_effects_and_fixes() {
    let (_dir, mut s) = session();
    let report = s.ok("check", json!({}));
    assert_eq!(report["summary"], "0 errors, 2 warnings, 0 infos in 1 file (3 checked)");
    assert_eq!(report["files"], 3);
    let rows: Vec<String> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {} {} {} | fix: {} (safe: {})",
                d["path"].as_str().unwrap_or(""),
                d["range"]["start"]["line"],
                d["range"]["start"]["column"],
                d["severity"].as_str().unwrap_or(""),
                d["code"].as_str().unwrap_or(""),
                d["effect"].as_str().unwrap_or(""),
                d["fix"]["title"].as_str().unwrap_or("-"),
                d["fix"]["safe"]
            )
        })
        .collect();
    expect![[r#"
        .opencode/agents/review.md:4:1 warning unknown-key value-ignored | fix: Replace with `temperature` (safe: false)
        .opencode/agents/review.md:9:5 warning shadowed-rule rule-never-applies | fix: Move the catch-all "*": ask to the front (safe: false)"#]]
    .assert_eq(&rows.join("\n"));
    // The fix as text edits: the misspelt key replaced.
    assert_eq!(
        report["diagnostics"][0]["fix"]["edits"],
        json!([{"range": {"start": {"line": 4, "column": 1}, "end": {"line": 4, "column": 11}}, "new_text": "temperature"}])
    );
    // The same JSON as `check --format json` (which has no `fix` and no `summary`).
    let cli = cli_support::agent_lsp(_dir.path(), &["check", "--no-global", "--format", "json"]);
    let mut cli: Value = serde_json::from_str(&cli.stdout).expect("check --format json");
    let mut ours = report.clone();
    ours.as_object_mut().expect("object").remove("summary");
    for d in ours["diagnostics"].as_array_mut().expect("diagnostics") {
        d.as_object_mut().expect("object").remove("fix");
    }
    cli.as_object_mut().expect("object").remove("fixed");
    assert_eq!(ours, cli);
}

#[test]
fn check_reads_the_files_again_on_every_call() {
    let (dir, mut s) = session();
    let one = json!({"paths": [".opencode/agents/review.md"]});
    assert_eq!(
        s.ok("check", one.clone())["diagnostics"].as_array().map(Vec::len),
        Some(2)
    );
    cli_support::write(
        dir.path(),
        ".opencode/agents/review.md",
        "---\ndescription: Reviews changes.\nmode: subagent\n---\nYou review.\n",
    );
    let report = s.ok("check", one);
    assert_eq!(report["summary"], "1 file checked, no problems");
    assert_eq!(report["diagnostics"], json!([]));
}

/// A mistake in agent-lsp.toml affects no runtime: its effect is `not-applied`.
#[test]
fn check_gives_a_project_file_mistake_the_effect_not_applied() {
    let (dir, mut s) = session();
    cli_support::write(dir.path(), "agent-lsp.toml", "[rules]\nbroad-pattern = \"of\"\n");
    let report = s.ok("check", json!({"paths": ["agent-lsp.toml"]}));
    let d = &report["diagnostics"][0];
    assert_eq!(
        (d["code"].as_str(), d["effect"].as_str()),
        (Some("invalid-value"), Some("not-applied")),
        "{report:#}"
    );
}

/// JSON-RPC 2.0 corners: a line that is not JSON gets a parse error (id null), JSON that is
/// no message an invalid-request error, an unknown method an error that says what is wrong; the
/// session goes on after each.
#[test]
fn protocol_errors_are_answered_and_the_session_goes_on() {
    let (_dir, mut s) = session();
    let next = |s: &mut Session| -> Value {
        let mut line = String::new();
        assert!(
            s.stdout.read_line(&mut line).expect("read") > 0,
            "the server closed stdout"
        );
        serde_json::from_str(&line).expect("one JSON message per line")
    };
    writeln!(s.stdin, "not json").unwrap();
    s.stdin.flush().unwrap();
    let reply = next(&mut s);
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    assert_eq!(reply["id"], Value::Null, "{reply}");
    assert!(
        reply.as_object().unwrap().contains_key("id"),
        "the id is there, as null: {reply}"
    );
    assert_eq!(reply["error"]["code"], -32700, "{reply}");

    writeln!(s.stdin, r#"{{"jsonrpc": "2.0", "id": 41, "hello": 1}}"#).unwrap();
    s.stdin.flush().unwrap();
    let reply = next(&mut s);
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (json!(41), json!(-32600)),
        "{reply}"
    );

    let reply = s.request("foo", json!({}));
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    assert_eq!(reply["error"]["message"], "method not found: foo", "{reply}");
    // A method of MCP this server does not offer says the same.
    let reply = s.request("prompts/get", json!({"name": "x"}));
    assert_eq!(reply["error"]["message"], "method not found: prompts/get", "{reply}");
    // Still serving.
    assert!(s.request("tools/list", json!({}))["result"]["tools"].is_array());
}

#[test]
fn check_refuses_paths_outside_the_root() {
    let (dir, mut s) = session();
    let root = dir.path().canonicalize().expect("root");
    let text = s.error("check", json!({"paths": [".."]}));
    assert_eq!(
        text,
        format!(
            "path `..` is outside the workspace root {}; this server answers for files under it only",
            root.display()
        )
    );
    let text = s.error("check", json!({"paths": ["missing.md"]}));
    assert_eq!(
        text,
        format!(
            "path `missing.md` cannot be read (No such file or directory (os error 2)); paths are relative to the workspace root {}",
            root.display()
        )
    );
    assert_eq!(
        s.error("check", json!({"paths": [3]})),
        "`paths[0]` of `check` must be a string (a path), not a number"
    );
    assert_eq!(
        s.ok("check", json!({"paths": ["opencode.json"]}))["summary"],
        "1 file checked, no problems"
    );
}

#[test]
fn explain_gives_the_effective_agent_and_its_card() {
    let (_dir, mut s) = session();
    let v = s.one("explain", json!({"agent": "review"}));
    assert_eq!(v["dialect"], "opencode");
    assert_eq!(v["key"], "review");
    assert_eq!(v["mode"], "subagent");
    assert_eq!(v["problems"], json!([]));
    let rules: Vec<String> = v["permission"]
        .as_array()
        .expect("permission")
        .iter()
        .filter(|r| r["source"] != "built-in")
        .map(|r| {
            format!(
                "{} {:?} {} {}",
                r["permission"].as_str().unwrap_or(""),
                r["pattern"].as_str().unwrap_or(""),
                r["action"].as_str().unwrap_or(""),
                r["source"].as_str().unwrap_or("")
            )
        })
        .collect();
    expect![[r#"
        bash "git push *" deny .opencode/agents/review.md:7:5
        bash "git status" allow .opencode/agents/review.md:8:5
        bash "*" ask .opencode/agents/review.md:9:5"#]]
    .assert_eq(&rules.join("\n"));
    let card = v["card"].as_str().expect("card");
    assert!(card.contains("`review`"), "{card}");
    // What `explain review --format json` prints is the same list, without the cards.
    let cli = cli_support::agent_lsp(_dir.path(), &["explain", "review", "--no-global", "--format", "json"]);
    let mut without_card = v.clone();
    without_card.as_object_mut().expect("object").remove("card");
    assert_eq!(
        serde_json::from_str::<Value>(&cli.stdout).expect("json"),
        json!([without_card])
    );

    let v = s.one("explain", json!({"agent": "helper"}));
    assert_eq!(v["dialect"], "claude");
    assert_eq!(v["tools"], json!(["Read", "Grep"]));
    expect![[r#"
        ### `helper`: Claude Code agent

        Answers questions about the code base.

        - **tools**: `Read`, `Grep`
        - **permission mode**: `default` (not set)
        - **model**: `inherit` (not set): the model of the conversation that starts it

        Defined in .claude/agents/helper.md:2:7 (project).
    "#]]
    .assert_eq(v["card"].as_str().expect("card"));
}

#[test]
fn explain_of_an_unknown_or_ambiguous_name_is_a_tool_error() {
    let (_dir, mut s) = session();
    expect![[r#"no agent "reveiw" in this workspace. Did you mean `review`? The agents: opencode: build, plan, general, explore, compaction, title, summary, review; Claude Code: helper"#]]
        .assert_eq(&s.error("explain", json!({"agent": "reveiw"})));
    expect![[
        r#""review" is no Claude Code agent here; it is an agent of dialect `opencode`: pass that `dialect`, or none"#
    ]]
    .assert_eq(&s.error("explain", json!({"agent": "review", "dialect": "claude"})));

    let dir = workspace(&[
        FILES[0],
        (
            ".claude/agents/review.md",
            "---\nname: review\ndescription: Reviews.\n---\nReview.\n",
        ),
    ]);
    let mut s = Session::start(dir.path());
    // A name of two dialects: both answer, in the order `explain` prints them.
    let dialects = |v: &Value, list: &str| -> Vec<String> {
        v[list]
            .as_array()
            .expect("list")
            .iter()
            .map(|a| a["dialect"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let v = s.ok("explain", json!({"agent": "review"}));
    assert_eq!(dialects(&v, "agents"), ["opencode", "claude"]);
    assert_eq!(
        s.one("explain", json!({"agent": "review", "dialect": "claude"}))["dialect"],
        "claude"
    );
    let v = s.ok(
        "decide",
        json!({"agent": "review", "permission": "bash", "input": "ls"}),
    );
    assert_eq!(dialects(&v, "answers"), ["opencode", "claude"]);
    // The Claude Code agent has no `tools` restriction and no rule matches: it asks.
    assert_eq!(v["answers"][1]["action"], "ask", "{v}");
}

#[test]
fn decide_gives_the_deciding_rule_and_where_it_is_written() {
    let (_dir, mut s) = session();
    // The catch-all written last decides, even for what the earlier rule denies.
    let v = s.one(
        "decide",
        json!({"agent": "review", "permission": "bash", "input": "git push origin main"}),
    );
    expect![[r#"
        {
          "action": "ask",
          "agent": "review",
          "decided_by": "`bash` \"*\": ask",
          "dialect": "opencode",
          "input": "git push origin main",
          "permission": "bash",
          "rule": {
            "action": "ask",
            "layer": "agent",
            "pattern": "*",
            "permission": "bash",
            "source": ".opencode/agents/review.md:9:5"
          },
          "where": ".opencode/agents/review.md:9:5"
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&v).expect("json"));
    let v = s.one(
        "decide",
        json!({"agent": "build", "permission": "bash", "input": "rm -rf /"}),
    );
    assert_eq!(v["action"], "deny");
    assert_eq!(v["rule"]["source"], "opencode.json:5:33");
    let v = s.one(
        "decide",
        json!({"agent": "build", "permission": "edit", "input": "src/main.rs"}),
    );
    assert_eq!(
        (&v["decided_by"], &v["where"]),
        (&json!("`*` \"*\": allow"), &json!("built-in"))
    );
    // `explain --check --format json` prints the same answers.
    let cli = cli_support::agent_lsp(
        _dir.path(),
        &[
            "explain",
            "build",
            "--no-global",
            "--check",
            "edit",
            "src/main.rs",
            "--format",
            "json",
        ],
    );
    let cli: Value = serde_json::from_str(&cli.stdout).expect("json");
    assert_eq!(json!([v]), cli);
}

#[test]
fn decide_for_a_claude_code_agent_answers_from_its_tool_grant() {
    let (_dir, mut s) = session();
    let v = s.one(
        "decide",
        json!({"agent": "helper", "permission": "bash", "input": "ls"}),
    );
    assert_eq!(v["action"], "deny");
    assert_eq!(
        v["tools"],
        json!([{"tool": "Bash", "granted": false, "decided_by": "removed by `disallowedTools` entry `Bash` (.claude/agents/helper.md:5:18)"}])
    );
    let v = s.one(
        "decide",
        json!({"agent": "helper", "permission": "Read", "input": "README.md"}),
    );
    // Granted, and no settings rule matches: read-only tools run without asking.
    assert_eq!(v["action"], "allow");
    assert_eq!(
        v["decided_by"],
        "no permission rule matches and the mode is `default`: read-only tools run without asking"
    );
    assert_eq!(v["where"], Value::Null);
    assert_eq!(
        v["tools"][0]["decided_by"],
        "listed in `tools`: `Read` (.claude/agents/helper.md:4:8)"
    );
    // The project's settings rules decide next, read from the disk at each call.
    std::fs::write(
        _dir.path().join(".claude/settings.json"),
        r#"{"permissions": {"deny": ["Read(./.env)"]}}"#,
    )
    .expect("write settings");
    let v = s.one(
        "decide",
        json!({"agent": "helper", "permission": "Read", "input": ".env"}),
    );
    assert_eq!(
        (&v["action"], &v["decided_by"], &v["where"]),
        (
            &json!("deny"),
            &json!("`Read(./.env)` in `permissions.deny`"),
            &json!(".claude/settings.json:1:27")
        )
    );
    let v = s.one(
        "decide",
        json!({"agent": "helper", "permission": "edit", "input": "a.rs"}),
    );
    let tools: Vec<String> = v["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            format!(
                "{} {} {}",
                t["tool"].as_str().unwrap_or(""),
                t["granted"],
                t["decided_by"].as_str().unwrap_or("")
            )
        })
        .collect();
    expect![[r#"
        Edit false not in `tools` (.claude/agents/helper.md:4:8)
        Write false not in `tools` (.claude/agents/helper.md:4:8)
        MultiEdit false not in `tools` (.claude/agents/helper.md:4:8)
        NotebookEdit false not in `tools` (.claude/agents/helper.md:4:8)"#]]
    .assert_eq(&tools.join("\n"));
    expect![[r#"`bsh` names no Claude Code tool: give an opencode permission key that maps to one (bash, edit, read, glob, grep, webfetch, websearch, task, todowrite) or a Claude Code tool name (Bash, Read, mcp__server__tool, ...). Did you mean `bash`?"#]]
        .assert_eq(&s.error("decide", json!({"agent": "helper", "permission": "bsh", "input": "ls"})));
}

#[test]
fn who_may_lists_every_agent_allow_first() {
    let (_dir, mut s) = session();
    let v = s.ok("who_may", json!({"permission": "bash", "input": "rm -rf /"}));
    assert_eq!(v["summary"], "bash \"rm -rf /\": 3 allow, 1 ask, 5 deny");
    let rows: Vec<String> = v["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .map(|a| {
            format!(
                "{} {} {} {} | {}",
                a["action"].as_str().unwrap_or(""),
                a["dialect"].as_str().unwrap_or(""),
                a["agent"].as_str().unwrap_or(""),
                a["decided_by"].as_str().unwrap_or(""),
                a["where"].as_str().unwrap_or("built-in")
            )
        })
        .collect();
    expect![[r#"
        allow opencode explore `bash` "*": allow | built-in
        allow opencode general `*` "*": allow | built-in
        allow opencode plan `*` "*": allow | built-in
        ask opencode review `bash` "*": ask | .opencode/agents/review.md:9:5
        deny claude helper the agent does not have `Bash` (its `tools` and `disallowedTools`) | .claude/agents/helper.md:5:18
        deny opencode build `bash` "rm -rf *": deny | opencode.json:5:33
        deny opencode compaction `*` "*": deny | built-in
        deny opencode summary `*` "*": deny | built-in
        deny opencode title `*` "*": deny | built-in"#]]
    .assert_eq(&rows.join("\n"));
    // Each row is what `decide` answers for that agent.
    for a in v["agents"].as_array().expect("agents") {
        let d = s.one(
            "decide",
            json!({"agent": a["agent"], "dialect": a["dialect"], "permission": "bash", "input": "rm -rf /"}),
        );
        assert_eq!(d["action"], a["action"], "{a}");
    }
}

#[test]
fn rules_gives_the_catalog_and_one_rule_in_full() {
    let (_dir, mut s) = session();
    let v = s.ok("rules", json!({}));
    let all = v["rules"].as_array().expect("rules");
    assert_eq!(all.len(), RULES.len());
    assert!(
        all.iter()
            .any(|r| r["code"] == "shadowed-rule" && r["severity"] == "warning" && r["effect"] == "rule-never-applies")
    );
    let v = s.ok("rules", json!({"code": "shadowed-rule"}));
    let code = Code::from_name("shadowed-rule").expect("code");
    assert_eq!(v["explanation"], agent_lsp::cli::rule_doc(code));
    assert!(v["explanation"].as_str().is_some_and(|e| e.contains("last match wins")));
    assert_eq!(
        s.error("rules", json!({"code": "shadowed-rul"})),
        "no rule `shadowed-rul`. Did you mean `shadowed-rule`? `rules` without `code` lists them all"
    );
}

#[test]
fn bad_arguments_are_tool_errors_that_say_what_is_wrong() {
    let (_dir, mut s) = session();
    let cases = [
        (
            "decide",
            json!({"agent": "review", "permission": "bash"}),
            "missing required argument `input` for `decide`: What the permission is asked for: the command for `bash` (`git push origin main`), the path for `edit`/`read`, the URL for `webfetch`, the subagent's name for `task`.",
        ),
        (
            "explain",
            json!({"agent": 5}),
            "argument `agent` of `explain` must be a string, not a number",
        ),
        (
            "explain",
            json!({"agent": ""}),
            "argument `agent` of `explain` is empty",
        ),
        (
            "explain",
            json!({"agent": "review", "dialect": "cursor"}),
            "unknown dialect `cursor`: one of `opencode`, `claude`, `zuno`, `copilot`, `codex`, `gemini`",
        ),
        (
            "explain",
            json!({"name": "review"}),
            "unknown argument `name` for `explain`. It takes: `agent`, `dialect`",
        ),
        (
            "check",
            json!({"paths": {"a": 1}}),
            "argument `paths` of `check` must be an array of paths, not an object",
        ),
        (
            "rules",
            json!({"code": "no-such-rule"}),
            "no rule `no-such-rule`. `rules` without `code` lists them all",
        ),
        (
            "lint",
            json!({}),
            "no tool `lint`. The tools: check, explain, decide, who_may, rules",
        ),
    ];
    for (tool, args, want) in cases {
        assert_eq!(s.error(tool, args.clone()), want, "{tool} {args}");
    }
    // A permission opencode does not know is answered (a custom tool of that name would be
    // decided so), with the near miss, as `explain --check` answers it.
    let v = s.one("decide", json!({"agent": "review", "permission": "bsh", "input": "ls"}));
    assert_eq!(
        (&v["known_permission"], &v["did_you_mean"]),
        (&json!(false), &json!("bash"))
    );
    // No arguments at all, for a tool that needs some.
    let response = s.request("tools/call", json!({"name": "decide"}));
    assert_eq!(response["result"]["isError"], true, "{response}");
    // The server is still there.
    assert_eq!(
        s.one(
            "decide",
            json!({"agent": "review", "permission": "bash", "input": "git status"})
        )["action"],
        "ask"
    );
}

#[test]
fn zuno_agents_are_explained_and_decided() {
    let dir = workspace(&[(
        "zuno.json",
        r#"{
  "agents": {
    "lead": {
      "mode": "primary",
      "description": "Plans the work.",
      "permission": { "mode": "standard", "rules": { "*": "ask", "read": "allow" } }
    }
  }
}
"#,
    )]);
    let mut s = Session::start(dir.path());
    let v = s.one("explain", json!({"agent": "lead"}));
    assert_eq!(v["dialect"], "zuno");
    assert!(v["card"].as_str().is_some_and(|c| c.contains("lead")), "{v}");
    let v = s.one(
        "decide",
        json!({"agent": "lead", "permission": "read", "input": "a.md"}),
    );
    expect![[r#"
        {
          "action": "allow",
          "agent": "lead",
          "decided_by": "`read` \"*\": allow",
          "dialect": "zuno",
          "input": "a.md",
          "permission": "read",
          "tool": "read",
          "where": "zuno.json:6:66"
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&v).expect("json"));
    // `bash` is Zuno's `shell`, which only the `*` rule decides.
    let v = s.one("decide", json!({"agent": "lead", "permission": "bash", "input": "ls"}));
    assert_eq!(
        (&v["action"], &v["tool"], &v["where"]),
        (&json!("ask"), &json!("shell"), &json!("zuno.json:6:54"))
    );
    // who_may gives the same answer in its row.
    let w = s.ok("who_may", json!({"permission": "bash", "input": "ls"}));
    let lead = w["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .find(|a| a["agent"] == "lead" && a["dialect"] == "zuno")
        .expect("lead")
        .clone();
    for key in ["action", "tool", "decided_by", "where"] {
        assert_eq!(lead[key], v[key], "{key}");
    }
    assert_eq!(
        s.error("decide", json!({"agent": "lead", "permission": "bsh", "input": "ls"})),
        "no runtime consults a permission or tool called `bsh` (opencode and Zuno permission keys, Claude Code tools, GitHub Copilot tool sets, MCP tools). Did you mean `bash`?"
    );
}

#[test]
fn decide_says_which_rule_of_a_voided_settings_file_would_decide_and_why_it_does_not() {
    let dir = workspace(&[
        (
            ".claude/agents/tester.md",
            "---\nname: tester\ndescription: Runs the tests.\ntools: Bash, Read\n---\nTest.\n",
        ),
        (
            ".claude/settings.json",
            "{\n  \"permissions\": {\n    \"deny\": [\"Bash(curl:*)\"],\n    \"defaultMode\": \"acceptEdit\"\n  }\n}\n",
        ),
    ]);
    let mut s = Session::start(dir.path());
    let v = s.one(
        "decide",
        json!({"agent": "tester", "permission": "Bash", "input": "curl https://example.com", "dialect": "claude"}),
    );
    // Claude Code applies nothing of the file: it asks. The deny rule would decide.
    assert_eq!(v["action"], "ask", "{v}");
    assert_eq!(
        v["unapplied"],
        json!({
            "action": "deny",
            "rule": "`Bash(curl:*)` in `permissions.deny`",
            "where": ".claude/settings.json:3:14",
            "cause": ".claude/settings.json:4:20",
            "not_applied_because": "`permissions.defaultMode` must be \"acceptEdits\", \"auto\", \"bypassPermissions\", \"default\", \"dontAsk\", \"plan\" or \"manual\", got \"acceptEdit\" (did you mean `acceptEdits`?)",
            "says": "`Bash(curl:*)` in `permissions.deny` (.claude/settings.json:3:14) would decide deny, but Claude Code applies nothing of that file because of .claude/settings.json:4:20 (`permissions.defaultMode` must be \"acceptEdits\", \"auto\", \"bypassPermissions\", \"default\", \"dontAsk\", \"plan\" or \"manual\", got \"acceptEdit\" (did you mean `acceptEdits`?))",
        }),
        "{v}"
    );
    // An input the voided rules do not decide otherwise: nothing to say.
    let v = s.one(
        "decide",
        json!({"agent": "tester", "permission": "Bash", "input": "ls", "dialect": "claude"}),
    );
    assert!(v.get("unapplied").is_none(), "{v}");
}

/// No tool answers with a secret: `check` and `explain` show a key's first characters only.
#[test]
fn no_tool_answers_with_a_secret() {
    let key = "Jq7vR2nX9pL4wT8kZ3mB6cY1";
    let dir = workspace(&[(
        "opencode.json",
        &format!("{{ \"agent\": {{ \"build\": {{ \"options\": {{ \"apiKey\": \"{key}\" }} }} }} }}\n"),
    )]);
    let mut s = Session::start(dir.path());
    let report = s.ok("check", json!({}));
    let text = report.to_string();
    assert!(text.contains("hardcoded-secret") && text.contains("Jq7v…"), "{text}");
    assert!(!text.contains(key), "{text}");
    let explained = s
        .ok("explain", json!({"agent": "build", "dialect": "opencode"}))
        .to_string();
    assert!(explained.contains("Jq7v****"), "{explained}");
    assert!(!explained.contains(key), "{explained}");
}
