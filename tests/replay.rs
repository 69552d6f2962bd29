//! `dotc replay`: the tutorial game played through the rules, as a user runs it.

mod common;

use common::{dotc, root, text};

/// The rules trace (`--rules`: every event with its rule), the summary and the findings of one
/// replay, as one reviewed text.
fn replay(file: &str) -> (String, std::process::Output) {
    let out = dotc(&["replay", file, "--rules", "--summary"], &root());
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
    assert!(shown.contains("50th Georgia Shock save: 4+ (fresh +1) becomes 3+, rolled 2: failed"));
    assert!(shown.contains("50th Georgia gets Disorder"));
    // Turn 3: the assault wins 9 to 7.
    assert!(shown.contains("melee 9th Louisiana against 19th Maine: 9th Louisiana wins by 2"));
    assert!(!shown.contains("dotc::replay-disagrees"), "{shown}");
}

/// Issue 21: without `--rules` the replay tells the game as a story, each action in plain
/// sentences with the dice that decided it, no rule cited and no log line quoted; the findings
/// still name their line.
#[test]
fn the_tutorial_game_as_a_story() {
    let out = dotc(&["replay", "scenarios/tutorial/fence-line-game.dotc", "--summary"], &root());
    assert_eq!(out.status.code(), Some(0));
    let story = text(&out.stdout);
    insta::assert_snapshot!("tutorial_story", story);
    for said in [
        "Laforêt’s Brigade has 4 pips to spend (rolled 5).",
        "6th Louisiana fires 5 dice at 12th New Jersey, 10.5″ away (medium range, 3+ to hit, with clean barrels +1): [3, 5, 2, 6, 4], 4 hits.",
        "12th New Jersey saves 2 of 4 on 5+: [5, 2, 3, 6].",
        "12th New Jersey loses a stand, 4 left.",
        "50th Georgia fails the Shock save (rolled 2, needed 3+).",
        "50th Georgia is disordered.",
        "Melee: 9th Louisiana 9 (rolled 4) against 19th Maine 7 (rolled 3); 9th Louisiana wins by 2.",
        "50th Georgia rallies (rolled 4, needed 4+).",
    ] {
        assert!(story.contains(said), "no `{said}` in:\n{story}");
    }
    for trace in ["[RULE-", "[Ch16", "line 31:", "rolled to_hit", "Gunsmoke", "tally"] {
        assert!(!story.contains(trace), "the story says `{trace}`:\n{story}");
    }
    // The same replay's trace has every one of them.
    let rules =
        text(&dotc(&["replay", "scenarios/tutorial/fence-line-game.dotc", "--rules"], &root()).stdout);
    for trace in ["[RULE-", "[Ch16", "line 31:", "rolled to_hit", "Gunsmoke", "tally"] {
        assert!(rules.contains(trace), "the trace lacks `{trace}`");
    }
    // A finding in the story names its line.
    let wrong = text(&dotc(&["replay", "tests/fixtures/replay/wrong-claims.dotc"], &root()).stdout);
    assert!(wrong.lines().any(|l| l.trim_start().starts_with("! finding at line ")), "{wrong}");
}

