//! The exact odds of a whole assault as the engine plans and resolves it (Ch16 7.1-7.4).
//!
//! Nothing here knows a rule. The engine plans the assault ([`plan_assault`]: the declaration,
//! the closing volley's [`VolleyPlan`] and casualty table) and the odds run the engine's own
//! resolution against every way the dice can fall, weighing each by its chance:
//!
//! 1. The closing volley's dice are grouped into classes that the volley's plan cannot tell
//!    apart: hits, natural 6s (up to the most any rule counts), whether a Shock save passes and
//!    the hits left after the cover saves. Each class has its exact chance (the volley plan's
//!    to-hit number, re-rolls, Shock save and cover save, as [`super::plan_odds`] reads them, [`unsaved_after_saves`]),
//!    and the engine resolves the volley with one set of dice of that class ([`Fate`]). The
//!    volley's later dice (Seen the Elephant, a Spent charger's test, a leader's fall) are
//!    rolled every way.
//! 2. After the volley, the engine's [`after_the_volley`] is run from each table the volley can
//!    leave, with every face of every die it rolls (the pre-contact check, a Rebel Yell test,
//!    the two melee dice). The melee's outcome is settled by its two dice, so later dice (the
//!    leaders' casualty rolls, pursuit) are not branched on.
//!
//! A property test (`odds/assault_plan_tests.rs`) rolls the engine over every dice outcome,
//! with no classes, and finds the same distribution.

use serde::Serialize;

use super::{FireOdds, hits_and_sixes, p_at_least, plan_odds, unsaved_after_saves};
use crate::dice::{DiceError, DiceSource, MAX_DICE_PER_ROLL, Purpose, Roll};
use crate::engine::assault::{
    AssaultPlan, AssaultReport, AssaultResult, ClosingPlan, after_the_volley, resolve_assault_plan,
};
use crate::engine::events::{MeleeOutcome, TestKind, What};
use crate::engine::fire::{VolleyReport, resolve_plan};
use crate::engine::{EngineError, GameState, Rules};

/// How a planned assault can end, each with its exact chance. `p_destroyed + p_stalled +
/// p_routed + p_overrun + p_attacker_wins + p_draw + p_defender_wins = 1`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlannedAssaultOdds {
    /// The closing volley (or what it called for) removed the charger.
    pub p_destroyed: f64,
    /// The charger stalled 2" short: a failed pre-contact check, or a failed check the volley
    /// called for (Ch16 7.2, RULE-07-1.5).
    pub p_stalled: f64,
    /// The defender's Broken brigade routed it on contact (RULE-07-2.4, RULINGS G14).
    pub p_routed: f64,
    /// The defender was overrun without a melee (RULINGS C23, Ch13 22.0).
    pub p_overrun: f64,
    pub p_attacker_wins: f64,
    /// A Bloody Draw (Ch16 7.4).
    pub p_draw: f64,
    pub p_defender_wins: f64,
    /// A melee was fought: the three outcomes above.
    pub p_melee: f64,
    /// The pre-contact check was called for (RULINGS C7).
    pub p_pre_contact_check: f64,
    /// The chance the pre-contact check passes, when it is taken; None if it never is.
    pub p_check_passes: Option<f64>,
    /// The charger reached contact Disordered (it fights at the marker's penalty, RULINGS G10).
    pub p_contact_disordered: f64,
    /// P(the closing volley's fire removes k stands), k = 0.. .
    pub stands_lost_to_volley: Vec<f64>,
    pub expected_stands_lost_to_volley: f64,
    /// The closing volley's own distribution; None when there is none.
    pub closing_volley: Option<FireOdds>,
    /// Engine runs it took (each is one resolution of part of the assault).
    pub runs: u64,
}

/// What one way through the assault gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Leaf {
    pub result: AssaultResult,
    pub checked: bool,
    pub check_passed: bool,
    pub contact_disordered: bool,
    pub lost_to_volley: u32,
}

