//! Exact odds of one volley of fire (Ch16 5.0-5.7, RULE-05-x), and a Monte Carlo check of them.
//!
//! Pure: no IO. Every table number comes from [`RuleData`]: the weapon's dice and bands (Ch16
//! 5.2, 5.3), the cover saves of the terrain, obstacle and structure entries (Ch16 5.4), the
//! formations' save modifiers (Ch16 3.2, 5.6), the Disorder and Gunsmoke markers (to-hit
//! modifiers, the natural-6 Shock triggers of Ch16 5.5), the skirmish screen's to-hit modifier
//! (Ch16 3.4) and the Concentrated Battery Fire order's save penalty (RULE-05-2.4).
//!
//! Enfilade's +1 to hit (RULE-05-1.5) is the stdlib's `modifier enfilade`, and a Hesitant
//! brigade's -1 (RULE-07-2.3, RULINGS C13) its `brigade_state hesitant`.
//!
//! Simplifications, each a judgement a richer query could lift:
//! - `Cover::Light` is read as the Light cover of a frontal linear obstacle (a fence, the case
//!   RULE-05-1.5 names). So enfilade takes it away under both RULINGS C15 settings, and a field
//!   howitzer ignores it (Ch16 5.3). The Light save skirmish order has in its own right (Ch16
//!   5.6) is no obstacle: enfilade takes it away only under C15 `majority_behind` ("denies all
//!   Light saves", Ch16 5.6).
//! - Cover never stacks: a skirmisher in cover saves on the better of the two.
//! - Hesitant (C13): the query is a Phase 3 volley, so the -1 applies under both settings.
//! - Concentrated battery fire is an artillery order (RULE-05-2.4); asking it of a small arm is
//!   an error.
//! - The firer's arm follows the weapon class: artillery fires as artillery, carbines and
//!   shotguns as cavalry (RULINGS C21 bands), other small arms as infantry.

use std::fmt;

use dotc_lang::library::{Arm, BandName, CoverClass, DicePer, RuleData, Weapon, WeaponClass};
use serde::Serialize;

use crate::dice::D6Stream;
use crate::rulings::{Enfilade, Rulings, Suppression, ToHitLimits};

/// The cover the target stands in (Ch16 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    Open,
    Light,
    Heavy,
}

/// The target's formation, as far as it changes its saves (Ch16 3.2, 5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetFormation {
    Line,
    /// Assault column: -1 save against artillery (RULE-05-2.5, RULINGS C30).
    Column,
    /// Road column: -2 save (Ch16 5.6).
    Road,
    /// Skirmish order: saves 5+ in the open (Ch16 5.6).
    Skirmish,
}

impl TargetFormation {
    /// The stdlib formation entry.
    fn formation_id(self) -> &'static str {
        match self {
            TargetFormation::Line => "line",
            TargetFormation::Column => "assault_column",
            TargetFormation::Road => "road_column",
            TargetFormation::Skirmish => "skirmish",
        }
    }
}

/// One volley to price.
#[derive(Clone, Debug, PartialEq)]
pub struct FireQuery {
    /// A weapon id of the rule data.
    pub weapon: String,
    /// Stands firing (sections for artillery).
    pub stands: u32,
    /// Inches to the target.
    pub range: f64,
    pub cover: Cover,
    pub target: TargetFormation,
    /// Sight passes through gunsmoke (-1 beyond 6", Ch16 5.7).
    pub smoke: bool,
    /// Firing through the unit's own skirmish screen (RULE-05-6.2).
    pub screen: bool,
    /// Enfilade fire (RULE-05-1.5, RULINGS C15).
    pub enfilade: bool,
    /// The firer carries Disorder (RULE-05-4.4).
    pub disordered: bool,
    /// The firer's brigade is Hesitant (RULINGS C13).
    pub hesitant: bool,
    /// Concentrated Battery Fire (RULE-05-2.4).
    pub concentrated: bool,
}

impl FireQuery {
    /// Rifle-range defaults: open ground, a line, no modifiers.
    pub fn new(weapon: &str, stands: u32, range: f64) -> FireQuery {
        FireQuery {
            weapon: weapon.to_string(),
            stands,
            range,
            cover: Cover::Open,
            target: TargetFormation::Line,
            smoke: false,
            screen: false,
            enfilade: false,
            disordered: false,
            hesitant: false,
            concentrated: false,
        }
    }
}

