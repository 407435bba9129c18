//! What GitHub Copilot knows, as data: the frontmatter keys of each kind of file, which host reads
//! each (VS Code, GitHub.com's coding agent), their values, the built-in agents and tool sets.
//!
//! Sources: VS Code's prompt-file validator (`promptValidator`, in the VS Code of code-server
//! 4.139.1, the judge of `tests/copilot_vscode/`; its checks are listed in
//! `tests/copilot_vscode/VALIDATOR.md`), VS Code's documentation of custom agents,
//! prompt files and instructions, and GitHub's reference of custom agents for what GitHub.com
//! reads (`shared/spec/other-dialects.md` §2).

use crate::analysis::rules::Code;

/// The rules Copilot's files are checked by: its whole list (Copilot does not take the rules
/// every other dialect shares, `rules::EVERY_DIALECT`, which are about permissions, skills and
/// commands it does not have).
pub const RULES: &[Code] = &[
    Code::SyntaxError,
    Code::DuplicateKey,
    Code::UnknownKey,
    Code::InvalidType,
    Code::InvalidValue,
    Code::DeprecatedField,
    Code::MissingField,
    Code::UnknownAgent,
    Code::DuplicateAgent,
    Code::UnknownTool,
    Code::UnknownMcpServer,
    Code::IgnoredField,
    Code::MissingPath,
    Code::DeprecatedFile,
    Code::MisplacedFrontmatter,
    Code::UnsubstitutedVariable,
    Code::UnresolvedVariable,
    Code::HardcodedSecret,
    Code::UnpinnedPackage,
    Code::BroadGrant,
    Code::HomePath,
];

/// The kinds of Copilot file with a frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A custom agent (`.agent.md`), or a legacy chat mode (`.chatmode.md`).
    Agent,
    /// A prompt file (`.prompt.md`): a `/name` command.
    Prompt,
    /// An instructions file (`.instructions.md`).
    Instructions,
}

impl Kind {
    /// The noun with its article ("an instructions file").
    pub fn article_noun(self) -> &'static str {
        match self {
            Kind::Agent => "a custom agent",
            Kind::Prompt => "a prompt file",
            Kind::Instructions => "an instructions file",
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            Kind::Agent => "custom agent",
            Kind::Prompt => "prompt file",
            Kind::Instructions => "instructions file",
        }
    }
}

/// Which host reads a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosts {
    Both,
    /// VS Code (and the other IDEs); GitHub.com's coding agent ignores it.
    VsCode,
    /// GitHub.com's coding agent; VS Code ignores it.
    GitHub,
}

/// How a key's value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A string (`name`, `description`, `argument-hint`).
    Str,
    /// `true` or `false`.
    Bool,
    /// `target`: `vscode` or `github-copilot`.
    Target,
    /// `tools`: a list of tool names (GitHub.com also reads a comma-separated string).
    Tools,
    /// `model`: a model name, or (agents, in VS Code) a list tried in order.
    Model,
    /// `handoffs`: a list of `{label, agent, prompt, send, model}`.
    Handoffs,
    /// `agents`: the subagents an agent may call, by name; `*` for all.
    Agents,
    /// A prompt's `agent` (or the old `mode`): a built-in agent or a custom agent's name.
    AgentRef,
    /// `applyTo`: glob patterns, comma-separated, relative to the workspace.
    ApplyTo,
    /// `excludeAgent`: `code-review` or `coding-agent` (GitHub.com).
    ExcludeAgent,
    /// `mcp-servers`: MCP servers in the YAML form of an MCP JSON configuration (GitHub.com).
    McpServers,
    /// `metadata`: string keys and values (GitHub.com).
    Metadata,
    /// `hooks`: hook events, each a list of commands.
    Hooks,
    /// `github`: `permissions` by scope.
    Github,
    /// Read without a check (`reasoning-effort`, `advancedOptions`).
    Any,
}

pub struct Key {
    pub name: &'static str,
    pub value: Value,
    pub hosts: Hosts,
    pub doc: &'static str,
    /// The key is deprecated: the key to write instead, and why.
    pub deprecated: Option<(&'static str, &'static str)>,
    /// The documentation says the other host ignores it (reported as a hint when `target` is
    /// not set).
    pub other_ignores: bool,
}

const fn key(name: &'static str, value: Value, hosts: Hosts, doc: &'static str) -> Key {
    Key {
        name,
        value,
        hosts,
        doc,
        deprecated: None,
        other_ignores: false,
    }
}

/// A key one host reads and whose documentation says the other ignores.
const fn only(name: &'static str, value: Value, hosts: Hosts, doc: &'static str) -> Key {
    Key {
        other_ignores: true,
        ..key(name, value, hosts, doc)
    }
}

