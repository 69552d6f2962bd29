//! The replay of the tutorial game, through an in-memory loader.

use std::path::Path;

use super::*;

const GAME: &str = include_str!("../../../scenarios/tutorial/fence-line-game.dotc");
const SCENARIO: &str = include_str!("../../../scenarios/tutorial/fence-line.dotc");

struct Tutorial;

impl dotc_lang::Loader for Tutorial {
    fn load(&self, path: &Path) -> Result<String, String> {
        if path.ends_with("fence-line.dotc") { Ok(SCENARIO.to_string()) } else { Err("not found".into()) }
    }
}

fn tutorial(game: &str) -> Replay {
    let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), game, &Tutorial);
    replay(&analysis, &ReplayOptions { source: Some(game), ..ReplayOptions::default() })
}

#[test]
fn replay_of_the_tutorial_is_deterministic() {
    let (a, b) = (tutorial(GAME), tutorial(GAME));
    assert_eq!(a, b);
    assert_eq!(a.narrative(), b.narrative());
    assert!(!a.events.is_empty());
}

#[test]
fn replay_turn_one_volley_of_the_6th_louisiana() {
    // Ch16 5.2-5.4: 4 hits, 2 saved behind the rail fence, 2 unsaved = 1 stand.
    let replay = tutorial(GAME);
    let nj = replay.summary.units.iter().find(|u| u.name == "12th New Jersey").unwrap();
    assert!(nj.stands < nj.starting_stands);
    let line = GAME
        .lines()
        .position(|l| l.contains("fire \"6th Louisiana\" at \"12th New Jersey\" roll [3"))
        .unwrap()
        + 1;
    assert!(replay.events.iter().any(|e| e.line == line
        && matches!(&e.event.what, What::StandsLost { unit, lost: 1, .. } if unit == "12th New Jersey")));
}

#[test]
fn replay_finds_a_wrong_pip_claim() {
    // Ch16 2.1, RULINGS G2: Laforêt (aggressive) rolling a 5 has 3 + 1 = 4 pips, not 2.
    let game = GAME.replace(
        "pips \"Brig. Gen. Émile Laforêt\" roll [5] => 4",
        "pips \"Brig. Gen. Émile Laforêt\" roll [5] => 2",
    );
    let replay = tutorial(&game);
    let found = replay.findings.iter().find(|f| f.message.contains("the rules give 4, the log claims 2"));
    assert!(found.is_some_and(|f| f.rule.contains("Ch16 2.1")), "{:#?}", replay.findings);
}

#[test]
fn every_verb_of_the_language_is_played_by_one_part_of_the_replay() {
    // A verb the language accepts but no part of the replay plays would pass through the audit
    // as "not replayed": every verb of the register is a variant of `Verb`, which the replay
    // dispatches on with exhaustive matches; none is reported as not replayed.
    for spec in dotc_lang::verbs::VERBS.iter().filter(|v| !v.step) {
        assert!(Verb::from_word(spec.verb).is_some(), "`{}` is not a variant of Verb", spec.verb);
    }
    let replay = tutorial(GAME);
    assert!(
        !replay.findings.iter().any(|f| f.message.contains("is not replayed yet")),
        "{:#?}",
        replay.findings
    );
}

#[test]
fn the_unplayed_modules_notice_is_what_the_register_says() {
    // Every module switched on: the game header says exactly what `Module::replayed` says of
    // each that is not played whole, and nothing of the others.
    let names: Vec<&str> = Module::ALL.iter().map(|m| m.name()).collect();
    let rules = format!("    seed 7\n    rules {{ module {} }}\n", names.join(", "));
    let game = GAME.replacen("    seed 7\n", &rules, 1);
    assert_ne!(game, GAME);
    let replay = tutorial(&game);
    let header = replay.findings.iter().filter(|f| f.message.starts_with("module ")).cloned();
    let said: Vec<(String, String)> = header.map(|f| (f.message, f.rule)).collect();
    let expected: Vec<(String, String)> =
        Module::ALL.iter().filter_map(|m| m.replay_notice().map(|n| (n, m.section().to_string()))).collect();
    assert!(!expected.is_empty());
    // Said in the order of the module names.
    let mut expected = expected;
    expected.sort();
    assert_eq!(said, expected);
    let not_played = Module::ALL.iter().filter(|m| m.replayed() == dotc_lang::rulings::Replayed::NotPlayed);
    assert!(not_played.clone().any(|m| *m == Module::CommandBidding));
    assert!(Module::JulySun.replay_notice().is_none());
}

#[test]
fn a_friction_roll_without_its_module_is_refused_citing_ch13() {
    let game = GAME.replace("reserve \"Brig. Gen. Émile Laforêt\"", "friction roll [3]");
    let replay = tutorial(&game);
    let finding = replay.findings.iter().find(|f| f.message.contains("friction")).expect("a finding");
    assert_eq!(finding.level, Level::Error, "{finding:?}");
    assert!(finding.rule.contains("Ch13 3.0"), "{finding:?}");
}

#[test]
fn replay_without_the_source_still_tells_every_event() {
    let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), GAME, &Tutorial);
    let bare = replay(&analysis, &ReplayOptions::default());
    let with = tutorial(GAME);
    let event_lines = |text: &str| text.lines().filter(|l| l.starts_with("      ")).count();
    assert_eq!(event_lines(&bare.narrative()), event_lines(&with.narrative()));
    assert_eq!(bare.events.len(), with.events.len());
}

/// The 1-based line of the `nth` line of a log holding `text` (0 when none does), for the tests of
/// every part of the replay.
pub(super) fn line_holding(game: &str, text: &str, nth: usize) -> usize {
    game.lines().enumerate().filter(|(_, l)| l.contains(text)).nth(nth).map_or(0, |(i, _)| i + 1)
}

/// The findings on a line of the log.
pub(super) fn findings_on_line(game: &str, replay: &Replay, line: usize) -> Vec<super::Finding> {
    let lines = dotc_lang::model::LineIndex::new(game);
    replay.findings.iter().filter(|f| lines.line(f.span.start) == line).cloned().collect()
}

/// A loader that gives every path the one scenario of a test situation.
pub(super) struct Loaded(pub(super) String);

impl dotc_lang::Loader for Loaded {
    fn load(&self, _: &Path) -> Result<String, String> {
        Ok(self.0.clone())
    }
}

/// Replay `turns` on `scenario` (a small situation of the tests), keeping the plan of every
/// volley; the game text is returned too.
pub(super) fn play(scenario: &str, turns: &str) -> (Replay, String) {
    let game = format!("game \"Range\" {{\n    scenario \"range.dotc\"\n}}\n{turns}");
    let analysis = dotc_lang::analyze(Path::new("range-game.dotc"), &game, &Loaded(scenario.to_string()));
    let scenario_problems = analysis.scenario.as_ref().map_or(&[][..], |s| &s.diagnostics[..]);
    assert!(
        !analysis.has_errors() && !scenario_problems.iter().any(|d| d.is_error()),
        "the situation does not check clean: {:#?} {scenario_problems:#?}",
        analysis.diagnostics
    );
    let every_line: Vec<usize> = (1..=game.lines().count()).collect();
    let options = ReplayOptions { source: Some(&game), probe: &every_line, ..ReplayOptions::default() };
    (replay(&analysis, &options), game)
}

/// Errors and warnings: what the audit would report.
pub(super) fn problems(replay: &Replay) -> Vec<&Finding> {
    replay.findings.iter().filter(|f| matches!(f.level, Level::Error | Level::Warning)).collect()
}
