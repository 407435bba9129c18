//! Completion: the file's dialect offers the items; the state supplies what the workspace knows
//! (agents, models, skills).

use super::*;

impl State {
    /// Completion items at a position.
    pub fn completion(&self, uri: &Uri, pos: lsp::Position) -> Option<Vec<lsp::CompletionItem>> {
        use analysis::complete::ItemKind;
        let doc = self.docs.get(uri.as_str());
        let (id, kind, text, index, suppressions) = match doc.and_then(|d| d.file) {
            Some(id) => {
                let f = &self.ws.files[id];
                (
                    Some(id),
                    f.kind.clone(),
                    f.text.as_str(),
                    &f.index,
                    &f.analysis.suppressions,
                )
            }
            None => {
                let s = doc?.solo.as_ref()?;
                (
                    None,
                    s.kind.clone(),
                    s.text.as_str(),
                    &s.index,
                    &s.analysis.suppressions,
                )
            }
        };
        let offset = convert::offset(text, index, pos, self.encoding);
        // Inside the brackets of an `agent-lsp: ignore[...]` comment: rule codes.
        let codes = analysis::suppress::complete(suppressions, text, offset);
        let items = match codes {
            Some(codes) => codes,
            None => analysis::complete(&kind, text, offset, &FileKnown { state: self, id }),
        };
        Some(
            items
                .into_iter()
                .map(|it| lsp::CompletionItem {
                    label: it.label.clone(),
                    kind: Some(match it.kind {
                        ItemKind::Key => lsp::CompletionItemKind::PROPERTY,
                        ItemKind::Value => lsp::CompletionItemKind::ENUM_MEMBER,
                        ItemKind::Agent => lsp::CompletionItemKind::CLASS,
                        ItemKind::Model => lsp::CompletionItemKind::VALUE,
                        ItemKind::Color => lsp::CompletionItemKind::COLOR,
                    }),
                    detail: Some(it.detail.clone()),
                    documentation: it.documentation.map(|d| {
                        lsp::Documentation::MarkupContent(lsp::MarkupContent {
                            kind: lsp::MarkupKind::Markdown,
                            value: d,
                        })
                    }),
                    sort_text: Some(format!("{}{}", it.rank, it.label)),
                    filter_text: Some(it.insert.trim_end_matches([' ', ':']).to_string()),
                    text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                        range: convert::range(text, index, it.replace, self.encoding),
                        new_text: it.insert,
                    })),
                    ..lsp::CompletionItem::default()
                })
                .collect(),
        )
    }

    /// What opencode completion offers: the agents of the file's view and the models known.
    pub(super) fn opencode_known(&self, id: Option<usize>) -> analysis::opencode::complete::Known {
        let view = id.map(|id| self.ws.view_of_file(id)).unwrap_or_default();
        let env = self.ws.effective_env_for_file(id);
        let agents = analysis::opencode::effective::agents(&self.ws.view_files(&view), &env);
        analysis::opencode::complete::Known {
            agents: agents
                .iter()
                .filter(|a| !a.hidden.value)
                .map(|a| {
                    let d = a.description.as_ref().map(|d| d.value.clone()).unwrap_or_default();
                    (a.name.clone(), a.mode.value.clone(), d)
                })
                .collect(),
            models: self.known_models(),
        }
    }

    /// Model ids: `provider.<p>.models.<m>` of every config, and models already used.
    pub(super) fn known_models(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |m: &str| {
            if m.contains('/') && !out.iter().any(|x| x == m) {
                out.push(m.to_string());
            }
        };
        for f in self.ws.files.iter().filter(|f| f.live) {
            if let Some(root) = f.analysis.parsed.root.as_ref().and_then(|r| r.as_map())
                && f.kind.is_config()
            {
                if let Some(providers) = root.value("provider").and_then(|p| p.as_map()) {
                    for p in providers.entries.iter() {
                        if let Some(models) = p
                            .value
                            .as_map()
                            .and_then(|m| m.value("models"))
                            .and_then(|m| m.as_map())
                        {
                            for m in models.entries.iter() {
                                add(&format!("{}/{}", p.key.name, m.key.name));
                            }
                        }
                    }
                }
                for k in ["model", "small_model"] {
                    if let Some(m) = root.value(k).and_then(|v| v.as_str()) {
                        add(m);
                    }
                }
            }
            for a in f.analysis.agents() {
                if let Some(m) = a
                    .node
                    .as_ref()
                    .and_then(|n| n.as_map())
                    .and_then(|m| m.value("model"))
                    .and_then(|v| v.as_str())
                {
                    add(m);
                }
            }
        }
        out
    }
}

/// What the workspace knows, for completion in file `id` (`None`: a document outside it).
struct FileKnown<'a> {
    state: &'a State,
    id: Option<usize>,
}

impl analysis::Known for FileKnown<'_> {
    fn opencode(&self) -> analysis::opencode::complete::Known {
        self.state.opencode_known(self.id)
    }

    fn command_agents(&self, runtime: analysis::Dialect) -> Vec<(String, String)> {
        let dir = self.id.and_then(|id| match &self.state.ws.files[id].role {
            crate::workspace::Role::Command { dir } => Some(dir.clone()),
            _ => None,
        });
        match dir {
            Some(dir) => self.state.ws.agents_for_command(runtime, &dir),
            None => Vec::new(),
        }
    }

    fn models(&self) -> Vec<String> {
        self.state.known_models()
    }

    fn host(&self) -> &dyn analysis::host::Host {
        &self.state.ws
    }

    fn file(&self) -> Option<usize> {
        self.id
    }
}
