//! The workspace layer: all file-system access. It finds the files opencode would load (spec
//! §2), reads them with size and encoding guards, runs the pure core on each, and groups them
//! into views (what opencode loads when started in one directory) for the cross-file checks.

pub mod discover;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::analysis::opencode::{self, FileAnalysis, FileKind, project};
use crate::analysis::{Code, Diagnostic, LineIndex, Span};

/// Files larger than this are not analysed (no agent file comes near it).
pub const MAX_FILE_SIZE: u64 = 4 * 1024 * 1024;

/// Where opencode's user-level configuration lives, and whether to read it.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The global config directory (`$XDG_CONFIG_HOME/opencode` or `~/.config/opencode`).
    pub global_dir: Option<PathBuf>,
    /// `~/.opencode`.
    pub home_dot_opencode: Option<PathBuf>,
    /// `$OPENCODE_CONFIG`: one extra config file.
    pub config_file: Option<PathBuf>,
    /// `$OPENCODE_CONFIG_DIR`: one extra config directory.
    pub config_dir: Option<PathBuf>,
}

impl Options {
    /// Nothing outside the given paths is read.
    pub fn isolated() -> Options {
        Options::default()
    }

    /// As opencode resolves it from the environment. `global_dir` overrides the global
    /// directory; `no_global` reads nothing outside the given paths.
    pub fn from_env(no_global: bool, global_dir: Option<PathBuf>) -> Options {
        if no_global {
            return Options::isolated();
        }
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = env("HOME");
        let global = global_dir.or_else(|| {
            env("XDG_CONFIG_HOME")
                .map(|x| x.join("opencode"))
                .or_else(|| home.as_ref().map(|h| h.join(".config").join("opencode")))
        });
        Options {
            global_dir: global,
            home_dot_opencode: home.map(|h| h.join(".opencode")),
            config_file: env("OPENCODE_CONFIG"),
            config_dir: env("OPENCODE_CONFIG_DIR"),
        }
    }
}

/// One file read from disk and analysed.
#[derive(Debug)]
pub struct File {
    pub path: PathBuf,
    pub kind: FileKind,
    pub text: String,
    pub index: LineIndex,
    pub analysis: FileAnalysis,
    /// Diagnostics are reported for files under the paths the user asked about; global files
    /// only contribute their agents.
    pub in_scope: bool,
}

#[derive(Debug, Default)]
pub struct Workspace {
    pub files: Vec<File>,
    /// Each view is a list of file indexes in opencode's precedence order (later wins).
    pub views: Vec<Vec<usize>>,
    /// Paths that could not be read, with the reason.
    pub errors: Vec<(PathBuf, String)>,
    by_path: HashMap<PathBuf, usize>,
}

