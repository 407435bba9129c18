use super::model::is_shell_special;
use super::*;
use crate::analysis::permission::{last_match, wildcard_match};
use std::collections::BTreeMap;

const BUDGET: usize = 100_000;
const ASK: Order = Order::LastMatch { default: Action::Ask };

fn rules<'a>(list: &[(&'a str, &str)]) -> Vec<Rule<'a>> {
    list.iter()
        .map(|(pattern, action)| Rule {
            pattern,
            action: Action::parse(action).expect("an action"),
        })
        .collect()
}

/// The outcomes as `(decider, action, witness)`, readable in assertions.
fn outcomes(inputs: &[&str], rules: &[Rule], syntax: Syntax, order: Order) -> Vec<(Decider, &'static str, String)> {
    solve(inputs, rules, syntax, order, BUDGET)
        .expect("within budget")
        .into_iter()
        .map(|o| (o.decider, o.action.as_str(), o.witness))
        .collect()
}

fn claude(default: Action, split: bool) -> Order {
    Order::Claude { default, split }
}

#[test]
fn a_catch_all_git_allow_lets_git_push_through() {
    let r = rules(&[("*", "ask"), ("git *", "allow")]);
    let found = violation(&["git push*"], &r, Syntax::OpenCode, ASK, Action::Ask, BUDGET).unwrap();
    let o = found.expect("a violation");
    assert_eq!(
        (o.decider, o.action, o.witness.as_str()),
        (Decider::Rule(1), Action::Allow, "git push")
    );
    // The catch-all decides nothing under `git push*` ("git push" starts with "git ").
    assert_eq!(
        outcomes(&["git push*"], &r, Syntax::OpenCode, ASK),
        [(Decider::Rule(1), "allow", "git push".to_string())]
    );
}

#[test]
fn a_later_ask_rule_keeps_the_policy() {
    let r = rules(&[("git *", "allow"), ("git push*", "ask")]);
    assert_eq!(
        violation(&["git push*"], &r, Syntax::OpenCode, ASK, Action::Ask, BUDGET),
        Ok(None)
    );
    assert_eq!(
        outcomes(&["git push*"], &r, Syntax::OpenCode, ASK),
        [(Decider::Rule(1), "ask", "git push".to_string())]
    );
    // Under a wider policy the allow rule and the default decide too, each with a shortest input.
    assert_eq!(
        outcomes(&["git*"], &r, Syntax::OpenCode, ASK),
        [
            (Decider::Rule(0), "allow", "git".to_string()),
            (Decider::Default, "ask", "gitx".to_string()),
            (Decider::Rule(1), "ask", "git push".to_string()),
        ]
    );
}

#[test]
fn trailing_space_star_also_matches_the_bare_command() {
    let r = rules(&[("*", "deny"), ("git diff *", "allow")]);
    assert_eq!(
        outcomes(&["git diff*"], &r, Syntax::OpenCode, ASK),
        [
            (Decider::Rule(1), "allow", "git diff".to_string()),
            (Decider::Rule(0), "deny", "git diffx".to_string()),
        ]
    );
    // Without the space the rule is a plain prefix: `git logger` is allowed.
    let r = rules(&[("*", "deny"), ("git log*", "allow")]);
    let o = violation(&["git logg*"], &r, Syntax::OpenCode, ASK, Action::Ask, BUDGET).unwrap();
    assert_eq!(o.map(|o| o.witness), Some("git logg".to_string()));
    // A policy pattern ending in " *" covers the bare command too.
    let r = rules(&[("rm", "allow")]);
    let o = violation(&["rm *"], &r, Syntax::OpenCode, ASK, Action::Ask, BUDGET).unwrap();
    assert_eq!(o.map(|o| o.witness), Some("rm".to_string()));
}

