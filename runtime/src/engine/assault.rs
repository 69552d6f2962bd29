//! The charge (Ch16 7.1, 7.2; Ch6 2.0-3.0; RULINGS C6, C7, G10), from the declaration to the
//! melee.
//!
//! 1. Declaration (Ch16 7.1): the charger must be formed to charge (no `no_assault` formation:
//!    road column, open order), without a Disorder marker (RULE-05-4.4; RULINGS C6: both readings
//!    forbid it), of a brigade neither Hesitant nor Broken (RULE-07-2.3, 2.4), Fresh or Worn
//!    unless its brigadier is attached (RULE-07-4.2), within the charge speed of its movement row
//!    (Ch16 3.1: 9" infantry, 12" cavalry), and its brigade must pay the order's pips: the
//!    Regimental Assault, or the Dress on the Colors price for a coordinated push (Ch16 2.3),
//!    doubled in the distant courier tier and impossible out of communication (Ch16 2.2,
//!    RULINGS G8, C10). Pips come from the brigade's pool, then its banked pip.
//! 2. With the `premature_fire` module, a Green defender that fires a closing volley tests at the
//!    4" line (Ch13 10.0, RULINGS C28, [`premature_check`]): failing, the volley goes off too
//!    early at -2 and the defender fights the melee at -1.
//! 3. The closing volley at the 4" interruption line (Ch16 7.2, the order's `interruption`); a
//!    charger that starts within it takes the volley before it moves (RULINGS G10). A volley that
//!    removes the charger ends the charge (Destroyed).
//! 4. The pre-contact Discipline check, when the volley triggers it (RULINGS C7,
//!    `pre_contact_trigger`); Steady's +1 applies (cause: a closing volley, Ch16 9.0). Failing, the
//!    charge stalls 2" short (the order's `stall`) with a Disorder marker (Ch16 7.2, RULE-07-1.5
//!    charging case; RULINGS C5: both readings agree for a charger).
//! 5. Contact and the melee ([`super::melee`]); a charger disordered by the volley fights at -2
//!    through its marker (RULINGS G10).
//!
//! With the `psychological_shock` module a charger whose brigade raised the battle cry shakes
//! its target: every Discipline check the target rolls for the rest of the phase takes the
//! `battle_cry` modifier (Ch13 16.0, dotc D15, [`morale::standing_discipline_modifiers`]),
//! the premature fire, flat-footed and Rebel Yell checks of this charge among them.
//!
//! With the `desperate_valor` module a charger its brigadier declared Desperate Valor on rolls
//! every Discipline check of its charge with Advantage, 2D6 and the higher kept (Ch13 17.0,
//! dotc D14, [`morale::valor_advantage`]): the pre-contact check here, the Shock save, Seen the
//! Elephant and Spent-under-fire checks of its closing volley ([`super::fire`]), a pursuit
//! check after its melee ([`super::melee`]).

use dotc_lang::library::{CheckCause, MoveState, OrderCost};
use serde::Serialize;

use super::events::{BrigadeStatus, Event, MeleeOutcome, TestKind, What};
use super::fire::{
    CasualtyTable, FireInput, FireKind, VolleyPlan, VolleyReport, casualty_table, plan_volley, resolve_plan,
};
use super::melee::{MeleeInput, NoMelee, melee_in_place};
use super::morale;
use super::state::{Arm, GameState, Unit, UnitId};
use super::{EngineError, Rules, transact};
use crate::dice::DiceSource;
use crate::rulings::{BrokenDuringCharge, PreContactTrigger};

/// What the caller knows of the charge that the state does not.
#[derive(Clone, Debug, PartialEq)]
pub struct AssaultInput {
    /// Inches from the charger to its target at the declaration (Ch16 7.1).
    pub distance: f64,
    /// Inches from the brigadier to the charger's Color Stand, for the pip price's tier (Ch16
    /// 2.2); None: in bugle range (or attached).
    pub brigadier_distance: Option<f64>,
    /// A Dress on the Colors assault: the coordinated push's price (Ch16 2.3).
    pub coordinated: bool,
    /// The defender's closing volley at the interruption line (Ch16 6.0 Reaction 1, 7.2); None if
    /// it does not or cannot fire. Its `kind` is taken as [`FireKind::Closing`] whatever it says.
    pub closing_volley: Option<FireInput>,
    /// The melee, if the charge goes home.
    pub melee: MeleeInput,
}

