//! Small situations of fire at a solitary brigadier (RULE-07-4.5, dotc D3) and at a skirmish
//! screen (Ch16 3.4, RULINGS G12), replayed through the audit. Each test names the rule it holds
//! the replay to; the arithmetic is in its comments.
//!
//! The firing range of [`super::situations::range`]: the 1st Blue in line at (10, 18) facing
//! east, 5 stands of rifled muskets (Ch16 5.2: 4+ to 14"), no optional module on.

use super::super::*;
use super::situations::{findings_at, range};
use crate::replay::tests::{play, problems};

const BLUE_LINE: &str =
    "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (10, 18) facing east }";

/// The range with the Red brigadier moved to `at`, and red's regiment as given.
fn with_red_brigadier(at: &str, red: &str) -> String {
    range("", BLUE_LINE, red).replace(
        "brigadier \"Col. Red\" reliable at (46, 34)",
        &format!("brigadier \"Col. Red\" reliable at {at}"),
    )
}

fn fire_log(line: &str) -> String {
    format!("turn 1 blue {{\n    fire {{\n        {line}\n    }}\n}}\n")
}

fn leader_removed(replay: &Replay, name: &str) -> bool {
    replay
        .events
        .iter()
        .any(|e| matches!(&e.event.what, What::LeaderReplaced { leader, .. } if leader == name))
}

const FAR_RED: &str =
    "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (30, 18) facing west }";

#[test]
fn rule_07_4_5_a_solitary_brigadier_within_6_inches_and_nearest_is_fired_at_and_rolls_on_a_hit() {
    // Col. Red stands alone 5" in front of the 1st Blue's colours; the 1st Red is 20" off. He
    // is the nearest enemy it sees and within 6": a legal target (RULE-07-4.5). 5 dice at 4+
    // (short): 4, 1, 2, 1, 1 is 1 hit; under dotc D3 `any_hit` the hit calls
    // one casualty roll (Ch16 2.4): a 5 is Severely Wounded / Captured, he leaves the table.
    let scenario = with_red_brigadier("(15, 18)", FAR_RED);
    let (replay, game) = play(
        &scenario,
        &fire_log(
            "fire \"1st Blue\" at \"Col. Red\" roll [4, 1, 2, 1, 1] leader_casualty [5] => hits 1, severely wounded",
        ),
    );
    assert!(problems(&replay).is_empty(), "{:#?} {:#?}", replay.findings, replay.events);
    assert!(leader_removed(&replay, "Col. Red"), "{:#?}", replay.events);
    let _ = game;
    // A wrong claim of the row is a finding citing the rule.
    let (replay, game) = play(
        &scenario,
        &fire_log(
            "fire \"1st Blue\" at \"Col. Red\" roll [4, 1, 2, 1, 1] leader_casualty [4] => hits 1, killed",
        ),
    );
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule.contains("RULE-07-4.5") && f.message.contains("Lightly Wounded")),
        "{found:#?}"
    );
    assert!(!leader_removed(&replay, "Col. Red"));
}

#[test]
fn rule_07_4_5_a_brigadier_beyond_6_inches_may_not_be_fired_at() {
    // 7" from the colours: beyond the 6" of RULE-07-4.5, whatever else is near.
    let scenario = with_red_brigadier("(17, 18)", FAR_RED);
    let (replay, game) = play(&scenario, &fire_log("fire \"1st Blue\" at \"Col. Red\" roll [6, 6, 6, 6, 6]"));
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    assert!(
        found
            .iter()
            .any(|f| f.level == Level::Error && f.rule == "RULE-07-4.5" && f.message.contains("7.0\"")),
        "{found:#?}"
    );
    assert!(!replay.events.iter().any(|e| matches!(e.event.what, What::Volley { .. })));
}

#[test]
fn rule_07_4_5_a_brigadier_with_a_nearer_enemy_in_sight_may_not_be_fired_at() {
    // The 1st Red stands 4" off (its front at x = 14), Col. Red 5" off behind its flank at
    // (15, 24): the regiment is nearer, so the brigadier is no target; the finding names it.
    let near_red = FAR_RED.replace("(30, 18)", "(14, 18)");
    let scenario = with_red_brigadier("(13, 22)", &near_red);
    let (replay, game) = play(&scenario, &fire_log("fire \"1st Blue\" at \"Col. Red\" roll [6, 6, 6, 6, 6]"));
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule == "RULE-07-4.5" && f.message.contains("1st Red is 4.0\" away")),
        "{found:#?}"
    );
}

