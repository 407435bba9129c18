//! What Zuno knows, as data: top-level keys, agent fields, permission keys and modes, tool
//! names and built-in agents. Facts: `shared/spec/zuno.md`, checked against Zuno's schema
//! (`schemas/zuno.json`, newest revision e256a42 and the older 0cd94ce) and its code. Zuno's
//! revisions disagree in places; those facts carry a `Conflict` and are reported leniently.

/// Top-level keys of `zuno.json(c)` in the newest schema revision (e256a42); any other key
/// refuses the configuration.
pub const TOP_LEVEL: &[(&str, &str)] = &[
    ("$schema", "JSON schema reference for editor validation."),
    ("agents", "Agent definitions and overrides, keyed by agent name."),
    ("attachment", "Attachment processing."),
    ("command", "Custom commands, keyed by command name."),
    ("compaction", "Context-compaction behaviour."),
    (
        "concurrency",
        "Bounded concurrency for independent runtime capabilities.",
    ),
    (
        "continuity",
        "Model-facing access to durable session history and notes.",
    ),
    (
        "default_agent",
        "Agent to use when none is named. Must be a primary agent.",
    ),
    (
        "disabled_providers",
        "Providers to drop even when their credentials are present.",
    ),
    ("enabled_providers", "When set, the only providers to enable."),
    ("formatter", "Formatters: a switch, or per-formatter overrides."),
    ("goal", "Persistent goal continuation and retry settings."),
    (
        "instructions",
        "Additional instruction files or glob patterns (concatenated across layers).",
    ),
    (
        "learning",
        "User-experience extraction, retrieval, aggregation, and Skill review.",
    ),
    ("logLevel", "Log level."),
    ("lsp", "LSP servers: a switch, or per-server overrides."),
    ("mcp", "MCP servers."),
    ("memory", "Persistent resident-memory configuration."),
    ("model", "Default model, in `provider/model` form."),
    (
        "navigation",
        "What the runtime asks of a code-intelligence index before reading source.",
    ),
    ("permission", "Global permissions: `{mode, rules}`."),
    ("preset", "Active team model-routing preset."),
    ("presets", "Named team model-routing presets."),
    ("productAgent", "Native Codex and Claude Code subagent instances."),
    ("provider", "Custom providers and model overrides."),
    ("references", "Named git or local directory references."),
    ("runtime", "Deployment ceilings for the component runtime."),
    ("sandbox", "Native OS sandbox policy for model-initiated shell calls."),
    ("server", "Server configuration for `zuno serve` and the web command."),
    ("shell", "Default shell for terminals and the model-facing shell tool."),
    ("skills", "Skill discovery and model-visible catalog settings."),
    ("small_model", "Model for cheap side tasks such as title generation."),
    ("snapshot", "Record filesystem snapshots so edits can be undone."),
    ("subagent_depth", "Maximum subagent nesting depth (default 1)."),
    (
        "subagent_model_selection",
        "Host-owned allowlist for child model and effort selection.",
    ),
    (
        "tool_output",
        "Size limits above which tool output is withheld from the model.",
    ),
    ("tools", "Tool switches, keyed by tool name."),
    (
        "trust",
        "Trust this host extends to project checkouts (never from a project layer).",
    ),
    ("watcher", "File-watcher configuration."),
    ("web_search", "Web-search provider and batch limits."),
    ("workflows", "Named, immutable multi-agent workflow templates."),
];

/// Top-level keys only an older schema revision (0cd94ce) accepts: a warning, with what the
/// newest revision uses instead when it has one.
pub const TOP_LEVEL_OLD: &[(&str, Option<&str>)] = &[
    ("agent", Some("agents")),
    ("authorization", Some("permission")),
    ("autoupdate", None),
    ("enterprise", None),
    ("experimental", None),
    ("share", None),
    ("username", None),
];

/// Top-level keys Zuno rejects as legacy opencode forms (`docs/rejected-inputs.md`), with the
/// replacement its message names.
pub const TOP_LEVEL_REJECTED: &[(&str, &str)] = &[
    ("mode", "use `agents` with `mode: \"primary\"` for each entry"),
    ("autoshare", "use `share` (`autoshare: true` is `share: \"auto\"`)"),
    ("layout", "removed: delete it; the layout is always stretched"),
    ("reference", "use `references`"),
];

/// The type of an agent field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    String,
    Number,
    /// An integer >= 1 (uint32).
    PositiveInt,
    Bool,
    Mode,
    Reasoning,
    /// `provider/model`.
    Model,
    /// A theme color or `#rrggbb`.
    Color,
    /// A list of strings: not empty, no blank or repeated entry.
    Names,
    Object,
    Permission,
    /// `name` in frontmatter: replaces the name derived from the path.
    Name,
}

