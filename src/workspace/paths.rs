//! The paths an opencode config names on disk (`instructions`, `skills.paths`, local
//! `references`, local plugins), looked up as opencode 1.18.34 looks them up; the ones that
//! match nothing are `missing-path` warnings on the config. Run when a config is analysed and
//! again by [`Workspace::refresh_config_paths`] when files appear or vanish.
//!
//! How opencode resolves each (from its code, confirmed by the runtime tests):
//! - an `instructions` entry: `~/` is the home folder; an absolute path is a glob of its last
//!   segment in its folder; anything else is a glob tried in the folder opencode starts in and
//!   each parent up to the worktree's root; URLs are fetched instead;
//! - a `skills.paths` folder: `~/` is the home folder; relative to the folder opencode starts in;
//!   it must be a folder;
//! - a local `references` folder: `~/` is the home folder; relative to the config's folder;
//! - a plugin path (`file://`, `./`, `../`, absolute): relative to the config's folder.
//!
//! agent-lsp takes the project a config belongs to as the folder opencode starts in. In a global
//! config, relative `instructions` and `skills.paths` depend on the project opencode is started
//! in, so they are not checked.

use std::path::{Path, PathBuf};

use super::model::*;
use crate::analysis::Span;
use crate::analysis::claude::Source;
use crate::analysis::claude::settings::{PermissionRule, SettingsFile};
use crate::analysis::diagnostic::Edit;
use crate::analysis::diagnostic::{Effect, Severity};
use crate::analysis::opencode::sections::{PathKind, PathRef};
use crate::analysis::{Code, Diagnostic};

/// How many directory entries a glob may visit before it is taken to match (a huge tree must not
/// stall a keystroke; a warning is only given when the answer is certain).
const GLOB_BUDGET: usize = 20_000;

