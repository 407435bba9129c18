//! Which files Claude Code reads, and as what (spec `claude-code.md` §1.1, §7.1): its path rules,
//! behind the dialect interface's discovery part. Pure path logic; the disk is asked through a
//! [`Disk`] (is there a plugin manifest above this file?).

use std::path::{Path, PathBuf};

use super::memory::MemoryFile;
use super::output_style::Origin;
use super::place::Place;
use super::plugin::Manifest;
use super::plugin::members::{Member, Plugin, plugin_files, plugin_hooks_root, plugin_member};
use super::settings::SettingsFile;
use super::{AgentFile, Source};
use crate::analysis::FileKind;
use crate::analysis::discovery::{Claim, Disk, Load, Pile, Stage, UserLayer};
use crate::analysis::host::{Options, Role};
use crate::analysis::spec::At;

/// Claude Code's project MCP servers, read in the folder it starts in and every folder above.
pub const MCP_JSON: &str = ".mcp.json";

/// A project's `.mcp.json` (Claude Code's MCP servers): its kind, with the folder that holds
/// it. Not a plugin's `.mcp.json` (beside `.claude-plugin/`), which Claude Code reads with the
/// plugin.
pub fn mcp_json(path: &Path, disk: &dyn Disk) -> Option<(FileKind, PathBuf)> {
    if path.file_name()? != MCP_JSON {
        return None;
    }
    let dir = path.parent()?;
    (!disk.is_dir(&dir.join(".claude-plugin"))).then(|| (super::FileKind::McpJson.into(), dir.to_path_buf()))
}

/// Claude Code's settings files: `.claude/settings.json` or `.claude/settings.local.json` of a
/// project, with the project directory, and the user's `~/.claude/settings.json` (with the home
/// directory; `settings.local.json` is not read there).
pub fn claude_settings(path: &Path, home: Option<&Path>) -> Option<(FileKind, PathBuf)> {
    let kind = SettingsFile::of_path(path)?;
    let project = path.parent()?.parent()?;
    let kind = match (home == Some(project), kind) {
        (true, SettingsFile::Project) => SettingsFile::User,
        (true, _) => return None,
        (false, k) => k,
    };
    Some((kind.into(), project.to_path_buf()))
}

/// A file Claude Code reads that agent-lsp does not check yet, with what it is: the user's
/// `~/.claude/keybindings.json` and `~/.claude/themes/*.json` (in `home` only: a project's are
/// not read), and `.claude/loop.md`.
pub fn read_not_checked(path: &Path, home: Option<&Path>) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let parent_name = parent.file_name()?.to_str()?;
    let in_home =
        |dot_claude: &Path| dot_claude.file_name().is_some_and(|n| n == ".claude") && dot_claude.parent() == home;
    match (parent_name, name) {
        (".claude", "keybindings.json") if in_home(parent) => {
            Some("Claude Code reads `~/.claude/keybindings.json`, its keyboard shortcuts (in a terminal)")
        }
        (".claude", "loop.md") => Some("Claude Code reads `.claude/loop.md`, the prompt of `/loop`"),
        ("themes", n) if n.ends_with(".json") && parent.parent().is_some_and(in_home) => {
            Some("Claude Code reads `~/.claude/themes/*.json`, its custom color themes")
        }
        _ => None,
    }
}

/// A file [`read_not_checked`] may name, whoever's home it is in (the walks do not know the
/// home folder; the workspace decides).
fn not_checked_candidate(path: &Path) -> bool {
    let home = path
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == ".claude"))
        .and_then(Path::parent);
    read_not_checked(path, home).is_some()
}

/// A Claude Code output style of a project or of the user: a Markdown file at any depth of a
/// `.claude/output-styles/` folder. Returns the folder that holds that `.claude/` (the project, or
/// the home directory).
pub fn output_style_kind(path: &Path) -> Option<PathBuf> {
    if !path.file_name()?.to_str()?.ends_with(".md") {
        return None;
    }
    let styles = path.ancestors().skip(1).find(|a| {
        a.file_name().is_some_and(|n| n == "output-styles")
            && a.parent().and_then(Path::file_name).is_some_and(|n| n == ".claude")
    })?;
    Some(styles.parent()?.parent()?.to_path_buf())
}