/// The exact odds of one volley. The JSON field names are a fixed interface.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FireOdds {
    /// Dice rolled, bonus dice included (RULE-05-2.1, RULINGS G16).
    pub dice: u32,
    /// The range band's name.
    pub band: String,
    /// The to-hit number after every modifier (Ch16 5.6; clamped 2..6 under RULINGS G1).
    pub to_hit: i32,
    /// The cover save after every modifier, None if the target has none.
    pub save: Option<i32>,
    /// Chance one die hits.
    pub p_hit: f64,
    pub expected_hits: f64,
    pub expected_unsaved: f64,
    /// expected_unsaved / 2: two unsaved hits remove a stand (RULE-05-3.3), the Ch15 convention.
    pub expected_stands_lost: f64,
    /// Chance of a Shock trigger (RULE-05-4.1, RULINGS C3).
    pub p_shock: f64,
    /// P(k hits), k = 0..=dice.
    pub hits: Vec<f64>,
    /// P(k unsaved hits).
    pub unsaved: Vec<f64>,
    /// P(the volley removes k stands from a target with no micro-hit) = P(floor(unsaved/2) = k).
    pub stands_lost: Vec<f64>,
}

/// Why a volley cannot be priced.
#[derive(Clone, Debug, PartialEq)]
pub enum OddsError {
    UnknownWeapon(String),
    OutOfRange {
        weapon: String,
        range: f64,
        max_range: f64,
    },
    NoStands,
    /// More stands than [`MAX_STANDS`].
    TooManyStands(u32),
    /// Concentrated Battery Fire with a weapon that is not artillery (RULE-05-2.4).
    NotArtillery(String),
    /// A stdlib entry the odds need is missing from the rule data.
    MissingRuleData(&'static str),
}

impl fmt::Display for OddsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OddsError::UnknownWeapon(w) => write!(f, "unknown weapon `{w}`"),
            OddsError::OutOfRange { weapon, range, max_range } => {
                write!(f, "`{weapon}` cannot fire at {range}\": out of range (it reaches 0 to {max_range}\")")
            }
            OddsError::NoStands => write!(f, "a volley needs at least 1 stand or section"),
            OddsError::TooManyStands(n) => {
                write!(f, "{n} stands is more than one volley can have (at most {MAX_STANDS})")
            }
            OddsError::NotArtillery(w) => {
                write!(f, "concentrated battery fire is for artillery (RULE-05-2.4); `{w}` is not artillery")
            }
            OddsError::MissingRuleData(id) => write!(f, "the rule data has no `{id}` entry"),
        }
    }
}

impl std::error::Error for OddsError {}

/// The most stands (or sections) one volley may have: far above any regiment or battery, low
/// enough that the distributions stay small.
pub const MAX_STANDS: u32 = 500;

/// Everything the exact odds and the simulation share (and the assault chain, `assault.rs`).
#[derive(Clone)]
pub(crate) struct Volley {
    pub(crate) dice: u32,
    pub(crate) band: String,
    pub(crate) to_hit: i32,
    pub(crate) save: Option<i32>,
    /// Natural 6s that make a Shock trigger.
    pub(crate) sixes_for_shock: u32,
    /// Every hit disorders the target with no save: a Napoleon's canister (Ch16 5.3, the
    /// weapon's `canister_disorder`). Not part of [`FireOdds`]; the assault chain uses it.
    pub(crate) auto_disorder: bool,
}

fn arm_of(weapon: &Weapon) -> Arm {
    match weapon.class {
        WeaponClass::Artillery => Arm::Artillery,
        WeaponClass::Carbine | WeaponClass::Shotgun => Arm::Cavalry,
        WeaponClass::SmallArm => Arm::Infantry,
    }
}

/// The save of a cover class, as the terrain, obstacle and structure entries give it (Ch16 5.4).
fn cover_save(data: &RuleData, class: CoverClass) -> Result<u32, OddsError> {
    data.terrain_kinds()
        .iter()
        .map(|t| t.cover)
        .chain(data.obstacles().iter().map(|o| o.cover))
        .chain(data.structures().iter().map(|s| s.cover))
        .find(|c| c.class == class && c.save.is_some())
        .and_then(|c| c.save)
        .ok_or(match class {
            CoverClass::Heavy => OddsError::MissingRuleData("heavy cover"),
            _ => OddsError::MissingRuleData("light cover"),
        })
}

