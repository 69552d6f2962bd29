//! `dotc odds assault`'s query: the table its flags describe, priced by the engine. Hand-worked
//! numbers from the rulebook, the rulings' effects in the right direction, and the simulation.

use super::*;
use crate::odds::{Cover, TargetFormation};

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// A regiment of `stands` charging from 8" a defender of `defender` stands of `weapon`, its
/// closing volley at the 4" line.
fn query(weapon: &str, defender: u32, stands: u32) -> AssaultQuery {
    AssaultQuery {
        volley: FireQuery::new(weapon, defender, 4.0),
        closing_volley: true,
        distance: 8.0,
        charger: Charger::new(stands),
        defender: Defender {
            quality: "regular".into(),
            brigade: BrigadeStatus::Fresh,
            engaged: 0,
            formation: "line".into(),
            supported: false,
        },
        momentum: false,
        flank: false,
        counter_charge: false,
        ground: None,
    }
}

fn sums_to_one(o: &PlannedAssaultOdds) {
    let total = o.p_destroyed + o.p_stalled + o.p_routed + o.p_overrun + o.p_melee;
    assert!(close(total, 1.0), "{total}");
    assert!(close(o.p_melee, o.p_attacker_wins + o.p_draw + o.p_defender_wins));
}

/// RULINGS E5 (Garnett's charge, with the brigadier attached that RULE-07-4.2 asks of a Spent
/// regiment): 2 stands of 8, regular, in the open, against one section of a field howitzer at
/// the 4" line. Canister rolls 2D6 at 2+ (Ch16 5.3); no cover, no save. Both dice hit with
/// chance 5/6 x 5/6 = 25/36: two unsaved hits take a stand, and the last stand shatters (Ch16
/// 5.4): the fire takes both stands (RULINGS G5 tallies both) 25/36 of the time, none
/// otherwise, 50/36 stands expected. The charge is
/// destroyed at least that often: a single hit that is a 6 (2/36) can also end it, when the
/// Shock save fails, the pre-contact check fails and the stall's Disorder on a Disordered
/// regiment becomes a micro-hit that completes the stand (RULE-07-3.4).
#[test]
fn rulings_e5_garnett_is_destroyed_25_times_in_36_by_the_fire() {
    let mut q = query("field_howitzer", 1, 2);
    q.charger.starting_stands = 8;
    q.charger.brigadier = true;
    let o = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&o);
    let lost = &o.stands_lost_to_volley;
    assert_eq!(lost.len(), 3, "{lost:?}");
    assert!(close(lost[0], 11.0 / 36.0) && lost[1] == 0.0 && close(lost[2], 25.0 / 36.0), "{lost:?}");
    assert!(close(o.expected_stands_lost_to_volley, 50.0 / 36.0));
    assert!(o.p_destroyed > 25.0 / 36.0 && o.p_destroyed < 27.0 / 36.0, "{}", o.p_destroyed);
    let volley = o.closing_volley.as_ref().expect("a closing volley");
    assert_eq!((volley.dice, volley.to_hit), (2, 2));
}

/// RULE-07-4.2: the same Spent regiment without its brigadier may not charge at all.
#[test]
fn rule_07_4_2_a_spent_charger_needs_its_brigadier() {
    let mut q = query("field_howitzer", 1, 2);
    q.charger.starting_stands = 8;
    let e = assault_odds(&q, data(), &Rulings::default()).expect_err("refused");
    assert!(e.to_string().contains("RULE-07-4.2") || e.to_string().contains("brigadier"), "{e}");
}

/// RULINGS C6: a Disordered regiment may not charge (the old odds let it, with a micro-hit on a
/// second Disorder).
#[test]
fn rulings_c6_a_disordered_charger_is_refused() {
    let mut q = query("rifled_musket", 5, 6);
    q.charger.disordered = true;
    let e = assault_odds(&q, data(), &Rulings::default()).expect_err("refused");
    assert!(e.to_string().contains("disordered"), "{e}");
}

