//! Morale and attrition: the rules every resolution shares.
//!
//! - [`health`]: Fresh, Worn, Spent or Shattered from the stands left (Ch16 8.1, RULE-07-1.2,
//!   RULINGS C4).
//! - [`discipline_check`]: the 1D6 against the unit's quality (RULE-07-1.4, Ch16 5.5), with the
//!   modifiers every check shares (Hesitant brigade -1, RULE-07-2.3; attached brigadier +1,
//!   Ch16 2.4) and those the caller adds; a 1 always fails and a 6 always passes (RULINGS G1).
//! - [`place_disorder`]: one Disorder marker at most; a second one is a micro-hit instead
//!   (RULE-07-3.4, Ch16 8.3).
//! - [`take_hits`] and [`remove_stands`]: two unsaved hits make one stand with the odd hit
//!   carried on the micro-hit (RULE-05-3.3); a regiment down to one stand shatters (RULE-05-3.4);
//!   every stand lost goes on the brigade tally (RULE-07-2.2, RULINGS G5); a battery loses a
//!   section per two hits and never shatters (RULINGS G19).
//! - [`update_brigade`]: the faltering clock (RULE-07-2.3, 2.4, Ch16 8.2, thresholds per the
//!   `brigade_thresholds` ruling, RULINGS G6; timing per `faltering_timing`, C12).
//! - [`leader_casualty`]: the Ch16 2.4 table (RULINGS C9, G18).
//! - [`command_rally`] and [`natural_rally`]: Ch16 8.3, RULE-07-3.2, 3.3 (RULINGS C10, C20).

use dotc_lang::library::{CheckCause, OrderCost};

use super::events::{BrigadeStatus, Event, Health, Modifier, TestKind, What};
use super::state::{BrigadeId, GameState, LeaderId, LeaderRank, UnitId};
use super::{EngineError, Rules, roll_for};
use crate::dice::{DiceSource, Purpose};
use crate::rulings::{BrigadeThresholds, FalteringTiming, HealthStates};

/// Where a loss came from: the leader casualty rule and the rally rules ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    Fire,
    Melee,
    /// Double Disorder, a broken brigade, an overrun...
    Other,
}

/// The module of Ch13 16.0, the Rebel Yell / Union Huzzah.
pub const PSYCHOLOGICAL_SHOCK: &str = dotc_lang::rulings::Module::PsychologicalShock.name();

fn unknown_unit(id: UnitId) -> EngineError {
    EngineError::Unknown(format!("unit #{}", id.0))
}

/// The unit's health state (Ch16 8.1) under the `health_states` ruling (RULINGS C4).
pub fn health(rules: &Rules, stands: u32, starting: u32) -> Health {
    let t = &rules.tables.health;
    let starting = starting.max(1);
    // Percent comparisons in integers: stands / starting > p / 100.
    let above = |p: u32| u64::from(stands) * 100 > u64::from(p) * u64::from(starting);
    let below = |p: u32| u64::from(stands) * 100 < u64::from(p) * u64::from(starting);
    let shattered = stands <= t.shattered_at_most;
    match rules.rulings.health_states {
        HealthStates::Combined => {
            if shattered {
                Health::Shattered
            } else if stands <= t.spent_at_most || below(t.spent_below) {
                Health::Spent
            } else if above(t.fresh_above) {
                Health::Fresh
            } else {
                Health::Worn
            }
        }
        HealthStates::Percentages => {
            if shattered {
                Health::Shattered
            } else if below(t.spent_below) {
                Health::Spent
            } else if above(t.fresh_above) {
                Health::Fresh
            } else {
                Health::Worn
            }
        }
        HealthStates::StandCounts => {
            if shattered {
                Health::Shattered
            } else if stands <= t.spent_at_most {
                Health::Spent
            } else if above(t.fresh_above) {
                Health::Fresh
            } else {
                Health::Worn
            }
        }
    }
}

/// The health state of a regiment in the state (Ch16 8.1): infantry and cavalry. A battery's
/// sections have none (RULINGS G19: the shatter rule and the health states are a regiment's),
/// and an unknown unit none either.
pub fn unit_health(rules: &Rules, state: &GameState, unit: UnitId) -> Option<Health> {
    state.unit(unit).filter(|u| !u.is_battery()).map(|u| health(rules, u.stands, u.starting_stands))
}

