//! The plan of one volley: every fact the dice of a volley are judged against, computed once from
//! the game state, the shot's geometry ([`FireInput`]) and the rule data.
//!
//! [`plan_volley`] is the one place where a volley's legality, dice pool, to-hit number and its
//! modifiers (Ch16 5.6), the Shock trigger and the Discipline save behind it (Ch16 5.5), the cover
//! save and its modifiers (Ch16 5.4, 5.6), the skirmish screen's share (Ch16 3.4) and the target's
//! casualty bookkeeping are worked out. The engine resolves the plan with dice
//! ([`super::volley_in_place`]); `odds` computes the plan's exact distribution
//! ([`crate::odds::plan_odds`]); the replay keeps the plan of every volley it played, so
//! `dotc odds --at`, the language server's hover and `dotc luck` read the same numbers.
//!
//! What a plan cannot hold is what the volley's own casualties change: the follow-up tests after
//! the casualties (Seen the Elephant, a Spent target's test, the attached leader's roll) are
//! judged by the resolution on the state as it then is.

use dotc_lang::library::{
    Arm as WeaponArm, BandName, BonusDice, CheckCause, Cover, CoverClass, DicePer, Firepower, Formation,
    Order, Per, RerollWhat, SaveCondition, Trait, Weapon, WeaponClass,
};

use super::super::events::{BrigadeStatus, Event, Health, Modifier, What};
use super::super::morale;
use super::super::state::{Arm, GameState, Unit, UnitId};
use super::super::{EngineError, Rules};
use super::{FireInput, FireKind};
use crate::rulings::{Enfilade, HesitantFire, LowAmmoScope, Suppression, ToHitLimits};

/// Everything one volley's dice are judged against. Built by [`plan_volley`].
#[derive(Clone, Debug, PartialEq)]
pub struct VolleyPlan {
    pub firer: UnitId,
    pub target: UnitId,
    pub firer_name: String,
    pub target_name: String,
    pub kind: FireKind,
    /// Inches from the firer to the target (RULINGS G4).
    pub range: f64,
    /// The weapon's range band at that distance (RULE-05-2.2, 2.3).
    pub band: BandName,
    /// Stands (sections for artillery) that fire (RULE-05-2.1, 6.1, Ch16 3.2).
    pub stands: u32,
    /// Dice rolled to hit, bonus dice included and a Sudden Squall's halving applied.
    pub dice: u32,
    /// How the pool was made, in words, each part with its rule: the stands the unit has, those
    /// that do not fire and why, the dice per stand and any bonus ("5 stands", "1 out as its
    /// skirmish screen (RULINGS G12)"). For a finding about the number of dice.
    pub pool: Vec<String>,
    /// What is said before the dice are rolled (a trait's bonus dice, a squall's halving).
    pub notes: Vec<Event>,
    /// The band's number, or a trait's better one (Ch16 9.0).
    pub base: i32,
    /// Every to-hit modifier with its citation (Ch16 5.6).
    pub modifiers: Vec<Modifier>,
    /// The number each die needs after the modifiers (RULINGS G1 decides the limits).
    pub to_hit: i32,
    /// Missed dice rolled again, the lowest first (Sharpshooters, Ch16 9.0).
    pub rerolls: u32,
    /// Low Ammo comes from this many natural 1s in the first roll (RULE-05-2.5b, RULINGS C14);
    /// None when it cannot come from this volley.
    pub low_ammo_at: Option<u32>,
    /// The firer carries Low Ammo already (its -1 is among the modifiers).
    pub low_ammo_carried: bool,
    /// Clean Barrels applies to this volley and its marker goes afterwards (Ch13 2.0).
    pub clean_barrels: bool,
    /// The firer places gunsmoke (RULE-05-5.1, RULINGS G11).
    pub smokes: bool,
    /// Counter-battery fire (Ch13 7.0, module `advanced_artillery`, dotc D10): artillery firing
    /// at an enemy battery; each natural 6 that hits destroys a gun stand outright, with no
    /// save, and is not one of the hits that go on to the cover saves.
    pub counter_battery: bool,
    pub shock: ShockPlan,
    pub save: SavePlan,
    /// The target's skirmish screen takes the first unsaved hit (Ch16 3.4, RULINGS G12).
    pub screen: Option<ScreenPlan>,
    /// The target as the volley finds it.
    pub target_state: TargetFacts,
}

/// The Shock trigger and what follows it (RULE-05-4.1-4.3, Ch16 5.5, RULINGS C3, G9).
#[derive(Clone, Debug, PartialEq)]
pub struct ShockPlan {
    /// Natural 6s that make a trigger at this range; 0 when none can.
    pub sixes_needed: u32,
    /// The rule the trigger is read under (the numbered table, or RULINGS C3 as printed).
    pub rule: &'static str,
    /// Every hit disorders the target with no save: a Napoleon's canister (Ch16 5.3).
    pub canister: bool,
    /// A trait that ignores the first Shock result of the turn, not yet used this turn (Iron
    /// Discipline, Ch16 9.0).
    pub ignored_by: Option<String>,
    /// The Discipline save a trigger calls for (RULE-05-4.2); None as printed, where a trigger
    /// disorders with no save (RULINGS C3 `any_six_disorders`).
    pub save: Option<DisciplineSave>,
}

/// A Discipline test's numbers (RULE-07-1.4: 1D6 against the quality after the modifiers).
#[derive(Clone, Debug, PartialEq)]
pub struct DisciplineSave {
    pub base: i32,
    pub modifiers: Vec<Modifier>,
    /// The roll needed, held to 2..6 (RULINGS G1).
    pub needed: i32,
    /// Rolled with Advantage, 2D6 and the higher kept: a charger under Desperate Valor saving
    /// against its closing volley (Ch13 17.0, dotc D14).
    pub advantage: bool,
}

