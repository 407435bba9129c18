//! Every fix of a Claude Code agent: applying it leaves a file Claude Code loads at least as
//! well, the diagnostic is gone, everything outside the edit is untouched, and the agent Claude
//! Code builds changes in exactly the way the test names: not at all for a safe fix (quoting a
//! value the lenient retry rescues, `Task` to `Agent`, removing a duplicate key that the last one
//! overrides), only the named field for a "did you mean". On the Claude files of
//! `test-workspace/` and of the corpus, every safe fix keeps the agent, and `fix_all` is
//! idempotent.

use std::path::Path;

use agent_lsp::analysis::claude::{self, Source, card};
use agent_lsp::analysis::diagnostic::apply;
use agent_lsp::analysis::{Code, FileKind, Severity, analyze, fix_all};
use serde_json::Value;

fn kind() -> FileKind {
    claude::AgentFile::project("x").into()
}

/// The agent as Claude Code builds it, without source positions: the JSON of `explain`, its
/// loaded status, and the first-pass/retry outcome does not matter.
fn built(kind: &FileKind, text: &str) -> Value {
    let a = analyze(kind, text);
    let c = a.claude().expect("a Claude analysis");
    let name = c.agent.name.clone().unwrap_or_default();
    let mut v = card::json(&c.agent, &name, &[]);
    v["status"] = Value::String(format!("{:?}", c.agent.status));
    // Which of `model` and `permissionMode` are defaults, not set: the fixes are judged by the
    // values the agent runs with (a fix to `permissionMode: plan` changes that value only).
    if let Some(o) = v.as_object_mut() {
        o.remove("unset");
    }
    v
}

/// The differences between two built agents, as `field: before -> after`.
fn diff(before: &Value, after: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
        return vec![format!("{before} -> {after}")];
    };
    let mut keys: Vec<&String> = b.keys().chain(a.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let (x, y) = (b.get(k).unwrap_or(&Value::Null), a.get(k).unwrap_or(&Value::Null));
        if k == "settings" {
            out.extend(diff(x, y).into_iter().map(|d| format!("settings.{d}")));
        } else if x != y {
            out.push(format!("{k}: {x} -> {y}"));
        }
    }
    out
}

/// Apply the fix of the first diagnostic with `code`; check the invariants and that the built
/// agent changes exactly by `changes`. Returns the fixed text.
#[track_caller]
fn fix(text: &str, code: Code, safe: bool, changes: &[&str]) -> String {
    let k = kind();
    let a = analyze(&k, text);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.code == code && d.fix.is_some())
        .unwrap_or_else(|| panic!("no fix for {code:?} in {text:?}: {:#?}", a.diagnostics));
    let f = d.fix.as_ref().unwrap();
    assert_eq!(f.safe, safe, "{}", f.title);
    let out = apply(text, &f.edits);
    // Only the edited bytes change.
    let first = f.edits.iter().map(|e| e.span.start as usize).min().unwrap();
    assert_eq!(text[..first], out[..first], "{}", f.title);
    let after = analyze(&k, &out);
    let count = |a: &agent_lsp::analysis::FileAnalysis| a.diagnostics.iter().filter(|d| d.code == code).count();
    assert!(count(&after) < count(&a), "{} left the diagnostic:\n{out}", f.title);
    let errors =
        |a: &agent_lsp::analysis::FileAnalysis| a.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    assert!(
        errors(&after) <= errors(&a),
        "{} added an error:\n{out}\n{:#?}",
        f.title,
        after.diagnostics
    );
    assert_eq!(diff(&built(&k, text), &built(&k, &out)), changes, "{}:\n{out}", f.title);
    out
}

fn md(front: &str) -> String {
    format!("---\nname: rev\ndescription: Reviews code\n{front}---\nReview.\n")
}

#[test]
fn quoting_what_the_retry_quotes_keeps_the_agent() {
    let t = "---\nname: rev\ndescription: Use it when: the user asks\ntools: Read\n---\nBody\n";
    let out = fix(t, Code::LenientParse, true, &[]);
    assert_eq!(
        out,
        "---\nname: rev\ndescription: \"Use it when: the user asks\"\ntools: Read\n---\nBody\n"
    );
    // Backslashes and quotes are escaped as the retry escapes them.
    let t = "---\nname: rev\ndescription: Say \"hi\": then C:\\dir\n---\n";
    let out = fix(t, Code::LenientParse, true, &[]);
    assert_eq!(
        out,
        "---\nname: rev\ndescription: \"Say \\\"hi\\\": then C:\\\\dir\"\n---\n"
    ); // A separator JavaScript reads as white space but YAML does not (U+FEFF, a no-break space)
    // becomes one space, as the retry writes it (found by the `analyze` fuzz target). Two `: `
    // so that the first pass fails (with one, YAML reads a key `description:\u{feff} Use it`).
    for sep in ["\u{feff} ", "\u{a0} ", " \t"] {
        let t = format!("---\nname: rev\ndescription:{sep}Use it: when: asked\n---\n");
        let out = fix(&t, Code::LenientParse, true, &[]);
        let want = if sep == " \t" { " \t" } else { " " };
        assert_eq!(
            out,
            format!("---\nname: rev\ndescription:{want}\"Use it: when: asked\"\n---\n"),
            "{sep:?}"
        );
    }
}

