//! `dotc analyze`: a scenario's time and motion, for its designer (issue 19).
//!
//! [`analyze`] follows every brigade (and every unit outside a brigade) of a scenario from its
//! start, or from its entry point on the turn its reinforcement line brings it on, with
//! [`crate::battlefield::reach`]: the rules core's movement rows, terrain, roads, water and
//! obstacles, formation changes at the rule data's prices (Ch16 3.2, dotc D47) and, when asked
//! for, the Double-Time Advance (Ch16 2.3), each move at the earliest possible (see that module for what
//! it ignores: enemies in the way, command, Disorder). From that it tells, per force, the earliest turn it can reach each objective,
//! base contact and effective range with each enemy force (both moving toward each other), the
//! earliest turn it can reach each enemy force where that one stands (an attack on a defender
//! holding still), the earliest first contact and first attack, and for each victory condition
//! whether and when the side it favours can first meet it.
//!
//! Contact is made by a force in a formation that may fight (a road column must first deploy,
//! Ch16 3.2) and counts a charge (Ch16 3.1, 7.1): a force that ends a move from which its charge
//! (the row's `charge`, over ground it may enter, never across water, RULINGS G10, without the
//! terrain's charge penalties, so never later than possible) reaches an enemy is in contact on
//! its next move. A force in contact is within any effective range.
//!
//! Turns follow the scenario's clock (docs/language.md): a turn is one side's sequence (RULINGS
//! G7), turn 1 the `first_side`'s; a reinforcement is due on the turn its time falls in, enters
//! on its side's first turn from then (the `enter` is that turn's maneuver, so it moves from its
//! side's next turn on).

use dotc_lang::ast::{self, Compare, Condition, Scenario, Span, UnitKind};
use dotc_lang::diagnostic::Diagnostic;
use dotc_lang::library::{Arm, Cost, MoveState, RuleData};
use serde::Serialize;

use crate::battlefield::Battlefield;
use crate::battlefield::reach::{self, CELL, Grid, MoverKind, NEVER, Row};
use crate::engine::weather::Weather;

/// Units that move alike: their kind and the formation they start in.
type GroupKey = (MoverKind, Option<String>);

/// A battery's word for guns hitched to their limbers, and the key of guns that are not.
const LIMBERED: &str = "limbered";
const UNLIMBERED: &str = "(unlimbered)";

/// The most cells a table is cut into (a 250" x 250" table in 0.5" cells).
const MAX_CELLS: f64 = 250_000.0;

/// How many turns past the last the search goes on, to say how late an unreachable goal is.
const OVERTIME: u32 = 6;

/// A scenario's time-and-motion report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub scenario: String,
    /// The number of turns, the clock time turn 1 begins, minutes a turn, the side of turn 1.
    pub turns: u32,
    pub start: Option<String>,
    pub turn_length: Option<u32>,
    pub first_side: Option<String>,
    /// Each turn: its number, clock time and side.
    pub clock: Vec<TurnClock>,
    /// Inches a side of the search's cells.
    pub cell: f64,
    /// The search's grid, cells west to east and south to north.
    #[serde(skip)]
    pub grid: (usize, usize),
    /// Whether infantry took the Double-Time Advance on every move ([`Depth::double_time`]).
    pub double_time: bool,
    pub forces: Vec<Force>,
    /// The earliest turn any two enemy forces can be in base contact, and which.
    pub first_contact: Option<FirstContact>,
    /// For each side that can attack before the end, in the order of the scenario's sides: the
    /// earliest turn one of its forces can reach an enemy force where that one stands (holding
    /// still at its start or entry point), and which attacks which.
    pub first_attacks: Vec<FirstAttack>,
    pub conditions: Vec<ConditionReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TurnClock {
    pub turn: u32,
    pub time: Option<String>,
    pub side: Option<String>,
}

