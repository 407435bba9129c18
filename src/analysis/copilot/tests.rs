//! The Copilot dialect's own checks, file by file and across files.

use super::*;

fn agent(name: &str) -> FileKind {
    FileKind::Agent {
        name: name.into(),
        form: AgentForm::AgentMd,
    }
}

/// Each diagnostic as `code@text-under-it`, leaving out the info that an agent without `tools`
/// gets every tool (see [`an_agent_with_every_tool`]).
fn diags(kind: &FileKind, text: &str) -> Vec<String> {
    all_diags(kind, text)
        .into_iter()
        .filter(|d| d != "broad-grant@---")
        .collect()
}

fn all_diags(kind: &FileKind, text: &str) -> Vec<String> {
    analyze(kind, text)
        .0
        .iter()
        .map(|d| format!("{}@{}", d.code.as_str(), d.span.text(text)))
        .collect()
}

#[test]
fn a_valid_agent_prompt_and_instructions_get_nothing() {
    let a = "---\nname: planner\ndescription: Plans\ntools: ['search', 'edit/editFiles', 'github/*', 'ms-python.python/getPythonEnvironmentInfo']\nmodel: [GPT-5 (copilot), Claude Sonnet 4.5 (copilot)]\nhandoffs:\n  - label: Implement\n    agent: implementer\n    prompt: Go\n    send: true\nuser-invocable: false\n---\nPlan.\n";
    assert_eq!(diags(&agent("planner"), a), ["ignored-field@handoffs"]);
    let p = "---\nagent: agent\ndescription: Review\ntools: [search]\n---\nReview ${file}\n";
    assert!(diags(&FileKind::Prompt { name: "r".into() }, p).is_empty());
    let i = "---\napplyTo: '**/*.ts, **/*.{js,jsx}'\nexcludeAgent: code-review\n---\nUse strict mode.\n";
    assert!(diags(&FileKind::Instructions { name: "ts".into() }, i).is_empty());
}

#[test]
fn keys_are_judged_on_the_key_with_their_host() {
    let t =
        "---\ndescription: x\ncolour: red\nmcp-servers:\n  s: {type: local}\nuser-invokable: true\ninfer: false\n---\n";
    assert_eq!(
        diags(&agent("a"), t),
        [
            "unknown-key@colour",
            "ignored-field@mcp-servers",
            "deprecated-field@user-invokable",
            "deprecated-field@infer"
        ]
    );
    // A key the one host the agent targets ignores is a warning, not a hint.
    let t = "---\ndescription: x\ntarget: github-copilot\ntools: [read]\nhandoffs: []\n---\n";
    let (d, _, _) = analyze(&agent("a"), t);
    assert_eq!(d[0].code, Code::IgnoredField);
    assert_eq!(d[0].severity, Severity::Warning);
    assert_eq!(
        diags(&agent("a"), "---\ndescription: x\ntarget: github\n---\n"),
        ["invalid-value@github"]
    );
    // A prompt's keys are not an agent's.
    assert_eq!(
        diags(
            &FileKind::Prompt { name: "p".into() },
            "---\nhandoffs: []\nmode: ask\n---\n"
        ),
        ["unknown-key@handoffs", "deprecated-field@mode"]
    );
}

#[test]
fn values_are_judged_on_the_value() {
    let t = "---\ndescription: x\nuser-invocable: \"false\"\ndisable-model-invocation: True\nmodel: []\nhandoffs:\n  - label: '!!'\n    agent: b\n    prompt: p\n  - label: Go\n    agent: b\n  - label: go\n    agent: b\n    prompt: p\n---\n";
    assert_eq!(
        diags(&agent("a"), t),
        [
            "invalid-type@\"false\"",
            "invalid-value@True",
            "invalid-value@[]",
            "ignored-field@handoffs",
            "invalid-value@'!!'",
            "missing-field@label",
            "invalid-value@go"
        ]
    );
    let i = "---\napplyTo: [\"*.ts\"]\n---\n";
    assert_eq!(
        diags(&FileKind::Instructions { name: "i".into() }, i),
        ["invalid-type@[\"*.ts\"]"]
    );
    // A trailing comma is taken; an empty value is not.
    let i = "---\napplyTo: \"*.ts,\"\n---\n";
    assert!(diags(&FileKind::Instructions { name: "i".into() }, i).is_empty());
    let i = "---\napplyTo: ''\n---\n";
    assert_eq!(
        diags(&FileKind::Instructions { name: "i".into() }, i),
        ["invalid-value@''"]
    );
}

