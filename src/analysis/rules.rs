//! The rule catalog: every diagnostic code, its default severity and its documentation, in one
//! table. `agent-lsp rules` prints it, and the book's rule pages (`book/src/rules/`) are generated
//! from it (`tests/book.rs` holds them to it).
//!
//! Where each rule is implemented: `opencode/agent.rs` (agent fields), `opencode/permission.rs`
//! (permission maps), `opencode/config.rs` (top-level config keys), `opencode/markdown.rs`
//! (frontmatter files), `opencode/project.rs` (cross-file checks on the merged registry);
//! for Claude Code, `claude/agent.rs` (one agent file, tool lists included),
//! `claude/project.rs` (duplicate names, `Agent(<type>)` references) and `claude/settings.rs`
//! (the permission rules of `.claude/settings.json`); the checks that need the disk live in the
//! workspace layer (`workspace/paths.rs`: opencode's paths; `workspace/imports.rs`: Claude Code's
//! `@path` imports and mentions, both `missing-path`); `secret.rs` (`hardcoded-secret`, in every
//! dialect's files, each dialect's `secret_fix` naming its runtime's reference; tests in
//! `tests/secrets.rs`); `launch.rs` (`unpinned-package`, every `command` of the files of the
//! dialects that start programs; the pin from the disk in `workspace/pins.rs`) and `home.rs`
//! (`home-path`, the whole text; committed files only, `workspace/policy.rs`), both with
//! `tests/risk.rs`; `broad-grant` is each dialect's own: `claude/settings.rs` (`allow`),
//! `claude/command.rs` (`allowed-tools`), `opencode/permission.rs` (`external_directory`),
//! `copilot/header.rs` (an agent's `tools`), committed files only (`workspace/policy.rs`), with
//! `tests/risk.rs`; `unquoted-path-variable` in `claude/hooks.rs` (every hook, wherever it is
//! written); `undescribed-subagent` in `opencode/project.rs` (the merged agent);
//! `overridden-deny` in `opencode/overridden.rs` (the merged agent's permission rules). [`Code::dialects`] says
//! which dialects a rule checks. Each of those files carries the tests for its rules (a case that fires and a close case that
//! must not).

use super::severity::{Effect, Severity, Tag};

pub struct Rule {
    pub code: Code,
    pub name: &'static str,
    pub severity: Severity,
    /// What the runtime does in the usual case (a diagnostic may say otherwise: a syntax error
    /// in `opencode.json` refuses to start, one in a frontmatter loses the file).
    pub effect: Effect,
    pub tags: &'static [Tag],
    /// One line: what the rule reports.
    pub summary: &'static str,
    /// Why it matters: what opencode actually does.
    pub explanation: &'static str,
    pub bad: &'static str,
    pub good: &'static str,
}

macro_rules! rules {
    ($($variant:ident = $name:literal, $sev:ident, $effect:ident, [$($tag:ident),*], $summary:literal, $explanation:literal, $bad:literal, $good:literal;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $($variant),* }

        pub static RULES: &[Rule] = &[
            $(Rule {
                code: Code::$variant,
                name: $name,
                severity: Severity::$sev,
                effect: Effect::$effect,
                tags: &[$(Tag::$tag),*],
                summary: $summary,
                explanation: $explanation,
                bad: $bad,
                good: $good,
            }),*
        ];
    };
}

/// The severities a rule takes besides its default, each with when: the catalog's answer to
/// "which severities can this rule have". `agent-lsp rules` and the book print them, and in debug
/// builds [`Diagnostic::with_severity`](super::diagnostic::Diagnostic::with_severity) refuses a
/// severity a rule does not list here, so every test and fuzz run holds the code to this table.
/// (A project's `agent-lsp.toml` or the editor's settings may still set any level.)
pub const OTHER_SEVERITIES: &[(Code, Severity, &str)] = &[
    (
        Code::BroadGrant,
        Severity::Info,
        "a GitHub Copilot agent without a `tools` list, or with `*`: every tool is an opinion about the agent more than a grant (VS Code still asks before it runs a terminal command unless told not to)",
    ),
    (
        Code::DuplicateAgent,
        Severity::Error,
        "Gemini CLI: an agent of a built-in agent's name, which it ignores (\"Duplicate agent name ... The later definition will be ignored\")",
    ),
    (
        Code::ShadowedFile,
        Severity::Info,
        "Codex: an `AGENTS.md` that the `AGENTS.override.md` beside it replaces, which is what an override is for (a blank override, which leaves the folder with no instructions, is a warning)",
    ),
    (
        Code::SyntaxError,
        Severity::Warning,
        "where the runtime still loads the file: Claude Code through its lenient retry, opencode through its fallback reader, or a frontmatter whose reading no runtime documents",
    ),
    (
        Code::DuplicateKey,
        Severity::Warning,
        "where the runtime keeps the last value and loads the rest: Claude Code, GitHub Copilot, Zuno, Gemini CLI's `settings.json`, opencode's JSON configs and `tui.json`, a plugin listed twice",
    ),
    (
        Code::InvalidType,
        Severity::Warning,
        "where the runtime drops or converts only this value and loads the rest: Claude Code's agents, hooks, plugins and settings, a command's hint or description read as another type, an opencode frontmatter that is not a mapping, `tui.json`, a theme's `thinkingOpacity`, Zuno's older permission forms; Gemini CLI's `settings.json`, which it warns about and loads as written",
    ),
    (
        Code::InvalidType,
        Severity::Info,
        "an `argument-hint` written as a YAML list (`[pr-number]`), which Claude Code shows without its brackets; a Claude Code frontmatter that is not a mapping, read as a reference document",
    ),
    (
        Code::InvalidValue,
        Severity::Warning,
        "where the runtime drops or changes only this value and loads the rest: Claude Code's agents, skills, commands, hooks, output styles, settings (an `outputStyle` no style has falls back to the default) and MCP servers; GitHub Copilot's agents; opencode's `tui.json` `theme` that names no theme, and a theme color that lacks one of `dark` and `light` (the theme works in the other mode); Codex's `model_reasoning_effort`, which it sends to the model as written; a Gemini CLI setting outside its values, which Gemini CLI warns about and loads as written",
    ),
    (
        Code::InvalidColor,
        Severity::Warning,
        "Claude Code, which drops a color it does not know and loads the agent; opencode, when the frontmatter holding it does not parse",
    ),
    (
        Code::DeprecatedField,
        Severity::Error,
        "Zuno, which refuses a configuration with `maxSteps`, a `mode/` folder or the top-level `mode`; Codex, which refuses `profile = ...`, `approval_policy = \"untrusted\"` and `wire_api = \"chat\"`",
    ),
    (
        Code::DeprecatedField,
        Severity::Info,
        "GitHub Copilot: a tool's old name, which VS Code still maps to the new one",
    ),
    (
        Code::InvalidDefaultAgent,
        Severity::Warning,
        "opencode with plugins, which may define the agent; Zuno, which falls back when it starts a session",
    ),
    (
        Code::UnknownPermission,
        Severity::Error,
        "Zuno, which refuses rules under a key that no tool consults (`write`)",
    ),
    (
        Code::V2Permissions,
        Severity::Warning,
        "in an opencode Markdown agent whose frontmatter does not parse: nothing of it reaches opencode",
    ),
    (
        Code::NoFrontmatter,
        Severity::Error,
        "Gemini CLI: an agent file of `.gemini/agents/` without a frontmatter, which it does not load (\"Missing mandatory YAML frontmatter\")",
    ),
    (
        Code::NoFrontmatter,
        Severity::Info,
        "a file the runtime reads as something else: a reference document (Claude Code), the prompt of the built-in `build` agent (opencode)",
    ),
    (
        Code::MissingTemplate,
        Severity::Warning,
        "a command file with an empty body: it loads and sends an empty prompt",
    ),
    (
        Code::InvalidName,
        Severity::Warning,
        "a name outside the Agent Skills format that the runtime still loads; a plugin name that is not kebab-case (`claude plugin validate` warns)",
    ),
    (
        Code::MissingField,
        Severity::Warning,
        "a field the runtime does without but a host or a validator asks for: a plugin's or marketplace's `description` and `author`, GitHub.com's `description`, a skill's `description`; an opencode language server without `extensions`; a field of a Gemini CLI setting that its validator asks for (`advanced.bugCommand.urlTemplate`), which it warns about at every start",
    ),
    (
        Code::MissingField,
        Severity::Info,
        "Claude Code: a file of an agents folder without `name`, read as a reference document",
    ),
    (
        Code::UnknownTool,
        Severity::Error,
        "a settings permission rule whose tool name starts in lower case: Claude Code skips the rule; a Gemini CLI agent's `tools` entry that names no tool, which keeps the agent from loading",
    ),
    (
        Code::IgnoredField,
        Severity::Hint,
        "GitHub Copilot: a key that only one host reads (VS Code or GitHub.com's coding agent)",
    ),
    (
        Code::UnknownKey,
        Severity::Error,
        "Zuno's top-level keys: Zuno refuses to start; a `PreToolUse` or `PermissionRequest` written outside `hooks` in a Claude Code skill or command, which then loads with no hooks and no `allowed-tools`; a key at the top level of a Codex agent file, which Codex then drops; a key a Gemini CLI agent's frontmatter does not have, which keeps the agent from loading",
    ),
    (
        Code::UnknownSkill,
        Severity::Info,
        "a name with no near skill of the project: it may be installed elsewhere (a user's skill folders, `skills.paths`)",
    ),
    (
        Code::UncheckedFile,
        Severity::Error,
        "Claude Code, which skips an agent file over 1 MiB",
    ),
    (
        Code::UncheckedFile,
        Severity::Info,
        "a file given by path where no runtime reads it",
    ),
    (
        Code::PolicyViolation,
        Severity::Warning,
        "when only a default the fact sheets do not confirm breaks the policy (Zuno's), or the proof gives up",
    ),
    (
        Code::IgnoredPermissionRule,
        Severity::Error,
        "an allow rule whose tool name is a wildcard not anchored to one MCP server (`*`, `mcp__*`): Claude Code skips it",
    ),
    (
        Code::UnknownMcpServer,
        Severity::Info,
        "where the name may be declared where agent-lsp cannot see: an agent's `mcp__<server>__...` entry, a Copilot `tools` entry with no `.vscode/mcp.json`; `enableAllProjectMcpServers` with no server to approve",
    ),
    (
        Code::MissingPath,
        Severity::Info,
        "GitHub Copilot: an `applyTo` none of whose patterns matches a file yet (instructions written ahead of their files)",
    ),
];

