//! Every fix, in YAML frontmatter and in JSONC: applying it leaves a file that parses, the
//! diagnostic is gone, the rest of the file is untouched, and the effective agents change in
//! exactly the way the test names, field by field and rule by rule: nothing at all for a fix
//! that keeps what opencode does (`tools` to `permission`, `maxSteps` to `steps`, ...), only the
//! repaired value for a fix of a value opencode rejects (a quoted number, an unquoted color),
//! and the intended change for a "did you mean". `fix_all` is idempotent.

mod fingerprint;

use agent_lsp::analysis::diagnostic::apply;
use agent_lsp::analysis::opencode::{FileKind, analyze, fix_all};
use agent_lsp::analysis::{Code, Diagnostic};

fn agent() -> FileKind {
    FileKind::Agent { name: "x".into() }
}

fn count(kind: &FileKind, text: &str, code: Code) -> usize {
    analyze(kind, text)
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .count()
}

/// Apply the first fix for `code` and return the new text, checking the invariants; `changes`
/// is the exact change to the effective agents (`agent.field: before -> after`).
#[track_caller]
fn fix(kind: &FileKind, text: &str, code: Code, changes: &[&str]) -> String {
    let a = analyze(kind, text);
    let d: &Diagnostic = a
        .diagnostics
        .iter()
        .find(|d| d.code == code && d.fix.is_some())
        .unwrap_or_else(|| panic!("no fix for {code:?} in {text:?}: {:#?}", a.diagnostics));
    let f = d.fix.as_ref().unwrap();
    let out = apply(text, &f.edits);
    let after = analyze(kind, &out);
    assert!(
        !after.diagnostics.iter().any(|d| d.code == Code::SyntaxError),
        "{} broke the file:\n{out}",
        f.title
    );
    assert!(
        count(kind, &out, code) < count(kind, text, code),
        "{} left the diagnostic:\n{out}",
        f.title
    );
    let (before_agents, after_agents) = (fingerprint::agents(kind, text), fingerprint::agents(kind, &out));
    let diff = fingerprint::diff(&before_agents, &after_agents);
    // `*.field: ...` stands for the same change on every agent.
    let changes: Vec<String> = changes
        .iter()
        .flat_map(|c| match c.strip_prefix("*.") {
            Some(rest) => after_agents.iter().map(|(n, _)| format!("{n}.{rest}")).collect(),
            None => vec![c.to_string()],
        })
        .collect();
    assert_eq!(
        diff, changes,
        "{} changed the effective agents:\n{text}\n-->\n{out}",
        f.title
    );
    // A safe fix repairs a rejected value at most: it never changes anything else.
    if f.safe && d.severity != agent_lsp::analysis::Severity::Error {
        assert!(diff.is_empty(), "safe fix {} changed behaviour: {diff:?}", f.title);
    }
    let once = fix_all(kind, &out).0;
    assert_eq!(
        fix_all(kind, &once).0,
        once,
        "fix_all is not idempotent after {}",
        f.title
    );
    out
}

fn md(front: &str) -> String {
    format!("---\n{front}---\nPrompt.\n")
}

#[test]
fn quote_color() {
    let out = fix(
        &agent(),
        &md("mode: subagent # keep\ncolor: #FF5733\n"),
        Code::InvalidColor,
        &["x.color: - -> #FF5733"],
    );
    assert_eq!(out, md("mode: subagent # keep\ncolor: \"#FF5733\"\n"));
}

#[test]
fn remove_quotes_from_numbers() {
    assert_eq!(
        fix(&agent(), &md("steps: \"5\"\n"), Code::InvalidType, &["x.steps: - -> 5"]),
        md("steps: 5\n")
    );
    let json = "{\"agent\": {\"x\": {\"temperature\": \"0.5\"}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::InvalidType, &["x.temperature: - -> 0.5"]),
        "{\"agent\": {\"x\": {\"temperature\": 0.5}}}"
    );
}

