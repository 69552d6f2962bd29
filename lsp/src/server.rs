//! The protocol side: [`Backend`] answers each request from the [`Workspace`] cache.
//!
//! Every request runs its feature inside `catch_unwind`: a panic becomes an internal error for
//! that one request (and a log message), never a dead server. Document notifications apply
//! edits in order and ignore stale versions; after each, the affected documents' diagnostics are
//! published with the version they were computed for.
//!
//! A long game log's audit is kept up off the request path. After each keystroke's own
//! diagnostics are out, the audit is taken up again from the replay's checkpoint before the
//! edit on a blocking thread ([`crate::workspace::ResumeJob`]), while the runtime thread goes on
//! answering requests from the document as it stands (issue 16: a hover right after a keystroke
//! no longer waits for the audit); the document is published again with its audit if it is
//! still at that version when the job ends. When the audit cannot be taken up that way, after
//! [`AUDIT_PAUSE`] without a newer version a blocking task replays the text of that version, and
//! its findings are published only if the document is still at it (the latest edit wins).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::semantic::{self, TokenInputs, TokenStore};
use crate::workspace::{Doc, Publication, ResumeJob, Workspace, panic_message};
use crate::{completion, convert, hints, hover, navigate, outline, trace};

/// How long typing must pause before a long game log is replayed again.
pub const AUDIT_PAUSE: Duration = Duration::from_millis(300);

/// The language server.
#[derive(Debug)]
pub struct Backend {
    client: Client,
    workspace: Arc<Mutex<Workspace>>,
    /// Each open document's semantic tokens between requests (see [`semantic`]).
    tokens: Arc<TokenStore>,
    /// Where whole-file semantic tokens are left for the transport to write, if it does.
    large_answers: Option<Arc<LargeAnswers>>,
}

/// Whole-file semantic tokens, written as JSON on the blocking thread that made them, for the
/// stdio transport to send in place of the small stand-in the server answers with.
///
/// The protocol library turns every answer into a `serde_json::Value` and then into text on the
/// server's one runtime thread: for the 390,000 tokens of a 100,000-line log that is some 50 ms
/// in which no keystroke is applied (issue 16). So when the transport offers to, a whole-file
/// answer is written here, under its result id, and the server answers with that result id and
/// no data; the transport ([`crate::stdio`]) sees an answer with a result id found here and
/// sends the answer made here instead. Only the last few are kept: an answer whose request was
/// cancelled is never asked for.
#[derive(Debug, Default)]
pub struct LargeAnswers {
    made: Mutex<std::collections::VecDeque<(String, Vec<u8>)>>,
}

impl LargeAnswers {
    /// More than the requests the library runs at once (four).
    const KEPT: usize = 8;

    fn put(&self, result_id: String, json: Vec<u8>) {
        let mut made = self.made.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if made.len() == LargeAnswers::KEPT {
            made.pop_front();
        }
        made.push_back((result_id, json));
    }

    /// The answer (the JSON of its `result`) left for a stand-in with this result id, taken.
    pub fn take(&self, result_id: &str) -> Option<Vec<u8>> {
        let mut made = self.made.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = made.iter().position(|(id, _)| id == result_id)?;
        made.remove(at).map(|(_, json)| json)
    }

