//! The whole of `opencode.json(c)` as opencode 1.18.34 decodes it, as data (see
//! [`crate::analysis::shape`]): every section, its fields, their types, bounds and values,
//! which objects drop unknown keys (all of the plain ones: opencode decodes with excess keys
//! ignored) and which keep them (provider `options`, model `options` and `variants`).
//!
//! Facts: the config schema of the 1.18.34 release (`shared/spec/opencode-config.schema.json`,
//! generated from it; a test holds this table to it field by field) and the runtime itself
//! where the two differ (`tests/runtime`'s config fuzzer): the V2 spellings it converts, the
//! custom LSP servers it drops without `extensions`. Agents, permissions, `tools`, commands and
//! the `model` keys are [`Shape::Custom`]: their own rules (`agent.rs`, `permission.rs`,
//! `config.rs`) check them.

use crate::analysis::shape::{Field, Lit, Num, Object, Rest, Shape};

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;
const NUMBER: Shape = Shape::Num(Num::ANY);
const POSITIVE_INT: Shape = Shape::Num(Num::POSITIVE_INT);
const NON_NEGATIVE_INT: Shape = Shape::Num(Num::NON_NEGATIVE_INT);
const STRINGS: Shape = Shape::Array(&STR);
const STRING_MAP: Shape = Shape::Record(&STR);
const ANY_MAP: Shape = Shape::Record(&Shape::Any);

/// The root: `opencode.json(c)`.
pub static CONFIG: Shape = Shape::Object(&Object {
    what: "the opencode configuration",
    fields: TOP,
    rest: Rest::Drop,
});

