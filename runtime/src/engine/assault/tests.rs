//! Tests of the charge, each naming the rule it checks: Garnett's charge (RULINGS E5) under the
//! defaults and `as_printed` with both 2+ canister guns, Potts' Hesitant brigade (E4), the
//! declaration rules, the pre-contact trigger (C7) and the way into the melee.

use super::*;
use crate::dice::{DiceError, Purpose, RecordedDice, Roll};
use crate::engine::events::{BrigadeStatus, Health, TestKind};
use crate::engine::state::{BrigadeId, LeaderId, LeaderRank};
use crate::engine::testkit::{Table, as_printed, defaults, dice, rules_with};
use crate::rulings::{DisorderedMovement, PreContactTrigger, Rulings};

fn with(f: impl FnOnce(&mut Rulings)) -> Rules {
    let mut r = Rulings::default();
    f(&mut r);
    rules_with(r, &[])
}

fn consumed(d: &RecordedDice) -> Vec<(Purpose, Vec<u8>)> {
    d.consumed().iter().map(|Roll { purpose, faces }| (*purpose, faces.clone())).collect()
}

fn index_of(r: &AssaultReport, f: impl Fn(&What) -> bool) -> Option<usize> {
    r.events.iter().position(|e| f(&e.what))
}

fn has(r: &AssaultReport, f: impl Fn(&What) -> bool) -> bool {
    index_of(r, f).is_some()
}

/// A plain charge at `distance` with the defender's closing volley at the 4" line.
fn charge(distance: f64, volley: Option<FireInput>) -> AssaultInput {
    AssaultInput {
        distance,
        brigadier_distance: None,
        coordinated: false,
        closing_volley: volley,
        melee: MeleeInput::default(),
    }
}

fn closing() -> Option<FireInput> {
    Some(FireInput::at(4.0, FireKind::Closing))
}

// ---------------------------------------------------------------- RULINGS E5: Garnett's charge

struct Garnett {
    t: Table,
    virginia: UnitId,
    battery: UnitId,
    garnett: LeaderId,
    brigade: BrigadeId,
}

/// The 33rd Virginia reduced to 2 of its 5 stands (Spent), Garnett (Reliable) attached, one pip;
/// three more regiments make the brigade 20 stands so 2 lost leave it Fresh. The Union battery is
/// one section of `gun`.
fn garnett(gun: &str) -> Garnett {
    let mut t = Table::new();
    t.state.brigades[t.blue_brigade.0].name = "Garnett's Brigade".into();
    t.state.brigades[t.red_brigade.0].name = "Union Artillery".into();
    let virginia = t.infantry("33rd Virginia", t.blue, 5, "regular", "rifled_musket", "line");
    for name in ["19th Virginia", "28th Virginia", "56th Virginia"] {
        t.infantry(name, t.blue, 5, "regular", "rifled_musket", "line");
    }
    t.unit_mut(virginia).stands = 2;
    let battery = t.battery("Union Battery", t.red, 1, gun);
    let garnett = t.brigadier("Garnett", t.blue, "reliable");
    t.state.leaders[garnett.0].attached = Some(virginia);
    let brigade = t.blue_brigade;
    t.state.brigades[brigade.0].pips = 1;
    Garnett { t, virginia, battery, garnett, brigade }
}

fn e5(rules: &Rules, gun: &str, discipline: &[i64]) -> (Garnett, AssaultReport, RecordedDice) {
    let mut g = garnett(gun);
    assert_eq!(morale::unit_health(rules, &g.t.state, g.virginia), Some(Health::Spent));
    let mut d = RecordedDice::labelled([
        (Purpose::ToHit, vec![2, 6]),
        (Purpose::Discipline, discipline.to_vec()),
        (Purpose::LeaderCasualty, vec![5]),
    ]);
    let r = resolve_assault(rules, &mut g.t.state, g.virginia, g.battery, &charge(8.0, closing()), &mut d)
        .expect("Garnett's charge is legal: Spent, but with its brigadier attached (RULE-07-4.2)");
    (g, r, d)
}

/// The outcome every reading of E5 shares: 1 pip paid, 2 canister hits at 2+ in the open, a stand
/// lost, the regiment shattered at 1 stand with both stands on the tally (RULE-05-3.4, RULINGS
/// G5), Garnett's roll of 5 after the shatter (RULINGS E5's correction), a Timid Colonel, and the
/// charge destroyed.
fn assert_e5_common(g: &Garnett, r: &AssaultReport) {
    assert_eq!(r.result, AssaultResult::Destroyed);
    assert!(!r.pre_contact_check);
    let b = &g.t.state.brigades[g.brigade.0];
    assert_eq!((b.pips, b.banked), (0, 0), "the one pip was spent (Ch16 2.3)");
    assert_eq!(b.losses, 2, "both stands on the tally (RULINGS G5)");
    assert_eq!(b.status, BrigadeStatus::Fresh);
    let va = g.t.unit(g.virginia);
    assert!(va.removed);
    assert_eq!(va.stands, 0);
    assert!(has(r, |w| matches!(w, What::Hits { hits: 2, sixes: 1, to_hit: 2, .. })));
    assert!(has(
        r,
        |w| matches!(w, What::StandsLost { unit, lost: 1, remaining: 1, .. } if unit == "33rd Virginia")
    ));
    let shattered =
        index_of(r, |w| matches!(w, What::Shattered { unit } if unit == "33rd Virginia")).unwrap();
    let roll =
        index_of(r, |w| matches!(w, What::LeaderCasualty { leader, rolled: 5, .. } if leader == "Garnett"))
            .unwrap();
    assert!(shattered < roll, "the regiment shatters before Garnett's roll (RULINGS E5)");
    assert!(g.t.state.leaders[g.garnett.0].removed);
    let colonel = g.t.state.brigades[g.brigade.0].brigadier.expect("a replacement commands");
    let c = &g.t.state.leaders[colonel.0];
    assert_eq!((c.rank, c.rating.as_str(), c.from_turn), (LeaderRank::Colonel, "timid", 2));
    assert!(has(
        r,
        |w| matches!(w, What::LeaderReplaced { leader, rating, permanent: false, .. } if leader == "Garnett" && rating == "timid")
    ));
    assert!(!has(r, |w| matches!(w, What::Contact { .. } | What::Melee { .. })));
}