/// A brigade, or a unit outside any brigade.
#[derive(Clone, Debug, Serialize)]
pub struct Force {
    pub name: String,
    pub side: String,
    /// `brigade`, `regiment`, `battery` or `cavalry`.
    pub kind: String,
    /// When it comes on, for a reinforcement.
    pub arrival: Option<ArrivalReport>,
    /// The turns on which it moves (its side's, after it is on the table), up to the last.
    pub moves: Vec<u32>,
    /// The farthest its weapons hit at their best number (inches): its effective range.
    pub effective_range: f64,
    pub objectives: Vec<Goal>,
    pub enemies: Vec<Meeting>,
    /// The earliest turn it is in base contact with any enemy force.
    pub first_contact: Option<u32>,
    /// The line of its declaration (or its reinforcement line), when the caller fills it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    reach: Vec<u16>,
    /// Its reach in the formations that may fight (not a road column, Ch16 3.2).
    #[serde(skip)]
    deployed: Vec<u16>,
    /// For each cell, the earliest turn from which it can charge there (Ch16 3.1, 7.1).
    #[serde(skip)]
    charges: Vec<u16>,
    /// Its side's turns from its arrival to the search's end (past the last turn).
    #[serde(skip)]
    own_moves: Vec<u16>,
    #[serde(skip)]
    origins: Vec<(f64, f64)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ArrivalReport {
    /// As written: `10:15` or `turn 4`.
    pub written: String,
    /// The turn it is due, and the turn it comes on (its side's first turn from then).
    pub due: Option<u32>,
    pub enters: Option<u32>,
    pub at: (f64, f64),
    pub formation: Option<String>,
}

/// An objective: the earliest turn a Color Stand of the force can be within its holding radius.
#[derive(Clone, Debug, Serialize)]
pub struct Goal {
    pub name: String,
    /// Straight-line inches from the force's nearest unit (at its start or entry point) to the
    /// edge of the objective's holding radius.
    pub distance: f64,
    /// None: not before the last turn.
    pub turn: Option<u32>,
    /// The earliest turn when it is after the last (searched a few turns on), else None.
    pub late: Option<u32>,
}

/// An enemy force: the earliest turn the two can be in base contact, and within effective range.
#[derive(Clone, Debug, Serialize)]
pub struct Meeting {
    pub enemy: String,
    pub contact: Option<u32>,
    /// The earliest turn this force can reach the enemy where it stands (at its start, or at its
    /// entry point once it has come on), the enemy holding still: an attack on a defender.
    pub where_it_stands: Option<u32>,
    /// The range used: the longer of the two forces' effective ranges.
    pub range: f64,
    pub in_range: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FirstContact {
    pub turn: u32,
    pub forces: (String, String),
}

/// A side's first attack on an enemy force holding still: the first of `forces` attacks the
/// second.
#[derive(Clone, Debug, Serialize)]
pub struct FirstAttack {
    pub side: String,
    pub turn: u32,
    pub forces: (String, String),
}

/// One victory condition.
#[derive(Clone, Debug, Serialize)]
pub struct ConditionReport {
    /// The condition as written, shortened.
    pub condition: String,
    /// The side it favours and its level (`confederate decisive`), or `draw`.
    pub outcome: String,
    /// `reachable` (with `turn`), `unreachable` (not before the last turn), or `not-judged`.
    pub status: String,
    pub turn: Option<u32>,
    /// What it needs, in words, with the numbers.
    pub needs: String,
    /// Its line, when the caller fills it in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip)]
    pub span: Span,
}

/// How much [`analyze_with`] works out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Depth {
    /// Inches a side of the search's cells.
    pub cell: f64,
    /// Search a few turns past the last ([`OVERTIME`]) to say how late a goal out of reach is.
    pub overtime: bool,
    /// Work out effective range as well as contact between enemy forces.
    pub ranges: bool,
    /// A table too large for `cell` inches may be searched in larger cells (else it is not
    /// analysed: a warning is never given from coarse cells).
    pub coarsen: bool,
    /// The most work to do: cells searched times forces times turns. A scenario beyond it is
    /// not analysed (None), so no input makes a check slow.
    pub budget: f64,
    /// Infantry in line or column take the Double-Time Advance on every move (Ch16 2.3), a pip
    /// each. Without it (`dotc analyze` and `dotc check` by default), the rules' rates of a formed
    /// advance.
    pub double_time: bool,
}

impl Depth {
    /// Everything: `dotc analyze`.
    pub const FULL: Depth =
        Depth { cell: CELL, overtime: true, ranges: true, coarsen: true, budget: 2.0e9, double_time: false };
    /// What `dotc check`'s warnings need: the same cells, no overtime, no ranges.
    pub const CHECK: Depth = Depth {
        cell: CELL,
        overtime: false,
        ranges: false,
        coarsen: false,
        budget: 5.0e7,
        double_time: false,
    };
}

/// The report of a scenario, None when it has no usable table or clock.
pub fn analyze(scenario: &Scenario, data: &RuleData) -> Option<Report> {
    analyze_with(scenario, data, Depth::FULL)
}

/// [`analyze`] as deep as asked.
pub fn analyze_with(scenario: &Scenario, data: &RuleData, depth: Depth) -> Option<Report> {
    let cell = depth.cell;
    let turns = scenario.turns.as_ref().map(|t| t.value)?;
    if turns == 0 || turns > 400 || scenario.sides.is_empty() {
        return None;
    }
    let bf = Battlefield::from_scenario(scenario, data);
    // A large table is searched in larger cells: never more than MAX_CELLS of them.
    let (w, d) = bf.table?;
    let cell = cell.max((w * d / MAX_CELLS).sqrt());
    if cell > depth.cell && !depth.coarsen {
        return None;
    }
    let forces_count = scenario.sides.iter().map(|s| s.brigades.len() + s.units.len()).sum::<usize>();
    let work = (w * d / (cell * cell)) * forces_count as f64 * f64::from(turns + OVERTIME);
    if work.is_nan() || work > depth.budget {
        return None;
    }
    let grid = Grid::new(&bf, cell)?;
    let rules = crate::engine::setup::rules_for(scenario, data).ok()?;
    let weather = Weather::from_settings(
        scenario
            .rules
            .iter()
            .flat_map(|b| b.weather.iter())
            .map(|w| (w.aspect.value.as_str(), w.condition.value.as_str())),
    );
    let ground =
        if rules.module("weather") { weather.ground.and_then(|g| data.ground(g.id())) } else { None };
    // The rows of each kind of unit and the formation it starts in, built once.
    let mut rows: Vec<(GroupKey, reach::Moves)> = Vec::new();

    let clock = Clock::of(scenario);
    let horizon = if depth.overtime { turns + OVERTIME } else { turns };
    let mut forces = Vec::new();
    for side in &scenario.sides {
        let groups = side
            .brigades
            .iter()
            .map(|b| {
                (b.name.value.clone(), "brigade".to_string(), b.units.iter().collect::<Vec<_>>(), b.span)
            })
            .chain(
                side.units.iter().map(|u| (u.name.value.clone(), u.kind.word().to_string(), vec![u], u.span)),
            );
        for (name, kind, units, span) in groups {
            let arrival = scenario.reinforcements.iter().find(|r| r.name.value == name);
            let placed_report = arrival.map(|r| {
                let due = clock.due(r);
                let enters = due.and_then(|d| clock.first_turn_of(&side.id.value, d, horizon));
                ArrivalReport {
                    written: r.arrival.value.to_string(),
                    due,
                    enters,
                    at: (r.position.value.x, r.position.value.y),
                    formation: r
                        .words
                        .iter()
                        .find(|w| data.formation(&w.value).is_some())
                        .map(|w| w.value.clone()),
                }
            });
            let placed: u32 = match &placed_report {
                Some(a) => match a.enters {
                    Some(t) => t,
                    None => continue,
                },
                None => 0,
            };
            let all_moves: Vec<u16> = (placed + 1..=horizon)
                .filter(|t| clock.side_of(*t) == Some(&side.id.value))
                .map(|t| t as u16)
                .collect();
            let mut total = vec![NEVER; grid.width * grid.height];
            let mut deployed = vec![NEVER; grid.width * grid.height];
            let mut charges = vec![NEVER; grid.width * grid.height];
            let mut origins = Vec::new();
            let mut range: f64 = 0.0;
            // Units that move alike (kind and starting formation) are searched together.
            let mut groups: Vec<(GroupKey, Vec<(f64, f64)>)> = Vec::new();
            for u in &units {
                let formation = match &placed_report {
                    Some(a) if u.kind != UnitKind::Battery => a.formation.clone(),
                    _ => None,
                }
                .or_else(|| {
                    u.words.iter().find(|w| data.formation(&w.value).is_some()).map(|w| w.value.clone())
                });
                // Unlimbered foot guns spend a whole move limbering first (Ch8 2.0, Ch16 3.1:
                // the limbered row's `limber all`): a group of their own, one move later.
                let unlimbered = mover_kind(u) == MoverKind::Battery
                    && !u.words.iter().any(|w| w.value == LIMBERED)
                    && placed_report.is_none()
                    && data
                        .movement_for(Arm::Artillery, None, Some(MoveState::Limbered))
                        .is_some_and(|row| row.limber == Some(Cost::All));
                let formation = if unlimbered { Some(UNLIMBERED.to_string()) } else { formation };
                let key = (mover_kind(u), formation);
                let at = match &placed_report {
                    Some(a) => Some(a.at),
                    None => u.position.as_ref().map(|p| (p.value.x, p.value.y)),
                };
                let Some(at) = at else { continue };
                match groups.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, sources)) => sources.push(at),
                    None => groups.push((key, vec![at])),
                }
            }
            for (key, sources) in groups {
                if !rows.iter().any(|(k, _)| *k == key) {
                    let built = Row::for_unit(
                        &grid,
                        &bf,
                        data,
                        &rules.rulings,
                        ground,
                        depth.double_time,
                        key.0,
                        key.1.as_deref().filter(|f| *f != UNLIMBERED),
                    );
                    rows.push((key.clone(), built));
                }
                let Some((_, group_rows)) = rows.iter().find(|(k, _)| *k == key) else { continue };
                origins.extend(sources.iter().copied());
                let limbering = key.1.as_deref() == Some(UNLIMBERED);
                let moves: &[u16] = if limbering { all_moves.get(1..).unwrap_or(&[]) } else { &all_moves };
                let by_row = reach::reach_by_row(&grid, group_rows, &sources, placed as u16, moves);
                for (row, turns_here) in group_rows.rows.iter().zip(&by_row) {
                    least(&mut total, turns_here);
                    if row.deployed {
                        least(&mut deployed, turns_here);
                    }
                    if let Some(charge) = row.charge {
                        least(
                            &mut charges,
                            &reach::charge_reach(&grid, row, turns_here, charge, horizon as u16),
                        );
                    }
                }
            }
            for u in &units {
                range = range.max(effective_range(u, data));
            }
            if origins.is_empty() {
                continue;
            }
            forces.push(Force {
                name,
                side: side.id.value.clone(),
                kind,
                arrival: placed_report,
                moves: all_moves.iter().map(|t| u32::from(*t)).filter(|t| *t <= turns).collect(),
                effective_range: range,
                objectives: Vec::new(),
                enemies: Vec::new(),
                first_contact: None,
                line: None,
                span: arrival.map_or(span, |r| r.span),
                reach: total,
                deployed,
                charges,
                own_moves: all_moves,
                origins,
            });
        }
    }

    let within_game = |t: u16| (t != NEVER && u32::from(t) <= turns).then_some(u32::from(t));
    let late = |t: u16| (t != NEVER && u32::from(t) > turns).then_some(u32::from(t));
    for force in &mut forces {
        for o in &bf.objectives {
            let t = grid.earliest_near(&force.reach, o.at, o.within);
            let distance = force
                .origins
                .iter()
                .map(|p| ((p.0 - o.at.0).hypot(p.1 - o.at.1) - o.within).max(0.0))
                .fold(f64::INFINITY, f64::min);
            force.objectives.push(Goal {
                name: o.name.clone(),
                distance: round1(distance),
                turn: within_game(t),
                late: late(t),
            });
        }
    }
    let mut first_contact: Option<FirstContact> = None;
    let mut first_attacks: Vec<FirstAttack> = Vec::new();
    // Each force's reach widened by each distance asked, once.
    let mut widened: Widened = std::collections::BTreeMap::new();
    let last = turns as u16;
    for i in 0..forces.len() {
        for j in 0..forces.len() {
            if forces[i].side == forces[j].side {
                continue;
            }
            let range = forces[i].effective_range.max(forces[j].effective_range);
            let (a, b) = (&forces[i], &forces[j]);
            // Base contact, both moving: either force, deployed, meets the other, or charges it.
            let contact = [
                reach::first_together(&a.deployed, wide(&mut widened, &grid, &forces, j, grid.cell, last)),
                reach::first_together(&b.deployed, wide(&mut widened, &grid, &forces, i, grid.cell, last)),
                charge_contact(&mut widened, &grid, &forces, i, j, last),
                charge_contact(&mut widened, &grid, &forces, j, i, last),
            ]
            .into_iter()
            .min()
            .unwrap_or(NEVER);
            let contact = within_game(contact);
            let in_range = if depth.ranges {
                let wide = wide(&mut widened, &grid, &forces, j, range, last);
                let fire = within_game(reach::first_together(&forces[i].deployed, wide));
                [fire, contact].into_iter().flatten().min()
            } else {
                None
            };
            let (a, b) = (&forces[i], &forces[j]);
            let enemy = b.name.clone();
            // The enemy holding still: its places from the turn it is on the table.
            let on = b.arrival.as_ref().and_then(|a| a.enters).unwrap_or(0) as u16;
            let near = |turns: &[u16], radius: f64| {
                b.origins.iter().map(|p| grid.earliest_near(turns, *p, radius)).min().unwrap_or(NEVER)
            };
            let reached = near(&a.deployed, grid.cell);
            let walked = if reached == NEVER { NEVER } else { reached.max(on) };
            // A charge from where it ended a move, on its next move after the enemy is there.
            let charged = match near(&a.charges, grid.cell) {
                NEVER => NEVER,
                t => next_move(&a.own_moves, t.max(on).saturating_add(1)),
            };
            let where_it_stands = within_game(walked.min(charged));
            let side = &forces[i].side;
            if let Some(t) = where_it_stands {
                let attack = FirstAttack {
                    side: side.clone(),
                    turn: t,
                    forces: (forces[i].name.clone(), enemy.clone()),
                };
                match first_attacks.iter_mut().find(|a| a.side == *side) {
                    Some(first) if t < first.turn => *first = attack,
                    Some(_) => {}
                    None => first_attacks.push(attack),
                }
            }
            forces[i].enemies.push(Meeting { enemy, contact, where_it_stands, range, in_range });
            if let Some(t) = contact
                && i < j
                && first_contact.as_ref().is_none_or(|f| t < f.turn)
            {
                first_contact =
                    Some(FirstContact { turn: t, forces: (forces[i].name.clone(), forces[j].name.clone()) });
            }
        }
        forces[i].first_contact = forces[i].enemies.iter().filter_map(|m| m.contact).min();
    }

    let scripted = !scenario.scripts.is_empty() || !scenario.triggers.is_empty();
    let conditions = scenario
        .victory
        .iter()
        .filter(|v| !matches!(v.condition, Condition::Otherwise))
        .map(|v| judge_condition(v, &forces, &bf, &clock, turns, scripted))
        .collect();
    Some(Report {
        scenario: scenario.name.value.clone(),
        turns,
        start: scenario.start.as_ref().map(|s| s.value.to_string()),
        turn_length: scenario.turn_length.as_ref().map(|t| t.value),
        first_side: clock.first.clone(),
        clock: (1..=turns)
            .map(|t| TurnClock { turn: t, time: clock.time_of(t), side: clock.side_of(t).cloned() })
            .collect(),
        cell,
        grid: (grid.width, grid.height),
        double_time: depth.double_time,
        forces,
        first_contact,
        first_attacks,
        conditions,
    })
}

