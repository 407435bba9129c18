//! End-to-end tests of the Claude Code dialect over real LSP pipes (the client of
//! `lsp_support`): diagnostics, hover, completion, code actions and navigation on
//! `.claude/agents/*.md` and a plugin's `agents/`, each in both position encodings. The agent
//! files put CJK and emoji before the positions that matter, on the same line, so that UTF-8 and
//! UTF-16 columns differ there. An opencode agent shares a name with a Claude Code agent: the
//! two dialects are separate namespaces and are never linked.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

/// `grep` (unknown tool) and `Task` (old name of `Agent`) come after CJK and emoji on their line.
const FIXER: &str = "---\nname: fixer\ndescription: Fixes lint 修正 🚀\ntools: Agent(審査🚀, helper), Read, grep, Task\n---\nFix the lint errors.\n";
const HELPER: &str = "---\nname: helper\ndescription: Helps 助け 🚀\ntools: Read, Grep\nmodel: sonnet\npermissionMode: plan\n---\nHelp.\n";
/// A name Claude Code accepts (only `:` and a leading `-` are refused).
const SHINSA: &str = "---\nname: 審査🚀\ndescription: Reviews 審査\n---\nReview.\n";
/// `lead` is an opencode agent only; `Explore` is built in; `rt:releaser` is the plugin agent.
const BOSS: &str = "---\nname: boss\ndescription: Delegates 委任 🚀\ntools: Agent(lead, helper, Explore, rt:releaser)\n---\nDelegate.\n";
const BAD_NAME: &str = "---\nname: team:reviewer\ndescription: A reviewer 🚀\n---\nReview.\n";
const NO_DESC: &str = "---\nname: notes\ntools: Read\n---\nNotes.\n";
const PLANNER: &str =
    "---\nname: planner\ndescription: Plans 計画 🚀\nallowed-tools: Read, Grep\npermissionMode: Plan\n---\nPlan.\n";
/// A flow-mapping frontmatter: the description's CJK and emoji are on the line of the problem.
const FLOW: &str = "---\n{name: flow, description: 修正 🚀 fixes, tools: [Read, grep]}\n---\nBody.\n";
/// A plugin manifest with a misspelt field after CJK and emoji on its line.
const MANIFEST: &str = "{ \"name\": \"rt\", \"version\": \"1.0.0\", \"author\": {\"name\": \"R\"},\n  \"description\": \"リリース 🚀\", \"hompage\": \"https://example.com\" }\n";
/// A plugin command renamed by its `name` (no warning in a plugin), and a plugin skill.
const SHIP: &str = "---\nname: deploy\ndescription: Ships 出荷 🚀\n---\nShip $ARGUMENTS.\n";
const NOTES_SKILL: &str = "---\nname: notes\ndescription: Takes notes\n---\nTake notes.\n";
const RELEASER: &str = "---\nname: releaser\ndescription: Releases 🚀\npermissionMode: acceptEdits\n---\nRelease.\n";
/// opencode: an agent named `helper` too (by its path), and a mention of the Claude-only `fixer`.
const OC_HELPER: &str = "---\ndescription: opencode helper 助け\nmode: subagent\n---\nAsk @helper, not @fixer.\n";
const OC_CONFIG: &str = r#"{
  "default_agent": "lead",
  "agent": { "lead": { "mode": "primary", "description": "Leads", "prompt": "Lead.", "permission": { "task": { "helper": "allow" } } } }
}
"#;

const FILES: &[(&str, &str)] = &[
    (".claude/agents/fixer.md", FIXER),
    (".claude/agents/helper.md", HELPER),
    (".claude/agents/shinsa.md", SHINSA),
    (".claude/agents/team/boss.md", BOSS),
    (".claude/agents/bad-name.md", BAD_NAME),
    (".claude/agents/no-desc.md", NO_DESC),
    (".claude/agents/planner.md", PLANNER),
    (".claude/agents/flow.md", FLOW),
    ("plugins/rt/.claude-plugin/plugin.json", MANIFEST),
    ("plugins/rt/agents/releaser.md", RELEASER),
    ("plugins/rt/commands/ship.md", SHIP),
    ("plugins/rt/skills/notes/SKILL.md", NOTES_SKILL),
    (".opencode/agents/helper.md", OC_HELPER),
    ("opencode.json", OC_CONFIG),
];

/// The workspace, a server on it, and the publishes of its scan.
fn start(enc: Enc) -> (Ws, Vec<Value>) {
    Ws::start(FILES, enc)
}

// ---------------------------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------------------------

