//! Tests of one volley, each naming the rule it checks: the worked examples of RULINGS E1-E3
//! under the defaults and the `as_printed` preset, then one test per rule of the volley.

use super::*;
use crate::dice::{DiceError, Purpose, RecordedDice};
use crate::engine::events::{BrigadeStatus, Health, TestKind, What};
use crate::engine::state::{Arm, LeaderId, Screen, SideId, UnitId};
use crate::engine::testkit::{Table, as_printed, defaults, dice, rules_with};
use crate::rulings::{
    Enfilade, FailedDiscipline, HesitantFire, LeaderCasualtyTrigger, LowAmmoScope, Rulings, ToHitLimits,
};

fn with(modules: &[&str], f: impl FnOnce(&mut Rulings)) -> Rules {
    let mut r = Rulings::default();
    f(&mut r);
    rules_with(r, modules)
}

/// Three more five-stand regiments for a side, so a few stands lost leave its brigade Fresh.
fn pad(t: &mut Table, side: SideId) {
    for i in 0..3 {
        t.infantry(&format!("Reserve {i} of side {}", side.0), side, 5, "regular", "rifled_musket", "line");
    }
}

fn fire(
    rules: &Rules,
    t: &mut Table,
    firer: UnitId,
    target: UnitId,
    input: &FireInput,
    d: &mut RecordedDice,
) -> VolleyReport {
    resolve_volley(rules, &mut t.state, firer, target, input, d).expect("a legal volley with its dice")
}

/// A test as seen in the events: needed, rolled, passed and its modifiers.
type Seen = (i32, u8, bool, Vec<(String, i32)>);

fn tests_of(r: &VolleyReport, kind: TestKind) -> Vec<Seen> {
    r.events
        .iter()
        .filter_map(|e| match &e.what {
            What::Test { test, needed, rolled, passed, modifiers, .. } if *test == kind => Some((
                *needed,
                *rolled,
                *passed,
                modifiers.iter().map(|m| (m.name.clone(), m.value)).collect(),
            )),
            _ => None,
        })
        .collect()
}

fn volley_modifiers(r: &VolleyReport) -> Vec<(String, i32)> {
    r.events
        .iter()
        .find_map(|e| match &e.what {
            What::Volley { modifiers, .. } => {
                Some(modifiers.iter().map(|m| (m.name.clone(), m.value)).collect())
            }
            _ => None,
        })
        .expect("a volley event")
}

fn has(r: &VolleyReport, f: impl Fn(&What) -> bool) -> bool {
    r.events.iter().any(|e| f(&e.what))
}

fn rolled(d: &RecordedDice, purpose: Purpose) -> bool {
    d.consumed().iter().any(|r| r.purpose == purpose)
}

/// The save number of the volley's Saves event.
fn save_of(r: &VolleyReport) -> Option<i32> {
    r.events.iter().find_map(|e| match &e.what {
        What::Saves { save, .. } => Some(*save),
        _ => None,
    })
}

// ------------------------------------------------------------------ RULINGS E1

/// RULINGS E1 (R05 Example 1): the 5th Virginia, 5 smoothbore stands at 4", and the 19th Indiana,
/// 5 stands in the open (its brigade padded so the loss does not move the clock).
fn e1() -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let virginia = t.infantry("5th Virginia", t.red, 5, "regular", "smoothbore_musket", "line");
    let indiana = t.infantry("19th Indiana", t.blue, 5, "regular", "rifled_musket", "line");
    let side = t.blue;
    pad(&mut t, side);
    (t, virginia, indiana)
}

/// What E1 prints and every reading agrees on: 5D6 on 3+, 4 hits, no save, 2 stands, 5 -> 3,
/// Fresh -> Worn, smoke on the firer (RULE-05-2.1, 2.2, 3.2, 3.3, 5.1, Ch16 8.1).
fn assert_e1_common(rules: &Rules, t: &Table, virginia: UnitId, indiana: UnitId, r: &VolleyReport) {
    assert_eq!((r.dice, r.to_hit, r.hits, r.sixes), (5, 3, 4, 1));
    assert_eq!((r.unsaved, r.stands_lost), (4, 2));
    assert_eq!(t.unit(indiana).stands, 3);
    assert_eq!(t.unit(indiana).micro_hit, 0);
    assert_eq!(crate::engine::morale::unit_health(rules, &t.state, indiana), Some(Health::Worn));
    assert!(has(r, |w| matches!(w, What::HealthChanged { from: Health::Fresh, to: Health::Worn, .. })));
    assert!(has(r, |w| matches!(w, What::NoSave { hits: 4, .. })));
    assert!(t.unit(virginia).markers.gunsmoke, "RULE-05-5.1: smoke placed");
    assert!(t.unit(virginia).turn.fired);
    assert!(r.shock_trigger);
    assert!(!r.target_removed);
}

