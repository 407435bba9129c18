//! `hardcoded-secret` end to end: a secret in each runtime's config gets a finding on the secret
//! itself with the runtime's own way to read it from the environment, the safe twin of each gets
//! nothing, a file git ignores gets nothing, and no output of `check` (human, JSON, GitHub, SARIF,
//! `--diff`), `explain` or the language server's hover ever holds a secret in full, whether it
//! is written in a file or filled in from the environment (opencode's `{env:NAME}`).
//!
//! The values are made up: random-looking strings (no real token shape, so that no scanner
//! mistakes this file for a leak), found by their keys' names.

mod cli_support;
mod lsp_support;

use cli_support::{agent_lsp, command, run, workspace, write};
use serde_json::{Value, json};

const OPENCODE_KEY: &str = "Jq7vR2nX9pL4wT8kZ3mB6cY1";
const CLAUDE_KEY: &str = "Hs4kP9wQ2zX7rN5vL8tB3mC6";
const SETTINGS_KEY: &str = "Tn8bV3xK6qW1zR4pM7sL2cJ9";
const VSCODE_KEY: &str = "Xz3nL8qW5rT1vK7mP4bC9sH2";
const CODEX_KEY: &str = "Pk6tZ1vR8mX3qN7wB2cL5sJ4";
const GEMINI_KEY: &str = "Rb2xM7kQ4vT9nW3pL8zC5sH1";
const HEADER_KEY: &str = "Wm5cH8rT2vN9xQ4kB7pZ1sL6";

const ALL: &[&str] = &[
    OPENCODE_KEY,
    CLAUDE_KEY,
    SETTINGS_KEY,
    VSCODE_KEY,
    CODEX_KEY,
    GEMINI_KEY,
    HEADER_KEY,
];

fn files() -> Vec<(&'static str, String)> {
    vec![
        (".git/HEAD", "ref: refs/heads/main\n".to_string()),
        (
            "opencode.json",
            format!(
                "{{\n  \"mcp\": {{\n    \"api\": {{ \"type\": \"remote\", \"url\": \"https://x.dev/mcp\", \"headers\": {{ \"Authorization\": \"Bearer {HEADER_KEY}\" }} }}\n  }},\n  \"provider\": {{ \"openrouter\": {{ \"options\": {{ \"apiKey\": \"{OPENCODE_KEY}\" }} }} }}\n}}\n"
            ),
        ),
        (
            ".mcp.json",
            format!(
                "{{ \"mcpServers\": {{ \"gh\": {{ \"command\": \"gh-mcp\", \"env\": {{ \"GITHUB_TOKEN\": \"{CLAUDE_KEY}\" }} }} }} }}\n"
            ),
        ),
        (
            ".claude/settings.json",
            format!("{{ \"env\": {{ \"SENTRY_AUTH_TOKEN\": \"{SETTINGS_KEY}\" }} }}\n"),
        ),
        (
            ".vscode/mcp.json",
            format!(
                "{{ \"servers\": {{ \"files\": {{ \"command\": \"files-mcp\", \"env\": {{ \"FILES_API_KEY\": \"{VSCODE_KEY}\" }} }} }} }}\n"
            ),
        ),
        (
            ".codex/config.toml",
            format!("[mcp_servers.tracker]\ncommand = \"tracker-mcp\"\nenv = {{ TRACKER_TOKEN = \"{CODEX_KEY}\" }}\n"),
        ),
        (
            ".gemini/settings.json",
            format!(
                "{{ \"mcpServers\": {{ \"docs\": {{ \"command\": \"docs-mcp\", \"env\": {{ \"DOCS_API_KEY\": \"{GEMINI_KEY}\" }} }} }} }}\n"
            ),
        ),
    ]
}

