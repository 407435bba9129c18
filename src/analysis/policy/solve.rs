//! The solver behind team policies: which rules of an agent can decide an input of a policy's
//! language, proved over every input, each with a shortest witness input.
//!
//! # What is modelled
//!
//! A wildcard pattern (opencode's `Wildcard.match`, `../shared/spec/opencode.md` §6.4): `*` is
//! any run of characters (across `/`), `?` exactly one character, anything else itself,
//! case-sensitive, anchored; a backslash, in the pattern or the input, is read as `/`; a pattern
//! ending in `" *"` also matches the text without that suffix (`git diff *` matches `git diff`).
//! Claude Code patterns ([`Syntax::Claude`], `../shared/spec/claude-code.md` §3) are the same
//! except that `?` is a literal character and a final `:*` means a final `" *"` (`git diff:*` is
//! `git diff *`; `git:* push` keeps its `:`). A backslash is read as `/` in both syntaxes.
//! Claude Code's path rules ([`Syntax::ClaudePath`]) are gitignore's: `**` is any run of
//! characters, a single `*` any run without `/`, `?` literal, no suffix rule.
//!
//! Two ways rules decide an input ([`Order`]):
//!
//! - opencode and Zuno ([`Order::LastMatch`]): the last rule whose pattern matches wins; when
//!   none matches, the caller's default.
//! - Claude Code ([`Order::Claude`]): deny if a deny rule matches, else ask if an ask rule does,
//!   else allow if an allow rule does, else the default. The decider reported is the first rule
//!   (in `rules` order) of the winning action that matches. With `split` (Bash), a command is
//!   cut at every run of the separators `&`, `|`, `;` and newline (this covers `&&`, `||`, `|&`);
//!   each part is trimmed of white space and empty parts are ignored; the command is deny if a
//!   part is deny, else ask if a part is ask, else the default if a part matched no rule, else
//!   allow. The decider is the rule of the first deny part (else of the first ask part), the
//!   default, or for allow the allow rule of the first part. A command with no non-empty part is
//!   decided as one empty part.
//!
//! The split model is exact for commands without quotes, backslashes, `$` and backticks (a shell
//! would not split inside quotes or expansions). In split mode the solver therefore only
//! considers inputs without `"`, `'`, `\`, `$` and `` ` ``: every witness it gives is decided by
//! Claude Code's splitting as claimed, and what it proves holds for every such input.
//!
//! # How
//!
//! Each pattern is a small automaton over its positions (position `i` = the first `i` tokens
//! matched; a `*` position loops on every character). Reading a character moves the set of live
//! positions of every pattern at once: the positions of all patterns (the policy's, then the
//! rules' in order) sit side by side in one bit set, so one step is a few shifts and masks
//! (shift-and). A set of live positions is a state of the subset construction of each pattern,
//! and the whole bit set is a state of their product.
//!
//! The alphabet is infinite but characters fall into a few classes that every pattern treats
//! alike: each character written literally in some pattern is its own class, and every other
//! character behaves like one representative (`x`, or the first unused of a fixed list). In
//! split mode the separators and white space (trimmed) also get classes. From a state, a
//! literal class that no live position expects moves exactly like the representative, so only
//! the representative is tried for it.
//!
//! A breadth-first search from the start state visits each reachable product state once
//! (deduplicated in a hash table), keeping a parent pointer. A state where some policy pattern
//! accepts is an input of the policy's language, and the rule automata that accept there say
//! which rule decides it. Breadth-first order makes the first visit of a state a shortest path,
//! so the first input found for each decider is a shortest one. Since every input leads to
//! exactly one state and every reachable state is visited, the deciders found are all of them:
//! a proof, not a sample.
//!
//! In split mode the policy's positions run over the whole command and the rules' positions
//! restart at each part. A state also carries the rules' positions at the last non-blank
//! character of the current part (so a part's trailing blanks are trimmed), whether the search
//! is inside a part, and the rank of the combined verdict so far (deny > ask > default > allow),
//! but not which rule set that rank, which would copy every state once per rule. Instead the
//! search keeps its edges; an edge that closes a part raising the rank names the rule (an
//! "event"), and a backward search from the accepted ends gives each state a shortest way on
//! that keeps its rank. A decider's shortest witness is then a shortest path to an event, the
//! event, and a shortest way on (or a shortest path to an accepted state whose last part raises
//! the rank itself).
//!
//! Before the search, rules whose literal prefix disagrees with every policy pattern's are
//! dropped (they can never match an input of the policy; not in split mode, where a part starts
//! anywhere), as are rules before the last catch-all `*` under [`Order::LastMatch`] (they never
//! win). Outside split mode the search stops early once every
//! possible decider has a witness. It gives up with [`TooComplex`] beyond `budget` states
//! (patterns like `*a*b*` in numbers multiply states). Measured (release, a loaded 2-core
//! machine): 15–30 µs for a `git push*` policy over 49 opencode rules, 160–500 µs when the
//! policy lets every rule decide (`*`), 140 µs to 1 ms for a 14-rule Claude Code Bash list with
//! splitting, 10 ms and 9,442 states for 49 rules with splitting under `*git push*`.

