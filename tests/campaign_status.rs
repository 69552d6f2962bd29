//! `dotc campaign status --after BATTLE` and `--history` (issue 19): the rosters as they stood
//! after each battle of the one-day campaign of July 1, in text and JSON, each number the
//! campaign gives checked against the battles' logs as `dotc replay` plays them (Ch14 1.0, 2.0,
//! dotc D49: the day's losses wait for the Surgeon after its last battle).

mod common;

use common::{dotc, root, text};
use serde_json::Value;

const CAMPAIGN: &str = "scenarios/gettysburg-day1/gettysburg-day1-campaign.dotc";
const MORNING: &str = "McPherson's Ridge, the morning";
const AFTERNOON: &str = "McPherson's Ridge, the afternoon";
const WISCONSIN: &str = "7th Wisconsin";

/// `dotc ARGS...` from the repository's root: its standard output as JSON.
fn json(args: &[&str]) -> Value {
    let out = dotc(args, &root());
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// A unit's record in a campaign state's JSON.
fn unit<'v>(state: &'v Value, name: &str) -> &'v Value {
    let units = state["units"].as_array().expect("units");
    units.iter().find(|u| u["name"] == name).unwrap_or_else(|| panic!("{name} in {state}"))
}

/// The stands a unit lost in a logged battle, as `dotc replay` plays the log (fought with the
/// campaign's roster when its header names its battle): its stands at the start less at the end.
fn lost_in(log: &str, name: &str) -> u64 {
    let replayed = json(&["replay", "--format", "json", &format!("scenarios/gettysburg-day1/{log}")]);
    let units = replayed["summary"]["units"].as_array().expect("the summary's units");
    let u = units.iter().find(|u| u["name"] == name).unwrap_or_else(|| panic!("{name} in {log}"));
    u["starting_stands"].as_u64().expect("starting") - u["stands"].as_u64().expect("stands")
}

fn number(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("a number: {value}"))
}

/// The 7th Wisconsin joins with 5 stands (364 men, the morning's scenario), loses none in the
/// morning's log and 3 in McPherson's Ridge's (Ch16 5.0, the campaign battle's log): after the
/// afternoon it has 2 on the roster and 3 awaiting the day's Surgeon (dotc D49), who rolls
/// [1, 1, 6] for them after the brickyard: 1 back, 2 lost for good (Ch14 2.0).
#[test]
fn ch14_2_0_the_7th_wisconsin_after_each_battle_as_the_logs_give_it() {
    let morning_loss = lost_in("gettysburg-day1-game.dotc", WISCONSIN);
    let afternoon_loss = lost_in("gettysburg-day1-campaign-mcpherson-game.dotc", WISCONSIN);
    assert_eq!((morning_loss, afternoon_loss), (0, 3));
    let joined = 5;

    let after = json(&["campaign", "status", CAMPAIGN, "--after", MORNING, "--format", "json"]);
    let w = unit(&after, WISCONSIN);
    assert_eq!(after["battles"].as_array().map(Vec::len), Some(1), "{after}");
    assert_eq!(number(&w["strength"]), joined);
    assert_eq!(number(&w["on_roster"]), joined - morning_loss);
    assert_eq!(number(&w["awaiting_surgeon"]), morning_loss);

    let after = json(&["campaign", "status", CAMPAIGN, "--after", AFTERNOON, "--format", "json"]);
    let w = unit(&after, WISCONSIN);
    assert_eq!(after["battles"].as_array().map(Vec::len), Some(3), "{after}");
    assert_eq!(number(&w["on_roster"]), joined - morning_loss - afternoon_loss);
    assert_eq!(number(&w["awaiting_surgeon"]), morning_loss + afternoon_loss);
    assert_eq!((number(&w["lost"]), w["hospital"].as_array().map(Vec::len)), (0, Some(0)));

    // The day's last battle, named by its number: the Surgeon's [1, 1, 6] returns 1 of the 3.
    let after = json(&["campaign", "status", CAMPAIGN, "--after", "5", "--format", "json"]);
    let w = unit(&after, WISCONSIN);
    assert_eq!((number(&w["on_roster"]), number(&w["lost"]), number(&w["awaiting_surgeon"])), (3, 2, 0));
    // After the last battle the rosters are the campaign's status.
    let status = json(&["campaign", "status", CAMPAIGN, "--format", "json"]);
    assert_eq!(after, status);
}

