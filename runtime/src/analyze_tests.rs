//! The time-and-motion report on a small hand-worked scenario.

use super::*;

/// Blue's line regiment at (2.25, 10.25) and an objective 28" east with a 3" radius: 25" to go.
/// A line's best is an assault column's 8" a move (Ch16 3.1; the change, Ch16 3.2, taken free):
/// 24" in three moves, 32" in four. Blue moves on the odd
/// turns. Red's brigade is due at 11:00, turn 5 (15-minute turns from 10:00, RULINGS G7), a
/// blue turn, so it enters on turn 6, its `enter` being that turn's maneuver.
fn scenario(turns: u32) -> Scenario {
    let source = format!(
        r#"scenario "T" {{
    start 10:00
    turn_length 15 min
    turns {turns}
    first_side blue
    table 48 x 36
    terrain {{
        objective "Hill" at (30.25, 10.25) vp 2
    }}
    side blue {{
        edge west
        brigade "A" {{
            brigadier "Col. A" reliable at (1, 5)
            regiment "1st" {{ stands 4 veteran rifled_musket line at (2.25, 10.25) facing east }}
        }}
    }}
    side red {{
        edge east
        brigade "B" {{
            brigadier "Col. B" reliable
            regiment "2nd" {{ stands 4 veteran rifled_musket line }}
        }}
    }}
    reinforcements {{
        at 11:00 red brigade "B" enters at (46, 30) road_column
    }}
    victory {{
        objective "Hill" held_by blue at_end => blue decisive
        vp blue >= 2 => blue marginal
        otherwise => draw
    }}
}}
"#
    );
    let parsed = dotc_lang::parse(&source);
    parsed.document.scenario.expect("a scenario")
}

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

#[test]
fn an_objective_25_inches_away_needs_4_moves_at_8_inches() {
    // 6 turns: blue moves on 1, 3, 5: 24" < 25", so the condition cannot be met; the search
    // goes on past the end and finds the 4th move, turn 7.
    let short = analyze(&scenario(6), data()).expect("a report");
    let a = short.forces.iter().find(|f| f.name == "A").expect("brigade A");
    assert_eq!(a.moves, vec![1, 3, 5]);
    let hill = &a.objectives[0];
    assert_eq!((hill.distance, hill.turn, hill.late), (25.0, None, Some(7)));
    assert_eq!(short.conditions[0].status, "unreachable");
    assert_eq!(short.conditions[1].status, "unreachable");
    // 8 turns: the 4th move, turn 7, gets there.
    let long = analyze(&scenario(8), data()).expect("a report");
    assert_eq!(long.conditions[0].status, "reachable");
    assert_eq!(long.conditions[0].turn, Some(7));
    assert_eq!(long.conditions[1].turn, Some(7));
}

#[test]
fn a_reinforcement_enters_on_its_sides_first_turn_from_its_time_and_moves_after() {
    let report = analyze(&scenario(8), data()).expect("a report");
    let b = report.forces.iter().find(|f| f.name == "B").expect("brigade B");
    let arrival = b.arrival.as_ref().expect("an arrival");
    assert_eq!((arrival.due, arrival.enters), (Some(5), Some(6)));
    assert_eq!(b.moves, vec![8]);
    assert_eq!(report.clock[4].time.as_deref(), Some("11:00"));
    assert_eq!(report.clock[5].side.as_deref(), Some("red"));
}

#[test]
fn check_warns_at_the_condition_and_the_reinforcement_out_of_reach() {
    let s = scenario(6);
    let report = analyze_with(&s, data(), Depth::CHECK).expect("a report");
    let warnings = warnings(&s, &report);
    let codes: Vec<&str> = warnings.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec!["dotc::unreachable-victory", "dotc::unreachable-victory", "dotc::reinforcement-too-late"]
    );
    assert!(warnings[0].message.contains("25\" away"), "{}", warnings[0].message);
    assert!(warnings[0].message.contains("with 3 blue moves in 6 turns"), "{}", warnings[0].message);
    assert!(warnings.iter().all(|d| !d.is_error()));
}

/// An attack on a force holding still: blue's regiment, 48.0" from red's entry point (43.75"
/// east and 19.75" north), needs six moves at 8" (turns 1 to 11) to stand on it, or five (40")
/// to come within its 9" charge (Ch16 3.1, 7.1) and a sixth to charge: turn 11 either way; red is
/// there from turn 6, so the first blue attack on red where it stands is turn 11. Red, arriving
/// in road column, would need five moves at 10" off the road (turns 8 to 16) and a deployment
/// (Ch16 3.2), after the end of a 14-turn game.
#[test]
fn a_force_reaches_an_enemy_where_it_stands_no_earlier_than_the_enemy_is_there() {
    let report = analyze(&scenario(14), data()).expect("a report");
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    let b = report.forces.iter().find(|f| f.name == "B").expect("brigade B");
    assert_eq!(a.enemies[0].where_it_stands, Some(11));
    assert_eq!(b.enemies[0].where_it_stands, None);
    let firsts: Vec<(&str, u32)> = report.first_attacks.iter().map(|f| (f.side.as_str(), f.turn)).collect();
    assert_eq!(firsts, vec![("blue", 11)]);
    assert_eq!(report.first_attacks[0].forces, ("A".to_string(), "B".to_string()));
    // In the text: the column and the line.
    let text = render_text(&report);
    assert!(text.contains("where it stands turn 11"), "{text}");
    assert!(text.contains("first blue attack on a force holding still: turn 11, A on B"), "{text}");
}

/// Blue's regiment 9" west of red's, both on the table from the start, blue's in `formation`.
fn facing(formation: &str) -> Scenario {
    let source = format!(
        r#"scenario "T" {{
    start 10:00
    turn_length 15 min
    turns 8
    first_side blue
    table 48 x 36
    side blue {{
        edge west
        brigade "A" {{
            brigadier "Col. A" reliable at (1, 5)
            regiment "1st" {{ stands 4 veteran rifled_musket {formation} at (2.25, 10.25) facing east }}
        }}
    }}
    side red {{
        edge east
        brigade "B" {{
            brigadier "Col. B" reliable at (20, 5)
            regiment "2nd" {{ stands 4 veteran rifled_musket line at (11.25, 10.25) facing west }}
        }}
    }}
    victory {{
        otherwise => draw
    }}
}}
"#
    );
    dotc_lang::parse(&source).document.scenario.expect("a scenario")
}

/// Ch16 3.1, 7.1: a line 9" from an enemy is within its charge (`charge 9`): contact and the
/// attack where the enemy stands come on its first move, turn 1, though a move of 6" would not
/// get there (walking, turn 3). In range at once. Ch16 3.2: a road column there may not assault;
/// forming line takes its whole first move (turn 1), so it charges on its second, turn 3.
#[test]
fn a_charge_reaches_contact_a_move_sooner_and_a_road_column_deploys_first() {
    let report = analyze(&facing("line"), data()).expect("a report");
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    let red = &a.enemies[0];
    assert_eq!((red.contact, red.where_it_stands), (Some(1), Some(1)));
    assert_eq!(report.first_contact.as_ref().map(|f| f.turn), Some(1));
    let report = analyze(&facing("road_column"), data()).expect("a report");
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    assert_eq!(a.enemies[0].where_it_stands, Some(3));
    let text = render_text(&report);
    assert!(text.contains("road column formed and unpacked at the rule data's prices"), "{text}");
}
