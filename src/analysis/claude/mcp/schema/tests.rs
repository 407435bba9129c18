use super::*;

#[test]
fn tool_prefixes_and_reserved_names() {
    assert_eq!(tool_prefix("a.b c"), "a_b_c");
    assert_eq!(tool_prefix("my-tools_1"), "my-tools_1");
    assert_eq!(tool_prefix("日本"), "__");
    // Checked with Claude Code 2.1.332 (`claude mcp list`): reserved, and not.
    for name in [
        "workspace",
        "__proto__",
        "Claude in Chrome",
        "computer-use",
        "claude_ai",
    ] {
        assert!(is_reserved(name), "{name}");
    }
    for name in ["my-workspace", "ide", "a.b", "Workspace", ""] {
        assert!(!is_reserved(name), "{name}");
    }
}

#[test]
fn url_limits() {
    assert!(https_metadata_url("https://auth.x.dev/.well-known"));
    assert!(!https_metadata_url("http://x"));
    assert!(!https_metadata_url("https://"));
    assert!(!https_metadata_url("https:// x"));
    assert!(url_length(&"a".repeat(MAX_URL)));
    assert!(!url_length(&"a".repeat(MAX_URL + 1)));
    // Counted as JavaScript does: an emoji is two.
    assert!(!url_length(&"🚀".repeat(MAX_URL / 2 + 1)));
}