impl Workspace {
    /// Look up the paths of config `id` and replace its `missing-path` findings; returns
    /// whether they changed.
    pub(super) fn check_config_paths(&mut self, id: usize) -> bool {
        let f = &self.files[id];
        // Other files' `missing-path` findings are theirs (Claude Code's imports, `imports.rs`;
        // hooks, below).
        if !f.kind.is_config() {
            return false;
        }
        let paths: &[PathRef] = &f.analysis.opencode().paths;
        let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::MissingPath);
        if paths.is_empty() && !had {
            return false;
        }
        let Some(config_dir) = f.path.parent() else {
            return false;
        };
        // The folder opencode starts in, for a project's config; none for a global one.
        let project: Option<&Path> = match &f.role {
            Role::ProjectConfig { dir } => Some(dir),
            Role::DirConfig { dir } if dir.file_name().is_some_and(|n| n == ".opencode") => dir.parent(),
            _ => None,
        };
        let home = self.options.home.as_deref();
        let mut found = Vec::new();
        for p in paths {
            let key = (f.path.clone(), p.kind, p.text.clone());
            let d = match self.path_memo.get(&key) {
                Some(d) => d.clone(),
                None => {
                    let d = missing(p, config_dir, project, home);
                    self.path_memo.insert(key, d.clone());
                    d
                }
            };
            // The same finding where the path is written now.
            if let Some(mut d) = d {
                d.span = p.span;
                found.push(d);
            }
        }
        self.replace_findings(id, Code::MissingPath, found)
    }

    /// Look up the `applyTo` patterns of Copilot instructions file `id` in its workspace folder
    /// and replace its `missing-path` findings; returns whether they changed. The walk follows
    /// the ignore rules (a file git ignores is not in the workspace VS Code searches) and has a
    /// budget: past it, no verdict.
    pub(super) fn check_apply_to(&mut self, id: usize) -> bool {
        let f = &self.files[id];
        let Some(c) = f.analysis.copilot() else {
            return false;
        };
        let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::MissingPath);
        if c.apply_to.is_empty() && !had {
            return false;
        }
        let Some(dir) = crate::analysis::copilot::dialect::folder_of(self, id) else {
            return false;
        };
        let patterns: Vec<(String, Span)> = c.apply_to.iter().map(|p| (p.name.clone(), p.span)).collect();
        // Teams write patterns ahead of their files: one pattern that matches is enough for the
        // instructions to apply, so a finding only when no pattern matches anything, and then as
        // information.
        let mut unmatched = Vec::new();
        for (pattern, span) in &patterns {
            if crate::analysis::copilot::glob::matches_all(pattern) {
                unmatched.clear();
                break;
            }
            let key = (dir.clone(), pattern.clone());
            let matched = match self.apply_to_memo.get(&key) {
                Some(m) => *m,
                None => {
                    let files = self
                        .folder_files
                        .entry(dir.clone())
                        .or_insert_with(|| files_below(&dir).map(std::sync::Arc::new))
                        .clone();
                    let m = crate::analysis::copilot::glob::compile(pattern)
                        .ok()
                        .and_then(|m| Some(files?.iter().any(|f| m.is_match(f))));
                    self.apply_to_memo.insert(key, m);
                    m
                }
            };
            if matched != Some(false) {
                // A pattern that matches, or one with no verdict: nothing to say.
                unmatched.clear();
                break;
            }
            unmatched.push((pattern.as_str(), *span));
        }
        let mut found = Vec::new();
        if let (Some(first), Some(last)) = (unmatched.first(), unmatched.last()) {
            let (span, message) = match unmatched.as_slice() {
                [(pattern, span)] => (
                    *span,
                    format!(
                        "`{pattern}` matches no file of this workspace yet: Copilot adds these instructions to no request by itself until such a file exists"
                    ),
                ),
                all => (
                    Span::new(first.1.start as usize, last.1.end as usize),
                    format!(
                        "none of the {} patterns of `applyTo` matches a file of this workspace yet: Copilot adds these instructions to no request by itself until such a file exists",
                        all.len()
                    ),
                ),
            };
            found.push(
                Diagnostic::new(Code::MissingPath, span, message)
                    .with_severity(Severity::Info)
                    .with_effect(Effect::ValueIgnored),
            );
        }
        self.replace_findings(id, Code::MissingPath, found)
    }

    /// Match the `paths` patterns of Claude Code rule `id` (`.claude/rules/**/*.md`) against the
    /// files of its project, as Claude Code matches them (gitignore-style, from the folder that
    /// holds `.claude`), and replace its `missing-path` finding: information, and only when no
    /// pattern matches a file (a team writes a rule ahead of its files). Returns whether the
    /// findings changed.
    pub(super) fn check_rule_paths(&mut self, id: usize) -> bool {
        let f = &self.files[id];
        let (Some(m), Some(crate::analysis::claude::memory::MemoryFile::Rule)) = (f.analysis.memory(), f.kind.memory())
        else {
            return false;
        };
        // Its own findings: information (an import that names no file is a warning, see
        // `check_imports`).
        let own = |d: &Diagnostic| d.code == Code::MissingPath && d.severity == Severity::Info;
        let had = f.analysis.diagnostics.iter().any(own);
        if m.paths.is_empty() && !had {
            return false;
        }
        let Role::Memory { dir } = &f.role else {
            return false;
        };
        let dir = dir.clone();
        let patterns = m.paths.clone();
        let mut unmatched = Vec::new();
        for (pattern, span) in &patterns {
            let key = (dir.clone(), pattern.clone());
            let matched = match self.rule_paths_memo.get(&key) {
                Some(m) => *m,
                None => {
                    let files = self
                        .folder_files
                        .entry(dir.clone())
                        .or_insert_with(|| files_below(&dir).map(std::sync::Arc::new))
                        .clone();
                    let m = files.map(|files| gitignore_match(&dir, pattern, &files));
                    self.rule_paths_memo.insert(key, m);
                    m
                }
            };
            if matched != Some(false) {
                unmatched.clear();
                break;
            }
            unmatched.push((pattern.as_str(), *span));
        }
        let mut found = Vec::new();
        if let (Some(first), Some(last)) = (unmatched.first(), unmatched.last()) {
            let message = match unmatched.as_slice() {
                [(pattern, _)] => format!(
                    "`{pattern}` matches no file of this project yet: Claude Code loads this rule only when it reads a file that `paths` matches"
                ),
                all => format!(
                    "none of the {} patterns of `paths` matches a file of this project yet: Claude Code loads this rule only when it reads a file they match",
                    all.len()
                ),
            };
            let span = Span::new(first.1.start as usize, last.1.end.max(first.1.end) as usize);
            found.push(
                Diagnostic::new(Code::MissingPath, span, message)
                    .with_severity(Severity::Info)
                    .with_effect(Effect::ValueIgnored),
            );
        }
        self.replace_findings_of(id, own, found)
    }

    /// Look up the paths of every config again (files were created or deleted); returns the
    /// configs whose findings changed.
    pub fn refresh_config_paths(&mut self) -> Vec<usize> {
        self.path_memo.clear();
        self.script_memo.clear();
        self.apply_to_memo.clear();
        self.rule_paths_memo.clear();
        self.folder_files.clear();
        if let Ok(memo) = self.instruction_memo.get_mut() {
            memo.1.clear();
        }
        let live: Vec<usize> = (0..self.files.len()).filter(|&i| self.files[i].live).collect();
        let mut scripts: Vec<usize> = live.iter().copied().filter(|&id| self.check_hook_scripts(id)).collect();
        scripts.extend(live.iter().copied().filter(|&id| self.check_apply_to(id)));
        scripts.extend(live.into_iter().filter(|&id| self.check_rule_paths(id)));
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && f.kind.is_config() && !f.analysis.opencode().paths.is_empty()
            })
            .collect();
        let mut changed: Vec<usize> = ids.into_iter().filter(|&id| self.check_config_paths(id)).collect();
        changed.extend(scripts);
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// Look up the scripts the hooks of Claude Code file `id` run (a settings file's, an agent's)
    /// and replace its `missing-path` findings; returns whether they changed. A path under
    /// `$CLAUDE_PROJECT_DIR`, or relative (hooks run in the folder Claude Code starts in), is
    /// looked up in the project; under `${CLAUDE_PLUGIN_ROOT}`, in a plugin agent's plugin. The
    /// user's files are left alone: the project they run in is not known.
    pub(super) fn check_hook_scripts(&mut self, id: usize) -> bool {
        let f = &self.files[id];
        let mut rules: &[PermissionRule] = &[];
        let (scripts, project, plugin) = match (&f.role, f.analysis.settings(), f.analysis.claude()) {
            (Role::ClaudeSettings { dir }, Some(s), _) if f.kind.settings() != Some(SettingsFile::User) => {
                rules = &s.rules;
                (s.scripts.as_slice(), Some(dir.as_path()), None)
            }
            // A plugin's hooks file: `${CLAUDE_PLUGIN_ROOT}` is the plugin.
            (Role::Manifest { dir }, _, _) if f.kind.is_plugin_hooks() => (
                f.analysis.plugin_hook_scripts().unwrap_or_default(),
                None,
                Some(dir.as_path()),
            ),
            // A plugin's agents ignore `hooks`; a user's run in whichever project.
            (Role::Claude { dir }, _, Some(c)) if f.kind.claude().map(|k| &k.source) == Some(&Source::Project) => {
                (c.agent.hook_scripts.as_slice(), Some(dir.as_path()), None)
            }
            _ => return false,
        };
        let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::MissingPath);
        if scripts.is_empty() && rules.is_empty() && !had {
            return false;
        }
        let mut found = Vec::new();
        // A path rule with one leading `/` is anchored at the project: a first folder the
        // project does not hold most likely meant the absolute path (`//etc/**`).
        for r in rules {
            let Some(project) = project else { break };
            let Some(at) = project_anchored(r).filter(|&at| f.text.as_bytes().get(at) == Some(&b'/')) else {
                continue;
            };
            let first = r.specifier.as_deref().unwrap_or_default()[1..]
                .split('/')
                .next()
                .unwrap_or_default();
            if first.is_empty() || first.contains(['*', '?', '[', '{']) {
                continue;
            }
            let path = project.join(first);
            let exists = *self.script_memo.entry(path.clone()).or_insert_with(|| path.exists());
            if exists {
                continue;
            }
            let spec = r.specifier.as_deref().unwrap_or_default();
            let slash = Span::new(at, at + 1);
            found.push(
                Diagnostic::new(
                    Code::MissingPath,
                    slash,
                    format!(
                        "`{spec}` starts at the project's root (one leading `/`), which holds no `{first}`: for the absolute path write `/{spec}`"
                    ),
                )
                .with_severity(Severity::Warning)
                .with_effect(Effect::RuleNeverApplies)
                .with_fix(format!("Write the absolute path `/{spec}`"), vec![Edit::new(Span::new(at, at), "/")], false),
            );
        }
        for s in scripts {
            let Some((base, rest, anchor)) = script_base(&s.path, project, plugin) else {
                continue;
            };
            let path = base.join(rest);
            let exists = *self.script_memo.entry(path.clone()).or_insert_with(|| path.exists());
            if !exists {
                found.push(
                    Diagnostic::new(
                        Code::MissingPath,
                        s.span,
                        format!(
                            "there is no file `{rest}` in {anchor}: this hook's command fails each time it runs (and a failing hook blocks nothing)"
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_effect(Effect::ValueIgnored),
                );
            }
        }
        self.replace_findings(id, Code::MissingPath, found)
    }
}

