//! The order of battle a campaign's battle is fought with (Ch14 1.0): the scenario states the
//! historical defaults, the roster as the battle began ([`super::Played::before`]) overrides
//! them. Computed once here, from the roster and the scenario, and handed to the replay
//! ([`crate::replay::ReplayOptions::order_of_battle`]), which sets the game up from the scenario
//! as [`OrderOfBattle::apply`] rewrites it: so the engine's setup, the units' bodies on the
//! table, the replay's summary (its `starting_stands`) and `dotc_lang::check::starting_stands`
//! all read one strength, grade and set of traits.
//!
//! - Strength (Ch14 2.0, 5.0, dotc D42; health counts from it, dotc D43): each unit of the roster fights with its stands on the
//!   roster: stands in hospital, lost or captured are absent, replacements present; the roster
//!   replaces the scenario's `stands`, `men` or `sections` (a battery's stands are its guns).
//! - Grade and traits (Ch14 3.0, 5.0, dotc D44): its grade (the diluted one for the battle it is
//!   diluted for) replaces the scenario's quality; the campaign's traits are added to the
//!   scenario's and count as any trait the scenario gives (dotc D8).
//! - Leaders (Ch14 4.0, dotc D44): a brigadier fights at his campaign rating (promoted, or his
//!   successor's rolled rating after he was killed, dotc D39); while he is out his brigade is
//!   commanded by the stand-in colonel (the scenario's `replacement`, Ch16 2.4), Timid.

use dotc_lang::ast::{self, Ident};
use dotc_lang::library::RuleData;

use super::Roster;

/// The order of battle of one battle of a campaign: what the roster changes in its scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderOfBattle {
    /// The battle (1-based).
    pub battle: usize,
    pub units: Vec<UnitOrder>,
    pub brigadiers: Vec<BrigadierOrder>,
}

/// A unit of the scenario as the roster makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitOrder {
    pub name: String,
    /// The stands it takes the field with: its stands on the roster (dotc D42).
    pub stands: u32,
    /// The scenario's strength, in stands (None: not readable).
    pub scenario_stands: Option<u32>,
    /// The grade it fights at (its morale quality), and the scenario's.
    pub grade: Option<String>,
    pub scenario_grade: Option<String>,
    /// It fights diluted (Ch14 5.0): the grade its XP gives, which dilution lowers.
    pub diluted: bool,
    pub roster_grade: Option<String>,
    /// The campaign's traits the scenario does not give it (Ch14 3.0).
    pub traits: Vec<String>,
    /// Under `roster_health = depleted` (dotc D43): the stands it is short of the strength it
    /// joined with, counted as lost before the battle (Ch16 8.1's `lost`), so its health and its
    /// brigade's clock count from that strength; 0 under `fresh`.
    pub short: u32,
}

/// A brigade's command as the roster makes it (Ch14 4.0).
#[derive(Clone, Debug, PartialEq)]
pub struct BrigadierOrder {
    /// The brigadier, as the scenario and the roster name him.
    pub name: String,
    /// Who commands the brigade in this battle, and at what rating.
    pub commander: String,
    pub rating: String,
    pub scenario_rating: Option<String>,
    pub command: Command,
    /// He was promoted in the campaign (Ch14 4.0).
    pub promoted: bool,
}

/// Why a brigade is commanded as it is (Ch14 4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// The brigadier himself, at his campaign rating (promoted, or as the scenario gives it).
    Himself,
    /// He is out (a severe wound) until this battle: the senior colonel stands in, Timid.
    Out { back_for: usize },
    /// He was killed in this battle: his successor commands, at the rating rolled (dotc D39).
    Successor { killed_in: usize },
}

