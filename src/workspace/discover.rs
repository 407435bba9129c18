//! Which files opencode reads (spec §2): config files and the Markdown agents of config
//! directories, found by walking a workspace. Pure path logic plus a bounded directory walk.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::analysis::claude::plugin::Manifest;
use crate::analysis::claude::settings::SettingsFile;
use crate::analysis::claude::{self, Source};
use crate::analysis::opencode::{FileKind, agent_name_from_relative_path};
use crate::analysis::{command, copilot, skill, zuno};

pub const CONFIG_NAMES: &[&str] = &["opencode.json", "opencode.jsonc"];
pub const ZUNO_CONFIG_NAMES: &[&str] = &["zuno.json", "zuno.jsonc"];
/// The settings of opencode's terminal interface, read from a project (and the folders above
/// it), every `.opencode/` folder, and the user config directories.
pub const TUI_NAMES: &[&str] = &["tui.json", "tui.jsonc"];
/// Claude Code's project MCP servers, read in the folder it starts in and every folder above.
pub const MCP_JSON: &str = ".mcp.json";

pub use crate::analysis::zuno::dialect::Layer as ZunoLayer;

/// Everything found under one root.
#[derive(Debug, Default)]
pub struct Found {
    /// Config files (`opencode.json(c)`, `tui.json(c)`, `zuno.json(c)`, `agent-lsp.toml`,
    /// Claude Code plugin manifests), sorted.
    pub configs: Vec<PathBuf>,
    /// Config directories: every `.opencode/` and every directory laid out like a global config
    /// directory (an `opencode.json(c)` next to an `agent(s)/` or `mode(s)/` folder).
    pub config_dirs: Vec<PathBuf>,
    /// Markdown files below an `agent(s)/` or `mode(s)/` folder, and every `SKILL.md` (what each
    /// is, if anything, is decided by the caller).
    pub markdown: Vec<PathBuf>,
    /// Directories the walk could not read, with the reason.
    pub unreadable: Vec<(PathBuf, String)>,
}

/// The config folders of the runtimes: read even where git ignores them (a personal
/// `.opencode/` listed in a global `.gitignore` is still what opencode loads).
const CONFIG_FOLDERS: &[&str] = &[".opencode", ".claude", ".zuno", ".agents"];

/// Walk `root` as ripgrep does (the `ignore` crate): `.gitignore` (inside a git repository),
/// `.ignore`, the global git excludes and `.git/info/exclude` are honoured, hidden folders are
/// entered, the dependency and build folders of [`SKIP_DIRS`] are left out, symlinks are
/// followed (a loop is entered once). The runtimes' config folders ([`CONFIG_FOLDERS`]) are
/// walked even when ignored, since the runtimes read them regardless.
/// The walk's rules (see the module documentation), without the order.
fn walker(root: &Path) -> ignore::WalkBuilder {
    walker_skipping(root, SKIP_DIRS)
}

/// [`walker`] leaving out the folders named in `skip` (below the root).
fn walker_skipping(root: &Path, skip: &'static [&'static str]) -> ignore::WalkBuilder {
    let mut b = ignore::WalkBuilder::new(root);
    b.hidden(false)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_global(true)
        .git_exclude(true)
        .follow_links(true)
        .max_depth(Some(MAX_DEPTH))
        .filter_entry(|e| {
            !(e.depth() > 0
                && e.file_type().is_some_and(|t| t.is_dir())
                && skip.contains(&e.file_name().to_string_lossy().as_ref()))
        });
    b
}

/// Whether the ignore rules of [`walker`] leave out the folder `name` of `dir` (a walk that starts
/// in a folder does not judge the folder itself).
fn ignored(dir: &Path, name: &str) -> bool {
    let name = std::ffi::OsString::from(name);
    !walker_skipping(dir, &[])
        .max_depth(Some(1))
        .filter_entry(move |e| e.depth() == 0 || e.file_name() == name.as_os_str())
        .build()
        .flatten()
        .any(|e| e.depth() == 1)
}