/// Whether a path names a Claude Code memory file (see [`memory_kind`]).
fn is_memory(path: &Path) -> bool {
    memory_kind(path, None).is_some()
}

/// What a memory file is to Claude Code, from its path, with the folder it belongs to (see
/// [`super::memory`] for when Claude Code reads each): `CLAUDE.md` of any folder (a project's, a
/// parent's, a sub-folder's) and `.claude/CLAUDE.md`, `CLAUDE.local.md`, a Markdown file at any
/// depth of `.claude/rules/`; under the home directory's `.claude/`, the user's. A `CLAUDE.md` of
/// an agents, modes or commands folder is one of their files instead.
pub fn memory_kind(path: &Path, home: Option<&Path>) -> Option<(MemoryFile, PathBuf)> {
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let parent_name = parent.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_home = |dot_claude: &Path| home.is_some_and(|h| dot_claude.parent() == Some(h));
    let in_folder_of_files = matches!(
        parent_name,
        "agent" | "agents" | "mode" | "modes" | "command" | "commands" | "rules"
    );
    match name {
        "AGENTS.md" if parent_name == ".claude" => {
            return Some((MemoryFile::Agents, parent.parent()?.to_path_buf()));
        }
        "AGENTS.md" | "CONTEXT.md" if !in_folder_of_files => {
            let kind = if name == "AGENTS.md" {
                MemoryFile::Agents
            } else {
                MemoryFile::Context
            };
            return Some((kind, parent.to_path_buf()));
        }
        "CLAUDE.md" if parent_name == ".claude" => {
            let dir = parent.parent()?.to_path_buf();
            let kind = if in_home(parent) {
                MemoryFile::User
            } else {
                MemoryFile::Project
            };
            return Some((kind, dir));
        }
        "CLAUDE.md" | "CLAUDE.local.md" if !in_folder_of_files => {
            let kind = if name == "CLAUDE.md" {
                MemoryFile::Project
            } else {
                MemoryFile::Local
            };
            return Some((kind, parent.to_path_buf()));
        }
        _ => {}
    }
    if !name.ends_with(".md") {
        return None;
    }
    // `.claude/rules/**/*.md`.
    let rules = path.ancestors().skip(1).find(|a| {
        a.file_name().is_some_and(|n| n == "rules")
            && a.parent().and_then(Path::file_name).is_some_and(|n| n == ".claude")
    })?;
    let dot_claude = rules.parent()?;
    let kind = if in_home(dot_claude) {
        MemoryFile::User
    } else {
        MemoryFile::Rule
    };
    Some((kind, dot_claude.parent()?.to_path_buf()))
}

/// What a Markdown file is to Claude Code, from its path (spec `claude-code.md` §1.1, §7.1): a
/// project agent under `<project>/.claude/agents/` (at any depth), a user agent under
/// `<home>/.claude/agents/`, or a plugin agent under `<plugin>/agents/` where
/// `<plugin>/.claude-plugin/plugin.json` exists and does not list other agent files (see
/// [`plugin_member`], which also finds the agents a manifest lists elsewhere). Returns the
/// directory that owns it (the project, the home directory, the plugin root). Only names ending
/// in `.md` (lower case) are agents.
pub fn claude_kind(path: &Path, home: Option<&Path>, disk: &dyn Disk) -> Option<(AgentFile, PathBuf)> {
    let name = path.file_name()?.to_string_lossy();
    let stem = name.strip_suffix(".md")?.to_string();
    for anc in path.ancestors().skip(1) {
        if anc.file_name().is_none_or(|n| n != "agents") {
            continue;
        }
        let Some(parent) = anc.parent() else { break };
        if parent.file_name().is_some_and(|n| n == ".claude") {
            let owner = parent.parent()?.to_path_buf();
            let source = if home.is_some_and(|h| h == owner) {
                Source::User
            } else {
                Source::Project
            };
            return Some((AgentFile { source, stem }, owner));
        }
        if disk.is_file(&parent.join(".claude-plugin").join("plugin.json")) {
            // A plugin's agent, if the plugin reads this folder.
            let plugin = Plugin::of(path, disk)?;
            return match plugin_member(&plugin, path, disk) {
                Some(Member::Agent(kind)) => Some((kind, plugin.root)),
                _ => None,
            };
        }
    }
    None
}

