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
            None => analysis::complete(&kind, text, offset, &self.ws, id),
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
}
