//! One volley of fire (Ch16 5.0-5.7, RULE-05-x), resolved in table order.
//!
//! [`resolve_volley`] takes a firing unit, a target and the facts of the shot the state does not
//! hold (range, cover, smoke in the line of sight, enfilade, ...: [`FireInput`]), plans the volley
//! ([`plan::plan_volley`]: legality, pool, to-hit, Shock, saves, screen, each fact computed once,
//! read also by the odds, the replay's `odds --at` and the language server), rolls the dice
//! against the plan and applies everything the volley does, returning the [`Event`]s and a
//! [`VolleyReport`]:
//!
//! 1. legality (a Broken brigade, a road column, a limbered battery, out of range: refused);
//! 2. the dice pool (RULE-05-2.1, Ch16 3.2, 5.2, 5.3, RULINGS G12, G16);
//! 3. the to-hit number and its modifiers (Ch16 5.6, RULE-05-7.0, RULINGS G1, G11, C13);
//! 4. the to-hit roll (and a Sharpshooters re-roll, Ch16 9.0);
//! 5. Low Ammo (RULE-05-2.5b, RULINGS C14, E2);
//! 6. the firer's bookkeeping: it has fired, its gunsmoke (RULE-05-5.1, RULINGS G11), the target
//!    remembers who shot at it this phase (crossfire, RULINGS G9);
//! 7. Shock (RULE-05-4.1-4.3, Ch16 5.5, RULINGS C3, G9) and a Napoleon's canister Disorder
//!    (Ch16 5.3);
//! 8. cover saves (RULE-05-3.1, 3.2, Ch16 5.4, 5.6, RULINGS C15, C30, G1, G17);
//! 9. the skirmish screen's share (Ch16 3.4, RULINGS G12);
//! 10. casualties (RULE-05-3.3, 3.4, through [`morale::take_hits`]);
//! 11. Seen the Elephant (Ch16 9.0, RULINGS C28, G9);
//! 12. a Spent target's test under fire (Ch16 8.1, RULINGS G9, C5);
//! 13. the attached leader's casualty roll (Ch16 2.4, RULE-07-4.3, RULINGS C9, G18, E5).
//!
//! Every number comes from the rule data, read once by [`super::Tables`] (the pivot's -1, the
//! shaken unit's fall back, Plunging Fire's 5+ included).
//!
//! Judgements (each documented where it is made): the canister Disorder is the volley's one
//! suppression result, so it replaces the Shock save (RULE-05-4.3, RULINGS G9); a target's own
//! screen obscures and absorbs only fire that is not enfilade (Ch16 3.4); "repeaters" for
//! RULINGS C14 are weapons with flat bonus dice; a Steady re-roll is used on the first failed save
//! of the turn; Low Ammo counts the natural 1s as first rolled.

use dotc_lang::library::{CheckCause, CoverClass};

use super::events::{Event, TestKind, What};
use super::morale::{self, Cause};
use super::state::{Arm, GameState, Unit, UnitId};
use super::{EngineError, Rules, roll, transact};
use crate::dice::{DiceSource, Purpose};
use crate::rulings::{FailedDiscipline, LeaderCasualtyTrigger};

pub mod plan;
pub mod solitary;

pub use plan::{VolleyPlan, plan_volley};

/// Which kind of shooting this is: the rules that ask are Hesitant (RULINGS C13), the closing
/// volley modules (Ch13 20.0) and Concentrated Battery Fire (RULINGS C18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireKind {
    /// The active side's Ranged Combat Phase (RULE-05-1.1).
    Phase3,
    /// Reaction 2: Opportunity Fire in the enemy's Phase 2 (Ch16 6.0).
    Opportunity,
    /// Reaction 1: the closing defensive volley at a charger on the 4" line (Ch16 6.0, 7.2).
    Closing,
}

/// The cover the target stands in, as the caller's geometry finds it (Ch16 5.4).
#[derive(Clone, Debug, PartialEq)]
pub struct CoverInput {
    pub class: CoverClass,
    /// The terrain, obstacle or structure id that gives it, if known: its own save is used.
    pub from: Option<String>,
    /// The Light save comes from a linear obstacle on the target's front: enfilade (RULE-05-1.5,
    /// RULINGS C15) and a howitzer's lobbed shells (Ch16 5.3) take it away.
    pub frontal_obstacle: bool,
}

impl CoverInput {
    /// Open ground: no cover.
    pub fn open() -> CoverInput {
        CoverInput { class: CoverClass::None, from: None, frontal_obstacle: false }
    }

    /// The cover of a terrain, obstacle or structure entry.
    pub fn of(class: CoverClass, from: &str, frontal_obstacle: bool) -> CoverInput {
        CoverInput { class, from: Some(from.to_string()), frontal_obstacle }
    }
}

