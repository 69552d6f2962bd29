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
