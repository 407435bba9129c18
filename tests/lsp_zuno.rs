//! End-to-end tests of the Zuno dialect over real LSP pipes (the client of `lsp_support`):
//! diagnostics, hover, completion, code actions, navigation, rename, symbols and the file
//! watcher on `zuno.json`, a nested package's `zuno.json`, a Markdown agent in `.zuno/agents/`
//! and a skill in `.zuno/skills/`, each in both position encodings where columns matter. CJK and
//! emoji come before the positions that matter, on the same line, so that UTF-8 and UTF-16
//! columns differ there. An opencode agent shares a name with a Zuno agent: the two dialects are
//! separate namespaces and are never linked.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

/// The problems: `theme` (unknown top-level key), `plan` (a primary-only delegate), `maxSteps`
/// (rejected, safe rename), `temprature` (swept into `options`, did you mean), rules under
/// `write` (never match), each after CJK and emoji on its line.
const ZUNO: &str = r#"{
  "$schema": "https://zuno.dev/config.json",
  "default_agent": "lead",
  "instructions": ["説明 🚀.md"], "theme": "dark",
  "permission": { "mode": "standard", "rules": { "read": "allow" } },
  "agents": {
    "lead": {
      "mode": "primary",
      "description": "Leads 先導 🚀",
      "delegates": ["reviewer", "writer", "fixer"],
      "permission": { "mode": "strict", "rules": { "*": "ask", "shell": { "*": "ask", "git *": "allow" } } }
    },
    "reviewer": {
      "mode": "subagent",
      "description": "審査 🚀", "delegates": ["plan"],
      "prompt": "見直し 🚀", "maxSteps": 5, "temprature": 0.2,
      "requiredSkills": ["codemap"],
      "permission": { "rules": { "shell": { "echo 🚀*": "allow" }, "write": "deny" } }
    }
  }
}
"#;
/// A Markdown agent named by its path (`writer`).
const WRITER: &str =
    "---\ndescription: Writes docs 文書 🚀\nmode: subagent\ndelegates: [fixer, reviewer]\n---\nWrite the docs.\n";
/// A nested package: its view is the root `zuno.json`, then this file (which sets the model of
/// `reviewer`); `ghost-skill` is no skill of the project.
const WEB: &str = r#"{
  "default_agent": "lead",
  "agents": {
    "reviewer": { "model": "anthropic/claude-sonnet-4" },
    "web": { "description": "Web ウェブ 🌐", "delegates": ["reviewer"], "requiredSkills": ["ghost-skill"] }
  }
}
"#;
const SKILL: &str = "---\nname: codemap\ndescription: Maps the code.\n---\nMap it.\n";
/// opencode: an agent named `reviewer` too (by its path), named by a `task` pattern.
const OC_REVIEWER: &str = "---\ndescription: opencode reviewer\nmode: subagent\n---\nReview.\n";
const OC_CONFIG: &str = r#"{
  "agent": { "boss": { "mode": "primary", "description": "Boss", "prompt": "Boss.", "permission": { "task": { "reviewer": "allow" } } } }
}
"#;

const FILES: &[(&str, &str)] = &[
    ("zuno.json", ZUNO),
    (".zuno/agents/writer.md", WRITER),
    (".zuno/skills/codemap/SKILL.md", SKILL),
    ("packages/web/zuno.json", WEB),
    (".opencode/agents/reviewer.md", OC_REVIEWER),
    ("opencode.json", OC_CONFIG),
];

/// The workspace, a server on it, and the publishes of its scan.
fn start(enc: Enc) -> (Ws, Vec<Value>) {
    Ws::start(FILES, enc)
}

/// One line of [`summary`] for `needle` inside `context` of `text`.
fn summary_line(text: &str, context: &str, needle: &str, sev_code: &str, enc: Enc) -> String {
    let (s, e) = within(text, context, needle);
    let (l1, c1) = line_col(text, s, enc);
    let (l2, c2) = line_col(text, e, enc);
    format!("{l1}:{c1}-{l2}:{c2} {sev_code}")
}

/// The exact diagnostics of `zuno.json` (`text` is its current text, `ZUNO` or an edit of it).
fn zuno_diagnostics(text: &str, enc: Enc) -> Vec<Value> {
    let max_steps = range_in(text, "見直し 🚀\", ", "\"maxSteps\"", enc);
    let temprature = range_in(text, "5, ", "\"temprature\"", enc);
    let mut rejected = diag(
        max_steps.clone(),
        ERROR,
        "deprecated-field",
        "Zuno rejects `maxSteps` and refuses the configuration: use `steps`",
        fix_data("refuses-to-start", "Rename to `steps`", max_steps, "\"steps\"", true),
    );
    rejected["tags"] = json!([2]); // deprecated
    let mut write = diag(
        range_in(text, "🚀*\": \"allow\" }, ", "\"write\"", enc),
        ERROR,
        "unknown-permission",
        "Zuno rejects rules under `write`: they can never match. `edit` governs it",
        json!({ "effect": "refuses-to-start" }),
    );
    write["tags"] = json!([1]); // unnecessary
    vec![
        diag(
            range_in(text, "🚀.md\"], ", "\"theme\"", enc),
            ERROR,
            "unknown-key",
            "Zuno refuses unknown top-level keys, so it will not start with `theme`.",
            json!({ "effect": "refuses-to-start" }),
        ),
        diag(
            range_in(text, "審査 🚀\", \"delegates\": [", "\"plan\"", enc),
            WARNING,
            "invalid-value",
            "`plan` is a primary-only agent, which cannot be delegated to; give it `mode: all` or `subagent`",
            json!({ "effect": "fails-when-used" }),
        ),
        rejected,
        diag(
            temprature.clone(),
            WARNING,
            "unknown-key",
            "Zuno does not know `temprature`: it is swept into `options` and sent to the provider. Did you mean `temperature`?",
            fix_data(
                "value-ignored",
                "Replace with `\"temperature\"`",
                temprature,
                "\"temperature\"",
                false,
            ),
        ),
        write,
    ]
}