impl Leaf {
    /// Read off the engine's report; `disordered_at_contact` is the charger's Disorder as it
    /// went in.
    pub(crate) fn of(report: &AssaultReport, disordered_at_contact: bool) -> Leaf {
        let tested = report.events.iter().find_map(|e| match &e.what {
            What::Test { test: TestKind::PreContact, passed, .. } => Some(*passed),
            _ => None,
        });
        // A check called for and never rolled was passed without a die (Heroic Momentum,
        // Ch13 3.0).
        let check_passed = tested.unwrap_or(report.pre_contact_check);
        let contact =
            matches!(report.result, AssaultResult::Melee(_) | AssaultResult::Routed | AssaultResult::Overrun);
        Leaf {
            result: report.result,
            checked: report.pre_contact_check,
            check_passed,
            contact_disordered: contact && disordered_at_contact,
            lost_to_volley: report.closing_volley.as_ref().map_or(0, |c| c.outcome.2),
        }
    }
}

/// The chances of each ending, summed leaf by leaf.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    destroyed: f64,
    stalled: f64,
    routed: f64,
    overrun: f64,
    wins: f64,
    draws: f64,
    losses: f64,
    checked: f64,
    check_passed: f64,
    contact_disordered: f64,
    lost: Vec<f64>,
    pub(crate) runs: u64,
}

impl Tally {
    pub(crate) fn add(&mut self, leaf: &Leaf, p: f64) {
        let slot = match leaf.result {
            AssaultResult::Destroyed => &mut self.destroyed,
            AssaultResult::Stalled => &mut self.stalled,
            AssaultResult::Routed => &mut self.routed,
            AssaultResult::Overrun => &mut self.overrun,
            AssaultResult::Melee(MeleeOutcome::AttackerWins) => &mut self.wins,
            AssaultResult::Melee(MeleeOutcome::BloodyDraw) => &mut self.draws,
            AssaultResult::Melee(MeleeOutcome::DefenderWins) => &mut self.losses,
        };
        *slot += p;
        if leaf.checked {
            self.checked += p;
        }
        if leaf.check_passed {
            self.check_passed += p;
        }
        if leaf.contact_disordered {
            self.contact_disordered += p;
        }
        let k = leaf.lost_to_volley as usize;
        if self.lost.len() <= k {
            self.lost.resize(k + 1, 0.0);
        }
        self.lost[k] += p;
    }

    pub(crate) fn odds(self, closing_volley: Option<FireOdds>) -> PlannedAssaultOdds {
        let mut lost = self.lost;
        if lost.is_empty() {
            lost.push(0.0);
        }
        let expected = lost.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        PlannedAssaultOdds {
            p_destroyed: self.destroyed,
            p_stalled: self.stalled,
            p_routed: self.routed,
            p_overrun: self.overrun,
            p_attacker_wins: self.wins,
            p_draw: self.draws,
            p_defender_wins: self.losses,
            p_melee: self.wins + self.draws + self.losses,
            p_pre_contact_check: self.checked,
            p_check_passes: (self.checked > 0.0).then(|| self.check_passed / self.checked),
            p_contact_disordered: self.contact_disordered,
            stands_lost_to_volley: lost,
            expected_stands_lost_to_volley: expected,
            closing_volley,
            runs: self.runs,
        }
    }
}

/// Dice chosen for one class of a closing volley: the to-hit faces, the Shock save's die and
/// the cover saves' faces, each handed out once; a re-roll of a missed die misses again and a
/// Steady re-roll of a failed save fails again, so the class is what the engine ends with.
#[derive(Clone, Debug, Default)]
struct Fate {
    to_hit: Option<Vec<u8>>,
    miss: u8,
    /// The Shock save's dice: one, or two with Advantage (Ch13 17.0), all passing or all failing.
    shock_save: Option<Vec<u8>>,
    saves: Option<Vec<u8>>,
}

