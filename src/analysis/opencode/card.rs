//! Text views of the effective agent: the Markdown card shown on hover and by
//! `agent-lsp explain AGENT`, the agent list, field documentation and pattern explanations.
//! Locations are rendered by the caller (`where_is`), so this stays free of paths and I/O.

use std::fmt::Write as _;

use super::effective::{EffectiveAgent, Layer, Prompt, Rule};
use super::project::{Source, Sourced};
use super::schema::{self, FieldType};
pub use crate::analysis::card::PathNames;
use crate::analysis::permission::{covers, pattern_covers, wildcard_match};
pub use crate::analysis::provenance::WhereIs;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn sourced<T>(v: &Option<Sourced<T>>, show: impl Fn(&T) -> String, where_is: WhereIs) -> (String, String) {
    match v {
        Some(s) => (show(&s.value), where_is(s.source)),
        None => ("—".into(), "not set".into()),
    }
}

pub fn prompt_text(p: &Prompt) -> String {
    match p {
        Prompt::ProviderDefault => "the provider's default system prompt".into(),
        Prompt::BuiltIn(f) => format!("opencode's built-in `{f}`"),
        Prompt::Body { empty: false } => "the Markdown body".into(),
        Prompt::Body { empty: true } => "none (the Markdown body is empty): the provider's default".into(),
        Prompt::WholeFile => "the whole file, frontmatter included (its YAML does not parse)".into(),
        Prompt::File(f) => format!("the file `{f}`"),
        Prompt::Inline(first) => format!("inline text (\"{first}…\")"),
    }
}

/// A JSON value on one line, shortened for a table cell.
fn short_json(v: &serde_json::Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        s.chars().take(77).collect::<String>() + "…"
    } else {
        s
    }
}

/// How much of the permissions a card lists: the hover card collapses opencode's defaults into
/// one line, `explain` lists every permission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Hover,
    Full,
}

/// The agent card in Markdown, decision first: what the agent may do (one line per
/// permission, what its own files set first; see [`permission_summary`]), then the settings
/// that are set (with where), then every permission rule in evaluation order.
pub fn card(a: &EffectiveAgent, where_is: WhereIs, changed: &[String], paths: &PathNames, detail: Detail) -> String {
    let mut out = String::new();
    let title = crate::analysis::card::mode_title("opencode", &a.mode.value, a.native);
    let _ = writeln!(out, "### `{}`: {title}", a.name);
    if let Some(d) = &a.description {
        let _ = writeln!(out, "\n{}", d.value.trim());
    }
    let _ = writeln!(
        out,
        "\n**Permissions**: what it may do (the last matching rule decides; with no rule, ask)\n"
    );
    for line in permission_summary(a, where_is, paths, detail) {
        let _ = writeln!(out, "- {line}");
    }
    if !changed.is_empty() {
        let _ = writeln!(out, "\n**This file changes:** {}", changed.join("; "));
    }
    // Only what is set somewhere (a built-in value is shown by its name in the title).
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut row = |name: &str, (value, from): (String, String)| rows.push((name.to_string(), value, from));
    if let Some(d) = &a.display_name {
        row("shown as", (d.value.clone(), where_is(d.source)));
    }
    if a.mode.source != Source::BuiltIn {
        row("mode", (a.mode.value.clone(), where_is(a.mode.source)));
    }
    if a.hidden.source != Source::BuiltIn || a.hidden.value {
        row("hidden", (a.hidden.value.to_string(), where_is(a.hidden.source)));
    }
    let mut set = |name: &str, v: (String, String)| {
        if v.1 != "not set" {
            row(name, v);
        }
    };
    set("model", sourced(&a.model, |m| format!("`{m}`"), where_is));
    set("variant", sourced(&a.variant, |m| m.clone(), where_is));
    set("temperature", sourced(&a.temperature, |t| t.to_string(), where_is));
    set("top_p", sourced(&a.top_p, |t| t.to_string(), where_is));
    set("steps", sourced(&a.steps, |t| t.to_string(), where_is));
    set("color", sourced(&a.color, |c| format!("`{c}`"), where_is));
    row("prompt", (prompt_text(&a.prompt.value), where_is(a.prompt.source)));
    for (k, v) in &a.options {
        row(
            &format!("options.{k}"),
            (format!("`{}`", short_json(&v.value)), where_is(v.source)),
        );
    }
    let _ = writeln!(out, "\n**Settings**\n\n| setting | value | from |\n|---|---|---|");
    for (name, value, from) in rows {
        let _ = writeln!(out, "| {name} | {} | {} |", cell(&value), cell(&from));
    }
    let _ = writeln!(
        out,
        "\n**Every permission rule, in evaluation order** (a later rule wins over an earlier one)\n"
    );
    for (i, r) in a.permission.iter().enumerate() {
        let perm = if r.permission == "*" {
            "every permission".to_string()
        } else {
            format!("`{}`", r.permission)
        };
        let input = if r.pattern == "*" {
            "any input".to_string()
        } else {
            let shown = format!("`{}`", cell(&paths.show(&r.pattern)));
            match paths.skill(&r.pattern) {
                Some(skill) => format!("{shown} (the `{skill}` skill's folder)"),
                None => shown,
            }
        };
        let _ = writeln!(out, "{}. {perm}, {input}: {} ({})", i + 1, r.action, where_is(r.source));
    }
    if a.definitions.iter().any(|s| *s != Source::BuiltIn) {
        let defs: Vec<String> = a
            .definitions
            .iter()
            .filter(|s| **s != Source::BuiltIn)
            .map(|s| where_is(*s))
            .collect();
        let _ = writeln!(out, "\nDefined in (merge order): {}", defs.join(", "));
    }
    out
}

