//! July 1, 1863 as a one-day campaign (issue 19, part 3): the five scenarios of
//! scenarios/gettysburg-day1 linked in the order of the day under `same_day = field` (dotc D49),
//! so that the losses of one fight are missing in the next. The shipped campaign audits clean;
//! the roster carries a regiment's losses from battle to battle of the day with no Surgeon
//! between them; a Surgeon's roll between two battles of one day is refused, and under the
//! default `full` the same link owes it; after the day's last battle the Surgeon rolls for every
//! stand lost that day (the shipped campaign's brickyard, and tests/campaign/switches/same-day.dotc).

mod common;

use std::path::Path;

use common::{dotc, root, text};
use dotc_lang::{FsLoader, analyze};
use dotc_runtime::campaign::{Played, Roster, play};
use dotc_runtime::replay::{ReplayOptions, replay};

const CAMPAIGN: &str = "scenarios/gettysburg-day1/gettysburg-day1-campaign.dotc";
const TWO_BATTLES: &str = "tests/campaign/switches/same-day.dotc";

fn played(file: &str) -> Played {
    let path = root().join(file);
    let source = std::fs::read_to_string(&path).unwrap();
    let analysis = analyze(&path, &source, &FsLoader);
    assert!(!analysis.has_errors(), "{file} has errors");
    play(&analysis)
}

fn stands(roster: &Roster, unit: &str) -> u32 {
    roster.units.iter().find(|u| u.name == unit).unwrap_or_else(|| panic!("{unit} on the roster")).on_roster
}

/// The stands `unit` has at the end of the shipped morning game, replayed on its own (the
/// morning is the campaign's first battle, so it is fought with the scenario's order of battle).
fn after_the_morning(unit: &str) -> (u32, u32) {
    let path = root().join("scenarios/gettysburg-day1/gettysburg-day1-game.dotc");
    let source = std::fs::read_to_string(&path).unwrap();
    let analysis = analyze(&path, &source, &FsLoader);
    let replayed = replay(&analysis, &ReplayOptions::default());
    let u = replayed.summary.units.iter().find(|u| u.name == unit).unwrap();
    (u.starting_stands, u.stands)
}

/// `file` copied into a scratch folder with `edit` made to it and its relative paths pointed
/// back at the scenarios' folder; `dotc audit` of it: exit code and everything it said, the
/// renderer's line breaks and gutter taken out.
fn audit_edited(file: &str, edit: impl Fn(String) -> String) -> (Option<i32>, String) {
    let source = std::fs::read_to_string(root().join(file)).unwrap();
    let folder = root().join(file).parent().unwrap().to_path_buf();
    let source =
        edit(source).replace("\"gettysburg-day1-", &format!("\"{}/gettysburg-day1-", folder.display()));
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join(Path::new(file).file_name().unwrap());
    std::fs::write(&path, source).unwrap();
    let out = dotc(&["audit", path.to_str().unwrap()], &root());
    (out.status.code(), one_line(&format!("{}{}", text(&out.stdout), text(&out.stderr))))
}

fn one_line(said: &str) -> String {
    said.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ")
}