impl DisciplineSave {
    /// The chance the save passes: one die's, or with Advantage the chance that not both dice
    /// miss (Ch13 17.0).
    pub fn p_pass(&self) -> f64 {
        let one = f64::from(7 - self.needed.clamp(1, 7)) / 6.0;
        if self.advantage { 1.0 - (1.0 - one) * (1.0 - one) } else { one }
    }
}

/// The cover save (RULE-05-3.1, 3.2, Ch16 5.4, 5.6, RULINGS C15, C30, G1, G17).
#[derive(Clone, Debug, PartialEq)]
pub struct SavePlan {
    /// The save before modifiers: the better of the terrain's and the formation's own.
    pub base: Option<i32>,
    pub modifiers: Vec<Modifier>,
    /// The roll each hit needs after the modifiers (never better than 2+); past 6 it is lost.
    pub save: Option<i32>,
    /// Why there is no save, when there is none before modifiers.
    pub none_because: String,
    /// A Steady unit may roll one failed save again this turn (Ch16 9.0, RULINGS C27).
    pub steady: bool,
}

impl SavePlan {
    /// The number a hit's save die needs, when it has a save at all (a save past 6+ is lost,
    /// RULINGS G1).
    pub fn needed(&self) -> Option<i32> {
        self.save.filter(|&s| s <= 6)
    }
}

/// The target's skirmish screen (Ch16 3.4, RULINGS G12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenPlan {
    /// Hits the screen has taken already.
    pub hits: u32,
    /// Hits that remove it (and a stand of its parent).
    pub limit: u32,
}

/// The target's casualty facts before the volley.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetFacts {
    pub stands: u32,
    /// Fresh, Spent... judged before the volley's casualties (RULINGS G9); None for a battery.
    pub health: Option<Health>,
}

/// Plan one volley: its legality and every number its dice are judged against. Reads the state
/// and changes nothing. An illegal volley is [`EngineError::Illegal`] citing its rule.
pub fn plan_volley(
    rules: &Rules,
    state: &GameState,
    firer: UnitId,
    target: UnitId,
    input: &FireInput,
) -> Result<VolleyPlan, EngineError> {
    let f = state.unit(firer).ok_or_else(|| unknown(firer))?;
    let t = state.unit(target).ok_or_else(|| unknown(target))?;
    let shot = Shot::check(rules, state, firer, target, f, t, input)?;
    // Ch13 3.0: a Sudden Squall rolled this turn halves every pool, as a squall asked for does.
    let squall = input.squall || state.friction.squall;
    let (stands, dice, mut notes, pool) = dice_pool(rules, f, &shot, input, squall)?;
    let (base, modifiers, to_hit) = to_hit(rules, state, firer, f, t, &shot, input)?;
    // Ch16 9.0: the Sharpshooters and Steady re-rolls are each side's to take or decline.
    let rerolls = if input.reroll_declined { 0 } else { missed_die_rerolls(&shot, to_hit) };
    if input.reroll_declined && missed_die_rerolls(&shot, to_hit) > 0 {
        let text = format!("{} declines its re-roll of missed dice (Sharpshooters)", f.name);
        notes.push(Event::new(What::Note { text }, "Ch16 9.0"));
    }
    if input.save_reroll_declined && steady_may_reroll(state, target, &shot) {
        let text = format!("{} declines its re-roll of a failed cover save (Steady)", t.name);
        notes.push(Event::new(What::Note { text }, "Ch16 9.0, RULINGS C27"));
    }
    let (low_ammo_at, clean_barrels) = marker_rules(rules, f, &shot);
    // RULE-05-4.2, RULINGS G9: crossfire, the second (or later) unit to fire at it this phase.
    let crossfire = t.turn.fired_on_by.iter().any(|&u| u != firer);
    let in_cover = in_cover(rules, &shot, input)?;
    let health = morale::unit_health(rules, state, target);
    let shock = shock_plan(rules, state, target, t, &shot, input, health, in_cover, crossfire)?;
    let save = save_plan(rules, state, target, &shot, input)?;
    let screen = target_screen(rules, t, input)?;
    Ok(VolleyPlan {
        firer,
        target,
        firer_name: f.name.clone(),
        target_name: t.name.clone(),
        kind: input.kind,
        range: input.range,
        band: shot.band,
        stands,
        dice,
        pool,
        notes,
        base,
        modifiers,
        to_hit,
        rerolls,
        low_ammo_at,
        low_ammo_carried: f.markers.low_ammo,
        clean_barrels,
        smokes: f.is_infantry() || f.is_battery(),
        counter_battery: counter_battery(rules, &shot, t),
        shock,
        save,
        screen,
        target_state: TargetFacts { stands: t.stands, health },
    })
}

fn unknown(id: UnitId) -> EngineError {
    EngineError::Unknown(format!("unit #{}", id.0))
}

/// The arm whose weapon bands a unit uses (RULINGS C21: cavalry has its own).
pub(crate) fn weapon_arm(arm: &Arm) -> WeaponArm {
    match arm {
        Arm::Infantry => WeaponArm::Infantry,
        Arm::Battery { .. } => WeaponArm::Artillery,
        Arm::Cavalry { .. } => WeaponArm::Cavalry,
    }
}

/// The rule-data entries a legal shot uses, found once.
struct Shot<'r> {
    formation: &'r Formation,
    target_formation: &'r Formation,
    weapon: &'r Weapon,
    arm: WeaponArm,
    band: BandName,
    band_hits: u32,
    firer_traits: Vec<&'r Trait>,
    target_traits: Vec<&'r Trait>,
    artillery: bool,
    /// The Concentrated Battery Fire order, when the volley is one (RULE-05-2.4).
    concentrated: Option<&'r Order>,
}

