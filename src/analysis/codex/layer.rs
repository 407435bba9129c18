//! One configuration layer as Codex 0.171.0 reads it: a `config.toml`, or the settings an agent
//! file carries beside its own fields. Codex deserialises the whole layer at once, so a wrong
//! type or an unknown enum value anywhere refuses all of it (Codex does not start; an agent file
//! is dropped), while a key it does not know is ignored without a word (`--strict-config` names
//! it, one per run).
//!
//! Beyond the schema ([`super::schema`]): an MCP server is local (`command`) or remote (`url`)
//! and refuses the other kind's fields; `profile = "..."` is refused (profiles are
//! `<name>.config.toml` files now); `[permissions]` needs `default_permissions`;
//! `wire_api = "chat"` is no longer supported; `model_reasoning_effort` takes any string but the
//! model's API does not.

use crate::analysis::diagnostic::{Diagnostic, Edit, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Dropped, Issue, IssueKind, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Map, Node, Parsed, Value};
use crate::analysis::text::Span;

/// What a layer sets that an agent's card shows (what runs without asking, the model), and the
/// roles it declares, which name and describe agent files of its folder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub approval_policy: Option<Written>,
    pub sandbox_mode: Option<Written>,
    pub model: Option<Written>,
    /// `project_doc_max_bytes`: the budget of the project's instruction files (a value Codex
    /// takes, a whole number of bytes).
    pub doc_max_bytes: Option<u64>,
    /// `project_doc_fallback_filenames`: the names Codex looks for in a folder after
    /// `AGENTS.override.md` and `AGENTS.md` (the strings of the list, blanks left out).
    pub doc_fallbacks: Option<Vec<String>>,
    /// The roles declared in `[agents.<name>]`: the role file each points at, its description.
    pub role_decls: Vec<RoleDecl>,
}

/// A role declared in `[agents.<name>]`.
#[derive(Clone, Debug, PartialEq)]
pub struct RoleDecl {
    pub name: String,
    /// `config_file`, as written (relative to the `config.toml` declaring it).
    pub config_file: Option<String>,
    /// Its `description`, when it gives one that is not blank.
    pub description: Option<String>,
}

/// A value as written, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub value: String,
    pub span: Span,
}

/// Which file the layer is, for what a mistake costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The user's `config.toml`: Codex refuses to start.
    Config,
    /// A project's `.codex/config.toml`: Codex refuses to start, and ignores the keys only the
    /// user's file may set ([`super::schema::USER_ONLY`]).
    Project,
    /// An agent file: Codex drops the agent.
    Agent,
}

impl Layer {
    /// What Codex does about a value it refuses.
    pub fn refusal(self) -> &'static str {
        match self {
            Layer::Config | Layer::Project => "Codex refuses to start with this config.toml",
            Layer::Agent => "Codex drops this agent (a warning names the file only when a session starts)",
        }
    }

    /// The finding of a refused value.
    pub fn refuse(self, code: Code, span: Span, message: String) -> Diagnostic {
        let effect = match self {
            Layer::Config | Layer::Project => Effect::RefusesToStart,
            Layer::Agent => Effect::FileIgnored,
        };
        Diagnostic::new(code, span, message)
            .with_severity(Severity::Error)
            .with_effect(effect)
    }
}

/// Check a `config.toml` (`project`: a project's `.codex/config.toml`).
pub fn check_config(parsed: &Parsed, project: bool) -> (Vec<Diagnostic>, Settings) {
    let layer = if project { Layer::Project } else { Layer::Config };
    let mut out = Vec::new();
    for e in &parsed.errors {
        out.push(layer.refuse(Code::SyntaxError, e.span, format!("{}: {}", e.message, layer.refusal())));
    }
    let Some(root) = &parsed.root else {
        return (out, Settings::default());
    };
    let Some(map) = root.as_map() else {
        return (out, Settings::default());
    };
    let settings = check(root, map, schema_root(), layer, &mut out);
    full_access(map, &mut out);
    (out, settings)
}