fn ghost_skill(enc: Enc) -> Value {
    diag(
        range_in(WEB, "🌐", "\"ghost-skill\"", enc),
        WARNING,
        "invalid-value",
        "no skill `ghost-skill` is found for this project: the agent fails to start (Zuno resolves each required skill to exactly one).",
        json!({ "effect": "fails-when-used" }),
    )
}

// ---------------------------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------------------------

/// The scan publishes exactly these diagnostics: ranges (quotes included), severities, codes,
/// messages, effects, tags and fixes. The Markdown agent, the skill and the opencode files are
/// clean and get no publish; `codemap` resolves to the skill of `.zuno/skills/`.
#[test]
fn scan_publishes_exact_zuno_diagnostics() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, scan) = start(enc);
        let got = by_uri(&scan);
        let expected: std::collections::BTreeMap<String, Value> = [
            (ws.uri("zuno.json"), json!(zuno_diagnostics(ZUNO, enc))),
            (ws.uri("packages/web/zuno.json"), json!([ghost_skill(enc)])),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, expected, "{enc:?}");
        ws.s.finish();
    }
}

/// Cross-file, as you type: `writer` becomes primary-only in its Markdown file, and the
/// `delegates` entry of `lead` that names it (after CJK and emoji on its line) is reported until
/// it is a subagent again. The edit in `zuno.json` is incremental, after CJK and emoji.
#[test]
fn diagnostics_follow_edits_across_files() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let zuno = ws.uri("zuno.json");
        let writer = ws.uri(".zuno/agents/writer.md");
        let (mut zuno_doc, p) = Doc::open(&mut ws.s, &zuno, "json", ZUNO);
        assert_eq!(p["diagnostics"], json!(zuno_diagnostics(ZUNO, enc)));
        // `temprature` → `temperature` by an incremental edit whose range follows CJK and emoji.
        let (s, e) = within(ZUNO, "5, ", "temprature");
        let p = zuno_doc.edit(&mut ws.s, s, e, "temperature");
        let mut expected = zuno_diagnostics(ZUNO, enc);
        expected.remove(3);
        // The ranges after the edit on the same line: none; later lines shift by nothing.
        assert_eq!(p["diagnostics"], json!(expected));
        ws.s.assert_quiet();
        // `writer` becomes primary-only: `lead` cannot delegate to it any more.
        let (mut writer_doc, p) = Doc::open(&mut ws.s, &writer, "markdown", WRITER);
        assert_eq!(p["diagnostics"], json!([]));
        let p = writer_doc.replace(&mut ws.s, "mode: subagent", "mode: primary");
        assert_eq!(p["diagnostics"], json!([]));
        let now = ws.s.expect_version(&zuno, zuno_doc.version);
        let text = &zuno_doc.text;
        let mut with_writer = expected.clone();
        with_writer.insert(
            1,
            diag(
                range_in(text, "\"reviewer\", ", "\"writer\"", enc),
                WARNING,
                "invalid-value",
                "`writer` is a primary-only agent, which cannot be delegated to; give it `mode: all` or `subagent`",
                json!({ "effect": "fails-when-used" }),
            ),
        );
        assert_eq!(now["diagnostics"], json!(with_writer));
        ws.s.assert_quiet();
        // Back to a subagent: the warning goes away.
        writer_doc.replace(&mut ws.s, "mode: primary", "mode: subagent");
        let now = ws.s.expect_version(&zuno, zuno_doc.version);
        assert_eq!(now["diagnostics"], json!(expected));
        ws.s.finish();
    }
}

