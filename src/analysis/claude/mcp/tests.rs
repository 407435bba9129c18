use super::*;
use expect_test::{Expect, expect};

/// Each diagnostic as `severity code effect [text]: message`, then the suggestion or fix.
fn run(text: &str) -> String {
    let (d, _, _) = analyze(text);
    d.iter()
        .map(|d| {
            let mut line = format!(
                "{} {} {} [{}]: {}\n",
                d.severity.as_str(),
                d.code.as_str(),
                d.effect.as_str(),
                d.span.text(text),
                d.message
            );
            if let Some(f) = &d.fix {
                let edits: Vec<&str> = f.edits.iter().map(|e| e.text.as_str()).collect();
                line.push_str(&format!("  fix: {} {edits:?}\n", f.title));
            }
            line
        })
        .collect()
}

fn check(text: &str, want: Expect) {
    want.assert_eq(&run(text));
}

/// `{"mcpServers": {...}}` around one server `a`.
fn one(server: &str) -> String {
    format!("{{\"mcpServers\": {{\"a\": {server}}}}}")
}

/// The servers of a file: `name: transport` or `name: skipped (reason)`.
fn servers(text: &str) -> String {
    let (_, _, file) = analyze(text);
    let mut out = format!("read: {}\n", file.read);
    for s in &file.servers {
        let state = match (&s.skip, s.transport) {
            (Some(skip), _) => format!("skipped {skip:?}"),
            (None, Some(t)) => t.to_string(),
            (None, None) => "?".to_string(),
        };
        out.push_str(&format!("{} [{}]: {state}\n", s.name, s.key.text(text)));
    }
    out
}

