//! A Gemini CLI subagent: a Markdown file directly in `.gemini/agents/` (or the user's
//! `~/.gemini/agents/`), not starting with `_`. Its YAML frontmatter says what the agent is; its
//! body is the agent's system prompt.
//!
//! Gemini CLI 0.61.0 validates the frontmatter with a zod union: a local agent (`name`, a slug;
//! `description`, not empty; `tools`, `mcp_servers`, `model`, `temperature`, `max_turns`,
//! `timeout_mins`, `display_name`; `kind: local`, the default) or a remote one (`kind: remote`,
//! `agent_card_url` or `agent_card_json`, `auth`). Both refuse a key they do not have. A file
//! that breaks any of it is not loaded: "Agent loading error: Failed to load agent from ...:
//! Validation failed: Agent Definition: (Local Agent) name: Name must be a valid slug ...", the
//! branch named being the one the keys written point at. A file without a frontmatter, or whose
//! YAML does not parse, is not loaded either.

use super::words::got_text;
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::shape::{self, Bound, Field, Issue, IssueKind, Lit, Num, Object, Rest, Shape};
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Node, Parsed, Value, frontmatter, yaml};
use crate::analysis::text::Span;

/// What an agent file defines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentDecl {
    pub name: Option<String>,
    /// Where `name`'s value is written.
    pub name_span: Option<Span>,
    pub description: Option<String>,
    /// `local` or `remote`.
    pub remote: bool,
    /// Whether Gemini CLI loads it (nothing in the file stops it).
    pub loads: bool,
}

/// Gemini CLI's built-in agents, with the descriptions it gives the model.
pub const BUILT_IN: &[(&str, &str)] = &[
    (
        "codebase_investigator",
        "The specialized tool for codebase analysis, architectural mapping, and understanding system-wide dependencies.",
    ),
    (
        "cli_help",
        "Specialized agent for answering questions about the Gemini CLI application.",
    ),
    ("generalist", "A general-purpose AI agent with access to all tools."),
];

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn not_empty(s: &str) -> bool {
    !s.is_empty()
}

/// A URL as zod's `.url()` takes it: `new URL(s)` parses (a scheme, then anything).
fn is_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && (!matches!(
            scheme.to_ascii_lowercase().as_str(),
            "http" | "https" | "ws" | "wss" | "ftp" | "file"
        ) || rest
            .trim_start_matches('/')
            .split(['/', '?', '#'])
            .next()
            .is_some_and(|h| !h.is_empty())
            || scheme.eq_ignore_ascii_case("file"))
}

fn is_json(s: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(s).is_ok()
}

/// Whether Gemini CLI takes `name` in an agent's `tools` (`isValidToolName` with wildcards).
pub fn valid_tool(name: &str) -> bool {
    use super::tool_names::{BUILT_IN, DISCOVERED_PREFIX, LEGACY, MCP_PREFIX};
    if BUILT_IN.contains(&name)
        || LEGACY.iter().any(|(old, _)| *old == name)
        || name.starts_with(DISCOVERED_PREFIX)
        || name == "*"
    {
        return true;
    }
    let Some(rest) = name.strip_prefix(MCP_PREFIX) else {
        return false;
    };
    if rest == "*" {
        return true;
    }
    if rest.starts_with('_') {
        return false;
    }
    // `mcp_<server>_<tool>`: the server is what comes before the first `_`.
    let Some((server, tool)) = rest.split_once('_') else {
        return false;
    };
    let slug = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
    };
    if server.is_empty() || !slug(server) {
        return false;
    }
    tool == "*" || (!tool.chars().all(|c| c == '_') && slug(tool))
}

