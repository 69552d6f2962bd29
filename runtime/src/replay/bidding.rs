//! The replay of pre-game command bidding (Ch13 1.0; module `command_bidding`): the log's
//! `bids { }` block, resolved by the rules core ([`crate::engine::bidding`]), before turn 1.
//! Scouting changes the battlefield the replay plays on; The March is said (the scenario
//! deploys every unit, dotc D23); Initiative decides whose turn 1 is, checked when the turn
//! begins; Logistics gives the enemy battery its Low Ammo marker.

use dotc_lang::ast::{GameHeader, Scenario, Turn};
use dotc_lang::rulings::Module;

use super::{Game, Level, Replayer};
use crate::battlefield::{Battlefield, Scout};
use crate::engine::Rules;
use crate::engine::bidding::{self, CATEGORIES, Category, Outcome};
use crate::engine::events::{Event, What};

/// The section the findings and events cite.
const RULE: &str = "Ch13 1.0";

/// Who must take turn 1, when command bidding decides it (Ch13 1.0, dotc D23).
#[derive(Clone, Debug, Default)]
pub(super) struct Initiative {
    side: Option<String>,
    why: String,
}

/// The battlefield of the game and the bidding's outcome: the bids read and their problems
/// reported, Scouting applied. With the module off, bids written are said and left out.
pub(super) fn start(
    r: &mut Replayer<'_>,
    header: Option<&GameHeader>,
    scenario: &Scenario,
    data: &dotc_lang::library::RuleData,
    rules: &Rules,
) -> (Battlefield, Option<Outcome>) {
    let on = rules.module(Module::CommandBidding.name());
    let outcome = header.and_then(|h| bidding::resolve(h, scenario, &rules.tables));
    let at = header
        .and_then(|h| h.bids.first())
        .map_or_else(|| header.map(|h| h.span).unwrap_or_default(), |b| b.span);
    match (&outcome, on) {
        (Some(_), false) => {
            let message = "bids are written, but module command_bidding (Ch13 1.0) is off: they are not played; add `module command_bidding` to play them";
            r.find(at, Level::Warning, message, RULE);
            return (Battlefield::from_scenario(scenario, data), None);
        }
        (None, true) => {
            let message = "the log writes no bids, though module command_bidding is on: nobody wins a category (write a `bids { }` block in the header)";
            r.find(at, Level::Warning, message, RULE);
            return (Battlefield::from_scenario(scenario, data), None);
        }
        (None, false) => return (Battlefield::from_scenario(scenario, data), None),
        (Some(_), true) => {}
    }
    let mut outcome = outcome.unwrap_or_default();
    for p in std::mem::take(&mut outcome.problems) {
        r.find(p.span, Level::Error, p.message, RULE);
    }
    let (field, problem) = bidding::battlefield(scenario, data, Some(&outcome), &rules.tables);
    if let Some(p) = problem {
        r.find(p.span, Level::Error, p.message, "Ch13 1.0, dotc D22");
        outcome.scouting = None;
    }
    r.span = at;
    let mut said = Vec::new();
    for (c, word) in CATEGORIES.iter().enumerate() {
        let bids: Vec<String> = outcome.bids.iter().map(|(s, p)| format!("{s} {}", p[c])).collect();
        let text = match &outcome.winners[c] {
            Some(w) => format!("command bidding: {w} wins {word} ({})", bids.join(", ")),
            None => format!("command bidding: nobody wins {word} ({})", bids.join(", ")),
        };
        said.push(Event::new(What::Note { text }, RULE));
    }
    if let Some(w) = outcome.winner(Category::March) {
        let text = format!(
            "The March: {w} won it, so the enemy deploys first; the scenario's deployment stands (dotc D23)"
        );
        said.push(Event::new(What::Note { text }, "Ch13 1.0, dotc D23"));
    }
    if let Some((piece, how, _)) = &outcome.scouting {
        let text = match how {
            Scout::Move { dx, dy } => {
                format!("Scouting: \"{piece}\" moved by ({dx}, {dy}) before deployment")
            }
            Scout::Remove => format!("Scouting: \"{piece}\" removed before deployment"),
        };
        said.push(Event::new(What::Note { text }, "Ch13 1.0, dotc D22"));
    }
    r.emit(said);
    (field, Some(outcome))
}

/// Logistics (Ch13 1.0): the winner's pick, an enemy battery, begins with a Low Ammo marker.
/// Returns who must take turn 1.
pub(super) fn apply(
    r: &mut Replayer<'_>,
    game: &mut Game,
    outcome: Option<&Outcome>,
    scenario: &Scenario,
) -> Option<Initiative> {
    let outcome = outcome?;
    if let (Some((battery, span)), Some(winner)) = (&outcome.logistics, outcome.winner(Category::Logistics)) {
        let id = game.state.unit_named(battery);
        let unit = id.and_then(|id| game.state.unit(id));
        let side = unit.and_then(|u| game.state.sides.get(u.side.0)).map(|s| s.name.clone());
        let problem = match (unit, &side) {
            (None, _) => Some(format!("the scenario has no unit \"{battery}\"")),
            (Some(u), _) if !u.is_battery() => Some(format!("\"{battery}\" is not an artillery battery")),
            (_, Some(s)) if s == winner => {
                Some(format!("\"{battery}\" is {winner}'s own battery; the winner picks an enemy battery"))
            }
            _ => None,
        };
        match (problem, id) {
            (Some(why), _) => r.find(*span, Level::Error, format!("{why} (Ch13 1.0 Logistics)"), RULE),
            (None, Some(id)) => {
                if let Some(u) = game.state.unit_mut(id) {
                    u.markers.low_ammo = true;
                }
                r.span = *span;
                let placed = What::MarkerPlaced { unit: battery.clone(), marker: "low_ammo".to_string() };
                r.emit([Event::new(placed, RULE)]);
            }
            (None, None) => {}
        }
    }
    let first_side = scenario.first_side.as_ref().map(|f| f.value.clone());
    Some(match outcome.winner(Category::Initiative) {
        Some(w) => Initiative { side: Some(w.to_string()), why: format!("{w} won the Initiative bid") },
        None if !outcome.usable => Initiative {
            side: first_side,
            why: "the bids decide no winner (see their errors), so the scenario's `first_side` goes first"
                .to_string(),
        },
        None => Initiative {
            side: first_side,
            why: "nobody won the Initiative bid, so the scenario's `first_side` goes first (dotc D23)"
                .to_string(),
        },
    })
}

/// Ch13 1.0 Initiative: turn 1 is the Initiative winner's, instead of the standard roll.
pub(super) fn check_first_turn(r: &mut Replayer<'_>, initiative: Option<&Initiative>, turn: &Turn) {
    let Some(Initiative { side: Some(side), why }) = initiative else { return };
    if turn.number.value != 1 || turn.side.value == *side {
        return;
    }
    let message = format!("turn 1 should be {side}'s: {why}");
    r.find(turn.side.span, Level::Error, message, "Ch13 1.0, dotc D23");
}
