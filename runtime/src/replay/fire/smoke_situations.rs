//! Smoke Walls in the replay (RULE-05-5.5, Ch16 5.7, RULINGS C32, dotc D5): situations replayed
//! through the audit, worked by hand; the arithmetic is in the comments.
//!
//! The wall range (group 6 of the rules suite's `fire/limits.dotc`, moved 180" west): union
//! regiments W1, W2 and W3 face north with their colours at (14, 10), (20, 10) and (26, 10),
//! fronts x = 11.5-16.5, 17.5-22.5 and 23.5-28.5 (1" intervals, Ch16 3.3); their markers
//! (RULE-05-5.1) stand 1" square against the middle of their fronts, y = 10-11. WB, an
//! ordnance-rifle battery of 2 sections, stands behind them on a level 1 hill, its muzzles at
//! (20, 2), 7.25" from their rear (y = 9.25): it may fire over them (RULE-05-6.3, Ch16 4.4).

use super::super::*;
use crate::replay::tests::{play, problems};

/// The wall range with the third regiment in `third_brigade` and the confederate units `red`.
fn wall_range(third_brigade: &str, red: &str) -> String {
    let third = if third_brigade == "Wall Brigade" {
        "            regiment \"W3\" { stands 5 regular rifled_musket line at (26, 10) facing north }\n"
            .to_string()
    } else {
        String::new()
    };
    let other = if third_brigade == "Wall Brigade" {
        String::new()
    } else {
        format!(
            "        brigade \"{third_brigade}\" {{\n            brigadier \"Col. Other\" reliable at (34, 5)\n            regiment \"W3\" {{ stands 5 regular rifled_musket line at (26, 10) facing north }}\n        }}\n"
        )
    };
    format!(
        r#"scenario "Wall Range" {{
    start 10:00
    turn_length 15 min
    turns 4
    first_side union
    table 48 x 36
    terrain {{
        hill "Wall Hill" level 1 polygon (15, 0) (25, 0) (25, 3) (15, 3) crest (15, 2.5) (25, 2.5)
    }}
    side union "North" {{
        edge south
        brigade "Wall Brigade" {{
            brigadier "Col. Wall" reliable at (6, 5)
            regiment "W1" {{ stands 5 regular rifled_musket line at (14, 10) facing north }}
            regiment "W2" {{ stands 5 regular rifled_musket line at (20, 10) facing north }}
{third}        }}
{other}        battery "WB" {{ sections 2 regular ordnance_rifle unlimbered at (20, 2) facing north }}
    }}
    side confederate "South" {{
        edge north
{red}
    }}
}}
"#
    )
}

/// Z1, Z2 and Z3: a confederate line 10" ahead of each wall regiment; WB's nearest target is Z2,
/// 18" from its muzzles.
const TARGETS: &str = r#"        regiment "Z1" { stands 5 regular rifled_musket line at (14, 20) facing south }
        regiment "Z2" { stands 5 regular rifled_musket line at (20, 20) facing south }
        regiment "Z3" { stands 5 regular rifled_musket line at (26, 20) facing south }"#;

/// The three regiments (or the first `firing` of them) fire without a hit, then WB at Z2.
fn volleys(firing: usize) -> String {
    let mut lines = String::new();
    for (w, z) in [("W1", "Z1"), ("W2", "Z2"), ("W3", "Z3")].iter().take(firing) {
        lines.push_str(&format!("        fire \"{w}\" at \"{z}\" roll [1, 2, 3, 1, 2] => hits 0\n"));
    }
    format!(
        "turn 1 union {{\n    fire {{\n{lines}        fire \"WB\" at \"Z2\" roll [4, 5, 5, 3]\n    }}\n}}\n"
    )
}

fn stands(replay: &Replay, unit: &str) -> u32 {
    replay.summary.units.iter().find(|u| u.name == unit).map_or(0, |u| u.stands)
}

/// The errors on the line holding `text`.
fn errors_at(replay: &Replay, game: &str, text: &str) -> Vec<Finding> {
    let line = crate::replay::tests::line_holding(game, text, 0);
    crate::replay::tests::findings_on_line(game, replay, line)
        .into_iter()
        .filter(|f| f.level == Level::Error)
        .collect()
}

#[test]
fn rule_05_5_5_a_battery_may_not_fire_through_its_brigades_smoke_wall_beyond_8_inches() {
    // W1, W2 and W3 fire (no hit) and place their markers: three adjacent regiments of Wall
    // Brigade, so the markers merge into a Smoke Wall (RULE-05-5.5, RULINGS C32). WB's range
    // line to Z2 (18") crosses it: beyond 8", no sight, no volley; Z2 keeps its 5 stands.
    let (replay, game) = play(&wall_range("Wall Brigade", TARGETS), &volleys(3));
    let errors = errors_at(&replay, &game, "fire \"WB\"");
    assert_eq!(errors.len(), 1, "{:#?}", replay.findings);
    let said = &errors[0];
    assert!(said.rule.contains("RULE-05-5.5") && said.rule.contains("dotc D5"), "{said:#?}");
    for words in ["W1, W2 and W3", "(Wall Brigade)", "Z2 is 18.0\" away", "beyond the 8\""] {
        assert!(said.message.contains(words), "{words}: {said:#?}");
    }
    assert_eq!(stands(&replay, "Z2"), 5);
    // Nothing else is wrong with the log.
    assert_eq!(problems(&replay).len(), 1, "{:#?}", replay.findings);
}