/// A path given by the user that does not exist.
#[derive(Debug)]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl Workspace {
    /// Discover and analyse everything under `paths` (directories or files).
    pub fn load(paths: &[PathBuf], options: &Options) -> Result<Workspace, LoadError> {
        let mut ws = Workspace::default();
        let mut roots = Vec::new();
        let mut explicit = Vec::new();
        for p in paths {
            let meta = fs::metadata(p).map_err(|e| LoadError {
                path: p.clone(),
                message: e.to_string(),
            })?;
            if meta.is_dir() {
                roots.push(p.clone());
            } else {
                explicit.push(p.clone());
            }
        }
        let global = GlobalFiles::load(&mut ws, options);
        for root in &roots {
            ws.load_root(root, &global);
        }
        for file in &explicit {
            let Some(kind) = discover::classify(file) else {
                return Err(LoadError {
                    path: file.clone(),
                    message: "not an opencode file (expected opencode.json, opencode.jsonc or a Markdown agent)".into(),
                });
            };
            let Some(id) = ws.add(file, kind, true) else { continue };
            // A file inside an already-loaded root is in that root's views; otherwise it gets
            // a view of its own on top of the global layers.
            if !ws.views.iter().any(|v| v.contains(&id)) {
                let mut view = global.before_project.clone();
                view.extend(global.config_dirs.iter().flatten().cloned());
                view.push(id);
                ws.views.push(view);
            }
        }
        Ok(ws)
    }

    /// Read and analyse one file (once per path).
    fn add(&mut self, path: &Path, kind: FileKind, in_scope: bool) -> Option<usize> {
        let key = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if let Some(&id) = self.by_path.get(&key) {
            if in_scope {
                self.files[id].in_scope = true;
            }
            return Some(id);
        }
        let (text, problem) = match read_text(path) {
            Ok(r) => r,
            Err(e) => {
                self.errors.push((path.to_path_buf(), e));
                return None;
            }
        };
        let mut analysis = opencode::analyze(&kind, &text);
        if let Some(problem) = problem {
            analysis.diagnostics.insert(0, problem);
        }
        let index = LineIndex::new(&text);
        self.files.push(File {
            path: path.to_path_buf(),
            kind,
            text,
            index,
            analysis,
            in_scope,
        });
        let id = self.files.len() - 1;
        self.by_path.insert(key, id);
        Some(id)
    }

    fn add_config_dir_files(&mut self, dir: &Path, with_json: bool, in_scope: bool) -> Vec<usize> {
        let mut ids = Vec::new();
        if with_json {
            for name in discover::CONFIG_NAMES {
                let p = dir.join(name);
                if p.is_file() {
                    ids.extend(self.add(&p, FileKind::Config, in_scope));
                }
            }
        }
        for (p, kind) in discover::markdown_agents(dir) {
            ids.extend(self.add(&p, kind, in_scope));
        }
        ids
    }

    fn load_root(&mut self, root: &Path, global: &GlobalFiles) {
        let found = discover::walk(root);
        self.errors.extend(found.unreadable.iter().cloned());
        for c in &found.configs {
            self.add(c, FileKind::Config, true);
        }
        // Files of each config directory, in opencode's order.
        let mut dir_files: HashMap<PathBuf, Vec<usize>> = HashMap::new();
        for d in &found.config_dirs {
            let is_dot = d.file_name().is_some_and(|n| n == ".opencode");
            let ids = self.add_config_dir_files(d, is_dot, true);
            dir_files.insert(d.clone(), ids);
        }
        // Project directories: the root, and every directory holding a config or `.opencode/`.
        let mut projects: Vec<PathBuf> = vec![root.to_path_buf()];
        for c in &found.configs {
            if let Some(parent) = c.parent() {
                let p = if parent.file_name().is_some_and(|n| n == ".opencode") {
                    parent.parent().unwrap_or(parent)
                } else {
                    parent
                };
                projects.push(p.to_path_buf());
            }
        }
        for d in &found.config_dirs {
            if d.file_name().is_some_and(|n| n == ".opencode") {
                projects.extend(d.parent().map(Path::to_path_buf));
            } else {
                projects.push(d.clone());
            }
        }
        projects.sort();
        projects.dedup();
        for p in &projects {
            // Directories from the root down to the project, farthest first.
            let mut chain: Vec<PathBuf> = p
                .ancestors()
                .take_while(|a| a.starts_with(root))
                .map(Path::to_path_buf)
                .collect();
            chain.reverse();
            let mut view = global.before_project.clone();
            for d in &chain {
                for name in discover::CONFIG_NAMES {
                    let f = d.join(name);
                    if let Some(&id) = self.by_path.get(&fs::canonicalize(&f).unwrap_or(f)) {
                        view.push(id);
                    }
                }
            }
            // Config directories: the global one (and directories laid out like it), then
            // `.opencode/` from the nearest upward, then ~/.opencode and $OPENCODE_CONFIG_DIR.
            view.extend(global.config_dirs[0].iter().copied());
            for d in &chain {
                if found.config_dirs.contains(d) && d.file_name().is_none_or(|n| n != ".opencode") {
                    view.extend(dir_files.get(d).into_iter().flatten().copied());
                }
            }
            for d in chain.iter().rev() {
                let dot = d.join(".opencode");
                view.extend(dir_files.get(&dot).into_iter().flatten().copied());
            }
            view.extend(global.config_dirs[1..].iter().flatten().copied());
            if view.iter().any(|id| self.files[*id].in_scope) {
                self.views.push(view);
            }
        }
    }

    /// Every diagnostic of the files in scope: each file's own, plus the cross-file ones from
    /// every view (de-duplicated), sorted by file and position.
    pub fn diagnostics(&self) -> Vec<(usize, Diagnostic)> {
        let mut out: Vec<(usize, Diagnostic)> = Vec::new();
        for (id, f) in self.files.iter().enumerate() {
            if f.in_scope {
                out.extend(f.analysis.diagnostics.iter().cloned().map(|d| (id, d)));
            }
        }
        for view in &self.views {
            let vf: Vec<project::ViewFile> = view
                .iter()
                .map(|&id| project::ViewFile {
                    file: id,
                    analysis: &self.files[id].analysis,
                })
                .collect();
            for (id, d) in project::check(&vf) {
                if self.files[id].in_scope && !out.iter().any(|(i, e)| *i == id && *e == d) {
                    out.push((id, d));
                }
            }
        }
        out.sort_by(|(a, x), (b, y)| {
            (self.files[*a].path.as_path(), x.span.start, x.span.end, x.code).cmp(&(
                self.files[*b].path.as_path(),
                y.span.start,
                y.span.end,
                y.code,
            ))
        });
        out
    }

    pub fn files_in_scope(&self) -> usize {
        self.files.iter().filter(|f| f.in_scope).count()
    }
}

