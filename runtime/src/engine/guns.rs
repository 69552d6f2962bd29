//! Spiking the guns (module `spiking_the_guns`, Ch13 15.0, dotc D16): what becomes of a battery's
//! guns when an infantry regiment beats it in melee.
//!
//! Without the module a battery beaten in melee is overrun and captured, and that is the end of it
//! (Ch8 6.0, RULINGS G14). With it, the crews are still lost but the regiment that won stands
//! among the guns ([`GunsFate::Occupied`]), and in its own next Phase 1 its brigadier says what it
//! does with them:
//!
//! - spike them (the `spike_the_guns` order's pips): the guns are out of the game for good;
//! - haul them off (the `haul_off_the_guns` order, no pips): the regiment moves at half speed and
//!   may not fire while it drags them ([`GunsFate::Hauling`]); taking them off the table's edge
//!   carries them off ([`GunsFate::HauledOff`]).
//!
//! A regiment beaten in melee while it holds the guns loses them: they are recaptured intact
//! ([`GunsFate::Recaptured`]), back with their own side but without crews, so they never fire
//! again. dotc D16 reads the same into every other way the holder leaves the table (shattered,
//! routed, marched off without hauling): the guns stay where they are and their own side has
//! them back. A regiment holds one battery's guns at a time; a second battery it beats is
//! captured as without the module.

use dotc_lang::rulings::Module;

use super::state::{CapturedGuns, GameState, GunsFate, UnitId};
use super::{EngineError, Event, Rules, What};

/// The module of Ch13 15.0.
pub const MODULE: &str = Module::SpikingTheGuns.name();

/// The rule data id of the order that spikes the guns (Ch13 15.0: 1 pip).
pub const SPIKE_ORDER: &str = "spike_the_guns";

/// The rule data id of the order that hauls the guns off (Ch13 15.0: no pips).
pub const HAUL_ORDER: &str = "haul_off_the_guns";

const RULE: &str = "Ch13 15.0, dotc D16";

/// The guns `unit` holds now (occupied or being hauled), if any.
pub fn held_by(state: &GameState, unit: UnitId) -> Option<&CapturedGuns> {
    state.guns.iter().find(|g| g.fate.holder() == Some(unit))
}

/// Whether `unit` is hauling captured guns: it moves at half speed and may not fire (Ch13 15.0).
pub fn towing(state: &GameState, unit: UnitId) -> bool {
    state.guns.iter().any(|g| g.fate == GunsFate::Hauling(unit))
}

/// Ch13 15.0: the battery `battery` has just lost a melee to `winner` and been removed. With the
/// module on and an infantry winner that holds no guns yet, the winner occupies its guns.
pub(crate) fn taken(
    rules: &Rules,
    state: &mut GameState,
    battery: UnitId,
    winner: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    if !rules.module(MODULE) {
        return Ok(());
    }
    let unknown = |id: UnitId| EngineError::Unknown(format!("unit #{}", id.0));
    let w = state.unit(winner).ok_or_else(|| unknown(winner))?;
    if !w.is_infantry() || w.removed {
        return Ok(());
    }
    let taken_by = w.name.clone();
    if let Some(held) = held_by(state, winner) {
        let text = format!(
            "{taken_by} already holds the guns of {}: this battery is captured as without the module",
            held.battery
        );
        events.push(Event::new(What::Note { text }, RULE));
        return Ok(());
    }
    let b = state.unit(battery).ok_or_else(|| unknown(battery))?;
    let (name, owner) = (b.name.clone(), b.side);
    let text =
        format!("{taken_by} stands among the guns of {name}: its brigadier must spike or haul them off");
    events.push(Event::new(What::Note { text }, RULE));
    state.guns.push(CapturedGuns {
        battery: name,
        owner,
        taken_by,
        turn: state.turn,
        fate: GunsFate::Occupied(winner),
    });
    Ok(())
}

/// Ch13 15.0: `loser` lost a melee; if it held captured guns they are recaptured intact.
pub(crate) fn lost_melee(state: &mut GameState, loser: UnitId, events: &mut Vec<Event>) {
    recapture(state, loser, "is beaten in melee", events);
}

/// dotc D16: guns whose holder has left the table (shattered, routed, overrun) go back to their
/// own side where they stand. Returns whether any did.
pub fn settle(state: &mut GameState, events: &mut Vec<Event>) -> bool {
    let gone: Vec<UnitId> = state
        .guns
        .iter()
        .filter_map(|g| g.fate.holder())
        .filter(|&id| state.unit(id).is_none_or(|u| u.removed || !u.on_table))
        .collect();
    for id in &gone {
        recapture(state, *id, "has left the table", events);
    }
    !gone.is_empty()
}

