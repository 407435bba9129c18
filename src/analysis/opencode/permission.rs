//! Permission blocks (`permission:` in an agent, or at the top of a config) and opencode's rule
//! matching. Rules: `invalid-type`, `invalid-value`, `unknown-permission`, `shadowed-rule`,
//! `broad-pattern`.
//!
//! How opencode evaluates (§6): the block is compiled to rules `(permission, pattern, action)` in
//! key order (a string value is the pattern `*`); the *last* rule whose permission and pattern
//! both match wins; no match is `ask`. Permissions and patterns are wildcards: `*` matches any
//! text (across `/`), `?` one character, case-sensitive; a pattern ending in ` *` also matches
//! with nothing after it (`git diff *` matches `git diff`).

use super::ctx::{Ctx, type_error};
use super::schema::{self, ACTIONS, DEAD_PERMISSION_KEYS, PermissionValue};
use crate::analysis::diagnostic::{Diagnostic, Edit, Location};
use crate::analysis::edit::Doc;
use crate::analysis::edit::requote;
use crate::analysis::permission::{covers, pattern_covers};
use crate::analysis::rules::Code;
use crate::analysis::suggest::closest;
use crate::analysis::syntax::{Entry, Map, Node, Value};
use crate::analysis::text::Span;

pub fn check(node: &Node, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    match &node.value {
        Value::Str(action) => {
            check_action(node, ("permission", None), ctx, out);
            if action == "allow" {
                out.push(Diagnostic::new(
                    Code::BroadGrant,
                    node.span,
                    "`permission: allow` lets the agent use every tool without asking, reading and writing files outside the project included (`external_directory`), for everyone who uses this file: allow the tools it needs one by one",
                ));
            }
        }
        Value::Map(map) => {
            for (i, entry) in map.entries.iter().enumerate() {
                check_entry(entry, ctx, out);
                check_key(node, i, ctx, out);
            }
            // One compiled list for both checks of the block's rules.
            let rules = compile(map);
            check_shadowing(node, &rules, ctx, out);
            check_outside_allowed(&rules, out);
        }
        Value::Unknown => {}
        _ => out.push(type_error(
            "permission",
            "an action (allow, ask, deny) or an object of permission rules",
            node,
            ctx,
        )),
    }
}

/// `what` names the rule in messages (`bash`, or `bash.git *` with its pattern); it is only
/// formatted when there is something to report.
fn check_action(v: &Node, what: (&str, Option<&str>), ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let what = || match what {
        (key, Some(pattern)) => format!("{key}.{pattern}"),
        (key, None) => key.to_string(),
    };
    match v.as_str() {
        Some(a) if ACTIONS.contains(&a) => {}
        Some(a) => {
            let what = what();
            let suggestion = closest(a, ACTIONS.iter().copied()).or(match a.to_ascii_lowercase().as_str() {
                "yes" | "true" | "allowed" | "always" => Some("allow"),
                "no" | "false" | "denied" | "never" | "block" => Some("deny"),
                "prompt" | "confirm" => Some("ask"),
                _ => None,
            });
            let mut d = Diagnostic::new(
                Code::InvalidValue,
                v.span,
                format!(
                    "`{what}` must be \"allow\", \"ask\" or \"deny\", got {}; {}.{}",
                    v.display(),
                    ctx.consequence(),
                    crate::analysis::suggest::did_you_mean(suggestion)
                ),
            );
            if let Some(s) = suggestion {
                d = d.with_suggestion(v.span, requote(v, s));
            }
            out.push(d);
        }
        None if v.is_unknown() => {}
        None => out.push(type_error(&what(), "\"allow\", \"ask\" or \"deny\"", v, ctx)),
    }
}