/// A dice source that hands out a [`Fate`] first, then answers every other die from a path of
/// faces, so that a driver can walk every path ([`every_path`]). After `freeze_after_melee`
/// melee dice it answers 1 without branching: nothing measured depends on those dice.
struct Branching {
    fate: Fate,
    path: Vec<u8>,
    pos: usize,
    melee_dice: u32,
    freeze_after_melee: Option<u32>,
    consumed: Vec<Roll>,
}

impl Branching {
    fn face(&mut self, purpose: Purpose) -> u8 {
        if self.freeze_after_melee.is_some_and(|n| self.melee_dice >= n) {
            return 1;
        }
        if purpose == Purpose::Melee {
            self.melee_dice += 1;
        }
        let f = match self.path.get(self.pos) {
            Some(&f) => f,
            None => {
                self.path.push(1);
                1
            }
        };
        self.pos += 1;
        f
    }
}

impl DiceSource for Branching {
    fn roll(&mut self, purpose: Purpose, count: usize) -> Result<Vec<u8>, DiceError> {
        if count == 0 {
            return Ok(Vec::new());
        }
        if count > MAX_DICE_PER_ROLL {
            return Err(DiceError::TooMany { purpose, wanted: count });
        }
        let fated = match purpose {
            Purpose::ToHit => match self.fate.to_hit.take() {
                Some(faces) => Some(faces),
                None if self.fate.miss > 0 => Some(vec![self.fate.miss; count]),
                None => None,
            },
            Purpose::Discipline => self.fate.shock_save.take(),
            Purpose::Save => match self.fate.saves.take() {
                Some(faces) => Some(faces),
                None if self.fate.miss > 0 => Some(vec![1; count]),
                None => None,
            },
            _ => None,
        };
        let faces = match fated {
            // The engine asked for other dice than the plan said: it and the plan disagree.
            Some(faces) if faces.len() != count => {
                return Err(DiceError::Missing { purpose, wanted: count, available: faces.len() });
            }
            Some(faces) => faces,
            None => (0..count).map(|_| self.face(purpose)).collect(),
        };
        self.consumed.push(Roll { purpose, faces: faces.clone() });
        Ok(faces)
    }

    fn consumed(&self) -> &[Roll] {
        &self.consumed
    }
}

/// Run `run` once for every path of faces its branched dice can take, calling `leaf` with each
/// result and the path's chance (1/6 a branched die). `budget` caps the runs: past it, None.
fn every_path<T>(
    fate: &Fate,
    freeze_after_melee: Option<u32>,
    budget: u64,
    mut run: impl FnMut(&mut Branching) -> Result<T, EngineError>,
    mut leaf: impl FnMut(T, f64) -> Result<(), EngineError>,
) -> Result<Option<u64>, EngineError> {
    let mut path: Vec<u8> = Vec::new();
    let mut runs = 0u64;
    loop {
        if runs >= budget {
            return Ok(None);
        }
        let mut dice = Branching {
            fate: fate.clone(),
            path: std::mem::take(&mut path),
            pos: 0,
            melee_dice: 0,
            freeze_after_melee,
            consumed: Vec::new(),
        };
        let out = run(&mut dice)?;
        runs += 1;
        let depth = dice.pos;
        leaf(out, (1.0f64 / 6.0).powi(i32::try_from(depth).unwrap_or(i32::MAX)))?;
        path = dice.path;
        path.truncate(depth);
        // The next path: the last die not yet at 6 goes up one, the dice after it start again.
        while path.last() == Some(&6) {
            path.pop();
        }
        match path.last_mut() {
            Some(f) => *f += 1,
            None => return Ok(Some(runs)),
        }
    }
}

/// One class of a closing volley's dice and its chance.
struct VolleyClass {
    fate: Fate,
    p: f64,
}

