//! Claude Code plugins on disk (read through a [`Disk`]): which folder is a plugin, what its manifest declares, and what
//! each of its files is to it (agents, commands, skills, hooks, output styles, servers).

use std::path::{Path, PathBuf};

use super::{CommandSource, Layout, Manifest};
use crate::analysis::claude::{self, Source};
use crate::analysis::discovery::Disk;
use crate::analysis::{command, skill};

/// The plugin whose `hooks/hooks.json` `path` is: the folder above `hooks/` when it holds
/// `.claude-plugin/plugin.json`.
pub fn plugin_hooks_root(path: &Path, disk: &dyn Disk) -> Option<PathBuf> {
    if path.file_name()? != "hooks.json" {
        return None;
    }
    let hooks = path.parent()?;
    if hooks.file_name()? != "hooks" {
        return None;
    }
    let root = hooks.parent()?;
    disk.is_file(&root.join(".claude-plugin").join("plugin.json"))
        .then(|| root.to_path_buf())
}

/// A Claude Code plugin on disk: a directory with `.claude-plugin/plugin.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plugin {
    pub root: PathBuf,
    /// The manifest's `name` (the folder's name when it has none): the namespace of the
    /// plugin's commands, agents and skills.
    pub name: String,
    /// Where its components are, as the manifest says.
    pub layout: Layout,
}