/// The facts of one volley that the state does not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct FireInput {
    /// Inches from the firer to the target (RULINGS G4).
    pub range: f64,
    pub kind: FireKind,
    pub cover: CoverInput,
    /// Sight passes through another unit's gunsmoke (RULE-05-5.2).
    pub smoke: bool,
    /// Firing through its own skirmish screen (RULE-05-6.2).
    pub through_screen: bool,
    /// Enfilade fire (RULE-05-1.5, RULINGS C15 says when it counts).
    pub enfilade: bool,
    /// Fewer stands with a clear line (RULE-05-6.1); None = all its formation lets fire.
    pub firing_stands: Option<u32>,
    /// Concentrated Battery Fire, paid in Phase 1 (RULE-05-2.4, RULINGS C18).
    pub concentrated: bool,
    /// Under Concentrated Battery Fire, the sections of the brigade's other batteries that pour
    /// their dice into this one's barrage (RULE-05-2.4: up to 3 sections in all, the order's
    /// `max_sections`). Ignored without `concentrated`.
    pub extra_sections: u32,
    /// Friction of War "Sudden Squall": pools halved, after bonus dice (Ch13 3.0, RULINGS G16).
    pub squall: bool,
    /// Pivoted or re-formed before firing: -1 (Ch16 5.1).
    pub pivoted: bool,
    /// The firer declines its Sharpshooters re-roll of missed dice: the trait says it *may*
    /// (Ch16 9.0); declined, no die is rolled again.
    pub reroll_declined: bool,
    /// The target declines its Steady re-roll of a failed cover save: the trait says it *may*
    /// (Ch16 9.0, RULINGS C27); declined, the save stands and the re-roll is kept for later.
    pub save_reroll_declined: bool,
    /// A closing volley fired too early by a Green regiment that failed its check (Ch13 10.0,
    /// module `premature_fire`): the `premature_fire` modifier's to-hit.
    pub premature: bool,
}

impl FireInput {
    /// A volley at `range` over open ground with nothing else in play.
    pub fn at(range: f64, kind: FireKind) -> FireInput {
        FireInput {
            range,
            kind,
            cover: CoverInput::open(),
            smoke: false,
            through_screen: false,
            enfilade: false,
            firing_stands: None,
            concentrated: false,
            extra_sections: 0,
            squall: false,
            pivoted: false,
            reroll_declined: false,
            save_reroll_declined: false,
            premature: false,
        }
    }
}

/// What one volley did, besides its events.
#[derive(Clone, Debug, PartialEq)]
pub struct VolleyReport {
    pub events: Vec<Event>,
    /// Dice rolled to hit.
    pub dice: u32,
    /// How the pool was made, in words ([`VolleyPlan::pool`]).
    pub pool: Vec<String>,
    /// The to-hit number after every modifier.
    pub to_hit: i32,
    pub hits: u32,
    /// Natural 6s on the to-hit dice.
    pub sixes: u32,
    /// Hits left after the cover saves (the one a skirmish screen took included).
    pub unsaved: u32,
    /// Stands the target lost to this volley (a screen, a shattered regiment's last stand and a
    /// stand completed by a double-Disorder micro-hit included).
    pub stands_lost: u32,
    /// Stands the target lost to the volley's fire: Shock (a double-Disorder micro-hit), the
    /// screen and the hits, before the follow-up tests (Seen the Elephant, a Spent target's
    /// test, the leader's roll). What [`crate::odds::plan_odds`] gives the distribution of.
    pub stands_lost_to_fire: u32,
    /// The volley made a Shock trigger (RULE-05-4.1, RULINGS C3), ignored or not.
    pub shock_trigger: bool,
    /// Shock or a canister disordered the target (a micro-hit if it already was): the trigger not
    /// ignored and the Discipline save failed, or no save as printed (RULE-05-4.2, Ch16 5.3).
    pub shock_disordered: bool,
    /// The target gained Disorder, or a double-Disorder micro-hit, from this volley.
    pub disordered: bool,
    /// A Disorder marker was placed on the target by this volley: it had none before. A unit
    /// already Disordered takes a micro-hit instead of a second one (RULE-07-3.4), so a log's
    /// `disordered` claim is owed only when this is true.
    pub disorder_placed: bool,
    pub target_removed: bool,
}

/// The Sharpshooters re-roll of a missed to-hit die (Ch16 9.0), in words.
pub const SHARPSHOOTERS_REROLL: &str = "the Sharpshooters re-roll of a missed die";
/// The Steady re-roll of a failed cover save (Ch16 9.0, RULINGS C27), in words.
pub const STEADY_REROLL: &str = "the Steady re-roll of a failed cover save";

/// Resolve one volley: everything or nothing (see [`super::transact`]). A missing die is
/// [`EngineError::Dice`] and leaves the state as it was.
pub fn resolve_volley(
    rules: &Rules,
    state: &mut GameState,
    firer: UnitId,
    target: UnitId,
    input: &FireInput,
    dice: &mut dyn DiceSource,
) -> Result<VolleyReport, EngineError> {
    transact(state, |s| volley_in_place(rules, s, firer, target, input, dice))
}

/// Resolve one volley on `state` directly: plan it, then roll against the plan. On an error part
/// of it may already be applied: call it inside [`super::transact`] (as [`resolve_volley`] does)
/// or on a copy.
pub(crate) fn volley_in_place(
    rules: &Rules,
    state: &mut GameState,
    firer: UnitId,
    target: UnitId,
    input: &FireInput,
    dice: &mut dyn DiceSource,
) -> Result<VolleyReport, EngineError> {
    let plan = plan_volley(rules, state, firer, target, input)?;
    resolve_plan(rules, state, &plan, dice)
}

