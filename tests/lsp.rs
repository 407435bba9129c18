//! End-to-end tests of `agent-lsp serve`: the real binary, real LSP over its stdin/stdout.
//!
//! Each test builds a fresh temp workspace and starts a server on it through the small client in
//! `lsp_support` (see there for the barrier that makes "nothing else was published" checkable).
//! Snapshots use expect-test; refresh them with `UPDATE_EXPECT=1 cargo test --test lsp`.

mod lsp_support;

use std::path::Path;

use expect_test::expect;
use lsp_support::*;
use serde_json::{Value, json};

const REV_MAIN: &str = "---\ndescription: Reviews code\nmode: main\n---\nYou review code.\n";
const REV_PRIMARY: &str = "---\ndescription: Reviews code\nmode: primary\n---\nYou review code.\n";
const VALID_AGENT: &str = "---\ndescription: Plans work\nmode: subagent\n---\nYou plan.\n";

fn diag_at(publish: &Value, i: usize) -> &Value {
    &publish["diagnostics"][i]
}

// ---------------------------------------------------------------------------------------------
// 1. initialize
// ---------------------------------------------------------------------------------------------

#[test]
fn initialize_result_with_utf8_offered() {
    let ws = workspace(&[]);
    let mut s = Server::spawn(&root_of(&ws));
    let mut result = s.initialize(&Setup::utf8());
    assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    result["serverInfo"]["version"] = json!("<version>");
    expect![[r#"
        {
          "capabilities": {
            "codeActionProvider": {
              "codeActionKinds": [
                "quickfix",
                "source.fixAll.agent-lsp"
              ]
            },
            "completionProvider": {
              "triggerCharacters": [
                ":",
                "\"",
                " "
              ]
            },
            "definitionProvider": true,
            "documentLinkProvider": {
              "resolveProvider": false
            },
            "documentSymbolProvider": true,
            "hoverProvider": true,
            "positionEncoding": "utf-8",
            "referencesProvider": true,
            "renameProvider": {
              "prepareProvider": true
            },
            "textDocumentSync": {
              "change": 2,
              "openClose": true
            },
            "workspaceSymbolProvider": true
          },
          "serverInfo": {
            "name": "agent-lsp",
            "version": "<version>"
          }
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&result).unwrap());
    s.notify("initialized", json!({}));
    s.wait_server_request("workspace/configuration", 1);
    s.finish();
}

#[test]
fn initialize_result_without_encodings_is_utf16() {
    let ws = workspace(&[]);
    let mut s = Server::spawn(&root_of(&ws));
    let mut result = s.initialize(&Setup::default());
    result["serverInfo"]["version"] = json!("<version>");
    expect![[r#"
        {
          "capabilities": {
            "codeActionProvider": {
              "codeActionKinds": [
                "quickfix",
                "source.fixAll.agent-lsp"
              ]
            },
            "completionProvider": {
              "triggerCharacters": [
                ":",
                "\"",
                " "
              ]
            },
            "definitionProvider": true,
            "documentLinkProvider": {
              "resolveProvider": false
            },
            "documentSymbolProvider": true,
            "hoverProvider": true,
            "positionEncoding": "utf-16",
            "referencesProvider": true,
            "renameProvider": {
              "prepareProvider": true
            },
            "textDocumentSync": {
              "change": 2,
              "openClose": true
            },
            "workspaceSymbolProvider": true
          },
          "serverInfo": {
            "name": "agent-lsp",
            "version": "<version>"
          }
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&result).unwrap());
    // Offered only UTF-16 (or UTF-32, which the server does not do): UTF-16 too.
    let mut s2 = Server::spawn(&root_of(&ws));
    let setup = Setup {
        encodings: Some(vec!["utf-32", "utf-16"]),
        ..Setup::default()
    };
    assert_eq!(s2.initialize(&setup)["capabilities"]["positionEncoding"], "utf-16");
    s.notify("initialized", json!({}));
    s2.notify("initialized", json!({}));
    s.wait_server_request("workspace/configuration", 1);
    s2.wait_server_request("workspace/configuration", 1);
    // The watchers are registered when the client supports dynamic registration.
    let reg = s.wait_server_request("client/registerCapability", 1);
    let registration = &reg[0]["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = registration["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert!(globs.contains(&"**/opencode.json"), "{globs:?}");
    assert!(globs.contains(&"**/*.md") && globs.contains(&"**/*.txt"), "{globs:?}");
    s.finish();
    s2.finish();
}

#[test]
fn no_server_requests_without_the_client_capabilities() {
    let ws = workspace(&[]);
    let setup = Setup {
        dynamic_watch: false,
        configuration: false,
        ..Setup::default()
    };
    let mut s = Server::start(&root_of(&ws), setup);
    s.sync();
    assert!(s.server_requests("client/registerCapability").is_empty());
    assert!(s.server_requests("workspace/configuration").is_empty());
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 2. Diagnostics on open
// ---------------------------------------------------------------------------------------------

#[test]
fn diagnostics_on_open() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    s.open(&uri, "markdown", 7, REV_MAIN);
    let p = s.expect_publish(&uri);
    assert_eq!(p["uri"], uri);
    assert_eq!(p["version"], 7);
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1, "{p}");
    let d = diag_at(&p, 0);
    assert_eq!(d["code"], "invalid-value");
    assert_eq!(d["source"], "agent-lsp");
    assert_eq!(d["severity"], 1);
    // The code links to the rule's page of the book, a file of this repository.
    let href = d["codeDescription"]["href"].as_str().expect("codeDescription.href");
    assert_eq!(
        href,
        "https://github.com/agent-lsp/agent-lsp/blob/main/book/src/rules/invalid-value.md"
    );
    let page = href.split("/blob/main/").nth(1).unwrap();
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(page).is_file(), "{page}");
    assert_eq!(
        d["range"],
        json!({ "start": { "line": 2, "character": 6 }, "end": { "line": 2, "character": 10 } })
    );
    assert!(d["message"].as_str().unwrap().contains("main"), "{d}");
    s.finish();
}

/// A workspace of more than 500 agent files is indexed in the background, with work-done
/// progress (begin, a report with the count, end): a document opened meanwhile gets its own
/// diagnostics at once and never a cross-file one computed on a half-read workspace; when the
/// index is ready, every file has its full diagnostics, cross-file ones included.
#[test]
fn a_large_workspace_is_indexed_in_the_background() {
    let agent = "---\ndescription: d\nmode: subagent\n---\nBody\n";
    let names: Vec<String> = (0..600).map(|i| format!(".opencode/agents/a{i}.md")).collect();
    let mut files: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), agent)).collect();
    files.push(("opencode.json", "{ \"default_agent\": \"nobody\" }\n"));
    // Its name is taken by a1.md (a cross-file finding), its mode is wrong (its own).
    let dup = "---\nname: a1\ndescription: d\nmode: bogus\n---\nBody\n";
    files.push((".opencode/agents/dup.md", dup));
    let ws = workspace(&files);
    let root = root_of(&ws);
    let mut s = Server::start(
        &root,
        Setup {
            work_done_progress: true,
            ..Setup::default()
        },
    );
    let uri = uri_of(&root.join(".opencode/agents/dup.md"));
    s.open(&uri, "markdown", 1, dup);
    // A file created while the index runs (or just after): its event is applied either way.
    let late = root.join(".opencode/agents/late.md");
    std::fs::write(&late, "---\ndescription: d\nmode: bogus\n---\nBody\n").unwrap();
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri_of(&late), "type": 1 }] }),
    );
    let progress = s.notifications_until("$/progress", |m| m["params"]["value"]["kind"] == "end");
    let kinds: Vec<&str> = progress
        .iter()
        .filter(|m| m["method"] == "$/progress")
        .map(|m| m["params"]["value"]["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["begin", "report", "end"], "{progress:#?}");
    let report = &progress
        .iter()
        .find(|m| m["params"]["value"]["kind"] == "report")
        .unwrap();
    assert_eq!(report["params"]["value"]["message"], "more than 500 files to read");
    // The end gives the count indexed; the created file may be counted or not, depending on
    // when the walk saw it.
    let end = &progress.iter().find(|m| m["params"]["value"]["kind"] == "end").unwrap();
    let indexed = end["params"]["value"]["message"].as_str().unwrap();
    assert!(indexed == "602 files" || indexed == "603 files", "{indexed}");
    assert_eq!(s.server_requests("window/workDoneProgress/create").len(), 1);
    let publishes = s.take_publishes();
    let of = |u: &str| -> Vec<Vec<String>> {
        publishes
            .iter()
            .filter(|p| p["uri"] == u)
            .map(|p| {
                let mut codes: Vec<String> = p["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d["code"].as_str().unwrap_or("").to_string())
                    .collect();
                codes.sort();
                codes
            })
            .collect()
    };
    let dup_publishes = of(&uri);
    // Its own finding in every publish, the cross-file one in the last; an earlier publish
    // (before the index was ready, if the open came first) has its own finding only.
    assert_eq!(dup_publishes.last().unwrap(), &["duplicate-agent", "invalid-value"]);
    for p in &dup_publishes {
        assert!(
            p == &["invalid-value"] || p == &["duplicate-agent", "invalid-value"],
            "{dup_publishes:?}"
        );
    }
    let config = uri_of(&root.join("opencode.json"));
    assert_eq!(of(&config).last().unwrap(), &["invalid-default-agent"]);
    assert_eq!(of(&uri_of(&late)).last().unwrap(), &["invalid-value"]);
    // a1.md is reported too (the other side of the duplicate).
    assert_eq!(
        of(&uri_of(&root.join(".opencode/agents/a1.md"))).last().unwrap(),
        &["duplicate-agent"]
    );
    s.finish();
}

/// A file with more problems than an editor can show: the first 1,000 are published, then one
/// information diagnostic, where the next one is, says how many more there are; in a workspace
/// file and in an untitled document alike.
#[test]
fn at_most_a_thousand_diagnostics_per_file() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let mut text = String::from("---\ndescription: d\n");
    for i in 0..1200 {
        text.push_str(&format!("k{i}: v\n"));
    }
    text.push_str("---\nBody\n");
    for uri in [
        uri_of(&root.join(".opencode/agents/big.md")),
        "untitled:Untitled-1".to_string(),
    ] {
        s.open(&uri, "markdown", 1, &text);
        let p = s.expect_publish(&uri);
        let d = p["diagnostics"].as_array().unwrap();
        assert_eq!(d.len(), 1001, "{uri}");
        assert!(d[..1000].iter().all(|d| d["code"] == "unknown-key"), "{uri}");
        assert_eq!(d[999]["range"]["start"]["line"], 1001, "{uri}");
        let last = &d[1000];
        assert_eq!(last["severity"], 3, "{uri}");
        assert!(last.get("code").is_none(), "{last}");
        assert_eq!(last["range"]["start"], json!({ "line": 1002, "character": 0 }), "{uri}");
        assert!(
            last["message"].as_str().unwrap().starts_with("200 more problems"),
            "{last}"
        );
    }
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 3. Incremental edits with CJK and emoji, in both encodings
// ---------------------------------------------------------------------------------------------

fn incremental_edits(enc: Enc) {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::for_enc(enc));
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    let text = "---\ndescription: 审查代码 🚀 ok\ncolor: red\n---\nBody 🚀\n";
    let (mut doc, p) = Doc::open(&mut s, &uri, "markdown", text);
    assert_eq!(summary(&p), ["2:7-2:10 E invalid-color"]);

    // `red` -> "#FF0000" and back, on a line after the CJK and emoji line.
    let p = doc.replace(&mut s, "red", "\"#FF0000\"");
    assert_eq!(summary(&p), Vec::<String>::new());
    let p = doc.replace(&mut s, "\"#FF0000\"", "red");
    assert_eq!(summary(&p), ["2:7-2:10 E invalid-color"]);
    // Insert an emoji in the middle of the description (between 查 and 代), then delete it.
    let (at, _) = find(&doc.text, "代");
    let p = doc.edit(&mut s, at, at, "🎉");
    assert_eq!(summary(&p), ["2:7-2:10 E invalid-color"]);
    assert!(doc.text.contains("审查🎉代码"));
    let p = doc.edit(&mut s, at, at + "🎉".len(), "");
    assert_eq!(summary(&p), ["2:7-2:10 E invalid-color"]);
    let p = doc.replace(&mut s, "red", "primary");
    assert!(summary(&p).is_empty());

    // A flow mapping: `color: teal` after CJK and an emoji on the same line.
    let flow = "{description: 审查代码 🚀 ok, color: teal}";
    let (fs, fe) = find(&doc.text, "description: 审查代码 🚀 ok\ncolor: primary");
    let p = doc.edit(&mut s, fs, fe, flow);
    let start: u32 = match enc {
        // `{description: ` is 14 bytes, 审查代码 4 x 3, ` ` 1, 🚀 4, ` ok, color: ` 12.
        Enc::Utf8 => 43,
        // 审查代码 4 units, 🚀 2 units.
        Enc::Utf16 => 33,
    };
    assert_eq!(summary(&p), [format!("1:{start}-1:{} E invalid-color", start + 4)]);
    assert_eq!(diag_at(&p, 0)["range"], doc.range_of("teal"));
    // The suggestion's range is in the same unit.
    assert_eq!(diag_at(&p, 0)["data"]["fix"]["edits"][0]["range"], doc.range_of("teal"));
    // Insert emoji before `teal` on the same line: the range moves by their width.
    let (at, _) = find(&doc.text, " ok");
    let p = doc.edit(&mut s, at, at, "👍🏽✨");
    let start = start
        + match enc {
            Enc::Utf8 => 4 + 4 + 3,
            Enc::Utf16 => 2 + 2 + 1,
        };
    assert_eq!(summary(&p), [format!("1:{start}-1:{} E invalid-color", start + 4)]);
    assert_eq!(diag_at(&p, 0)["range"], doc.range_of("teal"));
    // Delete the first CJK character and the first emoji, as two changes in one message.
    let (a, b) = find(&doc.text, "审");
    let c1 = edit(&doc.text, a, b, "", enc);
    let (r, r_end) = find(&c1.1, "🚀");
    let c2 = edit(&c1.1, r, r_end, "", enc);
    let p = doc.send(&mut s, vec![c1, c2]);
    assert_eq!(diag_at(&p, 0)["range"], doc.range_of("teal"));
    // `teal` -> "#FF0000" clears it; back brings it back at the same place.
    let p = doc.replace(&mut s, "teal", "\"#FF0000\"");
    assert!(summary(&p).is_empty(), "{p}");
    let p = doc.replace(&mut s, "\"#FF0000\"", "teal");
    assert_eq!(diag_at(&p, 0)["range"], doc.range_of("teal"));
    assert_eq!(
        doc.text,
        "---\n{description: 查代码 👍🏽✨ ok, color: teal}\n---\nBody 🚀\n"
    );
    s.finish();
}

#[test]
fn incremental_edits_utf8() {
    incremental_edits(Enc::Utf8);
}

#[test]
fn incremental_edits_utf16() {
    incremental_edits(Enc::Utf16);
}

// ---------------------------------------------------------------------------------------------
// 4. Workspace-wide diagnostics at `initialized`
// ---------------------------------------------------------------------------------------------

#[test]
fn workspace_diagnostics_after_initialized() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"agnet\": {}\n}\n"),
        (".opencode/agents/rev.md", REV_MAIN),
        (".opencode/agents/plan.md", VALID_AGENT),
        ("packages/api/opencode.json", "{ \"default_agent\": \"nobody\" }\n"),
        ("notes/readme.md", "---\nmode: main\n---\n"),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let mut got: Vec<(String, Value, Vec<String>)> = s
        .take_publishes()
        .into_iter()
        .map(|p| {
            let uri = p["uri"]
                .as_str()
                .unwrap()
                .strip_prefix(&uri_of(&root))
                .unwrap()
                .to_string();
            (uri, p["version"].clone(), summary(&p))
        })
        .collect();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let text = format!("{got:#?}");
    expect![[r#"
        [
            (
                "/.opencode/agents/rev.md",
                Null,
                [
                    "2:6-2:10 E invalid-value",
                ],
            ),
            (
                "/opencode.json",
                Null,
                [
                    "1:2-1:9 W unknown-key",
                ],
            ),
            (
                "/packages/api/opencode.json",
                Null,
                [
                    "0:19-0:27 E invalid-default-agent",
                ],
            ),
        ]"#]]
    .assert_eq(&text);
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 5. Cross-file re-publishing
// ---------------------------------------------------------------------------------------------

#[test]
fn cross_file_default_agent() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (".opencode/agents/rev.md", REV_PRIMARY),
        (".opencode/agents/plan.md", VALID_AGENT),
        (
            ".opencode/agents/typo.md",
            "---\ndescription: Typo\ncolr: red\n---\nBody\n",
        ),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let config = uri_of(&root.join("opencode.json"));
    let rev = uri_of(&root.join(".opencode/agents/rev.md"));
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    // Only the file with a diagnostic is published by the scan.
    let scan = s.take_publishes();
    assert_eq!(scan.len(), 1, "{scan:#?}");
    assert_eq!(scan[0]["uri"], typo);
    assert_eq!(summary(&scan[0]), ["2:0-2:4 W unknown-key"]);

    let mut text = REV_PRIMARY.to_string();
    s.open(&rev, "markdown", 1, &text);
    assert!(summary(&s.expect_version(&rev, 1)).is_empty());
    s.assert_quiet();

    let (change, after) = replace(&text, "primary", "subagent", s.enc);
    text = after;
    s.change(&rev, 2, vec![change]);
    let p = s.expect_version(&rev, 2);
    assert!(summary(&p).is_empty());
    let c = s.expect_publish(&config);
    assert_eq!(c["version"], Value::Null);
    assert_eq!(summary(&c), ["1:19-1:24 E invalid-default-agent"]);
    let d = diag_at(&c, 0);
    assert!(d["message"].as_str().unwrap().contains("subagent"), "{d}");
    let related = &d["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], rev);
    assert_eq!(related["location"]["range"], range_of(&text, "subagent", s.enc));
    // Neither the typo file nor the valid agent is re-published.
    s.assert_quiet();

    let (change, after) = replace(&text, "subagent", "primary", s.enc);
    text = after;
    s.change(&rev, 3, vec![change]);
    assert!(summary(&s.expect_version(&rev, 3)).is_empty());
    let c = s.expect_publish(&config);
    assert!(summary(&c).is_empty(), "{c}");
    s.assert_quiet();
    assert_eq!(text, REV_PRIMARY);
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 6. Watched files
// ---------------------------------------------------------------------------------------------

#[test]
fn watched_files_create_change_delete() {
    let ws = workspace(&[("opencode.json", "{\n  \"default_agent\": \"helper\"\n}\n")]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let config = uri_of(&root.join("opencode.json"));
    let p = s.expect_publish(&config);
    assert_eq!(summary(&p), ["1:19-1:27 E invalid-default-agent"]);
    s.assert_quiet();

    // Created: a primary agent with an unknown key.
    let helper_path = root.join(".opencode/agents/helper.md");
    let helper = uri_of(&helper_path);
    write_files(
        &root,
        &[(
            ".opencode/agents/helper.md",
            "---\nmode: primary\ncolr: red\n---\nHelp.\n",
        )],
    );
    let event = |typ: u8| json!({ "changes": [{ "uri": helper, "type": typ }] });
    s.notify("workspace/didChangeWatchedFiles", event(1));
    let c = s.expect_publish(&config);
    assert!(summary(&c).is_empty(), "{c}");
    let h = s.expect_publish(&helper);
    assert_eq!(summary(&h), ["2:0-2:4 W unknown-key"]);
    assert_eq!(h["version"], Value::Null);
    s.assert_quiet();

    // Changed: now a subagent.
    std::fs::write(&helper_path, "---\ndescription: Helps.\nmode: subagent\n---\nHelp.\n").unwrap();
    s.notify("workspace/didChangeWatchedFiles", event(2));
    let mut got = s.take_publishes();
    got.sort_by(|a, b| a["uri"].as_str().cmp(&b["uri"].as_str()));
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[0]["uri"], helper);
    assert!(summary(&got[0]).is_empty());
    assert_eq!(got[1]["uri"], config);
    assert_eq!(summary(&got[1]), ["1:19-1:27 E invalid-default-agent"]);

    // Back to primary with a typo, then deleted: the error comes back and the file is cleared.
    std::fs::write(&helper_path, "---\nmode: primary\ncolr: red\n---\nHelp.\n").unwrap();
    s.notify("workspace/didChangeWatchedFiles", event(2));
    assert!(summary(&s.expect_publish(&config)).is_empty());
    assert_eq!(summary(&s.expect_publish(&helper)), ["2:0-2:4 W unknown-key"]);
    std::fs::remove_file(&helper_path).unwrap();
    s.notify("workspace/didChangeWatchedFiles", event(3));
    let c = s.expect_publish(&config);
    assert_eq!(summary(&c), ["1:19-1:27 E invalid-default-agent"]);
    let h = s.expect_publish(&helper);
    assert!(summary(&h).is_empty(), "{h}");
    s.assert_quiet();

    // A new opencode.json in a sub-project, created on disk.
    let sub = uri_of(&root.join("sub/opencode.json"));
    write_files(&root, &[("sub/opencode.json", "{ \"agnet\": {} }\n")]);
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": sub, "type": 1 }] }),
    );
    assert_eq!(summary(&s.expect_publish(&sub)), ["0:2-0:9 W unknown-key"]);
    s.finish();
}

/// A `{file:...}` reference follows its target on disk: created, the error goes; deleted, it
/// comes back.
#[test]
fn watched_file_references() {
    let ws = workspace(&[(
        "opencode.json",
        "{\n  \"agent\": {\"a\": {\"mode\": \"primary\", \"prompt\": \"{file:./prompts/a.md}\"}}\n}\n",
    )]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let config = uri_of(&root.join("opencode.json"));
    assert_eq!(summary(&s.expect_publish(&config)), ["1:48-1:69 E bad-file-reference"]);
    s.assert_quiet();
    write_files(&root, &[("prompts/a.md", "You are a.\n")]);
    let target = uri_of(&root.join("prompts/a.md"));
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": target, "type": 1 }] }),
    );
    assert!(summary(&s.expect_publish(&config)).is_empty());
    std::fs::remove_file(root.join("prompts/a.md")).unwrap();
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": target, "type": 3 }] }),
    );
    assert_eq!(summary(&s.expect_publish(&config)), ["1:48-1:69 E bad-file-reference"]);
    s.finish();
}

/// An `opencode.json` created next to an existing `agents/` folder makes that folder a config
/// directory (as `agent-lsp check` sees it): its agents resolve `default_agent`.
#[test]
fn watched_config_creation_makes_a_layout_directory() {
    let ws = workspace(&[("agents/helper.md", "---\nmode: primary\n---\nHelp.\n")]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    s.assert_quiet();
    let config_text = "{\n  \"default_agent\": \"helper\"\n}\n";
    write_files(&root, &[("opencode.json", config_text)]);
    // The checker agrees that this project is fine.
    let check = std::process::Command::new(BIN)
        .args(["check", "--no-global", "--format", "json"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
    let config = uri_of(&root.join("opencode.json"));
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": config, "type": 1 }] }),
    );
    // Both files are re-published, clean: the config, and the agent that joined the index.
    let mut published: Vec<(String, Vec<String>)> = s
        .take_publishes()
        .iter()
        .map(|p| (p["uri"].as_str().unwrap().to_string(), summary(p)))
        .collect();
    published.sort();
    assert_eq!(
        published,
        [
            (uri_of(&root.join("agents/helper.md")), vec![]),
            (config.clone(), vec![]),
        ]
    );
    // A fresh server agrees with the checker.
    let mut fresh = Server::start(&root, Setup::default());
    fresh.assert_quiet();
    fresh.finish();
    s.finish();
}

#[test]
fn watched_directory_deletion_removes_its_files() {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"helper\"\n}\n"),
        (
            ".opencode/agents/helper.md",
            "---\nmode: primary\ncolr: red\n---\nHelp.\n",
        ),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let helper = uri_of(&root.join(".opencode/agents/helper.md"));
    let config = uri_of(&root.join("opencode.json"));
    assert_eq!(summary(&s.expect_publish(&helper)), ["2:0-2:4 W unknown-key"]);
    s.assert_quiet();
    std::fs::remove_dir_all(root.join(".opencode")).unwrap();
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri_of(&root.join(".opencode")), "type": 3 }] }),
    );
    assert!(summary(&s.expect_publish(&helper)).is_empty());
    assert_eq!(
        summary(&s.expect_publish(&config)),
        ["1:19-1:27 E invalid-default-agent"]
    );
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 7. Settings
// ---------------------------------------------------------------------------------------------

