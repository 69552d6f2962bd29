//! Tests of the shared morale rules, each naming the rule it checks.

use super::*;
use crate::dice::Purpose;
use crate::engine::events::{BrigadeStatus, Health, TestKind, What};
use crate::engine::testkit::{Table, defaults, dice, rules_with};
use crate::rulings::{BrigadeThresholds, FalteringTiming, HealthStates, Rulings};

fn with(f: impl FnOnce(&mut Rulings)) -> Rules {
    let mut r = Rulings::default();
    f(&mut r);
    rules_with(r, &[])
}

/// RULINGS C4 `combined` (the default): every row of the Ch16 8.1 stand-count table.
#[test]
fn c4_combined_matches_every_row_of_the_ch16_8_1_table() {
    let rules = defaults();
    // (starting, fresh rows, worn rows, spent, shattered)
    let rows: &[(u32, &[u32], &[u32])] = &[
        (8, &[8, 7], &[6, 5, 4, 3]),
        (6, &[6, 5], &[4, 3]),
        (5, &[5, 4], &[3]),
        (4, &[4], &[3]),
        (3, &[3], &[]),
    ];
    for &(start, fresh, worn) in rows {
        for &s in fresh {
            assert_eq!(health(&rules, s, start), Health::Fresh, "{s} of {start}");
        }
        for &s in worn {
            assert_eq!(health(&rules, s, start), Health::Worn, "{s} of {start}");
        }
        assert_eq!(health(&rules, 2, start), Health::Spent, "2 of {start}");
        assert_eq!(health(&rules, 1, start), Health::Shattered, "1 of {start}");
    }
    // Beyond the table: 10 stands with 3 left is under 35%, so Spent (C4).
    assert_eq!(health(&rules, 3, 10), Health::Spent);
}

/// Ch16 8.1, RULINGS C4: the shares are strict. A regiment at exactly 35% of its starting
/// stands is not yet "under 35%" (Worn, not Spent), and one at exactly 75% is not "over 75%"
/// (Worn, not Fresh); a stand either way crosses. (Found by cargo-mutants: `<` to `<=` in the
/// under-35% test survived, as no row of the table lands on a boundary.)
#[test]
fn ch16_8_1_c4_a_regiment_exactly_on_a_boundary_share_keeps_the_middle_state() {
    let percentages = with(|r| r.health_states = HealthStates::Percentages);
    for rules in [&defaults(), &percentages] {
        // 20 stands: 7 is 35%, 15 is 75%.
        assert_eq!(health(rules, 7, 20), Health::Worn, "7 of 20 is 35%, not under it");
        assert_eq!(health(rules, 6, 20), Health::Spent, "6 of 20 is 30%");
        assert_eq!(health(rules, 15, 20), Health::Worn, "15 of 20 is 75%, not over it");
        assert_eq!(health(rules, 16, 20), Health::Fresh, "16 of 20 is 80%");
    }
}

/// RULINGS C4: the three readings disagree where the ruling says they do.
#[test]
fn c4_readings_disagree_at_the_listed_rows() {
    let combined = defaults();
    let percentages = with(|r| r.health_states = HealthStates::Percentages);
    let counts = with(|r| r.health_states = HealthStates::StandCounts);
    // 5 -> 2 is 40%: Worn by percentages, Spent by the stand-count table.
    assert_eq!(health(&percentages, 2, 5), Health::Worn);
    assert_eq!(health(&counts, 2, 5), Health::Spent);
    assert_eq!(health(&combined, 2, 5), Health::Spent);
    // 10 -> 3 is 30%: Spent by percentages and combined, Worn by the stand counts.
    assert_eq!(health(&percentages, 3, 10), Health::Spent);
    assert_eq!(health(&counts, 3, 10), Health::Worn);
}

/// RULINGS G6: the default reading reproduces every row of the Ch16 8.2 reference table; the
/// ceiling reading differs at 24 and 28 stands.
#[test]
fn g6_thresholds_fit_the_ch16_8_2_table() {
    let rules = defaults();
    let (h, b) = (&rules.tables.hesitant, &rules.tables.broken);
    for &(start, lost) in &h.table {
        assert_eq!(
            threshold(BrigadeThresholds::Nearest, h.losses_percent, &h.table, start),
            lost,
            "hesitant {start}"
        );
    }
    for &(start, lost) in &b.table {
        assert_eq!(
            threshold(BrigadeThresholds::Nearest, b.losses_percent, &b.table, start),
            lost,
            "broken {start}"
        );
    }
    assert_eq!(threshold(BrigadeThresholds::Ceiling, h.losses_percent, &h.table, 24), 8);
    assert_eq!(threshold(BrigadeThresholds::Ceiling, h.losses_percent, &h.table, 28), 9);
    assert_eq!(threshold(BrigadeThresholds::Table, h.losses_percent, &h.table, 24), 7);
    // A size the table lacks: 30% of 22 is 6.6, rounded to 7.
    assert_eq!(threshold(BrigadeThresholds::Table, h.losses_percent, &h.table, 22), 7);
}

