//! Loading and discovery: the roots the user gave, the user-level layers, config directories,
//! plugins and skills, each file found given its kind and role (see [`super::discover`]).

use std::fs;
use std::path::{Path, PathBuf};

use super::discover;
use super::model::*;
use super::read::{Unread, read_text};
use crate::analysis::claude::output_style::Origin;
use crate::analysis::opencode::views::{DirKind, external_skill_folders, is_dot_opencode};
use crate::analysis::opencode::{self, FileKind as OcKind};
use crate::analysis::{self, Diagnostic, FileAnalysis, FileKind, LineIndex};

impl Workspace {
    /// Discover and analyse everything under `paths` (directories or files).
    pub fn load(paths: &[PathBuf], options: &Options) -> Result<Workspace, LoadError> {
        let mut ws = Workspace {
            options: options.clone(),
            ..Workspace::default()
        };
        let mut explicit = Vec::new();
        for p in paths {
            let meta = fs::metadata(p).map_err(|e| LoadError {
                path: p.clone(),
                message: e.to_string(),
            })?;
            // Absolute and canonical, so that the walk up to the worktree and the views see the
            // same paths for `.`, `packages/api` and `/abs/repo/packages/api`.
            let canonical = fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            if meta.is_dir() {
                ws.roots.push(canonical);
            } else {
                explicit.push((p.clone(), canonical));
            }
        }
        ws.load_user_layers();
        for root in ws.roots.clone() {
            ws.load_root(&root);
            // Read (without reporting on them) the layers opencode also loads when started there:
            // the configs and `.opencode/` folders of the ancestors up to the worktree top; for a
            // config directory (or a folder inside one) given as a path, those of its project.
            let project = enclosing_project(&root).unwrap_or_else(|| root.clone());
            ws.load_context(&project);
        }
        for (given, file) in &explicit {
            let Some((kind, role)) = ws.role_of(file).or_else(|| explicit_role(file)) else {
                return Err(LoadError {
                    path: given.clone(),
                    message: "not an opencode file (expected opencode.json, opencode.jsonc or a Markdown agent)".into(),
                });
            };
            let project = match &role {
                Role::ProjectConfig { dir } => Some(dir.clone()),
                Role::DirConfig { dir } | Role::Markdown { dir } if is_dot_opencode(dir) => {
                    dir.parent().map(Path::to_path_buf)
                }
                Role::Markdown { dir } => Some(dir.clone()),
                // Claude Code, Zuno, skill and command files: their project, so that the agents
                // they name resolve when the file is checked alone (as pre-commit passes it).
                Role::Claude { dir } | Role::Dialect { dir, .. } | Role::Skill { dir } | Role::Command { dir } => {
                    Some(dir.clone())
                }
                _ => None,
            };
            if role == Role::NotRead {
                ws.add_unread(file, kind, role, true, &Unread::NotRead);
                continue;
            }
            if let Role::NotChecked(what) = role {
                ws.add_unread(file, kind, role, true, &Unread::NotChecked(what));
                continue;
            }
            ws.read_and_add(file, kind, role, true);
            if let Some(project) = project {
                ws.load_context(&project);
            }
        }
        Ok(ws)
    }

    /// An empty workspace over `roots` (the language server fills it as it goes).
    pub fn new(roots: Vec<PathBuf>, options: Options) -> Workspace {
        let mut ws = Workspace {
            roots,
            options,
            ..Workspace::default()
        };
        ws.load_user_layers();
        ws
    }

    /// Discover and read everything under the roots (the language server's initial scan).
    pub fn scan(&mut self) {
        for root in self.roots.clone() {
            self.load_root(&root);
            let root = fs::canonicalize(&root).unwrap_or(root);
            self.load_mcp_above(&root);
        }
    }

