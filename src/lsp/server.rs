//! The `LanguageServer` implementation: handlers only. Every handler does its state change
//! synchronously, before returning its future (tower-lsp runs handler futures concurrently, so
//! work done after an `.await` could run out of order; see tower-lsp issue 284), under
//! `catch_unwind`, and hands the resulting publishes to one task that sends them in order.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{self, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};
use tracing::{debug, error, info, warn};

use super::convert;
use super::settings::Settings;
use super::state::{Publish, State};

/// The code action kind of "apply every safe fix".
pub const FIX_ALL: &str = "source.fixAll.agent-lsp";

/// Above this many files to read, the workspace is indexed in the background.
pub const BACKGROUND_INDEX_ABOVE: usize = 500;

pub struct Backend {
    inner: Arc<Inner>,
    pub shutdown_received: Arc<AtomicBool>,
}

/// What handlers and the tasks they spawn share.
pub struct Inner {
    client: Client,
    state: Mutex<Option<State>>,
    /// Serialized messages to the client, written between tower-lsp's frames, in order.
    out: mpsc::UnboundedSender<Vec<u8>>,
    caps: Mutex<ClientFlags>,
    /// The settings before the client's: from the command line (`serve --for-agents`).
    defaults: Settings,
}

impl std::ops::Deref for Backend {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.inner
    }
}

#[derive(Default, Clone, Copy)]
struct ClientFlags {
    watch_registration: bool,
    configuration: bool,
    /// The client shows `$/progress` for tokens created with `window/workDoneProgress/create`.
    work_done_progress: bool,
}

impl Backend {
    /// `out` takes serialized messages to the client: the diagnostics are written there
    /// straight from their types. (tower-lsp's client would build a `serde_json::Value` of each
    /// publish and serialize that again: with a thousand diagnostics in a file, most of a
    /// keystroke's time.)
    pub fn new(
        client: Client,
        shutdown_received: Arc<AtomicBool>,
        out: mpsc::UnboundedSender<Vec<u8>>,
        defaults: Settings,
    ) -> Backend {
        Backend {
            inner: Arc::new(Inner {
                client,
                state: Mutex::new(None),
                out,
                caps: Mutex::new(ClientFlags::default()),
                defaults,
            }),
            shutdown_received,
        }
    }

    /// A request that panics on purpose, registered only when `AGENT_LSP_TEST_HOOKS=1`, so that
    /// the end-to-end tests can prove a panic is answered with an error and the server lives on.
    pub async fn debug_panic(&self, _params: Value) -> Result<()> {
        self.request("agentLsp/debugPanic", |_| panic!("deliberate panic from the test hook"))
    }
}

/// A `textDocument/publishDiagnostics` notification, serialized (`None` if it cannot be, which
/// a frame of an empty body would only turn into the client's parse error).
fn publish_body(p: Publish) -> Option<Vec<u8>> {
    #[derive(serde::Serialize)]
    struct Notification {
        jsonrpc: &'static str,
        method: &'static str,
        params: PublishDiagnosticsParams,
    }
    let n = Notification {
        jsonrpc: "2.0",
        method: "textDocument/publishDiagnostics",
        params: PublishDiagnosticsParams::new(p.uri, p.diagnostics, p.version),
    };
    serde_json::to_vec(&n).ok()
}

