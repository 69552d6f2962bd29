//! The open documents and what is known about each.
//!
//! A [`Workspace`] holds every open buffer with its version, its [`LineIndex`] and its cached
//! analysis. The analysis is redone only when the text changes (or, for a game log, when its
//! scenario's buffer changes); every request reads the cache. A game log's scenario is read
//! through [`BufferLoader`]: an open buffer wins over the file on disk, so a log sees the
//! scenario as it is being typed.
//!
//! Keystrokes in a game log are cheap however long the log: the edit is applied to the line
//! index and to the analysis in place ([`dotc_lang::analysis::reanalyze`] re-parses and
//! re-checks only the turns it touched), and the audit is taken up again from the replay's last
//! checkpoint before the edit ([`dotc_runtime::replay::resume`]: it replays from there until the
//! game is again the one the old replay had, then keeps the rest of the old replay). For a log
//! of up to [`Workspace::deferred_audit_bytes`] that is done with the edit (or the log replayed
//! whole at once). For a longer one it is a [`ResumeJob`], which the server runs on a blocking
//! thread once the keystroke's own diagnostics are out, so that requests are answered meanwhile
//! (issue 16); its result is put back by [`Workspace::finish_resume`], or by the next edit of
//! the document, which waits for it. An edit that would replay more than
//! [`Workspace::resume_budget`] actions keeps the last audit's findings, moved with the text,
//! and the log is replayed whole after a pause ([`AuditJob`], also run off the editing path).
//!
//! Nothing here speaks the protocol except the positions and URIs it is handed; the server
//! turns the results into messages.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvError, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};

use dotc_lang::ast::FileKind;
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::incremental::Edit;
use dotc_lang::{Analysis, Loader, Span};
use dotc_runtime::audit::AuditOptions;
use dotc_runtime::campaign::logged::{LoggedBattle, campaign_file};
use dotc_runtime::check::CheckedFile;
use dotc_runtime::replay::Replay;
use dotc_runtime::replay::resume::{NotResumed, Resumable, replay_resumable_with};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

use crate::line_index::LineIndex;
use crate::replay_view::ReplayView;

/// One open document.
#[derive(Clone, Debug)]
pub struct Doc {
    pub uri: Uri,
    /// The file it stands for, with `.` and `..` resolved (a made-up path for an unsaved buffer).
    pub path: PathBuf,
    pub version: i32,
    pub text: Arc<String>,
    pub index: Arc<LineIndex>,
    pub analyzed: Arc<Analyzed>,
    /// The switch of the audit replaying this document's text off the editing path, if one is
    /// running: set when the document changes (an edit, its scenario edited, closed), which
    /// stops that replay at its next action and refuses its result (issue 16).
    pub running_audit: Option<Arc<AtomicBool>>,
    /// Held by the document's whole audit from its start to its end, so that a newer audit
    /// waits for a stopped one to end instead of running beside it: the switch stops a replay,
    /// not the parse and checks before it. On a machine whose cores were taken, each keystroke
    /// came more than [`crate::server::AUDIT_PAUSE`] after the one before, each started a
    /// whole audit of a 100,000-line log, and twenty of them parsed at once (issue 16: 0.8-1.1
    /// GB resident). Kept when the document is opened again.
    pub audit_slot: Arc<tokio::sync::Mutex<()>>,
}

impl Doc {
    /// Stop the audit running on this document's old text, if any.
    fn cancel_audit(&mut self) {
        if let Some(running) = self.running_audit.take() {
            running.store(true, Ordering::Relaxed);
        }
    }
}

/// A document's analysis: the language's, the rules-aware checks and, for a game log, the replay.
#[derive(Debug)]
pub struct Analyzed {
    pub analysis: Analysis,
    /// A scenario's rules-aware checks (`dotc_runtime::check`).
    pub rules_checks: Vec<Diagnostic>,
    /// A game log's audit: the findings of [`Analyzed::replay`] as diagnostics, sorted by
    /// position, moved with every edit since (and dropped where an edit re-parsed their turn).
    /// While the log does not check clean they are those of its last clean state.
    pub audit: Vec<Diagnostic>,
    /// For a game log that checks clean, its replay through the rules. Away (None) while a
    /// [`ResumeJob`] takes it up again: hovers and hints read [`Analyzed::view`].
    pub replay: Option<Replay>,
    /// The replay's checkpoints, to take it up again after an edit instead of replaying the
    /// whole log ([`dotc_runtime::replay::resume`], issue 16). Away with the replay.
    pub resumable: Option<Resumable>,
    /// What hovers and inlay hints read of the replay, each event where it is in the current
    /// text (moved edit by edit, so a hover need not move every event through every edit since
    /// the replay; issue 16). Kept while the replay is away.
    pub view: Option<ReplayView>,
    /// A resume was over its budget since the last replay: the audit waits for a whole replay
    /// rather than trying again at every keystroke.
    pub resume_gave_up: bool,
    /// The edits made since the replay, oldest first: its spans are in the text before them.
    pub replay_edits: Vec<Edit>,
    /// The audit is out of date: the log is to be replayed again ([`AuditJob`]).
    pub audit_due: bool,
    /// The audit is out of date and is to be taken up again from the replay's checkpoint
    /// ([`Workspace::resume`]) once the keystroke's diagnostics are sent.
    pub resume_due: bool,
    /// The analysis panicked; the message says where. Diagnostics are then only this report.
    pub crashed: Option<String>,
    /// For a campaign (Ch14) that checks clean, its battles and post-battle sequences as the
    /// rules core plays them (`dotc_runtime::campaign::play`); its findings are [`Analyzed::audit`].
    /// Always played off the editing path ([`AuditJob`]): it replays every battle's log.
    pub campaign: Option<Arc<dotc_runtime::campaign::Played>>,
    /// For a game log, the order of battle it is fought with (Ch14 1.0, issue 19): the
    /// campaign's roster as the battle began when its header names a campaign battle
    /// ([`LoggedBattle::look_up`], the lookup `dotc audit` makes), else its scenario's. None
    /// until looked up: the lookup plays the campaign's earlier battles, so a log that names
    /// one is audited after a pause ([`AuditJob`]), never at a keystroke.
    pub battle: Option<Arc<LoggedBattle>>,
    /// The files a game log's order of battle is read from (its campaign, and the scenarios and
    /// logs of the campaign's battles up to its own), `.` and `..` resolved: a change to one of
    /// them audits the log again (`Workspace::reanalyze_dependents`), as a change to its
    /// scenario does.
    pub campaign_inputs: Vec<PathBuf>,
}