#[test]
fn the_one_day_campaign_checks_and_audits_clean() {
    let out = dotc(&["check", CAMPAIGN], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = dotc(&["audit", CAMPAIGN], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("clean: 0 error(s), 0 warning(s)"), "{}", text(&out.stderr));
    // Its own logs, audited alone, are fought with the campaign's roster (their headers name
    // their campaign battles).
    for log in ["afternoon", "mcpherson"] {
        let log = format!("scenarios/gettysburg-day1/gettysburg-day1-campaign-{log}-game.dotc");
        let out = dotc(&["audit", &log], &root());
        assert_eq!(out.status.code(), Some(0), "{log}: {}", text(&out.stderr));
    }
    // Every battle played has its sequence (`field` alone between battles of the day, the whole
    // day's after the brickyard): nothing is due.
    let out = dotc(&["campaign", "next", CAMPAIGN], &root());
    assert!(text(&out.stdout).contains("nothing is due"), "{}", text(&out.stdout));
}

/// Ch14 1.0, dotc D42, D49: the 2nd Wisconsin and the 8th Illinois Cavalry lose stands in the
/// morning game; with only `field` after the morning, no Surgeon gives any back, so each is on
/// the roster with the stands the morning left it when it next takes the field (the 2nd
/// Wisconsin on McPherson's Ridge in the afternoon, battle 3; the troopers on Seminary Ridge,
/// battle 4), and its order of battle there has those stands; none comes back before the day
/// ends.
#[test]
fn the_roster_carries_the_mornings_losses_to_the_next_battle_of_the_day() {
    let played = played(CAMPAIGN);
    assert_eq!(played.before.len(), 5);
    for (unit, next) in [("2nd Wisconsin", 3), ("8th Illinois Cavalry", 4)] {
        let (started, ended) = after_the_morning(unit);
        assert!(ended < started, "{unit} loses stands in the morning game: {started} -> {ended}");
        assert_eq!(
            stands(&played.before[0], unit),
            started,
            "{unit} starts the morning at its scenario's strength"
        );
        // Battle 2 (north of the town) and every later battle of the day begin with what the
        // morning left.
        for battle in 2..=next {
            assert_eq!(
                stands(&played.before[battle - 1], unit),
                ended,
                "{unit} at the start of battle {battle}"
            );
        }
        let order = played.orders[next - 1].as_ref().expect("the scenario is read");
        let fought = order.units.iter().find(|u| u.name == unit).expect("in the battle's order of battle");
        assert_eq!(fought.stands, ended, "{unit} takes the field in battle {next} with the roster's stands");
        // Nothing came back before the day's end: every later battle of the day begins with no
        // more than the morning left.
        for battle in next..=5 {
            assert!(
                stands(&played.before[battle - 1], unit) <= ended,
                "{unit} at the start of battle {battle}"
            );
        }
    }
}

/// The dice of `unit`'s `surgeon` line in the campaign file (None: it has none).
fn surgeon_dice(source: &str, unit: &str) -> Option<usize> {
    let line = source.lines().find(|l| l.trim_start().starts_with(&format!("surgeon \"{unit}\" roll [")))?;
    let dice = &line[line.find('[')? + 1..line.find(']')?];
    Some(dice.split(',').count())
}

/// dotc D49, Ch14 2.0: the day's one Surgeon, after its last battle (the brickyard), rolls one die
/// for every stand each unit lost in any battle of the day: the 8th Illinois Cavalry's, the 2nd
/// Wisconsin's, 7th Wisconsin's and 24th Michigan's of the morning, McPherson's Ridge and
/// Seminary Ridge together (none of them fights at the brickyard, so what they lost is their
/// strength at the day's start less what they had when the brickyard began); no `surgeon` line
/// stands in the blocks between the day's battles.
#[test]
fn the_days_one_surgeon_rolls_for_every_stand_lost_that_day() {
    let source = std::fs::read_to_string(root().join(CAMPAIGN)).unwrap();
    let played = played(CAMPAIGN);
    for unit in ["8th Illinois Cavalry", "2nd Wisconsin", "7th Wisconsin", "24th Michigan"] {
        let lost = stands(&played.before[0], unit) - stands(&played.before[4], unit);
        assert!(lost > 0, "{unit}");
        assert_eq!(
            surgeon_dice(&source, unit),
            Some(lost as usize),
            "{unit}: one die a stand the day cost it"
        );
        let record = played.state.units.iter().find(|u| u.name == unit).unwrap();
        assert_eq!(record.awaiting_surgeon, 0, "{unit}: the day's Surgeon has rolled");
    }
    let blocks: Vec<&str> = source.split("after {").skip(1).collect();
    assert_eq!(blocks.len(), 5, "every battle has its block");
    for block in &blocks[..4] {
        let steps: Vec<&str> = block
            .lines()
            .map(str::trim)
            .take_while(|l| *l != "}")
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .collect();
        assert_eq!(steps.len(), 1, "only `field` between battles of the day: {steps:?}");
        assert!(steps[0].starts_with("field "), "{steps:?}");
    }
}

/// Ch14 1.0, dotc D42, D49: the Iron Brigade from the morning to McPherson's Ridge (battle 3,
/// its first three turns fought with the roster) to Seminary Ridge (battle 4): what battle 3 cost
/// the 7th Wisconsin and the 24th Michigan is missing at Seminary Ridge, on top of the morning's;
/// Biddle's 121st Pennsylvania, shot away in battle 3, is not on Seminary Ridge's table.
#[test]
fn the_iron_brigade_carries_its_losses_from_the_morning_to_seminary_ridge() {
    let played = played(CAMPAIGN);
    for unit in ["7th Wisconsin", "24th Michigan"] {
        let morning = stands(&played.before[0], unit);
        let (_, after_morning) = after_the_morning(unit);
        let mcpherson = stands(&played.before[2], unit);
        let seminary = stands(&played.before[3], unit);
        assert_eq!(mcpherson, after_morning, "{unit} on McPherson's Ridge in the afternoon");
        assert!(seminary < mcpherson, "{unit} loses stands in battle 3: {mcpherson} -> {seminary}");
        let order = played.orders[3].as_ref().expect("the scenario is read");
        let fought = order.units.iter().find(|u| u.name == unit).expect("on Seminary Ridge");
        assert_eq!(fought.stands, seminary, "{unit} takes Seminary Ridge with the roster's stands");
        assert!(seminary < morning, "{unit}: {morning} -> {seminary}");
    }
    assert_eq!(stands(&played.before[3], "121st Pennsylvania"), 0);
    let order = played.orders[3].as_ref().unwrap();
    assert!(order.units.iter().find(|u| u.name == "121st Pennsylvania").is_none_or(|u| u.stands == 0));
}

/// dotc D49: a Surgeon's roll between two battles of one day (here after the morning, the
/// afternoon following on July 1) is refused under `same_day = field`, naming the day's last
/// battle.
#[test]
fn a_surgeons_roll_between_two_battles_of_one_day_is_an_error() {
    let (code, said) = audit_edited(CAMPAIGN, |s| {
        s.replacen(
            "            field union\n",
            "            field union\n            surgeon \"2nd Wisconsin\" roll [6] => returns 1\n",
            1,
        )
    });
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("battles 1 and 2 are fought on one day (1863-07-01): under `same_day = field` only `field` is written between them; `surgeon` comes after the day's last battle, battle 5, for the whole day"), "{said}");
    assert!(said.contains("dotc D49"), "{said}");
}

