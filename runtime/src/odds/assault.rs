//! Exact odds of an assault chain: the defender's Closing Volley at the 4" line, the charger's
//! Shock save and pre-contact Discipline check, and the melee (Ch16 7.2-7.4, Ch6 3.0-4.0,
//! RULINGS C3, C7, G1, G3, G10). Exact enumeration, no sampling: the volley's joint
//! distribution of (unsaved hits, natural 6s, any hit) is convolved one die at a time, every
//! branch of the Shock save and the check is weighed by its chance, and each way of reaching
//! contact is priced by [`melee_odds`]. [`assault_monte_carlo`] plays the same chain on the
//! seed's d6 stream ([`D6Stream`]) to check it.
//!
//! The chain, for one charger:
//!
//! 1. The Closing Volley ([`FireQuery`]: the defender's weapon and firing stands, at the 4"
//!    interruption line, so short range; the charger's cover and formation). Two unsaved hits
//!    remove a stand, counting an old micro-hit (RULE-05-3.3). A regiment left with the
//!    `shattered` health entry's stands (1) or fewer is removed (Ch16 5.4, 8.1): no melee. The
//!    Shatter rule is infantry only (RULINGS G19), so a charger that is not infantry is removed
//!    only at 0 stands.
//! 2. Disorder: a Shock trigger (Ch16 5.5) forces a Discipline save whose failure disorders
//!    under RULINGS C3 `numbered`, and disorders outright under `any_six_disorders`; a weapon
//!    with `canister_disorder` (the Napoleon, Ch16 5.3) disorders with any hit at canister range,
//!    with no save. A charger already Disordered takes a micro-hit instead (RULE-07-3.4), which
//!    may complete another stand, and so shatter it.
//! 3. A charger that [`Charger::tests_under_fire`] (Spent before the volley, Ch16 8.1) takes a
//!    Discipline check for being fired on, hits or not, once per volley (RULE-07-1.4, RULINGS
//!    G9). Failing it, a charging unit stalls 2" away with a Disorder marker (RULE-07-1.5, the
//!    charging case; RULINGS C5: nothing more specific is stated).
//! 4. The pre-contact Discipline check (Ch16 7.2, RULINGS C7 `pre_contact_trigger`): called for
//!    by `loss_or_disorder` when the volley cost a stand (one completed from an old micro-hit
//!    counts) or gave a Disorder result (one that became a micro-hit included); by `hit_or_six`
//!    when it scored a hit (before saves) or rolled a natural 6; by `loss_or_six` for a lost stand
//!    or a natural 6. Failing stalls the charge 2" away, disordered (Ch16 7.2, RULINGS G10): no
//!    melee.
//! 5. The melee (Ch16 7.3): the charger's engaged stands are its stands left, at most its
//!    frontage (RULINGS G3: all of a line, 2 of an assault column), and it fights at the
//!    Disorder penalty (-2, RULINGS G10) if it is Disordered at contact.
//!
//! Judgements and what is not modelled:
//! - Discipline rolls: a 1 always fails and a 6 always passes (RULINGS G1). A +1 modifier makes
//!   the number needed one lower.
//! - The charger's health is not re-judged after its losses: [`Charger::melee_modifier`] is the
//!   sum of its melee modifiers other than Disorder (Fresh or Spent included) as the caller judges
//!   them. The Shock save's Fresh/Spent is judged before the volley's casualties (RULINGS G9), so
//!   [`Charger::shock_save_modifier`] is exact; [`health_state`] and [`shock_save_modifier`]
//!   work it out from the rule data.
//! - A stalled charger's own Disorder (a micro-hit if it already had one) is not followed further.
//! - Not modelled: an attached brigadier's casualty roll (Ch16 2.4, RULINGS C9), Iron Discipline
//!   (Ch16 9.0), the Rebel Yell's defender check, and Seen the Elephant's first-fire check.

use std::fmt;

use dotc_lang::library::{Health, RuleData};
use serde::Serialize;

use super::melee::{MeleeSide, melee_odds};
use super::{Cover, Estimate, FireOdds, FireQuery, OddsError, Volley, fire_odds, p_at_least, volley};
use crate::dice::D6Stream;
use crate::engine::fire::FireKind;
use crate::rulings::{HealthStates, PreContactTrigger, Rulings, Suppression};