/// The modifiers every Discipline check of this unit takes: its brigade Hesitant (RULE-07-2.3,
/// Ch16 8.2), its command tier (Ch16 2.2: -1 in the distant courier tier and out of
/// communication, from [`super::state::Unit::command_range`]), charged this phase by a brigade
/// that raised the battle cry (Ch13 16.0 with its module on), a brigadier attached (Ch16 2.4,
/// RULE-07-4.2, who also cancels the tier's penalty: he "ignores Out-of-Command range
/// penalties"), a friend in second line behind it (Ch13 19.0 with its module on, from
/// [`super::state::Unit::supported`]), and its traits' bonuses for this cause (Steady against a
/// closing volley, Ch16 9.0).
pub fn standing_discipline_modifiers(
    rules: &Rules,
    state: &GameState,
    unit: UnitId,
    cause: Option<CheckCause>,
) -> Vec<Modifier> {
    let mut mods = Vec::new();
    if state.brigade_status(unit) == BrigadeStatus::Hesitant && rules.tables.hesitant.discipline != 0 {
        mods.push(Modifier::new(
            "hesitant brigade",
            rules.tables.hesitant.discipline,
            "RULE-07-2.3, Ch16 8.2",
        ));
    }
    let attached = state.attached_leader(unit).is_some();
    let tier = state.unit(unit).and_then(|u| u.command_range).and_then(|d| rules.tier_at(d));
    if let Some(tier) = tier.filter(|t| t.discipline != 0 && !attached) {
        mods.push(Modifier::new(format!("{} tier", tier.meta.id), tier.discipline, "Ch16 2.2"));
    }
    if attached && rules.tables.brigadier_attached.discipline != 0 {
        mods.push(Modifier::new(
            "brigadier attached",
            rules.tables.brigadier_attached.discipline,
            "Ch16 2.4, RULE-07-4.2",
        ));
    }
    // Ch13 16.0 (module psychological_shock, dotc D15): charged this phase by a brigade that
    // raised the battle cry.
    let shaken = state.unit(unit).is_some_and(|u| u.turn.shaken_by_cry);
    if shaken && rules.module(PSYCHOLOGICAL_SHOCK) && rules.tables.battle_cry.discipline != 0 {
        mods.push(Modifier::new("battle cry", rules.tables.battle_cry.discipline, "Ch13 16.0, dotc D15"));
    }
    // Ch13 19.0 (module second_line, dotc D11): a friend in second line behind it.
    let supported = state.unit(unit).is_some_and(|u| u.supported);
    if supported && rules.module("second_line") && rules.tables.second_line.discipline != 0 {
        mods.push(Modifier::new("second line", rules.tables.second_line.discipline, "Ch13 19.0, dotc D11"));
    }
    if let (Some(u), Some(cause)) = (state.unit(unit), cause) {
        for t in u.traits.iter().filter_map(|t| rules.trait_def(t)) {
            for m in &t.discipline {
                if m.cause == cause || m.cause == CheckCause::Any {
                    mods.push(Modifier::new(t.meta.id.clone(), m.value, "Ch16 9.0"));
                }
            }
        }
    }
    mods
}

