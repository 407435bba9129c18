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
        assert!(md.contains("### `rev`: opencode primary agent"), "{md}");
        // Decision first: the summary (`git push *` is overridden by the later `*`, so bash
        // asks for everything; set by the config for every agent, with where), then the
        // settings, then every rule.
        let summary = md.find("- `bash`: **ask** (opencode.json:3)\n").expect(&md);
        let settings = md.find("| temperature | 0.2 |").expect(&md);
        let rules = md.find("`bash`, `git push *`: deny").expect(&md);
        assert!(summary < settings && settings < rules, "{md}");
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

#[test]
fn the_hover_card_leads_with_what_the_agent_sets() {
    const CONFIG: &str = r#"{
  "permission": { "edit": "ask" },
  "agent": { "rev": { "permission": { "bash": { "*": "deny", "git diff *": "allow" } } } }
}
"#;
    const REV: &str = "---\ndescription: Reviews\nmode: subagent\npermission:\n  webfetch: deny\n  external_directory:\n    \"~/notes/*\": allow\n---\nReview.\n";
    const SKILL: &str = "---\nname: lint\ndescription: Lints the code\n---\nRun the linter.\n";
    let ws = workspace(&[
        ("opencode.json", CONFIG),
        (".opencode/agents/rev.md", REV),
        (".opencode/skills/lint/SKILL.md", SKILL),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::for_enc(Enc::Utf16));
    s.take_publishes();
    let md = hover_text(
        &mut s,
        &uri_of(&root.join(".opencode/agents/rev.md")),
        json!({"line": 0, "character": 1}),
    );
    let block = md
        .split("**Permissions**")
        .nth(1)
        .and_then(|rest| rest.split("**Settings**").next())
        .expect(&md);
    let lines: Vec<&str> = block.lines().filter(|l| l.starts_with("- ")).collect();
    // Its own files first, in the order written (config entry, then Markdown); then what the
    // config sets for every agent, with where; then opencode's defaults on one line. The home
    // is `~`, a skill's folder is named as one.
    assert_eq!(
        lines,
        [
            "- `bash`: **deny**, except `git diff *`: allow",
            "- `webfetch`: **deny**",
            "- `external_directory`: **ask**, except `<tmpdir>/opencode/*`, `~/notes/*`, `~/.local/share/opencode/tool-output/*`, one skill's folder: allow",
            "- `edit`: **ask** (opencode.json:2)",
            "- every other permission: opencode's defaults for a subagent (5 with rules of their own: `doom_loop`, `question`, `plan_enter`, `plan_exit`, `read`; the rest **allow**)",
        ],
        "{md}"
    );
    // Every rule below shows paths the same way, a skill's folder by its name.
    assert!(
        md.contains("`.opencode/skills/lint/*` (the `lint` skill's folder): allow (built-in)"),
        "{md}"
    );
    assert!(!md.contains(&root.display().to_string()), "{md}");
    s.finish();
}

