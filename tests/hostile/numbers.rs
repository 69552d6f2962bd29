//! The numbers class of the hostile corpus (see main.rs); its inputs are in `tests/hostile/numbers/`.
//!
//! Every statement that takes a number has an allowed range (`lang/src/ranges.rs`, listed in
//! docs/language.md). A number outside it is one located diagnostic whose message names the
//! range and the number as written: never saturated, wrapped, exported as `1e+20` or `null`,
//! nor taken as some other number ("needs at least one turn" for 10^20 turns).

use std::path::{Path, PathBuf};

use crate::support::{Run, corpus, dotc};

/// A diagnostic as `dotc check --format json` gives it: code, line, column and message.
type Found = (String, u64, u64, String);

fn folder() -> PathBuf {
    corpus().join("numbers")
}

/// `dotc check --format json FILE` in the corpus folder: the run and its diagnostics.
fn check(file: &str) -> (Run, Vec<Found>) {
    let run = dotc(&["check", "--format", "json", file], &folder());
    let json: serde_json::Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("check {file} gave no JSON ({e}): {}\n{}", run.stdout, run.stderr));
    let found = json
        .as_array()
        .map(|all| {
            all.iter()
                .map(|d| {
                    let text = |key: &str| d[key].as_str().unwrap_or_default().to_string();
                    let at = |key: &str| d["primary"]["start"][key].as_u64().unwrap_or_default();
                    (text("code"), at("line"), at("column"), text("message"))
                })
                .collect()
        })
        .unwrap_or_default();
    (run, found)
}

/// Check `file` and require exactly `expected` (code, line, column, message), an exit of 1 and
/// a small, quick run.
fn expect(file: &str, expected: &[(&str, u64, u64, &str)]) {
    let (run, found) = check(file);
    let expected: Vec<Found> =
        expected.iter().map(|(c, l, col, m)| (c.to_string(), *l, *col, m.to_string())).collect();
    assert_eq!(found, expected, "{file}: stderr {}", run.stderr);
    assert_eq!(run.code, Some(1), "{file}: an error exits 1");
    bounded(&run, file);
}

/// The child finished before its deadline in under 200 MB.
fn bounded(run: &Run, what: &str) {
    assert!(!run.timed_out, "{what}: timed out");
    assert!(run.peak_mb() < 200, "{what}: peak RSS {} MB", run.peak_mb());
}

/// A scratch folder for outputs, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dotc-hostile-numbers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temp path")
}

#[test]
fn numbers_the_base_scenario_checks_clean() {
    let (run, found) = check("base.dotc");
    assert_eq!(found, Vec::<Found>::new(), "{}", run.stderr);
    assert_eq!(run.code, Some(0));
}

/// Issue 15: `table 1000000000 x 1000000000` passed `check` and `render`, which then aborted
/// at 5.3 GB drawing a grid line an inch. Now both sides are out of range, `check` says so and
/// `render` draws nothing, each small and quick.
#[test]
fn numbers_a_table_beyond_the_range_is_reported_and_never_drawn() {
    expect(
        "table.dotc",
        &[
            (
                "dotc::number-range",
                9,
                11,
                "the table's width must be a number above 0, at most 2400 inches; 1000000000 is out of range",
            ),
            (
                "dotc::number-range",
                9,
                24,
                "the table's depth must be a number above 0, at most 2400 inches; 1000000000 is out of range",
            ),
        ],
    );
    let out = scratch("table");
    let map = out.join("map.svg");
    let run = dotc(&["render", "table.dotc", "-o", path_str(&map)], &folder());
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("has errors; no map written"), "{}", run.stderr);
    assert!(!map.exists(), "no map is written for a file with errors");
    bounded(&run, "render table.dotc");
    let run = dotc(&["export", "table.dotc"], &folder());
    assert_eq!((run.code, run.stdout.as_str()), (Some(1), ""), "{}", run.stderr);
    bounded(&run, "export table.dotc");
    let _ = std::fs::remove_dir_all(&out);
}

/// The largest table allowed checks clean and renders, small and quick: the range is what the
/// renderer can draw.
#[test]
fn numbers_the_largest_table_allowed_renders_small() {
    let (run, found) = check("table-largest.dotc");
    assert_eq!(found, Vec::<Found>::new(), "{}", run.stderr);
    let out = scratch("largest");
    let map = out.join("map.svg");
    let run = dotc(&["render", "table-largest.dotc", "-o", path_str(&map)], &folder());
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    bounded(&run, "render table-largest.dotc");
    let size = std::fs::metadata(&map).map(|m| m.len()).unwrap_or(0);
    assert!(size > 0 && size < 20_000_000, "the map is {size} bytes");
    let _ = std::fs::remove_dir_all(&out);
}

