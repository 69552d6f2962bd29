//! Small assault situations, each a scenario and a log replayed through the audit, worked by
//! hand from the rulebook (issue 14's assault and melee defects). Each test names the rule it
//! holds the replay to; the arithmetic is in its comments. The table is the firing range of
//! `fire/situations.rs`: blue on the west, red on the east.

use crate::engine::What;
use crate::replay::fire::situations::{play, problems, range};

/// The Shock Score event of `unit` in a replay: (modifier names and values, score).
fn shock_score(replay: &crate::replay::Replay, unit: &str) -> (Vec<(String, i32)>, i32) {
    replay
        .events
        .iter()
        .find_map(|e| match &e.event.what {
            What::ShockScore { unit: u, modifiers, score, .. } if u == unit => {
                Some((modifiers.iter().map(|m| (m.name.clone(), m.value)).collect(), *score))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Shock Score for {unit}: {:#?}", replay.findings))
}

#[test]
fn rulings_g17_ch16_4_2_an_abatis_costs_the_charger_two_and_its_momentum() {
    // The 1st Red holds a line 0.5" behind an abatis; the 1st Blue charges it from 6" away over
    // open ground. Ch16 4.2 and RULINGS G17: the abatis gives no cover but -2 to the attacker
    // in melee, and it cancels the charge's momentum. Shock scores (Ch16 7.3), both Fresh (+1),
    // 5 stands engaged each: Blue 4 + 5 + 1 - 2 (abatis) = 8, Red 3 + 5 + 1 = 9: the defender
    // wins by 1. With the abatis ignored Blue would have +1 momentum and win, 11 to 9.
    let scenario = range(
        "        abatis \"The Felled Trees\" line (17.5, 14) (17.5, 22)",
        "            regiment \"1st Blue\" { stands 5 regular rifled_musket line at (12, 18) facing east }",
        "            regiment \"1st Red\" { stands 5 regular rifled_musket line at (18, 18) facing west }",
    );
    let (replay, _) = play(
        &scenario,
        r#"turn 1 blue {
    command {
        pips "Col. Blue" roll [6] => 3
    }
    maneuver {
        assault "1st Blue" -> "1st Red" pip "Col. Blue" {
            melee roll [4] vs [3] => defender wins
        }
    }
}
"#,
    );
    let (blue, blue_score) = shock_score(&replay, "1st Blue");
    assert!(blue.contains(&("abatis".to_string(), -2)), "{blue:?}");
    assert!(!blue.iter().any(|(n, _)| n == "momentum"), "{blue:?}");
    assert_eq!(blue_score, 8);
    assert_eq!(shock_score(&replay, "1st Red").1, 9);
    assert!(problems(&replay).is_empty(), "{:#?}", problems(&replay));
}