/// Old spellings VS Code no longer reads, with the key to write.
pub const OLD_SPELLINGS: &[(&str, &str)] = &[("user-invokable", "user-invocable")];

/// A custom agent's keys (`.agent.md`; a chat mode reads the same).
pub static AGENT_KEYS: &[Key] = &[
    key(
        "name",
        Value::Str,
        Hosts::Both,
        "The agent's name, shown in the agents list and used by handoffs and `agent:`; defaults to the file name.",
    ),
    key(
        "description",
        Value::Str,
        Hosts::Both,
        "What the agent does; shown as the placeholder of the chat input. GitHub.com requires it.",
    ),
    key(
        "target",
        Value::Target,
        Hosts::Both,
        "Where the agent is offered: `vscode` or `github-copilot`; unset, both.",
    ),
    key(
        "tools",
        Value::Tools,
        Hosts::Both,
        "The tools and tool sets the agent may use (`edit`, `search`, `execute`, `server/*` for an MCP server's tools); omitted, all of them; `[]`, none.",
    ),
    key(
        "model",
        Value::Model,
        Hosts::Both,
        "The model the agent runs on (VS Code: a list is tried in order); unset, the model picked in the chat.",
    ),
    only(
        "argument-hint",
        Value::Str,
        Hosts::VsCode,
        "The hint shown in the chat input when the agent is picked.",
    ),
    only(
        "handoffs",
        Value::Handoffs,
        Hosts::VsCode,
        "Buttons offered after a response that move the chat to another agent: `label`, `agent`, `prompt`, `send` (submit at once), `model`.",
    ),
    key(
        "agents",
        Value::Agents,
        Hosts::VsCode,
        "The custom agents this agent may run as subagents (`*`: all; `[]`: none); needs the `agent` tool.",
    ),
    key(
        "user-invocable",
        Value::Bool,
        Hosts::VsCode,
        "`false` hides the agent from the agents list: it is then only run as a subagent or a handoff.",
    ),
    key(
        "disable-model-invocation",
        Value::Bool,
        Hosts::VsCode,
        "`true` keeps other agents from running this one as a subagent.",
    ),
    Key {
        name: "infer",
        value: Value::Bool,
        hosts: Hosts::Both,
        doc: "Retired: whether other agents may run this one as a subagent.",
        deprecated: Some((
            "disable-model-invocation",
            "VS Code reports it as an error; write `user-invocable` and `disable-model-invocation` instead (`infer: false` is `disable-model-invocation: true`)",
        )),
        other_ignores: false,
    },
    key(
        "reasoning-effort",
        Value::Any,
        Hosts::Both,
        "How much the model reasons before it answers.",
    ),
    key(
        "hooks",
        Value::Hooks,
        Hosts::VsCode,
        "Commands run on the agent's events (`PreToolUse`, `Stop`, ...), each event a list of `{type: command, command}`.",
    ),
    key(
        "github",
        Value::Github,
        Hosts::Both,
        "GitHub settings of the agent: `permissions` of its token, by scope (`contents`, `issues`, `pull-requests`, ...).",
    ),
    key(
        "advancedOptions",
        Value::Any,
        Hosts::VsCode,
        "Options VS Code reads as they are.",
    ),
    only(
        "mcp-servers",
        Value::McpServers,
        Hosts::GitHub,
        "MCP servers the agent starts on GitHub.com, in the YAML form of an MCP configuration (`type`, `command`, `args`, `env`, `tools`).",
    ),
    only(
        "metadata",
        Value::Metadata,
        Hosts::GitHub,
        "Names and values that describe the agent (strings).",
    ),
];

/// A prompt file's keys (`.prompt.md`).
pub static PROMPT_KEYS: &[Key] = &[
    key(
        "name",
        Value::Str,
        Hosts::VsCode,
        "The name typed after `/` in the chat; defaults to the file name.",
    ),
    key(
        "description",
        Value::Str,
        Hosts::VsCode,
        "What the prompt does; shown next to it in the `/` list.",
    ),
    key(
        "argument-hint",
        Value::Str,
        Hosts::VsCode,
        "The hint shown in the chat input after `/name`.",
    ),
    key(
        "agent",
        Value::AgentRef,
        Hosts::VsCode,
        "The agent the prompt runs in: `ask`, `edit`, `agent`, `plan` or a custom agent's name.",
    ),
    Key {
        name: "mode",
        value: Value::AgentRef,
        hosts: Hosts::VsCode,
        doc: "The older name of `agent`.",
        deprecated: Some(("agent", "the key is now `agent`")),
        other_ignores: false,
    },
    key(
        "model",
        Value::Model,
        Hosts::VsCode,
        "The model the prompt runs on; unset, the model picked in the chat.",
    ),
    key(
        "tools",
        Value::Tools,
        Hosts::VsCode,
        "The tools and tool sets the prompt may use.",
    ),
];