impl<'r> Shot<'r> {
    /// Step 1, legality: who may fire at whom, at what range, in what formation (RULE-05-1.1,
    /// 1.2, 1.3, 2.2-2.4, RULE-07-2.4, Ch16 3.2, 5.1, 9.0, 10.2, RULINGS C18, C31, G4).
    fn check(
        rules: &'r Rules,
        state: &GameState,
        firer: UnitId,
        target: UnitId,
        f: &Unit,
        t: &Unit,
        input: &FireInput,
    ) -> Result<Shot<'r>, EngineError> {
        let illegal = |unit: &str, why: String, rule: &'static str| EngineError::Illegal {
            unit: unit.to_string(),
            why,
            rule,
        };
        if firer == target {
            return Err(illegal(&f.name, "fire at itself".into(), "RULE-05-1.3"));
        }
        if f.removed {
            return Err(illegal(&f.name, "fire: it is no longer on the table".into(), "RULE-05-1.1"));
        }
        if t.removed {
            return Err(illegal(
                &f.name,
                format!("fire at {}: it is no longer on the table", t.name),
                "RULE-05-1.3",
            ));
        }
        if f.side == t.side {
            return Err(illegal(
                &f.name,
                format!("fire at {}: it is a friendly unit", t.name),
                "RULE-05-1.3",
            ));
        }
        // RULE-07-2.4: a Broken brigade cannot shoot (before Phase 4, as it was before this
        // phase's melees, dotc D51).
        let status = crate::engine::phase_four::brigade_status_before_phase_four(rules, state, firer);
        if status == BrigadeStatus::Broken && rules.tables.broken.no_fire {
            return Err(illegal(&f.name, "fire: its brigade is Broken".into(), "RULE-07-2.4, Ch16 8.2"));
        }
        match f.arm {
            // RULE-05-1.1: only unlimbered batteries fire (RULINGS C31).
            Arm::Battery { limbered: true } => {
                return Err(illegal(&f.name, "fire: it is limbered".into(), "RULE-05-1.1, RULINGS C31"));
            }
            // RULE-05-1.1, Ch16 10.2: cavalry shoots dismounted.
            Arm::Cavalry { mounted: true, .. } => {
                return Err(illegal(&f.name, "fire while mounted".into(), "RULE-05-1.1, Ch16 10.2"));
            }
            _ => {}
        }
        let formation = rules
            .data
            .formation(&f.formation)
            .ok_or_else(|| EngineError::Unknown(format!("formation `{}`", f.formation)))?;
        let target_formation = rules
            .data
            .formation(&t.formation)
            .ok_or_else(|| EngineError::Unknown(format!("formation `{}`", t.formation)))?;
        // A module's formation (open order, Ch13 22.0) only exists with its module on.
        for (unit, form) in [(&f.name, formation), (&t.name, target_formation)] {
            if let Some(m) = form.module.as_deref().filter(|m| !rules.module(m)) {
                return Err(illegal(
                    unit,
                    format!("be in {}: the `{m}` module is off", form.meta.title()),
                    "Ch13 (optional modules)",
                ));
            }
        }
        // RULE-05-1.2 (4), Ch16 3.2, 5.1: a road column cannot fire.
        if formation.fire == Firepower::None {
            return Err(illegal(
                &f.name,
                format!("fire in {}", formation.meta.title()),
                "RULE-05-1.2, Ch16 3.2, 5.1",
            ));
        }
        let weapon = rules
            .data
            .weapon(&f.weapon)
            .ok_or_else(|| EngineError::Unknown(format!("weapon `{}`", f.weapon)))?;
        let arm = weapon_arm(&f.arm);
        let range = input.range;
        if !range.is_finite() || range < 0.0 {
            return Err(illegal(&f.name, format!("fire at a range of {range}\""), "RULE-05-1.4, RULINGS G4"));
        }
        // RULE-05-2.2, 2.3, Ch16 5.2, 5.3, 10.3: a weapon with no band there is out of range.
        let band = weapon.band_at(arm, range).ok_or_else(|| {
            illegal(
                &f.name,
                format!("fire at {range}\": {} reaches {}\"", weapon.meta.title(), weapon.max_range(arm)),
                "RULE-05-2.2, 2.3, Ch16 5.2, 5.3",
            )
        })?;
        let firer_traits: Vec<&Trait> = f.traits.iter().filter_map(|id| rules.trait_def(id)).collect();
        let target_traits: Vec<&Trait> = t.traits.iter().filter_map(|id| rules.trait_def(id)).collect();
        // Ch16 9.0: a trait's own limit (Buck and Ball: never past 14").
        if let Some(max) = firer_traits.iter().filter_map(|tr| tr.max_range).reduce(f64::min) {
            if range > max {
                return Err(illegal(
                    &f.name,
                    format!("fire at {range}\": its trait limits it to {max}\""),
                    "Ch16 9.0",
                ));
            }
        }
        let artillery =
            f.is_battery() || weapon.class == WeaponClass::Artillery || weapon.dice.per == DicePer::Section;
        // Ch13 21.0, soft ground: solid shot buries itself, every gun's maximum range is shorter.
        let cut = state.weather.artillery_range_cut(&rules.tables);
        if artillery && cut > 0.0 {
            let max = weapon.max_range(arm) - cut;
            if range > max {
                return Err(illegal(
                    &f.name,
                    format!(
                        "fire at {range}\": on soft ground {} reaches {max}\" ({}\" less)",
                        weapon.meta.title(),
                        cut
                    ),
                    "Ch13 21.0",
                ));
            }
        }
        // Ch13 21.0, light fog: artillery may not target a unit beyond the limit unless the unit
        // carries a gunsmoke marker.
        if let Some(limit) = state.weather.artillery_target_limit(&rules.tables) {
            if artillery && range > limit && !t.markers.gunsmoke {
                return Err(illegal(
                    &f.name,
                    format!(
                        "fire at {} {range}\" away: in light fog artillery targets only units within {limit}\" or \
                         carrying gunsmoke",
                        t.name
                    ),
                    "Ch13 21.0",
                ));
            }
        }
        // RULE-05-2.4, RULINGS C18: an artillery order, paid in Phase 1 and resolved in Phase 3.
        let concentrated = if input.concentrated {
            if !artillery {
                return Err(illegal(
                    &f.name,
                    "use Concentrated Battery Fire: it is not artillery".into(),
                    "RULE-05-2.4",
                ));
            }
            if input.kind != FireKind::Phase3 {
                return Err(illegal(
                    &f.name,
                    "use Concentrated Battery Fire outside Phase 3".into(),
                    "RULE-05-2.4, RULINGS C18",
                ));
            }
            Some(
                rules
                    .data
                    .order("concentrated_battery_fire")
                    .ok_or(EngineError::MissingRuleData("order concentrated_battery_fire"))?,
            )
        } else {
            None
        };
        Ok(Shot {
            formation,
            target_formation,
            weapon,
            arm,
            band: band.name,
            band_hits: band.hits,
            firer_traits,
            target_traits,
            artillery,
            concentrated,
        })
    }
}

