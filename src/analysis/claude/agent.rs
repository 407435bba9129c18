//! The checks of one Claude Code agent file and the agent the loader builds from it (spec
//! §7.4-7.6 for project and user agents, §7.9 for plugin agents).
//!
//! Severity follows what Claude Code does (§7.10): an error only where the loader skips the
//! file; a warning where it loads the agent with a value dropped or changed, or only thanks to
//! its retry; info for a Markdown file it treats as a reference document (no frontmatter, no
//! `name`).

use super::read::{Outcome, Reading};
use super::schema::{self, FieldType};
use super::tools::{self, List};
use super::{FileKind, MAX_BYTES, Source, first_line};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Map, Node, Style, Value};
use crate::analysis::text::Span;

/// Whether Claude Code loads the file as an agent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Status {
    #[default]
    Loaded,
    /// Not an agent: a reference document (no frontmatter, no `name`).
    NotAgent(String),
    /// Skipped with a reason in the debug log.
    Skipped(String),
}

/// One setting as the loader keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub key: &'static str,
    /// The value as Claude Code uses it (after its conversions: `manual` is `default`, `med` is
    /// `medium`, `"20 turns"` is 20).
    pub value: String,
    pub span: Span,
}

/// The agent Claude Code builds from one file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Agent {
    /// The agent type it registers (`name`, or the file name for a plugin agent without one).
    pub name: Option<String>,
    /// Where the name is written: the `name` value, else the file's first line.
    pub name_span: Span,
    pub status: Status,
    pub description: Option<String>,
    /// Every other field the loader keeps, in file order.
    pub settings: Vec<Setting>,
    /// `tools` (None: every tool of the parent).
    pub tools: Option<List>,
    pub disallowed: Option<List>,
    /// Agent types named in `Agent(...)`/`Task(...)` entries of `tools`.
    pub agent_refs: Vec<(String, Span)>,
    /// The entries of `skills` (skills preloaded into the agent), with the spans of those a fix
    /// may replace exactly.
    pub skills: Vec<(String, Span, bool)>,
}

impl Agent {
    pub fn loaded(&self) -> bool {
        self.status == Status::Loaded && self.name.is_some()
    }

    pub fn setting(&self, key: &str) -> Option<&Setting> {
        self.settings.iter().rev().find(|s| s.key == key)
    }
}

struct Ctx<'a> {
    text: &'a str,
    kind: &'a FileKind,
    out: Vec<Diagnostic>,
}

impl Ctx<'_> {
    fn push(&mut self, code: Code, severity: Severity, effect: Effect, span: Span, message: String) -> &mut Diagnostic {
        self.out.push(
            Diagnostic::new(code, span, message)
                .with_severity(severity)
                .with_effect(effect),
        );
        self.out.last_mut().expect("just pushed")
    }

    /// A value dropped or changed: a warning.
    fn dropped(&mut self, code: Code, span: Span, message: String) -> &mut Diagnostic {
        self.push(code, Severity::Warning, Effect::ValueIgnored, span, message)
    }

    /// The file is skipped: an error.
    fn skipped(&mut self, code: Code, span: Span, message: String) -> &mut Diagnostic {
        self.push(code, Severity::Error, Effect::FileIgnored, span, message)
    }
}

/// Check one file and build its agent.
pub fn check(kind: &FileKind, text: &str, reading: &Reading) -> (Vec<Diagnostic>, Agent) {
    let mut cx = Ctx {
        text,
        kind,
        out: Vec::new(),
    };
    let mut agent = build(&mut cx, reading);
    // §7.9: a plugin agent that loads with no description of its own (none, not a string, no
    // frontmatter, a frontmatter that does not parse) is listed with Claude Code's default.
    if let Source::Plugin { plugin } = &kind.source
        && agent.description.is_none()
        && agent.loaded()
    {
        // The plugin's own name (the namespace also holds the agent's sub-folders).
        let plugin = plugin.split(':').next().unwrap_or(plugin);
        agent.description = Some(format!("Agent from {plugin} plugin"));
    }
    (cx.out, agent)
}

