use super::*;
use crate::analysis::syntax::{jsonc, toml, yaml};

/// The unpinned packages of a JSON text: what is written at each finding's span, its runner,
/// its name and its moving version.
fn found(text: &str) -> Vec<(String, String, String, Option<String>)> {
    let root = jsonc::parse(text).root.unwrap();
    find(&root, text)
        .into_iter()
        .map(|u| (u.span.text(text).to_string(), u.runner, u.name, u.moving))
        .collect()
}

fn one(text: &str) -> (String, String, String, Option<String>) {
    let mut all = found(text);
    assert_eq!(all.len(), 1, "{text}: {all:?}");
    all.remove(0)
}

fn server(command: &str, args: &[&str]) -> String {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        r#"{{ "mcpServers": {{ "s": {{ "command": {command:?}, "args": [{}] }} }} }}"#,
        args.join(", ")
    )
}

fn quiet(command: &str, args: &[&str]) {
    let text = server(command, args);
    assert!(found(&text).is_empty(), "{text}: {:?}", found(&text));
}

fn loud(command: &str, args: &[&str], package: &str) {
    let text = server(command, args);
    let (written, ..) = one(&text);
    assert_eq!(written, package, "{text}");
}

#[test]
fn npm_runners() {
    loud(
        "npx",
        &["-y", "@modelcontextprotocol/server-github"],
        "@modelcontextprotocol/server-github",
    );
    loud("npx", &["--yes", "pkg@latest"], "pkg@latest");
    loud("npx", &["pkg@^1.2.0"], "pkg@^1.2.0");
    loud("npx", &["@scope/pkg@1"], "@scope/pkg@1");
    loud("npx", &["-p", "pkg", "the-bin", "--flag"], "pkg");
    loud("npx", &["--package=pkg", "the-bin"], "pkg");
    loud("npx", &["--registry", "https://r.example", "pkg"], "pkg");
    loud("bunx", &["--bun", "pkg"], "pkg");
    loud(
        "bun",
        &["x", "@modelcontextprotocol/server-brave-search"],
        "@modelcontextprotocol/server-brave-search",
    );
    loud("bun", &["x", "--bun", "pkg@latest"], "pkg@latest");
    quiet("bun", &["x", "pkg@1.2.3"]);
    quiet("bun", &["run", "pkg"]);
    assert_eq!(one(&server("bun", &["x", "pkg"])).1, "bun x");
    loud("pnpx", &["pkg"], "pkg");
    loud("pnpm", &["dlx", "pkg"], "pkg");
    loud("yarn", &["dlx", "pkg"], "pkg");
    loud("npm", &["exec", "--yes", "--", "pkg"], "pkg");
    loud("npm", &["x", "pkg"], "pkg");
    loud("/usr/local/bin/npx", &["pkg"], "pkg");
    loud("npx.cmd", &["pkg"], "pkg");
    loud("cmd", &["/c", "npx", "-y", "pkg"], "pkg");
    loud("npx -y", &["pkg"], "pkg");

    quiet("npx", &["-y", "@modelcontextprotocol/server-github@2025.4.8"]);
    quiet("npx", &["pkg@1.2.3-beta.1"]);
    quiet("npx", &["pkg@v1.2.3"]);
    quiet("npx", &["-p", "pkg@1.0.0", "the-bin"]);
    quiet("npx", &["./local/server.js"]);
    quiet("npx", &["github:owner/repo"]);
    quiet("npx", &["owner/repo"]);
    quiet("npx", &["https://example.com/pkg.tgz"]);
    quiet("npx", &["${PKG}"]);
    quiet("npx", &["-c", "echo hi"]);
    quiet("npx", &[]);
    quiet("npm", &["install", "pkg"]);
    quiet("yarn", &["pkg"]);
    quiet("node", &["server.js"]);
}