static TOP: &[Field] = &[
    Field::opt(
        "$schema",
        STR,
        "The JSON Schema of this file, for editors. opencode writes `https://opencode.ai/config.json` here when the key is missing.",
    ),
    Field::opt(
        "shell",
        STR,
        "The shell the terminal and the `bash` tool run commands in (default: the user's shell).",
    ),
    Field::opt(
        "logLevel",
        Shape::Lit(&[Lit::Str("DEBUG"), Lit::Str("INFO"), Lit::Str("WARN"), Lit::Str("ERROR")]),
        "How much opencode logs: `DEBUG`, `INFO`, `WARN` or `ERROR` (upper case).",
    ),
    Field::opt(
        "server",
        Shape::Object(&SERVER),
        "Where `opencode serve` and `opencode web` listen: port, hostname, mDNS, CORS.",
    ),
    Field::opt(
        "command",
        Shape::Record(&Shape::Object(&COMMAND)),
        "Custom commands by name, run as `/name`: `template` (required), `description`, `agent`, `model`, `variant`, `subtask`.",
    )
    .aka(&["commands"]),
    Field::opt(
        "skills",
        Shape::Object(&SKILLS),
        "Where to find more skills: `paths` (folders) and `urls` (skill indexes to download).",
    ),
    Field::opt(
        "references",
        Shape::Record(&REFERENCE),
        "Named folders or git repositories the agents may consult: a path or URL string, `{repository, branch}` or `{path}`. Their folders are readable without asking.",
    ),
    Field::opt(
        "reference",
        Shape::Record(&REFERENCE),
        "Deprecated spelling of `references` (read only when `references` is absent).",
    )
    .deprecated("references"),
    Field::opt(
        "watcher",
        Shape::Object(&WATCHER),
        "The file watcher: `ignore` lists globs whose changes opencode does not watch.",
    ),
    Field::opt(
        "snapshot",
        BOOL,
        "Record file snapshots so that undo and revert restore files (default `true`). `false` makes undo leave files as they are.",
    ),
    Field::opt(
        "plugin",
        Shape::Array(&PLUGIN),
        "Plugins to load: an npm package name (`name@version`), a path or URL, or `[spec, options]`.",
    )
    .aka(&["plugins"]),
    Field::opt(
        "share",
        Shape::Lit(&[Lit::Str("manual"), Lit::Str("auto"), Lit::Str("disabled")]),
        "Session sharing: `manual` (share with a command), `auto` (share every new session) or `disabled`.",
    ),
    Field::opt(
        "autoshare",
        BOOL,
        "Deprecated: `true` is `\"share\": \"auto\"`.",
    )
    .deprecated("share"),
    Field::opt(
        "autoupdate",
        Shape::Union(&[BOOL, Shape::Lit(&[Lit::Str("notify")])]),
        "Update opencode automatically (`true`), never (`false`), or only say that an update exists (`\"notify\"`).",
    ),
    Field::opt(
        "disabled_providers",
        STRINGS,
        "Provider ids not to load, even when their credentials are found.",
    ),
    Field::opt(
        "enabled_providers",
        STRINGS,
        "When set, the only provider ids opencode loads; every other provider is ignored.",
    ),
    Field::opt(
        "model",
        STR,
        "The default model, `provider/model` (for example `anthropic/claude-sonnet-4-5`).",
    ),
    Field::opt(
        "small_model",
        STR,
        "The model for small tasks such as session titles, `provider/model`.",
    ),
    Field::opt(
        "default_agent",
        STR,
        "The agent a session starts with. It must exist, be primary (or `all`) and not hidden, or commands such as `opencode run` fail.",
    ),
    Field::opt(
        "subagent_depth",
        NON_NEGATIVE_INT,
        "How deep subagents may nest (default 1: a subagent cannot start another). Nesting also needs a `task` permission rule.",
    ),
    Field::opt(
        "username",
        STR,
        "The name shown for you in conversations (default: the system user name).",
    ),
    Field::opt(
        "mode",
        Shape::Custom("an object of agent name to settings"),
        "Deprecated: primary agents by name; each entry is merged into `agent` with `mode: primary`.",
    )
    .deprecated("agent"),
    Field::opt(
        "agent",
        Shape::Custom("an object of agent name to settings"),
        "Agents by name: new ones, or settings for the built-ins (`build`, `plan`, `general`, `explore`, `compaction`, `title`, `summary`).",
    )
    .aka(&["agents"]),
    Field::opt(
        "provider",
        Shape::Record(&Shape::Object(&PROVIDER)),
        "Model providers by id: settings for built-in ones (`anthropic`, `openai`, ...) or new ones, with their models.",
    )
    .aka(&["providers"]),
    Field::opt(
        "mcp",
        Shape::Record(&MCP_ENTRY),
        "MCP servers by name: `{type: \"local\", command: [...]}`, `{type: \"remote\", url}`, or `{enabled: false}` to turn off one defined elsewhere.",
    ),
    Field::opt(
        "formatter",
        Shape::Union(&[BOOL, Shape::Record(&Shape::Object(&FORMATTER))]),
        "Code formatters run after edits: `false` turns them off, `true` enables the built-in ones, an object adds or changes formatters by name.",
    ),
    Field::opt(
        "lsp",
        Shape::Union(&[BOOL, Shape::Record(&LSP_ENTRY)]),
        "Language servers whose diagnostics the agents see: `false` turns them off, `true` enables the built-in ones, an object adds or changes servers by name.",
    ),
    Field::opt(
        "instructions",
        STRINGS,
        "More instruction files for every session, beside `AGENTS.md`: paths or globs, relative to the project (`~/` for the home folder), or URLs. An entry that matches no file is skipped without a word.",
    ),
    Field::opt(
        "layout",
        Shape::Lit(&[Lit::Str("auto"), Lit::Str("stretch")]),
        "Deprecated and without effect: opencode always uses the stretch layout.",
    )
    .deprecated("nothing"),
    Field::opt(
        "permission",
        Shape::Custom("`allow`, `ask`, `deny` or an object of permission rules"),
        "Permission rules for every agent: a permission (`bash`, `edit`, ...) to an action, or to patterns and actions; the last matching rule wins.",
    ),
    Field::opt(
        "tools",
        Shape::Custom("an object of tool name to true or false"),
        "Deprecated: tool name to `true`/`false`, converted into `permission` rules.",
    )
    .deprecated("permission"),
    Field::opt(
        "attachment",
        Shape::Object(&ATTACHMENT),
        "How attached files are processed: image size limits and resizing.",
    ),
    Field::opt(
        "enterprise",
        Shape::Object(&ENTERPRISE),
        "The opencode enterprise server: `url`.",
    ),
    Field::opt(
        "tool_output",
        Shape::Object(&TOOL_OUTPUT),
        "When tool output is cut: past `max_lines` lines or `max_bytes` bytes the model sees a preview, and the whole output is saved to a file.",
    ),
    Field::opt(
        "compaction",
        Shape::Object(&COMPACTION),
        "How long sessions are compacted to fit the model's context.",
    ),
    Field::opt(
        "experimental",
        Shape::Object(&EXPERIMENTAL),
        "Experimental settings; they may change or go in any release.",
    ),
];

