//! The replay told as a story (issue 21): each action in a few plain sentences, who did what
//! with what result, with the dice that decided it and none of the bookkeeping (the dice handed
//! out, the smoke that comes and goes, the brigade tally after every stand). `dotc replay`
//! prints it by default; `--rules` prints every event with the rule it applied
//! ([`super::narrative`]).
//!
//! It tells the events the rules engine made and decides nothing: a sentence is a way of saying
//! one event, or a volley's or a melee's few events together. An event it has no plainer words
//! for is said as the rules trace says it, so nothing the replay did is left untold.

use crate::dice::Purpose;
use crate::engine::events::{Event, MeleeOutcome, TestKind, What};

/// The sentences of one action's events, in order. `verb` is the action's first word as the log
/// wrote it (`reserve`, `fire`...), which says what a change of pips was for.
pub fn tell(events: &[&Event], verb: &str) -> Vec<String> {
    let events: Vec<&Event> = events.iter().copied().filter(|e| !bookkeeping(e)).collect();
    let mut out = Vec::new();
    let mut scores: Vec<(&str, i32, u8)> = Vec::new();
    let mut pip_faces: Option<&[u8]> = None;
    let mut rallied: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let what = &events[i].what;
        i += 1;
        let sentence = match what {
            What::Rolled { purpose: Purpose::StaffPips, faces } => {
                pip_faces = Some(faces);
                None
            }
            What::Rolled { .. } | What::UnsavedHits { .. } | What::Tally { .. } => None,
            What::Volley { firer, target, band, range, dice, to_hit, modifiers, .. } => {
                let with = if modifiers.is_empty() {
                    String::new()
                } else {
                    let list: Vec<String> =
                        modifiers.iter().map(|m| format!("{} {:+}", m.name, m.value)).collect();
                    format!(", with {}", list.join(", "))
                };
                let aim = format!(
                    "{firer} fires {} at {target}, {} away ({band} range, {to_hit}+ to hit{with})",
                    count(*dice, "1 die", "dice"),
                    inches(*range)
                );
                // The dice and the hits, said in the same sentence.
                match events.get(i).map(|e| &e.what) {
                    Some(What::Hits { faces, hits, .. }) => {
                        i += 1;
                        Some(format!("{aim}: {}, {}", list(faces), hit_count(*hits)))
                    }
                    _ => Some(aim),
                }
            }
            What::Hits { firer, faces, to_hit, hits, .. } => {
                Some(format!("{firer} rolls {} needing {to_hit}+: {}", list(faces), hit_count(*hits)))
            }
            What::Unrolled { firer, target, dice, to_hit, .. } => Some(format!(
                "{firer} would fire {} at {target}, needing {to_hit}+, but the log gives no dice",
                count(*dice, "1 die", "dice")
            )),
            What::Reroll { unit, from, to } => Some(format!("{unit} rolls a missed {from} again: {to}")),
            What::ShockTrigger { target, sixes, .. } => {
                Some(format!("{target} is shaken by {}", count(*sixes, "a natural 6", "natural 6s")))
            }
            What::ShockIgnored { target, because } => Some(format!("{target} stands firm ({because})")),
            What::Test { unit, test, needed, rolled, passed, .. } => Some(match (test, passed) {
                (TestKind::NaturalRally, true) => {
                    rallied.push(unit);
                    format!("{unit} rallies (rolled {rolled}, needed {needed}+)")
                }
                (TestKind::NaturalRally, false) => {
                    format!("{unit} fails to rally (rolled {rolled}, needed {needed}+)")
                }
                (kind, passed) => format!(
                    "{unit} {} {} (rolled {rolled}, needed {needed}+)",
                    if *passed { "passes" } else { "fails" },
                    kind.the_label()
                ),
            }),
            What::Saves { unit, save, faces, saved, unsaved, .. } => Some(match (saved, unsaved) {
                (_, 0) => format!("{unit} saves every hit on {save}+: {}", list(faces)),
                (0, _) => format!("{unit} saves none on {save}+: {}", list(faces)),
                _ => format!("{unit} saves {saved} of {} on {save}+: {}", saved + unsaved, list(faces)),
            }),
            What::NoSave { unit, hits, because } => Some(format!(
                "{unit} has no save against {} ({})",
                hit_count(*hits),
                without_citations(because)
            )),
            What::ScreenHit { unit, removed, .. } => Some(if *removed {
                format!("{unit}'s skirmish screen takes a hit and is driven in")
            } else {
                format!("{unit}'s skirmish screen takes a hit")
            }),
            What::StandsLost { unit, lost, remaining, .. } => {
                Some(format!("{unit} loses {}, {remaining} left", count(*lost, "a stand", "stands")))
            }
            What::MicroHit { unit, micro_hit } => {
                (*micro_hit > 0).then(|| format!("{unit} takes a micro-hit"))
            }
            What::Shattered { unit } => Some(format!("{unit} shatters and leaves the table")),
            What::Removed { unit, because } => {
                // A shattered regiment's leaving was just said.
                let said = matches!(events.get(i.wrapping_sub(2)).map(|e| &e.what), Some(What::Shattered { unit: u }) if u == unit);
                (!said).then(|| format!("{unit} leaves the table ({because})"))
            }
            What::MarkerPlaced { unit, marker } => match marker_kind(marker) {
                Marker::Bookkeeping => None, // left out above
                Marker::Disorder => Some(format!("{unit} is disordered")),
                Marker::LowAmmo => Some(format!("{unit} runs low on ammunition")),
                Marker::Other => Some(format!("{unit} gets {marker}")),
            },
            What::MarkerRemoved { unit, marker } => match marker_kind(marker) {
                Marker::Bookkeeping => None,
                Marker::Disorder if rallied.contains(&unit.as_str()) => None,
                Marker::Disorder => Some(format!("{unit} is no longer disordered")),
                Marker::LowAmmo => Some(format!("{unit} is resupplied with ammunition")),
                Marker::Other => Some(format!("{unit} loses {marker}")),
            },
            What::HealthChanged { unit, to, .. } => Some(format!("{unit} is now {to:?}")),
            What::BrigadeChanged { brigade, to, lost, .. } => {
                Some(format!("{brigade} is now {}, {} lost", to.label(), count(*lost, "1 stand", "stands")))
            }
            What::Pips { brigade, change, pips, banked } => Some(match (*change, verb) {
                (n, _) if n > 0 => match pip_faces.take() {
                    Some(faces) => format!(
                        "{brigade} has {} to spend (rolled {})",
                        count(n as u32, "1 pip", "pips"),
                        rolled(faces)
                    ),
                    None => format!("{brigade} gains {}, {pips} to spend", count(n as u32, "1 pip", "pips")),
                },
                (_, "reserve") => format!("{brigade} banks a pip ({banked} banked, {pips} to spend)"),
                (n, _) => {
                    format!("{brigade} spends {}, {pips} left", count(n.unsigned_abs(), "1 pip", "pips"))
                }
            }),
            What::FallBack { unit, inches: d } => Some(format!("{unit} falls back {}", inches(*d))),
            What::Retreat { unit, inches: d } => Some(format!("{unit} retreats {}", inches(*d))),
            What::Stalled { unit, inches: d } => Some(format!("{unit}'s charge stops {} short", inches(*d))),
            What::Contact { attacker, defender, .. } => {
                Some(format!("{attacker} charges home into {defender}"))
            }
            What::ShockScore { unit, rolled, score, .. } => {
                scores.push((unit, *score, *rolled));
                None
            }
            What::Melee { attacker, defender, outcome, margin } => {
                let score = |name: &str| {
                    scores
                        .iter()
                        .rev()
                        .find(|(u, ..)| *u == name)
                        .map(|(_, s, r)| format!(" {s} (rolled {r})"))
                };
                let scored = match (score(attacker), score(defender)) {
                    (Some(a), Some(d)) => format!(": {attacker}{a} against {defender}{d}"),
                    _ => String::new(),
                };
                let by = margin.unsigned_abs();
                Some(match outcome {
                    MeleeOutcome::AttackerWins => format!("Melee{scored}; {attacker} wins by {by}"),
                    MeleeOutcome::DefenderWins => format!("Melee{scored}; {defender} wins by {by}"),
                    MeleeOutcome::BloodyDraw => format!("Melee{scored}; a Bloody Draw"),
                })
            }
            // A change of formation or a limbering "moves" no distance: it is told on its own.
            What::Moved { used, .. } if *used == 0.0 => None,
            What::Moved { unit, how, used, .. } => {
                // The log's verb says what kind of move it was.
                let how = match verb {
                    "retreat" => "retreats",
                    "fall_back" => "falls back",
                    "consolidate" => "consolidates",
                    "pursue" => "pursues",
                    "breakthrough" => "sweeps forward",
                    "wheel" => "wheels",
                    "evade" => "evades",
                    _ => how,
                };
                Some(format!("{unit} {how} {}", inches(*used)))
            }
            What::Consolidate { unit, inches: d } => Some(format!("{unit} may consolidate {}", inches(*d))),
            What::Pursuit { unit, inches: d } => {
                Some(format!("{unit}, frenzied, pursues {} at the nearest enemy or objective", inches(*d)))
            }
            What::Breakthrough { unit, inches: d, pips } => {
                Some(format!("{unit} may sweep forward {} for {}", inches(*d), count(*pips, "1 pip", "pips")))
            }
            What::LeaderCasualty { leader, rolled, result } => {
                Some(format!("{leader} is under fire: rolled {rolled}, {result}"))
            }
            What::LeaderReplaced { leader, by, permanent, .. } => Some(if *permanent {
                format!("{by} takes command from {leader} for good")
            } else {
                format!("{by} takes command from {leader}")
            }),
            What::Refused { unit, why } => Some(format!("{unit} may not: {why}")),
            What::Note { text } => Some(without_citations(text)),
        };
        if let Some(s) = sentence {
            out.push(finish(&s));
        }
    }
    out
}

