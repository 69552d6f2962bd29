//! Hidden Deployment's engine (Ch13 4.0, dotc D27, D28), worked by hand.

use super::*;
use crate::engine::testkit::{Table, rules_with};
use crate::rulings::Rulings;

fn hidden_rules() -> Rules {
    rules_with(Rulings::default(), &[HIDDEN_DEPLOYMENT])
}

/// Blue's brigade under the blind "B1" at (10, 10) with one regiment, and a Blue dummy "D1".
fn table() -> (Table, UnitId) {
    let mut t = Table::new();
    let hidden = t.infantry("Hidden", t.blue, 5, "regular", "rifled_musket", "line");
    t.state.units[hidden.0].on_table = false;
    let real = Blind::new("B1", t.blue, (10.0, 10.0), Hides::Real(t.blue_brigade));
    let dummy = Blind::new("D1", t.blue, (30.0, 10.0), Hides::Dummy);
    t.state.blinds = vec![real, dummy];
    (t, hidden)
}

/// Ch13 4.0: a blind moves a flat 9" over any ground: 9" is allowed, 9.5" is not, whatever
/// terrain it crosses (the length is all the engine is asked).
#[test]
fn ch13_4_0_a_blind_moves_a_flat_nine_inches() {
    let (t, _) = table();
    let rules = hidden_rules();
    let b1 = blind_named(&t.state, "B1").unwrap();
    assert_eq!(judge_move(&rules, b1, 1, 9.0), Ok(()));
    // A 3-4-5 triangle scaled by 1.8: 5.4" east and 7.2" north is exactly 9".
    assert_eq!(judge_move(&rules, b1, 1, 5.4f64.hypot(7.2)), Ok(()));
    let far = judge_move(&rules, b1, 1, 9.5);
    assert!(
        matches!(&far, Err(EngineError::Illegal { rule: "Ch13 4.0", why, .. }) if why.contains("at most 9\""))
    );
}

/// Ch13 4.0, dotc D28: two moves of one blind in a turn add up: 5" then 4" is its 9"; 5" then
/// 4.5" is 9.5", refused; the next turn it has its 9" again.
#[test]
fn ch13_4_0_a_blinds_moves_in_one_turn_add_up() {
    let (mut t, _) = table();
    let rules = hidden_rules();
    move_to(&mut t.state, "B1", (15.0, 10.0), 1, 5.0);
    let b1 = blind_named(&t.state, "B1").unwrap();
    assert_eq!(b1.position, (15.0, 10.0));
    assert_eq!(judge_move(&rules, b1, 1, 4.0), Ok(()));
    assert!(judge_move(&rules, b1, 1, 4.5).is_err());
    assert_eq!(judge_move(&rules, b1, 3, 9.0), Ok(()));
}

/// Ch13 4.0: visual spotting range is 12": an enemy 12" off unmasks a blind, 12.1" off does not.
#[test]
fn ch13_4_0_an_enemy_within_twelve_inches_unmasks_a_blind() {
    let rules = hidden_rules();
    assert!(spotted(&rules, 12.0));
    assert!(spotted(&rules, 11.0));
    assert!(!spotted(&rules, 12.1));
}

/// Ch13 4.0: a revealed dummy is removed; a revealed blind may not be revealed or moved again.
#[test]
fn ch13_4_0_a_dummy_revealed_is_removed() {
    let (mut t, _) = table();
    let rules = hidden_rules();
    let events = reveal(&rules, &mut t.state, "D1").unwrap();
    assert!(matches!(&events[0].what, What::Note { text } if text.contains("dummy, removed")));
    let d1 = blind_named(&t.state, "D1").unwrap();
    assert!(!d1.standing());
    assert!(judge_move(&rules, d1, 1, 1.0).is_err());
    assert!(reveal(&rules, &mut t.state, "D1").is_err());
    assert_eq!(reveal(&rules, &mut t.state, "D9"), Err(EngineError::Unknown("blind \"D9\"".into())));
}

/// Ch13 4.0: a unit under a blind neither fires nor charges until the blind is revealed; then
/// its colours go within 6" of the blind's centre (dotc D28): 6" is allowed, 6.5" is not.
#[test]
fn ch13_4_0_a_hidden_unit_waits_for_its_reveal_and_comes_on_within_six_inches() {
    let (mut t, hidden) = table();
    let rules = hidden_rules();
    assert!(still_hidden(&t.state, hidden).is_some());
    let refused = may_not_act(&t.state, hidden, "fire");
    assert!(
        matches!(&refused, Err(EngineError::Illegal { rule: "Ch13 4.0", why, .. }) if why.contains("\"B1\""))
    );
    let b1 = blind_named(&t.state, "B1").unwrap().clone();
    assert!(placement(&rules, &b1, "Hidden", 1.0).is_err(), "not revealed yet");
    reveal(&rules, &mut t.state, "B1").unwrap();
    assert_eq!(may_not_act(&t.state, hidden, "fire"), Ok(()));
    let b1 = blind_named(&t.state, "B1").unwrap().clone();
    // From (10, 10) to (13.6, 14.8): 3.6" and 4.8", a 3-4-5 triangle of 6".
    assert_eq!(placement(&rules, &b1, "Hidden", 3.6f64.hypot(4.8)), Ok(()));
    let far = placement(&rules, &b1, "Hidden", 6.5);
    assert!(matches!(far, Err(EngineError::Illegal { rule: "Ch13 4.0, dotc D28", .. })));
}

/// Ch13 4.0, dotc D28: a revealed real blind owes the placement of each of its units before the
/// phase ends; a dummy owes none. Once placed (on the table) a unit is owed no more.
#[test]
fn ch13_4_0_a_revealed_brigade_owes_each_unit_s_placement() {
    let (mut t, hidden) = table();
    let rules = hidden_rules();
    let b1 = blind_named(&t.state, "B1").unwrap().clone();
    assert!(unplaced(&t.state, &b1).is_empty(), "not revealed: nothing owed yet");
    assert!(!b1.placing);
    reveal(&rules, &mut t.state, "B1").unwrap();
    let b1 = blind_named(&t.state, "B1").unwrap().clone();
    assert!(b1.placing);
    assert_eq!(unplaced(&t.state, &b1), ["Hidden"]);
    t.state.units[hidden.0].on_table = true;
    assert!(unplaced(&t.state, &b1).is_empty());
    reveal(&rules, &mut t.state, "D1").unwrap();
    let d1 = blind_named(&t.state, "D1").unwrap().clone();
    assert!(!d1.placing && unplaced(&t.state, &d1).is_empty());
}

/// Ch13 4.0, dotc D28: a revealed unit is not placed on another unit nor on impassable ground.
#[test]
fn ch13_4_0_a_revealed_unit_is_not_placed_on_a_unit_or_impassable_ground() {
    assert_eq!(placement_spot("Hidden", &Spot::default()), Ok(()));
    let on_a_unit = Spot { overlaps: Some(("R1".into(), 1.5)), impassable: None };
    let refused = placement_spot("Hidden", &on_a_unit);
    assert!(
        matches!(&refused, Err(EngineError::Illegal { rule: "Ch13 4.0, dotc D28", why, .. }) if why.contains("on R1"))
    );
    let in_a_lake = Spot { overlaps: None, impassable: Some("Mill Pond".into()) };
    let refused = placement_spot("Hidden", &in_a_lake);
    assert!(
        matches!(&refused, Err(EngineError::Illegal { why, .. }) if why.contains("impassable ground (Mill Pond)"))
    );
}