/// No closing volley, a Fresh line of 4 against a Fresh line of 4, no other modifier: the melee
/// is 1D6 + 4 + 1 (Fresh) a side (Ch16 7.3), so the charger wins 15/36, draws 6/36, loses 15/36.
#[test]
fn ch16_7_3_an_even_melee_without_a_volley() {
    let mut q = query("rifled_musket", 4, 4);
    q.closing_volley = false;
    let o = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&o);
    assert!(close(o.p_attacker_wins, 15.0 / 36.0), "{o:#?}");
    assert!(close(o.p_draw, 6.0 / 36.0));
    assert!(o.closing_volley.is_none());
    assert_eq!(o.p_pre_contact_check, 0.0);
}

/// Ch16 7.3: momentum (+1) and a flank charge (+2) help the charger; a stone wall (+2 to the
/// defender) hinders it.
#[test]
fn ch16_7_3_momentum_flank_and_a_stone_wall_move_the_melee() {
    let base = |f: &dyn Fn(&mut AssaultQuery)| {
        let mut q = query("rifled_musket", 4, 4);
        q.closing_volley = false;
        f(&mut q);
        assault_odds(&q, data(), &Rulings::default()).expect("priced").p_attacker_wins
    };
    let plain = base(&|_| {});
    assert!(close(base(&|q| q.momentum = true), 21.0 / 36.0));
    assert!(base(&|q| q.flank = true) > base(&|q| q.momentum = true));
    assert!(base(&|q| q.ground = Some("stone_wall".into())) < plain);
    let e = assault_odds(
        &AssaultQuery { ground: Some("stone_wal".into()), ..query("rifled_musket", 4, 4) },
        data(),
        &Rulings::default(),
    )
    .expect_err("unknown ground");
    assert!(e.to_string().contains("unknown ground `stone_wal`"), "{e}");
}

/// RULINGS C3: a Shock trigger that disorders outright stalls more charges than one that
/// forces a save; RULINGS C7: hit-or-six calls for the check at least as often as loss-or-six,
/// which calls for it at least as often as loss-or-disorder.
#[test]
fn rulings_c3_and_c7_move_the_stalls_and_the_checks() {
    let q = query("rifled_musket", 5, 6);
    let with = |name: &str, value: &str| {
        let mut r = Rulings::default();
        r.set(name, value).expect("a value");
        assault_odds(&q, data(), &r).expect("priced")
    };
    let numbered = with("suppression", "numbered");
    let outright = with("suppression", "any_six_disorders");
    assert!(outright.p_stalled > numbered.p_stalled);
    assert!(outright.p_contact_disordered > numbered.p_contact_disordered);
    let loss_or_disorder = with("pre_contact_trigger", "loss_or_disorder");
    let loss_or_six = with("pre_contact_trigger", "loss_or_six");
    let hit_or_six = with("pre_contact_trigger", "hit_or_six");
    assert!(hit_or_six.p_pre_contact_check >= loss_or_six.p_pre_contact_check);
    assert!(hit_or_six.p_pre_contact_check > loss_or_disorder.p_pre_contact_check);
}

/// RULINGS G3: a line against a line engages all its stands up to the other's width; an assault
/// column engages its 2 front stands, and the line it strikes only the 2 touching them. Six
/// Fresh stands charging a Fresh line of 4, no volley: in line 1D6 + 4 + 1 against 1D6 + 4 + 1,
/// wins 15/36; in column 1D6 + 2 + 1 (Fresh) + 1 (column) against 1D6 + 2 + 1, wins when its
/// die is at least the defender's, 21/36.
#[test]
fn rulings_g3_a_column_engages_two_stands_a_side() {
    let mut line = query("rifled_musket", 4, 6);
    line.closing_volley = false;
    let column = AssaultQuery {
        volley: FireQuery { target: TargetFormation::Column, ..line.volley.clone() },
        ..line.clone()
    };
    let (l, c) = (
        assault_odds(&line, data(), &Rulings::default()).expect("line"),
        assault_odds(&column, data(), &Rulings::default()).expect("column"),
    );
    assert!(close(l.p_attacker_wins, 15.0 / 36.0), "{}", l.p_attacker_wins);
    assert!(close(c.p_attacker_wins, 21.0 / 36.0), "{}", c.p_attacker_wins);
}

