//! Issue 20: `dotc new game SCENARIO` writes a game log to fill in at the table.

mod common;

use std::path::PathBuf;

use common::{dotc, root, shipped_files, text};

/// A fresh folder of this test's own under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dotc-new-game-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// On every shipped scenario the new log checks clean, and its first command phase has a `pips`
/// line for exactly the brigadiers the replay asks to roll in turn 1 (Ch16 2.1, RULINGS G8):
/// the audit finds each of those lines' die missing, and no brigadier left out.
#[test]
fn issue_20_a_new_game_on_every_shipped_scenario_checks_clean_with_a_pips_line_per_brigadier() {
    let dir = scratch("shipped");
    let scenarios: Vec<PathBuf> = shipped_files()
        .into_iter()
        .filter(|p| p.starts_with(root().join("scenarios")))
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.starts_with("scenario \""))))
        .collect();
    assert!(scenarios.len() >= 6, "the tutorial and the five of July 1: {scenarios:?}");
    for scenario in scenarios {
        let stem = scenario.file_stem().and_then(|s| s.to_str()).expect("a name").to_string();
        let log = dir.join(format!("{stem}-new.dotc"));
        let made =
            dotc(&["new", "game", &scenario.to_string_lossy(), "--output", &log.to_string_lossy()], &dir);
        assert!(made.status.success(), "{stem}: {}", text(&made.stderr));
        let written = std::fs::read_to_string(&log).expect("written");
        let checked = dotc(&["check", &log.to_string_lossy()], &dir);
        assert!(checked.status.success(), "{stem}: {}\n{written}", text(&checked.stdout));
        let pips = written.lines().filter(|l| l.trim_start().starts_with("pips \"")).count();
        assert!(pips >= 2, "{stem}: a brigadier of each side at least\n{written}");
        let audit = text(&dotc(&["audit", "--format", "json", &log.to_string_lossy()], &dir).stdout);
        let audit: serde_json::Value = serde_json::from_str(&audit).expect("the audit's JSON");
        let findings: Vec<(u64, String)> = audit["files"][0]["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .map(|f| (f["line"].as_u64().unwrap_or(0), f["message"].as_str().unwrap_or("").to_string()))
            .collect();
        let pips_lines: Vec<u64> = (1..)
            .zip(written.lines())
            .filter(|(_, l)| l.trim_start().starts_with("pips \""))
            .map(|(n, _)| n)
            .collect();
        assert!(
            findings
                .iter()
                .all(|(_, m)| m.starts_with("the staff_pips roll needs 1 die, but the log records 0")),
            "{stem}: only the pips lines' dice are wanted (none left out): {findings:#?}"
        );
        assert_eq!(findings.iter().map(|(l, _)| *l).collect::<Vec<_>>(), pips_lines, "{stem}");
        if stem == "gettysburg-day1-morning" {
            // Worked by hand: Gamble's and Devin's cavalry and Heth's two leading brigades are
            // on the table at 10:00; Cutler and Meredith come up the Emmitsburg Road later.
            let named: Vec<&str> = written
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("pips \""))
                .map(|l| l.trim_end_matches('"'))
                .collect();
            let want = [
                "Col. William Gamble",
                "Col. Thomas C. Devin",
                "Brig. Gen. James J. Archer",
                "Brig. Gen. Joseph R. Davis",
            ];
            assert_eq!(named, want);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The log is written beside the scenario by default and names it by a path relative to itself;
/// an existing file is never overwritten, and a file that is not a scenario is refused.
#[test]
fn issue_20_a_new_game_names_its_scenario_relatively_and_overwrites_nothing() {
    let dir = scratch("beside");
    let scenario = dir.join("fence-line.dotc");
    std::fs::copy(root().join("scenarios/tutorial/fence-line.dotc"), &scenario).expect("copied");
    let made = dotc(&["new", "game", "fence-line.dotc", "--name", "Club night"], &dir);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let log = dir.join("fence-line-game.dotc");
    let written = std::fs::read_to_string(&log).expect("written beside the scenario");
    assert!(written.contains("game \"Club night\" {\n    scenario \"fence-line.dotc\"\n"), "{written}");
    assert!(written.contains("\nturn 1 confederate {\n"), "the scenario's first side: {written}");
    let again = dotc(&["new", "game", "fence-line.dotc"], &dir);
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("already exists"), "{}", text(&again.stderr));
    assert_eq!(std::fs::read_to_string(&log).expect("kept"), written);
    let not_scenario = dotc(&["new", "game", "fence-line-game.dotc", "--output", "x.dotc"], &dir);
    assert!(!not_scenario.status.success());
    assert!(text(&not_scenario.stderr).contains("is not a scenario"), "{}", text(&not_scenario.stderr));
    assert!(!dir.join("x.dotc").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