fn build(cx: &mut Ctx, reading: &Reading) -> Agent {
    let text = cx.text;
    let plugin = cx.kind.is_plugin();
    let mut agent = Agent {
        name_span: first_line(text),
        ..Agent::default()
    };
    if text.len() > MAX_BYTES {
        let message = format!(
            "this file is {} bytes; Claude Code skips agent files over {MAX_BYTES} bytes (1 MiB)",
            text.len()
        );
        cx.skipped(Code::InvalidValue, first_line(text), message);
        agent.status = Status::Skipped("over 1 MiB".into());
        return agent;
    }
    let Some(block) = &reading.block else {
        let message = if plugin {
            "no frontmatter: Claude Code loads this plugin agent under its file name, with no description of its own"
                .to_string()
        } else {
            let misplaced = text.lines().skip(1).any(|l| l.trim_end() == "---");
            if misplaced {
                "no frontmatter: a frontmatter must start with `---` on the very first line. Claude Code treats this file as a reference document, not an agent".to_string()
            } else {
                "no frontmatter: Claude Code treats this file as a reference document, not an agent".to_string()
            }
        };
        cx.push(
            Code::NoFrontmatter,
            Severity::Info,
            Effect::FileIgnored,
            first_line(text),
            message,
        );
        if plugin {
            agent.name = Some(cx.kind.stem.clone());
        } else {
            agent.status = Status::NotAgent("no frontmatter".into());
        }
        return agent;
    };
    if block.early {
        cx.out.push(truncated(block, reading));
    }
    let crlf = text[block.yaml.range()].contains("\r\n");
    match reading.outcome {
        Outcome::Failed => {
            let (span, why) = reading
                .first_errors
                .first()
                .map(|e| (e.span, e.message.clone()))
                .unwrap_or((block.open, "not YAML".into()));
            let hint = if crlf {
                " The file has CRLF line endings, so Claude Code's lenient retry (which quotes values with `: `) does nothing for it"
            } else {
                ""
            };
            if plugin {
                cx.dropped(
                    Code::SyntaxError,
                    span,
                    format!(
                        "the frontmatter does not parse ({why}), even with Claude Code's lenient retry; the plugin agent loads under its file name with no settings.{hint}"
                    ),
                );
                agent.name = Some(cx.kind.stem.clone());
            } else {
                cx.skipped(
                    Code::SyntaxError,
                    span,
                    format!(
                        "the frontmatter does not parse ({why}), even with Claude Code's lenient retry: the file is not loaded as an agent.{hint}"
                    ),
                );
                agent.status = Status::Skipped("frontmatter failed to parse".into());
            }
            return agent;
        }
        Outcome::NoFrontmatter | Outcome::FirstPass | Outcome::Retry | Outcome::NotMapping => {}
    }
    let root = reading.parsed.root.as_ref();
    let map = root.and_then(Node::as_map);
    let Some(map) = map else {
        let not_map = root.filter(|r| !matches!(r.value, Value::Null | Value::Unknown));
        if plugin {
            agent.name = Some(cx.kind.stem.clone());
        } else if let Some(root) = not_map {
            cx.push(
                Code::InvalidType,
                Severity::Info,
                Effect::FileIgnored,
                root.span,
                format!(
                    "the frontmatter is {}, not a mapping of `key: value` pairs: Claude Code reads it as empty and treats the file as a reference document",
                    root.type_name()
                ),
            );
            agent.status = Status::NotAgent("frontmatter is not a mapping".into());
        } else {
            no_name(cx, block.open, &mut agent);
        }
        return agent;
    };
    // After the lenient retry, column-0 lines that continued a one-line description (`user:
    // "..."` in an example) are read as keys of their own: those keys, in order.
    let mut continuation: Vec<Span> = Vec::new();
    if reading.outcome == Outcome::Retry {
        let mut after_description = false;
        for e in map.entries.iter() {
            let key = e.key.name.as_str();
            let continues = after_description && schema::field(key).is_none();
            after_description = (key == "description" && matches!(e.value.value, Value::Str(_))) || continues;
            if continues {
                continuation.push(e.key.span);
            }
        }
    }
    if reading.outcome == Outcome::Retry {
        // A value quoted on a continuation line is reported as that line's problem below.
        let lines: Vec<usize> = continuation.iter().map(|k| line_of(text, k.start as usize)).collect();
        lenient(cx, reading, &lines);
    }
    for d in &reading.parsed.duplicates {
        if continuation.contains(&d.first) || continuation.contains(&d.duplicate) {
            continue;
        }
        let first = map.entries.iter().find(|e| e.key.span == d.first);
        let fix = first.and_then(|_| delete_entry(cx.text, map, d.first));
        let diag = cx.push(
            Code::DuplicateKey,
            Severity::Warning,
            Effect::ValueIgnored,
            d.first,
            format!(
                "`{}` is set again below; Claude Code uses the last one and ignores this one",
                d.name
            ),
        );
        diag.related.push(crate::analysis::diagnostic::Related {
            location: crate::analysis::diagnostic::Location::Here(d.duplicate),
            message: "the value Claude Code uses".into(),
        });
        if let Some(edit) = fix {
            diag.fix = Some(Box::new(crate::analysis::diagnostic::Fix {
                title: format!("Remove the ignored `{}`", d.name),
                edits: vec![edit],
                safe: true,
            }));
        }
    }

    // §7.4: the name.
    let name_entry = map.get("name");
    match name_entry.map(|e| (&e.value, e.key.span)) {
        None => {
            if plugin {
                agent.name = Some(cx.kind.stem.clone());
            } else {
                no_name(cx, block.open, &mut agent);
                return agent;
            }
        }
        Some((v, key_span)) => match &v.value {
            Value::Null | Value::Bool(false) => {
                if plugin {
                    // `false` is a name to a plugin (`String(false)`); null is none.
                    agent.name = Some(super::plugin::js_string(v).unwrap_or_else(|| cx.kind.stem.clone()));
                } else {
                    no_name(cx, key_span.cover(v.span), &mut agent);
                    return agent;
                }
            }
            Value::Int(0) | Value::Float(0.0) if !plugin => {
                no_name(cx, v.span, &mut agent);
                return agent;
            }
            Value::Str(s) if s.is_empty() => {
                if plugin {
                    agent.name = Some(cx.kind.stem.clone());
                } else {
                    no_name(cx, v.span, &mut agent);
                    return agent;
                }
            }
            Value::Str(s) => {
                agent.name_span = v.span;
                if plugin {
                    if s.chars().count() > 256 {
                        cx.dropped(
                            Code::InvalidName,
                            v.span,
                            format!(
                                "this name has {} characters; Claude Code ignores a plugin agent name over 256 characters and uses the file name",
                                s.chars().count()
                            ),
                        );
                        agent.name = Some(cx.kind.stem.clone());
                    } else {
                        agent.name = Some(s.clone());
                    }
                } else if let Some(why) = invalid_name(s) {
                    cx.skipped(Code::InvalidName, v.span, format!("{why}: Claude Code skips this file"));
                    agent.status = Status::Skipped(why);
                    return agent;
                } else {
                    agent.name = Some(s.clone());
                }
            }
            Value::Unknown => return agent,
            // A plugin agent's name is `String(name)` (`[a, b]` is `a,b`), the file name when empty.
            _ if plugin => {
                agent.name = Some(
                    super::plugin::js_string(v)
                        .filter(|n| !n.is_empty())
                        .unwrap_or_else(|| cx.kind.stem.clone()),
                )
            }
            _ => {
                let t = v.type_name();
                cx.skipped(
                    Code::MissingField,
                    v.span,
                    format!(
                        "`name` must be a string, not {t}: Claude Code skips this file (\"Missing required \\\"name\\\" field\"){}",
                        if matches!(v.value, Value::Seq(_)) {
                            ". A placeholder like `[agent-name]` is a YAML list; write the name itself"
                        } else {
                            ""
                        }
                    ),
                );
                agent.status = Status::Skipped("name is not a string".into());
                return agent;
            }
        },
    }

    // Prose values that YAML silently shortens: a ` #` comment, a dropped `!tag`.
    for key in ["description", "initialPrompt", "when_to_use"] {
        if let Some(e) = map.get(key) {
            shortened(cx, key, e.key.span, &e.value);
        }
    }

    // §7.4: the description (a plugin agent falls back to `when_to_use`, then `when-to-use`).
    let desc = if plugin {
        map.get("description")
            .or_else(|| map.get("when_to_use"))
            .or_else(|| map.get("when-to-use"))
    } else {
        map.get("description")
    };
    match desc.map(|e| &e.value) {
        Some(Node {
            value: Value::Str(s), ..
        }) if !s.is_empty() => {
            // A plugin agent's description is trimmed, and a written `\n` stays as written.
            agent.description = Some(if plugin {
                s.trim().to_string()
            } else {
                s.replace("\\n", "\n")
            })
        }
        Some(Node {
            value: Value::Unknown, ..
        }) => {}
        other => {
            let (span, what) = match other {
                None => (agent.name_span, "there is no `description`".to_string()),
                Some(n) if matches!(n.value, Value::Null) => (n.span, "`description` is empty".to_string()),
                Some(n) if matches!(n.value, Value::Str(_)) => (n.span, "`description` is empty".to_string()),
                Some(n) => (n.span, format!("`description` must be a string, not {}", n.type_name())),
            };
            if plugin {
                let scalar = other.is_some_and(|n| matches!(n.value, Value::Int(_) | Value::Float(_) | Value::Bool(_)));
                if scalar {
                    agent.description = other.map(Node::display);
                } else if other.is_some() && !matches!(other.map(|n| &n.value), Some(Value::Null)) {
                    cx.dropped(
                        Code::InvalidType,
                        span,
                        format!("{what}; Claude Code omits it for this plugin agent"),
                    );
                }
            } else {
                let d = cx.skipped(
                    Code::MissingField,
                    span,
                    format!("{what}: Claude Code skips this agent (\"Missing required \\\"description\\\" field\"). Say when Claude should delegate to it"),
                );
                if other.is_none()
                    && let Some(edit) =
                        insert_after_entry(text, map, "name", "description: \"Use this agent when ...\"")
                {
                    d.fix = Some(Box::new(crate::analysis::diagnostic::Fix {
                        title: "Add a `description`".into(),
                        edits: vec![edit],
                        safe: false,
                    }));
                }
                agent.status = Status::Skipped("no description".into());
            }
        }
    }

    // Hooks (a problem skips the file) and hooks declared at the top level.
    for key in ["PreToolUse", "PermissionRequest"] {
        if let Some(e) = map.get(key)
            && !plugin
        {
            cx.skipped(
                Code::InvalidType,
                e.key.span,
                format!("`{key}` is a hook event declared at the top level, outside `hooks`: Claude Code skips this file. Move it under `hooks:`"),
            );
            agent.status = Status::Skipped("hook at the top level".into());
        }
    }

    // Every other key. After the lenient retry, column-0 lines that continued a one-line
    // description (`user: "..."` in an example) are read as keys of their own.
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        if continuation.contains(&e.key.span) {
            cx.dropped(
                Code::UnknownKey,
                e.key.span,
                format!(
                    "this line continues the description, but Claude Code's lenient retry reads it as a key `{key}`: the description keeps only its first line. Quote the description (or use `description: |`) to keep it whole"
                ),
            );
            continue;
        }
        if map.get(key).is_some_and(|last| last.key.span != e.key.span) {
            continue; // a duplicate: the last one counts
        }
        if matches!(key, "name" | "description") {
            continue;
        }
        if plugin && matches!(key, "when_to_use" | "when-to-use") {
            continue;
        }
        let Some(field) = schema::field(key) else {
            if !matches!(key, "PreToolUse" | "PermissionRequest") {
                unknown_key(cx, e.key.span, key, map);
            }
            continue;
        };
        if plugin && field.plugin_ignored {
            let ending = if matches!(key, "permissionMode" | "hooks" | "mcpServers") {
                "Use .claude/agents/ for this level of control".to_string()
            } else {
                format!("Define the agent in .claude/agents/ to use {key}")
            };
            cx.dropped(
                Code::IgnoredField,
                e.key.span,
                format!("plugin agents ignore `{key}` (Claude Code: \"{ending}\")"),
            );
            continue;
        }
        field_value(cx, &mut agent, field, e.key.span, &e.value);
    }
    agent
}

