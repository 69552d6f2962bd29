//! The claims of a log line (`=> hits 4, saved 2, lost 1`) against what the rules give.
//!
//! Each claim item the replay knows is compared; each that differs is a [`Finding`] at the item,
//! citing the rule, worded "the rules give X, the log claims Y". A result the rules give and the
//! claim leaves out (a stand lost, a Disorder, a new micro-hit) is a finding too. An item the
//! replay does not know is a note.
//!
//! Besides the counts, a volley's claim may state what else its dice gave (issue 14), each
//! checked against what the engine did: `leader RESULT` (the Leader Casualty Table's row, Ch16
//! 2.4, RULINGS C9: `unhurt`, `wounded`, `severely_wounded`, `killed`), `low_ammo` (the firer took
//! the Low Ammunition marker, RULE-05-2.5b, Ch16 11.0, RULINGS C14) and `fell_back` (the target
//! fell back: RULE-07-1.5 and RULINGS C5 after a failed check, Ch13 22.0 and RULINGS G14 for Open
//! Order overrun). A volley's claim that leaves out a result that changes the game (a wound,
//! a marker, a fall back) is a finding, as a left-out Disorder is; an assault's steps are judged
//! only on what they state, as before.

use dotc_lang::ast::{Action, Claim, ClaimItem};

use super::{Follow, Level, Replayer};
use crate::engine::assault::{AssaultReport, AssaultResult};
use crate::engine::events::{MeleeOutcome, TestKind};
use crate::engine::fire::VolleyReport;
use crate::engine::{Event, Rules, What};

pub(super) fn words(item: &ClaimItem) -> String {
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

/// The rule data's names of the results a claim may state, read once from the rules in force.
#[derive(Clone, Debug, Default)]
pub(super) struct Results {
    /// The Leader Casualty Table (Ch16 2.4): each row's id, title and faces, and whether it
    /// changes anything (a close call does not).
    leaders: Vec<LeaderRow>,
    /// The Low Ammunition marker's title, as the engine places it (RULE-05-2.5b).
    low_ammo: String,
}

#[derive(Clone, Debug)]
struct LeaderRow {
    id: String,
    title: String,
    rolls: (u32, u32),
    quiet: bool,
}

impl Results {
    pub(super) fn of(rules: &Rules) -> Results {
        let leaders = rules
            .tables
            .leader_results
            .iter()
            .map(|row| LeaderRow {
                id: row.meta.id.clone(),
                title: row.meta.title().to_string(),
                rolls: row.rolls,
                quiet: row.pips == 0 && !row.removed && !row.disorders_unit && !row.loses_unspent_pips,
            })
            .collect();
        Results { leaders, low_ammo: rules.tables.low_ammo.meta.title().to_string() }
    }

    fn leader_row(&self, rolled: u8) -> Option<&LeaderRow> {
        let rolled = u32::from(rolled);
        self.leaders.iter().find(|row| row.rolls.0 <= rolled && rolled <= row.rolls.1)
    }
}

/// The rule of the Leader Casualty Table.
const LEADER_RULE: &str = "Ch16 2.4, RULINGS C9";
/// The rule of the Low Ammunition marker.
const LOW_AMMO_RULE: &str = "RULE-05-2.5b, Ch16 11.0, RULINGS C14";
/// The rules that make a unit fall back: a failed check (RULE-07-1.5, RULINGS C5), Open Order
/// overrun (Ch13 22.0, RULINGS G14); Ch16 3.3 is the move itself.
const FALL_BACK_RULE: &str = "RULE-07-1.5, Ch16 3.3, RULINGS C5, G14";

/// The result a `leader ...` claim item states, as a row id of the Leader Casualty Table (Ch16
/// 2.4): `leader unhurt`, `leader wounded` (lightly), `leader severely_wounded` (or `captured`),
/// `leader killed`; any other words are read as a row id (`leader lightly_wounded`). None when the
/// item is not about the leader.
fn leader_claim(item: &ClaimItem) -> Option<String> {
    let (first, rest) = item.words.split_first()?;
    if !first.value.eq_ignore_ascii_case("leader") || rest.is_empty() || !item.numbers.is_empty() {
        return None;
    }
    Some(leader_row_id(rest))
}

/// The row id of the Leader Casualty Table that `words` name (see [`leader_claim`]).
fn leader_row_id(words: &[dotc_lang::ast::Ident]) -> String {
    let said = words.iter().map(|w| w.value.to_lowercase()).collect::<Vec<_>>().join("_");
    let id = match said.as_str() {
        "unhurt" | "close_call" => "unhurt",
        "wounded" | "lightly_wounded" | "light_wound" => "lightly_wounded",
        "severely_wounded" | "captured" | "severe_wound" => "severely_wounded",
        "killed" | "dead" | "killed_in_action" => "killed",
        other => other,
    };
    id.to_string()
}

/// Whether a claim item's words say the unit fell back.
fn is_fall_back(key: &str) -> bool {
    matches!(key, "fell_back" | "falls_back" | "fall_back" | "fell back" | "falls back" | "fall back")
}

/// Whether a claim item's words say the firer took Low Ammunition.
fn is_low_ammo(key: &str) -> bool {
    matches!(key, "low_ammo" | "low ammo" | "low_ammunition" | "low ammunition")
}

/// The leader casualty rolls among `events`: the leader, the die and its row of the table.
fn leader_rolls<'e>(
    r: &Replayer<'_>,
    events: impl Iterator<Item = &'e Event>,
) -> Vec<(String, u8, LeaderRow)> {
    events
        .filter_map(|e| match &e.what {
            What::LeaderCasualty { leader, rolled, .. } => {
                r.results.leader_row(*rolled).map(|row| (leader.clone(), *rolled, row.clone()))
            }
            _ => None,
        })
        .collect()
}

