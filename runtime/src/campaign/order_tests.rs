//! The order of battle a campaign's battle is fought with (Ch14 1.0, dotc D42, D44), each
//! number hand-worked from the rulebook.

use super::order::{Command, OrderOfBattle};
use super::*;
use crate::engine::setup::{Setup, rules_for};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/campaign").join(name)
}

fn analysed(path: &Path) -> Analysis {
    let text = std::fs::read_to_string(path).expect("fixture");
    dotc_lang::analyze(path, &text, &dotc_lang::FsLoader)
}

fn errors(replayed: &crate::replay::Replay) -> Vec<&Finding> {
    replayed.findings.iter().filter(|f| f.level == Level::Error).collect()
}

/// Ch14 2.0, RULE-05-2.1 (one die per stand): in battle 2 of road.dotc the 50th Georgia has 4
/// stands on the roster (5 in the scenario, one in hospital since battle 1), so its turn-1
/// volley rolls 4 dice, `[2, 4, 5, 3]`: clean with the roster's order of battle; with the
/// scenario's it is a volley of 5 dice, and the log rolls only 4.
#[test]
fn ch14_1_0_a_unit_with_fewer_stands_on_the_roster_fires_fewer_dice() {
    let analysis = analysed(&fixture("road.dotc"));
    let played = play(&analysis);
    let order = played.orders[1].as_ref().expect("battle 2's order of battle");
    let georgia = order.units.iter().find(|u| u.name == "50th Georgia").expect("50th Georgia");
    assert_eq!((georgia.stands, georgia.scenario_stands), (4, Some(5)));
    let log = analysis.battles[1].log.as_deref().expect("battle 2's log");
    let fought = replay(log, &ReplayOptions { order_of_battle: Some(order), ..ReplayOptions::default() });
    assert!(errors(&fought).is_empty(), "{:#?}", errors(&fought));
    let as_scenario = replay(log, &ReplayOptions::default());
    assert!(
        errors(&as_scenario).iter().any(|f| f.message.contains("needs 5 to_hit dice, but the log records 4")),
        "{:#?}",
        errors(&as_scenario)
    );
    // The replay's summary starts the Georgians at the roster's 4 stands (losses are counted
    // from it: 4 at the start less 3 at the end, one stand lost).
    let unit = fought.summary.units.iter().find(|u| u.name == "50th Georgia").expect("in the summary");
    assert_eq!((unit.starting_stands, unit.stands), (4, 3));
}

/// Ch14 3.0 and 5.0: in battle 3 of road.dotc the 9th Louisiana (3 XP, Veteran) fights diluted
/// after taking 2 replacement stands in one draft: as a Regular, whose Discipline is 4+, not the
/// Veteran's 3+ (Ch16 8.3: Veteran 3+, Regular 4+); it keeps its Sharpshooters (its Army Trait)
/// and the scenario's Rebel Yell, at 4 stands (2 on the roster + 2 drafted).
#[test]
fn ch14_5_0_a_diluted_veteran_fights_as_a_regular() {
    let analysis = analysed(&fixture("road.dotc"));
    let played = play(&analysis);
    let order = played.orders[2].as_ref().expect("battle 3's order of battle");
    let scenario = analysis.battles[2].scenario.as_deref().expect("battle 3's scenario");
    let s = scenario.document.scenario.as_ref().expect("a scenario");
    let fought = order.apply(s, &scenario.rule_data);
    let rules = rules_for(&fought, &scenario.rule_data).expect("rules");
    let setup = Setup::from_scenario(&fought, &rules);
    let state = &setup.state;
    let louisiana = &state.units[state.unit_named("9th Louisiana").expect("on the table").0];
    assert_eq!(louisiana.quality, "regular");
    assert_eq!(rules.data.quality(&louisiana.quality).map(|q| q.discipline), Some(4));
    assert_eq!(rules.data.quality("veteran").map(|q| q.discipline), Some(3));
    assert!(louisiana.traits.contains(&"sharpshooters".to_string()), "{:?}", louisiana.traits);
    assert!(louisiana.traits.contains(&"rebel_yell".to_string()), "{:?}", louisiana.traits);
    assert_eq!((louisiana.stands, louisiana.starting_stands), (4, 4));
    // Battle 3's other changes: the 50th Georgia 5 - 1 (hospital, battle 2) = 4 stands;
    // Hollister promoted after battle 2 (a 5 on 5+: reliable -> aggressive).
    let georgia = &state.units[state.unit_named("50th Georgia").expect("on the table").0];
    assert_eq!(georgia.stands, 4);
    let hollister = state.leaders.iter().find(|l| l.name == "Col. Asa Hollister").expect("Hollister");
    assert_eq!(hollister.rating, "aggressive");
}