/// The skirmish formation's screen entry (Ch16 3.4).
pub(super) fn skirmish_screen(rules: &Rules) -> Result<&dotc_lang::library::Screen, EngineError> {
    rules
        .data
        .formation("skirmish")
        .and_then(|s| s.screen.as_ref())
        .ok_or(EngineError::MissingRuleData("the skirmish formation's screen"))
}

/// Step 2, the pool (RULE-05-2.1, Ch16 3.2, 5.2, 5.3, 9.0, RULINGS G12, G16, Ch13 3.0): the
/// stands the formation lets fire, their dice, a trait's bonus dice and a squall's halving.
/// Returns the firing stands, the dice, the notes that explain them and the pool in words.
fn dice_pool(
    rules: &Rules,
    f: &Unit,
    shot: &Shot<'_>,
    input: &FireInput,
    squall: bool,
) -> Result<(u32, u32, Vec<Event>, Vec<String>), EngineError> {
    let unit = if f.is_battery() { ("section", "sections") } else { ("stand", "stands") };
    let count = |n: u32| format!("{n} {}", if n == 1 { unit.0 } else { unit.1 });
    let mut words = vec![count(f.stands)];
    // A detached screen stand does not fire with its parent (RULINGS G12), nor do horse holders
    // (Ch16 10.2).
    let mut available = f.stands;
    if f.screen.is_some() {
        available = available.saturating_sub(1);
        words.push("1 out as its skirmish screen (RULINGS G12)".into());
    }
    if let Arm::Cavalry { horse_holders, .. } = f.arm {
        available = available.saturating_sub(horse_holders);
        if horse_holders > 0 {
            words.push(format!("{horse_holders} holding the horses (Ch16 10.2)"));
        }
    }
    let mut stands = shot.formation.firing_stands(available);
    if stands < available {
        words.push(format!("in {} only {} fire (Ch16 3.2)", shot.formation.meta.title(), count(stands)));
    }
    // RULE-05-6.1: only the stands with a clear line fire.
    if let Some(n) = input.firing_stands.filter(|&n| n < stands) {
        words.push(format!("{} without a clear line (RULE-05-6.1)", stands - n));
        stands = n;
    }
    if let Some(order) = shot.concentrated {
        // RULE-05-2.4: the other batteries' sections join the barrage, up to the order's limit.
        stands = stands.saturating_add(input.extra_sections);
        if input.extra_sections > 0 {
            words.push(format!(
                "{} of the brigade's other batteries (RULE-05-2.4)",
                count(input.extra_sections)
            ));
        }
        if let Some(max) = order.max_sections.filter(|&max| stands > max) {
            words.push(format!("at most {} in one barrage (RULE-05-2.4)", count(max)));
            stands = max;
        }
    }
    if stands == 0 {
        return Err(EngineError::Illegal {
            unit: f.name.clone(),
            why: "fire: no stand can fire".into(),
            rule: "RULE-05-2.1, RULE-05-6.1",
        });
    }
    if words.len() == 1 {
        words[0].push_str(", all firing");
    }
    let mut notes = Vec::new();
    let mut pool = shot.weapon.pool(stands);
    if pool != stands {
        words.push(format!(
            "{pool} dice from {} firing ({}, RULE-05-2.1, Ch16 5.2, 5.3, RULINGS G16)",
            count(stands),
            shot.weapon.meta.title()
        ));
    }
    // Ch16 9.0: a trait's close-range bonus dice (Buck and Ball: +1 within 3").
    for tr in &shot.firer_traits {
        if let Some(b) = tr.bonus_dice.filter(|b| input.range <= b.within) {
            pool += b.dice;
            words.push(format!("+{} within {}\" ({}, Ch16 9.0)", b.dice, b.within, tr.meta.title()));
            notes.push(Event::new(
                What::Note {
                    text: format!("{}: +{} dice within {}\" ({})", f.name, b.dice, b.within, tr.meta.title()),
                },
                "Ch16 9.0",
            ));
        }
    }
    // Ch13 7.0 Bouncing Solid Shot (module `advanced_artillery`): solid shot or spherical case
    // (any band but canister: medium or long range) into the flank of a line of battle.
    if bouncing_shot(rules, shot, input) {
        let bonus = rules.tables.bouncing_shot;
        pool += bonus;
        words.push(format!("+{bonus} bouncing solid shot down an enfiladed line (Ch13 7.0)"));
        notes.push(Event::new(
            What::Note {
                text: format!(
                    "{}: +{bonus} dice, its shot bounces down the files of an enfiladed line",
                    f.name
                ),
            },
            "Ch13 7.0",
        ));
    }
    // Ch13 3.0 "Sudden Squall": pools halved, rounded down, after the bonus dice (RULINGS G16;
    // the rule sets no minimum, so one die becomes none).
    if squall {
        let halved = pool / 2;
        notes.push(Event::new(
            What::Note { text: format!("Sudden Squall: {}'s {pool} dice are halved to {halved}", f.name) },
            "Ch13 3.0, RULINGS G16",
        ));
        pool = halved;
        words.push(format!("halved to {halved} by a Sudden Squall (Ch13 3.0)"));
    }
    Ok((stands, pool, notes, words))
}

