//! End-to-end tests of hover, completion and code actions over real LSP pipes (the client of
//! `lsp_support`), in both position encodings where positions matter.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

const CONFIG: &str = r#"{
  "default_agent": "rev",
  "permission": { "bash": { "git push *": "deny", "*": "ask" } },
  "provider": { "acme": { "models": { "fast-1": {} } } }
}
"#;
const REV: &str = "---\ndescription: Reviews code 审查 🚀\nmode: primary\ntemperature: 0.2\n---\nYou review code.\n";

fn start(enc: Enc) -> (tempfile::TempDir, Server) {
    let ws = workspace(&[("opencode.json", CONFIG), (".opencode/agents/rev.md", REV)]);
    let mut s = Server::start(&root_of(&ws), Setup::for_enc(enc));
    // The scan's publishes (the shadowed rule in CONFIG) are not what these tests look at.
    s.take_publishes();
    (ws, s)
}

fn hover_text(s: &mut Server, uri: &str, pos: Value) -> String {
    let r = s
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": pos}),
        )
        .unwrap();
    r["contents"]["value"].as_str().unwrap_or_default().to_string()
}

#[test]
fn hover_shows_the_effective_agent_and_docs() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, mut s) = start(enc);
        let root = root_of(&ws);
        let cfg = uri_of(&root.join("opencode.json"));
        let (at, _) = find(CONFIG, "\"rev\"");
        let md = hover_text(&mut s, &cfg, position(CONFIG, at + 2, enc));
        assert!(md.contains("### `rev`: primary agent"), "{md}");
        assert!(
            md.contains("**Permissions**") && md.contains("`git push *` deny"),
            "{md}"
        );
        assert!(md.contains("| temperature | 0.2 | .opencode/agents/rev.md:4 |"), "{md}");
        // On the Markdown file's `---`, in a line after CJK and emoji: field docs.
        let rev = uri_of(&root.join(".opencode/agents/rev.md"));
        let (at, _) = find(REV, "temperature");
        let md = hover_text(&mut s, &rev, position(REV, at + 3, enc));
        assert!(md.contains("**`temperature`**"), "{md}");
        // A permission pattern: what it matches and that a later rule shadows it.
        let (at, _) = find(CONFIG, "\"git push *\"");
        let md = hover_text(&mut s, &cfg, position(CONFIG, at + 3, enc));
        assert!(md.contains("Never decides"), "{md}");
        s.take_publishes();
        s.finish();
    }
}

fn completion_labels(s: &mut Server, uri: &str, pos: Value) -> Vec<String> {
    let r = s
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": pos}),
        )
        .unwrap();
    r.as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn completion_in_half_typed_documents() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, mut s) = start(enc);
        let root = root_of(&ws);
        // `mode: ` with nothing after it, in an unclosed frontmatter, after CJK and emoji.
        let uri = uri_of(&root.join(".opencode/agents/new.md"));
        let text = "---\ndescription: 新 🚀\nmode: ";
        s.open(&uri, "markdown", 1, text);
        s.expect_version(&uri, 1);
        let labels = completion_labels(&mut s, &uri, position(text, text.len(), enc));
        assert_eq!(labels, ["all", "primary", "subagent"]);
        // An empty line inside `permission:`.
        let text2 = "---\npermission:\n  edit: deny\n  \n---\nBody\n";
        s.change_full(&uri, 2, text2);
        s.expect_version(&uri, 2);
        let at = text2.find("  \n").unwrap() + 2;
        let labels = completion_labels(&mut s, &uri, position(text2, at, enc));
        assert_eq!(labels.first().map(String::as_str), Some("bash"));
        assert!(!labels.contains(&"edit".to_string()));
        // JSON: `"mode": "` with no closing quote; the text edit replaces the partial word.
        let cfg = uri_of(&root.join("opencode.json"));
        let json_text = "{\n  \"agent\": { \"x\": { \"mode\": \"su";
        s.open(&cfg, "json", 1, json_text);
        s.expect_version(&cfg, 1);
        let r = s
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": cfg}, "position": position(json_text, json_text.len(), enc)}),
            )
            .unwrap();
        let sub = r
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == "subagent")
            .unwrap()
            .clone();
        assert_eq!(sub["textEdit"]["newText"], "\"subagent\"");
        let start = json_text.rfind('"').unwrap();
        assert_eq!(sub["textEdit"]["range"], range(json_text, start, json_text.len(), enc));
        // Agent names where an agent is expected, and models from the provider section.
        let text3 =
            "{\"provider\": {\"acme\": {\"models\": {\"fast-1\": {}}}}, \"default_agent\": \"\", \"model\": \"\"}";
        s.change_full(&cfg, 2, text3);
        s.expect_version(&cfg, 2);
        let at = text3.find("\"\"").unwrap() + 1;
        assert!(completion_labels(&mut s, &cfg, position(text3, at, enc)).contains(&"rev".to_string()));
        let at = text3.rfind("\"\"").unwrap() + 1;
        assert_eq!(
            completion_labels(&mut s, &cfg, position(text3, at, enc)),
            ["acme/fast-1"]
        );
        s.take_publishes();
        s.finish();
    }
}

