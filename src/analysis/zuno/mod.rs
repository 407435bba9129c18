//! The Zuno dialect: `zuno.json` / `zuno.jsonc` (an `agents` map and the rest of the
//! configuration) and Markdown agents in `.zuno/{agent,agents}/**/*.md` and the global
//! `~/.config/zuno/`. Facts: `shared/spec/zuno.md`, checked against Zuno's schema and code
//! (its revisions disagree in places; those facts are reported as warnings).
//!
//! Built on the shared engine and on the opencode pieces that mean the same thing: the JSONC
//! tree, the frontmatter split, the YAML 1.2 reader, hex and theme colors, the permission
//! pattern inclusion (`pattern_covers`) and "did you mean".
//!
//! - [`schema`]: what Zuno knows, as data.
//! - [`agent`]: one agent's fields and a permission block.
//! - [`project`]: the merged registry (built-ins, configs, Markdown), `default_agent`,
//!   `delegates`, `requiredSkills`.
//! - [`card`]: the merged agent for hover and `explain`.
//! - [`complete`]: completion in `zuno.json(c)` and in a Zuno agent's frontmatter.
//! - [`command`]: the keys of a command file and how Zuno reads one (for the shared template
//!   reading).
//! - [`skill`]: Zuno's skill rules (for the shared skill checks).
//! - [`sections`]: the documented sections of `zuno.json` (`sandbox`, `skills`).

pub mod agent;
pub mod agents;
pub mod card;
pub mod command;
pub mod complete;
mod decl;
mod own;
pub mod dialect;
pub mod discover;
pub mod policy;
pub mod project;
pub mod schema;
pub mod sections;
pub mod skill;

use super::diagnostic::{Diagnostic, Edit, Effect, Severity};
use super::rules::Code;
use super::suggest;
use super::syntax::frontmatter;
use super::syntax::{Node, Parsed, Value, jsonc, yaml};
use super::text::Span;
use agent::{refuse, warn};
/// What a Zuno file declares (its `Facts` for the registration list).
pub type Facts = ZunoFile;

pub use decl::{AgentDecl, FileKind, NameRef, RefKind, ZunoFile};

/// Analyse one file: the diagnostics, its tree and what it declares.
pub fn analyze(kind: &FileKind, text: &str) -> (Vec<Diagnostic>, Parsed, ZunoFile) {
    let (mut diags, parsed, file) = match kind {
        FileKind::Config => config(text),
        FileKind::Agent { name } => markdown(text, name),
        FileKind::Mode { name } => {
            let (mut d, p, f) = markdown(text, name);
            d.push(refuse(
                Code::DeprecatedField,
                crate::analysis::text::first_line(text),
                format!(
                    "Zuno rejects agent definitions in a `mode/` folder and refuses the configuration: move it to `agent/{name}.md` (with `mode: primary`)"
                ),
            ));
            (d, p, f)
        }
    };
    diags.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (diags, parsed, file)
}