/// The Claude Code plugin and marketplace manifests (`.claude-plugin/plugin.json`,
/// `marketplace.json`) under `root`, at any depth, the ignore rules of [`walker`] honoured but
/// the build folders of [`PLUGIN_DIRS`] entered (a repository may commit a built plugin there).
fn plugin_manifests(root: &Path) -> Vec<PathBuf> {
    const SKIP: &[&str] = &[
        ".git",
        "node_modules",
        "target",
        ".venv",
        "venv",
        "__pycache__",
        ".hg",
        ".svn",
    ];
    let mut out = Vec::new();
    let mut entries = 0usize;
    for entry in walker_skipping(root, SKIP).build().flatten() {
        entries += 1;
        if entries > MAX_ENTRIES {
            break;
        }
        if entry.file_type().is_some_and(|t| t.is_file()) && Manifest::of_path(entry.path()).is_some() {
            out.push(entry.path().to_path_buf());
        }
    }
    out
}

/// The Markdown and JSON files under `root` that the walk would visit, counted up to just
/// past `limit` (an upper bound of the files [`walk`] finds, cheap to stop early): enough to
/// tell a small workspace from a large one without walking all of a large one.
pub fn count_candidates_past(root: &Path, limit: usize) -> usize {
    let mut n = 0;
    for entry in walker(root).build().flatten() {
        let name = entry.file_name().to_string_lossy();
        if entry.file_type().is_some_and(|t| t.is_file())
            && (name.ends_with(".md") || name.ends_with(".json") || name.ends_with(".jsonc"))
        {
            n += 1;
            if n > limit {
                break;
            }
        }
    }
    n
}

pub fn walk(root: &Path) -> Found {
    let mut found = Found::default();
    if root.file_name().is_some_and(|n| n == ".opencode") {
        found.config_dirs.push(root.to_path_buf());
    }
    let walker = walker(root).sort_by_file_name(|a, b| a.cmp(b)).build();
    // Per directory: it holds a config file, it holds an agent folder.
    let mut dirs: std::collections::BTreeMap<PathBuf, (bool, bool)> = std::collections::BTreeMap::new();
    let mut entries = 0usize;
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                // A symlink loop is entered once, silently; anything else is reported.
                if !is_loop(&e) {
                    let path = match &e {
                        ignore::Error::WithPath { path, .. } => path.clone(),
                        _ => root.to_path_buf(),
                    };
                    found.unreadable.push((path, e.to_string()));
                }
                continue;
            }
        };
        entries += 1;
        if entries > MAX_ENTRIES {
            break;
        }
        let path = entry.path();
        let name = entry.file_name().to_string_lossy();
        let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
        if entry.file_type().is_some_and(|t| t.is_dir()) {
            dirs.entry(path.to_path_buf()).or_default();
            if entry.depth() == 0 {
                continue;
            }
            if matches!(name.as_ref(), "agent" | "agents" | "mode" | "modes") {
                dirs.entry(parent).or_default().1 = true;
            }
            if name == ".opencode" {
                found.config_dirs.push(path.to_path_buf());
            }
            continue;
        }
        let depth = entry.depth();
        if CONFIG_NAMES.contains(&name.as_ref()) {
            dirs.entry(parent).or_default().0 = true;
            found.configs.push(path.to_path_buf());
        } else if ZUNO_CONFIG_NAMES.contains(&name.as_ref())
            || TUI_NAMES.contains(&name.as_ref())
            || crate::analysis::project_file::NAMES.contains(&name.as_ref())
            || Manifest::of_path(path).is_some()
            || SettingsFile::of_path(path).is_some()
            || plugin_hooks_root(path).is_some()
            || mcp_json(path).is_some()
            || theme_dir(path).is_some()
            || not_checked_candidate(path)
            || copilot_kind(path).is_some_and(|(k, _)| k.is_json())
        {
            found.configs.push(path.to_path_buf());
        } else if name == "SKILL.md"
            || name.ends_with(".md") && in_agent_folder(path, depth)
            || is_memory(path)
            || output_style_kind(path).is_some()
            || copilot_kind(path).is_some()
        {
            found.markdown.push(path.to_path_buf());
        }
    }
    // Plugins in the build folders the walk leaves out (`dist/`, `build/`), where the ignore
    // rules let them be.
    for dir in dirs.keys() {
        for name in PLUGIN_DIRS {
            let d = dir.join(name);
            if !dirs.contains_key(&d) && d.is_dir() && !ignored(dir, name) {
                found.configs.extend(plugin_manifests(&d));
            }
        }
    }
    // Config folders the ignore rules hid.
    let mut hidden: Vec<PathBuf> = Vec::new();
    for dir in dirs.keys() {
        for f in CONFIG_FOLDERS {
            let c = dir.join(f);
            if !dirs.contains_key(&c) && c.is_dir() {
                hidden.push(c);
            }
        }
    }
    for (dir, (has_config, has_agent_dir)) in &dirs {
        if *has_config && *has_agent_dir && dir.file_name().is_none_or(|n| n != ".opencode") {
            found.config_dirs.push(dir.clone());
        }
    }
    // Claude Code reads `CLAUDE.local.md` even when git ignores it (it usually is).
    for dir in dirs.keys() {
        let p = dir.join("CLAUDE.local.md");
        if p.is_file() {
            found.markdown.push(p);
        }
    }
    // Claude Code reads `.mcp.json` even when git ignores it (it may hold credentials).
    for dir in dirs.keys() {
        let p = dir.join(MCP_JSON);
        if mcp_json(&p).is_some() && p.is_file() {
            found.configs.push(p);
        }
    }
    // Claude Code reads its settings even when git ignores them (`settings.local.json` usually is).
    for dir in dirs.keys().filter(|d| d.file_name().is_some_and(|n| n == ".claude")) {
        for name in ["settings.json", "settings.local.json"] {
            let p = dir.join(name);
            if p.is_file() {
                found.configs.push(p);
            }
        }
    }
    for c in hidden {
        let more = walk_unfiltered(&c);
        found.configs.extend(more.configs);
        found.markdown.extend(more.markdown);
        found.config_dirs.extend(more.config_dirs);
        found.unreadable.extend(more.unreadable);
    }
    found.configs.sort();
    found.configs.dedup();
    found.markdown.sort();
    found.markdown.dedup();
    found.config_dirs.sort();
    found.config_dirs.dedup();
    found
}

