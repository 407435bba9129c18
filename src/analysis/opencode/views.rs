//! What opencode reads across files, from the project the workspace holds (a [`Host`]): its
//! views (for a start directory, the files it merges, in order), the environment its
//! effective agents need, its effective agents, and the skills it loads.

use super::place::{Place, config_dir, dir_at, place};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::effective::{self, EffectiveAgent, Env};
use super::{FileKind as OcKind, project};
use crate::analysis::card::PathNames;
use crate::analysis::hash::FxHashSet;
use crate::analysis::host::{Host, HostFile, Role, memoized};
use crate::analysis::provenance::{Source, WhereIs};
use crate::analysis::{Dialect, FileKind};

/// An opencode file's folder and place, if it is one.
type Placed<'a> = Option<(&'a Path, Place)>;

/// How a config directory behaves in the merge order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirKind {
    Global,
    HomeDot,
    EnvDir,
    DotOpencode,
    /// A project directory laid out like a global config directory.
    Layout,
}

pub fn is_dot_opencode(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == ".opencode")
}

/// How the config directory `dir` behaves in the merge order.
pub fn dir_kind(host: &dyn Host, dir: &Path) -> DirKind {
    let o = super::user::of(host.options());
    if o.global_dir == Some(dir) {
        DirKind::Global
    } else if o.home_dot_opencode == Some(dir) {
        DirKind::HomeDot
    } else if o.config_dir == Some(dir) {
        DirKind::EnvDir
    } else if is_dot_opencode(dir) {
        DirKind::DotOpencode
    } else {
        DirKind::Layout
    }
}

/// The folders whose `skills/` opencode reads outside its config folders (`.claude`, `.agents`),
/// as the environment leaves them (`OPENCODE_DISABLE_EXTERNAL_SKILLS` turns both off,
/// `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS` the first).
pub fn external_skill_folders(env: &dyn Fn(&str) -> Option<String>) -> Vec<&'static str> {
    if env("OPENCODE_DISABLE_EXTERNAL_SKILLS").is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if env("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS").is_none() {
        out.push(".claude");
    }
    out.push(".agents");
    out
}

/// The views: for each project directory, the live files opencode would load when started
/// there, in precedence order (later wins). Derived from paths and roles only.
pub fn views(host: &dyn Host) -> Vec<Vec<usize>> {
    project_views(host).into_iter().map(|(_, v)| v).collect()
}

/// The views with the project directory each belongs to (those with a file in scope).
pub fn project_views(host: &dyn Host) -> Vec<(PathBuf, Vec<usize>)> {
    all_project_views(host, false)
}