/// The seeded simulation of the same plan agrees with the exact odds within 4 standard errors.
#[test]
fn monte_carlo_agrees_with_exact() {
    let mut q = query("rifled_musket", 5, 5);
    q.volley.cover = Cover::Light;
    let rulings = Rulings::default();
    let exact = assault_odds(&q, data(), &rulings).expect("priced");
    let est = assault_monte_carlo(&q, data(), &rulings, 20_000, 11).expect("simulated");
    for (name, p, e) in [
        ("destroyed", exact.p_destroyed, est.p_destroyed),
        ("stalled", exact.p_stalled, est.p_stalled),
        ("wins", exact.p_attacker_wins, est.p_attacker_wins),
        ("draw", exact.p_draw, est.p_draw),
        ("losses", exact.p_defender_wins, est.p_defender_wins),
        ("checked", exact.p_pre_contact_check, est.p_pre_contact_check),
        ("lost", exact.expected_stands_lost_to_volley, est.expected_stands_lost_to_volley),
    ] {
        let tolerance = 4.0 * e.std_error.max(1e-3);
        assert!(
            (p - e.mean).abs() <= tolerance,
            "{name}: exact {p} vs simulated {} ± {}",
            e.mean,
            e.std_error
        );
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let q = query("rifled_musket", 5, 6);
    let err = |f: &dyn Fn(&mut AssaultQuery)| {
        let mut q = q.clone();
        f(&mut q);
        assault_odds(&q, data(), &Rulings::default()).expect_err("an error").to_string()
    };
    assert!(err(&|q| q.charger.stands = 0).contains("at least 1 stand"));
    assert!(err(&|q| q.charger.starting_stands = 3).contains("started with 3"));
    assert!(err(&|q| q.charger.quality = "veteren".into()).contains("did you mean `veteran`?"));
    assert!(err(&|q| q.volley.weapon = "nope".into()).contains("unknown weapon `nope`"));
    assert!(err(&|q| q.distance = 10.0).contains("charge reaches"));
}

/// Ch13 18.0 (module `caught_flat_footed`, dotc D9): a regular line of 5 charges a regular
/// assault column of 5 with no banked pip, no closing volley, no momentum. Each side fights with
/// 2 stands (RULINGS G3). The charger: a + 2 + 1 Fresh. The column tests 4+ (1/2): passed, it
/// scores e + 2 + 1 - 1 flat-footed, so the charger wins when a >= e (21/36), draws at a - e =
/// -1 (5/36); failed, Disordered too (-2): the charger wins when a - e >= -2 (30/36), draws at
/// -3 (3/36). In all: wins 51/72, draws 8/72, loses 13/72. Without the module the column scores
/// e + 3: 15/36, 6/36, 15/36.
#[test]
fn ch13_18_0_a_column_caught_flat_footed_in_the_odds() {
    let mut q = query("rifled_musket", 5, 5);
    q.closing_volley = false;
    q.defender.formation = "assault_column".into();
    let off = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&off);
    assert!(close(off.p_attacker_wins, 15.0 / 36.0) && close(off.p_draw, 6.0 / 36.0), "{off:?}");
    q.volley.modules = vec!["caught_flat_footed".into()];
    let on = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&on);
    assert!(close(on.p_attacker_wins, 51.0 / 72.0), "{}", on.p_attacker_wins);
    assert!(close(on.p_draw, 8.0 / 72.0), "{}", on.p_draw);
    assert!(close(on.p_defender_wins, 13.0 / 72.0), "{}", on.p_defender_wins);
}

