//! How each side's dice compared with the odds in a replayed game (`dotc luck`).
//!
//! [`luck`] reads a replay's engine events and judges every roll the rules gave odds for, each
//! with the number the rules had set for it at that moment:
//!
//! - a volley (RULE-05-2.1, Ch16 5.2-5.6): `n` dice, each hitting on the to-hit number of the
//!   `Volley` event (after every modifier and the RULINGS G1 limits), scored by its hits on the
//!   first roll; a missed die rolled again (Sharpshooters, Ch16 9.0) is a roll of its own, one
//!   die at the same number;
//! - a cover save roll (RULE-05-3.1, Ch16 5.4): one die per hit at the save number of the
//!   `Saves` event, scored by its saves; a failed save rolled again (Steady, RULINGS C27) is a
//!   roll of its own;
//! - a test (Discipline saves and checks, rallies: RULE-05-4.2, RULE-07-1.4, 3.3): one die,
//!   scored 1 if it passed and 0 if it failed, with the chance to pass of its number needed;
//! - a melee die (Ch16 7.3): scored by its face;
//! - staff pips (Ch16 2.1, RULINGS G2): scored by the 1D3 read off the face ([`crate::dice::d3`]);
//! - a leader casualty roll (Ch16 2.4): the table's results grow worse as the face grows, so it
//!   is scored 7 - face (a 1 the best, a 6 the worst).
//!
//! Each roll's score `X` has an exact distribution: a binomial of `n` dice each succeeding with
//! probability `p` = (faces that succeed) / 6, or a uniform die. For the score `x` rolled:
//!
//! - the **percentile** is the mid-p percentile `P(X < x) + P(X = x) / 2`: 50% is exactly
//!   average, and a roll can only reach 0% or 100% if it could not have come out otherwise;
//! - the **chance** is, for a test, the chance to pass; otherwise the chance of scoring at least
//!   `x` (`P(X >= x)`, the chance of doing at least this well).
//!
//! A side's whole-game score sums its rolls: `z = sum(x - E[X]) / sqrt(sum Var[X])`, in the
//! rolls' own units (hits, saves, passes, faces), so a roll weighs by its spread. Its percentile
//! is `Phi(z)`, the normal approximation (the sum of many independent rolls). Rolls that could
//! only come out one way (variance 0) count in neither sum.
//!
//! The side of a roll is its roller's: the firer's for a volley, the target's for its saves, the
//! tested unit's, each melee side's own die, the brigade's for its pips, the leader's. Names are
//! looked up in [`Sides`], built from the scenario; a leader's replacement inherits his side.
//!
//! Pure and deterministic: no IO, no randomness; the same events give the same numbers.

use std::collections::BTreeMap;

use dotc_lang::ast;
use serde::Serialize;

use crate::dice::{Purpose, d3};
use crate::engine::What;
use crate::replay::ReplayEvent;

/// The luck of a game: each side's summary, and every roll judged, in the order rolled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Luck {
    pub sides: Vec<SideLuck>,
    pub rolls: Vec<RollLuck>,
}

/// One side's dice over the whole game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideLuck {
    /// The side's id, as the log writes it (`union`).
    pub side: String,
    /// The side's name in the scenario, if it gives one.
    pub name: Option<String>,
    /// The rolls judged for this side.
    pub rolls: u32,
    /// Observed and expected, by what was scored (hits, saves, tests passed...), in that order.
    pub tallies: Vec<Tally>,
    /// The sum of the scores rolled.
    pub observed: f64,
    /// The sum of the scores expected.
    pub expected: f64,
    /// The sum of the rolls' variances.
    pub variance: f64,
    /// `(observed - expected) / sqrt(variance)`; 0 when no roll had any spread.
    pub z: f64,
    /// `Phi(z)`: the share of games this side would do worse than, by the normal approximation.
    pub percentile: f64,
    /// The verdict in plain words, e.g. "lucky (top 10%)".
    pub verdict: String,
}

/// Observed against expected for one measure of one side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally {
    pub measure: Measure,
    /// The rolls that scored this measure.
    pub rolls: u32,
    /// The dice they used.
    pub dice: u32,
    pub observed: f64,
    pub expected: f64,
}