pub(crate) fn volley(q: &FireQuery, data: &RuleData, rulings: &Rulings) -> Result<Volley, OddsError> {
    let weapon = data.weapon(&q.weapon).ok_or_else(|| OddsError::UnknownWeapon(q.weapon.clone()))?;
    if q.stands == 0 {
        return Err(OddsError::NoStands);
    }
    // A pool larger than any table holds would only make the distributions huge.
    if q.stands > MAX_STANDS {
        return Err(OddsError::TooManyStands(q.stands));
    }
    let artillery = weapon.class == WeaponClass::Artillery || weapon.dice.per == DicePer::Section;
    if q.concentrated && !artillery {
        return Err(OddsError::NotArtillery(q.weapon.clone()));
    }
    let arm = arm_of(weapon);
    let band = weapon.band_at(arm, q.range).filter(|_| q.range.is_finite()).ok_or_else(|| {
        OddsError::OutOfRange { weapon: q.weapon.clone(), range: q.range, max_range: weapon.max_range(arm) }
    })?;

    let disorder = data.marker("disorder").ok_or(OddsError::MissingRuleData("disorder"))?;
    let gunsmoke = data.marker("gunsmoke").ok_or(OddsError::MissingRuleData("gunsmoke"))?;
    let skirmish = data.formation("skirmish").ok_or(OddsError::MissingRuleData("skirmish"))?;

    // To hit (Ch16 5.6): a +1 modifier makes the number one lower.
    let mut modifier = 0;
    if q.disordered {
        modifier += disorder.to_hit.iter().filter(|m| m.beyond.is_none()).map(|m| m.value).sum::<i32>();
    }
    if q.enfilade {
        // RULE-05-1.5, Ch16 5.6: the stdlib's `modifier enfilade`.
        modifier += data.modifier("enfilade").ok_or(OddsError::MissingRuleData("modifier enfilade"))?.to_hit;
    }
    if q.smoke {
        // RULE-05-5.2/5.3: only beyond 6"; the -1 never stacks (RULINGS G11).
        modifier += gunsmoke
            .to_hit
            .iter()
            .filter(|m| m.beyond.is_none_or(|d| q.range > d))
            .map(|m| m.value)
            .sum::<i32>();
    }
    if q.screen {
        modifier += skirmish.screen.as_ref().and_then(|s| s.to_hit).unwrap_or(0);
    }
    if q.hesitant {
        // RULE-07-2.3, Ch16 8.2, RULINGS C13: the stdlib's `brigade_state hesitant`.
        modifier += data
            .brigade_state("hesitant")
            .ok_or(OddsError::MissingRuleData("brigade_state hesitant"))?
            .to_hit;
    }
    let raw = band.hits as i32 - modifier;
    let to_hit = match rulings.to_hit_limits {
        ToHitLimits::Clamp => raw.clamp(2, 6),
        ToHitLimits::Unclamped => raw,
    };

    // Saves (Ch16 5.4, 5.6).
    let formation =
        data.formation(q.target.formation_id()).ok_or(OddsError::MissingRuleData("target formation"))?;
    let terrain = match q.cover {
        Cover::Open => None,
        // Read as a frontal linear obstacle: enfilade (C15, both settings) and a howitzer (Ch16
        // 5.3) take it away.
        Cover::Light if q.enfilade || weapon.ignores_obstacle_light_cover => None,
        Cover::Light => Some(cover_save(data, CoverClass::Light)?),
        Cover::Heavy => Some(cover_save(data, CoverClass::Heavy)?),
    };
    let own = formation.cover.and_then(|c| {
        let denied =
            c.class == CoverClass::Light && q.enfilade && rulings.enfilade == Enfilade::MajorityBehind;
        if denied { None } else { c.save }
    });
    let base = match (terrain, own) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let save = match base {
        None => None,
        Some(base) => {
            let mut penalty: i32 =
                formation.saves.iter().filter(|s| artillery || !s.artillery_only).map(|s| s.value).sum();
            if q.concentrated {
                let order = data
                    .order("concentrated_battery_fire")
                    .ok_or(OddsError::MissingRuleData("concentrated_battery_fire"))?;
                penalty += order.target_save;
            }
            // A save pushed to 7+ is lost; never better than 2+ (RULINGS G1).
            let target = (base as i32 - penalty).max(2);
            (target <= 6).then_some(target)
        }
    };

    let sixes_for_shock = match rulings.suppression {
        Suppression::Numbered => {
            disorder.sixes_for_shock(q.range).ok_or(OddsError::MissingRuleData("shock_trigger"))?
        }
        // As printed (Ch15 3.0): any single 6 at any range.
        Suppression::AnySixDisorders => 1,
    };

    Ok(Volley {
        dice: weapon.pool(q.stands),
        band: band.name.word().to_string(),
        to_hit,
        save,
        sixes_for_shock,
        auto_disorder: weapon.canister_disorder && band.name == BandName::Canister,
    })
}

