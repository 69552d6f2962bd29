//! The scripts class of the hostile corpus (see main.rs); its inputs are in `tests/hostile/scripts/`.
//!
//! Each input is a scenario whose `on_turn_start` misbehaves (`NAME.dotc`) and a one-turn game
//! log of it (`NAME-game.dotc`). A test runs the real `dotc replay` on the log and `dotc check`
//! (what the language server runs at every keystroke) on both, and asserts the one finding, at
//! its statement in the scenario, and that the child stayed within its time and memory.

use std::path::PathBuf;
use std::time::Duration;

use crate::support::{Run, corpus, dotc_with};

/// The most memory a run may take: dotc itself is about 20 MB; an unbounded script reached
/// 5.9 GB before issue 15.
const MAX_MB: u64 = 200;

fn dir() -> PathBuf {
    corpus().join("scripts")
}

/// Run `dotc args` on the corpus, asserting it ended by itself, well within its deadline (a
/// call's work is counted and bounded; the deadline only catches a runaway), and within
/// [`MAX_MB`].
fn run(args: &[&str]) -> Run {
    let run = dotc_with(args, &dir(), b"", Duration::from_secs(30));
    assert!(!run.timed_out, "dotc {args:?} ran past its deadline: {run:?}");
    assert!(run.signal.is_none(), "dotc {args:?} was killed: {run:?}");
    assert!(run.peak_mb() < MAX_MB, "dotc {args:?} peaked at {} MB", run.peak_mb());
    run
}

/// The miette report on stderr with its wrapped lines joined.
fn unwrapped(stderr: &str) -> String {
    stderr.replace("\n  │ ", " ")
}

/// `dotc replay NAME-game.dotc` stops the hook with exactly this finding, at `line:column` of
/// `NAME.dotc`; `dotc check` finds nothing wrong with either file (the scripts compile; only
/// running them goes past a limit).
fn stopped(name: &str, at: &str, message: &str) {
    let game = format!("{name}-game.dotc");
    // The trace (`--rules`) writes each finding under its action as `! finding: MESSAGE`.
    let replay = run(&["replay", &game, "--seed", "1", "--rules"]);
    assert_eq!(replay.code, Some(1), "{replay:?}");
    let expected = format!("! finding: hook on_turn_start ({name}.dotc:{at}): {message} (scenario script)");
    let findings: Vec<&str> =
        replay.stdout.lines().map(str::trim).filter(|l| l.starts_with("! finding")).collect();
    assert_eq!(findings, [expected.as_str()], "{}", replay.stdout);
    let report = unwrapped(&replay.stderr);
    assert!(report.starts_with("dotc::replay-disagrees"), "{report}");
    assert!(report.contains(&format!("× hook on_turn_start ({name}.dotc:{at}): ")), "{report}");
    let check = run(&["check", &format!("{name}.dotc"), &game]);
    assert_eq!((check.code, check.stdout.as_str(), check.stderr.as_str()), (Some(0), "", ""), "{check:?}");
}

/// `dotc check NAME.dotc` refuses the script with exactly this `dotc::script-error` at
/// `line:column`, and `dotc replay` refuses to run it with the same words.
fn refused(name: &str, line: u64, column: u64, message: &str) {
    let file = format!("{name}.dotc");
    let check = run(&["check", &file, "--format", "json"]);
    assert_eq!(check.code, Some(1), "{check:?}");
    let diagnostics: serde_json::Value = serde_json::from_str(&check.stdout).expect("check's JSON");
    let diagnostics = diagnostics.as_array().expect("a list of diagnostics");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "dotc::script-error");
    assert_eq!(d["file"], file.as_str());
    assert_eq!(
        (d["primary"]["start"]["line"].as_u64(), d["primary"]["start"]["column"].as_u64()),
        (Some(line), Some(column))
    );
    assert_eq!(d["message"], format!("script: {message}"));
    let replay = run(&["replay", &format!("{name}-game.dotc")]);
    assert_eq!(replay.code, Some(1), "{replay:?}");
    let report = unwrapped(&replay.stderr);
    assert!(report.contains(&format!("× script ({file}:{line}:{column}): {message}")), "{report}");
    // Nothing of the hook ran.
    assert!(!replay.stdout.contains("on_turn_start"), "{}", replay.stdout);
}

