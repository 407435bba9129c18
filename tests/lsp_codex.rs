//! End-to-end tests of the Codex dialect over real LSP pipes (the client of `lsp_support`): the
//! diagnostics of a project's `.codex/config.toml` and of its agent files, where they sit in both
//! position encodings (CJK and emoji come before the positions that matter, on the same line),
//! hover on a key, completion of keys and values, and a published change as the file is edited.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

/// `sandbox_mode` misspelt in its value (refused), an unknown key after CJK and emoji on its
/// line's comment-free part, an MCP server whose `command` is misspelt.
const CONFIG: &str = "# 設定 🚀\nmodel = \"gpt-5.1-codex\"\nsandbox_mode = \"workspace_write\"\n[tui]\nanimations = false\n[mcp_servers.\"文書🚀\"]\ncomand = \"npx\"\n";
/// An agent a typo drops, and its valid twin.
const TYPO: &str = "name = \"tester\"\ndescripton = \"Runs tests\"\ndeveloper_instructions = \"Run them.\"\n";
const GOOD: &str = "name = \"reviewer\"\ndescription = \"Reviews 審査 🚀\"\ndeveloper_instructions = \"Review.\"\n";

const FILES: &[(&str, &str)] = &[
    (".codex/config.toml", CONFIG),
    (".codex/agents/tester.toml", TYPO),
    (".codex/agents/reviewer.toml", GOOD),
];

fn publish_of<'a>(publishes: &'a [Value], uri: &str) -> &'a Value {
    publishes
        .iter()
        .rev()
        .find(|p| p["uri"] == json!(uri))
        .unwrap_or_else(|| panic!("no publish for {uri}: {publishes:#?}"))
}

/// `(code, range)` of each diagnostic of a publish.
fn codes_and_ranges(publish: &Value) -> Vec<(String, Value)> {
    publish["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["range"].clone()))
        .collect()
}

#[test]
fn diagnostics_sit_on_the_key_or_value_in_both_encodings() {
    for enc in [Enc::Utf16, Enc::Utf8] {
        let (ws, scan) = Ws::start(FILES, enc);
        let config = ws.uri(".codex/config.toml");
        assert_eq!(
            codes_and_ranges(publish_of(&scan, &config)),
            [
                (
                    "invalid-value".to_string(),
                    range_of(CONFIG, "\"workspace_write\"", enc)
                ),
                ("missing-field".to_string(), range_of(CONFIG, "comand", enc)),
            ],
            "{}",
            enc.name()
        );
        let typo = ws.uri(".codex/agents/tester.toml");
        let d = &publish_of(&scan, &typo)["diagnostics"][0];
        assert_eq!(d["code"], "unknown-key");
        assert_eq!(d["severity"], 1, "an unknown top-level key drops the agent: an error");
        assert!(
            d["message"].as_str().unwrap().contains("Did you mean `description`?"),
            "{d}"
        );
        let good = ws.uri(".codex/agents/reviewer.toml");
        assert!(
            scan.iter()
                .filter(|p| p["uri"] == json!(good))
                .all(|p| p["diagnostics"] == json!([])),
            "{scan:#?}"
        );
        ws.s.finish();
    }
}

#[test]
fn hover_completion_and_an_edit() {
    let enc = Enc::Utf16;
    let (mut ws, _) = Ws::start(FILES, enc);
    let config = ws.uri(".codex/config.toml");
    // Hover on a key: what it does, its values.
    let (at, _) = find(CONFIG, "sandbox_mode");
    let h =
        ws.s.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": config }, "position": position(CONFIG, at + 2, enc) }),
        )
        .unwrap();
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("`danger-full-access`") && md.contains("sandbox_mode"),
        "{md}"
    );
    assert_eq!(h["range"], range_of(CONFIG, "sandbox_mode", enc));
    // Hover on an agent's `name`: the agent as Codex builds it, its approval policy and sandbox
    // from the project's config.toml (this one sets none: Codex's defaults) first.
    let reviewer = ws.uri(".codex/agents/reviewer.toml");
    let (at, _) = find(GOOD, "reviewer");
    let h =
        ws.s.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": reviewer }, "position": position(GOOD, at, enc) }),
        )
        .unwrap();
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.starts_with("### `reviewer`: Codex agent\n\nReviews 審査 🚀\n\n**Permission**: approval"),
        "{md}"
    );
    assert!(md.contains("Defined in: .codex/agents/reviewer.toml:1."), "{md}");
    // Completion of the keys of `[tui]` (less the one written), then of a value.
    ws.s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": config, "languageId": "toml", "version": 1, "text": CONFIG } }),
    );
    let text = CONFIG.replace("animations = false\n", "animations = false\nnotification_m\n");
    let (change, _) = replace(
        CONFIG,
        "animations = false\n",
        "animations = false\nnotification_m\n",
        enc,
    );
    ws.s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": config, "version": 2 }, "contentChanges": [change] }),
    );
    let at = text.find("notification_m").unwrap() + "notification_m".len();
    let items =
        ws.s.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": config }, "position": position(&text, at, enc) }),
        )
        .unwrap();
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"notification_method"), "{labels:?}");
    assert!(!labels.contains(&"animations"), "{labels:?}");
    // The fix of the refused value, applied as an edit, clears its finding.
    let (change, _) = replace(&text, "\"workspace_write\"", "\"workspace-write\"", enc);
    ws.s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": config, "version": 3 }, "contentChanges": [change] }),
    );
    let publish = ws.s.expect_version(&config, 3);
    let codes: Vec<String> = codes_and_ranges(&publish).into_iter().map(|(c, _)| c).collect();
    assert!(!codes.contains(&"invalid-value".to_string()), "{publish:#}");
    assert!(codes.contains(&"missing-field".to_string()), "{publish:#}");
    ws.s.finish();
}

