use super::*;
use crate::analysis::claude::mcp::analyze;
use crate::analysis::syntax::jsonc;
use expect_test::{Expect, expect};
use std::path::PathBuf;

fn mcp(text: &str) -> McpFile {
    analyze(text).2
}

/// The approvals findings of `settings` against `.mcp.json` files `(dir, text)`, for the project
/// at `/p`: `[spanned text] message`.
fn approvals(settings: &str, files: &[(&str, &str)], want: Expect) {
    let parsed: Vec<(PathBuf, McpFile)> = files.iter().map(|(d, t)| (PathBuf::from(d), mcp(t))).collect();
    let views: Vec<McpView> = parsed.iter().map(|(dir, file)| McpView { dir, file }).collect();
    let root = jsonc::parse(settings).root;
    let out = check_approvals(root.as_ref(), Path::new("/p"), &views);
    let got: String = out
        .iter()
        .map(|d| {
            let fix = d
                .fix
                .as_ref()
                .map(|f| format!(" -> {}", f.edits[0].text))
                .unwrap_or_default();
            format!(
                "{} [{}]: {}{fix}\n",
                d.severity.as_str(),
                d.span.text(settings),
                d.message
            )
        })
        .collect();
    want.assert_eq(&got);
}

const GH: &str = r#"{"mcpServers": {"github-tools": {"command": "x"}, "a.b": {"command": "y"}}}"#;