fn check_entry(entry: &Entry, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let key = entry.key.name.as_str();
    let known = schema::permission_key(key);
    let v = &entry.value;
    match &v.value {
        Value::Str(_) => check_action(v, (key, None), ctx, out),
        Value::Map(patterns) => {
            if known.is_some_and(|k| k.value == PermissionValue::ActionOnly) {
                out.push(Diagnostic::new(
                    Code::InvalidType,
                    v.span,
                    format!(
                        "`{key}` takes an action only (allow, ask or deny), not an object of patterns; {}",
                        ctx.consequence()
                    ),
                ));
                return;
            }
            for rule in patterns.entries.iter() {
                check_action(&rule.value, (key, Some(&rule.key.name)), ctx, out);
                if key == "bash" && rule.value.as_str() == Some("allow") {
                    check_broad_pattern(rule, out);
                }
            }
        }
        Value::Unknown => {}
        _ => out.push(type_error(
            key,
            "an action (allow, ask, deny) or an object of pattern rules",
            v,
            ctx,
        )),
    }
}

/// `unknown-permission`: dead keys, command patterns at the top of the block, near-misses of
/// known keys. MCP and custom tool names are silent.
fn check_key(block: &Node, index: usize, ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let Some(map) = block.as_map() else { return };
    let entry = &map.entries[index];
    let doc = Doc {
        text: ctx.text,
        yaml: ctx.is_yaml(),
    };
    let key = entry.key.name.as_str();
    let span = entry.key.span;
    if schema::permission_key(key).is_some() {
        return;
    }
    if let Some((_, why)) = DEAD_PERMISSION_KEYS.iter().find(|(k, _)| *k == key) {
        let mut d = Diagnostic::new(
            Code::UnknownPermission,
            span,
            format!("no tool consults the `{key}` permission: {why}, so this rule has no effect"),
        );
        if matches!(key, "write" | "patch" | "apply_patch" | "multiedit") {
            d.message.push_str(". Use `edit`");
            if !map.contains("edit") {
                let edit = Edit {
                    span,
                    text: doc.key("edit"),
                };
                d = d.with_fix("Rename to `edit`", vec![edit], false);
            }
        }
        out.push(d);
        return;
    }
    if key.chars().any(char::is_whitespace) {
        let mut d = Diagnostic::new(
            Code::UnknownPermission,
            span,
            format!(
                "\"{key}\" looks like a command pattern, but directly under `permission` it is taken as a tool name and matches nothing. Put it under `bash`"
            ),
        );
        if let Some(edits) = move_into_bash(&doc, block, index) {
            d = d.with_fix("Move it under `bash`", edits, false);
        }
        out.push(d);
        return;
    }
    if key.contains('*') || key.contains('?') {
        return;
    }
    let known = schema::PERMISSION_KEYS.iter().map(|k| k.name);
    if let Some(s) = closest(key, known) {
        let mut d = Diagnostic::new(
            Code::UnknownPermission,
            span,
            format!(
                "`{key}` is not a built-in permission; unless a custom or MCP tool has exactly this name, the rule has no effect. Did you mean `{s}`?"
            ),
        );
        let quoted = span.len() != key.len();
        if !map.contains(s) {
            d = d.with_suggestion(span, if quoted { format!("\"{s}\"") } else { s.to_string() });
        }
        out.push(d);
    }
}

/// Move a command pattern written at the top of a permission block into its `bash` map (at the
/// end, where it decides over the broader rules before it); creates `bash` when there is none.
fn move_into_bash(doc: &Doc, block: &Node, index: usize) -> Option<Vec<Edit>> {
    let map = block.as_map()?;
    let entry = map.entries.get(index)?;
    let action = entry.value.as_str()?;
    let rule = (doc.key(&entry.key.name), doc.scalar(action));
    match map.get("bash") {
        Some(bash) => {
            let add = doc.insert_last(bash.value.as_map().map(|_| &bash.value)?, &[rule])?;
            Some(vec![doc.delete_entry(block, index)?, add])
        }
        None => {
            // Replace the entry with a `bash` entry holding the rule.
            let whole = entry.key.span.cover(entry.value.span);
            let text = if doc.yaml && !block.span.text(doc.text).starts_with('{') {
                let start = doc.text[..entry.key.span.start as usize]
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                let indent = &doc.text[start..entry.key.span.start as usize];
                format!("bash:{}{indent}  {}: {}", doc.newline(), rule.0, rule.1)
            } else {
                format!("{}: {{{}: {}}}", doc.key("bash"), rule.0, rule.1)
            };
            Some(vec![Edit { span: whole, text }])
        }
    }
}

