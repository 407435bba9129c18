//! opencode's command files (`{command,commands}/**/*.md`, spec `opencode.md` §11): the keys it
//! reads and how it reads them (strict YAML 1.2; a file that breaks its schema refuses the
//! configuration, §11.4). The reading itself is the shared template reading
//! ([`crate::analysis::command::analyze`]).

use crate::analysis::command::Template;

/// The frontmatter keys opencode reads in a command file, with their documentation.
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

/// How opencode reads a command file.
pub const TEMPLATE: Template<'static> = Template {
    keys: KEYS,
    refuses: true,
    strict_yaml: true,
    other_keys: None,
};