/// A Discipline check (RULE-07-1.4): 1D6 against the unit's quality, after the standing
/// modifiers and `extra`. A +1 modifier makes the number needed one lower. A 1 always fails and
/// a 6 always passes (RULINGS G1). Returns whether it passed; the event records all of it.
#[allow(clippy::too_many_arguments)]
pub fn discipline_check(
    rules: &Rules,
    state: &GameState,
    unit: UnitId,
    test: TestKind,
    cause: Option<CheckCause>,
    extra: Vec<Modifier>,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<bool, EngineError> {
    let (base, modifiers) = discipline_terms(rules, state, unit, cause, extra)?;
    let name = state.unit(unit).map(|u| u.name.clone()).unwrap_or_default();
    test_roll(name, test, base, modifiers, dice, events, rule)
}

/// The numbers of a Discipline check (RULE-07-1.4): the unit's quality and its modifiers, the
/// standing ones and `extra`. A volley's plan reads them before the dice (RULINGS G9).
pub fn discipline_terms(
    rules: &Rules,
    state: &GameState,
    unit: UnitId,
    cause: Option<CheckCause>,
    extra: Vec<Modifier>,
) -> Result<(i32, Vec<Modifier>), EngineError> {
    let u = state.unit(unit).ok_or_else(|| unknown_unit(unit))?;
    let quality = rules
        .data
        .quality(&u.quality)
        .ok_or_else(|| EngineError::Unknown(format!("quality `{}`", u.quality)))?;
    let base = i32::try_from(quality.discipline).unwrap_or(6);
    let mut modifiers = standing_discipline_modifiers(rules, state, unit, cause);
    modifiers.extend(extra);
    Ok((base, modifiers))
}

/// The roll a test needs: the base less the modifiers (a +1 makes it one lower), held to 2..6 so
/// a 1 always fails and a 6 always passes (RULINGS G1).
pub fn test_needed(base: i32, modifiers: &[Modifier]) -> i32 {
    (base - modifiers.iter().map(|m| m.value).sum::<i32>()).clamp(2, 6)
}

/// Roll one test die against `base` with `modifiers` (RULINGS G1: 1 fails, 6 passes).
pub(crate) fn test_roll(
    unit: String,
    test: TestKind,
    base: i32,
    modifiers: Vec<Modifier>,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<bool, EngineError> {
    check_roll(unit, test, base, modifiers, false, dice, events, rule)
}

/// Ch13 17.0 Desperate Valor (module `desperate_valor`, dotc D14): a regiment its brigadier
/// declared it on this turn has Advantage on the Discipline checks of its own charge: the
/// pre-contact check, and the Shock save, Seen the Elephant and Spent-under-fire checks its
/// closing volley calls for, and a pursuit check after its melee. Each roller of such a check
/// asks here.
pub fn valor_advantage(rules: &Rules, state: &GameState, unit: UnitId) -> bool {
    rules.module(dotc_lang::rulings::Module::DesperateValor.name())
        && state.unit(unit).is_some_and(|u| u.turn.valor)
}

/// [`test_roll`], with Advantage when `advantage` (Ch13 17.0): two dice, the higher kept and the
/// lower discarded (the event keeps it). A missing die of an advantaged check cites Ch13 17.0.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_roll(
    unit: String,
    test: TestKind,
    base: i32,
    modifiers: Vec<Modifier>,
    advantage: bool,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<bool, EngineError> {
    let purpose = if test == TestKind::NaturalRally { Purpose::Rally } else { Purpose::Discipline };
    let needed = test_needed(base, &modifiers);
    let after = super::telling(events).map(|w| w as &dyn std::fmt::Display);
    let announced = if advantage { "Ch13 17.0" } else { rule };
    dice.announce(crate::dice::RollFor { what: test.the_label(), rule: announced, after });
    let (rolled, discarded) = if advantage {
        let faces = dice.roll(purpose, 2)?;
        let high = faces.iter().copied().max().unwrap_or(1);
        let low = faces.iter().copied().min().unwrap_or(1);
        (high, Some(low))
    } else {
        (dice.roll_one(purpose)?, None)
    };
    let passed = i32::from(rolled) >= needed;
    events.push(Event::new(
        What::Test { unit, test, base, modifiers, needed, rolled, discarded, passed },
        rule,
    ));
    Ok(passed)
}

/// Ch13 16.0 The Recoil (module `psychological_shock`, dotc D15): at the end of the turn every
/// regiment of a brigade that raised the battle cry and declared a charge this turn takes a
/// Disorder marker, win or lose; one already Disordered takes the micro-hit of a second
/// (RULE-07-3.4, [`place_disorder`]).
pub fn battle_cry_recoil(
    rules: &Rules,
    state: &mut GameState,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    if !rules.module(PSYCHOLOGICAL_SHOCK) {
        return Ok(());
    }
    let cried: Vec<UnitId> = (0..state.units.len())
        .map(UnitId)
        .filter(|&id| {
            state.unit(id).is_some_and(|u| u.turn.battle_cry && u.turn.assaulted && u.on_table && !u.removed)
        })
        .collect();
    for id in cried {
        place_disorder(rules, state, id, events, "Ch13 16.0, dotc D15")?;
    }
    Ok(())
}

/// Give the unit a Disorder marker; if it already has one it takes a micro-hit instead
/// (RULE-07-3.4, Ch16 8.3), which may complete a stand.
pub fn place_disorder(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<(), EngineError> {
    let u = state.unit_mut(unit).ok_or_else(|| unknown_unit(unit))?;
    if u.removed {
        return Ok(());
    }
    if u.markers.disorder {
        events.push(Event::new(
            What::Note { text: format!("{} is already disordered: a micro-hit instead", u.name) },
            "RULE-07-3.4",
        ));
        take_hits(rules, state, unit, 1, Cause::Other, events, "RULE-07-3.4, Ch16 8.3")?;
    } else {
        u.markers.disorder = true;
        events.push(Event::new(What::MarkerPlaced { unit: u.name.clone(), marker: "Disorder".into() }, rule));
    }
    Ok(())
}

/// Remove a marker, saying so.
pub fn remove_disorder(
    state: &mut GameState,
    unit: UnitId,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<bool, EngineError> {
    let u = state.unit_mut(unit).ok_or_else(|| unknown_unit(unit))?;
    if !u.markers.disorder {
        return Ok(false);
    }
    u.markers.disorder = false;
    events.push(Event::new(What::MarkerRemoved { unit: u.name.clone(), marker: "Disorder".into() }, rule));
    Ok(true)
}

/// Unsaved hits arrive at a unit (RULE-05-3.3): with the micro-hit already there, every
/// `hits_per_stand` of them remove a stand and the odd one waits on the micro-hit. Returns the
/// stands removed (a shattered regiment's last stand included).
pub fn take_hits(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    hits: u32,
    cause: Cause,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<u32, EngineError> {
    let per = rules.tables.hits_per_stand;
    let u = state.unit_mut(unit).ok_or_else(|| unknown_unit(unit))?;
    if u.removed || hits == 0 {
        return Ok(0);
    }
    let carried = u.micro_hit;
    let (stands, micro) = hits_to_stands(carried, hits, per);
    if cause == Cause::Fire {
        u.turn.shot_casualties = true;
    }
    events.push(Event::new(What::UnsavedHits { unit: u.name.clone(), hits, carried }, rule));
    if u.micro_hit != micro {
        u.micro_hit = micro;
        events.push(Event::new(What::MicroHit { unit: u.name.clone(), micro_hit: micro }, "RULE-05-3.3"));
    }
    // Ch13 3.0, dotc D20: a casualty with the brigadier at the front.
    super::friction::general_hit(rules, state, unit, events)?;
    remove_stands(rules, state, unit, stands, events, "RULE-05-3.3")
}

/// Unsaved hits arriving at a unit that carries `carried` micro-hits (RULE-05-3.3): the stands
/// they remove and the micro-hit left. The one definition the engine and the odds share.
pub fn hits_to_stands(carried: u8, hits: u32, per: u32) -> (u32, u8) {
    let per = per.max(1);
    let total = u32::from(carried) + hits;
    // hits_per_stand is 2 in the stdlib; the remainder is the micro-hit (0 or 1 there).
    (total / per, u8::try_from(total % per).unwrap_or(u8::MAX))
}

/// What losing stands leaves of a unit (RULE-05-3.4, Ch16 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandLoss {
    /// Stands left on the table (0: the unit is gone).
    pub remaining: u32,
    /// An infantry regiment left at the shatter count or below lost the rest.
    pub shattered: bool,
}

/// A unit of `stands` losing `n` of them: an infantry regiment left with `shatter_at` or fewer
/// loses the rest too (RULE-05-3.4). The one definition the engine and the odds share.
pub fn stands_after_loss(stands: u32, n: u32, infantry: bool, shatter_at: u32) -> StandLoss {
    let left = stands - n.min(stands);
    if infantry && left > 0 && left <= shatter_at {
        StandLoss { remaining: 0, shattered: true }
    } else {
        StandLoss { remaining: left, shattered: false }
    }
}

/// Take `n` stands off a unit (a lost melee, an overrun, hits): the brigade tally counts them
/// (RULE-07-2.2, RULINGS G5); an infantry regiment left with the shatter count or fewer loses
/// the rest too (RULE-05-3.4, counted on the tally as well); a unit with no stands leaves the
/// table. Returns the stands removed.
pub fn remove_stands(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    n: u32,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<u32, EngineError> {
    take_stands(rules, state, unit, n, OnTheClock::Yes, events, rule)
}

/// Whether the stands [`take_stands`] removes count on the brigade's tally.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnTheClock {
    Yes,
    /// Horse holders, which the brigade clock never counts (RULINGS G5, dotc D24).
    No,
}

/// [`remove_stands`], saying whether the stands count on the brigade's tally.
pub fn take_stands(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    n: u32,
    clock: OnTheClock,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<u32, EngineError> {
    if n == 0 {
        return Ok(0);
    }
    let shatter_at = rules.tables.health.shattered_at_most;
    let u = state.unit_mut(unit).ok_or_else(|| unknown_unit(unit))?;
    if u.removed {
        return Ok(0);
    }
    let before = u.stands;
    let clock_before = u.clock_stands();
    let lost = n.min(u.stands);
    let loss = stands_after_loss(u.stands, n, u.is_infantry(), shatter_at);
    u.stands -= lost;
    events.push(Event::new(
        What::StandsLost { unit: u.name.clone(), lost, remaining: u.stands, by: None },
        rule,
    ));
    let removed_all = loss.remaining == 0;
    if loss.shattered {
        events.push(Event::new(What::Shattered { unit: u.name.clone() }, "RULE-05-3.4, Ch16 5.4"));
    }
    u.stands = loss.remaining;
    let name = u.name.clone();
    let (from, to) = (health(rules, before, u.starting_stands), health(rules, u.stands, u.starting_stands));
    let clock_lost = clock_before - u.clock_stands();
    let brigade = u.brigade;
    // A battery has no health state (Ch16 8.1 is a regiment's; RULINGS G19: the Shatter rule is
    // infantry only): its lost sections are said, never a health it does not have.
    let battery = u.is_battery();
    if removed_all {
        u.removed = true;
        u.micro_hit = 0;
        u.screen = None;
    }
    if from != to && !removed_all && !battery {
        events.push(Event::new(What::HealthChanged { unit: name.clone(), from, to }, "Ch16 8.1, RULINGS C4"));
    }
    if removed_all {
        let because = if state.unit(unit).is_some_and(|u| u.is_battery()) {
            "its last section is lost"
        } else {
            "no stands left"
        };
        events.push(Event::new(What::Removed { unit: name, because: because.into() }, rule));
        // Its leader, if any, is left on his own.
        for l in state.leaders.iter_mut().filter(|l| l.attached == Some(unit)) {
            l.attached = None;
        }
    }
    if let Some(b) = brigade.filter(|_| clock == OnTheClock::Yes) {
        tally(rules, state, b, clock_lost, events)?;
    }
    // Ch13 3.0, dotc D20: a casualty with the brigadier at the front.
    super::friction::general_hit(rules, state, unit, events)?;
    Ok(before - state.unit(unit).map_or(0, |u| u.stands))
}

/// Add stands to a brigade's loss tally (RULE-07-2.2, RULINGS G5) and, under the `immediate`
/// timing (RULINGS C12), check its thresholds at once.
pub fn tally(
    rules: &Rules,
    state: &mut GameState,
    brigade: BrigadeId,
    lost: u32,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    if lost == 0 {
        return Ok(());
    }
    let b = state
        .brigades
        .get_mut(brigade.0)
        .ok_or_else(|| EngineError::Unknown(format!("brigade #{}", brigade.0)))?;
    b.losses += lost;
    events.push(Event::new(
        What::Tally { brigade: b.name.clone(), lost: b.losses, starting: b.starting_stands },
        "RULE-07-2.2, RULINGS G5",
    ));
    if rules.rulings.faltering_timing == FalteringTiming::Immediate {
        update_brigade(rules, state, brigade, events)?;
    }
    Ok(())
}

/// The stands a brigade of `starting` stands may lose before it reaches a state of `percent`,
/// under the `brigade_thresholds` ruling (RULINGS G6, C11).
pub fn threshold(rule: BrigadeThresholds, percent: u32, table: &[(u32, u32)], starting: u32) -> u32 {
    let exact = u64::from(percent) * u64::from(starting);
    let nearest = u32::try_from((exact * 2 + 100) / 200).unwrap_or(u32::MAX);
    let ceiling = u32::try_from(exact.div_ceil(100)).unwrap_or(u32::MAX);
    let rounded = if percent >= 50 { ceiling } else { nearest };
    let floor_one = |n: u32| n.max(1);
    match rule {
        // G6: Hesitant rounds half up, Broken rounds up.
        BrigadeThresholds::Nearest => floor_one(rounded),
        BrigadeThresholds::Ceiling => floor_one(ceiling),
        // The printed rows; a size the table lacks falls back to the default reading.
        BrigadeThresholds::Table => {
            table.iter().find(|(s, _)| *s == starting).map_or(floor_one(rounded), |(_, l)| *l)
        }
    }
}

/// The losses at which a brigade of `starting` stands becomes Hesitant and Broken (RULE-07-2.3,
/// 2.4, Ch16 8.2), rounded as `ruling brigade_thresholds` says (RULINGS G6, C11).
pub fn brigade_thresholds(rules: &Rules, starting: u32) -> [u32; 2] {
    let (t, rule) = (&rules.tables, rules.rulings.brigade_thresholds);
    [
        threshold(rule, t.hesitant.losses_percent, &t.hesitant.table, starting),
        threshold(rule, t.broken.losses_percent, &t.broken.table, starting),
    ]
}

/// The state a brigade of `starting` stands is in after `losses` (RULE-07-2.3, 2.4, Ch16 8.2).
pub(crate) fn status_for_losses(rules: &Rules, starting: u32, losses: u32) -> BrigadeStatus {
    let [hesitant_at, broken_at] = brigade_thresholds(rules, starting);
    if losses >= broken_at {
        BrigadeStatus::Broken
    } else if losses >= hesitant_at {
        BrigadeStatus::Hesitant
    } else {
        BrigadeStatus::Fresh
    }
}

/// The order of the brigade states: a brigade only ever goes forward, Fresh, Hesitant, Broken.
pub(crate) fn rank(status: BrigadeStatus) -> u8 {
    match status {
        BrigadeStatus::Fresh => 0,
        BrigadeStatus::Hesitant => 1,
        BrigadeStatus::Broken => 2,
    }
}

/// Check a brigade's tally against its thresholds and apply a change of state (RULE-07-2.3,
/// 2.4, Ch16 8.2): Hesitant, or Broken, which forfeits its pips and disorders every unit (a unit
/// already disordered takes a micro-hit, RULINGS G14). A brigade never recovers.
pub fn update_brigade(
    rules: &Rules,
    state: &mut GameState,
    brigade: BrigadeId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let t = &rules.tables;
    let b = state.brigade(brigade).ok_or_else(|| EngineError::Unknown(format!("brigade #{}", brigade.0)))?;
    let [hesitant_at, broken_at] = brigade_thresholds(rules, b.starting_stands);
    let to = status_for_losses(rules, b.starting_stands, b.losses);
    let from = b.status;
    // Only forward: Fresh -> Hesitant -> Broken.
    if rank(to) <= rank(from) {
        return Ok(());
    }
    let (name, lost) = (b.name.clone(), b.losses);
    let threshold = if to == BrigadeStatus::Broken { broken_at } else { hesitant_at };
    let cite = if to == BrigadeStatus::Broken {
        "RULE-07-2.4, Ch16 8.2, RULINGS G6"
    } else {
        "RULE-07-2.3, Ch16 8.2, RULINGS G6"
    };
    if let Some(b) = state.brigades.get_mut(brigade.0) {
        b.status = to;
    }
    events.push(Event::new(What::BrigadeChanged { brigade: name.clone(), from, to, lost, threshold }, cite));
    if to == BrigadeStatus::Broken {
        if t.broken.forfeits_pips {
            forfeit_pips(state, brigade, events, "RULE-07-2.4");
        }
        if t.broken.disorders_all {
            let members: Vec<UnitId> = (0..state.units.len())
                .map(UnitId)
                .filter(|&u| state.unit(u).is_some_and(|u| u.brigade == Some(brigade) && !u.removed))
                .collect();
            for u in members {
                place_disorder(rules, state, u, events, "RULE-07-2.4, RULINGS G14")?;
            }
        }
    }
    Ok(())
}

/// Phase 5 faltering check: under `faltering_timing = phase_five` (RULINGS C12) the brigades'
/// states change here rather than at each loss. Under `immediate` this finds nothing new.
pub fn phase_five_faltering(
    rules: &Rules,
    state: &mut GameState,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    for b in 0..state.brigades.len() {
        update_brigade(rules, state, BrigadeId(b), events)?;
    }
    Ok(())
}

/// The leader casualty roll (Ch16 2.4, RULE-07-4.3; triggers per RULINGS C9; one roll per volley
/// or melee, G18). A light wound costs a pip every turn from now on (wounds stack); a severe wound
/// or death takes him off and a Timid Colonel commands from the next turn (G18); death also
/// disorders the regiment he was with and loses the brigade's unspent pips.
pub fn leader_casualty(
    rules: &Rules,
    state: &mut GameState,
    leader: LeaderId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let l = state.leader(leader).ok_or_else(|| EngineError::Unknown(format!("leader #{}", leader.0)))?;
    if l.removed {
        return Ok(());
    }
    let (name, unit) = (l.name.clone(), l.attached);
    let what = format!("{name}'s leader casualty roll");
    let rolled =
        roll_for(dice, Purpose::LeaderCasualty, 1, events, &what, "Ch16 2.4")?.first().copied().unwrap_or(1);
    let result = rules
        .tables
        .leader_result(rolled)
        .cloned()
        .ok_or(EngineError::MissingRuleData("a leader_result row for every face"))?;
    events.push(Event::new(
        What::LeaderCasualty { leader: name.clone(), rolled, result: result.meta.title().to_string() },
        "Ch16 2.4, RULINGS C9",
    ));
    let brigade = state.brigades.iter().position(|b| b.brigadier == Some(leader)).map(BrigadeId);
    if result.pips < 0 {
        if let Some(l) = state.leaders.get_mut(leader.0) {
            l.pip_penalty += result.pips.unsigned_abs();
            // Ch14 4.0, dotc D39: the campaign reads his worst result of the battle; a removal
            // below overwrites a light wound.
            l.casualty = Some(result.meta.id.clone());
        }
    }
    if result.disorders_unit {
        if let Some(u) = unit {
            place_disorder(rules, state, u, events, "Ch16 2.4")?;
        }
    }
    if result.loses_unspent_pips {
        if let Some(b) = brigade {
            forfeit_pips(state, b, events, "Ch16 2.4");
        }
    }
    if result.removed {
        replace_leader(state, leader, &result, events);
    }
    Ok(())
}

/// A leader leaves the table (a casualty row that removes him, or his capture): a colonel on
/// the row's replacement rating commands his brigade from the next turn (Ch16 2.4, RULINGS G18).
fn replace_leader(
    state: &mut GameState,
    leader: LeaderId,
    result: &dotc_lang::library::LeaderResult,
    events: &mut Vec<Event>,
) {
    let Some(l) = state.leaders.get_mut(leader.0) else { return };
    let (name, side, successor) = (l.name.clone(), l.side, l.successor.clone());
    l.removed = true;
    // Ch14 4.0, dotc D39: the result that took him off (his capture is the row that removes
    // without killing).
    l.casualty = Some(result.meta.id.clone());
    l.attached = None;
    let brigade = state.brigades.iter().position(|b| b.brigadier == Some(leader)).map(BrigadeId);
    if let Some(b) = brigade {
        let rating = result.replacement.clone().unwrap_or_else(|| "timid".to_string());
        // Ch16 2.4: the colonel takes the name the scenario gave him, or the default a log
        // can type (`dotc_lang::names::replacing`).
        let colonel = successor;
        let turn = state.turn + 1;
        state.leaders.push(super::state::Leader {
            name: colonel.clone(),
            side,
            rank: LeaderRank::Colonel,
            rating: rating.clone(),
            attached: None,
            pip_penalty: 0,
            removed: false,
            from_turn: turn,
            successor: dotc_lang::names::replacing(&colonel),
            casualty: None,
        });
        let id = LeaderId(state.leaders.len() - 1);
        if let Some(b) = state.brigades.get_mut(b.0) {
            b.brigadier = Some(id);
        }
        events.push(Event::new(
            What::LeaderReplaced { leader: name, by: colonel, rating, permanent: result.permanent },
            "Ch16 2.4, RULINGS G18",
        ));
    }
}

/// RULE-07-4.5: a solitary brigadier caught in the open by a charge who makes no evasion move
/// is captured. He leaves the table as on the casualty table's row that removes a leader without
/// killing him ("Severely Wounded / Captured", Ch16 2.4): a colonel on that row's replacement
/// rating takes his brigade from the next turn (RULINGS C9, G18).
pub fn leader_captured(
    rules: &Rules,
    state: &mut GameState,
    leader: LeaderId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let l = state.leader(leader).ok_or_else(|| EngineError::Unknown(format!("leader #{}", leader.0)))?;
    if l.removed {
        return Ok(());
    }
    let name = l.name.clone();
    events.push(Event::new(What::Note { text: format!("{name} is captured") }, "RULE-07-4.5, Ch16 2.4"));
    leader_struck_off(rules, state, leader, events)
}

/// A leader leaves the table as on the casualty table's row that removes a leader without
/// killing him ("Severely Wounded / Captured", Ch16 2.4): a colonel on that row's replacement
/// rating takes his brigade from the next turn (RULINGS G18). His capture (RULE-07-4.5) and the
/// General at the Front's wound (Ch13 3.0) both come here.
pub fn leader_struck_off(
    rules: &Rules,
    state: &mut GameState,
    leader: LeaderId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    if state.leader(leader).is_none_or(|l| l.removed) {
        return Ok(());
    }
    let row =
        rules.tables.leader_results.iter().find(|r| r.removed && !r.permanent).cloned().ok_or(
            EngineError::MissingRuleData("a leader_result that removes a leader without killing him"),
        )?;
    replace_leader(state, leader, &row, events);
    Ok(())
}

/// Pay `cost` staff pips from a brigade: this turn's pips first, then the banked one (Ch16 2.1,
/// 2.3, RULINGS G8). Not enough is [`EngineError::Illegal`] for `unit` doing `what`, citing `rule`.
pub(crate) fn spend_pips(
    state: &mut GameState,
    brigade: BrigadeId,
    cost: u32,
    unit: &str,
    what: &str,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<(), EngineError> {
    let ahead_of_phase_four = state.ahead_of_phase_four;
    let b = state
        .brigades
        .get_mut(brigade.0)
        .ok_or_else(|| EngineError::Unknown(format!("brigade #{}", brigade.0)))?;
    // dotc D51: pips an earlier melee of this Phase 2 forfeited are still in hand before Phase 4.
    let held = if ahead_of_phase_four { b.before_melee.map_or(0, |h| h.pips) } else { 0 };
    let available = b.pips + b.banked + held;
    if available < cost {
        return Err(EngineError::Illegal {
            unit: unit.to_string(),
            why: format!("{what}: it costs {cost} pips and {} has {available}", b.name),
            rule,
        });
    }
    let from_pips = cost.min(b.pips);
    let from_banked = (cost - from_pips).min(b.banked);
    let from_held = cost - from_pips - from_banked;
    b.pips -= from_pips;
    b.banked -= from_banked;
    if let Some(h) = b.before_melee.as_mut().filter(|_| from_held > 0) {
        h.pips -= from_held;
        events.push(Event::new(
            What::Note {
                text: format!(
                    "{} pays {from_held} of it from the pips it held before this phase's melees: they are \
                     lost only in Phase 4",
                    b.name
                ),
            },
            "Ch16 1.0, RULE-07-2.4, dotc D51",
        ));
    }
    let change = -i32::try_from(cost).unwrap_or(i32::MAX);
    events.push(Event::new(
        What::Pips { brigade: b.name.clone(), change, pips: b.pips, banked: b.banked },
        rule,
    ));
    Ok(())
}

/// A brigade loses every pip it has, banked or not (a Broken brigade, RULE-07-2.4; a brigadier
/// killed, Ch16 2.4).
fn forfeit_pips(state: &mut GameState, brigade: BrigadeId, events: &mut Vec<Event>, rule: &'static str) {
    if let Some(b) = state.brigades.get_mut(brigade.0) {
        let change = -i32::try_from(b.pips + b.banked).unwrap_or(i32::MAX);
        b.pips = 0;
        b.banked = 0;
        events.push(Event::new(What::Pips { brigade: b.name.clone(), change, pips: 0, banked: 0 }, rule));
    }
}

/// A command rally (RULE-07-3.2, Ch16 8.3, RULINGS C10): pay the `command_rally` order's pips
/// for the brigadier's distance from the unit (doubled in the distant tier, none beyond it) and
/// take one Disorder off, no dice. `distance` is from the brigadier's base to the Color Stand.
pub fn command_rally(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    distance: f64,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let u = state.unit(unit).ok_or_else(|| unknown_unit(unit))?;
    let name = u.name.clone();
    let illegal = |why: &str, rule: &'static str| EngineError::Illegal {
        unit: name.clone(),
        why: why.to_string(),
        rule,
    };
    if !u.markers.disorder {
        return Err(illegal("rally: it has no Disorder marker", "RULE-07-3.2"));
    }
    let brigade = u.brigade.ok_or_else(|| illegal("rally by pips: it has no brigade", "RULE-07-3.2"))?;
    if state.brigade(brigade).is_some_and(|b| b.status == BrigadeStatus::Broken)
        && rules.tables.broken.no_rally
    {
        return Err(illegal("rally: its brigade is Broken", "RULE-07-2.4"));
    }
    let order =
        rules.data.order("command_rally").ok_or(EngineError::MissingRuleData("order command_rally"))?;
    let base = order
        .pip_cost(distance)
        .ok_or_else(|| illegal("rally: beyond every pip cost of a command rally", "Ch16 8.3"))?;
    let cost = match rules.tier_at(distance).map(|t| t.order_cost) {
        Some(OrderCost::Prohibited) => {
            return Err(illegal("rally by pips: out of communication", "Ch16 2.2, RULINGS C10"));
        }
        // The rally's own price already doubles past 12" (RULE-07-3.2); the distant tier's
        // doubling is that same doubling, not a second one.
        _ => base,
    };
    spend_pips(state, brigade, cost, &name, "rally", events, "RULE-07-3.2, Ch16 8.3")?;
    remove_disorder(state, unit, events, "RULE-07-3.2, Ch16 8.3")?;
    if let Some(u) = state.unit_mut(unit) {
        u.turn.pip_rallied = true;
    }
    Ok(())
}

/// A natural rally in Phase 5 (RULE-07-3.3, Ch16 8.3, RULINGS C20): a Disordered unit that is
/// not in contact, did not move, assault or fire, took no casualties from shooting, and had no
/// pip rally this turn rolls 1D6 against its rally number (a trait such as Iron Discipline may
/// better it). A Broken brigade cannot rally (RULE-07-2.4).
pub fn natural_rally(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<bool, EngineError> {
    let u = state.unit(unit).ok_or_else(|| unknown_unit(unit))?;
    let illegal = |why: &str| EngineError::Illegal {
        unit: u.name.clone(),
        why: why.to_string(),
        rule: "RULE-07-3.3, RULINGS C20",
    };
    if !u.markers.disorder {
        return Err(illegal("rally: it has no Disorder marker"));
    }
    let f = &u.turn;
    let why = if f.engaged {
        Some("rally naturally: it is in contact with the enemy")
    } else if f.moved || f.assaulted {
        Some("rally naturally: it moved or assaulted this turn")
    } else if f.fired {
        Some("rally naturally: it fired this turn")
    } else if f.shot_casualties {
        Some("rally naturally: it took casualties from shooting this turn")
    } else if f.pip_rallied {
        Some("rally naturally: it had a pip rally this turn")
    } else {
        None
    };
    if let Some(why) = why {
        return Err(illegal(why));
    }
    if state.brigade_status(unit) == BrigadeStatus::Broken && rules.tables.broken.no_rally {
        return Err(EngineError::Illegal {
            unit: u.name.clone(),
            why: "rally: its brigade is Broken".into(),
            rule: "RULE-07-2.4",
        });
    }
    let quality = rules
        .data
        .quality(&u.quality)
        .ok_or_else(|| EngineError::Unknown(format!("quality `{}`", u.quality)))?;
    let trait_rally = u.traits.iter().filter_map(|t| rules.trait_def(t)).filter_map(|t| t.rally).min();
    let base = quality.rally.min(trait_rally.unwrap_or(u32::MAX));
    let name = u.name.clone();
    let passed = test_roll(
        name,
        TestKind::NaturalRally,
        i32::try_from(base).unwrap_or(6),
        Vec::new(),
        dice,
        events,
        "RULE-07-3.3, Ch16 8.3",
    )?;
    if passed {
        remove_disorder(state, unit, events, "RULE-07-3.3")?;
    }
    Ok(passed)
}

/// A passage of lines (Ch16 3.3, RULINGS C8): the unit moving through and the unit it passes
/// each take a Discipline check, by their own grade (`by_grade`, the default) or on 4+
/// (`four_up`); each that fails is disordered (a second Disorder is a micro-hit). Returns whether
/// each passed, moving unit first.
pub fn passage_of_lines(
    rules: &Rules,
    state: &mut GameState,
    moving: UnitId,
    stationary: UnitId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<(bool, bool), EngineError> {
    let mut results = [false; 2];
    for (slot, unit) in [moving, stationary].into_iter().enumerate() {
        let passed = match rules.rulings.passage_of_lines {
            crate::rulings::PassageOfLines::ByGrade => discipline_check(
                rules,
                state,
                unit,
                TestKind::PassageOfLines,
                Some(CheckCause::PassageOfLines),
                Vec::new(),
                dice,
                events,
                "Ch16 3.3, RULE-07-1.4, RULINGS C8",
            )?,
            crate::rulings::PassageOfLines::FourUp => {
                // Ch16 3.3 prints one number for everyone: the regular grade's.
                let regular =
                    rules.data.quality("regular").ok_or(EngineError::MissingRuleData("quality regular"))?;
                let name = state.unit(unit).ok_or_else(|| unknown_unit(unit))?.name.clone();
                let mods =
                    standing_discipline_modifiers(rules, state, unit, Some(CheckCause::PassageOfLines));
                let base = i32::try_from(regular.discipline).unwrap_or(6);
                test_roll(name, TestKind::PassageOfLines, base, mods, dice, events, "Ch16 3.3, RULINGS C8")?
            }
        };
        if !passed {
            place_disorder(rules, state, unit, events, "Ch16 3.3")?;
        }
        results[slot] = passed;
    }
    Ok((results[0], results[1]))
}

#[cfg(test)]
mod tests;