/// The charging regiment, as far as the chain needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Charger {
    /// Stands before the Closing Volley.
    pub stands: u32,
    /// Stands it started the battle with (for its health state, Ch16 8.1).
    pub starting_stands: u32,
    /// It carries a micro-hit (an odd unsaved hit, RULE-05-3.3).
    pub micro_hit: bool,
    /// It carries a Disorder marker before the volley (a second one is a micro-hit, RULE-07-3.4).
    pub disordered: bool,
    /// Its quality's Discipline number (3 veteran or elite, 4 regular, 5 green; Ch16 5.5).
    pub discipline: u32,
    /// The sum of the modifiers to its pre-contact check (Ch16 7.2): Steady +1, an attached
    /// brigadier +1 (Ch16 2.4, 9.0), a Hesitant brigade -1 (RULE-07-2.3).
    pub discipline_modifier: i32,
    /// The sum of the modifiers to its Discipline save against Shock (Ch16 5.5): Fresh +1, Spent
    /// -1 (judged before the casualties, RULINGS G9), in cover +1, an attached brigadier +1.
    pub shock_save_modifier: i32,
    /// Stands that can reach contact: None for all of them (a line), 2 for an assault column
    /// (RULINGS G3).
    pub frontage: Option<u32>,
    /// The sum of its melee modifiers (Ch16 7.3) other than Disorder: Fresh +1, column +1,
    /// momentum +1, Rebel Yell +1... Its health is not re-judged after the volley's losses.
    pub melee_modifier: i32,
    /// Its melee modifier if it is Disordered at contact. None: the `disorder` marker's melee
    /// value of the rule data (-2, Ch16 7.3, RULINGS G10).
    pub disorder_melee_penalty: Option<i32>,
    /// An infantry regiment shatters at 1 stand (Ch16 5.4); the Shatter rule is infantry only
    /// (RULINGS G19).
    pub infantry: bool,
    /// It takes a Discipline check whenever it is fired on (the Spent state's
    /// `tests_under_fire`, RULE-07-1.4, RULINGS G9), with the modifiers of its pre-contact check;
    /// failing it stalls the charge (RULE-07-1.5).
    pub tests_under_fire: bool,
}

impl Charger {
    /// A full-strength infantry regiment in line with no modifiers, `discipline` its quality's
    /// Discipline number.
    pub fn new(stands: u32, discipline: u32) -> Charger {
        Charger {
            stands,
            starting_stands: stands,
            micro_hit: false,
            disordered: false,
            discipline,
            discipline_modifier: 0,
            shock_save_modifier: 0,
            frontage: None,
            melee_modifier: 0,
            disorder_melee_penalty: None,
            infantry: true,
            tests_under_fire: false,
        }
    }
}

/// One assault to price.
#[derive(Clone, Debug, PartialEq)]
pub struct AssaultQuery {
    /// The defender's Closing Volley (its range normally the 4" interruption line).
    pub volley: FireQuery,
    pub charger: Charger,
    /// The defender's side of the melee: its engaged stands and the sum of its modifiers.
    pub defender: MeleeSide,
}

/// The defender's volley as the closing volley it is (Ch16 6.0, 7.2): what a Hesitant brigade
/// (RULINGS C13) and Plunging Fire (Ch13 20.0) ask.
fn closing_volley(q: &FireQuery) -> FireQuery {
    FireQuery { kind: FireKind::Closing, ..q.clone() }
}