#[test]
fn question_mark_is_one_character_in_opencode_and_literal_in_claude() {
    let r = rules(&[("*", "deny"), ("l?", "allow")]);
    assert_eq!(
        outcomes(&["l*"], &r, Syntax::OpenCode, ASK),
        [
            (Decider::Rule(1), "allow", "lx".to_string()),
            (Decider::Rule(0), "deny", "l".to_string())
        ]
    );
    let r = rules(&[("l?", "allow")]);
    assert_eq!(
        outcomes(&["l*"], &r, Syntax::Claude, claude(Action::Ask, false)),
        [
            (Decider::Rule(0), "allow", "l?".to_string()),
            (Decider::Default, "ask", "l".to_string())
        ]
    );
}

#[test]
fn backslash_reads_as_slash() {
    let r = rules(&[("*", "deny"), ("src\\*", "allow")]);
    assert_eq!(
        outcomes(&["src/a*"], &r, Syntax::OpenCode, ASK),
        [(Decider::Rule(1), "allow", "src/a".to_string())]
    );
    assert_eq!(
        decide("src\\x", &r, Syntax::OpenCode, ASK),
        (Action::Allow, Decider::Rule(1))
    );
    // A policy written with a backslash is the same policy.
    let r = rules(&[("*", "ask"), ("a/b", "allow")]);
    assert_eq!(outcomes(&["a\\?"], &r, Syntax::OpenCode, ASK)[0].2, "a/b");
}

#[test]
fn claude_denies_first_whatever_the_order() {
    let r = rules(&[("git *", "allow"), ("git push *", "deny"), ("git push *", "ask")]);
    let order = claude(Action::Ask, false);
    assert_eq!(
        outcomes(&["git push*"], &r, Syntax::Claude, order),
        [
            (Decider::Rule(0), "allow", "git pushx".to_string()),
            (Decider::Rule(1), "deny", "git push".to_string()),
        ]
    );
    assert_eq!(
        decide("git push x", &r, Syntax::Claude, order),
        (Action::Deny, Decider::Rule(1))
    );
    // opencode's order on the same rules: the last match wins.
    assert_eq!(
        decide("git push x", &r, Syntax::Claude, ASK),
        (Action::Ask, Decider::Rule(2))
    );
}

#[test]
fn claude_legacy_colon_star_suffix() {
    let r = rules(&[("git diff:*", "allow"), ("git:* push", "allow")]);
    let order = claude(Action::Ask, false);
    assert_eq!(
        decide("git diff", &r, Syntax::Claude, order),
        (Action::Allow, Decider::Rule(0))
    );
    assert_eq!(
        decide("git diff --stat", &r, Syntax::Claude, order),
        (Action::Allow, Decider::Rule(0))
    );
    assert_eq!(
        decide("git diffx", &r, Syntax::Claude, order),
        (Action::Ask, Decider::Default)
    );
    assert_eq!(
        decide("git: push", &r, Syntax::Claude, order),
        (Action::Allow, Decider::Rule(1))
    );
    assert_eq!(
        decide("git x push", &r, Syntax::Claude, order),
        (Action::Ask, Decider::Default)
    );
    assert_eq!(
        outcomes(&["git*"], &r, Syntax::Claude, order),
        [
            (Decider::Rule(0), "allow", "git diff".to_string()),
            (Decider::Rule(1), "allow", "git: push".to_string()),
            (Decider::Default, "ask", "git".to_string()),
        ]
    );
    // In opencode's syntax `:*` is a literal colon and a star.
    assert!(!pattern_matches("git diff", "git diff:*", Syntax::OpenCode));
}

