//! `dotc odds --at FILE:LINE` prices a logged volley as the replay saw it (issue 13): for every
//! `fire` line and every assault's `closing_volley` line of every shipped game log, the odds the
//! command prints are those of the plan the replay resolved there (the same dice, to-hit number
//! and modifiers as the replay's volley, RULE-05-2.1, Ch16 5.6, 7.2), and the outcome the log's
//! dice gave is in their support.

mod common;

use std::path::Path;

use dotc_lang::{FsLoader, analyze};
use dotc_runtime::campaign::logged::LoggedBattle;
use dotc_runtime::engine::What;
use dotc_runtime::odds::explain::{outcome_line, volley_lines};
use dotc_runtime::replay::{ReplayOptions, replay};

/// The shipped game logs.
fn shipped_logs() -> Vec<std::path::PathBuf> {
    common::shipped_files()
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p).is_ok_and(|s| s.lines().any(|l| l.trim_start().starts_with("game ")))
        })
        .collect()
}

/// The 1-based lines of a log that hold a `fire` action.
fn fire_lines(source: &str) -> Vec<usize> {
    source
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("fire \""))
        .map(|(i, _)| i + 1)
        .collect()
}

/// The 1-based lines of a log that hold a volley: a `fire` action or a `closing_volley` step.
fn volley_lines_of(source: &str) -> Vec<usize> {
    source
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            l.trim_start().starts_with("fire \"") || l.trim_start().starts_with("closing_volley ")
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn every_fire_line_of_every_shipped_log_is_priced_as_the_replay_played_it() {
    let logs = shipped_logs();
    assert!(logs.len() >= 3, "the tutorial and the two Gettysburg games: {logs:?}");
    let (mut priced, mut campaigns) = (0, 0);
    for path in &logs {
        let source = std::fs::read_to_string(path).expect("readable");
        let lines = volley_lines_of(&source);
        assert!(!lines.is_empty(), "{} has fire lines", path.display());
        let analysis = analyze(path, &source, &FsLoader);
        // A campaign battle's log is fought with the campaign's roster, as `dotc audit` fights it.
        let order = LoggedBattle::of(path, &analysis, &FsLoader, None);
        assert!(order.finding().is_none(), "{}: {:?}", path.display(), order.finding());
        campaigns += usize::from(order.order().is_some());
        let options = ReplayOptions {
            source: Some(&source),
            probe: &lines,
            order_of_battle: order.order(),
            ..ReplayOptions::default()
        };
        let played = replay(&analysis, &options);
        for &line in &lines {
            let name = format!("{}:{line}", path.display());
            let probe =
                played.probes.iter().find(|p| p.line == line).unwrap_or_else(|| panic!("{name}: no volley"));
            // The replay's own volley event for it: on that line, or (a closing volley) on the
            // assault's line above it, between the same two units.
            let plan = &probe.plan;
            let volley = played
                .events
                .iter()
                .filter(|e| e.line <= line)
                .filter_map(|e| match &e.event.what {
                    What::Volley { firer, target, dice, to_hit, modifiers, .. }
                        if *firer == plan.firer_name && *target == plan.target_name =>
                    {
                        Some((*dice, *to_hit, modifiers.clone()))
                    }
                    _ => None,
                })
                .next_back()
                .unwrap_or_else(|| panic!("{name}: the replay has no volley event"));
            assert_eq!(
                (probe.plan.dice, probe.plan.to_hit, probe.plan.modifiers.clone()),
                volley,
                "{name}: the plan and the replay's volley differ"
            );
            assert_eq!(probe.odds.dice, probe.plan.dice);
            // The log's outcome is one the odds allow.
            let (hits, unsaved, lost) = probe.outcome.unwrap_or_else(|| panic!("{name}: not resolved"));
            for (what, dist, k) in [
                ("hits", &probe.odds.hits, hits),
                ("unsaved", &probe.odds.unsaved, unsaved),
                ("stands lost", &probe.odds.stands_lost, lost),
            ] {
                let p = dist.get(k as usize).copied().unwrap_or(0.0);
                assert!(p > 0.0, "{name}: the log's {k} {what} has no chance in the odds {dist:?}");
            }
            priced += 1;
            // What `dotc odds --at` prints is this plan's odds, word for word: for a campaign
            // battle's log, those of the campaign's roster (the regiments of the roster roll
            // other dice than the scenario's, and their health counts from other stands).
            let out = common::dotc(&["odds", "--at", &name], &common::root());
            assert!(out.status.success(), "{name}: {}", common::text(&out.stderr));
            let mut expected = format!("{name}\n");
            for l in volley_lines(&probe.plan, &probe.odds) {
                expected.push_str(&format!("  {l}\n"));
            }
            expected.push_str(&format!("  {}\n", outcome_line(&probe.odds, (hits, unsaved, lost))));
            assert_eq!(common::text(&out.stdout), expected, "{name}");
        }
    }
    assert!(priced >= 26, "only {priced} volleys priced (25 fire lines and a closing volley)");
    assert!(campaigns >= 5, "the four July 1 campaign logs and Barlow's Knoll: {campaigns}");
}

#[test]
fn odds_at_a_line_without_a_volley_says_what_the_line_holds() {
    let log = Path::new("scenarios/tutorial/fence-line-game.dotc");
    let out = common::dotc(&["odds", "--at", &format!("{}:1", log.display())], &common::root());
    assert_eq!(out.status.code(), Some(2), "{}", common::text(&out.stderr));
    let err = common::text(&out.stderr);
    assert!(err.contains("line 1 of scenarios/tutorial/fence-line-game.dotc holds no volley"), "{err}");
    let out = common::dotc(&["odds", "--at", "scenarios/tutorial/fence-line-game.dotc:x"], &common::root());
    assert!(common::text(&out.stderr).contains("--at wants FILE:LINE"), "{}", common::text(&out.stderr));
    let out =
        common::dotc(&["odds", "--at", "scenarios/tutorial/fence-line-game.dotc:100000"], &common::root());
    assert!(common::text(&out.stderr).contains("there is no line 100000"), "{}", common::text(&out.stderr));
}

#[test]
fn odds_at_json_gives_the_plan_and_the_outcome() {
    let source =
        std::fs::read_to_string(common::root().join("scenarios/tutorial/fence-line-game.dotc")).unwrap();
    let line = fire_lines(&source)[0];
    let at = format!("scenarios/tutorial/fence-line-game.dotc:{line}");
    let out = common::dotc(&["odds", "--at", &at, "--format", "json"], &common::root());
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["line"], line);
    let hits: Vec<f64> = serde_json::from_value(json["odds"]["hits"].clone()).unwrap();
    assert!((hits.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let k = json["outcome"]["hits"].as_u64().expect("the log's hits") as usize;
    assert!(hits[k] > 0.0);
}

/// `dotc odds --at` on an `assault` line prices the whole assault as the replay planned it
/// (Ch16 7.1-7.4): for every assault of every shipped log, the odds sum to 1, the closing
/// volley's plan is the replay's own volley, the ending the log's dice gave has a chance, and
/// the command prints these odds word for word.
#[test]
fn every_assault_line_of_every_shipped_log_is_priced_as_the_replay_played_it() {
    use dotc_runtime::odds::explain::{assault_lines, assault_outcome_line};
    let mut priced = 0;
    for path in &shipped_logs() {
        let source = std::fs::read_to_string(path).expect("readable");
        let lines: Vec<usize> = source
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("assault \""))
            .map(|(i, _)| i + 1)
            .collect();
        let analysis = analyze(path, &source, &FsLoader);
        // As `dotc odds --at` prices it: a campaign battle's log with the campaign's roster.
        let order = LoggedBattle::of(path, &analysis, &FsLoader, None);
        let options = ReplayOptions {
            source: Some(&source),
            probe: &lines,
            order_of_battle: order.order(),
            ..ReplayOptions::default()
        };
        let played = replay(&analysis, &options);
        for &line in &lines {
            let name = format!("{}:{line}", path.display());
            let probe = played
                .assault_probes
                .iter()
                .find(|p| p.line == line)
                .unwrap_or_else(|| panic!("{name}: no assault"));
            let odds = probe.odds.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            let total = odds.p_destroyed
                + odds.p_stalled
                + odds.p_routed
                + odds.p_overrun
                + odds.p_attacker_wins
                + odds.p_draw
                + odds.p_defender_wins;
            assert!((total - 1.0).abs() < 1e-9, "{name}: the endings sum to {total}");
            if let Some(plan) = &probe.volley {
                let volley = played
                    .events
                    .iter()
                    .filter(|e| e.line >= line)
                    .find_map(|e| match &e.event.what {
                        What::Volley { firer, target, dice, to_hit, modifiers, .. }
                            if *firer == plan.firer_name && *target == plan.target_name =>
                        {
                            Some((*dice, *to_hit, modifiers.clone()))
                        }
                        _ => None,
                    })
                    .unwrap_or_else(|| panic!("{name}: the replay has no closing volley event"));
                assert_eq!((plan.dice, plan.to_hit, plan.modifiers.clone()), volley, "{name}");
            }
            let result = probe.result.unwrap_or_else(|| panic!("{name}: not resolved"));
            use dotc_runtime::engine::assault::AssaultResult;
            use dotc_runtime::engine::events::MeleeOutcome;
            let p = match result {
                AssaultResult::Destroyed => odds.p_destroyed,
                AssaultResult::Stalled => odds.p_stalled,
                AssaultResult::Routed => odds.p_routed,
                AssaultResult::Overrun => odds.p_overrun,
                AssaultResult::Melee(MeleeOutcome::AttackerWins) => odds.p_attacker_wins,
                AssaultResult::Melee(MeleeOutcome::BloodyDraw) => odds.p_draw,
                AssaultResult::Melee(MeleeOutcome::DefenderWins) => odds.p_defender_wins,
            };
            assert!(p > 0.0, "{name}: the log's ending {result:?} has no chance in the odds");
            let line_of_result = assault_outcome_line(odds, result);
            let out = common::dotc(&["odds", "--at", &name], &common::root());
            assert!(out.status.success(), "{name}: {}", common::text(&out.stderr));
            let mut expected = format!("{name}\n");
            let volley = probe.volley.as_ref().zip(odds.closing_volley.as_ref());
            for l in assault_lines(&probe.charger, &probe.target, odds, volley) {
                expected.push_str(&format!("  {l}\n"));
            }
            expected.push_str(&format!("  {line_of_result}\n"));
            assert_eq!(common::text(&out.stdout), expected, "{name}");
            priced += 1;
        }
    }
    assert!(priced >= 1, "the tutorial's assault");
}
