//! Scenario scripts as a user meets them: `dotc check` locating script errors, and replays in
//! which hooks and triggers fire (a reinforcement called up, a leader killed, victory decided),
//! with their dice from the log or from the seed, byte for byte the same every time.

mod common;

use common::{check_file, dotc, render, root, text};

const HOOKS_LOG: &str = "tests/fixtures/scripts/hooks-game.dotc";
const HOOKS_SEEDED: &str = "tests/fixtures/scripts/hooks-seeded.dotc";

/// The narrative, the summary and the findings of one replay, as one reviewed text.
fn replay(file: &str) -> (String, std::process::Output) {
    let out = dotc(&["replay", file, "--rules", "--summary"], &root());
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
    assert_eq!(at(1), ((25, 9), "import"));
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
    // Victory: the Mill is union's where the log stops; 2 VP for it and 1 from the script. The
    // log stops after turn 3 of the scenario's 4: the result says the game is unfinished.
    assert!(shown.contains("Victory points: confederate 0, union 3"));
    assert!(shown.contains(
        "Result: unfinished, the log stops after turn 3 of 4; were the game to end here: union major \
         (objective \"Mill\" held_by union at_end)"
    ));
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
    // Issue 15: at the statement of the loop it was in (`n += 1`), not the hook's name.
    assert!(message.starts_with("hook on_turn_start (endless.dotc:24:26): "), "{message}");
    // Stopped by its count of operations, never by the clock.
    assert!(message.contains("more than 150,000 operations, the most one call may do"), "{message}");
    assert!(findings[0]["in_scenario"].is_object(), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_hook_printing_in_a_loop_is_stopped_by_the_output_limit_at_its_place() {
    let out = dotc(&["replay", "tests/fixtures/scripts/chatty-game.dotc", "--format", "json"], &root());
    let stdout = text(&out.stdout);
    let value: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is only the replay's JSON");
    // Each turn's call writes its first 100 lines, then stops: the 101st is not written.
    let lines: Vec<&str> = value["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"]["text"].as_str())
        .filter(|t| t.starts_with("on_turn_start: line "))
        .collect();
    assert_eq!(lines.len(), 200, "{stdout}");
    assert_eq!(lines[99], "on_turn_start: line 100");
    assert_eq!(lines[100], "on_turn_start: line 1");
    // One finding for each call, at the turn it ran, at the `print` that went past the limit
    // (issue 15), naming the limit.
    let findings = value["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{stdout}");
    for finding in findings {
        let message = finding["message"].as_str().unwrap();
        assert!(message.starts_with("hook on_turn_start (chatty.dotc:26:17): "), "{message}");
        assert!(
            message
                .contains("wrote more than 100 lines to the replay (print, debug, game.log and every action"),
            "{message}"
        );
        assert!(finding["in_scenario"].is_object(), "{stdout}");
    }
    assert_eq!(out.status.code(), Some(1));
}

/// Two threads that keep both cores busy until dropped (or for two minutes at most).
struct BusyCores {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl BusyCores {
    fn start() -> BusyCores {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let threads = (0..2)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let began = std::time::Instant::now();
                    let mut n = 0u64;
                    while !stop.load(Ordering::Relaxed)
                        && began.elapsed() < std::time::Duration::from_secs(120)
                    {
                        for _ in 0..10_000 {
                            n = std::hint::black_box(n.wrapping_mul(6364136223846793005).wrapping_add(1));
                        }
                    }
                })
            })
            .collect();
        BusyCores { stop, threads }
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

