//! Small assault and movement situations, each a scenario and a log replayed through the audit,
//! worked by hand from the rulebook (issue 14's assault, melee and movement defects). Each test
//! names the rule it holds the replay to; the arithmetic is in its comments. The table is the
//! firing range of `fire/situations.rs`: blue on the west, red on the east.

use crate::engine::What;
use crate::replay::fire::situations::range;
use crate::replay::tests::{play, problems};

/// Turn 1 of a situation: the 1st Blue's brigadier rolls his pips (a 6: 3 pips) and the 1st Blue
/// charges the 1st Red with these assault `steps` (one per line); `after` adds the turn's later
/// phases.
fn charge(steps: &[&str], after: &str) -> String {
    let steps: String = steps.iter().map(|s| format!("            {s}\n")).collect();
    format!(
        "turn 1 blue {{\n    command {{\n        pips \"Col. Blue\" roll [6] => 3\n    }}\n    maneuver {{\n        \
         assault \"1st Blue\" -> \"1st Red\" pip \"Col. Blue\" {{\n{steps}        }}\n    }}\n{after}}}\n"
    )
}

/// The Shock Score event of `unit` in a replay: (modifier names and values, score).
fn shock_score(replay: &crate::replay::Replay, unit: &str) -> (Vec<(String, i32)>, i32) {
    replay
        .events
        .iter()
        .find_map(|e| match &e.event.what {
            What::ShockScore { unit: u, modifiers, score, .. } if u == unit => {
                Some((modifiers.iter().map(|m| (m.name.clone(), m.value)).collect(), *score))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Shock Score for {unit}: {:#?}", replay.findings))
}

#[test]
fn rulings_g17_ch16_4_2_an_abatis_costs_the_charger_two_and_its_momentum() {
    // The 1st Red holds a line 0.5" behind an abatis; the 1st Blue charges it from 6" away over
    // open ground. Ch16 4.2 and RULINGS G17: the abatis gives no cover but -2 to the attacker
    // in melee, and it cancels the charge's momentum. Shock scores (Ch16 7.3), both Fresh (+1),
    // 5 stands engaged each: Blue 4 + 5 + 1 - 2 (abatis) = 8, Red 3 + 5 + 1 = 9: the defender
    // wins by 1. With the abatis ignored Blue would have +1 momentum and win, 11 to 9.
    let scenario = range(
        "        abatis \"The Felled Trees\" line (17.5, 14) (17.5, 22)",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let (replay, _) = play(&scenario, &charge(&["melee roll [4] vs [3] => defender wins"], ""));
    let (blue, blue_score) = shock_score(&replay, "1st Blue");
    assert!(blue.contains(&("abatis".to_string(), -2)), "{blue:?}");
    assert!(!blue.iter().any(|(n, _)| n == "momentum"), "{blue:?}");
    assert_eq!(blue_score, 8);
    assert_eq!(shock_score(&replay, "1st Red").1, 9);
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

#[test]
fn ch13_11_0_july_sun_counts_an_assault_without_a_melee_block() {
    // Module july_sun (Ch13 11.0): an infantry regiment that double-times or declares an assault
    // in two consecutive turns of its own (RULINGS G7: turns 1 and 3 for blue) takes a Disorder
    // marker at the end of its movement the second time. The 1st Blue charges on turn 1 (its
    // assault resolved in Phase 2; the turn has no `melee { }` block, which a log may leave out)
    // and double-times on turn 3: exhausted, Disordered.
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    )
    .replace("    first_side blue\n", "    first_side blue\n    rules {\n        module july_sun\n    }\n");
    let (replay, _) = play(
        &scenario,
        r#"turn 1 blue {
    command {
        pips "Col. Blue" roll [6] => 3
    }
    maneuver {
        assault "1st Blue" -> "1st Red" pip "Col. Blue" {
            melee roll [6] vs [1] => attacker wins
        }
        retreat "1st Red" to (24, 18) facing west
    }
}
turn 2 red {
    command {
        pips "Col. Blue" roll [1]
    }
}
turn 3 blue {
    command {
        pips "Col. Blue" roll [6] => 3
    }
    maneuver {
        double_time "1st Blue" to (20, 18) facing east
    }
}
"#,
    );
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(
        replay
            .events
            .iter()
            .any(|e| matches!(&e.event.what, What::Note { text } if text.contains("exhausted by the heat"))),
        "{:#?}",
        replay.events.iter().map(|e| format!("{:?}", e.event.what)).collect::<Vec<_>>()
    );
}

#[test]
fn rule_05_3_4_lost_after_a_closing_volley_counts_the_shattered_last_stand_as_after_fire() {
    // The 1st Blue, 3 stands, charges the 1st Red from 6". At the 4" line the Red's 5 rifled
    // muskets fire a closing volley at short range, 4+ (Ch16 5.2, 7.2): 4, 4, 4, 4, 1 is 4 hits,
    // no cover, no save: 4 unsaved hits take 2 stands (RULE-05-3.3) and the last stand shatters
    // (RULE-05-3.4, Ch16 5.4): 3 stands lost, as a `fire` line would count them, and the charge
    // is destroyed.
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 3 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let log =
        |lost: u32| charge(&[&format!("closing_volley roll [4, 4, 4, 4, 1] => hits 4, lost {lost}")], "");
    let (replay, _) = play(&scenario, &log(3));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    let (replay, _) = play(&scenario, &log(2));
    assert!(
        problems(&replay).iter().any(|f| f.message.contains("stands lost to the closing volley")),
        "{:#?}",
        problems(&replay)
    );
}

/// Whether a Disorder marker was placed on `unit` in the replay.
fn disordered(replay: &crate::replay::Replay, unit: &str) -> bool {
    replay.events.iter().any(
        |e| matches!(&e.event.what, What::MarkerPlaced { unit: u, marker } if u == unit && marker.eq_ignore_ascii_case("disorder")),
    )
}

#[test]
fn rulings_c8_ch16_3_3_a_passage_of_lines_tests_both_units_with_the_lines_dice() {
    // The 1st Blue advances 6" straight through the 2nd Blue, 3" ahead of it: a passage of lines
    // (Ch16 3.3). Both take a Discipline check by their grade (RULINGS C8 `by_grade`): regulars
    // pass on 4+. The line's dice: 5 for the 1st Blue (passes), 2 for the 2nd Blue (fails: it
    // takes a Disorder marker).
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (10, 18) facing east }\n            regiment \"2nd Blue\" { stands 4 regular rifled_musket line at (13, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (40, 18) facing west }",
    );
    let log = |dice: &str| {
        format!(
            "turn 1 blue {{\n    maneuver {{\n        move \"1st Blue\" to (16, 18) facing east{dice}\n    }}\n}}\n"
        )
    };
    let (replay, _) = play(&scenario, &log(" discipline [5, 2]"));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(disordered(&replay, "2nd Blue"), "the 2nd Blue failed its check");
    assert!(!disordered(&replay, "1st Blue"), "the 1st Blue passed");
    // Without the dice the audit says what to add.
    let (replay, _) = play(&scenario, &log(""));
    assert!(
        problems(&replay).iter().any(|f| f.message.contains("`discipline [4]`")),
        "{:#?}",
        problems(&replay)
    );
    // A die too many is reported.
    let (replay, _) = play(&scenario, &log(" discipline [5, 4, 6]"));
    assert!(!problems(&replay).is_empty(), "a die left over is a finding");
}

#[test]
fn rulings_g17_ch16_4_1_a_formed_unit_entering_dense_woods_is_disordered() {
    // RULINGS G17: every formed formation takes a Disorder marker on entering dense woods (Ch16
    // 4.1). The 1st Blue, in line, moves 2" into the wood's edge: Disordered.
    let scenario = range(
        "        dense_woods \"The Thicket\" polygon (14, 10) (24, 10) (24, 26) (14, 26)",
        "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (40, 18) facing west }",
    );
    let (replay, _) = play(
        &scenario,
        "turn 1 blue {\n    maneuver {\n        move \"1st Blue\" to (15, 18) facing east\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(disordered(&replay, "1st Blue"));
}

#[test]
fn ch16_4_2_crossing_a_stone_wall_takes_a_4_up_check_disordered_if_failed() {
    // Ch16 4.2: crossing a stone wall costs 2" and a 4+ Discipline check; failing it leaves the
    // unit disordered. The 1st Blue (regular, no modifiers: Col. Blue rides 4" behind it, Tier 1,
    // Ch16 2.2) crosses the wall 1" ahead of it with 5" of its 6" move (3" of ground and the
    // wall's 2"), rolling 3: it fails and is Disordered; rolling 4 it crosses in good order.
    let scenario = range(
        "        stone_wall \"The Wall\" line (13, 12) (13, 24)",
        "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (40, 18) facing west }",
    )
    .replace("brigadier \"Col. Blue\" reliable at (2, 2)", "brigadier \"Col. Blue\" reliable at (8, 18)");
    assert!(scenario.contains("at (8, 18)"));
    let log = |die: u8| {
        format!(
            "turn 1 blue {{\n    maneuver {{\n        move \"1st Blue\" to (15, 18) facing east discipline [{die}]\n    }}\n}}\n"
        )
    };
    let (replay, _) = play(&scenario, &log(3));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(disordered(&replay, "1st Blue"));
    let (replay, _) = play(&scenario, &log(4));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(!disordered(&replay, "1st Blue"));
}

#[test]
fn ch16_7_3_a_charge_from_two_inches_has_no_momentum() {
    // Ch16 7.3, RULINGS G10: momentum is +1 for a run of 3" or more of open ground. The 1st Blue
    // charges the 1st Red from 2": no run, no momentum. Shock scores, both Fresh (+1), 5 stands
    // each: Blue 2 + 5 + 1 = 8, Red 2 + 5 + 1 = 8: a Bloody Draw (with momentum it would win 9
    // to 8).
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (16, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let (replay, _) = play(&scenario, &charge(&["melee roll [2] vs [2] => draw"], ""));
    let (blue, score) = shock_score(&replay, "1st Blue");
    assert!(!blue.iter().any(|(n, _)| n == "momentum"), "{blue:?}");
    assert_eq!(score, 8);
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

#[test]
fn ch16_7_4_a_breakthroughs_claimed_result_is_checked() {
    // The Fresh 1st Blue charges the 1st Red (2 stands, Spent) from 5": 2 stands engaged a side
    // (RULINGS G3). Blue 6 + 2 + 1 (Fresh) + 1 (momentum) = 10 against 1 + 2 - 1 (Spent) = 2: a
    // win by 8; the 1st Red loses a stand and its last one shatters (RULE-05-3.4). Fresh, a win
    // by 4 or more, the enemy gone: the 1st Blue may sweep on 4" for a pip (Ch16 7.4, RULINGS
    // G14) into the 2nd Red, 4" beyond: 4 + 5 + 1 (Fresh) + 1 (momentum, a 4" run) = 11 against
    // 3 + 5 + 1 = 9: the attacker wins, and the log must claim so.
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 2 regular rifled_musket line at (17, 18) facing west }\n            regiment \"2nd Red\" { stands 5 regular rifled_musket line at (21, 18) facing west }",
    );
    let log = |claim: &str| {
        let melee = format!(
            "    melee {{\n        breakthrough \"1st Blue\" -> \"2nd Red\" roll [4] vs [3] => {claim}\n    }}\n"
        );
        charge(&["melee roll [6] vs [1] => attacker wins"], &melee)
    };
    let (replay, _) = play(&scenario, &log("attacker wins"));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    let (replay, _) = play(&scenario, &log("defender wins"));
    assert!(
        problems(&replay).iter().any(|f| f.message.contains("the rules give attacker wins")),
        "{:#?}",
        replay.findings
    );
}

#[test]
fn ch16_7_2_each_discipline_test_of_an_assault_has_its_own_claim() {
    // The 1st Blue (regular, Fresh) charges the 1st Red from 6". At the 4" line the Red's 5
    // rifled muskets fire at short range, 4+: 6, 1, 1, 1, 1 is one hit, a natural 6 within 6": a
    // Shock trigger (RULE-05-4.1). Its Discipline save (regular 4+, Fresh +1: 3+) rolls 1 and
    // fails: Disorder (RULE-05-4.2), which calls for the pre-contact check (RULINGS C7
    // `loss_or_disorder`); it rolls 5 and passes, and the charge goes in. The two tests have a
    // step each, claimed in the order they were rolled: fail, then pass.
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let log = |first: &str, second: &str| {
        charge(
            &[
                "closing_volley roll [6, 1, 1, 1, 1] => hits 1, disordered",
                &format!("discipline roll [1] => {first}"),
                &format!("discipline roll [5] => {second}"),
                "melee roll [3] vs [3]",
            ],
            "",
        )
    };
    let (replay, _) = play(&scenario, &log("fail", "pass"));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    let (replay, _) = play(&scenario, &log("fail", "fail"));
    assert!(
        problems(&replay).iter().any(|f| f.message.contains("pre-contact check")),
        "{:#?}",
        problems(&replay)
    );
}

/// The 1st Blue (facing east, front edge on x = 12, stands x 11.25-12) and the 1st Red (facing
/// west, front edge on x = 18, stands x 18-18.75), 6" apart over open ground, with `terrain`.
fn on_the_range(terrain: &str) -> String {
    range(
        terrain,
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    )
}

/// A level 1 hill under the 1st Red whose crest (x = 18.5) runs through its stands: the 1st Red
/// holds the crest; the 1st Blue stands at the foot, level 0.
const RED_CREST: &str = "        hill \"Red Ridge\" level 1 polygon (16, 10) (30, 10) (30, 26) (16, 26) crest (18.5, 10) (18.5, 26)";

/// The modifier `name` of a unit's Shock Score, if it has one.
fn modifier(mods: &[(String, i32)], name: &str) -> Option<i32> {
    mods.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

#[test]
fn ch16_4_4_uphill_penalty_and_ch16_7_3_crestline_against_a_crest_defender() {
    // The 1st Red holds the crest; the 1st Blue charges up at it from level 0, 6" over open
    // ground (hills are no terrain area: the momentum stands). Shock scores (Ch16 7.3), both
    // Fresh, 5 stands engaged each: Blue 3 + 5 + 1 Fresh + 1 momentum - 1 uphill (Ch16 4.4) =
    // 9; Red 2 + 5 + 1 Fresh + 1 crestline (Ch16 7.3) = 9: a Bloody Draw (RULINGS G17: both
    // apply, and the double count is flagged). Without the slope: 10 against 8.
    let scenario = on_the_range(RED_CREST);
    let (replay, _) = play(&scenario, &charge(&["melee roll [3] vs [2] => bloody draw"], ""));
    let (blue, blue_score) = shock_score(&replay, "1st Blue");
    let (red, red_score) = shock_score(&replay, "1st Red");
    assert_eq!(modifier(&blue, "uphill"), Some(-1), "{blue:?}");
    assert_eq!(modifier(&blue, "momentum"), Some(1), "{blue:?}");
    assert_eq!(modifier(&red, "crest"), Some(1), "{red:?}");
    assert_eq!((blue_score, red_score), (9, 9));
    assert!(
        replay.events.iter().any(|e| e.event.rule.contains("RULINGS G17")
            && matches!(&e.event.what, What::Note { text } if text.contains("twice"))),
        "the G17 double count is flagged"
    );
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

#[test]
fn ch16_4_4_uphill_odds_at_the_assault_line_see_the_slope() {
    // `dotc odds --at` and the hover price the assault from the replay's own plan: Blue d6 + 6
    // (5 + 1 Fresh + 1 momentum - 1 uphill) against Red d6 + 7 (5 + 1 Fresh + 1 crestline).
    // Blue wins when its die beats Red's by 2 or more: 10 of 36; a draw by exactly 1: 5 of 36.
    // Without the slope Blue would win 21 of 36.
    let scenario = on_the_range(RED_CREST);
    let (replay, _) = play(&scenario, &charge(&["melee roll [3] vs [2] => bloody draw"], ""));
    let probe = replay.assault_probes.first().expect("the assault line is probed");
    let odds = probe.odds.as_ref().expect("the assault is priced");
    assert!((odds.p_attacker_wins - 10.0 / 36.0).abs() < 1e-9, "{odds:?}");
    assert!((odds.p_draw - 5.0 / 36.0).abs() < 1e-9, "{odds:?}");
}

#[test]
fn ch16_4_4_crest_advantage_charging_downhill_from_a_crest() {
    // A level 1 hill under the 1st Blue, its crest (x = 11.5) through Blue's stands; the 1st Red
    // stands on the flat. Blue charges down: 2 + 5 + 1 Fresh + 1 momentum + 1 crest advantage
    // (Ch16 4.4) = 10; Red 4 + 5 + 1 Fresh = 10: a Bloody Draw. Without it, 9 against 10.
    let scenario = on_the_range(
        "        hill \"Blue Ridge\" level 1 polygon (0, 10) (12.5, 10) (12.5, 26) (0, 26) crest (11.5, 10) (11.5, 26)",
    );
    let (replay, _) = play(&scenario, &charge(&["melee roll [2] vs [4] => bloody draw"], ""));
    let (blue, blue_score) = shock_score(&replay, "1st Blue");
    let (red, red_score) = shock_score(&replay, "1st Red");
    assert_eq!(modifier(&blue, "crest advantage"), Some(1), "{blue:?}");
    assert_eq!(modifier(&red, "crest"), None, "{red:?}");
    assert_eq!((blue_score, red_score), (10, 10));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

#[test]
fn ch16_4_4_uphill_needs_a_crest_a_hill_without_one_gives_no_slope_modifier() {
    // The same hill under the 1st Red without a crest line: Red stands higher but holds no
    // crest, so neither the uphill -1 nor the crestline +1 applies (Ch16 4.4, 7.3). Blue 3 + 5 +
    // 1 + 1 = 10 against Red 2 + 5 + 1 = 8.
    let scenario =
        on_the_range("        hill \"Red Rise\" level 1 polygon (16, 10) (30, 10) (30, 26) (16, 26)");
    let (replay, _) = play(&scenario, &charge(&["melee roll [3] vs [2] => attacker wins"], ""));
    let (blue, blue_score) = shock_score(&replay, "1st Blue");
    let (red, red_score) = shock_score(&replay, "1st Red");
    assert_eq!(modifier(&blue, "uphill"), None, "{blue:?}");
    assert_eq!(modifier(&red, "crest"), None, "{red:?}");
    assert_eq!((blue_score, red_score), (10, 8));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

#[test]
fn rulings_g17_ch16_7_3_crestline_does_not_stack_with_a_fence() {
    // The 1st Red holds the crest behind a rail fence 0.5" ahead of its front. Ch16 7.3 puts the
    // fence and the crestline in one row ("Defending Light Cover / Fence / Crestline", +1), and
    // RULINGS G17: cover does not stack. Red 3 + 5 + 1 Fresh + 1 fence = 10, no second +1; the
    // uphill -1 still applies to Blue (G17: apply both): 4 + 5 + 1 + 1 momentum - 1 = 10. A
    // Bloody Draw (with the crest stacked Red would win, 11 to 10).
    let terrain = format!("{RED_CREST}\n        rail_fence \"Red Fence\" line (17.5, 10) (17.5, 26)");
    let scenario = on_the_range(&terrain);
    let (replay, _) = play(&scenario, &charge(&["melee roll [4] vs [3] => bloody draw"], ""));
    let (blue, blue_score) = shock_score(&replay, "1st Blue");
    let (red, red_score) = shock_score(&replay, "1st Red");
    assert_eq!(modifier(&blue, "uphill"), Some(-1), "{blue:?}");
    assert_eq!(modifier(&red, "rail_fence"), Some(1), "{red:?}");
    assert_eq!(modifier(&red, "crest"), None, "{red:?}");
    assert_eq!((blue_score, red_score), (10, 10));
    assert!(
        replay
            .events
            .iter()
            .any(|e| matches!(&e.event.what, What::Note { text } if text.contains("does not stack"))),
        "the dropped crestline is noted"
    );
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

#[test]
fn rulings_g17_ch16_7_3_crestline_behind_a_stone_wall_keeps_the_walls_two() {
    // A stone wall on the crest: its +2 (Ch16 7.3 Heavy row) is the larger; the crestline's +1
    // does not add to it (RULINGS G17). Red 1 + 5 + 1 + 2 = 9. Blue 4 + 5 + 1 + 1 momentum - 1
    // uphill = 10: the attacker wins (with the crest stacked, a Bloody Draw at 10).
    let terrain = format!("{RED_CREST}\n        stone_wall \"Red Wall\" line (17.5, 10) (17.5, 26)");
    let scenario = on_the_range(&terrain);
    let (replay, _) = play(&scenario, &charge(&["melee roll [4] vs [1] => attacker wins"], ""));
    let (red, red_score) = shock_score(&replay, "1st Red");
    assert_eq!(modifier(&red, "stone_wall"), Some(2), "{red:?}");
    assert_eq!(modifier(&red, "crest"), None, "{red:?}");
    assert_eq!(shock_score(&replay, "1st Blue").1, 10);
    assert_eq!(red_score, 9);
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}

/// Ch16 7.4: the loser of a melee retreats, recorded in the same turn. A log that goes on to
/// another turn without the loser's `retreat` line has an error at the assault, naming the line
/// to add with its point (6" straight back); a log that ends after the melee is not yet wrong.
/// Found by the Gettysburg afternoon log (issue 19), where a loser left in contact went unflagged.
#[test]
fn ch16_7_4_a_melee_loser_without_its_retreat_is_an_error_when_the_turn_is_over() {
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let melee = r#"turn 1 blue {
    command {
        pips "Col. Blue" roll [6] => 3
    }
    maneuver {
        assault "1st Blue" -> "1st Red" pip "Col. Blue" {
            melee roll [6] vs [1] => attacker wins
        }
    }
}
"#;
    let unretreated = |replay: &crate::replay::Replay| -> Vec<String> {
        replay
            .findings
            .iter()
            .filter(|f| f.rule == "Ch16 7.4" && f.level == crate::replay::Level::Error)
            .map(|f| f.message.clone())
            .collect()
    };
    // The log ends after the melee: nothing yet.
    let (replay, _) = play(&scenario, melee);
    assert!(unretreated(&replay).is_empty(), "{:#?}", replay.findings);
    // It goes on to turn 2 without the retreat: an error, with the point to write.
    let (replay, _) = play(&scenario, &format!("{melee}turn 2 red {{\n}}\n"));
    let found = unretreated(&replay);
    assert_eq!(found.len(), 1, "{:#?}", replay.findings);
    assert!(found[0].contains("add `retreat \"1st Red\" to (24, 18)`"), "{found:?}");
    // With the retreat: nothing.
    let with = melee.replace(
        "        }\n    }\n}\n",
        "        }\n        retreat \"1st Red\" to (24, 18) facing west\n    }\n}\n",
    );
    let (replay, _) = play(&scenario, &format!("{with}turn 2 red {{\n}}\n"));
    assert!(unretreated(&replay).is_empty(), "{:#?}", replay.findings);
}

/// A test table for issue 19's flank charges: the 1st Blue, a five-stand line placed as `blue`
/// says, and the 1st Red as `red` says.
fn flank_range(blue: &str, red: &str) -> String {
    range(
        "",
        &format!("            regiment \"1st Blue\" {{ stands 5 regular rifled_musket line at {blue} }}"),
        &format!("            regiment \"1st Red\" {{ stands {red} }}"),
    )
}

#[test]
fn rule_05_1_4_rulings_g13_a_charge_from_the_flank_zone_draws_no_closing_volley_and_gets_the_flank_bonus() {
    // Issue 19 (Seminary Ridge): the closing volley is a volley, so it is fired only at a
    // charger in the defender's 45-degree front arc (RULE-05-1.4, Ch16 4.5, RULINGS G13). The
    // 1st Red (5 stands, x 15.5-20.5, front at y = 18, facing north); the 1st Blue faces east
    // with its colours at (11, 19): 1" ahead of the 1st Red's front line and 4.5" out past its
    // left corner, in the flank zone. Its nearest corner (11, 21.5) is 3.5" ahead and 4.5" out:
    // outside the arc, and so it stays at the 4" line (11.6, 18.9). A closing volley is refused
    // (the old replay rolled it), and the charge gets the +2 flank (Ch16 7.3).
    let scenario =
        flank_range("(11, 19) facing east", "5 regular rifled_musket line at (18, 18) facing north");
    let (volley, _) = play(
        &scenario,
        &charge(&["closing_volley roll [6, 6, 6, 6, 6]", "discipline roll [6]", "melee roll [4] vs [3]"], ""),
    );
    let refused = problems(&volley);
    assert!(
        refused
            .iter()
            .any(|f| f.message.contains("outside 1st Red's 45-degree front arc")
                && f.rule.contains("RULE-05-1.4")),
        "{refused:#?}"
    );
    assert!(!volley.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. })), "not applied");
    let (charge_home, _) = play(&scenario, &charge(&["melee roll [4] vs [3]"], ""));
    let (blue, _) = shock_score(&charge_home, "1st Blue");
    assert!(blue.contains(&("flank attack".to_string(), 2)), "{blue:?}");
    assert!(problems(&charge_home).is_empty(), "{:#?}", problems(&charge_home));
}

#[test]
fn rulings_g13_the_45_degree_rays_start_at_the_front_corners_not_the_centre() {
    // Issue 19, Seminary Ridge log line 167, moved 20" west and 12" south: the 121st
    // Pennsylvania (2 stands at (38.3, 34.5) facing west, here (18.3, 22.5)) charged by the 14th
    // South Carolina (5 stands, colours at (32.6, 28.3) facing north-east, here (12.6, 16.3)).
    // Seen from the 121st's centre the colours are 47.4 degrees off its front (5.7" ahead, 6.2"
    // to the side), but the arc's rays start at the front corners (RULINGS G13): from the left
    // corner they are 5.7" ahead and 5.2" out, 42.4 degrees, in the front arc. So the 121st may
    // fire its closing volley, and the charge is no flank attack (Ch16 7.3).
    let scenario =
        flank_range("(12.6, 16.3) facing 45", "2 regular rifled_musket line at (18.3, 22.5) facing west");
    let (frontal, _) = play(&scenario, &charge(&["closing_volley roll [1, 2]", "melee roll [4] vs [3]"], ""));
    assert!(problems(&frontal).is_empty(), "{:#?}", problems(&frontal));
    let (blue, _) = shock_score(&frontal, "1st Blue");
    assert!(!blue.iter().any(|(n, _)| n == "flank attack"), "{blue:?}");
}

/// Two regiments of a brigade of 8 stands (Hesitant at 2 lost, RULINGS G6) charge two red
/// regiments in one turn, each `assault` line ending in the words given: the 1st Red's closing
/// volley takes 2 of the 1st Blue's stands (4 hits), the brigade goes Hesitant and the 1st Blue
/// stalls; then the 2nd Blue's charge, melee 4 against 3.
fn two_charges(first: &str, second: &str) -> (crate::replay::Replay, String) {
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (6, 10) facing east }\n\
         \x20           regiment \"2nd Blue\" { stands 4 regular rifled_musket line at (6, 5) facing east }",
        "            regiment \"1st Red\" { stands 4 regular rifled_musket line at (12, 10) facing west }\n\
         \x20           regiment \"2nd Red\" { stands 4 regular rifled_musket line at (12, 5) facing west }",
    );
    let log = format!(
        "turn 1 blue {{\n    command {{\n        pips \"Col. Blue\" roll [6] => 3\n    }}\n    maneuver {{\n        \
         assault \"1st Blue\" -> \"1st Red\" pip \"Col. Blue\"{first} {{\n            \
         closing_volley roll [6, 6, 6, 6]\n            discipline roll [6]\n            discipline roll [1]\n            \
         stall\n        }}\n        assault \"2nd Blue\" -> \"2nd Red\" {second} {{\n            \
         melee roll [4] vs [3]\n        }}\n    }}\n}}\n"
    );
    play(&scenario, &log)
}

#[test]
fn ch16_2_3_7_1_a_dress_on_the_colors_push_is_declared_once_for_all_its_regiments() {
    // Issue 19 (Seminary Ridge): two regiments of a brigade of 8 stands (Hesitant at 2 lost,
    // RULINGS G6) charge in one Dress on the Colors push (Ch16 2.3: 2 pips, "charge
    // simultaneously"). The 1st Red's closing volley takes 2 of the 1st Blue's stands (4 hits)
    // and the brigade is Hesitant; the 1st Blue stalls. The push was declared while the brigade
    // was Fresh (Ch16 7.1), so the 2nd Blue, declared with it, still charges: the old replay
    // judged the clock again at its line and refused it.
    let (replay, _) = two_charges(" dress_on_the_colors", "dress_on_the_colors");
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(
        replay.events.iter().any(|e| matches!(&e.event.what, What::BrigadeChanged { .. })),
        "the brigade went Hesitant"
    );
    assert_eq!(shock_score(&replay, "2nd Blue").1, 10, "4 + 4 engaged + fresh + momentum");
}

#[test]
fn dotc_d52_rule_07_2_3_separate_charges_are_declared_one_at_a_time() {
    // dotc D52: the same two charges as above, each declared on its own (1 pip each, no push).
    // The 1st Blue's closing volley makes the brigade Hesitant before the 2nd Blue's line, and a
    // Hesitant brigade declares no assault (RULE-07-2.3, Ch16 7.1): the 2nd Blue's charge is
    // refused and fights no melee. Only a push (Ch16 2.3) declares several charges at once.
    let (replay, _) = two_charges("", "pip \"Col. Blue\"");
    let refused: Vec<_> = problems(&replay)
        .into_iter()
        .filter(|f| f.message.contains("its brigade is Hesitant") && f.rule.contains("RULE-07-2.3"))
        .collect();
    assert_eq!(refused.len(), 1, "{:#?}", problems(&replay));
    assert!(refused[0].rule.contains("dotc D52"), "{}", refused[0].rule);
    assert!(
        // Line 9 is the 1st Blue's assault (three lines of game header, then the turn).
        refused[0].message.contains("went Hesitant at line 9, this phase")
            && refused[0].message.contains("dress_on_the_colors"),
        "{}",
        refused[0].message
    );
    assert!(
        !replay.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. })),
        "the refused charge fights no melee"
    );
}