/// A plain one-line prose value that YAML shortens without a word: the text after ` #` is a
/// comment, and an unknown `!tag` before the value is dropped.
fn shortened(cx: &mut Ctx, key: &str, key_span: Span, v: &Node) {
    let text = cx.text;
    let (Value::Str(s), Style::Plain) = (&v.value, v.style) else {
        return;
    };
    let end = v.span.end as usize;
    let line_end = text[end..].find(['\n', '\r']).map_or(text.len(), |i| end + i);
    let rest = &text[end..line_end];
    if let Some(i) = rest.find('#')
        && rest[..i].trim().is_empty()
        && !rest[..i].is_empty()
    {
        let comment = Span::new(end + i, line_end);
        let d = cx.dropped(
            Code::InvalidValue,
            comment,
            format!(
                "` #` starts a YAML comment, so `{key}` ends at \"{}\" and this text is dropped. Quote the whole value to keep it",
                s.chars().rev().take(40).collect::<Vec<_>>().into_iter().rev().collect::<String>()
            ),
        );
        let whole = Span::new(v.span.start as usize, line_end);
        let raw = whole.text(text).trim_end();
        let quoted = format!("\"{}\"", raw.replace('\\', "\\\\").replace('"', "\\\""));
        *d = d.clone().with_fix(
            "Quote the whole value",
            vec![Edit::new(
                Span::new(v.span.start as usize, v.span.start as usize + raw.len()),
                quoted,
            )],
            false,
        );
    }
    // The tag is part of the value's span (or, for some parsers, just before it).
    let from = key_span.end as usize;
    let to = (v.span.end as usize).min(text.len());
    let Some(head) = text.get(from..to) else {
        return;
    };
    let head = &head[..head.find(['\n', '\r']).unwrap_or(head.len())];
    let first = head.trim_start_matches(':').trim_start();
    if first.starts_with('!') {
        let at = from + (head.len() - first.len());
        let tag_end = text[at..].find(char::is_whitespace).map_or(at, |j| at + j);
        let tag = &text[at..tag_end];
        if !tag.starts_with("!!") {
            cx.dropped(
                Code::InvalidValue,
                Span::new(at, tag_end),
                format!("`{tag}` is read as a YAML tag and dropped: `{key}` is \"{s}\". Quote the value to keep it"),
            );
        }
    }
}

/// The loader found no usable name: the file is a reference document.
fn no_name(cx: &mut Ctx, span: Span, agent: &mut Agent) {
    cx.push(
        Code::MissingField,
        Severity::Info,
        Effect::FileIgnored,
        span,
        "no `name`: Claude Code treats this file as a reference document, not an agent. Add `name:` to make it one"
            .into(),
    );
    agent.status = Status::NotAgent("no name".into());
}

/// Why a project or user agent's name skips the file (§7.4).
pub fn invalid_name(s: &str) -> Option<String> {
    if s.starts_with('-') {
        return Some("a name must not start with `-`".into());
    }
    let n = s.chars().count();
    if n > 256 {
        return Some(format!("a name must be at most 256 characters (this one has {n})"));
    }
    // Characters that Unicode NFKC normalisation turns into `:`.
    if let Some(c) = s
        .chars()
        .find(|c| matches!(c, ':' | '\u{ff1a}' | '\u{fe55}' | '\u{fe13}'))
    {
        let what = if c == ':' {
            "`:`".to_string()
        } else {
            format!("`{c}` (U+{:04X}, a `:` after Unicode normalisation)", c as u32)
        };
        return Some(format!(
            "a name must not contain {what}, which is reserved for plugin namespacing"
        ));
    }
    None
}

