//! `.mcp.json` as Claude Code 2.1.332 reads it, as data (see [`crate::analysis::shape`]): the
//! file (`mcpServers`), the server of each transport (`stdio`, `sse`, `http` or
//! `streamable-http`, `ws`), their OAuth settings and per-tool policies.
//!
//! Facts: the MCP server schemas of the 2.1.332 release (zod objects: a key they do not know is
//! dropped without a word; a value they refuse makes Claude Code skip that server and load the
//! others), confirmed with `claude mcp list` on generated files (`tests/claude_runtime/mcp_json.rs`).
//! Fields the release reads with a fallback (`displayName`, `role`, `request_timeout_ms`,
//! `orgMaxPermission`: a bad value becomes "unset") never refuse a server; they are kept as
//! [`Shape::Any`] and documented as such.

use crate::analysis::shape::{Field, Lit, Num, Object, Rest, Shape};

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;
const POSITIVE_INT: Shape = Shape::Num(Num::POSITIVE_INT);

/// The longest `url` Claude Code takes (longer: "url is too long").
pub const MAX_URL: usize = 65_536;
/// The longest `oauth.authServerMetadataUrl` it takes.
pub const MAX_METADATA_URL: usize = 4_096;

/// The transports a server of `.mcp.json` may declare, as `type` values, each with its shape.
/// Without a `type` (or with one that is not a string) a server is read as `stdio`.
pub static TRANSPORTS: &[(&str, &Shape)] = &[
    ("stdio", &STDIO),
    ("sse", &SSE),
    ("http", &HTTP),
    ("streamable-http", &HTTP),
    ("ws", &WS),
];

/// `type` values Claude Code knows but refuses in a configuration file: `sdk` (only an SDK host
/// registers such a server) and `claudeai-proxy` (only claude.ai connectors use it).
pub static REFUSED_TYPES: &[(&str, &str)] = &[
    (
        "sdk",
        "in-process SDK servers are registered by the host application at start, not read from configuration files",
    ),
    (
        "claudeai-proxy",
        "only claude.ai connectors use it: connect the service at claude.ai and it appears in Claude Code, or declare it here with `\"type\": \"http\"`",
    ),
];

/// The shape Claude Code reads a server with, by its `type` (`None`: no type, or not a string).
pub fn transport(ty: Option<&str>) -> Option<&'static Shape> {
    let ty = ty.unwrap_or("stdio");
    TRANSPORTS.iter().find(|(t, _)| *t == ty).map(|(_, s)| *s)
}

/// The root: `.mcp.json`.
pub static FILE: Shape = Shape::Object(&Object {
    what: "the .mcp.json file",
    fields: &[
        Field::opt(
            "$schema",
            STR,
            "A JSON Schema for editors. Claude Code does not read it.",
        ),
        Field::req(
            "mcpServers",
            Shape::Record(&SERVER),
            "The project's MCP servers, by name. Each is a local server (`command`, `args`, `env`) or a remote one (`type` `http`, `sse` or `ws` with a `url`). Claude Code asks each user to approve them before it starts them (`enabledMcpjsonServers`, `enableAllProjectMcpServers` in the settings). A server it cannot read is skipped and the others load; a file without `mcpServers` loads none.",
        )
        .aka(&["servers", "mcp", "mcp_servers", "mcpservers", "context_servers"]),
    ],
    rest: Rest::Drop,
});

/// Any server, for completion and hover (decoding picks one transport by `type`).
pub static SERVER: Shape = Shape::Union(&[
    Shape::Object(&STDIO_SERVER),
    Shape::Object(&SSE_SERVER),
    Shape::Object(&HTTP_SERVER),
    Shape::Object(&WS_SERVER),
]);

const COMMAND_DOC: &str = "The program that runs the server, started with `args`. `${VAR}` and `${VAR:-default}` are replaced with environment variables.";
const ARGS_DOC: &str =
    "The program's arguments, one string each. `${VAR}` and `${VAR:-default}` are replaced with environment variables.";
const ENV_DOC: &str = "Environment variables for the server (added to Claude Code's own), each a string. `${VAR}` and `${VAR:-default}` in a value are replaced with Claude Code's environment variables.";
const URL_DOC: &str = "The server's address. `${VAR}` and `${VAR:-default}` are replaced with environment variables (a variable that holds a credential is not sent to a remote server: it is read as empty).";
const HEADERS_DOC: &str = "HTTP headers sent with every request, each a string (`\"Authorization\": \"Bearer ${TOKEN}\"`). `${VAR}` and `${VAR:-default}` are replaced with environment variables.";
const HEADERS_HELPER_DOC: &str =
    "A command that prints a JSON object of headers (a short-lived token, say), run before connecting.";
const TIMEOUT_DOC: &str = "How long a tool call may take, in milliseconds: a whole number greater than 0.";
const ALWAYS_LOAD_DOC: &str =
    "`true`: the server's tools are always in the model's context, even when tool search would defer them.";
