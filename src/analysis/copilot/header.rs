//! One Copilot file's frontmatter, key by key: unknown keys, wrong types and values, keys one host
//! reads and the other ignores, deprecated keys and tool names, as VS Code's prompt-file
//! validator and GitHub's reference describe them (see [`super::schema`]).

mod blocks;
mod scalar;

use super::schema::{self, Hosts, Kind, Value as V};
use super::{CopilotFile, FileKind, Named};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Key, Node, Parsed, Value};
use crate::analysis::text::Span;
use blocks::{apply_to, github, handoffs, hooks};
use scalar::{string, type_error};

/// How many entries of one list (tools, body references) are checked: past it, a hostile file
/// costs no more.
const MAX_CHECKED: usize = 1_000;

/// Check the frontmatter `parsed` of a file of `kind` and fill `file` with what it declares.
pub fn check(
    kind: &FileKind,
    header: Kind,
    parsed: &Parsed,
    open: Span,
    text: &str,
    file: &mut CopilotFile,
    out: &mut Vec<Diagnostic>,
) {
    // GitHub.com reads agents and instructions, not prompt files.
    let github = !matches!(kind, FileKind::Prompt { .. });
    for e in &parsed.errors {
        out.push(Diagnostic::new(
            Code::SyntaxError,
            e.span,
            format!(
                "{}: this frontmatter is not valid YAML{}",
                e.message,
                if github {
                    "; GitHub.com's coding agent cannot read the file"
                } else {
                    ""
                }
            ),
        ));
    }
    for d in &parsed.duplicates {
        out.push(
            Diagnostic::new(
                Code::DuplicateKey,
                d.duplicate,
                format!("`{}` is set twice; the last value wins", d.name),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
    }
    let Some(root) = parsed.root.as_ref() else {
        return;
    };
    let map = match &root.value {
        Value::Map(m) => m,
        Value::Null | Value::Unknown => return,
        _ => {
            out.push(Diagnostic::new(
                Code::InvalidType,
                root.span,
                format!(
                    "a frontmatter is a list of `key: value` lines, not {}; Copilot reads no header",
                    root.type_name()
                ),
            ));
            return;
        }
    };
    let targets = |file: &CopilotFile| file.targets();
    // `target` first: it decides which host the other keys are for.
    if let Some((_, node)) = map.js_entries().into_iter().find(|(k, _)| k.name == "target")
        && header == Kind::Agent
    {
        target(node, file, out);
    }
    for (key, node) in map.js_entries() {
        let Some(spec) = schema::key_of(header, &key.name) else {
            unknown_key(kind, header, key, out);
            continue;
        };
        if let Some((instead, why)) = spec.deprecated {
            let present = map.contains(instead);
            let mut d = Diagnostic::new(
                Code::DeprecatedField,
                key.span,
                format!("`{}` is deprecated: {why}", key.name),
            );
            if !present && spec.value != V::Bool {
                d = d.with_fix(
                    format!("Rename `{}` to `{instead}`", key.name),
                    vec![Edit::new(key.span, instead)],
                    true,
                );
            } else if let (false, Value::Bool(b)) = (present, &node.value) {
                // `infer: false` is `disable-model-invocation: true`, and the other way round.
                let entry = Span::new(key.span.start as usize, node.span.end as usize);
                d = d.with_fix(
                    format!("Write `{instead}: {}`", !b),
                    vec![Edit::new(entry, format!("{instead}: {}", !b))],
                    true,
                );
            }
            out.push(d);
        }
        let (vscode, github) = targets(file);
        // (VS Code checks `hooks` whatever the target.)
        let unread = header == Kind::Agent
            && spec.value != V::Hooks
            && matches!(
                (spec.hosts, vscode, github),
                (Hosts::VsCode, false, _) | (Hosts::GitHub, _, false)
            );
        if header == Kind::Agent {
            match spec.hosts {
                // The agent is GitHub.com's only, and GitHub.com does not read the key.
                Hosts::VsCode if !vscode => out.push(ignored(
                    key,
                    "GitHub.com's coding agent",
                    "`target: github-copilot`",
                    true,
                )),
                Hosts::GitHub if !github => out.push(ignored(key, "VS Code", "`target: vscode`", true)),
                Hosts::VsCode if spec.other_ignores && github => {
                    out.push(ignored(key, "GitHub.com's coding agent", "", false))
                }
                Hosts::GitHub if spec.other_ignores && vscode => out.push(ignored(key, "VS Code", "", false)),
                _ => {}
            }
        }
        // A key the agent's only host ignores is said once, not checked further.
        if !unread {
            value(header, &key.name, spec.value, node, text, file, out);
        }
    }
    if header == Kind::Agent && !map.contains("description") && parsed.errors.is_empty() {
        let (_, github) = targets(file);
        if github {
            out.push(
                Diagnostic::new(
                    Code::MissingField,
                    open,
                    "GitHub.com's coding agent needs a `description`; VS Code takes the agent without one",
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::Works),
            );
        }
    }
    if header == Kind::Prompt
        && file.tools.is_some()
        && let Some(a) = &file.agent
        && matches!(a.name.as_str(), "ask" | "edit")
        && let Some((k, _)) = map.js_entries().into_iter().find(|(k, _)| k.name == "tools")
    {
        out.push(
            Diagnostic::new(
                Code::IgnoredField,
                k.span,
                format!(
                    "VS Code reads `tools` only when a prompt runs in an agent, not in `{}`: it ignores them",
                    a.name
                ),
            )
            .with_effect(Effect::ValueIgnored),
        );
    }
    if header == Kind::Agent {
        every_tool(file, parsed, out);
    }
    if header == Kind::Agent
        && let Some(tools) = &file.tools
        && file.agents.as_ref().is_some_and(|a| !a.is_empty())
        && !tools.iter().any(|t| is_agent_tool(&t.name))
        && let Some((_, v)) = map.js_entries().into_iter().find(|(k, _)| k.name == "agents")
    {
        out.push(
            Diagnostic::new(
                Code::InvalidValue,
                v.span,
                "`agents` names the subagents this agent may run, but its `tools` leave out `agent`: it can run none",
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
    }
}

/// `broad-grant` (info): an agent without a `tools` list, or with `*` in it, gets every tool.
fn every_tool(file: &CopilotFile, parsed: &Parsed, out: &mut Vec<Diagnostic>) {
    if !parsed.errors.is_empty() {
        return;
    }
    let (span, how) = match &file.tools {
        None => (file.anchor, "has no `tools` list, so it gets every tool"),
        Some(tools) => match tools.iter().find(|t| t.name == schema::ALL_TOOLS) {
            Some(all) => (all.span, "lists `*`, every tool"),
            None => return,
        },
    };
    out.push(
        Diagnostic::new(
            Code::BroadGrant,
            span,
            format!(
                "this agent {how}: the terminal, file edits and every MCP server's tools included; list the ones it needs, as in `tools: [read, search]`"
            ),
        )
        .with_severity(Severity::Info),
    );
}

/// A `tools` entry that lets the agent run subagents.
fn is_agent_tool(name: &str) -> bool {
    name == schema::ALL_TOOLS
        || schema::tool_set(name).is_some_and(|s| s.name == "agent")
        || name == "agent/runSubagent"
}

fn unknown_key(kind: &FileKind, header: Kind, key: &Key, out: &mut Vec<Diagnostic>) {
    if let Some((_, new)) = schema::OLD_SPELLINGS.iter().find(|(old, _)| *old == key.name) {
        out.push(
            Diagnostic::new(
                Code::DeprecatedField,
                key.span,
                format!(
                    "VS Code no longer reads `{}` and ignores it: the key is spelt `{new}`",
                    key.name
                ),
            )
            .with_effect(Effect::ValueIgnored)
            .with_fix(format!("Rename to `{new}`"), vec![Edit::new(key.span, *new)], true),
        );
        return;
    }
    let names: Vec<&str> = schema::keys(header).iter().map(|k| k.name).collect();
    let near = suggest::closest(&key.name, names.iter().copied());
    // A key of another kind of Copilot file, written in the wrong one.
    let elsewhere = [Kind::Agent, Kind::Prompt, Kind::Instructions]
        .into_iter()
        .filter(|k| *k != header && schema::key_of(*k, &key.name).is_some())
        .map(|k| k.article_noun())
        .collect::<Vec<_>>();
    let hint = if near.is_none() && !elsewhere.is_empty() {
        format!(" (`{}` is a key of {})", key.name, elsewhere.join(" and of "))
    } else {
        String::new()
    };
    let what = match kind {
        FileKind::Agent {
            form: super::AgentForm::ChatMode,
            ..
        } => "a chat mode",
        _ => header.article_noun(),
    };
    let msg = format!(
        "Copilot does not read `{}` in {what}: VS Code warns and ignores it{hint}.{}",
        key.name,
        suggest::did_you_mean(near)
    );
    let mut d = Diagnostic::new(Code::UnknownKey, key.span, msg);
    if let Some(n) = near {
        d = d.with_suggestion(key.span, n);
    }
    out.push(d);
}

/// A key the host that reads the file ignores (`only`: the file targets that host alone).
fn ignored(key: &Key, host: &str, target: &str, only: bool) -> Diagnostic {
    if only {
        Diagnostic::new(
            Code::IgnoredField,
            key.span,
            format!(
                "{host} ignores `{}`, and {target} leaves the agent to {host} alone: the key does nothing",
                key.name
            ),
        )
    } else {
        Diagnostic::new(
            Code::IgnoredField,
            key.span,
            format!(
                "{host} ignores `{}`; only {} reads it",
                key.name,
                if host == "VS Code" {
                    "GitHub.com's coding agent"
                } else {
                    "VS Code"
                }
            ),
        )
        .with_severity(Severity::Hint)
        .with_effect(Effect::Works)
    }
}

/// The strings of a list value (a single string counts as a list of one when `single` is true,
/// and is split on commas when `commas` is true).
fn strings(key: &str, node: &Node, commas: bool, out: &mut Vec<Diagnostic>) -> Option<Vec<Named>> {
    match &node.value {
        Value::Seq(items) => {
            let mut names = Vec::new();
            for it in items {
                match &it.value {
                    Value::Str(s) => names.push(Named {
                        name: s.clone(),
                        span: it.span,
                    }),
                    Value::Null | Value::Unknown => {}
                    _ => type_error(&format!("each entry of `{key}`"), it, "a string", out),
                }
            }
            Some(names)
        }
        Value::Str(s) if commas => Some(split_commas(s, node)),
        Value::Null | Value::Unknown => None,
        _ => {
            type_error(
                key,
                node,
                if commas {
                    "a list of names (or one comma-separated string)"
                } else {
                    "a list of names"
                },
                out,
            );
            None
        }
    }
}

/// The edit that removes entry `i` of a list (or of a comma-separated string) whose entries are
/// `names`, in order: up to the next entry, or from the previous one when it is the last, so that
/// the separators and the list's layout stay as they were. `None` for a list of one.
fn delete_item(names: &[Named], i: usize) -> Option<Edit> {
    let this = names.get(i)?;
    match (i.checked_sub(1).and_then(|p| names.get(p)), names.get(i + 1)) {
        (_, Some(next)) => Some(Edit::new(
            Span::new(this.span.start as usize, next.span.start as usize),
            "",
        )),
        (Some(prev), None) => Some(Edit::new(Span::new(prev.span.end as usize, this.span.end as usize), "")),
        (None, None) => None,
    }
}

/// The comma-separated names of a string value, each on its own span when the value is written
/// plain or quoted on one line (the whole value otherwise).
fn split_commas(s: &str, node: &Node) -> Vec<Named> {
    let raw_len = node.span.len();
    // The source text is the value itself, possibly quoted.
    let quote = usize::from(raw_len == s.len() + 2);
    let exact = raw_len == s.len() || quote == 1;
    let mut out = Vec::new();
    let mut at = 0usize;
    for part in s.split(',') {
        let lead = part.len() - part.trim_start().len();
        let trimmed = part.trim();
        // A quoted name inside the string (`read, 'execute'`) is read without its quotes.
        let unquoted = ["'", "\""]
            .iter()
            .find_map(|q| trimmed.strip_prefix(q).and_then(|t| t.strip_suffix(q)))
            .filter(|t| !t.is_empty());
        let (name, lead) = match unquoted {
            Some(t) => (t, lead + 1),
            None => (trimmed, lead),
        };
        if !name.is_empty() {
            let span = if exact {
                let start = node.span.start as usize + quote + at + lead;
                Span::new(start, start + name.len())
            } else {
                node.span
            };
            out.push(Named {
                name: name.to_string(),
                span,
            });
        }
        at += part.len() + 1;
    }
    out
}

fn value(header: Kind, key: &str, ty: V, node: &Node, text: &str, file: &mut CopilotFile, out: &mut Vec<Diagnostic>) {
    match ty {
        V::Str => {
            if let Some(s) = string(key, node, out) {
                match key {
                    "name" => {
                        if s.trim().is_empty() {
                            out.push(
                                Diagnostic::new(
                                    Code::InvalidValue,
                                    node.span,
                                    "`name` is empty: Copilot names the agent after its file",
                                )
                                .with_severity(Severity::Warning)
                                .with_effect(Effect::ValueIgnored),
                            );
                        }
                        file.name = Some(Named {
                            name: s.to_string(),
                            span: node.span,
                        });
                    }
                    "description" => {
                        if s.trim().is_empty() {
                            out.push(
                                Diagnostic::new(Code::InvalidValue, node.span, "`description` is empty")
                                    .with_severity(Severity::Warning)
                                    .with_effect(Effect::Works),
                            );
                        }
                        file.description = Some(s.to_string());
                    }
                    "argument-hint" => {
                        if s.trim().is_empty() {
                            out.push(
                                Diagnostic::new(
                                    Code::InvalidValue,
                                    node.span,
                                    "`argument-hint` is empty: no hint is shown",
                                )
                                .with_severity(Severity::Warning)
                                .with_effect(Effect::ValueIgnored),
                            );
                        }
                        file.argument_hint = Some(s.to_string())
                    }
                    _ => {}
                }
            }
        }
        V::Bool => match &node.value {
            Value::Bool(_) if !matches!(node.span.text(text), "true" | "false") => out.push(Diagnostic::new(
                Code::InvalidValue,
                node.span,
                format!("VS Code reads `{key}` as `true` or `false` written exactly so (lower case, unquoted)"),
            )),
            Value::Bool(b) => match key {
                "user-invocable" | "user-invokable" => file.user_invocable = Some(*b),
                "disable-model-invocation" => file.model_invocation_disabled = Some(*b),
                "infer" => {
                    file.model_invocation_disabled.get_or_insert(!*b);
                }
                _ => {}
            },
            Value::Null | Value::Unknown => {}
            _ => type_error(key, node, "`true` or `false`", out),
        },
        V::Any => {}
        V::Hooks => hooks(node, file, out),
        V::Github => github(node, out),
        // Read first, in `check`.
        V::Target => {}
        V::Tools => {
            if let Some(names) = strings(key, node, true, out) {
                // GitHub.com's coding agent has tools of its own and ignores names it does not
                // know; VS Code does not judge them for it either.
                if file.targets() != (false, true) {
                    // Bounded: a hostile list of a million names costs what a thousand do.
                    let checked = &names[..names.len().min(MAX_CHECKED)];
                    for (i, t) in checked.iter().enumerate() {
                        tool(t, i, checked, text, out);
                    }
                }
                file.tools = Some(names);
            }
        }
        V::Model => match &node.value {
            Value::Str(s) => {
                if s.trim().is_empty() {
                    out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            node.span,
                            "`model` is empty: the model picked in the chat is used",
                        )
                        .with_severity(Severity::Warning)
                        .with_effect(Effect::ValueIgnored),
                    );
                } else {
                    file.models.push(Named {
                        name: s.clone(),
                        span: node.span,
                    });
                }
            }
            Value::Seq(items) if items.is_empty() => out.push(Diagnostic::new(
                Code::InvalidValue,
                node.span,
                "`model: []` names no model: VS Code reports it as an error",
            )),
            Value::Seq(_) if header == Kind::Agent => {
                if let Some(names) = strings(key, node, false, out) {
                    for n in names.iter().filter(|n| n.name.trim().is_empty()) {
                        out.push(Diagnostic::new(Code::InvalidValue, n.span, "a model name is empty"));
                    }
                    file.models = names.into_iter().filter(|n| !n.name.trim().is_empty()).collect();
                }
            }
            Value::Null | Value::Unknown => {}
            _ => type_error(
                key,
                node,
                if header == Kind::Agent {
                    "a model name or a list of them"
                } else {
                    "a model name"
                },
                out,
            ),
        },
        V::Handoffs => handoffs(node, file, out),
        V::Agents => {
            if let Some(names) = strings(key, node, false, out) {
                file.agents = Some(names);
            }
        }
        V::AgentRef => {
            if let Some(s) = string(key, node, out) {
                if s.trim().is_empty() {
                    out.push(
                        Diagnostic::new(Code::InvalidValue, node.span, format!("`{key}` is empty"))
                            .with_severity(Severity::Warning)
                            .with_effect(Effect::ValueIgnored),
                    );
                } else {
                    file.agent = Some(Named {
                        name: s.to_string(),
                        span: node.span,
                    });
                }
            }
        }
        V::ApplyTo => apply_to(node, file, out),
        V::ExcludeAgent => {
            if let Some(names) = strings(key, node, true, out) {
                for n in &names {
                    if !schema::EXCLUDE_AGENTS.iter().any(|(v, _)| *v == n.name) {
                        out.push(one_of(key, n, schema::EXCLUDE_AGENTS, Effect::ValueIgnored));
                    }
                }
                file.exclude_agent = names;
            }
        }
        V::McpServers => match &node.value {
            Value::Map(m) => {
                for (k, v) in m.js_entries() {
                    if !matches!(v.value, Value::Map(_) | Value::Null | Value::Unknown) {
                        type_error(&format!("the MCP server `{}`", k.name), v, "a mapping", out);
                    }
                    file.mcp_servers.push(Named {
                        name: k.name.clone(),
                        span: k.span,
                    });
                }
            }
            Value::Null | Value::Unknown => {}
            _ => type_error(key, node, "a mapping of server names to servers", out),
        },
        V::Metadata => match &node.value {
            Value::Map(m) => {
                for (k, v) in m.js_entries() {
                    if !matches!(v.value, Value::Str(_) | Value::Null | Value::Unknown) {
                        type_error(&format!("`metadata.{}`", k.name), v, "a string", out);
                    }
                }
            }
            Value::Null | Value::Unknown => {}
            _ => type_error(key, node, "a mapping of names to strings", out),
        },
    }
}

fn one_of(key: &str, n: &Named, values: &[(&str, &str)], effect: Effect) -> Diagnostic {
    let names: Vec<&str> = values.iter().map(|(v, _)| *v).collect();
    let near = suggest::closest(&n.name, names.iter().copied());
    let list = names.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(" or ");
    let mut d = Diagnostic::new(
        Code::InvalidValue,
        n.span,
        format!("`{key}` is {list}, not `{}`.{}", n.name, suggest::did_you_mean(near)),
    )
    .with_severity(Severity::Warning)
    .with_effect(effect);
    if let Some(v) = near {
        d = d.with_suggestion(n.span, v);
    }
    d
}

fn target(node: &Node, file: &mut CopilotFile, out: &mut Vec<Diagnostic>) {
    let Some(s) = string("target", node, out) else {
        return;
    };
    let n = Named {
        name: s.to_string(),
        span: node.span,
    };
    if schema::TARGETS.iter().any(|(v, _)| *v == s) {
        file.target = Some(n);
    } else {
        out.push(one_of("target", &n, schema::TARGETS, Effect::ValueIgnored));
    }
}

/// The name an older tool name is now written as (`runCommands` is `execute`, `editFiles` is
/// `edit/editFiles`), with the words of the message.
fn renamed(name: &str) -> Option<(String, &'static str)> {
    if let Some((_, new)) = schema::RENAMED_TOOLS.iter().find(|(old, _)| *old == name) {
        return Some(((*new).to_string(), "is now"));
    }
    schema::set_of_tool(name).map(|set| (format!("{}/{name}", set.name), "is now written"))
}

/// A `tools` entry (`names[i]` of the list, as the fix writes it): a tool set, `set/tool`, an
/// older tool name, an MCP server's `server/*` or `server/tool` (checked across files), an
/// extension's `publisher.extension/tool`, `*`. An older name's fix writes the new one in the
/// entry's own quotes, or removes the entry when the list has that name already (two old
/// names of one new tool, `runCommands` and `runTasks`).
fn tool(t: &Named, i: usize, names: &[Named], text: &str, out: &mut Vec<Diagnostic>) {
    let name = t.name.as_str();
    if name == schema::ALL_TOOLS || schema::tool_set(name).is_some() {
        return;
    }
    if let Some((new, verb)) = renamed(name) {
        let written = |n: &Named| renamed(&n.name).map_or_else(|| n.name.clone(), |(r, _)| r);
        let listed = names[..i].iter().any(|n| written(n) == new);
        let d = Diagnostic::new(
            Code::DeprecatedField,
            t.span,
            format!("the tool `{name}` {verb} `{new}`"),
        )
        .with_severity(Severity::Info);
        out.push(match (listed, delete_item(names, i)) {
            (true, Some(edit)) => d.with_fix(
                format!("Remove `{name}` (`{new}` is listed already)"),
                vec![edit],
                false,
            ),
            _ => {
                let raw = t.span.text(text);
                let quote = raw
                    .chars()
                    .next()
                    .filter(|q| matches!(q, '\'' | '"') && raw.len() >= 2 && raw.ends_with(*q));
                let replacement = match quote {
                    Some(q) => format!("{q}{new}{q}"),
                    None => new.clone(),
                };
                d.with_fix(
                    format!("Replace with `{new}`"),
                    vec![Edit::new(t.span, replacement)],
                    false,
                )
            }
        });
        return;
    }
    if let Some((prefix, rest)) = name.split_once('/') {
        // A tool of a built-in set (the sets grow with each release of VS Code and Copilot Chat: any
        // name is taken), an MCP server's or an extension's (decided across files).
        let _ = (prefix, rest);
        // Anything else before a `/` is an MCP server or an extension: decided across files.
        return;
    }
    // An extension's tool set (`vscode.mermaid-markdown-features`): known once it is installed.
    if name.contains('.') {
        return;
    }
    let candidates: Vec<&str> = schema::plain_tool_names().collect();
    let near = suggest::closest(name, candidates.iter().copied());
    let mut d = Diagnostic::new(
        Code::UnknownTool,
        t.span,
        format!(
            "Copilot knows no tool `{name}` and ignores the entry (VS Code warns; an extension or MCP server's tools are written `name/tool`).{}",
            suggest::did_you_mean(near)
        ),
    );
    if let Some(n) = near {
        d = d.with_suggestion(t.span, n);
    }
    out.push(d);
}

/// The body's `#tool:name` references of an agent or a prompt (VS Code reads them; GitHub.com
/// does not): a name Copilot does not know, an older name, and a tool set the `tools` of the
/// header leave out (the model cannot use it, whatever the body says). MCP servers' and
/// extensions' tools (`server/tool`, `publisher.extension/tool`) are left alone.
pub fn body_refs(text: &str, file: &CopilotFile, out: &mut Vec<Diagnostic>) {
    if file.targets() == (false, true) {
        return;
    }
    let body_start = (file.body.start as usize).min(text.len());
    let body = &text[body_start..];
    for (at, _) in body.match_indices("#tool:").take(MAX_CHECKED) {
        let start = body_start + at + "#tool:".len();
        let len = text[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '*')))
            .unwrap_or(text.len() - start);
        if len == 0 {
            continue;
        }
        let span = Span::new(start, start + len);
        let name = &text[start..start + len];
        if name.contains('/') || name.contains('.') {
            continue;
        }
        if let Some((_, new)) = schema::RENAMED_TOOLS.iter().find(|(old, _)| *old == name) {
            out.push(
                Diagnostic::new(Code::DeprecatedField, span, format!("the tool `{name}` is now `{new}`"))
                    .with_severity(Severity::Info)
                    .with_fix(format!("Replace with `{new}`"), vec![Edit::new(span, *new)], false),
            );
            continue;
        }
        let set = match schema::tool_set(name) {
            Some(set) => set.name,
            None if name == schema::ALL_TOOLS => continue,
            None => match schema::set_of_tool(name) {
                Some(set) => set.name,
                None => {
                    let candidates: Vec<&str> = schema::plain_tool_names().collect();
                    let near = suggest::closest(name, candidates.iter().copied());
                    let mut d = Diagnostic::new(
                        Code::UnknownTool,
                        span,
                        format!(
                            "Copilot knows no tool `{name}`: the reference gives the model nothing.{}",
                            suggest::did_you_mean(near)
                        ),
                    );
                    if let Some(n) = near {
                        d = d.with_suggestion(span, n);
                    }
                    out.push(d);
                    continue;
                }
            },
        };
        if super::policy::grants(file, set).is_none() {
            out.push(
                Diagnostic::new(
                    Code::IgnoredField,
                    span,
                    format!(
                        "`#tool:{name}` names a tool the header's `tools` do not enable (the `{set}` set): the model cannot use it here"
                    ),
                )
                .with_effect(Effect::ValueIgnored),
            );
        }
    }
}