    /// A whole file's tokens as the server answers with them: with `answers`, written there
    /// ([`semantic::tokens_json`]) and replaced by a stand-in with the same result id and no
    /// data; without, a copy of the tokens kept.
    fn answer(
        answers: Option<&LargeAnswers>,
        result_id: String,
        data: Arc<Vec<SemanticToken>>,
    ) -> SemanticTokens {
        let Some(answers) = answers else {
            return SemanticTokens { result_id: Some(result_id), data: data.to_vec() };
        };
        answers.put(result_id.clone(), semantic::tokens_json(&result_id, &data));
        SemanticTokens { result_id: Some(result_id), data: Vec::new() }
    }
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend::with_workspace(client, Workspace::new())
    }

    /// A server on a workspace set up by the caller (tests set a small deferred-audit size).
    pub fn with_workspace(client: Client, workspace: Workspace) -> Backend {
        Backend {
            client,
            workspace: Arc::new(Mutex::new(workspace)),
            tokens: Arc::default(),
            large_answers: None,
        }
    }

    /// The semantic tokens kept for a document, and the count of whole-file requests asked of
    /// it (for tests that hold them).
    pub fn kept_tokens(&self, uri: &Uri) -> Arc<semantic::KeptTokens> {
        self.tokens.document(uri)
    }

    /// The switch held by an open document's whole audit while it runs ([`Doc::audit_slot`]),
    /// for tests that hold it.
    pub fn audit_slot(&self, uri: &Uri) -> Option<Arc<tokio::sync::Mutex<()>>> {
        self.lock("audit_slot").get(uri).map(|doc| doc.audit_slot.clone())
    }

    /// A server that leaves whole-file semantic tokens in `answers` for its transport to send
    /// (see [`LargeAnswers`]).
    pub fn with_large_answers(client: Client, answers: Arc<LargeAnswers>) -> Backend {
        Backend { large_answers: Some(answers), ..Backend::new(client) }
    }

    /// The current text of an open document (for tests and tools).
    pub fn document_text(&self, uri: &Uri) -> Option<String> {
        self.lock("document_text").get(uri).map(|doc| doc.text.to_string())
    }

    /// How many documents have semantic tokens kept between requests (for tests).
    pub fn documents_with_tokens(&self) -> usize {
        self.tokens.len()
    }

    fn lock(&self, what: &'static str) -> Locked<'_> {
        lock(&self.workspace, what)
    }

    /// Answer a semantic tokens request from the document's kept tokens, brought up to date
    /// with a snapshot of it (see [`Backend::on_snapshot`]). A whole-file request (`whole`) that
    /// finds a newer one asked of the same document by the time the tokens are free is answered
    /// `ContentModified` without being made ([`semantic::KeptTokens`], issue 16).
    async fn on_tokens<T: Send + 'static>(
        &self,
        uri: &Uri,
        request: &'static str,
        whole: bool,
        feature: impl FnOnce(&mut semantic::DocumentTokens, &TokenInputs) -> T + Send + 'static,
    ) -> Result<Option<T>> {
        let kept = self.tokens.document(uri);
        let asked = if whole { kept.ask_whole() } else { 0 };
        let snapshot = |doc: &Doc| (TokenInputs::of(doc), kept);
        let answer = self
            .on_snapshot(uri, request, snapshot, move |(inputs, kept)| {
                let mut tokens = kept.lock();
                if whole && kept.superseded(asked) {
                    return None;
                }
                Some(feature(&mut tokens, &inputs))
            })
            .await?;
        match answer {
            Some(None) => Err(Error::content_modified()),
            Some(Some(answer)) => Ok(Some(answer)),
            None => Ok(None),
        }
    }

    /// Run a feature on an open document, catching any panic. Not open: no answer.
    fn on_doc<T>(
        &self,
        uri: &Uri,
        request: &'static str,
        feature: impl FnOnce(&Workspace, &Doc) -> T,
    ) -> Result<Option<T>> {
        let ws = self.lock(request);
        let Some(doc) = ws.get(uri) else { return Ok(None) };
        match catch_unwind(AssertUnwindSafe(|| feature(&ws, doc))) {
            Ok(answer) => Ok(Some(answer)),
            Err(panic) => {
                let message = format!("dotc lsp: {request} failed: {}", panic_message(&panic));
                let mut error = Error::internal_error();
                error.message = message.into();
                Err(error)
            }
        }
    }

    /// Answer a request about one document from a snapshot of what it needs, on a blocking
    /// thread: the workspace is locked only to take the snapshot, so a whole-file request such
    /// as folding ranges or semantic tokens on a long log (tens of milliseconds) holds up
    /// neither the edits that come in meanwhile nor their diagnostics (issue 16). The snapshot must not keep the
    /// document's analysis (an `Arc` the edits update in place when no one else holds it).
    async fn on_snapshot<S: Send + 'static, T: Send + 'static>(
        &self,
        uri: &Uri,
        request: &'static str,
        snapshot: impl FnOnce(&Doc) -> S,
        feature: impl FnOnce(S) -> T + Send + 'static,
    ) -> Result<Option<T>> {
        let taken = {
            let ws = self.lock(request);
            let Some(doc) = ws.get(uri) else { return Ok(None) };
            catch_unwind(AssertUnwindSafe(|| snapshot(doc)))
        };
        let answer = match taken {
            Ok(inputs) => {
                tokio::task::spawn_blocking(move || {
                    let _traced = trace::Stretch::new(request);
                    catch_unwind(AssertUnwindSafe(|| feature(inputs)))
                })
                .await
            }
            Err(panic) => Ok(Err(panic)),
        };
        // A whole file's semantic tokens of a long log build and drop megabytes on a blocking
        // thread's own arena.
        trim_now_and_then();
        match answer {
            Ok(Ok(answer)) => Ok(Some(answer)),
            Ok(Err(panic)) => {
                let mut error = Error::internal_error();
                error.message = format!("dotc lsp: {request} failed: {}", panic_message(&panic)).into();
                Err(error)
            }
            Err(_) => {
                let mut error = Error::internal_error();
                error.message = format!("dotc lsp: {request} failed: its task was lost").into();
                Err(error)
            }
        }
    }

    /// Send the diagnostics of each document a change touched, and schedule the replays due.
    async fn publish(&self, publications: Vec<Publication>) {
        publish(&self.client, &self.workspace, publications).await;
    }

    /// Change the workspace, catching any panic (reported in the client's log).
    async fn mutate(&self, what: &'static str, change: impl FnOnce(&mut Workspace) -> Vec<Publication>) {
        let result = {
            let mut ws = self.lock(what);
            catch_unwind(AssertUnwindSafe(|| change(&mut ws)))
        };
        match result {
            Ok(publications) => self.publish(publications).await,
            Err(panic) => {
                let message = format!("dotc lsp: {what} failed: {}", panic_message(&panic));
                self.client.log_message(MessageType::ERROR, message).await;
            }
        }
    }
}