/// Top-level keys checked by rules of their own (agents, permissions, commands, models): the
/// shape here serves completion and hover, and the drift test.
pub const OWN_RULES: &[&str] = &[
    "agent",
    "mode",
    "permission",
    "tools",
    "command",
    "model",
    "small_model",
    "default_agent",
];

static COMMAND: Object = Object {
    what: "a command",
    fields: &[
        Field::req(
            "template",
            STR,
            "The prompt sent when the command runs: `$ARGUMENTS` is everything after `/name`, `$1`, `$2`, ... its words; `` !`cmd` `` inserts a command's output, `@path` a file.",
        ),
        Field::opt("description", STR, "What the command does, shown in the `/` menu."),
        Field::opt(
            "agent",
            STR,
            "The agent that runs it (a subagent runs it as a subtask unless `subtask` is `false`).",
        ),
        Field::opt("model", STR, "The model it runs with, `provider/model`."),
        Field::opt("variant", STR, "The model variant it runs with."),
        Field::opt(
            "subtask",
            BOOL,
            "`true` runs it as a subtask (a child session), whatever its agent's mode.",
        ),
    ],
    rest: Rest::Drop,
};

static SERVER: Object = Object {
    what: "server settings",
    fields: &[
        Field::opt("port", POSITIVE_INT, "The port to listen on."),
        Field::opt("hostname", STR, "The host name or address to listen on."),
        Field::opt("mdns", BOOL, "Announce the server on the local network with mDNS."),
        Field::opt("mdnsDomain", STR, "The mDNS service name (default `opencode.local`)."),
        Field::opt("cors", STRINGS, "More origins allowed to call the server (CORS)."),
    ],
    rest: Rest::Drop,
};

static SKILLS: Object = Object {
    what: "skill sources",
    fields: &[
        Field::opt(
            "paths",
            STRINGS,
            "More folders to search for `**/SKILL.md` (`~/` for the home folder; relative paths resolve from the directory opencode starts in). A folder that does not exist is skipped with a logged warning.",
        ),
        Field::opt(
            "urls",
            STRINGS,
            "Skill indexes to download (`<url>/index.json` lists the skills and their files), for example `https://example.com/.well-known/skills/`.",
        ),
    ],
    rest: Rest::Drop,
};

static REFERENCE: Shape = Shape::Union(&[
    STR,
    Shape::Object(&Object {
        what: "a git reference",
        fields: &[
            Field::req(
                "repository",
                STR,
                "The git repository to clone (a URL or `owner/repo`).",
            ),
            Field::opt(
                "branch",
                STR,
                "The branch to check out (default: the repository's default branch).",
            ),
            Field::opt("description", STR, "What the agents find there."),
            Field::opt("hidden", BOOL, "Keep it out of the list the agents see."),
        ],
        rest: Rest::Drop,
    }),
    Shape::Object(&Object {
        what: "a local folder reference",
        fields: &[
            Field::req(
                "path",
                STR,
                "The folder (`~/` for the home folder; relative to the project).",
            ),
            Field::opt("description", STR, "What the agents find there."),
            Field::opt("hidden", BOOL, "Keep it out of the list the agents see."),
        ],
        rest: Rest::Drop,
    }),
]);

