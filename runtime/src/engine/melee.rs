//! The opposed melee (Ch16 7.3, 7.4; Ch6 4.0; Ch7; Ch8 6.0; Ch16 10.1).
//!
//! A melee is one opposed roll: each side's Shock Score is 1D6 + its engaged stands + its
//! tactical modifiers (Ch16 7.3); the higher score wins and equal scores are a Bloody Draw
//! (Ch16 7.4). Before the dice, some defenders never fight:
//!
//! - a unit of a Broken brigade routs and is removed (RULE-07-2.4, `routs_when_charged`,
//!   RULINGS G14);
//! - a Road Column is overrun and removed, or fights at -1, per the `road_column_charged` ruling
//!   (RULINGS C23);
//! - Open Order struck by a formed unit loses its stand(s), is disordered and falls back
//!   (Ch13 22.0, RULINGS G14);
//!
//! and a Rebel Yell attacker makes green and regular defenders outside heavy cover test their
//! Discipline or be disordered (Ch16 9.0). With the `caught_flat_footed` module a column charged
//! with no reserved pip tests 4+ before contact or is disordered, and fights at -1 (Ch13 18.0,
//! [`caught_flat_footed`], dotc D9).
//!
//! The outcome comes from the `melee_result` entries: the loser gives up a stand, retreats 6" (9"
//! cavalry against cavalry, Ch16 10.1) and is disordered (a loser already disordered takes a
//! micro-hit under RULINGS C1 `micro_hit`, or is routed under `routed`); a battery that loses is
//! overrun and captured (Ch8 6.0, G14); the victor may consolidate 2"; a Fresh attacker winning by
//! 4 or more with the defender gone may sweep on (Breakthrough). Each side whose regiment lost a
//! stand with its brigadier attached rolls once on the leader casualty table (Ch16 2.4, RULINGS
//! C9, G18). With the `uncontrollable_pursuit` module a victor that destroyed or routed its enemy
//! tests for frenzy, and a frenzied one owes a forced move, disordered at its end (Ch13 12.0,
//! dotc D21, [`end_pursuit`]).

use dotc_lang::library::{CoverClass, Formation, Frontage, MeleeModifier, MeleeSide, WhenCharged};
use serde::Serialize;

use super::events::{BrigadeStatus, Event, Health, MeleeOutcome, Modifier, TestKind, What};
use super::morale::{self, Cause};
use super::state::{Arm, GameState, LeaderId, Unit, UnitId};
use super::{EngineError, Rules, roll_for, transact};
use crate::dice::{DiceSource, Purpose};
use crate::rulings::{DisorderedMeleeLoss, LeaderCasualtyTrigger, RoadColumnCharged};

/// What the caller knows of the clash that the state does not: contact geometry, the ground and
/// how the charge came in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeleeInput {
    /// Stands of the attacker in edge contact (RULINGS G3); 0 means "work it out" with
    /// [`default_engaged`]. Never more than the unit has; a battery always counts 1 (Ch8 6.0).
    pub attacker_engaged: u32,
    pub defender_engaged: u32,
    /// The charge's last 3" crossed open ground (Ch16 7.3, RULINGS G10).
    pub momentum: bool,
    /// A flank or rear attack (Ch16 7.3: +2 to the attacker).
    pub flank: bool,
    /// A terrain kind, obstacle or structure id the defender holds: its melee modifier applies
    /// (stone_wall +2 defender; abatis -2 to the attacker and no momentum, RULINGS G17).
    pub defender_terrain: Option<String>,
    /// The attacker charges uphill against a defender holding the crest above it: -1 to the
    /// attacker (Ch16 4.4 Uphill Penalty) and +1 to the defender (Ch16 7.3 Crestline); RULINGS
    /// G17 applies both and flags the double count. The crestline's +1 shares its Ch16 7.3 row
    /// with light cover and fences and, cover not stacking (G17), never adds to the bonus of the
    /// ground the defender holds: the defender takes the larger.
    pub uphill: bool,
    /// The attacker holds a crest and fights a unit on lower ground: +1 to it (Ch16 4.4 Crest
    /// Advantage).
    pub crest_advantage: bool,
    /// The defender counter-charged (Reaction 5, Ch16 6.0): the attacker loses its momentum and
    /// the defender gets its own charging traits.
    pub counter_charge: bool,
    /// The defender fired its closing volley too early and fights with empty muskets (Ch13
    /// 10.0, module `premature_fire`): the `premature_fire` modifier's melee value.
    pub fired_early: bool,
}

/// A melee that ended before the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMelee {
    /// A unit of a Broken brigade routed on contact (RULE-07-2.4, RULINGS G14).
    Routed,
    /// A Road Column was overrun and removed (RULINGS C23 `overrun`).
    Overrun,
    /// Open Order struck by a formed unit (Ch13 22.0, RULINGS G14).
    OpenOrderOverrun,
}

/// What a melee did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeleeReport {
    pub events: Vec<Event>,
    /// For the attacker. A melee that ended before the dice is an attacker win by 0.
    pub outcome: MeleeOutcome,
    /// Attacker's score minus the defender's.
    pub margin: i32,
    pub attacker_score: i32,
    pub defender_score: i32,
    /// Set when no dice were rolled because the defender routed or was overrun.
    pub no_melee: Option<NoMelee>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Attacker,
    Defender,
}

