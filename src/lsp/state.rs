//! The server's state and everything it does on a notification, synchronously: open
//! documents (a rope and a version each), the workspace index, and what was last published.
//! Each entry point returns the `publishDiagnostics` to send, in order; the transport sends them.

mod completion;
mod navigation;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ropey::Rope;
use tower_lsp_server::ls_types::{self as lsp, FileChangeType, FileEvent, TextDocumentContentChangeEvent, Uri};
use tracing::{debug, warn};

use super::convert::{self, Indexed};
use super::settings::{GlobalConfig, Settings};
use crate::analysis::{self, Encoding, LineIndex};
use crate::analysis::{FileAnalysis, FileKind};
use crate::workspace::{Options, Workspace};

/// One `textDocument/publishDiagnostics` to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Publish {
    pub uri: Uri,
    pub version: Option<i32>,
    pub diagnostics: Vec<lsp::Diagnostic>,
}

/// An open document.
struct Doc {
    uri: Uri,
    rope: Rope,
    version: i32,
    /// The workspace file it is, or `None` for a document analysed on its own (untitled, or a
    /// file outside every opencode location).
    file: Option<usize>,
    /// For documents analysed on their own.
    solo: Option<Solo>,
    /// The language the editor said it is in (`json`, `markdown`, ...).
    language_id: String,
}

struct Solo {
    kind: FileKind,
    text: String,
    index: LineIndex,
    analysis: FileAnalysis,
}

pub struct State {
    pub ws: Workspace,
    docs: HashMap<String, Doc>,
    /// The URI each workspace file is published under.
    uris: HashMap<usize, Uri>,
    /// What was last published per workspace file (core diagnostics, before settings), as a
    /// hash and whether it was empty: enough to tell a change, without a copy of every file's
    /// diagnostics.
    published: HashMap<usize, Shown>,
    pub encoding: Encoding,
    pub settings: Settings,
    /// Workspace folders from the client.
    roots: Vec<PathBuf>,
    /// The client applies file renames in workspace edits.
    pub can_rename_files: bool,
    /// The client takes `documentChanges` in a workspace edit (else the `changes` map).
    pub document_changes: bool,
    /// A workspace is being indexed in the background: documents get their own diagnostics
    /// only (a cross-file check on a half-read workspace could be wrong), and file events wait
    /// in `pending_events` until the index is installed.
    indexing: bool,
    pending_events: Vec<FileEvent>,
}

/// What was published for a file, in short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    hash: u64,
    empty: bool,
}

impl Shown {
    fn of(diags: &[analysis::Diagnostic]) -> Shown {
        use std::hash::{Hash, Hasher};
        let mut h = analysis::hash::FxHasher::default();
        diags.hash(&mut h);
        Shown {
            hash: h.finish(),
            empty: diags.is_empty(),
        }
    }
}