/// What the story leaves to the rules trace: the dice handed out (each sentence gives its own),
/// the unsaved hits on their way to stands, the brigade tally after every stand (its change of
/// state is told), a micro-hit used up, smoke and clean barrels, and the note that too few 1s
/// fell for Low Ammo.
fn bookkeeping(event: &Event) -> bool {
    match &event.what {
        What::Rolled { purpose, .. } => *purpose != Purpose::StaffPips,
        What::UnsavedHits { .. } | What::Tally { .. } => true,
        What::MicroHit { micro_hit, .. } => *micro_hit == 0,
        What::MarkerPlaced { marker, .. } | What::MarkerRemoved { marker, .. } => {
            matches!(marker_kind(marker), Marker::Bookkeeping)
        }
        What::Note { .. } => event.rule == crate::engine::fire::LOW_AMMO_NOT_YET,
        _ => false,
    }
}

/// What a marker means to the story.
enum Marker {
    /// Smoke and clean barrels come and go with every volley: the trace has them.
    Bookkeeping,
    Disorder,
    LowAmmo,
    Other,
}

fn marker_kind(name: &str) -> Marker {
    let name = name.to_ascii_lowercase();
    if name.contains("gunsmoke") || name.contains("clean barrels") {
        Marker::Bookkeeping
    } else if name.contains("disorder") {
        Marker::Disorder
    } else if name.contains("low ammo") || name.contains("low ammunition") {
        Marker::LowAmmo
    } else {
        Marker::Other
    }
}

