//! The Surgeon's roll and the hospital, hand-worked from Ch14 2.0, RULINGS G20 and dotc D32-D34.

use super::surgeon::{Field, Outcome, Prisoners, SurgeonTable, outcome, roll};
use super::*;

fn table() -> SurgeonTable {
    SurgeonTable::from_rule_data(dotc_lang::stdlib()).expect("the stdlib has `surgeon roll`")
}

/// Ch14 2.0 as the stdlib states it: 5+ returns, 2-4 hospital, 1 lost, +1 holding the field, a
/// hospitalised stand misses one battle.
#[test]
fn ch14_2_0_the_stdlib_numbers() {
    assert_eq!(table(), SurgeonTable { returns: 5, hospital: 2, field_bonus: 1, misses: 1 });
}

/// Ch14 2.0 without the field (a draw, dotc D31): 1 lost, 2-4 hospital, 5-6 return.
#[test]
fn ch14_2_0_a_stand_without_the_field() {
    let t = table();
    let got: Vec<Outcome> = (1..=6).map(|d| outcome(&t, d, Field::Nobody, Prisoners::Returners)).collect();
    use Outcome::*;
    assert_eq!(got, [Lost, Hospital, Hospital, Hospital, Returns, Returns]);
}

/// Ch14 2.0 with the field: +1, so a 4 returns (4 + 1 = 5), a 3 goes to hospital (4), and by
/// RULINGS G20 a 1 is lifted to 2: hospital, not lost.
#[test]
fn ch14_2_0_a_stand_of_the_side_holding_the_field() {
    let t = table();
    let got: Vec<Outcome> = (1..=6).map(|d| outcome(&t, d, Field::Ours, Prisoners::Returners)).collect();
    use Outcome::*;
    assert_eq!(got, [Hospital, Hospital, Hospital, Returns, Returns, Returns]);
}

/// The 4 is the line between the two: it returns with the field and goes to hospital without.
#[test]
fn ch14_2_0_a_four_returns_only_with_the_field() {
    let t = table();
    assert_eq!(outcome(&t, 4, Field::Ours, Prisoners::None), Outcome::Returns);
    assert_eq!(outcome(&t, 4, Field::Nobody, Prisoners::None), Outcome::Hospital);
    assert_eq!(outcome(&t, 4, Field::Theirs, Prisoners::None), Outcome::Hospital);
}

/// dotc D32, the enemy holding the field: by default (`returners`) a 5 or 6, which would have
/// returned, is captured; 2-4 still go to hospital, a 1 is lost. Under `all` every survivor
/// (2-6) is captured; under `none` the loser rolls as usual.
#[test]
fn ch14_2_0_prisoners_by_dotc_d32() {
    let t = table();
    use Outcome::*;
    let by = |p| (1..=6).map(|d| outcome(&t, d, Field::Theirs, p)).collect::<Vec<_>>();
    assert_eq!(by(Prisoners::Returners), [Lost, Hospital, Hospital, Hospital, Captured, Captured]);
    assert_eq!(by(Prisoners::All), [Lost, Captured, Captured, Captured, Captured, Captured]);
    assert_eq!(by(Prisoners::None), [Lost, Hospital, Hospital, Hospital, Returns, Returns]);
    // Nobody captures when nobody holds the field.
    assert_eq!(outcome(&t, 6, Field::Nobody, Prisoners::All), Returns);
}

/// A unit that lost 4 stands rolls [6, 4, 2, 1]: without the field 1 returns (6), 2 go to
/// hospital (4, 2), 1 is lost (1); with it 2 return (6, 4+1) and 2 go to hospital (2+1, 1+1).
#[test]
fn ch14_2_0_a_units_roll_counted() {
    let t = table();
    let dice = [6, 4, 2, 1];
    let none = roll(&t, &dice, Field::Nobody, Prisoners::Returners);
    assert_eq!((none.returns, none.hospital, none.lost, none.captured), (1, 2, 1, 0));
    let ours = roll(&t, &dice, Field::Ours, Prisoners::Returners);
    assert_eq!((ours.returns, ours.hospital, ours.lost, ours.captured), (2, 2, 0, 0));
    let theirs = roll(&t, &dice, Field::Theirs, Prisoners::Returners);
    assert_eq!((theirs.returns, theirs.hospital, theirs.lost, theirs.captured), (0, 2, 1, 1));
    assert_eq!(theirs.claim_text(), "hospital 2, lost 1, captured 1");
}

