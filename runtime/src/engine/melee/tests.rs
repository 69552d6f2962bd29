//! Tests of the opposed melee, each naming the rule it checks.

use super::*;
use crate::dice::{DiceError, Purpose, RecordedDice};
use crate::engine::events::{BrigadeStatus, MeleeOutcome, TestKind, What};
use crate::engine::state::{Arm, Unit};
use crate::engine::testkit::{Table, defaults, dice, rules_with};
use crate::rulings::{DisorderedMeleeLoss, RoadColumnCharged, Rulings};

fn with(f: impl FnOnce(&mut Rulings)) -> Rules {
    let mut r = Rulings::default();
    f(&mut r);
    rules_with(r, &[])
}

/// Blue attacks Red: two regular rifled-musket regiments in the given formations.
fn two(a_stands: u32, a_form: &str, d_stands: u32, d_form: &str) -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, a_stands, "regular", "rifled_musket", a_form);
    let d = t.infantry("Red Regiment", t.red, d_stands, "regular", "rifled_musket", d_form);
    (t, a, d)
}

fn melee_dice(a: i64, d: i64) -> RecordedDice {
    dice(&[(Purpose::Melee, &[a, d])])
}

/// The (name, value) modifiers of a unit's Shock Score.
fn mods(report: &MeleeReport, unit: &str) -> Vec<(String, i32)> {
    report
        .events
        .iter()
        .find_map(|e| match &e.what {
            What::ShockScore { unit: u, modifiers, .. } if u == unit => {
                Some(modifiers.iter().map(|m| (m.name.clone(), m.value)).collect())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Shock Score for {unit}"))
}

fn score_of(report: &MeleeReport, unit: &str) -> (u8, u32, i32) {
    report
        .events
        .iter()
        .find_map(|e| match &e.what {
            What::ShockScore { unit: u, rolled, engaged, score, .. } if u == unit => {
                Some((*rolled, *engaged, *score))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Shock Score for {unit}"))
}

fn has(report: &MeleeReport, f: impl Fn(&What) -> bool) -> bool {
    report.events.iter().any(|e| f(&e.what))
}

fn named(list: &[(String, i32)], name: &str) -> Option<i32> {
    list.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

/// RULINGS G3: a column fights with its 2 front stands, a line struck by a column with the 2
/// touching its front, line against line with all its stands up to the other's frontage, and a
/// battery with 1 (Ch8 6.0).
#[test]
fn g3_default_engaged_stands() {
    let rules = defaults();
    let (t, a, d) = two(5, "assault_column", 5, "line");
    assert_eq!(default_engaged(&rules, &t.state, a, d), (2, 2));
    let (t, a, d) = two(5, "line", 4, "line");
    assert_eq!(default_engaged(&rules, &t.state, a, d), (4, 4));
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let b = t.battery("Red Battery", t.red, 3, "napoleon");
    assert_eq!(default_engaged(&rules, &t.state, a, b), (3, 1));
}

/// Ch16 7.3, 7.4: a tie is a Bloody Draw: both take a micro-hit and a Disorder marker and stay
/// locked in contact; nobody loses a stand or retreats.
#[test]
fn ch16_7_4_bloody_draw_micro_hits_disorders_and_locks_both() {
    let rules = defaults();
    let (mut t, a, d) = two(4, "line", 4, "line");
    let mut dice = melee_dice(3, 3);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(r.outcome, MeleeOutcome::BloodyDraw);
    // 3 + 4 engaged + 1 Fresh each.
    assert_eq!((r.attacker_score, r.defender_score, r.margin), (8, 8, 0));
    for id in [a, d] {
        let u = t.unit(id);
        assert_eq!(u.stands, 4);
        assert_eq!(u.micro_hit, 1, "{}", u.name);
        assert!(u.markers.disorder, "{}", u.name);
        assert!(u.turn.engaged, "{} stays in contact", u.name);
    }
    assert!(!has(&r, |w| matches!(w, What::Retreat { .. } | What::Consolidate { .. })));
}

/// Ch16 7.4: a Bloody Draw's micro-hit completes a stand already carrying one (RULE-05-3.3), and
/// a side already disordered takes a second micro-hit for the double Disorder (RULE-07-3.4).
#[test]
fn ch16_7_4_bloody_draw_completes_a_stand_and_double_disorders() {
    let rules = defaults();
    let (mut t, a, d) = two(4, "line", 4, "line");
    t.unit_mut(a).micro_hit = 1;
    t.unit_mut(d).markers.disorder = true;
    // Blue: 3 + 4 + 1 = 8. Red: 5 + 4 + 1 - 2 = 8.
    let mut dice = melee_dice(3, 5);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(r.outcome, MeleeOutcome::BloodyDraw);
    assert_eq!((t.unit(a).stands, t.unit(a).micro_hit), (3, 0));
    // Red: the draw's micro-hit, then the second Disorder's micro-hit: a stand.
    assert_eq!((t.unit(d).stands, t.unit(d).micro_hit), (3, 0));
    assert_eq!(t.state.brigades[t.blue_brigade.0].losses, 1);
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 1);
}

/// Ch16 7.4: the loser loses 1 stand, retreats 6" and is disordered; the victor may consolidate 2".
#[test]
fn ch16_7_4_loser_loses_a_stand_retreats_6_and_is_disordered() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    let mut dice = melee_dice(5, 2);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(r.outcome, MeleeOutcome::AttackerWins);
    assert_eq!(r.margin, 3);
    let red = t.unit(d);
    assert_eq!((red.stands, red.micro_hit, red.markers.disorder, red.turn.engaged), (4, 0, true, false));
    assert!(has(
        &r,
        |w| matches!(w, What::Retreat { unit, inches } if unit == "Red Regiment" && *inches == 6.0)
    ));
    assert!(has(
        &r,
        |w| matches!(w, What::Consolidate { unit, inches } if unit == "Blue Regiment" && *inches == 2.0)
    ));
    assert_eq!(t.unit(a).stands, 5);
    assert!(!t.unit(a).markers.disorder);
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 1);
    // A Fresh winner by 3: no Breakthrough.
    assert!(!has(&r, |w| matches!(w, What::Breakthrough { .. })));
}

/// RULINGS C1: a loser already disordered takes the ordinary loss plus a micro-hit (default
/// `micro_hit`), or is routed off the table (`routed`, Ch7 3.0).
#[test]
fn c1_disordered_loser_micro_hit_or_routed() {
    for (rules, routed) in
        [(defaults(), false), (with(|r| r.disordered_melee_loss = DisorderedMeleeLoss::Routed), true)]
    {
        let (mut t, a, d) = two(5, "line", 5, "line");
        t.unit_mut(d).markers.disorder = true;
        let mut dice = melee_dice(4, 4);
        let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
        // Red fights at -2 for its Disorder (Ch16 7.3).
        assert_eq!(named(&mods(&r, "Red Regiment"), "disordered"), Some(-2));
        assert_eq!(r.outcome, MeleeOutcome::AttackerWins);
        let red = t.unit(d);
        if routed {
            assert!(red.removed);
            assert_eq!(red.stands, 0);
            assert_eq!(t.state.brigades[t.red_brigade.0].losses, 5);
            assert!(has(&r, |w| matches!(w, What::Removed { because, .. } if because.contains("routed"))));
            assert!(!has(&r, |w| matches!(w, What::Retreat { .. })));
        } else {
            assert!(!red.removed);
            assert_eq!((red.stands, red.micro_hit, red.markers.disorder), (4, 1, true));
            assert_eq!(t.state.brigades[t.red_brigade.0].losses, 1);
            assert!(has(&r, |w| matches!(w, What::Retreat { inches, .. } if *inches == 6.0)));
        }
    }
}

/// Ch16 4.2, 7.3: a stone wall gives its defender +2, enough to turn a 1-point loss into a win.
#[test]
fn ch16_7_3_stone_wall_plus_two_to_the_defender() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    let mut dice = melee_dice(4, 3);
    let open = resolve_melee(&rules, &mut t.state.clone(), a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!((open.outcome, open.margin), (MeleeOutcome::AttackerWins, 1));
    let input = MeleeInput { defender_terrain: Some("stone_wall".into()), ..MeleeInput::default() };
    let mut dice = melee_dice(4, 3);
    let r = resolve_melee(&rules, &mut t.state, a, d, &input, &mut dice).unwrap();
    assert_eq!(named(&mods(&r, "Red Regiment"), "stone_wall"), Some(2));
    assert_eq!(named(&mods(&r, "Blue Regiment"), "stone_wall"), None);
    assert_eq!((r.outcome, r.margin), (MeleeOutcome::DefenderWins, -1));
    assert_eq!(t.unit(a).stands, 4);
}

/// Ch16 3.2, 7.3: an assault column gets +1 when it attacks, none when it defends.
#[test]
fn ch16_7_3_assault_column_plus_one_attacking_only() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "assault_column", 5, "assault_column");
    let mut dice = melee_dice(3, 3);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "assault_column"), Some(1));
    assert_eq!(named(&mods(&r, "Red Regiment"), "assault_column"), None);
    // 3 + 2 engaged (column front) + 1 Fresh + 1 column = 7 against 3 + 2 + 1 = 6.
    assert_eq!(score_of(&r, "Blue Regiment"), (3, 2, 7));
    assert_eq!(score_of(&r, "Red Regiment"), (3, 2, 6));
}