/// What one permission comes to over some rules: the action for any input (and the rule that
/// decides it), and the patterns that decide otherwise, as runs of one action in the order
/// written (a later run wins over an earlier one where both match).
struct Decision<'r> {
    action: &'r str,
    decider: Option<&'r Rule>,
    except: Vec<(&'r str, Vec<&'r str>)>,
}

impl Decision<'_> {
    /// The same outcome (whichever rules decide it).
    fn same_as(&self, other: &Decision) -> bool {
        self.action == other.action && self.except == other.except
    }
}

/// The decision for `key` over `rules`: the rules after the one deciding `*` that match `key`
/// with another pattern, not overridden for all their inputs by a later rule, in the order
/// written. A rule with the general action is kept once an exception precedes it: it may take
/// back part of that exception (`*.env.*`: ask, then `*.env.example`: allow).
fn decide<'r>(rules: &[&'r Rule], key: &str) -> Decision<'r> {
    let matches = |r: &Rule| covers(&r.permission, key) || r.permission == key;
    let at = rules
        .iter()
        .rposition(|r| wildcard_match(key, &r.permission) && wildcard_match("*", &r.pattern));
    let action = at.map_or("ask", |i| rules[i].action.as_str());
    let later = &rules[at.map_or(0, |i| i + 1)..];
    let mut except: Vec<(&str, Vec<&str>)> = Vec::new();
    for (i, r) in later.iter().enumerate() {
        if r.pattern == "*" || !matches(r) || (r.action == action && except.is_empty()) {
            continue;
        }
        // Overridden for all its inputs by a later rule of the same permission: it decides
        // nothing.
        if later[i + 1..]
            .iter()
            .any(|l| matches(l) && pattern_covers(&l.pattern, &r.pattern))
        {
            continue;
        }
        match except.last_mut() {
            Some((act, patterns)) if *act == r.action => patterns.push(&r.pattern),
            _ => except.push((&r.action, vec![&r.pattern])),
        }
    }
    Decision {
        action,
        decider: at.map(|i| rules[i]),
        except,
    }
}