#[test]
fn hover_without_collapsed_line_and_on_a_file_without_frontmatter() {
    // Every permission with a rule of opencode's own is set by the agent: no collapsed line.
    const ALL: &str = "---\ndescription: Locked\nmode: subagent\npermission:\n  \"*\": deny\n  doom_loop: deny\n  external_directory: deny\n  question: deny\n  plan_enter: deny\n  plan_exit: deny\n  read: deny\n---\nNothing.\n";
    const NOTES: &str = "# Notes on agents\nKeep them short.\n";
    let ws = workspace(&[
        (".opencode/agents/locked.md", ALL),
        (".opencode/agents/notes.md", NOTES),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::for_enc(Enc::Utf16));
    s.take_publishes();
    let md = hover_text(
        &mut s,
        &uri_of(&root.join(".opencode/agents/locked.md")),
        json!({"line": 0, "character": 1}),
    );
    let lines: Vec<&str> = md
        .split("**Permissions**")
        .nth(1)
        .and_then(|rest| rest.split("**Settings**").next())
        .expect(&md)
        .lines()
        .filter(|l| l.starts_with("- "))
        .collect();
    assert_eq!(lines.len(), 7, "{md}");
    assert!(lines.iter().all(|l| !l.contains("every other permission")), "{md}");
    // A Markdown file opencode loads without a frontmatter: the card anywhere on its first line.
    let notes = uri_of(&root.join(".opencode/agents/notes.md"));
    let r = s
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": notes}, "position": {"line": 0, "character": 9}}),
        )
        .unwrap();
    assert!(
        r["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .starts_with("### `notes`: opencode agent"),
        "{r}"
    );
    assert_eq!(
        r["range"],
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 17}})
    );
    s.finish();
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
        // Quick fixes: one per diagnostic with fix data, no server memory needed; then, for every
        // diagnostic, "ignore it on this line".
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
                "Replace with `temperature`",
                "Ignore `invalid-color` on this line (agent-lsp: ignore)",
                "Ignore `deprecated-field` on this line (agent-lsp: ignore)",
                "Ignore `unknown-key` on this line (agent-lsp: ignore)",
            ]
        );
        assert!(actions[3..].iter().all(|a| a["isPreferred"] == false));
        // Each quick fix, applied, leaves a file whose diagnostic is gone (an ignore comment
        // included: it is used, so no `unused-suppression` takes its place).
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
            let unused = p["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["code"] == "unused-suppression");
            assert!(!unused, "{fixed}");
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

// ---------------------------------------------------------------------------------------------
// Navigation and rename, on a workspace where `rev` is referenced in every way
// ---------------------------------------------------------------------------------------------

/// `rev` (a Markdown agent named by its path) is referenced by `default_agent`, a command's
/// `agent`, a `task` pattern and an `@rev` mention, on lines with CJK and emoji before the name
/// (where UTF-8 and UTF-16 columns differ). `scout` is a Markdown agent named by its
/// frontmatter `name`; `helper` is defined in the config.
const NAV_CONFIG: &str = r#"{
  "default_agent": "rev",
  "command": { "review": { "template": "Review 审查 🚀", "agent": "rev" } },
  "agent": { "helper": { "mode": "subagent", "description": "审查 🚀", "permission": { "task": { "rev": "allow", "scout": "ask" } } } }
}
"#;
const NAV_REV: &str = "---\ndescription: Reviews code 审查 🚀\nmode: primary\n---\nYou review code.\n";
const NAV_LEAD: &str =
    "---\ndescription: Leads\nmode: primary\n---\n审查 🚀 then ask @rev, not @nobody; @helper and @scout.\n";
const NAV_SCOUT: &str = "---\nname: scout\ndescription: Scouts 🚀\nmode: subagent\n---\nYou scout.\n";

struct Nav {
    _ws: tempfile::TempDir,
    s: Server,
    enc: Enc,
    cfg: String,
    rev: String,
    lead: String,
    scout: String,
}

