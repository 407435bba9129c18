//! Inline suppressions end to end: `agent-lsp check` (own and cross-file diagnostics
//! suppressed, unused suppressions reported, `--fix` leaving suppressed problems alone) and the
//! language server over pipes (the "ignore on this line" quick fix, completion of codes).

mod cli_support;
mod lsp_support;

use std::path::Path;

use cli_support::command;
use lsp_support::*;
use serde_json::{Value, json};

const CONFIG: &str = "{\n  \"default_agent\": \"reviewr\"\n}\n";
const REVIEWER: &str = "---\ndescription: Reviews\nmode: subagent\ntemprature: 0.2\n---\nBody\n";

/// `check --format json` in `root`: the exit status and `path:line code` of each diagnostic.
fn check(root: &Path, extra: &[&str]) -> (i32, Vec<String>) {
    let out = command(root, &["check", "--no-global", "--format", "json", "."])
        .args(extra)
        .output()
        .expect("run agent-lsp");
    let report: Value = serde_json::from_slice(&out.stdout).expect("json report");
    let diags = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{} {}",
                d["path"].as_str().unwrap(),
                d["range"]["start"]["line"],
                d["code"].as_str().unwrap()
            )
        })
        .collect();
    (out.status.code().unwrap(), diags)
}

#[test]
fn check_suppresses_own_and_cross_file_diagnostics_and_reports_unused_ones() {
    let ws = workspace(&[("opencode.json", CONFIG), (".opencode/agents/reviewer.md", REVIEWER)]);
    let root = root_of(&ws);
    // Without comments: the cross-file error and the unknown key.
    assert_eq!(
        check(&root, &[]),
        (
            1,
            vec![
                ".opencode/agents/reviewer.md:4 unknown-key".to_string(),
                "opencode.json:2 invalid-default-agent".to_string(),
            ]
        )
    );
    // The cross-file error in JSONC (a trailing `//`), the key with a comment above it.
    write_files(
        &root,
        &[
            (
                "opencode.json",
                "{\n  \"default_agent\": \"reviewr\" // agent-lsp: ignore[invalid-default-agent]\n}\n",
            ),
            (
                ".opencode/agents/reviewer.md",
                "---\ndescription: Reviews\nmode: subagent\n# agent-lsp: ignore[unknown-key]\ntemprature: 0.2\n---\nBody\n",
            ),
        ],
    );
    assert_eq!(check(&root, &[]), (0, vec![]));
    // A suppression with nothing to suppress, a file-level one too, and an unknown code.
    write_files(
        &root,
        &[(
            ".opencode/agents/reviewer.md",
            "---\ndescription: Reviews  # agent-lsp: ignore[invalid-type]\nmode: subagent\n# agent-lsp: ignore-file[unknown-key, hidden-primary, bogus-code]\ntemprature: 0.2\n---\nBody\n",
        )],
    );
    assert_eq!(
        check(&root, &[]),
        (
            0,
            vec![
                ".opencode/agents/reviewer.md:2 unused-suppression".to_string(),
                ".opencode/agents/reviewer.md:4 unused-suppression".to_string(),
                ".opencode/agents/reviewer.md:4 unused-suppression".to_string(),
            ]
        )
    );
}

#[test]
fn check_fix_leaves_suppressed_problems_alone_and_is_idempotent() {
    let text = "---\ndescription: Reviews\nmode: subagent\nmaxSteps: 3  # agent-lsp: ignore[deprecated-field]\ncolor: #FF5733\n---\nBody\n";
    let ws = workspace(&[(".opencode/agents/reviewer.md", text)]);
    let root = root_of(&ws);
    let (status, _) = check(&root, &["--fix"]);
    assert_eq!(status, 0);
    let fixed = std::fs::read_to_string(root.join(".opencode/agents/reviewer.md")).unwrap();
    // The color is quoted; `maxSteps` stays (its diagnostic is suppressed), and so does the comment.
    assert_eq!(
        fixed,
        "---\ndescription: Reviews\nmode: subagent\nmaxSteps: 3  # agent-lsp: ignore[deprecated-field]\ncolor: \"#FF5733\"\n---\nBody\n"
    );
    let kind = agent_lsp::analysis::FileKind::Opencode(agent_lsp::analysis::opencode::FileKind::Agent {
        name: "reviewer".into(),
    });
    let (again, titles) = agent_lsp::analysis::fix_all(&kind, &fixed);
    assert_eq!((again.as_str(), titles.len()), (fixed.as_str(), 0));
}

