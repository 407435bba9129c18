//! The requests that read the workspace: hover, definition, references, symbols, rename.

use super::*;

impl State {
    /// Document links: a memory file's `@path` imports and a Claude Code command's `@path`
    /// mentions that lead to a file or folder, a skill's relative links to files that exist.
    /// Reads the disk (whether each target exists).
    pub fn document_links(&self, uri: &Uri) -> Option<Vec<lsp::DocumentLink>> {
        let id = match self.docs.get(uri.as_str()).and_then(|d| d.file) {
            Some(id) => id,
            None => self.ws.id(&path_of(uri)?)?,
        };
        let f = &self.ws.files[id];
        let mut targets = self.ws.file_links(id);
        if let (Some(skill), Some(folder)) = (f.analysis.skill(), f.path.parent()) {
            for link in &skill.links {
                let t = folder.join(&link.path);
                if t.exists() {
                    targets.push((link.span, t));
                }
            }
        }
        let links = targets
            .into_iter()
            .filter_map(|(span, path)| {
                Some(lsp::DocumentLink {
                    range: convert::range(&f.text, &f.index, span, self.encoding),
                    target: Some(Uri::from_file_path(&path)?),
                    tooltip: Some(path.display().to_string()),
                    data: None,
                })
            })
            .collect();
        Some(links)
    }

