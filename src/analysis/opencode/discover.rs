//! Which files opencode reads, and as what (spec §2): config files, the Markdown agents and
//! commands of config directories, themes, `tui.json` and the user's folders. Pure path logic;
//! the disk is asked through a [`Disk`].

use super::place::Place;
use std::path::{Path, PathBuf};

use super::views::{DirKind, dir_kind, external_skill_folders, is_dot_opencode};
use super::{FileKind as OcKind, agent_name_from_relative_path};
use crate::analysis::command::CommandKind;
use crate::analysis::discovery::{Claim, Disk, Load, Pile, Stage, UserLayer, skill_name};
use crate::analysis::host::{Host, Options, Role};
use crate::analysis::skill::SkillKind;
use crate::analysis::spec::At;
use crate::analysis::{Dialect, FileKind};

/// opencode's config file names.
pub const CONFIG_NAMES: &[&str] = &["opencode.json", "opencode.jsonc"];
/// The settings of opencode's terminal interface, read from a project (and the folders above
/// it), every `.opencode/` folder, and the user config directories.
pub const TUI_NAMES: &[&str] = &["tui.json", "tui.jsonc"];
/// The folders whose Markdown files are agents (`agent(s)/`) or modes (`mode(s)/`).
const AGENT_FOLDERS: &[&str] = &["agent", "agents", "mode", "modes"];

/// A custom theme of opencode's terminal interface in a project: `<dir>/.opencode/themes/*.json`
/// (opencode reads those of every `.opencode/` from where it starts up to the root; the global
/// config folder's `themes/` is the workspace's to know). Returns the `.opencode/` folder.
pub fn theme_dir(path: &Path) -> Option<PathBuf> {
    if !path.file_name()?.to_str()?.ends_with(".json") {
        return None;
    }
    let themes = path.parent().filter(|p| p.file_name().is_some_and(|n| n == "themes"))?;
    let dir = themes
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n == ".opencode"))?;
    Some(dir.to_path_buf())
}

/// The Markdown agents of one config directory, as opencode globs them: `{agent,agents}/**/*.md`
/// (recursive) and `{mode,modes}/*.md`, each with its derived name.
pub fn markdown_agents(dir: &Path, disk: &dyn Disk) -> Vec<(PathBuf, OcKind)> {
    let mut out = Vec::new();
    for sub in ["agent", "agents"] {
        let base = dir.join(sub);
        if disk.is_dir(&base) {
            for f in disk.markdown_under(&base) {
                if let Ok(rel) = f.strip_prefix(dir) {
                    let name = agent_name_from_relative_path(&rel.to_string_lossy());
                    out.push((f, OcKind::Agent { name }));
                }
            }
        }
    }
    for sub in ["mode", "modes"] {
        let base = dir.join(sub);
        let files: Vec<PathBuf> = disk
            .list(&base)
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| p.extension().is_some_and(|e| e == "md") && disk.is_file(p))
            .collect();
        for f in files {
            if let Ok(rel) = f.strip_prefix(dir) {
                let name = agent_name_from_relative_path(&rel.to_string_lossy());
                out.push((f, OcKind::Mode { name }));
            }
        }
    }
    out
}

/// The Markdown agents of config directory `dir`, as files of the workspace.
pub fn agents_of(dir: &Path, disk: &dyn Disk) -> Vec<Load> {
    markdown_agents(dir, disk)
        .into_iter()
        .map(|(p, kind)| Load::known(p, kind.into(), Place::Markdown.role(dir.to_path_buf())))
        .collect()
}

/// What a file given explicitly on the command line is, from its path alone.
pub fn classify(path: &Path) -> Option<OcKind> {
    let name = path.file_name()?.to_string_lossy();
    if CONFIG_NAMES.contains(&name.as_ref()) || name == "config.json" {
        return Some(OcKind::Config);
    }
    if path.extension().is_some_and(|e| e == "json" || e == "jsonc") {
        return Some(OcKind::Config);
    }
    if path.extension().is_none_or(|e| e != "md") {
        return None;
    }
    // The nearest `agent(s)/` or `mode(s)/` ancestor decides the kind and the name.
    let components: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for i in (0..components.len().saturating_sub(1)).rev() {
        let c = components[i].as_str();
        if AGENT_FOLDERS.contains(&c) {
            let rel = components[i..].join("/");
            let name = agent_name_from_relative_path(&rel);
            return Some(if c.starts_with("mode") && i + 2 == components.len() {
                OcKind::Mode { name }
            } else {
                OcKind::Agent { name }
            });
        }
    }
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    Some(OcKind::Agent { name: stem })
}

