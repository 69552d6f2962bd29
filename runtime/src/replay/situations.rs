//! Small command, morale and assault situations, each a scenario and a log replayed through the
//! audit, worked by hand from the rulebook (issue 14's command and morale defects). Each test
//! names the rule it holds the replay to; the arithmetic is in its comments.
//!
//! The field: blue on the west, red on the east, 10" apart, each brigadier 2" behind his
//! regiment. A 5-stand line is 5" wide and 0.75" deep; a position is the centre of its front
//! edge.

use super::*;
use crate::replay::tests::{findings_on_line, line_holding, play, problems};

/// A scenario on the field with the given brigadier lines and units of each side.
fn field(blue: &str, red: &str) -> String {
    format!(
        r#"scenario "The Field" {{
    start 10:00
    turn_length 15 min
    turns 8
    first_side blue
    table 48 x 36
    side blue "Blue" {{
        edge west
        brigade "Blue Brigade" {{
{blue}
        }}
    }}
    side red "Red" {{
        edge east
        brigade "Red Brigade" {{
{red}
        }}
    }}
}}
"#
    )
}

const BLUE: &str = "            brigadier \"Col. Blue\" reliable at (8, 18)
            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (10, 18) facing east }";
const RED: &str = "            brigadier \"Col. Red\" reliable at (22, 18)
            regiment \"1st Red\" { stands 5 regular rifled_musket line at (20, 18) facing west }";

/// The findings on the line holding `text`.
fn findings_at(replay: &Replay, game: &str, text: &str) -> Vec<Finding> {
    findings_on_line(game, replay, line_holding(game, text, 0))
}

/// Turn 1: the 1st Blue's volley disorders the 1st Red. 10" is medium range for rifled muskets,
/// 4+ to hit (Ch16 5.2): 6, 6, 1, 1, 1 is 2 hits, two natural 6s, a Shock Trigger at medium
/// range (Ch16 5.5): the 1st Red (regular, 4+, Fresh +1: 3+) fails its Discipline Save on a 1
/// and is Disordered.
/// In the open there is no save: 2 hits take 1 stand (RULE-05-3.3).
/// Col. Red rolls his pips in this Phase 1 too (both sides roll every Phase 1, RULINGS G8): a 1
/// is 1 pip, spent on nothing and lost at the turn's end.
const RED_DISORDERED: &str = "turn 1 blue {
    command {
        pips \"Col. Red\" roll [1] => 1
    }
    fire {
        fire \"1st Blue\" at \"1st Red\" roll [6, 6, 1, 1, 1] discipline [1] => hits 2, lost 1, disordered
    }
}
";

/// The log of turn 1 then red's turn 2 with `phases`; Col. Red (reliable) rolls a 4 in its
/// Phase 1: 1D3 = 2 pips (Ch16 2.1, RULINGS G2).
fn red_turn_two(phases: &str) -> String {
    format!(
        "{RED_DISORDERED}turn 2 red {{\n    command {{\n        pips \"Col. Red\" roll [4] => 2\n    }}\n{phases}}}\n"
    )
}