impl Inner {
    /// Run `f` on the state, synchronously, catching panics. Publishes go out in order.
    fn with_state(&self, what: &str, f: impl FnOnce(&mut State) -> Vec<Publish>) {
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            guard.as_mut().map(f)
        }));
        match result {
            Ok(Some(publishes)) => {
                // Sent in the order the handlers run (they never await while publishing).
                for body in publishes.into_iter().filter_map(publish_body) {
                    let _ = self.out.send(body);
                }
            }
            Ok(None) => warn!("{what} before initialize; ignored"),
            Err(panic) => error!("panic while handling {what}: {}", panic_message(&panic)),
        }
    }

    /// For requests: run `f` under `catch_unwind`; a panic becomes an internal error reply.
    pub fn request<T>(&self, what: &str, f: impl FnOnce(&mut State) -> T) -> Result<T> {
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut guard = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            guard.as_mut().map(f)
        }));
        match result {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(jsonrpc::Error::invalid_request()),
            Err(panic) => {
                let msg = panic_message(&panic);
                error!("panic while handling {what}: {msg}");
                let mut e = jsonrpc::Error::internal_error();
                e.message = format!("agent-lsp: internal error in {what}: {msg}").into();
                Err(e)
            }
        }
    }

    /// Scan `ws` on a blocking thread (the state stays free for the editor's requests), then
    /// install it. With `$/progress` (begin, a report that more than `above` files are to be
    /// read, end with the count indexed) when the client supports it, in a task of its own: the
    /// index never waits for the client's answer.
    async fn index_in_background(self: &Arc<Self>, ws: crate::workspace::Workspace, above: usize) {
        let flags = *self.caps.lock().unwrap_or_else(PoisonError::into_inner);
        let scan = tokio::task::spawn_blocking(move || {
            let mut ws = ws;
            ws.scan();
            ws
        });
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<usize>();
        if flags.work_done_progress {
            let inner = self.clone();
            tokio::spawn(async move { inner.index_progress(above, done_rx).await });
        }
        let started = std::time::Instant::now();
        let files = match scan.await {
            Ok(ws) => {
                let files = ws.files_in_scope();
                self.with_state("index", |st| st.finish_index(ws));
                files
            }
            Err(e) => {
                // The scan panicked: index in the foreground instead (its panic is caught there).
                error!("background index failed: {e}");
                self.with_state("index", State::abandon_index);
                0
            }
        };
        info!("indexed {files} file(s) in {} ms", started.elapsed().as_millis());
        let _ = done_tx.send(files);
    }

    /// The work-done progress of a background index: begin and a report once the client has
    /// created the token, end when `done` says how many files were indexed.
    async fn index_progress(&self, above: usize, done: tokio::sync::oneshot::Receiver<usize>) {
        let token = NumberOrString::String("agent-lsp/index".into());
        let created = self
            .client
            .send_request::<request::WorkDoneProgressCreate>(WorkDoneProgressCreateParams { token: token.clone() })
            .await;
        if created.is_err() {
            return;
        }
        let send = |value: WorkDoneProgress| {
            self.client.send_notification::<notification::Progress>(ProgressParams {
                token: token.clone(),
                value: ProgressParamsValue::WorkDone(value),
            })
        };
        send(WorkDoneProgress::Begin(WorkDoneProgressBegin {
            title: "agent-lsp: indexing agent files".into(),
            cancellable: Some(false),
            message: Some("reading and analysing the workspace's agent files".into()),
            percentage: None,
        }))
        .await;
        send(WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: Some(false),
            message: Some(format!("more than {above} files to read")),
            percentage: None,
        }))
        .await;
        let files = done.await.unwrap_or(0);
        send(WorkDoneProgress::End(WorkDoneProgressEnd {
            message: Some(format!("{files} files")),
        }))
        .await;
    }

    async fn register_watchers(&self) {
        let flags = *self.caps.lock().unwrap_or_else(PoisonError::into_inner);
        if !flags.watch_registration {
            return;
        }
        let glob = |g: &str| FileSystemWatcher {
            glob_pattern: GlobPattern::String(g.into()),
            kind: None,
        };
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: watched_globs().into_iter().map(glob).collect(),
        };
        let registration = Registration {
            id: "agent-lsp-watch".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(e) = self.client.register_capability(vec![registration]).await {
            warn!("could not register file watchers: {e}");
        }
    }

    async fn pull_configuration(&self) {
        let flags = *self.caps.lock().unwrap_or_else(PoisonError::into_inner);
        if !flags.configuration {
            return;
        }
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some("agentLsp".into()),
        };
        match self.client.configuration(vec![item]).await {
            Ok(values) => {
                if let Some(v) = values.into_iter().next().filter(|v| !v.is_null()) {
                    self.apply_settings(&v);
                }
            }
            Err(e) => debug!("workspace/configuration failed: {e}"),
        }
    }

    fn apply_settings(&self, value: &Value) {
        self.with_state("settings", |st| {
            let mut s = st.settings.clone();
            for p in s.merge(value) {
                warn!("{p}");
            }
            super::process::set_log_level(s.log_level.as_deref());
            if s == st.settings {
                return Vec::new();
            }
            info!("settings changed");
            st.set_settings(s)
        });
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

fn roots_of(params: &InitializeParams) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
        .collect();
    #[allow(deprecated)]
    if roots.is_empty()
        && let Some(p) = params.root_uri.as_ref().and_then(|u| u.to_file_path())
    {
        roots.push(p.into_owned());
    }
    roots
}