/// The Claude Code agent files of an agents directory: every `*.md` at any depth, hidden folders
/// included (spec §7.1).
pub fn claude_agents(dir: &Path, disk: &dyn Disk) -> Vec<PathBuf> {
    if disk.is_dir(dir) {
        disk.markdown_under(dir)
    } else {
        Vec::new()
    }
}

/// A plugin's member as a file of the workspace, with the plugin's root as its folder.
fn member_load(path: PathBuf, member: Member, root: PathBuf) -> Load {
    let (kind, role) = member_kind(member, root);
    Load::known(path, kind, role)
}

fn member_kind(member: Member, dir: PathBuf) -> (FileKind, Role) {
    match member {
        Member::Agent(k) => (k.into(), Place::Agent.role(dir)),
        Member::Command(k) => (FileKind::from(k), Role::Command { dir }),
        Member::Skill(k) => (FileKind::from(k), Role::Skill { dir }),
        Member::OutputStyle(o) => (FileKind::from(o), Place::OutputStyle.role(dir)),
        Member::Servers(k) => (FileKind::from(k), Place::Plugin.role(dir)),
    }
}

/// What a file is to a Claude Code plugin: a manifest, or a file the plugin contributes (an
/// agent, a command, a skill, a server file, an output style; see [`plugin_member`]).
/// `Some(None)`: a `SKILL.md` inside a plugin that the plugin does not load and no other runtime
/// would (not a misplaced skill of a project: the plugin's own rules decide). `None`: not a
/// plugin's file. `folders`: the runtimes' config folders, which hold no plugin's files.
pub fn plugin_role(path: &Path, at: &At) -> Claim {
    let disk = at.disk;
    if let Some(m) = Manifest::of_path(path) {
        let dir = path.parent()?.parent()?.to_path_buf();
        return Some(Some((FileKind::from(m), Place::Plugin.role(dir))));
    }
    if let Some(dir) = plugin_hooks_root(path, disk) {
        return Some(Some((FileKind::plugin_hooks(), Place::Plugin.role(dir))));
    }
    let name = path.file_name()?.to_string_lossy();
    if matches!(name.as_ref(), ".mcp.json" | ".lsp.json" | "monitors.json") {
        // A plugin's server file, when a plugin reads it.
        let plugin = Plugin::of(path, disk)?;
        return match plugin_member(&plugin, path, disk) {
            Some(Member::Servers(k)) => Some(Some((FileKind::from(k), Place::Plugin.role(plugin.root)))),
            _ => None,
        };
    }
    if !name.ends_with(".md") {
        return None;
    }
    // The runtimes' own folders hold no plugin's files: no search for a manifest above them (a
    // large `.claude/agents/` costs a stat per ancestor and file otherwise).
    let in_config_folder = path.ancestors().skip(1).any(|a| {
        let parent = a.parent().and_then(Path::file_name);
        let name = a.file_name().and_then(|n| n.to_str());
        name.is_some_and(|n| n != ".claude" && at.places.folders.contains(&n))
            || (parent.is_some_and(|p| p == ".claude")
                && matches!(name, Some("agents" | "commands" | "skills" | "output-styles")))
    });
    if in_config_folder {
        return None;
    }
    let plugin = Plugin::of(path, disk)?;
    match plugin_member(&plugin, path, disk) {
        Some(member) => Some(Some(member_kind(member, plugin.root))),
        None if name == "SKILL.md" => match crate::analysis::discovery::skill_kind(path, at.places) {
            Some((k, dir)) if k.misplaced.is_none() => Some(Some((FileKind::from(k), Role::Skill { dir }))),
            _ => Some(None),
        },
        None => None,
    }
}

