//! Claude Code behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use crate::analysis::host::{Host, HostFile};
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::{DialectSpec, Hover, NameAt};

/// Claude Code's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn list_rank(&self) -> u8 {
        2
    }

    /// A Claude Code agent: its `name` (or, for a plugin agent without one, its first line)
    /// and the agent types of its `Agent(...)` tool entries. A plugin agent is known as
    /// `plugin:name`, which is what `Agent(...)` entries name it by.
    fn agent_names(&self, file: &HostFile) -> Option<Vec<NameAt>> {
        let c = file.analysis.claude()?;
        let mut out = Vec::new();
        if let Some(name) = &c.agent.name {
            let registered = match file.kind.claude() {
                Some(super::FileKind {
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

    /// Every Claude Code agent file, and the agents registered for `start`.
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &std::path::Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let ids = host
            .files()
            .filter(|f| matches!(f.kind, crate::analysis::FileKind::Claude(_)))
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

    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        super::hover::hover(host, id, offset, where_is)
    }
}
