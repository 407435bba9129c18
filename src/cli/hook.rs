//! `agent-lsp hook`: a Claude Code `PostToolUse` hook (the plugin in `editors/claude-code/`
//! declares it for `Write|Edit|MultiEdit`). Claude Code hands language-server diagnostics to the
//! model only with a later request, after the model may already have stopped; a hook's output
//! reaches the very next one. So the file the tool wrote is checked in its project here, and
//! what changes what the runtime does is told to the model as the hook's additional context,
//! each finding with its fix in words.
//!
//! The hook never stands in the tool's way: whatever goes wrong (no JSON, no file, a file that
//! is not an agent file), it prints nothing and exits 0.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::analysis::{Code, Diagnostic, Effect, Encoding, LineCol, Severity};
use crate::workspace::{Options, Workspace};

/// The most findings told at once: the model fixes the first and hears of the rest next time.
const MAX_TOLD: usize = 20;

/// Read the hook's event from stdin, print the hook output (if any), exit 0.
pub fn run() -> i32 {
    let mut input = String::new();
    if std::io::stdin().take(1 << 20).read_to_string(&mut input).is_err() {
        return 0;
    }
    if let Some(out) = respond(&input, &Options::from_env(false, None)) {
        println!("{out}");
    }
    0
}

/// The hook output for one event, `None` when there is nothing to tell.
pub fn respond(event: &str, options: &Options) -> Option<String> {
    let event: Value = serde_json::from_str(event).ok()?;
    let input = event.get("tool_input")?;
    let path = input
        .get("file_path")
        .or_else(|| input.get("notebook_path"))
        .and_then(Value::as_str)?;
    let cwd = event.get("cwd").and_then(Value::as_str).map(PathBuf::from);
    let path = match &cwd {
        Some(cwd) if Path::new(path).is_relative() => cwd.join(path),
        _ => PathBuf::from(path),
    };
    if !path.is_file() {
        return None;
    }
    let ws = Workspace::load(std::slice::from_ref(&path), options).ok()?;
    let shown = |p: &Path| {
        cwd.as_deref()
            .and_then(|c| p.strip_prefix(c).ok())
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    };
    let mut told = Vec::new();
    let mut count = 0;
    for (id, d) in ws.diagnostics() {
        if !worth_telling(&d) {
            continue;
        }
        count += 1;
        if told.len() == MAX_TOLD {
            continue;
        }
        let file = &ws.files[id];
        let LineCol { line, col } = file.index.line_col(&file.text, d.span.start as usize, Encoding::Utf32);
        told.push(format!(
            "- {}:{}:{} [{}] {}",
            shown(&file.path),
            line + 1,
            col + 1,
            d.code.as_str(),
            d.message_with_fix().replace('\n', "\n  ")
        ));
    }
    if told.is_empty() {
        return None;
    }
    let more = count - told.len();
    let context = format!(
        "agent-lsp checked {}: {count} finding{} change{} what the runtime does with it:\n{}{}",
        shown(&path),
        if count == 1 { "" } else { "s" },
        if count == 1 { "s" } else { "" },
        told.join("\n"),
        if more > 0 {
            format!("\n({more} more: run `agent-lsp check` on the file)")
        } else {
            String::new()
        }
    );
    Some(
        ws.hide_secrets(
            &json!({
                "hookSpecificOutput": {
                    "hookEventName": event.get("hook_event_name").and_then(Value::as_str).unwrap_or("PostToolUse"),
                    "additionalContext": context,
                }
            })
            .to_string(),
        ),
    )
}

/// Findings the model should hear of: those that change what the runtime does, and errors;
/// not that a file no runtime reads (a README the model wrote) goes unanalysed.
fn worth_telling(d: &Diagnostic) -> bool {
    d.code != Code::UncheckedFile && (d.effect != Effect::Works || d.severity == Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(root: &Path, file: &str) -> String {
        json!({
            "session_id": "s",
            "cwd": root,
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_input": { "file_path": root.join(file), "content": "..." },
            "tool_response": { "success": true },
        })
        .to_string()
    }

    fn write(root: &Path, file: &str, text: &str) {
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn context(out: Option<String>) -> String {
        let out: Value = serde_json::from_str(&out.expect("the hook has something to tell")).unwrap();
        assert_eq!(out["hookSpecificOutput"]["hookEventName"], "PostToolUse");
        out["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string()
    }

    fn options() -> Options {
        Options::from_env(true, None)
    }

    #[test]
    fn tells_what_changes_the_runtime_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        write(
            &root,
            ".claude/agents/rev.md",
            "---\nname: rev\ndescription: Reviews code\nmodel: sonet\ncolour: red\n---\nReview.\n",
        );
        expect_test::expect![[r#"
            agent-lsp checked .claude/agents/rev.md: 2 findings change what the runtime does with it:
            - .claude/agents/rev.md:4:8 [invalid-model] `sonet` is no model alias; did you mean `sonnet`? Claude Code keeps the name and the request fails when the agent runs
              Fix: Replace with `sonnet`.
            - .claude/agents/rev.md:5:1 [unknown-key] Claude Code does not recognize `colour` and ignores it; did you mean `color`?
              Fix: Rename to `color`."#]]
        .assert_eq(&context(respond(&event(&root, ".claude/agents/rev.md"), &options())));
    }

    #[test]
    fn says_nothing_about_a_good_file_a_readme_or_a_bad_event() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        write(
            &root,
            ".opencode/agents/rev.md",
            "---\ndescription: Reviews code\nmode: subagent\nmaxSteps: 5\n---\nReview.\n",
        );
        write(&root, "README.md", "# Notes\n");
        // A deprecated field works as written: not worth a model's turn.
        assert_eq!(respond(&event(&root, ".opencode/agents/rev.md"), &options()), None);
        assert_eq!(respond(&event(&root, "README.md"), &options()), None);
        assert_eq!(respond(&event(&root, "missing.md"), &options()), None);
        assert_eq!(respond("not json", &options()), None);
        assert_eq!(respond(r#"{"tool_input": {}}"#, &options()), None);
    }

    #[test]
    fn a_relative_path_is_read_from_cwd_and_a_refusal_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        write(
            &root,
            ".opencode/agents/rev.md",
            "---\ndescription: Reviews\nmode: primry\n---\nReview.\n",
        );
        let event = json!({
            "cwd": root,
            "hook_event_name": "PostToolUse",
            "tool_input": { "file_path": ".opencode/agents/rev.md" },
        })
        .to_string();
        expect_test::expect![[r#"
            agent-lsp checked .opencode/agents/rev.md: 1 finding changes what the runtime does with it:
            - .opencode/agents/rev.md:3:7 [invalid-value] `mode` must be "subagent", "primary" or "all", got "primry"; opencode refuses to load the configuration. Did you mean `primary`?
              Fix: Replace with `primary`."#]].assert_eq(&context(respond(&event, &options())));
    }
}