/// A decision as one line: "`bash`: **deny**, except `git diff *`, `git log *`: allow".
fn line(key: &str, d: &Decision, paths: &PathNames) -> String {
    let except = d
        .except
        .iter()
        .map(|(act, patterns)| {
            // A few patterns by name (skill folders counted as one item); the full list is in
            // the rules below.
            const SHOWN: usize = 4;
            let skills = patterns.iter().filter(|p| paths.skill(p).is_some()).count();
            let others: Vec<&&str> = patterns.iter().filter(|p| paths.skill(p).is_none()).collect();
            let mut items: Vec<String> = others
                .iter()
                .take(SHOWN)
                .map(|p| format!("`{}`", cell(&paths.show(p))))
                .collect();
            if others.len() > SHOWN {
                items.push(format!("{} more", others.len() - SHOWN));
            }
            match skills {
                0 => {}
                1 => items.push("one skill's folder".into()),
                n => items.push(format!("the folders of {n} skills")),
            }
            format!("{}: {act}", items.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let name = if key == "*" {
        "any other permission".to_string()
    } else {
        format!("`{}`", cell(key))
    };
    if except.is_empty() {
        format!("{name}: **{}**", d.action)
    } else {
        format!("{name}: **{}**, except {except}", d.action)
    }
}

/// One line per permission the agent's rules name: its action for any input, and the patterns
/// that decide otherwise, grouped by action: "`bash`: **deny**, except `git diff *`, `git log
/// *`: allow". The catch-all permission `*` is "any other permission".
///
/// The order is what a reader of this agent wants first:
/// 1. what the agent's own files set (its Markdown, its config entry), in the order written;
/// 2. what else is set apart from opencode's defaults, or differs from them (the config's
///    top-level `permission`, a built-in agent's own restrictions), each with where it is set;
/// 3. opencode's defaults, the same for every agent: one collapsed line on hover
///    ([`Detail::Hover`]), every line with `explain` ([`Detail::Full`]).
pub fn permission_summary(a: &EffectiveAgent, where_is: WhereIs, paths: &PathNames, detail: Detail) -> Vec<String> {
    let all: Vec<&Rule> = a.permission.iter().collect();
    let defaults: Vec<&Rule> = a.permission.iter().filter(|r| r.layer == Layer::Default).collect();
    let mut own: Vec<(usize, String)> = Vec::new();
    let mut differs: Vec<String> = Vec::new();
    let mut same: Vec<(String, String)> = Vec::new();
    let mut keys = a.decisions();
    // The catch-all permission last within each group.
    keys.sort_by_key(|(k, _)| k == "*");
    for (key, _) in keys {
        let d = decide(&all, &key);
        let text = line(&key, &d, paths);
        if let Some(at) = a
            .permission
            .iter()
            .position(|r| r.layer == Layer::Agent && r.permission == key)
        {
            own.push((at, text));
        } else if a
            .permission
            .iter()
            .any(|r| matches!(r.layer, Layer::Config | Layer::BuiltInAgent) && r.permission == key)
            || !d.same_as(&decide(&defaults, &key))
        {
            // Where the decision comes from: the deciding rule, else the first exception's.
            let source = d
                .decider
                .filter(|r| r.layer != Layer::Default)
                .map(|r| r.source)
                .or_else(|| {
                    a.permission
                        .iter()
                        .find(|r| r.layer != Layer::Default && r.permission == key)
                        .map(|r| r.source)
                });
            differs.push(match source {
                Some(Source::BuiltIn) => format!("{text} (built-in `{}`)", a.name),
                Some(s) => format!("{text} ({})", where_is(s)),
                None => text,
            });
        } else {
            same.push((key, text));
        }
    }
    own.sort_by_key(|(at, _)| *at);
    let mut lines: Vec<String> = own.into_iter().map(|(_, l)| l).collect();
    lines.extend(differs);
    match detail {
        Detail::Full => lines.extend(same.into_iter().map(|(_, l)| format!("{l} (opencode's default)"))),
        Detail::Hover if !same.is_empty() => {
            let mode = match a.mode.value.as_str() {
                "subagent" => "a subagent",
                "primary" => "a primary agent",
                _ => "an agent",
            };
            let named: Vec<String> = same
                .iter()
                .filter(|(k, _)| k != "*")
                .map(|(k, _)| format!("`{}`", cell(k)))
                .collect();
            let rest = same
                .iter()
                .find(|(k, _)| k == "*")
                .map(|_| format!("the rest **{}**", decide(&all, "*").action));
            let what = match (named.len(), rest) {
                (0, Some(rest)) => rest,
                (n, rest) => {
                    let mut s = format!("{n} with rules of their own: {}", named.join(", "));
                    if let Some(rest) = rest {
                        s.push_str("; ");
                        s.push_str(&rest);
                    }
                    s
                }
            };
            lines.push(format!(
                "every other permission: opencode's defaults for {mode} ({what})"
            ));
        }
        Detail::Hover => {}
    }
    lines
}

/// What `after` (with one more file) changed compared with `before`, for the fields that file
/// sets. `before` is `None` when the file creates the agent.
pub fn changes(before: Option<&EffectiveAgent>, after: &EffectiveAgent, file: usize) -> Vec<String> {
    let mine = |s: Source| matches!(s, Source::File { file: f, .. } if f == file);
    let Some(before) = before else {
        return vec![format!("defines `{}`", after.name)];
    };
    let mut out = Vec::new();
    let mut field = |name: &str, was: String, now: String, src: Option<Source>| {
        if src.is_some_and(mine) && was != now {
            out.push(format!("{name} {was} → {now}"));
        }
    };
    let opt = |v: &Option<Sourced<String>>| v.as_ref().map(|s| s.value.clone()).unwrap_or("unset".into());
    let num = |v: &Option<Sourced<f64>>| v.as_ref().map(|s| s.value.to_string()).unwrap_or("unset".into());
    field(
        "mode",
        before.mode.value.clone(),
        after.mode.value.clone(),
        Some(after.mode.source),
    );
    field(
        "hidden",
        before.hidden.value.to_string(),
        after.hidden.value.to_string(),
        Some(after.hidden.source),
    );
    field(
        "model",
        opt(&before.model),
        opt(&after.model),
        after.model.as_ref().map(|s| s.source),
    );
    field(
        "color",
        opt(&before.color),
        opt(&after.color),
        after.color.as_ref().map(|s| s.source),
    );
    field(
        "description",
        opt(&before.description).chars().take(30).collect(),
        opt(&after.description).chars().take(30).collect(),
        after.description.as_ref().map(|s| s.source),
    );
    field(
        "temperature",
        num(&before.temperature),
        num(&after.temperature),
        after.temperature.as_ref().map(|s| s.source),
    );
    field(
        "top_p",
        num(&before.top_p),
        num(&after.top_p),
        after.top_p.as_ref().map(|s| s.source),
    );
    field(
        "steps",
        before
            .steps
            .as_ref()
            .map(|s| s.value.to_string())
            .unwrap_or("unset".into()),
        after
            .steps
            .as_ref()
            .map(|s| s.value.to_string())
            .unwrap_or("unset".into()),
        after.steps.as_ref().map(|s| s.source),
    );
    field(
        "prompt",
        prompt_text(&before.prompt.value),
        prompt_text(&after.prompt.value),
        Some(after.prompt.source),
    );
    let added = after.permission.iter().filter(|r| mine(r.source)).count();
    if added > 0 {
        let changed_decisions: Vec<String> = after
            .decisions()
            .into_iter()
            .filter(|(k, act)| before.evaluate(k, "*").0 != act)
            .map(|(k, act)| format!("`{k}` {} → {act}", before.evaluate(&k, "*").0))
            .collect();
        let mut s = format!("adds {added} permission rule{}", if added == 1 { "" } else { "s" });
        if !changed_decisions.is_empty() {
            s.push_str(&format!(" ({})", changed_decisions.join(", ")));
        }
        out.push(s);
    }
    out
}

/// One line per agent, like `opencode agent list`.
/// The agents as a table; when `marked` holds for some (their files have problems that make
/// opencode refuse or skip them), a first column marks those with `!`.
pub fn list(agents: &[EffectiveAgent], where_is: WhereIs, marked: &dyn Fn(&EffectiveAgent) -> bool) -> String {
    use unicode_width::UnicodeWidthStr;
    // Columns as wide as their widest cell (a mode opencode does not know, a CJK name), so that
    // every row stays in line.
    let name_w = agents.iter().map(|a| a.name.width()).chain([4]).max().unwrap_or(4);
    let mode_w = agents
        .iter()
        .map(|a| a.mode.value.width())
        .chain([8])
        .max()
        .unwrap_or(8);
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.width())));
    let marks = agents.iter().any(marked);
    let mark = |a: Option<&EffectiveAgent>| match (marks, a) {
        (false, _) => "",
        (true, Some(a)) if marked(a) => "! ",
        (true, _) => "  ",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}{}  {}  {:<6}  defined in",
        mark(None),
        pad("name", name_w),
        pad("mode", mode_w),
        "hidden"
    );
    for a in agents {
        let defs: Vec<String> = a.definitions.iter().map(|s| where_is(*s)).collect();
        let _ = writeln!(
            out,
            "{}{}  {}  {:<6}  {}",
            mark(Some(a)),
            pad(&a.name, name_w),
            pad(&a.mode.value, mode_w),
            if a.hidden.value { "yes" } else { "no" },
            defs.join(", ")
        );
    }
    out
}