#[test]
fn a_script_stopped_by_its_limit_replays_to_the_same_bytes_on_an_idle_and_a_busy_machine() {
    // Issue 13: a hook that awards a point every 5,000 rounds of an endless loop. A wall-clock
    // deadline stopped it wherever the machine had got to, so the points and the result changed
    // from run to run; its count of operations stops it at the same round every time.
    let file = "tests/fixtures/scripts/budget-game.dotc";
    let run = || {
        let summary = dotc(&["replay", file, "--rules", "--summary"], &root());
        let json = dotc(&["replay", file, "--format", "json"], &root());
        format!(
            "{}\n---- findings ----\n{}\n---- json ----\n{}",
            text(&summary.stdout),
            text(&summary.stderr),
            text(&json.stdout)
        )
    };
    let first = run();
    let idle: Vec<String> = (0..9).map(|_| run()).collect();
    let busy: Vec<String> = {
        let _busy = BusyCores::start();
        (0..10).map(|_| run()).collect()
    };
    for (i, other) in idle.iter().chain(busy.iter()).enumerate() {
        assert!(*other == first, "run {} differs from the first", i + 2);
    }
    // Each turn's hook got exactly as far: 2 points (150,000 operations and the work charged for
    // reading `n` make some 10,000 rounds), too few for the union's two turns to win it.
    assert!(first.contains("Victory points: confederate 2, union 4"), "{first}");
    assert!(first.contains("Result: draw (otherwise)"), "{first}");
    let (narrative, json) = first.split_once("\n---- json ----\n").unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(json).expect("the replay's JSON");
    let findings = value["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 3, "{json}");
    for finding in findings {
        let message = finding["message"].as_str().unwrap();
        assert!(message.contains("more than 150,000 operations, the most one call may do"), "{message}");
    }
    insta::assert_snapshot!("budget_game", narrative);
}

// ---------------------------------------------------------------- optional triggers (named switches)

const GETTYSBURG: &str = "scenarios/gettysburg-day1/gettysburg-day1-game.dotc";
const REYNOLDS_KILLED: &str = "Maj. Gen. John F. Reynolds is killed by the scenario's script";

#[test]
fn reynolds_falls_by_default_and_not_when_his_option_is_off() {
    // On by default: the trigger kills him at 10:15 (turn 10).
    let on = dotc(&["replay", GETTYSBURG, "--rules"], &root());
    let on_text = text(&on.stdout);
    assert!(on_text.contains(REYNOLDS_KILLED), "{on_text}");
    assert!(on_text.contains("trigger \"Reynolds falls\" fires"), "{on_text}");
    // Switched off for a what-if: he lives, and nothing else of the game changes.
    let off = dotc(&["replay", GETTYSBURG, "--rules", "--option", "reynolds_falls=off"], &root());
    let off_text = text(&off.stdout);
    assert!(!off_text.contains(REYNOLDS_KILLED), "{off_text}");
    assert!(!off_text.contains("Reynolds falls"), "{off_text}");
    assert_eq!(on.status.code(), Some(0), "{}", text(&on.stderr));
    assert_eq!(off.status.code(), Some(0), "{}", text(&off.stderr));
    let json = |extra: &[&str]| {
        let mut args = vec!["replay", GETTYSBURG, "--format", "json"];
        args.extend_from_slice(extra);
        let out = text(&dotc(&args, &root()).stdout);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let leader_removed = |v: &serde_json::Value| {
        v["events"].as_array().unwrap().iter().any(|e| e["event"]["text"] == REYNOLDS_KILLED)
    };
    assert!(leader_removed(&json(&[])));
    assert!(!leader_removed(&json(&["--option", "reynolds_falls=off"])));
    // Switching it on explicitly is the default.
    assert_eq!(json(&["--option", "reynolds_falls=on"]), json(&[]));
}

#[test]
fn a_game_logs_rules_block_switches_an_option_by_name() {
    let (on, _) = replay(HOOKS_LOG);
    assert!(on.contains("trigger \"The colonel rides forward\" fires"), "{on}");
    let (off, out) = replay("tests/fixtures/scripts/hooks-option-off.dotc");
    assert_eq!(out.status.code(), Some(0), "{off}");
    assert!(!off.contains("The colonel rides forward"), "{off}");
    assert!(!off.contains("Zeb Vance leader casualty"), "{off}");
}

#[test]
fn an_unknown_option_is_reported_with_a_did_you_mean() {
    let path = root().join("tests/fixtures/scripts/hooks-unknown-option.dotc");
    let (source, diagnostics) = check_file(&path);
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec!["dotc::unknown-option"; 2], "{diagnostics:#?}");
    assert_eq!(diagnostics[0].message, "unknown option `colonel_ride`");
    assert_eq!(diagnostics[0].help.as_deref(), Some("did you mean `colonel_rides`?"));
    assert!(diagnostics[1].message.contains("`maybe` is not a switch"), "{}", diagnostics[1].message);
    insta::assert_snapshot!("unknown_option", render(&diagnostics, "hooks-unknown-option.dotc", &source));
    // `dotc replay --option` checks the name the same way.
    let out = dotc(&["replay", HOOKS_LOG, "--rules", "--option", "colonel_ride=off"], &root());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("did you mean `colonel_rides`?"), "{}", text(&out.stderr));
    let out = dotc(&["replay", HOOKS_LOG, "--option", "colonel_rides=maybe"], &root());
    assert!(text(&out.stderr).contains("`on` or `off`"), "{}", text(&out.stderr));
}

// ---------------------------------------------------------------- the stdlib's script helpers