const SLUG: Shape = Shape::Pattern(is_slug, "a slug (lowercase letters, digits, `-` and `_`)");
const NOT_EMPTY: Shape = Shape::Pattern(not_empty, "a string that is not empty");
const URL: Shape = Shape::Pattern(is_url, "a URL");
const JSON_TEXT: Shape = Shape::Pattern(is_json, "a string of valid JSON");
const TOOL: Shape = Shape::Pattern(valid_tool, "a tool Gemini CLI knows");
const POSITIVE: Shape = Shape::Num(Num {
    int: true,
    min: Bound::Excl(0.0),
    max: None,
});
const STRS: Shape = Shape::Array(&Shape::Str);
/// `z.undefined()`: any value written is refused.
const NOTHING: Shape = Shape::Pattern(|_| false, "left out");

/// Authentication with the user's Google credentials.
const GOOGLE_CREDENTIALS: Shape = Shape::Object(&Object {
    what: "Google credentials",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("google-credentials")]),
            "The kind of authentication.",
        ),
        Field::opt("scopes", STRS, "OAuth scopes."),
    ],
    rest: Rest::Drop,
});

/// OAuth authentication.
const OAUTH: Shape = Shape::Object(&Object {
    what: "OAuth",
    fields: &[
        Field::req("type", Shape::Lit(&[Lit::Str("oauth")]), "The kind of authentication."),
        Field::opt("client_id", Shape::Str, "OAuth client id."),
        Field::opt("client_secret", Shape::Str, "OAuth client secret."),
        Field::opt("scopes", STRS, "OAuth scopes."),
        Field::opt("authorization_url", URL, "Authorization endpoint."),
        Field::opt("token_url", URL, "Token endpoint."),
        Field::opt("issuer", URL, "Issuer."),
        Field::opt("audiences", STRS, "Audiences."),
        Field::opt("redirect_uri", URL, "Redirect URI."),
        Field::opt("token_param_name", Shape::Str, "Token parameter name."),
        Field::opt("registration_url", URL, "Dynamic client registration endpoint."),
    ],
    rest: Rest::Drop,
});

const MCP_AUTH: Shape = Shape::Union(&[GOOGLE_CREDENTIALS, OAUTH]);

const MCP_SERVER: Shape = Shape::Object(&Object {
    what: "an agent's MCP server",
    fields: &[
        Field::opt("command", Shape::Str, "Executable invoked for the stdio transport."),
        Field::opt("args", STRS, "Command-line arguments."),
        Field::opt(
            "env",
            Shape::Record(&Shape::Str),
            "Environment variables of the server process.",
        ),
        Field::opt("cwd", Shape::Str, "Working directory of the server process."),
        Field::opt("url", Shape::Str, "URL of an SSE or HTTP server."),
        Field::opt("http_url", Shape::Str, "Streaming HTTP URL."),
        Field::opt("headers", Shape::Record(&Shape::Str), "HTTP headers."),
        Field::opt("tcp", Shape::Str, "TCP address for the websocket transport."),
        Field::opt(
            "type",
            Shape::Lit(&[Lit::Str("sse"), Lit::Str("http")]),
            "Transport of a `url`.",
        ),
        Field::opt(
            "timeout",
            Shape::Num(Num::ANY),
            "Timeout of a request, in milliseconds.",
        ),
        Field::opt("trust", Shape::Bool, "Whether its tools run without asking."),
        Field::opt("description", Shape::Str, "What the server is for."),
        Field::opt("include_tools", STRS, "The only tools of the server the agent gets."),
        Field::opt("exclude_tools", STRS, "Tools of the server the agent does not get."),
        Field::opt("auth", MCP_AUTH, "How the agent authenticates to the server."),
    ],
    // A plain `z.object`: a key it does not have is dropped without a word.
    rest: Rest::Drop,
});

