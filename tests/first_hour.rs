//! The first hour of a new user, end to end through the real binary: a project of 27 files in
//! four dialects (three Copilot agents, prompts, instructions and `.vscode/mcp.json`; Claude Code
//! settings, hooks, `.mcp.json`, `CLAUDE.md`, subagents, a command and a skill; an
//! `opencode.json` with MCP servers and agents, and a Markdown agent), with realistic mistakes
//! planted and written down before anything runs ([`PLANTED`]). Then, as the user would:
//! `check` (every mistake found on its line, one finding per cause, no noise on what is fine),
//! `explain` (why an answer changed), `setup --write` (broken files left alone, the others
//! written), `check --fix --unsafe-fixes` (no fixable error left, the file's style kept),
//! `check` again, `setup --write` again.

mod cli_support;

use cli_support::{command, workspace};
use serde_json::Value;
use std::fs;
use std::path::Path;

const FILES: &[(&str, &str)] = &[
    // GitHub Copilot.
    (
        ".github/agents/planner.agent.md",
        "---\nname: planner\ndescription: Plans a change before anything is edited\ntools: ['search', 'read', 'runCommands', 'runTasks', 'fetch']\nhandoffs:\n  - label: Implement the plan\n    agent: implementor\n    prompt: Implement the plan above.\n    send: false\n---\nWrite a numbered plan.\n",
    ),
    (
        ".github/agents/implementer.agent.md",
        "---\nname: implementer\ndescription: Implements a plan\ntools:\n  - \"edit\"\n  - \"search\"\n  - \"runCommands\"\n  - \"runTasks\"\n  - \"problems\"\n---\nImplement the plan.\n",
    ),
    (
        ".github/agents/reviewer.agent.md",
        "---\nname: reviewer\ndescription: Reviews changes\ntools: ['search', 'read']\ntarget: vscode\ninfer: false\n---\nReview the diff.\n",
    ),
    (
        ".github/prompts/triage.prompt.md",
        "---\ndescription: Triage an issue\nmode: agnet\n---\nLabel the issue.\n",
    ),
    (
        ".github/prompts/release.prompt.md",
        "---\ndescription: Write release notes\nagent: planner\n---\nWrite the notes.\n",
    ),
    (
        ".github/instructions/admin.instructions.md",
        "---\napplyTo: \"src/admin/**/*.ts,src/admin/**/*.tsx\"\n---\nAdmin code follows the admin rules.\n",
    ),
    (
        ".github/instructions/api.instructions.md",
        "---\napplyTo: 'src/api/**'\n---\nAPI code returns typed errors.\n",
    ),
    (".github/copilot-instructions.md", "Write small functions.\n"),
    (
        ".vscode/mcp.json",
        "{\n  \"inputs\": [\n    { \"type\": \"promptString\", \"id\": \"github-token\", \"description\": \"GitHub token\", \"password\": true }\n  ],\n  \"servers\": {\n    \"github\": {\n      \"type\": \"http\",\n      \"url\": \"https://api.githubcopilot.com/mcp/\",\n      \"headers\": { \"Authorization\": \"Bearer ${input:gh-token}\" }\n    }\n  }\n}\n",
    ),
    ("src/admin/index.ts", "export const admin = 1;\n"),
    ("src/api/index.ts", "export const api = 1;\n"),
    // Claude Code.
    (
        ".claude/settings.json",
        "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm run *)\",\n      \"Bash(git status)\",\n      \"Read(./src/**)\",\n      \"Edit(./src/**)\"\n    ],\n    \"ask\": [\n      \"Bash(git push:*)\"\n    ],\n    \"deny\": [\n      \"Read(./.env)\",\n      \"Bash(curl:*)\",\n      \"Write(./migrations/**)\"\n    ],\n    \"defaultMode\": \"acceptEdit\"\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      { \"matcher\": \"Bash\", \"hooks\": [ { \"type\": \"command\", \"command\": \"./.claude/hooks/guard.sh\" } ] }\n    ]\n  }\n}\n",
    ),
    (
        ".mcp.json",
        "{\n  \"mcpServers\": {\n    \"docs\": { \"type\": \"http\", \"url\": \"https://docs.example.com/mcp\" },\n  }\n}\n",
    ),
    (
        "CLAUDE.md",
        "# Project\n\nSee @docs/missing.md for the rules and @docs/style.md for the style.\n",
    ),
    ("docs/style.md", "Two spaces.\n"),
    (
        ".claude/agents/test-runner.md",
        "---\nname: test-runner\ndescription: Runs the tests and reports failures\ntools: Bash, Read, Grep\nmodel: sonet\n---\nRun the tests.\n",
    ),
    (
        ".claude/agents/docs.md",
        "---\nname: docs\ndescription: Writes docs\ncolor: 'purpel'\n---\nWrite the docs.\n",
    ),
    (
        ".claude/commands/pr.md",
        "---\ndescription: Review a pull request\nargument-hint: [pr-number]\nallowed-tools: Bash(gh pr view:*)\n---\nReview pull request $1.\n",
    ),
    (
        ".claude/skills/release/SKILL.md",
        "---\nname: release\ndescription: Cuts a release: tags it and writes the changelog\nallowed-tools: Bash(git tag:*)\n---\nTag the release.\n",
    ),
    // opencode.
    (
        "opencode.json",
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"fs\": { \"type\": \"local\", \"command\": [\"npx\", \"-y\", \"@modelcontextprotocol/server-filesystem\"] }\n  },\n  \"agent\": {\n    \"build\": { \"permission\": { \"bash\": { \"*\": \"ask\", \"git status\": \"allow\" } } },\n    \"review\": { \"mode\": \"subagent\", \"description\": \"Reviews\", \"permissions\": { \"edit\": \"deny\" } }\n  }\n}\n",
    ),
    (
        ".opencode/agents/deployer.md",
        "---\ndescription: Deploys\nmode: subagent\npermission:\n  bash:\n    \"git push *\": deny\n    \"npm publish*\": deny\n    \"*\": ask\n---\nDeploy.\n",
    ),
    (
        ".opencode/agents/writer.md",
        "---\ndescription: Writes\nmode: subagent\ncolor: \"#FF8800\"\n---\nWrite.\n",
    ),
    ("AGENTS.md", "Be brief.\n"),
    ("README.md", "# The project\n"),
    ("package.json", "{ \"name\": \"first-hour\", \"private\": true }\n"),
    ("docs/notes.md", "Notes.\n"),
    (".gitignore", "node_modules\n"),
];