    /// What a path is to opencode, given the roots and user directories of this workspace:
    /// `None` for a file opencode does not read.
    pub fn role_of(&self, path: &Path) -> Option<(FileKind, Role)> {
        let name = path.file_name()?.to_string_lossy();
        let parent = path.parent()?;
        if let Some(what) = discover::read_not_checked(path, self.options.home.as_deref()) {
            let kind = crate::analysis::claude::settings::SettingsFile::User;
            return Some((FileKind::from(kind), Role::NotChecked(what)));
        }
        if let Some(g) = &self.options.global_dir
            && parent == g
            && ["config.json", "opencode.json", "opencode.jsonc"].contains(&name.as_ref())
        {
            let order = match name.as_ref() {
                "config.json" => 0,
                "opencode.json" => 1,
                _ => 2,
            };
            return Some((OcKind::Config.into(), Role::UserConfig(order)));
        }
        if self.options.config_file.as_deref() == Some(path) {
            return Some((OcKind::Config.into(), Role::UserConfig(3)));
        }
        // The terminal interface's custom themes: `themes/*.json` of the global config folder and
        // of every `.opencode/`.
        let global_themes = self
            .options
            .global_dir
            .as_deref()
            .is_some_and(|g| parent == g.join("themes") && name.ends_with(".json"));
        if let Some(dir) = discover::theme_dir(path)
            .or_else(|| global_themes.then(|| parent.parent().map(Path::to_path_buf)).flatten())
        {
            return Some((OcKind::Theme.into(), Role::Theme { dir }));
        }
        // opencode's terminal interface reads `tui.json(c)` wherever it reads a config, and the
        // file `$OPENCODE_TUI_CONFIG` names.
        if discover::TUI_NAMES.contains(&name.as_ref()) || self.options.tui_config.as_deref() == Some(path) {
            let dir = parent.to_path_buf();
            return Some((OcKind::Tui.into(), Role::Tui { dir }));
        }
        if crate::analysis::project_file::NAMES.contains(&name.as_ref()) {
            return Some((
                discover::project_file(),
                Role::ProjectFile {
                    dir: parent.to_path_buf(),
                },
            ));
        }
        if discover::CONFIG_NAMES.contains(&name.as_ref()) {
            let in_config_dir = is_dot_opencode(parent)
                || self.options.home_dot_opencode.as_deref() == Some(parent)
                || self.options.config_dir.as_deref() == Some(parent);
            let role = if in_config_dir {
                Role::DirConfig {
                    dir: parent.to_path_buf(),
                }
            } else {
                Role::ProjectConfig {
                    dir: parent.to_path_buf(),
                }
            };
            return Some((OcKind::Config.into(), role));
        }
        if let Some(role) = plugin_role(path) {
            return role;
        }
        if let Some((kind, dir)) = discover::mcp_json(path) {
            return Some((kind, Role::McpJson { dir }));
        }
        if let Some((kind, dir)) = discover::copilot_kind(path) {
            return Some((kind.into(), Role::Dialect { dir, layer: 0 }));
        }
        if let Some(kind) = discover::copilot_not_read(path) {
            return Some((kind, Role::NotRead));
        }
        if let Some((kind, dir)) = discover::claude_settings(path, self.options.home.as_deref()) {
            return Some((kind, Role::ClaudeSettings { dir }));
        }
        if let Some((kind, dir)) = discover::claude_kind(path, self.options.home.as_deref()) {
            return Some((kind.into(), Role::Claude { dir }));
        }
        if let Some((kind, dir, layer)) = discover::zuno_kind(path, self.options.zuno_global.as_deref()) {
            return Some((kind.into(), layer.role(dir)));
        }
        #[cfg(test)]
        if let Some((kind, dir)) = discover::example_kind(path) {
            return Some((kind, Role::Dialect { dir, layer: 0 }));
        }
        if let Some((kind, dir)) = discover::skill_kind(path) {
            return Some((FileKind::from(kind), Role::Skill { dir }));
        }
        // A skill of a user config folder (the global one, `~/.opencode`, `$OPENCODE_CONFIG_DIR`):
        // `{skill,skills}/**/SKILL.md`, read by opencode in every project.
        let o = &self.options;
        for dir in [&o.global_dir, &o.home_dot_opencode, &o.config_dir]
            .into_iter()
            .flatten()
        {
            if let Some(kind) = discover::user_skill_kind(path, dir) {
                return Some((FileKind::from(kind), Role::Skill { dir: dir.clone() }));
            }
        }
        if let Some((kind, dir)) = discover::command_kind(path) {
            return Some((FileKind::from(kind), Role::Command { dir }));
        }
        if let Some(dir) = discover::output_style_kind(path) {
            return Some((FileKind::from(Origin::Project), Role::OutputStyle { dir }));
        }
        if let Some((kind, dir)) = discover::memory_kind(path, self.options.home.as_deref()) {
            return Some((FileKind::from(kind), Role::Memory { dir }));
        }
        if path.extension().is_none_or(|e| e != "md") {
            return None;
        }
        // A command of a config directory other than `.opencode/` (the global one, `~/.opencode`,
        // `$OPENCODE_CONFIG_DIR`, a directory laid out like them): `{command,commands}/**/*.md`.
        for anc in path.ancestors().skip(1) {
            let Some(comp) = anc.file_name().map(|c| c.to_string_lossy()) else {
                break;
            };
            if !matches!(comp.as_ref(), "command" | "commands") {
                continue;
            }
            let dir = anc.parent()?;
            if !is_dot_opencode(dir) && self.is_config_dir(dir) {
                let rel = path.strip_prefix(anc).ok()?.to_string_lossy().replace('\\', "/");
                let name = rel.strip_suffix(".md").unwrap_or(&rel).to_string();
                let kind = discover::config_dir_command(name);
                return Some((FileKind::from(kind), Role::Command { dir: dir.to_path_buf() }));
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
                if !self.is_config_dir(dir) {
                    rel.push(comp);
                    continue;
                }
                let relative = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
                let name = opencode::agent_name_from_relative_path(&relative);
                let kind = if is_agents {
                    OcKind::Agent { name }
                } else {
                    OcKind::Mode { name }
                };
                return Some((kind.into(), Role::Markdown { dir: dir.to_path_buf() }));
            }
            rel.push(comp);
        }
        None
    }