/// Ch13 7.0 Bouncing Solid Shot (module `advanced_artillery`): artillery firing solid shot or
/// spherical case (medium or long range: any band but canister) at a line of battle it
/// enfilades rolls the `bouncing_shot` bonus dice. Enfilade is the flank fire of RULE-05-1.5 as
/// RULINGS C15 reads it; a line of battle is the `line` formation.
fn bouncing_shot(rules: &Rules, shot: &Shot<'_>, input: &FireInput) -> bool {
    rules.module("advanced_artillery")
        && shot.artillery
        && input.enfilade
        && shot.band != BandName::Canister
        && shot.target_formation.meta.id == "line"
}

/// Ch13 7.0 Counter-Battery Fire (module `advanced_artillery`, dotc D10): artillery firing at an
/// enemy battery.
fn counter_battery(rules: &Rules, shot: &Shot<'_>, t: &Unit) -> bool {
    rules.module("advanced_artillery") && shot.artillery && t.is_battery()
}

/// The clearances a battery firing overhead needs (RULE-05-6.3, RULINGS C2): Ch13 7.0's 3" and
/// 3" with the `advanced_artillery` module on (RULINGS C2: "3/3 only with the module"), else
/// the `overhead_clearance` switch.
pub fn overhead_clearance(rules: &Rules) -> crate::rulings::OverheadClearance {
    if rules.module("advanced_artillery") {
        crate::rulings::OverheadClearance::ThreeAndThree
    } else {
        rules.rulings.overhead_clearance
    }
}

/// The modifiers of a marker's `to_hit` lines that apply at this range (a `beyond` line only
/// past its distance, RULE-05-5.3).
fn marker_to_hit(lines: &[dotc_lang::library::ToHitModifier], range: f64) -> i32 {
    lines.iter().filter(|m| m.beyond.is_none_or(|d| range > d)).map(|m| m.value).sum()
}

/// Whether Clean Barrels applies to this firer (Ch13 2.0, Ch16 11.0): it carries the marker,
/// the module is on and the marker covers its arm.
fn clean_barrels_apply(rules: &Rules, f: &Unit, arm: WeaponArm) -> bool {
    let cb = &rules.tables.clean_barrels;
    f.markers.clean_barrels
        && cb.module.as_deref().is_none_or(|m| rules.module(m))
        && (cb.applies_to.is_empty() || cb.applies_to.contains(&arm))
}