/// Ch16 7.3, RULINGS G10: momentum +1 to the attacker; an abatis takes it away (Ch16 4.2
/// "negates all attacker charging momentum") and gives the attacker -2 (RULINGS G17).
#[test]
fn g10_g17_momentum_cancelled_by_abatis() {
    let rules = defaults();
    let (t, a, d) = two(5, "line", 5, "line");
    let run = MeleeInput { momentum: true, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state.clone(), a, d, &run, &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "momentum"), Some(1));
    assert_eq!(r.margin, 1);
    let abatis =
        MeleeInput { momentum: true, defender_terrain: Some("abatis".into()), ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state.clone(), a, d, &abatis, &mut melee_dice(3, 3)).unwrap();
    let blue = mods(&r, "Blue Regiment");
    assert_eq!(named(&blue, "momentum"), None);
    assert_eq!(named(&blue, "abatis"), Some(-2));
    assert_eq!(named(&mods(&r, "Red Regiment"), "abatis"), None);
    assert_eq!(r.margin, -2);
    assert!(has(&r, |w| matches!(w, What::Note { text } if text.contains("abatis cancels"))));
}

/// Ch16 6.0 Reaction 5: a counter-charge cancels the attacker's momentum and gives the defender
/// its own charging traits (Rebel Yell +1, Ch16 9.0).
#[test]
fn ch16_6_0_counter_charge_cancels_momentum_and_uses_own_traits() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    t.unit_mut(d).traits.push("rebel_yell".into());
    let still = MeleeInput { momentum: true, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state.clone(), a, d, &still, &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "momentum"), Some(1));
    assert_eq!(named(&mods(&r, "Red Regiment"), "rebel_yell"), None, "a standing defender does not charge");
    let counter = MeleeInput { momentum: true, counter_charge: true, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state, a, d, &counter, &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "momentum"), None);
    assert_eq!(named(&mods(&r, "Red Regiment"), "rebel_yell"), Some(1));
    assert_eq!(r.margin, -1);
}

