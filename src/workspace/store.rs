//! The file store, kept incremental: a file added, replaced or removed is re-analysed alone,
//! with what one file's analysis needs from the others (`{file:}` references, links, plugin
//! manifests).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::model::*;
use super::read::{Unread, read_text, unchecked_file};
use crate::analysis::{self, Code, Diagnostic, FileAnalysis, FileKind, LineIndex, Span};

impl Workspace {
    /// The file at `path`, if loaded and live.
    pub fn id(&self, path: &Path) -> Option<usize> {
        let id = *self.by_path.get(&key(path))?;
        self.files[id].live.then_some(id)
    }

    /// Add or replace a file with the given text and analyse it. Returns its id.
    pub fn upsert(&mut self, path: &Path, kind: FileKind, role: Role, text: String, in_scope: bool) -> usize {
        let analysis = analysis::analyze(&kind, &text);
        let index = LineIndex::new(&text);
        self.upsert_analyzed(path, kind, role, text, (analysis, index), in_scope)
    }

    /// [`Workspace::upsert`] with the analysis and line index already computed.
    pub(super) fn upsert_analyzed(
        &mut self,
        path: &Path,
        kind: FileKind,
        role: Role,
        text: String,
        (analysis, index): (FileAnalysis, LineIndex),
        in_scope: bool,
    ) -> usize {
        let file = File {
            path: path.to_path_buf(),
            kind,
            role,
            text,
            index,
            analysis,
            in_scope,
            live: true,
            resolved: None,
            stamp: 0,
            names: 0,
            shape: 0,
            content: 0,
            names_key: 0,
        };
        let id = match self.by_path.get(&key(path)) {
            Some(&id) => {
                let old = &self.files[id];
                let was_in_scope = old.in_scope && old.live;
                let kept = (old.stamp, old.names, old.shape, old.content, old.names_key);
                self.files[id] = file;
                let f = &mut self.files[id];
                f.in_scope |= was_in_scope;
                (f.stamp, f.names, f.shape, f.content, f.names_key) = kept;
                id
            }
            None => {
                self.files.push(file);
                let id = self.files.len() - 1;
                self.by_path.insert(key(path), id);
                id
            }
        };
        if self.files[id].kind.is_project_file() && !self.project_files.contains(&id) {
            self.project_files.push(id);
        }
        self.substitute(id);
        self.check_links(id);
        self.check_imports(id);
        self.check_config_paths(id);
        self.check_hook_scripts(id);
        self.check_apply_to(id);
        self.check_rule_paths(id);
        self.check_manifest(id);
        // A config with substitutions, a plugin manifest, may read other files: always a new
        // stamp.
        let force = self.files[id].resolved.is_some() || self.files[id].kind.manifest().is_some();
        self.restamp(id, force);
        self.load_project_skills(id);
        id
    }

