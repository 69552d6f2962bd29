//! The sandbox and the API, one script at a time: limits, refused features, views that cannot
//! change the game, dice, and errors located in the scenario file.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::*;

struct NoFiles;

impl dotc_lang::Loader for NoFiles {
    fn load(&self, _: &Path) -> Result<String, String> {
        Err("no files here".into())
    }
}

/// A small scenario with this text added inside its block.
fn scenario(extra: &str) -> (String, Scenario) {
    let source = format!(
        "scenario \"Test\" {{\n    start 10:00\n    turn_length 15 min\n    turns 4\n    first_side union\n    table 24 x 24\n\
         side union \"U\" {{\n        brigade \"B\" {{\n            brigadier \"Col. A\" reliable at (2, 2)\n            \
         regiment \"1st\" {{ stands 4 regular rifled_musket line at (5, 5) facing north }}\n        }}\n    }}\n\
         side confederate \"C\" {{\n        brigade \"D\" {{\n            brigadier \"Col. Z\" reliable at (20, 20)\n            \
         regiment \"2nd\" {{ stands 4 regular rifled_musket line at (18, 18) facing south }}\n        }}\n    }}\n{extra}\n}}\n"
    );
    let analysis = dotc_lang::analyze(Path::new("test.dotc"), &source, &NoFiles);
    let scenario = analysis.document.scenario.expect("the test scenario parses");
    (source, scenario)
}

fn hook_script(body: &str) -> String {
    format!("    script ```rhai\n        fn on_turn_start(game) {{\n{body}\n        }}\n    ```")
}

fn snapshot() -> Arc<Snapshot> {
    Arc::new(Snapshot {
        turn: 3,
        time: "10:30".into(),
        side: "union".into(),
        phase: "command".into(),
        sides: vec!["union".into(), "confederate".into()],
        units: vec![UnitView {
            name: "1st".into(),
            side: "union".into(),
            stands: 4,
            starting_stands: 4,
            health: "fresh".into(),
            markers: vec![],
            position: Some((5.0, 5.0)),
            on_table: true,
            removed: false,
            brigade: "B".into(),
            due: 0,
        }],
        brigades: vec![BrigadeView {
            name: "B".into(),
            side: "union".into(),
            state: "fresh".into(),
            losses: 0,
            starting_stands: 4,
        }],
        leaders: vec![LeaderView {
            name: "Col. A".into(),
            side: "union".into(),
            rank: "brigadier".into(),
            removed: false,
            attached: String::new(),
            position: Some((2.0, 2.0)),
        }],
        objectives: vec![ObjectiveView {
            name: "Hill".into(),
            held_by: "union".into(),
            vp: 2.0,
            held_turns: vec![("union".into(), 2), ("confederate".into(), 0)],
        }],
        vp: vec![("union".into(), 2.0), ("confederate".into(), 0.0)],
    })
}

/// Compile a scenario whose `on_turn_start` has this body and call it once.
fn run(body: &str) -> (String, Outcome) {
    run_with(body, Limits::default())
}

fn run_with(body: &str, limits: Limits) -> (String, Outcome) {
    let (source, s) = scenario(&hook_script(body));
    let mut scripts = Scripts::compile(&s, limits);
    assert!(scripts.errors.is_empty(), "{:?}", scripts.errors);
    scripts.seed(Some(7));
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    (source, outcome)
}

/// The text of the file at a script error's span.
fn at(source: &str, e: &ScriptError) -> String {
    source[e.span.start..e.span.end.max(e.span.start)].to_string()
}

/// The `AwardVp` effects of an outcome: how far a loop that awards points got.
fn awards(outcome: &Outcome) -> usize {
    outcome.effects.iter().filter(|e| matches!(e, Effect::AwardVp { .. })).count()
}

#[test]
fn an_endless_loop_is_stopped_by_the_operation_limit_at_its_hook() {
    let (source, outcome) = run("            let n = 0;\n            loop { n += 1; }");
    let error = outcome.error.expect("the loop is stopped");
    assert_eq!(error.kind, ErrorKind::Script);
    assert!(error.message.contains("more than 150,000 operations, the most one call may do"), "{error:?}");
    assert_eq!(error.what, "hook on_turn_start");
    // Issue 15: the finding points at the statement that went past the limit, not the hook.
    assert!(source[error.span.start..].starts_with("n += 1"), "{error:?}");
}

#[test]
fn the_operation_limit_stops_a_script_at_the_same_operation_every_time() {
    // A loop that awards a point every 100 rounds until it is stopped: how far it gets is all the
    // limit's, the same at every run (the clock never enters into it).
    let body = "            let n = 0;\n            loop {\n                n += 1;\n                \
                if n % 100 == 0 { game.award_vp(\"union\", 1); }\n            }";
    let limits = Limits { operations: 20_000, ..Limits::default() };
    let (_, first) = run_with(body, limits);
    assert!(
        first.error.as_ref().is_some_and(|e| e.message.contains("more than 20,000 operations")),
        "{first:?}"
    );
    assert!(awards(&first) > 10, "{first:?}");
    for _ in 0..5 {
        assert_eq!(run_with(body, limits).1, first);
    }
    // Twice the budget goes about twice as far.
    let (_, double) = run_with(body, Limits { operations: 40_000, ..Limits::default() });
    assert!(awards(&double) >= 2 * awards(&first) - 1, "{} then {}", awards(&first), awards(&double));
}

#[test]
fn the_games_operation_budget_stops_a_hook_that_runs_too_often_and_then_every_script() {
    // Each call does a few hundred operations, well within its own budget; together they reach
    // the game's, and from that call on no script runs.
    let body = "            let n = 0;\n            while n < 100 { n += 1; }\n            game.log(`${n}`);";
    let limits = Limits { operations: 10_000, game_operations: 2_000, ..Limits::default() };
    let (source, s) = scenario(&hook_script(body));
    let mut scripts = Scripts::compile(&s, limits);
    let mut calls = Vec::new();
    while calls.len() < 50 && scripts.has_hook("on_turn_start") {
        calls.push(scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new()));
    }
    let (last, before) = calls.split_last().expect("a call ran");
    assert!(
        !before.is_empty() && before.iter().all(|o| o.error.is_none() && logs(o) == ["100"]),
        "{calls:?}"
    );
    let error = last.error.as_ref().expect("the game's budget stops a call");
    assert!(error.message.contains("2,000 operations, the most one game may do"), "{error:?}");
    assert!(error.message.contains("no script runs for the rest of the game"), "{error:?}");
    assert!(
        source[error.span.start..].starts_with("n < 100") || source[error.span.start..].starts_with("n += 1")
    );
    assert!(scripts.stopped_for_good());
    assert_eq!(
        scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new()),
        Outcome::default()
    );
    // The same calls, compiled again: the same call is stopped at the same place.
    let mut again = Scripts::compile(&s, limits);
    let replayed: Vec<Outcome> = (0..calls.len())
        .map(|_| again.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new()))
        .collect();
    assert_eq!(replayed, calls);
}