/// How a charge ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AssaultResult {
    /// The closing volley (or what followed it) removed the charger.
    Destroyed,
    /// The charger failed its pre-contact check: 2" short, disordered (Ch16 7.2).
    Stalled,
    /// Contact and a melee.
    Melee(MeleeOutcome),
    /// The defender's brigade is Broken: it routed on contact (RULE-07-2.4, RULINGS G14).
    Routed,
    /// The defender was overrun without a melee (a Road Column, RULINGS C23; Open Order,
    /// Ch13 22.0, G14).
    Overrun,
}

/// What a charge did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AssaultReport {
    pub events: Vec<Event>,
    pub result: AssaultResult,
    /// The charger took a pre-contact Discipline check (RULINGS C7).
    pub pre_contact_check: bool,
    /// The closing volley as it was planned and what its dice gave, when there was one: what
    /// `dotc odds --at` prices on an assault's line.
    #[serde(skip)]
    pub closing_volley: Option<Box<ClosingVolley>>,
}

/// A closing volley's plan, its casualty table and its outcome (hits, unsaved hits, stands lost
/// to the fire).
#[derive(Clone, Debug, PartialEq)]
pub struct ClosingVolley {
    pub plan: VolleyPlan,
    pub casualties: CasualtyTable,
    pub outcome: (u32, u32, u32),
    /// Every stand the volley cost the charger, as a `fire` line's `lost` counts them: its fire's
    /// and the checks' it called for, a shattered regiment's last stand included (RULE-05-3.4).
    pub stands_lost: u32,
}

fn unknown(id: UnitId) -> EngineError {
    EngineError::Unknown(format!("unit #{}", id.0))
}

/// Who pays for a charge's order (Ch16 2.3, 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payment {
    /// The charger's brigade pays the order's price now.
    Pay,
    /// The charger joins a Dress on the Colors push whose price its brigade has already paid
    /// for an earlier regiment of the same push (Ch16 2.3: one price for the whole push).
    PaidByThePush,
    /// A wave's next regiment completes a charge that ended short (Ch13 23.0): it is the same
    /// charge carried on, already paid for.
    Surge,
}

/// Resolve a charge from its declaration to the end of its melee. Changes nothing if it fails (an
/// illegal declaration, a missing die).
pub fn resolve_assault(
    rules: &Rules,
    state: &mut GameState,
    charger: UnitId,
    target: UnitId,
    input: &AssaultInput,
    dice: &mut dyn DiceSource,
) -> Result<AssaultReport, EngineError> {
    resolve_assault_paid(rules, state, charger, target, input, Payment::Pay, dice)
}

/// [`resolve_assault`] for a charger whose pips may already be paid: a regiment joining a
/// coordinated Dress on the Colors push after the first pays nothing more (Ch16 2.3).
pub fn resolve_assault_paid(
    rules: &Rules,
    state: &mut GameState,
    charger: UnitId,
    target: UnitId,
    input: &AssaultInput,
    payment: Payment,
    dice: &mut dyn DiceSource,
) -> Result<AssaultReport, EngineError> {
    transact(state, |s| {
        let plan = plan_assault(rules, s, charger, target, input, payment)?;
        resolve_assault_plan(rules, s, &plan, dice)
    })
}

/// RULE-07-4.5: a charge at a solitary brigadier (no regiment attached) caught in the open. The
/// declaration is judged and paid as any charge's (Ch16 7.1: reach, formation, the brigade
/// clock, Disorder, health, pips), against a one-stand stand-in for him; then he has evaded (the
/// caller has judged his 6" evasion move) or he is captured ([`morale::leader_captured`]). No
/// closing volley and no melee: a lone leader has neither. Everything or nothing.
pub fn charge_solitary_leader(
    rules: &Rules,
    state: &mut GameState,
    charger: UnitId,
    leader: super::state::LeaderId,
    input: &AssaultInput,
    evaded: bool,
) -> Result<Vec<Event>, EngineError> {
    transact(state, |s| {
        let l = s.leader(leader).ok_or_else(|| EngineError::Unknown(format!("leader #{}", leader.0)))?;
        let c = s.unit(charger).ok_or_else(|| unknown(charger))?;
        if l.attached.is_some() || l.removed {
            return Err(EngineError::Illegal {
                unit: c.name.clone(),
                why: format!("charge {} as a solitary brigadier: he is not", l.name),
                rule: "RULE-07-4.5",
            });
        }
        let (name, cname) = (l.name.clone(), c.name.clone());
        let quality =
            s.units.iter().find(|u| u.side == l.side).map_or(c.quality.clone(), |u| u.quality.clone());
        let stand_in = Unit::new(&name, l.side, Arm::Infantry, 1, &quality, "", "line");
        s.units.push(stand_in);
        let id = UnitId(s.units.len() - 1);
        let mut events = Vec::new();
        let declared = declare(rules, s, charger, id, input, Payment::Pay, &mut events);
        s.units.pop();
        declared?;
        if evaded {
            events.push(Event::new(
                What::Note { text: format!("{name} evades {cname}'s charge") },
                "RULE-07-4.5",
            ));
        } else {
            morale::leader_captured(rules, s, leader, &mut events)?;
        }
        Ok(events)
    })
}

