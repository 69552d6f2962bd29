//! Hidden Deployment (module `hidden_deployment`, Ch13 4.0, dotc D27, D28): blind tokens
//! deployed instead of the miniatures, one per real brigade and two dummies a side.
//!
//! - A blind is a body of its own in the game state ([`GameState::blinds`]): its name, its side,
//!   where it stands and what it hides ([`Hides::Real`] a brigade, or [`Hides::Dummy`]). The
//!   units of a hidden brigade are off the table ([`super::state::Unit::on_table`] false) until
//!   their blind is revealed.
//! - It moves in Phase 2 at a flat distance (the rule data's `maneuver blind` `distance`, 9")
//!   over any ground that is not impassable ([`judge_move`]; the replay judges the ground).
//! - An enemy unit or enemy blind within the spotting range (`spotting`, 12") unmasks it
//!   ([`spotted`]); its owner may also unmask it to shoot or charge. A revealed dummy is removed;
//!   a revealed real blind is replaced by its brigade's units, each placed with its colours within
//!   the `within` of the blind's centre (6", dotc D28), in any legal formation and facing
//!   ([`placement`]).
//! - A unit still under a blind neither fires nor charges ([`still_hidden`]).
//!
//! What the table shows (the path's ground, the distance to each enemy) is the replay's to
//! measure; the engine keeps the blinds and judges what the numbers allow.

use serde::Serialize;

use super::events::{Event, What};
use super::state::{BrigadeId, GameState, SideId, UnitId};
use super::{EngineError, Rules};

/// The module of Ch13 4.0.
pub const HIDDEN_DEPLOYMENT: &str = dotc_lang::rulings::Module::HiddenDeployment.name();

/// The rule of this module, for events and findings.
pub const RULE: &str = "Ch13 4.0";

/// A blind token (Ch13 4.0).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Blind {
    pub name: String,
    pub side: SideId,
    /// The centre of the token, in inches.
    pub position: (f64, f64),
    pub hides: Hides,
    /// Revealed: a dummy is gone, a real blind's units are (being) placed.
    pub revealed: bool,
    /// An enemy within spotting range has unmasked it and its reveal is owed: what spotted it.
    pub owed: Option<String>,
    /// The owed reveal was not made before the next action, and that was said once.
    pub overlooked: bool,
    /// The game turn of its last move, and the inches it has moved in that turn.
    pub moved: (u32, f64),
    /// A real blind revealed in this phase: its units are owed their placement before the phase
    /// ends ([`unplaced`], dotc D28).
    pub placing: bool,
}

impl Blind {
    /// A standing blind of `side` at `position`, hiding `hides`.
    pub fn new(name: &str, side: SideId, position: (f64, f64), hides: Hides) -> Blind {
        Blind {
            name: name.to_string(),
            side,
            position,
            hides,
            revealed: false,
            owed: None,
            overlooked: false,
            moved: (0, 0.0),
            placing: false,
        }
    }
}

/// What a blind hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hides {
    /// A real brigade, off the table until the reveal.
    Real(BrigadeId),
    /// Nothing: removed when revealed.
    Dummy,
}

impl Blind {
    /// Still on the table as a token.
    pub fn standing(&self) -> bool {
        !self.revealed
    }

    pub fn is_dummy(&self) -> bool {
        self.hides == Hides::Dummy
    }
}

/// The blind named `name`.
pub fn blind_named<'s>(state: &'s GameState, name: &str) -> Option<&'s Blind> {
    state.blinds.iter().find(|b| b.name == name)
}

/// The blind a unit's brigade is (or was) hidden under.
pub fn blind_of(state: &GameState, unit: UnitId) -> Option<&Blind> {
    let brigade = state.unit(unit)?.brigade?;
    state.blinds.iter().find(|b| b.hides == Hides::Real(brigade))
}

/// The blind a brigadier's brigade is (or was) hidden under.
pub fn blind_of_leader<'s>(state: &'s GameState, leader: &str) -> Option<&'s Blind> {
    let id = state.leader_named(leader)?;
    let brigade = state.brigades.iter().position(|b| b.brigadier == Some(id)).map(BrigadeId)?;
    state.blinds.iter().find(|b| b.hides == Hides::Real(brigade))
}

/// Ch13 4.0: the blind `unit` is still hidden under, if it is (not yet revealed).
pub fn still_hidden(state: &GameState, unit: UnitId) -> Option<&Blind> {
    blind_of(state, unit).filter(|b| b.standing())
}

/// Ch13 4.0: a unit under a blind may not `what` (fire, charge) until its owner unmasks it.
pub fn may_not_act(state: &GameState, unit: UnitId, what: &str) -> Result<(), EngineError> {
    match still_hidden(state, unit) {
        Some(blind) => Err(EngineError::Illegal {
            unit: state.unit(unit).map(|u| u.name.clone()).unwrap_or_default(),
            why: format!(
                "{what} while hidden under the blind \"{}\": its owner unmasks it first",
                blind.name
            ),
            rule: RULE,
        }),
        None => Ok(()),
    }
}

