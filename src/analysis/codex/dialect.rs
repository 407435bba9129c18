//! Codex behind the one dialect interface ([`DialectSpec`]): which files it reads, and what the
//! workspace and the front ends ask of it.
//!
//! Files: the user's `$CODEX_HOME/config.toml` (`~/.codex/` by default) and its `agents/`; a
//! project's `.codex/config.toml` and `.codex/agents/**/*.toml` (Codex reads a project's
//! `.codex/` layer only when the project is trusted; agent-lsp checks it wherever it is, since
//! trust is the user's setting, not the file's).

use std::path::{Path, PathBuf};

use crate::analysis::Dialect;
use crate::analysis::discovery::{Claim, Disk, Pile, Stage};
use crate::analysis::host::Host;
use crate::analysis::host::Options;
use crate::analysis::host::Role;
use crate::analysis::spec::{At, DialectSpec};
use crate::analysis::spec::{DialectUnit, Reads, UnitRef};

/// The user option holding Codex's home (`$CODEX_HOME`, or `~/.codex`).
pub const HOME: &str = "codex.home";

/// The unit of the instruction chain (the other units are folders).
const INSTRUCTIONS: &str = "instructions";

/// Codex's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "codex",
            product: "Codex",
            aliases: &["openai-codex", "codex-cli"],
            checked_against: Some("0.171.0"),
        }
    }

    fn setup_help(&self) -> Option<&'static str> {
        Some(super::setup::HELP)
    }

    fn setup(&self, ask: &crate::analysis::setup::Ask) -> Result<Vec<crate::analysis::setup::Step>, String> {
        super::setup::steps(ask)
    }

    fn comments(&self, kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        if is_instructions(kind) {
            // Markdown (a frontmatter's comments would hold a directive).
            crate::analysis::suppress::Comments::Frontmatter
        } else {
            crate::analysis::suppress::Comments::Toml
        }
    }

    fn list_rank(&self) -> u8 {
        4
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        super::RULES
    }

    fn shares_every_dialect_rules(&self) -> bool {
        false
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let (diagnostics, parsed, facts) = super::analyze(kind.own()?, text);
        Some(crate::analysis::FileAnalysis::of(parsed, diagnostics, facts))
    }

    fn complete(
        &self,
        kind: &crate::analysis::FileKind,
        text: &str,
        offset: usize,
        _host: &dyn crate::analysis::host::Host,
        _id: Option<usize>,
    ) -> Option<Vec<crate::analysis::complete::Item>> {
        let kind: &super::FileKind = kind.own()?;
        if *kind == super::FileKind::Instructions {
            return Some(Vec::new());
        }
        Some(super::editor::complete(text, offset, *kind == super::FileKind::Agent))
    }

    fn hover(
        &self,
        host: &dyn crate::analysis::host::Host,
        id: usize,
        offset: usize,
        where_is: crate::analysis::provenance::WhereIs,
    ) -> Option<Option<crate::analysis::spec::Hover>> {
        let f = host.file(id)?;
        let kind: &super::FileKind = f.kind.own()?;
        if *kind == super::FileKind::Instructions {
            return Some(None);
        }
        let agent = *kind == super::FileKind::Agent;
        // On an agent file's `name` line: the agent as Codex builds it.
        if agent
            && let Some(span) = f
                .analysis
                .own::<super::Facts>()
                .and_then(|x| x.agent.as_ref()?.name_span)
            && let Some(card) = crate::analysis::spec::agent_card_on_name(&Spec, host, id, span, offset, where_is)
        {
            return Some(Some(card));
        }
        Some(
            super::editor::hover(f.text, offset, agent)
                .map(|(text, span)| crate::analysis::spec::Hover::new(text, span)),
        )
    }

    /// Each `.codex` folder's files together: which agent files become agents.
    /// And the instruction files Codex reads, which share one budget.
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        let mut units: Vec<DialectUnit> = folders(host)
            .into_iter()
            .map(|dir| DialectUnit::of_view("folder", dir.clone(), files_of(host, &dir)))
            .collect();
        let (view, inputs) = super::instructions::unit_files(host);
        if !view.is_empty() {
            units.push(DialectUnit {
                view,
                ..DialectUnit::over(INSTRUCTIONS, inputs)
            });
        }
        units
    }

    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, crate::analysis::Diagnostic)>, Reads) {
        if unit.part == INSTRUCTIONS {
            let home = host.options().user(HOME);
            return (super::instructions::check(host, unit.view, home), Reads::All);
        }
        (super::project::check(&folder_files(host, unit.view)), Reads::All)
    }

    /// The projects at or below `dir` (each a folder with a `.codex/`).
    fn starts(&self, host: &dyn Host, dir: &Path) -> Vec<PathBuf> {
        let home = host.options().user(HOME).map(Path::to_path_buf);
        folders(host)
            .into_iter()
            .filter(|p| p.starts_with(dir) && Some(p) != home.as_ref())
            .collect()
    }

    /// Codex substitutes nothing in `config.toml`: a server takes variables from Codex's own
    /// environment through `env_vars`, and headers through `env_http_headers`.
    fn secret_fix(
        &self,
        kind: &crate::analysis::FileKind,
        path: &[String],
    ) -> Option<crate::analysis::spec::SecretFix> {
        if !matches!(kind.own()?, super::FileKind::Config { .. }) {
            return None;
        }
        let under = |k: &str| path.iter().rev().nth(1).is_some_and(|p| p == k);
        let server = path.first().is_some_and(|k| k == "mcp_servers");
        let advice = if under("http_headers") && server {
            "Codex sends `http_headers` as written: name the variable that holds it in `env_http_headers` (header name to variable), or in `bearer_token_env_var` for `Authorization`."
        } else if under("http_headers") {
            "Codex sends `http_headers` as written: name the variable that holds it in `env_http_headers` (header name to variable), or the API key's in the provider's `env_key`."
        } else if under("env") {
            "Codex passes a server's `env` as written: list the variable in the server's `env_vars` instead, and Codex passes it on from its own environment."
        } else {
            return None;
        };
        Some(crate::analysis::spec::SecretFix {
            reference: None,
            advice,
        })
    }

    /// The agents Codex builds started in `start`: the built-in ones, then the user's and the
    /// project's custom agents, each over the user's and the project's configuration.
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let home = host.options().user(HOME).map(Path::to_path_buf);
        let dir = host.canonical(start);
        let project = folders(host)
            .into_iter()
            .filter(|p| Some(p) != home.as_ref() && (dir.starts_with(p) || start.starts_with(p)))
            .max_by_key(|p| p.components().count());
        // Outside a project with a `.codex/` folder, Codex builds nothing agent-lsp shows.
        if project.is_none() {
            return (Vec::new(), Box::new(super::agents::Agents { agents: Vec::new() }));
        }
        let mut ids = Vec::new();
        let mut layers = Vec::new();
        let mut agents: Vec<super::agents::CodexAgent<'h>> = super::agents::BUILT_IN
            .iter()
            .map(|(name, description)| super::agents::CodexAgent {
                name: name.to_string(),
                description: Some(description.to_string()),
                defined: None,
                layers: Vec::new(),
            })
            .collect();
        let mut custom = Vec::new();
        for folder in home.iter().chain(project.iter()) {
            let view = files_of(host, folder);
            ids.extend(view.iter().copied());
            let files = folder_files(host, &view);
            for f in &files {
                if let Some(settings) = f.config {
                    layers.push(super::agents::LayerOf { settings, file: f.id });
                }
            }
            let declared = super::project::declared_roles(&files);
            for (id, name) in super::project::loaded(&files) {
                let Some(f) = files.iter().find(|f| f.id == id) else {
                    continue;
                };
                let Some(role) = f.agent else { continue };
                let description = role.description.clone().or_else(|| {
                    let path = f.path;
                    declared
                        .iter()
                        .find(|(p, ..)| p.as_path() == path)
                        .and_then(|(_, _, d)| d.map(str::to_string))
                });
                let span = role
                    .name_span
                    .unwrap_or_else(|| crate::analysis::text::first_line(f.text));
                custom.push((name, description, id, span));
            }
        }
        for (name, description, id, span) in custom {
            let own = host.file(id).and_then(|f| {
                let facts: &super::Facts = f.analysis.own()?;
                Some(&facts.settings)
            });
            let mut with = layers.clone();
            if let Some(settings) = own {
                with.push(super::agents::LayerOf { settings, file: id });
            }
            // A custom agent of a built-in's name replaces it.
            agents.retain(|a| a.name != name);
            agents.push(super::agents::CodexAgent {
                name,
                description,
                defined: Some((id, span)),
                layers: with,
            });
        }
        for a in agents.iter_mut().filter(|a| a.defined.is_none()) {
            a.layers = layers.clone();
        }
        ids.sort_unstable();
        ids.dedup();
        (ids, Box::new(super::agents::Agents { agents }))
    }

    fn agent_names(&self, file: &crate::analysis::host::HostFile) -> Option<Vec<crate::analysis::spec::NameAt>> {
        let facts: &super::Facts = file.analysis.own()?;
        let role = facts.agent.as_ref()?;
        Some(match (&role.name, role.name_span) {
            (Some(n), Some(span)) => vec![crate::analysis::spec::NameAt::definition(n, span)],
            _ => Vec::new(),
        })
    }

    fn config_folders(&self) -> &'static [&'static str] {
        &[".codex"]
    }

    fn skill_loader(&self) -> Option<crate::analysis::skill::Loader> {
        Some(super::skill::LOADER)
    }

    /// `.codex/skills/` and `.agents/skills/`, at any depth.
    fn skill_homes(&self) -> &'static [crate::analysis::discovery::SkillHome] {
        use crate::analysis::discovery::SkillHome;
        &[
            SkillHome {
                folder: ".codex",
                subs: &["skills"],
                owner: true,
                depths: &[],
            },
            SkillHome {
                folder: ".agents",
                subs: &["skills"],
                owner: false,
                depths: &[],
            },
        ]
    }

    fn walk_keeps(&self, path: &Path, _depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        let (kind, _) = kind_at(path, None)?;
        Some(match kind {
            super::FileKind::Config { .. } => Pile::Config,
            super::FileKind::Agent | super::FileKind::Instructions => Pile::Document,
        })
    }

    /// `AGENTS.override.md` is a personal file, often ignored by git: Codex reads it anyway.
    fn read_when_ignored(&self, dir: &Path) -> Vec<PathBuf> {
        vec![dir.join(super::instructions::OVERRIDE)]
    }

    fn instruction_names(&self) -> &'static [&'static str] {
        super::instructions::NAMES
    }

    fn instruction_reader(
        &self,
        _host: &dyn Host,
        _dir: &Path,
        which: crate::analysis::instructions::Which,
        chain: &[crate::analysis::instructions::Level],
        _imported_by: Option<&str>,
    ) -> Option<crate::analysis::instructions::Verdict> {
        Some(super::instructions::reader(which, chain))
    }

    fn instruction_file(&self, host: &dyn Host, id: usize) -> Option<(crate::analysis::instructions::Which, PathBuf)> {
        let f = host.file(id)?;
        is_instructions(f.kind).then(|| {
            (
                crate::analysis::instructions::Which(super::instructions::OVERRIDE),
                f.path.parent().unwrap_or(f.path).to_path_buf(),
            )
        })
    }

    fn reads_instructions(&self, kind: &crate::analysis::FileKind) -> bool {
        is_instructions(kind)
    }

    fn kind_of(&self, path: &Path, at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, role) = kind_at(path, at.host.options().user(HOME))?;
        Some(Some((kind.into(), role)))
    }

    fn kind_alone(&self, path: &Path, _at: &At, stage: Stage) -> Claim {
        if stage != Stage::Own {
            return None;
        }
        let (kind, role) = kind_at(path, None)?;
        Some(Some((kind.into(), role)))
    }

    fn watched(&self) -> &'static [&'static str] {
        // (`AGENTS.override.md` is Markdown, which every runtime's watch covers.)
        &["**/.codex/config.toml", "**/.codex/agents/**/*.toml"]
    }

    fn user_options(&self, env: &dyn Fn(&str) -> Option<PathBuf>, _global_dir: Option<&Path>, o: &mut Options) {
        let home = env("CODEX_HOME").or_else(|| o.home.as_ref().map(|h| h.join(".codex")));
        o.set_user(HOME, home);
    }

    fn user_folders(&self, o: &Options) -> Vec<PathBuf> {
        o.user(HOME).map(Path::to_path_buf).into_iter().collect()
    }
}