/// The scan publishes exactly these diagnostics: ranges, severities, codes, messages, effects
/// and fixes. Clean files (`helper.md`, `shinsa.md`, the opencode files) get no publish.
#[test]
fn scan_publishes_exact_claude_diagnostics() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (ws, scan) = start(enc);
        let got = by_uri(&scan);
        let fixer = {
            let grep = range_in(FIXER, "Read, grep", "grep", enc);
            let task = range_in(FIXER, "grep, Task", "Task", enc);
            let mut deprecated = diag(
                task.clone(),
                WARNING,
                "deprecated-field",
                "`Task` is the old name of `Agent` and still works; write `Agent`",
                fix_data("works-but-risky", "Replace `Task` with `Agent`", task, "Agent", true),
            );
            deprecated["tags"] = json!([2]); // deprecated
            json!([
                diag(
                    grep.clone(),
                    WARNING,
                    "unknown-tool",
                    "Claude Code has no tool `grep` (tool names are case-sensitive); did you mean `Grep`?",
                    fix_data("value-ignored", "Replace with `Grep`", grep, "Grep", false),
                ),
                deprecated,
            ])
        };
        let boss = json!([diag(
            range_in(BOSS, "Agent(lead", "lead", enc),
            WARNING,
            "unknown-agent",
            "no agent `lead` is defined for this project (nor built in): Claude Code cannot start it from this agent",
            json!({ "effect": "fails-when-used" }),
        )]);
        let bad_name = json!([diag(
            range_in(BAD_NAME, "name: ", "team:reviewer", enc),
            ERROR,
            "invalid-name",
            "a name must not contain `:`, which is reserved for plugin namespacing: Claude Code skips this file",
            json!({ "effect": "file-ignored" }),
        )]);
        let no_desc = {
            let (end_of_name, _) = find(NO_DESC, "tools:");
            json!([diag(
                range_in(NO_DESC, "name: ", "notes", enc),
                ERROR,
                "missing-field",
                "there is no `description`: Claude Code skips this agent (\"Missing required \\\"description\\\" field\"). Say when Claude should delegate to it",
                fix_data(
                    "file-ignored",
                    "Add a `description`",
                    range(NO_DESC, end_of_name, end_of_name, enc),
                    "description: \"Use this agent when ...\"\n",
                    false
                ),
            )])
        };
        let planner = {
            let key = range_in(PLANNER, "allowed-tools", "allowed-tools", enc);
            let plan = range_in(PLANNER, "permissionMode: Plan", "Plan", enc);
            json!([
                diag(
                    key.clone(),
                    WARNING,
                    "unknown-key",
                    "Claude Code does not recognize `allowed-tools` and ignores it; did you mean `tools`?",
                    fix_data("value-ignored", "Rename to `tools`", key, "tools", false),
                ),
                diag(
                    plan.clone(),
                    WARNING,
                    "invalid-value",
                    "invalid permissionMode 'Plan': Claude Code ignores it. Valid options: acceptEdits, auto, bypassPermissions, default, dontAsk, plan",
                    fix_data("value-ignored", "Replace with `plan`", plan, "plan", false),
                ),
            ])
        };
        let flow = {
            let grep = range_in(FLOW, "[Read, grep]", "grep", enc);
            json!([diag(
                grep.clone(),
                WARNING,
                "unknown-tool",
                "Claude Code has no tool `grep` (tool names are case-sensitive); did you mean `Grep`?",
                fix_data("value-ignored", "Replace with `Grep`", grep, "Grep", false),
            )])
        };
        let releaser = json!([diag(
            range_in(RELEASER, "permissionMode", "permissionMode", enc),
            WARNING,
            "ignored-field",
            "plugin agents ignore `permissionMode` (Claude Code: \"Use .claude/agents/ for this level of control\")",
            json!({ "effect": "value-ignored" }),
        )]);
        let manifest = {
            let key = range_in(MANIFEST, "\"hompage\"", "\"hompage\"", enc);
            json!([diag(
                key.clone(),
                WARNING,
                "unknown-key",
                "unknown field `hompage`: Claude Code ignores it at load time. Did you mean `homepage`?",
                fix_data(
                    "value-ignored",
                    "Replace with `\"homepage\"`",
                    key,
                    "\"homepage\"",
                    false
                ),
            )])
        };
        let expected: std::collections::BTreeMap<String, Value> = [
            (ws.uri(".claude/agents/fixer.md"), fixer),
            (ws.uri(".claude/agents/team/boss.md"), boss),
            (ws.uri(".claude/agents/bad-name.md"), bad_name),
            (ws.uri(".claude/agents/no-desc.md"), no_desc),
            (ws.uri(".claude/agents/planner.md"), planner),
            (ws.uri(".claude/agents/flow.md"), flow),
            (ws.uri("plugins/rt/agents/releaser.md"), releaser),
            (ws.uri("plugins/rt/.claude-plugin/plugin.json"), manifest),
        ]
        .into_iter()
        .collect();
        for (uri, diags) in &expected {
            assert_eq!(got.get(uri), Some(diags), "{uri} ({enc:?})");
        }
        let keys: Vec<&String> = got.keys().collect();
        assert_eq!(keys, expected.keys().collect::<Vec<_>>(), "{enc:?}");
        ws.s.finish();
    }
}

/// Edits, in the encoding's columns after CJK and emoji: fixing `grep` clears its warning, and
/// renaming `helper` in its own file makes the `Agent(helper)` entries of the other files
/// unknown (cross-file), until the name comes back.
#[test]
fn diagnostics_follow_edits_across_files() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let fixer = ws.uri(".claude/agents/fixer.md");
        let helper = ws.uri(".claude/agents/helper.md");
        let boss = ws.uri(".claude/agents/team/boss.md");
        let (mut fixer_doc, p) = Doc::open(&mut ws.s, &fixer, "markdown", FIXER);
        assert_eq!(
            summary(&p),
            [
                summary_line(FIXER, "Read, grep", "grep", "W unknown-tool", enc),
                summary_line(FIXER, "grep, Task", "Task", "W deprecated-field", enc),
            ]
        );
        // An incremental edit whose range lies after CJK and emoji on its line.
        let (s, e) = within(FIXER, "Read, grep", "grep");
        let p = fixer_doc.edit(&mut ws.s, s, e, "Grep");
        assert_eq!(
            summary(&p),
            [summary_line(
                &fixer_doc.text,
                "Grep, Task",
                "Task",
                "W deprecated-field",
                enc
            )]
        );
        ws.s.assert_quiet();
        // `helper` becomes `aide`: the two entries that name `helper` are now unknown.
        let (mut helper_doc, p) = Doc::open(&mut ws.s, &helper, "markdown", HELPER);
        assert_eq!(summary(&p), Vec::<String>::new());
        let p = helper_doc.replace(&mut ws.s, "name: helper", "name: aide");
        assert_eq!(summary(&p), Vec::<String>::new());
        let fixer_now = ws.s.expect_version(&fixer, fixer_doc.version);
        assert_eq!(
            summary(&fixer_now),
            [
                summary_line(&fixer_doc.text, "🚀, helper", "helper", "W unknown-agent", enc),
                summary_line(&fixer_doc.text, "Grep, Task", "Task", "W deprecated-field", enc),
            ]
        );
        assert_eq!(
            fixer_now["diagnostics"][0]["message"],
            "no agent `helper` is defined for this project (nor built in): Claude Code cannot start it from this agent"
        );
        let boss_now = ws.s.expect_publish(&boss);
        assert_eq!(
            summary(&boss_now),
            [
                summary_line(BOSS, "Agent(lead", "lead", "W unknown-agent", enc),
                summary_line(BOSS, "lead, helper", "helper", "W unknown-agent", enc),
            ]
        );
        ws.s.assert_quiet();
        // Back to `helper`: both entries resolve again.
        helper_doc.replace(&mut ws.s, "name: aide", "name: helper");
        let fixer_now = ws.s.expect_version(&fixer, fixer_doc.version);
        assert_eq!(
            summary(&fixer_now),
            [summary_line(
                &fixer_doc.text,
                "Grep, Task",
                "Task",
                "W deprecated-field",
                enc
            )]
        );
        let boss_now = ws.s.expect_publish(&boss);
        assert_eq!(
            summary(&boss_now),
            [summary_line(BOSS, "Agent(lead", "lead", "W unknown-agent", enc)]
        );
        ws.s.finish();
    }
}