/// `broad-pattern`: `"git diff*": allow` also allows `git diff-tree`. Only allow rules are
/// flagged: a broad deny or ask errs on the safe side.
fn check_broad_pattern(rule: &Entry, out: &mut Vec<Diagnostic>) {
    let p = rule.key.name.as_str();
    let Some(stem) = p.strip_suffix('*') else {
        return;
    };
    if !stem.contains(' ') || stem.ends_with(' ') || stem.contains('*') {
        return;
    }
    if !stem.ends_with(|c: char| c.is_alphanumeric()) {
        return;
    }
    out.push(Diagnostic::new(
        Code::BroadPattern,
        rule.key.span,
        format!(
            "\"{p}\" also allows commands that merely start with `{stem}` (e.g. `{stem}x`); \"{stem} *\" allows `{stem}` with or without arguments, and nothing else"
        ),
    ));
}

/// `broad-grant`: the block's last rule for `external_directory` that takes in every path (the
/// pattern `*`, or a string value) allows it, so no later rule of the block asks again for any
/// folder of the machine. (opencode's own default asks.)
fn check_outside_allowed(rules: &[Rule], out: &mut Vec<Diagnostic>) {
    let every_path = |p: &str| matches!(p, "*" | "**" | "/*" | "/**");
    let Some(last) = rules
        .iter()
        .rev()
        .find(|r| covers(r.permission, "external_directory") && every_path(r.pattern))
    else {
        return;
    };
    if last.action != "allow" {
        return;
    }
    let message = if last.permission == "external_directory" {
        "this allows `external_directory` for every path: the agent reads and writes files anywhere on the machine (keys, other projects) without asking, for everyone who uses this file; allow the folders it needs, as in `\"~/notes/*\": \"allow\"`".to_string()
    } else {
        format!(
            "`{}` also allows `external_directory` for every path: the agent reads and writes files anywhere on the machine (keys, other projects) without asking, for everyone who uses this file; add `\"external_directory\": \"ask\"` after it, or allow only the folders it needs",
            last.permission
        )
    };
    out.push(Diagnostic::new(Code::BroadGrant, last.span, message));
}

/// One compiled rule, with where it was written.
#[derive(Clone, Debug)]
pub struct Rule<'a> {
    pub permission: &'a str,
    pub pattern: &'a str,
    pub action: &'a str,
    /// The key that wrote it: the pattern key, or the permission key for a string value.
    pub span: Span,
}

