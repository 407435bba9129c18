//! What opencode 1.18.34 knows, as data: agent fields, top-level keys, permission keys, colors,
//! built-in agents. Facts from `shared/spec/opencode.md` (section numbers in comments).

/// The type of an agent field, as opencode's schema decodes it (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    String,
    /// A finite number; no range check.
    Number,
    /// An integer greater than 0.
    PositiveInt,
    Bool,
    /// `subagent` | `primary` | `all`.
    Mode,
    /// `#rrggbb` or a theme color.
    Color,
    /// A string `provider/model`.
    Model,
    /// Any object (provider options).
    Object,
    /// Record of booleans (deprecated `tools`).
    Tools,
    /// A permission config (§6).
    Permission,
    /// `name`: not checked when the configuration is read, but the agent list opencode builds
    /// requires a string.
    Name,
}

pub struct Field {
    pub name: &'static str,
    pub ty: FieldType,
    pub doc: &'static str,
}

/// Agent fields (`agent.<name>` in JSON and Markdown frontmatter), §4.
pub static AGENT_FIELDS: &[Field] = &[
    Field {
        name: "description",
        ty: FieldType::String,
        doc: "What the agent does; shown to the Task tool when choosing a subagent.",
    },
    Field {
        name: "mode",
        ty: FieldType::Mode,
        doc: "`subagent`, `primary` or `all` (default `all` for new agents).",
    },
    Field {
        name: "model",
        ty: FieldType::Model,
        doc: "`provider/model`; inherits the caller's model when absent.",
    },
    Field {
        name: "variant",
        ty: FieldType::String,
        doc: "Default model variant, used only with the agent's own `model`.",
    },
    Field {
        name: "temperature",
        ty: FieldType::Number,
        doc: "Sampling temperature (no range check).",
    },
    Field {
        name: "top_p",
        ty: FieldType::Number,
        doc: "Nucleus sampling (`topP` is not recognized).",
    },
    Field {
        name: "prompt",
        ty: FieldType::String,
        doc: "System prompt; replaces the provider default. In Markdown the body is the prompt.",
    },
    Field {
        name: "tools",
        ty: FieldType::Tools,
        doc: "Deprecated: tool name to true/false; use `permission`.",
    },
    Field {
        name: "disable",
        ty: FieldType::Bool,
        doc: "`true` removes the agent (built-ins too).",
    },
    Field {
        name: "hidden",
        ty: FieldType::Bool,
        doc: "Hide from the Tab cycle, `@` menu and default-agent choice (still callable by Task).",
    },
    Field {
        name: "color",
        ty: FieldType::Color,
        doc: "`#rrggbb` or a theme color (`primary`, `secondary`, `accent`, `success`, `warning`, `error`, `info`).",
    },
    Field {
        name: "steps",
        ty: FieldType::PositiveInt,
        doc: "Maximum agentic iterations before a text-only answer is forced.",
    },
    Field {
        name: "maxSteps",
        ty: FieldType::PositiveInt,
        doc: "Deprecated: use `steps`.",
    },
    Field {
        name: "permission",
        ty: FieldType::Permission,
        doc: "Permission rules, appended after the inherited ones (last match wins).",
    },
    Field {
        name: "options",
        ty: FieldType::Object,
        doc: "Provider options, deep-merged.",
    },
    Field {
        name: "name",
        ty: FieldType::Name,
        doc: "Display name; in Markdown it also replaces the name derived from the path.",
    },
];

pub fn agent_field(name: &str) -> Option<&'static Field> {
    AGENT_FIELDS.iter().find(|f| f.name == name)
}

pub const MODES: &[&str] = &["subagent", "primary", "all"];
pub const ACTIONS: &[&str] = &["allow", "ask", "deny"];
pub use crate::analysis::color::THEME_COLORS;

/// Full top-level key list of `Config` in 1.18.34 (§10).
pub const TOP_LEVEL_KEYS: &[&str] = &[
    "$schema",
    "shell",
    "logLevel",
    "server",
    "command",
    "skills",
    "references",
    "reference",
    "watcher",
    "snapshot",
    "plugin",
    "share",
    "autoshare",
    "autoupdate",
    "disabled_providers",
    "enabled_providers",
    "model",
    "small_model",
    "default_agent",
    "subagent_depth",
    "username",
    "mode",
    "agent",
    "provider",
    "mcp",
    "formatter",
    "lsp",
    "instructions",
    "layout",
    "permission",
    "tools",
    "attachment",
    "enterprise",
    "tool_output",
    "compaction",
    "experimental",
];