#[test]
fn the_wall_clock_safety_net_drops_the_call_and_says_the_replay_cannot_be_trusted() {
    // A safety net of no time at all fires at its second look at the clock, 2,048 operations in:
    // the call's effects are dropped, its logged dice given back, and scripts are off for good.
    let body = "            game.roll(1);\n            let n = 0;\n            loop {\n                n += 1;\n                \
                if n % 10 == 0 { game.award_vp(\"union\", 1); }\n            }";
    let limits =
        Limits { operations: 0, game_operations: 0, wall_clock: Duration::ZERO, ..Limits::default() };
    let (source, s) = scenario(&hook_script(body));
    let mut scripts = Scripts::compile(&s, limits);
    let mut dice = VecDeque::from(vec![4, 2]);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut dice);
    let error = outcome.error.as_ref().expect("the safety net stops it");
    assert_eq!(error.kind, ErrorKind::WallClock);
    assert!(error.message.contains("not reproducible"), "{error:?}");
    assert!(error.message.contains("cannot be trusted"), "{error:?}");
    assert_eq!(at(&source, error), "on_turn_start");
    assert_eq!(outcome.effects, Vec::new());
    assert_eq!(dice, VecDeque::from(vec![4, 2]));
    assert!(scripts.stopped_for_good());
    assert!(!scripts.has_hook("on_turn_start"));
    // The default net is seconds: far above what a call's operation budget takes.
    assert!(Limits::default().wall_clock >= Duration::from_secs(5));
}

#[test]
fn printing_in_a_loop_is_stopped_by_the_output_limit_at_its_place() {
    // Values of every type: strings, numbers, the game's own views, ranges.
    for print in [
        "print(\"again\")",
        "debug(1)",
        "game.log(\"again\")",
        "print(game)",
        "print(0..3)",
        "debug(game.unit(\"1st\"))",
        "print([1, 2])",
    ] {
        let (source, outcome) = run(&format!("            loop {{ {print}; }}"));
        let error = outcome.error.as_ref().unwrap_or_else(|| panic!("{print} is not stopped"));
        assert_eq!(error.kind, ErrorKind::Script);
        // A long line (a unit's fields) reaches the bytes first.
        let lines = logs(&outcome).len();
        let limit = if lines == 100 { "100 lines" } else { "10,000 bytes" };
        assert!(
            error.message.contains(&format!("wrote more than {limit} to the replay (print, debug, game.log")),
            "{print}: {error:?}"
        );
        assert!(error.message.contains("the most one call may write"), "{error:?}");
        let written: usize = logs(&outcome).iter().map(String::len).sum();
        assert!(
            lines == 100 || (written <= 10_000 && lines < 100),
            "{print}: {lines} lines, {written} bytes"
        );
        // Issue 15: at the call that went past the limit.
        let call = print.split('(').next().unwrap_or_default().trim_start_matches("game.");
        assert!(source[error.span.start..].starts_with(call), "{print}: {}", &source[error.span.start..]);
    }
    // Bytes count too: 500-byte lines, 20 of them fit in 10,000 bytes.
    let (_, outcome) = run(
        "            let s = \"\";\n            for i in 0..50 { s += \"abcdefghij\"; }\n            loop { print(s); }",
    );
    let error = outcome.error.as_ref().expect("stopped");
    assert!(error.message.contains("more than 10,000 bytes"), "{error:?}");
    assert_eq!(logs(&outcome).len(), 20);
    // A call that ends right after going past the limit is stopped all the same.
    let (_, outcome) = run("            for i in 0..101 { print(i); }");
    assert!(outcome.error.is_some_and(|e| e.message.contains("100 lines")));
}

#[test]
fn the_games_output_limit_stops_the_call_that_reaches_it_and_every_script_after() {
    let limits = Limits { game_output_lines: 150, ..Limits::default() };
    let (_, s) = scenario(&hook_script("            for i in 0..60 { print(i); }"));
    let mut scripts = Scripts::compile(&s, limits);
    let mut call = || scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    assert_eq!(logs(&call()).len(), 60);
    assert_eq!(logs(&call()).len(), 60);
    let third = call();
    assert_eq!(logs(&third).len(), 30);
    let error = third.error.expect("the game's output is spent");
    assert!(error.message.contains("the game's scripts wrote more than 150 lines"), "{error:?}");
    assert_eq!(call(), Outcome::default());
}

#[test]
fn import_and_eval_are_refused_at_compile_at_their_place() {
    for (code, word) in [("import \"x\" as x;", "import"), ("eval(\"1\");", "eval")] {
        let (source, s) = scenario(&format!("    script ```rhai\n        {code}\n    ```"));
        let scripts = Scripts::compile(&s, Limits::default());
        let error = scripts.errors.first().unwrap_or_else(|| panic!("`{code}` compiles"));
        assert_eq!(at(&source, error).chars().next(), word.chars().next(), "{error:?}");
        let diagnostics = check(&s);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].code, "dotc::script-error");
    }
}

#[test]
fn a_syntax_error_is_reported_at_its_line_and_column() {
    let (source, s) = scenario(&hook_script("            let x = ;"));
    let diagnostics = check(&s);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let span = diagnostics[0].primary.span;
    let (line, column) = dotc_lang::diagnostic::line_col(&source, span.start);
    let expected_line = source.lines().position(|l| l.contains("let x = ;")).unwrap() + 1;
    assert_eq!(line, expected_line);
    assert_eq!(&source[span.start..span.start + 1], ";", "column {column}");
}

