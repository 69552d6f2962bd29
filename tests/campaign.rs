//! Campaign files (Ch14, issue 18): `dotc check`, `dotc audit` and `dotc campaign status` on
//! tests/campaign/road.dotc, a three-battle campaign built from the tutorial whose post-battle
//! sequences were worked by hand (see its comments), and on broken copies of it.

mod common;

use common::{dotc, root, text};

const ROAD: &str = "tests/campaign/road.dotc";

#[test]
fn the_hand_worked_campaign_checks_and_audits_clean() {
    let out = dotc(&["check", ROAD], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = dotc(&["audit", ROAD], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("clean: 0 error(s), 0 warning(s)"), "{}", text(&out.stderr));
}

/// Ch14 2.0: the 50th Georgia's 4 in a drawn battle (nobody holds the field) goes to hospital;
/// the copy claims it returns: one finding at the claim, line 29.
#[test]
fn a_wrong_surgeon_claim_is_a_located_finding_citing_ch14_2_0() {
    let file = "tests/campaign/bad/wrong-surgeon.dotc";
    let out = dotc(&["audit", file, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    let findings = value["files"][0]["findings"].as_array().expect("findings").clone();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["line"], 29);
    assert_eq!(findings[0]["rule"], "Ch14 2.0");
    let message = findings[0]["message"].as_str().unwrap();
    assert!(message.starts_with("the dice give hospital 1"), "{message}");
    assert!(message.ends_with("not returns 1"), "{message}");
}

/// Ch14 2.0: the 9th Louisiana lost a stand in battle 2 and the copy leaves out its Surgeon's
/// line: one finding at the `after` block (line 43) naming the line to add.
#[test]
fn a_missing_surgeon_line_is_a_located_finding_citing_ch14_2_0() {
    let file = "tests/campaign/bad/missing-surgeon.dotc";
    let out = dotc(&["audit", file, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    let findings = value["files"][0]["findings"].as_array().expect("findings").clone();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["line"], 43);
    assert_eq!(findings[0]["rule"], "Ch14 2.0");
    assert!(
        findings[0]["message"].as_str().unwrap().contains("add `surgeon \"9th Louisiana\" roll [_] => ...`"),
        "{findings:#?}"
    );
}

/// Ch14 3.0, dotc D35: the copy claims `held` for the 19th Maine in battle 1, which the replay
/// never saw (the Maine was charged once, while Fresh, and lost the melee): one finding at the
/// feat's word, line 37, naming what the replay saw of the unit.
#[test]
fn xp_for_a_feat_the_replay_did_not_see_is_a_located_finding_citing_ch14_3_0() {
    let file = "tests/campaign/bad/unseen-feat.dotc";
    let out = dotc(&["audit", file], &root());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(said.contains("unseen-feat.dotc:37:37"), "{said}");
    assert!(said.contains("did not see \"19th Maine\" do `held`"), "{said}");
    assert!(said.contains("it held no"), "{said}");
    assert!(said.contains("Ch14 3.0, dotc D35"), "{said}");
    assert!(said.contains("1 error(s)"), "{said}");
}

/// A copy of road.dotc in a scratch folder beside the repository's files, with `edit` applied;
/// the paths of the copy point back into the repository.
fn scratch(edit: impl Fn(String) -> String) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let base = root().join("tests/campaign");
    let source = std::fs::read_to_string(root().join(ROAD)).expect("road.dotc");
    let source = source
        .replace("\"../../scenarios", &format!("\"{}/scenarios", root().display()))
        .replace("\"fence-line-won", &format!("\"{}/fence-line-won", base.display()));
    let path = dir.path().join("campaign.dotc");
    std::fs::write(&path, edit(source)).expect("written");
    (dir, path)
}

/// Ch14 1.0, dotc D31: battle 1 is a draw, so nobody holds the field; `field union` is wrong.
#[test]
fn a_wrong_field_is_a_located_finding_citing_ch14_1_0() {
    let (_dir, path) = scratch(|s| s.replacen("field none", "field union", 1));
    let out = dotc(&["audit", path.to_str().unwrap(), "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    let findings = value["files"][0]["findings"].as_array().expect("findings").clone();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert_eq!(findings[0]["line"], 20);
    assert_eq!(findings[0]["rule"], "Ch14 1.0, dotc D31");
}

/// Too few dice for the stands lost: a finding at the dice (Ch14 2.0).
#[test]
fn too_few_or_too_many_surgeon_dice_are_findings() {
    let (_dir, path) = scratch(|s| s.replacen("roll [5] => returns 1", "roll [5, 6] => returns 2", 1));
    let out = dotc(&["audit", path.to_str().unwrap(), "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    let message = value["files"][0]["findings"][0]["message"].as_str().unwrap().to_string();
    assert!(message.starts_with("too many dice: \"12th New Jersey\" lost 1 stand"), "{message}");
}

/// The language checks: a unit not in the battle's scenario, a step word that is no step, a
/// battle's file that cannot be read, garbage: located errors, never a panic.
#[test]
fn language_checks_of_a_campaign_are_located_errors() {
    let cases: &[(&str, &str, &str)] = &[
        ("surgeon \"12th New Jersey\"", "surgeon \"12th New Jersy\"", "did you mean \"12th New Jersey\"?"),
        ("field none", "feild none", "did you mean `field`?"),
        ("field none", "field rebels", "the battle's scenario has no side `rebels`"),
        ("fence-line-won.dotc\"", "no-such-file.dotc\"", "cannot read the scenario"),
        ("fence-line-won-game.dotc\"", "fence-line-won.dotc\"", "is not a game log"),
        ("=> returns 1\n", "=> returns one\n", "each result of a Surgeon's roll is a word and a count"),
        ("ruling surgeon_prisoners = returners", "ruling surgeon_prisoners = some", "no value"),
        (
            "after {\n            field union",
            "after {\n            surgeon \"19th Maine\" roll [1]\n            field union",
            "step 1",
        ),
    ];
    for (from, to, expected) in cases {
        let (_dir, path) = scratch(|s| s.replacen(from, to, 1));
        let out = dotc(&["check", path.to_str().unwrap()], &root());
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {said}");
        assert!(said.contains(expected), "{to}: expected `{expected}` in {said}");
        assert!(!said.contains("panicked"), "{said}");
    }
    for garbage in [
        "campaign \"x\" {\n  battle {\n}\n",
        "campaign \"x\" {\n battle \"b\" { scenario \"x\" after { } }\n}\n",
        "campaign",
    ] {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let path = dir.path().join("c.dotc");
        std::fs::write(&path, garbage).expect("written");
        for command in ["check", "audit"] {
            let out = dotc(&[command, path.to_str().unwrap()], &root());
            assert_eq!(out.status.code(), Some(1), "{garbage}: {}", text(&out.stderr));
            assert!(!text(&out.stderr).contains("panicked"), "{}", text(&out.stderr));
        }
    }
}

/// The rosters after the last step, worked by hand from the three battles (Ch14 2.0):
/// 12th New Jersey 5 (lost 1, returned on 5; lost 1, returned on 4 + 1);
/// 19th Maine 4 and 1 in hospital for battle 4 (hospital on 3, back for battle 3; 1 + 1 = 2);
/// 9th Louisiana 2 (4 from 310 men at 75; lost on 1; captured on 6, dotc D32);
/// 50th Georgia 4 and 1 in hospital for battle 4 (hospital on 4 without the field, back for 3;
/// hospital on 3); every other unit as its scenario declares it.
#[test]
fn campaign_status_gives_the_hand_worked_roster() {
    let out = dotc(&["campaign", "status", ROAD], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!("road_status", text(&out.stdout));
    let out = dotc(&["campaign", "status", ROAD, "--format", "json"], &root());
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("status JSON");
    let unit = |name: &str| {
        value["units"].as_array().unwrap().iter().find(|u| u["name"] == name).cloned().expect("the unit")
    };
    assert_eq!(unit("12th New Jersey")["on_roster"], 5);
    assert_eq!(unit("19th Maine")["on_roster"], 4);
    assert_eq!(unit("19th Maine")["hospital"], serde_json::json!([{ "stands": 1, "returns_for": 4 }]));
    assert_eq!(
        (unit("9th Louisiana")["on_roster"].clone(), unit("9th Louisiana")["lost"].clone()),
        (2.into(), 1.into())
    );
    assert_eq!(unit("9th Louisiana")["captured"], 1);
    assert_eq!(unit("50th Georgia")["on_roster"], 4);
    // Ch14 3.0, dotc D37: the 9th Louisiana joins Regular at 1 XP, breaks the 19th Maine with a
    // charge in each battle (+1, +1): 3 XP, Veteran (RULINGS G20), with the Sharpshooters it
    // chose; the 6th Louisiana joins Elite at 4 XP with Iron Discipline; a battery keeps none.
    assert_eq!(unit("9th Louisiana")["xp"], 3);
    assert_eq!(unit("9th Louisiana")["grade"], "veteran");
    assert_eq!(unit("9th Louisiana")["traits"], serde_json::json!(["sharpshooters"]));
    assert_eq!(unit("6th Louisiana")["xp"], 4);
    assert_eq!(unit("6th Louisiana")["traits"], serde_json::json!(["iron_discipline"]));
    assert_eq!(unit("51st Georgia")["xp"], 0);
    assert_eq!(unit("Battery K, 4th U.S.")["xp"], 0);
    assert_eq!(value["battles"][1]["field"], "union");
    assert_eq!(value["battles"][0]["field"], serde_json::Value::Null);
}

/// Ch14 3.0, dotc D36, D37: the experience step's checks against the replay and the track, each
/// a located error: more than 2 XP in one battle, XP past 4, a battery given XP, a trait chosen
/// below Veteran, and a unit whose feats earn XP with no experience line.
#[test]
fn experience_checks_are_located_findings_citing_ch14_3_0() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "charged => xp 2, veteran",
            "charged => xp 4, veteran",
            "at most 2 XP a battle: \"9th Louisiana\" had 1, so 3 at most, not 4",
        ),
        ("charged => xp 3, veteran", "charged => xp 5", "the experience track ends at 4 XP, not 5"),
        (
            "trait \"9th Louisiana\" sharpshooters\n",
            "trait \"9th Louisiana\" sharpshooters\n            experience \"Battery K, 4th U.S.\" => xp 1\n",
            "is a battery: only regiments and cavalry battalions keep an experience track",
        ),
        (
            "trait \"9th Louisiana\" sharpshooters\n",
            "trait \"9th Louisiana\" sharpshooters\n            trait \"12th New Jersey\" steady\n",
            "only a veteran or better regiment chooses an Army Trait",
        ),
        ("trait \"9th Louisiana\" sharpshooters\n", "trait \"9th Louisiana\" steady\n", ""),
        (
            "            experience \"9th Louisiana\" charged => xp 3, veteran\n",
            "",
            "add `experience \"9th Louisiana\" charged => xp 3`",
        ),
    ];
    for (from, to, expected) in cases {
        let (_dir, path) = scratch(|s| s.replacen(from, to, 1));
        let out = dotc(&["audit", path.to_str().unwrap(), "--format", "json"], &root());
        if expected.is_empty() {
            assert_eq!(out.status.code(), Some(0), "{to}: {}", text(&out.stdout));
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{to}: {}", text(&out.stderr));
        let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
        let findings = value["files"][0]["findings"].as_array().expect("findings").clone();
        assert_eq!(findings.len(), 1, "{to}: {findings:#?}");
        let message = findings[0]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{to}: expected `{expected}` in {message}");
        assert!(findings[0]["rule"].as_str().unwrap().starts_with("Ch14 3.0"), "{findings:#?}");
    }
}
