//! A policy against one agent: the agent's rules for the policy's permission, as its dialect
//! hands them over ([`Ruleset`]), proved with [`solve`](super::solve) over every input of the
//! policy's patterns.

use super::solve::{self, Action, Decider, Order, Outcome, Syntax};
use super::spec::Policy;
use crate::analysis::provenance::Source;

/// The most automaton states one proof may visit; past it the policy is reported as not proved
/// for that agent (never as holding). The hardest ruleset of the corpus (a `bash` map of 424
/// rules, 80 of them `*secret*`-style denials) needs 61,553 states of 20 words.
pub const BUDGET: usize = 200_000;

/// One rule that can decide an input of the permission, with where it is written.
#[derive(Clone, Debug)]
pub struct SourcedRule {
    pub pattern: String,
    pub action: Action,
    pub source: Source,
    /// How the rule reads in a message: `` `bash` "git *": allow ``, `` `Bash(git push:*)` in
    /// `permissions.ask` ``.
    pub label: String,
}

/// An agent's rules for one permission, in its runtime's terms.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub rules: Vec<SourcedRule>,
    pub syntax: Syntax,
    pub order: Order,
    /// What decides when no rule matches, in words ("no rule matches: opencode asks"), and
    /// where that is set (`permissionMode`) when it is written somewhere.
    pub default_label: String,
    pub default_source: Source,
    /// The home directory for `~` and `$HOME` in the policy's patterns (the runtime expands the
    /// rules' own; `None` leaves them as written).
    pub home: Option<String>,
    /// The inputs are file paths read relative to this directory (Claude Code's path rules are
    /// made relative to the project): an input or policy pattern written `./x`, or as an
    /// absolute path under it, is read as `x`.
    pub root: Option<String>,
    /// What the proof leaves to the runtime, when something does ("path rules are read as
    /// wildcards").
    pub note: Option<String>,
    /// The default is assumed, not known (the fact sheet does not say what the runtime does):
    /// a violation it decides is a warning, not an error.
    pub assumed_default: bool,
    /// Rules written for this permission that the runtime does not apply (a settings file it
    /// voids), each group with its cause: what would decide were they applied.
    pub unapplied: Vec<Unapplied>,
}

/// Rules the runtime does not apply, and why.
#[derive(Clone, Debug)]
pub struct Unapplied {
    pub rules: Vec<SourcedRule>,
    /// What stops them (the value that voids their file).
    pub cause: Source,
    /// The cause in words.
    pub why: String,
}

/// A rule the runtime does not apply that would decide an input: what it would decide, and
/// what stops it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unapplies {
    pub action: Action,
    pub rule: Source,
    pub label: String,
    pub cause: Source,
    pub why: String,
}

impl Ruleset {
    /// The rules as the solver takes them.
    pub fn solver_rules(&self) -> Vec<solve::Rule<'_>> {
        self.rules
            .iter()
            .map(|r| solve::Rule {
                pattern: &r.pattern,
                action: r.action,
            })
            .collect()
    }

    /// An input or policy pattern in the terms of the rules: `~` expanded, a path made relative
    /// to the root.
    pub fn input(&self, p: &str) -> String {
        let p = expand_home(p, self.home.as_deref());
        match &self.root {
            Some(root) => relative_path(&p, root),
            None => p,
        }
    }

    /// The rule or default behind a decider.
    /// For an input (in the rules' terms): the unapplied rule that would decide it if the
    /// runtime applied every rule written, when that is one of [`Ruleset::unapplied`] and it would
    /// give another action than what decides now.
    pub fn would_decide(&self, input: &str) -> Option<Unapplies> {
        if self.unapplied.is_empty() {
            return None;
        }
        let (action, _) = solve::decide(input, &self.solver_rules(), self.syntax, self.order);
        let mut all: Vec<(&SourcedRule, Option<&Unapplied>)> = self.rules.iter().map(|r| (r, None)).collect();
        for u in &self.unapplied {
            all.extend(u.rules.iter().map(|r| (r, Some(u))));
        }
        let solver: Vec<solve::Rule<'_>> = all
            .iter()
            .map(|(r, _)| solve::Rule {
                pattern: &r.pattern,
                action: r.action,
            })
            .collect();
        let (would, by) = solve::decide(input, &solver, self.syntax, self.order);
        let Decider::Rule(i) = by else {
            return None;
        };
        let (rule, Some(u)) = all[i] else {
            return None;
        };
        (would != action).then(|| Unapplies {
            action: would,
            rule: rule.source,
            label: rule.label.clone(),
            cause: u.cause,
            why: u.why.clone(),
        })
    }

    pub fn decider(&self, d: Decider) -> (Option<&SourcedRule>, Source, &str) {
        match d {
            Decider::Rule(i) => match self.rules.get(i) {
                Some(r) => (Some(r), r.source, r.label.as_str()),
                None => (None, self.default_source, self.default_label.as_str()),
            },
            Decider::Default => (None, self.default_source, self.default_label.as_str()),
        }
    }
}

