//! What Claude Code reads across files, from the project the workspace holds (a [`Host`]): its
//! agent files, its settings files and their rules, its `.mcp.json` files and the MCP servers of
//! its plugins, its skills. The cross-file checks, completion, hover and `explain` start here.

use std::path::Path;

use super::mcp::names::{McpView, UserServers};
use super::place::{Place, dir_at, place};
use super::plugin::servers_file::ServersFile;
use super::policy::SettingsRule;
use super::project::{ClaudeFile, registry};
use super::settings::{List, PermissionRule, Settings, SettingsFile};
use crate::analysis::host::{Host, Role};
use crate::analysis::policy::solve::Action;
use crate::analysis::provenance::Source;
use crate::analysis::{Diagnostic, Dialect, FileKind, Span};

/// A settings file Claude Code voids: the cause (its place and words) and the rules it loses.
pub type VoidedRules<'h> = (Source, String, Vec<SettingsRule<'h>>);

/// Every live Claude Code agent file, for the cross-file checks and resolution.
pub fn files(host: &dyn Host) -> Vec<ClaudeFile<'_>> {
    host.files()
        .filter_map(|f| {
            let (Some(kind), Some(dir), Some(c)) = (f.kind.claude(), dir_at(&f, Place::Agent), f.analysis.claude())
            else {
                return None;
            };
            Some(ClaudeFile {
                file: f.id,
                path: f.path,
                kind,
                owner: dir,
                agent: &c.agent,
            })
        })
        .collect()
}

/// The Claude Code settings files that apply in `project_dir`, for a policy engine to combine
/// with an agent: the user's `~/.claude/settings.json` when it is loaded, then
/// `.claude/settings.json`, then `.claude/settings.local.json` (the later wins on
/// `defaultMode`; rules of every list apply), each with its file id. A file Claude Code applies
/// nothing of (a refused value, a broken guard hook) is left out.
pub fn settings<'h>(host: &'h dyn Host, project_dir: &Path) -> Vec<(usize, &'h Settings)> {
    let mut out: Vec<(SettingsFile, usize, &Settings)> = host
        .files()
        .filter_map(
            |f| match (f.kind.settings(), dir_at(&f, Place::Settings), f.analysis.settings()) {
                // A file Claude Code voids contributes nothing.
                (_, _, Some(s)) if s.voided.is_some() => None,
                (Some(k), Some(dir), Some(s)) if dir == project_dir || k == SettingsFile::User => Some((k, f.id, s)),
                _ => None,
            },
        )
        .collect();
    out.sort_by_key(|(k, id, _)| (*k, *id));
    out.into_iter().map(|(_, id, s)| (id, s)).collect()
}

/// The settings files of project `dir` (and the user's) that Claude Code voids, each with the
/// rules it loses.
pub fn voided_rules<'h>(host: &'h dyn Host, dir: &Path) -> Vec<VoidedRules<'h>> {
    host.files()
        .filter_map(
            |f| match (f.kind.settings(), dir_at(&f, Place::Settings), f.analysis.settings()) {
                (Some(k), Some(d), Some(s)) if d == dir || k == SettingsFile::User => {
                    let v = s.voided.as_ref()?;
                    Some((
                        Source::File {
                            file: f.id,
                            span: v.span,
                        },
                        v.why.clone(),
                        s.rules.iter().map(|r| settings_rule(f.id, r)).collect(),
                    ))
                }
                _ => None,
            },
        )
        .collect()
}

/// The permission rules of the Claude Code settings files of project `dir`, in file order
/// (`settings.json`, then `settings.local.json`), and the `defaultMode` that applies, with
/// where it is written (the local file wins).
pub fn permission_rules<'h>(host: &'h dyn Host, dir: &Path) -> (Vec<SettingsRule<'h>>, Option<(String, Source)>) {
    let mut rules = Vec::new();
    let mut mode = None;
    for (id, s) in settings(host, dir) {
        rules.extend(s.rules.iter().map(|r| settings_rule(id, r)));
        if let Some((m, span)) = &s.default_mode {
            mode = Some((m.clone(), Source::File { file: id, span: *span }));
        }
    }
    (rules, mode)
}

/// One rule of a settings file as the policy engine reads it.
pub fn settings_rule(id: usize, r: &PermissionRule) -> SettingsRule<'_> {
    SettingsRule {
        action: match r.list {
            List::Allow => Action::Allow,
            List::Ask => Action::Ask,
            List::Deny => Action::Deny,
        },
        text: &r.text,
        source: Source::File { file: id, span: r.span },
    }
}

