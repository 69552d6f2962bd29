//! Small firing situations, each a scenario and a log replayed through the audit, worked by hand
//! from the rulebook (issue 14's ranged-combat defects). Each test names the rule it holds the
//! replay to; the arithmetic is in its comments.
//!
//! The firing range: blue on the west, red on the east, both brigades' brigadiers out of the
//! way. A 5-stand line is 5" wide and 0.75" deep; a position is the centre of its front edge.

use std::path::Path;

use super::super::*;
use crate::replay::tests::{Loaded, play, problems};

/// A scenario on the firing range with the given terrain lines and units of each side.
pub(crate) fn range(terrain: &str, blue: &str, red: &str) -> String {
    format!(
        r#"scenario "Firing Range" {{
    start 10:00
    turn_length 15 min
    turns 8
    first_side blue
    table 48 x 36
    terrain {{
        road "Range Road" line (0, 35) (48, 35)
{terrain}
    }}
    side blue "Blue" {{
        edge west
        brigade "Blue Brigade" {{
            brigadier "Col. Blue" reliable at (2, 2)
{blue}
        }}
    }}
    side red "Red" {{
        edge east
        brigade "Red Brigade" {{
            brigadier "Col. Red" reliable at (46, 34)
{red}
        }}
    }}
}}
"#
    )
}

/// The findings on the line holding `text`.
pub(crate) fn findings_at(replay: &Replay, game: &str, text: &str) -> Vec<Finding> {
    let line = crate::replay::tests::line_holding(game, text, 0);
    crate::replay::tests::findings_on_line(game, replay, line)
}

/// The plan of the volley on the line holding `text`.
fn plan_at<'a>(replay: &'a Replay, game: &str, text: &str) -> &'a crate::engine::fire::VolleyPlan {
    let line = crate::replay::tests::line_holding(game, text, 0);
    let probe = replay.probes.iter().find(|p| p.line == line);
    &probe.unwrap_or_else(|| panic!("no volley planned at line {line}: {:#?}", replay.findings)).plan
}

const BLUE_LINE: &str =
    "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (10, 18) facing east }";
const RED_LINE: &str =
    "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (20, 18) facing west }";

#[test]
fn rule_05_6_2_firing_through_own_screen_is_minus_one_in_the_replay() {
    // The 1st Blue has its skirmish screen out 2.5" ahead of its colours (Ch16 3.4) and fires
    // at the 1st Red 10" away. The screen's stand fires no more with its parent (RULINGS G12):
    // 4 dice. Rifled muskets at medium range hit on 4+ (Ch16 5.2), -1 for firing through its own
    // screen (RULE-05-6.2, Ch16 5.6, dotc D2 `own_screen = screen_out`): 5+. Dice 5, 5,
    // 4, 1: 2 hits, in the open no save, 2 unsaved hits = 1 stand (RULE-05-3.3).
    let blue = BLUE_LINE.replace("facing east }", "facing east screen at (12.5, 18) }");
    let scenario = range("", &blue, RED_LINE);
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [5, 5, 4, 1] => hits 2, lost 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let plan = plan_at(&replay, &game, "fire \"1st Blue\"");
    assert_eq!((plan.dice, plan.base, plan.to_hit), (4, 4, 5), "{:#?}", plan.modifiers);
    assert!(plan.modifiers.iter().any(|m| m.value == -1 && m.rule.contains("RULE-05-6.2")), "{plan:#?}");
}