/// `check --fix` removes the unused suppressions once every file is fixed: a cross-file code
/// that the other files no longer trigger, an unused code beside a used one (only that code
/// goes), a directive without codes; it leaves a misspelt code (a did-you-mean is a decision)
/// and reports each file once. Run again, it changes nothing.
#[test]
fn check_fix_removes_unused_suppressions_after_the_other_fixes() {
    let config = "{\n  \"default_agent\": \"reviewer\" // agent-lsp: ignore[invalid-default-agent]\n}\n";
    let reviewer = "---\ndescription: Reviews  # agent-lsp: ignore\nmode: primary\n# agent-lsp: ignore-file[unknown-key, hidden-primary]\ntemprature: 0.2\nmaxSteps: 3\nmodel: x/y  # agent-lsp: ignore[unknwn-key]\n---\nBody\n";
    // A file that does not parse keeps its suppressions: what they suppress may be past the error.
    let broken = "---\ndescription: Broken # agent-lsp: ignore[unknown-key]\nmode: [subagent\n---\nBody\n";
    let ws = workspace(&[
        ("opencode.json", config),
        (".opencode/agents/reviewer.md", reviewer),
        (".opencode/agents/broken.md", broken),
    ]);
    let root = root_of(&ws);
    let out = command(&root, &["check", "--no-global", "--fix", "."])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let fixed_lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("fixed ")).collect();
    assert_eq!(
        fixed_lines,
        [
            "fixed .opencode/agents/reviewer.md: Rename `maxSteps` to `steps`; Remove the suppression comment; Remove `hidden-primary`",
            "fixed opencode.json: Remove the unused suppression",
        ],
        "one line per fixed file, in path order: {stdout}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("opencode.json")).unwrap(),
        "{\n  \"default_agent\": \"reviewer\"\n}\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join(".opencode/agents/reviewer.md")).unwrap(),
        "---\ndescription: Reviews\nmode: primary\n# agent-lsp: ignore-file[unknown-key]\ntemprature: 0.2\nsteps: 3\nmodel: x/y  # agent-lsp: ignore[unknwn-key]\n---\nBody\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join(".opencode/agents/broken.md")).unwrap(),
        broken
    );
    // What remains: the syntax error and the suppression beside it, and the misspelt code, for
    // the author to decide.
    let (status, remaining) = check(&root, &[]);
    assert_eq!(status, 1);
    assert_eq!(
        remaining,
        [
            ".opencode/agents/broken.md:2 unused-suppression",
            ".opencode/agents/broken.md:3 invalid-type",
            ".opencode/agents/broken.md:3 syntax-error",
            ".opencode/agents/reviewer.md:7 unused-suppression",
        ]
    );
    let before = std::fs::read_to_string(root.join(".opencode/agents/reviewer.md")).unwrap();
    let out = command(&root, &["check", "--no-global", "--fix", "."])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("fixed "), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(root.join(".opencode/agents/reviewer.md")).unwrap(),
        before
    );
}

fn ignore_actions(actions: &[Value]) -> Vec<&Value> {
    actions
        .iter()
        .filter(|a| a["title"].as_str().unwrap().starts_with("Ignore `"))
        .collect()
}