fn nav(setup: Setup) -> Nav {
    let ws = workspace(&[
        ("opencode.json", NAV_CONFIG),
        (".opencode/agents/rev.md", NAV_REV),
        (".opencode/agents/lead.md", NAV_LEAD),
        (".opencode/agents/scouting.md", NAV_SCOUT),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, setup);
    // The workspace is clean.
    let scan = s.take_publishes();
    assert!(scan.is_empty(), "{scan:#?}");
    Nav {
        enc: s.enc,
        s,
        cfg: uri_of(&root.join("opencode.json")),
        rev: uri_of(&root.join(".opencode/agents/rev.md")),
        lead: uri_of(&root.join(".opencode/agents/lead.md")),
        scout: uri_of(&root.join(".opencode/agents/scouting.md")),
        _ws: ws,
    }
}

/// A text edit replacing `needle` inside the first `context` of `text`.
fn text_edit(text: &str, context: &str, needle: &str, new: &str, enc: Enc) -> Value {
    let (s, e) = within(text, context, needle);
    json!({ "range": range(text, s, e, enc), "newText": new })
}

#[test]
fn definition_and_references_are_exact() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let Nav {
            mut s, cfg, rev, lead, ..
        } = nav(Setup::for_enc(enc));
        // The Markdown agent named by its path is defined by its file: the opening `---`.
        let rev_def = json!({ "uri": rev, "range": range(NAV_REV, 0, 3, enc) });
        let refs = [
            loc(&cfg, NAV_CONFIG, "\"default_agent\": \"rev\"", "rev", enc),
            loc(&cfg, NAV_CONFIG, "\"agent\": \"rev\"", "rev", enc),
            loc(&cfg, NAV_CONFIG, "\"task\": { \"rev\"", "rev", enc),
            loc(&lead, NAV_LEAD, "@rev", "rev", enc),
        ];
        // From each reference, and from the definition.
        let mut from = vec![at(&rev, NAV_REV, "---", "---", enc)];
        for (uri, text, context) in [
            (&cfg, NAV_CONFIG, "\"default_agent\": \"rev\""),
            (&cfg, NAV_CONFIG, "\"agent\": \"rev\""),
            (&cfg, NAV_CONFIG, "\"task\": { \"rev\""),
            (&lead, NAV_LEAD, "@rev"),
        ] {
            from.push(at(uri, text, context, "rev", enc));
        }
        for params in from {
            let defs = s.request("textDocument/definition", params.clone()).unwrap();
            assert_eq!(defs, json!([rev_def]), "definition from {params}");
            let mut p = params.clone();
            p["context"] = json!({ "includeDeclaration": false });
            let got = s.request("textDocument/references", p.clone()).unwrap();
            assert_eq!(got, json!(refs), "references from {params}");
            p["context"] = json!({ "includeDeclaration": true });
            let got = s.request("textDocument/references", p).unwrap();
            let mut all = vec![rev_def.clone()];
            all.extend(refs.iter().cloned());
            assert_eq!(got, json!(all), "references with the declaration from {params}");
        }
        // A config agent is defined by its key; a frontmatter `name` by its value.
        let helper = at(&lead, NAV_LEAD, "@helper", "helper", enc);
        assert_eq!(
            s.request("textDocument/definition", helper).unwrap(),
            json!([loc(&cfg, NAV_CONFIG, "\"helper\"", "helper", enc)])
        );
        let scout = at(&cfg, NAV_CONFIG, "\"scout\"", "scout", enc);
        let scout_def = loc(&s_uri(&rev, "scouting.md"), NAV_SCOUT, "name: scout", "scout", enc);
        assert_eq!(
            s.request("textDocument/definition", scout.clone()).unwrap(),
            json!([scout_def])
        );
        let mut p = scout;
        p["context"] = json!({ "includeDeclaration": true });
        assert_eq!(
            s.request("textDocument/references", p).unwrap(),
            json!([
                scout_def,
                loc(&cfg, NAV_CONFIG, "\"scout\"", "scout", enc),
                loc(&lead, NAV_LEAD, "@scout", "scout", enc),
            ])
        );
        // An unknown name (`@nobody`) and a position on no name: nothing.
        let nobody = at(&lead, NAV_LEAD, "@nobody", "nobody", enc);
        assert_eq!(s.request("textDocument/definition", nobody.clone()), Ok(Value::Null));
        let mut p = nobody;
        p["context"] = json!({ "includeDeclaration": true });
        assert_eq!(s.request("textDocument/references", p), Ok(Value::Null));
        s.finish();
    }
}

