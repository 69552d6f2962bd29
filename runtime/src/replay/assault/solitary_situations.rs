//! Charges at a solitary brigadier (RULE-07-4.5), replayed through the audit on the firing range
//! of `fire/situations.rs`: the 1st Blue in line at (10, 18) facing east charges Col. Red, who
//! stands alone 5" in front of its colours at (15, 18); the 1st Red is 20" away. Each test names
//! the rule it holds the replay to.

use crate::engine::What;
use crate::replay::fire::situations::{findings_at, range};
use crate::replay::tests::{play, problems};
use crate::replay::{Level, Replay};

fn scenario() -> String {
    range(
        "",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (10, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (30, 18) facing west }",
    )
    .replace("brigadier \"Col. Red\" reliable at (46, 34)", "brigadier \"Col. Red\" reliable at (15, 18)")
}

/// Turn 1: Col. Blue rolls his pips and the 1st Blue charges Col. Red; `rest` is the assault
/// line's end: a claim, steps in braces, or both.
fn charge(rest: &str) -> String {
    format!(
        "turn 1 blue {{\n    command {{\n        pips \"Col. Blue\" roll [6] => 3\n    }}\n    maneuver {{\n        \
         assault \"1st Blue\" -> \"Col. Red\" pip \"Col. Blue\" {rest}\n    }}\n}}\n"
    )
}

fn captured(replay: &Replay) -> bool {
    replay
        .events
        .iter()
        .any(|e| matches!(&e.event.what, What::LeaderReplaced { leader, .. } if leader == "Col. Red"))
}

#[test]
fn rule_07_4_5_a_solitary_brigadier_charged_in_the_open_evades_six_inches_away() {
    // 6" straight east, away from the charger's colours (5" to 11"): a legal evasion.
    let (replay, _) = play(&scenario(), &charge("{\n            evade to (21, 18) => evaded\n        }"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(!captured(&replay));
    assert!(replay.events.iter().any(|e| matches!(&e.event.what,
        What::Note { text } if text == "Col. Red evades 1st Blue's charge")));
    // The charge was declared and paid for (Ch16 7.1): pips spent.
    assert!(replay.events.iter().any(|e| matches!(&e.event.what, What::Pips { change, .. } if *change < 0)));
}

#[test]
fn rule_07_4_5_a_solitary_brigadier_who_does_not_evade_is_captured_and_replaced() {
    let (replay, _) = play(&scenario(), &charge("=> captured"));
    assert!(problems(&replay).is_empty(), "{:#?}", replay.findings);
    assert!(captured(&replay), "{:#?}", replay.events);
    // Claiming an evasion the log does not make is a finding.
    let (replay, game) = play(&scenario(), &charge("=> evaded"));
    let found = findings_at(&replay, &game, "assault \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule == "RULE-07-4.5" && f.message.contains("the rules give captured")),
        "{found:#?}"
    );
}

#[test]
fn rule_07_4_5_an_evasion_short_of_six_inches_or_toward_the_charger_is_refused() {
    // 3" is not the 6" evasion move.
    let (replay, game) = play(&scenario(), &charge("{\n            evade to (18, 18) => evaded\n        }"));
    let found = findings_at(&replay, &game, "evade to");
    assert!(
        found
            .iter()
            .any(|f| f.level == Level::Error && f.rule == "RULE-07-4.5" && f.message.contains("3.00\" long")),
        "{found:#?}"
    );
    assert!(!captured(&replay));
    // 6" back past the charger's flank, ending 3.6" from its colours: not away from it.
    let (replay, game) =
        play(&scenario(), &charge("{\n            evade to (10.2, 14.4) => evaded\n        }"));
    let found = findings_at(&replay, &game, "evade to");
    assert!(found.iter().any(|f| f.rule == "RULE-07-4.5" && f.message.contains("no farther")), "{found:#?}");
}

#[test]
fn rule_07_4_5_an_attached_brigadier_is_charged_through_his_regiment() {
    let scenario = scenario().replace(
        "brigadier \"Col. Red\" reliable at (15, 18)",
        "brigadier \"Col. Red\" reliable attached \"1st Red\"",
    );
    let (replay, game) = play(&scenario, &charge("=> captured"));
    let found = findings_at(&replay, &game, "assault \"1st Blue\"");
    assert!(
        found.iter().any(|f| f.rule == "RULE-07-4.5" && f.message.contains("charge 1st Red")),
        "{found:#?}"
    );
    assert!(!captured(&replay));
}