static WATCHER: Object = Object {
    what: "watcher settings",
    fields: &[Field::opt(
        "ignore",
        STRINGS,
        "Globs of files and folders whose changes are not watched.",
    )],
    rest: Rest::Drop,
};

static PLUGIN: Shape = Shape::Union(&[STR, Shape::Tuple(&[STR, ANY_MAP])]);

static PROVIDER: Object = Object {
    what: "a provider",
    fields: &[
        Field::opt(
            "api",
            STR,
            "The provider's API base URL, for a provider opencode does not know.",
        ),
        Field::opt("name", STR, "The provider's display name."),
        Field::opt(
            "env",
            STRINGS,
            "Environment variables that hold the provider's API key, in order of preference.",
        ),
        Field::opt("id", STR, "The provider's id, when it differs from its key here."),
        Field::opt(
            "npm",
            STR,
            "The AI SDK package that talks to the provider (for example `@ai-sdk/openai-compatible`).",
        ),
        Field::opt("whitelist", STRINGS, "The only model ids of this provider to offer."),
        Field::opt("blacklist", STRINGS, "Model ids of this provider not to offer."),
        Field::opt(
            "options",
            Shape::Object(&PROVIDER_OPTIONS),
            "Options handed to the provider's SDK (`apiKey`, `baseURL`, timeouts, headers, ...). Every key is kept.",
        ),
        Field::opt(
            "models",
            Shape::Record(&Shape::Object(&MODEL)),
            "Models by id: new ones, or overrides of the provider's known ones.",
        ),
    ],
    rest: Rest::Drop,
};

const TIMEOUT_OR_FALSE: Shape = Shape::Union(&[POSITIVE_INT, Shape::Lit(&[Lit::Bool(false)])]);

static PROVIDER_OPTIONS: Object = Object {
    what: "provider options",
    fields: &[
        Field::opt(
            "apiKey",
            STR,
            "The API key (better: `{env:VAR}` or `{file:path}` than the key itself).",
        ),
        Field::opt("baseURL", STR, "The API base URL (for a proxy or a compatible server)."),
        Field::opt("enterpriseUrl", STR, "The GitHub Enterprise URL, for GitHub Copilot."),
        Field::opt(
            "setCacheKey",
            BOOL,
            "Send a prompt cache key with requests (default `false`).",
        ),
        Field::opt(
            "timeout",
            TIMEOUT_OR_FALSE,
            "Milliseconds a whole request may take; `false` for no limit.",
        ),
        Field::opt(
            "headerTimeout",
            TIMEOUT_OR_FALSE,
            "Milliseconds to wait for the response headers (default 300000); `false` for no limit.",
        ),
        Field::opt(
            "chunkTimeout",
            TIMEOUT_OR_FALSE,
            "Milliseconds to wait between streamed chunks before the request is given up (default 300000); `false` for no limit.",
        ),
    ],
    rest: Rest::Keep(&Shape::Any),
};

const REASONING_FIELD: Shape = Shape::Union(&[
    Shape::Lit(&[
        Lit::Str("reasoning"),
        Lit::Str("reasoning_content"),
        Lit::Str("reasoning_text"),
    ]),
    STR,
]);

const MODALITIES: Shape = Shape::Array(&Shape::Lit(&[
    Lit::Str("text"),
    Lit::Str("audio"),
    Lit::Str("image"),
    Lit::Str("video"),
    Lit::Str("pdf"),
]));

