//! The opencode (V1, 1.18) dialect.
//!
//! - [`schema`]: what opencode knows, as data (fields, keys, colors, built-in agents).
//! - [`agent`]: checks of one agent's fields, shared by JSON entries and Markdown frontmatter.
//! - [`permission`]: checks of a permission block, and opencode's wildcard matching.
//! - [`config`]: checks of `opencode.json(c)`: every section, through [`config_schema`] (the
//!   whole config as data) and the agent, permission and command rules.
//! - [`markdown`]: checks of a Markdown agent file (frontmatter and body).
//! - [`project`]: the merged agent registry and the checks that need it (`default_agent`,
//!   duplicate agents, command agents).
//! - [`command`]: the keys of a command file and how opencode reads one (for the shared
//!   template reading).
//! - [`skill`]: opencode's skill rules (for the shared skill checks).
//! - [`tui`]: checks of `tui.json(c)`, the terminal interface's settings, through
//!   [`tui_schema`] (the file as data, with the keybinds opencode knows).
//!
//! [`analyze`] checks one file; [`project::check`] checks a set of files that opencode would
//! load together (a "view"), in precedence order.

pub mod agent;
pub mod agents;
pub mod card;
pub mod command;
pub mod complete;
pub mod config;
pub mod config_schema;
mod ctx;
mod decl;
pub mod dialect;
pub mod discover;
pub mod disk;
pub mod effective;
pub mod explain;
pub mod hover;
pub mod instructions;
pub mod markdown;
mod overridden;
mod own;
pub mod permission;
pub mod place;
pub mod policy;
pub mod policy_parts;
pub mod project;
pub mod schema;
pub mod setup;
pub mod sections;
pub mod skill;
pub mod substitute;
pub mod theme;
pub mod tui;
pub mod tui_schema;
pub mod user;
pub mod views;

pub use decl::{
    AgentDecl, AgentRef, Analysis, DeclOrigin, Facts, FileKind, RefKind, agent_name_from_relative_path, prompt_hash,
};

/// Analyse one file on its own.
pub fn analyze(kind: &FileKind, text: &str) -> Analysis {
    let mut analysis = match kind {
        FileKind::Config => config::analyze(text),
        FileKind::Agent { name } => markdown::analyze(text, name, DeclOrigin::Markdown),
        FileKind::Mode { name } => markdown::analyze(text, name, DeclOrigin::ModeFile),
        FileKind::Tui => tui::analyze(text),
        FileKind::Theme => {
            let (diagnostics, parsed) = theme::analyze(text);
            Analysis {
                parsed,
                diagnostics,
                facts: Facts::default(),
            }
        }
    };
    analysis.diagnostics.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    analysis
}

/// Apply every safe fix of a file's own diagnostics, repeatedly (a fix can reveal another), and
/// return the new text with the titles of the fixes applied. Overlapping fixes wait for the
/// next round.
pub fn fix_all(kind: &FileKind, text: &str) -> (String, Vec<String>) {
    crate::analysis::fix::fix_all_with(text, &|t| analyze(kind, t).diagnostics)
}

#[cfg(test)]
mod tests {
    use super::agent_name_from_relative_path as name;

    #[test]
    fn names_from_paths() {
        assert_eq!(name("agents/team/reviewer.md"), "team/reviewer");
        assert_eq!(name("agent/foo.bar.md"), "foo.bar");
        assert_eq!(name("mode\\debug.md"), "debug");
        assert_eq!(name("agents/neo.agent.md"), "neo.agent");
    }
}