#[test]
fn ch16_4_4_dotc_d53_no_charge_into_or_out_of_dead_ground() {
    // Ch16 4.4: a unit more than 1" behind a crest cannot be charged by units at the foot of the
    // hill. The hill (level 1, x 14-30) has its crest on x = 15; the 1st Red faces west with its
    // front edge on x = 17, 2" behind it; the 1st Blue, level 0 at the foot, faces east 7" off,
    // inside its 9" charge. The charge is refused and no melee fought. Under dotc D53's default
    // (`both_ways`) the 1st Red cannot charge down at the 1st Blue either: it cannot see it.
    let scenario = range(
        "        hill \"Crest Hill\" level 1 polygon (14, 0) (30, 0) (30, 30) (14, 30) crest (15, 0) (15, 30)",
        "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (10, 10) facing east }",
        "            regiment \"1st Red\" { stands 4 regular rifled_musket line at (17, 10) facing west }",
    )
    // The Red brigadier behind his regiment, in command range (Ch16 2.2).
    .replace("brigadier \"Col. Red\" reliable at (46, 34)", "brigadier \"Col. Red\" reliable at (22, 10)");
    let (up, _) = play(&scenario, &charge(&["melee roll [4] vs [3]"], ""));
    let refused: Vec<_> = problems(&up)
        .into_iter()
        .filter(|f| {
            f.rule.contains("Ch16 4.4")
                && f.message.contains("may not be charged until 1st Blue reaches the crest")
        })
        .collect();
    assert_eq!(refused.len(), 1, "{:#?}", problems(&up));
    assert!(!up.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. })), "no melee");
    let down = "turn 1 blue {\n}\nturn 2 red {\n    command {\n        pips \"Col. Red\" roll [6] => 3\n    }\n    maneuver {\n        \
                assault \"1st Red\" -> \"1st Blue\" pip \"Col. Red\" {\n            melee roll [4] vs [3]\n        }\n    }\n}\n";
    let (replay, _) = play(&scenario, down);
    let refused: Vec<_> = problems(&replay)
        .into_iter()
        .filter(|f| {
            f.rule.contains("dotc D53") && f.message.contains("cannot see 1st Blue at the foot of the hill")
        })
        .collect();
    assert_eq!(refused.len(), 1, "{:#?}", problems(&replay));
    // Under `from_below` the 1st Red sees the foot and its charge goes in.
    let ruled = scenario.replace(
        "    first_side blue\n",
        "    first_side blue\n    rules {\n        ruling dead_ground_sight = from_below\n    }\n",
    );
    let (replay, _) = play(&ruled, down);
    assert!(!problems(&replay).iter().any(|f| f.rule.contains("4.4")), "{:#?}", problems(&replay));
    assert!(
        replay.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. })),
        "a melee: {:#?}",
        problems(&replay)
    );
}

