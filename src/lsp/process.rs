//! The server's process: logging to stderr with `tracing` (stdout belongs to the protocol; the
//! level from `AGENT_LSP_LOG` or the `logLevel` setting), and exiting with the editor.

use std::sync::OnceLock;

use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Registry, reload};

static LOG_HANDLE: OnceLock<reload::Handle<LevelFilter, Registry>> = OnceLock::new();

fn parse_level(s: &str) -> Option<LevelFilter> {
    Some(match s.trim().to_ascii_lowercase().as_str() {
        "off" => LevelFilter::OFF,
        "error" => LevelFilter::ERROR,
        "warn" | "warning" => LevelFilter::WARN,
        "info" => LevelFilter::INFO,
        "debug" => LevelFilter::DEBUG,
        "trace" => LevelFilter::TRACE,
        _ => return None,
    })
}

/// Log to stderr (`AGENT_LSP_LOG` sets the level; info by default); the MCP server's too.
pub fn init_logging() {
    let level = std::env::var("AGENT_LSP_LOG")
        .ok()
        .and_then(|s| parse_level(&s))
        .unwrap_or(LevelFilter::INFO);
    let (filter, handle) = reload::Layer::new(level);
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false);
    if tracing_subscriber::registry().with(filter).with(fmt).try_init().is_ok() {
        let _ = LOG_HANDLE.set(handle);
    }
}

/// Change the log level at run time (the `logLevel` setting); `AGENT_LSP_LOG` wins if set.
pub fn set_log_level(level: Option<&str>) {
    if std::env::var_os("AGENT_LSP_LOG").is_some() {
        return;
    }
    if let (Some(handle), Some(level)) = (LOG_HANDLE.get(), level.and_then(parse_level)) {
        let _ = handle.modify(|f| *f = level);
    }
}

/// Exit when the editor process that started us is gone (LSP `processId`).
pub fn watch_parent(pid: u32) {
    #[cfg(target_os = "linux")]
    {
        let proc_dir = std::path::PathBuf::from(format!("/proc/{pid}"));
        if !proc_dir.exists() {
            return;
        }
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(3)).await;
                if !proc_dir.exists() {
                    tracing::info!("client process {pid} is gone; exiting");
                    std::process::exit(1);
                }
            }
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pid;
}
