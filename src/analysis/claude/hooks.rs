//! Hooks, wherever Claude Code 2.1.332 reads them: a settings file's `hooks`, a plugin's
//! `hooks/hooks.json` or manifest `hooks`, an agent's frontmatter. One reading, one set of
//! checks; what a problem costs depends on where the hooks are written, so [`check`] reports each
//! problem with whether it sits under a guard event and the caller words the consequence.
//!
//! How the runtime reads them (measured with 2.1.332, `tests/claude_runtime`):
//! - an event it does not know is ignored; an event's matchers must be an array, each matcher an
//!   object with a string `matcher` (optional) and a `hooks` array of handlers, each handler an
//!   object whose `type` is `command`, `prompt`, `agent`, `http` or `mcp_tool` with that type's
//!   fields (see [`HANDLER`]); a broken entry is ignored and the rest is read;
//! - under `PreToolUse` and `PermissionRequest` (the [`GUARDS`]), a broken entry voids what holds
//!   it (the settings file with its permission rules, the agent, the plugin): such a hook may be
//!   what guards the permissions declared beside it;
//! - `hooks` that is not an object: a settings file ignores the field, an agent is not loaded.
//!
//! Beyond what the runtime refuses: a `matcher` on an event that ignores matchers, a `timeout`
//! that reads like milliseconds (the unit is seconds), a handler key no handler has, and the
//! script a `command` runs (handed to the workspace, which reports one that names no file).

use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Bound, Field, IssueKind, Lit, Num, Object, Rest, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

/// The hook events of 2.1.332.
pub const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
];

/// Hooks in the frontmatter of a skill or a command (`what`: "skill" or "command"), as Claude Code
/// 2.1.332 loads them (seen in its debug log): a broken entry under a guard event, `hooks` that
/// is not an object, or a guard event written outside `hooks` makes it load the skill with no
/// hooks and no `allowed-tools` (an error: what guarded it is gone); another broken entry is
/// ignored alone. The advice of [`check`] as it is.
pub fn in_frontmatter(map: &crate::analysis::syntax::Map, text: &str, what: &str, out: &mut Vec<Diagnostic>) {
    let lost = format!("Claude Code loads this {what} with no hooks and no `allowed-tools`");
    for e in map.entries.iter().filter(|e| GUARDS.contains(&e.key.name.as_str())) {
        // One finding for the key: this one, not also "no runtime reads it".
        out.retain(|d| !(d.code == Code::UnknownKey && d.span == e.key.span));
        out.push(
            Diagnostic::new(
                Code::UnknownKey,
                e.key.span,
                format!(
                    "`{}` is at the top of the frontmatter, outside `hooks`: {lost}",
                    e.key.name
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::ValueIgnored),
        );
    }
    let Some(hooks) = map.value("hooks") else {
        return;
    };
    let report = check(hooks, text);
    for p in &report.problems {
        let (severity, then) = if p.guard || p.whole {
            (Severity::Error, lost.clone())
        } else {
            (
                Severity::Warning,
                "Claude Code ignores this entry (the other hooks apply)".to_string(),
            )
        };
        out.push(
            Diagnostic::new(p.code, p.span, format!("{}: {then}", p.message))
                .with_severity(severity)
                .with_effect(Effect::ValueIgnored),
        );
    }
    out.extend(report.advice);
}

/// Events whose matcher is tested against the name of the tool called.
pub const TOOL_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionDenied",
];