/// The instruction chain: a sub-folder's `AGENTS.md` that the budget cuts after CJK and an emoji
/// on the line of the cut, the hover on a root file saying who reads it, and an edit of the root
/// file that gives the sub-folder's its bytes back.
#[test]
fn the_instruction_budget_cut_sits_where_it_falls_and_follows_an_edit_above() {
    const ROOT: &str = "# 規則 🚀\nKeep it short.\n";
    const SUB: &str = "# 下位 🚀 rules for the sub folder, cut here\nMore.\n";
    let files: &[(&str, &str)] = &[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (".codex/config.toml", "project_doc_max_bytes = 60\n"),
        ("AGENTS.md", ROOT),
        ("sub/AGENTS.md", SUB),
    ];
    // 60 bytes, 29 of them the root's: the cut is 31 bytes into the sub-folder's file.
    let cut = 60 - ROOT.len();
    let line_end = SUB.find('\n').unwrap();
    for enc in [Enc::Utf16, Enc::Utf8] {
        let (mut ws, scan) = Ws::start(files, enc);
        let sub = ws.uri("sub/AGENTS.md");
        let publish = publish_of(&scan, &sub);
        assert_eq!(
            codes_and_ranges(publish),
            [("truncated-instructions".to_string(), range(SUB, cut, line_end, enc))],
            "{}",
            enc.name()
        );
        let message = publish["diagnostics"][0]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("the first {cut} of its {} bytes", SUB.len())),
            "{message}"
        );
        // The hover on the root file's first line: Codex among the runtimes that read it.
        let root = ws.uri("AGENTS.md");
        let h =
            ws.s.request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": root }, "position": position(ROOT, 2, enc) }),
            )
            .unwrap();
        let md = h["contents"]["value"].as_str().unwrap();
        assert!(
            md.contains("- **Codex** reads it: Codex reads it, in a session started here or below"),
            "{md}"
        );
        // A shorter root file: the sub-folder's fits, and its finding goes.
        ws.s.open(&root, "markdown", 1, ROOT);
        ws.s.change_full(&root, 2, "規\n");
        let _ = ws.s.expect_version(&root, 2);
        let publishes = ws.s.take_publishes();
        assert_eq!(publish_of(&publishes, &sub)["diagnostics"], json!([]), "{}", enc.name());
        ws.s.finish();
    }
}