impl Rule {
    /// The severities this rule can have: its default first (with no condition), then the others
    /// of [`OTHER_SEVERITIES`] with when.
    pub fn severities(&self) -> Vec<(Severity, Option<&'static str>)> {
        let mut out = vec![(self.severity, None)];
        out.extend(
            OTHER_SEVERITIES
                .iter()
                .filter(|(c, _, _)| *c == self.code)
                .map(|(_, s, when)| (*s, Some(*when))),
        );
        out
    }

    /// Whether the catalog lets this rule have `severity`.
    pub fn allows(&self, severity: Severity) -> bool {
        severity == self.severity
            || OTHER_SEVERITIES
                .iter()
                .any(|(c, s, _)| *c == self.code && *s == severity)
    }
}

/// A per-code override of the reported level (editor settings, `agent-lsp.toml`): another
/// severity, or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    On(super::severity::Severity),
}

impl Code {
    pub fn rule(self) -> &'static Rule {
        &RULES[self as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.rule().name
    }

    pub fn from_name(name: &str) -> Option<Code> {
        RULES.iter().find(|r| r.name == name).map(|r| r.code)
    }

    /// The rule's page of the book in the repository (`book/src/rules/CODE.md`, generated from
    /// this catalog): the `codeDescription` of an LSP diagnostic and the `helpUri` of a SARIF
    /// rule. It names the default branch, so it exists whenever the repository does.
    pub fn doc_url(self) -> String {
        format!(
            "{}/blob/main/book/src/rules/{}.md",
            env!("CARGO_PKG_REPOSITORY"),
            self.as_str()
        )
    }
}

