//! GitHub Copilot behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use crate::analysis::discovery::{Claim, Disk, Pile, Stage};
use crate::analysis::spec::At;
use std::path::{Path, PathBuf};

use super::project::{ViewFile, registry};
use super::{FileKind, schema};
use crate::analysis::host::{Host, HostFile, Role};
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::{DialectSpec, DialectUnit, Hover, NameAt, Reads, UnitRef};
use crate::analysis::{Dialect, Span};

/// GitHub Copilot's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "copilot",
            product: "GitHub Copilot",
            aliases: &["github-copilot", "vscode"],
            checked_against: Some("(VS Code 1.139.1)"),
        }
    }

    fn disk_checks(&self, host: &dyn Host, id: usize) -> Vec<crate::analysis::spec::DiskFindings> {
        super::disk::checks(host, id)
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let (diagnostics, parsed, file) = super::analyze(kind.copilot()?, text);
        let facts = crate::analysis::Facts::Copilot(Box::new(file));
        Some(crate::analysis::FileAnalysis::of(parsed, diagnostics, facts))
    }

    fn complete(
        &self,
        kind: &crate::analysis::FileKind,
        text: &str,
        offset: usize,
        host: &dyn Host,
        id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        let k = kind.copilot()?;
        let offered = known(host, id);
        Some(super::complete::complete(k, text, offset, &offered))
    }

    fn builtin_agents(&self) -> Vec<&'static str> {
        schema::BUILTIN_AGENTS.iter().map(|(n, _)| *n).collect()
    }

    /// Its tool sets that a permission question can name (`execute` for `bash`).
    fn policy_names(&self) -> Vec<(&'static str, &'static str)> {
        schema::TOOL_SETS
            .iter()
            .filter(|set| super::policy::set_for(set.name).is_some())
            .map(|set| (set.name, "a GitHub Copilot tool set"))
            .collect()
    }

    // Discovery (see `discover.rs`).
    fn walk_keeps(&self, path: &Path, _depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        super::discover::walk_keeps(path)
    }

    fn kind_of(&self, path: &Path, _at: &At, stage: Stage) -> Claim {
        super::discover::kind_of(path, stage)
    }

    fn watched(&self) -> &'static [&'static str] {
        &[
            // VS Code's MCP servers, which agents' `server/*` tools name.
            "**/.vscode/mcp.json",
        ]
    }

    fn comments(&self, kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        match kind.copilot() {
            Some(super::FileKind::Mcp) => crate::analysis::suppress::Comments::Jsonc,
            _ => crate::analysis::suppress::Comments::Frontmatter,
        }
    }

    fn list_rank(&self) -> u8 {
        3
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        schema::RULES
    }

    /// Copilot has no permissions, skills or commands of its own: it lists its whole set.
    fn shares_every_dialect_rules(&self) -> bool {
        false
    }

    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        host.file(id)?.analysis.copilot()?;
        Some(hover(host, id, offset, where_is))
    }

    fn agent_names(&self, file: &HostFile) -> Option<Vec<NameAt>> {
        agent_names(file)
    }

    /// The files of each workspace folder (agents, prompts, `mcp.json`).
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        folders(host)
            .into_iter()
            .map(|dir| {
                let view = files_of(host, &dir);
                DialectUnit::of_view("folder", dir, view)
            })
            .collect()
    }

    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, crate::analysis::Diagnostic)>, Reads) {
        (super::project::check(&view_files(host, unit.view)), Reads::All)
    }

    fn starts(&self, host: &dyn Host, dir: &Path) -> Vec<PathBuf> {
        folders(host).into_iter().filter(|p| p.starts_with(dir)).collect()
    }

    /// VS Code fills `${env:NAME}` in a server of `.vscode/mcp.json` (and asks for an
    /// `${input:id}`); an agent's `mcp-servers` take `${NAME}`.
    fn secret_fix(
        &self,
        kind: &crate::analysis::FileKind,
        path: &[String],
    ) -> Option<crate::analysis::spec::SecretFix> {
        let reference = match kind.own()? {
            super::FileKind::Mcp => "${env:NAME}",
            super::FileKind::Agent { .. } if path.first().is_some_and(|k| k == "mcp-servers") => "${NAME}",
            _ => return None,
        };
        Some(crate::analysis::spec::SecretFix {
            reference: Some(reference),
            advice: "",
        })
    }

    /// The files and custom agents of the workspace folder `start` is in (the deepest one).
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let dir = host.canonical(start);
        let project = folders(host)
            .into_iter()
            .filter(|p| dir.starts_with(p) || start.starts_with(p))
            .max_by_key(|p| p.components().count());
        let ids = project.map(|p| files_of(host, &p)).unwrap_or_default();
        let files = view_files(host, &ids);
        (ids, Box::new(super::agents::Agents::gather(files)))
    }

    /// A chat mode (`.chatmode.md`) goes to `.github/agents/` as a custom agent.
    fn moved_file(&self, file: &HostFile, host: &dyn Host) -> Option<PathBuf> {
        let rel = file.kind.copilot()?.migrated_path()?;
        Some(folder_of(host, file.id)?.join(rel))
    }

    /// A custom agent named by its file: the file is renamed in its folder, its suffix
    /// (`.agent.md`, `.chatmode.md`) kept.
    fn renamed_file(&self, file: &HostFile, new_name: &str) -> Option<PathBuf> {
        let suffix = file.kind.copilot()?.agent_suffix()?;
        Some(file.path.with_file_name(format!("{new_name}{suffix}")))
    }
}