fn unknown_key_severities(publishes: &[Value]) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = publishes
        .iter()
        .flat_map(|p| {
            p["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["code"] == "unknown-key")
                .map(|d| {
                    let uri = p["uri"].as_str().unwrap();
                    (
                        uri.rsplit('/').next().unwrap().to_string(),
                        d["severity"].as_i64().unwrap(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.sort();
    out
}

#[test]
fn settings_from_initialization_options_and_did_change_configuration() {
    let ws = workspace(&[
        (
            "opencode.json",
            "{\n  \"agnet\": {},\n  \"default_agent\": \"nobody\"\n}\n",
        ),
        (
            ".opencode/agents/typo.md",
            "---\ndescription: Typo\ncolr: red\n---\nBody\n",
        ),
    ]);
    let root = root_of(&ws);
    let setup = Setup {
        init_options: Some(json!({ "severity": { "unknown-key": "info", "invalid-default-agent": "hint" } })),
        ..Setup::default()
    };
    let mut s = Server::start(&root, setup);
    let config = uri_of(&root.join("opencode.json"));
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    // initializationOptions apply from the first publish.
    let scan = s.take_publishes();
    assert_eq!(
        unknown_key_severities(&scan),
        [("opencode.json".to_string(), 3), ("typo.md".to_string(), 3)]
    );
    let c = scan.iter().find(|p| p["uri"] == config).unwrap();
    assert_eq!(
        summary(c),
        ["1:2-1:9 I unknown-key", "2:19-2:27 H invalid-default-agent"]
    );

    // Pushed settings: unknown-key off. A `severity` object is the whole new table (clients
    // send their complete settings), so the override of invalid-default-agent is gone.
    let push = |s: &Server, v: Value| s.notify("workspace/didChangeConfiguration", json!({ "settings": v }));
    push(&s, json!({ "agentLsp": { "severity": { "unknown-key": "off" } } }));
    let got = s.take_publishes();
    assert!(unknown_key_severities(&got).is_empty(), "{got:#?}");
    let c = got
        .iter()
        .rfind(|p| p["uri"] == config)
        .expect("opencode.json re-published");
    assert_eq!(summary(c), ["2:19-2:27 E invalid-default-agent"]);
    let t = got.iter().rfind(|p| p["uri"] == typo).expect("typo.md re-published");
    assert!(summary(t).is_empty());

    // unknown-key error.
    push(&s, json!({ "agentLsp": { "severity": { "unknown-key": "error" } } }));
    let got = s.take_publishes();
    assert_eq!(
        unknown_key_severities(&got),
        [("opencode.json".to_string(), 1), ("typo.md".to_string(), 1)]
    );
    let c = got.iter().rfind(|p| p["uri"] == config).unwrap();
    assert_eq!(
        summary(c),
        ["1:2-1:9 E unknown-key", "2:19-2:27 E invalid-default-agent"]
    );

    // A partial update (only logLevel) keeps the severities.
    push(&s, json!({ "agentLsp": { "logLevel": "debug" } }));
    // Every file is re-published (the settings changed), still with unknown-key as an error.
    let mut got: Vec<(String, Vec<String>)> = s
        .take_publishes()
        .iter()
        .map(|p| (p["uri"].as_str().unwrap().to_string(), summary(p)))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (typo.clone(), vec!["2:0-2:4 E unknown-key".to_string()]),
            (
                config.clone(),
                vec![
                    "1:2-1:9 E unknown-key".to_string(),
                    "2:19-2:27 E invalid-default-agent".to_string()
                ]
            ),
        ]
    );
    s.open(&typo, "markdown", 1, "---\ndescription: Typo\ncolr: red\n---\nBody\n");
    assert_eq!(summary(&s.expect_version(&typo, 1)), ["2:0-2:4 E unknown-key"]);

    // Settings pushed without the `agentLsp` wrapper are understood too.
    push(&s, json!({ "severity": { "unknown-key": "warning" } }));
    let got = s.take_publishes();
    let t = got.iter().rfind(|p| p["uri"] == typo).unwrap();
    assert_eq!(summary(t), ["2:0-2:4 W unknown-key"]);
    assert_eq!(t["version"], 1, "an open document keeps its version: {t}");

    // A null push makes the server pull `workspace/configuration` (section agentLsp).
    let pulls = s.server_requests("workspace/configuration").len();
    s.set_config_reply(json!({ "severity": { "unknown-key": "hint" } }));
    push(&s, Value::Null);
    let reqs = s.wait_server_request("workspace/configuration", pulls + 1);
    assert_eq!(reqs.last().unwrap()["params"]["items"][0]["section"], "agentLsp");
    let t = s.expect_publish(&typo);
    assert_eq!(summary(&t), ["2:0-2:4 H unknown-key"]);
    s.take_publishes();
    s.finish();
}

/// `"default"` as a severity gives a rule back its own severity (README: `severity` maps a
/// rule code to ... `off` or `default`), in a table that overrides other rules; it is a level
/// the server knows, not an unknown value it skips with a warning.
#[test]
fn severity_default_restores_the_rule_severity() {
    let typo_text = "---\ndescription: Typo\ncolr: red\npermission:\n  bash:\n    \"git log*\": allow\n---\nBody\n";
    let ws = workspace(&[(".opencode/agents/typo.md", typo_text)]);
    let root = root_of(&ws);
    let setup = Setup {
        init_options: Some(json!({ "severity": { "unknown-key": "error", "broad-pattern": "hint" } })),
        ..Setup::default()
    };
    let mut s = Server::start(&root, setup);
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    assert_eq!(
        summary(&s.expect_publish(&typo)),
        ["2:0-2:4 E unknown-key", "5:4-5:14 H broad-pattern"]
    );
    s.assert_quiet();
    // unknown-key back to its own severity (warning); broad-pattern still overridden.
    let push = |s: &Server, v: Value| s.notify("workspace/didChangeConfiguration", json!({ "settings": v }));
    push(
        &s,
        json!({ "agentLsp": { "severity": { "unknown-key": "default", "broad-pattern": "hint" } } }),
    );
    assert_eq!(
        summary(&s.expect_publish(&typo)),
        ["2:0-2:4 W unknown-key", "5:4-5:14 H broad-pattern"]
    );
    s.assert_quiet();
    // And for a rule whose own severity is info.
    push(
        &s,
        json!({ "agentLsp": { "severity": { "unknown-key": "off", "broad-pattern": "default" } } }),
    );
    assert_eq!(summary(&s.expect_publish(&typo)), ["5:4-5:14 I broad-pattern"]);
    // A level the server does not know is logged; `default` never was.
    push(&s, json!({ "agentLsp": { "severity": { "broad-pattern": "loud" } } }));
    s.wait_log("unknown severity `loud` for `broad-pattern`");
    assert!(
        !s.stderr_text().contains("`default`"),
        "`default` was treated as unknown\n{}",
        s.stderr_text()
    );
    s.take_publishes();
    s.finish();
}

#[test]
fn settings_pulled_at_initialized() {
    let ws = workspace(&[(
        ".opencode/agents/typo.md",
        "---\ndescription: Typo\ncolr: red\n---\nBody\n",
    )]);
    let root = root_of(&ws);
    let setup = Setup {
        config_reply: json!({ "severity": { "unknown-key": "error" } }),
        ..Setup::default()
    };
    let mut s = Server::start(&root, setup);
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    // The scan publishes with the defaults, then the pulled settings re-publish.
    assert_eq!(summary(&s.expect_publish(&typo)), ["2:0-2:4 W unknown-key"]);
    assert_eq!(summary(&s.expect_publish(&typo)), ["2:0-2:4 E unknown-key"]);
    s.finish();
}

#[test]
fn global_config_setting_resolves_agents_from_a_directory() {
    let ws = workspace(&[("opencode.json", "{ \"default_agent\": \"shared\" }\n")]);
    let global = workspace(&[("agents/shared.md", "---\nmode: primary\n---\nShared.\n")]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let config = uri_of(&root.join("opencode.json"));
    assert_eq!(
        summary(&s.expect_publish(&config)),
        ["0:19-0:27 E invalid-default-agent"]
    );
    // An open agent with unsaved edits keeps its buffer text and version across the rebuild.
    let local = uri_of(&root.join(".opencode/agents/local.md"));
    let (mut doc, _) = Doc::open(&mut s, &local, "markdown", REV_PRIMARY);
    doc.replace(&mut s, "primary", "main");
    let dir = root_of(&global);
    s.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "agentLsp": { "globalConfig": dir.display().to_string() } } }),
    );
    assert!(summary(&s.expect_publish(&config)).is_empty());
    let p = s.expect_publish(&local);
    assert_eq!(summary(&p), ["2:6-2:10 E invalid-value"]);
    assert_eq!(p["version"], doc.version);
    s.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "agentLsp": { "globalConfig": false } } }),
    );
    assert_eq!(
        summary(&s.expect_publish(&config)),
        ["0:19-0:27 E invalid-default-agent"]
    );
    // The open agent is re-published too; the files of the global directory never are.
    let rest: Vec<(Value, Value, Vec<String>)> = s
        .take_publishes()
        .iter()
        .map(|p| (p["uri"].clone(), p["version"].clone(), summary(p)))
        .collect();
    assert_eq!(
        rest,
        [(
            json!(local),
            json!(doc.version),
            vec!["2:6-2:10 E invalid-value".to_string()]
        )]
    );
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 8. Close
// ---------------------------------------------------------------------------------------------