/// Whether a walk keeps a file for Claude Code: its settings, plugin manifests and hooks, MCP
/// files and the files it reads unchecked (configs), its memory files and output styles
/// (documents).
pub fn walk_keeps(path: &Path, disk: &dyn Disk) -> Option<Pile> {
    if Manifest::of_path(path).is_some()
        || SettingsFile::of_path(path).is_some()
        || plugin_hooks_root(path, disk).is_some()
        || mcp_json(path, disk).is_some()
        || not_checked_candidate(path)
    {
        return Some(Pile::Config);
    }
    (is_memory(path) || output_style_kind(path).is_some()).then_some(Pile::Document)
}

/// The files Claude Code reads even where git ignores them: `CLAUDE.local.md` (it usually is),
/// `.mcp.json` (it may hold credentials) and the settings of a `.claude/` folder
/// (`settings.local.json` usually is).
pub fn read_when_ignored(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.join("CLAUDE.local.md"), dir.join(MCP_JSON)];
    if dir.file_name().is_some_and(|n| n == ".claude") {
        out.extend(["settings.json", "settings.local.json"].map(|n| dir.join(n)));
    }
    out
}

/// What a path is to Claude Code at `stage`, with the user's home from the workspace.
pub fn kind_of(path: &Path, at: &At, stage: Stage) -> Claim {
    let home = at.host.options().home.as_deref();
    match stage {
        Stage::Own => {
            if let Some(what) = read_not_checked(path, home) {
                return Some(Some((FileKind::from(SettingsFile::User), Role::NotChecked(what))));
            }
            if let Some(claim) = plugin_role(path, at) {
                return Some(claim);
            }
            if let Some((kind, dir)) = mcp_json(path, at.disk) {
                return Some(Some((kind, Place::Mcp.role(dir))));
            }
            if let Some((kind, dir)) = claude_settings(path, home) {
                return Some(Some((kind, Place::Settings.role(dir))));
            }
            let (kind, dir) = claude_kind(path, home, at.disk)?;
            Some(Some((kind.into(), Place::Agent.role(dir))))
        }
        Stage::ByName => by_name(path, home),
        Stage::UserSkills | Stage::Layout => None,
    }
}

/// Output styles and memory files, which Claude Code reads by their name and folder.
fn by_name(path: &Path, home: Option<&Path>) -> Claim {
    if let Some(dir) = output_style_kind(path) {
        return Some(Some((FileKind::from(Origin::Project), Place::OutputStyle.role(dir))));
    }
    let (kind, dir) = memory_kind(path, home)?;
    Some(Some((FileKind::from(kind), Place::Memory.role(dir))))
}

/// What a file given by path alone is to Claude Code (no home known).
pub fn kind_alone(path: &Path, at: &At, stage: Stage) -> Claim {
    match stage {
        Stage::Own => {
            if let Some(claim) = plugin_role(path, at) {
                return Some(claim);
            }
            let (kind, dir) = claude_kind(path, None, at.disk)?;
            Some(Some((kind.into(), Place::Agent.role(dir))))
        }
        Stage::ByName => by_name(path, None),
        Stage::UserSkills | Stage::Layout => None,
    }
}

/// What Claude Code reads of the user's home: the personal skills (named by their folder, one
/// level below `~/.claude/skills/`), the MCP servers of `~/.claude.json`, and the user's agents
/// and output styles (read for resolution, not reported on).
pub fn user_layer(options: &Options, disk: &dyn Disk) -> UserLayer {
    let Some(home) = options.home.as_deref() else {
        return UserLayer::default();
    };
    let skills = home.join(".claude").join("skills");
    let skill_names = disk.is_dir(&skills).then(|| {
        let mut names: Vec<String> = disk
            .list(&skills)
            .into_iter()
            .filter(|(p, _)| disk.is_file(&p.join("SKILL.md")))
            .filter_map(|(p, _)| Some(p.file_name()?.to_string_lossy().into_owned()))
            .collect();
        names.sort();
        names
    });
    let state = user_servers(home, disk).map(|s| Box::new(s) as Box<dyn std::any::Any + Send + Sync>);
    let dot_claude = home.join(".claude");
    let mut files = claude_agents(&dot_claude.join("agents"), disk);
    files.extend(claude_agents(&dot_claude.join("output-styles"), disk));
    UserLayer {
        files: files.into_iter().map(|p| Load::path(p).quiet()).collect(),
        skill_names,
        state,
    }
}