/// The exact odds of an assault chain. All probabilities are unconditional; `p_destroyed +
/// p_stalled + p_attacker_wins + p_draw + p_defender_wins = 1` and `p_contact = p_attacker_wins +
/// p_draw + p_defender_wins`. The field names are a fixed interface.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssaultOdds {
    /// The charger is shattered by the volley (Ch16 5.4, 8.1): no melee.
    pub p_destroyed: f64,
    /// It fails its pre-contact check (or, Spent, its check for being fired on) and stalls 2"
    /// away, Disordered (Ch16 7.2, RULE-07-1.5, RULINGS G10).
    pub p_stalled: f64,
    /// It reaches contact and the melee is fought.
    pub p_contact: f64,
    pub p_attacker_wins: f64,
    /// A Bloody Draw (Ch16 7.4).
    pub p_draw: f64,
    pub p_defender_wins: f64,
    /// The pre-contact check was called for (RULINGS C7), passed or not. A Spent charger's check
    /// for being fired on ([`Charger::tests_under_fire`]) is not counted here.
    pub p_pre_contact_check: f64,
    /// It reaches contact Disordered, and fights at the Disorder penalty (RULINGS G10).
    pub p_contact_disordered: f64,
    /// Stands the volley removes: by unsaved hits (with an old micro-hit) and by a double-Disorder
    /// micro-hit. The last stand of a shattered regiment is not counted.
    pub expected_stands_lost_to_volley: f64,
    /// The chance the pre-contact check passes, when it is taken.
    pub p_check_passes: f64,
    /// The chance the Shock save passes, when it is taken; None if it never is: a Shock trigger
    /// disorders outright (RULINGS C3 `any_six_disorders`), or every hit does ([`Self::canister_disorder`]).
    pub p_shock_save_passes: Option<f64>,
    /// Every hit of the closing volley disorders, with no save: a Napoleon's canister (Ch16 5.3,
    /// the weapon's `canister_disorder`).
    pub canister_disorder: bool,
    /// The Closing Volley's own odds.
    pub closing_volley: FireOdds,
}

/// Why an assault cannot be priced.
#[derive(Clone, Debug, PartialEq)]
pub enum AssaultError {
    /// The Closing Volley cannot be priced.
    Volley(OddsError),
    NoChargerStands,
    /// The charger has more stands than it started with.
    MoreThanStarting {
        stands: u32,
        starting: u32,
    },
    /// An infantry regiment of this many stands is already shattered (Ch16 5.4, 8.1).
    AlreadyShattered(u32),
    /// A frontage of 0 stands: the charger could never reach contact.
    NoFrontage,
    /// The defender has no engaged stand: there is no melee (RULINGS G3).
    NoDefenderStands,
    /// A stdlib entry the chain needs is missing from the rule data.
    MissingRuleData(&'static str),
}

impl fmt::Display for AssaultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssaultError::Volley(e) => write!(f, "closing volley: {e}"),
            AssaultError::NoChargerStands => write!(f, "a charger needs at least 1 stand"),
            AssaultError::MoreThanStarting { stands, starting } => {
                write!(f, "the charger has {stands} stands but started with {starting}")
            }
            AssaultError::AlreadyShattered(n) => {
                write!(f, "an infantry regiment of {n} stand(s) is already shattered (Ch16 5.4, 8.1)")
            }
            AssaultError::NoFrontage => write!(f, "a charger needs a frontage of at least 1 stand"),
            AssaultError::NoDefenderStands => {
                write!(f, "the defender needs at least 1 engaged stand (RULINGS G3)")
            }
            AssaultError::MissingRuleData(id) => write!(f, "the rule data has no `{id}` entry"),
        }
    }
}

impl std::error::Error for AssaultError {}

impl From<OddsError> for AssaultError {
    fn from(e: OddsError) -> AssaultError {
        AssaultError::Volley(e)
    }
}

/// Whether a Discipline die passes (RULINGS G1: a 1 always fails, a 6 always passes).
fn passes(face: u8, target: u32, modifier: i32) -> bool {
    face == 6 || (face != 1 && i32::from(face) + modifier >= target as i32)
}

/// The chance a Discipline roll passes: the faces of [`passes`], counted.
fn p_passes(target: u32, modifier: i32) -> f64 {
    f64::from((1..=6u8).filter(|&f| passes(f, target, modifier)).count() as u32) / 6.0
}

/// A roll the chain may call for after the volley's dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Roll {
    ShockSave,
    /// A Spent charger's check for being fired on (RULE-07-1.4, RULINGS G9).
    UnderFire,
    Check,
}

/// The most rolls one chain makes after the volley: each of [`Roll`] at most once.
const MAX_ROLLS: usize = 3;

