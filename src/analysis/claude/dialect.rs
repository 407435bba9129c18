//! Claude Code behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use super::discover;
use crate::analysis::Diagnostic;
use crate::analysis::discovery::{Claim, CommandHome, Disk, Load, Pile, SkillHome, Stage, UserLayer};
use crate::analysis::host::Options;
use crate::analysis::host::{Host, HostFile, Role};
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::At;
use crate::analysis::spec::{DialectSpec, DialectUnit, Hover, NameAt, Reads, UnitRef};

/// Claude Code's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "claude",
            product: "Claude Code",
            aliases: &["claude-code", "claudecode"],
            checked_against: Some("2.1.332"),
        }
    }

    fn disk_checks(&self, host: &dyn Host, id: usize) -> Vec<crate::analysis::spec::DiskFindings> {
        super::disk::checks(host, id)
    }

    fn file_links(&self, host: &dyn Host, id: usize) -> Vec<(crate::analysis::Span, std::path::PathBuf)> {
        super::disk::file_ref_links(host, id)
    }

    fn instruction_file(
        &self,
        host: &dyn Host,
        id: usize,
    ) -> Option<(crate::analysis::instructions::Which, std::path::PathBuf)> {
        super::disk::instruction_file(host, id)
    }

    fn instruction_imports(&self, host: &dyn Host) -> Vec<(std::path::PathBuf, std::path::PathBuf)> {
        super::disk::instruction_imports(host)
    }

    /// Claude Code skips an agent file over 1 MiB (spec §7.1): the agent does not load.
    fn skips_over(&self, kind: &crate::analysis::FileKind) -> Option<(u64, &'static str)> {
        kind.claude()?;
        Some((
            super::MAX_BYTES as u64,
            "Claude Code skips agent files over 1 MiB, so this agent does not load",
        ))
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        use super::facts::{AgentFacts, Facts};
        use super::kind::FileKind;
        use super::plugin::servers_file::ServersFile;
        let (diagnostics, parsed, facts) = match kind.own::<FileKind>()? {
            FileKind::Agent(k) => {
                let (diagnostics, agent, reading) = super::analyze(k, text);
                let parsed = reading.parsed.clone();
                (
                    diagnostics,
                    parsed,
                    Facts::Agent(Box::new(AgentFacts { reading, agent })),
                )
            }
            FileKind::Manifest(k) => {
                let (d, p, file) = super::plugin::analyze(*k, text);
                (d, p, Facts::Manifest(file))
            }
            FileKind::PluginHooks => {
                let (d, p, scripts) = super::plugin::hooks_file::analyze(text);
                (d, p, Facts::PluginHooks(scripts))
            }
            FileKind::Settings(k) => {
                let (d, p, settings) = super::settings::analyze(text, *k);
                (d, p, Facts::Settings(settings))
            }
            FileKind::Memory(k) => {
                let (d, p, memory) = super::memory::analyze_as(*k, text);
                (d, p, Facts::Memory(memory))
            }
            FileKind::McpJson => {
                let (d, p, file) = super::mcp::analyze(text);
                (d, p, Facts::Mcp(file))
            }
            FileKind::PluginServers(ServersFile::Mcp) => {
                let (d, p, file) = super::mcp::analyze_plugin(text);
                (d, p, Facts::Mcp(file))
            }
            FileKind::PluginServers(k) => {
                let (d, p, declared) = super::plugin::servers_file::analyze(*k, text);
                (d, p, Facts::PluginServers(declared))
            }
            FileKind::OutputStyle(origin) => {
                let (d, p, style) = super::output_style::analyze(text, origin);
                (d, p, Facts::OutputStyle(style))
            }
        };
        Some(crate::analysis::FileAnalysis::of(parsed, diagnostics, facts))
    }

    fn complete(
        &self,
        kind: &crate::analysis::FileKind,
        text: &str,
        offset: usize,
        host: &dyn Host,
        _id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        use super::kind::FileKind;
        use super::memory::MemoryFile;
        Some(match kind.own::<FileKind>()? {
            FileKind::Agent(_) => super::complete::complete(text, offset, &super::views::known(host)),
            FileKind::Manifest(k) => super::plugin::complete(*k, text, offset),
            FileKind::Settings(_) => super::settings::complete(text, offset, &super::views::known(host).mcp_servers),
            FileKind::PluginHooks => super::plugin::hooks_file::complete(text, offset),
            FileKind::Memory(MemoryFile::Rule) => super::rules::complete(text, offset),
            FileKind::Memory(_) => Vec::new(),
            FileKind::McpJson => super::mcp::complete(text, offset),
            FileKind::OutputStyle(_) => super::output_style::complete(text, offset),
            FileKind::PluginServers(k) => super::plugin::servers_file::complete(*k, text, offset),
        })
    }

    fn watched(&self) -> &'static [&'static str] {
        &[
            // Plugin manifests (they decide what a plugin contributes).
            "**/.claude-plugin/plugin.json",
            "**/.claude-plugin/marketplace.json",
            // The project's settings (their permission rules).
            "**/.claude/settings.json",
            "**/.claude/settings.local.json",
            // The project's MCP servers (their names answer the settings' approvals).
            "**/.mcp.json",
            // A plugin's hooks.
            "**/hooks/hooks.json",
        ]
    }

    fn instruction_names(&self) -> &'static [&'static str] {
        super::instructions::NAMES
    }

    fn setup_help(&self) -> Option<&'static str> {
        Some(super::setup::HELP)
    }

    fn setup(&self, ask: &crate::analysis::setup::Ask) -> Result<Vec<crate::analysis::setup::Step>, String> {
        super::setup::steps(ask)
    }

    fn comments(&self, kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        use super::kind::FileKind;
        match kind.claude_file() {
            // Claude Code reads its JSON files strictly: no comment to hold a directive.
            Some(
                FileKind::Manifest(_)
                | FileKind::Settings(_)
                | FileKind::PluginHooks
                | FileKind::McpJson
                | FileKind::PluginServers(_),
            ) => crate::analysis::suppress::Comments::None,
            _ => crate::analysis::suppress::Comments::Frontmatter,
        }
    }

    fn parses_as_written(&self, analysis: &crate::analysis::FileAnalysis) -> bool {
        analysis.claude().is_none_or(|c| c.reading.first_errors.is_empty())
    }

    fn builtin_agents(&self) -> Vec<&'static str> {
        super::schema::BUILTIN_AGENTS.iter().map(|(n, _)| *n).collect()
    }

    /// A plugin's agent is `plugin:name`, which its own file does not spell.
    fn is_plugin_agent_name(&self, name: &str) -> bool {
        name.contains(':')
    }

    fn instruction_reader(
        &self,
        _host: &dyn Host,
        _dir: &std::path::Path,
        which: crate::analysis::instructions::Which,
        chain: &[crate::analysis::instructions::Level],
        imported_by: Option<&str>,
    ) -> Option<crate::analysis::instructions::Verdict> {
        Some(super::instructions::readers(which, chain, imported_by))
    }

    fn command_keys(&self) -> &'static [(&'static str, &'static str)] {
        super::command::KEYS
    }

    fn reads_commands_itself(&self) -> bool {
        true
    }

    fn analyze_command(
        &self,
        kind: &crate::analysis::command::CommandKind,
        text: &str,
    ) -> Option<(
        Vec<crate::analysis::Diagnostic>,
        crate::analysis::syntax::Parsed,
        crate::analysis::command::CommandDecl,
    )> {
        Some(super::command::analyze(kind, text))
    }

    fn command_card(
        &self,
        kind: &crate::analysis::command::CommandKind,
        decl: &crate::analysis::command::CommandDecl,
        text: &str,
    ) -> Option<String> {
        Some(super::command::card(kind, decl, text))
    }

    fn complete_command(
        &self,
        text: &str,
        offset: usize,
        agents: &[(String, String)],
        models: &[String],
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        Some(super::command::complete(text, offset, agents, models))
    }

    /// Claude Code's effort levels, offered in every command file.
    fn command_values(&self, key: &str) -> Option<Vec<crate::analysis::complete::Item>> {
        (key == "effort").then(super::command::effort_items)
    }

    fn skill_loader(&self) -> Option<crate::analysis::skill::Loader> {
        Some(super::skill::LOADER)
    }

    fn check_skill(
        &self,
        kind: &crate::analysis::skill::SkillKind,
        text: &str,
        decl: &mut crate::analysis::skill::SkillDecl,
        out: &mut Vec<crate::analysis::Diagnostic>,
    ) {
        super::skill::check(kind, text, decl, out);
    }

    fn policy_names(&self) -> Vec<(&'static str, &'static str)> {
        super::schema::TOOLS
            .iter()
            .map(|t| (*t, "a Claude Code tool"))
            .collect()
    }

    // Discovery (see `discover.rs`).
    fn config_folders(&self) -> &'static [&'static str] {
        &[".claude"]
    }

    fn walk_keeps(&self, path: &std::path::Path, depth: usize, disk: &dyn Disk) -> Option<Pile> {
        // A plugin's agents and commands (`<plugin>/agents/`) at any level.
        let in_folder = path
            .ancestors()
            .skip(1)
            .take(depth)
            .any(|a| a.file_name().is_some_and(|n| n == "agents" || n == "commands"));
        let md = path.extension().is_some_and(|e| e == "md");
        discover::walk_keeps(path, disk).or((md && in_folder).then_some(Pile::Document))
    }

    fn read_when_ignored(&self, dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        discover::read_when_ignored(dir)
    }

    fn kept_in_build_folders(&self, path: &std::path::Path) -> bool {
        super::plugin::Manifest::of_path(path).is_some()
    }

    fn kind_of(&self, path: &std::path::Path, at: &At, stage: Stage) -> Claim {
        discover::kind_of(path, at, stage)
    }

    fn kind_alone(&self, path: &std::path::Path, at: &At, stage: Stage) -> Claim {
        discover::kind_alone(path, at, stage)
    }

    fn project_of_role(&self, role: &Role) -> Option<Option<std::path::PathBuf>> {
        match super::place::Place::of(role)? {
            (dir, super::place::Place::Agent) => Some(Some(dir.to_path_buf())),
            _ => Some(None),
        }
    }

    fn user_layer(&self, options: &Options, disk: &dyn Disk) -> UserLayer {
        discover::user_layer(options, disk)
    }

    fn context_files(&self, dir: &std::path::Path, disk: &dyn Disk) -> Vec<Load> {
        discover::context_files(dir, disk)
    }

    fn files_above(&self, dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        vec![dir.join(discover::MCP_JSON)]
    }

    fn bundle_of(&self, kind: &crate::analysis::FileKind, role: &Role) -> Option<std::path::PathBuf> {
        discover::bundle_of(kind, role)
    }

    fn bundle_files(&self, root: &std::path::Path, disk: &dyn Disk) -> Option<Vec<Load>> {
        discover::bundle_files(root, disk)
    }

    fn skill_homes(&self) -> &'static [SkillHome] {
        // `.claude/skills/<name>/SKILL.md`, one level deep.
        &[SkillHome {
            folder: ".claude",
            subs: &["skills"],
            owner: true,
            depths: &[2],
        }]
    }

    fn command_homes(&self) -> &'static [CommandHome] {
        &[CommandHome {
            folder: ".claude",
            subs: &["commands"],
            separator: ':',
        }]
    }

    /// A project's `.mcp.json` (an untitled one is not beside a plugin's manifest).
    fn solo_kind(
        &self,
        path: Option<&std::path::Path>,
        name: &str,
        _language_id: &str,
        _text: &str,
        disk: &dyn Disk,
    ) -> Option<crate::analysis::FileKind> {
        let at = path.map_or_else(|| std::path::Path::new("/").join(name), std::path::Path::to_path_buf);
        discover::mcp_json(&at, disk).map(|(kind, _)| kind)
    }

    fn list_rank(&self) -> u8 {
        2
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        super::schema::RULES
    }

    /// A Claude Code agent: its `name` (or, for a plugin agent without one, its first line)
    /// and the agent types of its `Agent(...)` tool entries. A plugin agent is known as
    /// `plugin:name`, which is what `Agent(...)` entries name it by.
    fn agent_names(&self, file: &HostFile) -> Option<Vec<NameAt>> {
        let c = file.analysis.claude()?;
        let mut out = Vec::new();
        if let Some(name) = &c.agent.name {
            let registered = match file.kind.claude() {
                Some(super::AgentFile {
                    source: super::Source::Plugin { plugin },
                    ..
                }) => format!("{plugin}:{name}"),
                _ => name.clone(),
            };
            out.push(NameAt::definition(&registered, c.agent.name_span));
        }
        for (name, span) in &c.agent.agent_refs {
            out.push(NameAt::reference(name, *span));
        }
        Some(out)
    }

    /// Claude Code's built-in agents, then the project's by registered name.
    fn command_agents(&self, host: &dyn Host, dir: &std::path::Path) -> Vec<(String, String)> {
        let files = super::views::files(host);
        super::schema::BUILTIN_AGENTS
            .iter()
            .map(|(n, _)| (n.to_string(), "subagent".to_string()))
            .chain(
                super::project::registry(&files, dir)
                    .into_iter()
                    .map(|(n, _)| (n, "subagent".to_string())),
            )
            .collect()
    }

    /// The models its agents use.
    fn models(&self, host: &dyn Host) -> Vec<String> {
        super::views::known(host).models
    }

    fn placeholder_hover(
        &self,
        name: &str,
        placeholder: &crate::analysis::prompt::Placeholder,
        text: &str,
        body: &str,
        arguments: &[String],
        base_dir: Option<&str>,
    ) -> Option<String> {
        Some(super::prompt::placeholder_hover(
            name,
            placeholder,
            text,
            body,
            arguments,
            base_dir,
        ))
    }

    /// What `/name` sends, and the argument hint Claude Code shows.
    fn skill_notes(&self, host: &dyn Host, id: usize, _where_is: WhereIs) -> Option<String> {
        let f = host.file(id)?;
        let (kind, decl) = (f.kind.skill()?, f.analysis.skill()?);
        let body = f.text.get(decl.body.start as usize..).unwrap_or("");
        let folder = f.path.parent().map(|p| p.display().to_string());
        let mut md = String::new();
        if let Some(h) = &decl.argument_hint {
            md.push_str(&format!("\nClaude Code shows the argument hint `{h}`.\n"));
        }
        md.push('\n');
        md.push_str(&super::prompt::sends(
            &kind.folder,
            body,
            &decl.arguments,
            folder.as_deref(),
        ));
        Some(md)
    }

    /// Claude Code is started in the project itself.
    fn starts(&self, _host: &dyn Host, dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        vec![dir.to_path_buf()]
    }

    /// Claude Code expands `${NAME}` in an MCP server's `command`, `args`, `env`, `url` and
    /// `headers` (`.mcp.json`, a plugin's servers); it passes the settings' `env` as written.
    fn secret_fix(
        &self,
        kind: &crate::analysis::FileKind,
        path: &[String],
    ) -> Option<crate::analysis::spec::SecretFix> {
        use crate::analysis::spec::SecretFix;
        match kind.own()? {
            super::FileKind::McpJson
            | super::FileKind::PluginServers(super::plugin::servers_file::ServersFile::Mcp) => {
                let n = path.len();
                let field = |i: usize| {
                    n > i && ["command", "url", "args", "env", "headers"].contains(&path[n - 1 - i].as_str())
                };
                (field(0) || field(1)).then_some(SecretFix {
                    reference: Some("${NAME}"),
                    advice: "",
                })
            }
            super::FileKind::Settings(_) => Some(SecretFix {
                reference: None,
                advice: "Claude Code passes the settings' `env` as written: keep the value in `.claude/settings.local.json`, which git ignores, or in the environment Claude Code starts in.",
            }),
            _ => None,
        }
    }

    /// Every Claude Code agent file, and the agents registered for `start`.
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &std::path::Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let ids = host
            .files()
            .filter(|f| f.kind.claude().is_some())
            .map(|f| f.id)
            .collect();
        (
            ids,
            Box::new(super::agents::Agents::gather(host, host.canonical(start))),
        )
    }

    /// A skipped file says why Claude Code skips it.
    fn would_define(&self, file: &HostFile, name: &str) -> Option<Option<String>> {
        let k = file.kind.claude()?;
        let c = file.analysis.claude();
        let named = c.and_then(|c| c.agent.name.as_deref()).unwrap_or(&k.stem);
        let why = match c.map(|c| &c.agent.status) {
            Some(super::agent::Status::Skipped(why)) => Some(format!("Claude Code skips this file ({why})")),
            Some(super::agent::Status::NotAgent(why)) => {
                Some(format!("Claude Code does not read it as an agent ({why})"))
            }
            _ => None,
        };
        (named == name).then_some(why)
    }

    /// Its agent files (with the skills they name), the MCP server names of the settings and
    /// agents against the `.mcp.json` files, and the output styles with the settings that
    /// choose one.
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        let ids = |pred: &dyn Fn(&HostFile) -> bool| -> Vec<usize> {
            host.files().filter(|f| pred(f)).map(|f| f.id).collect()
        };
        use super::place::{Place, place};
        let at = |f: &HostFile, p: Place| place(f).is_some_and(|(_, q)| q == p);
        let mut out = Vec::new();
        let skills = ids(&|f| matches!(f.role, Role::Skill { .. }));
        let agents = ids(&|f| at(f, Place::Agent));
        if !agents.is_empty() {
            let mut inputs = agents.clone();
            inputs.extend(&skills);
            out.push(DialectUnit::over("agents", inputs));
        }
        let settings =
            ids(&|f| at(f, Place::Settings) && f.kind.settings() != Some(super::settings::SettingsFile::User));
        let agents = if super::views::user_servers(host).is_some() {
            agents
        } else {
            Vec::new()
        };
        if !settings.is_empty() || !agents.is_empty() {
            let mut inputs = settings;
            inputs.extend(agents);
            inputs.extend(ids(&|f| at(f, Place::Mcp)));
            out.push(DialectUnit::over("mcp-names", inputs));
        }
        let styles = ids(&|f| at(f, Place::OutputStyle));
        let all_settings = ids(&|f| at(f, Place::Settings));
        if !styles.is_empty() || !all_settings.is_empty() {
            let mut inputs = styles;
            inputs.extend(all_settings);
            out.push(DialectUnit::over("output-styles", inputs));
        }
        out
    }

    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, Diagnostic)>, Reads) {
        let d = match unit.part {
            "agents" => {
                let files = super::views::files(host);
                let skills = |owner: &std::path::Path| super::views::skills(host, owner);
                let mut d = super::project::check(&files);
                d.extend(super::project::check_skills(&files, &skills));
                d.extend(super::project::check_skill_agents(
                    &files,
                    &super::views::skill_agents(host),
                ));
                d
            }
            "mcp-names" => {
                let mut d = super::views::mcp_approvals(host);
                d.extend(super::views::mcp_tool_refs(host));
                d
            }
            "output-styles" => super::views::output_style_checks(host),
            _ => Vec::new(),
        };
        (d, Reads::All)
    }

    /// A settings file's project: the folder holding its `.claude/`.
    fn project_of_file(&self, host: &dyn Host, id: usize) -> Option<std::path::PathBuf> {
        super::place::dir_at(&host.file(id)?, super::place::Place::Settings).map(std::path::Path::to_path_buf)
    }

    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        super::hover::hover(host, id, offset, where_is)
    }
}
