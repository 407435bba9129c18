//! End-to-end tests of command files and skills over real LSP pipes: the published
//! diagnostics, hover (what `/name a b c` sends, which agent runs it and how), completion in a
//! half-typed command, go to the agent a command names; hover on a skill (with which agent may
//! load it), a `skill` permission pattern that matches no skill, and go to the skill a pattern
//! names. Both position encodings, with CJK and emoji before the positions that matter.

mod lsp_support;

use lsp_support::*;
use serde_json::{Value, json};

const OC_CONFIG: &str = r#"{ "agent": { "rev": { "mode": "subagent", "description": "Reviews", "prompt": "Review.",
  "permission": { "skill": { "tdd": "deny", "td-*": "allow" } } } } }
"#;
/// `rev` is a subagent, so the command runs as a subtask (no `subtask` set).
const REVIEW: &str = "---\ndescription: 審査 🚀 a file\nagent: rev\n---\nReview $1, then run !`git diff $2`.\n";
const SHIP: &str = "---\ndescription: 出荷 🚀\nagent: revv\nsubtask: maybe\n---\nShip $ARGUMENTS.\n";
const SKILL: &str = "---\nname: tdd\ndescription: Red, green, refactor 🚀\n---\nSteps.\n";

fn start(enc: Enc) -> (tempfile::TempDir, std::path::PathBuf, Server) {
    let dir = workspace(&[
        ("opencode.json", OC_CONFIG),
        (".opencode/commands/review.md", REVIEW),
        (".opencode/commands/ship.md", SHIP),
        (".opencode/skills/tdd/SKILL.md", SKILL),
    ]);
    let root = root_of(&dir);
    let s = Server::start(&root, Setup::for_enc(enc));
    (dir, root, s)
}

fn at(uri: &str, text: &str, needle: &str, enc: Enc) -> Value {
    let (s, _) = find(text, needle);
    json!({ "textDocument": { "uri": uri }, "position": position(text, s + 1, enc) })
}

/// The (code, range) of each diagnostic of a publish.
fn codes_and_ranges(publish: &Value) -> Vec<(Value, Value)> {
    publish["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].clone(), d["range"].clone()))
        .collect()
}

fn range_of(text: &str, needle: &str, enc: Enc) -> Value {
    let (s, e) = find(text, needle);
    range(text, s, e, enc)
}

#[test]
fn command_diagnostics_hover_completion_and_definition() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let (_dir, root, mut s) = start(enc);
        let review = uri_of(&root.join(".opencode/commands/review.md"));
        let ship = uri_of(&root.join(".opencode/commands/ship.md"));
        let config = uri_of(&root.join("opencode.json"));
        // The scan: `ship.md` alone has problems, after CJK and emoji on its lines.
        let scan = s.take_publishes();
        let mine: Vec<&Value> = scan.iter().filter(|p| p["uri"] == json!(ship)).collect();
        assert_eq!(mine.len(), 1, "{scan:#?}");
        let got = codes_and_ranges(mine[0]);
        assert_eq!(
            got,
            [
                (json!("unknown-agent"), range_of(SHIP, "revv", enc)),
                (json!("invalid-type"), range_of(SHIP, "maybe", enc)),
            ]
        );
        assert!(
            scan.iter()
                .all(|p| p["uri"] != json!(review) || p["diagnostics"] == json!([]))
        );
        // Hover on the `agent` value: what the command does.
        let r = s
            .request("textDocument/hover", at(&review, REVIEW, "rev\n", enc))
            .unwrap();
        assert_eq!(
            r["contents"]["value"],
            "### `/review`: opencode command\n\n審査 🚀 a file\n\n- **runs with**: `rev` as a subtask\n- **model**: the agent's, else the session's\n- `` !`…` `` in the template **runs in your shell** when the command is used\n\n`/review one two three` sends:\n\n```\nReview one, then run !`git diff two three`.\n```\n"
        );
        let (v, _) = find(REVIEW, "rev\n");
        assert_eq!(r["range"], range(REVIEW, v, v + 3, enc));
        // Go to the agent a command names: its key in opencode.json.
        let def = s
            .request("textDocument/definition", at(&review, REVIEW, "rev\n", enc))
            .unwrap();
        let (k, _) = find(OC_CONFIG, "\"rev\"");
        assert_eq!(
            def,
            json!([{ "uri": config, "range": range(OC_CONFIG, k + 1, k + 4, enc) }])
        );
        // Completion in a new, half-typed command: keys, then the agents of the project.
        let new = uri_of(&root.join(".opencode/commands/new.md"));
        let text = "---\ndescription: 新しい 🚀\nagent: \n";
        s.open(&new, "markdown", 1, text);
        let _ = s.take_publishes();
        let (a, _) = find(text, "agent: ");
        let items = s
            .request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": new }, "position": position(text, a + 7, enc) }),
            )
            .unwrap();
        let labels: Vec<&str> = items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap())
            .collect();
        assert!(labels.contains(&"rev") && labels.contains(&"build"), "{labels:?}");
        assert!(!labels.contains(&"description"), "{labels:?}");
        let at_end = text.len();
        let items = s
            .request(
                "textDocument/completion",
                json!({ "textDocument": { "uri": new }, "position": position(text, at_end, enc) }),
            )
            .unwrap();
        let labels: Vec<&str> = items
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, ["model", "subtask", "variant"]);
    }
}