#[test]
fn max_steps() {
    assert_eq!(
        fix(&agent(), &md("maxSteps: 10\n"), Code::DeprecatedField, &[]),
        md("steps: 10\n")
    );
    assert_eq!(
        fix(
            &agent(),
            &md("steps: 5\nmaxSteps: 10\nmode: all\n"),
            Code::DeprecatedField,
            &[]
        ),
        md("steps: 5\nmode: all\n")
    );
    let json = "{\n  \"agent\": {\n    \"x\": {\n      \"maxSteps\": 3,\n      \"steps\": 4\n    }\n  }\n}\n";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField, &[]),
        "{\n  \"agent\": {\n    \"x\": {\n      \"steps\": 4\n    }\n  }\n}\n"
    );
    let json = "{\"agent\": {\"x\": {\"maxSteps\": 3}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField, &[]),
        "{\"agent\": {\"x\": {\"steps\": 3}}}"
    );
}

#[test]
fn tools_to_permission_in_place() {
    let text = md("description: d\ntools:\n  write: false\n  edit: true\n  bash: false\n  mymcp_*: true\n");
    let out = fix(&agent(), &text, Code::DeprecatedField, &[]);
    assert_eq!(
        out,
        md("description: d\npermission:\n  edit: allow\n  bash: deny\n  mymcp_*: allow\n")
    );
    let flow = md("tools: {write: false, bash: true}\n");
    assert_eq!(
        fix(&agent(), &flow, Code::DeprecatedField, &[]),
        md("permission: {edit: deny, bash: allow}\n")
    );
    let json = "{\"agent\": {\"x\": {\"tools\": {\"write\": false, \"bash\": true}}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField, &[]),
        "{\"agent\": {\"x\": {\"permission\": {\"edit\": \"deny\", \"bash\": \"allow\"}}}}"
    );
}

#[test]
fn tools_merge_into_existing_permission_with_explicit_rules_winning() {
    // opencode: {...tools, ...permission}: bash (from tools) comes first, so the later "*"
    // decides for bash; edit is explicit and wins over write: false.
    let text = md("tools:\n  bash: false\n  write: false\npermission:\n  \"*\": allow\n  edit: ask\n");
    let out = fix(&agent(), &text, Code::DeprecatedField, &[]);
    assert_eq!(out, md("permission:\n  bash: deny\n  edit: ask\n  \"*\": allow\n"));
    // Top-level tools in a config, CRLF.
    let json = "{\r\n  \"tools\": {\r\n    \"webfetch\": false\r\n  },\r\n  \"permission\": {\r\n    \"bash\": \"ask\"\r\n  }\r\n}\r\n";
    let out = fix(&FileKind::Config, json, Code::DeprecatedField, &[]);
    assert_eq!(
        out,
        "{\r\n  \"permission\": {\r\n    \"webfetch\": \"deny\",\r\n    \"bash\": \"ask\"\r\n  }\r\n}\r\n"
    );
}

#[test]
fn did_you_mean_fixes() {
    assert_eq!(
        fix(
            &agent(),
            &md("temprature: 0.2\n"),
            Code::UnknownKey,
            &["x.temperature: - -> 0.2", "x.options: temprature=0.2 -> "]
        ),
        md("temperature: 0.2\n")
    );
    assert_eq!(
        fix(
            &agent(),
            &md("permissions:\n  edit: deny\n"),
            Code::UnknownKey,
            &[
                "x.options: permissions={\"edit\":\"deny\"} -> ",
                "x.permission: +edit \"*\" deny"
            ]
        ),
        md("permission:\n  edit: deny\n")
    );
    assert_eq!(
        fix(
            &agent(),
            &md("mode: subagnet\n"),
            Code::InvalidValue,
            &["x.mode: subagnet -> subagent"]
        ),
        md("mode: subagent\n")
    );
    assert_eq!(
        fix(
            &agent(),
            &md("permission:\n  bash: allowed\n"),
            Code::InvalidValue,
            &["x.permission: -bash \"*\" allowed, +bash \"*\" allow"]
        ),
        md("permission:\n  bash: allow\n")
    );
    let json = "{\"agent\": {\"x\": {\"mode\": \"primay\"}}, \"agnet\": {}}";
    let out = fix(
        &FileKind::Config,
        json,
        Code::InvalidValue,
        &["x.mode: primay -> primary"],
    );
    assert_eq!(out, "{\"agent\": {\"x\": {\"mode\": \"primary\"}}, \"agnet\": {}}");
    assert_eq!(
        fix(
            &FileKind::Config,
            "{\"model\": \"a/b\", \"agnet\": {}}",
            Code::UnknownKey,
            &[]
        ),
        "{\"model\": \"a/b\", \"agent\": {}}"
    );
    assert_eq!(
        fix(
            &agent(),
            &md("permission:\n  write: deny\n"),
            Code::UnknownPermission,
            &["x.permission: -write \"*\" deny, +edit \"*\" deny"]
        ),
        md("permission:\n  edit: deny\n")
    );
}