/// What a tool event's matcher can never match, as Claude Code 2.1.332 reads it (and `/doctor`
/// says): a matcher of only names (letters, digits, `_`, `-`, spaces, split at `|` and `,`) is a
/// list of exact tool names, anything else a regular expression tested against the name. So a
/// name no tool has, an MCP server without its tool (`mcp__github`), a permission rule written as
/// the matcher (`Bash(git push *)`, whose rule goes in each handler's `if`) and a regular
/// expression that does not compile all leave the hooks never run.
fn tool_matcher(event: &str, s: &str, mt: &Node, handlers: Option<&Node>, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if s.is_empty() || s == "*" {
        return out;
    }
    let never = |what: String| format!("{what}, so these `{event}` hooks never run");
    // Offsets in the value map to the source when it is written without escapes.
    let raw = mt.span.text(text);
    let quoted = raw.len() >= 2 && (raw.starts_with('"') || raw.starts_with('\''));
    let inner = if quoted { &raw[1..raw.len() - 1] } else { raw };
    let exact = inner == s;
    let at = |start: usize, end: usize| {
        let skip = usize::from(quoted);
        if exact {
            Span::new(
                mt.span.start as usize + skip + start,
                mt.span.start as usize + skip + end,
            )
        } else {
            mt.span
        }
    };
    let warn = |span: Span, message: String| {
        Diagnostic::new(Code::UnknownTool, span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored)
    };
    let names_only = s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|' | ',' | ' ' | '-'));
    if names_only {
        let several = s.split(['|', ',']).filter(|p| !p.trim().is_empty()).count() > 1;
        let never = |what: String| {
            if several {
                format!("{what}, so it never triggers these `{event}` hooks")
            } else {
                format!("{what}, so these `{event}` hooks never run")
            }
        };
        let mut offset = 0;
        for part in s.split(['|', ',']) {
            let start = offset + (part.len() - part.trim_start().len());
            offset += part.len() + 1;
            let name = part.trim();
            if name.is_empty() || is_tool_name(name) {
                continue;
            }
            let span = at(start, start + name.len());
            if let Some(server) = name.strip_prefix("mcp__") {
                if server.contains("__") {
                    // A tool of an MCP server: which servers run is not known here.
                    continue;
                }
                let mut d = warn(
                    span,
                    never(format!(
                        "`{name}` matches no tool: an MCP server's tools are named `{name}__<tool>`; `{name}__.*` matches them all"
                    )),
                );
                if exact && !s.contains(',') {
                    d = d.with_suggestion(span, format!("{name}__.*"));
                }
                out.push(d);
                continue;
            }
            let near = closest(name, super::schema::TOOLS.iter().copied());
            let mut d = warn(
                span,
                never(format!(
                    "`{name}` matches no tool (a matcher of names takes each exactly, case included)"
                )) + &near.map(|_| format!(".{}", did_you_mean(near))).unwrap_or_default(),
            );
            if let Some(n) = near.filter(|_| exact) {
                d = d.with_suggestion(span, n);
            }
            out.push(d);
        }
        return out;
    }
    if let Some((tool, _)) = rule_as_matcher(s) {
        let mut d = warn(
            mt.span,
            never(format!(
                "`{s}` is a permission rule, not a tool name: as a matcher it is a regular expression that matches no tool"
            )) + &format!(". Put `{tool}` in `matcher` and the rule in each handler's `if`"),
        );
        if let Some(edits) = rule_into_if(s, tool, mt, handlers, text) {
            d = d.with_fix(format!("Match `{tool}` and move `{s}` into `if`"), edits, false);
        }
        out.push(d);
        return out;
    }
    if let Some(why) = js_regex_error(s) {
        out.push(warn(
            mt.span,
            never(format!(
                "`{s}` is not a valid regular expression ({why}): Claude Code logs \"Invalid regex pattern in hook matcher\""
            )),
        ));
    }
    out
}

/// A tool name Claude Code knows, or one of its old names.
fn is_tool_name(name: &str) -> bool {
    super::schema::TOOLS.contains(&name) || super::schema::LEGACY_TOOLS.iter().any(|(old, ..)| *old == name)
}

/// `Tool(specifier)` with a separator inside, as `/doctor` recognises a permission rule written as
/// a matcher (`^[A-Z]\w*\([^|()[? :/]+[ :/][^|()[?]*\)$`): the tool and the specifier.
fn rule_as_matcher(s: &str) -> Option<(&str, &str)> {
    let open = s.find('(')?;
    let (tool, rest) = (&s[..open], &s[open + 1..]);
    let spec = rest.strip_suffix(')')?;
    let mut chars = tool.chars();
    if !chars.next()?.is_ascii_uppercase() || !chars.all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let sep = spec.find([' ', ':', '/'])?;
    let special = |c: char| matches!(c, '|' | '(' | ')' | '[' | '?');
    (sep > 0 && !spec[..sep].contains(special) && !spec.contains(special)).then_some((tool, spec))
}

/// The edits that match `tool` and move `rule` into each handler's `if` (JSON only; none when a
/// handler has an `if` already, or the handlers are not a list of objects).
fn rule_into_if(rule: &str, tool: &str, mt: &Node, handlers: Option<&Node>, text: &str) -> Option<Vec<Edit>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let doc = crate::analysis::edit::Doc { text, yaml: false };
    let Value::Seq(items) = &handlers?.value else {
        return None;
    };
    let mut edits = vec![Edit::new(mt.span, doc.scalar(tool))];
    for h in items {
        let map = h.as_map()?;
        if map.contains("if") {
            return None;
        }
        edits.push(doc.insert_first(h, &[(doc.key("if"), doc.scalar(rule))])?);
    }
    Some(edits)
}

/// Why JavaScript's `new RegExp` refuses `s`, for what can be told without its engine: brackets
/// that do not close, a quantifier with nothing to repeat. `None` when it compiles (or when only
/// the engine could tell).
fn js_regex_error(s: &str) -> Option<&'static str> {
    let mut depth = 0usize;
    let mut class = false;
    let mut prev: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
                prev = Some('a');
                continue;
            }
            ']' if class => class = false,
            _ if class => {}
            '[' => class = true,
            '(' => depth += 1,
            ')' => {
                if depth == 0 {
                    return Some("a `)` with no `(`");
                }
                depth -= 1;
            }
            '*' | '+' | '?' if prev.is_none() || matches!(prev, Some('|')) => {
                return Some("a quantifier with nothing to repeat");
            }
            _ => {}
        }
        prev = Some(c);
    }
    if class {
        Some("a `[` that is never closed")
    } else if depth > 0 {
        Some("a `(` that is never closed")
    } else {
        None
    }
}