fn unknown(id: UnitId) -> EngineError {
    EngineError::Unknown(format!("unit #{}", id.0))
}

fn unit(state: &GameState, id: UnitId) -> Result<&Unit, EngineError> {
    state.unit(id).ok_or_else(|| unknown(id))
}

/// The stands across a unit's front (Ch16 3.2 "Tabletop Frontage"): a column's fixed front, or
/// every stand of a line.
fn front(rules: &Rules, u: &Unit) -> u32 {
    match rules.data.formation(&u.formation).map(|f| f.frontage) {
        Some(Frontage::Stands(n)) => n.min(u.stands),
        _ => u.stands,
    }
}

/// The attacker's opposed melee die (Ch16 7.3), in words.
pub const ATTACKER_DIE: &str = "the attacker's melee die";
/// The defender's opposed melee die (Ch16 7.3), in words.
pub const DEFENDER_DIE: &str = "the defender's melee die";

/// The engaged stands of each side when the caller does not count them (RULINGS G3): each side
/// counts its front stands up to the other's frontage, so a column fights with its 2 front
/// stands, a line struck by a column with the 2 touching the column's front, a line against a
/// line with all its stands up to the other's width; a battery counts 1 whatever its sections
/// (Ch8 6.0, modifier `battery_in_melee`). A flank attack counts only the contacted stands: pass
/// those in [`MeleeInput`].
pub fn default_engaged(rules: &Rules, state: &GameState, attacker: UnitId, defender: UnitId) -> (u32, u32) {
    let (Some(a), Some(d)) = (state.unit(attacker), state.unit(defender)) else {
        return (0, 0);
    };
    let engaged = |me: &Unit, foe: &Unit| -> u32 {
        if me.stands == 0 {
            0
        } else if me.is_battery() {
            battery_engaged(rules).min(me.stands)
        } else {
            front(rules, me).min(front(rules, foe).max(1)).max(1)
        }
    };
    (engaged(a, d), engaged(d, a))
}

fn battery_engaged(rules: &Rules) -> u32 {
    rules.tables.battery_in_melee.engaged.unwrap_or(1)
}

/// Whether a formation fights shoulder to shoulder (Ch13 22.0's "formed enemy charge (Line or
/// Column)"): no gap between its stands (open order has 1") and no cover of its own (skirmish
/// order counts as light cover in the open).
pub(crate) fn is_formed(f: &Formation) -> bool {
    f.stand_gap == 0.0 && f.cover.is_none()
}

/// A column (Ch16 10.1 "Column Infantry"): a formation with a fixed narrow front (assault column
/// 2 stands, road column 1), as against a line whose every stand is in the front rank.
fn is_column(f: &Formation) -> bool {
    matches!(f.frontage, Frontage::Stands(_))
}

/// The ground the defender holds, as its entry gives it.
struct Ground {
    id: String,
    melee: Option<MeleeModifier>,
    cancels_momentum: bool,
    cover: CoverClass,
    flank_immune: bool,
    rule: &'static str,
}

fn ground(rules: &Rules, id: &str) -> Result<Ground, EngineError> {
    let data = &rules.data;
    if let Some(t) = data.terrain(id) {
        let structure = t.structure.as_deref().and_then(|s| data.structure(s));
        return Ok(Ground {
            id: id.to_string(),
            melee: t.melee.or_else(|| structure.and_then(|s| s.melee)),
            cancels_momentum: false,
            cover: t.cover.class,
            flank_immune: structure.is_some_and(|s| s.flank_immune),
            rule: "Ch16 4.1, 7.3, RULINGS C29",
        });
    }
    if let Some(o) = data.obstacle(id) {
        return Ok(Ground {
            id: id.to_string(),
            melee: o.melee,
            cancels_momentum: o.cancels_momentum,
            cover: o.cover.class,
            // Breastworks are immune to flank shock only "if anchored securely" (Ch16 4.2), which
            // the engine cannot see: the caller leaves `flank` off for an anchored work.
            flank_immune: false,
            rule: "Ch16 4.2, 7.3, RULINGS G17, C29",
        });
    }
    if let Some(s) = data.structure(id) {
        return Ok(Ground {
            id: id.to_string(),
            melee: s.melee,
            cancels_momentum: false,
            cover: s.cover.class,
            flank_immune: s.flank_immune,
            rule: "Ch16 4.3, 7.3",
        });
    }
    Err(EngineError::Unknown(format!("terrain, obstacle or structure `{id}`")))
}

/// Whether a modifier for `side` applies to a unit in `role`; `charging` is the attacker, or a
/// defender that counter-charged (Ch16 6.0, 7.3).
fn applies(side: MeleeSide, role: Role, charging: bool) -> bool {
    match side {
        MeleeSide::Either => true,
        MeleeSide::Attacker => role == Role::Attacker,
        MeleeSide::Defender => role == Role::Defender,
        MeleeSide::Charging => charging,
    }
}