/// One line of [`summary`] for `needle` inside `context` of `text`.
fn summary_line(text: &str, context: &str, needle: &str, sev_code: &str, enc: Enc) -> String {
    let (s, e) = within(text, context, needle);
    let (l1, c1) = line_col(text, s, enc);
    let (l2, c2) = line_col(text, e, enc);
    format!("{l1}:{c1}-{l2}:{c2} {sev_code}")
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

const HELPER_CARD: &str = "### `helper`: Claude Code agent\n\nHelps 助け 🚀\n\n- **tools**: `Read`, `Grep`\n- **permission mode**: `plan`\n- **model**: `sonnet`: the latest Sonnet model\n\nDefined in .claude/agents/helper.md:2 (project).\n";

#[test]
fn hover_shows_the_agent_claude_code_runs() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let fixer = ws.uri(".claude/agents/fixer.md");
        let helper = ws.uri(".claude/agents/helper.md");
        let boss = ws.uri(".claude/agents/team/boss.md");
        let s = &mut ws.s;
        // On the `name` value: the card (tools, permission mode, model, where it is defined).
        assert_eq!(
            hover(s, at(&helper, HELPER, "name: helper", "helper", enc)),
            json!({ "markdown": HELPER_CARD, "range": range_in(HELPER, "name: ", "helper", enc) })
        );
        // On an `Agent(...)` entry, after CJK and emoji: the same card, over the agent type.
        assert_eq!(
            hover(s, at(&fixer, FIXER, "🚀, helper", "helper", enc)),
            json!({ "markdown": HELPER_CARD, "range": range_in(FIXER, "🚀, helper", "helper", enc) })
        );
        // An agent type written in CJK and emoji.
        assert_eq!(
            hover(s, at(&fixer, FIXER, "Agent(審査🚀", "審査🚀", enc)),
            json!({
                "markdown": "### `審査🚀`: Claude Code agent\n\nReviews 審査\n\n- **tools**: every tool of the conversation that starts it\n- **permission mode**: `default` (not set)\n- **model**: `inherit` (not set): the model of the conversation that starts it\n\nDefined in .claude/agents/shinsa.md:2 (project).\n",
                "range": range_in(FIXER, "Agent(審査🚀", "審査🚀", enc),
            })
        );
        // The opening `---`: this file's agent, with its effective tools (`Task` is `Agent`).
        assert_eq!(
            hover(s, at(&fixer, FIXER, "---", "---", enc)),
            json!({
                "markdown": "### `fixer`: Claude Code agent\n\nFixes lint 修正 🚀\n\n- **tools**: `Agent(審査🚀, helper)`, `Read`, `Agent`\n- **permission mode**: `default` (not set)\n- **model**: `inherit` (not set): the model of the conversation that starts it\n\nDefined in .claude/agents/fixer.md:2 (project).\n",
                "range": range(FIXER, 0, 3, enc),
            })
        );
        // A built-in agent type.
        assert_eq!(
            hover(s, at(&boss, BOSS, "Explore", "Explore", enc)),
            json!({
                "markdown": "### `Explore`: built-in Claude Code agent\n\nFast read-only agent for searching and understanding a codebase\n",
                "range": range_in(BOSS, "Explore", "Explore", enc),
            })
        );
        // A tool entry after CJK and emoji, and a field key.
        assert_eq!(
            hover(s, at(&fixer, FIXER, "Read", "Read", enc)),
            json!({
                "markdown": "**`Read`**: a built-in Claude Code tool.",
                "range": range_in(FIXER, "Read", "Read", enc),
            })
        );
        assert_eq!(
            hover(s, at(&helper, HELPER, "permissionMode", "permissionMode", enc)),
            json!({
                "markdown": "**`permissionMode`** (Claude Code agent field)\n\nHow the agent asks for permission: `default` (`manual` is an alias), `acceptEdits`, `auto`, `dontAsk`, `bypassPermissions` or `plan`. Ignored for plugin agents.\n",
                "range": range_in(HELPER, "permissionMode", "permissionMode", enc),
            })
        );
        // An unknown tool and an opencode-only agent type: nothing.
        assert_eq!(hover(s, at(&fixer, FIXER, "grep", "grep", enc)), Value::Null);
        assert_eq!(hover(s, at(&boss, BOSS, "lead", "lead", enc)), Value::Null);
        ws.s.finish();
    }
}

/// A plugin agent is registered as `plugin:name`; an agent Claude Code skips still shows what
/// it would be, and why it is not loaded.
#[test]
fn hover_on_plugin_agents_and_skipped_agents() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let releaser = ws.uri("plugins/rt/agents/releaser.md");
        let boss = ws.uri(".claude/agents/team/boss.md");
        let no_desc = ws.uri(".claude/agents/no-desc.md");
        let card = "### `rt:releaser`: Claude Code agent\n\nReleases 🚀\n\n- **tools**: every tool of the conversation that starts it\n- **permission mode**: `default` (not set)\n- **model**: `inherit` (not set): the model of the conversation that starts it\n\nDefined in plugins/rt/agents/releaser.md:2 (plugin rt).\n";
        let s = &mut ws.s;
        assert_eq!(
            hover(s, at(&releaser, RELEASER, "name: releaser", "releaser", enc)),
            json!({ "markdown": card, "range": range_in(RELEASER, "name: ", "releaser", enc) })
        );
        assert_eq!(
            hover(s, at(&boss, BOSS, "rt:releaser", "rt:releaser", enc)),
            json!({ "markdown": card, "range": range_in(BOSS, "rt:releaser", "rt:releaser", enc) })
        );
        assert_eq!(
            hover(s, at(&no_desc, NO_DESC, "name: notes", "notes", enc)),
            json!({
                "markdown": "### `notes`: Claude Code agent (**not loaded**: no description)\n\n- **tools**: `Read`\n- **permission mode**: `default` (not set)\n- **model**: `inherit` (not set): the model of the conversation that starts it\n\nDefined in .claude/agents/no-desc.md:2 (project).\n",
                "range": range_in(NO_DESC, "name: ", "notes", enc),
            })
        );
        ws.s.finish();
    }
}

