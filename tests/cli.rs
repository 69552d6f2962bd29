//! The `dotc` commands as a user runs them.

mod common;

use common::{dotc, root, text};

const BROKEN: &str = r#"scenario "Broken" {
    turns 4
    table 24 x 24
    first_side union
    side union {
        edge west
        brigade "A" {
            brigadier "Col. A" reliable at (2, 2)
            regiment "1st A" { stands 4 veteren rifled_musket line at (5, 5) facing east }
        }
    }
}
"#;

#[test]
fn check_is_silent_and_succeeds_on_the_tutorial() {
    let out = dotc(
        &["check", "scenarios/tutorial/fence-line.dotc", "scenarios/tutorial/fence-line-game.dotc"],
        &root(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn check_reports_a_typo_with_a_suggestion_and_exits_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("broken.dotc"), BROKEN).expect("write");
    let out = dotc(&["check", "broken.dotc"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("dotc::unknown-quality"), "{err}");
    assert!(err.contains("unknown quality `veteren`") && err.contains("did you mean `veteran`?"), "{err}");
    assert!(err.contains("broken.dotc:9:"), "{err}");
}

#[test]
fn check_json_gives_lines_columns_and_the_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("broken.dotc"), BROKEN).expect("write");
    let out = dotc(&["check", "--format", "json", "broken.dotc"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let first = &json[0];
    assert_eq!(first["code"], "dotc::unknown-quality");
    assert_eq!(first["primary"]["start"]["line"], 9);
    assert_eq!(first["primary"]["start"]["column"], 41);
    assert_eq!(first["fix"]["replacement"], "veteran");
}

#[test]
fn fmt_write_rewrites_in_place_and_check_then_passes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("messy.dotc");
    std::fs::write(
        &path,
        "library \"x\"   {\n// keep me\n   marker   m \"M\" { summary   \"x\" }   /* and me */\n}\n\n\n",
    )
    .expect("write");
    let out = dotc(&["fmt", "--check", "messy.dotc"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let out = dotc(&["fmt", "--write", "messy.dotc"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        written,
        "library \"x\" {\n    // keep me\n    marker m \"M\" {\n        summary \"x\"\n    }   /* and me */\n}\n"
    );
    assert!(dotc(&["fmt", "--check", "messy.dotc"], dir.path()).status.success());
}

#[test]
fn fmt_refuses_a_file_with_syntax_errors_and_leaves_it_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bad.dotc");
    let source = "scenario \"x\" {\n    turns eight   // oops\n}\n";
    std::fs::write(&path, source).expect("write");
    let out = dotc(&["fmt", "--write", "bad.dotc"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("expected a number, found `eight`"));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), source);
}

#[test]
fn export_resolves_men_into_stands_and_words_into_fields() {
    let out = dotc(&["export", "scenarios/tutorial/fence-line.dotc", "--to", "json"], &root());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["kind"], "scenario");
    let units: Vec<&serde_json::Value> = json["sides"]
        .as_array()
        .expect("sides")
        .iter()
        .flat_map(|s| s["brigades"].as_array().expect("brigades").iter())
        .flat_map(|b| b["units"].as_array().expect("units").iter())
        .collect();
    let from_men = units.iter().find(|u| !u["men"].is_null()).expect("a unit given in men");
    let per = json["men_per_stand"].as_f64().expect("men_per_stand");
    let men = from_men["men"].as_f64().expect("men");
    assert_eq!(from_men["stands"].as_f64(), Some((men / per).round()));
    assert!(units.iter().all(|u| !u["weapon"].is_null()), "every unit has a resolved weapon");
    assert_eq!(json["rulings"]["suppression"], "numbered");
    let yaml = dotc(&["export", "scenarios/tutorial/fence-line.dotc", "--to", "yaml"], &root());
    assert!(yaml.status.success());
    assert!(text(&yaml.stdout).contains("kind: scenario"));
}

#[test]
fn new_scenario_writes_a_skeleton_that_checks_clean() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dotc(&["new", "scenario", "Brandy Station"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = dir.path().join("brandy-station.dotc");
    let written = std::fs::read_to_string(&path).expect("written");
    assert!(written.contains("scenario \"Brandy Station\""));
    let check = dotc(&["check", "brandy-station.dotc"], dir.path());
    assert!(check.status.success(), "{}", text(&check.stderr));
    // It refuses to overwrite.
    let again = dotc(&["new", "scenario", "Brandy Station"], dir.path());
    assert_eq!(again.status.code(), Some(2));
}

#[test]
fn explain_knows_codes_and_rulings() {
    let out = dotc(&["explain", "dotc::unknown-weapon"], &root());
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Ch16 5.2"));
    let out = dotc(&["explain", "C3"], &root());
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("ruling suppression = numbered"));
    assert_eq!(dotc(&["explain", "nonsense"], &root()).status.code(), Some(2));
}

#[test]
fn completions_and_man_page_are_generated() {
    let out = dotc(&["completions", "bash"], &root());
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("dotc"));
    let man = dotc(&["man"], &root());
    assert!(man.status.success());
    assert!(text(&man.stdout).contains(".TH dotc"));
}
