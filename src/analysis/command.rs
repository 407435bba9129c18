//! Command files (`/name` prompts in Markdown): opencode's `{command,commands}/**/*.md` (spec
//! `opencode.md` §11), Claude Code's `.claude/commands/**/*.md` (`claude-code.md` §4) and Zuno's
//! `.zuno/{command,commands}/**/*.md` (`zuno.md` §4.2). The body is the template; the
//! frontmatter says which agent runs it, with which model, and (opencode, Zuno) whether as a
//! subtask. Nothing in a template is ever run here: `` !`cmd` `` is only described.

use super::claude::prompt;
use super::diagnostic::{Diagnostic, Edit, Effect, Severity};
use super::dialect::Dialect;
use super::rules::Code;
use super::suggest;
use super::syntax::frontmatter;
use super::syntax::{Node, Parsed, Value, yaml};
use super::text::Span;

/// What a command file is, decided by the caller from its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandKind {
    /// The runtime that reads it.
    pub runtime: Dialect,
    /// The command's name: the path below `command(s)/` without `.md` (opencode, Zuno), the file
    /// name (Claude Code), `plugin:sub:file` for a Claude Code plugin's command.
    pub name: String,
    /// A Claude Code plugin's command: its frontmatter `name` renames it (the last part of
    /// `name`), where a project command ignores it.
    pub plugin: bool,
}

/// What a command file declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandDecl {
    pub agent: Option<(String, Span)>,
    pub model: Option<String>,
    pub subtask: Option<bool>,
    /// opencode and Zuno: `description` as written. Claude Code: the description it shows,
    /// always set (`description`, else the body's first line, else `Custom command`), cleaned to
    /// one line with `<` and `>` escaped, as its command listing has it (without the
    /// ` (project)` the listing appends).
    pub description: Option<String>,
    /// Claude Code: where the description comes from.
    pub description_from: Option<prompt::DescriptionFrom>,
    /// Claude Code: the argument hint it shows (`None`: none; the listing then has `""`).
    pub argument_hint: Option<String>,
    /// Claude Code: the names of `arguments` (`$name` in the body).
    pub arguments: Vec<String>,
    /// Claude Code: the placeholders of the body it fills in.
    pub placeholders: Vec<prompt::Placeholder>,
    /// Claude Code: `user-invocable` is set and does not read as true (`false`, `no`, `maybe`,
    /// empty): the command is left out of the `/` menu and of its command listing.
    pub hidden: bool,
    /// Claude Code: the body as it sends it (from the first non-blank character after the
    /// frontmatter).
    pub body: Span,
    /// The template (the trimmed body).
    pub template: String,
}

/// The frontmatter keys each runtime reads in a command file, with their documentation.
pub fn keys(runtime: Dialect) -> &'static [(&'static str, &'static str)] {
    match runtime {
        Dialect::Claude => &[
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
        ],
        _ => &[
            ("description", "Shown in the command list."),
            (
                "agent",
                "The agent that runs the command (nested agents by path, `team/reviewer`).",
            ),
            ("model", "`provider/model` for this command (before the agent's model)."),
            ("variant", "The model variant."),
            (
                "subtask",
                "`true`: run as a subagent task; `false`: inline even for a subagent.",
            ),
        ],
    }
}

fn warn(code: Code, span: Span, effect: Effect, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Warning)
        .with_effect(effect)
}