impl Analyzed {
    pub fn is_game(&self) -> bool {
        self.analysis.document.kind == Some(FileKind::Game)
    }

    pub fn is_campaign(&self) -> bool {
        self.analysis.document.kind == Some(FileKind::Campaign)
    }

    pub fn is_scenario(&self) -> bool {
        self.analysis.document.kind == Some(FileKind::Scenario)
    }

    /// A campaign (or a scenario, whose time and motion is also judged after a pause) analysed
    /// afresh after an edit, not played: until it is played again (after
    /// a pause, once it checks clean), the last play's findings stay, moved with the text (those
    /// the edit touched dropped), and so does the play the hovers and completions read, so they
    /// do not blink out at every keystroke or half-typed step.
    fn keep_campaign(&mut self, old: &Analyzed, edit: Edit) {
        // A scenario's time-and-motion warnings, made after a pause too, move the same way.
        let scenario = self.is_scenario() && old.is_scenario() && self.audit_due && self.audit.is_empty();
        // So do a campaign battle's log's findings while its order of battle is looked up again.
        let campaign_log = self.is_game() && old.is_game() && self.audit_due && self.battle.is_none();
        if !(scenario || campaign_log || self.is_campaign() && self.campaign.is_none() && old.is_campaign()) {
            return;
        }
        self.campaign = old.campaign.clone();
        self.audit = old
            .audit
            .iter()
            .filter(|d| d.primary.span.end < edit.start || d.primary.span.start >= edit.old_end)
            .cloned()
            .map(|mut d| {
                dotc_lang::incremental::shift_diagnostic(&mut d, edit.delta(), edit.old_end);
                d
            })
            .collect();
    }

    /// Play a campaign that checks clean and keep its findings as the audit (Ch14). An edit meanwhile
    /// sets `cancel`: the play stops at its next battle or action, and its audit stays due.
    fn play_campaign(&mut self, cancel: Option<&std::sync::atomic::AtomicBool>) {
        let played = match cancel {
            Some(cancel) => match dotc_runtime::campaign::play_cancellable(&self.analysis, cancel) {
                Some(played) => played,
                None => {
                    self.audit_due = true;
                    return;
                }
            },
            None => dotc_runtime::campaign::play(&self.analysis),
        };
        // The findings, and the notes of what the roster changes in each battle (Ch14 1.0).
        let notes = played.notes.iter().map(dotc_runtime::campaign::note_diagnostic);
        self.audit =
            played.findings.iter().map(dotc_runtime::audit::finding_diagnostic).chain(notes).collect();
        self.audit.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
        self.campaign = Some(Arc::new(played));
        self.audit_due = false;
    }

    /// Look up the order of battle of the campaign battle the log names (Ch14 1.0), through
    /// `loader` (the open buffers, then the disk), and the files it is read from. An edit
    /// meanwhile sets `cancel`; the replay after it then stops too, and the audit stays due.
    fn look_up_battle(&mut self, path: &Path, loader: &dyn Loader, cancel: Option<&AtomicBool>) {
        let (battle, inputs) = LoggedBattle::look_up(path, &self.analysis, loader, cancel);
        self.campaign_inputs = inputs.iter().map(|f| normalize(f)).collect();
        self.battle = Some(Arc::new(battle));
    }

    /// The scenario file a game log was checked against.
    pub fn scenario_path(&self) -> Option<&Path> {
        self.analysis.scenario.as_ref().map(|s| s.path.as_path())
    }

    /// Every diagnostic shown for the file, sorted by position.
    pub fn diagnostics(&self) -> Vec<&Diagnostic> {
        self.diagnostics_capped(usize::MAX).0
    }

    /// Every diagnostic but at most `max_audit` of the audit's (the first by position), sorted
    /// by position (stable: the language's, then the rules checks', then the audit's); and how
    /// many audit findings were left out.
    pub fn diagnostics_capped(&self, max_audit: usize) -> (Vec<&Diagnostic>, usize) {
        let shown = self.audit.len().min(max_audit);
        let mut all: Vec<&Diagnostic> =
            self.analysis.diagnostics.iter().chain(&self.rules_checks).chain(&self.audit[..shown]).collect();
        all.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
        (all, self.audit.len() - shown)
    }

    /// Where a span of the replay is in the current text; None where an edit since the replay
    /// replaced it.
    pub fn current_span(&self, span: Span) -> Option<Span> {
        self.replay_edits.iter().try_fold(span, |span, edit| edit.map_span(span))
    }

