use super::*;
use crate::analysis::opencode::config::analyze;
use expect_test::{Expect, expect};

/// Every diagnostic of a config as `code severity effect `spanned text`: message`, and its fix
/// applied (safe for `check --fix`, editor for one at a time).
fn show(text: &str) -> String {
    let a = analyze(text);
    let mut out = String::new();
    for d in &a.diagnostics {
        out.push_str(&format!(
            "{} {} {} `{}`: {}\n",
            d.code.as_str(),
            d.severity.as_str(),
            d.effect.as_str(),
            d.span.text(text),
            d.message
        ));
        if let Some(f) = &d.fix {
            let fixed = crate::analysis::diagnostic::apply(text, &f.edits);
            out.push_str(&format!(
                "  fix ({}) {}: {fixed}\n",
                if f.safe { "safe" } else { "editor" },
                f.title
            ));
        }
    }
    out
}

fn check(text: &str, want: Expect) {
    want.assert_eq(&show(text));
}

#[test]
fn valid_sections_are_silent() {
    let text = r#"{
  "$schema": "https://opencode.ai/config.json",
  "logLevel": "INFO",
  "server": {"port": 4096, "hostname": "127.0.0.1", "cors": ["https://a.dev"]},
  "share": "manual", "autoupdate": "notify", "snapshot": true, "username": "me",
  "disabled_providers": ["openai"], "enabled_providers": ["anthropic"],
  "watcher": {"ignore": ["dist/**"]},
  "plugin": ["opencode-helicone", ["./plugins/x.ts", {"level": 2}]],
  "provider": {
    "local": {
      "npm": "@ai-sdk/openai-compatible", "name": "Local", "env": ["LOCAL_KEY"],
      "options": {"baseURL": "http://127.0.0.1:8080/v1", "timeout": false, "anything": {"kept": true}},
      "models": {"m": {"name": "M", "limit": {"context": 128000, "output": 8192},
                       "cost": {"input": 1, "output": 2}, "modalities": {"input": ["text", "image"]},
                       "interleaved": {"field": "reasoning_content"}, "variants": {"high": {"effort": "high"}},
                       "options": {"x": 1}, "headers": {"X-A": "b"}, "status": "beta"}}
    }
  },
  "mcp": {
    "files": {"type": "local", "command": ["npx", "-y", "server"], "environment": {"A": "{env:A}"}, "timeout": 10000},
    "docs": {"type": "remote", "url": "https://docs.dev/mcp", "headers": {"Authorization": "Bearer {env:TOKEN}"}, "oauth": false},
    "inherited": {"enabled": false}
  },
  "formatter": {"prettier": {"disabled": true}, "mine": {"command": ["fmt", "$FILE"], "extensions": [".x"]}},
  "lsp": {"rust": {"command": ["rust-analyzer"]}, "custom": {"command": ["c-ls"], "extensions": [".c"]}, "eslint": {"disabled": true}},
  "instructions": ["CONTRIBUTING.md", "https://example.com/rules.md"],
  "skills": {"paths": ["./skills"], "urls": ["https://example.com/.well-known/skills/"]},
  "references": {"docs": "./docs", "lib": {"repository": "owner/lib", "branch": "main"}, "local": {"path": "../x"}},
  "attachment": {"image": {"auto_resize": true, "max_width": 1000}},
  "enterprise": {"url": "https://e.dev"},
  "tool_output": {"max_lines": 100, "max_bytes": 10000},
  "compaction": {"auto": true, "prune": false, "tail_turns": 0, "preserve_recent_tokens": 1000, "reserved": 0},
  "experimental": {"batch_tool": true, "primary_tools": ["edit"], "mcp_timeout": 1,
                   "policies": [{"action": "provider.use", "effect": "deny", "resource": "openai"}]},
  "subagent_depth": 0
}"#;
    check(text, expect![[""]]);
    let a = analyze(text);
    let paths: Vec<(PathKind, &str)> = a.facts.paths.iter().map(|p| (p.kind, p.text.as_str())).collect();
    assert_eq!(
        paths,
        [
            (PathKind::Plugin, "./plugins/x.ts"),
            (PathKind::Instructions, "CONTRIBUTING.md"),
            (PathKind::SkillsPath, "./skills"),
            (PathKind::Reference, "./docs"),
            (PathKind::Reference, "../x"),
        ]
    );
    for p in &a.facts.paths {
        assert_eq!(p.span.text(text), format!("\"{}\"", p.text));
    }
}