/// Roll a planned volley's dice and apply what it does (steps 4-13 of the module's list). The
/// plan must have been made on this state, with nothing changed since.
pub(crate) fn resolve_plan(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    dice: &mut dyn DiceSource,
) -> Result<VolleyReport, EngineError> {
    let mut events = plan.notes.clone();
    events.push(Event::new(
        What::Volley {
            firer: plan.firer_name.clone(),
            target: plan.target_name.clone(),
            band: plan.band.word().to_string(),
            range: plan.range,
            dice: plan.dice,
            base: plan.base,
            to_hit: plan.to_hit,
            modifiers: plan.modifiers.clone(),
        },
        "RULE-05-2.1, RULE-05-7.0, Ch16 5.6, RULINGS G1",
    ));
    let ToHitRoll { first_roll, hits, sixes } = roll_to_hit(plan, dice, &mut events)?;
    low_ammo(rules, state, plan, &first_roll, &mut events);
    fouling(rules, state, plan, &first_roll, &mut events);
    firer_bookkeeping(rules, state, plan, &mut events);
    let stands_before = plan.target_state.stands;
    let disordered_before = state.unit(plan.target).is_some_and(|u| u.markers.disorder);
    // RULINGS G9: the leader is the one attached before the volley's casualties.
    let leader = state.attached_leader(plan.target);
    let shock = shock(rules, state, plan, hits, sixes, dice, &mut events)?;
    let to_save = counter_battery(rules, state, plan, hits, sixes, &mut events)?;
    let unsaved = cover_saves(state, plan, to_save, dice, &mut events)?;
    let rest = screen_takes_its_hit(rules, state, plan, unsaved, &mut events)?;
    morale::take_hits(rules, state, plan.target, rest, Cause::Fire, &mut events, "RULE-05-3.3, Ch16 5.4")?;
    let stands_now = |state: &GameState| state.unit(plan.target).map_or(0, |u| u.stands).min(stands_before);
    let stands_lost_to_fire = stands_before - stands_now(state);
    let mut disordered = shock.disordered;
    disordered |= seen_the_elephant(rules, state, plan, unsaved, sixes, dice, &mut events)?;
    disordered |= spent_under_fire(rules, state, plan, dice, &mut events)?;
    let stands_lost = stands_before - stands_now(state);
    disordered |= leader_roll(rules, state, plan, leader, stands_lost, sixes, dice, &mut events)?;
    // The target's stands this volley took are the firer's doing (Ch14 3.0, dotc D35).
    if stands_lost > 0 {
        for e in &mut events {
            if let What::StandsLost { unit, by, .. } = &mut e.what
                && *unit == plan.target_name
            {
                *by = Some(plan.firer_name.clone());
            }
        }
    }
    let target_removed = state.unit(plan.target).is_none_or(|u| u.removed);
    let disorder_placed = !disordered_before && state.unit(plan.target).is_some_and(|u| u.markers.disorder);
    Ok(VolleyReport {
        events,
        dice: plan.dice,
        pool: plan.pool.clone(),
        to_hit: plan.to_hit,
        hits,
        sixes,
        unsaved,
        stands_lost,
        stands_lost_to_fire,
        shock_trigger: shock.trigger,
        shock_disordered: shock.disordered,
        disordered,
        disorder_placed,
        target_removed,
    })
}

/// The stands a volley's fire removes from its target, for every way its dice can fall: with
/// or without Shock disordering it (a second Disorder is a micro-hit, RULE-07-3.4), and for each
/// count of unsaved hits. Worked out by the engine's own steps (Shock's Disorder, the screen's
/// share, the hits with the micro-hit, the shatter and the brigade's reaction to its losses,
/// RULE-05-3.3, 3.4, RULE-07-2.x) on scratch copies of the target's side of the table, so the
/// odds ([`crate::odds::plan_odds`]) need no casualty rules of their own.
/// [`remembered_casualty_table`] keeps the last few per thread.
#[derive(Clone, Debug, PartialEq)]
pub struct CasualtyTable {
    /// The target is gone after Shock's Disorder, before its cover saves: [not disordered,
    /// disordered].
    pub gone_before_saves: [bool; 2],
    /// Stands lost to the fire: `[disordered][unsaved hits]`.
    pub stands_lost: [Vec<u32>; 2],
}

/// The casualty table of a planned volley on this state (see [`CasualtyTable`]).
pub fn casualty_table(
    rules: &Rules,
    state: &GameState,
    plan: &VolleyPlan,
) -> Result<CasualtyTable, EngineError> {
    let scratch = target_side(state, plan.target);
    let before = plan.target_state.stands;
    let lost = |s: &GameState| before - s.unit(plan.target).map_or(0, |u| u.stands).min(before);
    let mut gone_before_saves = [false; 2];
    let mut stands_lost = [Vec::new(), Vec::new()];
    let mut events = Vec::new();
    let mut disordered_side = None;
    for (d, disordered) in [false, true].into_iter().enumerate() {
        // Without Shock's Disorder the side is as the volley finds it: no copy is needed.
        let after_shock = if disordered {
            let mut side = scratch.clone();
            morale::place_disorder(rules, &mut side, plan.target, &mut events, "RULE-05-4.2")?;
            events.clear();
            &*disordered_side.insert(side)
        } else {
            &scratch
        };
        gone_before_saves[d] = !alive(after_shock, plan.target);
        let row = &mut stands_lost[d];
        row.reserve_exact(plan.dice as usize + 1);
        if gone_before_saves[d] {
            // No hits reach a target that is gone (RULE-05-3.4): every count loses what the
            // Disorder's micro-hit took.
            row.resize(plan.dice as usize + 1, lost(after_shock));
            continue;
        }
        for unsaved in 0..=plan.dice {
            let mut s = after_shock.clone();
            let rest = screen_takes_its_hit(rules, &mut s, plan, unsaved, &mut events)?;
            morale::take_hits(rules, &mut s, plan.target, rest, Cause::Fire, &mut events, "RULE-05-3.3")?;
            row.push(lost(&s));
            events.clear();
        }
    }
    Ok(CasualtyTable { gone_before_saves, stands_lost })
}

