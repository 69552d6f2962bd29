//! The claims of a log line (`=> hits 4, saved 2, lost 1`) against what the rules give.
//!
//! Each claim item the replay knows is compared; each that differs is a [`Finding`] at the item,
//! citing the rule, worded "the rules give X, the log claims Y". A result the rules give and the
//! claim leaves out (a stand lost, a Disorder, a new micro-hit) is a finding too. An item the
//! replay does not know is a note.

use dotc_lang::ast::{Action, Claim, ClaimItem};

use super::{Follow, Level, Replayer};
use crate::engine::What;
use crate::engine::assault::{AssaultReport, AssaultResult};
use crate::engine::events::{MeleeOutcome, TestKind};
use crate::engine::fire::VolleyReport;

fn words(item: &ClaimItem) -> String {
    item.words.iter().map(|w| w.value.as_str()).collect::<Vec<_>>().join(" ")
}

fn number(item: &ClaimItem) -> Option<f64> {
    item.numbers.first().map(|n| n.value)
}

fn differs(r: &mut Replayer<'_>, item: &ClaimItem, what: &str, rules: String, claimed: String, rule: &str) {
    r.find(
        item.span,
        Level::Error,
        format!("{what}: the rules give {rules}, the log claims {claimed}"),
        rule,
    );
}

fn unknown(r: &mut Replayer<'_>, item: &ClaimItem) {
    r.find(item.span, Level::Note, format!("the claim `{}` is not checked yet", words(item)), "");
}

/// A bare number claim (`pips ... => 4`).
pub(super) fn check_number(r: &mut Replayer<'_>, claim: &Claim, value: f64, what: &str, rule: &str) {
    for item in &claim.items {
        match (item.words.is_empty(), number(item)) {
            (true, Some(n)) if n != value => {
                differs(r, item, what, format!("{value}"), format!("{n}"), rule);
                if n >= 0.0 && n.fract() == 0.0 {
                    // Whole and non-negative: the cast keeps it (saturating above u32::MAX).
                    r.follow.push(Follow::Number { what: what.to_string(), value: n as u32 });
                }
            }
            (true, Some(_)) => {}
            _ => unknown(r, item),
        }
    }
}

/// Saves made in a volley.
fn saved(report: &VolleyReport) -> u32 {
    report.events.iter().map(|e| if let What::Saves { saved, .. } = &e.what { *saved } else { 0 }).sum()
}