/// The workspace, locked for `what` (the name under which the trace shows how long the lock
/// was waited for and held, [`crate::trace`]).
fn lock<'a>(workspace: &'a Mutex<Workspace>, what: &'static str) -> Locked<'a> {
    let asked = trace::on().then(std::time::Instant::now);
    // A panic never happens while the lock is held outside `catch_unwind`, but if one did the
    // workspace is still the best state there is.
    let guard = workspace.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(asked) = asked {
        trace::line(asked, &format!("lock-wait {what}"));
    }
    Locked { guard, held: asked.map(|_| std::time::Instant::now()), what }
}

/// The locked workspace; with the trace on, how long it was held is traced when it is let go.
struct Locked<'a> {
    guard: MutexGuard<'a, Workspace>,
    held: Option<std::time::Instant>,
    what: &'static str,
}

impl std::ops::Deref for Locked<'_> {
    type Target = Workspace;

    fn deref(&self) -> &Workspace {
        &self.guard
    }
}

impl std::ops::DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut Workspace {
        &mut self.guard
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        if let Some(held) = self.held {
            trace::line(held, &format!("lock-held {}", self.what));
        }
    }
}

/// Send the diagnostics of each document a change touched; for each whose audit is to be taken
/// up again from its checkpoint, do that on a blocking thread and send them again; for each
/// whose audit is due, replay it after a pause.
///
/// The caller (a document notification) waits for the audits taken up, so a client that waits
/// for its notification to be handled (the protocol tests) sees them; meanwhile the runtime
/// thread serves the messages that follow, as the library runs several at once.
async fn publish(client: &Client, workspace: &Arc<Mutex<Workspace>>, publications: Vec<Publication>) {
    let mut due = Vec::new();
    let mut resume = Vec::new();
    send(client, workspace, publications, &mut due, &mut resume).await;
    // After the keystroke's own diagnostics are out (issue 16).
    let mut running = Vec::new();
    for (uri, version) in resume {
        match catch_unwind(AssertUnwindSafe(|| lock(workspace, "start_resume").start_resume(&uri, version))) {
            Ok(Ok(job)) => running.push((uri, job.ticket(), run_resume(job))),
            Ok(Err(publications)) => send(client, workspace, publications, &mut due, &mut Vec::new()).await,
            Err(_) => {}
        }
    }
    for (uri, ticket, job) in running {
        // A job that panicked or was lost leaves its document's audit due: `finish_resume` sees it.
        let _ = job.await;
        let finished =
            catch_unwind(AssertUnwindSafe(|| lock(workspace, "finish_resume").finish_resume(&uri, ticket)));
        send(client, workspace, finished.unwrap_or_default(), &mut due, &mut Vec::new()).await;
    }
    for (uri, version) in due {
        let (client, workspace) = (client.clone(), workspace.clone());
        tokio::spawn(async move { audit_later(client, workspace, uri, version).await });
    }
}