fn config(text: &str) -> (Vec<Diagnostic>, Parsed, ZunoFile) {
    let parsed = jsonc::parse(text);
    let mut out = Vec::new();
    let mut file = ZunoFile::default();
    for e in &parsed.errors {
        out.push(refuse(
            Code::SyntaxError,
            e.span,
            format!("{}; Zuno cannot parse this file and refuses to start", e.message),
        ));
    }
    for d in &parsed.duplicates {
        out.push(
            warn(
                Code::DuplicateKey,
                d.duplicate,
                Effect::ValueIgnored,
                format!("`{}` is set twice; the last value wins", d.name),
            )
            .with_related(crate::analysis::Location::Here(d.first), "first set here"),
        );
    }
    let Some(root) = &parsed.root else {
        return (out, parsed.clone(), file);
    };
    let Some(map) = root.as_map() else {
        if !matches!(root.value, Value::Unknown) {
            out.push(refuse(
                Code::InvalidType,
                root.span,
                "a Zuno configuration is a JSON object; Zuno refuses to start".into(),
            ));
        }
        return (out, parsed.clone(), file);
    };
    let known = schema::TOP_LEVEL.iter().map(|(k, _)| *k);
    for e in map.entries.iter() {
        let key = e.key.name.as_str();
        if schema::TOP_LEVEL.iter().any(|(k, _)| *k == key) {
        } else if let Some((_, replacement)) = schema::TOP_LEVEL_REJECTED.iter().find(|(k, _)| *k == key) {
            out.push(refuse(
                Code::DeprecatedField,
                e.key.span,
                format!("Zuno rejects the top-level `{key}` and refuses to start: {replacement}"),
            ));
            continue;
        } else if let Some((_, newer)) = schema::TOP_LEVEL_OLD.iter().find(|(k, _)| *k == key) {
            let mut d = warn(
                Code::DeprecatedField,
                e.key.span,
                Effect::RefusesToStart,
                match newer {
                    Some(n) => format!(
                        "`{key}` is accepted only by older Zuno revisions; the newest refuses it (unknown top-level key): use `{n}`"
                    ),
                    None => format!(
                        "`{key}` is accepted only by older Zuno revisions; the newest refuses it (unknown top-level key)"
                    ),
                },
            );
            if *newer == Some("agents") && !map.contains("agents") {
                d = d.with_fix("Rename to `agents`", vec![Edit::new(e.key.span, "\"agents\"")], false);
            }
            out.push(d);
        } else {
            let near = suggest::closest(key, known.clone());
            let mut d = refuse(
                Code::UnknownKey,
                e.key.span,
                format!(
                    "Zuno refuses unknown top-level keys, so it will not start with `{key}`.{}",
                    suggest::did_you_mean(near)
                ),
            );
            if let Some(n) = near
                && !map.contains(n)
            {
                d = d.with_suggestion(e.key.span, format!("\"{n}\""));
            }
            out.push(d);
            continue;
        }
        match key {
            "agents" | "agent" => agents(&e.value, text, &mut file, &mut out),
            "permission" => agent::permission(&e.value, text, &mut out),
            "default_agent" => match &e.value.value {
                Value::Str(s) => file.refs.push(NameRef {
                    name: s.clone(),
                    span: e.value.span,
                    kind: RefKind::DefaultAgent,
                    from: None,
                }),
                Value::Null | Value::Unknown => {}
                _ => out.push(refuse(
                    Code::InvalidType,
                    e.value.span,
                    format!("`default_agent` must be an agent name, not {}", e.value.type_name()),
                )),
            },
            "subagent_depth"
                if !matches!(e.value.value, Value::Int(n) if n >= 0) && !matches!(e.value.value, Value::Null) =>
            {
                out.push(refuse(
                    Code::InvalidType,
                    e.value.span,
                    "`subagent_depth` must be an integer of at least 0".into(),
                ));
            }
            "sandbox" | "skills" => sections::check(e, &mut out),
            "model" | "small_model" => {
                if let Value::Str(s) = &e.value.value
                    && !s.contains('/')
                {
                    out.push(warn(
                        Code::InvalidModel,
                        e.value.span,
                        Effect::FailsWhenUsed,
                        format!("`{s}` is not of the form `provider/model`"),
                    ));
                }
            }
            _ => {}
        }
    }
    (out, parsed.clone(), file)
}

fn agents(v: &Node, text: &str, file: &mut ZunoFile, out: &mut Vec<Diagnostic>) {
    let Some(map) = v.as_map() else {
        if !matches!(v.value, Value::Null | Value::Unknown) {
            out.push(refuse(
                Code::InvalidType,
                v.span,
                format!("`agents` must be an object keyed by agent name, not {}", v.type_name()),
            ));
        }
        return;
    };
    for (key, node) in map.js_entries() {
        agent::check(node, false, text, out);
        declare(file, &key.name, key.span, node.clone(), false);
    }
}

/// Record an agent and the names it refers to.
fn declare(file: &mut ZunoFile, name: &str, span: Span, node: Node, markdown: bool) {
    if let Some(m) = node.as_map() {
        for (field, kind) in [
            ("delegates", RefKind::Delegate),
            ("requiredSkills", RefKind::RequiredSkill),
        ] {
            if let Some(Value::Seq(items)) = m.value(field).map(|n| &n.value) {
                for it in items {
                    if let Value::Str(s) = &it.value {
                        file.refs.push(NameRef {
                            name: s.clone(),
                            span: it.span,
                            kind,
                            from: Some(name.to_string()),
                        });
                    }
                }
            }
        }
    }
    file.agents.push(AgentDecl {
        name: name.to_string(),
        span,
        node: Some(node),
        markdown,
    });
}