/// An instructions file's keys (`.instructions.md`).
pub static INSTRUCTIONS_KEYS: &[Key] = &[
    key(
        "name",
        Value::Str,
        Hosts::VsCode,
        "The name shown for the instructions; defaults to the file name.",
    ),
    key(
        "description",
        Value::Str,
        Hosts::VsCode,
        "What the instructions are about; VS Code may add them to a request by it.",
    ),
    key(
        "applyTo",
        Value::ApplyTo,
        Hosts::Both,
        "Glob patterns (comma-separated, relative to the workspace) of the files the instructions apply to; `**` for all.",
    ),
    key(
        "excludeAgent",
        Value::ExcludeAgent,
        Hosts::GitHub,
        "Keeps the instructions from one of GitHub.com's agents: `code-review` or `coding-agent`.",
    ),
];

pub fn keys(kind: Kind) -> &'static [Key] {
    match kind {
        Kind::Agent => AGENT_KEYS,
        Kind::Prompt => PROMPT_KEYS,
        Kind::Instructions => INSTRUCTIONS_KEYS,
    }
}

pub fn key_of(kind: Kind, name: &str) -> Option<&'static Key> {
    keys(kind).iter().find(|k| k.name == name)
}

pub const TARGETS: &[(&str, &str)] = &[
    ("vscode", "VS Code (and the other IDEs) only."),
    ("github-copilot", "GitHub.com's coding agent only."),
];

pub const EXCLUDE_AGENTS: &[(&str, &str)] = &[
    ("code-review", "Copilot code review does not read these instructions."),
    ("coding-agent", "Copilot coding agent does not read these instructions."),
];

/// The keys of one handoff.
pub const HANDOFF_KEYS: &[(&str, &str)] = &[
    ("label", "The button's text."),
    ("agent", "The agent the chat moves to."),
    ("prompt", "The prompt sent to that agent."),
    ("send", "`true` submits the prompt at once."),
    ("model", "The model the next agent runs on."),
    (
        "showContinueOn",
        "Whether VS Code offers to continue the chat on GitHub.com (used by VS Code's built-in Plan agent).",
    ),
];

/// VS Code's built-in agents, which a prompt's `agent` and a handoff may name.
pub const BUILTIN_AGENTS: &[(&str, &str)] = &[
    ("agent", "VS Code's agent: plans and edits on its own, with every tool."),
    ("ask", "Answers questions; edits nothing."),
    ("edit", "Edits the files in the working set."),
    ("plan", "Makes a plan before anything is changed."),
];

/// The built-in tool sets and what each stands for, with the names GitHub.com also takes for
/// them (its aliases are case-insensitive).
pub struct ToolSet {
    pub name: &'static str,
    pub doc: &'static str,
    /// The tools of the set, written `set/tool` in a `tools` list.
    pub tools: &'static [&'static str],
    /// What GitHub.com also reads as this set.
    pub aliases: &'static [&'static str],
}