/// The same project written safely: each value read from the environment.
fn safe_files() -> Vec<(&'static str, &'static str)> {
    vec![
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            "opencode.json",
            "{\n  \"mcp\": {\n    \"api\": { \"type\": \"remote\", \"url\": \"https://x.dev/mcp\", \"headers\": { \"Authorization\": \"Bearer {env:API_TOKEN}\" } }\n  },\n  \"provider\": { \"openrouter\": { \"options\": { \"apiKey\": \"{env:OPENROUTER_API_KEY}\" } } }\n}\n",
        ),
        (
            ".mcp.json",
            "{ \"mcpServers\": { \"gh\": { \"command\": \"gh-mcp\", \"env\": { \"GITHUB_TOKEN\": \"${GITHUB_TOKEN}\" } } } }\n",
        ),
        (
            ".claude/settings.json",
            "{ \"env\": { \"NODE_ENV\": \"development\" } }\n",
        ),
        (
            ".vscode/mcp.json",
            "{ \"servers\": { \"files\": { \"command\": \"files-mcp\", \"env\": { \"FILES_API_KEY\": \"${env:FILES_API_KEY}\" } } } }\n",
        ),
        (
            ".codex/config.toml",
            "[mcp_servers.tracker]\ncommand = \"tracker-mcp\"\nenv_vars = [\"TRACKER_TOKEN\"]\n",
        ),
        (
            ".gemini/settings.json",
            "{ \"mcpServers\": { \"docs\": { \"command\": \"docs-mcp\", \"env\": { \"DOCS_API_KEY\": \"${DOCS_API_KEY}\" } } } }\n",
        ),
    ]
}

fn project() -> tempfile::TempDir {
    let f = files();
    let refs: Vec<(&str, &str)> = f.iter().map(|(p, t)| (*p, t.as_str())).collect();
    workspace(&refs)
}

/// No secret of [`ALL`] in `text`.
fn assert_hidden(what: &str, text: &str) {
    for s in ALL {
        assert!(!text.contains(s), "{what} shows {s}:\n{text}");
    }
}

fn secret_findings(report: &Value) -> Vec<(String, u64, u64, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "hardcoded-secret")
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["column"].as_u64().unwrap(),
                d["suggestion"]["replacement"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn each_runtime_gets_the_finding_on_the_secret_with_its_own_reference() {
    let dir = project();
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", "json"]);
    assert_hidden("check --format json", &out.stdout);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let found = secret_findings(&report);
    let col = |file: &str, line: usize, needle: &str| -> u64 {
        let text = &files().into_iter().find(|(p, _)| *p == file).unwrap().1;
        let l = text.lines().nth(line - 1).unwrap();
        l[..l.find(needle).unwrap()].chars().count() as u64 + 1
    };
    let want = vec![
        (
            ".claude/settings.json".to_string(),
            1,
            col(".claude/settings.json", 1, SETTINGS_KEY),
            String::new(),
        ),
        (
            ".codex/config.toml".to_string(),
            3,
            col(".codex/config.toml", 3, CODEX_KEY),
            String::new(),
        ),
        (
            ".gemini/settings.json".to_string(),
            1,
            col(".gemini/settings.json", 1, GEMINI_KEY),
            "${DOCS_API_KEY}".to_string(),
        ),
        (
            ".mcp.json".to_string(),
            1,
            col(".mcp.json", 1, CLAUDE_KEY),
            "${GITHUB_TOKEN}".to_string(),
        ),
        (
            ".vscode/mcp.json".to_string(),
            1,
            col(".vscode/mcp.json", 1, VSCODE_KEY),
            "${env:FILES_API_KEY}".to_string(),
        ),
        // After `Bearer `: the token alone.
        (
            "opencode.json".to_string(),
            3,
            col("opencode.json", 3, HEADER_KEY),
            "{env:API_TOKEN}".to_string(),
        ),
        (
            "opencode.json".to_string(),
            5,
            col("opencode.json", 5, OPENCODE_KEY),
            "{env:OPENROUTER_API_KEY}".to_string(),
        ),
    ];
    assert_eq!(found, want, "{report:#}");
    // The message names the secret by its first characters and length, and says what to do
    // where the runtime has no reference to write.
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "hardcoded-secret")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(messages[0].contains("`Tn8b…`, 24 characters"), "{}", messages[0]);
    assert!(messages[0].contains("settings.local.json"), "{}", messages[0]);
    assert!(messages[1].contains("env_vars"), "{}", messages[1]);
    // The other formats and the diff hide them too.
    for format in ["human", "github", "sarif"] {
        let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", format]);
        assert!(out.stdout.contains("hardcoded-secret"), "{format}: {}", out.stdout);
        assert_hidden(format, &out.stdout);
    }
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--diff", "--unsafe-fixes"]);
    assert!(
        out.stdout.contains("+      \"GITHUB_TOKEN\"") || out.stdout.contains("${GITHUB_TOKEN}"),
        "{}",
        out.stdout
    );
    assert_hidden("check --diff", &out.stdout);
    assert_hidden("check --diff (stderr)", &out.stderr);
}

