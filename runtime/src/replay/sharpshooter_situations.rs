//! Elite sharpshooters in the replay (Ch13 9.0, module `elite_sharpshooters`, dotc D25), on the
//! module suite's table (tests/rules/modules/elite_sharpshooters.dotc): S1 and S2 in the
//! sharpshooters' skirmish order (4 stands, 7" wide) facing north, S1 at (22, 14) below
//! Pitzer's Woods (light woods, x 18-26, y 17-23), F1 a union line at (30, 16); C1 a
//! confederate line at (32, 30) facing south.

use super::maneuver::tests::{errors, errors_at, play};

/// The suite's table, with the module on (its `rules` block) or off.
fn table(module: bool) -> String {
    let on = include_str!("../../../tests/rules/modules/elite_sharpshooters.dotc").to_string();
    if module { on } else { on.replace("    rules {\n        module elite_sharpshooters\n    }\n", "") }
}

const PIPS: &str = "        pips \"Col. Berdan\" roll [5]\n        pips \"Col. Wilcox\" roll [5]\n";

fn union(maneuver: &str) -> String {
    format!("turn 1 union {{\n    command {{\n{PIPS}    }}\n    maneuver {{\n{maneuver}    }}\n}}\n")
}

/// Ch13 9.0: 8" straight into Pitzer's Woods, where a line is held to 4" (RULINGS C24): legal in
/// the sharpshooters' order, 8.5" is not; with the module off the formation does not exist and
/// nothing moves in it.
#[test]
fn ch13_9_0_sharpshooters_move_8_inches_through_woods() {
    let (replay, game) = play(&table(true), &union("        move \"S1\" to (22, 22)\n"));
    assert!(errors(&replay).is_empty(), "{:#?}", errors(&replay));
    let (replay, game2) = play(&table(true), &union("        move \"S1\" to (22, 22.5)\n"));
    assert!(!errors_at(&replay, &game2, "move \"S1\"").is_empty(), "8.5\" is over 8\"");
    let (replay, game3) = play(&table(false), &union("        move \"S1\" to (22, 18)\n"));
    let off = errors_at(&replay, &game3, "move \"S1\"");
    assert!(off.iter().any(|f| f.rule == "Ch13 9.0" && f.message.contains("module is off")), "{off:#?}");
    let _ = game;
}

/// Ch13 9.0, dotc D25: only a regiment with the trait may form the sharpshooters' order, and
/// only with the module on; S1 may form a line (half its move).
#[test]
fn ch13_9_0_only_the_sharpshooters_take_their_order() {
    let (replay, _) = play(&table(true), &union("        formation \"F1\" sharpshooter_order\n"));
    let not = errors(&replay);
    assert!(not.iter().any(|f| f.rule == "Ch13 9.0" && f.message.contains("trait")), "{not:#?}");
    let (replay, _) = play(&table(true), &union("        formation \"S1\" line\n"));
    assert!(errors(&replay).is_empty(), "{:#?}", errors(&replay));
}

/// Ch13 9.0, RULINGS C16: with S1 moved up into the woods, C1 (in the confederate turn) has S1
/// 10.3" off and F1 14" off in its arc. It may fire past the sharpshooters at F1, a formed line;
/// without the trait on S1 (a plain skirmish line) it may not.
#[test]
fn ch13_9_0_enemies_fire_past_sharpshooters_at_formed_troops() {
    let turns = |fire: &str| {
        format!(
            "turn 1 union {{\n    command {{\n{PIPS}    }}\n    maneuver {{\n        move \"S1\" to (22, 22)\n    }}\n}}\nturn 2 confederate {{\n    command {{\n{PIPS}    }}\n    fire {{\n        {fire}\n    }}\n}}\n"
        )
    };
    let log = turns("fire \"C1\" at \"F1\" roll [4, 4, 3, 2, 1] => hits 2, lost 1");
    let (replay, _) = play(&table(true), &log);
    assert!(errors(&replay).is_empty(), "{:#?}", errors(&replay));
    // A plain skirmisher in the same place takes the priority: the sharpshooters' trait and
    // order are replaced by skirmish order without the trait.
    let plain = table(true).replace(
        "regiment \"S1\" { stands 4 regular rifled_musket sharpshooter_order at (22, 14) facing north traits elite_sharpshooters }",
        "regiment \"S1\" { stands 4 regular rifled_musket open_order at (22, 14) facing north }",
    );
    let plain = plain.replace(
        "        module elite_sharpshooters\n",
        "        module elite_sharpshooters\n        module open_order\n",
    );
    // Open order goes 5" in the woods: to (22, 19), 12.8" from C1's colours.
    let log = log.replace("move \"S1\" to (22, 22)", "move \"S1\" to (22, 19)");
    let (replay, game) = play(&plain, &log);
    let forced = errors_at(&replay, &game, "fire \"C1\"");
    assert!(forced.iter().any(|f| f.rule == "RULE-05-1.3, RULINGS C16"), "{forced:#?}");
}