/// `leader RESULT` against the leader casualty rolls of the action (Ch16 2.4, RULINGS C9).
fn check_leader(
    r: &mut Replayer<'_>,
    item: &ClaimItem,
    claimed: &str,
    rolls: &[(String, u8, LeaderRow)],
    rule: &str,
) {
    if rolls.iter().any(|(_, _, row)| row.id == claimed) {
        return;
    }
    let given = if rolls.is_empty() {
        "no leader casualty roll".to_string()
    } else {
        rolls
            .iter()
            .map(|(leader, rolled, row)| format!("{} ({leader} rolled {rolled}: {})", row.id, row.title))
            .collect::<Vec<_>>()
            .join(" and ")
    };
    differs(r, item, "leader casualty", given, format!("leader {claimed}"), rule);
}

/// Whether `unit` took the Low Ammunition marker among `events` (RULE-05-2.5b).
fn took_low_ammo(r: &Replayer<'_>, events: &[Event], unit: &str) -> bool {
    events.iter().any(|e| {
        matches!(&e.what, What::MarkerPlaced { unit: u, marker } if u == unit && *marker == r.results.low_ammo)
    })
}

/// The fall back of one of `units` among `events`, with the rule that made it.
fn fall_back_of<'e>(events: &'e [Event], units: &[&str]) -> Option<(&'e str, &'e str)> {
    events.iter().find_map(|e| match &e.what {
        What::FallBack { unit, .. } if units.contains(&unit.as_str()) => Some((unit.as_str(), e.rule)),
        _ => None,
    })
}

/// `fell_back` against the events: one of `units` fell back.
fn check_fall_back(r: &mut Replayer<'_>, item: &ClaimItem, events: &[Event], units: &[&str]) {
    if fall_back_of(events, units).is_none() {
        let who = units.join(" or ");
        differs(r, item, "fall back", format!("no fall back for {who}"), "fell_back".into(), FALL_BACK_RULE);
    }
}

