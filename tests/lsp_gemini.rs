//! End-to-end tests of the Gemini CLI dialect over real LSP pipes (the client of `lsp_support`):
//! the diagnostics of a project's `.gemini/settings.json`, of an agent, a command and a
//! `GEMINI.md`, an extension's manifest and a skill, where they sit in both position encodings
//! (CJK and emoji before them on their line), hover on a setting, completion of settings and values, and the fix of an old flat key
//! applied as an edit.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

/// A boolean written as a word after CJK and an emoji, an old flat key, a server's misspelt key.
const SETTINGS: &str = "{\n  \"general\": { \"名前🚀\": 1, \"vimMode\": \"on\" },\n  \"contextFileName\": \"AGENTS.md\",\n  \"mcpServers\": { \"文書🚀\": { \"comand\": \"npx\" } }\n}\n";
/// An agent whose name is no slug, after CJK in its description.
const AGENT: &str = "---\ndescription: 審査 🚀 reviews code\nname: Code Reviewer\n---\nReview.\n";
/// An agent Gemini CLI loads, a comment after its name, CJK and an emoji in its description.
const GOOD_AGENT: &str =
    "---\nname: tidy-up # 整理\ndescription: 整理 🚀 tidies\ntools: [read_file]\nmax_turns: 4\n---\nTidy.\n";
/// A command without its prompt.
const COMMAND: &str = "description = \"検査 🚀\"\n";
/// A missing import after CJK and an emoji.
const CONTEXT: &str = "# 規則 🚀 @docs/gone.md\n";
/// An extension whose name Gemini CLI refuses, after CJK and an emoji.
const EXTENSION: &str = "{ \"version\": \"1.0.0\", \"説明🚀\": 1, \"name\": \"my ext\" }\n";
/// An extension Gemini CLI loads, a context file of which is not there.
const EXTENSION_OK: &str =
    "{ \"name\": \"ok\", \"version\": \"1.0.0\",\n  \"contextFileName\": [\"規則🚀.md\", \"gone.md\"] }\n";
/// A skill without a description, its name after CJK on the line above.
const SKILL: &str = "---\n# 技能 🚀\nname: tidy\n---\nTidy up.\n";

const FILES: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (".gemini/settings.json", SETTINGS),
    (".gemini/agents/reviewer.md", AGENT),
    (".gemini/agents/tidy-up.md", GOOD_AGENT),
    (".gemini/commands/check.toml", COMMAND),
    ("GEMINI.md", CONTEXT),
    ("ext/gemini-extension.json", EXTENSION),
    ("ok/gemini-extension.json", EXTENSION_OK),
    ("ok/規則🚀.md", "Extension rules.\n"),
    (".gemini/skills/tidy/SKILL.md", SKILL),
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
        let settings = ws.uri(".gemini/settings.json");
        assert_eq!(
            codes_and_ranges(publish_of(&scan, &settings)),
            [
                ("unknown-key".to_string(), range_of(SETTINGS, "\"名前🚀\"", enc)),
                ("invalid-type".to_string(), range_of(SETTINGS, "\"on\"", enc)),
                (
                    "unknown-key".to_string(),
                    range_of(SETTINGS, "\"contextFileName\"", enc)
                ),
                ("unknown-key".to_string(), range_of(SETTINGS, "\"comand\"", enc)),
            ],
            "{}",
            enc.name()
        );
        let agent = publish_of(&scan, &ws.uri(".gemini/agents/reviewer.md"));
        assert_eq!(
            codes_and_ranges(agent),
            [("invalid-name".to_string(), range_of(AGENT, "Code Reviewer", enc))]
        );
        assert_eq!(
            agent["diagnostics"][0]["severity"], 1,
            "the agent does not load: an error"
        );
        let command = publish_of(&scan, &ws.uri(".gemini/commands/check.toml"));
        assert_eq!(codes_and_ranges(command)[0].0, "missing-field");
        let context = publish_of(&scan, &ws.uri("GEMINI.md"));
        assert_eq!(
            codes_and_ranges(context),
            [("missing-path".to_string(), range_of(CONTEXT, "@docs/gone.md", enc))]
        );
        // An extension: an unknown key, the refused name (an error); another's missing context
        // file.
        let extension = publish_of(&scan, &ws.uri("ext/gemini-extension.json"));
        assert_eq!(
            codes_and_ranges(extension),
            [
                ("unknown-key".to_string(), range_of(EXTENSION, "\"説明🚀\"", enc)),
                ("invalid-name".to_string(), range_of(EXTENSION, "\"my ext\"", enc)),
            ]
        );
        assert_eq!(extension["diagnostics"][1]["severity"], 1, "skipped: an error");
        let loaded = publish_of(&scan, &ws.uri("ok/gemini-extension.json"));
        assert_eq!(
            codes_and_ranges(loaded),
            [("missing-path".to_string(), range_of(EXTENSION_OK, "\"gone.md\"", enc))]
        );
        // The skill Gemini CLI skips for want of a description: an error on its name.
        let skill = publish_of(&scan, &ws.uri(".gemini/skills/tidy/SKILL.md"));
        assert_eq!(
            codes_and_ranges(skill),
            [("missing-field".to_string(), range_of(SKILL, "tidy", enc))]
        );
        ws.s.finish();
    }
}