    /// Apply an edit to the analysis in place: the turns it touched are parsed and checked
    /// again, the audit is replayed now (`replay_now`) or marked due. False, with the analysis
    /// to be redone whole, when the edit cannot be applied in place (or the attempt panicked).
    fn reanalyze(
        &mut self,
        old_text: &str,
        new_text: &str,
        edit: Edit,
        replay_now: bool,
        may_resume: bool,
    ) -> bool {
        if self.crashed.is_some() || !self.is_game() {
            return false;
        }
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let reparsed = dotc_lang::analysis::reanalyze(&mut self.analysis, old_text, new_text, edit)?;
            // Findings on the re-parsed turns are about text that changed: gone until the next
            // replay. The others move with the text.
            let stale = reparsed.old_range;
            self.audit.retain_mut(|d| {
                let start = d.primary.span.start;
                if stale.start <= start && start < stale.end.max(stale.start + 1) {
                    return false;
                }
                dotc_lang::incremental::shift_diagnostic(d, edit.delta(), edit.old_end);
                true
            });
            self.replay_edits.push(edit);
            self.audit_due = false;
            self.resume_due = false;
            if !can_replay(&self.analysis) {
                // While the log has errors it cannot be replayed: the last audit stays, moved
                // with the text, so its findings do not blink out at every half-typed line.
            } else if replay_now {
                // A short log: taken up again from the checkpoint before the edits, or replayed.
                if !self.resume_audit(new_text, Some(usize::MAX)) {
                    self.replay_now(new_text, None);
                }
            } else if may_resume && self.resumable.is_some() && !self.resume_gave_up {
                // A long log: taken up again just after the keystroke's own diagnostics are out
                // (`Workspace::resume`).
                self.resume_due = true;
            } else {
                self.audit_due = true;
            }
            if !self.replay_edits.is_empty()
                && let Some(view) = &mut self.view
            {
                view.move_with(edit);
            }
            Some(())
        }));
        matches!(attempt, Ok(Some(())))
    }

    /// Take the replay up again for the edits made since it (`dotc_runtime::replay::resume`):
    /// from the last checkpoint before them, up to where the game is again the one the replay
    /// had, within `budget` actions (None: not at all). False, with nothing changed, when it
    /// cannot.
    fn resume_audit(&mut self, text: &str, budget: Option<usize>) -> bool {
        let Some(budget) = budget.filter(|_| !self.resume_gave_up) else { return false };
        let (Some(replay), Some(resumable)) = (self.replay.as_mut(), self.resumable.as_mut()) else {
            return false;
        };
        let Some(edit) = self.replay_edits.iter().copied().reduce(Edit::then) else { return false };
        match dotc_runtime::replay::resume::resume(&self.analysis, edit, replay, resumable, budget) {
            Ok(_) => {
                self.take_audit(text);
                true
            }
            Err(why) => {
                self.resume_gave_up = why == NotResumed::OverBudget;
                false
            }
        }
    }

    /// Replay the log and keep its audit; a replay the switch stopped keeps nothing (the audit
    /// stays due).
    fn replay_now(&mut self, text: &str, cancel: Option<&AtomicBool>) {
        // A campaign battle's log waits for its order of battle (`Analyzed::battle`).
        let Some(battle) = self.battle.clone() else {
            self.audit_due = true;
            return;
        };
        // No source: the replay would use it only for line numbers and quotes, which the server
        // takes from spans.
        let (result, resumable) = replay_resumable_with(&self.analysis, battle.order(), cancel);
        if result.cancelled {
            self.audit_due = true;
            return;
        }
        self.replay = Some(result);
        self.resumable = resumable;
        self.resume_gave_up = false;
        self.take_audit(text);
    }

    /// The audit of the replay just made or taken up, as `dotc audit` gives it: errors and
    /// warnings less what an `@allow` on the same action suppresses, and the suppressions that
    /// match nothing.
    fn take_audit(&mut self, text: &str) {
        let Some(replay) = &self.replay else { return };
        let audit = audit_of(&self.analysis, text, replay, self.battle.as_deref());
        let view = ReplayView::of(replay);
        self.took_audit(audit, view);
    }

    /// Keep the audit and view of the replay just made or taken up.
    fn took_audit(&mut self, audit: Vec<Diagnostic>, view: ReplayView) {
        self.audit = audit;
        self.view = Some(view);
        self.replay_edits.clear();
        self.audit_due = false;
        self.resume_due = false;
    }

    /// Put back what a [`ResumeJob`] took and keep what it made. A resume that failed leaves the
    /// audit due (given up for good until the next whole replay when it was over its budget);
    /// one whose replay was lost (its thread panicked or never ran) leaves the log without a
    /// replay until then.
    fn settle(&mut self, outcome: Result<ResumeOutcome, RecvError>) {
        let Ok(ResumeOutcome { kept, result }) = outcome else {
            self.audit_due = true;
            return;
        };
        if let Some((replay, resumable)) = kept {
            self.replay = Some(replay);
            self.resumable = Some(resumable);
        }
        match result {
            Ok((audit, view)) => self.took_audit(audit, view),
            Err(why) => {
                self.resume_gave_up = why == Some(NotResumed::OverBudget);
                self.audit_due = true;
            }
        }
    }
}

/// The audit of a replay, as `dotc audit` gives it: errors and warnings less what an `@allow` on
/// the same action suppresses, and the suppressions that match nothing; first the error at the
/// header's `campaign` line when the log's campaign battle cannot be had (Ch14 1.0).
fn audit_of(
    analysis: &Analysis,
    text: &str,
    replay: &Replay,
    battle: Option<&LoggedBattle>,
) -> Vec<Diagnostic> {
    // Every action's `@allow`s are gathered only when the text has one: on a long log the walk
    // costs more than the rest of a resumed audit.
    let allows = if text.contains("@allow") {
        dotc_runtime::audit::suppressions(&analysis.document)
    } else {
        Vec::new()
    };
    let findings = match battle.and_then(LoggedBattle::finding) {
        Some(finding) => {
            std::borrow::Cow::Owned(std::iter::once(finding).chain(&replay.findings).cloned().collect())
        }
        None => std::borrow::Cow::Borrowed(&replay.findings),
    };
    dotc_runtime::audit::audit_with(allows, &findings, AuditOptions::default()).diagnostics
}

