//! `overridden-deny`: a deny rule of the top-level `permission` that an agent's own broader
//! allow takes back. opencode puts every agent's rules after the config's and lets the last
//! matching rule decide (§6.4), so `"git push *": "deny"` at the top and `bash: allow` in an
//! agent leave that agent free to push: the guard never applies to it.
//!
//! Reported on the agent's allow, naming the denies it overrides. Left alone, as deliberate
//! layering: a deny of a whole permission (`edit: deny`, `"*": "deny"`) that an agent widens,
//! an agent that allows the very pattern the config denies, an allow for everything at once
//! (`permission: allow`, `"*": "allow"`: `broad-grant`'s), and a deny the agent's own rules
//! restate after the allow.

use super::decl::DeclOrigin;
use super::effective::{self, Env, Layer, Rule};
use super::project::ViewFile;
use crate::analysis::diagnostic::{Diagnostic, Edit, Location};
use crate::analysis::edit::Doc;
use crate::analysis::permission::{covers, pattern_covers};
use crate::analysis::provenance::Source;
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

/// The findings of one view, and the files they read whole (the config files whose denies are
/// overridden, the files of the agents that override them). `text` gives a file's text, for
/// the fix.
pub fn check<'t>(view: &[ViewFile], text: &dyn Fn(usize) -> Option<&'t str>) -> (Vec<(usize, Diagnostic)>, Vec<usize>) {
    let mut out = Vec::new();
    let mut reads = Vec::new();
    let env = Env::default();
    let targeted: Vec<Rule> = effective::config_rules(view, &env)
        .into_iter()
        .filter(|r| r.action == "deny" && r.pattern != "*")
        .collect();
    if targeted.is_empty() {
        return (out, reads);
    }
    // The agents whose own settings allow something broader than a deny: only they can
    // override one (a view of thousands of agents that allow `git status *` builds none).
    let mut names: crate::analysis::hash::FxHashSet<&str> = Default::default();
    for vf in view {
        for d in &vf.facts.agents {
            if d.node
                .as_ref()
                .and_then(|n| n.as_map())
                .is_some_and(|m| may_override(m, &targeted))
            {
                names.insert(d.name.as_str());
            }
        }
    }
    if names.is_empty() {
        return (out, reads);
    }
    for agent in effective::agents_named(view, &env, &names) {
        let rules = &agent.permission;
        for (i, allow) in rules.iter().enumerate() {
            if allow.layer != Layer::Agent
                || allow.action != "allow"
                || (allow.permission == "*" && allow.pattern == "*")
            {
                continue;
            }
            let Source::File { file: at_file, span } = allow.source else {
                continue;
            };
            let taken: Vec<&Rule> = targeted
                .iter()
                .filter(|deny| {
                    broader(&allow.permission, &allow.pattern, deny)
                        // Restated after the allow: the deny still decides.
                        && !rules[i + 1..].iter().any(|later| {
                            later.action == "deny"
                                && covers(&later.permission, &deny.permission)
                                && pattern_covers(&later.pattern, &deny.pattern)
                        })
                })
                .collect();
            if taken.is_empty() {
                continue;
            }
            // Three named, the rest counted (a guard list can run to dozens).
            let mut listed: Vec<String> = taken
                .iter()
                .take(3)
                .map(|d| format!("`{}` {:?}", d.permission, d.pattern))
                .collect();
            if taken.len() > 3 {
                listed.push(format!("{} more", taken.len() - 3));
            }
            let what = if allow.pattern == "*" {
                format!("every `{}` request", allow.permission)
            } else {
                format!("`{}` {:?}", allow.permission, allow.pattern)
            };
            let (subject, it) = if taken.len() == 1 {
                ("the deny never applies", "it")
            } else {
                ("the denies never apply", "them")
            };
            let restate = match taken.as_slice() {
                [one] => format!("({:?}: \"deny\")", one.pattern),
                _ => "(each as `\"<pattern>\": \"deny\"`)".to_string(),
            };
            let mut diag = Diagnostic::new(
                Code::OverriddenDeny,
                span,
                format!(
                    "this allows {what} for agent \"{}\", which overrides the top-level `permission`'s deny of {}: opencode puts the agent's rules after the config's and the last matching rule decides, so for this agent {subject}. To keep {it}, restate {it} after this rule {restate}",
                    agent.name,
                    crate::analysis::dialect::Dialect::phrase(listed.iter(), "and"),
                ),
            );
            if let Some(edits) =
                text(at_file).and_then(|t| restated(view, t, at_file, &agent.name, allow, span, &taken))
            {
                let title = match taken.len() {
                    1 => "Restate the top-level deny after this allow".to_string(),
                    n => format!("Restate the {n} top-level denies after this allow"),
                };
                diag = diag.with_fix(title, edits, false);
            }
            for d in &taken {
                if let Source::File { file, span } = d.source {
                    diag = diag.with_related(Location::File { file, span }, "the deny it overrides");
                    reads.push(file);
                }
            }
            reads.push(at_file);
            out.push((at_file, diag));
        }
    }
    reads.sort_unstable();
    reads.dedup();
    (out, reads)
}

