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
    // Said in the order of the module names (none, while every module is played whole).
    let mut expected = expected;
    expected.sort();
    assert_eq!(said, expected);
    // Issue 17: hidden_deployment (Ch13 4.0), the last module, is played now; a module the
    // replay played only in part would still be announced as the register words it
    // (`Module::notice_of`, tested with the register in lang/src/rulings.rs).
    assert!(Module::HiddenDeployment.replay_notice().is_none());
    assert!(Module::JulySun.replay_notice().is_none());
}

#[test]
fn each_module_switched_on_alone_is_played_or_announced() {
    // Issue 17: no module is skipped in silence. Each module on its own: the game header says
    // what the register says of it (its `replay_notice`, cited to its Ch13 section) when it is
    // not played whole, and no module notice at all when it is.
    for module in Module::ALL {
        let rules = format!("    seed 7\n    rules {{ module {} }}\n", module.name());
        let replay = tutorial(&GAME.replacen("    seed 7\n", &rules, 1));
        let said: Vec<(String, String)> = replay
            .findings
            .iter()
            .filter(|f| f.message.starts_with("module "))
            .map(|f| (f.message.clone(), f.rule.clone()))
            .collect();
        let expected: Vec<(String, String)> =
            module.replay_notice().map(|n| (n, module.section().to_string())).into_iter().collect();
        assert_eq!(said, expected, "module {}", module.name());
    }
}

#[test]
fn a_what_if_switches_modules_on_and_off_over_the_files() {
    // `--module` and `--no-module` (WhatIf::with_modules) reach the rules the replay plays by:
    // a module the log does not name is announced when switched on, and one it names is silent
    // when switched off.
    let what_if = |on: &[&str], off: &[&str]| {
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        crate::rulings::WhatIf::default().with_modules(&owned(on), &owned(off)).expect("known modules")
    };
    let notices = |game: &str, w: &crate::rulings::WhatIf| {
        let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), game, &Tutorial);
        let options = ReplayOptions { source: Some(game), what_if: Some(w), ..ReplayOptions::default() };
        let replay = replay(&analysis, &options);
        replay.findings.iter().filter(|f| f.message.starts_with("module ")).count()
    };
    assert_eq!(notices(GAME, &what_if(&[], &[])), 0);
    assert_eq!(notices(GAME, &what_if(&["hidden_deployment"], &[])), 0, "every module is played");
    // The modules a what-if sets are the ones the replay plays by: a `reveal` (Ch13 4.0) is
    // refused as a module that is off without `--module hidden_deployment`, and refused as a
    // blind that is not there with it; the log's own `module` line is undone by `--no-module`.
    let revealing = GAME.replacen("    maneuver {\n", "    maneuver {\n        reveal \"B9\"\n", 1);
    assert_ne!(revealing, GAME);
    let refusal = |game: &str, w: &crate::rulings::WhatIf| {
        let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), game, &Tutorial);
        let options = ReplayOptions { source: Some(game), what_if: Some(w), ..ReplayOptions::default() };
        let replay = replay(&analysis, &options);
        let finding =
            replay.findings.into_iter().find(|f| f.message.contains("reveal")).expect("the reveal refused");
        assert_eq!((finding.level, finding.rule.as_str()), (Level::Error, "Ch13 4.0"));
        finding.message
    };
    let off = "the `hidden_deployment` module is off: there are no blinds to reveal";
    let missing = "there is no blind \"B9\" on the table to reveal";
    assert_eq!(refusal(&revealing, &what_if(&[], &[])), off);
    assert_eq!(refusal(&revealing, &what_if(&["hidden_deployment"], &[])), missing);
    let with_blinds =
        revealing.replacen("    seed 7\n", "    seed 7\n    rules { module hidden_deployment }\n", 1);
    assert_ne!(with_blinds, revealing);
    assert_eq!(refusal(&with_blinds, &what_if(&[], &[])), missing);
    assert_eq!(refusal(&with_blinds, &what_if(&[], &["hidden_deployment"])), off);
    let both = crate::rulings::WhatIf::default().with_modules(&["low_ammo".into()], &["low_ammo".into()]);
    assert!(both.is_err());
    let typo = crate::rulings::WhatIf::default().with_modules(&["low_amo".into()], &[]);
    assert!(typo.is_err_and(|e| e.contains("did you mean `low_ammo`")));
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

