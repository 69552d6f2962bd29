//! `dotc odds assault`: the exact odds of a charge described by flags (Ch16 7.1-7.4).
//!
//! Like [`super::fire_odds`], this models no rule. An [`AssaultQuery`] becomes a small table: the
//! defender with its weapon, stands, quality, traits and brigade; the charger with its stands,
//! losses, quality (and the quality's traits), formation, traits and micro-hit, its brigadier
//! attached if asked; the charge's distance, the charger's cover against the closing volley and
//! the melee's circumstances (momentum, a flank, the defender's ground, a counter-charge). The
//! engine declares and plans the assault on it ([`plan_assault`]), refusing what the rules refuse
//! (a Disordered charger, RULINGS C6; a Spent one without its brigadier, RULE-07-4.2...), and
//! [`assault_plan_odds`] prices the plan by running the engine over every way the dice can fall.
//! [`assault_monte_carlo`] rolls the same plan on the seed's d6 stream as a check.

use std::fmt;

use dotc_lang::library::RuleData;
use serde::Serialize;

use super::assault_plan::{PlannedAssaultOdds, assault_plan_odds};
use super::{Estimate, FireQuery, OddsError, StreamDice, engine_error, query_table};
use crate::dice::D6Stream;
use crate::engine::assault::{
    AssaultInput, AssaultPlan, AssaultResult, Payment, plan_assault, resolve_assault_plan,
};
use crate::engine::events::{BrigadeStatus, MeleeOutcome};
use crate::engine::fire::FireKind;
use crate::engine::melee::MeleeInput;
use crate::engine::state::{GameState, LeaderRank};
use crate::engine::{EngineError, Rules};
use crate::rulings::Rulings;

/// The charging regiment: infantry, its formation and traits in [`AssaultQuery::volley`] (as
/// the volley's target).
#[derive(Clone, Debug, PartialEq)]
pub struct Charger {
    /// Stands before the closing volley.
    pub stands: u32,
    /// Stands it started the battle with (for its health state, Ch16 8.1).
    pub starting_stands: u32,
    /// A quality id of the rule data (green, regular, veteran, elite); its traits come with it.
    pub quality: String,
    /// It carries a micro-hit (an odd unsaved hit, RULE-05-3.3).
    pub micro_hit: bool,
    /// It carries a Disorder marker: the engine refuses the charge (RULE-05-4.4, RULINGS C6).
    pub disordered: bool,
    /// Its brigadier is attached (Ch16 2.4; RULE-07-4.2 lets a Spent regiment charge with him).
    pub brigadier: bool,
    /// Stands in contact; 0: the engine works them out (RULINGS G3).
    pub engaged: u32,
    /// Its brigadier declared Desperate Valor on it (Ch13 17.0): the `desperate_valor` module is
    /// switched on and the engine rolls its checks with Advantage.
    pub valor: bool,
    /// Its brigade raised the battle cry (Ch13 16.0): the `psychological_shock` module is
    /// switched on, and the defender tests Discipline at the `battle_cry` modifier.
    pub battle_cry: bool,
    /// A friend stands in second line behind it (Ch13 19.0, dotc D11): the `second_line` module
    /// is switched on, and its Discipline checks take the `second_line` modifier.
    pub supported: bool,
    /// Heroic Momentum fell on it (Ch13 3.0, a friction event): the `friction_of_war` module is
    /// switched on, and it closes without the pre-contact check.
    pub heroic: bool,
}

impl Charger {
    /// A full-strength regular regiment of `stands`, nothing attached.
    pub fn new(stands: u32) -> Charger {
        Charger {
            stands,
            starting_stands: stands,
            quality: "regular".to_string(),
            micro_hit: false,
            disordered: false,
            brigadier: false,
            engaged: 0,
            valor: false,
            battle_cry: false,
            supported: false,
            heroic: false,
        }
    }
}