/// A brigade of four five-stand regiments (20 stands), as in RULINGS E4.
fn potts() -> (Table, Vec<UnitId>) {
    let mut t = Table::new();
    let names = ["143rd Pennsylvania", "149th Pennsylvania", "150th Pennsylvania", "121st Pennsylvania"];
    let units = names.iter().map(|n| t.infantry(n, t.blue, 5, "regular", "rifled_musket", "line")).collect();
    (t, units)
}

/// RULINGS E4 (Potts' brigade, RULE-07-2.2, 2.3, 2.4): 2 + 2 + 1 + 1 = 6 stands lost of 20 is
/// Hesitant at once (C12 `immediate`); 10 would break it.
#[test]
fn e4_potts_brigade_turns_hesitant_at_six_and_breaks_at_ten() {
    let rules = defaults();
    let (mut t, u) = potts();
    let mut events = Vec::new();
    assert_eq!(t.state.brigades[t.blue_brigade.0].starting_stands, 20);
    for (unit, n) in [(u[0], 2), (u[1], 2), (u[2], 1)] {
        remove_stands(&rules, &mut t.state, unit, n, &mut events, "test").unwrap();
    }
    assert_eq!(t.state.brigades[t.blue_brigade.0].status, BrigadeStatus::Fresh, "5 of 20 is not yet 30%");
    remove_stands(&rules, &mut t.state, u[3], 1, &mut events, "test").unwrap();
    let b = &t.state.brigades[t.blue_brigade.0];
    assert_eq!((b.losses, b.status), (6, BrigadeStatus::Hesitant));
    assert!(events.iter().any(|e| matches!(
        &e.what,
        What::BrigadeChanged { to: BrigadeStatus::Hesitant, lost: 6, threshold: 6, .. }
    )));
    // Hesitant: -1 on every Discipline check (RULE-07-2.3).
    let mods = standing_discipline_modifiers(&rules, &t.state, u[2], None);
    assert_eq!(mods.iter().map(|m| m.value).sum::<i32>(), -1);
    // Four more stands: 10 of 20, Broken; pips forfeited and every unit disordered (RULE-07-2.4).
    t.state.brigades[t.blue_brigade.0].pips = 2;
    t.state.brigades[t.blue_brigade.0].banked = 1;
    t.unit_mut(u[3]).markers.disorder = true;
    remove_stands(&rules, &mut t.state, u[2], 2, &mut events, "test").unwrap();
    remove_stands(&rules, &mut t.state, u[3], 2, &mut events, "test").unwrap();
    let b = &t.state.brigades[t.blue_brigade.0];
    assert_eq!(b.status, BrigadeStatus::Broken);
    assert_eq!((b.pips, b.banked), (0, 0));
    assert!(u.iter().all(|&u| t.unit(u).removed || t.unit(u).markers.disorder));
    // G14: the unit already disordered took a micro-hit instead of a second marker.
    assert_eq!(t.unit(u[3]).micro_hit, 1);
}

/// RULINGS C12 `phase_five`: the tally grows at once, the state changes only in Phase 5.
#[test]
fn c12_phase_five_timing_waits_for_the_phase() {
    let rules = with(|r| r.faltering_timing = FalteringTiming::PhaseFive);
    let (mut t, u) = potts();
    let mut events = Vec::new();
    remove_stands(&rules, &mut t.state, u[0], 3, &mut events, "test").unwrap();
    remove_stands(&rules, &mut t.state, u[1], 3, &mut events, "test").unwrap();
    assert_eq!(t.state.brigades[t.blue_brigade.0].status, BrigadeStatus::Fresh);
    phase_five_faltering(&rules, &mut t.state, &mut events).unwrap();
    assert_eq!(t.state.brigades[t.blue_brigade.0].status, BrigadeStatus::Hesitant);
}

/// RULE-05-3.3: two unsaved hits are a stand; an odd hit waits on the micro-hit and completes
/// the next stand with the next hit.
#[test]
fn rule_05_3_3_micro_hit_carries_over() {
    let rules = defaults();
    let mut t = Table::new();
    let u = t.infantry("4th Virginia", t.red, 5, "regular", "rifled_musket", "line");
    let mut events = Vec::new();
    assert_eq!(take_hits(&rules, &mut t.state, u, 3, Cause::Fire, &mut events, "test").unwrap(), 1);
    assert_eq!((t.unit(u).stands, t.unit(u).micro_hit), (4, 1));
    assert_eq!(take_hits(&rules, &mut t.state, u, 1, Cause::Fire, &mut events, "test").unwrap(), 1);
    assert_eq!((t.unit(u).stands, t.unit(u).micro_hit), (3, 0));
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 2);
}