/// Widened reaches by force and the radius's bits.
type Widened = std::collections::BTreeMap<(usize, u64), Vec<u16>>;

/// Force `f`'s reach (in any formation) widened by `radius` for the turns up to `last`, made
/// once.
fn wide<'w>(
    widened: &'w mut Widened,
    grid: &Grid,
    forces: &[Force],
    f: usize,
    radius: f64,
    last: u16,
) -> &'w [u16] {
    widened.entry((f, radius.to_bits())).or_insert_with(|| reach::widen(grid, &forces[f].reach, radius, last))
}

/// The earliest turn force `a` can charge force `b` into contact, both moving (Ch16 3.1, 7.1):
/// `a` ends a move from which a charge reaches a place `b` has reached, then charges on its next
/// move after both are there.
fn charge_contact(
    widened: &mut Widened,
    grid: &Grid,
    forces: &[Force],
    a: usize,
    b: usize,
    last: u16,
) -> u16 {
    let near = wide(widened, grid, forces, b, grid.cell, last);
    forces[a]
        .charges
        .iter()
        .zip(near)
        .filter(|(r, n)| **r != NEVER && **n != NEVER)
        .map(|(r, n)| (*r).max(*n))
        .min()
        .map_or(NEVER, |t| next_move(&forces[a].own_moves, t.saturating_add(1)))
}

