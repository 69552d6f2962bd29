//! Fire at a target that is not a whole unit: a solitary brigadier (RULE-07-4.5, dotc D3) and a
//! regiment's detached skirmish screen (Ch16 3.4, RULINGS G12).
//!
//! The volley is planned as every volley is ([`plan_volley`]: the firer's pool, its band at the
//! range, every to-hit modifier), at a one-stand stand-in for the target on a scratch copy of the
//! table, so no rule of the plan is written twice: a brigadier's stand-in stands in line, a
//! screen's in skirmish order with its parent's quality and traits. The dice are then rolled and
//! the firer's part applied as for any volley (steps 4-6 of [`super`]); what the hits do is the
//! target's own:
//!
//! - a solitary brigadier takes no cover save and has no Discipline to test; the volley calls one
//!   roll on the leader casualty table (Ch16 2.4, RULINGS G18) when it scores any hit, or only
//!   a natural 6 (dotc D3, `solitary_brigadier_hit`);
//! - a screen takes no save (RULINGS G12); each hit counts against its limit (the skirmish
//!   formation's `screen` entry: 2 hits), hits beyond it are lost, and at the limit it is gone,
//!   a stand lost by its parent and tallied by the brigade (RULINGS G5, G12). No Shock test
//!   (judgement: the parent's colours are not under this fire) and no leader roll (an attached
//!   leader stands with the colours, not the screen).
//! - horse holders (module `horse_holders`, Ch13 6.0, dotc D24) take no save; each hit counts
//!   against the stand's two (the `micro_hit` marker's `hits_per_stand`, RULE-05-3.3), and at
//!   two the holders are lost as if captured (the engine's `capture_horse_holders`): the stand
//!   gone off the brigade clock, and the regiment never to remount. No Shock test and no leader
//!   roll, as for a screen.

use super::plan::skirmish_screen;
use super::{FireInput, VolleyPlan, firer_bookkeeping, low_ammo, plan_volley, roll_to_hit};
use crate::dice::DiceSource;
use crate::engine::events::{Event, What};
use crate::engine::morale;
use crate::engine::state::{Arm, GameState, LeaderId, LeaderRank, Unit, UnitId};
use crate::engine::{EngineError, Rules, transact};
use crate::rulings::SolitaryBrigadierHit;

/// The module of Ch13 6.0.
const HORSE_HOLDERS: &str = dotc_lang::rulings::Module::HorseHolders.name();

/// What a volley at a brigadier or a screen did, besides its events.
#[derive(Clone, Debug, PartialEq)]
pub struct SideVolleyReport {
    pub events: Vec<Event>,
    /// Dice rolled to hit, and how the pool was made, in words.
    pub dice: u32,
    pub pool: Vec<String>,
    pub to_hit: i32,
    pub hits: u32,
    pub sixes: u32,
    /// The leader casualty roll the volley called, and whether it took him off the table.
    pub leader_roll: Option<u8>,
    pub leader_removed: bool,
    /// The screen's hits after the volley (its limit when it is gone), and whether it went.
    pub screen_hits: u32,
    pub screen_removed: bool,
    /// Stands the parent lost (its screen, at the limit; its horse holders).
    pub stands_lost: u32,
    /// The volley took the horse holders (Ch13 6.0, dotc D24).
    pub holders_lost: bool,
}

impl SideVolleyReport {
    fn new(plan: &VolleyPlan, events: Vec<Event>, hits: u32, sixes: u32) -> SideVolleyReport {
        SideVolleyReport {
            events,
            dice: plan.dice,
            pool: plan.pool.clone(),
            to_hit: plan.to_hit,
            hits,
            sixes,
            leader_roll: None,
            leader_removed: false,
            screen_hits: 0,
            screen_removed: false,
            stands_lost: 0,
            holders_lost: false,
        }
    }
}

/// Plan a volley at a one-stand stand-in for the target, on a scratch copy of the table.
fn plan_at_stand_in(
    rules: &Rules,
    state: &GameState,
    firer: UnitId,
    stand_in: Unit,
    input: &FireInput,
) -> Result<VolleyPlan, EngineError> {
    let mut scratch = state.clone();
    scratch.units.push(stand_in);
    let id = UnitId(scratch.units.len() - 1);
    plan_volley(rules, &scratch, firer, id, input)
}

/// A one-stand stand-in named `label` for a stand of `parent` (its screen, its horse holders),
/// in `formation`, with the parent's side, quality and traits, of no brigade.
fn one_stand_of(parent: &Unit, label: &str, formation: &str) -> Unit {
    let mut stand_in = parent.clone();
    stand_in.name = label.to_string();
    stand_in.brigade = None;
    stand_in.stands = 1;
    stand_in.starting_stands = 1;
    stand_in.micro_hit = 0;
    stand_in.screen = None;
    stand_in.formation = formation.to_string();
    stand_in
}