/// RULE-05-3.4 and RULINGS G5: a regiment left with one stand shatters, and both stands count on
/// the tally. RULINGS G19: a battery does not shatter.
#[test]
fn rule_05_3_4_shatter_counts_the_last_stand() {
    let rules = defaults();
    let mut t = Table::new();
    let u = t.infantry("33rd Virginia", t.red, 5, "regular", "rifled_musket", "line");
    t.unit_mut(u).stands = 2;
    let mut events = Vec::new();
    let lost = take_hits(&rules, &mut t.state, u, 2, Cause::Fire, &mut events, "test").unwrap();
    assert_eq!(lost, 2);
    assert!(t.unit(u).removed);
    assert_eq!(t.state.brigades[t.red_brigade.0].losses, 2);
    assert!(events.iter().any(|e| matches!(e.what, What::Shattered { .. })));

    let b = t.battery("Battery B", t.blue, 2, "napoleon");
    take_hits(&rules, &mut t.state, b, 2, Cause::Fire, &mut events, "test").unwrap();
    assert_eq!((t.unit(b).stands, t.unit(b).removed), (1, false));
    // Artillery is not on the brigade clock (G5).
    assert_eq!(t.state.brigades[t.blue_brigade.0].losses, 0);
}

/// RULE-07-3.4: a second Disorder is a micro-hit, which can complete a stand.
#[test]
fn rule_07_3_4_double_disorder_is_a_micro_hit() {
    let rules = defaults();
    let mut t = Table::new();
    let u = t.infantry("19th Indiana", t.blue, 5, "regular", "rifled_musket", "line");
    let mut events = Vec::new();
    place_disorder(&rules, &mut t.state, u, &mut events, "test").unwrap();
    assert!(t.unit(u).markers.disorder);
    assert_eq!(t.unit(u).micro_hit, 0);
    place_disorder(&rules, &mut t.state, u, &mut events, "test").unwrap();
    assert_eq!((t.unit(u).stands, t.unit(u).micro_hit), (5, 1));
    place_disorder(&rules, &mut t.state, u, &mut events, "test").unwrap();
    assert_eq!((t.unit(u).stands, t.unit(u).micro_hit), (4, 0));
}

/// RULE-07-1.4 and RULINGS G1: the quality's number, +1 for an attached brigadier (Ch16 2.4);
/// a natural 1 fails and a natural 6 passes whatever the modifiers.
#[test]
fn rule_07_1_4_discipline_check_numbers_and_limits() {
    let rules = defaults();
    let mut t = Table::new();
    let green = t.infantry("Green", t.blue, 5, "green", "rifled_musket", "line");
    let vet = t.infantry("Veteran", t.blue, 5, "veteran", "rifled_musket", "line");
    let mut events = Vec::new();
    let mut d = dice(&[(Purpose::Discipline, &[4, 3, 6, 1])]);
    // Green needs 5+: a 4 fails.
    assert!(
        !discipline_check(
            &rules,
            &t.state,
            green,
            TestKind::Discipline,
            None,
            vec![],
            &mut d,
            &mut events,
            "t"
        )
        .unwrap()
    );
    // Veteran needs 3+: a 3 passes.
    assert!(
        discipline_check(&rules, &t.state, vet, TestKind::Discipline, None, vec![], &mut d, &mut events, "t")
            .unwrap()
    );
    // -5 would need 10+: a natural 6 still passes (G1).
    let heavy = vec![Modifier::new("test", -5, "t")];
    assert!(
        discipline_check(
            &rules,
            &t.state,
            green,
            TestKind::Discipline,
            None,
            heavy,
            &mut d,
            &mut events,
            "t"
        )
        .unwrap()
    );
    // +5 would need -2+: a natural 1 still fails (G1).
    let light = vec![Modifier::new("test", 5, "t")];
    assert!(
        !discipline_check(&rules, &t.state, vet, TestKind::Discipline, None, light, &mut d, &mut events, "t")
            .unwrap()
    );
    // An attached brigadier gives +1 (Ch16 2.4).
    let l = t.brigadier("Brigadier", t.blue, "reliable");
    t.state.leaders[l.0].attached = Some(green);
    let mods = standing_discipline_modifiers(&rules, &t.state, green, None);
    assert_eq!(mods.iter().map(|m| m.value).sum::<i32>(), 1);
    // Steady gives +1 only against a closing volley (Ch16 9.0).
    t.unit_mut(vet).traits.push("steady".into());
    let sum =
        |c| standing_discipline_modifiers(&rules, &t.state, vet, c).iter().map(|m| m.value).sum::<i32>();
    assert_eq!(sum(Some(CheckCause::ClosingVolley)), 1);
    assert_eq!(sum(Some(CheckCause::Shock)), 0);
}