#[test]
fn claude_compound_commands_need_every_part() {
    let r = rules(&[("ls *", "allow"), ("git *", "allow")]);
    let order = claude(Action::Ask, true);
    assert_eq!(
        decide("ls && git push", &r, Syntax::Claude, order),
        (Action::Allow, Decider::Rule(0))
    );
    assert_eq!(
        decide("ls && rm x", &r, Syntax::Claude, order),
        (Action::Ask, Decider::Default)
    );
    assert_eq!(
        decide(" ls ;; |\n", &r, Syntax::Claude, order),
        (Action::Allow, Decider::Rule(0))
    );
    // `git push` anywhere in a command: allowed alone, within an `ls` and after one.
    let o = solve(&["*git push*"], &r, Syntax::Claude, order, BUDGET).unwrap();
    let allowed: Vec<(Decider, &str)> = o
        .iter()
        .filter(|o| o.action == Action::Allow)
        .map(|o| (o.decider, o.witness.as_str()))
        .collect();
    assert_eq!(
        allowed,
        [(Decider::Rule(1), "git push"), (Decider::Rule(0), "ls git push")]
    );
    // A bare `ls` part before it: the allow rule of the first part decides.
    let bare = rules(&[("ls", "allow"), ("git *", "allow")]);
    let o = solve(&["*git push*"], &bare, Syntax::Claude, order, BUDGET).unwrap();
    assert!(
        o.iter()
            .any(|o| (o.decider, o.witness.as_str()) == (Decider::Rule(0), "ls;git push")),
        "{o:?}"
    );
    // Any unmatched part asks.
    assert!(
        o.iter()
            .any(|o| o.decider == Decider::Default && o.action == Action::Ask)
    );
    // A deny rule for the part wins over an allowed neighbour.
    let r = rules(&[("ls *", "allow"), ("git push *", "deny"), ("*", "ask")]);
    let o = solve(&["*git push*"], &r, Syntax::Claude, order, BUDGET).unwrap();
    assert_eq!(
        o.iter().map(|o| (o.decider, o.action)).collect::<Vec<_>>(),
        [(Decider::Rule(2), Action::Ask), (Decider::Rule(1), Action::Deny)]
    );
    // Trailing blanks of a part are trimmed: `ls  ` is the part `ls`.
    let r = rules(&[("ls", "allow")]);
    assert_eq!(
        outcomes(&["ls ?*"], &r, Syntax::Claude, order),
        [
            (Decider::Rule(0), "allow", "ls  ".to_string()),
            (Decider::Default, "ask", "ls x".to_string())
        ]
    );
    // Without splitting, `ls  ` is not `ls`.
    assert_eq!(
        outcomes(&["ls ?*"], &r, Syntax::Claude, claude(Action::Ask, false)),
        [(Decider::Default, "ask", "ls x".to_string())]
    );
}

#[test]
fn claude_path_single_star_stops_at_slash() {
    let order = claude(Action::Allow, false);
    let r = rules(&[("src/*.ts", "deny"), ("docs/**", "ask")]);
    let d = |input: &str| decide(input, &r, Syntax::ClaudePath, order);
    assert_eq!(d("src/a.ts"), (Action::Deny, Decider::Rule(0)));
    assert_eq!(d("src/a/b.ts"), (Action::Allow, Decider::Default));
    assert_eq!(d("docs/a/b/c.md"), (Action::Ask, Decider::Rule(1)));
    assert!(pattern_matches("a/b", "a/*", Syntax::ClaudePath));
    assert!(!pattern_matches("a/b/c", "a/*", Syntax::ClaudePath));
    assert!(pattern_matches("a/b/c", "a/***", Syntax::ClaudePath));
    assert!(pattern_matches("a/", "a/*", Syntax::ClaudePath));
    // The policy's own `*` crosses `/`: `src/a/b.ts` is its input the default decides, a
    // shortest one with a `/` after `src/`.
    assert_eq!(
        outcomes(&["src/*"], &r, Syntax::ClaudePath, order),
        vec![
            (Decider::Default, "allow", "src/".to_string()),
            (Decider::Rule(0), "deny", "src/.ts".to_string()),
        ]
    );
    // No pattern writes `/`, yet it is what gets past a single `*`.
    assert_eq!(
        outcomes(&["a*"], &rules(&[("a*", "deny")]), Syntax::ClaudePath, order),
        vec![
            (Decider::Default, "allow", "a/".to_string()),
            (Decider::Rule(0), "deny", "a".to_string()),
        ]
    );
    let o = solve(&["src/*/*.ts"], &r, Syntax::ClaudePath, order, BUDGET).unwrap();
    assert_eq!(o.len(), 1, "{o:?}");
    assert_eq!((o[0].decider, o[0].witness.as_str()), (Decider::Default, "src//.ts"));
}