/// Every class of the closing volley's dice with a chance above 0 (see the module's list).
fn volley_classes(closing: &ClosingPlan) -> Vec<VolleyClass> {
    let plan = &closing.plan;
    let n = plan.dice as usize;
    let needed = plan.shock.sixes_needed;
    // Natural 6s matter up to the Shock threshold, and at least to 1 (a leader's roll, Seen the
    // Elephant, RULINGS C7's `hit_or_six` and `loss_or_six`).
    let cap = needed.max(1) as usize;
    let to_hit = plan.to_hit;
    let six_hits = to_hit <= 6;
    // A hit that is no 6 where one exists; at 6+ every hit is a 6 (the sixes past the cap count
    // for nothing more, so they may stand for the hits the capped column leaves out).
    let hit_face = if to_hit >= 6 { 6 } else { u8::try_from(to_hit.clamp(1, 5)).unwrap_or(5) };
    let miss = u8::try_from((to_hit - 1).clamp(1, 5)).unwrap_or(1);
    let p_save = plan.save.needed().map_or(0.0, p_at_least);
    let has_save = plan.save.needed().is_some();
    let mut out = Vec::new();
    for (h, row) in hits_and_sixes(plan, cap).rows().enumerate() {
        for (s, &w) in row.iter().enumerate() {
            if w <= 0.0 {
                continue;
            }
            let mut faces = vec![6u8; s];
            let other_hits = if six_hits { h.saturating_sub(s) } else { h };
            faces.extend(std::iter::repeat_n(hit_face, other_hits));
            faces.resize(n, miss);
            let trigger = needed > 0 && s as u32 >= needed;
            // The Shock save, when one is rolled: (its die, whether the target is disordered,
            // the chance).
            let shock: Vec<(Option<Vec<u8>>, bool, f64)> = if plan.shock.canister && h >= 1 {
                vec![(None, true, 1.0)]
            } else if !trigger || plan.shock.ignored_by.is_some() {
                vec![(None, false, 1.0)]
            } else {
                match &plan.shock.save {
                    Some(save) => {
                        // Ch13 17.0: with Advantage the save rolls two dice.
                        let pass = save.p_pass();
                        let n = if save.advantage { 2 } else { 1 };
                        vec![(Some(vec![6; n]), false, pass), (Some(vec![1; n]), true, 1.0 - pass)]
                    }
                    None => vec![(None, true, 1.0)],
                }
            };
            for (die, disordered, wd) in shock {
                if wd <= 0.0 {
                    continue;
                }
                let gone = closing.casualties.gone_before_saves[usize::from(disordered)];
                let hits_in = if gone { 0 } else { h as u32 };
                for (unsaved, wu) in unsaved_after_saves(hits_in, has_save, p_save, plan.save.steady) {
                    let saves = (hits_in > 0 && has_save).then(|| {
                        let mut f = vec![1u8; unsaved as usize];
                        f.resize(hits_in as usize, 6);
                        f
                    });
                    out.push(VolleyClass {
                        fate: Fate { to_hit: Some(faces.clone()), miss, shock_save: die.clone(), saves },
                        p: w * wd * wu,
                    });
                }
            }
        }
    }
    out
}

/// A volley's report reduced to what [`after_the_volley`] reads, so that two volleys that leave
/// the same table and the same facts share one continuation.
fn what_follows_reads(report: &VolleyReport) -> VolleyReport {
    VolleyReport {
        events: report
            .events
            .iter()
            .filter(|e| matches!(e.what, What::Test { .. } | What::Stalled { .. }))
            .cloned()
            .collect(),
        hits: report.hits.min(1),
        sixes: report.sixes.min(1),
        unsaved: 0,
        ..report.clone()
    }
}

/// The most engine runs one assault's odds may take.
pub const RUN_BUDGET: u64 = 2_000_000;

