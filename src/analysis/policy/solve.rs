//! TEMPORARY stand-in (replaced by the solver branch): same API, candidate inputs only.
use crate::analysis::permission::wildcard_match;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Deny,
    Ask,
    Allow,
}
impl Action {
    pub fn parse(s: &str) -> Option<Action> {
        match s {
            "deny" => Some(Action::Deny),
            "ask" => Some(Action::Ask),
            "allow" => Some(Action::Allow),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Deny => "deny",
            Action::Ask => "ask",
            Action::Allow => "allow",
        }
    }
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    OpenCode,
    Claude,
}
#[derive(Clone, Copy, Debug)]
pub struct Rule<'a> {
    pub pattern: &'a str,
    pub action: Action,
}
#[derive(Clone, Copy, Debug)]
pub enum Order {
    LastMatch { default: Action },
    Claude { default: Action, split: bool },
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    Rule(usize),
    Default,
}
#[derive(Clone, Debug)]
pub struct Outcome {
    pub decider: Decider,
    pub action: Action,
    pub witness: String,
}
#[derive(Clone, Copy, Debug)]
pub struct TooComplex;

fn m(input: &str, p: &str, syntax: Syntax) -> bool {
    let p = match syntax {
        Syntax::Claude => p.strip_suffix(":*").map(|s| format!("{s} *")).unwrap_or(p.to_string()),
        Syntax::OpenCode => p.to_string(),
    };
    wildcard_match(input, &p)
}
pub fn decide(input: &str, rules: &[Rule], syntax: Syntax, order: Order) -> (Action, Decider) {
    match order {
        Order::LastMatch { default } => match rules.iter().rposition(|r| m(input, r.pattern, syntax)) {
            Some(i) => (rules[i].action, Decider::Rule(i)),
            None => (default, Decider::Default),
        },
        Order::Claude { default, .. } => {
            for a in [Action::Deny, Action::Ask, Action::Allow] {
                if let Some(i) = rules.iter().position(|r| r.action == a && m(input, r.pattern, syntax)) {
                    return (a, Decider::Rule(i));
                }
            }
            (default, Decider::Default)
        }
    }
}
pub fn solve(
    inputs: &[&str],
    rules: &[Rule],
    syntax: Syntax,
    order: Order,
    _budget: usize,
) -> Result<Vec<Outcome>, TooComplex> {
    let mut cands: Vec<String> = Vec::new();
    for p in inputs.iter().copied().chain(rules.iter().map(|r| r.pattern)) {
        for fill in ["", "x", " x"] {
            cands.push(p.trim_end_matches(":*").replace('*', fill).replace('?', "x"));
        }
        if let Some(s) = p.strip_suffix(" *") {
            cands.push(s.to_string());
        }
    }
    let mut out: Vec<Outcome> = Vec::new();
    for c in cands {
        if !inputs.iter().any(|p| wildcard_match(&c, p)) {
            continue;
        }
        let (action, decider) = decide(&c, rules, syntax, order);
        match out.iter_mut().find(|o| o.decider == decider) {
            Some(o) => {
                if c.len() < o.witness.len() {
                    o.witness = c
                }
            }
            None => out.push(Outcome {
                decider,
                action,
                witness: c,
            }),
        }
    }
    out.sort_by(|a, b| b.action.cmp(&a.action).then(a.witness.len().cmp(&b.witness.len())));
    Ok(out)
}
pub fn violation(
    inputs: &[&str],
    rules: &[Rule],
    syntax: Syntax,
    order: Order,
    limit: Action,
    budget: usize,
) -> Result<Option<Outcome>, TooComplex> {
    Ok(solve(inputs, rules, syntax, order, budget)?
        .into_iter()
        .find(|o| o.action > limit))
}