const OUTPUT_LINES: &str = "the script wrote more than 100 lines to the replay (print, debug, game.log and \
     every action: points, reinforcements, rolls, markers, leaders), the most one call may write, and was \
     stopped there (a loop?)";
const OPERATIONS: &str = "the script did more than 150,000 operations, the most one call may do, and was \
     stopped there (an endless loop?)";
const ARRAY: &str = "an array would hold more than 10,000 items (the items of the arrays and maps inside it \
     counted), the most one array may hold, and the script was stopped there";
const STRING: &str = "a string would be longer than 10,000 bytes, the most one string may hold, and the script was stopped there";
const DEPTH: &str = "the script's functions called each other more than 32 deep, the most one call may nest, \
     and it was stopped there (endless recursion?)";
const POINTERS: &str = "is left out of the sandbox: scripts have no function pointers or closures; call a \
     function by its name (`name(x)`)";

// ---------------------------------------------------------------- effects in a loop: the output limits

#[test]
fn endless_print_stops_at_the_print() {
    // The case: `dotc replay` reached 5.9 GB. Each line is counted; the 101st stops it.
    stopped("endless-print", "22:20", OUTPUT_LINES);
}

#[test]
fn endless_game_log_stops_at_the_log() {
    stopped("endless-log", "22:25", OUTPUT_LINES);
}

#[test]
fn endless_points_stop_at_the_award() {
    stopped("endless-award", "22:25", OUTPUT_LINES);
}

#[test]
fn endless_reinforcements_stop_at_the_reinforce() {
    stopped("endless-reinforce", "22:25", OUTPUT_LINES);
}

#[test]
fn endless_rolls_stop_at_the_roll() {
    // 100 dice a roll, three bytes a die in the replay: the bytes run out first.
    stopped(
        "endless-roll",
        "22:25",
        "the script wrote more than 10,000 bytes to the replay (print, debug, game.log and every action: \
         points, reinforcements, rolls, markers, leaders), the most one call may write, and was stopped there \
         (a loop?)",
    );
}

/// A scenario may hold its scripts to less than the defaults (`script_limits`): the sixth line
/// stops the hook, and the finding names the lowered limit.
#[test]
fn a_lowered_output_limit_stops_the_print_sooner() {
    stopped(
        "lowered-print",
        "23:20",
        "the script wrote more than 5 lines to the replay (print, debug, game.log and every action: points, \
         reinforcements, rolls, markers, leaders), the most one call may write, and was stopped there (a loop?)",
    );
}

