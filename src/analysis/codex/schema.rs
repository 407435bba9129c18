//! `config.toml` as Codex 0.171.0 reads it, as data (see [`crate::analysis::shape`]): every
//! top-level key, its type and values, and the tables under it.
//!
//! Facts: the config schema Codex generates from its types (`codex-rs/core/config.schema.json`
//! of a recent commit), held key by key to the 0.171.0 binary, which wins where they differ
//! (`tests/codex_runtime`): the release reads `browser_use`, `computer_use`, `goals`,
//! `code_mode` and a dozen more keys the schema copy lacks, does not read `debug`,
//! `experimental_thread_config_endpoint` or `model_supports_reasoning_summaries`, and takes more
//! values than it lists (`web_search = "indexed"`, `notification_method = "osc777"`,
//! `windows.sandbox = "mxc"`, `default_tools_approval_mode = "writes"`).
//!
//! Every table drops a key it does not know without a word (only `--strict-config` names it):
//! [`Rest::Drop`]. A wrong type or an unknown enum value makes Codex refuse the whole file and
//! not start. Tables this release reads but whose inside agent-lsp does not check yet are
//! [`OPAQUE`]: any table is taken, and nothing inside it is reported.

use crate::analysis::shape::{Bound, Field, Lit, Num, Object, Rest, Shape};

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;
/// A float or an integer (`f64`).
const NUMBER: Shape = Shape::Num(Num::ANY);
/// Any integer (`i64`).
const INT: Shape = Shape::Int(Num {
    int: true,
    min: Bound::None,
    max: None,
});
/// An integer, 0 or more (`u64`, `usize`).
const UINT: Shape = Shape::Int(Num::NON_NEGATIVE_INT);
/// An integer, 1 or more.
const POSITIVE: Shape = Shape::Int(Num::POSITIVE_INT);
const STRS: Shape = Shape::Array(&STR);
const STR_MAP: Shape = Shape::Record(&STR);
/// A table Codex reads whose inside agent-lsp does not check.
pub const OPAQUE: Shape = Shape::Record(&Shape::Any);

/// Values of `model_reasoning_effort` Codex and its models know. Codex takes any string here
/// (`"extreme"` starts a session); the model's API refuses the rest at the first turn.
pub const REASONING_EFFORTS: &[&str] = &["none", "minimal", "low", "medium", "high", "xhigh"];

/// Keys Codex ignores in a project's `.codex/config.toml` ("Ignored unsupported project-local
/// config keys ... If you want these settings to apply, manually set them in your user-level
/// config.toml"), whatever their value: they are read from the user's file only.
pub const USER_ONLY: &[&str] = &[
    "openai_base_url",
    "chatgpt_base_url",
    "apps_mcp_product_sku",
    "model_provider",
    "model_providers",
    "notify",
    "experimental_realtime_ws_base_url",
    "experimental_realtime_webrtc_call_base_url",
    "otel",
    "responses_api_metadata",
    // Trust is the user's: a project's `[projects]` table trusts nothing (though a `trust_level`
    // value Codex does not know still refuses the file).
    "projects",
    "profile",
    "profiles",
];

/// Feature flags Codex ignores in a project's configuration, likewise.
pub const USER_ONLY_FEATURES: &[&str] = &["respect_system_proxy", "system_proxy_fallback", "credential_masking"];

/// Service tiers Codex documents (any string is taken).
pub const SERVICE_TIERS: &[&str] = &["default", "priority", "flex", "fast"];

const APPROVAL: Shape = Shape::Union(&[
    Shape::Lit(&[
        Lit::Str("untrusted"),
        Lit::Str("on-failure"),
        Lit::Str("on-request"),
        Lit::Str("never"),
    ]),
    Shape::Object(&Object {
        what: "a granular approval policy",
        fields: &[Field::req(
            "granular",
            Shape::Object(&GRANULAR),
            "Which approval prompts are shown (`true`) or rejected without asking (`false`).",
        )],
        rest: Rest::Drop,
    }),
]);

static GRANULAR: Object = Object {
    what: "granular approvals",
    fields: &[
        Field::req("sandbox_approval", BOOL, "Shell commands asking to leave the sandbox."),
        Field::req("rules", BOOL, "Prompts from execpolicy `prompt` rules."),
        Field::req("mcp_elicitations", BOOL, "MCP elicitation prompts."),
        Field::opt(
            "request_permissions",
            BOOL,
            "Prompts from the `request_permissions` tool (default false).",
        ),
        Field::opt("skill_approval", BOOL, "Prompts from skill scripts (default false)."),
    ],
    rest: Rest::Drop,
};