/// Ch16 7.3: a flank or rear attack gives the attacker +2.
#[test]
fn ch16_7_3_flank_attack_plus_two() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    let input = MeleeInput { flank: true, attacker_engaged: 5, defender_engaged: 1, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state, a, d, &input, &mut melee_dice(1, 6)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "flank attack"), Some(2));
    assert_eq!(named(&mods(&r, "Red Regiment"), "flank attack"), None);
    // 1 + 5 + 1 + 2 = 9 against 6 + 1 + 1 = 8: the caller's engaged counts are used (G3).
    assert_eq!((r.attacker_score, r.defender_score), (9, 8));
}

/// Ch16 4.4, 7.3, RULINGS G17: uphill against a crest, -1 to the attacker and +1 to the
/// defender, both applied and flagged.
#[test]
fn g17_uphill_and_crest_both_apply() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    let input = MeleeInput { uphill: true, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state, a, d, &input, &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "uphill"), Some(-1));
    assert_eq!(named(&mods(&r, "Red Regiment"), "crest"), Some(1));
    assert_eq!(r.margin, -2);
    assert!(r.events.iter().any(|e| e.rule == "RULINGS G17" && matches!(e.what, What::Note { .. })));
}

/// Ch16 4.4 Crest Advantage: an attacker fighting downhill from a crest it holds gets +1; the
/// defender gets nothing for it.
#[test]
fn ch16_4_4_crest_advantage_plus_one_to_the_attacker_only() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    let input = MeleeInput { crest_advantage: true, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state, a, d, &input, &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "crest advantage"), Some(1));
    assert_eq!(named(&mods(&r, "Red Regiment"), "crest advantage"), None);
    assert_eq!(r.margin, 1);
}

/// Ch16 7.3 (one row for light cover, fence and crestline), RULINGS G17 (cover does not stack):
/// a crest defender behind a rail fence gets +1 once, behind a stone wall the wall's +2; the
/// uphill -1 to the attacker stands either way.
#[test]
fn rulings_g17_ch16_7_3_crestline_does_not_stack_with_the_defenders_ground() {
    let rules = defaults();
    for (ground, bonus) in [("rail_fence", 1), ("stone_wall", 2)] {
        let (mut t, a, d) = two(5, "line", 5, "line");
        let input =
            MeleeInput { uphill: true, defender_terrain: Some(ground.into()), ..MeleeInput::default() };
        let r = resolve_melee(&rules, &mut t.state, a, d, &input, &mut melee_dice(3, 3)).unwrap();
        let red = mods(&r, "Red Regiment");
        assert_eq!(named(&red, ground), Some(bonus), "{ground}");
        assert_eq!(named(&red, "crest"), None, "{ground}");
        assert_eq!(named(&mods(&r, "Blue Regiment"), "uphill"), Some(-1), "{ground}");
        assert_eq!(r.margin, -1 - bonus, "{ground}");
        assert!(
            r.events
                .iter()
                .any(|e| matches!(&e.what, What::Note { text } if text.contains("does not stack"))),
            "{ground}"
        );
    }
}

