//! The Wave Attack (module `wave_attack`, Ch13 23.0, dotc D26): two or more regiments of one
//! brigade stacked front to back in one formation, authorised by their brigadier in Phase 1.
//!
//! - A wave stands from its authorisation to the end of the enemy's turn after it ([`in_force`]);
//!   its regiments are listed front to back, the lead first ([`GameState::waves`]).
//! - In the turn it is authorised no regiment of it fires ([`may_not_fire`]).
//! - When a regiment of the wave charges and the charge ends short (stalled by its check, or the
//!   regiment destroyed), the one stacked behind it may complete the charge at the same target
//!   at once, free, through the lead ([`after_charge`], [`surge_at`]; the assault's payment
//!   [`super::assault::Payment::Surge`]). The defender has fired its closing volley at the lead;
//!   the surge draws none.
//! - Every hit an enemy battery's solid shot or shell (any band but canister's) scores on a
//!   regiment of the wave puts one stray hit on the regiment stacked behind it ([`stray_hits`]:
//!   an unsaved hit, no save).
//!
//! What the table must show (the regiments stacked within 1" directly behind one another) is the
//! replay's to judge; the engine keeps the wave and plays what it does.

use serde::Serialize;

use super::events::{Event, What};
use super::morale;
use super::state::{GameState, SideId, UnitId};
use super::{EngineError, Rules};

/// The module of Ch13 23.0.
pub const WAVE_ATTACK: &str = dotc_lang::rulings::Module::WaveAttack.name();

/// The rule of this module, for events and findings.
const RULE: &str = "Ch13 23.0, dotc D26";

/// An authorised wave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wave {
    pub side: SideId,
    /// The game turn of the Phase 1 that authorised it.
    pub turn: u32,
    /// Front to back: the lead first.
    pub units: Vec<UnitId>,
    /// A charge of the wave that ended short, which the next regiment may complete.
    pub surge: Option<Surge>,
}

/// The charge a wave's next regiment may complete (Ch13 23.0 "Continuous Surge").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Surge {
    /// The regiment that may surge.
    pub by: UnitId,
    pub target: UnitId,
    /// The inches the stalled charge was declared at: the surge is the same charge carried on.
    pub distance: f64,
}

/// Whether `wave` is in force in game turn `turn`: its own turn and the enemy's after it.
pub fn in_force(wave: &Wave, turn: u32) -> bool {
    turn >= wave.turn && turn <= wave.turn + 1
}

/// The wave `unit` stands in this turn, if any (the latest authorised).
pub fn wave_of(state: &GameState, unit: UnitId) -> Option<&Wave> {
    state.waves.iter().rev().find(|w| in_force(w, state.turn) && w.units.contains(&unit))
}

/// The regiment stacked directly behind `unit` in its wave.
pub fn behind(state: &GameState, unit: UnitId) -> Option<UnitId> {
    let wave = wave_of(state, unit)?;
    let i = wave.units.iter().position(|&u| u == unit)?;
    wave.units.get(i + 1).copied()
}

/// Ch13 23.0: a regiment of a wave authorised this turn may not fire in it.
pub fn may_not_fire(state: &GameState, unit: UnitId) -> bool {
    state.waves.iter().any(|w| w.turn == state.turn && w.units.contains(&unit))
}

/// Ch13 23.0: authorise a wave of `units`, front to back, for `side` in turn `state.turn`. The
/// caller has judged the table (stacked within 1" directly behind) and paid the order; this
/// checks what the state knows: the module, two or more regiments (no battery) of `brigade`, all
/// in one formation, none already in a wave this turn.
pub fn authorise(
    rules: &Rules,
    state: &mut GameState,
    brigade: super::state::BrigadeId,
    units: &[UnitId],
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let illegal = |unit: String, why: String| EngineError::Illegal { unit, why, rule: RULE };
    if !rules.module(WAVE_ATTACK) {
        return Err(illegal("the brigade".into(), "form a wave: the wave_attack module is off".into()));
    }
    if units.len() < 2 {
        return Err(illegal("the wave".into(), "be a wave of fewer than 2 regiments".into()));
    }
    let mut formation: Option<&str> = None;
    let mut side = None;
    for &id in units {
        let u = state.unit(id).ok_or_else(|| EngineError::Unknown(format!("unit #{}", id.0)))?;
        if u.is_battery() || u.removed || !u.on_table {
            return Err(illegal(u.name.clone(), "join a wave: only regiments on the table do".into()));
        }
        if u.brigade != Some(brigade) {
            return Err(illegal(u.name.clone(), "join a wave of another brigade".into()));
        }
        match formation {
            Some(f) if f != u.formation => {
                return Err(illegal(
                    u.name.clone(),
                    format!("join a wave in {}: the wave's regiments are all in {f}", u.formation),
                ));
            }
            _ => formation = Some(&u.formation),
        }
        if state.waves.iter().any(|w| w.turn == state.turn && w.units.contains(&id)) {
            return Err(illegal(u.name.clone(), "join a second wave this turn".into()));
        }
        side = Some(u.side);
    }
    let Some(side) = side else { return Ok(()) };
    let names: Vec<String> = units.iter().filter_map(|&u| state.unit(u).map(|u| u.name.clone())).collect();
    let text = format!("a wave is formed, front to back: {}", names.join(", "));
    events.push(Event::new(What::Note { text }, RULE));
    state.waves.push(Wave { side, turn: state.turn, units: units.to_vec(), surge: None });
    Ok(())
}

/// Ch13 23.0: after `charger` of a wave charged `target` from `distance` and the charge ended
/// short (`short`: stalled or destroyed), the regiment behind it may complete the charge.
pub fn after_charge(state: &mut GameState, charger: UnitId, target: UnitId, distance: f64, short: bool) {
    let turn = state.turn;
    let Some(by) = behind(state, charger) else { return };
    let Some(wave) = state.waves.iter_mut().rev().find(|w| in_force(w, turn) && w.units.contains(&charger))
    else {
        return;
    };
    wave.surge = short.then_some(Surge { by, target, distance });
}

/// The charge `support` may complete at `target`, if a wave's charge ended short before it.
pub fn surge_at(state: &GameState, support: UnitId, target: UnitId) -> Option<Surge> {
    let wave = wave_of(state, support)?;
    wave.surge.filter(|s| s.by == support && s.target == target)
}

/// Ch13 23.0 "The Artillery Magnet": `hits` of solid shot or shell on a regiment of a wave put as
/// many stray hits on `behind`, unsaved. Returns the stands it lost.
pub fn stray_hits(
    rules: &Rules,
    state: &mut GameState,
    behind: UnitId,
    hits: u32,
    events: &mut Vec<Event>,
) -> Result<u32, EngineError> {
    if hits == 0 {
        return Ok(0);
    }
    let name = state.unit(behind).map(|u| u.name.clone()).unwrap_or_default();
    let text = format!("{name}, stacked behind, takes {hits} stray hit{}", if hits == 1 { "" } else { "s" });
    events.push(Event::new(What::Note { text }, RULE));
    morale::take_hits(rules, state, behind, hits, morale::Cause::Fire, events, RULE)
}

#[cfg(test)]
mod tests;