#[test]
fn trigger_conditions_and_victory_expressions_are_compiled_too() {
    let extra = "    trigger \"T\" when `game.turn >=` ```rhai\n        game.log(\"x\");\n    ```\n    \
                 victory {\n        when `game.vp(\"union\") >>> 2` => union minor\n        otherwise => draw\n    }";
    let (_, s) = scenario(extra);
    let diagnostics = check(&s);
    assert_eq!(diagnostics.len(), 2, "{diagnostics:?}");
    assert!(diagnostics.iter().all(|d| d.code == "dotc::script-error"));
}

#[test]
fn a_huge_string_array_or_map_is_stopped_at_the_statement_that_grows_it() {
    // Only the size limits may stop these: no operation count gets there first (and smaller sizes
    // than the defaults keep the test quick). Each case: the body, the text the finding points
    // at, and the limit's words.
    let sizes_only = Limits {
        operations: 0,
        game_operations: 0,
        string_size: 1_000,
        array_size: 1_000,
        map_size: 100,
        ..Limits::default()
    };
    let string = "a string would be longer than 1,000 bytes";
    let array = "an array would hold more than 1,000 items";
    let map = "a map would hold more than 100 entries";
    for (body, points_at, message) in [
        ("let s = \"war\";\n            loop { s = s + s; }", "s + s", string),
        ("let s = \"\";\n            loop { s += \"x\"; }", "s += ", string),
        ("let s = \"\";\n            loop { s.append(\"xy\"); }", "s.append", string),
        ("let s = \"\";\n            s.pad(2000, \"x\");", "pad(", string),
        ("let a = [1];\n            loop { a.append(a); }", "append(a)", array),
        ("let a = [];\n            loop { a.push(1); }", "push(1)", array),
        ("let a = [];\n            loop { a.insert(0, 1); }", "insert(0", array),
        ("let a = [];\n            loop { a += 1; }", "a += 1", array),
        ("let a = [];\n            a.pad(2000, 1);", "pad(", array),
        ("let b = [1, 2];\n            let a = [];\n            loop { a.push(b); }", "a.push(b)", array),
        ("let m = #{};\n            let i = 0;\n            loop { m[`${i}`] = 1; i += 1; }", "m[", map),
    ] {
        let (source, outcome) = run_with(&format!("            {body}"), sizes_only);
        let error = outcome.error.unwrap_or_else(|| panic!("`{body}` is not stopped"));
        assert!(error.message.starts_with(message), "{body}: {error:?}");
        assert!(error.message.ends_with("and the script was stopped there"), "{body}: {error:?}");
        // Issue 15: at the statement that grew it (its variable or its call), not the hook.
        let last = body.lines().last().unwrap_or_default().trim_start();
        let line = source.find(last).unwrap_or_default();
        let start = line + last.find(points_at).unwrap_or_default();
        assert!(
            (start..start + points_at.len()).contains(&error.span.start),
            "{body}: at `{}`",
            &source[error.span.start..error.span.start + 12]
        );
    }
}

#[test]
fn print_and_debug_become_messages_of_the_game() {
    let (_, outcome) = run(
        "            print(\"the guns are up\");\n            debug(\"checked\");\n            game.log(`turn ${game.turn}`);",
    );
    assert_eq!(outcome.error, None);
    assert_eq!(
        outcome.effects,
        vec![
            Effect::Log("the guns are up".into()),
            Effect::Log("\"checked\"".into()),
            Effect::Log("turn 3".into())
        ]
    );
}

#[test]
fn views_are_copies_and_the_game_has_no_setters() {
    // Changing a view changes nothing and records nothing.
    let (_, outcome) = run(
        "            let u = game.unit(\"1st\");\n            u.stands = 0;\n            u.markers.push(\"disorder\");",
    );
    assert_eq!(outcome, Outcome::default());
    // The game object itself cannot be assigned to.
    let (_, outcome) = run("            game.turn = 9;");
    assert!(outcome.error.is_some());
    assert!(outcome.effects.is_empty());
    // Nor can a call's result: that does not even compile.
    let (_, s) = scenario(&hook_script("            game.leader(\"Col. A\").removed = true;"));
    assert_eq!(check(&s).len(), 1);
}

#[test]
fn reads_see_the_snapshot() {
    let body = "            game.log(`${game.turn} ${game.time} ${game.side} ${game.phase}`);\n            \
                let u = game.unit(\"1st\");\n            game.log(`${u.name} ${u.stands}/${u.starting_stands} ${u.health} ${u.x}`);\n            \
                game.log(`${game.brigade(\"B\").state} ${game.broken(\"union\")} ${game.units().len()} ${game.brigades().len()}`);\n            \
                let l = game.leader(\"Col. A\");\n            game.log(`${l.name} ${l.rank} ${l.side} ${l.removed}`);\n            \
                game.log(`${game.objective(\"Hill\").held_by} ${game.vp(\"union\") >= 2} ${game.vp(\"confederate\")}`);";
    let (_, outcome) = run(body);
    assert_eq!(outcome.error, None);
    let logs: Vec<String> = outcome
        .effects
        .iter()
        .filter_map(|e| if let Effect::Log(t) = e { Some(t.clone()) } else { None })
        .collect();
    assert_eq!(
        logs,
        vec![
            "3 10:30 union command",
            "1st 4/4 fresh 5.0",
            "fresh 0 1 1",
            "Col. A brigadier union false",
            "union true 0.0"
        ]
    );
}

#[test]
fn actions_are_recorded_as_effects_in_order() {
    let body = "            game.reinforce(\"B\");\n            game.weather(\"wind\", \"brisk\");\n            \
                game.add_marker(\"1st\", \"disorder\");\n            game.remove_marker(\"1st\", \"low_ammo\");\n            \
                game.award_vp(\"union\", 2);\n            game.kill_leader(\"Col. A\");\n            \
                game.end_game(\"union minor\", \"the ridge is held\");";
    let (_, outcome) = run(body);
    assert_eq!(outcome.error, None);
    assert_eq!(
        outcome.effects,
        vec![
            Effect::Reinforce("B".into()),
            Effect::Weather { aspect: "wind".into(), condition: "brisk".into() },
            Effect::AddMarker { unit: "1st".into(), marker: "disorder".into() },
            Effect::RemoveMarker { unit: "1st".into(), marker: "low_ammo".into() },
            Effect::AwardVp { side: "union".into(), vp: 2 },
            Effect::KillLeader("Col. A".into()),
            Effect::EndGame { result: "union minor".into(), reason: "the ridge is held".into() },
        ]
    );
}

