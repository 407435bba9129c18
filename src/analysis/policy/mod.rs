//! Team policies (`[[policy]]` in `agent-lsp.toml`): what no agent may be allowed to do, proved
//! over every input.
//!
//! A policy says "for permission P, every input matching one of these patterns gets at most this
//! decision".
//!
//! - [`spec`]: what a policy says, read from the project file with the span of every value;
//! - [`solve`]: the proof: which rules of a ruleset decide some input of a policy's patterns,
//!   each with a shortest such input (wildcard patterns are regular languages), over every input
//!   rather than a sample;
//! - [`judge`]: a policy against one agent's ruleset, as the dialects hand it over.
//!
//! The dialects turn an agent into a [`judge::Ruleset`] (`opencode/policy.rs`,
//! `claude/policy.rs`, `zuno/policy.rs`); the workspace runs the policies over every agent and
//! places the findings (`workspace/policy_check.rs`).

pub mod judge;
pub mod solve;
pub mod spec;
