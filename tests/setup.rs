//! End-to-end tests of `agent-lsp setup`: the real binary in a fresh temp dir, as the current
//! directory. The binary's path is written as `<agent-lsp>` in snapshots (and its checkout as
//! `<clone>`), after asserting that the files hold the real, absolute path.
//!
//! Snapshots use expect-test; refresh them with `UPDATE_EXPECT=1 cargo test --test setup`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{Expect, expect};
use tempfile::TempDir;

fn exe() -> PathBuf {
    fs::canonicalize(env!("CARGO_BIN_EXE_agent-lsp")).unwrap()
}

fn exe_str() -> String {
    exe().to_str().unwrap().to_string()
}

/// Replace the machine's paths with placeholders.
fn normalise(s: &str) -> String {
    let clone = fs::canonicalize(env!("CARGO_MANIFEST_DIR")).unwrap();
    s.replace(&exe_str(), "<agent-lsp>")
        .replace(clone.to_str().unwrap(), "<clone>")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Run `agent-lsp` in `dir` with `PATH` set to `path` (an empty directory unless given).
fn run_with_path(dir: &Path, args: &[&str], path: &Path) -> Run {
    let out = Command::new(exe())
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: normalise(&String::from_utf8_lossy(&out.stdout)),
        stderr: normalise(&String::from_utf8_lossy(&out.stderr)),
    }
}

/// Run `agent-lsp` in `dir` with `PATH` set to `path`, `HOME` to `home`, and the variables that
/// move the user's config unset but for `env`.
fn run_env(dir: &Path, args: &[&str], path: &Path, home: &Path, env: &[(&str, &Path)]) -> Run {
    let mut cmd = Command::new(exe());
    cmd.args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: normalise(&String::from_utf8_lossy(&out.stdout)),
        stderr: normalise(&String::from_utf8_lossy(&out.stderr)),
    }
}

/// An executable `agent-lsp` in `dir` (a stand-in: nothing runs it).
fn fake_agent_lsp(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join("agent-lsp");
    fs::write(&p, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let empty = TempDir::new().unwrap();
    run_with_path(dir, args, empty.path())
}

/// `setup opencode --write` on a project whose config is `text` (in `name`); returns the run
/// and the file's text afterwards.
fn write_opencode(name: &str, text: &str) -> (Run, String) {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join(name), text).unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--write"]);
    let after = fs::read_to_string(dir.path().join(name)).unwrap();
    (r, after)
}

/// The `lsp` and `mcp` entries of a merged config, as JSON: the real values. Nothing else
/// applies in these projects (no package.json, an empty PATH): the entries run `agent-lsp`.
fn assert_entries(text: &str) {
    assert_entries_run(text, &["agent-lsp"]);
}

/// The `lsp` and `mcp` entries of a merged config run `argv`.
fn assert_entries_run(text: &str, argv: &[&str]) {
    let v = agent_lsp::analysis::syntax::jsonc::parse(text);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    let v = v.root.unwrap().to_json();
    let with = |args: &[&str]| serde_json::json!(argv.iter().chain(args).collect::<Vec<_>>());
    assert_eq!(
        v["lsp"]["agent-lsp"],
        serde_json::json!({"command": with(&["serve", "--for-agents"]), "extensions": [".md", ".json", ".jsonc"]})
    );
    assert_eq!(
        v["mcp"]["agent-lsp"],
        serde_json::json!({"type": "local", "command": with(&["mcp"]), "enabled": true})
    );
}

/// The merged text as a snapshot: placeholders for paths, `␍` for CR, `<BOM>` for a BOM.
fn check_text(text: &str, expected: Expect) {
    expected.assert_eq(
        &normalise(text)
            .replace('\u{feff}', "<BOM>")
            .replace('\r', "␍")
            .replace('\t', "→   "),
    );
}