fn unit(on_roster: u32) -> UnitRecord {
    UnitRecord {
        name: "5th Texas".to_string(),
        side: "confederate".to_string(),
        kind: "regiment".to_string(),
        on_roster,
        hospital: Vec::new(),
        lost: 0,
        captured: 0,
        awaiting_surgeon: 0,
        xp: 0,
        grade: None,
        traits: Vec::new(),
        joined: 1,
        strength: 5,
        replacements: 0,
        diluted_for: None,
        diluted_grade: None,
    }
}

/// Ch14 2.0, dotc D34: a stand hospitalised after battle 1 misses battle 2 and is back for
/// battle 3. A 5-stand regiment loses 3 in battle 1 and rolls [5, 3, 1] without the field:
/// 1 returns, 1 hospital, 1 lost: 2 + 1 = 3 stands for battle 2, 4 for battle 3.
#[test]
fn ch14_2_0_a_hospitalised_stand_misses_the_next_battle_and_is_back_for_the_one_after() {
    let t = table();
    let mut units = vec![unit(5 - 3)];
    let tally = roll(&t, &[5, 3, 1], Field::Nobody, Prisoners::Returners);
    apply(&mut units[0], 1, &tally, 3, &t);
    assert_eq!(units[0].on_roster, 3);
    assert_eq!(units[0].hospital, [Hospitalised { stands: 1, returns_for: 3 }]);
    assert_eq!(units[0].lost, 1);
    back_from_hospital(&mut units, 2);
    assert_eq!(units[0].on_roster, 3, "still in hospital for battle 2");
    back_from_hospital(&mut units, 3);
    assert_eq!(units[0].on_roster, 4, "back for battle 3");
    assert!(units[0].hospital.is_empty());
}

/// Stands not rolled for (too few dice, reported) stay off the roster: counted lost.
#[test]
fn ch14_2_0_stands_not_rolled_for_stay_off_the_roster() {
    let t = table();
    let mut u = unit(2);
    let tally = roll(&t, &[6], Field::Nobody, Prisoners::Returners);
    apply(&mut u, 1, &tally, 3, &t);
    assert_eq!((u.on_roster, u.lost), (3, 2));
}

/// Ch14 1.0, 2.0, 5.0 and dotc D34: the roster as each battle of tests/campaign/road.dotc began,
/// hand-worked from its `after` blocks. The 19th Maine (5 stands) lost one in battle 1 to
/// hospital (back for battle 3) and one in battle 2 to hospital (back for battle 4); the 9th
/// Louisiana (310 men: 4 stands) lost one for good in battle 1, one captured in battle 2, and drafted 2 for
/// battle 3, diluted to Regular for it.
#[test]
fn ch14_the_roster_as_each_battle_began() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/campaign/road.dotc");
    let text = std::fs::read_to_string(&path).expect("road.dotc");
    let analysis = dotc_lang::analyze(&path, &text, &dotc_lang::FsLoader);
    let played = play(&analysis);
    assert_eq!(played.before.len(), 3);
    let unit = |battle: usize, name: &str| {
        played.before[battle - 1].units.iter().find(|u| u.name == name).cloned().expect(name)
    };
    let maine: Vec<u32> = (1..=3).map(|b| unit(b, "19th Maine").on_roster).collect();
    assert_eq!(maine, [5, 4, 4], "battle 2 misses the stand in hospital; battle 3 has it back");
    let louisiana: Vec<u32> = (1..=3).map(|b| unit(b, "9th Louisiana").on_roster).collect();
    assert_eq!(louisiana, [4, 3, 4], "1 lost, then 1 captured and 2 drafted");
    let third = unit(3, "9th Louisiana");
    assert_eq!((third.xp, third.diluted_for, third.diluted_grade.as_deref()), (3, Some(3), Some("regular")));
    assert_eq!(unit(1, "9th Louisiana").xp, 1, "a Regular joins at 1 XP (dotc D37)");
}

/// The language server's play of a campaign stops when its text changes: set, nothing comes
/// back; unset, the same play as [`play`].
#[test]
fn a_cancelled_play_gives_nothing_and_an_uncancelled_one_the_whole_play() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/campaign/road.dotc");
    let text = std::fs::read_to_string(&path).expect("road.dotc");
    let analysis = dotc_lang::analyze(&path, &text, &dotc_lang::FsLoader);
    let stop = std::sync::atomic::AtomicBool::new(true);
    assert!(play_cancellable(&analysis, &stop).is_none());
    let go = std::sync::atomic::AtomicBool::new(false);
    let played = play_cancellable(&analysis, &go).expect("played");
    let whole = play(&analysis);
    assert_eq!((played.state, played.findings, played.before), (whole.state, whole.findings, whole.before));
}