#[test]
fn tools_are_sets_renamed_names_or_references() {
    let t = "---\ndescription: x\ntools: [edit, Bash, codebase, runCommands, edti, 'srv/*', 'edit/anything']\n---\n";
    assert_eq!(
        diags(&agent("a"), t),
        [
            "deprecated-field@codebase",
            "deprecated-field@runCommands",
            "unknown-tool@edti"
        ]
    );
    // A comma-separated string: each name on its own span.
    let t = "---\ndescription: x\ntools: 'edit, edti'\n---\n";
    assert_eq!(diags(&agent("a"), t), ["unknown-tool@edti"]);
    // `agents` without the `agent` tool.
    let t = "---\ndescription: x\ntools: [edit]\nagents: [b]\n---\n";
    assert_eq!(diags(&agent("a"), t), ["invalid-value@[b]"]);
}

#[test]
fn a_chat_mode_a_broken_header_and_a_missing_description() {
    let k = FileKind::Agent {
        name: "old".into(),
        form: AgentForm::ChatMode,
    };
    assert_eq!(diags(&k, "---\ndescription: x\n---\n"), ["deprecated-file@---"]);
    assert_eq!(
        diags(&agent("a"), "---\ndescription: Expert: does X\n---\n"),
        ["syntax-error@:"]
    );
    assert_eq!(diags(&agent("a"), "---\nname: a\n---\n"), ["missing-field@---"]);
    // Only GitHub.com needs it.
    assert!(diags(&agent("a"), "---\ntarget: vscode\n---\n").is_empty());
    assert_eq!(diags(&agent("a"), "---\ndescription: x\n"), ["syntax-error@---"]);
}

#[test]
fn mcp_json_servers_are_read_and_checked() {
    let t = r#"{ "servers": { "gh": { "type": "http", "url": "https://x" }, "local": { "command": "npx", "arg": [] }, "bad": { "type": "tcp" } }, "mcpServers": {} }"#;
    let (d, _, f) = analyze(&FileKind::Mcp, t);
    let got: Vec<String> = d
        .iter()
        .map(|d| format!("{}@{}", d.code.as_str(), d.span.text(t)))
        .collect();
    assert_eq!(
        got,
        [
            "unknown-key@\"arg\"",
            "invalid-value@\"tcp\"",
            "unknown-key@\"mcpServers\""
        ]
    );
    let names: Vec<&str> = f.mcp_servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["gh", "local", "bad"]);
}

#[test]
fn references_across_files() {
    let files = [
        (
            agent("planner"),
            "---\ndescription: p\ntools: [agent, 'gh/*', 'nope/*']\nagents: [implementer, ask, helper]\nhandoffs:\n  - label: Go\n    agent: implementr\n    prompt: go\n---\n",
        ),
        (agent("implementer"), "---\ndescription: i\n---\n"),
        (agent("dup"), "---\nname: implementer\ndescription: again\n---\n"),
        (FileKind::Prompt { name: "r".into() }, "---\nagent: plannr\n---\n"),
        (FileKind::Mcp, r#"{"servers": {"gh": {"url": "https://x"}}}"#),
    ];
    let analysed: Vec<(FileKind, &str, CopilotFile)> =
        files.iter().map(|(k, t)| (k.clone(), *t, analyze(k, t).2)).collect();
    let view: Vec<project::ViewFile> = analysed
        .iter()
        .enumerate()
        .map(|(i, (k, _, f))| project::ViewFile {
            file: i,
            kind: k,
            facts: f,
        })
        .collect();
    let got: Vec<String> = project::check(&view)
        .iter()
        .map(|(i, d)| format!("{i}:{}@{}", d.code.as_str(), d.span.text(analysed[*i].1)))
        .collect();
    assert_eq!(
        got,
        [
            "2:duplicate-agent@implementer",
            "0:unknown-agent@implementr",
            "0:unknown-agent@ask",
            "0:unknown-agent@helper",
            "0:unknown-mcp-server@'nope/*'",
            "3:unknown-agent@plannr",
        ]
    );
    let names: Vec<&str> = project::registry(&view).iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["planner", "implementer"]);
}