fn unknown_key(cx: &mut Ctx, span: Span, key: &str, map: &Map) {
    let hint = schema::loader_hint(key);
    let taken = hint.is_some_and(|h| map.contains(h));
    let message = match hint {
        Some(h) if taken => format!(
            "Claude Code does not recognize `{key}` and ignores it (did you mean `{h}`? it is already set here, so this line has no effect)"
        ),
        Some(h) => format!("Claude Code does not recognize `{key}` and ignores it; did you mean `{h}`?"),
        None => format!("Claude Code does not recognize `{key}` and ignores it"),
    };
    let text = cx.text;
    let d = cx.dropped(Code::UnknownKey, span, message);
    if let Some(h) = hint
        && !taken
        && span.text(text) == key
    {
        *d = d
            .clone()
            .with_fix(format!("Rename to `{h}`"), vec![Edit::new(span, h)], false);
    }
}

/// Check one recognised field and keep what the loader keeps.
fn field_value(cx: &mut Ctx, agent: &mut Agent, field: &schema::Field, key_span: Span, v: &Node) {
    if matches!(v.value, Value::Unknown) {
        return;
    }
    let key = field.name;
    let keep = |agent: &mut Agent, value: String| {
        agent.settings.push(Setting {
            key,
            value,
            span: key_span,
        })
    };
    let plugin = cx.kind.is_plugin();
    match field.ty {
        FieldType::Name | FieldType::Description | FieldType::Any => {
            if !matches!(field.ty, FieldType::Any) {
                return;
            }
            keep(agent, v.display());
        }
        FieldType::List => {
            let list = tools::read(v, cx.text);
            check_list(cx, agent, key, v, &list);
            match key {
                "tools" => agent.tools = Some(list),
                "disallowedTools" => agent.disallowed = Some(list),
                _ => keep(agent, list_display(&list)),
            }
        }
        FieldType::Model => match &v.value {
            Value::Str(s) if !s.trim().is_empty() => {
                let m = s.trim();
                let m = if m.eq_ignore_ascii_case("inherit") {
                    "inherit"
                } else {
                    m
                };
                model_hint(cx, v, m);
                keep(agent, m.to_string());
            }
            Value::Null => {}
            _ => {
                cx.dropped(
                    Code::InvalidType,
                    v.span,
                    "`model` must be a model name or alias; Claude Code drops this value and the agent uses the parent's model".into(),
                );
            }
        },
        FieldType::Enum(values) => {
            let s = match &v.value {
                Value::Str(s) => Some(s.as_str()),
                Value::Null => {
                    if key == "permissionMode" {
                        return;
                    }
                    None
                }
                _ => None,
            };
            if key == "permissionMode" && s == Some("manual") {
                keep(agent, "default".into());
                return;
            }
            if key == "isolation" && plugin && s != Some("worktree") {
                enum_problem(cx, (key, key_span), &["worktree"], v, s);
                return;
            }
            if let Some(s) = s
                && values.contains(&s)
            {
                keep(agent, s.to_string());
                return;
            }
            if key == "color" && plugin {
                // Not checked at load for plugin agents.
                keep(agent, v.display());
                return;
            }
            enum_problem(cx, (key, key_span), values, v, s);
        }
        FieldType::Effort => match effort(&v.value) {
            Some(level) => keep(agent, level),
            None => {
                let shown = loader_shown(v);
                let d = cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "invalid effort '{shown}': Claude Code drops it. Valid options: low, medium, high, xhigh, max or an integer"
                    ),
                );
                if let Value::Str(s) = &v.value
                    && let Some(level) = schema::EFFORTS.iter().find(|l| l.eq_ignore_ascii_case(s.trim()))
                {
                    *d = d.clone().with_suggestion(v.span, *level);
                }
            }
        },
        FieldType::PositiveInt => match max_turns(&v.value) {
            Some(n) => keep(agent, n.to_string()),
            None => {
                let shown = loader_shown(v);
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!("invalid maxTurns '{shown}': Claude Code drops it. It must be a positive integer"),
                );
            }
        },
        FieldType::CompactWindow => match v.value {
            Value::Int(n) if n >= 100_000 => keep(agent, n.to_string()),
            _ => {
                let shown = loader_shown(v);
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "invalid autoCompactWindow '{shown}': Claude Code drops it. It must be an integer of at least 100000"
                    ),
                );
            }
        },
        FieldType::Bool => match &v.value {
            Value::Bool(b) => keep(agent, b.to_string()),
            Value::Str(s) if s == "true" || s == "false" => keep(agent, s.clone()),
            _ => {
                let shown = loader_shown(v);
                let d = cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!("invalid background value '{shown}': Claude Code drops it. It must be `true` or `false`"),
                );
                let fixed = match &v.value {
                    Value::Str(s) if matches!(s.to_lowercase().as_str(), "yes" | "on" | "y") => Some("true"),
                    Value::Str(s) if matches!(s.to_lowercase().as_str(), "no" | "off" | "n") => Some("false"),
                    Value::Int(1) => Some("true"),
                    Value::Int(0) => Some("false"),
                    _ => None,
                };
                if let Some(f) = fixed {
                    *d = d.clone().with_suggestion(v.span, f);
                }
            }
        },
        FieldType::LooseBool => {
            let on = matches!(&v.value, Value::Bool(true)) || matches!(&v.value, Value::Str(s) if s == "true");
            if !on && !matches!(v.value, Value::Bool(false) | Value::Null) {
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!(
                        "`{key}` is on only for `true`; Claude Code reads `{}` as false",
                        v.span.text(cx.text)
                    ),
                );
            }
            keep(agent, on.to_string());
        }
        FieldType::Text => match &v.value {
            Value::Str(s) if !s.trim().is_empty() => keep(agent, s.clone()),
            _ => {
                cx.dropped(
                    Code::InvalidValue,
                    v.span,
                    format!("`{key}` must be a non-blank string; Claude Code drops this value"),
                );
            }
        },
        FieldType::McpServers => mcp_servers(cx, agent, v),
        FieldType::Hooks => hooks(cx, agent, v),
    }
}

/// How the loader prints a value in its messages (`'null'` for an empty one).
fn loader_shown(v: &Node) -> String {
    match &v.value {
        Value::Null => "null".into(),
        Value::Str(s) => s.clone(),
        _ => v.display(),
    }
}

fn list_display(list: &List) -> String {
    match list {
        List::All(_) => "*".into(),
        List::Empty(_) => "(none)".into(),
        List::Items(items) => items.iter().map(|i| i.text.as_str()).collect::<Vec<_>>().join(", "),
    }
}

/// `effort` as the loader reads it (§7.5), or None when it drops it.
pub fn effort(v: &Value) -> Option<String> {
    match v {
        Value::Int(n) => Some(n.to_string()),
        Value::Float(f) if f.is_finite() => Some((f.trunc() as i64).to_string()),
        Value::Str(s) => {
            if let Some(l) = schema::EFFORTS.iter().find(|l| l.eq_ignore_ascii_case(s)) {
                return Some(l.to_string());
            }
            if s.eq_ignore_ascii_case("med") {
                return Some("medium".into());
            }
            leading_int(s).map(|n| n.to_string())
        }
        _ => None,
    }
}

