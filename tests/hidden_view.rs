//! `dotc replay --as SIDE`: the hidden-deployment suite log (Ch13 4.0) as each side saw it;
//! and the blinds in `dotc export`.
//!
//! The log: the union's brigade Ames (the regiment U1, Col. Ames) under the blind B1 and the
//! dummies UD1, UD2; the confederate brigade Doles (R1, Col. Doles) under CB and the dummies
//! CD1, CD2. B1 and CB are revealed on lines 49 and 54 of turn 2, CD1 on line 85 of turn 3; UD1,
//! UD2 and CD2 never are.

mod common;

use common::{dotc, root, text};

const LOG: &str = "tests/rules/modules/hidden_deployment-game.dotc";

/// stdout and stderr of `dotc replay LOG --rules ARGS...` (the trace, which names each action's
/// line), and its exit code.
fn replay(args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = vec!["replay", LOG, "--rules"];
    all.extend_from_slice(args);
    let out = dotc(&all, &root());
    (text(&out.stdout), text(&out.stderr), out.status.code())
}

/// The narrative's lines before the first that contains `mark`, and from it on.
fn split_at<'t>(narrative: &'t str, mark: &str) -> (Vec<&'t str>, Vec<&'t str>) {
    let lines: Vec<&str> = narrative.lines().collect();
    let at =
        lines.iter().position(|l| l.contains(mark)).unwrap_or_else(|| panic!("no `{mark}` in\n{narrative}"));
    (lines[..at].to_vec(), lines[at..].to_vec())
}

/// Whether a line names `name` as a quoted name or a word of its own.
fn names(line: &str, name: &str) -> bool {
    line.contains(&format!("\"{name}\""))
        || line
            .split(|c: char| !(c.is_alphanumeric() || c == '.'))
            .collect::<Vec<_>>()
            .windows(name.split(' ').count())
            .any(|w| w.join(" ") == name)
}

#[test]
fn the_confederates_do_not_see_the_union_brigade_before_b1_is_revealed() {
    let (narrative, _, _) = replay(&["--as", "confederate"]);
    let (before, after) = split_at(&narrative, "line 49: reveal \"B1\"");
    for secret in ["U1", "Ames", "Col. Ames"] {
        let seen: Vec<&&str> = before.iter().filter(|l| names(l, secret)).collect();
        assert!(seen.is_empty(), "{secret} shows before B1's reveal: {seen:?}\n{narrative}");
    }
    // B1 shows as a blind: deployed, moved, unmasked; neither its brigade nor "dummy" is said.
    assert!(before.contains(&"      blind B1 (union) at (20, 10)"), "{narrative}");
    assert!(before.iter().any(|l| l.contains("blind B1 moves 9.0\" to (20, 19)")), "{narrative}");
    // U1's fire from under its blind (lines 37-38) is the union's secret: left out with its
    // finding.
    assert!(!narrative.contains("line 37:") && !narrative.contains("U1 may not fire"), "{narrative}");
    // From the reveal on, the brigade shows as any other.
    assert!(after.iter().any(|l| l.contains("blind B1 is revealed: Ames")), "{narrative}");
    assert!(after.iter().any(|l| l.contains("U1 is placed at (20, 21), revealed from blind B1")));
    assert!(after.iter().any(|l| l.contains("line 78: move \"Col. Ames\" to (20, 18)")));
    // The union's dummies are never revealed: never called dummies.
    let dummies: Vec<&str> = narrative.lines().filter(|l| l.contains("UD") && l.contains("dummy")).collect();
    assert!(dummies.is_empty(), "{dummies:?}");
    // Its own blinds in full.
    assert!(before.contains(&"      blind CB (confederate) at (20, 34): Doles"), "{narrative}");
    assert!(before.contains(&"      blind CD1 (confederate) at (29, 34): a dummy"), "{narrative}");
    // Its own refused `enter "R1"` shows.
    assert!(before.iter().any(|l| l.contains("R1 may not come on")), "{narrative}");
}

/// The story (`dotc replay`'s default) keeps the same secrets: it tells the events a side saw.
#[test]
fn the_story_as_the_confederates_saw_it_keeps_the_union_brigade_hidden_until_b1_is_revealed() {
    let out = dotc(&["replay", LOG, "--as", "confederate"], &root());
    let story = text(&out.stdout);
    assert!(!story.contains("line 49:"), "the story does not quote the log's lines:\n{story}");
    let (before, after) = split_at(&story, "Blind B1 is revealed: Ames");
    for secret in ["U1", "Ames", "Col. Ames"] {
        let seen: Vec<&&str> = before.iter().filter(|l| names(l, secret)).collect();
        assert!(seen.is_empty(), "{secret} shows before B1's reveal: {seen:?}\n{story}");
    }
    assert!(after.iter().any(|l| names(l, "U1")), "{story}");
}

