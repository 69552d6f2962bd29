//! Tests of the volley odds against the rulebook's own numbers (RULINGS D, Ch15 3.0).

use super::*;
use crate::rulings::{Enfilade, ToHitLimits};

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

fn odds(q: &FireQuery) -> FireOdds {
    fire_odds(q, data(), &Rulings::default()).expect("the volley can be priced")
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn with_cover(q: &FireQuery, cover: Cover) -> FireQuery {
    FireQuery { cover, ..q.clone() }
}

/// The brief's anchor: RULE-05-2.1 5D6, Ch16 5.2 rifled musket 4+ at medium, open ground (no
/// save, RULE-05-3.2), 2 unsaved hits a stand (RULE-05-3.3).
#[test]
fn rifled_musket_five_stands_at_ten_inches_rule_05_2_2() {
    let o = odds(&FireQuery::new("rifled_musket", 5, 10.0));
    assert_eq!(o.dice, 5);
    assert_eq!(o.band, "medium");
    assert_eq!(o.to_hit, 4);
    assert_eq!(o.save, None);
    assert!((o.expected_hits - 2.5).abs() < 1e-12);
    assert!((o.expected_unsaved - 2.5).abs() < 1e-12);
    assert!((o.expected_stands_lost - 1.25).abs() < 1e-12);
}

/// Ch13 7.0 Counter-Battery Fire, dotc D10, worked by hand: one Napoleon section (2D6) at a
/// battery 12" away (Medium 4+, open, no save). Each die is a 6 (1/6: a gun stand destroyed), a
/// 4 or 5 (2/6: a hit) or a miss (3/6). Two 6s: 1/36, 2 stands. One 6 and anything else:
/// 2 x 1/6 x 5/6 = 10/36, 1 stand. Two plain hits: 4/36, 1 stand. Else (21/36): none. So
/// P(0, 1, 2 stands) = 21/36, 14/36, 1/36; without the module 2 hits = 1 stand: 27/36, 9/36.
/// The unsaved hits are the plain hits alone: P(0, 1, 2) = 16/36, 16/36, 4/36; expected
/// stands 1/3 (unsaved / 2) + 1/3 (the 6s).
#[test]
fn ch13_7_0_counter_battery_odds_by_hand() {
    let mut q = FireQuery::new("napoleon", 1, 12.0);
    q.target = TargetFormation::Battery;
    let off = odds(&q);
    q.modules = vec!["advanced_artillery".to_string()];
    let on = odds(&q);
    let close =
        |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
    assert!(close(&on.stands_lost, &[21.0 / 36.0, 14.0 / 36.0, 1.0 / 36.0]), "{:?}", on.stands_lost);
    assert!(close(&off.stands_lost, &[27.0 / 36.0, 9.0 / 36.0]), "{:?}", off.stands_lost);
    assert!(close(&on.unsaved, &[16.0 / 36.0, 16.0 / 36.0, 4.0 / 36.0]), "{:?}", on.unsaved);
    assert!((on.expected_stands_lost - 2.0 / 3.0).abs() < 1e-12);
    assert!((on.expected_hits - 1.0).abs() < 1e-12);
    assert!((on.p_shock - 1.0 / 36.0).abs() < 1e-12);
}

/// Ch13 7.0 Bouncing Solid Shot: one Napoleon section enfilading a line at 10" (Medium 4+,
/// enfilade +1: 3+) rolls 2D6, 4D6 with the module: 4 x 4/6 = 8/3 hits expected, against 4/3.
#[test]
fn ch13_7_0_bouncing_shot_odds_by_hand() {
    let mut q = FireQuery::new("napoleon", 1, 10.0);
    q.enfilade = true;
    let off = odds(&q);
    q.modules = vec!["advanced_artillery".to_string()];
    let on = odds(&q);
    assert_eq!((off.dice, off.to_hit, on.dice, on.to_hit), (2, 3, 4, 3));
    assert!((on.expected_hits - 8.0 / 3.0).abs() < 1e-12);
    assert!((off.expected_hits - 4.0 / 3.0).abs() < 1e-12);
}

/// RULINGS D, the Ch15 3.0 matrix: hit %, expected hits, expected unsaved vs Light and vs
/// Heavy, stands (= expected hits in the open / 2, RULE-05-3.3; the same as vs Heavy here).
/// Repeaters 7D6 are 5 repeating-rifle stands (+2 dice, Ch16 5.2); Napoleon 4D6 is 2
/// sections at canister (Ch16 5.3).
#[test]
fn chapter_15_matrix_rulings_d() {
    #[rustfmt::skip]
    let rows: [(&str, &str, u32, f64, [f64; 5]); 7] = [
        ("Smoothbore Short", "smoothbore_musket", 5, 5.0, [66.7, 3.33, 2.22, 1.67, 1.67]),
        ("Smoothbore Medium", "smoothbore_musket", 5, 10.0, [33.3, 1.67, 1.11, 0.83, 0.83]),
        ("Rifled Short", "rifled_musket", 5, 5.0, [50.0, 2.50, 1.67, 1.25, 1.25]),
        ("Rifled Medium", "rifled_musket", 5, 10.0, [50.0, 2.50, 1.67, 1.25, 1.25]),
        ("Rifled Long", "rifled_musket", 5, 16.0, [33.3, 1.67, 1.11, 0.83, 0.83]),
        ("Repeaters 7D6", "repeating_rifle", 5, 5.0, [66.7, 4.67, 3.11, 2.33, 2.33]),
        ("Napoleon 4D6", "napoleon", 2, 5.0, [83.3, 3.33, 2.22, 1.67, 1.67]),
    ];
    for (name, weapon, stands, range, [pct, hits, light, heavy, stands_lost]) in rows {
        let q = FireQuery::new(weapon, stands, range);
        let open = odds(&q);
        let vs_light = odds(&with_cover(&q, Cover::Light));
        let vs_heavy = odds(&with_cover(&q, Cover::Heavy));
        assert_eq!(round1(open.p_hit * 100.0), pct, "{name}: hit %");
        assert_eq!(round2(open.expected_hits), hits, "{name}: expected hits");
        assert_eq!(round2(vs_light.expected_unsaved), light, "{name}: vs Light (5+, Ch16 5.4)");
        assert_eq!(round2(vs_heavy.expected_unsaved), heavy, "{name}: vs Heavy (4+, Ch16 5.4)");
        assert_eq!(round2(open.expected_stands_lost), stands_lost, "{name}: stands");
    }
    // "0.62 is really 0.625": Rifled vs Heavy stands.
    let heavy = odds(&with_cover(&FireQuery::new("rifled_musket", 5, 10.0), Cover::Heavy));
    assert!((heavy.expected_stands_lost - 0.625).abs() < 1e-12);
    assert_eq!(odds(&FireQuery::new("repeating_rifle", 5, 5.0)).dice, 7, "RULINGS D (c)");
    assert_eq!(odds(&FireQuery::new("napoleon", 2, 5.0)).dice, 4, "RULE-05-2.1: 2D6 a section");
}

/// RULINGS D suppression table and C3 (numbered): one natural 6 at <= 6", two beyond
/// (RULE-05-4.1, Ch16 5.5). 3..7 dice of rifled musket.
#[test]
fn suppression_table_rulings_d_and_c3() {
    let near = [42.1, 51.8, 59.8, 66.5, 72.1];
    let far = [7.4, 13.2, 19.6, 26.3, 33.0];
    for (i, stands) in (3..=7).enumerate() {
        let at6 = odds(&FireQuery::new("rifled_musket", stands, 6.0));
        assert_eq!(round1(at6.p_shock * 100.0), near[i], "{stands} dice at 6\"");
        let at10 = odds(&FireQuery::new("rifled_musket", stands, 10.0));
        assert_eq!(round1(at10.p_shock * 100.0), far[i], "{stands} dice beyond 6\"");
    }
    // As printed (C3 any_six_disorders): one 6 at any range.
    let printed =
        fire_odds(&FireQuery::new("rifled_musket", 5, 10.0), data(), &Rulings::as_printed()).unwrap();
    assert_eq!(round1(printed.p_shock * 100.0), 59.8);
}

#[test]
fn every_distribution_sums_to_one() {
    let mut queries = vec![
        FireQuery::new("rifled_musket", 5, 10.0),
        FireQuery::new("napoleon", 3, 25.0),
        FireQuery::new("breechloading_carbine", 5, 3.0),
        FireQuery::new("repeating_rifle", 8, 18.0),
    ];
    for q in queries.clone() {
        queries.push(FireQuery {
            cover: Cover::Heavy,
            target: TargetFormation::Road,
            smoke: true,
            ..q.clone()
        });
        queries.push(FireQuery {
            cover: Cover::Light,
            target: TargetFormation::Skirmish,
            disordered: true,
            ..q
        });
    }
    for q in &queries {
        let o = odds(q);
        for (name, dist) in [("hits", &o.hits), ("unsaved", &o.unsaved), ("stands_lost", &o.stands_lost)] {
            let sum: f64 = dist.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12, "{q:?} {name} sums to {sum}");
            assert!(dist.iter().all(|&p| p >= 0.0));
        }
        assert_eq!(o.hits.len(), o.dice as usize + 1);
    }
}