/// The part of the table a volley's casualties can touch: the target's brigade and its units
/// (a brigade that breaks disorders them all, RULE-07-2.4), the sides and the leaders; every
/// other unit is an empty stand-in, so the copy is cheap whatever the size of the battle.
fn target_side(state: &GameState, target: UnitId) -> GameState {
    let units = state
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| if kept_in_side(state, target, i) { u.clone() } else { stand_in(u) })
        .collect();
    GameState {
        turn: state.turn,
        sides: state.sides.clone(),
        brigades: state.brigades.clone(),
        leaders: state.leaders.clone(),
        units,
        weather: state.weather,
        // What became of captured guns (Ch13 15.0) no volley's casualties read.
        guns: Vec::new(),
        // A casualty may wound a brigadier at the front (Ch13 3.0).
        friction: state.friction,
        // No volley's casualties read the waves (Ch13 23.0): the replay applies the stray hits.
        waves: Vec::new(),
        // Nor the blinds (Ch13 4.0): a hidden unit is no target.
        blinds: Vec::new(),
        // The casualties read the brigade's state before Phase 4 as the volley does (dotc D51).
        ahead_of_phase_four: state.ahead_of_phase_four,
    }
}

/// Whether [`target_side`] keeps unit `i` as it is: the target and the units of its brigade.
fn kept_in_side(state: &GameState, target: UnitId, i: usize) -> bool {
    let brigade = state.unit(target).and_then(|u| u.brigade);
    i == target.0 || (brigade.is_some() && state.units.get(i).is_some_and(|u| u.brigade == brigade))
}

/// What [`target_side`] leaves of a unit outside the target's brigade: an empty unit of its side,
/// off the table (no strings, so no allocation).
fn stand_in(u: &Unit) -> Unit {
    let mut empty = Unit::new("", u.side, Arm::Infantry, 0, "", "", "");
    empty.removed = true;
    empty
}

/// Whether `side`, made by [`target_side`] with `kept` its [`kept_in_side`] answers, is
/// [`target_side`] of `state` and `target`, compared in place (nothing is copied). A unit kept in
/// one and not in the other counts as a difference (at worst a table worked out again). A
/// stand-in is compared by its side alone, the one thing [`stand_in`] takes from its unit, so
/// no empty names are compared (a compare of two empty strings is slow on some machines).
fn is_target_side(side: &GameState, kept: &[bool], state: &GameState, target: UnitId) -> bool {
    side.turn == state.turn
        && side.weather == state.weather
        && side.units.len() == state.units.len()
        && kept.len() == state.units.len()
        && side.sides == state.sides
        && side.brigades == state.brigades
        && side.leaders == state.leaders
        && state.units.iter().zip(&side.units).zip(kept).enumerate().all(|(i, ((u, then), &was_kept))| {
            let keep = kept_in_side(state, target, i);
            keep == was_kept && if keep { u == then } else { u.side == then.side }
        })
}

/// A casualty table kept with everything [`casualty_table`] read to make it: the rules (the
/// rule data and its tables by identity, the rulings, the modules), the target's side of the
/// table ([`target_side`]) and the plan's target, dice and screen.
struct Remembered {
    /// Held weakly: the entry keeps no rule data alive, and the allocation it points to cannot
    /// be reused by other rule data while the entry exists, so the pointer names this data.
    data: std::sync::Weak<dotc_lang::library::RuleData>,
    tables: std::sync::Weak<super::Tables>,
    rulings: crate::rulings::Rulings,
    modules: std::collections::BTreeSet<String>,
    side: GameState,
    /// Which units [`target_side`] kept as they were.
    kept: Vec<bool>,
    target: UnitId,
    target_name: String,
    stands: u32,
    dice: u32,
    screen: Option<plan::ScreenPlan>,
    table: std::rc::Rc<CasualtyTable>,
}

impl Remembered {
    fn matches(&self, rules: &Rules, state: &GameState, plan: &VolleyPlan) -> bool {
        std::ptr::eq(self.data.as_ptr(), std::sync::Arc::as_ptr(&rules.data))
            && std::ptr::eq(self.tables.as_ptr(), std::sync::Arc::as_ptr(&rules.tables))
            && self.rulings == rules.rulings
            && self.modules == rules.modules
            && self.target == plan.target
            && self.dice == plan.dice
            && self.stands == plan.target_state.stands
            && self.screen == plan.screen
            && self.target_name == plan.target_name
            && is_target_side(&self.side, &self.kept, state, plan.target)
    }
}

/// How many casualty tables each thread remembers (the oldest is forgotten first).
const REMEMBERED_TABLES: usize = 16;

