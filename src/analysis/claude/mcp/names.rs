//! MCP server names across files (`unknown-mcp-server`), pure: the caller gives every
//! `.mcp.json` with its folder, and what else declares servers.
//!
//! - [`check_approvals`]: `enabledMcpjsonServers` and `disabledMcpjsonServers` of a project's
//!   `.claude/settings.json` or `settings.local.json` name servers of the project's `.mcp.json`
//!   files (the project's, those of the folders above it, and, to stay on the safe side, those of
//!   the folders below it). Claude Code 2.1.332 approves a server only by its exact name
//!   (`"a_b"` does not approve `"a.b"`: it logs "approvals need the exact name"), and rejects one
//!   whose name equals the entry once both are written as tool prefixes; a rejection wins over an
//!   approval. `enableAllProjectMcpServers: true` with no server to approve is reported too.
//! - [`check_refs`]: a `mcp__<server>__<tool>` entry of an agent's, skill's or command's tool
//!   lists that names a server nothing declares: an info, and only when every place a server
//!   may come from is known (the caller passes [`UserServers`] only when it read the user's
//!   `~/.claude.json` and no organization config exists). Plugin servers (`mcp__plugin_...`),
//!   claude.ai connectors and Claude Code's own servers are never reported. The workspace runs
//!   it on the tool lists of project agents only (user and plugin agents run in any project),
//!   and only when it read the user's `~/.claude.json` (or there is none), `CLAUDE_CONFIG_DIR`
//!   is unset and no organization's `managed-mcp.json` exists.
//!
//! Checked with Claude Code 2.1.332 (`claude mcp list`, the folder trusted in `~/.claude.json`):
//! `enabledMcpjsonServers: ["a_b"]` leaves `a.b` pending, `disabledMcpjsonServers: ["a_b"]` hides
//! it, and a server in both lists is hidden. Before the folder is trusted no approval counts.

use std::path::Path;

use super::McpFile;
use super::schema::tool_prefix;
use crate::analysis::diagnostic::{Diagnostic, Effect, Severity};
use crate::analysis::rules::Code;
use crate::analysis::suggest::{closest, did_you_mean};
use crate::analysis::syntax::{Node, Value};
use crate::analysis::text::Span;

/// One `.mcp.json` and its folder.
#[derive(Clone, Copy, Debug)]
pub struct McpView<'a> {
    pub dir: &'a Path,
    pub file: &'a McpFile,
}

/// The `.mcp.json` files Claude Code may read for a project: its own, those above it, and those
/// below it (Claude Code started in a sub-folder reads them too). `None` when one of them does
/// not parse (its servers are unknown).
fn visible<'a>(project: &Path, files: &[McpView<'a>]) -> Option<Vec<McpView<'a>>> {
    let seen: Vec<McpView> = files
        .iter()
        .filter(|v| project.starts_with(v.dir) || v.dir.starts_with(project))
        .copied()
        .collect();
    seen.iter().all(|v| v.file.read).then_some(seen)
}

fn server_names<'a>(files: &[McpView<'a>]) -> Vec<&'a str> {
    let mut out: Vec<&str> = files
        .iter()
        .flat_map(|v| v.file.servers.iter().map(|s| s.name.as_str()))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The approval lists of one settings file (its parsed root) of the project at `project`.