fn recapture(state: &mut GameState, holder: UnitId, how: &str, events: &mut Vec<Event>) {
    let name = state.unit(holder).map(|u| u.name.clone()).unwrap_or_default();
    for g in state.guns.iter_mut().filter(|g| g.fate.holder() == Some(holder)) {
        g.fate = GunsFate::Recaptured;
        let text = format!("{name} {how}: the guns of {} are recaptured intact", g.battery);
        events.push(Event::new(What::Note { text }, RULE));
    }
}

/// What a brigadier may declare for the guns a regiment occupies (Ch13 15.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposal {
    Spike,
    Haul,
}

/// Ch13 15.0: carry out the brigadier's declaration for the guns `holder` occupies. Refused if it
/// holds none, or is already hauling them.
pub fn dispose(
    state: &mut GameState,
    holder: UnitId,
    how: Disposal,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let name = state.unit(holder).map(|u| u.name.clone()).unwrap_or_default();
    let illegal = |why: String| EngineError::Illegal { unit: name.clone(), why, rule: RULE };
    let Some(g) = state.guns.iter_mut().find(|g| g.fate.holder() == Some(holder)) else {
        return Err(illegal("spike or haul off guns: it holds no captured guns".into()));
    };
    if g.fate != GunsFate::Occupied(holder) {
        return Err(illegal(format!(
            "say again what it does with the guns of {}: it is already hauling them",
            g.battery
        )));
    }
    let text = match how {
        Disposal::Spike => {
            g.fate = GunsFate::Spiked;
            format!("{name} spikes the guns of {}: they are out of the game", g.battery)
        }
        Disposal::Haul => {
            g.fate = GunsFate::Hauling(holder);
            format!("{name} hauls off the guns of {}: half speed and no fire while it drags them", g.battery)
        }
    };
    events.push(Event::new(What::Note { text }, "Ch13 15.0"));
    Ok(())
}