/// Ch16 2.4, 7.3: a brigadier attached gives +1 on either side; when his regiment loses a stand
/// he rolls on the leader table once (RULINGS C9, G18); the winning side's leader does not roll.
#[test]
fn ch16_2_4_brigadier_attached_plus_one_and_leader_roll_on_a_loss() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    let blue = t.brigadier("Blue General", t.blue, "reliable");
    let red = t.brigadier("Red General", t.red, "reliable");
    t.state.leaders[blue.0].attached = Some(a);
    t.state.leaders[red.0].attached = Some(d);
    let mut dice = dice(&[(Purpose::Melee, &[5, 2]), (Purpose::LeaderCasualty, &[4])]);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(named(&mods(&r, "Blue Regiment"), "brigadier attached"), Some(1));
    assert_eq!(named(&mods(&r, "Red Regiment"), "brigadier attached"), Some(1));
    let rolls: Vec<&str> = r
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::LeaderCasualty { leader, .. } => Some(leader.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, ["Red General"]);
    assert_eq!(t.state.leaders[red.0].pip_penalty, 1, "a 4 is a light wound");
    assert_eq!(dice.remaining(), 0);
}

/// Ch16 7.4: a Fresh attacker that wins by 4 or more with the defender removed may sweep on
/// 4" for a pip; not by 3, not with the defender still there, not when Worn.
#[test]
fn ch16_7_4_breakthrough_needs_fresh_margin_four_and_the_defender_gone() {
    let rules = defaults();
    let breakthrough = |r: &MeleeReport| {
        r.events.iter().any(|e| matches!(&e.what, What::Breakthrough { unit, inches, pips } if unit == "Blue Regiment" && *inches == 4.0 && *pips == 1))
    };
    // Blue 5 stands Fresh, engaged 2: die + 2 + 1. Red 2 of 5 (Spent), engaged 2: die + 2 - 1.
    let setup = || {
        let (mut t, a, d) = two(5, "line", 5, "line");
        t.unit_mut(d).stands = 2;
        (t, a, d)
    };
    let (mut t, a, d) = setup();
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(5, 3)).unwrap();
    assert_eq!(r.margin, 4);
    assert!(t.unit(d).removed, "down to 1 stand it shatters (RULE-05-3.4)");
    assert!(breakthrough(&r));

    let (mut t, a, d) = setup();
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(4, 3)).unwrap();
    assert_eq!(r.margin, 3);
    assert!(t.unit(d).removed);
    assert!(!breakthrough(&r));

    // Margin 4 but the defender still stands.
    let (mut t, a, d) = two(5, "line", 5, "line");
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(6, 2)).unwrap();
    assert_eq!(r.margin, 4);
    assert!(!t.unit(d).removed);
    assert!(!breakthrough(&r));

    // A Worn attacker (3 of 5) winning by 4 with the defender gone.
    let (mut t, a, d) = setup();
    t.unit_mut(a).stands = 3;
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(6, 3)).unwrap();
    assert_eq!(r.margin, 4);
    assert!(t.unit(d).removed);
    assert!(!breakthrough(&r));
}

/// Ch8 6.0, RULINGS G3, G14: a battery fights with 1 engaged stand whatever it is given, and a
/// battery that loses is overrun and captured; its sections are not on the brigade tally (G5).
#[test]
fn ch8_6_0_battery_fights_with_one_stand_and_is_captured() {
    let rules = defaults();
    let mut t = Table::new();
    let a = t.infantry("Blue Regiment", t.blue, 5, "regular", "rifled_musket", "line");
    let b = t.battery("Red Battery", t.red, 3, "napoleon");
    let input = MeleeInput { attacker_engaged: 3, defender_engaged: 3, ..MeleeInput::default() };
    let r = resolve_melee(&rules, &mut t.state, a, b, &input, &mut melee_dice(2, 4)).unwrap();
    assert_eq!(score_of(&r, "Red Battery"), (4, 1, 5), "1 engaged stand, no health modifier");
    assert_eq!(score_of(&r, "Blue Regiment"), (2, 3, 6));
    assert_eq!(r.outcome, MeleeOutcome::AttackerWins);
    let bat = t.unit(b);
    assert!(bat.removed);
    assert_eq!(bat.stands, 0);
    assert!(has(&r, |w| matches!(w, What::Removed { because, .. } if because == "overrun and captured")));
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 0);
}