const SANDBOX: Shape = Shape::Lit(&[
    Lit::Str("read-only"),
    Lit::Str("workspace-write"),
    Lit::Str("danger-full-access"),
]);
const REVIEWER: Shape = Shape::Lit(&[Lit::Str("user"), Lit::Str("auto_review"), Lit::Str("guardian_subagent")]);
const SUMMARY: Shape = Shape::Lit(&[
    Lit::Str("auto"),
    Lit::Str("concise"),
    Lit::Str("detailed"),
    Lit::Str("none"),
]);
const VERBOSITY: Shape = Shape::Lit(&[Lit::Str("low"), Lit::Str("medium"), Lit::Str("high")]);
const PERSONALITY: Shape = Shape::Lit(&[Lit::Str("none"), Lit::Str("friendly"), Lit::Str("pragmatic")]);
const WEB_SEARCH: Shape = Shape::Lit(&[
    Lit::Str("disabled"),
    Lit::Str("cached"),
    Lit::Str("indexed"),
    Lit::Str("live"),
]);
const TOOL_APPROVAL: Shape = Shape::Lit(&[
    Lit::Str("auto"),
    Lit::Str("prompt"),
    Lit::Str("writes"),
    Lit::Str("approve"),
]);

/// The root: `config.toml` (user `~/.codex/config.toml`, project `.codex/config.toml`).
pub static CONFIG: Shape = Shape::Object(&Object {
    what: "the Codex configuration",
    fields: TOP,
    rest: Rest::Drop,
});

