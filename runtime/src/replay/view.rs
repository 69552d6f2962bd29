//! A replay as one side saw the game (Hidden Deployment, Ch13 4.0, module `hidden_deployment`):
//! `dotc replay --as SIDE`.
//!
//! While an enemy blind stands, that side knows only a token: not whether it is real or a dummy,
//! nor the brigade under it. Its view of a replay ([`Replay::as_seen_by`]) therefore leaves out
//! every action that names a unit or a brigadier still hidden under an enemy blind (the replay
//! marks them as it plays, before each action: `Step::Action::secret_of`) with its events, every
//! other event naming one of them, and, in the summary, the hidden units and brigades; an enemy
//! blind shows as "blind CB at (x, y)", and its moves as the replay's "blind CB moves ... to
//! (x, y)". From its reveal on (the `Step::Reveal` the replay writes after a reveal), the brigade
//! shows as any other, and a dummy as revealed and removed. A side's own blinds show in full.
//!
//! The findings are not filtered: they are the umpire's (`dotc replay` says so in its help).

use std::fmt::Write;

use serde::Serialize;

use super::{Replay, ReplayEvent, Step};
use crate::engine::blinds::Hides;
use crate::engine::state::GameState;
use crate::engine::{Event, What};

/// A blind of Hidden Deployment (Ch13 4.0) as the reader of a replay may know it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlindSummary {
    pub name: String,
    /// The side it belongs to.
    pub side: String,
    /// The centre of the token, in inches: where it stood when it was revealed, or stands now.
    pub at: (f64, f64),
    pub hides: BlindHides,
    pub revealed: bool,
}

/// What a blind hides, as the reader may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlindHides {
    /// This brigade.
    Brigade(String),
    /// Nothing: a dummy.
    Dummy,
    /// Not known: an enemy blind not yet revealed, in a side's view.
    Unknown,
}

impl std::fmt::Display for BlindSummary {
    /// "blind CB (confederate) at (20, 34)", "blind B1 (union) at (20, 19): Ames, revealed",
    /// "blind CD1 (confederate) at (29, 34): a dummy, revealed and removed".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (x, y) = self.at;
        write!(f, "blind {} ({}) at ({x}, {y})", self.name, self.side)?;
        match (&self.hides, self.revealed) {
            (BlindHides::Unknown, _) => Ok(()),
            (BlindHides::Brigade(b), false) => write!(f, ": {b}"),
            (BlindHides::Brigade(b), true) => write!(f, ": {b}, revealed"),
            (BlindHides::Dummy, false) => write!(f, ": a dummy"),
            (BlindHides::Dummy, true) => write!(f, ": a dummy, revealed and removed"),
        }
    }
}

/// What a replay keeps of the blinds for its sides' views: the sides, each blind as deployed and
/// as it stands at the end, and the names each real blind hides.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Sight {
    /// The sides, by index (the game state's order).
    sides: Vec<String>,
    /// Each blind as deployed, in full.
    start: Vec<BlindSummary>,
    /// Each blind at the end of the replay, in full (set by the run's end).
    pub(super) end: Vec<BlindSummary>,
    /// For each blind (the same order): its side's index and the names it hides: its brigade,
    /// the brigade's units and its brigadiers (none for a dummy).
    hidden: Vec<(usize, Vec<String>)>,
}

impl Sight {
    /// The blinds of a game as it is set up.
    pub(super) fn of(state: &GameState) -> Sight {
        let hidden = state
            .blinds
            .iter()
            .map(|blind| {
                let mut names = Vec::new();
                if let Hides::Real(b) = blind.hides
                    && let Some(brigade) = state.brigade(b)
                {
                    names.push(brigade.name.clone());
                    names.extend(state.units.iter().filter(|u| u.brigade == Some(b)).map(|u| u.name.clone()));
                    let leader = brigade.brigadier.and_then(|l| state.leaders.get(l.0));
                    names.extend(leader.map(|l| l.name.clone()));
                }
                (blind.side.0, names)
            })
            .collect();
        Sight {
            sides: state.sides.iter().map(|s| s.name.clone()).collect(),
            start: Sight::blinds_now(state),
            end: Vec::new(),
            hidden,
        }
    }

    /// Every blind as it stands in `state`, in full.
    pub(super) fn blinds_now(state: &GameState) -> Vec<BlindSummary> {
        state
            .blinds
            .iter()
            .map(|blind| BlindSummary {
                name: blind.name.clone(),
                side: state.sides.get(blind.side.0).map(|s| s.name.clone()).unwrap_or_default(),
                at: blind.position,
                hides: match blind.hides {
                    Hides::Real(b) => {
                        BlindHides::Brigade(state.brigade(b).map(|b| b.name.clone()).unwrap_or_default())
                    }
                    Hides::Dummy => BlindHides::Dummy,
                },
                revealed: blind.revealed,
            })
            .collect()
    }
}

impl Replay {
    /// The sides of the game, as `dotc replay --as` takes them.
    pub fn sides(&self) -> &[String] {
        &self.sight.sides
    }