/// A skill of an opencode user config folder `dir` (the global one, `~/.opencode`,
/// `$OPENCODE_CONFIG_DIR`): `{skill,skills}/**/SKILL.md` below it, read in every project.
pub fn user_skill_kind(path: &Path, dir: &Path) -> Option<SkillKind> {
    if path.file_name()? != "SKILL.md" {
        return None;
    }
    let rel = path.strip_prefix(dir).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    if rel.components().count() < 3 || !matches!(first.as_ref(), "skill" | "skills") {
        return None;
    }
    Some(SkillKind {
        folder: path.parent()?.file_name()?.to_string_lossy().into_owned(),
        loaders: vec![Dialect::Opencode],
        misplaced: None,
        family: Dialect::Opencode,
        namespace: None,
    })
}

/// The user's config folders: the global one, `~/.opencode` and `$OPENCODE_CONFIG_DIR`.
fn user_dirs(o: super::user::User<'_>) -> impl Iterator<Item = &Path> {
    [o.global_dir, o.home_dot_opencode, o.config_dir].into_iter().flatten()
}

/// Whether opencode reads `dir` as a config directory: one of the user's, a `.opencode/`, or a
/// folder holding a config (laid out like the global one).
pub fn is_config_dir(host: &dyn Host, disk: &dyn Disk, dir: &Path) -> bool {
    dir_kind(host, dir) != DirKind::Layout
        || CONFIG_NAMES.iter().any(|n| {
            let f = dir.join(n);
            disk.is_file(&f) || host.id_of(&f).is_some()
        })
}

/// Whether the walk keeps a file for opencode: configs, `tui.json`, themes; Markdown files of an
/// agent, mode or command folder (at any level up to the walk's root).
pub fn walk_keeps(path: &Path, depth: usize) -> Option<Pile> {
    let name = path.file_name()?.to_string_lossy();
    if CONFIG_NAMES.contains(&name.as_ref()) || TUI_NAMES.contains(&name.as_ref()) || theme_dir(path).is_some() {
        return Some(Pile::Config);
    }
    let in_folder = path.ancestors().skip(1).take(depth).any(|a| {
        a.file_name().is_some_and(|n| {
            ["agent", "agents", "mode", "modes", "command", "commands"].contains(&n.to_string_lossy().as_ref())
        })
    });
    (name.ends_with(".md") && in_folder).then_some(Pile::Document)
}