/// Colour on a terminal, or with `--color always`; never into a pipe by default, never with
/// `--color never`, and `NO_COLOR` turns `auto` off (issue 21).
#[test]
fn the_story_is_coloured_only_when_asked() {
    let file = "scenarios/tutorial/fence-line-game.dotc";
    let piped = text(&dotc(&["replay", file], &root()).stdout);
    assert!(!piped.contains('\x1b'), "colour into a pipe");
    let always = text(&dotc(&["--color", "always", "replay", file], &root()).stdout);
    assert!(always.contains("\x1b[1mTurn 1 (confederate)\x1b[0m"), "{always}");
    let plain = always.replace("\x1b[1m", "").replace("\x1b[2m", "").replace("\x1b[0m", "");
    assert_eq!(plain, piped, "colour changed the words");
    let never = text(&dotc(&["--color", "never", "replay", file], &root()).stdout);
    assert_eq!(never, piped);
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

#[test]
fn the_tutorial_replay_in_yaml_is_the_event_stream_and_the_final_state() {
    let out = dotc(&["replay", "scenarios/tutorial/fence-line-game.dotc", "--format", "yaml"], &root());
    assert_eq!(out.status.code(), Some(0));
    let yaml = text(&out.stdout);
    let value: serde_json::Value = serde_norway::from_str(&yaml).expect("replay YAML parses");
    // The final state: the 12th New Jersey lost one stand in turn 1 (RULE-05-3.3).
    let units = value["summary"]["units"].as_array().expect("units");
    let nj = units.iter().find(|u| u["name"] == "12th New Jersey").expect("12th New Jersey");
    assert_eq!(nj["stands"], 4);
    assert_eq!(value["findings"].as_array().map(Vec::len), Some(0));
    insta::assert_snapshot!("tutorial_game_yaml", yaml);
}

#[test]
fn until_stops_after_the_phase_asked_for() {
    let file = "scenarios/tutorial/fence-line-game.dotc";
    let out = dotc(&["replay", file, "--until", "turn 2 fire", "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    assert_eq!(value["stopped"]["turn"], 2);
    assert_eq!(value["stopped"]["phase"], "fire");
    let events = value["events"].as_array().expect("events");
    assert!(events.iter().all(|e| e["turn"].as_u64() <= Some(2)));
    assert!(!events.iter().any(|e| e["turn"] == 2 && e["phase"] == "status"));
    // The text narrative stops there too: no turn 3 heading.
    let narrative = text(&dotc(&["replay", file, "--until", "turn 2 fire"], &root()).stdout);
    assert!(narrative.contains("Turn 2"), "{narrative}");
    assert!(!narrative.contains("Turn 3"), "{narrative}");
    let bad = dotc(&["replay", file, "--until", "turn two"], &root());
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("not a turn number"));
}

#[test]
fn a_seed_fills_the_missing_dice_and_the_completed_log_replays_clean() {
    let file = "tests/fixtures/replay/missing-dice.dotc";
    // Without a seed each missing roll is a finding.
    let audit = dotc(&["audit", file], &root());
    assert_eq!(audit.status.code(), Some(1));
    let said = text(&audit.stderr);
    // A long message wraps: read it as one line.
    let flat = said.replace("\n  │ ", " ");
    assert_eq!(flat.matches("but the log records 0").count(), 3, "{said}");
    // Each says what to add (issue 14).
    assert_eq!(flat.matches("add `roll [d]` (1 die)").count(), 2, "{said}");
    assert!(flat.contains("add the cover saves: `saves [d, d, d, d]` (4 dice, one per hit)"), "{said}");
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("completed.dotc");
    let out_arg = out_path.to_str().unwrap();
    let run = dotc(&["replay", file, "--seed", "42", "--write-completed", out_arg], &root());
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let original = std::fs::read_to_string(root().join(file)).unwrap();
    let completed = std::fs::read_to_string(&out_path).unwrap();
    // Only the three lines that lacked dice changed, and each only gained its dice list.
    let changed: Vec<(&str, &str)> =
        original.lines().zip(completed.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 3, "{completed}");
    assert_eq!(original.lines().count(), completed.lines().count());
    for (before, after) in &changed {
        let code = before.split("//").next().unwrap().trim_end();
        assert!(after.starts_with(code), "{after}");
        assert!(after[code.len()..].trim_start().contains('['), "{after}");
    }
    // The same seed gives the same log; the completed log (next to the original, so its scenario
    // path holds) audits clean.
    let again = dir.path().join("again.dotc");
    dotc(&["replay", file, "--seed", "42", "--write-completed", again.to_str().unwrap()], &root());
    assert_eq!(completed, std::fs::read_to_string(&again).unwrap());
    let beside = root().join("tests/fixtures/replay/missing-dice.completed.tmp.dotc");
    std::fs::write(&beside, &completed).unwrap();
    let audited = dotc(&["audit", beside.to_str().unwrap()], &root());
    std::fs::remove_file(&beside).unwrap();
    assert_eq!(audited.status.code(), Some(0), "{}", text(&audited.stderr));
}

#[test]
fn svg_writes_a_map_after_every_turn_and_render_at_draws_that_moment() {
    let file = "scenarios/tutorial/fence-line-game.dotc";
    let dir = tempfile::tempdir().unwrap();
    let out = dotc(&["replay", file, "--svg", dir.path().to_str().unwrap()], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let maps: Vec<String> = (1..=3)
        .map(|t| {
            std::fs::read_to_string(dir.path().join(format!("turn-{t:02}.svg"))).expect("a map per turn")
        })
        .collect();
    assert!(maps[0].contains("End of turn 1"));
    assert!(maps[2].contains("End of turn 3"));
    assert_ne!(maps[0], maps[2], "the table changes between turn 1 and turn 3");
    // `render --at` draws the same moment as the replay's map of that turn.
    let at = dir.path().join("at.svg");
    let render = dotc(&["render", file, "--at", "turn 3", "-o", at.to_str().unwrap()], &root());
    assert_eq!(render.status.code(), Some(0), "{}", text(&render.stderr));
    let drawn = std::fs::read_to_string(&at).unwrap();
    assert!(drawn.contains("End of turn 3"));
    // In turn 3 the 19th Maine lost the melee and was disordered (Ch16 7.4): the map shows the
    // marker (drawn in its red, #d8431f) beside it, which the deployment map does not.
    let deployment = dir.path().join("deployment.svg");
    dotc(&["render", "scenarios/tutorial/fence-line.dotc", "-o", deployment.to_str().unwrap()], &root());
    let deployment = std::fs::read_to_string(&deployment).unwrap();
    let disorder = |svg: &str| svg.matches("#d8431f").count();
    assert!(disorder(&drawn) > disorder(&deployment), "{} vs {}", disorder(&drawn), disorder(&deployment));
}

/// The shapes of wording issue 14 found in what a player reads, each with why it is wrong.
fn unreadable_shapes(narrative: &str) -> Vec<String> {
    let mut found = Vec::new();
    for internal in ["AttackerWins", "DefenderWins", "BloodyDraw"] {
        if narrative.contains(internal) {
            found.push(format!("an internal name: {internal}"));
        }
    }
    for line in narrative.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let next = pair[1].trim_end_matches([',', ')', ':']);
            if pair[0] == "1" && ["hits", "pips", "stands", "6s"].contains(&next) {
                found.push(format!("a plural after 1: {line}"));
            }
            if pair[0] == "by" && pair[1].starts_with('-') {
                found.push(format!("a negative margin: {line}"));
            }
        }
        for three in words.windows(3) {
            if three[0] == "1" && three[1] == "natural" && three[2].starts_with("6s") {
                found.push(format!("a plural after 1: {line}"));
            }
            if three[1] == "needs" && three[0] == three[2].trim_end_matches(',') {
                found.push(format!("a number that needs itself: {line}"));
            }
            if three[0] == "friendly"
                && three[1] == "unit"
                && three[2].starts_with(|c: char| c.is_ascii_digit())
            {
                found.push(format!("a unit by number: {line}"));
            }
        }
    }
    found
}

#[test]
fn wording_the_narratives_of_the_shipped_logs_say_nothing_a_player_cannot_read() {
    // Issue 14: "DefenderWins by -1", "1 hits", "1 natural 6s", "3+ needs 3+", "friendly unit 18".
    let logs = common::shipped_files().into_iter().filter(|p| p.to_string_lossy().ends_with("-game.dotc"));
    let mut read = 0;
    for log in logs {
        // The story and the rules trace alike.
        for extra in [None, Some("--rules")] {
            let mut args = vec!["replay".to_string(), log.to_string_lossy().to_string()];
            args.extend(extra.map(str::to_string));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let narrative = text(&dotc(&args, &root()).stdout);
            assert!(narrative.contains("Turn 1"), "{}: {narrative}", log.display());
            assert_eq!(unreadable_shapes(&narrative), Vec::<String>::new(), "{} {extra:?}", log.display());
        }
        read += 1;
    }
    assert_eq!(read, 11);
    // The shapes themselves are found.
    assert_eq!(
        unreadable_shapes("x: DefenderWins by -1\n1 hits, 1 natural 6s\n3+ needs 3+\nfriendly unit 18").len(),
        6
    );
}

/// Ch13 1.0: a log whose header holds bids says before turn 1 what they decided, and the turns
/// after it still show what the rules made of each action (the pre-game events once held the
/// narrative up, so nothing after them was printed).
#[test]
fn a_log_with_bids_says_what_they_decided_before_turn_1() {
    let (shown, out) = replay("tests/rules/modules/command_bidding-game.dotc");
    assert_eq!(out.status.code(), Some(0), "{shown}");
    let before = shown.find("Before the game").expect("the pre-game section");
    let turn1 = shown.find("Turn 1 (confederate)").expect("turn 1");
    assert!(before < turn1, "{shown}");
    assert!(shown[before..turn1].contains("command bidding: confederate wins initiative"), "{shown}");
    assert!(shown[before..turn1].contains("Herbst Woods"), "{shown}");
    // Turn 1's volley, with what it did under its line.
    assert!(shown[turn1..].contains("Cooper's Battery rolls [4, 5, 5, 3]"), "{shown}");
}