#[test]
fn safe_fixes_keep_the_agent() {
    assert_eq!(
        fix(&md("tools: Read, Task\n"), Code::DeprecatedField, true, &[]),
        md("tools: Read, Agent\n")
    );
    assert_eq!(
        fix(&md("tools: Task(helper)\n"), Code::DeprecatedField, true, &[]),
        md("tools: Agent(helper)\n")
    );
    assert_eq!(
        fix(
            &md("model: opus\ncolor: red\nmodel: haiku\n"),
            Code::DuplicateKey,
            true,
            &[]
        ),
        md("color: red\nmodel: haiku\n")
    );
}

#[test]
fn did_you_mean_fixes_change_only_the_named_field() {
    assert_eq!(
        fix(
            &md("permissionMode: Plan\n"),
            Code::InvalidValue,
            false,
            &["permissionMode: \"default\" -> \"plan\""]
        ),
        md("permissionMode: plan\n")
    );
    assert_eq!(
        fix(
            &md("memory: Project\n"),
            Code::InvalidValue,
            false,
            &["settings.memory: null -> \"project\""]
        ),
        md("memory: project\n")
    );
    // `effort: High` is read as `high` (any case): nothing to report, nothing to fix.
    assert!(analyze(&kind(), &md("effort: High\n")).diagnostics.is_empty());
}

#[test]
fn did_you_mean_fixes_for_tools_keys_and_models() {
    assert_eq!(
        fix(
            &md("tools: Read, grep\n"),
            Code::UnknownTool,
            false,
            &["tools: [\"Read\"] -> [\"Read\",\"Grep\"]"]
        ),
        md("tools: Read, Grep\n")
    );
    assert_eq!(
        fix(
            &md("allowed-tools: Read\n"),
            Code::UnknownKey,
            false,
            &["tools: null -> [\"Read\"]"]
        ),
        md("tools: Read\n")
    );
    assert_eq!(
        fix(
            &md("model: sonet\n"),
            Code::InvalidModel,
            false,
            &["model: \"sonet\" -> \"sonnet\""]
        ),
        md("model: sonnet\n")
    );
    assert_eq!(
        fix(
            &md("color: Red\n"),
            Code::InvalidColor,
            false,
            &["settings.color: null -> \"red\""]
        ),
        md("color: red\n")
    );
    assert_eq!(
        fix(
            &md("tools: MultiEdit, Read\n"),
            Code::UnknownTool,
            false,
            &["tools: [\"Read\"] -> [\"Edit\",\"Read\"]"]
        ),
        md("tools: Edit, Read\n")
    );
}

/// Every safe fix of every Claude file of test-workspace and the corpus keeps the agent Claude
/// Code builds; `fix_all` keeps it too and is idempotent.
#[test]
fn safe_fixes_keep_real_files_and_fix_all_is_idempotent() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        root.join("test-workspace/.claude/agents"),
        root.join("test-workspace/.claude/agents/extra"),
        root.join("../shared/corpus/C_claude_agent"),
    ] {
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    let plugin: FileKind = claude::AgentFile {
        source: Source::Plugin { plugin: "p".into() },
        stem: "x".into(),
    }
    .into();
    let mut fixes = 0;
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        for k in [kind(), plugin.clone()] {
            let before = built(&k, &text);
            for d in analyze(&k, &text).diagnostics {
                let Some(f) = d.fix.filter(|f| f.safe) else { continue };
                let out = apply(&text, &f.edits);
                assert_eq!(
                    diff(&before, &built(&k, &out)),
                    Vec::<String>::new(),
                    "{}: {}",
                    p.display(),
                    f.title
                );
                fixes += 1;
            }
            let (once, _) = fix_all(&k, &text);
            assert_eq!(
                diff(&before, &built(&k, &once)),
                Vec::<String>::new(),
                "{}: fix_all",
                p.display()
            );
            let (twice, more) = fix_all(&k, &once);
            assert_eq!(twice, once, "{}: fix_all again applied {more:?}", p.display());
        }
    }
    assert!(fixes >= 10, "only {fixes} safe fixes exercised");
}

/// A fuzz input whose repeated keys need nine rounds of fixes (each quoting fix of the lenient
/// reading reveals more duplicates): one `fix_all` reaches the fixed point.
#[test]
fn fix_all_reaches_the_fixed_point_of_a_file_that_needs_many_rounds() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/analyze/claude-fix-all-needs-nine-rounds");
    let data = std::fs::read(path).unwrap();
    // The fuzz target's first byte picks the kind: 3 is a Claude Code project agent.
    assert_eq!(data[0], 3);
    let text = String::from_utf8_lossy(&data[1..]);
    let (fixed, titles) = fix_all(&kind(), &text);
    assert!(titles.len() > 60, "{titles:?}");
    let (again, more) = fix_all(&kind(), &fixed);
    assert_eq!(
        (again.as_str(), more.len()),
        (fixed.as_str(), 0),
        "a second run applied {more:?}"
    );
}