/// Analyse one command file.
pub fn analyze(kind: &CommandKind, text: &str) -> (Vec<Diagnostic>, Parsed, CommandDecl) {
    if kind.runtime == Dialect::Claude {
        return analyze_claude(kind, text);
    }
    let mut out = Vec::new();
    let mut decl = CommandDecl::default();
    let split = frontmatter::split(text);
    let body = split.body.text(text).trim();
    decl.template = body.to_string();
    let first = crate::analysis::text::first_line(text);
    if body.is_empty() {
        out.push(warn(
            Code::MissingTemplate,
            split.frontmatter.as_ref().map_or(first, |f| f.open),
            Effect::FailsWhenUsed,
            format!(
                "`/{}` has an empty body, so it sends an empty prompt: the body is the template",
                kind.name
            ),
        ));
    }
    let Some(fm) = split.frontmatter.filter(|f| f.close.is_some()) else {
        return (out, Parsed::default(), decl);
    };
    let opencode = kind.runtime == Dialect::OpenCode;
    let parsed = if opencode {
        yaml::parse(fm.yaml.text(text), fm.yaml.start as usize)
    } else {
        yaml::parse_core(fm.yaml.text(text), fm.yaml.start as usize)
    };
    // opencode refuses the configuration on a command file that breaks its schema (§11.4).
    let refuse = |code: Code, span: Span, message: String| {
        if opencode {
            Diagnostic::new(
                code,
                span,
                format!(
                    "{message}; opencode refuses the configuration (a command file that breaks its schema is fatal)"
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::RefusesToStart)
        } else {
            let d = Diagnostic::new(code, span, message);
            d.with_severity(Severity::Warning).with_effect(Effect::ValueIgnored)
        }
    };
    if let Some(e) = parsed.errors.first() {
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                e.span,
                format!(
                    "{}: the frontmatter does not parse, so none of its settings apply",
                    e.message
                ),
            )
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
        );
        return (out, parsed, decl);
    }
    let Some(map) = parsed.root.as_ref().and_then(Node::as_map) else {
        return (out, parsed, decl);
    };
    let known = keys(kind.runtime);
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        let v = &e.value;
        if !known.iter().any(|(k, _)| *k == key) {
            let other = if keys(Dialect::Claude).iter().any(|(k, _)| *k == key) {
                " It is a Claude Code command key"
            } else {
                ""
            };
            let near = suggest::closest(key, known.iter().map(|(k, _)| *k));
            let mut d = warn(
                Code::UnknownKey,
                e.key.span,
                Effect::ValueIgnored,
                format!(
                    "{} does not read `{key}` in a command and drops it.{other}{}",
                    kind.runtime.product(),
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
            (_, Value::Null | Value::Unknown) => {}
            ("subtask" | "disable-model-invocation" | "user-invocable", Value::Bool(b)) => {
                if key == "subtask" {
                    decl.subtask = Some(*b);
                }
            }
            ("subtask" | "disable-model-invocation" | "user-invocable", _) => {
                out.push(refuse(Code::InvalidType, v.span, not("`true` or `false`")))
            }
            ("agent", Value::Str(s)) => decl.agent = Some((s.clone(), v.span)),
            ("model", Value::Str(s)) => {
                decl.model = Some(s.clone());
                if !s.contains('/') {
                    out.push(warn(
                        Code::InvalidModel,
                        v.span,
                        Effect::FailsWhenUsed,
                        format!("`{s}` is not of the form `provider/model`; the command fails when it runs"),
                    ));
                }
            }
            ("description", Value::Str(s)) => decl.description = Some(s.clone()),
            (_, Value::Str(_)) => {}
            _ => out.push(refuse(Code::InvalidType, v.span, not("a string"))),
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

/// A Claude Code command file, read as Claude Code 2.1.332 reads it: the frontmatter found,
/// parsed and retried as an agent's ([`crate::analysis::claude::read`]); a command loads whatever
/// happens to its frontmatter (a frontmatter that fails both passes only loses its settings), so
/// nothing here is an error.
fn analyze_claude(kind: &CommandKind, text: &str) -> (Vec<Diagnostic>, Parsed, CommandDecl) {
    use crate::analysis::claude::{agent, read};
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
    let known = keys(Dialect::Claude);
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
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        let v = &e.value;
        if map.get(key).is_some_and(|last| last.key.span != e.key.span) {
            continue; // a duplicate: the last one counts
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
            ("allowed-tools" | "disallowed-tools", _) => tools(key, v, text, out),
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

/// `allowed-tools` and `disallowed-tools` of a command or skill: permission rules `Tool` or
/// `Tool(specifier)`; the tool names are checked (a case slip or a near miss gets a fix).
pub(crate) fn tools(key: &str, v: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    use crate::analysis::claude::{schema, tools};
    let effect = if key == "disallowed-tools" {
        "this entry removes nothing"
    } else {
        "this rule pre-approves nothing"
    };
    for item in tools::read(v, text).items() {
        let (name, _) = tools::parts(&item.text);
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

/// What `/name args` sends with this template (opencode §11.3 steps 1-4): `$1`..`$N` bind the
/// arguments in order (the highest takes the rest), `$ARGUMENTS` the whole string; with no
/// placeholder the arguments are appended after a blank line. `` !`cmd` `` is left as written.
pub fn expand(template: &str, args: &str) -> String {
    let words = tokenize(args);
    let mut highest = 0usize;
    let bytes = template.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' {
            let digits: String = template[i + 1..].chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse::<usize>() {
                highest = highest.max(n);
            }
        }
        i += 1;
    }
    let has_args = template.contains("$ARGUMENTS");
    let mut out = String::new();
    let mut rest = template;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        if let Some(after) = tail.strip_prefix("ARGUMENTS") {
            out.push_str(args);
            rest = after;
            continue;
        }
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        match digits.parse::<usize>() {
            Ok(n) if n >= 1 => {
                let value = if n == highest {
                    words.get(n - 1..).map(|w| w.join(" ")).unwrap_or_default()
                } else {
                    words.get(n - 1).cloned().unwrap_or_default()
                };
                out.push_str(&value);
                rest = &tail[digits.len()..];
            }
            _ => {
                out.push('$');
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    if highest == 0 && !has_args && !args.trim().is_empty() {
        out.push_str("\n\n");
        out.push_str(args);
    }
    out
}

/// opencode's argument split: `"…"`, `'…'` or runs of non-space characters, quotes removed.
pub(crate) fn tokenize(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = args.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' || c == '\'' {
            chars.next();
            for d in chars.by_ref() {
                if d == c {
                    break;
                }
                word.push(d);
            }
        } else {
            while let Some(&d) = chars.peek() {
                if d.is_whitespace() {
                    break;
                }
                word.push(d);
                chars.next();
            }
        }
        out.push(word);
    }
    out
}

/// The hover card of a command. `agent_mode`: the mode of its agent when known (for the
/// subtask rule); `text`: the file's text.
pub fn card(kind: &CommandKind, decl: &CommandDecl, agent_mode: Option<&str>, text: &str) -> String {
    let mut md = format!("### `/{}`: {} command\n", kind.name, kind.runtime.product());
    if let Some(d) = &decl.description {
        let from = match decl.description_from {
            Some(prompt::DescriptionFrom::Body) => " *(no `description`: the body's first line)*",
            Some(prompt::DescriptionFrom::Default) => " *(no `description` and an empty body)*",
            _ => "",
        };
        md.push_str(&format!("\n{}{from}\n", d.trim()));
    }
    md.push('\n');
    if kind.runtime == Dialect::Claude {
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
    }
    match &decl.agent {
        Some((a, _)) => {
            let subtask = decl.subtask == Some(true) || (agent_mode == Some("subagent") && decl.subtask != Some(false));
            let how = if kind.runtime == Dialect::Claude {
                String::new()
            } else if subtask {
                " as a subtask".to_string()
            } else {
                " inline".to_string()
            };
            md.push_str(&format!("- **runs with**: `{a}`{how}\n"));
        }
        None => md.push_str("- **runs with**: the current agent\n"),
    }
    md.push_str(&format!(
        "- **model**: {}\n",
        decl.model
            .as_deref()
            .map_or("the agent's, else the session's".to_string(), |m| format!("`{m}`"))
    ));
    if decl.template.contains("!`") {
        md.push_str("- `` !`…` `` in the template **runs in your shell** when the command is used\n");
    }
    if kind.runtime == Dialect::Claude {
        let body = text.get(decl.body.start as usize..).unwrap_or("");
        md.push('\n');
        md.push_str(&prompt::sends(&kind.name, body, &decl.arguments, None));
        return md;
    }
    let example = expand(&decl.template, "one two three");
    let shown: String = example.chars().take(400).collect();
    md.push_str(&format!(
        "\n`/{} one two three` sends:\n\n```\n{}\n```\n",
        kind.name, shown
    ));
    md
}

/// Completion in a command's frontmatter: keys not yet present; agents (`agent`), booleans,
/// `context: fork`, effort levels.
/// Completion in a command file's frontmatter: its runtime's keys; values for `agent` (the
/// project's agents, with their modes), `model` (Claude Code's aliases, then the `models` the
/// workspace knows), booleans and enums; tool names in Claude Code's `allowed-tools` and
/// `disallowed-tools` lists (the entry under the cursor).
pub fn complete(
    runtime: Dialect,
    text: &str,
    offset: usize,
    agents: &[(String, String)],
    models: &[String],
) -> Vec<crate::analysis::complete::Item> {
    use crate::analysis::complete::{ItemKind, item, yaml_context_in};
    let offset = offset.min(text.len());
    if !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let split = frontmatter::split(text);
    let Some(ctx) = split
        .frontmatter
        .and_then(|fm| yaml_context_in(text, offset, fm.yaml, fm.close))
    else {
        return Vec::new();
    };
    if !ctx.path.is_empty() {
        return Vec::new();
    }
    let bools = || {
        vec![
            item("true", ItemKind::Value, "boolean", None, 0),
            item("false", ItemKind::Value, "boolean", None, 1),
        ]
    };
    let mut items: Vec<_> = match ctx.value_of.as_deref() {
        None => keys(runtime)
            .iter()
            .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
            .map(|(k, d)| item(k, ItemKind::Key, "command field", Some(d.to_string()), 0))
            .collect(),
        Some("agent") => agents
            .iter()
            .map(|(n, mode)| item(n, ItemKind::Agent, mode, None, 0))
            .collect(),
        Some("subtask" | "disable-model-invocation" | "user-invocable") => bools(),
        Some("context") => vec![item("fork", ItemKind::Value, "context", None, 0)],
        Some("effort") => crate::analysis::claude::schema::EFFORTS
            .iter()
            .enumerate()
            .map(|(i, e)| item(e, ItemKind::Value, "effort", None, i as u8))
            .collect(),
        Some("model") => crate::analysis::claude::complete::model_items(runtime == Dialect::Claude, models),
        Some(key @ ("allowed-tools" | "disallowed-tools")) if runtime == Dialect::Claude => {
            let mut out: Vec<_> = crate::analysis::claude::schema::TOOLS
                .iter()
                .map(|t| item(t, ItemKind::Value, "tool", None, 0))
                .collect();
            if key == "disallowed-tools" {
                out.push(item("mcp__*", ItemKind::Value, "every MCP tool", None, 1));
            }
            out
        }
        _ => Vec::new(),
    };
    let list_item =
        runtime == Dialect::Claude && matches!(ctx.value_of.as_deref(), Some("allowed-tools" | "disallowed-tools"));
    if list_item {
        // A space- or comma-separated list: complete the entry under the cursor only.
        let start = crate::analysis::claude::complete::list_entry_start(text, offset, ctx.replace);
        for it in &mut items {
            it.replace = crate::analysis::text::Span::new(start, offset);
            it.insert = it.label.clone();
        }
        items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
        return items;
    }
    for it in &mut items {
        it.replace = ctx.replace;
        let quoted = ctx.quoted || it.label.contains(": ");
        let body = if quoted {
            format!("\"{}\"", it.label)
        } else {
            it.label.clone()
        };
        it.insert = if ctx.value_of.is_none() {
            format!("{body}: ")
        } else {
            body
        };
    }
    items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn kind(runtime: Dialect) -> CommandKind {
        CommandKind {
            plugin: false,
            runtime,
            name: "review".into(),
        }
    }

    fn diags(runtime: Dialect, text: &str) -> Vec<(Code, Severity, String)> {
        analyze(&kind(runtime), text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    #[test]
    fn opencode_commands() {
        use Code::*;
        let ok = "---\ndescription: Review\nagent: build\nmodel: a/b\nsubtask: true\n---\nReview $1.\n";
        assert_eq!(diags(Dialect::OpenCode, ok), []);
        assert_eq!(
            diags(Dialect::OpenCode, "---\nsubtask: yes\n---\nGo\n"),
            [(InvalidType, Severity::Error, "yes".into())]
        );
        assert_eq!(
            diags(Dialect::OpenCode, "---\nargument-hint: <file>\n---\nGo\n"),
            [(UnknownKey, Severity::Warning, "argument-hint".into())]
        );
        assert_eq!(
            diags(Dialect::OpenCode, "---\nagnet: build\n---\nGo\n"),
            [(UnknownKey, Severity::Warning, "agnet".into())]
        );
        assert_eq!(
            diags(Dialect::OpenCode, "---\nmodel: sonnet\n---\nGo\n"),
            [(InvalidModel, Severity::Warning, "sonnet".into())]
        );
        assert_eq!(
            diags(Dialect::OpenCode, "---\ndescription: d\n---\n\n")[0].0,
            MissingTemplate
        );
    }

    #[test]
    fn claude_commands() {
        use Code::*;
        assert_eq!(diags(Dialect::Claude, "Review $ARGUMENTS\n"), []);
        assert_eq!(
            diags(
                Dialect::Claude,
                "---\nallowed-tools: Bash(git add:*), Reed\nargument-hint: <f>\n---\nGo\n"
            ),
            [(UnknownTool, Severity::Warning, "Reed".into())]
        );
        assert_eq!(
            diags(Dialect::Claude, "---\nname: x\n---\nGo\n"),
            [(UnknownKey, Severity::Warning, "name".into())]
        );
    }

    /// Every diagnostic of a Claude Code command `/review`: code, severity, the text under the
    /// span, the message, and the fix's edits applied to the text under them.
    fn claude(text: &str) -> String {
        let (diags, _, _) = analyze(&kind(Dialect::Claude), text);
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
        analyze(&kind(Dialect::Claude), text).2
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
            diags(Dialect::Claude, t),
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
            invalid-type warning `[focus-area]`: Claude Code shows the hint `focus-area`: a YAML list, its items joined with commas, the brackets lost. Quote the value to keep the brackets
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
            diags(Dialect::Claude, t),
            [(Code::DuplicateKey, Severity::Warning, "description".into())]
        );
        // A `---` inside the block ends it.
        let t = "---\ndescription: Use this --- when needed\nmodel: opus\n---\nGo\n";
        assert_eq!(claude_decl(t).description.as_deref(), Some("Use this"));
        assert_eq!(diags(Dialect::Claude, t)[0].0, Code::TruncatedFrontmatter);
        // A list as the whole frontmatter.
        assert_eq!(
            diags(Dialect::Claude, "---\n- a\n---\nGo\n"),
            [(Code::InvalidType, Severity::Warning, "- a\n".into())]
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
        // opencode templates are not Claude Code's.
        assert_eq!(
            diags(Dialect::OpenCode, "---\ndescription: d\n---\nRun `echo $1`\n"),
            []
        );
    }

    #[test]
    fn claude_card() {
        let t = "---\ndescription: Commit <staged>\nargument-hint: \"[message] [--amend]\"\narguments: msg\n---\n\nCommit with `$msg`; then run !`git log -1`.\n";
        let (_, _, d) = analyze(&kind(Dialect::Claude), t);
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
        .assert_eq(&card(&kind(Dialect::Claude), &d, None, t));
        let t = "Review it\n```\n$ARGUMENTS\n```\n";
        let (_, _, d) = analyze(&kind(Dialect::Claude), t);
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
        .assert_eq(&card(&kind(Dialect::Claude), &d, None, t));
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
            let (diags, _, d) = analyze(&kind(Dialect::Claude), &s);
            for x in diags {
                assert!(s.get(x.span.start as usize..x.span.end as usize).is_some(), "{s:?}");
            }
            let _ = card(&kind(Dialect::Claude), &d, None, &s);
        }
    }

    #[test]
    fn completion() {
        let t = "---\nagent: \n---\nGo\n";
        let at = t.find(": ").unwrap() + 2;
        let agents = vec![("rev".to_string(), "subagent".to_string())];
        let got: Vec<String> = complete(Dialect::OpenCode, t, at, &agents, &[])
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(got, ["rev"]);
        let t = "---\n\n---\nGo\n";
        let got: Vec<String> = complete(Dialect::OpenCode, t, 4, &agents, &[])
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(got, ["agent", "description", "model", "subtask", "variant"]);
    }

    /// (label, inserted text, replaced text) of each item at the `|` of `t`.
    fn items_at(runtime: Dialect, t: &str, models: &[String]) -> Vec<(String, String, String)> {
        let at = t.find('|').unwrap();
        let text = t.replace('|', "");
        complete(runtime, &text, at, &[], models)
            .into_iter()
            .map(|i| (i.label, i.insert, i.replace.text(&text).to_string()))
            .collect()
    }

    #[test]
    fn model_and_tool_completion() {
        let models = vec!["anthropic/claude-sonnet-5".to_string(), "sonnet".to_string()];
        // opencode: the workspace's models, as they are.
        let got = items_at(Dialect::OpenCode, "---\nmodel: anth|\n---\nGo\n", &models);
        assert_eq!(
            got[0],
            (
                "anthropic/claude-sonnet-5".into(),
                "anthropic/claude-sonnet-5".into(),
                "anth".into()
            )
        );
        assert_eq!(got.len(), 2);
        // Claude Code: its aliases first, then the models used (an alias is not offered twice).
        let got = items_at(Dialect::Claude, "---\nmodel: |\n---\nGo\n", &models);
        let labels: Vec<&str> = got.iter().map(|(l, _, _)| l.as_str()).collect();
        for alias in ["fable", "haiku", "inherit", "opus", "sonnet"] {
            assert!(labels.contains(&alias), "{labels:?}");
        }
        assert_eq!(labels.iter().filter(|l| **l == "sonnet").count(), 1);
        assert_eq!(labels.last(), Some(&"anthropic/claude-sonnet-5"));
        // Tool lists: the entry under the cursor is replaced, the rest kept.
        let got = items_at(Dialect::Claude, "---\nallowed-tools: Read, Gr|\n---\nGo\n", &[]);
        assert!(got.contains(&("Grep".into(), "Grep".into(), "Gr".into())), "{got:?}");
        assert!(!got.iter().any(|(l, _, _)| l == "mcp__*"));
        let got = items_at(Dialect::Claude, "---\ndisallowed-tools: Bash |\n---\nGo\n", &[]);
        assert!(got.contains(&("Write".into(), "Write".into(), "".into())), "{got:?}");
        assert!(got.iter().any(|(l, _, _)| l == "mcp__*"));
        // opencode commands have no tool lists.
        assert!(items_at(Dialect::OpenCode, "---\nallowed-tools: Gr|\n---\nGo\n", &[]).is_empty());
    }

    #[test]
    fn expansion_follows_opencode() {
        assert_eq!(
            expand("Fix $1 in $2", "bug \"src/a b.rs\" extra"),
            "Fix bug in src/a b.rs extra"
        );
        assert_eq!(expand("All: $ARGUMENTS", "a  b"), "All: a  b");
        assert_eq!(expand("Review", "x y"), "Review\n\nx y");
        assert_eq!(expand("Only $2", "a"), "Only ");
        assert_eq!(expand("Cost $ and $x", ""), "Cost $ and $x");
        assert_eq!(expand("Cost $5", "a"), "Cost ");
    }

    #[test]
    fn the_card() {
        let t = "---\ndescription: Review a file\nagent: rev\n---\nReview $1 and run !`git diff`.\n";
        let (_, _, d) = analyze(&kind(Dialect::OpenCode), t);
        assert_eq!(
            card(&kind(Dialect::OpenCode), &d, Some("subagent"), t),
            "### `/review`: opencode command\n\nReview a file\n\n- **runs with**: `rev` as a subtask\n- **model**: the agent's, else the session's\n- `` !`…` `` in the template **runs in your shell** when the command is used\n\n`/review one two three` sends:\n\n```\nReview one two three and run !`git diff`.\n```\n"
        );
    }
}