/// The defender, beyond its volley's weapon, stands and traits.
#[derive(Clone, Debug, PartialEq)]
pub struct Defender {
    /// A quality id of the rule data (a Rebel Yell tests green and regular defenders, Ch16 9.0).
    pub quality: String,
    /// Its brigade's state (a Broken defender routs on contact, RULE-07-2.4).
    pub brigade: BrigadeStatus,
    /// Stands in contact; 0: the engine works them out (RULINGS G3).
    pub engaged: u32,
    /// A formation id of the rule data (line, assault_column...): a column with no reserved pip
    /// is caught flat-footed under the `caught_flat_footed` module (Ch13 18.0).
    pub formation: String,
    /// A friend stands in second line behind it (Ch13 19.0, dotc D11): the `second_line` module
    /// is switched on, and its Discipline checks take the `second_line` modifier.
    pub supported: bool,
}

/// One charge to price.
#[derive(Clone, Debug, PartialEq)]
pub struct AssaultQuery {
    /// The defender's closing volley: its weapon, stands (all of the defender), range (normally
    /// the 4" interruption line), the charger's cover and formation (`target`), the defender's
    /// traits (`traits`), the charger's (`target_traits`), the modules; a Hesitant defender
    /// (`hesitant`, RULINGS C13). Its `kind` is a closing volley whatever it says.
    pub volley: FireQuery,
    /// The defender fires its closing volley (Ch16 6.0 Reaction 1, 7.2).
    pub closing_volley: bool,
    /// Inches from the charger to the defender at the declaration (within its charge speed).
    pub distance: f64,
    pub charger: Charger,
    pub defender: Defender,
    /// The charge's last 3" crossed open ground (Ch16 7.3, RULINGS G10).
    pub momentum: bool,
    /// A flank or rear charge (Ch16 7.3).
    pub flank: bool,
    /// The defender counter-charged (Ch16 6.0 Reaction 5).
    pub counter_charge: bool,
    /// A terrain, obstacle or structure id the defender holds (stone_wall, abatis, rail_fence).
    pub ground: Option<String>,
}

/// Why a charge cannot be priced.
#[derive(Clone, Debug, PartialEq)]
pub enum AssaultError {
    /// The closing volley cannot be planned (its weapon, range, traits...).
    Volley(OddsError),
    /// An unknown quality or ground id.
    Unknown(String),
    NoChargerStands,
    /// The charger has more stands than it started with.
    MoreThanStarting {
        stands: u32,
        starting: u32,
    },
    /// The engine refuses the charge, or cannot walk its dice.
    Engine(String),
}

