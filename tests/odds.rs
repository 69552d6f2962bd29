//! `dotc odds fire` as a user runs it (Ch16 5.0-5.7, RULINGS D).

use std::process::{Command, Output};

fn dotc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dotc")).args(args).output().expect("dotc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// RULE-05-2.2 rifled musket 4+ at 10", 5D6 in the open: 2.5 hits, 1.25 stands (RULE-05-3.3).
#[test]
fn odds_fire_json_gives_the_chapter_15_numbers() {
    let out =
        dotc(&["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "10", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!((v["expected_hits"].as_f64().unwrap() - 2.5).abs() < 1e-12);
    assert!((v["expected_stands_lost"].as_f64().unwrap() - 1.25).abs() < 1e-12);
    assert_eq!(v["dice"], 5);
    assert_eq!(v["band"], "medium");
    assert_eq!(v["to_hit"], 4);
    assert!(v["save"].is_null());
    for key in ["p_hit", "expected_unsaved", "p_shock"] {
        assert!(v[key].is_f64(), "{key}");
    }
    for key in ["hits", "unsaved", "stands_lost"] {
        let sum: f64 = v[key].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-12, "{key}");
    }
}

#[test]
fn odds_fire_table_and_monte_carlo() {
    let out = dotc(&[
        "odds",
        "fire",
        "--weapon",
        "napoleon",
        "--stands",
        "2",
        "--range",
        "5",
        "--cover",
        "heavy",
        "--target",
        "column",
        "--monte-carlo",
        "20000",
        "--seed",
        "7",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for want in ["4D6", "2+", "save         5+", "simulated (20000 volleys, seed 7)", "stands lost"] {
        assert!(stdout.contains(want), "missing {want:?} in\n{stdout}");
    }
    let out = dotc(&[
        "odds",
        "fire",
        "--weapon",
        "rifled_musket",
        "--stands",
        "5",
        "--range",
        "10",
        "--json",
        "--monte-carlo",
        "1000",
        "--seed",
        "3",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["monte_carlo"]["volleys"], 1000);
    assert!(v["monte_carlo"]["expected_hits"]["mean"].is_f64());
}

#[test]
fn odds_fire_unknown_weapon_and_out_of_range_exit_2() {
    let out = dotc(&["odds", "fire", "--weapon", "nope", "--stands", "5", "--range", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown weapon `nope`"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    let out =
        dotc(&["odds", "fire", "--weapon", "rifled_musket", "--stands", "5", "--range", "40", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("out of range"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
}

/// Ch16 7.3: 1D6 + engaged stands + modifiers a side; one point of edge wins 21 of 36.
#[test]
fn odds_melee_json_gives_win_draw_and_loss() {
    let out = dotc(&[
        "odds",
        "melee",
        "--attacker-stands",
        "2",
        "--attacker-mod",
        "1",
        "--defender-stands",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!((v["attacker_wins"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-12);
    assert!((v["draw"].as_f64().unwrap() - 5.0 / 36.0).abs() < 1e-12);
    assert!((v["defender_wins"].as_f64().unwrap() - 10.0 / 36.0).abs() < 1e-12);
    // Negative modifiers are accepted as values, and a melee without contact is refused.
    let minus =
        dotc(&["odds", "melee", "--attacker-stands", "2", "--attacker-mod", "-2", "--defender-stands", "2"]);
    assert!(minus.status.success(), "{}", text(&minus.stderr));
    assert!(text(&minus.stdout).contains("defender wins"));
    let none = dotc(&["odds", "melee", "--attacker-stands", "0", "--defender-stands", "2"]);
    assert_eq!(none.status.code(), Some(2));
}