#[test]
fn a_bad_call_is_an_error_and_keeps_what_came_before() {
    for call in [
        "game.unit(\"Nobody\")",
        "game.weather(\"wind\", \"hurricane\")",
        "game.add_marker(\"1st\", \"medal\")",
        "game.end_game(\"union total\", \"x\")",
        "game.vp(\"prussia\")",
        "game.roll(0)",
        "game.no_such_thing()",
    ] {
        let (_, outcome) = run(&format!("            game.log(\"before\");\n            {call};"));
        assert!(outcome.error.is_some(), "{call} is accepted");
        assert_eq!(outcome.effects, vec![Effect::Log("before".into())], "{call}");
    }
}

#[test]
fn dice_come_from_the_log_first_then_the_seed() {
    let (_, s) = scenario(&hook_script("            let r = game.roll(2);\n            game.log(`${r}`);"));
    let mut scripts = Scripts::compile(&s, Limits::default());
    // From the log: exactly its faces; what is left stays for a later call.
    let mut logged = VecDeque::from(vec![6, 1, 4]);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut logged);
    assert_eq!(outcome.effects, vec![Effect::Rolled(vec![6, 1]), Effect::Log("[6, 1]".into())]);
    assert_eq!(logged, VecDeque::from(vec![4]));
    // Too few logged dice is the log's mistake, never filled from the seed.
    scripts.seed(Some(7));
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut logged);
    assert!(outcome.error.is_some_and(|e| e.message.contains("records 1")));
    // No logged dice: the seed's stream, the same every time.
    let seeded = |scripts: &mut Scripts| {
        scripts.seed(Some(7));
        scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new()).effects
    };
    let first = seeded(&mut scripts);
    assert_eq!(first, seeded(&mut scripts));
    let expected = crate::dice::DiceSource::roll(
        &mut crate::dice::SeededDice::new(7),
        crate::dice::Purpose::Friction,
        2,
    )
    .unwrap();
    assert_eq!(first[0], Effect::Rolled(expected));
    // Neither: an error that says what to write.
    scripts.seed(None);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    assert!(outcome.error.is_some_and(|e| e.message.contains("scripted \"on_turn_start\"")));
}

#[test]
fn a_casualty_check_rolls_and_tells_the_result() {
    let (_, s) = scenario(&hook_script(
        "            let r = game.leader(\"Col. A\").casualty_check();\n            game.log(r);",
    ));
    let mut scripts = Scripts::compile(&s, Limits::default());
    scripts.set_leader_results(vec![(5, "severely_wounded".into()), (6, "killed".into())]);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::from(vec![6]));
    assert_eq!(
        outcome.effects,
        vec![Effect::CasualtyCheck { leader: "Col. A".into(), face: 6 }, Effect::Log("killed".into())]
    );
}

#[test]
fn triggers_fire_once_and_conditions_cannot_act() {
    let extra = "    trigger \"Late\" when `game.turn >= 3` ```rhai\n        game.award_vp(\"union\", 1);\n    ```\n    \
                 trigger \"Never\" when `game.award_vp(\"union\", 5) != 0 && false` ```rhai\n        game.log(\"no\");\n    ```";
    let (_, s) = scenario(extra);
    let mut scripts = Scripts::compile(&s, Limits::default());
    assert!(scripts.errors.is_empty(), "{:?}", scripts.errors);
    let mut dice = BTreeMap::new();
    let ran = scripts.run_triggers(&snapshot(), &mut dice);
    assert_eq!(ran.len(), 1);
    assert_eq!(ran[0].0, "Late");
    assert_eq!(ran[0].1.effects, vec![Effect::AwardVp { side: "union".into(), vp: 1 }]);
    assert!(scripts.run_triggers(&snapshot(), &mut dice).is_empty());
    assert_eq!(scripts.pending_triggers(), vec!["Never".to_string()]);
}

#[test]
fn a_victory_expression_is_evaluated_against_the_snapshot() {
    let extra = "    victory {\n        when `game.vp(\"union\") >= 2 && game.turn >= 3` => union minor\n        \
                 when `game.unit(\"Nobody\").stands > 0` => confederate minor\n        otherwise => draw\n    }";
    let (_, s) = scenario(extra);
    let mut scripts = Scripts::compile(&s, Limits::default());
    assert_eq!(scripts.condition(0, &snapshot()), Some(Ok(true)));
    assert!(matches!(scripts.condition(1, &snapshot()), Some(Err(_))));
    assert_eq!(scripts.condition(2, &snapshot()), None);
}

#[test]
fn the_tutorial_scripts_compile() {
    let source = include_str!("../../../scenarios/tutorial/fence-line.dotc");
    let analysis = dotc_lang::analyze(Path::new("fence-line.dotc"), source, &NoFiles);
    let s = analysis.document.scenario.expect("the tutorial parses");
    assert_eq!(check(&s), Vec::new());
    let scripts = Scripts::compile(&s, Limits::default());
    assert!(scripts.has_hook("on_turn_start"));
    assert!(!scripts.has_hook("on_phase"));
}

// ---------------------------------------------------------------- library scripts (stdlib)

/// The `log` effects of an outcome, as text.
fn logs(outcome: &Outcome) -> Vec<String> {
    outcome
        .effects
        .iter()
        .filter_map(|e| if let Effect::Log(t) = e { Some(t.clone()) } else { None })
        .collect()
}

#[test]
fn the_stdlib_scripts_compile_and_their_functions_are_callable() {
    let (_, s) = scenario("");
    let scripts = Scripts::compile(&s, Limits::default());
    assert!(scripts.errors.is_empty(), "{:?}", scripts.errors);
    for f in [
        "reinforce_on_schedule",
        "held_for",
        "holder_for",
        "army_broken",
        "army_breaks",
        "clock_minutes",
        "leader_nearest_enemy",
        "leader_at_the_front",
    ] {
        assert!(scripts.library_functions().iter().any(|n| n == f), "{f} is not in the stdlib");
    }
    // And `dotc check` of the file itself is clean.
    for (file, source) in dotc_lang::library::STDLIB_SCRIPTS {
        let document = dotc_lang::parse(source).document;
        assert!(!document.libraries[0].scripts.is_empty(), "{file}");
        assert_eq!(check_library(&document), Vec::new(), "{file}");
    }
}

