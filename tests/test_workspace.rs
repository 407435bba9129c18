//! The bundled example project, `test-workspace/`: it must show every diagnostic code at least
//! once, its clean example agents must stay clean, and the full list of what it reports is pinned
//! below. After an intended change, refresh the list with
//! `UPDATE_EXPECT=1 cargo test --test test_workspace`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agent_lsp::analysis::{Encoding, RULES, Severity};
use agent_lsp::workspace::{Options, Workspace};
use expect_test::expect;

/// Agents written as good examples: no diagnostic at all.
const CLEAN: &[&str] = &[
    ".opencode/agents/planner.md",
    ".opencode/agents/docs-writer.md",
    ".opencode/agents/translator.md",
    ".opencode/agents/team/reviewer.md",
    ".claude/agents/code-reviewer.md",
    ".claude/agents/test-runner.md",
    "zuno.json",
    ".zuno/agents/docs.md",
    ".codex/agents/reviewer.toml",
    ".gemini/agents/reviewer.md",
    "plugins/release-tools/.claude-plugin/plugin.json",
    "plugins/release-tools/commands/cut.md",
    "plugins/release-tools/skills/changelog/SKILL.md",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace")
}

fn load() -> Workspace {
    let ws = Workspace::load(&[root()], &Options::isolated()).expect("load test-workspace");
    assert!(ws.errors.is_empty(), "unreadable: {:?}", ws.errors);
    ws
}

/// A file's path relative to test-workspace, with `/` separators.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_rule_fires_at_least_once() {
    let ws = load();
    // Every rule, in every dialect it checks.
    let fired: BTreeSet<(&str, &str)> = ws
        .diagnostics()
        .iter()
        .map(|(id, d)| (d.code.as_str(), ws.files[*id].kind.dialect().as_str()))
        .collect();
    let missing: Vec<(&str, &str)> = RULES
        .iter()
        .flat_map(|r| r.code.dialects().iter().map(move |d| (r.name, d.as_str())))
        .filter(|x| !fired.contains(x))
        .collect();
    assert!(missing.is_empty(), "test-workspace shows no {missing:?}");
    // `agent-lsp check test-workspace` exits with 1.
    assert!(ws.diagnostics().iter().any(|(_, d)| d.severity == Severity::Error));
}

#[test]
fn clean_example_agents_have_no_diagnostics() {
    let ws = load();
    let diags = ws.diagnostics();
    for clean in CLEAN {
        let id = ws
            .files
            .iter()
            .position(|f| relative(&f.path) == *clean)
            .unwrap_or_else(|| panic!("{clean} was not loaded"));
        assert!(ws.files[id].in_scope, "{clean}");
        let own: Vec<_> = diags.iter().filter(|(i, _)| *i == id).map(|(_, d)| d).collect();
        assert!(own.is_empty(), "{clean}: {own:#?}");
    }
}