/// A plugin's manifest: hover on a field, completion of fields and values; its command is
/// known as `/rt:...`.
#[test]
fn plugin_manifests_and_commands() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let manifest = ws.uri("plugins/rt/.claude-plugin/plugin.json");
        let ship = ws.uri("plugins/rt/commands/ship.md");
        let s = &mut ws.s;
        let h = hover(s, at(&manifest, MANIFEST, "\"description\"", "description", enc));
        assert_eq!(
            h,
            json!({
                "markdown": "**`description`** (`plugin.json` field)\n\nWhat the plugin does, shown when browsing plugins.\n",
                "range": range_in(MANIFEST, "\"description\"", "\"description\"", enc),
            })
        );
        let h = hover(s, at(&ship, SHIP, "---", "---", enc));
        let md = h["markdown"].as_str().unwrap_or_default();
        assert!(md.starts_with("### `/rt:ship`: Claude Code command"), "{md}");
        // Completion in a manifest being written: the fields not there yet, and the values.
        let text = "{\"name\": \"rt\", \"リリース\": 1, \"defaultEnabled\": ";
        s.open(&manifest, "json", 2, text);
        s.expect_version(&manifest, 2);
        assert_eq!(
            labels(&complete(s, &manifest, text, text.len(), enc)),
            ["false", "true"]
        );
        let text = "{\"name\": \"rt\", \"リリース\": 1, \"";
        s.change_full(&manifest, 3, text);
        s.expect_version(&manifest, 3);
        let items = complete(s, &manifest, text, text.len(), enc);
        let l = labels(&items);
        assert!(l.starts_with(&["author", "description", "version"]), "{l:?}");
        assert!(l.contains(&"agents") && !l.contains(&"name"), "{l:?}");
        let agents = items.iter().find(|i| i["label"] == "agents").unwrap();
        assert_eq!(
            agents["textEdit"],
            json!({ "range": range(text, text.len() - 1, text.len(), enc), "newText": "\"agents\": " })
        );
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------

/// The completion items at byte `offset` of `text` (the open document `uri`).
fn complete(s: &mut Server, uri: &str, text: &str, offset: usize, enc: Enc) -> Vec<Value> {
    let r = s
        .request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": position(text, offset, enc) }),
        )
        .unwrap();
    r.as_array().unwrap_or_else(|| panic!("not a list: {r}")).clone()
}

fn labels(items: &[Value]) -> Vec<&str> {
    items.iter().map(|i| i["label"].as_str().unwrap()).collect()
}

#[test]
fn completion_of_keys_values_and_tool_entries() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        // A new agent, not on disk, half typed (no closing `---` yet).
        let uri = ws.uri(".claude/agents/new.md");
        let s = &mut ws.s;
        let text = "---\nname: new\ndescription: 新しい 🚀\n";
        s.open(&uri, "markdown", 1, text);
        s.expect_version(&uri, 1);
        // Keys, without those already there: the required ones, then the common ones, then the
        // rest, each alphabetically.
        let items = complete(s, &uri, text, text.len(), enc);
        assert_eq!(
            labels(&items),
            [
                "color",
                "disallowedTools",
                "model",
                "permissionMode",
                "tools",
                "autoCompactWindow",
                "background",
                "effort",
                "experimental",
                "hooks",
                "initialPrompt",
                "isolation",
                "maxTurns",
                "mcpServers",
                "memory",
                "observeSubagents",
                "observeToolResults",
                "observer",
                "observerMessage",
                "omitClaudeMd",
                "skills",
            ]
        );
        let end = range(text, text.len(), text.len(), enc);
        assert_eq!(
            items[3],
            json!({
                "label": "permissionMode",
                "kind": 10,
                "detail": "Claude Code agent field",
                "documentation": { "kind": "markdown", "value": "How the agent asks for permission: `default` (`manual` is an alias), `acceptEdits`, `auto`, `dontAsk`, `bypassPermissions` or `plan`. Ignored for plugin agents." },
                "sortText": "1permissionMode",
                "filterText": "permissionMode",
                "textEdit": { "range": end, "newText": "permissionMode: " },
            })
        );
        // `permissionMode: ` values, inserted at the cursor.
        let text2 = format!("{text}permissionMode: ");
        s.change_full(&uri, 2, &text2);
        s.expect_version(&uri, 2);
        let items = complete(s, &uri, &text2, text2.len(), enc);
        let end = range(&text2, text2.len(), text2.len(), enc);
        let expected: Vec<Value> = ["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"]
            .iter()
            .map(|v| {
                json!({
                    "label": v,
                    "kind": 20,
                    "detail": "permissionMode",
                    "sortText": format!("0{v}"),
                    "filterText": v,
                    "textEdit": { "range": end, "newText": v },
                })
            })
            .collect();
        assert_eq!(items, expected);
        // A tool entry after CJK and emoji on its line: every item replaces exactly `Gr`.
        let text3 = format!("{text}tools: Agent(審査🚀), Read, Gr");
        s.change_full(&uri, 3, &text3);
        s.expect_version(&uri, 3);
        let items = complete(s, &uri, &text3, text3.len(), enc);
        let gr = range(&text3, text3.len() - 2, text3.len(), enc);
        for i in &items {
            assert_eq!(i["textEdit"]["range"], gr, "{i}");
            assert_eq!(i["textEdit"]["newText"], i["label"], "{i}");
        }
        let grep = items.iter().find(|i| i["label"] == "Grep").unwrap();
        assert_eq!(
            grep,
            &json!({
                "label": "Grep",
                "kind": 20,
                "detail": "tool",
                "documentation": { "kind": "markdown", "value": "built-in tool" },
                "sortText": "0Grep",
                "filterText": "Grep",
                "textEdit": { "range": gr, "newText": "Grep" },
            })
        );
        // The agent types: built-in ones and the Claude Code agents that load (a plugin agent
        // as `plugin:name`); not the opencode agents, not the skipped `notes`, `team:reviewer`.
        let agents: Vec<&str> = labels(&items).into_iter().filter(|l| l.starts_with("Agent(")).collect();
        assert_eq!(
            agents,
            [
                "Agent(Explore)",
                "Agent(Plan)",
                "Agent(boss)",
                "Agent(claude)",
                "Agent(claude-code-guide)",
                "Agent(fixer)",
                "Agent(flow)",
                "Agent(fork)",
                "Agent(general-purpose)",
                "Agent(helper)",
                "Agent(planner)",
                "Agent(rt:releaser)",
                "Agent(statusline-setup)",
                "Agent(審査🚀)",
            ]
        );
        let helper = items.iter().find(|i| i["label"] == "Agent(helper)").unwrap();
        assert_eq!(helper["kind"], 7);
        assert_eq!(helper["documentation"]["value"], "Helps 助け 🚀");
        s.take_publishes();
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Code actions
// ---------------------------------------------------------------------------------------------

