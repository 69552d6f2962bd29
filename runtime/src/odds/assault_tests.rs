//! Tests of the assault chain (Ch16 7.2-7.4, Ch6 3.0, RULINGS C3, C7, E5, G1, G3, G10).

use proptest::prelude::*;

use super::*;
use crate::odds::{TargetFormation, fire_odds};
use crate::rulings::ToHitLimits;

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

fn odds(q: &AssaultQuery, rulings: &Rulings) -> AssaultOdds {
    assault_odds(q, data(), rulings).expect("the assault can be priced")
}

fn side(engaged_stands: u32, modifier: i32) -> MeleeSide {
    MeleeSide { engaged_stands, modifier }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The ends of the chain add up to 1, and contact is the sum of the melee results.
fn assert_sums(o: &AssaultOdds) {
    let total = o.p_destroyed + o.p_stalled + o.p_attacker_wins + o.p_draw + o.p_defender_wins;
    assert!((total - 1.0).abs() < 1e-12, "sums to {total}: {o:?}");
    assert!((o.p_contact - (o.p_attacker_wins + o.p_draw + o.p_defender_wins)).abs() < 1e-12);
    for p in [
        o.p_destroyed,
        o.p_stalled,
        o.p_contact,
        o.p_attacker_wins,
        o.p_draw,
        o.p_defender_wins,
        o.p_pre_contact_check,
        o.p_contact_disordered,
    ] {
        assert!((-1e-15..=1.0 + 1e-12).contains(&p), "{p} out of [0, 1]: {o:?}");
    }
    assert!(o.p_contact_disordered <= o.p_contact + 1e-12);
}

/// RULINGS E5, Garnett's charge: one section firing canister 2D6 at 2+ at the 4" line (a field
/// howitzer, whose canister has no automatic Disorder) at the 33rd Virginia, 2 stands, Spent
/// (-1 on the Shock save and in melee), Regular (4+), in the open (no save).
fn garnett() -> AssaultQuery {
    let mut charger = Charger::new(2, 4);
    charger.starting_stands = 8;
    charger.shock_save_modifier = -1;
    charger.melee_modifier = -1;
    AssaultQuery { volley: FireQuery::new("field_howitzer", 1, 4.0), charger, defender: side(2, 0) }
}

/// By hand, Numbered Shock (RULINGS C3) and the loss-or-disorder trigger (C7):
/// - Destroyed: both dice hit (2+ each: 5/6 x 5/6 = 25/36). 2 unsaved hits = 1 stand, leaving
///   the Color Stand: the regiment shatters (Ch16 5.4). Expected stands lost = 25/36.
/// - Two 1s (1/36): nothing happens, contact in good order.
/// - One hit (2 x 1/6 x 5/6 = 10/36): a micro-hit, no stand. The hit is a 6 in 2/36 of the
///   throws: a Shock trigger at <= 6" (one 6), so a save at 4+ with Spent -1: passes on 5-6
///   (2/6). Failing (4/6) disorders it, which calls for the pre-contact check at 4+ (3/6).
///   The other 8/36 do nothing.
/// - Stalled: 2/36 x 4/6 x 1/2 = 1/54. Disordered at contact: the same 1/54.
/// - In good order at contact: 1/36 + 8/36 + 2/36 x 2/6 = 58/216.
/// - Melee (Ch16 7.3), 2 stands -1 against 2 stands +0: the attacker wins when its die beats
///   the defender's by 2 or more (10/36), draws at 1 (5/36). Disordered (-2 more, -3): wins by 4+
///   (3/36), draws at 3 (3/36).
#[test]
fn garnett_by_hand_rulings_e5() {
    let o = odds(&garnett(), &Rulings::default());
    assert_sums(&o);
    assert!(close(o.p_destroyed, 25.0 / 36.0), "{}", o.p_destroyed);
    assert!(close(o.expected_stands_lost_to_volley, 25.0 / 36.0));
    assert!(close(o.p_stalled, 1.0 / 54.0), "{}", o.p_stalled);
    assert!(close(o.p_contact_disordered, 1.0 / 54.0));
    assert!(close(o.p_pre_contact_check, 2.0 / 36.0 * 4.0 / 6.0));
    let (clean, dis) = (58.0 / 216.0, 4.0 / 216.0);
    assert!(close(o.p_contact, clean + dis));
    assert!(close(o.p_attacker_wins, clean * 10.0 / 36.0 + dis * 3.0 / 36.0));
    assert!(close(o.p_draw, clean * 5.0 / 36.0 + dis * 3.0 / 36.0));
    assert!(close(o.p_defender_wins, clean * 21.0 / 36.0 + dis * 30.0 / 36.0));
    assert_eq!(o.p_check_passes, 0.5);
    assert_eq!(o.p_shock_save_passes, Some(2.0 / 6.0));
    assert_eq!(o.closing_volley.dice, 2);
    assert_eq!(o.closing_volley.to_hit, 2);

    // With a micro-hit already, a single hit completes the stand: P(at least 1 hit) = 35/36.
    let mut q = garnett();
    q.charger.micro_hit = true;
    assert!(close(odds(&q, &Rulings::default()).p_destroyed, 35.0 / 36.0));

    // As printed (C3 any_six_disorders): the 6 disorders outright: stalled 2/36 x 1/2.
    let o = odds(&garnett(), &Rulings::as_printed());
    assert!(close(o.p_stalled, 1.0 / 36.0));
    assert_eq!(o.p_shock_save_passes, None);

    // A Napoleon's canister disorders with any hit (Ch16 5.3): one hit of the 10/36 disorders
    // it, and half of those stall.
    let mut q = garnett();
    q.volley.weapon = "napoleon".into();
    let o = odds(&q, &Rulings::default());
    assert!(close(o.p_destroyed, 25.0 / 36.0));
    assert!(close(o.p_stalled, 10.0 / 36.0 / 2.0));
    assert!(o.canister_disorder);
    assert_eq!(o.p_shock_save_passes, None);
    assert_sums(&o);

    // Spent: it also tests for being fired on, hits or not (RULE-07-1.4, RULINGS G9), at 4+, and
    // a charger that fails stalls (RULE-07-1.5): half of the 11/36 that survive the volley. Of
    // those that pass, the 8/216 disordered by the Shock take the pre-contact check too (half
    // of them: 4/216) and half of those stall (2/216).
    let mut q = garnett();
    q.charger.tests_under_fire = true;
    let o = odds(&q, &Rulings::default());
    assert_sums(&o);
    assert!(close(o.p_pre_contact_check, 4.0 / 216.0), "{}", o.p_pre_contact_check);
    assert!(close(o.p_stalled, 11.0 / 72.0 + 2.0 / 216.0), "{}", o.p_stalled);
    assert!(close(o.p_contact_disordered, 2.0 / 216.0));
}

/// RULE-07-3.4: a Disordered charger that is disordered again takes a micro-hit, which with an
/// old odd hit completes a stand.
#[test]
fn double_disorder_completes_a_stand_rule_07_3_4() {
    // 3 stands, a micro-hit, already Disordered; 1 section of howitzer canister (2D6 at 2+).
    let mut charger = Charger::new(3, 4);
    charger.micro_hit = true;
    charger.disordered = true;
    let q = AssaultQuery { volley: FireQuery::new("field_howitzer", 1, 4.0), charger, defender: side(2, 0) };
    let as_printed = odds(&q, &Rulings::as_printed());
    // Destroyed: 3 hits are needed from hits alone (impossible with 2 dice) unless a 6 adds the
    // micro-hit: two hits with the old micro-hit make 3 = 1 stand + 1 odd; a 6 among them (any
    // 6 disorders, C3 as printed) completes the second stand and leaves 1: shattered.
    // P(two hits, at least one a 6) = 25/36 - P(both in 2..5) = 25/36 - 16/36 = 9/36.
    assert!(close(as_printed.p_destroyed, 9.0 / 36.0), "{}", as_printed.p_destroyed);
    assert_sums(&as_printed);
    // Already disordered at contact every time: the penalty always applies.
    assert!(close(as_printed.p_contact_disordered, as_printed.p_contact));
}

/// RULINGS C3: a Shock trigger that disorders outright stalls more charges than one that
/// forces a save (a Fresh Regular charger saves on 3+).
#[test]
fn any_six_disorders_stalls_more_than_numbered_rulings_c3() {
    let mut charger = Charger::new(5, 4);
    charger.shock_save_modifier = 1;
    charger.melee_modifier = 1;
    let q = AssaultQuery { volley: FireQuery::new("rifled_musket", 5, 4.0), charger, defender: side(5, 0) };
    let numbered = odds(&q, &Rulings::default());
    let printed = odds(&q, &Rulings::as_printed());
    assert_sums(&numbered);
    assert_sums(&printed);
    assert!(printed.p_stalled > numbered.p_stalled + 0.01, "{} vs {}", printed.p_stalled, numbered.p_stalled);
    assert!(printed.p_contact_disordered > numbered.p_contact_disordered);
    assert!(printed.p_attacker_wins < numbered.p_attacker_wins);
    // The volley's hits are the same; only the Disorder differs.
    assert!(close(printed.p_destroyed, numbered.p_destroyed));
}

/// RULINGS C7: hit-or-six calls for the check at least as often as loss-or-six, which calls for
/// it at least as often as loss-or-disorder (a loss needs a hit; a Shock needs a 6).
#[test]
fn pre_contact_triggers_rulings_c7() {
    let q = AssaultQuery {
        volley: FireQuery::new("rifled_musket", 4, 4.0),
        charger: Charger::new(6, 5),
        defender: side(4, 0),
    };
    let with = |trigger| odds(&q, &Rulings { pre_contact_trigger: trigger, ..Rulings::default() });
    let lod = with(PreContactTrigger::LossOrDisorder);
    let los = with(PreContactTrigger::LossOrSix);
    let hos = with(PreContactTrigger::HitOrSix);
    for o in [&lod, &los, &hos] {
        assert_sums(o);
    }
    assert!(hos.p_pre_contact_check > los.p_pre_contact_check + 0.01);
    assert!(los.p_pre_contact_check > lod.p_pre_contact_check + 0.01);
    assert!(hos.p_stalled > los.p_stalled && los.p_stalled > lod.p_stalled);
    // Hit or six: the only chain with no check is a volley with no hit and no 6: every die
    // misses on 1-3 (rifled musket 4+ at short range): (1/2)^4.
    assert!(close(hos.p_pre_contact_check, 1.0 - 0.5f64.powi(4)));
}

/// RULINGS G3: an assault column fights with 2 stands however many it has; a line with all.
#[test]
fn frontage_limits_engaged_stands_rulings_g3() {
    let mut line = AssaultQuery {
        volley: FireQuery::new("smoothbore_musket", 1, 4.0),
        charger: Charger::new(6, 3),
        defender: side(3, 0),
    };
    line.volley.target = TargetFormation::Line;
    let mut column = line.clone();
    column.charger.frontage = Some(2);
    column.volley.target = TargetFormation::Column;
    let (l, c) = (odds(&line, &Rulings::default()), odds(&column, &Rulings::default()));
    assert_sums(&l);
    assert_sums(&c);
    assert!(l.p_attacker_wins > c.p_attacker_wins);
}

/// The disorder penalty is the rule data's unless the query says otherwise (RULINGS G10).
#[test]
fn disorder_penalty_from_the_rule_data_or_the_query() {
    let mut q = garnett();
    q.charger.disordered = true;
    let from_data = odds(&q, &Rulings::default());
    q.charger.disorder_melee_penalty = Some(-2);
    assert_eq!(odds(&q, &Rulings::default()), from_data);
    q.charger.disorder_melee_penalty = Some(0);
    assert!(odds(&q, &Rulings::default()).p_attacker_wins > from_data.p_attacker_wins);
}

/// The volley's joint distribution agrees with the volley odds: the unsaved hits, and the Shock
/// chance (RULINGS C3), for both to-hit limits (RULINGS G1).
#[test]
fn volley_outcomes_match_fire_odds() {
    let queries = [
        FireQuery::new("rifled_musket", 5, 4.0),
        FireQuery { cover: Cover::Heavy, ..FireQuery::new("napoleon", 3, 5.0) },
        FireQuery { cover: Cover::Light, smoke: true, ..FireQuery::new("repeating_rifle", 5, 12.0) },
        FireQuery {
            smoke: true,
            disordered: true,
            hesitant: true,
            ..FireQuery::new("smoothbore_musket", 5, 10.0)
        },
    ];
    for rulings in [
        Rulings::default(),
        Rulings::as_printed(),
        Rulings { to_hit_limits: ToHitLimits::Unclamped, ..Rulings::default() },
    ] {
        for q in &queries {
            let fire = fire_odds(q, data(), &rulings).unwrap();
            let v = volley(q, data(), &rulings).unwrap();
            let outcomes = volley_outcomes(&v);
            let mut unsaved = vec![0.0; fire.unsaved.len()];
            let (mut shock, mut no_hit) = (0.0, 0.0);
            for o in &outcomes {
                unsaved[o.unsaved as usize] += o.p;
                if o.sixes >= v.sixes_for_shock {
                    shock += o.p;
                }
                if !o.hit {
                    no_hit += o.p;
                }
            }
            for (k, (a, b)) in unsaved.iter().zip(&fire.unsaved).enumerate() {
                assert!((a - b).abs() < 1e-12, "{q:?}: P({k} unsaved) {a} vs {b}");
            }
            assert!((shock - fire.p_shock).abs() < 1e-12, "{q:?}");
            assert!((no_hit - fire.hits[0]).abs() < 1e-12, "{q:?}");
        }
    }
}

#[test]
fn errors() {
    let r = Rulings::default();
    let ok = garnett();
    let mut q = ok.clone();
    q.volley.weapon = "nope".into();
    assert_eq!(
        assault_odds(&q, data(), &r),
        Err(AssaultError::Volley(OddsError::UnknownWeapon("nope".into())))
    );
    let mut q = ok.clone();
    q.volley.range = 40.0;
    assert!(matches!(assault_odds(&q, data(), &r), Err(AssaultError::Volley(OddsError::OutOfRange { .. }))));
    let mut q = ok.clone();
    q.volley.stands = 0;
    assert_eq!(assault_odds(&q, data(), &r), Err(AssaultError::Volley(OddsError::NoStands)));
    let mut q = ok.clone();
    q.charger.stands = 0;
    assert_eq!(assault_odds(&q, data(), &r), Err(AssaultError::NoChargerStands));
    let mut q = ok.clone();
    q.charger.stands = 1;
    assert_eq!(assault_odds(&q, data(), &r), Err(AssaultError::AlreadyShattered(1)));
    q.charger.infantry = false;
    assert!(assault_odds(&q, data(), &r).is_ok(), "RULINGS G19: only infantry shatters");
    let mut q = ok.clone();
    q.charger.starting_stands = 1;
    assert_eq!(assault_odds(&q, data(), &r), Err(AssaultError::MoreThanStarting { stands: 2, starting: 1 }));
    let mut q = ok.clone();
    q.charger.frontage = Some(0);
    assert_eq!(assault_odds(&q, data(), &r), Err(AssaultError::NoFrontage));
    let mut q = ok.clone();
    q.defender.engaged_stands = 0;
    assert_eq!(assault_odds(&q, data(), &r), Err(AssaultError::NoDefenderStands));
    assert!(assault_monte_carlo(&q, data(), &r, 10, 1).is_err());
    assert!(AssaultError::NoDefenderStands.to_string().contains("G3"));
}

/// Ch16 8.1 under RULINGS C4, and the Shock save modifiers of Ch16 5.5.
#[test]
fn health_and_shock_save_modifier() {
    let r = Rulings::default();
    let id = |stands, starting| health_state(data(), &r, stands, starting).unwrap().meta.id.clone();
    assert_eq!(id(8, 8), "fresh");
    assert_eq!(id(6, 8), "worn");
    assert_eq!(id(2, 8), "spent");
    assert_eq!(id(2, 4), "spent", "C4 combined: 2 stands is Spent at 50%");
    assert_eq!(id(1, 4), "shattered");
    let pct = Rulings { health_states: HealthStates::Percentages, ..r };
    assert_eq!(health_state(data(), &pct, 2, 4).unwrap().meta.id, "worn");
    let save = |stands, starting, cover| {
        let h = health_state(data(), &r, stands, starting).unwrap();
        shock_save_modifier(data(), h, cover).unwrap()
    };
    assert_eq!(save(8, 8, Cover::Open), 1);
    assert_eq!(save(6, 8, Cover::Open), 0);
    assert_eq!(save(2, 8, Cover::Open), -1);
    assert_eq!(save(2, 8, Cover::Light), 0);
    assert_eq!(save(8, 8, Cover::Heavy), 2);
}

/// 100,000 seeded assaults agree with the exact odds within 4 standard errors.
#[test]
fn monte_carlo_agrees_with_exact() {
    let mut cases: Vec<(AssaultQuery, Rulings)> = vec![(garnett(), Rulings::default())];
    // A Napoleon battery at a Disordered column with a micro-hit (double Disorder).
    let mut q = AssaultQuery {
        volley: FireQuery { target: TargetFormation::Column, ..FireQuery::new("napoleon", 2, 4.0) },
        charger: Charger::new(5, 4),
        defender: side(3, 1),
    };
    q.charger.micro_hit = true;
    q.charger.disordered = true;
    q.charger.frontage = Some(2);
    q.charger.melee_modifier = 2;
    cases.push((q, Rulings::default()));
    // A Fresh Regular line against 5 rifled muskets, as printed, with hit-or-six.
    let mut q = AssaultQuery {
        volley: FireQuery::new("rifled_musket", 5, 4.0),
        charger: Charger::new(6, 4),
        defender: side(5, 0),
    };
    q.charger.shock_save_modifier = 1;
    q.charger.melee_modifier = 2;
    cases.push((
        q.clone(),
        Rulings { pre_contact_trigger: PreContactTrigger::HitOrSix, ..Rulings::as_printed() },
    ));
    // The same behind light cover (a save), Green, loss-or-six, a Spent charger testing anyway.
    q.volley.cover = Cover::Light;
    q.charger.discipline = 5;
    q.charger.tests_under_fire = true;
    q.charger.discipline_modifier = 1;
    cases.push((q, Rulings { pre_contact_trigger: PreContactTrigger::LossOrSix, ..Rulings::default() }));
    for (i, (q, rulings)) in cases.iter().enumerate() {
        let exact = odds(q, rulings);
        assert_sums(&exact);
        let est = assault_monte_carlo(q, data(), rulings, 100_000, 11 + i as u64).unwrap();
        assert_eq!(est.trials, 100_000);
        for (name, e, x) in [
            ("p_destroyed", est.p_destroyed, exact.p_destroyed),
            ("p_stalled", est.p_stalled, exact.p_stalled),
            ("p_contact", est.p_contact, exact.p_contact),
            ("p_attacker_wins", est.p_attacker_wins, exact.p_attacker_wins),
            ("p_draw", est.p_draw, exact.p_draw),
            ("p_defender_wins", est.p_defender_wins, exact.p_defender_wins),
            ("p_pre_contact_check", est.p_pre_contact_check, exact.p_pre_contact_check),
            ("p_contact_disordered", est.p_contact_disordered, exact.p_contact_disordered),
            (
                "expected_stands_lost_to_volley",
                est.expected_stands_lost_to_volley,
                exact.expected_stands_lost_to_volley,
            ),
        ] {
            // An outcome that cannot happen is never simulated either.
            if x == 0.0 {
                assert_eq!(e.mean, 0.0, "case {i} {name}");
                continue;
            }
            assert!(
                (e.mean - x).abs() <= 4.0 * e.std_error.max(1e-9),
                "case {i} {name}: simulated {} vs exact {x} (se {})",
                e.mean,
                e.std_error
            );
        }
    }
}

fn arb_query() -> impl Strategy<Value = (AssaultQuery, Rulings)> {
    let weapons = prop::sample::select(vec![
        ("rifled_musket", 1u32, 20u32),
        ("smoothbore_musket", 1, 14),
        ("repeating_rifle", 1, 20),
        ("napoleon", 1, 30),
        ("field_howitzer", 1, 24),
        ("ordnance_rifle", 1, 36),
    ]);
    (
        weapons,
        1u32..8,
        0u32..=20,
        0usize..3,
        any::<bool>(),
        (2u32..12, any::<bool>(), any::<bool>(), 3u32..=5, -2i32..=2, -2i32..=2, prop::option::of(1u32..4)),
        (-3i32..=3, 1u32..6, -2i32..=3, any::<bool>(), any::<bool>(), 0usize..3, any::<bool>()),
    )
        .prop_map(|((weapon, _, max), stands, range, cover, column, ch, rest)| {
            let (cstands, micro, dis, discipline, dmod, smod, frontage) = ch;
            let (mmod, dstands, defmod, printed, unclamped, trigger, under_fire) = rest;
            let mut volley = FireQuery::new(weapon, stands, f64::from(range.min(max)));
            volley.cover = [Cover::Open, Cover::Light, Cover::Heavy][cover];
            volley.target = if column { TargetFormation::Column } else { TargetFormation::Line };
            let mut charger = Charger::new(cstands, discipline);
            charger.micro_hit = micro;
            charger.disordered = dis;
            charger.discipline_modifier = dmod;
            charger.shock_save_modifier = smod;
            charger.frontage = frontage;
            charger.melee_modifier = mmod;
            charger.tests_under_fire = under_fire;
            let mut rulings = if printed { Rulings::as_printed() } else { Rulings::default() };
            if unclamped {
                rulings.to_hit_limits = ToHitLimits::Unclamped;
            }
            rulings.pre_contact_trigger = [
                PreContactTrigger::LossOrDisorder,
                PreContactTrigger::HitOrSix,
                PreContactTrigger::LossOrSix,
            ][trigger];
            (AssaultQuery { volley, charger, defender: side(dstands, defmod) }, rulings)
        })
}

proptest! {
    /// Every chain ends once: destroyed, stalled, or one of the three melee results.
    #[test]
    fn probabilities_sum_to_one((q, rulings) in arb_query()) {
        let o = assault_odds(&q, data(), &rulings).expect("valid");
        assert_sums(&o);
        // The volley alone removes at most the charger's stands.
        prop_assert!(o.expected_stands_lost_to_volley <= f64::from(q.charger.stands) + 1e-12);
        // Without a Spent charger's own test, a stall needs the pre-contact check.
        if !q.charger.tests_under_fire {
            prop_assert!(o.p_stalled <= o.p_pre_contact_check + 1e-12);
        }
    }
}

/// RULINGS C13: a Hesitant brigade fires at -1 in its own Phase 3 only (the default), or in all
/// its fire (`all_fire`); the defender's volley in an assault is a closing volley, so by default
/// a Hesitant defender's closing volley hits on its usual number.
#[test]
fn rulings_c13_a_hesitant_defenders_closing_volley() {
    let hesitant = FireQuery { hesitant: true, ..FireQuery::new("rifled_musket", 5, 4.0) };
    let q = AssaultQuery { volley: hesitant, ..garnett() };
    assert_eq!(odds(&q, &Rulings::default()).closing_volley.to_hit, 4, "short range 4+, no -1");
    let all_fire = Rulings { hesitant_fire: crate::rulings::HesitantFire::AllFire, ..Rulings::default() };
    assert_eq!(odds(&q, &all_fire).closing_volley.to_hit, 5, "the -1 under all_fire");
}