static COST: Object = Object {
    what: "model costs",
    fields: &[
        Field::req("input", NUMBER, "Price of a million input tokens, in US dollars."),
        Field::req("output", NUMBER, "Price of a million output tokens, in US dollars."),
        Field::opt("cache_read", NUMBER, "Price of a million cached input tokens read."),
        Field::opt(
            "cache_write",
            NUMBER,
            "Price of a million input tokens written to the cache.",
        ),
        Field::opt(
            "context_over_200k",
            Shape::Object(&Object {
                what: "model costs past 200k tokens of context",
                fields: &[
                    Field::req("input", NUMBER, "Price of a million input tokens, in US dollars."),
                    Field::req("output", NUMBER, "Price of a million output tokens, in US dollars."),
                    Field::opt("cache_read", NUMBER, "Price of a million cached input tokens read."),
                    Field::opt(
                        "cache_write",
                        NUMBER,
                        "Price of a million input tokens written to the cache.",
                    ),
                ],
                rest: Rest::Drop,
            }),
            "The prices when the context is over 200k tokens.",
        ),
    ],
    rest: Rest::Drop,
};

static MODEL: Object = Object {
    what: "a model",
    fields: &[
        Field::opt(
            "id",
            STR,
            "The id the provider's API knows the model by, when it differs from its key here.",
        ),
        Field::opt("name", STR, "The model's display name."),
        Field::opt("family", STR, "The model family (for example `claude-sonnet`)."),
        Field::opt("release_date", STR, "The release date, `YYYY-MM-DD`."),
        Field::opt("attachment", BOOL, "The model takes attached files."),
        Field::opt("reasoning", BOOL, "The model reasons before it answers."),
        Field::opt("temperature", BOOL, "The model takes a `temperature` setting."),
        Field::opt("tool_call", BOOL, "The model can call tools."),
        Field::opt(
            "interleaved",
            Shape::Union(&[
                BOOL,
                REASONING_FIELD,
                Shape::Object(&Object {
                    what: "interleaved reasoning settings",
                    fields: &[Field::req(
                        "field",
                        REASONING_FIELD,
                        "The response field that carries the reasoning.",
                    )],
                    rest: Rest::Drop,
                }),
            ]),
            "Whether reasoning is interleaved with tool calls, and in which response field it comes.",
        ),
        Field::opt(
            "cost",
            Shape::Object(&COST),
            "Prices per million tokens (`input` and `output` are required).",
        ),
        Field::opt(
            "limit",
            Shape::Object(&Object {
                what: "model limits",
                fields: &[
                    Field::req("context", NUMBER, "The context window, in tokens."),
                    Field::opt("input", NUMBER, "The most input tokens a request may have."),
                    Field::req("output", NUMBER, "The most tokens the model writes in one answer."),
                ],
                rest: Rest::Drop,
            }),
            "Token limits (`context` and `output` are required).",
        ),
        Field::opt(
            "modalities",
            Shape::Object(&Object {
                what: "model modalities",
                fields: &[
                    Field::opt(
                        "input",
                        MODALITIES,
                        "What the model reads: `text`, `audio`, `image`, `video`, `pdf`.",
                    ),
                    Field::opt(
                        "output",
                        MODALITIES,
                        "What the model writes: `text`, `audio`, `image`, `video`, `pdf`.",
                    ),
                ],
                rest: Rest::Drop,
            }),
            "What the model reads and writes.",
        ),
        Field::opt("experimental", BOOL, "The model is experimental."),
        Field::opt(
            "status",
            Shape::Lit(&[
                Lit::Str("alpha"),
                Lit::Str("beta"),
                Lit::Str("deprecated"),
                Lit::Str("active"),
            ]),
            "The model's release status: `alpha`, `beta`, `deprecated` or `active`.",
        ),
        Field::opt(
            "provider",
            Shape::Object(&Object {
                what: "a model's provider override",
                fields: &[
                    Field::opt("npm", STR, "The AI SDK package for this model."),
                    Field::opt("api", STR, "The API base URL for this model."),
                ],
                rest: Rest::Drop,
            }),
            "A different SDK package or API URL for this model only.",
        ),
        Field::opt(
            "options",
            ANY_MAP,
            "Options sent with every request to this model. Every key is kept.",
        ),
        Field::opt(
            "headers",
            STRING_MAP,
            "HTTP headers sent with every request to this model.",
        ),
        Field::opt(
            "variants",
            Shape::Record(&Shape::Object(&Object {
                what: "a model variant",
                fields: &[Field::opt("disabled", BOOL, "Turn this variant off.")],
                rest: Rest::Keep(&Shape::Any),
            })),
            "Named variants of the model (for example reasoning efforts), each with the options it sends; an agent picks one with `variant`.",
        ),
    ],
    rest: Rest::Drop,
};