/// RULINGS E1 under the defaults (RULE-05-4.1, 4.2, C3): the 6 at 4" forces a Shock save, Regular
/// 4+ with Fresh +1 needing 3+ (health judged before the casualties, G9); a 4 passes, no Disorder.
#[test]
fn e1_defaults_shock_save_passed() {
    let rules = defaults();
    let (mut t, va, ind) = e1();
    let mut d = dice(&[(Purpose::ToHit, &[3, 5, 2, 6, 4]), (Purpose::Discipline, &[4])]);
    let r = fire(&rules, &mut t, va, ind, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_e1_common(&rules, &t, va, ind, &r);
    assert_eq!(tests_of(&r, TestKind::ShockSave), vec![(3, 4, true, vec![("fresh".to_string(), 1)])]);
    assert!(!r.disordered);
    assert!(!t.unit(ind).markers.disorder);
    assert_eq!(d.remaining(), 0);
}

/// RULINGS E1 under the defaults, the save failed: a 2 misses the 3+, so Disorder (RULE-05-4.2;
/// C5 `specific`: no fall back).
#[test]
fn e1_defaults_shock_save_failed() {
    let rules = defaults();
    let (mut t, va, ind) = e1();
    let mut d = dice(&[(Purpose::ToHit, &[3, 5, 2, 6, 4]), (Purpose::Discipline, &[2])]);
    let r = fire(&rules, &mut t, va, ind, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_e1_common(&rules, &t, va, ind, &r);
    assert_eq!(tests_of(&r, TestKind::ShockSave)[0].0, 3);
    assert!(!tests_of(&r, TestKind::ShockSave)[0].2);
    assert!(r.disordered);
    assert!(t.unit(ind).markers.disorder);
    assert!(!has(&r, |w| matches!(w, What::FallBack { .. })));
}

/// RULINGS E1 as printed (C3 `any_six_disorders`): the 6 disorders outright; no Discipline die.
#[test]
fn e1_as_printed_disorders_without_a_save() {
    let rules = as_printed();
    let (mut t, va, ind) = e1();
    let mut d = dice(&[(Purpose::ToHit, &[3, 5, 2, 6, 4])]);
    let r = fire(&rules, &mut t, va, ind, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_e1_common(&rules, &t, va, ind, &r);
    assert!(r.disordered);
    assert!(t.unit(ind).markers.disorder);
    assert!(tests_of(&r, TestKind::ShockSave).is_empty());
    assert!(!rolled(&d, Purpose::Discipline));
}

/// RULINGS E1 under the defaults: the whole event list (insta snapshot).
#[test]
fn e1_defaults_event_list_snapshot() {
    let rules = defaults();
    let (mut t, va, ind) = e1();
    let mut d = dice(&[(Purpose::ToHit, &[3, 5, 2, 6, 4]), (Purpose::Discipline, &[4])]);
    let r = fire(&rules, &mut t, va, ind, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    insta::assert_yaml_snapshot!("e1_defaults_events", r.events);
}

// ------------------------------------------------------------------ RULINGS E2

/// RULINGS E2 (R05 Example 2): the 2nd Wisconsin, 5 rifled stands with its own smoke, at 10" on
/// the 4th Virginia behind a stone wall.
fn e2() -> (Table, UnitId, UnitId, FireInput) {
    let mut t = Table::new();
    let wisconsin = t.infantry("2nd Wisconsin", t.blue, 5, "regular", "rifled_musket", "line");
    t.unit_mut(wisconsin).markers.gunsmoke = true;
    let virginia = t.infantry("4th Virginia", t.red, 5, "regular", "rifled_musket", "line");
    let side = t.red;
    pad(&mut t, side);
    let mut input = FireInput::at(10.0, FireKind::Phase3);
    input.cover = CoverInput::of(CoverClass::Heavy, "stone_wall", true);
    (t, wisconsin, virginia, input)
}

fn e2_dice() -> RecordedDice {
    dice(&[(Purpose::ToHit, &[2, 5, 1, 6, 4]), (Purpose::Save, &[4, 2])])
}

/// What E2 prints and every reading agrees on: 4+ at medium, own smoke -1 beyond 6" -> 5+
/// (RULE-05-5.2, G11), 2 hits, heavy 4+ saves [4, 2], 1 unsaved, a micro-hit, no stand.
fn assert_e2_common(t: &Table, virginia: UnitId, r: &VolleyReport) {
    assert_eq!((r.dice, r.to_hit, r.hits, r.sixes), (5, 5, 2, 1));
    assert_eq!(volley_modifiers(r), vec![("gunsmoke".to_string(), -1)]);
    assert_eq!(save_of(r), Some(4));
    assert_eq!(r.unsaved, 1);
    assert_eq!(r.stands_lost, 0);
    assert_eq!((t.unit(virginia).stands, t.unit(virginia).micro_hit), (5, 1));
}

/// RULINGS E2 under the defaults (RULE-05-4.1, C3): one 6 at medium range is no Shock trigger,
/// so no save and no Disorder.
#[test]
fn e2_defaults_one_six_at_medium_is_no_trigger() {
    let rules = defaults();
    let (mut t, wi, va, input) = e2();
    let mut d = e2_dice();
    let r = fire(&rules, &mut t, wi, va, &input, &mut d);
    assert_e2_common(&t, va, &r);
    assert!(!r.shock_trigger);
    assert!(!r.disordered);
    assert!(!t.unit(va).markers.disorder);
    assert!(!has(&r, |w| matches!(w, What::ShockTrigger { .. })));
}

/// RULINGS E2 as printed (C3 `any_six_disorders`): the 6 disorders the 4th Virginia.
#[test]
fn e2_as_printed_disorders() {
    let rules = as_printed();
    let (mut t, wi, va, input) = e2();
    let mut d = e2_dice();
    let r = fire(&rules, &mut t, wi, va, &input, &mut d);
    assert_e2_common(&t, va, &r);
    assert!(r.shock_trigger && r.disordered);
    assert!(t.unit(va).markers.disorder);
    assert!(!rolled(&d, Purpose::Discipline));
}

/// RULINGS E2 with the Low Ammo module (RULE-05-2.5b, C14): the single natural 1 gives no marker,
/// under either preset.
#[test]
fn e2_low_ammo_single_one_gives_no_marker() {
    for rulings in [Rulings::default(), Rulings::as_printed()] {
        let rules = rules_with(rulings, &["low_ammo"]);
        let (mut t, wi, va, input) = e2();
        let mut d = e2_dice();
        let r = fire(&rules, &mut t, wi, va, &input, &mut d);
        assert_e2_common(&t, va, &r);
        assert!(!t.unit(wi).markers.low_ammo);
        assert!(has(&r, |w| matches!(w, What::Note { .. })));
        assert!(r.events.iter().any(|e| e.rule.contains("RULINGS E2")));
    }
}

// ------------------------------------------------------------------ RULINGS E3

/// RULINGS E3 (R05 Example 3): Battery B, 2 sections of 3-inch rifles, at 24" on the 28th North
/// Carolina in assault column in the open.
fn e3() -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let battery = t.battery("Battery B, 4th US", t.blue, 2, "ordnance_rifle");
    let carolina = t.infantry("28th North Carolina", t.red, 5, "regular", "rifled_musket", "assault_column");
    let side = t.red;
    pad(&mut t, side);
    (t, battery, carolina)
}

/// What E3 prints and every reading agrees on: 4D6 on 4+ at long range, 3 hits, no save in the
/// open (the column's -1 has nothing to worsen), 1 stand and a micro-hit, smoke on the battery
/// (RULE-05-2.1, 2.3, 2.5a, 3.3, 5.1).
fn assert_e3_common(t: &Table, battery: UnitId, carolina: UnitId, r: &VolleyReport) {
    assert_eq!((r.dice, r.to_hit, r.hits, r.sixes), (4, 4, 3, 1));
    assert!(has(r, |w| matches!(w, What::NoSave { hits: 3, .. })));
    assert_eq!(r.stands_lost, 1);
    assert_eq!((t.unit(carolina).stands, t.unit(carolina).micro_hit), (4, 1));
    assert!(t.unit(battery).markers.gunsmoke);
}

/// RULINGS E3 under the defaults: one 6 at long range is no trigger, so no Disorder (C3).
#[test]
fn e3_defaults_no_disorder() {
    let rules = defaults();
    let (mut t, b, nc) = e3();
    let mut d = dice(&[(Purpose::ToHit, &[4, 2, 5, 6])]);
    let r = fire(&rules, &mut t, b, nc, &FireInput::at(24.0, FireKind::Phase3), &mut d);
    assert_e3_common(&t, b, nc, &r);
    assert!(!r.shock_trigger && !r.disordered);
    assert!(!t.unit(nc).markers.disorder);
}

/// RULINGS E3 as printed: the 6 disorders the column (C3 `any_six_disorders`).
#[test]
fn e3_as_printed_disorders() {
    let rules = as_printed();
    let (mut t, b, nc) = e3();
    let mut d = dice(&[(Purpose::ToHit, &[4, 2, 5, 6])]);
    let r = fire(&rules, &mut t, b, nc, &FireInput::at(24.0, FireKind::Phase3), &mut d);
    assert_e3_common(&t, b, nc, &r);
    assert!(r.shock_trigger && r.disordered);
    assert!(t.unit(nc).markers.disorder);
}

// ------------------------------------------------------------------ to-hit

/// A line of `stands` regular rifled muskets against a fresh padded regiment of 5.
fn duel(stands: u32, weapon: &str) -> (Table, UnitId, UnitId) {
    let mut t = Table::new();
    let a = t.infantry("Firer", t.blue, stands, "regular", weapon, "line");
    let b = t.infantry("Target", t.red, 5, "regular", "rifled_musket", "line");
    let side = t.red;
    pad(&mut t, side);
    (t, a, b)
}

/// RULINGS G1 (clamp): a 5+ with -3 (disordered, gunsmoke, pivoted) is 6+, not 8+, so the natural
/// 6 still hits (RULE-05-4.3); under `unclamped` it is 8+ and nothing hits.
#[test]
fn g1_clamp_keeps_a_natural_six_hitting() {
    for (rules, to_hit, hits) in
        [(defaults(), 6, 1), (with(&[], |r| r.to_hit_limits = ToHitLimits::Unclamped), 8, 0)]
    {
        let (mut t, a, b) = duel(5, "rifled_musket");
        t.unit_mut(a).markers.disorder = true;
        t.unit_mut(a).markers.gunsmoke = true;
        let mut input = FireInput::at(16.0, FireKind::Phase3);
        input.pivoted = true;
        let mut d = dice(&[(Purpose::ToHit, &[6, 5, 4, 1, 2])]);
        let r = fire(&rules, &mut t, a, b, &input, &mut d);
        assert_eq!(volley_modifiers(&r).iter().map(|m| m.1).sum::<i32>(), -3);
        assert_eq!((r.to_hit, r.hits, r.sixes), (to_hit, hits, 1));
    }
}

/// RULE-05-5.2, 5.3, RULINGS G11: smoke costs -1 only past 6", and its own smoke and smoke in the
/// line of sight do not stack.
#[test]
fn rule_05_5_3_gunsmoke_once_and_only_beyond_six_inches() {
    let rules = defaults();
    for (range, expected) in [(10.0, vec![("gunsmoke".to_string(), -1)]), (5.0, vec![])] {
        let (mut t, a, b) = duel(5, "rifled_musket");
        t.unit_mut(a).markers.gunsmoke = true;
        let mut input = FireInput::at(range, FireKind::Phase3);
        input.smoke = true;
        let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
        let r = fire(&rules, &mut t, a, b, &input, &mut d);
        assert_eq!(volley_modifiers(&r), expected, "at {range}\"");
    }
}

/// RULE-07-2.3, RULINGS C13: a Hesitant brigade's Phase 3 fire is at -1; its closing volley is
/// not under the default `phase_three_only`, and is under `all_fire`.
#[test]
fn c13_hesitant_minus_one_in_phase_three_only_by_default() {
    let cases = [
        (defaults(), FireKind::Phase3, 5),
        (defaults(), FireKind::Closing, 4),
        (defaults(), FireKind::Opportunity, 4),
        (with(&[], |r| r.hesitant_fire = HesitantFire::AllFire), FireKind::Closing, 5),
    ];
    for (rules, kind, to_hit) in cases {
        let (mut t, a, b) = duel(5, "rifled_musket");
        t.state.brigades[t.blue_brigade.0].status = BrigadeStatus::Hesitant;
        let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
        let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, kind), &mut d);
        assert_eq!(r.to_hit, to_hit, "{kind:?}");
    }
}

/// RULE-07-2.4: a Broken brigade cannot fire; the state is unchanged.
#[test]
fn rule_07_2_4_broken_brigade_cannot_fire() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.state.brigades[t.blue_brigade.0].status = BrigadeStatus::Broken;
    let before = t.state.clone();
    let mut d = dice(&[(Purpose::ToHit, &[6, 6, 6, 6, 6])]);
    let err = resolve_volley(&rules, &mut t.state, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d)
        .unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule, .. } if rule.contains("RULE-07-2.4")));
    assert_eq!(t.state, before);
    assert_eq!(d.used(), 0);
}

/// RULE-05-1.1, 1.2, 2.2, Ch16 3.2, 9.0: a road column, a limbered battery, a target out of the
/// weapon's range and a Buck and Ball regiment past 14" cannot fire.
#[test]
fn rule_05_1_2_illegal_volleys() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).formation = "road_column".into();
    let mut d = dice(&[]);
    let road = resolve_volley(&rules, &mut t.state, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(matches!(road, Err(EngineError::Illegal { rule, .. }) if rule.contains("RULE-05-1.2")));

    let (mut t, a, b) = duel(5, "smoothbore_musket");
    let out = resolve_volley(&rules, &mut t.state, a, b, &FireInput::at(15.0, FireKind::Phase3), &mut d);
    assert!(matches!(out, Err(EngineError::Illegal { rule, .. }) if rule.contains("RULE-05-2.2")));

    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).traits.push("buck_and_ball".into());
    let bb = resolve_volley(&rules, &mut t.state, a, b, &FireInput::at(16.0, FireKind::Phase3), &mut d);
    assert!(matches!(bb, Err(EngineError::Illegal { rule: "Ch16 9.0", .. })));

    let mut t = Table::new();
    let g = t.battery("Battery", t.blue, 2, "napoleon");
    let v = t.infantry("Target", t.red, 5, "regular", "rifled_musket", "line");
    t.unit_mut(g).arm = Arm::Battery { limbered: true };
    let limbered = resolve_volley(&rules, &mut t.state, g, v, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert!(matches!(limbered, Err(EngineError::Illegal { rule, .. }) if rule.contains("RULE-05-1.1")));
}