/// Run a resume job on a blocking thread: it holds no lock, and the workspace takes its result
/// when it ends.
fn run_resume(job: ResumeJob) -> tokio::task::JoinHandle<()> {
    tokio::task::spawn_blocking(move || {
        let traced = trace::Stretch::new("resume-job");
        job.run();
        drop(traced);
        trim_now_and_then();
    })
}

/// Send the diagnostics of these publications, noting the documents whose audit is due or to be
/// taken up again.
async fn send(
    client: &Client,
    workspace: &Arc<Mutex<Workspace>>,
    publications: Vec<Publication>,
    due: &mut Vec<(Uri, i32)>,
    resume: &mut Vec<(Uri, i32)>,
) {
    let batches: Vec<(Uri, Vec<Diagnostic>, i32)> = {
        let ws = lock(workspace, "send");
        let max_audit = ws.max_audit_diagnostics;
        publications
            .into_iter()
            .filter_map(|p| {
                let doc = ws.get(&p.uri)?;
                if p.audit_due {
                    due.push((p.uri.clone(), p.version));
                }
                if p.resume_due {
                    resume.push((p.uri.clone(), p.version));
                }
                let diagnostics =
                    catch_unwind(AssertUnwindSafe(|| convert::diagnostics(doc, max_audit))).ok()?;
                Some((p.uri, diagnostics, p.version))
            })
            .collect()
    };
    for (uri, diagnostics, version) in batches {
        let _traced = trace::Stretch::new("publish_diagnostics");
        client.publish_diagnostics(uri, diagnostics, Some(version)).await;
    }
}

/// Replay a log's audit after [`AUDIT_PAUSE`] if it is still at `version`, off the async
/// thread, and publish the findings if it is at `version` still when the replay ends.
async fn audit_later(client: Client, workspace: Arc<Mutex<Workspace>>, uri: Uri, version: i32) {
    tokio::time::sleep(AUDIT_PAUSE).await;
    // The document's audit before this one, stopped by the edit, may still be parsing: wait for
    // it to end ([`Doc::audit_slot`]), then start only if the document is still at `version`.
    let Some(slot) = lock(&workspace, "audit_slot").get(&uri).map(|doc| doc.audit_slot.clone()) else {
        return;
    };
    let turn = slot.lock_owned().await;
    let Some(job) = lock(&workspace, "audit_job").audit_job(&uri, version) else { return };
    let job = Arc::new(job);
    let running = job.clone();
    let run = move || {
        let analyzed = running.run();
        drop(turn);
        analyzed
    };
    let Ok(analyzed) = tokio::task::spawn_blocking(run).await else {
        client.log_message(MessageType::ERROR, "dotc lsp: a replay of the audit failed").await;
        return;
    };
    // The document changed while it ran: the replay stopped early, and a newer audit is due.
    let Some(analyzed) = analyzed else {
        release(job);
        return;
    };
    let (converted, replaced) = {
        let mut ws = lock(&workspace, "finish_audit");
        let max_audit = ws.max_audit_diagnostics;
        match ws.finish_audit(&uri, &job, analyzed) {
            Some((p, replaced)) => {
                let converted = ws.get(&p.uri).and_then(|doc| {
                    catch_unwind(AssertUnwindSafe(|| convert::diagnostics(doc, max_audit))).ok()
                });
                (converted.map(|d| (d, p.version)), Some(replaced))
            }
            None => (None, None),
        }
    };
    if let Some((diagnostics, version)) = converted {
        client.publish_diagnostics(uri, diagnostics, Some(version)).await;
    }
    // The replaced analysis of a long log takes a while to free: not while holding the lock,
    // nor on the async thread.
    release((replaced, job));
}