/// Ch13 4.0: a blind's move of `length` inches (its path, waypoints and all), in Phase 2 at the
/// flat rate of the rule data (`maneuver blind`, 9"), whatever the ground it crosses but
/// impassable ground, which the replay judges. Moves of one blind in one turn add up (dotc D28).
/// Err when it goes farther.
pub fn judge_move(rules: &Rules, blind: &Blind, turn: u32, length: f64) -> Result<(), EngineError> {
    let most = rules.tables.blind_move;
    let before = if blind.moved.0 == turn { blind.moved.1 } else { 0.0 };
    if !blind.standing() {
        return Err(EngineError::Illegal {
            unit: format!("blind \"{}\"", blind.name),
            why: "move: it has been revealed and is no longer on the table".to_string(),
            rule: RULE,
        });
    }
    if crate::geometry::measured(before + length) > crate::geometry::measured(most) {
        let earlier = if before > 0.0 { format!(" after {before:.1}\" this turn") } else { String::new() };
        return Err(EngineError::Illegal {
            unit: format!("blind \"{}\"", blind.name),
            why: format!(
                "move {length:.1}\"{earlier}: a blind moves at most {most}\" a turn over any ground"
            ),
            rule: RULE,
        });
    }
    Ok(())
}

/// Ch13 4.0: move the blind `name` to `to`, `length` inches, in game turn `turn` (judged first
/// with [`judge_move`]).
pub fn move_to(state: &mut GameState, name: &str, to: (f64, f64), turn: u32, length: f64) {
    if let Some(blind) = state.blinds.iter_mut().find(|b| b.name == name) {
        let before = if blind.moved.0 == turn { blind.moved.1 } else { 0.0 };
        blind.moved = (turn, before + length);
        blind.position = to;
    }
}

/// Ch13 4.0: whether an enemy `distance` inches away (from the blind's centre to the nearest part
/// of an enemy unit, or to an enemy blind's centre, dotc D28) is within visual spotting range.
pub fn spotted(rules: &Rules, distance: f64) -> bool {
    crate::geometry::measured(distance) <= crate::geometry::measured(rules.tables.blind_spotting)
}

/// Ch13 4.0: reveal the blind `name`. A dummy is removed from the table; a real blind's brigade
/// is then placed unit by unit ([`placement`]). Err when there is no such standing blind.
pub fn reveal(rules: &Rules, state: &mut GameState, name: &str) -> Result<Vec<Event>, EngineError> {
    let within = rules.tables.blind_reveal_within;
    let Some(blind) = state.blinds.iter_mut().find(|b| b.name == name) else {
        return Err(EngineError::Unknown(format!("blind \"{name}\"")));
    };
    if blind.revealed {
        return Err(EngineError::Illegal {
            unit: format!("blind \"{name}\""),
            why: "be revealed again: it was revealed already".to_string(),
            rule: RULE,
        });
    }
    blind.revealed = true;
    blind.owed = None;
    blind.placing = !blind.is_dummy();
    let text = match blind.hides {
        Hides::Dummy => format!("blind {name} is revealed: a dummy, removed from the table"),
        Hides::Real(b) => {
            let brigade = state.brigade(b).map(|b| b.name.clone()).unwrap_or_default();
            format!("blind {name} is revealed: {brigade}, its units placed within {within}\" of it")
        }
    };
    Ok(vec![Event::new(What::Note { text }, RULE)])
}

/// dotc D28: whether a revealed brigade's unit may be placed with its colours `distance` inches
/// from its blind's centre (the rule data's `maneuver blind` `within`, 6"). Err when it may not.
pub fn placement(rules: &Rules, blind: &Blind, unit: &str, distance: f64) -> Result<(), EngineError> {
    let within = rules.tables.blind_reveal_within;
    if !blind.revealed {
        return Err(EngineError::Illegal {
            unit: unit.to_string(),
            why: format!(
                "come on: it is hidden under the blind \"{}\", which has not been revealed",
                blind.name
            ),
            rule: RULE,
        });
    }
    if crate::geometry::measured(distance) > crate::geometry::measured(within) {
        return Err(EngineError::Illegal {
            unit: unit.to_string(),
            why: format!(
                "be placed {distance:.1}\" from its blind \"{}\": a revealed brigade's units are placed within {within}\" of its centre",
                blind.name
            ),
            rule: "Ch13 4.0, dotc D28",
        });
    }
    Ok(())
}

/// What the table shows where a revealed unit is to be placed, as the replay measures it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spot {
    /// Another unit its stands would stand on, and the square inches they would share.
    pub overlaps: Option<(String, f64)>,
    /// The impassable ground it would stand on (an area, or a line across its stands).
    pub impassable: Option<String>,
}

/// Ch13 4.0, dotc D28: a revealed unit is placed where a unit may stand: not on another unit
/// (sharing more than the stacking tolerance, as the scenario check measures it) nor on
/// impassable ground. Err when it may not stand there.
pub fn placement_spot(unit: &str, spot: &Spot) -> Result<(), EngineError> {
    let why = match spot {
        Spot { overlaps: Some((other, area)), .. } => {
            format!("be placed on {other}: its stands would cover {area:.2} sq in of it")
        }
        Spot { impassable: Some(ground), .. } => format!("be placed on impassable ground ({ground})"),
        _ => return Ok(()),
    };
    Err(EngineError::Illegal { unit: unit.to_string(), why, rule: "Ch13 4.0, dotc D28" })
}

/// Ch13 4.0, dotc D28: the units of a revealed real blind still owed their placement: off the
/// table and not removed. Empty for a dummy or a blind still standing.
pub fn unplaced<'s>(state: &'s GameState, blind: &Blind) -> Vec<&'s str> {
    let Hides::Real(brigade) = blind.hides else { return Vec::new() };
    if !blind.revealed {
        return Vec::new();
    }
    state
        .units
        .iter()
        .filter(|u| u.brigade == Some(brigade) && !u.on_table && !u.removed)
        .map(|u| u.name.as_str())
        .collect()
}

#[cfg(test)]
mod tests;
