//! Where a game log ends, as the table-side assistant shows it and plays on from (`dotc play`,
//! issue 20): every unit's side, brigade, strength, formation and what it has done this turn,
//! and each brigade's pips and state, read off the replay's own game state at its last action.
//! Nothing here judges a rule; it only reports the state the rules core left.

use crate::engine::state::{Arm, UnitId};

use super::{Game, Table};

/// The game where its log ends ([`super::ReplayOptions::moment`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    /// The table: each unit's stands and markers, each leader's place, the turn and phase.
    pub table: Table,
    /// The same units in the same order as `table.units`, with what a player needs to pick an
    /// action for them.
    pub units: Vec<MomentUnit>,
    pub brigades: Vec<MomentBrigade>,
    /// The sides, in the scenario's order.
    pub sides: Vec<String>,
}

/// One unit where the log ends.
#[derive(Clone, Debug, PartialEq)]
pub struct MomentUnit {
    pub name: String,
    pub side: String,
    pub brigade: Option<String>,
    /// `infantry`, `battery`, `cavalry`.
    pub arm: &'static str,
    pub stands: u32,
    pub starting_stands: u32,
    /// A micro-hit carried (RULE-05-3.3).
    pub micro_hit: u8,
    pub formation: String,
    pub weapon: String,
    /// On the table and not removed.
    pub present: bool,
    /// What it has done in the turn under way (Ch16 5.1: a unit that moved may not fire).
    pub moved: bool,
    pub fired: bool,
    pub assaulted: bool,
}

/// One brigade where the log ends.
#[derive(Clone, Debug, PartialEq)]
pub struct MomentBrigade {
    pub name: String,
    pub side: String,
    pub brigadier: Option<String>,
    /// Staff pips left this turn and banked (Ch16 2.1, 2.3).
    pub pips: u32,
    pub banked: u32,
    /// Fresh, Hesitant or Broken (Ch16 8.2).
    pub status: &'static str,
    /// Stands lost against the brigade's clock.
    pub losses: u32,
    pub starting_stands: u32,
}

impl Game {
    /// The game as it stands now, for [`super::Replay::moment`].
    pub(super) fn moment(&self, table: Table) -> Moment {
        let side = |id: crate::engine::state::SideId| {
            self.state.sides.get(id.0).map(|s| s.name.clone()).unwrap_or_default()
        };
        let units = self
            .state
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| MomentUnit {
                name: u.name.clone(),
                side: side(u.side),
                brigade: u.brigade.and_then(|b| self.state.brigade(b)).map(|b| b.name.clone()),
                arm: match u.arm {
                    Arm::Infantry => "infantry",
                    Arm::Battery { .. } => "battery",
                    Arm::Cavalry { .. } => "cavalry",
                },
                stands: u.stands,
                starting_stands: u.starting_stands,
                micro_hit: u.micro_hit,
                formation: u.formation.clone(),
                weapon: u.weapon.clone(),
                present: u.on_table && !u.removed && self.bodies.contains_key(&UnitId(i)),
                moved: u.turn.moved,
                fired: u.turn.fired,
                assaulted: u.turn.assaulted,
            })
            .collect();
        let brigades = self
            .state
            .brigades
            .iter()
            .map(|b| MomentBrigade {
                name: b.name.clone(),
                side: side(b.side),
                brigadier: b
                    .brigadier
                    .and_then(|l| self.state.leader(l))
                    .filter(|l| !l.removed)
                    .map(|l| l.name.clone()),
                pips: b.pips,
                banked: b.banked,
                status: b.status.label(),
                losses: b.losses,
                starting_stands: b.starting_stands,
            })
            .collect();
        Moment { table, units, brigades, sides: self.state.sides.iter().map(|s| s.name.clone()).collect() }
    }
}