/// Free what a whole audit let go of on a blocking thread, then hand the allocator's free pages
/// back to the system. A whole audit of a long log builds and drops hundreds of megabytes (its
/// peak is about twice what the server holds after it), and glibc's allocator keeps the freed
/// pages in its arenas: in an hour of typing into a 100k-line log the server sat at 350 MB
/// resident, of which a trim returned a third (issue 16).
fn release<T: Send + 'static>(held: T) {
    tokio::task::spawn_blocking(move || {
        drop(held);
        trim_heap();
    });
}

/// After work on a blocking thread that allocates much and frees it (a whole file's tokens, an
/// audit taken up at a keystroke): hand the free pages back on a blocking thread of its own, at
/// most once in [`TRIM_EVERY_MS`] (each of tokio's blocking threads keeps its own glibc arena, and
/// the pages freed in them stayed with the server: 350-450 MB after an hour of typing into a
/// 100k-line log, issue 16). The time decides only when memory is returned, never a result.
fn trim_now_and_then() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LAST: AtomicU64 = AtomicU64::new(0);
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let now = START.get_or_init(std::time::Instant::now).elapsed().as_millis() as u64 + TRIM_EVERY_MS;
    let last = LAST.load(Ordering::Relaxed);
    if now.saturating_sub(last) < TRIM_EVERY_MS
        || LAST.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_err()
    {
        return;
    }
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn_blocking(trim_heap);
    } else {
        trim_heap();
    }
}