#[test]
fn close_of_a_document_not_on_disk_clears_it() {
    let ws = workspace(&[("opencode.json", "{\n  \"default_agent\": \"ghost\"\n}\n")]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let config = uri_of(&root.join("opencode.json"));
    assert_eq!(
        summary(&s.expect_publish(&config)),
        ["1:19-1:26 E invalid-default-agent"]
    );
    // An unsaved buffer for a path that was never written: it defines the agent, with an error.
    let ghost = uri_of(&root.join(".opencode/agents/ghost.md"));
    s.open(&ghost, "markdown", 1, "---\nmode: primary\ncolr: red\n---\nBody\n");
    assert_eq!(summary(&s.expect_version(&ghost, 1)), ["2:0-2:4 W unknown-key"]);
    assert!(summary(&s.expect_publish(&config)).is_empty());
    s.assert_quiet();
    s.close(&ghost);
    let g = s.expect_publish(&ghost);
    assert!(summary(&g).is_empty(), "{g}");
    assert_eq!(g["version"], Value::Null);
    assert_eq!(
        summary(&s.expect_publish(&config)),
        ["1:19-1:26 E invalid-default-agent"]
    );
    s.finish();
}

#[test]
fn close_of_a_document_on_disk_republishes_the_disk_text() {
    let disk = "---\ndescription: Typo\ncolr: red\n---\nBody\n";
    let ws = workspace(&[(".opencode/agents/typo.md", disk)]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    assert_eq!(summary(&s.expect_publish(&typo)), ["2:0-2:4 W unknown-key"]);
    s.open(&typo, "markdown", 1, disk);
    assert_eq!(summary(&s.expect_version(&typo, 1)), ["2:0-2:4 W unknown-key"]);
    // Edit the buffer without saving: fix the key, break the mode.
    let (change, text) = replace(disk, "colr: red", "mode: main", s.enc);
    s.change(&typo, 2, vec![change]);
    assert_eq!(summary(&s.expect_version(&typo, 2)), ["2:6-2:10 E invalid-value"]);
    assert!(text.contains("mode: main"));
    s.close(&typo);
    let p = s.expect_publish(&typo);
    assert_eq!(summary(&p), ["2:0-2:4 W unknown-key"]);
    assert_eq!(p["version"], Value::Null);
    s.finish();
}

#[test]
fn a_file_on_disk_that_is_not_analysed_gets_its_finding() {
    // A binary agent file: published with its `unchecked-file` warning on the first line, as
    // `check` reports it, beside the agent that is analysed.
    let ws = workspace(&[
        (".opencode/agents/bin.md", "---\nmode: \0\n---\n"),
        (
            ".opencode/agents/typo.md",
            "---\ndescription: Typo\ncolr: red\n---\nBody\n",
        ),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let bin = uri_of(&root.join(".opencode/agents/bin.md"));
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    let p = s.expect_publish(&bin);
    assert_eq!(summary(&p), ["0:0-0:0 W unchecked-file"]);
    assert!(
        p["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("agent-lsp did not analyse this file: it holds NUL bytes"),
        "{p:#}"
    );
    assert_eq!(summary(&s.expect_publish(&typo)), ["2:0-2:4 W unknown-key"]);
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 9. Documents outside the workspace index
// ---------------------------------------------------------------------------------------------

#[test]
fn untitled_documents_get_single_file_analysis() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::utf8());
    let md = "untitled:Untitled-1";
    let mut text = "---\nmode: main\ncolor: 🚀 teal\n---\nBody\n".to_string();
    s.open(md, "markdown", 1, &text);
    let p = s.expect_version(md, 1);
    assert_eq!(summary(&p), ["1:6-1:10 E invalid-value", "2:7-2:16 E invalid-color"]);
    let (change, after) = replace(&text, "main", "primary", s.enc);
    text = after;
    s.change(md, 2, vec![change]);
    let p = s.expect_version(md, 2);
    assert_eq!(summary(&p), ["2:7-2:16 E invalid-color"]);
    assert_eq!(diag_at(&p, 0)["range"], range_of(&text, "🚀 teal", s.enc));

    // JSON declaring opencode's schema.
    let json_doc = "untitled:Untitled-2";
    let json_text = "{ \"$schema\": \"https://opencode.ai/config.json\", \"agnet\": {} }";
    s.open(json_doc, "json", 1, json_text);
    let p = s.expect_version(json_doc, 1);
    assert_eq!(summary(&p), ["0:48-0:55 W unknown-key"]);
    assert_eq!(diag_at(&p, 0)["range"], range_of(json_text, "\"agnet\"", s.enc));
    // Plain Markdown is not an agent: an empty publish.
    s.open("untitled:notes", "markdown", 1, "# Notes\nmode: main\n");
    assert!(summary(&s.expect_version("untitled:notes", 1)).is_empty());
    // A Markdown file with a frontmatter outside every opencode location: a blog post is not an
    // agent, but a file in an `agents/` folder is analysed on its own.
    let post = uri_of(&root.join("docs/post.md"));
    s.open(&post, "markdown", 1, "---\ntitle: Hello\n---\nBody\n");
    assert!(summary(&s.expect_version(&post, 1)).is_empty());
    let notes = uri_of(&root.join("drafts/agents/agent-draft.md"));
    s.open(&notes, "markdown", 1, "---\nmode: main\n---\nBody\n");
    assert_eq!(summary(&s.expect_version(&notes, 1)), ["1:6-1:10 E invalid-value"]);
    // Closing clears.
    s.close(md);
    assert!(summary(&s.expect_publish(md)).is_empty());
    s.close(&notes);
    assert!(summary(&s.expect_publish(&notes)).is_empty());
    s.finish();
}

#[test]
fn paths_with_spaces_and_non_ascii_characters() {
    // Clients percent-encode paths in URIs; the server must decode them to find the file.
    let ws = workspace(&[
        ("my project é/opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        ("my project é/.opencode/agents/rev.md", REV_PRIMARY),
    ]);
    let root = root_of(&ws).join("my project é");
    let mut s = Server::start(&root, Setup::default());
    s.assert_quiet();
    let rev = uri_of(&root.join(".opencode/agents/rev.md"));
    let config = uri_of(&root.join("opencode.json"));
    assert!(rev.contains("my%20project%20%C3%A9/"), "{rev}");
    let (mut doc, p) = Doc::open(&mut s, &rev, "markdown", REV_PRIMARY);
    assert!(summary(&p).is_empty());
    let p = doc.replace(&mut s, "primary", "subagent");
    assert!(summary(&p).is_empty());
    // Cross-file: the open buffer is the workspace's rev.md, and the config is published under
    // the same spelling of its URI as the client would use.
    let c = s.expect_publish(&config);
    assert_eq!(summary(&c), ["1:19-1:24 E invalid-default-agent"]);
    assert_eq!(diag_at(&c, 0)["relatedInformation"][0]["location"]["uri"], rev);
    s.finish();
}

/// A byte-order mark that the client keeps in the text is a character like any other for LSP
/// positions: incoming changes count it (the rope does), so outgoing ranges must count it too.
fn bom_columns(enc: Enc) {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::for_enc(enc));
    let uri = uri_of(&root.join("opencode.json"));
    let text = "\u{feff}{ \"agnet\": {} }\n";
    let (mut doc, p) = Doc::open(&mut s, &uri, "json", text);
    assert_eq!(diag_at(&p, 0)["range"], doc.range_of("\"agnet\""), "{p}");
    // An edit computed with the BOM counted lands where the client meant it.
    let p = doc.replace(&mut s, "agnet", "agent");
    assert!(summary(&p).is_empty(), "{p}");
    let p = doc.replace(&mut s, "agent", "agnet");
    assert_eq!(diag_at(&p, 0)["range"], doc.range_of("\"agnet\""), "{p}");
    s.finish();
}

#[test]
fn bom_columns_utf16() {
    bom_columns(Enc::Utf16);
}

#[test]
fn bom_columns_utf8() {
    bom_columns(Enc::Utf8);
}

/// A file outside every workspace folder that is opened is analysed with the workspace; once
/// closed it is no longer the user's concern, and its diagnostics should be cleared.
#[test]
fn close_of_a_file_outside_the_workspace_folders_clears_it() {
    let ws = workspace(&[]);
    let other = workspace(&[(".opencode/agents/far.md", REV_MAIN)]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    s.assert_quiet();
    let far = uri_of(&root_of(&other).join(".opencode/agents/far.md"));
    s.open(&far, "markdown", 1, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&far, 1)), ["2:6-2:10 E invalid-value"]);
    s.close(&far);
    let p = s.expect_publish(&far);
    assert!(summary(&p).is_empty(), "still published after close: {p}");
    s.finish();
}

#[test]
fn no_workspace_folder() {
    // A client started on a single file sends no rootUri and no workspace folders.
    let ws = workspace(&[("opencode.json", "{ \"agnet\": {} }\n")]);
    let root = root_of(&ws);
    let mut s = Server::spawn(&root);
    let mut params = s.initialize_params(&Setup::default());
    params["rootUri"] = Value::Null;
    params.as_object_mut().unwrap().remove("workspaceFolders");
    s.request("initialize", params).unwrap();
    s.notify("initialized", json!({}));
    s.wait_server_request("workspace/configuration", 1);
    // Nothing is scanned.
    s.assert_quiet();
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    s.open(&uri, "markdown", 1, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 1)), ["2:6-2:10 E invalid-value"]);
    s.close(&uri);
    assert!(summary(&s.expect_publish(&uri)).is_empty());
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 10. Lifecycle
// ---------------------------------------------------------------------------------------------

/// `agent-lsp serve --stdio` (what several editors pass) is the same server on stdin/stdout.
#[test]
fn serve_with_the_stdio_flag_speaks_lsp() {
    let ws = workspace(&[(".opencode/agents/rev.md", REV_MAIN)]);
    let root = root_of(&ws);
    let mut s = Server::spawn_with_args(&root, &["serve", "--stdio"]);
    let result = s.initialize(&Setup::default());
    assert_eq!(result["serverInfo"]["name"], "agent-lsp", "{result}");
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-16", "{result}");
    s.notify("initialized", json!({}));
    s.wait_server_request("workspace/configuration", 1);
    // The scan publishes the workspace's diagnostics; an opened document gets its own.
    let rev = uri_of(&root.join(".opencode/agents/rev.md"));
    assert_eq!(summary(&s.expect_publish(&rev)), ["2:6-2:10 E invalid-value"]);
    s.open(&rev, "markdown", 1, REV_PRIMARY);
    assert!(summary(&s.expect_version(&rev, 1)).is_empty());
    s.finish();
}

const AGENT_WITH_MISTAKES: &str = "---\ndescription: Reviews code\nmode: subagent\ntemprature: 0.2\nmaxSteps: 5\npermission:\n  bash:\n    \"git *\": allow\n    \"*\": ask\n  edit: deny\ncolor: \"#12345\"\n---\nReview.\n";

/// One line per diagnostic: its summary and its message.
fn with_messages(publish: &Value) -> String {
    let summaries = summary(publish);
    let mut out = String::new();
    for (i, line) in summaries.iter().enumerate() {
        out += &format!("{line}: {}\n", diag_at(publish, i)["message"].as_str().unwrap_or("?"));
    }
    out
}

/// `serve --for-agents` (what `setup opencode` and the Claude Code plugin start): every finding
/// that changes what the runtime does is an error, since agent clients show the model only
/// errors, and a fix is told in the message; a finding that works as written keeps its severity.
#[test]
fn for_agents_publishes_runtime_changing_findings_as_errors_with_their_fix() {
    let ws = workspace(&[(".opencode/agents/rev.md", AGENT_WITH_MISTAKES)]);
    let root = root_of(&ws);
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    let mut editor = Server::start(&root, Setup::default());
    let in_editor = editor.expect_publish(&uri);
    editor.finish();
    // As opencode starts it: no `workspace/configuration`, the file opened at version 0.
    let mut agent = Server::spawn_with_args(&root, &["serve", "--for-agents"]);
    agent.initialize(&Setup {
        configuration: false,
        ..Setup::default()
    });
    agent.notify("initialized", json!({}));
    let for_agent = agent.expect_publish(&uri);
    agent.open(&uri, "markdown", 0, AGENT_WITH_MISTAKES);
    assert_eq!(with_messages(&agent.expect_version(&uri, 0)), with_messages(&for_agent));
    // Claude Code saves after each Write and Edit: a save is taken quietly.
    agent.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    agent.sync();
    assert!(
        !agent.stderr_text().contains("not implemented"),
        "{}",
        agent.stderr_text()
    );
    agent.finish();
    expect![[r##"
        3:0-3:10 W unknown-key: `temprature` is not an agent field; opencode passes it to the model provider as `options.temprature`. Did you mean `temperature`?
        4:0-4:8 W deprecated-field: `maxSteps` is deprecated; opencode still reads it as `steps`. Rename it to `steps`
        7:4-7:11 W shadowed-rule: this rule never applies: the later rule "*": ask matches everything it matches, and opencode uses the last matching rule. Put the broader rule first
        10:7-10:15 E invalid-color: invalid color "#12345": opencode accepts `#` and six hex digits, or a theme color (primary, secondary, accent, success, warning, error, info); opencode refuses to load the configuration.
    "##]]
    .assert_eq(&with_messages(&in_editor));
    expect![[r##"
        3:0-3:10 E unknown-key: `temprature` is not an agent field; opencode passes it to the model provider as `options.temprature`. Did you mean `temperature`?
        Fix: Replace with `temperature`.
        4:0-4:8 W deprecated-field: `maxSteps` is deprecated; opencode still reads it as `steps`. Rename it to `steps`
        Fix: Rename `maxSteps` to `steps`.
        7:4-7:11 E shadowed-rule: this rule never applies: the later rule "*": ask matches everything it matches, and opencode uses the last matching rule. Put the broader rule first
        Fix: Move the catch-all "*": ask to the front.
        10:7-10:15 E invalid-color: invalid color "#12345": opencode accepts `#` and six hex digits, or a theme color (primary, secondary, accent, success, warning, error, info); opencode refuses to load the configuration.
    "##]]
    .assert_eq(&with_messages(&for_agent));
}

/// One cause, one finding: a catch-all that makes rules dead is one warning, on it; the dead rules
/// are faded hints that say which finding they belong to, in the editor only (a model reads no
/// faded text: for an agent client the related information says it).
#[test]
fn the_places_a_finding_makes_lost_are_faded_hints_in_the_editor_only() {
    let text = "---\ndescription: Deploys 配備 🚀\nmode: subagent\npermission:\n  bash:\n    \"git *\": allow\n    \"npm *\": allow\n    \"*\": deny\n---\nDeploy.\n";
    let ws = workspace(&[(".opencode/agents/deploy.md", text)]);
    let root = root_of(&ws);
    let uri = uri_of(&root.join(".opencode/agents/deploy.md"));
    let mut editor = Server::start(&root, Setup::default());
    let in_editor = editor.expect_publish(&uri);
    editor.finish();
    expect![[r#"
        7:4-7:7 W shadowed-rule: this catch-all makes 2 rules above it dead: opencode uses the last matching rule, and it matches every input they match. Put it first so that they decide
        5:4-5:11 H shadowed-rule: never applies: `bash` "git *": allow, because of the shadowed-rule on line 8
        6:4-6:11 H shadowed-rule: never applies: `bash` "npm *": allow, because of the shadowed-rule on line 8
    "#]]
    .assert_eq(&with_messages(&in_editor));
    let hint = diag_at(&in_editor, 1);
    assert_eq!(hint["tags"], json!([1]), "{hint}");
    assert_eq!(
        hint["relatedInformation"][0]["location"]["range"]["start"]["line"], 7,
        "{hint}"
    );
    let mut agent = Server::spawn_with_args(&root, &["serve", "--for-agents"]);
    agent.initialize(&Setup {
        configuration: false,
        ..Setup::default()
    });
    agent.notify("initialized", json!({}));
    let for_agent = agent.expect_publish(&uri);
    agent.finish();
    assert_eq!(summary(&for_agent), ["7:4-7:7 E shadowed-rule"]);
}

#[test]
fn shutdown_then_exit_is_status_0() {
    let ws = workspace(&[]);
    let s = Server::start(&root_of(&ws), Setup::default());
    s.finish();
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let ws = workspace(&[]);
    let mut s = Server::start(&root_of(&ws), Setup::default());
    s.sync();
    s.notify("exit", Value::Null);
    let status = s.wait_exit().expect("the server exits");
    assert_eq!(status.code(), Some(1));
}

/// `exit` sent right after `shutdown`, without waiting for its reply: the shutdown request was
/// received, so status 0.
#[test]
fn exit_right_after_shutdown_without_waiting_is_status_0() {
    let ws = workspace(&[]);
    let mut s = Server::start(&root_of(&ws), Setup::default());
    s.sync();
    s.send(&json!({"jsonrpc": "2.0", "id": 9999, "method": "shutdown"}));
    s.notify("exit", Value::Null);
    let status = s.wait_exit();
    assert_eq!(status.and_then(|st| st.code()), Some(0), "{}", s.stderr_text());
}

/// Before `initialize`, a notification (here `didOpen`) is dropped, as the protocol asks, and
/// the log says which; a request gets error -32002, logged too.
#[test]
fn messages_before_initialize_are_dropped_or_refused_and_logged() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::spawn(&root);
    let uri = uri_of(&root.join(".opencode/agents/a.md"));
    s.open(&uri, "markdown", 1, "---\nmode: main\n---\nx\n");
    s.wait_log("textDocument/didOpen before initialize: dropped");
    let error = s
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 7}}),
        )
        .unwrap_err();
    assert_eq!(error["code"], -32002, "{error}");
    s.wait_log("textDocument/hover before initialize");
    // Once initialized, the document dropped is not open: a hover finds nothing there.
    s.initialize(&Setup::default());
    s.notify("initialized", json!({}));
    s.sync();
    s.take_publishes();
    let hover = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 7}}),
    );
    assert_eq!(hover, Ok(Value::Null), "{}", s.stderr_text());
    s.finish();
}