/// The byte offset of the leading `/` of a path rule anchored at the project (`Edit(/src/**)`):
/// a file tool, a specifier with exactly one leading slash, written as read (no escapes).
fn project_anchored(r: &PermissionRule) -> Option<usize> {
    if !matches!(
        r.tool.as_str(),
        "Read" | "Edit" | "Write" | "MultiEdit" | "NotebookEdit"
    ) {
        return None;
    }
    let spec = r.specifier.as_deref()?;
    if !spec.starts_with('/') || spec.starts_with("//") {
        return None;
    }
    // The rule's text starts right after the opening quote.
    let open = r.text.find('(')?;
    (r.text.get(open + 1..open + 2) == Some("/")).then_some(r.span.start as usize + 1 + open + 1)
}

/// Where a hook's script path starts: (folder, path below it, how the message names the folder).
fn script_base<'a>(
    path: &'a str,
    project: Option<&'a Path>,
    plugin: Option<&'a Path>,
) -> Option<(&'a Path, &'a str, &'static str)> {
    for prefix in ["${CLAUDE_PROJECT_DIR}/", "$CLAUDE_PROJECT_DIR/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            return Some((project?, rest, "the project (`$CLAUDE_PROJECT_DIR`)"));
        }
    }
    for prefix in ["${CLAUDE_PLUGIN_ROOT}/", "$CLAUDE_PLUGIN_ROOT/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            return Some((plugin?, rest, "the plugin (`${CLAUDE_PLUGIN_ROOT}`)"));
        }
    }
    let rest = path.strip_prefix("./").unwrap_or(path);
    Some((
        project?,
        rest,
        "the project (hooks run in the folder Claude Code starts in)",
    ))
}