#[test]
fn rule_05_5_5_two_regiments_firing_make_no_wall_only_smoke() {
    // Only W1 and W2 fire: two markers, no wall. WB's line crosses W2's marker beyond 6": -1
    // (RULE-05-5.2): Medium 4+ -> 5+, [4, 5, 5, 3] -> 2 hits = 1 stand (Ch16 5.4).
    let (replay, _) = play(&wall_range("Wall Brigade", TARGETS), &volleys(2));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(stands(&replay, "Z2"), 4);
}

#[test]
fn rulings_c32_three_regiments_of_two_brigades_make_no_wall() {
    // W3 belongs to Other Brigade: three adjacent regiments, but not of one brigade (RULINGS
    // C32), so no wall; WB fires at -1 for W2's marker and takes a stand, as above.
    let (replay, _) = play(&wall_range("Other Brigade", TARGETS), &volleys(3));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(stands(&replay, "Z2"), 4);
}

#[test]
fn dotc_d5_fire_at_a_wall_regiment_from_beyond_8_inches_is_smoke_or_blocked() {
    // ZB, a confederate ordnance-rifle battery at (20, 28) facing south, is the wall's target:
    // 18" from W2's colours, Long for the rifled muskets (5+): [1, 2, 3, 1, 2] misses. In the
    // confederate turn ZB fires back at W2, 18" from its muzzles to W2's front (y = 10). Its line
    // ends in W2's marker, inside the wall.
    let red =
        r#"        battery "ZB" { sections 2 regular ordnance_rifle unlimbered at (20, 28) facing south }"#;
    let log = "turn 1 union {\n    fire {\n        fire \"W1\" at \"ZB\" roll [1, 2, 3, 1, 2] => hits 0\n        fire \"W2\" at \"ZB\" roll [1, 2, 3, 1, 2] => hits 0\n        fire \"W3\" at \"ZB\" roll [1, 2, 3, 1, 2] => hits 0\n    }\n}\nturn 2 confederate {\n    fire {\n        fire \"ZB\" at \"W2\" roll [4, 5, 5, 3]\n    }\n}\n";
    // D5 `lines_across` (the default): the line does not cross the wall, it goes into the smoke
    // at W2: -1 (RULE-05-5.2): Medium 4+ -> 5+, [4, 5, 5, 3] -> 2 hits = 1 stand.
    let (replay, _) = play(&wall_range("Wall Brigade", red), log);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert_eq!(stands(&replay, "W2"), 4);
    // D5 `any_line`: the line meets the wall beyond 8": blocked, W2 keeps its stands.
    let any_line = wall_range("Wall Brigade", red).replacen(
        "    first_side union\n",
        "    first_side union\n    rules {\n        ruling smoke_wall_blocks = any_line\n    }\n",
        1,
    );
    let (replay, game) = play(&any_line, log);
    let errors = errors_at(&replay, &game, "fire \"ZB\"");
    assert_eq!(errors.len(), 1, "{:#?}", replay.findings);
    assert!(errors[0].message.contains("the line meets it"), "{:#?}", errors[0]);
    assert!(errors[0].message.contains("W1, W2 and W3"), "{:#?}", errors[0]);
    assert_eq!(stands(&replay, "W2"), 5);
}

#[test]
fn dotc_d5_a_wall_regiment_fires_out_of_its_own_wall_at_minus_one_by_default() {
    // Turn 3, the union again: W2 fires at ZB, 18" away through its own smoke. D5
    // `lines_across`: the wall does not block its own regiments' fire out of it, which is the
    // marker's -1 (RULE-05-5.2): Long 5+ -> 6+: [6, 6, 5, 1, 1] -> 2 hits; two 6s beyond 6" are
    // a Shock Trigger (Ch16 5.5): ZB, a regular battery, Fresh: 4+ with +1 -> 3+, [5] holds.
    let red =
        r#"        battery "ZB" { sections 2 regular ordnance_rifle unlimbered at (20, 28) facing south }"#;
    let opening = "turn 1 union {\n    fire {\n        fire \"W1\" at \"ZB\" roll [1, 2, 3, 1, 2] => hits 0\n        fire \"W2\" at \"ZB\" roll [1, 2, 3, 1, 2] => hits 0\n        fire \"W3\" at \"ZB\" roll [1, 2, 3, 1, 2] => hits 0\n    }\n}\nturn 2 confederate {\n    fire {\n    }\n}\n";
    let log = format!(
        "{opening}turn 3 union {{\n    fire {{\n        fire \"W2\" at \"ZB\" roll [6, 6, 5, 1, 1] discipline [5]\n    }}\n}}\n"
    );
    let (replay, game) = play(&wall_range("Wall Brigade", red), &log);
    assert!(errors_at(&replay, &game, "[6, 6, 5, 1, 1]").is_empty(), "{:#?}", replay.findings);
    let to_hit = replay.events.iter().find_map(|e| match &e.event.what {
        What::Volley { firer, to_hit, .. } if firer == "W2" && e.turn == 3 => Some(*to_hit),
        _ => None,
    });
    assert_eq!(to_hit, Some(6), "{:#?}", replay.findings);
}
