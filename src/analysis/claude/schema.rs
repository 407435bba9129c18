//! What Claude Code 2.1.332 knows, as data: frontmatter keys, their accepted values, tool names,
//! model aliases and built-in agent types (spec `claude-code.md` §1.3, §1.5, §2, §6.2, §7.5-7.6).

/// How the loader reads a field's value (spec §7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// `name`: a string; other types skip the file.
    Name,
    /// `description`: a string; anything else skips the file.
    Description,
    /// `tools`, `disallowedTools`, `skills`: a string or a list, split on commas and spaces.
    List,
    /// `model`: a non-blank string.
    Model,
    /// Exactly one of the values (case and spaces matter).
    Enum(&'static [&'static str]),
    /// `effort`: a level in any case, `med`, or an integer (a number or string is cut to its
    /// leading integer).
    Effort,
    /// `maxTurns`: a positive integer, strings read leniently.
    PositiveInt,
    /// `autoCompactWindow`: an integer of at least 100000.
    CompactWindow,
    /// `background`: a YAML boolean or the string `"true"`/`"false"`.
    Bool,
    /// `omitClaudeMd`: `true` or `"true"`; anything else is false, silently.
    LooseBool,
    /// `initialPrompt`, `observerMessage`: a non-blank string.
    Text,
    /// `mcpServers`: a list of server names or one-key maps.
    McpServers,
    /// `hooks`: the settings-style hooks map (a problem skips the file).
    Hooks,
    /// `experimental` and the observer flags: accepted, not checked.
    Any,
}

pub struct Field {
    pub name: &'static str,
    pub ty: FieldType,
    pub doc: &'static str,
    /// Plugin agents ignore it (with a warning in the debug log, spec §7.9).
    pub plugin_ignored: bool,
}

pub const COLORS: &[&str] = &["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"];
pub const PERMISSION_MODES: &[&str] = &["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];
pub const EFFORTS: &[&str] = &["low", "medium", "high", "xhigh", "max"];
pub const MEMORY: &[&str] = &["user", "project", "local"];
pub const ISOLATION: &[&str] = &["worktree", "remote"];

macro_rules! fields {
    ($($name:literal: $ty:expr, $plugin:literal, $doc:literal;)*) => {
        pub static FIELDS: &[Field] = &[$(Field { name: $name, ty: $ty, plugin_ignored: $plugin, doc: $doc }),*];
    };
}

use FieldType::*;

fields! {
    "name": Name, false, "The agent's identifier, used verbatim as its agent type (`@agent-<name>`, `Agent(<name>)`). Required: a file without a string `name` is not an agent. Must not start with `-`, contain `:` or exceed 256 characters.";
    "description": Description, false, "When Claude should delegate to this agent. Required: without a string description the file is skipped. `\\n` becomes a line break.";
    "tools": List, false, "The tools the agent may use: a comma-separated string or a list. Omitted: every tool the parent has. Empty: no tools. `*`: all tools. Supports `mcp__<server>`, `mcp__<server>__<tool>` and `Agent(type, ...)`.";
    "disallowedTools": List, false, "Tools removed from the agent (applied before `tools`). Same form as `tools`; `mcp__*` removes every MCP tool.";
    "model": Model, false, "`sonnet`, `opus`, `haiku`, `fable`, a full model id, or `inherit` (the default: the parent's model). Not checked at load.";
    "color": Enum(COLORS), false, "The agent's color in the interface: `red`, `blue`, `green`, `yellow`, `purple`, `orange`, `pink` or `cyan`. Anything else is dropped silently.";
    "effort": Effort, false, "Reasoning effort: `low`, `medium`, `high`, `xhigh`, `max` (any case; `med` means `medium`) or an integer.";
    "permissionMode": Enum(PERMISSION_MODES), true, "How the agent asks for permission: `default` (`manual` is an alias), `acceptEdits`, `auto`, `dontAsk`, `bypassPermissions` or `plan`. Ignored for plugin agents.";
    "mcpServers": McpServers, true, "MCP servers for this agent: names of configured servers, or one-key maps `{name: config}`. Ignored for plugin agents.";
    "hooks": Hooks, true, "Hooks scoped to this agent (same form as the settings `hooks`). A malformed value skips the whole file. Ignored for plugin agents.";
    "maxTurns": PositiveInt, false, "The most agentic turns before the agent stops: a positive integer.";
    "autoCompactWindow": CompactWindow, false, "The context size at which the conversation is compacted: an integer of at least 100000.";
    "skills": List, false, "Skills preloaded into the agent's context (their full content), by name.";
    "initialPrompt": Text, true, "A first user turn submitted automatically when the agent runs as the main session (`--agent`).";
    "memory": Enum(MEMORY), false, "Persistent memory: `user` (`~/.claude/agent-memory/`), `project` (`.claude/agent-memory/`) or `local` (`.claude/agent-memory-local/`).";
    "background": Bool, false, "`true`: the agent always runs in the background. A boolean, or the string `\"true\"`/`\"false\"`.";
    "omitClaudeMd": LooseBool, false, "`true`: the agent's context leaves out CLAUDE.md.";
    "isolation": Enum(ISOLATION), false, "`worktree` runs the agent in its own git worktree; `remote` runs it remotely.";
    "observer": Any, true, "Marks the agent as an observer of the main session.";
    "observerMessage": Any, true, "The message an observer agent is given.";
    "observeToolResults": Any, false, "Whether an observer sees tool results.";
    "observeSubagents": Any, true, "Whether an observer sees subagents.";
    "experimental": Any, false, "Experimental settings; `cacheTtl` (`5m` or `1h`) is used, other keys are ignored.";
}

pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}

