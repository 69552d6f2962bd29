//! Pre-game command bidding (Ch13 1.0; module `command_bidding`). Each side splits its staff
//! points (the rule data's `maneuver scouting` `staff_points`, 15) across four categories; the
//! side that bid the most on a category wins it, a tie gives it to nobody. The winners:
//!
//! 1. Scouting: moves one non-river terrain piece up to 6" or removes it before deployment
//!    ([`crate::battlefield::Scout`], dotc D22).
//! 2. The March: the enemy deploys first. dotc plays no deployment (the scenario places every
//!    unit), so the winner is only said (dotc D23).
//! 3. Initiative: takes the first active turn, instead of the standard roll, which dotc reads
//!    as the scenario's `first_side`; a tie leaves `first_side` to go first (dotc D23).
//! 4. Logistics: picks one enemy battery; it begins the battle with a Low Ammo marker.
//!
//! [`resolve`] reads the log's `bids { }` blocks into an [`Outcome`]: the winners and the
//! choices, and every problem with the bids, located, for the replay to report.

use dotc_lang::ast::{GameHeader, Scenario, Span};

use super::tables::Tables;
use crate::battlefield::{Battlefield, Scout};

/// The four categories, in the rulebook's order, as the log writes them.
pub const CATEGORIES: [&str; 4] = ["scouting", "march", "initiative", "logistics"];

/// One of the four categories (an index into [`CATEGORIES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Scouting = 0,
    March = 1,
    Initiative = 2,
    Logistics = 3,
}

/// A problem with the bids or the winners' choices, at the statement or number it concerns.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub span: Span,
    pub message: String,
}

/// What the bidding decided.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Each side and its points per category, in [`CATEGORIES`] order, as bid.
    pub bids: Vec<(String, [u32; 4])>,
    /// The winner of each category, None on a tie (or when the bids are not usable).
    pub winners: [Option<String>; 4],
    /// The Scouting winner's choice: the piece, what is done to it, the statement's span.
    pub scouting: Option<(String, Scout, Span)>,
    /// The Logistics winner's choice: the battery and the statement's span.
    pub logistics: Option<(String, Span)>,
    pub problems: Vec<Problem>,
    /// Every side bid once, on known categories, its whole pool: the winners are computed.
    pub usable: bool,
}

impl Outcome {
    /// The winner of `category`.
    pub fn winner(&self, category: Category) -> Option<&str> {
        self.winners[category as usize].as_deref()
    }
}

/// The winner of each category: the side whose bid on it is strictly the highest (Ch13 1.0: a
/// tie gives the category to nobody).
pub fn winners(bids: &[(String, [u32; 4])]) -> [Option<String>; 4] {
    std::array::from_fn(|c| {
        let best = bids.iter().map(|(_, p)| p[c]).max()?;
        let mut at_best = bids.iter().filter(|(_, p)| p[c] == best);
        let first = at_best.next()?;
        at_best.next().is_none().then(|| first.0.clone())
    })
}

/// Read the log's bids against its scenario: each side of the scenario bids once, on the four
/// categories, whole points adding up to the rule data's pool; the winners; the choices, each
/// made by its category's winner. None when the log writes no bids.
pub fn resolve(game: &GameHeader, scenario: &Scenario, tables: &Tables) -> Option<Outcome> {
    if game.bids.iter().all(|b| b.bids.is_empty() && b.scouting.is_empty() && b.logistics.is_empty()) {
        return None;
    }
    let mut out = Outcome::default();
    let pool = tables.staff_points;
    let sides: Vec<&str> = scenario.sides.iter().map(|s| s.id.value.as_str()).collect();
    let mut usable = true;
    for bid in game.bids.iter().flat_map(|b| b.bids.iter()) {
        let side = bid.side.value.as_str();
        if !sides.contains(&side) {
            out.problem(bid.side.span, format!("\"{side}\" is not a side of the scenario"));
            usable = false;
            continue;
        }
        if out.bids.iter().any(|(s, _)| s == side) {
            out.problem(bid.span, format!("{side} bids twice; each side bids once (Ch13 1.0)"));
            usable = false;
            continue;
        }
        let mut points = [0u32; 4];
        let mut seen = [false; 4];
        let mut good = true;
        for (category, n) in &bid.points {
            let Some(c) = CATEGORIES.iter().position(|w| *w == category.value) else {
                let message = format!(
                    "\"{}\" is not a category of the bidding: bid on {}",
                    category.value,
                    CATEGORIES.join(", ")
                );
                out.problem(category.span, message);
                good = false;
                continue;
            };
            if seen[c] {
                out.problem(category.span, format!("{side} bids on {} twice", category.value));
                good = false;
            }
            seen[c] = true;
            // Whole and not negative, or lowering reported it (ranges::BID_POINTS).
            if n.value.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&n.value) {
                good = false;
                continue;
            }
            points[c] = n.value as u32;
        }
        let total: u64 = points.iter().map(|&p| u64::from(p)).sum();
        if good && total != u64::from(pool) {
            let message = format!(
                "{side}'s bids add up to {total}; each side splits exactly {pool} staff points (Ch13 1.0)"
            );
            out.problem(bid.span, message);
            good = false;
        }
        usable &= good;
        out.bids.push((side.to_string(), points));
    }
    let header = game.bids.first().map_or(game.span, |b| b.span);
    for side in &sides {
        if !out.bids.iter().any(|(s, _)| s == side) {
            out.problem(
                header,
                format!("{side} makes no bid; each side bids its {pool} staff points (Ch13 1.0)"),
            );
            usable = false;
        }
    }
    if usable {
        out.winners = winners(&out.bids);
    }
    out.usable = usable;
    for choice in game.bids.iter().flat_map(|b| b.scouting.iter()) {
        let how = match &choice.by {
            Some(p) => Scout::Move { dx: p.value.x, dy: p.value.y },
            None => Scout::Remove,
        };
        if out.check_chooser(Category::Scouting, &choice.side.value, choice.span, usable) {
            out.scouting = Some((choice.piece.value.clone(), how, choice.span));
        }
    }
    for choice in game.bids.iter().flat_map(|b| b.logistics.iter()) {
        if out.check_chooser(Category::Logistics, &choice.side.value, choice.span, usable) {
            out.logistics = Some((choice.battery.value.clone(), choice.span));
        }
    }
    Some(out)
}