/// What a side's rolls of one kind add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Hits of volleys and of missed dice rolled again.
    Hits,
    /// Cover saves made.
    Saves,
    /// Tests passed.
    TestsPassed,
    /// The faces of melee dice.
    MeleeFaces,
    /// Staff pips rolled (the 1D3).
    StaffPips,
    /// Leader casualty rolls, scored 7 - face.
    LeaderRolls,
}

impl Measure {
    /// A few words for a table.
    pub fn label(self) -> &'static str {
        match self {
            Measure::Hits => "hits",
            Measure::Saves => "saves",
            Measure::TestsPassed => "tests passed",
            Measure::MeleeFaces => "melee dice (sum of faces)",
            Measure::StaffPips => "staff pips (sum of 1D3)",
            Measure::LeaderRolls => "leader casualty rolls (sum of 7 - face)",
        }
    }
}

/// The kinds of roll judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    Volley,
    /// A missed to-hit die rolled again.
    HitReroll,
    Saves,
    /// A failed save rolled again.
    SaveReroll,
    Test,
    Melee,
    StaffPips,
    LeaderCasualty,
}

impl RollKind {
    pub fn measure(self) -> Measure {
        match self {
            RollKind::Volley | RollKind::HitReroll => Measure::Hits,
            RollKind::Saves | RollKind::SaveReroll => Measure::Saves,
            RollKind::Test => Measure::TestsPassed,
            RollKind::Melee => Measure::MeleeFaces,
            RollKind::StaffPips => Measure::StaffPips,
            RollKind::LeaderCasualty => Measure::LeaderRolls,
        }
    }
}

/// One roll and how it compared with its odds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollLuck {
    pub turn: u32,
    /// The log line of the action (0 when the replay had no source).
    pub line: usize,
    /// The roller's side; `None` when the roller's name is not in the scenario.
    pub side: Option<String>,
    pub kind: RollKind,
    /// The roller: a unit, a brigade (pips) or a leader.
    pub who: String,
    /// What the roll was, in a few words: `fires at 12th New Jersey`, `Shock save`.
    pub what: String,
    pub dice: u32,
    /// The number each die needed (to hit, to save, to pass); `None` for a roll scored by face.
    pub needed: Option<i32>,
    pub faces: Vec<u8>,
    /// The result in a few words: `4 hits`, `rolled 2: failed`.
    pub result: String,
    /// The score rolled: hits, saves, 1 for a pass, a face, a 1D3, 7 - face.
    pub observed: u32,
    pub expected: f64,
    pub variance: f64,
    /// For a test the chance to pass; otherwise `P(X >= observed)`.
    pub chance: f64,
    /// The mid-p percentile `P(X < observed) + P(X = observed) / 2`.
    pub percentile: f64,
}

/// Which side each unit, brigade and leader belongs to, and the sides in scenario order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sides {
    /// (id, name) in scenario order.
    order: Vec<(String, Option<String>)>,
    by_name: BTreeMap<String, String>,
}

impl Sides {
    /// An empty map; add sides and names with [`Sides::side`] and [`Sides::name`].
    pub fn new() -> Sides {
        Sides::default()
    }

    /// Add a side (id and display name); a side given twice is kept once.
    pub fn side(mut self, id: &str, name: Option<&str>) -> Sides {
        if !self.order.iter().any(|(s, _)| s == id) {
            self.order.push((id.to_string(), name.map(str::to_string)));
        }
        self
    }

    /// Say that `name` (a unit, brigade or leader) belongs to `side`. The first word stands.
    pub fn name(mut self, name: &str, side: &str) -> Sides {
        self.by_name.entry(name.to_string()).or_insert_with(|| side.to_string());
        self
    }

    /// Every side, brigade, brigadier, commander and unit of a scenario.
    pub fn from_scenario(scenario: &ast::Scenario) -> Sides {
        let mut sides = Sides::new();
        for side in &scenario.sides {
            let id = side.id.value.as_str();
            sides = sides.side(id, side.name.as_ref().map(|n| n.value.as_str()));
            for c in &side.commanders {
                sides = sides.name(&c.name.value, id);
            }
            for b in &side.brigades {
                sides = sides.name(&b.name.value, id);
                for l in &b.brigadiers {
                    sides = sides.name(&l.name.value, id);
                }
                for u in &b.units {
                    sides = sides.name(&u.name.value, id);
                }
            }
            for u in &side.units {
                sides = sides.name(&u.name.value, id);
            }
        }
        sides
    }

