//! The Wave Attack's engine (Ch13 23.0, dotc D26), worked by hand.

use super::*;
use crate::dice::Purpose;
use crate::engine::assault::{AssaultInput, AssaultResult, Payment, resolve_assault_paid};
use crate::engine::melee::MeleeInput;
use crate::engine::testkit::{Table, defaults, dice, rules_with};
use crate::rulings::Rulings;

fn wave_rules() -> Rules {
    rules_with(Rulings::default(), &["wave_attack"])
}

/// Two blue lines of 5, one brigade, and a red line.
fn table() -> (Table, UnitId, UnitId, UnitId) {
    let mut t = Table::new();
    let lead = t.infantry("Lead", t.blue, 5, "regular", "rifled_musket", "line");
    let support = t.infantry("Support", t.blue, 5, "regular", "rifled_musket", "line");
    let red = t.infantry("Red", t.red, 5, "regular", "rifled_musket", "line");
    t.state.turn = 1;
    (t, lead, support, red)
}

/// Ch13 23.0: a wave needs the module, 2 regiments of the brigade, one formation.
#[test]
fn ch13_23_0_a_wave_is_two_regiments_of_one_brigade_in_one_formation() {
    let (mut t, lead, support, red) = table();
    let b = t.blue_brigade;
    let mut events = Vec::new();
    let off = authorise(&defaults(), &mut t.state.clone(), b, &[lead, support], &mut events);
    assert!(matches!(off, Err(EngineError::Illegal { rule: "Ch13 23.0, dotc D26", .. })), "{off:?}");
    assert!(authorise(&wave_rules(), &mut t.state.clone(), b, &[lead], &mut events).is_err());
    assert!(authorise(&wave_rules(), &mut t.state.clone(), b, &[lead, red], &mut events).is_err());
    let mut column = t.state.clone();
    if let Some(u) = column.unit_mut(support) {
        u.formation = "assault_column".into();
    }
    assert!(authorise(&wave_rules(), &mut column, b, &[lead, support], &mut events).is_err());
    authorise(&wave_rules(), &mut t.state, b, &[lead, support], &mut events).expect("a wave");
    assert_eq!(behind(&t.state, lead), Some(support));
    assert!(may_not_fire(&t.state, lead) && may_not_fire(&t.state, support));
    // In the enemy's turn after it, the wave still stands but may fire again; two turns on, gone.
    t.state.turn = 2;
    assert_eq!(behind(&t.state, lead), Some(support));
    assert!(!may_not_fire(&t.state, lead));
    t.state.turn = 3;
    assert_eq!(behind(&t.state, lead), None);
}

/// Ch13 23.0 "Continuous Surge": the lead's charge stalls; the support completes it at once at
/// the same target, for no pip, with no closing volley. Its melee: 4 + 5 engaged + 1 Fresh = 10
/// against 2 + 5 + 1 = 8 (no momentum given): it wins.
#[test]
fn ch13_23_0_the_support_surges_through_a_stalled_lead_for_free() {
    let rules = wave_rules();
    let (mut t, lead, support, red) = table();
    t.state.brigades[t.blue_brigade.0].pips = 1;
    let b = t.blue_brigade;
    authorise(&rules, &mut t.state, b, &[lead, support], &mut Vec::new()).expect("a wave");
    assert_eq!(surge_at(&t.state, support, red), None, "nothing to complete yet");
    after_charge(&mut t.state, lead, red, 6.0, true);
    let surge = surge_at(&t.state, support, red).expect("the support may surge");
    assert_eq!(surge.distance, 6.0);
    let input = AssaultInput {
        distance: surge.distance,
        brigadier_distance: None,
        coordinated: false,
        closing_volley: None,
        melee: MeleeInput::default(),
    };
    let mut d = dice(&[(Purpose::Melee, &[4, 2])]);
    let r = resolve_assault_paid(&rules, &mut t.state, support, red, &input, Payment::Surge, &mut d)
        .expect("the surge");
    assert!(matches!(r.result, AssaultResult::Melee(_)), "{:?}", r.result);
    assert_eq!(t.state.brigades[t.blue_brigade.0].pips, 1, "the surge costs no pip");
    // A charge that went home leaves nothing to complete.
    after_charge(&mut t.state, lead, red, 6.0, false);
    assert_eq!(surge_at(&t.state, support, red), None);
}

/// Ch13 23.0 "The Artillery Magnet": 2 hits on the lead put 2 stray hits on the support,
/// unsaved: two hits are a stand (RULE-05-3.3), so the support goes from 5 stands to 4.
#[test]
fn ch13_23_0_stray_hits_fall_on_the_support() {
    let rules = wave_rules();
    let (mut t, _, support, _) = table();
    let mut events = Vec::new();
    let lost = stray_hits(&rules, &mut t.state, support, 2, &mut events).expect("applied");
    assert_eq!(lost, 1);
    assert_eq!(t.unit(support).stands, 4);
    assert_eq!(stray_hits(&rules, &mut t.state, support, 0, &mut events).expect("none"), 0);
}