/// Every project directory's view; `all` keeps those without a file in scope too (a start
/// directory that only sees user-level agents).
pub fn all_project_views(host: &dyn Host, all: bool) -> Vec<(PathBuf, Vec<usize>)> {
    let live: Vec<HostFile> = host.files().collect();
    let sorted = |mut files: Vec<&HostFile>| {
        // Within a directory: `.json` before `.jsonc`; agents before modes, then by path.
        files.sort_by_key(|f| {
            (
                matches!(f.kind, FileKind::Opencode(OcKind::Mode { .. })),
                f.path.extension().is_some_and(|e| e == "jsonc"),
                f.path,
            )
        });
        files.into_iter().map(|f| f.id).collect::<Vec<usize>>()
    };
    let select = |pred: &dyn Fn(Placed) -> bool| sorted(live.iter().filter(|f| pred(place(f))).collect());
    let mut user: Vec<(u8, usize)> = live
        .iter()
        .filter_map(|f| match place(f) {
            Some((_, Place::User(o))) => Some((o, f.id)),
            _ => None,
        })
        .collect();
    // By order, then by id (a stable sort of ids by order).
    user.sort_by_key(|(o, _)| *o);
    let user: Vec<usize> = user.into_iter().map(|(_, id)| id).collect();
    // Project directories.
    let mut projects: Vec<PathBuf> = host.roots().to_vec();
    for f in &live {
        match place(f) {
            Some((dir, Place::Project)) => projects.push(dir.to_path_buf()),
            Some((dir, Place::Dir | Place::Markdown)) => match dir_kind(host, dir) {
                DirKind::DotOpencode => projects.extend(dir.parent().map(Path::to_path_buf)),
                DirKind::Layout => projects.push(dir.to_path_buf()),
                _ => {}
            },
            _ => {}
        }
    }
    projects.sort();
    projects.dedup();
    let user_dir = |kind: DirKind| {
        select(&|p| match p {
            Some((dir, Place::Dir | Place::Markdown)) => dir_kind(host, dir) == kind,
            _ => false,
        })
    };
    let global_md = user_dir(DirKind::Global);
    let home_dot = user_dir(DirKind::HomeDot);
    let env_dir = user_dir(DirKind::EnvDir);
    let in_scope: HashSet<usize> = live.iter().filter(|f| f.in_scope).map(|f| f.id).collect();
    let mut views = Vec::new();
    for p in &projects {
        // The chain of directories runs from the farthest root or worktree top above `p`.
        let root = host
            .roots()
            .iter()
            .chain(host.context_roots())
            .filter(|r| p.starts_with(r))
            .min_by_key(|r| r.as_os_str().len());
        let mut chain: Vec<&Path> = match root {
            Some(r) => p.ancestors().take_while(|a| a.starts_with(r)).collect(),
            None => vec![p.as_path()],
        };
        chain.reverse(); // farthest first
        let mut view = user.clone();
        for d in &chain {
            view.extend(select(&|p| matches!(p, Some((dir, Place::Project)) if dir == *d)));
        }
        view.extend(global_md.iter().copied());
        for d in &chain {
            if dir_kind(host, d) == DirKind::Layout {
                view.extend(select(&|p| matches!(p, Some((dir, Place::Markdown)) if dir == *d)));
            }
        }
        for d in chain.iter().rev() {
            let dot = d.join(".opencode");
            view.extend(select(&|p| matches!(p, Some((dir, Place::Dir)) if dir == dot)));
            view.extend(select(&|p| matches!(p, Some((dir, Place::Markdown)) if dir == dot)));
        }
        // opencode's command files of those `.opencode/` folders: read at start (a schema
        // error there refuses the configuration).
        for d in &chain {
            view.extend(
                live.iter()
                    .filter(|f| {
                        matches!(f.role, Role::Command { dir } if dir == d)
                            && matches!(f.kind, FileKind::Command(k) if k.runtime == Dialect::Opencode)
                    })
                    .map(|f| f.id),
            );
        }
        view.extend(home_dot.iter().copied());
        view.extend(env_dir.iter().copied());
        let mut seen = HashSet::new();
        view.retain(|i| seen.insert(*i));
        if all || view.iter().any(|i| in_scope.contains(i)) {
            views.push((p.clone(), view));
        }
    }
    views
}

/// The files opencode loads when started in `dir` (the view of the nearest project at or
/// above it); only user-level files when there is none.
pub fn view_for(host: &dyn Host, dir: &Path) -> Vec<usize> {
    let dir = host.canonical(dir);
    let views = all_project_views(host, true);
    views
        .iter()
        .filter(|(p, _)| dir.starts_with(host.canonical(p)))
        .max_by_key(|(p, _)| p.as_os_str().len())
        .or_else(|| views.first())
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// The view in which to show a file's agents: the one of the project the file belongs to
/// (a nested project's view also contains its ancestors' files, but is not theirs).
pub fn view_of_file(host: &dyn Host, id: usize) -> Vec<usize> {
    let own = project_dir_of_file(host, id);
    let views = project_views(host);
    let containing = || views.iter().filter(|(_, v)| v.contains(&id));
    own.and_then(|own| containing().find(|(p, _)| *p == own))
        .or_else(|| containing().min_by_key(|(p, _)| p.as_os_str().len()))
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| vec![id])
}

/// Files of one config directory share a group (their directory's first file id).
pub fn groups(host: &dyn Host) -> Vec<usize> {
    let mut first: HashMap<&Path, usize> = HashMap::new();
    (0..host.slots())
        .map(|id| match host.file(id).as_ref().and_then(config_dir) {
            Some(dir) => *first.entry(dir).or_insert(id),
            None => id,
        })
        .collect()
}

/// The view as the core takes it.
pub fn view_files<'h>(host: &'h dyn Host, view: &[usize]) -> Vec<project::ViewFile<'h>> {
    let groups = groups(host);
    view.iter()
        .filter_map(|&id| Some(host.file(id)?.effective.opencode_view(id, groups[id])))
        .collect()
}