rules! {
    SyntaxError = "syntax-error", Error, RefusesToStart, [],
        "YAML frontmatter, JSONC or TOML that does not parse, or a frontmatter that is never closed.",
        "opencode cannot read the file. A broken `opencode.json` stops opencode at start-up. A broken \
frontmatter is worse because it is silent: opencode loads the whole file, frontmatter included, as \
the prompt of a plain `mode: all` agent (model and permissions are lost), or skips the agent file \
without a message.",
        "---\ndescription: \"Reviews code\nmode: subagent\n---\n",
        "---\ndescription: \"Reviews code\"\nmode: subagent\n---\n";
    DuplicateKey = "duplicate-key", Error, FileIgnored, [],
        "The same key twice in one mapping (an error in opencode frontmatter; in Claude Code the last one wins), or the same plugin twice in opencode's `plugin` list.",
        "In frontmatter, a duplicate key is a YAML error: opencode drops the whole frontmatter and uses \
the file as a bare prompt. In JSON, the last value silently wins and the first is ignored, which \
is reported as a warning. opencode also loads each plugin once, from its last entry in `plugin` (an \
npm package by its name, whatever the version): an earlier entry and its options are dropped.",
        "mode: subagent\nmode: primary\n",
        "mode: subagent\n";
    UnknownKey = "unknown-key", Warning, ValueIgnored, [],
        "A key the runtime does not know, usually a typo.",
        "An unknown agent key is not an error for opencode: it is moved into the provider `options` \
and sent to the model provider, so `temprature: 0.2` silently does nothing. Unknown top-level \
config keys are silently dropped, and so are the settings and keybind names `tui.json` does not \
know. `permissions` (plural) is ignored in frontmatter. Claude Code ignores, without a word, \
the keys an output style (`.claude/output-styles/*.md`) does not have: only `name`, \
`description`, `keep-coding-instructions` and, for a plugin's style, `force-for-plugin` count. \
Gemini CLI keeps a `settings.json` key it does not know without a word, so a misspelt setting or \
one of the old flat form (`contextFileName` for `context.fileName`) does nothing; only an MCP \
server refuses a key it does not know, with a warning at every start.",
        "temprature: 0.2\ntopP: 0.9\n",
        "temperature: 0.2\ntop_p: 0.9\n";
    InvalidType = "invalid-type", Error, RefusesToStart, [],
        "A value of the wrong type: a quoted number, `yes` for a boolean, a list for `tools`.",
        "opencode validates agent fields with a schema; a wrong type makes the whole configuration \
invalid and opencode refuses to start (`Configuration is invalid at ...`). Schema errors in a \
`mode/` file make opencode skip that agent silently, and in `tui.json` the whole file (its terminal \
interface starts without those settings). Gemini CLI warns about a wrong type in `settings.json` at \
every start (\"Invalid configuration in ...\") and then uses the value as written; it also takes \
`\"true\"` and `\"12\"` for a boolean and a number.",
        "steps: \"5\"\nhidden: yes\n",
        "steps: 5\nhidden: true\n";
    InvalidValue = "invalid-value", Error, RefusesToStart, [],
        "A value of the right type that the runtime rejects: an unknown mode or action, `steps: 0`, `permissionMode: Plan`.",
        "The configuration is invalid and opencode refuses to start; in `tui.json`, opencode skips the whole file.",
        "mode: main\npermission:\n  bash: maybe\n",
        "mode: primary\npermission:\n  bash: ask\n";
    InvalidColor = "invalid-color", Error, RefusesToStart, [],
        "A color the runtime does not accept (opencode: `#rrggbb` or a theme color; Claude Code: eight names); an unquoted `#rrggbb` in YAML.",
        "opencode accepts exactly `#` plus six hex digits, or one of the theme colors `primary`, \
`secondary`, `accent`, `success`, `warning`, `error`, `info`. CSS names such as `red` (common in \
Claude Code agents) make the configuration invalid. Unquoted, `#FF5733` starts a YAML comment, so \
the color is null, which is also rejected.",
        "color: #FF5733\n",
        "color: \"#FF5733\"\n";
    DeprecatedField = "deprecated-field", Warning, Works, [Deprecated],
        "`tools`, `maxSteps`, a `mode/` directory, or a deprecated top-level key (`mode`, `autoshare`, `reference`, `layout`); Claude Code's old tool name `Task`; Codex's `profile` key, `[profiles]` tables and `approval_policy = \"untrusted\"`.",
        "They still work: `tools` is converted to permission rules (true is allow, false is deny; \
`write`, `edit` and `patch` become `edit`), `maxSteps` to `steps` (ignored when `steps` is set), \
`mode` entries and `mode/` files to primary agents, `reference` is read when `references` is not \
set, `autoshare` still shares; `layout` no longer does anything. Prefer the current form.",
        "tools:\n  write: false\nmaxSteps: 10\n",
        "permission:\n  edit: deny\nsteps: 10\n";
    DeprecatedFile = "deprecated-file", Warning, Works, [Deprecated],
        "GitHub Copilot: a chat mode file (`.chatmode.md`), which VS Code now reads as a custom agent and GitHub.com does not read.",
        "Chat modes became custom agents: VS Code still reads a `.chatmode.md` file (in \
`.github/chatmodes/`) as an agent and offers to rename it, but GitHub.com's coding agent and the \
Copilot CLI read only `.github/agents/*.agent.md`. The fix moves the file there with its new name; \
its frontmatter keys mean the same.",
        ".github/chatmodes/review.chatmode.md\n",
        ".github/agents/review.agent.md\n";
    InvalidDefaultAgent = "invalid-default-agent", Error, FailsWhenUsed, [],
        "`default_agent` names an agent that does not exist, is disabled, is a subagent or is hidden.",
        "Checked after all config layers and Markdown agents are merged. opencode throws \
`default agent \"x\" not found` (or `is a subagent`, `is hidden`) when it starts a session from the \
CLI or API.",
        "{ \"default_agent\": \"reviewr\" }",
        "{ \"default_agent\": \"reviewer\" }";
    UnknownPermission = "unknown-permission", Warning, RuleNeverApplies, [Unnecessary],
        "A permission key that no tool consults, or a command pattern placed directly under `permission`.",
        "`write`, `patch`, `apply_patch` and `multiedit` are governed by `edit`; `todoread`, \
`codesearch` and `list` are not tools in opencode 1.18. A key like `\"rm -rf *\"` directly under \
`permission` is taken as a tool name and matches nothing; it belongs under `bash`. Keys naming MCP \
or custom tools (`github_*`, `mymcp_search`) are fine.",
        "permission:\n  write: deny\n  \"rm -rf *\": deny\n",
        "permission:\n  edit: deny\n  bash:\n    \"rm -rf *\": deny\n";
    ShadowedRule = "shadowed-rule", Warning, RuleNeverApplies, [Unnecessary],
        "A permission rule that can never decide, because a later rule matches everything it matches; an `Agent(...)` tool entry that a later one replaces.",
        "opencode evaluates permission rules with \"last match wins\": no specificity, no deny-first. \
A catch-all written last, such as `\"*\": ask`, overrides every rule before it.",
        "bash:\n  \"git push *\": deny\n  \"*\": allow\n",
        "bash:\n  \"*\": allow\n  \"git push *\": deny\n";
    InvalidModel = "invalid-model", Warning, FailsWhenUsed, [],
        "A `model` that is not of the form `provider/model` (opencode), or one typo away from an alias (Claude Code).",
        "opencode splits the model id at the first `/` into provider and model. Without one, the \
agent fails when it runs (`Agent x's configured model ... is not valid`, `ProviderModelNotFoundError`).",
        "model: claude-sonnet-4\n",
        "model: anthropic/claude-sonnet-4\n";
    PromptOverridden = "prompt-overridden", Warning, ValueIgnored, [],
        "A frontmatter `prompt:` (the Markdown body always replaces it), or an empty body.",
        "In a Markdown agent the body becomes the prompt, even when it is empty, so a frontmatter \
`prompt:` never takes effect. An empty body means no prompt: the agent runs on the provider's \
default system prompt (and a built-in agent loses its own prompt).",
        "---\nprompt: You review code.\n---\n",
        "---\ndescription: Reviews code\n---\nYou review code.\n";
    V2Permissions = "v2-permissions", Error, RefusesToStart, [],
        "An opencode V2 `permissions` block in a V1 config.",
        "opencode 1.18 refuses to start: `V2 permissions are not supported by OpenCode V1. Use V1 \
\"permission\" rules or run opencode2.`",
        "{ \"permissions\": [{ \"action\": \"bash\", \"resource\": \"*\", \"effect\": \"ask\" }] }",
        "{ \"permission\": { \"bash\": \"ask\" } }";
    MisplacedFrontmatter = "misplaced-frontmatter", Warning, FileIgnored, [],
        "A frontmatter block that does not start on the first line.",
        "opencode only reads frontmatter that starts at the very first line. After a blank line the \
block is part of the prompt and none of its settings apply.",
        "\n---\nmode: subagent\n---\n",
        "---\nmode: subagent\n---\n";
    NoFrontmatter = "no-frontmatter", Warning, FileIgnored, [],
        "A Markdown file in an agents folder that has no frontmatter.",
        "opencode loads every `.md` file of an `agent/` or `agents/` folder as an agent, with or \
without frontmatter: a README or notes file becomes an agent (mode `all`, offered to the Task \
tool and the `@` menu) whose prompt is the whole text. When an agent of that name is defined in \
`opencode.json`, the file silently replaces its prompt. Replacing a built-in agent's prompt this \
way is deliberate in some setups and is reported as information only.",
        ".opencode/agents/README.md: \"# Our agents\\n...\"",
        "docs/agents.md (outside the agents folder), or a file that starts with a `---` frontmatter";
    DuplicateAgent = "duplicate-agent", Warning, ValueIgnored, [],
        "Two Markdown files of one folder define the same agent name (or, for Claude Code, the same output style name; for Gemini CLI, an agent takes a built-in agent's name).",
        "opencode keeps one definition per name in each folder: the file it reads last replaces \
the others entirely, and the read order follows the file system. An `agents/` and a `mode/` file \
of one directory with the same name are merged field by field instead. Claude Code lists an \
output style name once: of two styles of one folder with the same name, one file is used and the \
other never. Gemini CLI registers its built-in agents first and ignores a later agent of a name it \
has (\"Duplicate agent name ... The later definition will be ignored\"), so an agent named \
`generalist` is never used: an error.",
        ".opencode/agents/a.md and .opencode/agents/b.md both with `name: reviewer`",
        "one file per agent name";
    HiddenPrimary = "hidden-primary", Warning, Works, [],
        "`hidden: true` on a primary agent.",
        "`hidden` removes an agent from the Tab cycle, the `@` menu and default-agent selection. A \
primary agent is not offered to the Task tool either, so a hidden primary agent cannot be reached \
at all.",
        "mode: primary\nhidden: true\n",
        "mode: subagent\nhidden: true\n";
    BroadPattern = "broad-pattern", Info, Works, [],
        "A command pattern like `\"git diff*\"` with no space before the `*`.",
        "`*` matches anything, so `\"git log*\"` also matches `git logger`. `\"git log *\"` matches \
`git log` and `git log --stat` but not `git logger`.",
        "bash:\n  \"git log*\": allow\n",
        "bash:\n  \"git log *\": allow\n";
    MissingTemplate = "missing-template", Error, RefusesToStart, [],
        "A `command` entry in opencode.json without a `template`.",
        "opencode requires `template` for commands defined in JSON and refuses to start without it \
(`Missing key` at `command.x.template`).",
        "{ \"command\": { \"test\": { \"description\": \"Run tests\" } } }",
        "{ \"command\": { \"test\": { \"template\": \"Run the tests\" } } }";
    BadFileReference = "bad-file-reference", Error, RefusesToStart, [],
        "A `{file:...}` substitution in a config file whose file does not exist.",
        "opencode replaces `{file:path}` with the file's trimmed content before it reads the \
config (relative paths start at the config file's folder, `~/` at the home directory). When the \
file is missing it refuses to start: `bad file reference: \"{file:...}\" <path> does not exist`. \
Only a reference on a line that starts with `//` is left alone.",
        "{ \"agent\": { \"r\": { \"prompt\": \"{file:./prompts/missing.md}\" } } }",
        "{ \"agent\": { \"r\": { \"prompt\": \"{file:./prompts/reviewer.md}\" } } }";
    UnknownAgent = "unknown-agent", Warning, FailsWhenUsed, [],
        "A reference to an agent that does not exist: a command's `agent` (opencode), an `Agent(<type>)` tool entry or a forked skill's `agent` (Claude Code), a handoff's `agent`, a prompt's `agent` or an `agents` entry (GitHub Copilot).",
        "Running the command fails with `Agent not found: \"x\". Available agents: ...`. Nested \
agents are named by their path (`team/reviewer`).",
        "{ \"command\": { \"r\": { \"template\": \"...\", \"agent\": \"reviewr\" } } }",
        "{ \"command\": { \"r\": { \"template\": \"...\", \"agent\": \"reviewer\" } } }";
    InvalidName = "invalid-name", Error, FileIgnored, [],
        "Claude Code: an agent `name` that starts with `-`, contains `:` or is over 256 characters; a plugin name that is not kebab-case or is reserved.",
        "Claude Code skips the file (a debug-log line is all you get): `:` is reserved for plugin \
namespacing (a full-width `：` counts too, after Unicode normalisation), a leading `-` reads as a \
command-line flag. For plugin agents a name over 256 characters is ignored and the file name is used. \
A plugin's own name (`plugin.json`, a `marketplace.json` entry) should be kebab-case: with `:`, `/`, \
`@` or a blank Claude Code refuses the plugin loaded by path, with other characters it cannot \
install it from a marketplace; names such as `claude-tools` are reserved for Anthropic's own \
(`claude plugin validate` rejects them).",
        "---\nname: team:reviewer\ndescription: Reviews code\n---\n",
        "---\nname: team-reviewer\ndescription: Reviews code\n---\n";
    MissingField = "missing-field", Error, FileIgnored, [],
        "Claude Code: a required field (`name`, `description`; a plugin manifest's `name`, `owner`, `source`) that is missing or not a string. GitHub Copilot: an agent's `description` (GitHub.com needs it), a handoff's `label`, `agent` or `prompt`, what a hook command runs, a server's `command` or `url` in `.vscode/mcp.json`. Codex: an agent file's `name`, `description` or `developer_instructions`, an MCP server with neither `command` nor `url`, `[permissions]` without `default_permissions`.",
        "Without a string `description` Claude Code skips the agent; a non-string `name` (a list such \
as `[agent-name]`, a number) skips it too. A file with no `name` at all is read as a reference \
document, not an agent: reported as information, since that may be intended.",
        "---\nname: reviewer\n---\nReview the code.\n",
        "---\nname: reviewer\ndescription: Reviews code after each change\n---\nReview the code.\n";
    UnknownTool = "unknown-tool", Warning, ValueIgnored, [],
        "Claude Code: a `tools`/`disallowedTools` entry or a settings permission rule that names no tool. GitHub Copilot: a `tools` entry that is no tool set, tool, MCP server or extension tool.",
        "Tool names are case-sensitive built-in names (`Read`, `Bash`, ...), `mcp__<server>__<tool>` or \
`Agent(<type>)`. An entry that names nothing is dropped silently (old names such as `LS` or \
`MultiEdit` included); when no entry of `tools` resolves, Claude Code refuses to start the agent.",
        "tools: Read, grep, LS\n",
        "tools: Read, Grep, Glob\n";
    IgnoredSpecifier = "ignored-specifier", Warning, ValueIgnored, [],
        "Claude Code: a `Tool(specifier)` in an agent's `tools` other than `Agent(...)`.",
        "In agent `tools` the parenthesised part is discarded and the whole tool is granted: \
`Bash(git diff:*)` gives the agent every Bash command. Restrict tools with permission rules in \
settings or with hooks.",
        "tools: Bash(git diff:*)\n",
        "tools: Bash\n";
    LenientParse = "lenient-parse", Warning, Works, [],
        "A frontmatter that is not valid YAML and loads only through a runtime's retry (Claude Code; opencode for skills).",
        "When the frontmatter does not parse, Claude Code quotes every top-level value that holds `: ` \
or a character YAML reserves, and parses again; opencode (for a `SKILL.md`) rewrites every top-level \
plain value that holds `:` as a block of text, and parses again. The file loads, but other tools \
reject it, ` #` in a rescued value is no longer a comment, and Claude Code never rescues a CRLF \
file. The fix quotes the value, as Claude Code's retry does.",
        "description: Use it when: the user asks\n",
        "description: \"Use it when: the user asks\"\n";
    TruncatedFrontmatter = "truncated-frontmatter", Warning, ValueIgnored, [],
        "Claude Code: a `---` inside the frontmatter that ends it early.",
        "Claude Code ends the frontmatter at the first `---` anywhere after the opening line, even in \
the middle of a value or a comment. What follows becomes the prompt, and the keys after it are lost.",
        "description: Use this --- when needed\nmodel: opus\n",
        "description: Use this - when needed\nmodel: opus\n";
    IgnoredField = "ignored-field", Warning, ValueIgnored, [],
        "Claude Code: a field that plugin agents ignore (`permissionMode`, `hooks`, `mcpServers`, ...), `force-for-plugin` in an output style that is not a plugin's. GitHub Copilot: a key the host an agent is for ignores (`handoffs` on GitHub.com, `mcp-servers` in VS Code; a hint when the agent is for both), `tools` of a prompt that runs in `ask` or `edit`. Codex: a key of a project's `.codex/config.toml` that only the user's file sets (`notify`, `model_providers`, ...).",
        "For security, agents shipped in a plugin cannot set `permissionMode`, `hooks` or \
`mcpServers`, and `initialPrompt` and the observer settings do not apply to them. Claude Code \
ignores them with a debug-log warning. It also ignores `force-for-plugin` in a project's or the \
user's output style (it is read for a plugin's styles only).",
        "permissionMode: bypassPermissions\n",
        "(define the agent in .claude/agents/ instead)\n";
    MisplacedSkill = "misplaced-skill", Warning, FileIgnored, [],
        "A `SKILL.md` where no runtime looks for skills.",
        "opencode reads skills from `{skill,skills}/**/SKILL.md` of its config folders and from \
`.claude/skills/` and `.agents/skills/`; Claude Code from `.claude/skills/<name>/SKILL.md`; Zuno from \
`.zuno/{skill,skills}/` and `.agents/skills/`. A `SKILL.md` anywhere else (`.opencode/<name>/SKILL.md`) \
is never loaded, without a message.",
        ".opencode/tdd/SKILL.md\n",
        ".opencode/skills/tdd/SKILL.md\n";
    NameMismatch = "name-mismatch", Warning, Works, [],
        "A skill whose `name` differs from its folder.",
        "The Agent Skills format requires the name to equal the skill's directory. No runtime enforces \
it, but they disagree on which one names the skill: opencode and Zuno use `name`, Claude Code \
names the command after the folder.",
        "skills/tdd/SKILL.md with name: tdd-cycle\n",
        "skills/tdd/SKILL.md with name: tdd\n";
    DuplicateSkill = "duplicate-skill", Warning, ValueIgnored, [],
        "Two skills with the same name that one runtime loads together.",
        "opencode logs `duplicate skill name` and keeps one of them; its files load concurrently, so \
which one wins is not deterministic. Zuno needs a required skill to resolve to exactly one.",
        ".opencode/skills/tdd/SKILL.md and .claude/skills/tdd/SKILL.md, both name: tdd\n",
        "one of them renamed\n";
    UnknownSkill = "unknown-skill", Warning, RuleNeverApplies, [],
        "A skill reference that names no skill the project can load: an opencode `skill` permission pattern, a Claude Code agent's `skills` entry.",
        "opencode matches `skill` permission patterns against skill names (the `name` of each \
`SKILL.md` it finds, and the built-in `customize-opencode`); a pattern that matches none never \
applies. Claude Code preloads an agent's `skills` by folder name and skips one it cannot find, \
with a debug-log line only. Usually a typo, or a skill that was renamed or lives where the runtime \
does not look. A near miss of an existing skill is a warning with a fix; otherwise an info, and \
only when the project has skills of its own (a user's skill folders may hold it). opencode \
patterns are not checked when a config sets `skills.paths` or `skills.urls`.",
        "permission:\n  skill:\n    tdd-cylce: allow\n",
        "permission:\n  skill:\n    tdd-cycle: allow\n";
    UnusedSuppression = "unused-suppression", Warning, Works, [Unnecessary],
        "An `agent-lsp: ignore[...]` comment that suppresses nothing: a code with no diagnostic on its line (or file), an unknown code, or no code at all.",
        "A suppression comment outlives the problem it silenced: once the key is fixed or renamed, the \
comment stays and would silently hide the next, different mistake on that line. agent-lsp reports \
every listed code that matched no diagnostic, every code that is not a rule (with a did-you-mean), \
and a directive without codes (a blanket `agent-lsp: ignore` is not supported: name the codes). \
This rule itself cannot be suppressed; the fix removes the unused code, or the whole comment.",
        "mode: subagent  # agent-lsp: ignore[unknown-key]\n",
        "mode: subagent\n";
    UncheckedFile = "unchecked-file", Warning, Works, [],
        "A file agent-lsp did not analyse: over 4 MiB, binary, unreadable, or given by path where no runtime reads it.",
        "agent-lsp reads files of up to 4 MiB that hold text; a larger file, one with NUL bytes, or \
one it cannot open is not analysed, so none of its mistakes are reported and the agents it \
defines are unknown to the cross-file checks (`default_agent`, `Agent(<type>)`, `explain`). The \
runtime still reads it: opencode and Zuno load whatever text they find; Claude Code skips an \
agent file over 1 MiB (then this is an error, since the agent does not load). The message gives \
the reason and the size. A file given by path where no runtime reads it (a `README.md`, a \
Markdown file outside every agents, commands and skills folder) is not read as any dialect's \
either: an info says where such a file would go.",
        "# .opencode/agents/huge.md: 5 MB of generated examples after the frontmatter\n",
        "# keep the examples in a file the agent reads, and the agent file small\n";
    PlaceholderInCode = "placeholder-in-code", Warning, Works, [],
        "Claude Code: a `$1` or `$name` placeholder inside a code block or inline code of a command or skill.",
        "When `/name args` runs, Claude Code replaces `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` and the \
`$name`s of `arguments` everywhere in the body, code included. A shell snippet's `$1`, an awk \
`{print $1}` or a loop's `$file` (with `file` in `arguments`) becomes an argument: `$1` is the \
second one, since Claude Code counts from `$0`, and stays `$1` when there are fewer arguments. A \
backslash keeps a placeholder literal: `\\$1` sends `$1`. `$ARGUMENTS` and `$ARGUMENTS[N]`, \
which nothing else spells so, are not reported; hover on any placeholder shows what it becomes.",
        "```sh\nawk '{print $1}' data.txt\n```\n",
        "```sh\nawk '{print \\$1}' data.txt\n```\n";
    ArgumentIndex = "argument-index", Warning, FailsWhenUsed, [],
        "Claude Code: a command or skill whose body uses `$1` and never the first argument, or an index past the arguments its `argument-hint` or `arguments` declares.",
        "Claude Code counts a command's arguments from `$0`: `/fix-issue 123` puts `123` in `$0` \
(and `$ARGUMENTS[0]`), and `$1` is the second argument. A body that uses `$1` but never `$0`, \
`$ARGUMENTS` or the first name of `arguments` was almost always written counting from one: the \
argument the user types goes nowhere, and `$1` stays as written when there is no second argument. \
So does an index past the arguments the `argument-hint` (`[issue] [branch]`, every word in \
brackets) or `arguments` declares. Wherever the placeholder is, prose or code, it is replaced. \
The fix counts from `$0` (unsafe: it changes what the command sends).",
        "---\nargument-hint: \"[issue]\"\n---\nLook at issue #$1 and fix it.\n",
        "---\nargument-hint: \"[issue]\"\n---\nLook at issue #$0 and fix it.\n";
    BrokenLink = "broken-link", Warning, FailsWhenUsed, [],
        "A relative link in a `SKILL.md` to a file that does not exist.",
        "A skill's body points the model at its supporting files with relative links \
(`[guide](references/guide.md)`, resolved from the skill's folder; `${CLAUDE_SKILL_DIR}/` is that \
folder). A link to a file that is not there sends the model looking for nothing, usually after a \
rename or a file left out of the commit. URLs, anchors and absolute paths are not checked.",
        "See [the guide](references/gude.md).\n",
        "See [the guide](references/guide.md).\n";
    PolicyViolation = "policy-violation", Error, Works, [],
        "A team policy of `agent-lsp.toml` (`[[policy]]`) that some agent breaks: an input its patterns match gets more than `at-most`.",
        "A policy states what no agent may be allowed to do (`permission = \"bash\"`, `inputs = [\"git push*\"]`, \
`at-most = \"ask\"`). agent-lsp proves it for every agent it selects, in every dialect, over every \
input the patterns match (wildcard patterns are regular languages, so this is exact, not a \
sample), under the runtime's own evaluation: opencode's and Zuno's last matching rule with the \
built-in defaults, Claude Code's tool grant and settings rules. The finding sits on the rule that \
lets an input through (or on the agent, when a default does), names a shortest input it decides \
that way, and links the policy and the other rules involved.",
        "# agent-lsp.toml: [[policy]] id = \"no-push\", permission = \"bash\", inputs = [\"git push*\"], at-most = \"ask\"\npermission:\n  bash:\n    \"git *\": allow\n",
        "permission:\n  bash:\n    \"git *\": allow\n    \"git push*\": ask\n";
    IgnoredPermissionRule = "ignored-permission-rule", Warning, RuleNeverApplies, [],
        "Claude Code: a settings permission rule that is skipped or never consulted.",
        "In `.claude/settings.json`, path rules on `Write`, `NotebookEdit`, `Glob` and `MultiEdit` are \
accepted but never consulted (`Edit(...)` rules cover every edit tool, `Read(...)` covers reading); \
a parameter rule cannot target a primary field (`Bash(command:...)`, `Read(file_path:...)`); an allow \
rule whose tool name is a glob not anchored to one MCP server (`*`, `mcp__*`) is skipped; a `:*` \
before the end of a Bash pattern is matched literally (`Bash(git:* push)` never matches).",
        "{ \"permissions\": { \"deny\": [\"Write(.env)\", \"Bash(git:* push)\"] } }",
        "{ \"permissions\": { \"deny\": [\"Edit(.env)\", \"Bash(git * push)\"] } }";
    UnsubstitutedVariable = "unsubstituted-variable", Warning, FailsWhenUsed, [],
        "A variable the runtime leaves as written: `${VAR}` in opencode's config (it substitutes `{env:VAR}`); in Claude Code's `.mcp.json`, `{env:VAR}` or another form than `${VAR}`/`${VAR:-default}`, or `${VAR}` in a field it does not expand; in VS Code's `.vscode/mcp.json`, a `${name}` VS Code does not know (`${workspaceFoldr}`, `${HOME}`, `${env.HOME}`, `{env:HOME}`).",
        "opencode replaces `{env:VAR}` in its config files with the variable's value (and `{file:path}` \
with a file's content) before it reads them. The shell's `${VAR}` is not among them: a header \
`\"Authorization\": \"Bearer ${TOKEN}\"` is sent with those very characters, and the server refuses \
it. Strings run by a shell (after `sh -c`) are left alone, since the shell expands them. Claude Code \
is the other way round: in `.mcp.json` it replaces `${VAR}` and `${VAR:-default}` in a server's \
`command`, `args`, `env` values, `url` and `headers` values, and nothing else (`{env:VAR}`, \
`${VAR-x}` and the `oauth` settings are used as written). VS Code's `.vscode/mcp.json` \
substitutes `${env:VAR}`, `${input:id}`, `${workspaceFolder}`, `${userHome}` and its other \
variables; a name it does not know (`${workspaceFoldr}`, the shell's `${HOME}`, the old \
`${env.HOME}`, opencode's `{env:HOME}`) is sent as written (seen with VS Code 1.139.1).",
        "{ \"mcp\": { \"api\": { \"type\": \"remote\", \"url\": \"https://x.dev/mcp\", \"headers\": { \"Authorization\": \"Bearer ${TOKEN}\" } } } }",
        "{ \"mcp\": { \"api\": { \"type\": \"remote\", \"url\": \"https://x.dev/mcp\", \"headers\": { \"Authorization\": \"Bearer {env:TOKEN}\" } } } }";
    UnknownMcpServer = "unknown-mcp-server", Warning, RuleNeverApplies, [],
        "Claude Code: an `enabledMcpjsonServers`/`disabledMcpjsonServers` entry of the project settings that names no server of the `.mcp.json` files Claude Code reads; an agent's `mcp__<server>__<tool>` entry whose server nothing declares (info). GitHub Copilot: a `tools` entry `server/*` whose server neither `.vscode/mcp.json` nor the agent's `mcp-servers` declares.",
        "Claude Code asks each user to approve the servers of a project's `.mcp.json` (the one of the \
folder it starts in and those of every folder above it); the settings lists `enabledMcpjsonServers` \
and `disabledMcpjsonServers` answer for them by name. An approval needs the server's exact name \
(`\"a_b\"` does not approve `\"a.b\"`), a rejection also matches a name that reads the same once \
written as a tool prefix, and a rejection wins over an approval. An entry that names no server \
does nothing, silently. Nothing is said while a `.mcp.json` Claude Code would read does not parse \
(its servers are unknown then); `enableAllProjectMcpServers: true` with no server to approve is an \
info. A project agent's `tools` or `disallowedTools` entry `mcp__<server>__<tool>` whose server no \
`.mcp.json` of the project (or above it), no server of the user's `~/.claude.json` and no agent's \
`mcpServers` declares gives the agent nothing: an info, said only when all of those were read (not \
with `--no-global`, `CLAUDE_CONFIG_DIR` or an organization's `managed-mcp.json`), and never for \
plugin servers (`mcp__plugin_...`), claude.ai connectors or Claude Code's own servers.",
        "{ \"enabledMcpjsonServers\": [\"github_tools\"] }",
        "{ \"enabledMcpjsonServers\": [\"github-tools\"] }";
    MissingPath = "missing-path", Warning, ValueIgnored, [],
        "A path that matches nothing on disk. opencode: an `instructions` entry, a `skills.paths` folder, a local `references` folder or a plugin path. Claude Code: the script a hook's `command` runs (under `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}` or relative to the project), an `@path` import of `CLAUDE.md` and the other memory files, a command's `@path` mention. GitHub Copilot: an `applyTo` glob that matches no file of the workspace.",
        "opencode looks these paths up when it starts and skips, without a word in the session, the ones \
that match no file: an instructions file that was renamed is simply not read, a skills folder that \
moved loads no skill. Relative paths resolve from the project (`instructions`, `references`) or \
from the folder opencode starts in (`skills.paths`); `~/` is the home folder. The finding follows \
the disk: it goes away when the file appears. Claude Code runs a hook's `command` as written: \
when the script it names is missing, the command fails every time, and a failing hook blocks \
nothing (only exit code 2 does), so a `PreToolUse` guard with a mistyped path guards nothing. \
Claude Code leaves out, without a word either, the `@path` imports of its memory files \
(`CLAUDE.md`, `CLAUDE.local.md`, `.claude/CLAUDE.md`, `.claude/rules/**/*.md`, \
`~/.claude/CLAUDE.md`, and the files they import) that name no file, a folder or a file that is \
not text: the model is never given them. An import resolves from the importing file's folder, and \
a `.` or `,` written right after the path is part of it. A command's `@path` (resolved from the \
folder Claude Code starts in) that names no file attaches nothing.",
        "{ \"instructions\": [\"docs/CONTRIBUTNG.md\"] }",
        "{ \"instructions\": [\"docs/CONTRIBUTING.md\"] }";
    UnresolvedVariable = "unresolved-variable", Warning, FailsWhenUsed, [],
        "GitHub Copilot: a `${...}` variable of `.vscode/mcp.json` VS Code cannot resolve, so it does not start the server: an `${input:id}` no input declares, `${env:}` with no name, an editor's variable (`${file}`) with no editor open.",
        "VS Code replaces the variables of a server's settings (`command`, `args`, `env`, `envFile`, \
`cwd`, `url`, the names and values of `headers`) each time it starts the server. An `${input:id}` \
is asked of the user, once, by the input of `inputs` with that `id`; when no input has it, VS Code \
stops there: the server is not started, and the only trace is a notification, \"Error starting \
github: Undefined input variable 'gh-token' encountered\". `${env:}` without a name does the same, \
and so do the variables of the file open in the editor (`${file}`, `${fileBasename}`, \
`${lineNumber}`, `${selectedText}`, ...) when none is open as the server starts (it then gets that \
file's, which is rarely what a server wants). The fix names the input `inputs` declares. (Seen \
with VS Code 1.139.1.)",
        "{ \"inputs\": [{ \"type\": \"promptString\", \"id\": \"github-token\", \"password\": true }], \"servers\": { \"github\": { \"type\": \"http\", \"url\": \"https://api.githubcopilot.com/mcp/\", \"headers\": { \"Authorization\": \"Bearer ${input:gh-token}\" } } } }",
        "{ \"inputs\": [{ \"type\": \"promptString\", \"id\": \"github-token\", \"password\": true }], \"servers\": { \"github\": { \"type\": \"http\", \"url\": \"https://api.githubcopilot.com/mcp/\", \"headers\": { \"Authorization\": \"Bearer ${input:github-token}\" } } } }";
    ShadowedFile = "shadowed-file", Warning, ValueIgnored, [],
        "An instruction file (`AGENTS.md`, `CLAUDE.md`, `CONTEXT.md`, `.claude/AGENTS.md`) that no runtime reads where it is, because other files take its place; for Codex, an `AGENTS.md` that the `AGENTS.override.md` beside it replaces (info), and a blank `AGENTS.override.md`, which hides the `AGENTS.md` beside it.",
        "opencode reads one kind of instruction file: the first of `AGENTS.md`, `CLAUDE.md` and \
`CONTEXT.md` that any folder from where it starts up to the git root holds, every file of that \
name and no other, so a `CLAUDE.md` beside (or below) an `AGENTS.md` never reaches it. Claude \
Code reads every `CLAUDE.md` and `.claude/CLAUDE.md` up to the root, and `AGENTS.md` (through \
its built-in AGENTS.md plugin) only where none of those folders holds a `CLAUDE.md`; it never \
reads `CONTEXT.md`, but a file a `CLAUDE.md` imports (`@AGENTS.md`) is read through the import. \
A file that no runtime reads there is a warning that says which file each reads instead. One \
that a runtime ignores while another reads it (an `AGENTS.md` for opencode beside a `CLAUDE.md` \
for Claude Code) is the usual way to write for two runtimes and is not reported; the hover on \
the file's first line says who reads it and why. Codex takes one file per folder, \
`AGENTS.override.md` before `AGENTS.md`: where both are, it reads the override only (an info on \
the `AGENTS.md`, since that is what an override is for), and a blank override, which Codex skips, \
still hides the `AGENTS.md`, so Codex gets nothing from the folder (a warning on the override). \
(Seen with opencode 1.18.34, Claude Code 2.1.332 and Codex 0.171.0.)",
        "a CONTEXT.md beside an AGENTS.md: opencode reads the AGENTS.md, Claude Code never reads CONTEXT.md",
        "one AGENTS.md, and a CLAUDE.md that imports it (`@AGENTS.md`)";
    TruncatedInstructions = "truncated-instructions", Warning, ValueIgnored, [],
        "Codex: an instruction file (`AGENTS.md`, `AGENTS.override.md`, a name of `project_doc_fallback_filenames`) that Codex cuts, or leaves out, because the files read before it use up the `project_doc_max_bytes` budget.",
        "Codex gives the model one instruction file per folder, from the git root down to the folder \
it starts in (`AGENTS.override.md`, else `AGENTS.md`, else the names of \
`project_doc_fallback_filenames`), and all of them share one budget: `project_doc_max_bytes`, \
32768 bytes unless set. The budget is filled from the root down, so the file that is cut is the \
most specific one, the file of the folder the session starts in: Codex gives the model its first \
bytes up to the budget (even in the middle of a character) and leaves the rest out, and a file \
after that is not read at all. The terminal interface says nothing. The finding sits where the \
cut falls, with the byte counts and the files that used the budget first, for a session started \
in the file's folder (one started higher up does not read the file; one started lower reads the \
same part of it). Shorten the files, move text into the folders that need it, or raise \
`project_doc_max_bytes`. Said where Codex is in use: a `.codex/` folder on the way from the git \
root, an `AGENTS.override.md`, or the user's Codex configuration. (Seen with Codex 0.171.0: a \
32,216-byte root `AGENTS.md` leaves 552 bytes of a 1,415-byte `sub/AGENTS.md`.)",
        "a 32,216-byte AGENTS.md at the git root and a 1,415-byte sub/AGENTS.md",
        "the root AGENTS.md kept short, the details in the folders that need them";
    HardcodedSecret = "hardcoded-secret", Warning, Works, [],
        "A token, key or password written into a file the runtime reads (a server's `env` or `headers`, a provider's options, a settings `env`, the text of a prompt or an instruction file): a well-known token shape anywhere, or a value that reads as a secret under a key that names one.",
        "The runtimes read their MCP servers, providers and settings from files that usually live in the \
repository, so a token pasted there goes wherever the repository goes: every clone, fork, CI log \
and the history, where deleting the line later does not remove it. agent-lsp recognises the \
well-known token shapes (GitHub, OpenAI, Anthropic, AWS, Slack, Google, Stripe, GitLab, npm, \
Hugging Face and others) in any string, and under a key that names a secret (`*TOKEN*`, \
`*SECRET*`, `*PASSWORD*`, `*_KEY`, `apiKey`, `Authorization`) a value that reads as one: no \
spaces, at least 16 characters, high entropy, not a reference the runtime fills in (`${NAME}`, \
`{env:NAME}`, `${input:id}`), a path, a URL or a placeholder. The message shows the secret's first \
characters and its length only, and `check` hides it in the lines it prints. The fix writes the \
runtime's own way to read the value from the environment where it has one in that place \
(opencode's `{env:NAME}`, Claude Code's `${NAME}` in `.mcp.json`, VS Code's `${env:NAME}`, Gemini \
CLI's `${NAME}`), and the message says what to do where it has none (Codex's `env_vars`, Claude \
Code's `settings.local.json`). A file git ignores is where a secret belongs: nothing is said \
there. In the prose of a Markdown file (an agent's prompt, a skill's or command's steps, \
`CLAUDE.md`, `AGENTS.md`) only the well-known token shapes and private keys count: the runtime \
sends that text to the model provider with every prompt, so keep the token out of it and let a \
command or an MCP server read it from the environment. Revoke a token that was committed. Turn \
the rule off for test fixtures with \
`[rules.per-file-ignores]` in `agent-lsp.toml`.",
        "{ \"mcp\": { \"github\": { \"type\": \"local\", \"command\": [\"github-mcp\"], \"environment\": { \"GITHUB_TOKEN\": \"Jq7vR2nX9pL4wT8kZ3mB6cY1\" } } } }",
        "{ \"mcp\": { \"github\": { \"type\": \"local\", \"command\": [\"github-mcp\"], \"environment\": { \"GITHUB_TOKEN\": \"{env:GITHUB_TOKEN}\" } } } }";
    UnpinnedPackage = "unpinned-package", Warning, Works, [],
        "An MCP server, hook or other command started through a package runner (`npx`, `bunx`, `pnpm dlx`, `yarn dlx`, `npm exec`, `uvx`, `uv tool run`, `pipx run`, `docker run`, `podman run`) without a pinned version: no version, a tag such as `latest`, or a range.",
        "A package runner fetches the package it is given when it starts it, at the version the \
registry serves then, unless the command says which one: `npx -y @modelcontextprotocol/server-github` \
runs whatever was published last, and so does `uvx mcp-server-fetch` or `docker run \
ghcr.io/github/github-mcp-server` (no tag is `latest`). The runtimes start MCP servers and hooks \
on their own, with the agent's rights and often its tokens in the environment, so a bad release \
(or a taken-over package name) runs on every machine that starts the agent next, unreviewed. Pin \
the version you checked: `name@1.2.3` for npm, `name==1.2.3` (or uv's `name@1.2.3`) for PyPI, a \
version tag or a digest (`@sha256:...`) for an image; `@latest`, `^1.2` and `>=1` still move. \
agent-lsp reads every `command` of a file the same way: an argument list (opencode), a program \
and its `args` (`.mcp.json`, `.vscode/mcp.json`, Codex's and Gemini CLI's servers), or a shell \
line (a hook's `command`, read command by command), past the runner's own options (`-y`, \
`--package`, `--from`, `--spec`, `-e NAME=1`, Windows' `cmd /c`). A local path, a URL, a git \
source or a variable is not a package, and a server turned off (`\"enabled\": false`, \
`\"disabled\": true`) is not started. Turn the rule off where a moving version is the point (a \
scratch project) with `ignore = [\"unpinned-package\"]` in `agent-lsp.toml`.",
        "{ \"mcpServers\": { \"github\": { \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github\"] } } }",
        "{ \"mcpServers\": { \"github\": { \"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-github@2025.4.8\"] } } }";
    HomePath = "home-path", Warning, Works, [],
        "An absolute path into one person's home folder (`/home/<user>/`, `/Users/<user>/`, `C:\\Users\\<user>\\`) in a committed file the runtime reads: an agent's prompt, a skill, a command, a hook, a server's `command` or `args`.",
        "Agent files are shared: they live in the repository, and every teammate's runtime, and CI's, \
reads them. A path into the home folder of the person who wrote the file (`/Users/ana/bin/lint.sh`, \
`/home/ana/notes.md`) exists on that one machine: elsewhere the hook that runs it fails (a failing \
`PreToolUse` hook blocks nothing), the server does not start, and the prompt sends the model to a \
file that is not there. Write the path from the project instead: relative to it, from \
`$CLAUDE_PROJECT_DIR` or `${CLAUDE_PLUGIN_ROOT}` in Claude Code's hooks, or from `~` where a shell \
reads it (a hook's command; not a server's `args`, which no shell expands). The whole file is \
searched, prompts included. Names that stand for anyone (`/home/user`, `/Users/username`, \
`/Users/Shared`, `/home/runner`, `/home/linuxbrew`) are not reported, and neither is a file that \
no one else receives: one outside a git repository (your own `~/.claude/`) or one git ignores \
(`settings.local.json`). Turn the rule off for files that are meant for one machine with \
`[rules.per-file-ignores]` in `agent-lsp.toml`.",
        "{ \"hooks\": { \"PostToolUse\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"/Users/ana/bin/lint.sh\" }] }] } }",
        "{ \"hooks\": { \"PostToolUse\": [{ \"hooks\": [{ \"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/bin/lint.sh\" }] }] } }";
    BroadGrant = "broad-grant", Warning, Works, [],
        "A committed permission that lets the agent do a whole class of things without asking: Claude Code's `Bash` (or `Bash(*)`, `PowerShell`), or a program that runs whatever its arguments hold (`Bash(python3 *)`, `Bash(env *)`, `Bash(bash -c *)`, `Bash(uv run *)`), in `permissions.allow` or in a skill's or command's `allowed-tools`; a `PermissionRequest` hook without a matcher, which answers for every tool; opencode's `permission: allow`, or an allow that covers `external_directory` for every path; Codex's `sandbox_mode = \"danger-full-access\"`; Gemini CLI's `run_shell_command` in `tools.allowed`; a GitHub Copilot agent with every tool (info).",
        "A permission written into a file the repository carries applies to everyone who opens the \
project. `\"allow\": [\"Bash\"]` in `.claude/settings.json` runs every shell command the model \
chooses without asking (a deny or ask rule still applies to what it names), and `allowed-tools: \
Bash` does the same while a skill or command is active: `rm`, `curl ... | sh` and `git push \
--force` included. So does an allow for a program that runs whatever its arguments hold, with \
any arguments: `Bash(python3 *)` lets `python3 -c` run any code, `Bash(env *)`, `Bash(xargs *)`, \
`Bash(timeout *)` or `Bash(uv run *)` any command after them, `Bash(bash -c *)` any script \
(seen with Claude Code 2.1.332, which let each of these run a command the rule does not name; \
a script or folder named, as in `Bash(python3 scripts/check.py *)`, is not reported). A \
`PermissionRequest` hook without a `matcher` (or with `*`) runs on every \
permission request Claude Code would ask the user, for every tool: what its command answers \
(`allow`, say), it answers for Bash, Write and each MCP server's tools alike. opencode asks before a tool reads or writes outside the project \
(`external_directory`); an allow for it with the pattern `*`, a `\"*\": \"allow\"` that no later \
rule narrows, or a whole `permission: allow` lets the agent reach any file of the machine, keys \
and other projects included. Codex applies `sandbox_mode = \"danger-full-access\"` from a \
project's `.codex/config.toml` (and from one in the folder it starts in) once the project is \
trusted: every command then runs without a sandbox, with the whole disk and the network (seen \
with Codex 0.171.0, whose `exec` header says `sandbox: danger-full-access`). Gemini CLI lets the \
tools of `tools.allowed` past its confirmation dialog: `run_shell_command` without a command is \
every shell command (its own settings schema says so; `confirmationRequired` or `exclude` naming \
the tool takes it back). A file the runtime refuses grants nothing, and says nothing here. Name \
what the agent needs instead: `Bash(npm test *)`, `Bash(git \
diff *)`, an `external_directory` rule for the one folder, `workspace-write`, \
`run_shell_command(npm test)`. A GitHub Copilot agent without a `tools` \
list (or with `*`) gets every tool, the terminal and every MCP server's included: an info that \
suggests a list. A file no one else receives (your own settings, one git ignores such as \
`settings.local.json`) is yours to decide: nothing is said there. A project that means it turns \
the rule off with `ignore = [\"broad-grant\"]` in `agent-lsp.toml`. (Claude Code ignores \
`defaultMode: bypassPermissions` in a project's settings, which `ignored-field` reports; \
opencode allows `bash` by default, so `bash: allow` grants nothing new and is not reported.)",
        "{ \"permissions\": { \"allow\": [\"Bash\", \"Read\"] } }",
        "{ \"permissions\": { \"allow\": [\"Bash(npm test *)\", \"Bash(git diff *)\", \"Read\"] } }";
    UnquotedPathVariable = "unquoted-path-variable", Warning, Works, [],
        "Claude Code: a hook command that leaves `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}` or `${CLAUDE_PLUGIN_DATA}` outside double quotes, so the shell splits the path at its spaces (or, in single quotes, never expands it).",
        "Claude Code runs a hook's `command` with `/bin/sh`, the path variables set in its \
environment, and the shell expands them where the command names them: outside double quotes, the \
value is split at its spaces. In a project at `/Users/ana/My Projects/app`, \
`$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh` runs `/Users/ana/My` with the rest as arguments, \
which fails with status 127, and a `PreToolUse` hook that fails blocks nothing: Claude Code logs \
the error and the tool call goes ahead, so the guard guards nothing on that machine (a plugin's \
`${CLAUDE_PLUGIN_ROOT}` alike: plugins live under the user's home folder). In single quotes the \
shell does not expand the variable at all, and the hook fails everywhere. Write the variable in \
double quotes, `\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh`: the fix does that where the value \
is written as it reads. Not reported: an assignment (`DIR=$CLAUDE_PROJECT_DIR/x`, not split), a \
handler with `args` (run without a shell) or `shell: powershell`, and a line with a command \
substitution, `[[`, `case` or a here-document, whose quoting agent-lsp does not read. (Seen with \
Claude Code 2.1.332: with a project and a plugin in folders whose names hold a space, the \
unquoted forms exit 127 with `/bin/sh: 1: /tmp/.../my: not found`, the single-quoted ones with \
`$CLAUDE_PROJECT_DIR/...: not found`, the double-quoted ones run, and the Bash call an unquoted \
blocking guard should have stopped runs; `tests/agents/run.sh` step (g).)",
        "{ \"hooks\": { \"PreToolUse\": [{ \"matcher\": \"Bash\", \"hooks\": [{ \"type\": \"command\", \"command\": \"$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh\" }] }] } }",
        "{ \"hooks\": { \"PreToolUse\": [{ \"matcher\": \"Bash\", \"hooks\": [{ \"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/guard.sh\" }] }] } }";
    RelativeHookPath = "relative-hook-path", Warning, Works, [],
        "Claude Code: a hook command that runs its script by a path relative to the current folder (`.claude/hooks/guard.sh`, `python3 scripts/check.py`), which is not found once the model has run `cd`.",
        "Claude Code runs a hook's `command` with `/bin/sh` in the folder it is in at that moment, \
and that folder is the one the model's last `cd` left it in: a script named by a relative path \
(`.claude/hooks/guard.sh`, `./guard.sh`, `bash scripts/check.sh`) is looked for there. From a \
subfolder it is not found, the hook fails with status 127, and a `PreToolUse` hook that fails \
blocks nothing: Claude Code logs the error and the tool call goes ahead. (Seen with Claude Code \
2.1.332: with the guard `.claude/hooks/guard.sh` on Bash, the model ran `cd sub`, then \
`touch ran`, which the guard should have refused: `sub/ran` was made; with \
`\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh` the same `touch` was refused; \
`tests/agents/run.sh` step (j).) Anchor the path: `\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh`, \
or in a plugin `\"${CLAUDE_PLUGIN_ROOT}\"/scripts/check.sh`. Only the program of each command, \
or the script an interpreter (`bash`, `python3`, `node`, ...) is given, is looked at. Not \
reported: a command that changes folder itself (`cd \"$CLAUDE_PROJECT_DIR\" && ...`), a handler \
with `args` or `shell: powershell`, and a line with a command substitution, `[[`, `case` or a \
here-document, whose words agent-lsp does not read.",
        "{ \"hooks\": { \"PreToolUse\": [{ \"matcher\": \"Bash\", \"hooks\": [{ \"type\": \"command\", \"command\": \".claude/hooks/guard.sh\" }] }] } }",
        "{ \"hooks\": { \"PreToolUse\": [{ \"matcher\": \"Bash\", \"hooks\": [{ \"type\": \"command\", \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.claude/hooks/guard.sh\" }] }] } }";
    OverriddenDeny = "overridden-deny", Warning, RuleNeverApplies, [],
        "An opencode agent whose own permission allows more than a deny rule of the top-level `permission`, and so overrides it: for that agent the deny never applies.",
        "opencode builds each agent's permissions as one list: its defaults, then the config's \
top-level `permission`, then the agent's own `permission` (its Markdown frontmatter and its \
config entry), and the last rule that matches a request decides. A deny written at the top as a \
guard for every agent (`\"git push *\": \"deny\"`, `\"rm -rf *\": \"deny\"`) is therefore taken back \
by any broader allow in an agent, `bash: allow` or `\"git *\": \"allow\"`: that agent pushes \
and deletes without asking, and nothing says so. The finding is on the agent's allow and names \
the denies it overrides; restate them after the allow in the agent's own block to keep them \
(the fix writes them there, right after the allow, and makes a whole-permission `bash: allow` \
the `\"*\"` rule of a pattern map; it is offered one at a time, since it changes what the agent \
may do, and not for the deprecated `tools`, whose own conversion comes first). \
Not reported, as deliberate layering: an agent that widens a deny of a whole permission (`edit: \
deny` at the top, `edit: allow` in the agent), an agent that allows exactly the pattern the \
config denies, and an allow of everything at once (`permission: allow`, which `broad-grant` \
reports). Turn the rule off with `ignore = [\"overridden-deny\"]` in `agent-lsp.toml` if agents \
are meant to lift the project's guards.",
        "// opencode.json\n{ \"permission\": { \"bash\": { \"git push *\": \"deny\" } },\n  \"agent\": { \"ship\": { \"permission\": { \"bash\": \"allow\" } } } }",
        "// opencode.json\n{ \"permission\": { \"bash\": { \"git push *\": \"deny\" } },\n  \"agent\": { \"ship\": { \"permission\": { \"bash\": { \"*\": \"allow\", \"git push *\": \"deny\" } } } } }";
    UndescribedSubagent = "undescribed-subagent", Warning, Works, [],
        "An opencode agent the Task tool offers the model (mode `subagent` or `all`) with no `description`, or an empty one, once every file that defines it is merged.",
        "The model picks a subagent for a task by reading the Task tool's list of agents, one line \
each: the name and the description. opencode does not require a description (its docs call it \
required, its code does not), and lists an agent without one as \"This subagent should only be \
called manually by the user.\" (seen with opencode 1.18.34, in the tool description the model \
receives): the model is told to leave it alone, so the agent runs only when someone types \
`@name`. An empty description lists the name alone. Hidden agents are listed too (`hidden` only \
keeps them out of the `@` menu). The check reads the merged agent: a description in any file \
that defines the agent counts, and a built-in you customise keeps its own. A `primary` agent is \
not offered to the Task tool and needs none. If the agent is meant to be run only by hand, say so \
with `mode: primary`, or turn the rule off for the file with `[rules.per-file-ignores]` in \
`agent-lsp.toml`.",
        "---\nmode: subagent\n---\nYou review pull requests for security issues.",
        "---\ndescription: Reviews a change for security issues. Use after editing auth or input handling.\nmode: subagent\n---\nYou review pull requests for security issues.";
}