#[test]
fn python_runners() {
    loud("uvx", &["mcp-server-fetch"], "mcp-server-fetch");
    loud("uvx", &["--python", "3.12", "mcp-server-fetch"], "mcp-server-fetch");
    loud("uvx", &["--from", "git-mcp>=1.0", "git-mcp"], "git-mcp>=1.0");
    loud("uvx", &["--from=tool", "bin"], "tool");
    loud("uvx", &["tool@latest"], "tool@latest");
    loud("uvx", &["tool~=1.2"], "tool~=1.2");
    loud("uv", &["tool", "run", "tool"], "tool");
    loud("pipx", &["run", "tool"], "tool");
    loud("pipx", &["run", "--spec", "tool", "bin"], "tool");

    quiet("uvx", &["mcp-server-fetch==2025.4.7"]);
    quiet("uvx", &["tool@0.6.1"]);
    quiet("uvx", &["--from", "tool==1.0", "bin"]);
    quiet("uvx", &["--exclude-newer", "2025-01-01", "tool"]);
    quiet("uvx", &["--from", "git+https://github.com/o/r@abc", "bin"]);
    quiet("pipx", &["run", "tool==1.0"]);
    quiet("pipx", &["install", "tool"]);
    quiet("uv", &["run", "server.py"]);
}

#[test]
fn exact_versions() {
    assert!(exact("1.2.3") && exact("1.2.3-beta.1") && exact("10.0.0+b"));
    assert!(!exact("1.2") && !exact("^1.2.3") && !exact("1.2.x") && !exact("1.2.3\"") && !exact("1..3"));
}

#[test]
fn tool_star_is_a_range() {
    loud("uvx", &["tool==1.*"], "tool==1.*");
}