/// The hover at byte `at` of `text`, the file `uri` holds: its Markdown and its range.
fn hover(ws: &mut Ws, uri: &str, text: &str, at: usize, enc: Enc) -> (String, Value) {
    let h =
        ws.s.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": position(text, at, enc) }),
        )
        .unwrap();
    (h["contents"]["value"].as_str().unwrap().to_string(), h["range"].clone())
}

#[test]
fn hover_completion_and_a_fix() {
    let enc = Enc::Utf16;
    let (mut ws, _) = Ws::start(FILES, enc);
    let settings = ws.uri(".gemini/settings.json");
    // Hover on a setting: what it does and takes.
    let (at, _) = find(SETTINGS, "vimMode");
    let (md, range) = hover(&mut ws, &settings, SETTINGS, at + 2, enc);
    assert_eq!(range, range_of(SETTINGS, "\"vimMode\"", enc));
    assert!(
        md.starts_with("**`general.vimMode`**") && md.contains("Value: true or false."),
        "{md}"
    );
    // Hover on a loaded agent's `name`: the agent as Gemini CLI builds it, over the whole line.
    let tidy = ws.uri(".gemini/agents/tidy-up.md");
    let (at, _) = find(GOOD_AGENT, "tidy-up");
    let (md, range) = hover(&mut ws, &tidy, GOOD_AGENT, at + 3, enc);
    assert_eq!(
        md,
        "### `tidy-up`: Gemini CLI local agent\n\n整理 🚀 tidies\n\n**Tools**: `read_file` (.gemini/agents/tidy-up.md:4)\n\n**Model**: the session's model (no `model`)\n\n**Max turns**: `4` (.gemini/agents/tidy-up.md:5)\n\nDefined in: .gemini/agents/tidy-up.md:2.\n"
    );
    assert_eq!(range, range_of(GOOD_AGENT, "name: tidy-up # 整理", enc));
    // On the comment after the name, the same card: the line is the name's.
    let (at, _) = find(GOOD_AGENT, "# 整理");
    let (on_comment, _) = hover(&mut ws, &tidy, GOOD_AGENT, at + 2, enc);
    assert_eq!(on_comment, md);
    // Elsewhere in it, the field's own help; on the name of an agent Gemini CLI does not load
    // (its name is no slug), the field's help too: there is no agent to show.
    let (at, _) = find(GOOD_AGENT, "max_turns");
    let (md, _) = hover(&mut ws, &tidy, GOOD_AGENT, at, enc);
    assert!(!md.starts_with("###") && md.contains("max_turns"), "{md}");
    let reviewer = ws.uri(".gemini/agents/reviewer.md");
    let (at, _) = find(AGENT, "Code Reviewer");
    let (md, _) = hover(&mut ws, &reviewer, AGENT, at, enc);
    assert!(!md.starts_with("###") && md.contains("name"), "{md}");
    // Completion of a section's settings (less those written) and of a setting's values.
    ws.s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": settings, "languageId": "json", "version": 1, "text": SETTINGS } }),
    );
    let (change, text) = replace(
        SETTINGS,
        "\"vimMode\": \"on\" }",
        "\"vimMode\": \"on\", \"preferredEditor\": \"\" }",
        enc,
    );
    ws.s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": settings, "version": 2 }, "contentChanges": [change] }),
    );
    let at = text.find("\"preferredEditor\": \"").unwrap() + "\"preferredEditor\": \"".len();
    let items =
        ws.s.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": settings }, "position": position(&text, at, enc) }),
        )
        .unwrap();
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"neovim") && labels.contains(&"vscode"), "{labels:?}");
    // The old flat key moved into its section, as the fix writes it: its finding is gone.
    let (change, text) = replace(
        &text,
        "\"contextFileName\": \"AGENTS.md\"",
        "\"context\": { \"fileName\": \"AGENTS.md\" }",
        enc,
    );
    ws.s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": settings, "version": 3 }, "contentChanges": [change] }),
    );
    let publish = ws.s.expect_version(&settings, 3);
    let codes: Vec<String> = codes_and_ranges(&publish).into_iter().map(|(c, _)| c).collect();
    // The CJK key, `"on"`, the `""` being written, `comand`: nothing on the moved setting.
    assert_eq!(
        codes,
        ["unknown-key", "invalid-type", "invalid-value", "unknown-key"],
        "{publish:#}"
    );
    assert!(!text.contains("contextFileName"));
    ws.s.finish();
}