#[test]
fn held_for_counts_the_turns_in_a_row_an_objective_is_held() {
    // The snapshot: union has held the Hill at the end of the last 2 turns.
    let (_, outcome) = run(
        "            game.log(`${held_for(game, \"Hill\", \"union\", 2)} ${held_for(game, \"Hill\", \"union\", 3)}`);\n            \
         game.log(`${holder_for(game, \"Hill\", 2)}|${holder_for(game, \"Hill\", 3)}|${held_for(game, \"Hill\", \"confederate\", 1)}`);",
    );
    assert_eq!(outcome.error, None);
    assert_eq!(logs(&outcome), vec!["true false", "union||false"]);
    // A victory `when` expression may call it too.
    let extra = "    victory {\n        when `held_for(game, \"Hill\", \"union\", 2)` => union minor\n        otherwise => draw\n    }";
    let (_, s) = scenario(extra);
    let mut scripts = Scripts::compile(&s, Limits::default());
    assert_eq!(scripts.condition(0, &snapshot()), Some(Ok(true)));
}

/// dotc D45 and the Gettysburg morning's trigger: a leader's place, and his distance to the
/// nearest enemy unit, while he is on the table; none while he is not.
#[test]
fn a_leaders_place_and_the_nearest_enemy_are_read_while_he_is_on_the_table() {
    let mut view = (*snapshot()).clone();
    view.units.push(UnitView {
        name: "2nd".into(),
        side: "confederate".into(),
        position: Some((8.0, 10.0)),
        brigade: "D".into(),
        ..view.units[0].clone()
    });
    let (_, s) = scenario(&hook_script(
        "            let l = game.leader(\"Col. A\");\n            \
         game.log(`${l.on_table} ${l.x} ${l.y} ${leader_nearest_enemy(game, \"Col. A\")} \
         ${leader_at_the_front(game, \"Col. A\", 10.0)} ${leader_at_the_front(game, \"Col. A\", 9.9)}`);",
    ));
    let mut scripts = Scripts::compile(&s, Limits::default());
    let call = |scripts: &mut Scripts, view: &Snapshot| {
        scripts.call_hook("on_turn_start", &[], &Arc::new(view.clone()), &mut VecDeque::new())
    };
    // Col. A at (2, 2), the enemy's 2nd at (8, 10): 10" away (the union's own 1st is not counted).
    let outcome = call(&mut scripts, &view);
    assert_eq!(outcome.error, None);
    assert_eq!(logs(&outcome), vec!["true 2.0 2.0 10.0 true false"]);
    // Not yet come on: no place (`()`, which prints as nothing), and never at the front.
    view.leaders[0].position = None;
    let outcome = call(&mut scripts, &view);
    assert_eq!(logs(&outcome), vec!["false   -1.0 false false"]);
}

#[test]
fn army_breaks_ends_the_game_when_k_brigades_are_broken() {
    let mut view = (*snapshot()).clone();
    let (_, s) = scenario(&hook_script(
        "            if army_breaks(game, \"union\", 1, \"confederate major\", \"the line breaks\") { game.log(\"broke\"); }",
    ));
    let mut scripts = Scripts::compile(&s, Limits::default());
    // Not broken: nothing happens.
    let outcome = scripts.call_hook("on_turn_start", &[], &Arc::new(view.clone()), &mut VecDeque::new());
    assert_eq!(outcome, Outcome::default());
    // One union brigade Broken (Ch16 8.2): the army breaks and the game ends.
    view.brigades[0].state = "broken".into();
    let outcome = scripts.call_hook("on_turn_start", &[], &Arc::new(view), &mut VecDeque::new());
    assert_eq!(
        outcome.effects,
        vec![
            Effect::EndGame { result: "confederate major".into(), reason: "the line breaks".into() },
            Effect::Log("broke".into())
        ]
    );
}

#[test]
fn reinforce_on_schedule_calls_up_each_entry_once_when_due() {
    let mut view = (*snapshot()).clone();
    view.units[0].on_table = false;
    view.units[0].position = None;
    let schedule = "[#{ name: \"B\", turn: 3 }, #{ name: \"1st\", time: \"10:45\" }]";
    let (_, s) = scenario(&hook_script(&format!(
        "            let called = reinforce_on_schedule(game, {schedule});\n            game.log(`${{called}}`);"
    )));
    let mut scripts = Scripts::compile(&s, Limits::default());
    let call = |scripts: &mut Scripts, view: &Snapshot| {
        scripts.call_hook("on_turn_start", &[], &Arc::new(view.clone()), &mut VecDeque::new())
    };
    // Turn 3 (10:30): the brigade by turn is due; the regiment by time (10:45) is not.
    let outcome = call(&mut scripts, &view);
    assert_eq!(outcome.error, None);
    assert_eq!(outcome.effects, vec![Effect::Reinforce("B".into()), Effect::Log("[\"B\"]".into())]);
    // Once called up (it may enter from turn 3), it is not called again.
    view.units[0].due = 3;
    let outcome = call(&mut scripts, &view);
    assert_eq!(outcome.effects, vec![Effect::Log("[]".into())]);
    // Before its turn: nothing.
    view.units[0].due = 0;
    view.turn = 2;
    assert_eq!(call(&mut scripts, &view).effects, vec![Effect::Log("[]".into())]);
}

#[test]
fn a_scheduled_reinforcement_with_a_roll_waits_for_its_die() {
    let mut view = (*snapshot()).clone();
    view.units[0].on_table = false;
    let (_, s) = scenario(&hook_script(
        "            reinforce_on_schedule(game, [#{ name: \"1st\", turn: 2, roll: 4 }]);",
    ));
    let mut scripts = Scripts::compile(&s, Limits::default());
    // Its own side's turn: a 3 delays it, a 5 brings it.
    let outcome =
        scripts.call_hook("on_turn_start", &[], &Arc::new(view.clone()), &mut VecDeque::from(vec![3]));
    assert_eq!(
        outcome.effects,
        vec![Effect::Rolled(vec![3]), Effect::Log("1st is delayed (rolled 3, needs 4+)".into())]
    );
    let outcome =
        scripts.call_hook("on_turn_start", &[], &Arc::new(view.clone()), &mut VecDeque::from(vec![5]));
    assert_eq!(outcome.effects, vec![Effect::Rolled(vec![5]), Effect::Reinforce("1st".into())]);
    // The other side's turn: no roll.
    view.side = "confederate".into();
    let outcome = scripts.call_hook("on_turn_start", &[], &Arc::new(view), &mut VecDeque::new());
    assert_eq!(outcome, Outcome::default());
}