#[test]
fn dotc_d2_own_screen_counts_every_volley_or_only_fire_across_the_screen() {
    // The 1st Blue's screen stands 2.5" ahead of its right flank (12.5, 16); the 1st Red stands
    // to its north-east, its front edge x = 20 from y = 23.5 to 28.5, inside the 45-degree arc
    // from the 1st Blue's left front corner (10, 20.5). The range line from (10, 18) to (20, 23.5)
    // and every stand's line pass north of the screen's stand (y 15.5 to 16.5).
    let blue = BLUE_LINE.replace("facing east }", "facing east screen at (12.5, 16) }");
    let red = RED_LINE.replace("(20, 18)", "(20, 26)");
    let log =
        "turn 1 blue {\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [5, 5, 4, 1]\n    }\n}\n";
    let screen_penalty = |scenario: &str| {
        let (replay, game) = play(scenario, log);
        let plan = plan_at(&replay, &game, "fire \"1st Blue\"").clone();
        plan.modifiers.iter().any(|m| m.rule.contains("RULE-05-6.2"))
    };
    // D2 `screen_out` (the default): the screen is out, the volley takes -1.
    assert!(screen_penalty(&range("", &blue, &red)));
    // D2 `in_the_line`: no line crosses the screen, no -1; straight ahead through it, -1.
    let in_the_line = |scenario: String| {
        scenario.replacen(
            "    first_side blue\n",
            "    first_side blue\n    rules {\n        ruling own_screen = in_the_line\n    }\n",
            1,
        )
    };
    assert!(!screen_penalty(&in_the_line(range("", &blue, &red))));
    let ahead = BLUE_LINE.replace("facing east }", "facing east screen at (12.5, 18) }");
    assert!(screen_penalty(&in_the_line(range("", &ahead, RED_LINE))));
}

#[test]
fn rule_05_3_2_a_fence_covers_against_frontal_fire_from_off_the_targets_frontage() {
    // The 1st Red stands behind a rail fence 0.5" in front of it (its front edge x = 20 from
    // y = 15.5 to 20.5, the fence along x = 19.5). The 1st Blue fires from (10, 21): 3" north of
    // the 1st Red's centre line, 17 degrees off its facing, outside its frontage but well in
    // front of it, and not enfilading it (RULE-05-1.5: it is nowhere near the 90-degree line).
    // The line of fire crosses the fence 0.5" in front of the 1st Red: standing behind a fence,
    // light cover, 5+ (RULE-05-3.2, Ch16 4.2); only enfilade takes it away (RULINGS C15).
    // Range 10.1" (to the corner (20, 20.5)): medium, 4+. Dice 4, 4, 1, 1, 2: 2 hits; saves 5, 1:
    // 1 saved, 1 unsaved hit, a micro-hit (RULE-05-3.3).
    let fence = "        rail_fence \"Red Fence\" line (19.5, 2) (19.5, 34)";
    let blue = BLUE_LINE.replace("(10, 18)", "(10, 21)");
    let scenario = range(fence, &blue, RED_LINE);
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [5, 1] => hits 2, saved 1, micro 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let plan = plan_at(&replay, &game, "fire \"1st Blue\"");
    assert_eq!(plan.save.save, Some(5), "{:#?}", plan.save);
}

/// Whether the line holding `text` has an error citing `rule`.
fn refused(replay: &Replay, game: &str, text: &str, rule: &str) -> bool {
    findings_at(replay, game, text).iter().any(|f| f.level == Level::Error && f.rule.contains(rule))
}

#[test]
fn rule_05_1_2_a_wheel_does_not_forbid_fire_it_costs_minus_one() {
    // RULE-05-1.2 (1)'s exception, Ch16 5.1: a unit that only wheeled or pivoted may fire at -1.
    // The 1st Blue wheels 20 degrees to its right, pivoting on its right front corner (10, 15.5);
    // the 1st Red is still in its arc, about 9" off: medium, 4+, -1 for the wheel: 5+. Dice 5, 5,
    // 4, 4, 1: 2 hits, 1 stand (RULE-05-3.3).
    let scenario = range("", BLUE_LINE, RED_LINE);
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    maneuver {\n        wheel \"1st Blue\" +20\n    }\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [5, 5, 4, 4, 1] => hits 2, lost 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let plan = plan_at(&replay, &game, "fire \"1st Blue\"");
    assert_eq!((plan.base, plan.to_hit), (4, 5), "{:#?}", plan.modifiers);
    assert!(plan.modifiers.iter().any(|m| m.value == -1 && m.rule.contains("RULE-05-1.2")), "{plan:#?}");
    // An about face is no wheel: the unit may not fire that turn (Ch16 3.3).
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    maneuver {\n        about_face \"1st Blue\"\n    }\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [5, 5, 4, 4, 1]\n    }\n}\n",
    );
    assert!(refused(&replay, &game, "fire \"1st Blue\"", "Ch16 3.3"), "{:#?}", replay.findings);
}