#[test]
fn rule_07_4_5_an_attached_brigadier_is_no_target_of_his_own() {
    // Col. Red rides with the 1st Red: RULE-07-4.5 is for a brigadier on his own.
    let scenario = range("", BLUE_LINE, FAR_RED).replace(
        "brigadier \"Col. Red\" reliable at (46, 34)",
        "brigadier \"Col. Red\" reliable attached \"1st Red\"",
    );
    let (replay, game) = play(&scenario, &fire_log("fire \"1st Blue\" at \"Col. Red\" roll [6, 6, 6, 6, 6]"));
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule.contains("RULE-07-4.5") && f.message.contains("attached to 1st Red")),
        "{found:#?}"
    );
}

#[test]
fn dotc_d3_natural_six_calls_the_roll_only_on_a_six() {
    // The same volley, 1 hit and no 6, under `natural_six`: no roll, so no leader die is used.
    let scenario = with_red_brigadier("(15, 18)", FAR_RED).replacen(
        "    first_side blue\n",
        "    first_side blue\n    rules {\n        ruling solitary_brigadier_hit = natural_six\n    }\n",
        1,
    );
    let (replay, _) =
        play(&scenario, &fire_log("fire \"1st Blue\" at \"Col. Red\" roll [4, 1, 2, 1, 1] => hits 1"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(!replay.events.iter().any(|e| matches!(e.event.what, What::LeaderCasualty { .. })));
    // A 6 calls it: 6, 1, 1, 1, 1 and a roll of 6, killed.
    let (replay, _) = play(
        &scenario,
        &fire_log(
            "fire \"1st Blue\" at \"Col. Red\" roll [6, 1, 1, 1, 1] leader_casualty [6] => hits 1, killed",
        ),
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(leader_removed(&replay, "Col. Red"));
}

const SCREENED_RED: &str = "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (22, 18) facing west screen at (19.5, 18) }";

fn stands_of(replay: &Replay, unit: &str) -> u32 {
    replay.summary.units.iter().find(|u| u.name == unit).map_or(0, |u| u.stands)
}

#[test]
fn g12_a_screen_fired_at_takes_each_hit_without_a_save_and_goes_at_two_as_a_parent_stand() {
    // The 1st Red's screen stands 2.5" ahead of it, 9.5" from the 1st Blue's colours: medium,
    // 4+. The screen stands in skirmish order; the plan gives its to-hit. Two
    // hits remove it with no save (RULINGS G12) and cost the 1st Red a stand.
    let scenario = range("", BLUE_LINE, SCREENED_RED);
    let (replay, game) = play(
        &scenario,
        &fire_log(
            "fire \"1st Blue\" at \"1st Red\" screen roll [6, 6, 1, 1, 1] => hits 2, screen removed, lost 1",
        ),
    );
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(stands_of(&replay, "1st Red"), 4);
    // A claim of one hit on the screen is a finding citing G12.
    let (replay, game2) = play(
        &scenario,
        &fire_log("fire \"1st Blue\" at \"1st Red\" screen roll [6, 1, 1, 1, 1] => hits 1, screen hits 2"),
    );
    let found = findings_at(&replay, &game2, "fire \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule.contains("RULINGS G12") && f.message.contains("the rules give 1")),
        "{found:#?}"
    );
    assert_eq!(stands_of(&replay, "1st Red"), 5);
    let _ = game;
}

#[test]
fn g12_a_regiment_without_a_screen_out_has_no_screen_to_fire_at() {
    let scenario = range("", BLUE_LINE, FAR_RED);
    let (replay, game) =
        play(&scenario, &fire_log("fire \"1st Blue\" at \"1st Red\" screen roll [6, 6, 6, 6, 6]"));
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule.contains("RULINGS G12") && f.message.contains("no skirmish screen")),
        "{found:#?}"
    );
}
