use super::*;

/// Each finding as `severity code [text under it]: message`, in file order.
fn findings(text: &str) -> Vec<String> {
    super::super::words::rendered(&check(text).0, text)
}

#[test]
fn a_valid_agent_loads_and_says_what_it_defines() {
    let text = "---\nname: reviewer\ndescription: Reviews code.\ntools: [read_file, \"mcp_github_*\", search_file_content]\ntemperature: 0.2\nmax_turns: 12\nmcp_servers:\n  docs:\n    command: docs-mcp\n---\nYou review code.\n";
    let (out, _, decl) = check(text);
    assert!(out.is_empty(), "{out:#?}");
    assert!(decl.loads && !decl.remote);
    assert_eq!(decl.name.as_deref(), Some("reviewer"));
    assert_eq!(decl.name_span.map(|s| s.text(text)), Some("reviewer"));
    assert_eq!(decl.description.as_deref(), Some("Reviews code."));
}

#[test]
fn each_refusal_is_an_error_on_its_key_or_value() {
    let f = findings("---\nname: Bad Agent\ndescription: Broken\ncolour: red\ntemperature: hot\n---\n");
    assert_eq!(
        f,
        vec![
            "Error invalid-name [Bad Agent]: the name \"Bad Agent\" is not a slug (lowercase letters, digits, `-` and `_`): Gemini CLI does not load this agent (\"Name must be a valid slug\"). Did you mean `bad-agent`?",
            "Error unknown-key [colour]: `colour` is not a field of a Gemini CLI agent: Gemini CLI does not load this agent (\"Unrecognized key(s) in object: 'colour'\").",
            "Error invalid-type [hot]: `temperature` must be a number, not a string (\"hot\"): Gemini CLI does not load this agent (\"Agent loading error\")",
        ]
    );
    let (_, _, decl) = check("---\nname: Bad Agent\ndescription: Broken\n---\n");
    assert!(!decl.loads);
}

#[test]
fn a_slug_is_lowercase_letters_digits_hyphens_and_underscores() {
    for name in ["code-reviewer", "code_reviewer", "agent2", "a-1_b"] {
        let (out, _, decl) = check(&format!("---\nname: {name}\ndescription: d\n---\n"));
        assert!(out.is_empty() && decl.loads, "{name}: {out:#?}");
    }
    for name in ["Agent", "a.b", "a b", "a/b", "\"\""] {
        let (out, _, decl) = check(&format!("---\nname: {name}\ndescription: d\n---\n"));
        assert!(!decl.loads, "{name}: {out:#?}");
    }
}

#[test]
fn required_fields_and_their_limits() {
    let f = findings("---\nname: silent\n---\n");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("Error missing-field [---]: this agent has no `description`"),
        "{f:?}"
    );
    let f = findings("---\nname: blank\ndescription: \"\"\n---\n");
    assert!(
        f[0].starts_with("Error invalid-value [\"\"]: `description` must be a string that is not empty"),
        "{f:?}"
    );
    let f = findings("---\nname: zero\ndescription: d\nmax_turns: 0\ntimeout_mins: 2.5\n---\n");
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(
        f[0].contains("`max_turns` must be a whole number greater than 0, not 0"),
        "{f:?}"
    );
    assert!(
        f[1].contains("`timeout_mins` must be a whole number greater than 0, not 2.5"),
        "{f:?}"
    );
}

#[test]
fn tools_are_held_to_the_release_s_names() {
    for ok in [
        "read_file",
        "search_file_content",
        "*",
        "mcp_*",
        "mcp_srv_*",
        "mcp_srv_tool",
        "mcp_a.b:c-d_x_y",
        "discovered_tool_x",
    ] {
        assert!(valid_tool(ok), "{ok}");
    }
    for bad in ["read_fiel", "mcp_srv", "mcp__x", "mcp_srv___", "mcp_s!v_t", "Read", ""] {
        assert!(!valid_tool(bad), "{bad}");
    }
    let f = findings("---\nname: tooled\ndescription: d\ntools: [read_fiel]\n---\n");
    assert_eq!(
        f,
        vec![
            "Error unknown-tool [read_fiel]: `tools` names \"read_fiel\", which is no tool Gemini CLI knows: Gemini CLI does not load this agent (\"Invalid tool name\"). Did you mean `read_file`?"
        ]
    );
}