#[test]
fn rule_05_1_2_a_formation_change_on_turn_one_then_fire_is_minus_one() {
    // The first turn has no earlier positions to compare with; the change of formation alone is
    // what counts. The 1st Blue forms assault column in place and fires its front 2 stands (Ch16
    // 3.2) at 10": 4+, -1 for re-forming (RULE-05-1.2, Ch16 5.1): 5+. Dice 5, 4: 1 hit, a
    // micro-hit.
    let scenario = range("", BLUE_LINE, RED_LINE);
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    maneuver {\n        formation \"1st Blue\" assault_column\n    }\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [5, 4] => hits 1, micro 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let plan = plan_at(&replay, &game, "fire \"1st Blue\"");
    assert_eq!((plan.dice, plan.to_hit), (2, 5), "{:#?}", plan.modifiers);
}

const HORSE_GUNS: &str = "            battery \"Blue Guns\" { sections 2 regular ordnance_rifle limbered horse at (10, 12) facing east }";

#[test]
fn ch16_10_4_a_horse_battery_unlimbers_and_fires_on_turn_one() {
    // Ch16 10.4: horse artillery may unlimber and fire in the same turn. Unlimbering is neither
    // a wheel nor a change of formation (Ch16 2.3 lists it apart), so no -1. Two sections of
    // 3-inch rifles, 4 dice, at the 1st Red 10.6" off (to its corner (20, 15.5)): medium, 4+
    // (Ch16 5.3). Dice 4, 4, 1, 1: 2 hits, 1 stand.
    let scenario = range("", HORSE_GUNS, RED_LINE);
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    maneuver {\n        unlimber \"Blue Guns\"\n    }\n    fire {\n        fire \"Blue Guns\" at \"1st Red\" roll [4, 4, 1, 1] => hits 2, lost 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let plan = plan_at(&replay, &game, "fire \"Blue Guns\"");
    assert_eq!((plan.dice, plan.to_hit), (4, 4), "{:#?}", plan.modifiers);
}

#[test]
fn rulings_c31_a_foot_battery_that_unlimbers_may_not_fire_that_turn() {
    // RULINGS C31: foot artillery cannot fire in the turn it unlimbers, on the first turn or any
    // other. Nothing is applied: the 1st Red keeps its 5 stands.
    let scenario = range("", &HORSE_GUNS.replace(" horse", ""), RED_LINE);
    let unlimber_and_fire = "    maneuver {\n        unlimber \"Blue Guns\"\n    }\n    fire {\n        fire \"Blue Guns\" at \"1st Red\" roll [4, 4, 1, 1]\n    }\n";
    for turns in [
        format!("turn 1 blue {{\n{unlimber_and_fire}}}\n"),
        format!("turn 1 blue {{\n}}\nturn 2 red {{\n}}\nturn 3 blue {{\n{unlimber_and_fire}}}\n"),
    ] {
        let (replay, game) = play(&scenario, &turns);
        assert!(
            refused(&replay, &game, "fire \"Blue Guns\"", "RULINGS C31"),
            "{turns}\n{:#?}",
            replay.findings
        );
        let red = replay.summary.units.iter().find(|u| u.name == "1st Red").map(|u| u.stands);
        assert_eq!(red, Some(5));
    }
}