    /// The replay as `side` saw the game (Ch13 4.0): see the module's doc. Err, listing the
    /// sides, when the game has no such side. Findings are kept whole (the umpire's).
    pub fn as_seen_by(&self, side: &str) -> Result<Replay, String> {
        if self.narrated.is_some() {
            return Err("a replay narrated as it was played keeps no events to take a side's view of".into());
        }
        let Some(me) = self.sight.sides.iter().position(|s| s == side) else {
            return Err(format!(
                "the game has no side `{side}`; its sides are {}",
                self.sight.sides.join(", ")
            ));
        };
        // The span of the action that revealed each blind, if one did.
        let revealed_at: Vec<Option<dotc_lang::ast::Span>> = self
            .sight
            .start
            .iter()
            .map(|b| {
                self.steps.iter().find_map(|s| match s {
                    Step::Reveal { blind, span } if *blind == b.name => Some(*span),
                    _ => None,
                })
            })
            .collect();
        // The actions that name an enemy's secret, left out with what they did.
        let hidden_actions: Vec<dotc_lang::ast::Span> = self
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Action { span, secret_of, .. } if secret_of.iter().any(|&o| o != me) => Some(*span),
                _ => None,
            })
            .collect();
        // The names an enemy blind still hides at an event: those of each enemy real blind not
        // revealed by an action before it (an action's events, and a turn's end, are after
        // every action they follow in the log).
        let secret_at = |event: &ReplayEvent, name: &str| {
            self.sight.hidden.iter().zip(&revealed_at).any(|((owner, names), at)| {
                *owner != me
                    && at.is_none_or(|at| event.span.end <= at.start)
                    && names.iter().any(|n| n == name)
            })
        };
        let events = self
            .events
            .iter()
            .filter(|e| !hidden_actions.contains(&e.span))
            .filter(|e| !names_of(&e.event).iter().any(|n| secret_at(e, n)))
            .cloned()
            .collect();
        let steps = self
            .steps
            .iter()
            .filter(|s| !matches!(s, Step::Action { span, .. } if hidden_actions.contains(span)))
            .cloned()
            .collect();
        // The end: the hidden brigades of enemy blinds still standing are not shown.
        let standing_secrets: Vec<&String> = self
            .sight
            .hidden
            .iter()
            .zip(&revealed_at)
            .filter(|((owner, _), at)| *owner != me && at.is_none())
            .flat_map(|((_, names), _)| names)
            .collect();
        let mut summary = self.summary.clone();
        summary.units.retain(|u| !standing_secrets.contains(&&u.name));
        summary.brigades.retain(|b| !standing_secrets.contains(&&b.name));
        let ends = if self.sight.end.is_empty() { &self.sight.start } else { &self.sight.end };
        summary.blinds = ends.iter().map(|b| self.seen(b, side)).collect();
        let filled = self.filled.iter().filter(|f| !hidden_actions.contains(&f.span)).cloned().collect();
        Ok(Replay {
            events,
            findings: self.findings.clone(),
            summary,
            filled,
            tables: self.tables.clone(),
            stopped: self.stopped,
            probes: Vec::new(),
            assault_probes: Vec::new(),
            steps,
            cancelled: self.cancelled,
            sight: self.sight.clone(),
            seen_by: Some(side.to_string()),
            narrated: None,
            telling: self.telling,
            // The whole game's state shows what a side may not see: never in a side's view.
            moment: None,
            // A side's view keeps no frames: their tables name what the blinds hide.
            frames: Vec::new(),
            // Nor the forced moves owed: they name units a blind may hide.
            owed: Vec::new(),
        })
    }

    /// A blind as `side` knows it: its own in full, an enemy's what it hides once revealed.
    fn seen(&self, blind: &BlindSummary, side: &str) -> BlindSummary {
        let mut seen = blind.clone();
        if blind.side != side && !blind.revealed {
            seen.hides = BlindHides::Unknown;
        }
        seen
    }

    /// The first lines of a side's narrative: whose view it is and the blinds as deployed.
    pub(super) fn view_heading(&self, side: &str) -> String {
        let mut out = format!(
            "The game as {side} saw it (Ch13 4.0): enemy blinds not yet revealed show as blinds only; the findings are the umpire's\n"
        );
        if !self.sight.start.is_empty() {
            out.push_str("Blinds deployed\n");
            for blind in &self.sight.start {
                let _ = writeln!(out, "      {}", self.seen(blind, side));
            }
        }
        out
    }
}

/// The unit, brigade and leader names an event gives (a note's text is not read: a note goes
/// with its action, left out when the action is).
fn names_of(event: &Event) -> Vec<&str> {
    match &event.what {
        // A move is told as a note was, with its action.
        What::Rolled { .. } | What::Note { .. } | What::Moved { .. } => Vec::new(),
        What::Volley { firer, target, .. } | What::Unrolled { firer, target, .. } => vec![firer, target],
        What::Hits { firer, .. } => vec![firer],
        What::ShockTrigger { target, .. } | What::ShockIgnored { target, .. } => vec![target],
        What::Reroll { unit, .. }
        | What::Test { unit, .. }
        | What::Saves { unit, .. }
        | What::NoSave { unit, .. }
        | What::ScreenHit { unit, .. }
        | What::UnsavedHits { unit, .. }
        | What::StandsLost { unit, .. }
        | What::MicroHit { unit, .. }
        | What::Shattered { unit }
        | What::Removed { unit, .. }
        | What::MarkerPlaced { unit, .. }
        | What::MarkerRemoved { unit, .. }
        | What::HealthChanged { unit, .. }
        | What::FallBack { unit, .. }
        | What::Retreat { unit, .. }
        | What::Stalled { unit, .. }
        | What::ShockScore { unit, .. }
        | What::Consolidate { unit, .. }
        | What::Pursuit { unit, .. }
        | What::Breakthrough { unit, .. }
        | What::Refused { unit, .. } => vec![unit],
        What::Tally { brigade, .. } | What::BrigadeChanged { brigade, .. } | What::Pips { brigade, .. } => {
            vec![brigade]
        }
        What::Contact { attacker, defender, .. } | What::Melee { attacker, defender, .. } => {
            vec![attacker, defender]
        }
        What::LeaderCasualty { leader, .. } => vec![leader],
        What::LeaderReplaced { leader, by, .. } => vec![leader, by],
    }
    .into_iter()
    .map(String::as_str)
    .collect()
}