/// The finding for a path that matches nothing, if it does.
fn missing(p: &PathRef, config_dir: &Path, project: Option<&Path>, home: Option<&Path>) -> Option<Diagnostic> {
    let text = p.text.trim();
    if text.is_empty() {
        return None;
    }
    let in_home = |rest: &str| home.map(|h| h.join(rest));
    let relative = !text.starts_with("~/") && !Path::new(text).is_absolute();
    let (found, message) = match p.kind {
        PathKind::Instructions => {
            let found = match text.strip_prefix("~/") {
                Some(rest) => {
                    let path = in_home(rest)?;
                    glob_in(path.parent()?, &file_name(&path)?)
                }
                None if Path::new(text).is_absolute() => {
                    let path = PathBuf::from(text);
                    glob_in(path.parent()?, &file_name(&path)?)
                }
                None => up_to_worktree(project?).any(|dir| glob_in(&dir, text)),
            };
            let place = if relative {
                " in the project's folder or its parents up to the repository's root"
            } else {
                ""
            };
            (
                found,
                format!("`{text}` matches no file{place}: opencode skips this instructions entry without a word"),
            )
        }
        PathKind::SkillsPath => {
            let path = match text.strip_prefix("~/") {
                Some(rest) => in_home(rest)?,
                None if Path::new(text).is_absolute() => PathBuf::from(text),
                None => project?.join(text),
            };
            let place = if relative { " in the project's folder" } else { "" };
            (
                path.is_dir(),
                format!(
                    "there is no folder `{text}`{place}: opencode skips it (it only logs \"skill path not found\")"
                ),
            )
        }
        PathKind::Reference => {
            let path = match text.strip_prefix("~/") {
                Some(rest) => in_home(rest)?,
                None => config_dir.join(text),
            };
            let place = if relative { " beside this config" } else { "" };
            (
                path.is_dir(),
                format!("there is no folder `{text}`{place}: the agents find nothing in this reference"),
            )
        }
        PathKind::Plugin => {
            let raw = text.strip_prefix("file://").unwrap_or(text);
            let place = if !Path::new(raw).is_absolute() {
                " beside this config"
            } else {
                ""
            };
            (
                config_dir.join(raw).exists(),
                format!("there is no file `{raw}`{place}: opencode cannot load this plugin"),
            )
        }
    };
    if found {
        return None;
    }
    Some(
        Diagnostic::new(Code::MissingPath, p.span, message)
            .with_severity(Severity::Warning)
            .with_effect(Effect::ValueIgnored),
    )
}