/// The folders Codex files belong to (projects, and Codex's home).
fn folders(host: &dyn Host) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = host
        .files_of(Dialect::Codex)
        .filter(|(f, ..)| !is_instructions(f.kind))
        .map(|(_, dir, _)| dir.to_path_buf())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// The Codex files `ids` as the folder's check reads them.
fn folder_files<'h>(host: &'h dyn Host, ids: &[usize]) -> Vec<super::project::FolderFile<'h>> {
    ids.iter()
        .filter_map(|&id| {
            let f = host.file(id)?;
            let kind: &super::FileKind = f.kind.own()?;
            let facts: &super::Facts = f.analysis.own()?;
            Some(super::project::FolderFile {
                id,
                path: f.path,
                text: f.text,
                agent: facts.agent.as_ref(),
                config: matches!(kind, super::FileKind::Config { .. }).then_some(&facts.settings),
            })
        })
        .collect()
}

/// The Codex files of folder `dir`, in path order.
fn files_of(host: &dyn Host, dir: &Path) -> Vec<usize> {
    let mut files: Vec<(&Path, usize)> = host
        .files_of(Dialect::Codex)
        .filter(|(f, d, _)| *d == dir && !is_instructions(f.kind))
        .map(|(f, _, _)| (f.path, f.id))
        .collect();
    files.sort();
    files.into_iter().map(|(_, id)| id).collect()
}