#[test]
fn a_scenarios_own_library_script_is_callable_and_its_errors_are_located() {
    let extra = "    library \"Mine\" {\n        script ```rhai\n            fn double_turn(game) { game.turn * 2 }\n        ```\n    }\n";
    let (_, s) =
        scenario(&format!("{extra}{}", hook_script("            game.log(`${double_turn(game)}`);")));
    let mut scripts = Scripts::compile(&s, Limits::default());
    assert!(scripts.errors.is_empty(), "{:?}", scripts.errors);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    assert_eq!(logs(&outcome), vec!["6"]);
    // A syntax error in it is reported at its line and column of the scenario file.
    let broken = "    library \"Mine\" {\n        script ```rhai\n            fn oops(game) { let = 1; }\n        ```\n    }\n";
    let (source, s) = scenario(broken);
    let diagnostics = check(&s);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let (line, _) = dotc_lang::diagnostic::line_col(&source, diagnostics[0].primary.span.start);
    assert_eq!(line, source.lines().position(|l| l.contains("let = 1")).unwrap() + 1);
    // A library may not define a hook.
    let hooked = "    library \"Mine\" {\n        script ```rhai\n            fn on_turn_start(game) { }\n        ```\n    }\n";
    let (source, s) = scenario(hooked);
    let diagnostics = check(&s);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let span = diagnostics[0].primary.span;
    assert_eq!(&source[span.start..span.end], "on_turn_start");
    assert!(diagnostics[0].message.contains("hooks belong to a scenario"), "{}", diagnostics[0].message);
}

#[test]
fn a_scenario_function_replaces_a_library_function_of_the_same_name() {
    let (_, s) = scenario(&format!(
        "{}\n    script ```rhai\n        fn held_for(game, o, s, n) {{ \"mine\" }}\n    ```",
        hook_script("            game.log(held_for(game, \"Hill\", \"union\", 1));")
    ));
    let mut scripts = Scripts::compile(&s, Limits::default());
    // Each script block sees its own definitions first; the second block's `held_for` is only its own.
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    assert_eq!(logs(&outcome), vec!["true"]);
    let (_, s) = scenario(
        "    script ```rhai\n        fn held_for(game, o, s, n) { \"mine\" }\n        fn on_turn_start(game) { game.log(held_for(game, \"Hill\", \"union\", 1)); }\n    ```",
    );
    let mut scripts = Scripts::compile(&s, Limits::default());
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    assert_eq!(logs(&outcome), vec!["mine"]);
}

// ---------------------------------------------------------------- optional triggers, leaders, dice

#[test]
fn an_optional_trigger_runs_only_when_its_option_is_on() {
    let extra = "    trigger \"On\" option on_by_default default on when `true` ```rhai\n        game.log(\"on\");\n    ```\n    \
                 trigger \"Off\" option off_by_default default off when `true` ```rhai\n        game.log(\"off\");\n    ```";
    let (_, s) = scenario(extra);
    let ran = |options: &[(&str, bool)]| {
        let mut scripts = Scripts::compile(&s, Limits::default());
        let options: BTreeMap<String, bool> = options.iter().map(|(n, on)| (n.to_string(), *on)).collect();
        scripts.set_options(&options);
        let ran = scripts.run_triggers(&snapshot(), &mut BTreeMap::new());
        ran.into_iter().map(|(name, _)| name).collect::<Vec<_>>()
    };
    assert_eq!(ran(&[]), vec!["On"]);
    assert_eq!(ran(&[("on_by_default", false)]), Vec::<String>::new());
    assert_eq!(ran(&[("off_by_default", true)]), vec!["On", "Off"]);
}

#[test]
fn wound_leader_records_a_result_of_the_casualty_table() {
    let (_, s) = scenario(&hook_script(
        "            game.wound_leader(\"Col. A\");\n            game.wound_leader(\"Col. A\", \"lightly_wounded\");",
    ));
    let mut scripts = Scripts::compile(&s, Limits::default());
    scripts.set_leader_results(vec![
        (4, "lightly_wounded".into()),
        (5, "severely_wounded".into()),
        (6, "killed".into()),
    ]);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    assert_eq!(outcome.error, None);
    assert_eq!(
        outcome.effects,
        vec![
            Effect::WoundLeader { leader: "Col. A".into(), result: "severely_wounded".into() },
            Effect::WoundLeader { leader: "Col. A".into(), result: "lightly_wounded".into() },
        ]
    );
    // `killed` is kill_leader's, and a result the table lacks is an error.
    for bad in ["killed", "bruised"] {
        let (_, s) =
            scenario(&hook_script(&format!("            game.wound_leader(\"Col. A\", \"{bad}\");")));
        let mut scripts = Scripts::compile(&s, Limits::default());
        scripts.set_leader_results(vec![(4, "lightly_wounded".into()), (6, "killed".into())]);
        let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
        assert!(outcome.error.is_some(), "{bad}");
    }
}

#[test]
fn the_seeds_faces_are_reported_and_the_logs_are_not() {
    let (_, s) = scenario(&hook_script("            game.roll(2);"));
    let mut scripts = Scripts::compile(&s, Limits::default());
    scripts.seed(Some(7));
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
    let Some(Effect::Rolled(faces)) = outcome.effects.first() else { panic!("{outcome:?}") };
    assert_eq!(&outcome.seeded, faces);
    let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::from(vec![1, 2]));
    assert!(outcome.seeded.is_empty());
}

/// The rows of the table under `heading` in a markdown page, as (what, example): the first cell
/// (the row above's when empty) and the code of the last cell, for rows that have one.
fn documented(page: &str, heading: &str) -> Vec<(String, String)> {
    let Some(at) = page.find(heading) else { return Vec::new() };
    let mut rows = Vec::new();
    let mut what = String::new();
    let table =
        page[at..].lines().skip(1).skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'));
    for line in table.skip(2) {
        let cells: Vec<String> =
            line.replace("\\|", "\u{1}").split('|').map(|c| c.trim().replace('\u{1}', "|")).collect();
        let (Some(first), Some(last)) = (cells.get(1), cells.iter().rev().nth(1)) else { continue };
        if !first.is_empty() {
            what = first.clone();
        }
        if let Some(code) = last.strip_prefix('`').and_then(|c| c.strip_suffix('`')) {
            rows.push((what.clone(), code.to_string()));
        }
    }
    rows
}

