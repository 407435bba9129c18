//! The merged effective agent: what an agent actually is after opencode 1.18 merges built-ins,
//! config layers, Markdown agents and `mode` entries, with every value's source, and opencode's
//! permission evaluation on the result (spec §2, §6 to §9).
//!
//! Construction, in opencode's order:
//! 1. The agent settings of all layers are deep-merged per agent name, in view order; `mode.<name>`
//!    entries last (forced primary). Per layer, deprecated `tools` become permission entries
//!    (true allow, false deny; write/edit/patch become `edit`) with explicit `permission` keys
//!    assigned on top, and `maxSteps` becomes `steps` when `steps` is not set.
//! 2. Permission objects merge deeply: a key set again keeps its first position (which decides
//!    which rule is last) and takes the new value.
//! 3. The 7 built-ins start with the default ruleset, their own restrictions, then the top-level
//!    `permission` ("user" rules). Each merged entry then: `disable` removes; scalar fields
//!    override when set; a new agent starts as `mode: all` with defaults plus user rules; the
//!    agent's own rules are appended.
//! 4. Every agent finally gets an allow for the tool-output directory under
//!    `external_directory`, unless it denies exactly that glob itself.

use super::project::{Source, Sourced, ViewFile};
use super::schema::{BUILTIN_AGENTS, tools_key_to_permission};
use super::{AgentDecl, DeclOrigin};
use crate::analysis::permission::{last_match, wildcard_match};
use crate::analysis::syntax::{Node, Value};

/// Paths that the default rules mention; the caller resolves them from the environment.
#[derive(Clone, Debug)]
pub struct Env {
    /// opencode's data directory (`$XDG_DATA_HOME/opencode` or `~/.local/share/opencode`).
    pub data_dir: String,
    /// The home directory, for `~` and `$HOME` in patterns; `None` leaves them as written.
    pub home: Option<String>,
    /// opencode's temporary directory (`<os tmpdir>/opencode`), whitelisted for
    /// `external_directory`.
    pub tmp_dir: String,
    /// The worktree opencode runs in (the git top, `/` outside git): `plan`'s rule for plan
    /// files in the data directory is written relative to it. `None` writes it absolute.
    pub worktree: Option<String>,
    /// The directory of every `SKILL.md` opencode finds, in its discovery order; each is
    /// whitelisted for `external_directory`.
    pub skill_dirs: Vec<String>,
}

impl Default for Env {
    fn default() -> Env {
        Env {
            data_dir: "~/.local/share/opencode".into(),
            home: None,
            tmp_dir: "/tmp/opencode".into(),
            worktree: None,
            skill_dirs: Vec::new(),
        }
    }
}

/// `path.relative(from, to)` of Node for absolute POSIX paths: `to` as seen from `from`.
pub fn relative_path(from: &str, to: &str) -> String {
    let parts = |p: &str| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in p.split('/') {
            match c {
                "" | "." => {}
                ".." => {
                    out.pop();
                }
                c => out.push(c.to_string()),
            }
        }
        out
    };
    let (f, t) = (parts(from), parts(to));
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out: Vec<String> = vec!["..".to_string(); f.len() - common];
    out.extend(t[common..].iter().cloned());
    out.join("/")
}

impl Env {
    /// opencode's home expansion of patterns (§6.3): `~`, `~/x`, `$HOME`, `$HOME/x`.
    fn expand(&self, p: &str) -> String {
        let Some(home) = &self.home else { return p.to_string() };
        if p == "~" {
            return home.clone();
        }
        if let Some(rest) = p.strip_prefix("~/") {
            return format!("{home}/{rest}");
        }
        if let Some(rest) = p.strip_prefix("$HOME") {
            return format!("{home}{rest}");
        }
        p.to_string()
    }
}

/// One permission rule with where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub permission: String,
    pub pattern: String,
    pub action: String,
    pub source: Source,
    pub layer: Layer,
}