/// The exact odds of an assault the engine planned on `declared` (the table after its
/// declaration: [`crate::engine::assault::plan_assault`]).
pub fn assault_plan_odds(
    rules: &Rules,
    declared: &GameState,
    plan: &AssaultPlan,
) -> Result<PlannedAssaultOdds, EngineError> {
    // Ch13 10.0: a premature fire check before the volley: each way it can go, weighed by its
    // chance (the engine's own numbers: its base and modifiers, RULINGS G1).
    if let Some(check) = &plan.premature {
        let needed = crate::engine::morale::test_needed(check.base, &check.modifiers);
        let p_pass = f64::from(7 - needed.clamp(1, 7)) / 6.0;
        let passed = assault_plan_odds(rules, declared, &plan.after_premature_check(true))?;
        let failed = assault_plan_odds(rules, declared, &plan.after_premature_check(false))?;
        return Ok(mix(passed, p_pass, failed, 1.0 - p_pass));
    }
    let too_many = || EngineError::Unknown("an assault with more dice than the odds can walk".into());
    let mut tally = Tally::default();
    let disordered = |s: &GameState| s.unit(plan.charger).is_some_and(|u| u.markers.disorder);
    let Some(closing) = &plan.closing else {
        let at_contact = disordered(declared);
        let runs = every_path(
            &Fate::default(),
            Some(2),
            RUN_BUDGET,
            |dice| resolve_assault_plan(rules, &mut declared.clone(), plan, dice),
            |report, p| {
                tally.add(&Leaf::of(&report, at_contact), p);
                Ok(())
            },
        )?
        .ok_or_else(too_many)?;
        tally.runs = runs;
        return Ok(tally.odds(None));
    };
    // The tables the volley can leave, each with what follows from it: (table, report, leaves).
    type Follows = (GameState, VolleyReport, Vec<(Leaf, f64)>);
    let mut follows: Vec<Follows> = Vec::new();
    let mut runs = 0u64;
    for class in volley_classes(closing) {
        let volley_runs = every_path(
            &class.fate,
            None,
            RUN_BUDGET,
            |dice| {
                let mut s = declared.clone();
                let report = resolve_plan(rules, &mut s, &closing.plan, dice)?;
                Ok((s, report))
            },
            |(after, report), p| {
                let key = what_follows_reads(&report);
                let i = match follows.iter().position(|(s, r, _)| *r == key && *s == after) {
                    Some(i) => i,
                    None => {
                        let at_contact = disordered(&after);
                        let mut leaves = Vec::new();
                        let n = every_path(
                            &Fate::default(),
                            Some(2),
                            RUN_BUDGET,
                            |dice| after_the_volley(rules, &mut after.clone(), plan, &key, Vec::new(), dice),
                            |r, p| {
                                leaves.push((Leaf::of(&r, at_contact), p));
                                Ok(())
                            },
                        )?
                        .ok_or_else(too_many)?;
                        runs += n;
                        follows.push((after, key, leaves));
                        follows.len() - 1
                    }
                };
                let lost = report.stands_lost_to_fire;
                for (leaf, q) in &follows[i].2 {
                    tally.add(&Leaf { lost_to_volley: lost, ..*leaf }, class.p * p * q);
                }
                Ok(())
            },
        )?
        .ok_or_else(too_many)?;
        runs += volley_runs;
    }
    tally.runs = runs;
    Ok(tally.odds(Some(plan_odds(&closing.plan, &closing.casualties))))
}