/// Ch13 10.0 (module `premature_fire`, RULINGS C28): a Green line of 5 rifled muskets fires its
/// closing volley at 4" (short, 4+) at a regular line in the open (no save). It first tests 4+:
/// passed (1/2), each die hits 1/2; failed (1/2), the volley is at -2, 6+: each die hits 1/6.
/// The fire removes no stand on 0 or 1 hit (a lone hit is a micro-hit): (1 + 5)/32 = 3/16 at
/// 4+, (5/6)^5 + 5 (1/6)(5/6)^4 = 6250/7776 at 6+. With the module: 3/32 + 3125/7776; without,
/// 3/16.
#[test]
fn ch13_10_0_a_green_volley_fired_too_early_in_the_odds() {
    let mut q = query("rifled_musket", 5, 5);
    q.defender.quality = "green".into();
    let off = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&off);
    assert!(close(off.stands_lost_to_volley[0], 3.0 / 16.0), "{:?}", off.stands_lost_to_volley);
    q.volley.modules = vec!["premature_fire".into()];
    let on = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&on);
    let want = 3.0 / 32.0 + 3125.0 / 7776.0;
    assert!(close(on.stands_lost_to_volley[0], want), "{:?} {want}", on.stands_lost_to_volley);
    assert!(on.p_attacker_wins > off.p_attacker_wins);
}

/// Ch13 17.0 Desperate Valor: one stand of rifled muskets fires its closing volley at the 4"
/// line, 1 die at 4+ (Ch16 5.2, 7.2), at a Fresh regular charger of 6 stands in the open that
/// already carries a micro-hit. Any hit completes a stand (RULE-05-3.3), so the pre-contact
/// check is taken half the time (RULINGS C7 `loss_or_disorder`). Regular: 4+, passed 1/2 of the
/// time on one die; with Advantage it fails only when both dice miss, 1 - (1/2)^2 = 3/4. The
/// charge stalls on a failed check: 1/2 x 1/2 = 1/4, with valor 1/2 x 1/4 = 1/8. A 6 (1/6) is
/// also a Shock trigger within 6": the save is 4+ less Fresh's +1, 3+, failed 1/3 of the
/// time, with Advantage (1/3)^2 = 1/9; a charger Disordered by it that passes its check goes
/// in Disordered: 1/6 x 1/3 x 1/2 = 1/36, with valor 1/6 x 1/9 x 3/4 = 1/72.
#[test]
fn ch13_17_0_desperate_valor_passes_a_4_plus_check_three_times_in_four() {
    let mut q = query("rifled_musket", 1, 6);
    q.charger.micro_hit = true;
    let plain = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&plain);
    assert!(close(plain.p_pre_contact_check, 0.5), "{}", plain.p_pre_contact_check);
    assert!(close(plain.p_check_passes.unwrap_or(0.0), 0.5));
    assert!(close(plain.p_stalled, 0.25), "{}", plain.p_stalled);
    assert!(close(plain.p_contact_disordered, 1.0 / 36.0), "{}", plain.p_contact_disordered);
    q.charger.valor = true;
    let valor = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&valor);
    assert!(close(valor.p_pre_contact_check, 0.5), "{}", valor.p_pre_contact_check);
    assert!(close(valor.p_check_passes.unwrap_or(0.0), 0.75), "{:?}", valor.p_check_passes);
    assert!(close(valor.p_stalled, 0.125), "{}", valor.p_stalled);
    assert!(close(valor.p_contact_disordered, 1.0 / 72.0), "{}", valor.p_contact_disordered);
    // The volley's own odds see the advantaged save: disordered 1/6 x 1/9 = 1/54.
    let volley = valor.closing_volley.as_ref().expect("a closing volley");
    assert!(close(volley.p_shock_disorder, 1.0 / 54.0), "{}", volley.p_shock_disorder);
    // The engine rolled over every die agrees.
    let charge = plan_charge(&q, data(), &Rulings::default()).expect("planned");
    let every =
        crate::odds::assault_plan::exhaustive_assault(&charge.rules, &charge.declared, &charge.plan, 100_000)
            .expect("walked")
            .expect("within the budget");
    assert!(close(every.p_stalled, 0.125) && close(every.p_contact_disordered, 1.0 / 72.0));
}