/// Every way the rolls after the volley's dice `o` can go, each with its chance, as `f(outcome,
/// chance)`: a depth-first walk of the chain's decision tree. `script` answers the first `len`
/// rolls the chain asks for, later ones pass; each roll asked past the script is then also
/// walked failing. A roll the chain does not make is never branched on.
fn walk(
    chain: &Chain<'_>,
    o: &VolleyOutcome,
    script: [bool; MAX_ROLLS],
    len: usize,
    p_of: &impl Fn(Roll, bool) -> f64,
    f: &mut impl FnMut(Outcome, f64),
) {
    let mut asked = [Roll::Check; MAX_ROLLS];
    let mut n = 0;
    let out = chain.resolve(o.unsaved, o.sixes, o.hit, |r| {
        let answer = n >= len || script[n];
        if n < MAX_ROLLS {
            asked[n] = r;
        }
        n += 1;
        answer
    });
    let n = n.min(MAX_ROLLS);
    let p = (0..n).fold(o.p, |p, i| p * p_of(asked[i], i >= len || script[i]));
    f(out, p);
    for i in len..n {
        let mut branch = script;
        branch[len..i].iter_mut().for_each(|a| *a = true);
        branch[i] = false;
        walk(chain, o, branch, i + 1, p_of, f);
    }
}

/// How the chain ends before the melee dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Destroyed,
    Stalled,
    Contact { stands: u32, disordered: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Outcome {
    end: End,
    /// Stands removed by the volley (see [`AssaultOdds::expected_stands_lost_to_volley`]).
    lost: u32,
    checked: bool,
}

/// Everything the exact odds and the simulation share.
struct Chain<'q> {
    charger: &'q Charger,
    defender: MeleeSide,
    volley: Volley,
    /// Left with this many stands or fewer, the charger is removed.
    shatter_at: u32,
    disorder_penalty: i32,
    suppression: Suppression,
    trigger: PreContactTrigger,
}

impl<'q> Chain<'q> {
    fn new(q: &'q AssaultQuery, data: &RuleData, rulings: &Rulings) -> Result<Chain<'q>, AssaultError> {
        let c = &q.charger;
        if c.stands == 0 {
            return Err(AssaultError::NoChargerStands);
        }
        if c.starting_stands < c.stands {
            return Err(AssaultError::MoreThanStarting { stands: c.stands, starting: c.starting_stands });
        }
        if c.frontage == Some(0) {
            return Err(AssaultError::NoFrontage);
        }
        if q.defender.engaged_stands == 0 {
            return Err(AssaultError::NoDefenderStands);
        }
        let volley = volley(&closing_volley(&q.volley), data, rulings)?;
        let shatter_at = if c.infantry {
            data.health("shattered")
                .and_then(|h| h.at_most_stands)
                .ok_or(AssaultError::MissingRuleData("health shattered"))?
        } else {
            0
        };
        if c.stands <= shatter_at {
            return Err(AssaultError::AlreadyShattered(c.stands));
        }
        let disorder_penalty = match c.disorder_melee_penalty {
            Some(p) => p,
            None => data
                .marker("disorder")
                .and_then(|m| m.melee)
                .map(|m| m.value)
                .ok_or(AssaultError::MissingRuleData("disorder"))?,
        };
        Ok(Chain {
            charger: c,
            defender: q.defender,
            volley,
            shatter_at,
            disorder_penalty,
            suppression: rulings.suppression,
            trigger: rulings.pre_contact_trigger,
        })
    }

    fn shattered(&self, left: u32) -> bool {
        left <= self.shatter_at
    }

    /// The chain after the volley's dice: `unsaved` hits, `sixes` natural 6s (counted at least up
    /// to the Shock threshold), `hit` whether any die hit. `roll` answers the Shock save and the
    /// pre-contact check, and is asked only for the rolls the chain makes.
    fn resolve(&self, unsaved: u32, sixes: u32, hit: bool, mut roll: impl FnMut(Roll) -> bool) -> Outcome {
        let c = self.charger;
        // Two unsaved hits a stand, the old micro-hit counted (RULE-05-3.3).
        let total = u32::from(c.micro_hit) + unsaved;
        let mut lost = (total / 2).min(c.stands);
        let micro_left = total % 2 == 1;
        let mut left = c.stands - lost;
        if self.shattered(left) {
            return Outcome { end: End::Destroyed, lost, checked: false };
        }
        // Disorder: a Napoleon's canister hit (no save), or a Shock trigger (RULINGS C3).
        let shock = sixes >= self.volley.sixes_for_shock;
        let disorder = (self.volley.auto_disorder && hit)
            || (shock
                && match self.suppression {
                    Suppression::Numbered => !roll(Roll::ShockSave),
                    Suppression::AnySixDisorders => true,
                });
        let mut disordered = c.disordered;
        if disorder {
            if disordered {
                // Double Disorder: a micro-hit, which may complete a stand (RULE-07-3.4).
                if micro_left {
                    lost += 1;
                    left -= 1;
                    if self.shattered(left) {
                        return Outcome { end: End::Destroyed, lost, checked: false };
                    }
                }
            } else {
                disordered = true;
            }
        }
        // Spent: a check for being fired on, hits or not; a charger that fails it stalls
        // (RULE-07-1.4, 1.5, RULINGS G9).
        if c.tests_under_fire && !roll(Roll::UnderFire) {
            return Outcome { end: End::Stalled, lost, checked: false };
        }
        // The pre-contact check (Ch16 7.2, RULINGS C7).
        let checked = match self.trigger {
            PreContactTrigger::LossOrDisorder => lost > 0 || disorder,
            PreContactTrigger::HitOrSix => hit || sixes > 0,
            PreContactTrigger::LossOrSix => lost > 0 || sixes > 0,
        };
        if checked && !roll(Roll::Check) {
            return Outcome { end: End::Stalled, lost, checked };
        }
        Outcome { end: End::Contact { stands: left, disordered }, lost, checked }
    }

    /// The charger's side of the melee with `stands` left.
    fn attacker(&self, stands: u32, disordered: bool) -> MeleeSide {
        let c = self.charger;
        MeleeSide {
            engaged_stands: c.frontage.map_or(stands, |f| f.min(stands)),
            modifier: c.melee_modifier + if disordered { self.disorder_penalty } else { 0 },
        }
    }

    fn target(&self, roll: Roll) -> (u32, i32) {
        let c = self.charger;
        match roll {
            Roll::ShockSave => (c.discipline, c.shock_save_modifier),
            Roll::UnderFire | Roll::Check => (c.discipline, c.discipline_modifier),
        }
    }
}

/// One way the volley's dice can fall, as the chain reads them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct VolleyOutcome {
    unsaved: u32,
    /// Natural 6s, counted up to the Shock threshold (at least 1).
    sixes: u32,
    hit: bool,
    p: f64,
}