/// Ch16 10.2, Ch13 6.0: a charge at the horse holders of dismounted cavalry `parent`. The
/// charge is declared and paid as any other (Ch16 7.1); the holders cannot shoot or fight, so
/// there is no volley and no melee: they are captured at contact. See [`capture_horse_holders`].
pub fn charge_horse_holders(
    rules: &Rules,
    state: &mut GameState,
    charger: UnitId,
    parent: UnitId,
    input: &AssaultInput,
) -> Result<Vec<Event>, EngineError> {
    transact(state, |s| {
        let p = s.unit(parent).ok_or_else(|| unknown(parent))?;
        if !matches!(p.arm, Arm::Cavalry { mounted: false, horse_holders: 1.., .. }) {
            let c = s.unit(charger).ok_or_else(|| unknown(charger))?;
            return Err(EngineError::Illegal {
                unit: c.name.clone(),
                why: format!("charge the horse holders of {}: it has none on the table", p.name),
                rule: "Ch16 10.2",
            });
        }
        let mut events = Vec::new();
        declare(rules, s, charger, parent, input, Payment::Pay, &mut events)?;
        capture_horse_holders(rules, s, parent, "captured", &mut events)?;
        Ok(events)
    })
}

/// Ch16 10.2, Ch13 6.0, dotc D24: horse holders an enemy charge reaches (`how`: "captured"), or
/// fire brings down, are lost: their stand
/// leaves the regiment for good (its health counts it as any stand lost; the brigade's tally does
/// not, as the brigade clock never counts horse holders, RULINGS G5), and the regiment can never
/// remount. Nothing happens to cavalry without holders.
pub fn capture_horse_holders(
    rules: &Rules,
    state: &mut GameState,
    parent: UnitId,
    how: &str,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let p = state.unit_mut(parent).ok_or_else(|| unknown(parent))?;
    let Arm::Cavalry { mounted: false, horse_holders, .. } = p.arm else { return Ok(()) };
    if horse_holders == 0 {
        return Ok(());
    }
    p.arm = Arm::Cavalry { mounted: false, horse_holders: 0, can_remount: false };
    let text = format!("{}'s horse holders are {how}: it can never remount", p.name);
    events.push(Event::new(What::Note { text }, "Ch16 10.2, Ch13 6.0"));
    let rule = "Ch16 10.2, Ch13 6.0, dotc D24";
    morale::take_stands(rules, state, parent, horse_holders, morale::OnTheClock::No, events, rule)?;
    Ok(())
}

/// The movement row's state for a unit (Ch16 3.1).
fn move_state(u: &Unit) -> (dotc_lang::library::Arm, Option<MoveState>) {
    use dotc_lang::library::Arm as RowArm;
    match u.arm {
        Arm::Infantry => (RowArm::Infantry, None),
        Arm::Cavalry { mounted: true, .. } => (RowArm::Cavalry, Some(MoveState::Mounted)),
        Arm::Cavalry { mounted: false, .. } => (RowArm::Cavalry, Some(MoveState::Dismounted)),
        Arm::Battery { limbered: true } => (RowArm::Artillery, Some(MoveState::Limbered)),
        Arm::Battery { limbered: false } => (RowArm::Artillery, Some(MoveState::Prolonge)),
    }
}

