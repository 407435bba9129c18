//! `.vscode/mcp.json`: the MCP servers VS Code starts for the workspace (JSON with comments).
//! `servers` maps a name to a server: `stdio` (the default; `command`, `args`, `env`,
//! `envFile`, `cwd`) or `http`/`sse` (`url`, `headers`); `inputs` lists the values VS Code asks
//! for (`${input:id}`). The names are what an agent's `tools` entry `name/*` refers to.

use super::{CopilotFile, Named};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Node, Parsed, Value, jsonc};
use crate::analysis::text::Span;

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
    let inputs = input_ids(map);
    for (key, node) in map.js_entries() {
        match key.name.as_str() {
            "servers" => servers(node, text, &inputs, &mut file, out),
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

fn servers(node: &Node, text: &str, inputs: &Option<Vec<String>>, file: &mut CopilotFile, out: &mut Vec<Diagnostic>) {
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
        variables_of_server(&name.name, s, text, inputs, out);
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
        // A missing `command` or `url` because its key is misspelt: one finding, on that key.
        let mut misspelt = None;
        if !s.contains(needs) {
            let d = Diagnostic::new(
                Code::MissingField,
                name.span,
                format!(
                    "the {kind} server `{}` has no `{needs}`: VS Code cannot start it",
                    name.name
                ),
            )
            .with_effect(Effect::ValueIgnored);
            misspelt = s.js_entries().into_iter().map(|(k, _)| k).find(|k| {
                !keys.iter().any(|(n, _)| *n == k.name)
                    && suggest::closest(&k.name, keys.iter().map(|(n, _)| *n)) == Some(needs)
            });
            out.push(match misspelt {
                Some(k) => crate::analysis::shape::on_misspelling(d, needs, &k.name, k.span),
                None => d,
            });
        }
        for (k, v) in s.js_entries() {
            let known = keys.iter().any(|(n, _)| *n == k.name);
            if misspelt.is_some_and(|m| std::ptr::eq(m, k)) {
                continue;
            }
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

/// The ids of `inputs` (what `${input:id}` may name); `None` when the file has no `inputs` list.
fn input_ids(map: &crate::analysis::syntax::Map) -> Option<Vec<String>> {
    let Value::Seq(items) = &map.value("inputs")?.value else {
        return None;
    };
    Some(
        items
            .iter()
            .filter_map(|i| i.as_map()?.value("id")?.as_str().map(str::to_string))
            .collect(),
    )
}

/// The variables VS Code's resolver knows by name (1.139.1), aliases included. A name it does
/// not know is left as written.
const VARIABLES: &[&str] = &[
    "workspaceFolder",
    "workspaceRoot",
    "workspaceFolderBasename",
    "workspaceRootFolderName",
    "cwd",
    "userHome",
    "execPath",
    "execInstallFolder",
    "pathSeparator",
    "/",
    "lineNumber",
    "columnNumber",
    "selectedText",
    "file",
    "fileWorkspaceFolder",
    "fileWorkspaceFolderBasename",
    "relativeFile",
    "relativeFileDirname",
    "fileDirname",
    "fileExtname",
    "fileBasename",
    "fileBasenameNoExtension",
    "fileDirnameBasename",
];

/// Of [`VARIABLES`], those of the file open in the editor: VS Code cannot resolve them, and does
/// not start the server, when no editor is open.
const EDITOR_VARIABLES: &[&str] = &[
    "lineNumber",
    "columnNumber",
    "selectedText",
    "file",
    "fileWorkspaceFolder",
    "fileWorkspaceFolderBasename",
    "relativeFile",
    "relativeFileDirname",
    "fileDirname",
    "fileExtname",
    "fileBasename",
    "fileBasenameNoExtension",
    "fileDirnameBasename",
];

/// The variables written `${name:argument}`.
const NAMESPACES: &[&str] = &["env", "config", "command", "input", "extensionInstallFolder"];

/// The settings of a server VS Code substitutes variables in: every string of these, and the
/// names of `headers` (all seen with VS Code 1.139.1).
const SUBSTITUTED: &[&str] = &["command", "args", "env", "envFile", "cwd", "url", "headers"];

/// The variables of a server's settings, as VS Code resolves them when it starts the server:
/// `unresolved-variable` where it cannot (it does not start the server), `unsubstituted-variable`
/// where it leaves one as written.
fn variables_of_server(
    server: &str,
    map: &crate::analysis::syntax::Map,
    text: &str,
    inputs: &Option<Vec<String>>,
    out: &mut Vec<Diagnostic>,
) {
    let mut strings: Vec<(&str, Span)> = Vec::new();
    for (key, value) in map.js_entries() {
        if !SUBSTITUTED.contains(&key.name.as_str()) {
            continue;
        }
        match &value.value {
            Value::Str(_) => strings.extend(string(value)),
            Value::Seq(items) => strings.extend(items.iter().filter_map(|i| string(i))),
            Value::Map(m) => {
                for (k, v) in m.js_entries() {
                    if key.name == "headers" {
                        strings.push((k.name.as_str(), k.span));
                    }
                    strings.extend(string(v));
                }
            }
            _ => {}
        }
    }
    // Bounded: a hostile file of a million strings costs what a thousand do.
    for (s, span) in strings.into_iter().take(MAX_CHECKED) {
        string_variables(server, s, span, text, inputs, out);
    }
}

/// The one id that ends or starts with the same word as `id` (`gh-token` and `github-token`),
/// for a did-you-mean where the spelling differs too much for [`suggest::closest`].
fn same_word<'a>(id: &str, ids: &'a [String]) -> Option<&'a str> {
    let words = |s: &str| -> (String, String) {
        let mut parts = s.split(['-', '_', '.']).filter(|p| !p.is_empty());
        let first = parts.next().unwrap_or_default().to_ascii_lowercase();
        let last = s
            .rsplit(['-', '_', '.'])
            .find(|p| !p.is_empty())
            .unwrap_or_default()
            .to_ascii_lowercase();
        (first, last)
    };
    let (first, last) = words(id);
    let mut hits = ids.iter().filter(|other| {
        let (f, l) = words(other);
        other.as_str() != id && ((last.len() >= 3 && l == last) || (first.len() >= 3 && f == first))
    });
    match (hits.next(), hits.next()) {
        (Some(one), None) => Some(one.as_str()),
        _ => None,
    }
}

/// A string value and its place.
fn string(n: &Node) -> Option<(&str, Span)> {
    n.as_str().map(|s| (s, n.span))
}

/// The most strings of one server whose variables are checked.
const MAX_CHECKED: usize = 1_000;

/// The variables of one string, written at `span` (quotes included).
fn string_variables(
    server: &str,
    s: &str,
    span: Span,
    text: &str,
    inputs: &Option<Vec<String>>,
    out: &mut Vec<Diagnostic>,
) {
    // Offsets in the value map to the source when it is written without escapes.
    let raw = span.text(text);
    let exact = raw.len() == s.len() + 2 && raw.get(1..raw.len() - 1) == Some(s);
    let at = |start: usize, end: usize| {
        if exact {
            Span::new(span.start as usize + 1 + start, span.start as usize + 1 + end)
        } else {
            span
        }
    };
    let not_started = |what: String| format!("{what}: VS Code does not start the server `{server}`");
    let b = s.as_bytes();
    let mut i = 0;
    let mut found = 0;
    while i + 1 < b.len() && found < 64 {
        // opencode's `{env:NAME}`, not preceded by `$`.
        if b[i] == b'{' && (i == 0 || b[i - 1] != b'$') && s[i..].starts_with("{env:") {
            if let Some(close) = s[i..].find('}') {
                let name = &s[i + 5..i + close];
                let span = at(i, i + close + 1);
                found += 1;
                out.push(
                    Diagnostic::new(
                        Code::UnsubstitutedVariable,
                        span,
                        format!("VS Code sends `{{env:{name}}}` as written (that is opencode's form); an environment variable is `${{env:{name}}}`"),
                    )
                    .with_fix(format!("Write `${{env:{name}}}`"), vec![Edit::new(span, format!("${{env:{name}}}"))], false),
                );
                i += close + 1;
                continue;
            }
        }
        if !(b[i] == b'$' && b[i + 1] == b'{') {
            i += 1;
            continue;
        }
        // `${...}`, braces nested, as VS Code's resolver reads it; unbalanced: nothing more.
        let mut depth = 1;
        let mut e = i + 2;
        while e < b.len() {
            match b[e] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            e += 1;
        }
        if depth != 0 {
            break;
        }
        found += 1;
        let inner = &s[i + 2..e];
        let whole = at(i, e + 1);
        let written = &s[i..=e];
        let (name, arg) = match inner.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (inner, None),
        };
        match (name, arg) {
            ("input", Some(id)) => {
                let ids = inputs.as_deref().unwrap_or_default();
                if !ids.iter().any(|x| x == id) {
                    let near = suggest::closest(id, ids.iter().map(String::as_str)).or_else(|| same_word(id, ids));
                    let what = match inputs {
                        None => format!("`{written}` names an input, and this file has no `inputs`"),
                        Some(ids) if ids.is_empty() => format!("`{written}` names an input, and `inputs` declares none"),
                        Some(ids) => format!(
                            "no input of `inputs` has the id `{id}` (they are {})",
                            ids.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>().join(", ")
                        ),
                    };
                    let mut d = Diagnostic::new(
                        Code::UnresolvedVariable,
                        whole,
                        format!(
                            "{} (\"Undefined input variable '{id}' encountered\").{}",
                            not_started(what),
                            suggest::did_you_mean(near)
                        ),
                    );
                    if let Some(n) = near
                        && exact
                    {
                        let id_start = i + 2 + "input:".len();
                        d = d.with_suggestion(at(id_start, id_start + id.len()), n);
                    }
                    out.push(d);
                }
            }
            ("env", Some("")) => out.push(Diagnostic::new(
                Code::UnresolvedVariable,
                whole,
                format!(
                    "{} (\"no environment variable name is given\")",
                    not_started("`${env:}` names no environment variable".into())
                ),
            )),
            (n, _) if EDITOR_VARIABLES.contains(&n) => out.push(Diagnostic::new(
                Code::UnresolvedVariable,
                whole,
                format!(
                    "`{written}` is about the file open in the editor: unless one is open when VS Code starts the server `{server}`, it does not start it (\"Variable {written} can not be resolved. Please open an editor.\"), and when one is, the server gets that file's"
                ),
            )),
            (n, _) if VARIABLES.contains(&n) || NAMESPACES.contains(&n) => {}
            _ => {
                // Left as written: say what it likely meant.
                let env_name = inner.strip_prefix("env.").or_else(|| {
                    (!inner.is_empty() && inner.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
                        .then_some(inner)
                });
                let (message, fix) = match (env_name, arg) {
                    (Some(var), _) => (
                        format!("VS Code sends `{written}` as written; an environment variable is `${{env:{var}}}`"),
                        Some(format!("${{env:{var}}}")),
                    ),
                    (None, Some(_)) => {
                        let near = suggest::closest(name, NAMESPACES.iter().copied());
                        (
                            format!(
                                "VS Code knows no variable `{written}` (`{name}:` is none of `env:`, `config:`, `command:`, `input:`) and sends it as written.{}",
                                suggest::did_you_mean(near.map(|n| format!("${{{n}:{}}}", arg.unwrap_or_default())).as_deref())
                            ),
                            near.map(|n| format!("${{{n}:{}}}", arg.unwrap_or_default())),
                        )
                    }
                    (None, None) => {
                        let near = suggest::closest(name, VARIABLES.iter().copied());
                        (
                            format!(
                                "VS Code knows no variable `{written}` and sends it as written.{}",
                                suggest::did_you_mean(near.map(|n| format!("${{{n}}}")).as_deref())
                            ),
                            near.map(|n| format!("${{{n}}}")),
                        )
                    }
                };
                let mut d = Diagnostic::new(Code::UnsubstitutedVariable, whole, message);
                if let Some(f) = fix
                    && exact
                {
                    d = d.with_fix(format!("Write `{f}`"), vec![Edit::new(whole, f)], false);
                }
                out.push(d);
            }
        }
        i = e + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `code at "spanned text": message [fix]` of each finding of a `.vscode/mcp.json`.
    fn findings(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        analyze(text, &mut out);
        out.iter()
            .map(|d| {
                let fix = d
                    .fix
                    .as_ref()
                    .map(|f| {
                        format!(
                            " [{}]",
                            f.edits.iter().map(|e| e.text.as_str()).collect::<Vec<_>>().join("|")
                        )
                    })
                    .unwrap_or_default();
                format!("{} at {:?}: {}{fix}", d.code.as_str(), d.span.text(text), d.message)
            })
            .collect()
    }

    fn server(fields: &str) -> String {
        format!(
            r#"{{ "inputs": [{{ "type": "promptString", "id": "github-token" }}, {{ "type": "promptString", "id": "api" }}], "servers": {{ "s": {{ {fields} }} }} }}"#
        )
    }

    #[test]
    fn what_vs_code_resolves_gives_nothing() {
        for fields in [
            r#""type": "http", "url": "https://x.dev/${workspaceFolderBasename}/${input:api}", "headers": { "A": "Bearer ${input:github-token}", "B": "${env:HOME}${/}${pathSeparator}${userHome}${cwd}" }"#,
            r#""command": "${workspaceFolder}/bin/s", "args": ["${config:editor.fontSize}", "${workspaceFolder:web}", "${execPath}", "${command:x.y}"], "env": { "A": "${env:TOKEN}" }, "cwd": "${workspaceRoot}""#,
            // Not a variable: a lone `$`, an unbalanced `${`, the shell's `$HOME`.
            r#""command": "s", "args": ["$", "${abc", "$HOME", "{not env}"]"#,
            // Settings VS Code does not substitute.
            r#""command": "s", "dev": { "watch": "${nope}" }"#,
        ] {
            assert_eq!(findings(&server(fields)), Vec::<String>::new(), "{fields}");
        }
    }

    #[test]
    fn an_input_no_input_declares_stops_the_server() {
        let text = server(
            r#""type": "http", "url": "https://x.dev", "headers": { "Authorization": "Bearer ${input:gh-token}" }"#,
        );
        assert_eq!(
            findings(&text),
            [
                "unresolved-variable at \"${input:gh-token}\": no input of `inputs` has the id `gh-token` (they are `github-token`, `api`): VS Code does not start the server `s` (\"Undefined input variable 'gh-token' encountered\"). Did you mean `github-token`? [github-token]"
            ]
        );
        // The fix replaces the id only.
        let mut out = Vec::new();
        analyze(&text, &mut out);
        let edit = &out[0].fix.as_ref().unwrap().edits[0];
        assert_eq!(edit.span.text(&text), "gh-token");
        // No `inputs` at all, in a header's name, in args and env: each said.
        let text = r#"{ "servers": { "s": { "command": "x", "args": ["${input:a}"], "env": { "E": "${input:b}" } }, "h": { "url": "https://x.dev", "headers": { "X-${input:c}": "v" } } } }"#;
        let got = findings(text);
        assert_eq!(got.len(), 3, "{got:#?}");
        assert!(got[0].starts_with("unresolved-variable at \"${input:a}\": `${input:a}` names an input, and this file has no `inputs`: VS Code does not start the server `s`"), "{got:#?}");
        assert!(got[2].starts_with("unresolved-variable at \"${input:c}\""), "{got:#?}");
        // Far from every id: no did-you-mean.
        let got = findings(&server(r#""command": "${input:zzz}""#));
        assert!(!got[0].contains("Did you mean"), "{got:#?}");
    }

    #[test]
    fn an_unnamed_env_and_the_editors_variables_stop_the_server() {
        let got = findings(&server(
            r#""command": "x", "args": ["${env:}", "${file}", "${selectedText}"]"#,
        ));
        assert_eq!(got.len(), 3, "{got:#?}");
        assert!(got[0].starts_with("unresolved-variable at \"${env:}\": `${env:}` names no environment variable: VS Code does not start the server `s`"), "{got:#?}");
        assert!(got[1].contains("unless one is open when VS Code starts the server `s`, it does not start it (\"Variable ${file} can not be resolved. Please open an editor.\")"), "{got:#?}");
        assert!(
            got[2].starts_with("unresolved-variable at \"${selectedText}\""),
            "{got:#?}"
        );
    }

    #[test]
    fn a_variable_vs_code_does_not_know_is_sent_as_written() {
        let got = findings(&server(
            r#""type": "http", "url": "https://x.dev/${workspaceFoldr}", "headers": { "A": "${HOME}", "B": "${env.TOKEN}", "C": "{env:TOKEN}", "D": "${evn:TOKEN}", "E": "${zzzzzz}" }"#,
        ));
        assert_eq!(
            got,
            [
                "unsubstituted-variable at \"${workspaceFoldr}\": VS Code knows no variable `${workspaceFoldr}` and sends it as written. Did you mean `${workspaceFolder}`? [${workspaceFolder}]",
                "unsubstituted-variable at \"${HOME}\": VS Code sends `${HOME}` as written; an environment variable is `${env:HOME}` [${env:HOME}]",
                "unsubstituted-variable at \"${env.TOKEN}\": VS Code sends `${env.TOKEN}` as written; an environment variable is `${env:TOKEN}` [${env:TOKEN}]",
                "unsubstituted-variable at \"{env:TOKEN}\": VS Code sends `{env:TOKEN}` as written (that is opencode's form); an environment variable is `${env:TOKEN}` [${env:TOKEN}]",
                "unsubstituted-variable at \"${evn:TOKEN}\": VS Code knows no variable `${evn:TOKEN}` (`evn:` is none of `env:`, `config:`, `command:`, `input:`) and sends it as written. Did you mean `${env:TOKEN}`? [${env:TOKEN}]",
                "unsubstituted-variable at \"${zzzzzz}\": VS Code knows no variable `${zzzzzz}` and sends it as written.",
            ]
        );
    }

    #[test]
    fn a_required_key_misspelt_is_one_finding_on_it() {
        let got = findings(
            r#"{ "servers": { "a": { "type": "stdio", "comand": "npx" }, "b": { "type": "http", "ulr": "https://x.dev" }, "c": { "type": "stdio", "zzz": 1 } } }"#,
        );
        assert_eq!(
            got,
            [
                "missing-field at \"\\\"comand\\\"\": the stdio server `a` has no `command` (`comand` is written: did you mean `command`?): VS Code cannot start it [\"command\"]",
                "missing-field at \"\\\"ulr\\\"\": the http server `b` has no `url` (`ulr` is written: did you mean `url`?): VS Code cannot start it [\"url\"]",
                "missing-field at \"\\\"c\\\"\": the stdio server `c` has no `command`: VS Code cannot start it",
                "unknown-key at \"\\\"zzz\\\"\": a stdio server has no `zzz`: VS Code ignores it.",
            ]
        );
    }

    #[test]
    fn where_each_variable_is_and_how_many_are_read() {
        // `{env:...}` after another character, not after `$`; a value ending in `$`; braces
        // that are not `${`.
        let got = findings(&server(
            r#""command": "s", "args": ["a {env:A}", "a${env:B}", "cost$", "{x}", "a{b"]"#,
        ));
        assert_eq!(
            got,
            [
                "unsubstituted-variable at \"{env:A}\": VS Code sends `{env:A}` as written (that is opencode's form); an environment variable is `${env:A}` [${env:A}]"
            ]
        );
        // Written with an escape, the value's offsets are not the source's: the finding is on
        // the whole string.
        let got = findings(&server(r#""command": "s", "args": ["\u0061 ${HOME}"]"#));
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(
            got[0].starts_with("unsubstituted-variable at \"\\\"\\\\u0061 ${HOME}\\\"\""),
            "{got:#?}"
        );
        // At most 64 variables of one string are read, of either form.
        for one in ["{env:A}", "${HOME}"] {
            let many = one.repeat(70);
            let got = findings(&server(&format!(r#""command": "s", "args": ["{many}"]"#)));
            assert_eq!(got.len(), 64, "{one}");
        }
    }

    #[test]
    fn an_id_that_shares_its_first_or_last_word_with_one_input_is_meant() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // The last word, or the first; empty parts around separators do not count.
        assert_eq!(
            same_word("gh-token", &ids(&["github-token", "api"])),
            Some("github-token")
        );
        assert_eq!(
            same_word("-github-pat", &ids(&["github-token", "api"])),
            Some("github-token")
        );
        assert_eq!(same_word("GITHUB_pat", &ids(&["github-token"])), Some("github-token"));
        // Two candidates, a short word, or nothing in common: no guess.
        assert_eq!(same_word("token", &ids(&["a-token", "b-token"])), None);
        assert_eq!(same_word("my-id", &ids(&["your-id"])), None);
        assert_eq!(same_word("zzz", &ids(&["github-token"])), None);
        // Itself is no suggestion.
        assert_eq!(same_word("api-key", &ids(&["api-key"])), None);
    }

    #[test]
    fn a_string_with_escapes_is_reported_whole_and_braces_nest() {
        // An escape before the variable: offsets no longer map, the whole string is the span and
        // no fix is offered.
        let got = findings(&server(r#""command": "x", "args": ["\u0041${input:nope}"]"#));
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(
            got[0].starts_with(r#"unresolved-variable at "\"\\u0041${input:nope}\"""#),
            "{got:#?}"
        );
        assert!(!got[0].ends_with(']'), "{got:#?}");
        // `${a{b}c}` is one variable (VS Code counts the braces).
        let got = findings(&server(r#""command": "${a{b}c}""#));
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(got[0].starts_with("unsubstituted-variable at \"${a{b}c}\""), "{got:#?}");
    }
}