/// `low_ammo` against the events: `firer` took the Low Ammunition marker.
fn check_low_ammo(r: &mut Replayer<'_>, item: &ClaimItem, events: &[Event], firer: &str) {
    if !took_low_ammo(r, events, firer) {
        let given = format!("no {} marker for {firer}", r.results.low_ammo);
        differs(r, item, "Low Ammunition", given, "low_ammo".into(), LOW_AMMO_RULE);
    }
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

/// A Friction of War roll (Ch13 3.0): the face as a bare number, and for Panic in the Ranks
/// `disordered` when its own die Disordered the regiment (`panicked`; None for another event).
pub(super) fn check_friction(r: &mut Replayer<'_>, claim: &Claim, face: u8, panicked: Option<bool>) {
    for item in &claim.items {
        if item.words.is_empty() {
            match number(item) {
                Some(n) if n != f64::from(face) => {
                    differs(r, item, "friction roll", format!("{face}"), format!("{n}"), "Ch13 3.0");
                }
                Some(_) => {}
                None => unknown(r, item),
            }
            continue;
        }
        match words(item).as_str() {
            "disordered" | "disorder" if item.numbers.is_empty() && panicked != Some(true) => {
                let rules = if panicked.is_some() { "no Disorder" } else { "no panic roll" };
                differs(r, item, "friction roll", rules.into(), "disordered".into(), "Ch13 3.0, dotc D19");
            }
            "disordered" | "disorder" if item.numbers.is_empty() => {}
            _ => unknown(r, item),
        }
    }
}

/// Saves made in a volley.
fn saved(report: &VolleyReport) -> u32 {
    report.events.iter().map(|e| if let What::Saves { saved, .. } = &e.what { *saved } else { 0 }).sum()
}

/// The firer and the target of a volley, as its `Volley` event names them (empty if it has none).
fn firer_and_target(report: &VolleyReport) -> (&str, &str) {
    report
        .events
        .iter()
        .find_map(|e| match &e.what {
            What::Volley { firer, target, .. } => Some((firer.as_str(), target.as_str())),
            _ => None,
        })
        .unwrap_or_default()
}

/// The claim the rules give for a volley, as a log writes it after `=>` (issue 20: the editor's
/// action that writes the result): `hits 4, saved 2, lost 1`. The counts as [`check_volley`]
/// reads them: the hits (RULE-05-2.2), the saves made where the hits had a save roll
/// (RULE-05-3.1, 3.2), the stands lost and a new micro-hit where there are some (RULE-05-3.3);
/// then each result [`check_volley`] holds a claim to stating: a Disorder placed (RULE-05-4.2,
/// Ch16 5.5), the leader's casualty (Ch16 2.4, RULINGS C9), Low Ammunition (RULE-05-2.5b) and a
/// fall back (RULE-07-1.5, RULINGS C5). A claim written so checks clean against the same volley.
pub(super) fn volley_claim(
    r: &Replayer<'_>,
    report: &VolleyReport,
    micro_before: u8,
    micro_after: u8,
) -> String {
    let (firer, target) = firer_and_target(report);
    let mut items = vec![format!("hits {}", report.hits)];
    if report.events.iter().any(|e| matches!(e.what, What::Saves { .. })) {
        items.push(format!("saved {}", saved(report)));
    }
    if report.stands_lost > 0 {
        items.push(format!("lost {}", report.stands_lost));
    }
    if micro_after > micro_before {
        items.push(format!("micro {micro_after}"));
    }
    if report.disorder_placed {
        items.push("disordered".to_string());
    }
    if let Some((_, _, row)) = leader_rolls(r, report.events.iter()).iter().find(|(_, _, row)| !row.quiet) {
        items.push(format!("leader {}", row.id));
    }
    if took_low_ammo(r, &report.events, firer) {
        items.push("low_ammo".to_string());
    }
    if fall_back_of(&report.events, &[target]).is_some() {
        items.push("fell_back".to_string());
    }
    items.join(", ")
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
    let (mut said_leader, mut said_low_ammo, mut said_fall_back) = (false, false, false);
    let (firer, target) = firer_and_target(report);
    let leaders = leader_rolls(r, report.events.iter());
    let mut counts: Vec<(u8, &ClaimItem, &'static str, u32, f64, &'static str)> = Vec::new();
    for item in &claim.items {
        let n = number(item);
        let key = words(item);
        // Ch16 2.4, RULINGS C9: the leader casualty roll the volley called for.
        if let Some(claimed) = leader_claim(item) {
            said_leader = true;
            check_leader(r, item, &claimed, &leaders, LEADER_RULE);
            continue;
        }
        // RULE-05-2.5b, RULINGS C14: the firer's Low Ammunition marker.
        if is_low_ammo(&key) && n.is_none() {
            said_low_ammo = true;
            check_low_ammo(r, item, &report.events, firer);
            continue;
        }
        // RULE-07-1.5, RULINGS C5: the target's fall back after a failed check.
        if is_fall_back(&key) && n.is_none() {
            said_fall_back = true;
            check_fall_back(r, item, &report.events, &[target]);
            continue;
        }
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
            // Ch16 4.3, dotc D6: the building's structural hits, checked by the fire replay's
            // demolition step.
            "structure" | "collapsed" => continue,
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
    // What else the volley did that changes the game, left out of the claim: said as the
    // Disorder is, with the words that would state it.
    if !said_leader && let Some((leader, rolled, row)) = leaders.iter().find(|(_, _, row)| !row.quiet) {
        let message = format!(
            "leader casualty: the rules give {} ({leader} rolled {rolled}: {}), the log claims none; \
             add `leader {}` to the claim",
            row.id, row.title, row.id
        );
        r.find(span, Level::Error, message, LEADER_RULE);
    }
    if !said_low_ammo && took_low_ammo(r, &report.events, firer) {
        let message = format!(
            "Low Ammunition: the rules give {firer} the {} marker, the log claims none; add `low_ammo` \
             to the claim",
            r.results.low_ammo
        );
        r.find(span, Level::Error, message, LOW_AMMO_RULE);
    }
    if !said_fall_back && let Some((unit, rule)) = fall_back_of(&report.events, &[target]) {
        let message = format!(
            "fall back: the rules give {unit} a fall back, the log claims none; add `fell_back` to the claim"
        );
        r.find(span, Level::Error, message, rule);
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

/// The claim the rules give for a `pips` or `rally` line, as a log writes it after `=>`, read
/// off the events the replay gave that line (issue 20: what `dotc play` writes with the dice):
/// the staff pips the roll gave the brigade (Ch16 2.1, RULINGS G2; the number [`check_number`]
/// holds a `pips` claim to), or `rallied` / `failed` for a natural rally on its die (RULE-07-3.3,
/// Ch16 8.3, as [`check_rally`] reads them). None for any other verb, or a line without its
/// event.
pub fn written_claim<'e>(verb: &str, mut events: impl Iterator<Item = &'e Event>) -> Option<String> {
    match verb {
        "pips" => events.find_map(|e| match &e.what {
            What::Pips { change, .. } if *change >= 0 => Some(change.to_string()),
            _ => None,
        }),
        "rally" => events.find_map(|e| match &e.what {
            What::Test { test: TestKind::NaturalRally, needed, rolled, .. } => {
                Some(if i32::from(*rolled) >= *needed { "rallied" } else { "failed" }.to_string())
            }
            _ => None,
        }),
        _ => None,
    }
}

/// The tests an assault step's `pass` or `fail` speaks of, in the order they are rolled.
fn step_tests(verb: &str) -> &'static [TestKind] {
    match verb {
        "rebel_yell" => &[TestKind::RebelYell],
        // Ch13 18.0, dotc D9: the defender's check, caught flat-footed in column.
        "flat_footed" => &[TestKind::FlatFooted],
        // Ch13 10.0, RULINGS C28: a Green defender's check at the 4" line.
        "premature_fire" => &[TestKind::PrematureFire],
        _ => {
            &[TestKind::ShockSave, TestKind::SpentUnderFire, TestKind::SeenTheElephant, TestKind::PreContact]
        }
    }
}

/// The claims the rules give for an assault's steps, read off the assault's events (issue 20:
/// what `dotc play` writes with the dice), as [`check_assault`] reads them: a `closing_volley`'s
/// `hits N` (Ch16 7.2), each test step's `pass` or `fail` (the n-th step of a kind is the n-th
/// test of its kinds, Ch16 7.2, 9.0, RULINGS C7), a `melee`'s `attacker wins`, `defender wins`
/// or `bloody draw` (Ch16 7.3). One entry per step, None where the events say nothing.
pub fn written_step_claims<'e>(
    action: &Action,
    events: impl Iterator<Item = &'e Event> + Clone,
) -> Vec<Option<String>> {
    action
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let verb = step.verb.value.as_str();
            match verb {
                "closing_volley" => events.clone().find_map(|e| match &e.what {
                    What::Hits { hits, .. } => Some(format!("hits {hits}")),
                    _ => None,
                }),
                "discipline" | "rebel_yell" | "flat_footed" | "premature_fire" => {
                    let nth = action.steps[..i].iter().filter(|s| s.verb.value == verb).count();
                    let wanted = step_tests(verb);
                    events
                        .clone()
                        .filter_map(|e| match &e.what {
                            What::Test { test, passed, .. } if wanted.contains(test) => Some(*passed),
                            _ => None,
                        })
                        .nth(nth)
                        .map(|passed| if passed { "pass" } else { "fail" }.to_string())
                }
                "melee" => events.clone().find_map(|e| match &e.what {
                    What::Melee { outcome, .. } => Some(
                        match outcome {
                            MeleeOutcome::AttackerWins => "attacker wins",
                            MeleeOutcome::DefenderWins => "defender wins",
                            MeleeOutcome::BloodyDraw => "bloody draw",
                        }
                        .to_string(),
                    ),
                    _ => None,
                }),
                _ => None,
            }
        })
        .collect()
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
            let verb = step.verb.value.as_str();
            // Ch16 2.4, RULINGS C9: a leader casualty roll of this step: the closing volley's
            // (before the melee) or the melee's.
            if let Some(claimed) = leader_claim(item) {
                let melee_at = report.events.iter().position(|e| matches!(e.what, What::Melee { .. }));
                let events = match (verb, melee_at) {
                    ("closing_volley" | "discipline", Some(at)) => &report.events[..at],
                    ("melee" | "breakthrough", Some(at)) => &report.events[at..],
                    _ => &report.events[..],
                };
                let rolls = leader_rolls(r, events.iter());
                check_leader(r, item, &claimed, &rolls, LEADER_RULE);
                continue;
            }
            // RULE-07-1.5, RULINGS C5, G14: the charger fell back after a failed check, or the
            // target was overrun in open order and fell back.
            if is_fall_back(&key) {
                check_fall_back(r, item, &report.events, &[charger, target]);
                continue;
            }
            // RULE-05-2.5b, RULINGS C14: the defender's closing volley gave it Low Ammunition.
            if verb == "closing_volley" && is_low_ammo(&key) {
                check_low_ammo(r, item, &report.events, target);
                continue;
            }
            match (verb, key.as_str()) {
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
                (
                    "discipline" | "rebel_yell" | "flat_footed" | "premature_fire",
                    "pass" | "passed" | "fail" | "failed",
                ) => {
                    let wanted = step_tests(&step.verb.value);
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
                    // The defender's tests (Ch16 9.0, Ch13 18.0) and the charger's (Ch16 7.2).
                    let (who, rule, none_rule) = match step.verb.value.as_str() {
                        "flat_footed" => (target, "Ch13 18.0, dotc D9", "Ch13 18.0, dotc D9"),
                        "premature_fire" => {
                            (target, "Ch13 10.0, RULINGS C28", "Ch13 10.0, RULINGS C28, dotc D9")
                        }
                        "rebel_yell" => (target, "Ch16 7.2, RULINGS C7", "Ch16 7.2, RULINGS C3, C7"),
                        _ => (charger, "Ch16 7.2, RULINGS C7", "Ch16 7.2, RULINGS C3, C7"),
                    };
                    match test {
                        Some((kind, passed)) if passed != claimed => {
                            differs(r, item, kind.label(), say(passed), say(claimed), rule)
                        }
                        None if nth > 0 => differs(
                            r,
                            item,
                            "the check",
                            format!("no test number {} for {who}", nth + 1),
                            say(claimed),
                            none_rule,
                        ),
                        None => differs(
                            r,
                            item,
                            "the check",
                            format!("no {} for {who}", step.verb.value),
                            say(claimed),
                            none_rule,
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
) {
    let mut said_lost = false;
    let (lost_what, lost_rule) = if report.holders_lost {
        ("the horse holders", "Ch13 6.0, dotc D24")
    } else {
        ("the screen", "Ch16 3.4, RULINGS G12, G5")
    };
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
                        lost_rule,
                    ),
                    Some(_) => {}
                    None => unknown(r, item),
                }
            }
            _ if at_leader => {
                // The casualty row his roll gave: `leader wounded` as on any volley, or the row's
                // words alone (`lightly wounded`).
                let claimed = leader_claim(item).unwrap_or_else(|| leader_row_id(&item.words));
                let rolls = leader_rolls(r, report.events.iter());
                check_leader(r, item, &claimed, &rolls, "RULE-07-4.5, Ch16 2.4, dotc D3");
            }
            _ => unknown(r, item),
        }
    }
    if report.stands_lost > 0 && !said_lost {
        let message = format!("{lost_what}: the rules give removed (a stand lost), the log claims no loss");
        r.find(claim.span, Level::Error, message, lost_rule);
    }
}

/// `evaded` or `captured` against a charge on a solitary brigadier (RULE-07-4.5).
pub(super) fn check_evasion(r: &mut Replayer<'_>, claim: &Claim, captured: bool, who: &str, rule: &str) {
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
            differs(r, item, who, say(captured), say(claimed), rule);
        }
    }
}

/// `refused`, `held` or `panicked` against an attempt to refuse the flank (Ch13 13.0).
pub(super) fn check_refusal(r: &mut Replayer<'_>, claim: &Claim, outcome: crate::engine::flank::Refusal) {
    use crate::engine::flank::Refusal;
    for item in &claim.items {
        let claimed = match words(item).as_str() {
            "refused" => Refusal::Refused,
            "held" | "hesitated" => Refusal::Held,
            "panicked" | "panic" => Refusal::Panicked,
            _ => {
                unknown(r, item);
                continue;
            }
        };
        if claimed != outcome {
            let (rules, log) = (outcome.word().to_string(), claimed.word().to_string());
            differs(r, item, "the refused flank", rules, log, "Ch13 13.0");
        }
    }
}

#[cfg(test)]
mod catalogue;
#[cfg(test)]
mod situations;
