//! Logging to stderr with `tracing` (stdout belongs to the protocol); the level from
//! `AGENT_LSP_LOG` or the `logLevel` setting.

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

pub(super) fn init_logging() {
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