#[test]
fn completion_offers_keys_tools_agents_and_models() {
    let known = complete::Known {
        agents: vec![("implementer".into(), "Implements".into())],
        mcp_servers: vec!["gh".into()],
    };
    let labels = |kind: &FileKind, t: &str| -> Vec<String> {
        let at = t.find('|').unwrap();
        let text = t.replace('|', "");
        complete::complete(kind, &text, at, &known)
            .into_iter()
            .map(|i| i.label)
            .collect()
    };
    let keys = labels(&agent("a"), "---\ndescription: x\n|\n---\n");
    assert!(keys.contains(&"handoffs".to_string()) && !keys.contains(&"description".to_string()));
    let tools = labels(&agent("a"), "---\ntools: [|]\n---\n");
    assert!(
        tools.contains(&"edit".to_string()) && tools.contains(&"gh/*".to_string()),
        "{tools:?}"
    );
    let agents = labels(&FileKind::Prompt { name: "p".into() }, "---\nagent: |\n---\n");
    assert!(agents.contains(&"implementer".to_string()) && agents.contains(&"ask".to_string()));
    let handoff = labels(&agent("a"), "---\nhandoffs:\n  - agent: |\n---\n");
    assert!(handoff.contains(&"implementer".to_string()), "{handoff:?}");
    assert!(labels(&agent("a"), "---\nmodel: |\n---\n").contains(&"GPT-5 (copilot)".to_string()));
    assert_eq!(
        labels(&agent("a"), "---\ntarget: |\n---\n"),
        ["github-copilot", "vscode"]
    );
    let mcp = labels(&FileKind::Mcp, r#"{"servers": {"a": {"type": "|"}}}"#);
    assert_eq!(mcp, ["stdio", "http", "sse"]);
}

#[test]
fn the_card_says_hosts_tools_model_and_handoffs() {
    let t = "---\nname: planner\ndescription: Plans\ntarget: vscode\ntools: [edit, 'gh/*']\nmodel: GPT-5 (copilot)\nhandoffs:\n  - label: Go\n    agent: nobody\n    prompt: go\n---\n";
    let k = agent("planner");
    let f = analyze(&k, t).2;
    let mcp_text = r#"{"servers": {"gh": {"url": "https://x"}}}"#;
    let m = analyze(&FileKind::Mcp, mcp_text).2;
    let view = [
        project::ViewFile {
            file: 0,
            kind: &k,
            facts: &f,
        },
        project::ViewFile {
            file: 1,
            kind: &FileKind::Mcp,
            facts: &m,
        },
    ];
    let cx = card::Context { files: &view };
    let where_is = |s: crate::analysis::provenance::Source| match s {
        crate::analysis::provenance::Source::File { file, span } => format!("file{file}@{}", span.start),
        crate::analysis::provenance::Source::BuiltIn => "built-in".into(),
    };
    let md = card::card(&k, &f, crate::analysis::provenance::Source::BuiltIn, &cx, &where_is);
    for want in [
        "### `planner`: GitHub Copilot custom agent",
        "**Read by**: VS Code only",
        "- `edit`: Create and edit files",
        "- `gh/*`: every tool of the MCP server `gh` (file1@",
        "**Model**: `GPT-5 (copilot)`",
        "- \"Go\" → `nobody` (no such agent: no button)",
    ] {
        assert!(md.contains(want), "{want:?} not in\n{md}");
    }
}

#[test]
fn the_body_s_tool_references_are_checked_against_the_header() {
    let t = "---\ndescription: x\ntools: [read]\n---\nUse #tool:read, #tool:execute, #tool:todos, #tool:edti and #tool:gh/issues.\n";
    assert_eq!(
        diags(&agent("a"), t),
        ["ignored-field@execute", "deprecated-field@todos", "unknown-tool@edti"]
    );
    // Without `tools`, every set is enabled; GitHub.com does not read the references.
    assert!(diags(&agent("a"), "---\ndescription: x\n---\n#tool:execute\n").is_empty());
    let t = "---\ndescription: x\ntarget: github-copilot\ntools: [read]\n---\n#tool:edti\n";
    assert!(diags(&agent("a"), t).is_empty());
    // Instructions have no tools.
    let i = "---\napplyTo: '**'\n---\n#tool:edti\n";
    assert!(diags(&FileKind::Instructions { name: "i".into() }, i).is_empty());
}

#[test]
fn a_hostile_list_is_checked_up_to_a_bound() {
    let names: Vec<String> = (0..20_000).map(|i| format!("nope{i}")).collect();
    let refs: String = (0..20_000).map(|i| format!("#tool:nope{i} ")).collect();
    let t = format!("---\ndescription: x\ntools: [{}]\n---\n{refs}\n", names.join(", "));
    let (d, _, f) = analyze(&agent("a"), &t);
    // Every name is read; the first thousand of each list are judged.
    assert_eq!(f.tools.as_ref().map(Vec::len), Some(20_000));
    assert_eq!(d.iter().filter(|d| d.code == Code::UnknownTool).count(), 2_000);
}

/// The text after every fix of the file's own findings (unsafe ones too), as `check --fix
/// --unsafe-fixes` leaves it.
fn all_fixed(kind: &FileKind, text: &str) -> String {
    crate::analysis::fix_all_rounds(text, &|t| analyze(kind, t).0, true).0
}

#[test]
fn renamed_tools_keep_the_lists_style_and_are_never_written_twice() {
    // A flow list in single quotes: the new names in them; `runTasks` is `execute` too.
    assert_eq!(
        all_fixed(
            &agent("a"),
            "---\ndescription: a\ntools: ['edit', 'runCommands', 'runTasks', 'problems']\n---\nx\n"
        ),
        "---\ndescription: a\ntools: ['edit', 'execute', 'read/problems']\n---\nx\n"
    );
    // The duplicate last in the list: removed with the separator before it.
    assert_eq!(
        all_fixed(
            &agent("a"),
            "---\ndescription: a\ntools: [\"runCommands\", \"runTasks\"]\n---\nx\n"
        ),
        "---\ndescription: a\ntools: [\"execute\"]\n---\nx\n"
    );
    // A block list keeps its lines; a name the list already has is removed.
    assert_eq!(
        all_fixed(
            &agent("a"),
            "---\ndescription: a\ntools:\n  - execute\n  - runCommands\n  - fetch\n---\nx\n"
        ),
        "---\ndescription: a\ntools:\n  - execute\n  - web/fetch\n---\nx\n"
    );
    // One comma-separated string: the names inside it.
    assert_eq!(
        all_fixed(
            &agent("a"),
            "---\ndescription: a\ntools: 'runCommands, runTasks, fetch'\n---\nx\n"
        ),
        "---\ndescription: a\ntools: 'execute, web/fetch'\n---\nx\n"
    );
    // Unquoted names that start and end with one letter stay unquoted.
    assert_eq!(
        all_fixed(&agent("a"), "---\ndescription: a\ntools: [searchResults]\n---\nx\n"),
        "---\ndescription: a\ntools: [search/searchResults]\n---\nx\n"
    );
    // The fix's title says which.
    let (d, ..) = analyze(
        &agent("a"),
        "---\ndescription: a\ntools: [runCommands, runTasks]\n---\nx\n",
    );
    let titles: Vec<&str> = d
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .map(|f| f.title.as_str())
        .collect();
    assert_eq!(
        titles,
        [
            "Replace with `execute`",
            "Remove `runTasks` (`execute` is listed already)"
        ]
    );
}

#[test]
fn infer_becomes_disable_model_invocation() {
    assert_eq!(
        all_fixed(&agent("a"), "---\ndescription: a\ninfer: false\n---\nx\n"),
        "---\ndescription: a\ndisable-model-invocation: true\n---\nx\n"
    );
    assert_eq!(
        all_fixed(&agent("a"), "---\ndescription: a\ninfer: true\n---\nx\n"),
        "---\ndescription: a\ndisable-model-invocation: false\n---\nx\n"
    );
    // When the new key is there already, only the finding.
    let text = "---\ndescription: a\ninfer: false\ndisable-model-invocation: true\n---\nx\n";
    assert_eq!(all_fixed(&agent("a"), text), text);
}

/// `broad-grant` (info): an agent without `tools`, on its opening line, or with `*`, on the `*`;
/// nothing for a list, for a prompt file, or for a header that does not parse.
#[test]
fn an_agent_with_every_tool() {
    let t = "---\ndescription: Helps\n---\nHelp.\n";
    assert_eq!(all_diags(&agent("a"), t), ["broad-grant@---"]);
    let (d, _, _) = analyze(&agent("a"), t);
    assert_eq!(d[0].severity, Severity::Info);
    assert_eq!(
        d[0].message,
        "this agent has no `tools` list, so it gets every tool: the terminal, file edits and every MCP server's tools included; list the ones it needs, as in `tools: [read, search]`"
    );
    assert_eq!(
        all_diags(&agent("a"), "---\ndescription: Helps\ntools: ['read', '*']\n---\n"),
        ["broad-grant@'*'"]
    );
    assert!(all_diags(&agent("a"), "---\ndescription: Helps\ntools: [read]\n---\n").is_empty());
    assert!(all_diags(&agent("a"), "---\ndescription: Helps\ntools: []\n---\n").is_empty());
    assert!(
        all_diags(
            &FileKind::Prompt { name: "p".into() },
            "---\ndescription: Go\n---\nGo\n"
        )
        .is_empty()
    );
    assert!(!all_diags(&agent("a"), "---\ndescription: [Helps\n---\n").contains(&"broad-grant@---".to_string()));
}