/// `hits`, `saved`, `lost`, `micro`, `disordered` against a volley.
pub(super) fn check_volley(
    r: &mut Replayer<'_>,
    claim: &Claim,
    report: &VolleyReport,
    micro_before: u8,
    micro_after: u8,
) {
    // The counts follow from one another: hits, then saves, then stands lost, then the micro-hit
    // left. Only the first count that differs is the log's mistake; the later ones follow from
    // it (a wrong hit count gives a wrong loss), so they are not reported again.
    let mut said_lost = false;
    let mut said_disorder = false;
    let mut said_micro = false;
    let mut counts: Vec<(u8, &ClaimItem, &'static str, u32, f64, &'static str)> = Vec::new();
    for item in &claim.items {
        let n = number(item);
        let key = words(item);
        let (stage, what, value, rule) = match key.as_str() {
            "hits" | "hit" => (0, "hits", report.hits, "RULE-05-2.2, Ch16 5.2"),
            "saved" | "saves" => (1, "saves made", saved(report), "RULE-05-3.2, Ch16 5.4"),
            "lost" | "stands lost" => {
                said_lost = true;
                (2, "stands lost", report.stands_lost, "RULE-05-3.3")
            }
            "micro" | "micro_hit" => {
                said_micro = true;
                (3, "micro-hits left", u32::from(micro_after), "RULE-05-3.3")
            }
            "fresh" | "worn" | "spent" | "shattered" | "removed" => {
                check_health(r, item, &key, &report.events, None, "Ch16 8.1, RULINGS C4");
                continue;
            }
            // RULINGS G12: the target's screen took the volley's first unsaved hit.
            "screen hits" | "screen removed" => {
                check_screen(r, item, &key, &report.events);
                continue;
            }
            // The target took a Disorder marker: from the volley's own results, or from its
            // brigade breaking under the volley (RULE-07-2.4: every unit of it is disordered).
            "disordered" | "disorder" => {
                said_disorder = true;
                if !report.disordered && !report.disorder_placed {
                    differs(
                        r,
                        item,
                        "Disorder",
                        "no Disorder".into(),
                        "disordered".into(),
                        "RULE-05-4.2, Ch16 5.5",
                    );
                }
                continue;
            }
            _ => {
                unknown(r, item);
                continue;
            }
        };
        match n {
            Some(n) => counts.push((stage, item, what, value, n, rule)),
            None => unknown(r, item),
        }
    }
    let first_wrong =
        counts.iter().filter(|(_, _, _, value, n, _)| f64::from(*value) != *n).map(|c| c.0).min();
    for (stage, item, what, value, n, rule) in &counts {
        if f64::from(*value) != *n && Some(*stage) == first_wrong {
            differs(r, item, what, format!("{value}"), format!("{n}"), rule);
        }
    }
    // A count the claim leaves out is judged only if every count before it agreed.
    let agreed_before = |stage: u8| first_wrong.is_none_or(|wrong| wrong >= stage);
    follow_volley(r, claim, report, micro_after);
    let span = claim.span;
    if !said_lost && report.stands_lost > 0 && agreed_before(2) {
        let message = format!("stands lost: the rules give {}, the log claims none", report.stands_lost);
        r.find(span, Level::Error, message, "RULE-05-3.3");
    }
    // RULE-07-3.4: a unit already Disordered takes a micro-hit, not a second Disorder; the claim
    // owes the micro-hit (or the stand it completes), not `disordered`.
    if !said_disorder && report.disorder_placed {
        let message = "Disorder: the rules give disordered, the log claims no Disorder";
        r.find(span, Level::Error, message, "RULE-05-4.2, Ch16 5.5");
    }
    if !said_micro && micro_after > micro_before && agreed_before(3) {
        r.find(span, Level::Error, "micro-hits: the rules give 1, the log claims none", "RULE-05-3.3");
    }
}

/// A claimed health word (`worn`, `spent`, `shattered`, `removed`) against the events: the last
/// change of health of `unit` (or of the volley's target), or its shatter or removal (Ch16 8.1,
/// RULE-05-3.4). A health the unit already had before is not a change the log can claim here.
fn check_health(
    r: &mut Replayer<'_>,
    item: &ClaimItem,
    key: &str,
    events: &[crate::engine::Event],
    unit: Option<&str>,
    rule: &str,
) {
    let target = unit.map(str::to_string).or_else(|| {
        events.iter().find_map(|e| match &e.what {
            What::Volley { target, .. } => Some(target.clone()),
            _ => None,
        })
    });
    let Some(target) = target else { return unknown(r, item) };
    let gone = events.iter().any(|e| match &e.what {
        What::Shattered { unit } | What::Removed { unit, .. } => *unit == target,
        _ => false,
    });
    let changed = events.iter().rev().find_map(|e| match &e.what {
        What::HealthChanged { unit, to, .. } if *unit == target => Some(to.id()),
        _ => None,
    });
    let given = match (gone, changed) {
        (true, _) if key == "removed" => "removed",
        (true, _) => "shattered",
        (false, Some(to)) => to,
        (false, None) => "no change of health",
    };
    if given != key {
        differs(r, item, "health", given.to_string(), key.to_string(), rule);
    }
}