    /// Hover: the effective agent on an agent name, documentation on a field or permission key,
    /// what a permission pattern matches. Works on the indexed text, without touching disk.
    pub fn hover(&self, uri: &Uri, pos: lsp::Position) -> Option<lsp::Hover> {
        let doc = self.docs.get(uri.as_str());
        let id = match doc.and_then(|d| d.file) {
            Some(id) => id,
            None => self.ws.id(&path_of(uri)?)?,
        };
        let f = &self.ws.files[id];
        let offset = convert::offset(&f.text, &f.index, pos, self.encoding);
        let (markdown, span) = analysis::suppress::hover(&f.analysis.suppressions, offset)
            .or_else(|| crate::lsp::hover::at(&self.ws, id, offset, &|s| self.where_is(s)))?;
        Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                // A card may show a value filled in from the environment: never a secret.
                value: self.ws.hide_secrets(&markdown),
            }),
            range: Some(convert::range(&f.text, &f.index, span, self.encoding)),
        })
    }

    /// The workspace file of a document and the byte offset of a position in it.
    pub(super) fn file_offset(&self, uri: &Uri, pos: lsp::Position) -> Option<(usize, usize)> {
        let id = match self.docs.get(uri.as_str()).and_then(|d| d.file) {
            Some(id) => id,
            None => self.ws.id(&path_of(uri)?)?,
        };
        let f = &self.ws.files[id];
        Some((id, convert::offset(&f.text, &f.index, pos, self.encoding)))
    }

    pub(super) fn location(&mut self, o: &crate::lsp::navigate::Occurrence) -> Option<lsp::Location> {
        let uri = self.uri_for(o.file)?;
        let f = &self.ws.files[o.file];
        Some(lsp::Location::new(
            uri,
            convert::range(&f.text, &f.index, o.span, self.encoding),
        ))
    }

    pub fn definition(&mut self, uri: &Uri, pos: lsp::Position) -> Option<Vec<lsp::Location>> {
        let (id, offset) = self.file_offset(uri, pos)?;
        if let Some(defs) = crate::lsp::navigate::other_definitions(&self.ws, id, offset) {
            return Some(defs.iter().filter_map(|o| self.location(o)).collect());
        }
        let (name, _) = crate::lsp::navigate::name_at(&self.ws, id, offset)?;
        let defs = crate::lsp::navigate::definitions(&self.ws, id, &name);
        Some(defs.iter().filter_map(|o| self.location(o)).collect())
    }

    pub fn references(
        &mut self,
        uri: &Uri,
        pos: lsp::Position,
        include_declaration: bool,
    ) -> Option<Vec<lsp::Location>> {
        let (id, offset) = self.file_offset(uri, pos)?;
        let (name, _) = crate::lsp::navigate::name_at(&self.ws, id, offset)?;
        let all = crate::lsp::navigate::find(&self.ws, self.ws.files[id].kind.dialect(), &name);
        Some(
            all.iter()
                .filter(|o| include_declaration || !o.definition)
                .filter_map(|o| self.location(o))
                .collect(),
        )
    }

    pub fn document_symbols(&self, uri: &Uri) -> Option<Vec<lsp::DocumentSymbol>> {
        let id = match self.docs.get(uri.as_str()).and_then(|d| d.file) {
            Some(id) => id,
            None => self.ws.id(&path_of(uri)?)?,
        };
        let f = &self.ws.files[id];
        fn conv(s: crate::lsp::navigate::Symbol, f: &crate::workspace::File, enc: Encoding) -> lsp::DocumentSymbol {
            #[allow(deprecated)]
            lsp::DocumentSymbol {
                name: if s.name.is_empty() { "\"\"".into() } else { s.name },
                detail: s.detail,
                kind: if s.agent {
                    lsp::SymbolKind::CLASS
                } else {
                    lsp::SymbolKind::PROPERTY
                },
                tags: None,
                deprecated: None,
                range: convert::range(&f.text, &f.index, s.span, enc),
                selection_range: convert::range(&f.text, &f.index, s.selection, enc),
                children: Some(s.children.into_iter().map(|c| conv(c, f, enc)).collect()),
            }
        }
        Some(
            crate::lsp::navigate::document_symbols(&self.ws, id)
                .into_iter()
                .map(|s| conv(s, f, self.encoding))
                .collect(),
        )
    }

    pub fn workspace_symbols(&mut self, query: &str) -> Vec<lsp::SymbolInformation> {
        let q = query.to_lowercase();
        let mut out = Vec::new();
        for id in 0..self.ws.files.len() {
            for (name, o) in crate::lsp::navigate::occurrences(&self.ws, id) {
                if !o.definition || !name.to_lowercase().contains(&q) {
                    continue;
                }
                let Some(location) = self.location(&o) else { continue };
                #[allow(deprecated)]
                out.push(lsp::SymbolInformation {
                    name,
                    kind: lsp::SymbolKind::CLASS,
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: Some("agent".into()),
                });
            }
        }
        out
    }

    /// The range of the agent name to rename, or why it cannot be renamed.
    pub fn prepare_rename(&self, uri: &Uri, pos: lsp::Position) -> Result<Option<lsp::Range>, String> {
        let Some((id, offset)) = self.file_offset(uri, pos) else {
            return Ok(None);
        };
        let Some((name, span)) = crate::lsp::navigate::name_at(&self.ws, id, offset) else {
            return Ok(None);
        };
        self.check_rename(id, &name, None)?;
        let f = &self.ws.files[id];
        if span.text(&f.text) != name {
            // The opening `---` of a Markdown agent stands for its name; nothing to edit here.
            return Ok(None);
        }
        Ok(Some(convert::range(&f.text, &f.index, span, self.encoding)))
    }

    pub(super) fn check_rename(&self, id: usize, name: &str, new_name: Option<&str>) -> Result<(), String> {
        let dialect = self.ws.files[id].kind.dialect();
        let builtin = analysis::is_builtin_agent(dialect, name);
        let defined = crate::lsp::navigate::find(&self.ws, dialect, name)
            .iter()
            .any(|o| o.definition);
        if builtin {
            return Err(format!(
                "\"{name}\" is a built-in agent of {}; it cannot be renamed",
                dialect.product()
            ));
        }
        if analysis::is_plugin_agent_name(dialect, name) {
            // `plugin:name`: the definition spells only `name`, so one rename cannot edit both.
            return Err(format!(
                "\"{name}\" is a Claude Code plugin agent; rename it by editing the `name` in its plugin"
            ));
        }
        if !defined {
            return Err(format!("no agent \"{name}\" is defined in this workspace"));
        }
        if let Some(new) = new_name {
            if new.is_empty()
                || new
                    .chars()
                    .any(|c| c.is_whitespace() || matches!(c, '"' | '\\' | ':' | '@'))
            {
                return Err(format!("\"{new}\" is not a usable agent name"));
            }
            if crate::lsp::navigate::known_agents(&self.ws, dialect)
                .iter()
                .any(|n| n == new)
            {
                return Err(format!("an agent named \"{new}\" already exists"));
            }
        }
        Ok(())
    }

    /// Rename an agent: JSON keys, frontmatter `name` values and references are edited; a
    /// Markdown agent named by its path is renamed as a file.
    pub fn rename(
        &mut self,
        uri: &Uri,
        pos: lsp::Position,
        new_name: &str,
    ) -> Result<Option<lsp::WorkspaceEdit>, String> {
        let Some((id, offset)) = self.file_offset(uri, pos) else {
            return Ok(None);
        };
        let Some((name, _)) = crate::lsp::navigate::name_at(&self.ws, id, offset) else {
            return Ok(None);
        };
        self.check_rename(id, &name, Some(new_name))?;
        let mut text_edits: std::collections::BTreeMap<usize, Vec<lsp::TextEdit>> = Default::default();
        let mut file_renames: Vec<(Uri, Uri)> = Vec::new();
        for o in crate::lsp::navigate::find(&self.ws, self.ws.files[id].kind.dialect(), &name) {
            let f = &self.ws.files[o.file];
            if o.span.text(&f.text) == name {
                text_edits.entry(o.file).or_default().push(lsp::TextEdit {
                    range: convert::range(&f.text, &f.index, o.span, self.encoding),
                    new_text: new_name.to_string(),
                });
                continue;
            }
            // An agent named by its path (a Markdown agent): rename the file, as its dialect
            // says.
            let new_path = {
                use crate::analysis::host::Host as _;
                let renamed = self
                    .ws
                    .file(o.file)
                    .and_then(|h| h.kind.dialect().spec().renamed_file(&h, new_name));
                match renamed {
                    Some(p) => p,
                    None => continue,
                }
            };
            let (Some(old_uri), Some(new_uri)) = (
                self.uri_for(o.file),
                Uri::from_file_path(&new_path)
                    .or_else(|| std::str::FromStr::from_str(&format!("file://{}", new_path.display())).ok()),
            ) else {
                continue;
            };
            file_renames.push((old_uri, new_uri));
        }
        if !file_renames.is_empty() && !self.can_rename_files {
            return Err(
                "renaming this agent means renaming its Markdown file, which this editor does not support in a rename"
                    .into(),
            );
        }
        // A client without `documentChanges` gets the plain `changes` map.
        if !self.document_changes {
            let mut map = std::collections::HashMap::new();
            for (file, edits) in text_edits {
                if let Some(uri) = self.uri_for(file) {
                    map.insert(uri, edits);
                }
            }
            return Ok(Some(lsp::WorkspaceEdit {
                changes: Some(map),
                ..lsp::WorkspaceEdit::default()
            }));
        }
        let mut changes: Vec<lsp::DocumentChangeOperation> = Vec::new();
        for (file, edits) in text_edits {
            let Some(uri) = self.uri_for(file) else { continue };
            let version = self.docs.get(uri.as_str()).map(|d| d.version);
            changes.push(lsp::DocumentChangeOperation::Edit(lsp::TextDocumentEdit {
                text_document: lsp::OptionalVersionedTextDocumentIdentifier { uri, version },
                edits: edits.into_iter().map(lsp::OneOf::Left).collect(),
            }));
        }
        for (old_uri, new_uri) in file_renames {
            changes.push(lsp::DocumentChangeOperation::Op(lsp::ResourceOp::Rename(
                lsp::RenameFile {
                    old_uri,
                    new_uri,
                    options: None,
                    annotation_id: None,
                },
            )));
        }
        Ok(Some(lsp::WorkspaceEdit {
            document_changes: Some(lsp::DocumentChanges::Operations(changes)),
            ..lsp::WorkspaceEdit::default()
        }))
    }

    /// A source location for humans: the path relative to the workspace folder, and the line.
    pub(super) fn where_is(&self, s: analysis::provenance::Source) -> String {
        match s {
            analysis::provenance::Source::BuiltIn => "built-in".into(),
            analysis::provenance::Source::File { file, span } => {
                let f = &self.ws.files[file];
                let line = f.index.line_col(&f.text, span.start as usize, Encoding::Utf32).line + 1;
                let rel = self
                    .roots
                    .iter()
                    .find_map(|r| f.path.strip_prefix(r).ok())
                    .unwrap_or(&f.path);
                format!("{}:{line}", rel.display())
            }
        }
    }
}