    /// The sides of a game log's scenario, as [`Sides::from_scenario`] gives them; none when the
    /// log's scenario could not be read.
    pub fn from_game(analysis: &dotc_lang::Analysis) -> Sides {
        let scenario = analysis.scenario.as_deref().and_then(|s| s.document.scenario.as_ref());
        scenario.map(Sides::from_scenario).unwrap_or_default()
    }

    fn of(&self, name: &str) -> Option<String> {
        self.by_name.get(name).cloned()
    }
}

/// Judge every roll of a replay's events (see the module documentation for the method).
pub fn luck(events: &[ReplayEvent], sides: &Sides) -> Luck {
    let mut sides = sides.clone();
    let mut rolls = Vec::new();
    let mut scan = Scan::default();
    let mut span = None;
    for e in events {
        // What a roll is waiting for never crosses from one action to the next.
        if span != Some(e.span) {
            scan = Scan::default();
            span = Some(e.span);
        }
        let mut push = |kind: RollKind, who: &str, what: String, judged: Judged| {
            rolls.push(RollLuck {
                turn: e.turn,
                line: e.line,
                side: sides.of(who),
                kind,
                who: who.to_string(),
                what,
                dice: judged.dice,
                needed: judged.needed,
                faces: judged.faces,
                result: judged.result,
                observed: judged.observed,
                expected: judged.stats.expected,
                variance: judged.stats.variance,
                chance: judged.chance.unwrap_or(judged.stats.at_least),
                percentile: judged.stats.percentile,
            });
        };
        match &e.event.what {
            What::Volley { target, .. } => {
                scan.volley =
                    Some(Pending { what: format!("fires at {target}"), first: None, rerolls: Vec::new() });
            }
            What::Rolled { purpose: Purpose::ToHit, faces } => {
                if let Some(v) = scan.volley.as_mut()
                    && v.first.is_none()
                {
                    v.first = Some(faces.clone());
                }
            }
            What::Rolled { purpose: Purpose::Save, faces } => {
                let pending = scan.saves.get_or_insert_with(Pending::default);
                if pending.first.is_none() {
                    pending.first = Some(faces.clone());
                }
            }
            What::Reroll { to, .. } => {
                if let Some(v) = scan.volley.as_mut() {
                    v.rerolls.push(*to);
                } else if let Some(s) = scan.saves.as_mut() {
                    s.rerolls.push(*to);
                }
            }
            What::Hits { firer, faces, to_hit, .. } => {
                let pending = scan.volley.take().unwrap_or_default();
                let what = if pending.what.is_empty() { "fires".to_string() } else { pending.what };
                let first = pending.first.unwrap_or_else(|| faces.clone());
                // A volley of no dice (a pool brought to nothing) is no roll.
                if !first.is_empty() {
                    push(RollKind::Volley, firer, what, pool(&first, *to_hit, "hit", "hits"));
                }
                for to in pending.rerolls {
                    push(
                        RollKind::HitReroll,
                        firer,
                        "rolls a missed die again".to_string(),
                        pool(&[to], *to_hit, "hit", "hits"),
                    );
                }
            }
            What::Saves { unit, save, faces, .. } => {
                let pending = scan.saves.take().unwrap_or_default();
                let first = pending.first.unwrap_or_else(|| faces.clone());
                if !first.is_empty() {
                    push(RollKind::Saves, unit, "saves".to_string(), pool(&first, *save, "saved", "saved"));
                }
                for to in pending.rerolls {
                    push(
                        RollKind::SaveReroll,
                        unit,
                        "rolls a failed save again".to_string(),
                        pool(&[to], *save, "saved", "saved"),
                    );
                }
            }
            What::Test { unit, test, needed, rolled, discarded, passed, .. } => {
                let judged = judge_test(*needed, *rolled, *discarded, *passed);
                push(RollKind::Test, unit, test.label().to_string(), judged);
            }
            What::ShockScore { unit, rolled, .. } => {
                push(RollKind::Melee, unit, "melee die".to_string(), judge_face(*rolled, Face::Melee));
            }
            What::Rolled { purpose: Purpose::StaffPips, faces } => {
                scan.pips = faces.first().copied();
            }
            What::Pips { brigade, .. } => {
                if let Some(face) = scan.pips.take() {
                    push(
                        RollKind::StaffPips,
                        brigade,
                        "staff pips".to_string(),
                        judge_face(face, Face::Pips),
                    );
                }
            }
            What::LeaderCasualty { leader, rolled, result } => {
                let mut judged = judge_face(*rolled, Face::LeaderCasualty);
                judged.result = format!("rolled {rolled}: {result}");
                push(RollKind::LeaderCasualty, leader, "leader casualty".to_string(), judged);
            }
            What::LeaderReplaced { leader, by, .. } => {
                if let Some(side) = sides.of(leader) {
                    sides = sides.name(by, &side);
                }
            }
            _ => {}
        }
    }
    let summaries = sides.order.iter().map(|(id, name)| side_luck(id, name.clone(), &rolls)).collect();
    Luck { sides: summaries, rolls }
}