/// Compile a permission map into rules in evaluation order, as opencode does: JavaScript object
/// key order (integer-like keys first, a repeated key keeps its first position and last value).
pub fn compile(map: &Map) -> Vec<Rule<'_>> {
    let mut rules = Vec::new();
    for perm in js_order(map) {
        match &perm.value.value {
            Value::Str(action) => rules.push(Rule {
                permission: &perm.key.name,
                pattern: "*",
                action,
                span: perm.key.span,
            }),
            Value::Map(patterns) => {
                for rule in js_order(patterns) {
                    if let Value::Str(action) = &rule.value.value {
                        rules.push(Rule {
                            permission: &perm.key.name,
                            pattern: &rule.key.name,
                            action,
                            span: rule.key.span,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    rules
}

/// Entries in JavaScript own-property order.
fn js_order(map: &Map) -> Vec<&Entry> {
    let is_index = |k: &str| {
        k == "0" || (!k.is_empty() && !k.starts_with('0') && k.len() <= 9 && k.bytes().all(|b| b.is_ascii_digit()))
    };
    // The usual case, a small map without repeated or integer-like keys: file order.
    let entries = &map.entries;
    if entries.len() <= 16
        && !entries.iter().any(|e| is_index(&e.key.name))
        && !entries
            .iter()
            .enumerate()
            .any(|(i, e)| entries[..i].iter().any(|f| f.key.name == e.key.name))
    {
        return entries.iter().collect();
    }
    let mut firsts: Vec<(&str, usize)> = Vec::new();
    let mut slot_of: crate::analysis::hash::FxHashMap<&str, usize> = crate::analysis::hash::FxHashMap::default();
    for (i, e) in map.entries.iter().enumerate() {
        match slot_of.get(e.key.name.as_str()) {
            // A repeated key keeps its first position and takes the last value.
            Some(&slot) => firsts[slot].1 = i,
            None => {
                slot_of.insert(&e.key.name, firsts.len());
                firsts.push((&e.key.name, i));
            }
        }
    }
    let mut ordered: Vec<(&str, usize)> = firsts.iter().copied().filter(|(k, _)| is_index(k)).collect();
    ordered.sort_by_key(|(k, _)| k.parse::<u64>().unwrap_or(0));
    ordered.extend(firsts.iter().copied().filter(|(k, _)| !is_index(k)));
    ordered.into_iter().map(|(_, i)| &map.entries[i]).collect()
}

fn check_shadowing(block: &Node, rules: &[Rule], ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let doc = Doc {
        text: ctx.text,
        yaml: ctx.is_yaml(),
    };
    // The scan is quadratic (each pair is cheap: literal prefixes and runs reject almost all):
    // a block of more than 500 rules is generated, not written, and is not checked; and the
    // total work (pattern length products, a bound on the inclusion tables) is budgeted.
    if rules.len() > 500 {
        return;
    }
    const WORK_BUDGET: usize = 1 << 24;
    let mut work = 0usize;
    // (the shadowing rule, the rules it makes dead), by the shadowing rule.
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        if work > WORK_BUDGET {
            // Pathological blocks (long patterns that pass the cheap filters): stop claiming.
            break;
        }
        let shadow = rules[i + 1..].iter().rev().find(|later| {
            work += later.permission.len() * rule.permission.len() + later.pattern.len() * rule.pattern.len();
            covers(later.permission, rule.permission) && pattern_covers(later.pattern, rule.pattern)
        });
        let Some(later) = shadow else { continue };
        // A later rule with the same action changes nothing; only a different action is a trap.
        if later.action == rule.action {
            continue;
        }
        let at = rules.iter().position(|r| std::ptr::eq(r, later)).unwrap_or(i);
        match groups.iter_mut().find(|(l, _)| *l == at) {
            Some((_, dead)) => dead.push(i),
            None => groups.push((at, vec![i])),
        }
    }
    // One finding per cause: a rule that shadows one rule is reported on that rule; a rule
    // that shadows several, on itself, with the dead rules as related locations.
    groups.sort_by_key(|(at, dead)| (dead[0], *at));
    for (at, dead) in groups {
        let later = &rules[at];
        let what = if dead.iter().all(|&i| rules[i].permission == later.permission) {
            format!("\"{}\": {}", later.pattern, later.action)
        } else if later.pattern == "*" {
            format!("\"{}\": {}", later.permission, later.action)
        } else {
            format!("{} \"{}\": {}", later.permission, later.pattern, later.action)
        };
        let fix = catch_all_to_front(&doc, block, later);
        let mut d = match dead.as_slice() {
            [one] => Diagnostic::new(
                Code::ShadowedRule,
                rules[*one].span,
                format!(
                    "this rule never applies: the later rule {what} matches everything it matches, and opencode uses the last matching rule. Put the broader rule first"
                ),
            )
            .with_related(Location::Here(later.span), "the later rule that decides instead"),
            many => {
                let it = if later.pattern == "*" { "this catch-all" } else { "this rule" };
                let mut d = Diagnostic::new(
                    Code::ShadowedRule,
                    later.span,
                    format!(
                        "{it} makes {} rules above it dead: opencode uses the last matching rule, and it matches every input they match. Put it first so that they decide",
                        many.len()
                    ),
                );
                // The live rule itself is not faded; the dead ones are its related locations.
                d.tags = &[];
                for &i in many {
                    let r = &rules[i];
                    d = d.with_lost(
                        r.span,
                        format!("never applies: `{}` \"{}\": {}", r.permission, r.pattern, r.action),
                    );
                }
                d
            }
        };
        if let Some(edits) = fix {
            d = d.with_fix(format!("Move the catch-all {what} to the front"), edits, false);
        }
        out.push(d);
    }
}

/// When the shadowing rule is a catch-all (`"*"`), the edits that move it to the front of its
/// mapping, so that every rule after it can decide again.
fn catch_all_to_front(doc: &Doc, block: &Node, later: &Rule) -> Option<Vec<Edit>> {
    let map = block.as_map()?;
    if later.pattern != "*" {
        return None;
    }
    // A top-level `"*": action` entry, or a `"*"` pattern inside one permission's map.
    if later.permission == "*"
        && let Some(i) = map
            .entries
            .iter()
            .rposition(|e| e.key.name == "*" && e.key.span == later.span)
    {
        return doc.move_to_front(block, i);
    }
    let perm = map.entries.iter().rev().find(|e| e.key.name == later.permission)?;
    let inner = perm.value.as_map()?;
    let i = inner
        .entries
        .iter()
        .rposition(|e| e.key.name == "*" && e.key.span == later.span)?;
    doc.move_to_front(&perm.value, i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::opencode::DeclOrigin;
    use crate::analysis::permission::wildcard_match;
    use crate::analysis::syntax::{jsonc, yaml};

    fn yaml_diags(text: &str) -> Vec<Diagnostic> {
        let parsed = yaml::parse(text, 0);
        let mut out = Vec::new();
        let ctx = Ctx {
            origin: DeclOrigin::Markdown,
            text,
            lost: false,
            tui: false,
        };
        let root = parsed.root.unwrap();
        check(root.as_map().unwrap().value("permission").unwrap(), &ctx, &mut out);
        out
    }

    fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
        d.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn spec_evaluation_vectors() {
        // §6.4, verified against opencode 1.18.34.
        let text = r#"{"*":"ask","git diff *":"allow","git log*":"allow","rm *":"deny"}"#;
        let root = jsonc::parse(text).root.unwrap();
        let mut bash = Map::default();
        bash.entries_mut().push(Entry {
            key: crate::analysis::syntax::Key {
                name: "bash".into(),
                span: Span::default(),
            },
            value: root,
        });
        let rules = compile(&bash);
        let decide = |input: &str| {
            rules
                .iter()
                .rev()
                .find(|r| wildcard_match("bash", r.permission) && wildcard_match(input, r.pattern))
                .map(|r| r.action)
                .unwrap_or("ask")
        };
        assert_eq!(decide("git diff"), "allow");
        assert_eq!(decide("git diff --stat"), "allow");
        assert_eq!(decide("git diffx"), "ask");
        assert_eq!(decide("git logger"), "allow");
        assert_eq!(decide("rm"), "deny");
        assert_eq!(decide("GIT diff"), "ask");
        assert!(wildcard_match("mymcp_search", "mymcp_*"));
        assert!(wildcard_match("src/a/.env", "*.env"));
        assert!(!wildcard_match("a/b/.env.example", "*.env"));
        assert!(wildcard_match("a\\b", "a/?"));
    }

    /// `broad-grant`: `permission: allow`, or a block whose last rule for `external_directory`
    /// over every path allows it, on that rule; nothing where a later catch-all asks again.
    #[test]
    fn allowing_every_folder_of_the_machine() {
        let broad = |text: &str| -> Vec<String> {
            yaml_diags(text)
                .iter()
                .filter(|d| d.code == Code::BroadGrant)
                .map(|d| d.span.text(text).to_string())
                .collect()
        };
        assert_eq!(broad("permission: allow\n"), ["allow"]);
        assert_eq!(
            broad("permission:\n  external_directory: allow\n"),
            ["external_directory"]
        );
        assert_eq!(broad("permission:\n  \"*\": allow\n  bash: ask\n"), ["\"*\""]);
        assert_eq!(
            broad("permission:\n  external_directory:\n    \"*\": allow\n    \"/etc/*\": deny\n"),
            ["\"*\""]
        );
        assert_eq!(broad("permission:\n  \"external_*\":\n    \"/*\": allow\n"), ["\"/*\""]);
        assert_eq!(
            broad("permission:\n  external_directory:\n    \"**\": allow\n    \"/**\": allow\n"),
            ["\"/**\""]
        );
        assert_eq!(
            broad("permission:\n  external_directory:\n    \"/**\": ask\n    \"~/*\": allow\n"),
            Vec::<String>::new()
        );
        for safe in [
            "permission: ask\n",
            "permission:\n  \"*\": allow\n  external_directory: ask\n",
            "permission:\n  external_directory: allow\n  \"*\": deny\n",
            "permission:\n  external_directory:\n    \"*\": ask\n    \"~/notes/*\": allow\n",
            "permission:\n  bash: allow\n  edit: allow\n",
        ] {
            assert_eq!(broad(safe), Vec::<String>::new(), "{safe}");
        }
        let d = yaml_diags("permission:\n  \"*\": allow\n");
        assert!(
            d[0].message.starts_with(
                "`*` also allows `external_directory` for every path: the agent reads and writes files anywhere"
            ),
            "{}",
            d[0].message
        );
        let d = yaml_diags("permission: allow\n");
        assert!(
            d[0].message
                .starts_with("`permission: allow` lets the agent use every tool without asking")
        );
    }

    #[test]
    fn catch_all_last_shadows_earlier_rules() {
        // One rule shadowed: the finding is on it.
        let text = "permission:\n  bash:\n    \"git push *\": deny\n    \"*\": ask\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["shadowed-rule"]);
        assert_eq!(d[0].span.text(text), "\"git push *\"");
        assert!(d[0].message.contains("\"*\": ask"));
        assert_eq!(d[0].tags, [crate::analysis::diagnostic::Tag::Unnecessary]);
        // The close case: catch-all first.
        assert!(yaml_diags("permission:\n  bash:\n    \"*\": ask\n    \"git push *\": deny\n").is_empty());
        // Same action: harmless.
        assert!(yaml_diags("permission:\n  bash:\n    \"ls\": ask\n    \"*\": ask\n").is_empty());
    }

    #[test]
    fn the_shadowing_scan_stops_claiming_past_its_work_budget() {
        // Eighteen rules of `n` characters, then two where the last makes the one before it dead.
        let block = |n: usize| {
            let mut text = "permission:\n  bash:\n".to_string();
            for j in 0..18 {
                text += &format!("    \"{}{j:02}\": deny\n", "q".repeat(n));
            }
            text + "    \"git push\": deny\n    \"git *\": ask\n"
        };
        assert_eq!(codes(&yaml_diags(&block(50))), ["shadowed-rule"]);
        // With 1,000 characters (a YAML key has at most 1,024), comparing the first rule with
        // the 17 long ones after it costs 17 × 1,002 × 1,002 steps, past the budget of 2^24: the
        // scan stops there and never reaches the last two.
        assert_eq!(codes(&yaml_diags(&block(1000))), Vec::<&str>::new());
    }

    #[test]
    fn one_catch_all_shadowing_many_rules_is_one_finding_on_it() {
        let text = "permission:\n  bash:\n    \"git push *\": deny\n    \"ls\": ask\n    \"git status\": allow\n    \"rm *\": deny\n    \"*\": ask\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["shadowed-rule"]);
        let d = &d[0];
        assert_eq!(d.span.text(text), "\"*\"");
        assert_eq!(
            d.message,
            "this catch-all makes 3 rules above it dead: opencode uses the last matching rule, and it matches every input they match. Put it first so that they decide"
        );
        // The catch-all itself is live: not faded.
        assert!(d.tags.is_empty());
        let related: Vec<(&str, &str)> = d
            .related
            .iter()
            .map(|r| match r.location {
                Location::Here(span) => (span.text(text), r.message.as_str()),
                _ => panic!("{r:?}"),
            })
            .collect();
        // `"ls": ask` has the catch-all's action: it is not dead, only redundant.
        assert_eq!(
            related,
            [
                ("\"git push *\"", "never applies: `bash` \"git push *\": deny"),
                ("\"git status\"", "never applies: `bash` \"git status\": allow"),
                ("\"rm *\"", "never applies: `bash` \"rm *\": deny"),
            ]
        );
        let fix = d.fix.as_ref().expect("the move fix");
        assert_eq!(fix.title, "Move the catch-all \"*\": ask to the front");
        assert!(!fix.safe, "moving the catch-all changes what opencode does");
        let fixed = crate::analysis::diagnostic::apply(text, &fix.edits);
        assert_eq!(
            fixed,
            "permission:\n  bash:\n    \"*\": ask\n    \"git push *\": deny\n    \"ls\": ask\n    \"git status\": allow\n    \"rm *\": deny\n"
        );
        assert!(yaml_diags(&fixed).is_empty());
    }

    #[test]
    fn two_causes_are_two_findings() {
        // `"git *"` shadows two rules, `"npm *"` one: each cause is reported once.
        let text = "permission:\n  bash:\n    \"git push\": deny\n    \"git tag\": deny\n    \"git *\": allow\n    \"npm publish\": deny\n    \"npm *\": allow\n";
        let d = yaml_diags(text);
        let shown: Vec<(&str, usize)> = d.iter().map(|d| (d.span.text(text), d.related.len())).collect();
        assert_eq!(shown, [("\"git *\"", 2), ("\"npm publish\"", 1)]);
        assert!(d[0].message.starts_with("this rule makes 2 rules above it dead"));
        assert!(
            d[1].message
                .starts_with("this rule never applies: the later rule \"npm *\": allow")
        );
        // Only a catch-all has the move fix.
        assert!(d.iter().all(|d| d.fix.is_none()));
    }

    #[test]
    fn top_level_catch_all_shadows_other_keys() {
        let text = "permission:\n  edit: deny\n  \"*\": allow\n";
        let d = yaml_diags(text);
        // (The catch-all allows `external_directory` too: a broad grant.)
        assert_eq!(codes(&d), ["shadowed-rule", "broad-grant"]);
        assert_eq!(d[0].span.text(text), "edit");
        assert_eq!(
            codes(&yaml_diags("permission:\n  \"*\": allow\n  edit: deny\n")),
            ["broad-grant"]
        );
        assert!(yaml_diags("permission:\n  \"*\": ask\n  edit: deny\n").is_empty());
    }

    #[test]
    fn integer_like_keys_are_hoisted() {
        // {"*": "deny", "10": "allow"}: JavaScript puts "10" first, so "*" shadows it.
        let text = "permission:\n  bash:\n    \"*\": deny\n    \"10\": allow\n";
        assert_eq!(codes(&yaml_diags(text)), ["shadowed-rule"]);
    }

    #[test]
    fn actions() {
        let text = "permission:\n  bash: maybe\n  edit:\n    \"*\": allowed\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["invalid-value", "invalid-value"]);
        assert_eq!(d[0].span.text(text), "maybe");
        assert_eq!(d[1].suggestion().unwrap().text, "allow");
        assert!(yaml_diags("permission:\n  bash: allow\n  edit: ask\n").is_empty());
        let d = yaml_diags("permission:\n  bash: true\n");
        assert_eq!(codes(&d), ["invalid-type"]);
    }

    #[test]
    fn action_only_keys_reject_objects() {
        let text = "permission:\n  webfetch:\n    \"*\": deny\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["invalid-type"]);
        assert!(yaml_diags("permission:\n  webfetch: deny\n  task:\n    \"*\": deny\n").is_empty());
    }

    #[test]
    fn unknown_permissions() {
        let text = "permission:\n  write: deny\n  \"rm -rf *\": deny\n  todoread: allow\n  Bash: ask\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["unknown-permission"; 4]);
        assert_eq!(d[0].span.text(text), "write");
        assert!(d[1].message.contains("under `bash`"));
        assert_eq!(d[3].suggestion().unwrap().text, "bash");
        // MCP and custom tools are silent.
        let ok = "permission:\n  github_*: allow\n  mymcp_search: ask\n  onlinesearch: deny\n  binder_*: allow\n  skill: allow\n";
        assert!(yaml_diags(ok).is_empty(), "{:#?}", yaml_diags(ok));
    }

    #[test]
    fn broad_patterns() {
        let text = "permission:\n  bash:\n    \"git log*\": allow\n    \"git log *\": allow\n    \"ls*\": allow\n    \"git push*\": deny\n";
        let d = yaml_diags(text);
        assert_eq!(codes(&d), ["broad-pattern"]);
        assert_eq!(d[0].span.text(text), "\"git log*\"");
    }
}