/// Ch16 9.0 Buck and Ball: 3+ at short range (a rifled musket's 4+ bettered), +1 die within 3";
/// Ch13 3.0, RULINGS G16: a Sudden Squall halves the pool after the bonus die, rounding down.
#[test]
fn ch16_9_0_buck_and_ball_and_g16_squall_after_bonus_dice() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).traits.push("buck_and_ball".into());
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2, 2])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(2.0, FireKind::Phase3), &mut d);
    assert_eq!((r.dice, r.to_hit), (6, 3));

    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).traits.push("buck_and_ball".into());
    let mut input = FireInput::at(2.0, FireKind::Phase3);
    input.squall = true;
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2])]);
    assert_eq!(fire(&rules, &mut t, a, b, &input, &mut d).dice, 3, "(5 + 1) / 2");

    // A breechloader's bonus first (G16: 5 stands roll 7), then the halving: 3.
    let (mut t, a, b) = duel(5, "breechloading_carbine");
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2])]);
    assert_eq!(fire(&rules, &mut t, a, b, &input, &mut d).dice, 3);
}

/// RULE-05-2.1, Ch16 3.2, RULINGS G12, RULE-05-6.1: an assault column fires its front 2 stands, a
/// detached screen stand does not fire with its parent, and `firing_stands` caps the pool.
#[test]
fn rule_05_2_1_pool_by_formation_screen_and_clear_line() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).formation = "assault_column".into();
    let mut d = dice(&[(Purpose::ToHit, &[2, 2])]);
    assert_eq!(fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d).dice, 2);

    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).screen = Some(Screen::default());
    let mut input = FireInput::at(10.0, FireKind::Phase3);
    input.through_screen = true;
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2])]);
    let r = fire(&rules, &mut t, a, b, &input, &mut d);
    assert_eq!(r.dice, 4);
    // RULE-05-6.2: firing through its own screen, -1.
    assert_eq!(volley_modifiers(&r), vec![("through own screen".to_string(), -1)]);

    let (mut t, a, b) = duel(5, "rifled_musket");
    let mut input = FireInput::at(10.0, FireKind::Phase3);
    input.firing_stands = Some(3);
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2])]);
    assert_eq!(fire(&rules, &mut t, a, b, &input, &mut d).dice, 3);
}

/// Ch16 5.1: a unit that pivoted or re-formed fires at -1.
#[test]
fn ch16_5_1_pivoted_minus_one() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "rifled_musket");
    let mut input = FireInput::at(10.0, FireKind::Phase3);
    input.pivoted = true;
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
    let r = fire(&rules, &mut t, a, b, &input, &mut d);
    assert_eq!(r.to_hit, 5);
    assert_eq!(volley_modifiers(&r), vec![("pivoted or re-formed".to_string(), -1)]);
}

/// Ch13 9.0 Elite Sharpshooters: fire aimed at an elite sharpshooter regiment takes -1 to hit,
/// with the module on; with it off the trait does nothing.
#[test]
fn ch13_9_0_elite_sharpshooters_are_harder_to_hit() {
    for (modules, to_hit, hits, expected) in [
        (&["elite_sharpshooters"][..], 5, 2, vec![("target: Elite Sharpshooter Regiment".to_string(), -1)]),
        (&[][..], 4, 3, vec![]),
    ] {
        let rules = rules_with(Rulings::default(), modules);
        let (mut t, a, b) = duel(5, "rifled_musket");
        t.unit_mut(b).traits.push("elite_sharpshooters".into());
        // 10" is medium range for a rifled musket: 4+ to hit.
        let mut d = dice(&[(Purpose::ToHit, &[6, 5, 4, 3, 2]), (Purpose::Discipline, &[6])]);
        let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
        assert_eq!((r.to_hit, r.hits), (to_hit, hits), "modules {modules:?}");
        assert_eq!(volley_modifiers(&r), expected);
    }
}

/// Ch16 9.0 Sharpshooters: one missed die rolled again at medium range, not at short.
#[test]
fn ch16_9_0_sharpshooters_reroll_one_miss_at_medium() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).traits.push("sharpshooters".into());
    let mut d = dice(&[(Purpose::ToHit, &[2, 1, 4, 4, 4, 5])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert!(has(&r, |w| matches!(w, What::Reroll { from: 1, to: 5, .. })));
    assert_eq!(r.hits, 4);

    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).traits.push("sharpshooters".into());
    let mut d = dice(&[(Purpose::ToHit, &[2, 1, 4, 4, 4])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(5.0, FireKind::Phase3), &mut d);
    assert!(!has(&r, |w| matches!(w, What::Reroll { .. })));
    assert_eq!(r.hits, 3);
}

/// RULE-05-2.5b, Ch16 11.0, RULINGS C14: two natural 1s give Low Ammo with the module on (and
/// nothing with it off); under `repeaters_only` a rifled musket is spared and a Spencer is not.
/// The marker then costs -1.
#[test]
fn c14_low_ammo_on_two_ones() {
    let cases = [
        (rules_with(Rulings::default(), &["low_ammo"]), "rifled_musket", true),
        (defaults(), "rifled_musket", false),
        (with(&["low_ammo"], |r| r.low_ammo_scope = LowAmmoScope::RepeatersOnly), "rifled_musket", false),
        (with(&["low_ammo"], |r| r.low_ammo_scope = LowAmmoScope::RepeatersOnly), "repeating_rifle", true),
    ];
    for (rules, weapon, low) in cases {
        let (mut t, a, b) = duel(5, weapon);
        let pool = rules.data.weapon(weapon).unwrap().pool(5) as usize;
        let mut faces = vec![1i64, 1];
        faces.resize(pool, 2);
        let mut d = dice(&[(Purpose::ToHit, &faces)]);
        fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
        assert_eq!(t.unit(a).markers.low_ammo, low, "{weapon}");
    }
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).markers.low_ammo = true;
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
    let r = fire(
        &rules_with(Rulings::default(), &["low_ammo"]),
        &mut t,
        a,
        b,
        &FireInput::at(10.0, FireKind::Phase3),
        &mut d,
    );
    assert_eq!(r.to_hit, 5);
}

/// Ch13 2.0, Ch16 11.0 Clean Barrels: +1 on the regiment's first volley with the module on, then
/// the marker goes and the next volley has no bonus.
#[test]
fn ch13_2_0_clean_barrels_first_volley_only() {
    let rules = rules_with(Rulings::default(), &["clean_barrels"]);
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).markers.clean_barrels = true;
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_eq!(r.to_hit, 3);
    assert!(!t.unit(a).markers.clean_barrels);
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
    assert_eq!(fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d).to_hit, 4);
}

/// Ch13 20.0 Plunging Fire: with the module, rifled muskets firing a closing volley hit on 5+;
/// a smoothbore and a Phase 3 volley are unaffected.
#[test]
fn ch13_20_0_plunging_fire_closing_volley() {
    let rules = rules_with(Rulings::default(), &["plunging_fire"]);
    for (weapon, kind, to_hit) in [
        ("rifled_musket", FireKind::Closing, 5),
        ("rifled_musket", FireKind::Phase3, 4),
        ("smoothbore_musket", FireKind::Closing, 3),
    ] {
        let (mut t, a, b) = duel(5, weapon);
        let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
        assert_eq!(
            fire(&rules, &mut t, a, b, &FireInput::at(4.0, kind), &mut d).to_hit,
            to_hit,
            "{weapon} {kind:?}"
        );
    }
}

/// Ch13 22.0: open order only with its module; it fires at -1 and saves 5+ in the open (RULINGS
/// G17: the one +1 to cover).
#[test]
fn ch13_22_0_open_order() {
    let (mut t, a, b) = duel(5, "rifled_musket");
    t.unit_mut(a).formation = "open_order".into();
    t.unit_mut(b).formation = "open_order".into();
    let mut d = dice(&[(Purpose::ToHit, &[5, 5, 2, 2, 2]), (Purpose::Save, &[5, 4])]);
    let off = resolve_volley(&defaults(), &mut t.state, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert!(matches!(off, Err(EngineError::Illegal { .. })));
    let rules = rules_with(Rulings::default(), &["open_order"]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert_eq!((r.to_hit, r.hits), (5, 2));
    assert_eq!(save_of(&r), Some(5));
    assert_eq!(r.unsaved, 1);
}

// ------------------------------------------------------------------ saves

/// A save against `hits` sure hits from `firer` (4 dice of 6) on a target of `formation` in
/// `cover`: the Saves event's number, or None for no save.
fn save_against(rules: &Rules, battery: bool, formation: &str, input: FireInput) -> Option<i32> {
    let mut t = Table::new();
    let a = if battery {
        t.battery("Battery", t.blue, 2, "ordnance_rifle")
    } else {
        t.infantry("Firer", t.blue, 4, "regular", "rifled_musket", "line")
    };
    let b = t.infantry("Target", t.red, 5, "veteran", "rifled_musket", formation);
    let side = t.red;
    pad(&mut t, side);
    let mut d = dice(&[(Purpose::ToHit, &[5, 5, 5, 5]), (Purpose::Save, &[6, 6, 6, 6])]);
    let r = fire(rules, &mut t, a, b, &input, &mut d);
    assert_eq!(r.hits, 4);
    save_of(&r)
}

fn in_cover(range: f64, class: CoverClass, from: &str, frontal: bool) -> FireInput {
    let mut i = FireInput::at(range, FireKind::Phase3);
    i.cover = CoverInput::of(class, from, frontal);
    i
}

/// RULE-05-2.4, Ch16 5.6: Concentrated Battery Fire saves at -1 (light woods 5+ -> 6+); only
/// artillery may use it (RULINGS C18: a Phase 3 volley).
#[test]
fn rule_05_2_4_concentrated_battery_minus_one_save() {
    let rules = defaults();
    let woods = in_cover(10.0, CoverClass::Light, "light_woods", false);
    assert_eq!(save_against(&rules, true, "line", woods.clone()), Some(5));
    let mut conc = woods.clone();
    conc.concentrated = true;
    assert_eq!(save_against(&rules, true, "line", conc.clone()), Some(6));
    let (mut t, a, b) = duel(5, "rifled_musket");
    let mut d = dice(&[]);
    let err = resolve_volley(&rules, &mut t.state, a, b, &conc, &mut d).unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule, .. } if rule.contains("RULE-05-2.4")));
}