/// [`flank_range`] with `ruling flank_attack = VALUE` in the scenario's rules (dotc D50).
fn flank_range_ruled(blue: &str, red: &str, flank_attack: &str) -> String {
    flank_range(blue, red).replace(
        "    first_side blue\n",
        &format!("    first_side blue\n    rules {{\n        ruling flank_attack = {flank_attack}\n    }}\n"),
    )
}

/// The 1st Blue's Shock Score, whether it counts the flank attack's +2 (Ch16 7.3), and the note
/// the replay gives where the two readings of dotc D50 part, when it charges the 1st Red from
/// `blue` under `ruling flank_attack = VALUE` with the melee dice 4 against 3 and nothing else
/// in the log.
fn flank_charge(blue: &str, flank_attack: &str) -> (i32, bool, Option<String>) {
    let scenario =
        flank_range_ruled(blue, "5 regular rifled_musket line at (18, 18) facing north", flank_attack);
    let (replay, _) = play(&scenario, &charge(&["melee roll [4] vs [3]"], ""));
    assert!(problems(&replay).is_empty(), "{flank_attack}: {:#?}", problems(&replay));
    let (modifiers, score) = shock_score(&replay, "1st Blue");
    let flank = modifiers.iter().any(|(name, value)| name == "flank attack" && *value == 2);
    let note = replay.events.iter().find_map(|e| match &e.event.what {
        What::Note { text } if e.event.rule.contains("dotc D50") => Some(text.clone()),
        _ => None,
    });
    (score, flank, note)
}