    pub(super) fn is_config_dir(&self, dir: &Path) -> bool {
        crate::analysis::opencode::views::dir_kind(self, dir) != DirKind::Layout
            || discover::CONFIG_NAMES
                .iter()
                .any(|n| dir.join(n).is_file() || self.id(&dir.join(n)).is_some())
    }

    pub(super) fn in_roots(&self, path: &Path) -> bool {
        self.roots.iter().any(|r| path.starts_with(r))
    }

    pub(super) fn load_user_layers(&mut self) {
        self.load_user_skills();
        match self.options.home.as_deref().and_then(claude_user_servers) {
            Some(servers) => self
                .dialect_state
                .insert(crate::analysis::Dialect::Claude, Box::new(servers)),
            None => self.dialect_state.remove(&crate::analysis::Dialect::Claude),
        };
        // Claude Code user agents (`~/.claude/agents/`) and output styles
        // (`~/.claude/output-styles/`): read for resolution, not reported on.
        if let Some(home) = self.options.home.clone() {
            let dot_claude = home.join(".claude");
            let mut user = discover::claude_agents(&dot_claude.join("agents"));
            user.extend(discover::claude_agents(&dot_claude.join("output-styles")));
            for p in user {
                if let Some((kind, role)) = self.role_of(&p) {
                    self.read_and_add(&p, kind, role, false);
                }
            }
        }
        // Zuno's global directory: its config and Markdown agents, read for resolution.
        if let Some(dir) = self.options.zuno_global.clone() {
            let mut found: Vec<PathBuf> = discover::ZUNO_CONFIG_NAMES.iter().map(|n| dir.join(n)).collect();
            for sub in ["agent", "agents", "mode", "modes"] {
                found.extend(discover::claude_agents(&dir.join(sub)));
            }
            for p in found.into_iter().filter(|p| p.is_file()) {
                if let Some((kind, role)) = self.role_of(&p) {
                    let in_scope = self.in_roots(&p);
                    self.read_and_add(&p, kind, role, in_scope);
                }
            }
        }
        let o = self.options.clone();
        let mut user_files: Vec<PathBuf> = Vec::new();
        if let Some(dir) = &o.global_dir {
            user_files.extend(
                ["config.json", "opencode.json", "opencode.jsonc"]
                    .iter()
                    .map(|n| dir.join(n)),
            );
        }
        user_files.extend(o.config_file.clone());
        for dir in [&o.home_dot_opencode, &o.config_dir].into_iter().flatten() {
            user_files.extend(discover::CONFIG_NAMES.iter().map(|n| dir.join(n)));
        }
        // The global config folder's themes.
        if let Some(dir) = &o.global_dir
            && let Ok(read) = fs::read_dir(dir.join("themes"))
        {
            let mut themes: Vec<PathBuf> = read
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
            themes.sort();
            user_files.extend(themes);
        }
        // The terminal interface's settings: of the user config directories, and
        // `$OPENCODE_TUI_CONFIG`.
        for dir in [&o.global_dir, &o.home_dot_opencode, &o.config_dir]
            .into_iter()
            .flatten()
        {
            user_files.extend(discover::TUI_NAMES.iter().map(|n| dir.join(n)));
        }
        user_files.extend(o.tui_config.clone());
        for f in user_files {
            if f.is_file()
                && let Some((kind, role)) = self.role_of(&f)
            {
                let in_scope = self.in_roots(&f);
                self.read_and_add(&f, kind, role, in_scope);
            }
        }
        for dir in [&o.global_dir, &o.home_dot_opencode, &o.config_dir]
            .into_iter()
            .flatten()
        {
            self.load_markdown_of(dir);
        }
    }