/// Ch16 2.4 (RULINGS C9, G18): every row of the leader casualty table.
#[test]
fn ch16_2_4_leader_casualty_table() {
    let rules = defaults();
    for face in 1..=6u8 {
        let mut t = Table::new();
        let u = t.infantry("33rd Virginia", t.red, 5, "regular", "rifled_musket", "line");
        let l = t.brigadier("Garnett", t.red, "reliable");
        t.state.leaders[l.0].attached = Some(u);
        t.state.brigades[t.red_brigade.0].pips = 2;
        let mut events = Vec::new();
        let mut d = dice(&[(Purpose::LeaderCasualty, &[i64::from(face)])]);
        leader_casualty(&rules, &mut t.state, l, &mut d, &mut events).unwrap();
        let leader = &t.state.leaders[l.0];
        let brigade = &t.state.brigades[t.red_brigade.0];
        match face {
            1..=3 => {
                assert!(!leader.removed && leader.pip_penalty == 0 && brigade.pips == 2, "{face}");
                // A close call leaves no casualty for the campaign to read (Ch14 4.0, dotc D39;
                // found by cargo-mutants: `pips < 0` to `<=` recorded "unhurt" as one).
                assert_eq!(leader.casualty, None, "{face}");
            }
            4 => {
                assert_eq!((leader.removed, leader.pip_penalty), (false, 1));
                assert_eq!(leader.casualty.as_deref(), Some("lightly_wounded"));
            }
            5 | 6 => {
                assert!(leader.removed);
                let row = if face == 5 { "severely_wounded" } else { "killed" };
                assert_eq!(leader.casualty.as_deref(), Some(row));
                let colonel = brigade.brigadier.and_then(|c| t.state.leader(c)).unwrap();
                assert_eq!(colonel.rating, "timid");
                assert_eq!(
                    colonel.from_turn,
                    t.state.turn + 1,
                    "the Colonel commands from the next turn (G18)"
                );
                assert!(events.iter().any(
                    |e| matches!(&e.what, What::LeaderReplaced { permanent, .. } if *permanent == (face == 6))
                ));
                // Only death disorders the regiment and loses the pips.
                assert_eq!(t.unit(u).markers.disorder, face == 6);
                assert_eq!(brigade.pips, if face == 6 { 0 } else { 2 });
            }
            _ => unreachable!(),
        }
    }
}

/// RULE-07-3.2 and Ch16 8.3: a command rally costs 1 pip within 12", 2 beyond, none possible
/// beyond 24" (RULINGS C10); it removes Disorder with no dice.
#[test]
fn rule_07_3_2_command_rally_prices() {
    let rules = defaults();
    let mut t = Table::new();
    let u = t.infantry("19th Indiana", t.blue, 5, "regular", "rifled_musket", "line");
    t.state.brigades[t.blue_brigade.0].pips = 2;
    let mut events = Vec::new();
    for (distance, cost) in [(10.0, 1), (18.0, 2)] {
        t.state.brigades[t.blue_brigade.0].pips = 2;
        t.unit_mut(u).markers.disorder = true;
        command_rally(&rules, &mut t.state, u, distance, &mut events).unwrap();
        assert!(!t.unit(u).markers.disorder);
        assert_eq!(t.state.brigades[t.blue_brigade.0].pips, 2 - cost, "{distance}\"");
    }
    t.unit_mut(u).markers.disorder = true;
    t.state.brigades[t.blue_brigade.0].pips = 3;
    let err = command_rally(&rules, &mut t.state, u, 30.0, &mut events).unwrap_err();
    assert!(matches!(err, EngineError::Illegal { .. }), "{err}");
    t.state.brigades[t.blue_brigade.0].pips = 0;
    assert!(command_rally(&rules, &mut t.state, u, 6.0, &mut events).is_err(), "no pips, no rally");
}