/// A Copilot file's role: `dir` is the workspace folder holding its `.github/` (or `.vscode/`).
pub fn role(dir: PathBuf) -> Role {
    Role::Dialect { dir, layer: 0 }
}

/// The workspace folder of a live Copilot file.
pub fn folder_of(host: &dyn Host, id: usize) -> Option<PathBuf> {
    let f = host.file(id)?;
    (f.kind.dialect() == Dialect::Copilot).then(|| f.role.dialect().map(|(d, _)| d.to_path_buf()))?
}

/// The workspace folders that hold Copilot files.
pub fn folders(host: &dyn Host) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = host
        .files_of(Dialect::Copilot)
        .map(|(_, dir, _)| dir.to_path_buf())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The live Copilot files of the workspace folder `dir`, in path order.
pub fn files_of(host: &dyn Host, dir: &Path) -> Vec<usize> {
    let mut files: Vec<(&Path, usize)> = host
        .files_of(Dialect::Copilot)
        .filter(|(_, d, _)| *d == dir)
        .map(|(f, _, _)| (f.path, f.id))
        .collect();
    files.sort();
    files.into_iter().map(|(_, id)| id).collect()
}

/// Copilot's files of `ids` as its project pass reads them.
pub fn view_files<'h>(host: &'h dyn Host, ids: &[usize]) -> Vec<ViewFile<'h>> {
    ids.iter()
        .filter_map(|&file| {
            let f = host.file(file)?;
            Some(ViewFile {
                file,
                kind: f.kind.copilot()?,
                facts: f.analysis.copilot()?,
            })
        })
        .collect()
}

/// The custom agents of the workspace folder `dir` (name, description).
pub fn agents_of(host: &dyn Host, dir: &Path) -> Vec<(String, String)> {
    let files = view_files(host, &files_of(host, dir));
    registry(&files)
        .into_iter()
        .map(|(n, f)| (n.to_string(), f.facts.description.clone().unwrap_or_default()))
        .collect()
}

/// What Copilot completion offers in file `id`: the custom agents and the MCP servers of its
/// workspace folder.
pub fn known(host: &dyn Host, id: Option<usize>) -> super::complete::Known {
    let Some(dir) = id.and_then(|id| folder_of(host, id)) else {
        return Default::default();
    };
    let files = view_files(host, &files_of(host, &dir));
    super::complete::Known {
        agents: agents_of(host, &dir),
        mcp_servers: files
            .iter()
            .filter(|f| f.kind.is_json())
            .flat_map(|f| f.facts.mcp_servers.iter().map(|s| s.name.clone()))
            .collect(),
    }
}