/// A scenario cannot raise a limit, zero one (no limit, to the sandbox), or name one that does
/// not exist: each setting is its own located `dotc::script-limit`, and the replay refuses it.
#[test]
fn a_scenario_cannot_raise_its_scripts_limits() {
    let check = run(&["check", "raised-limits.dotc", "--format", "json"]);
    assert_eq!(check.code, Some(1), "{check:?}");
    let diagnostics: serde_json::Value = serde_json::from_str(&check.stdout).expect("check's JSON");
    let found: Vec<(String, u64, u64, String)> = diagnostics
        .as_array()
        .expect("a list of diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["primary"]["start"]["line"].as_u64().unwrap_or(0),
                d["primary"]["start"]["column"].as_u64().unwrap_or(0),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expected = [
        (8, 30, "the operations of one call must be a whole number from 1 to 150000; 200000 is out of range"),
        (8, 38, "`oprations` is not a limit of scripts"),
        (8, 64, "the output lines of one call must be a whole number from 1 to 100; 0 is too small"),
        (
            8,
            79,
            "the bytes of one string must be a whole number from 1 to 10000; 99999999999999999999 is out of range",
        ),
    ];
    let expected: Vec<(String, u64, u64, String)> = expected
        .iter()
        .map(|&(line, column, message)| ("dotc::script-limit".to_string(), line, column, message.to_string()))
        .collect();
    assert_eq!(found, expected);
    // The misspelt name gets the right one as a fix.
    let fix = &diagnostics[1]["fix"];
    assert_eq!(fix["replacement"], "operations", "{fix}");
    let replay = run(&["replay", "raised-limits-game.dotc"]);
    assert_eq!(replay.code, Some(1), "{replay:?}");
    assert!(replay.stderr.contains("scenario \"raised-limits.dotc\" has 4 errors"), "{}", replay.stderr);
    assert!(!replay.stdout.contains("again and again"), "{}", replay.stdout);
}

// ---------------------------------------------------------------- hoarding memory: sizes and charged reads

#[test]
fn pushing_for_ever_is_stopped_by_the_work_its_reads_cost() {
    // Each read of the array costs its items: the budget runs out long before the array's limit.
    stopped("hoard-push", "23:20", OPERATIONS);
}

#[test]
fn appending_an_array_to_itself_stops_at_the_append() {
    stopped("hoard-append", "23:22", ARRAY);
}

#[test]
fn doubling_a_string_stops_at_the_statement() {
    stopped("hoard-concat", "23:25", STRING);
}

#[test]
fn padding_a_string_or_an_array_past_its_limit_stops_at_the_pad() {
    stopped("hoard-pad", "23:15", STRING);
    stopped("hoard-pad-array", "23:15", ARRAY);
}

#[test]
fn adding_map_entries_for_ever_is_stopped_by_the_work_its_reads_cost() {
    stopped("hoard-map", "24:20", OPERATIONS);
}

// ---------------------------------------------------------------- work: operations and depth

#[test]
fn searching_the_largest_array_in_a_loop_stops_at_the_search() {
    // The issue's `a.contains(...)` over 9,999 items: each read of `a` costs its items.
    stopped("contains-loop", "24:20", OPERATIONS);
}

#[test]
fn deep_recursion_stops_in_the_function_at_its_read() {
    stopped("deep-recursion", "22:18", DEPTH);
}

#[test]
fn recursion_reading_no_variable_is_reported_at_the_hook() {
    // rhai gives its own depth limit the place of the outermost call, which for a hook is none:
    // the finding names the hook (docs/scripting.md says so).
    stopped("bare-recursion", "24:12", DEPTH);
}

#[test]
fn an_empty_loop_is_reported_at_the_hook() {
    // As above, for rhai's own count of operations: `loop {}` reads nothing the sandbox could stop.
    stopped("empty-loop", "21:12", OPERATIONS);
}

#[test]
fn a_literal_built_in_a_loop_pays_for_its_entries() {
    // A 1,000-entry map literal is built afresh at each round, an operation an entry; folded
    // into a constant it cost nothing and took 3 s a call. The loop reads no variable: at the
    // hook, as above.
    stopped("literal-loop", "21:12", OPERATIONS);
}

#[test]
fn a_string_literal_past_1000_bytes_is_refused_at_its_quote() {
    refused(
        "long-literal",
        22,
        22,
        "a string written in a script may hold at most 1,000 bytes: a longer one costs nothing to read and \
         so escapes the budget of work: join shorter ones with `+`",
    );
}

// ---------------------------------------------------------------- what the sandbox leaves out

#[test]
fn a_closure_is_refused_at_its_bar() {
    refused(
        "closure",
        22,
        23,
        "anonymous functions and closures (`|x| ...`) are left out of the sandbox: write a named function \
         (`fn name(x) { ... }`) and call it by its name",
    );
}

#[test]
fn a_function_pointer_is_refused_at_fn() {
    refused("fn-pointer", 22, 21, &format!("`Fn` {POINTERS}"));
}

#[test]
fn call_is_refused_at_the_word() {
    refused("call", 22, 27, &format!("`call` {POINTERS}"));
}

#[test]
fn curry_is_refused_at_the_word() {
    refused("curry", 22, 35, &format!("`curry` {POINTERS}"));
}

#[test]
fn eval_is_refused_at_the_word() {
    refused("eval", 22, 13, "`eval` is left out of the sandbox: a script cannot run code made from a string");
}

#[test]
fn import_is_refused_at_the_word() {
    refused(
        "import",
        21,
        9,
        "`import` is left out of the sandbox: a script cannot load or make modules (the library scripts' \
         functions are in scope without it)",
    );
}