#[test]
fn dotc_d50_ch15_4_0_a_charger_in_the_flank_zone_but_not_wholly_behind_the_line_is_a_flank_attack_only_under_flank_zone()
 {
    // dotc D50, Ch16 7.3, Ch15 4.0 "Geometry of the Flank Attack". The 1st Red (5 stands, x
    // 15.5-20.5, front edge on y = 18, facing north, its base 1" deep to y = 17): its 90-degree
    // line is y = 18 drawn out to both sides. The 1st Blue faces east with its colours at (11,
    // 19), 4.5" out past the Red's left corner: its colours are in the flank zone (outside the
    // 45-degree arc, RULINGS G13), but its five stands run from y = 16.5 to 21.5 and so straddle
    // the line. Where it starts its charge decides: `flank_zone` gives it the +2 (the Color
    // Stand is out of the front arc), and says which reading gave it. Under `behind_line` the
    // whole charger must start behind the line for a flank attack, so it charges from the
    // frontal zone, and its run east strikes the Red's left side (x = 15.5, y 17-18), the base's
    // thickness, not the front edge: Ch15 4.0 does not allow that, and the charge is refused.
    let blue = "(11, 19) facing east";
    let (_, zone_flank, zone_note) = flank_charge(blue, "flank_zone");
    assert!(zone_flank, "flank_zone: the colours are out of the front arc");
    let zone_note = zone_note.expect("a note under flank_zone");
    assert!(zone_note.contains("a flank attack under `flank_attack = flank_zone`"), "{zone_note}");
    let scenario =
        flank_range_ruled(blue, "5 regular rifled_musket line at (18, 18) facing north", "behind_line");
    let (replay, _) = play(&scenario, &charge(&["melee roll [4] vs [3]"], ""));
    let refused: Vec<_> = problems(&replay)
        .into_iter()
        .filter(|f| f.rule.contains("Ch15 4.0") && f.message.contains("must meet the front edge flush"))
        .collect();
    assert_eq!(refused.len(), 1, "{:#?}", problems(&replay));
    assert!(refused[0].message.contains("would strike the side of 1st Red's base"), "{}", refused[0].message);
    assert!(
        !replay.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. })),
        "a refused charge fights no melee"
    );
}

