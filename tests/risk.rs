//! The risk rules end to end, through `agent-lsp check`: `unpinned-package` in every runtime's
//! way of starting a server or a hook (its pin from the project's lockfile or the user's npx
//! cache, nothing for a package the project installs), and `home-path` in committed files only.
//! Each case has a safe twin that gets nothing.

mod cli_support;

use cli_support::{agent_lsp, workspace, write};
use serde_json::Value;

/// One server or hook per runtime, each started through a runner without a version.
const UNPINNED: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (
        "opencode.json",
        "{\n  \"mcp\": {\n    \"docs\": { \"type\": \"local\", \"command\": [\"npx\", \"-y\", \"docs-mcp@latest\"] }\n  }\n}\n",
    ),
    (
        ".mcp.json",
        "{ \"mcpServers\": { \"gh\": { \"command\": \"docker\", \"args\": [\"run\", \"-i\", \"--rm\", \"-e\", \"GITHUB_TOKEN\", \"ghcr.io/github/github-mcp-server\"] } } }\n",
    ),
    (
        ".claude/settings.json",
        "{ \"hooks\": { \"PostToolUse\": [{ \"matcher\": \"Write\", \"hooks\": [{ \"type\": \"command\", \"command\": \"cd web && npx eslint --fix .\" }] }] } }\n",
    ),
    (
        ".vscode/mcp.json",
        "{ \"servers\": { \"fetch\": { \"command\": \"uvx\", \"args\": [\"mcp-server-fetch\"] } } }\n",
    ),
    (
        ".codex/config.toml",
        "[mcp_servers.tracker]\ncommand = \"pnpm\"\nargs = [\"dlx\", \"tracker-mcp\"]\n",
    ),
    (
        ".gemini/settings.json",
        "{ \"mcpServers\": { \"git\": { \"command\": \"uvx\", \"args\": [\"--from\", \"git-mcp>=1\", \"git-mcp\"] } } }\n",
    ),
];

/// The same, each pinned (or turned off, or installed by the project).
const PINNED: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (
        "opencode.json",
        "{\n  \"mcp\": {\n    \"docs\": { \"type\": \"local\", \"command\": [\"npx\", \"-y\", \"docs-mcp@1.4.2\"] },\n    \"old\": { \"type\": \"local\", \"command\": [\"npx\", \"old-mcp\"], \"enabled\": false }\n  }\n}\n",
    ),
    (
        ".mcp.json",
        "{ \"mcpServers\": { \"gh\": { \"command\": \"docker\", \"args\": [\"run\", \"-i\", \"--rm\", \"-e\", \"GITHUB_TOKEN\", \"ghcr.io/github/github-mcp-server:v0.5.0\"] } } }\n",
    ),
    (
        ".claude/settings.json",
        "{ \"hooks\": { \"PostToolUse\": [{ \"matcher\": \"Write\", \"hooks\": [{ \"type\": \"command\", \"command\": \"cd web && npx eslint --fix .\" }] }] } }\n",
    ),
    ("package.json", "{ \"devDependencies\": { \"eslint\": \"^9.0.0\" } }\n"),
    (
        ".vscode/mcp.json",
        "{ \"servers\": { \"fetch\": { \"command\": \"uvx\", \"args\": [\"mcp-server-fetch==2025.4.7\"] } } }\n",
    ),
    (
        ".codex/config.toml",
        "[mcp_servers.tracker]\ncommand = \"pnpm\"\nargs = [\"dlx\", \"tracker-mcp@2.0.0\"]\n",
    ),
    (
        ".gemini/settings.json",
        "{ \"mcpServers\": { \"git\": { \"command\": \"uvx\", \"args\": [\"--from\", \"git-mcp==1.2.0\", \"git-mcp\"] } } }\n",
    ),
];