/// A long log's audit taken up again from its replay's checkpoint before the edits since
/// ([`dotc_runtime::replay::resume`]), to run off the request path (issue 16). It holds the
/// replay and its checkpoints, taken out of the document's analysis, and shares the rest of
/// that analysis, which no one changes meanwhile: the next edit of the document waits for it
/// ([`Workspace::change`]). Its result goes back into the document whatever its version; it is
/// published only if the document is still at [`ResumeJob::version`] ([`Workspace::finish_resume`]).
pub struct ResumeJob {
    pub version: i32,
    ticket: u64,
    analyzed: Arc<Analyzed>,
    text: Arc<String>,
    /// The edits since the replay, as one.
    edit: Edit,
    replay: Replay,
    resumable: Resumable,
    budget: usize,
    gate: Option<ResumeGate>,
    done: SyncSender<ResumeOutcome>,
    /// Set when the document's next edit must wait for the job, or no one will take its result:
    /// the job stops before its next turn, leaving the replay as it was.
    stop: Arc<AtomicBool>,
}

impl std::fmt::Debug for ResumeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResumeJob").field("version", &self.version).field("ticket", &self.ticket).finish()
    }
}

/// Which [`ResumeJob`] a [`Workspace::finish_resume`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumeTicket(u64);

/// What a [`ResumeJob`] hands back: the replay and its checkpoints (None if its thread panicked,
/// which may have left them half changed), and the audit and view of the replay taken up, or
/// why it was not (None: the panic).
struct ResumeOutcome {
    kept: Option<(Replay, Resumable)>,
    result: Result<(Vec<Diagnostic>, ReplayView), Option<NotResumed>>,
}

impl ResumeJob {
    /// Which job this is, for [`Workspace::finish_resume`].
    pub fn ticket(&self) -> ResumeTicket {
        ResumeTicket(self.ticket)
    }

    /// The switch that stops the job before its next turn (for tests).
    pub fn stop_switch(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Take the replay up again, and make its audit and view (catching any panic); the result
    /// waits for the workspace. Nothing here touches the workspace.
    pub fn run(self) {
        let ResumeJob { analyzed, text, edit, mut replay, mut resumable, budget, gate, done, stop, .. } =
            self;
        if let Some(gate) = gate {
            gate.pass();
        }
        let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let analysis = &analyzed.analysis;
            // The job runs on a niced thread, and on this kernel (EEVDF) a thread woken for a
            // request waits on the job's core until the job's slice ends or the next tick (4 ms
            // on a HZ=250 machine), even with the other core idle: the job gives its core up
            // before each turn and each stage, so a hover need not wait for it (issue 16). An
            // edit that must wait for the job stops it there: a niced thread cannot be raised
            // back, and on a busy machine the edit waited for the whole job (p50 448 ms).
            let pause = &mut || {
                std::thread::yield_now();
                !stop.load(Ordering::Relaxed)
            };
            dotc_runtime::replay::resume::resume_pausing(
                analysis,
                edit,
                &mut replay,
                &mut resumable,
                budget,
                pause,
            )
            .map(|resumed| {
                std::thread::yield_now();
                // The document's view is of the replay before, moved by the edits since.
                let view = match &analyzed.view {
                    Some(view) => view.taken_up(&replay, resumed.events_kept),
                    None => ReplayView::of(&replay),
                };
                std::thread::yield_now();
                (audit_of(analysis, &text, &replay, analyzed.battle.as_deref()), view)
            })
        }));
        // Let go of the analysis before the result is taken: the document's next edit changes it
        // in place, which it can do only when no one else holds it.
        drop(analyzed);
        let outcome = match attempt {
            Ok(result) => ResumeOutcome { kept: Some((replay, resumable)), result: result.map_err(Some) },
            Err(_) => ResumeOutcome { kept: None, result: Err(None) },
        };
        // The document was closed, reopened or analysed afresh meanwhile: no one waits.
        let _ = done.send(outcome);
    }
}

/// A switch that holds every [`ResumeJob`] at its start until it is opened, for tests that show
/// what the server answers while an audit is being taken up. Closed, it also holds the next
/// edit of the document, which waits for the job.
#[derive(Clone, Debug, Default)]
pub struct ResumeGate(Arc<(Mutex<bool>, Condvar)>);

impl ResumeGate {
    /// A closed gate.
    pub fn closed() -> ResumeGate {
        ResumeGate::default()
    }

    /// Let every job held and to come pass.
    pub fn open(&self) {
        let (open, changed) = &*self.0;
        *open.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = true;
        changed.notify_all();
    }

    fn pass(&self) {
        let (open, changed) = &*self.0;
        let mut is_open = open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        while !*is_open {
            is_open = changed.wait(is_open).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }
}

/// A [`ResumeJob`] running on a document.
#[derive(Debug)]
struct Resuming {
    ticket: u64,
    version: i32,
    done: Receiver<ResumeOutcome>,
    stop: Arc<AtomicBool>,
}

/// The scenarios and logs a campaign document names (Ch14), `.` and `..` resolved: a change to
/// one of them plays the campaign again.
pub fn campaign_files(doc: &Doc) -> Vec<PathBuf> {
    let Some(campaign) = &doc.analyzed.analysis.document.campaign else { return Vec::new() };
    let base = doc.path.parent().unwrap_or(Path::new(""));
    let named = campaign.battles.iter().flat_map(|b| b.scenario.iter().chain(b.log.iter()));
    named.map(|n| normalize(&base.join(&n.value))).collect()
}

/// A game log is replayed when it checks clean against a loaded scenario.
fn can_replay(analysis: &Analysis) -> bool {
    analysis.document.kind == Some(FileKind::Game) && !analysis.has_errors() && analysis.scenario.is_some()
}

/// A replay of a long game log, to run off the editing path: the text and buffers as they were
/// at `version`. Its result is kept only if the document is still at that version.
#[derive(Debug)]
pub struct AuditJob {
    pub version: i32,
    path: PathBuf,
    text: Arc<String>,
    loader: BufferLoader,
    /// Set when the document changes: the replay stops at its next action.
    cancel: Arc<AtomicBool>,
}

impl AuditJob {
    /// The whole analysis of the text, audit included (catches any panic); None when the
    /// document changed while it ran, which stopped it.
    pub fn run(&self) -> Option<Analyzed> {
        let analyzed = analyze_guarded(&self.path, &self.text, &self.loader, Audit::Now(Some(&self.cancel)));
        (!self.cancel.load(Ordering::Relaxed)).then_some(analyzed)
    }