impl fmt::Display for AssaultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssaultError::Volley(e) => write!(f, "closing volley: {e}"),
            AssaultError::Unknown(what) => write!(f, "{what}"),
            AssaultError::NoChargerStands => write!(f, "a charger needs at least 1 stand"),
            AssaultError::MoreThanStarting { stands, starting } => {
                write!(f, "the charger has {stands} stands but started with {starting}")
            }
            AssaultError::Engine(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for AssaultError {}

impl From<OddsError> for AssaultError {
    fn from(e: OddsError) -> AssaultError {
        AssaultError::Volley(e)
    }
}

impl From<EngineError> for AssaultError {
    fn from(e: EngineError) -> AssaultError {
        AssaultError::Engine(engine_error(e).to_string())
    }
}

/// A charge planned on its table: the rules, the table after the declaration, the plan.
pub struct PlannedCharge {
    pub rules: Rules,
    pub declared: GameState,
    pub plan: AssaultPlan,
}

/// Build the table a query describes, and declare and plan the charge on it.
pub fn plan_charge(
    q: &AssaultQuery,
    data: &RuleData,
    rulings: &Rulings,
) -> Result<PlannedCharge, AssaultError> {
    let c = &q.charger;
    if c.stands == 0 {
        return Err(AssaultError::NoChargerStands);
    }
    if c.starting_stands < c.stands {
        return Err(AssaultError::MoreThanStarting { stands: c.stands, starting: c.starting_stands });
    }
    let quality = |id: &str| {
        data.quality(id).ok_or_else(|| {
            let known: Vec<&str> = data.qualities().iter().map(|q| q.meta.id.as_str()).collect();
            let mut message = format!("unknown quality `{id}`");
            match dotc_lang::names::suggest(id, known.iter().copied()) {
                Some(s) => message.push_str(&format!("; did you mean `{s}`?")),
                None => message.push_str(&format!("; the qualities are {}", known.join(", "))),
            }
            AssaultError::Unknown(message)
        })
    };
    let charger_quality = quality(&c.quality)?;
    let defender_quality = quality(&q.defender.quality)?;
    if let Some(ground) = &q.ground {
        let known = data.terrain(ground).is_some()
            || data.obstacle(ground).is_some()
            || data.structure(ground).is_some();
        if !known {
            return Err(AssaultError::Unknown(format!(
                "unknown ground `{ground}`: a terrain, obstacle or structure id of the rule data (stone_wall, rail_fence, abatis...)"
            )));
        }
    }
    let mut volley = FireQuery { kind: FireKind::Closing, ..q.volley.clone() };
    // Ch13 17.0: Desperate Valor is the module's.
    let valor_module = dotc_lang::rulings::Module::DesperateValor.name();
    if c.valor && !volley.modules.iter().any(|m| m == valor_module) {
        volley.modules.push(valor_module.to_string());
    }
    // Ch13 3.0: Heroic Momentum is the Friction of War module's.
    let friction_module = dotc_lang::rulings::Module::FrictionOfWar.name();
    if c.heroic && !volley.modules.iter().any(|m| m == friction_module) {
        volley.modules.push(friction_module.to_string());
    }
    // Ch13 16.0: the battle cry is the module's.
    let cry_module = dotc_lang::rulings::Module::PsychologicalShock.name();
    if c.battle_cry && !volley.modules.iter().any(|m| m == cry_module) {
        volley.modules.push(cry_module.to_string());
    }
    // Ch13 19.0: support from a second line is the module's.
    let line_module = dotc_lang::rulings::Module::SecondLine.name();
    if (c.supported || q.defender.supported) && !volley.modules.iter().any(|m| m == line_module) {
        volley.modules.push(line_module.to_string());
    }
    let (rules, mut state, defender, charger, mut input) = query_table(&volley, data, rulings)?;
    // The stand-in target becomes the charger as the query describes it, and its brigade's
    // tally starts from the charger's own starting stands.
    let red = state.units[charger.0].side;
    let red_brigade = state.units[charger.0].brigade;
    {
        let u = &mut state.units[charger.0];
        u.name = "Charger".to_string();
        u.stands = c.stands;
        u.starting_stands = c.starting_stands;
        u.quality = charger_quality.meta.id.clone();
        u.micro_hit = u8::from(c.micro_hit);
        u.markers.disorder = c.disordered;
        u.turn.valor = c.valor;
        u.turn.battle_cry = c.battle_cry;
        u.supported = c.supported;
        u.turn.heroic = c.heroic;
        for t in &charger_quality.traits {
            if !u.traits.contains(t) {
                u.traits.push(t.clone());
            }
        }
    }
    {
        let d = &mut state.units[defender.0];
        d.name = "Defender".to_string();
        d.quality = defender_quality.meta.id.clone();
        d.supported = q.defender.supported;
        if !q.defender.formation.is_empty() {
            d.formation = q.defender.formation.clone();
        }
        for t in &defender_quality.traits {
            if !d.traits.contains(t) {
                d.traits.push(t.clone());
            }
        }
    }
    if let Some(b) = red_brigade {
        let clock = state.units[charger.0].clock_stands();
        let brigade = &mut state.brigades[b.0];
        brigade.starting_stands = clock;
        brigade.pips = 4;
    }
    // The defender's brigade: the query's state, unless it leaves it Fresh (the volley's
    // `hesitant` flag may already have made it Hesitant).
    if let Some(b) = state.units[defender.0].brigade
        && q.defender.brigade != BrigadeStatus::Fresh
    {
        state.brigades[b.0].status = q.defender.brigade;
    }
    if c.brigadier {
        let leader = state.add_leader("Brigadier", red, LeaderRank::Brigadier, "reliable", red_brigade);
        state.leaders[leader.0].attached = Some(charger);
    }
    input.kind = FireKind::Closing;
    let assault = AssaultInput {
        distance: q.distance,
        brigadier_distance: None,
        coordinated: false,
        closing_volley: q.closing_volley.then_some(input),
        melee: MeleeInput {
            attacker_engaged: c.engaged,
            defender_engaged: q.defender.engaged,
            momentum: q.momentum,
            flank: q.flank,
            defender_terrain: q.ground.clone(),
            uphill: false,
            crest_advantage: false,
            counter_charge: q.counter_charge,
            fired_early: false,
        },
    };
    let plan = plan_assault(&rules, &mut state, charger, defender, &assault, Payment::Pay)?;
    Ok(PlannedCharge { rules, declared: state, plan })
}

/// The exact odds of the charge a query describes.
pub fn assault_odds(
    q: &AssaultQuery,
    data: &RuleData,
    rulings: &Rulings,
) -> Result<PlannedAssaultOdds, AssaultError> {
    let charge = plan_charge(q, data, rulings)?;
    Ok(assault_plan_odds(&charge.rules, &charge.declared, &charge.plan)?)
}

/// Monte Carlo estimates of a charge, for checking [`assault_odds`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AssaultEstimate {
    pub trials: u64,
    pub seed: u64,
    pub p_destroyed: Estimate,
    pub p_stalled: Estimate,
    pub p_melee: Estimate,
    pub p_attacker_wins: Estimate,
    pub p_draw: Estimate,
    pub p_defender_wins: Estimate,
    pub p_pre_contact_check: Estimate,
    pub expected_stands_lost_to_volley: Estimate,
}

