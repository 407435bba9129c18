//! End-to-end tests of the GitHub Copilot dialect over real LSP pipes (the client of
//! `lsp_support`): diagnostics on the exact key or value, hover with the effective agent,
//! completion of keys, tools, agents and models, go-to-definition from a handoff and a prompt's
//! `agent` to the agent, and the chat mode's "move to .github/agents" code action, in both
//! position encodings. CJK and emoji come before the positions that matter, on the same line, so
//! that UTF-8 and UTF-16 columns differ there.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

const PLANNER: &str = "---\nname: planner\ndescription: 計画 🚀 Plans the work\ntools: ['search', 'github/*', edti]\nmodel: GPT-5 (copilot)\nhandoffs:\n  - label: 実装 🚀 Implement\n    agent: implementer\n    prompt: Go\n  - label: Review\n    agent: reviewr\n    prompt: Check\n---\nPlan it.\n";
const IMPLEMENTER: &str = "---\ndescription: Implements\ntools: [edit, execute]\n---\nDo it.\n";
const PROMPT: &str = "---\ndescription: 見直し 🚀\nagent: implementer\n---\nGo.\n";
const CHATMODE: &str = "---\ndescription: Old 古い\n---\nOld.\n";
const MCP: &str =
    "{ \"servers\": { \"github\": { \"type\": \"http\", \"url\": \"https://api.githubcopilot.com/mcp/\" } } }\n";

const FILES: &[(&str, &str)] = &[
    (".github/agents/planner.agent.md", PLANNER),
    (".github/agents/implementer.agent.md", IMPLEMENTER),
    (".github/prompts/go.prompt.md", PROMPT),
    (".github/chatmodes/old.chatmode.md", CHATMODE),
    (".vscode/mcp.json", MCP),
];

fn publish_for<'a>(publishes: &'a [Value], uri: &str) -> &'a Value {
    publishes
        .iter()
        .rev()
        .find(|p| p["uri"] == uri)
        .unwrap_or_else(|| panic!("no publish for {uri}"))
}

/// `(range, code)` of each published diagnostic.
fn codes(publish: &Value) -> Vec<(Value, String)> {
    publish["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["range"].clone(), d["code"].as_str().unwrap_or_default().to_string()))
        .collect()
}

#[test]
fn diagnostics_sit_on_the_key_or_value_in_both_encodings() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, scan) = Ws::start(FILES, enc);
        let planner = ws.uri(".github/agents/planner.agent.md");
        let got = codes(publish_for(&scan, &planner));
        assert!(
            got.contains(&(range_in(PLANNER, "'github/*', ", "edti", enc), "unknown-tool".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&(range_in(PLANNER, "agent: ", "reviewr", enc), "unknown-agent".into())),
            "{got:?}"
        );
        // The handoff key GitHub.com ignores: a hint on the key.
        assert!(got.contains(&(range_in(PLANNER, "\n", "handoffs", enc), "ignored-field".into())));
        // `github/*` names a server of `.vscode/mcp.json`: nothing to say.
        assert_eq!(got.len(), 3, "{got:?}");
        let chatmode = ws.uri(".github/chatmodes/old.chatmode.md");
        assert_eq!(
            codes(publish_for(&scan, &chatmode)),
            [(range(CHATMODE, 0, 3, enc), "deprecated-file".to_string())]
        );
        ws.s.finish();
    }
}

#[test]
fn hover_shows_the_effective_agent_and_what_each_tool_gives() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = Ws::start(FILES, enc);
        let planner = ws.uri(".github/agents/planner.agent.md");
        let prompt = ws.uri(".github/prompts/go.prompt.md");
        let s = &mut ws.s;
        // On the prompt's `agent`: the implementer's card.
        let r = s
            .request("textDocument/hover", at(&prompt, PROMPT, "agent: ", "implementer", enc))
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(md.starts_with("### `implementer`: GitHub Copilot custom agent"), "{md}");
        assert!(md.contains("- `edit`: Create and edit files"), "{md}");
        assert_eq!(r["range"], range_in(PROMPT, "agent: ", "implementer", enc));
        // On a `tools` entry: the MCP server it names, with where it is declared.
        let r = s
            .request(
                "textDocument/hover",
                at(&planner, PLANNER, "'search', ", "'github/*'", enc),
            )
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(
            md.contains("every tool of the MCP server `github` (.vscode/mcp.json:1)"),
            "{md}"
        );
        // On the name: the agent's own card, hosts, model and handoffs included.
        let r = s
            .request("textDocument/hover", at(&planner, PLANNER, "name: ", "planner", enc))
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        for want in [
            "**Read by**: VS Code and GitHub.com's coding agent",
            "**Model**: `GPT-5 (copilot)`",
            "- \"実装 🚀 Implement\" → `implementer`",
            "- \"Review\" → `reviewr` (no such agent: no button)",
        ] {
            assert!(md.contains(want), "{want:?} not in {md}");
        }
        // On a key: its documentation and hosts.
        let r = s
            .request("textDocument/hover", at(&planner, PLANNER, "\n", "handoffs", enc))
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(md.contains("GitHub.com's coding agent ignores it"), "{md}");
        ws.s.finish();
    }
}