impl Outcome {
    fn problem(&mut self, span: Span, message: String) {
        self.problems.push(Problem { span, message });
    }

    /// Whether `side` may make the choice of `category`: it won it, and no choice of it came
    /// before. Says why not.
    fn check_chooser(&mut self, category: Category, side: &str, span: Span, usable: bool) -> bool {
        let word = CATEGORIES[category as usize];
        let taken = match category {
            Category::Scouting => self.scouting.is_some(),
            Category::Logistics => self.logistics.is_some(),
            _ => false,
        };
        if taken {
            self.problem(span, format!("a second {word} choice; the winner makes one (Ch13 1.0)"));
            return false;
        }
        if !usable {
            return false;
        }
        match self.winner(category) {
            Some(w) if w == side => true,
            Some(w) => {
                let message = format!("{side} did not win {word}: {w} bid more (Ch13 1.0)");
                self.problem(span, message);
                false
            }
            None => {
                let message = format!("nobody won {word}: the bids on it tie (Ch13 1.0)");
                self.problem(span, message);
                false
            }
        }
    }
}

/// The battlefield a game is played on: the scenario's, with the Scouting winner's piece moved
/// or removed when the game plays command bidding (`bidding_on`) and its log writes one
/// (Ch13 1.0). The one place that applies Scouting: the replay and `dotc render` both build
/// their battlefield here. Returns the problem with the choice, if it is not legal (the
/// battlefield is then the scenario's).
pub fn battlefield(
    scenario: &Scenario,
    data: &dotc_lang::library::RuleData,
    outcome: Option<&Outcome>,
    tables: &Tables,
) -> (Battlefield, Option<Problem>) {
    let mut field = Battlefield::from_scenario(scenario, data);
    let Some((piece, how, span)) = outcome.and_then(|o| o.scouting.as_ref()) else { return (field, None) };
    match field.scout(piece, *how, tables.scouting_move) {
        Ok(()) => (field, None),
        Err(why) => (field, Some(Problem { span: *span, message: format!("{why} (Ch13 1.0)") })),
    }
}