/// Check the declaration (Ch16 7.1) and pay its pips; returns nothing but the events.
fn declare(
    rules: &Rules,
    state: &mut GameState,
    charger: UnitId,
    target: UnitId,
    input: &AssaultInput,
    payment: Payment,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let c = state.unit(charger).ok_or_else(|| unknown(charger))?;
    let t = state.unit(target).ok_or_else(|| unknown(target))?;
    let illegal = |why: String, rule: &'static str| EngineError::Illegal { unit: c.name.clone(), why, rule };
    if charger == target {
        return Err(illegal("charge itself".into(), "Ch16 7.1"));
    }
    if c.removed || c.stands == 0 {
        return Err(illegal("assault: it has left the table".into(), "Ch16 7.1"));
    }
    if t.removed || t.stands == 0 {
        return Err(illegal(format!("assault {}: it has left the table", t.name), "Ch16 7.1"));
    }
    if c.side == t.side {
        return Err(illegal(format!("assault {}, a friendly unit", t.name), "Ch16 7.1"));
    }
    // Ch13 9.0 (module elite_sharpshooters): elite sharpshooters never charge a formed line or
    // column.
    let shy = c.traits.iter().any(|id| rules.trait_def(id).is_some_and(|tr| tr.no_assault_on_formed));
    if shy && rules.data.formation(&t.formation).is_some_and(super::melee::is_formed) {
        return Err(illegal(format!("assault {}: it is a formed line or column", t.name), "Ch13 9.0"));
    }
    // Formation (Ch16 3.2, 7.1; open order Ch13 22.0).
    let formation = rules
        .data
        .formation(&c.formation)
        .ok_or_else(|| EngineError::Unknown(format!("formation `{}`", c.formation)))?;
    if formation.no_assault {
        let rule = if formation.module.is_some() { "Ch13 22.0, Ch16 7.1" } else { "Ch16 3.2, 7.1" };
        return Err(illegal(format!("assault in {}", formation.meta.title()), rule));
    }
    // Charge speed (Ch16 3.1, 7.1).
    let (arm, mstate) = move_state(c);
    let row = rules.data.movement_for(arm, Some(&c.formation), mstate);
    let speed = match row.map(|r| r.charge) {
        Some(dotc_lang::library::Charge::Inches(d)) => d,
        _ => {
            return Err(illegal(
                format!("charge: it has no charge speed in {}", formation.meta.title()),
                "Ch16 3.1, 7.1",
            ));
        }
    };
    if !input.distance.is_finite() || input.distance < 0.0 {
        return Err(illegal(format!("charge {}\"", input.distance), "Ch16 7.1"));
    }
    if input.distance > speed {
        return Err(illegal(
            format!("charge {} at {:.2}\": its charge reaches {speed}\"", t.name, input.distance),
            "Ch16 3.1, 7.1",
        ));
    }
    // Ch13 21.0 (module weather): in dense fog no assault on a target beyond the sky's limit.
    if let Some(limit) = state.weather.assault_limit(&rules.tables)
        && input.distance > limit
    {
        return Err(illegal(
            format!(
                "charge {} at {}\": in this fog no assault goes beyond {limit}\"",
                t.name, input.distance
            ),
            "Ch13 21.0",
        ));
    }
    // The brigade clock (RULE-07-2.3, 2.4, Ch16 8.2). Separate charges are declared one at a
    // time, each with the clock as the earlier charges' closing volleys left it (dotc D52). A
    // Dress on the Colors push is declared once, for all its regiments together (Ch16 2.3: they
    // "charge simultaneously"; Ch16 7.1's requirements are the declaration's): its brigade was
    // judged when its first regiment was, so a closing volley that makes the brigade Hesitant
    // before a later regiment's line does not stop that regiment (issue 19). A brigade that
    // breaks still stops it: every unit of a Broken brigade is disordered at once (RULE-07-2.4).
    let declared_with_the_push = payment == Payment::PaidByThePush;
    // dotc D51: as it was before this phase's melees, which Ch16 1.0 fights in Phase 4.
    match super::phase_four::brigade_status_before_phase_four(rules, state, charger) {
        BrigadeStatus::Hesitant if rules.tables.hesitant.no_assault && !declared_with_the_push => {
            return Err(illegal("assault: its brigade is Hesitant".into(), "RULE-07-2.3"));
        }
        BrigadeStatus::Broken if rules.tables.broken.no_assault => {
            return Err(illegal("assault: its brigade is Broken".into(), "RULE-07-2.4"));
        }
        _ => {}
    }
    // Disorder (RULE-05-4.4; RULINGS C6: `slowed` and `halted` both forbid an assault).
    // dotc D51: not a Disorder this phase's melees put on it by breaking its brigade.
    if super::phase_four::disordered_before_phase_four(state, charger) && rules.tables.disorder.no_assault {
        return Err(illegal("assault while disordered".into(), "RULE-05-4.4, Ch16 7.1, RULINGS C6"));
    }
    // Health (Ch16 7.1, 8.1, RULE-07-4.2): a Spent regiment only with its brigadier attached.
    let health = morale::unit_health(rules, state, charger);
    let needs_brigadier =
        health.and_then(|h| rules.data.health(h.id())).is_some_and(|h| h.assault_needs_brigadier);
    if needs_brigadier && state.attached_leader(charger).is_none() {
        return Err(illegal(
            format!("assault while {} without its brigadier attached", health.map_or("", |h| h.id())),
            "RULE-07-4.2, Ch16 7.1",
        ));
    }
    // Pips (Ch16 2.2, 2.3, 7.1, RULINGS G8, C10).
    let order_id = if input.coordinated { "dress_on_the_colors" } else { "regimental_assault" };
    let order = rules
        .data
        .order(order_id)
        .ok_or(EngineError::MissingRuleData("order regimental_assault / dress_on_the_colors"))?;
    let from = input.brigadier_distance.unwrap_or(0.0);
    let base = order.pip_cost(from).ok_or(EngineError::MissingRuleData("the assault order's pip price"))?;
    let tier =
        rules.tier_at(from).ok_or(EngineError::MissingRuleData("a command tier for every distance"))?;
    let factor = match tier.order_cost {
        OrderCost::Prohibited => {
            return Err(illegal(
                format!("assault: {from}\" from its brigadier it is out of communication"),
                "Ch16 2.2, RULINGS C10",
            ));
        }
        cost => cost.factor().unwrap_or(1),
    };
    // Ch13 3.0 Heroic Momentum (module friction_of_war): the regiment picked assaults for no pips.
    let heroic = c.turn.heroic && rules.module(super::friction::FRICTION_OF_WAR);
    let cost = if heroic { 0 } else { base * factor };
    let brigade = c
        .brigade
        .ok_or_else(|| illegal("assault: it has no brigadier to pay the pips".into(), "Ch16 2.3, 7.1"))?;
    let name = c.name.clone();
    let rule = if factor > 1 { "Ch16 2.2, 2.3, 7.1, RULINGS G8" } else { "Ch16 2.3, 7.1" };
    let what = format!("assault ({})", order.meta.title());
    match payment {
        Payment::Pay if heroic => events.push(Event::new(
            What::Note { text: format!("{name} assaults on Heroic Momentum: no pips") },
            "Ch13 3.0",
        )),
        Payment::Pay => morale::spend_pips(state, brigade, cost, &name, &what, events, rule)?,
        // Ch16 2.3: the coordinated push was paid for once, by its first regiment.
        Payment::PaidByThePush => events.push(Event::new(
            What::Note { text: format!("{name} joins the {}: already paid for", order.meta.title()) },
            "Ch16 2.3, 7.1",
        )),
        Payment::Surge => events.push(Event::new(
            What::Note {
                text: format!("{name} surges through the wave's lead and carries its charge on: no pips"),
            },
            "Ch13 23.0, dotc D26",
        )),
    }
    if let Some(u) = state.unit_mut(charger) {
        u.turn.assaulted = true;
    }
    // Ch13 21.0 (module weather): severe heat costs a regiment that carries out its assault
    // order the `weather severe` entry's hits, at once, before any die.
    super::weather::exertion(rules, state, charger, order.meta.title(), events)?;
    // Ch13 16.0 (module psychological_shock, dotc D15): a regiment of a brigade that raised the
    // battle cry shakes the enemy it charges for the rest of the phase.
    let cried = state.unit(charger).is_some_and(|u| u.turn.battle_cry);
    if cried
        && rules.module(morale::PSYCHOLOGICAL_SHOCK)
        && let Some(t) = state.unit_mut(target)
    {
        t.turn.shaken_by_cry = true;
        let text = format!(
            "{name}'s brigade raised the battle cry: {} tests Discipline at {:+} this phase",
            t.name, rules.tables.battle_cry.discipline
        );
        events.push(Event::new(What::Note { text }, "Ch13 16.0, dotc D15"));
    }
    Ok(())
}