/// An audit's replay keeps only its findings (issue 16): the findings and the summary are the
/// whole replay's, on a clean log and on one with mistakes, and of the events only the last
/// turn's are left.
#[test]
fn a_findings_only_replay_finds_what_the_whole_replay_finds() {
    let wrong = GAME.replacen("hits 2", "hits 3", 1);
    assert_ne!(wrong, GAME, "the tutorial states a volley of 2 hits");
    for game in [GAME, wrong.as_str()] {
        let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), game, &Tutorial);
        let whole = replay(&analysis, &ReplayOptions { source: Some(game), ..ReplayOptions::default() });
        let lean = replay(
            &analysis,
            &ReplayOptions { source: Some(game), findings_only: true, ..ReplayOptions::default() },
        );
        assert_eq!(lean.findings, whole.findings);
        assert_eq!(lean.summary, whole.summary);
        let last = whole.events.last().map(|e| e.turn).unwrap_or_default();
        assert!(last > 1, "the tutorial is played over several turns");
        assert!(!lean.events.is_empty() && lean.events.iter().all(|e| e.turn == last));
        assert!(lean.events.len() < whole.events.len());
        assert!(lean.steps.len() < whole.steps.len());
    }
    let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), &wrong, &Tutorial);
    let findings =
        replay(&analysis, &ReplayOptions { findings_only: true, ..ReplayOptions::default() }).findings;
    assert!(findings.iter().any(|f| f.level == Level::Error), "{findings:?}");
}

/// A set switch stops the replay before its first action and says so; an unset one changes
/// nothing (the language server's cancellation of a stale audit, issue 16).
#[test]
fn a_cancelled_replay_stops_at_once_and_says_so() {
    let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), GAME, &Tutorial);
    let whole = replay(&analysis, &ReplayOptions { source: Some(GAME), ..ReplayOptions::default() });
    assert!(!whole.cancelled);
    assert!(!whole.events.is_empty());
    let unset = std::sync::atomic::AtomicBool::new(false);
    let options = ReplayOptions { source: Some(GAME), cancel: Some(&unset), ..ReplayOptions::default() };
    assert_eq!(replay(&analysis, &options), whole);
    let set = std::sync::atomic::AtomicBool::new(true);
    let stopped = replay(
        &analysis,
        &ReplayOptions { source: Some(GAME), cancel: Some(&set), ..ReplayOptions::default() },
    );
    assert!(stopped.cancelled);
    assert!(stopped.events.is_empty(), "{:?}", stopped.events.first());
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

/// The game with `weather ...` settings of its own, laid over the scenario's (`sky clear`).
fn in_weather(settings: &str) -> Replay {
    // dotc D18: the sky and the heat are in force only with the weather module on.
    let rules =
        format!("    seed 7\n    rules {{\n        module weather\n        weather {settings}\n    }}\n");
    let game = GAME.replacen("    seed 7\n", &rules, 1);
    assert_ne!(game, GAME);
    tutorial(&game)
}

/// The 6th Louisiana's first volley, at 10.5" (medium, 4+; RULE-05-2.1).
fn louisiana_first_volley(replay: &Replay) -> Option<(f64, i32, Vec<String>)> {
    replay.events.iter().find_map(|e| match &e.event.what {
        What::Volley { firer, range, to_hit, modifiers, .. } if firer == "6th Louisiana" => {
            Some((*range, *to_hit, modifiers.iter().map(|m| m.name.clone()).collect()))
        }
        _ => None,
    })
}