const BARE_ELICITATION_DOC: &str =
    "`true`: announce the bare elicitation capability to the server (no form or URL modes).";
const ROLE_DOC: &str =
    "Internal: `\"comms\"` marks the server a coordinator uses to reach the user. Any other value is read as unset.";
const TYPE_STDIO_DOC: &str = "The transport: `stdio` (the default), `sse`, `http` (`streamable-http` is the same), or `ws`. Another value, or `sdk` or `claudeai-proxy`, makes Claude Code skip the server.";

const fn type_field(values: &'static [Lit], required: bool) -> Field {
    if required {
        Field::req("type", Shape::Lit(values), TYPE_STDIO_DOC)
    } else {
        Field::opt("type", Shape::Lit(values), TYPE_STDIO_DOC)
    }
}

/// A local server: a program Claude Code starts and talks to over stdin and stdout.
pub static STDIO: Shape = Shape::Object(&STDIO_SERVER);

pub static STDIO_SERVER: Object = Object {
    what: "a local (stdio) MCP server",
    fields: &[
        type_field(&[Lit::Str("stdio")], false).aka(&["transport", "transportType"]),
        Field::req("command", Shape::Pattern(non_empty, "a non-empty string"), COMMAND_DOC).aka(&[
            "cmd",
            "executable",
            "program",
        ]),
        Field::opt("args", Shape::Array(&STR), ARGS_DOC).aka(&["arguments", "argv"]),
        Field::opt("env", Shape::Record(&STR), ENV_DOC).aka(&["environment", "envs", "envVars"]),
        Field::opt("timeout", POSITIVE_INT, TIMEOUT_DOC),
        Field::opt("alwaysLoad", BOOL, ALWAYS_LOAD_DOC),
        Field::opt("bareElicitationCapability", BOOL, BARE_ELICITATION_DOC),
        Field::opt("role", Shape::Any, ROLE_DOC),
    ],
    rest: Rest::Drop,
};

macro_rules! remote_fields {
    ($values:expr) => {
        &[
            type_field($values, true).aka(&["transport", "transportType"]),
            Field::req(
                "url",
                Shape::Pattern(url_length, "a string of at most 65536 characters"),
                URL_DOC,
            )
            .aka(&["serverUrl", "httpUrl", "uri", "endpoint"]),
            Field::opt("headers", Shape::Record(&STR), HEADERS_DOC),
            Field::opt("headersHelper", STR, HEADERS_HELPER_DOC),
            Field::opt("oauth", Shape::Object(&OAUTH), "OAuth settings of the server: `clientId`, `callbackPort`, `authServerMetadataUrl`, `scopes`, `xaa`. These strings are used as written (no `${VAR}`)."),
            Field::opt("timeout", POSITIVE_INT, TIMEOUT_DOC),
            Field::opt("request_timeout_ms", Shape::Any, "Internal: a request timeout in milliseconds, used as `timeout` (at most 300000) when `timeout` is not set. A value that is not a whole number greater than 0 is read as unset."),
            Field::opt("tools", Shape::Array(&TOOL), "Per-tool settings: `{\"name\": ..., \"permission_policy\": \"always_allow\" | \"always_ask\" | \"always_deny\"}`."),
            Field::opt("alwaysLoad", BOOL, ALWAYS_LOAD_DOC),
            Field::opt("displayName", Shape::Any, "The name shown for the server. A value that is not a string is read as unset."),
            Field::opt("bareElicitationCapability", BOOL, BARE_ELICITATION_DOC),
            Field::opt("discoveryCache", BOOL, "`true`: cache what the server offers (tools, prompts, resources) between sessions."),
            Field::opt("role", Shape::Any, ROLE_DOC),
            Field::opt(
                "toolPermissions",
                Shape::Record(&TOOL_PERMISSION),
                "A permission for each tool by name: `allow`, `ask` or `blocked`.",
            ),
            Field::opt("orgMaxPermission", Shape::Any, "Internal: set by an organization's policy. Any value is accepted."),
        ]
    };
}

/// A server over Server-Sent Events.
pub static SSE: Shape = Shape::Object(&SSE_SERVER);

pub static SSE_SERVER: Object = Object {
    what: "a remote (sse) MCP server",
    fields: remote_fields!(&[Lit::Str("sse")]),
    rest: Rest::Drop,
};

/// A server over streamable HTTP (`streamable-http` is read as `http`).
pub static HTTP: Shape = Shape::Object(&HTTP_SERVER);

pub static HTTP_SERVER: Object = Object {
    what: "a remote (http) MCP server",
    fields: remote_fields!(&[Lit::Str("http"), Lit::Str("streamable-http")]),
    rest: Rest::Drop,
};

/// A server over a WebSocket.
pub static WS: Shape = Shape::Object(&WS_SERVER);

