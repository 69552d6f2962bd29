//! A scenario may add rule data of its own and use it at once (Ch16 tables are the stdlib; a
//! designer adds, say, a Whitworth rifle).

use std::path::Path;

use dotc_lang::library::EntryKind;
use dotc_lang::{FsLoader, analyze};

const SCENARIO: &str = r#"scenario "Sharpshooters at the Orchard" {
    turns 4
    table 24 x 24
    first_side union
    library "Our own rule data" {
        weapon whitworth_rifle "Whitworth rifle" {
            class small_arm
            dice 1 per stand
            short to 6 hits 4+
            medium to 14 hits 4+
            long to 24 hits 4+
            source "scenario notes"
        }
    }
    side union { edge west
        brigade "Sharpshooters" {
            brigadier "Col. Hiram Berdan" reliable at (4, 4)
            regiment "1st U.S.S.S." { stands 3 elite whitworth_rifle skirmish at (8, 12) facing east }
        }
    }
    side confederate { edge east }
}
"#;

#[test]
fn a_scenario_weapon_is_known_to_its_units_and_in_the_export() {
    let analysis = analyze(Path::new("s.dotc"), SCENARIO, &FsLoader);
    assert!(analysis.diagnostics.is_empty(), "{:?}", analysis.diagnostics);
    assert!(analysis.rule_data.contains(EntryKind::Weapon, "whitworth_rifle"));
    let weapon = analysis.rule_data.weapon("whitworth_rifle").expect("typed weapon");
    assert_eq!(weapon.max_range(dotc_lang::library::Arm::Infantry), 24.0);
    // The stdlib is still there beside it.
    assert!(analysis.rule_data.contains(EntryKind::Weapon, "rifled_musket"));
    let json = serde_json::to_value(dotc_lang::model::export(&analysis, SCENARIO)).expect("json");
    assert_eq!(json["sides"][0]["brigades"][0]["units"][0]["weapon"], "whitworth_rifle");
}

#[test]
fn without_the_entry_the_same_unit_is_an_error() {
    let start = SCENARIO.find("    library").expect("library");
    let end = SCENARIO.find("    side union").expect("side");
    let without = format!("{}{}", &SCENARIO[..start], &SCENARIO[end..]);
    let analysis = analyze(Path::new("s.dotc"), &without, &FsLoader);
    let codes: Vec<&str> = analysis.diagnostics.iter().map(|d| d.code).collect();
    // Nothing in the rule data is close to the name, so it is an unknown word of the unit.
    assert_eq!(codes, ["dotc::unknown-word"]);
    assert!(analysis.diagnostics[0].message.contains("whitworth_rifle"));
}
