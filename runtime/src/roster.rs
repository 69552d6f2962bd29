//! The order of battle as a table sheet (`dotc roster`, issue 21): every side's commanders,
//! brigades and units as the rules engine sets them up, with what the players look up or tick
//! off at the table.
//!
//! Nothing here is decided twice. The stands a unit fields (its `men` at `men_per_stand`, less
//! what it lost before the battle), its traits (its quality's included), its markers at setup
//! and each brigade's clock come from [`Setup::from_scenario`]; the Hesitant and Broken losses
//! from the engine's [`morale::brigade_thresholds`] (RULE-07-2.3, 2.4, RULINGS G6), and each
//! health band from [`morale::health`] (Ch16 8.1, RULINGS C4), under the rulings the scenario
//! sets; a reinforcement's turn from [`ast::Scenario::arrival_turn`], as the replay reads it.

use dotc_lang::ast::{self, UnitKind};
use dotc_lang::library::{Arm as DataArm, BonusDice, RuleData};
use serde::Serialize;

use crate::engine::morale;
use crate::engine::setup::{Setup, rules_for};
use crate::engine::state::{Arm, GameState, LeaderRank, Unit};
use crate::engine::{EngineError, Rules};

/// The whole sheet: the scenario's facts and one part per side, in the scenario's order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sheet {
    pub scenario: String,
    /// `1 July 1863`, when the scenario gives a date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The first turn's clock time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_side: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub men_per_stand: Option<u32>,
    pub sides: Vec<SideSheet>,
    /// Units the engine could not set up (an unknown weapon, no strength), with the reason;
    /// `dotc check` reports each one at its line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skipped {
    pub unit: String,
    pub reason: String,
}

/// One side's part of the sheet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSheet {
    /// The id the scenario and logs use (`union`).
    pub id: String,
    /// The display name (`Army of the Potomac`), the id when none is given.
    pub name: String,
    pub commanders: Vec<LeaderRow>,
    pub brigades: Vec<BrigadeSheet>,
    /// Units directly under the side (corps artillery, independent cavalry).
    pub units: Vec<UnitRow>,
    /// Stands in all, and men where every unit gives its men.
    pub stands: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub men: Option<u32>,
}

/// A leader: a commander (`army`, `corps`, `division`) or a brigadier.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaderRow {
    pub name: String,
    /// `army`, `corps`, `division`, or `brigadier`.
    pub rank: String,
    /// The stdlib rating id (`reliable`) and its display name.
    pub rating: String,
    pub rating_name: String,
    /// The regiment he starts attached to (Ch16 2.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attached: Option<String>,
    /// Light wounds he already carries, a pip less each (Ch16 2.4, RULINGS G18).
    #[serde(skip_serializing_if = "is_zero")]
    pub wounded: u32,
    /// The colonel the scenario names to take over if he falls (Ch16 2.4); brigadiers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub successor: Option<String>,
}

/// A brigade and its faltering clock (RULE-07-2.2-2.4, Ch16 8.2).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrigadeSheet {
    pub name: String,
    /// Its brigadier first, then any spare leader the scenario gives it.
    pub leaders: Vec<LeaderRow>,
    /// The stands its clock counts: every stand but artillery and horse holders (RULINGS G5),
    /// with those lost before the battle.
    pub clock_stands: u32,
    /// Stands on the clock already lost when the battle begins (RULE-07-2.2).
    pub losses: u32,
    /// Losses at which it turns Hesitant, and Broken (RULE-07-2.3, 2.4, RULINGS G6).
    pub hesitant_at: u32,
    pub broken_at: u32,
    /// `Fresh`, or the state its losses before the battle leave it in.
    pub status: String,
    pub units: Vec<UnitRow>,
    /// When and where it arrives, for a brigade that is a reinforcement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arrives: Option<ArrivalRow>,
}