/// The keys of a configuration layer (`config.toml`, a profile file, an agent file).
pub static TOP: &[Field] = &[
    Field::opt("model", STR, "The model Codex uses (for example `gpt-5.1-codex`)."),
    Field::opt("review_model", STR, "The model `/review` uses."),
    Field::opt(
        "model_provider",
        STR,
        "The provider to use, a key of `model_providers` or a built-in one (`openai`, `ollama`, `lmstudio`).",
    ),
    Field::opt(
        "model_providers",
        Shape::Record(&PROVIDER),
        "Providers of your own, by id, beside the built-in ones (which cannot be overridden).",
    ),
    Field::opt("model_context_window", INT, "The model's context window, in tokens."),
    Field::opt(
        "model_auto_compact_token_limit",
        INT,
        "The token count at which Codex compacts the conversation.",
    ),
    Field::opt(
        "model_auto_compact_token_limit_scope",
        Shape::Lit(&[Lit::Str("total"), Lit::Str("body_after_prefix")]),
        "What the compaction limit counts: `total` (the whole context) or `body_after_prefix`.",
    ),
    Field::opt(
        "model_post_turn_compact_threshold_percent",
        INT,
        "Compact after a turn once the context is this full (percent).",
    ),
    Field::opt(
        "model_reasoning_effort",
        STR,
        "Reasoning effort: `none`, `minimal`, `low`, `medium`, `high` or `xhigh`. Codex takes any string and sends it to the model.",
    ),
    Field::opt(
        "plan_mode_reasoning_effort",
        STR,
        "Reasoning effort in plan mode (values as `model_reasoning_effort`).",
    ),
    Field::opt(
        "model_reasoning_summary",
        SUMMARY,
        "Reasoning summaries: `auto`, `concise`, `detailed` or `none`.",
    ),
    Field::opt(
        "model_verbosity",
        VERBOSITY,
        "Output length on GPT-5 models: `low`, `medium` or `high`.",
    ),
    Field::opt(
        "model_catalog_json",
        STR,
        "A JSON model catalog to load at start (an absolute path).",
    ),
    Field::opt(
        "model_instructions_file",
        STR,
        "A file whose text replaces the model's built-in instructions (discouraged: it degrades the model).",
    ),
    Field::opt(
        "personality",
        PERSONALITY,
        "The model's personality: `none`, `friendly` or `pragmatic`.",
    ),
    Field::opt(
        "service_tier",
        STR,
        "Service tier for new turns (`default`, `priority`, `flex`; legacy `fast`).",
    ),
    Field::opt(
        "approval_policy",
        APPROVAL,
        "When Codex asks before running a command: `untrusted` (all but known-safe reads), `on-request` (the model decides), `never`, `on-failure` (deprecated), or `{ granular = { ... } }`.",
    ),
    Field::opt(
        "approvals_reviewer",
        REVIEWER,
        "Who reviews escalated approval requests: `user` (default), `auto_review` (a reviewing subagent) or the legacy `guardian_subagent`.",
    ),
    Field::opt(
        "auto_review",
        Shape::Object(&AUTO_REVIEW),
        "Policy text for the automatic reviewer.",
    ),
    Field::opt(
        "sandbox_mode",
        SANDBOX,
        "Where commands run: `read-only`, `workspace-write` or `danger-full-access` (no sandbox).",
    ),
    Field::opt(
        "sandbox_workspace_write",
        Shape::Object(&SANDBOX_WRITE),
        "Settings of the `workspace-write` sandbox: extra writable roots, network access.",
    ),
    Field::opt(
        "default_permissions",
        STR,
        "The permissions profile to apply: `:name` for a built-in one, otherwise a key of `[permissions]` (required once `[permissions]` is written).",
    ),
    Field::opt(
        "permissions",
        OPAQUE,
        "Named permissions profiles (filesystem, network, workspace roots).",
    ),
    Field::opt(
        "shell_environment_policy",
        Shape::Object(&SHELL_ENV),
        "Which environment variables the commands Codex runs receive.",
    ),
    Field::opt(
        "allow_login_shell",
        BOOL,
        "Whether the model may run commands in a login shell (default true).",
    ),
    Field::opt(
        "allow_symlinked_codex_home",
        BOOL,
        "Accept a `CODEX_HOME` that is a symbolic link.",
    ),
    Field::opt(
        "notify",
        STRS,
        "A command (program and arguments) Codex runs for notifications, given a JSON argument.",
    ),
    Field::opt("instructions", STR, "System instructions."),
    Field::opt(
        "developer_instructions",
        STR,
        "Instructions added as a `developer` message.",
    ),
    Field::opt(
        "include_apps_instructions",
        BOOL,
        "Whether to add the `<apps_instructions>` block.",
    ),
    Field::opt(
        "include_collaboration_mode_instructions",
        BOOL,
        "Whether to add the `<collaboration_mode>` block.",
    ),
    Field::opt(
        "include_environment_context",
        BOOL,
        "Whether to add the `<environment_context>` block.",
    ),
    Field::opt(
        "include_environment_context_time",
        BOOL,
        "Whether the environment context gives the time.",
    ),
    Field::opt(
        "include_permissions_instructions",
        BOOL,
        "Whether to add the permissions instructions block.",
    ),
    Field::opt("compact_prompt", STR, "The prompt used to compact the history."),
    Field::opt(
        "experimental_compact_prompt_file",
        STR,
        "A file holding the compaction prompt; Codex refuses to start when it is missing.",
    ),
    Field::opt(
        "forced_chatgpt_workspace_id",
        Shape::Union(&[STR, STRS]),
        "Restrict ChatGPT login to this workspace (or these).",
    ),
    Field::opt(
        "forced_login_method",
        Shape::Lit(&[Lit::Str("chatgpt"), Lit::Str("api")]),
        "Restrict login to `chatgpt` or `api`.",
    ),
    Field::opt(
        "cli_auth_credentials_store",
        Shape::Lit(&[
            Lit::Str("file"),
            Lit::Str("keyring"),
            Lit::Str("auto"),
            Lit::Str("ephemeral"),
        ]),
        "Where the CLI keeps its credentials: `file`, `keyring`, `auto` or `ephemeral`.",
    ),
    Field::opt(
        "mcp_servers",
        Shape::Record(&MCP_SERVER),
        "MCP servers by name: `command` (and `args`, `env`) for a local one, `url` for a remote one.",
    ),
    Field::opt(
        "mcp_enterprise_managed_auth",
        OPAQUE,
        "Enterprise-managed MCP authentication.",
    ),
    Field::opt(
        "mcp_oauth_credentials_store",
        Shape::Lit(&[Lit::Str("auto"), Lit::Str("file"), Lit::Str("keyring")]),
        "Where MCP OAuth credentials are kept: `auto`, `file` or `keyring`.",
    ),
    Field::opt(
        "mcp_oauth_callback_port",
        Shape::Int(Num {
            int: true,
            min: Bound::Incl(0.0),
            max: Some(65_535.0),
        }),
        "A fixed port for the MCP OAuth callback.",
    ),
    Field::opt("mcp_oauth_callback_url", STR, "The redirect URI for MCP OAuth login."),
    Field::opt(
        "mcp_optional_startup_grace_ms",
        UINT,
        "How long optional MCP servers may take to start, in milliseconds.",
    ),
    Field::opt(
        "project_doc_max_bytes",
        UINT,
        "The byte budget the AGENTS.md files from the project root down share (default 32768); the most specific file is cut first.",
    ),
    Field::opt(
        "project_doc_fallback_filenames",
        STRS,
        "Names Codex also looks for in a folder without `AGENTS.md` (file names, not paths).",
    ),
    Field::opt(
        "project_root_markers",
        STRS,
        "What marks a project's root (default `[\".git\"]`).",
    ),
    Field::opt(
        "tool_output_token_limit",
        UINT,
        "The token budget for a stored tool output.",
    ),
    Field::opt(
        "background_terminal_max_timeout",
        UINT,
        "The longest poll of a background terminal, in milliseconds (default 300000).",
    ),
    Field::opt(
        "thread_unload_delay_secs",
        UINT,
        "Seconds before an idle thread is unloaded.",
    ),
    Field::opt("js_repl_node_path", STR, "The Node.js the JavaScript REPL runs."),
    Field::opt(
        "js_repl_node_module_dirs",
        STRS,
        "Module folders for the JavaScript REPL.",
    ),
    Field::opt(
        "history",
        Shape::Object(&HISTORY),
        "Whether and how much history Codex writes to `history.jsonl`.",
    ),
    Field::opt("rollout_trace", OPAQUE, "Rollout tracing."),
    Field::opt(
        "sqlite_home",
        STR,
        "Where Codex keeps its SQLite state (default `$CODEX_HOME`).",
    ),
    Field::opt("log_dir", STR, "Where Codex writes logs (default `$CODEX_HOME/log`)."),
    Field::opt(
        "file_opener",
        Shape::Lit(&[
            Lit::Str("vscode"),
            Lit::Str("vscode-insiders"),
            Lit::Str("windsurf"),
            Lit::Str("cursor"),
            Lit::Str("none"),
        ]),
        "The editor file citations link to: `vscode`, `vscode-insiders`, `windsurf`, `cursor` or `none`.",
    ),
    Field::opt("tui", Shape::Object(&TUI), "Settings of the terminal interface."),
    Field::opt("hide_agent_reasoning", BOOL, "Hide the model's reasoning events."),
    Field::opt("show_raw_agent_reasoning", BOOL, "Show the model's raw reasoning."),
    Field::opt(
        "apps_mcp_product_sku",
        STR,
        "A product SKU sent with Codex Apps MCP requests.",
    ),
    Field::opt("responses", OPAQUE, "Responses API settings."),
    Field::opt(
        "responses_api_metadata",
        OPAQUE,
        "Metadata sent with Responses API requests.",
    ),
    Field::opt("orchestrator", OPAQUE, "Orchestrator settings."),
    Field::opt("cloud", OPAQUE, "Codex Cloud settings."),
    Field::opt("openai_base_url", STR, "Base URL of the built-in `openai` provider."),
    Field::opt("chatgpt_base_url", STR, "Base URL for ChatGPT requests."),
    Field::opt(
        "oss_provider",
        STR,
        "The provider for local models (`ollama`, `lmstudio`).",
    ),
    Field::opt("audio", Shape::Object(&AUDIO), "Audio devices for realtime voice."),
    Field::opt(
        "realtime",
        Shape::Object(&REALTIME),
        "Realtime sessions (experimental).",
    ),
    Field::opt(
        "experimental_realtime_ws_base_url",
        STR,
        "Experimental: realtime websocket base URL.",
    ),
    Field::opt(
        "experimental_realtime_webrtc_call_base_url",
        STR,
        "Experimental: realtime WebRTC base URL.",
    ),
    Field::opt("experimental_realtime_ws_model", STR, "Experimental: realtime model."),
    Field::opt(
        "experimental_realtime_ws_backend_prompt",
        STR,
        "Experimental: realtime transport instructions.",
    ),
    Field::opt(
        "experimental_realtime_ws_startup_context",
        STR,
        "Experimental: realtime startup context.",
    ),
    Field::opt(
        "experimental_realtime_start_instructions",
        STR,
        "Experimental: realtime start instructions.",
    ),
    Field::opt(
        "experimental_thread_store_endpoint",
        STR,
        "Experimental: a remote thread store.",
    ),
    Field::opt(
        "experimental_thread_store",
        OPAQUE,
        "Experimental: the thread store implementation.",
    ),
    Field::opt(
        "experimental_use_unified_exec_tool",
        BOOL,
        "Experimental: the unified exec tool.",
    ),
    Field::opt(
        "tools",
        Shape::Object(&TOOLS),
        "Tool settings (`web_search`, `experimental_request_user_input`).",
    ),
    Field::opt(
        "tool_suggest",
        Shape::Object(&TOOL_SUGGEST),
        "Tools Codex may suggest installing.",
    ),
    Field::opt(
        "web_search",
        WEB_SEARCH,
        "The web search tool: `disabled`, `cached`, `indexed` or `live`.",
    ),
    Field::opt("code_mode", OPAQUE, "Code mode settings."),
    Field::opt("goals", OPAQUE, "Goals settings."),
    Field::opt("browser_use", OPAQUE, "Browser use settings."),
    Field::opt("computer_use", OPAQUE, "Computer use settings."),
    Field::opt(
        "hooks",
        OPAQUE,
        "Lifecycle hooks (`PreToolUse`, `Stop`, ...) written in TOML.",
    ),
    Field::opt("plugins", OPAQUE, "Plugin settings by plugin name."),
    Field::opt(
        "marketplaces",
        Shape::Record(&MARKETPLACE),
        "Plugin marketplaces by name.",
    ),
    Field::opt("apps", OPAQUE, "App and connector settings by app."),
    Field::opt(
        "skills",
        Shape::Object(&SKILLS),
        "Skills: the bundled ones, the instructions block, and per-skill `enabled`.",
    ),
    Field::opt(
        "suppress_unstable_features_warning",
        BOOL,
        "Do not warn about under-development features.",
    ),
    Field::opt(
        "ghost_snapshot",
        Shape::Object(&GHOST),
        "Legacy, no effect: kept so that old files still load.",
    ),
    Field::opt(
        "check_for_update_on_startup",
        BOOL,
        "Check for updates at start (default true).",
    ),
    Field::opt("disable_paste_burst", BOOL, "Turn off burst-paste detection."),
    Field::opt(
        "analytics",
        Shape::Object(&ENABLED_ONLY),
        "`enabled = false` turns analytics off.",
    ),
    Field::opt(
        "feedback",
        Shape::Object(&ENABLED_ONLY),
        "`enabled = false` turns feedback collection off.",
    ),
    Field::opt("desktop", OPAQUE, "Desktop app settings (opaque to the CLI)."),
    Field::opt("notice", OPAQUE, "Notices the user dismissed (written by Codex)."),
    Field::opt(
        "agents",
        Shape::Object(&AGENTS),
        "Subagents: thread limits, and roles by name (`description`, `config_file`, `nickname_candidates`).",
    ),
    Field::opt("memories", OPAQUE, "The memories subsystem."),
    Field::opt("otel", OPAQUE, "OpenTelemetry export."),
    Field::opt("windows", Shape::Object(&WINDOWS), "Windows sandbox settings."),
    Field::opt(
        "features",
        Shape::Object(&FEATURES),
        "Feature flags by name (`true` or `false`); `codex features list` lists them.",
    ),
    Field::opt(
        "profile",
        STR,
        "The profile to use, from a `<name>.config.toml` file beside this one.",
    ),
    Field::opt(
        "profiles",
        Shape::Record(&OPAQUE),
        "Legacy profiles: Codex 0.171.0 reads profiles from `<name>.config.toml` files, and `-p <name>` fails while this table holds that name.",
    ),
    Field::opt(
        "projects",
        Shape::Record(&Shape::Object(&PROJECT)),
        "Projects by absolute path: `trust_level = \"trusted\"` lets Codex read the project's `.codex/config.toml`.",
    ),
];