/// Ch15 4.0 under `ruling flank_attack = behind_line` (dotc D50): the 1st Red as above (front
/// edge y = 18, x 15.5-20.5, facing north, its base to y = 17). A four-stand 1st Blue facing
/// east with its colours at (11, 17.6) runs from y = 15.6 to 19.6: partly ahead of the Red's
/// 90-degree line, so it charges from the frontal zone, and its run east strikes the Red's left
/// side, y 17 to 18, the base's thickness: refused. The same regiment north of the Red facing
/// south (colours at (18, 22), x 16 to 20, its brigadier behind it) meets the front edge and
/// fights its melee.
#[test]
fn ch15_4_0_a_frontal_charge_must_meet_the_front_edge_flush() {
    let red = "5 regular rifled_musket line at (18, 18) facing north";
    let four = |scenario: String| scenario.replace("\"1st Blue\" { stands 5", "\"1st Blue\" { stands 4");
    let clipping = four(flank_range_ruled("(11, 17.6) facing east", red, "behind_line"));
    let (replay, _) = play(&clipping, &charge(&["melee roll [4] vs [3]"], ""));
    let clipped = problems(&replay)
        .into_iter()
        .any(|f| f.rule.contains("Ch15 4.0") && f.message.contains("must meet the front edge flush"));
    assert!(clipped, "{:#?}", problems(&replay));
    // The brigadier rides up behind it, within 12" (Ch16 2.2).
    let frontal = four(flank_range_ruled("(18, 22) facing south", red, "behind_line")).replace(
        "brigadier \"Col. Blue\" reliable at (2, 2)",
        "brigadier \"Col. Blue\" reliable at (18, 26)",
    );
    let (replay, _) = play(&frontal, &charge(&["melee roll [4] vs [3]"], ""));
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    assert!(
        replay.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. })),
        "a melee: {:#?}",
        problems(&replay)
    );
}

