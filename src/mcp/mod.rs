//! `agent-lsp mcp`: a Model Context Protocol server on stdin/stdout, so that coding agents can
//! ask agent-lsp what the language server and `check`/`explain`/`rules` tell a person.
//!
//! - [`tools`]: the tools (`check`, `explain`, `decide`, `who_may`, `rules`), their schemas, and
//!   their answers as JSON, on the same workspace and renderers as the command line.
//! - [`transport`]: newline-delimited JSON-RPC on stdin/stdout, with the errors JSON-RPC asks
//!   for (a line that is not JSON, an unknown method).
//!
//! Read-only: it reads the workspace from disk on every call and writes nothing. stdout carries
//! the protocol; logs go to stderr through `tracing` (`AGENT_LSP_LOG=debug`).

pub mod tools;
pub mod transport;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ErrorData, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerInfo, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};

use crate::workspace::Options;

/// What the server tells the model in the `initialize` result.
pub const INSTRUCTIONS: &str = "agent-lsp knows how {dialects} read agent definition files (Markdown agents with YAML frontmatter, JSON and JSONC configs, settings, hooks and MCP files). Before editing an agent file, call `explain` to see the agent as its runtime builds it and `decide` (or `who_may`) to learn which rule allows, asks or denies a permission and where it is written. After writing one, call `check` and fix what it reports; `rules` explains a diagnostic's code.";

/// The MCP server: the tools on one workspace root.
struct Server {
    ctx: Arc<tools::Context>,
}

impl Server {
    /// Run one tool; a panic becomes a tool error rather than a dead server.
    fn answer(&self, name: &str, args: &serde_json::Map<String, serde_json::Value>) -> CallToolResult {
        let ctx = self.ctx.clone();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tools::call(&ctx, name, args)))
            .unwrap_or_else(|_| {
                Err(format!(
                    "internal error: agent-lsp failed on this `{name}` call (a bug; the server goes on)"
                ))
            });
        match result {
            Ok(value) => {
                let text = serde_json::to_string_pretty(&value).unwrap_or_default();
                let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
                r.structured_content = Some(value);
                r
            }
            Err(why) => {
                tracing::debug!("tool {name}: {why}");
                CallToolResult::error(vec![ContentBlock::text(why)])
            }
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("agent-lsp", env!("CARGO_PKG_VERSION")))
            .with_instructions(tools::described(INSTRUCTIONS))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = tools::TOOLS
            .iter()
            .map(|t| {
                Tool::new(t.name, t.description(), tools::input_schema(t)).with_annotations(
                    ToolAnnotations::new()
                        .read_only(true)
                        .destructive(false)
                        .idempotent(true)
                        .open_world(false),
                )
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        tracing::debug!("tools/call {} {:?}", request.name, args);
        Ok(self.answer(&request.name, &args))
    }
}

/// `agent-lsp mcp`: serve until stdin closes (the caller has checked `--global-dir`). Returns
/// the exit status.
pub fn run(root: PathBuf, no_global: bool, global_dir: Option<PathBuf>) -> i32 {
    crate::lsp::init_logging();
    let root = match tools::root(&root) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("agent-lsp: error: {e}");
            return 2;
        }
    };
    // Paths in answers are relative to the current directory: make it the root.
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("agent-lsp: error: --root {}: {e}", root.display());
        return 2;
    }
    let server = Server {
        ctx: Arc::new(tools::Context {
            root,
            options: Options::from_env(no_global, global_dir),
        }),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return 2;
        }
    };
    runtime.block_on(async move {
        tracing::info!(
            "agent-lsp {} serving MCP on stdio for {}",
            env!("CARGO_PKG_VERSION"),
            server.ctx.root.display()
        );
        let transport = transport::Lines::new(crate::lsp::stdio::input(), crate::lsp::stdio::output());
        match server.serve(transport).await {
            Ok(running) => match running.waiting().await {
                Ok(reason) => {
                    tracing::info!("MCP session ended: {reason:?}");
                    0
                }
                Err(e) => {
                    tracing::error!("MCP session failed: {e}");
                    1
                }
            },
            Err(e) => {
                tracing::error!("MCP initialization failed: {e}");
                1
            }
        }
    })
}