/// RULE-07-3.3 (RULINGS C20): a natural rally needs a quiet turn, and rolls the quality's number.
#[test]
fn rule_07_3_3_natural_rally() {
    let rules = defaults();
    let mut t = Table::new();
    let u = t.infantry("19th Indiana", t.blue, 5, "regular", "rifled_musket", "line");
    t.unit_mut(u).markers.disorder = true;
    let mut events = Vec::new();
    t.unit_mut(u).turn.fired = true;
    let mut d = dice(&[(Purpose::Rally, &[6])]);
    assert!(natural_rally(&rules, &mut t.state, u, &mut d, &mut events).is_err(), "fired this turn");
    t.unit_mut(u).turn.fired = false;
    let mut d = dice(&[(Purpose::Rally, &[3, 4])]);
    assert!(!natural_rally(&rules, &mut t.state, u, &mut d, &mut events).unwrap(), "3 fails a Regular's 4+");
    assert!(natural_rally(&rules, &mut t.state, u, &mut d, &mut events).unwrap());
    assert!(!t.unit(u).markers.disorder);
    // Iron Discipline rallies on 3+ (Ch16 9.0).
    t.unit_mut(u).markers.disorder = true;
    t.unit_mut(u).traits.push("iron_discipline".into());
    let mut d = dice(&[(Purpose::Rally, &[3])]);
    assert!(natural_rally(&rules, &mut t.state, u, &mut d, &mut events).unwrap());
}

/// Ch16 3.3 and RULINGS C8: passage of lines by grade (a Green unit needs 5+) or 4+ for all.
#[test]
fn c8_passage_of_lines_by_grade_or_four_up() {
    for (rules, green_passes_on_4) in
        [(defaults(), false), (with(|r| r.passage_of_lines = crate::rulings::PassageOfLines::FourUp), true)]
    {
        let mut t = Table::new();
        let green = t.infantry("Green", t.blue, 5, "green", "rifled_musket", "line");
        let vet = t.infantry("Veteran", t.blue, 5, "veteran", "rifled_musket", "line");
        let mut events = Vec::new();
        let mut d = dice(&[(Purpose::Discipline, &[4, 3])]);
        let (g, v) = passage_of_lines(&rules, &mut t.state, green, vet, &mut d, &mut events).unwrap();
        assert_eq!(g, green_passes_on_4);
        assert_eq!(t.unit(green).markers.disorder, !green_passes_on_4);
        // The veteran's 3 passes by grade (3+) but fails the flat 4+.
        assert_eq!(v, !green_passes_on_4);
        assert_eq!(t.unit(vet).markers.disorder, green_passes_on_4);
    }
}

// ------------------------------------------------------------------ pips and the broken brigade (mutation tests)

/// The brigade's Pips events, in order: (change, pips left, banked left).
fn pips_events(events: &[Event]) -> Vec<(i32, u32, u32)> {
    events
        .iter()
        .filter_map(|e| match &e.what {
            What::Pips { change, pips, banked, .. } => Some((*change, *pips, *banked)),
            _ => None,
        })
        .collect()
}

/// RULE-07-2.4, Ch16 8.2: a brigade that breaks loses every pip it has, banked or not (the log
/// says all three go), and disorders all of its own units; the other brigade's units and pips
/// are untouched.
#[test]
fn rule_07_2_4_broken_brigade_forfeits_its_pips_and_disorders_only_its_own_units() {
    let rules = defaults();
    let (mut t, u) = potts();
    let enemy = t.infantry("4th Virginia", t.red, 5, "regular", "rifled_musket", "line");
    t.state.brigades[t.blue_brigade.0].pips = 2;
    t.state.brigades[t.blue_brigade.0].banked = 1;
    t.state.brigades[t.red_brigade.0].pips = 2;
    let mut events = Vec::new();
    for &unit in &u[..2] {
        remove_stands(&rules, &mut t.state, unit, 5, &mut events, "test").unwrap();
    }
    let b = &t.state.brigades[t.blue_brigade.0];
    assert_eq!((b.losses, b.status), (10, BrigadeStatus::Broken), "10 of 20 is 50%");
    assert_eq!(pips_events(&events), vec![(-3, 0, 0)]);
    assert!(u[2..].iter().all(|&unit| t.unit(unit).markers.disorder));
    assert!(!t.unit(enemy).markers.disorder);
    assert_eq!(t.state.brigades[t.red_brigade.0].pips, 2);
}

/// Ch16 2.4: a brigadier is attached by contact with a regiment's Color Stand, so when that
/// regiment leaves the table (here shattered, RULE-05-3.4) he is left on his own; a brigadier
/// attached to another regiment stays with it.
#[test]
fn ch16_2_4_a_leader_is_left_on_his_own_when_his_regiment_goes() {
    let rules = defaults();
    let mut t = Table::new();
    let lost = t.infantry("33rd Virginia", t.red, 5, "regular", "rifled_musket", "line");
    let other = t.infantry("4th Virginia", t.red, 5, "regular", "rifled_musket", "line");
    let garnett = t.brigadier("Garnett", t.red, "reliable");
    let kemper = t.brigadier("Kemper", t.red, "reliable");
    t.state.leaders[garnett.0].attached = Some(lost);
    t.state.leaders[kemper.0].attached = Some(other);
    t.unit_mut(lost).stands = 2;
    let mut events = Vec::new();
    remove_stands(&rules, &mut t.state, lost, 1, &mut events, "test").unwrap();
    assert!(t.unit(lost).removed);
    assert_eq!(t.state.leaders[garnett.0].attached, None);
    assert!(!t.state.leaders[garnett.0].removed);
    assert_eq!(t.state.leaders[kemper.0].attached, Some(other));
}

