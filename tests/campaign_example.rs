//! The worked campaign shipped in scenarios/campaign/road-to-gettysburg.dotc (issue 18): three
//! battles from the shipped scenarios (the tutorial, Gettysburg's morning and afternoon of July
//! 1), the first two with their shipped game logs and the third with the first three turns
//! fought with the campaign's roster (scenarios/campaign/barlows-knoll-game.dotc), each with its
//! post-battle sequence (Ch14 1.0-5.0) recorded. It
//! audits clean, its roster is the hand-computed one, and its rolled steps are what `dotc
//! campaign next --seed 1863` rolls.

mod common;

use common::{dotc, root, text};

const EXAMPLE: &str = "scenarios/campaign/road-to-gettysburg.dotc";

#[test]
fn the_worked_campaign_audits_clean_and_nothing_is_due() {
    let out = dotc(&["audit", EXAMPLE], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("clean: 0 error(s), 0 warning(s)"), "{}", text(&out.stderr));
    let out = dotc(&["campaign", "next", EXAMPLE], &root());
    assert!(text(&out.stdout).contains("nothing is due"), "{}", text(&out.stdout));
}

/// Ch14 1.0, dotc D33, D42, D44: the tutorial's 6th and 9th Louisiana are Hays' regiments of the
/// afternoon, and battle 3 fights them as the roster has them; so too Cutler's regiments, which
/// the morning left at full strength (no stand lost for good; the scenario gives their remnants
/// after the historical morning), under Cutler promoted to aggressive after battle 2. The 6th: 5 stands, Elite (4 XP)
/// with Iron Discipline, against the scenario's 218 men at 75 a stand (3) and Veteran. The 9th:
/// 310 men at 75 (4 stands) at the fence line, its one lost stand back on a 6, so 4 against the
/// scenario's 347 men (5); Veteran both ways; it adds the Steady its players chose. `dotc check`
/// says so at the battle's scenario line, as a note (exit 0).
#[test]
fn the_worked_campaign_fights_hays_louisianans_with_the_roster() {
    let out = dotc(&["check", EXAMPLE], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    // The message as one line: the lines joined, the renderer's gutter taken out.
    let said = said.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ");
    assert!(said.contains("battle 3 \"Barlow's Knoll\" is fought with the roster: \"76th New York\" 5 stands (the scenario: 3); \"56th Pennsylvania\" 3 stands (the scenario: 2); \"95th New York\" 3 stands (the scenario: 2); \"84th New York (14th Brooklyn)\" 4 stands (the scenario: 3); \"6th Louisiana\" 5 stands (the scenario: 3), elite (the scenario: veteran), adds iron_discipline; \"9th Louisiana\" 4 stands (the scenario: 5), adds steady; Brig. Gen. Lysander Cutler aggressive, promoted (the scenario: reliable)"), "{said}");
    assert!(said.contains("road-to-gettysburg.dotc:101:18"), "{said}");
}

/// The roster after the three sequences, hand-computed (Ch14 2.0-5.0, dotc D31-D41):
/// - the 19th Maine's stand in hospital after battle 1 (a 2, no field) is back for battle 3: 5;
/// - the Union won the morning and holds its field: its Surgeon adds one. The 8th Illinois
///   Cavalry lost 2 and rolls [5, 2]: 6 returns, 3 to hospital: 5, 1 back for battle 4; the 2nd
///   Wisconsin's [2] is 3: hospital, 3 on the roster; Calef's lost section rolls 4 + 1: back;
/// - the Confederates' stands that would return are captured instead (dotc D32): the 1st
///   Tennessee's 6 (3 and 1 captured); the 42nd Mississippi's [5, 6, 1]: 2 captured, 1 lost, 5
///   left, and the written draft's 1 stand (dotc D41: it has lost stands to fill): 6; the 7th
///   Tennessee's 1: lost for good, 2 left; the 2nd Mississippi's [1, 4]: 1 lost, 1 to hospital:
///   5; the 55th North Carolina's [3, 4]: both to hospital until battle 4, 7 on the roster;
/// - nobody holds the afternoon's field (its first three turns end a draw): the 26th Alabama's
///   2 is hospital until battle 5 (3); the 4th Georgia's 6 returns (5); the 74th Pennsylvania's
///   5 returns (4);
/// - the 9th Louisiana's charge broke the 19th Maine: Regular 1 XP + 1 = 2, Veteran, and the
///   players chose steady (Ch14 3.0, dotc D37); the 55th North Carolina is Green, 0 XP;
/// - Cutler rolled 6 after the Union's morning win: reliable to aggressive (Ch14 4.0); nobody won
///   the afternoon, so Baxter and Paul stay reliable.
#[test]
fn the_worked_campaigns_roster_is_the_hand_computed_one() {
    let out = dotc(&["campaign", "status", EXAMPLE], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!("road_to_gettysburg_status", text(&out.stdout));
    let out = dotc(&["campaign", "status", EXAMPLE, "--format", "json"], &root());
    let value: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("status JSON");
    let unit = |name: &str| {
        let u = value["units"].as_array().unwrap().iter().find(|u| u["name"] == name).cloned();
        u.unwrap_or_else(|| panic!("{name}"))
    };
    let stands = |name: &str| {
        let u = unit(name);
        (
            u["on_roster"].as_u64().unwrap(),
            u["hospital"].clone(),
            u["lost"].as_u64().unwrap(),
            u["captured"].as_u64().unwrap(),
        )
    };
    use serde_json::json;
    assert_eq!(stands("19th Maine"), (5, json!([]), 0, 0));
    assert_eq!(stands("8th Illinois Cavalry"), (5, json!([{ "stands": 1, "returns_for": 4 }]), 0, 0));
    assert_eq!(stands("2nd Wisconsin"), (3, json!([{ "stands": 1, "returns_for": 4 }]), 0, 0));
    assert_eq!(stands("Battery A, 2nd U.S. (Calef)"), (2, json!([]), 0, 0));
    assert_eq!(stands("1st Tennessee (Provisional Army)"), (3, json!([]), 0, 1));
    assert_eq!(stands("42nd Mississippi"), (6, json!([]), 1, 2));
    assert_eq!(unit("42nd Mississippi")["replacements"], 1);
    assert_eq!(stands("7th Tennessee"), (2, json!([]), 1, 0));
    assert_eq!(stands("2nd Mississippi"), (5, json!([{ "stands": 1, "returns_for": 4 }]), 1, 0));
    assert_eq!(stands("55th North Carolina"), (7, json!([{ "stands": 2, "returns_for": 4 }]), 0, 0));
    assert_eq!(stands("26th Alabama"), (3, json!([{ "stands": 1, "returns_for": 5 }]), 0, 0));
    assert_eq!(stands("4th Georgia"), (5, json!([]), 0, 0));
    assert_eq!(stands("74th Pennsylvania"), (4, json!([]), 0, 0));
    assert_eq!(
        (unit("9th Louisiana")["xp"].clone(), unit("9th Louisiana")["grade"].clone()),
        (json!(2), json!("veteran"))
    );
    assert_eq!(unit("9th Louisiana")["traits"], json!(["steady"]));
    assert_eq!(unit("55th North Carolina")["xp"], 0);
    let leader = |name: &str| {
        let l = value["leaders"].as_array().unwrap().iter().find(|l| l["name"] == name).cloned();
        l.unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(leader("Brig. Gen. Lysander Cutler")["rating"], "aggressive");
    assert_eq!(leader("Brig. Gen. Henry Baxter")["rating"], "reliable");
    assert_eq!(leader("Brig. Gen. Gabriel R. Paul")["rating"], "reliable");
    let fields: Vec<&serde_json::Value> =
        value["battles"].as_array().unwrap().iter().map(|b| &b["field"]).collect();
    assert_eq!(fields, [&json!(null), &json!("union"), &json!(null)]);
}

/// Every rolled step of the shipped file is what `campaign next --seed 1863` rolls: with the three
/// `after` blocks taken out, three runs write the same steps back (the trait and the drafts are
/// the players' own lines and are not rolled; battle 3's log, beside the campaign, is named by
/// its full path in the copy).
#[test]
fn the_worked_campaigns_rolls_are_the_seeds() {
    let shipped = std::fs::read_to_string(root().join(EXAMPLE)).unwrap();
    let mut bare = String::new();
    let mut inside = false;
    for line in shipped.lines() {
        if line.trim() == "after {" {
            inside = true;
        }
        if !inside {
            bare.push_str(line);
            bare.push('\n');
        }
        if inside && line.trim() == "}" {
            inside = false;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let base = root().join("scenarios");
    let path = dir.path().join("campaign.dotc");
    let bare = bare.replace("\"../", &format!("\"{}/", base.display())).replace(
        "\"barlows-knoll-game.dotc\"",
        &format!("\"{}/campaign/barlows-knoll-game.dotc\"", base.display()),
    );
    std::fs::write(&path, bare).unwrap();
    for _ in 0..3 {
        let out = dotc(&["campaign", "next", path.to_str().unwrap(), "--seed", "1863", "--write"], &root());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let steps = |source: &str| -> Vec<String> {
        let words = ["field ", "surgeon ", "experience ", "promotion ", "officer "];
        source
            .lines()
            .map(str::trim)
            .filter(|l| words.iter().any(|w| l.starts_with(w)))
            .map(String::from)
            .collect()
    };
    let rolled = std::fs::read_to_string(&path).unwrap();
    assert_eq!(steps(&rolled), steps(&shipped));
    assert!(steps(&shipped).len() >= 18, "{:?}", steps(&shipped));
}