/// Built-in tools (spec §2), case-sensitive.
pub const TOOLS: &[&str] = &[
    "Agent",
    "Artifact",
    "AskUserQuestion",
    "Bash",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EndConversation",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "ListAgents",
    "ListMcpResourcesTool",
    "LSP",
    "Monitor",
    "NotebookEdit",
    "PowerShell",
    "PushNotification",
    "Read",
    "ReadMcpResourceTool",
    "RemoteTrigger",
    "ReportFindings",
    "ScheduleWakeup",
    "SendMessage",
    "SendUserFile",
    "ShareOnboardingGuide",
    "Skill",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TodoWrite",
    "ToolSearch",
    "WaitForMcpServers",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
];

/// Tools removed from every subagent even when listed (spec §1.5), with the exception.
pub const SUBAGENT_REMOVED: &[&str] = &[
    "AskUserQuestion",
    "EndConversation",
    "EnterPlanMode",
    "ExitPlanMode",
    "ScheduleWakeup",
    "TaskOutput",
    "WaitForMcpServers",
    "Workflow",
];

/// Old tool names (spec §2.1): what each became. `Task` still works as an alias of `Agent`.
pub const LEGACY_TOOLS: &[(&str, Option<&str>, &str)] = &[
    (
        "Task",
        Some("Agent"),
        "`Task` is the old name of `Agent` and still works",
    ),
    (
        "MultiEdit",
        Some("Edit"),
        "`MultiEdit` is a legacy tool; `Edit` covers it",
    ),
    (
        "LS",
        Some("Glob"),
        "`LS` no longer exists; listing files is `Glob` (or `Bash`)",
    ),
    (
        "NotebookRead",
        Some("Read"),
        "`NotebookRead` no longer exists; `Read` reads notebooks",
    ),
    ("TodoRead", Some("TodoWrite"), "`TodoRead` no longer exists"),
    ("SlashCommand", Some("Skill"), "`SlashCommand` was replaced by `Skill`"),
    ("KillShell", Some("TaskStop"), "`KillShell` was replaced by `TaskStop`"),
    (
        "BashOutput",
        Some("Read"),
        "`BashOutput` was replaced by `TaskOutput` and `Read`",
    ),
    ("MCPSearch", Some("ToolSearch"), "`MCPSearch` is now `ToolSearch`"),
];

pub fn legacy(name: &str) -> Option<&'static (&'static str, Option<&'static str>, &'static str)> {
    LEGACY_TOOLS.iter().find(|(n, _, _)| *n == name)
}

/// Tools whose parenthesised specifier is kept in agent `tools` (the others lose it, spec §1.4).
pub const SPECIFIER_TOOLS: &[&str] = &["Agent", "Task"];

/// Model aliases (spec §1.3, §6.2).
pub const MODEL_ALIASES: &[(&str, &str)] = &[
    (
        "inherit",
        "the model of the conversation that starts the agent (the default)",
    ),
    ("sonnet", "the latest Sonnet model"),
    ("opus", "the latest Opus model"),
    ("haiku", "the latest Haiku model"),
    ("fable", "the newest alias in the 2026-08 documentation"),
    ("best", "the most capable model available"),
    ("opusplan", "Opus while planning, Sonnet otherwise"),
    ("sonnet[1m]", "Sonnet with a one-million-token context"),
    ("opus[1m]", "Opus with a one-million-token context"),
    ("default", "the account's default model"),
];

