//! `dotc audit`: every mistake of a logged game at its line with its rule; the umpire's rulings
//! (`@allow`) listed apart; exit 1 when anything is wrong.

mod common;

use common::{dotc, root, text};

#[test]
fn the_tutorial_game_audits_clean() {
    let out = dotc(&["audit", "scenarios/tutorial/fence-line-game.dotc"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("clean: 0 error(s), 0 warning(s), 0 allowed by the umpire"));
}

#[test]
fn an_umpires_allow_is_listed_with_its_reason_and_the_rest_is_reported() {
    let file = "tests/fixtures/audit/umpire-allowed.dotc";
    let out = dotc(&["audit", file], &root());
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    // Line 12's pips are allowed, with the umpire's reason; line 18's stands lost are not.
    assert!(said.contains(
        "umpire-allowed.dotc:12: allowed (umpire: aggressive bonus waived for the first turn): pips: the rules give 4, the log claims 3"
    ), "{said}");
    assert!(said.contains("umpire-allowed.dotc:18:111"), "{said}");
    assert!(said.contains("stands lost: the rules give 1, the log claims 2"));
    // A suppression that matches nothing is itself worth a warning.
    assert!(said.contains("this suppression of dotc::replay-doubtful matches nothing on its line"));
    assert!(said.contains("1 error(s), 1 warning(s), 1 allowed by the umpire"), "{said}");
}

#[test]
fn json_gives_every_finding_with_line_rule_and_the_suppressions() {
    let out = dotc(&["audit", "tests/fixtures/audit/umpire-allowed.dotc", "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    let file = &value["files"][0];
    assert_eq!(file["errors"], 1);
    assert_eq!(file["findings"][0]["line"], 18);
    assert_eq!(file["findings"][0]["rule"], "RULE-05-3.3");
    assert_eq!(file["findings"][0]["code"], "dotc::replay-disagrees");
    assert_eq!(file["suppressed"][0]["line"], 12);
    assert_eq!(file["suppressed"][0]["reason"], "umpire: aggressive bonus waived for the first turn");
}

#[test]
fn many_logs_are_audited_in_one_run_and_one_bad_log_fails_it() {
    let out = dotc(
        &[
            "audit",
            "scenarios/tutorial/fence-line-game.dotc",
            "tests/fixtures/replay/wrong-claims.dotc",
            "tests/fixtures/broken/game-unknown-unit.dotc",
        ],
        &root(),
    );
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.contains("audited 3 logs: 1 clean, 2 with problems"), "{said}");
    assert!(said.contains("game-unknown-unit.dotc has errors; not replayed"));
}

/// A log with seventeen mistakes of seventeen kinds, each marked `// mistake: ... (RULE)` in the
/// comment above its line: the audit finds every one at that line, and reports nothing else.
#[test]
fn every_mistake_of_a_careless_evening_is_found_at_its_line_and_nothing_else() {
    let file = "tests/fixtures/audit/careless-evening.dotc";
    let source = std::fs::read_to_string(root().join(file)).unwrap();
    // The line each mistake comment points at: the first line after it that is not a comment.
    let lines: Vec<&str> = source.lines().collect();
    let mut expected = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().starts_with("// mistake:") {
            let at = (i + 1..lines.len()).find(|&j| !lines[j].trim().starts_with("//")).unwrap();
            expected.push(at + 1);
        }
    }
    assert!(expected.len() >= 15, "the log has {} mistakes", expected.len());
    let out = dotc(&["audit", file, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    let findings = value["files"][0]["findings"].as_array().expect("findings");
    let found: Vec<usize> = findings.iter().map(|f| f["line"].as_u64().unwrap() as usize).collect();
    assert_eq!(found, expected, "{findings:#?}");
    // Each finding cites its rule; seventeen different messages for seventeen kinds of mistake.
    assert!(findings.iter().all(|f| !f["rule"].as_str().unwrap().is_empty()), "{findings:#?}");
    let kinds: std::collections::BTreeSet<String> = findings
        .iter()
        .map(|f| f["message"].as_str().unwrap().split(':').next().unwrap().to_string())
        .collect();
    assert!(kinds.len() >= 15, "{kinds:#?}");
    let rendered = dotc(&["audit", file], &root());
    insta::assert_snapshot!("careless_evening", text(&rendered.stderr));
}

/// A season's folder: every game log under it audited (on one thread or two, the same bytes),
/// in the order of their paths; scenarios and other files in it left out and counted; exit 1
/// because one log has problems (issue 16: `dotc audit DIR/`).
#[test]
fn a_folder_of_logs_is_audited_whole_in_order_on_any_number_of_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let season = dir.path().join("season");
    std::fs::create_dir_all(season.join("week-2")).expect("mkdir");
    let scenario =
        std::fs::read_to_string(root().join("scenarios/tutorial/fence-line.dotc")).expect("scenario");
    let clean = std::fs::read_to_string(root().join("scenarios/tutorial/fence-line-game.dotc")).expect("log");
    let careless = std::fs::read_to_string(root().join("tests/fixtures/audit/umpire-allowed.dotc"))
        .expect("log")
        .replace("../../../scenarios/tutorial/fence-line.dotc", "../fence-line.dotc");
    std::fs::write(dir.path().join("fence-line.dotc"), &scenario).expect("write");
    std::fs::write(season.join("fence-line.dotc"), &scenario).expect("write");
    std::fs::write(season.join("notes.txt"), "not a log").expect("write");
    for name in ["b-game.dotc", "a-game.dotc"] {
        std::fs::write(season.join(name), &clean).expect("write");
    }
    let nested = clean.replace("scenario \"fence-line.dotc\"", "scenario \"../fence-line.dotc\"");
    assert_ne!(nested, clean);
    std::fs::write(season.join("week-2/c-game.dotc"), nested).expect("write");
    std::fs::write(season.join("week-2/careless.dotc"), &careless).expect("write");
    let audit =
        |jobs: &str, format: &str| dotc(&["audit", "season", "-j", jobs, "--format", format], dir.path());

    let one = audit("1", "json");
    let two = audit("2", "json");
    assert_eq!(one.status.code(), Some(1), "{}", text(&one.stderr));
    assert_eq!((one.stdout.clone(), one.status.code()), (two.stdout, two.status.code()));
    let value: serde_json::Value = serde_json::from_str(&text(&one.stdout)).expect("audit JSON");
    let files: Vec<(String, u64)> = value["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| (f["file"].as_str().unwrap_or("").to_string(), f["errors"].as_u64().unwrap_or(99)))
        .collect();
    let expected = [
        ("season/a-game.dotc", 0),
        ("season/b-game.dotc", 0),
        ("season/week-2/c-game.dotc", 0),
        ("season/week-2/careless.dotc", 1),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(f, e)| (f.to_string(), *e)).collect();
    assert_eq!(files, expected);

    let said = text(&audit("2", "text").stderr);
    assert!(
        said.contains("audited 4 logs: 3 clean, 1 with problems (1 other .dotc files left out)"),
        "{said}"
    );
    let verdicts: Vec<&str> =
        said.lines().filter(|l| l.contains(": clean:") || l.contains(": has problems:")).collect();
    assert_eq!(verdicts.len(), 4, "{said}");
    assert!(verdicts[0].starts_with("season/a-game.dotc: clean"), "{verdicts:?}");
    assert!(verdicts[3].starts_with("season/week-2/careless.dotc: has problems"), "{verdicts:?}");

    // A damaged log in the folder is one log with a problem; named, it stops the audit.
    std::fs::write(season.join("week-2/damaged.dotc"), b"game \"x\" {\n    \xff\n}\n").expect("write");
    let out = audit("2", "text");
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("dotc::invalid-utf8"), "{said}");
    assert!(
        said.contains("audited 5 logs: 3 clean, 2 with problems (1 other .dotc files left out)"),
        "{said}"
    );
    let named = dotc(&["audit", "season/week-2/damaged.dotc"], dir.path());
    let said = text(&named.stderr);
    assert_eq!(named.status.code(), Some(2), "{said}");
    assert!(said.contains("dotc::invalid-utf8"), "{said}");
    assert!(said.contains("error: season/week-2/damaged.dotc is not UTF-8 text; not read"), "{said}");

    // A folder with no .dotc file is an error, not a clean season.
    std::fs::create_dir(dir.path().join("empty")).expect("mkdir");
    let empty = dotc(&["audit", "empty"], dir.path());
    assert_eq!(empty.status.code(), Some(2));
    assert!(text(&empty.stderr).contains("no .dotc files in empty"), "{}", text(&empty.stderr));
}

#[path = "../tools/legal_log.rs"]
mod legal_log;
#[allow(dead_code)] // its random log and line count are for the benchmarks
#[path = "../lang/benches/support/log.rs"]
mod log;

/// The benchmarks' rules-legal log (`tools/legal_log.rs`), written to disk, audits clean through
/// the CLI, and is a real game: volleys whose hits are saved (RULE-05-3.2, Ch16 5.4: the plan's
/// save), moves, formation changes and the pips of every brigadier, all as the rules take them.
#[test]
fn the_generated_legal_game_audits_clean() {
    let (log_text, turns) = legal_log::generate_legal_log(2_000);
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join(legal_log::SCENARIO_FILE), legal_log::scenario_with_turns(turns))
        .expect("write the scenario");
    std::fs::write(dir.path().join("game.dotc"), &log_text).expect("write the log");
    let out = dotc(&["audit", "game.dotc"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(log_text.lines().count() > 1_800, "the generator left out too much");
    for played in ["saves [6", "=> hits 0", "move \"", "formation \"", "pips \"", "enter \""] {
        assert!(log_text.contains(played), "the legal log has no `{played}`");
    }
}