#[test]
fn image_runners() {
    loud(
        "docker",
        &["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
        "ghcr.io/github/github-mcp-server",
    );
    loud(
        "docker",
        &["run", "-it", "-e", "TOKEN", "--name", "x", "img:latest"],
        "img:latest",
    );
    loud("docker", &["run", "--network", "host", "img"], "img");
    loud("docker", &["run", "--env=A=1", "img"], "img");
    loud("podman", &["run", "localhost:5000/img"], "localhost:5000/img");
    loud("docker", &["container", "run", "img"], "img");

    quiet(
        "docker",
        &["run", "-i", "--rm", "ghcr.io/github/github-mcp-server:v0.5.0"],
    );
    quiet("docker", &["run", "img@sha256:0123abcd"]);
    quiet("docker", &["run", "localhost:5000/img:1.0"]);
    quiet("docker", &["run", "${IMAGE}"]);
    quiet("docker", &["exec", "-i", "box", "server"]);
    quiet("docker", &["run", "--rm"]);
}

#[test]
fn argument_lists_and_shell_lines() {
    // opencode's argument list.
    let text = r#"{ "mcp": { "gh": { "type": "local", "command": ["npx", "-y", "pkg"] } } }"#;
    assert_eq!(one(text), ("pkg".into(), "npx".into(), "pkg".into(), None));
    // A hook's shell line: each command of it, each word with its own place.
    let text = r#"{ "hooks": [{ "type": "command", "command": "cd web && FOO=1 npx  prettier --write; uvx 'ruff@latest' check | cat" }] }"#;
    let all = found(text);
    assert_eq!(
        all,
        vec![
            ("prettier".into(), "npx".into(), "prettier".into(), None),
            ("ruff@latest".into(), "uvx".into(), "ruff".into(), Some("latest".into())),
        ]
    );
    // An escape in the line: the finding takes the whole value.
    let text = r#"{ "command": "npx pkg \"x\"" }"#;
    assert_eq!(one(text).0, r#""npx pkg \"x\"""#);
    // A word holding quotes of its own is not a package name the runner sees as written.
    let text = r#"{ "command": "npx p'k'g" }"#;
    assert_eq!(one(text).0, r#""npx p'k'g""#);
}

#[test]
fn turned_off_servers_and_other_commands() {
    assert!(found(r#"{ "mcp": { "gh": { "command": ["npx", "pkg"], "enabled": false } } }"#).is_empty());
    assert!(found(r#"{ "mcpServers": { "gh": { "command": "npx", "args": ["pkg"], "disabled": true } } }"#).is_empty());
    assert_eq!(
        found(r#"{ "mcp": { "gh": { "command": ["npx", "pkg"], "enabled": true } } }"#).len(),
        1
    );
    // opencode's `command` section is a map of commands, not a command.
    assert!(found(r#"{ "command": { "npx": { "template": "npx pkg" } } }"#).is_empty());
    // An argument list stops at its first value that is not a string.
    assert!(found(r#"{ "command": ["npx", 1, "pkg"] }"#).is_empty());
}

#[test]
fn toml_and_yaml() {
    let text = "[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp@latest\"]\n";
    let root = toml::parse(text).root.unwrap();
    let all = find(&root, text);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].span.text(text), "docs-mcp@latest");
    let text = "mcp-servers:\n  docs:\n    command: npx\n    args: [\"-y\", docs-mcp]\n";
    let root = yaml::parse(text, 0).root.unwrap();
    let all = find(&root, text);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].span.text(text), "docs-mcp");
}

#[test]
fn odd_words_never_panic() {
    for line in [
        "npx \\é",
        "npx 'é",
        "npx é@",
        "npx @",
        "npx \"",
        "é npx pkg",
        "npx -p",
        "docker run -e",
        "uvx --from",
        "npx --",
    ] {
        let text = format!("{{ \"command\": {line:?} }}");
        let _ = found(&text);
    }
    assert_eq!(one(r#"{ "command": "npx é" }"#).0, "é");
}

#[test]
fn messages_say_what_runs_and_how_to_pin() {
    let text = server("npx", &["-y", "pkg"]);
    let root = jsonc::parse(&text).root.unwrap();
    let d = diagnostic(&find(&root, &text)[0]);
    assert_eq!(d.code, Code::UnpinnedPackage);
    assert_eq!(
        d.message,
        "`npx` runs package `pkg` without a version: whatever is published next is fetched and run with the agent's rights (a new release, or a takeover of the name). Pin it to the version you checked: `pkg@1.2.3`."
    );
    let text = server("uvx", &["tool>=1"]);
    let root = jsonc::parse(&text).root.unwrap();
    let d = diagnostic(&find(&root, &text)[0]);
    assert!(
        d.message
            .starts_with("`uvx` runs package `tool` at `>=1`, which is not one version:"),
        "{}",
        d.message
    );
    assert!(d.message.ends_with("`tool==1.2.3`."), "{}", d.message);
    let text = server("docker", &["run", "img"]);
    let root = jsonc::parse(&text).root.unwrap();
    let d = diagnostic(&find(&root, &text)[0]);
    assert!(
        d.message.starts_with(
            "`docker run` runs image `img` without a tag, which is `latest`: whatever is pushed to that tag next"
        ),
        "{}",
        d.message
    );
    assert!(
        d.message.ends_with("a version tag or a digest (`img@sha256:…`)."),
        "{}",
        d.message
    );
    let text = server("docker", &["run", "img:latest"]);
    let root = jsonc::parse(&text).root.unwrap();
    let d = diagnostic(&find(&root, &text)[0]);
    assert!(
        d.message.starts_with("`docker run` runs image `img` at `latest`:"),
        "{}",
        d.message
    );
}

#[test]
fn bounded_on_an_alias_bomb() {
    let mut text = String::from("a: &a [{command: npx, args: [pkg]}]\n");
    for i in 0..20 {
        let prev = if i == 0 { "a".to_string() } else { format!("l{}", i - 1) };
        text.push_str(&format!("l{i}: &l{i} [*{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let root = yaml::parse(&text, 0).root.unwrap();
    // Every alias repeats the one server: one finding.
    assert_eq!(find(&root, &text).len(), 1);
}

#[test]
fn bounded_in_depth() {
    // (Built by hand: the parsers stop at 64 levels themselves, but a YAML alias can nest a tree
    // deeper than what is written.) A server 64 levels down is read; one more level is not.
    let text = r#"{ "command": ["npx", "pkg"] }"#;
    let server = jsonc::parse(text).root.unwrap();
    let nested = |depth: usize| {
        // Lists and maps in turn: each level counts, whichever it is.
        let mut node = server.clone();
        for level in 0..depth {
            let span = node.span;
            let style = node.style;
            let value = if level % 2 == 0 {
                Value::Seq(vec![node])
            } else {
                Value::Map(Map {
                    entries: std::sync::Arc::new(vec![crate::analysis::syntax::Entry {
                        key: crate::analysis::syntax::Key { name: "k".into(), span },
                        value: node,
                    }]),
                })
            };
            node = Node { span, style, value };
        }
        find(&node, text).len()
    };
    assert_eq!(nested(64), 1);
    assert_eq!(nested(65), 0);
}

#[test]
fn bounded_in_nodes() {
    // 20,000 servers: the walk stops at its budget of 50,000 nodes.
    let servers: Vec<String> = (0..20_000)
        .map(|i| format!("\"s{i}\": {{ \"command\": [\"npx\", \"p{i}\"] }}"))
        .collect();
    let text = format!("{{ \"mcp\": {{ {} }} }}", servers.join(", "));
    // (The root and `mcp`, then four nodes a server: its map, its list and two strings.)
    assert_eq!(found(&text).len(), 12_500);
}