const MCP_TIMEOUT: &str = "Milliseconds to wait for the server's answers (default 5000).";
const MCP_ENABLED: &str = "`false` defines the server without starting it.";

static MCP_LOCAL: Object = Object {
    what: "a local MCP server",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("local")]),
            "`local`: opencode starts the server as a process and talks to it over stdio.",
        ),
        Field::req(
            "command",
            STRINGS,
            "The program and its arguments, one per item: `[\"npx\", \"-y\", \"some-server\"]`.",
        )
        .aka(&["args", "cmd"]),
        Field::opt(
            "cwd",
            STR,
            "The folder the server runs in (relative paths resolve from the project).",
        ),
        Field::opt(
            "environment",
            STRING_MAP,
            "Environment variables for the server process (values are strings; `{env:VAR}` copies one of yours).",
        )
        .aka(&["env", "environ", "envs"]),
        Field::opt("enabled", BOOL, MCP_ENABLED),
        Field::opt("timeout", POSITIVE_INT, MCP_TIMEOUT),
    ],
    rest: Rest::Drop,
};

static MCP_OAUTH: Object = Object {
    what: "MCP OAuth settings",
    fields: &[
        Field::opt(
            "clientId",
            STR,
            "The OAuth client id; without one, opencode registers a client dynamically (RFC 7591).",
        )
        .aka(&["client_id"]),
        Field::opt("clientSecret", STR, "The OAuth client secret, if the server needs one.").aka(&["client_secret"]),
        Field::opt("scope", STR, "The OAuth scopes to ask for."),
        Field::opt(
            "callbackPort",
            Shape::Num(Num {
                int: true,
                min: crate::analysis::shape::Bound::Incl(1.0),
                max: Some(65535.0),
            }),
            "The port of the local callback server (default 19876); ignored when `redirectUri` is set.",
        )
        .aka(&["callback_port"]),
        Field::opt(
            "redirectUri",
            STR,
            "The OAuth redirect URI (default `http://127.0.0.1:19876/mcp/oauth/callback`).",
        )
        .aka(&["redirect_uri", "redirectUrl"]),
    ],
    rest: Rest::Drop,
};

static MCP_REMOTE: Object = Object {
    what: "a remote MCP server",
    fields: &[
        Field::req(
            "type",
            Shape::Lit(&[Lit::Str("remote")]),
            "`remote`: opencode connects to the server at `url` (streamable HTTP or SSE).",
        ),
        Field::req("url", STR, "The server's URL.").aka(&["uri", "endpoint", "serverUrl"]),
        Field::opt("enabled", BOOL, MCP_ENABLED),
        Field::opt(
            "headers",
            STRING_MAP,
            "HTTP headers sent with every request (`{env:VAR}` keeps a token out of the file).",
        )
        .aka(&["header"]),
        Field::opt(
            "oauth",
            Shape::Union(&[Shape::Object(&MCP_OAUTH), Shape::Lit(&[Lit::Bool(false)])]),
            "OAuth settings, or `false` to never try OAuth with this server.",
        ),
        Field::opt("timeout", POSITIVE_INT, MCP_TIMEOUT),
    ],
    rest: Rest::Drop,
};

/// An `mcp` entry: a server, or `{enabled: ...}` alone to switch one defined in another layer.
static MCP_ENTRY: Shape = Shape::Union(&[
    Shape::Union(&[Shape::Object(&MCP_LOCAL), Shape::Object(&MCP_REMOTE)]),
    Shape::Object(&MCP_TOGGLE),
]);