/// dotc D49 the other way: under the default `same_day = full` the brickyard's block may name
/// only the brickyard's units (the morning's 2nd Wisconsin is none of them), and without that
/// block the same campaign owes the whole sequence after the morning, the 2nd Wisconsin's
/// Surgeon's roll among it.
#[test]
fn under_full_the_morning_owes_the_surgeon() {
    let full = |s: String| s.replace("ruling same_day = field", "ruling same_day = full");
    let (code, said) = audit_edited(CAMPAIGN, full);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(
            "\"2nd Wisconsin\" is no regiment or battery of the battle \"Coster at the brickyard\""
        ),
        "{said}"
    );
    let (code, said) = audit_edited(CAMPAIGN, |s| {
        let brickyard = s.find("log \"gettysburg-day1-campaign-brickyard-game.dotc\"").unwrap();
        let close = s.rfind("    }\n}").unwrap();
        let cut = format!(
            "{}log \"gettysburg-day1-campaign-brickyard-game.dotc\"\n{}",
            &s[..brickyard],
            &s[close..]
        );
        full(cut)
    });
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("no Surgeon's roll for \"2nd Wisconsin\", which lost 1 stand in the battle"),
        "{said}"
    );
}

/// dotc D49: after the day's last battle (the afternoon, in same-day.dotc) the Surgeon rolls for
/// the stands lost in the morning too: the 2nd Wisconsin, which did not fight in the afternoon,
/// has its line there, one die for its one stand, and without it the audit says it is owed.
#[test]
fn the_days_last_battle_rolls_the_surgeon_for_the_whole_day() {
    let source = std::fs::read_to_string(root().join(TWO_BATTLES)).unwrap();
    let line = "            surgeon \"2nd Wisconsin\" roll [3] => hospital 1\n";
    assert!(source.contains(line), "{TWO_BATTLES} rolls for the 2nd Wisconsin at the day's end");
    let out = dotc(&["audit", TWO_BATTLES], &root());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The stand it sent to hospital misses battle 3 (the next after the day) and is back for 4.
    let played = played(TWO_BATTLES);
    let record = played.state.units.iter().find(|u| u.name == "2nd Wisconsin").unwrap();
    assert_eq!(record.hospital.len(), 1);
    assert_eq!((record.hospital[0].stands, record.hospital[0].returns_for), (1, 4));
    assert_eq!(record.awaiting_surgeon, 0);
    // Without its line, it is owed.
    let dir = root().join("tests/campaign/switches");
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("same-day.dotc");
    let edited =
        source.replacen(line, "", 1).replace("\"../../../", &format!("\"{}/../../../", dir.display()));
    std::fs::write(&path, edited).unwrap();
    let out = dotc(&["audit", path.to_str().unwrap()], &root());
    let said = one_line(&text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("no Surgeon's roll for \"2nd Wisconsin\", which lost 1 stand"), "{said}");
}

/// dotc D49: `dotc campaign next` writes `field` alone after a battle another of its day
/// follows.
#[test]
fn campaign_next_writes_field_alone_between_two_battles_of_one_day() {
    let source = std::fs::read_to_string(root().join(CAMPAIGN)).unwrap();
    let block = "        after {\n            // Ch14 1.0: union won the battle by the scenario's victory conditions (dotc D31).\n            field union\n        }\n";
    assert!(source.contains(block));
    let folder = root().join("scenarios/gettysburg-day1");
    let edited = source
        .replacen(block, "", 1)
        .replace("\"gettysburg-day1-", &format!("\"{}/gettysburg-day1-", folder.display()));
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("day.dotc");
    std::fs::write(&path, edited).unwrap();
    let out = dotc(&["campaign", "next", path.to_str().unwrap(), "--seed", "3"], &root());
    let printed = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("battle 1 \"McPherson's Ridge, the morning\""),
        "{}",
        text(&out.stderr)
    );
    assert!(printed.contains("field union"), "{printed}");
    assert!(!printed.contains("surgeon") && !printed.contains("promotion"), "{printed}");
}
