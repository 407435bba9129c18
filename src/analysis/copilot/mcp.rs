//! `.vscode/mcp.json`: the MCP servers VS Code starts for the workspace (JSON with comments).
//! `servers` maps a name to a server: `stdio` (the default; `command`, `args`, `env`,
//! `envFile`, `cwd`) or `http`/`sse` (`url`, `headers`); `inputs` lists the values VS Code asks
//! for (`${input:id}`). The names are what an agent's `tools` entry `name/*` refers to.

use super::{CopilotFile, Named};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Node, Parsed, Value, jsonc};

pub const TOP_KEYS: &[(&str, &str)] = &[
    (
        "servers",
        "The MCP servers, by name: an agent's `tools` entry `name/*` gives it their tools.",
    ),
    (
        "inputs",
        "Values VS Code asks for when a server starts, used as `${input:id}`.",
    ),
];

pub const TYPES: &[(&str, &str)] = &[
    ("stdio", "A local server VS Code runs (`command`, `args`)."),
    ("http", "A remote server over streamable HTTP (`url`)."),
    ("sse", "A remote server over server-sent events (`url`)."),
];

pub const STDIO_KEYS: &[(&str, &str)] = &[
    ("type", "`stdio` (the default), `http` or `sse`."),
    ("command", "The program VS Code runs."),
    ("args", "Its arguments."),
    ("env", "Environment variables for it."),
    ("envFile", "A file of environment variables for it."),
    ("cwd", "The folder it runs in."),
    ("dev", "Development mode: `watch` and `debug` settings."),
    ("sandbox", "Sandbox settings for the server."),
];

pub const REMOTE_KEYS: &[(&str, &str)] = &[
    ("type", "`stdio` (the default), `http` or `sse`."),
    ("url", "The server's address."),
    ("headers", "HTTP headers sent with each request."),
    ("dev", "Development mode: `watch` and `debug` settings."),
];

/// Parse the file and check it; the server names go to `file.mcp_servers`.
pub fn analyze(text: &str, out: &mut Vec<Diagnostic>) -> (Parsed, CopilotFile) {
    let parsed = jsonc::parse(text);
    let mut file = CopilotFile {
        anchor: crate::analysis::text::first_line(text),
        ..CopilotFile::default()
    };
    for e in &parsed.errors {
        out.push(Diagnostic::new(
            Code::SyntaxError,
            e.span,
            format!(
                "{}; VS Code cannot read this file and starts none of its servers",
                e.message
            ),
        ));
    }
    let Some(root) = parsed.root.as_ref() else {
        return (parsed, file);
    };
    let Value::Map(map) = &root.value else {
        out.push(Diagnostic::new(
            Code::InvalidType,
            root.span,
            format!("`mcp.json` holds an object with `servers`, not {}", root.type_name()),
        ));
        return (parsed, file);
    };
    for (key, node) in map.js_entries() {
        match key.name.as_str() {
            "servers" => servers(node, &mut file, out),
            "inputs" => {
                if !matches!(node.value, Value::Seq(_)) {
                    out.push(type_error("inputs", node, "a list of inputs"));
                }
            }
            other => {
                let near = if other == "mcpServers" {
                    Some("servers")
                } else {
                    suggest::closest(other, TOP_KEYS.iter().map(|(k, _)| *k))
                };
                let mut d = Diagnostic::new(
                    Code::UnknownKey,
                    key.span,
                    format!(
                        "VS Code reads `servers` and `inputs` in `mcp.json` and ignores `{other}`.{}",
                        suggest::did_you_mean(near)
                    ),
                );
                if let Some(n) = near {
                    let quoted = key.span.len() == other.len() + 2;
                    let text = if quoted { format!("\"{n}\"") } else { n.to_string() };
                    d = d.with_fix(format!("Rename to `{n}`"), vec![Edit::new(key.span, text)], false);
                }
                out.push(d);
            }
        }
    }
    (parsed, file)
}

fn type_error(what: &str, node: &Node, want: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidType,
        node.span,
        format!("`{what}` must be {want}, not {}", node.type_name()),
    )
    .with_effect(Effect::ValueIgnored)
}

fn servers(node: &Node, file: &mut CopilotFile, out: &mut Vec<Diagnostic>) {
    let Value::Map(m) = &node.value else {
        out.push(type_error("servers", node, "an object of servers by name"));
        return;
    };
    for (name, server) in m.js_entries() {
        file.mcp_servers.push(Named {
            name: name.name.clone(),
            span: name.span,
        });
        let Value::Map(s) = &server.value else {
            out.push(type_error(&name.name, server, "an object (`command` or `url`, ...)"));
            continue;
        };
        let ty = s.value("type");
        let kind = match ty.map(|t| &t.value) {
            None => {
                if s.contains("url") && !s.contains("command") {
                    "http"
                } else {
                    "stdio"
                }
            }
            Some(Value::Str(t)) if TYPES.iter().any(|(k, _)| k == t) => t.as_str(),
            Some(_) => {
                let t = ty.expect("matched Some");
                let got = t.as_str().unwrap_or("");
                let near = suggest::closest(got, TYPES.iter().map(|(k, _)| *k));
                out.push(
                    Diagnostic::new(
                        Code::InvalidValue,
                        t.span,
                        format!(
                            "`type` is `stdio`, `http` or `sse`; VS Code cannot start the server `{}`.{}",
                            name.name,
                            suggest::did_you_mean(near)
                        ),
                    )
                    .with_effect(Effect::ValueIgnored),
                );
                continue;
            }
        };
        let (keys, needs) = if kind == "stdio" {
            (STDIO_KEYS, "command")
        } else {
            (REMOTE_KEYS, "url")
        };
        if !s.contains(needs) {
            out.push(
                Diagnostic::new(
                    Code::MissingField,
                    name.span,
                    format!(
                        "the {kind} server `{}` has no `{needs}`: VS Code cannot start it",
                        name.name
                    ),
                )
                .with_effect(Effect::ValueIgnored),
            );
        }
        for (k, v) in s.js_entries() {
            let known = keys.iter().any(|(n, _)| *n == k.name);
            if !known {
                let near = suggest::closest(&k.name, keys.iter().map(|(n, _)| *n));
                out.push(
                    Diagnostic::new(
                        Code::UnknownKey,
                        k.span,
                        format!(
                            "a {kind} server has no `{}`: VS Code ignores it.{}",
                            k.name,
                            suggest::did_you_mean(near)
                        ),
                    )
                    .with_severity(Severity::Warning),
                );
                continue;
            }
            let bad = match k.name.as_str() {
                "command" | "url" | "cwd" | "envFile" => (!matches!(v.value, Value::Str(_))).then_some("a string"),
                "args" => match &v.value {
                    Value::Seq(items) => items
                        .iter()
                        .any(|i| !matches!(i.value, Value::Str(_)))
                        .then_some("a list of strings"),
                    _ => Some("a list of strings"),
                },
                "env" | "headers" => (!matches!(v.value, Value::Map(_))).then_some("an object"),
                _ => None,
            };
            if let Some(want) = bad {
                out.push(type_error(&k.name, v, want));
            }
        }
    }
}