static MCP_TOGGLE: Object = Object {
    what: "`{\"enabled\": true|false}` alone",
    fields: &[Field::req(
        "enabled",
        BOOL,
        "Start (`true`) or not (`false`) a server defined in another configuration layer.",
    )],
    rest: Rest::Drop,
};

static FORMATTER: Object = Object {
    what: "a formatter",
    fields: &[
        Field::opt("disabled", BOOL, "Turn this formatter off."),
        Field::opt(
            "command",
            STRINGS,
            "The program and its arguments, one per item; `$FILE` stands for the file to format.",
        ),
        Field::opt("environment", STRING_MAP, "Environment variables for the formatter.").aka(&["env"]),
        Field::opt(
            "extensions",
            STRINGS,
            "The file extensions it formats, with their dot (`\".ts\"`).",
        ),
    ],
    rest: Rest::Drop,
};

static LSP_OFF: Object = Object {
    what: "`{\"disabled\": true}`",
    fields: &[Field::req(
        "disabled",
        Shape::Lit(&[Lit::Bool(true)]),
        "`true` turns the server off (with it, every other key of the entry is dropped).",
    )],
    rest: Rest::Drop,
};

static LSP_SERVER: Object = Object {
    what: "a language server",
    fields: &[
        Field::req(
            "command",
            STRINGS,
            "The program and its arguments, one per item: `[\"rust-analyzer\"]`.",
        )
        .aka(&["cmd"]),
        Field::opt(
            "extensions",
            STRINGS,
            "The file extensions it serves, with their dot (`\".rs\"`); required for a server opencode does not know.",
        ),
        Field::opt("disabled", BOOL, "Turn this server off."),
        Field::opt("env", STRING_MAP, "Environment variables for the server process.").aka(&["environment"]),
        Field::opt(
            "initialization",
            ANY_MAP,
            "The `initializationOptions` sent to the server when it starts.",
        )
        .aka(&["initializationOptions", "settings"]),
    ],
    rest: Rest::Drop,
};

static LSP_ENTRY: Shape = Shape::Union(&[Shape::Object(&LSP_OFF), Shape::Object(&LSP_SERVER)]);

/// The language servers opencode 1.18.34 knows by name: an entry with another name needs
/// `extensions`, or opencode drops it.
pub const BUILTIN_LSP_SERVERS: &[&str] = &[
    "deno",
    "typescript",
    "vue",
    "eslint",
    "oxlint",
    "biome",
    "gopls",
    "ruby-lsp",
    "ty",
    "pyright",
    "elixir-ls",
    "zls",
    "csharp",
    "razor",
    "fsharp",
    "sourcekit-lsp",
    "rust",
    "clangd",
    "svelte",
    "astro",
    "jdtls",
    "kotlin-ls",
    "yaml-ls",
    "lua-ls",
    "php intelephense",
    "prisma",
    "dart",
    "ocaml-lsp",
    "bash",
    "terraform",
    "texlab",
    "dockerfile",
    "gleam",
    "clojure-lsp",
    "nixd",
    "tinymist",
    "haskell-language-server",
    "julials",
];

static ATTACHMENT: Object = Object {
    what: "attachment settings",
    fields: &[Field::opt(
        "image",
        Shape::Object(&Object {
            what: "image attachment settings",
            fields: &[
                Field::opt(
                    "auto_resize",
                    BOOL,
                    "Shrink images past the limits before they are sent (default `true`).",
                ),
                Field::opt("max_width", POSITIVE_INT, "The widest image, in pixels (default 2000)."),
                Field::opt(
                    "max_height",
                    POSITIVE_INT,
                    "The tallest image, in pixels (default 2000).",
                ),
                Field::opt(
                    "max_base64_bytes",
                    POSITIVE_INT,
                    "The largest image, in bytes of base64 (default 5242880).",
                ),
            ],
            rest: Rest::Drop,
        }),
        "Image size limits and resizing.",
    )],
    rest: Rest::Drop,
};

