//! Zuno's command files (`.zuno/{command,commands}/**/*.md`, spec `zuno.md` §4.2): the keys it
//! reads (opencode's format) and how it reads them (core-schema YAML; a value of the wrong type
//! is dropped, not fatal). The reading itself is the shared template reading
//! ([`crate::analysis::command::analyze`]).

use crate::analysis::command::Template;

/// The frontmatter keys Zuno reads in a command file, with their documentation.
pub const KEYS: &[(&str, &str)] = &[
    ("description", "Shown in the command list."),
    (
        "agent",
        "The agent that runs the command (nested agents by path, `team/reviewer`).",
    ),
    ("model", "`provider/model` for this command (before the agent's model)."),
    ("variant", "The model variant."),
    (
        "subtask",
        "`true`: run as a subagent task; `false`: inline even for a subagent.",
    ),
];

/// How Zuno reads a command file.
pub const TEMPLATE: Template<'static> = Template {
    keys: KEYS,
    refuses: false,
    strict_yaml: false,
    other_keys: None,
};