/// The agent names of a Copilot file: a custom agent's name (its `name`, else its first line);
/// the agents a handoff, a prompt's `agent` and an agent's `agents` name.
fn agent_names(f: &HostFile) -> Option<Vec<NameAt>> {
    let (c, kind) = (f.analysis.copilot()?, f.kind.copilot()?);
    let mut out = Vec::new();
    if matches!(kind, FileKind::Agent { .. }) {
        out.push(NameAt::definition(
            c.shown_name(kind),
            c.name.as_ref().map_or(c.anchor, |n| n.span),
        ));
    }
    for r in c
        .handoffs
        .iter()
        .filter_map(|h| h.agent.as_ref())
        .chain(c.agent.iter())
        .chain(c.agents.iter().flatten())
    {
        out.push(NameAt::reference(&r.name, r.span));
    }
    Some(out)
}

/// Hover in a Copilot file: the card of the agent a name resolves to, what a tool entry
/// grants, a header key's documentation, and the file's own card on its header.
fn hover(host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Hover> {
    let f = host.file(id)?;
    let c = f.analysis.copilot()?;
    let kind = f.kind.copilot()?;
    let dir = folder_of(host, id)?;
    let files = view_files(host, &files_of(host, &dir));
    let cx = super::card::Context { files: &files };
    let card_of = |v: &ViewFile| super::card::card(v.kind, v.facts, super::project::source(v), &cx, where_is);
    // What naming no agent does, by where the name is written.
    let handoffs = c
        .handoffs
        .iter()
        .filter_map(|h| h.agent.as_ref())
        .map(|r| (r, "VS Code shows no button for this handoff"));
    let prompt = c
        .agent
        .iter()
        .map(|r| (r, "the prompt runs in the agent picked in the chat"));
    let subagents = c
        .agents
        .iter()
        .flatten()
        .map(|r| (r, "this entry lets the agent run no subagent"));
    for (r, effect) in handoffs.chain(prompt).chain(subagents) {
        if r.span.contains(offset) {
            let registry = registry(&files);
            let md = match registry.iter().find(|(n, _)| *n == r.name) {
                Some((_, v)) => card_of(v),
                None => match schema::BUILTIN_AGENTS.iter().find(|(n, _)| *n == r.name) {
                    Some((n, d)) => format!("### `{n}`: VS Code's built-in agent\n\n{d}\n"),
                    // `*` in `agents` is every custom agent: not a name.
                    None if r.name == "*" => return None,
                    None => {
                        let names = registry
                            .iter()
                            .map(|(n, _)| *n)
                            .chain(schema::BUILTIN_AGENTS.iter().map(|(n, _)| *n));
                        format!(
                            "### `{}`: no agent\n\nThis name resolves to no agent: no custom agent of this workspace (`.github/agents/`) and no built-in agent is called so, and {effect}.{}\n",
                            r.name,
                            crate::analysis::suggest::did_you_mean(crate::analysis::suggest::closest(&r.name, names))
                        )
                    }
                },
            };
            return Some(Hover::new(md, r.span));
        }
    }
    if let Some(t) = c.tools.iter().flatten().find(|t| t.span.contains(offset)) {
        let md = format!(
            "**`{}`**: {}\n",
            t.name,
            super::card::tool_meaning(&t.name, &cx, c, where_is)
        );
        return Some(Hover::new(md, t.span));
    }
    let header = kind.header();
    if let (Some(h), Some(root)) = (header, f.analysis.parsed.root.as_ref())
        && let Some(step) = crate::analysis::syntax::path_at(root, offset).first()
        && step.key.span.contains(offset)
        && let Some(k) = schema::key_of(h, &step.key.name)
    {
        let hosts = match k.hosts {
            schema::Hosts::Both => "VS Code and GitHub.com read it.",
            schema::Hosts::VsCode => "VS Code reads it; GitHub.com's coding agent ignores it.",
            schema::Hosts::GitHub => "GitHub.com's coding agent reads it; VS Code ignores it.",
        };
        let md = format!("**`{}`** ({})\n\n{}\n\n{hosts}\n", k.name, h.noun(), k.doc);
        return Some(Hover::new(md, step.key.span));
    }
    // Elsewhere in the frontmatter (its fences included), or on the first line of a file
    // without one: the file's own card, over that whole stretch.
    let header = c
        .yaml
        .map(|y| Span::new(c.anchor.start as usize, c.close.map_or(y.end, |cl| cl.end) as usize))
        .unwrap_or(c.anchor);
    if header.contains(offset) {
        let me = files.iter().find(|v| v.file == id)?;
        return Some(Hover::new(card_of(me), header));
    }
    None
}
