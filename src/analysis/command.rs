//! Command files (`/name` prompts in Markdown): opencode's `{command,commands}/**/*.md` (spec
//! `opencode.md` §11), Claude Code's `.claude/commands/**/*.md` (`claude-code.md` §4) and Zuno's
//! `.zuno/{command,commands}/**/*.md` (`zuno.md` §4.2). The body is the template; the
//! frontmatter says which agent runs it, with which model, and (opencode, Zuno) whether as a
//! subtask. Nothing in a template is ever run here: `` !`cmd` `` is only described.
//!
//! Shared below the dialects: what a command is ([`CommandKind`], [`CommandDecl`]), the reading
//! of a template command ([`analyze`], parameterised by a runtime's [`Template`]: opencode's and
//! Zuno's, each in its folder), the template expansion ([`expand`], `tokenize`), the parts of a
//! hover card and the completion engine. Claude Code's command reading is `claude/command.rs`;
//! which runtime reads a command is decided in `analysis/mod.rs` (`analyze_command`).

use super::complete::{Item, ItemKind, item, yaml_context_in};
use super::diagnostic::{Diagnostic, Effect, Severity};
use super::dialect::Dialect;
use super::prompt::{DescriptionFrom, Placeholder};
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
    pub description_from: Option<DescriptionFrom>,
    /// Claude Code: the argument hint it shows (`None`: none; the listing then has `""`).
    pub argument_hint: Option<String>,
    /// Claude Code: the names of `arguments` (`$name` in the body).
    pub arguments: Vec<String>,
    /// Claude Code: the placeholders of the body it fills in.
    pub placeholders: Vec<Placeholder>,
    /// Claude Code: `user-invocable` is set and does not read as true (`false`, `no`, `maybe`,
    /// empty): the command is left out of the `/` menu and of its command listing.
    pub hidden: bool,
    /// Claude Code: the body as it sends it (from the first non-blank character after the
    /// frontmatter).
    pub body: Span,
    /// The template (the trimmed body).
    pub template: String,
    /// Claude Code: the files the body names with `@path` for Claude Code to attach.
    pub mentions: Vec<crate::analysis::prompt::FileRef>,
}

/// How a runtime reads a template command (opencode, Zuno): what differs between them.
#[derive(Clone, Copy, Debug)]
pub struct Template<'a> {
    /// The frontmatter keys it reads, with their documentation.
    pub keys: &'a [(&'a str, &'a str)],
    /// A value of the wrong type refuses the configuration (an error), not only the value.
    pub refuses: bool,
    /// The frontmatter is parsed as strict YAML 1.2 ([`yaml::parse`]), else with the core schema
    /// ([`yaml::parse_core`]).
    pub strict_yaml: bool,
    /// Another runtime's product and command keys: a key this runtime does not read but that
    /// one does gets the hint "It is a `product` command key".
    pub other_keys: Option<(&'a str, &'a [(&'a str, &'a str)])>,
}

pub(crate) fn warn(code: Code, span: Span, effect: Effect, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Warning)
        .with_effect(effect)
}