/// Apply LSP text edits (ranges in `enc`) to a text.
fn apply_edits(text: &str, edits: &[Value], enc: Enc) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let off = |p: &Value| {
                offset_of(
                    text,
                    p["line"].as_u64().unwrap() as u32,
                    p["character"].as_u64().unwrap() as u32,
                    enc,
                )
            };
            (
                off(&e["range"]["start"]),
                off(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (a, b, t) in spans {
        out.replace_range(a..b, &t);
    }
    out
}

fn offset_of(text: &str, line: u32, col: u32, enc: Enc) -> usize {
    for off in 0..=text.len() {
        if text.is_char_boundary(off) && line_col(text, off, enc) == (line, col) {
            return off;
        }
    }
    panic!("no offset for {line}:{col}");
}

#[test]
fn quick_fixes_and_fix_all_round_trip() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, mut s) = start(enc);
        let root = root_of(&ws);
        let uri = uri_of(&root.join(".opencode/agents/fix.md"));
        let text = "---\ndescription: 审查 🚀\ncolor: #FF5733\nmaxSteps: 3\ntemprature: 0.2\n---\nBody\n";
        s.open(&uri, "markdown", 1, text);
        let publish = s.expect_version(&uri, 1);
        let diags = publish["diagnostics"].clone();
        // Quick fixes: one per diagnostic with fix data, no server memory needed.
        let r = s
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": range(text, 0, 0, enc),
                       "context": {"diagnostics": diags, "only": ["quickfix"]}}),
            )
            .unwrap();
        let actions = r.as_array().unwrap();
        let titles: Vec<&str> = actions.iter().map(|a| a["title"].as_str().unwrap()).collect();
        assert_eq!(
            titles,
            [
                "Quote the color",
                "Rename `maxSteps` to `steps`",
                "Replace with `temperature`"
            ]
        );
        // Each quick fix, applied, leaves a file whose diagnostic is gone.
        let mut version = 1;
        for a in actions {
            let edits = a["edit"]["changes"][&uri].as_array().unwrap();
            let fixed = apply_edits(text, edits, enc);
            version += 1;
            s.change_full(&uri, version, &fixed);
            let p = s.expect_version(&uri, version);
            let code = a["diagnostics"][0]["code"].clone();
            let before = diags.as_array().unwrap().iter().filter(|d| d["code"] == code).count();
            let after = p["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["code"] == code)
                .count();
            assert!(after < before, "{} did not remove {code}: {fixed}", a["title"]);
        }
        // Fix all: every safe fix at once, as one minimal edit.
        version += 1;
        s.change_full(&uri, version, text);
        s.expect_version(&uri, version);
        let r = s
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": range(text, 0, 0, enc),
                       "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
            )
            .unwrap();
        let action = &r.as_array().unwrap()[0];
        assert_eq!(action["kind"], "source.fixAll.agent-lsp");
        let fixed = apply_edits(text, action["edit"]["changes"][&uri].as_array().unwrap(), enc);
        assert_eq!(
            fixed,
            "---\ndescription: 审查 🚀\ncolor: \"#FF5733\"\nsteps: 3\ntemprature: 0.2\n---\nBody\n"
        );
        s.take_publishes();
        s.finish();
    }
}

