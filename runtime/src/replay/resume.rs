//! Taking a replay up again after an edit of its log, instead of replaying it whole (issue 16:
//! the language server audits a long log at each keystroke this way).
//!
//! [`replay_resumable`] replays a log as [`replay`] does and keeps a checkpoint every [`EVERY`]
//! turns: the game as it stood at the start of that turn (the engine's state, where every unit
//! stands, what the replay remembers between turns, the scripts' state) and how long each of
//! the replay's outputs was. After an edit, [`resume`] goes back to the last checkpoint before
//! the edit and replays from there. At each checkpoint past the edit it compares the game with
//! the one the old replay had at the same text: the same game before the same text plays the
//! same way, so from there on the old replay stands, moved by the edit. An edit that changes
//! the game for good (a die that now takes a stand) is replayed to the end of the log, or given
//! up past a budget of actions (the caller then replays the log whole, as before).
//!
//! A resumed replay is the replay of the new text: the same events, findings, summary and
//! narrative, byte for byte (`resume_tests.rs` checks this against whole replays, edit after
//! edit).

use dotc_lang::incremental::Edit;

use super::fall_back::OwedFallBack;
use super::scripted::ScriptedMoment;
use super::*;

/// A checkpoint is kept at the start of every this many turns: an edit replays at most this many
/// turns before it, and as many after it before the old replay can be taken up.
pub const EVERY: usize = 8;

/// A replay that can be taken up again after an edit of its log ([`resume`]). It holds the
/// replay's machine (the rules, the battlefield, the compiled scripts) and its checkpoints.
pub struct Resumable {
    run: Run<'static>,
    /// A checkpoint every this many turns.
    every: usize,
    checkpoints: Vec<Checkpoint>,
    /// The replay's findings in the order they were made (a [`Replay`]'s are sorted by place),
    /// so the findings of the turns before a checkpoint are the first `counts.findings` of them.
    findings: Vec<Finding>,
}

impl std::fmt::Debug for Resumable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resumable").field("checkpoints", &self.checkpoints.len()).finish_non_exhaustive()
    }
}

/// The game at the start of a turn, as [`Run::play_turn`] reads it.
#[derive(Clone, Debug, PartialEq)]
struct Moment {
    state: GameState,
    bodies: BTreeMap<UnitId, Body>,
    leader_positions: BTreeMap<String, (f64, f64)>,
    pending: BTreeMap<UnitId, (String, Body, Span)>,
    owed: Vec<OwedFallBack>,
    pursuits: Vec<super::pursuit::OwedPursuit>,
    retreats: Vec<(UnitId, f64, Span)>,
    seeded: Option<SeededDice>,
    ledger: status::Ledger,
    book: command::Book,
    /// The hasty works dug so far (module digging_in, Ch13 14.0): the battlefield's only part
    /// that play changes and a later turn reads.
    works: Vec<crate::battlefield::HastyWorks>,
    scripted: ScriptedMoment,
    /// The last phase played.
    phase: PhaseKind,
    /// The last action played was an assault with its steps.
    in_steps: bool,
}

impl Moment {
    /// Move the spans this moment holds by an edit of the log, in place; false (the moment half
    /// moved) when the edit replaced one of them.
    fn shift(&mut self, edit: &Edit) -> bool {
        let map = |span: Span| edit.map_span(span);
        for (_, _, span) in self.pending.values_mut() {
            match map(*span) {
                Some(moved) => *span = moved,
                None => return false,
            }
        }
        for owed in &mut self.owed {
            match owed.mapped(map) {
                Some(moved) => *owed = moved,
                None => return false,
            }
        }
        for owed in &mut self.pursuits {
            match owed.mapped(map) {
                Some(moved) => *owed = moved,
                None => return false,
            }
        }
        for (_, _, span) in &mut self.retreats {
            match map(*span) {
                Some(moved) => *span = moved,
                None => return false,
            }
        }
        self.scripted.shift(map)
    }

    /// This moment with the spans it holds moved by an edit of the log; None when the edit
    /// replaced one of them (the moment is then about text that changed).
    fn mapped(&self, edit: &Edit) -> Option<Moment> {
        let mut moved = self.clone();
        moved.shift(edit).then_some(moved)
    }
}