#[test]
fn split_witnesses_avoid_quotes_and_expansions() {
    let r = rules(&[("echo \"$x\"", "allow")]);
    let o = solve(&["echo*"], &r, Syntax::Claude, claude(Action::Ask, true), BUDGET).unwrap();
    assert_eq!(
        o.iter().map(|o| (o.decider, o.action)).collect::<Vec<_>>(),
        [(Decider::Default, Action::Ask)]
    );
    // Without splitting, those characters are ordinary.
    let o = solve(&["echo*"], &r, Syntax::Claude, claude(Action::Ask, false), BUDGET).unwrap();
    assert_eq!(o[0].witness, "echo \"$x\"");
}

#[test]
fn no_policy_pattern_no_outcome() {
    assert!(!matches_some_input(&[]));
    assert!(matches_some_input(&[""]));
    assert_eq!(
        solve(&[], &rules(&[("*", "allow")]), Syntax::OpenCode, ASK, BUDGET),
        Ok(vec![])
    );
    // The empty pattern is the empty input.
    assert_eq!(
        outcomes(&[""], &rules(&[("?*", "allow")]), Syntax::OpenCode, ASK),
        [(Decider::Default, "ask", String::new())]
    );
}

#[test]
fn many_crossing_wildcards_run_out_of_budget() {
    let patterns: Vec<String> = (0..16)
        .map(|i| {
            let a = char::from(b'a' + (i % 8) as u8);
            let b = char::from(b'a' + ((i * 3 + 1) % 8) as u8);
            format!("*{a}*{b}*{a}{b}*")
        })
        .collect();
    let r: Vec<Rule> = patterns
        .iter()
        .enumerate()
        .map(|(i, p)| Rule {
            pattern: p,
            action: if i % 2 == 0 { Action::Allow } else { Action::Deny },
        })
        .collect();
    assert_eq!(solve(&["*"], &r, Syntax::OpenCode, ASK, 2_000), Err(TooComplex));
    assert_eq!(
        solve(&["*"], &r, Syntax::Claude, claude(Action::Ask, true), 2_000),
        Err(TooComplex)
    );
}

#[test]
fn positions_across_word_boundaries() {
    // A filler rule of every length moves the last rule's positions across the 64-bit words.
    for j in 0..140 {
        let filler = format!("*{}", "q".repeat(j));
        let r = vec![
            Rule {
                pattern: "*",
                action: Action::Ask,
            },
            Rule {
                pattern: &filler,
                action: Action::Deny,
            },
            Rule {
                pattern: "git push *",
                action: Action::Allow,
            },
        ];
        let mut expected = vec![(Decider::Rule(2), "allow", "git push".to_string())];
        if j == 0 {
            expected.push((Decider::Rule(1), "deny", "git pushx".to_string()));
        } else {
            // Ties go to the first character in order: `q` before the representative `x`.
            let ask = if j == 1 { "git pushx" } else { "git pushq" };
            expected.push((Decider::Rule(0), "ask", ask.to_string()));
            expected.push((Decider::Rule(1), "deny", format!("git push{}", "q".repeat(j))));
        }
        assert_eq!(
            outcomes(&["git push*"], &r, Syntax::OpenCode, ASK),
            expected,
            "filler {j}"
        );
        for order in [claude(Action::Ask, false), claude(Action::Ask, true)] {
            // Claude Code: the ask catch-all wins over the allow rule, the deny rule over both.
            let found = solve(&["git push*"], &r, Syntax::Claude, order, BUDGET).unwrap();
            let deciders: Vec<(Decider, Action)> = found.iter().map(|o| (o.decider, o.action)).collect();
            let mut expected = vec![(Decider::Rule(1), Action::Deny)];
            if j > 0 {
                expected.insert(0, (Decider::Rule(0), Action::Ask));
            }
            assert_eq!(deciders, expected, "filler {j}");
            for o in &found {
                assert_eq!(decide(&o.witness, &r, Syntax::Claude, order), (o.action, o.decider));
            }
        }
    }
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pattern(&mut self, alphabet: &[char], max: usize) -> String {
        let len = self.below(max + 1);
        let mut p: String = (0..len).map(|_| alphabet[self.below(alphabet.len())]).collect();
        // Trailing " *" and ":*" often enough to matter.
        match self.below(8) {
            0 => p.push_str(" *"),
            1 => p.push_str(":*"),
            _ => {}
        }
        p
    }
}