#[test]
fn dotc_d50_ch15_4_0_a_charger_wholly_behind_the_line_is_a_flank_attack_under_both_values() {
    // dotc D50: the 1st Blue faces east with its colours at (11, 15.5), its five stands from
    // y = 13 to 18: every stand on or behind the 1st Red's 90-degree line (y = 18; the last
    // stand's edge flush on it counts as behind, as for enfilade, RULE-05-1.5). The Red's end
    // stand (x 15.5-16.5, y 17.25-18) is straight ahead of the Blue's front, 4.5" off, so the
    // charge is legal (Ch16 7.1) and has its 3" run (momentum, Ch16 7.3). Both values give the
    // +2 and the same score.
    let blue = "(11, 15.5) facing east";
    let (zone_score, zone_flank, zone_note) = flank_charge(blue, "flank_zone");
    let (line_score, line_flank, line_note) = flank_charge(blue, "behind_line");
    assert!(zone_flank && line_flank, "flank_zone {zone_flank}, behind_line {line_flank}");
    assert_eq!(zone_score, line_score);
    // The readings agree: nothing to say.
    assert_eq!((zone_note, line_note), (None, None));
}

/// The table of dotc D51's situations: the Blue brigade is two 3-stand regiments with 1 stand
/// lost before the game (`losses 1`): 1 of 7 on its clock, Fresh; Hesitant at 2 (30% of 7 is 2.1,
/// rounded half up), Broken at 4 (RULE-07-2.3, 2.4, RULINGS G6). Each Blue regiment stands 6" west
/// of a 4-stand Red regiment, facing it; Col. Blue stands between them. `melee_timing` is the
/// ruling's value.
fn two_charges_range(melee_timing: &str) -> String {
    range(
        "",
        "            losses 1\n\
         \x20           regiment \"1st Blue\" { stands 3 regular rifled_musket line at (12, 10) facing east }\n\
         \x20           regiment \"2nd Blue\" { stands 3 regular rifled_musket line at (12, 24) facing east }",
        "            regiment \"1st Red\" { stands 4 regular rifled_musket line at (18, 10) facing west }\n\
         \x20           regiment \"2nd Red\" { stands 4 regular rifled_musket line at (18, 24) facing west }",
    )
    .replace(
        "    first_side blue\n",
        &format!("    first_side blue\n    rules {{\n        ruling melee_timing = {melee_timing}\n    }}\n"),
    )
    // Col. Blue between his regiments, within 12" of both: each charge costs 1 pip (Ch16 2.2).
    .replace("brigadier \"Col. Blue\" reliable at (2, 2)", "brigadier \"Col. Blue\" reliable at (8, 17)")
}

