//! Claude Code 2.1.332's settings files (`settings.json`, `settings.local.json`, the user's
//! `~/.claude/settings.json`) as data on the shared shape engine: every top-level setting the
//! release validates, with its type, values and bounds, and the nested objects people write
//! (`permissions`, `sandbox`, `statusLine`, `attribution`, MCP server lists, ...). Facts: the
//! release's own settings schema, read and confirmed with the runtime (`tests/claude_runtime`).
//!
//! How the runtime reads the file (measured, `shared/spec/claude-code.md` §9): a value its schema
//! refuses makes it drop the WHOLE file (every permission rule, hook and setting in it), logging
//! one `Invalid setting skipped` line per problem; a few problems are stripped instead and the
//! rest applies (see `settings.rs`: items of the permission lists, hook entries of most events,
//! unknown hook events); the settings of [`SILENT`] replace a bad value with nothing, without a
//! word; a key it does not know is kept and never read.

use crate::analysis::shape::{Bound, Field, Lit, Num, Object, Rest, Shape};

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;

/// The root of a settings file.
pub static SETTINGS: Shape = Shape::Object(&Object {
    what: "Claude Code's settings",
    fields: TOP,
    rest: Rest::Keep(&Shape::Any),
});

/// Settings whose bad value Claude Code replaces with nothing, without a line in its log: the
/// rest of the file applies.
pub const SILENT: &[&str] = &[
    "additionalDirectoryConfigRoots",
    "bashOutputMaxChars",
    "taskOutputMaxChars",
    "desktopMcpServersListScope",
    "strictPluginOnlyCustomization",
    "footerLinksRegexes",
    "subagentStatusLine",
    "prependPlugins",
    "appendPlugins",
    "forceLoginMethod",
    "forceLoginGatewayUrl",
    "gatewayInternalNetworks",
    "allowedProviders",
    "viewMode",
    "spinnerTipsOverride",
    "maxProseWidth",
    "spellcheck",
    "promptCacheTtl",
    "subagentPromptCacheTtl",
    "effortLevel",
    "maxEffortLevel",
    "modelSettings",
    "ultracode",
    "askUserQuestionTimeout",
    "dialogExpiry",
    "modelProposedGoals",
    "theme",
    "editorMode",
    "keybindingFlavor",
    "vimInsertModeRemaps",
    "preferredNotifChannel",
    "precomputeArmTokens",
    "autoCompactRaisedForLoad",
    "autoCompactOfferAnswer",
    "teammateMode",
    "crossSessionInbound",
    "remoteMessageReceipts",
    "autoCompactWindow",
    "policyHelper",
    "policyHelpers",
    // Nested settings read the same way (found by the settings judge, `tests/claude_runtime`).
    "permissions.blockReadsExemptPaths",
    "permissions.workingDirectoriesAsGiven",
    "permissions.workingDirectoriesExclude",
    "sandbox.bwrapPath",
    "sandbox.socatPath",
    "statusLine.refreshInterval",
    "worktree.bgIsolation",
    "worktree.location",
];

/// Settings Claude Code reads from managed settings only: in a user, project or local file it
/// deletes them before reading the rest, and logs "only honored from managed settings and was
/// ignored here" (their value, right or wrong, does nothing).
pub const MANAGED_ONLY: &[&str] = &[
    "managedMcpServers",
    "isolation",
    "attributionProjectPolicy",
    "deniedModels",
    "availableModelsMatch",
];

/// `path` (keys from the root) is, or is inside, a setting of [`SILENT`].
pub fn silent(path: &[String]) -> bool {
    let mut at = String::new();
    path.iter().any(|k| {
        if !at.is_empty() {
            at.push('.');
        }
        at.push_str(k);
        SILENT.contains(&at.as_str())
    })
}

/// The permission modes `permissions.defaultMode` takes.
pub const PERMISSION_MODES: &[&str] = &["acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan"];

static PERMISSIONS: Object = Object {
    what: "the `permissions` setting",
    fields: &[
        Field::opt(
            "allow",
            Shape::Custom("an array of permission rules"),
            "Rules for tool uses allowed without asking, such as `\"Bash(npm test *)\"`.",
        ),
        Field::opt(
            "ask",
            Shape::Custom("an array of permission rules"),
            "Rules for tool uses that always ask.",
        ),
        Field::opt(
            "deny",
            Shape::Custom("an array of permission rules"),
            "Rules for tool uses that are refused; deny wins over ask and allow.",
        ),
        Field::opt(
            "defaultMode",
            Shape::Lit(&[
                Lit::Str("acceptEdits"),
                Lit::Str("auto"),
                Lit::Str("bypassPermissions"),
                Lit::Str("default"),
                Lit::Str("dontAsk"),
                Lit::Str("plan"),
                Lit::Str("manual"),
            ]),
            "The permission mode sessions start in (`manual` is read as `default`). `bypassPermissions` and `auto` are ignored in a project's settings files.",
        ),
        Field::opt(
            "disableBypassPermissionsMode",
            Shape::Lit(&[Lit::Str("disable")]),
            "`\"disable\"` forbids `bypassPermissions` mode.",
        ),
        Field::opt(
            "disableAutoMode",
            Shape::Lit(&[Lit::Str("disable")]),
            "`\"disable\"` forbids auto mode.",
        ),
        Field::opt(
            "additionalDirectories",
            Shape::Array(&STR),
            "More folders Claude may work in, besides the one it starts in.",
        ),
        Field::opt(
            "blockReadsOutsideWorkingDirectories",
            BOOL,
            "Refuse reads outside the working folders.",
        ),
        Field::opt(
            "blockFileToolReadsOutsideWorkingDirectories",
            BOOL,
            "Refuse file-tool reads outside the working folders.",
        ),
        Field::opt(
            "blockWritesOutsideWorkingDirectories",
            BOOL,
            "Refuse file-tool writes outside the working folders, in every mode.",
        ),
        Field::opt(
            "blockReadsExemptPaths",
            Shape::Array(&STR),
            "Paths exempt from the read block.",
        ),
        Field::opt(
            "workingDirectoriesAsGiven",
            Shape::Array(&STR),
            "Internal to Claude Code.",
        ),
        Field::opt(
            "workingDirectoriesExclude",
            Shape::Array(&STR),
            "Internal to Claude Code.",
        ),
        Field::opt(
            "denyInsteadOfPrompting",
            BOOL,
            "Refuse what would ask, instead of asking.",
        ),
    ],
    rest: Rest::Keep(&Shape::Any),
};