/// Ch16 2.2: the command tier's -1 is a standing modifier of every Discipline check in the
/// distant courier tier (12.1-24") and out of communication, none within 12"; a brigadier
/// attached cancels it (Ch16 2.4: he "ignores Out-of-Command range penalties") and gives his +1
/// (RULE-07-4.2).
#[test]
fn ch16_2_2_the_command_tier_is_a_standing_discipline_modifier() {
    let rules = defaults();
    let mut t = Table::new();
    let unit = t.infantry("1st Foot", t.red, 5, "regular", "rifled_musket", "line");
    let leader = t.brigadier("Col. Red", t.red, "reliable");
    let tier = |t: &Table, range: Option<f64>| -> Vec<(String, i32)> {
        let mut state = t.state.clone();
        state.units[unit.0].command_range = range;
        standing_discipline_modifiers(&rules, &state, unit, None)
            .into_iter()
            .map(|m| (m.name.clone(), m.value))
            .collect()
    };
    assert!(tier(&t, None).is_empty(), "unmeasured counts as in command");
    assert!(tier(&t, Some(11.9)).is_empty(), "courier range: no modifier at all, not even a 0");
    assert_eq!(tier(&t, Some(17.0)), [("distant_courier tier".to_string(), -1)]);
    assert_eq!(tier(&t, Some(30.0)), [("out_of_communication tier".to_string(), -1)]);
    t.state.leaders[leader.0].attached = Some(unit);
    assert_eq!(tier(&t, Some(30.0)), [("brigadier attached".to_string(), 1)]);
}

/// RULE-07-3.3 (RULINGS C20): a unit that took casualties to shooting this turn may not rally
/// naturally. Unsaved hits from fire mark it so, even a lone micro-hit; a micro-hit of a second
/// Disorder (RULE-07-3.4) is not shooting and leaves the mark off.
#[test]
fn rule_07_3_3_hits_from_shooting_mark_the_unit_for_the_rally_rule() {
    let rules = defaults();
    let mut t = Table::new();
    let shot = t.infantry("1st Foot", t.red, 5, "regular", "rifled_musket", "line");
    let other = t.infantry("2nd Foot", t.red, 5, "regular", "rifled_musket", "line");
    let mut events = Vec::new();
    take_hits(&rules, &mut t.state, shot, 1, Cause::Fire, &mut events, "test").unwrap();
    take_hits(&rules, &mut t.state, other, 1, Cause::Other, &mut events, "test").unwrap();
    assert!(t.unit(shot).turn.shot_casualties);
    assert!(!t.unit(other).turn.shot_casualties);
    assert_eq!((t.unit(shot).micro_hit, t.unit(other).micro_hit), (1, 1));
}

/// Ch16 8.2 reference table, 20 stands: Hesitant at 6 lost, Broken at 10. Each change of state
/// names the threshold it crossed and cites its own rule (RULE-07-2.3, 2.4, RULINGS G6).
#[test]
fn ch16_8_2_each_change_of_state_names_its_own_threshold() {
    let rules = defaults();
    let mut t = Table::new();
    for name in ["R1", "R2", "R3", "R4"] {
        t.infantry(name, t.red, 5, "regular", "rifled_musket", "line");
    }
    let brigade = t.red_brigade;
    assert_eq!(t.state.brigades[brigade.0].starting_stands, 20);
    let crossed = |t: &mut Table, losses: u32| {
        t.state.brigades[brigade.0].losses = losses;
        let mut events = Vec::new();
        update_brigade(&rules, &mut t.state, brigade, &mut events).unwrap();
        events.iter().find_map(|e| match &e.what {
            What::BrigadeChanged { to, threshold, .. } => Some((*to, *threshold, e.rule)),
            _ => None,
        })
    };
    // Each cites its own rule: Hesitant RULE-07-2.3, Broken RULE-07-2.4.
    assert_eq!(crossed(&mut t, 6), Some((BrigadeStatus::Hesitant, 6, "RULE-07-2.3, Ch16 8.2, RULINGS G6")));
    assert_eq!(crossed(&mut t, 10), Some((BrigadeStatus::Broken, 10, "RULE-07-2.4, Ch16 8.2, RULINGS G6")));
}

