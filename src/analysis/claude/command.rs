//! Claude Code's command files (`.claude/commands/**/*.md`, a plugin's `commands/`; spec
//! `claude-code.md` §4), read as Claude Code 2.1.332 reads them: the frontmatter found, parsed
//! and retried as an agent's ([`super::read`]), the description and argument hint it shows, the
//! placeholders it fills in ([`super::prompt`]), the tool lists of a command or skill. The
//! hover card and the completion of such a file.

use super::prompt;
use super::{agent, read};
use crate::analysis::command::{CommandDecl, CommandKind, Values, card_head, card_runs, warn};
use crate::analysis::complete::{Item, ItemKind, item};
use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::syntax::{Node, Parsed, Value};
use crate::analysis::text::Span;

/// The frontmatter keys Claude Code reads in a command file, with their documentation.
pub const KEYS: &[(&str, &str)] = &[
    ("description", "Shown in the `/` menu (default: the body's first line)."),
    (
        "allowed-tools",
        "Permission rules pre-approved while the command runs (e.g. `Bash(git add:*)`).",
    ),
    (
        "argument-hint",
        "The hint shown after the name in the `/` menu, e.g. `\"[message] [--amend]\"`. Quote it: unquoted, `[file]` is a YAML list and Claude Code shows `file`.",
    ),
    ("model", "The model for this command."),
    (
        "disable-model-invocation",
        "`true` stops the model from running the command itself.",
    ),
    ("context", "`fork` runs it in a forked subagent."),
    ("agent", "The subagent type for `context: fork`."),
    ("effort", "`low`, `medium`, `high`, `xhigh` or `max`."),
    ("hooks", "Hooks while the command runs."),
    ("disallowed-tools", "Tools removed while it runs."),
    ("user-invocable", "`false` hides it from the `/` menu."),
    ("when_to_use", "Appended to the description."),
    (
        "arguments",
        "Names for the positional arguments (a list, or names separated by spaces): `$name` in the body is the argument at its position, as `$0` is the first.",
    ),
    ("shell", "`bash` or `powershell` for `!` commands."),
];

/// A Claude Code command file, read as Claude Code 2.1.332 reads it: the frontmatter found,
/// parsed and retried as an agent's ([`crate::analysis::claude::read`]); a command loads whatever
/// happens to its frontmatter (a frontmatter that fails both passes only loses its settings), so
/// nothing here is an error.
pub fn analyze(kind: &CommandKind, text: &str) -> (Vec<Diagnostic>, Parsed, CommandDecl) {
    let mut out = Vec::new();
    let mut decl = CommandDecl::default();
    let reading = read::read(text);
    // The body as sent: the loader's block pattern eats every blank after the closing `---`.
    let body_start = match &reading.block {
        Some(b) => {
            let rest = &text[b.body.start as usize..];
            b.body.start as usize + (rest.len() - rest.trim_start_matches(read::js_space).len())
        }
        None => 0,
    };
    decl.body = Span::new(body_start, text.len());
    let body = &text[body_start..];
    decl.template = body.trim().to_string();
    decl.mentions = super::prompt::mentions(text, decl.body);
    let first = crate::analysis::text::first_line(text);
    if decl.template.is_empty() {
        out.push(warn(
            Code::MissingTemplate,
            reading.block.as_ref().map_or(first, |b| b.open),
            Effect::FailsWhenUsed,
            format!(
                "`/{}` has an empty body, so it sends an empty prompt: the body is the template",
                kind.name
            ),
        ));
    }
    let map = match (&reading.block, reading.outcome) {
        (Some(block), outcome) => {
            if block.early {
                out.push(agent::truncated(block, &reading));
            }
            match outcome {
                read::Outcome::Failed => {
                    let (span, why) = reading
                        .first_errors
                        .first()
                        .map(|e| (e.span, e.message.clone()))
                        .unwrap_or((block.open, "not YAML".into()));
                    let crlf = if text[block.yaml.range()].contains("\r\n") {
                        " The file has CRLF line endings, so the retry (which quotes values with `: `) does nothing for it"
                    } else {
                        ""
                    };
                    out.push(warn(
                        Code::SyntaxError,
                        span,
                        Effect::ValueIgnored,
                        format!(
                            "the frontmatter does not parse ({why}), even with Claude Code's lenient retry: `/{}` loads with none of its settings.{crlf}",
                            kind.name
                        ),
                    ));
                    None
                }
                read::Outcome::NotMapping => {
                    if let Some(root) = &reading.parsed.root {
                        out.push(warn(
                            Code::InvalidType,
                            root.span,
                            Effect::ValueIgnored,
                            format!(
                                "the frontmatter is {}, not a mapping of `key: value` pairs: Claude Code reads it as empty, so none of its settings apply",
                                root.type_name()
                            ),
                        ));
                    }
                    None
                }
                read::Outcome::Retry => {
                    out.extend(agent::lenient_parse(text, &reading, &[]));
                    reading.parsed.root.as_ref().and_then(Node::as_map)
                }
                read::Outcome::FirstPass | read::Outcome::NoFrontmatter => {
                    reading.parsed.root.as_ref().and_then(Node::as_map)
                }
            }
        }
        (None, _) => None,
    };
    if let Some(map) = map {
        claude_fields(kind, text, map, &reading.parsed, body, &mut decl, &mut out);
    }
    let d = prompt::description(map.and_then(|m| m.value("description")), body, "Custom command");
    decl.description = Some(d.text);
    decl.description_from = Some(d.from);
    decl.argument_hint = prompt::argument_hint(map.and_then(|m| m.value("argument-hint")));
    decl.arguments = prompt::argument_names(map.and_then(|m| m.value("arguments")));
    decl.placeholders = prompt::placeholders(text, decl.body, &decl.arguments);
    out.extend(placeholders_in_code(&kind.name, text, &decl.placeholders));
    out.extend(argument_indexes(
        &kind.name,
        text,
        &decl.placeholders,
        decl.argument_hint.as_deref(),
        &decl.arguments,
    ));
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, reading.parsed, decl)
}