pub fn check_approvals(root: Option<&Node>, project: &Path, files: &[McpView]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(map) = root.and_then(Node::as_map) else {
        return out;
    };
    let Some(seen) = visible(project, files) else {
        return out;
    };
    let names = server_names(&seen);
    let strings = |key: &str| -> Vec<(&str, Span)> {
        match map.value(key).map(|n| &n.value) {
            Some(Value::Seq(items)) => items.iter().filter_map(|n| n.as_str().map(|s| (s, n.span))).collect(),
            _ => Vec::new(),
        }
    };
    let enabled = strings("enabledMcpjsonServers");
    let disabled = strings("disabledMcpjsonServers");
    let none_here = if names.is_empty() {
        if seen.is_empty() {
            "there is no `.mcp.json` in this project".to_string()
        } else {
            "its `.mcp.json` declares no server".to_string()
        }
    } else {
        format!(
            "its `.mcp.json` declares {}",
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        )
    };
    let rejects = |entry: &str, server: &str| {
        entry == server
            || (!entry.starts_with("plugin:")
                && !server.starts_with("plugin:")
                && tool_prefix(entry) == tool_prefix(server))
    };
    let warn = |span: Span, message: String| {
        Diagnostic::new(Code::UnknownMcpServer, span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::RuleNeverApplies)
    };
    for (entry, span) in &enabled {
        if names.contains(entry) {
            if let Some((_, at)) = disabled.iter().find(|(d, _)| rejects(d, entry)) {
                out.push(
                    warn(
                        *span,
                        format!("`{entry}` is also in `disabledMcpjsonServers`, which Claude Code checks first: the server stays rejected"),
                    )
                    .with_related(crate::analysis::diagnostic::Location::Here(*at), "rejected here"),
                );
            }
            continue;
        }
        let same = names.iter().find(|n| tool_prefix(n) == tool_prefix(entry));
        let d = match same {
            Some(n) => warn(
                *span,
                format!(
                    "`{entry}` is not the name of a server of `.mcp.json`: Claude Code approves a server only by its exact name (it logs \"approvals need the exact name\"), so `{n}` stays pending. Did you mean `{n}`?"
                ),
            )
            .with_suggestion(*span, format!("\"{n}\"")),
            None => {
                let near = closest(entry, names.iter().copied());
                let d = warn(
                    *span,
                    format!(
                        "`enabledMcpjsonServers` names `{entry}`, but {none_here}: this approval approves nothing.{}",
                        did_you_mean(near)
                    ),
                );
                match near {
                    Some(n) => d.with_suggestion(*span, format!("\"{n}\"")),
                    None => d,
                }
            }
        };
        out.push(d);
    }
    for (entry, span) in &disabled {
        if names.iter().any(|n| rejects(entry, n)) {
            continue;
        }
        let near = closest(entry, names.iter().copied());
        let d = warn(
            *span,
            format!(
                "`disabledMcpjsonServers` names `{entry}`, but {none_here}: this rejection rejects nothing.{}",
                did_you_mean(near)
            ),
        );
        out.push(match near {
            Some(n) => d.with_suggestion(*span, format!("\"{n}\"")),
            None => d,
        });
    }
    if names.is_empty()
        && let Some(node) = map.value("enableAllProjectMcpServers")
        && node.as_bool() == Some(true)
    {
        out.push(
            Diagnostic::new(
                Code::UnknownMcpServer,
                node.span,
                format!("`enableAllProjectMcpServers` approves the servers of `.mcp.json`, but {none_here}: it approves nothing"),
            )
            .with_severity(Severity::Info)
            .with_effect(Effect::RuleNeverApplies),
        );
    }
    out
}

/// The servers of the user's own configuration (`~/.claude.json`): user scope, and local scope
/// by project folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserServers {
    pub user: Vec<String>,
    pub local: Vec<(std::path::PathBuf, Vec<String>)>,
}

impl UserServers {
    /// Read `~/.claude.json` (strict JSON): `mcpServers` and `projects.<folder>.mcpServers`.
    /// `None` when it is not JSON of that shape.
    pub fn parse(text: &str) -> Option<UserServers> {
        let v: serde_json::Value = serde_json::from_str(text).ok()?;
        let obj = v.as_object()?;
        let keys = |v: Option<&serde_json::Value>| -> Option<Vec<String>> {
            match v {
                None | Some(serde_json::Value::Null) => Some(Vec::new()),
                Some(serde_json::Value::Object(m)) => Some(m.keys().cloned().collect()),
                Some(_) => None,
            }
        };
        let user = keys(obj.get("mcpServers"))?;
        let mut local = Vec::new();
        if let Some(projects) = obj.get("projects") {
            let projects = projects.as_object()?;
            for (dir, p) in projects {
                let names = keys(p.as_object().and_then(|p| p.get("mcpServers")))?;
                if !names.is_empty() {
                    local.push((std::path::PathBuf::from(dir), names));
                }
            }
        }
        Some(UserServers { user, local })
    }
}

/// One `mcp__...` entry of a tool list.
#[derive(Clone, Copy, Debug)]
pub struct ToolRef<'a> {
    pub text: &'a str,
    pub span: Span,
    /// The span covers exactly `text`.
    pub exact: bool,
}