/// The user-level layers, loaded once and shared by every view.
struct GlobalFiles {
    /// Global config files and `$OPENCODE_CONFIG`, which come before project configs.
    before_project: Vec<usize>,
    /// Config directories: [global dir, ~/.opencode, $OPENCODE_CONFIG_DIR].
    config_dirs: [Vec<usize>; 3],
}

impl GlobalFiles {
    fn load(ws: &mut Workspace, o: &Options) -> GlobalFiles {
        let mut g = GlobalFiles {
            before_project: Vec::new(),
            config_dirs: Default::default(),
        };
        if let Some(dir) = &o.global_dir {
            for name in ["config.json", "opencode.json", "opencode.jsonc"] {
                let p = dir.join(name);
                if p.is_file() {
                    g.before_project.extend(ws.add(&p, FileKind::Config, false));
                }
            }
            g.config_dirs[0] = ws.add_config_dir_files(dir, false, false);
        }
        if let Some(f) = &o.config_file
            && f.is_file()
        {
            g.before_project.extend(ws.add(f, FileKind::Config, false));
        }
        if let Some(dir) = &o.home_dot_opencode {
            g.config_dirs[1] = ws.add_config_dir_files(dir, true, false);
        }
        if let Some(dir) = &o.config_dir {
            g.config_dirs[2] = ws.add_config_dir_files(dir, true, false);
        }
        g
    }
}

/// Read a file as text, with guards: too large or binary is an error; invalid UTF-8 is read
/// lossily with a diagnostic at the first bad byte.
fn read_text(path: &Path) -> Result<(String, Option<Diagnostic>), String> {
    let meta = fs::metadata(path).map_err(|e| e.to_string())?;
    if meta.len() > MAX_FILE_SIZE {
        return Err(format!(
            "file is {} bytes, larger than the {} bytes agent-lsp analyses; skipped",
            meta.len(),
            MAX_FILE_SIZE
        ));
    }
    let bytes = fs::read(path).map_err(|e| e.to_string())?;
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err("binary file (contains NUL bytes); skipped".into());
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, None)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let d = Diagnostic::new(
                Code::SyntaxError,
                Span::new(at, at + '\u{fffd}'.len_utf8()),
                format!("the file is not valid UTF-8 (byte {at}); opencode reads it with replacement characters"),
            );
            Ok((text, Some(d)))
        }
    }
}