/// Ch13 16.0 The Rebel Yell / Union Huzzah (dotc D15): the caught-flat-footed charge above
/// (Ch13 18.0), its brigade having raised the battle cry. The column's 4+ check is at -1, 5+:
/// passed 1/3 of the time. Passed, the charger wins at a >= e (21/36) and draws at a - e = -1
/// (5/36); failed (2/3), Disordered, it wins at a - e >= -2 (30/36) and draws at -3 (3/36). In
/// all: wins 1/3 x 21/36 + 2/3 x 30/36 = 81/108, draws (5 + 6)/108 = 11/108, loses 16/108
/// (without the cry 51/72, 8/72, 13/72).
#[test]
fn ch13_16_0_a_battle_cry_takes_one_off_the_defenders_checks_in_the_odds() {
    let mut q = query("rifled_musket", 5, 5);
    q.closing_volley = false;
    q.defender.formation = "assault_column".into();
    q.volley.modules = vec!["caught_flat_footed".into()];
    let plain = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    assert!(close(plain.p_attacker_wins, 51.0 / 72.0), "{}", plain.p_attacker_wins);
    q.charger.battle_cry = true;
    let cry = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&cry);
    assert!(close(cry.p_attacker_wins, 81.0 / 108.0), "{}", cry.p_attacker_wins);
    assert!(close(cry.p_draw, 11.0 / 108.0), "{}", cry.p_draw);
    assert!(close(cry.p_defender_wins, 16.0 / 108.0), "{}", cry.p_defender_wins);
}

/// Ch13 19.0 Second Line (dotc D11), in the odds: the charger of the Desperate Valor query above
/// (a 6-stand regular regiment with a micro-hit, at a 1-stand volley) with a friend in second
/// line behind it. Its pre-contact check at 4+ takes +1, 3+: passed 2/3 of the time, so the
/// charge stalls 1/2 x 1/3 = 1/6 (1/4 without). The Shock save is a Discipline check too: 3+
/// becomes 2+, failed 1/6, and a charger Disordered by a 6 that passes its check goes in
/// Disordered 1/6 x 1/6 x 2/3 = 1/54 (1/36 without).
#[test]
fn ch13_19_0_a_supported_charger_passes_its_4_plus_check_two_times_in_three() {
    let mut q = query("rifled_musket", 1, 6);
    q.charger.micro_hit = true;
    q.charger.supported = true;
    let odds = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&odds);
    assert!(close(odds.p_pre_contact_check, 0.5), "{}", odds.p_pre_contact_check);
    assert!(close(odds.p_check_passes.unwrap_or(0.0), 2.0 / 3.0), "{:?}", odds.p_check_passes);
    assert!(close(odds.p_stalled, 1.0 / 6.0), "{}", odds.p_stalled);
    assert!(close(odds.p_contact_disordered, 1.0 / 54.0), "{}", odds.p_contact_disordered);
    let charge = plan_charge(&q, data(), &Rulings::default()).expect("planned");
    let every =
        crate::odds::assault_plan::exhaustive_assault(&charge.rules, &charge.declared, &charge.plan, 100_000)
            .expect("walked")
            .expect("within the budget");
    assert!(close(every.p_stalled, 1.0 / 6.0) && close(every.p_contact_disordered, 1.0 / 54.0));
}

/// Ch13 19.0 Second Line (dotc D11): the caught-flat-footed column of the battle-cry query above
/// with a friend in second line behind it. Its 4+ check takes +1, 3+: passed 2/3. Passed, the
/// charger wins 21/36 and draws 5/36; failed, Disordered, it wins 30/36 and draws 3/36. In all:
/// wins 2/3 x 21/36 + 1/3 x 30/36 = 72/108, draws (10 + 3)/108 = 13/108, loses 23/108
/// (without support 51/72, 8/72, 13/72).
#[test]
fn ch13_19_0_a_supported_defender_passes_its_flat_footed_check_more_often() {
    let mut q = query("rifled_musket", 5, 5);
    q.closing_volley = false;
    q.defender.formation = "assault_column".into();
    q.volley.modules = vec!["caught_flat_footed".into()];
    q.defender.supported = true;
    let odds = assault_odds(&q, data(), &Rulings::default()).expect("priced");
    sums_to_one(&odds);
    assert!(close(odds.p_attacker_wins, 72.0 / 108.0), "{}", odds.p_attacker_wins);
    assert!(close(odds.p_draw, 13.0 / 108.0), "{}", odds.p_draw);
    assert!(close(odds.p_defender_wins, 23.0 / 108.0), "{}", odds.p_defender_wins);
}