/// How long each output of the replay was at a checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Counts {
    events: usize,
    findings: usize,
    steps: usize,
    filled: usize,
}

/// The replay at the start of one turn.
#[derive(Clone, Debug, PartialEq)]
struct Checkpoint {
    /// Where the turn starts in the text replayed.
    offset: usize,
    /// Where the text the game at this checkpoint depends on ends: the end of the turn before,
    /// or of the game's header before the first turn.
    after: usize,
    /// Its index among the log's turns.
    turn: usize,
    counts: Counts,
    moment: Moment,
}

impl Run<'_> {
    /// How long each output is, counted from the replay's start ([`Run::base`] before what the
    /// replayer holds).
    fn counts(&self) -> Counts {
        Counts {
            events: self.base.events + self.r.events.len(),
            findings: self.base.findings + self.r.findings.len(),
            steps: self.base.steps + self.r.steps.len(),
            filled: self.base.filled + self.r.filled.len(),
        }
    }

    fn checkpoint(&self, analysis: &Analysis, turn: usize) -> Checkpoint {
        let turns = &analysis.document.turns;
        Checkpoint {
            offset: turns.get(turn).map_or(usize::MAX, |t| t.span.start),
            after: depends_on(analysis, turn),
            turn,
            counts: self.counts(),
            moment: self.moment(),
        }
    }

    fn moment(&self) -> Moment {
        let g = &self.game;
        Moment {
            state: g.state.clone(),
            bodies: g.bodies.clone(),
            leader_positions: g.leader_positions.clone(),
            pending: g.pending.clone(),
            owed: g.owed.clone(),
            pursuits: g.pursuits.clone(),
            retreats: g.retreats.clone(),
            seeded: g.seeded.clone(),
            ledger: g.ledger.clone(),
            book: g.book.clone(),
            works: g.bf.works.clone(),
            scripted: self.scripted.moment(),
            phase: self.r.phase,
            in_steps: self.r.in_steps,
        }
    }

    /// Back to the start of turn `c.turn` of `turns`. What the checkpoint does not keep is a
    /// fact of the log: the turn, side and span the replayer last saw are the previous turn's
    /// (the header's before the first), the span its end left.
    fn restore(&mut self, c: &Checkpoint, analysis: &Analysis) {
        let m = &c.moment;
        let g = &mut self.game;
        g.state.clone_from(&m.state);
        g.bodies.clone_from(&m.bodies);
        g.leader_positions.clone_from(&m.leader_positions);
        g.pending.clone_from(&m.pending);
        g.owed.clone_from(&m.owed);
        g.pursuits.clone_from(&m.pursuits);
        g.retreats.clone_from(&m.retreats);
        g.seeded.clone_from(&m.seeded);
        g.ledger.clone_from(&m.ledger);
        g.book.clone_from(&m.book);
        g.bf.works.clone_from(&m.works);
        self.scripted.restore(&m.scripted);
        let header = analysis.document.game.as_ref().map(|g| g.span).unwrap_or_default();
        let previous = c.turn.checked_sub(1).and_then(|i| analysis.document.turns.get(i));
        let r = &mut self.r;
        r.phase = m.phase;
        r.turn = previous.map_or(0, |t| t.number.value);
        r.side = Arc::from(previous.map_or("", |t| t.side.value.as_str()));
        r.span = previous.map_or_else(Span::default, |t| t.span);
        r.line = 0;
        r.stopped = None;
        r.follow.clear();
        r.in_steps = m.in_steps;
        self.last_turn = previous.map_or(header, |t| t.span);
        self.tables.clear();
        self.actions = 0;
    }
}

/// Where the text the game at the start of turn `turn` depends on ends: the end of the turn
/// before, or of the game's header.
fn depends_on(analysis: &Analysis, turn: usize) -> usize {
    match turn.checked_sub(1).and_then(|i| analysis.document.turns.get(i)) {
        Some(previous) => previous.span.end,
        None => analysis.document.game.as_ref().map_or(0, |g| g.span.end),
    }
}

