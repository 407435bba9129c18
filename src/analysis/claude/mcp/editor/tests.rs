use super::*;
use crate::analysis::syntax::jsonc;

fn labels(text: &str, cursor: &str) -> Vec<String> {
    let at = text.find(cursor).unwrap() + cursor.len();
    complete(text, at).into_iter().map(|i| i.label).collect()
}

#[test]
fn completion_offers_the_fields_of_the_server_s_transport() {
    // No `type` yet: the fields of every transport, required ones first, internal ones left out.
    let got = labels(r#"{"mcpServers": {"a": {"": 1}}}"#, r#"{"a": {""#);
    assert_eq!(&got[..3], ["command", "type", "url"], "{got:?}");
    assert!(
        got.contains(&"oauth".to_string()) && !got.contains(&"role".to_string()),
        "{got:?}"
    );
    // `type: ws`: the WebSocket server's fields only, without those written.
    let got = labels(r#"{"mcpServers": {"a": {"type": "ws", "": 1}}}"#, r#""ws", ""#);
    assert!(
        got.contains(&"url".to_string()) && !got.contains(&"type".to_string()),
        "{got:?}"
    );
    assert!(
        !got.contains(&"oauth".to_string()) && !got.contains(&"command".to_string()),
        "{got:?}"
    );
    // Values of `type`.
    let got = labels(r#"{"mcpServers": {"a": {"type": ""}}}"#, r#""type": ""#);
    assert_eq!(got, ["stdio", "sse", "http", "streamable-http", "ws"]);
    // The top level.
    let got = labels(r#"{"": 1}"#, r#"{""#);
    assert_eq!(got, ["mcpServers", "$schema"]);
}

#[test]
fn hover_on_servers_and_fields() {
    let text = r#"{"mcpServers": {"a.b": {"command": "npx", "args": ["-y", "s"]}, "r": {"type": "sse", "url": "https://x", "timeout": 5}}}"#;
    let parsed = jsonc::parse(text);
    let (md, span) = hover(&parsed, text.find("a.b").unwrap()).unwrap();
    assert_eq!(span.text(text), "\"a.b\"");
    assert!(md.contains("Claude Code runs `npx -y s`"), "{md}");
    assert!(md.contains("`mcp__a_b__<tool>`"), "{md}");
    let (md, _) = hover(&parsed, text.find("\"r\"").unwrap() + 1).unwrap();
    assert!(md.contains("A remote server (sse) at `https://x`"), "{md}");
    let (md, span) = hover(&parsed, text.find("timeout").unwrap()).unwrap();
    assert_eq!(span.text(text), "\"timeout\"");
    assert!(md.starts_with("**`timeout`** (a remote (sse) MCP server)"), "{md}");
    assert!(md.contains("milliseconds"), "{md}");
    let (md, _) = hover(&parsed, text.find("mcpServers").unwrap()).unwrap();
    assert!(md.starts_with("**`mcpServers`**"), "{md}");
}