pub static WS_SERVER: Object = Object {
    what: "a remote (ws) MCP server",
    fields: &[
        type_field(&[Lit::Str("ws")], true).aka(&["transport", "transportType"]),
        Field::req(
            "url",
            Shape::Pattern(url_length, "a string of at most 65536 characters"),
            URL_DOC,
        )
        .aka(&["serverUrl", "uri", "endpoint"]),
        Field::opt("headers", Shape::Record(&STR), HEADERS_DOC),
        Field::opt("headersHelper", STR, HEADERS_HELPER_DOC),
        Field::opt("timeout", POSITIVE_INT, TIMEOUT_DOC),
        Field::opt("alwaysLoad", BOOL, ALWAYS_LOAD_DOC),
        Field::opt("bareElicitationCapability", BOOL, BARE_ELICITATION_DOC),
        Field::opt("role", Shape::Any, ROLE_DOC),
    ],
    rest: Rest::Drop,
};

/// `oauth` of a remote server.
pub static OAUTH: Object = Object {
    what: "the OAuth settings",
    fields: &[
        Field::opt(
            "clientId",
            STR,
            "A pre-registered OAuth client id (otherwise Claude Code registers itself with the server).",
        )
        .aka(&["client_id", "clientID"]),
        Field::opt(
            "callbackPort",
            POSITIVE_INT,
            "The local port of the OAuth redirect: a whole number greater than 0.",
        )
        .aka(&["port", "redirectPort"]),
        Field::opt(
            "authServerMetadataUrl",
            Shape::Pattern(https_metadata_url, "an `https://` URL of at most 4096 characters"),
            "The authorization server's metadata URL, when discovery does not find it: an `https://` URL.",
        ),
        Field::opt(
            "scopes",
            Shape::Pattern(non_empty, "a non-empty string"),
            "The OAuth scopes to ask for, space-separated.",
        )
        .aka(&["scope"]),
        Field::opt(
            "xaa",
            BOOL,
            "`true`: sign in through the organization's identity provider (cross-app access).",
        ),
    ],
    rest: Rest::Drop,
};

fn non_empty(s: &str) -> bool {
    !s.is_empty()
}

/// Lengths as JavaScript counts them (UTF-16 code units).
fn js_len(s: &str) -> usize {
    s.encode_utf16().count()
}

fn url_length(s: &str) -> bool {
    js_len(s) <= MAX_URL
}

/// An `https://` URL with a host, of at most [`MAX_METADATA_URL`] characters.
fn https_metadata_url(s: &str) -> bool {
    js_len(s) <= MAX_METADATA_URL
        && s.strip_prefix("https://").is_some_and(|rest| {
            rest.chars().next().is_some_and(|c| !matches!(c, '/' | '?' | '#')) && !rest.contains(char::is_whitespace)
        })
}

/// An item of `tools`.
static TOOL: Shape = Shape::Object(&Object {
    what: "a tool's settings",
    fields: &[
        Field::req("name", STR, "The tool's name, as the server lists it."),
        Field::opt(
            "permission_policy",
            Shape::Lit(&[
                Lit::Str("always_allow"),
                Lit::Str("always_ask"),
                Lit::Str("always_deny"),
            ]),
            "Whether Claude Code may call the tool without asking: `always_allow`, `always_ask` or `always_deny`.",
        ),
    ],
    rest: Rest::Drop,
});

static TOOL_PERMISSION: Shape = Shape::Lit(&[Lit::Str("allow"), Lit::Str("ask"), Lit::Str("blocked")]);

/// Fields Claude Code reads that completion does not offer (internal ones).
pub const INTERNAL: &[&str] = &[
    "role",
    "request_timeout_ms",
    "orgMaxPermission",
    "bareElicitationCapability",
];

/// The names of object keys Claude Code refuses as server names before it reads them (they are
/// properties of every JavaScript object).
pub const PROTO_NAMES: &[&str] = &[
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
];

/// Server names Claude Code keeps for its own servers: a server of `.mcp.json` whose name is one
/// of these once written as a tool prefix (see [`tool_prefix`]) is not loaded. (Its hosted
/// sessions reserve a few more.)
pub const RESERVED: &[&str] = &[
    "Slack sign-in (Claude Code tag)",
    "hearthbot",
    "remote-devices",
    "claude_ai",
    "ccr-email",
    "webagent",
    "claude-code-remote",
    "Claude_Preview",
    "Claude_Browser",
    "claude-in-chrome",
    "Claude_in_Chrome",
    "computer-use",
    "workspace",
    "claude-device",
];

/// The name of a server as its tools are named (`mcp__<prefix>__<tool>`): every character other
/// than an ASCII letter, a digit, `_` or `-` becomes `_`.
pub fn tool_prefix(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A server name Claude Code does not load from `.mcp.json`.
pub fn is_reserved(name: &str) -> bool {
    if PROTO_NAMES.contains(&name) || name == RESERVED[0] {
        return true;
    }
    let prefix = tool_prefix(name);
    RESERVED[1..].contains(&prefix.as_str())
}

#[cfg(test)]
mod tests;