/// The server's capabilities; pinned by an end-to-end test.
pub fn capabilities(encoding: crate::analysis::Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(convert::encoding_kind(encoding)),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            will_save: None,
            will_save_wait_until: None,
            save: None,
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), "\"".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]),
            work_done_progress_options: WorkDoneProgressOptions::default(),
            resolve_provider: None,
        })),
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = convert::negotiate(
            params
                .capabilities
                .general
                .as_ref()
                .and_then(|g| g.position_encodings.as_deref()),
        );
        let mut settings = self.defaults.clone();
        if let Some(opts) = &params.initialization_options {
            for p in settings.merge(opts) {
                warn!("{p}");
            }
        }
        super::process::set_log_level(settings.log_level.as_deref());
        let ws_caps = params.capabilities.workspace.as_ref();
        let flags = ClientFlags {
            watch_registration: ws_caps
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
            configuration: ws_caps.and_then(|w| w.configuration).unwrap_or(false),
            work_done_progress: params
                .capabilities
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
        };
        *self.caps.lock().unwrap_or_else(PoisonError::into_inner) = flags;
        let roots = roots_of(&params);
        info!(
            "initialize: {} workspace folder(s), position encoding {:?}",
            roots.len(),
            convert::encoding_kind(encoding).as_str()
        );
        let can_rename_files = ws_caps.and_then(|w| w.workspace_edit.as_ref()).is_some_and(|e| {
            e.document_changes == Some(true)
                && e.resource_operations
                    .as_ref()
                    .is_some_and(|ops| ops.contains(&ResourceOperationKind::Rename))
        });
        let document_changes = ws_caps
            .and_then(|w| w.workspace_edit.as_ref())
            .is_some_and(|e| e.document_changes == Some(true));
        let mut state = State::new(roots, encoding, settings);
        state.can_rename_files = can_rename_files;
        state.document_changes = document_changes;
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = Some(state);
        if let Some(pid) = params.process_id {
            super::process::watch_parent(pid);
        }
        Ok(InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "agent-lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    fn initialized(&self, _: InitializedParams) -> impl std::future::Future<Output = ()> + Send {
        // A small workspace is scanned right here, in message order: a didOpen that follows
        // sees the index. A large one is indexed in the background, so that the documents the
        // editor opens meanwhile get their own diagnostics at once (the cross-file ones follow
        // when the index is ready), with work-done progress when the client shows it.
        let files = self
            .request("initialized", |st| st.files_to_index(BACKGROUND_INDEX_ABOVE))
            .unwrap_or(0);
        let background = if files > BACKGROUND_INDEX_ABOVE {
            self.request("initialized", |st| st.begin_index()).ok()
        } else {
            self.with_state("initialized", State::scan);
            None
        };
        // Requests to the client run in their own task: a client that never answers must not
        // keep this handler (and so shutdown) waiting.
        if let Some(ws) = background {
            let inner = self.inner.clone();
            tokio::spawn(async move { inner.index_in_background(ws, BACKGROUND_INDEX_ABOVE).await });
        }
        let inner = self.inner.clone();
        tokio::spawn(async move {
            inner.register_watchers().await;
            inner.pull_configuration().await;
        });
        std::future::ready(())
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        self.request("hover", |st| st.hover(&p.text_document.uri, p.position))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let locations = self.request("definition", |st| st.definition(&p.text_document.uri, p.position))?;
        Ok(locations.filter(|l| !l.is_empty()).map(GotoDefinitionResponse::Array))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let decl = params.context.include_declaration;
        self.request("references", |st| st.references(&p.text_document.uri, p.position, decl))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        let symbols = self.request("documentSymbol", |st| st.document_symbols(&params.text_document.uri))?;
        Ok(symbols.map(DocumentSymbolResponse::Nested))
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        self.request("documentLink", |st| st.document_links(&params.text_document.uri))
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        let symbols = self.request("workspace/symbol", |st| st.workspace_symbols(&params.query))?;
        Ok(Some(WorkspaceSymbolResponse::Flat(symbols)))
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        match self.request("prepareRename", |st| {
            st.prepare_rename(&params.text_document.uri, params.position)
        })? {
            Ok(range) => Ok(range.map(PrepareRenameResponse::Range)),
            Err(why) => Err(jsonrpc::Error::invalid_params(why)),
        }
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        match self.request("rename", |st| {
            st.rename(&p.text_document.uri, p.position, &params.new_name)
        })? {
            Ok(edit) => Ok(edit),
            Err(why) => Err(jsonrpc::Error::invalid_params(why)),
        }
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        let items = self.request("completion", |st| st.completion(&p.text_document.uri, p.position))?;
        Ok(items.map(CompletionResponse::Array))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        let mut actions: CodeActionResponse = Vec::new();
        let wants = |kind: &CodeActionKind| match &params.context.only {
            None => true,
            Some(only) => only.iter().any(|o| kind.as_str().starts_with(o.as_str())),
        };
        // The "ignore" actions come after every fix.
        let mut ignores: CodeActionResponse = Vec::new();
        if wants(&CodeActionKind::QUICKFIX) {
            for d in &params.context.diagnostics {
                if d.source.as_deref() != Some("agent-lsp") {
                    continue;
                }
                if let Some(NumberOrString::String(code)) = &d.code {
                    let at = d.range.start;
                    if let Some(edit) = self.request("codeAction", |st| st.ignore_edit(&uri, at, code))? {
                        ignores.push(CodeActionOrCommand::CodeAction(CodeAction {
                            title: format!("Ignore `{code}` on this line (agent-lsp: ignore)"),
                            kind: Some(CodeActionKind::QUICKFIX),
                            diagnostics: Some(vec![d.clone()]),
                            edit: Some(WorkspaceEdit {
                                changes: Some([(uri.clone(), vec![edit])].into_iter().collect()),
                                ..WorkspaceEdit::default()
                            }),
                            is_preferred: Some(false),
                            ..CodeAction::default()
                        }));
                    }
                }
                // A chat mode: "Move to .github/agents/<name>.agent.md", a file rename.
                if matches!(&d.code, Some(NumberOrString::String(c)) if c == "deprecated-file")
                    && let Some(new_uri) = self.request("codeAction", |st| st.migrated_uri(&uri))?
                {
                    let target = new_uri
                        .path()
                        .as_str()
                        .rsplit('/')
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title: format!("Move to .github/agents/{target} (a custom agent)"),
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![d.clone()]),
                        edit: Some(WorkspaceEdit {
                            document_changes: Some(DocumentChanges::Operations(vec![DocumentChangeOperation::Op(
                                ResourceOp::Rename(RenameFile {
                                    old_uri: uri.clone(),
                                    new_uri,
                                    options: None,
                                    annotation_id: None,
                                }),
                            )])),
                            ..WorkspaceEdit::default()
                        }),
                        is_preferred: Some(true),
                        ..CodeAction::default()
                    }));
                }
                let Some(fix) = d.data.as_ref().and_then(|v| v.get("fix")) else {
                    continue;
                };
                let Ok(edits) = serde_json::from_value::<Vec<TextEdit>>(fix["edits"].clone()) else {
                    continue;
                };
                let title = fix["title"].as_str().unwrap_or("Fix").to_string();
                let edit = WorkspaceEdit {
                    changes: Some([(uri.clone(), edits)].into_iter().collect()),
                    ..WorkspaceEdit::default()
                };
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![d.clone()]),
                    edit: Some(edit),
                    is_preferred: Some(fix["safe"].as_bool().unwrap_or(false)),
                    ..CodeAction::default()
                }));
            }
        }
        actions.append(&mut ignores);
        let fix_all = CodeActionKind::new(FIX_ALL);
        if wants(&fix_all)
            || params
                .context
                .only
                .as_ref()
                .is_some_and(|o| o.iter().any(|k| FIX_ALL.starts_with(k.as_str())))
        {
            if let Some(edit) = self.request("codeAction", |st| st.fix_all_edit(&uri))? {
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: "Fix all safe agent-lsp problems".into(),
                    kind: Some(fix_all),
                    edit: Some(WorkspaceEdit {
                        changes: Some([(uri.clone(), vec![edit])].into_iter().collect()),
                        ..WorkspaceEdit::default()
                    }),
                    ..CodeAction::default()
                }));
            }
        }
        Ok(Some(actions))
    }

    async fn shutdown(&self) -> Result<()> {
        self.shutdown_received.store(true, Ordering::SeqCst);
        info!("shutdown");
        Ok(())
    }

    fn did_open(&self, params: DidOpenTextDocumentParams) -> impl std::future::Future<Output = ()> + Send {
        let d = params.text_document;
        self.with_state("didOpen", |st| st.open(d.uri, &d.language_id, d.version, d.text));
        std::future::ready(())
    }

    fn did_change(&self, params: DidChangeTextDocumentParams) -> impl std::future::Future<Output = ()> + Send {
        let doc = params.text_document;
        self.with_state("didChange", |st| {
            st.change(&doc.uri, doc.version, params.content_changes)
        });
        std::future::ready(())
    }

    /// Nothing to do: the open document's text is what is analysed (Claude Code sends a save
    /// after each Write and Edit; without this, each one logged "not implemented").
    fn did_save(&self, _: DidSaveTextDocumentParams) -> impl std::future::Future<Output = ()> + Send {
        std::future::ready(())
    }

    fn did_close(&self, params: DidCloseTextDocumentParams) -> impl std::future::Future<Output = ()> + Send {
        self.with_state("didClose", |st| st.close(&params.text_document.uri));
        std::future::ready(())
    }

    fn did_change_watched_files(
        &self,
        params: DidChangeWatchedFilesParams,
    ) -> impl std::future::Future<Output = ()> + Send {
        self.with_state("didChangeWatchedFiles", |st| st.watched(params.changes));
        std::future::ready(())
    }

    fn did_change_configuration(
        &self,
        params: DidChangeConfigurationParams,
    ) -> impl std::future::Future<Output = ()> + Send {
        // Some clients send the settings, some send null and expect a pull.
        let pushed = params.settings.as_object().is_some_and(|o| {
            ["agentLsp", "severity", "globalConfig", "logLevel"]
                .iter()
                .any(|k| o.contains_key(*k))
        });
        if pushed {
            self.apply_settings(&params.settings);
        } else {
            let inner = self.inner.clone();
            tokio::spawn(async move { inner.pull_configuration().await });
        }
        std::future::ready(())
    }
}