#[test]
fn tools_written_as_one_string_get_gemini_s_names() {
    let text = "---\nname: reviewer\ndescription: d\ntools: Read, Grep, Glob, Bash\n---\n";
    let (out, _, _) = check(text);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(out[0].code, Code::InvalidType);
    assert_eq!(out[0].span.text(text), "Read, Grep, Glob, Bash");
    assert!(
        out[0]
            .message
            .ends_with("These are Claude Code's names; Gemini CLI's differ"),
        "{}",
        out[0].message
    );
    let fix = out[0].fix.as_ref().expect("a fix");
    assert_eq!(
        crate::analysis::diagnostic::apply(text, &fix.edits),
        "---\nname: reviewer\ndescription: d\ntools: [read_file, grep_search, glob, run_shell_command]\n---\n"
    );
    let fixed = crate::analysis::diagnostic::apply(text, &fix.edits);
    assert!(check(&fixed).0.is_empty());
    // A name with no Gemini CLI twin: no fix.
    let (out, _, _) = check("---\nname: r\ndescription: d\ntools: Read, Task\n---\n");
    assert!(out[0].fix.is_none());
    // Gemini CLI's own names in one string: made a list, and not called Claude Code's.
    let text = "---\nname: r\ndescription: d\ntools: read_file, glob\n---\n";
    let (out, _, _) = check(text);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert!(!out[0].message.contains("Claude Code"), "{}", out[0].message);
    let fix = out[0].fix.as_ref().expect("a fix");
    assert!(crate::analysis::diagnostic::apply(text, &fix.edits).contains("tools: [read_file, glob]\n"));
}

#[test]
fn the_slug_offered_keeps_digits_and_underscores() {
    let f = findings("---\nname: Code_Reviewer 2\ndescription: d\n---\n");
    assert!(f[0].ends_with("Did you mean `code_reviewer-2`?"), "{f:?}");
}

#[test]
fn what_cannot_be_read_is_said_once() {
    let f = findings("# Reviewer\n\nReview the code.\n");
    assert_eq!(f.len(), 1);
    assert!(f[0].starts_with("Error no-frontmatter [# Reviewer]"), "{f:?}");
    // A byte order mark: the frontmatter pattern wants `---` at the very start.
    assert!(findings("\u{feff}---\nname: a\ndescription: d\n---\n")[0].starts_with("Error no-frontmatter"));
    let f = findings("---\nname: broken\ndescription: \"Reviews code\n---\n");
    assert!(f.iter().all(|l| l.starts_with("Error syntax-error")), "{f:?}");
    let f = findings("---\nname: twice\nname: again\ndescription: d\n---\n");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("Error duplicate-key [name]: `name` is written twice"),
        "{f:?}"
    );
    let f = findings("---\n- a\n---\n");
    assert!(f.is_empty(), "a list of remote agents is another form: {f:?}");
    let f = findings("---\njust text\n---\n");
    assert!(
        f[0].starts_with("Error invalid-type [just text]: Gemini CLI does not load this agent"),
        "{f:?}"
    );
}

#[test]
fn kind_written_decides_over_the_keys() {
    // `kind: remote` beside a local key: held to the remote schema (the local key is refused),
    // not guessed local from the keys.
    let f = findings("---\nkind: remote\nname: far\nagent_card_url: http://x/card\ntools: [read_file]\n---\n");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].starts_with("Error unknown-key [tools]"), "{f:?}");
    // `kind: local` with a remote key only: held to the local schema, not guessed remote.
    let f = findings("---\nkind: local\nname: near\ndescription: d\nagent_card_url: http://x/card\n---\n");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].starts_with("Error unknown-key [agent_card_url]"), "{f:?}");
}

#[test]
fn the_keys_written_choose_local_or_remote() {
    // `kind: remote` with a card held as JSON.
    let (out, _, decl) = check("---\nkind: remote\nname: far\nagent_card_json: '{\"a\": 1}'\n---\n");
    assert!(out.is_empty() && decl.remote, "{out:#?}");
    let f = findings("---\nkind: remote\nname: far\nagent_card_json: '{nope'\n---\n");
    assert!(
        f[0].contains("`agent_card_json` must be a string of valid JSON"),
        "{f:?}"
    );
    // Remote keys only: a remote agent, which needs its card.
    let f = findings("---\nname: far\nauth:\n  type: apiKey\n  key: k\n---\n");
    assert!(
        f[0].contains("has no `agent_card_url`, which a remote Gemini CLI agent needs"),
        "{f:?}"
    );
    // A local key beside them: the local schema, which has no `agent_card_url`.
    let f = findings("---\nname: mixed\ndescription: d\nagent_card_url: http://x/card\ntools: [read_file]\n---\n");
    assert!(f[0].starts_with("Error unknown-key [agent_card_url]"), "{f:?}");
    assert!(is_url("http://127.0.0.1:9/card") && is_url("urn:x") && !is_url("card") && !is_url("http://"));
}

#[test]
fn an_agent_s_server_drops_what_it_does_not_know() {
    let f = findings("---\nname: served\ndescription: d\nmcp_servers:\n  docs:\n    comand: x\n---\n");
    assert_eq!(
        f,
        vec![
            "Warning unknown-key [comand]: Gemini CLI has no field `comand` in an agent's MCP server (`mcp_servers.docs`) and drops it without a word. Did you mean `command`?"
        ]
    );
}