/// The mistakes planted, written down before anything runs: the file, the line, the rule.
const PLANTED: &[(&str, u64, &str)] = &[
    (".github/agents/planner.agent.md", 4, "deprecated-field"), // runCommands, runTasks, fetch
    (".github/agents/planner.agent.md", 7, "unknown-agent"),    // implementor
    (".github/agents/implementer.agent.md", 7, "deprecated-field"),
    (".github/agents/reviewer.agent.md", 6, "deprecated-field"), // infer
    (".github/prompts/triage.prompt.md", 3, "deprecated-field"), // mode
    (".github/prompts/triage.prompt.md", 3, "unknown-agent"),    // agnet
    (".vscode/mcp.json", 9, "unresolved-variable"),              // gh-token
    (".claude/settings.json", 17, "invalid-value"),              // defaultMode
    (".claude/settings.json", 15, "ignored-permission-rule"),    // Write(...)
    (".claude/settings.json", 21, "missing-path"),               // guard.sh
    (".mcp.json", 3, "syntax-error"),                            // trailing comma
    ("CLAUDE.md", 3, "missing-path"),                            // docs/missing.md
    (".claude/agents/test-runner.md", 5, "invalid-model"),       // sonet
    (".claude/agents/docs.md", 4, "invalid-color"),              // purpel
    (".claude/commands/pr.md", 6, "argument-index"),             // $1
    (".claude/skills/release/SKILL.md", 3, "lenient-parse"),     // `: ` in a plain value
    ("opencode.json", 8, "v2-permissions"),                      // permissions
    (".opencode/agents/deployer.md", 8, "shadowed-rule"),        // "*": ask last
];

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = command(dir, args).output().expect("run agent-lsp");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