thread_local! {
    static REMEMBERED: std::cell::RefCell<Vec<Remembered>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Forget this thread's remembered casualty tables ([`remembered_casualty_table`]): the next
/// volley's is worked out afresh. For benchmarks and tests that want the work, not the memory.
pub fn forget_remembered_casualty_tables() {
    REMEMBERED.with_borrow_mut(Vec::clear);
}

/// [`casualty_table`], remembered: the same table for the same rules, the same side of the
/// table ([`target_side`]) and the same target, dice and screen, worked out by the engine's
/// casualty steps (RULE-05-3.3, 3.4, RULE-07-2.x, RULE-07-3.4, Ch16 3.4) the first time and read
/// back after that. Each thread keeps the last few; a table that errs is not kept.
pub fn remembered_casualty_table(
    rules: &Rules,
    state: &GameState,
    plan: &VolleyPlan,
) -> Result<std::rc::Rc<CasualtyTable>, EngineError> {
    let found = REMEMBERED.with_borrow(|kept| {
        kept.iter().find(|r| r.matches(rules, state, plan)).map(|r| std::rc::Rc::clone(&r.table))
    });
    if let Some(table) = found {
        return Ok(table);
    }
    let table = std::rc::Rc::new(casualty_table(rules, state, plan)?);
    let entry = Remembered {
        data: std::sync::Arc::downgrade(&rules.data),
        tables: std::sync::Arc::downgrade(&rules.tables),
        rulings: rules.rulings,
        modules: rules.modules.clone(),
        side: target_side(state, plan.target),
        kept: (0..state.units.len()).map(|i| kept_in_side(state, plan.target, i)).collect(),
        target: plan.target,
        target_name: plan.target_name.clone(),
        stands: plan.target_state.stands,
        dice: plan.dice,
        screen: plan.screen,
        table: std::rc::Rc::clone(&table),
    };
    REMEMBERED.with_borrow_mut(|kept| {
        // Entries whose rule data is gone can never match again.
        kept.retain(|r| r.data.strong_count() > 0);
        if kept.len() >= REMEMBERED_TABLES {
            kept.remove(0);
        }
        kept.push(entry);
    });
    Ok(table)
}

/// The to-hit dice as rolled (and re-rolled).
struct ToHitRoll {
    /// The faces as first rolled (Low Ammo counts these, RULINGS C14).
    first_roll: Vec<u8>,
    hits: u32,
    sixes: u32,
}

/// Step 4, the to-hit roll (RULE-05-2.1-2.3), with a Sharpshooters re-roll of the lowest missed
/// die as many times as the plan allows (Ch16 9.0).
fn roll_to_hit(
    plan: &VolleyPlan,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<ToHitRoll, EngineError> {
    let to_hit = plan.to_hit;
    let mut faces = roll(dice, Purpose::ToHit, plan.dice as usize, events, "RULE-05-2.1, 2.2, 2.3")?;
    let first_roll = faces.clone();
    for _ in 0..plan.rerolls {
        // The lowest missed die (any missed die has the same chance).
        let Some(i) = (0..faces.len()).filter(|&i| i32::from(faces[i]) < to_hit).min_by_key(|&i| faces[i])
        else {
            break;
        };
        let to = super::roll_for(dice, Purpose::ToHit, 1, events, SHARPSHOOTERS_REROLL, "Ch16 9.0")?
            .first()
            .copied()
            .unwrap_or(1);
        events
            .push(Event::new(What::Reroll { unit: plan.firer_name.clone(), from: faces[i], to }, "Ch16 9.0"));
        faces[i] = to;
    }
    let hits = u32::try_from(faces.iter().filter(|&&d| i32::from(d) >= to_hit).count()).unwrap_or(0);
    let sixes = u32::try_from(faces.iter().filter(|&&d| d == 6).count()).unwrap_or(0);
    events.push(Event::new(
        What::Hits { firer: plan.firer_name.clone(), faces, to_hit, hits, sixes },
        "RULE-05-2.2, 2.3, RULE-05-4.3, RULINGS G1",
    ));
    Ok(ToHitRoll { first_roll, hits, sixes })
}

/// Step 5, Low Ammo (RULE-05-2.5b, Ch16 11.0, RULINGS C14): two or more natural 1s in one
/// volley, as first rolled.
fn low_ammo(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    first_roll: &[u8],
    events: &mut Vec<Event>,
) {
    let Some(trigger) = plan.low_ammo_at else { return };
    let ones = natural_ones(first_roll);
    if ones >= trigger && !plan.low_ammo_carried {
        if let Some(u) = state.unit_mut(plan.firer) {
            u.markers.low_ammo = true;
        }
        events.push(Event::new(
            What::MarkerPlaced {
                unit: plan.firer_name.clone(),
                marker: rules.tables.low_ammo.meta.title().to_string(),
            },
            "RULE-05-2.5b, Ch16 11.0, RULINGS C14",
        ));
    } else if ones > 0 && ones < trigger {
        // RULINGS E2: a single 1 is not enough.
        events.push(Event::new(
            What::Note {
                text: format!("{}: {ones} natural 1 of the {trigger} that give Low Ammo", plan.firer_name),
            },
            LOW_AMMO_NOT_YET,
        ));
    }
}

/// The rule of the note that a volley's natural 1s were too few for Low Ammo (RULE-05-2.5b,
/// RULINGS E2): something that did not happen, which the story leaves to the rules trace.
pub const LOW_AMMO_NOT_YET: &str = "RULE-05-2.5b, RULINGS E2";

/// The natural 1s of a volley as first rolled (re-rolls neither add nor take any away), which
/// Low Ammo (RULE-05-2.5b) and fouled powder (Ch13 21.0) count.
fn natural_ones(first_roll: &[u8]) -> u32 {
    u32::try_from(first_roll.iter().filter(|&&d| d == 1).count()).unwrap_or(0)
}

/// Step 5b, fouled powder (Ch13 21.0, module weather, dotc D18): in drizzle two or more natural
/// 1s in one volley (as first rolled), in a downpour one, foul the firer's powder: a Fouled
/// marker, -1 to hit until a pip clears it. A unit already fouled gets no second marker.
fn fouling(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    first_roll: &[u8],
    events: &mut Vec<Event>,
) {
    let Some(trigger) = state.weather.fouls_on_ones(&rules.tables) else { return };
    let ones = natural_ones(first_roll);
    let Some(u) = state.unit_mut(plan.firer) else { return };
    if ones >= trigger && !u.markers.fouled {
        u.markers.fouled = true;
        events.push(Event::new(
            What::MarkerPlaced {
                unit: plan.firer_name.clone(),
                marker: rules.tables.fouled.meta.title().to_string(),
            },
            "Ch13 21.0, dotc D18",
        ));
    }
}

/// Step 6, the firer's bookkeeping: it has fired, Clean Barrels goes (Ch13 2.0), its gunsmoke
/// (RULE-05-5.1, Ch16 5.7, RULINGS G11), and the target remembers who shot at it this phase
/// (crossfire, RULINGS G9).
fn firer_bookkeeping(rules: &Rules, state: &mut GameState, plan: &VolleyPlan, events: &mut Vec<Event>) {
    if let Some(u) = state.unit_mut(plan.firer) {
        u.turn.fired = true;
        if plan.clean_barrels {
            u.markers.clean_barrels = false;
            events.push(Event::new(
                What::MarkerRemoved {
                    unit: plan.firer_name.clone(),
                    marker: rules.tables.clean_barrels.meta.title().to_string(),
                },
                "Ch13 2.0",
            ));
        }
        // A stationary regiment or unlimbered battery that fires (a closing volley too) places
        // smoke; one marker at most. A unit that fires is stationary by the eligibility rules
        // (RULE-05-1.2), so every volley of one does.
        if plan.smokes && !u.markers.gunsmoke {
            u.markers.gunsmoke = true;
            events.push(Event::new(
                What::MarkerPlaced {
                    unit: plan.firer_name.clone(),
                    marker: rules.tables.gunsmoke.meta.title().to_string(),
                },
                "RULE-05-5.1, Ch16 5.7, RULINGS G11",
            ));
        }
    }
    if let Some(u) = state.unit_mut(plan.target) {
        if !u.turn.fired_on_by.contains(&plan.firer) {
            u.turn.fired_on_by.push(plan.firer);
        }
    }
}

/// What Shock did to the target.
struct ShockOutcome {
    trigger: bool,
    disordered: bool,
}

/// Step 7, Shock (RULE-05-4.1-4.3, Ch16 5.5, RULINGS C3, G9) and a Napoleon's canister
/// (Ch16 5.3). The canister Disorder is the volley's one suppression result, so it takes the
/// place of a Shock save (RULE-05-4.3: no second save; judgement); Iron Discipline does not stop
/// it (RULINGS G9).
fn shock(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    hits: u32,
    sixes: u32,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<ShockOutcome, EngineError> {
    let target = plan.target;
    let name = &plan.target_name;
    let needed = plan.shock.sixes_needed;
    let trigger = needed > 0 && sixes >= needed;
    if trigger {
        events.push(Event::new(What::ShockTrigger { target: name.clone(), sixes, needed }, plan.shock.rule));
    }
    if plan.shock.canister && hits >= 1 {
        if trigger {
            events.push(Event::new(
                What::Note { text: format!("{name}: no Shock save, the canister disorders it already") },
                "Ch16 5.3, RULE-05-4.3, RULINGS G9",
            ));
        }
        morale::place_disorder(rules, state, target, events, "Ch16 5.3, RULINGS G9")?;
        return Ok(ShockOutcome { trigger, disordered: true });
    }
    if !trigger {
        return Ok(ShockOutcome { trigger, disordered: false });
    }
    // Ch16 9.0 Iron Discipline: the first Shock result of each turn does nothing.
    if let Some(because) = &plan.shock.ignored_by {
        if let Some(u) = state.unit_mut(target) {
            u.turn.shock_ignored = true;
        }
        events.push(Event::new(
            What::ShockIgnored { target: name.clone(), because: because.clone() },
            "Ch16 9.0, RULINGS G9",
        ));
        return Ok(ShockOutcome { trigger, disordered: false });
    }
    match &plan.shock.save {
        // RULE-05-4.2, Ch16 5.5: the Discipline save and the disorder marker's modifiers.
        Some(save) => {
            let passed = morale::check_roll(
                name.clone(),
                TestKind::ShockSave,
                save.base,
                save.modifiers.clone(),
                save.advantage,
                dice,
                events,
                "RULE-05-4.2, Ch16 5.5",
            )?;
            if !passed {
                failed_check(rules, state, target, events, "RULE-05-4.2, Ch16 5.5")?;
            }
            Ok(ShockOutcome { trigger, disordered: !passed })
        }
        // As printed (Ch15 3.0, RULINGS C3): Disorder, no save.
        None => {
            morale::place_disorder(rules, state, target, events, "Ch15 3.0, RULINGS C3")?;
            Ok(ShockOutcome { trigger, disordered: true })
        }
    }
}

/// The natural 6s of a volley that destroy a gun stand each under counter-battery fire (Ch13
/// 7.0, dotc D10): the 6s that hit (a 6 misses only when the to-hit number is past 6, RULINGS G1
/// `unclamped`). The one count the engine and the odds share.
pub fn counter_battery_sixes(plan: &VolleyPlan, sixes: u32) -> u32 {
    if plan.counter_battery && plan.to_hit <= 6 { sixes } else { 0 }
}

/// Step 7b, counter-battery fire (Ch13 7.0, module `advanced_artillery`, dotc D10): each natural
/// 6 that hits an enemy battery destroys a gun stand outright, with no save (on the brigade's
/// tally like any lost stand); those 6s are not among the hits that go on to the cover saves.
/// Returns the hits left for the saves.
fn counter_battery(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    hits: u32,
    sixes: u32,
    events: &mut Vec<Event>,
) -> Result<u32, EngineError> {
    let direct = counter_battery_sixes(plan, sixes);
    if direct == 0 {
        return Ok(hits);
    }
    events.push(Event::new(
        What::Note {
            text: format!(
                "counter-battery fire: {direct} natural 6{} destroy{} {} of {}'s gun stands outright",
                if direct == 1 { "" } else { "s" },
                if direct == 1 { "s" } else { "" },
                direct,
                plan.target_name
            ),
        },
        "Ch13 7.0, dotc D10",
    ));
    morale::remove_stands(rules, state, plan.target, direct, events, "Ch13 7.0, dotc D10")?;
    Ok(hits.saturating_sub(direct))
}

/// Step 8, the cover saves (RULE-05-3.1, 3.2, Ch16 5.4, 5.6, RULINGS G1) at the plan's number,
/// with a Steady re-roll of the first failed save (Ch16 9.0, RULINGS C27). Returns the hits left.
fn cover_saves(
    state: &mut GameState,
    plan: &VolleyPlan,
    hits: u32,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<u32, EngineError> {
    let name = &plan.target_name;
    // A regiment a double-Disorder micro-hit has just shattered (RULE-07-3.4, RULE-05-3.4) has
    // no one left to save or to lose.
    let hits_in = if state.unit(plan.target).is_some_and(|u| !u.removed) { hits } else { 0 };
    if hits_in < hits {
        events.push(Event::new(
            What::Note { text: format!("{name} is gone before its cover saves") },
            "RULE-05-3.4",
        ));
    }
    if hits_in == 0 {
        return Ok(0);
    }
    let save = &plan.save;
    let Some(s) = save.save else {
        events.push(Event::new(
            What::NoSave { unit: name.clone(), hits: hits_in, because: save.none_because.clone() },
            "RULE-05-3.2, Ch16 5.4, 5.6",
        ));
        return Ok(hits_in);
    };
    // RULINGS G1: a save pushed past 6+ is lost.
    if s > 6 {
        let list: Vec<String> = save.modifiers.iter().map(|m| format!("{} {:+}", m.name, m.value)).collect();
        events.push(Event::new(
            What::NoSave {
                unit: name.clone(),
                hits: hits_in,
                because: format!("its save is pushed past 6+ ({})", list.join(", ")),
            },
            "Ch16 5.6, RULINGS G1",
        ));
        return Ok(hits_in);
    }
    let mut faces = roll(dice, Purpose::Save, hits_in as usize, events, "RULE-05-3.1, Ch16 5.4")?;
    if save.steady {
        if let Some(i) = (0..faces.len()).find(|&i| i32::from(faces[i]) < s) {
            let to = super::roll_for(dice, Purpose::Save, 1, events, STEADY_REROLL, "Ch16 9.0, RULINGS C27")?
                .first()
                .copied()
                .unwrap_or(1);
            events.push(Event::new(
                What::Reroll { unit: name.clone(), from: faces[i], to },
                "Ch16 9.0, RULINGS C27",
            ));
            faces[i] = to;
            if let Some(u) = state.unit_mut(plan.target) {
                u.turn.save_rerolled = true;
            }
        }
    }
    let saved = u32::try_from(faces.iter().filter(|&&d| i32::from(d) >= s).count()).unwrap_or(0);
    let unsaved = hits_in - saved;
    events.push(Event::new(
        What::Saves { unit: name.clone(), save: s, modifiers: save.modifiers.clone(), faces, saved, unsaved },
        "RULE-05-3.1, 3.2, Ch16 5.4, 5.6, RULINGS G1",
    ));
    Ok(unsaved)
}

/// Step 9, the skirmish screen (Ch16 3.4, RULINGS G12): the first unsaved hit of the volley goes
/// to the screen; at its hit limit it is gone, and that is a stand lost by the parent (on the
/// tally too). Returns the hits left for the parent.
fn screen_takes_its_hit(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    unsaved: u32,
    events: &mut Vec<Event>,
) -> Result<u32, EngineError> {
    let Some(screen) = plan.screen.filter(|_| unsaved > 0) else { return Ok(unsaved) };
    let mut removed = false;
    if let Some(u) = state.unit_mut(plan.target) {
        u.turn.shot_casualties = true;
        if let Some(s) = u.screen.as_mut() {
            s.hits += 1;
            removed = s.hits >= screen.limit;
            events.push(Event::new(
                What::ScreenHit { unit: plan.target_name.clone(), hits: s.hits, removed },
                "Ch16 3.4, RULINGS G12",
            ));
        }
        if removed {
            u.screen = None;
        }
    }
    if removed {
        morale::remove_stands(rules, state, plan.target, 1, events, "Ch16 3.4, RULINGS G12, G5")?;
    }
    Ok(unsaved - 1)
}

/// Whether the target is still on the table.
fn alive(state: &GameState, unit: UnitId) -> bool {
    state.unit(unit).is_some_and(|u| !u.removed)
}

/// Step 11, Seen the Elephant (Ch16 9.0, RULINGS C28, G9): the first time fire leaves an unsaved
/// hit or shows a natural 6, a separate Discipline check at the trait's number; failing
/// disorders and halts it. Judged on the state after the casualties. Returns whether it
/// disordered the target.
#[allow(clippy::too_many_arguments)]
fn seen_the_elephant(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    unsaved: u32,
    sixes: u32,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<bool, EngineError> {
    let target = plan.target;
    let Some(t) = state.unit(target).filter(|u| !u.removed && !u.elephant_seen) else { return Ok(false) };
    if unsaved == 0 && sixes == 0 {
        return Ok(false);
    }
    let elephant = t
        .traits
        .iter()
        .filter_map(|id| rules.trait_def(id))
        .find_map(|tr| tr.first_fire_check.map(|n| (tr, n)));
    let Some((tr, n)) = elephant else { return Ok(false) };
    let halts = tr.halts_on_fail;
    if let Some(u) = state.unit_mut(target) {
        u.elephant_seen = true;
    }
    let cause = (plan.kind == FireKind::Closing).then_some(CheckCause::ClosingVolley);
    let mods = morale::standing_discipline_modifiers(rules, state, target, cause);
    let base = i32::try_from(n).unwrap_or(6);
    // Ch13 17.0: a charger under Desperate Valor tests with Advantage.
    let advantage = plan.kind == FireKind::Closing && morale::valor_advantage(rules, state, target);
    let passed = morale::check_roll(
        plan.target_name.clone(),
        TestKind::SeenTheElephant,
        base,
        mods,
        advantage,
        dice,
        events,
        "Ch16 9.0, RULINGS C28, G9",
    )?;
    if passed {
        return Ok(false);
    }
    failed_check(rules, state, target, events, "Ch16 9.0, RULINGS C28")?;
    if halts {
        events.push(Event::new(
            What::Note {
                text: format!("{} halts: no forward move for the rest of the turn", plan.target_name),
            },
            "Ch16 9.0",
        ));
    }
    Ok(true)
}

/// Step 12, a Spent target's test under fire (Ch16 8.1, RULE-07-1.4, RULINGS G9, C5): a unit
/// Spent before the volley tests once per volley, hits or not; failing it falls back 3" with
/// Disorder (RULE-07-1.5), or a charger stalls short. Returns whether it disordered the target.
fn spent_under_fire(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<bool, EngineError> {
    let tests_under_fire =
        plan.target_state.health.and_then(|h| rules.data.health(h.id())).is_some_and(|h| h.tests_under_fire);
    if !tests_under_fire || !alive(state, plan.target) {
        return Ok(false);
    }
    let cause = (plan.kind == FireKind::Closing).then_some(CheckCause::ClosingVolley);
    let (base, modifiers) = morale::discipline_terms(rules, state, plan.target, cause, Vec::new())?;
    // Ch13 17.0: a charger under Desperate Valor tests with Advantage.
    let advantage = plan.kind == FireKind::Closing && morale::valor_advantage(rules, state, plan.target);
    let passed = morale::check_roll(
        plan.target_name.clone(),
        TestKind::SpentUnderFire,
        base,
        modifiers,
        advantage,
        dice,
        events,
        "Ch16 8.1, RULE-07-1.4, RULINGS G9",
    )?;
    if passed {
        return Ok(false);
    }
    // RULE-07-1.5: a charger (the target of a closing volley) stalls short instead of falling
    // back; the assault stops there.
    let what = if plan.kind == FireKind::Closing {
        What::Stalled { unit: plan.target_name.clone(), inches: rules.tables.stall }
    } else {
        What::FallBack { unit: plan.target_name.clone(), inches: rules.tables.shaken_fall_back }
    };
    events.push(Event::new(what, "RULE-07-1.5, RULINGS C5"));
    morale::place_disorder(rules, state, plan.target, events, "RULE-07-1.5, RULINGS C5")?;
    Ok(true)
}

/// Step 13, the attached leader (Ch16 2.4, RULE-07-4.3, RULINGS C9, G18): one roll per volley
/// when it cost the regiment a stand or showed a natural 6; the leader was found before the
/// casualties, so a shattered regiment's leader still rolls (RULINGS E5). Returns whether his
/// fall disordered the regiment.
#[allow(clippy::too_many_arguments)]
fn leader_roll(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    leader: Option<super::state::LeaderId>,
    stands_lost: u32,
    sixes: u32,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<bool, EngineError> {
    let Some(l) = leader else { return Ok(false) };
    if rules.rulings.leader_casualty != LeaderCasualtyTrigger::FireOrMelee || (stands_lost == 0 && sixes == 0)
    {
        return Ok(false);
    }
    let from = events.len();
    morale::leader_casualty(rules, state, l, dice, events)?;
    let killed_disorders = events[from..].iter().any(|e| match &e.what {
        What::LeaderCasualty { rolled, .. } => {
            rules.tables.leader_result(*rolled).is_some_and(|r| r.disorders_unit)
        }
        _ => false,
    });
    Ok(killed_disorders && alive(state, plan.target))
}

/// A failed Discipline check from fire: Disorder (a micro-hit if already disordered), and under
/// RULINGS C5 `fall_back` also the 3" fall back of RULE-07-1.5.
fn failed_check(
    rules: &Rules,
    state: &mut GameState,
    target: UnitId,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<(), EngineError> {
    if rules.rulings.failed_discipline == FailedDiscipline::FallBack {
        let name = state.unit(target).map(|u| u.name.clone()).unwrap_or_default();
        events.push(Event::new(
            What::FallBack { unit: name, inches: rules.tables.shaken_fall_back },
            "RULE-07-1.5, RULINGS C5",
        ));
    }
    morale::place_disorder(rules, state, target, events, rule)
}

#[cfg(test)]
mod tests;