/// The URI of another file in the folder of `uri`.
fn s_uri(uri: &str, file: &str) -> String {
    format!("{}/{file}", &uri[..uri.rfind('/').unwrap()])
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
    let rev = uri_of(&root.join(".opencode/agents/rev.md"));
    assert_eq!(r, json!([{ "uri": rev, "range": range(REV, 0, 3, enc) }]));
    // References, with and without the declaration.
    let refs = |s: &mut Server, decl: bool| {
        s.request(
            "textDocument/references",
            json!({"textDocument": {"uri": cfg}, "position": position(CONFIG, at + 2, enc), "context": {"includeDeclaration": decl}}),
        )
        .unwrap()
    };
    let reference = json!({ "uri": cfg, "range": range(CONFIG, at + 1, at + 4, enc) });
    assert_eq!(refs(&mut s, false), json!([reference]));
    assert_eq!(
        refs(&mut s, true),
        json!([{ "uri": rev, "range": range(REV, 0, 3, enc) }, reference])
    );
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

/// `newName` for the rename at `params`.
fn rename_params(params: &Value, new_name: &str) -> Value {
    let mut p = params.clone();
    p["newName"] = json!(new_name);
    p
}

#[test]
fn rename_an_agent_named_by_its_file() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let Nav {
            mut s, cfg, rev, lead, ..
        } = nav(Setup::for_enc(enc));
        // An open document with unsaved changes: its edit carries its version.
        let (mut lead_doc, _) = Doc::open(&mut s, &lead, "markdown", NAV_LEAD);
        lead_doc.replace(&mut s, "then ask", "then ask  ");
        let lead_text = lead_doc.text.clone();
        let refs = [
            (&cfg, NAV_CONFIG, "\"default_agent\": \"rev\""),
            (&cfg, NAV_CONFIG, "\"agent\": \"rev\""),
            (&cfg, NAV_CONFIG, "\"task\": { \"rev\""),
            (&lead, lead_text.as_str(), "@rev"),
        ];
        let expected = json!({ "documentChanges": [
            { "textDocument": { "uri": cfg, "version": null }, "edits": [
                text_edit(NAV_CONFIG, "\"default_agent\": \"rev\"", "rev", "reviewer", enc),
                text_edit(NAV_CONFIG, "\"agent\": \"rev\"", "rev", "reviewer", enc),
                text_edit(NAV_CONFIG, "\"task\": { \"rev\"", "rev", "reviewer", enc),
            ] },
            { "textDocument": { "uri": lead, "version": lead_doc.version }, "edits": [
                text_edit(&lead_text, "@rev", "rev", "reviewer", enc),
            ] },
            { "kind": "rename", "oldUri": rev, "newUri": s_uri(&rev, "reviewer.md") },
        ] });
        // From every reference: the same edit. prepareRename gives the name's exact range.
        for (uri, text, context) in refs {
            let params = at(uri, text, context, "rev", enc);
            let (a, b) = within(text, context, "rev");
            assert_eq!(
                s.request("textDocument/prepareRename", params.clone()).unwrap(),
                range(text, a, b, enc),
                "{context}"
            );
            let r = s
                .request("textDocument/rename", rename_params(&params, "reviewer"))
                .unwrap();
            assert_eq!(r, expected, "{context}");
        }
        // From the definition (the `---` that stands for the name): nothing to prepare there,
        // but a rename from it is the same rename.
        let params = at(&rev, NAV_REV, "---", "---", enc);
        assert_eq!(s.request("textDocument/prepareRename", params.clone()), Ok(Value::Null));
        let r = s
            .request("textDocument/rename", rename_params(&params, "reviewer"))
            .unwrap();
        assert_eq!(r, expected);
        // Refused, with the reason: a name that is taken, a name that cannot be one, a
        // built-in agent.
        let params = at(&cfg, NAV_CONFIG, "\"default_agent\": \"rev\"", "rev", enc);
        for (new_name, why) in [
            ("plan", "an agent named \"plan\" already exists"),
            ("helper", "an agent named \"helper\" already exists"),
            ("two words", "\"two words\" is not a usable agent name"),
            ("", "\"\" is not a usable agent name"),
        ] {
            let e = s
                .request("textDocument/rename", rename_params(&params, new_name))
                .unwrap_err();
            assert_eq!(e, json!({ "code": -32602, "message": why }));
        }
        let text = "{\"default_agent\": \"build\"}";
        s.open(&cfg, "json", 1, text);
        s.expect_version(&cfg, 1);
        let params = at(&cfg, text, "build", "build", enc);
        let why =
            json!({ "code": -32602, "message": "\"build\" is a built-in agent of opencode; it cannot be renamed" });
        assert_eq!(
            s.request("textDocument/prepareRename", params.clone()),
            Err(why.clone())
        );
        assert_eq!(s.request("textDocument/rename", rename_params(&params, "b")), Err(why));
        s.take_publishes();
        s.finish();
    }
}

/// The rename of `scout` (named by its frontmatter) to `finder`: three text edits, no file
/// operation.
fn scout_to_finder(cfg: &str, lead: &str, scout: &str, enc: Enc) -> Value {
    json!({ "documentChanges": [
        { "textDocument": { "uri": cfg, "version": null }, "edits": [
            text_edit(NAV_CONFIG, "\"scout\"", "scout", "finder", enc),
        ] },
        { "textDocument": { "uri": lead, "version": null }, "edits": [
            text_edit(NAV_LEAD, "@scout", "scout", "finder", enc),
        ] },
        { "textDocument": { "uri": scout, "version": null }, "edits": [
            text_edit(NAV_SCOUT, "name: scout", "scout", "finder", enc),
        ] },
    ] })
}