#[test]
fn ch13_21_0_a_downpour_spoils_the_first_volley_but_lets_it_see_twelve_inches() {
    // Under a clear sky the clean barrels make the 4+ a 3+ (Ch13 2.0).
    let clear = louisiana_first_volley(&tutorial(GAME)).expect("the volley");
    assert_eq!(clear.1, 3);
    assert!(clear.2.contains(&"clean barrels".to_string()), "{clear:?}");
    // In a downpour the first volley gets no bonus (Ch13 21.0); at 10.5" it is within sight.
    let replay = in_weather("sky downpour");
    let (range, to_hit, modifiers) = louisiana_first_volley(&replay).expect("the volley is fired");
    assert!(range <= 12.0);
    assert_eq!(to_hit, 4, "{modifiers:?}");
    assert!(!modifiers.contains(&"clean barrels".to_string()));
    // The volley was its first all the same: the marker is gone.
    assert!(replay.events.iter().any(|e| matches!(&e.event.what,
        What::MarkerRemoved { unit, .. } if unit == "6th Louisiana")));
    // Every part of a downpour is played now: nothing is said at the header.
    assert!(!replay.findings.iter().any(|f| f.message.starts_with("weather sky")), "{:#?}", replay.findings);
    // Without the weather module the downpour is not in force (dotc D18): the bonus stands, and
    // the header says why.
    let off = tutorial(&GAME.replacen(
        "    seed 7\n",
        "    seed 7\n    rules {\n        weather sky downpour\n    }\n",
        1,
    ));
    assert_eq!(louisiana_first_volley(&off).map(|v| v.1), Some(3));
    assert!(off.findings.iter().any(|f| {
        f.level == Level::Warning
            && f.rule == "Ch13 21.0, dotc D18"
            && f.message
                .starts_with("weather sky downpour is written, but the weather module (Ch13 21.0) is off")
    }));
}

#[test]
fn ch13_21_0_dense_fog_hides_a_target_beyond_six_inches() {
    let replay = in_weather("sky dense_fog");
    assert!(louisiana_first_volley(&replay).is_none(), "no volley through the fog");
    let blocked = replay.findings.iter().find(|f| f.level == Level::Error && f.message.contains("weather"));
    let blocked = blocked.unwrap_or_else(|| panic!("{:#?}", replay.findings));
    assert!(blocked.rule.contains("Ch13 21.0"), "{blocked:#?}");
    // Light fog (18") lets the 10.5" volley through.
    assert!(louisiana_first_volley(&in_weather("sky light_fog")).is_some());
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
    play_with(scenario, turns, |_| {})
}