#[test]
fn the_fixes_write_each_runtimes_reference() {
    let dir = project();
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--fix", "--unsafe-fixes"]);
    assert_hidden("check --fix", &out.stdout);
    let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
    assert!(read("opencode.json").contains("\"Bearer {env:API_TOKEN}\""));
    assert!(read("opencode.json").contains("\"apiKey\": \"{env:OPENROUTER_API_KEY}\""));
    assert!(read(".mcp.json").contains("\"GITHUB_TOKEN\": \"${GITHUB_TOKEN}\""));
    assert!(read(".vscode/mcp.json").contains("\"${env:FILES_API_KEY}\""));
    assert!(read(".gemini/settings.json").contains("\"${DOCS_API_KEY}\""));
    // No reference where the runtime fills none in: the value stays for the user to move.
    assert!(read(".claude/settings.json").contains(SETTINGS_KEY));
    assert!(read(".codex/config.toml").contains(CODEX_KEY));
}

#[test]
fn the_safe_twin_gets_nothing() {
    let dir = workspace(&safe_files());
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", "json"]);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(secret_findings(&report), [], "{report:#}");
}

#[test]
fn a_file_git_ignores_is_where_a_secret_belongs() {
    let dir = project();
    write(dir.path(), ".gitignore", ".claude/settings.json\n.mcp.json\n");
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", "json"]);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let paths: Vec<String> = secret_findings(&report).into_iter().map(|f| f.0).collect();
    assert!(
        !paths.iter().any(|p| p == ".claude/settings.json" || p == ".mcp.json"),
        "{paths:?}"
    );
    assert!(paths.iter().any(|p| p == "opencode.json"), "{paths:?}");
    // Still hidden in what is printed.
    assert_hidden("check", &agent_lsp(dir.path(), &["check", "--no-global"]).stdout);
}

#[test]
fn explain_hides_a_secret_written_or_filled_in_from_the_environment() {
    let from_env = "Ua9dF3gH6jK1lZ4xC7vB2nM5";
    let dir = workspace(&[(
        "opencode.json",
        "{ \"agent\": { \"build\": { \"options\": { \"apiKey\": \"{env:MY_KEY}\", \"token\": \"Jq7vR2nX9pL4wT8kZ3mB6cY1\", \"note\": \"plain words\" } } } }\n",
    )]);
    for format in ["human", "json"] {
        let out = run(command(
            dir.path(),
            &[
                "explain",
                "build",
                "--dialect",
                "opencode",
                "--no-global",
                "--format",
                format,
            ],
        )
        .env("MY_KEY", from_env));
        assert!(
            out.stdout.contains("options.apiKey") || out.stdout.contains("apiKey"),
            "{}",
            out.stdout
        );
        assert!(!out.stdout.contains(from_env), "{format}: {}", out.stdout);
        assert!(out.stdout.contains("Ua9d****"), "{format}: {}", out.stdout);
        assert_hidden(format, &out.stdout);
        // What is no secret is shown as written.
        assert!(out.stdout.contains("plain words"), "{format}: {}", out.stdout);
    }
}

#[test]
fn the_language_server_reports_it_in_utf16_and_hides_it_in_the_hover() {
    use lsp_support::*;
    let enc = Enc::Utf16;
    // CJK and an emoji before the secret on its line; a JSON agent whose options hold it.
    let config = format!(
        "{{\n  \"agent\": {{ \"build\": {{ \"description\": \"構築 🚀\", \"options\": {{ \"apiKey\": \"{OPENCODE_KEY}\" }} }} }}\n}}\n"
    );
    let (mut ws, scan) = Ws::start(&[("opencode.json", config.as_str())], enc);
    let uri = ws.uri("opencode.json");
    let publish = scan
        .iter()
        .find(|p| p["uri"] == uri)
        .expect("a publish of opencode.json");
    let d = publish["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "hardcoded-secret")
        .unwrap_or_else(|| panic!("{publish:#}"));
    assert_eq!(d["range"], range_of(&config, OPENCODE_KEY, enc));
    assert!(!d["message"].as_str().unwrap().contains(OPENCODE_KEY));
    // The agent's card shows its options: the key hidden.
    let (at, _) = find(&config, "\"build\"");
    let h =
        ws.s.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": position(&config, at + 2, enc) }),
        )
        .unwrap();
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("apiKey"), "{md}");
    assert!(!md.contains(OPENCODE_KEY), "{md}");
    // The fix, as a code action.
    let actions =
        ws.s.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": d["range"], "context": { "diagnostics": [d] } }),
        )
        .unwrap();
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["title"].as_str())
        .collect();
    assert!(
        titles.contains(&"Read it from the environment: `{env:BUILD_API_KEY}`"),
        "{titles:?}"
    );
    ws.s.finish();
}