    /// Whether the document changed since the job was made.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// Whether an analysis replays a game log's audit.
#[derive(Clone, Copy)]
enum Audit<'a> {
    /// Now, stopping if the switch is set.
    Now(Option<&'a AtomicBool>),
    /// Now for a game log, stopping if the switch is set; later for a campaign (the analysis
    /// made at an edit or an open).
    Edit(Option<&'a AtomicBool>),
    /// Later ([`AuditJob`]): the analysis is left with its audit due.
    Later,
}

/// What the editor should show after a change: the diagnostics of each affected document.
#[derive(Debug)]
pub struct Publication {
    pub uri: Uri,
    pub version: i32,
    /// The document's audit is due: the server replays it after a pause.
    pub audit_due: bool,
    /// The document's audit is to be taken up again from its checkpoint right after these
    /// diagnostics are sent ([`Workspace::resume`]).
    pub resume_due: bool,
}

impl Publication {
    fn of(doc: &Doc) -> Publication {
        Publication {
            uri: doc.uri.clone(),
            version: doc.version,
            audit_due: doc.analyzed.audit_due,
            resume_due: doc.analyzed.resume_due,
        }
    }
}

/// The open documents.
#[derive(Debug)]
pub struct Workspace {
    docs: HashMap<String, Doc>,
    /// The editor's workspace folders: where rename and references look for game logs that
    /// are not open.
    pub roots: Vec<PathBuf>,
    /// A game log longer than this (in bytes) is replayed after a pause in typing rather than
    /// at every keystroke. The default, 256 KiB, is about 5,000 lines: a replay of that takes
    /// tens of milliseconds.
    pub deferred_audit_bytes: usize,
    /// At most this many audit findings of a document are sent to the editor (the first by
    /// position), with a note saying how many more `dotc audit` would list.
    pub max_audit_diagnostics: usize,
    /// At a keystroke in a long log, its audit is taken up again from the replay's checkpoint
    /// before the edit if that replays at most this many actions ([`RESUME_BUDGET`]); None:
    /// never (the audit then waits for a whole replay after a pause).
    pub resume_budget: Option<usize>,
    /// Holds every [`ResumeJob`] until opened (for tests; see [`ResumeGate`]).
    pub resume_gate: Option<ResumeGate>,
    /// The resume jobs running, by document.
    resuming: HashMap<String, Resuming>,
    /// The last [`ResumeJob`]'s ticket.
    tickets: u64,
}

impl Default for Workspace {
    fn default() -> Workspace {
        Workspace {
            docs: HashMap::new(),
            roots: Vec::new(),
            deferred_audit_bytes: DEFERRED_AUDIT_BYTES,
            max_audit_diagnostics: MAX_AUDIT_DIAGNOSTICS,
            resume_budget: Some(RESUME_BUDGET),
            resume_gate: None,
            resuming: HashMap::new(),
            tickets: 0,
        }
    }
}

/// See [`Workspace::deferred_audit_bytes`].
pub const DEFERRED_AUDIT_BYTES: usize = 256 << 10;
/// The most actions an edit of a long log replays to take its audit up again at the keystroke
/// (some 7 ms on the generated 100,000-line log); an edit that needs more (it changed the game
/// for good, early in the log) leaves the audit due, replayed whole after a pause.
pub const RESUME_BUDGET: usize = 500;

/// See [`Workspace::max_audit_diagnostics`].
pub const MAX_AUDIT_DIAGNOSTICS: usize = 1000;

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    pub fn get(&self, uri: &Uri) -> Option<&Doc> {
        self.docs.get(uri.as_str())
    }

    pub fn docs(&self) -> impl Iterator<Item = &Doc> {
        self.docs.values()
    }

    /// The open document standing for a file, if any.
    pub fn by_path(&self, path: &Path) -> Option<&Doc> {
        let path = normalize(path);
        self.docs.values().find(|d| d.path == path)
    }

    /// Open (or reopen) a document and analyse it. Returns the documents whose diagnostics
    /// changed: this one and any open game log played on it.
    pub fn open(&mut self, uri: Uri, version: i32, text: String) -> Vec<Publication> {
        let path = path_of(&uri);
        let text = Arc::new(text);
        let analyzed = Arc::new(self.analyze(&path, &text));
        let index = Arc::new(LineIndex::new(&text));
        let audit_slot = self.docs.get(uri.as_str()).map(|doc| doc.audit_slot.clone()).unwrap_or_default();
        let doc =
            Doc { uri: uri.clone(), path, version, text, index, analyzed, running_audit: None, audit_slot };
        // Reopened: an audit of the text it had is stale.
        self.forget_resume(uri.as_str());
        if let Some(mut old) = self.docs.insert(uri.as_str().to_string(), doc) {
            old.cancel_audit();
        }
        self.after_change(&uri)
    }

    /// Apply edits in order. A version older than or equal to the one held is stale and
    /// ignored (None); so is a change to a document that is not open. A [`ResumeJob`] still
    /// running on the document is waited for first, and its result kept, not published: the
    /// edit changes the analysis it reads, and goes on from the replay it takes up.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Option<Vec<Publication>> {
        let (deferred_bytes, may_resume) = (self.deferred_audit_bytes, self.resume_budget.is_some());
        if version <= self.docs.get(uri.as_str())?.version {
            return None;
        }
        // The document's resume job, if one runs, stops before its next turn: the edit waits
        // for it, and then takes the audit up from the edits before and this one together.
        if let Some(running) = self.resuming.get(uri.as_str()) {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.settle_resume(uri.as_str(), None);
        let doc = self.docs.get_mut(uri.as_str())?;
        doc.cancel_audit();
        let old_text = doc.text.clone();
        let index = Arc::make_mut(&mut doc.index);
        // One copy of the text per change: the part before the edit, the new text, the rest.
        let mut text: Option<String> = None;
        let mut edits = Vec::new();
        for change in changes {
            let current: &str = text.as_deref().unwrap_or(&old_text);
            match change.range {
                Some(range) => {
                    let span = index.span(current, range);
                    let mut next = String::with_capacity(current.len() - span.len() + change.text.len());
                    next.push_str(&current[..span.start]);
                    next.push_str(&change.text);
                    next.push_str(&current[span.end..]);
                    let edit = Edit {
                        start: span.start,
                        old_end: span.end,
                        new_end: span.start + change.text.len(),
                    };
                    index.edit(&next, edit);
                    edits.push(edit);
                    text = Some(next);
                }
                None => {
                    *index = LineIndex::new(&change.text);
                    edits.push(Edit { start: 0, old_end: current.len(), new_end: change.text.len() });
                    text = Some(change.text);
                }
            }
        }
        doc.version = version;
        let Some(text) = text else { return Some(Vec::new()) };
        // One edit as it came, or the smallest edit that covers several.
        let edit = match edits.as_slice() {
            [one] => *one,
            _ => Edit::between(&old_text, &text),
        };
        if edit.start == edit.old_end && edit.start == edit.new_end && old_text.len() == text.len() {
            return Some(Vec::new());
        }
        let replay_now = text.len() <= deferred_bytes;
        let in_place = Arc::get_mut(&mut doc.analyzed)
            .is_some_and(|analyzed| analyzed.reanalyze(&old_text, &text, edit, replay_now, may_resume));
        doc.text = Arc::new(text);
        if !in_place {
            let (path, text) = (doc.path.clone(), doc.text.clone());
            let mut analyzed = self.analyze(&path, &text);
            if let Some(doc) = self.docs.get(uri.as_str()) {
                analyzed.keep_campaign(&doc.analyzed, edit);
            }
            if let Some(doc) = self.docs.get_mut(uri.as_str()) {
                doc.analyzed = Arc::new(analyzed);
            }
        }
        Some(self.after_change(uri))
    }

    /// Take a long log's audit up again from its replay's checkpoint before the edits, if it is
    /// still at `version` and that is due (its keystroke's diagnostics went out first), here
    /// and now: [`Workspace::start_resume`], [`ResumeJob::run`] and [`Workspace::finish_resume`]
    /// in turn. The document's publication when anything changed.
    pub fn resume(&mut self, uri: &Uri, version: i32) -> Vec<Publication> {
        match self.start_resume(uri, version) {
            Ok(job) => {
                let ticket = job.ticket();
                job.run();
                self.finish_resume(uri, ticket)
            }
            Err(publications) => publications,
        }
    }

    /// The job that takes a long log's audit up again from its replay's checkpoint before the
    /// edits, if the document is still at `version` and that is due: it replays at most
    /// [`Workspace::resume_budget`] actions. It takes the replay and its checkpoints out of the
    /// document's analysis and shares the rest; the caller runs it where it likes (the server:
    /// on a blocking thread, issue 16) and then calls [`Workspace::finish_resume`]. No job
    /// (the publications to send instead) when there is nothing to take up: then, if anything
    /// changed, the audit is due for a whole replay after a pause.
    pub fn start_resume(&mut self, uri: &Uri, version: i32) -> Result<ResumeJob, Vec<Publication>> {
        let (budget, gate) = (self.resume_budget, self.resume_gate.clone());
        let Some(doc) = self.docs.get_mut(uri.as_str()) else { return Err(Vec::new()) };
        if doc.version != version || !doc.analyzed.resume_due {
            return Err(Vec::new());
        }
        let Some(analyzed) = Arc::get_mut(&mut doc.analyzed) else {
            // A request holds the analysis: the audit waits for the whole replay, which takes
            // a document whose audit is to be taken up as due.
            return Err(vec![Publication { audit_due: true, ..Publication::of(doc) }]);
        };
        analyzed.resume_due = false;
        let edit = analyzed.replay_edits.iter().copied().reduce(Edit::then);
        let budget = budget.filter(|_| !analyzed.resume_gave_up);
        let has_replay = analyzed.replay.is_some() && analyzed.resumable.is_some();
        let (Some(edit), Some(budget), true) = (edit, budget, has_replay) else {
            analyzed.audit_due = true;
            return Err(vec![Publication::of(doc)]);
        };
        let (Some(replay), Some(resumable)) = (analyzed.replay.take(), analyzed.resumable.take()) else {
            return Err(Vec::new());
        };
        self.tickets += 1;
        let (done, result) = sync_channel(1);
        let stop = Arc::new(AtomicBool::new(false));
        let resuming = Resuming { ticket: self.tickets, version, done: result, stop: stop.clone() };
        self.resuming.insert(uri.as_str().to_string(), resuming);
        Ok(ResumeJob {
            version,
            ticket: self.tickets,
            analyzed: doc.analyzed.clone(),
            text: doc.text.clone(),
            edit,
            replay,
            resumable,
            budget,
            gate,
            done,
            stop,
        })
    }

    /// Put the result of a [`ResumeJob`] that has ended back into its document, if it is still
    /// the document's running job. The document's publication when it is still at the job's
    /// version (its audit taken up, or due for a whole replay after a pause); nothing when the
    /// job was stale: a newer edit already took its result, or the document was closed or
    /// analysed afresh meanwhile. Called before the job ends, it waits for it.
    pub fn finish_resume(&mut self, uri: &Uri, ticket: ResumeTicket) -> Vec<Publication> {
        match self.settle_resume(uri.as_str(), Some(ticket.0)) {
            Some(version) => {
                self.get(uri).filter(|doc| doc.version == version).map(Publication::of).into_iter().collect()
            }
            None => Vec::new(),
        }
    }

    /// Let go of the resume job running on a document, if one is, and stop it: its result will
    /// not be taken (the document was closed, opened again or analysed afresh).
    fn forget_resume(&mut self, key: &str) {
        if let Some(running) = self.resuming.remove(key) {
            running.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Wait for the resume job running on a document (the one with this ticket, or any) and put
    /// its result back; the version it was for, if there was one.
    fn settle_resume(&mut self, key: &str, ticket: Option<u64>) -> Option<i32> {
        let running = self.resuming.get(key)?;
        if ticket.is_some_and(|ticket| ticket != running.ticket) {
            return None;
        }
        let running = self.resuming.remove(key)?;
        let outcome = running.done.recv();
        let doc = self.docs.get_mut(key)?;
        match Arc::get_mut(&mut doc.analyzed) {
            Some(analyzed) => analyzed.settle(outcome),
            None => {
                // Someone else holds the analysis (not the server, whose requests copy what
                // they need): the replay cannot go back into it, so it is made afresh.
                drop(outcome);
                let (path, text) = (doc.path.clone(), doc.text.clone());
                let analyzed = Arc::new(self.analyze(&path, &text));
                if let Some(doc) = self.docs.get_mut(key) {
                    doc.analyzed = analyzed;
                }
            }
        }
        Some(running.version)
    }

    /// The replay a document's audit is waiting for, if it is still at `version` and due. Its
    /// switch replaces that of any audit of the document still running, which is stopped.
    pub fn audit_job(&mut self, uri: &Uri, version: i32) -> Option<AuditJob> {
        let loader = self.loader();
        let doc = self.docs.get_mut(uri.as_str())?;
        if doc.version != version || !(doc.analyzed.audit_due || doc.analyzed.resume_due) {
            return None;
        }
        doc.cancel_audit();
        let cancel = Arc::new(AtomicBool::new(false));
        doc.running_audit = Some(cancel.clone());
        Some(AuditJob { version, path: doc.path.clone(), text: doc.text.clone(), loader, cancel })
    }

    /// Take the result of an [`AuditJob`] if its document has not changed since (the job is
    /// still the document's running audit). Returns the publication and the analysis it
    /// replaces (a long log's is large: the caller drops it after letting go of the workspace).
    pub fn finish_audit(
        &mut self,
        uri: &Uri,
        job: &AuditJob,
        analyzed: Analyzed,
    ) -> Option<(Publication, Arc<Analyzed>)> {
        let doc = self.docs.get_mut(uri.as_str())?;
        let current = doc.running_audit.as_ref().is_some_and(|running| Arc::ptr_eq(running, &job.cancel));
        if !current || doc.version != job.version || !(doc.analyzed.audit_due || doc.analyzed.resume_due) {
            return None;
        }
        doc.running_audit = None;
        let old = std::mem::replace(&mut doc.analyzed, Arc::new(analyzed));
        let publication = Publication::of(doc);
        self.forget_resume(uri.as_str());
        Some((publication, old))
    }

    /// Forget a closed document; game logs played on it go back to the file on disk.
    pub fn close(&mut self, uri: &Uri) -> Vec<Publication> {
        self.forget_resume(uri.as_str());
        let Some(mut doc) = self.docs.remove(uri.as_str()) else { return Vec::new() };
        doc.cancel_audit();
        self.reanalyze_dependents(&doc.path)
    }

    /// This document, and every open game log that names it as its scenario, re-analysed.
    fn after_change(&mut self, uri: &Uri) -> Vec<Publication> {
        let Some(doc) = self.docs.get(uri.as_str()) else { return Vec::new() };
        let mut out = vec![Publication::of(doc)];
        let path = doc.path.clone();
        out.extend(self.reanalyze_dependents(&path));
        out
    }

    fn reanalyze_dependents(&mut self, scenario: &Path) -> Vec<Publication> {
        let dependents: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| {
                d.path != scenario
                    && (d.analyzed.scenario_path().map(normalize).as_deref() == Some(scenario)
                        || campaign_files(d).iter().any(|f| f == scenario)
                        || d.analyzed.campaign_inputs.iter().any(|f| f == scenario))
            })
            .map(|(k, _)| k.clone())
            .collect();
        let mut out = Vec::new();
        for key in dependents {
            let Some(doc) = self.docs.get(&key) else { continue };
            let (path, text) = (doc.path.clone(), doc.text.clone());
            let analyzed = Arc::new(self.analyze(&path, &text));
            self.forget_resume(&key);
            if let Some(doc) = self.docs.get_mut(&key) {
                doc.cancel_audit();
                doc.analyzed = analyzed;
                out.push(Publication::of(doc));
            }
        }
        out
    }

    /// Analyse a text as the file at `path`, catching any panic. A game log longer than
    /// [`Workspace::deferred_audit_bytes`] is left with its audit due.
    pub fn analyze(&self, path: &Path, text: &str) -> Analyzed {
        let audit = if text.len() <= self.deferred_audit_bytes { Audit::Edit(None) } else { Audit::Later };
        analyze_guarded(path, text, &self.loader(), audit)
    }

    /// Reads the open buffers first, then the disk.
    fn loader(&self) -> BufferLoader {
        BufferLoader { buffers: self.docs.values().map(|d| (d.path.clone(), d.text.clone())).collect() }
    }
}

/// Analyse one file the way `dotc check` and `dotc audit` together do, through the same
/// `dotc_runtime::check::check_file` and `dotc_runtime::audit` (the audit only if `audit`;
/// otherwise a game log that could be replayed is left with its audit due). A panic anywhere in
/// the analysis is caught and reported as one diagnostic at the top of the file.
pub fn analyze_text(path: &Path, text: &str, loader: &dyn Loader, audit: bool) -> Analyzed {
    analyze_guarded(path, text, loader, if audit { Audit::Now(None) } else { Audit::Later })
}

fn analyze_guarded(path: &Path, text: &str, loader: &dyn Loader, audit: Audit<'_>) -> Analyzed {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        analyze_unguarded(path, text, loader, audit)
    }));
    match run {
        Ok(analyzed) => analyzed,
        Err(panic) => {
            let message = panic_message(&panic);
            let diagnostic = Diagnostic::error(
                "dotc::internal-error",
                format!("the analysis of this file failed: {message}"),
                Span::new(0, 0),
                "please report this with the file",
            );
            Analyzed {
                analysis: Analysis {
                    document: Default::default(),
                    diagnostics: vec![diagnostic],
                    rule_data: dotc_lang::stdlib().clone(),
                    names: None,
                    scenario: None,
                    syntax: Vec::new(),
                    setup: Vec::new(),
                    checks: Vec::new(),
                    items: Vec::new(),
                    battles: Vec::new(),
                },
                rules_checks: Vec::new(),
                audit: Vec::new(),
                replay: None,
                resumable: None,
                resume_gave_up: false,
                view: None,
                replay_edits: Vec::new(),
                audit_due: false,
                resume_due: false,
                crashed: Some(message),
                campaign: None,
                battle: None,
                campaign_inputs: Vec::new(),
            }
        }
    }
}