/// RULE-05-2.5a, Ch16 3.2, RULINGS C30: an assault column saves at -1 against artillery only.
#[test]
fn c30_assault_column_minus_one_only_against_artillery() {
    let rules = defaults();
    let woods = in_cover(10.0, CoverClass::Light, "light_woods", false);
    assert_eq!(save_against(&rules, true, "assault_column", woods.clone()), Some(6));
    assert_eq!(save_against(&rules, false, "assault_column", woods), Some(5));
}

/// Ch16 3.2, 5.6, RULINGS G1: a road column saves at -2 (a stone wall's 4+ becomes 6+); light
/// cover's 5+ pushed to 7+ is no save at all.
#[test]
fn ch16_5_6_road_column_minus_two() {
    let rules = defaults();
    assert_eq!(
        save_against(&rules, false, "road_column", in_cover(10.0, CoverClass::Heavy, "stone_wall", true)),
        Some(6)
    );
    assert_eq!(
        save_against(&rules, false, "road_column", in_cover(10.0, CoverClass::Light, "light_woods", false)),
        None
    );
}

/// RULE-05-1.5, RULINGS C15: enfilade (+1 to hit) takes away a fence's light save under both
/// settings; light woods keep theirs under `entirely_behind` and lose it under `majority_behind`.
/// Ch16 5.3: a howitzer ignores the fence too.
#[test]
fn c15_enfilade_denies_a_fence_save() {
    let rules = defaults();
    let fence = in_cover(10.0, CoverClass::Light, "rail_fence", true);
    assert_eq!(save_against(&rules, false, "line", fence.clone()), Some(5));
    let mut enf = fence.clone();
    enf.enfilade = true;
    assert_eq!(save_against(&rules, false, "line", enf.clone()), None);
    let majority = with(&[], |r| r.enfilade = Enfilade::MajorityBehind);
    assert_eq!(save_against(&majority, false, "line", enf), None);
    let mut woods = in_cover(10.0, CoverClass::Light, "light_woods", false);
    woods.enfilade = true;
    assert_eq!(save_against(&rules, false, "line", woods.clone()), Some(5));
    assert_eq!(save_against(&majority, false, "line", woods), None);
    // The +1 to hit (Ch16 5.6).
    let (mut t, a, b) = duel(5, "rifled_musket");
    let mut i = FireInput::at(10.0, FireKind::Phase3);
    i.enfilade = true;
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2])]);
    assert_eq!(fire(&rules, &mut t, a, b, &i, &mut d).to_hit, 3);
    // Ch16 5.3: lobbed shells ignore the fence, not the woods.
    let mut t = Table::new();
    let h = t.battery("Howitzers", t.blue, 1, "field_howitzer");
    let v = t.infantry("Target", t.red, 5, "veteran", "rifled_musket", "line");
    let mut d = dice(&[(Purpose::ToHit, &[5, 5])]);
    let r = fire(&rules, &mut t, h, v, &fence, &mut d);
    assert!(has(&r, |w| matches!(w, What::NoSave { because, .. } if because.contains("Ch16 5.3"))));
}

/// RULE-05-3.2, Ch16 5.6: skirmish order saves 5+ in the open; cover never stacks (RULINGS G17).
#[test]
fn ch16_5_6_skirmish_order_saves_in_the_open() {
    let rules = defaults();
    assert_eq!(save_against(&rules, false, "skirmish", FireInput::at(10.0, FireKind::Phase3)), Some(5));
    assert_eq!(
        save_against(&rules, false, "skirmish", in_cover(10.0, CoverClass::Heavy, "stone_wall", true)),
        Some(4)
    );
}

/// Ch16 9.0 Steady (RULINGS C27): one failed cover save re-rolled, once a turn.
#[test]
fn ch16_9_0_steady_rerolls_one_failed_save_per_turn() {
    let rules = defaults();
    let (mut t, a, b) = duel(2, "rifled_musket");
    t.unit_mut(b).traits.push("steady".into());
    // Within 6", so the smoke of the first volley does not cost the second one.
    let fence = in_cover(5.0, CoverClass::Light, "rail_fence", true);
    let mut d = dice(&[(Purpose::ToHit, &[4, 4]), (Purpose::Save, &[2, 5, 6])]);
    let r = fire(&rules, &mut t, a, b, &fence, &mut d);
    assert!(has(&r, |w| matches!(w, What::Reroll { from: 2, to: 6, .. })));
    assert_eq!(r.unsaved, 0);
    let mut d = dice(&[(Purpose::ToHit, &[4, 4]), (Purpose::Save, &[2, 5])]);
    let r = fire(&rules, &mut t, a, b, &fence, &mut d);
    assert_eq!(r.unsaved, 1, "the re-roll is spent for this turn");
}

// ------------------------------------------------------------------ casualties

/// Ch16 3.4, RULINGS G12: the target's screen obscures fire at it (-1), takes the first unsaved
/// hit of each volley, and at 2 hits is gone: a stand lost by the parent, on the brigade tally.
#[test]
fn g12_screen_absorbs_and_is_removed_at_two_hits() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "smoothbore_musket");
    t.unit_mut(b).screen = Some(Screen::default());
    let mut input = FireInput::at(4.0, FireKind::Phase3);
    input.firing_stands = Some(2);
    let mut d = dice(&[(Purpose::ToHit, &[4, 4])]);
    let r = fire(&rules, &mut t, a, b, &input, &mut d);
    assert_eq!(r.to_hit, 4, "smoothbore 3+ with the screen's -1");
    assert!(has(&r, |w| matches!(w, What::ScreenHit { hits: 1, removed: false, .. })));
    assert_eq!((t.unit(b).stands, t.unit(b).micro_hit), (5, 1));
    assert_eq!(t.unit(b).screen, Some(Screen { hits: 1 }));

    let mut d = dice(&[(Purpose::ToHit, &[4, 3])]);
    let r = fire(&rules, &mut t, a, b, &input, &mut d);
    assert_eq!(r.hits, 1);
    assert!(has(&r, |w| matches!(w, What::ScreenHit { hits: 2, removed: true, .. })));
    assert_eq!(r.stands_lost, 1);
    assert_eq!((t.unit(b).stands, t.unit(b).micro_hit, t.unit(b).screen.is_none()), (4, 1, true));
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 1);
}

/// Ch16 3.4: fire from beyond the flank (enfilade) does not pass through a screen placed ahead
/// of the front, so the screen neither obscures it nor takes its hit (judgement).
#[test]
fn ch16_3_4_enfilade_passes_the_screen_by() {
    let rules = defaults();
    let (mut t, a, b) = duel(5, "smoothbore_musket");
    t.unit_mut(b).screen = Some(Screen::default());
    let mut input = FireInput::at(4.0, FireKind::Phase3);
    input.firing_stands = Some(2);
    input.enfilade = true;
    let mut d = dice(&[(Purpose::ToHit, &[4, 2])]);
    let r = fire(&rules, &mut t, a, b, &input, &mut d);
    assert_eq!(volley_modifiers(&r), vec![("enfilade".to_string(), 1)]);
    assert_eq!(r.hits, 2);
    assert!(!has(&r, |w| matches!(w, What::ScreenHit { .. })));
    assert_eq!((t.unit(b).stands, t.unit(b).screen.clone()), (4, Some(Screen { hits: 0 })));
}

/// RULE-07-3.4, RULE-05-3.4: a two-stand regiment already disordered, with a micro-hit, fails
/// its Shock save; the double-Disorder micro-hit completes a stand and it shatters before its
/// cover saves, which are then not rolled.
#[test]
fn rule_07_3_4_shattered_by_the_shock_before_the_saves() {
    let rules = defaults();
    let (mut t, a, b) = duel(1, "rifled_musket");
    t.unit_mut(b).stands = 2;
    t.unit_mut(b).micro_hit = 1;
    t.unit_mut(b).markers.disorder = true;
    let fence = in_cover(4.0, CoverClass::Light, "rail_fence", true);
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Discipline, &[1])]);
    let r = fire(&rules, &mut t, a, b, &fence, &mut d);
    assert!(r.target_removed && r.disordered);
    assert_eq!((r.hits, r.unsaved, r.stands_lost), (1, 0, 2));
    assert!(!rolled(&d, Purpose::Save));
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 2);
}