/// The permission lists, which Claude Code reads item by item.
pub const RULE_LISTS: &[&str] = &["allow", "ask", "deny"];

static ATTRIBUTION: Object = Object {
    what: "the `attribution` setting",
    fields: &[
        Field::opt(
            "commit",
            STR,
            "The attribution text of commits (an empty string adds none).",
        ),
        Field::opt(
            "pr",
            STR,
            "The attribution text of pull requests (an empty string adds none).",
        ),
        Field::opt(
            "sessionUrl",
            BOOL,
            "Whether the claude.ai session link is added (default true).",
        ),
    ],
    rest: Rest::Keep(&Shape::Any),
};

static MCP_SERVER_ENTRY: Object = Object {
    what: "an MCP server entry",
    fields: &[
        Field::opt("serverName", STR, "The server's name (letters, digits, `-` and `_`)."),
        Field::opt(
            "serverCommand",
            Shape::Array(&STR),
            "The server's command and arguments.",
        ),
        Field::opt("serverUrl", STR, "The server's URL (`*` wildcards)."),
    ],
    rest: Rest::Drop,
};

static SANDBOX: Object = Object {
    what: "the `sandbox` setting",
    fields: &[
        Field::opt("enabled", BOOL, "Run Bash commands in the sandbox (default false)."),
        Field::opt(
            "failIfUnavailable",
            BOOL,
            "Refuse to start when the sandbox is enabled but cannot run.",
        ),
        Field::opt(
            "autoAllowBashIfSandboxed",
            BOOL,
            "Allow sandboxed Bash commands without asking.",
        ),
        Field::opt(
            "allowUnsandboxedCommands",
            BOOL,
            "Let a command ask to run outside the sandbox.",
        ),
        Field::opt(
            "network",
            Shape::Object(&Object {
                what: "the sandbox's network settings",
                fields: &[
                    Field::opt(
                        "allowedDomains",
                        Shape::Array(&STR),
                        "Domains sandboxed commands may reach.",
                    ),
                    Field::opt(
                        "deniedDomains",
                        Shape::Array(&STR),
                        "Domains sandboxed commands may not reach.",
                    ),
                    Field::opt("strictAllowlist", BOOL, "Reach only the allowed domains."),
                    Field::opt("allowManagedDomainsOnly", BOOL, "Only managed settings' domains count."),
                    Field::opt(
                        "allowUnixSockets",
                        Shape::Array(&STR),
                        "Unix sockets sandboxed commands may use.",
                    ),
                    Field::opt("allowAllUnixSockets", BOOL, "Every Unix socket may be used."),
                    Field::opt(
                        "allowLocalBinding",
                        BOOL,
                        "Sandboxed commands may listen on local ports.",
                    ),
                    Field::opt(
                        "allowMachLookup",
                        Shape::Array(&STR),
                        "macOS services sandboxed commands may reach.",
                    ),
                    Field::opt(
                        "httpProxyPort",
                        Shape::Num(Num {
                            int: false,
                            min: Bound::None,
                            max: None,
                        }),
                        "Your own HTTP proxy's port.",
                    ),
                    Field::opt(
                        "socksProxyPort",
                        Shape::Num(Num {
                            int: false,
                            min: Bound::None,
                            max: None,
                        }),
                        "Your own SOCKS proxy's port.",
                    ),
                    Field::opt(
                        "tlsTerminate",
                        Shape::Object(&Object {
                            what: "the sandbox's TLS settings",
                            fields: &[
                                Field::opt("caCertPath", STR, "The CA certificate."),
                                Field::opt("caKeyPath", STR, "The CA key."),
                            ],
                            rest: Rest::Drop,
                        }),
                        "TLS interception settings.",
                    ),
                ],
                rest: Rest::Drop,
            }),
            "Which network the sandbox lets commands reach.",
        ),
        Field::opt(
            "filesystem",
            Shape::Object(&Object {
                what: "the sandbox's filesystem settings",
                fields: &[
                    Field::opt("allowWrite", Shape::Array(&STR), "Paths sandboxed commands may write."),
                    Field::opt(
                        "denyWrite",
                        Shape::Array(&STR),
                        "Paths sandboxed commands may not write.",
                    ),
                    Field::opt("denyRead", Shape::Array(&STR), "Paths sandboxed commands may not read."),
                    Field::opt(
                        "allowRead",
                        Shape::Array(&STR),
                        "Paths sandboxed commands may read despite a deny.",
                    ),
                    Field::opt(
                        "allowManagedReadPathsOnly",
                        BOOL,
                        "Only managed settings' read paths count.",
                    ),
                    Field::opt(
                        "disabled",
                        BOOL,
                        "Turn filesystem isolation off (not read from project settings).",
                    ),
                ],
                rest: Rest::Drop,
            }),
            "Which files the sandbox lets commands read and write.",
        ),
        Field::opt("credentials", Shape::Any, "Credentials the sandbox hides or masks."),
        Field::opt(
            "windows",
            Shape::Object(&Object {
                what: "the sandbox's Windows settings",
                fields: &[Field::opt(
                    "backend",
                    Shape::Lit(&[Lit::Str("sandboxuser"), Lit::Str("mxc")]),
                    "The Windows sandbox backend.",
                )],
                rest: Rest::Drop,
            }),
            "Windows sandbox settings.",
        ),
        Field::opt(
            "ignoreViolations",
            Shape::Record(&Shape::Array(&STR)),
            "Violations not to report, by command pattern.",
        ),
        Field::opt(
            "enableWeakerNestedSandbox",
            BOOL,
            "Linux: run without a fresh /proc (weaker).",
        ),
        Field::opt(
            "allowNestedUserNamespaces",
            BOOL,
            "Linux: let commands create user namespaces (weaker).",
        ),
        Field::opt("enableWeakerNetworkIsolation", BOOL, "macOS: allow trustd (weaker)."),
        Field::opt("allowAppleEvents", BOOL, "macOS: allow Apple events."),
        Field::opt(
            "excludedCommands",
            Shape::Array(&STR),
            "Commands that run outside the sandbox.",
        ),
        Field::opt(
            "ripgrep",
            Shape::Object(&Object {
                what: "the sandbox's ripgrep settings",
                fields: &[
                    Field::req("command", STR, "The ripgrep program."),
                    Field::opt("args", Shape::Array(&STR), "Its arguments."),
                ],
                rest: Rest::Drop,
            }),
            "The ripgrep the sandbox uses.",
        ),
        Field::opt("bwrapPath", STR, "The bubblewrap program."),
        Field::opt("socatPath", STR, "The socat program."),
    ],
    rest: Rest::Keep(&Shape::Any),
};