/// Ch14 4.0 and Ch16 2.1 (pips: a d6 of 5-6 is 3, aggressive +1, timid halved and rounded up):
/// in battle 2 of staff.dotc Brig. Ames, promoted timid -> reliable after battle 1, rolls 5 for
/// 3 pips, not the timid 2; Col. Yates is out (back for battle 4), so Col. Ide commands his
/// brigade, Timid: 5 is 2 pips; Col. Kane's successor was rolled Timid (3 on 1-3): 2 pips, not
/// the aggressive 4.
#[test]
fn ch14_4_0_the_brigades_are_commanded_as_the_roster_says() {
    let campaign = analysed(&fixture("staff.dotc"));
    let played = play(&campaign);
    let order = played.orders[1].as_ref().expect("battle 2's order of battle");
    let yates = order.brigadiers.iter().find(|b| b.name == "Col. Yates").expect("Yates");
    assert_eq!(
        (yates.commander.as_str(), yates.rating.as_str(), yates.command),
        ("Col. Ide", "timid", Command::Out { back_for: 4 })
    );
    let scenario = fixture("staff-ride.dotc");
    let log = format!(
        "game \"The Staff Ride again\" {{\n    scenario \"{}\"\n}}\n\nturn 1 confederate {{\n    command {{\n        pips \"Brig. Ames\" roll [5] => 3\n        pips \"Col. Vale\" roll [5] => 3\n        pips \"Col. Ide\" roll [5] => 2\n        pips \"Col. Kane\" roll [5] => 2\n    }}\n}}\n",
        scenario.display()
    );
    let dir = std::env::temp_dir().join(format!("dotc-order-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let path = dir.join("staff-ride-again-game.dotc");
    std::fs::write(&path, &log).expect("the log");
    let analysis = dotc_lang::analyze(&path, &log, &dotc_lang::FsLoader);
    let fought =
        replay(&analysis, &ReplayOptions { order_of_battle: Some(order), ..ReplayOptions::default() });
    assert!(errors(&fought).is_empty(), "{:#?}", errors(&fought));
    let as_scenario = replay(&analysis, &ReplayOptions::default());
    let _ = std::fs::remove_dir_all(&dir);
    let messages: Vec<&str> = errors(&as_scenario).iter().map(|f| f.message.as_str()).collect();
    // Ames timid: 3 halved = 2, not 3; Kane aggressive: 3 + 1 = 4, not 2; Col. Ide has not
    // taken command (Yates, whom he would replace, is up as the scenario has him): his line is
    // read as reliable Yates's, 3, not 2 (Ch16 2.4, RULINGS G18).
    assert_eq!(
        messages,
        [
            "pips: the rules give 2, the log claims 3",
            "pips: the rules give 3, the log claims 2",
            "pips: the rules give 4, the log claims 2"
        ]
    );
    assert!(
        as_scenario
            .findings
            .iter()
            .any(|f| f.message.starts_with("Col. Ide has not taken command: Col. Yates is still up")),
        "{:#?}",
        as_scenario.findings
    );
}

/// dotc D42: a unit with no stand on the roster (all in hospital, lost or captured) is not on
/// the table; one the roster does not hold keeps the scenario's strength.
#[test]
fn dotc_d42_a_unit_with_no_stand_on_the_roster_stays_off_the_table() {
    let analysis = analysed(&fixture("road.dotc"));
    let mut played = play(&analysis);
    let scenario = analysis.battles[2].scenario.as_deref().expect("battle 3's scenario");
    let s = scenario.document.scenario.as_ref().expect("a scenario");
    let roster = &mut played.before[2];
    roster.units.retain(|u| u.name != "12th New Jersey");
    if let Some(u) = roster.units.iter_mut().find(|u| u.name == "19th Maine") {
        u.on_roster = 0;
    }
    let order = OrderOfBattle::of(roster, s, &scenario.rule_data, 3, false);
    let fought = order.apply(s, &scenario.rule_data);
    let rules = rules_for(&fought, &scenario.rule_data).expect("rules");
    let state = Setup::from_scenario(&fought, &rules).state;
    assert!(state.unit_named("19th Maine").is_none());
    let jersey = &state.units[state.unit_named("12th New Jersey").expect("the scenario's").0];
    assert_eq!(jersey.stands, 5, "340 men at 75 a stand");
    assert!(order.changes().iter().any(|c| c.starts_with("\"19th Maine\" no stands on the roster")));
}

/// dotc D42: a reinforcement with no stand on the roster stays off the table; the log that
/// brings it on gets a finding at that line, nothing panics, the rest of the battle is played.
#[test]
fn dotc_d42_a_reinforcement_with_no_stand_left_is_a_finding_not_a_panic() {
    let analysis = analysed(&fixture("road.dotc"));
    let mut played = play(&analysis);
    let scenario = analysis.battles[1].scenario.as_deref().expect("battle 2's scenario");
    let s = scenario.document.scenario.as_ref().expect("a scenario");
    let roster = &mut played.before[1];
    let battery = roster.units.iter_mut().find(|u| u.name == "Hart’s Georgia Battery").expect("the battery");
    battery.on_roster = 0;
    let order = OrderOfBattle::of(roster, s, &scenario.rule_data, 2, false);
    let log = analysis.battles[1].log.as_deref().expect("battle 2's log");
    let fought = replay(log, &ReplayOptions { order_of_battle: Some(&order), ..ReplayOptions::default() });
    assert!(!errors(&fought).is_empty(), "the battery's entry and move are refused");
    assert!(fought.summary.units.iter().all(|u| u.name != "Hart’s Georgia Battery"));
    assert!(fought.summary.units.iter().any(|u| u.name == "9th Louisiana"));
}

/// dotc D43 and Ch16 8.1's table: in battle 2 of road.dotc the 9th Louisiana takes the field with
/// 3 of the 4 stands it joined with (one lost for good in battle 1). Under `roster_health =
/// fresh` (the default) its health counts from those 3: 3 of 3 is Fresh. Under `depleted` the
/// missing stand counts as lost before the battle: 3 of 4 is Worn (a 4-stand regiment is Fresh
/// only at 4). The 19th Maine, 4 of 5, is Fresh either way (5-4 Fresh). The note says so.
#[test]
fn dotc_d43_depleted_counts_health_from_the_strength_the_regiment_joined_with() {
    let analysis = analysed(&fixture("road.dotc"));
    let played = play(&analysis);
    let scenario = analysis.battles[1].scenario.as_deref().expect("battle 2's scenario");
    let s = scenario.document.scenario.as_ref().expect("a scenario");
    let roster = &played.before[1];
    let health = |depleted: bool, name: &str| {
        let order = OrderOfBattle::of(roster, s, &scenario.rule_data, 2, depleted);
        let fought = order.apply(s, &scenario.rule_data);
        let rules = rules_for(&fought, &scenario.rule_data).expect("rules");
        let state = Setup::from_scenario(&fought, &rules).state;
        let unit = &state.units[state.unit_named(name).expect("on the table").0];
        let health = crate::engine::morale::health(&rules, unit.stands, unit.starting_stands);
        (unit.stands, unit.starting_stands, format!("{health:?}"), order.changes())
    };
    let (stands, starting, fresh, _) = health(false, "9th Louisiana");
    assert_eq!((stands, starting, fresh.as_str()), (3, 3, "Fresh"));
    let (stands, starting, worn, changes) = health(true, "9th Louisiana");
    assert_eq!((stands, starting, worn.as_str()), (3, 4, "Worn"));
    assert!(
        changes.iter().any(|c| c.starts_with("\"9th Louisiana\" 3 stands (the scenario: 4)")
            && c.ends_with("its health counted from 4 stands (1 short, lost before the battle)")),
        "{changes:?}"
    );
    let (stands, starting, maine, _) = health(true, "19th Maine");
    assert_eq!((stands, starting, maine.as_str()), (4, 5, "Fresh"));
}