/// `broad-grant`: `sandbox_mode = "danger-full-access"` in a configuration file, which Codex
/// applies (to a project's file once the project is trusted: seen with Codex 0.171.0, whose
/// `exec` header then says `sandbox: danger-full-access`).
fn full_access(map: &Map, out: &mut Vec<Diagnostic>) {
    // A file Codex refuses grants nothing: that error is the finding.
    if out.iter().any(|d| d.severity == Severity::Error) {
        return;
    }
    if let Some(v) = map.value("sandbox_mode")
        && v.as_str() == Some("danger-full-access")
    {
        out.push(
            Diagnostic::new(
                Code::BroadGrant,
                v.span,
                "`danger-full-access` runs every command Codex starts without a sandbox, with the whole disk and the network, for everyone who uses this file (a project's file once the project is trusted): `workspace-write` keeps writes to the project, and Codex asks before going further",
            )
            .with_suggestion(v.span, "\"workspace-write\""),
        );
    }
}

fn schema_root() -> &'static Shape {
    &super::schema::CONFIG
}

/// Check the layer `root` (a table) against `shape` (the configuration's root or an agent
/// file's), reporting into `out`; returns what it sets.
pub fn check(root: &Node, map: &Map, shape: &'static Shape, layer: Layer, out: &mut Vec<Diagnostic>) -> Settings {
    // Codex's own checks first: a finding of theirs replaces the schema's on the same span
    // (a misspelt `command` is the reason a server has no transport, not a key of its own).
    let mut special = Vec::new();
    let ignored = if layer == Layer::Project {
        user_only(map, &mut special)
    } else {
        Vec::new()
    };
    mcp_transports(map, layer, &mut special);
    legacy(map, layer, &mut special);
    efforts(map, &mut special);
    let taken: Vec<Span> = special.iter().map(|d| d.span).collect();
    let decoded = shape::decode(root, shape, Span::new(0, 0), &[]);
    let under_ignored = |path: &[String]| {
        ignored.iter().any(|i: &Vec<String>| path.starts_with(i))
            // Codex still reads a trust level it is given, to refuse an unknown one.
            && !(path.len() == 3 && path[0] == "projects" && path[2] == "trust_level")
    };
    for issue in decoded
        .issues
        .iter()
        .filter(|i| !taken.contains(&i.span) && !under_ignored(&i.path))
    {
        out.push(issue_finding(issue, layer));
    }
    let dropped_path = |d: &Dropped| [d.path.clone(), vec![d.key.name.clone()]].concat();
    for d in decoded
        .dropped
        .iter()
        .filter(|d| !taken.contains(&d.key.span) && !under_ignored(&dropped_path(d)))
    {
        if d.path.is_empty() && layer == Layer::Agent {
            // The agent file's own level refuses what it does not know (the caller reports it).
            continue;
        }
        out.push(dropped(d));
    }
    out.extend(special);
    settings(map)
}