static TOP: &[Field] = &[
    Field::opt("$schema", STR, "The JSON Schema of this file, for editors."),
    Field::opt(
        "apiKeyHelper",
        STR,
        "A script whose output is the API key or token Claude Code sends.",
    ),
    Field::opt(
        "proxyAuthHelper",
        STR,
        "A command whose output is the Proxy-Authorization header value.",
    ),
    Field::opt(
        "awsCredentialExport",
        STR,
        "A script that prints AWS credentials for Bedrock.",
    ),
    Field::opt(
        "awsAuthRefresh",
        STR,
        "A script that refreshes AWS authentication for Bedrock.",
    ),
    Field::opt(
        "gcpAuthRefresh",
        STR,
        "A command that refreshes Google Cloud authentication for Vertex AI.",
    ),
    Field::opt(
        "processWrapper",
        STR,
        "A launcher command put before the background processes Claude Code starts (not read from project or local settings).",
    ),
    Field::opt(
        "policyHelper",
        Shape::Any,
        "An executable that computes managed settings at start (enterprise; honoured from admin-controlled sources only).",
    ),
    Field::opt(
        "policyHelpers",
        Shape::Any,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "fileSuggestion",
        Shape::Object(&Object {
            what: "the `fileSuggestion` setting",
            fields: &[
                Field::req("type", Shape::Lit(&[Lit::Str("command")]), ""),
                Field::req("command", STR, ""),
            ],
            rest: Rest::Drop,
        }),
        "A command that suggests files for `@` mentions: `{type: \"command\", command}`.",
    ),
    Field::opt(
        "respectGitignore",
        BOOL,
        "Whether the file picker leaves out files `.gitignore` ignores (default true).",
    ),
    Field::opt(
        "breakReminder",
        Shape::Object(&Object {
            what: "the `breakReminder` setting",
            fields: &[
                Field::opt("enabled", BOOL, ""),
                Field::opt(
                    "intervalMinutes",
                    Shape::Num(Num {
                        int: true,
                        min: Bound::Excl(0.0),
                        max: None,
                    }),
                    "",
                ),
                Field::opt(
                    "breakThresholdMinutes",
                    Shape::Num(Num {
                        int: true,
                        min: Bound::Excl(0.0),
                        max: None,
                    }),
                    "",
                ),
                Field::opt("message", STR, ""),
            ],
            rest: Rest::Drop,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "quietHours",
        Shape::Object(&Object {
            what: "the `quietHours` setting",
            fields: &[
                Field::opt("enabled", BOOL, ""),
                Field::opt("start", STR, ""),
                Field::opt("end", STR, ""),
            ],
            rest: Rest::Drop,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "cleanupPeriodDays",
        Shape::Num(Num {
            int: true,
            min: Bound::Excl(0.0),
            max: None,
        }),
        "Days chat transcripts are kept before they are cleaned up (default 30; at least 1).",
    ),
    Field::opt(
        "desktopSessionCleanupPeriodDays",
        Shape::Num(Num {
            int: true,
            min: Bound::Incl(0.0),
            max: None,
        }),
        "Days desktop-host session transcripts are kept at most (0: no limit).",
    ),
    Field::opt(
        "syncClaudeAiSkills",
        BOOL,
        "`false` stops syncing the skills enabled on claude.ai (not read from project settings).",
    ),
    Field::opt(
        "syncClaudeAiPlugins",
        BOOL,
        "`false` stops syncing the plugins enabled on claude.ai (not read from project settings).",
    ),
    Field::opt(
        "skillListingMaxDescChars",
        Shape::Num(Num {
            int: true,
            min: Bound::Excl(0.0),
            max: None,
        }),
        "The most characters of a skill's description shown to the model (default 1536).",
    ),
    Field::opt(
        "skillListingBudgetFraction",
        Shape::Num(Num {
            int: false,
            min: Bound::Excl(0.0),
            max: Some(1.0),
        }),
        "The share of the context window the skill listing may take (default 0.01).",
    ),
    Field::opt(
        "wslInheritsWindowsSettings",
        BOOL,
        "On WSL, read managed settings from the Windows policy chain too.",
    ),
    Field::opt(
        "env",
        Shape::Record(&Shape::Any),
        "Environment variables set for every session and the commands it runs.",
    ),
    Field::opt(
        "attribution",
        Shape::Union(&[BOOL, Shape::Object(&ATTRIBUTION)]),
        "The attribution text added to commits and pull requests: `{commit, pr, sessionUrl}`, or `false` to add none.",
    ),
    Field::opt(
        "attributionProject",
        STR,
        "The claude.ai Project named for usage reports.",
    ),
    Field::opt(
        "attributionProjectPolicy",
        Shape::Object(&Object {
            what: "the `attributionProjectPolicy` setting",
            fields: &[Field::opt("default", STR, "")],
            rest: Rest::Drop,
        }),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "includeCoAuthoredBy",
        BOOL,
        "Deprecated: use `attribution`. Whether commits and PRs get Claude's co-authored-by line.",
    ),
    Field::opt(
        "includeGitInstructions",
        BOOL,
        "Whether the system prompt includes the built-in commit and PR instructions (default true).",
    ),
    Field::opt(
        "permissions",
        Shape::Object(&PERMISSIONS),
        "Permission rules (`allow`, `ask`, `deny`), the default permission mode, more working directories.",
    ),
    Field::opt(
        "additionalDirectoryConfigRoots",
        Shape::Record(&STR),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "model",
        STR,
        "The model Claude Code uses by default (an alias such as `sonnet`, or a full model name).",
    ),
    Field::opt(
        "fallbackModel",
        Shape::Array(&STR),
        "Models tried in order when the main one is overloaded or unavailable.",
    ),
    Field::opt(
        "availableModels",
        Shape::Array(&STR),
        "The models people may choose (family aliases, version prefixes or full IDs).",
    ),
    Field::opt(
        "enforceAvailableModels",
        BOOL,
        "Also keep the Default model choice within `availableModels`.",
    ),
    Field::opt(
        "availableModelsMatch",
        Shape::Lit(&[Lit::Str("prefix"), Lit::Str("exact")]),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "deniedModels",
        Shape::Array(&STR),
        "Models nobody may choose (read from managed settings only).",
    ),
    Field::opt(
        "modelOverrides",
        Shape::Record(&STR),
        "Anthropic model IDs mapped to provider-specific IDs (for example a Bedrock ARN).",
    ),
    Field::opt(
        "modelPicker",
        Shape::Object(&Object {
            what: "the `modelPicker` setting",
            fields: &[
                Field::req("options", Shape::Array(&Shape::Any), ""),
                Field::opt("replaceBuiltInOptions", BOOL, ""),
            ],
            rest: Rest::Drop,
        }),
        "The rows of the `/model` picker.",
    ),
    Field::opt(
        "modelPricing",
        Shape::Object(&Object {
            what: "the `modelPricing` setting",
            fields: &[
                Field::opt("multiplier", Shape::Any, ""),
                Field::opt("overrides", Shape::Record(&Shape::Any), ""),
            ],
            rest: Rest::Drop,
        }),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "modelCatalogUrl",
        STR,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "modelCatalogPublicKey",
        STR,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "isolation",
        Shape::Any,
        "An organisation's isolation policy, read from managed settings only.",
    ),
    Field::opt(
        "enableAllProjectMcpServers",
        BOOL,
        "Approve every MCP server of the project's `.mcp.json` without asking.",
    ),
    Field::opt(
        "enabledMcpjsonServers",
        Shape::Array(&STR),
        "MCP servers of the project's `.mcp.json` to approve, by name.",
    ),
    Field::opt(
        "disabledMcpjsonServers",
        Shape::Array(&STR),
        "MCP servers of the project's `.mcp.json` to refuse, by name.",
    ),
    Field::opt(
        "disableClaudeAiConnectors",
        BOOL,
        "Do not load the connectors set up on claude.ai.",
    ),
    Field::opt(
        "skillOverrides",
        Shape::Record(&Shape::Lit(&[
            Lit::Str("on"),
            Lit::Str("name-only"),
            Lit::Str("user-invocable-only"),
            Lit::Str("off"),
        ])),
        "Per skill: `on`, `name-only`, `user-invocable-only` or `off`.",
    ),
    Field::opt(
        "disableBundledSkills",
        BOOL,
        "Do not load the skills bundled with Claude Code.",
    ),
    Field::opt(
        "managedMcpServers",
        Shape::Any,
        "MCP servers an organisation deploys (managed settings).",
    ),
    Field::opt(
        "allowedMcpServers",
        Shape::Array(&Shape::Object(&MCP_SERVER_ENTRY)),
        "The MCP servers that may be used: entries of `serverName`, `serverCommand` or `serverUrl`.",
    ),
    Field::opt(
        "deniedMcpServers",
        Shape::Array(&Shape::Object(&MCP_SERVER_ENTRY)),
        "MCP servers that may not be used: entries of `serverName`, `serverCommand` or `serverUrl`.",
    ),
    Field::opt(
        "hooks",
        Shape::Custom("an object of hook event to a list of matchers"),
        "Commands, prompts, agents, HTTP calls or MCP tools run on events (`PreToolUse`, `PostToolUse`, `Stop`, ...), per event a list of `{matcher, hooks}`.",
    ),
    Field::opt(
        "worktree",
        Shape::Object(&Object {
            what: "the `worktree` setting",
            fields: &[
                Field::opt("symlinkDirectories", Shape::Array(&STR), ""),
                Field::opt("sparsePaths", Shape::Array(&STR), ""),
                Field::opt("baseRef", Shape::Lit(&[Lit::Str("fresh"), Lit::Str("head")]), ""),
                Field::opt("bgIsolation", Shape::Lit(&[Lit::Str("worktree"), Lit::Str("none")]), ""),
                Field::opt("location", STR, ""),
            ],
            rest: Rest::Drop,
        }),
        "How `--worktree` sessions set up their git worktree.",
    ),
    Field::opt("disableAllHooks", BOOL, "Run no hooks at all."),
    Field::opt("disableReplyCheck", BOOL, "A Claude Code setting."),
    Field::opt("disableAgentView", BOOL, "A Claude Code setting."),
    Field::opt("disableRemoteControl", BOOL, "A Claude Code setting."),
    Field::opt("disableWorkflows", BOOL, "A Claude Code setting."),
    Field::opt("disableArtifact", BOOL, "A Claude Code setting."),
    Field::opt("enableArtifact", BOOL, "A Claude Code setting."),
    Field::opt("enableWorkflows", BOOL, "A Claude Code setting."),
    Field::opt(
        "workflowSizeGuideline",
        Shape::Lit(&[
            Lit::Str("unrestricted"),
            Lit::Str("small"),
            Lit::Str("medium"),
            Lit::Str("large"),
        ]),
        "`unrestricted`, `small`, `medium` or `large`.",
    ),
    Field::opt("workflowKeywordTriggerEnabled", BOOL, "A Claude Code setting."),
    Field::opt(
        "disableSkillShellExecution",
        BOOL,
        "Do not run the `!` shell commands of skills and commands.",
    ),
    Field::opt(
        "disableWindowsBashCommandSplit",
        BOOL,
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "defaultShell",
        Shape::Lit(&[Lit::Str("bash"), Lit::Str("powershell")]),
        "The shell for commands: `bash` or `powershell`.",
    ),
    Field::opt("bashEditDiffEnabled", BOOL, "A Claude Code setting."),
    Field::opt(
        "bashOutputMaxChars",
        Shape::Num(Num {
            int: true,
            min: Bound::Excl(0.0),
            max: None,
        }),
        "The most characters of a Bash command's output kept (a bad value is ignored without a word).",
    ),
    Field::opt(
        "taskOutputMaxChars",
        Shape::Num(Num {
            int: true,
            min: Bound::Excl(0.0),
            max: None,
        }),
        "The most characters of a background task's output kept (a bad value is ignored without a word).",
    ),
    Field::opt("respondToBashCommands", BOOL, "A Claude Code setting."),
    Field::opt("allowManagedHooksOnly", BOOL, "Run only hooks from managed settings."),
    Field::opt(
        "allowedHttpHookUrls",
        Shape::Array(&STR),
        "URL patterns HTTP hooks may call.",
    ),
    Field::opt(
        "httpHookAllowedEnvVars",
        Shape::Array(&STR),
        "Environment variables HTTP hooks may put in their headers.",
    ),
    Field::opt(
        "allowManagedPermissionRulesOnly",
        BOOL,
        "Apply only permission rules from managed settings.",
    ),
    Field::opt(
        "allowManagedMcpServersOnly",
        BOOL,
        "Use only MCP servers from managed settings.",
    ),
    Field::opt("desktopMcpServersListScope", STR, "A Claude Code setting."),
    Field::opt(
        "allowAllClaudeAiMcps",
        BOOL,
        "An organisation setting, read from managed settings.",
    ),
    Field::opt("allowClaudeInChromeWithManagedMcp", BOOL, "A Claude Code setting."),
    Field::opt("strictPluginOnlyCustomization", Shape::Any, "A Claude Code setting."),
    Field::opt(
        "statusLine",
        Shape::Object(&Object {
            what: "the `statusLine` setting",
            fields: &[
                Field::req("type", Shape::Lit(&[Lit::Str("command")]), ""),
                Field::req("command", STR, ""),
                Field::opt(
                    "padding",
                    Shape::Num(Num {
                        int: false,
                        min: Bound::None,
                        max: None,
                    }),
                    "",
                ),
                Field::opt(
                    "refreshInterval",
                    Shape::Num(Num {
                        int: false,
                        min: Bound::Incl(1.0),
                        max: None,
                    }),
                    "",
                ),
                Field::opt("hideVimModeIndicator", BOOL, ""),
            ],
            rest: Rest::Drop,
        }),
        "A command whose output is the status line: `{type: \"command\", command, padding, refreshInterval}`.",
    ),
    Field::opt("prUrlTemplate", STR, "The URL of a pull request, to link it."),
    Field::opt(
        "footerLinksRegexes",
        Shape::Array(&Shape::Any),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "subagentStatusLine",
        Shape::Object(&Object {
            what: "the `subagentStatusLine` setting",
            fields: &[
                Field::req("type", Shape::Lit(&[Lit::Str("command")]), ""),
                Field::req("command", STR, ""),
            ],
            rest: Rest::Drop,
        }),
        "A command whose output is the status line of subagents (a bad value is ignored without a word).",
    ),
    Field::opt(
        "enabledPlugins",
        Shape::Record(&Shape::Union(&[BOOL, Shape::Array(&STR)])),
        "Plugins switched on or off, by `plugin@marketplace`.",
    ),
    Field::opt(
        "prependPlugins",
        Shape::Array(&STR),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "appendPlugins",
        Shape::Array(&STR),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "extraKnownMarketplaces",
        Shape::Any,
        "More plugin marketplaces, by name, with their source.",
    ),
    Field::opt("additionalMarketplaces", Shape::Any, "A Claude Code setting."),
    Field::opt(
        "strictKnownMarketplaces",
        Shape::Any,
        "The only marketplace sources that may be added (managed settings).",
    ),
    Field::opt(
        "allowedMarketplaces",
        Shape::Any,
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "blockedMarketplaces",
        Shape::Any,
        "Marketplace sources that may not be added.",
    ),
    Field::opt(
        "disableCommandPluginSources",
        BOOL,
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "disableSideloadFlags",
        BOOL,
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "pluginSuggestionMarketplaces",
        Shape::Array(&STR),
        "Marketplaces plugins may be suggested from.",
    ),
    Field::opt(
        "forceLoginMethod",
        Shape::Lit(&[Lit::Str("claudeai"), Lit::Str("console"), Lit::Str("gateway")]),
        "Force a login method: `claudeai`, `console` or `gateway` (a bad value is ignored without a word).",
    ),
    Field::opt("forceLoginGatewayUrl", STR, "A Claude Code setting."),
    Field::opt(
        "gatewayInternalNetworks",
        Shape::Array(&STR),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "parentSettingsBehavior",
        Shape::Lit(&[Lit::Str("first-wins"), Lit::Str("merge")]),
        "A Claude Code setting.",
    ),
    Field::opt(
        "managedSourcesBehavior",
        Shape::Lit(&[Lit::Str("first-wins"), Lit::Str("merge")]),
        "A Claude Code setting.",
    ),
    Field::opt(
        "forceLoginOrgUUID",
        Shape::Union(&[STR, Shape::Array(&STR)]),
        "The organisation (or organisations) a login must belong to.",
    ),
    Field::opt("allowNestedModelAccessUnderForceLogin", BOOL, "A Claude Code setting."),
    Field::opt("allowedProviders", Shape::Array(&STR), "A Claude Code setting."),
    Field::opt("forceRemoteSettingsRefresh", BOOL, "A Claude Code setting."),
    Field::opt(
        "otelHeadersHelper",
        STR,
        "A script that prints headers for OpenTelemetry exports.",
    ),
    Field::opt(
        "outputStyle",
        STR,
        "The output style (for example `Explanatory` or a custom style's name).",
    ),
    Field::opt(
        "viewMode",
        Shape::Lit(&[Lit::Str("default"), Lit::Str("verbose"), Lit::Str("focus")]),
        "`default`, `verbose` or `focus` (a bad value is ignored without a word).",
    ),
    Field::opt("language", STR, "The language Claude answers in."),
    Field::opt(
        "skipWebFetchPreflight",
        BOOL,
        "Skip the safety check before WebFetch fetches a URL.",
    ),
    Field::opt(
        "sandbox",
        Shape::Object(&SANDBOX),
        "The sandbox for Bash commands: `enabled`, `network`, `filesystem`, `excludedCommands`, ...",
    ),
    Field::opt(
        "feedbackSurveyRate",
        Shape::Num(Num {
            int: false,
            min: Bound::Incl(0.0),
            max: Some(1.0),
        }),
        "How often the feedback survey may appear (0 to 1).",
    ),
    Field::opt(
        "feedbackDrafts",
        Shape::Lit(&[Lit::Str("notify"), Lit::Str("quiet"), Lit::Str("off")]),
        "`notify`, `quiet` or `off`.",
    ),
    Field::opt("spinnerTipsEnabled", BOOL, "Show tips while Claude works."),
    Field::opt(
        "clawdFileProgressEnabled",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "spinnerVerbs",
        Shape::Object(&Object {
            what: "the `spinnerVerbs` setting",
            fields: &[
                Field::req("mode", Shape::Lit(&[Lit::Str("append"), Lit::Str("replace")]), ""),
                Field::req("verbs", Shape::Array(&STR), ""),
            ],
            rest: Rest::Drop,
        }),
        "The verbs of the spinner: `{mode: \"append\"|\"replace\", verbs}`.",
    ),
    Field::opt(
        "spinnerTipsOverride",
        Shape::Object(&Object {
            what: "the `spinnerTipsOverride` setting",
            fields: &[
                Field::opt("excludeDefault", BOOL, ""),
                Field::opt("tips", Shape::Any, ""),
                Field::opt("tipsFile", STR, ""),
                Field::opt("label", STR, ""),
            ],
            rest: Rest::Keep(&Shape::Any),
        }),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt("syntaxHighlightingDisabled", BOOL, "Turn syntax highlighting off."),
    Field::opt(
        "maxProseWidth",
        Shape::Num(Num {
            int: true,
            min: Bound::Incl(40.0),
            max: None,
        }),
        "The widest prose column, at least 40 (a bad value is ignored without a word).",
    ),
    Field::opt(
        "spellcheck",
        Shape::Object(&Object {
            what: "the `spellcheck` setting",
            fields: &[
                Field::opt("enabled", BOOL, ""),
                Field::opt("checker", STR, ""),
                Field::opt("language", STR, ""),
                Field::opt("color", STR, ""),
            ],
            rest: Rest::Keep(&Shape::Any),
        }),
        "An organisation setting, read from managed settings.",
    ),
    Field::opt(
        "terminalTitleFromRename",
        BOOL,
        "Set the terminal's title when a session is renamed.",
    ),
    Field::opt("promptCacheTtl", STR, "A Claude Code setting."),
    Field::opt("subagentPromptCacheTtl", STR, "A Claude Code setting."),
    Field::opt("alwaysThinkingEnabled", BOOL, "Turn extended thinking on by default."),
    Field::opt(
        "effortLevel",
        Shape::Lit(&[Lit::Str("low"), Lit::Str("medium"), Lit::Str("high"), Lit::Str("xhigh")]),
        "The default effort: `low`, `medium`, `high` or `xhigh` (a bad value is ignored without a word).",
    ),
    Field::opt(
        "maxEffortLevel",
        STR,
        "The highest effort that may be chosen (a bad value is ignored without a word).",
    ),
    Field::opt(
        "modelSettings",
        Shape::Record(&Shape::Object(&Object {
            what: "the `modelSettings` setting",
            fields: &[
                Field::opt(
                    "effortLevel",
                    Shape::Lit(&[Lit::Str("low"), Lit::Str("medium"), Lit::Str("high"), Lit::Str("xhigh")]),
                    "",
                ),
                Field::opt("maxEffortLevel", STR, ""),
                Field::req("autoCompactWindow", Shape::Any, ""),
            ],
            rest: Rest::Keep(&Shape::Any),
        })),
        "Per model: its effort settings.",
    ),
    Field::opt("ultracode", BOOL, "A Claude Code setting."),
    Field::opt(
        "autoCompactWindow",
        Shape::Num(Num {
            int: true,
            min: Bound::None,
            max: None,
        }),
        "The context size at which automatic compaction starts (a bad value is ignored without a word).",
    ),
    Field::opt("advisorModel", STR, "The model of the advisor tool."),
    Field::opt("fastMode", BOOL, "Turn fast mode on."),
    Field::opt("fastModePerSessionOptIn", BOOL, "A Claude Code setting."),
    Field::opt("promptSuggestionEnabled", BOOL, "Suggest a next prompt."),
    Field::opt("emojiCompletionEnabled", BOOL, "A Claude Code setting."),
    Field::opt(
        "awaySummaryEnabled",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "responseComparisonEnabled",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "showClearContextOnPlanAccept",
        BOOL,
        "Offer to clear the context when a plan is accepted.",
    ),
    Field::opt(
        "askUserQuestionTimeout",
        Shape::Lit(&[Lit::Str("60s"), Lit::Str("5m"), Lit::Str("10m"), Lit::Str("never")]),
        "How long a question waits: `60s`, `5m`, `10m` or `never` (a bad value is ignored without a word).",
    ),
    Field::opt(
        "dialogExpiry",
        Shape::Lit(&[Lit::Str("60s"), Lit::Str("5m"), Lit::Str("10m"), Lit::Str("never")]),
        "How long a dialog waits: `60s`, `5m`, `10m` or `never` (a bad value is ignored without a word).",
    ),
    Field::opt("agent", STR, "The agent the main thread runs as (an agent's name)."),
    Field::opt(
        "modelProposedGoals",
        STR,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "companyAnnouncements",
        Shape::Array(&STR),
        "Messages shown at start, one chosen at random.",
    ),
    Field::opt(
        "pluginConfigs",
        Shape::Record(&Shape::Any),
        "Per plugin: values for its MCP servers and options.",
    ),
    Field::opt(
        "remote",
        Shape::Object(&Object {
            what: "the `remote` setting",
            fields: &[Field::opt("defaultEnvironmentId", STR, "")],
            rest: Rest::Drop,
        }),
        "A Claude Code setting.",
    ),
    Field::opt(
        "autoUpdatesChannel",
        Shape::Lit(&[Lit::Str("latest"), Lit::Str("stable"), Lit::Str("rc")]),
        "`latest`, `stable` or `rc`.",
    ),
    Field::opt("minimumVersion", STR, "The oldest Claude Code version to keep."),
    Field::opt("requiredMinimumVersion", STR, "A Claude Code setting."),
    Field::opt("requiredMaximumVersion", STR, "A Claude Code setting."),
    Field::opt("downloadsMirrorUrl", STR, "A Claude Code setting."),
    Field::opt("plansDirectory", STR, "Where plan files are written."),
    Field::opt(
        "tui",
        Shape::Lit(&[Lit::Str("default"), Lit::Str("fullscreen")]),
        "`default` or `fullscreen`.",
    ),
    Field::opt(
        "voice",
        Shape::Object(&Object {
            what: "the `voice` setting",
            fields: &[
                Field::opt("enabled", BOOL, ""),
                Field::opt("mode", Shape::Lit(&[Lit::Str("hold"), Lit::Str("tap")]), ""),
                Field::opt("autoSubmit", BOOL, ""),
            ],
            rest: Rest::Drop,
        }),
        "Voice input: `{enabled, mode: \"hold\"|\"tap\", autoSubmit}`.",
    ),
    Field::opt("channelsEnabled", BOOL, "A Claude Code setting."),
    Field::opt(
        "allowedChannelPlugins",
        Shape::Array(&Shape::Any),
        "A Claude Code setting.",
    ),
    Field::opt("prefersReducedMotion", BOOL, "Fewer animations."),
    Field::opt("timeFormat", Shape::Union(&[STR, STR]), "How times are shown."),
    Field::opt("timeZone", STR, "The time zone times are shown in."),
    Field::opt(
        "doneMeansMerged",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "totalTokensReminder",
        Shape::Lit(&[
            Lit::Str("off"),
            Lit::Str("infinite"),
            Lit::Str("fixed"),
            Lit::Str("countdown"),
            Lit::Str("padded-countdown"),
        ]),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "totalTokensReminderBudget",
        Shape::Num(Num {
            int: true,
            min: Bound::Excl(0.0),
            max: None,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "totalTokensReminderAfterUserTurn",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "autoMemoryEnabled",
        BOOL,
        "Let Claude keep notes across sessions (auto memory).",
    ),
    Field::opt("autoMemoryDirectory", STR, "Where auto memory is kept."),
    Field::opt("autoDreamEnabled", BOOL, "A Claude Code setting."),
    Field::opt("showThinkingSummaries", BOOL, "Show summaries of Claude's thinking."),
    Field::opt(
        "skipDangerousModePermissionPrompt",
        BOOL,
        "Skip the warning before `bypassPermissions` mode.",
    ),
    Field::opt(
        "skipWorkflowUsageWarning",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "disableAutoMode",
        Shape::Lit(&[Lit::Str("disable")]),
        "`\"disable\"` turns auto mode off.",
    ),
    Field::opt(
        "remoteTools",
        Shape::Object(&Object {
            what: "the `remoteTools` setting",
            fields: &[Field::opt("allowUnattendedServing", BOOL, "")],
            rest: Rest::Drop,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "sshConfigs",
        Shape::Array(&Shape::Object(&Object {
            what: "the `sshConfigs` setting",
            fields: &[
                Field::req("id", STR, ""),
                Field::req("name", STR, ""),
                Field::req("sshHost", STR, ""),
                Field::opt(
                    "sshPort",
                    Shape::Num(Num {
                        int: true,
                        min: Bound::None,
                        max: None,
                    }),
                    "",
                ),
                Field::opt("sshIdentityFile", STR, ""),
                Field::opt("startDirectory", STR, ""),
            ],
            rest: Rest::Drop,
        })),
        "A Claude Code setting.",
    ),
    Field::opt("sshHostCommands", Shape::Any, "A Claude Code setting."),
    Field::opt("claudeMd", STR, "An organisation setting, read from managed settings."),
    Field::opt(
        "claudeMdExcludes",
        Shape::Array(&STR),
        "Globs of `CLAUDE.md` files not to load.",
    ),
    Field::opt("pluginTrustMessage", STR, "A Claude Code setting."),
    Field::opt(
        "theme",
        Shape::Union(&[STR, STR]),
        "The colour theme (a bad value is ignored without a word).",
    ),
    Field::opt(
        "editorMode",
        STR,
        "`normal` or `vim` key bindings in the prompt (a bad value is ignored without a word).",
    ),
    Field::opt(
        "keybindingFlavor",
        Shape::Lit(&[Lit::Str("classic"), Lit::Str("readline")]),
        "`classic` or `readline` (a bad value is ignored without a word).",
    ),
    Field::opt(
        "vimInsertModeRemaps",
        Shape::Record(&Shape::Any),
        "A Claude Code setting.",
    ),
    Field::opt("verbose", BOOL, "Show full tool output."),
    Field::opt(
        "preferredNotifChannel",
        STR,
        "Where notifications go (a bad value is ignored without a word).",
    ),
    Field::opt(
        "autoCompactEnabled",
        BOOL,
        "Compact the conversation automatically when the context fills (default true).",
    ),
    Field::opt("precomputeCompactionEnabled", BOOL, "A Claude Code setting."),
    Field::opt(
        "precomputeArmTokens",
        Shape::Num(Num {
            int: true,
            min: Bound::Excl(0.0),
            max: None,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "autoCompactRaisedForLoad",
        BOOL,
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt(
        "autoCompactOfferAnswer",
        Shape::Object(&Object {
            what: "the `autoCompactOfferAnswer` setting",
            fields: &[
                Field::req("model", STR, ""),
                Field::req(
                    "choice",
                    Shape::Lit(&[Lit::Str("accept"), Lit::Str("keep"), Lit::Str("undo")]),
                    "",
                ),
                Field::req(
                    "tokens",
                    Shape::Num(Num {
                        int: true,
                        min: Bound::Excl(0.0),
                        max: None,
                    }),
                    "",
                ),
                Field::req(
                    "at",
                    Shape::Num(Num {
                        int: true,
                        min: Bound::Excl(0.0),
                        max: None,
                    }),
                    "",
                ),
            ],
            rest: Rest::Drop,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt("idleCompaction", BOOL, "Compact while the session is idle."),
    Field::opt("switchModelsOnFlag", BOOL, "A Claude Code setting."),
    Field::opt("autoContinueAtUsageLimit", BOOL, "A Claude Code setting."),
    Field::opt("autoScrollEnabled", BOOL, "Scroll to new output."),
    Field::opt("wheelScrollAccelerationEnabled", BOOL, "A Claude Code setting."),
    Field::opt(
        "fileCheckpointingEnabled",
        BOOL,
        "Keep checkpoints of edited files for `/rewind`.",
    ),
    Field::opt("showTurnDuration", BOOL, "Show how long each turn took."),
    Field::opt("showMessageTimestamps", BOOL, "Show the time of each message."),
    Field::opt(
        "terminalProgressBarEnabled",
        BOOL,
        "Show progress in the terminal's tab or title bar.",
    ),
    Field::opt("todoFeatureEnabled", BOOL, "Let Claude keep a todo list."),
    Field::opt(
        "teammateMode",
        STR,
        "How agent team members are shown (a bad value is ignored without a word).",
    ),
    Field::opt(
        "remoteControlAtStartup",
        BOOL,
        "Start Remote Control with every session.",
    ),
    Field::opt(
        "remoteControl",
        Shape::Object(&Object {
            what: "the `remoteControl` setting",
            fields: &[Field::opt("shareHostProfile", STR, "")],
            rest: Rest::Drop,
        }),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt("isolatePeerMachines", BOOL, "A Claude Code setting."),
    Field::opt(
        "daemonColdStart",
        Shape::Lit(&[Lit::Str("transient"), Lit::Str("ask")]),
        "A Claude Code setting.",
    ),
    Field::opt("crossSessionInbound", STR, "A Claude Code setting."),
    Field::opt(
        "remoteMessageReceipts",
        Shape::Lit(&[Lit::Str("on"), Lit::Str("always"), Lit::Str("off")]),
        "Internal to Claude Code, not a documented setting.",
    ),
    Field::opt("autoUploadSessions", BOOL, "Mirror sessions to claude.ai, view-only."),
    Field::opt(
        "inputNeededNotifEnabled",
        BOOL,
        "Push a mobile notification when Claude waits for you.",
    ),
    Field::opt("agentPushNotifEnabled", BOOL, "Let Claude push mobile notifications."),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_every_setting_once() {
        let Shape::Object(top) = &SETTINGS else { unreachable!() };
        let mut names: Vec<&str> = top.fields.iter().map(|f| f.name).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "a setting is listed twice");
        assert!(n >= 200, "{n}");
        for s in SILENT.iter().chain(MANAGED_ONLY) {
            let path: Vec<&str> = s.split('.').collect();
            assert!(
                !crate::analysis::shape::lookup::field_at(&SETTINGS, &path).is_empty(),
                "{s} is not a setting"
            );
        }
    }
}