/// Built-in agent types (spec §1.5): valid in `Agent(...)` without a file.
pub const BUILTIN_AGENTS: &[(&str, &str)] = &[
    (
        "general-purpose",
        "General-purpose agent for researching complex questions and multi-step tasks",
    ),
    (
        "Explore",
        "Fast read-only agent for searching and understanding a codebase",
    ),
    ("Plan", "Software-architect agent for designing implementation plans"),
    ("claude", "Claude itself, as a subagent"),
    ("statusline-setup", "Configures the user's status line"),
    (
        "claude-code-guide",
        "Answers questions about Claude Code, the Agent SDK and the API",
    ),
    ("fork", "A fork of the current conversation (fork mode)"),
];

/// Keys of skills and commands, often written in agents by mistake (spec §1.3), and what the
/// loader's own hint says (spec §7.6).
pub fn loader_hint(key: &str) -> Option<&'static str> {
    let squash = |s: &str| s.to_lowercase().replace(['-', '_'], "");
    let k = squash(key);
    if k == "allowedtools" {
        return Some("tools");
    }
    if k == "whentouse" {
        return Some("description");
    }
    if key == "mode" {
        return None;
    }
    if let Some(f) = FIELDS.iter().find(|f| squash(f.name) == k) {
        return Some(f.name);
    }
    FIELDS
        .iter()
        .map(|f| (strsim::levenshtein(key, f.name), f.name))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// The rules that check Claude Code files beyond those every dialect has
/// ([`crate::analysis::rules::EVERY_DIALECT`]); the book's rules index and `agent-lsp rules` list them by
/// dialect.
pub const RULES: &[crate::analysis::rules::Code] = &[
    crate::analysis::rules::Code::NoFrontmatter,
    crate::analysis::rules::Code::UnknownTool,
    crate::analysis::rules::Code::IgnoredSpecifier,
    crate::analysis::rules::Code::LenientParse,
    crate::analysis::rules::Code::TruncatedFrontmatter,
    crate::analysis::rules::Code::IgnoredField,
    crate::analysis::rules::Code::UnknownSkill,
    crate::analysis::rules::Code::PlaceholderInCode,
    crate::analysis::rules::Code::ArgumentIndex,
    crate::analysis::rules::Code::IgnoredPermissionRule,
    crate::analysis::rules::Code::UnsubstitutedVariable,
    crate::analysis::rules::Code::UnknownMcpServer,
    crate::analysis::rules::Code::MissingPath,
    crate::analysis::rules::Code::ShadowedFile,
    crate::analysis::rules::Code::UnpinnedPackage,
    crate::analysis::rules::Code::BroadGrant,
    crate::analysis::rules::Code::UnquotedPathVariable,
    crate::analysis::rules::Code::RelativeHookPath,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loader_hints_follow_the_release() {
        assert_eq!(loader_hint("allowed-tools"), Some("tools"));
        assert_eq!(loader_hint("Allowed_Tools"), Some("tools"));
        assert_eq!(loader_hint("when_to_use"), Some("description"));
        assert_eq!(loader_hint("when-to-use"), Some("description"));
        assert_eq!(loader_hint("mode"), None);
        assert_eq!(loader_hint("Tools"), Some("tools"));
        assert_eq!(loader_hint("max_turns"), Some("maxTurns"));
        assert_eq!(loader_hint("max turns"), Some("maxTurns"));
        assert_eq!(loader_hint("tool"), Some("tools"));
        assert_eq!(loader_hint("category"), None);
    }

    #[test]
    fn every_tool_list_is_sorted_and_unique() {
        let mut sorted = TOOLS.to_vec();
        sorted.sort_by_key(|t| t.to_lowercase());
        sorted.dedup();
        assert_eq!(sorted.len(), TOOLS.len());
        for (old, new, _) in LEGACY_TOOLS {
            assert!(!TOOLS.contains(old), "{old} is both current and legacy");
            assert!(new.is_none_or(|n| TOOLS.contains(&n)), "{old} -> {new:?}");
        }
    }
}