/// An assault planned up to its first die: the declaration checked and paid for (its events),
/// and the defender's closing volley planned with its casualty table. [`resolve_assault_plan`]
/// rolls against it; `dotc odds` prices it ([`crate::odds::assault_plan_odds`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AssaultPlan {
    pub charger: UnitId,
    pub target: UnitId,
    pub charger_name: String,
    pub target_name: String,
    pub input: AssaultInput,
    /// What the declaration did (the pips paid) and the notes before the dice.
    pub events: Vec<Event>,
    /// The closing volley, when the defender fires one (Ch16 6.0, 7.2): None when it was not
    /// declared or a Broken brigade cannot fire it (RULE-07-2.4).
    pub closing: Option<ClosingPlan>,
    /// A Green defender's check at the 4" line before its volley (Ch13 10.0, module
    /// `premature_fire`), with the volley it fires if it fails.
    pub premature: Option<PrematurePlan>,
}

/// Ch13 10.0 Premature Fire (RULINGS C28), planned before its die: the defender's check and
/// the closing volley it fires too early if it fails.
#[derive(Clone, Debug, PartialEq)]
pub struct PrematurePlan {
    /// The check's number and its modifiers (the standing Discipline modifiers).
    pub base: i32,
    pub modifiers: Vec<super::events::Modifier>,
    /// The closing volley at the module's -2.
    pub early: ClosingPlan,
}