#[test]
fn no_file_creates_opencode_json() {
    let dir = TempDir::new().unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join("opencode.json")).unwrap();
    assert_entries(&text);
    assert!(!dir.path().join("opencode.jsonc").exists());
    check_text(
        &text,
        expect![[r#"
            {
              "$schema": "https://opencode.ai/config.json",
              "lsp": {
                "agent-lsp": {
                  "command": ["agent-lsp", "serve", "--for-agents"],
                  "extensions": [".md", ".json", ".jsonc"]
                }
              },
              "mcp": {
                "agent-lsp": {
                  "type": "local",
                  "command": ["agent-lsp", "mcp"],
                  "enabled": true
                }
              }
            }
        "#]],
    );
    expect![[r#"
        agent-lsp binary: <agent-lsp>
        command in the config: agent-lsp (not on PATH yet: see the warning)
        created opencode.json: added `lsp.agent-lsp`; added `mcp.agent-lsp`
        note: the file had no `lsp`; where no config sets it, opencode runs no language server at all, and an `lsp` object also turns on opencode's built-in servers (TypeScript, Python, Go, ...); turn one off with `"<name>": {"disabled": true}` in `lsp`
        opencode starts them from its next session in this project; `opencode debug config` shows the merged `lsp` and `mcp`
    "#]]
    .assert_eq(&r.stdout);
}

#[test]
fn empty_object() {
    let (r, text) = write_opencode("opencode.json", "{}\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    check_text(
        &text,
        expect![[r#"
            {
              "lsp": {
                "agent-lsp": {
                  "command": ["agent-lsp", "serve", "--for-agents"],
                  "extensions": [".md", ".json", ".jsonc"]
                }
              },
              "mcp": {
                "agent-lsp": {
                  "type": "local",
                  "command": ["agent-lsp", "mcp"],
                  "enabled": true
                }
              }
            }
        "#]],
    );
}

#[test]
fn comments_and_trailing_commas_are_kept() {
    let (r, text) = write_opencode(
        "opencode.json",
        r#"{
    // The project's model.
    "$schema": "https://opencode.ai/config.json",
    "model": "anthropic/claude-sonnet-4-5", // pinned
    /* agents */
    "agent": {
        "review": {"description": "Reviews code",},
    },
}
"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    check_text(
        &text,
        expect![[r#"
            {
                // The project's model.
                "$schema": "https://opencode.ai/config.json",
                "model": "anthropic/claude-sonnet-4-5", // pinned
                /* agents */
                "agent": {
                    "review": {"description": "Reviews code",},
                },
                "lsp": {
                    "agent-lsp": {
                        "command": ["agent-lsp", "serve", "--for-agents"],
                        "extensions": [".md", ".json", ".jsonc"],
                    },
                },
                "mcp": {
                    "agent-lsp": {
                        "type": "local",
                        "command": ["agent-lsp", "mcp"],
                        "enabled": true,
                    },
                },
            }
        "#]],
    );
}

#[test]
fn lsp_object_with_another_server_keeps_it() {
    let (r, text) = write_opencode(
        "opencode.json",
        r#"{
  "lsp": {
    "rust": {"command": ["rust-analyzer"], "extensions": [".rs"]} // ours
  },
  "mcp": {
    "docs": {"type": "remote", "url": "https://example.com/mcp"}
  }
}
"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    check_text(
        &text,
        expect![[r#"
            {
              "lsp": {
                "rust": {"command": ["rust-analyzer"], "extensions": [".rs"]}, // ours
                "agent-lsp": {
                  "command": ["agent-lsp", "serve", "--for-agents"],
                  "extensions": [".md", ".json", ".jsonc"]
                }
              },
              "mcp": {
                "docs": {"type": "remote", "url": "https://example.com/mcp"},
                "agent-lsp": {
                  "type": "local",
                  "command": ["agent-lsp", "mcp"],
                  "enabled": true
                }
              }
            }
        "#]],
    );
    assert!(
        r.stdout
            .contains("updated opencode.json: added `lsp.agent-lsp`; added `mcp.agent-lsp`")
    );
}

#[test]
fn old_agent_lsp_entry_is_replaced() {
    let (r, text) = write_opencode(
        "opencode.json",
        r#"{
  "lsp": {
    "agent-lsp": {
      "command": ["/old/agent-lsp", "serve"],
      "extensions": [".md"]
    },
    "rust": {"command": ["rust-analyzer"], "extensions": [".rs"]}
  },
  "mcp": {"agent-lsp": {"type": "local", "command": ["/old/agent-lsp", "mcp"]}}
}
"#,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    assert!(!text.contains("/old/"));
    check_text(
        &text,
        expect![[r#"
            {
              "lsp": {
                "agent-lsp": {
                  "command": ["agent-lsp", "serve", "--for-agents"],
                  "extensions": [".md", ".json", ".jsonc"]
                },
                "rust": {"command": ["rust-analyzer"], "extensions": [".rs"]}
              },
              "mcp": {"agent-lsp": {"type": "local", "command": ["agent-lsp", "mcp"], "enabled": true}}
            }
        "#]],
    );
    assert!(r.stdout.contains(
        "updated opencode.json: replaced `lsp.agent-lsp` (it had another value); replaced `mcp.agent-lsp` (it had another value)"
    ));
}

#[test]
fn lsp_true_becomes_an_object() {
    let (r, text) = write_opencode("opencode.json", "{\n  \"lsp\": true,\n  \"mcp\": {}\n}\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    check_text(
        &text,
        expect![[r#"
            {
              "lsp": {
                "agent-lsp": {
                  "command": ["agent-lsp", "serve", "--for-agents"],
                  "extensions": [".md", ".json", ".jsonc"]
                }
              },
              "mcp": {
                "agent-lsp": {
                  "type": "local",
                  "command": ["agent-lsp", "mcp"],
                  "enabled": true
                }
              }
            }
        "#]],
    );
    assert!(
        r.stdout
            .contains("`\"lsp\": true` became an object holding `agent-lsp` (the built-in servers stay on)")
    );
}

#[test]
fn lsp_false_is_refused() {
    let original = "{\n  \"lsp\": false\n}\n";
    let (r, text) = write_opencode("opencode.json", original);
    assert_eq!(r.code, 2);
    assert_eq!(text, original);
    assert_eq!(r.stdout, "");
    expect![[r#"
        agent-lsp: error: opencode.json:2:3: `"lsp": false` turns every language server off in opencode, agent-lsp's too, so agent-lsp will not add one. To use agent-lsp, replace `false` with `{}` (an object keeps opencode's built-in servers on; turn one off with `"<name>": {"disabled": true}`), then run this again
    "#]]
    .assert_eq(&r.stderr);
}

#[test]
fn mcp_not_an_object_is_refused() {
    let original = "{\n  \"mcp\": true\n}\n";
    let (r, text) = write_opencode("opencode.json", original);
    assert_eq!(r.code, 2);
    assert_eq!(text, original);
    expect![[r#"
        agent-lsp: error: opencode.json:2:3: `mcp` is `true`; it must be an object to hold the `agent-lsp` entry. Fix it, then run this again
    "#]]
    .assert_eq(&r.stderr);
}

#[test]
fn crlf_bom_and_tabs_are_kept() {
    let (r, text) = write_opencode(
        "opencode.json",
        "\u{feff}{\r\n\t\"$schema\": \"https://opencode.ai/config.json\",\r\n\t\"lsp\": {}\r\n}\r\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(text.starts_with('\u{feff}'));
    assert!(text.match_indices('\n').all(|(i, _)| text.as_bytes()[i - 1] == b'\r'));
    assert_entries(text.trim_start_matches('\u{feff}'));
    check_text(
        &text,
        expect![[r#"
            <BOM>{␍
            →   "$schema": "https://opencode.ai/config.json",␍
            →   "lsp": {␍
            →   →   "agent-lsp": {␍
            →   →   →   "command": ["agent-lsp", "serve", "--for-agents"],␍
            →   →   →   "extensions": [".md", ".json", ".jsonc"]␍
            →   →   }␍
            →   },␍
            →   "mcp": {␍
            →   →   "agent-lsp": {␍
            →   →   →   "type": "local",␍
            →   →   →   "command": ["agent-lsp", "mcp"],␍
            →   →   →   "enabled": true␍
            →   →   }␍
            →   }␍
            }␍
        "#]],
    );
}

#[test]
fn jsonc_file_is_used() {
    let (r, text) = write_opencode("opencode.jsonc", "{\n  // mine\n}\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    check_text(
        &text,
        expect![[r#"
            {
              // mine
              "lsp": {
                "agent-lsp": {
                  "command": ["agent-lsp", "serve", "--for-agents"],
                  "extensions": [".md", ".json", ".jsonc"]
                }
              },
              "mcp": {
                "agent-lsp": {
                  "type": "local",
                  "command": ["agent-lsp", "mcp"],
                  "enabled": true
                }
              }
            }
        "#]],
    );
    assert!(r.stdout.contains("updated opencode.jsonc:"));
}

#[test]
fn both_files_the_jsonc_wins() {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join("opencode.json"), "{\"model\": \"a/b\"}\n").unwrap();
    fs::write(dir.path().join("opencode.jsonc"), "{\"theme\": \"dark\"}\n").unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        fs::read_to_string(dir.path().join("opencode.json")).unwrap(),
        "{\"model\": \"a/b\"}\n"
    );
    let text = fs::read_to_string(dir.path().join("opencode.jsonc")).unwrap();
    assert_entries(&text);
    check_text(
        &text,
        expect![[r#"
            {"theme": "dark", "lsp": {"agent-lsp": {"command": ["agent-lsp", "serve", "--for-agents"], "extensions": [".md", ".json", ".jsonc"]}}, "mcp": {"agent-lsp": {"type": "local", "command": ["agent-lsp", "mcp"], "enabled": true}}}
        "#]],
    );
    expect![[r#"
        agent-lsp binary: <agent-lsp>
        command in the config: agent-lsp (not on PATH yet: see the warning)
        note: both opencode.json and opencode.jsonc exist; opencode reads both and opencode.jsonc wins, so the entries go there
        updated opencode.jsonc: added `lsp.agent-lsp`; added `mcp.agent-lsp`
        note: the file had no `lsp`; where no config sets it, opencode runs no language server at all, and an `lsp` object also turns on opencode's built-in servers (TypeScript, Python, Go, ...); turn one off with `"<name>": {"disabled": true}` in `lsp`
        opencode starts them from its next session in this project; `opencode debug config` shows the merged `lsp` and `mcp`
    "#]]
    .assert_eq(&r.stdout);
}

#[test]
fn second_run_changes_nothing() {
    let dir = TempDir::new().unwrap();
    fs::write(
        dir.path().join("opencode.json"),
        "{\n  // keep\n  \"model\": \"a/b\",\n}\n",
    )
    .unwrap();
    let first = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let once = fs::read(dir.path().join("opencode.json")).unwrap();
    let second = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert_eq!(fs::read(dir.path().join("opencode.json")).unwrap(), once);
    assert!(
        second
            .stdout
            .ends_with("opencode.json: already set up; nothing changed\n"),
        "{}",
        second.stdout
    );
    let shown = run(dir.path(), &["setup", "opencode"]);
    assert!(
        shown.stdout.contains("\nopencode.json: already set up\n"),
        "{}",
        shown.stdout
    );
}

#[test]
fn unparsable_file_is_refused() {
    let original = "{\n  \"model\": \"a/b\"\n  \"theme\": \"dark\"\n}\n";
    let (r, text) = write_opencode("opencode.json", original);
    assert_eq!(r.code, 2);
    assert_eq!(text, original);
    expect![[r#"
        agent-lsp: error: opencode.json:3:3: expected `,` between properties
    "#]]
    .assert_eq(&r.stderr);
}

#[test]
fn root_is_shown_as_typed() {
    let dir = TempDir::new().unwrap();
    fs::create_dir(dir.path().join("proj")).unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--root", "proj"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("Add to proj/opencode.json (merged with what is there):")
    );
    assert!(
        r.stdout
            .contains("proj/opencode.json: not there yet; --write creates it")
    );
    assert!(r.stdout.contains("agent-lsp setup opencode --write --root proj\n"));
    let r = run(dir.path(), &["setup", "opencode", "--root", "proj", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("created proj/opencode.json:"));
    assert_entries(&fs::read_to_string(dir.path().join("proj/opencode.json")).unwrap());
    let r = run(dir.path(), &["setup", "opencode", "--root", "nowhere"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr, "agent-lsp: error: --root nowhere: no such directory\n");
}

#[test]
fn print_opencode() {
    let dir = TempDir::new().unwrap();
    fs::write(dir.path().join("opencode.json"), "{\"lsp\": false}").unwrap();
    let r = run(dir.path(), &["setup", "opencode"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    expect![[r#"
        agent-lsp binary: <agent-lsp>
        command in the config: agent-lsp (not on PATH yet: see the warning)

        Add to opencode.json (merged with what is there):
        {
          "lsp": {
            "agent-lsp": {
              "command": ["agent-lsp", "serve", "--for-agents"],
              "extensions": [".md", ".json", ".jsonc"]
            }
          },
          "mcp": {
            "agent-lsp": {
              "type": "local",
              "command": ["agent-lsp", "mcp"],
              "enabled": true
            }
          }
        }

        --write would refuse: opencode.json:1:2: `"lsp": false` turns every language server off in opencode, agent-lsp's too, so agent-lsp will not add one. To use agent-lsp, replace `false` with `{}` (an object keeps opencode's built-in servers on; turn one off with `"<name>": {"disabled": true}`), then run this again
        Merge it (comments and formatting kept): agent-lsp setup opencode --write
    "#]]
    .assert_eq(&r.stdout);
    assert!(r.stdout.contains("\"command\": [\"agent-lsp\", \"serve\""));
}

#[test]
fn print_claude() {
    let dir = TempDir::new().unwrap();
    let r = run(dir.path(), &["setup", "claude"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    expect![[r#"
        agent-lsp binary: <agent-lsp>
        command in the config: agent-lsp (not on PATH yet: see the warning)

        Language server: the agent-lsp plugin (editors/claude-code)
          claude plugin marketplace add <clone>
          claude plugin install agent-lsp@agent-lsp
        or for one session:
          claude --plugin-dir <clone>/editors/claude-code
        The plugin runs `agent-lsp` from PATH, and it is not there; link this binary into a PATH directory:
          ln -s <agent-lsp> ~/.local/bin/agent-lsp
        or install it: cargo install --path <clone>

        MCP server (the plugin declares it too: this is for a project without the plugin):
        Add to .mcp.json (merged with what is there):
        {
          "mcpServers": {
            "agent-lsp": {
              "command": "agent-lsp",
              "args": ["mcp"]
            }
          }
        }

        .mcp.json: not there yet; --write creates it
        Merge it (comments and formatting kept): agent-lsp setup claude --write
        or, for you only:
          claude mcp add agent-lsp -- agent-lsp mcp

        Hook (the plugin declares it too): a PostToolUse hook that hands the findings on a file Claude Code writes to the model in the same turn: agent-lsp setup claude --hook
    "#]]
    .assert_eq(&r.stdout);

    // With this binary on PATH (through a link), and with another one.
    let bin = TempDir::new().unwrap();
    std::os::unix::fs::symlink(exe(), bin.path().join("agent-lsp")).unwrap();
    let r = run_with_path(dir.path(), &["setup", "claude"], bin.path());
    let link = bin.path().join("agent-lsp");
    assert!(
        r.stdout.contains(&format!(
            "The plugin runs `agent-lsp` from PATH: {} is this binary\n",
            link.display()
        )),
        "{}",
        r.stdout
    );
    let other = TempDir::new().unwrap();
    fake_agent_lsp(other.path());
    let r = run_with_path(dir.path(), &["setup", "claude"], other.path());
    assert!(r.stdout.contains(&format!(
        "The plugin runs `agent-lsp` from PATH: that is {}, not this binary\n",
        other.path().join("agent-lsp").display()
    )));
}

#[test]
fn claude_write_merges_into_mcp_json() {
    let dir = TempDir::new().unwrap();
    fs::write(
        dir.path().join(".mcp.json"),
        "{\n    \"mcpServers\": {\n        \"docs\": {\"type\": \"http\", \"url\": \"https://example.com/mcp\"}\n    }\n}\n",
    )
    .unwrap();
    let r = run(dir.path(), &["setup", "claude", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join(".mcp.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["mcpServers"]["agent-lsp"],
        serde_json::json!({"command": "agent-lsp", "args": ["mcp"]})
    );
    check_text(
        &text,
        expect![[r#"
            {
                "mcpServers": {
                    "docs": {"type": "http", "url": "https://example.com/mcp"},
                    "agent-lsp": {
                        "command": "agent-lsp",
                        "args": ["mcp"]
                    }
                }
            }
        "#]],
    );
    assert!(r.stdout.contains(
        "\nMCP server (the plugin declares it too: this is for a project without the plugin):\nupdated .mcp.json: added `mcpServers.agent-lsp`\nClaude Code asks to approve"
    ));
    let again = run(dir.path(), &["setup", "claude", "--write"]);
    assert_eq!(again.code, 0);
    assert!(
        again.stdout.ends_with(".mcp.json: already set up; nothing changed\n"),
        "{}",
        again.stdout
    );
    assert_eq!(fs::read_to_string(dir.path().join(".mcp.json")).unwrap(), text);
}

#[test]
fn claude_write_creates_mcp_json() {
    let dir = TempDir::new().unwrap();
    let r = run(dir.path(), &["setup", "claude", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join(".mcp.json")).unwrap();
    check_text(
        &text,
        expect![[r#"
            {
              "mcpServers": {
                "agent-lsp": {
                  "command": "agent-lsp",
                  "args": ["mcp"]
                }
              }
            }
        "#]],
    );
    assert!(r.stdout.contains("created .mcp.json: added `mcpServers.agent-lsp`"));
}

#[test]
fn a_symlinked_config_stays_a_link() {
    let dir = TempDir::new().unwrap();
    fs::create_dir(dir.path().join("shared")).unwrap();
    fs::write(dir.path().join("shared/opencode.json"), "{}\n").unwrap();
    std::os::unix::fs::symlink("shared/opencode.json", dir.path().join("opencode.json")).unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        fs::symlink_metadata(dir.path().join("opencode.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_entries(&fs::read_to_string(dir.path().join("shared/opencode.json")).unwrap());
}

#[test]
fn findings_already_there_do_not_block() {
    // A misspelt key: agent-lsp reports it before and after; the merge adds nothing new.
    let (r, text) = write_opencode("opencode.json", "{\n  \"modle\": \"a/b\"\n}\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&text);
    assert!(text.starts_with("{\n  \"modle\": \"a/b\",\n  \"lsp\": {\n"), "{text}");
}

#[test]
fn empty_file_is_refused() {
    let (r, text) = write_opencode("opencode.json", "");
    assert_eq!(r.code, 2);
    assert_eq!(text, "");
    assert_eq!(
        r.stderr,
        "agent-lsp: error: opencode.json:1:1: the file is empty; expected a JSON object\n"
    );
}

/// The real opencode 1.18.34 reads the files `--write` produced and holds the entries:
/// `OPENCODE_BIN=... cargo test --test setup -- --ignored` (tests/runtime/run.sh installs it).
#[test]
#[ignore = "needs the opencode runtime: set OPENCODE_BIN to the opencode 1.18.34 binary"]
fn opencode_reads_the_merged_files() {
    let bin = PathBuf::from(std::env::var_os("OPENCODE_BIN").expect("set OPENCODE_BIN"));
    let cases = [
        ("opencode.json", None),
        (
            "opencode.json",
            Some("{\n    // c\n    \"lsp\": true,\n    \"agent\": {\"review\": {\"description\": \"R\",},},\n}\n"),
        ),
        (
            "opencode.json",
            Some(
                "\u{feff}{\r\n\t\"lsp\": {\r\n\t\t\"rust\": {\"command\": [\"rust-analyzer\"], \"extensions\": [\".rs\"]}\r\n\t}\r\n}\r\n",
            ),
        ),
        ("opencode.jsonc", Some("{\n  // mine\n  \"mcp\": {},\n}\n")),
    ];
    for (name, text) in cases {
        let dir = TempDir::new().unwrap();
        let home = TempDir::new().unwrap();
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(dir.path())
            .status();
        assert!(git.is_ok_and(|s| s.success()));
        if let Some(text) = text {
            fs::write(dir.path().join(name), text).unwrap();
        }
        let r = run(dir.path(), &["setup", "opencode", "--write", "--absolute"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let h = home.path();
        let out = Command::new(&bin)
            .args(["debug", "config", "--pure"])
            .current_dir(dir.path())
            .env("HOME", h)
            .env("XDG_CONFIG_HOME", h.join(".config"))
            .env("XDG_DATA_HOME", h.join(".local/share"))
            .env("XDG_CACHE_HOME", h.join(".cache"))
            .env("XDG_STATE_HOME", h.join(".local/state"))
            .env_remove("OPENCODE_CONFIG")
            .env_remove("OPENCODE_CONFIG_DIR")
            .env_remove("OPENCODE_CONFIG_CONTENT")
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let config: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            config["lsp"]["agent-lsp"],
            serde_json::json!({"command": [exe_str(), "serve", "--for-agents"], "extensions": [".md", ".json", ".jsonc"]}),
            "{name}: {text:?}"
        );
        assert_eq!(
            config["mcp"]["agent-lsp"],
            serde_json::json!({"type": "local", "command": [exe_str(), "mcp"], "enabled": true}),
            "{name}: {text:?}"
        );
    }
}

#[test]
fn print_says_what_write_would_change() {
    let dir = TempDir::new().unwrap();
    let original =
        "{\n  \"lsp\": true,\n  \"mcp\": {\"agent-lsp\": {\"type\": \"local\", \"command\": [\"/old\", \"mcp\"]}}\n}\n";
    fs::write(dir.path().join("opencode.json"), original).unwrap();
    let r = run(dir.path(), &["setup", "opencode"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(fs::read_to_string(dir.path().join("opencode.json")).unwrap(), original);
    assert!(
        r.stdout.contains(
            "\nopencode.json: --write turns `\"lsp\": true` into an object holding `agent-lsp` (the built-in servers stay on); replaces `mcp.agent-lsp` (it has another value)\n"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn the_shared_files_run_agent_lsp_from_path_not_this_machines_binary() {
    // Not on PATH: still `agent-lsp`, with a warning that says how to put it there.
    let dir = TempDir::new().unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join("opencode.json")).unwrap();
    assert_entries(&text);
    assert!(!text.contains(&exe_str()), "{text}");
    assert!(
        r.stdout
            .contains("command in the config: agent-lsp (not on PATH yet: see the warning)\n")
    );
    expect![[r#"
        agent-lsp: warning: `agent-lsp` is not on PATH, so the entries do not start it yet. Install it for the project (`npm i -D agent-lsp`, then run this again: the entries then run the project's package) or for you (`cargo install --locked agent-lsp`, or link this binary: `ln -s <agent-lsp> ~/.local/bin/agent-lsp`); --absolute writes this binary's path instead
    "#]]
    .assert_eq(&r.stderr);

    // On PATH: `agent-lsp`, without a word on stderr.
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    let dir = TempDir::new().unwrap();
    let r = run_with_path(dir.path(), &["setup", "claude", "--write"], bin.path());
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(
        v["mcpServers"]["agent-lsp"],
        serde_json::json!({"command": "agent-lsp", "args": ["mcp"]})
    );
    assert!(r.stdout.contains(&format!(
        "command in the config: agent-lsp (on PATH: {})\n",
        bin.path().join("agent-lsp").display()
    )));

    // What does not count as on PATH: a file that is not executable, a `node_modules/.bin` (npx
    // puts one on PATH for the command it runs), a relative directory.
    let not_exec = TempDir::new().unwrap();
    fs::write(not_exec.path().join("agent-lsp"), "#!/bin/sh\n").unwrap();
    let npx = TempDir::new().unwrap();
    fs::create_dir_all(npx.path().join("node_modules/.bin")).unwrap();
    fake_agent_lsp(&npx.path().join("node_modules/.bin"));
    let path =
        std::env::join_paths([not_exec.path(), &npx.path().join("node_modules/.bin"), Path::new("bin")]).unwrap();
    let dir = TempDir::new().unwrap();
    fs::create_dir(dir.path().join("bin")).unwrap();
    fake_agent_lsp(&dir.path().join("bin"));
    let r = run_with_path(dir.path(), &["setup", "opencode"], Path::new(&path));
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains("`agent-lsp` is not on PATH"), "{}", r.stderr);
}

#[test]
fn absolute_writes_this_binary_and_warns() {
    let dir = TempDir::new().unwrap();
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    let r = run_with_path(dir.path(), &["setup", "opencode", "--write", "--absolute"], bin.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join("opencode.json")).unwrap();
    assert_entries_run(&text, &[&exe_str()]);
    assert!(Path::new(&exe_str()).is_absolute());
    expect![[r#"
        agent-lsp: warning: the entries name agent-lsp by a path of this machine (<agent-lsp>): whoever else uses the project's files cannot start it. Without --absolute, setup writes `agent-lsp` (run from PATH) or, when package.json pins agent-lsp, the package manager's command
    "#]]
    .assert_eq(&r.stderr);
    expect![[r#"
        agent-lsp binary: <agent-lsp>
        command in the config: <agent-lsp> (--absolute: a path of this machine)
        note: this binary is in a cargo target directory, which `cargo clean` deletes; for a lasting path, install it (`cargo install --path <clone>`) and run `agent-lsp setup` from the installed binary
        created opencode.json: added `lsp.agent-lsp`; added `mcp.agent-lsp`
        note: the file had no `lsp`; where no config sets it, opencode runs no language server at all, and an `lsp` object also turns on opencode's built-in servers (TypeScript, Python, Go, ...); turn one off with `"<name>": {"disabled": true}` in `lsp`
        opencode starts them from its next session in this project; `opencode debug config` shows the merged `lsp` and `mcp`
    "#]]
    .assert_eq(&r.stdout);
    let r = run(dir.path(), &["setup", "claude", "--write", "--absolute"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(v["mcpServers"]["agent-lsp"]["command"], exe_str());
    assert!(r.stderr.contains("a path of this machine"), "{}", r.stderr);
}

#[test]
fn a_project_that_pins_agent_lsp_runs_its_package() {
    // package.json, other files of the project, what the entries run.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a [&'a str]);
    let cases: &[Case] = &[
        (
            r#"{"devDependencies": {"agent-lsp": "^0.1.0"}}"#,
            &[],
            &["npx", "--no-install", "agent-lsp"],
        ),
        (
            r#"{"dependencies": {"agent-lsp": "0.1.0"}}"#,
            &[("package-lock.json", "{}")],
            &["npx", "--no-install", "agent-lsp"],
        ),
        (
            r#"{"devDependencies": {"agent-lsp": "0.1.0"}}"#,
            &[("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")],
            &["pnpm", "exec", "agent-lsp"],
        ),
        (
            r#"{"devDependencies": {"agent-lsp": "0.1.0"}}"#,
            &[("yarn.lock", "# THIS IS AN AUTOGENERATED FILE.\n# yarn lockfile v1\n")],
            &["yarn", "--silent", "agent-lsp"],
        ),
        (
            r#"{"devDependencies": {"agent-lsp": "0.1.0"}}"#,
            &[("yarn.lock", "__metadata:\n  version: 8\n")],
            &["yarn", "agent-lsp"],
        ),
        (
            r#"{"devDependencies": {"agent-lsp": "0.1.0"}}"#,
            &[("bun.lock", "{}")],
            &["bun", "run", "agent-lsp"],
        ),
        // `packageManager` says which, before any lockfile.
        (
            r#"{"packageManager": "pnpm@9.1.0", "devDependencies": {"agent-lsp": "0.1.0"}}"#,
            &[("package-lock.json", "{}")],
            &["pnpm", "exec", "agent-lsp"],
        ),
    ];
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    for (manifest, files, argv) in cases {
        let dir = TempDir::new().unwrap();
        fs::write(dir.path().join("package.json"), manifest).unwrap();
        for (name, text) in *files {
            fs::write(dir.path().join(name), text).unwrap();
        }
        // Before `agent-lsp` on PATH: the project's version is the one everyone runs.
        let r = run_with_path(dir.path(), &["setup", "opencode", "--write"], bin.path());
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{manifest}");
        assert_entries_run(&fs::read_to_string(dir.path().join("opencode.json")).unwrap(), argv);
        let r = run_with_path(dir.path(), &["setup", "claude", "--write"], bin.path());
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join(".mcp.json")).unwrap()).unwrap();
        let mut args: Vec<&str> = argv[1..].to_vec();
        args.push("mcp");
        assert_eq!(
            v["mcpServers"]["agent-lsp"],
            serde_json::json!({"command": argv[0], "args": args}),
            "{manifest}"
        );
    }
    // The lockfile of a workspace is at its root, above the package.
    let ws = TempDir::new().unwrap();
    fs::write(ws.path().join("pnpm-lock.yaml"), "").unwrap();
    fs::create_dir(ws.path().join("app")).unwrap();
    fs::write(
        ws.path().join("app/package.json"),
        r#"{"devDependencies": {"agent-lsp": "0.1.0"}}"#,
    )
    .unwrap();
    let r = run(ws.path(), &["setup", "opencode", "--write", "--root", "app"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries_run(
        &fs::read_to_string(ws.path().join("app/opencode.json")).unwrap(),
        &["pnpm", "exec", "agent-lsp"],
    );
    // Another package of the same name elsewhere does not count.
    let dir = TempDir::new().unwrap();
    fs::write(
        dir.path().join("package.json"),
        r#"{"peerDependencies": {"agent-lsp": "*"}}"#,
    )
    .unwrap();
    let r = run(dir.path(), &["setup", "opencode", "--write"]);
    assert_entries(&fs::read_to_string(dir.path().join("opencode.json")).unwrap());
    assert!(r.stderr.contains("not on PATH"));
}

#[test]
fn global_writes_the_users_own_config() {
    // opencode: `$XDG_CONFIG_HOME/opencode/opencode.json`, created with its directory.
    let home = TempDir::new().unwrap();
    let xdg = TempDir::new().unwrap();
    let project = TempDir::new().unwrap();
    let empty = TempDir::new().unwrap();
    let r = run_env(
        project.path(),
        &["setup", "opencode", "--global", "--write"],
        empty.path(),
        home.path(),
        &[("XDG_CONFIG_HOME", xdg.path())],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Not on PATH: the user's own file may name this binary.
    assert_entries_run(
        &fs::read_to_string(xdg.path().join("opencode/opencode.json")).unwrap(),
        &[&exe_str()],
    );
    assert_eq!(r.stderr, "");
    assert!(!project.path().join("opencode.json").exists());
    assert!(
        r.stdout
            .contains("opencode starts them from its next session, in every project")
    );
    // Without XDG_CONFIG_HOME: `~/.config/opencode`; on PATH: `agent-lsp`.
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    let r = run_env(
        project.path(),
        &["setup", "opencode", "--global", "--write"],
        bin.path(),
        home.path(),
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_entries(&fs::read_to_string(home.path().join(".config/opencode/opencode.json")).unwrap());

    // Claude Code: the user's MCP servers in `~/.claude.json` (other keys kept), the hook in
    // `~/.claude/settings.json`.
    fs::write(home.path().join(".claude.json"), "{\n  \"numStartups\": 3\n}\n").unwrap();
    let r = run_env(
        project.path(),
        &["setup", "claude", "--global", "--hook", "--write"],
        bin.path(),
        home.path(),
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(home.path().join(".claude.json")).unwrap()).unwrap();
    assert_eq!(v["numStartups"], 3);
    assert_eq!(
        v["mcpServers"]["agent-lsp"],
        serde_json::json!({"command": "agent-lsp", "args": ["mcp"]})
    );
    let settings: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(home.path().join(".claude/settings.json")).unwrap()).unwrap();
    assert_eq!(
        settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "agent-lsp hook"
    );
    assert!(!project.path().join(".mcp.json").exists());
    assert!(!project.path().join(".claude").exists());

    // CLAUDE_CONFIG_DIR moves the user's files: refused, with what to run instead.
    let r = run_env(
        project.path(),
        &["setup", "claude", "--global", "--write"],
        bin.path(),
        home.path(),
        &[("CLAUDE_CONFIG_DIR", home.path())],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("claude mcp add --scope user"), "{}", r.stderr);
    // --global is not for a project directory.
    let r = run(project.path(), &["setup", "opencode", "--global", "--root", "."]);
    assert_eq!(r.code, 2);
}

#[test]
fn claude_hook_is_merged_into_settings() {
    let dir = TempDir::new().unwrap();
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    // Printed: what to add, and where.
    let r = run_with_path(dir.path(), &["setup", "claude", "--hook"], bin.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let hook_part = &r.stdout[r.stdout.find("\nHook").unwrap()..];
    expect![[r#"

        Hook (the plugin declares it too: with the plugin, it would run twice): `agent-lsp hook` after each Write, Edit, MultiEdit, which hands the findings on the file written to the model in the same turn:
        Add to .claude/settings.json (merged with what is there):
        {
          "hooks": {
            "PostToolUse": [
              {
                "matcher": "Write|Edit|MultiEdit",
                "hooks": [
                  {
                    "type": "command",
                    "command": "agent-lsp hook",
                    "timeout": 30
                  }
                ]
              }
            ]
          }
        }

        .claude/settings.json: not there yet; --write creates it
        Merge it (comments and formatting kept): agent-lsp setup claude --write --hook
    "#]]
    .assert_eq(hook_part);
    assert!(!dir.path().join(".claude").exists());

    // Written into settings that have hooks of their own: those stay, before it.
    fs::create_dir(dir.path().join(".claude")).unwrap();
    let original = r#"{
  // the team's
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Write", "hooks": [{"type": "command", "command": "npx prettier --write ."}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]
  }
}
"#;
    fs::write(dir.path().join(".claude/settings.json"), original).unwrap();
    let r = run_with_path(dir.path(), &["setup", "claude", "--hook", "--write"], bin.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap();
    check_text(
        &text,
        expect![[r#"
            {
              // the team's
              "permissions": {"allow": ["Bash(npm test)"]},
              "hooks": {
                "PostToolUse": [
                  {"matcher": "Write", "hooks": [{"type": "command", "command": "npx prettier --write ."}]},
                  {
                    "matcher": "Write|Edit|MultiEdit",
                    "hooks": [
                      {
                        "type": "command",
                        "command": "agent-lsp hook",
                        "timeout": 30
                      }
                    ]
                  }
                ],
                "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]
              }
            }
        "#]],
    );
    assert!(
        r.stdout
            .contains("updated .claude/settings.json: added an entry to `hooks.PostToolUse`\n"),
        "{}",
        r.stdout
    );
    // agent-lsp's own check finds nothing in what it wrote (the team's `npx prettier` runs the
    // prettier the project installs, which its lockfile pins: not an `unpinned-package`).
    fs::write(
        dir.path().join("package.json"),
        r#"{ "devDependencies": { "prettier": "^3.3.3" } }"#,
    )
    .unwrap();
    let check = Command::new(exe())
        .args(["check", "--no-global", "--format", "json", ".claude/settings.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(report["diagnostics"], serde_json::json!([]), "{report}");
    assert_eq!(check.status.code(), Some(0));

    // Again: nothing changes, and a hook that runs agent-lsp otherwise counts as there.
    let again = run_with_path(dir.path(), &["setup", "claude", "--hook", "--write"], bin.path());
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stdout
            .ends_with(".claude/settings.json: already set up; nothing changed\n"),
        "{}",
        again.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap(),
        text
    );
    let other = TempDir::new().unwrap();
    fs::create_dir(other.path().join(".claude")).unwrap();
    let npx_hook = r#"{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "npx --no-install agent-lsp hook"}]}]}}"#;
    fs::write(other.path().join(".claude/settings.json"), npx_hook).unwrap();
    let r = run_with_path(other.path(), &["setup", "claude", "--hook", "--write"], bin.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        fs::read_to_string(other.path().join(".claude/settings.json")).unwrap(),
        npx_hook
    );

    // A fresh project: created, and clean too.
    let fresh = TempDir::new().unwrap();
    let r = run_with_path(fresh.path(), &["setup", "claude", "--hook", "--write"], bin.path());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let check = Command::new(exe())
        .args(["check", "--no-global", "--format", "json", "."])
        .current_dir(fresh.path())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(report["diagnostics"], serde_json::json!([]), "{report}");

    // `hooks` that is not an object: refused, the file as it was.
    fs::write(other.path().join(".claude/settings.json"), "{\"hooks\": []}").unwrap();
    let r = run_with_path(other.path(), &["setup", "claude", "--hook", "--write"], bin.path());
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("must be an object"), "{}", r.stderr);
    // And --hook is for Claude Code.
    let r = run(dir.path(), &["setup", "opencode", "--hook"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--hook is for `setup claude`"), "{}", r.stderr);
}

#[test]
fn a_file_its_runtime_reads_none_of_is_left_as_it_is_and_the_others_are_written() {
    let dir = TempDir::new().unwrap();
    // `.mcp.json` is fine; the settings file is voided by its `defaultMode`: Claude Code would
    // apply none of it, the hook included.
    fs::write(dir.path().join(".mcp.json"), "{ \"mcpServers\": {} }\n").unwrap();
    fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let settings = "{\n  \"permissions\": { \"deny\": [\"Bash(curl:*)\"], \"defaultMode\": \"acceptEdit\" }\n}\n";
    fs::write(dir.path().join(".claude/settings.json"), settings).unwrap();
    let r = run(dir.path(), &["setup", "claude", "--write", "--hook"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("updated .mcp.json: added `mcpServers.agent-lsp`"),
        "{}",
        r.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(".claude/settings.json")).unwrap(),
        settings
    );
    assert!(
        r.stdout.contains(
            "left .claude/settings.json as it is: Claude Code reads none of it as it stands, so entries added to it would do nothing. Fix this first (`agent-lsp check .claude/settings.json` shows it), then run this again:\n  .claude/settings.json:2:61: `permissions.defaultMode` must be"
        ),
        "{}",
        r.stdout
    );
    // No effect claimed for the file left alone.
    assert!(
        !r.stdout.contains("Claude Code runs it from its next session"),
        "{}",
        r.stdout
    );
    // Once fixed, the same command writes it.
    fs::write(
        dir.path().join(".claude/settings.json"),
        settings.replace("acceptEdit\"", "acceptEdits\""),
    )
    .unwrap();
    let r = run(dir.path(), &["setup", "claude", "--write", "--hook"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("Claude Code runs it from its next session"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_mcp_json_that_is_not_strict_json_and_a_refused_opencode_json_are_left_as_they_are() {
    let dir = TempDir::new().unwrap();
    let mcp = "{\n  \"mcpServers\": {\n    \"docs\": { \"type\": \"http\", \"url\": \"https://docs.example.com/mcp\" },\n  }\n}\n";
    fs::write(dir.path().join(".mcp.json"), mcp).unwrap();
    let r = run(dir.path(), &["setup", "claude", "--write"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(fs::read_to_string(dir.path().join(".mcp.json")).unwrap(), mcp);
    assert!(
        r.stdout
            .contains("left .mcp.json as it is: Claude Code reads none of it as it stands"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(".mcp.json:3:70: a trailing comma"), "{}", r.stdout);
    assert!(!r.stdout.contains("asks to approve"), "{}", r.stdout);
    // Without --write, the plan says so too.
    let r = run(dir.path(), &["setup", "claude"]);
    assert!(r.stdout.contains("left .mcp.json as it is"), "{}", r.stdout);

    let opencode = "{\n  \"agent\": { \"review\": { \"permissions\": { \"edit\": \"deny\" } } }\n}\n";
    let (r, text) = write_opencode("opencode.json", opencode);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(text, opencode);
    assert!(
        r.stdout
            .contains("left opencode.json as it is: opencode refuses this configuration as it stands"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("[v2-permissions]"), "{}", r.stdout);
    assert!(!r.stdout.contains("next session"), "{}", r.stdout);
}

/// The table `setup codex` adds to an empty project (`tests/codex_runtime` runs Codex on this
/// very text, as the case `setup:the-table-setup-codex-writes`).
const CODEX_TABLE: &str = "[mcp_servers.agent-lsp]\ncommand = \"agent-lsp\"\nargs = [\"mcp\"]\n";

#[test]
fn codex_write_merges_into_config_toml_and_keeps_the_rest() {
    let dir = TempDir::new().unwrap();
    let r = run(dir.path(), &["setup", "codex", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        fs::read_to_string(dir.path().join(".codex/config.toml")).unwrap(),
        CODEX_TABLE
    );
    assert!(
        r.stdout.contains("created .codex/config.toml: added `mcp_servers.agent-lsp`\nCodex starts the MCP server `agent-lsp` from its next session in this project, once the project is trusted"),
        "{}",
        r.stdout
    );
    // Into a file with comments and another server: the rest as it was, the table after it.
    let original = "# Team settings.\nmodel = \"gpt-5.1-codex\"  # pinned\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"@upstash/context7-mcp@1.0.0\"]\n";
    fs::write(dir.path().join(".codex/config.toml"), original).unwrap();
    let r = run(dir.path(), &["setup", "codex", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join(".codex/config.toml")).unwrap();
    assert_eq!(text, format!("{original}\n{CODEX_TABLE}"));
    let again = run(dir.path(), &["setup", "codex", "--write"]);
    assert!(
        again
            .stdout
            .ends_with(".codex/config.toml: already set up; nothing changed\n"),
        "{}",
        again.stdout
    );
    assert_eq!(fs::read_to_string(dir.path().join(".codex/config.toml")).unwrap(), text);
    // Printed, not written: the table, and Codex's own command.
    let printed = run(dir.path(), &["setup", "codex"]);
    assert!(
        printed.stdout.contains("codex mcp add agent-lsp -- agent-lsp mcp"),
        "{}",
        printed.stdout
    );
    // A configuration Codex refuses is left as it is.
    let refused = "sandbox_mode = \"workspace_write\"\n";
    fs::write(dir.path().join(".codex/config.toml"), refused).unwrap();
    let r = run(dir.path(), &["setup", "codex", "--write"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("left .codex/config.toml as it is: Codex refuses this configuration"),
        "{}",
        r.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(".codex/config.toml")).unwrap(),
        refused
    );
    // `--hook` is Claude Code's.
    let r = run(dir.path(), &["setup", "codex", "--hook"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--hook is for `setup claude`"), "{}", r.stderr);
}

/// The entry `setup gemini` adds to an empty project (`tests/gemini_runtime` runs Gemini CLI on
/// this very text, as the case `setup:the-entry-setup-gemini-writes`: no warning).
const GEMINI_ENTRY: &str = "{\n  \"mcpServers\": {\n    \"agent-lsp\": {\n      \"command\": \"agent-lsp\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n";

#[test]
fn gemini_write_merges_into_settings_json_and_keeps_the_rest() {
    let dir = TempDir::new().unwrap();
    let r = run(dir.path(), &["setup", "gemini", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        fs::read_to_string(dir.path().join(".gemini/settings.json")).unwrap(),
        GEMINI_ENTRY
    );
    assert!(
        r.stdout.contains("created .gemini/settings.json: added `mcpServers.agent-lsp`\nGemini CLI starts the MCP server `agent-lsp` from its next session in this project, once the folder is trusted"),
        "{}",
        r.stdout
    );
    // Into a file with comments and other settings: the rest as it was.
    let original = "{\n  // Team settings.\n  \"general\": { \"vimMode\": true },\n  \"mcpServers\": {\n    \"docs\": { \"command\": \"npx\", \"args\": [\"-y\", \"docs-mcp@1.0.0\"] }\n  }\n}\n";
    fs::write(dir.path().join(".gemini/settings.json"), original).unwrap();
    let r = run(dir.path(), &["setup", "gemini", "--write"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = fs::read_to_string(dir.path().join(".gemini/settings.json")).unwrap();
    assert!(
        text.starts_with("{\n  // Team settings.\n  \"general\": { \"vimMode\": true },"),
        "{text}"
    );
    assert!(
        text.contains("\"docs\": { \"command\": \"npx\"") && text.contains("\"agent-lsp\""),
        "{text}"
    );
    let again = run(dir.path(), &["setup", "gemini", "--write"]);
    assert!(
        again
            .stdout
            .ends_with(".gemini/settings.json: already set up; nothing changed\n"),
        "{}",
        again.stdout
    );
    assert_eq!(
        fs::read_to_string(dir.path().join(".gemini/settings.json")).unwrap(),
        text
    );
    // Printed, not written: the entry, and Gemini CLI's own command.
    let printed = run(dir.path(), &["setup", "gemini"]);
    assert!(
        printed.stdout.contains("gemini mcp add agent-lsp agent-lsp mcp"),
        "{}",
        printed.stdout
    );
    // A file Gemini CLI cannot read is left as it is.
    let refused = "{ \"general\": { \"vimMode\": true }, }\n";
    fs::write(dir.path().join(".gemini/settings.json"), refused).unwrap();
    let r = run(dir.path(), &["setup", "gemini", "--write"]);
    assert_ne!(r.code, 0, "{}", r.stdout);
    assert_eq!(
        fs::read_to_string(dir.path().join(".gemini/settings.json")).unwrap(),
        refused
    );
    // `--hook` is Claude Code's.
    let r = run(dir.path(), &["setup", "gemini", "--hook"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--hook is for `setup claude`"), "{}", r.stderr);
}

#[test]
fn gemini_global_writes_the_user_s_settings() {
    let dir = TempDir::new().unwrap();
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    let home = dir.path().join("home");
    let gemini_home = dir.path().join("gemini-home");
    let r = run_env(
        dir.path(),
        &["setup", "gemini", "--global", "--write"],
        bin.path(),
        &home,
        &[("GEMINI_CLI_HOME", &gemini_home)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(gemini_home.join(".gemini/settings.json").is_file());
    assert!(!home.join(".gemini").exists());
    let r = run_env(
        dir.path(),
        &["setup", "gemini", "--global", "--write"],
        bin.path(),
        &home,
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(home.join(".gemini/settings.json").is_file());
}

#[test]
fn codex_global_writes_codex_home() {
    let dir = TempDir::new().unwrap();
    let bin = TempDir::new().unwrap();
    fake_agent_lsp(bin.path());
    let home = dir.path().join("home");
    let codex_home = dir.path().join("codex-home");
    let r = run_env(
        dir.path(),
        &["setup", "codex", "--global", "--write"],
        bin.path(),
        &home,
        &[("CODEX_HOME", &codex_home)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(fs::read_to_string(codex_home.join("config.toml")).unwrap(), CODEX_TABLE);
    assert!(
        r.stdout.contains("in every project (`codex mcp list` lists it)"),
        "{}",
        r.stdout
    );
    // Without CODEX_HOME: `~/.codex/config.toml`.
    let r = run_env(
        dir.path(),
        &["setup", "codex", "--global", "--write"],
        bin.path(),
        &home,
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        fs::read_to_string(home.join(".codex/config.toml")).unwrap(),
        CODEX_TABLE
    );
}