#[test]
fn closing_stdin_ends_the_process() {
    let ws = workspace(&[]);
    let mut s = Server::start(&root_of(&ws), Setup::default());
    s.sync();
    s.close_stdin();
    let status = s.wait_exit().expect("the server exits when stdin closes");
    // Without a shutdown request: 1, as for `exit`.
    assert_eq!(status.code(), Some(1), "{status:?}");
}

#[test]
fn closing_stdin_after_shutdown_is_status_0() {
    let ws = workspace(&[]);
    let mut s = Server::start(&root_of(&ws), Setup::default());
    s.sync();
    assert_eq!(s.request("shutdown", Value::Null), Ok(Value::Null));
    s.close_stdin();
    let status = s.wait_exit().expect("the server exits when stdin closes");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

#[test]
fn closing_stdin_before_initialize_ends_the_process() {
    let ws = workspace(&[]);
    let mut s = Server::spawn(&root_of(&ws));
    s.close_stdin();
    let status = s.wait_exit();
    assert_eq!(status.and_then(|st| st.code()), Some(1), "{}", s.stderr_text());
}

/// `exit` before `initialize` (so without `shutdown`) ends the process with status 1, as the
/// protocol asks.
#[test]
fn exit_before_initialize_is_status_1() {
    let ws = workspace(&[]);
    let mut s = Server::spawn(&root_of(&ws));
    s.notify("exit", Value::Null);
    let status = s.wait_exit();
    assert_eq!(status.and_then(|st| st.code()), Some(1), "{}", s.stderr_text());
}

/// `shutdown` then `exit` before `initialized` (a client that gives up during the handshake):
/// status 0.
#[test]
fn shutdown_and_exit_right_after_initialize_is_status_0() {
    let ws = workspace(&[]);
    let mut s = Server::spawn(&root_of(&ws));
    s.initialize(&Setup::default());
    assert_eq!(s.request("shutdown", Value::Null), Ok(Value::Null));
    s.notify("exit", Value::Null);
    let status = s.wait_exit();
    assert_eq!(status.and_then(|st| st.code()), Some(0), "{}", s.stderr_text());
}

/// A client that never answers the server's requests (`client/registerCapability` after
/// `initialized`), then shuts the server down: the `initialized` handler's future still awaits
/// the reply, and the transport waits for every handler future before it returns.
#[test]
fn exit_while_a_server_request_is_unanswered() {
    let ws = workspace(&[]);
    let setup = Setup {
        answer_requests: false,
        ..Setup::default()
    };
    let mut s = Server::start(&root_of(&ws), setup);
    s.sync();
    assert_eq!(s.request("shutdown", Value::Null), Ok(Value::Null));
    s.notify("exit", Value::Null);
    let status = s.wait_exit();
    assert_eq!(status.and_then(|st| st.code()), Some(0), "{}", s.stderr_text());
}

#[test]
fn closing_stdin_while_a_server_request_is_unanswered() {
    let ws = workspace(&[]);
    let setup = Setup {
        answer_requests: false,
        ..Setup::default()
    };
    let mut s = Server::start(&root_of(&ws), setup);
    s.sync();
    s.close_stdin();
    let status = s.wait_exit();
    // Without a shutdown request: 1.
    assert_eq!(status.and_then(|st| st.code()), Some(1), "{}", s.stderr_text());
}

#[test]
fn requests_after_shutdown_are_refused() {
    let ws = workspace(&[]);
    let mut s = Server::start(&root_of(&ws), Setup::default());
    s.sync();
    assert_eq!(s.request("shutdown", Value::Null), Ok(Value::Null));
    let err = s.request("agentLsp/debugPanic", Value::Null).unwrap_err();
    assert_eq!(err["code"], -32600, "{err}");
    s.notify("exit", Value::Null);
    assert_eq!(s.wait_exit().and_then(|st| st.code()), Some(0));
}

// ---------------------------------------------------------------------------------------------
// 11. Panic safety and bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn panic_in_a_request_is_an_error_reply() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let err = s.request("agentLsp/debugPanic", json!({})).unwrap_err();
    assert_eq!(err["code"], -32603, "{err}");
    assert!(err["message"].as_str().unwrap().contains("deliberate panic"), "{err}");
    // Still serving, with its state intact.
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    s.open(&uri, "markdown", 1, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 1)), ["2:6-2:10 E invalid-value"]);
    let err = s.request("agentLsp/debugPanic", json!({})).unwrap_err();
    assert_eq!(err["code"], -32603, "{err}");
    s.change_full(&uri, 2, REV_PRIMARY);
    assert!(summary(&s.expect_version(&uri, 2)).is_empty());
    s.finish();
}