/// The first of a force's own moves on or after `turn`, or [`NEVER`].
fn next_move(moves: &[u16], turn: u16) -> u16 {
    moves.iter().copied().find(|m| *m >= turn).unwrap_or(NEVER)
}

/// Lowers each of `into`'s turns to `other`'s where that is earlier.
fn least(into: &mut [u16], other: &[u16]) {
    for (t, o) in into.iter_mut().zip(other) {
        *t = (*t).min(*o);
    }
}

/// The scenario's turns: whose each is and when it begins.
struct Clock<'s> {
    first: Option<String>,
    second: Option<String>,
    scenario: &'s Scenario,
}

impl<'s> Clock<'s> {
    fn of(scenario: &'s Scenario) -> Clock<'s> {
        let first = scenario
            .first_side
            .as_ref()
            .map(|f| f.value.clone())
            .or_else(|| scenario.sides.first().map(|s| s.id.value.clone()));
        let second = scenario.sides.iter().map(|s| s.id.value.clone()).find(|s| Some(s) != first.as_ref());
        Clock { first, second, scenario }
    }

    fn side_of(&self, turn: u32) -> Option<&String> {
        if turn % 2 == 1 { self.first.as_ref() } else { self.second.as_ref().or(self.first.as_ref()) }
    }

    fn time_of(&self, turn: u32) -> Option<String> {
        self.scenario.clock_of_turn(turn).map(|t| t.to_string())
    }

    /// The turn a reinforcement is due (its time falls in it).
    fn due(&self, r: &ast::Reinforcement) -> Option<u32> {
        self.scenario.arrival_turn(r.arrival.value)
    }

    fn first_turn_of(&self, side: &str, from: u32, horizon: u32) -> Option<u32> {
        (from.max(1)..=horizon).find(|t| self.side_of(*t).is_some_and(|s| s == side))
    }
}

fn mover_kind(unit: &ast::Unit) -> MoverKind {
    match unit.kind {
        UnitKind::Regiment => MoverKind::Infantry,
        UnitKind::Cavalry => MoverKind::Cavalry,
        UnitKind::Battery if unit.words.iter().any(|w| w.value == "horse") => MoverKind::HorseBattery,
        UnitKind::Battery => MoverKind::Battery,
    }
}

/// The farthest a unit's weapon hits at its best to-hit number (Ch16 5.2 bands), inches.
fn effective_range(unit: &ast::Unit, data: &RuleData) -> f64 {
    let arm = match unit.kind {
        UnitKind::Regiment => Arm::Infantry,
        UnitKind::Cavalry => Arm::Cavalry,
        UnitKind::Battery => Arm::Artillery,
    };
    let Some(weapon) = unit.words.iter().find_map(|w| data.weapon(&w.value)) else { return 0.0 };
    let bands = weapon.bands_for(arm);
    let Some(best) = bands.iter().map(|b| b.hits).min() else { return 0.0 };
    bands.iter().filter(|b| b.hits == best).map(|b| b.to).fold(0.0, f64::max)
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn judge_condition(
    v: &ast::VictoryCondition,
    forces: &[Force],
    bf: &Battlefield,
    clock: &Clock,
    turns: u32,
    scripted: bool,
) -> ConditionReport {
    let outcome = match &v.level {
        Some(level) => format!("{} {}", v.winner.value, level.value),
        None => v.winner.value.clone(),
    };
    let mut report = ConditionReport {
        condition: String::new(),
        outcome,
        status: "not-judged".into(),
        turn: None,
        needs: String::new(),
        line: None,
        span: v.span,
    };
    let moves_of = |side: &str| (1..=turns).filter(|t| clock.side_of(*t).is_some_and(|s| s == side)).count();
    let set = |report: &mut ConditionReport, turn: Option<u32>| {
        report.status = if turn.is_some() { "reachable".into() } else { "unreachable".into() };
        report.turn = turn;
    };
    match &v.condition {
        Condition::Held { objective, side, for_turns } => {
            let side = &side.value;
            let extra = for_turns.as_ref().map_or(0, |n| n.value.max(1.0) as u32 - 1);
            report.condition = match for_turns {
                Some(n) => format!("objective \"{}\" held_by {side} for {} turns", objective.value, n.value),
                None => format!("objective \"{}\" held_by {side} at_end", objective.value),
            };
            let best = nearest_goal(forces, side, &objective.value);
            let goal = best;
            let Some(o) = bf.objective(&objective.value) else {
                report.needs = format!("no objective \"{}\" on the table", objective.value);
                return report;
            };
            let earliest = best.and_then(|(_, g)| g.turn.or(g.late)).map(|t| t + extra);
            let moves = moves_of(side);
            report.needs = match goal {
                Some((force, g)) => format!(
                    "a {side} Color Stand within {}\" of ({}, {}): {} is nearest, {}\" away, with {moves} {side} moves in {turns} turns; {}",
                    fmt(o.within),
                    fmt(o.at.0),
                    fmt(o.at.1),
                    force.name,
                    fmt(g.distance),
                    match earliest {
                        Some(t) if t <= turns => format!("there at the earliest on turn {t}"),
                        Some(t) => format!("reachable at the earliest on turn {t}, after the last ({turns})"),
                        None => "out of reach before the end".into(),
                    }
                ),
                None => format!("a {side} unit within {}\" of it, and {side} has none", fmt(o.within)),
            };
            set(&mut report, earliest.filter(|t| *t <= turns));
        }
        Condition::BrigadesBroken { side, compare, value } => {
            let side = &side.value;
            report.condition = format!("broken {side} {} {}", compare_word(compare.value), fmt(value.value));
            let Some(needed) = needed_count(compare.value, value.value) else {
                report.needs = "a count this comparison does not ask to reach".into();
                return report;
            };
            // Breaking a brigade takes fighting it: at the earliest, contact.
            let mut contacts: Vec<u32> = forces
                .iter()
                .filter(|f| &f.side == side && f.kind == "brigade")
                .filter_map(|f| f.first_contact)
                .collect();
            contacts.sort_unstable();
            let brigades = forces.iter().filter(|f| &f.side == side && f.kind == "brigade").count();
            let turn = if needed == 0 { Some(1) } else { contacts.get(needed - 1).copied() };
            report.needs = format!(
                "{needed} {side} brigade(s) in contact with the enemy (of {brigades}; {} can be before the end){}",
                contacts.len(),
                match turn {
                    Some(t) => format!(
                        ": {needed} of them in contact by turn {t} at the earliest, to be broken after it"
                    ),
                    None => String::new(),
                }
            );
            set(&mut report, turn);
            if turn.is_none() && scripted {
                // A script may break brigades (or end the game) by other means.
                report.status = "not-judged".into();
                report.needs.push_str("; the scenario's scripts may do it otherwise");
            }
        }
        Condition::VictoryPoints { side, compare, value } => {
            let side = &side.value;
            report.condition = format!("vp {side} {} {}", compare_word(compare.value), fmt(value.value));
            let Some(_) = needed_count(compare.value, value.value) else {
                report.needs = "a total this comparison does not ask to reach".into();
                return report;
            };
            let mut held: Vec<(u32, f64, String)> = bf
                .objectives
                .iter()
                .filter_map(|o| {
                    let best = nearest_goal(forces, side, &o.name);
                    best.and_then(|(_, g)| g.turn).map(|t| (t, o.vp.unwrap_or(0.0), o.name.clone()))
                })
                .collect();
            held.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
            let mut total = 0.0;
            let mut turn = None;
            let mut names = Vec::new();
            for (t, vp, name) in &held {
                if total >= value.value {
                    break;
                }
                total += vp;
                names.push(name.clone());
                turn = Some(*t);
            }
            let met = total >= value.value;
            report.needs = format!(
                "{} VP of objectives held by {side}: {}",
                fmt(value.value),
                if met {
                    format!("{} ({} VP) by turn {}", names.join(", "), fmt(total), turn.unwrap_or(0))
                } else {
                    format!("all it can reach before the end are worth {} VP", fmt(total))
                }
            );
            set(&mut report, if met { turn } else { None });
            if !met && scripted {
                // Scripts may award points (`game.add_vp`) as well as objectives.
                report.status = "not-judged".into();
                report.needs.push_str("; the scenario's scripts may award more");
            }
        }
        Condition::Script(script) => {
            report.condition = format!("when `{}`", shorten(script.code.trim()));
            let winner = &v.winner.value;
            let named: Vec<String> = bf
                .objectives
                .iter()
                .filter(|o| script.code.contains(&o.name))
                .map(|o| {
                    let best = nearest_goal(forces, winner, &o.name);
                    match best.and_then(|(_, g)| g.turn) {
                        Some(t) => format!("\"{}\" reachable by {winner} on turn {t}", o.name),
                        None => format!("\"{}\" not reachable by {winner} before the end", o.name),
                    }
                })
                .collect();
            report.needs = if named.is_empty() {
                "a script: not judged".into()
            } else {
                format!("a script, not judged; it names {}", named.join(", "))
            };
        }
        Condition::Otherwise => {}
    }
    report
}

/// How many (brigades, points) a comparison needs to reach, None for "at most" and "less".
fn needed_count(compare: Compare, value: f64) -> Option<usize> {
    match compare {
        Compare::AtLeast | Compare::Equal => Some(value.max(0.0).ceil() as usize),
        Compare::More => Some(value.max(0.0).floor() as usize + 1),
        Compare::AtMost | Compare::Less => None,
    }
}

fn compare_word(c: Compare) -> &'static str {
    match c {
        Compare::AtLeast => ">=",
        Compare::AtMost => "<=",
        Compare::More => ">",
        Compare::Less => "<",
        Compare::Equal => "==",
    }
}

/// The side's force that reaches the objective first (by turn, then distance).
fn nearest_goal<'f>(forces: &'f [Force], side: &str, objective: &str) -> Option<(&'f Force, &'f Goal)> {
    let key = |g: &Goal| g.turn.or(g.late).unwrap_or(u32::MAX);
    forces
        .iter()
        .filter(|f| f.side == side)
        .filter_map(|f| f.objectives.iter().find(|g| g.name == objective).map(|g| (f, g)))
        .min_by(|a, b| key(a.1).cmp(&key(b.1)).then(a.1.distance.total_cmp(&b.1.distance)))
}