/// What a policy comes to for one agent.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No input of the policy gets more than its limit; `deciders` are the rules (and default)
    /// that decide some of its inputs, strongest first.
    Holds { deciders: Vec<Outcome> },
    /// Some inputs get more: `worst` is the strongest (a shortest input, the rule deciding it);
    /// `others` the other deciders of the policy's inputs above the limit, then the ones within it.
    Violated { worst: Outcome, others: Vec<Outcome> },
    /// The proof ran out of its budget.
    NotProved,
}

/// opencode's home expansion of a pattern (`~`, `~/x`, `$HOME`, `$HOME/x`).
pub fn expand_home(p: &str, home: Option<&str>) -> String {
    let Some(home) = home else { return p.to_string() };
    if p == "~" {
        return home.to_string();
    }
    if let Some(rest) = p.strip_prefix("~/") {
        return format!("{home}/{rest}");
    }
    if let Some(rest) = p.strip_prefix("$HOME") {
        return format!("{home}{rest}");
    }
    p.to_string()
}

/// `p` relative to the directory `root` (an absolute path) when it names a place under it
/// (`./x`, `<root>/x`), else as written.
pub fn relative_path(p: &str, root: &str) -> String {
    let mut p = p;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    // `/` itself ends up empty: every absolute path is under it.
    let root = root.trim_end_matches('/');
    match p.strip_prefix(root).and_then(|r| r.strip_prefix('/')) {
        Some(rest) => rest.to_string(),
        None => p.to_string(),
    }
}

/// Judge `policy` against `ruleset`.
pub fn judge(policy: &Policy, ruleset: &Ruleset) -> Verdict {
    let patterns: Vec<String> = policy.inputs.iter().map(|(p, _)| ruleset.input(p)).collect();
    let patterns: Vec<&str> = patterns.iter().map(String::as_str).collect();
    let rules = ruleset.solver_rules();
    let Ok(outcomes) = solve::solve(&patterns, &rules, ruleset.syntax, ruleset.order, BUDGET) else {
        return Verdict::NotProved;
    };
    let (mut above, within): (Vec<Outcome>, Vec<Outcome>) =
        outcomes.into_iter().partition(|o| o.action > policy.at_most);
    if above.is_empty() {
        return Verdict::Holds { deciders: within };
    }
    let worst = above.remove(0);
    above.extend(within);
    Verdict::Violated { worst, others: above }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(pattern: &str, action: Action, at: usize) -> SourcedRule {
        SourcedRule {
            pattern: pattern.into(),
            action,
            source: Source::File {
                file: 0,
                span: crate::analysis::text::Span::new(at, at + 1),
            },
            label: format!("`{pattern}`"),
        }
    }

    #[test]
    fn a_rule_the_runtime_does_not_apply_is_named_where_it_would_decide_otherwise() {
        let cause = Source::File {
            file: 1,
            span: crate::analysis::text::Span::new(40, 41),
        };
        let mut r = Ruleset {
            rules: vec![rule("git *", Action::Allow, 0)],
            syntax: Syntax::Claude,
            order: Order::Claude {
                default: Action::Ask,
                split: false,
            },
            default_label: "the mode asks".into(),
            default_source: Source::BuiltIn,
            home: None,
            root: None,
            note: None,
            assumed_default: false,
            unapplied: Vec::new(),
        };
        // Nothing unapplied: nothing to say.
        assert_eq!(r.would_decide("curl x"), None);
        r.unapplied.push(Unapplied {
            rules: vec![rule("curl *", Action::Deny, 10), rule("git *", Action::Allow, 20)],
            cause,
            why: "a refused value".into(),
        });
        // Where the default decides and the unapplied deny would: it is named, with its cause.
        assert_eq!(
            r.would_decide("curl x"),
            Some(Unapplies {
                action: Action::Deny,
                rule: rule("curl *", Action::Deny, 10).source,
                label: "`curl *`".into(),
                cause,
                why: "a refused value".into(),
            })
        );
        // The same decision either way (an applied rule, or an unapplied one that agrees): nothing.
        assert_eq!(r.would_decide("git status"), None);
        // An input no rule matches: nothing.
        assert_eq!(r.would_decide("ls"), None);
    }

    #[test]
    fn paths_relative_to_the_root() {
        for (p, root, want) in [
            ("./.env", "/p", ".env"),
            ("././a/b", "/p", "a/b"),
            ("/p/a/b", "/p", "a/b"),
            ("/p/a/b", "/p/", "a/b"),
            ("/pa/b", "/p", "/pa/b"),
            ("/q/a", "/p", "/q/a"),
            ("a/b", "/p", "a/b"),
            ("/a/b", "/", "a/b"),
            ("../a", "/p", "../a"),
        ] {
            assert_eq!(relative_path(p, root), want, "{p} under {root}");
        }
    }
}
