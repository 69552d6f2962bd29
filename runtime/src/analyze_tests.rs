//! The time-and-motion report on a small hand-worked scenario.

use super::*;

/// Blue's line regiment at (2.25, 10.25) and an objective 28" east with a 3" radius: 25" to go.
/// At the ordinary pace ([`ordinary`]) a line goes 6" a move (24" in four), or changes to assault
/// column where it stands for half the move (Ch16 3.2: 4" of a column's 8" left) and goes on at
/// 8" (Ch16 3.1): 4", 12", 20", 28", so four moves either way. Blue moves on the odd
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

/// The report at the ordinary pace of a formed advance, the default: no Double-Time (Ch16 2.3).
fn ordinary(s: &Scenario) -> Report {
    analyze(s, data()).expect("a report")
}

/// The report with the Double-Time Advance on every move (`dotc analyze --double-time`).
fn at_the_double(s: &Scenario) -> Report {
    analyze_with(s, data(), Depth { double_time: true, ..Depth::FULL }).expect("a report")
}

#[test]
fn an_objective_25_inches_away_needs_4_moves_at_the_ordinary_pace() {
    // 6 turns: blue moves on 1, 3, 5: 24" < 25", so the condition cannot be met; the search
    // goes on past the end and finds the 4th move, turn 7.
    let short = ordinary(&scenario(6));
    let a = short.forces.iter().find(|f| f.name == "A").expect("brigade A");
    assert_eq!(a.moves, vec![1, 3, 5]);
    let hill = &a.objectives[0];
    assert_eq!((hill.distance, hill.turn, hill.late), (25.0, None, Some(7)));
    assert_eq!(short.conditions[0].status, "unreachable");
    assert_eq!(short.conditions[1].status, "unreachable");
    // 8 turns: the 4th move, turn 7, gets there.
    let long = ordinary(&scenario(8));
    assert_eq!(long.conditions[0].status, "reachable");
    assert_eq!(long.conditions[0].turn, Some(7));
    assert_eq!(long.conditions[1].turn, Some(7));
}

#[test]
fn a_reinforcement_enters_on_its_sides_first_turn_from_its_time_and_moves_after() {
    let report = ordinary(&scenario(8));
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
/// east and 19.75" north), at the ordinary pace changes to assault column for half its first
/// move (Ch16 3.2) and goes 4", 12", 20", 28", 36", 44" in six moves (turns 1 to 11); from 36"
/// its 9" charge (Ch16 3.1, 7.1) falls short, from 44" it reaches: the attack is its seventh
/// move, turn 13 (in line, 6" a move, it would be within the charge after seven). Red is there
/// from turn 6, so the first blue attack on red where it stands is turn 13. Red, arriving in
/// road column, would need five moves at 10" off the road (turns 8 to 16) and a deployment
/// (Ch16 3.2), after the end of a 14-turn game.
#[test]
fn a_force_reaches_an_enemy_where_it_stands_no_earlier_than_the_enemy_is_there() {
    let report = ordinary(&scenario(14));
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    let b = report.forces.iter().find(|f| f.name == "B").expect("brigade B");
    assert_eq!(a.enemies[0].where_it_stands, Some(13));
    assert_eq!(b.enemies[0].where_it_stands, None);
    let firsts: Vec<(&str, u32)> = report.first_attacks.iter().map(|f| (f.side.as_str(), f.turn)).collect();
    assert_eq!(firsts, vec![("blue", 13)]);
    assert_eq!(report.first_attacks[0].forces, ("A".to_string(), "B".to_string()));
    // In the text: the column and the line.
    let text = render_text(&report);
    assert!(text.contains("where it stands turn 13"), "{text}");
    assert!(text.contains("first blue attack on a force holding still: turn 13, A on B"), "{text}");
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
    let report = ordinary(&facing("line"));
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    let red = &a.enemies[0];
    assert_eq!((red.contact, red.where_it_stands), (Some(1), Some(1)));
    assert_eq!(report.first_contact.as_ref().map(|f| f.turn), Some(1));
    let report = ordinary(&facing("road_column"));
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    assert_eq!(a.enemies[0].where_it_stands, Some(3));
    let text = render_text(&report);
    assert!(text.contains("formations changed at the rule data's prices"), "{text}");
}

/// Ch16 3.2: the change from line to assault column costs half the move. 23" from the objective
/// (the regiment 2" further east), a line goes 6", 12", 18", 24": four moves; a column formed
/// where it stands goes 4", 12", 20", 28": four moves. Were the change free, a column's 8" a
/// move would get there in three (24").
#[test]
fn ch16_3_2_a_change_between_line_and_column_costs_half_the_move() {
    let mut s = scenario(8);
    let regiment = s.sides[0].brigades[0].units.iter_mut().next().expect("the 1st");
    let at = regiment.position.as_mut().expect("placed");
    at.value.x += 2.0;
    let report = ordinary(&s);
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    assert_eq!((a.objectives[0].distance, a.objectives[0].turn), (23.0, Some(7)));
}

/// Ch16 2.3: the Double-Time Advance gives infantry in line or column 3" more a move for a pip,
/// and `--double-time` takes it on every move. 25" away, a line at 9"
/// a move gets there in three moves (27"), turn 5, where the ordinary pace takes four (turn 7);
/// after a change to column the 3" come on top of the half move it leaves (7", 18", 29").
#[test]
fn ch16_2_3_at_the_double_the_objective_is_a_move_sooner() {
    let report = at_the_double(&scenario(8));
    assert!(report.double_time);
    let a = report.forces.iter().find(|f| f.name == "A").expect("brigade A");
    assert_eq!((a.objectives[0].distance, a.objectives[0].turn), (25.0, Some(5)));
    assert_eq!(report.conditions[0].turn, Some(5));
    assert!(!ordinary(&scenario(8)).double_time);
    let text = render_text(&report);
    assert!(text.contains("Double-Time taken by infantry in line or column"), "{text}");
    let text = render_text(&ordinary(&scenario(8)));
    assert!(text.contains("at the ordinary pace (no Double-Time)"), "{text}");
}