/// Where a volley's claim states a result the rules do not give, the replay goes on from the
/// log's result rather than its own, so one mistake is reported once and not again at every line
/// after it: stands lost, the micro-hit left, a Disorder the log says was placed.
fn follow_volley(r: &mut Replayer<'_>, claim: &Claim, report: &VolleyReport, micro_after: u8) {
    let Some(target) = report.events.iter().find_map(|e| match &e.what {
        What::Volley { target, .. } => Some(target.clone()),
        _ => None,
    }) else {
        return;
    };
    for item in &claim.items {
        let Some(n) = number(item).filter(|n| *n >= 0.0 && n.fract() == 0.0) else {
            if matches!(words(item).as_str(), "disordered" | "disorder")
                && !report.disordered
                && !report.disorder_placed
            {
                r.follow.push(Follow::Disorder { unit: target.clone() });
            }
            continue;
        };
        // A whole, non-negative number that fits: the casts below cannot truncate.
        let n = n.min(f64::from(u32::MAX)) as u32;
        match words(item).as_str() {
            "lost" | "stands lost" if n != report.stands_lost => {
                r.follow.push(Follow::Stands { unit: target.clone(), rules: report.stands_lost, claimed: n })
            }
            "micro" | "micro_hit" if n != u32::from(micro_after) && n <= 1 => {
                r.follow.push(Follow::Micro { unit: target.clone(), micro: n as u8 })
            }
            _ => {}
        }
    }
}

/// `rallied` or `failed` against a rally.
pub(super) fn check_rally(r: &mut Replayer<'_>, claim: &Claim, rallied: bool) {
    for item in &claim.items {
        let claimed = match words(item).as_str() {
            "rallied" | "pass" | "passed" => true,
            "failed" | "fail" | "not rallied" => false,
            _ => {
                unknown(r, item);
                continue;
            }
        };
        if claimed != rallied {
            r.follow.push(Follow::Rally { rallied: claimed });
            let say = |b: bool| if b { "rallied" } else { "not rallied" }.to_string();
            differs(r, item, "rally", say(rallied), say(claimed), "RULE-07-3.3, Ch16 8.3");
        }
    }
}