/// The server watches `zuno.json(c)`, `SKILL.md` and the files of skill folders; a skill created on disk satisfies a
/// `requiredSkills` entry, its folder deleted brings the warning back, and a new `zuno.json`
/// in another package is checked (and cleared when deleted). Only the changed files publish.
#[test]
fn watched_skills_and_configs() {
    let (mut ws, _) = start(Enc::Utf16);
    let reg = ws.s.wait_server_request("client/registerCapability", 1);
    assert_eq!(
        reg[0]["params"],
        json!({ "registrations": [{
            "id": "agent-lsp-watch",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": { "watchers": [
                { "globPattern": "**/agent-lsp.toml" },
                { "globPattern": "**/.agent-lsp.toml" },
                { "globPattern": "**/*.md" },
                { "globPattern": "**/*.txt" },
                { "globPattern": "**/SKILL.md" },
                { "globPattern": "**/skills/**" },
                { "globPattern": "**/skill/**" },
                // Each runtime's own, in registration order.
                { "globPattern": "**/opencode.json" },
                { "globPattern": "**/opencode.jsonc" },
                { "globPattern": "**/tui.json" },
                { "globPattern": "**/tui.jsonc" },
                { "globPattern": "**/.claude-plugin/plugin.json" },
                { "globPattern": "**/.claude-plugin/marketplace.json" },
                { "globPattern": "**/.claude/settings.json" },
                { "globPattern": "**/.claude/settings.local.json" },
                { "globPattern": "**/.mcp.json" },
                { "globPattern": "**/hooks/hooks.json" },
                { "globPattern": "**/zuno.json" },
                { "globPattern": "**/zuno.jsonc" },
                { "globPattern": "**/.vscode/mcp.json" },
                { "globPattern": "**/.codex/config.toml" },
                { "globPattern": "**/.codex/agents/**/*.toml" },
                { "globPattern": "**/.gemini/settings.json" },
                { "globPattern": "**/.gemini/commands/**/*.toml" },
                { "globPattern": "**/gemini-extension.json" }
            ] },
        }] })
    );
    let web = ws.uri("packages/web/zuno.json");
    let changed = |uri: String, typ: i64| json!({ "changes": [{ "uri": uri, "type": typ }] });
    // The skill appears (created) in the root's `.zuno/skills/`, which the package sees.
    let skill = ".zuno/skills/ghost-skill/SKILL.md";
    write_files(
        &ws.root,
        &[(skill, "---\nname: ghost-skill\ndescription: Haunts.\n---\nBoo.\n")],
    );
    ws.s.notify("workspace/didChangeWatchedFiles", changed(ws.uri(skill), 1));
    assert_eq!(ws.s.take_publishes(), [json!({ "uri": web, "diagnostics": [] })]);
    // Renamed in its frontmatter (changed): missing again.
    write_files(
        &ws.root,
        &[(skill, "---\nname: ghost-skills\ndescription: Haunts.\n---\nBoo.\n")],
    );
    ws.s.notify("workspace/didChangeWatchedFiles", changed(ws.uri(skill), 2));
    let mut p = ws.s.take_publishes();
    // The skill itself now disagrees with its folder.
    assert_eq!(p.len(), 2, "{p:#?}");
    let own = p.remove(1);
    assert_eq!(own["uri"], json!(ws.uri(skill)));
    assert_eq!(own["diagnostics"][0]["code"], "name-mismatch");
    assert_eq!(p[0]["uri"], web);
    assert_eq!(
        p[0]["diagnostics"],
        json!([diag(
            range_in(WEB, "🌐", "\"ghost-skill\"", Enc::Utf16),
            WARNING,
            "invalid-value",
            "no skill `ghost-skill` is found for this project: the agent fails to start (Zuno resolves each required skill to exactly one). Did you mean `ghost-skills`?",
            json!({ "effect": "fails-when-used" }),
        )])
    );
    // Its folder deleted: only the message changes back.
    std::fs::remove_dir_all(ws.root.join(".zuno/skills/ghost-skill")).unwrap();
    ws.s.notify(
        "workspace/didChangeWatchedFiles",
        changed(ws.uri(".zuno/skills/ghost-skill"), 3),
    );
    let mut p = ws.s.take_publishes();
    p.sort_by_key(|x| x["uri"].as_str().map(str::to_string));
    assert_eq!(
        p,
        [
            json!({ "uri": ws.uri(skill), "diagnostics": [] }),
            json!({ "uri": web, "diagnostics": [ghost_skill(Enc::Utf16)] }),
        ]
    );
    // A new package config: its own problems, against the root's agents.
    let api_text = "{ \"default_agent\": \"writer\", \"agents\": { \"api\": { \"delegates\": [\"lead\"] } } }\n";
    write_files(&ws.root, &[("packages/api/zuno.json", api_text)]);
    let api = ws.uri("packages/api/zuno.json");
    ws.s.notify("workspace/didChangeWatchedFiles", changed(api.clone(), 1));
    assert_eq!(
        ws.s.take_publishes(),
        [json!({ "uri": api, "diagnostics": [
            diag(
                range_in(api_text, "\"writer\"", "\"writer\"", Enc::Utf16),
                WARNING,
                "invalid-default-agent",
                "default agent `writer` is a subagent; `default_agent` must be a primary agent",
                json!({ "effect": "fails-when-used" }),
            ),
            diag(
                range_in(api_text, "\"lead\"", "\"lead\"", Enc::Utf16),
                WARNING,
                "invalid-value",
                "`lead` is a primary-only agent, which cannot be delegated to; give it `mode: all` or `subagent`",
                json!({ "effect": "fails-when-used" }),
            ),
        ] })]
    );
    std::fs::remove_file(ws.root.join("packages/api/zuno.json")).unwrap();
    ws.s.notify("workspace/didChangeWatchedFiles", changed(api.clone(), 3));
    assert_eq!(ws.s.take_publishes(), [json!({ "uri": api, "diagnostics": [] })]);
    ws.s.finish();
}

// ---------------------------------------------------------------------------------------------
// Hover
// ---------------------------------------------------------------------------------------------

/// The hover at `params`: its Markdown and range (`Null` when there is none).
fn hover(s: &mut Server, params: Value) -> Value {
    let r = s.request("textDocument/hover", params).unwrap();
    if r.is_null() {
        return r;
    }
    assert_eq!(r["contents"]["kind"], "markdown", "{r}");
    json!({ "markdown": r["contents"]["value"], "range": r["range"] })
}

const LEAD_CARD: &str = "### `lead`: Zuno primary agent\n\nLeads 先導 🚀\n\n**Permission** mode `strict` (zuno.json:7); rules in order, the last match wins:\n\n- `*` `*` → ask\n- `shell` `*` → ask\n- `shell` `git *` → allow\n\n**Settings**\n\n- **delegates**: `reviewer`, `writer`, `fixer` (zuno.json:7)\n\nDefined in: zuno.json:7.\n";
const REVIEWER_CARD: &str = "### `reviewer`: Zuno subagent\n\n審査 🚀\n\n**Permission** mode `standard` (zuno.json:13); rules in order, the last match wins:\n\n- `shell` `echo 🚀*` → allow\n- `write` `*` → deny\n\n**Settings**\n\n- **delegates**: `plan` (zuno.json:13)\n- **requiredSkills**: `codemap` (zuno.json:13)\n\nDefined in: zuno.json:13.\n";
/// `reviewer` as the nested package sees it: its model comes from the package's file.
const WEB_REVIEWER_CARD: &str = "### `reviewer`: Zuno subagent\n\n審査 🚀\n\n**Permission** mode `standard` (zuno.json:13); rules in order, the last match wins:\n\n- `shell` `echo 🚀*` → allow\n- `write` `*` → deny\n\n**Settings**\n\n- **model**: `anthropic/claude-sonnet-4` (packages/web/zuno.json:4)\n- **delegates**: `plan` (zuno.json:13)\n- **requiredSkills**: `codemap` (zuno.json:13)\n\nDefined in: zuno.json:13; packages/web/zuno.json:4.\n";

