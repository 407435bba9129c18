//! agent-lsp: a language server and checker for AI-agent definition files.
//!
//! - [`analysis`]: the pure core (text in, spanned syntax and diagnostics out; no I/O).
//! - [`workspace`]: finds and reads the files opencode would load, and runs the core on them.
//! - [`lsp`]: `agent-lsp serve`, the language server (a thin adapter on the same core).
//! - [`cli`]: `agent-lsp check` and its report formats.
//! - [`mcp`]: `agent-lsp mcp`, the Model Context Protocol server (read-only tools for agents).

pub mod analysis;
pub mod cli;
pub mod lsp;
pub mod mcp;
pub mod workspace;