impl Plugin {
    /// The plugin whose root is `root`, if it has a manifest.
    pub fn at(root: &Path, disk: &dyn Disk) -> Option<Plugin> {
        let manifest = root.join(".claude-plugin").join("plugin.json");
        if !disk.is_file(&manifest) {
            return None;
        }
        let text = disk.read_text(&manifest, 1 << 20).unwrap_or_default();
        let (_, _, file) = crate::analysis::claude::plugin::analyze(Manifest::Plugin, &text);
        let name = file.name.filter(|n| !n.is_empty()).unwrap_or_else(|| {
            root.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        Some(Plugin {
            root: root.to_path_buf(),
            name,
            layout: file.layout,
        })
    }

    /// The plugin `path` lies in: the nearest ancestor with a manifest.
    pub fn of(path: &Path, disk: &dyn Disk) -> Option<Plugin> {
        path.ancestors().skip(1).find_map(|a| Plugin::at(a, disk))
    }

    /// Where its commands come from: the manifest's `commands`, else `commands/`.
    fn command_sources(&self) -> Vec<CommandSource> {
        self.layout
            .commands
            .clone()
            .unwrap_or_else(|| vec![CommandSource::Path("commands".into())])
    }

    /// Its server files, by path from the root: `.mcp.json` and `.lsp.json` and the files the
    /// manifest's `mcpServers` and `lspServers` name; `monitors/monitors.json` unless the manifest
    /// sets `monitors` (then the file it names, if any).
    pub fn server_files(&self) -> Vec<(String, claude::plugin::servers_file::ServersFile)> {
        use claude::plugin::servers_file::ServersFile;
        let mut out = vec![
            (".mcp.json".to_string(), ServersFile::Mcp),
            (".lsp.json".to_string(), ServersFile::Lsp),
        ];
        out.extend(
            self.layout
                .mcp_files
                .iter()
                .filter_map(|p| clean(p))
                .map(|p| (p, ServersFile::Mcp)),
        );
        out.extend(
            self.layout
                .lsp_files
                .iter()
                .filter_map(|p| clean(p))
                .map(|p| (p, ServersFile::Lsp)),
        );
        match &self.layout.monitors {
            None => out.push(("monitors/monitors.json".to_string(), ServersFile::Monitors)),
            Some(Some(p)) => out.extend(clean(p).map(|p| (p, ServersFile::Monitors))),
            Some(None) => {}
        }
        out
    }

    /// Where its output styles come from: the manifest's `outputStyles` (folders, or `.md`
    /// files), cleaned, which replace `output-styles/` (seen with Claude Code 2.1.332: a plugin
    /// that lists other folders and not `./output-styles/` loses the styles there).
    fn output_style_sources(&self) -> Vec<String> {
        if self.layout.output_styles.is_empty() {
            return vec!["output-styles".to_string()];
        }
        self.layout.output_styles.iter().filter_map(|p| clean(p)).collect()
    }

    /// The folders its skills come from: `skills/` and the manifest's `skills`.
    fn skill_dirs(&self) -> Vec<String> {
        let mut dirs = vec!["skills".to_string()];
        dirs.extend(self.layout.skills.iter().filter(|d| *d != "skills").cloned());
        dirs
    }
}

/// What a file is to the plugin it lies in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Member {
    Agent(claude::AgentFile),
    /// A command file, named `plugin:sub:file`.
    Command(command::CommandKind),
    /// A `SKILL.md`, loaded by Claude Code only.
    Skill(skill::SkillKind),
    /// An output style (`output-styles/**/*.md`, or a folder or file the manifest's
    /// `outputStyles` lists).
    OutputStyle(claude::output_style::Origin),
    /// `.mcp.json`, `.lsp.json` or `monitors/monitors.json` (or a file the manifest's
    /// `mcpServers`, `lspServers` or `monitors` names).
    Servers(claude::plugin::servers_file::ServersFile),
}

/// `a/./b/` as `a/b`, with `/` separators; `None` for a path that leaves its base (`..`).
fn clean(rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in rel.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => return None,
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// What `path` is to the plugin it lies in, as Claude Code 2.1.332 reads a plugin (found by
/// running it with `--plugin-dir`):
///
/// - agents: `agents/**/*.md` (hidden folders too), named `plugin:sub:name` (the sub-folders
///   join the namespace; `name` or the file name last); a manifest's `agents` replaces the
///   folder with the files it lists (`plugin:name`);
/// - commands: `commands/**/*.md`, named `plugin:sub:file` (a frontmatter `name` replaces the
///   last part, see [`claude::plugin::listed`]); a folder holding `SKILL.md` there is a skill
///   (its other files are not commands); a manifest's `commands` replaces the folder with the
///   files and folders it lists, or with named commands;
/// - skills: `skills/<name>/SKILL.md` (one level, hidden folders too) and, from each folder the
///   manifest's `skills` lists, `<folder>/SKILL.md` or `<folder>/<name>/SKILL.md`.
///
/// With the plugin's root.
pub fn plugin_kind(path: &Path, disk: &dyn Disk) -> Option<(Member, PathBuf)> {
    let plugin = Plugin::of(path, disk)?;
    let member = plugin_member(&plugin, path, disk)?;
    Some((member, plugin.root))
}

/// [`plugin_kind`] for a known plugin.
pub fn plugin_member(plugin: &Plugin, path: &Path, disk: &dyn Disk) -> Option<Member> {
    use crate::analysis::Dialect;
    let rel = path
        .strip_prefix(&plugin.root)
        .ok()?
        .to_string_lossy()
        .replace('\\', "/");
    let file = path.file_name()?.to_string_lossy().into_owned();
    let segments: Vec<&str> = rel.split('/').collect();
    let ns = |parts: &[&str]| {
        std::iter::once(plugin.name.as_str())
            .chain(parts.iter().copied())
            .collect::<Vec<_>>()
            .join(":")
    };
    let skill = |folder: &str, prefix: &[&str]| {
        Member::Skill(skill::SkillKind {
            folder: folder.to_string(),
            loaders: vec![Dialect::Claude],
            misplaced: None,
            family: Dialect::Claude,
            namespace: Some(ns(prefix)),
        })
    };
    // Agents.
    if let Some(stem) = file.strip_suffix(".md") {
        let agent = |prefix: &[&str]| {
            Member::Agent(claude::AgentFile {
                source: Source::Plugin { plugin: ns(prefix) },
                stem: stem.to_string(),
            })
        };
        match &plugin.layout.agents {
            Some(files) => {
                if files.iter().any(|f| clean(f).as_deref() == Some(rel.as_str())) {
                    return Some(agent(&[]));
                }
            }
            None => {
                if segments.len() >= 2 && segments[0] == "agents" {
                    return Some(agent(&segments[1..segments.len() - 1]));
                }
            }
        }
    }
    // Server files.
    if let Some((_, k)) = plugin.server_files().into_iter().find(|(p, _)| *p == rel) {
        return Some(Member::Servers(k));
    }
    // Output styles: any Markdown file below a source folder, or a source file itself.
    if file.ends_with(".md") {
        for source in plugin.output_style_sources() {
            if rel == source || source.is_empty() || rel.starts_with(&format!("{source}/")) {
                return Some(Member::OutputStyle(claude::output_style::Origin::Plugin {
                    plugin: plugin.name.clone(),
                }));
            }
        }
    }
    // Commands (and skills in a commands folder).
    for source in plugin.command_sources() {
        match source {
            CommandSource::Named { name, source } => {
                if clean(&source).as_deref() == Some(rel.as_str()) {
                    return Some(Member::Command(command::CommandKind {
                        runtime: Dialect::Claude,
                        plugin: true,
                        name: ns(&[&name]),
                    }));
                }
            }
            CommandSource::Path(p) => {
                let Some(base) = clean(&p) else { continue };
                let inner: Vec<&str> = if base.is_empty() {
                    segments.clone()
                } else if rel == base {
                    // The source is this very file: named after it.
                    vec![segments[segments.len() - 1]]
                } else if let Some(rest) = rel.strip_prefix(&format!("{base}/")) {
                    rest.split('/').collect()
                } else {
                    continue;
                };
                let base_dir = plugin.root.join(&base);
                if file == "SKILL.md" {
                    // A skill folder: the source itself, or a folder below it.
                    let folder = if inner.len() >= 2 {
                        inner[inner.len() - 2].to_string()
                    } else {
                        base.rsplit('/').next().unwrap_or_default().to_string()
                    };
                    let prefix = if inner.len() >= 2 {
                        &inner[..inner.len() - 2]
                    } else {
                        &[][..]
                    };
                    return Some(skill(&folder, prefix));
                }
                let Some(stem) = file.strip_suffix(".md") else { continue };
                // A file inside a skill folder is part of that skill, not a command.
                let mut dir = base_dir.clone();
                let mut in_skill = disk.is_file(&dir.join("SKILL.md")) && rel != base;
                for part in &inner[..inner.len() - 1] {
                    dir = dir.join(part);
                    in_skill |= disk.is_file(&dir.join("SKILL.md"));
                }
                if in_skill {
                    return None;
                }
                let mut parts: Vec<&str> = inner[..inner.len() - 1].to_vec();
                parts.push(stem);
                return Some(Member::Command(command::CommandKind {
                    runtime: Dialect::Claude,
                    plugin: true,
                    name: ns(&parts),
                }));
            }
        }
    }
    // Skills.
    if file == "SKILL.md" {
        let dir = &segments[..segments.len() - 1];
        for base in plugin.skill_dirs() {
            let Some(base) = clean(&base) else { continue };
            let base_parts: Vec<&str> = if base.is_empty() {
                Vec::new()
            } else {
                base.split('/').collect()
            };
            if dir == base_parts.as_slice() {
                let folder = base_parts
                    .last()
                    .map(|s| s.to_string())
                    .or_else(|| plugin.root.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_default();
                return Some(skill(&folder, &[]));
            }
            if dir.len() == base_parts.len() + 1 && dir.starts_with(&base_parts) {
                return Some(skill(dir[dir.len() - 1], &[]));
            }
        }
    }
    None
}

/// Every file a plugin contributes, with what it is (see [`plugin_kind`]).
pub fn plugin_files(plugin: &Plugin, disk: &dyn Disk) -> Vec<(PathBuf, Member)> {
    let root = &plugin.root;
    let mut candidates: Vec<PathBuf> = Vec::new();
    let md = |_: &Path, name: &str| name.ends_with(".md");
    match &plugin.layout.agents {
        Some(files) => candidates.extend(files.iter().filter_map(|f| clean(f)).map(|f| root.join(f))),
        None => candidates.extend(disk.files_under(&root.join("agents"), true, false, &md)),
    }
    for source in plugin.command_sources() {
        let p = match source {
            CommandSource::Named { source, .. } => source,
            CommandSource::Path(p) => p,
        };
        let Some(p) = clean(&p) else { continue };
        let target = root.join(&p);
        if disk.is_dir(&target) {
            candidates.extend(disk.files_under(&target, true, false, &md));
        } else {
            candidates.push(target);
        }
    }
    candidates.extend(plugin.server_files().into_iter().map(|(p, _)| root.join(p)));
    for source in plugin.output_style_sources() {
        let target = root.join(&source);
        if disk.is_dir(&target) {
            candidates.extend(disk.files_under(&target, true, false, &md));
        } else {
            candidates.push(target);
        }
    }
    for base in plugin.skill_dirs() {
        let Some(base) = clean(&base) else { continue };
        let dir = root.join(base);
        candidates.push(dir.join("SKILL.md"));
        candidates.extend(disk.list(&dir).into_iter().map(|(p, _)| p.join("SKILL.md")));
    }
    candidates.sort();
    candidates.dedup();
    candidates
        .into_iter()
        .filter(|p| disk.is_file(p))
        .filter_map(|p| {
            let member = plugin_member(plugin, &p, disk)?;
            Some((p, member))
        })
        .collect()
}