/// Every string over `alphabet` up to `max` characters.
fn all_inputs(alphabet: &[char], max: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..max {
        level = level
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        out.extend(level.iter().cloned());
    }
    out
}

/// One random case checked against brute force; returns the (ruleset, input) pairs compared.
fn check_case(rng: &mut Rng, case: usize, inputs: &[String], alphabet: &[char], max: usize) -> usize {
    let mode = case % 5;
    let default = [Action::Deny, Action::Ask, Action::Allow][rng.below(3)];
    let (syntax, order, rule_chars): (Syntax, Order, &[char]) = match mode {
        0 => (
            Syntax::OpenCode,
            Order::LastMatch { default },
            &['a', 'b', ' ', '/', '*', '?', '\\'],
        ),
        1 => (Syntax::Claude, claude(default, false), &['a', 'b', ' ', '*', '?', ':']),
        2 => (
            Syntax::Claude,
            claude(default, true),
            &['a', 'b', ' ', '*', '?', '&', '|'],
        ),
        3 => (Syntax::OpenCode, claude(default, true), &['a', ' ', '*', '?', '&', ';']),
        // Claude Code's path rules: `**` and a single `*` that stops at `/`.
        _ => (
            Syntax::ClaudePath,
            claude(default, false),
            &['a', 'b', '/', '*', '*', '?'],
        ),
    };
    let policy_chars: &[char] = if mode == 2 || mode == 3 {
        &['a', 'b', ' ', '*', '?', '&']
    } else {
        &['a', 'b', ' ', '/', '*', '?']
    };
    // Every fifth ruleset is long enough to lay its positions over several 64-bit words.
    let count = if case % 5 == 4 {
        12 + rng.below(12)
    } else {
        1 + rng.below(6)
    };
    let patterns: Vec<String> = (0..count).map(|_| rng.pattern(rule_chars, 4)).collect();
    let policy: Vec<String> = (0..1 + rng.below(2)).map(|_| rng.pattern(policy_chars, 4)).collect();
    let actions = [Action::Deny, Action::Ask, Action::Allow];
    let r: Vec<Rule> = patterns
        .iter()
        .map(|p| Rule {
            pattern: p,
            action: actions[rng.below(3)],
        })
        .collect();
    let policy: Vec<&str> = policy.iter().map(String::as_str).collect();
    let context = format!("rules {r:?} policy {policy:?} {syntax:?} {order:?}");
    let solved = solve(&policy, &r, syntax, order, BUDGET).unwrap_or_else(|_| panic!("too complex: {context}"));
    let in_policy = |s: &str| policy.iter().any(|p| wildcard_match(s, p));
    // (a) every witness is in the policy's language and decided as claimed.
    for o in &solved {
        assert!(
            in_policy(&o.witness),
            "witness {:?} outside the policy: {context}",
            o.witness
        );
        assert_eq!(
            decide(&o.witness, &r, syntax, order),
            (o.action, o.decider),
            "witness {:?}: {context}",
            o.witness
        );
        if order.splits() {
            assert!(!o.witness.contains(is_shell_special), "{context}");
        }
    }
    // Brute force: the shortest input of each decider.
    let mut brute: BTreeMap<Decider, (Action, usize)> = BTreeMap::new();
    let mut pairs = 0;
    for input in inputs {
        if !in_policy(input) {
            continue;
        }
        pairs += 1;
        let (action, decider) = decide(input, &r, syntax, order);
        if let Order::LastMatch { default } = order {
            let by_engine = last_match(&r, "bash", input, |r| ("bash", r.pattern));
            let expected = by_engine.map_or((default, Decider::Default), |m| {
                let i = r.iter().position(|x| std::ptr::eq(x, m)).expect("a rule");
                (m.action, Decider::Rule(i))
            });
            assert_eq!((action, decider), expected, "input {input:?}: {context}");
        }
        let len = input.chars().count();
        let e = brute.entry(decider).or_insert((action, len));
        e.1 = e.1.min(len);
    }
    // (b) every decider brute force finds is the solver's, with a witness no longer.
    for (decider, (action, len)) in &brute {
        let o = solved
            .iter()
            .find(|o| o.decider == *decider)
            .unwrap_or_else(|| panic!("solver misses {decider:?} ({len} chars): {solved:?} {context}"));
        assert_eq!(o.action, *action, "{context}");
        assert!(
            o.witness.chars().count() <= *len,
            "not shortest: {o:?} vs {len}: {context}"
        );
    }
    // (c) a short witness over the brute-force alphabet is one brute force found, as short.
    for o in &solved {
        let n = o.witness.chars().count();
        if n <= max && o.witness.chars().all(|c| alphabet.contains(&c)) {
            assert_eq!(brute.get(&o.decider).map(|b| b.1), Some(n), "{o:?}: {context}");
        }
    }
    pairs
}