/// The booleans Claude Code reads (`true`/`false`, and since 2.1.218 `yes`/`no`, `on`/`off`,
/// `1`/`0` in any case, as strings or numbers): `None` for anything else.
pub(crate) fn claude_bool(v: &Node) -> Option<bool> {
    let s = match &v.value {
        Value::Bool(b) => return Some(*b),
        Value::Str(_) | Value::Int(_) | Value::Float(_) => prompt::js_string(v)?,
        _ => return None,
    };
    match s.trim().to_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The value `v` written as a double-quoted YAML string, when it sits on one line.
fn quote_fix(text: &str, v: &Node) -> Option<Edit> {
    let raw = v.span.text(text);
    if raw.is_empty() || raw.contains(['\n', '\r']) {
        return None;
    }
    Some(Edit::new(
        v.span,
        format!("\"{}\"", raw.replace('\\', "\\\\").replace('"', "\\\"")),
    ))
}

/// How Claude Code shows a `description` or `argument-hint` written as a number, boolean, list or
/// mapping, when that differs from the text written: the warning, with a fix quoting the value.
pub(crate) fn shown_differently(text: &str, key: &str, v: &Node, shown: &str, out: &mut Vec<Diagnostic>) {
    let raw = v.span.text(text);
    let what = match &v.value {
        Value::Seq(_) => "a YAML list, its items joined with commas, the brackets lost",
        Value::Map(_) => "a YAML mapping, which JavaScript writes so",
        Value::Int(_) | Value::Float(_) => "a YAML number, as JavaScript writes it",
        _ if raw == shown => return,
        _ => "a YAML value, as JavaScript writes it",
    };
    if matches!(v.value, Value::Int(_) | Value::Float(_)) && raw == shown {
        return;
    }
    let (name, keep) = if key == "argument-hint" {
        (
            "hint",
            if raw.starts_with('[') {
                "the brackets"
            } else {
                "it as written"
            },
        )
    } else {
        ("description", "it as written")
    };
    let mut d = warn(
        Code::InvalidType,
        v.span,
        Effect::ValueIgnored,
        format!("Claude Code shows the {name} `{shown}`: {what}. Quote the value to keep {keep}"),
    );
    // `argument-hint: [pr-number]`, as Claude Code's own documentation writes it: the hint
    // shows without its brackets, which costs the user nothing.
    if key == "argument-hint"
        && matches!(&v.value, Value::Seq(items) if items.len() == 1 && items[0].as_str().is_some())
    {
        d = d.with_severity(Severity::Info).with_effect(Effect::Works);
        d.message = format!(
            "Claude Code shows the hint `{shown}`, without its brackets (a YAML list of one item). Quote the value to keep them"
        );
    }
    if let Some(edit) = quote_fix(text, v) {
        d = d.with_fix(format!("Quote the {name}"), vec![edit], true);
    }
    out.push(d);
}

/// The frontmatter keys of a Claude Code command (its mapping, as the loader has it).
fn claude_fields(
    kind: &CommandKind,
    text: &str,
    map: &crate::analysis::syntax::Map,
    parsed: &Parsed,
    body: &str,
    decl: &mut CommandDecl,
    out: &mut Vec<Diagnostic>,
) {
    let known = KEYS;
    for dup in &parsed.duplicates {
        out.push(warn(
            Code::DuplicateKey,
            dup.first,
            Effect::ValueIgnored,
            format!(
                "`{}` is set again below; Claude Code uses the last one and ignores this one",
                dup.name
            ),
        ));
    }
    super::hooks::in_frontmatter(map, text, "command", out);
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        let v = &e.value;
        if map.get(key).is_some_and(|last| last.key.span != e.key.span) {
            continue; // a duplicate: the last one counts
        }
        if super::hooks::GUARDS.contains(&key) {
            continue; // outside `hooks`: said above
        }
        if !known.iter().any(|(k, _)| *k == key) {
            if key == "name" && kind.plugin {
                continue;
            }
            if matches!(key, "name" | "paths") {
                out.push(warn(
                    Code::UnknownKey,
                    e.key.span,
                    Effect::ValueIgnored,
                    format!(
                        "`{key}` is ignored in a command file (the path names the command: `/{}`)",
                        kind.name
                    ),
                ));
                continue;
            }
            let near = suggest::closest(key, known.iter().map(|(k, _)| *k));
            let mut d = warn(
                Code::UnknownKey,
                e.key.span,
                Effect::ValueIgnored,
                format!(
                    "Claude Code does not read `{key}` in a command and drops it.{}",
                    suggest::did_you_mean(near)
                ),
            );
            if let Some(n) = near {
                d = d.with_suggestion(e.key.span, n);
            }
            out.push(d);
            continue;
        }
        let not = |what: &str| format!("`{key}` must be {what}, not {}", v.type_name());
        match (key, &v.value) {
            (_, Value::Unknown) => {}
            ("description", Value::Seq(_) | Value::Map(_)) => {
                let d = prompt::description(None, body, "Custom command");
                out.push(warn(
                    Code::InvalidType,
                    v.span,
                    Effect::ValueIgnored,
                    format!(
                        "`description` must be a string, not {}: Claude Code drops it (\"Description invalid\") and shows `{}` instead, {}",
                        v.type_name(),
                        d.text,
                        match d.from {
                            prompt::DescriptionFrom::Default => "its default for a command with an empty body",
                            _ => "the body's first line",
                        }
                    ),
                ));
            }
            ("description", Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {
                if let Some(shown) = prompt::js_string(v) {
                    shown_differently(text, key, v, &shown, out);
                }
            }
            ("argument-hint", Value::Null | Value::Str(_)) => {}
            ("argument-hint", _) => {
                if let Some(shown) = prompt::argument_hint(Some(v)) {
                    shown_differently(text, key, v, &shown, out);
                }
            }
            ("disable-model-invocation", Value::Null) => {}
            ("disable-model-invocation" | "user-invocable", _) => {
                if key == "user-invocable" {
                    decl.hidden = claude_bool(v) != Some(true);
                }
                if claude_bool(v).is_none() {
                    let hidden = if key == "user-invocable" {
                        ": the command is hidden from the `/` menu"
                    } else {
                        " (the default)"
                    };
                    out.push(warn(
                        Code::InvalidValue,
                        v.span,
                        Effect::ValueIgnored,
                        format!(
                            "Claude Code reads `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0` here; {} counts as `false`{hidden}",
                            if matches!(v.value, Value::Null) {
                                "an empty value".to_string()
                            } else {
                                format!("`{}`", v.span.text(text))
                            }
                        ),
                    ));
                }
            }
            ("allowed-tools" | "disallowed-tools", _) => tools(key, v, map, text, out),
            (_, Value::Null) => {}
            ("agent", Value::Str(s)) => decl.agent = Some((s.clone(), v.span)),
            ("model", Value::Str(s)) => decl.model = Some(s.trim().to_string()),
            ("model", _) => out.push(warn(
                Code::InvalidType,
                v.span,
                Effect::ValueIgnored,
                format!("{}; Claude Code ignores it", not("a string")),
            )),
            ("context", Value::Str(s)) if s == "fork" => {}
            ("context", _) => out.push(warn(
                Code::InvalidValue,
                v.span,
                Effect::ValueIgnored,
                "`context` is `fork` or absent; Claude Code runs the command inline".into(),
            )),
            ("hooks" | "arguments", _) => {}
            // Claude Code writes a number or boolean as text (`effort` also takes an integer).
            (_, Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_)) => {}
            _ => out.push(warn(Code::InvalidType, v.span, Effect::ValueIgnored, not("a string"))),
        }
    }
}