/// Step 3, the to-hit number (Ch16 5.6, RULE-05-7.0, RULINGS G1): the band's number (or a
/// trait's better one) and every modifier, each defined here once. Returns the base, the
/// modifiers and the number needed.
fn to_hit(
    rules: &Rules,
    state: &GameState,
    firer: UnitId,
    f: &Unit,
    t: &Unit,
    shot: &Shot<'_>,
    input: &FireInput,
) -> Result<(i32, Vec<Modifier>, i32), EngineError> {
    let range = input.range;
    // A trait's number for the band replaces the weapon's when better (Buck and Ball: 3+ short).
    let mut base = i32::try_from(shot.band_hits).unwrap_or(7);
    for tr in &shot.firer_traits {
        for h in tr.hits.iter().filter(|h| h.band == shot.band) {
            base = base.min(i32::try_from(h.hits).unwrap_or(7));
        }
    }
    let mut modifiers = Vec::new();
    let tables = &rules.tables;
    // RULE-05-4.4, Ch16 5.6: a disordered firer (not by its brigade's break in a melee that
    // Phase 4 has yet to fight, dotc D51).
    if crate::engine::phase_four::disordered_before_phase_four(state, firer) {
        let v = marker_to_hit(&tables.disorder.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("disordered", v, "RULE-05-4.4, Ch16 5.6"));
        }
    }
    // RULE-05-1.5, Ch16 5.6, RULINGS C15: enfilade.
    if input.enfilade && tables.enfilade.to_hit != 0 {
        modifiers.push(Modifier::new(
            "enfilade",
            tables.enfilade.to_hit,
            "RULE-05-1.5, Ch16 5.6, RULINGS C15",
        ));
    }
    // RULE-05-5.2, 5.3, RULINGS G11: its own smoke or smoke in the line, once, and only past 6".
    if f.markers.gunsmoke || input.smoke {
        let v = marker_to_hit(&tables.gunsmoke.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("gunsmoke", v, "RULE-05-5.2, 5.3, Ch16 5.7, RULINGS G11"));
        }
    }
    // RULE-05-6.2, Ch16 5.6: firing through its own skirmish screen.
    if input.through_screen {
        let v = skirmish_screen(rules)?.to_hit.unwrap_or(0);
        if v != 0 {
            modifiers.push(Modifier::new("through own screen", v, "RULE-05-6.2, Ch16 5.6"));
        }
    }
    // Ch16 3.4: the target's screen, 2-3" ahead of it, obscures fire at it from the front. Fire
    // from beyond its flank (enfilade) does not pass through it (judgement).
    if t.screen.is_some() && !input.enfilade {
        let v = skirmish_screen(rules)?.to_hit.unwrap_or(0);
        if v != 0 {
            modifiers.push(Modifier::new("target's skirmish screen", v, "Ch16 3.4, RULINGS G12"));
        }
    }
    // Ch13 9.0, module elite_sharpshooters: fire aimed at an elite sharpshooter regiment.
    for tr in shot.target_traits.iter().filter(|tr| tr.fired_at != 0) {
        if tr.module.as_deref().is_none_or(|m| rules.module(m)) {
            modifiers.push(Modifier::new(format!("target: {}", tr.meta.title()), tr.fired_at, "Ch13 9.0"));
        }
    }
    // RULE-07-2.3, RULINGS C13: a Hesitant brigade's Phase 3 fire, or all its fire (before
    // Phase 4, as it was before this phase's melees, dotc D51).
    if crate::engine::phase_four::brigade_status_before_phase_four(rules, state, firer)
        == BrigadeStatus::Hesitant
        && (input.kind == FireKind::Phase3 || rules.rulings.hesitant_fire == HesitantFire::AllFire)
        && tables.hesitant.to_hit != 0
    {
        modifiers.push(Modifier::new(
            "hesitant brigade",
            tables.hesitant.to_hit,
            "RULE-07-2.3, Ch16 8.2, RULINGS C13",
        ));
    }
    // Ch16 5.1, RULE-05-1.2: pivoted or re-formed before firing.
    if input.pivoted && tables.pivoted.to_hit != 0 {
        modifiers.push(Modifier::new("pivoted or re-formed", tables.pivoted.to_hit, "Ch16 5.1, RULE-05-1.2"));
    }
    // Ch13 22.0: open order fires at -1 (the formation's own to-hit).
    if shot.formation.to_hit != 0 {
        modifiers.push(Modifier::new(shot.formation.meta.id.clone(), shot.formation.to_hit, "Ch13 22.0"));
    }
    // RULE-05-2.5b, Ch16 11.0, RULINGS C14: the marker's -1 while it is carried (however it came).
    if f.markers.low_ammo {
        let v = marker_to_hit(&tables.low_ammo.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("low ammo", v, "RULE-05-2.5b, Ch16 11.0, RULINGS C14"));
        }
    }
    // Ch13 21.0 (module weather), dotc D18: fouled powder's -1 while the marker is carried.
    if f.markers.fouled {
        let v = marker_to_hit(&tables.fouled.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("fouled powder", v, "Ch13 21.0, dotc D18"));
        }
    }
    // Ch13 2.0, Ch16 11.0: Clean Barrels, the first volley of the battle (none in a downpour,
    // Ch13 21.0: the weather's `no_first_volley`).
    if clean_barrels_apply(rules, f, shot.arm) && !state.weather.spoils_first_volley(tables) {
        let v = marker_to_hit(&tables.clean_barrels.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("clean barrels", v, "Ch13 2.0, Ch16 11.0"));
        }
    }
    // Ch13 20.0 Plunging Fire: the weapons the entry names (rifled muskets) hit only on its
    // number with a closing volley.
    let plunging = &tables.plunging_fire;
    if let Some(hits) = plunging.hits.and_then(|h| i32::try_from(h).ok()) {
        if rules.module("plunging_fire")
            && input.kind == FireKind::Closing
            && plunging.weapons.contains(&f.weapon)
            && base < hits
        {
            modifiers.push(Modifier::new("plunging fire (overshoot)", base - hits, "Ch13 20.0"));
        }
    }
    // Ch13 10.0 Premature Fire (RULINGS C28): a Green regiment's closing volley fired too early.
    let early = tables.premature_fire.to_hit;
    if input.premature && input.kind == FireKind::Closing && rules.module("premature_fire") && early != 0 {
        modifiers.push(Modifier::new("premature fire", early, "Ch13 10.0, RULINGS C28"));
    }
    let raw = base - modifiers.iter().map(|m| m.value).sum::<i32>();
    // RULINGS G1: held to 2..6 (a 6 always hits, a 1 always misses), or left as it is.
    let needed = match rules.rulings.to_hit_limits {
        ToHitLimits::Clamp => raw.clamp(2, 6),
        ToHitLimits::Unclamped => raw,
    };
    Ok((base, modifiers, needed))
}

/// Ch16 9.0 Steady (cover saves only, RULINGS C27): the target may roll one failed cover save
/// again, once a turn.
fn steady_may_reroll(state: &GameState, target: UnitId, shot: &Shot<'_>) -> bool {
    shot.target_traits
        .iter()
        .any(|tr| tr.rerolls.iter().any(|r| r.what == RerollWhat::CoverSave && r.count > 0))
        && !state.unit(target).is_some_and(|u| u.turn.save_rerolled)
}

/// Ch16 9.0 Sharpshooters: missed dice rolled again, per volley, at the band the trait names
/// (none when no die can hit).
fn missed_die_rerolls(shot: &Shot<'_>, to_hit: i32) -> u32 {
    if to_hit > 6 {
        return 0;
    }
    shot.firer_traits
        .iter()
        .flat_map(|tr| tr.rerolls.iter())
        .filter(|r| r.what == RerollWhat::MissedDie && r.per != Some(Per::Turn))
        .filter(|r| r.band.is_none_or(|b| b == shot.band))
        .map(|r| r.count)
        .sum()
}