#[test]
fn approvals_name_servers_exactly() {
    // Claude Code 2.1.332 (with the folder trusted): `a_b` leaves `a.b` pending; `github-tools`
    // is approved.
    approvals(
        r#"{"enabledMcpjsonServers": ["github-tools", "a_b", "github_tool", "nothere", 5]}"#,
        &[("/p", GH)],
        expect![[r#"
            warning ["a_b"]: `a_b` is not the name of a server of `.mcp.json`: Claude Code approves a server only by its exact name (it logs "approvals need the exact name"), so `a.b` stays pending. Did you mean `a.b`? -> "a.b"
            warning ["github_tool"]: `enabledMcpjsonServers` names `github_tool`, but its `.mcp.json` declares `a.b`, `github-tools`: this approval approves nothing. Did you mean `github-tools`? -> "github-tools"
            warning ["nothere"]: `enabledMcpjsonServers` names `nothere`, but its `.mcp.json` declares `a.b`, `github-tools`: this approval approves nothing.
        "#]],
    );
}

#[test]
fn a_rejection_matches_by_tool_prefix_and_wins() {
    // Claude Code: `disabledMcpjsonServers: ["a_b"]` hides `a.b`; a server both enabled and
    // disabled stays rejected.
    approvals(
        r#"{"disabledMcpjsonServers": ["a_b", "gone", "plugin:x"], "enabledMcpjsonServers": ["github-tools"], "disabledMcpjsonServers": ["a_b", "github-tools"]}"#,
        &[("/p", GH)],
        expect![[r#"
            warning ["github-tools"]: `github-tools` is also in `disabledMcpjsonServers`, which Claude Code checks first: the server stays rejected
        "#]],
    );
    approvals(
        r#"{"disabledMcpjsonServers": ["a_b", "gone"]}"#,
        &[("/p", GH)],
        expect![[r#"
            warning ["gone"]: `disabledMcpjsonServers` names `gone`, but its `.mcp.json` declares `a.b`, `github-tools`: this rejection rejects nothing.
        "#]],
    );
}

#[test]
fn which_files_count() {
    // Above the project and below it count; a sibling does not.
    approvals(
        r#"{"enabledMcpjsonServers": ["up", "down", "side"]}"#,
        &[
            ("/", r#"{"mcpServers": {"up": {"command": "x"}}}"#),
            ("/p/sub", r#"{"mcpServers": {"down": {"command": "x"}}}"#),
            ("/q", r#"{"mcpServers": {"side": {"command": "x"}}}"#),
        ],
        expect![[r#"
            warning ["side"]: `enabledMcpjsonServers` names `side`, but its `.mcp.json` declares `down`, `up`: this approval approves nothing.
        "#]],
    );
    // One that Claude Code cannot read: its servers are unknown, nothing is said.
    approvals(
        r#"{"enabledMcpjsonServers": ["x"]}"#,
        &[("/p", "{\"mcpServers\": {},}")],
        expect![""],
    );
    // None at all, or none declaring a server.
    approvals(
        r#"{"enabledMcpjsonServers": ["x"], "enableAllProjectMcpServers": true}"#,
        &[],
        expect![[r#"
            warning ["x"]: `enabledMcpjsonServers` names `x`, but there is no `.mcp.json` in this project: this approval approves nothing.
            info [true]: `enableAllProjectMcpServers` approves the servers of `.mcp.json`, but there is no `.mcp.json` in this project: it approves nothing
        "#]],
    );
    approvals(
        r#"{"disabledMcpjsonServers": ["x"]}"#,
        &[("/p", "")],
        expect![[r#"
            warning ["x"]: `disabledMcpjsonServers` names `x`, but its `.mcp.json` declares no server: this rejection rejects nothing.
        "#]],
    );
    // Not an object, or no lists: nothing.
    approvals("[1]", &[("/p", GH)], expect![""]);
    approvals(
        r#"{"enabledMcpjsonServers": "github-tools"}"#,
        &[("/p", GH)],
        expect![""],
    );
}

fn refs(entries: &[&str], files: &[(&str, &str)], user: &UserServers, inline: &[&str], want: Expect) {
    let parsed: Vec<(PathBuf, McpFile)> = files.iter().map(|(d, t)| (PathBuf::from(d), mcp(t))).collect();
    let views: Vec<McpView> = parsed.iter().map(|(dir, file)| McpView { dir, file }).collect();
    let text = entries.join(", ");
    let mut at = 0;
    let list: Vec<ToolRef> = entries
        .iter()
        .map(|e| {
            let start = text[at..].find(e).unwrap() + at;
            at = start + e.len();
            ToolRef {
                text: e,
                span: Span::new(start, start + e.len()),
                exact: true,
            }
        })
        .collect();
    let out = check_refs(&list, Path::new("/p"), &views, user, inline);
    let got: String = out
        .iter()
        .map(|d| {
            let fix = d
                .fix
                .as_ref()
                .map(|f| format!(" -> {}", f.edits[0].text))
                .unwrap_or_default();
            format!("{} [{}]: {}{fix}\n", d.severity.as_str(), d.span.text(&text), d.message)
        })
        .collect();
    want.assert_eq(&got);
}

#[test]
fn tool_entries_name_declared_servers() {
    let user = UserServers {
        user: vec!["mine".into()],
        local: vec![
            (PathBuf::from("/p"), vec!["local-one".into()]),
            (PathBuf::from("/q"), vec!["elsewhere".into()]),
        ],
    };
    refs(
        &[
            "mcp__github-tools__get_issue",
            "mcp__a_b",
            "mcp__mine__x",
            "mcp__local-one__y",
            "mcp__inline__z",
            "mcp__plugin_p_s__t",
            "mcp__claude_ai_Drive__search",
            "mcp__ide__getDiagnostics",
            "mcp__*",
            "mcp__github__*",
            "mcp__githb-tools__get",
            "mcp__elsewhere__x",
            "Read",
        ],
        &[("/p", GH)],
        &user,
        &["inline"],
        expect![[r#"
            info [mcp__githb-tools__get]: no MCP server `githb-tools` is declared for this project (its `.mcp.json` or those above it, `~/.claude.json`, an agent's `mcpServers`): Claude Code has no tool `mcp__githb-tools__get`, so this entry gives nothing (unless a server is added with `--mcp-config`). Did you mean `github-tools`? -> mcp__github-tools__get
            info [mcp__elsewhere__x]: no MCP server `elsewhere` is declared for this project (its `.mcp.json` or those above it, `~/.claude.json`, an agent's `mcpServers`): Claude Code has no tool `mcp__elsewhere__x`, so this entry gives nothing (unless a server is added with `--mcp-config`).
        "#]],
    );
    // A server name holding `__` is matched whole.
    refs(
        &["mcp__a__b__tool"],
        &[("/p", r#"{"mcpServers": {"a__b": {"command": "x"}}}"#)],
        &UserServers::default(),
        &[],
        expect![""],
    );
    // A `.mcp.json` that does not parse: nothing is said.
    refs(
        &["mcp__x__y"],
        &[("/p", "{,}")],
        &UserServers::default(),
        &[],
        expect![""],
    );
}

#[test]
fn user_servers_of_claude_json() {
    let u = UserServers::parse(
        r#"{"mcpServers": {"u": {}}, "projects": {"/p": {"mcpServers": {"l": {}}}, "/q": {"allowedTools": []}}}"#,
    )
    .unwrap();
    assert_eq!(u.user, ["u"]);
    assert_eq!(u.local, [(PathBuf::from("/p"), vec!["l".to_string()])]);
    assert_eq!(UserServers::parse("{}"), Some(UserServers::default()));
    assert_eq!(UserServers::parse(r#"{"mcpServers": []}"#), None);
    assert_eq!(UserServers::parse("not json"), None);
}