/// A note's text without the rule references some notes end with (`..., both take a Discipline
/// check, Ch16 3.3, RULE-07-1.4, RULINGS C8`): the story cites no rule.
fn without_citations(text: &str) -> String {
    // References in brackets anywhere: `stands in the way (RULE-05-6.1)`.
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(" (") {
        let inner = &rest[open + 2..];
        let close = inner.find(')').unwrap_or(inner.len());
        if !inner[..close].is_empty() && inner[..close].split(", ").all(is_citation) {
            out.push_str(&rest[..open]);
            rest = inner.get(close + 1..).unwrap_or("");
        } else {
            out.push_str(&rest[..open + 2]);
            rest = inner;
        }
    }
    out.push_str(rest);
    // And a tail of them: `..., Ch16 3.3, RULE-07-1.4`.
    let mut end = out.len();
    while let Some(at) = out[..end].rfind(", ") {
        if !is_citation(&out[at + 2..end]) {
            break;
        }
        end = at;
    }
    out.truncate(end);
    out
}

/// A rule reference as the engine writes them: `RULE-05-3.3`, `Ch16 7.4`, `RULINGS C8`, `dotc
/// D12`, `C31`.
fn is_citation(part: &str) -> bool {
    // A ruling id: a letter and a number, `C31`, `G6`, `E2`, `D12`.
    let ruling = |w: &str| {
        let mut chars = w.chars();
        chars.next().is_some_and(|c| matches!(c, 'C' | 'G' | 'E' | 'D'))
            && w.len() > 1
            && w[1..].parse::<u32>().is_ok()
    };
    let mut words = part.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(w), None, None) => w.starts_with("RULE-") || ruling(w),
        // A ruling may name the switch value that applied: `RULINGS C15 majority_behind`.
        (Some("RULINGS" | "dotc"), Some(id), value) => {
            ruling(id) && value.is_none_or(|v| v.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        }
        (Some(ch), Some(section), None) => {
            ch.strip_prefix("Ch").is_some_and(|n| n.parse::<u32>().is_ok())
                && section.chars().all(|c| c.is_ascii_digit() || c == '.')
        }
        _ => false,
    }
}

/// A sentence: its first letter a capital, a full stop at its end.
fn finish(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// `1 die`, `5 dice`, `a stand`, `2 stands`: `one` as it is for one.
fn count(n: u32, one: &str, many: &str) -> String {
    if n == 1 { one.to_string() } else { format!("{n} {many}") }
}

fn hit_count(n: u32) -> String {
    match n {
        0 => "no hits".to_string(),
        1 => "1 hit".to_string(),
        n => format!("{n} hits"),
    }
}

/// One die as its face (`5`), more as a list (`[3, 5]`).
fn rolled(faces: &[u8]) -> String {
    match faces {
        [one] => one.to_string(),
        many => list(many),
    }
}

/// `[3, 5, 2]`.
fn list(faces: &[u8]) -> String {
    let faces: Vec<String> = faces.iter().map(u8::to_string).collect();
    format!("[{}]", faces.join(", "))
}

/// `10.5″`, `6″`: at most two decimals.
fn inches(x: f64) -> String {
    let text = format!("{x:.2}");
    format!("{}\u{2033}", text.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
#[path = "story_tests.rs"]
mod tests;