/// Each finding of `code`: its file, line, column, what it spans and its fix's replacement.
fn findings(report: &Value, code: &str, files: &[(&str, &str)]) -> Vec<(String, u64, String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .map(|d| {
            let path = d["path"].as_str().unwrap();
            let text = files.iter().find(|(p, _)| *p == path).map(|(_, t)| *t).unwrap_or("");
            let (start, end) = (&d["range"]["start"], &d["range"]["end"]);
            let line = text
                .lines()
                .nth(start["line"].as_u64().unwrap() as usize - 1)
                .unwrap_or("");
            let col = |c: &Value| {
                line.char_indices()
                    .nth(c.as_u64().unwrap() as usize - 1)
                    .map_or(line.len(), |(i, _)| i)
            };
            (
                path.to_string(),
                start["line"].as_u64().unwrap(),
                line[col(&start["column"])..col(&end["column"])].to_string(),
                d["suggestion"]["replacement"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn check(dir: &std::path::Path) -> Value {
    let out = agent_lsp(dir, &["check", "--no-global", "--format", "json"]);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

#[test]
fn every_runtime_gets_its_unpinned_package_on_the_package() {
    let dir = workspace(UNPINNED);
    let report = check(dir.path());
    let s = |p: &str, l: u64, w: &str| (p.to_string(), l, w.to_string(), String::new());
    assert_eq!(
        findings(&report, "unpinned-package", UNPINNED),
        vec![
            s(".claude/settings.json", 1, "eslint"),
            s(".codex/config.toml", 3, "tracker-mcp"),
            s(".gemini/settings.json", 1, "git-mcp>=1"),
            s(".mcp.json", 1, "ghcr.io/github/github-mcp-server"),
            s(".vscode/mcp.json", 1, "mcp-server-fetch"),
            s("opencode.json", 3, "docs-mcp@latest"),
        ],
        "{report:#}"
    );
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "unpinned-package")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        messages[1].starts_with("`pnpm dlx` runs package `tracker-mcp` without a version"),
        "{}",
        messages[1]
    );
    assert!(
        messages[5].starts_with("`npx` runs package `docs-mcp` at `latest`, which is not one version"),
        "{}",
        messages[5]
    );

    let dir = workspace(PINNED);
    assert_eq!(findings(&check(dir.path()), "unpinned-package", PINNED), vec![]);
}

#[test]
fn the_pin_is_the_version_the_lockfile_or_the_npx_cache_shows() {
    let files: &[(&str, &str)] = &[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            ".mcp.json",
            "{ \"mcpServers\": {\n  \"docs\": { \"command\": \"npx\", \"args\": [\"-y\", \"@acme/docs-mcp\"] },\n  \"new\": { \"command\": \"npx\", \"args\": [\"-y\", \"new-mcp@latest\"] },\n  \"other\": { \"command\": \"npx\", \"args\": [\"other-mcp\"] }\n} }\n",
        ),
        (
            "package-lock.json",
            "{ \"packages\": { \"\": {}, \"node_modules/@acme/docs-mcp\": { \"version\": \"1.4.2\" } } }\n",
        ),
    ];
    let dir = workspace(files);
    // The user's npx cache, where `npx new-mcp` ran before.
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        ".npm/_npx/0a1b/node_modules/new-mcp/package.json",
        "{ \"version\": \"0.9.1\" }",
    );
    let out = cli_support::run(
        cli_support::command(dir.path(), &["check", "--format", "json", "."])
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join(".config")),
    );
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = findings(&report, "unpinned-package", files);
    assert_eq!(
        found,
        vec![
            (
                ".mcp.json".into(),
                2,
                "@acme/docs-mcp".into(),
                "@acme/docs-mcp@1.4.2".into()
            ),
            (".mcp.json".into(), 3, "new-mcp@latest".into(), "new-mcp@0.9.1".into()),
            (".mcp.json".into(), 4, "other-mcp".into(), String::new()),
        ],
        "{report:#}"
    );
    let first = &report["diagnostics"].as_array().unwrap()[0];
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .ends_with(" 1.4.2 is the version in the project's package-lock.json."),
        "{first:#}"
    );
    // Applied, the pins leave only the package nothing knows.
    let out = cli_support::run(
        cli_support::command(dir.path(), &["check", "--unsafe-fixes", "--fix", "."])
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join(".config")),
    );
    // (What is left is a warning: the exit status is 0.)
    assert_eq!(out.status, 0, "{}", out.stderr);
    let fixed = std::fs::read_to_string(dir.path().join(".mcp.json")).unwrap();
    assert!(
        fixed.contains("\"@acme/docs-mcp@1.4.2\"")
            && fixed.contains("\"new-mcp@0.9.1\"")
            && fixed.contains("\"other-mcp\""),
        "{fixed}"
    );
}

const HOME_PATHS: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (".gitignore", "local-notes.md\n.claude/settings.local.json\n"),
    (
        ".claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: Reviews code\n---\nRead the checklist in /Users/ana/notes/review.md first.\n",
    ),
    (
        ".claude/settings.json",
        "{ \"hooks\": { \"Stop\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"/home/ana/bin/notify.sh\" }] }] } }\n",
    ),
    (
        ".claude/settings.local.json",
        "{ \"hooks\": { \"Stop\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"/home/ana/bin/notify.sh\" }] }] } }\n",
    ),
    (
        ".codex/config.toml",
        "[mcp_servers.notes]\ncommand = \"C:\\\\Users\\\\ana\\\\bin\\\\notes.exe\"\n",
    ),
    (
        "AGENTS.md",
        "# Notes\n\nThe style guide is in /home/user/style.md (any user).\n",
    ),
];