fn path_of(uri: &Uri) -> Option<PathBuf> {
    if uri.scheme().as_str() != "file" {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

impl State {
    pub fn new(roots: Vec<PathBuf>, encoding: Encoding, settings: Settings) -> State {
        let options = options_for(&settings);
        let mut ws = Workspace::new(roots.clone(), options);
        ws.set_editor_codes(settings.severity.keys().copied().collect());
        State {
            ws,
            docs: HashMap::new(),
            uris: HashMap::new(),
            published: HashMap::new(),
            encoding,
            settings,
            roots,
            can_rename_files: false,
            document_changes: false,
            indexing: false,
            pending_events: Vec::new(),
        }
    }

    /// How many files the workspace folders may hold to index: an upper bound (every Markdown
    /// and JSON file the walk visits), counted by a walk that reads no file and stops past
    /// `limit`.
    pub fn files_to_index(&self, limit: usize) -> usize {
        // A large workspace is told from a small one after a few hundred files, not after
        // walking it all.
        let mut n = 0;
        for root in &self.roots {
            n += crate::workspace::discover::count_candidates_past(root, limit - n.min(limit));
            if n > limit {
                break;
            }
        }
        n
    }

    /// Start indexing in the background: the workspace to scan (outside the state's lock), to
    /// be given back to [`State::finish_index`].
    pub fn begin_index(&mut self) -> Workspace {
        self.indexing = true;
        Workspace::new(self.roots.clone(), options_for(&self.settings))
    }

    /// The background index failed: index here instead, then apply the waiting file events.
    pub fn abandon_index(&mut self) -> Vec<Publish> {
        self.indexing = false;
        let mut out = self.scan();
        out.extend(self.apply_pending_events());
        out
    }

    /// The file events that waited for the index.
    fn apply_pending_events(&mut self) -> Vec<Publish> {
        let events = std::mem::take(&mut self.pending_events);
        if events.is_empty() {
            return Vec::new();
        }
        self.watched(events)
    }

    /// Install a workspace scanned in the background: open documents are put into it, every
    /// file's diagnostics (cross-file ones included) are published, and the file events that
    /// arrived meanwhile are applied. Nothing happens if a reload replaced the workspace since.
    pub fn finish_index(&mut self, ws: Workspace) -> Vec<Publish> {
        if !self.indexing {
            return Vec::new();
        }
        self.indexing = false;
        for (path, why) in &ws.errors {
            warn!("{}: {why}", path.display());
        }
        let clearing = self.install(ws);
        let mut out = self.republish(clearing);
        out.extend(self.apply_pending_events());
        out
    }

    /// Discover every opencode file under the workspace folders (and the user's global
    /// configuration) and publish diagnostics for all of them.
    pub fn scan(&mut self) -> Vec<Publish> {
        self.ws.scan();
        for (path, why) in &self.ws.errors {
            warn!("{}: {why}", path.display());
        }
        self.refresh(&[])
    }

    /// Settings changed: rebuild the index if the global layer changed, re-publish everything.
    pub fn set_settings(&mut self, settings: Settings) -> Vec<Publish> {
        let rebuild = settings.global != self.settings.global;
        self.settings = settings;
        self.ws
            .set_editor_codes(self.settings.severity.keys().copied().collect());
        let out = if rebuild { self.reload() } else { Vec::new() };
        let mut out = self.republish(out);
        out.extend(self.solo_publishes());
        out
    }

    /// Rebuild the index from disk (open documents keep their text and version): the clearing
    /// publishes for the files that had diagnostics. Follow with [`State::republish`].
    fn reload(&mut self) -> Vec<Publish> {
        let mut ws = Workspace::new(self.roots.clone(), options_for(&self.settings));
        ws.scan();
        // A background index started before is superseded.
        self.indexing = false;
        self.pending_events.clear();
        self.install(ws)
    }

    /// Replace the index with `ws` (open documents keep their text and version): the clearing
    /// publishes for the files that had diagnostics. Follow with [`State::republish`].
    fn install(&mut self, ws: Workspace) -> Vec<Publish> {
        let mut out = Vec::new();
        // Files that disappear from the index get their diagnostics cleared.
        for (&id, _) in self.published.iter().filter(|(_, d)| !d.empty) {
            if let Some(uri) = self.uris.get(&id) {
                out.push(Publish {
                    uri: uri.clone(),
                    version: None,
                    diagnostics: Vec::new(),
                });
            }
        }
        self.published.clear();
        self.uris.clear();
        self.ws = ws;
        self.ws
            .set_editor_codes(self.settings.severity.keys().copied().collect());
        let open: Vec<String> = self.docs.keys().cloned().collect();
        for key in open {
            self.reattach(&key);
        }
        out
    }

    /// Publish every file known by URI again, after the `clearing` publishes of a reload (which
    /// are dropped for the files re-sent).
    fn republish(&mut self, mut clearing: Vec<Publish>) -> Vec<Publish> {
        let force: Vec<usize> = self.uris.keys().copied().collect();
        let mut fresh = self.refresh(&force);
        // Send the re-published state after the clearing, and never clear what is re-sent.
        clearing.retain(|p| !fresh.iter().any(|f| f.uri == p.uri));
        clearing.append(&mut fresh);
        clearing
    }

    /// A skill appeared, changed or went away: the index is rebuilt, since the skills a Zuno
    /// project can load (which its `requiredSkills` must name) are read with its first file.
    /// Only the files whose diagnostics change are published.
    fn reload_for_skills(&mut self) -> Vec<Publish> {
        let by_uri = |st: &State| -> HashMap<String, Shown> {
            st.published
                .iter()
                .filter_map(|(id, shown)| Some((st.uris.get(id)?.as_str().to_string(), *shown)))
                .collect()
        };
        let before = by_uri(self);
        let clearing = self.reload();
        let mut out = self.republish(clearing);
        let after = by_uri(self);
        // Drop the re-publishes of what a file already shows (same core diagnostics, same
        // settings); keep the clearing of files that left the index.
        out.retain(|p| {
            let u = p.uri.as_str();
            !before.contains_key(u) || before.get(u) != after.get(u)
        });
        out
    }

    pub fn open(&mut self, uri: Uri, language_id: &str, version: i32, text: String) -> Vec<Publish> {
        let key = uri.as_str().to_string();
        self.docs.insert(
            key.clone(),
            Doc {
                uri,
                rope: Rope::from_str(&text),
                version,
                file: None,
                solo: None,
                language_id: language_id.to_string(),
            },
        );
        self.attach(&key, language_id, text)
    }

    /// Put an open document's text into the index (or analyse it on its own).
    fn attach(&mut self, key: &str, language_id: &str, text: String) -> Vec<Publish> {
        let Some(doc) = self.docs.get(key) else {
            return Vec::new();
        };
        let uri = doc.uri.clone();
        let path = path_of(&uri);
        let role = path.as_deref().and_then(|p| self.ws.role_of(p));
        match (path, role) {
            (Some(path), Some((kind, role))) => {
                let id = self.ws.upsert(&path, kind, role, text, true);
                self.uris.insert(id, uri);
                if let Some(doc) = self.docs.get_mut(key) {
                    doc.file = Some(id);
                    doc.solo = None;
                }
                self.refresh(&[id])
            }
            (path, _) => {
                let kind = crate::workspace::discover::solo_kind(path.as_deref(), uri.as_str(), language_id, &text);
                let Some(doc) = self.docs.get_mut(key) else {
                    return Vec::new();
                };
                doc.file = None;
                doc.solo = kind.map(|kind| Solo {
                    analysis: analysis::analyze(&kind, &text),
                    index: LineIndex::new(&text),
                    kind,
                    text,
                });
                self.solo_publish(key).into_iter().collect()
            }
        }
    }

    /// Re-attach an open document after the index was rebuilt.
    fn reattach(&mut self, key: &str) {
        let Some(doc) = self.docs.get(key) else { return };
        let text = doc.rope.to_string();
        let lang = doc.language_id.clone();
        let _ = self.attach(key, &lang, text);
    }

    pub fn change(&mut self, uri: &Uri, version: i32, changes: Vec<TextDocumentContentChangeEvent>) -> Vec<Publish> {
        let key = uri.as_str().to_string();
        let enc = self.encoding;
        let Some(doc) = self.docs.get_mut(&key) else {
            warn!("didChange for a document that is not open: {}", uri.as_str());
            return Vec::new();
        };
        for change in changes {
            match change.range {
                None => doc.rope = Rope::from_str(&change.text),
                Some(range) => {
                    let start = convert::rope_char(&doc.rope, range.start, enc);
                    let end = convert::rope_char(&doc.rope, range.end, enc);
                    match (start, end) {
                        (Ok(s), Ok(e)) => {
                            let (s, e) = (s.min(e), s.max(e));
                            doc.rope.remove(s..e);
                            doc.rope.insert(s, &change.text);
                        }
                        (Err(err), _) | (_, Err(err)) => {
                            // The client and server disagree about the text. Re-synchronise
                            // from disk rather than edit the wrong place; the client's next
                            // full-text change or save brings it back in line.
                            warn!(
                                "change out of bounds in {} (line {} of {} lines); re-reading the document from disk",
                                uri.as_str(),
                                err.position.line,
                                err.lines
                            );
                            let disk = path_of(uri).and_then(|p| std::fs::read_to_string(p).ok());
                            doc.rope = Rope::from_str(disk.as_deref().unwrap_or(""));
                            break;
                        }
                    }
                }
            }
        }
        doc.version = version;
        let text = doc.rope.to_string();
        match doc.file {
            Some(id) => {
                self.ws.set_text(id, text);
                self.refresh(&[id])
            }
            None => {
                if let Some(solo) = &mut doc.solo {
                    solo.analysis = analysis::analyze(&solo.kind, &text);
                    solo.index = LineIndex::new(&text);
                    solo.text = text;
                    self.solo_publish(&key).into_iter().collect()
                } else {
                    Vec::new()
                }
            }
        }
    }

    pub fn close(&mut self, uri: &Uri) -> Vec<Publish> {
        let key = uri.as_str().to_string();
        let Some(doc) = self.docs.remove(&key) else {
            return Vec::new();
        };
        let Some(id) = doc.file else {
            // Analysed on its own: nothing stays behind.
            return vec![Publish {
                uri: doc.uri,
                version: None,
                diagnostics: Vec::new(),
            }];
        };
        let path = self.ws.files[id].path.clone();
        match crate::workspace::read_text(&path) {
            Ok((text, _)) if path.exists() => {
                // Back to the text on disk, whose diagnostics stay.
                let f = &self.ws.files[id];
                let (kind, role, in_scope) = (f.kind.clone(), f.role.clone(), self.is_in_roots(&path));
                self.ws.upsert(&path, kind, role, text, in_scope);
                // Outside the workspace folders a closed file is no longer reported on.
                self.ws.set_in_scope(id, in_scope);
                self.refresh(&[id])
            }
            Err(why) if path.exists() => {
                // Back to a file on disk that agent-lsp does not analyse (too large, binary).
                let f = &self.ws.files[id];
                let (kind, role, in_scope) = (f.kind.clone(), f.role.clone(), self.is_in_roots(&path));
                self.ws.add_unread(&path, kind, role, in_scope, &why);
                self.ws.set_in_scope(id, in_scope);
                self.refresh(&[id])
            }
            _ => {
                self.ws.remove(&path);
                let mut out = self.refresh(&[]);
                if !out.iter().any(|p| p.uri == doc.uri) {
                    out.push(Publish {
                        uri: doc.uri,
                        version: None,
                        diagnostics: Vec::new(),
                    });
                }
                self.published.remove(&id);
                out
            }
        }
    }

    fn is_in_roots(&self, path: &Path) -> bool {
        self.roots.is_empty() || self.roots.iter().any(|r| path.starts_with(r))
    }

    fn open_doc_for(&self, id: usize) -> bool {
        self.docs.values().any(|d| d.file == Some(id))
    }

    /// Files created, changed or deleted on disk.
    pub fn watched(&mut self, events: Vec<FileEvent>) -> Vec<Publish> {
        if self.indexing {
            // Applied to the index once it is installed (it may have read the files before).
            self.pending_events.extend(events);
            return Vec::new();
        }
        let mut touched = Vec::new();
        let mut other_files = false;
        let mut skills = false;
        // A file that appears or vanishes may be the target of a skill's link.
        let mut links = false;
        for ev in events {
            let Some(path) = path_of(&ev.uri) else { continue };
            skills |= is_skill_event(&path, ev.typ);
            links |= ev.typ != FileChangeType::CHANGED;
            let open = self.ws.id(&path).is_some_and(|id| self.open_doc_for(id));
            if open {
                // The editor's buffer is the truth while the document is open.
                continue;
            }
            if ev.typ == FileChangeType::DELETED {
                other_files = true;
                if let Some(id) = self.ws.remove(&path) {
                    debug!("deleted {}", path.display());
                    touched.push(id);
                }
                // A deleted directory: remove every file under it.
                let under: Vec<PathBuf> = self
                    .ws
                    .files
                    .iter()
                    .filter(|f| f.live && f.path.starts_with(&path) && f.path != path)
                    .map(|f| f.path.clone())
                    .collect();
                for p in under {
                    touched.extend(self.ws.remove(&p));
                }
                continue;
            }
            let Some((kind, role)) = self.ws.role_of(&path) else {
                // Perhaps the target of a `{file:...}` reference.
                other_files = true;
                continue;
            };
            // A new config can turn its directory into a config directory (an `agents/` folder
            // next to `opencode.json`): its Markdown agents join the index.
            touched.extend(self.ws.load_beside(&role));
            // A new file may be a path a plugin manifest declares.
            if ev.typ == FileChangeType::CREATED {
                other_files = true;
            }
            // A plugin manifest decides what its plugin contributes, and under which name.
            let brings = crate::workspace::brings_files(&kind, &role);
            match crate::workspace::read_text(&path) {
                Ok((text, problem)) => {
                    let in_scope = self.is_in_roots(&path);
                    let id = self.ws.upsert(&path, kind, role, text, in_scope);
                    if let Some(p) = problem {
                        self.ws.files[id].analysis.diagnostics.insert(0, p);
                    }
                    self.uris.entry(id).or_insert(ev.uri.clone());
                    touched.push(id);
                    if let Some(root) = brings {
                        touched.extend(self.ws.load_bundle(&root));
                    }
                }
                Err(why) => {
                    let in_scope = self.is_in_roots(&path);
                    let id = self.ws.add_unread(&path, kind, role, in_scope, &why);
                    self.uris.entry(id).or_insert(ev.uri.clone());
                    touched.push(id);
                }
            }
        }
        if other_files {
            touched.extend(self.ws.refresh_file_references());
        }
        if links {
            touched.extend(self.ws.refresh_skill_links());
            touched.extend(self.ws.refresh_disk_checks());
        }
        if skills && self.ws.finds_skills_itself() {
            return self.reload_for_skills();
        }
        self.refresh(&touched)
    }

    /// Bring the cross-file results up to date (only the units whose inputs changed) and return
    /// the publishes for files whose diagnostics changed, plus the `force`d ones (a changed
    /// document always gets its version). Only the files a change can reach are looked at.
    pub fn refresh(&mut self, force: &[usize]) -> Vec<Publish> {
        let mut ids: Vec<usize> = if self.indexing {
            Vec::new()
        } else {
            self.ws.refresh_cross().into_iter().collect()
        };
        ids.extend(force.iter().copied());
        // A project file (`agent-lsp.toml`) changed: what every file shows may change.
        if ids
            .iter()
            .any(|&id| id < self.ws.files.len() && self.ws.files[id].kind.is_project_file())
        {
            ids.extend(0..self.ws.files.len());
        }
        ids.sort_unstable();
        ids.dedup();
        let mut out = Vec::new();
        for id in ids {
            if id >= self.ws.files.len() {
                continue;
            }
            let now = if self.indexing {
                self.ws.own_diagnostics(id)
            } else {
                self.ws.file_diagnostics(id)
            };
            let shown = Shown::of(&now);
            let before = self.published.get(&id).copied();
            if before == Some(shown) && !force.contains(&id) {
                continue;
            }
            if before.is_none() && now.is_empty() && !force.contains(&id) {
                continue;
            }
            let f = &self.ws.files[id];
            if !f.live && now.is_empty() && before.is_none_or(|b| b.empty) {
                continue;
            }
            let Some(uri) = self.uri_for(id) else { continue };
            let version = self.docs.values().find(|d| d.file == Some(id)).map(|d| d.version);
            let diagnostics = self.convert(id, &uri, &now);
            out.push(Publish {
                uri,
                version,
                diagnostics,
            });
            self.published.insert(id, shown);
        }
        out
    }

    fn uri_for(&mut self, id: usize) -> Option<Uri> {
        if let Some(u) = self.uris.get(&id) {
            return Some(u.clone());
        }
        let uri = Uri::from_file_path(&self.ws.files[id].path)?;
        self.uris.insert(id, uri.clone());
        Some(uri)
    }

    fn convert(&self, id: usize, uri: &Uri, diags: &[analysis::Diagnostic]) -> Vec<lsp::Diagnostic> {
        let f = &self.ws.files[id];
        let here = Indexed {
            uri,
            text: &f.text,
            index: &f.index,
        };
        // At most MAX_PUBLISHED per file, then one saying how many more.
        let (diags, more) = convert::cap(diags, |d| self.settings.severity_for(d).is_some());
        let mut out: Vec<lsp::Diagnostic> = diags
            .iter()
            .filter_map(|d| {
                // Related locations in other files carry their own spans; resolve per item.
                let other_for = |file: usize| -> Option<(Uri, lsp::Range)> {
                    let span = d.related.iter().find_map(|r| match r.location {
                        analysis::Location::File { file: f2, span } if f2 == file => Some(span),
                        _ => None,
                    })?;
                    let of = self.ws.files.get(file)?;
                    let uri = self
                        .uris
                        .get(&file)
                        .cloned()
                        .or_else(|| Uri::from_file_path(&of.path))?;
                    Some((uri, convert::range(&of.text, &of.index, span, self.encoding)))
                };
                let main = convert::diagnostic(d, &here, &other_for, &self.settings, self.encoding)?;
                Some(std::iter::once(main).chain(convert::lost_hints(d, &here, &self.settings, self.encoding)))
            })
            .flatten()
            .collect();
        if let Some((more, at)) = more {
            out.push(convert::more_problems(more, &here, at, self.encoding));
        }
        out
    }

    fn solo_publish(&self, key: &str) -> Option<Publish> {
        let doc = self.docs.get(key)?;
        let diagnostics = match &doc.solo {
            Some(s) => {
                let here = Indexed {
                    uri: &doc.uri,
                    text: &s.text,
                    index: &s.index,
                };
                let all = analysis::suppress::apply(
                    &s.analysis.suppressions,
                    s.analysis.diagnostics.clone(),
                    analysis::suppress::Report::All,
                );
                let (diags, more) = convert::cap(&all, |d| self.settings.severity_for(d).is_some());
                let mut out: Vec<lsp::Diagnostic> = diags
                    .iter()
                    .filter_map(|d| {
                        let main = convert::diagnostic(d, &here, &|_| None, &self.settings, self.encoding)?;
                        Some(std::iter::once(main).chain(convert::lost_hints(d, &here, &self.settings, self.encoding)))
                    })
                    .flatten()
                    .collect();
                if let Some((more, at)) = more {
                    out.push(convert::more_problems(more, &here, at, self.encoding));
                }
                out
            }
            None => Vec::new(),
        };
        Some(Publish {
            uri: doc.uri.clone(),
            version: Some(doc.version),
            diagnostics,
        })
    }

    fn solo_publishes(&self) -> Vec<Publish> {
        self.docs
            .iter()
            .filter(|(_, d)| d.solo.is_some())
            .filter_map(|(k, _)| self.solo_publish(k))
            .collect()
    }

    /// For a Copilot chat mode: the file it moves to to become a custom agent
    /// (`.github/agents/<name>.agent.md` of its workspace folder), when the client can rename
    /// files and no file is there yet.
    pub fn migrated_uri(&self, uri: &Uri) -> Option<Uri> {
        if !self.can_rename_files {
            return None;
        }
        let id = self.ws.id(&path_of(uri)?)?;
        let target = {
            use crate::analysis::host::Host as _;
            let f = self.ws.file(id)?;
            f.kind.dialect().spec().moved_file(&f, &self.ws)?
        };
        if target.exists() {
            return None;
        }
        Uri::from_file_path(&target)
    }

    /// The edit that ignores a diagnostic of `code` starting at `pos` on its line (an
    /// `agent-lsp: ignore[...]` comment added or extended), when a comment can go there.
    pub fn ignore_edit(&self, uri: &Uri, pos: lsp::Position, code: &str) -> Option<lsp::TextEdit> {
        let code = analysis::Code::from_name(code)?;
        let doc = self.docs.get(uri.as_str());
        let (kind, text, index, file) = match doc.and_then(|d| d.file) {
            Some(id) => {
                let f = &self.ws.files[id];
                (&f.kind, f.text.as_str(), &f.index, &f.analysis)
            }
            None => match doc.and_then(|d| d.solo.as_ref()) {
                Some(s) => (&s.kind, s.text.as_str(), &s.index, &s.analysis),
                None => {
                    let f = &self.ws.files[self.ws.id(&path_of(uri)?)?];
                    (&f.kind, f.text.as_str(), &f.index, &f.analysis)
                }
            },
        };
        let offset = convert::offset(text, index, pos, self.encoding);
        let edit = analysis::ignore_edit(kind, text, file, offset, code)?;
        Some(lsp::TextEdit {
            range: convert::range(text, index, edit.span, self.encoding),
            new_text: edit.text,
        })
    }

    /// The edit that applies every safe fix of a document (one replacement of the changed
    /// region, so that everything around it stays as it was).
    pub fn fix_all_edit(&self, uri: &Uri) -> Option<lsp::TextEdit> {
        let doc = self.docs.get(uri.as_str());
        let (kind, text, index) = match doc.and_then(|d| d.file) {
            Some(id) => {
                let f = &self.ws.files[id];
                (f.kind.clone(), f.text.as_str(), &f.index)
            }
            None => match doc.and_then(|d| d.solo.as_ref()) {
                Some(s) => (s.kind.clone(), s.text.as_str(), &s.index),
                None => {
                    let id = self.ws.id(&path_of(uri)?)?;
                    let f = &self.ws.files[id];
                    (f.kind.clone(), f.text.as_str(), &f.index)
                }
            },
        };
        let (fixed, titles) = analysis::fix_all(&kind, text);
        if titles.is_empty() || fixed == text {
            return None;
        }
        // Trim the common prefix and suffix (on char boundaries).
        let prefix = text
            .char_indices()
            .zip(fixed.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, c), _)| i + c.len_utf8());
        let (ta, fa) = (&text[prefix..], &fixed[prefix..]);
        let suffix = ta
            .chars()
            .rev()
            .zip(fa.chars().rev())
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a.len_utf8())
            .sum::<usize>()
            .min(ta.len())
            .min(fa.len());
        let span = analysis::Span::new(prefix, text.len() - suffix);
        Some(lsp::TextEdit {
            range: convert::range(text, index, span, self.encoding),
            new_text: fixed[prefix..fixed.len() - suffix].to_string(),
        })
    }

    /// The current text of an open document (for tests and later features).
    pub fn text(&self, uri: &Uri) -> Option<String> {
        self.docs.get(uri.as_str()).map(|d| d.rope.to_string())
    }
}

