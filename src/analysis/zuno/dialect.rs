//! Zuno behind the one dialect interface ([`DialectSpec`]): what the workspace and the front
//! ends ask of it.

use super::discover::{self, Layer};
use crate::analysis::discovery::{Claim, CommandHome, Disk, Load, Pile, SkillHome, Stage, UserLayer};
use crate::analysis::host::Options;
use crate::analysis::spec::At;
use std::path::{Path, PathBuf};

use super::complete::Known;
use super::project::{ViewFile, registry};
use super::{FileKind, RefKind, schema};
use crate::analysis::Dialect;
use crate::analysis::host::{Host, HostFile, Role};
use crate::analysis::provenance::WhereIs;
use crate::analysis::spec::{DialectSpec, DialectUnit, Hover, NameAt, Reads, UnitRef, renamed_in};
use crate::analysis::syntax::{Step, path_at};

/// Zuno's implementation of the dialect interface.
pub struct Spec;

impl DialectSpec for Spec {
    fn identity(&self) -> crate::analysis::spec::Identity {
        crate::analysis::spec::Identity {
            name: "zuno",
            product: "Zuno",
            aliases: &[],
            checked_against: None,
        }
    }

    fn analyze(&self, kind: &crate::analysis::FileKind, text: &str) -> Option<crate::analysis::FileAnalysis> {
        let (diagnostics, parsed, file) = super::analyze(kind.zuno()?, text);
        let facts = crate::analysis::Facts::Zuno(Box::new(file));
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
        let k = kind.zuno()?;
        let offered = known(host, id);
        Some(super::complete::complete(
            *k == FileKind::Config,
            text,
            offset,
            &offered,
        ))
    }

