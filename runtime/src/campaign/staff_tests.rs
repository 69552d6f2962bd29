//! Step 4 (Ch14 4.0) and the draft (Ch14 5.0), hand-worked from the rulebook, RULINGS G2 and
//! dotc D38-D41.

use super::replacements::{DraftTable, room, take};
use super::staff::{BattleBrigadier, BattleStaff, Casualty, PromotionObjective, StaffTable};
use super::*;

fn staff() -> StaffTable {
    StaffTable::from_rule_data(dotc_lang::stdlib()).expect("the stdlib has `staff officers`")
}

fn draft() -> DraftTable {
    DraftTable::from_rule_data(dotc_lang::stdlib()).expect("the stdlib has `draft replacements`")
}

/// Ch14 4.0 as the stdlib states it: promoted on 5+, Timid -> Reliable -> Aggressive, out 1D3,
/// a Timid colonel meanwhile; Ch14 5.0: 1D3 stands, 2 dilute Veteran and Elite.
#[test]
fn ch14_4_0_and_5_0_the_stdlib_numbers() {
    let t = staff();
    assert_eq!(t.promotion, 5);
    assert_eq!(t.ladder, ["timid", "reliable", "aggressive"]);
    assert_eq!((t.out, t.stand_in.as_str()), (3, "timid"));
    let d = draft();
    assert_eq!((d.stands, d.dilution), (3, 2));
    assert_eq!(d.dilutes, ["veteran", "elite"]);
}

/// Ch14 4.0: a promotion roll of 5 or 6 promotes, 4 and below do not.
#[test]
fn ch14_4_0_promotion_on_5_and_not_on_4() {
    let t = staff();
    let got: Vec<bool> = (1..=6).map(|d| t.promotes(d)).collect();
    assert_eq!(got, [false, false, false, false, true, true]);
    assert_eq!(t.above("timid"), Some("reliable"));
    assert_eq!(t.above("reliable"), Some("aggressive"));
    // An Aggressive brigadier has no higher tier (dotc D38: no roll is due).
    assert_eq!(t.above("aggressive"), None);
}

/// dotc D39: the battle's leader casualty rows (Ch16 2.4) as Ch14's states: the 4 (a light
/// wound), the 5 (removed, not for good) and the 6 (removed for good).
#[test]
fn dotc_d39_the_battles_results_as_ch14_4_0s() {
    let t = staff();
    assert_eq!(t.casualty("lightly_wounded"), Casualty::Light);
    assert_eq!(t.casualty("severely_wounded"), Casualty::Severe);
    assert_eq!(t.casualty("killed"), Casualty::Killed);
}

/// Ch14 4.0, RULINGS G2: 1D3 battles out, read off the d6: 1-2 one, 3-4 two, 5-6 three.
#[test]
fn ch14_4_0_a_severe_wound_is_1d3_battles_read_off_a_d6() {
    let t = staff();
    let got: Vec<Option<u32>> = (1..=6).map(|d| t.battles_out(d)).collect();
    assert_eq!(got, [Some(1), Some(1), Some(2), Some(2), Some(3), Some(3)]);
    assert_eq!(t.battles_out(7), None);
}

/// Ch14 4.0: a killed brigadier's successor, 1-3 Timid, 4-6 Reliable: 3 is Timid, 4 Reliable.
#[test]
fn ch14_4_0_a_killed_brigadiers_successor_on_3_is_timid_and_on_4_reliable() {
    let t = staff();
    assert_eq!(t.successor(3), Some("timid"));
    assert_eq!(t.successor(4), Some("reliable"));
    assert_eq!(t.successor(1), Some("timid"));
    assert_eq!(t.successor(6), Some("reliable"));
}

/// A reliable-or-other brigadier of the Union with no campaign history yet.
pub(super) fn leader(name: &str, rating: &str) -> LeaderRecord {
    LeaderRecord {
        name: name.to_string(),
        side: "union".to_string(),
        rating: Some(rating.to_string()),
        back_for: None,
        brigade: None,
        commanded_by: None,
        killed_in: None,
        awaiting_officer: None,
        promoted_after: Vec::new(),
        casualties: Vec::new(),
    }
}

/// Ch14 4.0, dotc D34's counting: severely wounded after battle 1 and rolling a 4 (1D3 = 2),
/// a brigadier misses battles 2 and 3 and is back for battle 4. He is absent before battles 2
/// and 3 (the colonel commands) and present before battle 4.
#[test]
fn ch14_4_0_a_severely_wounded_brigadier_misses_1d3_battles() {
    let t = staff();
    let out = t.battles_out(4).unwrap();
    assert_eq!(out, 2);
    let mut leaders = vec![leader("Col. Yates", "reliable")];
    leaders[0].back_for = Some(1 + out as usize + 1);
    leaders[0].commanded_by = Some(StandIn { name: "Col. Ide".into(), rating: "timid".into() });
    let mut units: Vec<UnitRecord> = Vec::new();
    for battle in [2, 3] {
        back_to_command(&mut leaders, &mut units, battle);
        assert_eq!(leaders[0].back_for, Some(4), "out for battle {battle}");
        assert!(leaders[0].commanded_by.is_some(), "the colonel commands in battle {battle}");
    }
    back_to_command(&mut leaders, &mut units, 4);
    assert_eq!(leaders[0].back_for, None, "back for battle 4");
    assert_eq!(leaders[0].commanded_by, None);
    // His rating was never touched: back at full rating.
    assert_eq!(leaders[0].rating.as_deref(), Some("reliable"));
}