#[test]
fn command_patterns_move_under_bash() {
    let text = md("permission:\n  bash:\n    \"*\": ask\n  \"rm -rf *\": deny\n  edit: deny\n");
    let out = fix(
        &agent(),
        &text,
        Code::UnknownPermission,
        &["x.permission: -rm -rf * \"*\" deny, +bash \"rm -rf *\" deny"],
    );
    assert_eq!(
        out,
        md("permission:\n  bash:\n    \"*\": ask\n    \"rm -rf *\": deny\n  edit: deny\n")
    );
    let text = md("permission:\n  edit: deny\n  \"git push --force*\": deny\n");
    let out = fix(
        &agent(),
        &text,
        Code::UnknownPermission,
        &["x.permission: -git push --force* \"*\" deny, +bash \"git push --force*\" deny"],
    );
    assert_eq!(
        out,
        md("permission:\n  edit: deny\n  bash:\n    \"git push --force*\": deny\n")
    );
    let json = "{\"permission\": {\"bash\": {\"*\": \"ask\"}, \"rm -rf *\": \"deny\"}}";
    assert_eq!(
        fix(
            &FileKind::Config,
            json,
            Code::UnknownPermission,
            &["*.permission: -rm -rf * \"*\" deny, +bash \"rm -rf *\" deny"]
        ),
        "{\"permission\": {\"bash\": {\"*\": \"ask\", \"rm -rf *\": \"deny\"}}}"
    );
    let json = "{\"permission\": {\"rm -rf *\": \"deny\"}}";
    assert_eq!(
        fix(
            &FileKind::Config,
            json,
            Code::UnknownPermission,
            &["*.permission: -rm -rf * \"*\" deny, +bash \"rm -rf *\" deny"]
        ),
        "{\"permission\": {\"bash\": {\"rm -rf *\": \"deny\"}}}"
    );
}

#[test]
fn catch_all_moves_to_the_front() {
    let text = md("permission:\n  bash:\n    \"git push *\": deny\n    \"git status\": allow\n    \"*\": ask\n");
    let out = fix(&agent(), &text, Code::ShadowedRule, &["x.permission: reordered"]);
    assert_eq!(
        out,
        md("permission:\n  bash:\n    \"*\": ask\n    \"git push *\": deny\n    \"git status\": allow\n")
    );
    assert_eq!(count(&agent(), &out, Code::ShadowedRule), 0);
    let json = "{\n  \"permission\": {\n    \"edit\": \"deny\",\n    \"*\": \"allow\"\n  }\n}";
    let out = fix(
        &FileKind::Config,
        json,
        Code::ShadowedRule,
        &["*.permission: reordered"],
    );
    assert_eq!(
        out,
        "{\n  \"permission\": {\n    \"*\": \"allow\",\n    \"edit\": \"deny\"\n  }\n}"
    );
}