/// RULINGS E5 under the defaults with a Napoleon: its canister disorders with no save (Ch16 5.3),
/// so no Discipline die is rolled; the dice are the two canister dice and Garnett's roll.
#[test]
fn e5_garnett_defaults_napoleon() {
    let rules = defaults();
    let (g, r, d) = e5(&rules, "napoleon", &[]);
    assert_e5_common(&g, &r);
    assert_eq!(consumed(&d), [(Purpose::ToHit, vec![2, 6]), (Purpose::LeaderCasualty, vec![5])]);
    assert!(!has(&r, |w| matches!(w, What::Test { .. })));
    assert!(has(
        &r,
        |w| matches!(w, What::MarkerPlaced { unit, marker } if unit == "33rd Virginia" && marker == "Disorder")
    ));
    insta::assert_yaml_snapshot!("e5_garnett_defaults_napoleon", r.events);
}

/// RULINGS E5 under the defaults with a field howitzer (also canister 2+, no auto-Disorder): the
/// natural 6 at 4" is a Shock trigger (RULE-05-4.1, C3), so the regiment takes a Discipline save:
/// regular 4+, brigadier attached +1, Spent -1 (Ch16 5.5, RULINGS G9). A 3 fails: Disorder.
#[test]
fn e5_garnett_defaults_howitzer_takes_a_shock_save() {
    let rules = defaults();
    let (g, r, d) = e5(&rules, "field_howitzer", &[3]);
    assert_e5_common(&g, &r);
    assert_eq!(
        consumed(&d),
        [(Purpose::ToHit, vec![2, 6]), (Purpose::Discipline, vec![3]), (Purpose::LeaderCasualty, vec![5])]
    );
    let save = r.events.iter().find_map(|e| match &e.what {
        What::Test { test: TestKind::ShockSave, needed, rolled, passed, .. } => {
            Some((*needed, *rolled, *passed))
        }
        _ => None,
    });
    assert_eq!(save, Some((4, 3, false)));
}

/// RULINGS E5 as printed (C3 `any_six_disorders`): the 6 disorders outright with either gun, no
/// Discipline die.
#[test]
fn e5_garnett_as_printed_both_guns() {
    for gun in ["napoleon", "field_howitzer"] {
        let rules = as_printed();
        let (g, r, d) = e5(&rules, gun, &[]);
        assert_e5_common(&g, &r);
        assert_eq!(consumed(&d), [(Purpose::ToHit, vec![2, 6]), (Purpose::LeaderCasualty, vec![5])], "{gun}");
        assert!(!has(&r, |w| matches!(w, What::Test { .. })), "{gun}");
        assert!(has(&r, |w| matches!(w, What::MarkerPlaced { marker, .. } if marker == "Disorder")), "{gun}");
    }
}

/// Engine transactions: Garnett's charge without Garnett's die fails and leaves everything as it
/// was, the pip unspent and the 33rd on the table.
#[test]
fn e5_missing_leader_die_changes_nothing() {
    let rules = defaults();
    let mut g = garnett("napoleon");
    let before = g.t.state.clone();
    let mut d = dice(&[(Purpose::ToHit, &[2, 6])]);
    let err = resolve_assault(&rules, &mut g.t.state, g.virginia, g.battery, &charge(8.0, closing()), &mut d)
        .unwrap_err();
    assert!(matches!(err, EngineError::Dice(DiceError::Missing { purpose: Purpose::LeaderCasualty, .. })));
    assert_eq!(g.t.state, before);
}

/// RULE-07-4.2, Ch16 7.1: without Garnett the Spent 33rd may not charge.
#[test]
fn rule_07_4_2_spent_needs_the_brigadier() {
    let rules = defaults();
    let mut g = garnett("napoleon");
    g.t.state.leaders[g.garnett.0].attached = None;
    let err = resolve_assault(
        &rules,
        &mut g.t.state,
        g.virginia,
        g.battery,
        &charge(8.0, closing()),
        &mut dice(&[]),
    )
    .unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule: "RULE-07-4.2, Ch16 7.1", .. }));
}

// ---------------------------------------------------------------- RULINGS E4: Potts' brigade

