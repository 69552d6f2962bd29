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
const RED_DISORDERED: &str = "turn 1 blue {
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
        "{RED_DISORDERED}turn 2 red {{\n    status {{\n        rally \"1st Red\" roll [4] => rallied\n    }}\n}}\n"
    );
    let (replay, _) = play(&field(BLUE, RED), &log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(replay.events.iter().all(|e| !matches!(e.event.what, What::Pips { .. })));
}