/// The placeholders Claude Code fills in inside code (a fenced block or inline code) of the
/// body of `/name` that shell and other tools spell the same way: `$N` (a positional parameter,
/// an awk field) and the `$name`s of `arguments` (a shell variable), with a fix that keeps them
/// literal. `$ARGUMENTS` and `$ARGUMENTS[N]` are Claude Code's own spelling, put in code on
/// purpose: not reported (hover shows what they become).
pub(crate) fn placeholders_in_code(name: &str, text: &str, found: &[prompt::Placeholder]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let shell_like = |p: &&prompt::Placeholder| {
        p.in_code
            && matches!(
                p.kind,
                prompt::PlaceholderKind::Index(_) | prompt::PlaceholderKind::Named(..)
            )
    };
    for p in found.iter().filter(shell_like) {
        let written = p.span.text(text);
        let example = prompt::sample_value(name, p, written);
        let at = p.span.start as usize;
        out.push(
            Diagnostic::new(
                Code::PlaceholderInCode,
                p.span,
                format!(
                    "Claude Code replaces `{written}` inside code too: it is {} and {example}. Write `\\{written}` to keep it literal",
                    p.kind.meaning()
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::Works)
            .with_fix(
                format!("Keep `{written}` literal"),
                vec![Edit::new(Span::new(at, at), "\\")],
                false,
            ),
        );
    }
    out
}

/// How many arguments the `argument-hint` declares: `Some(n)` when every word of it is one
/// argument in brackets (`[issue] <branch>`), none of them open-ended (`[files...]`).
fn declared_by_hint(hint: &str) -> Option<usize> {
    let words: Vec<&str> = hint.split_whitespace().collect();
    let one = |w: &&str| {
        ((w.starts_with('[') && w.ends_with(']')) || (w.starts_with('<') && w.ends_with('>')))
            && w.len() > 2
            && !w.contains("...")
            && !w.contains('…')
    };
    (!words.is_empty() && words.iter().all(one)).then_some(words.len())
}

/// Placeholders that count from one (`$1` in a body whose prose never uses the first argument),
/// reported wherever they are, or written in prose past the arguments the command declares.
pub(crate) fn argument_indexes(
    name: &str,
    text: &str,
    found: &[prompt::Placeholder],
    hint: Option<&str>,
    arguments: &[String],
) -> Vec<Diagnostic> {
    use prompt::PlaceholderKind as K;
    let index = |p: &prompt::Placeholder| match p.kind {
        K::Index(n) | K::ArgumentsIndex(n) => Some(n),
        _ => None,
    };
    // `$ARGUMENTS` holds the first argument too; so does the first name of `arguments`.
    let uses_first = found
        .iter()
        .any(|p| matches!(p.kind, K::All | K::Named(_, 0)) || index(p) == Some(0));
    let (declared, by) = if arguments.is_empty() {
        match hint.and_then(|h| declared_by_hint(h).map(|n| (n, h))) {
            Some((n, h)) => (Some(n), format!("the `argument-hint` `{h}`")),
            None => (None, String::new()),
        }
    } else {
        (Some(arguments.len()), "`arguments`".to_string())
    };
    // Counted from one: judged on the prose (in code, `$1` may be an awk field or a shell
    // parameter, which `placeholder-in-code` speaks for), then reported and fixed everywhere.
    let counts_from_one = !uses_first && found.iter().any(|p| !p.in_code && index(p).is_some_and(|n| n >= 1));
    let declares = |n: usize| match n {
        1 => "1 argument".to_string(),
        n => format!("{n} arguments"),
    };
    // The fix for a body counted from one: every `$N` and `$ARGUMENTS[N]`, one lower.
    let shifted: Vec<Edit> = found
        .iter()
        .filter_map(|p| {
            let n = index(p)?;
            let new = match p.kind {
                K::Index(_) => format!("${}", n.checked_sub(1)?),
                _ => format!("$ARGUMENTS[{}]", n.checked_sub(1)?),
            };
            Some(Edit::new(p.span, new))
        })
        .collect();
    let mut out = Vec::new();
    for p in found.iter().filter(|p| counts_from_one || !p.in_code) {
        let Some(n) = index(p) else { continue };
        let written = p.span.text(text);
        let past = declared.filter(|d| n >= *d);
        let message = if counts_from_one && n >= 1 {
            let mut m = format!(
                "Claude Code counts arguments from `$0`: `{written}` is {}, and this body never uses the first (`$0`), so the argument typed after `/{name}` goes nowhere",
                ordinal_argument(n)
            );
            if let Some(d) = declared {
                m.push_str(&format!("; {by} declares {}", declares(d)));
            }
            m.push_str(". Count from `$0`");
            m
        } else if let Some(d) = past {
            format!(
                "`{written}` is {}, but {by} declares {}: unless more are typed, Claude Code leaves `{written}` as written",
                ordinal_argument(n),
                declares(d)
            )
        } else {
            continue;
        };
        let mut d = warn(Code::ArgumentIndex, p.span, Effect::FailsWhenUsed, message);
        if counts_from_one && n >= 1 && !shifted.is_empty() {
            d = d.with_fix("Count the arguments from `$0`", shifted.clone(), false);
        }
        out.push(d);
    }
    out
}

/// "the second argument" for index 1.
fn ordinal_argument(n: usize) -> String {
    prompt::PlaceholderKind::Index(n)
        .meaning()
        .split(" (")
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `allowed-tools` and `disallowed-tools` of a command or skill: permission rules `Tool` or
/// `Tool(specifier)`; the tool names are checked (a case slip or a near miss gets a fix), and an
/// allow for every command of a shell tool is a `broad-grant`. `map`: the whole frontmatter.
pub(crate) fn tools(key: &str, v: &Node, map: &crate::analysis::syntax::Map, text: &str, out: &mut Vec<Diagnostic>) {
    use super::{schema, tools};
    // A shell tool `disallowed-tools` removes whole: allowing all of it grants nothing.
    let removed = |name: &str| {
        map.value("disallowed-tools").is_some_and(|d| {
            tools::read(d, text).items().iter().any(|i| {
                let (n, spec) = tools::parts(&i.text);
                n == name && tools::whole_shell(n, spec)
            })
        })
    };
    let effect = if key == "disallowed-tools" {
        "this entry removes nothing"
    } else {
        "this rule pre-approves nothing"
    };
    for item in tools::read(v, text).items() {
        if item.cut {
            continue;
        }
        if let Some(u) = &item.unclosed {
            let mut d = warn(Code::UnknownTool, u.span, Effect::ValueIgnored, u.message(effect));
            if let Some(edit) = u.fix() {
                d = d.with_fix(tools::ADD_PARENTHESIS, vec![edit], false);
            }
            out.push(d);
            continue;
        }
        let (name, spec) = tools::parts(&item.text);
        if key == "allowed-tools" && tools::whole_shell(name, spec) && !removed(name) {
            out.push(warn(
                Code::BroadGrant,
                item.span,
                Effect::Works,
                format!(
                    "`{}` in `allowed-tools` runs every {name} command without asking while the skill or command is active, for everyone who uses this file: list the commands it needs instead, as in `{name}(git log *)`",
                    item.text
                ),
            ));
            continue;
        }
        if key == "allowed-tools"
            && let Some(head) = tools::any_command(name, spec)
            && !removed(name)
        {
            out.push(warn(
                Code::BroadGrant,
                item.span,
                Effect::Works,
                format!(
                    "`{}` in `allowed-tools` lets every {name} command run without asking while the skill or command is active, for everyone who uses this file: {}, so the model runs any command through it. Allow the scripts it needs instead, as in `{name}(python3 scripts/check.py *)`",
                    item.text,
                    tools::runs_what(head)
                ),
            ));
            continue;
        }
        if item.text.starts_with("mcp__") || schema::TOOLS.contains(&name) || name == "Task" {
            continue;
        }
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
        let mut d = warn(
            Code::UnknownTool,
            item.span,
            Effect::ValueIgnored,
            format!(
                "Claude Code has no tool `{name}`; {effect}.{}",
                suggest::did_you_mean(near)
            ),
        );
        if let (Some(n), true) = (near, item.exact) {
            let base = item.span.start as usize;
            d = d.with_suggestion(Span::new(base, base + name.len()), n);
        }
        out.push(d);
    }
}

/// The hover card of a Claude Code command; `text`: the file's text.
pub fn card(kind: &CommandKind, decl: &CommandDecl, text: &str) -> String {
    let mut md = card_head(kind, decl);
    if let Some(h) = &decl.argument_hint {
        md.push_str(&format!("- **argument hint**: `{h}`\n"));
    }
    if !decl.arguments.is_empty() {
        let names: Vec<String> = decl
            .arguments
            .iter()
            .enumerate()
            .map(|(i, n)| format!("`${n}` (`${i}`)"))
            .collect();
        md.push_str(&format!("- **arguments**: {}\n", names.join(", ")));
    }
    md.push_str(&card_runs(decl, ""));
    let body = text.get(decl.body.start as usize..).unwrap_or("");
    md.push('\n');
    md.push_str(&prompt::sends(&kind.name, body, &decl.arguments, None));
    md
}

/// The effort levels, as `effort` values.
pub fn effort_items() -> Vec<Item> {
    super::schema::EFFORTS
        .iter()
        .enumerate()
        .map(|(i, e)| item(e, ItemKind::Value, "effort", None, i as u8))
        .collect()
}

/// Completion in a Claude Code command's frontmatter: its keys; values for `agent` (the
/// project's agents, with their modes), `model` (Claude Code's aliases, then the `models` the
/// workspace knows), booleans and enums; tool names in `allowed-tools` and `disallowed-tools`
/// lists (the entry under the cursor).
pub fn complete(text: &str, offset: usize, agents: &[(String, String)], models: &[String]) -> Vec<Item> {
    let at = offset.min(text.len());
    let values = |key: &str, replace: Span| match key {
        "effort" => Some(Values::Items(effort_items())),
        "model" => Some(Values::Items(super::complete::model_items(true, models))),
        "allowed-tools" | "disallowed-tools" => {
            let mut out: Vec<_> = super::schema::TOOLS
                .iter()
                .map(|t| item(t, ItemKind::Value, "tool", None, 0))
                .collect();
            if key == "disallowed-tools" {
                out.push(item("mcp__*", ItemKind::Value, "every MCP tool", None, 1));
            }
            // A space- or comma-separated list: complete the entry under the cursor only.
            let start = super::complete::list_entry_start(text, at, replace);
            for it in &mut out {
                it.replace = Span::new(start, at);
                it.insert = it.label.clone();
            }
            Some(Values::Ready(out))
        }
        _ => None,
    };
    crate::analysis::command::complete(text, offset, KEYS, agents, &values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::dialect::Dialect;
    use expect_test::expect;

    fn kind() -> CommandKind {
        CommandKind {
            plugin: false,
            runtime: Dialect::Claude,
            name: "review".into(),
        }
    }

    fn diags(text: &str) -> Vec<(Code, Severity, String)> {
        analyze(&kind(), text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    #[test]
    fn claude_commands() {
        use Code::*;
        assert_eq!(diags("Review $ARGUMENTS\n"), []);
        assert_eq!(
            diags("---\nallowed-tools: Bash(git add:*), Reed\nargument-hint: <f>\n---\nGo\n"),
            [(UnknownTool, Severity::Warning, "Reed".into())]
        );
        assert_eq!(
            diags("---\nname: x\n---\nGo\n"),
            [(UnknownKey, Severity::Warning, "name".into())]
        );
    }

    /// `broad-grant`: `allowed-tools` that lets every command of a shell tool through, on the
    /// entry; nothing for a narrower entry, for `disallowed-tools`, or where `disallowed-tools`
    /// removes the whole tool.
    #[test]
    fn allowed_tools_for_the_whole_shell() {
        use Code::*;
        let w = |s: &str| (BroadGrant, Severity::Warning, s.to_string());
        assert_eq!(diags("---\nallowed-tools: Read, Bash\n---\nGo\n"), [w("Bash")]);
        assert_eq!(
            diags("---\nallowed-tools: [\"Bash(*)\", \"PowerShell(:*)\", Bash(git log *)]\n---\nGo\n"),
            [w("Bash(*)"), w("PowerShell(:*)")]
        );
        assert_eq!(
            diags("---\nallowed-tools: Bash(git log *), Read\ndisallowed-tools: Bash\n---\nGo\n"),
            []
        );
        assert_eq!(
            diags("---\nallowed-tools: Bash\ndisallowed-tools: Bash(*)\n---\nGo\n"),
            []
        );
        assert_eq!(
            diags("---\nallowed-tools: Bash\ndisallowed-tools: PowerShell, Bash(rm *)\n---\nGo\n"),
            [w("Bash")]
        );
        let (d, _, _) = analyze(&kind(), "---\nallowed-tools: Bash\n---\nGo\n");
        assert_eq!(
            d[0].message,
            "`Bash` in `allowed-tools` runs every Bash command without asking while the skill or command is active, for everyone who uses this file: list the commands it needs instead, as in `Bash(git log *)`"
        );
    }

    /// `broad-grant`: `allowed-tools` with a program that runs whatever its arguments hold.
    #[test]
    fn allowed_tools_for_a_runner_with_any_arguments() {
        use Code::*;
        let w = |s: &str| (BroadGrant, Severity::Warning, s.to_string());
        assert_eq!(
            diags("---\nallowed-tools: Read, Bash(node:*), Bash(uv run *), Bash(python3 scripts/run.py *)\n---\nGo\n"),
            [w("Bash(node:*)"), w("Bash(uv run *)")]
        );
        assert_eq!(
            diags("---\nallowed-tools: Bash(env *)\ndisallowed-tools: Bash\n---\nGo\n"),
            []
        );
        assert_eq!(diags("---\ndisallowed-tools: Bash(env *)\n---\nGo\n"), []);
        let (d, _, _) = analyze(&kind(), "---\nallowed-tools: Bash(xargs *)\n---\nGo\n");
        assert_eq!(
            d[0].message,
            "`Bash(xargs *)` in `allowed-tools` lets every Bash command run without asking while the skill or command is active, for everyone who uses this file: `xargs` runs whatever command follows it, so the model runs any command through it. Allow the scripts it needs instead, as in `Bash(python3 scripts/check.py *)`"
        );
    }

    /// Every diagnostic of a Claude Code command `/review`: code, severity, the text under the
    /// span, the message, and the fix's edits applied to the text under them.
    fn claude(text: &str) -> String {
        let (diags, _, _) = analyze(&kind(), text);
        let mut out = String::new();
        for d in diags {
            out.push_str(&format!(
                "{} {} `{}`: {}\n",
                d.code.as_str(),
                d.severity.as_str(),
                d.span.text(text),
                d.message
            ));
            if let Some(f) = &d.fix {
                let mut fixed = text.to_string();
                for e in f.edits.iter().rev() {
                    fixed.replace_range(e.span.range(), &e.text);
                }
                out.push_str(&format!(
                    "  fix ({}): {:?}\n",
                    if f.safe { "safe" } else { "editor" },
                    fixed
                ));
            }
        }
        out
    }

    fn claude_decl(text: &str) -> CommandDecl {
        analyze(&kind(), text).2
    }

    #[test]
    fn claude_commands_read_through_the_lenient_retry() {
        // Invalid YAML, rescued by the retry: the hint as written, the other fields kept.
        let t = "---\nargument-hint: [message] [--amend]\ndescription: Commit\n---\nDo it $ARGUMENTS\n";
        expect![[r#"
            lenient-parse warning `[message] [--amend]`: this value is not valid YAML (it starts with or holds a character YAML reserves); Claude Code reads the file only through its lenient retry, which quotes it. Quote it so that every YAML reader agrees
              fix (safe): "---\nargument-hint: \"[message] [--amend]\"\ndescription: Commit\n---\nDo it $ARGUMENTS\n"
        "#]]
        .assert_eq(&claude(t));
        let d = claude_decl(t);
        assert_eq!(d.argument_hint.as_deref(), Some("[message] [--amend]"));
        assert_eq!(d.description.as_deref(), Some("Commit"));
        assert_eq!(d.description_from, Some(prompt::DescriptionFrom::Field));
        // A `: ` in the description.
        let t = "---\ndescription: Review: the diff\nmodel: sonnet\n---\nGo\n";
        assert_eq!(claude_decl(t).description.as_deref(), Some("Review: the diff"));
        assert_eq!(claude_decl(t).model.as_deref(), Some("sonnet"));
        assert_eq!(
            diags(t),
            [(Code::LenientParse, Severity::Warning, "Review: the diff".into())]
        );
        // CRLF: the retry does nothing; the command still loads, described by its body.
        let t = "---\r\nargument-hint: [message] [--amend]\r\ndescription: x\r\n---\r\nCRLF body\r\n";
        expect![[r#"
            syntax-error warning `[`: the frontmatter does not parse (while parsing a block mapping, did not find expected key), even with Claude Code's lenient retry: `/review` loads with none of its settings. The file has CRLF line endings, so the retry (which quotes values with `: `) does nothing for it
        "#]]
        .assert_eq(&claude(t));
        let d = claude_decl(t);
        assert_eq!(d.description.as_deref(), Some("CRLF body"));
        assert_eq!(d.argument_hint, None);
    }

    #[test]
    fn claude_hints_and_descriptions_as_shown() {
        // A YAML list: the hint Claude Code shows loses its brackets.
        let t = "---\nargument-hint: [focus-area]\ndescription: d2\n---\nBody\n";
        expect![[r#"
            invalid-type info `[focus-area]`: Claude Code shows the hint `focus-area`, without its brackets (a YAML list of one item). Quote the value to keep them
              fix (safe): "---\nargument-hint: \"[focus-area]\"\ndescription: d2\n---\nBody\n"
        "#]]
        .assert_eq(&claude(t));
        assert_eq!(claude_decl(t).argument_hint.as_deref(), Some("focus-area"));
        let t = "---\nargument-hint: [a, \"b\\\\c\"]\n---\nBody\n";
        expect![[r#"
            invalid-type warning `[a, "b\\c"]`: Claude Code shows the hint `a,b\c`: a YAML list, its items joined with commas, the brackets lost. Quote the value to keep the brackets
              fix (safe): "---\nargument-hint: \"[a, \\\"b\\\\\\\\c\\\"]\"\n---\nBody\n"
        "#]]
        .assert_eq(&claude(t));
        // Numbers as JavaScript writes them; the same text is fine.
        let t = "---\nargument-hint: 1.50\ndescription: 0x1F\n---\nBody\n";
        expect![[r#"
            invalid-type warning `1.50`: Claude Code shows the hint `1.5`: a YAML number, as JavaScript writes it. Quote the value to keep it as written
              fix (safe): "---\nargument-hint: \"1.50\"\ndescription: 0x1F\n---\nBody\n"
            invalid-type warning `0x1F`: Claude Code shows the description `31`: a YAML number, as JavaScript writes it. Quote the value to keep it as written
              fix (safe): "---\nargument-hint: 1.50\ndescription: \"0x1F\"\n---\nBody\n"
        "#]]
        .assert_eq(&claude(t));
        assert_eq!(claude("---\nargument-hint: 42\ndescription: true\n---\nBody\n"), "");
        let t = "---\nargument-hint: {a: 1}\n---\nBody\n";
        assert_eq!(claude_decl(t).argument_hint.as_deref(), Some("[object Object]"));
        assert!(claude(t).starts_with(
            "invalid-type warning `{a: 1}`: Claude Code shows the hint `[object Object]`: a YAML mapping"
        ));
        // A description that is a list is dropped; the body's first line stands in.
        let t = "---\ndescription: [x, y]\n---\n\n# Review the diff\nmore\n";
        expect![[r#"
            invalid-type warning `[x, y]`: `description` must be a string, not a list: Claude Code drops it ("Description invalid") and shows `Review the diff` instead, the body's first line
        "#]]
        .assert_eq(&claude(t));
        let d = claude_decl(t);
        assert_eq!(d.description.as_deref(), Some("Review the diff"));
        assert_eq!(d.description_from, Some(prompt::DescriptionFrom::Body));
        // No frontmatter at all; an empty body.
        let d = claude_decl("Review <this> file\n");
        assert_eq!(d.description.as_deref(), Some("Review &lt;this&gt; file"));
        let d = claude_decl("---\nargument-hint: x\n---\n");
        assert_eq!(d.description.as_deref(), Some("Custom command"));
        assert_eq!(d.description_from, Some(prompt::DescriptionFrom::Default));
    }

    /// `allowed-tools: Bash(npm test:*`: one finding that the `)` is missing, with its fix.
    #[test]
    fn a_rule_missing_its_closing_parenthesis() {
        let t = "---\nallowed-tools: Bash(npm test:*, Read\n---\nGo\n";
        expect![[r#"
            unknown-tool warning `Bash(npm test:*`: `Bash(npm test:*` has no closing `)`: Claude Code cuts it at the spaces into `Bash(npm`, `test:*`, which are no tools; this rule pre-approves nothing
              fix (editor): "---\nallowed-tools: Bash(npm test:*), Read\n---\nGo\n"
        "#]]
        .assert_eq(&claude(t));
    }

    #[test]
    fn claude_fields() {
        let t = "---\nname: x\npaths: a\ndisable-model-invocation: yes\nuser-invocable: maybe\nallowed-tools: Rd, Bash(git add:*)\ndisallowed-tools: [Wrte]\ncontext: forked\nmodel: [a]\nefort: high\n---\nGo\n";
        expect![[r#"
            unknown-key warning `name`: `name` is ignored in a command file (the path names the command: `/review`)
            unknown-key warning `paths`: `paths` is ignored in a command file (the path names the command: `/review`)
            invalid-value warning `maybe`: Claude Code reads `true`/`false`, `yes`/`no`, `on`/`off` or `1`/`0` here; `maybe` counts as `false`: the command is hidden from the `/` menu
            unknown-tool warning `Rd`: Claude Code has no tool `Rd`; this rule pre-approves nothing. Did you mean `Read`?
              fix (editor): "---\nname: x\npaths: a\ndisable-model-invocation: yes\nuser-invocable: maybe\nallowed-tools: Read, Bash(git add:*)\ndisallowed-tools: [Wrte]\ncontext: forked\nmodel: [a]\nefort: high\n---\nGo\n"
            unknown-tool warning `Wrte`: Claude Code has no tool `Wrte`; this entry removes nothing. Did you mean `Write`?
              fix (editor): "---\nname: x\npaths: a\ndisable-model-invocation: yes\nuser-invocable: maybe\nallowed-tools: Rd, Bash(git add:*)\ndisallowed-tools: [Write]\ncontext: forked\nmodel: [a]\nefort: high\n---\nGo\n"
            invalid-value warning `forked`: `context` is `fork` or absent; Claude Code runs the command inline
            invalid-type warning `[a]`: `model` must be a string, not a list; Claude Code ignores it
            unknown-key warning `efort`: Claude Code does not read `efort` in a command and drops it. Did you mean `effort`?
              fix (editor): "---\nname: x\npaths: a\ndisable-model-invocation: yes\nuser-invocable: maybe\nallowed-tools: Rd, Bash(git add:*)\ndisallowed-tools: [Wrte]\ncontext: forked\nmodel: [a]\neffort: high\n---\nGo\n"
        "#]]
        .assert_eq(&claude(t));
        assert!(claude_decl(t).hidden);
        for (value, hidden) in [("no", true), ("", true), ("Yes", false), ("1", false), ("false", true)] {
            let t = format!("---\nuser-invocable: {value}\n---\nGo\n");
            assert_eq!(claude_decl(&t).hidden, hidden, "{value:?}");
        }
        assert!(!claude_decl("Go\n").hidden);
        // Duplicates: the last one counts.
        let t = "---\ndescription: a\ndescription: b\n---\nGo\n";
        assert_eq!(claude_decl(t).description.as_deref(), Some("b"));
        assert_eq!(
            diags(t),
            [(Code::DuplicateKey, Severity::Warning, "description".into())]
        );
        // A `---` inside the block ends it.
        let t = "---\ndescription: Use this --- when needed\nmodel: opus\n---\nGo\n";
        assert_eq!(claude_decl(t).description.as_deref(), Some("Use this"));
        assert_eq!(diags(t)[0].0, Code::TruncatedFrontmatter);
        // A list as the whole frontmatter.
        assert_eq!(
            diags("---\n- a\n---\nGo\n"),
            [(Code::InvalidType, Severity::Warning, "- a\n".into())]
        );
    }

    #[test]
    fn an_empty_value_sets_nothing_and_is_no_mistake() {
        // `model:` with nothing after it: Claude Code reads no model (YAML null), as if absent.
        let t = "---\nmodel:\ncontext:\neffort:\nagent:\n---\nGo\n";
        assert_eq!(diags(t), []);
        let d = claude_decl(t);
        assert_eq!((d.model, d.agent), (None, None));
    }

    #[test]
    fn arguments_counted_from_one_or_past_the_hint() {
        // The classic: `$1` for the one argument the hint declares, in prose and in code.
        // (Only in code, `$1` may be a shell's: `placeholder-in-code` alone speaks for it.)
        assert!(!claude("---\ndescription: d\n---\nRun `awk '{print $1}'`\n").contains("argument-index"));
        let t = "---\nargument-hint: \"[issue]\"\ndescription: d\n---\nLook at issue #$1.\nThen `gh issue view $1`.\n";
        expect![[r#"
            argument-index warning `$1`: Claude Code counts arguments from `$0`: `$1` is the second argument, and this body never uses the first (`$0`), so the argument typed after `/review` goes nowhere; the `argument-hint` `[issue]` declares 1 argument. Count from `$0`
              fix (editor): "---\nargument-hint: \"[issue]\"\ndescription: d\n---\nLook at issue #$0.\nThen `gh issue view $0`.\n"
            placeholder-in-code warning `$1`: Claude Code replaces `$1` inside code too: it is the second argument (Claude Code counts from `$0`) and `/review one two three` puts `two` here. Write `\$1` to keep it literal
              fix (editor): "---\nargument-hint: \"[issue]\"\ndescription: d\n---\nLook at issue #$1.\nThen `gh issue view \\$1`.\n"
            argument-index warning `$1`: Claude Code counts arguments from `$0`: `$1` is the second argument, and this body never uses the first (`$0`), so the argument typed after `/review` goes nowhere; the `argument-hint` `[issue]` declares 1 argument. Count from `$0`
              fix (editor): "---\nargument-hint: \"[issue]\"\ndescription: d\n---\nLook at issue #$0.\nThen `gh issue view $0`.\n"
        "#]]
        .assert_eq(&claude(t));
        // `$ARGUMENTS[N]` counts the same; the fix shifts every index.
        let t = "---\ndescription: d\n---\nFrom $ARGUMENTS[1] to $2.\n";
        expect![[r#"
            argument-index warning `$ARGUMENTS[1]`: Claude Code counts arguments from `$0`: `$ARGUMENTS[1]` is the second argument, and this body never uses the first (`$0`), so the argument typed after `/review` goes nowhere. Count from `$0`
              fix (editor): "---\ndescription: d\n---\nFrom $ARGUMENTS[0] to $1.\n"
            argument-index warning `$2`: Claude Code counts arguments from `$0`: `$2` is the third argument, and this body never uses the first (`$0`), so the argument typed after `/review` goes nowhere. Count from `$0`
              fix (editor): "---\ndescription: d\n---\nFrom $ARGUMENTS[0] to $1.\n"
        "#]]
        .assert_eq(&claude(t));
        // Counted from `$0`, but past the two the hint declares.
        let t = "---\nargument-hint: \"[from] <to>\"\ndescription: d\n---\nFrom $0 to $1, then $2.\n";
        expect![[r#"
            argument-index warning `$2`: `$2` is the third argument, but the `argument-hint` `[from] <to>` declares 2 arguments: unless more are typed, Claude Code leaves `$2` as written
        "#]]
        .assert_eq(&claude(t));
        // Nothing to say: counted from `$0` within the hint; `$ARGUMENTS` or the first name holds
        // the first argument; an open-ended or free-text hint declares no count.
        for t in [
            "---\nargument-hint: \"[a] [b]\"\ndescription: d\n---\n$0 and $1\n",
            "---\ndescription: d\n---\nAll of $ARGUMENTS, the second is $1\n",
            "---\narguments: [a, b]\ndescription: d\n---\n$a then $1\n",
            "---\nargument-hint: \"[files...]\"\ndescription: d\n---\n$0 $1 $2 $3\n",
            "---\nargument-hint: the issue number\ndescription: d\n---\n$0 $1 $2\n",
            "---\ndescription: d\n---\nPrice: \\$1\n",
        ] {
            assert_eq!(claude(t), "", "{t}");
        }
        // `arguments` declares the count too.
        let t = "---\narguments: [a]\ndescription: d\n---\n$a then $1\n";
        assert!(
            claude(t).starts_with(
                "argument-index warning `$1`: `$1` is the second argument, but `arguments` declares 1 argument"
            ),
            "{}",
            claude(t)
        );
    }

    #[test]
    fn claude_placeholders_inside_code() {
        let t = "---\narguments: [file]\n---\nFix $0 in $file.\n```sh\nawk '{print $1}' $ARGUMENTS\n```\nThen `cat $file` and \\$1 and `\\$2`.\n";
        expect![[r#"
            placeholder-in-code warning `$1`: Claude Code replaces `$1` inside code too: it is the second argument (Claude Code counts from `$0`) and `/review one two three` puts `two` here. Write `\$1` to keep it literal
              fix (editor): "---\narguments: [file]\n---\nFix $0 in $file.\n```sh\nawk '{print \\$1}' $ARGUMENTS\n```\nThen `cat $file` and \\$1 and `\\$2`.\n"
            placeholder-in-code warning `$file`: Claude Code replaces `$file` inside code too: it is the first argument (`file` in `arguments`) and `/review one two three` puts `one` here. Write `\$file` to keep it literal
              fix (editor): "---\narguments: [file]\n---\nFix $0 in $file.\n```sh\nawk '{print $1}' $ARGUMENTS\n```\nThen `cat \\$file` and \\$1 and `\\$2`.\n"
        "#]]
        .assert_eq(&claude(t));
        let d = claude_decl(t);
        assert_eq!(d.arguments, ["file"]);
        assert_eq!(d.placeholders.len(), 5);
        assert_eq!(
            prompt::expand(&t[d.body.start as usize..], "a.rs b", &d.arguments),
            "Fix a.rs in a.rs.\n```sh\nawk '{print b}' a.rs b\n```\nThen `cat a.rs` and $1 and `$2`.\n"
        );
        // Out of range with the sample arguments.
        let t = "---\ndescription: d\n---\nRun `echo $7`\n";
        assert!(
            claude(t).contains("`/review one two three` leaves it as `$7` (there is no such argument)"),
            "{}",
            claude(t)
        );
    }

    #[test]
    fn claude_card() {
        let t = "---\ndescription: Commit <staged>\nargument-hint: \"[message] [--amend]\"\narguments: msg\n---\n\nCommit with `$msg`; then run !`git log -1`.\n";
        let (_, _, d) = analyze(&kind(), t);
        expect![[r#"
            ### `/review`: Claude Code command

            Commit &lt;staged&gt;

            - **argument hint**: `[message] [--amend]`
            - **arguments**: `$msg` (`$0`)
            - **runs with**: the current agent
            - **model**: the agent's, else the session's
            - `` !`…` `` in the template **runs in your shell** when the command is used

            `/review one two three` sends:

            ```
            Commit with `one`; then run !`git log -1`.
            ```
        "#]]
        .assert_eq(&card(&kind(), &d, t));
        let t = "Review it\n```\n$ARGUMENTS\n```\n";
        let (_, _, d) = analyze(&kind(), t);
        expect![[r#"
            ### `/review`: Claude Code command

            Review it *(no `description`: the body's first line)*

            - **runs with**: the current agent
            - **model**: the agent's, else the session's

            `/review one two three` sends:

            ````
            Review it
            ```
            one two three
            ```
            ````
        "#]]
        .assert_eq(&card(&kind(), &d, t));
    }

    #[test]
    fn claude_hostile_inputs_do_not_panic() {
        let alphabet = [
            "---",
            "\n",
            "\r\n",
            ": ",
            "[",
            "]",
            "{",
            "}",
            "$",
            "$1",
            "$ARGUMENTS",
            "`",
            "```",
            "\\",
            "\"",
            "'",
            "#",
            "é",
            "🚀",
            "\t",
            "argument-hint",
            "description",
            "arguments",
            "allowed-tools",
            "- ",
            "\u{feff}",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            let mut s = String::new();
            for _ in 0..(seed % 40) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let (diags, _, d) = analyze(&kind(), &s);
            for x in diags {
                assert!(s.get(x.span.start as usize..x.span.end as usize).is_some(), "{s:?}");
            }
            let _ = card(&kind(), &d, &s);
        }
    }
}