/// RULINGS G16: a breechloader adds floor(stands / 2) dice; 5 stands roll 7D6.
#[test]
fn breechloader_bonus_is_floor_half_rulings_g16() {
    assert_eq!(odds(&FireQuery::new("breechloading_carbine", 5, 3.0)).dice, 7);
    assert_eq!(odds(&FireQuery::new("breechloading_carbine", 4, 3.0)).dice, 6);
}

/// Ch16 5.6 to-hit modifiers and the G1 clamp.
#[test]
fn to_hit_modifiers_ch16_5_6_and_g1_clamp() {
    let base = FireQuery::new("smoothbore_musket", 5, 10.0); // 5+ at medium
    assert_eq!(odds(&FireQuery { disordered: true, ..base.clone() }).to_hit, 6);
    assert_eq!(odds(&FireQuery { enfilade: true, ..base.clone() }).to_hit, 4);
    assert_eq!(odds(&FireQuery { screen: true, ..base.clone() }).to_hit, 6);
    assert_eq!(odds(&FireQuery { hesitant: true, ..base.clone() }).to_hit, 6, "RULINGS C13");
    assert_eq!(odds(&FireQuery { smoke: true, ..base.clone() }).to_hit, 6, "smoke beyond 6\"");
    // RULE-05-5.3: no smoke penalty within 6".
    let close = FireQuery { smoke: true, ..FireQuery::new("smoothbore_musket", 5, 6.0) };
    assert_eq!(odds(&close).to_hit, 3);
    // G1: smoke + Disorder + Hesitant on 5+ is 8+, clamped to 6+: a natural 6 still hits.
    let worst = FireQuery { smoke: true, disordered: true, hesitant: true, ..base.clone() };
    let o = odds(&worst);
    assert_eq!(o.to_hit, 6);
    assert!((o.p_hit - 1.0 / 6.0).abs() < 1e-12);
    let unclamped = Rulings { to_hit_limits: ToHitLimits::Unclamped, ..Rulings::default() };
    let o = fire_odds(&worst, data(), &unclamped).unwrap();
    assert_eq!(o.to_hit, 8);
    assert_eq!(o.p_hit, 0.0);
    assert_eq!(o.hits[0], 1.0);
    // Napoleon canister 2+ with enfilade: 1+ clamps to 2+ (a natural 1 misses).
    let o = odds(&FireQuery { enfilade: true, ..FireQuery::new("napoleon", 2, 5.0) });
    assert_eq!(o.to_hit, 2);
}

