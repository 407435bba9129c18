//! `mcpServers` and `hooks` in an agent's frontmatter, and the hook events and types.

use super::model::{Agent, Ctx, Setting, Status};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Value};

pub(super) fn mcp_servers(cx: &mut Ctx, agent: &mut Agent, v: &Node) {
    let Value::Seq(items) = &v.value else {
        if !matches!(v.value, Value::Null) {
            cx.dropped(
                Code::InvalidType,
                v.span,
                "`mcpServers` must be a list of server names or `name: config` maps; Claude Code ignores this value"
                    .into(),
            );
        }
        return;
    };
    let mut names = Vec::new();
    for item in items {
        match &item.value {
            Value::Str(s) => names.push(s.clone()),
            Value::Map(m) if m.entries.len() == 1 => {
                let e = &m.entries[0];
                match &e.value.value {
                    Value::Map(cfg) => {
                        let ty = cfg.value("type").and_then(Node::as_str);
                        let ok = match ty {
                            None | Some("stdio") => cfg.value("command").and_then(Node::as_str).is_some(),
                            Some("http" | "sse" | "ws") => cfg.value("url").and_then(Node::as_str).is_some(),
                            Some(_) => false,
                        };
                        if ok {
                            names.push(e.key.name.clone());
                        } else {
                            let why = match ty {
                                Some(t) if !matches!(t, "stdio" | "http" | "sse" | "ws") => {
                                    format!("`type: {t}` is not a server type (stdio, http, sse, ws)")
                                }
                                Some("http" | "sse" | "ws") => "a remote server needs a `url`".into(),
                                _ => "a stdio server needs a `command`".into(),
                            };
                            cx.dropped(
                                Code::InvalidValue,
                                e.value.span,
                                format!("invalid mcpServers item ({why}): Claude Code drops this server"),
                            );
                        }
                    }
                    _ => {
                        cx.dropped(
                            Code::InvalidType,
                            e.value.span,
                            "an inline server's configuration must be a map (`type`, `command`, `args`, `url`...); Claude Code drops this item".into(),
                        );
                    }
                }
            }
            _ => {
                cx.dropped(
                    Code::InvalidType,
                    item.span,
                    "an mcpServers item is a server name or a one-key map `name: {config}`; Claude Code drops this item".into(),
                );
            }
        }
    }
    agent.settings.push(Setting {
        key: "mcpServers",
        value: names.join(", "),
        span: v.span,
    });
}

/// `hooks`, read by the shared hooks module ([`crate::analysis::claude::hooks`]): Claude Code
/// 2.1.332 drops a broken entry and loads the agent, except where the entry sits under a guard
/// event (`PreToolUse`, `PermissionRequest`) or `hooks` is no object: then the agent is not loaded
/// ("Invalid hooks"), since that hook may be what guards it.
pub(super) fn hooks(cx: &mut Ctx, agent: &mut Agent, v: &Node) {
    if matches!(v.value, Value::Null) {
        return;
    }
    let report = crate::analysis::claude::hooks::check(v, cx.text);
    for p in &report.problems {
        if p.guard || p.whole {
            let why = if p.guard {
                " (a broken PreToolUse or PermissionRequest hook may be what guards the agent)"
            } else {
                ""
            };
            cx.skipped(
                p.code,
                p.span,
                format!("{}: Claude Code does not load this agent{why}", p.message),
            );
            agent.status = Status::Skipped("invalid hooks".into());
        } else {
            cx.dropped(
                p.code,
                p.span,
                format!(
                    "{}: Claude Code ignores this entry (the agent loads without it)",
                    p.message
                ),
            );
        }
    }
    cx.out.extend(report.advice);
    agent.hook_scripts = report.scripts;
    let names: Vec<String> = match &v.value {
        Value::Map(m) => m.entries.iter().map(|e| e.key.name.clone()).collect(),
        _ => Vec::new(),
    };
    agent.settings.push(Setting {
        key: "hooks",
        value: names.join(", "),
        span: v.span,
    });
}