#[test]
fn check_fix_rewrites_only_files_with_safe_fixes() {
    use std::fs;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".opencode/agents")).unwrap();
    let fixable = "---\r\ncolor: #FF5733\r\nmaxSteps: 4\r\nmode: subagnet\r\n---\r\nPrompt 审查 🚀\r\n";
    let clean = "---\nmode: subagent\n---\nPrompt\n";
    fs::write(root.join(".opencode/agents/a.md"), fixable).unwrap();
    fs::write(root.join(".opencode/agents/b.md"), clean).unwrap();
    let before = fs::metadata(root.join(".opencode/agents/b.md"))
        .unwrap()
        .modified()
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
        .args(["check", "--no-global", "--fix", "."])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("fixed .opencode/agents/a.md: Quote the color; Rename `maxSteps` to `steps`\n"),
        "{stdout}"
    );
    // The unsafe "did you mean" is not applied: the invalid mode is still reported, exit 1.
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout.contains("error[invalid-value]"), "{stdout}");
    assert_eq!(
        fs::read_to_string(root.join(".opencode/agents/a.md")).unwrap(),
        "---\r\ncolor: \"#FF5733\"\r\nsteps: 4\r\nmode: subagnet\r\n---\r\nPrompt 审查 🚀\r\n"
    );
    assert_eq!(fs::read_to_string(root.join(".opencode/agents/b.md")).unwrap(), clean);
    assert_eq!(
        fs::metadata(root.join(".opencode/agents/b.md"))
            .unwrap()
            .modified()
            .unwrap(),
        before
    );
    // No temporary files are left behind.
    assert_eq!(fs::read_dir(root.join(".opencode/agents")).unwrap().count(), 2);

    // `--format json` says what was fixed too (and nothing when nothing was).
    fs::write(root.join(".opencode/agents/a.md"), fixable).unwrap();
    let json = |args: &[&str]| -> serde_json::Value {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
            .args(["check", "--no-global", "--format", "json", "."])
            .args(args)
            .current_dir(root)
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let report = json(&["--fix"]);
    assert_eq!(
        report["fixed"],
        serde_json::json!([{"path": ".opencode/agents/a.md", "fixes": ["Quote the color", "Rename `maxSteps` to `steps`"]}])
    );
    assert_eq!(json(&["--fix"])["fixed"], serde_json::json!([]));
    assert_eq!(json(&[]).get("fixed"), None);
}

#[test]
fn deprecated_mode_key_becomes_agent() {
    let json = "{\n  \"mode\": {\n    \"focus\": { \"description\": \"d\" },\n    \"deep\": { \"mode\": \"subagent\" }\n  }\n}\n";
    let out = fix(&FileKind::Config, json, Code::DeprecatedField, &[]);
    assert_eq!(
        out,
        "{\n  \"agent\": {\n    \"focus\": { \"mode\": \"primary\", \"description\": \"d\" },\n    \"deep\": { \"mode\": \"primary\" }\n  }\n}\n"
    );
    let json = "{\"agent\": {\"a\": {}}, \"mode\": {\"focus\": {}}}";
    let out = fix(&FileKind::Config, json, Code::DeprecatedField, &[]);
    assert_eq!(out, "{\"agent\": {\"a\": {}, \"focus\": {\"mode\": \"primary\"}}}");
    // The same name in both: no fix (which settings win would change).
    let a = analyze(&FileKind::Config, "{\"agent\": {\"a\": {}}, \"mode\": {\"a\": {}}}");
    assert!(a.diagnostics.iter().any(|d| d.code == Code::DeprecatedField));
    assert!(a.diagnostics.iter().all(|d| d.fix.is_none()));
}

#[test]
fn tools_with_keys_that_collapse_into_edit() {
    // write, patch and edit all become `edit` (first position, last value).
    let json = "{\"agent\": {\"x\": {\"tools\": {\"bash\": true, \"write\": false, \"patch\": true, \"edit\": true}}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField, &[]),
        "{\"agent\": {\"x\": {\"permission\": {\"bash\": \"allow\", \"edit\": \"allow\"}}}}"
    );
    let yaml = md("tools:\n  write: false\n  patch: false\n  edit: true\n");
    assert_eq!(
        fix(&agent(), &yaml, Code::DeprecatedField, &[]),
        md("permission:\n  edit: allow\n")
    );
}