    fn builtin_agents(&self) -> Vec<&'static str> {
        schema::BUILTIN_AGENTS.iter().map(|b| b.name).collect()
    }

    fn is_builtin_agent(&self, name: &str) -> bool {
        schema::builtin(name).is_some()
    }

    fn command_keys(&self) -> &'static [(&'static str, &'static str)] {
        super::command::KEYS
    }

    fn command_template(&self) -> Option<crate::analysis::command::Template<'static>> {
        Some(super::command::TEMPLATE)
    }

    fn skill_loader(&self) -> Option<crate::analysis::skill::Loader> {
        Some(super::skill::LOADER)
    }

    fn policy_names(&self) -> Vec<(&'static str, &'static str)> {
        schema::PERMISSION_KEYS.to_vec()
    }

    // Discovery (see `discover.rs`).
    fn config_folders(&self) -> &'static [&'static str] {
        &[".zuno"]
    }

    fn walk_keeps(&self, path: &Path, depth: usize, _disk: &dyn Disk) -> Option<Pile> {
        discover::walk_keeps(path, depth)
    }

    fn kind_of(&self, path: &Path, at: &At, stage: Stage) -> Claim {
        discover::kind_of(path, at.host.options().user(super::discover::GLOBAL), stage)
    }

    fn kind_alone(&self, path: &Path, _at: &At, stage: Stage) -> Claim {
        discover::kind_of(path, None, stage)
    }

    /// Zuno's global folder: `$XDG_CONFIG_HOME/zuno` or `~/.config/zuno`.
    fn user_options(&self, env: &dyn Fn(&str) -> Option<PathBuf>, _global_dir: Option<&Path>, o: &mut Options) {
        let global = env("XDG_CONFIG_HOME")
            .map(|x| x.join("zuno"))
            .or_else(|| o.home.as_ref().map(|h| h.join(".config").join("zuno")));
        o.set_user(super::discover::GLOBAL, global);
    }

    fn user_folders(&self, o: &Options) -> Vec<PathBuf> {
        o.user(super::discover::GLOBAL)
            .map(Path::to_path_buf)
            .into_iter()
            .collect()
    }

    fn user_layer(&self, options: &Options, disk: &dyn Disk) -> UserLayer {
        discover::user_layer(options, disk)
    }

    fn context_files(&self, dir: &Path, disk: &dyn Disk) -> Vec<Load> {
        discover::context_files(dir, disk)
    }

    fn skill_project(&self, kind: &crate::analysis::FileKind, role: &Role) -> Option<PathBuf> {
        project_of(kind, role)
    }

    fn project_skill_files(&self, project: &Path, options: &Options, disk: &dyn Disk) -> Vec<PathBuf> {
        discover::project_skill_files(project, options, disk)
    }

    fn skill_homes(&self) -> &'static [SkillHome] {
        &[
            SkillHome {
                folder: ".zuno",
                subs: &["skill", "skills"],
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

    fn command_homes(&self) -> &'static [CommandHome] {
        &[CommandHome {
            folder: ".zuno",
            subs: &["command", "commands"],
            separator: '/',
        }]
    }

    /// An error in a config stops Zuno: it starts with none of it.
    fn refuses_configuration(&self) -> bool {
        true
    }

    fn watched(&self) -> &'static [&'static str] {
        &["**/zuno.json", "**/zuno.jsonc"]
    }

    fn comments(&self, kind: &crate::analysis::FileKind) -> crate::analysis::suppress::Comments {
        match kind.zuno() {
            Some(super::FileKind::Config) => crate::analysis::suppress::Comments::Jsonc,
            _ => crate::analysis::suppress::Comments::Frontmatter,
        }
    }

    fn list_rank(&self) -> u8 {
        1
    }

    fn rules(&self) -> &'static [crate::analysis::Code] {
        schema::RULES
    }

    fn hover(&self, host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Option<Hover>> {
        host.file(id)?.analysis.zuno()?;
        Some(hover(host, id, offset, where_is))
    }

    fn renamed_file(&self, file: &HostFile, new_name: &str) -> Option<PathBuf> {
        let (dir, layer) = placed(file)?;
        let root = match layer {
            Layer::DotAgent => dir.join(".zuno"),
            Layer::GlobalAgent => dir.to_path_buf(),
            _ => return None,
        };
        renamed_in(&root, file.path, new_name)
    }

    fn agent_names(&self, file: &HostFile) -> Option<Vec<NameAt>> {
        agent_names(file)
    }

    fn view_of_file(&self, host: &dyn Host, id: usize) -> Vec<usize> {
        view_of_file(host, id)
    }

    /// Each project's view.
    fn units(&self, host: &dyn Host) -> Vec<DialectUnit> {
        projects(host)
            .into_iter()
            .map(|dir| {
                let view = view_for(host, &dir);
                DialectUnit::of_view("project", dir, view)
            })
            .collect()
    }

    fn check_unit(&self, host: &dyn Host, unit: UnitRef) -> (Vec<(usize, crate::analysis::Diagnostic)>, Reads) {
        match unit.dir {
            Some(dir) => (check_project(host, dir, unit.view), Reads::All),
            None => (Vec::new(), Reads::All),
        }
    }

    /// A Markdown agent or mode file is named by its path.
    fn would_define(&self, file: &HostFile, name: &str) -> Option<Option<String>> {
        match file.kind.zuno()? {
            FileKind::Agent { name: n } | FileKind::Mode { name: n } => (n == name).then_some(None),
            FileKind::Config => None,
        }
    }

    fn project_of_file(&self, host: &dyn Host, id: usize) -> Option<PathBuf> {
        let f = host.file(id)?;
        project_of(f.kind, f.role)
    }

    fn starts(&self, host: &dyn Host, dir: &Path) -> Vec<PathBuf> {
        projects(host).into_iter().filter(|p| p.starts_with(dir)).collect()
    }

    /// The view of the project at `start` and its merged agents.
    fn agents<'h>(
        &self,
        host: &'h dyn Host,
        start: &Path,
    ) -> (Vec<usize>, Box<dyn crate::analysis::agents::AgentSet + 'h>) {
        let view = view_for(host, &host.canonical(start));
        let agents = if view.is_empty() {
            Default::default()
        } else {
            registry(&view_files(host, &view))
        };
        (view, Box::new(super::agents::Agents(agents)))
    }

    fn command_agents(&self, host: &dyn Host, dir: &Path) -> Vec<(String, String)> {
        registry(&view_files(host, &view_for(host, dir)))
            .into_values()
            .filter(|a| !a.flag("disable"))
            .map(|a| (a.name.clone(), a.mode().to_string()))
            .collect()
    }

    /// Model ids as Zuno writes them (`provider/model`), from every config's providers.
    fn models(&self, host: &dyn Host) -> Vec<String> {
        crate::analysis::spec::provider_models(host)
    }

    fn agent_sections(&self, kind: &crate::analysis::FileKind) -> &'static [&'static str] {
        match kind.zuno() {
            Some(FileKind::Config) => &["agents", "agent"],
            _ => &[],
        }
    }
}

