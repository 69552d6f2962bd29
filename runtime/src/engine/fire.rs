//! One volley of fire (Ch16 5.0-5.7, RULE-05-x), resolved in table order.
//!
//! [`resolve_volley`] takes a firing unit, a target and the facts of the shot the state does not
//! hold (range, cover, smoke in the line of sight, enfilade, ...: [`FireInput`]), rolls the dice
//! and applies everything the volley does, returning the [`Event`]s and a [`VolleyReport`]:
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
//! Every number comes from the rule data except three the stdlib does not state, which are named
//! constants citing their rule: [`PIVOT_TO_HIT`], [`FAILED_CHECK_FALL_BACK`] and
//! [`PLUNGING_FIRE_HITS`].
//!
//! Judgements (each documented where it is made): the canister Disorder is the volley's one
//! suppression result, so it replaces the Shock save (RULE-05-4.3, RULINGS G9); a target's own
//! screen obscures and absorbs only fire that is not enfilade (Ch16 3.4); "repeaters" for
//! RULINGS C14 are weapons with flat bonus dice; a Steady re-roll is used on the first failed save
//! of the turn; Low Ammo counts the natural 1s as first rolled.

use dotc_lang::library::{
    Arm as WeaponArm, BandName, BonusDice, CheckCause, Cover, CoverClass, DicePer, Firepower, Per,
    RerollWhat, WeaponClass,
};

use super::events::{BrigadeStatus, Event, Health, Modifier, TestKind, What};
use super::morale::{self, Cause};
use super::state::{Arm, GameState, UnitId};
use super::{EngineError, Rules, roll, transact};
use crate::dice::{DiceSource, Purpose};
use crate::rulings::{
    Enfilade, FailedDiscipline, HesitantFire, LeaderCasualtyTrigger, LowAmmoScope, Suppression, ToHitLimits,
};

/// A unit that pivoted or re-formed before firing shoots at -1 (Ch16 5.1, RULE-05-1.2). The
/// stdlib has no entry for it.
pub const PIVOT_TO_HIT: i32 = -1;

/// A unit that fails a Discipline check while stationary or in a firefight falls back this many
/// inches straight away from the enemy (RULE-07-1.5, RULINGS C5). The stdlib has no entry for it.
pub const FAILED_CHECK_FALL_BACK: f64 = 3.0;

/// Rifled muskets firing a closing volley hit only on 5+ under the Plunging Fire module
/// (Ch13 20.0). The stdlib has no entry for it.
pub const PLUNGING_FIRE_HITS: i32 = 5;

/// The weapon id the Plunging Fire module names (Ch13 20.0: "Rifled Muskets"; smoothbores and
/// repeaters are exempt, breechloaders are not mentioned and are left alone).
const PLUNGING_FIRE_WEAPON: &str = "rifled_musket";

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
        }
    }
}

/// What one volley did, besides its events.
#[derive(Clone, Debug, PartialEq)]
pub struct VolleyReport {
    pub events: Vec<Event>,
    /// Dice rolled to hit.
    pub dice: u32,
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
    /// The volley made a Shock trigger (RULE-05-4.1, RULINGS C3), ignored or not.
    pub shock_trigger: bool,
    /// The target gained Disorder, or a double-Disorder micro-hit, from this volley.
    pub disordered: bool,
    pub target_removed: bool,
}

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

fn unknown(id: UnitId) -> EngineError {
    EngineError::Unknown(format!("unit #{}", id.0))
}