#[test]
fn summary() {
    let ws = load();
    let mut out = String::new();
    for (id, d) in ws.diagnostics() {
        let f = &ws.files[id];
        let pos = f.index.line_col(&f.text, d.span.start as usize, Encoding::Utf32);
        out.push_str(&format!(
            "{}:{}:{} {}\n",
            relative(&f.path),
            pos.line + 1,
            pos.col + 1,
            d.code.as_str()
        ));
    }
    expect![[r#"
        .agents/skills/style-guide/SKILL.md:2:7 duplicate-skill
        .claude/agents/README.md:1:1 no-frontmatter
        .claude/agents/bad-hooks.md:5:15 invalid-type
        .claude/agents/bad-name.md:2:7 invalid-name
        .claude/agents/bad-tools.md:2:7 duplicate-agent
        .claude/agents/bad-tools.md:4:14 unknown-tool
        .claude/agents/bad-tools.md:4:20 unknown-tool
        .claude/agents/bad-tools.md:4:24 ignored-specifier
        .claude/agents/bad-tools.md:4:43 deprecated-field
        .claude/agents/bad-tools.md:4:91 shadowed-rule
        .claude/agents/bad-tools.md:4:97 unknown-agent
        .claude/agents/bad-values.md:4:17 invalid-value
        .claude/agents/bad-values.md:5:9 invalid-value
        .claude/agents/bad-values.md:6:11 invalid-value
        .claude/agents/bad-values.md:7:8 invalid-color
        .claude/agents/bad-values.md:8:9 invalid-value
        .claude/agents/bad-values.md:9:8 invalid-model
        .claude/agents/bad-values.md:10:1 unknown-key
        .claude/agents/bad-values.md:10:30 unused-suppression
        .claude/agents/bad-values.md:11:1 duplicate-key
        .claude/agents/bad-values.md:12:12 invalid-value
        .claude/agents/bad-values.md:13:10 unknown-skill
        .claude/agents/binary.md:1:1 unchecked-file
        .claude/agents/broken-yaml.md:4:10 syntax-error
        .claude/agents/extra/draft.md:1:1 missing-field
        .claude/agents/extra/fixer-copy.md:2:7 duplicate-agent
        .claude/agents/lenient-description.md:3:14 lenient-parse
        .claude/agents/no-description.md:2:7 missing-field
        .claude/agents/truncated.md:3:36 truncated-frontmatter
        .claude/commands/commit.md:2:1 unknown-key
        .claude/commands/commit.md:3:53 unknown-tool
        .claude/commands/empty.md:1:1 missing-template
        .claude/commands/fix-issue.md:5:16 argument-index
        .claude/commands/fix-issue.md:5:80 placeholder-in-code
        .claude/commands/fix-issue.md:5:80 argument-index
        .claude/commands/fix-issue.md:6:64 home-path
        .claude/commands/git/amend.md:2:14 lenient-parse
        .claude/commands/git/amend.md:3:16 invalid-type
        .claude/commands/git/amend.md:9:43 placeholder-in-code
        .claude/deploy/SKILL.md:1:1 misplaced-skill
        .claude/output-styles/terse.md:4:1 unknown-key
        .claude/rules/api.md:2:1 unknown-key
        .claude/settings.json:5:7 policy-violation
        .claude/settings.json:20:7 ignored-permission-rule
        .claude/settings.json:29:52 unquoted-path-variable
        .claude/settings.json:33:39 unknown-mcp-server
        .claude/settings.json:36:27 hardcoded-secret
        .claude/settings.local.json:3:20 missing-path
        .claude/settings.local.json:9:29 invalid-value
        .claude/settings.local.json:14:20 ignored-field
        .claude/settings.local.json:15:52 missing-path
        .claude/settings.local.json:15:52 relative-hook-path
        .claude/settings.local.json:15:85 invalid-value
        .claude/settings.local.json:19:3 unknown-key
        .claude/skills/changelog/SKILL.md:2:7 duplicate-skill
        .claude/skills/lint/SKILL.md:2:7 invalid-name
        .claude/skills/lint/SKILL.md:2:7 name-mismatch
        .claude/skills/lint/SKILL.md:4:22 broad-grant
        .claude/skills/release-check/SKILL.md:4:16 unknown-tool
        .claude/skills/release-check/SKILL.md:6:28 broken-link
        .codex/agents/migrator.toml:2:42 syntax-error
        .codex/agents/release.toml:3:75 home-path
        .codex/agents/release.toml:4:19 deprecated-field
        .codex/agents/strict-reviewer.toml:1:8 duplicate-agent
        .codex/agents/tester.toml:2:1 unknown-key
        .codex/config.toml:3:26 invalid-value
        .codex/config.toml:5:16 invalid-value
        .codex/config.toml:6:1 ignored-field
        .codex/config.toml:12:1 unknown-key
        .codex/config.toml:16:8 invalid-type
        .codex/config.toml:20:10 unpinned-package
        .codex/config.toml:23:1 missing-field
        .codex/config.toml:24:26 hardcoded-secret
        .gemini/agents/notes.md:1:1 no-frontmatter
        .gemini/agents/release.md:2:7 invalid-name
        .gemini/agents/release.md:4:20 unknown-tool
        .gemini/agents/release.md:6:75 home-path
        .gemini/agents/strict-reviewer.md:2:7 duplicate-agent
        .gemini/settings.json:4:16 invalid-type
        .gemini/settings.json:5:24 invalid-value
        .gemini/settings.json:9:5 duplicate-key
        .gemini/settings.json:11:3 unknown-key
        .gemini/settings.json:13:5 missing-field
        .gemini/settings.json:18:73 hardcoded-secret
        .gemini/settings.json:21:44 unpinned-package
        .gemini/settings.json:23:7 unknown-key
        .gemini/settings.json:24:15 invalid-type
        .github/agents/docs.agent.md:2:7 duplicate-agent
        .github/agents/docs.agent.md:4:1 duplicate-key
        .github/agents/docs.agent.md:5:9 invalid-value
        .github/agents/docs.agent.md:6:23 unknown-mcp-server
        .github/agents/labeler.agent.md:1:1 broad-grant
        .github/agents/planner.agent.md:7:1 ignored-field
        .github/agents/reviewer.agent.md:5:23 unknown-mcp-server
        .github/agents/reviewer.agent.md:5:35 unknown-tool
        .github/agents/reviewer.agent.md:6:1 unknown-key
        .github/agents/reviewer.agent.md:7:1 deprecated-field
        .github/agents/reviewer.agent.md:8:1 ignored-field
        .github/agents/reviewer.agent.md:12:19 unpinned-package
        .github/agents/reviewer.agent.md:15:12 unknown-agent
        .github/agents/security.agent.md:3:29 syntax-error
        .github/chatmodes/debug.chatmode.md:1:1 deprecated-file
        .github/instructions/python.instructions.md:2:11 missing-path
        .github/instructions/sql.instructions.md:2:10 invalid-type
        .github/prompts/scaffold.prompt.md:2:1 misplaced-frontmatter
        .github/prompts/triage.prompt.md:3:1 deprecated-field
        .github/prompts/triage.prompt.md:3:7 unknown-agent
        .github/prompts/triage.prompt.md:5:38 home-path
        .mcp.json:5:23 unpinned-package
        .mcp.json:7:7 unknown-key
        .mcp.json:9:5 missing-field
        .mcp.json:15:37 unsubstituted-variable
        .mcp.json:20:18 invalid-type
        .mcp.json:22:5 invalid-name
        .mcp.json:22:88 hardcoded-secret
        .opencode/agents/NOTES.md:1:1 no-frontmatter
        .opencode/agents/bad-color.md:4:8 invalid-color
        .opencode/agents/bad-mode.md:3:7 invalid-value
        .opencode/agents/bad-model.md:4:8 invalid-model
        .opencode/agents/binary.md:1:1 unchecked-file
        .opencode/agents/broken-yaml.md:7:5 syntax-error
        .opencode/agents/changelog-checker.md:2:7 undescribed-subagent
        .opencode/agents/db-migrator.md:10:5 overridden-deny
        .opencode/agents/dead-permissions.md:5:3 unknown-permission
        .opencode/agents/dead-permissions.md:6:3 unknown-permission
        .opencode/agents/dead-permissions.md:13:5 unknown-skill
        .opencode/agents/duplicate-key.md:6:1 duplicate-key
        .opencode/agents/duplicate-name.md:2:7 duplicate-agent
        .opencode/agents/hidden-primary.md:4:1 hidden-primary
        .opencode/agents/misplaced-frontmatter.md:2:1 misplaced-frontmatter
        .opencode/agents/prompt-in-frontmatter.md:4:1 prompt-overridden
        .opencode/agents/release-manager.md:1:1 duplicate-agent
        .opencode/agents/release-manager.md:11:5 policy-violation
        .opencode/agents/release-manager.md:13:3 broad-grant
        .opencode/agents/release-manager.md:22:38 home-path
        .opencode/agents/shadowed-rules.md:8:5 shadowed-rule
        .opencode/agents/tools-deprecated.md:4:1 deprecated-field
        .opencode/agents/tools-deprecated.md:8:1 deprecated-field
        .opencode/agents/typo-keys.md:4:51 unused-suppression
        .opencode/agents/typo-keys.md:5:1 unknown-key
        .opencode/agents/wrong-types.md:4:8 invalid-type
        .opencode/agents/wrong-types.md:5:9 invalid-type
        .opencode/command/empty.md:1:1 missing-template
        .opencode/commands/ship.md:3:1 unknown-key
        .opencode/commands/ship.md:4:8 unknown-agent
        .opencode/commands/ship.md:5:10 invalid-type
        .opencode/mode/focus.md:1:1 deprecated-field
        .opencode/onboarding/SKILL.md:1:1 misplaced-skill
        .opencode/skills/Deploy_Prod/SKILL.md:2:7 invalid-name
        .opencode/skills/Deploy_Prod/SKILL.md:4:1 unknown-key
        .opencode/skills/api/SKILL.md:2:7 name-mismatch
        .opencode/skills/api/SKILL.md:5:72 broken-link
        .opencode/skills/changelog/SKILL.md:2:7 duplicate-skill
        .opencode/skills/migrations/SKILL.md:3:14 lenient-parse
        .opencode/skills/release-notes/SKILL.md:2:7 missing-field
        .vscode/mcp.json:10:45 unresolved-variable
        .vscode/mcp.json:12:5 missing-field
        .vscode/mcp.json:13:50 unpinned-package
        .vscode/mcp.json:13:93 unsubstituted-variable
        .vscode/mcp.json:13:141 hardcoded-secret
        .zuno/agents/bad-yaml.md:4:1 syntax-error
        .zuno/agents/binary.md:1:1 unchecked-file
        .zuno/agents/docs-copy.md:2:7 duplicate-agent
        .zuno/agents/prompt-in-frontmatter.md:4:1 prompt-overridden
        .zuno/agents/prompt-in-frontmatter.md:4:56 unused-suppression
        .zuno/command/empty.md:1:1 missing-template
        .zuno/commands/release.md:4:8 invalid-model
        .zuno/commands/release.md:6:67 home-path
        .zuno/mode/focus.md:1:1 deprecated-field
        .zuno/skills/notes/SKILL.md:1:1 missing-field
        .zuno/skills/notes/SKILL.md:4:34 broken-link
        .zuno/skills/style/SKILL.md:2:7 name-mismatch
        .zuno/skills/style/SKILL.md:2:7 duplicate-skill
        .zuno/skills/triage_bot/SKILL.md:2:7 invalid-name
        .zuno/triage/SKILL.md:1:1 misplaced-skill
        CLAUDE.md:4:32 missing-path
        CONTEXT.md:1:1 shadowed-file
        GEMINI.md:3:32 missing-path
        GEMINI.md:5:16 missing-path
        agent-lsp.toml:21:7 policy-violation
        opencode.json:6:3 unknown-key
        opencode.json:13:7 unknown-key
        opencode.json:19:45 unsubstituted-variable
        opencode.json:29:7 broad-pattern
        opencode.json:51:18 bad-file-reference
        opencode.json:66:61 unknown-agent
        opencode.json:67:5 missing-template
        opencode.json:72:57 hardcoded-secret
        packages/api/.codex/config.toml:2:16 broad-grant
        packages/api/.gemini/settings.json:4:30 broad-grant
        packages/api/AGENTS.md:1:1 shadowed-file
        packages/api/AGENTS.override.md:9:35 truncated-instructions
        packages/api/opencode.json:3:3 v2-permissions
        packages/web/.gemini/settings.json:4:4 syntax-error
        packages/web/AGENTS.override.md:1:1 shadowed-file
        packages/web/opencode.json:3:20 invalid-default-agent
        packages/web/opencode.json:4:20 missing-path
        packages/web/opencode.json:7:5 missing-field
        packages/web/opencode.json:7:45 unpinned-package
        packages/web/zuno.json:2:3 unknown-key
        packages/web/zuno.json:4:3 duplicate-key
        packages/web/zuno.json:5:20 invalid-default-agent
        packages/web/zuno.json:6:24 invalid-value
        packages/web/zuno.json:10:16 invalid-model
        packages/web/zuno.json:11:7 deprecated-field
        packages/web/zuno.json:12:7 unknown-key
        packages/web/zuno.json:13:16 invalid-color
        packages/web/zuno.json:14:17 invalid-type
        packages/web/zuno.json:15:21 invalid-value
        packages/web/zuno.json:15:29 unknown-agent
        packages/web/zuno.json:16:26 invalid-value
        packages/web/zuno.json:18:17 invalid-value
        packages/web/zuno.json:20:11 unknown-permission
        packages/web/zuno.json:21:22 shadowed-rule
        packages/web/zuno.json:21:43 policy-violation
        packages/web/zuno.json:26:51 hardcoded-secret
        plugins/release-tools/.mcp.json:3:20 missing-field
        plugins/release-tools/agents/releaser.md:4:1 ignored-field
        tui.json:6:5 unknown-key
        tui.json:9:17 invalid-value
        tui.json:10:3 unknown-key
        tui.json:11:3 deprecated-field
    "#]]
    .assert_eq(&out);
}

/// `check` moves each file's diagnostics out of the workspace instead of copying them: the same
/// report as the copying `diagnostics()`.
#[test]
fn taking_the_diagnostics_gives_the_same_report() {
    let ws = load();
    let mut taken = load();
    let d = ws.diagnostics();
    assert!(!d.is_empty());
    assert_eq!(taken.take_diagnostics(), d);
}