#[test]
fn skill_hover() {
    let (_dir, root, mut s) = start(Enc::Utf16);
    let skill = uri_of(&root.join(".opencode/skills/tdd/SKILL.md"));
    let config = uri_of(&root.join("opencode.json"));
    // `td-*` matches no skill of the project (`tdd`, opencode's `customize-opencode`).
    let scan = s.take_publishes();
    let got = codes_and_ranges(scan.iter().rfind(|p| p["uri"] == json!(config)).unwrap());
    assert_eq!(
        got,
        [(json!("unknown-skill"), range_of(OC_CONFIG, "\"td-*\"", Enc::Utf16))]
    );
    let r = s
        .request("textDocument/hover", at(&skill, SKILL, "tdd", Enc::Utf16))
        .unwrap();
    let md = r["contents"]["value"].as_str().unwrap();
    assert!(
        md.starts_with("### `tdd`: skill\n\nRed, green, refactor 🚀\n\nLoaded by opencode.\n"),
        "{md}"
    );
    // Which opencode agent may load it, and the rule that decides: `rev` is denied by its own
    // rule, `explore` by opencode's default, the others allowed by it (opencode's internal agents,
    // which load no skill, are not listed).
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| `")).collect();
    assert!(
        rows.iter()
            .any(|l| l.starts_with("| `rev` | no (hidden from it) | `skill \"tdd\": deny` opencode.json:2 |")),
        "{md}"
    );
    assert!(rows.contains(&"| `build` | yes | `*: allow` (default) |"), "{md}");
    assert!(
        rows.contains(&"| `explore` | no (hidden from it) | `*: deny` (default) |"),
        "{md}"
    );
    assert_eq!(rows.len(), 5, "{md}");
    assert_eq!(r["range"], range_of(SKILL, "tdd", Enc::Utf16));
    // Go to the skill a permission pattern names; `td-*` names none, so no location.
    let def = s
        .request("textDocument/definition", at(&config, OC_CONFIG, "\"tdd\"", Enc::Utf16))
        .unwrap();
    assert_eq!(
        def,
        json!([{ "uri": skill, "range": range_of(SKILL, "tdd", Enc::Utf16) }])
    );
    let none = s
        .request(
            "textDocument/definition",
            at(&config, OC_CONFIG, "\"td-*\"", Enc::Utf16),
        )
        .unwrap();
    assert_eq!(none, Value::Null);
}

/// A Claude Code command that loads only through the lenient retry, with a hint written as a
/// YAML list and `$1` in a shell snippet; a `SKILL.md` with `$0` in code, a mistyped tool and a
/// link to a file that does not exist yet.
const CC_COMMIT: &str = "---\ndescription: 提交 🚀 commit: staged\nargument-hint: [message]\n---\nCommit with message $ARGUMENTS.\n```sh\ngit log -1 --format=%s | awk '{print $1}'\n```\n";
const CC_SKILL: &str = "---\nname: review\ndescription: 審査 🚀\nallowed-tools: Rd, Grep\n---\nRead [the guide](references/guide.md), then run `scripts/check.sh $0`.\n";