pub struct Field {
    pub name: &'static str,
    pub ty: FieldType,
    pub doc: &'static str,
}

macro_rules! fields {
    ($($name:literal: $ty:ident, $doc:literal;)*) => {
        pub static AGENT_FIELDS: &[Field] = &[$(Field { name: $name, ty: FieldType::$ty, doc: $doc }),*];
    };
}

fields! {
    "description": String, "When to use the agent.";
    "mode": Mode, "`subagent`, `primary` or `all` (a new agent defaults to `all`). `default_agent` must be primary; a `primary`-only agent cannot be delegated to.";
    "model": Model, "The model, always `provider/model`.";
    "variant": String, "Default model variant; applies only with the agent's own `model`.";
    "reasoning": Reasoning, "Provider-neutral reasoning level: `off`, `low`, `medium`, `high`, `xhigh` or `max`; applies only with the agent's own `model`.";
    "temperature": Number, "Sampling temperature.";
    "top_p": Number, "Nucleus-sampling cutoff.";
    "steps": PositiveInt, "Maximum tool-capable iterations before one text-only finalisation (an integer >= 1).";
    "color": Color, "A theme color (`primary`, `secondary`, `accent`, `success`, `warning`, `error`, `info`) or `#rrggbb`.";
    "hidden": Bool, "Hide the agent from the `@` autocomplete menu.";
    "disable": Bool, "Remove this agent (built-ins too).";
    "prompt": String, "System prompt (in a Markdown agent the body always replaces it).";
    "tools": Names, "Exact model-visible tool allowlist (a list of tool names).";
    "delegates": Names, "Exact allowlist of agents this agent may delegate to (each `subagent` or `all`); replaces the built-in list.";
    "requiredSkills": Names, "Skills loaded every turn; each must resolve to exactly one skill, else the agent fails to start.";
    "options": Object, "Provider options; every unknown agent key is swept in here.";
    "permission": Permission, "`{mode: standard|strict|allow_all, rules: {...}}`; rules are ordered and the last match wins.";
    "name": Name, "In a Markdown agent: replaces the name derived from the path.";
}

pub fn agent_field(name: &str) -> Option<&'static Field> {
    AGENT_FIELDS.iter().find(|f| f.name == name)
}

/// Agent keys Zuno rejects, with the replacement its message names.
pub const AGENT_REJECTED: &[(&str, &str)] = &[("maxSteps", "use `steps`")];

pub const MODES: &[&str] = &["subagent", "primary", "all"];
pub const REASONING: &[&str] = &["off", "low", "medium", "high", "xhigh", "max"];
pub const PERMISSION_MODES: &[(&str, &str)] = &[
    ("standard", "The default: the rules, plus risk gates."),
    ("strict", "A fresh human decision for every side-effecting call."),
    (
        "allow_all",
        "No prompts; explicit denies, catastrophic-command refusals, the sandbox and argument validation still apply.",
    ),
];
pub const ACTIONS: &[&str] = &["allow", "ask", "deny"];

/// Permission rule keys Zuno knows (any other key is kept: MCP, plugin and skill tools).
pub const PERMISSION_KEYS: &[(&str, &str)] = &[
    ("read", "Reading files (paths)."),
    (
        "edit",
        "Every file change: the write, edit and apply_patch tools (paths).",
    ),
    ("glob", "File globbing."),
    ("grep", "Content search."),
    ("list", "Directory listing."),
    ("shell", "Shell commands (patterns such as `git *`); `bg` follows it."),
    ("task", "Delegation to other agents (agent names)."),
    ("external_directory", "Access outside the project: `<dir>/*` patterns."),
    ("plan_get", "Reading the plan (a bare action only)."),
    ("plan_update", "Updating the plan (a bare action only)."),
    ("todo_get", "Reading the todo list (a bare action only)."),
    ("todo_update", "Updating the todo list (a bare action only)."),
    ("question", "Asking the user (a bare action only)."),
    ("webfetch", "Fetching URLs (a bare action only)."),
    ("web_search", "Web search (a bare action only)."),
    ("lsp", "Language-server queries."),
    ("doom_loop", "Repeating the same call (a bare action only)."),
    ("skill", "Loading skills (skill names)."),
];

/// Keys that take a bare action, not per-pattern rules.
pub const ACTION_ONLY_KEYS: &[&str] = &[
    "plan_get",
    "plan_update",
    "todo_get",
    "todo_update",
    "question",
    "webfetch",
    "web_search",
    "doom_loop",
];

