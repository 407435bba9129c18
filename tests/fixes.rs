//! Every fix, in YAML frontmatter and in JSONC: applying it leaves a file that parses, the
//! diagnostic is gone, the rest of the file is untouched, and a safe fix does not change what
//! opencode does (the effective agents' permission decisions stay the same).

use agent_lsp::analysis::diagnostic::apply;
use agent_lsp::analysis::opencode::effective::{self, EffectiveAgent};
use agent_lsp::analysis::opencode::project::ViewFile;
use agent_lsp::analysis::opencode::{FileKind, analyze};
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

fn agents(kind: &FileKind, text: &str) -> Vec<EffectiveAgent> {
    let a = analyze(kind, text);
    effective::agents(
        &[ViewFile {
            file: 0,
            analysis: &a,
            group: 0,
        }],
        &effective::Env::default(),
    )
}

/// Apply the first fix for `code` and return the new text, checking the invariants.
fn fix(kind: &FileKind, text: &str, code: Code) -> String {
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
    // A safe fix that repairs a value opencode rejects changes behaviour on purpose; otherwise
    // it must not change any decision.
    let had_errors = a
        .diagnostics
        .iter()
        .any(|d| d.severity == agent_lsp::analysis::Severity::Error);
    if f.safe && !had_errors {
        let (before, after) = (agents(kind, text), agents(kind, &out));
        let probes = [
            ("edit", "src/a.rs"),
            ("bash", "ls"),
            ("bash", "git push x"),
            ("webfetch", "*"),
            ("read", "a"),
        ];
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(b.name, a.name);
            for (p, i) in probes {
                assert_eq!(
                    b.evaluate(p, i).0,
                    a.evaluate(p, i).0,
                    "safe fix {} changed {p} {i}:\n{out}",
                    f.title
                );
            }
            assert_eq!(
                b.steps.as_ref().map(|s| s.value),
                a.steps.as_ref().map(|s| s.value),
                "{}",
                f.title
            );
        }
    }
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
    );
    assert_eq!(out, md("mode: subagent # keep\ncolor: \"#FF5733\"\n"));
}

#[test]
fn remove_quotes_from_numbers() {
    assert_eq!(
        fix(&agent(), &md("steps: \"5\"\n"), Code::InvalidType),
        md("steps: 5\n")
    );
    let json = "{\"agent\": {\"x\": {\"temperature\": \"0.5\"}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::InvalidType),
        "{\"agent\": {\"x\": {\"temperature\": 0.5}}}"
    );
}

#[test]
fn max_steps() {
    assert_eq!(
        fix(&agent(), &md("maxSteps: 10\n"), Code::DeprecatedField),
        md("steps: 10\n")
    );
    assert_eq!(
        fix(
            &agent(),
            &md("steps: 5\nmaxSteps: 10\nmode: all\n"),
            Code::DeprecatedField
        ),
        md("steps: 5\nmode: all\n")
    );
    let json = "{\n  \"agent\": {\n    \"x\": {\n      \"maxSteps\": 3,\n      \"steps\": 4\n    }\n  }\n}\n";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField),
        "{\n  \"agent\": {\n    \"x\": {\n      \"steps\": 4\n    }\n  }\n}\n"
    );
    let json = "{\"agent\": {\"x\": {\"maxSteps\": 3}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField),
        "{\"agent\": {\"x\": {\"steps\": 3}}}"
    );
}

#[test]
fn tools_to_permission_in_place() {
    let text = md("description: d\ntools:\n  write: false\n  edit: true\n  bash: false\n  mymcp_*: true\n");
    let out = fix(&agent(), &text, Code::DeprecatedField);
    assert_eq!(
        out,
        md("description: d\npermission:\n  edit: allow\n  bash: deny\n  mymcp_*: allow\n")
    );
    let flow = md("tools: {write: false, bash: true}\n");
    assert_eq!(
        fix(&agent(), &flow, Code::DeprecatedField),
        md("permission: {edit: deny, bash: allow}\n")
    );
    let json = "{\"agent\": {\"x\": {\"tools\": {\"write\": false, \"bash\": true}}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField),
        "{\"agent\": {\"x\": {\"permission\": {\"edit\": \"deny\", \"bash\": \"allow\"}}}}"
    );
}

#[test]
fn tools_merge_into_existing_permission_with_explicit_rules_winning() {
    // opencode: {...tools, ...permission}: bash (from tools) comes first, so the later "*"
    // decides for bash; edit is explicit and wins over write: false.
    let text = md("tools:\n  bash: false\n  write: false\npermission:\n  \"*\": allow\n  edit: ask\n");
    let out = fix(&agent(), &text, Code::DeprecatedField);
    assert_eq!(out, md("permission:\n  bash: deny\n  edit: ask\n  \"*\": allow\n"));
    // Top-level tools in a config, CRLF.
    let json = "{\r\n  \"tools\": {\r\n    \"webfetch\": false\r\n  },\r\n  \"permission\": {\r\n    \"bash\": \"ask\"\r\n  }\r\n}\r\n";
    let out = fix(&FileKind::Config, json, Code::DeprecatedField);
    assert_eq!(
        out,
        "{\r\n  \"permission\": {\r\n    \"webfetch\": \"deny\",\r\n    \"bash\": \"ask\"\r\n  }\r\n}\r\n"
    );
}