/// The chance one die scores at least `target` (a natural 6 always passes under G1 clamping,
/// because the target is then at most 6).
pub(crate) fn p_at_least(target: i32) -> f64 {
    f64::from((7 - target).clamp(0, 6)) / 6.0
}

/// P(k successes) for k = 0..=n, by convolving one die at a time.
pub(crate) fn binomial(n: u32, p: f64) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, &w) in dist.iter().enumerate() {
            next[k] += w * (1.0 - p);
            next[k + 1] += w * p;
        }
        dist = next;
    }
    dist
}

fn mean(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(k, w)| k as f64 * w).sum()
}

/// The exact odds of a volley.
pub fn fire_odds(q: &FireQuery, data: &RuleData, rulings: &Rulings) -> Result<FireOdds, OddsError> {
    volley(q, data, rulings).map(volley_odds)
}

/// The exact odds of a volley already read from the rule data.
pub(crate) fn volley_odds(v: Volley) -> FireOdds {
    let p_hit = p_at_least(v.to_hit);
    let p_save = v.save.map_or(0.0, p_at_least);
    let hits = binomial(v.dice, p_hit);
    // Each die independently hits and then fails its save.
    let unsaved = binomial(v.dice, p_hit * (1.0 - p_save));
    let mut stands_lost = vec![0.0; unsaved.len() / 2 + 1];
    for (k, w) in unsaved.iter().enumerate() {
        stands_lost[k / 2] += w;
    }
    let sixes = binomial(v.dice, 1.0 / 6.0);
    let p_shock = sixes.iter().skip(v.sixes_for_shock as usize).sum();
    let expected_unsaved = mean(&unsaved);
    FireOdds {
        dice: v.dice,
        band: v.band,
        to_hit: v.to_hit,
        save: v.save,
        p_hit,
        expected_hits: mean(&hits),
        expected_unsaved,
        expected_stands_lost: expected_unsaved / 2.0,
        p_shock,
        hits,
        unsaved,
        stands_lost,
    }
}

/// A simulated mean and its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub std_error: f64,
}

impl Estimate {
    pub(crate) fn from_sums(n: u64, sum: f64, sum_sq: f64) -> Estimate {
        let n = n as f64;
        let mean = sum / n;
        let var = if n > 1.0 { ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        Estimate { mean, std_error: (var / n).sqrt() }
    }
}

/// Monte Carlo estimates of a volley, for checking [`fire_odds`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FireEstimate {
    pub volleys: u64,
    pub seed: u64,
    pub expected_hits: Estimate,
    /// Unsaved hits / 2 per volley, the same convention as [`FireOdds::expected_stands_lost`].
    pub expected_stands_lost: Estimate,
    pub p_shock: Estimate,
}

/// Roll `n` volleys with the seed's d6 stream ([`D6Stream`], the stream of [`crate::dice::SeededDice`]) and estimate the expected hits, stands lost and the
/// chance of a Shock trigger.
pub fn fire_monte_carlo(
    q: &FireQuery,
    data: &RuleData,
    rulings: &Rulings,
    n: u64,
    seed: u64,
) -> Result<FireEstimate, OddsError> {
    let v = volley(q, data, rulings)?;
    // The seed's d6 stream without the per-roll record a replay keeps: a simulation rolls
    // millions of dice. To-hit dice first, then one save die per hit, as at the table.
    let mut dice = D6Stream::new(seed);
    let (mut hits_sum, mut hits_sq, mut lost_sum, mut lost_sq, mut shocks) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for _ in 0..n {
        let (mut hits, mut sixes) = (0usize, 0usize);
        for _ in 0..v.dice {
            let face = dice.next_d6();
            hits += usize::from(i32::from(face) >= v.to_hit);
            sixes += usize::from(face == 6);
        }
        let unsaved = match v.save {
            None => hits,
            Some(save) => (0..hits).filter(|_| i32::from(dice.next_d6()) < save).count(),
        };
        let h = hits as f64;
        let lost = unsaved as f64 / 2.0;
        hits_sum += h;
        hits_sq += h * h;
        lost_sum += lost;
        lost_sq += lost * lost;
        if sixes >= v.sixes_for_shock as usize {
            shocks += 1.0;
        }
    }
    Ok(FireEstimate {
        volleys: n,
        seed,
        expected_hits: Estimate::from_sums(n, hits_sum, hits_sq),
        expected_stands_lost: Estimate::from_sums(n, lost_sum, lost_sq),
        p_shock: Estimate::from_sums(n, shocks, shocks),
    })
}

pub mod assault;
pub mod melee;

#[cfg(test)]
mod tests;