/// The Claude Code agents a permission rule of the settings file `id` applies to: the agents
/// of its project (by registered name) whose tools include the rule's tool.
pub fn agents_under_rule(host: &dyn Host, id: usize, rule: &PermissionRule) -> Vec<String> {
    let Some(dir) = host.file(id).and_then(|f| dir_at(&f, Place::Settings)) else {
        return Vec::new();
    };
    // `Task` is the old name of `Agent`; a tool-name glob is not resolved (every agent).
    let tool = if rule.tool == "Task" {
        "Agent"
    } else {
        rule.tool.as_str()
    };
    let files = files(host);
    registry(&files, dir)
        .into_iter()
        .filter(|(_, f)| f.agent.loaded())
        .filter(|(_, f)| tool.contains('*') || super::card::tool_allowed(f.agent, tool))
        .map(|(name, _)| name)
        .collect()
}

/// The directory Claude Code runs in for a Claude agent file: its project (the home directory
/// for user agents, the plugin root for plugin agents).
pub fn dir_of_file(host: &dyn Host, id: usize) -> Option<&Path> {
    dir_at(&host.file(id)?, Place::Agent)
}

/// The `.mcp.json` files of the workspace, each with its folder.
pub fn mcp_files(host: &dyn Host) -> Vec<McpView<'_>> {
    host.files()
        .filter_map(|f| match (dir_at(&f, Place::Mcp), f.analysis.mcp()) {
            (Some(dir), Some(file)) => Some(McpView { dir, file }),
            _ => None,
        })
        .collect()
}

/// `unknown-mcp-server` on the `enabledMcpjsonServers` and `disabledMcpjsonServers` entries of
/// the project settings files that name no server of the `.mcp.json` files Claude Code reads
/// for their project.
pub fn mcp_approvals(host: &dyn Host) -> Vec<(usize, Diagnostic)> {
    let views = mcp_files(host);
    let mut out = Vec::new();
    for f in host.files() {
        let (Some(dir), Some(k)) = (dir_at(&f, Place::Settings), f.kind.settings()) else {
            continue;
        };
        if k == SettingsFile::User {
            continue;
        }
        let root = f.analysis.parsed.root.as_ref();
        out.extend(
            super::mcp::names::check_approvals(root, dir, &views)
                .into_iter()
                .map(|d| (f.id, d)),
        );
    }
    out
}

/// The MCP servers of the Claude Code plugins of the workspace (their `.mcp.json` and the files
/// their manifest names), as Claude Code names them: `plugin:<plugin>:<server>`.
pub fn plugin_mcp_servers(host: &dyn Host) -> Vec<String> {
    let mut out = Vec::new();
    for f in host.files() {
        let (Some(ServersFile::Mcp), Some(dir), Some(mcp)) =
            (f.kind.plugin_servers(), dir_at(&f, Place::Plugin), f.analysis.mcp())
        else {
            continue;
        };
        // The plugin's name: its manifest's, else its folder's.
        let manifest = dir.join(".claude-plugin").join("plugin.json");
        let plugin = host
            .id_of(&manifest)
            .and_then(|id| host.file(id)?.analysis.manifest()?.name.clone())
            .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        for s in mcp.servers.iter().filter(|s| s.skip.is_none()) {
            out.push(format!("plugin:{plugin}:{}", s.name));
        }
    }
    out
}

/// The forked skills Claude Code loads that name an `agent`: (file, its project, the agent,
/// where it is written).
pub fn skill_agents(host: &dyn Host) -> Vec<(usize, &Path, &str, Span)> {
    let mut out = Vec::new();
    for f in host.files() {
        let (Role::Skill { dir }, FileKind::Skill(kind)) = (f.role, f.kind) else {
            continue;
        };
        if !kind.loaders.contains(&Dialect::Claude) {
            continue;
        }
        let Some(map) = f.analysis.parsed.root.as_ref().and_then(|r| r.as_map()) else {
            continue;
        };
        if map.value("context").and_then(|c| c.as_str()) != Some("fork") {
            continue;
        }
        if let Some(agent) = map.value("agent")
            && let Some(name) = agent.as_str()
        {
            out.push((f.id, dir.as_path(), name, agent.span));
        }
    }
    out
}

/// The skills Claude Code finds for the project in `owner`, by the name an agent's `skills`
/// uses (the folder): the project's `.claude/skills/<name>/` and the user's; and whether the
/// project has skills of its own.
pub fn skills<'h>(host: &'h dyn Host, owner: &Path) -> (Vec<&'h str>, bool) {
    let mut names: Vec<&str> = Vec::new();
    for f in host.files() {
        if let (Role::Skill { dir }, FileKind::Skill(kind)) = (f.role, f.kind)
            && dir == owner
            && kind.loaders.contains(&Dialect::Claude)
        {
            names.push(kind.folder.as_str());
        }
    }
    let own = !names.is_empty();
    names.extend(host.user_skill_names(Dialect::Claude).iter().map(String::as_str));
    (names, own)
}