/// A frontmatter `name` is what the rename edits: the value, never the file.
#[test]
fn rename_through_a_frontmatter_name() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let Nav {
            mut s,
            cfg,
            lead,
            scout,
            ..
        } = nav(Setup::for_enc(enc));
        let expected = scout_to_finder(&cfg, &lead, &scout, enc);
        for (uri, text, context) in [
            (&scout, NAV_SCOUT, "name: scout"),
            (&cfg, NAV_CONFIG, "\"scout\""),
            (&lead, NAV_LEAD, "@scout"),
        ] {
            let params = at(uri, text, context, "scout", enc);
            let (a, b) = within(text, context, "scout");
            assert_eq!(
                s.request("textDocument/prepareRename", params.clone()).unwrap(),
                range(text, a, b, enc)
            );
            let r = s
                .request("textDocument/rename", rename_params(&params, "finder"))
                .unwrap();
            assert_eq!(r, expected, "{context}");
        }
        s.finish();
    }
}

/// A client that cannot rename files (no `resourceOperations` with `rename`) cannot rename an
/// agent named by its Markdown file: the rename is refused with the reason (rather than
/// renaming the references and leaving the file, which would break every one of them).
/// Agents named by a JSON key or a frontmatter `name` need no file operation and are renamed.
#[test]
fn rename_for_clients_that_cannot_rename_files() {
    for workspace_edit in [
        None,
        Some(json!({ "documentChanges": true })),
        Some(json!({ "documentChanges": true, "resourceOperations": ["create", "delete"] })),
    ] {
        let Nav {
            mut s,
            cfg,
            lead,
            scout,
            enc,
            ..
        } = nav(Setup {
            workspace_edit: workspace_edit.clone(),
            ..Setup::default()
        });
        let params = at(&cfg, NAV_CONFIG, "\"default_agent\": \"rev\"", "rev", enc);
        // prepareRename does not look at the client: it offers the name...
        let (a, b) = within(NAV_CONFIG, "\"default_agent\": \"rev\"", "rev");
        assert_eq!(
            s.request("textDocument/prepareRename", params.clone()).unwrap(),
            range(NAV_CONFIG, a, b, enc)
        );
        // ...and the rename itself is refused, with nothing edited.
        let e = s
            .request("textDocument/rename", rename_params(&params, "reviewer"))
            .unwrap_err();
        assert_eq!(
            e,
            json!({ "code": -32602, "message": "renaming this agent means renaming its Markdown file, which this editor does not support in a rename" }),
            "{workspace_edit:?}"
        );
        if workspace_edit.is_none() {
            // A client without documentChanges is tested below (it gets them anyway).
            s.finish();
            continue;
        }
        let params = at(&cfg, NAV_CONFIG, "\"scout\"", "scout", enc);
        let r = s
            .request("textDocument/rename", rename_params(&params, "finder"))
            .unwrap();
        assert_eq!(r, scout_to_finder(&cfg, &lead, &scout, enc), "{workspace_edit:?}");
        s.finish();
    }
}

/// A client that announces no `workspace.workspaceEdit.documentChanges` can only apply
/// `changes` (plain text edits by URI), as the protocol says; renaming an agent that needs no
/// file operation should answer in that form.
#[test]
fn rename_for_clients_without_document_changes_uses_changes() {
    let Nav {
        mut s, cfg, lead, enc, ..
    } = nav(Setup {
        workspace_edit: None,
        ..Setup::default()
    });
    let params = at(&cfg, NAV_CONFIG, "\"helper\"", "helper", enc);
    let r = s
        .request("textDocument/rename", rename_params(&params, "aide"))
        .unwrap();
    assert_eq!(
        r,
        json!({ "changes": {
            cfg.clone(): [text_edit(NAV_CONFIG, "\"helper\"", "helper", "aide", enc)],
            lead.clone(): [text_edit(NAV_LEAD, "@helper", "helper", "aide", enc)],
        } })
    );
    s.finish();
}