/// Low Ammo (RULE-05-2.5b, Ch16 11.0, RULINGS C14) and Clean Barrels (Ch13 2.0) for this
/// volley. Under `repeaters_only` a repeater is a weapon with flat bonus dice (the Spencer and
/// Henry, Ch9 4.0, Ch12 4.0); breechloaders, with dice per stands, are not repeaters.
fn marker_rules(rules: &Rules, f: &Unit, shot: &Shot<'_>) -> (Option<u32>, bool) {
    let la = &rules.tables.low_ammo;
    let scoped = match rules.rulings.low_ammo_scope {
        LowAmmoScope::AllUnits => true,
        LowAmmoScope::RepeatersOnly => matches!(shot.weapon.bonus_dice, Some(BonusDice::Flat { .. })),
    };
    let low_ammo_at =
        if la.module.as_deref().is_none_or(|m| rules.module(m)) && scoped { la.trigger_ones } else { None };
    (low_ammo_at, clean_barrels_apply(rules, f, shot.arm))
}

/// The save of a cover class, as the terrain, obstacle and structure entries give it (Ch16 5.4).
fn class_save(rules: &Rules, class: CoverClass) -> Result<Option<u32>, EngineError> {
    if class == CoverClass::None {
        return Ok(None);
    }
    let d = &rules.data;
    d.terrain_kinds()
        .iter()
        .map(|t| t.cover)
        .chain(d.obstacles().iter().map(|o| o.cover))
        .chain(d.structures().iter().map(|s| s.cover))
        .find_map(|c| if c.class == class { c.save } else { None })
        .map(Some)
        .ok_or(match class {
            CoverClass::Heavy => EngineError::MissingRuleData("a heavy cover save"),
            _ => EngineError::MissingRuleData("a light cover save"),
        })
}

/// The target's terrain cover: the named entry's own cover when `from` is given, else the class's
/// save (Ch16 5.4, 4.1-4.3).
fn terrain_cover(rules: &Rules, input: &FireInput) -> Result<Cover, EngineError> {
    if let Some(id) = &input.cover.from {
        let d = &rules.data;
        let cover = d
            .terrain(id)
            .map(|t| t.cover)
            .or_else(|| d.obstacle(id).map(|o| o.cover))
            .or_else(|| d.structure(id).map(|s| s.cover))
            // Ch16 4.3: a collapsed building's rubble ("<structure> rubble", battlefield cover).
            .or_else(|| id.strip_suffix(" rubble").and_then(|s| d.structure(s)).and_then(|s| s.rubble))
            .ok_or_else(|| EngineError::Unknown(format!("terrain, obstacle or structure `{id}`")))?;
        return Ok(cover);
    }
    Ok(Cover { class: input.cover.class, save: class_save(rules, input.cover.class)? })
}

/// "In cover" for the Shock save (RULE-05-4.2): terrain cover, or a formation that counts as in
/// cover in the open (skirmish order, RULE-05-3.2; open order, Ch13 22.0 "Open Ground provides
/// 5+ Light Cover").
fn in_cover(rules: &Rules, shot: &Shot<'_>, input: &FireInput) -> Result<bool, EngineError> {
    let terrain = terrain_cover(rules, input)?;
    Ok(terrain.class != CoverClass::None
        || shot.target_formation.cover.is_some_and(|c| c.class != CoverClass::None)
        || shot.target_formation.cover_bonus > 0)
}

/// Shock (RULE-05-4.1-4.3, Ch16 5.5, RULINGS C3, G9): the natural 6s that make a trigger at
/// this range, a Napoleon's canister, Iron Discipline, and the Discipline save with the
/// disorder marker's modifiers (Fresh, Spent, cover, crossfire: as before the volley's
/// casualties, RULINGS G9).
#[allow(clippy::too_many_arguments)]
fn shock_plan(
    rules: &Rules,
    state: &GameState,
    target: UnitId,
    t: &Unit,
    shot: &Shot<'_>,
    input: &FireInput,
    health: Option<Health>,
    in_cover: bool,
    crossfire: bool,
) -> Result<ShockPlan, EngineError> {
    let tables = &rules.tables;
    let (sixes_needed, rule) = match rules.rulings.suppression {
        Suppression::Numbered => (
            tables
                .disorder
                .sixes_for_shock(input.range)
                .ok_or(EngineError::MissingRuleData("disorder: shock_trigger"))?,
            "RULE-05-4.1, Ch16 5.5, RULINGS C3",
        ),
        Suppression::AnySixDisorders => (1, "Ch15 3.0, RULINGS C3 (any_six_disorders)"),
    };
    // Ch16 5.3: a Napoleon's canister hits disorder the target, no save.
    let canister = shot.weapon.canister_disorder && shot.band == BandName::Canister;
    // Ch16 9.0 Iron Discipline: the first Shock result of each turn does nothing.
    let ignored_by = if t.turn.shock_ignored {
        None
    } else {
        shot.target_traits
            .iter()
            .find(|tr| tr.ignore_suppression.is_some_and(|a| a.count > 0 && a.per == Per::Turn))
            .map(|tr| tr.meta.title().to_string())
    };
    let save = match rules.rulings.suppression {
        Suppression::Numbered => {
            let mut extra = Vec::new();
            for m in &tables.disorder.discipline_mods {
                let applies = match m.condition {
                    SaveCondition::Fresh => health == Some(Health::Fresh),
                    SaveCondition::Spent => health == Some(Health::Spent),
                    SaveCondition::Cover => in_cover,
                    SaveCondition::Crossfire => crossfire,
                };
                if applies {
                    extra.push(Modifier::new(
                        m.condition.word(),
                        m.value,
                        "RULE-05-4.2, Ch16 5.5, RULINGS G9",
                    ));
                }
            }
            let (base, modifiers) =
                morale::discipline_terms(rules, state, target, Some(CheckCause::Shock), extra)?;
            let needed = morale::test_needed(base, &modifiers);
            // Ch13 17.0: a charger under Desperate Valor saves against its closing volley with
            // Advantage.
            let advantage = input.kind == FireKind::Closing && morale::valor_advantage(rules, state, target);
            Some(DisciplineSave { base, modifiers, needed, advantage })
        }
        Suppression::AnySixDisorders => None,
    };
    Ok(ShockPlan { sixes_needed, rule, canister, ignored_by, save })
}