/// The quick fix on a cross-file diagnostic of a JSONC config, and on a frontmatter key that
/// already has a directive for another code: applied, the file has no diagnostic left (no
/// unused suppression either). None on a file without frontmatter.
#[test]
fn ignore_quick_fix_leaves_no_diagnostic() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let ws = workspace(&[
            ("opencode.json", CONFIG),
            (".opencode/agents/reviewer.md", REVIEWER),
            (".opencode/agents/plain.md", "no frontmatter 🚀\n"),
        ]);
        let root = root_of(&ws);
        let mut s = Server::start(&root, Setup::for_enc(enc));
        s.take_publishes();
        let cfg = uri_of(&root.join("opencode.json"));
        let (_, p) = Doc::open(&mut s, &cfg, "json", CONFIG);
        assert_eq!(p["diagnostics"][0]["code"], "invalid-default-agent");
        let acts = quick_fixes(&mut s, &cfg, &p["diagnostics"]);
        let ignores = ignore_actions(&acts);
        assert_eq!(ignores.len(), 1, "{acts:#?}");
        assert_eq!(
            ignores[0]["title"],
            "Ignore `invalid-default-agent` on this line (agent-lsp: ignore)"
        );
        assert_eq!(ignores[0]["isPreferred"], false);
        let fixed = apply_edits(CONFIG, ignores[0]["edit"]["changes"][&cfg].as_array().unwrap(), enc);
        assert_eq!(
            fixed,
            "{\n  \"default_agent\": \"reviewr\" // agent-lsp: ignore[invalid-default-agent]\n}\n"
        );
        s.change_full(&cfg, 2, &fixed);
        let p = s.expect_version(&cfg, 2);
        assert_eq!(p["diagnostics"], json!([]), "{fixed}");

        // A key whose line already ignores another code: the code is added to that comment.
        let md = uri_of(&root.join(".opencode/agents/reviewer.md"));
        let text = "---\ndescription: Reviews 审查\nmode: subagent\ntemprature: 0.2 # agent-lsp: ignore[invalid-type]\n---\nBody\n";
        let (_, p) = Doc::open(&mut s, &md, "markdown", text);
        let codes: Vec<&str> = p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["unknown-key", "unused-suppression"]);
        let unknown = json!([p["diagnostics"][0].clone()]);
        let acts = quick_fixes(&mut s, &md, &unknown);
        let ignores = ignore_actions(&acts);
        let fixed = apply_edits(text, ignores[0]["edit"]["changes"][&md].as_array().unwrap(), enc);
        assert!(
            fixed.contains("temprature: 0.2 # agent-lsp: ignore[invalid-type, unknown-key]\n"),
            "{fixed}"
        );
        // The unused suppression has no "ignore" action, only its removal.
        let unused = json!([p["diagnostics"][1].clone()]);
        let acts = quick_fixes(&mut s, &md, &unused);
        assert!(ignore_actions(&acts).is_empty(), "{acts:#?}");
        assert_eq!(acts[0]["title"], "Remove the unused suppression");
        let removed = apply_edits(text, acts[0]["edit"]["changes"][&md].as_array().unwrap(), enc);
        assert!(removed.contains("temprature: 0.2\n"), "{removed}");
        s.change_full(&md, 2, &fixed);
        let p = s.expect_version(&md, 2);
        let left: Vec<&str> = p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["message"].as_str().unwrap())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
        assert!(left[0].contains("no `invalid-type` diagnostic"), "{left:?}");

        // No comment can go in a file without frontmatter: no "ignore" action.
        let plain = uri_of(&root.join(".opencode/agents/plain.md"));
        let (_, p) = Doc::open(&mut s, &plain, "markdown", "no frontmatter 🚀\n");
        assert_eq!(p["diagnostics"][0]["code"], "no-frontmatter");
        let acts = quick_fixes(&mut s, &plain, &p["diagnostics"]);
        assert!(ignore_actions(&acts).is_empty(), "{acts:#?}");
        s.take_publishes();
        s.finish();
    }
}

#[test]
fn completion_inside_the_brackets_lists_codes_not_yet_listed() {
    for enc in [Enc::Utf8, Enc::Utf16] {
        let ws = workspace(&[("opencode.json", CONFIG)]);
        let root = root_of(&ws);
        let mut s = Server::start(&root, Setup::for_enc(enc));
        s.take_publishes();
        let cfg = uri_of(&root.join("opencode.json"));
        let text = "{\n  \"default_agent\": \"reviewr\" /* 🚀 agent-lsp: ignore[unknown-key, inv] */\n}\n";
        Doc::open(&mut s, &cfg, "json", text);
        let (at, _) = find(text, "inv]");
        let r = s
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": cfg}, "position": position(text, at + 3, enc)}),
            )
            .unwrap();
        let items = r.as_array().unwrap();
        let labels: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
        assert!(labels.contains(&"invalid-default-agent"), "{labels:?}");
        assert!(!labels.contains(&"unknown-key") && !labels.contains(&"unused-suppression"));
        let item = items.iter().find(|i| i["label"] == "invalid-default-agent").unwrap();
        assert_eq!(
            item["detail"],
            agent_lsp::analysis::Code::InvalidDefaultAgent.rule().summary
        );
        let fixed = apply_edits(text, &[item["textEdit"].clone()], enc);
        assert!(fixed.contains("ignore[unknown-key, invalid-default-agent]"), "{fixed}");
        // Hover on a listed code: its rule.
        let (at, _) = find(text, "known-key");
        let r = s
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": cfg}, "position": position(text, at, enc)}),
            )
            .unwrap();
        let md = r["contents"]["value"].as_str().unwrap();
        assert!(md.starts_with("**`unknown-key`** (warning, value-ignored)"), "{md}");
        assert_eq!(r["range"], range_of(text, "unknown-key", enc));
        s.take_publishes();
        s.finish();
    }
}