#[test]
fn definition_goes_from_a_handoff_and_a_prompt_to_the_agent() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = Ws::start(FILES, enc);
        let planner = ws.uri(".github/agents/planner.agent.md");
        let implementer = ws.uri(".github/agents/implementer.agent.md");
        let prompt = ws.uri(".github/prompts/go.prompt.md");
        let s = &mut ws.s;
        // The implementer has no `name`: its definition is its opening `---`.
        let def = json!([{ "uri": implementer, "range": range(IMPLEMENTER, 0, 3, enc) }]);
        for from in [
            at(&planner, PLANNER, "agent: ", "implementer", enc),
            at(&prompt, PROMPT, "agent: ", "implementer", enc),
        ] {
            assert_eq!(
                s.request("textDocument/definition", from.clone()).unwrap(),
                def,
                "{from}"
            );
        }
        ws.s.finish();
    }
}

#[test]
fn completion_offers_tools_agents_and_models() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let text = "---\ndescription: 計画 🚀\ntools: [se]\nhandoffs:\n  - agent: im\n---\n";
        let mut files = FILES.to_vec();
        files.push((".github/agents/new.agent.md", text));
        let (mut ws, _) = Ws::start(&files, enc);
        let uri = ws.uri(".github/agents/new.agent.md");
        let s = &mut ws.s;
        s.open(&uri, "chatagent", 1, text);
        s.expect_version(&uri, 1);
        let labels = |r: &Value| -> Vec<String> {
            r.as_array()
                .or_else(|| r["items"].as_array())
                .unwrap()
                .iter()
                .map(|i| i["label"].as_str().unwrap().to_string())
                .collect()
        };
        let (off, _) = within(text, "tools: [", "se");
        let r = s
            .request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": uri }, "position": position(text, off + 2, enc) }),
            )
            .unwrap();
        let l = labels(&r);
        assert!(
            l.contains(&"search".to_string()) && l.contains(&"github/*".to_string()),
            "{l:?}"
        );
        let (off, _) = within(text, "agent: ", "im");
        let r = s
            .request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": uri }, "position": position(text, off + 2, enc) }),
            )
            .unwrap();
        assert!(labels(&r).contains(&"implementer".to_string()), "{r}");
        ws.s.finish();
    }
}

#[test]
fn a_handoff_completes_its_agent_and_send_below_its_label() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let text = "---\ndescription: 計画 🚀\nhandoffs:\n  - label: 実装 🚀 Go\n    agent: \n    send: \n  - label: Again\n    agent: \"\"\n---\n";
        let mut files = FILES.to_vec();
        files.push((".github/agents/new.agent.md", text));
        let (mut ws, _) = Ws::start(&files, enc);
        let uri = ws.uri(".github/agents/new.agent.md");
        let s = &mut ws.s;
        s.open(&uri, "chatagent", 1, text);
        s.expect_version(&uri, 1);
        let mut ask = |off: usize| -> Vec<String> {
            let r = s
                .request(
                    "textDocument/completion",
                    json!({ "textDocument": { "uri": uri }, "position": position(text, off, enc) }),
                )
                .unwrap();
            r.as_array()
                .or_else(|| r["items"].as_array())
                .unwrap()
                .iter()
                .map(|i| i["label"].as_str().unwrap().to_string())
                .collect()
        };
        // Empty, after the label: the project's agents (the list `check` resolves against),
        // then the built-in ones.
        let empty = text.find("agent: \n").unwrap() + "agent: ".len();
        let l = ask(empty);
        assert_eq!(&l[..4], ["implementer", "new", "old", "planner"], "{l:?}");
        assert!(l.contains(&"plan".to_string()), "{l:?}");
        // Quoted, in the next handoff.
        let quoted = text.find("agent: \"\"").unwrap() + "agent: \"".len();
        assert!(ask(quoted).contains(&"implementer".to_string()));
        let send = text.find("send: ").unwrap() + "send: ".len();
        assert_eq!(ask(send), ["false", "true"]);
        ws.s.finish();
    }
}

#[test]
fn hover_on_a_name_that_resolves_to_nothing_says_so() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = Ws::start(FILES, enc);
        let planner = ws.uri(".github/agents/planner.agent.md");
        let r =
            ws.s.request("textDocument/hover", at(&planner, PLANNER, "agent: ", "reviewr", enc))
                .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(md.starts_with("### `reviewr`: no agent"), "{md}");
        assert!(md.contains("resolves to no agent"), "{md}");
        assert!(md.contains("VS Code shows no button for this handoff"), "{md}");
        assert_eq!(r["range"], range_in(PLANNER, "agent: ", "reviewr", enc));
        ws.s.finish();
    }
}

#[test]
fn a_chat_mode_is_moved_to_the_agents_folder_by_a_code_action() {
    let enc = Enc::Utf16;
    let (mut ws, scan) = Ws::start(FILES, enc);
    let chatmode = ws.uri(".github/chatmodes/old.chatmode.md");
    let target = ws.uri(".github/agents/old.agent.md");
    let diags = publish_for(&scan, &chatmode)["diagnostics"].clone();
    let r =
        ws.s.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": chatmode },
                "range": range(CHATMODE, 0, 3, enc),
                "context": { "diagnostics": diags },
            }),
        )
        .unwrap();
    let action = r
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Move to .github/agents/old.agent.md"))
        })
        .unwrap_or_else(|| panic!("no move action in {r}"));
    assert_eq!(
        action["edit"]["documentChanges"],
        json!([{ "kind": "rename", "oldUri": chatmode, "newUri": target }])
    );
    ws.s.finish();
}