/// What Claude completion offers from the workspace: agents, MCP servers and models used.
pub fn known(host: &dyn Host) -> super::complete::Known {
    let mut known = super::complete::Known::default();
    for f in files(host) {
        // The name an `Agent(...)` entry must use: a plugin agent's is `plugin:name`.
        if let Some(name) = f.registered() {
            let desc = f.agent.description.clone().unwrap_or_default();
            if !known.agents.iter().any(|(n, _)| *n == name) {
                known.agents.push((name, desc));
            }
        }
        if let Some(m) = f.agent.setting("model")
            && !known.models.contains(&m.value)
        {
            known.models.push(m.value.clone());
        }
        for list in [&f.agent.tools, &f.agent.disallowed].into_iter().flatten() {
            for i in list.items() {
                if let Some(rest) = i.text.strip_prefix("mcp__") {
                    let server = format!("mcp__{}", rest.split("__").next().unwrap_or(rest));
                    if !known.mcp_servers.contains(&server) {
                        known.mcp_servers.push(server);
                    }
                }
            }
        }
    }
    // The servers of the `.mcp.json` files and of the plugins, by the prefix their tools get.
    let names = mcp_files(host)
        .into_iter()
        .flat_map(|v| {
            v.file
                .servers
                .iter()
                .filter(|s| s.skip.is_none())
                .map(|s| s.name.clone())
        })
        .chain(plugin_mcp_servers(host));
    for name in names {
        let server = format!("mcp__{}", super::mcp::schema::tool_prefix(&name));
        if !known.mcp_servers.contains(&server) {
            known.mcp_servers.push(server);
        }
    }
    known
}

/// The checks across Claude Code's output styles and the settings that choose one (see
/// [`check_across`]).
pub fn output_style_checks(host: &dyn Host) -> Vec<(usize, Diagnostic)> {
    use super::output_style::{Choice, Listed, Origin, check_across, listed_name};
    let mut styles: Vec<Listed> = Vec::new();
    let mut choices: Vec<Choice> = Vec::new();
    for f in host.files() {
        let id = f.id;
        match (place(&f), f.kind.claude_file()) {
            (Some((dir, Place::OutputStyle)), Some(super::FileKind::OutputStyle(origin))) => {
                let Some(style) = f.analysis.output_style() else {
                    continue;
                };
                let stem = f
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
                    .trim_end_matches(".md")
                    .to_string();
                styles.push(Listed {
                    file: id,
                    name: listed_name(origin, style, &stem),
                    span: style.name_span(),
                    dir,
                    rel: f
                        .path
                        .strip_prefix(dir)
                        .unwrap_or(f.path)
                        .to_string_lossy()
                        .replace('\\', "/"),
                    plugin: matches!(origin, Origin::Plugin { .. }),
                });
            }
            (Some((dir, Place::Settings)), Some(super::FileKind::Settings(k))) => {
                let applied = f.analysis.settings().is_some_and(|s| s.voided.is_none());
                choices.push(Choice {
                    file: id,
                    root: f.analysis.parsed.root.as_ref().filter(|_| applied),
                    dir,
                    user: *k == SettingsFile::User,
                });
            }
            _ => {}
        }
    }
    let path = |id: usize| host.file(id).map(|f| f.path);
    styles.sort_by(|a, b| path(a.file).cmp(&path(b.file)));
    check_across(&styles, &choices, host.options().home.as_deref())
}

/// `unknown-mcp-server` (info) on the `mcp__<server>__...` entries of the `tools` and
/// `disallowedTools` of a project's Claude Code agents whose server no `.mcp.json` Claude
/// Code reads there, no server of the user's `~/.claude.json` and no agent's own
/// `mcpServers` declares. Only when the user's servers are known; never for user or plugin
/// agents (they run in any project).
pub fn mcp_tool_refs(host: &dyn Host) -> Vec<(usize, Diagnostic)> {
    let Some(user) = user_servers(host) else {
        return Vec::new();
    };
    let views = mcp_files(host);
    let files = files(host);
    let inline: Vec<String> = files
        .iter()
        .filter_map(|f| f.agent.setting("mcpServers"))
        .flat_map(|s| s.value.split(", ").map(str::to_string).collect::<Vec<_>>())
        .collect();
    let inline: Vec<&str> = inline.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.kind.source == super::Source::Project) {
        let refs: Vec<super::mcp::names::ToolRef> = [&f.agent.tools, &f.agent.disallowed]
            .into_iter()
            .flatten()
            .flat_map(|l| l.items())
            .map(|i| super::mcp::names::ToolRef {
                text: &i.text,
                span: i.span,
                exact: i.exact,
            })
            .collect();
        if refs.is_empty() {
            continue;
        }
        out.extend(
            super::mcp::names::check_refs(&refs, f.owner, &views, user, &inline)
                .into_iter()
                .map(|d| (f.file, d)),
        );
    }
    out
}

/// The MCP servers of the user's `~/.claude.json` (user and local scope); `None` when they
/// cannot be known (see the workspace's loading of Claude Code's user files).
pub fn user_servers(host: &dyn Host) -> Option<&UserServers> {
    host.dialect_state(Dialect::Claude)?.downcast_ref::<UserServers>()
}