/// The config directories among the folders a walk found: every `.opencode/`, and every folder
/// laid out like a global config directory (an `opencode.json(c)` next to an `agent(s)/` or
/// `mode(s)/` folder).
pub fn whole_folders(dirs: &[PathBuf], configs: &[PathBuf]) -> Vec<PathBuf> {
    let found: std::collections::HashSet<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let mut out: Vec<PathBuf> = dirs.iter().filter(|d| is_dot_opencode(d)).cloned().collect();
    for c in configs {
        let named = c
            .file_name()
            .is_some_and(|n| CONFIG_NAMES.contains(&n.to_string_lossy().as_ref()));
        let Some(dir) = c.parent().filter(|_| named) else {
            continue;
        };
        if !is_dot_opencode(dir) && AGENT_FOLDERS.iter().any(|s| found.contains(dir.join(s).as_path())) {
            out.push(dir.to_path_buf());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// What a path is to opencode at `stage`, given the user's folders.
pub fn kind_of(path: &Path, at: &At, stage: Stage) -> Claim {
    let name = path.file_name()?.to_string_lossy();
    let parent = path.parent()?;
    let o = super::user::of(at.host.options());
    match stage {
        Stage::Own => {
            if let Some(g) = o.global_dir
                && parent == g
                && ["config.json", "opencode.json", "opencode.jsonc"].contains(&name.as_ref())
            {
                let order = match name.as_ref() {
                    "config.json" => 0,
                    "opencode.json" => 1,
                    _ => 2,
                };
                return Some(Some((
                    OcKind::Config.into(),
                    Place::User(order).role(parent.to_path_buf()),
                )));
            }
            if o.config_file == Some(path) {
                return Some(Some((OcKind::Config.into(), Place::User(3).role(parent.to_path_buf()))));
            }
            // The terminal interface's custom themes: `themes/*.json` of the global config
            // folder and of every `.opencode/`.
            let global_themes = o
                .global_dir
                .is_some_and(|g| parent == g.join("themes") && name.ends_with(".json"));
            if let Some(dir) =
                theme_dir(path).or_else(|| global_themes.then(|| parent.parent().map(Path::to_path_buf)).flatten())
            {
                return Some(Some((OcKind::Theme.into(), Place::Theme.role(dir))));
            }
            // opencode's terminal interface reads `tui.json(c)` wherever it reads a config, and
            // the file `$OPENCODE_TUI_CONFIG` names.
            if TUI_NAMES.contains(&name.as_ref()) || o.tui_config == Some(path) {
                let dir = parent.to_path_buf();
                return Some(Some((OcKind::Tui.into(), Place::Tui.role(dir))));
            }
            if CONFIG_NAMES.contains(&name.as_ref()) {
                let in_config_dir =
                    is_dot_opencode(parent) || o.home_dot_opencode == Some(parent) || o.config_dir == Some(parent);
                let dir = parent.to_path_buf();
                let role = if in_config_dir {
                    Place::Dir.role(dir)
                } else {
                    Place::Project.role(dir)
                };
                return Some(Some((OcKind::Config.into(), role)));
            }
            None
        }
        // A skill of a user config folder (the global one, `~/.opencode`,
        // `$OPENCODE_CONFIG_DIR`): `{skill,skills}/**/SKILL.md`, read in every project.
        Stage::UserSkills => user_dirs(o).find_map(|dir| {
            let kind = user_skill_kind(path, dir)?;
            Some(Some((FileKind::from(kind), Role::Skill { dir: dir.to_path_buf() })))
        }),
        Stage::ByName => None,
        Stage::Layout => by_layout(path, at),
    }
}

/// A command or an agent of a config directory other than `.opencode/` (the global one,
/// `~/.opencode`, `$OPENCODE_CONFIG_DIR`, a directory laid out like them).
fn by_layout(path: &Path, at: &At) -> Claim {
    if path.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let is_config_dir = |dir: &Path| is_config_dir(at.host, at.disk, dir);
    // `{command,commands}/**/*.md`.
    for anc in path.ancestors().skip(1) {
        let Some(comp) = anc.file_name().map(|c| c.to_string_lossy()) else {
            break;
        };
        if !matches!(comp.as_ref(), "command" | "commands") {
            continue;
        }
        let dir = anc.parent()?;
        if !is_dot_opencode(dir) && is_config_dir(dir) {
            let rel = path.strip_prefix(anc).ok()?.to_string_lossy().replace('\\', "/");
            let name = rel.strip_suffix(".md").unwrap_or(&rel).to_string();
            let kind = CommandKind {
                runtime: Dialect::Opencode,
                name,
                plugin: false,
            };
            return Some(Some((FileKind::from(kind), Role::Command { dir: dir.to_path_buf() })));
        }
        break;
    }
    // The config directory is the parent of the nearest `agent(s)/` or `mode(s)/` folder.
    let mut rel = Vec::new();
    for anc in path.ancestors().skip(1) {
        let comp = anc.file_name()?.to_string_lossy().into_owned();
        let is_agents = matches!(comp.as_str(), "agent" | "agents");
        let is_modes = matches!(comp.as_str(), "mode" | "modes");
        if is_agents || (is_modes && rel.is_empty()) {
            let dir = anc.parent()?;
            if !is_config_dir(dir) {
                rel.push(comp);
                continue;
            }
            let relative = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
            let name = agent_name_from_relative_path(&relative);
            let kind = if is_agents {
                OcKind::Agent { name }
            } else {
                OcKind::Mode { name }
            };
            return Some(Some((kind.into(), Place::Markdown.role(dir.to_path_buf()))));
        }
        rel.push(comp);
    }
    None
}

/// A file named explicitly that is in no place opencode reads: a config by its name, a Markdown
/// agent in an `agent(s)/` or `mode(s)/` folder; any other Markdown or JSON file given by path
/// is read by no runtime.
pub fn kind_alone(path: &Path, stage: Stage) -> Claim {
    if stage != Stage::Layout {
        return None;
    }
    let kind = classify(path)?;
    let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let agents_folder = path.ancestors().skip(1).find(|a| {
        a.file_name()
            .is_some_and(|n| AGENT_FOLDERS.contains(&n.to_string_lossy().as_ref()))
    });
    let read = match &kind {
        OcKind::Config => CONFIG_NAMES.contains(&name.as_str()) || name == "config.json",
        _ => agents_folder.is_some(),
    };
    if !read {
        return Some(Some((kind.into(), Role::NotRead)));
    }
    let role = match &kind {
        OcKind::Config => Place::Project.role(parent),
        _ => Place::Markdown.role(agents_folder.and_then(Path::parent).unwrap_or(&parent).to_path_buf()),
    };
    Some(Some((kind.into(), role)))
}

/// The project whose layers are read around a file of opencode's given by path.
pub fn project_of_role(role: &Role) -> Option<Option<PathBuf>> {
    Some(match Place::of(role)? {
        (dir, Place::Project) => Some(dir.to_path_buf()),
        (dir, Place::Dir | Place::Markdown) if is_dot_opencode(dir) => dir.parent().map(Path::to_path_buf),
        (dir, Place::Markdown) => Some(dir.to_path_buf()),
        (_, Place::Dir | Place::User(_) | Place::Tui | Place::Theme) => None,
    })
}

/// The project directory around a root that is a config directory or lies inside one.
pub fn enclosing_project(root: &Path) -> Option<PathBuf> {
    if is_dot_opencode(root) {
        return root.parent().map(Path::to_path_buf);
    }
    for anc in root.ancestors().take(8) {
        let name = anc.file_name()?.to_string_lossy();
        if AGENT_FOLDERS.contains(&name.as_ref()) {
            let dir = anc.parent()?;
            return if is_dot_opencode(dir) {
                dir.parent().map(Path::to_path_buf)
            } else {
                Some(dir.to_path_buf())
            };
        }
    }
    None
}

/// What opencode reads of the user's folders: the user-level skills (spec §12.1, honouring
/// `OPENCODE_DISABLE_EXTERNAL_SKILLS` and `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS`), the global
/// configs, `$OPENCODE_CONFIG`, the configs of `~/.opencode` and `$OPENCODE_CONFIG_DIR`, the
/// global folder's themes, every user folder's `tui.json(c)` and `$OPENCODE_TUI_CONFIG`, then
/// the Markdown agents of the user folders.
pub fn user_layer(o: &Options, disk: &dyn Disk) -> UserLayer {
    let o = super::user::of(o);
    let mut skills = Vec::new();
    if let Some(home) = o.home {
        for e in external_skill_folders(&|k| disk.env(k)) {
            skills.extend(disk.skill_files(&home.join(e), &["skills"], true));
        }
    }
    for dir in user_dirs(o) {
        skills.extend(disk.skill_files(dir, &["skill", "skills"], false));
    }
    let skill_names = skills
        .iter()
        .filter_map(|p| disk.read_text(p, 1 << 20))
        .filter_map(|text| skill_name(&text))
        .collect();
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(dir) = o.global_dir {
        files.extend(["config.json", "opencode.json", "opencode.jsonc"].map(|n| dir.join(n)));
    }
    files.extend(o.config_file.map(Path::to_path_buf));
    for dir in [o.home_dot_opencode, o.config_dir].into_iter().flatten() {
        files.extend(CONFIG_NAMES.iter().map(|n| dir.join(n)));
    }
    // The global config folder's themes.
    if let Some(dir) = o.global_dir {
        files.extend(
            disk.list(&dir.join("themes"))
                .into_iter()
                .map(|(p, _)| p)
                .filter(|p| p.extension().is_some_and(|e| e == "json")),
        );
    }
    for dir in user_dirs(o) {
        files.extend(TUI_NAMES.iter().map(|n| dir.join(n)));
    }
    files.extend(o.tui_config.map(Path::to_path_buf));
    let mut files: Vec<Load> = files.into_iter().map(Load::path).collect();
    for dir in user_dirs(o) {
        files.extend(agents_of(dir, disk));
    }
    UserLayer {
        files,
        skill_names: Some(skill_names),
        state: None,
    }
}

/// The layers opencode also loads from each folder between where it starts and the worktree's
/// top: the folder's configs, its `.opencode/` folder's configs and Markdown agents.
pub fn context_files(dir: &Path, disk: &dyn Disk) -> Vec<Load> {
    let mut out: Vec<Load> = CONFIG_NAMES.iter().map(|n| Load::path(dir.join(n)).quiet()).collect();
    let dot = dir.join(".opencode");
    if disk.is_dir(&dot) {
        for name in CONFIG_NAMES {
            let f = dot.join(name);
            if disk.is_file(&f) {
                let role = Place::Dir.role(dot.clone());
                out.push(Load::known(f, OcKind::Config.into(), role).quiet());
            }
        }
        out.extend(agents_of(&dot, disk));
    }
    out
}

/// A new `opencode.json` can make its folder a config directory: its Markdown agents join.
pub fn files_beside(role: &Role, disk: &dyn Disk) -> Vec<Load> {
    let Some((dir, Place::Project)) = Place::of(role) else {
        return Vec::new();
    };
    if !AGENT_FOLDERS.iter().any(|s| disk.is_dir(&dir.join(s))) {
        return Vec::new();
    }
    agents_of(dir, disk)
}

/// What to analyse a document open in an editor as when it is not in an opencode location:
/// JSON named like a config or declaring opencode's schema (a theme, `tui.json`, a config), or
/// Markdown that starts with a frontmatter in an `agent(s)/` or `mode(s)/` folder (a blog post's
/// frontmatter is not agent settings; an untitled document may be anything).
pub fn solo_kind(path: Option<&Path>, name: &str, language_id: &str, text: &str) -> Option<FileKind> {
    let is_json = matches!(language_id, "json" | "jsonc") || name.ends_with(".json") || name.ends_with(".jsonc");
    if is_json {
        let at = path.map_or_else(|| Path::new("/").join(name), Path::to_path_buf);
        if theme_dir(&at).is_some() || text.contains("opencode.ai/theme.json") {
            return Some(OcKind::Theme.into());
        }
        if TUI_NAMES.contains(&name) || text.contains("opencode.ai/tui.json") {
            return Some(OcKind::Tui.into());
        }
        let named = CONFIG_NAMES.contains(&name);
        return (named || text.contains("opencode.ai/config.json")).then_some(OcKind::Config.into());
    }
    let is_md = language_id == "markdown" || name.ends_with(".md");
    let starts_frontmatter = text.trim_start_matches('\u{feff}').starts_with("---");
    let in_agent_folder = path.is_none_or(|p| {
        p.ancestors().skip(1).take(4).any(|a| {
            a.file_name()
                .is_some_and(|n| AGENT_FOLDERS.contains(&n.to_string_lossy().as_ref()))
        })
    });
    if is_md && starts_frontmatter && in_agent_folder {
        let stem = name.strip_suffix(".md").unwrap_or(name).to_string();
        return Some(OcKind::Agent { name: stem }.into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classify_paths() {
        assert_eq!(classify(Path::new("x/opencode.jsonc")), Some(OcKind::Config));
        assert_eq!(
            classify(Path::new("p/.opencode/agents/team/rev.md")),
            Some(OcKind::Agent {
                name: "team/rev".into()
            })
        );
        assert_eq!(
            classify(Path::new("p/.opencode/mode/dbg.md")),
            Some(OcKind::Mode { name: "dbg".into() })
        );
        assert_eq!(
            classify(Path::new("notes/x.md")),
            Some(OcKind::Agent { name: "x".into() })
        );
        assert_eq!(classify(Path::new("a.txt")), None);
    }
}