/// Roll the planned dice and apply the firer's part (steps 4-6): the events so far, the hits and
/// the natural 6s.
fn roll_and_book(
    rules: &Rules,
    state: &mut GameState,
    plan: &VolleyPlan,
    target: &str,
    dice: &mut dyn DiceSource,
) -> Result<(Vec<Event>, u32, u32), EngineError> {
    let mut events = plan.notes.clone();
    events.push(Event::new(
        What::Volley {
            firer: plan.firer_name.clone(),
            target: target.to_string(),
            band: plan.band.word().to_string(),
            range: plan.range,
            dice: plan.dice,
            base: plan.base,
            to_hit: plan.to_hit,
            modifiers: plan.modifiers.clone(),
        },
        "RULE-05-2.1, RULE-05-7.0, Ch16 5.6, RULINGS G1",
    ));
    let rolled = roll_to_hit(plan, dice, &mut events)?;
    low_ammo(rules, state, plan, &rolled.first_roll, &mut events);
    // The stand-in is on the scratch copy only: this marks the firer and touches no unit of the
    // table as the target.
    firer_bookkeeping(rules, state, plan, &mut events);
    Ok((events, rolled.hits, rolled.sixes))
}

/// A volley at a solitary brigadier (RULE-07-4.5): the caller has judged that he may be fired
/// at (the nearest visible enemy, within reach). The volley calls one leader casualty roll when
/// dotc D3 says its dice do (`any_hit`: a hit; `natural_six`: a natural 6). Everything or
/// nothing: a missing die leaves the state as it was.
pub fn volley_at_leader(
    rules: &Rules,
    state: &mut GameState,
    firer: UnitId,
    leader: LeaderId,
    input: &FireInput,
    dice: &mut dyn DiceSource,
) -> Result<SideVolleyReport, EngineError> {
    transact(state, |s| {
        let l = s.leader(leader).ok_or_else(|| EngineError::Unknown(format!("leader #{}", leader.0)))?;
        let f = s.unit(firer).ok_or_else(|| EngineError::Unknown(format!("unit #{}", firer.0)))?;
        let illegal = |why: String| EngineError::Illegal { unit: f.name.clone(), why, rule: "RULE-07-4.5" };
        if l.removed {
            return Err(illegal(format!("fire at {}: he is no longer on the table", l.name)));
        }
        if l.side == f.side {
            return Err(illegal(format!("fire at {}, a friendly leader", l.name)));
        }
        if l.attached.is_some() || l.rank == LeaderRank::Commander {
            return Err(illegal(format!("fire at {}: only a solitary brigadier may be a target", l.name)));
        }
        let name = l.name.clone();
        // His stand-in has the quality of a unit of his side (the plan reads one; no rule of a
        // lone leader's volley does) and stands in line, which changes no to-hit number.
        let quality =
            s.units.iter().find(|u| u.side == l.side).map_or(f.quality.clone(), |u| u.quality.clone());
        let stand_in = Unit::new(&name, l.side, Arm::Infantry, 1, &quality, "", "line");
        let plan = plan_at_stand_in(rules, s, firer, stand_in, input)?;
        let (mut events, hits, sixes) = roll_and_book(rules, s, &plan, &name, dice)?;
        let mut report = SideVolleyReport::new(&plan, Vec::new(), hits, sixes);
        let calls = match rules.rulings.solitary_brigadier_hit {
            SolitaryBrigadierHit::AnyHit => hits > 0,
            SolitaryBrigadierHit::NaturalSix => sixes > 0,
        };
        if calls {
            let from = events.len();
            morale::leader_casualty(rules, s, leader, dice, &mut events)?;
            report.leader_roll = events[from..].iter().find_map(|e| match &e.what {
                What::LeaderCasualty { rolled, .. } => Some(*rolled),
                _ => None,
            });
            report.leader_removed = s.leader(leader).is_some_and(|l| l.removed);
        } else if hits > 0 {
            events.push(Event::new(
                What::Note { text: format!("{name}: no natural 6 among the hits, no casualty roll") },
                "RULE-07-4.5, dotc D3",
            ));
        }
        report.events = events;
        Ok(report)
    })
}

