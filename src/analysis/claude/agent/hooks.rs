//! `mcpServers` and `hooks` in an agent's frontmatter, and the hook events and types.

use super::model::{Agent, Ctx, Setting, Status};
use crate::analysis::diagnostic::Severity;
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

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

pub(crate) const HOOK_TYPES: &[&str] = &["command", "http", "mcp_tool", "prompt", "agent"];

/// Hook events (spec §6.1).
pub const HOOK_EVENTS: &[&str] = &[
    "SessionStart",
    "Setup",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "Stop",
    "StopFailure",
    "TeammateIdle",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "SessionEnd",
];

/// `hooks`: a structural problem skips the whole file (§7.5).
pub(super) fn hooks(cx: &mut Ctx, agent: &mut Agent, v: &Node) {
    let bad = |cx: &mut Ctx, span: Span, what: String| {
        cx.skipped(
            Code::InvalidType,
            span,
            format!("{what}: Claude Code does not load this agent (\"Invalid hooks\")"),
        );
    };
    let Value::Map(events) = &v.value else {
        if !matches!(v.value, Value::Null) {
            bad(
                cx,
                v.span,
                format!("`hooks` must be a map of hook events, not {}", v.type_name()),
            );
            agent.status = Status::Skipped("invalid hooks".into());
        }
        return;
    };
    let text = cx.text;
    let before = cx.out.iter().filter(|d| d.severity == Severity::Error).count();
    let mut names = Vec::new();
    for ev in events.entries.iter() {
        if !HOOK_EVENTS.contains(&ev.key.name.as_str()) {
            let near = HOOK_EVENTS
                .iter()
                .map(|e| (strsim::levenshtein(e, &ev.key.name), e))
                .filter(|(d, _)| *d <= 3)
                .min_by_key(|(d, _)| *d)
                .map(|(_, e)| *e);
            let d = cx.dropped(
                Code::UnknownKey,
                ev.key.span,
                match near {
                    Some(n) => format!("`{}` is no hook event; did you mean `{n}`?", ev.key.name),
                    None => format!("`{}` is no hook event", ev.key.name),
                },
            );
            if let Some(n) = near
                && ev.key.span.text(text) == ev.key.name
            {
                *d = d.clone().with_suggestion(ev.key.span, n);
            }
        }
        names.push(ev.key.name.clone());
        let Value::Seq(matchers) = &ev.value.value else {
            let t = ev.value.type_name();
            bad(
                cx,
                ev.value.span,
                format!("hooks.{}: must be a list of matchers, not {t}", ev.key.name),
            );
            continue;
        };
        for m in matchers {
            let Some(mm) = m.as_map() else {
                bad(
                    cx,
                    m.span,
                    format!("hooks.{}: each matcher must be a map with `hooks:`", ev.key.name),
                );
                continue;
            };
            if let Some(mt) = mm.get("matcher")
                && !matches!(mt.value.value, Value::Str(_) | Value::Null)
            {
                bad(
                    cx,
                    mt.value.span,
                    format!("hooks.{}: `matcher` must be a string", ev.key.name),
                );
            }
            let Some(list) = mm.get("hooks") else {
                bad(
                    cx,
                    m.span,
                    format!("hooks.{}: this matcher has no `hooks:` list", ev.key.name),
                );
                continue;
            };
            let Value::Seq(handlers) = &list.value.value else {
                bad(
                    cx,
                    list.value.span,
                    format!("hooks.{}: `hooks` must be a list of handlers", ev.key.name),
                );
                continue;
            };
            for h in handlers {
                let Some(hm) = h.as_map() else {
                    bad(
                        cx,
                        h.span,
                        format!("hooks.{}: each handler must be a map with `type`", ev.key.name),
                    );
                    continue;
                };
                match hm.get("type").map(|e| &e.value) {
                    Some(Node {
                        value: Value::Str(t), ..
                    }) if HOOK_TYPES.contains(&t.as_str()) => {
                        if t == "command" && hm.value("command").and_then(Node::as_str).is_none() {
                            bad(
                                cx,
                                h.span,
                                format!("hooks.{}: a `command` handler needs `command:`", ev.key.name),
                            );
                        }
                    }
                    Some(n) => bad(
                        cx,
                        n.span,
                        format!(
                            "hooks.{}: the handler type must be one of {}",
                            ev.key.name,
                            HOOK_TYPES.join(", ")
                        ),
                    ),
                    None => bad(cx, h.span, format!("hooks.{}: this handler has no `type`", ev.key.name)),
                }
            }
        }
    }
    if cx.out.iter().filter(|d| d.severity == Severity::Error).count() > before {
        agent.status = Status::Skipped("invalid hooks".into());
    }
    agent.settings.push(Setting {
        key: "hooks",
        value: names.join(", "),
        span: v.span,
    });
}