#[test]
fn unknown_methods_and_bad_params() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let err = s.request("agentLsp/noSuchMethod", json!({})).unwrap_err();
    assert_eq!(err["code"], -32601, "{err}");
    // A method the server implements, with params that do not deserialise: invalid params
    // (-32602), as JSON-RPC defines it; method-not-found (-32601) would tell the client that
    // hover is not supported at all. The reply comes from tower-lsp-server's router, which
    // deserialises the params of every LSP method before calling the handler.
    let err = s.request("textDocument/hover", json!({})).unwrap_err();
    assert_eq!(err["code"], -32602, "{err}");
    assert!(err["message"].as_str().unwrap().contains("textDocument"), "{err}");
    // The same method with valid params is answered (no hover on a document it does not know).
    let nowhere = json!({ "textDocument": { "uri": uri_of(&root.join("nowhere.md")) }, "position": { "line": 0, "character": 0 } });
    assert_eq!(s.request("textDocument/hover", nowhere.clone()), Ok(Value::Null));
    // A standard method the server does not provide (no declarationProvider): -32601.
    let err = s.request("textDocument/declaration", nowhere).unwrap_err();
    assert_eq!(err["code"], -32601, "{err}");
    // Unknown notifications and garbage params are ignored.
    s.notify("agentLsp/noSuchNotification", json!({ "x": 1 }));
    s.notify("$/cancelRequest", json!({ "id": 12345 }));
    s.notify("textDocument/didOpen", json!({ "garbage": true }));
    s.notify("textDocument/didOpen", json!([1, 2, 3]));
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": 42 } }));
    s.notify("workspace/didChangeWatchedFiles", json!({ "changes": "no" }));
    // Well-formed but about documents that were never opened, or not file URIs.
    s.change_full("file:///nonexistent/agents/x.md", 2, "---\nmode: main\n---\n");
    s.close("file:///nonexistent/agents/y.md");
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": "https://example.com/opencode.json", "type": 1 }] }),
    );
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    s.open(&uri, "markdown", 1, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 1)), ["2:6-2:10 E invalid-value"]);
    s.finish();
}

