//! dotc D51, `ruling melee_timing` (Ch16 1.0): a melee written inside its Phase 2 assault waits
//! for Phase 4.
//!
//! Ch16 1.0 fights every melee in Phase 4, after all of Phase 2's declarations and Phase 3's
//! volleys. A game log writes each assault's melee dice where the assault is, so the replay
//! fights the melee there; under the default `phase_four` it then keeps, per brigade, what the
//! brigade was before that phase's melees ([`BeforeMelee`]) until its turn reaches Phase 4:
//!
//! - a later charge of the same Phase 2 is declared against the brigade as it was (neither the
//!   Hesitant nor the Broken state the melees brought on refuses it, RULE-07-2.3, 2.4), and the
//!   Disorder a break put on its other regiments does not stop their charges (RULE-05-4.4);
//! - pips the melees forfeited (a break, a brigadier's fall) can still be spent
//!   ([`super::morale::spend_pips`]);
//! - a closing volley of Phase 2 and a volley of Phase 3 are fired with the brigade as it was
//!   (a Broken brigade's silence, a Hesitant brigade's -1).
//!
//! The later melees themselves are fought as Phase 4 fights them, one after another with every
//! earlier melee in force: a charger whose brigade an earlier melee broke starts no melee
//! (RULE-07-2.4, dotc D1). Under `at_contact` nothing is kept and each melee is in force from
//! its own line.

use super::Rules;
use super::events::BrigadeStatus;
use super::morale::{rank, status_for_losses};
use super::state::{BeforeMelee, GameState, UnitId};

/// The state of the unit's brigade as the declarations, orders and volleys before Phase 4 see
/// it (dotc D51): without what this Phase 2's melees did to it. Fresh for a unit without one.
pub fn brigade_status_before_phase_four(rules: &Rules, state: &GameState, unit: UnitId) -> BrigadeStatus {
    let Some(b) = state.unit(unit).and_then(|u| u.brigade).and_then(|b| state.brigade(b)) else {
        return BrigadeStatus::Fresh;
    };
    match b.before_melee.filter(|_| state.ahead_of_phase_four) {
        None => b.status,
        Some(before) => {
            // Its losses that were not the melees' may have moved it on by themselves (under
            // `faltering_timing = immediate`, RULINGS C12; under `phase_five` nothing moves
            // before Phase 5).
            let others = b.losses.saturating_sub(before.losses);
            let by_others = if b.status == before.status {
                before.status
            } else {
                status_for_losses(rules, b.starting_stands, others)
            };
            if rank(by_others) > rank(before.status) { by_others } else { before.status }
        }
    }
}

/// Whether the unit is disordered as the declarations before Phase 4 see it (dotc D51): not by
/// a Disorder its brigade's break in this Phase 2's melee put on it.
pub fn disordered_before_phase_four(state: &GameState, unit: UnitId) -> bool {
    state.unit(unit).is_some_and(|u| {
        u.markers.disorder && !(state.ahead_of_phase_four && u.turn.disordered_by_melee_break)
    })
}

/// What a melee is about to change, taken before it is fought.
pub(crate) struct Before {
    /// Per brigade: losses, state, pips and banked pips.
    brigades: Vec<(u32, BrigadeStatus, u32)>,
    /// Per unit: disordered.
    disordered: Vec<bool>,
}

/// Take what a melee may change, when it is fought before its Phase 4 (`None` otherwise).
pub(crate) fn before(state: &GameState) -> Option<Before> {
    state.ahead_of_phase_four.then(|| Before {
        brigades: state.brigades.iter().map(|b| (b.losses, b.status, b.pips + b.banked)).collect(),
        disordered: state.units.iter().map(|u| u.markers.disorder).collect(),
    })
}