/// The joint distribution of (unsaved hits, natural 6s, any hit), one die at a time. Each die is
/// a natural 6 (a hit when the to-hit number is 6 or less: RULINGS G1 clamping makes it always
/// one), another hitting face, or a miss; a hit is then saved or not (Ch16 5.4).
fn volley_outcomes(v: &Volley) -> Vec<VolleyOutcome> {
    let n = v.dice as usize;
    let cap = v.sixes_for_shock.max(1) as usize;
    let p_save = v.save.map_or(0.0, p_at_least);
    let six_hits = v.to_hit <= 6;
    let other_hits = (1..=5).filter(|&f| f >= v.to_hit).count() as f64;
    let (p6, p_hit5, p_miss5) = (1.0 / 6.0, other_hits / 6.0, (5.0 - other_hits) / 6.0);
    let idx = |u: usize, s: usize, h: usize| (u * (cap + 1) + s) * 2 + h;
    let mut dist = vec![0.0; (n + 1) * (cap + 1) * 2];
    let mut next = dist.clone();
    dist[idx(0, 0, 0)] = 1.0;
    for die in 0..n {
        next.iter_mut().for_each(|w| *w = 0.0);
        for u in 0..=die {
            for s in 0..=cap {
                for h in 0..2 {
                    let w = dist[idx(u, s, h)];
                    if w == 0.0 {
                        continue;
                    }
                    let s6 = (s + 1).min(cap);
                    if six_hits {
                        next[idx(u + 1, s6, 1)] += w * p6 * (1.0 - p_save);
                        next[idx(u, s6, 1)] += w * p6 * p_save;
                    } else {
                        next[idx(u, s6, h)] += w * p6;
                    }
                    next[idx(u + 1, s, 1)] += w * p_hit5 * (1.0 - p_save);
                    next[idx(u, s, 1)] += w * p_hit5 * p_save;
                    next[idx(u, s, h)] += w * p_miss5;
                }
            }
        }
        std::mem::swap(&mut dist, &mut next);
    }
    let mut out = Vec::new();
    for u in 0..=n {
        for s in 0..=cap {
            for h in 0..2 {
                let p = dist[idx(u, s, h)];
                if p > 0.0 {
                    out.push(VolleyOutcome { unsaved: u as u32, sixes: s as u32, hit: h == 1, p });
                }
            }
        }
    }
    out
}