/// `stands 99999999999999999999` was exported as 1e+20.
#[test]
fn numbers_stands() {
    expect(
        "stands.dotc",
        &[(
            "dotc::number-range",
            20,
            44,
            "stands must be a whole number from 1 to 60; 99999999999999999999 is out of range",
        )],
    );
    let run = dotc(&["export", "stands.dotc"], &folder());
    assert_eq!((run.code, run.stdout.as_str()), (Some(1), ""), "{}", run.stderr);
}

/// `men` has its own range, and men in range that make more than 60 stands are reported too.
#[test]
fn numbers_men() {
    expect(
        "men.dotc",
        &[
            ("dotc::number-range", 21, 41, "men must be a whole number from 1 to 6000; 6001 is out of range"),
            (
                "dotc::number-range",
                22,
                47,
                "stands must be a whole number from 1 to 60; 6000 men at 75 a stand make 80",
            ),
        ],
    );
}

/// `size 1e400 x 2` (a 401-digit number) was exported as null.
#[test]
fn numbers_a_feature_size() {
    let big = format!("1{}", "0".repeat(400));
    expect(
        "size.dotc",
        &[(
            "dotc::number-range",
            13,
            47,
            &format!("a feature's size must be a number above 0, at most 2400 inches; {big} is out of range"),
        )],
    );
    let run = dotc(&["export", "size.dotc"], &folder());
    assert_eq!((run.code, run.stdout.as_str()), (Some(1), ""), "{}", run.stderr);
}

/// A turn length saturated to 4,294,967,295 minutes.
#[test]
fn numbers_a_turn_length() {
    expect(
        "turn-length.dotc",
        &[(
            "dotc::number-range",
            6,
            17,
            "turn_length must be a whole number from 1 to 240 minutes; 99999999999 h is out of range",
        )],
    );
}

/// `turns 1e20` was told "a scenario needs at least one turn".
#[test]
fn numbers_turns() {
    expect(
        "turns.dotc",
        &[(
            "dotc::number-range",
            7,
            11,
            "turns must be a whole number from 1 to 100000; 100000000000000000000 is out of range",
        )],
    );
}

#[test]
fn numbers_levels() {
    expect(
        "levels.dotc",
        &[(
            "dotc::number-range",
            12,
            68,
            "level must be a whole number from 0 to 10; 1000000 is out of range",
        )],
    );
}

/// A coordinate beyond the largest table either way is out of range (and not also off the table).
#[test]
fn numbers_coordinates() {
    expect(
        "coordinates.dotc",
        &[
            (
                "dotc::number-range",
                19,
                61,
                "a coordinate must be a number from -2400 to 2400 inches; -3000 is out of range",
            ),
            (
                "dotc::number-range",
                20,
                77,
                "a coordinate must be a number from -2400 to 2400 inches; 99999999999999999999 is out of range",
            ),
        ],
    );
}

/// A time of day runs 00:00 to 23:59 (two digits each side: nothing to overflow).
#[test]
fn numbers_times() {
    expect("times.dotc", &[("dotc::impossible-value", 5, 11, "99:99 is not a time of day")]);
}

#[test]
fn numbers_stands_lost_losses_and_wounds() {
    expect(
        "counts.dotc",
        &[
            (
                "dotc::number-range",
                19,
                74,
                "light wounds must be a whole number from 1 to 10; 11 is out of range",
            ),
            (
                "dotc::number-range",
                21,
                112,
                "stands lost must be a whole number from 0 to 60; 61 is out of range",
            ),
            (
                "dotc::number-range",
                30,
                20,
                "a brigade's stands lost must be a whole number from 0 to 600; 99999999999999999999 is out of range",
            ),
        ],
    );
}

#[test]
fn numbers_victory_conditions() {
    expect(
        "victory.dotc",
        &[
            (
                "dotc::number-range",
                37,
                21,
                "a victory point total must be a whole number from 0 to 100000; 99999999999999999999 is out of range",
            ),
            (
                "dotc::number-range",
                38,
                48,
                "the turns an objective is held must be a whole number from 1 to 100000; 100001 is out of range",
            ),
        ],
    );
}

/// A seed is any u64; one past it is not wrapped or saturated.
#[test]
fn numbers_seeds() {
    expect(
        "seed.dotc",
        &[(
            "dotc::number-range",
            5,
            10,
            "seed must be a whole number from 0 to 18446744073709551615; 18446744073709551616 is out of range",
        )],
    );
}

/// A die face too long for an i64 keeps the die's own code and is named as written; a turn
/// number past 2^32 is not wrapped to 0.
#[test]
fn numbers_dice_and_turn_numbers() {
    expect(
        "dice.dotc",
        &[
            (
                "dotc::impossible-die",
                10,
                55,
                "a die's face must be a whole number from 1 to 6; 99999999999999999999 is out of range",
            ),
            (
                "dotc::number-range",
                14,
                6,
                "a turn number must be a whole number from 1 to 100000; 4294967296 is out of range",
            ),
        ],
    );
}