static PROVIDER: Shape = Shape::Object(&Object {
    what: "a model provider",
    fields: &[
        Field::opt("name", STR, "The provider's display name."),
        Field::opt("base_url", STR, "Base URL of its OpenAI-compatible API."),
        Field::opt("env_key", STR, "The environment variable holding the API key."),
        Field::opt(
            "env_key_instructions",
            STR,
            "How to get a key, shown when it is missing.",
        ),
        Field::opt(
            "experimental_bearer_token",
            STR,
            "A bearer token written here (discouraged: use `env_key`).",
        ),
        Field::opt(
            "wire_api",
            Shape::Lit(&[Lit::Str("responses")]),
            "The wire protocol: `responses` (`chat` is no longer supported).",
        ),
        Field::opt("query_params", STR_MAP, "Query parameters added to the base URL."),
        Field::opt("http_headers", STR_MAP, "HTTP headers sent as written."),
        Field::opt(
            "env_http_headers",
            STR_MAP,
            "HTTP headers read from environment variables (header name to variable).",
        ),
        Field::opt("request_max_retries", UINT, "Retries of a failed request."),
        Field::opt("stream_max_retries", UINT, "Reconnections of a dropped stream."),
        Field::opt(
            "stream_idle_timeout_ms",
            UINT,
            "Idle time before a stream counts as lost, in milliseconds.",
        ),
        Field::opt(
            "websocket_connect_timeout_ms",
            UINT,
            "How long a websocket connection may take, in milliseconds.",
        ),
        Field::opt(
            "requires_openai_auth",
            BOOL,
            "Whether the provider needs an OpenAI API key or ChatGPT login.",
        ),
        Field::opt(
            "supports_websockets",
            BOOL,
            "Whether it speaks the Responses API over websockets.",
        ),
        Field::opt(
            "auth",
            Shape::Object(&PROVIDER_AUTH),
            "A command that prints a bearer token.",
        ),
        Field::opt(
            "aws",
            Shape::Object(&PROVIDER_AWS),
            "AWS SigV4 signing: `profile`, `region`.",
        ),
    ],
    rest: Rest::Drop,
});

