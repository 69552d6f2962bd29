//! Fall backs the rules impose, made on the table (RULE-07-1.5, RULINGS C5, Ch16 3.3): the
//! failed-save situation of the rules suite's `fire/limits.dotc` group 5 on the firing range.
//!
//! The 1st Blue (rifled muskets) faces east with its front x = 10, y 15.5-20.5; the 2nd Blue
//! (smoothbores) stands 0.5" to its left, front x = 10, y 21-26, colours (10, 23.5). The 1st Red
//! faces west 5" ahead, front x = 15, y 15.5-20.5: from the 2nd Blue's colours to its nearest
//! corner (15, 20.5) is sqrt(5^2 + 3^2) = 5.83". Fallen back 3" straight back (east, facing kept)
//! its front is x = 18: sqrt(8^2 + 3^2) = 8.54" (smoothbore Medium, 5+).

use super::super::fire::situations::range;
use super::super::*;
use crate::replay::tests::{line_holding, play, problems};

const BLUE: &str = r#"            regiment "1st Blue" { stands 5 regular rifled_musket line at (10, 18) facing east }
            regiment "2nd Blue" { stands 5 regular smoothbore_musket line at (10, 23.5) facing east }"#;
const RED: &str =
    r#"            regiment "1st Red" { stands 5 regular rifled_musket line at (15, 18) facing west }"#;

/// The firing range under RULINGS C5 `fall_back`.
fn fall_back_range() -> String {
    range("", BLUE, RED).replacen(
        "    first_side blue\n",
        "    first_side blue\n    rules {\n        ruling failed_discipline = fall_back\n    }\n",
        1,
    )
}

/// The 1st Blue's volley: [6, 1, 1, 1, 1] at 5" (Short, 4+): 1 hit, a micro-hit; the 6 at Short
/// is a Shock Trigger (Ch16 5.5): regular 4+, Fresh +1 -> 3+, [2] fails: Disorder and, under
/// C5 `fall_back`, 3" back (RULE-07-1.5).
const SHOCK: &str = "        fire \"1st Blue\" at \"1st Red\" roll [6, 1, 1, 1, 1] discipline [2] => hits 1, micro 1, disordered, fell_back\n";
/// The 2nd Blue's volley, [3, 3, 4, 2, 1]: at 8.54" (Medium, 5+) no hit.
const SECOND: &str = "        fire \"2nd Blue\" at \"1st Red\" roll [3, 3, 4, 2, 1] => hits 0\n";

fn log(lines: &str) -> String {
    format!("turn 1 blue {{\n    fire {{\n{lines}    }}\n}}\n")
}

/// The range of the 2nd Blue's volley.
fn second_range(replay: &Replay) -> Option<f64> {
    replay.events.iter().find_map(|e| match &e.event.what {
        What::Volley { firer, range, .. } if firer == "2nd Blue" => Some(*range),
        _ => None,
    })
}

#[test]
fn rulings_c5_fall_back_the_unit_falls_back_3_inches_and_the_next_volley_measures_from_there() {
    let lines = format!("{SHOCK}        fall_back \"1st Red\" to (18, 18)\n{SECOND}");
    let (replay, _) = play(&fall_back_range(), &log(&lines));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let range = second_range(&replay).expect("the second volley");
    assert!((range - 8.544).abs() < 0.01, "{range}");
    let said = replay.events.iter().any(
        |e| matches!(&e.event.what, What::Note { text } if text == "1st Red falls back 3\" to (18, 18)"),
    );
    assert!(said, "{:#?}", replay.events);
    // No stand lost: the second volley hit nothing.
    assert_eq!(replay.summary.units.iter().find(|u| u.name == "1st Red").map(|u| u.stands), Some(5));
}