/// A volley at a regiment's detached skirmish screen (Ch16 3.4, RULINGS G12): no save, each hit
/// against the screen's limit, and at the limit the screen is gone, a stand of its parent's.
/// Everything or nothing.
pub fn volley_at_screen(
    rules: &Rules,
    state: &mut GameState,
    firer: UnitId,
    parent: UnitId,
    input: &FireInput,
    dice: &mut dyn DiceSource,
) -> Result<SideVolleyReport, EngineError> {
    transact(state, |s| {
        let p = s.unit(parent).ok_or_else(|| EngineError::Unknown(format!("unit #{}", parent.0)))?;
        let f = s.unit(firer).ok_or_else(|| EngineError::Unknown(format!("unit #{}", firer.0)))?;
        let Some(before) = p.screen.as_ref().map(|sc| sc.hits).filter(|_| !p.removed) else {
            return Err(EngineError::Illegal {
                unit: f.name.clone(),
                why: format!("fire at {}'s skirmish screen: it has none out", p.name),
                rule: "Ch16 3.4, RULINGS G12",
            });
        };
        let label = format!("{}'s skirmish screen", p.name);
        let stand_in = one_stand_of(p, &label, "skirmish");
        let plan = plan_at_stand_in(rules, s, firer, stand_in, input)?;
        let limit = skirmish_screen(rules)?.hits.unwrap_or(1).max(1);
        let name = p.name.clone();
        let (mut events, hits, sixes) = roll_and_book(rules, s, &plan, &label, dice)?;
        let taken = hits.min(limit.saturating_sub(before));
        let mut report = SideVolleyReport::new(&plan, Vec::new(), hits, sixes);
        report.screen_hits = before;
        for _ in 0..taken {
            let now = report.screen_hits + 1;
            report.screen_hits = now;
            report.screen_removed = now >= limit;
            events.push(Event::new(
                What::ScreenHit { unit: name.clone(), hits: now, removed: report.screen_removed },
                "Ch16 3.4, RULINGS G12",
            ));
        }
        if let Some(u) = s.unit_mut(parent) {
            if taken > 0 {
                u.turn.shot_casualties = true;
            }
            if !u.turn.fired_on_by.contains(&firer) {
                u.turn.fired_on_by.push(firer);
            }
            match u.screen.as_mut() {
                Some(_) if report.screen_removed => u.screen = None,
                Some(sc) => sc.hits = report.screen_hits,
                None => {}
            }
        }
        if report.screen_removed {
            report.stands_lost =
                morale::remove_stands(rules, s, parent, 1, &mut events, "Ch16 3.4, RULINGS G12, G5")?;
        }
        report.events = events;
        Ok(report)
    })
}

/// Ch13 6.0 (module `horse_holders`), dotc D24: a volley at the horse holders of dismounted
/// cavalry `parent`: no save, each hit against the stand's `hits_per_stand`, and at that count
/// the holders are lost as if captured. Refused without the module, and when the regiment has
/// no holders on the table. Everything or nothing.
pub fn volley_at_holders(
    rules: &Rules,
    state: &mut GameState,
    firer: UnitId,
    parent: UnitId,
    input: &FireInput,
    dice: &mut dyn DiceSource,
) -> Result<SideVolleyReport, EngineError> {
    transact(state, |s| {
        let p = s.unit(parent).ok_or_else(|| EngineError::Unknown(format!("unit #{}", parent.0)))?;
        let f = s.unit(firer).ok_or_else(|| EngineError::Unknown(format!("unit #{}", firer.0)))?;
        let illegal =
            |why: String, rule: &'static str| EngineError::Illegal { unit: f.name.clone(), why, rule };
        if !rules.module(HORSE_HOLDERS) {
            return Err(illegal(
                format!(
                    "fire at {}'s horse holders: only the horse_holders module makes them a target",
                    p.name
                ),
                "Ch13 6.0",
            ));
        }
        if p.removed || !matches!(p.arm, Arm::Cavalry { mounted: false, horse_holders: 1.., .. }) {
            return Err(illegal(
                format!("fire at {}'s horse holders: it has none on the table", p.name),
                "Ch16 10.2",
            ));
        }
        let label = format!("{}'s horse holders", p.name);
        // The stand-in stands in line (no to-hit modifier of a formation) with the regiment's
        // quality and traits; it is given no cover below.
        let stand_in = one_stand_of(p, &label, "line");
        let before = p.holder_hits;
        let mut input = input.clone();
        input.cover = super::CoverInput::open();
        input.enfilade = false;
        let plan = plan_at_stand_in(rules, s, firer, stand_in, &input)?;
        let limit = rules.tables.hits_per_stand;
        let (mut events, hits, sixes) = roll_and_book(rules, s, &plan, &label, dice)?;
        let taken = hits.min(limit.saturating_sub(before));
        let mut report = SideVolleyReport::new(&plan, Vec::new(), hits, sixes);
        let now = before + taken;
        if let Some(u) = s.unit_mut(parent) {
            u.holder_hits = now;
            if taken > 0 {
                u.turn.shot_casualties = true;
            }
            if !u.turn.fired_on_by.contains(&firer) {
                u.turn.fired_on_by.push(firer);
            }
        }
        if taken > 0 {
            let text = format!("{label}: {now} of {limit} hits, with no save (Ch13 6.0)");
            events.push(Event::new(What::Note { text }, "Ch13 6.0, dotc D24"));
        }
        if now >= limit {
            let from = events.len();
            crate::engine::assault::capture_horse_holders(rules, s, parent, "shot down", &mut events)?;
            report.stands_lost = events[from..]
                .iter()
                .map(|e| if let What::StandsLost { lost, .. } = e.what { lost } else { 0 })
                .sum();
            report.holders_lost = true;
            if let Some(u) = s.unit_mut(parent) {
                u.holder_hits = 0;
            }
        }
        report.events = events;
        Ok(report)
    })
}