/// RULE-07-2.4, RULINGS G14: a unit of a Broken brigade charged routs and is removed: no dice.
#[test]
fn rule_07_2_4_broken_defender_routs_without_dice() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 4, "line");
    t.state.brigades[t.red_brigade.0].status = BrigadeStatus::Broken;
    let mut dice = RecordedDice::default();
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(r.no_melee, Some(NoMelee::Routed));
    assert!(dice.consumed().is_empty());
    assert!(!has(&r, |w| matches!(w, What::Rolled { .. } | What::ShockScore { .. })));
    assert!(t.unit(d).removed);
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 4);
}

/// RULINGS C23: a Road Column charged is overrun and removed with no dice (default `overrun`),
/// or fights at -1 (`melee_minus_one`, Ch13 18.0).
#[test]
fn c23_road_column_overrun_or_minus_one() {
    let (mut t, a, d) = two(5, "line", 5, "road_column");
    let mut none = RecordedDice::default();
    let r = resolve_melee(&defaults(), &mut t.state, a, d, &MeleeInput::default(), &mut none).unwrap();
    assert_eq!(r.no_melee, Some(NoMelee::Overrun));
    assert!(none.consumed().is_empty());
    assert!(t.unit(d).removed);
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 5);

    let rules = with(|r| r.road_column_charged = RoadColumnCharged::MeleeMinusOne);
    let (mut t, a, d) = two(5, "line", 5, "road_column");
    let mut dice = melee_dice(3, 3);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!(r.no_melee, None);
    assert_eq!(named(&mods(&r, "Red Regiment"), "road column charged"), Some(-1));
    // Blue 3 + 1 engaged (the column's 1-stand front) + 1; Red 3 + 1 + 1 - 1.
    assert_eq!((r.attacker_score, r.defender_score), (5, 4));
    assert_eq!(dice.consumed().len(), 2);
}

/// Ch13 18.0 (module `caught_flat_footed`, dotc D9): an assault column charged with no banked
/// pip tests 4+ before the melee dice; the 3 fails and it is Disordered. Blue (line, 2 engaged
/// against the column's front): 2 + 2 + 1 Fresh = 5; Red: 4 + 2 + 1 Fresh - 2 Disordered - 1
/// flat-footed = 4. Without the module Red scores 7 and wins.
#[test]
fn ch13_18_0_an_assault_column_caught_flat_footed_tests_and_fights_at_minus_one() {
    let rules = rules_with(Rulings::default(), &["caught_flat_footed"]);
    let (mut t, a, d) = two(5, "line", 5, "assault_column");
    let mut dice = dice(&[(Purpose::Discipline, &[3]), (Purpose::Melee, &[2, 4])]);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    let failed = has(&r, |w| {
        matches!(w, What::Test { test: TestKind::FlatFooted, needed: 4, rolled: 3, passed: false, .. })
    });
    assert!(failed, "{:#?}", r.events);
    assert_eq!(named(&mods(&r, "Red Regiment"), "caught flat-footed"), Some(-1));
    assert_eq!((r.attacker_score, r.defender_score), (5, 4));
    assert_eq!(r.outcome, MeleeOutcome::AttackerWins);

    // The module off: no check, no -1: 5 against 7.
    let (mut t, a, d) = two(5, "line", 5, "assault_column");
    let mut dice = melee_dice(2, 4);
    let r = resolve_melee(&defaults(), &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert_eq!((r.attacker_score, r.defender_score), (5, 7));
}

/// Ch13 18.0, dotc D9: a reserved pip (the brigade's banked pip) or a counter-charge spares the
/// column; a line is never caught; a road column overrun under RULINGS C23 takes no check; one
/// that fights under `melee_minus_one` takes the check and the -1 once.
#[test]
fn ch13_18_0_who_is_caught_flat_footed() {
    let rules = rules_with(Rulings::default(), &["caught_flat_footed"]);
    let (mut t, _, d) = two(5, "line", 5, "assault_column");
    assert!(caught_flat_footed(&rules, &t.state, d, &MeleeInput::default()));
    let counter = MeleeInput { counter_charge: true, ..MeleeInput::default() };
    assert!(!caught_flat_footed(&rules, &t.state, d, &counter));
    t.state.brigades[t.red_brigade.0].banked = 1;
    assert!(!caught_flat_footed(&rules, &t.state, d, &MeleeInput::default()));
    let (t, _, d) = two(5, "line", 5, "line");
    assert!(!caught_flat_footed(&rules, &t.state, d, &MeleeInput::default()));

    // C23 `overrun`: removed with no die at all.
    let (mut t, a, d) = two(5, "line", 5, "road_column");
    let mut none = RecordedDice::default();
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut none).unwrap();
    assert_eq!(r.no_melee, Some(NoMelee::Overrun));
    assert!(none.consumed().is_empty());

    // C23 `melee_minus_one`: the check (a 6 passes) and one -1. Blue 3 + 1 + 1 = 5; Red 3 + 1 +
    // 1 - 1 = 4.
    let rulings = Rulings { road_column_charged: RoadColumnCharged::MeleeMinusOne, ..Rulings::default() };
    let rules = rules_with(rulings, &["caught_flat_footed"]);
    let (mut t, a, d) = two(5, "line", 5, "road_column");
    let mut dice = dice(&[(Purpose::Discipline, &[6]), (Purpose::Melee, &[3, 3])]);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    let red = mods(&r, "Red Regiment");
    assert_eq!(red.iter().filter(|(_, v)| *v == -1).count(), 1, "{red:?}");
    assert_eq!((r.attacker_score, r.defender_score), (5, 4));
    assert!(has(&r, |w| matches!(w, What::Test { test: TestKind::FlatFooted, passed: true, .. })));
}