/// The standard normal distribution function, `Phi(z) = P(Z <= z)`: accurate to about 1e-12,
/// from the error function's power series near 0 and its continued fraction in the tails.
pub fn normal_cdf(z: f64) -> f64 {
    if z.is_nan() {
        return 0.5;
    }
    let x = z.abs() / std::f64::consts::SQRT_2;
    let upper_tail = 0.5 * erfc(x);
    if z >= 0.0 { 1.0 - upper_tail } else { upper_tail }
}

/// The verdict on a whole-game percentile, in plain words.
pub fn verdict(percentile: f64, rolls: u32) -> &'static str {
    if rolls == 0 {
        return "no rolls to judge";
    }
    match percentile {
        p if p >= 0.99 => "very lucky (top 1%)",
        p if p >= 0.95 => "lucky (top 5%)",
        p if p >= 0.90 => "lucky (top 10%)",
        p if p >= 0.75 => "a little lucky (top 25%)",
        p if p > 0.25 => "about as lucky as expected",
        p if p > 0.10 => "a little unlucky (bottom 25%)",
        p if p > 0.05 => "unlucky (bottom 10%)",
        p if p > 0.01 => "unlucky (bottom 5%)",
        _ => "very unlucky (bottom 1%)",
    }
}

/// The exact distribution of successes among `n` dice that each succeed with probability `p`:
/// `P(X = k)` for `k = 0..=n` (the odds calculator's own, so luck and odds never differ).
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    crate::odds::binomial(n, p)
}

/// The chance one d6 shows `needed` or more: the faces 1 to 6 that do, over 6. A number of 1
/// or less always succeeds and one past 6 never does, as the engine counts them.
pub fn chance_at_least(needed: i32) -> f64 {
    (1..=6).filter(|&f| f >= needed).count() as f64 / 6.0
}

/// The statistics of a score `x` under the distribution `pmf` (index = score).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub expected: f64,
    pub variance: f64,
    /// `P(X >= x)`.
    pub at_least: f64,
    /// `P(X < x) + P(X = x) / 2`.
    pub percentile: f64,
}

/// [`Stats`] of the score `x` under the distribution `weights` (index = score), which need not
/// add up to 1: each is divided by their total (so the faces of a die may be given as counts).
pub fn stats(weights: &[f64], x: usize) -> Stats {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return Stats { expected: 0.0, variance: 0.0, at_least: 1.0, percentile: 0.5 };
    }
    let expected = weights.iter().enumerate().map(|(k, w)| k as f64 * w).sum::<f64>() / total;
    let variance =
        weights.iter().enumerate().map(|(k, w)| (k as f64 - expected).powi(2) * w).sum::<f64>() / total;
    let below = weights.iter().take(x).sum::<f64>() / total;
    let at = weights.get(x).copied().unwrap_or(0.0) / total;
    let at_least = weights.iter().skip(x).sum::<f64>() / total;
    Stats { expected, variance, at_least, percentile: below + at / 2.0 }
}

// ---------------------------------------------------------------------------- judging one roll

/// A roll waiting for the event that says how it came out.
#[derive(Clone, Debug, Default)]
struct Pending {
    what: String,
    /// The dice as first rolled.
    first: Option<Vec<u8>>,
    /// The faces of dice rolled again, in order.
    rerolls: Vec<u8>,
}

#[derive(Clone, Debug, Default)]
struct Scan {
    volley: Option<Pending>,
    saves: Option<Pending>,
    pips: Option<u8>,
}

struct Judged {
    dice: u32,
    needed: Option<i32>,
    faces: Vec<u8>,
    result: String,
    observed: u32,
    stats: Stats,
    /// Set for a test: its chance to pass.
    chance: Option<f64>,
}