mod engine;
mod model;

use engine::{Machine, Search};
pub use model::{Action, Decider, Order, Outcome, Rule, Syntax, TooComplex};
use model::{Glob, Verdict, glob_match, is_separator};
/// Every decider that decides at least one input matching some pattern of `inputs` (opencode
/// syntax for the policy's own patterns), each with a shortest such input, sorted by action
/// descending (then shortest witness). Bounded: at most `budget` automaton states, else
/// `Err(TooComplex)`.
pub fn solve(
    inputs: &[&str],
    rules: &[Rule],
    syntax: Syntax,
    order: Order,
    budget: usize,
) -> Result<Vec<Outcome>, TooComplex> {
    if inputs.is_empty() {
        return Ok(Vec::new());
    }
    let machine = Machine::build(inputs, rules, syntax, order)?;
    let mut outcomes = Search::new(&machine, order, budget).run()?;
    outcomes.sort_by(|a, b| {
        (
            std::cmp::Reverse(a.action),
            a.witness.chars().count(),
            &a.witness,
            a.decider,
        )
            .cmp(&(
                std::cmp::Reverse(b.action),
                b.witness.chars().count(),
                &b.witness,
                b.decider,
            ))
    });
    Ok(outcomes)
}

/// The first outcome whose action is above `limit` (the most permissive, then the shortest
/// witness), if any: the policy is violated.
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

/// Whether some input matches one of `inputs` at all. Every wildcard pattern matches some text
/// (read `*` as nothing and `?` as any character), so only an empty list matches nothing.
pub fn matches_some_input(inputs: &[&str]) -> bool {
    !inputs.is_empty()
}

/// One input decided by the rules, by direct evaluation (the reference matcher, independent of
/// the automata): the action and what decided it.
pub fn decide(input: &str, rules: &[Rule], syntax: Syntax, order: Order) -> (Action, Decider) {
    match order {
        Order::LastMatch { default } => rules
            .iter()
            .rposition(|r| pattern_matches(input, r.pattern, syntax))
            .map_or((default, Decider::Default), |i| (rules[i].action, Decider::Rule(i))),
        Order::Claude { default, split: false } => claude_part(input, rules, syntax).outcome(default),
        Order::Claude { default, split: true } => command_parts(input)
            .iter()
            .fold(Verdict::Nothing, |v, part| v.then(claude_part(part, rules, syntax)))
            .outcome(default),
    }
}

/// Whether `input` matches `pattern` (written in `syntax`).
pub fn pattern_matches(input: &str, pattern: &str, syntax: Syntax) -> bool {
    let glob = Glob::parse(pattern, syntax);
    let input: Vec<char> = input.chars().map(|c| if c == '\\' { '/' } else { c }).collect();
    glob_match(&input, &glob.toks) || glob.stem_len().is_some_and(|n| glob_match(&input, &glob.toks[..n]))
}

/// The parts of a Bash command as the split model reads it: cut at runs of separators, trimmed,
/// empty parts dropped; a command with no part is one empty part.
pub fn command_parts(input: &str) -> Vec<&str> {
    let parts: Vec<&str> = input
        .split(is_separator)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() { vec![""] } else { parts }
}

/// One part decided by Claude Code's lists: the first matching deny rule, else ask, else allow.
fn claude_part(part: &str, rules: &[Rule], syntax: Syntax) -> Verdict {
    let first = |action| {
        rules
            .iter()
            .position(|r| r.action == action && pattern_matches(part, r.pattern, syntax))
    };
    if let Some(i) = first(Action::Deny) {
        Verdict::Deny(i)
    } else if let Some(i) = first(Action::Ask) {
        Verdict::Ask(i)
    } else if let Some(i) = first(Action::Allow) {
        Verdict::Allow(i)
    } else {
        Verdict::Default
    }
}

#[cfg(test)]
mod tests;