fn analyze_unguarded(path: &Path, text: &str, loader: &dyn Loader, audit: Audit<'_>) -> Analyzed {
    let CheckedFile { analysis, rules_checks } = dotc_runtime::check::check_file(path, text, loader);
    let mut analyzed = Analyzed {
        analysis,
        rules_checks,
        audit: Vec::new(),
        replay: None,
        resumable: None,
        resume_gave_up: false,
        view: None,
        replay_edits: Vec::new(),
        audit_due: false,
        resume_due: false,
        crashed: None,
        campaign: None,
        battle: None,
        campaign_inputs: Vec::new(),
    };
    // A campaign battle's log (Ch14 1.0): its campaign is watched from the start, its
    // battles' files once its order of battle is looked up.
    let named = campaign_file(path, &analyzed.analysis);
    analyzed.campaign_inputs = named.iter().map(|f| normalize(f)).collect();
    if can_replay(&analyzed.analysis) {
        if named.is_none() {
            analyzed.battle = Some(Arc::new(LoggedBattle::Scenario));
        }
        match audit {
            Audit::Now(cancel) => {
                if named.is_some() {
                    analyzed.look_up_battle(path, loader, cancel);
                }
                analyzed.replay_now(text, cancel);
            }
            // The lookup plays the campaign's earlier battles: never at a keystroke.
            Audit::Edit(cancel) if named.is_none() => analyzed.replay_now(text, cancel),
            Audit::Edit(_) | Audit::Later => analyzed.audit_due = true,
        }
    } else if analyzed.is_campaign() && !analyzed.analysis.has_errors() {
        // A campaign replays every battle's log: never at a keystroke (issue 18).
        match audit {
            Audit::Now(cancel) => analyzed.play_campaign(cancel),
            Audit::Edit(_) | Audit::Later => analyzed.audit_due = true,
        }
    } else if analyzed.is_scenario() && !analyzed.analysis.has_errors() {
        // A scenario's time and motion searches the table (a few hundred milliseconds on a
        // Gettysburg scenario): never at a keystroke either (issue 19).
        match audit {
            Audit::Now(_) => {
                analyzed.audit = dotc_runtime::check::motion_warnings(&analyzed.analysis);
                analyzed.audit_due = false;
            }
            Audit::Edit(_) | Audit::Later => analyzed.audit_due = true,
        }
    }
    analyzed
}