/// Which part of opencode's merge a rule comes from (the order they are concatenated in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// opencode's defaults, the same for every agent (and the tool-output allow at the end).
    Default,
    /// A built-in agent's own restrictions (`plan` denies `edit`, `explore` denies `*`, ...).
    BuiltInAgent,
    /// The top-level `permission` of the config files: every agent gets it.
    Config,
    /// The agent's own files: its Markdown and its config entry.
    Agent,
}

impl Layer {
    /// Its name in `explain --format json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Default => "default",
            Layer::BuiltInAgent => "built-in agent",
            Layer::Config => "config",
            Layer::Agent => "agent",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Prompt {
    /// The provider's default system prompt.
    ProviderDefault,
    /// A built-in prompt file of opencode.
    BuiltIn(&'static str),
    /// The body of a Markdown file (`empty` when it is blank, which means no prompt).
    Body { empty: bool },
    /// The whole Markdown file, frontmatter included: opencode could not read the frontmatter.
    WholeFile,
    /// A `{file:...}` reference in JSON.
    File(String),
    /// Inline text in JSON (the first line, shortened).
    Inline(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveAgent {
    /// The agent's key: what `default_agent`, commands and `task` patterns name.
    pub name: String,
    /// The name opencode shows when a config entry's `name` differs from its key
    /// (`agent.k.name: "Display"`); `None` when it is the key.
    pub display_name: Option<Sourced<String>>,
    pub native: bool,
    pub mode: Sourced<String>,
    pub hidden: Sourced<bool>,
    pub model: Option<Sourced<String>>,
    pub variant: Option<Sourced<String>>,
    pub temperature: Option<Sourced<f64>>,
    pub top_p: Option<Sourced<f64>>,
    pub steps: Option<Sourced<i64>>,
    pub color: Option<Sourced<String>>,
    pub description: Option<Sourced<String>>,
    pub prompt: Sourced<Prompt>,
    /// Provider options (including unknown agent keys), deep-merged across layers; the source
    /// is the last layer that set the key.
    pub options: Vec<(String, Sourced<serde_json::Value>)>,
    /// Rules in evaluation order (the last match wins).
    pub permission: Vec<Rule>,
    /// Every declaration of this agent, in merge order.
    pub definitions: Vec<Source>,
}

impl EffectiveAgent {
    /// opencode's `Permission.evaluate`: the last rule whose permission and pattern both match;
    /// `ask` when none does.
    pub fn evaluate(&self, permission: &str, input: &str) -> (&str, Option<&Rule>) {
        match last_match(&self.permission, permission, input, |r| (&r.permission, &r.pattern)) {
            Some(r) => (&r.action, Some(r)),
            None => ("ask", None),
        }
    }

    /// The permission keys this agent's rules mention, in first-appearance order, with the
    /// action for the general input `*`.
    pub fn decisions(&self) -> Vec<(String, String)> {
        let mut keys: Vec<String> = Vec::new();
        for r in &self.permission {
            if !keys.contains(&r.permission) {
                keys.push(r.permission.clone());
            }
        }
        keys.into_iter()
            .map(|k| {
                let action = self.evaluate(&k, "*").0.to_string();
                (k, action)
            })
            .collect()
    }

    /// The action for a `permission` call whose input only the catch-all names (the input `*`,
    /// decided as [`evaluate`](Self::evaluate) decides), and how many rules with another
    /// pattern can still decide some input of that permission: those that match the permission
    /// and come after the rule deciding `*` (an earlier one is shadowed by it).
    pub fn catch_all(&self, permission: &str) -> (&str, usize) {
        let (action, decider) = self.evaluate(permission, "*");
        let after = match decider {
            Some(d) => {
                let at = self.permission.iter().rposition(|r| std::ptr::eq(r, d)).unwrap_or(0);
                &self.permission[at + 1..]
            }
            None => &self.permission[..],
        };
        let refining = after
            .iter()
            .filter(|r| r.pattern != "*" && wildcard_match(permission, &r.permission))
            .count();
        (action, refining)
    }

    /// The `task` action for starting `subagent` (the runtime's evaluation, `ask` when no rule
    /// matches).
    pub fn may_start(&self, subagent: &str) -> &str {
        self.evaluate("task", subagent).0
    }
}

/// A permission config value being merged.
#[derive(Clone, Debug)]
enum PermValue {
    Action(String, Source),
    Patterns(Vec<(String, String, Source)>),
}

type PermCfg = Vec<(String, PermValue)>;

fn perm_from_node(node: &Node, file: usize) -> PermCfg {
    let at = |n: &Node| Source::File { file, span: n.span };
    match &node.value {
        Value::Str(a) => vec![("*".into(), PermValue::Action(a.clone(), at(node)))],
        Value::Map(map) => {
            let mut cfg: PermCfg = Vec::new();
            for (key, value) in map.js_entries() {
                let value = match &value.value {
                    Value::Str(a) => PermValue::Action(
                        a.clone(),
                        Source::File {
                            file,
                            span: key.span.cover(value.span),
                        },
                    ),
                    Value::Map(p) => PermValue::Patterns(
                        p.js_entries()
                            .into_iter()
                            .filter_map(|(pattern, action)| {
                                Some((
                                    pattern.name.clone(),
                                    action.as_str()?.to_string(),
                                    Source::File {
                                        file,
                                        span: pattern.span.cover(action.span),
                                    },
                                ))
                            })
                            .collect(),
                    ),
                    _ => continue,
                };
                cfg.push((key.name.clone(), value));
            }
            cfg
        }
        _ => Vec::new(),
    }
}

/// Set `key` in `cfg`: a key already there keeps its position. With `deep`, two pattern maps
/// merge entry by entry (same rule); otherwise the new value replaces the old.
fn assign(cfg: &mut PermCfg, key: String, value: PermValue, deep: bool) {
    match cfg.iter_mut().find(|(k, _)| *k == key) {
        Some((_, slot)) => match (slot, value) {
            (PermValue::Patterns(old), PermValue::Patterns(new)) if deep => {
                for (p, a, s) in new {
                    match old.iter_mut().find(|(q, _, _)| *q == p) {
                        Some(x) => {
                            x.1 = a;
                            x.2 = s;
                        }
                        None => old.push((p, a, s)),
                    }
                }
            }
            (slot, value) => *slot = value,
        },
        None => cfg.push((key, value)),
    }
}

fn merge_perm(base: &mut PermCfg, over: PermCfg) {
    for (k, v) in over {
        assign(base, k, v, true);
    }
}

/// JavaScript key order: integer-like keys first, ascending.
fn is_index(k: &str) -> bool {
    k == "0" || (!k.is_empty() && !k.starts_with('0') && k.len() <= 9 && k.bytes().all(|b| b.is_ascii_digit()))
}

fn js_ordered<T>(items: &[(String, T)]) -> Vec<&(String, T)> {
    let mut idx: Vec<&(String, T)> = items.iter().filter(|(k, _)| is_index(k)).collect();
    idx.sort_by_key(|(k, _)| k.parse::<u64>().unwrap_or(0));
    idx.extend(items.iter().filter(|(k, _)| !is_index(k)));
    idx
}

fn compile(cfg: &PermCfg, env: &Env, layer: Layer) -> Vec<Rule> {
    let mut rules = Vec::new();
    for (key, value) in js_ordered(cfg) {
        match value {
            PermValue::Action(a, s) => rules.push(Rule {
                permission: key.clone(),
                pattern: "*".into(),
                action: a.clone(),
                source: *s,
                layer,
            }),
            PermValue::Patterns(ps) => {
                let as_pairs: Vec<(String, (String, Source))> =
                    ps.iter().map(|(p, a, s)| (p.clone(), (a.clone(), *s))).collect();
                for (p, (a, s)) in js_ordered(&as_pairs) {
                    rules.push(Rule {
                        permission: key.clone(),
                        pattern: env.expand(p),
                        action: a.clone(),
                        source: *s,
                        layer,
                    });
                }
            }
        }
    }
    rules
}

/// One layer's permission config of an agent: `tools` converted, explicit keys on top.
fn layer_perm(decl_node: &Node, file: usize) -> PermCfg {
    let Some(map) = decl_node.as_map() else {
        return Vec::new();
    };
    let mut cfg: PermCfg = Vec::new();
    if let Some(tools) = map.get("tools")
        && let Some(t) = tools.value.as_map()
    {
        for (key, value) in t.js_entries() {
            if let Some(b) = value.as_bool() {
                let src = Source::File {
                    file,
                    span: key.span.cover(value.span),
                };
                let action = if b { "allow" } else { "deny" };
                assign(
                    &mut cfg,
                    tools_key_to_permission(&key.name).to_string(),
                    PermValue::Action(action.into(), src),
                    false,
                );
            }
        }
    }
    if let Some(p) = map.value("permission") {
        for (k, v) in perm_from_node(p, file) {
            assign(&mut cfg, k, v, false);
        }
    }
    cfg
}

/// A rule of opencode's defaults (no place in a file).
pub(super) fn rule(permission: &str, pattern: &str, action: &str) -> Rule {
    Rule {
        permission: permission.into(),
        pattern: pattern.into(),
        action: action.into(),
        source: Source::BuiltIn,
        layer: Layer::Default,
    }
}

/// The `external_directory` whitelist: tool output, opencode's temporary directory, and every
/// skill directory (each `<dir>/*`, de-duplicated as object keys are).
fn whitelist(env: &Env) -> Vec<String> {
    let mut dirs = vec![format!("{}/tool-output/*", env.data_dir), format!("{}/*", env.tmp_dir)];
    for d in &env.skill_dirs {
        let glob = format!("{d}/*");
        if !dirs.contains(&glob) {
            dirs.push(glob);
        }
    }
    dirs
}

fn external_directory_rules(env: &Env) -> Vec<Rule> {
    let mut rules = vec![rule("external_directory", "*", "ask")];
    rules.extend(whitelist(env).iter().map(|d| rule("external_directory", d, "allow")));
    rules
}

/// The default ruleset (§7), in order.
pub fn default_rules(env: &Env) -> Vec<Rule> {
    let mut rules = vec![rule("*", "*", "allow"), rule("doom_loop", "*", "ask")];
    rules.extend(external_directory_rules(env));
    rules.extend([
        rule("question", "*", "deny"),
        rule("plan_enter", "*", "deny"),
        rule("plan_exit", "*", "deny"),
        rule("read", "*", "allow"),
        rule("read", "*.env", "ask"),
        rule("read", "*.env.*", "ask"),
        rule("read", "*.env.example", "allow"),
    ]);
    rules
}

/// Each built-in's own restrictions, between the defaults and the user rules (§7).
fn builtin_rules(name: &str, env: &Env) -> Vec<Rule> {
    let d = &env.data_dir;
    match name {
        "build" => vec![rule("question", "*", "allow"), rule("plan_enter", "*", "allow")],
        "plan" => {
            let plans = format!("{d}/plans/*.md");
            let plans = match &env.worktree {
                Some(w) => relative_path(w, &plans),
                None => plans,
            };
            vec![
                rule("question", "*", "allow"),
                rule("plan_exit", "*", "allow"),
                rule("task", "general", "deny"),
                rule("external_directory", &format!("{d}/plans/*"), "allow"),
                rule("edit", "*", "deny"),
                rule("edit", ".opencode/plans/*.md", "allow"),
                rule("edit", &plans, "allow"),
            ]
        }
        "general" => vec![rule("todowrite", "*", "deny")],
        "explore" => {
            let mut r = vec![rule("*", "*", "deny")];
            for k in ["grep", "glob", "list", "bash", "webfetch", "websearch", "read"] {
                r.push(rule(k, "*", "allow"));
            }
            r.extend(external_directory_rules(env));
            r
        }
        "compaction" | "title" | "summary" => vec![rule("*", "*", "deny")],
        _ => Vec::new(),
    }
}

fn builtin_prompt(name: &str) -> Prompt {
    match name {
        "explore" => Prompt::BuiltIn("agent/prompt/explore.txt"),
        "compaction" => Prompt::BuiltIn("prompt/compaction.txt"),
        "title" => Prompt::BuiltIn("prompt/title.txt"),
        "summary" => Prompt::BuiltIn("prompt/summary.txt"),
        _ => Prompt::ProviderDefault,
    }
}

/// Merged settings of one agent name across layers.
#[derive(Default)]
struct Merged {
    name: String,
    display_name: Option<Sourced<String>>,
    defs: Vec<Source>,
    disable: Option<Sourced<bool>>,
    mode: Option<Sourced<String>>,
    hidden: Option<Sourced<bool>>,
    model: Option<Sourced<String>>,
    variant: Option<Sourced<String>>,
    temperature: Option<Sourced<f64>>,
    top_p: Option<Sourced<f64>>,
    steps: Option<Sourced<i64>>,
    color: Option<Sourced<String>>,
    description: Option<Sourced<String>>,
    prompt: Option<Sourced<Prompt>>,
    options: Vec<(String, Sourced<serde_json::Value>)>,
    permission: PermCfg,
}

fn merge_decl(m: &mut Merged, decl: &AgentDecl, file: usize) {
    let at = |n: &Node| Source::File { file, span: n.span };
    m.defs.push(Source::File { file, span: decl.span });
    // A Markdown agent always carries its name (from the path or the frontmatter); a config
    // entry may set a display name.
    let display = match decl.origin {
        DeclOrigin::Markdown | DeclOrigin::ModeFile => Some(decl.name.clone()),
        _ => decl.field("name").and_then(Node::as_str).map(str::to_string),
    };
    if let Some(value) = display {
        m.display_name = Some(Sourced {
            value,
            source: Source::File { file, span: decl.span },
        });
    }
    if let Some((mode, span)) = decl.mode() {
        m.mode = Some(Sourced {
            value: mode.to_string(),
            source: Source::File {
                file,
                span: span.unwrap_or(decl.span),
            },
        });
    }
    if matches!(decl.origin, DeclOrigin::Markdown | DeclOrigin::ModeFile) {
        // The body always sets the prompt, even when empty.
        let empty = decl.body_empty;
        m.prompt = Some(Sourced {
            value: if decl.whole_file {
                Prompt::WholeFile
            } else {
                Prompt::Body { empty }
            },
            source: Source::File { file, span: decl.span },
        });
    }
    let Some(node) = &decl.node else { return };
    let Some(map) = node.as_map() else { return };
    let string = |k: &str| {
        map.value(k).and_then(|n| {
            Some(Sourced {
                value: n.as_str()?.to_string(),
                source: at(n),
            })
        })
    };
    let number = |k: &str| {
        map.value(k).and_then(|n| {
            Some(Sourced {
                value: n.as_f64()?,
                source: at(n),
            })
        })
    };
    let boolean = |k: &str| {
        map.value(k).and_then(|n| {
            Some(Sourced {
                value: n.as_bool()?,
                source: at(n),
            })
        })
    };
    if let Some(v) = boolean("disable") {
        m.disable = Some(v);
    }
    if let Some(v) = boolean("hidden") {
        m.hidden = Some(v);
    }
    for (key, slot) in [
        ("model", &mut m.model),
        ("variant", &mut m.variant),
        ("color", &mut m.color),
        ("description", &mut m.description),
    ] {
        if let Some(v) = string(key) {
            *slot = Some(v);
        }
    }
    if let Some(v) = number("temperature") {
        m.temperature = Some(v);
    }
    if let Some(v) = number("top_p") {
        m.top_p = Some(v);
    }
    let int = |k: &str| {
        map.value(k).and_then(|n| {
            let f = n.as_f64()?;
            (f.fract() == 0.0).then_some(Sourced {
                value: f as i64,
                source: at(n),
            })
        })
    };
    // `steps ?? maxSteps`: a `steps` that is set (to anything but null) hides `maxSteps`.
    let steps_set = map.value("steps").is_some_and(|n| !matches!(n.value, Value::Null));
    let steps = if steps_set { int("steps") } else { int("maxSteps") };
    if let Some(v) = steps {
        m.steps = Some(v);
    }
    if !matches!(decl.origin, DeclOrigin::Markdown | DeclOrigin::ModeFile)
        && let Some(p) = map.value("prompt")
        && let Some(s) = p.as_str()
    {
        let value = match s.trim().strip_prefix("{file:").and_then(|r| r.strip_suffix('}')) {
            Some(path) => Prompt::File(path.to_string()),
            None if s.is_empty() => Prompt::ProviderDefault,
            None => Prompt::Inline(s.lines().next().unwrap_or("").chars().take(60).collect()),
        };
        m.prompt = Some(Sourced { value, source: at(p) });
    }
    // Provider options: `options` entries, then unknown keys on top (they replace an entry of
    // the same name); layers merge deeply.
    let mut opts: Vec<(String, Sourced<serde_json::Value>)> = Vec::new();
    if let Some(o) = map.value("options").and_then(Node::as_map) {
        for (k, v) in o.js_entries() {
            opts.push((
                k.name.clone(),
                Sourced {
                    value: v.to_json(),
                    source: at(v),
                },
            ));
        }
    }
    for (k, v) in map.js_entries() {
        if super::schema::agent_field(&k.name).is_none() {
            let value = Sourced {
                value: v.to_json(),
                source: at(v),
            };
            match opts.iter_mut().find(|(x, _)| *x == k.name) {
                Some(slot) => slot.1 = value,
                None => opts.push((k.name.clone(), value)),
            }
        }
    }
    merge_options(&mut m.options, opts);
    merge_perm(&mut m.permission, layer_perm(node, file));
}

/// remeda's `mergeDeep`: objects merge key by key, recursively; anything else replaces.
fn merge_json(base: &mut serde_json::Value, over: serde_json::Value) {
    match (base, over) {
        (serde_json::Value::Object(b), serde_json::Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(slot) => merge_json(slot, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, o) => *b = o,
    }
}

fn merge_options(
    base: &mut Vec<(String, Sourced<serde_json::Value>)>,
    over: Vec<(String, Sourced<serde_json::Value>)>,
) {
    for (k, v) in over {
        match base.iter_mut().find(|(x, _)| *x == k) {
            Some(slot) => {
                merge_json(&mut slot.1.value, v.value);
                slot.1.source = v.source;
            }
            None => base.push((k, v)),
        }
    }
}

/// The rules every agent of the view gets from the config files' top-level `permission` (and
/// deprecated top-level `tools`), all config layers merged, in evaluation order.
pub fn config_rules(view: &[ViewFile], env: &Env) -> Vec<Rule> {
    let mut cfg: PermCfg = Vec::new();
    for vf in view {
        // Config files only (Markdown files have a frontmatter split).
        if vf.facts.split.is_some() {
            continue;
        }
        if let Some(root) = &vf.parsed.root {
            // Top-level `tools` convert like an agent's, with explicit `permission` on top.
            merge_perm(&mut cfg, layer_perm(root, vf.file));
        }
    }
    compile(&cfg, env, Layer::Config)
}

/// Every agent of a view, in opencode's insertion order (built-ins first), disabled ones left
/// out.
pub fn agents(view: &[ViewFile], env: &Env) -> Vec<EffectiveAgent> {
    build(view, env, None)
}

/// The agents of a view called one of `names` (built-ins included when named), as [`agents`]
/// builds them; the other declarations are not merged, so this costs what those agents cost.
pub fn agents_named(
    view: &[ViewFile],
    env: &Env,
    names: &crate::analysis::hash::FxHashSet<&str>,
) -> Vec<EffectiveAgent> {
    build(view, env, Some(names))
}

fn build(view: &[ViewFile], env: &Env, only: Option<&crate::analysis::hash::FxHashSet<&str>>) -> Vec<EffectiveAgent> {
    let declarations = match only {
        Some(names) => super::project::declarations_named(view, names),
        None => super::project::declarations_in_merge_order(view),
    };
    let merged: Vec<Merged> = declarations
        .into_iter()
        .map(|(name, decls)| {
            let mut m = Merged {
                name: name.to_string(),
                ..Merged::default()
            };
            for (file, decl) in decls {
                merge_decl(&mut m, decl, file);
            }
            m
        })
        .collect();
    let defaults = default_rules(env);
    let user = config_rules(view, env);
    let mut out: Vec<EffectiveAgent> = BUILTIN_AGENTS
        .iter()
        .filter(|b| only.is_none_or(|names| names.contains(b.name)))
        .map(|b| {
            let mut permission = defaults.clone();
            permission.extend(builtin_rules(b.name, env).into_iter().map(|r| Rule {
                layer: Layer::BuiltInAgent,
                ..r
            }));
            permission.extend(user.iter().cloned());
            EffectiveAgent {
                name: b.name.into(),
                display_name: None,
                native: true,
                mode: Sourced {
                    value: b.mode.into(),
                    source: Source::BuiltIn,
                },
                hidden: Sourced {
                    value: b.hidden,
                    source: Source::BuiltIn,
                },
                model: None,
                variant: None,
                temperature: (b.name == "title").then_some(Sourced {
                    value: 0.5,
                    source: Source::BuiltIn,
                }),
                top_p: None,
                steps: None,
                color: None,
                description: b.description.map(|d| Sourced {
                    value: d.into(),
                    source: Source::BuiltIn,
                }),
                prompt: Sourced {
                    value: builtin_prompt(b.name),
                    source: Source::BuiltIn,
                },
                options: Vec::new(),
                permission,
                definitions: vec![Source::BuiltIn],
            }
        })
        .collect();
    for m in merged {
        if m.disable.as_ref().is_some_and(|d| d.value) {
            out.retain(|a| a.name != m.name);
            continue;
        }
        let idx = match out.iter().position(|a| a.name == m.name) {
            Some(i) => i,
            None => {
                let mut permission = defaults.clone();
                permission.extend(user.iter().cloned());
                out.push(EffectiveAgent {
                    name: m.name.clone(),
                    display_name: None,
                    native: false,
                    mode: Sourced {
                        value: "all".into(),
                        source: Source::BuiltIn,
                    },
                    hidden: Sourced {
                        value: false,
                        source: Source::BuiltIn,
                    },
                    model: None,
                    variant: None,
                    temperature: None,
                    top_p: None,
                    steps: None,
                    color: None,
                    description: None,
                    prompt: Sourced {
                        value: Prompt::ProviderDefault,
                        source: Source::BuiltIn,
                    },
                    options: Vec::new(),
                    permission,
                    definitions: Vec::new(),
                });
                out.len() - 1
            }
        };
        let a = &mut out[idx];
        a.definitions.extend(m.defs.iter().copied());
        if let Some(d) = m.display_name {
            a.display_name = (d.value != a.name).then_some(d);
        }
        if let Some(v) = m.mode {
            a.mode = v;
        }
        if let Some(v) = m.hidden {
            a.hidden = v;
        }
        a.model = m.model.or(a.model.take());
        a.variant = m.variant.or(a.variant.take());
        a.temperature = m.temperature.or(a.temperature.take());
        a.top_p = m.top_p.or(a.top_p.take());
        a.steps = m.steps.or(a.steps.take());
        a.color = m.color.or(a.color.take());
        a.description = m.description.or(a.description.take());
        if let Some(p) = m.prompt {
            // "" counts as no prompt: the provider default.
            a.prompt = p;
        }
        merge_options(&mut a.options, m.options);
        a.permission.extend(compile(&m.permission, env, Layer::Agent));
    }
    let tool_output = format!("{}/tool-output/*", env.data_dir);
    for a in &mut out {
        let explicit_deny = a
            .permission
            .iter()
            .any(|r| r.permission == "external_directory" && r.pattern == tool_output && r.action == "deny");
        if !explicit_deny {
            a.permission.push(Rule {
                permission: "external_directory".into(),
                pattern: tool_output.clone(),
                action: "allow".into(),
                source: Source::BuiltIn,
                layer: Layer::Default,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