/// RULE-05-3.3: a carried micro-hit and one more unsaved hit make a stand.
#[test]
fn rule_05_3_3_micro_hit_carry_completes_a_stand() {
    let rules = defaults();
    let (mut t, a, b) = duel(1, "smoothbore_musket");
    t.unit_mut(b).micro_hit = 1;
    let mut d = dice(&[(Purpose::ToHit, &[4])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(has(&r, |w| matches!(w, What::UnsavedHits { hits: 1, carried: 1, .. })));
    assert_eq!(r.stands_lost, 1);
    assert_eq!((t.unit(b).stands, t.unit(b).micro_hit), (4, 0));
}

/// RULE-05-3.4, RULINGS G5: a two-stand regiment that loses a stand shatters, and both stands go
/// on the brigade tally. (Spent before the volley, it is gone before its Spent test.)
#[test]
fn rule_05_3_4_shatter_counts_both_stands() {
    let rules = defaults();
    let (mut t, a, b) = duel(2, "smoothbore_musket");
    t.unit_mut(b).stands = 2;
    let mut d = dice(&[(Purpose::ToHit, &[3, 4])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(r.target_removed);
    assert_eq!(r.stands_lost, 2);
    assert!(has(&r, |w| matches!(w, What::Shattered { .. })));
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 2);
    assert!(tests_of(&r, TestKind::SpentUnderFire).is_empty());
}

// ------------------------------------------------------------------ Shock

/// Ch16 9.0 Iron Discipline, RULINGS G9: the first Shock trigger of a turn is ignored (the hits
/// still count), the second is saved as usual, and a new turn renews it.
#[test]
fn g9_iron_discipline_ignores_the_first_trigger_of_a_turn() {
    let rules = defaults();
    let (mut t, a, b) = duel(1, "rifled_musket");
    t.unit_mut(b).traits.push("iron_discipline".into());
    let mut d = dice(&[(Purpose::ToHit, &[6])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(r.shock_trigger);
    assert!(has(&r, |w| matches!(w, What::ShockIgnored { .. })));
    assert_eq!(r.unsaved, 1);
    assert!(!rolled(&d, Purpose::Discipline));

    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Discipline, &[1])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(!has(&r, |w| matches!(w, What::ShockIgnored { .. })));
    assert_eq!(tests_of(&r, TestKind::ShockSave).len(), 1);
    assert!(r.disordered);

    t.state.start_turn(2);
    let mut d = dice(&[(Purpose::ToHit, &[6])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(has(&r, |w| matches!(w, What::ShockIgnored { .. })));
}

/// Ch16 5.3, RULINGS G9: a Napoleon's canister hits disorder the target with no save, Iron
/// Discipline or not; with a natural 6 too there is still no Shock save (RULE-05-4.3: one
/// suppression result a volley).
#[test]
fn ch16_5_3_napoleon_canister_disorders_automatically() {
    let rules = defaults();
    for faces in [[3i64, 2], [6, 3]] {
        let mut t = Table::new();
        let g = t.battery("Napoleons", t.blue, 1, "napoleon");
        let v = t.infantry("Target", t.red, 5, "elite", "rifled_musket", "line");
        let side = t.red;
        pad(&mut t, side);
        t.unit_mut(v).traits.push("iron_discipline".into());
        let mut d = dice(&[(Purpose::ToHit, &faces)]);
        let r = fire(&rules, &mut t, g, v, &FireInput::at(4.0, FireKind::Phase3), &mut d);
        assert_eq!(r.hits, 2);
        assert!(r.disordered && t.unit(v).markers.disorder);
        assert!(!rolled(&d, Purpose::Discipline));
        assert!(!has(&r, |w| matches!(w, What::ShockIgnored { .. })), "G9: not Iron Discipline's to stop");
    }
    // A 3-inch rifle's canister does not.
    let mut t = Table::new();
    let g = t.battery("Rifles", t.blue, 1, "ordnance_rifle");
    let v = t.infantry("Target", t.red, 5, "regular", "rifled_musket", "line");
    let mut d = dice(&[(Purpose::ToHit, &[3, 4])]);
    let r = fire(&rules, &mut t, g, v, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(!r.disordered);
}

/// RULE-05-4.2, RULINGS G9: crossfire -1 on the Shock save from the second firing unit of the
/// phase; a new phase forgets it.
#[test]
fn g9_crossfire_from_the_second_firer() {
    let rules = defaults();
    let (mut t, a, b) = duel(2, "rifled_musket");
    let c = t.infantry("Second firer", t.blue, 2, "regular", "rifled_musket", "line");
    let mut d = dice(&[(Purpose::ToHit, &[1, 2])]);
    fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    let mut d = dice(&[(Purpose::ToHit, &[6, 2]), (Purpose::Discipline, &[4])]);
    let r = fire(&rules, &mut t, c, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    let (needed, _, passed, mods) = tests_of(&r, TestKind::ShockSave).remove(0);
    assert_eq!(mods, vec![("fresh".to_string(), 1), ("crossfire".to_string(), -1)]);
    assert_eq!((needed, passed), (4, true));

    t.state.start_phase();
    let mut d = dice(&[(Purpose::ToHit, &[6, 2]), (Purpose::Discipline, &[3])]);
    let r = fire(&rules, &mut t, c, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_eq!(tests_of(&r, TestKind::ShockSave)[0].0, 3, "a new phase: no crossfire");
}

/// RULE-05-4.2, Ch16 5.5: cover +1 on the Shock save; a Spent target -1 (judged before the
/// casualties, RULINGS G9).
#[test]
fn rule_05_4_2_shock_save_cover_and_spent() {
    let rules = defaults();
    let (mut t, a, b) = duel(1, "rifled_musket");
    let fence = in_cover(4.0, CoverClass::Light, "rail_fence", true);
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Save, &[5]), (Purpose::Discipline, &[2])]);
    let r = fire(&rules, &mut t, a, b, &fence, &mut d);
    assert_eq!(tests_of(&r, TestKind::ShockSave)[0].0, 2, "4+ with fresh +1 and cover +1");

    let (mut t, a, b) = duel(1, "rifled_musket");
    t.unit_mut(b).stands = 2;
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Discipline, &[6, 6])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_eq!(tests_of(&r, TestKind::ShockSave)[0].3, vec![("spent".to_string(), -1)]);
}

/// RULINGS C5 `fall_back`: a failed Shock save also falls back 3" (RULE-07-1.5); a target already
/// disordered takes a micro-hit instead of a second marker (RULE-07-3.4).
#[test]
fn c5_fall_back_and_double_disorder() {
    let rules = with(&[], |r| r.failed_discipline = FailedDiscipline::FallBack);
    let (mut t, a, b) = duel(1, "rifled_musket");
    t.unit_mut(b).markers.disorder = true;
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Discipline, &[1])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(has(&r, |w| matches!(w, What::FallBack { inches, .. } if *inches == 3.0)));
    assert!(r.disordered);
    // The double-disorder micro-hit and the volley's hit make a stand.
    assert_eq!((r.stands_lost, t.unit(b).micro_hit), (1, 0));
}

// ------------------------------------------------------------------ tests after the volley

/// Ch16 8.1, RULINGS G9: a Spent target tests once per volley even with no hit; failing it falls
/// back 3" with Disorder (RULE-07-1.5, C5).
#[test]
fn g9_spent_under_fire_tests_with_zero_hits() {
    let rules = defaults();
    for (die, passed) in [(5i64, true), (3, false)] {
        let (mut t, a, b) = duel(2, "rifled_musket");
        t.unit_mut(b).stands = 2;
        let mut d = dice(&[(Purpose::ToHit, &[1, 2]), (Purpose::Discipline, &[die])]);
        let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
        assert_eq!(r.hits, 0);
        let tests = tests_of(&r, TestKind::SpentUnderFire);
        assert_eq!(tests.len(), 1);
        assert_eq!((tests[0].0, tests[0].2), (4, passed));
        assert_eq!(has(&r, |w| matches!(w, What::FallBack { .. })), !passed);
        assert_eq!(t.unit(b).markers.disorder, !passed);
        assert_eq!(r.disordered, !passed);
    }
}

/// Ch16 9.0, RULINGS C28, G9: a green unit tests at 5+ the first time fire leaves it an unsaved
/// hit; failing disorders it and halts it; it never tests again.
#[test]
fn c28_seen_the_elephant_once() {
    let rules = defaults();
    let mut t = Table::new();
    let a = t.infantry("Firer", t.blue, 1, "regular", "smoothbore_musket", "line");
    let b = t.infantry("Green", t.red, 5, "green", "rifled_musket", "line");
    let side = t.red;
    pad(&mut t, side);
    let mut d = dice(&[(Purpose::ToHit, &[3]), (Purpose::Discipline, &[4])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert_eq!(tests_of(&r, TestKind::SeenTheElephant), vec![(5, 4, false, vec![])]);
    assert!(r.disordered && t.unit(b).markers.disorder && t.unit(b).elephant_seen);
    assert!(has(&r, |w| matches!(w, What::Note { text } if text.contains("halts"))));

    let mut d = dice(&[(Purpose::ToHit, &[3])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(tests_of(&r, TestKind::SeenTheElephant).is_empty());
    assert!(!rolled(&d, Purpose::Discipline));
}

/// Ch16 2.4, RULE-07-4.3, RULINGS C9: an attached brigadier rolls on a natural 6 with no stand
/// lost (`fire_or_melee`); under `melee_only` fire never makes him roll.
#[test]
fn c9_leader_casualty_on_a_six_without_a_stand_lost() {
    let attach = |t: &mut Table, unit: UnitId| -> LeaderId {
        let l = t.brigadier("Garnett", t.red, "reliable");
        t.state.leaders[l.0].attached = Some(unit);
        l
    };
    let rules = defaults();
    let (mut t, a, b) = duel(1, "rifled_musket");
    let l = attach(&mut t, b);
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::LeaderCasualty, &[4])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert_eq!((r.stands_lost, r.sixes), (0, 1));
    assert!(has(&r, |w| matches!(w, What::LeaderCasualty { rolled: 4, .. })));
    assert_eq!(t.state.leaders[l.0].pip_penalty, 1);

    let rules = with(&[], |r| r.leader_casualty = LeaderCasualtyTrigger::MeleeOnly);
    let (mut t, a, b) = duel(1, "rifled_musket");
    attach(&mut t, b);
    let mut d = dice(&[(Purpose::ToHit, &[6])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert!(!has(&r, |w| matches!(w, What::LeaderCasualty { .. })));
    assert!(!rolled(&d, Purpose::LeaderCasualty));
}

/// RULINGS E5 (Garnett's charge, with a Napoleon): the 33rd Virginia, 2 stands and Spent, loses a
/// stand to canister and shatters; the attached leader still rolls, once, after the shatter.
#[test]
fn e5_leader_rolls_after_the_shatter() {
    let rules = defaults();
    let mut t = Table::new();
    let g = t.battery("Union battery", t.blue, 1, "napoleon");
    let v = t.infantry("33rd Virginia", t.red, 5, "regular", "rifled_musket", "line");
    let side = t.red;
    pad(&mut t, side);
    t.unit_mut(v).stands = 2;
    let l = t.brigadier("Garnett", t.red, "reliable");
    t.state.leaders[l.0].attached = Some(v);
    let mut d = dice(&[(Purpose::ToHit, &[2, 6]), (Purpose::LeaderCasualty, &[5])]);
    let r = fire(&rules, &mut t, g, v, &FireInput::at(4.0, FireKind::Closing), &mut d);
    assert!(r.target_removed);
    let shatter = r.events.iter().position(|e| matches!(e.what, What::Shattered { .. })).unwrap();
    let roll = r.events.iter().position(|e| matches!(e.what, What::LeaderCasualty { .. })).unwrap();
    assert!(shatter < roll);
    assert_eq!(r.events.iter().filter(|e| matches!(e.what, What::LeaderCasualty { .. })).count(), 1);
    assert!(t.state.leaders[l.0].removed);
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 2);
}

// ------------------------------------------------------------------ transactions

/// engine::transact: a missing die is EngineError::Dice and the state is left as it was (here the
/// Shock save's die of RULINGS E1, after the casualties would have been known).
#[test]
fn a_missing_die_changes_nothing() {
    let rules = defaults();
    let (mut t, va, ind) = e1();
    let before = t.state.clone();
    let mut d = dice(&[(Purpose::ToHit, &[3, 5, 2, 6, 4])]);
    let err = resolve_volley(&rules, &mut t.state, va, ind, &FireInput::at(4.0, FireKind::Phase3), &mut d)
        .unwrap_err();
    assert!(matches!(err, EngineError::Dice(DiceError::Missing { purpose: Purpose::Discipline, .. })));
    assert_eq!(t.state, before);
}

/// Ch16 8.1, RULINGS G19: health states are a regiment's. A two-section battery is not "Spent"
/// (it would be, counted as a 2-stand regiment), so fire at it calls for no Spent-under-fire test
/// and gives no Spent -1 on its Shock save; a 2-stand infantry regiment does test.
#[test]
fn ch16_8_1_a_two_section_battery_has_no_health_state() {
    let rules = defaults();
    let mut t = Table::new();
    let firer = t.infantry("Firer", t.red, 5, "regular", "rifled_musket", "line");
    let guns = t.battery("Two Guns", t.blue, 2, "napoleon");
    // Five misses at 10": no hits, no sixes; no Discipline die is recorded, so a test would fail.
    let mut d = dice(&[(Purpose::ToHit, &[1, 2, 3, 2, 1])]);
    let r = fire(&rules, &mut t, firer, guns, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert!(tests_of(&r, TestKind::SpentUnderFire).is_empty());

    let mut t = Table::new();
    let firer = t.infantry("Firer", t.red, 5, "regular", "rifled_musket", "line");
    let regiment = t.infantry("Two Stands", t.blue, 5, "regular", "rifled_musket", "line");
    t.unit_mut(regiment).stands = 2;
    let mut d = dice(&[(Purpose::ToHit, &[1, 2, 3, 2, 1]), (Purpose::Discipline, &[6])]);
    let r = fire(&rules, &mut t, firer, regiment, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert_eq!(tests_of(&r, TestKind::SpentUnderFire).len(), 1);
}

/// Issue 13: each to-hit and save modifier of a volley is defined once, in the volley's plan
/// (`fire/plan.rs`); the odds, the replay and the resolution read the plan and make none of
/// their own. Modifiers are made only by the engine's rule modules: the plan (fire), melee,
/// morale (Discipline checks) and the assault's pip tier.
#[test]
fn each_fire_modifier_is_defined_once_in_the_plan() {
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("runtime/src is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut makers = std::collections::BTreeSet::new();
    for path in &files {
        let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let name = path.file_name().unwrap().to_string_lossy();
        if name.contains("tests") || rel.contains("/tests/") || name == "testkit.rs" || name == "proptests.rs"
        {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        if text.contains("Modifier::new(") {
            makers.insert(rel);
        }
    }
    let expected: std::collections::BTreeSet<String> =
        ["engine/fire/plan.rs", "engine/melee.rs", "engine/morale.rs"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    assert_eq!(makers, expected, "modifiers made outside the engine's rule modules");
    // Within the plan, each modifier's name is written once.
    let plan = std::fs::read_to_string(root.join("engine/fire/plan.rs")).unwrap();
    let mut names: Vec<&str> = plan
        .split("Modifier::new(")
        .skip(1)
        .filter_map(|rest| rest.trim_start().strip_prefix('"'))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(names.len() >= 9, "{names:?}");
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(names.len(), before, "a modifier name written twice in the plan");
}

// ------------------------------------------------------------------ legality and the pool (mutation tests)

/// RULE-05-1.1, Ch16 10.2: cavalry shoots dismounted. Mounted it cannot fire at all (nothing
/// rolled, nothing changed); dismounted, a 4-stand regiment fires its 3 stands forward and the
/// 1 stand in 4 holding the horses does not (muzzleloading carbine, 1D6 a stand, Ch16 10.3).
#[test]
fn ch16_10_2_mounted_cavalry_cannot_fire_and_horse_holders_do_not() {
    let rules = defaults();
    let (mut t, a, b) = duel(4, "muzzleloading_carbine");
    t.unit_mut(a).arm = Arm::Cavalry { mounted: true, horse_holders: 0, can_remount: true };
    let before = t.state.clone();
    let mut d = dice(&[(Purpose::ToHit, &[6, 6, 6, 6])]);
    let err = resolve_volley(&rules, &mut t.state, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d)
        .unwrap_err();
    assert!(matches!(err, EngineError::Illegal { rule, .. } if rule.contains("Ch16 10.2")), "{err}");
    assert_eq!(t.state, before);
    assert_eq!(d.used(), 0);

    let (mut t, a, b) = duel(4, "muzzleloading_carbine");
    t.unit_mut(a).arm = Arm::Cavalry { mounted: false, horse_holders: 1, can_remount: true };
    t.unit_mut(a).formation = "skirmish".into();
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert_eq!(r.dice, 3);
    assert_eq!(r.pool, vec!["4 stands".to_string(), "1 holding the horses (Ch16 10.2)".to_string()]);

    // With no stand holding horses (its holders lost, Ch16 10.2) every stand fires and the pool
    // names no horse holders.
    let (mut t, a, b) = duel(3, "muzzleloading_carbine");
    t.unit_mut(a).arm = Arm::Cavalry { mounted: false, horse_holders: 0, can_remount: false };
    t.unit_mut(a).formation = "skirmish".into();
    let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(10.0, FireKind::Phase3), &mut d);
    assert_eq!(r.dice, 3);
    assert_eq!(r.pool, vec!["3 stands, all firing".to_string()]);
}

/// RULE-05-1.4, RULINGS G4: a range is a measured distance, so a negative or non-finite one is
/// no volley, refused under the measuring rule (not read as a target out of the weapon's reach).
#[test]
fn g4_a_range_must_be_a_distance() {
    let rules = defaults();
    for range in [-2.0, f64::NAN, f64::INFINITY] {
        let (mut t, a, b) = duel(5, "rifled_musket");
        let mut d = dice(&[(Purpose::ToHit, &[6, 6, 6, 6, 6])]);
        let err = resolve_volley(&rules, &mut t.state, a, b, &FireInput::at(range, FireKind::Phase3), &mut d)
            .unwrap_err();
        assert!(
            matches!(err, EngineError::Illegal { rule, .. } if rule.contains("RULINGS G4")),
            "{range}: {err}"
        );
        assert_eq!(d.used(), 0);
    }
}

/// RULE-05-2.4, Ch16 2.3: Concentrated Battery Fire combines up to 3 sections of the brigade's
/// batteries into one barrage at 2D6 a section (RULE-05-2.3). A 2-section battery joined by 1
/// section fires 3 sections, 6D6, all of them (the limit reached, not passed); joined by 2 it is
/// still held to 3 sections.
#[test]
fn rule_05_2_4_concentrated_battery_fire_up_to_three_sections() {
    let rules = defaults();
    for (extra, words) in [
        (0, vec!["2 sections, all firing", "4 dice from 2 sections firing"]),
        (
            1,
            vec!["2 sections", "1 section of the brigade's other batteries", "6 dice from 3 sections firing"],
        ),
        (
            2,
            vec![
                "2 sections",
                "2 sections of the brigade's other batteries",
                "at most 3 sections in one barrage",
                "6 dice from 3 sections firing",
            ],
        ),
    ] {
        let mut t = Table::new();
        let g = t.battery("Battery", t.blue, 2, "ordnance_rifle");
        let v = t.infantry("Target", t.red, 5, "regular", "rifled_musket", "line");
        let side = t.red;
        pad(&mut t, side);
        let mut input = FireInput::at(10.0, FireKind::Phase3);
        input.concentrated = true;
        input.extra_sections = extra;
        let dice_needed = if extra == 0 { 4 } else { 6 };
        let mut d = dice(&[(Purpose::ToHit, &[2, 2, 2, 2, 2, 2][..dice_needed])]);
        let r = fire(&rules, &mut t, g, v, &input, &mut d);
        assert_eq!(r.dice as usize, dice_needed, "{extra} extra");
        assert_eq!(r.pool.len(), words.len(), "{extra} extra: {:?}", r.pool);
        for (got, want) in r.pool.iter().zip(&words) {
            assert!(got.starts_with(want), "{extra} extra: {got:?} is not {want:?}");
        }
    }
}

/// RULE-05-4.2: a regiment "In Cover (Light or Heavy)" makes its Shock save at +1, and Ch13
/// 22.0 gives open order 5+ Light Cover in open ground. So a Fresh regular in open order in the
/// open, shocked at 4", saves on 4+ less Fresh +1 and cover +1: 2+.
#[test]
fn rule_05_4_2_open_order_in_the_open_counts_as_in_cover_for_the_shock_save() {
    let rules = rules_with(Rulings::default(), &["open_order"]);
    let (mut t, a, b) = duel(1, "rifled_musket");
    t.unit_mut(b).formation = "open_order".into();
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Save, &[1]), (Purpose::Discipline, &[2])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(r.shock_trigger);
    let (needed, rolled, passed, mods) = tests_of(&r, TestKind::ShockSave).remove(0);
    assert_eq!(mods, vec![("fresh".to_string(), 1), ("cover".to_string(), 1)]);
    assert_eq!((needed, rolled, passed), (2, 2, true));
    assert!(!t.unit(b).markers.disorder);
}

/// Ch16 9.0 Iron Discipline: a trait ignores as many Shock results a turn as its
/// `ignore_suppression` count says. A library trait that allows none (`0 per turn`) ignores none:
/// the first trigger of the turn is saved as usual (RULE-05-4.2) and a failed save disorders.
#[test]
fn ch16_9_0_a_shock_allowance_of_none_ignores_nothing() {
    let mut data = dotc_lang::stdlib().clone();
    let library = dotc_lang::parse(
        "library \"test\" {\n    trait no_allowance \"No Allowance\" {\n        category elite\n        \
         ignore_suppression 0 per turn\n        source \"Ch16 9.0\"\n    }\n}\n",
    )
    .document;
    let mut diags = Vec::new();
    data.extend(dotc_lang::library::RuleData::from_libraries(library.libraries.iter(), &mut diags));
    assert!(diags.is_empty(), "{diags:?}");
    let rules = Rules::new(data, Rulings::default(), Vec::<String>::new()).unwrap();
    let (mut t, a, b) = duel(1, "rifled_musket");
    t.unit_mut(b).traits.push("no_allowance".into());
    assert!(rules.trait_def("no_allowance").is_some_and(|tr| tr.ignore_suppression.is_some()));
    let mut d = dice(&[(Purpose::ToHit, &[6]), (Purpose::Discipline, &[1])]);
    let r = fire(&rules, &mut t, a, b, &FireInput::at(4.0, FireKind::Phase3), &mut d);
    assert!(r.shock_trigger);
    assert!(!has(&r, |w| matches!(w, What::ShockIgnored { .. })));
    assert_eq!(tests_of(&r, TestKind::ShockSave).len(), 1);
    assert!(r.disordered && t.unit(b).markers.disorder);
}

/// RULE-05-2.5a, RULINGS C30: an assault column saves at -1 against "all incoming Artillery fire",
/// and artillery is the weapon's class as well as the battery: a library piece of class
/// `artillery` served by infantry stands (1D6 a stand, not per section) is artillery fire, so the
/// column's light woods 5+ becomes 6+ (Ch16 5.4, 5.6).
#[test]
fn c30_an_artillery_class_weapon_is_artillery_fire_whoever_serves_it() {
    let mut data = dotc_lang::stdlib().clone();
    let library = dotc_lang::parse(
        "library \"test\" {\n    weapon light_mortar \"Light Mortar\" {\n        class artillery\n        \
         dice 1 per stand\n        short to 6 hits 4+\n        medium to 18 hits 4+\n        \
         source \"RULE-05-2.3\"\n    }\n}\n",
    )
    .document;
    let mut diags = Vec::new();
    data.extend(dotc_lang::library::RuleData::from_libraries(library.libraries.iter(), &mut diags));
    assert!(diags.is_empty(), "{diags:?}");
    let rules = Rules::new(data, Rulings::default(), Vec::<String>::new()).unwrap();
    let mut t = Table::new();
    let a = t.infantry("Mortar Detachment", t.blue, 4, "regular", "light_mortar", "line");
    let b = t.infantry("Target", t.red, 5, "veteran", "rifled_musket", "assault_column");
    let side = t.red;
    pad(&mut t, side);
    let mut d = dice(&[(Purpose::ToHit, &[5, 5, 5, 5]), (Purpose::Save, &[6, 6, 6, 6])]);
    let r = fire(&rules, &mut t, a, b, &in_cover(10.0, CoverClass::Light, "light_woods", false), &mut d);
    assert_eq!((r.dice, r.hits), (4, 4));
    assert_eq!(save_of(&r), Some(6));
}

// ------------------------------------------------------------------ Ch13 7.0 Advanced Artillery

/// Ch13 7.0 Counter-Battery Fire, dotc D10: two Napoleon sections at an enemy battery 12" away
/// (Medium 4+): [6, 5, 4, 2] is 3 hits, one a natural 6 (no Shock: beyond 6" it takes two). The
/// 6 destroys a gun stand outright and the other 2 hits, with no save in the open, take a
/// second: 3 sections -> 1, no micro-hit. Without the module the same dice are 3 hits = 1 stand
/// and a micro-hit.
#[test]
fn ch13_7_0_counter_battery_natural_six_destroys_a_gun_stand() {
    for (modules, lost, micro) in [(&["advanced_artillery"][..], 2, 0), (&[][..], 1, 1)] {
        let rules = with(modules, |_| {});
        let mut t = Table::new();
        let guns = t.battery("Union guns", t.red, 2, "napoleon");
        let enemy = t.battery("Rebel guns", t.blue, 3, "napoleon");
        let side = t.blue;
        pad(&mut t, side);
        let mut d = dice(&[(Purpose::ToHit, &[6, 5, 4, 2])]);
        let r = fire(&rules, &mut t, guns, enemy, &FireInput::at(12.0, FireKind::Phase3), &mut d);
        assert_eq!((r.dice, r.hits, r.sixes), (4, 3, 1), "{modules:?}");
        assert_eq!(r.stands_lost, lost, "{modules:?}");
        assert_eq!(t.unit(enemy).stands, 3 - lost, "{modules:?}");
        assert_eq!(t.unit(enemy).micro_hit, micro, "{modules:?}");
    }
}

/// Ch13 7.0, dotc D10: the 6s are not saved against; the rest are. Two Napoleon sections at a
/// battery in heavy cover (4+ save): [6, 6, 5, 1] at 10" (Medium 4+: 3 hits, two 6s: beyond 6"
/// a Shock trigger, the battery's Discipline save [6] passes). The two 6s destroy 2 gun stands;
/// the one other hit is saved on a [4]: 3 sections -> 1, no micro-hit.
#[test]
fn ch13_7_0_counter_battery_sixes_skip_the_cover_save() {
    let rules = with(&["advanced_artillery"], |_| {});
    let mut t = Table::new();
    let guns = t.battery("Union guns", t.red, 2, "napoleon");
    let enemy = t.battery("Rebel guns", t.blue, 3, "napoleon");
    let side = t.blue;
    pad(&mut t, side);
    let mut input = FireInput::at(10.0, FireKind::Phase3);
    input.cover = CoverInput { class: CoverClass::Heavy, from: None, frontal_obstacle: false };
    let mut d = dice(&[(Purpose::ToHit, &[6, 6, 5, 1]), (Purpose::Discipline, &[6]), (Purpose::Save, &[4])]);
    let r = fire(&rules, &mut t, guns, enemy, &input, &mut d);
    assert_eq!((r.hits, r.sixes, r.unsaved, r.stands_lost), (3, 2, 0, 2));
    assert_eq!((t.unit(enemy).stands, t.unit(enemy).micro_hit), (1, 0));
}

/// Ch13 7.0: counter-battery fire is artillery's at a battery; a Napoleon's 6 at an infantry
/// line is an ordinary hit. [6, 5, 4, 2] at 12": 3 hits = 1 stand and a micro-hit.
#[test]
fn ch13_7_0_counter_battery_only_at_batteries() {
    let rules = with(&["advanced_artillery"], |_| {});
    let mut t = Table::new();
    let guns = t.battery("Union guns", t.red, 2, "napoleon");
    let line = t.infantry("Line", t.blue, 5, "regular", "rifled_musket", "line");
    let side = t.blue;
    pad(&mut t, side);
    let mut d = dice(&[(Purpose::ToHit, &[6, 5, 4, 2])]);
    let r = fire(&rules, &mut t, guns, line, &FireInput::at(12.0, FireKind::Phase3), &mut d);
    assert_eq!((r.hits, r.stands_lost), (3, 1));
    assert_eq!(t.unit(line).micro_hit, 1);
}

/// Ch13 7.0 Bouncing Solid Shot: two Napoleon sections (4D6) enfilading a line at 10" (Medium,
/// 4+, enfilade +1: 3+) roll 2 dice more: 6D6. Not with canister (5"), not at a column, not
/// from the front, not without the module.
#[test]
fn ch13_7_0_bouncing_shot_adds_two_dice_into_an_enfiladed_line() {
    let dice_of = |modules: &[&str], formation: &str, range: f64, enfilade: bool| {
        let rules = with(modules, |_| {});
        let mut t = Table::new();
        let guns = t.battery("Union guns", t.red, 2, "napoleon");
        let target = t.infantry("Target", t.blue, 5, "regular", "rifled_musket", formation);
        let mut input = FireInput::at(range, FireKind::Phase3);
        input.enfilade = enfilade;
        let plan = plan_volley(&rules, &t.state, guns, target, &input).expect("a legal volley");
        (plan.dice, plan.to_hit)
    };
    let on = ["advanced_artillery"];
    assert_eq!(dice_of(&on, "line", 10.0, true), (6, 3));
    assert_eq!(dice_of(&[], "line", 10.0, true), (4, 3));
    assert_eq!(dice_of(&on, "line", 5.0, true).0, 4, "canister does not bounce");
    assert_eq!(dice_of(&on, "assault_column", 10.0, true).0, 4, "a column is no line of battle");
    assert_eq!(dice_of(&on, "line", 10.0, false), (6 - 2, 4));
}

/// Ch13 7.0 overhead fire, RULINGS C2: the module's 3"/3" are the clearances while it is on,
/// whatever the switch; without it the switch decides (6"/4" by default).
#[test]
fn ch13_7_0_overhead_fire_clearances_follow_the_module() {
    use crate::rulings::OverheadClearance;
    assert_eq!(
        plan::overhead_clearance(&with(&["advanced_artillery"], |_| {})),
        OverheadClearance::ThreeAndThree
    );
    assert_eq!(plan::overhead_clearance(&with(&[], |_| {})), OverheadClearance::SixAndFour);
    let switched = with(&[], |r| r.overhead_clearance = OverheadClearance::ThreeAndThree);
    assert_eq!(plan::overhead_clearance(&switched), OverheadClearance::ThreeAndThree);
}

// ------------------------------------------------------------------ Ch13 21.0 weather

/// Ch13 21.0 soft ground: every gun's maximum range is 6" shorter. A Napoleon reaches 30" (Long,
/// Ch16 5.3): on soft ground 24" is in range and 24.5" is not; a rifled musket keeps its 20".
#[test]
fn ch13_21_0_soft_ground_shortens_artillery_range_by_six() {
    use crate::engine::weather::{Ground, Weather};
    let rules = defaults();
    let mut t = Table::new();
    let guns = t.battery("Guns", t.red, 2, "napoleon");
    let muskets = t.infantry("Muskets", t.red, 5, "regular", "rifled_musket", "line");
    let target = t.infantry("Target", t.blue, 5, "regular", "rifled_musket", "line");
    let legal = |t: &Table, firer, range| {
        plan_volley(&rules, &t.state, firer, target, &FireInput::at(range, FireKind::Phase3)).is_ok()
    };
    assert!(legal(&t, guns, 28.0));
    t.state.weather = Weather { ground: Some(Ground::Soft), ..Weather::default() };
    assert!(legal(&t, guns, 24.0));
    assert!(!legal(&t, guns, 24.5));
    assert!(legal(&t, muskets, 20.0));
    match plan_volley(&rules, &t.state, guns, target, &FireInput::at(24.5, FireKind::Phase3)) {
        Err(EngineError::Illegal { rule, .. }) => assert_eq!(rule, "Ch13 21.0"),
        other => panic!("an illegal volley, got {other:?}"),
    }
}

/// Ch13 21.0 light fog: artillery may not target a unit beyond 12" unless it carries gunsmoke;
/// within 12" it may, and infantry is not limited (beyond the 18" sight, which the replay's line
/// of sight judges).
#[test]
fn ch13_21_0_light_fog_hides_units_without_gunsmoke_from_artillery_beyond_twelve() {
    use crate::engine::weather::{Sky, Weather};
    let rules = defaults();
    let mut t = Table::new();
    let guns = t.battery("Guns", t.red, 2, "napoleon");
    let muskets = t.infantry("Muskets", t.red, 5, "regular", "rifled_musket", "line");
    let target = t.infantry("Target", t.blue, 5, "regular", "rifled_musket", "line");
    t.state.weather = Weather { sky: Sky::LightFog, ..Weather::default() };
    let legal = |t: &Table, firer, range| {
        plan_volley(&rules, &t.state, firer, target, &FireInput::at(range, FireKind::Phase3)).is_ok()
    };
    assert!(legal(&t, guns, 12.0));
    assert!(!legal(&t, guns, 14.0));
    assert!(legal(&t, muskets, 14.0));
    t.unit_mut(target).markers.gunsmoke = true;
    assert!(legal(&t, guns, 14.0));
}

/// Ch13 21.0, dotc D18: drizzle fouls a firer's powder on two or more natural 1s in one volley,
/// a downpour on one; a clear sky never. The Fouled marker then costs the firer 1 to hit.
#[test]
fn ch13_21_0_rain_fouls_powder_and_fouled_powder_shoots_at_minus_one() {
    use crate::engine::weather::{Sky, Weather};
    let rules = defaults();
    let volley = |sky: Sky, faces: &[i64]| {
        let mut t = Table::new();
        let firer = t.infantry("Firer", t.red, 5, "regular", "rifled_musket", "line");
        let target = t.infantry("Target", t.blue, 5, "regular", "rifled_musket", "line");
        let blue = t.blue;
        pad(&mut t, blue);
        t.state.weather = Weather { sky, ..Weather::default() };
        let mut d = dice(&[(Purpose::ToHit, faces)]);
        fire(&rules, &mut t, firer, target, &FireInput::at(10.0, FireKind::Phase3), &mut d);
        t.unit(firer).markers.fouled
    };
    // Five dice, none a hit at 4+ (Medium), so no save is asked for.
    assert!(!volley(Sky::Drizzle, &[1, 2, 3, 2, 3]), "one 1 in drizzle: dry");
    assert!(volley(Sky::Drizzle, &[1, 1, 3, 2, 3]), "two 1s in drizzle: fouled");
    assert!(volley(Sky::Downpour, &[1, 2, 3, 2, 3]), "one 1 in a downpour: fouled");
    assert!(!volley(Sky::Clear, &[1, 1, 1, 2, 3]), "no rain, no fouling");

    let mut t = Table::new();
    let firer = t.infantry("Firer", t.red, 5, "regular", "rifled_musket", "line");
    let target = t.infantry("Target", t.blue, 5, "regular", "rifled_musket", "line");
    let input = FireInput::at(10.0, FireKind::Phase3);
    let plain = plan_volley(&rules, &t.state, firer, target, &input).expect("a legal volley").to_hit;
    t.unit_mut(firer).markers.fouled = true;
    let plan = plan_volley(&rules, &t.state, firer, target, &input).expect("a legal volley");
    // Rifled muskets at 10" hit on 4+; fouled, on 5+.
    assert_eq!((plain, plan.to_hit), (4, 5));
    assert!(
        plan.modifiers
            .iter()
            .any(|m| m.name == "fouled powder" && m.value == -1 && m.rule.contains("Ch13 21.0"))
    );
}

/// Ch13 6.0 (module horse_holders), dotc D24: fire at a dismounted regiment's horse holders
/// takes no save, even where the caller gave the heavy cover of a wall: 2 smoothbore dice at 4"
/// (Short, 3+) rolling [3, 1] hit once: 1 of the stand's 2 hits. The next volley's one hit
/// ([2, 5]) is the second: the holders are shot down, the regiment has 3 stands of 4, no holders,
/// never to remount, and the brigade tally does not count them (RULINGS G5). Without the module
/// they are no target.
#[test]
fn ch13_6_0_fire_at_the_horse_holders_takes_no_save_and_two_hits_take_them() {
    use crate::engine::fire::solitary::volley_at_holders;
    let rules = with(&["horse_holders"], |_| {});
    let (mut t, a, _) = duel(2, "smoothbore_musket");
    let cav = t.state.add_unit(
        crate::engine::state::Unit::new(
            "Red Horse",
            t.red,
            Arm::Cavalry { mounted: false, horse_holders: 1, can_remount: true },
            4,
            "regular",
            "breechloading_carbine",
            "skirmish",
        ),
        Some(t.red_brigade),
    );
    let mut input = FireInput::at(4.0, FireKind::Phase3);
    input.cover = CoverInput::of(CoverClass::Heavy, "stone_wall", true);
    let plain = defaults();
    let refused =
        volley_at_holders(&plain, &mut t.state, a, cav, &input, &mut dice(&[(Purpose::ToHit, &[3, 1])]));
    assert!(matches!(refused, Err(EngineError::Illegal { rule: "Ch13 6.0", .. })), "{refused:?}");
    let first =
        volley_at_holders(&rules, &mut t.state, a, cav, &input, &mut dice(&[(Purpose::ToHit, &[3, 1])]))
            .expect("a legal volley");
    assert_eq!((first.to_hit, first.hits, first.stands_lost, first.holders_lost), (3, 1, 0, false));
    assert_eq!((t.unit(cav).stands, t.unit(cav).holder_hits), (4, 1));
    let second =
        volley_at_holders(&rules, &mut t.state, a, cav, &input, &mut dice(&[(Purpose::ToHit, &[2, 5])]))
            .expect("a legal volley");
    assert_eq!((second.hits, second.stands_lost, second.holders_lost), (1, 1, true));
    let u = t.unit(cav);
    assert_eq!((u.stands, u.holder_hits), (3, 0));
    assert_eq!(u.arm, Arm::Cavalry { mounted: false, horse_holders: 0, can_remount: false });
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 0);
    let gone =
        volley_at_holders(&rules, &mut t.state, a, cav, &input, &mut dice(&[(Purpose::ToHit, &[3, 3])]));
    assert!(matches!(gone, Err(EngineError::Illegal { rule: "Ch16 10.2", .. })), "{gone:?}");
}

/// Ch14 3.0, dotc D35: the stand a volley takes names its firer, for the campaign's "inflicts
/// two or more stand losses" feat (RULINGS E3's volley: 1 stand of the 28th North Carolina).
#[test]
fn ch14_3_0_a_volleys_stand_loss_names_the_firer() {
    let rules = defaults();
    let (mut t, b, nc) = e3();
    let mut d = dice(&[(Purpose::ToHit, &[4, 2, 5, 6])]);
    let r = fire(&rules, &mut t, b, nc, &FireInput::at(24.0, FireKind::Phase3), &mut d);
    let by: Vec<Option<String>> = r
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::StandsLost { unit, by, .. } if unit == "28th North Carolina" => Some(by.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(by, [Some("Battery B, 4th US".to_string())]);
}