/// The text of a caught panic.
pub fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Reads open buffers first, then the disk.
#[derive(Debug)]
pub struct BufferLoader {
    pub buffers: HashMap<PathBuf, Arc<String>>,
}

impl Loader for BufferLoader {
    fn load(&self, path: &Path) -> Result<String, String> {
        match self.buffers.get(&normalize(path)) {
            Some(text) => Ok(text.to_string()),
            None => dotc_lang::FsLoader.load(path),
        }
    }
}

/// The file a URI stands for, `.` and `..` resolved; an unsaved buffer (`untitled:`) gets a
/// path made of its URI's path, so a log in it still finds a scenario beside the working folder.
pub fn path_of(uri: &Uri) -> PathBuf {
    let is_file = uri.scheme().as_str().eq_ignore_ascii_case("file");
    let path = if is_file { uri.to_file_path().map(|p| p.into_owned()) } else { None };
    normalize(&path.unwrap_or_else(|| PathBuf::from(uri.path().as_str())))
}

/// A path with `.` and `..` resolved without touching the disk.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The URI of a file path (absolute paths always convert).
pub fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

/// A zero-width range at the start of a text.
pub fn start_range() -> Range {
    Range { start: Position { line: 0, character: 0 }, end: Position { line: 0, character: 0 } }
}