/// Whether a file of `kind` is an `AGENTS.override.md` (which belongs to the instruction chain,
/// not to a `.codex` folder).
fn is_instructions(kind: &crate::analysis::FileKind) -> bool {
    kind.own::<super::FileKind>() == Some(&super::FileKind::Instructions)
}

/// What a path is to Codex, with its role: `home` is Codex's home (`$CODEX_HOME`), whose
/// `config.toml` and `agents/` are the user's.
fn kind_at(path: &Path, home: Option<&Path>) -> Option<(super::FileKind, Role)> {
    if path.file_name()? == super::instructions::OVERRIDE {
        let dir = path.parent()?;
        let role = match home {
            Some(h) if h == dir => user_role(h),
            _ => Role::Dialect {
                dir: dir.to_path_buf(),
                layer: 1,
            },
        };
        return Some((super::FileKind::Instructions, role));
    }
    if path.extension()? != "toml" {
        return None;
    }
    // The user's own files, under `$CODEX_HOME` (which need not be named `.codex`).
    if let Some(home) = home
        && let Ok(rel) = path.strip_prefix(home)
    {
        let mut parts = rel.components();
        let first = parts.next()?.as_os_str();
        if first == "config.toml" && parts.next().is_none() {
            return Some((super::FileKind::Config { project: false }, user_role(home)));
        }
        if first == "agents" {
            return Some((super::FileKind::Agent, user_role(home)));
        }
    }
    // `<project>/.codex/config.toml`, `<project>/.codex/agents/**/*.toml`.
    let codex = path
        .ancestors()
        .skip(1)
        .find(|a| a.file_name().is_some_and(|n| n == ".codex"))?;
    let rel = path.strip_prefix(codex).ok()?;
    let mut parts = rel.components();
    let first = parts.next()?.as_os_str();
    let project = codex.parent()?.to_path_buf();
    let user = home.is_some_and(|h| h == codex);
    let role = Role::Dialect {
        dir: if user { codex.to_path_buf() } else { project },
        layer: if user { 0 } else { 1 },
    };
    if first == "config.toml" && parts.next().is_none() {
        return Some((super::FileKind::Config { project: !user }, role));
    }
    if first == "agents" && parts.next().is_some() {
        return Some((super::FileKind::Agent, role));
    }
    None
}