/// Events whose broken entry voids what holds it.
pub const GUARDS: &[&str] = &["PreToolUse", "PermissionRequest"];

/// Events that take no matcher: their hooks run whatever the matcher says.
pub const NO_MATCHER: &[&str] = &[
    "UserPromptSubmit",
    "Stop",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "WorktreeCreate",
    "MessageDisplay",
];

/// The handler types.
pub const TYPES: &[&str] = &["command", "prompt", "agent", "http", "mcp_tool"];

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;
const SECONDS: Shape = Shape::Num(Num {
    int: false,
    min: Bound::Excl(0.0),
    max: None,
});
const TIMEOUT: &str = "Seconds the hook may run before it is stopped.";
const IF: &str = "A permission rule (`Bash(git *)`) the tool call must match for the hook to run.";
const STATUS: &str = "The text shown while the hook runs.";
const ONCE: &str = "Run once, then remove the hook.";
const ON_FAILURE: Shape = Shape::Lit(&[Lit::Str("continue"), Lit::Str("block")]);

static COMMAND: Object = Object {
    what: "a command hook",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("command")]),
            "`command`: run a shell command.",
        ),
        Field::req(
            "command",
            STR,
            "The command; `$CLAUDE_PROJECT_DIR` is the project, `${CLAUDE_PLUGIN_ROOT}` a plugin's folder.",
        ),
        Field::opt(
            "args",
            Shape::Array(&STR),
            "Arguments: `command` is then run as a program with them, without a shell.",
        ),
        Field::opt("if", STR, IF),
        Field::opt(
            "shell",
            Shape::Lit(&[Lit::Str("bash"), Lit::Str("powershell")]),
            "`bash` or `powershell`.",
        ),
        Field::opt("timeout", SECONDS, TIMEOUT),
        Field::opt("onFailure", ON_FAILURE, "`continue` or `block` when the hook fails."),
        Field::opt("statusMessage", STR, STATUS),
        Field::opt("once", BOOL, ONCE),
        Field::opt("async", BOOL, "Run in the background without waiting."),
        Field::opt("asyncRewake", BOOL, "Wake Claude when the background hook ends."),
        Field::opt("holdsTools", BOOL, "Hold the tools while the background hook runs."),
        Field::opt("rewakeMessage", STR, "The message Claude gets when it is woken."),
        Field::opt("rewakeSummary", STR, "The summary shown when Claude is woken."),
        Field::opt(
            "cloud",
            Shape::Lit(&[Lit::Str("device"), Lit::Str("skip")]),
            "Where the hook runs in cloud sessions.",
        ),
    ],
    rest: Rest::Drop,
};

static PROMPT: Object = Object {
    what: "a prompt hook",
    fields: &[
        Field::req("type", Shape::Lit(&[Lit::Str("prompt")]), "`prompt`: ask a model."),
        Field::req("prompt", STR, "The prompt; `$ARGUMENTS` is the hook's input."),
        Field::opt("if", STR, IF),
        Field::opt("timeout", SECONDS, TIMEOUT),
        Field::opt("model", STR, "The model asked."),
        Field::opt("continueOnBlock", BOOL, "Go on when the answer blocks."),
        Field::opt("statusMessage", STR, STATUS),
        Field::opt("once", BOOL, ONCE),
    ],
    rest: Rest::Drop,
};

static AGENT: Object = Object {
    what: "an agent hook",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("agent")]),
            "`agent`: run an agent that verifies.",
        ),
        Field::req(
            "prompt",
            STR,
            "What the agent checks; `$ARGUMENTS` is the hook's input.",
        ),
        Field::opt("if", STR, IF),
        Field::opt("timeout", SECONDS, TIMEOUT),
        Field::opt("model", STR, "The agent's model."),
        Field::opt("statusMessage", STR, STATUS),
        Field::opt("once", BOOL, ONCE),
    ],
    rest: Rest::Drop,
};

static HTTP: Object = Object {
    what: "an HTTP hook",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("http")]),
            "`http`: post the hook's input to a URL.",
        ),
        Field::req("url", STR, "The URL."),
        Field::opt("if", STR, IF),
        Field::opt("timeout", SECONDS, TIMEOUT),
        Field::opt("onFailure", ON_FAILURE, "`continue` or `block` when the call fails."),
        Field::opt(
            "headers",
            Shape::Record(&STR),
            "HTTP headers (`$VAR` from `allowedEnvVars`).",
        ),
        Field::opt(
            "allowedEnvVars",
            Shape::Array(&STR),
            "Environment variables the headers may use.",
        ),
        Field::opt("statusMessage", STR, STATUS),
        Field::opt("once", BOOL, ONCE),
        Field::opt(
            "cloud",
            Shape::Lit(&[Lit::Str("device"), Lit::Str("skip")]),
            "Where the hook runs in cloud sessions.",
        ),
    ],
    rest: Rest::Drop,
};

