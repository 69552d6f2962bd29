//! Small situations of buildings (Ch16 4.3, dotc D6) and of a screen soaking up fire (Ch16 3.4,
//! RULINGS G12), replayed through the audit. Each test names the rule it holds the replay to;
//! the arithmetic is in its comments.
//!
//! The firing range of [`super::situations::range`] with a masonry house, 2" x 2", centred on
//! (30, 18).

use super::super::*;
use super::situations::{findings_at, range};
use crate::replay::tests::{play, problems};

const HOUSE: &str = "        masonry_building \"House\" at (30, 18) size 2 x 2";

/// Red's 2 stands of dismounted cavalry hold the House, facing west.
const RED_GARRISON: &str = "            cavalry \"DG\" { stands 2 regular muzzleloading_carbine dismounted skirmish at (30, 18) facing west holders at (33, 18) in \"House\" }";

fn turns(blocks: &[(&str, &str, &str)]) -> String {
    blocks
        .iter()
        .enumerate()
        .map(|(i, (side, phase, lines))| {
            format!("turn {} {side} {{\n    {phase} {{\n{lines}\n    }}\n}}\n", i + 1)
        })
        .collect()
}

fn cites(found: &[Finding], rule: &str, words: &str) -> bool {
    found.iter().any(|f| f.rule.contains(rule) && f.message.contains(words))
}

#[test]
fn ch16_4_3_capacity_a_regiment_marches_in_and_a_second_may_not_overfill_the_building() {
    // G1 (2 stands) is 5" west of the House's centre: 5" of a line's 6" (Ch16 3.1), 2 stands,
    // the capacity (Ch16 4.3). G2's 2 more would make 4 of 2: refused. R1 then fires at G1 in
    // the House from 10": 4+, [4, 4, 1, 1, 2] is 2 hits; the House's heavy cover (4+) saves the
    // 4 and not the 3: 1 unsaved, a micro-hit. G1 has 2 stands, Spent: its test's 6 passes.
    let blue = "            regiment \"G1\" { stands 2 regular rifled_musket line at (25, 18) facing east }\n            \
                regiment \"G2\" { stands 2 regular rifled_musket line at (26, 22) facing east }";
    let red = "            regiment \"R1\" { stands 5 regular rifled_musket line at (40, 18) facing west }";
    let scenario = range(HOUSE, blue, red);
    let game_turns = turns(&[
        ("blue", "maneuver", "        garrison \"G1\" in \"House\"\n        garrison \"G2\" in \"House\""),
        (
            "red",
            "fire",
            "        fire \"R1\" at \"G1\" roll [4, 4, 1, 1, 2] saves [4, 3] discipline [6] => hits 2, saved 1, micro 1",
        ),
    ]);
    let (replay, game) = play(&scenario, &game_turns);
    assert!(findings_at(&replay, &game, "garrison \"G1\"").is_empty(), "{:#?}", replay.findings);
    let refused = findings_at(&replay, &game, "garrison \"G2\"");
    assert!(cites(&refused, "Ch16 4.3", "holds 2 stands"), "{refused:#?}");
    assert!(findings_at(&replay, &game, "fire \"R1\"").is_empty(), "{:#?}", replay.findings);
}

#[test]
fn ch16_4_3_capacity_mounted_cavalry_and_a_building_held_by_the_enemy_are_refused() {
    // Only infantry and dismounted cavalry garrison (Ch16 4.3): mounted G3 is refused; blue's
    // dismounted G4 may not join red's DG, one side to a building.
    let blue = "            cavalry \"G3\" { stands 2 regular muzzleloading_carbine mounted line at (25, 18) facing east }\n            \
                cavalry \"G4\" { stands 1 regular muzzleloading_carbine dismounted skirmish at (27, 22) facing east holders at (24.5, 22) }";
    let scenario = range(HOUSE, blue, RED_GARRISON);
    let game_turns = turns(&[(
        "blue",
        "maneuver",
        "        garrison \"G3\" in \"House\"\n        garrison \"G4\" in \"House\"",
    )]);
    let (replay, game) = play(&scenario, &game_turns);
    assert!(cites(&findings_at(&replay, &game, "garrison \"G3\""), "Ch16 4.3", "only infantry"));
    assert!(cites(&findings_at(&replay, &game, "garrison \"G4\""), "Ch16 4.3", "held by the enemy"));
    let (replay, game) =
        play(&scenario, &turns(&[("blue", "maneuver", "        garrison \"G4\" in \"Barn\"")]));
    assert!(cites(&findings_at(&replay, &game, "garrison \"G4\""), "Ch16 4.3", "no building \"Barn\""));
}

