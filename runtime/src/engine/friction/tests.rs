//! The Friction of War events (Ch13 3.0), each worked by hand.

use super::*;
use crate::dice::{Purpose, RecordedDice};
use crate::engine::assault::{AssaultInput, AssaultResult, resolve_assault};
use crate::engine::fire::{FireInput, FireKind, plan_volley};
use crate::engine::melee::MeleeInput;
use crate::engine::testkit::{Table, dice, rules_with};
use crate::rulings::Rulings;

fn rules() -> Rules {
    rules_with(Rulings::default(), &[FRICTION_OF_WAR])
}

/// Blue (active) and Red: a 5-stand regular rifled-musket line each, a Blue battery, a Blue
/// regiment in skirmish order, and each side's brigadier.
fn table() -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let blue = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let red = t.infantry("Red Regiment", t.red, 5, "regular", "rifled_musket", "line");
    t.battery("Blue Battery", t.blue, 2, "napoleon_12pdr");
    t.infantry("Blue Skirmishers", t.blue, 4, "regular", "rifled_musket", "skirmish");
    t.brigadier("Brig. Blue", t.blue, "reliable");
    t.brigadier("Brig. Red", t.red, "reliable");
    (t, blue, red)
}

fn play(
    t: &mut Table,
    event: FrictionEvent,
    pick: Option<Pick>,
    dice: &mut RecordedDice,
) -> Result<FrictionReport, EngineError> {
    play_friction(&rules(), &mut t.state, t.blue, event, pick, dice)
}

fn no_dice() -> RecordedDice {
    dice(&[])
}

fn rule_of<T: std::fmt::Debug>(r: Result<T, EngineError>) -> &'static str {
    match r {
        Err(EngineError::Illegal { rule, .. }) => rule,
        other => panic!("expected an illegal pick, got {other:?}"),
    }
}

/// Ch13 3.0: the faces 1-6 are the table's six events in order; no d6 shows 0 or 7.
#[test]
fn ch13_3_0_the_faces_of_the_friction_table() {
    assert_eq!(FrictionEvent::of_face(1), Some(FrictionEvent::AmmunitionDelayed));
    assert_eq!(FrictionEvent::of_face(4), Some(FrictionEvent::GeneralAtTheFront));
    assert_eq!(FrictionEvent::of_face(6), Some(FrictionEvent::HeroicMomentum));
    assert_eq!((FrictionEvent::of_face(0), FrictionEvent::of_face(7)), (None, None));
}

/// Ch13 3.0 event 1: the pick takes a Low Ammo marker, and its volleys at 10" (medium, 4+ for
/// regular rifled muskets) need 5+. An enemy unit is no legal pick, and without the module
/// nothing is played.
#[test]
fn ch13_3_0_ammunition_wagon_delayed_gives_low_ammo() {
    let (mut t, blue, red) = table();
    let before = plan_volley(&rules(), &t.state, blue, red, &FireInput::at(10.0, FireKind::Phase3)).unwrap();
    assert_eq!(before.to_hit, 4);
    play(&mut t, FrictionEvent::AmmunitionDelayed, Some(Pick::Unit(blue)), &mut no_dice()).unwrap();
    assert!(t.unit(blue).markers.low_ammo);
    let after = plan_volley(&rules(), &t.state, blue, red, &FireInput::at(10.0, FireKind::Phase3)).unwrap();
    assert_eq!(after.to_hit, 5, "4+ with the marker's -1");

    let (mut t, _, red) = table();
    assert_eq!(
        rule_of(play(&mut t, FrictionEvent::AmmunitionDelayed, Some(Pick::Unit(red)), &mut no_dice())),
        "Ch13 3.0"
    );
    assert!(!t.unit(red).markers.low_ammo);
    let (mut t, blue, _) = table();
    let off = play_friction(
        &rules_with(Rulings::default(), &[]),
        &mut t.state,
        t.blue,
        FrictionEvent::AmmunitionDelayed,
        Some(Pick::Unit(blue)),
        &mut no_dice(),
    );
    assert_eq!(rule_of(off), "Ch13 3.0");
}

/// Ch13 3.0 event 2: for the rest of the turn every pool of both sides is halved, rounded down:
/// 5 stands of rifled musket roll 5 dice, in the squall 2, Blue's and Red's alike. The next
/// turn it is over.
#[test]
fn ch13_3_0_sudden_squall_halves_both_sides_pools_for_the_turn() {
    let (mut t, blue, red) = table();
    play(&mut t, FrictionEvent::SuddenSquall, None, &mut no_dice()).unwrap();
    let input = FireInput::at(10.0, FireKind::Phase3);
    assert_eq!(plan_volley(&rules(), &t.state, blue, red, &input).unwrap().dice, 2);
    assert_eq!(plan_volley(&rules(), &t.state, red, blue, &input).unwrap().dice, 2);
    t.state.start_turn(2);
    assert_eq!(plan_volley(&rules(), &t.state, red, blue, &input).unwrap().dice, 5);
}