fn fmt(x: f64) -> String {
    let r = round1(x);
    if r.fract() == 0.0 { format!("{r:.0}") } else { format!("{r:.1}") }
}

/// The report as text: the clock, each force, first contact and the victory conditions.
pub fn render_text(report: &Report) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{}: time and motion", report.scenario);
    let _ = writeln!(
        out,
        "{} turns{}{}{}",
        report.turns,
        report.turn_length.map(|l| format!(" of {l} minutes")).unwrap_or_default(),
        report.start.as_ref().map(|s| format!(" from {s}")).unwrap_or_default(),
        report.first_side.as_ref().map(|s| format!("; {s} moves in the odd turns")).unwrap_or_default(),
    );
    let last = report.clock.last().and_then(|c| c.time.clone());
    if let Some(last) = last {
        let _ = writeln!(out, "the last turn, {}, begins at {last}", report.turns);
    }
    let pace = if report.double_time {
        "Double-Time taken by infantry in line or column"
    } else {
        "at the ordinary pace (no Double-Time)"
    };
    let _ = writeln!(
        out,
        "earliest possible turns: no enemy in the way, every unit in command, formations changed at the rule data's prices (a road column deploys before it fights), {pace}, charges counted"
    );
    for force in &report.forces {
        let _ = writeln!(out);
        let _ = writeln!(out, "{} ({}, {})", force.name, force.side, force.kind);
        match &force.arrival {
            Some(a) => {
                let _ = writeln!(
                    out,
                    "  arrives {} at ({}, {}){}: due turn {}, on the table turn {}; {} move(s) left",
                    a.written,
                    fmt(a.at.0),
                    fmt(a.at.1),
                    a.formation.as_ref().map(|f| format!(" in {f}")).unwrap_or_default(),
                    a.due.map_or("?".into(), |t| t.to_string()),
                    a.enters.map_or("?".into(), |t| t.to_string()),
                    force.moves.len()
                );
            }
            None => {
                let _ = writeln!(out, "  on the table at the start; {} move(s)", force.moves.len());
            }
        }
        for g in &force.objectives {
            let when = match (g.turn, g.late) {
                (Some(0), _) => "holds it at the start".to_string(),
                (Some(t), _) => format!("turn {t}"),
                (None, Some(t)) => format!("not before the end (turn {t})"),
                (None, None) => "not before the end".to_string(),
            };
            let _ = writeln!(
                out,
                "  objective {:<32} {:>6}\"  {when}",
                format!("\"{}\"", g.name),
                fmt(g.distance)
            );
        }
        for m in &force.enemies {
            let turn = |t: Option<u32>| t.map_or("-".to_string(), |t| format!("turn {t}"));
            let _ = writeln!(
                out,
                "  vs {:<40} contact {:<8} where it stands {:<8} within {}\" {}",
                m.enemy,
                turn(m.contact),
                turn(m.where_it_stands),
                fmt(m.range),
                turn(m.in_range)
            );
        }
    }
    let _ = writeln!(out);
    match &report.first_contact {
        Some(f) => {
            let _ = writeln!(out, "first contact: turn {}, {} and {}", f.turn, f.forces.0, f.forces.1);
        }
        None => {
            let _ = writeln!(out, "first contact: none possible before the end");
        }
    }
    for a in &report.first_attacks {
        let _ = writeln!(
            out,
            "first {} attack on a force holding still: turn {}, {} on {}",
            a.side, a.turn, a.forces.0, a.forces.1
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "victory conditions:");
    for c in &report.conditions {
        let when = match (c.status.as_str(), c.turn) {
            ("reachable", Some(t)) => format!("can be met from turn {t}"),
            ("unreachable", _) => "cannot be met before the last turn".to_string(),
            _ => "not judged".to_string(),
        };
        let _ = writeln!(out, "  {} => {}: {when}", c.condition, c.outcome);
        let _ = writeln!(out, "    needs {}", c.needs);
    }
    out
}