/// The exact odds of an assault chain.
pub fn assault_odds(
    q: &AssaultQuery,
    data: &RuleData,
    rulings: &Rulings,
) -> Result<AssaultOdds, AssaultError> {
    let chain = Chain::new(q, data, rulings)?;
    let closing_volley = fire_odds(&closing_volley(&q.volley), data, rulings)?;
    let p_of = |roll: Roll, pass: bool| {
        let (target, modifier) = chain.target(roll);
        let p = p_passes(target, modifier);
        if pass { p } else { 1.0 - p }
    };
    let (mut destroyed, mut stalled, mut checked, mut lost) = (0.0, 0.0, 0.0, 0.0);
    // Mass reaching contact, by (stands left, disordered): a handful of keys.
    let mut contact: Vec<((u32, bool), f64)> = Vec::new();
    for o in volley_outcomes(&chain.volley) {
        walk(&chain, &o, [true; MAX_ROLLS], 0, &p_of, &mut |out, p| {
            lost += p * f64::from(out.lost);
            if out.checked {
                checked += p;
            }
            match out.end {
                End::Destroyed => destroyed += p,
                End::Stalled => stalled += p,
                End::Contact { stands, disordered } => {
                    match contact.iter_mut().find(|(key, _)| *key == (stands, disordered)) {
                        Some((_, mass)) => *mass += p,
                        None => contact.push(((stands, disordered), p)),
                    }
                }
            }
        });
    }
    let (mut wins, mut draws, mut losses, mut contact_disordered) = (0.0, 0.0, 0.0, 0.0);
    for &((stands, disordered), p) in &contact {
        // Both sides have an engaged stand: the chain refuses a 0 frontage or defender.
        let m = melee_odds(chain.attacker(stands, disordered), chain.defender)
            .map_err(|_| AssaultError::NoDefenderStands)?;
        wins += p * m.attacker_wins;
        draws += p * m.draw;
        losses += p * m.defender_wins;
        if disordered {
            contact_disordered += p;
        }
    }
    let (target, modifier) = chain.target(Roll::Check);
    let (save_target, save_modifier) = chain.target(Roll::ShockSave);
    Ok(AssaultOdds {
        p_destroyed: destroyed,
        p_stalled: stalled,
        p_contact: wins + draws + losses,
        p_attacker_wins: wins,
        p_draw: draws,
        p_defender_wins: losses,
        p_pre_contact_check: checked,
        p_contact_disordered: contact_disordered,
        expected_stands_lost_to_volley: lost,
        p_check_passes: p_passes(target, modifier),
        p_shock_save_passes: (chain.suppression == Suppression::Numbered && !chain.volley.auto_disorder)
            .then(|| p_passes(save_target, save_modifier)),
        canister_disorder: chain.volley.auto_disorder,
        closing_volley,
    })
}

/// Monte Carlo estimates of an assault chain, for checking [`assault_odds`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AssaultEstimate {
    pub trials: u64,
    pub seed: u64,
    pub p_destroyed: Estimate,
    pub p_stalled: Estimate,
    pub p_contact: Estimate,
    pub p_attacker_wins: Estimate,
    pub p_draw: Estimate,
    pub p_defender_wins: Estimate,
    pub p_pre_contact_check: Estimate,
    pub p_contact_disordered: Estimate,
    pub expected_stands_lost_to_volley: Estimate,
}