/// JavaScript `parseInt` on a string: optional sign, then digits, after leading whitespace.
fn leading_int(s: &str) -> Option<i64> {
    let t = s.trim_start();
    let (sign, rest) = match t.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    digits.parse::<i64>().ok().map(|n| sign * n)
}

/// `maxTurns` as the loader reads it (§7.5): a positive integer; strings leniently.
pub fn max_turns(v: &Value) -> Option<i64> {
    let n = match v {
        Value::Int(n) => *n,
        Value::Str(s) => {
            let t: String = s.trim().chars().filter(|c| *c != ',').collect();
            // The longest leading decimal literal (`1e2`, `2.5`, `20 turns`).
            let mut best = None;
            for end in (1..=t.len()).rev() {
                if t.is_char_boundary(end)
                    && let Ok(f) = t[..end].parse::<f64>()
                    && !t[..end].contains(['i', 'I', 'n', 'N'])
                {
                    best = Some(f);
                    break;
                }
            }
            let f = best?;
            if !f.is_finite() {
                return None;
            }
            f.trunc() as i64
        }
        _ => return None,
    };
    (n >= 1).then_some(n)
}

fn enum_problem(cx: &mut Ctx, key: (&str, Span), values: &[&str], v: &Node, s: Option<&str>) {
    let (key, key_span) = key;
    let near = s.and_then(|s| {
        values
            .iter()
            .find(|x| x.eq_ignore_ascii_case(s.trim()))
            .or_else(|| {
                values
                    .iter()
                    .map(|x| (strsim::levenshtein(&x.to_lowercase(), &s.to_lowercase()), x))
                    .filter(|(d, _)| *d <= 2)
                    .min_by_key(|(d, _)| *d)
                    .map(|(_, x)| x)
            })
            .copied()
    });
    let shown = loader_shown(v);
    let (code, message) = match key {
        "color" => {
            let rest = &cx.text[key_span.end as usize..];
            let line = rest.split(['\n', '\r']).next().unwrap_or("");
            let comment = line.trim_start_matches(':').trim_start().starts_with('#');
            let extra = if matches!(v.value, Value::Null) && comment {
                ". A value starting with `#` is a YAML comment, so the color is empty; Claude Code has no hex colors"
            } else {
                ""
            };
            (
                Code::InvalidColor,
                format!(
                    "Claude Code has no color `{shown}` and drops it silently{extra}. Its colors: {}",
                    values.join(", ")
                ),
            )
        }
        "permissionMode" => (
            Code::InvalidValue,
            format!(
                "invalid permissionMode '{shown}': Claude Code ignores it. Valid options: {}",
                values.join(", ")
            ),
        ),
        "memory" => (
            Code::InvalidValue,
            format!(
                "invalid memory value '{shown}': Claude Code drops it. Valid options: {}",
                values.join(", ")
            ),
        ),
        "isolation" if cx.kind.is_plugin() => (
            Code::InvalidValue,
            format!("a plugin agent's isolation can only be `worktree`; Claude Code drops '{shown}' silently"),
        ),
        _ => (
            Code::InvalidValue,
            format!(
                "invalid {key} value '{shown}': Claude Code drops it. Valid options: {}",
                values.join(", ")
            ),
        ),
    };
    let d = cx.dropped(code, v.span, message);
    if let Some(n) = near
        && !v.span.is_empty()
    {
        *d = d.clone().with_suggestion(v.span, n);
    }
}

/// A warning for model names one typo away from an alias (model ids are open-ended).
fn model_hint(cx: &mut Ctx, v: &Node, m: &str) {
    if schema::MODEL_ALIASES.iter().any(|(a, _)| *a == m) || m.starts_with("claude-") || m.contains(['/', ':', '.']) {
        return;
    }
    let near = schema::MODEL_ALIASES
        .iter()
        .map(|(a, _)| (strsim::levenshtein(a, &m.to_lowercase()), *a))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d);
    if let Some((_, alias)) = near {
        let d = cx.push(
            Code::InvalidModel,
            Severity::Warning,
            Effect::FailsWhenUsed,
            v.span,
            format!("`{m}` is no model alias; did you mean `{alias}`? Claude Code keeps the name and the request fails when the agent runs"),
        );
        if v.style == Style::Plain {
            *d = d.clone().with_suggestion(v.span, alias);
        }
    }
}

/// `tools`, `disallowedTools`, `skills`: each entry.
fn check_list(cx: &mut Ctx, agent: &mut Agent, key: &str, v: &Node, list: &List) {
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
    if agent_entries.len() > 1 {
        let (last, earlier) = agent_entries.split_last().expect("two or more");
        for e in earlier {
            let d = cx.dropped(
                Code::ShadowedRule,
                e.span,
                format!(
                    "only the last `Agent(...)` entry applies (`{}`); merge the agent types into one entry",
                    last.text
                ),
            );
            d.related.push(crate::analysis::diagnostic::Related {
                location: crate::analysis::diagnostic::Location::Here(last.span),
                message: "the entry that applies".into(),
            });
        }
    }
}

