//! What a dialect's runtime reads, and as what: the types of the discovery part of the dialect
//! interface ([`super::spec::DialectSpec`]). A dialect's path rules are pure functions of a path;
//! where they must look at the disk (is there a plugin manifest above this file?), they ask a
//! [`Disk`], which the workspace implements. The walk itself, its bounds and the ignore rules
//! live in the workspace, which never names a dialect.

use std::path::{Path, PathBuf};

use super::command::CommandKind;
pub use super::host::Disk;
use super::host::Role;
pub use super::naming::{agent_name_from_relative_path, skill_name};
use super::skill::SkillKind;
use super::{Dialect, FileKind};

/// When a dialect's path rules are asked what a path is: the workspace asks every dialect at
/// one stage (in registry order) before the next, and the first answer wins. A runtime's own
/// places come first; the places several runtimes share (the Agent Skills and command folders)
/// sit between the stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The dialect's own files: its config files and folders.
    Own,
    /// After the skill folders the runtimes share: skills of the user's own folders.
    UserSkills,
    /// After the command folders the runtimes share: files a runtime reads by name wherever
    /// they sit (Claude Code's memory files).
    ByName,
    /// Last: files known only by the layout of the folder they sit in.
    Layout,
}

/// What a dialect's path rule says of a path: `None` when it has no opinion (the next rule is
/// asked), `Some(None)` when the file is its runtime's but is not read where it sits and no other
/// runtime's rule may claim it, `Some(Some(..))` its kind and role.
pub type Claim = Option<Option<(FileKind, Role)>>;

/// Which pile the walk puts a file it keeps on: configs are read first (they decide what other
/// files are: a config folder, a plugin's members), documents after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pile {
    Config,
    Document,
}

/// A file a dialect loads, found by its own rules: with its kind and role when the dialect
/// knows them already (then it found the file on disk), else the workspace asks the path rules
/// (where the file exists).
#[derive(Clone, Debug, PartialEq)]
pub struct Load {
    pub path: PathBuf,
    pub known: Option<(FileKind, Role)>,
    /// Whether its problems are reported when it lies under the folders the user asked about
    /// (`false`: read for resolution only, as the user's agents are).
    pub report: bool,
}

impl Load {
    /// A file whose kind the path rules give, reported when under the user's folders.
    pub fn path(path: PathBuf) -> Load {
        Load {
            path,
            known: None,
            report: true,
        }
    }

    /// A file of a known kind and role, reported when under the user's folders.
    pub fn known(path: PathBuf, kind: FileKind, role: Role) -> Load {
        Load {
            path,
            known: Some((kind, role)),
            report: true,
        }
    }

    /// Read for resolution only: never reported.
    pub fn quiet(self) -> Load {
        Load { report: false, ..self }
    }
}

/// What a dialect reads of the user's own folders when the workspace loads.
#[derive(Default)]
pub struct UserLayer {
    /// Its files, in the order they load (those missing on disk are skipped).
    pub files: Vec<Load>,
    /// The names of the skills its runtime finds in the user's folders (`None`: it reads none).
    pub skill_names: Option<Vec<String>>,
    /// What else it read there, for its own answers (see `Host::dialect_state`).
    pub state: Option<Box<dyn std::any::Any + Send + Sync>>,
}

/// A folder holding Agent Skills that a runtime reads (`.claude/skills/`): the config folder,
/// its sub-folders that hold skills, and how deep a skill may sit.
#[derive(Clone, Copy, Debug)]
pub struct SkillHome {
    /// The config folder of a project (`.claude`, `.agents`).
    pub folder: &'static str,
    /// Its sub-folders that hold skills, the usual one last (`skill`, `skills`).
    pub subs: &'static [&'static str],
    /// Whether the folder is this runtime's own: its rules and its name for misplaced skills
    /// apply (one runtime owns each folder).
    pub owner: bool,
    /// The depths the runtime reads a `SKILL.md` at, counted in folders from the file up to
    /// `folder` (`.claude/skills/<name>/SKILL.md` is 2, `.gemini/skills/SKILL.md` 1); empty: any
    /// depth.
    pub depths: &'static [usize],
}

/// A folder of command files that a runtime reads (`.claude/commands/`).
#[derive(Clone, Copy, Debug)]
pub struct CommandHome {
    /// The config folder of a project (`.opencode`).
    pub folder: &'static str,
    /// Its sub-folders that hold commands.
    pub subs: &'static [&'static str],
    /// What joins the folders of a command in a sub-folder into its name (`frontend/test.md` is
    /// `frontend:test` with `:`).
    pub separator: char,
}