/// A local agent's frontmatter.
pub const LOCAL: Object = Object {
    what: "a Gemini CLI agent",
    fields: &[
        Field::opt(
            "kind",
            Shape::Lit(&[Lit::Str("local")]),
            "`local` (the default) or `remote`.",
        ),
        Field::req(
            "name",
            SLUG,
            "The agent's name, a slug: the model invokes it by this name.",
        ),
        Field::req(
            "description",
            NOT_EMPTY,
            "What the agent is for: the model reads it to choose the agent.",
        ),
        Field::opt("display_name", Shape::Str, "The name shown in the terminal."),
        Field::opt(
            "tools",
            Shape::Array(&TOOL),
            "The tools the agent may use (built-in names, `*`, `mcp_*`, `mcp_<server>_*`, `mcp_<server>_<tool>`); without it, the tools of the session.",
        ),
        Field::opt(
            "mcp_servers",
            Shape::Record(&MCP_SERVER),
            "MCP servers of this agent only.",
        ),
        Field::opt(
            "model",
            Shape::Str,
            "The model it runs on; `inherit` (the default) is the session's.",
        ),
        Field::opt("temperature", Shape::Num(Num::ANY), "The model's temperature."),
        Field::opt(
            "max_turns",
            POSITIVE,
            "At most this many turns (a whole number above 0).",
        ),
        Field::opt(
            "timeout_mins",
            POSITIVE,
            "At most this many minutes (a whole number above 0).",
        ),
    ],
    rest: Rest::Refuse,
};

const REMOTE_AUTH: Shape = Shape::Union(&[
    Shape::Object(&Object {
        what: "API key authentication",
        fields: &[
            Field::req("type", Shape::Lit(&[Lit::Str("apiKey")]), "The kind of authentication."),
            Field::req("key", NOT_EMPTY, "The API key."),
            Field::opt("name", Shape::Str, "The header or parameter name."),
        ],
        rest: Rest::Drop,
    }),
    Shape::Object(&Object {
        what: "HTTP authentication",
        fields: &[
            Field::req("type", Shape::Lit(&[Lit::Str("http")]), "The kind of authentication."),
            Field::req(
                "scheme",
                NOT_EMPTY,
                "`Bearer`, `Basic`, or another scheme with `value`.",
            ),
            Field::opt("token", NOT_EMPTY, "The bearer token."),
            Field::opt("username", NOT_EMPTY, "The user of Basic authentication."),
            Field::opt("password", NOT_EMPTY, "The password of Basic authentication."),
            Field::opt("value", NOT_EMPTY, "The credentials of another scheme."),
        ],
        rest: Rest::Drop,
    }),
    GOOGLE_CREDENTIALS,
    OAUTH,
]);

/// A remote agent's frontmatter that points at its agent card.
pub const REMOTE_URL: Object = Object {
    what: "a remote Gemini CLI agent",
    fields: &[
        Field::opt("kind", Shape::Lit(&[Lit::Str("remote")]), "`remote`: an A2A agent."),
        Field::req("name", SLUG, "The agent's name, a slug."),
        Field::opt("description", Shape::Str, "What the agent is for."),
        Field::opt("display_name", Shape::Str, "The name shown in the terminal."),
        Field::opt("auth", REMOTE_AUTH, "How Gemini CLI authenticates to the agent."),
        Field::req("agent_card_url", URL, "Where the agent's A2A card is."),
        Field::opt(
            "agent_card_json",
            NOTHING,
            "The agent card itself (instead of `agent_card_url`).",
        ),
    ],
    rest: Rest::Refuse,
};

/// A remote agent's frontmatter that holds its agent card.
pub const REMOTE_JSON: Object = Object {
    what: "a remote Gemini CLI agent",
    fields: &[
        Field::opt("kind", Shape::Lit(&[Lit::Str("remote")]), "`remote`: an A2A agent."),
        Field::req("name", SLUG, "The agent's name, a slug."),
        Field::opt("description", Shape::Str, "What the agent is for."),
        Field::opt("display_name", Shape::Str, "The name shown in the terminal."),
        Field::opt("auth", REMOTE_AUTH, "How Gemini CLI authenticates to the agent."),
        Field::opt(
            "agent_card_url",
            NOTHING,
            "Where the agent's A2A card is (instead of `agent_card_json`).",
        ),
        Field::req("agent_card_json", JSON_TEXT, "The agent's A2A card, as a JSON string."),
    ],
    rest: Rest::Refuse,
};