#[test]
fn rule_07_3_2_a_command_rally_bought_with_pips_in_phase_five() {
    // Turn 2, red's: Col. Red has 2 pips. The 1st Red moves in Phase 2, so it may not rally naturally (RULE-07-3.3); in Phase 5 Col.
    // Red, 2" away, spends 1 of his unspent pips to take its Disorder off, no roll (RULE-07-3.2,
    // Ch16 8.3: a command rally in Phase 1 or 5, 1 pip within 12").
    let log = red_turn_two(
        "    maneuver {\n        move \"1st Red\" to (21, 18) facing west\n    }
    status {\n        rally \"1st Red\" pip \"Col. Red\" => rallied\n    }\n",
    );
    let (replay, _) = play(&field(BLUE, RED), &log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let red = replay.summary.units.iter().find(|u| u.name == "1st Red").expect("the 1st Red");
    assert!(!red.markers.iter().any(|m| m.contains("Disorder")), "{red:#?}");
    let paid = replay.events.iter().any(|e| {
        matches!(&e.event.what, What::Pips { brigade, change: -1, pips: 1, .. } if brigade == "Red Brigade")
    });
    assert!(paid, "the rally is paid with 1 of the 2 pips: {:#?}", replay.events);
}

#[test]
fn rule_07_3_2_a_phase_five_rally_paid_by_another_brigadier_is_refused() {
    // The `pip` must name the unit's own brigadier (RULE-07-3.2: the parent brigadier's pips).
    let log = red_turn_two("    status {\n        rally \"1st Red\" pip \"Col. Blue\" => rallied\n    }\n");
    let (replay, game) = play(&field(BLUE, RED), &log);
    let found = findings_at(&replay, &game, "rally \"1st Red\"");
    assert!(
        found.iter().any(|f| f.level == Level::Error && f.message.contains("Col. Red commands")),
        "{found:#?}"
    );
}

#[test]
fn rule_07_3_3_a_phase_five_rally_without_pips_is_still_a_natural_rally() {
    // No `pip`: the natural rally of RULE-07-3.3 on the 1st Red's die (regular, 4+; Ch16 8.3).
    // It did not move, fire or take fire in turn 2: a 4 rallies it.
    let log = format!(
        "{RED_DISORDERED}turn 2 red {{\n    command {{\n        pips \"Col. Red\" roll [1] => 1\n    }}\n    status {{\n        rally \"1st Red\" roll [4] => rallied\n    }}\n}}\n"
    );
    let (replay, _) = play(&field(BLUE, RED), &log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    // Nothing is paid: Col. Red's pip is rolled and left unspent.
    assert!(replay.events.iter().all(|e| !matches!(e.event.what, What::Pips { change, .. } if change < 0)));
}

/// Turn 2, red's: the 1st Red's volley at the 1st Blue, which Col. Blue rides with. 6, 6, 1, 1,
/// 1 at 10" is 2 hits with two natural 6s (Ch16 5.2, 5.5): 1 stand lost in the open
/// (RULE-05-3.3) and a Shock save the 1st Blue passes on a 5. The stand lost with a leader
/// attached calls for his casualty roll (Ch16 2.4, RULINGS C9): a 6 kills him, and a Timid
/// colonel takes the brigade over from the next turn for good (RULINGS G18); his death
/// disorders the 1st Blue (Ch16 2.4).
const BLUE_BRIGADIER_KILLED: &str = "turn 1 blue {
}
turn 2 red {
    fire {
        fire \"1st Red\" at \"1st Blue\" roll [6, 6, 1, 1, 1] discipline [5] leader_casualty [6] => hits 2, lost 1, disordered, leader killed
    }
}
";

#[test]
fn ch16_2_4_the_replacement_colonel_rolls_his_brigades_pips_by_his_default_name() {
    // Turn 3, blue's: the colonel who replaced Col. Blue, named "Col. replacing Col. Blue" since
    // the scenario names no one, rolls the brigade's pips as a Timid leader: a 5 is 1D3 = 3,
    // halved and rounded up = 2 (Ch16 2.1, 2.4, RULINGS G2).
    let blue = BLUE.replace("reliable at (8, 18)", "reliable attached \"1st Blue\"");
    let log = format!(
        "{BLUE_BRIGADIER_KILLED}turn 3 blue {{\n    command {{\n        pips \"Col. replacing Col. Blue\" roll [5] => 2\n    }}\n}}\n"
    );
    let (replay, _) = play(&field(&blue, RED), &log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let pips = replay
        .events
        .iter()
        .any(|e| matches!(&e.event.what, What::Pips { brigade, pips: 2, .. } if brigade == "Blue Brigade"));
    assert!(pips, "{:#?}", replay.events);
}

#[test]
fn ch16_2_4_a_replacement_the_scenario_names_is_timid_by_that_name() {
    // The scenario names the replacement (`replacement "Maj. Green"`). A wrong pip count is
    // found against the Timid formula: a 6 is 1D3 = 3, halved and rounded up = 2, not 3
    // (Ch16 2.1, 2.4).
    let blue =
        BLUE.replace("reliable at (8, 18)", "reliable attached \"1st Blue\" replacement \"Maj. Green\"");
    let log = format!(
        "{BLUE_BRIGADIER_KILLED}turn 3 blue {{\n    command {{\n        pips \"Maj. Green\" roll [6] => 3\n    }}\n}}\n"
    );
    let (replay, game) = play(&field(&blue, RED), &log);
    let found = findings_at(&replay, &game, "pips \"Maj. Green\"");
    assert!(found.iter().any(|f| f.message.contains("the rules give 2, the log claims 3")), "{found:#?}");
}

#[test]
fn ch16_2_4_a_replacement_who_never_took_command_is_read_as_the_leader_still_up() {
    // A what-if replay with a scenario's option about a fall switched off: the log names the
    // replacement, Maj. Green, but Col. Blue is still up. His pips line is read as reliable Col.
    // Blue's (a 5 is 1D3 = 3, not the timid colonel's 2) and the pip the regiment's move is paid
    // with is Col. Blue's, each with a warning to write his name (Ch16 2.4, RULINGS G18, the
    // mirror of a fallen brigadier's line read as his colonel's).
    let blue = BLUE.replace("reliable at (8, 18)", "reliable at (8, 18) replacement \"Maj. Green\"");
    let log = "turn 1 blue {\n    command {\n        pips \"Maj. Green\" roll [5] => 3\n    }\n    maneuver {\n        \
               double_time \"1st Blue\" to (11, 18) facing east pip \"Maj. Green\"\n    }\n}\n";
    let (replay, game) = play(&field(&blue, RED), log);
    assert!(problems(&replay).iter().all(|f| f.level != Level::Error), "{:#?}", replay.findings);
    let pips = replay
        .events
        .iter()
        .any(|e| matches!(&e.event.what, What::Pips { brigade, pips: 3, change: 3, .. } if brigade == "Blue Brigade"));
    assert!(pips, "{:#?}", replay.events);
    let warned = |line: &str, says: &str| {
        findings_at(&replay, &game, line)
            .iter()
            .any(|f| f.level == Level::Warning && f.message.contains(says))
    };
    assert!(warned("pips \"Maj. Green\"", "Maj. Green has not taken command: Col. Blue is still up"));
    assert!(warned(
        "double_time \"1st Blue\"",
        "Maj. Green has not taken command: Col. Blue is still up, and the pip is his"
    ));
}

#[test]
fn wording_a_scenario_without_scripts_does_not_say_its_objectives_are_a_script() {
    // The 1st Blue stands on an objective of a scenario with no script: the narrative's step at
    // the start of a phase, where the objectives are counted, names the objectives, not a script.
    let scenario = field(BLUE, RED).replacen(
        "    side blue",
        "    terrain {\n        objective \"Hill\" at (10, 18) vp 2\n    }\n    side blue",
        1,
    );
    let (replay, _) = play(&scenario, "turn 1 blue {\n    fire {\n    }\n}\n");
    let narrative = replay.narrative();
    assert!(narrative.contains("phase begins: scenario objectives"), "{narrative}");
    assert!(!narrative.contains("scenario script"), "{narrative}");
}

#[test]
fn ch16_3_3_a_passage_of_lines_names_the_friend_passed_through() {
    // The 2nd Blue, 4" behind the 1st Blue, moves through it to 2" in front: a passage of lines
    // (Ch16 3.3, RULINGS C8), said with the friend's name, not his place in a list.
    let blue = format!(
        "{BLUE}\n            regiment \"2nd Blue\" {{ stands 5 regular rifled_musket line at (6, 18) facing east }}"
    );
    let log = "turn 1 blue {\n    maneuver {\n        move \"2nd Blue\" to (12, 18) facing east\n    }\n}\n";
    let (replay, _) = play(&field(&blue, RED), log);
    let narrative = replay.narrative();
    assert!(narrative.contains("passes through 1st Blue"), "{narrative}");
    assert!(!narrative.contains("friendly unit 0"), "{narrative}");
}

/// Ch16 2.2: a regiment in the distant courier tier (12.1-24") or out of communication takes -1
/// on every Discipline check; its brigadier attached cancels it (Ch16 2.4). The 1st Blue's
/// volley of turn 1 (see [`RED_DISORDERED`]: two natural 6s at 10", a Shock save) on the 1st Red,
/// regular 4+ and Fresh +1: 3+, and the die is a 3.
#[test]
fn ch16_2_2_distant_tier_takes_one_off_a_shock_save() {
    let log = "turn 1 blue {
    fire {
        fire \"1st Blue\" at \"1st Red\" roll [6, 6, 1, 1, 1] discipline [3] => hits 2, lost 1
    }
}
";
    // Col. Red 2" behind: Tier 1, 3+ and the 3 passes.
    let (replay, _) = play(&field(BLUE, RED), log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    // Col. Red 20" behind the colours (19.5" from his base's edge, dotc D7): Tier 3, -1: 4+, the
    // 3 fails and the 1st Red is Disordered.
    let far = RED.replace("at (22, 18)", "at (40, 18)");
    let (replay, game) = play(&field(BLUE, &far), log);
    let found = findings_at(&replay, &game, "fire \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.message.contains("Disorder") && f.rule.contains("RULE-05-4.2")),
        "{found:#?}"
    );
    assert!(
        replay.events.iter().any(|e| matches!(&e.event.what,
            What::Test { modifiers, needed: 4, passed: false, .. }
                if modifiers.iter().any(|m| m.value == -1 && m.rule == "Ch16 2.2"))),
        "{:#?}",
        replay.events
    );
    // Attached to the regiment he cancels the tier's penalty (Ch16 2.4) and adds his +1
    // (RULE-07-4.2): 2+, passed. The stand lost calls his casualty roll: a 1, unhurt.
    let attached = RED.replace("at (22, 18)", "attached \"1st Red\"");
    let log = log.replace("discipline [3]", "discipline [3] leader_casualty [1]");
    let (replay, _) = play(&field(BLUE, &attached), &log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
}