#[test]
fn valid_servers_of_every_transport_give_nothing() {
    let text = r#"{
  "$schema": "https://json.schemastore.org/mcp.json",
  "mcpServers": {
    "local": {"command": "npx", "args": ["-y", "@scope/server"], "env": {"TOKEN": "${TOKEN}"}, "timeout": 30000, "alwaysLoad": true},
    "typed": {"type": "stdio", "command": "./bin/server"},
    "events": {"type": "sse", "url": "https://x.dev/sse", "headers": {"Authorization": "Bearer ${API_KEY}"}},
    "web": {"type": "http", "url": "${BASE:-https://x.dev}/mcp", "oauth": {"clientId": "c", "callbackPort": 8080, "authServerMetadataUrl": "https://auth.x.dev/.well-known", "scopes": "read write", "xaa": false}, "tools": [{"name": "t", "permission_policy": "always_ask"}], "toolPermissions": {"t": "allow"}, "headersHelper": "./token.sh", "discoveryCache": true},
    "streamed": {"type": "streamable-http", "url": "https://x.dev/mcp"},
    "socket": {"type": "ws", "url": "wss://x.dev/ws"},
    "loose": {"type": "http", "url": "https://x.dev", "displayName": 5, "role": [], "request_timeout_ms": "soon", "orgMaxPermission": 1},
    "quiet": {"command": "x", "role": 5, "bareElicitationCapability": true}
  }
}"#;
    // Claude Code loads them all (the fields read with a fallback take any value).
    check(text, expect![""]);
    expect![[r#"
        read: true
        local ["local"]: stdio
        typed ["typed"]: stdio
        events ["events"]: sse
        web ["web"]: http
        streamed ["streamed"]: http
        socket ["socket"]: ws
        loose ["loose"]: http
        quiet ["quiet"]: stdio
    "#]]
    .assert_eq(&servers(text));
}

#[test]
fn a_value_the_transport_refuses_skips_that_server_only() {
    // Claude Code: `command: expected string, received number`, `command: Command cannot be
    // empty`, `args.0: ...`, `env.A: ...`, `timeout: Too small`, `timeout: expected int`,
    // `bareElicitationCapability: expected boolean, received string`.
    check(
        r#"{"mcpServers": {"a": {"command": 5}, "b": {"command": ""}, "c": {"command": "x", "args": [1]}, "d": {"command": "x", "env": {"A": 1}}, "e": {"command": "x", "timeout": 0}, "f": {"command": "x", "timeout": 1.5}, "g": {"command": "x", "bareElicitationCapability": "yes"}, "ok": {"command": "x"}}}"#,
        expect![[r#"
            error invalid-type value-ignored [5]: `command` must be a non-empty string, got a number (5): Claude Code skips the server `a` (the others load)
            error invalid-value value-ignored [""]: `command` must be a non-empty string, got "": Claude Code skips the server `b` (the others load)
            error invalid-type value-ignored [1]: `args.0` must be a string, got a number (1): Claude Code skips the server `c` (the others load)
            error invalid-type value-ignored [1]: `env.A` must be a string, got a number (1): Claude Code skips the server `d` (the others load)
            error invalid-value value-ignored [0]: `timeout` must be a whole number greater than 0, got 0: Claude Code skips the server `e` (the others load)
            error invalid-value value-ignored [1.5]: `timeout` must be a whole number greater than 0, got 1.5: Claude Code skips the server `f` (the others load)
            error invalid-type value-ignored ["yes"]: `bareElicitationCapability` must be true or false, got a string ("yes"): Claude Code skips the server `g` (the others load)
        "#]],
    );
    expect![[r#"
        read: true
        a ["a"]: skipped Invalid(["command"])
        ok ["ok"]: stdio
    "#]]
    .assert_eq(&servers(
        r#"{"mcpServers": {"a": {"command": 5}, "ok": {"command": "x"}}}"#,
    ));
}

#[test]
fn remote_servers_refused() {
    // Claude Code: `url: expected string, received undefined`, `url: ... received number`,
    // `oauth.callbackPort: expected number`, `authServerMetadataUrl must use https://`,
    // `tools.0.name ...; tools.0.permission_policy: Invalid option`, `toolPermissions.a: Invalid option`.
    check(
        r#"{"mcpServers": {"g": {"type": "http"}, "h": {"type": "http", "url": 5}, "m": {"type": "sse", "url": "https://x", "oauth": {"callbackPort": "1"}}, "n": {"type": "http", "url": "https://x", "oauth": {"authServerMetadataUrl": "http://x"}}, "o": {"type": "http", "url": "https://x", "tools": [{"permission_policy": "always"}]}, "v": {"type": "http", "url": "https://x", "toolPermissions": {"a": "deny"}}}}"#,
        expect![[r#"
            error missing-field value-ignored ["g"]: the server `g` has no `url`, which a remote (http) MCP server needs: Claude Code skips the server `g` (the others load)
            error invalid-type value-ignored [5]: `url` must be a string of at most 65536 characters, got a number (5): Claude Code skips the server `h` (the others load)
            error invalid-type value-ignored ["1"]: `oauth.callbackPort` must be a whole number greater than 0, got a string ("1"): Claude Code skips the server `m` (the others load)
            error invalid-value value-ignored ["http://x"]: `oauth.authServerMetadataUrl` must be an `https://` URL of at most 4096 characters, got "http://x": Claude Code skips the server `n` (the others load)
            error missing-field value-ignored [{"permission_policy": "always"}]: `tools.0` has no `name`, which a tool's settings needs: Claude Code skips the server `o` (the others load)
            error invalid-value value-ignored ["always"]: `tools.0.permission_policy` must be "always_allow", "always_ask" or "always_deny", got "always": Claude Code skips the server `o` (the others load)
            error invalid-value value-ignored ["deny"]: `toolPermissions.a` must be "allow", "ask" or "blocked", got "deny": Claude Code skips the server `v` (the others load)
        "#]],
    );
}

#[test]
fn a_server_that_is_not_an_object_or_has_a_bad_type() {
    // Claude Code: `(root): expected object, received string`; `type: expected "stdio"` (a
    // `type` that is not a string reads the server as stdio, whose schema refuses it).
    check(
        r#"{"mcpServers": {"r": "str", "s": {"type": 5, "command": "x"}, "n": null}}"#,
        expect![[r#"
            error invalid-type value-ignored ["str"]: the server `r` must be an object (a local (stdio) MCP server), got a string ("str"): Claude Code skips the server `r` (the others load)
            error invalid-type value-ignored [5]: `type` must be "stdio", got a number (5): Claude Code skips the server `s` (the others load)
            error invalid-type value-ignored [null]: the server `n` must be an object (a local (stdio) MCP server), got null: Claude Code skips the server `n` (the others load)
        "#]],
    );
    expect![[r#"
        read: true
        r ["r"]: skipped Invalid(["(root)"])
        s ["s"]: skipped Invalid(["type"])
    "#]]
    .assert_eq(&servers(
        r#"{"mcpServers": {"r": "str", "s": {"type": 5, "command": "x"}}}"#,
    ));
}

#[test]
fn unknown_and_refused_types() {
    // Claude Code: `unknown MCP server type "stdioo"`, `declares type "sdk", which only an SDK
    // host application can register`, `... "claudeai-proxy", which only claude.ai connectors use`.
    check(
        r#"{"mcpServers": {"c": {"type": "stdioo", "command": "x"}, "w": {"type": "websocket", "url": "wss://x"}, "H": {"type": "HTTP", "url": "https://x"}, "d": {"type": "sdk", "name": "x"}, "e": {"type": "claudeai-proxy", "url": "https://x", "id": "y"}}}"#,
        expect![[r#"
            error invalid-value value-ignored ["stdioo"]: unknown MCP server type "stdioo": the type is `stdio`, `sse`, `http` (or `streamable-http`) or `ws`; Claude Code skips the server `c` (the others load). Did you mean `stdio`?
              fix: Replace with `"stdio"` ["\"stdio\""]
            error invalid-value value-ignored ["websocket"]: unknown MCP server type "websocket": the type is `stdio`, `sse`, `http` (or `streamable-http`) or `ws`; Claude Code skips the server `w` (the others load)
            error invalid-value value-ignored ["HTTP"]: unknown MCP server type "HTTP": the type is `stdio`, `sse`, `http` (or `streamable-http`) or `ws`; Claude Code skips the server `H` (the others load). Did you mean `http`?
              fix: Replace with `"http"` ["\"http\""]
            error invalid-value value-ignored ["sdk"]: a server of `.mcp.json` cannot have `"type": "sdk"`: in-process SDK servers are registered by the host application at start, not read from configuration files. Claude Code skips the server `d` (the others load)
            error invalid-value value-ignored ["claudeai-proxy"]: a server of `.mcp.json` cannot have `"type": "claudeai-proxy"`: only claude.ai connectors use it: connect the service at claude.ai and it appears in Claude Code, or declare it here with `"type": "http"`. Claude Code skips the server `e` (the others load)
        "#]],
    );
    expect![[r#"
        read: true
        c ["c"]: skipped UnknownType
        d ["d"]: skipped RefusedType
    "#]]
    .assert_eq(&servers(
        r#"{"mcpServers": {"c": {"type": "stdioo"}, "d": {"type": "sdk"}}}"#,
    ));
}

#[test]
fn a_url_without_type_is_skipped_with_a_fix() {
    // Claude Code: `has a "url" but no "type"; add "type": "http" (or "sse" / "ws")`.
    check(
        &one(r#"{"url": "https://x.dev/mcp", "headers": {"A": "b"}, "cwd": "/"}"#),
        expect![[r#"
            error missing-field value-ignored ["a"]: the server `a` has a `url` but no `type`: Claude Code reads it as a local server, which needs a `command`, so it skips it (the others load). Add `"type": "http"` (or `"sse"` / `"ws"`)
              fix: Add `"type": "http"` ["\"type\": \"http\", "]
            warning unknown-key value-ignored ["cwd"]: `cwd` is not a field of a local (stdio) MCP server: Claude Code drops it from the server `a` without a word. Claude Code has no working-directory setting for a server.
        "#]],
    );
    // With a `command` too it is a local server: `url` is dropped.
    check(
        &one(r#"{"command": "x", "url": "https://x.dev/mcp"}"#),
        expect![[r#"
            warning unknown-key value-ignored ["url"]: `url` is not read for a local (stdio) MCP server (it is a field of another transport): Claude Code drops it from the server `a` without a word
        "#]],
    );
}

#[test]
fn reserved_names() {
    // Claude Code: `"workspace" is a reserved MCP server name and was not loaded`, the same for
    // `__proto__` and `Claude in Chrome` (whose tool prefix is `Claude_in_Chrome`).
    let text = r#"{"mcpServers": {"workspace": {"command": "x"}, "__proto__": {"command": "x"}, "Claude in Chrome": {"command": "x"}, "my-workspace": {"command": "x"}}}"#;
    check(
        text,
        expect![[r#"
            error invalid-name value-ignored ["workspace"]: "workspace" is a reserved MCP server name (Claude Code keeps `workspace` for a server of its own): Claude Code skips the server `workspace` (the others load)
            error invalid-name value-ignored ["__proto__"]: "__proto__" is a reserved MCP server name (a property of every JavaScript object): Claude Code skips the server `__proto__` (the others load)
            error invalid-name value-ignored ["Claude in Chrome"]: "Claude in Chrome" is a reserved MCP server name (Claude Code keeps `Claude_in_Chrome` for a server of its own): Claude Code skips the server `Claude in Chrome` (the others load)
        "#]],
    );
    expect![[r#"
        read: true
        workspace ["workspace"]: skipped Reserved
        __proto__ ["__proto__"]: skipped Reserved
        Claude in Chrome ["Claude in Chrome"]: skipped Reserved
        my-workspace ["my-workspace"]: stdio
    "#]]
    .assert_eq(&servers(text));
}

#[test]
fn unknown_keys_are_warnings_with_did_you_mean() {
    check(
        &one(r#"{"comand": "x", "arg": ["a"], "cwd": "/tmp", "disabled": true, "headers": {"A": "b"}}"#),
        expect![[r#"
            error missing-field value-ignored ["comand"]: the server `a` has no `command` (`comand` is written: did you mean `command`?), which a local (stdio) MCP server needs: Claude Code skips the server `a` (the others load)
              fix: Replace with `"command"` ["\"command\""]
            warning unknown-key value-ignored ["arg"]: `arg` is not a field of a local (stdio) MCP server: Claude Code drops it from the server `a` without a word. Did you mean `args`?
              fix: Replace with `"args"` ["\"args\""]
            warning unknown-key value-ignored ["cwd"]: `cwd` is not a field of a local (stdio) MCP server: Claude Code drops it from the server `a` without a word. Claude Code has no working-directory setting for a server.
            warning unknown-key value-ignored ["disabled"]: `disabled` is not a field of a local (stdio) MCP server: Claude Code drops it from the server `a` without a word. To turn a server of `.mcp.json` off, list it in `disabledMcpjsonServers` of `.claude/settings.local.json`.
            warning unknown-key value-ignored ["headers"]: `headers` is not read for a local (stdio) MCP server (it is a field of another transport): Claude Code drops it from the server `a` without a word
        "#]],
    );
    check(
        &one(
            r#"{"type": "http", "url": "https://x", "oauth": {"clientid": "c", "scope": "s"}, "tools": [{"name": "t", "policy": "x"}]}"#,
        ),
        expect![[r#"
            warning unknown-key value-ignored ["clientid"]: `clientid` is not a field of the OAuth settings: Claude Code drops it from `oauth` of the server `a` without a word. Did you mean `clientId`?
              fix: Replace with `"clientId"` ["\"clientId\""]
            warning unknown-key value-ignored ["scope"]: `scope` is not a field of the OAuth settings: Claude Code drops it from `oauth` of the server `a` without a word. Did you mean `scopes`?
              fix: Replace with `"scopes"` ["\"scopes\""]
            warning unknown-key value-ignored ["policy"]: `policy` is not a field of a tool's settings: Claude Code drops it from `tools.0` of the server `a` without a word.
        "#]],
    );
    // Top level: a key other than `mcpServers` is dropped (Claude Code loads the servers).
    check(
        r#"{"mcpServers": {}, "mcpServer": {}, "version": 1}"#,
        expect![[r#"
            warning unknown-key value-ignored ["mcpServer"]: `mcpServer` is not a key of `.mcp.json`: Claude Code drops it without a word (it reads `mcpServers` only).
            warning unknown-key value-ignored ["version"]: `version` is not a key of `.mcp.json`: Claude Code drops it without a word (it reads `mcpServers` only).
        "#]],
    );
}

#[test]
fn strict_json_problems_load_no_server() {
    // Claude Code: `MCP config is not a valid JSON (line 1, column 40)` for a comment and for a
    // trailing comma.
    check(
        "{\"mcpServers\": {\"a\": {\"command\": \"x\"}} // c\n}",
        expect![[r#"
            error syntax-error file-ignored [// c]: a comment (the file is read as strict JSON): Claude Code cannot parse `.mcp.json` ("MCP config is not a valid JSON") and loads none of its servers
        "#]],
    );
    check(
        r#"{"mcpServers": {"a": {"command": "x"},}}"#,
        expect![[r#"
            error syntax-error file-ignored [,]: a trailing comma (the file is read as strict JSON): Claude Code cannot parse `.mcp.json` ("MCP config is not a valid JSON") and loads none of its servers
              fix: Remove the trailing comma [""]
        "#]],
    );
    check(
        r#"{"mcpServers": {"a": {"command": "x"}"#,
        expect![[r#"
            error syntax-error file-ignored [{]: unclosed `{`: the object is never closed: Claude Code cannot parse `.mcp.json` ("MCP config is not a valid JSON") and loads none of its servers
            error syntax-error file-ignored [{]: unclosed `{`: the object is never closed: Claude Code cannot parse `.mcp.json` ("MCP config is not a valid JSON") and loads none of its servers
        "#]],
    );
    expect![[r#"
        read: false
    "#]]
    .assert_eq(&servers(r#"{"mcpServers": {"a": {"command": "x"},}}"#));
}

#[test]
fn the_file_must_hold_an_mcp_servers_object() {
    // Claude Code: `Invalid input: expected object, received array`, `MCP config is not a
    // valid JSON` (null), `Missing "mcpServers" — found "servers" instead`, `mcpServers:
    // Invalid input: expected record, received array`, `... received undefined` (`{}`).
    check(
        "[1]",
        expect![[r#"
            error invalid-type file-ignored [[1]]: `.mcp.json` must hold an object (`{"mcpServers": {...}}`), got a list: Claude Code loads none of its servers ("Invalid input: expected object")
        "#]],
    );
    check(
        "null",
        expect![[r#"
            error invalid-type file-ignored [null]: `.mcp.json` must hold an object (`{"mcpServers": {...}}`), got null: Claude Code loads none of its servers ("MCP config is not a valid JSON")
        "#]],
    );
    check(
        r#"{"servers": {"a": {"command": "x"}}}"#,
        expect![[r#"
            error missing-field file-ignored ["servers"]: `.mcp.json` has no `mcpServers` object: Claude Code loads none of its servers. It has `servers`: Claude Code reads servers from `mcpServers` only
              fix: Rename `servers` to `mcpServers` ["\"mcpServers\""]
        "#]],
    );
    check(
        r#"{"mcpServers": []}"#,
        expect![[r#"
            error invalid-type file-ignored [[]]: `mcpServers` must be an object of servers by name, got a list ([]): Claude Code loads none of the servers of this file
        "#]],
    );
    check(
        r#"{"mcpServers": null}"#,
        expect![[r#"
            error invalid-type file-ignored [null]: `mcpServers` must be an object of servers by name, got null: Claude Code loads none of the servers of this file
        "#]],
    );
    check(
        "{}",
        expect![[r#"
            error missing-field file-ignored [{]: `.mcp.json` has no `mcpServers` object: Claude Code loads none of its servers.
        "#]],
    );
    expect![[r#"
        read: false
    "#]]
    .assert_eq(&servers("{}"));
}

#[test]
fn a_blank_file_is_no_servers() {
    check("", expect![""]);
    check("  \n\t", expect![""]);
    check("\u{feff}", expect![""]);
    expect![[r#"
        read: true
    "#]]
    .assert_eq(&servers("\n"));
    // A byte-order mark before the object is fine.
    check("\u{feff}{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}", expect![""]);
}

#[test]
fn a_server_written_twice_keeps_the_last() {
    // Claude Code loads `a: x` from `{"a": {"command": 5}, "a": {"command": "x"}}`.
    let text = r#"{"mcpServers": {"a": {"command": 5}, "a": {"command": "x"}}}"#;
    check(
        text,
        expect![[r#"
            warning duplicate-key value-ignored ["a"]: "a" is set again later in this object: Claude Code keeps only the last value, so this one is ignored
        "#]],
    );
    expect![[r#"
        read: true
        a ["a"]: stdio
    "#]]
    .assert_eq(&servers(text));
}

#[test]
fn blanks_around_values() {
    // Claude Code: `Leading or trailing whitespace in: command`, and loads the server.
    check(
        &one(r#"{"command": " x ", "args": ["a ", "b"], "env": {" K": "v "}}"#),
        expect![[r#"
            warning invalid-value fails-when-used [" x "]: `command` starts or ends with a blank: Claude Code warns "Leading or trailing whitespace" for the server `a` and uses it as written, so the server may not start or connect
            warning invalid-value fails-when-used ["a "]: `args.0` starts or ends with a blank: Claude Code warns "Leading or trailing whitespace" for the server `a` and uses it as written, so the server may not start or connect
            warning invalid-value fails-when-used [" K"]: the variable name ` K` starts or ends with a blank: Claude Code warns "Leading or trailing whitespace" for the server `a` and uses it as written, so the server may not start or connect
            warning invalid-value fails-when-used ["v "]: `env. K` starts or ends with a blank: Claude Code warns "Leading or trailing whitespace" for the server `a` and uses it as written, so the server may not start or connect
        "#]],
    );
    check(
        &one(r#"{"type": "http", "url": "https://x ", "headers": {"A": " b"}}"#),
        expect![[r#"
            warning invalid-value fails-when-used ["https://x "]: `url` starts or ends with a blank: Claude Code warns "Leading or trailing whitespace" for the server `a` and uses it as written, so the server may not start or connect
            warning invalid-value fails-when-used [" b"]: `headers.A` starts or ends with a blank: Claude Code warns "Leading or trailing whitespace" for the server `a` and uses it as written, so the server may not start or connect
        "#]],
    );
}

#[test]
fn variables() {
    // Expanded where Claude Code expands them: nothing to say.
    check(
        &one(r#"{"command": "${HOME}/bin/s", "args": ["${A:-x}", "$PLAIN", "${A}${B}"], "env": {"K": "${K}"}}"#),
        expect![""],
    );
    // Forms it does not expand, and `oauth` (used as written).
    check(
        &one(r#"{"command": "x", "args": ["{env:TOKEN}", "${A-x}", "${env:B}", "${1}"], "env": {"K": "pre{env:K}"}}"#),
        expect![[r#"
            warning unsubstituted-variable fails-when-used ["{env:TOKEN}"]: `args.0` holds `{env:TOKEN}`, which Claude Code does not expand: it replaces `${VAR}` and `${VAR:-default}` only, and sends the rest as written
            warning unsubstituted-variable fails-when-used ["${A-x}"]: `args.1` holds `${A-x}`, which Claude Code does not expand: it replaces `${VAR}` and `${VAR:-default}` only, and sends the rest as written
            warning unsubstituted-variable fails-when-used ["${env:B}"]: `args.2` holds `${env:B}`, which Claude Code does not expand: it replaces `${VAR}` and `${VAR:-default}` only, and sends the rest as written
            warning unsubstituted-variable fails-when-used ["${1}"]: `args.3` holds `${1}`, which Claude Code does not expand: it replaces `${VAR}` and `${VAR:-default}` only, and sends the rest as written
            warning unsubstituted-variable fails-when-used ["pre{env:K}"]: `env.K` holds `{env:K}`, which Claude Code does not expand: it replaces `${VAR}` and `${VAR:-default}` only, and sends the rest as written
        "#]],
    );
    check(
        &one(
            r#"{"type": "http", "url": "https://x/{env:HOST}", "headers": {"A": "Bearer ${TOKEN"}, "oauth": {"clientId": "${CLIENT_ID}"}}"#,
        ),
        expect![[r#"
            warning unsubstituted-variable fails-when-used ["https://x/{env:HOST}"]: `url` holds `{env:HOST}`, which Claude Code does not expand: it replaces `${VAR}` and `${VAR:-default}` only, and sends the rest as written
            warning unsubstituted-variable fails-when-used ["${CLIENT_ID}"]: `oauth.clientId` holds `${CLIENT_ID}`, but Claude Code replaces variables only in `command`, `args`, `env`, `url` and `headers`: this value is used as written
        "#]],
    );
    // A skipped server is not searched for variables.
    check(
        &one(r#"{"command": "{env:X}", "args": [1]}"#),
        expect![[r#"
            error invalid-type value-ignored [1]: `args.0` must be a string, got a number (1): Claude Code skips the server `a` (the others load)
        "#]],
    );
}

#[test]
fn expansion_and_forms() {
    assert_eq!(expansion("a ${X} b"), Some("${X}"));
    assert_eq!(expansion("${X:-d}"), Some("${X:-d}"));
    assert_eq!(expansion("${1} ${Y}"), Some("${Y}"));
    assert_eq!(expansion("${"), None);
    assert_eq!(expansion("$X"), None);
    assert_eq!(unexpanded_form("{env:A}"), Some("{env:A}"));
    assert_eq!(unexpanded_form("${env:A}"), Some("${env:A}"));
    assert_eq!(unexpanded_form("${A}${B:-c}"), None);
    assert_eq!(unexpanded_form("${A-b}"), Some("${A-b}"));
    assert_eq!(unexpanded_form("${A"), None);
}

#[test]
fn server_at_finds_the_key() {
    let text = r#"{"mcpServers": {"alpha": {"command": "x"}, "beta": {"command": 1}}}"#;
    let (_, _, file) = analyze(text);
    let at = text.find("beta").unwrap();
    assert_eq!(file.server_at(at).map(|s| s.name.as_str()), Some("beta"));
    assert_eq!(file.server_at(0), None);
}

#[test]
fn no_panic_on_broken_input() {
    for t in [
        "{",
        "{\"mcpServers\":",
        "{\"mcpServers\": {\"a\":",
        "{\"mcpServers\": {\"a\": {\"type\":",
        "\"",
        "/*",
        "{\"mcpServers\": {\"a\": {\"args\": [",
        "{\"mcpServers\": {\"\": {}}}",
    ] {
        analyze(t);
    }
}

#[test]
fn a_key_that_reads_like_mcp_servers_carries_the_error() {
    // `mcp_servers` in place of `mcpServers`: one error on it, with the rename, no second warning.
    check(
        r#"{"mcp_servers": {"a": {"command": "x"}}, "x": 1}"#,
        expect![[r#"
            error missing-field file-ignored ["mcp_servers"]: `.mcp.json` has no `mcpServers` object: Claude Code loads none of its servers. It has `mcp_servers`: Claude Code reads servers from `mcpServers` only
              fix: Rename `mcp_servers` to `mcpServers` ["\"mcpServers\""]
            warning unknown-key value-ignored ["x"]: `x` is not a key of `.mcp.json`: Claude Code drops it without a word (it reads `mcpServers` only).
        "#]],
    );
}

#[test]
fn every_prefix_and_position_is_safe() {
    // Analysis of every prefix, completion and hover at every position: no panic.
    let text = "{\n  \"mcpServers\": {\n    \"日本🚀\": {\"command\": \"npx\", \"args\": [\"-y\", \"${A:-x}\"], \"env\": {\"K\": \"{env:K}\"}},\n    \"r\": {\"type\": \"http\", \"url\": \"https://x\", \"oauth\": {\"clientId\": \"c\"}, \"tools\": [{\"name\": \"t\"}]},\n    \"u\": {\"url\": \"https://x\"}\n  }\n}\n";
    let parsed = jsonc::parse(text);
    for i in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        analyze(&text[..i]);
        complete(text, i);
        complete(&text[..i], i);
        hover(&parsed, i);
    }
}

#[test]
fn a_plugin_mcp_json_may_hold_its_servers_at_the_top() {
    // Without `mcpServers`, the whole object is the servers by name (not a missing key).
    let text = r#"{"good": {"command": "echo"}, "bad": {"command": 5}}"#;
    let (d, _, file) = analyze_plugin(text);
    assert!(file.read);
    let names: Vec<(&str, bool)> = file
        .servers
        .iter()
        .map(|s| (s.name.as_str(), s.skip.is_none()))
        .collect();
    assert_eq!(names, [("good", true), ("bad", false)]);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].span.text(text), "5");
    assert!(!d.iter().any(|d| d.code == Code::MissingField));
    // A project's `.mcp.json` needs `mcpServers`.
    assert!(analyze(text).0.iter().any(|d| d.code == Code::MissingField));
    // With `mcpServers`: as a project's.
    let text = r#"{"mcpServers": {"a": {"command": "x"}}}"#;
    let (d, _, file) = analyze_plugin(text);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(file.servers.len(), 1);
    // Not JSON: none of its servers.
    let (d, _, file) = analyze_plugin("{\"a\": {\"command\": \"x\"},}");
    assert!(d.iter().any(|d| d.code == Code::SyntaxError));
    assert!(file.servers.is_empty());
}