/// The server names an `mcp__` entry may mean (a server name may hold `__`): every cut before a
/// `__`, and the whole rest. Empty for an entry that is no `mcp__` entry or holds a wildcard.
fn servers_meant(entry: &str) -> Vec<&str> {
    let Some(rest) = entry.strip_prefix("mcp__") else {
        return Vec::new();
    };
    if rest.is_empty() || rest.contains('*') {
        return Vec::new();
    }
    let mut out: Vec<&str> = rest
        .match_indices("__")
        .map(|(i, _)| &rest[..i])
        .filter(|s| !s.is_empty())
        .collect();
    out.push(rest);
    out
}

/// A server prefix Claude Code or a plugin may provide without any file of the project: plugin
/// servers (`plugin_<plugin>_<server>`), claude.ai connectors, and Claude Code's own servers
/// (the IDE, the browser and desktop integrations, ...).
fn provided_elsewhere(prefix: &str) -> bool {
    let norm: String = prefix
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    const OWN: &[&str] = &[
        "ide",
        "workspace",
        "terminal",
        "office",
        "visualize",
        "window_halo",
        "dev_debug",
        "ccd_session",
        "memory",
        "widgets",
        "hearthbot",
        "ccr_email",
        "webagent",
        "claude_code_remote",
        "claude_device",
        "computer_use",
        "remote_browser",
        "claude_pages",
        "claude_docs",
        "claude_artifacts",
        "slack_sign_in__claude_code_tag_",
    ];
    const PREFIXES: &[&str] = &[
        "plugin",
        "claude_ai",
        "claudeai",
        "claude_in_chrome",
        "claude_browser",
        "claude_preview",
        "claude_code_ios_simulator",
        "claude_code_android_emulator",
        "computer_use",
        "framebuffer",
        "plugins",
        "skills",
        "mcp_registry",
        "scheduled_tasks",
        "cowork",
        "session_info",
        "dispatch",
        "remote_devices",
        "ccd_directory",
        "org_connector",
        "orgconnector",
        "client_",
    ];
    OWN.contains(&norm.as_str()) || PREFIXES.iter().any(|p| norm.starts_with(p))
}

/// `mcp__<server>...` entries (of files of the project at `project`) that name no server
/// declared by `.mcp.json` (visible from the project), the user's configuration, or an agent's
/// own `mcpServers` (`inline`, any agent of the workspace): infos. Nothing when a visible
/// `.mcp.json` does not parse.
pub fn check_refs(
    refs: &[ToolRef],
    project: &Path,
    files: &[McpView],
    user: &UserServers,
    inline: &[&str],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(seen) = visible(project, files) else {
        return out;
    };
    let mut declared: Vec<&str> = server_names(&seen);
    declared.extend(user.user.iter().map(String::as_str));
    for (dir, names) in &user.local {
        if project.starts_with(dir) || dir.starts_with(project) {
            declared.extend(names.iter().map(String::as_str));
        }
    }
    declared.extend(inline.iter().copied());
    let prefixes: Vec<String> = declared.iter().map(|n| tool_prefix(n)).collect();
    for r in refs {
        let meant = servers_meant(r.text);
        if meant.is_empty()
            || meant
                .iter()
                .any(|m| provided_elsewhere(m) || prefixes.iter().any(|p| p == m))
        {
            continue;
        }
        // The server part as a tool list writes it: up to the first `__`.
        let server = meant[0];
        let near = closest(server, prefixes.iter().map(String::as_str));
        let mut d = Diagnostic::new(
            Code::UnknownMcpServer,
            r.span,
            format!(
                "no MCP server `{server}` is declared for this project (its `.mcp.json` or those above it, `~/.claude.json`, an agent's `mcpServers`): Claude Code has no tool `{}`, so this entry gives nothing (unless a server is added with `--mcp-config`).{}",
                r.text,
                did_you_mean(near)
            ),
        )
        .with_severity(Severity::Info)
        .with_effect(Effect::ValueIgnored);
        if let Some(n) = near
            && r.exact
        {
            let fixed = format!("mcp__{n}{}", &r.text["mcp__".len() + server.len()..]);
            d = d.with_suggestion(r.span, fixed);
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests;