/// On agent names (an `agents` key, a `default_agent` or `delegates` value, a Markdown agent's
/// `---`): the merged agent of the file's view, with the source of each field and the
/// permission mode and rules in evaluation order. On keys: their documentation.
#[test]
fn hover_shows_the_merged_zuno_agent_and_docs() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let zuno = ws.uri("zuno.json");
        let web = ws.uri("packages/web/zuno.json");
        let writer = ws.uri(".zuno/agents/writer.md");
        let s = &mut ws.s;
        let card = |markdown: &str, range: Value| json!({ "markdown": markdown, "range": range });
        // An `agents` key and the `default_agent` value.
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "\"lead\": {", "lead", enc)),
            card(LEAD_CARD, range_in(ZUNO, "\"lead\": {", "\"lead\"", enc))
        );
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "\"default_agent\": ", "lead", enc)),
            card(LEAD_CARD, range_in(ZUNO, "\"default_agent\": ", "\"lead\"", enc))
        );
        // A `delegates` entry, in the root and in the nested package (which merges its model).
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "[\"reviewer\"", "reviewer", enc)),
            card(REVIEWER_CARD, range_in(ZUNO, "[\"reviewer\"", "\"reviewer\"", enc))
        );
        assert_eq!(
            hover(s, at(&web, WEB, "🌐\", \"delegates\": [", "reviewer", enc)),
            card(
                WEB_REVIEWER_CARD,
                range_in(WEB, "🌐\", \"delegates\": [", "\"reviewer\"", enc)
            )
        );
        // A built-in (after CJK and emoji on its line), and one a Markdown agent names.
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "審査 🚀\", \"delegates\": [", "plan", enc)),
            card(
                "### `plan`: Zuno primary agent (built-in)\n\nResearches the repository and produces an implementation-ready plan without changing product files.\n\nDefined in: built-in.\n",
                range_in(ZUNO, "審査 🚀\", \"delegates\": [", "\"plan\"", enc)
            )
        );
        let fixer = "### `fixer`: Zuno subagent (built-in)\n\nCompletes a known local code change with the smallest sufficient patch.\n\nDefined in: built-in.\n";
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "\"fixer\"", "fixer", enc)),
            card(fixer, range_in(ZUNO, "\"fixer\"", "\"fixer\"", enc))
        );
        assert_eq!(
            hover(s, at(&writer, WRITER, "[fixer", "fixer", enc)),
            card(fixer, range_in(WRITER, "[fixer", "fixer", enc))
        );
        // The Markdown agent: on its `---` and as a `delegates` entry of its own list.
        assert_eq!(
            hover(s, at(&writer, WRITER, "---", "---", enc)),
            card(
                "### `writer`: Zuno subagent\n\nWrites docs 文書 🚀\n\n**Permission**: none of its own (Zuno's defaults, mode `standard`)\n\n**Settings**\n\n- **delegates**: `fixer`, `reviewer` (.zuno/agents/writer.md:1)\n\nDefined in: .zuno/agents/writer.md:1.\n",
                range(WRITER, 0, 3, enc)
            )
        );
        assert_eq!(
            hover(s, at(&writer, WRITER, "fixer, reviewer", "reviewer", enc)),
            card(REVIEWER_CARD, range_in(WRITER, "fixer, reviewer", "reviewer", enc))
        );
        // Keys: a top-level key, an agent field (after CJK and emoji), a permission key of an
        // agent and one of the top-level permission block.
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "\"default_agent\"", "default_agent", enc)),
            card(
                "**`default_agent`** (Zuno setting)\n\nAgent to use when none is named. Must be a primary agent.\n",
                range_in(ZUNO, "\"default_agent\"", "\"default_agent\"", enc)
            )
        );
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "審査 🚀\", \"delegates\"", "delegates", enc)),
            card(
                "**`delegates`** (Zuno agent field)\n\nExact allowlist of agents this agent may delegate to (each `subagent` or `all`); replaces the built-in list.\n",
                range_in(ZUNO, "審査 🚀\", \"delegates\"", "\"delegates\"", enc)
            )
        );
        assert_eq!(
            hover(s, at(&writer, WRITER, "mode", "mode", enc)),
            card(
                "**`mode`** (Zuno agent field)\n\n`subagent`, `primary` or `all` (a new agent defaults to `all`). `default_agent` must be primary; a `primary`-only agent cannot be delegated to.\n",
                range_in(WRITER, "mode", "mode", enc)
            )
        );
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "\"shell\": { \"*\"", "shell", enc)),
            card(
                "**`shell`** permission (Zuno)\n\nShell commands (patterns such as `git *`); `bg` follows it.\n",
                range_in(ZUNO, "\"shell\": { \"*\"", "\"shell\"", enc)
            )
        );
        assert_eq!(
            hover(s, at(&zuno, ZUNO, "\"read\"", "read", enc)),
            card(
                "**`read`** permission (Zuno)\n\nReading files (paths).\n",
                range_in(ZUNO, "\"read\"", "\"read\"", enc)
            )
        );
        // Nothing on an unknown key, a rejected one, a rule key that never matches, the
        // top-level permission's `mode` key, or a plain value.
        for (context, needle) in [
            ("\"theme\"", "theme"),
            ("\"maxSteps\"", "maxSteps"),
            ("\"write\"", "write"),
            ("{ \"mode\": \"standard\"", "mode"),
            ("\"strict\"", "strict"),
        ] {
            assert_eq!(hover(s, at(&zuno, ZUNO, context, needle, enc)), Value::Null, "{needle}");
        }
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

/// The completion items at the end of `text` (the open document `uri`).
fn complete_at_end(s: &mut Server, uri: &str, text: &str, enc: Enc) -> Vec<Value> {
    let r = s
        .request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": position(text, text.len(), enc) }),
        )
        .unwrap();
    r.as_array().unwrap_or_else(|| panic!("not a list: {r}")).clone()
}

fn labels(items: &[Value]) -> Vec<&str> {
    items.iter().map(|i| i["label"].as_str().unwrap()).collect()
}

/// An item replacing `range` with `new_text`.
fn item(label: &str, kind: i64, detail: &str, doc: Option<&str>, rank: u8, range: &Value, new_text: &str) -> Value {
    let mut it = json!({
        "label": label,
        "kind": kind,
        "detail": detail,
        "sortText": format!("{rank}{label}"),
        "filterText": new_text.trim_end_matches([' ', ':']),
        "textEdit": { "range": range, "newText": new_text },
    });
    if let Some(d) = doc {
        it["documentation"] = json!({ "kind": "markdown", "value": d });
    }
    it
}