    /// Read the `{file:...}` references of every config again, and check the paths of every
    /// plugin manifest again (a referenced file was created, changed or deleted); returns the
    /// files that have any.
    pub fn refresh_file_references(&mut self) -> Vec<usize> {
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && (f.kind.is_config() && f.text.contains("{file:") || f.kind.manifest().is_some())
            })
            .collect();
        for &id in &ids {
            let f = &mut self.files[id];
            f.analysis = analysis::analyze(&f.kind, &f.text);
            self.substitute(id);
            self.check_manifest(id);
            self.restamp(id, true);
        }
        ids
    }

    /// opencode's `{env:...}` and `{file:...}` substitutions in a config file: the values are
    /// read here (the environment, the referenced files) and applied to a copy of the analysis;
    /// a reference to a missing file is a `bad-file-reference` error on the reference.
    pub(super) fn substitute(&mut self, id: usize) {
        use crate::analysis::opencode::substitute::{self, Kind};
        let f = &self.files[id];
        if !f.kind.is_config() {
            return;
        }
        let refs = substitute::references(&f.text);
        if refs.is_empty() {
            self.files[id].resolved = None;
            return;
        }
        let dir = f.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let home = self.options.home.clone();
        let mut values: HashMap<String, String> = HashMap::new();
        let mut problems = Vec::new();
        let mut unreadable: Vec<(PathBuf, Diagnostic)> = Vec::new();
        for r in &refs {
            let text = r.text(&f.text).to_string();
            match r.kind {
                Kind::Env => {
                    values.insert(text, std::env::var(&r.arg).unwrap_or_default());
                }
                Kind::File => {
                    let target = match (r.arg.strip_prefix("~/"), &home) {
                        (Some(rest), Some(h)) => h.join(rest),
                        // Without the user's home (`--no-global`) a `~/` path cannot be known.
                        (Some(_), None) => continue,
                        _ if Path::new(&r.arg).is_absolute() => PathBuf::from(&r.arg),
                        _ => dir.join(&r.arg),
                    };
                    let target = normalize(&target);
                    match read_text(&target) {
                        Ok((content, _)) => {
                            values.insert(text, content.trim().to_string());
                        }
                        Err(why) => {
                            // One finding per file that cannot be read, on its first reference,
                            // the others related: one missing file is one mistake.
                            if let Some((_, first)) = unreadable.iter_mut().find(|(t, _)| *t == target) {
                                first.related.push(crate::analysis::diagnostic::Related {
                                    location: crate::analysis::diagnostic::Location::Here(r.span),
                                    message: "another reference to the same file".into(),
                                    lost: false,
                                });
                                continue;
                            }
                            let missing = !target.exists();
                            let d = Diagnostic::new(
                                Code::BadFileReference,
                                r.span,
                                if missing {
                                    format!(
                                        "`{}` does not exist; opencode refuses to start (`bad file reference`)",
                                        target.display()
                                    )
                                } else {
                                    format!(
                                        "`{}` cannot be read ({why}); opencode refuses to start (`bad file reference`)",
                                        target.display()
                                    )
                                },
                            );
                            unreadable.push((target, d));
                        }
                    }
                }
            }
        }
        for (_, mut d) in unreadable {
            if !d.related.is_empty() {
                d.message
                    .push_str(&format!(" (referenced {} times in this file)", d.related.len() + 1));
            }
            problems.push(d);
        }
        let f = &mut self.files[id];
        f.resolved = f.analysis.substituted(&|t: &str| values.get(t).cloned());
        f.analysis.diagnostics.extend(problems);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
    }

    /// Replace the text of a loaded file (an editor keystroke) and analyse it again; no path
    /// lookup, no file-system call.
    pub fn set_text(&mut self, id: usize, text: String) {
        let f = &mut self.files[id];
        f.analysis = analysis::analyze(&f.kind, &text);
        f.index = LineIndex::new(&text);
        f.text = text;
        f.live = true;
        f.in_scope = true;
        self.substitute(id);
        self.check_links(id);
        self.check_imports(id);
        self.check_config_paths(id);
        self.check_hook_scripts(id);
        self.check_apply_to(id);
        self.check_rule_paths(id);
        self.check_manifest(id);
        let force = self.files[id].resolved.is_some() || self.files[id].kind.manifest().is_some();
        self.restamp(id, force);
    }

    /// The relative links of a `SKILL.md` to files that do not exist (`broken-link`), in its own
    /// diagnostics: the analysis found the links, the file system decides. Run when the file is
    /// analysed and again by [`Workspace::refresh_skill_links`] when files appear or vanish.
    /// Returns whether the file's broken links changed.
    pub(super) fn check_links(&mut self, id: usize) -> bool {
        use crate::analysis::diagnostic::{Effect, Severity};
        let f = &self.files[id];
        let Some(decl) = f.analysis.skill() else {
            return false;
        };
        let had = f.analysis.diagnostics.iter().any(|d| d.code == Code::BrokenLink);
        if decl.links.is_empty() && !had {
            return false;
        }
        let Some(folder) = f.path.parent() else { return false };
        let mut found = Vec::new();
        for link in &decl.links {
            let target = normalize(&folder.join(&link.path));
            if target.exists() {
                continue;
            }
            let near = closest_sibling(&target);
            let (path_near, fix) = match &near {
                Some(n) => {
                    let dir = link.path.rfind('/').map_or("", |i| &link.path[..=i]);
                    (Some(format!("{dir}{n}")), name_span(&f.text, link.span, &target))
                }
                None => (None, None),
            };
            let mut message = format!(
                "`{}` does not exist (links resolve from the skill's folder): a model that follows this link finds no file",
                link.path
            );
            if let Some(p) = &path_near {
                message.push_str(&format!(".{}", crate::analysis::suggest::did_you_mean(Some(p))));
            }
            let mut d = Diagnostic::new(Code::BrokenLink, link.span, message)
                .with_severity(Severity::Warning)
                .with_effect(Effect::FailsWhenUsed);
            if let (Some(n), Some(span)) = (&near, fix) {
                d = d.with_suggestion(span, n.as_str());
            }
            found.push(d);
        }
        self.replace_findings(id, Code::BrokenLink, found)
    }

    /// Replace the findings of `code` in file `id` by `found` (those a disk lookup gave); returns
    /// whether they changed (same spans and messages: nothing to publish).
    pub(super) fn replace_findings(&mut self, id: usize, code: Code, found: Vec<Diagnostic>) -> bool {
        self.replace_findings_of(id, |d| d.code == code, found)
    }

    /// [`Workspace::replace_findings`] for the findings `which` picks (two checks that report one
    /// code on one file each replace their own).
    pub(super) fn replace_findings_of(
        &mut self,
        id: usize,
        which: impl Fn(&Diagnostic) -> bool,
        found: Vec<Diagnostic>,
    ) -> bool {
        let f = &mut self.files[id];
        let mut old = f.analysis.diagnostics.iter().filter(|d| which(d));
        let same = old.clone().count() == found.len()
            && found
                .iter()
                .all(|b| old.next().is_some_and(|a| a.span == b.span && a.message == b.message));
        if same {
            return false;
        }
        f.analysis.diagnostics.retain(|d| !which(d));
        f.analysis.diagnostics.extend(found);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
        true
    }

    /// Check the links of every `SKILL.md` again (files were created or deleted); returns the
    /// skills whose broken links changed.
    pub fn refresh_skill_links(&mut self) -> Vec<usize> {
        let ids: Vec<usize> = (0..self.files.len())
            .filter(|&i| {
                let f = &self.files[i];
                f.live && f.analysis.skill().is_some_and(|s| !s.links.is_empty())
            })
            .collect();
        ids.into_iter().filter(|&id| self.check_links(id)).collect()
    }

    /// Remove a file (deleted on disk). Its id is not reused.
    pub fn remove(&mut self, path: &Path) -> Option<usize> {
        let id = self.id(path)?;
        let f = &mut self.files[id];
        f.live = false;
        f.text = String::new();
        f.analysis = FileAnalysis::default();
        f.resolved = None;
        f.index = LineIndex::new("");
        self.restamp(id, false);
        Some(id)
    }

    /// Read a file from disk and add it; read problems land in `errors`.
    pub fn read_and_add(&mut self, path: &Path, kind: FileKind, role: Role, in_scope: bool) -> Option<usize> {
        if let Role::NotChecked(what) = role {
            return Some(self.add_unread(path, kind, role, in_scope, &Unread::NotChecked(what)));
        }
        if let Some(id) = self.id(path) {
            if in_scope {
                self.set_in_scope(id, true);
            }
            return Some(id);
        }
        if self.errors.iter().any(|(p, _)| p == path || key(p) == key(path)) {
            return None;
        }
        let (text, problem) = match read_text(path) {
            Ok(r) => r,
            Err(why) => return Some(self.add_unread(path, kind, role, in_scope, &why)),
        };
        let id = self.upsert(path, kind, role, text, in_scope);
        if let Some(problem) = problem {
            self.files[id].analysis.diagnostics.insert(0, problem);
        }
        Some(id)
    }

    /// Add a file that could not be analysed (too large, binary, unreadable): it is in the
    /// workspace with no text and one `unchecked-file` diagnostic, so that every report and the
    /// editor account for it.
    pub fn add_unread(&mut self, path: &Path, kind: FileKind, role: Role, in_scope: bool, why: &Unread) -> usize {
        let analysis = FileAnalysis {
            diagnostics: vec![unchecked_file(&kind, why)],
            ..FileAnalysis::default()
        };
        self.upsert_analyzed(
            path,
            kind,
            role,
            String::new(),
            (analysis, LineIndex::new("")),
            in_scope,
        )
    }

    /// The reason a loaded file was not analysed, if it was not.
    pub fn unread(&self, id: usize) -> Option<&Diagnostic> {
        let f = &self.files[id];
        f.text
            .is_empty()
            .then(|| f.analysis.diagnostics.iter().find(|d| d.code == Code::UncheckedFile))
            .flatten()
    }

    /// The checks of a plugin manifest that read the disk: every component path it declares
    /// exists (and is what its field wants); a custom `agents` or `commands` leaves the
    /// default folder's files out; a marketplace's local plugin sources exist.
    pub(super) fn check_manifest(&mut self, id: usize) {
        use crate::analysis::claude::plugin::{Manifest, Want};
        use crate::analysis::{Effect, Severity};
        let f = &self.files[id];
        let (Some(kind), Some(m), Some(root)) = (
            f.kind.manifest(),
            f.analysis.manifest(),
            f.path.parent().and_then(Path::parent),
        ) else {
            return;
        };
        let error = |span: Span, message: String, effect: Effect| {
            Diagnostic::new(Code::InvalidValue, span, message)
                .with_severity(Severity::Error)
                .with_effect(effect)
        };
        let mut out = Vec::new();
        match kind {
            Manifest::Plugin => {
                for p in &m.paths {
                    let target = root.join(p.path.trim_start_matches("./"));
                    let problem = match fs::metadata(&target) {
                        Err(_) => Some(format!(
                            "`{}` does not exist in the plugin: `claude plugin validate` rejects the manifest, and Claude Code loads the plugin without it",
                            p.path
                        )),
                        Ok(meta) if p.want == Want::Dir && !meta.is_dir() => Some(format!(
                            "`{}` is a file: `{}` lists folders that hold `SKILL.md` (here `./{}`); Claude Code skips it",
                            p.path,
                            p.field,
                            Path::new(p.path.trim_start_matches("./"))
                                .parent()
                                .map(|d| d.to_string_lossy().into_owned())
                                .unwrap_or_default()
                        )),
                        Ok(meta) if p.want == Want::File && meta.is_dir() => Some(format!(
                            "`{}` is a folder: `{}` lists files; Claude Code skips it",
                            p.path, p.field
                        )),
                        Ok(_) => None,
                    };
                    if let Some(message) = problem {
                        out.push(error(p.span, message, Effect::ValueIgnored));
                    }
                }
                // `agents`, `commands` and `outputStyles` replace their default folder.
                let root_map = f.analysis.parsed.root.as_ref().and_then(|r| r.as_map());
                for (field, set, folder_name) in [
                    ("agents", m.layout.agents.is_some(), "agents"),
                    ("commands", m.layout.commands.is_some(), "commands"),
                    ("outputStyles", !m.layout.output_styles.is_empty(), "output-styles"),
                ] {
                    let Some(entry) = root_map.and_then(|r| r.get(field)).filter(|_| set) else {
                        continue;
                    };
                    // As the text says (an editor's buffer may differ from the disk).
                    let plugin = crate::analysis::claude::plugin::members::Plugin {
                        root: root.to_path_buf(),
                        name: m.name.clone().unwrap_or_default(),
                        layout: m.layout.clone(),
                    };
                    let listed: std::collections::HashSet<PathBuf> =
                        crate::analysis::claude::plugin::members::plugin_files(&plugin, &super::tree::FsDisk)
                            .into_iter()
                            .map(|(p, _)| p)
                            .collect();
                    // What the default folder would give without the field.
                    let mut default = plugin.clone();
                    match field {
                        "agents" => default.layout.agents = None,
                        "commands" => default.layout.commands = None,
                        _ => default.layout.output_styles.clear(),
                    }
                    let folder = root.join(folder_name);
                    let mut left_out: Vec<PathBuf> =
                        crate::analysis::claude::plugin::members::plugin_files(&default, &super::tree::FsDisk)
                            .into_iter()
                            .map(|(p, _)| p)
                            .filter(|p| p.starts_with(&folder) && !listed.contains(p))
                            .collect();
                    if left_out.is_empty() {
                        continue;
                    }
                    left_out.sort();
                    let first = left_out[0]
                        .strip_prefix(root)
                        .map(|r| r.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    out.push(
                        Diagnostic::new(
                            Code::InvalidValue,
                            entry.key.span,
                            format!(
                                "setting `{field}` replaces the plugin's `{folder_name}/` folder: Claude Code does not load the {} file{} there that `{field}` leaves out (`{first}`{})",
                                left_out.len(),
                                if left_out.len() == 1 { "" } else { "s" },
                                if left_out.len() > 1 { ", ..." } else { "" }
                            ),
                        )
                        .with_severity(Severity::Warning)
                        // Not `file-ignored`: on a manifest, that effect means the plugin does
                        // not load.
                        .with_effect(Effect::ValueIgnored),
                    );
                }
            }
            Manifest::Marketplace => {
                // An entry's `version` beside a local plugin's own: plugin.json wins at install.
                let items = f
                    .analysis
                    .parsed
                    .root
                    .as_ref()
                    .and_then(|r| r.as_map())
                    .and_then(|r| r.value("plugins"))
                    .and_then(|p| match &p.value {
                        crate::analysis::syntax::Value::Seq(items) => Some(items),
                        _ => None,
                    });
                for item in items.into_iter().flatten() {
                    let Some(entry) = item.as_map() else { continue };
                    let (Some(name), Some(version)) =
                        (entry.value("name").and_then(|n| n.as_str()), entry.value("version"))
                    else {
                        continue;
                    };
                    let Some(written) = version.as_str() else { continue };
                    let Some(Some((p, _))) = m.entries.iter().find(|(n, _)| n == name).map(|(_, s)| s) else {
                        continue;
                    };
                    let manifest = root.join(p).join(".claude-plugin").join("plugin.json");
                    let own = fs::read_to_string(&manifest)
                        .ok()
                        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                        .and_then(|v| v.get("version").and_then(|v| v.as_str()).map(str::to_string));
                    if let Some(own) = own.filter(|o| o != written) {
                        out.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                version.span,
                                format!(
                                    "`{name}`'s plugin.json says version \"{own}\": Claude Code installs \"{own}\" and ignores this one (`claude plugin validate` warns)"
                                ),
                            )
                            .with_severity(Severity::Warning)
                            .with_effect(Effect::ValueIgnored)
                            .with_fix(
                                format!("Write \"{own}\""),
                                vec![crate::analysis::diagnostic::Edit::new(version.span, format!("\"{own}\""))],
                                true,
                            ),
                        );
                    }
                }
                for (name, source) in &m.entries {
                    let Some((p, span)) = source else { continue };
                    if !root.join(p).is_dir() {
                        out.push(error(
                            *span,
                            format!(
                                "`{p}` is no folder of this marketplace: Claude Code cannot install `{name}` (\"Source path does not exist\"); `claude plugin validate` does not check it"
                            ),
                            Effect::FailsWhenUsed,
                        ));
                    }
                }
            }
        }
        if out.is_empty() {
            return;
        }
        let f = &mut self.files[id];
        f.analysis.diagnostics.extend(out);
        f.analysis
            .diagnostics
            .sort_by_key(|d| (d.span.start, d.span.end, d.code));
    }
}

/// The name of the entry beside `target` (a missing file) closest to its own, when one is close
/// enough to be a typo (`env-var.md` for `env-vars.md`).
fn closest_sibling(target: &Path) -> Option<String> {
    let name = target.file_name()?.to_str()?;
    let names: Vec<String> = std::fs::read_dir(target.parent()?)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    crate::analysis::suggest::closest(name, names.iter().map(String::as_str)).map(str::to_string)
}

/// Where the file name of `target` is written inside the link at `span` (its last occurrence,
/// before any `#anchor`).
fn name_span(text: &str, span: Span, target: &Path) -> Option<Span> {
    let name = target.file_name()?.to_str()?;
    let written = text.get(span.range())?;
    let written = written.split('#').next().unwrap_or(written);
    let at = written.rfind(name)?;
    let start = span.start as usize + at;
    Some(Span::new(start, start + name.len()))
}