fn check_json(dir: &Path) -> Value {
    let (_, out, err) = run(dir, &["check", "--no-global", "--format", "json"]);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
}

/// `(path, line, code, severity)` of each finding.
fn findings(v: &Value) -> Vec<(String, u64, String, String)> {
    v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn read(dir: &Path, rel: &str) -> String {
    fs::read_to_string(dir.join(rel)).expect("read")
}

#[test]
fn the_first_hour() {
    let t = workspace(FILES);
    let dir = t.path();
    assert_eq!(FILES.len(), 27);

    // 1. Check: every planted mistake is found, on its line.
    let v = check_json(dir);
    let found = findings(&v);
    for (path, line, code) in PLANTED {
        assert!(
            found.iter().any(|(p, l, c, _)| p == path && l == line && c == code),
            "{code} at {path}:{line} not found in {found:#?}"
        );
    }
    // Every file read is listed, those without findings too.
    let checked: Vec<&str> = v["checked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(v["files"], checked.len());
    for file in [
        ".github/instructions/api.instructions.md",
        ".opencode/agents/writer.md",
        ".github/copilot-instructions.md",
    ] {
        assert!(checked.contains(&file), "{file} not in {checked:?}");
    }
    // One cause, one finding: the voided settings file is one error, its rules its related
    // places.
    let on_settings: Vec<&(String, u64, String, String)> =
        found.iter().filter(|(p, ..)| p == ".claude/settings.json").collect();
    // Besides it: the ignored rule, and the guard hook, which names a script that is not there
    // and names it from the current folder (`relative-hook-path`: once there, it is still not
    // found after the model's `cd`).
    assert_eq!(on_settings.len(), 4, "{on_settings:#?}");
    let voiding = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == ".claude/settings.json" && d["code"] == "invalid-value")
        .unwrap();
    assert_eq!(voiding["related"].as_array().unwrap().len(), 8, "{voiding:#}");
    // No noise: a pattern written ahead of its files is fine while another matches; the
    // documented `argument-hint: [pr-number]` is information, with its fix.
    assert!(
        !found.iter().any(|(p, ..)| p.ends_with("admin.instructions.md")),
        "{found:#?}"
    );
    assert!(found.contains(&(".claude/commands/pr.md".into(), 3, "invalid-type".into(), "info".into())));
    // Nothing in a file that is fine.
    for fine in [
        ".github/prompts/release.prompt.md",
        ".github/instructions/api.instructions.md",
        ".opencode/agents/writer.md",
        "AGENTS.md",
    ] {
        assert!(!found.iter().any(|(p, ..)| p == fine), "{fine}: {found:#?}");
    }

    // The human report says how many files have findings and how many were checked.
    let (status, human, _) = run(dir, &["check", "--no-global"]);
    assert_eq!(status, 1);
    let with_findings = {
        let mut p: Vec<&String> = found.iter().map(|(p, ..)| p).collect();
        p.dedup();
        p.len()
    };
    assert!(
        human.contains(&format!(" in {with_findings} files ({} checked)\n", checked.len())),
        "{human}"
    );
    assert!(
        human.contains("= note: not applied: `Bash(curl:*)` in `deny` (.claude/settings.json:14:7)"),
        "{human}"
    );

    // 2. Explain: why the answer changed, and only about the runtime asked.
    let (_, out, err) = run(
        dir,
        &[
            "explain",
            "test-runner",
            "--no-global",
            "--check",
            "Bash",
            "curl https://example.com",
        ],
    );
    assert!(
        out.contains("test-runner: Bash \"curl https://example.com\" → ask"),
        "{out}"
    );
    assert!(
        out.contains("not applied: `Bash(curl:*)` in `permissions.deny` (.claude/settings.json:14:7) would decide deny, but Claude Code applies nothing of that file because of .claude/settings.json:17:20"),
        "{out}"
    );
    assert!(!err.contains("opencode"), "{err}");
    let (_, _, err) = run(dir, &["explain", "planner", "--no-global", "--dialect", "copilot"]);
    assert!(!err.contains("opencode refuses"), "{err}");
    let (_, out, _) = run(dir, &["explain", "--no-global", "--who", "bash", "curl https://x.dev"]);
    assert!(
        out.contains("not applied, for test-runner (claude): `Bash(curl:*)`"),
        "{out}"
    );

    // 3. Setup before fixing: the broken files are left as they are and say why; the exit
    // status says not everything is set up.
    let settings_before = read(dir, ".claude/settings.json");
    let mcp_before = read(dir, ".mcp.json");
    let opencode_before = read(dir, "opencode.json");
    let (status, out, _) = run(dir, &["setup", "claude", "--write", "--hook"]);
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("left .mcp.json as it is"), "{out}");
    assert!(out.contains("left .claude/settings.json as it is"), "{out}");
    assert!(!out.contains("next session"), "{out}");
    let (status, out, _) = run(dir, &["setup", "opencode", "--write"]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("left opencode.json as it is: opencode refuses this configuration"),
        "{out}"
    );
    assert_eq!(read(dir, ".claude/settings.json"), settings_before);
    assert_eq!(read(dir, ".mcp.json"), mcp_before);
    assert_eq!(read(dir, "opencode.json"), opencode_before);

    // 4. Fix: every fixable error goes in one command, the files keep their style.
    let (_, out, err) = run(dir, &["check", "--no-global", "--fix", "--unsafe-fixes"]);
    assert!(out.contains("fixed .mcp.json: Remove the trailing comma"), "{out}{err}");
    let v = check_json(dir);
    let with_fix: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error" && d.get("suggestion").is_some())
        .collect();
    assert!(with_fix.is_empty(), "{with_fix:#?}");
    let errors: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // Style: the list's own quotes, no duplicate; the value's own quotes; block lists stay so.
    assert!(
        read(dir, ".github/agents/planner.agent.md").contains("tools: ['search', 'read', 'execute', 'web/fetch']\n"),
        "{}",
        read(dir, ".github/agents/planner.agent.md")
    );
    assert!(read(dir, ".github/agents/planner.agent.md").contains("    agent: implementer\n"));
    assert_eq!(
        read(dir, ".github/agents/implementer.agent.md"),
        "---\nname: implementer\ndescription: Implements a plan\ntools:\n  - \"edit\"\n  - \"search\"\n  - \"execute\"\n  - \"read/problems\"\n---\nImplement the plan.\n"
    );
    assert!(read(dir, ".github/prompts/triage.prompt.md").contains("\nagent: agent\n"));
    assert!(read(dir, ".github/agents/reviewer.agent.md").contains("\ndisable-model-invocation: true\n"));
    assert!(read(dir, ".claude/agents/docs.md").contains("color: 'purple'\n"));
    assert!(read(dir, ".vscode/mcp.json").contains("\"Bearer ${input:github-token}\""));
    assert!(read(dir, ".claude/settings.json").contains("\"defaultMode\": \"acceptEdits\""));
    assert!(read(dir, "opencode.json").contains("\"permission\": { \"edit\": \"deny\" }"));
    // What is left has no fix: a missing script, a missing import.
    let left = findings(&v);
    assert!(
        left.contains(&(
            ".claude/settings.json".into(),
            21,
            "missing-path".into(),
            "warning".into()
        )),
        "{left:#?}"
    );
    assert!(
        left.contains(&("CLAUDE.md".into(), 3, "missing-path".into(), "warning".into())),
        "{left:#?}"
    );
    // A second run changes nothing.
    let (_, out, _) = run(dir, &["check", "--no-global", "--fix", "--unsafe-fixes"]);
    assert!(!out.contains("fixed "), "{out}");

    // 5. Setup again: every file is written now.
    let (status, out, _) = run(dir, &["setup", "claude", "--write", "--hook"]);
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("Claude Code runs it from its next session"), "{out}");
    let (status, out, _) = run(dir, &["setup", "opencode", "--write"]);
    assert_eq!(status, 0, "{out}");
}