static PROVIDER_AUTH: Object = Object {
    what: "a provider's token command",
    fields: &[
        Field::req(
            "command",
            STR,
            "The program to run (a bare name is looked up in `PATH`).",
        ),
        Field::opt("args", STRS, "Its arguments."),
        Field::opt("cwd", STR, "The folder it runs in."),
        Field::opt("timeout_ms", POSITIVE, "How long it may run (default 5000)."),
        Field::opt(
            "refresh_interval_ms",
            UINT,
            "How long a token is kept before running it again (default 300000; 0: only after a 401).",
        ),
    ],
    rest: Rest::Drop,
};

static PROVIDER_AWS: Object = Object {
    what: "AWS signing",
    fields: &[
        Field::opt("profile", STR, "The AWS profile."),
        Field::opt("region", STR, "The AWS region."),
    ],
    rest: Rest::Drop,
};

/// An MCP server (`[mcp_servers.<name>]`): a local one has `command`, a remote one `url`.
pub static MCP_SERVER: Shape = Shape::Object(&Object {
    what: "an MCP server",
    fields: &[
        Field::opt("command", STR, "The program that starts a local (stdio) server."),
        Field::opt("args", STRS, "Its arguments."),
        Field::opt("env", STR_MAP, "Environment variables it gets.").aka(&["environment", "enviroment", "envs"]),
        Field::opt(
            "env_vars",
            Shape::Array(&ENV_VAR),
            "Variables passed on from Codex's environment (a name, or `{ name, source }`).",
        ),
        Field::opt("cwd", STR, "The folder it starts in."),
        Field::opt("url", STR, "The URL of a remote (streamable HTTP) server."),
        Field::opt(
            "bearer_token_env_var",
            STR,
            "The environment variable holding a bearer token for `url`.",
        ),
        Field::opt("http_headers", STR_MAP, "HTTP headers sent as written."),
        Field::opt(
            "env_http_headers",
            STR_MAP,
            "HTTP headers read from environment variables.",
        ),
        Field::opt("enabled", BOOL, "`false` leaves the server off."),
        Field::opt("required", BOOL, "`true`: Codex fails when the server does not start."),
        Field::opt(
            "startup_timeout_sec",
            NUMBER,
            "How long it may take to start, in seconds (default 10).",
        ),
        Field::opt("startup_timeout_ms", UINT, "The same, in milliseconds."),
        Field::opt(
            "tool_timeout_sec",
            NUMBER,
            "How long a tool call may take, in seconds (default 60).",
        ),
        Field::opt("enabled_tools", STRS, "Only these tools are offered."),
        Field::opt(
            "disabled_tools",
            STRS,
            "These tools are not offered (after `enabled_tools`).",
        ),
        Field::opt(
            "default_tools_approval_mode",
            TOOL_APPROVAL,
            "Approval of its tools: `auto`, `prompt`, `writes` or `approve`.",
        ),
        Field::opt(
            "tools",
            Shape::Record(&Shape::Object(&MCP_TOOL)),
            "Per-tool settings by tool name (`approval_mode`).",
        ),
        Field::opt(
            "supports_parallel_tool_calls",
            BOOL,
            "Whether its tools may be called in parallel.",
        ),
        Field::opt("scopes", STRS, "OAuth scopes to ask for."),
        Field::opt(
            "oauth",
            Shape::Object(&MCP_OAUTH),
            "OAuth client settings (`client_id`).",
        ),
        Field::opt("oauth_resource", STR, "The OAuth resource to ask for."),
        Field::opt("environment_id", STR, "The environment the server runs in."),
        Field::opt("name", STR, "Legacy display name (read, not used)."),
    ],
    rest: Rest::Drop,
});