/// A pool of dice, each succeeding on `needed` or more.
fn pool(faces: &[u8], needed: i32, one: &str, many: &str) -> Judged {
    let n = u32::try_from(faces.len()).unwrap_or(u32::MAX);
    let successes = faces.iter().filter(|&&f| i32::from(f) >= needed).count();
    let p = chance_at_least(needed);
    let pmf = binomial(n, p);
    let word = if successes == 1 { one } else { many };
    Judged {
        dice: n,
        needed: Some(needed),
        faces: faces.to_vec(),
        result: format!("{successes} {word}"),
        observed: u32::try_from(successes).unwrap_or(u32::MAX),
        // The closed forms n p and n p (1 - p) round less than sums over the distribution.
        stats: Stats {
            expected: f64::from(n) * p,
            variance: f64::from(n) * p * (1.0 - p),
            ..stats(&pmf, successes)
        },
        chance: None,
    }
}

fn judge_test(needed: i32, rolled: u8, discarded: Option<u8>, passed: bool) -> Judged {
    // Ch13 17.0: with Advantage it fails only when both dice miss.
    let one = chance_at_least(needed);
    let p = if discarded.is_some() { 1.0 - (1.0 - one) * (1.0 - one) } else { one };
    let x = usize::from(passed);
    let mut faces = vec![rolled];
    faces.extend(discarded);
    Judged {
        dice: faces.len() as u32,
        needed: Some(needed),
        faces,
        result: format!("rolled {rolled}: {}", if passed { "passed" } else { "failed" }),
        observed: u32::from(passed),
        stats: stats(&[1.0 - p, p], x),
        chance: Some(p),
    }
}

/// How a single die is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Face {
    /// By its face.
    Melee,
    /// By the 1D3 read off it (RULINGS G2).
    Pips,
    /// By 7 - face: the higher the face, the worse the result (Ch16 2.4).
    LeaderCasualty,
}

fn score(face: u8, how: Face) -> Option<u8> {
    match (face, how) {
        (1..=6, Face::Melee) => Some(face),
        (_, Face::Pips) => d3(face),
        (1..=6, Face::LeaderCasualty) => Some(7 - face),
        _ => None,
    }
}

fn judge_face(face: u8, how: Face) -> Judged {
    // How many faces give each score ([`stats`] divides by their total, so 3.5 comes out as 3.5).
    let mut pmf: Vec<f64> = Vec::new();
    for f in 1..=6u8 {
        if let Some(s) = score(f, how) {
            let s = usize::from(s);
            if pmf.len() <= s {
                pmf.resize(s + 1, 0.0);
            }
            pmf[s] += 1.0;
        }
    }
    // A face off the die (never from the engine) is judged as the middle of the range.
    let x = score(face, how).map_or(pmf.len() / 2, usize::from);
    let result = match how {
        Face::Pips => format!("rolled {face}: {x} pip{}", if x == 1 { "" } else { "s" }),
        Face::Melee | Face::LeaderCasualty => format!("rolled {face}"),
    };
    Judged {
        dice: 1,
        needed: None,
        faces: vec![face],
        result,
        observed: u32::try_from(x).unwrap_or(0),
        stats: stats(&pmf, x),
        chance: None,
    }
}

fn side_luck(id: &str, name: Option<String>, rolls: &[RollLuck]) -> SideLuck {
    let mine: Vec<&RollLuck> = rolls.iter().filter(|r| r.side.as_deref() == Some(id)).collect();
    let mut tallies: BTreeMap<Measure, Tally> = BTreeMap::new();
    let (mut observed, mut expected, mut variance) = (0.0, 0.0, 0.0);
    for r in &mine {
        let measure = r.kind.measure();
        let t = tallies.entry(measure).or_insert(Tally {
            measure,
            rolls: 0,
            dice: 0,
            observed: 0.0,
            expected: 0.0,
        });
        t.rolls += 1;
        t.dice += r.dice;
        t.observed += f64::from(r.observed);
        t.expected += r.expected;
        if r.variance > 0.0 {
            observed += f64::from(r.observed);
            expected += r.expected;
            variance += r.variance;
        }
    }
    let z = if variance > 0.0 { (observed - expected) / variance.sqrt() } else { 0.0 };
    let percentile = normal_cdf(z);
    let count = u32::try_from(mine.len()).unwrap_or(u32::MAX);
    SideLuck {
        side: id.to_string(),
        name,
        rolls: count,
        tallies: tallies.into_values().collect(),
        observed,
        expected,
        variance,
        z,
        percentile,
        verdict: verdict(percentile, count).to_string(),
    }
}