#[test]
fn claude_commands_and_skills_as_claude_code_expands_them() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let dir = workspace(&[
            (".claude/commands/git/commit.md", CC_COMMIT),
            (".claude/skills/review/SKILL.md", CC_SKILL),
        ]);
        let root = root_of(&dir);
        let mut s = Server::start(&root, Setup::for_enc(enc));
        let commit = uri_of(&root.join(".claude/commands/git/commit.md"));
        let skill = uri_of(&root.join(".claude/skills/review/SKILL.md"));
        let scan = s.take_publishes();
        let got = codes_and_ranges(scan.iter().rfind(|p| p["uri"] == json!(commit)).unwrap());
        assert_eq!(
            got,
            [
                (
                    json!("lenient-parse"),
                    range_of(CC_COMMIT, "提交 🚀 commit: staged", enc)
                ),
                (json!("invalid-type"), range_of(CC_COMMIT, "[message]", enc)),
                (json!("placeholder-in-code"), range_of(CC_COMMIT, "$1", enc)),
            ]
        );
        let got = codes_and_ranges(scan.iter().rfind(|p| p["uri"] == json!(skill)).unwrap());
        assert_eq!(
            got,
            [
                (json!("unknown-tool"), range_of(CC_SKILL, "Rd", enc)),
                (json!("broken-link"), range_of(CC_SKILL, "references/guide.md", enc)),
                (json!("placeholder-in-code"), range_of(CC_SKILL, "$0", enc)),
            ]
        );
        // Hover on the placeholder in code: what it becomes, and what the command sends.
        let r = s
            .request("textDocument/hover", at(&commit, CC_COMMIT, "$1", enc))
            .unwrap();
        assert_eq!(
            r["contents"]["value"],
            "**`$1`**: the second argument (Claude Code counts from `$0`). `/git:commit one two three` puts `two` here. It is replaced inside code too; write `\\$1` to keep it literal.\n\n`/git:commit one two three` sends:\n\n````\nCommit with message one two three.\n```sh\ngit log -1 --format=%s | awk '{print two}'\n```\n````\n"
        );
        assert_eq!(r["range"], range_of(CC_COMMIT, "$1", enc));
        // On the `---`: the command as Claude Code lists it.
        let r = s
            .request("textDocument/hover", at(&commit, CC_COMMIT, "---", enc))
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(
            md.starts_with(
                "### `/git:commit`: Claude Code command\n\n提交 🚀 commit: staged\n\n- **argument hint**: `message`\n"
            ),
            "{md}"
        );
        assert!(md.contains("awk '{print two}'"), "{md}");
        // A skill: its folder and what `/review one two three` sends.
        let r = s
            .request("textDocument/hover", at(&skill, CC_SKILL, "$0", enc))
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        let folder = root.join(".claude/skills/review");
        assert_eq!(
            md,
            format!(
                "**`$0`**: the first argument (Claude Code counts from `$0`). `/review one two three` puts `one` here. It is replaced inside code too; write `\\$0` to keep it literal.\n\n`/review one two three` sends:\n\n```\nBase directory for this skill: {}\n\nRead [the guide](references/guide.md), then run `scripts/check.sh one`.\n```\n",
                folder.display()
            )
        );
        let r = s
            .request("textDocument/hover", at(&skill, CC_SKILL, "review", enc))
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(md.contains("Loaded by Claude Code, opencode.\n"), "{md}");
        assert!(md.contains("`/review one two three` sends:"), "{md}");
        // The linked file appears: the warning goes.
        let guide = root.join(".claude/skills/review/references/guide.md");
        std::fs::create_dir_all(guide.parent().unwrap()).unwrap();
        std::fs::write(&guide, "# Guide\n").unwrap();
        s.notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": uri_of(&guide), "type": 1 }] }),
        );
        let p = s.expect_publish(&skill);
        assert_eq!(
            codes_and_ranges(&p),
            [
                (json!("unknown-tool"), range_of(CC_SKILL, "Rd", enc)),
                (json!("placeholder-in-code"), range_of(CC_SKILL, "$0", enc)),
            ]
        );
        // And comes back when it is deleted.
        std::fs::remove_file(&guide).unwrap();
        s.notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": uri_of(&guide), "type": 3 }] }),
        );
        let p = s.expect_publish(&skill);
        assert_eq!(codes_and_ranges(&p).len(), 3);
        // Typing a link to a missing file in the open document warns at once.
        s.open(&skill, "markdown", 1, CC_SKILL);
        let text = CC_SKILL.replace("references/guide.md", "references/guide.md) and [more](notes.md");
        s.change_full(&skill, 2, &text);
        let p = s.expect_version(&skill, 2);
        let got = codes_and_ranges(&p);
        assert!(
            got.contains(&(json!("broken-link"), range_of(&text, "notes.md", enc))),
            "{got:?}"
        );
        s.assert_quiet();
    }
}

#[test]
fn a_command_without_frontmatter_shows_its_card_on_its_first_line_up_to_its_end() {
    const PLAN: &str = "Plan 計画 🚀 $ARGUMENTS.\nThen stop.\n";
    let nl = PLAN.find('\n').unwrap();
    for enc in [Enc::Utf8, Enc::Utf16] {
        let dir = workspace(&[(".opencode/commands/plan.md", PLAN)]);
        let root = root_of(&dir);
        let mut s = Server::start(&root, Setup::for_enc(enc));
        let plan = uri_of(&root.join(".opencode/commands/plan.md"));
        let _ = s.take_publishes();
        let mut hover = |offset: usize| {
            s.request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": plan }, "position": position(PLAN, offset, enc) }),
            )
            .unwrap()
        };
        // At its start, after the emoji, and at the end of the line (the cursor after typing it).
        let (emoji, _) = find(PLAN, " $ARGUMENTS");
        for offset in [0, emoji, nl] {
            let r = hover(offset);
            assert_eq!(r["range"], range(PLAN, 0, nl, enc), "{offset}");
            let card = r["contents"]["value"].as_str().unwrap();
            assert!(card.starts_with("### `/plan`: opencode command"), "{card}");
        }
        // The next line is the template's, not the card's.
        assert_eq!(hover(nl + 1), Value::Null);
    }
}