/// What the effective-agent model needs from the environment when opencode is started in
/// `start`: opencode's data and temporary directories, the home directory, the worktree (the
/// nearest directory holding `.git`, `/` outside git) and the skill directories, found as
/// opencode finds them (spec §12.1; `skills.paths` and `skills.urls` are not read).
pub fn effective_env(host: &dyn Host, start: &Path) -> Env {
    let home = host.disk().env("HOME");
    let data_dir = host
        .disk()
        .env("XDG_DATA_HOME")
        .map(|x| format!("{x}/opencode"))
        .or_else(|| home.as_ref().map(|h| format!("{h}/.local/share/opencode")))
        .unwrap_or_else(|| "~/.local/share/opencode".into());
    let tmp = host.temp_dir();
    let tmp = tmp.to_string_lossy();
    let tmp_dir = format!("{}/opencode", tmp.trim_end_matches('/'));
    let start = host.canonical(start);
    let worktree = start
        .ancestors()
        .find(|a| host.disk().exists(&a.join(".git")))
        .unwrap_or(Path::new("/"))
        .to_path_buf();
    let skill_dirs = skill_dirs(host, &start, &worktree);
    Env {
        data_dir,
        home,
        tmp_dir,
        worktree: Some(worktree.to_string_lossy().into_owned()),
        skill_dirs,
    }
}

/// [`effective_env`], remembered per directory until the files change place (it reads the
/// disk for skill folders).
pub fn effective_env_cached(host: &dyn Host, start: &Path) -> Env {
    memoized(host, start, || effective_env(host, start))
}

/// The directory of every `SKILL.md` opencode 1.18 finds when started in `start`, in its order:
/// `~/.claude/skills` and `~/.agents/skills`, the `.claude/skills` and `.agents/skills` of each
/// directory from `start` up to the worktree, then the `{skill,skills}/` folders of the config
/// directories.
fn skill_dirs(host: &dyn Host, start: &Path, worktree: &Path) -> Vec<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    let external = external_skill_folders(&|k| host.disk().env(k));
    let o = super::user::of(host.options());
    if let Some(home) = o.home {
        for e in &external {
            files.extend(host.disk().skill_files(&home.join(e), &["skills"], true));
        }
    }
    for dir in start.ancestors() {
        for e in &external {
            files.extend(host.disk().skill_files(&dir.join(e), &["skills"], true));
        }
        if dir == worktree {
            break;
        }
    }
    let mut config_dirs: Vec<PathBuf> = Vec::new();
    config_dirs.extend(o.global_dir.map(Path::to_path_buf));
    for dir in start.ancestors() {
        config_dirs.push(dir.join(".opencode"));
        if dir == worktree {
            break;
        }
    }
    config_dirs.extend(o.home_dot_opencode.map(Path::to_path_buf));
    config_dirs.extend(o.config_dir.map(Path::to_path_buf));
    let mut seen = HashSet::new();
    for d in config_dirs.into_iter().filter(|d| seen.insert(d.clone())) {
        files.extend(host.disk().skill_files(&d, &["skill", "skills"], false));
    }
    let mut dirs: Vec<String> = Vec::new();
    for f in files {
        if let Some(parent) = f.parent() {
            let d = parent.to_string_lossy().into_owned();
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
    }
    dirs
}

/// The agent an opencode Markdown agent or mode file defines (its name, from its path).
pub fn markdown_agent(host: &dyn Host, id: usize) -> Option<&str> {
    match host.file(id)?.kind {
        FileKind::Opencode(OcKind::Agent { name } | OcKind::Mode { name }) => Some(name),
        _ => None,
    }
}

/// opencode's effective agents of `view` (file ids in merge order) as started in `dir`; with
/// `only`, just the agents of those names.
pub fn effective_agents(
    host: &dyn Host,
    view: &[usize],
    dir: &Path,
    only: Option<&FxHashSet<&str>>,
) -> Vec<EffectiveAgent> {
    effective_grouped(host, &view_files(host, view), dir, only)
}