static ENV_VAR: Shape = Shape::Union(&[
    STR,
    Shape::Object(&Object {
        what: "an environment variable",
        fields: &[
            Field::req("name", STR, "The variable's name."),
            Field::opt("source", STR, "Where it is read from."),
        ],
        rest: Rest::Drop,
    }),
]);

static MCP_TOOL: Object = Object {
    what: "an MCP tool's settings",
    fields: &[Field::opt(
        "approval_mode",
        TOOL_APPROVAL,
        "`auto`, `prompt`, `writes` or `approve`.",
    )],
    rest: Rest::Drop,
};

static MCP_OAUTH: Object = Object {
    what: "MCP OAuth settings",
    fields: &[Field::opt("client_id", STR, "The OAuth client id.")],
    rest: Rest::Drop,
};

static AUTO_REVIEW: Object = Object {
    what: "the automatic reviewer",
    fields: &[Field::opt("policy", STR, "Policy text added to the reviewer's prompt.")],
    rest: Rest::Drop,
};

static SANDBOX_WRITE: Object = Object {
    what: "the workspace-write sandbox",
    fields: &[
        Field::opt(
            "writable_roots",
            STRS,
            "More folders commands may write to (absolute paths).",
        ),
        Field::opt(
            "network_access",
            BOOL,
            "Let commands reach the network (default false).",
        ),
        Field::opt("exclude_tmpdir_env_var", BOOL, "Do not make `$TMPDIR` writable."),
        Field::opt("exclude_slash_tmp", BOOL, "Do not make `/tmp` writable."),
    ],
    rest: Rest::Drop,
};

static SHELL_ENV: Object = Object {
    what: "the shell environment policy",
    fields: &[
        Field::opt(
            "inherit",
            Shape::Lit(&[Lit::Str("core"), Lit::Str("all"), Lit::Str("none")]),
            "What commands inherit: `core` (HOME, PATH, SHELL, USER...), `all` or `none`.",
        ),
        Field::opt(
            "ignore_default_excludes",
            BOOL,
            "Keep variables whose names hold KEY, SECRET or TOKEN.",
        ),
        Field::opt("exclude", STRS, "Patterns of variable names to remove."),
        Field::opt("include_only", STRS, "Patterns of the only variable names to keep."),
        Field::opt("set", STR_MAP, "Variables to set."),
        Field::opt(
            "experimental_use_profile",
            BOOL,
            "Run commands through the user's shell profile.",
        ),
    ],
    rest: Rest::Drop,
};

static HISTORY: Object = Object {
    what: "the history settings",
    fields: &[
        Field::opt(
            "persistence",
            Shape::Lit(&[Lit::Str("save-all"), Lit::Str("none")]),
            "`save-all` (default) or `none`.",
        ),
        Field::opt(
            "max_bytes",
            UINT,
            "The largest the history file grows; the oldest entries go first.",
        ),
    ],
    rest: Rest::Drop,
};

