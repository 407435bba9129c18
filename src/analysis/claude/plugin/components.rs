//! Component paths (`agents`, `skills`, `hooks`, ...), inline `hooks`/`mcpServers` objects and
//! `commands`.

use super::cx::{Cx, Fate, Scope, list};
use super::model::{CommandSource, DeclaredPath, Want};
use crate::analysis::claude::hooks as hook_table;
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Map, Node, Value};
use crate::analysis::text::Span;

/// What a path field accepts.
#[derive(Clone, Copy)]
pub(super) struct PathRule {
    /// The extension every path must end with.
    ext: Option<&'static str>,
    want: Want,
    /// A list of paths is accepted (not only one string).
    list: bool,
}

impl PathRule {
    pub(super) const AGENTS: PathRule = PathRule {
        ext: Some(".md"),
        want: Want::File,
        list: true,
    };
    pub(super) const SKILLS: PathRule = PathRule {
        ext: None,
        want: Want::Dir,
        list: true,
    };
    pub(super) const HOOKS: PathRule = PathRule {
        ext: Some(".json"),
        want: Want::File,
        list: true,
    };
    pub(super) const ANY_FILE: PathRule = PathRule {
        ext: None,
        want: Want::File,
        list: true,
    };
    pub(super) const ANY: PathRule = PathRule {
        ext: None,
        want: Want::Any,
        list: true,
    };
}