/// Models are completed from `provider` sections and from every model already used in the
/// workspace: top-level `model` and `small_model`, config agents, Markdown agents (README:
/// "models from `provider` sections and models already used").
#[test]
fn completion_of_models_used_elsewhere_in_the_workspace() {
    let config = r#"{
  "model": "openai/gpt-5",
  "small_model": "openai/gpt-5-mini",
  "provider": { "acme": { "models": { "fast-1": {} } } },
  "agent": { "helper": { "mode": "subagent", "model": "google/gemini-2.5-pro" } }
}
"#;
    let ws = workspace(&[
        ("opencode.json", config),
        (
            ".opencode/agents/rev.md",
            "---\ndescription: Reviews\nmode: subagent\nmodel: anthropic/claude-sonnet-4\n---\nYou review.\n",
        ),
        // Not a `provider/model` id: never offered.
        (
            ".opencode/agents/odd.md",
            "---\ndescription: Odd\nmode: subagent\nmodel: justaname\n---\nOdd.\n",
        ),
    ]);
    for enc in [Enc::Utf8, Enc::Utf16] {
        let root = root_of(&ws);
        let mut s = Server::start(&root, Setup::for_enc(enc));
        s.take_publishes();
        let uri = uri_of(&root.join(".opencode/agents/new.md"));
        let text = "---\ndescription: 新 🚀\nmodel: ";
        s.open(&uri, "markdown", 1, text);
        s.expect_version(&uri, 1);
        let r = s
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": uri}, "position": position(text, text.len(), enc)}),
            )
            .unwrap();
        let items: Vec<(String, Value)> = r
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["label"].as_str().unwrap().to_string(), i["textEdit"].clone()))
            .collect();
        let end = text.len();
        // In alphabetical order, each replacing nothing at the cursor.
        let expected: Vec<(String, Value)> = [
            "acme/fast-1",
            "anthropic/claude-sonnet-4",
            "google/gemini-2.5-pro",
            "openai/gpt-5",
            "openai/gpt-5-mini",
        ]
        .iter()
        .map(|m| {
            (
                m.to_string(),
                json!({ "range": range(text, end, end, enc), "newText": m }),
            )
        })
        .collect();
        assert_eq!(items, expected);
        s.take_publishes();
        s.finish();
    }
}

/// Every section of `opencode.json`, over the protocol: the dropped key and the refused value on
/// their exact ranges (after CJK and emoji), the did-you-mean fix, completion of a section's
/// fields and hover on them, in both encodings.
#[test]
fn every_config_section_over_the_protocol() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, mut s) = start(enc);
        let root = root_of(&ws);
        let uri = uri_of(&root.join("opencode.json"));
        let text = "{\n  \"username\": \"审查 🚀\", \"mcp\": { \"gh\": { \"type\": \"local\", \"command\": \"npx gh\", \"env\": {} } }\n}\n";
        s.open(&uri, "json", 1, text);
        let publish = s.expect_version(&uri, 1);
        let diags = publish["diagnostics"].as_array().unwrap().clone();
        let got: Vec<(String, Value)> = diags
            .iter()
            .map(|d| (d["code"].as_str().unwrap().to_string(), d["range"].clone()))
            .collect();
        assert_eq!(
            got,
            [
                ("invalid-type".to_string(), range_of(text, "\"npx gh\"", enc)),
                ("unknown-key".to_string(), range_of(text, "\"env\"", enc)),
            ]
        );
        // The fixes: split the command, rename `env` to `environment`.
        let r = s
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": range(text, 0, 0, enc),
                       "context": {"diagnostics": diags, "only": ["quickfix"]}}),
            )
            .unwrap();
        let titles: Vec<&str> = r
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["title"].as_str().unwrap())
            .filter(|t| !t.starts_with("Ignore"))
            .collect();
        assert_eq!(
            titles,
            [
                "Split into an array: `[\"npx\", \"gh\"]`",
                "Replace with `\"environment\"`"
            ]
        );
        // Completion in the server entry, and hover on a field.
        let half = "{\n  \"username\": \"审查 🚀\", \"mcp\": { \"gh\": { \"type\": \"remote\", \"";
        s.change_full(&uri, 2, half);
        s.expect_version(&uri, 2);
        let labels = completion_labels(&mut s, &uri, position(half, half.len(), enc));
        assert!(
            labels.contains(&"url".to_string()) && labels.contains(&"headers".to_string()),
            "{labels:?}"
        );
        s.change_full(&uri, 3, text);
        s.expect_version(&uri, 3);
        let (at, _) = find(text, "\"command\"");
        let md = hover_text(&mut s, &uri, position(text, at + 2, enc));
        assert!(md.starts_with("**`command`** (a local MCP server)"), "{md}");
        s.take_publishes();
        s.finish();
    }
}