/// RULE-07-4.5: a captured brigadier leaves on the "Severely Wounded / Captured" row, whose
/// colonel is not the permanent replacement of the "Killed" row (Ch16 2.4, RULINGS G18).
#[test]
fn rule_07_4_5_a_captured_brigadier_is_replaced_as_on_the_captured_row_not_the_killed_one() {
    let rules = defaults();
    let mut t = Table::new();
    t.infantry("R1", t.red, 5, "regular", "rifled_musket", "line");
    let leader = t.brigadier("Col. Red", t.red, "reliable");
    let mut events = Vec::new();
    leader_captured(&rules, &mut t.state, leader, &mut events).unwrap();
    assert!(t.state.leaders[leader.0].removed);
    let replaced = events.iter().find_map(|e| match &e.what {
        What::LeaderReplaced { rating, permanent, .. } => Some((rating.clone(), *permanent)),
        _ => None,
    });
    assert_eq!(replaced, Some(("timid".to_string(), false)), "{events:#?}");
}

/// Ch13 19.0 (dotc D11): a regiment in second line's support takes +1 on its Discipline checks,
/// only with the module on: a regular's 4+ becomes 3+, so a 3 passes with it and fails without.
#[test]
fn ch13_19_0_second_line_gives_plus_one_to_discipline_checks() {
    let mut t = Table::new();
    let u = t.infantry("4th Virginia", t.red, 5, "regular", "rifled_musket", "line");
    t.unit_mut(u).supported = true;
    let named = |rules: &Rules, t: &Table| {
        standing_discipline_modifiers(rules, &t.state, u, None)
            .iter()
            .find(|m| m.name == "second line")
            .map(|m| m.value)
    };
    let on = rules_with(Rulings::default(), &["second_line"]);
    assert_eq!(named(&on, &t), Some(1));
    assert_eq!(named(&defaults(), &t), None, "the module is off");
    t.unit_mut(u).supported = false;
    assert_eq!(named(&on, &t), None, "nobody behind it");
    t.unit_mut(u).supported = true;
    let check = |rules: &Rules, t: &Table| {
        let mut events = Vec::new();
        let mut d = dice(&[(Purpose::Discipline, &[3])]);
        discipline_check(
            rules,
            &t.state,
            u,
            TestKind::Discipline,
            None,
            Vec::new(),
            &mut d,
            &mut events,
            "test",
        )
        .unwrap()
    };
    assert!(check(&on, &t), "3 passes at 3+");
    assert!(!check(&defaults(), &t), "3 fails at 4+");
}

/// RULINGS G19, Ch16 8.1: a battery has no health state. Losing a section is said (its stands
/// lost), but never as a regiment's health changing: a 2-section battery down to 1 is not
/// "Shattered" (the Gettysburg morning log's Calef, issue 19); the last section lost removes it.
#[test]
fn g19_a_battery_losing_a_section_has_no_health_to_change() {
    let rules = defaults();
    let mut t = Table::new();
    let guns = t.battery("Calef", t.blue, 2, "ordnance_rifle");
    let mut events = Vec::new();
    remove_stands(&rules, &mut t.state, guns, 1, &mut events, "test").unwrap();
    assert!(events.iter().any(|e| matches!(&e.what, What::StandsLost { lost: 1, remaining: 1, .. })));
    assert!(!events.iter().any(|e| matches!(&e.what, What::HealthChanged { .. })), "{events:#?}");
    assert!(!t.unit(guns).removed);
    remove_stands(&rules, &mut t.state, guns, 1, &mut events, "test").unwrap();
    assert!(t.unit(guns).removed);
}

/// Ch13 16.0, dotc D15 (module `psychological_shock`): a regiment shaken by a battle cry takes
/// the stdlib's `battle_cry` modifier on its Discipline checks; one not shaken, or any regiment
/// without the module, takes none. (Found by cargo-mutants: the modifier's guard could be
/// inverted with no unit test failing; the rules suite's log holds it only end to end.)
#[test]
fn ch13_16_0_a_shaken_regiment_checks_with_the_battle_cry_modifier_only_under_the_module() {
    let on = rules_with(Rulings::default(), &[PSYCHOLOGICAL_SHOCK]);
    let value = on.tables.battle_cry.discipline;
    assert_ne!(value, 0, "the stdlib's battle cry moves the check");
    let mut t = Table::new();
    let shaken = t.infantry("Shaken", t.blue, 5, "regular", "rifled_musket", "line");
    let steady = t.infantry("Steady", t.blue, 5, "regular", "rifled_musket", "line");
    t.unit_mut(shaken).turn.shaken_by_cry = true;
    let cry = |rules: &Rules, id: UnitId| -> Vec<i32> {
        standing_discipline_modifiers(rules, &t.state, id, None)
            .into_iter()
            .filter(|m| m.name == "battle cry")
            .map(|m| m.value)
            .collect()
    };
    assert_eq!(cry(&on, shaken), vec![value]);
    assert!(cry(&on, steady).is_empty());
    assert!(cry(&defaults(), shaken).is_empty());
}