impl Force {
    /// The earliest turn each cell of the search's grid is reached ([`NEVER`] if not).
    pub fn reach(&self) -> &[u16] {
        &self.reach
    }
}

/// The warnings `dotc check` gives from the report: a victory condition the side it favours
/// cannot meet before the last turn (`dotc::unreachable-victory`), a reinforcement that cannot
/// reach contact with any enemy before the end (`dotc::reinforcement-too-late`).
pub fn warnings(scenario: &Scenario, report: &Report) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for c in report.conditions.iter().filter(|c| c.status == "unreachable") {
        out.push(dotc_lang::catalogue::unreachable_victory(c.span, &c.condition, &c.outcome, &c.needs));
    }
    for r in &scenario.reinforcements {
        let Some(force) = report.forces.iter().find(|f| f.name == r.name.value && f.arrival.is_some()) else {
            continue;
        };
        if force.first_contact.is_some() || force.enemies.is_empty() {
            continue;
        }
        let range = force.enemies.iter().filter_map(|m| m.in_range).min();
        let objectives: Vec<String> =
            force.objectives.iter().filter(|g| g.turn.is_some()).map(|g| format!("\"{}\"", g.name)).collect();
        let mut what = format!(
            "on the table turn {}, with {} move(s) before the end (turn {}), it can come into contact with no enemy force",
            force.arrival.as_ref().and_then(|a| a.enters).unwrap_or(0),
            force.moves.len(),
            report.turns
        );
        if let Some(t) = range {
            what.push_str(&format!("; it can be within effective range of one on turn {t}"));
        }
        if objectives.is_empty() {
            what.push_str("; and no objective");
        } else {
            what.push_str(&format!("; it can reach {}", objectives.join(", ")));
        }
        out.push(dotc_lang::catalogue::reinforcement_too_late(r.span, &r.name.value, &what));
    }
    out
}