/// One quick fix per diagnostic with a fix, exactly as the diagnostic carries it; applied, each
/// removes its diagnostic (`Task` → `Agent` is the safe, preferred one). Fix all applies only
/// the safe fixes, as one minimal edit.
#[test]
fn quick_fixes_and_fix_all() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        // Each fix: its title, whether it is preferred (safe), and the one diagnostic left.
        let fixer_fixes = [
            (
                "Replace with `Grep`",
                false,
                ("Grep, Task", "Task", "W deprecated-field"),
            ),
            (
                "Replace `Task` with `Agent`",
                true,
                ("Read, grep", "grep", "W unknown-tool"),
            ),
        ];
        let planner_fixes = [
            (
                "Rename to `tools`",
                false,
                ("permissionMode: Plan", "Plan", "W invalid-value"),
            ),
            (
                "Replace with `plan`",
                false,
                ("allowed-tools", "allowed-tools", "W unknown-key"),
            ),
        ];
        for (rel, text, fixes) in [
            (".claude/agents/fixer.md", FIXER, fixer_fixes),
            (".claude/agents/planner.md", PLANNER, planner_fixes),
        ] {
            let uri = ws.uri(rel);
            let (_, p) = Doc::open(&mut ws.s, &uri, "markdown", text);
            let diags = p["diagnostics"].clone();
            let mut actions = quick_fixes(&mut ws.s, &uri, &diags);
            // After the fixes, one "ignore on this line" per diagnostic (each on a frontmatter line).
            let ignores = actions.split_off(2);
            assert_eq!(ignores.len(), diags.as_array().unwrap().len(), "{ignores:#?}");
            assert!(
                ignores
                    .iter()
                    .all(|a| a["title"].as_str().unwrap().starts_with("Ignore `"))
            );
            let mut version = 1;
            for (i, (action, (title, preferred, (context, needle, left)))) in actions.iter().zip(fixes).enumerate() {
                let d = &diags[i];
                assert_eq!(
                    action,
                    &json!({
                        "title": title,
                        "kind": "quickfix",
                        "diagnostics": [d],
                        "edit": { "changes": { uri.clone(): d["data"]["fix"]["edits"] } },
                        "isPreferred": preferred,
                    }),
                    "{rel}"
                );
                let after = apply_edits(text, d["data"]["fix"]["edits"].as_array().unwrap(), enc);
                version += 1;
                ws.s.change_full(&uri, version, &after);
                let p = ws.s.expect_version(&uri, version);
                assert_eq!(
                    summary(&p),
                    [summary_line(&after, context, needle, left, enc)],
                    "{title}"
                );
            }
            version += 1;
            ws.s.change_full(&uri, version, text);
            ws.s.expect_version(&uri, version);
        }
        // Fix all on fixer.md: only `Task` → `Agent` (the tool-name guess is not safe).
        let uri = ws.uri(".claude/agents/fixer.md");
        let r =
            ws.s.request(
                "textDocument/codeAction",
                json!({ "textDocument": { "uri": uri }, "range": range(FIXER, 0, 0, enc),
                        "context": { "diagnostics": [], "only": ["source.fixAll"] } }),
            )
            .unwrap();
        assert_eq!(
            r,
            json!([{
                "title": "Fix all safe agent-lsp problems",
                "kind": "source.fixAll.agent-lsp",
                "edit": { "changes": { uri.clone(): [
                    { "range": range_in(FIXER, "grep, Task", "Task", enc), "newText": "Agent" }
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

/// `Agent(helper)` goes to the Claude Code agent `helper` (its `name` value), and its
/// references are the `Agent(...)` entries only; the opencode agent `helper` (a file of the
/// same name) has its own definition and references. A name defined in one dialect only is not
/// found from the other.
#[test]
fn definition_and_references_stay_in_their_dialect() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let fixer = ws.uri(".claude/agents/fixer.md");
        let helper = ws.uri(".claude/agents/helper.md");
        let boss = ws.uri(".claude/agents/team/boss.md");
        let shinsa = ws.uri(".claude/agents/shinsa.md");
        let releaser = ws.uri("plugins/rt/agents/releaser.md");
        let oc_helper = ws.uri(".opencode/agents/helper.md");
        let oc_config = ws.uri("opencode.json");
        let s = &mut ws.s;

        let def = loc(&helper, HELPER, "name: helper", "helper", enc);
        let refs = [
            loc(&fixer, FIXER, "🚀, helper", "helper", enc),
            loc(&boss, BOSS, "lead, helper", "helper", enc),
        ];
        for from in [
            at(&helper, HELPER, "name: helper", "helper", enc),
            at(&fixer, FIXER, "🚀, helper", "helper", enc),
            at(&boss, BOSS, "lead, helper", "helper", enc),
        ] {
            assert_eq!(
                s.request("textDocument/definition", from.clone()).unwrap(),
                json!([def]),
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
                json!([def, refs[0], refs[1]]),
                "{from}"
            );
        }
        // A name in CJK and emoji, and a plugin agent by its `plugin:name`.
        let from = at(&fixer, FIXER, "Agent(審査🚀", "審査🚀", enc);
        assert_eq!(
            s.request("textDocument/definition", from.clone()).unwrap(),
            json!([loc(&shinsa, SHINSA, "name: ", "審査🚀", enc)])
        );
        let from = at(&boss, BOSS, "rt:releaser", "rt:releaser", enc);
        let releaser_def = loc(&releaser, RELEASER, "name: ", "releaser", enc);
        assert_eq!(
            s.request("textDocument/definition", from.clone()).unwrap(),
            json!([releaser_def])
        );
        assert_eq!(
            s.request("textDocument/references", with_context(&from, true)).unwrap(),
            json!([releaser_def, loc(&boss, BOSS, "rt:releaser", "rt:releaser", enc)])
        );

        // The opencode `helper`: defined by its file (the opening `---`), referenced by the task
        // pattern and the `@helper` mention; no Claude Code file among them.
        let oc_def = json!({ "uri": oc_helper, "range": range(OC_HELPER, 0, 3, enc) });
        let oc_refs = [
            loc(&oc_config, OC_CONFIG, "\"helper\"", "helper", enc),
            loc(&oc_helper, OC_HELPER, "@helper", "helper", enc),
        ];
        for from in [
            at(&oc_helper, OC_HELPER, "@helper", "helper", enc),
            at(&oc_config, OC_CONFIG, "\"helper\"", "helper", enc),
        ] {
            assert_eq!(
                s.request("textDocument/definition", from.clone()).unwrap(),
                json!([oc_def]),
                "{from}"
            );
            assert_eq!(
                s.request("textDocument/references", with_context(&from, false))
                    .unwrap(),
                json!(oc_refs),
                "{from}"
            );
            assert_eq!(
                s.request("textDocument/references", with_context(&from, true)).unwrap(),
                json!([oc_def, oc_refs[0], oc_refs[1]]),
                "{from}"
            );
        }
        // `@fixer` in an opencode prompt names no opencode agent; `Agent(lead)` in a Claude Code
        // agent names no Claude Code agent.
        for from in [
            at(&oc_helper, OC_HELPER, "@fixer", "fixer", enc),
            at(&boss, BOSS, "Agent(lead", "lead", enc),
        ] {
            assert_eq!(
                s.request("textDocument/definition", from.clone()),
                Ok(Value::Null),
                "{from}"
            );
            assert_eq!(
                s.request("textDocument/references", with_context(&from, true)),
                Ok(Value::Null),
                "{from}"
            );
        }
        ws.s.finish();
    }
}

fn rename_params(params: &Value, new_name: &str) -> Value {
    let mut p = params.clone();
    p["newName"] = json!(new_name);
    p
}

/// Renaming the Claude Code `helper` edits its `name` and the `Agent(...)` entries, never the
/// opencode agent of the same name; a name taken in the Claude Code namespace is refused, one
/// taken only by opencode is not. Built-in and plugin agents are not renamed.
#[test]
fn rename_stays_in_the_claude_dialect() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, _) = start(enc);
        let fixer = ws.uri(".claude/agents/fixer.md");
        let helper = ws.uri(".claude/agents/helper.md");
        let boss = ws.uri(".claude/agents/team/boss.md");
        let s = &mut ws.s;
        let from = at(&fixer, FIXER, "🚀, helper", "helper", enc);
        assert_eq!(
            s.request("textDocument/prepareRename", from.clone()).unwrap(),
            range_in(FIXER, "🚀, helper", "helper", enc)
        );
        let edit = |new: &str| {
            let e = |uri: &str, text: &str, context: &str| {
                json!({ "textDocument": { "uri": uri, "version": null }, "edits": [
                    { "range": range_in(text, context, "helper", enc), "newText": new }
                ] })
            };
            // One text edit per file, in the files' scan order; no file operation.
            json!({ "documentChanges": [
                e(&fixer, FIXER, "🚀, helper"),
                e(&helper, HELPER, "name: helper"),
                e(&boss, BOSS, "lead, helper"),
            ] })
        };
        for new in ["aide", "lead"] {
            let r = s.request("textDocument/rename", rename_params(&from, new)).unwrap();
            assert_eq!(r, edit(new), "{new}");
        }
        for (new, why) in [
            ("審査🚀", "an agent named \"審査🚀\" already exists"),
            ("Explore", "an agent named \"Explore\" already exists"),
            ("a:b", "\"a:b\" is not a usable agent name"),
        ] {
            assert_eq!(
                s.request("textDocument/rename", rename_params(&from, new)),
                Err(json!({ "code": -32602, "message": why })),
                "{new}"
            );
        }
        for (context, needle, why) in [
            (
                "Explore",
                "Explore",
                "\"Explore\" is a built-in agent of Claude Code; it cannot be renamed",
            ),
            (
                "rt:releaser",
                "rt:releaser",
                "\"rt:releaser\" is a Claude Code plugin agent; rename it by editing the `name` in its plugin",
            ),
        ] {
            let p = at(&boss, BOSS, context, needle, enc);
            let err = json!({ "code": -32602, "message": why });
            assert_eq!(s.request("textDocument/prepareRename", p.clone()), Err(err.clone()));
            assert_eq!(s.request("textDocument/rename", rename_params(&p, "x")), Err(err));
        }
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Settings: `.claude/settings.json` permission rules
// ---------------------------------------------------------------------------------------------

/// A `:*` before the end of a Bash pattern (after CJK and emoji) and a path rule on `Write`.
const SETTINGS: &str = "{\n  \"permissions\": {\n    \"allow\": [\"Bash(echo 日本🚀 git:* push)\", \"Bash(npm run *)\"],\n    \"ask\": [\"Bash(git push:*)\"],\n    \"deny\": [\"Write(src/**)\", \"Read(./.env)\"]\n  },\n  \"env\": { \"X\": \"1\" }\n}\n";
const SETTINGS_FILES: &[(&str, &str)] = &[
    (".claude/settings.json", SETTINGS),
    (".claude/agents/helper.md", HELPER),
    (
        ".claude/agents/shell.md",
        "---\nname: shell\ndescription: Runs commands\ntools: Bash, Read\n---\nRun.\n",
    ),
];

#[test]
fn settings_diagnostics_hover_and_completion() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, scan) = Ws::start(SETTINGS_FILES, enc);
        let uri = ws.uri(".claude/settings.json");
        let got = by_uri(&scan);
        let colon = range_in(SETTINGS, "git:*", ":*", enc);
        let write = range_in(SETTINGS, "\"Write", "Write", enc);
        assert_eq!(
            got[&uri],
            json!([
                diag(
                    colon.clone(),
                    WARNING,
                    "ignored-permission-rule",
                    "`:*` means \"followed by anything\" only at the end of a pattern; here Claude Code matches `:*` literally. Did you mean ` *`?",
                    fix_data("rule-never-applies", "Replace with ` *`", colon, " *", false),
                ),
                diag(
                    range_of(SETTINGS, "\"Write(src/**)\"", enc),
                    WARNING,
                    "ignored-permission-rule",
                    "Claude Code never consults path rules on `Write` (startup warning): `Edit(...)` rules cover every edit tool, `Read(...)` rules cover reading and `Glob`. Use `Edit(src/**)`",
                    fix_data(
                        "rule-never-applies",
                        "Replace `Write` with `Edit`",
                        write,
                        "Edit",
                        false
                    ),
                ),
            ]),
            "{}",
            enc.name()
        );
        assert_eq!(got.len(), 1, "only the settings file has findings: {got:?}");
        let s = &mut ws.s;
        // Hover on a rule: what it does, the project's agents whose tools include `Bash`, and
        // who may run the commands it matches.
        assert_eq!(
            hover(s, at(&uri, SETTINGS, "\"Bash(git push", "Bash", enc)),
            json!({
                "markdown": "**ask**: `Bash` commands matching `git push *` (also `git push`)\n\n(checked after deny, before allow)\n\nAffects these agents of the project (their tools include `Bash`): `shell`\n\n**Who may** (`bash` on inputs `git push *` matches): 0 allow, 1 ask, 1 deny\n\n- `shell` (Claude Code): **ask** for `git push` — `Bash(git push:*)` in `permissions.ask` (.claude/settings.json:4)\n- `helper` (Claude Code): **deny** for `git push` — the agent does not have `Bash` (its `tools` and `disallowedTools`) (.claude/agents/helper.md:2)\n",
                "range": range_of(SETTINGS, "\"Bash(git push:*)\"", enc),
            })
        );
        let read = hover(s, at(&uri, SETTINGS, "\"Read(./.env", "Read", enc));
        assert_eq!(
            read["markdown"],
            "**deny**: `Read` on paths matching `./.env` (gitignore-style)\n\n(deny rules are checked first)\n\nAffects these agents of the project (their tools include `Read`): `helper`, `shell`\n"
        );
        // Off a rule: what the setting is, on the key's exact range.
        let env = hover(s, at(&uri, SETTINGS, "\"env\"", "env", enc));
        assert!(
            env["markdown"]
                .as_str()
                .is_some_and(|m| m.starts_with("**`env`** (Claude Code's settings)")),
            "{env}"
        );
        assert_eq!(env["range"], range_of(SETTINGS, "\"env\"", enc));
        // Completion of a rule being typed: tool names, replacing the whole string.
        let text = SETTINGS.replace("\"Read(./.env)\"", "\"Re\"");
        s.open(&uri, "json", 1, &text);
        s.expect_version(&uri, 1);
        let (at_re, _) = within(&text, "\"Re\"", "Re\"");
        let items = complete(s, &uri, &text, at_re + 2, enc);
        let labels = labels(&items);
        assert!(
            labels.contains(&"Read") && labels.contains(&"Bash") && labels.contains(&"WebFetch"),
            "{labels:?}"
        );
        let read = items.iter().find(|i| i["label"] == "Read").unwrap();
        assert_eq!(read["textEdit"]["newText"], "\"Read\"");
        assert_eq!(read["textEdit"]["range"], range_in(&text, "\"Re\"", "\"Re\"", enc));
    }
}

/// A settings file Claude Code voids (its `defaultMode`), with CJK and emoji before the rules.
const VOIDED: &str = "{\n  \"permissions\": {\n    \"deny\": [\"Bash(echo 日本🚀)\", \"Bash(curl:*)\"],\n    \"defaultMode\": \"acceptEdit\"\n  }\n}\n";

#[test]
fn a_voided_settings_file_is_one_error_its_lost_rules_faded_and_the_card_says_why() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let files = [
            (".claude/settings.json", VOIDED),
            (
                ".claude/agents/shell.md",
                "---\nname: shell\ndescription: Runs commands\ntools: Bash, Read\n---\nRun.\n",
            ),
        ];
        let (mut ws, scan) = Ws::start(&files, enc);
        let uri = ws.uri(".claude/settings.json");
        let got = by_uri(&scan);
        let diags = got[&uri].as_array().unwrap();
        // One error; the two rules are its related information and faded hints of it.
        let errors: Vec<&Value> = diags.iter().filter(|d| d["severity"] == ERROR).collect();
        assert_eq!(errors.len(), 1, "{diags:#?}");
        let error = errors[0];
        assert_eq!(error["code"], "invalid-value");
        assert_eq!(error["range"], range_of(VOIDED, "\"acceptEdit\"", enc));
        let related: Vec<(Value, &str)> = error["relatedInformation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["location"]["range"].clone(), r["message"].as_str().unwrap()))
            .collect();
        assert_eq!(
            related,
            [
                (
                    range_of(VOIDED, "\"Bash(echo 日本🚀)\"", enc),
                    "not applied: `Bash(echo 日本🚀)` in `deny`"
                ),
                (
                    range_of(VOIDED, "\"Bash(curl:*)\"", enc),
                    "not applied: `Bash(curl:*)` in `deny`"
                ),
            ]
        );
        let hints: Vec<&Value> = diags.iter().filter(|d| d["severity"] == HINT).collect();
        assert_eq!(hints.len(), 2, "{diags:#?}");
        assert_eq!(hints[1]["range"], range_of(VOIDED, "\"Bash(curl:*)\"", enc));
        assert_eq!(hints[1]["tags"], json!([1]));
        assert_eq!(
            hints[1]["message"],
            "not applied: `Bash(curl:*)` in `deny`, because of the invalid-value on line 4"
        );
        assert_eq!(diags.len(), 3, "nothing else: {diags:#?}");
        // The agent's card says which rules Claude Code would apply, and why it does not.
        let shell = ws.uri(".claude/agents/shell.md");
        let text = files[1].1;
        let card = hover(&mut ws.s, at(&shell, text, "name: ", "shell", enc));
        let md = card["markdown"].as_str().unwrap();
        assert!(
            md.contains("Not applied: Claude Code applies nothing of the settings file of these rules because of .claude/settings.json:4"),
            "{md}"
        );
        assert!(md.contains("- deny: `Bash(curl:*)` (.claude/settings.json:3)"), "{md}");
        // On a rule of the voided file: what it would do, and that it does not.
        let rule = hover(&mut ws.s, at(&uri, VOIDED, "\"Bash(curl", "Bash", enc));
        let md = rule["markdown"].as_str().unwrap();
        assert!(md.starts_with("**deny**: `Bash` commands matching `curl *`"), "{md}");
        assert!(
            md.contains("**Not applied**: Claude Code applies nothing of this file because of line 4 ('permissions.defaultMode' must be"),
            "{md}"
        );
        ws.s.finish();
    }
}