/// The complementary error function for `x >= 0`.
fn erfc(x: f64) -> f64 {
    if x < 3.0 {
        1.0 - erf_series(x)
    } else {
        // erfc(x) = exp(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) / (x + ...)))),
        // evaluated from the tail inwards; at x >= 3, 60 levels are far more than enough.
        let mut f = x;
        for k in (1..=60).rev() {
            f = x + f64::from(k) / 2.0 / f;
        }
        (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
    }
}

/// erf(x) by its Taylor series: 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
fn erf_series(x: f64) -> f64 {
    let mut sum = 0.0;
    // term = (-1)^n x^(2n+1) / n!
    let mut term = x;
    for n in 0..200 {
        let add = term / f64::from(2 * n + 1);
        sum += add;
        if add.abs() < 1e-17 * sum.abs().max(1e-300) {
            break;
        }
        term *= -x * x / f64::from(n + 1);
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

#[cfg(test)]
mod tests {
    use dotc_lang::ast::{PhaseKind, Span};

    use super::*;
    use crate::engine::Event;
    use crate::engine::events::{Modifier, TestKind};

    /// Events of one action each, in turn 1, for a side `blue` with unit `A` and `red` with `B`.
    fn at(line: usize, what: What) -> ReplayEvent {
        ReplayEvent {
            turn: 1,
            side: "blue".into(),
            phase: PhaseKind::Fire,
            line,
            span: Span { start: line * 10, end: line * 10 + 5 },
            event: Event::new(what, "test"),
        }
    }

    fn sides() -> Sides {
        Sides::new().side("blue", Some("Blue Army")).side("red", None).name("A", "blue").name("B", "red")
    }

    /// A volley of `faces` at `to_hit`, as the engine reports it: declared, rolled, scored.
    fn volley(line: usize, firer: &str, faces: &[u8], to_hit: i32) -> Vec<ReplayEvent> {
        let hits = faces.iter().filter(|&&f| i32::from(f) >= to_hit).count() as u32;
        let sixes = faces.iter().filter(|&&f| f == 6).count() as u32;
        vec![
            at(
                line,
                What::Volley {
                    firer: firer.into(),
                    target: "B".into(),
                    band: "medium".into(),
                    range: 10.0,
                    dice: faces.len() as u32,
                    base: to_hit,
                    to_hit,
                    modifiers: Vec::<Modifier>::new(),
                },
            ),
            at(line, What::Rolled { purpose: Purpose::ToHit, faces: faces.to_vec() }),
            at(line, What::Hits { firer: firer.into(), faces: faces.to_vec(), to_hit, hits, sixes }),
        ]
    }

    fn test(line: usize, unit: &str, needed: i32, rolled: u8) -> ReplayEvent {
        at(
            line,
            What::Test {
                unit: unit.into(),
                test: TestKind::Discipline,
                base: needed,
                modifiers: Vec::new(),
                needed,
                rolled,
                discarded: None,
                passed: i32::from(rolled) >= needed,
            },
        )
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn five_dice_at_4_plus_all_hitting_is_the_top_1_in_32() {
        // RULE-05-2.1: P(5 hits) = (1/2)^5 = 1/32, so the mid-p percentile is 1 - (1/32) / 2.
        let luck = luck(&volley(1, "A", &[4, 5, 6, 4, 6], 4), &sides());
        let r = &luck.rolls[0];
        assert_eq!((r.kind, r.dice, r.needed, r.observed), (RollKind::Volley, 5, Some(4), 5));
        assert_eq!(r.percentile, 1.0 - (1.0 / 32.0) / 2.0);
        assert_eq!(r.chance, 1.0 / 32.0);
        assert_eq!(r.expected, 2.5);
        assert_eq!(r.variance, 1.25);
        assert_eq!(r.side.as_deref(), Some("blue"));
    }

    #[test]
    fn a_volley_percentile_is_the_exact_binomial_mid_p() {
        // 4 dice at 3+ (p = 2/3) with 2 hits: P(X < 2) = 1/81 + 8/81, P(X = 2) = 24/81.
        let luck = luck(&volley(1, "A", &[3, 1, 2, 6], 3), &sides());
        let r = &luck.rolls[0];
        assert!(close(r.percentile, 9.0 / 81.0 + 12.0 / 81.0), "{}", r.percentile);
        assert!(close(r.chance, 1.0 - 9.0 / 81.0));
        assert!(close(r.expected, 8.0 / 3.0));
        assert!(close(r.variance, 4.0 * 2.0 / 3.0 / 3.0));
    }

    #[test]
    fn a_side_that_rolls_its_expectation_scores_zero() {
        let mut events = volley(1, "A", &[1, 2, 3, 4, 5, 6], 4); // 3 hits of an expected 3
        events.push(test(2, "A", 4, 5)); // a pass and a fail at evens: 1 of an expected 1
        events.push(test(3, "A", 4, 3));
        let luck = luck(&events, &sides());
        let blue = &luck.sides[0];
        assert_eq!(blue.rolls, 3);
        assert_eq!(blue.observed, 4.0);
        assert_eq!(blue.expected, 4.0);
        assert_eq!(blue.z, 0.0);
        assert!(close(blue.percentile, 0.5));
        assert_eq!(blue.verdict, "about as lucky as expected");
        // The other side rolled nothing.
        assert_eq!((luck.sides[1].rolls, luck.sides[1].z), (0, 0.0));
        assert_eq!(luck.sides[1].verdict, "no rolls to judge");
    }

    #[test]
    fn an_all_sixes_side_is_very_lucky() {
        let mut events = Vec::new();
        for line in 1..=4 {
            events.extend(volley(line, "A", &[6, 6, 6, 6, 6], 4));
        }
        events.push(test(5, "A", 4, 6));
        let luck = luck(&events, &sides());
        let blue = &luck.sides[0];
        // 21 successes of an expected 10.5, variance 4 * 1.25 + 0.25 = 5.25.
        assert!(close(blue.z, 10.5 / 5.25f64.sqrt()), "{}", blue.z);
        assert!(blue.z > 4.0);
        assert!(blue.percentile > 0.9999);
        assert_eq!(blue.verdict, "very lucky (top 1%)");
        assert_eq!(blue.tallies[0].measure, Measure::Hits);
        assert_eq!((blue.tallies[0].observed, blue.tallies[0].expected), (20.0, 10.0));
    }

    #[test]
    fn a_test_is_judged_by_its_chance_to_pass() {
        // Needing 3+ (4 faces of 6): a fail is the bottom 1/3, its mid-p 1/6.
        let luck = luck(&[test(1, "B", 3, 2)], &sides());
        let r = &luck.rolls[0];
        assert_eq!(r.side.as_deref(), Some("red"));
        assert!(close(r.chance, 4.0 / 6.0));
        assert!(close(r.percentile, 1.0 / 6.0));
        assert_eq!(r.result, "rolled 2: failed");
    }

    #[test]
    fn saves_and_rerolls_are_judged_on_their_own_dice() {
        let events = vec![
            at(1, What::Rolled { purpose: Purpose::Save, faces: vec![5, 2, 3] }),
            at(1, What::Rolled { purpose: Purpose::Save, faces: vec![6] }),
            at(1, What::Reroll { unit: "B".into(), from: 2, to: 6 }),
            at(
                1,
                What::Saves {
                    unit: "B".into(),
                    save: 5,
                    modifiers: Vec::new(),
                    faces: vec![5, 6, 3],
                    saved: 2,
                    unsaved: 1,
                },
            ),
        ];
        let luck = luck(&events, &sides());
        assert_eq!(luck.rolls.len(), 2);
        let (first, again) = (&luck.rolls[0], &luck.rolls[1]);
        assert_eq!((first.kind, first.dice, first.observed), (RollKind::Saves, 3, 1));
        assert_eq!(first.faces, vec![5, 2, 3]);
        assert_eq!((again.kind, again.dice, again.observed), (RollKind::SaveReroll, 1, 1));
        let red = &luck.sides[1];
        assert_eq!(red.tallies[0].measure, Measure::Saves);
        assert_eq!(red.tallies[0].observed, 2.0);
        assert!(close(red.tallies[0].expected, 4.0 / 3.0));
    }

    #[test]
    fn a_missed_die_rolled_again_is_a_roll_of_its_own() {
        // Sharpshooters (Ch16 9.0): [1, 5] at 4+ is 1 hit as first rolled; the 1 again shows 4.
        let mut events = volley(1, "A", &[1, 5], 4);
        // The volley's own `Hits` goes: the reroll comes before it.
        events.pop();
        events.push(at(1, What::Rolled { purpose: Purpose::ToHit, faces: vec![4] }));
        events.push(at(1, What::Reroll { unit: "A".into(), from: 1, to: 4 }));
        events.push(at(1, What::Hits { firer: "A".into(), faces: vec![4, 5], to_hit: 4, hits: 2, sixes: 0 }));
        let luck = luck(&events, &sides());
        let kinds: Vec<(RollKind, u32, u32)> =
            luck.rolls.iter().map(|r| (r.kind, r.dice, r.observed)).collect();
        assert_eq!(kinds, [(RollKind::Volley, 2, 1), (RollKind::HitReroll, 1, 1)]);
        assert_eq!(luck.rolls[0].percentile, 0.5);
        assert_eq!(luck.sides[0].tallies[0].observed, 2.0);
        assert_eq!(luck.sides[0].tallies[0].expected, 1.5);
    }

    #[test]
    fn pips_melee_and_leader_rolls_are_scored_by_face() {
        let events = vec![
            at(1, What::Rolled { purpose: Purpose::StaffPips, faces: vec![5] }),
            at(1, What::Pips { brigade: "A".into(), change: 3, pips: 3, banked: 0 }),
            at(
                2,
                What::ShockScore { unit: "B".into(), rolled: 1, engaged: 2, modifiers: Vec::new(), score: 3 },
            ),
            at(3, What::LeaderCasualty { leader: "B".into(), rolled: 6, result: "Killed".into() }),
            at(
                3,
                What::LeaderReplaced {
                    leader: "B".into(),
                    by: "C".into(),
                    rating: "timid".into(),
                    permanent: true,
                },
            ),
            at(4, What::LeaderCasualty { leader: "C".into(), rolled: 1, result: "Unhurt".into() }),
        ];
        let luck = luck(&events, &sides());
        let [pips, melee, killed, unhurt] = luck.rolls.as_slice() else {
            panic!("four rolls: {:?}", luck.rolls);
        };
        // A 5 is 3 pips (RULINGS G2): the top third, mid-p 5/6.
        assert_eq!((pips.observed, pips.side.as_deref()), (3, Some("blue")));
        assert!(close(pips.percentile, 5.0 / 6.0));
        assert!(close(pips.expected, 2.0));
        // A melee 1 is the bottom sixth, mid-p 1/12.
        assert!(close(melee.percentile, 1.0 / 12.0));
        assert!(close(melee.expected, 3.5));
        assert!(close(melee.variance, 35.0 / 12.0));
        // A leader's 6 is the worst; his replacement is on his side.
        assert!(close(killed.percentile, 1.0 / 12.0));
        assert_eq!(unhurt.side.as_deref(), Some("red"));
        assert!(close(unhurt.percentile, 11.0 / 12.0));
    }

    #[test]
    fn the_normal_distribution_function_matches_known_values() {
        assert_eq!(normal_cdf(0.0), 0.5);
        assert!((normal_cdf(1.0) - 0.841_344_746_068_543).abs() < 1e-12);
        assert!((normal_cdf(-1.959_963_984_540_054) - 0.025).abs() < 1e-12);
        assert!((normal_cdf(2.9) - 0.998_134_186_699_616).abs() < 1e-12);
        assert!((normal_cdf(-5.0) - 2.866_515_718_791_939e-7).abs() < 1e-18);
        assert!(normal_cdf(f64::INFINITY) == 1.0 && normal_cdf(f64::NEG_INFINITY) == 0.0);
    }

    #[test]
    fn impossible_and_certain_numbers_do_not_break_anything() {
        // Unclamped to-hit numbers (RULINGS G1 `unclamped`): 7+ never hits, 1+ always does.
        let mut events = volley(1, "A", &[6, 6], 7);
        events.extend(volley(2, "A", &[1, 2], 1));
        let luck = luck(&events, &sides());
        assert_eq!(luck.rolls[0].variance, 0.0);
        assert_eq!(luck.rolls[0].percentile, 0.5);
        assert_eq!(luck.rolls[1].percentile, 0.5);
        assert_eq!(luck.sides[0].z, 0.0);
        assert_eq!(luck.sides[0].rolls, 2);
    }
}