/// Take a unit off the table at once with every stand it has (routed, overrun, captured): the
/// stands go on its brigade's tally (RULINGS G5) and its leader is left on his own.
pub(crate) fn remove_unit(
    rules: &Rules,
    state: &mut GameState,
    id: UnitId,
    because: &str,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<u32, EngineError> {
    let u = state.unit_mut(id).ok_or_else(|| unknown(id))?;
    if u.removed {
        return Ok(0);
    }
    let lost = u.stands;
    let clock = u.clock_stands();
    let brigade = u.brigade;
    u.stands = 0;
    u.micro_hit = 0;
    u.screen = None;
    u.removed = true;
    u.turn.engaged = false;
    let name = u.name.clone();
    if lost > 0 {
        events.push(Event::new(What::StandsLost { unit: name.clone(), lost, remaining: 0, by: None }, rule));
    }
    events.push(Event::new(What::Removed { unit: name, because: because.to_string() }, rule));
    for l in state.leaders.iter_mut().filter(|l| l.attached == Some(id)) {
        l.attached = None;
    }
    if let Some(b) = brigade {
        morale::tally(rules, state, b, clock, events)?;
    }
    Ok(lost)
}

fn set_engaged(state: &mut GameState, units: [UnitId; 2], engaged: bool) {
    for id in units {
        if let Some(u) = state.unit_mut(id) {
            u.turn.engaged = engaged && !u.removed;
        }
    }
}

/// Resolve a melee between an attacker (the unit that charged) and a defender. Changes nothing
/// if it fails (a missing die, an unknown unit, an illegal melee).
pub fn resolve_melee(
    rules: &Rules,
    state: &mut GameState,
    attacker: UnitId,
    defender: UnitId,
    input: &MeleeInput,
    dice: &mut dyn DiceSource,
) -> Result<MeleeReport, EngineError> {
    not_broken(state, attacker)?;
    transact(state, |s| melee_in_place(rules, s, attacker, defender, input, dice))
}

/// A unit of a Broken brigade starts no melee (RULE-07-2.4).
pub(crate) fn not_broken(state: &GameState, attacker: UnitId) -> Result<(), EngineError> {
    if state.brigade_status(attacker) == BrigadeStatus::Broken {
        return Err(EngineError::Illegal {
            unit: unit(state, attacker)?.name.clone(),
            why: "start a melee: its brigade is Broken".into(),
            rule: "RULE-07-2.4",
        });
    }
    Ok(())
}

/// [`resolve_melee`] without its transaction, for a resolution that holds one (the assault).
/// A melee fought before its turn's Phase 4 keeps what its brigades were before it (dotc D51,
/// [`super::phase_four`]).
pub(crate) fn melee_in_place(
    rules: &Rules,
    state: &mut GameState,
    attacker: UnitId,
    defender: UnitId,
    input: &MeleeInput,
    dice: &mut dyn DiceSource,
) -> Result<MeleeReport, EngineError> {
    let before = super::phase_four::before(state);
    let report = fight(rules, state, attacker, defender, input, dice)?;
    if let Some(before) = before {
        super::phase_four::after(state, before, [attacker, defender]);
    }
    Ok(report)
}

/// The melee itself (Ch16 7.3, 7.4).
fn fight(
    rules: &Rules,
    state: &mut GameState,
    attacker: UnitId,
    defender: UnitId,
    input: &MeleeInput,
    dice: &mut dyn DiceSource,
) -> Result<MeleeReport, EngineError> {
    let (a, d) = (unit(state, attacker)?, unit(state, defender)?);
    let illegal =
        |why: &str, rule: &'static str| EngineError::Illegal { unit: a.name.clone(), why: why.into(), rule };
    if attacker == defender {
        return Err(illegal("fight a melee against itself", "Ch16 7.3"));
    }
    if a.side == d.side {
        return Err(illegal(&format!("fight a melee against {}, a friendly unit", d.name), "Ch16 7.1"));
    }
    if a.removed || a.stands == 0 {
        return Err(illegal("fight a melee: it has left the table", "Ch16 7.3"));
    }
    if d.removed || d.stands == 0 {
        return Err(illegal(&format!("fight a melee against {}: it has left the table", d.name), "Ch16 7.3"));
    }
    // A Broken brigade starts no melee (RULE-07-2.4): `resolve_melee` refuses one, and an
    // assault (whose declaration refuses it) goes in broken only under dotc D1 `goes_in`.
    let (a_name, d_name) = (a.name.clone(), d.name.clone());
    let mut events = Vec::new();

    // Who rolls for his life afterwards is decided by who was attached at contact (Ch16 2.4).
    let leaders = [state.attached_leader(attacker), state.attached_leader(defender)];
    let stands_before = [a.stands, d.stands];
    let attacker_health = morale::unit_health(rules, state, attacker);
    set_engaged(state, [attacker, defender], true);

    let no_melee = before_the_dice(rules, state, attacker, defender, input, dice, &mut events)?;
    if let Some(kind) = no_melee {
        set_engaged(state, [attacker, defender], false);
        leader_rolls(rules, state, [attacker, defender], leaders, stands_before, dice, &mut events)?;
        losses_by(&mut events, &a_name, &d_name);
        return Ok(MeleeReport {
            events,
            outcome: MeleeOutcome::AttackerWins,
            margin: 0,
            attacker_score: 0,
            defender_score: 0,
            no_melee: Some(kind),
        });
    }

    // Ch16 7.3: both roll at once; the attacker's die is recorded first.
    let a_die = roll_for(dice, Purpose::Melee, 1, &mut events, ATTACKER_DIE, "Ch16 7.3")?
        .first()
        .copied()
        .unwrap_or(1);
    let d_die = roll_for(dice, Purpose::Melee, 1, &mut events, DEFENDER_DIE, "Ch16 7.3")?
        .first()
        .copied()
        .unwrap_or(1);

    let (a_mods, d_mods, notes) = shock_modifiers(rules, state, attacker, defender, input)?;
    events.extend(notes);
    let (a_default, d_default) = default_engaged(rules, state, attacker, defender);
    let a_engaged = engaged_stands(rules, state, attacker, input.attacker_engaged, a_default);
    let d_engaged = engaged_stands(rules, state, defender, input.defender_engaged, d_default);
    let a_score = score(a_die, a_engaged, &a_mods);
    let d_score = score(d_die, d_engaged, &d_mods);
    events.push(Event::new(
        What::ShockScore {
            unit: a_name.clone(),
            rolled: a_die,
            engaged: a_engaged,
            modifiers: a_mods,
            score: a_score,
        },
        "Ch16 7.3, RULINGS G3",
    ));
    events.push(Event::new(
        What::ShockScore {
            unit: d_name.clone(),
            rolled: d_die,
            engaged: d_engaged,
            modifiers: d_mods,
            score: d_score,
        },
        "Ch16 7.3, RULINGS G3",
    ));
    let margin = a_score - d_score;
    let outcome = match margin.cmp(&0) {
        std::cmp::Ordering::Greater => MeleeOutcome::AttackerWins,
        std::cmp::Ordering::Equal => MeleeOutcome::BloodyDraw,
        std::cmp::Ordering::Less => MeleeOutcome::DefenderWins,
    };
    events.push(Event::new(
        What::Melee { attacker: a_name.clone(), defender: d_name.clone(), outcome, margin },
        "Ch16 7.3, 7.4",
    ));

    match outcome {
        MeleeOutcome::BloodyDraw => bloody_draw(rules, state, [attacker, defender], &mut events)?,
        MeleeOutcome::AttackerWins | MeleeOutcome::DefenderWins => {
            let (winner, loser) = if outcome == MeleeOutcome::AttackerWins {
                (attacker, defender)
            } else {
                (defender, attacker)
            };
            defeat(rules, state, loser, winner, &mut events)?;
            let loser_gone = unit(state, loser)?.removed;
            let w = unit(state, winner)?;
            let w_name = w.name.clone();
            if let Some(inches) = rules.tables.victor.consolidate {
                events.push(Event::new(What::Consolidate { unit: w_name.clone(), inches }, "Ch16 7.4"));
            }
            let bt = &rules.tables.breakthrough;
            if winner == attacker
                && (!bt.fresh_only || attacker_health == Some(Health::Fresh))
                && bt.margin.is_none_or(|m| i64::from(margin) >= i64::from(m))
                && (!bt.enemy_removed || loser_gone)
            {
                if let Some(inches) = bt.sweep {
                    events.push(Event::new(
                        What::Breakthrough { unit: w_name.clone(), inches, pips: bt.pips },
                        "Ch16 7.4, RULINGS G14",
                    ));
                }
            }
            set_engaged(state, [attacker, defender], false);
            leader_rolls(rules, state, [attacker, defender], leaders, stands_before, dice, &mut events)?;
            if loser_gone {
                pursuit(rules, state, winner, dice, &mut events)?;
            }
            losses_by(&mut events, &a_name, &d_name);
            return Ok(MeleeReport {
                events,
                outcome,
                margin,
                attacker_score: a_score,
                defender_score: d_score,
                no_melee: None,
            });
        }
    }
    leader_rolls(rules, state, [attacker, defender], leaders, stands_before, dice, &mut events)?;
    losses_by(&mut events, &a_name, &d_name);
    Ok(MeleeReport {
        events,
        outcome,
        margin,
        attacker_score: a_score,
        defender_score: d_score,
        no_melee: None,
    })
}

/// Each stand a melee took names the enemy that took it: the attacker's losses are the
/// defender's doing and the other way round (read by the campaign's experience, Ch14 3.0,
/// dotc D35).
fn losses_by(events: &mut [Event], attacker: &str, defender: &str) {
    for e in events {
        if let What::StandsLost { unit, by, .. } = &mut e.what {
            let enemy = if unit == attacker {
                defender
            } else if unit == defender {
                attacker
            } else {
                continue;
            };
            *by = Some(enemy.to_string());
        }
    }
}

fn score(die: u8, engaged: u32, mods: &[Modifier]) -> i32 {
    i32::from(die)
        + i32::try_from(engaged).unwrap_or(i32::MAX / 2)
        + mods.iter().map(|m| m.value).sum::<i32>()
}

/// The engaged stands a side fights with: the caller's count (or `default` for 0), never more
/// than the unit has; a battery counts `battery_in_melee` (1) whatever it was given (Ch8 6.0).
fn engaged_stands(rules: &Rules, state: &GameState, me: UnitId, given: u32, default: u32) -> u32 {
    let Some(u) = state.unit(me) else { return 0 };
    if u.is_battery() {
        return battery_engaged(rules).min(u.stands);
    }
    let n = if given == 0 { default } else { given };
    n.min(u.stands)
}

/// Everything that happens on contact before the melee dice: a Broken defender routs, a Road
/// Column is overrun (or will fight at -1), Open Order is overrun, a Rebel Yell makes the
/// defender test. Returns how the melee ended if it did.
fn before_the_dice(
    rules: &Rules,
    state: &mut GameState,
    attacker: UnitId,
    defender: UnitId,
    input: &MeleeInput,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<Option<NoMelee>, EngineError> {
    let t = &rules.tables;
    if state.brigade_status(defender) == BrigadeStatus::Broken && t.broken.routs_when_charged {
        remove_unit(
            rules,
            state,
            defender,
            "routed: charged while its brigade is Broken",
            events,
            "RULE-07-2.4, RULINGS G14",
        )?;
        return Ok(Some(NoMelee::Routed));
    }
    let (a, d) = (unit(state, attacker)?, unit(state, defender)?);
    let d_formation = rules.data.formation(&d.formation);
    match d_formation.map(|f| f.charged) {
        Some(WhenCharged::Removed) => match rules.rulings.road_column_charged {
            RoadColumnCharged::Overrun => {
                remove_unit(
                    rules,
                    state,
                    defender,
                    "overrun in road column",
                    events,
                    "Ch6 2.0, Ch9 5.0, RULINGS C23",
                )?;
                return Ok(Some(NoMelee::Overrun));
            }
            // The -1 is one of its shock modifiers (see shock_modifiers).
            RoadColumnCharged::MeleeMinusOne => {}
        },
        Some(WhenCharged::Overrun { stands, fall_back })
            if rules.data.formation(&a.formation).is_some_and(is_formed) =>
        {
            let name = d.name.clone();
            morale::remove_stands(rules, state, defender, stands, events, "Ch13 22.0, RULINGS G14")?;
            if !unit(state, defender)?.removed {
                morale::place_disorder(rules, state, defender, events, "Ch13 22.0, RULINGS G14")?;
                events.push(Event::new(
                    What::FallBack { unit: name, inches: fall_back },
                    "Ch13 22.0, RULINGS G14",
                ));
            }
            return Ok(Some(NoMelee::OpenOrderOverrun));
        }
        _ => {}
    }

    // Ch13 18.0, dotc D9: a column caught flat-footed tests before contact; failing disorders it.
    if caught_flat_footed(rules, state, defender, input) {
        if let Some(check) = t.flat_footed.check {
            let name = unit(state, defender)?.name.clone();
            let mods = morale::standing_discipline_modifiers(rules, state, defender, None);
            let base = i32::try_from(check).unwrap_or(6);
            let passed = morale::test_roll(
                name,
                TestKind::FlatFooted,
                base,
                mods,
                dice,
                events,
                "Ch13 18.0, dotc D9",
            )?;
            if !passed {
                morale::place_disorder(rules, state, defender, events, "Ch13 18.0, dotc D9")?;
            }
        }
    }

    // Rebel Yell (Ch16 9.0): the charger's trait makes green or regular defenders outside heavy
    // works test before the dice; failing disorders them.
    let cover = match &input.defender_terrain {
        Some(id) => ground(rules, id)?.cover,
        None => CoverClass::None,
    };
    let checks: Vec<(String, dotc_lang::library::DefenderCheck)> = unit(state, attacker)?
        .traits
        .iter()
        .filter_map(|t| rules.trait_def(t))
        .filter_map(|t| t.defender_check.clone().map(|c| (t.meta.id.clone(), c)))
        .collect();
    for (trait_id, check) in checks {
        let d = unit(state, defender)?;
        if !check.qualities.contains(&d.quality) {
            continue;
        }
        let exempt = check.unless.is_some_and(|class| cover_rank(cover) >= cover_rank(class));
        if exempt {
            events.push(Event::new(
                What::Note { text: format!("{} holds {cover:?} cover: no {trait_id} check", d.name) },
                "Ch16 9.0",
            ));
            continue;
        }
        let name = d.name.clone();
        let mods = morale::standing_discipline_modifiers(rules, state, defender, None);
        let base = i32::try_from(check.target).unwrap_or(6);
        let passed = morale::test_roll(name, TestKind::RebelYell, base, mods, dice, events, "Ch16 9.0")?;
        if !passed {
            morale::place_disorder(rules, state, defender, events, "Ch16 9.0")?;
        }
    }
    Ok(None)
}

/// Ch13 18.0 Caught Flat-Footed (module `caught_flat_footed`): the charged unit stands in a
/// column (a formation with a fixed narrow front: assault column, or a road column that RULINGS
/// C23 `melee_minus_one` lets fight) and has no reserved pip to spend on a defensive reaction:
/// its brigade has no banked pip left (Ch16 2.3, RULINGS G8) and it did not counter-charge with
/// one (Ch16 6.0). A road column overrun under C23's default never gets this far: no check.
/// dotc D9: the check is taken when the charge goes in, after the closing volley.
pub fn caught_flat_footed(rules: &Rules, state: &GameState, defender: UnitId, input: &MeleeInput) -> bool {
    if !rules.module("caught_flat_footed") || input.counter_charge {
        return false;
    }
    let Some(d) = state.unit(defender) else { return false };
    if d.is_battery() || !rules.data.formation(&d.formation).is_some_and(is_column) {
        return false;
    }
    let banked = d.brigade.and_then(|b| state.brigade(b)).map_or(0, |b| b.banked);
    banked == 0
}

fn cover_rank(c: CoverClass) -> u8 {
    match c {
        CoverClass::None => 0,
        CoverClass::Light => 1,
        CoverClass::Heavy => 2,
    }
}

/// The attacker's modifiers, the defender's, and notes on those that did not apply.
type ShockModifiers = (Vec<Modifier>, Vec<Modifier>, Vec<Event>);

/// Both sides' Shock modifiers (Ch16 7.3), each named and cited, and notes on modifiers that did
/// not apply and why.
fn shock_modifiers(
    rules: &Rules,
    state: &GameState,
    attacker: UnitId,
    defender: UnitId,
    input: &MeleeInput,
) -> Result<ShockModifiers, EngineError> {
    let t = &rules.tables;
    let mut notes = Vec::new();
    let ground = input.defender_terrain.as_deref().map(|id| ground(rules, id)).transpose()?;
    let mut sides: [Vec<Modifier>; 2] = [Vec::new(), Vec::new()];
    let ids = [attacker, defender];
    let roles = [Role::Attacker, Role::Defender];
    let charging = [true, input.counter_charge];

    for i in 0..2 {
        let (id, role) = (ids[i], roles[i]);
        let u = unit(state, id)?;
        let mods = &mut sides[i];
        // Health (Ch16 7.3, 8.1): Fresh +1, Spent -1. A battery's sections have no health state.
        if !u.is_battery() {
            let h = morale::health(rules, u.stands, u.starting_stands);
            let v = t.health.melee(h);
            if v != 0 {
                mods.push(Modifier::new(h.id(), v, "Ch16 7.3, 8.1, RULINGS C4"));
            }
        }
        if let Some(f) = rules.data.formation(&u.formation) {
            for m in f.melee.iter().filter(|m| applies(m.side, role, charging[i])) {
                mods.push(Modifier::new(f.meta.id.clone(), m.value, "Ch16 3.2, 7.3"));
            }
            // Ch13 18.0: the module's flat-footed column, or a road column fighting at -1 under
            // RULINGS C23 `melee_minus_one` (the same -1, never twice: dotc D9).
            if role == Role::Defender {
                let road_column = f.charged == WhenCharged::Removed
                    && rules.rulings.road_column_charged == RoadColumnCharged::MeleeMinusOne;
                let m = t.flat_footed.melee;
                if caught_flat_footed(rules, state, id, input) {
                    if let Some(m) = m {
                        mods.push(Modifier::new("caught flat-footed", m.value, "Ch13 18.0, dotc D9"));
                    }
                } else if let Some(m) = m.filter(|_| road_column) {
                    mods.push(Modifier::new("road column charged", m.value, "Ch13 18.0, RULINGS C23"));
                }
            }
        }
        if u.markers.disorder {
            if let Some(m) = t.disorder.melee.filter(|m| applies(m.side, role, charging[i])) {
                mods.push(Modifier::new("disordered", m.value, "Ch16 7.3, RULE-05-4.4"));
            }
        }
        for tr in u.traits.iter().filter_map(|t| rules.trait_def(t)) {
            for m in tr.melee.iter().filter(|m| applies(m.side, role, charging[i])) {
                mods.push(Modifier::new(tr.meta.id.clone(), m.value, "Ch16 7.3, 9.0"));
            }
        }
        if let Some(w) = rules.data.weapon(&u.weapon) {
            if let Some(m) = w.melee.filter(|m| applies(m.side, role, charging[i])) {
                mods.push(Modifier::new(w.meta.id.clone(), m.value, "Ch16 10.3"));
            }
        }
        if state.attached_leader(id).is_some() {
            if let Some(m) = t.brigadier_attached.melee.filter(|m| applies(m.side, role, charging[i])) {
                mods.push(Modifier::new("brigadier attached", m.value, "Ch16 2.4, 7.3, RULE-07-4.2"));
            }
        }
        if let Some(g) = &ground {
            if let Some(m) = g.melee.filter(|m| applies(m.side, role, false)) {
                mods.push(Modifier::new(g.id.clone(), m.value, g.rule));
            }
        }
        // Ch13 10.0: empty muskets after a closing volley fired too early.
        if role == Role::Defender && input.fired_early {
            if let Some(m) = t.premature_fire.melee.filter(|m| applies(m.side, role, false)) {
                mods.push(Modifier::new("fired early", m.value, "Ch13 10.0, RULINGS C28"));
            }
        }
    }

    // Momentum (Ch16 7.3, RULINGS G10): not across an abatis (Ch16 4.2) nor into a counter-charge
    // (Ch16 6.0).
    if input.momentum {
        let cancelled_by = if let Some(g) = ground.as_ref().filter(|g| g.cancels_momentum) {
            Some((format!("the {} cancels the charging momentum", g.id), "Ch16 4.2, RULINGS G17"))
        } else if input.counter_charge {
            Some(("the counter-charge cancels the charging momentum".to_string(), "Ch16 6.0"))
        } else {
            None
        };
        match cancelled_by {
            Some((text, rule)) => notes.push(Event::new(What::Note { text }, rule)),
            None => {
                if let Some(m) = t.momentum.melee {
                    push_for(&mut sides, m, "momentum", "Ch16 7.3, RULINGS G10");
                }
            }
        }
    }
    // Flank or rear (Ch16 7.3): +2 to the attacker, unless a structure makes the garrison immune
    // (Ch16 4.3).
    if input.flank {
        match ground.as_ref().filter(|g| g.flank_immune) {
            Some(g) => notes.push(Event::new(
                What::Note { text: format!("the {} is immune to flank melee penalties", g.id) },
                "Ch16 4.3",
            )),
            None => {
                if let Some(m) = t.enfilade.melee {
                    push_for(&mut sides, m, "flank attack", "Ch16 7.3");
                }
            }
        }
    }
    // Cavalry shock (Ch16 10.1, RULINGS C22): mounted cavalry against disordered or column
    // infantry, +1 to the cavalry and -2 to the infantry; no automatic rout. RULINGS G15: the -2
    // is not doubled, so Disordered infantry, already at its marker's -2, takes no second one.
    let (a, d) = (unit(state, attacker)?, unit(state, defender)?);
    let mounted = matches!(a.arm, Arm::Cavalry { mounted: true, .. });
    let vulnerable =
        d.is_infantry() && (d.markers.disorder || rules.data.formation(&d.formation).is_some_and(is_column));
    if mounted && vulnerable {
        if let Some(m) = t.cavalry_shock.melee {
            push_for(&mut sides, m, "cavalry shock", "Ch16 10.1, RULINGS C22");
        }
        if t.cavalry_shock.opponent_melee != 0 && d.markers.disorder && t.disorder.melee.is_some() {
            notes.push(Event::new(
                What::Note {
                    text: format!(
                        "{}: the cavalry's {} against Disordered infantry is its Disorder's, not a second one",
                        d.name, t.cavalry_shock.opponent_melee
                    ),
                },
                "Ch16 10.1, RULINGS G15",
            ));
        } else if t.cavalry_shock.opponent_melee != 0 {
            sides[1].push(Modifier::new(
                "cavalry shock",
                t.cavalry_shock.opponent_melee,
                "Ch16 10.1, RULINGS C22, G15",
            ));
        }
    }
    // Uphill against a crest (Ch16 4.4, 7.3): both numbers apply and the double count is flagged
    // (RULINGS G17).
    if input.uphill {
        if let Some(m) = t.uphill.melee {
            push_for(&mut sides, m, "uphill", "Ch16 4.4, RULINGS G17");
        }
        if let Some(m) = t.crest.melee {
            crestline(&mut sides, &mut notes, m, ground.as_ref());
        }
        notes.push(Event::new(
            What::Note {
                text: "uphill -1 and crest +1 may count the same slope twice; both apply (flagged for the designer)"
                    .into(),
            },
            "RULINGS G17",
        ));
    }
    // Downhill from a crest (Ch16 4.4 Crest Advantage).
    if input.crest_advantage {
        if let Some(m) = t.crest_advantage.melee {
            push_for(&mut sides, m, "crest advantage", "Ch16 4.4");
        }
    }
    let [a_mods, d_mods] = sides;
    Ok((a_mods, d_mods, notes))
}

/// The crestline's modifier (Ch16 7.3 "Defending Light Cover / Fence / Crestline"). Its row is
/// the defender's cover row, and cover does not stack (RULINGS G17): against a defender whose
/// ground already gives its side a bonus, only the larger of the two counts, and a note says
/// which was dropped.
fn crestline(
    sides: &mut [Vec<Modifier>; 2],
    notes: &mut Vec<Event>,
    m: MeleeModifier,
    ground: Option<&Ground>,
) {
    const RULE: &str = "Ch16 7.3, RULINGS G17";
    let defender_ground = ground.and_then(|g| {
        g.melee.filter(|gm| applies(gm.side, Role::Defender, false) && gm.value > 0).map(|gm| (g, gm))
    });
    let Some((g, gm)) = defender_ground.filter(|_| applies(m.side, Role::Defender, false)) else {
        push_for(sides, m, "crest", RULE);
        return;
    };
    let (kept, dropped) = if gm.value >= m.value {
        (g.id.clone(), "crest".to_string())
    } else {
        sides[1].retain(|x| x.name != g.id);
        push_for(sides, m, "crest", RULE);
        ("crest".to_string(), g.id.clone())
    };
    notes.push(Event::new(
        What::Note {
            text: format!(
                "the {dropped} does not add to the {kept} in melee: cover does not stack; the larger counts"
            ),
        },
        RULE,
    ));
}

/// Add a modifier to the side(s) it names; `charging` is the attacker only here.
fn push_for(sides: &mut [Vec<Modifier>; 2], m: MeleeModifier, name: &str, rule: &'static str) {
    if applies(m.side, Role::Attacker, true) {
        sides[0].push(Modifier::new(name, m.value, rule));
    }
    if applies(m.side, Role::Defender, false) {
        sides[1].push(Modifier::new(name, m.value, rule));
    }
}

/// A tie (Ch16 7.4, Ch7 5.0): both take a micro-hit and a Disorder marker (a second one is a
/// micro-hit, RULE-07-3.4) and stay locked in contact.
fn bloody_draw(
    rules: &Rules,
    state: &mut GameState,
    units: [UnitId; 2],
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let r = &rules.tables.bloody_draw;
    for id in units {
        morale::take_hits(rules, state, id, r.micro_hits, Cause::Melee, events, "Ch16 7.4")?;
        if r.disorder {
            morale::place_disorder(rules, state, id, events, "Ch16 7.4")?;
        }
    }
    if r.locked {
        set_engaged(state, units, true);
        events.push(Event::new(
            What::Note { text: "both stay locked in contact; the melee is fought again next turn".into() },
            "Ch16 7.4, Ch7 5.0",
        ));
    } else {
        set_engaged(state, units, false);
    }
    Ok(())
}

/// Whether a melee between `a` and `b` is a cavalry melee, whose loser takes the cavalry table's
/// result (`melee_result cavalry_defeated`, a 9" retreat) rather than the ordinary one: both are
/// mounted cavalry (Ch16 10.1).
pub fn cavalry_melee(a: &Unit, b: &Unit) -> bool {
    let mounted = |u: &Unit| matches!(u.arm, Arm::Cavalry { mounted: true, .. });
    mounted(a) && mounted(b)
}

/// The loser's lot (Ch16 7.4, 10.1, Ch8 6.0, RULINGS C1, G14).
fn defeat(
    rules: &Rules,
    state: &mut GameState,
    loser: UnitId,
    winner: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    // Ch13 15.0: a regiment beaten while it holds captured guns loses them.
    super::guns::lost_melee(state, loser, events);
    let (l, w) = (unit(state, loser)?, unit(state, winner)?);
    let result = if cavalry_melee(l, w) {
        rules.tables.cavalry_defeated.clone()
    } else {
        rules.tables.defeated.clone()
    };
    let cite: &'static str = if result.cavalry { "Ch16 10.1" } else { "Ch16 7.4" };
    let name = l.name.clone();
    if l.is_battery() {
        remove_unit(rules, state, loser, "overrun and captured", events, "Ch8 6.0, RULINGS G14")?;
        // Ch13 15.0 (module spiking_the_guns): an infantry victor occupies the guns.
        super::guns::taken(rules, state, loser, winner, events)?;
        return Ok(());
    }
    if l.markers.disorder && rules.rulings.disordered_melee_loss == DisorderedMeleeLoss::Routed {
        remove_unit(
            rules,
            state,
            loser,
            "routed: it lost a melee while disordered",
            events,
            "Ch7 3.0, 6.0, RULINGS C1",
        )?;
        return Ok(());
    }
    morale::remove_stands(rules, state, loser, result.stands, events, cite)?;
    morale::take_hits(rules, state, loser, result.micro_hits, Cause::Melee, events, cite)?;
    if unit(state, loser)?.removed {
        return Ok(());
    }
    if let Some(inches) = result.retreat {
        events.push(Event::new(What::Retreat { unit: name, inches }, cite));
    }
    if result.disorder {
        // RULINGS C1 `micro_hit`: a loser already disordered takes the micro-hit of the double
        // Disorder (RULE-07-3.4, Ch6 4.0).
        morale::place_disorder(rules, state, loser, events, "Ch16 7.4, RULINGS C1")?;
    }
    Ok(())
}

/// One leader casualty roll for each side whose regiment lost a stand in this melee with its
/// brigadier attached at contact (Ch16 2.4, RULE-07-4.3; RULINGS C9: both readings include a
/// melee loss; G18: one roll per melee).
fn leader_rolls(
    rules: &Rules,
    state: &mut GameState,
    units: [UnitId; 2],
    leaders: [Option<LeaderId>; 2],
    before: [u32; 2],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let melee_counts = match rules.rulings.leader_casualty {
        LeaderCasualtyTrigger::FireOrMelee | LeaderCasualtyTrigger::MeleeOnly => true,
    };
    if !melee_counts {
        return Ok(());
    }
    for i in 0..2 {
        let Some(leader) = leaders[i] else { continue };
        let now = unit(state, units[i])?.stands;
        if now < before[i] {
            morale::leader_casualty(rules, state, leader, dice, events)?;
        }
    }
    Ok(())
}

/// Ch13 12.0 Uncontrollable Pursuit (module `uncontrollable_pursuit`): a regiment that destroyed
/// or routed its enemy in melee tests 4+; failing, it is frenzied: it owes a forced move
/// (`What::Pursuit`, the rule data's `maneuver pursuit` inches) straight at the nearest enemy unit
/// or objective, whose geometry is the caller's (dotc D21), and only at that move's end is it
/// disordered ([`end_pursuit`]), as the rule orders the two.
fn pursuit(
    rules: &Rules,
    state: &mut GameState,
    winner: UnitId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    if !rules.module(dotc_lang::rulings::Module::UncontrollablePursuit.name()) {
        return Ok(());
    }
    let w = unit(state, winner)?;
    if w.removed || w.is_battery() {
        return Ok(());
    }
    let name = w.name.clone();
    let mods = morale::standing_discipline_modifiers(rules, state, winner, None);
    // Ch13 17.0: a charger under Desperate Valor tests with Advantage.
    let passed = morale::check_roll(
        name.clone(),
        TestKind::Discipline,
        i32::try_from(rules.tables.pursuit_check).unwrap_or(i32::MAX),
        mods,
        morale::valor_advantage(rules, state, winner),
        dice,
        events,
        "Ch13 12.0",
    )?;
    if !passed {
        events.push(Event::new(What::Pursuit { unit: name, inches: rules.tables.pursuit_move }, "Ch13 12.0"));
    }
    Ok(())
}

/// Ch13 12.0: the end of a frenzied unit's forced pursuit move: only once the move is over is it
/// disordered. The caller makes the move ([`What::Pursuit`]) and then calls
/// this, so nothing the Disorder changes (a move's allowance) touches the move itself.
pub fn end_pursuit(
    rules: &Rules,
    state: &mut GameState,
    frenzied: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    morale::place_disorder(rules, state, frenzied, events, "Ch13 12.0")
}

#[cfg(test)]
mod tests;