fn mcp_servers(cx: &mut Ctx, agent: &mut Agent, v: &Node) {
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
fn hooks(cx: &mut Ctx, agent: &mut Agent, v: &Node) {
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

/// The retry rescued the file: one warning per value it quoted, with the quoting as a fix.
/// The start of the line that holds `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

fn lenient(cx: &mut Ctx, reading: &Reading, skip_lines: &[usize]) {
    let found = lenient_parse(cx.text, reading, skip_lines);
    cx.out.extend(found);
}

/// A file that loads only through the lenient retry (agents, commands, skills): one
/// `lenient-parse` warning per value the retry quoted (`skip_lines`: the starts of lines whose
/// quoting is reported otherwise), with the quoting as a fix; one on the first error when the
/// retry only turned tabs into spaces.
pub(crate) fn lenient_parse(text: &str, reading: &Reading, skip_lines: &[usize]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if reading.quoted.is_empty() {
        let span = reading.first_errors.first().map(|e| e.span).unwrap_or_default();
        out.push(
            Diagnostic::new(
                Code::LenientParse,
                span,
                "this frontmatter is not valid YAML; Claude Code loads it only through its lenient retry (tabs read as spaces)",
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works),
        );
        return out;
    }
    for &span in &reading.quoted {
        if skip_lines.contains(&line_of(text, span.start as usize)) {
            continue;
        }
        let raw = span.text(text);
        let quoted = format!("\"{}\"", raw.replace('\\', "\\\\").replace('"', "\\\""));
        let why = if raw.contains(": ") {
            "a plain value may not contain `: `"
        } else if raw.contains(" #") {
            "` #` would start a comment"
        } else {
            "it starts with or holds a character YAML reserves"
        };
        // The retry also writes one space after the colon; do the same when the separator holds
        // other characters JavaScript counts as white space (a no-break space, a U+FEFF), which
        // YAML does not.
        let line_start = text[..span.start as usize].rfind('\n').map_or(0, |p| p + 1);
        let sep_start = text[line_start..span.start as usize]
            .rfind(':')
            .map(|c| line_start + c + 1);
        let edit = match sep_start {
            Some(from) if !text[from..span.start as usize].chars().all(|c| c == ' ' || c == '\t') => {
                Edit::new(Span::new(from, span.end as usize), format!(" {quoted}"))
            }
            _ => Edit::new(span, quoted),
        };
        out.push(
            Diagnostic::new(
                Code::LenientParse,
                span,
                format!(
                    "this value is not valid YAML ({why}); Claude Code reads the file only through its lenient retry, which quotes it. Quote it so that every YAML reader agrees"
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works)
            .with_fix("Quote the value as Claude Code's retry does", vec![edit], true),
        );
    }
    out
}

/// A `---` inside the block that closes it early (agents, commands, skills): what it cuts off.
pub(crate) fn truncated(block: &super::read::Block, reading: &Reading) -> Diagnostic {
    let lost: Vec<String> = reading.lost_keys.iter().map(|(k, _)| format!("`{k}`")).collect();
    let tail = if lost.is_empty() {
        String::new()
    } else {
        format!(
            "; {} after it become{} prompt text",
            lost.join(", "),
            if lost.len() == 1 { "s" } else { "" }
        )
    };
    Diagnostic::new(
        Code::TruncatedFrontmatter,
        block.close,
        format!(
            "this `---` ends the frontmatter: Claude Code closes it at the first `---` anywhere, even inside a value or a comment{tail}"
        ),
    )
    .with_severity(Severity::Warning)
    .with_effect(Effect::ValueIgnored)
}

/// Delete the entry whose key is at `key_span` (a whole line of a block mapping).
fn delete_entry(text: &str, map: &Map, key_span: Span) -> Option<Edit> {
    let i = map.entries.iter().position(|e| e.key.span == key_span)?;
    let e = &map.entries[i];
    let start = text[..e.key.span.start as usize].rfind('\n').map_or(0, |p| p + 1);
    if !text[start..e.key.span.start as usize].trim().is_empty() {
        return None;
    }
    let end_of_value = e.value.span.end as usize;
    let end = text[end_of_value..]
        .find('\n')
        .map_or(text.len(), |p| end_of_value + p + 1);
    // Only when the next entry (if any) starts after this line.
    if let Some(next) = map.entries.get(i + 1)
        && (next.key.span.start as usize) < end
    {
        return None;
    }
    Some(Edit::new(Span::new(start, end), ""))
}

/// Insert a line `line` after the entry `after` (a block mapping line).
fn insert_after_entry(text: &str, map: &Map, after: &str, line: &str) -> Option<Edit> {
    let e = map.get(after)?;
    let end_of_value = e.value.span.end as usize;
    let nl = text[end_of_value..].find('\n')?;
    let at = end_of_value + nl + 1;
    let eol = if text[..at].ends_with("\r\n") { "\r\n" } else { "\n" };
    Some(Edit::new(Span::empty(at), format!("{line}{eol}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::claude::{FileKind, Source, analyze};

    /// `(code, severity, text under the span)` of every diagnostic of a project agent.
    fn diags(text: &str) -> Vec<(Code, Severity, String)> {
        diags_as(&FileKind::project("x"), text)
    }

    fn diags_as(kind: &FileKind, text: &str) -> Vec<(Code, Severity, String)> {
        analyze(kind, text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    fn agent(text: &str) -> Agent {
        analyze(&FileKind::project("x"), text).1
    }

    fn plugin() -> FileKind {
        FileKind {
            source: Source::Plugin { plugin: "tools".into() },
            stem: "file-name".into(),
        }
    }

    const OK: &str = "---\nname: rev\ndescription: Reviews code\n";

    fn with(extra: &str) -> String {
        format!("{OK}{extra}---\nBody\n")
    }

    #[test]
    fn a_complete_agent_is_clean() {
        let t = with(
            "tools: Read, Grep, Agent(Explore), mcp__github__get_issue\ndisallowedTools: mcp__*\nmodel: claude-opus-5\npermissionMode: manual\neffort: MED\nmaxTurns: \"1,000\"\nmemory: local\nisolation: remote\nbackground: \"true\"\ncolor: pink\nskills: [a, b]\nomitClaudeMd: true\ninitialPrompt: Start\nautoCompactWindow: 200000\nmcpServers:\n  - github\n  - pw:\n      type: stdio\n      command: npx\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./x.sh\nexperimental:\n  cacheTtl: 1h\n",
        );
        assert_eq!(diags(&t), []);
        let a = agent(&t);
        assert!(a.loaded());
        assert_eq!(a.setting("permissionMode").unwrap().value, "default");
        assert_eq!(a.setting("effort").unwrap().value, "medium");
        assert_eq!(a.setting("maxTurns").unwrap().value, "1000");
        assert_eq!(a.agent_refs.len(), 1);
    }

    #[test]
    fn the_name_decides_whether_it_is_an_agent() {
        // No name: a reference document (info), nothing else checked.
        assert_eq!(
            diags("---\ndescription: d\nbogus: 1\n---\n"),
            [(Code::MissingField, Severity::Info, "---".into())]
        );
        for empty in ["", " \"\"", " 0", " false", " null"] {
            let t = format!("---\nname:{empty}\ndescription: d\n---\n");
            let d = diags(&t);
            assert_eq!(d.len(), 1, "{t}");
            assert_eq!((d[0].0, d[0].1), (Code::MissingField, Severity::Info), "{t}");
        }
        // Other non-strings skip the file: an error on the value.
        assert_eq!(
            diags("---\nname: [agent-name]\ndescription: d\n---\n"),
            [(Code::MissingField, Severity::Error, "[agent-name]".into())]
        );
        assert_eq!(
            diags("---\nname: 123\ndescription: d\n---\n"),
            [(Code::MissingField, Severity::Error, "123".into())]
        );
        for bad in ["-rev", "team:rev", "team\u{ff1a}rev"] {
            let t = format!("---\nname: {bad}\ndescription: d\n---\n");
            assert_eq!(diags(&t), [(Code::InvalidName, Severity::Error, bad.into())], "{t}");
        }
        let long = "a".repeat(257);
        assert_eq!(
            diags(&format!("---\nname: {long}\ndescription: d\n---\n"))[0].0,
            Code::InvalidName
        );
        // What the loader accepts.
        for good in ["Rev Iewer", "rev_1", &"a".repeat(256), "rev-"] {
            assert_eq!(
                diags(&format!("---\nname: {good}\ndescription: d\n---\n")),
                [],
                "{good}"
            );
        }
        // Keys are case-sensitive.
        assert_eq!(diags("---\nName: rev\ndescription: d\n---\n")[0].0, Code::MissingField);
    }

    #[test]
    fn the_description_is_required_and_a_string() {
        assert_eq!(
            diags("---\nname: rev\n---\n"),
            [(Code::MissingField, Severity::Error, "rev".into())]
        );
        for bad in ["42", "true", "[a]", "\"\"", ""] {
            let t = format!("---\nname: rev\ndescription: {bad}\n---\n");
            let d = diags(&t);
            assert_eq!((d[0].0, d[0].1), (Code::MissingField, Severity::Error), "{t}");
        }
        // Whitespace only is accepted; `\n` becomes a line break.
        assert_eq!(diags("---\nname: rev\ndescription: \" \"\n---\n"), []);
        assert_eq!(
            agent("---\nname: rev\ndescription: a\\nb\n---\n").description.unwrap(),
            "a\nb"
        );
    }

    #[test]
    fn invalid_values_are_dropped_with_a_warning() {
        let cases: &[(&str, Code, &str)] = &[
            ("permissionMode: Plan\n", Code::InvalidValue, "Plan"),
            ("permissionMode: true\n", Code::InvalidValue, "true"),
            ("effort: ultracode\n", Code::InvalidValue, "ultracode"),
            ("effort: \" Medium \"\n", Code::InvalidValue, "\" Medium \""),
            ("maxTurns: 0\n", Code::InvalidValue, "0"),
            ("maxTurns: 2.5\n", Code::InvalidValue, "2.5"),
            ("maxTurns: abc\n", Code::InvalidValue, "abc"),
            ("memory: Project\n", Code::InvalidValue, "Project"),
            ("isolation: container\n", Code::InvalidValue, "container"),
            ("background: yes\n", Code::InvalidValue, "yes"),
            ("color: teal\n", Code::InvalidColor, "teal"),
            ("color: Red\n", Code::InvalidColor, "Red"),
            ("autoCompactWindow: 5000\n", Code::InvalidValue, "5000"),
            ("initialPrompt: \"  \"\n", Code::InvalidValue, "\"  \""),
            ("model: 42\n", Code::InvalidType, "42"),
            ("model: sonet\n", Code::InvalidModel, "sonet"),
            (
                "mcpServers: [{pw: {type: carrier}}]\n",
                Code::InvalidValue,
                "{type: carrier}",
            ),
            ("mcpServers: [42]\n", Code::InvalidType, "42"),
            ("tool: Read\n", Code::UnknownKey, "tool"),
            ("outputStyle: x\n", Code::UnknownKey, "outputStyle"),
        ];
        for (line, code, under) in cases {
            let t = with(line);
            assert_eq!(diags(&t), [(*code, Severity::Warning, under.to_string())], "{line}");
            assert!(agent(&t).loaded(), "{line}");
        }
        // What the loader accepts leniently.
        for line in [
            "permissionMode: \n",
            "effort: 7\n",
            "effort: \"7 levels\"\n",
            "effort: 2.5\n",
            "maxTurns: \"20 turns\"\n",
            "maxTurns: \"1e2\"\n",
            "model: INHERIT\n",
            "model: gpt-4o\n",
            "background: false\n",
            "omitClaudeMd: \"true\"\n",
        ] {
            assert_eq!(diags(&with(line)), [], "{line}");
        }
        assert_eq!(
            agent(&with("model: INHERIT\n")).setting("model").unwrap().value,
            "inherit"
        );
        assert_eq!(
            agent(&with("maxTurns: \"1e2\"\n")).setting("maxTurns").unwrap().value,
            "100"
        );
        // A color that YAML reads as a comment.
        let d = analyze(&FileKind::project("x"), &with("color: #FF5733\n")).0;
        assert_eq!(d[0].code, Code::InvalidColor);
        assert!(d[0].message.contains("YAML comment"), "{}", d[0].message);
    }

    #[test]
    fn did_you_mean_fixes() {
        let fix = |line: &str| {
            let t = with(line);
            let d = analyze(&FileKind::project("x"), &t).0;
            let f = d[0].fix.as_ref().expect("a fix");
            (crate::analysis::diagnostic::apply(&t, &f.edits), f.safe)
        };
        assert_eq!(fix("permissionMode: Plan\n"), (with("permissionMode: plan\n"), false));
        assert_eq!(fix("allowed-tools: Read\n"), (with("tools: Read\n"), false));
        // No rename onto a key that is already there.
        let t = with("tools: Read, Grep\nallowed-tools: Read\n");
        let d = analyze(&FileKind::project("x"), &t).0;
        assert_eq!(d.len(), 1);
        assert!(d[0].fix.is_none() && d[0].message.contains("already set"), "{d:?}");
        // The added description is a placeholder that satisfies the loader.
        let t = "---\nname: rev\n---\n";
        let d = analyze(&FileKind::project("x"), t).0;
        let out = crate::analysis::diagnostic::apply(t, &d[0].fix.as_ref().unwrap().edits);
        assert_eq!(out, "---\nname: rev\ndescription: \"Use this agent when ...\"\n---\n");
        assert_eq!(analyze(&FileKind::project("x"), &out).0, []);
        assert_eq!(fix("tools: Read, grep\n"), (with("tools: Read, Grep\n"), false));
        assert_eq!(fix("tools: Task(rev)\n"), (with("tools: Agent(rev)\n"), true));
        assert_eq!(fix("tools: MultiEdit\n"), (with("tools: Edit\n"), false));
        assert_eq!(fix("model: sonet\n"), (with("model: sonnet\n"), false));
        // A duplicate key: removing the ignored one changes nothing.
        assert_eq!(fix("model: opus\nmodel: haiku\n"), (with("model: haiku\n"), true));
    }

    #[test]
    fn tool_lists() {
        let d = diags(&with("tools: Read, grep, LS, Bash(git diff:*), Frobnicate\n"));
        assert_eq!(
            d,
            [
                (Code::UnknownTool, Severity::Warning, "grep".into()),
                (Code::UnknownTool, Severity::Warning, "LS".into()),
                (Code::IgnoredSpecifier, Severity::Warning, "Bash(git diff:*)".into()),
                (Code::UnknownTool, Severity::Warning, "Frobnicate".into()),
            ]
        );
        // Nothing resolves: the agent would start with zero tools.
        let d = analyze(&FileKind::project("x"), &with("tools: Frob, Nicate\n")).0;
        assert!(d.iter().any(|d| d.message.contains("zero tools")), "{d:?}");
        // Several Agent(...) entries: only the last applies.
        let d = diags(&with("tools: Agent(a), Read, Agent(b)\n"));
        assert_eq!(d, [(Code::ShadowedRule, Severity::Warning, "Agent(a)".into())]);
        // An empty `tools` means no tools; an explicit `[]` is taken as meant.
        assert_eq!(diags(&with("tools:\n"))[0].0, Code::InvalidValue);
        assert_eq!(diags(&with("tools: \"\"\n"))[0].0, Code::InvalidValue);
        assert_eq!(diags(&with("tools: []\n")), []);
        // `*` means every tool; lists, MCP names and Agent types are fine.
        assert_eq!(diags(&with("tools: \"*\"\n")), []);
        assert_eq!(diags(&with("tools:\n  - Read\n  - mcp__x\n  - Agent(a, b)\n")), []);
        assert_eq!(diags(&with("disallowedTools: Bash(rm:*)\n")), []);
        // Entries of a YAML list sit on the exact item.
        let t = with("tools:\n  - Read\n  - \"grepp\"\n");
        assert_eq!(diags(&t), [(Code::UnknownTool, Severity::Warning, "grepp".into())]);
    }

    #[test]
    fn hooks_problems_skip_the_file() {
        for (hooks, under) in [
            ("hooks: x\n", "x"),
            ("hooks:\n  PreToolUse: ./check.sh\n", "./check.sh"),
            ("hooks:\n  PreToolUse:\n    - matcher: Bash\n", "matcher: Bash\n"),
            ("hooks:\n  Stop:\n    - hooks:\n        - type: shell\n", "shell"),
        ] {
            let t = with(hooks);
            let d = diags(&t);
            assert_eq!(d.len(), 1, "{hooks}: {d:?}");
            assert_eq!((d[0].0, d[0].1), (Code::InvalidType, Severity::Error), "{hooks}");
            assert!(under.starts_with(d[0].2.trim_end()), "{hooks}: {:?}", d[0].2);
            assert!(!agent(&t).loaded(), "{hooks}");
        }
        // An unknown event is a warning (lenient).
        let d = diags(&with(
            "hooks:\n  PreTool:\n    - hooks:\n        - type: command\n          command: x\n",
        ));
        assert_eq!(d, [(Code::UnknownKey, Severity::Warning, "PreTool".into())]);
        // A hook event at the top level skips the file.
        let d = diags(&with("PreToolUse:\n  - hooks: []\n"));
        assert_eq!(d, [(Code::InvalidType, Severity::Error, "PreToolUse".into())]);
    }

    #[test]
    fn plugin_agents_follow_their_own_rules() {
        let p = plugin();
        // No name: the file name; no frontmatter: still loaded.
        let (d, a, _) = analyze(&p, "---\ndescription: d\n---\n");
        assert_eq!(d, []);
        assert_eq!(a.name.as_deref(), Some("file-name"));
        let (_, a, _) = analyze(&p, "Just a prompt\n");
        assert_eq!(a.name.as_deref(), Some("file-name"));
        assert!(a.loaded());
        // Ignored fields, `when_to_use` accepted, color unchecked, isolation only worktree.
        let t = "---\nname: r\nwhen_to_use: d\npermissionMode: plan\nhooks: {}\ninitialPrompt: go\ncolor: teal\nisolation: remote\n---\n";
        let d = diags_as(&p, t);
        assert_eq!(
            d,
            [
                (Code::IgnoredField, Severity::Warning, "permissionMode".into()),
                (Code::IgnoredField, Severity::Warning, "hooks".into()),
                (Code::IgnoredField, Severity::Warning, "initialPrompt".into()),
                (Code::InvalidValue, Severity::Warning, "remote".into()),
            ]
        );
        // A name with `:` is fine in a plugin (it is namespaced anyway); a number description is text.
        assert_eq!(diags_as(&p, "---\nname: a\ndescription: 42\n---\n"), []);
        // Without a description of its own, Claude Code lists `Agent from <plugin> plugin`.
        for text in [
            "---\nname: a\n---\n",
            "---\nname: a\ndescription: [a]\n---\n",
            "Just a prompt\n",
            "---\ndescription: a: b: c\n  d: - e\n---\n",
        ] {
            let (_, a, _) = analyze(&p, text);
            assert_eq!(a.description.as_deref(), Some("Agent from tools plugin"), "{text}");
        }
        let (_, a, _) = analyze(&p, "---\nname: a\ndescription: 42\n---\n");
        assert_eq!(a.description.as_deref(), Some("42"));
        // Names and descriptions as Claude Code 2.1.332 lists them (run with `--plugin-dir`): a
        // name is `String(name)`, empty or null gives the file name; a description is trimmed
        // and a written `\n` kept.
        for (name, want) in [
            ("5", "5"),
            ("false", "false"),
            ("0", "0"),
            ("[a, b]", "a,b"),
            ("{x: 1}", "[object Object]"),
            ("null", "file-name"),
            ("\"\"", "file-name"),
            ("[]", "file-name"),
        ] {
            let (_, a, _) = analyze(&p, &format!("---\nname: {name}\ndescription: d\n---\n"));
            assert_eq!(a.name.as_deref(), Some(want), "{name}");
        }
        let (_, a, _) = analyze(&p, "---\nname: a\ndescription: |\n  one\\n\n  two\n---\n");
        assert_eq!(a.description.as_deref(), Some("one\\n\ntwo"));
        let (_, a, _) = analyze(&FileKind::project("x"), "---\nname: a\ndescription: one\\ntwo\n---\n");
        assert_eq!(a.description.as_deref(), Some("one\ntwo"));
    }

    #[test]
    fn prose_shortened_by_yaml() {
        let t = with("initialPrompt: Handles C# and F# code #1 priority\n");
        assert_eq!(
            diags(&t),
            [(Code::InvalidValue, Severity::Warning, "#1 priority".into())]
        );
        let t = with("initialPrompt: !important note\n");
        assert_eq!(
            diags(&t),
            [(Code::InvalidValue, Severity::Warning, "!important".into())]
        );
        // A comment on a short value is just a comment; `C#` is not one.
        assert_eq!(diags(&with("model: sonnet # fast\n")), []);
        assert_eq!(diags(&with("initialPrompt: Use C# daily\n")), []);
        assert_eq!(diags(&with("initialPrompt: \"Use it #1\"\n")), []);
    }

    #[test]
    fn files_without_an_agent() {
        assert_eq!(
            diags("# Notes\n"),
            [(Code::NoFrontmatter, Severity::Info, "# Notes".into())]
        );
        assert_eq!(diags("---\n- a\n- b\n---\n")[0].0, Code::InvalidType);
        assert_eq!(diags("---\n- a\n- b\n---\n")[0].1, Severity::Info);
        let huge = format!("{OK}---\n{}", "x".repeat(MAX_BYTES));
        assert_eq!(diags(&huge)[0].1, Severity::Error);
    }
}
