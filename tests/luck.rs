//! `dotc luck`: the tutorial game's dice weighed against the odds, as a user runs it.

mod common;

use common::{dotc, root, text};

const GAME: &str = "scenarios/tutorial/fence-line-game.dotc";

fn luck_json(file: &str) -> serde_json::Value {
    let out = dotc(&["luck", file, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_str(&text(&out.stdout)).expect("luck JSON parses")
}

/// The roll of `kind` by `who` on `line` of the log.
fn roll<'a>(luck: &'a serde_json::Value, line: u64, who: &str, kind: &str) -> &'a serde_json::Value {
    luck["rolls"]
        .as_array()
        .and_then(|rolls| rolls.iter().find(|r| r["line"] == line && r["who"] == who && r["kind"] == kind))
        .unwrap_or_else(|| panic!("no {kind} roll by {who} on line {line}"))
}

fn number(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn the_tutorial_games_luck_reads_as_reviewed() {
    let out = dotc(&["luck", GAME], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The tutorial replays clean, so there is no note about problems.
    assert_eq!(text(&out.stderr), "");
    let shown = text(&out.stdout);
    insta::assert_snapshot!("tutorial_game_luck", shown);
    assert!(shown.contains("percentile: the mid-p percentile of the roll, P(X < x) + P(X = x)/2"));
}

#[test]
fn volley_percentiles_are_the_exact_binomial_mid_p() {
    let luck = luck_json(GAME);
    // Line 79: the 19th Maine fires 5 dice needing 3+ (clean barrels, p = 2/3) and hits twice.
    // P(X = 0) = 1/243, P(X = 1) = 5 * 2/243 = 10/243, P(X = 2) = 10 * 4 * 1/243 = 40/243,
    // so the mid-p percentile is (1 + 10 + 40/2) / 243 = 31/243.
    let maine = roll(&luck, 79, "19th Maine", "volley");
    assert_eq!(
        (maine["dice"].as_u64(), maine["needed"].as_i64(), maine["observed"].as_u64()),
        (Some(5), Some(3), Some(2))
    );
    assert!(close(number(&maine["percentile"]), 31.0 / 243.0), "{maine}");
    // The chance of 2 hits or more is 1 - 11/243.
    assert!(close(number(&maine["chance"]), 232.0 / 243.0), "{maine}");
    assert_eq!(maine["side"], "union");
    // Line 82: the battery's 6 dice at 4+ miss with every one: P(X = 0) = 1/64, mid-p 1/128.
    let battery = roll(&luck, 82, "Battery K, 4th U.S.", "volley");
    assert_eq!(number(&battery["percentile"]), 1.0 / 128.0);
    assert_eq!(number(&battery["expected"]), 3.0);
    // Line 112: the 19th Maine's closing volley is fired in the confederate turn, but it is the
    // union's roll; the 9th Louisiana's Shock save (4+, passed on a 5) is the confederates'.
    assert_eq!(roll(&luck, 112, "19th Maine", "volley")["side"], "union");
    let save = roll(&luck, 112, "9th Louisiana", "test");
    assert_eq!((save["side"].as_str(), save["observed"].as_u64()), (Some("confederate"), Some(1)));
    assert_eq!((number(&save["chance"]), number(&save["percentile"])), (0.5, 0.75));
    // Line 85: the 50th Georgia fails its Shock save needing 3+: chance 2/3, mid-p 1/6.
    let failed = roll(&luck, 85, "50th Georgia", "test");
    assert!(close(number(&failed["chance"]), 2.0 / 3.0) && close(number(&failed["percentile"]), 1.0 / 6.0));
}

#[test]
fn the_json_gives_each_side_its_score() {
    let luck = luck_json(GAME);
    let sides = luck["sides"].as_array().expect("sides");
    let ids: Vec<&str> = sides.iter().filter_map(|s| s["side"].as_str()).collect();
    assert_eq!(ids, ["union", "confederate"]);
    for side in sides {
        for field in
            ["name", "rolls", "tallies", "observed", "expected", "variance", "z", "percentile", "verdict"]
        {
            assert!(side.get(field).is_some(), "no `{field}` in {side}");
        }
        let (z, variance) = (number(&side["z"]), number(&side["variance"]));
        let (observed, expected) = (number(&side["observed"]), number(&side["expected"]));
        assert!(close(z, (observed - expected) / variance.sqrt()));
    }
    // The confederates hit 4 + 3 + 2 + 3 + 1 = 13 times.
    let confederate = &sides[1];
    let hits = confederate["tallies"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["measure"] == "hits"))
        .expect("a hits tally");
    assert_eq!(
        (hits["observed"].as_f64(), hits["rolls"].as_u64(), hits["dice"].as_u64()),
        (Some(13.0), Some(5), Some(23))
    );
    for r in luck["rolls"].as_array().expect("rolls") {
        for field in [
            "turn",
            "line",
            "side",
            "kind",
            "who",
            "what",
            "dice",
            "needed",
            "faces",
            "result",
            "observed",
            "expected",
            "variance",
            "chance",
            "percentile",
        ] {
            assert!(r.get(field).is_some(), "no `{field}` in {r}");
        }
    }
}

#[test]
fn a_log_with_errors_is_not_judged() {
    let out = dotc(&["luck", "tests/fixtures/broken/game-unknown-unit.dotc"], &root());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("dotc::unknown-unit") && err.contains("its luck is not judged"), "{err}");
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn a_log_the_replay_disputes_is_still_judged_with_a_note() {
    let out = dotc(&["luck", "tests/fixtures/replay/wrong-claims.dotc"], &root());
    assert_eq!(out.status.code(), Some(0));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("note: the replay of tests/fixtures/replay/wrong-claims.dotc found problems"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("score: z = "));
}

#[test]
fn a_scenario_is_not_a_game_log() {
    let out = dotc(&["luck", "scenarios/tutorial/fence-line.dotc"], &root());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not a game log"));
}

#[test]
fn the_luck_is_the_same_bytes_every_time() {
    let run = || text(&dotc(&["luck", GAME, "--format", "json"], &root()).stdout);
    assert_eq!(run(), run());
}