/// `--history`: the same numbers battle by battle, in JSON and in the text table.
#[test]
fn the_history_gives_each_units_stands_battle_by_battle() {
    let history = json(&["campaign", "status", CAMPAIGN, "--history", "--format", "json"]);
    let battles = history["battles"].as_array().expect("battles");
    let names: Vec<&str> = battles.iter().map(|b| b["name"].as_str().unwrap_or("")).collect();
    assert_eq!(names[0], MORNING);
    assert_eq!(names[2], AFTERNOON);
    assert_eq!(battles.len(), 5);
    let stands: Vec<(u64, u64)> = battles
        .iter()
        .map(|b| {
            let w = unit(b, WISCONSIN);
            (number(&w["on_roster"]), number(&w["awaiting_surgeon"]))
        })
        .collect();
    assert_eq!(stands, [(5, 0), (5, 0), (2, 3), (2, 3), (3, 0)]);
    // The 26th Wisconsin joins in battle 2 (the afternoon north of the town): not before it.
    assert!(battles[0]["units"].as_array().expect("units").iter().all(|u| u["name"] != "26th Wisconsin"));
    assert_eq!(number(&unit(&battles[1], "26th Wisconsin")["joined"]), 2);
    assert_eq!(battles[0]["field"], "union");
    assert_eq!(battles[2]["field"], Value::Null);

    let out = dotc(&["campaign", "status", CAMPAIGN, "--history"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let row = |name: &str| {
        let line =
            table.lines().find(|l| l.trim_start().starts_with(name)).unwrap_or_else(|| panic!("{table}"));
        line[line.find(name).unwrap_or(0) + name.len()..].split_whitespace().collect::<Vec<_>>().join(" ")
    };
    // joined, start, after battles 1 to 5, lost, drafted.
    assert_eq!(row("7th Wisconsin"), "1 5 5 5 2+3 2+3 3 2 0");
    assert_eq!(row("26th Wisconsin"), "2 6 - 6 6 6 6 0 0");
}

/// The tutorial's campaign: a promotion after battle 2 (Ch14 4.0) in the brigadier's row, the
/// 9th Louisiana's replacements (Ch14 5.0) in its own.
#[test]
fn the_history_gives_the_brigadiers_fates_and_the_drafts() {
    let out = dotc(&["campaign", "status", "tests/campaign/road.dotc", "--history"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let line = |name: &str| table.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{table}"));
    assert!(line("Col. Asa Hollister").ends_with("2: promoted (aggressive)"), "{table}");
    assert_eq!(
        line("9th Louisiana").split_whitespace().collect::<Vec<_>>(),
        ["9th", "Louisiana", "1", "4", "3", "4", "4", "2", "2"]
    );
}

/// An unknown battle is an error that lists the campaign's battles, with a "did you mean".
#[test]
fn an_unknown_battle_lists_the_battles() {
    for (named, hint) in [("McPherson's Ridge, the mornin", true), ("Chancellorsville", false), ("6", false)]
    {
        let out = dotc(&["campaign", "status", CAMPAIGN, "--after", named], &root());
        assert_ne!(out.status.code(), Some(0), "{named}");
        let said = text(&out.stderr);
        assert!(said.contains(&format!("has no battle \"{named}\"")), "{said}");
        assert_eq!(said.contains(&format!("did you mean \"{MORNING}\"")), hint, "{said}");
        assert!(
            said.contains("1 \"McPherson's Ridge, the morning\", 2 \"Oak Hill and Barlow's Knoll\""),
            "{said}"
        );
        assert!(said.contains("5 \"Coster at the brickyard\""), "{said}");
        assert!(out.stdout.is_empty(), "{named}");
    }
}

/// The text of `--after`: its title names the battle, the battles after it are left out.
#[test]
fn after_a_battle_the_text_names_it_and_stops_there() {
    let out = dotc(&["campaign", "status", CAMPAIGN, "--after", AFTERNOON], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    let first = said.lines().next().unwrap_or("");
    assert_eq!(
        first,
        "Gettysburg, July 1: the first day: the rosters after battle 3 \"McPherson's Ridge, the afternoon\" (of 5)"
    );
    assert!(!said.contains("Seminary Ridge"), "{said}");
    let w = said.lines().find(|l| l.trim_start().starts_with(WISCONSIN)).expect("the 7th Wisconsin");
    assert!(w.contains("2 (+3 awaiting the surgeon)"), "{w}");
}