/// [`effective_agents`] of `view` whose files' groups are known (`groups[i]` for `view[i]`, as
/// the workspace's units compute them): no pass over the workspace.
pub fn effective_agents_in(
    host: &dyn Host,
    view: &[usize],
    groups: &[usize],
    dir: &Path,
    only: Option<&FxHashSet<&str>>,
) -> Vec<EffectiveAgent> {
    let files: Vec<project::ViewFile> = view
        .iter()
        .zip(groups)
        .filter_map(|(&id, &group)| Some(host.file(id)?.effective.opencode_view(id, group)))
        .collect();
    effective_grouped(host, &files, dir, only)
}

fn effective_grouped(
    host: &dyn Host,
    files: &[project::ViewFile],
    dir: &Path,
    only: Option<&FxHashSet<&str>>,
) -> Vec<EffectiveAgent> {
    let env = effective_env_cached(host, dir);
    match only {
        Some(names) => effective::agents_named(files, &env, names),
        None => effective::agents(files, &env),
    }
}

/// The project directory a file belongs to (where opencode would be started to load it).
pub fn project_dir_of_file(host: &dyn Host, id: usize) -> Option<PathBuf> {
    match place(&host.file(id)?)? {
        (dir, Place::Project) => Some(dir.to_path_buf()),
        (dir, Place::Dir | Place::Markdown) if is_dot_opencode(dir) => dir.parent().map(Path::to_path_buf),
        (dir, Place::Dir | Place::Markdown) => Some(dir.to_path_buf()),
        _ => None,
    }
}

/// The environment for a file's view: started in its project, else in the first root.
pub fn effective_env_for_file(host: &dyn Host, id: Option<usize>) -> Env {
    let start = id
        .and_then(|id| project_dir_of_file(host, id))
        .or_else(|| host.roots().first().cloned())
        .unwrap_or_else(|| PathBuf::from("/"));
    effective_env(host, &start)
}

/// How cards show the machine's paths for a runtime started in `start` (whose environment is
/// `env`): relative to `start`, `~` for the home, skill folders as skills.
pub fn path_names(host: &dyn Host, start: &Path, env: &Env) -> PathNames {
    let start = host.canonical(start);
    PathNames {
        root: Some(start.to_string_lossy().into_owned()),
        home: env.home.clone(),
        tmp: env.tmp_dir.strip_suffix("/opencode").map(str::to_string),
        skills: env.skill_dirs.clone(),
    }
}

/// The names of the skills opencode started in `project` loads: the user-level ones, those of
/// the workspace's `SKILL.md` files that it reads from there (the project's and its ancestors'
/// `.opencode/`, `.claude/` and `.agents/` skill folders); not the built-in
/// `customize-opencode`. A name can appear twice (a duplicate skill).
pub fn skills(host: &dyn Host, project: &Path) -> Vec<(String, Option<usize>)> {
    let mut out: Vec<(String, Option<usize>)> = host
        .user_skill_names(Dialect::Opencode)
        .iter()
        .map(|n| (n.clone(), None))
        .collect();
    for f in host.files() {
        let (Role::Skill { dir }, FileKind::Skill(kind), Some(decl)) = (f.role, f.kind, f.analysis.skill()) else {
            continue;
        };
        // The name opencode registers, when it loads the skill (as it reads it).
        if kind.loaders.contains(&Dialect::Opencode)
            && project.starts_with(dir)
            && let Some(name) = decl.name_for(Dialect::Opencode)
        {
            out.push((name.to_string(), Some(f.id)));
        }
    }
    out
}

/// What opencode completion offers in file `id`: the agents of its view and the models known.
pub fn known(host: &dyn Host, id: Option<usize>) -> super::complete::Known {
    let view = id.map(|id| view_of_file(host, id)).unwrap_or_default();
    let env = effective_env_for_file(host, id);
    let agents = effective::agents(&view_files(host, &view), &env);
    super::complete::Known {
        agents: agents
            .iter()
            .filter(|a| !a.hidden.value)
            .map(|a| {
                let d = a.description.as_ref().map(|d| d.value.clone()).unwrap_or_default();
                (a.name.clone(), a.mode.value.clone(), d)
            })
            .collect(),
        models: crate::analysis::spec::provider_models(host),
    }
}

/// The agents (name, mode) an opencode command in `dir` may name: the registry of the view
/// there (names and modes only, not the full effective agents), disabled ones left out.
pub fn command_agents(host: &dyn Host, dir: &Path) -> Vec<(String, String)> {
    let view = view_for(host, dir);
    project::registry(&view_files(host, &view))
        .agents
        .into_iter()
        .filter(|a| a.disabled.is_none())
        .map(|a| (a.name, a.mode.value))
        .collect()
}