impl OrderOfBattle {
    /// The order of battle of battle `number` from the roster as it began and its scenario;
    /// `depleted`: the campaign's `roster_health = depleted` (dotc D43).
    pub fn of(
        roster: &Roster,
        scenario: &ast::Scenario,
        data: &RuleData,
        number: usize,
        depleted: bool,
    ) -> OrderOfBattle {
        let mut order = OrderOfBattle { battle: number, ..OrderOfBattle::default() };
        let per = scenario.men_per_stand.as_ref().map(|m| m.value);
        for side in &scenario.sides {
            let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
            for unit in units {
                let Some(record) = roster.units.iter().find(|u| u.name == unit.name.value) else { continue };
                let scenario_grade = quality_word(unit, data).map(|w| w.value.clone());
                let diluted = record.diluted_for == Some(number) && record.diluted_grade.is_some();
                // A battery keeps the scenario's quality (dotc D44).
                let grade = match (record.kind == "battery", diluted) {
                    (true, _) => scenario_grade.clone(),
                    (false, true) => record.diluted_grade.clone(),
                    (false, false) => record.grade.clone(),
                };
                // The campaign's traits the scenario and the grade's quality do not give it.
                let of_grade = grade.as_deref().and_then(|g| data.quality(g)).map(|q| q.traits.as_slice());
                let traits = record
                    .traits
                    .iter()
                    .filter(|t| !unit.traits.iter().any(|u| &u.value == *t))
                    .filter(|t| !of_grade.unwrap_or_default().contains(t))
                    .cloned()
                    .collect();
                order.units.push(UnitOrder {
                    name: record.name.clone(),
                    stands: record.on_roster,
                    scenario_stands: dotc_lang::check::starting_stands(unit, per)
                        .filter(|s| s.is_finite() && *s >= 0.0)
                        .map(|s| s.round() as u32),
                    grade: grade.or_else(|| scenario_grade.clone()),
                    scenario_grade,
                    diluted,
                    roster_grade: record.grade.clone(),
                    traits,
                    short: if depleted { record.strength.saturating_sub(record.on_roster) } else { 0 },
                });
            }
            for b in side.brigades.iter().flat_map(|b| b.brigadiers.iter()) {
                let Some(leader) = roster.leaders.iter().find(|l| l.name == b.name.value) else { continue };
                let scenario_rating = b.rating.as_ref().map(|r| r.value.clone());
                let rating = leader.rating.clone().or_else(|| scenario_rating.clone()).unwrap_or_default();
                let (commander, rating, command) = match (&leader.commanded_by, leader.back_for) {
                    (Some(stand_in), Some(back_for)) if back_for > number => {
                        (stand_in.name.clone(), stand_in.rating.clone(), Command::Out { back_for })
                    }
                    _ => match leader.killed_in {
                        Some(killed_in) => (b.name.value.clone(), rating, Command::Successor { killed_in }),
                        None => (b.name.value.clone(), rating, Command::Himself),
                    },
                };
                order.brigadiers.push(BrigadierOrder {
                    name: b.name.value.clone(),
                    commander,
                    rating,
                    scenario_rating,
                    command,
                    promoted: !leader.promoted_after.is_empty(),
                });
            }
        }
        order
    }

    /// The scenario as the battle is fought: every unit of the order at its roster's stands,
    /// grade and traits, a unit with no stands left off the table (dotc D42), every brigade
    /// under its commander at his rating.
    pub fn apply(&self, scenario: &ast::Scenario, data: &RuleData) -> ast::Scenario {
        let mut fought = scenario.clone();
        for side in &mut fought.sides {
            for brigade in &mut side.brigades {
                self.apply_units(&mut brigade.units, data);
                for b in &mut brigade.brigadiers {
                    let Some(order) = self.brigadiers.iter().find(|o| o.name == b.name.value) else {
                        continue;
                    };
                    let at = b.rating.as_ref().map_or(b.name.span, |r| r.span);
                    b.rating = Some(Ident { value: order.rating.clone(), span: at });
                    if let Command::Out { .. } = order.command {
                        // Ch16 2.4: the colonel in command; should he fall, the default colonel
                        // after him.
                        b.name.value = order.commander.clone();
                        b.replacement = None;
                        b.wounded = None;
                    }
                }
            }
            self.apply_units(&mut side.units, data);
        }
        fought
    }

    fn apply_units(&self, units: &mut Vec<ast::Unit>, data: &RuleData) {
        units.retain(|u| self.units.iter().find(|o| o.name == u.name.value).is_none_or(|o| o.stands > 0));
        for unit in units {
            let Some(order) = self.units.iter().find(|o| o.name == unit.name.value) else { continue };
            let stands = ast::Spanned { value: f64::from(order.stands), span: strength_span(unit) };
            if unit.sections.is_some() {
                unit.sections = Some(stands);
                unit.stands = None;
            } else {
                unit.stands = Some(stands);
            }
            unit.men = None;
            // dotc D43, `depleted`: the stands it is short counted as lost before the battle,
            // with any the scenario states (Ch16 8.1).
            if order.short > 0 {
                let value = f64::from(crate::engine::setup::lost_before(unit) + order.short);
                unit.lost = Some(ast::Spanned { value, span: strength_span(unit) });
            }
            if let Some(grade) = &order.grade {
                match unit.words.iter().position(|w| data.quality(&w.value).is_some()) {
                    Some(i) => unit.words[i].value = grade.clone(),
                    None => unit.words.push(Ident { value: grade.clone(), span: unit.name.span }),
                }
            }
            for t in &order.traits {
                unit.traits.push(Ident { value: t.clone(), span: unit.name.span });
            }
        }
    }