/// A Zuno file's project folder and layer.
fn placed<'a>(f: &HostFile<'a>) -> Option<(&'a Path, Layer)> {
    decode(f.kind, f.role)
}

/// The folder and layer of a Zuno file's role (`None` for another dialect's file).
fn decode<'a>(kind: &crate::analysis::FileKind, role: &'a Role) -> Option<(&'a Path, Layer)> {
    let (dir, layer) = role.dialect()?;
    if kind.dialect() != Dialect::Zuno {
        return None;
    }
    Some((dir, *Layer::ALL.get(usize::from(layer))?))
}

/// The project directories of the Zuno files in scope.
pub fn projects(host: &dyn Host) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = host
        .files()
        .filter(|f| f.in_scope)
        .filter_map(|f| placed(&f).filter(|(_, l)| !l.is_global()).map(|(d, _)| d.to_path_buf()))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The Zuno files that Zuno started in `dir` reads, in its merge order (later wins): the
/// global config, bare `zuno.json(c)` from the farthest ancestor down, `.zuno/` configs
/// likewise, then Markdown agents (global, then `.zuno/` ones).
pub fn view_for(host: &dyn Host, dir: &Path) -> Vec<usize> {
    let mut view: Vec<(Layer, usize, &Path, usize)> = host
        .files()
        .filter_map(|f| {
            let (d, layer) = placed(&f)?;
            (layer.is_global() || dir.starts_with(d)).then(|| (layer, d.components().count(), f.path, f.id))
        })
        .collect();
    view.sort();
    view.into_iter().map(|(_, _, _, id)| id).collect()
}

/// The view of a Zuno file: that of its project.
pub fn view_of_file(host: &dyn Host, id: usize) -> Vec<usize> {
    match host.file(id).as_ref().and_then(placed) {
        Some((dir, _)) => view_for(host, dir),
        None => Vec::new(),
    }
}

/// The files of `view` as Zuno's project pass reads them.
pub fn view_files<'h>(host: &'h dyn Host, view: &[usize]) -> Vec<ViewFile<'h>> {
    view.iter()
        .filter_map(|&id| {
            Some(ViewFile {
                file: id,
                zuno: host.file(id)?.analysis.zuno()?,
            })
        })
        .collect()
}

/// The skill names a Zuno file's project can load.
pub fn skills_of_file(host: &dyn Host, id: usize) -> Vec<String> {
    match host.file(id).as_ref().and_then(placed) {
        Some((dir, _)) => host.skill_names(Dialect::Zuno, dir).unwrap_or_default(),
        None => Vec::new(),
    }
}

/// What Zuno completion offers in file `id`: the agents of its view and the skills it can load.
pub fn known(host: &dyn Host, id: Option<usize>) -> Known {
    let (view, skills) = match id {
        Some(id) => (view_of_file(host, id), skills_of_file(host, id)),
        None => (Vec::new(), Vec::new()),
    };
    let reg = registry(&view_files(host, &view));
    Known {
        agents: reg
            .values()
            .filter(|a| !a.flag("disable") && !a.flag("hidden"))
            .map(|a| {
                (
                    a.name.clone(),
                    a.mode().to_string(),
                    a.str("description").unwrap_or("").to_string(),
                )
            })
            .collect(),
        skills,
    }
}