/// Resolve the planned charge `n` times with the seed's d6 stream ([`D6Stream`]), each on a
/// fresh copy of the declared table.
pub fn assault_monte_carlo(
    q: &AssaultQuery,
    data: &RuleData,
    rulings: &Rulings,
    n: u64,
    seed: u64,
) -> Result<AssaultEstimate, AssaultError> {
    let charge = plan_charge(q, data, rulings)?;
    let mut dice = StreamDice(D6Stream::new(seed));
    let mut counts = [0u64; 7];
    let (mut lost_sum, mut lost_sq) = (0.0, 0.0);
    for _ in 0..n {
        let mut table = charge.declared.clone();
        let report = resolve_assault_plan(&charge.rules, &mut table, &charge.plan, &mut dice)?;
        let slot = match report.result {
            AssaultResult::Destroyed => Some(0),
            AssaultResult::Stalled => Some(1),
            AssaultResult::Melee(MeleeOutcome::AttackerWins) => Some(2),
            AssaultResult::Melee(MeleeOutcome::BloodyDraw) => Some(3),
            AssaultResult::Melee(MeleeOutcome::DefenderWins) => Some(4),
            AssaultResult::Routed | AssaultResult::Overrun => None,
        };
        if let Some(slot) = slot {
            counts[slot] += 1;
        }
        if matches!(report.result, AssaultResult::Melee(_)) {
            counts[5] += 1;
        }
        if report.pre_contact_check {
            counts[6] += 1;
        }
        let lost = f64::from(report.closing_volley.as_ref().map_or(0, |c| c.outcome.2));
        lost_sum += lost;
        lost_sq += lost * lost;
    }
    let share = |k: u64| Estimate::from_sums(n, k as f64, k as f64);
    Ok(AssaultEstimate {
        trials: n,
        seed,
        p_destroyed: share(counts[0]),
        p_stalled: share(counts[1]),
        p_melee: share(counts[5]),
        p_attacker_wins: share(counts[2]),
        p_draw: share(counts[3]),
        p_defender_wins: share(counts[4]),
        p_pre_contact_check: share(counts[6]),
        expected_stands_lost_to_volley: Estimate::from_sums(n, lost_sum, lost_sq),
    })
}

#[cfg(test)]
#[path = "assault_tests.rs"]
mod tests;