/// A file-system loop (a symlink to an ancestor), however the walker wraps it.
fn is_loop(e: &ignore::Error) -> bool {
    match e {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

/// Whether a Markdown file at `depth` below the walk's root sits in an agent, mode or command
/// folder (at any level up to the root).
fn in_agent_folder(path: &Path, depth: usize) -> bool {
    path.ancestors().skip(1).take(depth).any(|a| {
        a.file_name().is_some_and(|n| {
            ["agent", "agents", "mode", "modes", "command", "commands"].contains(&n.to_string_lossy().as_ref())
        })
    })
}

/// Walk `root` without ignore rules, following symlinks once each (a loop is entered only
/// once): for the config folders that ignore rules hide.
fn walk_unfiltered(root: &Path) -> Found {
    let mut found = Found::default();
    let mut seen = HashSet::new();
    if root.file_name().is_some_and(|n| n == ".opencode") {
        found.config_dirs.push(root.to_path_buf());
    }
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    let mut entries = 0usize;
    while let Some((dir, depth)) = stack.pop() {
        let Ok(canonical) = fs::canonicalize(&dir) else {
            continue;
        };
        if !seen.insert(canonical) {
            continue;
        }
        let read = match fs::read_dir(&dir) {
            Ok(r) => r,
            Err(e) => {
                found.unreadable.push((dir.clone(), e.to_string()));
                continue;
            }
        };
        let mut names: Vec<(String, PathBuf, bool)> = Vec::new();
        for entry in read.flatten() {
            entries += 1;
            if entries > MAX_ENTRIES {
                break;
            }
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            // Follow symlinks: `metadata` resolves them; a dangling link is skipped.
            let is_dir = fs::metadata(&path).map(|m| m.is_dir()).unwrap_or(false);
            names.push((name, path, is_dir));
        }
        names.sort();
        let mut has_config = false;
        let mut has_agent_dir = false;
        for (name, path, is_dir) in &names {
            if *is_dir {
                if matches!(name.as_str(), "agent" | "agents" | "mode" | "modes") {
                    has_agent_dir = true;
                }
                if name == ".opencode" {
                    found.config_dirs.push(path.clone());
                }
                if depth < MAX_DEPTH && !SKIP_DIRS.contains(&name.as_str()) {
                    stack.push((path.clone(), depth + 1));
                }
            } else if CONFIG_NAMES.contains(&name.as_str()) {
                has_config = true;
                found.configs.push(path.clone());
            } else if ZUNO_CONFIG_NAMES.contains(&name.as_str())
                || TUI_NAMES.contains(&name.as_str())
                || Manifest::of_path(path).is_some()
                || SettingsFile::of_path(path).is_some()
                || plugin_hooks_root(path).is_some()
                || mcp_json(path).is_some()
                || theme_dir(path).is_some()
                || not_checked_candidate(path)
            {
                found.configs.push(path.clone());
            } else if name == "SKILL.md"
                || name.ends_with(".md")
                    && path.ancestors().skip(1).take(depth + 1).any(|a| {
                        a.file_name().is_some_and(|n| {
                            ["agent", "agents", "mode", "modes", "command", "commands"]
                                .contains(&n.to_string_lossy().as_ref())
                        })
                    })
                || is_memory(path)
                || output_style_kind(path).is_some()
            {
                found.markdown.push(path.clone());
            }
        }
        let is_dot_opencode = dir.file_name().is_some_and(|n| n == ".opencode");
        if has_config && has_agent_dir && !is_dot_opencode {
            found.config_dirs.push(dir.clone());
        }
    }
    found.configs.sort();
    found.markdown.sort();
    found.config_dirs.sort();
    found.config_dirs.dedup();
    found
}

/// The Markdown agents of one config directory, as opencode globs them: `{agent,agents}/**/*.md`
/// (recursive) and `{mode,modes}/*.md`, each with its derived name.
pub fn markdown_agents(dir: &Path) -> Vec<(PathBuf, FileKind)> {
    let mut out = Vec::new();
    for sub in ["agent", "agents"] {
        let base = dir.join(sub);
        if base.is_dir() {
            let mut files = Vec::new();
            collect_md(&base, &mut files, 0, &mut HashSet::new());
            files.sort();
            for f in files {
                if let Ok(rel) = f.strip_prefix(dir) {
                    let name = agent_name_from_relative_path(&rel.to_string_lossy());
                    out.push((f, FileKind::Agent { name }));
                }
            }
        }
    }
    for sub in ["mode", "modes"] {
        let base = dir.join(sub);
        let Ok(read) = fs::read_dir(&base) else { continue };
        let mut files: Vec<PathBuf> = read
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "md") && p.is_file())
            .collect();
        files.sort();
        for f in files {
            if let Ok(rel) = f.strip_prefix(dir) {
                let name = agent_name_from_relative_path(&rel.to_string_lossy());
                out.push((f, FileKind::Mode { name }));
            }
        }
    }
    out
}

