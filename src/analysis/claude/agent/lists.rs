//! The entries of `tools`, `disallowedTools` and `skills`.

use super::model::{Agent, Ctx};
use crate::analysis::claude::schema;
use crate::analysis::claude::tools::{self, List};
use crate::analysis::diagnostic::{Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

/// `tools`, `disallowedTools`, `skills`: each entry.
pub(super) fn check_list(cx: &mut Ctx, agent: &mut Agent, key: &str, v: &Node, list: &List) {
    if key == "skills" {
        // Checked against the project's skills across files.
        agent.skills = list.items().iter().map(|i| (i.text.clone(), i.span, i.exact)).collect();
        return;
    }
    if let List::Empty(span) = list {
        if key == "tools" && !matches!(v.value, Value::Seq(_)) {
            cx.push(
                Code::InvalidValue,
                Severity::Warning,
                Effect::ValueIgnored,
                *span,
                "an empty `tools` gives this agent no tools at all. Remove the key to give it every tool, or list the tools"
                    .into(),
            );
        }
        return;
    }
    let items = list.items();
    let mut resolved = 0;
    let mut agent_entries = Vec::new();
    for item in items {
        if item.cut {
            continue;
        }
        if let Some(u) = &item.unclosed {
            let d = cx.dropped(Code::UnknownTool, u.span, u.message("the agent does not get it"));
            if let Some(edit) = u.fix() {
                *d = d.clone().with_fix(tools::ADD_PARENTHESIS, vec![edit], false);
            }
            continue;
        }
        let (name, spec) = tools::parts(&item.text);
        if item.text.starts_with("mcp__") {
            resolved += 1;
            continue;
        }
        if schema::TOOLS.contains(&name) {
            resolved += 1;
            if let Some(spec) = spec {
                if name == "Agent" {
                    agent_entries.push(item);
                    let base = item.span.start as usize;
                    for (a, b) in tools::agent_types(&item.text) {
                        let span = if item.exact {
                            Span::new(base + a, base + b)
                        } else {
                            item.span
                        };
                        if key == "tools" {
                            agent.agent_refs.push((item.text[a..b].to_string(), span));
                        }
                    }
                } else if key == "tools" && spec.trim() != "*" {
                    cx.dropped(
                        Code::IgnoredSpecifier,
                        item.span,
                        format!(
                            "in an agent's `tools`, `({spec})` has no effect: Claude Code grants the whole `{name}` tool. Restrict it with permission rules or hooks"
                        ),
                    );
                } else if key == "disallowedTools" && spec.trim() != "*" {
                    // Measured with 2.1.332: the agent's first request has no `Bash` at all.
                    cx.dropped(
                        Code::IgnoredSpecifier,
                        item.span,
                        format!(
                            "in an agent's `disallowedTools`, `({spec})` is not read: Claude Code removes the whole `{name}` tool from this agent. To deny only these uses, write `{name}({spec})` in `permissions.deny` of the settings"
                        ),
                    );
                }
            }
            continue;
        }
        if let Some((old, new, why)) = schema::legacy(name) {
            if *old == "Task" {
                resolved += 1;
                let base = item.span.start as usize;
                if spec.is_some() && key == "tools" {
                    agent_entries.push(item);
                    for (a, b) in tools::agent_types(&item.text) {
                        let span = if item.exact {
                            Span::new(base + a, base + b)
                        } else {
                            item.span
                        };
                        agent.agent_refs.push((item.text[a..b].to_string(), span));
                    }
                }
                let d = cx.push(
                    Code::DeprecatedField,
                    Severity::Warning,
                    Effect::Works,
                    if item.exact {
                        Span::new(base, base + name.len())
                    } else {
                        item.span
                    },
                    format!("{why}; write `Agent`"),
                );
                if item.exact {
                    *d = d.clone().with_fix(
                        "Replace `Task` with `Agent`",
                        vec![Edit::new(Span::new(base, base + 4), "Agent")],
                        true,
                    );
                }
                continue;
            }
            let d = cx.dropped(
                Code::UnknownTool,
                item.span,
                format!("{why}: Claude Code does not resolve `{old}` and the agent does not get it"),
            );
            if let (Some(new), true) = (new, item.exact) {
                let base = item.span.start as usize;
                *d = d.clone().with_fix(
                    format!("Replace `{old}` with `{new}`"),
                    vec![Edit::new(Span::new(base, base + old.len()), *new)],
                    false,
                );
            }
            continue;
        }
        // Unknown: a case slip, a typo, or not a tool at all.
        let near = schema::TOOLS
            .iter()
            .find(|t| t.eq_ignore_ascii_case(name))
            .or_else(|| {
                schema::TOOLS
                    .iter()
                    .map(|t| (strsim::levenshtein(t, name), t))
                    .filter(|(d, t)| *d <= 2 && t.len() > 2)
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, t)| t)
            })
            .copied();
        let message = match near {
            Some(n) => format!("Claude Code has no tool `{name}` (tool names are case-sensitive); did you mean `{n}`?"),
            None => format!(
                "Claude Code has no tool `{name}`; the agent does not get it. Tools are built-in names (`Read`, `Bash`, ...), `mcp__<server>__<tool>` or `Agent(<type>)`"
            ),
        };
        let d = cx.dropped(Code::UnknownTool, item.span, message);
        if let (Some(n), true) = (near, item.exact) {
            let base = item.span.start as usize;
            *d = d.clone().with_suggestion(Span::new(base, base + name.len()), n);
        }
    }
    if key == "tools" && !items.is_empty() && resolved == 0 {
        cx.push(
            Code::UnknownTool,
            Severity::Warning,
            Effect::FailsWhenUsed,
            v.span,
            "no entry of `tools` names a tool: Claude Code refuses to start this agent (\"would be spawned with zero tools\")"
                .into(),
        );
    }
    match agent_entries.as_slice() {
        [] | [_] => {}
        [first, last] => {
            let d = cx.dropped(
                Code::ShadowedRule,
                first.span,
                format!(
                    "only the last `Agent(...)` entry applies (`{}`); merge the agent types into one entry",
                    last.text
                ),
            );
            d.related.push(crate::analysis::diagnostic::Related {
                location: crate::analysis::diagnostic::Location::Here(last.span),
                message: "the entry that applies".into(),
                lost: false,
            });
        }
        [earlier @ .., last] => {
            // One finding for one cause: on the entry that applies, the others related.
            let d = cx.dropped(
                Code::ShadowedRule,
                last.span,
                format!(
                    "only this `Agent(...)` entry applies: Claude Code ignores the {} before it; merge the agent types into one entry",
                    earlier.len()
                ),
            );
            d.tags = &[];
            for e in earlier {
                d.related.push(crate::analysis::diagnostic::Related {
                    location: crate::analysis::diagnostic::Location::Here(e.span),
                    message: format!("ignored: `{}`", e.text),
                    lost: true,
                });
            }
        }
    }
}