pub static TOOL_SETS: &[ToolSet] = &[
    ToolSet {
        name: "edit",
        doc: "Create and edit files in the workspace.",
        tools: &[
            "createDirectory",
            "createFile",
            "createJupyterNotebook",
            "editFiles",
            "editNotebook",
        ],
        aliases: &["Edit", "MultiEdit", "Write", "NotebookEdit"],
    },
    ToolSet {
        name: "execute",
        doc: "Run commands in the terminal, tasks and tests.",
        tools: &[
            "runInTerminal",
            "getTerminalOutput",
            "killTerminal",
            "sendToTerminal",
            "createAndRunTask",
            "runTask",
            "getTaskOutput",
            "runTests",
            "testFailure",
            "runNotebookCell",
        ],
        aliases: &["shell", "Bash", "powershell"],
    },
    ToolSet {
        name: "read",
        doc: "Read files, problems and terminal output.",
        tools: &[
            "readFile",
            "problems",
            "terminalLastCommand",
            "terminalSelection",
            "getTaskOutput",
            "getNotebookSummary",
            "readNotebookCellOutput",
        ],
        aliases: &["Read", "NotebookRead"],
    },
    ToolSet {
        name: "search",
        doc: "Search the workspace: files, text, symbols, usages, changes.",
        tools: &[
            "codebase",
            "fileSearch",
            "textSearch",
            "listDirectory",
            "searchResults",
            "usages",
            "changes",
        ],
        aliases: &["Grep", "Glob"],
    },
    ToolSet {
        name: "web",
        doc: "Fetch web pages and search GitHub repositories.",
        tools: &["fetch", "githubRepo"],
        aliases: &["WebSearch", "WebFetch"],
    },
    ToolSet {
        name: "agent",
        doc: "Run a custom agent as a subagent.",
        tools: &["runSubagent"],
        aliases: &["custom-agent", "Task"],
    },
    ToolSet {
        name: "todo",
        doc: "Keep a todo list for the task.",
        tools: &[],
        aliases: &["TodoWrite"],
    },
    ToolSet {
        name: "vscode",
        doc: "VS Code itself: commands, extensions, the API, new workspaces.",
        tools: &[
            "askQuestions",
            "extensions",
            "getProjectSetupInfo",
            "installExtension",
            "newWorkspace",
            "openSimpleBrowser",
            "runCommand",
            "vscodeAPI",
        ],
        aliases: &[],
    },
    ToolSet {
        name: "vscodeGeneral",
        doc: "VS Code's general tools: usages, rename, tests.",
        tools: &["usages", "rename", "runTests", "testFailure"],
        aliases: &[],
    },
    ToolSet {
        name: "vscodeTasks",
        doc: "VS Code's tasks.",
        tools: &["createAndRunTask", "getTaskOutput", "runTask"],
        aliases: &[],
    },
    ToolSet {
        name: "vscodeNotebooks",
        doc: "VS Code's notebook tools.",
        tools: &[],
        aliases: &[],
    },
    ToolSet {
        name: "vscodeBrowser",
        doc: "VS Code's integrated browser.",
        tools: &[],
        aliases: &[],
    },
    ToolSet {
        name: "new",
        doc: "Create a new workspace.",
        tools: &[],
        aliases: &[],
    },
];

/// `*`: every tool.
pub const ALL_TOOLS: &str = "*";

/// The tool set a tool name (or alias, case-insensitive on GitHub.com) stands for.
pub fn tool_set(name: &str) -> Option<&'static ToolSet> {
    TOOL_SETS
        .iter()
        .find(|s| s.name == name || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
}

/// The tool set that holds a tool written without its set (`editFiles`, the older form).
pub fn set_of_tool(tool: &str) -> Option<&'static ToolSet> {
    TOOL_SETS.iter().find(|s| s.tools.contains(&tool))
}

/// Tool names of older VS Code releases that now have another name.
pub const RENAMED_TOOLS: &[(&str, &str)] = &[
    ("runCommands", "execute"),
    ("runTasks", "execute"),
    ("runNotebooks", "execute"),
    ("todos", "todo"),
    ("search/readFile", "read/readFile"),
];

/// Every name a `tools` entry may be without a set prefix: the sets, their tools written the
/// older way, their aliases.
pub fn plain_tool_names() -> impl Iterator<Item = &'static str> {
    TOOL_SETS
        .iter()
        .flat_map(|s| std::iter::once(s.name).chain(s.tools.iter().copied()))
        .chain(RENAMED_TOOLS.iter().map(|(old, _)| *old))
}

/// Every `set/tool` name.
pub fn qualified_tool_names() -> Vec<String> {
    TOOL_SETS
        .iter()
        .flat_map(|s| s.tools.iter().map(move |t| format!("{}/{t}", s.name)))
        .collect()
}

/// Model names VS Code offers to Copilot users (for completion; any name VS Code knows from an
/// installed provider is as good).
pub const MODELS: &[&str] = &[
    "Auto (copilot)",
    "Claude Haiku 4.5 (copilot)",
    "Claude Opus 4.5 (copilot)",
    "Claude Sonnet 4 (copilot)",
    "Claude Sonnet 4.5 (copilot)",
    "Gemini 2.5 Pro (copilot)",
    "Gemini 3 Pro (Preview) (copilot)",
    "GPT-4.1 (copilot)",
    "GPT-4o (copilot)",
    "GPT-5 (copilot)",
    "GPT-5 mini (copilot)",
    "GPT-5.1 (copilot)",
    "GPT-5.1-Codex (copilot)",
    "GPT-5.2 (copilot)",
];

/// The hook events of an agent for VS Code, and for GitHub.com's coding agent.
pub const HOOK_EVENTS_VSCODE: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "ErrorOccurred",
];
pub const HOOK_EVENTS_GITHUB: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "agentStop",
    "subagentStop",
    "errorOccurred",
];

/// The scopes of `github.permissions`.
pub const GITHUB_SCOPES: &[&str] = &[
    "actions",
    "checks",
    "contents",
    "discussions",
    "issues",
    "metadata",
    "pull-requests",
    "security-events",
    "workflows",
];

/// The largest body GitHub.com's coding agent takes for a custom agent, in characters.
pub const MAX_AGENT_BODY: usize = 30_000;
