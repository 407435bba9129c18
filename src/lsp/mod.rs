//! The language server: a thin adapter from LSP to the analysis core and the workspace index.
//!
//! - [`server`]: the `LanguageServer` handlers (transport, ordering, panic safety).
//! - [`state`]: documents, the workspace index and publishing, all synchronous and testable.
//! - [`convert`]: byte spans to LSP positions in the negotiated encoding, and back.
//! - [`settings`]: `agentLsp` settings.
//! - [`transport`], [`stdio`]: the guard on incoming frames, and stdin/stdout read and written
//!   on the runtime's thread.
//!
//! stdout carries the protocol; logs go to stderr through `tracing` (`AGENT_LSP_LOG=debug`).

pub mod convert;
pub mod hover;
pub mod navigate;
mod process;
pub mod server;
pub mod settings;
pub mod state;
pub mod stdio;
pub mod transport;

pub use process::{init_logging, set_log_level, watch_parent};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tower_lsp_server::{LspService, Server};
/// Serve LSP on stdin/stdout until `exit` (status 0 after `shutdown`, 1 otherwise, as the
/// protocol asks) or until stdin closes.
/// `defaults` are the settings the client's own start from (`serve --for-agents`).
pub fn run(defaults: settings::Settings) -> i32 {
    init_logging();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return 2;
        }
    };
    let shutdown = Arc::new(AtomicBool::new(false));
    let flag = shutdown.clone();
    let received = shutdown.clone();
    runtime.block_on(async move {
        // Our own messages to stdout, serialized: the guard's replies and the diagnostics.
        let (own_tx, own_rx) = tokio::sync::mpsc::unbounded_channel();
        let publish_tx = own_tx.clone();
        let mut builder = LspService::build(move |client| {
            server::Backend::new(client, flag.clone(), publish_tx.clone(), defaults.clone())
        });
        if std::env::var_os("AGENT_LSP_TEST_HOOKS").is_some_and(|v| v == "1") {
            builder = builder.custom_method("agentLsp/debugPanic", server::Backend::debug_panic);
        }
        let (service, socket) = builder.finish();
        tracing::info!("agent-lsp {} serving on stdio", env!("CARGO_PKG_VERSION"));
        // stdin → guard → server → merge → stdout (see `transport`).
        let (server_in, guard_out) = tokio::io::duplex(1 << 16);
        let (merge_in, server_out) = tokio::io::duplex(1 << 16);
        let input = tokio::spawn(transport::guard_input(stdio::input(), guard_out, own_tx, received));
        let output = tokio::spawn(transport::merge_output(merge_in, stdio::output(), own_rx));
        Server::new(server_in, server_out, socket).serve(service).await;
        input.abort();
        // Let the last replies (the `shutdown` answer) reach stdout.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), output).await;
    });
    // The blocking stdin read may still be waiting for input: do not wait for it.
    runtime.shutdown_background();
    if shutdown.load(Ordering::SeqCst) { 0 } else { 1 }
}