/// A project's `.mcp.json` (Claude Code's MCP servers): its kind, with the folder that holds
/// it. Not a plugin's `.mcp.json` (beside `.claude-plugin/`), which Claude Code reads with the
/// plugin.
pub fn mcp_json(path: &Path) -> Option<(crate::analysis::FileKind, PathBuf)> {
    if path.file_name()? != MCP_JSON {
        return None;
    }
    let dir = path.parent()?;
    (!dir.join(".claude-plugin").is_dir()).then(|| (crate::analysis::FileKind::McpJson, dir.to_path_buf()))
}

/// Claude Code's settings files: `.claude/settings.json` or `.claude/settings.local.json` of a
/// project, with the project directory, and the user's `~/.claude/settings.json` (with the home
/// directory; `settings.local.json` is not read there).
pub fn claude_settings(path: &Path, home: Option<&Path>) -> Option<(crate::analysis::FileKind, PathBuf)> {
    let kind = SettingsFile::of_path(path)?;
    let project = path.parent()?.parent()?;
    let kind = match (home == Some(project), kind) {
        (true, SettingsFile::Project) => SettingsFile::User,
        (true, _) => return None,
        (false, k) => k,
    };
    Some((crate::analysis::FileKind::Settings(kind), project.to_path_buf()))
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
/// [`claude::memory`] for when Claude Code reads each): `CLAUDE.md` of any folder (a project's, a
/// parent's, a sub-folder's) and `.claude/CLAUDE.md`, `CLAUDE.local.md`, a Markdown file at any
/// depth of `.claude/rules/`; under the home directory's `.claude/`, the user's. A `CLAUDE.md` of
/// an agents, modes or commands folder is one of their files instead.
pub fn memory_kind(path: &Path, home: Option<&Path>) -> Option<(claude::memory::MemoryFile, PathBuf)> {
    use claude::memory::MemoryFile;
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let parent_name = parent.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_home = |dot_claude: &Path| home.is_some_and(|h| dot_claude.parent() == Some(h));
    match name {
        "AGENTS.md" if parent_name == ".claude" => {
            return Some((MemoryFile::Agents, parent.parent()?.to_path_buf()));
        }
        "AGENTS.md" | "CONTEXT.md"
            if !matches!(
                parent_name,
                "agent" | "agents" | "mode" | "modes" | "command" | "commands" | "rules"
            ) =>
        {
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
        "CLAUDE.md" | "CLAUDE.local.md"
            if !matches!(
                parent_name,
                "agent" | "agents" | "mode" | "modes" | "command" | "commands" | "rules"
            ) =>
        {
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
/// [`plugin_kind`], which also finds the agents a manifest lists elsewhere). Returns the
/// directory that owns it (the project, the home directory, the plugin root). Only names ending
/// in `.md` (lower case) are agents.
pub fn claude_kind(path: &Path, home: Option<&Path>) -> Option<(claude::FileKind, PathBuf)> {
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
            return Some((claude::FileKind { source, stem }, owner));
        }
        if parent.join(".claude-plugin").join("plugin.json").is_file() {
            // A plugin's agent, if the plugin reads this folder (see `plugin_kind`).
            return match plugin_kind(path) {
                Some((Member::Agent(kind), root)) => Some((kind, root)),
                _ => None,
            };
        }
    }
    None
}

/// What a file is to Zuno, from its path: `zuno.json(c)` (bare in a project, in `.zuno/`, or in
/// the global directory), or a Markdown agent under `{agent,agents}/` (or a rejected
/// `{mode,modes}/`) of a `.zuno/` directory or of the global directory. With the project
/// directory it belongs to (the global directory for global files) and its layer.
pub fn zuno_kind(path: &Path, global: Option<&Path>) -> Option<(zuno::FileKind, PathBuf, ZunoLayer)> {
    let name = path.file_name()?.to_string_lossy();
    let parent = path.parent()?;
    let is_dot = |d: &Path| d.file_name().is_some_and(|n| n == ".zuno");
    if ZUNO_CONFIG_NAMES.contains(&name.as_ref()) {
        return Some(if global == Some(parent) {
            (zuno::FileKind::Config, parent.to_path_buf(), ZunoLayer::GlobalConfig)
        } else if is_dot(parent) {
            (
                zuno::FileKind::Config,
                parent.parent()?.to_path_buf(),
                ZunoLayer::DotConfig,
            )
        } else {
            (zuno::FileKind::Config, parent.to_path_buf(), ZunoLayer::ProjectConfig)
        });
    }
    if !name.ends_with(".md") {
        return None;
    }
    for anc in path.ancestors().skip(1) {
        let Some(folder) = anc.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            break;
        };
        if !matches!(folder.as_str(), "agent" | "agents" | "mode" | "modes") {
            continue;
        }
        let Some(dir) = anc.parent() else { break };
        let (owner, layer) = if global == Some(dir) {
            (dir.to_path_buf(), ZunoLayer::GlobalAgent)
        } else if is_dot(dir) {
            (dir.parent()?.to_path_buf(), ZunoLayer::DotAgent)
        } else {
            continue;
        };
        let relative = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
        let name = agent_name_from_relative_path(&relative);
        let kind = if folder.starts_with("mode") {
            zuno::FileKind::Mode { name }
        } else {
            zuno::FileKind::Agent { name }
        };
        return Some((kind, owner, layer));
    }
    None
}

/// What a file is to GitHub Copilot, with the workspace folder it belongs to (the one holding
/// `.github/` or `.vscode/`): `.github/agents/*.md` (custom agents: `.agent.md`, a plain `.md`,
/// a `.chatmode.md`), `.github/chatmodes/*.chatmode.md`, `.github/prompts/*.prompt.md`,
/// `.github/instructions/**/*.instructions.md`, `.github/copilot-instructions.md` and
/// `.vscode/mcp.json`.
pub fn copilot_kind(path: &Path) -> Option<(copilot::FileKind, PathBuf)> {
    use copilot::{AgentForm, FileKind as K};
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let parent_name = parent.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let at = |dot: &Path| dot.parent().map(Path::to_path_buf);
    if parent_name == ".vscode" && name == "mcp.json" {
        return Some((K::Mcp, at(parent)?));
    }
    if parent_name == ".github" && name == "copilot-instructions.md" {
        return Some((K::RepoInstructions, at(parent)?));
    }
    let grand = parent.parent()?;
    let in_github = |dir: &Path| dir.file_name().is_some_and(|n| n == ".github");
    if in_github(grand) {
        let stem = |suffix: &str| name.strip_suffix(suffix).filter(|s| !s.is_empty()).map(str::to_string);
        match parent_name {
            "agents" => {
                let (name, form) = if let Some(n) = stem(".agent.md") {
                    (n, AgentForm::AgentMd)
                } else if let Some(n) = stem(".chatmode.md") {
                    (n, AgentForm::ChatMode)
                } else if name.eq_ignore_ascii_case("README.md") {
                    // VS Code leaves a folder's README out of its agents.
                    return None;
                } else {
                    (stem(".md")?, AgentForm::PlainMd)
                };
                return Some((K::Agent { name, form }, at(grand)?));
            }
            "chatmodes" => {
                let name = stem(".chatmode.md")?;
                return Some((
                    K::Agent {
                        name,
                        form: AgentForm::ChatMode,
                    },
                    at(grand)?,
                ));
            }
            "prompts" => {
                return Some((
                    K::Prompt {
                        name: stem(".prompt.md")?,
                    },
                    at(grand)?,
                ));
            }
            _ => {}
        }
    }
    // Instructions: at any depth of `.github/instructions/`.
    let stem = name.strip_suffix(".instructions.md").filter(|s| !s.is_empty())?;
    for anc in path.ancestors().skip(1).take(16) {
        if anc.file_name().is_some_and(|n| n == "instructions") && anc.parent().is_some_and(in_github) {
            return Some((K::Instructions { name: stem.to_string() }, at(anc.parent()?)?));
        }
    }
    None
}

/// A `README.md` of `.github/agents/`, which Copilot leaves out of its agents: not read (as a
/// Copilot file, so that a file given by path says so instead of being taken for another
/// runtime's agent).
pub fn copilot_not_read(path: &Path) -> Option<crate::analysis::FileKind> {
    let name = path.file_name()?.to_str()?;
    let parent = path.parent()?;
    let in_agents = parent.file_name().is_some_and(|n| n == "agents")
        && parent
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".github");
    (in_agents && name.eq_ignore_ascii_case("README.md")).then(|| {
        crate::analysis::FileKind::Copilot(copilot::FileKind::Agent {
            name: "README".into(),
            form: copilot::AgentForm::PlainMd,
        })
    })
}

/// What a file is to the test-only Example dialect: `.example/agents/<name>.md`, with the
/// project holding `.example/`.
#[cfg(test)]
pub fn example_kind(path: &Path) -> Option<(crate::analysis::FileKind, PathBuf)> {
    let name = path.file_name()?.to_string_lossy().strip_suffix(".md")?.to_string();
    let agents = path.parent().filter(|p| p.file_name().is_some_and(|n| n == "agents"))?;
    let dot = agents
        .parent()
        .filter(|p| p.file_name().is_some_and(|n| n == ".example"))?;
    let kind = crate::analysis::example::FileKind::Agent { name };
    Some((crate::analysis::FileKind::Example(kind), dot.parent()?.to_path_buf()))
}

/// What a `SKILL.md` is, from its path (opencode §12.1, Claude Code §5.1, Zuno §4.1), with the
/// project it belongs to: which runtimes load it there, or, inside `.opencode/`, `.claude/` or
/// `.zuno/` but outside their skill folders, where it should go. `None` for a `SKILL.md` outside
/// those folders (a skill shipped elsewhere, e.g. in a plugin or a docs tree).
pub fn skill_kind(path: &Path) -> Option<(skill::SkillKind, PathBuf)> {
    use crate::analysis::Dialect;
    if path.file_name()? != "SKILL.md" {
        return None;
    }
    let folder_dir = path.parent()?;
    let folder = folder_dir.file_name()?.to_string_lossy().into_owned();
    let comps: Vec<&Path> = path.ancestors().skip(1).collect();
    for (i, anc) in comps.iter().enumerate() {
        let Some(name) = anc.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            break;
        };
        let (loaders, family, skill_dirs): (Vec<Dialect>, Dialect, &[&str]) = match name.as_str() {
            ".opencode" => (vec![Dialect::OpenCode], Dialect::OpenCode, &["skill", "skills"]),
            ".claude" => (vec![Dialect::Claude, Dialect::OpenCode], Dialect::Claude, &["skills"]),
            ".agents" => (vec![Dialect::OpenCode, Dialect::Zuno], Dialect::OpenCode, &["skills"]),
            ".zuno" => (vec![Dialect::Zuno], Dialect::Zuno, &["skill", "skills"]),
            _ => continue,
        };
        let project = anc.parent()?.to_path_buf();
        // The folder right below the config folder: `skills/` (any depth below), or not.
        let under = i.checked_sub(1).map(|j| comps[j]);
        let inside = under
            .and_then(|u| u.file_name())
            .is_some_and(|n| skill_dirs.contains(&n.to_string_lossy().as_ref()));
        // Claude Code reads `.claude/skills/<name>/SKILL.md` only, one level deep.
        let claude_ok = name != ".claude" || i == 2;
        let kind = if inside {
            let loaders = if claude_ok {
                loaders
            } else {
                loaders.into_iter().filter(|d| *d != Dialect::Claude).collect()
            };
            skill::SkillKind {
                folder,
                loaders,
                misplaced: None,
                family,
                namespace: None,
            }
        } else {
            skill::SkillKind {
                misplaced: Some(format!(
                    "`{name}/{}/{folder}/`",
                    skill_dirs.last().copied().unwrap_or("skills")
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

/// A skill of an opencode user config folder `dir` (the global one, `~/.opencode`,
/// `$OPENCODE_CONFIG_DIR`): `{skill,skills}/**/SKILL.md` below it, read in every project.
pub fn user_skill_kind(path: &Path, dir: &Path) -> Option<skill::SkillKind> {
    use crate::analysis::Dialect;
    if path.file_name()? != "SKILL.md" {
        return None;
    }
    let rel = path.strip_prefix(dir).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    if rel.components().count() < 3 || !matches!(first.as_ref(), "skill" | "skills") {
        return None;
    }
    Some(skill::SkillKind {
        folder: path.parent()?.file_name()?.to_string_lossy().into_owned(),
        loaders: vec![Dialect::OpenCode],
        misplaced: None,
        family: Dialect::OpenCode,
        namespace: None,
    })
}

/// A command of an opencode config directory laid out like a global one (`command/x.md` next to
/// its `opencode.json`), named by its path below the folder.
pub fn config_dir_command(name: String) -> command::CommandKind {
    command::CommandKind {
        runtime: crate::analysis::Dialect::OpenCode,
        name,
        plugin: false,
    }
}

/// The kind of `agent-lsp.toml`.
pub fn project_file() -> crate::analysis::FileKind {
    crate::analysis::FileKind::ProjectFile
}

/// What a command file is, from its path: `.opencode/{command,commands}/**/*.md` (opencode),
/// `.claude/commands/**/*.md` (Claude Code), `.zuno/{command,commands}/**/*.md` (Zuno); with the
/// project it belongs to.
pub fn command_kind(path: &Path) -> Option<(command::CommandKind, PathBuf)> {
    use crate::analysis::Dialect;
    path.file_name()?.to_string_lossy().strip_suffix(".md")?;
    for anc in path.ancestors().skip(1) {
        let Some(folder) = anc.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            break;
        };
        if !matches!(folder.as_str(), "command" | "commands") {
            continue;
        }
        let Some(config) = anc.parent() else { break };
        let runtime = match config.file_name().map(|n| n.to_string_lossy().into_owned()).as_deref() {
            Some(".opencode") => Dialect::OpenCode,
            Some(".claude") if folder == "commands" => Dialect::Claude,
            Some(".zuno") => Dialect::Zuno,
            _ => continue,
        };
        let rel = path.strip_prefix(anc).ok()?.to_string_lossy().replace('\\', "/");
        let rel = rel.strip_suffix(".md").unwrap_or(&rel);
        // Claude Code names a command in a sub-folder with its folders, `:`-separated
        // (`commands/frontend/test.md` is `/frontend:test`).
        let name = if runtime == Dialect::Claude {
            rel.replace('/', ":")
        } else {
            rel.to_string()
        };
        return Some((
            command::CommandKind {
                runtime,
                name,
                plugin: false,
            },
            config.parent()?.to_path_buf(),
        ));
    }
    None
}

/// The Claude Code agent files of an agents directory: every `*.md` at any depth, hidden folders
/// included (spec §7.1).
pub fn claude_agents(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if dir.is_dir() {
        collect_md(dir, &mut out, 0, &mut HashSet::new());
    }
    out.sort();
    out
}

/// What a file given explicitly on the command line is, from its path alone.
pub fn classify(path: &Path) -> Option<FileKind> {
    let name = path.file_name()?.to_string_lossy();
    if CONFIG_NAMES.contains(&name.as_ref()) || name == "config.json" {
        return Some(FileKind::Config);
    }
    if path.extension().is_some_and(|e| e == "json" || e == "jsonc") {
        return Some(FileKind::Config);
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
        if matches!(c, "agent" | "agents" | "mode" | "modes") {
            let rel = components[i..].join("/");
            let name = agent_name_from_relative_path(&rel);
            return Some(if c.starts_with("mode") && i + 2 == components.len() {
                FileKind::Mode { name }
            } else {
                FileKind::Agent { name }
            });
        }
    }
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    Some(FileKind::Agent { name: stem })
}

pub use super::plugins::{Member, Plugin, plugin_files, plugin_hooks_root, plugin_kind, plugin_member};
pub use super::tree::skill_files;
use super::tree::{MAX_DEPTH, MAX_ENTRIES, PLUGIN_DIRS, SKIP_DIRS, collect_md};

#[cfg(test)]
mod tests;

/// What to analyse a document as when it is not in an opencode location: JSON named like a
/// config or declaring opencode's schema, or Markdown that starts with a frontmatter.
pub fn solo_kind(path: Option<&Path>, uri: &str, language_id: &str, text: &str) -> Option<crate::analysis::FileKind> {
    let name = path
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| uri.rsplit('/').next().unwrap_or("").to_string());
    let is_json = matches!(language_id, "json" | "jsonc") || name.ends_with(".json") || name.ends_with(".jsonc");
    if is_json {
        // `.mcp.json` (an untitled one is not beside a plugin's manifest).
        let at = path.map_or_else(|| Path::new("/").join(&name), Path::to_path_buf);
        if let Some((kind, _)) = mcp_json(&at) {
            return Some(kind);
        }
        if theme_dir(&at).is_some() || text.contains("opencode.ai/theme.json") {
            return Some(FileKind::Theme.into());
        }
        if TUI_NAMES.contains(&name.as_str()) || text.contains("opencode.ai/tui.json") {
            return Some(FileKind::Tui.into());
        }
        let named = CONFIG_NAMES.contains(&name.as_str());
        return (named || text.contains("opencode.ai/config.json")).then_some(FileKind::Config.into());
    }
    let is_md = language_id == "markdown" || name.ends_with(".md");
    let starts_frontmatter = text.trim_start_matches('\u{feff}').starts_with("---");
    // A file on disk outside opencode's locations is an agent only when it sits in an
    // `agent(s)/` or `mode(s)/` folder: a blog post's frontmatter is not agent settings.
    let in_agent_folder = path.is_none_or(|p| {
        p.ancestors().skip(1).take(4).any(|a| {
            a.file_name()
                .is_some_and(|n| ["agent", "agents", "mode", "modes"].contains(&n.to_string_lossy().as_ref()))
        })
    });
    if is_md && starts_frontmatter && in_agent_folder {
        let stem = name.strip_suffix(".md").unwrap_or(&name).to_string();
        return Some(FileKind::Agent { name: stem }.into());
    }
    None
}