fn locations(r: &Value) -> Vec<(String, Value)> {
    r.as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap().rsplit('/').next().unwrap().to_string(),
                l["range"].clone(),
            )
        })
        .collect()
}

#[test]
fn definition_references_symbols() {
    let enc = Enc::Utf16;
    let (ws, mut s) = start(enc);
    let root = root_of(&ws);
    let cfg = uri_of(&root.join("opencode.json"));
    let (at, _) = find(CONFIG, "\"rev\"");
    // From `default_agent` to the Markdown agent that defines it.
    let r = s
        .request(
            "textDocument/definition",
            json!({"textDocument": {"uri": cfg}, "position": position(CONFIG, at + 2, enc)}),
        )
        .unwrap();
    let defs = locations(&r);
    assert_eq!(defs.len(), 1);
    assert_eq!(defs[0].0, "rev.md");
    // References, with and without the declaration.
    let rev = uri_of(&root.join(".opencode/agents/rev.md"));
    let refs = |s: &mut Server, decl: bool| {
        let r = s
            .request(
                "textDocument/references",
                json!({"textDocument": {"uri": cfg}, "position": position(CONFIG, at + 2, enc), "context": {"includeDeclaration": decl}}),
            )
            .unwrap();
        locations(&r)
    };
    assert_eq!(
        refs(&mut s, false),
        [("opencode.json".to_string(), range(CONFIG, at + 1, at + 4, enc))]
    );
    assert_eq!(refs(&mut s, true).len(), 2);
    // Document symbols of the config: its top-level keys, nested.
    let r = s
        .request("textDocument/documentSymbol", json!({"textDocument": {"uri": cfg}}))
        .unwrap();
    let names: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["default_agent", "permission", "provider"]);
    let r = s
        .request("textDocument/documentSymbol", json!({"textDocument": {"uri": rev}}))
        .unwrap();
    assert_eq!(r[0]["name"], "description");
    // Workspace symbols: every agent definition.
    let r = s.request("workspace/symbol", json!({"query": "re"})).unwrap();
    let names: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["rev"]);
    s.take_publishes();
    s.finish();
}

#[test]
fn rename_an_agent() {
    let enc = Enc::Utf16;
    let (ws, mut s) = start(enc);
    let root = root_of(&ws);
    let cfg = uri_of(&root.join("opencode.json"));
    let (at, _) = find(CONFIG, "\"rev\"");
    let pos = position(CONFIG, at + 2, enc);
    let r = s
        .request(
            "textDocument/prepareRename",
            json!({"textDocument": {"uri": cfg}, "position": pos}),
        )
        .unwrap();
    assert_eq!(r, range(CONFIG, at + 1, at + 4, enc));
    // The Markdown agent is named by its path: the rename moves the file, and edits references.
    let r = s
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": cfg}, "position": pos, "newName": "reviewer"}),
        )
        .unwrap();
    let ops = r["documentChanges"].as_array().unwrap();
    let edit = ops.iter().find(|o| o.get("edits").is_some()).unwrap();
    assert_eq!(edit["edits"][0]["newText"], "reviewer");
    let rename = ops.iter().find(|o| o["kind"] == "rename").unwrap();
    assert!(rename["oldUri"].as_str().unwrap().ends_with("/.opencode/agents/rev.md"));
    assert!(
        rename["newUri"]
            .as_str()
            .unwrap()
            .ends_with("/.opencode/agents/reviewer.md")
    );
    // Refused: a name that is taken, and a built-in agent.
    let e = s
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": cfg}, "position": pos, "newName": "plan"}),
        )
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("already exists"), "{e}");
    let text = "{\"default_agent\": \"build\"}";
    s.open(&cfg, "json", 1, text);
    s.take_publishes();
    let at = text.find("build").unwrap();
    let e = s
        .request(
            "textDocument/prepareRename",
            json!({"textDocument": {"uri": cfg}, "position": position(text, at + 1, enc)}),
        )
        .unwrap_err();
    assert!(e["message"].as_str().unwrap().contains("built-in"), "{e}");
    s.take_publishes();
    s.finish();
}