/// Undecodable bodies (with correct framing) are answered with an error and skipped (the
/// transport guard in `src/lsp/transport.rs`; tower-lsp-server alone would stop reading).
#[test]
fn undecodable_bodies_do_not_end_the_session() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    s.open(&uri, "markdown", 1, REV_PRIMARY);
    s.expect_version(&uri, 1);
    // A client that split a surrogate pair between two changes: JSON that JavaScript accepts and
    // serde_json rejects. The server repairs the lone surrogate to U+FFFD and applies the change.
    let body = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{uri}","version":2}},"contentChanges":[{{"text":"\ud83d"}}]}}}}"#
    );
    s.send_raw(&frame(&body));
    let p = s.expect_version(&uri, 2);
    // The repaired text is one U+FFFD: a Markdown agent without frontmatter.
    assert_eq!(summary(&p), ["0:0-0:1 W no-frontmatter"], "{p}");
    // A body that is not JSON at all, and JSON that is not a JSON-RPC message.
    s.send_raw(&frame("{ this is not json"));
    assert_eq!(s.recv("the parse error")["error"]["code"], -32700);
    s.send_raw(&frame("{\"hello\": 1}"));
    assert_eq!(s.recv("the invalid-request error")["error"]["code"], -32600);
    // Still serving.
    s.change_full(&uri, 3, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 3)), ["2:6-2:10 E invalid-value"]);
    s.finish();
}