#[cfg(test)]
#[path = "analyze_tests.rs"]
mod tests;

/// A script's text cut to a line.
fn shorten(code: &str) -> String {
    let one: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 70 { format!("{}...", one.chars().take(67).collect::<String>()) } else { one }
}

/// Colours of the reach bands, one per move (then repeated).
const BAND_COLOURS: [&str; 8] =
    ["#1b9e77", "#66a61e", "#e6ab02", "#d95f02", "#e7298a", "#7570b3", "#a6761d", "#666666"];

/// An SVG group to lay over a map whose table lies at `page` (see [`crate::render::layout`]):
/// the force's reach, one shaded band per move it makes (the turn written in the band's colour
/// in a key under the table), and an arrow to each reinforcement's entry point with its time.
pub fn overlay_svg(report: &Report, force: &Force, page: crate::render::svg::Page) -> String {
    use std::fmt::Write;
    let (w, h) = report.grid;
    let cell = report.cell;
    let x = |v: f64| page.left + v;
    let y = |v: f64| page.top + page.depth - v;
    let mut out = String::new();
    let _ = write!(out, "<g id=\"reach\" fill-opacity=\"0.35\" stroke=\"none\">");
    let mut levels: Vec<u16> =
        force.reach.iter().copied().filter(|t| *t != NEVER && u32::from(*t) <= report.turns).collect();
    levels.sort_unstable();
    levels.dedup();
    for (n, level) in levels.iter().enumerate() {
        let colour = BAND_COLOURS[n % BAND_COLOURS.len()];
        let _ = write!(out, "<g fill=\"{colour}\" data-turn=\"{level}\">");
        for j in 0..h {
            let mut i = 0;
            while i < w {
                if force.reach.get(j * w + i) != Some(level) {
                    i += 1;
                    continue;
                }
                let from = i;
                while i < w && force.reach.get(j * w + i) == Some(level) {
                    i += 1;
                }
                let _ = write!(
                    out,
                    "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\"/>",
                    x(from as f64 * cell),
                    y((j + 1) as f64 * cell),
                    (i - from) as f64 * cell,
                    cell
                );
            }
        }
        let _ = write!(out, "</g>");
    }
    let _ = write!(out, "</g>");
    // The key: one swatch per band, under the table's scale bar.
    let _ = write!(out, "<g id=\"reach-key\" font-size=\"0.7\">");
    let _ = write!(
        out,
        "<text x=\"{:.2}\" y=\"{:.2}\">{}: earliest reach, by turn</text>",
        page.left,
        page.top + page.depth + 2.45,
        escape(&force.name)
    );
    for (n, level) in levels.iter().enumerate() {
        let colour = BAND_COLOURS[n % BAND_COLOURS.len()];
        let left = page.left + n as f64 * 4.0;
        let _ = write!(
            out,
            "<rect x=\"{left:.2}\" y=\"{:.2}\" width=\"0.8\" height=\"0.6\" fill=\"{colour}\" fill-opacity=\"0.6\"/><text x=\"{:.2}\" y=\"{:.2}\">{}</text>",
            page.top + page.depth + 2.7,
            left + 1.0,
            page.top + page.depth + 3.25,
            if *level == 0 { "start".to_string() } else { format!("turn {level}") }
        );
    }
    let _ = write!(out, "</g>");
    // Arrivals: an arrow from outside the nearest table edge to each entry point.
    let _ = write!(
        out,
        "<defs><marker id=\"reach-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#b22222\"/></marker></defs><g id=\"arrivals\" stroke=\"#b22222\" stroke-width=\"0.25\" font-size=\"0.7\" fill=\"#b22222\">"
    );
    for f in report.forces.iter() {
        let Some(a) = &f.arrival else { continue };
        let (ax, ay) = a.at;
        let edges = [
            (ax, -3.0, ax, 0.0),
            (ax, page.depth + 3.0, ax, page.depth),
            (-3.0, ay, 0.0, ay),
            (page.width + 3.0, ay, page.width, ay),
        ];
        let dist = [ay, page.depth - ay, ax, page.width - ax];
        let k = (0..4).min_by(|p, q| dist[*p].total_cmp(&dist[*q])).unwrap_or(0);
        let (sx, sy) = (edges[k].0 + (ax - edges[k].2), edges[k].1 + (ay - edges[k].3));
        let _ = write!(
            out,
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" marker-end=\"url(#reach-arrow)\"/><text stroke=\"none\" x=\"{:.2}\" y=\"{:.2}\">{} {}</text>",
            x(sx),
            y(sy),
            x(ax),
            y(ay),
            x(sx.clamp(0.0, page.width - 8.0)),
            y(sy) - 0.4,
            escape(&a.written),
            escape(&f.name)
        );
    }
    let _ = write!(out, "</g>");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