/// "`a.b.c`" for a path of keys.
fn dotted(path: &[String]) -> String {
    path.iter()
        .map(|k| {
            if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                k.clone()
            } else {
                format!("\"{k}\"")
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn issue_finding(issue: &Issue, layer: Layer) -> Diagnostic {
    let what = format!("`{}`", dotted(&issue.path));
    let why = layer.refusal();
    let (code, message, suggestion) = match &issue.kind {
        IssueKind::Type { expected, got } => (
            Code::InvalidType,
            format!(
                "{what} must be {}, not {}: {why}",
                shape::describe(expected),
                got_text(got)
            ),
            None,
        ),
        IssueKind::Value { expected, got } => {
            let literals = shape::string_literals(expected);
            let near = got.as_str().and_then(|s| closest(s, literals.iter().copied()));
            (
                Code::InvalidValue,
                format!(
                    "{what} must be {}, not {}: {why}.{}",
                    shape::describe(expected),
                    got.display(),
                    did_you_mean(near)
                ),
                near.map(|n| (got.span, format!("\"{n}\""))),
            )
        }
        IssueKind::Number { num, got } => (
            Code::InvalidValue,
            format!("{what} must be {}, not {}: {why}", num.describe(), got.display()),
            None,
        ),
        IssueKind::Missing { object, field } => {
            let parent = dotted(&issue.path[..issue.path.len().saturating_sub(1)]);
            (
                Code::MissingField,
                format!("`{parent}` has no `{}`, which {} needs: {why}", field.name, object.what),
                None,
            )
        }
        IssueKind::NoBranch { union, got, .. } => (
            Code::InvalidType,
            format!(
                "{what} must be {}, not {}: {why}",
                shape::describe(union),
                got_text(got)
            ),
            None,
        ),
        IssueKind::Unknown { object } => (
            Code::UnknownKey,
            format!("{what} is not a field of {}: {why}", object.what),
            None,
        ),
        IssueKind::Extra { tuple } | IssueKind::MissingItem { tuple } => (
            Code::InvalidValue,
            format!("{what} must be {}: {why}", shape::describe(tuple)),
            None,
        ),
    };
    let d = layer.refuse(code, issue.span, message);
    match suggestion {
        Some((span, text)) => d.with_suggestion(span, text),
        None => d,
    }
}

/// A value's type as a message says it, with the value when short.
fn got_text(node: &Node) -> String {
    match &node.value {
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            format!("{} ({})", node.type_name(), node.display())
        }
        _ => node.type_name().to_string(),
    }
}

/// A key Codex ignores.
fn dropped(d: &Dropped) -> Diagnostic {
    let name = &d.key.name;
    let near = d.object.suggest(name);
    let at = if d.path.is_empty() {
        String::new()
    } else {
        format!(" in `{}`", dotted(&d.path))
    };
    let mut diag = Diagnostic::new(
        Code::UnknownKey,
        d.key.span,
        format!(
            "Codex does not know `{name}`{at} and ignores it without a word (only `codex --strict-config` names it).{}",
            did_you_mean(near)
        ),
    );
    if let Some(n) = near {
        diag = diag.with_suggestion(d.key.span, n);
    }
    diag
}

/// In a project's configuration: the keys only the user's file sets, each reported once; returns
/// their paths (nothing under them is checked: Codex does not read them there).
fn user_only(map: &Map, out: &mut Vec<Diagnostic>) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let said = |key: &str| {
        format!(
            "Codex ignores `{key}` in a project's config.toml (\"Ignored unsupported project-local config keys\"): only the user's `~/.codex/config.toml` sets it"
        )
    };
    for e in map.entries.iter() {
        if super::schema::USER_ONLY.contains(&e.key.name.as_str()) {
            out.push(Diagnostic::new(Code::IgnoredField, e.key.span, said(&e.key.name)));
            paths.push(vec![e.key.name.clone()]);
        }
    }
    if let Some(features) = map.value("features").and_then(Node::as_map) {
        for e in features.entries.iter() {
            if super::schema::USER_ONLY_FEATURES.contains(&e.key.name.as_str()) {
                out.push(Diagnostic::new(
                    Code::IgnoredField,
                    e.key.span,
                    said(&format!("features.{}", e.key.name)),
                ));
                paths.push(vec!["features".to_string(), e.key.name.clone()]);
            }
        }
        if let Some(x) = features.value("use_xaa")
            && x.as_bool() == Some(true)
        {
            out.push(Layer::Project.refuse(
                Code::InvalidValue,
                x.span,
                format!(
                    "`features.use_xaa = true` must be set in the user's config.toml, not a project's: {}",
                    Layer::Project.refusal()
                ),
            ));
        }
    }
    paths
}

/// Fields only a local (stdio) server takes, and fields only a remote one takes.
const STDIO_ONLY: &[&str] = &["args", "env", "env_vars", "cwd"];
const HTTP_ONLY: &[&str] = &[
    "bearer_token_env_var",
    "http_headers",
    "env_http_headers",
    "oauth_resource",
    "oauth",
];

/// Each MCP server is local (`command`) or remote (`url`), and takes only its kind's fields.
fn mcp_transports(map: &Map, layer: Layer, out: &mut Vec<Diagnostic>) {
    let Some(servers) = map.value("mcp_servers").and_then(Node::as_map) else {
        return;
    };
    for e in servers.entries.iter() {
        let Some(server) = e.value.as_map() else {
            continue;
        };
        let name = &e.key.name;
        let command = server.contains("command");
        let url = server.contains("url");
        if !command && !url {
            let near = server
                .entries
                .iter()
                .find(|f| closest(&f.key.name, ["command", "url"]).is_some());
            let mut d = layer.refuse(
                Code::MissingField,
                near.map_or(e.key.span, |f| f.key.span),
                format!(
                    "the MCP server `{name}` has neither `command` (a local server) nor `url` (a remote one), so Codex says \"invalid transport\": {}.{}",
                    layer.refusal(),
                    did_you_mean(near.and_then(|f| closest(&f.key.name, ["command", "url"])))
                ),
            );
            if let Some(f) = near
                && let Some(n) = closest(&f.key.name, ["command", "url"])
            {
                d = d.with_suggestion(f.key.span, n);
            }
            out.push(d);
            continue;
        }
        let (kind, other) = if command {
            ("a local (stdio) server, which has `command`", HTTP_ONLY)
        } else {
            ("a remote (streamable HTTP) server, which has `url`", STDIO_ONLY)
        };
        for f in server.entries.iter() {
            let k = f.key.name.as_str();
            let wrong = other.contains(&k) || (command && k == "url");
            if wrong {
                out.push(layer.refuse(
                    Code::InvalidValue,
                    f.key.span,
                    format!(
                        "`{k}` is not supported for {kind} (Codex: \"{k} is not supported for {}\"): {}",
                        if command { "stdio" } else { "streamable_http" },
                        layer.refusal()
                    ),
                ));
            }
        }
    }
}

/// Settings older releases read that 0.171.0 refuses or no longer applies.
fn legacy(map: &Map, layer: Layer, out: &mut Vec<Diagnostic>) {
    if let Some(v) = map.value("approval_policy")
        && v.as_str() == Some("untrusted")
    {
        out.push(layer.refuse(
            Code::DeprecatedField,
            v.span,
            format!(
                "`approval_policy = \"untrusted\"` is no longer supported: {}. Remove it, or choose `on-request` or `never`",
                layer.refusal()
            ),
        ));
    }
    if layer == Layer::Project {
        // The rest is about keys a project's file does not set (see `user_only`).
    } else if let Some(e) = map.get("profile") {
        out.push(
            layer.refuse(
                Code::DeprecatedField,
                e.key.span,
                format!(
                    "Codex no longer reads `profile = ...` and refuses it: {}. Put the profile's settings in `{}.config.toml` beside this file and start Codex with `--profile {}`",
                    layer.refusal(),
                    e.value.as_str().unwrap_or("<name>"),
                    e.value.as_str().unwrap_or("<name>"),
                ),
            )
            .with_fix("Remove `profile`", vec![Edit::new(line_of(e.key.span, e.value.span), "")], false),
        );
    }
    if layer != Layer::Project
        && let Some(e) = map.get("profiles")
        && let Some(profiles) = e.value.as_map()
    {
        for p in profiles.entries.iter() {
            out.push(
                Diagnostic::new(
                    Code::DeprecatedField,
                    p.key.span,
                    format!(
                        "Codex reads profiles from `<name>.config.toml` files now: `codex --profile {0}` fails while this file holds `[profiles.{0}]`. Move its settings to `{0}.config.toml`",
                        p.key.name
                    ),
                )
                .with_effect(Effect::FailsWhenUsed),
            );
        }
    }
    if map
        .get("permissions")
        .and_then(|e| e.value.as_map())
        .is_some_and(|m| !m.entries.is_empty())
        && !map.contains("default_permissions")
        && let Some(e) = map.get("permissions")
    {
        out.push(layer.refuse(
            Code::MissingField,
            e.key.span,
            format!(
                "`[permissions]` defines profiles but `default_permissions` is not set: {}. Add `default_permissions = \"<profile>\"`",
                layer.refusal()
            ),
        ));
    }
    if layer != Layer::Project
        && let Some(providers) = map.value("model_providers").and_then(Node::as_map)
    {
        for p in providers.entries.iter() {
            if let Some(w) = p.value.as_map().and_then(|m| m.value("wire_api"))
                && w.as_str() == Some("chat")
            {
                out.push(
                    layer
                        .refuse(
                            Code::DeprecatedField,
                            w.span,
                            format!(
                                "`wire_api = \"chat\"` is no longer supported (the Chat Completions API): {}. Codex speaks the Responses API: `wire_api = \"responses\"`",
                                layer.refusal()
                            ),
                        )
                        .with_suggestion(w.span, "\"responses\""),
                );
            }
        }
    }
}

/// The span of a whole `key = value` line (with its line break), for removing it.
fn line_of(key: Span, value: Span) -> Span {
    Span::new(key.start as usize, value.end as usize)
}

/// `model_reasoning_effort` (and the plan mode's) takes any string; the model's API only some.
fn efforts(map: &Map, out: &mut Vec<Diagnostic>) {
    for key in ["model_reasoning_effort", "plan_mode_reasoning_effort"] {
        let Some(v) = map.value(key) else { continue };
        let Some(s) = v.as_str() else { continue };
        if super::schema::REASONING_EFFORTS.contains(&s) {
            continue;
        }
        let near = closest(s, super::schema::REASONING_EFFORTS.iter().copied());
        let mut d = Diagnostic::new(
            Code::InvalidValue,
            v.span,
            format!(
                "Codex takes any `{key}` and sends \"{s}\" to the model, whose API knows `none`, `minimal`, `low`, `medium`, `high` and `xhigh`: the first turn fails.{}",
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Warning)
        .with_effect(Effect::FailsWhenUsed);
        if let Some(n) = near {
            d = d.with_suggestion(v.span, format!("\"{n}\""));
        }
        out.push(d);
    }
}

fn written(map: &Map, key: &str) -> Option<Written> {
    let v = map.value(key)?;
    let value = match &v.value {
        Value::Str(s) => s.clone(),
        Value::Map(_) => "granular".to_string(),
        _ => return None,
    };
    Some(Written { value, span: v.span })
}

fn settings(map: &Map) -> Settings {
    let role_decls = map
        .value("agents")
        .and_then(Node::as_map)
        .map(|m| {
            m.entries
                .iter()
                .filter_map(|e| {
                    let role = e.value.as_map()?;
                    Some(RoleDecl {
                        name: e.key.name.clone(),
                        config_file: role.value("config_file").and_then(Node::as_str).map(str::to_string),
                        description: role
                            .value("description")
                            .and_then(Node::as_str)
                            .filter(|d| !d.trim().is_empty())
                            .map(str::to_string),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Settings {
        approval_policy: written(map, "approval_policy"),
        sandbox_mode: written(map, "sandbox_mode"),
        model: written(map, "model"),
        doc_max_bytes: map.value("project_doc_max_bytes").and_then(|v| match v.value {
            Value::Int(i) => u64::try_from(i).ok(),
            _ => None,
        }),
        doc_fallbacks: map
            .value("project_doc_fallback_filenames")
            .and_then(|v| match &v.value {
                Value::Seq(items) => Some(
                    items
                        .iter()
                        .filter_map(Node::as_str)
                        .filter(|n| !n.trim().is_empty())
                        .map(str::to_string)
                        .collect(),
                ),
                _ => None,
            }),
        role_decls,
    }
}