    /// What the roster changes in the scenario, one item a unit or brigade, for the note of
    /// `dotc check` and `dotc audit` (empty: the battle is fought as the scenario states it).
    pub fn changes(&self) -> Vec<String> {
        let mut out = Vec::new();
        for u in &self.units {
            let mut parts = Vec::new();
            if u.scenario_stands != Some(u.stands) {
                let was = u.scenario_stands.map_or("-".to_string(), |s| s.to_string());
                if u.stands == 0 {
                    parts.push(format!("no stands on the roster: not on the table (the scenario: {was})"));
                } else {
                    parts.push(format!("{} (the scenario: {was})", stands(u.stands)));
                }
            }
            if u.grade != u.scenario_grade || u.diluted {
                let grade = u.grade.as_deref().unwrap_or("-");
                let diluted = match (&u.roster_grade, u.diluted) {
                    (Some(from), true) => format!(", diluted from {from}"),
                    (None, true) => ", diluted".to_string(),
                    _ => String::new(),
                };
                parts.push(format!(
                    "{grade}{diluted} (the scenario: {})",
                    u.scenario_grade.as_deref().unwrap_or("-")
                ));
            }
            if !u.traits.is_empty() {
                parts.push(format!("adds {}", u.traits.join(", ")));
            }
            if u.short > 0 {
                parts.push(format!(
                    "its health counted from {} ({} short, lost before the battle)",
                    stands(u.stands + u.short),
                    u.short
                ));
            }
            if !parts.is_empty() {
                out.push(format!("\"{}\" {}", u.name, parts.join(", ")));
            }
        }
        for b in &self.brigadiers {
            let was = b.scenario_rating.as_deref().unwrap_or("-");
            match b.command {
                Command::Out { back_for } => out.push(format!(
                    "{} is out (back for battle {back_for}): {} commands his brigade, {}",
                    b.name, b.commander, b.rating
                )),
                Command::Successor { killed_in } => out.push(format!(
                    "{} was killed in battle {killed_in}: his successor commands, {} (the scenario: {was})",
                    b.name, b.rating
                )),
                Command::Himself if Some(b.rating.as_str()) != b.scenario_rating.as_deref() => {
                    let promoted = if b.promoted { ", promoted" } else { "" };
                    out.push(format!("{} {}{promoted} (the scenario: {was})", b.name, b.rating))
                }
                Command::Himself => {}
            }
        }
        out
    }

    /// The sections of Ch14 the changes come under, for the note's citation.
    pub fn rule(&self) -> String {
        let mut rule = vec!["Ch14 1.0"];
        if self.units.iter().any(|u| u.scenario_stands != Some(u.stands)) {
            rule.push("2.0");
        }
        if self.units.iter().any(|u| u.grade != u.scenario_grade || !u.traits.is_empty()) {
            rule.push("3.0");
        }
        if self
            .brigadiers
            .iter()
            .any(|b| b.command != Command::Himself || Some(b.rating.as_str()) != b.scenario_rating.as_deref())
        {
            rule.push("4.0");
        }
        if self.units.iter().any(|u| u.diluted) {
            rule.push("5.0");
        }
        if rule.contains(&"2.0") {
            rule.push("dotc D42");
        }
        if self.units.iter().any(|u| u.short > 0) {
            rule.push("dotc D43");
        }
        if rule.iter().any(|r| ["3.0", "4.0", "5.0"].contains(r)) {
            rule.push("dotc D44");
        }
        rule.join(", ")
    }
}

fn stands(n: u32) -> String {
    format!("{n} stand{}", if n == 1 { "" } else { "s" })
}

/// The word of a unit that is a quality of the rule data.
fn quality_word<'u>(unit: &'u ast::Unit, data: &RuleData) -> Option<&'u Ident> {
    unit.words.iter().find(|w| data.quality(&w.value).is_some())
}

/// Where the scenario states a unit's strength (its name when it does not).
fn strength_span(unit: &ast::Unit) -> dotc_lang::ast::Span {
    unit.stands.as_ref().or(unit.sections.as_ref()).or(unit.men.as_ref()).map_or(unit.name.span, |s| s.span)
}