/// Ch16 5.4 and 5.6 save modifiers, RULINGS G1 (7+ lost, never better than 2+), C15, C30.
#[test]
fn save_modifiers_ch16_5_6() {
    let q = FireQuery::new("rifled_musket", 5, 10.0);
    assert_eq!(odds(&with_cover(&q, Cover::Light)).save, Some(5));
    assert_eq!(odds(&with_cover(&q, Cover::Heavy)).save, Some(4));
    // Road column -2: heavy 4+ becomes 6+, light 5+ becomes 7+ and is lost.
    let road = FireQuery { target: TargetFormation::Road, ..q.clone() };
    assert_eq!(odds(&with_cover(&road, Cover::Heavy)).save, Some(6));
    assert_eq!(odds(&with_cover(&road, Cover::Light)).save, None);
    // Skirmish order saves 5+ in the open; cover never stacks (heavy 4+ is better).
    let skirm = FireQuery { target: TargetFormation::Skirmish, ..q.clone() };
    assert_eq!(odds(&skirm).save, Some(5));
    assert_eq!(odds(&with_cover(&skirm, Cover::Heavy)).save, Some(4));
    // C15 default: enfilade takes the (frontal obstacle) Light save, not skirmish order's own.
    let enf = FireQuery { enfilade: true, ..q.clone() };
    assert_eq!(odds(&with_cover(&enf, Cover::Light)).save, None);
    assert_eq!(odds(&with_cover(&enf, Cover::Heavy)).save, Some(4));
    let enf_skirm = FireQuery { enfilade: true, ..skirm.clone() };
    assert_eq!(odds(&enf_skirm).save, Some(5));
    let majority = Rulings { enfilade: Enfilade::MajorityBehind, ..Rulings::default() };
    assert_eq!(fire_odds(&enf_skirm, data(), &majority).unwrap().save, None);
    // Assault column -1 against artillery only (RULE-05-2.5, RULINGS C30).
    let column = FireQuery { target: TargetFormation::Column, cover: Cover::Heavy, ..q.clone() };
    assert_eq!(odds(&column).save, Some(4));
    let guns = FireQuery { weapon: "napoleon".into(), stands: 2, ..column.clone() };
    assert_eq!(odds(&guns).save, Some(5));
    // Concentrated battery fire -1 (RULE-05-2.4), stacking with the column.
    assert_eq!(odds(&FireQuery { concentrated: true, ..guns.clone() }).save, Some(6));
    // Ch16 5.3: the howitzer ignores Light (obstacle) cover.
    let how = FireQuery { cover: Cover::Light, ..FireQuery::new("field_howitzer", 2, 10.0) };
    assert_eq!(odds(&how).save, None);
}