/// Ch13 3.0 event 3: a formed regiment of the active side marches the stdlib's 6" straight
/// ahead; a battery or a regiment in skirmish order is no legal pick.
#[test]
fn ch13_3_0_misinterpreted_orders_march_a_formed_regiment_six_inches() {
    let (mut t, blue, _) = table();
    let r =
        play(&mut t, FrictionEvent::MisinterpretedOrders, Some(Pick::Unit(blue)), &mut no_dice()).unwrap();
    assert_eq!(r.march, Some((blue, 6.0)));
    let battery = t.state.unit_named("Blue Battery").unwrap();
    let skirmishers = t.state.unit_named("Blue Skirmishers").unwrap();
    for id in [battery, skirmishers] {
        let pick = Some(Pick::Unit(id));
        assert_eq!(
            rule_of(play(&mut t, FrictionEvent::MisinterpretedOrders, pick, &mut no_dice())),
            "Ch13 3.0"
        );
    }
    assert_eq!(rule_of(play(&mut t, FrictionEvent::MisinterpretedOrders, None, &mut no_dice())), "Ch13 3.0");
}

/// Ch13 3.0 event 4 (dotc D20): Blue's brigade goes from 3 pips to 5; a hit on a Red regiment
/// changes nothing, the first unsaved hit on a Blue regiment (a micro-hit) wounds Brig. Blue out
/// of the game and his colonel takes the brigade from the next turn.
#[test]
fn ch13_3_0_the_general_at_the_front_has_two_pips_more_and_falls_at_the_first_casualty() {
    let (mut t, blue, red) = table();
    let rules = rules();
    t.state.brigades[t.blue_brigade.0].pips = 3;
    let pick = Some(Pick::Brigade(t.blue_brigade));
    play(&mut t, FrictionEvent::GeneralAtTheFront, pick, &mut no_dice()).unwrap();
    assert_eq!(t.state.brigades[t.blue_brigade.0].pips, 5);
    let brig = t.state.leader_named("Brig. Blue").unwrap();
    let mut events = Vec::new();
    morale::take_hits(&rules, &mut t.state, red, 1, morale::Cause::Fire, &mut events, "test").unwrap();
    assert!(!t.state.leader(brig).unwrap().removed);
    morale::take_hits(&rules, &mut t.state, blue, 1, morale::Cause::Fire, &mut events, "test").unwrap();
    assert!(t.state.leader(brig).unwrap().removed);
    assert!(
        events
            .iter()
            .any(|e| matches!(&e.what, What::LeaderReplaced { leader, .. } if leader == "Brig. Blue"))
    );
    let colonel = t.state.brigades[t.blue_brigade.0].brigadier.and_then(|l| t.state.leader(l)).unwrap();
    assert_eq!(colonel.from_turn, 2);
    // Red's brigade is no legal pick for Blue's turn.
    let (mut t, _, _) = table();
    let pick = Some(Pick::Brigade(t.red_brigade));
    assert_eq!(rule_of(play(&mut t, FrictionEvent::GeneralAtTheFront, pick, &mut no_dice())), "Ch13 3.0");
}

/// Ch13 3.0 event 5 (dotc D19): the regiment's own die, 1-3 Disordered (below the stdlib's
/// 4+): a 3 disorders it, a 4 does not.
#[test]
fn ch13_3_0_panic_in_the_ranks_disorders_on_one_to_three() {
    let (mut t, blue, _) = table();
    let mut d = dice(&[(Purpose::Friction, &[3])]);
    let r = play(&mut t, FrictionEvent::PanicInTheRanks, Some(Pick::Unit(blue)), &mut d).unwrap();
    assert_eq!((r.panicked, t.unit(blue).markers.disorder), (Some(true), true));
    assert_eq!(d.remaining(), 0);
    let (mut t, blue, _) = table();
    let mut d = dice(&[(Purpose::Friction, &[4])]);
    let r = play(&mut t, FrictionEvent::PanicInTheRanks, Some(Pick::Unit(blue)), &mut d).unwrap();
    assert_eq!((r.panicked, t.unit(blue).markers.disorder), (Some(false), false));
}

/// Ch13 3.0 event 6: with no pip left, Blue's regiment may not assault (Ch16 2.3: 1 pip); picked
/// for Heroic Momentum it assaults for none, and a closing volley that completes its micro-hit
/// (a stand lost, RULINGS C7) calls for no Discipline die: it closes and the melee is fought.
#[test]
fn ch13_3_0_heroic_momentum_assaults_for_no_pips_and_closes_without_a_check() {
    let input = AssaultInput {
        distance: 8.0,
        brigadier_distance: None,
        coordinated: false,
        closing_volley: Some(FireInput { firing_stands: Some(1), ..FireInput::at(4.0, FireKind::Closing) }),
        melee: MeleeInput::default(),
    };
    let (mut t, blue, red) = table();
    t.unit_mut(blue).micro_hit = 1;
    let mut d = dice(&[(Purpose::ToHit, &[5]), (Purpose::Melee, &[5, 2])]);
    assert!(resolve_assault(&rules(), &mut t.state.clone(), blue, red, &input, &mut d).is_err(), "no pips");
    play(&mut t, FrictionEvent::HeroicMomentum, Some(Pick::Unit(blue)), &mut no_dice()).unwrap();
    let r = resolve_assault(&rules(), &mut t.state, blue, red, &input, &mut d).unwrap();
    assert!(matches!(r.result, AssaultResult::Melee(_)), "{:?}", r.result);
    assert_eq!(t.unit(blue).stands, 4, "the micro-hit completed a stand");
    assert_eq!(d.remaining(), 0, "no Discipline die was asked for");
    // The narrative says why nothing was paid, and no pips change hands.
    assert!(
        r.events
            .iter()
            .any(|e| matches!(&e.what, What::Note { text } if text.contains("on Heroic Momentum: no pips"))),
        "{:?}",
        r.events
    );
    assert!(!r.events.iter().any(|e| matches!(&e.what, What::Pips { .. })), "{:?}", r.events);
}