#[test]
fn rulings_c5_fall_back_left_out_of_the_log_is_an_error_and_the_replay_makes_it() {
    let lines = format!("{SHOCK}{SECOND}");
    let (replay, game) = play(&fall_back_range(), &log(&lines));
    let found = problems(&replay);
    assert_eq!(found.len(), 1, "{found:#?}");
    let lines_index = dotc_lang::model::LineIndex::new(&game);
    assert_eq!(lines_index.line(found[0].span.start), line_holding(&game, "fire \"1st Blue\"", 0));
    assert!(found[0].message.contains("add `fall_back \"1st Red\" to (18, 18)`"), "{:#?}", found[0]);
    assert!(found[0].rule.contains("RULE-07-1.5") && found[0].rule.contains("Ch16 3.3"), "{:#?}", found[0]);
    // The replay moved it: the second volley is at 8.54", not 5.83".
    let range = second_range(&replay).expect("the second volley");
    assert!((range - 8.544).abs() < 0.01, "{range}");
}

#[test]
fn rulings_c5_fall_back_to_the_wrong_place_is_an_error() {
    // 2" back instead of 3": 1" from where the rules put it; the replay puts it there anyway.
    let lines = format!("{SHOCK}        fall_back \"1st Red\" to (17, 18)\n{SECOND}");
    let (replay, game) = play(&fall_back_range(), &log(&lines));
    let found = problems(&replay);
    assert_eq!(found.len(), 1, "{found:#?}");
    let lines_index = dotc_lang::model::LineIndex::new(&game);
    assert_eq!(lines_index.line(found[0].span.start), line_holding(&game, "fall_back", 0));
    assert!(found[0].message.contains("to (18, 18) facing 270; the log puts it 1.00\""), "{:#?}", found[0]);
    let range = second_range(&replay).expect("the second volley");
    assert!((range - 8.544).abs() < 0.01, "{range}");
}

#[test]
fn rulings_c5_specific_no_fall_back_is_owed_and_a_fall_back_line_in_the_fire_phase_is_an_error() {
    // C5 `specific` (the default): the failed save is a Disorder only (RULE-05-4.2); a
    // `fall_back` line in Phase 3 is then no move of the rules' (Ch16 3.3: a Phase 2 move).
    let shock = SHOCK.replace(", fell_back", "");
    let lines = format!("{shock}        fall_back \"1st Red\" to (18, 18)\n");
    let (replay, _) = play(&range("", BLUE, RED), &log(&lines));
    let found = problems(&replay);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("1st Red owes no fall back here"), "{:#?}", found[0]);
}

#[test]
fn rulings_g14_an_open_order_unit_overrun_by_a_formed_charge_falls_back_3_inches_on_the_table() {
    // Ch13 22.0, RULINGS G14: the 1st Blue (a formed line, colours (12, 18) facing east) charges
    // the 1st Red, in open order with its colours at (18, 18) facing west, 6" off. A formed
    // charge overruns Open Order without a melee: a stand lost, a Disorder marker, and 3" back
    // (the stdlib's `charged overrun 1 fall_back 3`), straight back with its facing kept: its
    // colours to (21, 18). The log records it on the line after the assault.
    let scenario = range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket open_order at (18, 18) facing west }",
    );
    let charge = |after: &str| {
        format!(
            "turn 1 blue {{\n    command {{\n        pips \"Col. Blue\" roll [6] => 3\n    }}\n    maneuver {{\n        \
             assault \"1st Blue\" -> \"1st Red\" pip \"Col. Blue\" {{\n            contact\n        }}\n{after}    }}\n}}\n"
        )
    };
    let (replay, _) = play(&scenario, &charge("        fall_back \"1st Red\" to (21, 18)\n"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let moved = replay.events.iter().any(
        |e| matches!(&e.event.what, What::Note { text } if text == "1st Red falls back 3\" to (21, 18)"),
    );
    assert!(moved, "{:#?}", replay.events);
    // Left out: the finding names the line to add, at the assault.
    let (replay, _) = play(&scenario, &charge(""));
    let found = problems(&replay);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].message.contains("add `fall_back \"1st Red\" to (21, 18)`"), "{:#?}", found[0]);
    assert!(found[0].rule.contains("RULINGS G14"), "{:#?}", found[0]);
}
