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

    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        super::hover::hover(host, id, offset, where_is)
    }
}
