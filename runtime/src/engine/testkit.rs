//! Test helpers: a small table with two sides and a brigade each, and recorded dice.

use crate::dice::{Purpose, RecordedDice};
use crate::rulings::Rulings;

use super::Rules;
use super::state::{Arm, BrigadeId, GameState, LeaderId, LeaderRank, SideId, Unit, UnitId};

/// The stdlib with the given rulings and modules.
pub(crate) fn rules_with(rulings: Rulings, modules: &[&str]) -> Rules {
    let mut rules = Rules::stdlib(rulings).expect("the stdlib has every entry the engine needs");
    rules.modules = modules.iter().map(|m| m.to_string()).collect();
    rules
}

/// The stdlib under the default rulings (RULINGS.md defaults), no modules.
pub(crate) fn defaults() -> Rules {
    rules_with(Rulings::default(), &[])
}

/// The stdlib under the `as_printed` preset.
pub(crate) fn as_printed() -> Rules {
    rules_with(Rulings::as_printed(), &[])
}

/// Dice recorded per purpose, in the order the engine will ask for them.
pub(crate) fn dice(lists: &[(Purpose, &[i64])]) -> RecordedDice {
    RecordedDice::labelled(lists.iter().map(|(p, f)| (*p, f.to_vec())))
}

/// Two sides, Blue and Red, with one brigade each ("Blue Brigade", "Red Brigade").
pub(crate) struct Table {
    pub state: GameState,
    pub blue: SideId,
    pub red: SideId,
    pub blue_brigade: BrigadeId,
    pub red_brigade: BrigadeId,
}

impl Table {
    pub fn new() -> Table {
        let mut state = GameState { turn: 1, ..GameState::default() };
        let blue = state.add_side("Blue");
        let red = state.add_side("Red");
        let blue_brigade = state.add_brigade("Blue Brigade", blue);
        let red_brigade = state.add_brigade("Red Brigade", red);
        Table { state, blue, red, blue_brigade, red_brigade }
    }

    fn brigade_of(&self, side: SideId) -> BrigadeId {
        if side == self.blue { self.blue_brigade } else { self.red_brigade }
    }

    /// An infantry regiment of the side's brigade, in line unless `formation` says otherwise.
    pub fn infantry(
        &mut self,
        name: &str,
        side: SideId,
        stands: u32,
        quality: &str,
        weapon: &str,
        formation: &str,
    ) -> UnitId {
        let brigade = self.brigade_of(side);
        let mut unit = Unit::new(name, side, Arm::Infantry, stands, quality, weapon, formation);
        if let Some(q) = dotc_lang::stdlib().quality(quality) {
            unit.traits.extend(q.traits.iter().cloned());
        }
        self.state.add_unit(unit, Some(brigade))
    }

    /// An unlimbered battery of the side's brigade.
    pub fn battery(&mut self, name: &str, side: SideId, sections: u32, weapon: &str) -> UnitId {
        let brigade = self.brigade_of(side);
        let unit =
            Unit::new(name, side, Arm::Battery { limbered: false }, sections, "regular", weapon, "line");
        self.state.add_unit(unit, Some(brigade))
    }

    /// The side's brigadier, with a rating.
    pub fn brigadier(&mut self, name: &str, side: SideId, rating: &str) -> LeaderId {
        let brigade = self.brigade_of(side);
        self.state.add_leader(name, side, LeaderRank::Brigadier, rating, Some(brigade))
    }

    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.state.units[id.0]
    }

    pub fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.state.units[id.0]
    }
}