/// Two ways an assault can go after a check (`a` with chance `pa`, `b` with `pb`) as one: every
/// chance and expectation weighed; the pre-contact check's pass rate given it is taken; the
/// closing volley's own odds those of `a` (the volley as planned).
fn mix(a: PlannedAssaultOdds, pa: f64, b: PlannedAssaultOdds, pb: f64) -> PlannedAssaultOdds {
    let w = |x: f64, y: f64| pa * x + pb * y;
    let n = a.stands_lost_to_volley.len().max(b.stands_lost_to_volley.len());
    let at = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(0.0);
    let checked = w(a.p_pre_contact_check, b.p_pre_contact_check);
    let passes = |o: &PlannedAssaultOdds| o.p_pre_contact_check * o.p_check_passes.unwrap_or(0.0);
    PlannedAssaultOdds {
        p_destroyed: w(a.p_destroyed, b.p_destroyed),
        p_stalled: w(a.p_stalled, b.p_stalled),
        p_routed: w(a.p_routed, b.p_routed),
        p_overrun: w(a.p_overrun, b.p_overrun),
        p_attacker_wins: w(a.p_attacker_wins, b.p_attacker_wins),
        p_draw: w(a.p_draw, b.p_draw),
        p_defender_wins: w(a.p_defender_wins, b.p_defender_wins),
        p_melee: w(a.p_melee, b.p_melee),
        p_pre_contact_check: checked,
        p_check_passes: (checked > 0.0).then(|| w(passes(&a), passes(&b)) / checked),
        p_contact_disordered: w(a.p_contact_disordered, b.p_contact_disordered),
        stands_lost_to_volley: (0..n)
            .map(|i| w(at(&a.stands_lost_to_volley, i), at(&b.stands_lost_to_volley, i)))
            .collect(),
        expected_stands_lost_to_volley: w(a.expected_stands_lost_to_volley, b.expected_stands_lost_to_volley),
        closing_volley: a.closing_volley,
        runs: a.runs + b.runs,
    }
}

/// The engine's own distribution of a whole assault, rolled over every dice outcome with no
/// classes (each die of the volley, its saves and every later die take all six faces); None
/// past `budget` runs. For tests: it is what [`assault_plan_odds`] must equal.
pub fn exhaustive_assault(
    rules: &Rules,
    declared: &GameState,
    plan: &AssaultPlan,
    budget: u64,
) -> Result<Option<PlannedAssaultOdds>, EngineError> {
    let mut tally = Tally::default();
    let at_contact = |s: &GameState| s.unit(plan.charger).is_some_and(|u| u.markers.disorder);
    let runs = every_path(
        &Fate::default(),
        Some(2),
        budget,
        |dice| {
            let mut s = declared.clone();
            let report = resolve_assault_plan(rules, &mut s, plan, dice)?;
            // The charger's Disorder as it went in: after the volley and its check, which a
            // charger that reached contact passed (and a pass changes nothing).
            let mut before_contact = declared.clone();
            let disordered = match &plan.closing {
                Some(c) => {
                    let mut again = ReplayDice { faces: dice.consumed.clone(), next: 0 };
                    resolve_plan(rules, &mut before_contact, &c.plan, &mut again)?;
                    at_contact(&before_contact)
                }
                None => at_contact(declared),
            };
            Ok(Leaf::of(&report, disordered))
        },
        |leaf, p| {
            tally.add(&leaf, p);
            Ok(())
        },
    )?;
    Ok(runs.map(|runs| {
        tally.runs = runs;
        tally.odds(plan.closing.as_ref().map(|c| plan_odds(&c.plan, &c.casualties)))
    }))
}

/// The dice of one run handed out again, in order: the volley replayed to see the table it left.
struct ReplayDice {
    faces: Vec<Roll>,
    next: usize,
}

impl DiceSource for ReplayDice {
    fn roll(&mut self, purpose: Purpose, count: usize) -> Result<Vec<u8>, DiceError> {
        if count == 0 {
            return Ok(Vec::new());
        }
        match self.faces.get(self.next) {
            Some(r) if r.purpose == purpose && r.faces.len() == count => {
                self.next += 1;
                Ok(r.faces.clone())
            }
            _ => Err(DiceError::Missing { purpose, wanted: count, available: 0 }),
        }
    }

    fn consumed(&self) -> &[Roll] {
        &self.faces[..self.next]
    }
}

#[cfg(test)]
#[path = "assault_plan_tests.rs"]
mod tests;