/// The steps of an assault: `closing_volley => hits N`, `discipline => pass|fail`,
/// `melee => attacker wins|defender wins|bloody draw`, `stall`.
pub(super) fn check_assault(
    r: &mut Replayer<'_>,
    action: &Action,
    report: &AssaultReport,
    charger: &str,
    target: &str,
) {
    for step in &action.steps {
        let Some(claim) = &step.claim else { continue };
        for item in &claim.items {
            let key = words(item);
            match (step.verb.value.as_str(), key.as_str()) {
                ("closing_volley", "hits" | "hit") => {
                    let hits = report.events.iter().find_map(|e| match &e.what {
                        What::Hits { firer, hits, .. } if firer == target => Some(*hits),
                        _ => None,
                    });
                    match (hits, number(item)) {
                        (Some(h), Some(n)) if f64::from(h) != n => differs(
                            r,
                            item,
                            "closing volley hits",
                            format!("{h}"),
                            format!("{n}"),
                            "Ch16 7.2",
                        ),
                        (None, Some(n)) => differs(
                            r,
                            item,
                            "closing volley hits",
                            "no volley".into(),
                            format!("{n}"),
                            "Ch16 7.2",
                        ),
                        _ => {}
                    }
                }
                // One meaning with a `fire` line's `lost`: every stand the volley cost, a
                // shattered regiment's last stand included (RULE-05-3.3, 3.4).
                ("closing_volley", "lost" | "stands lost") => {
                    let lost = report.closing_volley.as_ref().map_or(0, |c| c.stands_lost);
                    if let Some(n) = number(item).filter(|n| *n != f64::from(lost)) {
                        differs(
                            r,
                            item,
                            "stands lost to the closing volley",
                            lost.to_string(),
                            n.to_string(),
                            "Ch16 7.2, RULE-05-3.3",
                        );
                    }
                }
                ("closing_volley", "disordered" | "disorder") => {
                    let disordered = report.events.iter().take_while(|e| !matches!(e.what, What::Melee { .. })).any(
                        |e| matches!(&e.what, What::MarkerPlaced { unit, marker } if unit == charger && marker.eq_ignore_ascii_case("disorder")),
                    );
                    if !disordered {
                        differs(
                            r,
                            item,
                            "Disorder",
                            "no Disorder".into(),
                            "disordered".into(),
                            "Ch16 7.2, RULE-05-4.2",
                        );
                    }
                }
                ("closing_volley", "fresh" | "worn" | "spent" | "shattered" | "removed") => {
                    check_health(r, item, &key, &report.events, Some(charger), "Ch16 8.1, RULE-05-3.4");
                }
                // Each test of the action has its own step and claim, in the order they are rolled
                // (issue 14): the first `discipline` step is the charger's first test (a Shock
                // save, a Spent charger's test under fire, Seen the Elephant, the pre-contact
                // check), the second its second; likewise each `rebel_yell` step.
                ("discipline" | "rebel_yell", "pass" | "passed" | "fail" | "failed") => {
                    let wanted: &[TestKind] = if step.verb.value == "rebel_yell" {
                        &[TestKind::RebelYell]
                    } else {
                        &[
                            TestKind::ShockSave,
                            TestKind::SpentUnderFire,
                            TestKind::SeenTheElephant,
                            TestKind::PreContact,
                        ]
                    };
                    let nth = action
                        .steps
                        .iter()
                        .take_while(|s| !std::ptr::eq(*s, step))
                        .filter(|s| s.verb.value == step.verb.value)
                        .count();
                    let test = report
                        .events
                        .iter()
                        .filter_map(|e| match &e.what {
                            What::Test { test, passed, .. } if wanted.contains(test) => {
                                Some((*test, *passed))
                            }
                            _ => None,
                        })
                        .nth(nth);
                    let claimed = key.starts_with("pass");
                    let say = |b: bool| if b { "pass" } else { "fail" }.to_string();
                    match test {
                        Some((kind, passed)) if passed != claimed => {
                            differs(r, item, kind.label(), say(passed), say(claimed), "Ch16 7.2, RULINGS C7")
                        }
                        None if nth > 0 => differs(
                            r,
                            item,
                            "the check",
                            format!("no test number {} for {charger}", nth + 1),
                            say(claimed),
                            "Ch16 7.2, RULINGS C3, C7",
                        ),
                        None => differs(
                            r,
                            item,
                            "the check",
                            format!("no {} for {charger}", step.verb.value),
                            say(claimed),
                            "Ch16 7.2, RULINGS C3, C7",
                        ),
                        _ => {}
                    }
                }
                // A breakthrough is a melee of its own (Ch16 7.4): its result is claimed the same way.
                ("melee" | "breakthrough", "attacker wins" | "defender wins" | "bloody draw" | "draw") => {
                    let claimed = match key.as_str() {
                        "attacker wins" => MeleeOutcome::AttackerWins,
                        "defender wins" => MeleeOutcome::DefenderWins,
                        _ => MeleeOutcome::BloodyDraw,
                    };
                    let say = |o: MeleeOutcome| match o {
                        MeleeOutcome::AttackerWins => "attacker wins",
                        MeleeOutcome::DefenderWins => "defender wins",
                        MeleeOutcome::BloodyDraw => "bloody draw",
                    };
                    match report.result {
                        AssaultResult::Melee(outcome) if outcome != claimed => differs(
                            r,
                            item,
                            "the melee",
                            say(outcome).into(),
                            say(claimed).into(),
                            "Ch16 7.3, 7.4",
                        ),
                        AssaultResult::Melee(_) => {}
                        other => differs(
                            r,
                            item,
                            "the assault",
                            format!("{other:?} before any melee").to_lowercase(),
                            say(claimed).into(),
                            "Ch16 7.2",
                        ),
                    }
                }
                _ => unknown(r, item),
            }
        }
    }
}

