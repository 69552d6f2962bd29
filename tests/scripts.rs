//! Scenario scripts as a user meets them: `dotc check` locating script errors, and replays in
//! which hooks and triggers fire (a reinforcement called up, a leader killed, victory decided),
//! with their dice from the log or from the seed, byte for byte the same every time.

mod common;

use common::{check_file, dotc, render, root, text};

const HOOKS_LOG: &str = "tests/fixtures/scripts/hooks-game.dotc";
const HOOKS_SEEDED: &str = "tests/fixtures/scripts/hooks-seeded.dotc";

/// The narrative, the summary and the findings of one replay, as one reviewed text.
fn replay(file: &str) -> (String, std::process::Output) {
    let out = dotc(&["replay", file, "--summary"], &root());
    let shown = format!("{}\n---- findings ----\n{}", text(&out.stdout), text(&out.stderr));
    (shown, out)
}

#[test]
fn check_reports_script_errors_at_their_line_and_column() {
    let path = root().join("tests/fixtures/scripts/broken-scripts.dotc");
    let (source, diagnostics) = check_file(&path);
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec!["dotc::script-error"; 3], "{diagnostics:#?}");
    let at = |i: usize| {
        let span = diagnostics[i].primary.span;
        (dotc_lang::diagnostic::line_col(&source, span.start), &source[span.start..span.end])
    };
    // The victory expression, the `import` of the script block and the trigger's `eval`.
    assert_eq!(at(0).0.0, 21);
    assert_eq!(at(1), ((25, 9), "i"));
    assert_eq!(at(2).0.0, 31);
    insta::assert_snapshot!("broken_scripts", render(&diagnostics, "broken-scripts.dotc", &source));
}

#[test]
fn hooks_fire_in_the_replay_with_the_logs_dice() {
    let (shown, out) = replay(HOOKS_LOG);
    insta::assert_snapshot!("hooks_game", shown);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    // The reserve called forward by `on_turn_start` may enter on turn 3, not turn 4.
    assert!(shown.contains("3rd Wisconsin may enter from turn 3 (on_turn_start)"));
    assert!(shown.contains("3rd Wisconsin enters at (1, 12)"));
    // The trigger rolls the log's 5, then the casualty roll takes its 6: killed (Ch16 2.4).
    assert!(shown.contains("The colonel rides forward rolls [5]"));
    assert!(shown.contains("Col. Zeb Vance leader casualty roll 6: Killed in Action"));
    assert!(shown.contains("on_leader_hit: Col. Zeb Vance: killed"));
    // Victory: the Mill is union's at the end; 2 VP for it and 1 from the script.
    assert!(shown.contains("Victory points: confederate 0, union 3"));
    assert!(shown.contains("Result: union major (objective \"Mill\" held_by union at_end)"));
}

#[test]
fn hooks_fire_in_the_replay_with_the_seeds_dice() {
    let (shown, out) = replay(HOOKS_SEEDED);
    insta::assert_snapshot!("hooks_seeded", shown);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    // Seed 7's first two dice: a 6 to ride forward, a 5 on the casualty table.
    use dotc_runtime::dice::{DiceSource, Purpose, SeededDice};
    let mut seed = SeededDice::new(7);
    let first = seed.roll(Purpose::Friction, 1).unwrap();
    let second = seed.roll(Purpose::LeaderCasualty, 1).unwrap();
    assert!(shown.contains(&format!("The colonel rides forward rolls {first:?}")), "{shown}");
    assert!(shown.contains(&format!("Col. Zeb Vance leader casualty roll {}", second[0])), "{shown}");
}

#[test]
fn a_log_with_the_seeds_dice_replays_as_the_seed_does() {
    use dotc_runtime::dice::{DiceSource, Purpose, SeededDice};
    let mut seed = SeededDice::new(7);
    let dice: Vec<u8> = (0..2).map(|_| seed.roll(Purpose::Friction, 1).unwrap()[0]).collect();
    let logged = std::fs::read_to_string(root().join(HOOKS_LOG)).unwrap().replace(
        "scripted \"The colonel rides forward\" roll [5, 6]",
        &format!("scripted \"The colonel rides forward\" roll [{}, {}]", dice[0], dice[1]),
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(root().join("tests/fixtures/scripts/hooks.dotc"), dir.path().join("hooks.dotc")).unwrap();
    std::fs::write(dir.path().join("game.dotc"), logged).unwrap();
    let json = |args: &[&str]| text(&dotc(args, &root()).stdout);
    let game = dir.path().join("game.dotc");
    let from_log = json(&["replay", game.to_str().unwrap(), "--format", "json"]);
    let from_seed = json(&["replay", HOOKS_SEEDED, "--format", "json"]);
    let summary = |s: &str| serde_json::from_str::<serde_json::Value>(s).unwrap()["summary"].clone();
    assert_eq!(summary(&from_log), summary(&from_seed));
}

#[test]
fn a_replay_with_scripts_is_the_same_bytes_every_time() {
    for file in [HOOKS_LOG, HOOKS_SEEDED] {
        assert_eq!(replay(file).0, replay(file).0, "{file}");
        let json = || text(&dotc(&["replay", file, "--format", "json"], &root()).stdout);
        assert_eq!(json(), json(), "{file}");
    }
}

#[test]
fn an_endless_hook_is_stopped_and_print_never_reaches_stdout() {
    let file = "tests/fixtures/scripts/endless-game.dotc";
    let started = std::time::Instant::now();
    let out = dotc(&["replay", file, "--format", "json"], &root());
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // Everything on stdout is the one JSON document: the script's `print` is an event in it.
    let stdout = text(&out.stdout);
    let value: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is only the replay's JSON");
    let events = value["events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["event"]["text"] == "on_turn_start: marching on"), "{stdout}");
    // The loop is a finding at the turn where the hook ran, citing the hook and its place.
    let findings = value["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{stdout}");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(message.starts_with("hook on_turn_start (endless.dotc:21:12): "), "{message}");
    assert!(findings[0]["in_scenario"].is_object(), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}