/// The fix: the `taken` denies written again right after the allow at `span` in the agent's
/// own `permission` (of file `file`, whose text is `text`), where they come after it and decide
/// again. A whole-permission allow (`bash: allow`) becomes its pattern map (`bash: {"*": allow,
/// "git push *": deny}`). None when the allow is not in a `permission` map (the deprecated
/// `tools`: its own conversion comes first) or a deny is of another permission than the
/// allow's key (an allow under `"*"`: restating the deny there would deny more).
fn restated(
    view: &[ViewFile],
    text: &str,
    file: usize,
    agent: &str,
    allow: &Rule,
    span: Span,
    taken: &[&Rule],
) -> Option<Vec<Edit>> {
    if taken.iter().any(|d| d.permission != allow.permission) {
        return None;
    }
    let vf = view.iter().find(|vf| vf.file == file)?;
    let yaml = vf
        .facts
        .agents
        .iter()
        .any(|d| matches!(d.origin, DeclOrigin::Markdown | DeclOrigin::ModeFile));
    let doc = Doc { text, yaml };
    let within = |outer: Span| outer.start <= span.start && span.end <= outer.end;
    let permission_map = vf
        .facts
        .agents
        .iter()
        .filter(|d| d.name == agent)
        .filter_map(|d| d.node.as_ref()?.as_map()?.value("permission"))
        .find(|p| within(p.span))?;
    let entry = permission_map
        .as_map()?
        .entries
        .iter()
        .find(|e| within(e.key.span.cover(e.value.span)))?;
    let mut patterns: Vec<&str> = Vec::new();
    for d in taken {
        if !patterns.contains(&d.pattern.as_str()) {
            patterns.push(&d.pattern);
        }
    }
    let deny = doc.scalar("deny");
    let denies: Vec<(String, String)> = patterns.iter().map(|p| (doc.key(p), deny.clone())).collect();
    if let Some(rules) = entry.value.as_map() {
        let i = rules
            .entries
            .iter()
            .position(|p| p.key.span.cover(p.value.span) == span)?;
        return Some(vec![doc.insert_after(&entry.value, i, &denies)?]);
    }
    // `bash: allow`: the allow becomes the pattern map's catch-all, the denies after it.
    let catch_all = (doc.key("*"), doc.scalar(entry.value.as_str()?));
    let key = entry.key.span.text(text);
    let rules = std::iter::once(&catch_all).chain(&denies);
    let written = if doc.is_flow(permission_map) {
        let inner: Vec<String> = rules.map(|(k, v)| doc.entry_text(k, v)).collect();
        format!("{key}: {{{}}}", inner.join(", "))
    } else {
        let indent = format!("{}  ", doc.indent_at(entry.key.span.start as usize));
        let nl = doc.newline();
        rules.fold(format!("{key}:"), |out, (k, v)| {
            format!("{out}{nl}{indent}{}", doc.entry_text(k, v))
        })
    };
    Some(vec![Edit::new(entry.key.span.cover(entry.value.span), written)])
}

/// Whether an allow of `permission` over `pattern` takes in all of `deny` and more than it (an
/// allow of exactly the denied pattern is deliberate).
fn broader(permission: &str, pattern: &str, deny: &Rule) -> bool {
    covers(permission, &deny.permission) && pattern != deny.pattern && pattern_covers(pattern, &deny.pattern)
}

