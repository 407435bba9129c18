//! The checks of one Claude Code agent file and the agent the loader builds from it (spec
//! §7.4-7.6 for project and user agents, §7.9 for plugin agents).
//!
//! Severity follows what Claude Code does (§7.10): an error only where the loader skips the
//! file; a warning where it loads the agent with a value dropped or changed, or only thanks to
//! its retry; info for a Markdown file it treats as a reference document (no frontmatter, no
//! `name`).

use super::read::{Outcome, Reading};
use super::schema::{self};
use super::{AgentFile, MAX_BYTES, Source, first_line};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Map, Node, Style, Value};
use crate::analysis::text::Span;

mod fields;
mod hooks;
mod lenient;
mod lists;
mod model;

use fields::field_value;
use lenient::{lenient, line_of};
use model::Ctx;

pub use model::{Agent, Setting, Status};

pub use fields::{effort, max_turns};
pub(crate) use lenient::{lenient_parse, truncated};

/// Check one file and build its agent.
pub fn check(kind: &AgentFile, text: &str, reading: &Reading) -> (Vec<Diagnostic>, Agent) {
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
            lost: false,
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
mod tests;