#[test]
fn agrees_with_brute_force_on_every_short_input() {
    let plain = ['a', 'b', ' ', '/', 'x', '\\'];
    let split = ['a', 'b', ' ', '&', '|', 'x', '?', ';'];
    let (plain_inputs, split_inputs) = (all_inputs(&plain, 5), all_inputs(&split, 4));
    let mut rng = Rng(0x5eed);
    let mut pairs = 0;
    let cases = 800;
    for case in 0..cases {
        pairs += if !matches!(case % 5, 2 | 3) {
            check_case(&mut rng, case, &plain_inputs, &plain, 5)
        } else {
            check_case(&mut rng, case, &split_inputs, &split, 4)
        };
    }
    assert!(pairs >= 100_000, "only {pairs} pairs");
    eprintln!("{cases} rulesets, {pairs} (ruleset, input) pairs of the policies' languages");
}

#[test]
fn garbage_patterns_do_not_panic() {
    let pool = [
        'a', '*', '?', ' ', '\\', ':', 'é', '日', '🙂', '&', '|', '\n', '\t', '"', '$', '\u{0}', '\u{3000}',
    ];
    let mut rng = Rng(7);
    for case in 0..400 {
        let patterns: Vec<String> = (0..rng.below(8)).map(|_| rng.pattern(&pool, 12)).collect();
        let mut policy: Vec<String> = (0..1 + rng.below(3)).map(|_| rng.pattern(&pool, 8)).collect();
        if case % 10 == 0 {
            policy.push("****".into());
            policy.push(String::new());
        }
        let actions = [Action::Deny, Action::Ask, Action::Allow];
        let r: Vec<Rule> = patterns
            .iter()
            .map(|p| Rule {
                pattern: p,
                action: actions[rng.below(3)],
            })
            .collect();
        let policy: Vec<&str> = policy.iter().map(String::as_str).collect();
        for (syntax, order) in [
            (Syntax::OpenCode, ASK),
            (Syntax::Claude, claude(Action::Deny, false)),
            (Syntax::Claude, claude(Action::Allow, true)),
        ] {
            if let Ok(found) = solve(&policy, &r, syntax, order, 5_000) {
                for o in found {
                    assert!(policy.iter().any(|p| wildcard_match(&o.witness, p)), "{o:?}");
                    assert_eq!(
                        decide(&o.witness, &r, syntax, order),
                        (o.action, o.decider),
                        "{o:?} {r:?} {policy:?}"
                    );
                }
            }
        }
    }
}