/// Replay a log as [`replay`] does (with no source, seed, stop, what-if, tables or probes: the
/// replay the language server audits with), keeping checkpoints to take it up again after an
/// edit. The replay stops as soon as `cancel` is set (then it is partial and not resumable).
pub fn replay_resumable(
    analysis: &Analysis,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> (Replay, Option<Resumable>) {
    replay_resumable_fought(analysis, None, cancel, EVERY)
}

/// [`replay_resumable`] of a log fought with this order of battle (a campaign's battle, Ch14
/// 1.0: `crate::campaign::logged`); a [`resume`] goes on with it.
pub fn replay_resumable_with(
    analysis: &Analysis,
    order_of_battle: Option<&crate::campaign::order::OrderOfBattle>,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> (Replay, Option<Resumable>) {
    replay_resumable_fought(analysis, order_of_battle, cancel, EVERY)
}

/// [`replay_resumable`] with a checkpoint every `every` turns (at least 1) instead of [`EVERY`].
pub fn replay_resumable_every(
    analysis: &Analysis,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    every: usize,
) -> (Replay, Option<Resumable>) {
    replay_resumable_fought(analysis, None, cancel, every)
}

/// [`replay_resumable_every`] with an order of battle.
fn replay_resumable_fought(
    analysis: &Analysis,
    order_of_battle: Option<&crate::campaign::order::OrderOfBattle>,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    every: usize,
) -> (Replay, Option<Resumable>) {
    let every = every.max(1);
    let start = ReplayOptions::default();
    let mut run = match Run::start_fought(analysis, &start, order_of_battle) {
        Ok(run) => run,
        Err(done) => return (*done, None),
    };
    let options = ReplayOptions { cancel, ..ReplayOptions::default() };
    let mut checkpoints = Vec::new();
    for (i, turn) in analysis.document.turns.iter().enumerate() {
        if i % every == 0 {
            checkpoints.push(run.checkpoint(analysis, i));
        }
        match run.play_turn(turn, &options) {
            Flow::Next => {}
            Flow::Stop => break,
            Flow::Cancelled => return (run.cancelled(), None),
        }
    }
    let mut out = run.end_unsorted();
    let findings = out.findings.clone();
    out.findings.sort_by_key(|f| (f.span.start, f.span.end));
    (out, Some(Resumable { run, every, checkpoints, findings }))
}

/// What a [`resume`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// The index of the turn it replayed from.
    pub from_turn: usize,
    /// Turns it replayed.
    pub turns: usize,
    /// Actions it replayed.
    pub actions: usize,
    /// Whether the old replay was taken up past the edit (else it replayed to the end).
    pub kept_the_rest: bool,
    /// How many of the old replay's first events are kept as they were (those before the
    /// checkpoint it replayed from), and how many of its last (those after the game became the
    /// old one again, moved by the edit): what a view of the events need not read again.
    pub events_kept: (usize, usize),
}

/// Why a [`resume`] did not take the replay up; the replay and its checkpoints are unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotResumed {
    /// The edit is before the first checkpoint (in the game's header), or no checkpoint before
    /// it still starts a turn.
    NoCheckpoint,
    /// The edit changed a fact of the whole log (which sides' pips it keeps).
    WholeLog,
    /// The replay was cut short (cancelled, or stopped by `until`): there is no rest to take up.
    Partial,
    /// Replaying from the checkpoint took more than the budget of actions.
    OverBudget,
    /// The caller's `pause` ([`resume_pausing`]) said to stop before the replay ended.
    Stopped,
}

/// Take `replay` (made by [`replay_resumable`], or resumed since) of the old text up again for
/// the new text, which `analysis` analyses and `edit` made from the old one. On success `replay`
/// and `resumable` are those of the new text; otherwise they are unchanged. At most `budget`
/// actions are replayed.
pub fn resume(
    analysis: &Analysis,
    edit: Edit,
    replay: &mut Replay,
    resumable: &mut Resumable,
    budget: usize,
) -> Result<Resumed, NotResumed> {
    resume_pausing(analysis, edit, replay, resumable, budget, &mut || true)
}