static ENTERPRISE: Object = Object {
    what: "enterprise settings",
    fields: &[Field::opt("url", STR, "The enterprise server's URL.")],
    rest: Rest::Drop,
};

static TOOL_OUTPUT: Object = Object {
    what: "tool output limits",
    fields: &[
        Field::opt(
            "max_lines",
            POSITIVE_INT,
            "Lines of tool output the model sees before the rest is cut (default 2000).",
        ),
        Field::opt(
            "max_bytes",
            POSITIVE_INT,
            "Bytes of tool output the model sees before the rest is cut (default 51200).",
        ),
    ],
    rest: Rest::Drop,
};

static COMPACTION: Object = Object {
    what: "compaction settings",
    fields: &[
        Field::opt(
            "auto",
            BOOL,
            "Compact the session when the context is full (default `true`).",
        ),
        Field::opt("prune", BOOL, "Prune old tool outputs (default `false`)."),
        Field::opt(
            "tail_turns",
            NON_NEGATIVE_INT,
            "How many recent user turns (with the answers after them) are kept word for word.",
        ),
        Field::opt(
            "preserve_recent_tokens",
            NON_NEGATIVE_INT,
            "How many tokens of the recent turns are kept word for word.",
        ),
        Field::opt(
            "reserved",
            NON_NEGATIVE_INT,
            "Tokens kept free so that compacting itself does not overflow the context.",
        ),
    ],
    rest: Rest::Drop,
};

static EXPERIMENTAL: Object = Object {
    what: "experimental settings",
    fields: &[
        Field::opt(
            "disable_paste_summary",
            BOOL,
            "Paste long text as it is, without a summary.",
        ),
        Field::opt("batch_tool", BOOL, "Give the agents the batch tool."),
        Field::opt("openTelemetry", BOOL, "Emit OpenTelemetry spans for model calls."),
        Field::opt(
            "primary_tools",
            STRINGS,
            "Tools only primary agents get (denied to subagents).",
        ),
        Field::opt(
            "continue_loop_on_deny",
            BOOL,
            "Let the agent go on when a tool call is denied, instead of stopping.",
        ),
        Field::opt("mcp_timeout", POSITIVE_INT, "Milliseconds to wait for MCP requests."),
        Field::opt(
            "policies",
            Shape::Array(&Shape::Object(&POLICY)),
            "Policy statements over resources, such as which providers may be used: `{action: \"provider.use\", effect, resource}`.",
        ),
    ],
    rest: Rest::Drop,
};

static POLICY: Object = Object {
    what: "a policy statement",
    fields: &[
        Field::req(
            "action",
            Shape::Lit(&[Lit::Str("provider.use")]),
            "What the statement is about; `provider.use` is the only action.",
        ),
        Field::req(
            "effect",
            Shape::Lit(&[Lit::Str("allow"), Lit::Str("deny")]),
            "`allow` or `deny`; the last matching statement wins.",
        ),
        Field::req(
            "resource",
            STR,
            "The resource it matches (a provider id; `*` and `?` are wildcards).",
        ),
    ],
    rest: Rest::Drop,
};

/// The hover text of the config key at `path` (keys from the root): what it does, what it
/// takes, what it belongs to; `None` outside the table (agents and permissions have their own).
pub fn hover(path: &[&str]) -> Option<String> {
    use crate::analysis::shape;
    let found = shape::lookup::field_at(&CONFIG, path);
    let (_, f) = found.first()?;
    let owners: Vec<String> = found.iter().map(|(o, _)| o.what.to_string()).collect();
    let mut md = format!(
        "**`{}`** ({})\n\n{}\n\nValue: {}.",
        f.name,
        shape::either(owners),
        f.doc,
        shape::describe(&f.shape)
    );
    if f.required {
        md.push_str(" Required: opencode refuses to start without it.");
    }
    if let Some(instead) = f.deprecated {
        md.push_str(&format!("\n\nDeprecated: use `{instead}`."));
    }
    md.push('\n');
    Some(md)
}

#[cfg(test)]
mod tests;