/// Whether an agent's own `permission` or `tools` holds an allow that covers one of the
/// `targeted` denies with a broader pattern (before the merge: what [`check`] then confirms).
fn may_override(agent: &crate::analysis::syntax::Map, targeted: &[Rule]) -> bool {
    let reaches = |permission: &str, pattern: &str| {
        !(permission == "*" && pattern == "*") && targeted.iter().any(|t| broader(permission, pattern, t))
    };
    let allow = |n: &Node| n.as_str() == Some("allow");
    let in_permission = agent.value("permission").and_then(Node::as_map).is_some_and(|m| {
        m.entries.iter().any(|e| match &e.value.value {
            Value::Map(patterns) => patterns
                .entries
                .iter()
                .any(|p| allow(&p.value) && reaches(&e.key.name, &p.key.name)),
            _ => allow(&e.value) && reaches(&e.key.name, "*"),
        })
    });
    let in_tools = || {
        agent.value("tools").and_then(Node::as_map).is_some_and(|m| {
            m.entries.iter().any(|e| {
                e.value.as_bool() == Some(true) && reaches(super::schema::tools_key_to_permission(&e.key.name), "*")
            })
        })
    };
    in_permission || in_tools()
}

/// A permission or `tools` value that allows something: `allow`, `true`, or a map holding one
/// within `depth` levels (a permission is a map of maps at most).
pub(super) fn grants(node: &Node, depth: usize) -> bool {
    match &node.value {
        Value::Str(s) => s == "allow",
        Value::Bool(b) => *b,
        Value::Map(m) if depth > 0 => m.entries.iter().any(|e| grants(&e.value, depth - 1)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::opencode::{Analysis, FileKind, analyze};

    /// The findings of a view of these files, in this order: (file, the text the finding is on,
    /// the texts of the denies it names).
    fn found(files: &[(FileKind, &str)]) -> Vec<(usize, String, Vec<String>)> {
        let analyses: Vec<Analysis> = files.iter().map(|(k, t)| analyze(k, t)).collect();
        let (diags, reads) = check(&view_of(&analyses), &|i| files.get(i).map(|f| f.1));
        let mut out = Vec::new();
        for (f, d) in diags {
            assert_eq!(
                (d.code, d.severity),
                (Code::OverriddenDeny, crate::analysis::diagnostic::Severity::Warning)
            );
            assert!(reads.contains(&f), "{reads:?}");
            let denies = d
                .related
                .iter()
                .map(|r| match r.location {
                    Location::File { file, span } => {
                        assert!(reads.contains(&file));
                        span.text(files[file].1).to_string()
                    }
                    _ => panic!("{r:?}"),
                })
                .collect();
            out.push((f, d.span.text(files[f].1).to_string(), denies));
        }
        out
    }

    /// One view of these analyses, in this order, one config directory.
    fn view_of(analyses: &[Analysis]) -> Vec<ViewFile<'_>> {
        analyses
            .iter()
            .enumerate()
            .map(|(file, a)| ViewFile {
                file,
                parsed: &a.parsed,
                facts: &a.facts,
                group: 0,
            })
            .collect()
    }

    /// The messages of a view of one config file.
    fn config_messages(config: &str) -> Vec<String> {
        let analyses = [analyze(&FileKind::Config, config)];
        check(&view_of(&analyses), &|_| Some(config))
            .0
            .into_iter()
            .map(|(_, d)| d.message)
            .collect()
    }

    fn agent(name: &str) -> FileKind {
        FileKind::Agent { name: name.into() }
    }

    const GUARD: &str = r#"{"permission": {"bash": {"*": "ask", "git push *": "deny", "rm -rf *": "deny"}}}"#;

    #[test]
    fn an_agents_broader_allow_overrides_the_configs_deny() {
        // `bash: allow` in a config entry, `"*": allow` in a Markdown agent, `"git *"` narrower
        // but still broader than the deny it takes back.
        let d = found(&[
            (
                FileKind::Config,
                r#"{"permission": {"bash": {"*": "ask", "git push *": "deny", "rm -rf *": "deny"}}, "agent": {"ship": {"permission": {"bash": "allow"}}}}"#,
            ),
            (
                agent("builder"),
                "---\ndescription: d\npermission:\n  bash:\n    \"git *\": allow\n---\nP\n",
            ),
        ]);
        assert_eq!(
            d,
            [
                (
                    0,
                    "\"bash\": \"allow\"".to_string(),
                    vec![
                        "\"git push *\": \"deny\"".to_string(),
                        "\"rm -rf *\": \"deny\"".to_string()
                    ]
                ),
                (
                    1,
                    "\"git *\": allow".to_string(),
                    vec!["\"git push *\": \"deny\"".to_string()]
                ),
            ]
        );
    }

    #[test]
    fn the_message_says_which_agent_and_how_to_keep_the_deny() {
        let analyses = [
            analyze(&FileKind::Config, GUARD),
            analyze(
                &agent("ship"),
                "---\ndescription: d\npermission:\n  bash: allow\n---\nP\n",
            ),
        ];
        let (d, reads) = check(&view_of(&analyses), &|_| None);
        assert_eq!(reads, [0, 1]);
        let m = &d[0].1.message;
        assert!(
            m.starts_with("this allows every `bash` request for agent \"ship\""),
            "{m}"
        );
        assert!(
            m.contains("deny of `bash` \"git push *\" and `bash` \"rm -rf *\""),
            "{m}"
        );
        assert!(
            m.ends_with(
                "the denies never apply. To keep them, restate them after this rule (each as `\"<pattern>\": \"deny\"`)"
            ),
            "{m}"
        );
        assert_eq!(d[0].1.effect, crate::analysis::diagnostic::Effect::RuleNeverApplies);
        // One deny: named in the fix; past three: counted; three, all named.
        let m = &config_messages(
            r#"{"permission": {"bash": {"git push *": "deny"}}, "agent": {"s": {"permission": {"bash": "allow"}}}}"#,
        )[0];
        assert!(
            m.ends_with("the deny never applies. To keep it, restate it after this rule (\"git push *\": \"deny\")"),
            "{m}"
        );
        let m = &config_messages(
            r#"{"permission": {"bash": {"a *": "deny", "b *": "deny", "c *": "deny", "d *": "deny", "e *": "deny"}}, "agent": {"s": {"permission": {"bash": "allow"}}}}"#,
        )[0];
        assert!(
            m.contains("deny of `bash` \"a *\", `bash` \"b *\", `bash` \"c *\" and 2 more:"),
            "{m}"
        );
        let m = &config_messages(
            r#"{"permission": {"bash": {"a *": "deny", "b *": "deny", "c *": "deny"}}, "agent": {"s": {"permission": {"bash": "allow"}}}}"#,
        )[0];
        assert!(
            m.contains("deny of `bash` \"a *\", `bash` \"b *\" and `bash` \"c *\":"),
            "{m}"
        );
    }

    /// The files after the fix of the finding on file `at` (the others as they were), with the
    /// fix's title; the fixed view must have no finding left.
    fn fixed(files: &[(FileKind, &str)], at: usize) -> Option<(String, String)> {
        let analyses: Vec<Analysis> = files.iter().map(|(k, t)| analyze(k, t)).collect();
        let (diags, _) = check(&view_of(&analyses), &|i| files.get(i).map(|f| f.1));
        let fix = diags.into_iter().find(|(f, _)| *f == at)?.1.fix?;
        assert!(!fix.safe, "restoring a deny changes what the agent may do");
        let text = crate::analysis::diagnostic::apply(files[at].1, &fix.edits);
        let mut after = files.to_vec();
        after[at].1 = &text;
        let left = found(&after);
        assert!(left.is_empty(), "{text}\n{left:#?}");
        Some((text, fix.title))
    }

    #[test]
    fn the_fix_restates_the_denies_right_after_the_allow() {
        let md = |perm: &str| format!("---\ndescription: d\npermission:\n{perm}---\nP\n");
        // A whole-permission allow becomes the pattern map's catch-all, in the file's style.
        let (text, title) = fixed(
            &[
                (FileKind::Config, GUARD),
                (agent("a"), &md("  bash: allow # ship\n  edit: ask\n")),
            ],
            1,
        )
        .unwrap();
        assert_eq!(
            text,
            md("  bash:\n    \"*\": allow\n    \"git push *\": deny\n    \"rm -rf *\": deny # ship\n  edit: ask\n")
        );
        assert_eq!(title, "Restate the 2 top-level denies after this allow");
        let (text, title) = fixed(
            &[(
                FileKind::Config,
                "{\"permission\": {\"bash\": {\"git push *\": \"deny\"}},\r\n \"agent\": {\"s\": {\"permission\": {\"bash\": \"allow\"}}}}",
            )],
            0,
        )
        .unwrap();
        assert_eq!(
            text,
            "{\"permission\": {\"bash\": {\"git push *\": \"deny\"}},\r\n \"agent\": {\"s\": {\"permission\": {\"bash\": {\"*\": \"allow\", \"git push *\": \"deny\"}}}}}"
        );
        assert_eq!(title, "Restate the top-level deny after this allow");
        // In a flow mapping of a frontmatter, and with CRLF in a block one.
        let (text, _) = fixed(
            &[
                (FileKind::Config, GUARD),
                (agent("a"), "---\ndescription: d\npermission: {bash: allow}\n---\nP\n"),
            ],
            1,
        )
        .unwrap();
        assert_eq!(
            text,
            "---\ndescription: d\npermission: {bash: {\"*\": allow, \"git push *\": deny, \"rm -rf *\": deny}}\n---\nP\n"
        );
        let (text, _) = fixed(
            &[
                (FileKind::Config, GUARD),
                (
                    agent("a"),
                    "---\r\ndescription: d\r\npermission:\r\n  bash: allow\r\n---\r\nP\r\n",
                ),
            ],
            1,
        )
        .unwrap();
        assert_eq!(
            text,
            "---\r\ndescription: d\r\npermission:\r\n  bash:\r\n    \"*\": allow\r\n    \"git push *\": deny\r\n    \"rm -rf *\": deny\r\n---\r\nP\r\n"
        );
        // A pattern's allow: the denies on the lines after it, before the rules that follow
        // (a later, narrower allow still wins where the author wanted it to).
        let (text, _) = fixed(
            &[
                (FileKind::Config, GUARD),
                (
                    agent("a"),
                    &md("  bash:\n    \"git *\": allow\n    \"git push --dry-run *\": allow\n"),
                ),
            ],
            1,
        )
        .unwrap();
        assert_eq!(
            text,
            md("  bash:\n    \"git *\": allow\n    \"git push *\": deny\n    \"git push --dry-run *\": allow\n")
        );
        // The allow's own entry, whatever comes before and after it.
        let (text, _) = fixed(
            &[
                (FileKind::Config, GUARD),
                (agent("a"), &md("  edit: ask\n  bash: allow\n  read: deny\n")),
            ],
            1,
        )
        .unwrap();
        assert_eq!(
            text,
            md(
                "  edit: ask\n  bash:\n    \"*\": allow\n    \"git push *\": deny\n    \"rm -rf *\": deny\n  read: deny\n"
            )
        );
        // The same deny in two config files is restated once.
        let (text, _) = fixed(
            &[
                (FileKind::Config, r#"{"permission": {"bash": {"git push *": "deny"}}}"#),
                (
                    FileKind::Config,
                    r#"{"permission": {"bash": {"*": "ask", "git push *": "deny"}}}"#,
                ),
                (agent("a"), &md("  bash: allow\n")),
            ],
            2,
        )
        .unwrap();
        assert_eq!(text, md("  bash:\n    \"*\": allow\n    \"git push *\": deny\n"));
        // No fix: the deprecated `tools` (its conversion comes first), an allow under the `"*"`
        // key (restating there would deny every permission's pattern), no text.
        let no_fix = |files: &[(FileKind, &str)]| {
            assert_eq!(found(files).len(), 1);
            assert_eq!(fixed(files, 1), None);
        };
        no_fix(&[
            (FileKind::Config, GUARD),
            (agent("a"), "---\ndescription: d\ntools:\n  bash: true\n---\nP\n"),
        ]);
        no_fix(&[
            (FileKind::Config, GUARD),
            (agent("a"), &md("  \"*\":\n    \"git *\": allow\n")),
        ]);
        let analyses = [
            analyze(&FileKind::Config, GUARD),
            analyze(&agent("a"), &md("  bash: allow\n")),
        ];
        let (d, _) = check(&view_of(&analyses), &|_| None);
        assert!(d[0].1.fix.is_none());
    }

    #[test]
    fn deliberate_layering_gets_nothing() {
        let none = |files: &[(FileKind, &str)]| {
            let d = found(files);
            assert!(d.is_empty(), "{d:#?}");
        };
        let md = |perm: &str| format!("---\ndescription: d\npermission:\n{perm}---\nP\n");
        // A whole permission denied at the top, widened by an agent.
        none(&[
            (
                FileKind::Config,
                r#"{"permission": {"edit": "deny", "bash": {"*": "deny"}}}"#,
            ),
            (agent("a"), &md("  edit: allow\n  bash: allow\n")),
        ]);
        // The very pattern the config denies, allowed on purpose.
        none(&[
            (FileKind::Config, GUARD),
            (agent("a"), &md("  bash:\n    \"git push *\": allow\n")),
        ]);
        // Everything at once: `broad-grant`'s.
        none(&[
            (FileKind::Config, GUARD),
            (agent("a"), "---\ndescription: d\npermission: allow\n---\nP\n"),
        ]);
        none(&[(FileKind::Config, GUARD), (agent("a"), &md("  \"*\": allow\n"))]);
        // Restated after the allow, or a narrower allow that does not reach the deny.
        none(&[
            (FileKind::Config, GUARD),
            (
                agent("a"),
                &md("  bash:\n    \"*\": allow\n    \"git push *\": deny\n    \"rm *\": deny\n"),
            ),
        ]);
        none(&[
            (FileKind::Config, GUARD),
            (agent("a"), &md("  bash:\n    \"npm *\": allow\n")),
        ]);
        // Another permission's allow; an ask (the user still decides).
        none(&[(FileKind::Config, GUARD), (agent("a"), &md("  edit: allow\n"))]);
        none(&[(FileKind::Config, GUARD), (agent("a"), &md("  bash: ask\n"))]);
        // No deny at the top: nothing to override.
        none(&[(agent("a"), &md("  bash: allow\n"))]);
    }

    #[test]
    fn grants_is_any_allow_within_two_levels() {
        let grants_in = |yaml: &str| grants(crate::analysis::syntax::yaml::parse(yaml, 0).root.as_ref().unwrap(), 2);
        assert!(grants_in("allow"));
        assert!(grants_in("edit: deny\nbash:\n  \"git *\": allow\n"));
        assert!(grants_in("bash: true\n"));
        assert!(!grants_in("edit: deny\nbash:\n  \"*\": ask\nread: false\n"));
        assert!(!grants_in("deny"));
        // A third level is no permission's: not looked at.
        assert!(!grants_in("bash:\n  x:\n    y: allow\n"));
    }

    #[test]
    fn only_an_allow_broader_than_a_deny_makes_an_agent_worth_merging() {
        let rule = |permission: &str, pattern: &str| Rule {
            permission: permission.into(),
            pattern: pattern.into(),
            action: "deny".into(),
            source: Source::BuiltIn,
            layer: Layer::Config,
        };
        let targeted = [rule("bash", "git push *"), rule("edit", "*.env")];
        let may = |yaml: &str| {
            let parsed = crate::analysis::syntax::yaml::parse(yaml, 0);
            may_override(parsed.root.as_ref().and_then(Node::as_map).unwrap(), &targeted)
        };
        // Broader: a whole permission, a wider pattern, a `*` key with a wider pattern, `tools`
        // (`write` is `edit`).
        assert!(may("permission:\n  bash: allow\n"));
        assert!(may("permission:\n  bash:\n    \"git *\": allow\n"));
        assert!(may("permission:\n  \"*\":\n    \"git *\": allow\n"));
        assert!(may("tools:\n  write: true\n"));
        // Not: narrower or other patterns, the same pattern, other permissions, ask, everything
        // at once, `tools` turned off.
        assert!(!may(
            "permission:\n  bash:\n    \"git status *\": allow\n    \"*\": ask\n"
        ));
        assert!(!may("permission:\n  bash:\n    \"git push *\": allow\n"));
        assert!(!may("permission:\n  webfetch: allow\n  bash: ask\n"));
        assert!(!may("permission:\n  \"*\": allow\n"));
        assert!(!may("permission: allow\ntools:\n  bash: false\n  read: true\n"));
    }

    #[test]
    fn deprecated_tools_and_a_permission_wildcard_count() {
        // `tools: {bash: true}` is opencode's `bash: allow`; an agent's `"*"` permission key
        // names every permission, bash included.
        let d = found(&[
            (FileKind::Config, GUARD),
            (agent("t"), "---\ndescription: d\ntools:\n  bash: true\n---\nP\n"),
        ]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].1, "bash: true");
        let d = found(&[
            (FileKind::Config, GUARD),
            (
                agent("w"),
                "---\ndescription: d\npermission:\n  \"*\":\n    \"git *\": allow\n---\nP\n",
            ),
        ]);
        assert_eq!(d.len(), 1, "{d:#?}");
        assert_eq!(d[0].2, ["\"git push *\": \"deny\""]);
    }
}