const PROPERTY: i64 = 10;
const CLASS: i64 = 7;
const ENUM_MEMBER: i64 = 20;

/// Set the text of the open document `uri` (version `v`) and wait for its publish.
fn set_text(s: &mut Server, uri: &str, v: i64, text: &str) {
    s.change_full(uri, v, text);
    s.expect_version(uri, v);
}

/// Completion in a new, half-typed `zuno.json` of another package (not on disk), after CJK and
/// emoji on the cursor's line: top-level keys, agent fields, `mode` and `reasoning` values in
/// their declared order, agents for `delegates` (not primary-only) and `default_agent`
/// (primary or all), permission modes and keys, actions, required skills.
#[test]
fn completion_in_a_half_typed_zuno_json() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let uri = ws.uri("packages/api/zuno.json");
        let s = &mut ws.s;
        // Top-level keys, each replacing the opening quote the cursor follows.
        let text = "{\n  \"説明🚀\": 1, \"";
        s.open(&uri, "json", 1, text);
        s.expect_version(&uri, 1);
        let items = complete_at_end(s, &uri, text, enc);
        let quote = range(text, text.len() - 1, text.len(), enc);
        let top = [
            "$schema",
            "agents",
            "attachment",
            "command",
            "compaction",
            "concurrency",
            "continuity",
            "default_agent",
            "disabled_providers",
            "enabled_providers",
            "formatter",
            "goal",
            "instructions",
            "learning",
            "logLevel",
            "lsp",
            "mcp",
            "memory",
            "model",
            "navigation",
            "permission",
            "preset",
            "presets",
            "productAgent",
            "provider",
            "references",
            "runtime",
            "sandbox",
            "server",
            "shell",
            "skills",
            "small_model",
            "snapshot",
            "subagent_depth",
            "subagent_model_selection",
            "tool_output",
            "tools",
            "trust",
            "watcher",
            "web_search",
            "workflows",
        ];
        assert_eq!(labels(&items), top);
        assert_eq!(
            items[7],
            item(
                "default_agent",
                PROPERTY,
                "Zuno setting",
                Some("Agent to use when none is named. Must be a primary agent."),
                0,
                &quote,
                "\"default_agent\": "
            )
        );
        // Agent fields of `agents.api`, without `name` (a frontmatter field) and those set.
        let text = "{\n  \"agents\": {\n    \"api\": {\n      \"mode\": \"primary\", \"説明🚀\": 1, \"";
        set_text(s, &uri, 2, text);
        let items = complete_at_end(s, &uri, text, enc);
        let quote = range(text, text.len() - 1, text.len(), enc);
        assert_eq!(
            labels(&items),
            [
                "color",
                "delegates",
                "description",
                "disable",
                "hidden",
                "model",
                "options",
                "permission",
                "prompt",
                "reasoning",
                "requiredSkills",
                "steps",
                "temperature",
                "tools",
                "top_p",
                "variant",
            ]
        );
        assert_eq!(
            items[11],
            item(
                "steps",
                PROPERTY,
                "Zuno agent field",
                Some("Maximum tool-capable iterations before one text-only finalisation (an integer >= 1)."),
                0,
                &quote,
                "\"steps\": "
            )
        );
        // Enumerations in their declared order, each replacing the opening quote.
        for (v, key, values) in [
            (3, "mode", &["subagent", "primary", "all"][..]),
            (4, "reasoning", &["off", "low", "medium", "high", "xhigh", "max"][..]),
        ] {
            let text = format!("{{\n  \"agents\": {{\n    \"api\": {{\n      \"説明🚀\": 1, \"{key}\": \"");
            set_text(s, &uri, v, &text);
            let quote = range(&text, text.len() - 1, text.len(), enc);
            let expected: Vec<Value> = values
                .iter()
                .enumerate()
                .map(|(i, x)| item(x, ENUM_MEMBER, key, None, i as u8, &quote, &format!("\"{x}\"")))
                .collect();
            assert_eq!(complete_at_end(s, &uri, &text, enc), expected, "{key}");
        }
        // `delegates`: the agents this package sees that are not primary-only (its own `api`
        // is primary): the workspace's first, then the built-ins; `lead` and `plan` are not
        // offered. The second entry of the list replaces only its own opening quote.
        let text = "{\n  \"agents\": {\n    \"api\": {\n      \"mode\": \"primary\", \"説明🚀\": 1, \"delegates\": [\"fixer\", \"";
        set_text(s, &uri, 5, text);
        let items = complete_at_end(s, &uri, text, enc);
        let quote = range(text, text.len() - 1, text.len(), enc);
        assert_eq!(
            labels(&items),
            [
                "reviewer",
                "writer",
                "deep",
                "explorer",
                "fixer",
                "general",
                "librarian",
                "looker",
                "oracle",
            ]
        );
        assert_eq!(
            items[1],
            item(
                "writer",
                CLASS,
                "subagent",
                Some("Writes docs 文書 🚀"),
                0,
                &quote,
                "\"writer\""
            )
        );
        assert_eq!(
            items[2],
            item(
                "deep",
                CLASS,
                "all",
                Some("Owns difficult debugging and cross-cutting work through evidence, hypotheses and experiments."),
                1,
                &quote,
                "\"deep\""
            )
        );
        // `default_agent`: primary agents (and `all` ones), not subagents or hidden ones.
        let text = "{\n  \"説明🚀\": 1, \"default_agent\": \"";
        set_text(s, &uri, 6, text);
        let items = complete_at_end(s, &uri, text, enc);
        let quote = range(text, text.len() - 1, text.len(), enc);
        assert_eq!(
            labels(&items),
            ["lead", "build", "deep", "orchestrator", "plan", "review"]
        );
        assert_eq!(
            items[0],
            item("lead", CLASS, "primary", Some("Leads 先導 🚀"), 0, &quote, "\"lead\"")
        );
        // Permission: its two keys, its modes in declared order, rule keys and actions.
        let text = "{\n  \"agents\": {\n    \"api\": {\n      \"説明🚀\": 1, \"permission\": { \"";
        set_text(s, &uri, 7, text);
        assert_eq!(labels(&complete_at_end(s, &uri, text, enc)), ["mode", "rules"]);
        let text = "{\n  \"agents\": {\n    \"api\": {\n      \"説明🚀\": 1, \"permission\": { \"mode\": \"";
        set_text(s, &uri, 8, text);
        let quote = range(text, text.len() - 1, text.len(), enc);
        assert_eq!(
            complete_at_end(s, &uri, text, enc),
            [
                item(
                    "standard",
                    ENUM_MEMBER,
                    "mode",
                    Some("The default: the rules, plus risk gates."),
                    0,
                    &quote,
                    "\"standard\""
                ),
                item(
                    "strict",
                    ENUM_MEMBER,
                    "mode",
                    Some("A fresh human decision for every side-effecting call."),
                    1,
                    &quote,
                    "\"strict\""
                ),
                item(
                    "allow_all",
                    ENUM_MEMBER,
                    "mode",
                    Some(
                        "No prompts; explicit denies, catastrophic-command refusals, the sandbox and argument validation still apply."
                    ),
                    2,
                    &quote,
                    "\"allow_all\""
                ),
            ]
        );
        let text =
            "{\n  \"agents\": {\n    \"api\": {\n      \"説明🚀\": 1, \"permission\": { \"rules\": { \"shell\": \"";
        set_text(s, &uri, 9, text);
        assert_eq!(labels(&complete_at_end(s, &uri, text, enc)), ["allow", "ask", "deny"]);
        // `requiredSkills`: the skills of the project (the root's `.zuno/skills/`).
        let text = "{\n  \"agents\": {\n    \"api\": {\n      \"説明🚀\": 1, \"requiredSkills\": [\"";
        set_text(s, &uri, 10, text);
        let quote = range(text, text.len() - 1, text.len(), enc);
        assert_eq!(
            complete_at_end(s, &uri, text, enc),
            [item(
                "codemap",
                ENUM_MEMBER,
                "requiredSkills",
                Some("skill"),
                0,
                &quote,
                "\"codemap\""
            )]
        );
        s.take_publishes();
        ws.s.finish();
    }
}

