//! Command files (`/name` prompts in Markdown): opencode's `{command,commands}/**/*.md` (spec
//! `opencode.md` §11), Claude Code's `.claude/commands/**/*.md` (`claude-code.md` §4) and Zuno's
//! `.zuno/{command,commands}/**/*.md` (`zuno.md` §4.2). The body is the template; the
//! frontmatter says which agent runs it, with which model, and (opencode, Zuno) whether as a
//! subtask. Nothing in a template is ever run here: `` !`cmd` `` is only described.

use super::Dialect;
use super::diagnostic::{Diagnostic, Effect, Severity};
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
}

/// What a command file declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandDecl {
    pub agent: Option<(String, Span)>,
    pub model: Option<String>,
    pub subtask: Option<bool>,
    pub description: Option<String>,
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
            ("argument-hint", "The hint shown for the arguments."),
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
            ("arguments", "Named positional arguments."),
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
            if kind.runtime == Dialect::Claude && matches!(key, "name" | "paths") {
                // A plugin's command (named `plugin:command`) is renamed by its `name`.
                if key == "name" && kind.name.contains(':') {
                    continue;
                }
                out.push(warn(
                    Code::UnknownKey,
                    e.key.span,
                    Effect::ValueIgnored,
                    format!("`{key}` is ignored in a command file (the file name names the command)"),
                ));
                continue;
            }
            let other = if kind.runtime != Dialect::Claude && keys(Dialect::Claude).iter().any(|(k, _)| *k == key) {
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
                if kind.runtime != Dialect::Claude && !s.contains('/') {
                    out.push(warn(
                        Code::InvalidModel,
                        v.span,
                        Effect::FailsWhenUsed,
                        format!("`{s}` is not of the form `provider/model`; the command fails when it runs"),
                    ));
                }
            }
            ("description", Value::Str(s)) => decl.description = Some(s.clone()),
            ("allowed-tools" | "disallowed-tools" | "hooks" | "arguments" | "when_to_use", _) => {
                if matches!(key, "allowed-tools" | "disallowed-tools") {
                    tools(v, text, &mut out);
                }
            }
            ("context", Value::Str(s)) if s == "fork" => {}
            ("context", _) => out.push(warn(
                Code::InvalidValue,
                v.span,
                Effect::ValueIgnored,
                "`context` is `fork` or absent".into(),
            )),
            (_, Value::Str(_)) => {}
            _ => out.push(refuse(Code::InvalidType, v.span, not("a string"))),
        }
    }
    out.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, parsed, decl)
}

/// `allowed-tools`: permission rules `Tool` or `Tool(specifier)`; the tool names are checked.
fn tools(v: &Node, text: &str, out: &mut Vec<Diagnostic>) {
    use crate::analysis::claude::{schema, tools};
    for item in tools::read(v, text).items() {
        let (name, _) = tools::parts(&item.text);
        if item.text.starts_with("mcp__") || schema::TOOLS.contains(&name) || name == "Task" {
            continue;
        }
        let near = schema::TOOLS.iter().find(|t| t.eq_ignore_ascii_case(name)).copied();
        let mut d = warn(
            Code::UnknownTool,
            item.span,
            Effect::ValueIgnored,
            format!(
                "Claude Code has no tool `{name}`; this rule pre-approves nothing.{}",
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
fn tokenize(args: &str) -> Vec<String> {
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
/// subtask rule).
pub fn card(kind: &CommandKind, decl: &CommandDecl, agent_mode: Option<&str>) -> String {
    let mut md = format!("### `/{}`: {} command\n", kind.name, kind.runtime.product());
    if let Some(d) = &decl.description {
        md.push_str(&format!("\n{}\n", d.trim()));
    }
    md.push('\n');
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
) -> Vec<crate::analysis::opencode::complete::Item> {
    use crate::analysis::opencode::complete::{ItemKind, item, yaml_context_in};
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

    fn kind(runtime: Dialect) -> CommandKind {
        CommandKind {
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
            card(&kind(Dialect::OpenCode), &d, Some("subagent")),
            "### `/review`: opencode command\n\nReview a file\n\n- **runs with**: `rev` as a subtask\n- **model**: the agent's, else the session's\n- `` !`…` `` in the template **runs in your shell** when the command is used\n\n`/review one two three` sends:\n\n```\nReview one two three and run !`git diff`.\n```\n"
        );
    }
}