/// Over every file of the corpus (`../shared/corpus/`, when present) and of `test-workspace/`:
/// for each of a file's own diagnostics, the "ignore" edit, where offered, removes exactly that
/// diagnostic, leaves a directive that is used, and breaks nothing (no new syntax error).
#[test]
fn the_ignore_edit_removes_its_diagnostic_and_breaks_nothing() {
    use agent_lsp::analysis::suppress::{self, Report};
    use agent_lsp::analysis::{Code, FileKind, analyze, claude, opencode};
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(FileKind, String)> = Vec::new();
    for (dir, kind) in [
        (
            "A_opencode_agent",
            FileKind::Opencode(opencode::FileKind::Agent { name: "a".into() }),
        ),
        ("B_opencode_config", FileKind::Opencode(opencode::FileKind::Config)),
        ("C_claude_agent", FileKind::from(claude::AgentFile::project("a"))),
    ] {
        let Ok(entries) = std::fs::read_dir(manifest.join("../shared/corpus").join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            if let Ok(text) = std::fs::read_to_string(e.path()) {
                files.push((kind.clone(), text));
            }
        }
    }
    let ws = agent_lsp::workspace::Workspace::load(
        &[manifest.join("test-workspace")],
        &agent_lsp::workspace::Options::isolated(),
    )
    .unwrap();
    files.extend(
        ws.files
            .iter()
            .filter(|f| f.in_scope)
            .map(|f| (f.kind.clone(), f.text.clone())),
    );
    let on_line = |text: &str, d: &agent_lsp::analysis::Diagnostic, line: usize| {
        text[..d.span.start as usize].matches('\n').count() == line
    };
    let (mut offered, mut refused) = (0, 0);
    for (kind, text) in &files {
        let a = analyze(kind, text);
        let syntax = a.diagnostics.iter().filter(|d| d.code == Code::SyntaxError).count();
        for d in suppress::apply(&a.suppressions, a.diagnostics.clone(), Report::Local) {
            let Some(edit) = agent_lsp::analysis::ignore_edit(kind, text, &a, d.span.start as usize, d.code) else {
                refused += 1;
                continue;
            };
            offered += 1;
            let fixed = agent_lsp::analysis::diagnostic::apply(text, &[edit]);
            let line = text[..d.span.start as usize].matches('\n').count();
            let b = analyze(kind, &fixed);
            let after = suppress::apply(&b.suppressions, b.diagnostics.clone(), Report::All);
            let same = |x: &&agent_lsp::analysis::Diagnostic| x.code == d.code && on_line(&fixed, x, line);
            let before_n = a
                .diagnostics
                .iter()
                .filter(|x| x.code == d.code && on_line(text, x, line))
                .count();
            assert!(
                before_n > 0 && !after.iter().any(|x| same(&x)),
                "{:?} stays:\n{fixed}",
                d.code
            );
            let unused = |ds: &[agent_lsp::analysis::Diagnostic], t: &str| {
                ds.iter()
                    .filter(|x| x.code == Code::UnusedSuppression && on_line(t, x, line))
                    .count()
            };
            let full_before = suppress::apply(&a.suppressions, a.diagnostics.clone(), Report::All);
            assert!(
                unused(&after, &fixed) <= unused(&full_before, text),
                "unused after ignoring {:?}:\n{fixed}",
                d.code
            );
            let syntax_after = b.diagnostics.iter().filter(|d| d.code == Code::SyntaxError).count();
            assert!(
                syntax_after <= syntax,
                "a syntax error after ignoring {:?}:\n{fixed}",
                d.code
            );
        }
    }
    assert!(offered > 50 && refused > 0, "offered {offered}, refused {refused}");
}
