//! Campaign files (Ch14, issue 18): `dotc check`, `dotc audit` and `dotc campaign status` on
//! tests/campaign/road.dotc, a three-battle campaign built from the tutorial whose post-battle
//! sequences were worked by hand (see its comments), and on broken copies of it.

mod common;

use common::{dotc, root, text};

const ROAD: &str = "tests/campaign/road.dotc";

/// The findings of an audit's JSON but its notes on each battle's order of battle
/// (`dotc::campaign-roster`, Ch14 1.0), which every campaign with a changed roster has.
fn not_notes(value: &serde_json::Value) -> Vec<serde_json::Value> {
    value["files"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] != "dotc::campaign-roster")
        .cloned()
        .collect()
}

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
    let findings = not_notes(&value);
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
    let findings = not_notes(&value);
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
    let findings = not_notes(&value);
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
    let message = not_notes(&value)[0]["message"].as_str().unwrap().to_string();
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
/// 9th Louisiana 4 (4 from 310 men at 75; lost on 1; captured on 6, dotc D32; then the 2 stands
/// of the draft after battle 2, Ch14 5.0: a 3 is 1D3 = 2, and it had room for 2, dotc D41);
/// Hollister aggressive (promoted on 5 after battle 2, Ch14 4.0), Ostrander timid (a 4);
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
        (4.into(), 1.into())
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
        let findings = not_notes(&value);
        assert_eq!(findings.len(), 1, "{to}: {findings:#?}");
        let message = findings[0]["message"].as_str().unwrap();
        assert!(message.contains(expected), "{to}: expected `{expected}` in {message}");
        assert!(findings[0]["rule"].as_str().unwrap().starts_with("Ch14 3.0"), "{findings:#?}");
    }
}

// ------------------------------------------------------------------ staff and replacements
// (Ch14 4.0, 5.0): tests/campaign/staff.dotc, worked by hand in its comments.

const STAFF: &str = "tests/campaign/staff.dotc";

/// A copy of staff.dotc in a scratch folder with `edit` applied; its paths point back into the
/// repository.
fn scratch_staff(edit: impl Fn(String) -> String) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let base = root().join("tests/campaign");
    let source = std::fs::read_to_string(root().join(STAFF)).expect("staff.dotc");
    let source = source.replace("\"staff-ride", &format!("\"{}/staff-ride", base.display()));
    let path = dir.path().join("campaign.dotc");
    std::fs::write(&path, edit(source)).expect("written");
    (dir, path)
}