#[test]
fn ch16_4_3_fire_at_a_garrison_sees_into_its_building_and_saves_on_its_cover() {
    // The 1st Red (2 stands) garrisons a masonry mill 2" square around (20, 18); its stands,
    // facing west with their front edge at x = 20, stand wholly inside the walls. The 1st Blue
    // sees into the building its target holds (Ch16 4.3) and the garrison saves on the
    // structure's heavy cover, 4+ (Ch16 4.3, RULE-05-3.2). Range 10": medium, 4+. Dice 4, 4, 1,
    // 1, 2: 2 hits; saves 4, 1: 1 saved, 1 unsaved hit, a micro-hit. Two stands are Spent
    // (RULINGS C4), so the garrison tests its discipline under fire (RULINGS G9): a 6 passes.
    let mill = "        masonry_building \"Mill\" at (20, 18) size 2 x 2";
    let red = "            regiment \"1st Red\" { stands 2 regular rifled_musket line at (20, 18) facing west in \"Mill\" }";
    let scenario = range(mill, BLUE_LINE, red);
    let (replay, game) = play(
        &scenario,
        "turn 1 blue {\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2] saves [4, 1] discipline [6] => hits 2, saved 1, micro 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(plan_at(&replay, &game, "fire \"1st Blue\"").save.save, Some(4));
    // The garrison fires all round (Ch16 4.3): at the 2nd Blue behind it, to the east, the
    // nearest enemy; its own walls do not block it. 2 stands, 7" (to the 2nd Blue's front
    // edge): medium, 4+. Dice 4, 1: 1 hit, a micro-hit.
    let blue = format!(
        "{BLUE_LINE}\n            regiment \"2nd Blue\" {{ stands 4 regular rifled_musket line at (27, 18) facing west }}"
    );
    let scenario = range(mill, &blue, red);
    let (replay, _) = play(
        &scenario,
        "turn 1 blue {\n}\nturn 2 red {\n    fire {\n        fire \"1st Red\" at \"2nd Blue\" roll [4, 1] => hits 1, micro 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
}

/// Replay `turns` on `scenario` up to `until` (`turn 1 maneuver`), and the markers of `unit` then.
fn markers_at(scenario: &str, turns: &str, until: &str, unit: &str) -> (Replay, Vec<String>) {
    let game = format!("game \"Range\" {{\n    scenario \"range.dotc\"\n}}\n{turns}");
    let analysis = dotc_lang::analyze(Path::new("range-game.dotc"), &game, &Loaded(scenario.to_string()));
    let until = until.parse().ok();
    let replay = replay(&analysis, &ReplayOptions { source: Some(&game), until, ..ReplayOptions::default() });
    let markers = replay.summary.units.iter().find(|u| u.name == unit).map(|u| u.markers.clone());
    (replay, markers.unwrap_or_default())
}

#[test]
fn rule_05_5_4_smoke_clears_at_once_when_its_unit_moves_forward() {
    // RULE-05-5.4, Ch16 5.7, RULINGS C17: a regiment that moves forward in Phase 2 steps out of
    // its own smoke, and the marker is removed then, not in Phase 5. The 1st Blue starts the game
    // in its smoke and advances 2".
    let blue = BLUE_LINE.replace("facing east }", "facing east markers gunsmoke }");
    let scenario = range("", &blue, RED_LINE);
    let advance =
        "turn 1 blue {\n    maneuver {\n        move \"1st Blue\" to (12, 18) facing east\n    }\n}\n";
    let (replay, markers) = markers_at(&scenario, advance, "turn 1 maneuver", "1st Blue");
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(!markers.iter().any(|m| m == "gunsmoke"), "{markers:?}");
    let removed = replay.events.iter().any(|e| {
        e.phase == PhaseKind::Maneuver
            && e.event.rule.contains("RULE-05-5.4")
            && matches!(&e.event.what, What::MarkerRemoved { unit, .. } if unit == "1st Blue")
    });
    assert!(removed, "{:#?}", replay.events);
    // A step back is no step out of its smoke: the marker stays until Phase 5.
    let back = advance.replace("(12, 18)", "(8, 18)");
    let (_, markers) = markers_at(&scenario, &back, "turn 1 maneuver", "1st Blue");
    assert!(markers.iter().any(|m| m == "gunsmoke"), "{markers:?}");
}