/// Completion in a new Markdown agent in `.zuno/agents/` (not on disk, no closing `---` yet):
/// fields (with `name`, a frontmatter field), bare `mode` and `reasoning` values in their order,
/// and permission modes under `permission:`.
#[test]
fn completion_in_a_half_typed_markdown_agent() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let uri = ws.uri(".zuno/agents/new.md");
        let s = &mut ws.s;
        let head = "---\ndescription: 新しい 🚀\n";
        s.open(&uri, "markdown", 1, head);
        s.expect_version(&uri, 1);
        let items = complete_at_end(s, &uri, head, enc);
        assert_eq!(
            labels(&items),
            [
                "color",
                "delegates",
                "disable",
                "hidden",
                "mode",
                "model",
                "name",
                "options",
                "permission",
                "prompt",
                "reasoning",
                "requiredSkills",
                "steps",
                "temperature",
                "tools",
                "top_p",
                "variant",
            ]
        );
        let end = range(head, head.len(), head.len(), enc);
        assert_eq!(
            items[6],
            item(
                "name",
                PROPERTY,
                "Zuno agent field",
                Some("In a Markdown agent: replaces the name derived from the path."),
                0,
                &end,
                "name: "
            )
        );
        for (v, line, key, values) in [
            (2, "mode: ", "mode", &["subagent", "primary", "all"][..]),
            (
                3,
                "reasoning: ",
                "reasoning",
                &["off", "low", "medium", "high", "xhigh", "max"][..],
            ),
            (
                4,
                "permission:\n  mode: ",
                "mode",
                &["standard", "strict", "allow_all"][..],
            ),
        ] {
            let text = format!("{head}{line}");
            set_text(s, &uri, v, &text);
            let end = range(&text, text.len(), text.len(), enc);
            let items = complete_at_end(s, &uri, &text, enc);
            assert_eq!(labels(&items), values, "{line}");
            for (i, it) in items.iter().enumerate() {
                assert_eq!(it["kind"], ENUM_MEMBER, "{it}");
                assert_eq!(it["detail"], key, "{it}");
                assert_eq!(it["sortText"], format!("{i}{}", values[i]), "{it}");
                assert_eq!(it["textEdit"], json!({ "range": end, "newText": values[i] }), "{it}");
            }
        }
        s.take_publishes();
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Code actions
// ---------------------------------------------------------------------------------------------