#[test]
fn home_paths_in_committed_files() {
    let dir = workspace(HOME_PATHS);
    let report = check(dir.path());
    let s = |p: &str, l: u64, w: &str| (p.to_string(), l, w.to_string(), String::new());
    assert_eq!(
        findings(&report, "home-path", HOME_PATHS),
        vec![
            s(".claude/agents/reviewer.md", 5, "/Users/ana"),
            s(".claude/settings.json", 1, "/home/ana"),
            s(".codex/config.toml", 2, "C:\\\\Users\\\\ana"),
        ],
        "{report:#}"
    );
    // Outside a repository (a user's own folder), nothing.
    let dir = workspace(&HOME_PATHS[2..]);
    assert_eq!(findings(&check(dir.path()), "home-path", HOME_PATHS), vec![]);
}

/// A home path that names a file that is not there is that finding's (`missing-path`,
/// `broken-link`): one cause, one finding.
#[test]
fn a_missing_home_path_is_one_finding() {
    let files: &[(&str, &str)] = &[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            "CLAUDE.md",
            "# Notes\n\n@/Users/ana/notes-that-are-not-there.md\n\nAlso /Users/ana/x.\n",
        ),
    ];
    let dir = workspace(files);
    let report = check(dir.path());
    let codes: Vec<(&str, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["range"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(codes, [("missing-path", 3), ("home-path", 5)], "{report:#}");
}

/// A committed grant of a whole class of actions, one per runtime's way of writing it.
const BROAD: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (".gitignore", ".claude/settings.local.json\n"),
    (
        ".claude/settings.json",
        "{ \"permissions\": {\n  \"allow\": [\"Read\", \"Bash(npm test *)\", \"Bash\"],\n  \"deny\": [\"Bash(rm *)\"]\n},\n  \"hooks\": { \"PermissionRequest\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"./approve.sh\" }] }] } }\n",
    ),
    (
        ".claude/settings.local.json",
        "{ \"permissions\": { \"allow\": [\"Bash(*)\"] } }\n",
    ),
    (
        ".claude/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploys the site\nallowed-tools: Read, Bash\n---\nDeploy.\n",
    ),
    (
        ".claude/commands/ship.md",
        "---\ndescription: Ship it\nallowed-tools: [\"PowerShell(*)\"]\n---\nShip.\n",
    ),
    (
        "opencode.json",
        "{\n  \"permission\": {\n    \"*\": \"allow\",\n    \"external_directory\": { \"/etc/*\": \"deny\" }\n  }\n}\n",
    ),
    (
        ".opencode/agents/wide.md",
        "---\ndescription: Reads everywhere\npermission:\n  external_directory: allow\n---\nRead.\n",
    ),
    (
        ".github/agents/helper.agent.md",
        "---\ndescription: Helps\n---\nHelp.\n",
    ),
    (".codex/config.toml", "sandbox_mode = \"danger-full-access\"\n"),
    (
        ".gemini/settings.json",
        "{ \"tools\": { \"allowed\": [\"run_shell_command\"] } }\n",
    ),
];

/// The same, each narrowed to what the agent needs.
const NARROW: &[(&str, &str)] = &[
    (".git/HEAD", "ref: refs/heads/main\n"),
    (
        ".claude/settings.json",
        "{ \"permissions\": {\n  \"allow\": [\"Read\", \"Bash(npm test *)\", \"Bash(git diff *)\"],\n  \"deny\": [\"Bash\"]\n},\n  \"hooks\": { \"PermissionRequest\": [{ \"matcher\": \"WebFetch\", \"hooks\": [{ \"type\": \"command\", \"command\": \"./approve.sh\" }] }] } }\n",
    ),
    (
        ".claude/skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploys the site\nallowed-tools: Read, Bash(npm run deploy *)\n---\nDeploy.\n",
    ),
    (
        "opencode.json",
        "{\n  \"permission\": {\n    \"*\": \"allow\",\n    \"external_directory\": \"ask\"\n  }\n}\n",
    ),
    (
        ".opencode/agents/wide.md",
        "---\ndescription: Reads notes\npermission:\n  external_directory:\n    \"*\": ask\n    \"~/notes/*\": allow\n---\nRead.\n",
    ),
    (
        ".github/agents/helper.agent.md",
        "---\ndescription: Helps\ntools: [read, search]\n---\nHelp.\n",
    ),
    (".codex/config.toml", "sandbox_mode = \"workspace-write\"\n"),
    (
        ".gemini/settings.json",
        "{ \"tools\": { \"allowed\": [\"run_shell_command(npm test)\"] } }\n",
    ),
];