fn markdown(text: &str, path_name: &str) -> (Vec<Diagnostic>, Parsed, ZunoFile) {
    let split = frontmatter::split(text);
    let mut out = Vec::new();
    let mut file = ZunoFile::default();
    let Some(fm) = split.frontmatter else {
        // The whole text is the prompt of an agent with default settings.
        file.agents.push(AgentDecl {
            name: path_name.to_string(),
            span: crate::analysis::text::first_line(text),
            node: None,
            markdown: true,
        });
        return (out, Parsed::default(), file);
    };
    file.yaml = Some(fm.yaml);
    file.close = fm.close;
    if fm.close.is_none() {
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                fm.open,
                "this frontmatter is never closed (no `---` line after it): Zuno skips the agent",
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
        return (out, Parsed::default(), file);
    }
    let parsed = yaml::parse_core(fm.yaml.text(text), fm.yaml.start as usize);
    // Zuno's own frontmatter reader: a YAML subset without anchors, aliases or tags, and with
    // duplicate keys as errors. A head that does not parse skips the file (Zuno still starts).
    let mut problems: Vec<(Span, String)> = parsed.errors.iter().map(|e| (e.span, e.message.clone())).collect();
    for d in &parsed.duplicates {
        problems.push((d.duplicate, format!("frontmatter key `{}` is set twice", d.name)));
    }
    problems.extend(unsupported(text, fm.yaml));
    problems.sort_by_key(|(s, _)| s.start);
    if let Some((span, why)) = problems.first() {
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                *span,
                format!(
                    "{why}: Zuno's frontmatter reader cannot read this file and skips the agent (Zuno still starts)"
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
        return (out, parsed, file);
    }
    let root = parsed.root.clone().unwrap_or(Node::new(
        fm.yaml,
        crate::analysis::syntax::Style::Collection,
        Value::Map(Default::default()),
    ));
    if !matches!(root.value, Value::Map(_) | Value::Null) {
        out.push(
            Diagnostic::new(
                Code::SyntaxError,
                root.span,
                format!(
                    "the frontmatter is {}, not a mapping: Zuno skips the agent",
                    root.type_name()
                ),
            )
            .with_severity(Severity::Error)
            .with_effect(Effect::FileIgnored),
        );
        return (out, parsed, file);
    }
    let root = if matches!(root.value, Value::Null) {
        Node::new(
            fm.yaml,
            crate::analysis::syntax::Style::Collection,
            Value::Map(Default::default()),
        )
    } else {
        root
    };
    agent::check(&root, true, text, &mut out);
    if let Some(p) = root.as_map().and_then(|m| m.get("prompt")) {
        out.push(warn(
            Code::PromptOverridden,
            p.key.span,
            Effect::ValueIgnored,
            "the Markdown body is the prompt and always replaces a frontmatter `prompt:`".into(),
        ));
    }
    let (name, span) = match root.as_map().and_then(|m| m.value("name")) {
        Some(Node {
            value: Value::Str(s),
            span,
            ..
        }) => (s.clone(), *span),
        _ => (path_name.to_string(), fm.open),
    };
    declare(&mut file, &name, span, root, true);
    (out, parsed, file)
}

/// Anchors, aliases and tags, which Zuno's frontmatter reader rejects: the first on each line
/// outside quotes, where a value starts.
fn unsupported(text: &str, yaml: Span) -> Vec<(Span, String)> {
    let mut out = Vec::new();
    let mut at = yaml.start as usize;
    for line in yaml.text(text).split_inclusive('\n') {
        let t = line.trim_start();
        let mut value_start = None;
        if let Some(rest) = t.strip_prefix("- ") {
            value_start = Some(line.len() - rest.len());
        } else if let Some(i) = line.find(": ") {
            if !line[..i].contains(['"', '\'', '#']) {
                value_start = Some(i + 2);
            }
        }
        if let Some(v) = value_start {
            let value = line[v..].trim_start();
            let off = at + v + (line[v..].len() - value.len());
            if let Some(c) = value.chars().next()
                && matches!(c, '&' | '*' | '!')
                && value.len() > 1
                && !value[1..].starts_with(' ')
            {
                let end = value.find(char::is_whitespace).unwrap_or(value.trim_end().len());
                let what = match c {
                    '&' => "an anchor",
                    '*' => "an alias",
                    _ => "a tag",
                };
                out.push((
                    Span::new(off, off + end),
                    format!(
                        "`{}` is {what}, which Zuno's frontmatter reader does not support",
                        &value[..end]
                    ),
                ));
            }
        }
        at += line.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(kind: &FileKind, text: &str) -> Vec<(Code, Severity, String)> {
        analyze(kind, text)
            .0
            .into_iter()
            .map(|d| (d.code, d.severity, d.span.text(text).to_string()))
            .collect()
    }

    fn md() -> FileKind {
        FileKind::Agent { name: "x".into() }
    }

    #[test]
    fn top_level_keys() {
        let c = FileKind::Config;
        assert_eq!(
            codes(&c, r#"{"agents": {}, "default_agent": "build", "subagent_depth": 2}"#),
            []
        );
        assert_eq!(
            codes(&c, r#"{"agnets": {}}"#),
            [(Code::UnknownKey, Severity::Error, "\"agnets\"".into())]
        );
        assert_eq!(
            codes(&c, r#"{"mode": {"build": {}}}"#),
            [(Code::DeprecatedField, Severity::Error, "\"mode\"".into())]
        );
        assert_eq!(
            codes(&c, r#"{"agent": {}}"#),
            [(Code::DeprecatedField, Severity::Warning, "\"agent\"".into())]
        );
        assert_eq!(
            codes(&c, r#"{"theme": "dark"}"#),
            [(Code::UnknownKey, Severity::Error, "\"theme\"".into())]
        );
        let (_, _, f) = analyze(
            &c,
            r#"{"agents": {"a": {"delegates": ["b"], "requiredSkills": ["s"]}}, "default_agent": "a"}"#,
        );
        assert_eq!(f.agents.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["a"]);
        let kinds: Vec<RefKind> = f.refs.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [RefKind::Delegate, RefKind::RequiredSkill, RefKind::DefaultAgent]
        );
    }

    #[test]
    fn a_null_default_agent_is_no_default_agent() {
        let c = FileKind::Config;
        // Lenient, as for `permission` (Zuno's sheet is silent on null): no error, no reference.
        assert_eq!(codes(&c, r#"{"default_agent": null}"#), []);
        assert!(analyze(&c, r#"{"default_agent": null}"#).2.refs.is_empty());
        // The close case: a number there is refused, on the value.
        assert_eq!(
            codes(&c, r#"{"default_agent": 3}"#),
            [(Code::InvalidType, Severity::Error, "3".into())]
        );
    }

    #[test]
    fn a_null_top_level_permission_is_no_permission() {
        let c = FileKind::Config;
        assert_eq!(codes(&c, r#"{"permission": null}"#), []);
        // The close case: a string there is refused.
        assert_eq!(
            codes(&c, r#"{"permission": "ask"}"#),
            [(Code::InvalidType, Severity::Warning, "\"ask\"".into())]
        );
    }

    #[test]
    fn a_config_that_is_not_an_object() {
        let c = FileKind::Config;
        assert_eq!(
            codes(&c, "[1, 2]"),
            [(Code::InvalidType, Severity::Error, "[1, 2]".into())]
        );
        let (d, _, _) = analyze(&c, "\"text\"");
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].message,
            "a Zuno configuration is a JSON object; Zuno refuses to start"
        );
        assert_eq!(d[0].span, Span::new(0, 6));
        // A root that cannot be read is only the syntax error.
        assert_eq!(codes(&c, "nope"), [(Code::SyntaxError, Severity::Error, "nope".into())]);
    }

    #[test]
    fn markdown_agents() {
        let (d, _, f) = analyze(&md(), "---\nmode: subagent\ndelegates: [fixer]\n---\nDo it.\n");
        assert_eq!(d, []);
        assert_eq!(f.agents[0].name, "x");
        assert_eq!(
            codes(&md(), "---\nmode: subagent\nmode: primary\n---\n"),
            [(Code::SyntaxError, Severity::Error, "mode".into())]
        );
        assert_eq!(
            codes(&md(), "---\nbase: &b x\n---\n"),
            [(Code::SyntaxError, Severity::Error, "&b".into())]
        );
        assert_eq!(
            codes(&md(), "---\nmode: main\n---\n"),
            [(Code::InvalidValue, Severity::Error, "main".into())]
        );
        assert_eq!(
            codes(&md(), "---\nprompt: p\n---\nBody\n"),
            [(Code::PromptOverridden, Severity::Warning, "prompt".into())]
        );
        // No frontmatter: an agent whose prompt is the whole text.
        let (d, _, f) = analyze(&md(), "Just a prompt\n");
        assert_eq!((d.len(), f.agents.len()), (0, 1));
        // A frontmatter `name` replaces the path name.
        let (_, _, f) = analyze(&md(), "---\nname: other\n---\n");
        assert_eq!(f.agents[0].name, "other");
        assert_eq!(
            codes(&FileKind::Mode { name: "m".into() }, "---\nmode: primary\n---\n")[0].0,
            Code::DeprecatedField
        );
    }
}