/// Ch13 22.0, RULINGS G14: Open Order struck by a formed charge loses a stand, is disordered and
/// falls back 3", with no dice.
#[test]
fn g14_open_order_overrun_by_a_formed_unit() {
    let rules = rules_with(Rulings::default(), &["open_order"]);
    let (mut t, a, d) = two(5, "line", 5, "open_order");
    let mut none = RecordedDice::default();
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut none).unwrap();
    assert_eq!(r.no_melee, Some(NoMelee::OpenOrderOverrun));
    assert!(none.consumed().is_empty());
    let red = t.unit(d);
    assert_eq!((red.stands, red.markers.disorder, red.removed), (4, true, false));
    assert!(has(&r, |w| matches!(w, What::FallBack { inches, .. } if *inches == 3.0)));
}

fn cavalry(t: &mut Table, name: &str) -> UnitId {
    let unit = Unit::new(
        name,
        t.blue,
        Arm::Cavalry { mounted: true, horse_holders: 0, can_remount: true },
        4,
        "regular",
        "breechloading_carbine",
        "line",
    );
    t.state.add_unit(unit, Some(t.blue_brigade))
}

/// Ch16 10.1, RULINGS C22, G15: mounted cavalry against disordered or column infantry, +1 to
/// the cavalry and -2 to the infantry, the -2 not doubled for infantry already Disordered (its
/// marker's -2 is the one); nothing against a steady line; no automatic rout.
#[test]
fn rulings_g15_c22_cavalry_shock_against_disordered_or_column_infantry() {
    let rules = defaults();
    let mut t = Table::new();
    let cav = cavalry(&mut t, "Blue Horse");
    let line = t.infantry("Red Line", t.red, 4, "regular", "rifled_musket", "line");
    let col = t.infantry("Red Column", t.red, 4, "regular", "rifled_musket", "assault_column");
    let steady =
        resolve_melee(&rules, &mut t.state.clone(), cav, line, &MeleeInput::default(), &mut melee_dice(3, 3))
            .unwrap();
    assert_eq!(named(&mods(&steady, "Blue Horse"), "cavalry shock"), None);
    assert_eq!(named(&mods(&steady, "Red Line"), "cavalry shock"), None);

    let mut s = t.state.clone();
    s.units[line.0].markers.disorder = true;
    let r = resolve_melee(&rules, &mut s, cav, line, &MeleeInput::default(), &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Blue Horse"), "cavalry shock"), Some(1));
    let red = mods(&r, "Red Line");
    assert_eq!(named(&red, "cavalry shock"), None, "G15: not a second -2");
    assert_eq!(named(&red, "disordered"), Some(-2));
    assert_eq!(red.iter().map(|(_, v)| v).sum::<i32>(), 1 - 2, "Fresh +1, Disorder -2, nothing more");
    // 3 + 4 + 1 + 1 = 9 against 3 + 4 + 1 - 2 = 6: the infantry loses but is not routed (C22).
    assert_eq!(r.margin, 3);
    assert!(!s.units[line.0].removed);
    // A Disordered column: still one -2 (G15).
    let mut s = t.state.clone();
    s.units[col.0].markers.disorder = true;
    let r = resolve_melee(&rules, &mut s, cav, col, &MeleeInput::default(), &mut melee_dice(3, 3)).unwrap();
    let red = mods(&r, "Red Column");
    assert_eq!((named(&red, "cavalry shock"), named(&red, "disordered")), (None, Some(-2)));

    let r =
        resolve_melee(&rules, &mut t.state, cav, col, &MeleeInput::default(), &mut melee_dice(3, 3)).unwrap();
    assert_eq!(named(&mods(&r, "Red Column"), "cavalry shock"), Some(-2));
}

/// Ch16 10.1: cavalry against cavalry, the loser falls back 9".
#[test]
fn ch16_10_1_cavalry_loser_retreats_nine() {
    let rules = defaults();
    let mut t = Table::new();
    let a = cavalry(&mut t, "Blue Horse");
    let unit = Unit::new(
        "Red Horse",
        t.red,
        Arm::Cavalry { mounted: true, horse_holders: 0, can_remount: true },
        4,
        "regular",
        "shotgun_revolvers",
        "line",
    );
    let d = t.state.add_unit(unit, Some(t.red_brigade));
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(2, 2)).unwrap();
    // Shotguns and revolvers +1 (Ch16 10.3) decide it.
    assert_eq!(named(&mods(&r, "Red Horse"), "shotgun_revolvers"), Some(1));
    assert_eq!(r.outcome, MeleeOutcome::DefenderWins);
    assert!(has(
        &r,
        |w| matches!(w, What::Retreat { unit, inches } if unit == "Blue Horse" && *inches == 9.0)
    ));
    assert_eq!(t.unit(a).stands, 3);
}