/// The arm whose weapon bands a unit uses (RULINGS C21: cavalry has its own).
fn weapon_arm(arm: &Arm) -> WeaponArm {
    match arm {
        Arm::Infantry => WeaponArm::Infantry,
        Arm::Battery { .. } => WeaponArm::Artillery,
        Arm::Cavalry { .. } => WeaponArm::Cavalry,
    }
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
fn terrain_cover(rules: &Rules, input: &CoverInput) -> Result<Cover, EngineError> {
    if let Some(id) = &input.from {
        let d = &rules.data;
        let cover = d
            .terrain(id)
            .map(|t| t.cover)
            .or_else(|| d.obstacle(id).map(|o| o.cover))
            .or_else(|| d.structure(id).map(|s| s.cover))
            .ok_or_else(|| EngineError::Unknown(format!("terrain, obstacle or structure `{id}`")))?;
        return Ok(cover);
    }
    Ok(Cover { class: input.class, save: class_save(rules, input.class)? })
}

/// The modifiers of a marker's `to_hit` lines that apply at this range (a `beyond` line only
/// past its distance, RULE-05-5.3).
fn marker_to_hit(lines: &[dotc_lang::library::ToHitModifier], range: f64) -> i32 {
    lines.iter().filter(|m| m.beyond.is_none_or(|d| range > d)).map(|m| m.value).sum()
}

/// Resolve one volley on `state` directly. On an error part of it may already be applied: call
/// it inside [`super::transact`] (as [`resolve_volley`] does) or on a copy.
pub(crate) fn volley_in_place(
    rules: &Rules,
    state: &mut GameState,
    firer: UnitId,
    target: UnitId,
    input: &FireInput,
    dice: &mut dyn DiceSource,
) -> Result<VolleyReport, EngineError> {
    let mut events = Vec::new();
    let f = state.unit(firer).ok_or_else(|| unknown(firer))?.clone();
    let t = state.unit(target).ok_or_else(|| unknown(target))?.clone();
    let illegal = |unit: &str, why: String, rule: &'static str| EngineError::Illegal {
        unit: unit.to_string(),
        why,
        rule,
    };

    // ------------------------------------------------------------ 1. legality
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
        return Err(illegal(&f.name, format!("fire at {}: it is a friendly unit", t.name), "RULE-05-1.3"));
    }
    // RULE-07-2.4: a Broken brigade cannot shoot.
    if state.brigade_status(firer) == BrigadeStatus::Broken && rules.tables.broken.no_fire {
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
    let weapon =
        rules.data.weapon(&f.weapon).ok_or_else(|| EngineError::Unknown(format!("weapon `{}`", f.weapon)))?;
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
    let firer_traits: Vec<&dotc_lang::library::Trait> =
        f.traits.iter().filter_map(|id| rules.trait_def(id)).collect();
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
    let skirmish = || {
        rules
            .data
            .formation("skirmish")
            .and_then(|s| s.screen)
            .ok_or(EngineError::MissingRuleData("the skirmish formation's screen"))
    };

    // ------------------------------------------------------------ 2. the pool
    // RULE-05-2.1, Ch16 3.2: the stands the formation lets fire. A detached screen stand does
    // not fire with its parent (RULINGS G12), nor do horse holders (Ch16 10.2).
    let mut available = f.stands;
    if f.screen.is_some() {
        available = available.saturating_sub(1);
    }
    if let Arm::Cavalry { horse_holders, .. } = f.arm {
        available = available.saturating_sub(horse_holders);
    }
    let mut stands = formation.firing_stands(available);
    // RULE-05-6.1: only the stands with a clear line fire.
    if let Some(n) = input.firing_stands {
        stands = stands.min(n);
    }
    if let Some(order) = concentrated {
        // RULE-05-2.4: the other batteries' sections join the barrage, up to the order's limit.
        stands = stands.saturating_add(input.extra_sections);
        if let Some(max) = order.max_sections {
            stands = stands.min(max);
        }
    }
    if stands == 0 {
        return Err(illegal(&f.name, "fire: no stand can fire".into(), "RULE-05-2.1, RULE-05-6.1"));
    }
    let mut pool = weapon.pool(stands);
    // Ch16 9.0: a trait's close-range bonus dice (Buck and Ball: +1 within 3").
    for tr in &firer_traits {
        if let Some(b) = tr.bonus_dice.filter(|b| range <= b.within) {
            pool += b.dice;
            events.push(Event::new(
                What::Note {
                    text: format!("{}: +{} dice within {}\" ({})", f.name, b.dice, b.within, tr.meta.title()),
                },
                "Ch16 9.0",
            ));
        }
    }
    // Ch13 3.0 "Sudden Squall": pools halved, rounded down, after the bonus dice (RULINGS G16;
    // the rule sets no minimum, so one die becomes none).
    if input.squall {
        let halved = pool / 2;
        events.push(Event::new(
            What::Note { text: format!("Sudden Squall: {}'s {pool} dice are halved to {halved}", f.name) },
            "Ch13 3.0, RULINGS G16",
        ));
        pool = halved;
    }

    // ------------------------------------------------------------ 3. to-hit (Ch16 5.6, RULE-05-7.0)
    // A trait's number for the band replaces the weapon's when better (Buck and Ball: 3+ short).
    let mut base = i32::try_from(band.hits).unwrap_or(7);
    for tr in &firer_traits {
        for h in tr.hits.iter().filter(|h| h.band == band.name) {
            base = base.min(i32::try_from(h.hits).unwrap_or(7));
        }
    }
    let mut modifiers = Vec::new();
    let tables = &rules.tables;
    if f.markers.disorder {
        let v = marker_to_hit(&tables.disorder.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("disordered", v, "RULE-05-4.4, Ch16 5.6"));
        }
    }
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
    if input.through_screen {
        let v = skirmish()?.to_hit.unwrap_or(0);
        if v != 0 {
            modifiers.push(Modifier::new("through own screen", v, "RULE-05-6.2, Ch16 5.6"));
        }
    }
    // Ch16 3.4: the target's screen, 2-3" ahead of it, obscures fire at it from the front. Fire
    // from beyond its flank (enfilade) does not pass through it (judgement).
    let target_screened = t.screen.is_some() && !input.enfilade;
    if target_screened {
        let v = skirmish()?.to_hit.unwrap_or(0);
        if v != 0 {
            modifiers.push(Modifier::new("target's skirmish screen", v, "Ch16 3.4, RULINGS G12"));
        }
    }
    // RULE-07-2.3, RULINGS C13: a Hesitant brigade's Phase 3 fire, or all its fire.
    if state.brigade_status(firer) == BrigadeStatus::Hesitant
        && (input.kind == FireKind::Phase3 || rules.rulings.hesitant_fire == HesitantFire::AllFire)
        && tables.hesitant.to_hit != 0
    {
        modifiers.push(Modifier::new(
            "hesitant brigade",
            tables.hesitant.to_hit,
            "RULE-07-2.3, Ch16 8.2, RULINGS C13",
        ));
    }
    if input.pivoted {
        modifiers.push(Modifier::new("pivoted or re-formed", PIVOT_TO_HIT, "Ch16 5.1, RULE-05-1.2"));
    }
    // Ch13 22.0: open order fires at -1.
    if formation.to_hit != 0 {
        modifiers.push(Modifier::new(formation.meta.id.clone(), formation.to_hit, "Ch13 22.0"));
    }
    // RULE-05-2.5b, Ch16 11.0, RULINGS C14: the marker's -1 while it is carried (however it came).
    if f.markers.low_ammo {
        let v = marker_to_hit(&tables.low_ammo.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("low ammo", v, "RULE-05-2.5b, Ch16 11.0, RULINGS C14"));
        }
    }
    // Ch13 2.0, Ch16 11.0: Clean Barrels, the first volley of the battle, then the marker goes.
    let cb = &tables.clean_barrels;
    let clean_barrels = f.markers.clean_barrels
        && cb.module.as_deref().is_none_or(|m| rules.module(m))
        && (cb.applies_to.is_empty() || cb.applies_to.contains(&arm));
    if clean_barrels {
        let v = marker_to_hit(&cb.to_hit, range);
        if v != 0 {
            modifiers.push(Modifier::new("clean barrels", v, "Ch13 2.0, Ch16 11.0"));
        }
    }
    // Ch13 20.0 Plunging Fire: rifled muskets hit only on 5+ with a closing volley.
    if rules.module("plunging_fire")
        && input.kind == FireKind::Closing
        && f.weapon == PLUNGING_FIRE_WEAPON
        && base < PLUNGING_FIRE_HITS
    {
        modifiers.push(Modifier::new("plunging fire (overshoot)", base - PLUNGING_FIRE_HITS, "Ch13 20.0"));
    }
    let raw = base - modifiers.iter().map(|m| m.value).sum::<i32>();
    // RULINGS G1: held to 2..6 (a 6 always hits, a 1 always misses), or left as it is.
    let to_hit = match rules.rulings.to_hit_limits {
        ToHitLimits::Clamp => raw.clamp(2, 6),
        ToHitLimits::Unclamped => raw,
    };
    events.push(Event::new(
        What::Volley {
            firer: f.name.clone(),
            target: t.name.clone(),
            band: band.name.word().to_string(),
            range,
            dice: pool,
            base,
            to_hit,
            modifiers,
        },
        "RULE-05-2.1, RULE-05-7.0, Ch16 5.6, RULINGS G1",
    ));

    // ------------------------------------------------------------ 4. the roll
    let mut faces = roll(dice, Purpose::ToHit, pool as usize, &mut events, "RULE-05-2.1, 2.2, 2.3")?;
    let first_roll = faces.clone();
    // Ch16 9.0 Sharpshooters: missed dice rolled again at the band it names, per volley.
    for tr in &firer_traits {
        for r in tr.rerolls.iter().filter(|r| r.what == RerollWhat::MissedDie && r.per != Some(Per::Turn)) {
            if r.band.is_some_and(|b| b != band.name) || to_hit > 6 {
                continue;
            }
            for _ in 0..r.count {
                // The lowest missed die (any missed die has the same chance).
                let Some(i) =
                    (0..faces.len()).filter(|&i| i32::from(faces[i]) < to_hit).min_by_key(|&i| faces[i])
                else {
                    break;
                };
                let to =
                    roll(dice, Purpose::ToHit, 1, &mut events, "Ch16 9.0")?.first().copied().unwrap_or(1);
                events
                    .push(Event::new(What::Reroll { unit: f.name.clone(), from: faces[i], to }, "Ch16 9.0"));
                faces[i] = to;
            }
        }
    }
    let hits = u32::try_from(faces.iter().filter(|&&d| i32::from(d) >= to_hit).count()).unwrap_or(0);
    let sixes = u32::try_from(faces.iter().filter(|&&d| d == 6).count()).unwrap_or(0);
    events.push(Event::new(
        What::Hits { firer: f.name.clone(), faces: faces.clone(), to_hit, hits, sixes },
        "RULE-05-2.2, 2.3, RULE-05-4.3, RULINGS G1",
    ));

    // ------------------------------------------------------------ 5. Low Ammo (module)
    // RULE-05-2.5b, Ch16 11.0, RULINGS C14: two or more natural 1s in one volley (as first rolled).
    // Under `repeaters_only` a repeater is a weapon with flat bonus dice (the Spencer and Henry,
    // Ch9 4.0, Ch12 4.0); breechloaders, with dice per stands, are not repeaters.
    let la = &tables.low_ammo;
    let scoped = match rules.rulings.low_ammo_scope {
        LowAmmoScope::AllUnits => true,
        LowAmmoScope::RepeatersOnly => matches!(weapon.bonus_dice, Some(BonusDice::Flat { .. })),
    };
    if la.module.as_deref().is_none_or(|m| rules.module(m)) && scoped {
        if let Some(trigger) = la.trigger_ones {
            let ones = u32::try_from(first_roll.iter().filter(|&&d| d == 1).count()).unwrap_or(0);
            if ones >= trigger && !f.markers.low_ammo {
                if let Some(u) = state.unit_mut(firer) {
                    u.markers.low_ammo = true;
                }
                events.push(Event::new(
                    What::MarkerPlaced { unit: f.name.clone(), marker: la.meta.title().to_string() },
                    "RULE-05-2.5b, Ch16 11.0, RULINGS C14",
                ));
            } else if ones > 0 && ones < trigger {
                // RULINGS E2: a single 1 is not enough.
                events.push(Event::new(
                    What::Note {
                        text: format!("{}: {ones} natural 1 of the {trigger} that give Low Ammo", f.name),
                    },
                    "RULE-05-2.5b, RULINGS E2",
                ));
            }
        }
    }

    // ------------------------------------------------------------ 6. the firer's bookkeeping
    let smokes = f.is_infantry() || f.is_battery();
    if let Some(u) = state.unit_mut(firer) {
        u.turn.fired = true;
        if clean_barrels {
            u.markers.clean_barrels = false;
            events.push(Event::new(
                What::MarkerRemoved { unit: f.name.clone(), marker: cb.meta.title().to_string() },
                "Ch13 2.0",
            ));
        }
        // RULE-05-5.1, Ch16 5.7, RULINGS G11: a stationary regiment or unlimbered battery that
        // fires (a closing volley too) places smoke; one marker at most. A unit that fires is
        // stationary by the eligibility rules (RULE-05-1.2), so every volley of one does.
        if smokes && !u.markers.gunsmoke {
            u.markers.gunsmoke = true;
            events.push(Event::new(
                What::MarkerPlaced { unit: f.name.clone(), marker: tables.gunsmoke.meta.title().to_string() },
                "RULE-05-5.1, Ch16 5.7, RULINGS G11",
            ));
        }
    }
    // RULE-05-4.2, RULINGS G9: crossfire from the second firing unit of the phase onward.
    let crossfire = t.turn.fired_on_by.iter().any(|&u| u != firer);
    if let Some(u) = state.unit_mut(target) {
        if !u.turn.fired_on_by.contains(&firer) {
            u.turn.fired_on_by.push(firer);
        }
    }

    // ------------------------------------------------------------ 7. Shock
    // RULINGS G9: health, cover and the leader are as they were before the volley's casualties.
    let health_before = morale::unit_health(rules, state, target);
    let stands_before = t.stands;
    let leader = state.attached_leader(target);
    let terrain = terrain_cover(rules, &input.cover)?;
    // "In cover" for the Shock save (RULE-05-4.2): terrain cover, or a formation that counts as
    // in cover in the open (skirmish order, RULE-05-3.2; open order, Ch13 22.0 "Open Ground
    // provides 5+ Light Cover").
    let in_cover = terrain.class != CoverClass::None
        || target_formation.cover.is_some_and(|c| c.class != CoverClass::None)
        || target_formation.cover_bonus > 0;
    let mut disordered = false;
    let mut shock_trigger = false;
    // Ch16 5.3: a Napoleon's canister hits disorder the target, no save; RULINGS G9: Iron
    // Discipline does not stop it. It is the volley's one suppression result, so it takes the
    // place of a Shock save (RULE-05-4.3: no second save; judgement).
    let canister = weapon.canister_disorder && band.name == BandName::Canister && hits >= 1;
    let needed = match rules.rulings.suppression {
        Suppression::Numbered => tables
            .disorder
            .sixes_for_shock(range)
            .ok_or(EngineError::MissingRuleData("disorder: shock_trigger"))?,
        Suppression::AnySixDisorders => 1,
    };
    if sixes >= needed && needed > 0 {
        shock_trigger = true;
        let rule = match rules.rulings.suppression {
            Suppression::Numbered => "RULE-05-4.1, Ch16 5.5, RULINGS C3",
            Suppression::AnySixDisorders => "Ch15 3.0, RULINGS C3 (any_six_disorders)",
        };
        events.push(Event::new(What::ShockTrigger { target: t.name.clone(), sixes, needed }, rule));
    }
    if canister {
        if shock_trigger {
            events.push(Event::new(
                What::Note { text: format!("{}: no Shock save, the canister disorders it already", t.name) },
                "Ch16 5.3, RULE-05-4.3, RULINGS G9",
            ));
        }
        morale::place_disorder(rules, state, target, &mut events, "Ch16 5.3, RULINGS G9")?;
        disordered = true;
    } else if shock_trigger {
        // Ch16 9.0 Iron Discipline: the first Shock result of each turn does nothing.
        let iron = t
            .traits
            .iter()
            .filter_map(|id| rules.trait_def(id))
            .find(|tr| tr.ignore_suppression.is_some_and(|a| a.count > 0 && a.per == Per::Turn));
        let ignored = match iron {
            Some(tr) if !t.turn.shock_ignored => {
                if let Some(u) = state.unit_mut(target) {
                    u.turn.shock_ignored = true;
                }
                events.push(Event::new(
                    What::ShockIgnored { target: t.name.clone(), because: tr.meta.title().to_string() },
                    "Ch16 9.0, RULINGS G9",
                ));
                true
            }
            _ => false,
        };
        if !ignored {
            match rules.rulings.suppression {
                Suppression::Numbered => {
                    // RULE-05-4.2, Ch16 5.5: the Discipline save and the disorder marker's modifiers.
                    let mut extra = Vec::new();
                    for m in &tables.disorder.discipline_mods {
                        use dotc_lang::library::SaveCondition as C;
                        let applies = match m.condition {
                            C::Fresh => health_before == Some(Health::Fresh),
                            C::Spent => health_before == Some(Health::Spent),
                            C::Cover => in_cover,
                            C::Crossfire => crossfire,
                        };
                        if applies {
                            extra.push(Modifier::new(
                                m.condition.word(),
                                m.value,
                                "RULE-05-4.2, Ch16 5.5, RULINGS G9",
                            ));
                        }
                    }
                    let passed = morale::discipline_check(
                        rules,
                        state,
                        target,
                        TestKind::ShockSave,
                        Some(CheckCause::Shock),
                        extra,
                        dice,
                        &mut events,
                        "RULE-05-4.2, Ch16 5.5",
                    )?;
                    if !passed {
                        failed_check(rules, state, target, &mut events, "RULE-05-4.2, Ch16 5.5")?;
                        disordered = true;
                    }
                }
                // As printed (Ch15 3.0, RULINGS C3): Disorder, no save.
                Suppression::AnySixDisorders => {
                    morale::place_disorder(rules, state, target, &mut events, "Ch15 3.0, RULINGS C3")?;
                    disordered = true;
                }
            }
        }
    }

    // ------------------------------------------------------------ 8. cover saves
    // RULE-05-3.1, 3.2, Ch16 5.4, 5.6: the better of the terrain's save and the formation's own
    // (cover never stacks, RULINGS G17).
    let light = terrain.class == CoverClass::Light && terrain.save.is_some();
    let majority = input.enfilade && rules.rulings.enfilade == Enfilade::MajorityBehind;
    let lost_because: Option<&'static str> = if !light {
        None
    } else if input.enfilade && input.cover.frontal_obstacle {
        Some("enfilade fire denies the light cover of a frontal obstacle (RULE-05-1.5, RULINGS C15)")
    } else if majority {
        Some("enfilade fire denies every light cover save (Ch16 5.6, RULINGS C15 majority_behind)")
    } else if input.cover.frontal_obstacle && weapon.ignores_obstacle_light_cover {
        Some("lobbed shells ignore the light cover of fences, hedges and crests (Ch16 5.3)")
    } else {
        None
    };
    let terrain_save = if lost_because.is_some() { None } else { terrain.save };
    let own = target_formation.cover.filter(|c| !(c.class == CoverClass::Light && majority));
    let own_save = own.and_then(|c| c.save);
    let mut save_mods = Vec::new();
    let base_save = match (terrain_save, own_save) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let base_save = match base_save {
        Some(s) => {
            // Ch13 22.0, RULINGS G17: open order +1 to every cover save.
            if target_formation.cover_bonus != 0 {
                save_mods.push(Modifier::new(
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
            save_mods.push(Modifier::new(
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
    for s in target_formation.saves.iter().filter(|s| artillery || !s.artillery_only) {
        save_mods.push(Modifier::new(
            target_formation.meta.id.clone(),
            s.value,
            "Ch16 3.2, 5.6, RULE-05-2.5a, RULINGS C30",
        ));
    }
    if let Some(order) = concentrated {
        if order.target_save != 0 {
            save_mods.push(Modifier::new(
                "concentrated battery fire",
                order.target_save,
                "RULE-05-2.4, Ch16 2.3, 5.6",
            ));
        }
    }
    let save = base_save.map(|b| (b - save_mods.iter().map(|m| m.value).sum::<i32>()).max(2));
    // A regiment a double-Disorder micro-hit has just shattered (RULE-07-3.4, RULE-05-3.4) has
    // no one left to save or to lose.
    let hits_in = if state.unit(target).is_some_and(|u| !u.removed) { hits } else { 0 };
    if hits_in < hits {
        events.push(Event::new(
            What::Note { text: format!("{} is gone before its cover saves", t.name) },
            "RULE-05-3.4",
        ));
    }
    let mut unsaved = hits_in;
    if hits_in > 0 {
        match (base_save, save) {
            (None, _) => {
                let because = lost_because.unwrap_or(if terrain.class == CoverClass::None {
                    "no cover"
                } else {
                    "its cover gives no save"
                });
                events.push(Event::new(
                    What::NoSave { unit: t.name.clone(), hits: hits_in, because: because.to_string() },
                    "RULE-05-3.2, Ch16 5.4, 5.6",
                ));
            }
            // RULINGS G1: a save pushed past 6+ is lost.
            (Some(_), Some(s)) if s > 6 => {
                let list: Vec<String> =
                    save_mods.iter().map(|m| format!("{} {:+}", m.name, m.value)).collect();
                events.push(Event::new(
                    What::NoSave {
                        unit: t.name.clone(),
                        hits: hits_in,
                        because: format!("its save is pushed past 6+ ({})", list.join(", ")),
                    },
                    "Ch16 5.6, RULINGS G1",
                ));
            }
            (Some(_), Some(s)) => {
                let mut faces =
                    roll(dice, Purpose::Save, hits_in as usize, &mut events, "RULE-05-3.1, Ch16 5.4")?;
                // Ch16 9.0 Steady (cover saves only, RULINGS C27): one failed save a turn again.
                let steady = t
                    .traits
                    .iter()
                    .filter_map(|id| rules.trait_def(id))
                    .any(|tr| tr.rerolls.iter().any(|r| r.what == RerollWhat::CoverSave && r.count > 0));
                let rerolled = state.unit(target).is_some_and(|u| u.turn.save_rerolled);
                if steady && !rerolled {
                    if let Some(i) = (0..faces.len()).find(|&i| i32::from(faces[i]) < s) {
                        let to = roll(dice, Purpose::Save, 1, &mut events, "Ch16 9.0, RULINGS C27")?
                            .first()
                            .copied()
                            .unwrap_or(1);
                        events.push(Event::new(
                            What::Reroll { unit: t.name.clone(), from: faces[i], to },
                            "Ch16 9.0, RULINGS C27",
                        ));
                        faces[i] = to;
                        if let Some(u) = state.unit_mut(target) {
                            u.turn.save_rerolled = true;
                        }
                    }
                }
                let saved = u32::try_from(faces.iter().filter(|&&d| i32::from(d) >= s).count()).unwrap_or(0);
                unsaved = hits_in - saved;
                events.push(Event::new(
                    What::Saves {
                        unit: t.name.clone(),
                        save: s,
                        modifiers: save_mods.clone(),
                        faces,
                        saved,
                        unsaved,
                    },
                    "RULE-05-3.1, 3.2, Ch16 5.4, 5.6, RULINGS G1",
                ));
            }
            (Some(_), None) => {}
        }
    }

    // ------------------------------------------------------------ 9. the skirmish screen
    // Ch16 3.4, RULINGS G12: the first unsaved hit of the volley goes to the screen; at its hit
    // limit it is gone, and that is a stand lost by the parent (on the tally too).
    let mut rest = unsaved;
    if rest > 0 && target_screened {
        let limit = skirmish()?.hits.unwrap_or(1).max(1);
        let mut removed = false;
        if let Some(u) = state.unit_mut(target) {
            u.turn.shot_casualties = true;
            if let Some(s) = u.screen.as_mut() {
                s.hits += 1;
                removed = s.hits >= limit;
                events.push(Event::new(
                    What::ScreenHit { unit: t.name.clone(), hits: s.hits, removed },
                    "Ch16 3.4, RULINGS G12",
                ));
            }
            if removed {
                u.screen = None;
            }
        }
        rest -= 1;
        if removed {
            morale::remove_stands(rules, state, target, 1, &mut events, "Ch16 3.4, RULINGS G12, G5")?;
        }
    }

    // ------------------------------------------------------------ 10. casualties
    // RULE-05-3.3, 3.4: micro-hits, stands, shatter and the brigade tally (morale.rs).
    morale::take_hits(rules, state, target, rest, Cause::Fire, &mut events, "RULE-05-3.3, Ch16 5.4")?;

    // ------------------------------------------------------------ 11. Seen the Elephant
    // Ch16 9.0, RULINGS C28, G9: the first time fire leaves an unsaved hit or shows a natural 6,
    // a separate Discipline check at the trait's number; failing disorders and halts it.
    let alive = |state: &GameState| state.unit(target).is_some_and(|u| !u.removed);
    if alive(state) && !t.elephant_seen && (unsaved > 0 || sixes > 0) {
        let elephant = t
            .traits
            .iter()
            .filter_map(|id| rules.trait_def(id))
            .find_map(|tr| tr.first_fire_check.map(|n| (tr, n)));
        if let Some((tr, n)) = elephant {
            if let Some(u) = state.unit_mut(target) {
                u.elephant_seen = true;
            }
            let cause = (input.kind == FireKind::Closing).then_some(CheckCause::ClosingVolley);
            let mods = morale::standing_discipline_modifiers(rules, state, target, cause);
            let base = i32::try_from(n).unwrap_or(6);
            let passed = morale::test_roll(
                t.name.clone(),
                TestKind::SeenTheElephant,
                base,
                mods,
                dice,
                &mut events,
                "Ch16 9.0, RULINGS C28, G9",
            )?;
            if !passed {
                failed_check(rules, state, target, &mut events, "Ch16 9.0, RULINGS C28")?;
                disordered = true;
                if tr.halts_on_fail {
                    events.push(Event::new(
                        What::Note {
                            text: format!("{} halts: no forward move for the rest of the turn", t.name),
                        },
                        "Ch16 9.0",
                    ));
                }
            }
        }
    }

    // ------------------------------------------------------------ 12. Spent under fire
    // Ch16 8.1, RULE-07-1.4, RULINGS G9: a unit Spent before the volley tests once per volley,
    // hits or not; failing it falls back 3" with Disorder (RULE-07-1.5, RULINGS C5).
    let tests_under_fire =
        health_before.and_then(|h| rules.data.health(h.id())).is_some_and(|h| h.tests_under_fire);
    if tests_under_fire && alive(state) {
        let cause = (input.kind == FireKind::Closing).then_some(CheckCause::ClosingVolley);
        let passed = morale::discipline_check(
            rules,
            state,
            target,
            TestKind::SpentUnderFire,
            cause,
            Vec::new(),
            dice,
            &mut events,
            "Ch16 8.1, RULE-07-1.4, RULINGS G9",
        )?;
        if !passed {
            // RULE-07-1.5: a charger (the target of a closing volley) stalls short instead of
            // falling back; the assault stops there.
            let what = if input.kind == FireKind::Closing {
                What::Stalled { unit: t.name.clone(), inches: rules.tables.stall }
            } else {
                What::FallBack { unit: t.name.clone(), inches: FAILED_CHECK_FALL_BACK }
            };
            events.push(Event::new(what, "RULE-07-1.5, RULINGS C5"));
            morale::place_disorder(rules, state, target, &mut events, "RULE-07-1.5, RULINGS C5")?;
            disordered = true;
        }
    }

    // ------------------------------------------------------------ 13. the attached leader
    // Ch16 2.4, RULE-07-4.3, RULINGS C9, G18: one roll per volley when it cost the regiment a
    // stand or showed a natural 6; the leader was found before the casualties, so a shattered
    // regiment's leader still rolls (RULINGS E5).
    let stands_lost = stands_before - state.unit(target).map_or(0, |u| u.stands).min(stands_before);
    if let Some(l) = leader {
        if rules.rulings.leader_casualty == LeaderCasualtyTrigger::FireOrMelee
            && (stands_lost >= 1 || sixes >= 1)
        {
            let from = events.len();
            morale::leader_casualty(rules, state, l, dice, &mut events)?;
            let killed_disorders = events[from..].iter().any(|e| match &e.what {
                What::LeaderCasualty { rolled, .. } => {
                    tables.leader_result(*rolled).is_some_and(|r| r.disorders_unit)
                }
                _ => false,
            });
            if killed_disorders && alive(state) {
                disordered = true;
            }
        }
    }

    let target_removed = state.unit(target).is_none_or(|u| u.removed);
    Ok(VolleyReport {
        events,
        dice: pool,
        to_hit,
        hits,
        sixes,
        unsaved,
        stands_lost,
        shock_trigger,
        disordered,
        target_removed,
    })
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
            What::FallBack { unit: name, inches: FAILED_CHECK_FALL_BACK },
            "RULE-07-1.5, RULINGS C5",
        ));
    }
    morale::place_disorder(rules, state, target, events, rule)
}

#[cfg(test)]
mod tests;