static MCP_TOOL: Object = Object {
    what: "an MCP tool hook",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("mcp_tool")]),
            "`mcp_tool`: call a tool of an MCP server.",
        ),
        Field::req("server", STR, "The MCP server."),
        Field::req("tool", STR, "The tool."),
        Field::opt("input", Shape::Record(&Shape::Any), "The tool's input."),
        Field::opt("if", STR, IF),
        Field::opt("timeout", SECONDS, TIMEOUT),
        Field::opt("onFailure", ON_FAILURE, "`continue` or `block` when the call fails."),
        Field::opt("statusMessage", STR, STATUS),
        Field::opt("once", BOOL, ONCE),
    ],
    rest: Rest::Drop,
};

/// A handler: one of the five types, told apart by `type`.
pub static HANDLER: Shape = Shape::Union(&[
    Shape::Object(&COMMAND),
    Shape::Object(&PROMPT),
    Shape::Object(&AGENT),
    Shape::Object(&HTTP),
    Shape::Object(&MCP_TOOL),
]);

/// A matcher: what it matches and its handlers (for completion and hover).
pub static MATCHER: Shape = Shape::Object(&Object {
    what: "a hook matcher",
    fields: &[
        Field::opt(
            "matcher",
            STR,
            "What the event must match: tool names for tool events (`Bash`, `Edit|Write`, a regular expression); other events match other values.",
        ),
        Field::req(
            "hooks",
            Shape::Array(&HANDLER),
            "The handlers run when the matcher matches.",
        ),
    ],
    rest: Rest::Drop,
});

/// Something the runtime cannot load.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub span: Span,
    pub code: Code,
    /// What is wrong (the caller adds what it costs).
    pub message: String,
    /// Under a guard event: what holds the hooks is voided.
    pub guard: bool,
    /// `hooks` itself is not an object.
    pub whole: bool,
}

/// The script a `command` handler runs, as written (`$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    pub span: Span,
    pub path: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub problems: Vec<Problem>,
    /// Warnings about what loads but is likely a mistake (or is ignored).
    pub advice: Vec<Diagnostic>,
    pub scripts: Vec<Script>,
}

impl Report {
    /// The first problem under a guard event, if any (what voids the container).
    pub fn voiding(&self) -> Option<&Problem> {
        self.problems.iter().find(|p| p.guard || p.whole)
    }
}

