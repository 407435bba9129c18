//! Zuno agents across files: the merged registry of a view (built-ins, then each layer in
//! precedence order: objects deep-merge, arrays and scalars replace), and the checks that need
//! it: `default_agent`, `delegates`, `requiredSkills`, Markdown agents that replace each other.
//!
//! When Zuno checks a name (at start or when the agent is used) is not confirmed by its
//! sources, so these are warnings with effect `fails-when-used`.

use crate::analysis::syntax::Node;
use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::schema;
use super::{RefKind, ZunoFile};
use crate::analysis::diagnostic::{Diagnostic, Effect, Location, Severity};
use crate::analysis::provenance::Source;
use crate::analysis::rules::Code;
use crate::analysis::suggest;
use crate::analysis::text::Span;

/// One file of a view, in precedence order (later wins).
#[derive(Clone, Copy, Debug)]
pub struct ViewFile<'a> {
    pub file: usize,
    pub zuno: &'a ZunoFile,
}

/// An agent after merging every layer.
#[derive(Clone, Debug, PartialEq)]
pub struct MergedAgent {
    pub name: String,
    pub builtin: bool,
    /// Every setting, as JSON, with the layer that set it last.
    pub fields: BTreeMap<String, (Json, Source)>,
    /// Where it is defined, built-in first.
    pub definitions: Vec<Source>,
    /// Its permission rules in evaluation order, as written (`fields` is a JSON map, which
    /// sorts keys): a later layer's rule for the same tool and pattern takes the earlier one's
    /// place, as a merged object keeps its keys' order.
    pub rules: Vec<ZunoRule>,
}

/// One permission rule of a Zuno agent: `(tool, pattern, action)` and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct ZunoRule {
    pub tool: String,
    pub pattern: String,
    pub action: String,
    pub source: Source,
}

/// The rules of a permission block (`{mode, rules}` or the older flat form), in file order.
fn rules_of(permission: &Node, file: usize, out: &mut Vec<ZunoRule>) {
    let Some(map) = permission.as_map() else { return };
    let rules = match map.value("rules").and_then(Node::as_map) {
        Some(r) => r,
        None => map,
    };
    for e in rules.entries.iter() {
        let tool = e.key.name.as_str();
        if tool == "mode" || tool == "rules" {
            continue;
        }
        let mut put = |pattern: &str, action: &Node, span: crate::analysis::text::Span| {
            let Some(action) = action.as_str() else { return };
            let rule = ZunoRule {
                tool: tool.to_string(),
                pattern: pattern.to_string(),
                action: action.to_string(),
                source: Source::File { file, span },
            };
            match out
                .iter_mut()
                .find(|r| r.tool == rule.tool && r.pattern == rule.pattern)
            {
                Some(old) => *old = rule,
                None => out.push(rule),
            }
        };
        match e.value.as_map() {
            Some(patterns) => {
                for p in patterns.entries.iter() {
                    put(&p.key.name, &p.value, p.key.span.cover(p.value.span));
                }
            }
            None => put("*", &e.value, e.key.span.cover(e.value.span)),
        }
    }
}

impl MergedAgent {
    pub fn str(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(|(v, _)| v.as_str())
    }

    pub fn mode(&self) -> &str {
        self.str("mode").unwrap_or("all")
    }

    pub fn flag(&self, key: &str) -> bool {
        self.fields.get(key).and_then(|(v, _)| v.as_bool()).unwrap_or(false)
    }