/// Documentation of an agent field, for hover on its key.
pub fn field_doc(name: &str) -> Option<String> {
    let f = schema::agent_field(name)?;
    let ty = match f.ty {
        FieldType::String => "string",
        FieldType::Number => "number",
        FieldType::PositiveInt => "integer > 0",
        FieldType::Bool => "boolean",
        FieldType::Mode => "\"subagent\" | \"primary\" | \"all\"",
        FieldType::Color => "\"#rrggbb\" | theme color",
        FieldType::Model => "\"provider/model\"",
        FieldType::Object => "object",
        FieldType::Tools => "{ tool: boolean } (deprecated)",
        FieldType::Permission => "action | { permission: action | { pattern: action } }",
        FieldType::Name => "string",
    };
    Some(format!("**`{}`**: `{ty}`\n\n{}", f.name, f.doc))
}

/// Documentation of a permission key, for hover on it.
pub fn permission_doc(name: &str) -> Option<String> {
    if let Some(k) = schema::permission_key(name) {
        let value = match k.value {
            schema::PermissionValue::ActionOnly => "an action only (allow, ask, deny)",
            schema::PermissionValue::ActionOrObject => "an action, or an object of pattern → action",
        };
        return Some(format!(
            "**`{}`** permission: {value}.\n\nPatterns match {}.",
            k.name, k.matches
        ));
    }
    schema::DEAD_PERMISSION_KEYS
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(k, why)| format!("**`{k}`**: no tool consults this permission ({why})."))
}