#[test]
fn codex_says_which_table_reads_the_variable() {
    let dir = workspace(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            ".codex/config.toml",
            "[mcp_servers.api]\nurl = \"https://x.dev/mcp\"\nhttp_headers = { Authorization = \"Bearer Pk6tZ1vR8mX3qN7wB2cL5sJ4\" }\n\n[model_providers.acme]\nname = \"Acme\"\nbase_url = \"https://acme.dev/v1\"\nhttp_headers = { \"X-Api-Key\" = \"Rb2xM7kQ4vT9nW3pL8zC5sH1\" }\n",
        ),
    ]);
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", "json"]);
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "hardcoded-secret")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 2, "{report:#}");
    // A server's header, then a provider's.
    assert!(
        messages[0].contains("env_http_headers") && messages[0].contains("bearer_token_env_var"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("env_http_headers") && messages[1].contains("`env_key`"),
        "{}",
        messages[1]
    );
}

/// A token in the prose of a Markdown file (an agent's prompt, an instruction file): found on
/// its characters, said to reach the model provider, hidden in every format. (Built at run
/// time, so that this file holds no token shape.)
#[test]
fn a_token_in_a_prompt_or_an_instruction_file_is_found_and_hidden() {
    let token = format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
    let aws = format!("AKIA{}", "QWERTYUIOPASDFGH");
    let dir = workspace(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (
            ".claude/agents/deploy.md",
            &format!("---\nname: deploy\ndescription: Deploys.\n---\nPush with {token} when asked.\n"),
        ),
        ("CLAUDE.md", &format!("# Notes\n\nThe CI key is {aws}.\n")),
        (
            ".opencode/agents/safe.md",
            "---\ndescription: Reads the token from the environment.\n---\nUse $GITHUB_TOKEN, never a pasted ghp_ value.\n",
        ),
    ]);
    let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", "json"]);
    assert!(
        !out.stdout.contains(&token) && !out.stdout.contains(&aws),
        "{}",
        out.stdout
    );
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let found: Vec<(String, u64, u64)> = secret_findings(&report).into_iter().map(|f| (f.0, f.1, f.2)).collect();
    assert_eq!(
        found,
        [
            (".claude/agents/deploy.md".to_string(), 5, 11),
            ("CLAUDE.md".to_string(), 3, 15)
        ],
        "{report:#}"
    );
    let message = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "hardcoded-secret")
        .and_then(|d| d["message"].as_str())
        .unwrap();
    assert!(message.contains("sends it to the model provider"), "{message}");
    for format in ["human", "github", "sarif"] {
        let out = agent_lsp(dir.path(), &["check", "--no-global", "--format", format]);
        assert!(out.stdout.contains("hardcoded-secret"), "{format}: {}", out.stdout);
        assert!(
            !out.stdout.contains(&token) && !out.stdout.contains(&aws),
            "{format}: {}",
            out.stdout
        );
    }
}