/// One unit's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitRow {
    pub name: String,
    /// `regiment`, `battery` or `cavalry`.
    pub kind: String,
    /// Men, when the scenario gives them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub men: Option<u32>,
    /// Stands (gun sections for a battery) it fields when the battle begins.
    pub stands: u32,
    /// Stands it brought, before those lost earlier (its `lost`, Ch16 8.1).
    pub starting_stands: u32,
    pub quality: QualityRow,
    pub weapon: WeaponRow,
    /// The formation id and name it starts in.
    pub formation: String,
    pub formation_name: String,
    /// `mounted`, `dismounted`, `limbered` or `unlimbered` where the arm has such a state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Stands holding horses while dismounted (RULINGS G15).
    #[serde(skip_serializing_if = "is_zero")]
    pub horse_holders: u32,
    /// Trait ids (its quality's own included) and their names.
    pub traits: Vec<Named>,
    /// Markers it starts with.
    pub markers: Vec<Named>,
    /// Its health state at each count of stands, most first (Ch16 8.1); none for a battery,
    /// whose sections have none (RULINGS G19).
    pub health: Vec<HealthBand>,
    /// Where it starts.
    pub start: Start,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Named {
    pub id: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QualityRow {
    pub id: String,
    pub name: String,
    /// The Discipline check's target (Ch16 5.5, RULE-07-1.4) and the natural rally's (Ch16 8.3).
    pub discipline: u32,
    pub rally: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeaponRow {
    pub id: String,
    pub name: String,
    /// Dice per firing stand or gun section (RULE-05-2.1, Ch16 5.3), and which.
    pub dice: u32,
    pub per: String,
    /// Extra dice a volley adds (Ch16 5.2, 10.3; RULINGS G16 for `per` stands).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus_dice: Option<BonusDice>,
    /// The bands this arm uses, nearest first (Ch16 5.2, 5.3; RULINGS C21 for cavalry).
    pub bands: Vec<BandRow>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BandRow {
    pub band: String,
    /// Inches, from and to.
    pub from: f64,
    pub to: f64,
    /// The die that hits.
    pub hits: u32,
}

/// A health state and the stands that give it (`Worn` at 3 to 2 stands).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HealthBand {
    pub health: String,
    pub most: u32,
    pub least: u32,
}

/// Where a unit starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Start {
    /// On the table, its Color Stand at (x, y) inches, facing so many degrees.
    Table {
        at: (f64, f64),
        #[serde(skip_serializing_if = "Option::is_none")]
        facing: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        garrison: Option<String>,
    },
    /// A reinforcement.
    Arrives(ArrivalRow),
    /// No position and no arrival: `dotc check` reports it.
    Unplaced,
}

/// When and where a reinforcement comes on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArrivalRow {
    /// As the scenario writes it: `10:30` or `turn 4`.
    pub when: String,
    /// The turn it is due, where the scenario's clock gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    pub at: (f64, f64),
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formation: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Sheet {
    /// The sheet of `scenario` read with `data`; an error only when the rule data or the
    /// scenario's rulings cannot be set up at all.
    pub fn of(scenario: &ast::Scenario, data: &RuleData) -> Result<Sheet, EngineError> {
        let rules = rules_for(scenario, data)?;
        let setup = Setup::from_scenario(scenario, &rules);
        let state = &setup.state;
        let arrival = |name: &str| arrival_of(scenario, data, name);
        let sides = scenario
            .sides
            .iter()
            .map(|side| {
                // A unit of an arriving brigade comes on with it.
                let unit_rows = |units: &[ast::Unit], brigade: Option<&ArrivalRow>| -> Vec<UnitRow> {
                    units
                        .iter()
                        .filter_map(|u| {
                            let unit = state.unit(state.unit_named(&u.name.value)?)?;
                            let arrives = arrival(&u.name.value).or_else(|| brigade.cloned());
                            Some(unit_row(&rules, u, unit, arrives))
                        })
                        .collect()
                };
                let brigades = side
                    .brigades
                    .iter()
                    .filter_map(|b| {
                        let brigade = state.brigade(state.brigade_named(&b.name.value)?)?;
                        let [hesitant_at, broken_at] =
                            morale::brigade_thresholds(&rules, brigade.starting_stands);
                        let arrives = arrival(&b.name.value);
                        Some(BrigadeSheet {
                            name: b.name.value.clone(),
                            leaders: b.brigadiers.iter().map(|l| brigadier_row(state, data, l)).collect(),
                            clock_stands: brigade.starting_stands,
                            losses: brigade.losses,
                            hesitant_at,
                            broken_at,
                            status: brigade.status.label().to_string(),
                            units: unit_rows(&b.units, arrives.as_ref()),
                            arrives,
                        })
                    })
                    .collect::<Vec<_>>();
                let units = unit_rows(&side.units, None);
                let all = || brigades.iter().flat_map(|b| b.units.iter()).chain(units.iter());
                let men = all().map(|u| u.men).sum::<Option<u32>>();
                SideSheet {
                    id: side.id.value.clone(),
                    name: side.name.as_ref().map_or_else(|| side.id.value.clone(), |n| n.value.clone()),
                    commanders: side
                        .commanders
                        .iter()
                        .map(|c| {
                            let rating = engine_rating(state, &c.name.value, LeaderRank::Commander);
                            LeaderRow {
                                name: c.name.value.clone(),
                                rank: c.level.value.clone(),
                                rating_name: name_of(data.rating(&rating).map(|r| &r.meta), &rating),
                                rating,
                                attached: None,
                                wounded: 0,
                                successor: None,
                            }
                        })
                        .collect(),
                    stands: all().map(|u| u.stands).sum(),
                    men: men.filter(|_| all().next().is_some()),
                    brigades,
                    units,
                }
            })
            .collect();
        Ok(Sheet {
            scenario: scenario.name.value.clone(),
            date: scenario.date.as_ref().map(|d| d.value.long()),
            start: scenario.start.as_ref().map(|s| s.value.to_string()),
            turns: scenario.turns.as_ref().map(|t| t.value),
            turn_length: scenario.turn_length.as_ref().map(|t| t.value),
            first_side: scenario.first_side.as_ref().map(|s| s.value.clone()),
            men_per_stand: scenario.men_per_stand.as_ref().map(|m| m.value),
            sides,
            skipped: setup
                .skipped
                .iter()
                .map(|(unit, reason)| Skipped { unit: unit.clone(), reason: reason.clone() })
                .collect(),
        })
    }

    /// Every unit of the sheet, side by side, in order.
    pub fn units(&self) -> impl Iterator<Item = &UnitRow> {
        self.sides.iter().flat_map(|s| s.brigades.iter().flat_map(|b| b.units.iter()).chain(s.units.iter()))
    }
}

/// An entry's display name, or its id where the rule data gives none.
fn name_of(meta: Option<&dotc_lang::library::EntryMeta>, id: &str) -> String {
    meta.and_then(|m| m.name.clone()).unwrap_or_else(|| id.to_string())
}

/// The rating the engine set a leader up with (Ch16 2.1): the scenario's, or the engine's
/// default for a leader written without one.
fn engine_rating(state: &GameState, name: &str, rank: LeaderRank) -> String {
    state
        .leaders
        .iter()
        .find(|l| l.name == name && l.rank == rank)
        .map(|l| l.rating.clone())
        .unwrap_or_default()
}

fn brigadier_row(state: &GameState, data: &RuleData, b: &ast::Brigadier) -> LeaderRow {
    let leader = state.leaders.iter().find(|l| l.name == b.name.value && l.rank == LeaderRank::Brigadier);
    let rating = leader.map(|l| l.rating.clone()).unwrap_or_default();
    // The rating as the engine plays him (Ch16 2.1), its default for a brigadier written without.
    LeaderRow {
        name: b.name.value.clone(),
        rank: "brigadier".to_string(),
        rating_name: name_of(data.rating(&rating).map(|r| &r.meta), &rating),
        rating,
        attached: b.attached.as_ref().map(|a| a.value.clone()),
        wounded: leader.map_or(0, |l| l.pip_penalty),
        successor: b.replacement.as_ref().map(|r| r.value.clone()),
    }
}

/// The reinforcement line that brings on the unit or brigade `name`, if any.
fn arrival_of(scenario: &ast::Scenario, data: &RuleData, name: &str) -> Option<ArrivalRow> {
    let r = scenario.reinforcements.iter().find(|r| r.name.value == name)?;
    Some(ArrivalRow {
        when: r.arrival.value.to_string(),
        turn: scenario.arrival_turn(r.arrival.value),
        at: (r.position.value.x, r.position.value.y),
        formation: r.words.iter().find(|w| data.formation(&w.value).is_some()).map(|w| w.value.clone()),
    })
}

fn unit_row(rules: &Rules, ast_unit: &ast::Unit, unit: &Unit, arrives: Option<ArrivalRow>) -> UnitRow {
    let data = &rules.data;
    let quality = data.quality(&unit.quality);
    let weapon = data.weapon(&unit.weapon);
    let data_arm = match unit.arm {
        Arm::Infantry => DataArm::Infantry,
        Arm::Battery { .. } => DataArm::Artillery,
        Arm::Cavalry { .. } => DataArm::Cavalry,
    };
    let (state, horse_holders) = match unit.arm {
        Arm::Infantry => (None, 0),
        Arm::Battery { limbered } => (Some(if limbered { "limbered" } else { "unlimbered" }), 0),
        Arm::Cavalry { mounted, horse_holders, .. } => {
            (Some(if mounted { "mounted" } else { "dismounted" }), horse_holders)
        }
    };
    let trait_row =
        |id: &str| Named { id: id.to_string(), name: name_of(data.army_trait(id).map(|t| &t.meta), id) };
    let start = match (&arrives, &ast_unit.position) {
        (Some(a), _) => Start::Arrives(a.clone()),
        (None, Some(p)) => Start::Table {
            at: (p.value.x, p.value.y),
            facing: ast_unit.facing.as_ref().and_then(|f| f.value.degrees()),
            garrison: ast_unit.garrison.as_ref().map(|g| g.value.clone()),
        },
        (None, None) => Start::Unplaced,
    };
    UnitRow {
        name: unit.name.clone(),
        kind: match ast_unit.kind {
            UnitKind::Regiment => "regiment",
            UnitKind::Battery => "battery",
            UnitKind::Cavalry => "cavalry",
        }
        .to_string(),
        men: ast_unit
            .men
            .as_ref()
            .map(|m| m.value)
            .filter(|m| m.fract() == 0.0 && *m >= 0.0)
            .map(|m| m as u32),
        stands: unit.stands,
        starting_stands: unit.starting_stands,
        quality: QualityRow {
            id: unit.quality.clone(),
            name: name_of(quality.map(|q| &q.meta), &unit.quality),
            discipline: quality.map_or(0, |q| q.discipline),
            rally: quality.map_or(0, |q| q.rally),
        },
        weapon: WeaponRow {
            id: unit.weapon.clone(),
            name: name_of(weapon.map(|w| &w.meta), &unit.weapon),
            dice: weapon.map_or(0, |w| w.dice.dice),
            per: weapon.map_or("stand", |w| w.dice.per.word()).to_string(),
            bonus_dice: weapon.and_then(|w| w.bonus_dice),
            bands: weapon
                .map(|w| w.bands_for(data_arm))
                .unwrap_or_default()
                .iter()
                .map(|b| BandRow { band: b.name.word().to_string(), from: b.from, to: b.to, hits: b.hits })
                .collect(),
        },
        formation: unit.formation.clone(),
        formation_name: name_of(data.formation(&unit.formation).map(|f| &f.meta), &unit.formation),
        state: state.map(str::to_string),
        horse_holders,
        traits: unit.traits.iter().map(|t| trait_row(t)).collect(),
        // The micro-hit a scenario may place (RULE-05-3.3) is kept beside the markers.
        markers: unit
            .markers
            .ids()
            .into_iter()
            .chain((unit.micro_hit > 0).then_some("micro_hit"))
            .map(|id| Named { id: id.to_string(), name: name_of(data.marker(id).map(|m| &m.meta), id) })
            .collect(),
        health: if unit.is_battery() { Vec::new() } else { health_bands(rules, unit.starting_stands) },
        start,
    }
}

/// The health state at each count of stands from `starting` down to none, in runs (Ch16 8.1).
fn health_bands(rules: &Rules, starting: u32) -> Vec<HealthBand> {
    let mut bands: Vec<HealthBand> = Vec::new();
    for stands in (0..=starting).rev() {
        let id = morale::health(rules, stands, starting).id();
        let health = name_of(rules.data.health(id).map(|h| &h.meta), id);
        match bands.last_mut() {
            Some(last) if last.health == health => last.least = stands,
            _ => bands.push(HealthBand { health, most: stands, least: stands }),
        }
    }
    bands
}

#[cfg(test)]
#[path = "roster_tests.rs"]
mod tests;