fn battle(holder: &str) -> BattleStaff {
    let brigadier = |name: &str, side: &str, brigade: &str| BattleBrigadier {
        name: name.into(),
        side: side.into(),
        brigade: brigade.into(),
        colonel: format!("Col. replacing {name}"),
    };
    BattleStaff {
        brigadiers: vec![
            brigadier("Ames", "confederate", "Ames' Brigade"),
            brigadier("Bold", "confederate", "Bold's Brigade"),
            brigadier("Vale", "union", "Vale's Brigade"),
        ],
        casualties: vec![("Bold".into(), Casualty::Severe)],
        broken: vec!["Ames' Brigade".into()],
        holder: Some(holder.into()),
        absent: Vec::new(),
    }
}

/// dotc D38: who is due a promotion roll: a brigadier of the winning side who came through in
/// command; not the loser's, not one severely wounded, not an Aggressive one, and under
/// `unbroken` not one whose brigade ended Broken.
#[test]
fn dotc_d38_who_is_due_a_promotion_roll() {
    let t = staff();
    let b = battle("confederate");
    assert!(b.promotion_due("Ames", Some("timid"), &t, PromotionObjective::SideWon).is_ok());
    let broken = b.promotion_due("Ames", Some("timid"), &t, PromotionObjective::Unbroken).unwrap_err();
    assert!(broken.contains("Broken"), "{broken}");
    assert!(b.promotion_due("Bold", Some("timid"), &t, PromotionObjective::SideWon).is_err());
    assert!(b.promotion_due("Vale", Some("timid"), &t, PromotionObjective::SideWon).is_err());
    let top = b.promotion_due("Ames", Some("aggressive"), &t, PromotionObjective::SideWon).unwrap_err();
    assert!(top.contains("highest tier"), "{top}");
    assert!(b.promotion_due("Nobody", Some("timid"), &t, PromotionObjective::SideWon).is_err());
}

fn regiment(grade: &str, strength: u32, on_roster: u32) -> UnitRecord {
    UnitRecord {
        name: "19th Maine".to_string(),
        side: "union".to_string(),
        kind: "regiment".to_string(),
        traits: Vec::new(),
        on_roster,
        hospital: Vec::new(),
        lost: strength - on_roster,
        captured: 0,
        awaiting_surgeon: 0,
        xp: 0,
        grade: Some(grade.to_string()),
        joined: 1,
        strength,
        replacements: 0,
        diluted_for: None,
        diluted_grade: None,
    }
}

/// Ch14 5.0, RULINGS G2: 1D3 replacement stands, read off the d6.
#[test]
fn ch14_5_0_a_draft_is_1d3_stands_read_off_a_d6() {
    let d = draft();
    let got: Vec<Option<u32>> = (1..=6).map(|f| d.stands_for(f)).collect();
    assert_eq!(got, [Some(1), Some(1), Some(2), Some(2), Some(3), Some(3)]);
}

/// Ch14 5.0: a Veteran regiment taking 2 stands in the draft after battle 2 fights battle 3 as
/// Regular; taking 1 it keeps its grade. An Elite one drops to Veteran; a Regular one is never
/// diluted.
#[test]
fn ch14_5_0_dilution_after_2_replacement_stands_and_not_after_1() {
    let d = draft();
    let mut two = regiment("veteran", 5, 2);
    take(&mut two, 2, 2, &d);
    assert_eq!((two.on_roster, two.replacements), (4, 2));
    assert_eq!(two.diluted_for, Some(3));
    assert_eq!(two.diluted_grade.as_deref(), Some("regular"));
    let mut one = regiment("veteran", 5, 2);
    take(&mut one, 1, 2, &d);
    assert_eq!((one.on_roster, one.diluted_for), (3, None));
    assert_eq!(d.diluted(Some("elite"), 2).as_deref(), Some("veteran"));
    assert_eq!(d.diluted(Some("regular"), 3), None);
    // The dilution is over after battle 3.
    let mut units = vec![two];
    back_to_command(&mut [], &mut units, 3);
    assert_eq!(units[0].diluted_for, Some(3), "diluted for battle 3");
    back_to_command(&mut [], &mut units, 4);
    assert_eq!(units[0].diluted_for, None, "itself again for battle 4");
}

/// dotc D41: room is the starting strength less the stands on the roster, in hospital and
/// awaiting the Surgeon; a battery takes no recruits.
#[test]
fn dotc_d41_a_regiments_room_for_recruits() {
    let mut u = regiment("regular", 5, 2);
    assert_eq!(room(&u), 3);
    u.hospital.push(Hospitalised { stands: 1, returns_for: 3 });
    assert_eq!(room(&u), 2);
    u.awaiting_surgeon = 1;
    assert_eq!(room(&u), 1);
    u.kind = "battery".into();
    assert_eq!(room(&u), 0);
}