/// Rule keys that never match anything, with the key that governs them.
pub const DEAD_PERMISSION_KEYS: &[(&str, &str)] = &[
    ("write", "edit"),
    ("apply_patch", "edit"),
    ("list_mcp_resources", "read"),
    ("list_mcp_resource_templates", "read"),
    ("read_mcp_resource", "read"),
];

/// Older names of permission keys.
pub const OLD_PERMISSION_KEYS: &[(&str, &str)] = &[("bash", "shell"), ("todowrite", "todo_update")];

/// Model-visible tool names (the default surface and the registered ones).
pub const TOOLS: &[&str] = &[
    "read",
    "glob",
    "grep",
    "write",
    "apply_patch",
    "shell",
    "bg",
    "task",
    "job",
    "webfetch",
    "web_search",
    "skill",
    "question",
    "plan_get",
    "plan_update",
    "todo_get",
    "todo_update",
    "goal_get",
    "goal_update",
    "memory_propose",
    "council_run",
    "tool_search",
    "history",
    "notes",
    "edit",
    "execute",
    "lsp",
];

pub struct BuiltinAgent {
    pub name: &'static str,
    pub mode: &'static str,
    pub hidden: bool,
    pub description: &'static str,
    pub delegates: &'static [&'static str],
}

const WORK: &[&str] = &["deep", "fixer", "general", "explorer", "librarian", "oracle", "looker"];

/// Built-in agents (Zuno's catalog code; its docs list the first ten of the visible ones).
pub static BUILTIN_AGENTS: &[BuiltinAgent] = &[
    BuiltinAgent {
        name: "orchestrator",
        mode: "primary",
        hidden: false,
        description: "Coordinates non-trivial delivery: builds a dependency graph, delegates bounded non-overlapping work, integrates results, and independently verifies completion.",
        delegates: WORK,
    },
    BuiltinAgent {
        name: "build",
        mode: "primary",
        hidden: false,
        description: "Owns one direct development lane end to end, without child agents.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "plan",
        mode: "primary",
        hidden: false,
        description: "Researches the repository and produces an implementation-ready plan without changing product files.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "review",
        mode: "primary",
        hidden: false,
        description: "Reviews a plan, design, or root-cause analysis against recorded evidence, without changing product files.",
        delegates: &["explorer", "librarian", "oracle"],
    },
    BuiltinAgent {
        name: "deep",
        mode: "all",
        hidden: false,
        description: "Owns difficult debugging and cross-cutting work through evidence, hypotheses and experiments.",
        delegates: WORK,
    },
    BuiltinAgent {
        name: "fixer",
        mode: "subagent",
        hidden: false,
        description: "Completes a known local code change with the smallest sufficient patch.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "general",
        mode: "subagent",
        hidden: false,
        description: "Completes one bounded miscellaneous deliverable that no narrower specialist owns.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "explorer",
        mode: "subagent",
        hidden: false,
        description: "Maps repository structure, definitions, callers, and change impact without modifying the working tree.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "librarian",
        mode: "subagent",
        hidden: false,
        description: "Researches current external documentation, releases, standards, and upstream implementations.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "oracle",
        mode: "subagent",
        hidden: false,
        description: "Reviews code and architecture, surfaces failure modes, and recommends one trade-off.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "looker",
        mode: "subagent",
        hidden: false,
        description: "Inspects images, screenshots, PDFs, and diagrams.",
        delegates: &[],
    },
    BuiltinAgent {
        name: "compaction",
        mode: "primary",
        hidden: true,
        description: "",
        delegates: &[],
    },
    BuiltinAgent {
        name: "title",
        mode: "primary",
        hidden: true,
        description: "",
        delegates: &[],
    },
    BuiltinAgent {
        name: "summary",
        mode: "primary",
        hidden: true,
        description: "",
        delegates: &[],
    },
    BuiltinAgent {
        name: "council-synth",
        mode: "primary",
        hidden: true,
        description: "",
        delegates: &[],
    },
];

pub fn builtin(name: &str) -> Option<&'static BuiltinAgent> {
    BUILTIN_AGENTS.iter().find(|b| b.name == name)
}

/// The rules that check Zuno files beyond those every dialect has
/// ([`crate::analysis::rules::EVERY_DIALECT`]); the book's rules index and `agent-lsp rules` list them by
/// dialect.
pub const RULES: &[crate::analysis::rules::Code] = &[
    crate::analysis::rules::Code::InvalidDefaultAgent,
    crate::analysis::rules::Code::UnknownPermission,
    crate::analysis::rules::Code::PromptOverridden,
];
