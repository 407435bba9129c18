//! The Claude Code dialect (release 2.1.332): subagent files `.claude/agents/**/*.md`, user
//! agents in `~/.claude/agents/`, and plugin agents (`agents/` of a plugin).
//!
//! Facts: `shared/spec/claude-code.md`, above all §7 (confirmed by running the released loader).
//!
//! - [`read`]: how Claude Code finds and parses the frontmatter (§7.1-7.3): the block that ends
//!   at the first later `---`, the strict YAML 1.2 pass, the lenient retry.
//! - [`schema`]: what Claude Code knows, as data (keys, values, tools, model aliases, built-in
//!   agent types).
//! - [`tools`]: how `tools`/`disallowedTools`/`skills` lists are split, and what an entry is.
//! - [`agent`]: the checks of one agent file (§7.4-7.6, §7.9) and the agent Claude Code builds.
//! - [`project`]: the checks across files (duplicate names, `Agent(name)` references) and which
//!   file wins a name.
//! - [`card`]: the agent as Claude Code will run it, for hover and `explain`.
//! - [`complete`]: completion in a Claude agent's frontmatter.
//! - [`prompt`]: commands and skills as Claude Code shows them (description, argument hint) and
//!   expands them (`$ARGUMENTS`, `$0`, `$name`); the body's data types and links are shared
//!   ([`crate::analysis::prompt`]).
//! - [`command`]: Claude Code's command files (its keys, its reading, tool lists, card,
//!   completion).
//! - [`skill`]: Claude Code's skill rules (its keys and values, its reading of the body).
//! - [`settings`]: the permission rules of `.claude/settings.json` and `settings.local.json`.
//! - [`memory`]: the memory files (`CLAUDE.md`, `CLAUDE.local.md`, `.claude/rules/`) and their
//!   `@path` imports.
//! - [`mcp`]: a project's `.mcp.json` (its MCP servers), and the names of MCP servers across
//!   files (settings approvals, `mcp__<server>__<tool>` entries).
//! - [`plugin`]: the plugin manifests (`plugin.json`, `marketplace.json`) and how a plugin's
//!   commands and skills are listed.

pub mod agent;
pub mod agents;
pub mod card;
pub mod command;
pub mod complete;
pub mod dialect;
pub mod discover;
pub mod disk;
pub mod explain;
mod facts;
pub mod hooks;
pub mod hover;
pub mod instructions;
mod kind;
pub mod mcp;
pub mod memory;
pub mod output_style;
mod own;
pub mod place;
pub mod plugin;
pub mod policy;
pub mod project;
pub mod prompt;
pub mod read;
pub mod rules;
pub mod schema;
pub mod setup;
pub mod settings;
pub mod settings_schema;
pub mod skill;
pub mod tools;
pub mod views;

use super::diagnostic::Diagnostic;

pub use agent::Agent;
pub use facts::{AgentFacts, Facts};
pub use kind::{AgentFile, FileKind, MAX_BYTES, Source};

/// Analyse one agent file on its own: the diagnostics and the agent Claude Code builds from it.
pub fn analyze(kind: &AgentFile, text: &str) -> (Vec<Diagnostic>, Agent, read::Reading) {
    let reading = read::read(text);
    let (mut diags, agent) = agent::check(kind, text, &reading);
    diags.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (diags, agent, reading)
}

pub(crate) use super::text::first_line;