    /// The files a file that appeared on disk in `role` brings along before it is read (a new
    /// `opencode.json` can make its folder a config folder: its Markdown agents join); returns
    /// the ids added or refreshed.
    pub fn load_beside(&mut self, role: &Role) -> Vec<usize> {
        match role {
            Role::ProjectConfig { dir } => {
                let dir = dir.clone();
                self.load_config_dir_agents(&dir)
            }
            _ => Vec::new(),
        }
    }

    /// Load the Markdown agents of `dir` if it is laid out as a config directory; returns the
    /// ids added or refreshed.
    pub fn load_config_dir_agents(&mut self, dir: &Path) -> Vec<usize> {
        let has_agents = ["agent", "agents", "mode", "modes"]
            .iter()
            .any(|s| dir.join(s).is_dir());
        if !has_agents {
            return Vec::new();
        }
        let in_scope = self.in_roots(dir);
        let mut ids = Vec::new();
        for (p, kind) in discover::markdown_agents(dir) {
            ids.extend(self.read_and_add(&p, kind.into(), Role::Markdown { dir: dir.to_path_buf() }, in_scope));
        }
        ids
    }

    /// Load (or re-read) what the Claude Code plugin at `root` contributes, as its manifest on
    /// disk says; files of it already loaded whose kind changed (the plugin was renamed, a
    /// custom path added or dropped) are re-analysed, and those it no longer contributes
    /// removed. Returns the ids added or changed.
    pub fn load_plugin(&mut self, root: &Path) -> Vec<usize> {
        let mut touched = Vec::new();
        let Some(plugin) = discover::Plugin::at(root) else {
            return touched;
        };
        let members = discover::plugin_files(&plugin);
        // Files of the plugin already loaded: their kind as the manifest now says.
        let loaded: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live
                    && f.path.starts_with(root)
                    && matches!(
                        f.role,
                        Role::Claude { ref dir } | Role::Command { ref dir } | Role::Skill { ref dir } if dir == root
                    )
            })
            .collect();
        for id in loaded {
            let path = self.files[id].path.clone();
            match self.role_of(&path) {
                Some((kind, role)) if kind != self.files[id].kind || role != self.files[id].role => {
                    let text = std::mem::take(&mut self.files[id].text);
                    let in_scope = self.files[id].in_scope;
                    touched.push(self.upsert(&path, kind, role, text, in_scope));
                }
                Some(_) => {}
                None => touched.extend(self.remove(&path)),
            }
        }
        let items: Vec<(PathBuf, FileKind, Role, bool)> = members
            .into_iter()
            .filter(|(p, _)| self.id(p).is_none())
            .map(|(p, member)| {
                let in_scope = self.in_roots(&p);
                let dir = plugin.root.clone();
                let (kind, role) = match member {
                    discover::Member::Agent(k) => (k.into(), Role::Claude { dir }),
                    discover::Member::Command(k) => (FileKind::from(k), Role::Command { dir }),
                    discover::Member::Skill(k) => (FileKind::from(k), Role::Skill { dir }),
                    discover::Member::OutputStyle(o) => (FileKind::from(o), Role::OutputStyle { dir }),
                    discover::Member::Servers(k) => (FileKind::from(k), Role::Manifest { dir }),
                };
                (p, kind, role, in_scope)
            })
            .collect();
        let paths: Vec<PathBuf> = items.iter().map(|(p, ..)| p.clone()).collect();
        self.read_and_add_all(items);
        touched.extend(paths.iter().filter_map(|p| self.id(p)));
        touched
    }

    pub(super) fn load_markdown_of(&mut self, dir: &Path) {
        let in_scope = self.in_roots(dir);
        let items = discover::markdown_agents(dir)
            .into_iter()
            .map(|(p, kind)| (p, kind.into(), Role::Markdown { dir: dir.to_path_buf() }, in_scope))
            .collect();
        self.read_and_add_all(items);
    }

    /// [`Workspace::read_and_add`] for many files: those not loaded yet are read and analysed
    /// on every core, then added in the order given.
    pub(super) fn read_and_add_all(&mut self, items: Vec<(PathBuf, FileKind, Role, bool)>) {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
        let (fresh, known): (Vec<_>, Vec<_>) = items
            .into_iter()
            .partition(|(p, ..)| self.id(p).is_none() && !self.errors.iter().any(|(e, _)| e == p));
        for (p, kind, role, in_scope) in known {
            self.read_and_add(&p, kind, role, in_scope);
        }
        // Reading on one thread or on several gives the same workspace (the files are added in
        // the order given either way): this choice is speed only, and no test can tell a
        // changed condition here (`threads == 2`, say) from this one.
        if threads < 2 || fresh.len() < 32 {
            for (p, kind, role, in_scope) in fresh {
                self.read_and_add(&p, kind, role, in_scope);
            }
            return;
        }
        type Read = Result<(String, Option<Diagnostic>, FileAnalysis, LineIndex), Unread>;
        let work = |(p, kind, ..): &(PathBuf, FileKind, Role, bool)| -> Read {
            let (text, problem) = read_text(p)?;
            let analysis = analysis::analyze(kind, &text);
            let index = LineIndex::new(&text);
            Ok((text, problem, analysis, index))
        };
        let chunk = fresh.len().div_ceil(threads);
        let results: Vec<Read> = std::thread::scope(|scope| {
            let handles: Vec<_> = fresh
                .chunks(chunk)
                .map(|part| scope.spawn(move || part.iter().map(work).collect::<Vec<Read>>()))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        for ((p, kind, role, in_scope), result) in fresh.into_iter().zip(results) {
            match result {
                Ok((text, problem, analysis, index)) => {
                    let id = self.upsert_analyzed(&p, kind, role, text, (analysis, index), in_scope);
                    if let Some(problem) = problem {
                        self.files[id].analysis.diagnostics.insert(0, problem);
                    }
                }
                Err(why) => {
                    self.add_unread(&p, kind, role, in_scope, &why);
                }
            }
        }
    }

    pub(super) fn load_root(&mut self, root: &Path) {
        let found = discover::walk(root);
        self.errors.extend(found.unreadable.iter().cloned());
        for c in &found.configs {
            if let Some((kind, role)) = self.role_of(c) {
                self.read_and_add(c, kind, role, true);
            }
        }
        // Claude Code plugins: everything each one contributes, custom paths included.
        for c in &found.configs {
            if crate::analysis::claude::plugin::Manifest::of_path(c)
                == Some(crate::analysis::claude::plugin::Manifest::Plugin)
                && let Some(plugin_root) = c.parent().and_then(Path::parent)
            {
                self.load_plugin(plugin_root);
            }
        }
        for d in &found.config_dirs {
            self.load_markdown_of(d);
        }
        // Markdown agents whose config directory lies above the root (the root is a config
        // directory or a folder inside one).
        for md in &found.markdown {
            if self.id(md).is_none()
                && let Some((kind, role)) = self.role_of(md)
                && role != Role::NotRead
            {
                self.read_and_add(md, kind, role, true);
            }
        }
    }

    /// Read, without reporting on them, the layers opencode would load when started in
    /// `project`: configs and `.opencode/` of it and its ancestors up to the worktree top (the
    /// first directory holding `.git`, else the file-system root).
    pub(super) fn load_context(&mut self, project: &Path) {
        let project = fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
        let mut top = project.clone();
        for anc in project.ancestors().take(64) {
            for name in discover::CONFIG_NAMES {
                let f = anc.join(name);
                if f.is_file()
                    && let Some((kind, role)) = self.role_of(&f)
                {
                    self.read_and_add(&f, kind, role, false);
                }
            }
            let dot = anc.join(".opencode");
            if dot.is_dir() {
                for name in discover::CONFIG_NAMES {
                    let f = dot.join(name);
                    if f.is_file() {
                        self.read_and_add(&f, OcKind::Config.into(), Role::DirConfig { dir: dot.clone() }, false);
                    }
                }
                self.load_markdown_of(&dot);
            }
            // agent-lsp's own project file: it governs what is reported under it.
            for name in crate::analysis::project_file::NAMES {
                let f = anc.join(name);
                if self.id(&f).is_none() && f.is_file() {
                    self.read_and_add(
                        &f,
                        discover::project_file(),
                        Role::ProjectFile { dir: anc.to_path_buf() },
                        false,
                    );
                }
            }
            // Zuno reads `zuno.json(c)` and `.zuno/` of each ancestor too.
            let dot_zuno = anc.join(".zuno");
            let mut zuno_files: Vec<PathBuf> = discover::ZUNO_CONFIG_NAMES.iter().map(|n| anc.join(n)).collect();
            zuno_files.extend(discover::ZUNO_CONFIG_NAMES.iter().map(|n| dot_zuno.join(n)));
            if dot_zuno.is_dir() {
                for sub in ["agent", "agents", "mode", "modes"] {
                    zuno_files.extend(discover::claude_agents(&dot_zuno.join(sub)));
                }
            }
            for f in zuno_files.into_iter().filter(|f| f.is_file()) {
                if let Some((kind, role)) = self.role_of(&f) {
                    self.read_and_add(&f, kind, role, false);
                }
            }
            // Claude Code walks up from where it starts too: `.claude/agents/` of each ancestor.
            let claude = anc.join(".claude").join("agents");
            if claude.is_dir() {
                for f in discover::claude_agents(&claude) {
                    if let Some((kind, role)) = self.role_of(&f) {
                        self.read_and_add(&f, kind, role, false);
                    }
                }
            }
            top = anc.to_path_buf();
            if anc.join(".git").exists() {
                break;
            }
        }
        self.load_mcp_above(&project);
        if !self.context_roots.contains(&top) {
            self.context_roots.push(top);
        }
    }

    /// Read, without reporting on them, the `.mcp.json` files of `dir`'s ancestors: Claude Code
    /// started in `dir` reads those of every folder above it, past the repository's top too.
    pub(super) fn load_mcp_above(&mut self, dir: &Path) {
        for anc in dir.ancestors().take(64) {
            let f = anc.join(discover::MCP_JSON);
            if self.id(&f).is_none()
                && f.is_file()
                && let Some((kind, role)) = self.role_of(&f)
            {
                let in_scope = self.in_roots(&f);
                self.read_and_add(&f, kind, role, in_scope);
            }
        }
    }

    /// Read the names of the user-level skills opencode loads (spec §12.1), honouring
    /// `OPENCODE_DISABLE_EXTERNAL_SKILLS` and `OPENCODE_DISABLE_CLAUDE_CODE_SKILLS`.
    pub(super) fn load_user_skills(&mut self) {
        let o = &self.options;
        let mut files = Vec::new();
        if let Some(home) = &o.home {
            for e in external_skill_folders(&|k| {
                std::env::var_os(k)
                    .filter(|v| !v.is_empty())
                    .map(|v| v.to_string_lossy().into_owned())
            }) {
                files.extend(discover::skill_files(&home.join(e), &["skills"], true));
            }
        }
        for dir in [&o.global_dir, &o.home_dot_opencode, &o.config_dir]
            .into_iter()
            .flatten()
        {
            files.extend(discover::skill_files(dir, &["skill", "skills"], false));
        }
        let names = files
            .iter()
            .filter_map(|p| read_text(p).ok())
            .filter_map(|(text, _)| skill_name(&text))
            .collect();
        self.user_skills.insert(crate::analysis::Dialect::OpenCode, names);
        // Claude Code names a personal skill by its folder, one level below `skills/`.
        if let Some(home) = &self.options.home {
            let root = home.join(".claude").join("skills");
            if let Ok(entries) = fs::read_dir(&root) {
                let mut names: Vec<String> = entries
                    .flatten()
                    .filter(|e| e.path().join("SKILL.md").is_file())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect();
                names.sort();
                self.user_skills.insert(crate::analysis::Dialect::Claude, names);
            }
        }
    }

    /// Read the skills a Zuno project can load: `.zuno/{skill,skills}/**/SKILL.md` and
    /// `.agents/skills/**/SKILL.md` of the project and its ancestors, and the global
    /// `{skill,skills}/`. A skill's name is its frontmatter `name`.
    pub(super) fn load_zuno_skills(&mut self, dialect: crate::analysis::Dialect, project: &Path) {
        let key = (dialect, project.to_path_buf());
        if self.dialect_skills.contains_key(&key) {
            return;
        }
        let mut files = Vec::new();
        for anc in project.ancestors().take(64) {
            files.extend(discover::skill_files(&anc.join(".zuno"), &["skill", "skills"], true));
            files.extend(discover::skill_files(&anc.join(".agents"), &["skills"], true));
            if anc.join(".git").exists() {
                break;
            }
        }
        if let Some(g) = &self.options.zuno_global {
            files.extend(discover::skill_files(g, &["skill", "skills"], true));
        }
        let names = files
            .iter()
            .filter_map(|p| read_text(p).ok())
            .filter_map(|(text, _)| skill_name(&text))
            .collect();
        self.dialect_skills.insert(key, names);
    }
}

/// The MCP servers Claude Code reads from the user's configuration (`~/.claude.json`): none
/// when it does not exist; `None` when they cannot be known: the file is unreadable or not JSON
/// of that shape, `CLAUDE_CONFIG_DIR` moves it, or an organization's `managed-mcp.json` may add
/// servers.
fn claude_user_servers(home: &Path) -> Option<crate::analysis::claude::mcp::names::UserServers> {
    const MANAGED: &[&str] = &[
        "/etc/claude-code/managed-mcp.json",
        "/Library/Application Support/ClaudeCode/managed-mcp.json",
        "C:\\Program Files\\ClaudeCode\\managed-mcp.json",
    ];
    if std::env::var_os("CLAUDE_CONFIG_DIR").is_some() || MANAGED.iter().any(|p| Path::new(p).exists()) {
        return None;
    }
    match fs::read_to_string(home.join(".claude.json")) {
        Ok(text) => crate::analysis::claude::mcp::names::UserServers::parse(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Default::default()),
        Err(_) => None,
    }
}

/// The project directory around a root that is a config directory or lies inside one.
pub(super) fn enclosing_project(root: &Path) -> Option<PathBuf> {
    let root = fs::canonicalize(root).ok()?;
    if is_dot_opencode(&root) {
        return root.parent().map(Path::to_path_buf);
    }
    for anc in root.ancestors().take(8) {
        let name = anc.file_name()?.to_string_lossy();
        if ["agent", "agents", "mode", "modes"].contains(&name.as_ref()) {
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

/// The `name` of a `SKILL.md` frontmatter (a plain or quoted one-line value).
pub(super) fn skill_name(text: &str) -> Option<String> {
    let rest = text.trim_start_matches('\u{feff}').strip_prefix("---")?;
    for line in rest.lines().skip(1) {
        if line.trim_end() == "---" {
            break;
        }
        if let Some(v) = line.strip_prefix("name:") {
            let v = v.trim().trim_matches(['"', '\'']);
            return (!v.is_empty()).then(|| v.to_string());
        }
    }
    None
}

/// What a file is to a Claude Code plugin: a manifest, or a file the plugin contributes (an
/// agent, a command, a skill; see [`discover::plugin_kind`]). `Some(None)`: a `SKILL.md` inside a
/// plugin that the plugin does not load and no other runtime would (not a misplaced skill of a
/// project: the plugin's own rules decide). `None`: not a plugin's file.
pub(super) fn plugin_role(path: &Path) -> Option<Option<(FileKind, Role)>> {
    use crate::analysis::claude::plugin::Manifest;
    if let Some(m) = Manifest::of_path(path) {
        let dir = path.parent()?.parent()?.to_path_buf();
        return Some(Some((FileKind::from(m), Role::Manifest { dir })));
    }
    if let Some(dir) = discover::plugin_hooks_root(path) {
        return Some(Some((FileKind::plugin_hooks(), Role::Manifest { dir })));
    }
    let name = path.file_name()?.to_string_lossy();
    if matches!(name.as_ref(), ".mcp.json" | ".lsp.json" | "monitors.json") {
        // A plugin's server file, when a plugin reads it.
        let plugin = discover::Plugin::of(path)?;
        return match discover::plugin_member(&plugin, path) {
            Some(discover::Member::Servers(k)) => Some(Some((FileKind::from(k), Role::Manifest { dir: plugin.root }))),
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
        matches!(a.file_name().and_then(|n| n.to_str()), Some(".opencode" | ".zuno"))
            || (parent.is_some_and(|p| p == ".claude")
                && matches!(
                    a.file_name().and_then(|n| n.to_str()),
                    Some("agents" | "commands" | "skills" | "output-styles")
                ))
    });
    if in_config_folder {
        return None;
    }
    let plugin = discover::Plugin::of(path)?;
    match discover::plugin_member(&plugin, path) {
        Some(discover::Member::Agent(k)) => Some(Some((k.into(), Role::Claude { dir: plugin.root }))),
        Some(discover::Member::Command(k)) => Some(Some((FileKind::from(k), Role::Command { dir: plugin.root }))),
        Some(discover::Member::Skill(k)) => Some(Some((FileKind::from(k), Role::Skill { dir: plugin.root }))),
        Some(discover::Member::Servers(k)) => Some(Some((FileKind::from(k), Role::Manifest { dir: plugin.root }))),
        Some(discover::Member::OutputStyle(o)) => {
            Some(Some((FileKind::from(o), Role::OutputStyle { dir: plugin.root })))
        }
        None if name == "SKILL.md" => match discover::skill_kind(path) {
            Some((k, dir)) if k.misplaced.is_none() => Some(Some((FileKind::from(k), Role::Skill { dir }))),
            _ => Some(None),
        },
        None => None,
    }
}

/// A file named explicitly that is not in an opencode location: analysed on its own.
pub(super) fn explicit_role(path: &Path) -> Option<(FileKind, Role)> {
    if let Some(role) = plugin_role(path) {
        return role;
    }
    if let Some((kind, project)) = discover::claude_kind(path, None) {
        return Some((kind.into(), Role::Claude { dir: project }));
    }
    if let Some((kind, dir, layer)) = discover::zuno_kind(path, None) {
        return Some((kind.into(), layer.role(dir)));
    }
    if let Some(dir) = discover::output_style_kind(path) {
        return Some((FileKind::from(Origin::Project), Role::OutputStyle { dir }));
    }
    if let Some((kind, dir)) = discover::memory_kind(path, None) {
        return Some((FileKind::from(kind), Role::Memory { dir }));
    }
    let kind = discover::classify(path)?;
    let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
    // opencode reads a config by its name, and a Markdown agent in an `agent(s)/` or `mode(s)/`
    // folder; any other Markdown or JSON file given by path is read by no runtime.
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let in_agents_folder = path.ancestors().skip(1).any(|a| {
        a.file_name()
            .is_some_and(|n| ["agent", "agents", "mode", "modes"].contains(&n.to_string_lossy().as_ref()))
    });
    let read = match &kind {
        OcKind::Config => discover::CONFIG_NAMES.contains(&name.as_str()) || name == "config.json",
        _ => in_agents_folder,
    };
    if !read {
        return Some((kind.into(), Role::NotRead));
    }
    let role = match &kind {
        OcKind::Config => Role::ProjectConfig { dir: parent },
        _ => Role::Markdown {
            dir: path
                .ancestors()
                .skip(1)
                .find(|a| {
                    a.file_name()
                        .is_some_and(|n| ["agent", "agents", "mode", "modes"].contains(&n.to_string_lossy().as_ref()))
                })
                .and_then(Path::parent)
                .unwrap_or(&parent)
                .to_path_buf(),
        },
    };
    Some((kind.into(), role))
}

/// The plugin folder whose files a file brings along once read: a plugin manifest decides what
/// its plugin contributes, and under which name (see [`Workspace::load_plugin`]).
pub fn brings_files(kind: &FileKind, role: &Role) -> Option<PathBuf> {
    match role {
        Role::Manifest { dir } if kind.manifest() == Some(crate::analysis::claude::plugin::Manifest::Plugin) => {
            Some(dir.clone())
        }
        _ => None,
    }
}