/// [`resume`], calling `pause` before each turn it replays: when it returns false the resume
/// stops there ([`NotResumed::Stopped`]), and the replay and its checkpoints are as they were.
/// The language server gives up its core there, so that a request which came in meanwhile need
/// not wait for the whole job, and stops the job when an edit must wait for it (issue 16);
/// `pause` can change nothing the replay reads.
pub fn resume_pausing(
    analysis: &Analysis,
    edit: Edit,
    replay: &mut Replay,
    resumable: &mut Resumable,
    budget: usize,
    pause: &mut dyn FnMut() -> bool,
) -> Result<Resumed, NotResumed> {
    if replay.cancelled || replay.stopped.is_some() {
        return Err(NotResumed::Partial);
    }
    let turns = &analysis.document.turns;
    if resumable.run.game.sides_keeping_pips(turns) != resumable.run.keeping_pips {
        return Err(NotResumed::WholeLog);
    }
    // The last checkpoint whose game depends only on text before the edit: that text is
    // unchanged, so the game at the checkpoint is too (and the turns before it are the same).
    let before = resumable.checkpoints.partition_point(|c| c.after <= edit.start);
    let Some(at) = (0..before).rev().find(|&k| {
        let c = &resumable.checkpoints[k];
        c.turn <= turns.len() && depends_on(analysis, c.turn) == c.after
    }) else {
        return Err(NotResumed::NoCheckpoint);
    };
    let from = resumable.checkpoints[at].clone();
    let every = resumable.every;
    let run = &mut resumable.run;
    run.restore(&from, analysis);
    // The old outputs stay where they are; the replay writes its own into empty ones, which
    // count from the checkpoint's, and they are spliced in at the end.
    run.base = from.counts;
    run.r.events.clear();
    run.r.findings.clear();
    run.r.steps.clear();
    run.r.filled.clear();
    let old = Outputs {
        events: &replay.events,
        findings: &resumable.findings,
        steps: &replay.steps,
        filled: &replay.filled,
    };
    let options = ReplayOptions::default();
    let mut made = Vec::new();
    let mut kept = None;
    let mut played = 0;
    for (i, turn) in turns.iter().enumerate().skip(from.turn) {
        if i > from.turn && turn.span.start >= edit.new_end {
            // Where this turn starts in the old text, and the old replay's checkpoint there.
            let was = turn.span.start.wrapping_add_signed(-edit.delta());
            if let Ok(k) = resumable.checkpoints.binary_search_by_key(&was, |c| c.offset)
                && k > at
                && old.clear_of(&resumable.checkpoints[k].counts, &edit)
                && resumable.checkpoints[k].moment.mapped(&edit).is_some_and(|m| m == run.moment())
            {
                kept = Some((i, k));
                break;
            }
        }
        if made.last().is_none_or(|c: &Checkpoint| i - c.turn >= every) {
            made.push(run.checkpoint(analysis, i));
        }
        if run.actions > budget {
            // The old replay was never touched.
            run.base = Counts::default();
            return Err(NotResumed::OverBudget);
        }
        if !pause() {
            // Nor here.
            run.base = Counts::default();
            return Err(NotResumed::Stopped);
        }
        played += 1;
        match run.play_turn(turn, &options) {
            Flow::Next => {}
            Flow::Stop | Flow::Cancelled => break,
        }
    }
    let actions = run.actions;
    let kept_the_rest = kept.is_some();
    let kept_after = kept.map_or(0, |(_, k)| replay.events.len() - resumable.checkpoints[k].counts.events);
    let events_kept = (from.counts.events, kept_after);
    match kept {
        Some((i, k)) => {
            // The old replay from checkpoint k on is this one's from turn i on, moved by the edit:
            // what the replay made replaces the old outputs between the two checkpoints.
            let old = resumable.checkpoints[k].counts;
            let now = run.counts();
            let map = |span: Span| edit.map_span(span).unwrap_or(span);
            splice(&mut replay.events, from.counts.events..old.events, &mut run.r.events, |e| {
                e.span = map(e.span)
            });
            splice(&mut resumable.findings, from.counts.findings..old.findings, &mut run.r.findings, |f| {
                f.span = map(f.span)
            });
            splice(&mut replay.steps, from.counts.steps..old.steps, &mut run.r.steps, |s| s.map(map));
            splice(&mut replay.filled, from.counts.filled..old.filled, &mut run.r.filled, |f| {
                f.span = map(f.span)
            });
            // The old checkpoints from k on, moved in place; those between the one replayed from
            // and k are replaced by the ones made on the way.
            let turns_moved = i as isize - resumable.checkpoints[k].turn as isize;
            let mut end = resumable.checkpoints.len();
            for (n, c) in resumable.checkpoints.iter_mut().enumerate().skip(k) {
                // A span a later checkpoint holds comes from the one just compared or from a
                // later turn, so it is clear of the edit; were it not, the checkpoints end here
                // (fewer checkpoints replay more, never wrongly).
                if !c.moment.shift(&edit) {
                    end = n;
                    break;
                }
                let moved = |n: usize, o: usize, now: usize| n - o + now;
                c.turn = c.turn.wrapping_add_signed(turns_moved);
                c.offset = turns.get(c.turn).map_or(usize::MAX, |t| t.span.start);
                c.after = depends_on(analysis, c.turn);
                c.counts = Counts {
                    events: moved(c.counts.events, old.events, now.events),
                    findings: moved(c.counts.findings, old.findings, now.findings),
                    steps: moved(c.counts.steps, old.steps, now.steps),
                    filled: moved(c.counts.filled, old.filled, now.filled),
                };
            }
            resumable.checkpoints.truncate(end);
            resumable.checkpoints.splice(at..k, made);
            replay.findings.clone_from(&resumable.findings);
            replay.findings.sort_by_key(|f| (f.span.start, f.span.end));
        }
        None => {
            resumable.checkpoints.truncate(at);
            resumable.checkpoints.extend(made);
            let out = run.end_unsorted();
            replay.events.truncate(from.counts.events);
            replay.events.extend(out.events);
            resumable.findings.truncate(from.counts.findings);
            resumable.findings.extend(out.findings);
            replay.steps.truncate(from.counts.steps);
            replay.steps.extend(out.steps);
            replay.filled.truncate(from.counts.filled);
            replay.filled.extend(out.filled);
            replay.summary = out.summary;
            replay.stopped = out.stopped;
            replay.tables = out.tables;
            replay.probes = out.probes;
            replay.assault_probes = out.assault_probes;
            replay.cancelled = out.cancelled;
            replay.findings.clone_from(&resumable.findings);
            replay.findings.sort_by_key(|f| (f.span.start, f.span.end));
        }
    }
    resumable.run.base = Counts::default();
    Ok(Resumed { from_turn: from.turn, turns: played, actions, kept_the_rest, events_kept })
}

