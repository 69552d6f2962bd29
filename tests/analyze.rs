//! `dotc analyze`: the time-and-motion report of a copy of the Gettysburg morning scenario as it
//! stood before issue 19's rework, and the warnings `dotc check` gives from it.

mod common;

use common::{dotc, root, text};

const MORNING: &str = "tests/fixtures/analyze/gettysburg-morning-2026-12.dotc";

fn report_json() -> serde_json::Value {
    let out = dotc(&["analyze", MORNING, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_str(&text(&out.stdout)).expect("analyze JSON parses")
}

fn force<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["forces"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == name))
        .unwrap_or_else(|| panic!("no force {name}"))
}

fn goal<'a>(force: &'a serde_json::Value, objective: &str) -> &'a serde_json::Value {
    force["objectives"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == objective))
        .unwrap_or_else(|| panic!("no objective {objective}"))
}

#[test]
fn the_morning_report_reads_as_reviewed() {
    let out = dotc(&["analyze", MORNING], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!("gettysburg_morning_2026_12", text(&out.stdout));
}

#[test]
fn the_morning_report_finds_what_issue_19_lists() {
    let report = report_json();
    assert_eq!(report["turns"], 14);
    assert_eq!(report["first_side"], "confederate");
    // The Iron Brigade is due at 10:15, turn 10 (a Union turn); its `enter` is that turn's
    // maneuver, so it moves on turns 12 and 14 only, and Herbst Woods (36.1" from its entry
    // point to the objective's 3" radius) is out of reach.
    let iron = force(&report, "Meredith’s Iron Brigade");
    assert_eq!(iron["arrival"]["due"], 10);
    assert_eq!(iron["arrival"]["enters"], 10);
    assert_eq!(iron["moves"], serde_json::json!([12, 14]));
    assert_eq!(goal(iron, "Herbst Woods")["turn"], serde_json::Value::Null);
    assert_eq!(goal(iron, "Herbst Woods")["distance"], 36.1);
    // Archer: 68.5" from Seminary Ridge's radius, 7 moves at 8" (a line's best, as an assault
    // column: it can never form a road column) is 56": out of reach.
    let archer = force(&report, "Archer’s Brigade");
    assert_eq!(goal(archer, "Seminary Ridge")["distance"], 68.5);
    assert_eq!(goal(archer, "Seminary Ridge")["turn"], serde_json::Value::Null);
    let decisive = &report["conditions"][0];
    assert_eq!(decisive["outcome"], "confederate decisive");
    assert_eq!(decisive["status"], "unreachable");
    assert_eq!(decisive["line"], 229);
}

#[test]
fn check_warns_at_the_condition_and_the_reinforcement() {
    let out = dotc(&["check", MORNING, "--format", "json"], &root());
    // Warnings only: the check passes.
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("check JSON parses");
    let found: Vec<(String, u64, String)> = json
        .as_array()
        .into_iter()
        .flatten()
        .chain(json["diagnostics"].as_array().into_iter().flatten())
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["primary"]["start"]["line"].as_u64().unwrap_or_default(),
                d["severity"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    assert!(found.contains(&("dotc::reinforcement-too-late".into(), 222, "warning".into())), "{found:?}");
    assert!(found.contains(&("dotc::unreachable-victory".into(), 229, "warning".into())), "{found:?}");
    assert_eq!(found.len(), 2, "{found:?}");
}

#[test]
fn the_svg_shows_the_chosen_brigades_reach() {
    let dir = std::env::temp_dir().join(format!("dotc-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let svg = dir.join("iron.svg");
    let svg_arg = svg.display().to_string();
    let out = dotc(&["analyze", MORNING, "--svg", &svg_arg, "--brigade", "Meredith’s Iron Brigade"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let drawn = std::fs::read_to_string(&svg).expect("the map is written");
    assert!(drawn.contains("<g id=\"reach\""));
    assert!(drawn.contains("data-turn=\"12\""));
    assert!(drawn.contains("10:15 Meredith’s Iron Brigade"));
    let _ = std::fs::remove_dir_all(&dir);
    let wrong = dotc(&["analyze", MORNING, "--svg", &svg_arg, "--brigade", "Meredith"], &root());
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        text(&wrong.stderr).contains("did you mean \"Meredith’s Iron Brigade\"?"),
        "{}",
        text(&wrong.stderr)
    );
}