/// The places every registered runtime reads that the shared path rules consult: the config
/// folders, and the folders of Agent Skills and of command files, each with its runtime.
#[derive(Clone, Debug, Default)]
pub struct Places {
    pub folders: Vec<&'static str>,
    pub skills: Vec<(Dialect, SkillHome)>,
    pub commands: Vec<(Dialect, CommandHome)>,
}

/// What a `SKILL.md` is, from its path, with the project it belongs to: which runtimes load it
/// there (the owner of the folder first), or, inside a runtime's config folder but outside its
/// skill folders, where it should go. `None` for a `SKILL.md` outside those folders (a skill
/// shipped elsewhere, e.g. in a plugin or a docs tree).
pub fn skill_kind(path: &Path, places: &Places) -> Option<(SkillKind, PathBuf)> {
    if path.file_name()? != "SKILL.md" {
        return None;
    }
    let folder = path.parent()?.file_name()?.to_string_lossy().into_owned();
    let comps: Vec<&Path> = path.ancestors().skip(1).collect();
    for (i, anc) in comps.iter().enumerate() {
        let Some(name) = anc.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            break;
        };
        let homes: Vec<&(Dialect, SkillHome)> = places.skills.iter().filter(|(_, h)| h.folder == name).collect();
        let Some(&&(family, owner)) = homes.iter().find(|(_, h)| h.owner).or(homes.first()) else {
            continue;
        };
        let project = anc.parent()?.to_path_buf();
        // The folder right below the config folder: `skills/` (any depth below), or not.
        let under = i
            .checked_sub(1)
            .and_then(|j| comps[j].file_name())
            .map(|n| n.to_string_lossy().into_owned());
        let holds = |h: &SkillHome| under.as_deref().is_some_and(|u| h.subs.contains(&u));
        let kind = if holds(&owner) {
            let mut loaders = vec![];
            for (d, h) in std::iter::once(&(family, owner)).chain(homes.iter().copied()) {
                if holds(h) && (h.depths.is_empty() || h.depths.contains(&i)) && !loaders.contains(d) {
                    loaders.push(*d);
                }
            }
            // Too deep (or too shallow) for every runtime that reads this folder: where it
            // would be read.
            let misplaced = loaders
                .is_empty()
                .then(|| format!("`{name}/{}/{folder}/`", under.as_deref().unwrap_or("skills")));
            SkillKind {
                folder,
                loaders,
                misplaced,
                family,
                namespace: None,
            }
        } else {
            SkillKind {
                misplaced: Some(format!(
                    "`{name}/{}/{folder}/`",
                    owner.subs.last().copied().unwrap_or("skills")
                )),
                folder,
                loaders: Vec::new(),
                family,
                namespace: None,
            }
        };
        return Some((kind, project));
    }
    None
}

/// What a command file is, from its path: a Markdown file below a runtime's command folder
/// (`.claude/commands/**/*.md`), named by its path below that folder; with the project it
/// belongs to.
pub fn command_kind(path: &Path, places: &Places) -> Option<(CommandKind, PathBuf)> {
    path.file_name()?.to_string_lossy().strip_suffix(".md")?;
    for anc in path.ancestors().skip(1) {
        let Some(folder) = anc.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            break;
        };
        let Some(config) = anc.parent() else { break };
        let config_name = config.file_name().map(|n| n.to_string_lossy().into_owned());
        let Some((runtime, home)) = places
            .commands
            .iter()
            .find(|(_, h)| config_name.as_deref() == Some(h.folder) && h.subs.contains(&folder.as_str()))
        else {
            continue;
        };
        let rel = path.strip_prefix(anc).ok()?.to_string_lossy().replace('\\', "/");
        let rel = rel.strip_suffix(".md").unwrap_or(&rel);
        // A command in a sub-folder is named with its folders (`commands/frontend/test.md` is
        // `/frontend:test` in Claude Code).
        let name = rel.replace('/', &home.separator.to_string());
        return Some((
            CommandKind {
                runtime: *runtime,
                name,
                plugin: false,
            },
            config.parent()?.to_path_buf(),
        ));
    }
    None
}

/// A path with `.` and `..` components resolved lexically (as Node's `path.resolve` does).
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}
