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

use super::effective::{self, Env, Layer, Rule};
use super::project::ViewFile;
use crate::analysis::diagnostic::{Diagnostic, Location};
use crate::analysis::permission::{covers, pattern_covers};
use crate::analysis::provenance::Source;
use crate::analysis::rules::Code;
use crate::analysis::syntax::{Node, Value};

/// The findings of one view, and the files they read whole (the config files whose denies are
/// overridden, the files of the agents that override them).
pub fn check(view: &[ViewFile]) -> (Vec<(usize, Diagnostic)>, Vec<usize>) {
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
        let (diags, reads) = check(&view_of(&analyses));
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
        check(&view_of(&analyses))
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
        let (d, reads) = check(&view_of(&analyses));
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