#[test]
fn no_rename_onto_a_key_that_is_already_there_and_no_fix_all_on_broken_files() {
    let a = analyze(&agent(), &md("description: a\ndescripton: b\n"));
    let d = a.diagnostics.iter().find(|d| d.code == Code::UnknownKey).unwrap();
    assert!(d.message.contains("`description`") && d.fix.is_none());
    let a = analyze(&FileKind::Config, "{\"agent\": {}, \"agnet\": {}}");
    assert!(a.diagnostics.iter().any(|d| d.code == Code::UnknownKey));
    assert!(a.diagnostics.iter().all(|d| d.fix.is_none()));
    // A file that does not parse: fix_all leaves it alone.
    let broken = "---\ntools:\n  exa: true\npermission:\n  webfetch: a: b\n  exa: allow\n---\nx";
    let (out, titles) = agent_lsp::analysis::opencode::fix_all(&agent(), broken);
    assert!(titles.is_empty());
    assert_eq!(out, broken);
}

/// `fix_all` reaches a fixed point: applying it again changes nothing. Checked on every file of
/// `test-workspace/` and of the corpus, and the fixed text keeps what opencode does, except for
/// the values it repairs.
#[test]
fn fix_all_is_idempotent_and_keeps_behaviour_on_real_files() {
    use std::path::{Path, PathBuf};
    fn files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "md" || x == "json" || x == "jsonc") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("test-workspace"), &mut paths);
    files(&root.join("../shared/corpus/A_opencode_agent"), &mut paths);
    files(&root.join("../shared/corpus/B_opencode_config"), &mut paths);
    assert!(paths.len() > 100, "{} files", paths.len());
    let mut fixed_files = 0;
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap();
        let kind = if p.extension().is_some_and(|x| x == "md") {
            agent()
        } else {
            FileKind::Config
        };
        let (once, titles) = fix_all(&kind, &text);
        let (twice, more) = fix_all(&kind, &once);
        assert_eq!(
            twice,
            once,
            "{}: fix_all is not idempotent ({more:?} after {titles:?})",
            p.display()
        );
        if titles.is_empty() {
            assert_eq!(once, text, "{}", p.display());
            continue;
        }
        fixed_files += 1;
        // Only repaired values may change; on these files the safe fixes repair nothing that
        // opencode rejects except quoted numbers and unquoted colors.
        let diff = fingerprint::diff(&fingerprint::agents(&kind, &text), &fingerprint::agents(&kind, &once));
        let repairs = diff.iter().all(|d| {
            [".color: - -> ", ".steps: - -> ", ".temperature: - -> ", ".top_p: - -> "]
                .iter()
                .any(|r| d.contains(r))
        });
        assert!(
            repairs,
            "{}: fix_all {titles:?} changed behaviour: {diff:?}",
            p.display()
        );
    }
    assert!(fixed_files > 20, "only {fixed_files} files had safe fixes");
}

/// Fixes whose edits overlap wait for the next round of `fix_all`: all of them end up applied,
/// and a second `fix_all` has nothing left to do.
#[test]
fn fix_all_applies_overlapping_fixes_in_rounds() {
    let json = "{\"mode\": {\"focus\": {\"maxSteps\": 4, \"tools\": {\"write\": false}}}}";
    let (once, titles) = fix_all(&FileKind::Config, json);
    assert_eq!(
        once,
        "{\"agent\": {\"focus\": {\"mode\": \"primary\", \"steps\": 4, \"permission\": {\"edit\": \"deny\"}}}}"
    );
    assert_eq!(titles.len(), 3, "{titles:?}");
    assert_eq!(fix_all(&FileKind::Config, &once), (once.clone(), Vec::new()));
    assert!(
        fingerprint::diff(
            &fingerprint::agents(&FileKind::Config, json),
            &fingerprint::agents(&FileKind::Config, &once)
        )
        .is_empty()
    );
}