/// Which opencode agents of the project in `dir` may load skill `name`: each agent's `skill`
/// permission for it (a denied skill is not listed to the model at all), with the deciding rule.
pub fn skill_access(host: &dyn Host, dir: &Path, name: &str, where_is: WhereIs) -> String {
    let view = view_for(host, dir);
    let agents = effective::agents(&view_files(host, &view), &effective_env(host, dir));
    if agents.is_empty() {
        return String::new();
    }
    let mut md =
        String::from("\n**opencode agents** (`skill` permission):\n\n| agent | may load it | rule |\n|---|---|---|\n");
    // opencode's internal agents (compaction, title, summary) never load skills.
    for a in agents.iter().filter(|a| !(a.native && a.hidden.value)) {
        let (action, rule) = a.evaluate("skill", name);
        let verdict = match action {
            "allow" => "yes",
            "deny" => "no (hidden from it)",
            _ => "asks first",
        };
        let why = match rule {
            Some(r) => {
                let written = if r.pattern == "*" {
                    format!("`{}: {}`", r.permission, r.action)
                } else {
                    format!("`{} \"{}\": {}`", r.permission, r.pattern, r.action)
                };
                match r.source {
                    Source::File { .. } => format!("{written} {}", where_is(r.source)),
                    Source::BuiltIn => format!("{written} (default)"),
                }
            }
            None => "no rule (asks)".to_string(),
        };
        md.push_str(&format!("| `{}` | {verdict} | {why} |\n", a.name));
    }
    md
}

/// The `theme` of each `tui.json` against the themes opencode started there has (see
/// [`crate::analysis::opencode::theme::check_choice`]).
pub fn theme_checks(host: &dyn Host) -> Vec<(usize, crate::analysis::Diagnostic)> {
    use super::theme;
    let themes: Vec<(&Path, &str, bool)> = host
        .files()
        .filter(|f| f.kind.is_theme())
        .filter_map(|f| {
            let dir = dir_at(&f, Place::Theme)?;
            let stem = f.path.file_stem()?.to_str()?;
            let parses = !f
                .analysis
                .diagnostics
                .iter()
                .any(|d| d.code == crate::analysis::Code::SyntaxError);
            Some((dir, stem, parses))
        })
        .collect();
    let global = super::user::of(host.options()).global_dir;
    let mut out = Vec::new();
    for f in host.files().filter(|f| f.kind.is_tui()) {
        let id = f.id;
        let Some(dir) = dir_at(&f, Place::Tui) else { continue };
        let Some(v) = f
            .analysis
            .parsed
            .root
            .as_ref()
            .and_then(|r| r.as_map())
            .and_then(|m| m.value("theme"))
        else {
            continue;
        };
        let Some(wanted) = v.as_str() else { continue };
        // Where opencode starts to read this file: the project (the folder above a
        // `.opencode/`); a user folder's file applies anywhere.
        let start = if is_dot_opencode(dir) { dir.parent() } else { Some(dir) };
        let user = global == Some(dir) || dir_kind(host, dir) != DirKind::Layout && !is_dot_opencode(dir);
        let visible: Vec<&(&Path, &str, bool)> = themes
            .iter()
            .filter(|(d, _, _)| {
                user || Some(*d) == global || d.parent().zip(start).is_some_and(|(p, s)| s.starts_with(p))
            })
            .collect();
        let custom: Vec<&str> = visible.iter().map(|(_, n, _)| *n).collect();
        let broken = visible.iter().find(|(_, _, parses)| !parses).map(|(d, n, _)| {
            let folder = d.file_name().map(|f| f.to_string_lossy()).unwrap_or_default();
            format!("{folder}/themes/{n}.json")
        });
        if let Some(d) = theme::check_choice(wanted, v.span, &custom, broken.as_deref(), global.is_some()) {
            out.push((id, d));
        }
    }
    out
}