#[cfg(test)]
mod tests {
    use super::super::effective::rule;
    use super::*;
    use crate::analysis::permission::last_match;

    /// What a permission line says for `input`: its general action, then each run of patterns
    /// in order, a later run winning where it matches.
    fn said(text: &str, input: &str) -> String {
        let (_, rest) = text.split_once(": **").expect("a general action");
        let (general, rest) = rest.split_once("**").expect("a general action");
        let mut action = general.to_string();
        if let Some(runs) = rest.strip_prefix(", except ") {
            for run in runs.split("; ") {
                let (patterns, act) = run.rsplit_once(": ").expect("a run's action");
                let patterns: Vec<&str> = patterns.split(", ").map(|p| p.trim_matches('`')).collect();
                if patterns.iter().any(|p| wildcard_match(input, p)) {
                    action = act.to_string();
                }
            }
        } else {
            assert!(rest.is_empty(), "{text}");
        }
        action
    }

    #[test]
    fn a_rule_taking_back_part_of_an_exception_is_shown() {
        // opencode's defaults for `read`: the `*.env.example` allow decides for `.env.example`.
        let rules = [
            rule("*", "*", "allow"),
            rule("read", "*", "allow"),
            rule("read", "*.env", "ask"),
            rule("read", "*.env.*", "ask"),
            rule("read", "*.env.example", "allow"),
        ];
        let refs: Vec<&Rule> = rules.iter().collect();
        let text = line("read", &decide(&refs, "read"), &PathNames::default());
        assert_eq!(
            text,
            "`read`: **allow**, except `*.env`, `*.env.*`: ask; `*.env.example`: allow"
        );
        assert_eq!(said(&text, "a.env.example"), "allow");
        assert_eq!(said(&text, "a.env.local"), "ask");
        // An allow before any exception changes nothing: not shown.
        let rules = [
            rule("read", "*", "allow"),
            rule("read", "a*", "allow"),
            rule("read", "b*", "deny"),
        ];
        let refs: Vec<&Rule> = rules.iter().collect();
        let text = line("read", &decide(&refs, "read"), &PathNames::default());
        assert_eq!(text, "`read`: **allow**, except `b*`: deny");
    }