/// RULINGS E4, RULE-07-2.3, 2.4: Potts' 20-stand brigade loses 2+2+1+1 = 6 stands: Hesitant, and
/// the 150th Pennsylvania may not assault; 10 lost: Broken.
#[test]
fn e4_hesitant_brigade_cannot_assault() {
    let rules = defaults();
    let mut t = Table::new();
    t.state.brigades[t.blue_brigade.0].name = "Potts' Brigade".into();
    let names = ["143rd Pennsylvania", "149th Pennsylvania", "150th Pennsylvania", "121st Pennsylvania"];
    let regiments: Vec<UnitId> =
        names.iter().map(|n| t.infantry(n, t.blue, 5, "regular", "rifled_musket", "line")).collect();
    t.state.brigades[t.blue_brigade.0].pips = 2;
    let battery = t.battery("Confederate Battery", t.red, 2, "napoleon");
    assert_eq!(t.state.brigades[t.blue_brigade.0].starting_stands, 20);
    let mut events = Vec::new();
    for (&unit, lost) in regiments.iter().zip([2, 2, 1, 1]) {
        morale::remove_stands(&rules, &mut t.state, unit, lost, &mut events, "test").unwrap();
    }
    let b = &t.state.brigades[t.blue_brigade.0];
    assert_eq!((b.losses, b.status), (6, BrigadeStatus::Hesitant));
    let before = t.state.clone();
    let err =
        resolve_assault(&rules, &mut t.state, regiments[2], battery, &charge(6.0, None), &mut dice(&[]))
            .unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule: "RULE-07-2.3", .. }), "{err:?}");
    assert_eq!(t.state, before, "a refused order changes nothing (pips unspent)");

    // Four more stands lost: 10 of 20, Broken (RULE-07-2.4). (From the 4-stand regiments: a
    // 3-stand one losing 2 would shatter and put its last stand on the tally too.)
    for &unit in &regiments[2..] {
        morale::remove_stands(&rules, &mut t.state, unit, 2, &mut events, "test").unwrap();
    }
    let b = &t.state.brigades[t.blue_brigade.0];
    assert_eq!((b.losses, b.status), (10, BrigadeStatus::Broken));
    let err =
        resolve_assault(&rules, &mut t.state, regiments[2], battery, &charge(6.0, None), &mut dice(&[]))
            .unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule: "RULE-07-2.4", .. }), "{err:?}");
}

// ---------------------------------------------------------------- declaration (Ch16 7.1)

fn lines() -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let d = t.infantry("Red Regiment", t.red, 5, "regular", "rifled_musket", "line");
    t.state.brigades[t.blue_brigade.0].pips = 3;
    (t, a, d)
}

fn illegal_rule<T: std::fmt::Debug>(r: Result<T, EngineError>) -> &'static str {
    match r {
        Err(EngineError::Illegal { rule, .. }) => rule,
        other => panic!("expected an illegal declaration, got {other:?}"),
    }
}

/// RULE-05-4.4, Ch16 7.1, RULINGS C6: a disordered unit may not assault, under either reading.
#[test]
fn c6_disordered_cannot_assault() {
    for rules in [defaults(), with(|r| r.disordered_movement = DisorderedMovement::Halted)] {
        let (mut t, a, d) = lines();
        t.unit_mut(a).markers.disorder = true;
        let r = resolve_assault(&rules, &mut t.state, a, d, &charge(6.0, None), &mut dice(&[]));
        assert_eq!(illegal_rule(r), "RULE-05-4.4, Ch16 7.1, RULINGS C6");
    }
}