    pub fn list(&self, key: &str) -> Vec<String> {
        self.fields
            .get(key)
            .and_then(|(v, _)| v.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    }
}

fn deep_merge(into: &mut Json, from: &Json) {
    match (into, from) {
        (Json::Object(a), Json::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(slot) => deep_merge(slot, v),
                    None => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

/// The registry of a view: every agent by name (disabled ones included, flagged).
pub fn registry(view: &[ViewFile]) -> BTreeMap<String, MergedAgent> {
    let mut out: BTreeMap<String, MergedAgent> = BTreeMap::new();
    for b in schema::BUILTIN_AGENTS {
        let mut fields = BTreeMap::new();
        fields.insert("mode".to_string(), (Json::String(b.mode.into()), Source::BuiltIn));
        if b.hidden {
            fields.insert("hidden".to_string(), (Json::Bool(true), Source::BuiltIn));
        }
        if !b.description.is_empty() {
            fields.insert(
                "description".to_string(),
                (Json::String(b.description.into()), Source::BuiltIn),
            );
        }
        if !b.delegates.is_empty() {
            let d = b.delegates.iter().map(|s| Json::String(s.to_string())).collect();
            fields.insert("delegates".to_string(), (Json::Array(d), Source::BuiltIn));
        }
        out.insert(
            b.name.to_string(),
            MergedAgent {
                name: b.name.to_string(),
                builtin: true,
                fields,
                definitions: vec![Source::BuiltIn],
                rules: Vec::new(),
            },
        );
    }
    for vf in view {
        for decl in &vf.zuno.agents {
            let source = Source::File {
                file: vf.file,
                span: decl.span,
            };
            let entry = out.entry(decl.name.clone()).or_insert_with(|| MergedAgent {
                name: decl.name.clone(),
                builtin: false,
                fields: BTreeMap::new(),
                definitions: Vec::new(),
                rules: Vec::new(),
            });
            entry.definitions.push(source);
            if let Some(p) = decl
                .node
                .as_ref()
                .and_then(Node::as_map)
                .and_then(|m| m.value("permission"))
            {
                rules_of(p, vf.file, &mut entry.rules);
            }
            let Some(Json::Object(map)) = decl.node.as_ref().map(|n| n.to_json()) else {
                continue;
            };
            for (k, v) in map {
                if k == "name" {
                    continue;
                }
                match entry.fields.get_mut(&k) {
                    Some((old, src)) if old.is_object() && v.is_object() => {
                        deep_merge(old, &v);
                        *src = source;
                    }
                    _ => {
                        entry.fields.insert(k, (v, source));
                    }
                }
            }
        }
    }
    out
}

/// The cross-file checks of a view. `skills`: the skill names the view can load, when known.
pub fn check(view: &[ViewFile], skills: Option<&[String]>) -> Vec<(usize, Diagnostic)> {
    let reg = registry(view);
    let mut out = Vec::new();
    let live = |n: &str| reg.get(n).filter(|a| !a.flag("disable"));
    let names = || reg.values().filter(|a| !a.flag("disable")).map(|a| a.name.as_str());
    let diag = |code: Code, span: Span, message: String| {
        Diagnostic::new(code, span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::FailsWhenUsed)
    };
    for vf in view {
        for r in &vf.zuno.refs {
            let d = match r.kind {
                RefKind::DefaultAgent => match live(&r.name) {
                    None => {
                        let near = suggest::closest(&r.name, names());
                        let why = if reg.contains_key(&r.name) {
                            "is disabled"
                        } else {
                            "does not exist"
                        };
                        Some(diag(
                            Code::InvalidDefaultAgent,
                            r.span,
                            format!(
                                "default agent `{}` {why}: Zuno falls back or fails when it starts a session.{}",
                                r.name,
                                suggest::did_you_mean(near)
                            ),
                        ))
                    }
                    Some(a) if a.mode() == "subagent" => Some(diag(
                        Code::InvalidDefaultAgent,
                        r.span,
                        format!(
                            "default agent `{}` is a subagent; `default_agent` must be a primary agent",
                            r.name
                        ),
                    )),
                    Some(a) if a.flag("hidden") => Some(diag(
                        Code::InvalidDefaultAgent,
                        r.span,
                        format!(
                            "default agent `{}` is hidden; `default_agent` must be a visible primary agent",
                            r.name
                        ),
                    )),
                    Some(_) => None,
                },
                RefKind::Delegate => match live(&r.name) {
                    None => {
                        let near = suggest::closest(&r.name, names());
                        Some(diag(
                            Code::UnknownAgent,
                            r.span,
                            format!(
                                "no agent `{}` exists (or it is disabled): Zuno rejects unavailable delegates.{}",
                                r.name,
                                suggest::did_you_mean(near)
                            ),
                        ))
                    }
                    Some(a) if a.mode() == "primary" => Some(diag(
                        Code::InvalidValue,
                        r.span,
                        format!(
                            "`{}` is a primary-only agent, which cannot be delegated to; give it `mode: all` or `subagent`",
                            r.name
                        ),
                    )),
                    Some(_) => None,
                },
                RefKind::RequiredSkill => match skills {
                    Some(list) => {
                        let n = list.iter().filter(|s| **s == r.name).count();
                        match n {
                            1 => None,
                            0 => {
                                let near = suggest::closest(&r.name, list.iter().map(String::as_str));
                                Some(diag(
                                    Code::InvalidValue,
                                    r.span,
                                    format!(
                                        "no skill `{}` is found for this project: the agent fails to start (Zuno resolves each required skill to exactly one).{}",
                                        r.name,
                                        suggest::did_you_mean(near)
                                    ),
                                ))
                            }
                            _ => Some(diag(
                                Code::InvalidValue,
                                r.span,
                                format!(
                                    "{n} skills are named `{}`: Zuno needs exactly one, so the agent fails to start",
                                    r.name
                                ),
                            )),
                        }
                    }
                    None => None,
                },
            };
            if let Some(d) = d {
                out.push((vf.file, d));
            }
        }
    }
    // Markdown agents of the view with one name: the later file replaces the earlier.
    let mut md: BTreeMap<&str, Vec<(usize, Span)>> = BTreeMap::new();
    for vf in view {
        for d in vf.zuno.agents.iter().filter(|d| d.markdown) {
            md.entry(d.name.as_str()).or_default().push((vf.file, d.span));
        }
    }
    for (name, defs) in md {
        if let Some(((last_file, last_span), earlier)) = defs.split_last() {
            for (file, span) in earlier {
                out.push((
                    *file,
                    Diagnostic::new(
                        Code::DuplicateAgent,
                        *span,
                        format!("another Markdown agent is also named `{name}` and is read later: its settings are merged over these"),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored)
                    .with_related(
                        Location::File {
                            file: *last_file,
                            span: *last_span,
                        },
                        format!("`{name}` is defined again here"),
                    ),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::zuno::{FileKind, analyze};

    fn file(kind: &FileKind, text: &str) -> ZunoFile {
        analyze(kind, text).2
    }

    #[test]
    fn registry_merges_and_checks_names() {
        let cfg = file(
            &FileKind::Config,
            r#"{"default_agent": "reviewerr", "agents": {"reviewer": {"mode": "primary", "delegates": ["fixer", "plan", "ghost"], "requiredSkills": ["codemap", "nope"]}, "fixer": {"model": "a/b"}}}"#,
        );
        let md = file(
            &FileKind::Agent { name: "fixer".into() },
            "---\nmode: subagent\ntemperature: 0.1\n---\n",
        );
        let view = [ViewFile { file: 0, zuno: &cfg }, ViewFile { file: 1, zuno: &md }];
        let reg = registry(&view);
        let fixer = &reg["fixer"];
        assert_eq!(fixer.str("model"), Some("a/b"));
        assert_eq!(fixer.mode(), "subagent");
        assert_eq!(fixer.definitions.len(), 3);
        let skills = vec!["codemap".to_string()];
        let d: Vec<(usize, Code, String)> = check(&view, Some(&skills))
            .into_iter()
            .map(|(f, d)| (f, d.code, d.message))
            .collect();
        assert_eq!(d.len(), 4, "{d:#?}");
        // In file order: `default_agent` comes first in the text.
        assert_eq!((d[0].1, d[0].0), (Code::InvalidDefaultAgent, 0));
        assert!(d[0].2.contains("Did you mean `reviewer`?"), "{}", d[0].2);
        assert_eq!(d[1].1, Code::InvalidValue); // plan is primary-only
        assert!(d[1].2.contains("`plan` is a primary-only agent"), "{}", d[1].2);
        assert_eq!(d[2].1, Code::UnknownAgent); // ghost
        assert_eq!(d[3].1, Code::InvalidValue); // nope
        assert!(d[3].2.contains("no skill `nope`"), "{}", d[3].2);
        // Without the skill list, required skills are not checked.
        assert_eq!(check(&view, None).len(), 3);
    }

    #[test]
    fn default_agent_must_be_a_visible_primary() {
        for (agents, ok) in [
            (r#"{"a": {"mode": "primary"}}"#, true),
            (r#"{"a": {"mode": "all"}}"#, true),
            (r#"{"a": {"mode": "subagent"}}"#, false),
            (r#"{"a": {"mode": "primary", "hidden": true}}"#, false),
            (r#"{"a": {"mode": "primary", "disable": true}}"#, false),
        ] {
            let cfg = file(
                &FileKind::Config,
                &format!(r#"{{"default_agent": "a", "agents": {agents}}}"#),
            );
            let view = [ViewFile { file: 0, zuno: &cfg }];
            assert_eq!(check(&view, None).is_empty(), ok, "{agents}");
        }
        // Built-ins count: `orchestrator` is primary, `explorer` a subagent.
        let cfg = file(&FileKind::Config, r#"{"default_agent": "orchestrator"}"#);
        assert!(check(&[ViewFile { file: 0, zuno: &cfg }], None).is_empty());
        let cfg = file(&FileKind::Config, r#"{"default_agent": "explorer"}"#);
        assert_eq!(check(&[ViewFile { file: 0, zuno: &cfg }], None).len(), 1);
    }
}