    #[test]
    fn the_list_stays_in_line_with_an_unknown_mode_and_wide_names() {
        let env = crate::analysis::opencode::effective::Env::default();
        let mut agents = crate::analysis::opencode::effective::agents(&[], &env);
        agents.truncate(2);
        agents[0].name = "審査🚀".into();
        agents[1].mode.value = "sub-agent-mode".into();
        let text = list(&agents, &|_| "built-in".into(), &|_| false);
        use unicode_width::UnicodeWidthStr;
        // Every row's `defined in` column starts where the header's does.
        let at = |l: &str| {
            l.find("built-in")
                .or_else(|| l.find("defined in"))
                .map(|i| l[..i].width())
        };
        let columns: Vec<Option<usize>> = text.lines().map(at).collect();
        assert_eq!(columns.len(), 3, "{text}");
        assert!(columns.iter().all(|c| *c == columns[0] && c.is_some()), "{text}");
    }

    /// Generated rulesets: the line a card prints for a permission gives, for every input, the
    /// action opencode decides (the last matching rule).
    #[test]
    fn the_line_agrees_with_the_decision_on_generated_rulesets() {
        const PERMISSIONS: [&str; 4] = ["read", "*", "re*", "edit"];
        const PATTERNS: [&str; 12] = [
            "*",
            "*.env",
            "*.env.*",
            "*.env.example",
            "a*",
            "ab*",
            "abc",
            "*c",
            "a?c",
            "src/*",
            "src/**",
            "b",
        ];
        const ACTIONS: [&str; 3] = ["allow", "ask", "deny"];
        const INPUTS: [&str; 14] = [
            "x",
            ".env",
            "a.env",
            "a.env.example",
            "a.env.local",
            "abc",
            "ab",
            "a",
            "src/x",
            "src/a/b",
            "ac",
            "axc",
            "b",
            "*",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for _ in 0..3000 {
            let rules: Vec<Rule> = (0..1 + next(8))
                .map(|_| {
                    rule(
                        PERMISSIONS[next(PERMISSIONS.len())],
                        PATTERNS[next(PATTERNS.len())],
                        ACTIONS[next(ACTIONS.len())],
                    )
                })
                .collect();
            let refs: Vec<&Rule> = rules.iter().collect();
            let text = line("read", &decide(&refs, "read"), &PathNames::default());
            if text.contains(" more") {
                continue; // a long run is cut; the rules list below the line has it whole
            }
            for input in INPUTS {
                let decided = last_match(&rules, "read", input, |r| (&r.permission, &r.pattern))
                    .map_or("ask", |r| r.action.as_str());
                assert_eq!(said(&text, input), decided, "{input:?} under {text}\nrules: {rules:#?}");
                checked += 1;
            }
        }
        assert!(checked > 30_000, "{checked}");
    }
}