/// Ch16 9.0 Rebel Yell: +1 charging; green or regular defenders outside heavy cover test 4+
/// before the dice or are disordered (and then fight at -2). Behind a stone wall, or veteran,
/// they do not test.
#[test]
fn ch16_9_0_rebel_yell_defender_check() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    t.unit_mut(a).traits.push("rebel_yell".into());
    let mut dice = dice(&[(Purpose::Discipline, &[3]), (Purpose::Melee, &[3, 3])]);
    let r = resolve_melee(&rules, &mut t.state.clone(), a, d, &MeleeInput::default(), &mut dice).unwrap();
    let test = r.events.iter().find_map(|e| match &e.what {
        What::Test { unit, test: TestKind::RebelYell, needed, passed, .. } => {
            Some((unit.clone(), *needed, *passed))
        }
        _ => None,
    });
    assert_eq!(test, Some(("Red Regiment".to_string(), 4, false)));
    assert_eq!(named(&mods(&r, "Blue Regiment"), "rebel_yell"), Some(1));
    assert_eq!(named(&mods(&r, "Red Regiment"), "disordered"), Some(-2));
    assert_eq!(r.margin, 3);

    // Passing (4) keeps it in order.
    let mut dice4 = crate::engine::testkit::dice(&[(Purpose::Discipline, &[4]), (Purpose::Melee, &[3, 3])]);
    let r = resolve_melee(&rules, &mut t.state.clone(), a, d, &MeleeInput::default(), &mut dice4).unwrap();
    assert_eq!(named(&mods(&r, "Red Regiment"), "disordered"), None);
    assert_eq!(r.margin, 1);

    // Heavy cover: no test, only the melee dice.
    let wall = MeleeInput { defender_terrain: Some("stone_wall".into()), ..MeleeInput::default() };
    let mut only_melee = melee_dice(3, 3);
    let r = resolve_melee(&rules, &mut t.state.clone(), a, d, &wall, &mut only_melee).unwrap();
    assert!(!has(&r, |w| matches!(w, What::Test { .. })));
    assert_eq!(only_melee.consumed().len(), 2);

    // A veteran defender does not test.
    t.unit_mut(d).quality = "veteran".into();
    let mut only_melee = melee_dice(3, 3);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut only_melee).unwrap();
    assert!(!has(&r, |w| matches!(w, What::Test { .. })));
}

/// Ch13 12.0 (module `uncontrollable_pursuit`): a victor that destroyed its enemy tests 4+;
/// failing, it owes a forced 4" move and is disordered at its end. Without the module nothing happens.
#[test]
fn ch13_12_0_uncontrollable_pursuit() {
    let setup = || {
        let (mut t, a, d) = two(5, "line", 5, "line");
        t.unit_mut(d).stands = 2;
        (t, a, d)
    };
    let (mut t, a, d) = setup();
    let rules = rules_with(Rulings::default(), &["uncontrollable_pursuit"]);
    let mut frenzied = dice(&[(Purpose::Melee, &[5, 2]), (Purpose::Discipline, &[3])]);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut frenzied).unwrap();
    assert!(t.unit(d).removed);
    // The check is 4+: a 3 fails. The frenzied victor owes the 4" move (`maneuver pursuit`), and
    // is not yet disordered: the Disorder comes at the move's end.
    assert!(has(&r, |w| matches!(w, What::Pursuit { inches, .. } if *inches == 4.0)));
    assert!(!t.unit(a).markers.disorder);
    let mut events = Vec::new();
    end_pursuit(&rules, &mut t.state, a, &mut events).unwrap();
    assert!(t.unit(a).markers.disorder);

    // A 4 passes: no pursuit.
    let (mut t, a, d) = setup();
    let mut steady = dice(&[(Purpose::Melee, &[5, 2]), (Purpose::Discipline, &[4])]);
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut steady).unwrap();
    assert!(t.unit(d).removed);
    assert!(!has(&r, |w| matches!(w, What::Pursuit { .. })));

    let (mut t, a, d) = setup();
    let mut dice = melee_dice(5, 2);
    resolve_melee(&defaults(), &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap();
    assert!(!t.unit(a).markers.disorder);
}