/// The MCP servers Claude Code reads from the user's configuration (`~/.claude.json`): none
/// when it does not exist; `None` when they cannot be known: the file is unreadable or not JSON
/// of that shape, `CLAUDE_CONFIG_DIR` moves it, or an organization's `managed-mcp.json` may add
/// servers.
fn user_servers(home: &Path, disk: &dyn Disk) -> Option<super::mcp::names::UserServers> {
    const MANAGED: &[&str] = &[
        "/etc/claude-code/managed-mcp.json",
        "/Library/Application Support/ClaudeCode/managed-mcp.json",
        "C:\\Program Files\\ClaudeCode\\managed-mcp.json",
    ];
    if disk.env("CLAUDE_CONFIG_DIR").is_some() || MANAGED.iter().any(|p| disk.is_file(Path::new(p))) {
        return None;
    }
    let file = home.join(".claude.json");
    if !disk.is_file(&file) && !disk.is_dir(&file) {
        return Some(Default::default());
    }
    super::mcp::names::UserServers::parse(&disk.read_text(&file, 1 << 28)?)
}

/// Claude Code walks up from where it starts: the `.claude/agents/` of each folder.
pub fn context_files(dir: &Path, disk: &dyn Disk) -> Vec<Load> {
    claude_agents(&dir.join(".claude").join("agents"), disk)
        .into_iter()
        .map(|p| Load::path(p).quiet())
        .collect()
}

/// The plugin a plugin manifest brings along.
pub fn bundle_of(kind: &FileKind, role: &Role) -> Option<PathBuf> {
    match role {
        _ if kind.manifest() == Some(Manifest::Plugin) => Place::of(role).map(|(dir, _)| dir.to_path_buf()),
        _ => None,
    }
}

/// Everything the plugin at `root` contributes, custom paths included.
pub fn bundle_files(root: &Path, disk: &dyn Disk) -> Option<Vec<Load>> {
    let plugin = Plugin::at(root, disk)?;
    Some(
        plugin_files(&plugin, disk)
            .into_iter()
            .map(|(p, member)| member_load(p, member, plugin.root.clone()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_read_but_not_checked_yet() {
        let home = Path::new("/home/u");
        let what = |p: &str| read_not_checked(Path::new(p), Some(home));
        assert!(
            what("/home/u/.claude/keybindings.json")
                .unwrap()
                .contains("keyboard shortcuts")
        );
        assert!(
            what("/home/u/.claude/themes/dusk.json")
                .unwrap()
                .contains("custom color themes")
        );
        assert!(what("/work/p/.claude/loop.md").unwrap().contains("`/loop`"));
        assert!(what("/home/u/.claude/loop.md").is_some());
        // A project's keybindings and themes are not Claude Code's to read; nor other names.
        assert_eq!(what("/work/p/.claude/keybindings.json"), None);
        assert_eq!(what("/work/p/.claude/themes/dusk.json"), None);
        assert_eq!(what("/home/u/.claude/themes/dusk.txt"), None);
        assert_eq!(what("/home/u/.claude/themes/sub/dusk.json"), None);
        assert_eq!(what("/home/u/keybindings.json"), None);
        assert_eq!(what("/work/p/loop.md"), None);
        assert_eq!(
            read_not_checked(Path::new("/home/u/.claude/keybindings.json"), None),
            None
        );
        // The walks take each as a candidate wherever it is; the workspace decides.
        assert!(not_checked_candidate(Path::new("/work/p/.claude/keybindings.json")));
        assert!(not_checked_candidate(Path::new("/work/p/.claude/themes/x.json")));
        assert!(!not_checked_candidate(Path::new("/work/p/.claude/settings.json")));
    }
}