#[test]
fn ch16_4_3_demolition_solid_shot_brings_the_building_down_at_four_and_leaves_light_rubble() {
    // B (Napoleons, 4 dice) at DG in the House, 15": Medium 4+. Turn 1: [4, 5, 4, 1] is 3
    // hits, all saved at 4+; damage on 4+: [4, 5, 2] -> 2 structural hits. Turn 3, B's own
    // smoke -1: 5+, [5, 5, 5, 2] is 3 hits, all saved; [6, 4, 1] -> 2 more: 4, the House
    // collapses: DG loses a stand (2 -> 1, cavalry does not shatter) and is Disordered. I then
    // fires at DG in the rubble: [4, 4, 4, 1, 2] is 3 hits; light rubble saves on 5+ only:
    // [5, 4, 3] saves 1 (behind the walls the 4 would save too), 2 unsaved: DG's last stand.
    let blue = "            battery \"B\" { sections 2 regular napoleon unlimbered at (15, 18) facing east }\n            \
                regiment \"I\" { stands 5 regular rifled_musket line at (22, 22) facing east }";
    // R9, far off, keeps Red's brigade from breaking at DG's losses (RULE-07-2.4).
    let red = format!(
        "{RED_GARRISON}\n            regiment \"R9\" {{ stands 5 regular rifled_musket line at (45, 32) facing west }}"
    );
    let scenario = range(HOUSE, blue, &red);
    let game_turns = turns(&[
        (
            "blue",
            "fire",
            "        fire \"B\" at \"DG\" roll [4, 5, 4, 1] saves [4, 5, 4] structure [4, 5, 2] discipline [6] => hits 3, saved 3, structure 2",
        ),
        ("red", "fire", ""),
        (
            "blue",
            "fire",
            "        fire \"B\" at \"DG\" roll [5, 5, 5, 2] saves [4, 4, 5] structure [6, 4, 1] discipline [6] => hits 3, saved 3, structure 4, collapsed\n        \
             fire \"I\" at \"DG\" roll [4, 4, 4, 1, 2] saves [5, 4, 3] => hits 3, saved 1, lost 1",
        ),
    ]);
    let (replay, _) = play(&scenario, &game_turns);
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    let disordered = replay.events.iter().any(|e| {
        matches!(&e.event.what, What::MarkerPlaced { unit, marker } if unit == "DG" && marker == "Disorder")
            && e.event.rule.contains("dotc D6")
    });
    assert!(disordered, "{:#?}", replay.events);
    // A claim of the wrong count, or of a collapse that did not happen, is a finding.
    let wrong = turns(&[(
        "blue",
        "fire",
        "        fire \"B\" at \"DG\" roll [4, 5, 4, 1] saves [4, 5, 4] structure [4, 5, 2] discipline [6] => hits 3, saved 3, structure 3, collapsed",
    )]);
    let (replay, game) = play(&scenario, &wrong);
    let found = findings_at(&replay, &game, "fire \"B\"");
    assert!(cites(&found, "dotc D6", "structural hits: the rules give 2"), "{found:#?}");
    assert!(cites(&found, "dotc D6", "collapse: the rules give 2 structural hits"), "{found:#?}");
}

#[test]
fn ch16_4_3_demolition_canister_does_no_structural_damage() {
    // Canister is not solid shot (Ch16 4.3, dotc D6): B at 5" fires canister; a claimed
    // structural hit is a finding and the `structure` die is left over.
    let blue = "            battery \"B\" { sections 2 regular napoleon unlimbered at (24, 18) facing east }";
    let scenario = range(HOUSE, blue, RED_GARRISON);
    let (replay, game) = play(
        &scenario,
        &turns(&[(
            "blue",
            "fire",
            "        fire \"B\" at \"DG\" roll [1, 1, 1, 1] structure [6] discipline [6] => hits 0, structure 1",
        )]),
    );
    let found = findings_at(&replay, &game, "fire \"B\"");
    assert!(cites(&found, "dotc D6", "the rules give none"), "{found:#?}");
    assert!(found.iter().any(|f| f.message.contains("left over")), "{found:#?}");
}

#[test]
fn ch16_3_4_casualty_buffer_the_screen_takes_the_first_unsaved_hit_of_each_volley() {
    // RULINGS G12: R1's screen stands 2.5" ahead of it. B (Napoleons) at R1, 12": Medium 4+,
    // the screen -1: 5+. [5, 5, 2, 1] is 2 hits, no save in the open: the first goes to the
    // screen (1 of 2), the second to R1, a micro-hit; the screen is not filled by the same
    // volley's second hit.
    let blue = "            battery \"B\" { sections 2 regular napoleon unlimbered at (10, 18) facing east }";
    let red = "            regiment \"R1\" { stands 5 regular rifled_musket line at (22, 18) facing west screen at (19.5, 18) }";
    let scenario = range("", blue, red);
    let (replay, game) = play(
        &scenario,
        &turns(&[(
            "blue",
            "fire",
            "        fire \"B\" at \"R1\" roll [5, 5, 2, 1] => hits 2, screen hits 1, micro 1",
        )]),
    );
    assert!(findings_at(&replay, &game, "fire \"B\"").is_empty(), "{:#?}", replay.findings);
    let (replay, game) = play(
        &scenario,
        &turns(&[(
            "blue",
            "fire",
            "        fire \"B\" at \"R1\" roll [5, 5, 2, 1] => hits 2, screen hits 2, screen removed, lost 1",
        )]),
    );
    assert!(
        cites(&findings_at(&replay, &game, "fire \"B\""), "Ch16 3.4", "screen hits"),
        "{:#?}",
        replay.findings
    );
}