fn user_role(home: &Path) -> Role {
    Role::Dialect {
        dir: home.to_path_buf(),
        layer: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_files_are_known_by_their_place() {
        let p = |s: &str| PathBuf::from(s);
        let home = p("/home/u/.codex");
        let kind = |s: &str| kind_at(&p(s), Some(&home)).map(|(k, _)| k);
        assert_eq!(
            kind("/w/.codex/config.toml"),
            Some(super::super::FileKind::Config { project: true })
        );
        assert_eq!(
            kind("/home/u/.codex/config.toml"),
            Some(super::super::FileKind::Config { project: false })
        );
        assert_eq!(kind("/w/.codex/agents/a.toml"), Some(super::super::FileKind::Agent));
        assert_eq!(kind("/w/.codex/agents/sub/b.toml"), Some(super::super::FileKind::Agent));
        assert_eq!(
            kind("/home/u/.codex/agents/c.toml"),
            Some(super::super::FileKind::Agent)
        );
        assert_eq!(kind("/w/.codex/agents/a.md"), None);
        assert_eq!(kind("/w/.codex/agents.toml"), None);
        assert_eq!(kind("/w/.codex/other/config.toml"), None);
        assert_eq!(kind("/w/codex/config.toml"), None);
        // A `CODEX_HOME` not named `.codex`.
        let other = p("/opt/codexhome");
        let k = kind_at(&p("/opt/codexhome/config.toml"), Some(&other)).map(|(k, _)| k);
        assert_eq!(k, Some(super::super::FileKind::Config { project: false }));
        let (_, role) = kind_at(&p("/w/.codex/config.toml"), Some(&home)).unwrap();
        assert_eq!(role, Role::Dialect { dir: p("/w"), layer: 1 });
    }
}