/// Ch13 17.0, dotc D14 (module `desperate_valor`): Advantage needs both the module and the
/// brigadier's declaration on this regiment this turn. (Found by cargo-mutants: `&&` to `||`
/// gave every regiment Advantage under the module with no unit test failing.)
#[test]
fn ch13_17_0_advantage_needs_the_module_and_the_declaration() {
    let on = rules_with(Rulings::default(), &[dotc_lang::rulings::Module::DesperateValor.name()]);
    let mut t = Table::new();
    let declared = t.infantry("Declared", t.blue, 5, "regular", "rifled_musket", "line");
    let other = t.infantry("Other", t.blue, 5, "regular", "rifled_musket", "line");
    t.unit_mut(declared).turn.valor = true;
    assert!(valor_advantage(&on, &t.state, declared));
    assert!(!valor_advantage(&on, &t.state, other));
    assert!(!valor_advantage(&defaults(), &t.state, declared));
}

/// Ch13 16.0, dotc D15: the recoil at the turn's end disorders each regiment that raised the
/// battle cry and charged, and no other: not one that cried without charging, nor one that
/// charged without the cry, and nothing without the module. (Found by cargo-mutants: the
/// module guard and the `&&` of the two facts could each be broken with no unit test failing.)
#[test]
fn ch13_16_0_the_recoil_disorders_only_regiments_that_cried_and_charged() {
    let on = rules_with(Rulings::default(), &[PSYCHOLOGICAL_SHOCK]);
    let mut t = Table::new();
    let both = t.infantry("Cried and charged", t.blue, 5, "regular", "rifled_musket", "line");
    let cried = t.infantry("Cried", t.blue, 5, "regular", "rifled_musket", "line");
    let charged = t.infantry("Charged", t.blue, 5, "regular", "rifled_musket", "line");
    t.unit_mut(both).turn.battle_cry = true;
    t.unit_mut(both).turn.assaulted = true;
    t.unit_mut(cried).turn.battle_cry = true;
    t.unit_mut(charged).turn.assaulted = true;
    let mut events = Vec::new();
    battle_cry_recoil(&defaults(), &mut t.state, &mut events).unwrap();
    assert!(events.is_empty() && !t.unit(both).markers.disorder, "no module, no recoil");
    battle_cry_recoil(&on, &mut t.state, &mut events).unwrap();
    let disordered: Vec<bool> = [both, cried, charged].iter().map(|&u| t.unit(u).markers.disorder).collect();
    assert_eq!(disordered, [true, false, false]);
}

/// dotc D51, Ch16 2.3, RULE-07-2.4: before Phase 4, a brigade whose melee forfeited its pips
/// still pays from the pips it held before; this turn's pips go first, then the banked pip, and
/// only then the held ones, with a note saying so. A cost its own pips cover takes nothing from
/// the held pips and says nothing of them. (Found by cargo-mutants: `from_held > 0` to `>=`
/// wrote "pays 0 of it from the pips it held" on every payment of such a brigade.)
#[test]
fn dotc_d51_pips_held_before_the_melee_pay_only_what_the_brigade_lacks() {
    use crate::engine::state::BeforeMelee;
    let held = |events: &[Event]| {
        events
            .iter()
            .filter(|e| matches!(&e.what, What::Note { text } if text.contains("pips it held")))
            .count()
    };
    let mut t = Table::new();
    t.state.ahead_of_phase_four = true;
    let b = t.blue_brigade;
    t.state.brigades[b.0].pips = 1;
    t.state.brigades[b.0].before_melee =
        Some(BeforeMelee { status: BrigadeStatus::Fresh, losses: 0, pips: 2 });
    let mut events = Vec::new();
    spend_pips(&mut t.state, b, 1, "1st Foot", "an order", &mut events, "Ch16 2.3").unwrap();
    assert_eq!(held(&events), 0, "{events:#?}");
    assert_eq!(t.state.brigades[b.0].before_melee.map(|h| h.pips), Some(2));
    spend_pips(&mut t.state, b, 2, "1st Foot", "an order", &mut events, "Ch16 2.3").unwrap();
    assert_eq!(held(&events), 1, "{events:#?}");
    assert_eq!(t.state.brigades[b.0].before_melee.map(|h| h.pips), Some(0));
    assert!(spend_pips(&mut t.state, b, 1, "1st Foot", "an order", &mut events, "Ch16 2.3").is_err());
}