fn file_name(path: &Path) -> Option<String> {
    Some(path.file_name()?.to_string_lossy().into_owned())
}

/// The folder opencode starts in and its parents, up to the repository's root (the first holding
/// `.git`; the file system's root outside a repository), as opencode's `globUp` walks them.
fn up_to_worktree(start: &Path) -> impl Iterator<Item = PathBuf> {
    let mut next = Some(start.to_path_buf());
    let mut depth = 0;
    std::iter::from_fn(move || {
        let dir = next.take()?;
        depth += 1;
        if !dir.join(".git").exists() && depth < 64 {
            next = dir.parent().map(Path::to_path_buf);
        }
        Some(dir)
    })
}

/// The files below `dir`, relative to it, as the ignore rules leave them (`None`: more entries
/// than the budget, so no pattern gets a verdict).
fn files_below(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut walk = ignore::WalkBuilder::new(dir);
    walk.hidden(false)
        .filter_entry(|e| !(e.depth() > 0 && e.file_name() == ".git"));
    let mut budget = GLOB_BUDGET;
    let mut out = Vec::new();
    for entry in walk.build().flatten() {
        if budget == 0 {
            return None;
        }
        budget -= 1;
        if entry.file_type().is_some_and(|t| t.is_file())
            && let Ok(rel) = entry.path().strip_prefix(dir)
        {
            out.push(rel.to_path_buf());
        }
    }
    Some(out)
}

/// Whether a rule's `paths` pattern matches one of `files` (relative to `dir`), gitignore-style as
/// Claude Code matches it: a pattern without `/` at any depth, `dir/**` below `dir`.
fn gitignore_match(dir: &Path, pattern: &str, files: &[PathBuf]) -> bool {
    let mut b = ignore::gitignore::GitignoreBuilder::new(dir);
    if b.add_line(None, pattern).is_err() {
        // A pattern the reader cannot read: no verdict.
        return true;
    }
    let Ok(g) = b.build() else { return true };
    files
        .iter()
        .any(|f| g.matched_path_or_any_parents(dir.join(f), false).is_ignore())
}