/// `--unsafe-fixes` applies the did-you-mean replacements too (`mode: sub-agent` makes opencode
/// refuse to start, and only an unsafe fix repairs it); `--diff` shows what `--fix` would do,
/// writes nothing, and exits 1 when there is something to change.
#[test]
fn check_unsafe_fixes_and_diff() {
    use std::fs;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    fs::create_dir_all(root.join(".opencode/agents")).unwrap();
    let path = root.join(".opencode/agents/rev.md");
    // The safe `tools` conversion and the unsafe `mode` replacement.
    let original = "---\ndescription: Reviews code\nmode: sub-agent\ntools:\n  write: false\n---\nReview.\n";
    fs::write(&path, original).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agent-lsp"))
            .args(["check", "--no-global"])
            .args(args)
            .current_dir(root)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };

    // The summary counts the unsafe fixes left.
    let (code, stdout, _) = run(&[]);
    assert_eq!(code, 1);
    assert!(
        stdout.ends_with("1 more fix available with --unsafe-fixes (review: `--diff --unsafe-fixes`)\n"),
        "{stdout}"
    );

    // --diff: the safe fixes only, nothing written.
    let (code, stdout, stderr) = run(&["--diff"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        "--- .opencode/agents/rev.md\n+++ .opencode/agents/rev.md\n@@ -1,7 +1,7 @@\n ---\n description: Reviews code\n mode: sub-agent\n-tools:\n-  write: false\n+permission:\n+  edit: deny\n ---\n Review.\n"
    );
    assert_eq!(
        stderr,
        "would fix .opencode/agents/rev.md: Convert `tools` to `permission`\n1 more fix available with --unsafe-fixes (review: `--diff --unsafe-fixes`)\n"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    // --diff --unsafe-fixes: the mode too.
    let (code, stdout, stderr) = run(&["--diff", "--unsafe-fixes"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.contains("\n-mode: sub-agent\n-tools:\n-  write: false\n+mode: subagent\n+permission:\n"),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "would fix .opencode/agents/rev.md: Convert `tools` to `permission`; Replace with `subagent`\n"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    // --diff and --format do not go together.
    assert_eq!(run(&["--diff", "--format", "json"]).0, 2);

    // --fix leaves the refusal; --fix --unsafe-fixes repairs it, and the file checks clean.
    let (code, stdout, _) = run(&["--fix"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("1 more fix available with --unsafe-fixes"), "{stdout}");
    assert!(fs::read_to_string(&path).unwrap().contains("mode: sub-agent\n"));
    fs::write(&path, original).unwrap();
    let (code, stdout, _) = run(&["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.starts_with("fixed .opencode/agents/rev.md: Convert `tools` to `permission`; Replace with `subagent`\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("--unsafe-fixes"), "{stdout}");
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "---\ndescription: Reviews code\nmode: subagent\npermission:\n  edit: deny\n---\nReview.\n"
    );
    // Nothing left to change: --diff prints nothing and exits 0.
    assert_eq!(run(&["--diff", "--unsafe-fixes"]), (0, String::new(), String::new()));

    // Overlapping fixes in one file: the unsafe did-you-mean on `sub-agent` lies inside the
    // legacy `mode` block that the safe fix moves (giving it `mode: primary`): the safe fix goes
    // first, the unsafe one is skipped, and the next round has nothing left to fix.
    fs::remove_file(&path).unwrap();
    let config = root.join("opencode.json");
    fs::write(
        &config,
        "{\"mode\": {\"focus\": {\"mode\": \"sub-agent\", \"maxSteps\": 4}}}\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["--diff", "--unsafe-fixes"]);
    assert_eq!(code, 1, "{stderr}");
    let fixed = "{\"agent\": {\"focus\": {\"mode\": \"primary\", \"steps\": 4}}}\n";
    assert_eq!(
        stdout,
        format!(
            "--- opencode.json\n+++ opencode.json\n@@ -1 +1 @@\n-{}+{fixed}",
            fs::read_to_string(&config).unwrap()
        )
    );
    let (code, stdout, _) = run(&["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(fs::read_to_string(&config).unwrap(), fixed);
}