/// The quick fixes: `maxSteps` → `steps` (safe, preferred) and the did-you-mean for
/// `temprature` (not preferred), exactly as their diagnostics carry them; applied, each removes
/// its diagnostic and nothing else. Fix all applies only the safe one, as one minimal edit.
#[test]
fn quick_fixes_and_fix_all() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let uri = ws.uri("zuno.json");
        let (_, p) = Doc::open(&mut ws.s, &uri, "json", ZUNO);
        let diags = p["diagnostics"].clone();
        let actions =
            ws.s.request(
                "textDocument/codeAction",
                json!({ "textDocument": { "uri": uri }, "range": range(ZUNO, 0, 0, enc),
                        "context": { "diagnostics": diags, "only": ["quickfix"] } }),
            )
            .unwrap();
        let action = |d: &Value, title: &str, preferred: bool| {
            json!({
                "title": title,
                "kind": "quickfix",
                "diagnostics": [d],
                "edit": { "changes": { uri.clone(): d["data"]["fix"]["edits"] } },
                "isPreferred": preferred,
            })
        };
        // The fixes, then one "ignore on this line" per diagnostic.
        let mut actions = actions.as_array().unwrap().clone();
        let ignores = actions.split_off(2);
        assert_eq!(
            actions,
            [
                action(&diags[2], "Rename to `steps`", true),
                action(&diags[3], "Replace with `\"temperature\"`", false),
            ]
        );
        assert_eq!(ignores.len(), diags.as_array().unwrap().len());
        assert!(
            ignores
                .iter()
                .all(|a| a["title"].as_str().unwrap().starts_with("Ignore `"))
        );
        // What is left after each fix: the other four, where they now are.
        let left = |after: &str, fixed: usize| -> Vec<String> {
            [
                ("🚀.md\"], ", "\"theme\"", "E unknown-key"),
                ("審査 🚀\", \"delegates\": [", "\"plan\"", "W invalid-value"),
                ("見直し 🚀\", ", "\"maxSteps\"", "E deprecated-field"),
                ("5, ", "\"temprature\"", "W unknown-key"),
                ("🚀*\": \"allow\" }, ", "\"write\"", "E unknown-permission"),
            ]
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != fixed)
            .map(|(_, (context, needle, sev_code))| summary_line(after, context, needle, sev_code, enc))
            .collect()
        };
        let mut version = 1;
        for i in [2, 3] {
            let after = apply_edits(ZUNO, diags[i]["data"]["fix"]["edits"].as_array().unwrap(), enc);
            version += 1;
            ws.s.change_full(&uri, version, &after);
            let p = ws.s.expect_version(&uri, version);
            assert_eq!(summary(&p), left(&after, i), "{after}");
        }
        // Fix all: `maxS` → `s` inside `"maxSteps"` (the smallest change), nothing else.
        version += 1;
        ws.s.change_full(&uri, version, ZUNO);
        ws.s.expect_version(&uri, version);
        let r =
            ws.s.request(
                "textDocument/codeAction",
                json!({ "textDocument": { "uri": uri }, "range": range(ZUNO, 0, 0, enc),
                        "context": { "diagnostics": [], "only": ["source.fixAll"] } }),
            )
            .unwrap();
        assert_eq!(
            r,
            json!([{
                "title": "Fix all safe agent-lsp problems",
                "kind": "source.fixAll.agent-lsp",
                "edit": { "changes": { uri.clone(): [
                    { "range": range_in(ZUNO, "\"maxSteps\"", "maxS", enc), "newText": "s" }
                ] } },
            }])
        );
        ws.s.take_publishes();
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Navigation
// ---------------------------------------------------------------------------------------------

fn with_context(params: &Value, include_declaration: bool) -> Value {
    let mut p = params.clone();
    p["context"] = json!({ "includeDeclaration": include_declaration });
    p
}

/// A `delegates` entry goes to the agent's key (in the merge order of the file's view: the
/// root's `zuno.json`, then the nested package that overrides it); references are the
/// `delegates` entries of every Zuno file. The opencode `reviewer` is neither, and its own
/// references contain no Zuno file. A Markdown agent is defined by its `---`.
#[test]
fn definition_and_references_stay_in_the_zuno_dialect() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let zuno = ws.uri("zuno.json");
        let web = ws.uri("packages/web/zuno.json");
        let writer = ws.uri(".zuno/agents/writer.md");
        let oc_reviewer = ws.uri(".opencode/agents/reviewer.md");
        let oc_config = ws.uri("opencode.json");
        let s = &mut ws.s;

        let defs = [
            loc(&zuno, ZUNO, "\"reviewer\": {", "reviewer", enc),
            loc(&web, WEB, "\"reviewer\": {", "reviewer", enc),
        ];
        // References in file order: the package's, the root's, the Markdown agent's.
        let refs = [
            loc(&web, WEB, "[\"reviewer\"", "reviewer", enc),
            loc(&zuno, ZUNO, "[\"reviewer\"", "reviewer", enc),
            loc(&writer, WRITER, "fixer, reviewer", "reviewer", enc),
        ];
        for from in [
            at(&zuno, ZUNO, "[\"reviewer\"", "reviewer", enc),
            at(&web, WEB, "[\"reviewer\"", "reviewer", enc),
            at(&writer, WRITER, "fixer, reviewer", "reviewer", enc),
            at(&zuno, ZUNO, "\"reviewer\": {", "reviewer", enc),
        ] {
            assert_eq!(
                s.request("textDocument/definition", from.clone()).unwrap(),
                json!(defs),
                "{from}"
            );
            assert_eq!(
                s.request("textDocument/references", with_context(&from, false))
                    .unwrap(),
                json!(refs),
                "{from}"
            );
            assert_eq!(
                s.request("textDocument/references", with_context(&from, true)).unwrap(),
                json!([defs[1], defs[0], refs[0], refs[1], refs[2]]),
                "{from}"
            );
        }
        // `default_agent` values, in the root and in the package, go to `lead`'s key.
        let lead = loc(&zuno, ZUNO, "\"lead\": {", "lead", enc);
        for from in [
            at(&zuno, ZUNO, "\"default_agent\": ", "lead", enc),
            at(&web, WEB, "\"default_agent\": ", "lead", enc),
        ] {
            assert_eq!(
                s.request("textDocument/definition", from.clone()).unwrap(),
                json!([lead]),
                "{from}"
            );
            assert_eq!(
                s.request("textDocument/references", with_context(&from, true)).unwrap(),
                json!([
                    lead,
                    loc(&web, WEB, "\"default_agent\": ", "lead", enc),
                    loc(&zuno, ZUNO, "\"default_agent\": ", "lead", enc),
                ]),
                "{from}"
            );
        }
        // The Markdown agent `writer`: its `---`, and the entry of `lead`.
        let from = at(&zuno, ZUNO, "\"reviewer\", \"writer\"", "writer", enc);
        let writer_def = json!({ "uri": writer, "range": range(WRITER, 0, 3, enc) });
        assert_eq!(
            s.request("textDocument/definition", from.clone()).unwrap(),
            json!([writer_def])
        );
        assert_eq!(
            s.request("textDocument/references", with_context(&from, true)).unwrap(),
            json!([writer_def, loc(&zuno, ZUNO, "\"reviewer\", \"writer\"", "writer", enc)])
        );
        // A built-in is defined nowhere, but its references are found.
        let from = at(&zuno, ZUNO, "\"fixer\"", "fixer", enc);
        assert_eq!(s.request("textDocument/definition", from.clone()), Ok(Value::Null));
        assert_eq!(
            s.request("textDocument/references", with_context(&from, true)).unwrap(),
            json!([
                loc(&zuno, ZUNO, "\"fixer\"", "fixer", enc),
                loc(&writer, WRITER, "[fixer", "fixer", enc),
            ])
        );
        // The opencode `reviewer`: its file and its `task` pattern; no Zuno file among them.
        let oc_def = json!({ "uri": oc_reviewer, "range": range(OC_REVIEWER, 0, 3, enc) });
        let from = at(&oc_config, OC_CONFIG, "\"reviewer\"", "reviewer", enc);
        assert_eq!(
            s.request("textDocument/definition", from.clone()).unwrap(),
            json!([oc_def])
        );
        assert_eq!(
            s.request("textDocument/references", with_context(&from, true)).unwrap(),
            json!([oc_def, loc(&oc_config, OC_CONFIG, "\"reviewer\"", "reviewer", enc)])
        );
        ws.s.finish();
    }
}