#[test]
fn did_you_mean_fixes() {
    assert_eq!(
        fix(&agent(), &md("temprature: 0.2\n"), Code::UnknownKey),
        md("temperature: 0.2\n")
    );
    assert_eq!(
        fix(&agent(), &md("permissions:\n  edit: deny\n"), Code::UnknownKey),
        md("permission:\n  edit: deny\n")
    );
    assert_eq!(
        fix(&agent(), &md("mode: subagnet\n"), Code::InvalidValue),
        md("mode: subagent\n")
    );
    assert_eq!(
        fix(&agent(), &md("permission:\n  bash: allowed\n"), Code::InvalidValue),
        md("permission:\n  bash: allow\n")
    );
    let json = "{\"agent\": {\"x\": {\"mode\": \"primay\"}}, \"agnet\": {}}";
    let out = fix(&FileKind::Config, json, Code::InvalidValue);
    assert_eq!(out, "{\"agent\": {\"x\": {\"mode\": \"primary\"}}, \"agnet\": {}}");
    assert_eq!(
        fix(
            &FileKind::Config,
            "{\"model\": \"a/b\", \"agnet\": {}}",
            Code::UnknownKey
        ),
        "{\"model\": \"a/b\", \"agent\": {}}"
    );
    assert_eq!(
        fix(&agent(), &md("permission:\n  write: deny\n"), Code::UnknownPermission),
        md("permission:\n  edit: deny\n")
    );
}

#[test]
fn command_patterns_move_under_bash() {
    let text = md("permission:\n  bash:\n    \"*\": ask\n  \"rm -rf *\": deny\n  edit: deny\n");
    let out = fix(&agent(), &text, Code::UnknownPermission);
    assert_eq!(
        out,
        md("permission:\n  bash:\n    \"*\": ask\n    \"rm -rf *\": deny\n  edit: deny\n")
    );
    let text = md("permission:\n  edit: deny\n  \"git push --force*\": deny\n");
    let out = fix(&agent(), &text, Code::UnknownPermission);
    assert_eq!(
        out,
        md("permission:\n  edit: deny\n  bash:\n    \"git push --force*\": deny\n")
    );
    let json = "{\"permission\": {\"bash\": {\"*\": \"ask\"}, \"rm -rf *\": \"deny\"}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::UnknownPermission),
        "{\"permission\": {\"bash\": {\"*\": \"ask\", \"rm -rf *\": \"deny\"}}}"
    );
    let json = "{\"permission\": {\"rm -rf *\": \"deny\"}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::UnknownPermission),
        "{\"permission\": {\"bash\": {\"rm -rf *\": \"deny\"}}}"
    );
}

#[test]
fn catch_all_moves_to_the_front() {
    let text = md("permission:\n  bash:\n    \"git push *\": deny\n    \"git status\": allow\n    \"*\": ask\n");
    let out = fix(&agent(), &text, Code::ShadowedRule);
    assert_eq!(
        out,
        md("permission:\n  bash:\n    \"*\": ask\n    \"git push *\": deny\n    \"git status\": allow\n")
    );
    assert_eq!(count(&agent(), &out, Code::ShadowedRule), 0);
    let json = "{\n  \"permission\": {\n    \"edit\": \"deny\",\n    \"*\": \"allow\"\n  }\n}";
    let out = fix(&FileKind::Config, json, Code::ShadowedRule);
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
}

#[test]
fn deprecated_mode_key_becomes_agent() {
    let json = "{\n  \"mode\": {\n    \"focus\": { \"description\": \"d\" },\n    \"deep\": { \"mode\": \"subagent\" }\n  }\n}\n";
    let out = fix(&FileKind::Config, json, Code::DeprecatedField);
    assert_eq!(
        out,
        "{\n  \"agent\": {\n    \"focus\": { \"mode\": \"primary\", \"description\": \"d\" },\n    \"deep\": { \"mode\": \"primary\" }\n  }\n}\n"
    );
    let json = "{\"agent\": {\"a\": {}}, \"mode\": {\"focus\": {}}}";
    let out = fix(&FileKind::Config, json, Code::DeprecatedField);
    assert_eq!(out, "{\"agent\": {\"a\": {}, \"focus\": {\"mode\": \"primary\"}}}");
    // The same name in both: no fix (which settings win would change).
    let a = analyze(&FileKind::Config, "{\"agent\": {\"a\": {}}, \"mode\": {\"a\": {}}}");
    assert!(a.diagnostics.iter().all(|d| d.fix.is_none()));
}

#[test]
fn tools_with_keys_that_collapse_into_edit() {
    // write, patch and edit all become `edit` (first position, last value).
    let json = "{\"agent\": {\"x\": {\"tools\": {\"bash\": true, \"write\": false, \"patch\": true, \"edit\": true}}}}";
    assert_eq!(
        fix(&FileKind::Config, json, Code::DeprecatedField),
        "{\"agent\": {\"x\": {\"permission\": {\"bash\": \"allow\", \"edit\": \"allow\"}}}}"
    );
    let yaml = md("tools:\n  write: false\n  patch: false\n  edit: true\n");
    assert_eq!(
        fix(&agent(), &yaml, Code::DeprecatedField),
        md("permission:\n  edit: allow\n")
    );
}

#[test]
fn no_rename_onto_a_key_that_is_already_there_and_no_fix_all_on_broken_files() {
    let a = analyze(&agent(), &md("description: a\ndescripton: b\n"));
    let d = a.diagnostics.iter().find(|d| d.code == Code::UnknownKey).unwrap();
    assert!(d.message.contains("`description`") && d.fix.is_none());
    let a = analyze(&FileKind::Config, "{\"agent\": {}, \"agnet\": {}}");
    assert!(a.diagnostics.iter().all(|d| d.fix.is_none()));
    // A file that does not parse: fix_all leaves it alone.
    let broken = "---\ntools:\n  exa: true\npermission:\n  webfetch: a: b\n  exa: allow\n---\nx";
    let (out, titles) = agent_lsp::analysis::opencode::fix_all(&agent(), broken);
    assert!(titles.is_empty());
    assert_eq!(out, broken);
}