/// Analyse one template command file (opencode, Zuno) as `rules` say its runtime reads it.
pub fn analyze(kind: &CommandKind, text: &str, rules: &Template) -> (Vec<Diagnostic>, Parsed, CommandDecl) {
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
    let parsed = if rules.strict_yaml {
        yaml::parse(fm.yaml.text(text), fm.yaml.start as usize)
    } else {
        yaml::parse_core(fm.yaml.text(text), fm.yaml.start as usize)
    };
    // opencode refuses the configuration on a command file that breaks its schema (§11.4).
    let refuse = |code: Code, span: Span, message: String| {
        if rules.refuses {
            Diagnostic::new(
                code,
                span,
                format!(
                    "{message}; {} refuses the configuration (a command file that breaks its schema is fatal)",
                    kind.runtime.product()
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
    let known = rules.keys;
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        let v = &e.value;
        if !known.iter().any(|(k, _)| *k == key) {
            let other = match rules.other_keys {
                Some((product, keys)) if keys.iter().any(|(k, _)| *k == key) => {
                    format!(" It is a {product} command key")
                }
                _ => String::new(),
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

/// The head of a command's hover card: its title, its description (and where that comes from).
pub fn card_head(kind: &CommandKind, decl: &CommandDecl) -> String {
    let mut md = format!("### `/{}`: {} command\n", kind.name, kind.runtime.product());
    if let Some(d) = &decl.description {
        let from = match decl.description_from {
            Some(DescriptionFrom::Body) => " *(no `description`: the body's first line)*",
            Some(DescriptionFrom::Default) => " *(no `description` and an empty body)*",
            _ => "",
        };
        md.push_str(&format!("\n{}{from}\n", d.trim()));
    }
    md.push('\n');
    md
}

/// The lines of a command's hover card on what runs it: the agent (followed by `how`, e.g.
/// ` as a subtask`), the model, and whether the template runs shell commands.
pub fn card_runs(decl: &CommandDecl, how: &str) -> String {
    let mut md = String::new();
    match &decl.agent {
        Some((a, _)) => md.push_str(&format!("- **runs with**: `{a}`{how}\n")),
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
    md
}

/// The hover card of a template command (opencode, Zuno). `agent_mode`: the mode of its agent
/// when known (for the subtask rule).
pub fn card(kind: &CommandKind, decl: &CommandDecl, agent_mode: Option<&str>) -> String {
    let mut md = card_head(kind, decl);
    let subtask = decl.subtask == Some(true) || (agent_mode == Some("subagent") && decl.subtask != Some(false));
    md.push_str(&card_runs(decl, if subtask { " as a subtask" } else { " inline" }));
    let example = expand(&decl.template, "one two three");
    let shown: String = example.chars().take(400).collect();
    md.push_str(&format!(
        "\n`/{} one two three` sends:\n\n```\n{}\n```\n",
        kind.name, shown
    ));
    md
}

/// A runtime's values for a key in a command's frontmatter (see [`complete`]).
pub enum Values {
    /// Values, inserted (quoted where needed) in place of the partial value.
    Items(Vec<Item>),
    /// Items ready as they are (the runtime set what they replace and insert: the entry of a list
    /// under the cursor).
    Ready(Vec<Item>),
}

/// The `models` the workspace knows, as `model` values (each once).
pub fn model_items(models: &[String]) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for m in models {
        if !out.iter().any(|i| &i.label == m) {
            out.push(item(m, ItemKind::Model, "used in this workspace", None, 1));
        }
    }
    out
}

/// Completion in a command file's frontmatter: the runtime's `keys` not yet present; values for
/// `agent` (the project's agents, with their modes), booleans and `context: fork`, and whatever
/// `values` (the runtime's: `model`, enums, tool lists) gives for a key, called with the key and
/// the span of the partial value.
pub fn complete(
    text: &str,
    offset: usize,
    keys: &[(&str, &str)],
    agents: &[(String, String)],
    values: &dyn Fn(&str, Span) -> Option<Values>,
) -> Vec<Item> {
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
        None => keys
            .iter()
            .filter(|(k, _)| !ctx.present.iter().any(|p| p == k))
            .map(|(k, d)| item(k, ItemKind::Key, "command field", Some(d.to_string()), 0))
            .collect(),
        Some(key) => match values(key, ctx.replace) {
            Some(Values::Items(items)) => items,
            Some(Values::Ready(mut items)) => {
                items.sort_by(|a, b| (a.rank, &a.label).cmp(&(b.rank, &b.label)));
                return items;
            }
            None => match key {
                "agent" => agents
                    .iter()
                    .map(|(n, mode)| item(n, ItemKind::Agent, mode, None, 0))
                    .collect(),
                "subtask" | "disable-model-invocation" | "user-invocable" => bools(),
                "context" => vec![item("fork", ItemKind::Value, "context", None, 0)],
                _ => Vec::new(),
            },
        },
    };
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
    use crate::analysis::{analyze_command, command_card, complete_command};

    fn kind(runtime: Dialect) -> CommandKind {
        CommandKind {
            plugin: false,
            runtime,
            name: "review".into(),
        }
    }

    fn diags(runtime: Dialect, text: &str) -> Vec<(Code, Severity, String)> {
        analyze_command(&kind(runtime), text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    #[test]
    fn opencode_commands() {
        use Code::*;
        let ok = "---\ndescription: Review\nagent: build\nmodel: a/b\nsubtask: true\n---\nReview $1.\n";
        assert_eq!(diags(Dialect::Opencode, ok), []);
        assert_eq!(
            diags(Dialect::Opencode, "---\nsubtask: yes\n---\nGo\n"),
            [(InvalidType, Severity::Error, "yes".into())]
        );
        assert_eq!(
            diags(Dialect::Opencode, "---\nargument-hint: <file>\n---\nGo\n"),
            [(UnknownKey, Severity::Warning, "argument-hint".into())]
        );
        assert_eq!(
            diags(Dialect::Opencode, "---\nagnet: build\n---\nGo\n"),
            [(UnknownKey, Severity::Warning, "agnet".into())]
        );
        assert_eq!(
            diags(Dialect::Opencode, "---\nmodel: sonnet\n---\nGo\n"),
            [(InvalidModel, Severity::Warning, "sonnet".into())]
        );
        assert_eq!(
            diags(Dialect::Opencode, "---\ndescription: d\n---\n\n")[0].0,
            MissingTemplate
        );
    }

    #[test]
    fn opencode_templates_are_not_claude_codes() {
        // opencode templates are not Claude Code's.
        assert_eq!(
            diags(Dialect::Opencode, "---\ndescription: d\n---\nRun `echo $1`\n"),
            []
        );
    }

    #[test]
    fn completion() {
        let t = "---\nagent: \n---\nGo\n";
        let at = t.find(": ").unwrap() + 2;
        let agents = vec![("rev".to_string(), "subagent".to_string())];
        let got: Vec<String> = complete_command(Dialect::Opencode, t, at, &agents, &[])
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(got, ["rev"]);
        let t = "---\n\n---\nGo\n";
        let got: Vec<String> = complete_command(Dialect::Opencode, t, 4, &agents, &[])
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(got, ["agent", "description", "model", "subtask", "variant"]);
    }

    /// (label, inserted text, replaced text) of each item at the `|` of `t`.
    fn items_at(runtime: Dialect, t: &str, models: &[String]) -> Vec<(String, String, String)> {
        let at = t.find('|').unwrap();
        let text = t.replace('|', "");
        complete_command(runtime, &text, at, &[], models)
            .into_iter()
            .map(|i| (i.label, i.insert, i.replace.text(&text).to_string()))
            .collect()
    }

    #[test]
    fn model_and_tool_completion() {
        let models = vec!["anthropic/claude-sonnet-5".to_string(), "sonnet".to_string()];
        // opencode: the workspace's models, as they are.
        let got = items_at(Dialect::Opencode, "---\nmodel: anth|\n---\nGo\n", &models);
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
        assert!(items_at(Dialect::Opencode, "---\nallowed-tools: Gr|\n---\nGo\n", &[]).is_empty());
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
        let (_, _, d) = analyze_command(&kind(Dialect::Opencode), t);
        assert_eq!(
            command_card(&kind(Dialect::Opencode), &d, Some("subagent"), t),
            "### `/review`: opencode command\n\nReview a file\n\n- **runs with**: `rev` as a subtask\n- **model**: the agent's, else the session's\n- `` !`…` `` in the template **runs in your shell** when the command is used\n\n`/review one two three` sends:\n\n```\nReview one two three and run !`git diff`.\n```\n"
        );
    }
}