/// V2 spellings that opencode 1.18 lowers into V1 keys (§13): key, V1 key, what happens.
pub const V2_LOWERED_KEYS: &[(&str, &str)] = &[
    ("agents", "agent"),
    ("commands", "command"),
    ("snapshots", "snapshot"),
    ("media", "attachment"),
];

/// V2 keys 1.18 drops with a logged warning (§10).
pub const V2_IGNORED_KEYS: &[(&str, Option<&str>)] = &[
    ("plugins", Some("plugin")),
    ("providers", Some("provider")),
    ("websearch", None),
    ("warming", None),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermissionValue {
    /// An action, or an object of pattern → action.
    ActionOrObject,
    /// An action string only.
    ActionOnly,
}

pub struct PermissionKey {
    pub name: &'static str,
    pub value: PermissionValue,
    /// What the pattern is matched against.
    pub matches: &'static str,
}

/// Permission keys known to opencode 1.18.34 (§6.1). Any other key is allowed (MCP and custom
/// tools), except the dead keys below.
pub static PERMISSION_KEYS: &[PermissionKey] = &[
    PermissionKey {
        name: "read",
        value: PermissionValue::ActionOrObject,
        matches: "the file path relative to the worktree",
    },
    PermissionKey {
        name: "edit",
        value: PermissionValue::ActionOrObject,
        matches: "the file path; covers the edit, write and apply_patch tools",
    },
    PermissionKey {
        name: "glob",
        value: PermissionValue::ActionOrObject,
        matches: "the glob pattern argument",
    },
    PermissionKey {
        name: "grep",
        value: PermissionValue::ActionOrObject,
        matches: "the regex pattern argument",
    },
    PermissionKey {
        name: "bash",
        value: PermissionValue::ActionOrObject,
        matches: "each simple command's source text",
    },
    PermissionKey {
        name: "task",
        value: PermissionValue::ActionOrObject,
        matches: "the subagent name",
    },
    PermissionKey {
        name: "external_directory",
        value: PermissionValue::ActionOrObject,
        matches: "`<absolute dir>/*` of a path outside the project",
    },
    PermissionKey {
        name: "todowrite",
        value: PermissionValue::ActionOnly,
        matches: "`*`",
    },
    PermissionKey {
        name: "question",
        value: PermissionValue::ActionOnly,
        matches: "`*` (only deny has an effect)",
    },
    PermissionKey {
        name: "webfetch",
        value: PermissionValue::ActionOnly,
        matches: "the URL",
    },
    PermissionKey {
        name: "websearch",
        value: PermissionValue::ActionOnly,
        matches: "the query text",
    },
    PermissionKey {
        name: "lsp",
        value: PermissionValue::ActionOrObject,
        matches: "`*` (experimental tool)",
    },
    PermissionKey {
        name: "doom_loop",
        value: PermissionValue::ActionOnly,
        matches: "the tool name, after 3 identical calls in a row",
    },
    PermissionKey {
        name: "skill",
        value: PermissionValue::ActionOrObject,
        matches: "the skill name",
    },
    PermissionKey {
        name: "plan_enter",
        value: PermissionValue::ActionOrObject,
        matches: "`*`",
    },
    PermissionKey {
        name: "plan_exit",
        value: PermissionValue::ActionOrObject,
        matches: "`*`",
    },
];

pub fn permission_key(name: &str) -> Option<&'static PermissionKey> {
    PERMISSION_KEYS.iter().find(|k| k.name == name)
}

/// Permission keys that no tool consults in 1.18.34 (§6.2), with what to use instead.
pub const DEAD_PERMISSION_KEYS: &[(&str, &str)] = &[
    ("write", "the write tool is governed by `edit`"),
    ("patch", "patches are governed by `edit`"),
    ("apply_patch", "the apply_patch tool is governed by `edit`"),
    ("multiedit", "multi-edits are governed by `edit`"),
    ("todoread", "there is no todoread tool in opencode 1.18"),
    ("codesearch", "there is no codesearch tool in opencode 1.18"),
    ("list", "opencode 1.18 ships no list tool (use `glob` or `read`)"),
];