/// The files the editor is asked to watch: agent-lsp's own settings, Markdown and text files, the
/// files of skill folders, and what each registered runtime reads beyond those (its configs,
/// settings, manifests: `DialectSpec::watched`).
fn watched_globs() -> Vec<&'static str> {
    [
        // agent-lsp's own settings.
        "**/agent-lsp.toml",
        "**/.agent-lsp.toml",
        // Agents and instruction files are Markdown; any Markdown or text file may also be the
        // target of a config's `{file:...}`.
        "**/*.md",
        "**/*.txt",
        // Skills (`**/*.md` matches them too), and the files of skill folders, which their
        // `SKILL.md` links to.
        "**/SKILL.md",
        "**/skills/**",
        "**/skill/**",
    ]
    .into_iter()
    .chain(
        crate::analysis::Dialect::REGISTERED
            .iter()
            .flat_map(|d| d.spec().watched())
            .copied(),
    )
    .collect()
}

#[cfg(test)]
mod tests {
    use super::watched_globs;
    use crate::workspace::{Options, Workspace};

    /// Every file of `test-workspace/` that the workspace reads is one the editor watches, so
    /// that a change made outside the editor reaches the server.
    #[test]
    fn the_watched_globs_cover_every_file_the_runtimes_read() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test-workspace");
        let mut set = globset::GlobSetBuilder::new();
        for g in watched_globs() {
            set.add(
                globset::GlobBuilder::new(g)
                    .literal_separator(true)
                    .build()
                    .expect("a glob"),
            );
        }
        let set = set.build().expect("the globs build");
        let ws = Workspace::load(std::slice::from_ref(&root), &Options::isolated()).expect("loads");
        let mut seen = 0;
        for f in ws.files.iter().filter(|f| f.live) {
            let rel = f.path.strip_prefix(&root).unwrap_or(&f.path);
            assert!(set.is_match(rel), "{} is read but not watched", rel.display());
            seen += 1;
        }
        // The workspace holds every kind of file (configs, settings, manifests, MCP files).
        assert!(seen > 50, "{seen}");
    }
}