/// What the workspace's name-level checks read of an opencode file, hashed: for a
/// Markdown agent or mode, a config): the agents it declares (name, origin, place, whether
/// `disable` is set, how its prompt reads, its `skill` permission patterns), the names it refers
/// to, how opencode reads it, whether it lists plugins or skill sources, and its top-level
/// `skill` permission patterns; not the agents' other settings (`mode`, `model`,
/// permissions...), which only the checks of the agents they name read. `None` for a file
/// of another kind.
pub fn names_key(kind: &crate::analysis::FileKind, a: &crate::analysis::FileAnalysis) -> Option<u64> {
    use crate::analysis::syntax::{Map, Node};
    use std::hash::{Hash, Hasher};
    kind.opencode()?;
    let mut h = crate::analysis::hash::FxHasher::default();
    fn sub<'a>(m: Option<&'a Map>, key: &str) -> Option<&'a Map> {
        m.and_then(|m| m.value(key)).and_then(Node::as_map)
    }
    let skill_patterns = |h: &mut crate::analysis::hash::FxHasher, permission: Option<&Map>| {
        for e in sub(permission, "skill").iter().flat_map(|m| m.entries.iter()) {
            (&e.key.name, e.key.span).hash(h);
        }
        h.write_u8(0xfe);
    };
    for d in a.agents() {
        d.name.hash(&mut h);
        (d.span, d.origin as u8, d.whole_file, d.body_empty, d.prompt_hash).hash(&mut h);
        d.bool_field("disable").map(|(b, _)| b).hash(&mut h);
        d.field("prompt").and_then(Node::as_str).hash(&mut h);
        // `overridden-deny`: an agent's permission and `tools`, when they allow something.
        for key in ["permission", "tools"] {
            match d.field(key) {
                Some(n) if super::overridden::grants(n, 2) => hash_tree(n, 2, &mut h),
                _ => h.write_u8(0),
            }
        }
        // `undescribed-subagent`: the name it is listed by (a config entry's `name`), which the
        // finding names; the mode; whether a description is there, blank (then where: the
        // finding is on it) or not; where the mode is written when there is none (the finding
        // may be on it). Typing in a description or above a described agent's mode changes none.
        d.field("name").and_then(Node::as_str).hash(&mut h);
        let mode = d.mode();
        mode.map(|(m, _)| m).hash(&mut h);
        match d.field("description") {
            None => (0u8, mode.and_then(|(_, at)| at)).hash(&mut h),
            Some(n) if n.as_str().is_some_and(|t| t.trim().is_empty()) => (1u8, Some(n.span)).hash(&mut h),
            Some(_) => 2u8.hash(&mut h),
        }
        skill_patterns(&mut h, sub(d.node.as_ref().and_then(Node::as_map), "permission"));
    }
    h.write_u8(0xff);
    for r in a.refs() {
        (&r.name, r.span, r.kind as u8).hash(&mut h);
    }
    (a.reading().map(|r| r as u8), a.has_plugins(), a.opencode().scripted).hash(&mut h);
    a.split().map(|s| s.misplaced_open.is_some()).hash(&mut h);
    let root = a.parsed.root.as_ref().and_then(Node::as_map);
    skill_patterns(&mut h, sub(root, "permission"));
    // `overridden-deny`: the top-level `permission` and `tools` every agent gets (a config's).
    if a.opencode().split.is_none() {
        for key in ["permission", "tools"] {
            match root.and_then(|m| m.value(key)) {
                Some(n) => hash_tree(n, 2, &mut h),
                None => h.write_u8(0),
            }
        }
    }
    // Whether it lists skill sources (then any skill name may exist).
    super::project::lists_skill_sources(a.parsed.root.as_ref()).hash(&mut h);
    Some(h.finish())
}

/// The keys, scalar values and spans of `node` down to `depth` levels, hashed.
fn hash_tree(node: &crate::analysis::syntax::Node, depth: usize, h: &mut crate::analysis::hash::FxHasher) {
    use crate::analysis::syntax::Value;
    use std::hash::{Hash, Hasher};
    node.span.hash(h);
    match &node.value {
        Value::Str(s) => s.hash(h),
        Value::Bool(b) => b.hash(h),
        Value::Map(m) if depth > 0 => {
            for e in m.entries.iter() {
                (&e.key.name, e.key.span).hash(h);
                hash_tree(&e.value, depth - 1, h);
            }
            h.write_u8(0xfd);
        }
        other => std::mem::discriminant(other).hash(h),
    }
}