/// The findings of `dotc audit --format json` on a file, as (line, rule, message).
fn findings(path: &str) -> Vec<(u64, String, String)> {
    let out = dotc(&["audit", path, "--format", "json"], &root());
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("audit JSON");
    not_notes(&value)
        .iter()
        .map(|f| {
            (
                f["line"].as_u64().unwrap_or(0),
                f["rule"].as_str().unwrap_or("").to_string(),
                f["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn the_staff_campaign_checks_and_audits_clean() {
    let out = dotc(&["check", STAFF], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = dotc(&["audit", STAFF], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("clean: 0 error(s), 0 warning(s)"), "{}", text(&out.stderr));
}

/// Ch14 4.0: Yates's officer roll of 4 is 1D3 = 2 battles (RULINGS G2); the copy claims out 3:
/// one finding at the claim, line 33.
#[test]
fn a_wrong_officer_claim_is_a_located_finding_citing_ch14_4_0() {
    let found = findings("tests/campaign/bad/wrong-officer.dotc");
    assert_eq!(found.len(), 1, "{found:#?}");
    let (line, rule, message) = &found[0];
    assert_eq!(*line, 33);
    assert_eq!(rule, "Ch14 4.0, dotc D39");
    assert!(message.starts_with("the die gives out 2"), "{message}");
    assert!(message.ends_with("not out 3"), "{message}");
}

/// The staff campaign's roster, worked by hand: Ames promoted (5 on 5+: timid -> reliable);
/// Yates out for battles 2 and 3 (4 -> 1D3 = 2), back for battle 4, Col. Ide (the scenario's
/// replacement) commanding as timid; Kane killed, a timid successor (3 on 1-3); Vale lightly
/// wounded, reliable still; C4 5 - 1 lost + 1 recruit = 5, not diluted (1 stand).
#[test]
fn campaign_status_shows_the_brigadiers_and_the_draft() {
    let out = dotc(&["campaign", "status", STAFF, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("status JSON");
    let leader = |name: &str| {
        value["leaders"].as_array().unwrap().iter().find(|l| l["name"] == name).cloned().expect("the leader")
    };
    assert_eq!(leader("Brig. Ames")["rating"], "reliable");
    assert_eq!(leader("Brig. Ames")["promoted_after"], serde_json::json!([1]));
    assert_eq!(leader("Col. Yates")["rating"], "reliable");
    assert_eq!(leader("Col. Yates")["back_for"], 4);
    assert_eq!(
        leader("Col. Yates")["commanded_by"],
        serde_json::json!({ "name": "Col. Ide", "rating": "timid" })
    );
    assert_eq!(leader("Col. Kane")["rating"], "timid");
    assert_eq!(leader("Col. Kane")["killed_in"], 1);
    assert_eq!(leader("Col. Vale")["rating"], "reliable");
    assert_eq!(leader("Col. Vale")["back_for"], serde_json::Value::Null);
    let c4 = value["units"].as_array().unwrap().iter().find(|u| u["name"] == "C4").cloned().unwrap();
    assert_eq!((c4["on_roster"].clone(), c4["replacements"].clone()), (5.into(), 1.into()));
    assert_eq!(c4["diluted_for"], serde_json::Value::Null);
    let out = dotc(&["campaign", "status", STAFF], &root());
    let said = text(&out.stdout);
    assert!(said.contains("out until battle 4, Col. Ide commands (timid)"), "{said}");
    assert!(said.contains("killed in battle 1: a new brigadier commands"), "{said}");
}

/// Ch14 4.0 and 5.0: wrong or missing steps, each a located finding naming what the rules give.
#[test]
fn staff_and_draft_steps_against_the_rules_are_findings() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // A 4 is below 5+.
        (
            "roll [5] => promoted",
            "roll [4] => promoted",
            "Ch14 4.0",
            "the die gives not promoted (4 is below 5+), not promoted",
        ),
        // The promotion line left out: at the `after` block, naming the line to add.
        (
            "promotion \"Brig. Ames\" roll [5] => promoted\n",
            "",
            "Ch14 4.0, dotc D38",
            "add `promotion \"Brig. Ames\" roll [_] => ...`",
        ),
        // Vale's side lost: no roll is due.
        (
            "officer \"Col. Kane\"",
            "promotion \"Col. Vale\" roll [6] => promoted\n            officer \"Col. Kane\"",
            "Ch14 4.0, dotc D38",
            "no promotion roll is due for \"Col. Vale\"",
        ),
        // Vale was only lightly wounded: nothing to roll.
        (
            "officer \"Col. Kane\"",
            "officer \"Col. Vale\" roll [6] => out 3\n            officer \"Col. Kane\"",
            "Ch14 4.0, dotc D39",
            "lightly wounded",
        ),
        // Kane's line left out.
        (
            "officer \"Col. Kane\" roll [3] => replaced timid\n",
            "",
            "Ch14 4.0, dotc D39",
            "add `officer \"Col. Kane\" roll [_] => ...`",
        ),
        // A 4 gives a reliable successor.
        (
            "roll [3] => replaced timid",
            "roll [4] => replaced timid",
            "Ch14 4.0, dotc D39",
            "the die gives replaced reliable",
        ),
        // Two dice for one roll.
        (
            "roll [3] => replaced timid",
            "roll [3, 4] => replaced timid",
            "Ch14 4.0",
            "is one d6, but 2 were rolled",
        ),
        // Replacements over the die's total: a 1 is 1 stand, the line hands out 2.
        (
            "\"C4\" 1 => 1 stand",
            "\"C4\" 1 \"C6\" 1 => 1 stand",
            "Ch14 5.0",
            "the draft gives union 1 stand, but the line hands out 2",
        ),
        // Over strength: C4 has room for 1 (a 3 is 2 stands).
        (
            "roll [1] \"C4\" 1 => 1 stand",
            "roll [3] \"C4\" 2 => 2 stands",
            "Ch14 5.0, dotc D41",
            "has room for 1 stand only",
        ),
        // C5 lost nothing: not depleted.
        ("\"C4\" 1 => 1 stand", "\"C5\" 1 => 1 stand", "Ch14 5.0, dotc D41", "\"C5\" is not depleted"),
        // E4 is the other side's.
        (
            "\"C4\" 1 => 1 stand",
            "\"E4\" 1 => 1 stand",
            "Ch14 5.0, dotc D41",
            "\"E4\" is a regiment of confederate, not of union",
        ),
        // A 1 is 1 stand, not 2.
        ("\"C4\" 1 => 1 stand", "\"C4\" 1 => 2 stands", "Ch14 5.0", "the die gives 1 stand"),
        // The stand left unallocated while C4 has room.
        (
            "roll [1] \"C4\" 1 => 1 stand",
            "roll [1] => 1 stand",
            "Ch14 5.0, dotc D41",
            "not handed out while depleted regiments have room (\"C4\" 1, \"C6\" 1)",
        ),
        // One army's draft written, the other's left out (dotc D40).
        (
            "replacements confederate roll [6] => 3 stands\n",
            "",
            "Ch14 5.0, dotc D40",
            "no draft for confederate",
        ),
        // `promotion_objective = unbroken`: Ames's brigade is not Broken, so he is still due.
        ("promotion_objective = side_won", "promotion_objective = unbroken", "", ""),
    ];
    for (from, to, rule, expected) in cases {
        let (_dir, path) = scratch_staff(|s| {
            assert!(s.contains(from), "{from}");
            s.replacen(from, to, 1)
        });
        let found = findings(path.to_str().unwrap());
        if expected.is_empty() {
            assert!(found.is_empty(), "{to}: {found:#?}");
            continue;
        }
        assert_eq!(found.len(), 1, "{to}: {found:#?}");
        assert_eq!(found[0].1, *rule, "{to}: {found:#?}");
        assert!(found[0].2.contains(expected), "{to}: expected `{expected}` in {found:#?}");
    }
}

/// dotc D40, `replacements = every_battle`: the road campaign's battle 1 writes no draft, so
/// each army's is missing there, at its `after` block (line 20 with the ruling added; battle 2
/// writes both).
#[test]
fn every_battle_drafts_are_required_under_dotc_d40s_switch() {
    let (_dir, path) = scratch(|s| {
        s.replacen(
            "ruling surgeon_prisoners = returners",
            "ruling surgeon_prisoners = returners\n        ruling replacements = every_battle",
            1,
        )
    });
    let found = findings(path.to_str().unwrap());
    let rules: Vec<&str> = found.iter().map(|f| f.1.as_str()).collect();
    assert_eq!(rules, ["Ch14 5.0, dotc D40", "Ch14 5.0, dotc D40"], "{found:#?}");
    assert!(found.iter().all(|f| f.0 == 20), "{found:#?}");
}

/// The language checks of the new steps: a brigadier not in the battle, a malformed claim, an
/// allocation without its count: located errors, never a panic.
#[test]
fn language_checks_of_staff_and_draft_steps() {
    let cases: &[(&str, &str, &str)] = &[
        ("promotion \"Brig. Ames\"", "promotion \"Brig. Amos\"", "did you mean \"Brig. Ames\"?"),
        ("=> promoted", "=> promoted 2", "a promotion claims `promoted` or `not promoted`"),
        ("=> out 2", "=> out", "an officer's roll claims `out N`"),
        ("\"C4\" 1 =>", "\"C4\" =>", "each regiment of a draft is followed by its stands"),
        ("\"C4\" 1 =>", "\"C44\" 1 =>", "is no regiment or battery of the battle"),
        ("replacements union", "replacements yankees", "the battle's scenario has no side `yankees`"),
        ("ruling replacements = written", "ruling replacements = sometimes", "no value"),
    ];
    for (from, to, expected) in cases {
        let (_dir, path) = scratch_staff(|s| {
            assert!(s.contains(from), "{from}");
            s.replacen(from, to, 1)
        });
        let out = dotc(&["check", path.to_str().unwrap()], &root());
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {said}");
        assert!(said.contains(expected), "{to}: expected `{expected}` in {said}");
        assert!(!said.contains("panicked"), "{said}");
    }
}

/// A step naming a unit its battle lacks is located and cites the step's own section: the
/// Surgeon's roll Ch14 2.0, experience 3.0, a draft 5.0.
#[test]
fn an_unknown_unit_cites_the_section_of_its_step() {
    let cases: &[(&str, &str, &str)] = &[
        ("surgeon \"9th Louisiana\" roll [1]", "surgeon \"9th Lousiana\" roll [1]", "Ch14 2.0"),
        (
            "experience \"9th Louisiana\" charged => xp 2",
            "experience \"9th Lousiana\" charged => xp 2",
            "Ch14 3.0",
        ),
        ("trait \"9th Louisiana\" sharpshooters", "trait \"9th Lousiana\" sharpshooters", "Ch14 3.0"),
        ("roll [3] \"9th Louisiana\" 2", "roll [3] \"9th Lousiana\" 2", "Ch14 5.0"),
    ];
    for (from, to, rule) in cases {
        let (_dir, path) = scratch(|s| {
            assert!(s.contains(from), "{from}");
            s.replacen(from, to, 1)
        });
        let out = dotc(&["check", path.to_str().unwrap()], &root());
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {said}");
        assert!(said.contains("\"9th Lousiana\" is no regiment or battery of the battle"), "{said}");
        assert!(said.contains("did you mean \"9th Louisiana\"?"), "{said}");
        assert!(said.contains(rule), "{to}: expected {rule} in {said}");
    }
}

/// Ch14 1.0 (dotc D42, D44): each battle of road.dotc is fought with the roster as it began, and
/// `dotc check` and `dotc audit` say what it changed in a note at the battle's `scenario` line,
/// never an error (exit 0). Hand-worked from the `after` blocks: battle 2 misses the 19th Maine's
/// and the 50th Georgia's stands in hospital since battle 1 (5 - 1 = 4 each) and the 9th
/// Louisiana's stand lost for good (4 - 1 = 3), which is Veteran (1 XP + 1 for its charge = 2,
/// dotc D37) with the Sharpshooters it chose. Battle 3: the Maine's battle-1 stand is back and
/// its battle-2 stand is in hospital (4); the Georgians' likewise (4); the 9th Louisiana has
/// 3 - 1 captured + 2 drafted = 4, the scenario's 4, and fights diluted (2 recruits in one
/// draft): Veteran -> Regular; Hollister rolled 5 on 5+ after battle 2: reliable -> aggressive.
#[test]
fn each_battle_notes_the_roster_it_is_fought_with() {
    let out = dotc(&["check", ROAD, "--format", "json"], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("check JSON");
    let notes: Vec<(u64, String, String, String)> = value
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["primary"]["start"]["line"].as_u64().unwrap_or(0),
                d["severity"].as_str().unwrap_or("").to_string(),
                d["rule"].as_str().unwrap_or("").to_string(),
                d["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expected = [
        (
            40,
            "advice".to_string(),
            "Ch14 1.0, 2.0, 3.0, dotc D42, dotc D44".to_string(),
            "battle 2 \"The Fence Line again\" is fought with the roster: \"19th Maine\" 4 stands (the scenario: 5); \"9th Louisiana\" 3 stands (the scenario: 4), veteran (the scenario: regular), adds sharpshooters; \"50th Georgia\" 4 stands (the scenario: 5)".to_string(),
        ),
        (
            73,
            "advice".to_string(),
            "Ch14 1.0, 2.0, 3.0, 4.0, 5.0, dotc D42, dotc D44".to_string(),
            "battle 3 \"Falling Waters\" is fought with the roster: \"19th Maine\" 4 stands (the scenario: 5); \"9th Louisiana\" regular, diluted from veteran (the scenario: regular), adds sharpshooters; \"50th Georgia\" 4 stands (the scenario: 5); Col. Asa Hollister aggressive, promoted (the scenario: reliable)".to_string(),
        ),
    ];
    assert_eq!(notes, expected);
    // The audit gives the same notes, and stays clean.
    let out = dotc(&["audit", ROAD], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("clean: 0 error(s), 0 warning(s)"), "{stderr}");
    assert_eq!(stderr.matches("dotc::campaign-roster").count(), 2, "{stderr}");
    assert!(stderr.contains("fought with the roster"), "{stderr}");
}

/// Ch14 4.0 (dotc D44): staff.dotc's battles 2 and 3 note who commands: Yates is out until
/// battle 4 (officer roll 4: 1D3 = 2), Col. Ide, the scenario's `replacement`, stands in as
/// Timid; Kane's successor rolled 3 (1-3: Timid); Ames promoted (5 on 5+: timid -> reliable);
/// C6 has 5 - 1 captured = 4 stands (C4's stand lost for good is made good by the draft's 1).
#[test]
fn the_staff_campaign_notes_who_commands() {
    let out = dotc(&["check", STAFF], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr).split_whitespace().collect::<Vec<_>>().join(" ");
    let expected = "\"C6\" 4 stands (the scenario: 5); Col. Yates is out (back for battle 4): Col. Ide commands his brigade, timid; Col. Kane was killed in battle 1: his successor commands, timid (the scenario: aggressive); Brig. Ames reliable, promoted (the scenario: timid)";
    let stripped = stderr.replace(" │ ", " ");
    assert_eq!(stripped.matches(expected).count(), 2, "{stderr}");
}

/// Ch14 1.0: a game log whose header names its campaign battle (`campaign "road.dotc" battle
/// "The Fence Line again"`) is audited alone with the campaign's roster as that battle began:
/// tests/campaign/fence-line-won-game.dotc, written for the roster (the 50th Georgia's 4 dice,
/// the 19th Maine's 4), audits clean by itself; without the line it is fought with the
/// scenario's strengths and its volleys by those units are short of dice. A battle the campaign
/// lacks is a located error.
#[test]
fn a_log_naming_its_campaign_battle_is_audited_with_the_roster() {
    let log = "tests/campaign/fence-line-won-game.dotc";
    let out = dotc(&["audit", log], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let text_of = |edit: &dyn Fn(String) -> String| {
        let dir = tempfile::tempdir().expect("a temp dir");
        let base = root().join("tests/campaign");
        for f in ["road.dotc", "fence-line-won.dotc", "fence-line-won-game.dotc"] {
            let text = std::fs::read_to_string(base.join(f)).expect("fixture");
            let text = text.replace("\"../../scenarios/", &format!("\"{}/scenarios/", root().display()));
            let text = if f == "fence-line-won-game.dotc" { edit(text) } else { text };
            std::fs::write(dir.path().join(f), text).expect("write");
        }
        let out = dotc(
            &["audit", dir.path().join("fence-line-won-game.dotc").to_str().unwrap(), "--format", "json"],
            &root(),
        );
        serde_json::from_str::<serde_json::Value>(&text(&out.stdout)).expect("audit JSON")
    };
    let alone = text_of(&|t| t.replace("    campaign \"road.dotc\" battle \"The Fence Line again\"\n", ""));
    let messages: Vec<String> =
        not_notes(&alone).iter().map(|f| f["message"].as_str().unwrap_or("").to_string()).collect();
    assert!(
        messages.iter().any(|m| m.contains("needs 5 to_hit dice, but the log records 4")),
        "{messages:#?}"
    );
    let wrong = text_of(&|t| t.replace("battle \"The Fence Line again\"", "battle \"Antietam\""));
    let findings = not_notes(&wrong);
    assert_eq!(findings[0]["rule"], "Ch14 1.0", "{findings:#?}");
    assert_eq!(findings[0]["message"], "the campaign \"road.dotc\" has no battle \"Antietam\"");
}
