//! A campaign battle's log replayed once, with its roster (Ch14 1.0, issue 19): the battle is
//! decided from the log's header before the replay, and the replay is the one
//! [`LoggedBattle::replay`] makes of the whole analysis.

use super::logged::{LoggedBattle, analyze_and_replay_logged, replays_made};
use crate::replay::{Finding, Level, Replay, ReplayOptions, replay};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The log at `path` (its text `source`) analysed and replayed as `dotc audit` does, and the
/// number of replays it took.
fn logged(path: &Path, source: &str) -> (dotc_lang::Analysis, Option<Replay>, usize) {
    let before = replays_made();
    let options = ReplayOptions { source: Some(source), findings_only: true, ..ReplayOptions::default() };
    let (analysis, replayed) = analyze_and_replay_logged(path, source, &dotc_lang::FsLoader, &options);
    (analysis, replayed, replays_made() - before)
}

/// What the one replay must be: the whole log analysed, its battle looked up from the analysis,
/// replayed with that order of battle.
fn reference(path: &Path, source: &str) -> Replay {
    let analysis = dotc_lang::analyze(path, source, &dotc_lang::FsLoader);
    let options = ReplayOptions { source: Some(source), findings_only: true, ..ReplayOptions::default() };
    LoggedBattle::of(path, &analysis, &dotc_lang::FsLoader, None).replay(&analysis, &options, None)
}

fn errors(replayed: &Replay) -> Vec<&Finding> {
    replayed.findings.iter().filter(|f| f.level == Level::Error).collect()
}

/// Ch14 1.0, dotc D42: every shipped log that names its campaign battle is replayed once, with
/// the roster (its volleys roll the roster's dice, so it replays clean), as the whole analysis
/// would replay it.
#[test]
fn ch14_1_0_a_campaign_battles_log_is_replayed_once_with_its_roster() {
    let logs = [
        "tests/campaign/fence-line-won-game.dotc",
        "scenarios/campaign/barlows-knoll-game.dotc",
        "scenarios/gettysburg-day1/gettysburg-day1-campaign-mcpherson-game.dotc",
        "scenarios/gettysburg-day1/gettysburg-day1-campaign-brickyard-game.dotc",
        "scenarios/gettysburg-day1/gettysburg-day1-campaign-seminary-game.dotc",
        "scenarios/gettysburg-day1/gettysburg-day1-campaign-afternoon-game.dotc",
    ];
    for log in logs {
        let path = root().join(log);
        let source = std::fs::read_to_string(&path).expect("a shipped log");
        let (analysis, replayed, replays) = logged(&path, &source);
        assert!(analysis.document.game.as_ref().is_some_and(|g| g.campaign.is_some()), "{log}");
        assert_eq!(replays, 1, "{log}: replayed {replays} times");
        let replayed = replayed.expect("a clean log is replayed");
        assert!(errors(&replayed).is_empty(), "{log}: {:#?}", errors(&replayed));
        assert_eq!(replayed, reference(&path, &source), "{log}");
    }
}

/// RULE-05-2.1 (a die per stand): the tutorial's battle 2 fought with the scenario's strengths
/// would roll 5 dice for the 50th Georgia, whose log rolls the roster's 4; the one replay is the
/// roster's.
#[test]
fn rule_05_2_1_the_one_replay_fires_the_rosters_stands() {
    let path = root().join("tests/campaign/fence-line-won-game.dotc");
    let source = std::fs::read_to_string(&path).expect("the fixture");
    let analysis = dotc_lang::analyze(&path, &source, &dotc_lang::FsLoader);
    let as_scenario = replay(&analysis, &ReplayOptions::default());
    let five = "needs 5 to_hit dice, but the log records 4";
    assert!(errors(&as_scenario).iter().any(|f| f.message.contains(five)), "{:#?}", errors(&as_scenario));
    let (_, replayed, replays) = logged(&path, &source);
    assert_eq!(replays, 1);
    let replayed = replayed.expect("replayed");
    assert!(!replayed.findings.iter().any(|f| f.message.contains(five)), "{:#?}", replayed.findings);
}

/// A log of no campaign is replayed once, as the replay alone gives it; one with errors is not
/// replayed.
#[test]
fn a_plain_log_is_replayed_once_and_a_broken_one_not_at_all() {
    let path = root().join("scenarios/tutorial/fence-line-game.dotc");
    let source = std::fs::read_to_string(&path).expect("the tutorial's log");
    let (analysis, replayed, replays) = logged(&path, &source);
    assert_eq!(replays, 1);
    let options = ReplayOptions { source: Some(&source), findings_only: true, ..ReplayOptions::default() };
    assert_eq!(replayed.expect("replayed"), replay(&analysis, &options));
    let broken = source.replacen("turn 1 ", "turn one ", 1);
    let (analysis, replayed, replays) = logged(&path, &broken);
    assert!(analysis.has_errors());
    assert_eq!((replayed, replays), (None, 0));
}

/// A header the replay cannot read alone (a `"""` note holding a line that starts `turn`, so
/// the header is cut there): the log is still fought as its analysis says, with the roster,
/// replayed a second time for it; the word `campaign` in a plain log's comment costs nothing.
#[test]
fn ch14_1_0_a_header_cut_by_its_notes_is_still_fought_with_the_roster() {
    let path = root().join("tests/campaign/fence-line-won-game.dotc");
    let source = std::fs::read_to_string(&path).expect("the fixture");
    let cut = source.replacen(
        "    scenario \"fence-line-won.dotc\"",
        "    notes \"\"\"\nturn 1 of the evening\n\"\"\"\n    scenario \"fence-line-won.dotc\"",
        1,
    );
    let (analysis, replayed, replays) = logged(&path, &cut);
    assert!(!analysis.has_errors(), "{:#?}", analysis.diagnostics);
    assert_eq!(replays, 2);
    let replayed = replayed.expect("replayed");
    assert!(errors(&replayed).is_empty(), "{:#?}", errors(&replayed));
    assert_eq!(replayed, reference(&path, &cut));
}

/// A log naming a battle its campaign lacks: fought with the scenario's strengths, the header's
/// error first, in one replay.
#[test]
fn ch14_1_0_an_unknown_battle_is_the_first_finding_of_the_one_replay() {
    let path = root().join("tests/campaign/fence-line-won-game.dotc");
    let source = std::fs::read_to_string(&path).expect("the fixture");
    let wrong = source.replacen("battle \"The Fence Line again\"", "battle \"The Fence Line thrice\"", 1);
    let (_, replayed, replays) = logged(&path, &wrong);
    assert_eq!(replays, 1);
    let replayed = replayed.expect("replayed");
    assert_eq!(
        replayed.findings[0].message,
        "the campaign \"road.dotc\" has no battle \"The Fence Line thrice\""
    );
    assert_eq!(replayed, reference(&path, &wrong));
}