/// opencode's `tui.json` over the protocol: a file opened in the project is checked (a theme
/// named in CJK and emoji that no folder has, the refused value after it, the unknown keybind with its did-you-mean fix, on their
/// exact ranges), completion of keybind names with what each does, hover on a keybind and on a
/// setting, in both encodings; a `.opencode/tui.jsonc` created on disk is checked when the
/// client reports it.
#[test]
fn tui_json_over_the_protocol() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, mut s) = start(enc);
        let root = root_of(&ws);
        let uri = uri_of(&root.join("tui.json"));
        let text = "{\n  \"theme\": \"审查 🚀\", \"diff_style\": \"stackd\",\n  \"keybinds\": { \"app_exitt\": \"ctrl+q\" }\n}\n";
        s.open(&uri, "json", 1, text);
        let publish = s.expect_version(&uri, 1);
        let diags = publish["diagnostics"].as_array().unwrap().clone();
        let got: Vec<(String, String, Value)> = diags
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_string(),
                    d["severity"].to_string(),
                    d["range"].clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                // A theme no folder has (warning: opencode uses its default one).
                (
                    "invalid-value".to_string(),
                    "2".to_string(),
                    range_of(text, "\"审查 🚀\"", enc)
                ),
                (
                    "invalid-value".to_string(),
                    "1".to_string(),
                    range_of(text, "\"stackd\"", enc)
                ),
                (
                    "unknown-key".to_string(),
                    "2".to_string(),
                    range_of(text, "\"app_exitt\"", enc)
                ),
            ]
        );
        assert!(
            diags[1]["message"]
                .as_str()
                .unwrap()
                .contains("; opencode skips this whole file, so none of its settings apply"),
            "{diags:#?}"
        );
        let r = s
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": range(text, 0, 0, enc),
                       "context": {"diagnostics": diags, "only": ["quickfix"]}}),
            )
            .unwrap();
        let titles: Vec<&str> = r
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["title"].as_str().unwrap())
            .filter(|t| !t.starts_with("Ignore"))
            .collect();
        assert_eq!(titles, ["Replace with `\"stacked\"`", "Replace with `\"app_exit\"`"]);
        // Completion of the keybinds opencode knows, each with what it does.
        let half = "{\n  \"theme\": \"审查 🚀\",\n  \"keybinds\": { \"session_n";
        s.change_full(&uri, 2, half);
        s.expect_version(&uri, 2);
        let r = s
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": uri}, "position": position(half, half.len(), enc)}),
            )
            .unwrap();
        let items = r.as_array().unwrap();
        assert_eq!(items.len(), 184, "every keybind");
        let new = items.iter().find(|i| i["label"] == "session_new").unwrap();
        assert_eq!(new["detail"], "keybind");
        assert_eq!(new["documentation"]["value"], "Create a new session.");
        // Hover: the keybind's action, a setting's values.
        s.change_full(&uri, 3, text);
        s.expect_version(&uri, 3);
        let (at, _) = find(text, "\"diff_style\"");
        let md = hover_text(&mut s, &uri, position(text, at + 2, enc));
        assert!(md.starts_with("**`diff_style`** (the tui.json settings)"), "{md}");
        assert!(md.contains("Value: \"auto\" or \"stacked\"."), "{md}");
        // Created on disk, reported by the client's watcher.
        let created = root.join(".opencode/tui.jsonc");
        std::fs::write(&created, "{\n  // on disk\n  \"mouse\": \"no\"\n}\n").unwrap();
        s.notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": uri_of(&created), "type": 1 }] }),
        );
        let p = s.expect_publish(&uri_of(&created));
        let got: Vec<(&str, &Value)> = p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["code"].as_str().unwrap(), &d["range"]))
            .collect();
        let on_disk = "{\n  // on disk\n  \"mouse\": \"no\"\n}\n";
        assert_eq!(got, [("invalid-type", &range_of(on_disk, "\"no\"", enc))]);
        s.take_publishes();
        s.finish();
    }
}