/// Which tool keys of the deprecated `tools` map become which permission key (§4).
pub fn tools_key_to_permission(key: &str) -> &str {
    match key {
        "write" | "edit" | "patch" => "edit",
        other => other,
    }
}

pub struct BuiltinAgent {
    pub name: &'static str,
    pub mode: &'static str,
    pub hidden: bool,
    /// The runtime's own description, verbatim (the hidden internal agents have none).
    pub description: Option<&'static str>,
    /// What the agent is for, in a few words (for completion and hover, where the runtime's
    /// description is long or missing).
    pub role: &'static str,
}

/// The 7 built-in agents of 1.18.34, in insertion order (§7; descriptions as the runtime
/// builds them).
pub static BUILTIN_AGENTS: &[BuiltinAgent] = &[
    BuiltinAgent {
        name: "build",
        mode: "primary",
        hidden: false,
        description: Some("The default agent. Executes tools based on configured permissions."),
        role: "the default agent: executes tools as permissions allow",
    },
    BuiltinAgent {
        name: "plan",
        mode: "primary",
        hidden: false,
        description: Some("Plan mode. Disallows all edit tools."),
        role: "plan mode: edits denied except plan files",
    },
    BuiltinAgent {
        name: "general",
        mode: "subagent",
        hidden: false,
        description: Some(
            "General-purpose agent for researching complex questions and executing multi-step tasks. Use this agent to execute multiple units of work in parallel.",
        ),
        role: "general-purpose subagent",
    },
    BuiltinAgent {
        name: "explore",
        mode: "subagent",
        hidden: false,
        description: Some(
            "Fast agent specialized for exploring codebases. Use this when you need to quickly find files by patterns (eg. \"src/components/**/*.tsx\"), search code for keywords (eg. \"API endpoints\"), or answer questions about the codebase (eg. \"how do API endpoints work?\"). When calling this agent, specify the desired thoroughness level: \"quick\" for basic searches, \"medium\" for moderate exploration, or \"very thorough\" for comprehensive analysis across multiple locations and naming conventions.",
        ),
        role: "read-only codebase exploration subagent",
    },
    BuiltinAgent {
        name: "compaction",
        mode: "primary",
        hidden: true,
        description: None,
        role: "internal: compacts long sessions",
    },
    BuiltinAgent {
        name: "title",
        mode: "primary",
        hidden: true,
        description: None,
        role: "internal: writes session titles",
    },
    BuiltinAgent {
        name: "summary",
        mode: "primary",
        hidden: true,
        description: None,
        role: "internal: writes session summaries",
    },
];

/// Fields of a `command.<name>` entry (§11.1).
pub const COMMAND_FIELDS: &[&str] = &["template", "description", "agent", "model", "variant", "subtask"];

/// The rules that check opencode files beyond those every dialect has
/// ([`crate::analysis::rules::EVERY_DIALECT`]); the book's rules index and `agent-lsp rules` list them by
/// dialect.
pub const RULES: &[crate::analysis::rules::Code] = &[
    crate::analysis::rules::Code::NoFrontmatter,
    crate::analysis::rules::Code::InvalidDefaultAgent,
    crate::analysis::rules::Code::UnknownPermission,
    crate::analysis::rules::Code::PromptOverridden,
    crate::analysis::rules::Code::V2Permissions,
    crate::analysis::rules::Code::MisplacedFrontmatter,
    crate::analysis::rules::Code::HiddenPrimary,
    crate::analysis::rules::Code::BroadPattern,
    crate::analysis::rules::Code::BadFileReference,
    crate::analysis::rules::Code::UnknownSkill,
    crate::analysis::rules::Code::UnsubstitutedVariable,
    crate::analysis::rules::Code::MissingPath,
    crate::analysis::rules::Code::LenientParse,
    crate::analysis::rules::Code::UnpinnedPackage,
    crate::analysis::rules::Code::BroadGrant,
    crate::analysis::rules::Code::UndescribedSubagent,
    crate::analysis::rules::Code::OverriddenDeny,
];