impl AssaultPlan {
    /// The plan as it stands once the premature fire check is rolled: with `passed` the volley
    /// as planned; failed, the early volley and a defender with empty muskets (Ch13 10.0).
    pub fn after_premature_check(&self, passed: bool) -> AssaultPlan {
        let mut plan = AssaultPlan { premature: None, ..self.clone() };
        if let (false, Some(p)) = (passed, &self.premature) {
            plan.closing = Some(p.early.clone());
            plan.input.melee.fired_early = true;
        }
        plan
    }
}

/// Ch13 10.0 Premature Fire (module `premature_fire`, RULINGS C28): a Green regiment charged that
/// fires a closing volley tests when the charger reaches the 4" line (dotc D9: only a defender
/// that fires one; its volley is what goes off early). Its check, and the early volley planned
/// by the volley's own plan (`FireInput::premature`).
fn premature_check(
    rules: &Rules,
    state: &GameState,
    target: UnitId,
    charger: UnitId,
    fire: &FireInput,
) -> Result<Option<PrematurePlan>, EngineError> {
    let green = state.unit(target).is_some_and(|u| u.quality == "green");
    let check = rules.tables.premature_fire.check;
    let Some(check) = check.filter(|_| rules.module("premature_fire") && green) else { return Ok(None) };
    let early = FireInput { premature: true, ..fire.clone() };
    let plan = plan_volley(rules, state, target, charger, &early)?;
    let casualties = casualty_table(rules, state, &plan)?;
    Ok(Some(PrematurePlan {
        base: i32::try_from(check).unwrap_or(6),
        modifiers: morale::standing_discipline_modifiers(rules, state, target, None),
        early: ClosingPlan { plan, casualties },
    }))
}

/// A closing volley planned before its dice, with what each outcome would cost the charger.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosingPlan {
    pub plan: VolleyPlan,
    pub casualties: CasualtyTable,
}

/// Declare the charge on `state` (checked, and its pips paid) and plan its closing volley.
/// On an error part of it may already be applied: call it inside [`super::transact`] or on a
/// copy.
pub fn plan_assault(
    rules: &Rules,
    state: &mut GameState,
    charger: UnitId,
    target: UnitId,
    input: &AssaultInput,
    payment: Payment,
) -> Result<AssaultPlan, EngineError> {
    let mut events = Vec::new();
    declare(rules, state, charger, target, input, payment, &mut events)?;
    // Ch16 2.2: the charger's command tier, from where it starts, sets the pre-contact check's
    // tier modifier (a standing Discipline modifier, `morale::standing_discipline_modifiers`).
    if let (Some(d), Some(u)) = (input.brigadier_distance, state.unit_mut(charger)) {
        u.command_range = Some(d);
    }
    let charger_name = state.unit(charger).map(|u| u.name.clone()).unwrap_or_default();
    let target_name = state.unit(target).map(|u| u.name.clone()).unwrap_or_default();
    let t = &rules.tables;
    let mut volley = input.closing_volley.clone();
    let mut premature = None;
    // The closing volley is Phase 2's: its brigade as it was before this phase's melees (dotc D51).
    let target_status = super::phase_four::brigade_status_before_phase_four(rules, state, target);
    if volley.is_some() && target_status == BrigadeStatus::Broken && t.broken.no_fire {
        events.push(Event::new(
            What::Note { text: format!("{target_name} cannot fire a closing volley: its brigade is Broken") },
            "RULE-07-2.4",
        ));
        volley = None;
    }
    if volley.is_some() && super::guns::towing(state, target) {
        events.push(Event::new(
            What::Note {
                text: format!("{target_name} cannot fire a closing volley: it is hauling off captured guns"),
            },
            "Ch13 15.0",
        ));
        volley = None;
    }
    let closing = match volley {
        Some(mut fire) => {
            fire.kind = FireKind::Closing;
            let text = if input.distance <= t.interruption {
                format!(
                    "{charger_name} starts within {}\" of {target_name}: the closing volley comes before it moves",
                    t.interruption
                )
            } else {
                format!(
                    "{charger_name}'s charge pauses {}\" from {target_name} for the closing volley",
                    t.interruption
                )
            };
            events.push(Event::new(What::Note { text }, "Ch16 7.2, RULINGS G10"));
            let plan = plan_volley(rules, state, target, charger, &fire)?;
            let casualties = casualty_table(rules, state, &plan)?;
            premature = premature_check(rules, state, target, charger, &fire)?;
            Some(ClosingPlan { plan, casualties })
        }
        None => None,
    };
    Ok(AssaultPlan {
        charger,
        target,
        charger_name,
        target_name,
        input: input.clone(),
        events,
        closing,
        premature,
    })
}