/// The strings of a string or list value.
pub(super) fn strings(v: &Node) -> Vec<String> {
    match &v.value {
        Value::Str(s) => vec![s.clone()],
        Value::Seq(items) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

pub(super) fn strip_dot(s: &str) -> String {
    s.strip_prefix("./").unwrap_or(s).trim_end_matches('/').to_string()
}

/// A path field: one string or a list of strings. Returns whether its shape is valid (every
/// entry a `./` string with the right extension), which is when Claude Code reads it.
pub(super) fn paths(cx: &mut Cx, key: &'static str, v: &Node, scope: Scope, rule: PathRule) -> bool {
    match &v.value {
        Value::Str(_) => path(cx, key, v, scope, rule),
        Value::Seq(items) if rule.list => {
            let mut ok = true;
            for item in items.iter() {
                ok &= match &item.value {
                    Value::Str(_) => path(cx, key, item, scope, rule),
                    Value::Unknown => false,
                    _ => {
                        cx.error(
                            Code::InvalidType,
                            item.span,
                            format!("the paths of `{key}` must be strings, not {}", item.type_name()),
                            scope,
                            Fate::Refused,
                        );
                        false
                    }
                };
            }
            ok
        }
        Value::Unknown => false,
        _ => {
            cx.error(
                Code::InvalidType,
                v.span,
                format!("`{key}` must be a `./` path or a list of them, not {}", v.type_name()),
                scope,
                Fate::Refused,
            );
            false
        }
    }
}

/// One path string: `./`, the extension, no `..`; recorded for the check on disk.
pub(super) fn path(cx: &mut Cx, key: &'static str, node: &Node, scope: Scope, rule: PathRule) -> bool {
    let Some(p) = node.as_str() else { return false };
    if !p.starts_with("./") {
        cx.error(
            Code::InvalidValue,
            node.span,
            format!("`{p}` must start with `./` (paths are relative to the plugin root)"),
            scope,
            Fate::Refused,
        );
        return false;
    }
    if let Some(ext) = rule.ext
        && !p.ends_with(ext)
    {
        let hint = if key == "agents" {
            " (`agents` lists agent files, not a folder: list each file, or leave `agents` out to read `agents/`)"
        } else {
            ""
        };
        cx.error(
            Code::InvalidValue,
            node.span,
            format!("`{p}` must end with `{ext}`{hint}"),
            scope,
            Fate::Refused,
        );
        return false;
    }
    if p.split(['/', '\\']).any(|seg| seg == "..") {
        let d = Diagnostic::new(
            Code::InvalidValue,
            node.span,
            format!(
                "`{p}` contains `..`: `claude plugin validate` rejects it, and Claude Code skips a path that leaves the plugin's folder"
            ),
        )
        .with_severity(Severity::Error)
        .with_effect(Effect::ValueIgnored);
        cx.out.push(d);
        return true;
    }
    if scope == Scope::Plugin {
        cx.file.paths.push(DeclaredPath {
            field: key,
            path: p.to_string(),
            span: node.span,
            want: rule.want,
        });
    }
    true
}

/// `hooks`, `mcpServers`, `lspServers`: a path, an inline object, or a list of those.
pub(super) fn inline_or_paths(cx: &mut Cx, key: &'static str, v: &Node, scope: Scope, rule: PathRule) {
    match &v.value {
        Value::Str(_) => {
            path(cx, key, v, scope, rule);
        }
        Value::Map(m) => inline(cx, key, m, scope),
        Value::Seq(items) => {
            for item in items.iter() {
                match &item.value {
                    Value::Str(_) => {
                        path(cx, key, item, scope, rule);
                    }
                    Value::Map(m) => inline(cx, key, m, scope),
                    Value::Unknown => {}
                    _ => cx.error(
                        Code::InvalidType,
                        item.span,
                        format!(
                            "the items of `{key}` must be paths or objects, not {}",
                            item.type_name()
                        ),
                        scope,
                        Fate::Refused,
                    ),
                }
            }
        }
        Value::Unknown => {}
        _ => cx.error(
            Code::InvalidType,
            v.span,
            format!(
                "`{key}` must be a `./` path, an object or a list of those, not {}",
                v.type_name()
            ),
            scope,
            Fate::Refused,
        ),
    }
}

pub(super) fn inline(cx: &mut Cx, key: &'static str, m: &Map, scope: Scope) {
    match key {
        "hooks" => {
            for e in m.entries.iter() {
                let event = e.key.name.as_str();
                if !hook_table::EVENTS.contains(&event) {
                    let near = suggest::closest(event, hook_table::EVENTS.iter().copied());
                    cx.warn(
                        Code::UnknownKey,
                        e.key.span,
                        format!(
                            "`{event}` is no hook event: Claude Code ignores its hooks.{}",
                            suggest::did_you_mean(near)
                        ),
                        Effect::ValueIgnored,
                    );
                    continue;
                }
                // A broken PreToolUse/PermissionRequest hook may be what guards the permissions
                // beside it: the plugin is refused. Any other broken entry is skipped.
                let guard = matches!(event, "PreToolUse" | "PermissionRequest");
                let problem = |cx: &mut Cx, code: Code, span: Span, what: String| {
                    if guard {
                        cx.error(code, span, what, scope, Fate::Refused);
                    } else {
                        cx.warn(
                            code,
                            span,
                            format!("{what}: Claude Code ignores this `{event}` entry"),
                            Effect::ValueIgnored,
                        );
                    }
                };
                let Value::Seq(matchers) = &e.value.value else {
                    if !e.value.is_unknown() {
                        problem(
                            cx,
                            Code::InvalidType,
                            e.value.span,
                            format!("`{event}` must be a list of matchers, not {}", e.value.type_name()),
                        );
                    }
                    continue;
                };
                for m in matchers.iter() {
                    let Value::Map(matcher) = &m.value else {
                        if !m.is_unknown() {
                            problem(
                                cx,
                                Code::InvalidType,
                                m.span,
                                format!("a matcher of `{event}` must be an object, not {}", m.type_name()),
                            );
                        }
                        continue;
                    };
                    let Some(hooks) = matcher.value("hooks") else { continue };
                    let Value::Seq(items) = &hooks.value else {
                        if !hooks.is_unknown() {
                            problem(
                                cx,
                                Code::InvalidType,
                                hooks.span,
                                format!(
                                    "`hooks` of a matcher must be a list of hooks, not {}",
                                    hooks.type_name()
                                ),
                            );
                        }
                        continue;
                    };
                    for h in items.iter() {
                        if let Some(t) = h.as_map().and_then(|m| m.value("type"))
                            && let Some(s) = t.as_str()
                            && !hook_table::TYPES.contains(&s)
                        {
                            problem(
                                cx,
                                Code::InvalidValue,
                                t.span,
                                format!("`{s}` is no hook type (one of {})", list(hook_table::TYPES)),
                            );
                        }
                    }
                }
            }
        }
        _ => {
            // An object of servers: each an object; MCP servers need `command` or `url`,
            // language servers `command` and `extensionToLanguage`.
            for e in m.entries.iter() {
                let name = &e.key.name;
                let Value::Map(server) = &e.value.value else {
                    if !e.value.is_unknown() {
                        cx.error(
                            Code::InvalidType,
                            e.value.span,
                            format!("the server `{name}` must be an object, not {}", e.value.type_name()),
                            scope,
                            Fate::Refused,
                        );
                    }
                    continue;
                };
                let has = |k: &str| server.value(k).is_some_and(|n| matches!(n.value, Value::Str(_)));
                let missing = if key == "mcpServers" {
                    (!has("command") && !has("url")).then_some("a `command` (or a `url`)")
                } else if !has("command") {
                    Some("a `command`")
                } else if !server.contains("extensionToLanguage") {
                    Some("an `extensionToLanguage` map")
                } else {
                    None
                };
                if let Some(what) = missing {
                    cx.error(
                        Code::MissingField,
                        e.key.span,
                        format!("the server `{name}` of `{key}` needs {what}"),
                        scope,
                        Fate::Refused,
                    );
                }
            }
        }
    }
}

/// `commands`: a path, a list of paths, or an object of named commands.
pub(super) fn commands(cx: &mut Cx, v: &Node, scope: Scope) {
    match &v.value {
        Value::Map(m) => {
            let mut named = Vec::new();
            let mut ok = true;
            for e in m.entries.iter() {
                let name = &e.key.name;
                let Value::Map(c) = &e.value.value else {
                    if !e.value.is_unknown() {
                        cx.error(
                            Code::InvalidType,
                            e.value.span,
                            format!("the command `{name}` must be an object, not {}", e.value.type_name()),
                            scope,
                            Fate::Refused,
                        );
                    }
                    ok = false;
                    continue;
                };
                match (c.value("source"), c.contains("content")) {
                    (Some(s), false) => {
                        if matches!(s.value, Value::Str(_)) && path(cx, "commands", s, scope, PathRule::ANY) {
                            named.push(CommandSource::Named {
                                name: name.clone(),
                                source: strip_dot(s.as_str().unwrap_or_default()),
                            });
                        } else if !matches!(s.value, Value::Str(_)) {
                            cx.error(
                                Code::InvalidType,
                                s.span,
                                format!(
                                    "the `source` of command `{name}` must be a `./` path, not {}",
                                    s.type_name()
                                ),
                                scope,
                                Fate::Refused,
                            );
                            ok = false;
                        }
                    }
                    (None, true) => {}
                    _ => {
                        cx.error(
                            Code::InvalidValue,
                            e.key.span,
                            format!(
                                "the command `{name}` must have either `source` (a file) or `content` (inline Markdown), not both or neither"
                            ),
                            scope,
                            Fate::Refused,
                        );
                        ok = false;
                    }
                }
            }
            if ok && scope == Scope::Plugin {
                cx.file.layout.commands = Some(named);
            }
        }
        _ => {
            if paths(cx, "commands", v, scope, PathRule::ANY) && scope == Scope::Plugin {
                cx.file.layout.commands = Some(
                    strings(v)
                        .into_iter()
                        .map(|s| CommandSource::Path(strip_dot(&s)))
                        .collect(),
                );
            }
        }
    }
}