const LOCAL_KEYS: &[&str] = &[
    "tools",
    "mcp_servers",
    "model",
    "temperature",
    "max_turns",
    "timeout_mins",
];
const REMOTE_KEYS: &[&str] = &["agent_card_url", "auth", "agent_card_json"];

/// The kind of agent the frontmatter `map` is meant to be, as Gemini CLI guesses it to choose
/// which errors it prints (`kind`, else the keys only one kind has): the schema it is held to.
fn intended(map: &crate::analysis::syntax::Map) -> &'static Shape {
    let remote = match map.value("kind").and_then(Node::as_str) {
        Some("remote") => true,
        Some("local") => false,
        _ => {
            let local = LOCAL_KEYS.iter().any(|k| map.contains(k));
            let remote = REMOTE_KEYS.iter().any(|k| map.contains(k));
            remote && !local
        }
    };
    if !remote {
        &LOCAL_SHAPE
    } else if map.contains("agent_card_json") && !map.contains("agent_card_url") {
        &REMOTE_JSON_SHAPE
    } else {
        &REMOTE_URL_SHAPE
    }
}

static LOCAL_SHAPE: Shape = Shape::Object(&LOCAL);
static REMOTE_URL_SHAPE: Shape = Shape::Object(&REMOTE_URL);
static REMOTE_JSON_SHAPE: Shape = Shape::Object(&REMOTE_JSON);

/// What Gemini CLI does with an agent file it refuses: it prints "Agent loading error: Failed to
/// load agent from ...", with zod's messages, and goes on without the agent.
const DROPPED: &str = "Gemini CLI does not load this agent (\"Agent loading error\")";
const NOT_LOADED: &str = "Gemini CLI does not load this agent";

fn error(code: Code, span: Span, message: String) -> Diagnostic {
    Diagnostic::new(code, span, message)
        .with_severity(Severity::Error)
        .with_effect(Effect::FileIgnored)
}