/// Read a `hooks` value as Claude Code reads it.
pub fn check(node: &Node, text: &str) -> Report {
    let mut r = Report::default();
    let Value::Map(events) = &node.value else {
        if !matches!(node.value, Value::Unknown | Value::Null) {
            r.problems.push(Problem {
                span: node.span,
                code: Code::InvalidType,
                message: format!(
                    "`hooks` must be an object of hook event to matchers, not {}",
                    node.type_name()
                ),
                guard: false,
                whole: true,
            });
        }
        return r;
    };
    for (key, value) in events.js_entries() {
        let event = key.name.as_str();
        if !EVENTS.contains(&event) {
            let near = closest(event, EVENTS.iter().copied());
            let mut d = Diagnostic::new(
                Code::UnknownKey,
                key.span,
                format!(
                    "`{event}` is not a hook event: Claude Code ignores its hooks.{}",
                    did_you_mean(near)
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored);
            if let Some(n) = near {
                d = d.with_suggestion(key.span, format!("\"{n}\""));
            }
            r.advice.push(d);
            continue;
        }
        let guard = GUARDS.contains(&event);
        let problem = |r: &mut Report, span: Span, code: Code, message: String| {
            r.problems.push(Problem {
                span,
                code,
                message,
                guard,
                whole: false,
            })
        };
        let Value::Seq(matchers) = &value.value else {
            if !value.is_unknown() {
                problem(
                    &mut r,
                    value.span,
                    Code::InvalidType,
                    format!("`{event}` must be an array of matchers, not {}", value.type_name()),
                );
            }
            continue;
        };
        for (i, m) in matchers.iter().enumerate() {
            let Some(mm) = m.as_map() else {
                if !m.is_unknown() {
                    problem(
                        &mut r,
                        m.span,
                        Code::InvalidType,
                        format!(
                            "a matcher of `{event}` must be an object with `hooks`, not {}",
                            m.type_name()
                        ),
                    );
                }
                continue;
            };
            if let Some(mt) = mm.value("matcher") {
                // (A matcher with no handlers is a problem of its own.)
                if let (Value::Str(s), true, Some(Value::Seq(_))) = (
                    &mt.value,
                    TOOL_EVENTS.contains(&event),
                    mm.value("hooks").map(|h| &h.value),
                ) {
                    r.advice.extend(tool_matcher(event, s, mt, mm.value("hooks"), text));
                }
                match &mt.value {
                    Value::Str(s) if NO_MATCHER.contains(&event) && !s.is_empty() && s != "*" => {
                        r.advice.push(
                            Diagnostic::new(
                                Code::IgnoredField,
                                mt.span,
                                format!(
                                    "`{event}` takes no matcher: its hooks run every time, whatever `\"{s}\"` says"
                                ),
                            )
                            .with_severity(Severity::Warning)
                            .with_effect(Effect::ValueIgnored),
                        );
                    }
                    Value::Str(_) | Value::Null | Value::Unknown => {}
                    _ => {
                        problem(
                            &mut r,
                            mt.span,
                            Code::InvalidType,
                            format!("`{event}.{i}.matcher` must be a string, not {}", mt.type_name()),
                        );
                        continue;
                    }
                }
            }
            if event == "PermissionRequest"
                && let Some(hooks) = mm.get("hooks")
                && matches!(&hooks.value.value, Value::Seq(items) if !items.is_empty())
            {
                every_request(mm, hooks, &mut r);
            }
            let handlers = match mm.get("hooks") {
                Some(e) => &e.value,
                None => {
                    let at = mm.entries.first().map_or(m.span, |e| e.key.span);
                    problem(
                        &mut r,
                        at,
                        Code::MissingField,
                        format!("this matcher of `{event}` has no `hooks` array of handlers"),
                    );
                    continue;
                }
            };
            let Value::Seq(items) = &handlers.value else {
                if !handlers.is_unknown() {
                    problem(
                        &mut r,
                        handlers.span,
                        Code::InvalidType,
                        format!(
                            "`hooks` of a matcher must be an array of handlers, not {}",
                            handlers.type_name()
                        ),
                    );
                }
                continue;
            };
            for (j, h) in items.iter().enumerate() {
                let path = vec![event.to_string(), i.to_string(), "hooks".to_string(), j.to_string()];
                handler(h, &path, text, guard, &mut r);
            }
        }
    }
    // Hooks that void what holds them answer nothing: that problem is the finding.
    if r.voiding().is_some() {
        r.advice.retain(|d| d.code != Code::BroadGrant);
    }
    r
}

fn handler(h: &Node, path: &[String], text: &str, guard: bool, r: &mut Report) {
    let Some(map) = h.as_map() else {
        if !h.is_unknown() {
            r.problems.push(Problem {
                span: h.span,
                code: Code::InvalidType,
                message: format!("a hook handler must be an object with `type`, not {}", h.type_name()),
                guard,
                whole: false,
            });
        }
        return;
    };
    let decoded = shape::decode(h, &HANDLER, h.span, path);
    let at = path.join(".");
    for issue in &decoded.issues {
        let field = issue.path.last().map_or("value", String::as_str);
        let must = |what: &str, got: &Node| format!("`{field}` must be {what}, got {}", got.display());
        let (code, message) = match &issue.kind {
            IssueKind::NoBranch { got, tag, .. } => match tag.and_then(|(_, v)| v) {
                Some(v) => {
                    let s = v.as_str().unwrap_or_default();
                    let near = closest(s, TYPES.iter().copied());
                    (
                        Code::InvalidValue,
                        format!(
                            "`{}` is not a hook type (`command`, `prompt`, `agent`, `http` or `mcp_tool`){}",
                            v.display().trim_matches('"'),
                            near.map(|n| format!(". Did you mean `{n}`?")).unwrap_or_default()
                        ),
                    )
                }
                None if got.as_map().is_some() => (
                    Code::MissingField,
                    "this hook handler has no `type` (`command`, `prompt`, `agent`, `http` or `mcp_tool`)".to_string(),
                ),
                None => (Code::InvalidType, format!("`{at}` must be a hook handler object")),
            },
            IssueKind::Missing { object, field } => (
                Code::MissingField,
                format!("{} needs `{}`", capital(object.what), field.name),
            ),
            IssueKind::Type { expected, got } => (Code::InvalidType, must(&shape::describe(expected), got)),
            IssueKind::Value { expected, got } => (Code::InvalidValue, must(&shape::describe(expected), got)),
            IssueKind::Number { num, got } => (Code::InvalidValue, must(&num.describe(), got)),
            IssueKind::Unknown { .. } | IssueKind::Extra { .. } | IssueKind::MissingItem { .. } => (
                Code::InvalidValue,
                format!("`{at}` is not a hook handler Claude Code reads"),
            ),
        };
        // The handler's `type` span when the tag is wrong; a missing field on the handler's
        // opening, the value otherwise.
        let span = if matches!(issue.kind, IssueKind::Missing { .. }) || issue.span == h.span {
            map.value("type").map_or(h.span, |t| t.span)
        } else {
            issue.span
        };
        r.problems.push(Problem {
            span,
            code,
            message,
            guard,
            whole: false,
        });
    }
    if decoded.refused() {
        return;
    }
    for d in &decoded.dropped {
        let key = d.key.name.as_str();
        let near = d.object.suggest(key);
        let mut diag = Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "`{key}` is not a field of {}: Claude Code ignores it.{}",
                d.object.what,
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near {
            diag = diag.with_suggestion(d.key.span, format!("\"{n}\""));
        }
        r.advice.push(diag);
    }
    // A timeout in milliseconds where the unit is seconds.
    if let Some(t) = map.value("timeout")
        && let Some(n) = t.as_f64()
        && n >= 1000.0
    {
        let minutes = n / 60.0;
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            t.span,
            format!(
                "a hook's `timeout` is in seconds: {} is {:.0} minutes. Did you mean {}?",
                t.display(),
                minutes,
                fmt(n / 1000.0)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::Works);
        if (n / 1000.0).fract() == 0.0 {
            d = d.with_fix(
                format!("Write {} seconds", fmt(n / 1000.0)),
                vec![Edit::new(t.span, fmt(n / 1000.0))],
                false,
            );
        }
        r.advice.push(d);
    }
    if map.value("type").and_then(Node::as_str) == Some("command")
        && let Some(c) = map.value("command")
        && let Some(command) = c.as_str()
        // With `args` the command is run without a shell; PowerShell quotes otherwise.
        && map.value("args").is_none()
        && map.value("shell").and_then(Node::as_str) != Some("powershell")
    {
        let blocks = map.value("onFailure").and_then(Node::as_str) == Some("block");
        let event = path.first().map_or("", String::as_str);
        for e in exposed_path_variables(command) {
            r.advice.push(exposed_diagnostic(&e, command, c, text, event, blocks));
        }
        for (start, end) in relative_scripts(command) {
            r.advice
                .push(relative_diagnostic(start..end, command, c, text, event, blocks));
        }
    }
    if map.value("type").and_then(Node::as_str) == Some("command")
        && let Some(c) = map.value("command")
        && let Some(command) = c.as_str()
    {
        // The path's own span where the value holds it as written (no escape before it).
        for path in script_paths(command) {
            // The whole path, else what follows its variable (`"$CLAUDE_PROJECT_DIR"/x.sh`).
            let tail = path.find('/').map_or(path.as_str(), |i| &path[i..]);
            let span = [path.as_str(), tail]
                .into_iter()
                .find_map(|p| once_in(c, text, p))
                .unwrap_or(c.span);
            r.scripts.push(Script { span, path });
        }
    }
}

/// `broad-grant`: a `PermissionRequest` matcher that takes in every tool (no `matcher`, `""`,
/// `*`): its hooks answer every permission request, on the matcher (or beside it, on `hooks`).
fn every_request(mm: &crate::analysis::syntax::Map, hooks: &crate::analysis::syntax::Entry, r: &mut Report) {
    let matcher = mm.value("matcher");
    let span = match matcher.map(|m| (&m.value, m.span)) {
        None | Some((Value::Null, _)) => hooks.key.span,
        Some((Value::Str(s), span)) if matches!(s.trim(), "" | "*" | ".*") => span,
        _ => return,
    };
    r.advice.push(Diagnostic::new(
        Code::BroadGrant,
        span,
        "this `PermissionRequest` hook runs on every permission request, for every tool (Bash, Write, WebFetch, each MCP server's): whatever its command answers, it answers for all of them. Name the tools it is for, as in `\"matcher\": \"Bash\"`",
    ));
}

/// The variables Claude Code sets to a folder's path for a hook's command.
const PATH_VARIABLES: &[&str] = &["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// A path variable a command leaves outside double quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exposed {
    /// Byte range of `$NAME` or `${NAME...}` in the command.
    pub start: usize,
    pub end: usize,
    pub name: &'static str,
    /// In single quotes: the shell does not expand it at all.
    pub single: bool,
}

/// The path variables ([`PATH_VARIABLES`]) that the shell line `command` leaves outside double
/// quotes, where `/bin/sh` splits their value at its spaces (measured with Claude Code 2.1.332:
/// the hook's shell expands them from the environment, `${CLAUDE_PLUGIN_ROOT}` included). Not
/// reported: an assignment (`DIR=$CLAUDE_PROJECT_DIR/x`, which is not split), and a line with
/// a command substitution, `[[`, `case` or a here-document, whose quoting is not read here.
pub fn exposed_path_variables(command: &str) -> Vec<Exposed> {
    let mut out = Vec::new();
    if !PATH_VARIABLES.iter().any(|v| command.contains(v))
        || command.contains("$(")
        || command.contains('`')
        || command.contains("[[")
        || command.contains("<<")
        || command.split_whitespace().any(|w| w == "case")
    {
        return out;
    }
    #[derive(PartialEq)]
    enum Q {
        None,
        Single,
        Double,
    }
    let bytes = command.as_bytes();
    let mut q = Q::None;
    let mut word_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (&q, b) {
            (Q::Single, b'\'') => q = Q::None,
            (Q::Double, b'"') => q = Q::None,
            (Q::Double | Q::None, b'\\') => i += 1,
            (Q::None, b'\'') => q = Q::Single,
            (Q::None, b'"') => q = Q::Double,
            (Q::None, b'#') if i == word_start => break,
            (Q::None, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')') => word_start = i + 1,
            (Q::None | Q::Single, b'$') => {
                if let Some((name, end)) = path_variable(&command[i + 1..]) {
                    let word = &command[word_start..i];
                    let assignment = crate::analysis::launch::is_assignment(word);
                    if !assignment {
                        out.push(Exposed {
                            start: i,
                            end: i + 1 + end,
                            name,
                            single: q == Q::Single,
                        });
                    }
                    i += end;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `NAME` or `{NAME...}` at the start of `rest` (what follows a `$`) for a path variable: its
/// name and the length taken.
fn path_variable(rest: &str) -> Option<(&'static str, usize)> {
    let braced = rest.strip_prefix('{');
    let body = braced.unwrap_or(rest);
    let name = PATH_VARIABLES.iter().find(|v| {
        body.starts_with(*v) && !body[v.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    })?;
    match braced {
        Some(b) => b.find('}').map(|close| (*name, close + 2)),
        None => Some((*name, name.len())),
    }
}

/// The finding on a path variable outside double quotes in hook `command` (the value `c`), with
/// the fix that quotes it where the value is written as it reads.
fn exposed_diagnostic(e: &Exposed, command: &str, c: &Node, text: &str, event: &str, blocks: bool) -> Diagnostic {
    let written = &command[e.start..e.end];
    let at = crate::analysis::syntax::content_start(c, text, command);
    let span = at.map_or(c.span, |a| Span::new(a + e.start, a + e.end));
    if e.single {
        return Diagnostic::new(
            Code::UnquotedPathVariable,
            span,
            format!(
                "`{written}` is in single quotes, where the shell does not expand it: the command names a file called `{written}...`, which does not exist, so the hook always fails. Write it in double quotes: `\"{written}\"`"
            ),
        );
    }
    let fails = match (event, blocks) {
        ("PreToolUse", false) => {
            "the hook fails (status 127), and a PreToolUse hook that fails blocks nothing: the tool call goes ahead unchecked"
        }
        ("PreToolUse", true) => {
            "the hook fails (status 127), and with `onFailure: block` every call it guards is refused"
        }
        _ => "the hook fails (status 127)",
    };
    let mut d = Diagnostic::new(
        Code::UnquotedPathVariable,
        span,
        format!(
            "`{written}` is not in double quotes: where the folder's path holds a space (`/Users/ana/My Projects/app`), the shell splits the command there, the script is not found and {fails}. Write `\"{written}\"`"
        ),
    );
    if let Some(a) = at {
        let source = c.span.text(text);
        let quote = if source.starts_with('"') { "\\\"" } else { "\"" };
        let title = format!("Quote `{written}`");
        if source.starts_with(['"', '\'']) || e.start > 0 {
            d = d.with_fix(
                title,
                vec![
                    Edit::new(Span::new(a + e.start, a + e.start), quote),
                    Edit::new(Span::new(a + e.end, a + e.end), quote),
                ],
                true,
            );
        } else if !command.contains(['\'', '\n']) {
            // A `"` would open a quoted scalar at the start of a plain YAML value: the value is
            // written in single quotes instead.
            let quoted = format!("'\"{written}\"{}'", &command[e.end..]);
            d = d.with_fix(title, vec![Edit::new(c.span, quoted)], true);
        }
    }
    d
}

/// Programs that run the script their first argument names.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "python", "python3", "node", "bun", "deno", "ruby", "perl", "php", "uv", "tsx",
];

/// The scripts a hook command runs by a path relative to the current folder (`.claude/hooks/x.sh`,
/// `./guard.sh`, `python3 scripts/check.py`): their byte ranges in `command`, quotes included.
/// Only the program of each simple command, or the script an interpreter is given; none when
/// the command changes folder itself (`cd "$CLAUDE_PROJECT_DIR" && ...`), or has a command
/// substitution, `[[`, `case` or a here-document, whose words agent-lsp does not read.
pub fn relative_scripts(command: &str) -> Vec<(usize, usize)> {
    if command.contains("$(") || command.contains('`') || command.contains("[[") || command.contains("<<") {
        return Vec::new();
    }
    // The words of each simple command, as byte ranges (quotes kept, a backslash escapes).
    let mut commands: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
    let bytes = command.as_bytes();
    let mut quote: Option<u8> = None;
    let mut start: Option<usize> = None;
    // The next word is a redirection's file (`> logs/out.txt`), not an argument.
    let mut redirect = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (Some(b'"'), b'\\') => i += 1,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => {
                quote = Some(b);
                start.get_or_insert(i);
            }
            (None, b'\\') => {
                start.get_or_insert(i);
                i += 1;
            }
            (None, b'#') if start.is_none() => break,
            (None, b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')') => {
                if let Some(s) = start.take()
                    && let Some(words) = commands.last_mut()
                {
                    // A descriptor before a redirection (`2>`) is not a word either.
                    let descriptor = matches!(b, b'<' | b'>') && bytes[s..i].iter().all(u8::is_ascii_digit);
                    if !std::mem::take(&mut redirect) && !descriptor {
                        words.push((s, i));
                    }
                }
                match b {
                    b'<' | b'>' => redirect = true,
                    // `>&2`, `2>&1`: a descriptor, not a new command.
                    b'&' if i > 0 && bytes[i - 1] == b'>' => {}
                    b' ' | b'\t' => {}
                    _ => {
                        redirect = false;
                        commands.push(Vec::new());
                    }
                }
            }
            (None, _) => {
                start.get_or_insert(i);
            }
        }
        i += 1;
    }
    if let Some(s) = start
        && let Some(words) = commands.last_mut()
        && !redirect
    {
        words.push((s, command.len().min(i)));
    }
    let plain = |(s, e): (usize, usize)| command[s..e].replace(['"', '\''], "");
    let mut out = Vec::new();
    for words in &commands {
        let mut rest = words
            .iter()
            .copied()
            .skip_while(|&w| crate::analysis::launch::is_assignment(&plain(w)));
        let Some(program) = rest.next() else { continue };
        let name = plain(program);
        if matches!(name.as_str(), "cd" | "pushd" | "case") {
            return Vec::new();
        }
        let script = if relative_path(&name) {
            Some(program)
        } else if INTERPRETERS.contains(&name.rsplit('/').next().unwrap_or("")) {
            rest.find(|&w| !plain(w).starts_with('-') && plain(w) != "run")
                .filter(|&w| relative_path(&plain(w)))
        } else {
            None
        };
        out.extend(script);
    }
    out
}

/// A path the shell looks up from the current folder: it has a `/`, and starts with neither `/`,
/// `~` nor a variable; nothing in it that agent-lsp cannot read (a glob, an expansion).
fn relative_path(word: &str) -> bool {
    word.contains('/')
        && !word.starts_with(['/', '~', '$', '-'])
        && !word.contains("://")
        && !word.contains(['$', '*', '?', '[', '`', '(', '=', '{'])
}

/// Where `p` is written in the source of the value `c`, when it is there exactly once.
fn once_in(c: &Node, text: &str, p: &str) -> Option<Span> {
    let raw = c.span.text(text);
    match (raw.find(p), raw.matches(p).count()) {
        (Some(at), 1) => Some(Span::new(
            c.span.start as usize + at,
            c.span.start as usize + at + p.len(),
        )),
        _ => None,
    }
}

/// The finding on a script a hook runs by a relative path (the word at `at` of `command`, the
/// value `c`).
fn relative_diagnostic(
    at: std::ops::Range<usize>,
    command: &str,
    c: &Node,
    text: &str,
    event: &str,
    blocks: bool,
) -> Diagnostic {
    let path = command[at.clone()].replace(['"', '\''], "");
    // Where the value is written as it reads, the word's own span; else the path where the
    // source holds it once (escapes elsewhere in the value), else the value's.
    let span = match crate::analysis::syntax::content_start(c, text, command) {
        Some(a) => Span::new(a + at.start, a + at.end),
        None => once_in(c, text, &path).unwrap_or(c.span),
    };
    let fails = match (event, blocks) {
        ("PreToolUse", false) => {
            "the script is not found (status 127), and a PreToolUse hook that fails blocks nothing: the tool call goes ahead unchecked"
        }
        ("PreToolUse", true) => "the script is not found, and with `onFailure: block` every call it guards is refused",
        _ => "the script is not found (status 127) and the hook does nothing",
    };
    let anchored = path.trim_start_matches("./");
    Diagnostic::new(
        Code::RelativeHookPath,
        span,
        format!(
            "`{path}` is relative to the folder Claude Code is in when the hook runs, and that folder moves when the model runs `cd`: from a subfolder {fails}. Write `\"$CLAUDE_PROJECT_DIR\"/{anchored}` (in a plugin, `\"${{CLAUDE_PLUGIN_ROOT}}\"/{anchored}`)"
        ),
    )
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn fmt(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// The script paths a command names: words under `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}`
/// or relative to the project (`./x`, `.claude/...`), quotes removed. Words with another variable,
/// a glob or a command substitution are left out (nothing can be said of them).
pub fn script_paths(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in words(command) {
        let anchored = [
            "$CLAUDE_PROJECT_DIR/",
            "${CLAUDE_PROJECT_DIR}/",
            "${CLAUDE_PLUGIN_ROOT}/",
            "$CLAUDE_PLUGIN_ROOT/",
        ]
        .iter()
        .any(|p| word.starts_with(p));
        let relative = word.starts_with("./") || word.starts_with(".claude/");
        if !(anchored || relative) {
            continue;
        }
        let rest = word
            .trim_start_matches("${CLAUDE_PROJECT_DIR}")
            .trim_start_matches("$CLAUDE_PROJECT_DIR")
            .trim_start_matches("${CLAUDE_PLUGIN_ROOT}")
            .trim_start_matches("$CLAUDE_PLUGIN_ROOT");
        if rest.contains(['$', '*', '?', '[', '`', '(']) {
            continue;
        }
        out.push(word);
    }
    out
}

/// A command's words, shell-style: quotes group, a backslash escapes, `;`, `&`, `|` split.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (None, c) if c.is_whitespace() || matches!(c, ';' | '&' | '|' | '<' | '>') => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests;