/// Turn 1 of dotc D51's situations: Col. Blue rolls 3 pips; the 1st Blue charges the 1st Red and
/// loses its melee, 1 against 6: it gives up a stand (Ch16 7.4), the Blue brigade's second, and
/// the brigade is Hesitant (RULE-07-2.3). `then` is the rest of the turn.
fn after_a_lost_melee(then: &str) -> String {
    format!(
        "turn 1 blue {{\n    command {{\n        pips \"Col. Blue\" roll [6] => 3\n    }}\n    maneuver {{\n        \
         assault \"1st Blue\" -> \"1st Red\" pip \"Col. Blue\" {{\n            melee roll [1] vs [6] => defender wins\n        \
         }}\n{then}}}\n"
    )
}

/// The second charge: the 2nd Blue at the 2nd Red, in the same Phase 2.
const SECOND_CHARGE: &str = "        assault \"2nd Blue\" -> \"2nd Red\" pip \"Col. Blue\" {\n            \
                             melee roll [6] vs [1] => attacker wins\n        }\n    }\n";

/// Whether a replay turned the Blue brigade Hesitant (the premise of dotc D51's situations).
fn blue_turned_hesitant(replay: &crate::replay::Replay) -> bool {
    replay.events.iter().any(|e| {
        matches!(&e.event.what, What::BrigadeChanged { brigade, to, .. }
            if brigade == "Blue Brigade" && *to == crate::engine::events::BrigadeStatus::Hesitant)
    })
}

#[test]
fn dotc_d51_ch16_1_0_a_charge_declared_after_an_earlier_melee_is_judged_as_phase_2_left_the_brigade() {
    // Ch16 1.0: every Phase 2 declaration comes before the Phase 4 melees. The 1st Blue's melee,
    // written inside its assault, makes the Blue brigade Hesitant, which may not assault
    // (RULE-07-2.3). Under `phase_four` the 2nd Blue's charge, declared in the same Phase 2, is
    // judged as Phase 2 left the brigade, Fresh: it is legal, paid (3 - 1 - 1 = 1 pip left) and
    // fought.
    let (replay, _) = play(&two_charges_range("phase_four"), &after_a_lost_melee(SECOND_CHARGE));
    assert!(blue_turned_hesitant(&replay), "{:#?}", replay.events);
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
    let melee = replay.events.iter().any(|e| {
        matches!(&e.event.what, What::Melee { attacker, outcome: crate::engine::events::MeleeOutcome::AttackerWins, .. }
            if attacker == "2nd Blue")
    });
    assert!(melee, "the 2nd Blue's charge is fought and won");
}