/// Whether `pattern` (a path or a glob, relative to `dir`) matches a file in `dir`.
fn glob_in(dir: &Path, pattern: &str) -> bool {
    let is_glob = pattern.contains(['*', '?', '[', '{']);
    if !is_glob {
        return dir.join(pattern).is_file();
    }
    let Ok(glob) = globset::GlobBuilder::new(pattern).literal_separator(true).build() else {
        // A pattern the glob reader cannot read: no verdict.
        return true;
    };
    let matcher = glob.compile_matcher();
    // Walk only below the pattern's literal prefix, no deeper than it can reach.
    let literal: Vec<&str> = pattern
        .split('/')
        .take_while(|s| !s.contains(['*', '?', '[', '{']))
        .collect();
    let base = dir.join(literal.join("/"));
    let segments = pattern.split('/').count();
    let max_depth = if pattern.contains("**") {
        None
    } else {
        Some(segments - literal.len())
    };
    let mut walk = ignore::WalkBuilder::new(&base);
    walk.standard_filters(false).hidden(true).max_depth(max_depth);
    let mut budget = GLOB_BUDGET;
    for entry in walk.build().flatten() {
        if budget == 0 {
            return true;
        }
        budget -= 1;
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Ok(rel) = entry.path().strip_prefix(dir)
            && matcher.is_match(rel)
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_ref(kind: PathKind, text: &str) -> PathRef {
        PathRef {
            kind,
            text: text.into(),
            span: crate::analysis::Span::new(0, 1),
        }
    }

    #[test]
    fn each_kind_is_looked_up_where_opencode_looks() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("app/.opencode")).unwrap();
        std::fs::create_dir_all(root.join("docs/guides")).unwrap();
        std::fs::create_dir_all(root.join("app/skills")).unwrap();
        std::fs::create_dir_all(root.join("home/notes")).unwrap();
        std::fs::write(root.join("RULES.md"), "r").unwrap();
        std::fs::write(root.join("docs/guides/a.md"), "a").unwrap();
        std::fs::write(root.join("app/.opencode/plugin.ts"), "p").unwrap();
        std::fs::write(root.join("home/notes/n.md"), "n").unwrap();
        let project = root.join("app");
        let config_dir = root.join("app/.opencode");
        let home = root.join("home");
        let check =
            |kind, text: &str| missing(&path_ref(kind, text), &config_dir, Some(&project), Some(&home)).is_none();
        // Instructions: from the project up to the repository's root; globs; the home folder.
        assert!(check(PathKind::Instructions, "RULES.md"));
        assert!(check(PathKind::Instructions, "docs/guides/*.md"));
        assert!(check(PathKind::Instructions, "docs/**/*.md"));
        assert!(check(PathKind::Instructions, "~/notes/*.md"));
        assert!(!check(PathKind::Instructions, "RULE.md"));
        assert!(!check(PathKind::Instructions, "docs/*.md"));
        assert!(!check(PathKind::Instructions, "~/notes/x.md"));
        // A folder is not an instructions file.
        assert!(!check(PathKind::Instructions, "docs"));
        // Skills folders: from the project.
        assert!(check(PathKind::SkillsPath, "skills"));
        assert!(check(PathKind::SkillsPath, "./skills"));
        assert!(!check(PathKind::SkillsPath, "skill"));
        // References and plugins: from the config's folder.
        assert!(check(PathKind::Reference, "../../docs"));
        assert!(!check(PathKind::Reference, "./docs"));
        assert!(check(PathKind::Plugin, "./plugin.ts"));
        assert!(check(
            PathKind::Plugin,
            &format!("file://{}", root.join("app/.opencode/plugin.ts").display())
        ));
        assert!(!check(PathKind::Plugin, "./plugins/x.ts"));
        // Nothing is said where the answer depends on what is unknown.
        let global = missing(&path_ref(PathKind::Instructions, "nope.md"), &config_dir, None, None);
        assert!(global.is_none());
        let no_home = missing(
            &path_ref(PathKind::SkillsPath, "~/nope"),
            &config_dir,
            Some(&project),
            None,
        );
        assert!(no_home.is_none());
        // The message says where it looked.
        let message = |kind, text: &str| {
            let d = missing(&path_ref(kind, text), &config_dir, Some(&project), Some(&home)).unwrap();
            assert_eq!(
                (d.code, d.severity, d.effect),
                (Code::MissingPath, Severity::Warning, Effect::ValueIgnored)
            );
            d.message
        };
        assert_eq!(
            message(PathKind::Instructions, "RULE.md"),
            "`RULE.md` matches no file in the project's folder or its parents up to the repository's root: opencode skips this instructions entry without a word"
        );
        assert_eq!(
            message(PathKind::Instructions, "~/notes/x.md"),
            "`~/notes/x.md` matches no file: opencode skips this instructions entry without a word"
        );
        assert_eq!(
            message(PathKind::SkillsPath, "skill"),
            "there is no folder `skill` in the project's folder: opencode skips it (it only logs \"skill path not found\")"
        );
        assert_eq!(
            message(PathKind::Reference, "./docs"),
            "there is no folder `./docs` beside this config: the agents find nothing in this reference"
        );
        assert_eq!(
            message(PathKind::Plugin, "file://./plugins/x.ts"),
            "there is no file `./plugins/x.ts` beside this config: opencode cannot load this plugin"
        );
    }

    #[test]
    fn the_walk_up_stops_at_the_repository_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        let dirs: Vec<PathBuf> = up_to_worktree(&root.join("a/b")).collect();
        assert_eq!(dirs, [root.join("a/b"), root.join("a"), root.clone()]);
    }
}