#[test]
fn the_documented_surface_is_the_real_one() {
    // docs/scripting.md's own tables, read here, so the page and the engine cannot drift apart.
    const PAGE: &str = include_str!("../../../docs/scripting.md");
    let available = documented(PAGE, "### Available to scripts");
    let left_out = documented(PAGE, "### Left out");
    assert!(available.len() >= 10, "{available:?}");
    assert!(left_out.len() >= 10, "{left_out:?}");
    for (what, code) in &available {
        let (_, s) = scenario(&hook_script(&format!("            {code};")));
        let mut scripts = Scripts::compile(&s, Limits::default());
        assert_eq!(scripts.errors, Vec::new(), "{what}: `{code}` does not compile");
        scripts.seed(Some(7));
        let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
        assert_eq!(outcome.error, None, "{what}: `{code}` does not run");
    }
    for (what, code) in &left_out {
        let (_, s) = scenario(&hook_script(&format!("            {code}")));
        let mut scripts = Scripts::compile(&s, Limits::default());
        if let Some(error) = scripts.errors.first() {
            // Refused at compile, with the reason.
            assert!(error.message.contains("left out of the sandbox"), "{what}: `{code}`: {error:?}");
            continue;
        }
        let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
        let error = outcome.error.unwrap_or_else(|| panic!("{what}: `{code}` runs"));
        assert!(error.message.starts_with("Function not found"), "{what}: `{code}`: {error:?}");
    }
}

#[test]
fn what_reads_no_variable_is_stopped_at_the_hook_or_at_a_triggers_statement() {
    // rhai reports its own limits at the outermost call it was given: for a hook, no place, so
    // the finding names the hook (docs/scripting.md, "Where a limit stops a call").
    for (body, message) in [
        ("            loop {}", "more than 150,000 operations"),
        ("            down();", "called each other more than 32 deep"),
    ] {
        let script = hook_script(body).replacen("rhai\n", "rhai\n        fn down() { down() }\n", 1);
        let (source, s) = scenario(&script);
        let mut scripts = Scripts::compile(&s, Limits::default());
        let outcome = scripts.call_hook("on_turn_start", &[], &snapshot(), &mut VecDeque::new());
        let error = outcome.error.unwrap_or_else(|| panic!("`{body}` is not stopped"));
        assert!(error.message.contains(message), "{error:?}");
        assert_eq!(at(&source, &error), "on_turn_start");
    }
    // A trigger's body is evaluated, not called: its statement keeps its place (the loop's body,
    // the call that began the recursion).
    for (code, message, points_at) in [
        ("loop {}", "more than 150,000 operations", "{}"),
        ("down();", "called each other more than 32 deep", "down"),
    ] {
        let extra = format!(
            "    library \"L\" {{\n        script ```rhai\n            fn down() {{ down() }}\n        ```\n    }}\n    trigger \"Spin\" when `true` ```rhai\n        let n = 1;\n        {code}\n    ```"
        );
        let (source, s) = scenario(&extra);
        let mut scripts = Scripts::compile(&s, Limits::default());
        let ran = scripts.run_triggers(&snapshot(), &mut BTreeMap::new());
        let error = ran[0].1.error.as_ref().expect("stopped");
        assert!(error.message.contains(message), "{error:?}");
        let line = source[..error.span.start].rsplit('\n').next().unwrap_or_default();
        let before = code.find(points_at).map_or(code, |i| &code[..i]);
        assert_eq!(line, format!("        {before}"), "{error:?}");
        assert!(source[error.span.start..].starts_with(points_at), "{error:?}");
    }
}

#[test]
fn a_literal_pays_for_its_size_like_a_variable() {
    // A literal array or string in a loop is built anew at each round (no constant folding), and
    // the natives that compare or split items charge for them: the budget stops the loop after a
    // few dozen rounds, not tens of thousands.
    let items: Vec<String> = (0..500).map(|i| i.to_string()).collect();
    let array = format!("[{}]", items.join(", "));
    let text = "a,".repeat(400);
    let entries: Vec<String> = (0..500).map(|i| format!("k{i}: {i}")).collect();
    let map = format!("#{{{}}}", entries.join(", "));
    for work in [
        format!("{array}.len()"),
        format!("{map}.keys()"),
        format!("{array}.contains(-1)"),
        format!("{array} == {array}"),
        format!("\"{text}\".split(\",\")"),
        format!("\"{text}\".to_chars()"),
    ] {
        let body = format!(
            "            let n = 0;\n            loop {{\n                let x = {work};\n                n += 1;\n                \
             if n % 10 == 0 {{ game.log(`${{n}}`); }}\n            }}"
        );
        let (_, outcome) = run(&body);
        let short: String = work.chars().take(40).collect();
        let error = outcome.error.as_ref().unwrap_or_else(|| panic!("`{short}` is not stopped"));
        assert!(error.message.contains("more than 150,000 operations"), "{short}: {error:?}");
        // At least 500 operations a round: under 300 rounds (a folded constant makes 30,000).
        assert!(logs(&outcome).len() < 30, "`{short}` ran {} rounds", logs(&outcome).len() * 10);
    }
}

#[test]
fn a_string_literal_longer_than_1000_bytes_is_refused_at_its_quote() {
    let fits = format!("            game.log(\"{}\");", "x".repeat(MAX_LITERAL_BYTES));
    assert_eq!(run(&fits).1.error, None);
    let (source, s) =
        scenario(&hook_script(&format!("            game.log(`{}`);", "x".repeat(MAX_LITERAL_BYTES + 1))));
    let scripts = Scripts::compile(&s, Limits::default());
    let error = scripts.errors.first().expect("refused");
    assert_eq!(at(&source, error), "`");
    assert!(
        error.message.starts_with("a string written in a script may hold at most 1,000 bytes"),
        "{error:?}"
    );
    // The quotes inside a string and in comments are not literals of their own.
    let quoted =
        format!("            // \"{}\n            game.log(\"it's \\\"fine\\\"\");", "y".repeat(2000));
    assert_eq!(run(&quoted).1.error, None);
}