// ---------------------------------------------------------------------------------------------
// 12. Replay of random incremental edits
// ---------------------------------------------------------------------------------------------

const REALISTIC_AGENT: &str = "---\r
description: Reviews pull requests for correctness, style and security 审查代码 🚀\r
mode: subagent\r
model: anthropic/claude-sonnet-4\r
temperature: 0.1\r
color: \"#FF5733\"\r
steps: 8\r
permission:\r
  edit: deny\r
  webfetch: ask\r
  bash:\r
    \"*\": ask\r
    \"git diff*\": allow\r
    \"git log *\": allow\r
    \"rm -rf *\": deny\r
    \"*\": allow\n\
tools:\n\
  write: false\n\
colr: blue\n\
---\n\
You are a careful reviewer. 审查 every change 👍🏽.\n\
\n\
- Check error handling\r\n\
- Check tests 🧪\n";

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SNIPPETS: &[&str] = &[
    // Benign text, often.
    "a",
    "x",
    "z",
    " ",
    "  ",
    "e",
    "mode",
    "primary",
    "deny",
    "allow",
    "ask",
    "审查",
    "代码",
    "🚀",
    "👍🏽",
    "é",
    "a",
    "x",
    "z",
    " ",
    "t",
    "审",
    "🚀",
    "é",
    "ok",
    // Line breaks of every kind.
    "\n",
    "\r\n",
    "\r",
    "\n",
    "\r\n",
    // YAML punctuation.
    "\t",
    ": ",
    "- ",
    "#",
    "\"",
    "'",
    ":",
    "{",
    "}",
    "[",
    "]",
    ",",
    "*",
    "&a ",
    "*a",
    "|",
    ">",
    "---",
    // Whole lines.
    "edit: deny\n",
    "\"git *\": ask\n",
    "permission:\n  bash: allow\n",
    "colour: red\r\n",
    "# 注释 😀\n",
];