/// The least time between two trims of [`trim_now_and_then`], in milliseconds.
const TRIM_EVERY_MS: u64 = 2_000;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim_heap() {
    let _traced = trace::Stretch::new("malloc_trim");
    // SAFETY: `malloc_trim` only returns free memory of the allocator's arenas to the system;
    // it takes the arenas' own locks and touches no memory that is in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_heap() {}

/// What the server can do.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            ..TextDocumentSyncOptions::default()
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".to_string(), " ".to_string()]),
            ..CompletionOptions::default()
        }),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic::legend(),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                range: Some(true),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            },
        )),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            // Issue 20: writing a `fire` line's claim is a rewrite, not a fix.
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::REFACTOR_REWRITE]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let mut roots: Vec<std::path::PathBuf> = params
            .workspace_folders
            .iter()
            .flatten()
            .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        #[allow(deprecated)] // older clients send only the root
        if roots.is_empty()
            && let Some(root) = params.root_uri.as_ref().and_then(|u| u.to_file_path())
        {
            roots.push(root.into_owned());
        }
        let max_audit = params
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("maxAuditFindings"))
            .and_then(serde_json::Value::as_u64);
        let mut ws = self.lock("initialize");
        ws.roots = roots;
        if let Some(max) = max_audit {
            ws.max_audit_diagnostics = usize::try_from(max).unwrap_or(usize::MAX);
        }
        drop(ws);
        Ok(InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "dotc".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        self.tokens.forget(&document.uri);
        self.mutate("didOpen", |ws| ws.open(document.uri, document.version, document.text)).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let document = params.text_document;
        let changes = params.content_changes;
        self.mutate("didChange", |ws| {
            ws.change(&document.uri, document.version, changes).unwrap_or_default()
        })
        .await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let closed = uri.clone();
        self.tokens.forget(&uri);
        self.mutate("didClose", |ws| ws.close(&uri)).await;
        // A closed file's problems are no longer the editor's to show.
        self.client.publish_diagnostics(closed, Vec::new(), None).await;
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.on_doc(&at.text_document.uri, "completion", |_, doc| {
            let offset = doc.index.offset(&doc.text, at.position);
            CompletionResponse::Array(completion::completion(doc, offset))
        })
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let _traced = trace::Stretch::new("hover");
        let at = params.text_document_position_params;
        let answer = self.on_doc(&at.text_document.uri, "hover", |_, doc| {
            let offset = doc.index.offset(&doc.text, at.position);
            hover::hover(doc, offset).map(|(value, span)| Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
                range: Some(doc.index.range(&doc.text, span)),
            })
        })?;
        Ok(answer.flatten())
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        let answer = self.on_doc(&at.text_document.uri, "definition", |ws, doc| {
            let offset = doc.index.offset(&doc.text, at.position);
            navigate::definition(ws, doc, offset).map(GotoDefinitionResponse::Scalar)
        })?;
        Ok(answer.flatten())
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let include = params.context.include_declaration;
        let answer = self.on_doc(&at.text_document.uri, "references", |ws, doc| {
            let offset = doc.index.offset(&doc.text, at.position);
            navigate::references(ws, doc, offset, include)
        })?;
        Ok(answer.flatten())
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let answer = self.on_doc(&params.text_document.uri, "prepareRename", |_, doc| {
            let offset = doc.index.offset(&doc.text, params.position);
            let found = match crate::campaign::prepare_rename(doc, offset) {
                Ok(None) => navigate::prepare_rename(doc, offset).map(|(name, _, span)| (name, span)),
                Ok(Some(found)) => Some(found),
                // A campaign refuses what it cannot rename, saying why.
                Err(why) => return Err(why),
            };
            Ok(found.map(|(name, span)| PrepareRenameResponse::RangeWithPlaceholder {
                range: doc.index.range(&doc.text, span),
                placeholder: name,
            }))
        })?;
        match answer {
            None => Ok(None),
            Some(Ok(found)) => Ok(found),
            Some(Err(reason)) => Err(Error::invalid_params(reason)),
        }
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let at = params.text_document_position;
        let new_name = params.new_name;
        let answer = self.on_doc(&at.text_document.uri, "rename", |ws, doc| {
            let offset = doc.index.offset(&doc.text, at.position);
            navigate::rename(ws, doc, offset, &new_name)
        })?;
        match answer {
            None => Ok(None),
            Some(Ok(edit)) => Ok(edit),
            Some(Err(reason)) => Err(Error::invalid_params(reason)),
        }
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        // The outline is copied out under the lock with byte spans; placing it in lines and
        // UTF-16 columns, most of the work on a long log, is done on a blocking thread.
        self.on_snapshot(&params.text_document.uri, "documentSymbol", outline::SymbolInputs::of, |inputs| {
            DocumentSymbolResponse::Nested(inputs.symbols())
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let snapshot = |doc: &Doc| (doc.text.clone(), doc.index.clone());
        self.on_snapshot(&params.text_document.uri, "foldingRange", snapshot, |(text, index)| {
            outline::folding_of(&text, &index)
        })
        .await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let answer = self.on_doc(&params.text_document.uri, "formatting", |_, doc| outline::format(doc))?;
        match answer {
            None => Ok(None),
            Some(Ok(edits)) => Ok(edits),
            Some(Err(reason)) => {
                self.client.show_message(MessageType::WARNING, reason).await;
                Ok(None)
            }
        }
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let answers = self.large_answers.clone();
        self.on_tokens(&params.text_document.uri, "semanticTokens/full", true, move |kept, inputs| {
            let (id, data) = kept.full(inputs);
            SemanticTokensResult::Tokens(LargeAnswers::answer(answers.as_deref(), id, data))
        })
        .await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let (previous, answers) = (params.previous_result_id, self.large_answers.clone());
        self.on_tokens(&params.text_document.uri, "semanticTokens/full/delta", true, move |kept, inputs| {
            match kept.delta(inputs, &previous) {
                (id, semantic::Answer::Delta(edits)) => {
                    SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                        result_id: Some(id),
                        edits,
                    })
                }
                (id, semantic::Answer::Full(data)) => {
                    SemanticTokensFullDeltaResult::Tokens(LargeAnswers::answer(answers.as_deref(), id, data))
                }
            }
        })
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let lines = semantic::range_lines(params.range);
        self.on_tokens(&params.text_document.uri, "semanticTokens/range", false, move |kept, inputs| {
            let data = kept.range(inputs, lines);
            SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data })
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.on_doc(&params.text_document.uri, "inlayHint", |_, doc| {
            hints::inlay_hints(doc, hints::span_of(doc, params.range))
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.on_doc(&params.text_document.uri, "codeAction", |_, doc| {
            hints::code_actions(doc, hints::span_of(doc, params.range))
        })
    }
}