/// `screen hits N` (the screen's hits after the volley) or `screen removed` against the
/// [`What::ScreenHit`] events of a volley (Ch16 3.4, RULINGS G12).
fn check_screen(r: &mut Replayer<'_>, item: &ClaimItem, key: &str, events: &[crate::engine::Event]) {
    const RULE: &str = "Ch16 3.4, RULINGS G12";
    let last = events.iter().rev().find_map(|e| match &e.what {
        What::ScreenHit { hits, removed, .. } => Some((*hits, *removed)),
        _ => None,
    });
    let (hits, removed) = last.unwrap_or((0, false));
    if key == "screen removed" {
        if !removed {
            let given = if last.is_some() {
                format!("{hits} hits on the screen, not removed")
            } else {
                "no hit on the screen".into()
            };
            differs(r, item, "the screen", given, "removed".into(), RULE);
        }
        return;
    }
    match number(item) {
        Some(n) if f64::from(hits) != n && last.is_none() => {
            differs(r, item, "screen hits", "no hit on the screen".into(), n.to_string(), RULE)
        }
        Some(n) if f64::from(hits) != n => {
            differs(r, item, "screen hits", hits.to_string(), n.to_string(), RULE)
        }
        Some(_) => {}
        None => unknown(r, item),
    }
}

/// The claim of a volley at a solitary brigadier (RULE-07-4.5, dotc D3) or at a skirmish screen
/// (RULINGS G12): `hits N`; for the brigadier the casualty row his roll gave (`unhurt`,
/// `lightly wounded`, `severely wounded`, `captured`, `killed`: a row's id or words of its
/// title); for the screen `screen hits N`, `screen removed` and `lost N`. A screen lost that
/// the claim leaves out is a finding.
pub(super) fn check_side_volley(
    r: &mut Replayer<'_>,
    claim: &Claim,
    report: &crate::engine::fire::solitary::SideVolleyReport,
    at_leader: bool,
    row: Option<&dotc_lang::library::LeaderResult>,
) {
    let mut said_lost = false;
    for item in &claim.items {
        let key = words(item);
        match key.as_str() {
            "hits" | "hit" => match number(item) {
                Some(n) if f64::from(report.hits) != n => {
                    differs(r, item, "hits", report.hits.to_string(), n.to_string(), "RULE-05-2.2, Ch16 5.2")
                }
                Some(_) => {}
                None => unknown(r, item),
            },
            "screen hits" | "screen removed" => {
                said_lost |= key == "screen removed";
                check_screen(r, item, &key, &report.events);
            }
            "lost" | "stands lost" => {
                said_lost = true;
                match number(item) {
                    Some(n) if f64::from(report.stands_lost) != n => differs(
                        r,
                        item,
                        "stands lost",
                        report.stands_lost.to_string(),
                        n.to_string(),
                        "Ch16 3.4, RULINGS G12, G5",
                    ),
                    Some(_) => {}
                    None => unknown(r, item),
                }
            }
            said if at_leader => {
                // A brigadier's casualty row, as the `leader` line claims it.
                let said = said.to_lowercase();
                let (given, matches) = match row {
                    Some(row) => {
                        let title = row.meta.title().to_lowercase();
                        let fits = said.replace(' ', "_") == row.meta.id || title.contains(&said);
                        (row.meta.title().to_string(), fits)
                    }
                    None => ("no casualty roll".to_string(), false),
                };
                if !matches {
                    differs(r, item, "the solitary brigadier", given, said, "RULE-07-4.5, Ch16 2.4, dotc D3");
                }
            }
            _ => unknown(r, item),
        }
    }
    if report.stands_lost > 0 && !said_lost {
        let message = "the screen: the rules give removed (a stand lost), the log claims no loss";
        r.find(claim.span, Level::Error, message, "Ch16 3.4, RULINGS G12, G5");
    }
}

/// `evaded` or `captured` against a charge on a solitary brigadier (RULE-07-4.5).
pub(super) fn check_evasion(r: &mut Replayer<'_>, claim: &Claim, captured: bool) {
    let say = |c: bool| if c { "captured" } else { "evaded" }.to_string();
    for item in &claim.items {
        let claimed = match words(item).as_str() {
            "captured" => true,
            "evaded" | "evades" => false,
            _ => {
                unknown(r, item);
                continue;
            }
        };
        if claimed != captured {
            differs(r, item, "the solitary brigadier", say(captured), say(claimed), "RULE-07-4.5");
        }
    }
}