/// Play `n` assaults with the seed's d6 stream ([`D6Stream`]): the volley's to-hit dice, one save
/// die per hit, the Shock save and the check when the chain calls for them, then one melee die a
/// side.
pub fn assault_monte_carlo(
    q: &AssaultQuery,
    data: &RuleData,
    rulings: &Rulings,
    n: u64,
    seed: u64,
) -> Result<AssaultEstimate, AssaultError> {
    let chain = Chain::new(q, data, rulings)?;
    let v = &chain.volley;
    let mut dice = D6Stream::new(seed);
    // Counts of each 0/1 outcome, and the sums for stands lost.
    let (mut destroyed, mut stalled, mut wins, mut draws, mut losses, mut checked, mut disordered_at) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut lost_sum, mut lost_sq) = (0.0, 0.0);
    for _ in 0..n {
        let (mut hits, mut sixes) = (0u32, 0u32);
        for _ in 0..v.dice {
            let face = dice.next_d6();
            hits += u32::from(i32::from(face) >= v.to_hit);
            sixes += u32::from(face == 6);
        }
        let unsaved = match v.save {
            None => hits,
            Some(save) => (0..hits).filter(|_| i32::from(dice.next_d6()) < save).count() as u32,
        };
        let out = chain.resolve(unsaved, sixes, hits > 0, |r| {
            let (target, modifier) = chain.target(r);
            passes(dice.next_d6(), target, modifier)
        });
        let l = f64::from(out.lost);
        lost_sum += l;
        lost_sq += l * l;
        checked += u64::from(out.checked);
        match out.end {
            End::Destroyed => destroyed += 1,
            End::Stalled => stalled += 1,
            End::Contact { stands, disordered } => {
                disordered_at += u64::from(disordered);
                let a = chain.attacker(stands, disordered);
                let d = chain.defender;
                let score_a = i64::from(a.engaged_stands) + i64::from(a.modifier) + i64::from(dice.next_d6());
                let score_d = i64::from(d.engaged_stands) + i64::from(d.modifier) + i64::from(dice.next_d6());
                match score_a.cmp(&score_d) {
                    std::cmp::Ordering::Greater => wins += 1,
                    std::cmp::Ordering::Equal => draws += 1,
                    std::cmp::Ordering::Less => losses += 1,
                }
            }
        }
    }
    let share = |k: u64| Estimate::from_sums(n, k as f64, k as f64);
    Ok(AssaultEstimate {
        trials: n,
        seed,
        p_destroyed: share(destroyed),
        p_stalled: share(stalled),
        p_contact: share(wins + draws + losses),
        p_attacker_wins: share(wins),
        p_draw: share(draws),
        p_defender_wins: share(losses),
        p_pre_contact_check: share(checked),
        p_contact_disordered: share(disordered_at),
        expected_stands_lost_to_volley: Estimate::from_sums(n, lost_sum, lost_sq),
    })
}

/// The health state (Ch16 8.1) of a regiment with `stands` of `starting` left, from the rule
/// data's `health` entries under RULINGS C4 (`health_states`): one stand or fewer Shattered; then
/// Spent by stand count or by percentage as the switch says; Fresh above its percentage; Worn
/// otherwise. The same reading as the engine's.
pub fn health_state<'d>(
    data: &'d RuleData,
    rulings: &Rulings,
    stands: u32,
    starting: u32,
) -> Result<&'d Health, AssaultError> {
    let get =
        |id: &'static str, what: &'static str| data.health(id).ok_or(AssaultError::MissingRuleData(what));
    let fresh = get("fresh", "health fresh")?;
    let worn = get("worn", "health worn")?;
    let spent = get("spent", "health spent")?;
    let shattered = get("shattered", "health shattered")?;
    let starting = starting.max(1);
    if shattered.by_stand_count(stands) {
        return Ok(shattered);
    }
    let is_spent = match rulings.health_states {
        HealthStates::Combined => spent.by_stand_count(stands) || spent.by_percentage(stands, starting),
        HealthStates::Percentages => spent.by_percentage(stands, starting),
        HealthStates::StandCounts => spent.by_stand_count(stands),
    };
    Ok(if is_spent {
        spent
    } else if fresh.by_percentage(stands, starting) {
        fresh
    } else {
        worn
    })
}

/// The modifier of a Discipline save against Shock for a target in `health` and `cover`
/// (Ch16 5.5: Fresh +1, Spent -1, in any cover +1), from the `disorder` marker's
/// `discipline_mod` lines. Crossfire (-1) does not arise: a closing volley is one unit's fire.
pub fn shock_save_modifier(data: &RuleData, health: &Health, cover: Cover) -> Result<i32, AssaultError> {
    let disorder = data.marker("disorder").ok_or(AssaultError::MissingRuleData("disorder"))?;
    Ok(disorder
        .discipline_mods
        .iter()
        .filter(|m| {
            let word = m.condition.word();
            word == health.meta.id || (word == "cover" && cover != Cover::Open)
        })
        .map(|m| m.value)
        .sum())
}

#[cfg(test)]
#[path = "assault_tests.rs"]
mod tests;