/// Roll a planned assault's dice: the closing volley, then [`after_the_volley`]. The plan must
/// have been made on this state, with nothing changed since.
pub fn resolve_assault_plan(
    rules: &Rules,
    state: &mut GameState,
    plan: &AssaultPlan,
    dice: &mut dyn DiceSource,
) -> Result<AssaultReport, EngineError> {
    let mut events = plan.events.clone();
    // Ch13 10.0: a Green defender's check at the 4" line, before its volley.
    let rolled;
    let plan = match &plan.premature {
        Some(p) => {
            let passed = morale::test_roll(
                plan.target_name.clone(),
                TestKind::PrematureFire,
                p.base,
                p.modifiers.clone(),
                dice,
                &mut events,
                "Ch13 10.0, RULINGS C28",
            )?;
            rolled = plan.after_premature_check(passed);
            &rolled
        }
        None => plan,
    };
    match &plan.closing {
        Some(closing) => {
            let report = resolve_plan(rules, state, &closing.plan, dice)?;
            after_the_volley(rules, state, plan, &report, events, dice)
        }
        None => contact(rules, state, plan, events, false, None, dice),
    }
}

/// The charge after its closing volley's dice (`report`): the charger removed, stalled by a
/// check the volley called for, or tested at the line (RULINGS C7) and stalled, or on to
/// contact.
pub(crate) fn after_the_volley(
    rules: &Rules,
    state: &mut GameState,
    plan: &AssaultPlan,
    report: &VolleyReport,
    mut events: Vec<Event>,
    dice: &mut dyn DiceSource,
) -> Result<AssaultReport, EngineError> {
    let (charger, t) = (plan.charger, &rules.tables);
    let c_name = &plan.charger_name;
    let gone = |state: &GameState| state.unit(charger).is_none_or(|u| u.removed);
    let closing_volley = plan.closing.as_ref().map(|c| {
        Box::new(ClosingVolley {
            plan: c.plan.clone(),
            casualties: c.casualties.clone(),
            outcome: (report.hits, report.unsaved, report.stands_lost_to_fire),
            stands_lost: report.stands_lost,
        })
    });
    let ended = |events, result, pre_contact_check, closing_volley| {
        Ok(AssaultReport { events, result, pre_contact_check, closing_volley })
    };
    events.extend(report.events.iter().cloned());
    if gone(state) || report.target_removed {
        return ended(events, AssaultResult::Destroyed, false, closing_volley);
    }
    // RULE-07-1.5 (charging case), Ch16 9.0: a charger that failed a check the volley itself
    // called for (Spent under fire, Seen the Elephant) stalls at once, Disordered.
    let failed_own_check = report.events.iter().any(|e| {
        matches!(&e.what, What::Test { unit, test: TestKind::SpentUnderFire | TestKind::SeenTheElephant, passed: false, .. } if unit == c_name)
    });
    if failed_own_check {
        if !report.events.iter().any(|e| matches!(&e.what, What::Stalled { .. })) {
            events.push(Event::new(
                What::Stalled { unit: c_name.clone(), inches: t.stall },
                "RULE-07-1.5, Ch16 9.0",
            ));
        }
        return ended(events, AssaultResult::Stalled, false, closing_volley);
    }
    // dotc D1: the volley broke the charger's own brigade; a Broken unit starts no melee
    // (RULE-07-2.4), so by default the charge halts short with the collapse's Disorder. A break
    // in an earlier melee of this phase comes in Phase 4, at contact (dotc D51, [`contact`]).
    let broken =
        super::phase_four::brigade_status_before_phase_four(rules, state, charger) == BrigadeStatus::Broken;
    if broken && rules.rulings.broken_during_charge == BrokenDuringCharge::Halts {
        events.push(Event::new(
            What::Note {
                text: format!("{c_name}'s brigade broke under the closing volley: the charge halts"),
            },
            "RULE-07-2.4, dotc D1",
        ));
        events.push(Event::new(
            What::Stalled { unit: c_name.clone(), inches: t.stall },
            "RULE-07-2.4, dotc D1",
        ));
        return ended(events, AssaultResult::Stalled, false, closing_volley);
    }
    // RULINGS C7: what makes the charger test at the line.
    let triggered = match rules.rulings.pre_contact_trigger {
        PreContactTrigger::LossOrDisorder => report.stands_lost >= 1 || report.disordered,
        PreContactTrigger::HitOrSix => report.hits >= 1 || report.sixes >= 1,
        PreContactTrigger::LossOrSix => report.stands_lost >= 1 || report.sixes >= 1,
    };
    // Ch13 3.0 Heroic Momentum (module friction_of_war): the check to close is passed, no die.
    let heroic =
        state.unit(charger).is_some_and(|u| u.turn.heroic) && rules.module(super::friction::FRICTION_OF_WAR);
    if triggered && heroic {
        let text = format!("{c_name} passes its check to close on Heroic Momentum, without a die");
        events.push(Event::new(What::Note { text }, "Ch13 3.0"));
    } else if triggered {
        let (base, modifiers) =
            morale::discipline_terms(rules, state, charger, Some(CheckCause::ClosingVolley), Vec::new())?;
        // Ch13 17.0: a charger under Desperate Valor tests with Advantage.
        let passed = morale::check_roll(
            c_name.clone(),
            TestKind::PreContact,
            base,
            modifiers,
            morale::valor_advantage(rules, state, charger),
            dice,
            &mut events,
            "Ch16 7.2, RULE-07-1.4, RULINGS C7",
        )?;
        if !passed {
            events.push(Event::new(
                What::Stalled { unit: c_name.clone(), inches: t.stall },
                "Ch16 7.2, RULE-07-1.5, RULINGS C5, G10",
            ));
            morale::place_disorder(rules, state, charger, &mut events, "Ch16 7.2, RULE-07-1.5, RULINGS C5")?;
            let result = if gone(state) { AssaultResult::Destroyed } else { AssaultResult::Stalled };
            return ended(events, result, true, closing_volley);
        }
    }
    contact(rules, state, plan, events, triggered, closing_volley, dice)
}