#[test]
fn rule_07_3_4_a_failed_shock_save_on_a_disordered_unit_is_a_micro_hit_not_a_disorder_to_claim() {
    // The 1st Red starts Disordered, 6" from the 1st Blue: short range, where one natural 6 is
    // a Shock trigger (RULE-05-4.1). Dice 6, 1, 1, 1, 1: 1 hit, one 6. Its Discipline save:
    // Regular 4+, Fresh +1: 3+ (RULE-05-4.2); it rolls 1 and fails. Already Disordered, it
    // takes a micro-hit instead of a second Disorder (RULE-07-3.4); the hit, unsaved in the
    // open, joins it: 2 hits, 1 stand (RULE-05-3.3). The log claims the stand and no Disorder,
    // and the audit must not ask for one.
    let red = RED_LINE.replace("at (20, 18) facing west }", "at (16, 18) facing west markers disorder }");
    let scenario = range("", BLUE_LINE, &red);
    let (replay, _) = play(
        &scenario,
        "turn 1 blue {\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [6, 1, 1, 1, 1] discipline [1] => hits 1, lost 1\n    }\n}\n",
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let red = replay.summary.units.iter().find(|u| u.name == "1st Red").map(|u| (u.stands, u.micro_hit));
    assert_eq!(red, Some((4, 0)));
}

/// The error findings of the 1st Blue's volley at the 1st Red, five dice rolled, on `scenario`.
fn volley_errors(scenario: &str) -> Vec<String> {
    let log = "turn 1 blue {\n    fire {\n        fire \"1st Blue\" at \"1st Red\" roll [4, 4, 1, 1, 2]\n    }\n}\n";
    let (replay, game) = play(scenario, log);
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    found.into_iter().filter(|f| f.level == Level::Error).map(|f| f.message).collect()
}

#[test]
fn ch16_4_1_a_blocked_line_of_sight_names_what_blocks_it() {
    // The 1st Red stands 6" deep in Miller's Cornfield (x = 14 to 26), where sight ends at 4"
    // (Ch16 4.1): every stand's line runs 6" into the corn. The finding says so, in figures a
    // player can measure.
    let corn = "        cornfield \"Miller's Cornfield\" polygon (14, 10) (26, 10) (26, 26) (14, 26)";
    let errors = volley_errors(&range(corn, BLUE_LINE, RED_LINE));
    let expected = "1st Blue has no clear line of sight to 1st Red: every stand: Miller's Cornfield \
                    (Cornfield / High Crops): the lines run 6.0\" into it, and sight there ends at 4\" \
                    (Ch16 4.1, 4.5)";
    assert_eq!(errors, [expected]);
}

#[test]
fn rule_05_6_1_a_dice_count_finding_says_which_stands_cannot_see() {
    // Kemp Mill (x 14 to 16, y 19 to 21) stands in the line of the 1st Blue's left stand (its
    // line runs along y = 20); the next stand's line along y = 19 only grazes its wall. Four
    // stands fire, the log rolls five dice: the finding says why four.
    let mill = "        masonry_building \"Kemp Mill\" at (15, 20) size 2 x 2";
    let errors = volley_errors(&range(mill, BLUE_LINE, RED_LINE));
    let expected = "the rules give 4 to-hit dice for this volley, the log rolls 5: 5 stands; 1 without a clear \
                    line (RULE-05-6.1); stand 1: the walls of Kemp Mill stand in the way (Ch16 4.3)";
    assert_eq!(errors, [expected]);
}