fn rename_params(params: &Value, new_name: &str) -> Value {
    let mut p = params.clone();
    p["newName"] = json!(new_name);
    p
}

/// Renaming a Zuno agent edits its keys and the `delegates` entries of every Zuno file, never
/// the opencode agent of the same name; a Markdown agent named by its path is renamed as a file
/// in its `agents/` folder. A name taken by a Zuno agent (or a built-in) is refused, one taken
/// only by opencode is not; built-ins are not renamed.
#[test]
fn rename_stays_in_the_zuno_dialect() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let zuno = ws.uri("zuno.json");
        let web = ws.uri("packages/web/zuno.json");
        let writer = ws.uri(".zuno/agents/writer.md");
        let s = &mut ws.s;
        let from = at(&zuno, ZUNO, "[\"reviewer\"", "reviewer", enc);
        assert_eq!(
            s.request("textDocument/prepareRename", from.clone()).unwrap(),
            range_in(ZUNO, "[\"reviewer\"", "reviewer", enc)
        );
        let e = |uri: &str, text: &str, contexts: &[&str], new: &str| {
            let edits: Vec<Value> = contexts
                .iter()
                .map(|c| json!({ "range": range_in(text, c, "reviewer", enc), "newText": new }))
                .collect();
            json!({ "textDocument": { "uri": uri, "version": null }, "edits": edits })
        };
        // `boss` is an opencode agent only: free in Zuno's namespace.
        for new in ["checker", "boss"] {
            assert_eq!(
                s.request("textDocument/rename", rename_params(&from, new)).unwrap(),
                json!({ "documentChanges": [
                    e(&web, WEB, &["\"reviewer\": {", "[\"reviewer\""], new),
                    e(&zuno, ZUNO, &["\"reviewer\": {", "[\"reviewer\""], new),
                    e(&writer, WRITER, &["fixer, reviewer"], new),
                ] }),
                "{new}"
            );
        }
        for (new, why) in [
            ("writer", "an agent named \"writer\" already exists"),
            ("explorer", "an agent named \"explorer\" already exists"),
            ("a b", "\"a b\" is not a usable agent name"),
        ] {
            assert_eq!(
                s.request("textDocument/rename", rename_params(&from, new)),
                Err(json!({ "code": -32602, "message": why })),
                "{new}"
            );
        }
        // The Markdown agent `writer`: the entry is edited and the file renamed.
        let from = at(&zuno, ZUNO, "\"reviewer\", \"writer\"", "writer", enc);
        assert_eq!(
            s.request("textDocument/rename", rename_params(&from, "author"))
                .unwrap(),
            json!({ "documentChanges": [
                { "textDocument": { "uri": zuno, "version": null }, "edits": [
                    { "range": range_in(ZUNO, "\"reviewer\", \"writer\"", "writer", enc), "newText": "author" }
                ] },
                { "kind": "rename", "oldUri": writer, "newUri": ws_uri(&writer, "author.md") },
            ] })
        );
        // On its `---`: nothing to edit there, so no prepared range.
        assert_eq!(
            s.request("textDocument/prepareRename", at(&writer, WRITER, "---", "---", enc)),
            Ok(Value::Null)
        );
        // A built-in.
        let p = at(&zuno, ZUNO, "\"fixer\"", "fixer", enc);
        let err = json!({ "code": -32602, "message": "\"fixer\" is a built-in agent of Zuno; it cannot be renamed" });
        assert_eq!(s.request("textDocument/prepareRename", p.clone()), Err(err.clone()));
        assert_eq!(s.request("textDocument/rename", rename_params(&p, "x")), Err(err));
        ws.s.finish();
    }
}

/// The URI of `file` next to the file `uri`.
fn ws_uri(uri: &str, file: &str) -> String {
    format!("{}/{file}", uri.rsplit_once('/').unwrap().0)
}

/// The outline of `zuno.json`: its top-level keys, with the entries of `agents` as agents.
#[test]
fn document_symbols_show_zuno_agents() {
    let (mut ws, _) = start(Enc::Utf16);
    let zuno = ws.uri("zuno.json");
    let r =
        ws.s.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": zuno } }),
        )
        .unwrap();
    let outline = |v: &Value| -> Vec<(String, i64)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| (s["name"].as_str().unwrap().to_string(), s["kind"].as_i64().unwrap()))
            .collect()
    };
    let top: Vec<(String, i64)> = [
        "$schema",
        "default_agent",
        "instructions",
        "theme",
        "permission",
        "agents",
    ]
    .iter()
    .map(|n| (n.to_string(), 7))
    .collect();
    assert_eq!(outline(&r), top);
    let agents = &r[5];
    assert_eq!(
        outline(&agents["children"]),
        [("lead".to_string(), 5), ("reviewer".to_string(), 5)]
    );
    assert_eq!(
        agents["children"][0]["selectionRange"],
        range_in(ZUNO, "\"lead\": {", "\"lead\"", Enc::Utf16)
    );
    // Their fields are properties.
    assert_eq!(
        outline(&agents["children"][0]["children"]),
        [
            ("mode".to_string(), 7),
            ("description".to_string(), 7),
            ("delegates".to_string(), 7),
            ("permission".to_string(), 7),
        ]
    );
    ws.s.finish();
}