static TUI: Object = Object {
    what: "the terminal interface settings",
    fields: &[
        Field::opt(
            "notifications",
            Shape::Union(&[BOOL, STRS]),
            "Desktop notifications: `true`/`false`, or the kinds to notify about.",
        ),
        Field::opt(
            "notification_method",
            Shape::Lit(&[Lit::Str("auto"), Lit::Str("osc9"), Lit::Str("osc777"), Lit::Str("bel")]),
            "How to notify: `auto`, `osc9`, `osc777` or `bel`.",
        ),
        Field::opt(
            "notification_condition",
            Shape::Lit(&[Lit::Str("unfocused"), Lit::Str("always")]),
            "When to notify: `unfocused` (default) or `always`.",
        ),
        Field::opt("animations", BOOL, "Animations (default true)."),
        Field::opt("show_tooltips", BOOL, "Start-up tooltips (default true)."),
        Field::opt(
            "alternate_screen",
            Shape::Lit(&[Lit::Str("auto"), Lit::Str("always"), Lit::Str("never")]),
            "The terminal's alternate screen: `auto`, `always` or `never`.",
        ),
        Field::opt("status_line", STRS, "The status line's items, in order."),
        Field::opt("status_line_use_colors", BOOL, "Color the status line."),
        Field::opt("terminal_title", STRS, "The terminal title's items, in order."),
        Field::opt("theme", STR, "The syntax highlighting theme (kebab-case)."),
        Field::opt(
            "keymap",
            OPAQUE,
            "Key bindings by context (`global`, `composer`, `editor`, ...).",
        ),
        Field::opt(
            "model_availability_nux",
            OPAQUE,
            "Start-up tooltip state (written by Codex).",
        ),
        Field::opt("pet", STR, "The terminal pet."),
        Field::opt(
            "pet_anchor",
            Shape::Lit(&[Lit::Str("composer"), Lit::Str("screen-bottom")]),
            "Where the pet sits: `composer` or `screen-bottom`.",
        ),
        Field::opt("raw_output_mode", BOOL, "Start in raw scrollback mode."),
        Field::opt(
            "session_picker_view",
            Shape::Lit(&[Lit::Str("comfortable"), Lit::Str("dense")]),
            "The session picker's layout: `comfortable` or `dense`.",
        ),
        Field::opt(
            "terminal_resize_reflow_max_rows",
            UINT,
            "Rows kept when the terminal is resized (0: all).",
        ),
        Field::opt("vim_mode_default", BOOL, "Start the composer in Vim mode."),
    ],
    rest: Rest::Drop,
};

static AUDIO: Object = Object {
    what: "the audio settings",
    fields: &[
        Field::opt("microphone", STR, "The microphone."),
        Field::opt("microphone_channel", OPAQUE_ANY, "The microphone channel."),
        Field::opt("speaker", STR, "The speaker."),
    ],
    rest: Rest::Drop,
};

const OPAQUE_ANY: Shape = Shape::Any;

static REALTIME: Object = Object {
    what: "the realtime settings",
    fields: &[
        Field::opt(
            "version",
            Shape::Lit(&[Lit::Str("v1"), Lit::Str("v2")]),
            "`v1` or `v2`.",
        ),
        Field::opt(
            "type",
            Shape::Lit(&[Lit::Str("conversational"), Lit::Str("transcription")]),
            "`conversational` or `transcription`.",
        ),
        Field::opt(
            "transport",
            Shape::Lit(&[Lit::Str("webrtc"), Lit::Str("websocket")]),
            "`webrtc` or `websocket`.",
        ),
        Field::opt(
            "voice",
            Shape::Lit(&[
                Lit::Str("alloy"),
                Lit::Str("arbor"),
                Lit::Str("ash"),
                Lit::Str("aube"),
                Lit::Str("ballad"),
                Lit::Str("breeze"),
                Lit::Str("bubbie"),
                Lit::Str("cedar"),
                Lit::Str("coral"),
                Lit::Str("cove"),
                Lit::Str("echo"),
                Lit::Str("ember"),
                Lit::Str("haetsal"),
                Lit::Str("hanul"),
                Lit::Str("himari"),
                Lit::Str("juniper"),
                Lit::Str("leher"),
                Lit::Str("maple"),
                Lit::Str("marin"),
                Lit::Str("miko"),
                Lit::Str("neer"),
                Lit::Str("porto"),
                Lit::Str("rindo"),
                Lit::Str("rio"),
                Lit::Str("rivage"),
                Lit::Str("sage"),
                Lit::Str("selva"),
                Lit::Str("shimmer"),
                Lit::Str("sol"),
                Lit::Str("sonna"),
                Lit::Str("spruce"),
                Lit::Str("tinta"),
                Lit::Str("vale"),
                Lit::Str("verse"),
                Lit::Str("viola"),
            ]),
            "The voice.",
        ),
    ],
    rest: Rest::Drop,
};

static TOOLS: Object = Object {
    what: "the tool settings",
    fields: &[
        Field::opt(
            "web_search",
            OPAQUE_ANY,
            "Web search: `allowed_domains`, `context_size`, `location`.",
        ),
        Field::opt(
            "experimental_request_user_input",
            OPAQUE_ANY,
            "The request-user-input tool.",
        ),
        Field::opt("client_search_provider", OPAQUE_ANY, "A client-side search provider."),
        Field::opt("update_plan", OPAQUE_ANY, "The update-plan tool."),
    ],
    rest: Rest::Drop,
};

