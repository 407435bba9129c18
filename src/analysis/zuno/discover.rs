//! Which files Zuno reads, and as what: `zuno.json(c)` (bare in a project, in `.zuno/`, or in the
//! global directory) and the Markdown agents of `.zuno/` and of the global directory. Pure path
//! logic; the disk is asked through a [`Disk`].

use std::path::{Path, PathBuf};

/// Zuno's global config directory (`$XDG_CONFIG_HOME/zuno` or `~/.config/zuno`), under this name
/// in [`Options`].
pub const GLOBAL: &str = "zuno.global";

use super::FileKind;
use crate::analysis::discovery::{Claim, Disk, Load, Pile, Stage, UserLayer, agent_name_from_relative_path};
use crate::analysis::host::{Options, Role};

/// Zuno's config file names.
pub const CONFIG_NAMES: &[&str] = &["zuno.json", "zuno.jsonc"];
/// The folders of a config directory whose Markdown files are agents (`mode(s)/` is refused).
const AGENT_FOLDERS: [&str; 4] = ["agent", "agents", "mode", "modes"];

/// What a file is to Zuno, from its path: `zuno.json(c)` (bare in a project, in `.zuno/`, or in
/// the global directory), or a Markdown agent under `{agent,agents}/` (or a rejected
/// `{mode,modes}/`) of a `.zuno/` directory or of the global directory. With the project
/// directory it belongs to (the global directory for global files) and its layer.
pub fn zuno_kind(path: &Path, global: Option<&Path>) -> Option<(FileKind, PathBuf, Layer)> {
    let name = path.file_name()?.to_string_lossy();
    let parent = path.parent()?;
    let is_dot = |d: &Path| d.file_name().is_some_and(|n| n == ".zuno");
    if CONFIG_NAMES.contains(&name.as_ref()) {
        return Some(if global == Some(parent) {
            (FileKind::Config, parent.to_path_buf(), Layer::GlobalConfig)
        } else if is_dot(parent) {
            (FileKind::Config, parent.parent()?.to_path_buf(), Layer::DotConfig)
        } else {
            (FileKind::Config, parent.to_path_buf(), Layer::ProjectConfig)
        });
    }
    if !name.ends_with(".md") {
        return None;
    }
    for anc in path.ancestors().skip(1) {
        let Some(folder) = anc.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            break;
        };
        if !AGENT_FOLDERS.contains(&folder.as_str()) {
            continue;
        }
        let Some(dir) = anc.parent() else { break };
        let (owner, layer) = if global == Some(dir) {
            (dir.to_path_buf(), Layer::GlobalAgent)
        } else if is_dot(dir) {
            (dir.parent()?.to_path_buf(), Layer::DotAgent)
        } else {
            continue;
        };
        let relative = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
        let name = agent_name_from_relative_path(&relative);
        let kind = if folder.starts_with("mode") {
            FileKind::Mode { name }
        } else {
            FileKind::Agent { name }
        };
        return Some((kind, owner, layer));
    }
    None
}

/// What a path is to Zuno (its own files only), with its global directory when `global`.
pub fn kind_of(path: &Path, global: Option<&Path>, stage: Stage) -> Claim {
    if stage != Stage::Own {
        return None;
    }
    let (kind, dir, layer) = zuno_kind(path, global)?;
    Some(Some((kind.into(), layer.role(dir))))
}

/// Whether the walk keeps a file for Zuno: its configs, and Markdown files of an agent, mode or
/// command folder (at any level up to the walk's root).
pub fn walk_keeps(path: &Path, depth: usize) -> Option<Pile> {
    let name = path.file_name()?.to_string_lossy();
    if CONFIG_NAMES.contains(&name.as_ref()) {
        return Some(Pile::Config);
    }
    let in_folder = path.ancestors().skip(1).take(depth).any(|a| {
        a.file_name().is_some_and(|n| {
            ["agent", "agents", "mode", "modes", "command", "commands"].contains(&n.to_string_lossy().as_ref())
        })
    });
    (name.ends_with(".md") && in_folder).then_some(Pile::Document)
}

/// The config files of `dir` and the Markdown files of its agent and mode folders.
fn files_of(dir: &Path, disk: &dyn Disk) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| dir.join(n)).collect();
    for sub in AGENT_FOLDERS {
        let d = dir.join(sub);
        if disk.is_dir(&d) {
            out.extend(disk.markdown_under(&d));
        }
    }
    out
}

/// Zuno's global directory: its config and Markdown agents, read for resolution.
pub fn user_layer(o: &Options, disk: &dyn Disk) -> UserLayer {
    let files = o.user(GLOBAL).map_or_else(Vec::new, |dir| files_of(dir, disk));
    UserLayer {
        files: files.into_iter().map(Load::path).collect(),
        ..UserLayer::default()
    }
}

/// Zuno reads `zuno.json(c)` and `.zuno/` of each folder from where it starts up to the top.
pub fn context_files(dir: &Path, disk: &dyn Disk) -> Vec<Load> {
    let mut files: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| dir.join(n)).collect();
    files.extend(files_of(&dir.join(".zuno"), disk));
    files.into_iter().map(|p| Load::path(p).quiet()).collect()
}

/// The skills a Zuno project can load: `.zuno/{skill,skills}/**/SKILL.md` and
/// `.agents/skills/**/SKILL.md` of the project and its ancestors up to the worktree's top, and
/// the global `{skill,skills}/`.
pub fn project_skill_files(project: &Path, o: &Options, disk: &dyn Disk) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for anc in project.ancestors().take(64) {
        files.extend(disk.skill_files(&anc.join(".zuno"), &["skill", "skills"], true));
        files.extend(disk.skill_files(&anc.join(".agents"), &["skills"], true));
        if disk.is_dir(&anc.join(".git")) || disk.is_file(&anc.join(".git")) {
            break;
        }
    }
    if let Some(g) = o.user(GLOBAL) {
        files.extend(disk.skill_files(g, &["skill", "skills"], true));
    }
    files
}

/// Where a Zuno file sits in Zuno's merge order (its [`Role::Dialect`] layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layer {
    GlobalConfig,
    /// A bare `zuno.json(c)` of a project directory.
    ProjectConfig,
    /// `.zuno/zuno.json(c)`.
    DotConfig,
    GlobalAgent,
    /// A Markdown agent of a `.zuno/` directory.
    DotAgent,
}

impl Layer {
    pub(super) const ALL: [Layer; 5] = [
        Layer::GlobalConfig,
        Layer::ProjectConfig,
        Layer::DotConfig,
        Layer::GlobalAgent,
        Layer::DotAgent,
    ];

    pub fn is_global(self) -> bool {
        matches!(self, Layer::GlobalConfig | Layer::GlobalAgent)
    }

    /// The file's role: `dir` is its project (Zuno's global directory for a global file).
    pub fn role(self, dir: PathBuf) -> Role {
        Role::Dialect { dir, layer: self as u8 }
    }
}