/// Ch16 3.2, 7.1: a road column may not assault (`no_assault`); nor may open order (Ch13 22.0).
#[test]
fn ch16_7_1_road_column_and_open_order_cannot_assault() {
    let rules = rules_with(Rulings::default(), &["open_order"]);
    let (mut t, a, d) = lines();
    t.unit_mut(a).formation = "road_column".into();
    let r = resolve_assault(&rules, &mut t.state, a, d, &charge(6.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch16 3.2, 7.1");
    t.unit_mut(a).formation = "open_order".into();
    let r = resolve_assault(&rules, &mut t.state, a, d, &charge(6.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch13 22.0, Ch16 7.1");
}

/// Ch16 7.1: a charger or a target that has left the table (removed, or with no stand left) is
/// refused, whichever of the two marks it carries.
#[test]
fn ch16_7_1_a_unit_that_has_left_the_table_neither_charges_nor_is_charged() {
    let rules = defaults();
    for (charger_gone, how) in
        [(true, "removed"), (true, "no stands"), (false, "removed"), (false, "no stands")]
    {
        let (mut t, a, d) = lines();
        let gone = t.unit_mut(if charger_gone { a } else { d });
        match how {
            "removed" => gone.removed = true,
            _ => gone.stands = 0,
        }
        let r = resolve_assault(&rules, &mut t.state, a, d, &charge(6.0, None), &mut dice(&[]));
        match r {
            Err(EngineError::Illegal { rule: "Ch16 7.1", why, .. }) => {
                assert!(why.contains("has left the table"), "{charger_gone} {how}: {why}")
            }
            other => panic!("{charger_gone} {how}: {other:?}"),
        }
    }
}

/// Ch16 7.1: a charge's distance is a distance: not a NaN, not infinite, not negative. A charge
/// from contact (0") is not refused for its distance.
#[test]
fn ch16_7_1_a_charge_distance_must_be_a_distance() {
    let rules = defaults();
    for bad in [f64::NAN, f64::INFINITY, -1.0] {
        let (mut t, a, d) = lines();
        let r = resolve_assault(&rules, &mut t.state, a, d, &charge(bad, None), &mut dice(&[]));
        match r {
            Err(EngineError::Illegal { rule: "Ch16 7.1", why, .. }) => {
                assert!(why.starts_with("charge "), "{why}")
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    let (mut t, a, d) = lines();
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    assert!(resolve_assault(&rules, &mut t.state, a, d, &charge(0.0, None), &mut ok).is_ok());
}

/// RULE-07-2.4: a Broken brigade declares no assault because its state's rule data says so
/// (`no_assault`); a library whose Broken state allows it lets the charge be declared.
#[test]
fn rule_07_2_4_the_broken_state_refuses_a_charge_as_its_rule_data_says() {
    let mut rules = defaults();
    let (mut t, a, d) = lines();
    t.state.brigades[t.blue_brigade.0].status = BrigadeStatus::Broken;
    let r = resolve_assault(&rules, &mut t.state.clone(), a, d, &charge(6.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "RULE-07-2.4");
    let mut tables = (*rules.tables).clone();
    tables.broken.no_assault = false;
    rules.tables = std::sync::Arc::new(tables);
    let r = resolve_assault(
        &rules,
        &mut t.state,
        a,
        d,
        &charge(6.0, None),
        &mut dice(&[(Purpose::Melee, &[3, 3])]),
    );
    assert!(!matches!(r, Err(EngineError::Illegal { rule: "RULE-07-2.4", .. })), "{r:?}");
}

/// Ch16 3.1, 7.1: infantry charges 9", mounted cavalry 12"; a battery cannot charge.
#[test]
fn ch16_7_1_charge_distance() {
    let rules = defaults();
    let (mut t, a, d) = lines();
    let r = resolve_assault(&rules, &mut t.state.clone(), a, d, &charge(9.5, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch16 3.1, 7.1");
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    assert!(resolve_assault(&rules, &mut t.state.clone(), a, d, &charge(9.0, None), &mut ok).is_ok());

    let cav = crate::engine::state::Unit::new(
        "Blue Horse",
        t.blue,
        crate::engine::state::Arm::Cavalry { mounted: true, horse_holders: 0, can_remount: true },
        4,
        "regular",
        "breechloading_carbine",
        "line",
    );
    let cav = t.state.add_unit(cav, Some(t.blue_brigade));
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    assert!(resolve_assault(&rules, &mut t.state.clone(), cav, d, &charge(12.0, None), &mut ok).is_ok());
    let r = resolve_assault(&rules, &mut t.state.clone(), cav, d, &charge(12.5, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch16 3.1, 7.1");

    let guns = t.battery("Blue Battery", t.blue, 2, "napoleon");
    let r = resolve_assault(&rules, &mut t.state, guns, d, &charge(2.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch16 3.1, 7.1");
}

/// Ch16 2.2, 2.3, RULINGS G8, C10: an assault costs 1 pip in bugle or courier range, 2 in the
/// distant courier tier (a Dress on the Colors assault 2 and 4), and cannot be ordered beyond
/// 24"; the banked pip pays when the pool runs dry.
#[test]
fn g8_c10_pip_costs() {
    let rules = defaults();
    let paid = |brigadier: Option<f64>, coordinated: bool, pips: u32, banked: u32| {
        let (mut t, a, d) = lines();
        t.state.brigades[t.blue_brigade.0].pips = pips;
        t.state.brigades[t.blue_brigade.0].banked = banked;
        let input = AssaultInput { brigadier_distance: brigadier, coordinated, ..charge(6.0, None) };
        let mut dice = dice(&[(Purpose::Melee, &[3, 3])]);
        resolve_assault(&rules, &mut t.state, a, d, &input, &mut dice).map(|r| {
            let b = &t.state.brigades[t.blue_brigade.0];
            (b.pips, b.banked, r)
        })
    };
    assert_eq!(paid(None, false, 3, 0).unwrap().0, 2, "bugle range: 1 pip");
    assert_eq!(paid(Some(10.0), false, 3, 0).unwrap().0, 2, "courier: 1 pip");
    assert_eq!(paid(Some(18.0), false, 3, 0).unwrap().0, 1, "distant courier: 2 pips");
    assert_eq!(paid(Some(10.0), true, 3, 0).unwrap().0, 1, "Dress on the Colors: 2 pips");
    assert_eq!(paid(Some(18.0), true, 4, 0).unwrap().0, 0, "Dress on the Colors, distant: 4 pips");
    let (pips, banked, r) = paid(Some(18.0), false, 1, 1).unwrap();
    assert_eq!((pips, banked), (0, 0), "the banked pip pays the rest");
    assert!(has(&r, |w| matches!(w, What::Pips { change: -2, pips: 0, banked: 0, .. })));
    assert_eq!(illegal_rule(paid(Some(18.0), false, 1, 0)), "Ch16 2.2, 2.3, 7.1, RULINGS G8");
    assert_eq!(illegal_rule(paid(Some(10.0), false, 0, 0)), "Ch16 2.3, 7.1");
    assert_eq!(illegal_rule(paid(Some(24.5), false, 3, 1)), "Ch16 2.2, RULINGS C10");
}

// ---------------------------------------------------------------- the 4" line (Ch16 7.2, C7)

/// A regular rifled-musket line firing one die at 4" (4+ to hit) at a five-stand charger.
fn one_die_volley() -> Option<FireInput> {
    let mut f = FireInput::at(4.0, FireKind::Closing);
    f.firing_stands = Some(1);
    Some(f)
}

/// RULINGS C7: one unsaved hit, no 6, no stand lost (no micro-hit before): no check under the
/// default `loss_or_disorder`, a check under `hit_or_six`.
#[test]
fn c7_one_hit_checks_only_under_hit_or_six() {
    let (mut t, a, d) = lines();
    let mut dl = dice(&[(Purpose::ToHit, &[5]), (Purpose::Melee, &[3, 3])]);
    let r = resolve_assault(&defaults(), &mut t.state.clone(), a, d, &charge(8.0, one_die_volley()), &mut dl)
        .unwrap();
    assert!(!r.pre_contact_check);
    assert_eq!(
        consumed(&dl),
        [(Purpose::ToHit, vec![5]), (Purpose::Melee, vec![3]), (Purpose::Melee, vec![3])]
    );
    assert!(matches!(r.result, AssaultResult::Melee(_)));

    let rules = with(|r| r.pre_contact_trigger = PreContactTrigger::HitOrSix);
    let mut dh = dice(&[(Purpose::ToHit, &[5]), (Purpose::Discipline, &[4]), (Purpose::Melee, &[3, 3])]);
    let r =
        resolve_assault(&rules, &mut t.state.clone(), a, d, &charge(8.0, one_die_volley()), &mut dh).unwrap();
    assert!(r.pre_contact_check);
    assert_eq!(
        consumed(&dh),
        [
            (Purpose::ToHit, vec![5]),
            (Purpose::Discipline, vec![4]),
            (Purpose::Melee, vec![3]),
            (Purpose::Melee, vec![3])
        ]
    );

    // `loss_or_six`: a 6 that costs no stand is enough.
    let rules = with(|r| r.pre_contact_trigger = PreContactTrigger::LossOrSix);
    // The 6 at 4" is a Shock trigger first (RULE-05-4.1): the Fresh regular passes its save (5
    // against 3+), then takes the pre-contact check (4 against 4+).
    let mut ds = dice(&[(Purpose::ToHit, &[6]), (Purpose::Discipline, &[5, 4]), (Purpose::Melee, &[5, 2])]);
    let r = resolve_assault(&rules, &mut t.state, a, d, &charge(8.0, one_die_volley()), &mut ds).unwrap();
    assert!(r.pre_contact_check);
    assert_eq!(t.unit(a).stands, 5, "no stand lost: the 6 alone triggered it");
    assert_eq!(r.result, AssaultResult::Melee(MeleeOutcome::AttackerWins));
    assert_eq!(ds.remaining(), 0);
}

/// RULINGS C7: a stand completed from an old micro-hit counts as a loss; the check fails and the
/// charge stalls 2" short, disordered (Ch16 7.2, RULE-07-1.5, C5).
#[test]
fn c7_micro_hit_completed_by_the_volley_counts_and_a_failed_check_stalls() {
    let (mut t, a, d) = lines();
    t.unit_mut(a).micro_hit = 1;
    let mut dl = dice(&[(Purpose::ToHit, &[5]), (Purpose::Discipline, &[3])]);
    let r =
        resolve_assault(&defaults(), &mut t.state, a, d, &charge(8.0, one_die_volley()), &mut dl).unwrap();
    assert!(r.pre_contact_check);
    assert_eq!(r.result, AssaultResult::Stalled);
    let blue = t.unit(a);
    assert_eq!((blue.stands, blue.micro_hit, blue.markers.disorder), (4, 0, true));
    assert!(has(
        &r,
        |w| matches!(w, What::Stalled { unit, inches } if unit == "Blue Regiment" && *inches == 2.0)
    ));
    assert!(!has(&r, |w| matches!(w, What::Contact { .. })));
    assert!(blue.turn.assaulted);
    assert_eq!(dl.remaining(), 0);
}

/// Ch16 9.0 Steady: +1 on the pre-contact check, a Discipline check caused by a closing volley.
#[test]
fn ch16_9_0_steady_helps_the_pre_contact_check() {
    let (mut t, a, d) = lines();
    t.unit_mut(a).micro_hit = 1;
    t.unit_mut(a).traits.push("steady".into());
    let mut dl = dice(&[(Purpose::ToHit, &[5]), (Purpose::Discipline, &[3]), (Purpose::Melee, &[3, 3])]);
    let r =
        resolve_assault(&defaults(), &mut t.state, a, d, &charge(8.0, one_die_volley()), &mut dl).unwrap();
    let test = r.events.iter().find_map(|e| match &e.what {
        What::Test { test: TestKind::PreContact, needed, passed, modifiers, .. } => {
            Some((*needed, *passed, modifiers.iter().map(|m| m.name.clone()).collect::<Vec<_>>()))
        }
        _ => None,
    });
    assert_eq!(test, Some((3, true, vec!["steady".to_string()])));
    assert!(matches!(r.result, AssaultResult::Melee(_)));
}

/// Ch16 2.2: the distant courier tier's -1 on the check, unless the brigadier is attached.
#[test]
fn ch16_2_2_distant_tier_minus_one_on_the_check() {
    let (mut t, a, d) = lines();
    t.unit_mut(a).micro_hit = 1;
    let input = AssaultInput { brigadier_distance: Some(18.0), ..charge(8.0, one_die_volley()) };
    let mut dl = dice(&[(Purpose::ToHit, &[5]), (Purpose::Discipline, &[4])]);
    let r = resolve_assault(&defaults(), &mut t.state, a, d, &input, &mut dl).unwrap();
    assert_eq!(r.result, AssaultResult::Stalled, "4 against 5+ fails");
}

/// RULINGS G10: a charger disordered by the volley that passes its check fights at -2; a charger
/// starting within 4" takes the volley before it moves.
#[test]
fn g10_disordered_by_the_volley_fights_at_minus_two() {
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let guns = t.battery("Red Battery", t.red, 1, "napoleon");
    t.state.brigades[t.blue_brigade.0].pips = 1;
    // Canister [3, 1] at 2+: one hit, a micro-hit, and the Napoleon's Disorder (Ch16 5.3): a check.
    let mut dl = dice(&[(Purpose::ToHit, &[3, 1]), (Purpose::Discipline, &[5]), (Purpose::Melee, &[4, 4])]);
    let r = resolve_assault(&defaults(), &mut t.state, a, guns, &charge(3.0, closing()), &mut dl).unwrap();
    assert!(has(&r, |w| matches!(w, What::Note { text } if text.contains("before it moves"))));
    assert!(r.pre_contact_check);
    let contact = index_of(&r, |w| matches!(w, What::Contact { .. })).unwrap();
    let score = r.events[contact..].iter().find_map(|e| match &e.what {
        What::ShockScore { unit, modifiers, score, .. } if unit == "Blue Regiment" => {
            Some((modifiers.iter().map(|m| (m.name.clone(), m.value)).collect::<Vec<_>>(), *score))
        }
        _ => None,
    });
    // 4 + 1 engaged (the battery's 1-section front) + 1 Fresh - 2 Disorder = 4 against the
    // battery's 4 + 1 = 5: the charge is thrown back.
    assert_eq!(score, Some((vec![("fresh".to_string(), 1), ("disordered".to_string(), -2)], 4)));
    assert_eq!(r.result, AssaultResult::Melee(MeleeOutcome::DefenderWins));
}

/// Ch16 7.2, 7.4, Ch8 6.0: a charge that goes home against a battery and wins captures it.
#[test]
fn ch8_6_0_charge_captures_a_battery() {
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let guns = t.battery("Red Battery", t.red, 2, "ordnance_rifle");
    t.state.brigades[t.blue_brigade.0].pips = 1;
    // Canister at 3+: [1, 2, 1, 2] misses.
    let mut dl = dice(&[(Purpose::ToHit, &[1, 2, 1, 2]), (Purpose::Melee, &[3, 3])]);
    let r = resolve_assault(&defaults(), &mut t.state, a, guns, &charge(8.0, closing()), &mut dl).unwrap();
    assert!(!r.pre_contact_check);
    assert_eq!(r.result, AssaultResult::Melee(MeleeOutcome::AttackerWins));
    assert!(t.unit(guns).removed);
}

/// RULE-07-2.4, RULINGS G14: a Broken target fires no closing volley and routs on contact.
#[test]
fn rule_07_2_4_broken_target_routs() {
    let (mut t, a, d) = lines();
    t.state.brigades[t.red_brigade.0].status = BrigadeStatus::Broken;
    let mut none = RecordedDice::default();
    let r = resolve_assault(&defaults(), &mut t.state, a, d, &charge(8.0, closing()), &mut none).unwrap();
    assert_eq!(r.result, AssaultResult::Routed);
    assert!(none.consumed().is_empty());
    assert!(t.unit(d).removed);
}

/// RULINGS C23: a Road Column charged is overrun (default).
#[test]
fn c23_charge_overruns_a_road_column() {
    let (mut t, a, d) = lines();
    t.unit_mut(d).formation = "road_column".into();
    let mut none = RecordedDice::default();
    let r = resolve_assault(&defaults(), &mut t.state, a, d, &charge(8.0, None), &mut none).unwrap();
    assert_eq!(r.result, AssaultResult::Overrun);
    assert!(t.unit(d).removed);
}

/// Ch16 4.2, 7.3: the defender behind a stone wall gets its +2 in the melee that follows the
/// charge.
#[test]
fn ch16_7_3_assault_on_a_stone_wall() {
    let (mut t, a, d) = lines();
    let input = AssaultInput {
        melee: MeleeInput { defender_terrain: Some("stone_wall".into()), ..MeleeInput::default() },
        ..charge(8.0, None)
    };
    let mut dl = dice(&[(Purpose::Melee, &[4, 3])]);
    let r = resolve_assault(&defaults(), &mut t.state, a, d, &input, &mut dl).unwrap();
    assert_eq!(r.result, AssaultResult::Melee(MeleeOutcome::DefenderWins));
}

/// RULE-07-1.5 (charging case) and RULINGS G9: a Spent charger tests when the closing volley is
/// fired at it, hits or not; failing stalls the charge at once, Disordered, with no pre-contact
/// check and no melee.
#[test]
fn rule_07_1_5_spent_charger_failing_under_fire_stalls() {
    let rules = defaults();
    let mut g = garnett("napoleon");
    // Two misses; the Spent test needs 3+ (Regular 4+, Garnett +1) and rolls a 2.
    let mut d = dice(&[(Purpose::ToHit, &[1, 1]), (Purpose::Discipline, &[2])]);
    let r = resolve_assault(&rules, &mut g.t.state, g.virginia, g.battery, &charge(8.0, closing()), &mut d)
        .unwrap();
    assert!(matches!(r.result, AssaultResult::Stalled), "{:?}", r.result);
    assert!(!r.pre_contact_check);
    assert!(has(&r, |w| matches!(w, What::Stalled { .. })));
    assert!(!has(&r, |w| matches!(w, What::FallBack { .. })), "a charger stalls, it does not fall back");
    assert!(g.t.unit(g.virginia).markers.disorder);
    assert_eq!(consumed(&d), vec![(Purpose::ToHit, vec![1, 1]), (Purpose::Discipline, vec![2])]);
}

/// dotc D1: a charger (6 stands) of an 8-stand brigade that has lost 1 stand; a 6-stand
/// defender's closing volley hits six times in the open, three stands fall, the brigade's
/// losses reach 4 of 8 and it breaks (RULE-07-2.4, RULINGS G6 `nearest`).
fn charge_that_breaks_its_brigade() -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let a = t.infantry("Charger", t.blue, 6, "regular", "rifled_musket", "line");
    t.infantry("Support", t.blue, 2, "regular", "rifled_musket", "line");
    t.state.brigades[t.blue_brigade.0].losses = 1;
    t.state.brigades[t.blue_brigade.0].pips = 2;
    let d = t.infantry("Defender", t.red, 6, "regular", "rifled_musket", "line");
    (t, a, d)
}

#[test]
fn dotc_d1_a_charge_whose_brigade_breaks_under_the_closing_volley_halts() {
    let (mut t, a, d) = charge_that_breaks_its_brigade();
    let mut dl = dice(&[(Purpose::ToHit, &[5, 5, 5, 5, 5, 5])]);
    let r = resolve_assault(&defaults(), &mut t.state, a, d, &charge(8.0, closing()), &mut dl)
        .expect("the charge is legal when declared, and its halt is no error");
    assert_eq!(t.state.brigades[t.blue_brigade.0].status, BrigadeStatus::Broken);
    assert_eq!(r.result, AssaultResult::Stalled);
    assert!(!r.pre_contact_check, "no check: the charge halts before the line's test");
    assert!(has(&r, |w| matches!(w, What::Stalled { unit, .. } if unit == "Charger")));
    assert!(!has(&r, |w| matches!(w, What::Contact { .. })));
    assert!(t.unit(a).markers.disorder, "the collapse disorders it (RULE-07-2.4)");
    assert_eq!(consumed(&dl), vec![(Purpose::ToHit, vec![5, 5, 5, 5, 5, 5])], "no melee dice");
}

#[test]
fn dotc_d1_goes_in_fights_the_melee_after_the_check() {
    let (mut t, a, d) = charge_that_breaks_its_brigade();
    let rules = with(|r| r.broken_during_charge = crate::rulings::BrokenDuringCharge::GoesIn);
    let mut dl = dice(&[
        (Purpose::ToHit, &[5, 5, 5, 5, 5, 5]),
        (Purpose::Discipline, &[6]),
        (Purpose::Melee, &[6, 1]),
    ]);
    let r = resolve_assault(&rules, &mut t.state, a, d, &charge(8.0, closing()), &mut dl)
        .expect("under goes_in the broken charger fights");
    assert_eq!(t.state.brigades[t.blue_brigade.0].status, BrigadeStatus::Broken);
    assert!(r.pre_contact_check, "three stands lost call for the check (RULINGS C7)");
    assert!(matches!(r.result, AssaultResult::Melee(_)), "{:?}", r.result);
    assert!(has(&r, |w| matches!(w, What::Contact { .. })));
}

/// Ch13 10.0 (module `premature_fire`, RULINGS C28): a Green defender tests 4+ at the 4" line
/// before its closing volley; the 2 fails: its volley is at -2 (rifled muskets at 4": 4+ becomes
/// 6+) and it fights the melee at -1. [5, 5, 4, 4, 1] hits nothing at 6+. Blue: 3 + 5 + 1 Fresh =
/// 9; Red: 4 + 5 + 1 Fresh - 1 fired early = 9, a Bloody Draw (without the module the same dice
/// hit 4 times at 4+).
#[test]
fn ch13_10_0_a_green_defender_fires_too_early() {
    let rules = rules_with(Rulings::default(), &["premature_fire"]);
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let d = t.infantry("Red Regiment", t.red, 5, "green", "rifled_musket", "line");
    t.state.brigades[t.blue_brigade.0].pips = 1;
    let input = AssaultInput {
        distance: 6.0,
        brigadier_distance: None,
        coordinated: false,
        closing_volley: Some(FireInput::at(4.0, FireKind::Closing)),
        melee: MeleeInput::default(),
    };
    let mut dice =
        dice(&[(Purpose::Discipline, &[2]), (Purpose::ToHit, &[5, 5, 4, 4, 1]), (Purpose::Melee, &[3, 4])]);
    let r = resolve_assault(&rules, &mut t.state, a, d, &input, &mut dice).unwrap();
    let failed = r.events.iter().any(|e| {
        matches!(
            &e.what,
            What::Test { test: TestKind::PrematureFire, needed: 4, rolled: 2, passed: false, .. }
        )
    });
    assert!(failed, "{:#?}", r.events);
    let volley = r.closing_volley.as_ref().expect("a closing volley");
    assert_eq!(volley.plan.to_hit, 6);
    assert_eq!(volley.outcome.0, 0);
    assert_eq!(r.result, AssaultResult::Melee(MeleeOutcome::BloodyDraw), "{:#?}", r.events);
}

/// Ch13 21.0: in dense fog no assault goes beyond 6" (the sky's `assault_within`); in light fog
/// the 9" charge stands.
#[test]
fn ch13_21_0_dense_fog_forbids_assaults_beyond_six_inches() {
    use crate::engine::weather::{Sky, Weather};
    let rules = defaults();
    let (mut t, a, d) = lines();
    t.state.weather = Weather { sky: Sky::DenseFog, ..Weather::default() };
    let r = resolve_assault(&rules, &mut t.state.clone(), a, d, &charge(7.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch13 21.0");
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    assert!(resolve_assault(&rules, &mut t.state.clone(), a, d, &charge(6.0, None), &mut ok).is_ok());
    t.state.weather = Weather { sky: Sky::LightFog, ..Weather::default() };
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    assert!(resolve_assault(&rules, &mut t.state, a, d, &charge(7.0, None), &mut ok).is_ok());
}

/// Ch13 21.0: in severe heat an infantry regiment that carries out an assault order takes the
/// `weather severe` entry's micro-hit at once, before any die; with a micro-hit already carried
/// it loses a stand (RULE-05-3.3).
#[test]
fn ch13_21_0_severe_heat_costs_an_assaulting_regiment_a_micro_hit() {
    use crate::engine::weather::Weather;
    let rules = defaults();
    let (mut t, a, d) = lines();
    t.state.weather = Weather { severe_heat: true, ..Weather::default() };
    let mut state = t.state.clone();
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    let r = resolve_assault(&rules, &mut state, a, d, &charge(6.0, None), &mut ok).expect("a legal assault");
    assert!(has(&r, |w| matches!(w, What::Note { text } if text.contains("severe heat"))));
    let heat = index_of(&r, |w| matches!(w, What::Note { text } if text.contains("severe heat")));
    let melee = index_of(&r, |w| matches!(w, What::Rolled { purpose: Purpose::Melee, .. }));
    assert!(heat < melee, "the heat comes before the dice");
    t.unit_mut(a).micro_hit = 1;
    let mut state = t.state.clone();
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    resolve_assault(&rules, &mut state, a, d, &charge(6.0, None), &mut ok).expect("a legal assault");
    assert!(state.unit(a).is_some_and(|u| u.stands <= 4), "the second micro-hit takes a stand");
    // No heat, no hit.
    t.state.weather = Weather::default();
    t.unit_mut(a).micro_hit = 0;
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    let r =
        resolve_assault(&rules, &mut t.state, a, d, &charge(6.0, None), &mut ok).expect("a legal assault");
    assert!(!has(&r, |w| matches!(w, What::Note { text } if text.contains("severe heat"))));
}

/// Ch16 10.2, Ch13 6.0, dotc D24: a charge that reaches the horse holders of a 4-stand
/// dismounted regiment (3 on the line, 1 with the horses) is paid like any assault (1 pip of 3),
/// rolls no die, and takes the holders: 3 stands left, no holders, never to remount; the brigade
/// clock never counted the holders (RULINGS G5), so its tally stays at 0. A regiment with no
/// holders on the table cannot be charged so.
#[test]
fn ch16_10_2_a_charge_captures_the_horse_holders() {
    let rules = defaults();
    let (mut t, a, _) = lines();
    let dismounted = crate::engine::state::Unit::new(
        "Red Horse",
        t.red,
        crate::engine::state::Arm::Cavalry { mounted: false, horse_holders: 1, can_remount: true },
        4,
        "regular",
        "breechloading_carbine",
        "skirmish",
    );
    let cav = t.state.add_unit(dismounted, Some(t.red_brigade));
    let mut state = t.state.clone();
    let events =
        charge_horse_holders(&rules, &mut state, a, cav, &charge(6.0, None)).expect("a legal charge");
    let u = state.unit(cav).expect("the regiment");
    assert_eq!(u.stands, 3);
    assert_eq!(
        u.arm,
        crate::engine::state::Arm::Cavalry { mounted: false, horse_holders: 0, can_remount: false }
    );
    assert_eq!(u.clock_stands(), 3);
    assert_eq!(state.brigades[t.red_brigade.0].losses, 0);
    assert_eq!(state.brigades[t.blue_brigade.0].pips, 2);
    assert!(events.iter().any(|e| matches!(&e.what, What::StandsLost { lost: 1, remaining: 3, .. })));
    assert!(state.unit(a).is_some_and(|u| u.turn.assaulted));
    // Taken once, there are none left to charge; and the charge reaches no farther than 9".
    let again = charge_horse_holders(&rules, &mut state, a, cav, &charge(6.0, None));
    assert_eq!(illegal_rule(again), "Ch16 10.2");
    let far = charge_horse_holders(&rules, &mut t.state, a, cav, &charge(9.5, None));
    assert_eq!(illegal_rule(far), "Ch16 3.1, 7.1");
    assert_eq!(t.state.unit(cav).map(|u| u.stands), Some(4), "a refused charge changes nothing");
}

/// Ch13 9.0, dotc D25: an elite sharpshooter regiment may not charge a formed line (nor a
/// column); it may charge skirmishers. (Without the module the scenario's trait is never given,
/// `setup`.)
#[test]
fn ch13_9_0_sharpshooters_never_charge_a_formed_line() {
    let on = rules_with(Rulings::default(), &["elite_sharpshooters"]);
    let (mut t, a, d) = lines();
    t.unit_mut(a).traits.push("elite_sharpshooters".into());
    t.unit_mut(a).formation = "sharpshooter_order".into();
    let r = resolve_assault(&on, &mut t.state.clone(), a, d, &charge(6.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch13 9.0");
    t.unit_mut(d).formation = "assault_column".into();
    let r = resolve_assault(&on, &mut t.state.clone(), a, d, &charge(6.0, None), &mut dice(&[]));
    assert_eq!(illegal_rule(r), "Ch13 9.0");
    t.unit_mut(d).formation = "skirmish".into();
    let mut ok = dice(&[(Purpose::Melee, &[3, 3])]);
    assert!(resolve_assault(&on, &mut t.state.clone(), a, d, &charge(6.0, None), &mut ok).is_ok());
}

/// Ch13 9.0, dotc D25: charged, elite sharpshooters fight at -2. A line of 5 charging a
/// sharpshooter line of 5 from 6": both roll 3; the charger has 3 + 5 engaged + 1 Fresh + 1
/// momentum = 10, the sharpshooters 3 + 5 + 1 - 2 = 7 (9 without the trait, which `setup` gives
/// only with the module on): the charger wins by 3 (by 1 without).
#[test]
fn ch13_9_0_sharpshooters_caught_in_a_melee_fight_at_minus_2() {
    let margin = |rules: &Rules, sharpshooters: bool| {
        let (mut t, a, d) = lines();
        if sharpshooters {
            t.unit_mut(d).traits.push("elite_sharpshooters".into());
        }
        let input = AssaultInput {
            melee: MeleeInput { momentum: true, ..MeleeInput::default() },
            ..charge(6.0, None)
        };
        let mut d6 = dice(&[(Purpose::Melee, &[3, 3])]);
        let r = resolve_assault(rules, &mut t.state, a, d, &input, &mut d6).expect("a legal charge");
        r.events
            .iter()
            .find_map(|e| match &e.what {
                What::Melee { margin, .. } => Some(*margin),
                _ => None,
            })
            .expect("a melee")
    };
    let on = rules_with(Rulings::default(), &["elite_sharpshooters"]);
    assert_eq!(margin(&on, true), 3);
    assert_eq!(margin(&on, false), 1);
}