// ---------------------------------------------------------------------------------------------
// Memory files (`CLAUDE.md`): imports, their diagnostics and document links
// ---------------------------------------------------------------------------------------------

/// CJK and emoji before each import, on its line, so that UTF-8 and UTF-16 columns differ.
const MEMORY: &str = "# 規約 🚀\n規約 🚀 @docs/style.md and 規約 🚀 @docs/gone.md\n";
/// A command's mentions resolve from the project, not from `.claude/commands/`.
const MENTIONS: &str = "---\ndescription: Ship 🚀\n---\n出荷 🚀 @docs/style.md then 🚀 @nope.md\n";
const MEMORY_FILES: &[(&str, &str)] = &[
    ("CLAUDE.md", MEMORY),
    ("docs/style.md", "Style."),
    (".claude/commands/ship.md", MENTIONS),
];

#[test]
fn memory_imports_diagnostics_and_document_links() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, scan) = Ws::start(MEMORY_FILES, enc);
        let uri = ws.uri("CLAUDE.md");
        let ship = ws.uri(".claude/commands/ship.md");
        let got = by_uri(&scan);
        assert_eq!(
            got[&uri],
            json!([diag(
                range_in(MEMORY, "@docs/gone", "docs/gone.md", enc),
                WARNING,
                "missing-path",
                "`docs/gone.md` names no file (an import resolves from this file's folder): Claude Code leaves the import out without a word, so the model never sees it",
                json!({ "effect": "value-ignored" }),
            )])
        );
        assert_eq!(
            got[&ship],
            json!([diag(
                range_in(MENTIONS, "@nope", "nope.md", enc),
                WARNING,
                "missing-path",
                "`nope.md` names no file (a command's `@path` resolves from the folder Claude Code starts in, the project): Claude Code attaches nothing for it, without a word",
                json!({ "effect": "value-ignored" }),
            )])
        );
        let style = uri_of(&ws.root.join("docs/style.md"));
        for (doc, text) in [(&uri, MEMORY), (&ship, MENTIONS)] {
            let links =
                ws.s.request("textDocument/documentLink", json!({ "textDocument": { "uri": doc } }))
                    .unwrap();
            let links = links.as_array().unwrap();
            assert_eq!(links.len(), 1, "{links:?}");
            assert_eq!(links[0]["range"], range_in(text, "@docs/style", "docs/style.md", enc));
            assert_eq!(links[0]["target"], json!(style));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// `.mcp.json`: a project's MCP servers, and the settings that approve them by name
// ---------------------------------------------------------------------------------------------

/// A server named in CJK and emoji whose `command` Claude Code refuses, and a remote server.
const MCP: &str = "{\n  \"mcpServers\": {\n    \"日本🚀\": {\"command\": 5},\n    \"gh\": {\"type\": \"http\", \"url\": \"https://x.dev/mcp\"}\n  }\n}\n";
const MCP_SETTINGS: &str = "{\"enabledMcpjsonServers\": [\"gh\", \"ghh\"]}\n";

#[test]
fn mcp_json_diagnostics_hover_completion_and_approvals() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (mut ws, scan) = Ws::start(
            &[(".mcp.json", MCP), (".claude/settings.local.json", MCP_SETTINGS)],
            enc,
        );
        let uri = ws.uri(".mcp.json");
        let settings = ws.uri(".claude/settings.local.json");
        let got = by_uri(&scan);
        let d = &got[&uri][0];
        assert_eq!(d["code"], "invalid-type", "{}", enc.name());
        assert_eq!(d["range"], range_in(MCP, "\"command\": 5", "5", enc));
        assert_eq!(got[&uri].as_array().unwrap().len(), 1);
        let a = &got[&settings];
        assert_eq!(a.as_array().unwrap().len(), 1, "{a}");
        assert_eq!(a[0]["code"], "unknown-mcp-server");
        assert_eq!(a[0]["range"], range_of(MCP_SETTINGS, "\"ghh\"", enc));
        let s = &mut ws.s;
        // Hover on a server: what Claude Code runs or reaches, and its tools' prefix.
        let card = hover(s, at(&uri, MCP, "\"gh\"", "gh", enc));
        let md = card["markdown"].as_str().unwrap();
        assert!(md.contains("A remote server (http) at `https://x.dev/mcp`"), "{md}");
        assert!(md.contains("`mcp__gh__<tool>`"), "{md}");
        assert_eq!(card["range"], range_of(MCP, "\"gh\"", enc));
        // On a field: its documentation for the server's transport.
        let url = hover(s, at(&uri, MCP, "\"url\"", "url", enc));
        assert!(
            url["markdown"]
                .as_str()
                .unwrap()
                .starts_with("**`url`** (a remote (http) MCP server)"),
            "{url}"
        );
        // Completion of a key inside a server.
        let text = MCP.replace(
            "\"url\": \"https://x.dev/mcp\"}",
            "\"url\": \"https://x.dev/mcp\", \"\"}",
        );
        s.open(&uri, "json", 1, &text);
        s.expect_version(&uri, 1);
        let (at_key, _) = within(&text, "mcp\", \"\"", "\"\"");
        let items = complete(s, &uri, &text, at_key + 1, enc);
        let labels = labels(&items);
        assert!(labels.contains(&"headers") && labels.contains(&"oauth"), "{labels:?}");
        assert!(!labels.contains(&"url") && !labels.contains(&"command"), "{labels:?}");
        // Declaring `ghh` answers the approval: the settings file's finding goes.
        let text = MCP.replace("\"gh\": {", "\"ghh\": {\"command\": \"x\"}, \"gh\": {");
        s.change_full(&uri, 2, &text);
        let publishes = by_uri(&s.take_publishes());
        assert_eq!(publishes[&settings], json!([]), "{}", enc.name());
        ws.s.finish();
    }
}