/// A random char boundary of `text` that does not split a CRLF; mostly after the first line,
/// so that the frontmatter usually survives and the diagnostics stay interesting.
fn random_offset(rng: &mut Rng, text: &str) -> usize {
    let from = if rng.below(10) == 0 {
        0
    } else {
        text.find('\n').map_or(0, |i| i + 1)
    };
    let bytes = text.as_bytes();
    let boundaries: Vec<usize> = (from..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .filter(|&i| !(i > 0 && i < text.len() && bytes[i - 1] == b'\r' && bytes[i] == b'\n'))
        .collect();
    boundaries[rng.below(boundaries.len())]
}

/// One random change against `text`: the JSON change and the new text.
fn random_change(rng: &mut Rng, text: &str, enc: Enc) -> (Value, String) {
    // Now and then, or when the text grew large, put the original text back with one ranged
    // change over everything.
    if rng.below(30) == 0 || text.len() > 2500 {
        return edit(text, 0, text.len(), REALISTIC_AGENT, enc);
    }
    let start = random_offset(rng, text);
    let kind = rng.below(10);
    let end = if kind < 5 {
        // Delete 1 to 8 chars (sometimes up to 40), not splitting a CRLF at the end.
        let n = if rng.below(10) == 0 {
            1 + rng.below(40)
        } else {
            1 + rng.below(8)
        };
        let mut end = start + text[start..].chars().take(n).map(char::len_utf8).sum::<usize>();
        let bytes = text.as_bytes();
        if end > 0 && end < text.len() && bytes[end - 1] == b'\r' && bytes[end] == b'\n' {
            end += 1;
        }
        end
    } else {
        start
    };
    let insert = if end > start && kind < 3 {
        String::new()
    } else {
        let mut s = String::new();
        for _ in 0..1 + rng.below(2) {
            s.push_str(SNIPPETS[rng.below(SNIPPETS.len())]);
        }
        s
    };
    edit(text, start, end, &insert, enc)
}

/// A server on `root` whose scan publishes were read.
fn started(root: &std::path::Path, enc: Enc) -> Server {
    let mut s = Server::start(root, Setup::for_enc(enc));
    s.take_publishes();
    s
}

fn replay(enc: Enc, seed: u64) {
    let ws = workspace(&[
        ("opencode.json", "{\n  \"default_agent\": \"rev\"\n}\n"),
        (".opencode/agents/rev.md", REALISTIC_AGENT),
    ]);
    let root = root_of(&ws);
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    let mut s = started(&root, enc);
    // The reference: another server given each checkpoint's text in full.
    let mut reference = started(&root, enc);
    let mut rng = Rng(seed);
    let mut text = REALISTIC_AGENT.to_string();
    s.open(&uri, "markdown", 0, &text);
    reference.open(&uri, "markdown", 0, &text);
    assert_eq!(s.expect_version(&uri, 0), reference.expect_version(&uri, 0));
    let mut edits = 0;
    let mut version = 0;
    let mut checkpoints = 0;
    let mut interesting = 0;
    while edits < 1000 {
        // Mostly one change per message, sometimes several applied in sequence.
        let n = if rng.below(5) == 0 { 2 + rng.below(3) } else { 1 };
        let mut changes = Vec::new();
        for _ in 0..n {
            let (c, after) = random_change(&mut rng, &text, enc);
            changes.push(c);
            text = after;
            edits += 1;
        }
        version += 1;
        s.change(&uri, version, changes);
        if version % 50 == 0 || edits >= 1000 {
            let got = s.expect_version(&uri, version);
            reference.change_full(&uri, version, &text);
            let want = reference.expect_version(&uri, version);
            assert_eq!(
                got["diagnostics"],
                want["diagnostics"],
                "after {edits} edits ({}), text:\n{text:?}",
                enc.name()
            );
            checkpoints += 1;
            // Diagnostics past the first lines, where a wrong column or line would show.
            if summary(&got)
                .iter()
                .any(|d| !d.starts_with("0:") && !d.starts_with("1:"))
            {
                interesting += 1;
            }
            if std::env::var_os("REPLAY_VERBOSE").is_some() {
                eprintln!("{} v{version}: {:?}\n{text:?}", enc.name(), summary(&got));
            }
        }
    }
    assert!(checkpoints >= 15, "{checkpoints} checkpoints");
    assert!(
        interesting * 2 >= checkpoints,
        "only {interesting} of {checkpoints} checkpoints had diagnostics"
    );
    // And a fresh server opening the final text agrees too.
    let mut fresh = started(&root, enc);
    fresh.open(&uri, "markdown", version, &text);
    let want = fresh.expect_version(&uri, version);
    s.change(&uri, version + 1, Vec::new());
    let got = s.expect_version(&uri, version + 1);
    assert_eq!(got["diagnostics"], want["diagnostics"], "final text:\n{text:?}");
    // Drain what the edits published (opencode.json comes and goes) before finishing.
    s.take_publishes();
    reference.take_publishes();
    fresh.take_publishes();
    s.finish();
    reference.finish();
    fresh.finish();
}

#[test]
fn replay_random_edits_utf16() {
    replay(Enc::Utf16, 0x9E37_79B9_7F4A_7C15);
}

#[test]
fn replay_random_edits_utf8() {
    replay(Enc::Utf8, 0xD1B5_4A32_D192_ED03);
}

// ---------------------------------------------------------------------------------------------
// 13. Out-of-bounds changes
// ---------------------------------------------------------------------------------------------

#[test]
fn out_of_bounds_change_resynchronises() {
    let ws = workspace(&[(".opencode/agents/rev.md", REV_PRIMARY)]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let uri = uri_of(&root.join(".opencode/agents/rev.md"));
    s.open(&uri, "markdown", 1, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 1)), ["2:6-2:10 E invalid-value"]);
    let far = json!({
        "range": { "start": { "line": 500, "character": 0 }, "end": { "line": 500, "character": 3 } },
        "text": "x",
    });
    s.change(&uri, 2, vec![far]);
    // Re-read from disk: the disk text is valid.
    let p = s.expect_version(&uri, 2);
    assert!(summary(&p).is_empty(), "{p}");
    s.wait_log("out of bounds");
    // A full-text change brings it back in line.
    s.change_full(&uri, 3, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 3)), ["2:6-2:10 E invalid-value"]);
    // Then incremental changes work again.
    let (change, _) = replace(REV_MAIN, "main", "primary", s.enc);
    s.change(&uri, 4, vec![change]);
    assert!(summary(&s.expect_version(&uri, 4)).is_empty());
    s.finish();
}

#[test]
fn out_of_bounds_change_of_a_document_not_on_disk() {
    let ws = workspace(&[]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let uri = uri_of(&root.join(".opencode/agents/ghost.md"));
    s.open(&uri, "markdown", 1, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 1)), ["2:6-2:10 E invalid-value"]);
    // A valid first change, then one far past the end, in one message.
    let ok = json!({
        "range": { "start": { "line": 2, "character": 6 }, "end": { "line": 2, "character": 10 } },
        "text": "primary",
    });
    let far = json!({
        "range": { "start": { "line": 99, "character": 0 }, "end": { "line": 99, "character": 0 } },
        "text": "x",
    });
    s.change(&uri, 2, vec![ok, far]);
    let p = s.expect_version(&uri, 2);
    assert_eq!(p["version"], 2);
    s.wait_log("out of bounds");
    s.change_full(&uri, 3, REV_MAIN);
    assert_eq!(summary(&s.expect_version(&uri, 3)), ["2:6-2:10 E invalid-value"]);
    // The position just past the last line break is the end of the text, not out of bounds.
    let end = json!({
        "range": { "start": { "line": 5, "character": 0 }, "end": { "line": 5, "character": 0 } },
        "text": "More.\n",
    });
    s.change(&uri, 4, vec![end]);
    assert_eq!(summary(&s.expect_version(&uri, 4)), ["2:6-2:10 E invalid-value"]);
    s.finish();
}

/// The project file (`agent-lsp.toml`): its own mistakes are published on it; a change to it
/// (typed in the editor) re-publishes the files whose diagnostics it changes; an editor
/// setting for a code wins over it.
#[test]
fn the_project_file_is_read_and_followed_as_it_changes() {
    let ws = workspace(&[
        (
            ".opencode/agents/typo.md",
            "---\ndescription: Typo\ncolr: red\n---\nBody\n",
        ),
        ("agent-lsp.toml", "[rules]\nunknown-key = \"error\"\n"),
    ]);
    let root = root_of(&ws);
    let mut s = Server::start(&root, Setup::default());
    let typo = uri_of(&root.join(".opencode/agents/typo.md"));
    let toml = uri_of(&root.join("agent-lsp.toml"));
    let scan = s.take_publishes();
    let t = scan.iter().rfind(|p| p["uri"] == typo).expect("typo.md published");
    assert_eq!(summary(t), ["2:0-2:4 E unknown-key"]);
    // Typed in the editor: `off`, then a typo in the level (the rule keeps its default).
    s.open(&toml, "toml", 1, "[rules]\nunknown-key = \"error\"\n");
    s.change_full(&toml, 2, "[rules]\nunknown-key = \"off\"\n");
    s.sync();
    let got = s.take_publishes();
    let t = got.iter().rfind(|p| p["uri"] == typo).expect("typo.md re-published");
    assert!(summary(t).is_empty(), "{got:#?}");
    s.change_full(&toml, 3, "[rules]\nunknown-key = \"of\"\n");
    s.sync();
    let got = s.take_publishes();
    let t = got.iter().rfind(|p| p["uri"] == typo).expect("typo.md re-published");
    assert_eq!(summary(t), ["2:0-2:4 W unknown-key"]);
    let p = got
        .iter()
        .rfind(|p| p["uri"] == toml)
        .expect("agent-lsp.toml published");
    assert_eq!(summary(p), ["1:14-1:18 E invalid-value"]);
    // An editor setting for the code wins over the project file.
    s.change_full(&toml, 4, "[rules]\nunknown-key = \"off\"\n");
    s.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "agentLsp": { "severity": { "unknown-key": "hint" } } } }),
    );
    s.sync();
    let got = s.take_publishes();
    let t = got.iter().rfind(|p| p["uri"] == typo).expect("typo.md re-published");
    assert_eq!(summary(t), ["2:0-2:4 H unknown-key"]);
    s.finish();
}