/// Contact and the melee (Ch16 7.2, 7.3).
fn contact(
    rules: &Rules,
    state: &mut GameState,
    plan: &AssaultPlan,
    mut events: Vec<Event>,
    pre_contact_check: bool,
    closing_volley: Option<Box<ClosingVolley>>,
    dice: &mut dyn DiceSource,
) -> Result<AssaultReport, EngineError> {
    // dotc D51, D1: Phase 4 fights this melee after the earlier ones of the phase, and one of
    // them broke the charger's brigade; a Broken unit starts no melee (RULE-07-2.4), so by
    // default the charge ends short of contact. Under `broken_during_charge = goes_in` it goes in.
    let broken = state.brigade_status(plan.charger) == BrigadeStatus::Broken;
    if broken && rules.rulings.broken_during_charge == BrokenDuringCharge::Halts {
        let c_name = &plan.charger_name;
        let text = format!(
            "{c_name}'s brigade broke in an earlier melee of this phase, which Phase 4 fights first: {c_name} \
             starts no melee and halts short"
        );
        events.push(Event::new(What::Note { text }, "Ch16 1.0, RULE-07-2.4, dotc D1, dotc D51"));
        events.push(Event::new(
            What::Stalled { unit: c_name.clone(), inches: rules.tables.stall },
            "RULE-07-2.4, dotc D1, dotc D51",
        ));
        return Ok(AssaultReport {
            events,
            result: AssaultResult::Stalled,
            pre_contact_check,
            closing_volley,
        });
    }
    // What the campaign's experience reads of the defender at contact (Ch14 3.0, dotc D35).
    let defender_health = morale::unit_health(rules, state, plan.target);
    let defender_formed = state.unit(plan.target).is_some_and(|u| {
        !u.is_battery() && rules.data.formation(&u.formation).is_some_and(super::melee::is_formed)
    });
    events.push(Event::new(
        What::Contact {
            attacker: plan.charger_name.clone(),
            defender: plan.target_name.clone(),
            defender_health,
            defender_formed,
        },
        "Ch16 7.2",
    ));
    let melee = melee_in_place(rules, state, plan.charger, plan.target, &plan.input.melee, dice)?;
    events.extend(melee.events);
    let result = match melee.no_melee {
        Some(NoMelee::Routed) => AssaultResult::Routed,
        Some(NoMelee::Overrun | NoMelee::OpenOrderOverrun) => AssaultResult::Overrun,
        None => AssaultResult::Melee(melee.outcome),
    };
    Ok(AssaultReport { events, result, pre_contact_check, closing_volley })
}

#[cfg(test)]
mod tests;