/// Issue 16: a trigger condition that was false without acting is not run again while the parts
/// of the game it read stay the same (`ConditionMemo`). Played over snapshots where those parts
/// change and where only others do, with and without the memo (`check_memo` runs every
/// condition), the triggers fire at the same moments and the scripts end in the same state: the
/// work charged to the game's budget included, so the budget runs out at the same call. A stale
/// memo (one that missed a change of what the condition read) fails this.
#[test]
fn a_remembered_trigger_condition_gives_what_running_it_gives() {
    let extra = "    trigger \"Thin\" when `game.unit(\"1st\").stands < 3` ```rhai\n        game.log(\"thin\");\n    ```\n    \
                 trigger \"Late\" when `game.turn >= 6 && game.objective(\"Hill\").held_by == \"union\"` ```rhai\n        game.log(\"late\");\n    ```\n    \
                 trigger \"Loud\" when `game.log(\"asked\") != 0 && false` ```rhai\n        game.log(\"never\");\n    ```\n    \
                 trigger \"Dice\" when `game.roll(1)[0] > 6` ```rhai\n        game.log(\"never\");\n    ```\n    \
                 trigger \"Const\" when `1 > 2` ```rhai\n        game.log(\"never\");\n    ```";
    let (_, s) = scenario(extra);
    let mut snapshots = Vec::new();
    for turn in 1..=9u32 {
        for phase in ["command", "maneuver", "fire", "status"] {
            let mut snap = (*snapshot()).clone();
            snap.turn = turn;
            snap.phase = phase.into();
            // The unit thins at turn 4's fire phase; the hill changes hands at turn 5 and 7.
            snap.units[0].stands =
                if turn > 4 || (turn == 4 && phase != "command" && phase != "maneuver") { 2 } else { 4 };
            let holder = if turn == 5 || turn >= 7 { "union" } else { "" };
            snap.objectives = vec![ObjectiveView {
                name: "Hill".into(),
                held_by: holder.into(),
                vp: 1.0,
                held_turns: vec![("union".into(), 0)],
            }];
            snapshots.push(Arc::new(snap));
        }
    }
    // A game budget that runs out partway, so the charged work must match call for call.
    for game_operations in [0, 2_000] {
        let limits = Limits { game_operations, ..Limits::default() };
        let mut remembered = Scripts::compile(&s, limits);
        remembered.seed(Some(7));
        remembered.check_memo = false;
        let mut running = Scripts::compile(&s, limits);
        running.seed(Some(7));
        running.check_memo = true;
        let mut fired = Vec::new();
        for (i, snap) in snapshots.iter().enumerate() {
            let a = remembered.run_triggers(snap, &mut BTreeMap::new());
            let b = running.run_triggers(snap, &mut BTreeMap::new());
            assert_eq!(a, b, "turn {} {}", snap.turn, snap.phase);
            assert_eq!(remembered.state(), running.state(), "turn {} {}", snap.turn, snap.phase);
            assert_eq!(remembered.take_condition_dice(), running.take_condition_dice());
            fired.extend(a.into_iter().map(|(name, _)| (name, snap.turn, snap.phase.clone())));
            if i == 0 && game_operations == 0 {
                // Remembered: the conditions that read the game and did nothing else.
                let memos: Vec<&str> = remembered
                    .triggers
                    .iter()
                    .filter(|t| t.memo.is_some())
                    .map(|t| t.name.as_str())
                    .collect();
                assert_eq!(memos, vec!["Thin", "Late", "Const"]);
            }
        }
        if game_operations == 0 {
            let at = |name: &str| fired.iter().find(|f| f.0 == name).map(|f| (f.1, f.2.clone()));
            assert_eq!(at("Thin"), Some((4, "fire".to_string())), "{fired:?}");
            assert_eq!(at("Late"), Some((7, "command".to_string())), "{fired:?}");
        }
    }
}

/// Issue 16: while every waiting trigger is false again by its memo, the replay copies only the
/// parts the memos read (`Scripts::remembered_parts`, `all_remembered`, the replay's
/// `snapshot_parts`). On a snapshot holding only those parts the decision is the one the whole
/// snapshot gives, and a settled call fires nothing and leaves the scripts as running every
/// condition does; a change of what the memos read (the hill taken) unsettles it.
#[test]
fn triggers_settled_by_their_memos_need_only_the_parts_the_memos_read() {
    let extra = "    trigger \"Hill\" when `game.objective(\"Hill\").held_by == \"union\"` ```rhai\n        game.log(\"taken\");\n    ```";
    let (_, s) = scenario(extra);
    let mut remembered = Scripts::compile(&s, Limits::default());
    remembered.check_memo = false;
    let mut running = Scripts::compile(&s, Limits::default());
    running.check_memo = true;
    let mut settled_calls = 0;
    for turn in 1..=6u32 {
        let mut snap = (*snapshot()).clone();
        snap.turn = turn;
        // The unit's strength changes every turn; the hill is taken at turn 6.
        snap.units[0].stands = turn;
        let holder = if turn >= 6 { "union" } else { "" };
        snap.objectives =
            vec![ObjectiveView { name: "Hill".into(), held_by: holder.into(), vp: 1.0, held_turns: vec![] }];
        let snap = Arc::new(snap);
        let settled = remembered.all_remembered(&snap);
        if let Some(reads) = remembered.remembered_parts() {
            assert_eq!(reads, part::OBJECTIVES, "the condition reads the objectives only");
            assert_eq!(remembered.all_remembered(&snap.parts(reads)), settled, "turn {turn}");
        }
        assert!(!running.all_remembered(&snap), "the dev profile runs every condition");
        let a = remembered.run_triggers(&snap, &mut BTreeMap::new());
        let b = running.run_triggers(&snap, &mut BTreeMap::new());
        assert_eq!(a, b, "turn {turn}");
        assert_eq!(remembered.state(), running.state(), "turn {turn}");
        if settled {
            settled_calls += 1;
            assert!(a.is_empty(), "turn {turn}");
        }
        assert_eq!(settled, (2..6).contains(&turn), "turn {turn}");
    }
    assert_eq!(settled_calls, 4);
}