/// The battlefield of a game log as `dotc render` draws it: [`battlefield`] with the bids of
/// the log when `command_bidding` is on in the scenario's or the log's rules.
pub fn game_battlefield(
    scenario: &Scenario,
    game: Option<&GameHeader>,
    data: &dotc_lang::library::RuleData,
) -> Battlefield {
    let on = scenario
        .rules
        .iter()
        .chain(game.iter().flat_map(|g| g.rules.iter()))
        .flat_map(|b| b.modules.iter())
        .any(|m| m.value == dotc_lang::rulings::Module::CommandBidding.name());
    let tables = Tables::from_rule_data(data).ok();
    let outcome = match (game, &tables) {
        (Some(game), Some(tables)) if on => resolve(game, scenario, tables),
        _ => None,
    };
    let field = match &tables {
        Some(tables) => battlefield(scenario, data, outcome.as_ref(), tables).0,
        None => Battlefield::from_scenario(scenario, data),
    };
    // dotc D53: the log's ruling on dead ground, over the scenario's.
    let settings = dotc_lang::model::effective_rulings(
        scenario.rules.iter().chain(game.iter().flat_map(|g| g.rules.iter())),
    );
    match crate::rulings::Rulings::from_settings(&settings) {
        Ok(rulings) => field.with_rulings(&rulings),
        Err(_) => field,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bids(list: &[(&str, [u32; 4])]) -> Vec<(String, [u32; 4])> {
        list.iter().map(|(s, p)| (s.to_string(), *p)).collect()
    }

    /// Ch13 1.0: union 5/3/4/3 against confederate 2/6/4/3: union wins Scouting (5 > 2), the
    /// confederates The March (6 > 3); Initiative (4 = 4) and Logistics (3 = 3) tie: nobody.
    #[test]
    fn ch13_1_0_the_higher_bid_wins_and_a_tie_gives_nobody_the_category() {
        let w = winners(&bids(&[("union", [5, 3, 4, 3]), ("confederate", [2, 6, 4, 3])]));
        assert_eq!(w, [Some("union".into()), Some("confederate".into()), None, None]);
        let w = winners(&bids(&[("union", [0, 0, 15, 0]), ("confederate", [4, 4, 4, 3])]));
        assert_eq!(
            w,
            [
                Some("confederate".into()),
                Some("confederate".into()),
                Some("union".into()),
                Some("confederate".into())
            ]
        );
    }

    fn game(bids: &str) -> (Scenario, GameHeader) {
        let scenario = dotc_lang::parse(
            "scenario \"S\" {\n    turns 4\n    first_side union\n    table 48 x 36\n    side union {\n        edge south\n    }\n    side confederate {\n        edge north\n    }\n}\n",
        )
        .document
        .scenario
        .expect("a scenario");
        let log = format!("game \"G\" {{\n    scenario \"s.dotc\"\n    bids {{\n{bids}\n    }}\n}}\n");
        let parsed = dotc_lang::parse(&log);
        (scenario, parsed.document.game.expect("a header"))
    }

    fn outcome(text: &str) -> Outcome {
        let (scenario, header) = game(text);
        let tables = Tables::from_rule_data(dotc_lang::stdlib()).expect("tables");
        resolve(&header, &scenario, &tables).expect("bids")
    }

    /// Ch13 1.0: each side splits exactly its 15 points: 5 + 3 + 4 + 4 = 16 is one too many.
    #[test]
    fn ch13_1_0_each_side_bids_exactly_fifteen() {
        let o = outcome(
            "        bid union scouting 5 march 3 initiative 4 logistics 4\n        bid confederate scouting 2 march 6 initiative 4 logistics 3",
        );
        assert_eq!(o.problems.len(), 1, "{:?}", o.problems);
        assert!(o.problems[0].message.contains("add up to 16"));
        assert_eq!(o.winners, [None, None, None, None]);
        let o = outcome("        bid union scouting 15");
        assert!(o.problems.iter().any(|p| p.message.contains("confederate makes no bid")));
    }

    /// Ch13 1.0: only a category's winner makes its choice.
    #[test]
    fn ch13_1_0_only_the_winner_chooses() {
        let o = outcome(
            "        bid union scouting 5 march 3 initiative 4 logistics 3\n        bid confederate scouting 2 march 6 initiative 3 logistics 4\n        scouting union \"Woods\" by (0, 6)\n        logistics union \"Battery\"",
        );
        assert_eq!(
            o.scouting.as_ref().map(|s| (s.0.as_str(), s.1)),
            Some(("Woods", Scout::Move { dx: 0.0, dy: 6.0 }))
        );
        assert!(o.logistics.is_none());
        assert_eq!(o.problems.len(), 1);
        assert!(o.problems[0].message.contains("union did not win logistics: confederate bid more"));
    }

    /// Ch13 1.0: `dotc render` builds a game's battlefield here: with the module on, the
    /// Scouting winner's woods stand 6" north of the scenario's place; with it off, where the
    /// scenario put them.
    #[test]
    fn ch13_1_0_a_games_battlefield_is_the_scenarios_after_scouting() {
        let scenario = dotc_lang::parse(
            "scenario \"S\" {\n    turns 4\n    first_side union\n    table 48 x 36\n    terrain {\n        light_woods \"Woods\" polygon (7, 19.5) (17, 19.5) (17, 26) (7, 26)\n    }\n    side union {\n        edge south\n    }\n    side confederate {\n        edge north\n    }\n}\n",
        )
        .document
        .scenario
        .expect("a scenario");
        let log = |module: &str| {
            let text = format!(
                "game \"G\" {{\n    scenario \"s.dotc\"\n{module}    bids {{\n        bid union scouting 6 march 2 initiative 2 logistics 5\n        bid confederate scouting 3 march 2 initiative 6 logistics 4\n        scouting union \"Woods\" by (0, 6)\n    }}\n}}\n"
            );
            dotc_lang::parse(&text).document.game.expect("a header")
        };
        let south_edge = |game: &GameHeader| {
            let field = game_battlefield(&scenario, Some(game), dotc_lang::stdlib());
            field.area("Woods").expect("the woods").outline.exterior().0[0].y
        };
        assert_eq!(south_edge(&log("    rules { module command_bidding }\n")), 25.5);
        assert_eq!(south_edge(&log("")), 19.5);
    }
}