/// Check an agent file: what it defines and why Gemini CLI would not load it.
pub fn check(text: &str) -> (Vec<Diagnostic>, Parsed, AgentDecl) {
    let mut out = Vec::new();
    let mut decl = AgentDecl::default();
    let split = frontmatter::split(text);
    let Some(fm) = split
        .frontmatter
        .filter(|f| f.close.is_some() && !text.starts_with('\u{feff}'))
    else {
        out.push(error(
            Code::NoFrontmatter,
            crate::analysis::text::first_line(text),
            format!("{DROPPED}: an agent file must start with a YAML frontmatter between `---` lines (\"Missing mandatory YAML frontmatter\")"),
        ));
        return (out, Parsed::default(), decl);
    };
    let parsed = yaml::parse(
        &text[fm.yaml.start as usize..fm.yaml.end as usize],
        fm.yaml.start as usize,
    );
    for e in &parsed.errors {
        out.push(error(
            Code::SyntaxError,
            e.span,
            format!("{}: {DROPPED}: its frontmatter is not valid YAML", e.message),
        ));
    }
    for d in &parsed.duplicates {
        out.push(error(
            Code::DuplicateKey,
            d.duplicate,
            format!(
                "`{}` is written twice: {DROPPED}: its YAML reader refuses a duplicated key",
                d.name
            ),
        ));
    }
    if !out.is_empty() {
        return (out, parsed, decl);
    }
    let Some(root) = &parsed.root else {
        return (out, parsed, decl);
    };
    let Some(map) = root.as_map() else {
        if !root.is_unknown() && !matches!(root.value, Value::Seq(_)) {
            out.push(error(
                Code::InvalidType,
                root.span,
                format!(
                    "{DROPPED}: its frontmatter must be a mapping of fields, not {}",
                    root.type_name()
                ),
            ));
        }
        return (out, parsed, decl);
    };
    let schema = intended(map);
    let decoded = shape::decode(root, schema, fm.open, &[]);
    for issue in &decoded.issues {
        let d = match tools_as_one_string(issue) {
            Some(d) => d,
            None => finding(issue),
        };
        out.push(decoded.finding(issue, d));
    }
    for d in &decoded.dropped {
        if decoded.misspelt(d) {
            continue;
        }
        let near = d.object.suggest(&d.key.name);
        let mut diag = Diagnostic::new(
            Code::UnknownKey,
            d.key.span,
            format!(
                "Gemini CLI has no field `{}` in {} (`{}`) and drops it without a word.{}",
                d.key.name,
                d.object.what,
                d.path.join("."),
                did_you_mean(near)
            ),
        );
        if let Some(n) = near {
            diag = diag.with_suggestion(d.key.span, n);
        }
        out.push(diag);
    }
    decl.name = map.value("name").and_then(Node::as_str).map(str::to_string);
    decl.name_span = map.value("name").map(|n| n.span);
    decl.description = map.value("description").and_then(Node::as_str).map(str::to_string);
    decl.remote = !std::ptr::eq(schema, &LOCAL_SHAPE);
    decl.loads = !out.iter().any(|d| d.severity == Severity::Error);
    // Registered after the built-in agents: one of a built-in's name is ignored.
    if decl.loads
        && let (Some(name), Some(span)) = (&decl.name, decl.name_span)
        && BUILT_IN.iter().any(|(n, _)| n == name)
    {
        out.push(error(
            Code::DuplicateAgent,
            span,
            format!(
                "Gemini CLI has a built-in agent `{name}`, registered first: it ignores this one (\"Duplicate agent name '{name}' detected. The later definition will be ignored\"). Give it another name"
            ),
        ));
        decl.loads = false;
    }
    (out, parsed, decl)
}

/// Claude Code's tool names and Gemini CLI's for the same tool: a `tools` written for Claude
/// Code gets its Gemini CLI names.
const CLAUDE_TOOLS: &[(&str, &str)] = &[
    ("Read", "read_file"),
    ("Write", "write_file"),
    ("Edit", "replace"),
    ("MultiEdit", "replace"),
    ("Grep", "grep_search"),
    ("Glob", "glob"),
    ("LS", "list_directory"),
    ("Bash", "run_shell_command"),
    ("WebFetch", "web_fetch"),
    ("WebSearch", "google_web_search"),
    ("TodoWrite", "write_todos"),
];

/// `tools: Read, Grep` (one string, as Claude Code writes it): said as such, with the list of
/// Gemini CLI's names as the fix when each name has one.
fn tools_as_one_string(issue: &Issue) -> Option<Diagnostic> {
    let IssueKind::Type { got, .. } = &issue.kind else {
        return None;
    };
    if issue.path != ["tools"] {
        return None;
    }
    let s = got.as_str()?;
    let names: Vec<&str> = s.split([',', ' ']).map(str::trim).filter(|n| !n.is_empty()).collect();
    let mapped: Option<Vec<&str>> = names
        .iter()
        .map(|n| {
            if valid_tool(n) {
                Some(*n)
            } else {
                CLAUDE_TOOLS.iter().find(|(c, _)| c == n).map(|(_, g)| *g)
            }
        })
        .collect();
    let claude = names.iter().any(|n| CLAUDE_TOOLS.iter().any(|(c, _)| c == n));
    let mut message = format!(
        "`tools` must be a list of tool names (`[read_file, grep_search]`), not one string ({}): {DROPPED}",
        got.display()
    );
    if claude {
        message.push_str(". These are Claude Code's names; Gemini CLI's differ");
    }
    let d = error(Code::InvalidType, got.span, message);
    Some(match mapped {
        Some(mut list) => {
            list.dedup();
            let fix = format!("[{}]", list.join(", "));
            d.with_fix(
                format!("Write `tools: {fix}`"),
                vec![crate::analysis::diagnostic::Edit::new(got.span, fix)],
                false,
            )
        }
        None => d,
    })
}