fn options_for(settings: &Settings) -> Options {
    match &settings.global {
        GlobalConfig::Default => Options::from_env(false, None),
        GlobalConfig::Off => Options::isolated(),
        GlobalConfig::Dir(d) => Options::from_env(false, Some(d.clone())),
    }
}

/// A file event that can change the skills a project loads: a `SKILL.md`, or a deleted folder
/// that may hold skills (under a folder or sub-folder where a runtime reads skills).
fn is_skill_event(path: &Path, typ: FileChangeType) -> bool {
    if path.file_name().is_some_and(|n| n == "SKILL.md") {
        return true;
    }
    let skill_place = |name: &str| {
        crate::analysis::Dialect::places()
            .skills
            .iter()
            .any(|(_, h)| h.folder == name || h.subs.contains(&name))
    };
    typ == FileChangeType::DELETED
        && path.extension().is_none()
        && path
            .components()
            .any(|c| c.as_os_str().to_str().is_some_and(skill_place))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use tower_lsp_server::ls_types::{Position, Range};

    fn uri(s: &str) -> Uri {
        Uri::from_str(s).unwrap()
    }

    #[test]
    fn skill_events_are_skill_files_and_deleted_folders_that_may_hold_skills() {
        let yes = |p: &str, t| assert!(is_skill_event(Path::new(p), t), "{p} {t:?}");
        let no = |p: &str, t| assert!(!is_skill_event(Path::new(p), t), "{p} {t:?}");
        yes("/p/.zuno/skills/lint/SKILL.md", FileChangeType::CHANGED);
        yes("/p/.agents/skills/lint", FileChangeType::DELETED);
        yes("/p/.zuno/skill", FileChangeType::DELETED);
        // A folder created or changed brings no skill until its SKILL.md comes.
        no("/p/.zuno/skills/lint", FileChangeType::CREATED);
        // A deleted file that is not a SKILL.md, or a folder outside skill places.
        no("/p/.zuno/skills/lint/notes.md", FileChangeType::DELETED);
        no("/p/src/lib", FileChangeType::DELETED);
    }

    #[test]
    fn untitled_documents_get_single_file_analysis() {
        let mut st = State::new(Vec::new(), Encoding::Utf16, Settings::default());
        let u = uri("untitled:Untitled-1");
        let p = st.open(u.clone(), "markdown", 1, "---\nmode: main\n---\nBody\n".into());
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].diagnostics.len(), 1);
        assert_eq!(
            p[0].diagnostics[0].range,
            Range::new(Position::new(1, 6), Position::new(1, 10))
        );
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(1, 6), Position::new(1, 10))),
            range_length: None,
            text: "primary".into(),
        };
        let p = st.change(&u, 2, vec![change]);
        assert_eq!(p[0].version, Some(2));
        assert!(p[0].diagnostics.is_empty());
        assert_eq!(st.text(&u).unwrap(), "---\nmode: primary\n---\nBody\n");
        // A plain Markdown file is not an agent.
        let p = st.open(uri("untitled:notes"), "markdown", 1, "# Notes\n".into());
        assert!(p[0].diagnostics.is_empty());
    }
}