/// [`play`] with the replay's options changed by `with`.
pub(super) fn play_with(
    scenario: &str,
    turns: &str,
    with: impl FnOnce(&mut ReplayOptions<'_>),
) -> (Replay, String) {
    let game = format!("game \"Range\" {{\n    scenario \"range.dotc\"\n}}\n{turns}");
    let analysis = dotc_lang::analyze(Path::new("range-game.dotc"), &game, &Loaded(scenario.to_string()));
    let scenario_problems = analysis.scenario.as_ref().map_or(&[][..], |s| &s.diagnostics[..]);
    assert!(
        !analysis.has_errors() && !scenario_problems.iter().any(|d| d.is_error()),
        "the situation does not check clean: {:#?} {scenario_problems:#?}",
        analysis.diagnostics
    );
    let every_line: Vec<usize> = (1..=game.lines().count()).collect();
    let mut options = ReplayOptions { source: Some(&game), probe: &every_line, ..ReplayOptions::default() };
    with(&mut options);
    (replay(&analysis, &options), game)
}

/// Errors and warnings: what the audit would report.
pub(super) fn problems(replay: &Replay) -> Vec<&Finding> {
    replay.findings.iter().filter(|f| matches!(f.level, Level::Error | Level::Warning)).collect()
}

/// Issue 16: the ground cover kept per body ([`Kept`], [`Game::ground_cover`]) is the
/// battlefield's answer for a body that moved, lost stands or changed formation, and for one
/// that came back to where it stood: the body is the key, so nothing kept goes stale.
#[test]
fn issue_16_the_ground_cover_kept_per_body_follows_the_body() {
    let source = "scenario \"Test\" {\n    table 48 x 36\n    terrain {\n        light_woods \"Copse\" polygon (0, 0) (20, 0) (20, 20) (0, 20)\n    }\n}\n";
    let scenario = dotc_lang::parse(source).document.scenario.expect("a scenario");
    let bf = crate::battlefield::Battlefield::from_scenario(&scenario, dotc_lang::stdlib());
    let line = |position, facing, stands| {
        Body::new(position, facing, crate::geometry::Layout::new(stands, None, 0.0, 1.0))
    };
    let kept: Kept<Body, std::sync::Arc<[(dotc_lang::library::Cover, String)]>> = Kept::default();
    let ask = |body: &Body| kept.get_or(body, 2, || bf.ground_cover(body).into());
    let inside = line((10.0, 10.0), 0.0, 5);
    let moved_out = Body { position: (30.0, 10.0), ..inside };
    // At the copse's east edge: stands at x = 17..22, three of five in the copse.
    let edge = Body { position: (19.5, 10.0), ..inside };
    // Two left (RULE-05-3.3): x = 18.5..20.5, one in and one half in, which is not in.
    let fewer = edge.with_losses(3);
    let column = Body { layout: crate::geometry::Layout::new(5, Some(2), 0.0, 1.0), ..edge };
    for body in [inside, moved_out, inside, edge, column, fewer, edge, moved_out, inside, fewer] {
        assert_eq!(*ask(&body), *bf.ground_cover(&body), "{body:?}");
    }
    let covered = |body: &Body| !ask(body).is_empty();
    assert!(covered(&inside) && covered(&edge) && covered(&column));
    assert!(!covered(&moved_out) && !covered(&fewer));
}

/// Issue 21: the frames `dotc replay --html` steps through are one at the start, one per action
/// and one per turn's end; their events are every event once, in order; the last holds the
/// summary's units and brigades; and asking for them changes nothing else in the replay.
#[test]
fn frames_cover_every_action_and_event_once_and_change_nothing_else() {
    use frames::FrameKind;
    let analysis = dotc_lang::analyze(Path::new("tutorial/fence-line-game.dotc"), GAME, &Tutorial);
    let plain = replay(&analysis, &ReplayOptions { source: Some(GAME), ..ReplayOptions::default() });
    let framed =
        replay(&analysis, &ReplayOptions { source: Some(GAME), frames: true, ..ReplayOptions::default() });
    assert!(plain.frames.is_empty());
    assert_eq!(Replay { frames: Vec::new(), ..framed.clone() }, plain);
    let frames = &framed.frames;
    let actions: usize = analysis
        .document
        .turns
        .iter()
        .map(|t| t.phases().iter().map(|p| p.actions.len()).sum::<usize>())
        .sum();
    let count = |f: fn(&FrameKind) -> bool| frames.iter().filter(|x| f(&x.kind)).count();
    assert_eq!(count(|k| matches!(k, FrameKind::Start)), 1);
    assert_eq!(count(|k| matches!(k, FrameKind::Action { .. })), actions);
    assert_eq!(count(|k| matches!(k, FrameKind::EndOfTurn { .. })), analysis.document.turns.len());
    let mut next = 0;
    for frame in frames {
        assert_eq!(frame.events.start, next, "{:?}", frame.kind);
        next = frame.events.end;
    }
    assert_eq!(next, framed.events.len());
    let last = frames.last().unwrap();
    assert_eq!(last.roster.units, framed.summary.units);
    assert_eq!(last.roster.brigades, framed.summary.brigades);
    // The 6th Louisiana's first volley: the 12th New Jersey is down to 4 stands, on the
    // roster and on the table, from that frame on.
    let volley = frames
        .iter()
        .position(|f| matches!(&f.kind, FrameKind::Action { text, .. } if text.starts_with("fire \"6th Louisiana\" at \"12th New Jersey\"")))
        .unwrap();
    let stands = |f: &frames::Frame| {
        let unit = f.roster.units.iter().find(|u| u.name == "12th New Jersey").unwrap().stands;
        let body =
            f.table.units.iter().find(|u| u.name == "12th New Jersey").unwrap().body.unwrap().stand_count();
        (unit, body)
    };
    assert_eq!(stands(&frames[volley - 1]), (5, 5));
    assert_eq!(stands(&frames[volley]), (4, 4));
}