/// The words of a refused value.
fn finding(issue: &Issue) -> Diagnostic {
    let what = format!("`{}`", issue.path.join("."));
    let (code, message, suggestion) = match &issue.kind {
        IssueKind::Type { expected, got }
        | IssueKind::NoBranch {
            union: expected, got, ..
        } => (
            Code::InvalidType,
            format!(
                "{what} must be {}, not {}: {DROPPED}",
                shape::describe(expected),
                got_text(got)
            ),
            None,
        ),
        IssueKind::Value { expected, got } => {
            let (code, near) = match (issue.path.as_slice(), expected) {
                ([name], _) if name == "name" => (Code::InvalidName, got.as_str().map(slugged)),
                (_, Shape::Pattern(..)) if issue.path.first().is_some_and(|p| p == "tools") => (
                    Code::UnknownTool,
                    got.as_str()
                        .and_then(|s| closest(s, super::tool_names::BUILT_IN.iter().copied()))
                        .map(str::to_string),
                ),
                _ => (
                    Code::InvalidValue,
                    got.as_str()
                        .and_then(|s| closest(s, shape::string_literals(expected).iter().copied()))
                        .map(str::to_string),
                ),
            };
            let message = match code {
                Code::UnknownTool => format!(
                    "`tools` names {}, which is no tool Gemini CLI knows: {NOT_LOADED} (\"Invalid tool name\").{}",
                    got.display(),
                    did_you_mean(near.as_deref())
                ),
                Code::InvalidName => format!(
                    "the name {} is not a slug (lowercase letters, digits, `-` and `_`): {NOT_LOADED} (\"Name must be a valid slug\").{}",
                    got.display(),
                    did_you_mean(near.as_deref())
                ),
                _ => format!(
                    "{what} must be {}, not {}: {DROPPED}.{}",
                    shape::describe(expected),
                    got.display(),
                    did_you_mean(near.as_deref())
                ),
            };
            (code, message, near.map(|n| (got.span, n)))
        }
        IssueKind::Number { num, got } => (
            Code::InvalidValue,
            format!("{what} must be {}, not {}: {DROPPED}", num.describe(), got.display()),
            None,
        ),
        IssueKind::Missing { object: o, field } => {
            let parent = issue.path[..issue.path.len().saturating_sub(1)].join(".");
            let whose = if parent.is_empty() {
                "this agent".to_string()
            } else {
                format!("`{parent}`")
            };
            (
                Code::MissingField,
                format!("{whose} has no `{}`, which {} needs: {DROPPED}", field.name, o.what),
                None,
            )
        }
        IssueKind::Unknown { object: o } => {
            let key = issue.path.last().map(String::as_str).unwrap_or_default();
            let near = o.suggest(key);
            (
                Code::UnknownKey,
                format!(
                    "`{key}` is not a field of {}: {NOT_LOADED} (\"Unrecognized key(s) in object: '{key}'\").{}",
                    o.what,
                    did_you_mean(near)
                ),
                near.map(|n| (issue.span, n.to_string())),
            )
        }
        IssueKind::Extra { tuple } | IssueKind::MissingItem { tuple } => (
            Code::InvalidValue,
            format!("{what} must be {}: {DROPPED}", shape::describe(tuple)),
            None,
        ),
    };
    let d = error(code, issue.span, message);
    match suggestion {
        Some((span, text)) => d.with_suggestion(span, text),
        None => d,
    }
}

/// A name made a slug: lower case, other characters as `-`.
fn slugged(name: &str) -> String {
    let s: String = name
        .trim()
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    s.trim_matches('-').to_string()
}

#[cfg(test)]
mod tests;