#[test]
fn the_union_does_not_see_the_confederate_brigade_before_cb_is_revealed() {
    let (narrative, _, _) = replay(&["--as", "union", "--summary"]);
    let (before, after) = split_at(&narrative, "line 54: reveal \"CB\"");
    for secret in ["R1", "Doles", "Col. Doles"] {
        let seen: Vec<&&str> = before.iter().filter(|l| names(l, secret)).collect();
        assert!(seen.is_empty(), "{secret} shows before CB's reveal: {seen:?}\n{narrative}");
    }
    assert!(before.contains(&"      blind CB (confederate) at (20, 34)"), "{narrative}");
    assert!(before.iter().any(|l| l.contains("blind CB moves 3.0\" to (20, 31)")), "{narrative}");
    assert!(after.iter().any(|l| l.contains("R1 is placed at (20, 29), revealed from blind CB")));
    assert!(after.iter().any(|l| l.contains("fire \"R1\" at \"U1\"")));
    // CD1 is a dummy, and the union learns it only at its reveal (line 85): it is then removed.
    let (before, after) = split_at(&narrative, "line 85: reveal \"CD1\"");
    let told: Vec<&&str> = before.iter().filter(|l| l.contains("CD1") && l.contains("dummy")).collect();
    assert!(told.is_empty(), "{told:?}");
    assert!(before.contains(&"      blind CD1 (confederate) at (29, 34)"), "{narrative}");
    assert!(after.iter().any(|l| l.contains("blind CD1 is revealed: a dummy, removed from the table")));
    // At the end: CD1 revealed and removed, CD2 still an unknown blind; its own in full.
    assert!(narrative.contains("  blind CD1 (confederate) at (29, 34): a dummy, revealed and removed\n"));
    assert!(narrative.lines().any(|l| l == "  blind CD2 (confederate) at (55, 34)"), "{narrative}");
    assert!(narrative.contains("  blind UD1 (union) at (40, 6): a dummy\n"), "{narrative}");
}

#[test]
fn without_as_the_replay_shows_everything_and_no_view() {
    let (narrative, _, _) = replay(&["--summary"]);
    assert!(!narrative.contains("saw it"), "{narrative}");
    assert!(narrative.contains("line 37:") && narrative.contains("U1 may not fire"), "{narrative}");
    assert!(narrative.contains("R1 may not come on"), "{narrative}");
    assert!(!narrative.contains("Blinds"), "{narrative}");
}

#[test]
fn the_summary_leaves_out_a_brigade_still_under_an_enemy_blind() {
    // At the end of turn 1 both brigades are still hidden.
    let (confederate, _, _) = replay(&["--as", "confederate", "--until", "turn 1", "--summary"]);
    let summary = confederate.split("\nUnits\n").nth(1).expect("a summary");
    assert!(!summary.contains("U1:") && !summary.contains("Ames:"), "{summary}");
    assert!(summary.contains("  R1: 5 of 5 stands") && summary.contains("  Doles: 0 of 5"), "{summary}");
    assert!(summary.contains("  blind B1 (union) at (20, 19)\n"), "{summary}");
    let (union, _, _) = replay(&["--as", "union", "--until", "turn 1", "--summary"]);
    let summary = union.split("\nUnits\n").nth(1).expect("a summary");
    assert!(summary.contains("  U1: 5 of 5 stands") && !summary.contains("R1:"), "{summary}");
    assert!(summary.contains("  blind B1 (union) at (20, 19): Ames\n"), "{summary}");
}

#[test]
fn the_json_view_filters_events_and_summary_but_not_the_findings() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (out, err, _) = replay(args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
    };
    let all = json(&["--format", "json", "--until", "turn 1"]);
    let view = json(&["--format", "json", "--until", "turn 1", "--as", "union"]);
    assert_eq!(view["seen_by"], "union");
    assert!(all.get("seen_by").is_none());
    // The umpire's findings, every one (the refused `enter "R1"` is the confederates' secret).
    assert_eq!(all["findings"], view["findings"]);
    assert!(view["findings"].to_string().contains("R1 may not come on"));
    let names = |v: &serde_json::Value| -> Vec<String> {
        v["summary"]["units"].as_array().unwrap().iter().map(|u| u["name"].to_string()).collect()
    };
    assert_eq!(names(&all), ["\"U1\"", "\"R1\""]);
    assert_eq!(names(&view), ["\"U1\""]);
    let blinds = view["summary"]["blinds"].as_array().expect("the view's blinds");
    assert_eq!(blinds[3]["name"], "CB");
    assert_eq!(blinds[3]["hides"], "unknown");
    assert_eq!(blinds[0]["hides"]["brigade"], "Ames");
    assert!(all["summary"].get("blinds").is_none());
    // YAML too.
    let (yaml, _, _) = replay(&["--format", "yaml", "--until", "turn 1", "--as", "confederate"]);
    assert!(yaml.contains("seen_by: confederate") && yaml.contains("hides: unknown"), "{yaml}");
}

#[test]
fn an_unknown_side_is_an_error_that_lists_the_sides() {
    let (out, err, code) = replay(&["--as", "north"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("no side `north`; its sides are union, confederate"), "{err}");
}

#[test]
fn the_confederate_view_snapshot() {
    let (narrative, _, _) = replay(&["--as", "confederate", "--summary"]);
    insta::assert_snapshot!("hidden_deployment_as_confederate", narrative);
}

/// Ch13 4.0, dotc D27: `dotc export` gives each side's blinds: the brigade under a real one, a
/// dummy's none, the token's centre and its line.
#[test]
fn export_gives_each_side_s_blinds() {
    let out = dotc(&["export", "tests/rules/modules/hidden_deployment.dotc", "--to", "json"], &root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let union = &json["sides"][0]["blinds"];
    assert_eq!(union.as_array().map(Vec::len), Some(3), "{json:#}");
    assert_eq!(union[0]["name"], "B1");
    assert_eq!(union[0]["brigade"], "Ames");
    assert_eq!(union[0]["dummy"], false);
    assert_eq!(union[0]["position"]["x"], 20.0);
    assert_eq!(union[0]["position"]["y"], 10.0);
    assert_eq!(union[1]["name"], "UD1");
    assert!(union[1]["brigade"].is_null() && union[1]["dummy"] == true);
    let confederate = &json["sides"][1]["blinds"];
    assert_eq!(confederate[0]["brigade"], "Doles");
    assert_eq!(confederate[2]["name"], "CD2");
    // A scenario without blinds exports none.
    let tutorial = dotc(&["export", "scenarios/tutorial/fence-line.dotc", "--to", "json"], &root());
    assert!(!text(&tutorial.stdout).contains("\"blinds\""));
}