/// Ch13 15.0: `holder` leaves the table: guns it was hauling are carried off; guns it only stood
/// among are left behind ([`settle`] gives them back to their side once it has gone).
pub fn leaves_table(state: &mut GameState, holder: UnitId, events: &mut Vec<Event>) {
    let name = state.unit(holder).map(|u| u.name.clone()).unwrap_or_default();
    for g in state.guns.iter_mut().filter(|g| g.fate == GunsFate::Hauling(holder)) {
        g.fate = GunsFate::HauledOff;
        let text = format!("{name} drags the guns of {} off the table", g.battery);
        events.push(Event::new(What::Note { text }, "Ch13 15.0"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Purpose;
    use crate::engine::melee::{MeleeInput, resolve_melee};
    use crate::engine::state::Arm;
    use crate::engine::testkit::{Table, defaults, dice, rules_with};
    use crate::rulings::Rulings;

    fn module_on() -> Rules {
        rules_with(Rulings::default(), &[MODULE])
    }

    /// Blue's regiment beats Red's battery: 2 + 3 engaged against 1 + 1 (Ch8 6.0).
    fn battery_beaten(rules: &Rules) -> (Table, UnitId, UnitId) {
        let mut t = Table::new();
        let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
        let b = t.battery("Red Battery", t.red, 2, "napoleon");
        let input = MeleeInput { attacker_engaged: 3, defender_engaged: 1, ..MeleeInput::default() };
        let melee = dice(&[(Purpose::Melee, &[2, 1])]);
        resolve_melee(rules, &mut t.state, a, b, &input, &mut melee.clone()).unwrap();
        (t, a, b)
    }

    /// Ch13 15.0: with the module an infantry victor stands among the battery's guns, which
    /// belong to the battery's side; the battery itself is gone as without it (Ch8 6.0).
    #[test]
    fn ch13_15_0_infantry_that_beats_a_battery_occupies_its_guns() {
        let (t, a, b) = battery_beaten(&module_on());
        assert!(t.unit(b).removed);
        let held = held_by(&t.state, a).expect("the victor holds the guns");
        assert_eq!(
            (held.battery.as_str(), held.owner, held.fate),
            ("Red Battery", t.red, GunsFate::Occupied(a))
        );
        assert_eq!(t.state.marker_ids(a), vec!["captured_guns"]);
        // Without the module the battery is captured and that is all.
        let (t, a, _) = battery_beaten(&defaults());
        assert!(t.state.guns.is_empty());
        assert!(held_by(&t.state, a).is_none());
    }

    /// Ch13 15.0, dotc D16: cavalry that beats a battery captures it as the core rules say.
    #[test]
    fn ch13_15_0_cavalry_leaves_no_guns_to_spike() {
        let rules = module_on();
        let mut t = Table::new();
        let c = t.infantry("Blue Horse", t.blue, 4, "regular", "carbine", "line");
        t.unit_mut(c).arm = Arm::Cavalry { mounted: true, horse_holders: 0, can_remount: true };
        let b = t.battery("Red Battery", t.red, 2, "napoleon");
        let input = MeleeInput { attacker_engaged: 3, defender_engaged: 1, ..MeleeInput::default() };
        resolve_melee(&rules, &mut t.state, c, b, &input, &mut dice(&[(Purpose::Melee, &[4, 1])])).unwrap();
        assert!(t.unit(b).removed);
        assert!(t.state.guns.is_empty());
    }

    /// Ch13 15.0: spiked guns are out of the game and the regiment holds nothing; hauled guns
    /// make it tow (half speed, no fire) until it leaves the table with them.
    #[test]
    fn ch13_15_0_spiked_guns_are_gone_and_hauled_guns_leave_with_their_regiment() {
        let (mut t, a, _) = battery_beaten(&module_on());
        let mut events = Vec::new();
        dispose(&mut t.state, a, Disposal::Spike, &mut events).unwrap();
        assert_eq!(t.state.guns[0].fate, GunsFate::Spiked);
        assert!(held_by(&t.state, a).is_none() && !towing(&t.state, a));
        // Spiked guns cannot be disposed of again.
        assert!(dispose(&mut t.state, a, Disposal::Haul, &mut events).is_err());

        let (mut t, a, _) = battery_beaten(&module_on());
        dispose(&mut t.state, a, Disposal::Haul, &mut events).unwrap();
        assert!(towing(&t.state, a));
        // The choice is made once.
        assert!(dispose(&mut t.state, a, Disposal::Spike, &mut events).is_err());
        leaves_table(&mut t.state, a, &mut events);
        assert_eq!(t.state.guns[0].fate, GunsFate::HauledOff);
        t.unit_mut(a).removed = true;
        // Carried off, they are not recaptured when the regiment is gone.
        assert!(!settle(&mut t.state, &mut events));
        assert_eq!(t.state.guns[0].fate, GunsFate::HauledOff);
    }

    /// Ch13 15.0: a holder beaten in melee loses the guns, recaptured intact.
    #[test]
    fn ch13_15_0_a_holder_beaten_in_melee_loses_the_guns() {
        let rules = module_on();
        let (mut t, a, _) = battery_beaten(&rules);
        let red = t.infantry("Red Regiment", t.red, 5, "regular", "rifled_musket", "line");
        let input = MeleeInput { attacker_engaged: 5, defender_engaged: 5, ..MeleeInput::default() };
        let r = resolve_melee(&rules, &mut t.state, red, a, &input, &mut dice(&[(Purpose::Melee, &[6, 1])]))
            .unwrap();
        assert_eq!(r.outcome, crate::engine::events::MeleeOutcome::AttackerWins);
        assert_eq!(t.state.guns[0].fate, GunsFate::Recaptured);
        assert!(!t.unit(a).removed, "it lost a stand and retreated, and kept the field");
        assert!(t.state.marker_ids(a).iter().all(|m| *m != "captured_guns"));
    }

    /// dotc D16: a holder gone from the table any other way (here shattered) leaves the guns to
    /// their own side; guns still held by a regiment on the table are not touched.
    #[test]
    fn d16_guns_whose_holder_has_gone_go_back_to_their_side() {
        let (mut t, a, _) = battery_beaten(&module_on());
        let mut events = Vec::new();
        assert!(!settle(&mut t.state, &mut events));
        assert_eq!(t.state.guns[0].fate, GunsFate::Occupied(a));
        t.unit_mut(a).removed = true;
        assert!(settle(&mut t.state, &mut events));
        assert_eq!(t.state.guns[0].fate, GunsFate::Recaptured);
        assert!(events.iter().any(|e| e.to_string().contains("recaptured intact")), "{events:?}");
    }
}