/// The cover save (RULE-05-3.1, 3.2, Ch16 5.4, 5.6, RULINGS C15, C30, G1, G17): the better of the
/// terrain's save and the formation's own (cover never stacks), what enfilade and lobbed shells
/// take away, and the save modifiers.
fn save_plan(
    rules: &Rules,
    state: &GameState,
    target: UnitId,
    shot: &Shot<'_>,
    input: &FireInput,
) -> Result<SavePlan, EngineError> {
    let terrain = terrain_cover(rules, input)?;
    let target_formation = shot.target_formation;
    let light = terrain.class == CoverClass::Light && terrain.save.is_some();
    let majority = input.enfilade && rules.rulings.enfilade == Enfilade::MajorityBehind;
    let lost_because: Option<&'static str> = if !light {
        None
    } else if input.enfilade && input.cover.frontal_obstacle {
        Some("enfilade fire denies the light cover of a frontal obstacle (RULE-05-1.5, RULINGS C15)")
    } else if majority {
        Some("enfilade fire denies every light cover save (Ch16 5.6, RULINGS C15 majority_behind)")
    } else if input.cover.frontal_obstacle && shot.weapon.ignores_obstacle_light_cover {
        Some("lobbed shells ignore the light cover of fences, hedges and crests (Ch16 5.3)")
    } else {
        None
    };
    let terrain_save = if lost_because.is_some() { None } else { terrain.save };
    let own = target_formation.cover.filter(|c| !(c.class == CoverClass::Light && majority));
    let own_save = own.and_then(|c| c.save);
    let mut modifiers = Vec::new();
    let base = match (terrain_save, own_save) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let base = match base {
        Some(s) => {
            // Ch13 22.0, RULINGS G17: open order +1 to every cover save.
            if target_formation.cover_bonus != 0 {
                modifiers.push(Modifier::new(
                    target_formation.meta.id.clone(),
                    target_formation.cover_bonus,
                    "Ch13 22.0, RULINGS G17",
                ));
            }
            Some(i32::try_from(s).unwrap_or(7))
        }
        // Ch13 22.0: open order in the open has light cover ("Open Ground provides 5+ Light
        // Cover"), the one step its +1 gives. Enfilade under `majority_behind` takes that light
        // save away like any other (Ch16 5.6).
        None if target_formation.cover_bonus > 0 && terrain.class == CoverClass::None && !majority => {
            modifiers.push(Modifier::new(
                target_formation.meta.id.clone(),
                target_formation.cover_bonus,
                "Ch13 22.0, RULINGS G17",
            ));
            class_save(rules, CoverClass::Light)?
                .map(|s| i32::try_from(s).unwrap_or(7) + target_formation.cover_bonus)
        }
        None => None,
    };
    // Ch16 3.2, 5.6, RULE-05-2.5a, RULINGS C30: the target formation's save penalties (an assault
    // column's only against artillery).
    for s in target_formation.saves.iter().filter(|s| shot.artillery || !s.artillery_only) {
        modifiers.push(Modifier::new(
            target_formation.meta.id.clone(),
            s.value,
            "Ch16 3.2, 5.6, RULE-05-2.5a, RULINGS C30",
        ));
    }
    // RULE-05-2.4, Ch16 2.3, 5.6: Concentrated Battery Fire's penalty to the target's save.
    if let Some(order) = shot.concentrated {
        if order.target_save != 0 {
            modifiers.push(Modifier::new(
                "concentrated battery fire",
                order.target_save,
                "RULE-05-2.4, Ch16 2.3, 5.6",
            ));
        }
    }
    let save = base.map(|b| (b - modifiers.iter().map(|m| m.value).sum::<i32>()).max(2));
    let none_because = lost_because
        .unwrap_or(if terrain.class == CoverClass::None { "no cover" } else { "its cover gives no save" })
        .to_string();
    // Ch16 9.0 Steady (cover saves only, RULINGS C27): one failed save a turn rolled again,
    // unless the target declines it.
    let steady = steady_may_reroll(state, target, shot) && !input.save_reroll_declined;
    Ok(SavePlan { base, modifiers, save, none_because, steady })
}

/// Ch16 3.4, RULINGS G12: the target's screen, in front of it, takes the first unsaved hit of a
/// volley that is not enfilade (judgement: fire from beyond its flank does not pass through it).
fn target_screen(rules: &Rules, t: &Unit, input: &FireInput) -> Result<Option<ScreenPlan>, EngineError> {
    match &t.screen {
        Some(s) if !input.enfilade => {
            Ok(Some(ScreenPlan { hits: s.hits, limit: skirmish_screen(rules)?.hits.unwrap_or(1).max(1) }))
        }
        _ => Ok(None),
    }
}