/// The rules the shared layers apply to the files of every dialect (syntax, keys and values,
/// names, skills, commands, suppressions, links); each dialect adds its own in its
/// `schema::RULES`.
pub const EVERY_DIALECT: &[Code] = &[
    Code::SyntaxError,
    Code::DuplicateKey,
    Code::UnknownKey,
    Code::InvalidType,
    Code::InvalidValue,
    Code::InvalidColor,
    Code::DeprecatedField,
    Code::InvalidModel,
    Code::DuplicateAgent,
    Code::ShadowedRule,
    Code::UnknownAgent,
    Code::MissingTemplate,
    Code::InvalidName,
    Code::MissingField,
    Code::MisplacedSkill,
    Code::NameMismatch,
    Code::DuplicateSkill,
    Code::UnusedSuppression,
    Code::UncheckedFile,
    Code::BrokenLink,
    Code::PolicyViolation,
    Code::HardcodedSecret,
    Code::HomePath,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_index_their_own_rule_and_names_are_kebab_case() {
        for (i, rule) in RULES.iter().enumerate() {
            assert_eq!(rule.code as usize, i);
            assert_eq!(Code::from_name(rule.name), Some(rule.code));
            assert!(
                rule.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}",
                rule.name
            );
            assert!(!rule.summary.is_empty() && !rule.explanation.is_empty());
        }
    }

    #[test]
    fn other_severities_differ_from_the_default_and_say_when() {
        for (code, severity, when) in OTHER_SEVERITIES {
            let rule = code.rule();
            assert_ne!(
                rule.severity, *severity,
                "{}: the default is not another severity",
                rule.name
            );
            assert!(!when.is_empty());
            assert!(rule.allows(*severity));
            assert_eq!(rule.severities()[0], (rule.severity, None));
            assert!(rule.severities().contains(&(*severity, Some(*when))));
        }
        // One line per pair.
        let mut pairs: Vec<(Code, Severity)> = OTHER_SEVERITIES.iter().map(|(c, s, _)| (*c, *s)).collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), OTHER_SEVERITIES.len());
        assert!(!Code::BroadPattern.rule().allows(Severity::Error));
        assert!(Code::BroadPattern.rule().allows(Severity::Info));
    }
}
