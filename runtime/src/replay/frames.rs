//! The game step by step, for a page that steps through it (`dotc replay --html`, issue 21):
//! a [`Frame`] at the start of the game, after every action of the log and at every turn's end,
//! each with the events that step made, the table as it left it and every unit's and brigade's
//! state then.
//!
//! Kept only when asked ([`super::ReplayOptions::frames`]). A frame's events are a stretch of
//! [`super::Replay::events`] in the order they happened, every event in one frame: those of
//! its action and what the replay made after it before the next action began (a fall back or
//! pursuit the log left out, RULE-07-1.5, Ch13 12.0; the phase's end), so the table of a frame
//! is the table after exactly its events. What the scenario's scripts do at a turn's or phase's
//! start is a frame of its own, as it is a step of the narrative. The frames describe the game;
//! they judge nothing.

use std::ops::Range;

use dotc_lang::ast::{PhaseKind, Span};

use super::{Game, Replayer, Step, Summary, Table};

/// What a frame is a step of.
#[derive(Clone, Debug, PartialEq)]
pub enum FrameKind {
    /// The table as deployed, with what the game header did before turn 1 (Ch13 1.0's bids).
    Start,
    /// One action of the log: its 1-based line (0 without the source), its span, and its text
    /// as the narrative quotes it.
    Action { line: usize, span: Span, text: String },
    /// What the scenario's scripts did at a turn's or phase's start: the line of its heading,
    /// its span, and the narrative's words for it ("the command phase begins: scenario script").
    Scripts { line: usize, span: Span, text: String },
    /// The end of a turn (Ch16 1.0 Phase 5's end: smoke clearing, retreats, brigade states);
    /// the span is the turn's.
    EndOfTurn { span: Span },
}

/// One step of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub kind: FrameKind,
    /// The turn (0 before the first) and the side whose turn it is ("" before the first).
    pub turn: u32,
    pub side: String,
    /// The phase of an action; None at the start and at a turn's end.
    pub phase: Option<PhaseKind>,
    /// Its events: indices into [`super::Replay::events`].
    pub events: Range<usize>,
    /// The table after its events.
    pub table: Table,
    /// Every unit's stands, health, micro-hit and markers, and every brigade's losses and
    /// state, after its events.
    pub roster: Summary,
}

/// The frames made so far and the one under way.
#[derive(Clone, Debug, Default)]
pub(super) struct Recorder {
    pub(super) done: Vec<Frame>,
    /// The action under way: its kind, turn, side and phase.
    open: Option<(FrameKind, u32, String, Option<PhaseKind>)>,
    /// The events the frames so far hold: the next frame's start from here, so every event is
    /// in exactly one frame.
    told: usize,
}

impl Recorder {
    /// The first frame: the table as set up, with the events before turn 1.
    pub(super) fn start(game: &Game, r: &Replayer<'_>) -> Recorder {
        let mut recorder = Recorder::default();
        recorder.push(game, r, (FrameKind::Start, 0, String::new(), None));
        recorder
    }

    /// An action begins (after [`Replayer::begin_action`] wrote its step): the action before
    /// it, if any, is closed first, with what was made after it (an owed fall back).
    pub(super) fn action(&mut self, game: &Game, r: &Replayer<'_>) {
        self.close(game, r);
        let kind = match r.steps.last() {
            Some(Step::Action { line, span, text, .. }) => {
                FrameKind::Action { line: *line, span: *span, text: text.clone() }
            }
            _ => FrameKind::Action { line: r.line, span: r.span, text: String::new() },
        };
        self.open = Some((kind, r.turn, r.side.to_string(), Some(r.phase)));
    }

    /// The action under way ends here: its frame takes the events made since the last frame.
    pub(super) fn close(&mut self, game: &Game, r: &Replayer<'_>) {
        if let Some(open) = self.open.take() {
            self.push(game, r, open);
        }
    }

    /// A turn's or phase's scenario scripts have run (the frame before them closed): when they
    /// did something, the narrative shows it as a step of its own from `steps` on, and so does
    /// a frame.
    pub(super) fn scripts(&mut self, game: &Game, r: &Replayer<'_>, steps: usize, phase: Option<PhaseKind>) {
        let step = r.steps.get(steps..).unwrap_or(&[]).iter().find_map(|s| match s {
            Step::Action { line, span, text, .. } => {
                Some(FrameKind::Scripts { line: *line, span: *span, text: text.clone() })
            }
            _ => None,
        });
        if let Some(kind) = step {
            self.push(game, r, (kind, r.turn, r.side.to_string(), phase));
        }
    }

    /// A turn's end, after its end-of-turn events.
    pub(super) fn end_of_turn(&mut self, game: &Game, r: &Replayer<'_>, span: Span) {
        self.close(game, r);
        self.push(game, r, (FrameKind::EndOfTurn { span }, r.turn, r.side.to_string(), None));
    }

    fn push(
        &mut self,
        game: &Game,
        r: &Replayer<'_>,
        (kind, turn, side, phase): (FrameKind, u32, String, Option<PhaseKind>),
    ) {
        let to = r.events.len();
        let table = game.table(turn, phase.unwrap_or(PhaseKind::Status));
        let roster = Summary::of(&game.state, &game.rules);
        self.done.push(Frame { kind, turn, side, phase, events: self.told.min(to)..to, table, roster });
        self.told = to;
    }
}