static TOOL_SUGGEST: Object = Object {
    what: "tool suggestions",
    fields: &[
        Field::opt(
            "discoverables",
            Shape::Array(&OPAQUE_ANY),
            "Tools that may be suggested (`type`, `id`).",
        ),
        Field::opt(
            "disabled_tools",
            Shape::Array(&OPAQUE_ANY),
            "Tools never suggested (`type`, `id`).",
        ),
    ],
    rest: Rest::Drop,
};

static MARKETPLACE: Shape = Shape::Object(&Object {
    what: "a marketplace",
    fields: &[
        Field::opt("source", STR, "Where it was added from."),
        Field::opt(
            "source_type",
            Shape::Lit(&[Lit::Str("git"), Lit::Str("local")]),
            "`git` or `local`.",
        ),
        Field::opt("ref", STR, "The git ref to check out."),
        Field::opt("sparse_paths", STRS, "Sparse checkout paths."),
        Field::opt("last_updated", STR, "When Codex last refreshed it (written by Codex)."),
        Field::opt("last_revision", STR, "The revision Codex last used (written by Codex)."),
    ],
    rest: Rest::Drop,
});

static SKILLS: Object = Object {
    what: "the skills settings",
    fields: &[
        Field::opt(
            "bundled",
            Shape::Object(&ENABLED_ONLY),
            "`enabled = false` turns the bundled skills off.",
        ),
        Field::opt(
            "include_instructions",
            BOOL,
            "Whether turns get the skills instructions block.",
        ),
        Field::opt(
            "config",
            Shape::Array(&Shape::Object(&SKILL)),
            "Per-skill settings: `name` or `path`, and `enabled`.",
        ),
    ],
    rest: Rest::Drop,
};

static SKILL: Object = Object {
    what: "a skill's settings",
    fields: &[
        Field::req("enabled", BOOL, "Whether the skill is on."),
        Field::opt("name", STR, "The skill, by name."),
        Field::opt("path", STR, "The skill, by the path of its SKILL.md."),
    ],
    rest: Rest::Drop,
};

static ENABLED_ONLY: Object = Object {
    what: "this setting",
    fields: &[Field::opt("enabled", BOOL, "`false` turns it off.")],
    rest: Rest::Drop,
};

static GHOST: Object = Object {
    what: "the legacy ghost snapshot settings",
    fields: &[
        Field::opt("disable_warnings", BOOL, "No effect."),
        Field::opt("ignore_large_untracked_files", INT, "No effect."),
        Field::opt("ignore_large_untracked_dirs", INT, "No effect."),
        Field::opt("large_untracked_dir_warning_threshold", INT, "No effect."),
    ],
    rest: Rest::Drop,
};

static WINDOWS: Object = Object {
    what: "the Windows settings",
    fields: &[Field::opt(
        "sandbox",
        Shape::Lit(&[Lit::Str("elevated"), Lit::Str("unelevated"), Lit::Str("mxc")]),
        "The Windows sandbox: `elevated`, `unelevated` or `mxc`.",
    )],
    rest: Rest::Drop,
};

/// `[agents]`: limits, and roles by name (each key that is not a limit is a role).
static AGENTS: Object = Object {
    what: "the agents settings",
    fields: &[
        Field::opt(
            "max_threads",
            POSITIVE,
            "How many agent threads may be open at once (1 or more).",
        ),
        Field::opt(
            "max_depth",
            INT,
            "How deep agents may spawn agents (the root is 0; default 1).",
        ),
        Field::opt(
            "job_max_runtime_seconds",
            UINT,
            "The default time limit of an agent job worker, in seconds.",
        ),
        Field::opt(
            "interrupt_message",
            BOOL,
            "Tell the model when an agent turn is interrupted (default true).",
        ),
    ],
    rest: Rest::Keep(&ROLE),
};

/// A role declared in `[agents.<name>]`.
static ROLE: Shape = Shape::Object(&Object {
    what: "an agent role",
    fields: &[
        Field::opt(
            "description",
            STR,
            "What the role is for, shown to the model when it spawns agents.",
        ),
        Field::opt(
            "config_file",
            STR,
            "A role file (a config layer with `developer_instructions`), relative to this config.toml.",
        ),
        Field::opt("nickname_candidates", STRS, "Nicknames for agents of this role."),
    ],
    rest: Rest::Drop,
});

static PROJECT: Object = Object {
    what: "a project",
    fields: &[Field::opt(
        "trust_level",
        Shape::Lit(&[Lit::Str("trusted"), Lit::Str("untrusted")]),
        "`trusted`: Codex reads the project's `.codex/` layer; `untrusted`: it does not.",
    )],
    rest: Rest::Drop,
};

static FEATURES: Object = Object {
    what: "the feature flags",
    fields: super::features::FLAGS,
    rest: Rest::Drop,
};