/// Put `new` where `old[range]` was, and move what follows by `moved`.
fn splice<T>(old: &mut Vec<T>, range: std::ops::Range<usize>, new: &mut Vec<T>, moved: impl Fn(&mut T)) {
    let after = range.start + new.len();
    old.splice(range, new.drain(..));
    old[after..].iter_mut().for_each(moved);
}

/// The old replay's outputs.
struct Outputs<'a> {
    events: &'a [ReplayEvent],
    findings: &'a [Finding],
    steps: &'a [Step],
    filled: &'a [Filled],
}

impl Outputs<'_> {
    /// Whether every span of the old outputs from the checkpoint with these counts on is clear
    /// of the edit, so they can be moved with it.
    fn clear_of(&self, at: &Counts, edit: &Edit) -> bool {
        let clear = |span: Span| edit.map_span(span).is_some();
        let (Some(events), Some(findings), Some(steps), Some(filled)) = (
            self.events.get(at.events..),
            self.findings.get(at.findings..),
            self.steps.get(at.steps..),
            self.filled.get(at.filled..),
        ) else {
            return false;
        };
        events.iter().all(|e| clear(e.span))
            && findings.iter().all(|f| clear(f.span))
            && steps.iter().all(|s| s.span().is_none_or(clear))
            && filled.iter().all(|f| clear(f.span))
    }
}

impl Step {
    /// The span this heading or action stands for, if it has one.
    fn span(&self) -> Option<Span> {
        match self {
            Step::Action { span, .. } | Step::EndOfTurn(span) | Step::Reveal { span, .. } => Some(*span),
            Step::Turn { .. } | Step::Phase(_) => None,
        }
    }

    /// Move its span.
    fn map(&mut self, map: impl Fn(Span) -> Span) {
        match self {
            Step::Action { span, .. } | Step::EndOfTurn(span) | Step::Reveal { span, .. } => {
                *span = map(*span)
            }
            Step::Turn { .. } | Step::Phase(_) => {}
        }
    }
}

#[cfg(test)]
#[path = "resume_tests.rs"]
mod tests;