#[test]
fn refusals_sit_on_the_value_with_the_path() {
    check(
        r#"{"mcp": {"a": {"type": "local", "command": "npx -y x"}}, "share": "sometimes", "autoupdate": "yes", "snapshot": "no"}"#,
        expect![[r#"
            invalid-type error refuses-to-start `"npx -y x"`: `mcp.a.command` must be an array of strings, got the string "npx -y x"; opencode refuses to load the configuration
              fix (safe) Split into an array: `["npx", "-y", "x"]`: {"mcp": {"a": {"type": "local", "command": ["npx", "-y", "x"]}}, "share": "sometimes", "autoupdate": "yes", "snapshot": "no"}
            invalid-value error refuses-to-start `"sometimes"`: `share` must be "manual", "auto" or "disabled", got "sometimes"; opencode refuses to load the configuration
            invalid-value error refuses-to-start `"yes"`: `autoupdate` must be true, false or "notify", got "yes"; opencode refuses to load the configuration
            invalid-type error refuses-to-start `"no"`: `snapshot` must be true or false, got the string "no"; opencode refuses to load the configuration
        "#]],
    );
    check(
        r#"{"instructions": "AGENTS.md", "plugin": "x", "lsp": {"rust": {"command": "rust-analyzer"}}}"#,
        expect![[r#"
            invalid-type error refuses-to-start `"AGENTS.md"`: `instructions` must be an array of strings, got the string "AGENTS.md"; opencode refuses to load the configuration
              fix (safe) Make it an array: `["AGENTS.md"]`: {"instructions": ["AGENTS.md"], "plugin": "x", "lsp": {"rust": {"command": "rust-analyzer"}}}
            invalid-type error refuses-to-start `"x"`: `plugin` must be an array of items that are each a string or an array of exactly 2 items (a string, then an object), got the string "x"; opencode refuses to load the configuration
            invalid-type error refuses-to-start `"rust-analyzer"`: `lsp.rust.command` must be an array of strings, got the string "rust-analyzer"; opencode refuses to load the configuration
              fix (safe) Split into an array: `["rust-analyzer"]`: {"instructions": "AGENTS.md", "plugin": "x", "lsp": {"rust": {"command": ["rust-analyzer"]}}}
        "#]],
    );
}

#[test]
fn union_refusals_name_the_form_meant() {
    check(
        r#"{"mcp": {"a": {"type": "lokal", "command": ["x"]}, "b": {"type": "remote"}, "c": 5, "d": {"url": "u"}}}"#,
        expect![[r#"
            invalid-value error refuses-to-start `"lokal"`: `mcp.a.type` must be "local" or "remote", got "lokal"; opencode refuses to load the configuration. Did you mean `local`?
              fix (editor) Replace with `"local"`: {"mcp": {"a": {"type": "local", "command": ["x"]}, "b": {"type": "remote"}, "c": 5, "d": {"url": "u"}}}
            missing-field error refuses-to-start `"b"`: `mcp.b` has no `url`, which a remote MCP server needs; opencode refuses to load the configuration (`Missing key` at mcp.b.url)
            invalid-type error refuses-to-start `5`: `mcp.c` must be a local MCP server, a remote MCP server or `{"enabled": true|false}` alone, got a number (5); opencode refuses to load the configuration
            missing-field error refuses-to-start `"d"`: `mcp.d` has no `type`: it must say "local" or "remote"; opencode refuses to load the configuration (`Missing key` at mcp.d.type)
        "#]],
    );
}

#[test]
fn numbers_bounds_and_missing_keys() {
    check(
        r#"{"provider": {"local": {"models": {"m": {"limit": {"context": "big"}}}}}, "server": {"port": 0}, "compaction": {"tail_turns": -1}, "subagent_depth": 1.5, "mcp": {"r": {"type": "remote", "url": "u", "oauth": {"callbackPort": 70000}}}}"#,
        expect![[r#"
            invalid-type error refuses-to-start `"big"`: `provider.local.models.m.limit.context` must be a number, got the string "big"; opencode refuses to load the configuration
            missing-field error refuses-to-start `"limit"`: `provider.local.models.m.limit` has no `output`, which model limits needs; opencode refuses to load the configuration (`Missing key` at provider.local.models.m.limit.output)
            invalid-value error refuses-to-start `0`: `server.port` must be a whole number greater than 0, got 0; opencode refuses to load the configuration
            invalid-value error refuses-to-start `-1`: `compaction.tail_turns` must be a whole number, 0 or more, got -1; opencode refuses to load the configuration
            invalid-value error refuses-to-start `1.5`: `subagent_depth` must be a whole number, 0 or more, got 1.5; opencode refuses to load the configuration
            invalid-value error refuses-to-start `70000`: `mcp.r.oauth.callbackPort` must be a whole number from 1 to 65535, got 70000; opencode refuses to load the configuration
        "#]],
    );
    check(
        r#"{"plugin": [["a", {}], ["b"], ["c", {}, 3]]}"#,
        expect![[r#"
            invalid-value error refuses-to-start `["b"]`: `plugin.1` must be an array of exactly 2 items (a string, then an object); opencode refuses to load the configuration
            invalid-value error refuses-to-start `3`: `plugin.2` must be an array of exactly 2 items (a string, then an object), and this item is one too many; opencode refuses to load the configuration
        "#]],
    );
}

#[test]
fn dropped_keys_at_every_depth_with_did_you_mean() {
    check(
        r#"{"mcp": {"x": {"type": "local", "command": ["s"], "env": {"A": "1"}}}, "provider": {"anthropic": {"extra": 1}}, "lsp": {"rust": {"command": ["ra"], "args": []}}, "experimental": {"batchtool": true}, "watcher": {"ignored": []}}"#,
        expect![[r#"
            unknown-key warning value-ignored `"env"`: `env` is not a field of a local MCP server (in `mcp.x`): opencode drops it without a word. Did you mean `environment`?
              fix (editor) Replace with `"environment"`: {"mcp": {"x": {"type": "local", "command": ["s"], "environment": {"A": "1"}}}, "provider": {"anthropic": {"extra": 1}}, "lsp": {"rust": {"command": ["ra"], "args": []}}, "experimental": {"batchtool": true}, "watcher": {"ignored": []}}
            unknown-key warning value-ignored `"extra"`: `extra` is not a field of a provider (in `provider.anthropic`): opencode drops it without a word.
            unknown-key warning value-ignored `"args"`: `args` is not a field of a language server (in `lsp.rust`): opencode drops it without a word.
            unknown-key warning value-ignored `"batchtool"`: `batchtool` is not a field of experimental settings (in `experimental`): opencode drops it without a word. Did you mean `batch_tool`?
              fix (editor) Replace with `"batch_tool"`: {"mcp": {"x": {"type": "local", "command": ["s"], "env": {"A": "1"}}}, "provider": {"anthropic": {"extra": 1}}, "lsp": {"rust": {"command": ["ra"], "args": []}}, "experimental": {"batch_tool": true}, "watcher": {"ignored": []}}
            unknown-key warning value-ignored `"ignored"`: `ignored` is not a field of watcher settings (in `watcher`): opencode drops it without a word. Did you mean `ignore`?
              fix (editor) Replace with `"ignore"`: {"mcp": {"x": {"type": "local", "command": ["s"], "env": {"A": "1"}}}, "provider": {"anthropic": {"extra": 1}}, "lsp": {"rust": {"command": ["ra"], "args": []}}, "experimental": {"batchtool": true}, "watcher": {"ignore": []}}
        "#]],
    );
    // Kept, not dropped: provider options and model variants keep every key.
    check(
        r#"{"provider": {"p": {"options": {"region": "eu"}, "models": {"m": {"variants": {"v": {"effort": "high"}}}}}}}"#,
        expect![[""]],
    );
}

#[test]
fn keys_dropped_by_the_form_that_takes_the_entry() {
    check(
        r#"{"lsp": {"rust": {"disabled": true, "command": ["ra"]}}, "references": {"r": {"path": "p", "repository": "o/r"}}}"#,
        expect![[r#"
            unknown-key warning value-ignored `"command"`: `command` is dropped: opencode reads this entry (in `lsp.rust`) as `{"disabled": true}`, the first form it fits, which has no `command`
            unknown-key warning value-ignored `"path"`: `path` is dropped: opencode reads this entry (in `references.r`) as a git reference, the first form it fits, which has no `path`
        "#]],
    );
}

#[test]
fn a_custom_language_server_needs_extensions() {
    check(
        r#"{"lsp": {"my-ls": {"command": ["my-ls"]}, "gopl": {"command": ["gopls"]}, "ok": {"command": ["x"], "extensions": [".x"]}, "off": {"disabled": true}, "typescript": {"command": ["t"]}}}"#,
        expect![[r#"
            missing-field warning value-ignored `"my-ls"`: `my-ls` is not a language server opencode knows, and it has no `extensions`: opencode drops it (a custom server needs the file extensions it serves, e.g. `"extensions": [".ext"]`).
            missing-field warning value-ignored `"gopl"`: `gopl` is not a language server opencode knows, and it has no `extensions`: opencode drops it (a custom server needs the file extensions it serves, e.g. `"extensions": [".ext"]`). Did you mean `gopls`?
              fix (editor) Replace with `"gopls"`: {"lsp": {"my-ls": {"command": ["my-ls"]}, "gopls": {"command": ["gopls"]}, "ok": {"command": ["x"], "extensions": [".x"]}, "off": {"disabled": true}, "typescript": {"command": ["t"]}}}
        "#]],
    );
}

#[test]
fn v2_spellings_that_opencode_converts() {
    check(
        r#"{"skills": ["./s", "https://x.dev/skills/"], "compaction": {"keep": {"tokens": 5}, "buffer": 10}, "experimental": {"subagent_depth": 2}, "mcp": {"m": {"type": "local", "command": ["x"], "disabled": true}}}"#,
        expect![[r#"
            deprecated-field warning works-but-risky `"skills"`: a list for `skills` is opencode V2's spelling; opencode 1.18 converts it (URLs into `skills.urls`, the rest into `skills.paths`). Write `{"paths": [...], "urls": [...]}`
            deprecated-field warning works-but-risky `"keep"`: `keep` is opencode V2's spelling; opencode 1.18 converts it into `compaction.preserve_recent_tokens`. Write that instead
            deprecated-field warning works-but-risky `"buffer"`: `buffer` is opencode V2's spelling; opencode 1.18 converts it into `compaction.reserved`. Write that instead
            deprecated-field warning works-but-risky `"subagent_depth"`: `subagent_depth` is opencode V2's spelling; opencode 1.18 converts it into the top-level `subagent_depth`. Write that instead
            deprecated-field warning works-but-risky `"disabled"`: `disabled` is opencode V2's spelling; opencode 1.18 converts it into `enabled` (its opposite). Write that instead
        "#]],
    );
    let a = analyze(r#"{"skills": ["./s", "https://x.dev/skills/"]}"#);
    let paths: Vec<&str> = a.facts.paths.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(paths, ["./s"]);
}

#[test]
fn shell_variables_are_not_expanded() {
    check(
        r#"{"mcp": {"api": {"type": "remote", "url": "https://x.dev/${REGION}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
                   "sh": {"type": "local", "command": ["sh", "-c", "run ${HOME}/x"]}},
            "permission": {"bash": {"echo ${X}": "allow"}}, "instructions": ["${notavar"]}"#,
        expect![[r#"
            unsubstituted-variable warning fails-when-used `${REGION}`: opencode does not expand `${REGION}`: the value keeps these characters as they are. opencode substitutes `{env:REGION}` (empty when `REGION` is unset)
              fix (editor) Replace with `{env:REGION}`: {"mcp": {"api": {"type": "remote", "url": "https://x.dev/{env:REGION}/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
                               "sh": {"type": "local", "command": ["sh", "-c", "run ${HOME}/x"]}},
                        "permission": {"bash": {"echo ${X}": "allow"}}, "instructions": ["${notavar"]}
            unsubstituted-variable warning fails-when-used `${TOKEN}`: opencode does not expand `${TOKEN}`: the value keeps these characters as they are. opencode substitutes `{env:TOKEN}` (empty when `TOKEN` is unset)
              fix (editor) Replace with `{env:TOKEN}`: {"mcp": {"api": {"type": "remote", "url": "https://x.dev/${REGION}/mcp", "headers": {"Authorization": "Bearer {env:TOKEN}"}},
                               "sh": {"type": "local", "command": ["sh", "-c", "run ${HOME}/x"]}},
                        "permission": {"bash": {"echo ${X}": "allow"}}, "instructions": ["${notavar"]}
        "#]],
    );
}

#[test]
fn a_repeated_section_is_judged_by_its_last_value() {
    check(
        r#"{"share": "nope", "share": "auto"}"#,
        expect![[r#"
        duplicate-key warning value-ignored `"share"`: "share" is set again later in this object; opencode keeps only the last value, so this one is ignored
    "#]],
    );
}

#[test]
fn json_with_comments_keeps_spans() {
    let text = "{\n  // the servers\n  \"mcp\": {\n    \"x\": {\"type\": \"local\", \"command\": [\"a\"], \"enviroment\": {},},\n  },\n}";
    check(
        text,
        expect![[r#"
            unknown-key warning value-ignored `"enviroment"`: `enviroment` is not a field of a local MCP server (in `mcp.x`): opencode drops it without a word. Did you mean `environment`?
              fix (editor) Replace with `"environment"`: {
              // the servers
              "mcp": {
                "x": {"type": "local", "command": ["a"], "environment": {},},
              },
            }
        "#]],
    );
}

#[test]
fn skill_urls_must_be_urls() {
    check(
        r#"{"skills": {"urls": ["https://x.dev/skills/", "file:///tmp/s", "http:host", "skills/shared", "mailto:x"]}}"#,
        expect![[r#"
            invalid-value error refuses-to-start `"skills/shared"`: `skills/shared` is not a URL opencode can fetch skills from (`index.json` cannot be resolved against it): it fails when it builds the agents, so nothing starts. Write the whole URL (`https://...`); a folder belongs in `skills.paths`
            invalid-value error refuses-to-start `"mailto:x"`: `mailto:x` is not a URL opencode can fetch skills from (`index.json` cannot be resolved against it): it fails when it builds the agents, so nothing starts. Write the whole URL (`https://...`); a folder belongs in `skills.paths`
        "#]],
    );
}

#[test]
fn a_plugin_listed_twice_keeps_its_last_entry() {
    check(
        r#"{"plugin": ["gamma", ["gamma@2", {"x": 1}], "@acme/tool@1", "@acme/tool", "./p.ts", "file://./p.ts", "other"]}"#,
        expect![[r#"
            duplicate-key warning value-ignored `"gamma"`: the plugin `gamma` is listed again later: opencode loads each plugin once, from its last entry (with that entry's options), so this one is dropped
            duplicate-key warning value-ignored `"@acme/tool@1"`: the plugin `@acme/tool` is listed again later: opencode loads each plugin once, from its last entry (with that entry's options), so this one is dropped
        "#]],
    );
    assert_eq!(plugin_identity("@acme/tool@1.2.3"), "@acme/tool");
    assert_eq!(plugin_identity("name@latest"), "name");
    assert_eq!(plugin_identity("./a/../p.ts"), "./p.ts");
}

#[test]
fn a_required_key_misspelt_is_one_finding_on_it() {
    check(
        r#"{"mcp": {"x": {"type": "local", "comand": ["npx", "y"]}, "y": {"type": "remote", "ulr": "https://a.dev"}}}"#,
        expect![[r#"
            missing-field error refuses-to-start `"comand"`: `mcp.x` has no `command` (`comand` is written: did you mean `command`?), which a local MCP server needs; opencode refuses to load the configuration (`Missing key` at mcp.x.command)
              fix (editor) Replace with `"command"`: {"mcp": {"x": {"type": "local", "command": ["npx", "y"]}, "y": {"type": "remote", "ulr": "https://a.dev"}}}
            missing-field error refuses-to-start `"ulr"`: `mcp.y` has no `url` (`ulr` is written: did you mean `url`?), which a remote MCP server needs; opencode refuses to load the configuration (`Missing key` at mcp.y.url)
              fix (editor) Replace with `"url"`: {"mcp": {"x": {"type": "local", "comand": ["npx", "y"]}, "y": {"type": "remote", "url": "https://a.dev"}}}
        "#]],
    );
    // A key that is no misspelling of the missing one keeps its own finding.
    let shown = show(r#"{"mcp": {"x": {"type": "local", "zzz": 1}}}"#);
    assert!(
        shown.contains("missing-field error refuses-to-start `\"x\"`"),
        "{shown}"
    );
    assert!(shown.contains("unknown-key"), "{shown}");
}
