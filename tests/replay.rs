//! `dotc replay`: the tutorial game played through the rules, as a user runs it.

mod common;

use common::{dotc, root, text};

/// The narrative, the summary and the findings of one replay, as one reviewed text.
fn replay(file: &str) -> (String, std::process::Output) {
    let out = dotc(&["replay", file, "--summary"], &root());
    let shown = format!("{}\n---- findings ----\n{}", text(&out.stdout), text(&out.stderr));
    (shown, out)
}

#[test]
fn the_tutorial_game_replays() {
    let (shown, out) = replay("scenarios/tutorial/fence-line-game.dotc");
    insta::assert_snapshot!("tutorial_game", shown);
    // The tutorial log replays clean: every claim follows from its dice (exit 0).
    assert_eq!(out.status.code(), Some(0), "{shown}");
    // Turn 1: the 6th Louisiana's clean volley takes a stand off the 12th New Jersey.
    assert!(shown.contains("12th New Jersey saves on 5+: [5, 2, 3, 6] saves 2, 2 unsaved"));
    assert!(shown.contains("12th New Jersey loses 1 stand, 4 left"));
    // Turn 2: two 6s beyond 6" force a Shock save that fails: Disorder.
    assert!(shown.contains("50th Georgia Shock save: 4+ (fresh +1) needs 3+, rolled 2: failed"));
    assert!(shown.contains("50th Georgia gets Disorder"));
    // Turn 3: the assault wins 9 to 7.
    assert!(shown.contains("melee 9th Louisiana against 19th Maine: AttackerWins by 2"));
    assert!(!shown.contains("dotc::replay-disagrees"), "{shown}");
}

#[test]
fn the_replay_is_the_same_bytes_every_time() {
    let file = "scenarios/tutorial/fence-line-game.dotc";
    let (a, b) = (replay(file).0, replay(file).0);
    assert_eq!(a, b);
    let json = |_: ()| text(&dotc(&["replay", file, "--format", "json", "--summary"], &root()).stdout);
    let first = json(());
    assert_eq!(first, json(()));
    let value: serde_json::Value = serde_json::from_str(&first).expect("replay JSON parses");
    assert!(value["events"].as_array().is_some_and(|e| !e.is_empty()));
    assert_eq!(value["findings"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_wrong_claim_is_a_finding_at_its_line_citing_the_rule() {
    let file = "tests/fixtures/replay/wrong-claims.dotc";
    let (shown, out) = replay(file);
    assert_eq!(out.status.code(), Some(1));
    let source = std::fs::read_to_string(root().join(file)).unwrap();
    // Each `// expect: line N MESSAGE` names a finding's line and its message.
    for expect in source.lines().filter_map(|l| l.trim().strip_prefix("// expect: line ")) {
        let (line, message) = expect.split_once(' ').unwrap();
        assert!(shown.contains(&format!("wrong-claims.dotc:{line}:")), "no finding at line {line}:\n{shown}");
        assert!(shown.contains(message), "no `{message}`:\n{shown}");
    }
    assert!(shown.contains("help: see Ch16 2.1, RULINGS G2"));
    assert!(shown.contains("help: see RULE-05-3.3"));
    insta::assert_snapshot!("wrong_claims", shown);
}

#[test]
fn a_log_with_errors_is_refused() {
    let out = dotc(&["replay", "tests/fixtures/broken/game-unknown-unit.dotc"], &root());
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("has errors; not replayed"));
}