/// A missing die is an error and the melee changes nothing (engine::transact).
#[test]
fn missing_die_changes_nothing() {
    let rules = defaults();
    let (mut t, a, d) = two(5, "line", 5, "line");
    t.unit_mut(a).traits.push("rebel_yell".into());
    let before = t.state.clone();
    // The Rebel Yell check fails and disorders Red, then the defender's melee die is missing.
    let mut dice = dice(&[(Purpose::Discipline, &[1]), (Purpose::Melee, &[4])]);
    let err = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut dice).unwrap_err();
    assert!(matches!(err, EngineError::Dice(DiceError::Missing { purpose: Purpose::Melee, .. })));
    assert_eq!(t.state, before);
}

/// A melee against a friend, or by a unit of a Broken brigade (RULE-07-2.4), is illegal.
#[test]
fn illegal_melees() {
    let rules = defaults();
    let mut t = Table::new();
    let a = t.infantry("Blue One", t.blue, 5, "regular", "rifled_musket", "line");
    let b = t.infantry("Blue Two", t.blue, 5, "regular", "rifled_musket", "line");
    let d = t.infantry("Red One", t.red, 5, "regular", "rifled_musket", "line");
    let err =
        resolve_melee(&rules, &mut t.state, a, b, &MeleeInput::default(), &mut melee_dice(3, 3)).unwrap_err();
    assert!(matches!(err, EngineError::Illegal { .. }));
    t.state.brigades[t.blue_brigade.0].status = BrigadeStatus::Broken;
    let err =
        resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(3, 3)).unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule: "RULE-07-2.4", .. }));
}

/// Ch14 3.0, dotc D35: the stand a melee's loser gives names the victor that took it, for the
/// campaign's "inflicts two or more stand losses" feat; the loser losing the other way names
/// the defender.
#[test]
fn ch14_3_0_a_melee_loss_names_the_enemy_that_took_it() {
    let rules = defaults();
    let by_of = |r: &MeleeReport, who: &str| {
        r.events.iter().find_map(|e| match &e.what {
            What::StandsLost { unit, by, .. } if unit == who => Some(by.clone()),
            _ => None,
        })
    };
    let (mut t, a, d) = two(5, "line", 5, "line");
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(5, 2)).unwrap();
    assert_eq!(by_of(&r, "Red Regiment"), Some(Some("Blue Regiment".to_string())));
    let (mut t, a, d) = two(5, "line", 5, "line");
    let r = resolve_melee(&rules, &mut t.state, a, d, &MeleeInput::default(), &mut melee_dice(1, 6)).unwrap();
    assert_eq!(by_of(&r, "Blue Regiment"), Some(Some("Red Regiment".to_string())));
}

/// Ch16 10.1: a melee is a cavalry melee, with the cavalry table's 9" retreat, only when both
/// units are mounted cavalry: not mounted cavalry against infantry, either way round, nor
/// against dismounted cavalry. (Found by cargo-mutants: `&&` to `||` survived, as every test
/// of the cavalry table paired two mounted regiments.)
#[test]
fn ch16_10_1_only_mounted_cavalry_on_both_sides_makes_a_cavalry_melee() {
    let mut t = Table::new();
    let horse = cavalry(&mut t, "Blue Horse");
    let other = cavalry(&mut t, "Other Horse");
    let foot = t.infantry("Red Line", t.red, 4, "regular", "rifled_musket", "line");
    let dismounted = cavalry(&mut t, "Dismounted");
    t.unit_mut(dismounted).arm = Arm::Cavalry { mounted: false, horse_holders: 1, can_remount: true };
    let pair = |a: UnitId, b: UnitId| cavalry_melee(t.unit(a), t.unit(b));
    assert!(pair(horse, other));
    assert!(!pair(horse, foot) && !pair(foot, horse));
    assert!(!pair(horse, dismounted) && !pair(dismounted, horse));
}