#[test]
fn errors_unknown_weapon_out_of_range_no_stands() {
    let r = Rulings::default();
    assert_eq!(
        fire_odds(&FireQuery::new("nope", 5, 10.0), data(), &r),
        Err(OddsError::UnknownWeapon("nope".into()))
    );
    assert!(matches!(
        fire_odds(&FireQuery::new("rifled_musket", 5, 40.0), data(), &r),
        Err(OddsError::OutOfRange { max_range, .. }) if max_range == 20.0
    ));
    // Ch16 5.2: the smoothbore is out of range past 14".
    assert!(matches!(
        fire_odds(&FireQuery::new("smoothbore_musket", 5, 15.0), data(), &r),
        Err(OddsError::OutOfRange { .. })
    ));
    assert!(matches!(
        fire_odds(&FireQuery::new("rifled_musket", 5, -1.0), data(), &r),
        Err(OddsError::OutOfRange { .. })
    ));
    assert!(matches!(
        fire_odds(&FireQuery::new("rifled_musket", 5, f64::NAN), data(), &r),
        Err(OddsError::OutOfRange { .. })
    ));
    assert_eq!(fire_odds(&FireQuery::new("rifled_musket", 0, 10.0), data(), &r), Err(OddsError::NoStands));
    let conc = FireQuery { concentrated: true, ..FireQuery::new("rifled_musket", 5, 10.0) };
    assert_eq!(fire_odds(&conc, data(), &r), Err(OddsError::NotArtillery("rifled_musket".into())));
    assert!(fire_monte_carlo(&FireQuery::new("nope", 5, 10.0), data(), &r, 10, 1).is_err());
}

/// 100,000 seeded volleys agree with the exact odds within 4 standard errors.
#[test]
fn monte_carlo_agrees_with_exact() {
    let queries = [
        FireQuery::new("rifled_musket", 5, 10.0),
        FireQuery { cover: Cover::Light, smoke: true, ..FireQuery::new("repeating_rifle", 5, 12.0) },
        FireQuery {
            cover: Cover::Heavy,
            target: TargetFormation::Column,
            ..FireQuery::new("napoleon", 2, 5.0)
        },
    ];
    for (i, q) in queries.iter().enumerate() {
        let exact = odds(q);
        let est = fire_monte_carlo(q, data(), &Rulings::default(), 100_000, 42 + i as u64).unwrap();
        for (name, e, x) in [
            ("expected_hits", est.expected_hits, exact.expected_hits),
            ("expected_stands_lost", est.expected_stands_lost, exact.expected_stands_lost),
            ("p_shock", est.p_shock, exact.p_shock),
        ] {
            assert!(e.std_error > 0.0, "{name}");
            assert!(
                (e.mean - x).abs() < 4.0 * e.std_error,
                "{q:?} {name}: {} vs exact {x} (se {})",
                e.mean,
                e.std_error
            );
        }
    }
}