#[test]
fn broad_grants_in_committed_files() {
    let dir = workspace(BROAD);
    let report = check(dir.path());
    let s = |p: &str, l: u64, w: &str| (p.to_string(), l, w.to_string(), String::new());
    assert_eq!(
        findings(&report, "broad-grant", BROAD),
        vec![
            s(".claude/commands/ship.md", 3, "PowerShell(*)"),
            s(".claude/settings.json", 2, "\"Bash\""),
            s(".claude/settings.json", 5, "\"hooks\""),
            s(".claude/skills/deploy/SKILL.md", 4, "Bash"),
            (
                ".codex/config.toml".to_string(),
                1,
                "\"danger-full-access\"".to_string(),
                "\"workspace-write\"".to_string()
            ),
            s(".gemini/settings.json", 1, "\"run_shell_command\""),
            s(".github/agents/helper.agent.md", 1, "---"),
            s(".opencode/agents/wide.md", 4, "external_directory"),
            s("opencode.json", 3, "\"*\""),
        ],
        "{report:#}"
    );
    let severity_of = |path: &str| {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "broad-grant" && d["path"] == path)
            .map(|d| d["severity"].as_str().unwrap().to_string())
    };
    assert_eq!(severity_of(".github/agents/helper.agent.md").as_deref(), Some("info"));
    assert_eq!(severity_of(".claude/settings.json").as_deref(), Some("warning"));

    let dir = workspace(NARROW);
    assert_eq!(findings(&check(dir.path()), "broad-grant", NARROW), vec![]);
    // Outside a repository (a user's own settings), nothing.
    let dir = workspace(&BROAD[2..]);
    assert_eq!(findings(&check(dir.path()), "broad-grant", BROAD), vec![]);
}

/// `unquoted-path-variable` wherever Claude Code reads hooks (settings, an agent's frontmatter, a
/// plugin's `hooks/hooks.json`), each on its variable; `check --fix` quotes them, and then
/// nothing is left.
#[test]
fn unquoted_path_variables_in_hooks_are_quoted_by_the_fix() {
    let files: &[(&str, &str)] = &[
        (
            ".claude/settings.json",
            "{ \"hooks\": { \"PreToolUse\": [{ \"matcher\": \"Bash\", \"hooks\": [\n  { \"type\": \"command\", \"command\": \"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh\" },\n  { \"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/guard.sh\" }\n] }] } }\n",
        ),
        (".claude/hooks/guard.sh", "#!/bin/sh\n"),
        (
            ".claude/agents/careful.md",
            "---\nname: careful\ndescription: Careful\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: $CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh --strict\n---\nBe careful.\n",
        ),
        ("plug/.claude-plugin/plugin.json", "{ \"name\": \"plug\" }\n"),
        ("plug/scripts/fmt.sh", "#!/bin/sh\n"),
        (
            "plug/hooks/hooks.json",
            "{ \"hooks\": { \"PostToolUse\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"bash ${CLAUDE_PLUGIN_ROOT}/scripts/fmt.sh\" }] }] } }\n",
        ),
    ];
    let dir = workspace(files);
    let s = |p: &str, l: u64, w: &str| (p.to_string(), l, w.to_string(), String::new());
    assert_eq!(
        findings(&check(dir.path()), "unquoted-path-variable", files),
        vec![
            (
                ".claude/agents/careful.md".to_string(),
                9,
                "$CLAUDE_PROJECT_DIR".to_string(),
                "'\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh --strict'".to_string()
            ),
            s(".claude/settings.json", 2, "$CLAUDE_PROJECT_DIR"),
            s("plug/hooks/hooks.json", 1, "${CLAUDE_PLUGIN_ROOT}"),
        ]
    );
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--fix", "."]);
    assert_eq!(out.status, 0, "{}{}", out.stdout, out.stderr);
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    assert!(
        read(".claude/agents/careful.md")
            .contains("          command: '\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh --strict'\n"),
        "{}",
        read(".claude/agents/careful.md")
    );
    assert!(read(".claude/settings.json").contains(
        "{ \"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/guard.sh\" },\n  { \"type\""
    ));
    assert!(read("plug/hooks/hooks.json").contains("\"bash \\\"${CLAUDE_PLUGIN_ROOT}\\\"/scripts/fmt.sh\""));
    assert_eq!(findings(&check(dir.path()), "unquoted-path-variable", files), vec![]);
}