#[test]
fn the_stdlib_helpers_play_in_a_replay() {
    let (shown, out) = replay("tests/fixtures/scripts/helpers-game.dotc");
    insta::assert_snapshot!("helpers_game", shown);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    // reinforce_on_schedule: a 3 delays the reserve on turn 1, a 5 brings it on turn 3 (not 4).
    assert!(shown.contains("3rd Wisconsin is delayed (rolled 3, needs 4+)"), "{shown}");
    assert!(shown.contains("3rd Wisconsin may enter from turn 3 (on_turn_start)"), "{shown}");
    assert!(shown.contains("3rd Wisconsin enters at (1, 12)"), "{shown}");
    // held_for: the Mill held by the union at the end of two turns in a row gives the win.
    assert!(shown.contains("Result: union minor (when `held_for(game, \"Mill\", \"union\", 2)`)"), "{shown}");
}

#[test]
fn a_scripts_leader_hits_call_on_leader_hit_and_never_recurse_for_ever() {
    let (shown, _) = replay("tests/fixtures/scripts/helpers-game.dotc");
    // kill_leader is a hit like one from the rules: the hook hears of it (Ch16 2.4).
    assert!(shown.contains("Col. Adelbert Ames is killed by the scenario's script"), "{shown}");
    assert!(shown.contains("on_leader_hit: Col. Adelbert Ames: killed"), "{shown}");
    // Each light wound makes the hook wound him again: the chain stops at the hook depth limit,
    // three hook calls after the trigger's wound, four wounds in all.
    let calls = shown.matches("on_leader_hit: Col. Zeb Vance: lightly_wounded").count();
    assert_eq!(calls, 3, "{shown}");
    assert_eq!(
        shown.matches("Col. Zeb Vance: Lightly Wounded, by the scenario's script").count(),
        4,
        "{shown}"
    );
}

// ---------------------------------------------------------------- completed logs

#[test]
fn a_completed_log_holds_the_scripts_seeded_dice_and_replays_without_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(root().join("tests/fixtures/scripts/hooks.dotc"), dir.path().join("hooks.dotc")).unwrap();
    let source = std::fs::read_to_string(root().join("tests/fixtures/scripts/hooks-unrolled.dotc")).unwrap();
    std::fs::write(dir.path().join("game.dotc"), &source).unwrap();
    let game = dir.path().join("game.dotc");
    let completed = dir.path().join("completed.dotc");
    let json = |args: &[&str]| {
        let out = dotc(args, &root());
        serde_json::from_str::<serde_json::Value>(&text(&out.stdout)).unwrap()
    };
    // Without dice or a seed the trigger cannot roll: a finding.
    let unseeded = json(&["replay", game.to_str().unwrap(), "--format", "json"]);
    assert!(!unseeded["findings"].as_array().unwrap().is_empty());
    // With seed 7, and the completed log written.
    let seeded = json(&[
        "replay",
        game.to_str().unwrap(),
        "--format",
        "json",
        "--seed",
        "7",
        "--write-completed",
        completed.to_str().unwrap(),
    ]);
    assert_eq!(seeded["findings"], serde_json::json!([]), "{seeded}");
    use dotc_runtime::dice::{DiceSource, Purpose, SeededDice};
    let mut seed = SeededDice::new(7);
    let dice: Vec<u8> = (0..2).map(|_| seed.roll(Purpose::Friction, 1).unwrap()[0]).collect();
    let written = std::fs::read_to_string(&completed).unwrap();
    let line = format!("        scripted \"The colonel rides forward\" roll [{}, {}]\n", dice[0], dice[1]);
    assert!(
        written.contains(&format!("    fire {{\n{line}        note \"the colonel rides forward\"")),
        "{written}"
    );
    // Every other byte is the log's own.
    assert_eq!(written.replace(&line, ""), source);
    // Replayed with no seed at all, it gives the same game.
    let again = json(&["replay", completed.to_str().unwrap(), "--format", "json"]);
    assert_eq!(again["findings"], serde_json::json!([]), "{again}");
    assert_eq!(again["summary"], seeded["summary"]);
    assert_eq!(again["events"].as_array().unwrap().len(), seeded["events"].as_array().unwrap().len());
}

#[test]
fn check_compiles_a_librarys_scripts_and_locates_their_errors() {
    let out = dotc(&["check", "tests/fixtures/scripts/broken-library.dotc"], &root());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let shown = text(&out.stderr);
    assert!(shown.contains("dotc::script-error"), "{shown}");
    assert!(shown.contains("broken-library.dotc:10:"), "the error is on line 10: {shown}");
    // The shipped helpers compile clean.
    let out = dotc(&["check", "stdlib/scripts.dotc"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