#[test]
fn an_absurd_pool_is_refused_not_computed() {
    let data = dotc_lang::stdlib();
    let q = FireQuery::new("rifled_musket", u32::MAX, 10.0);
    assert_eq!(fire_odds(&q, data, &Rulings::default()).unwrap_err(), OddsError::TooManyStands(u32::MAX));
    let q = FireQuery::new("rifled_musket", MAX_STANDS, 10.0);
    assert!(fire_odds(&q, data, &Rulings::default()).is_ok());
}

mod properties {
    //! Property tests (proptest) over arbitrary volleys and melees: every distribution sums to 1,
    //! and a seeded simulation agrees with the exact answer within 4 standard errors.

    use proptest::prelude::*;

    use super::*;
    use crate::odds::melee::{MeleeSide, melee_monte_carlo, melee_odds};

    const WEAPONS: &[&str] = &[
        "smoothbore_musket",
        "rifled_musket",
        "repeating_rifle",
        "breechloading_carbine",
        "napoleon",
        "ordnance_rifle",
        "field_howitzer",
    ];

    fn query() -> impl Strategy<Value = FireQuery> {
        (0..WEAPONS.len(), 1u32..=10, 0.0f64..1.0, 0u8..3, 0u8..4, any::<[bool; 5]>()).prop_map(
            |(w, stands, reach, cover, target, flags)| {
                let weapon = WEAPONS[w];
                let max = data().weapon(weapon).map_or(6.0, |wp| {
                    let arm = if wp.class == dotc_lang::library::WeaponClass::Carbine {
                        dotc_lang::library::Arm::Cavalry
                    } else if wp.class == dotc_lang::library::WeaponClass::Artillery {
                        dotc_lang::library::Arm::Artillery
                    } else {
                        dotc_lang::library::Arm::Infantry
                    };
                    wp.max_range(arm)
                });
                FireQuery {
                    cover: [Cover::Open, Cover::Light, Cover::Heavy][usize::from(cover)],
                    target: [
                        TargetFormation::Line,
                        TargetFormation::Column,
                        TargetFormation::Road,
                        TargetFormation::Skirmish,
                    ][usize::from(target)],
                    smoke: flags[0],
                    screen: flags[1],
                    enfilade: flags[2],
                    disordered: flags[3],
                    hesitant: flags[4],
                    ..FireQuery::new(weapon, stands, (reach * max).max(0.5))
                }
            },
        )
    }

    fn sums_to_one(dist: &[f64]) -> bool {
        (dist.iter().sum::<f64>() - 1.0).abs() < 1e-9 && dist.iter().all(|p| (0.0..=1.0 + 1e-12).contains(p))
    }

    /// Whether a simulated mean lies within 5 standard errors of the exact value. The seeds are
    /// drawn afresh on every run and some 70 comparisons are made, so the bound must be wide
    /// enough that a correct simulation essentially never misses it (a 5 SE miss is about 6 in
    /// 10 million; at 4 SE a run failed about once in a hundred, on a rare Shock chance whose
    /// estimated error is small when the sample happens to fall low). A wrong distribution, which
    /// moves the mean by a fixed amount, still fails: 20,000 trials make the error small.
    fn within_five_se(mean: f64, se: f64, exact: f64) -> bool {
        (mean - exact).abs() <= 5.0 * se + 1e-9
    }