/// Keep, after a melee fought before its Phase 4, what it changed in each brigade, and mark the
/// regiments its break disordered that did not fight in it (`fighters`).
pub(crate) fn after(state: &mut GameState, before: Before, fighters: [UnitId; 2]) {
    let mut broke = Vec::new();
    for (i, b) in state.brigades.iter_mut().enumerate() {
        let Some(&(losses, status, pips)) = before.brigades.get(i) else { continue };
        let lost = b.losses.saturating_sub(losses);
        let forfeited = pips.saturating_sub(b.pips + b.banked);
        if lost == 0 && forfeited == 0 && b.status == status {
            continue;
        }
        let kept = b.before_melee.get_or_insert(BeforeMelee { status, losses: 0, pips: 0 });
        kept.losses += lost;
        kept.pips += forfeited;
        if b.status == BrigadeStatus::Broken && status != BrigadeStatus::Broken {
            broke.push(i);
        }
    }
    for (i, u) in state.units.iter_mut().enumerate() {
        let was = before.disordered.get(i).copied().unwrap_or(true);
        let by_the_break = u.brigade.is_some_and(|b| broke.contains(&b.0));
        if by_the_break && !was && u.markers.disorder && !fighters.contains(&UnitId(i)) {
            u.turn.disordered_by_melee_break = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::morale::{OnTheClock, spend_pips, take_stands};
    use crate::engine::testkit::{Table, defaults};

    /// The Blue brigade of two 4-stand regiments (8 stands on its clock), as `set` leaves it,
    /// in a Phase 2 before its Phase 4.
    fn two_regiments(set: impl FnOnce(&mut crate::engine::state::Brigade)) -> (Table, UnitId, UnitId) {
        let mut t = Table::new();
        let first = t.infantry("1st Blue", t.blue, 4, "regular", "rifled_musket", "line");
        let second = t.infantry("2nd Blue", t.blue, 4, "regular", "rifled_musket", "line");
        let b = &mut t.state.brigades[t.blue_brigade.0];
        b.starting_stands = 8;
        set(b);
        t.state.phase_four_window(true);
        (t, first, second)
    }

    /// A melee fought before Phase 4 that costs `unit` one stand (Ch16 7.4).
    fn melee_costs_a_stand(rules: &Rules, t: &mut Table, unit: UnitId) {
        let before = before(&t.state).expect("the window is open");
        let mut events = Vec::new();
        take_stands(rules, &mut t.state, unit, 1, OnTheClock::Yes, &mut events, "Ch16 7.4").unwrap();
        after(&mut t.state, before, [unit, UnitId(99)]);
    }

    /// dotc D51 with a break: the Blue brigade (1st and 2nd Blue, 4 stands each: Hesitant at 2
    /// lost, Broken at 4, RULINGS G6) has 3 lost and 2 pips when a melee the log fights in Phase
    /// 2 costs the 1st Blue a stand: 4 lost, Broken (RULE-07-2.4). The break forfeits both pips
    /// and disorders the 2nd Blue. Until Phase 4 the brigade is still Hesitant to Phase 2 and 3,
    /// the 2nd Blue is in good order, and the 2 pips can be spent; Phase 4 ends all three.
    #[test]
    fn dotc_d51_a_break_in_a_phase_2_melee_waits_for_phase_4() {
        let rules = defaults();
        let (mut t, first, second) = two_regiments(|b| {
            b.losses = 3;
            b.status = BrigadeStatus::Hesitant;
            b.pips = 2;
        });
        let b = t.blue_brigade;
        melee_costs_a_stand(&rules, &mut t, first);

        // The break is in force on the table...
        assert_eq!(t.state.brigades[b.0].status, BrigadeStatus::Broken);
        assert_eq!(t.state.brigades[b.0].pips, 0);
        assert!(t.unit(second).markers.disorder);
        // ...but not yet for Phases 2 and 3.
        assert_eq!(
            t.state.brigades[b.0].before_melee,
            Some(BeforeMelee { status: BrigadeStatus::Hesitant, losses: 1, pips: 2 })
        );
        assert_eq!(brigade_status_before_phase_four(&rules, &t.state, second), BrigadeStatus::Hesitant);
        assert!(!disordered_before_phase_four(&t.state, second));
        // The 1st Blue fought the melee: its own Disorder, had it taken one, would stand.
        assert!(!t.unit(first).turn.disordered_by_melee_break);
        let mut events = Vec::new();
        spend_pips(&mut t.state, b, 2, "2nd Blue", "an order", &mut events, "Ch16 2.3").unwrap();
        assert_eq!(t.state.brigades[b.0].before_melee.map(|h| h.pips), Some(0));
        assert!(events.iter().any(|e| e.rule.contains("dotc D51")), "{events:?}");
        let mut events = Vec::new();
        assert!(spend_pips(&mut t.state, b, 1, "2nd Blue", "an order", &mut events, "Ch16 2.3").is_err());

        // Phase 4: everything is in force.
        t.state.phase_four_window(false);
        assert_eq!(brigade_status_before_phase_four(&rules, &t.state, second), BrigadeStatus::Broken);
        assert!(disordered_before_phase_four(&t.state, second));
        assert_eq!(t.state.brigades[b.0].before_melee, None);
    }

    /// dotc D51, RULE-07-2.4: a break forfeits the banked pip with the pips to spend, and both
    /// are kept until Phase 4. The Blue brigade (3 lost, Hesitant) has 2 pips and 1 banked when
    /// a melee costs it its fourth stand: Broken, all 3 forfeited; until Phase 4 all 3 can be
    /// spent. The Red brigade, which the melee did not touch, keeps no record.
    #[test]
    fn dotc_d51_a_break_keeps_the_banked_pip_with_the_pips() {
        let rules = defaults();
        let (mut t, first, _) = two_regiments(|b| {
            b.losses = 3;
            b.status = BrigadeStatus::Hesitant;
            b.pips = 2;
            b.banked = 1;
        });
        let b = t.blue_brigade;
        melee_costs_a_stand(&rules, &mut t, first);
        assert_eq!((t.state.brigades[b.0].pips, t.state.brigades[b.0].banked), (0, 0));
        assert_eq!(
            t.state.brigades[b.0].before_melee,
            Some(BeforeMelee { status: BrigadeStatus::Hesitant, losses: 1, pips: 3 })
        );
        assert_eq!(t.state.brigades[t.red_brigade.0].before_melee, None, "the Red brigade lost nothing");
        let mut events = Vec::new();
        spend_pips(&mut t.state, b, 3, "2nd Blue", "an order", &mut events, "Ch16 2.3").unwrap();
    }

    /// dotc D51, Ch16 2.4: pips a melee forfeits without a stand lost (its brigadier struck down
    /// at the colours) are kept until Phase 4 too, and the brigade's state with them. The Blue
    /// brigade has 2 pips and 1 banked; the melee takes the 2 and leaves the banked one: 2 kept.
    #[test]
    fn dotc_d51_pips_forfeited_without_a_loss_are_kept() {
        let (mut t, _, _) = two_regiments(|b| {
            b.pips = 2;
            b.banked = 1;
        });
        let b = t.blue_brigade;
        let before = before(&t.state).expect("the window is open");
        t.state.brigades[b.0].pips = 0;
        after(&mut t.state, before, [UnitId(0), UnitId(99)]);
        assert_eq!(
            t.state.brigades[b.0].before_melee,
            Some(BeforeMelee { status: BrigadeStatus::Fresh, losses: 0, pips: 2 })
        );
    }

    /// dotc D51: only a break's Disorder is held back until Phase 4. A melee that costs the Blue
    /// brigade a stand without breaking it, and in which the 2nd Blue (which did not fight) is
    /// disordered by something else, leaves that Disorder in force before Phase 4.
    #[test]
    fn dotc_d51_only_a_breaks_disorder_waits() {
        let rules = defaults();
        let (mut t, first, second) = two_regiments(|_| {});
        let before = before(&t.state).expect("the window is open");
        let mut events = Vec::new();
        take_stands(&rules, &mut t.state, first, 1, OnTheClock::Yes, &mut events, "Ch16 7.4").unwrap();
        t.state.units[second.0].markers.disorder = true;
        after(&mut t.state, before, [first, UnitId(99)]);
        assert_eq!(t.state.brigades[t.blue_brigade.0].status, BrigadeStatus::Fresh);
        assert!(!t.unit(second).turn.disordered_by_melee_break);
        assert!(disordered_before_phase_four(&t.state, second));
    }

    /// Losses that are not the melees' still move the brigade on before Phase 4 (RULE-07-2.3,
    /// RULINGS C12 `immediate`): a melee took 1 of the Blue brigade's 8 stands (Fresh to Phase
    /// 2), then a closing volley 2 more: 2 lost that were not the melee's, Hesitant.
    #[test]
    fn dotc_d51_losses_that_were_not_the_melees_count_at_once() {
        let rules = defaults();
        let (mut t, first, second) = two_regiments(|_| {});
        let b = t.blue_brigade;
        melee_costs_a_stand(&rules, &mut t, first);
        let mut events = Vec::new();
        assert_eq!(brigade_status_before_phase_four(&rules, &t.state, second), BrigadeStatus::Fresh);
        take_stands(&rules, &mut t.state, second, 1, OnTheClock::Yes, &mut events, "Ch16 7.2").unwrap();
        assert_eq!(t.state.brigades[b.0].status, BrigadeStatus::Hesitant, "2 of 8 on the table");
        assert_eq!(
            brigade_status_before_phase_four(&rules, &t.state, second),
            BrigadeStatus::Fresh,
            "1 not the melee's"
        );
        take_stands(&rules, &mut t.state, second, 1, OnTheClock::Yes, &mut events, "Ch16 7.2").unwrap();
        assert_eq!(brigade_status_before_phase_four(&rules, &t.state, second), BrigadeStatus::Hesitant);
    }
}