/// Hover in a Zuno file: the merged agent on an agent name (an `agents` key, a frontmatter's
/// `---` or `name`, a `default_agent` or `delegates` value), documentation on keys.
fn hover(host: &dyn Host, id: usize, offset: usize, where_is: WhereIs) -> Option<Hover> {
    let f = host.file(id)?;
    let z = f.analysis.zuno()?;
    let card = |name: &str| -> Option<String> {
        let view = view_of_file(host, id);
        let reg = registry(&view_files(host, &view));
        reg.get(name).map(|a| super::card::card(a, where_is))
    };
    for d in &z.agents {
        if d.span.contains(offset) {
            return Some(Hover::new(card(&d.name)?, d.span));
        }
    }
    for r in z.refs.iter().filter(|r| r.kind != RefKind::RequiredSkill) {
        if r.span.contains(offset) {
            return Some(Hover::new(card(&r.name)?, r.span));
        }
    }
    if let (Some(close), Some(d)) = (z.close, z.agents.first())
        && close.contains(offset)
    {
        return Some(Hover::new(card(&d.name)?, close));
    }
    let root = f.analysis.parsed.root.as_ref()?;
    let path = path_at(root, offset);
    let last = path.last()?;
    if !last.on_key {
        return None;
    }
    let keys: Vec<&str> = path.iter().map(|s| s.key.name.as_str()).collect();
    let config = f.kind.zuno() == Some(&FileKind::Config);
    // Where the agent settings start in the path: 0 in a frontmatter, 2 under `agents.<name>`;
    // `None` outside an agent (the path is then relative to the top level).
    let base = if !config {
        Some(0)
    } else if keys.len() >= 3 && matches!(keys[0], "agents" | "agent") {
        Some(2)
    } else {
        None
    };
    let mut who_may = None;
    let doc = if config && keys.len() == 1 {
        schema::TOP_LEVEL
            .iter()
            .find(|(k, _)| *k == keys[0])
            .map(|(k, d)| format!("**`{k}`** (Zuno setting)\n\n{d}\n"))
    } else if let Some(b) = base.filter(|b| keys.len() == b + 1) {
        schema::agent_field(keys[b]).map(|fd| format!("**`{}`** (Zuno agent field)\n\n{}\n", fd.name, fd.doc))
    } else {
        let start = base.unwrap_or(0).min(keys.len());
        let rel = &keys[start..];
        match rel {
            ["permission", "rules", k] => schema::PERMISSION_KEYS
                .iter()
                .find(|(n, _)| n == k)
                .map(|(n, d)| format!("**`{n}`** permission (Zuno)\n\n{d}\n")),
            ["permission", "rules", perm, pattern] => {
                who_may = Some((perm.to_string(), pattern.to_string()));
                pattern_doc(&path[start + 1], perm, pattern)
            }
            _ => None,
        }
    }?;
    Some(Hover {
        text: doc,
        span: last.key.span,
        who_may,
    })
}

/// The explanation of one pattern rule of a Zuno `permission.rules` block (`rules`: its step),
/// with the block's rules in the order written (Zuno keeps it; the last match wins).
fn pattern_doc(rules: &Step, perm: &str, pattern: &str) -> Option<String> {
    let mut triples: Vec<(&str, &str, &str)> = Vec::new();
    for tool in rules.value.as_map()?.entries.iter() {
        if let Some(action) = tool.value.as_str() {
            triples.push((&tool.key.name, "*", action));
        } else if let Some(patterns) = tool.value.as_map() {
            for rule in patterns.entries.iter() {
                if let Some(action) = rule.value.as_str() {
                    triples.push((&tool.key.name, &rule.key.name, action));
                }
            }
        }
    }
    let index = triples.iter().position(|(p, q, _)| *p == perm && *q == pattern)?;
    Some(crate::analysis::permission::pattern_doc(&triples, index))
}

/// The agent names of a Zuno file: agent keys and frontmatter names (definitions);
/// `default_agent` and `delegates` (references).
fn agent_names(f: &HostFile) -> Option<Vec<NameAt>> {
    let z = f.analysis.zuno()?;
    let defs = z.agents.iter().map(|d| NameAt::definition(&d.name, d.span));
    let refs = z
        .refs
        .iter()
        .filter(|r| r.kind != RefKind::RequiredSkill)
        .map(|r| NameAt::reference(&r.name, r.span));
    Some(defs.chain(refs).collect())
}

/// The project folder of a Zuno project file (not a global one), by its kind and role.
pub fn project_of(kind: &crate::analysis::FileKind, role: &Role) -> Option<PathBuf> {
    let (dir, layer) = decode(kind, role)?;
    (!layer.is_global()).then(|| dir.to_path_buf())
}

/// Zuno's project pass over `view`, the files Zuno started in `dir` reads.
pub fn check_project(host: &dyn Host, dir: &Path, view: &[usize]) -> Vec<(usize, crate::analysis::Diagnostic)> {
    let skills = host.skill_names(Dialect::Zuno, dir);
    super::project::check(&view_files(host, view), skills.as_deref())
}