    /// The standard error of a chance `p` estimated from `n` trials, computed from the exact
    /// chance: it does not shrink when a sample of a rare event happens to fall low.
    fn chance_se(p: f64, n: f64) -> f64 {
        (p * (1.0 - p) / n).sqrt()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Every distribution of a volley sums to 1, under both presets.
        #[test]
        fn volley_distributions_sum_to_one(q in query(), printed in any::<bool>()) {
            let rulings = if printed { Rulings::as_printed() } else { Rulings::default() };
            let o = fire_odds(&q, data(), &rulings).expect("in range by construction");
            prop_assert!(sums_to_one(&o.hits), "{q:?} hits");
            prop_assert!(sums_to_one(&o.unsaved), "{q:?} unsaved");
            prop_assert!(sums_to_one(&o.stands_lost), "{q:?} stands_lost");
            prop_assert!((0.0..=1.0).contains(&o.p_shock));
        }

        /// Every melee's win, draw and loss sum to 1, and so does its margin distribution.
        #[test]
        fn melee_distributions_sum_to_one(a in 1u32..8, am in -5i32..6, d in 1u32..8, dm in -5i32..6) {
            let o = melee_odds(MeleeSide { engaged_stands: a, modifier: am }, MeleeSide { engaged_stands: d, modifier: dm }).unwrap();
            prop_assert!((o.attacker_wins + o.draw + o.defender_wins - 1.0).abs() < 1e-12);
            prop_assert!(sums_to_one(&o.margin));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// A seeded simulation of the same volley lands within 4 standard errors of the exact odds.
        #[test]
        fn volley_simulation_agrees(q in query(), seed in any::<u64>()) {
            let exact = fire_odds(&q, data(), &Rulings::default()).unwrap();
            let est = fire_monte_carlo(&q, data(), &Rulings::default(), 20_000, seed).unwrap();
            prop_assert!(within_five_se(est.expected_hits.mean, est.expected_hits.std_error, exact.expected_hits), "{q:?} hits");
            prop_assert!(within_five_se(est.expected_stands_lost.mean, est.expected_stands_lost.std_error, exact.expected_stands_lost), "{q:?} stands");
            prop_assert!(within_five_se(est.p_shock.mean, est.p_shock.std_error.max(chance_se(exact.p_shock, 20_000.0)), exact.p_shock), "{q:?} shock");
        }

        /// A seeded simulation of the same melee lands within 4 standard errors of the exact odds.
        #[test]
        fn melee_simulation_agrees(a in 1u32..8, am in -5i32..6, d in 1u32..8, dm in -5i32..6, seed in any::<u64>()) {
            let (sa, sd) = (MeleeSide { engaged_stands: a, modifier: am }, MeleeSide { engaged_stands: d, modifier: dm });
            let exact = melee_odds(sa, sd).unwrap();
            let est = melee_monte_carlo(sa, sd, 20_000, seed).unwrap();
            prop_assert!(within_five_se(est.attacker_wins, est.attacker_wins_se, exact.attacker_wins));
            prop_assert!(within_five_se(est.draw, est.draw_se, exact.draw));
            prop_assert!(within_five_se(est.defender_wins, est.defender_wins_se, exact.defender_wins));
        }
    }
}

/// Ch13 14.0 (module digging_in): hasty works upgrade the ground's cover one class. Five rifled
/// stands at 10" (Medium, 4+) roll 5 dice: 2.5 hits. Behind works on open ground the target
/// saves on 5+ (light): 2.5 x 4/6 = 1.667 unsaved; behind works on light cover on 4+ (heavy):
/// 2.5 x 3/6 = 1.25. Without the module there are no works to price.
#[test]
fn ch13_14_0_hasty_works_upgrade_the_cover_one_class() {
    let base = FireQuery { modules: vec!["digging_in".into()], ..FireQuery::new("rifled_musket", 5, 10.0) };
    let open_works = odds(&FireQuery { works: true, ..base.clone() });
    assert_eq!(open_works.save, Some(5));
    assert!((open_works.expected_unsaved - 2.5 * 4.0 / 6.0).abs() < 1e-12);
    let light_works = odds(&FireQuery { works: true, cover: Cover::Light, ..base.clone() });
    assert_eq!(light_works.save, Some(4));
    assert!((light_works.expected_unsaved - 1.25).abs() < 1e-12);
    assert_eq!(odds(&base).save, None, "no works: open ground");
    let off = FireQuery { works: true, modules: Vec::new(), ..base };
    assert!(fire_odds(&off, data(), &Rulings::default()).is_err());
}

/// Ch13 19.0, dotc D11: one rifled-musket die at 6" (Short): its 6 (1/6) is a Shock trigger. The
/// regular, Fresh target saves on 4+ with +1 for Fresh, failing on a 1 or 2 (1/3): disordered
/// 1/6 x 1/3 = 1/18. A friend in second line behind it adds +1: it fails on a 1 alone (1/6), so
/// 1/36. The flag switches the module on; the hits are the same.
#[test]
fn ch13_19_0_a_second_line_behind_the_target_steadies_its_shock_save() {
    let mut q = FireQuery::new("rifled_musket", 1, 6.0);
    let plain = odds(&q);
    q.target_supported = true;
    let supported = odds(&q);
    assert!((plain.p_shock - 1.0 / 6.0).abs() < 1e-12, "{}", plain.p_shock);
    assert!((plain.p_shock_disorder - 1.0 / 18.0).abs() < 1e-12, "{}", plain.p_shock_disorder);
    assert!((supported.p_shock_disorder - 1.0 / 36.0).abs() < 1e-12, "{}", supported.p_shock_disorder);
    assert_eq!(plain.hits, supported.hits);
}