#[test]
fn dotc_d51_at_contact_refuses_a_charge_after_an_earlier_melee_made_the_brigade_hesitant() {
    // Under `melee_timing = at_contact` the 1st Blue's melee is in force from its own line: the
    // Blue brigade is Hesitant when the 2nd Blue's charge is declared, which is refused
    // (RULE-07-2.3, Ch16 7.1).
    let (replay, game) = play(&two_charges_range("at_contact"), &after_a_lost_melee(SECOND_CHARGE));
    assert!(blue_turned_hesitant(&replay));
    let refused = crate::replay::fire::situations::findings_at(&replay, &game, "assault \"2nd Blue\"");
    assert_eq!(refused.len(), 1, "{:#?}", replay.findings);
    assert!(refused[0].message.contains("its brigade is Hesitant"), "{}", refused[0].message);
    assert!(refused[0].rule.contains("RULE-07-2.3"), "{}", refused[0].rule);
}

#[test]
fn dotc_d51_a_phase_3_volley_takes_the_hesitant_minus_one_only_once_phase_4_has_come() {
    // RULE-07-2.3, RULINGS C13: a Hesitant brigade's Phase 3 volleys are at -1. Ch16 1.0 fires
    // Phase 3 before the Phase 4 melee that made the Blue brigade Hesitant, so under
    // `phase_four` the 2nd Blue's volley has no such modifier; under `at_contact` it has.
    let hesitant = |timing: &str| {
        let fire = "    }\n    fire {\n        fire \"2nd Blue\" -> \"2nd Red\" roll [4, 4, 4]\n    }\n";
        let (replay, game) = play(&two_charges_range(timing), &after_a_lost_melee(fire));
        assert!(blue_turned_hesitant(&replay));
        let at = crate::replay::tests::line_holding(&game, "fire \"2nd Blue\"", 0);
        let probe = replay.probes.iter().find(|p| p.line == at).expect("the volley was planned");
        probe.plan.modifiers.iter().any(|m| m.name == "hesitant brigade")
    };
    assert!(!hesitant("phase_four"));
    assert!(hesitant("at_contact"));
}

#[test]
fn ch16_4_1_rulings_g10_a_stream_between_halts_the_charge_with_no_melee() {
    // Ch16 4.1 and RULINGS G10: a minor stream halts a charge at the water's edge, with no melee.
    // The 1st Blue faces east at (10, 10), the 1st Red faces west at (17, 10): 7", inside the 9"
    // charge. A minor stream runs north-south at x = 13.5, between them: the charge is refused
    // and no melee fought. With a bridge where the charge crosses, or the stream beyond the 1st
    // Red, the same charge goes in.
    let stream = |line: &str| {
        range(
            &format!("        {line}"),
            "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (10, 10) facing east }",
            "            regiment \"1st Red\" { stands 4 regular rifled_musket line at (17, 10) facing west }",
        )
    };
    let melee = |replay: &crate::replay::Replay| {
        replay.events.iter().any(|e| matches!(&e.event.what, What::ShockScore { .. }))
    };
    let (across, _) = play(
        &stream("minor_stream \"Beaver Run\" line (13.5, 0) (13.5, 30)"),
        &charge(&["melee roll [4] vs [3]"], ""),
    );
    let halted: Vec<_> = problems(&across)
        .into_iter()
        .filter(|f| {
            f.rule.contains("RULINGS G10")
                && f.message.contains("Beaver Run lies between 1st Blue and 1st Red")
                && f.message.contains("halts at the water's edge with no melee")
        })
        .collect();
    assert_eq!(halted.len(), 1, "{:#?}", problems(&across));
    assert!(!melee(&across), "no melee across the stream");
    let (bridged, _) = play(
        &stream("minor_stream \"Beaver Run\" line (13.5, 0) (13.5, 30) bridge at (13.5, 10)"),
        &charge(&["melee roll [4] vs [3]"], ""),
    );
    assert!(!problems(&bridged).iter().any(|f| f.rule.contains("G10")), "{:#?}", problems(&bridged));
    assert!(melee(&bridged), "the bridge carries the charge: {:#?}", problems(&bridged));
    let (beyond, _) = play(
        &stream("minor_stream \"Beaver Run\" line (20, 0) (20, 30)"),
        &charge(&["melee roll [4] vs [3]"], ""),
    );
    assert!(!problems(&beyond).iter().any(|f| f.rule.contains("G10")), "{:#?}", problems(&beyond));
    assert!(melee(&beyond), "a stream behind the target stops nothing: {:#?}", problems(&beyond));
}

#[test]
fn ch16_7_4_a_retreat_the_log_did_not_make_is_owed_as_the_rules_make_it() {
    // Ch16 7.4: the melee's loser retreats 6" straight back. The 1st Blue (east-facing at (10,
    // 10)) charges the 1st Red (west-facing at (17, 10)) and wins 6 against 1; the log goes on to
    // turn 2 without the 1st Red's retreat. The replay finds the fault and keeps the move owed
    // (what `dotc playtest` writes in): to (23, 10), straight back east, in turn 1's melee phase.
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 4 regular rifled_musket line at (10, 10) facing east }",
        "            regiment \"1st Red\" { stands 4 regular rifled_musket line at (17, 10) facing west }",
    );
    let game = format!("{}turn 2 red {{\n}}\n", charge(&["melee roll [6] vs [1]"], ""));
    let (replay, _) = play(&scenario, &game);
    assert!(replay.owed.is_empty(), "kept only when asked for");
    let (replay, _) = crate::replay::tests::play_with(&scenario, &game, |o| o.owed = true);
    assert!(
        problems(&replay).iter().any(|f| f.rule == "Ch16 7.4" && f.message.contains("records no retreat")),
        "{:#?}",
        problems(&replay)
    );
    assert_eq!(replay.owed.len(), 1, "{:#?}", replay.owed);
    let owed = &replay.owed[0];
    assert_eq!((owed.unit.as_str(), owed.turn, owed.phase), ("1st Red", 1, dotc_lang::ast::PhaseKind::Melee));
    assert!((owed.to.0 - 23.0).abs() < 1e-6 && (owed.to.1 - 10.0).abs() < 1e-6, "{:?}", owed.to);
}
