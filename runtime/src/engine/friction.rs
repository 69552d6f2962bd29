//! The Friction of War events (Ch13 3.0, module `friction_of_war`): what each face of the
//! friction die does to the game.
//!
//! The roll itself is made at the start of Phase 1 when the two sides' pip rolls tie (RULINGS
//! G2); the replay checks that and reads the face and the unit or brigadier the log names
//! (`replay/command.rs`). Here each event is played, its numbers from the rule data:
//!
//! 1. Ammunition Wagon Delayed: the opponent's pick, one of the active side's batteries or
//!    regiments, takes a Low Ammo marker (its -1 to hit is the marker's, [`super::fire`]).
//! 2. Sudden Squall: every shooting pool of both sides is halved this turn, rounded down
//!    ([`GameState::friction`], read by the fire plan, RULINGS G16).
//! 3. Misinterpreted Orders: the opponent's pick, a formed regiment of the active side, marches
//!    the `misinterpreted_orders` inches straight ahead at once; the report says how far, and
//!    the replay puts it there (the log records where, on the friction line).
//! 4. The General is at the Front!: the active brigadier has the `general_at_the_front` pips
//!    more this turn, and the first casualty his brigade takes this turn wounds him out of the
//!    game ([`general_hit`], through the leader casualty table's row that removes a leader
//!    without killing him, Ch16 2.4; dotc D20).
//! 5. Panic in the Ranks: the regiment the players diced for (dotc D19) rolls 1D6 and takes a
//!    Disorder marker below the `panic_in_the_ranks` check (1-3).
//! 6. Heroic Momentum: the active player's pick assaults this turn for no pips and passes its
//!    check to close without a die ([`super::assault`]).

use super::events::{Event, What};
use super::morale;
use super::state::{BrigadeId, GameState, UnitId};
use super::{EngineError, Rules, roll, transact};
use crate::dice::{DiceSource, Purpose};

/// The module's name (`dotc_lang::rulings::Module::FrictionOfWar`).
pub const FRICTION_OF_WAR: &str = dotc_lang::rulings::Module::FrictionOfWar.name();

const RULE: &str = "Ch13 3.0";

/// The six events of the Friction Table (Ch13 3.0), by the face of the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrictionEvent {
    AmmunitionDelayed,
    SuddenSquall,
    MisinterpretedOrders,
    GeneralAtTheFront,
    PanicInTheRanks,
    HeroicMomentum,
}

/// Who an event falls on: the unit or brigade picked, as the log names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Unit(UnitId),
    Brigade(BrigadeId),
}

impl FrictionEvent {
    /// The event of a face of the die; None for a face no d6 shows.
    pub fn of_face(face: u8) -> Option<FrictionEvent> {
        use FrictionEvent::*;
        [
            AmmunitionDelayed,
            SuddenSquall,
            MisinterpretedOrders,
            GeneralAtTheFront,
            PanicInTheRanks,
            HeroicMomentum,
        ]
        .get(usize::from(face).checked_sub(1)?)
        .copied()
    }

    /// The event's name in the table.
    pub fn title(self) -> &'static str {
        match self {
            FrictionEvent::AmmunitionDelayed => "Ammunition Wagon Delayed",
            FrictionEvent::SuddenSquall => "Sudden Squall",
            FrictionEvent::MisinterpretedOrders => "Misinterpreted Orders",
            FrictionEvent::GeneralAtTheFront => "The General is at the Front!",
            FrictionEvent::PanicInTheRanks => "Panic in the Ranks",
            FrictionEvent::HeroicMomentum => "Heroic Momentum",
        }
    }

    /// What the event brings, in brief, as the replay says it when the die is rolled, with the
    /// rule data's numbers (`maneuver misinterpreted_orders`, `modifier general_at_the_front`,
    /// `modifier panic_in_the_ranks`).
    pub fn summary(self, t: &super::tables::Tables) -> String {
        match self {
            FrictionEvent::AmmunitionDelayed => {
                "the ammunition wagons are late: the opponent gives one active battery or regiment Low Ammo"
                    .into()
            }
            FrictionEvent::SuddenSquall => {
                "a sudden squall: every shooting pool of both sides is halved this turn".into()
            }
            FrictionEvent::MisinterpretedOrders => format!(
                "orders misread: one active formed regiment the opponent picks marches {}\" straight ahead",
                t.misread_march
            ),
            FrictionEvent::GeneralAtTheFront => format!(
                "the general rides to the front: the active brigadier has {} more pips this turn, and is lost \
                 if his brigade takes a casualty",
                t.front_pips
            ),
            FrictionEvent::PanicInTheRanks => format!(
                "panic in the ranks: a random active regiment is disordered on a 1-{}",
                t.panic_check.saturating_sub(1)
            ),
            FrictionEvent::HeroicMomentum => {
                "heroic momentum: one regiment may assault for no pips and passes its check to close".into()
            }
        }
    }

    /// Who picks the unit it falls on, and what: None for the events that fall on no one unit.
    pub fn pick(self) -> Option<&'static str> {
        match self {
            FrictionEvent::AmmunitionDelayed => {
                Some("the opponent picks one of the active side's batteries or regiments")
            }
            FrictionEvent::MisinterpretedOrders => {
                Some("the opponent picks one of the active side's formed regiments")
            }
            FrictionEvent::PanicInTheRanks => {
                Some("the players dice for one of the active side's regiments (dotc D19)")
            }
            FrictionEvent::HeroicMomentum => Some("the active player picks one of his regiments"),
            FrictionEvent::SuddenSquall | FrictionEvent::GeneralAtTheFront => None,
        }
    }
}

/// What an event did.
#[derive(Clone, Debug, PartialEq)]
pub struct FrictionReport {
    pub events: Vec<Event>,
    /// Misinterpreted Orders: the regiment that must march, and how many inches straight ahead.
    pub march: Option<(UnitId, f64)>,
    /// Panic in the Ranks: whether the regiment was Disordered.
    pub panicked: Option<bool>,
}

/// Play a Friction of War event for the `active` side on `pick` (Ch13 3.0). Panic in the Ranks
/// rolls its own die from `dice`. A pick the event cannot fall on is [`EngineError::Illegal`]
/// citing Ch13 3.0, and changes nothing.
pub fn play_friction(
    rules: &Rules,
    state: &mut GameState,
    active: super::state::SideId,
    event: FrictionEvent,
    pick: Option<Pick>,
    dice: &mut dyn DiceSource,
) -> Result<FrictionReport, EngineError> {
    transact(state, |state| {
        let mut report = FrictionReport { events: Vec::new(), march: None, panicked: None };
        let events = &mut report.events;
        if !rules.module(FRICTION_OF_WAR) {
            return Err(illegal("the game", "roll on the Friction Table: the module is not in force".into()));
        }
        let unit = match (event.pick(), pick) {
            (None, _) => None,
            (Some(_), Some(Pick::Unit(id))) => Some(picked_unit(rules, state, active, event, id)?),
            (Some(who), _) => return Err(illegal(event.title(), format!("fall on no unit: {who}"))),
        };
        let name = unit.and_then(|id| state.unit(id)).map(|u| u.name.clone()).unwrap_or_default();
        match (event, unit) {
            (FrictionEvent::AmmunitionDelayed, Some(id)) => {
                let u = state.unit_mut(id).ok_or_else(|| EngineError::Unknown(name.clone()))?;
                if u.markers.low_ammo {
                    events.push(note(format!("{name} already carries a Low Ammo marker")));
                } else {
                    u.markers.low_ammo = true;
                    let marker = rules.tables.low_ammo.meta.title().to_string();
                    events.push(Event::new(What::MarkerPlaced { unit: name, marker }, RULE));
                }
            }
            (FrictionEvent::SuddenSquall, _) => {
                state.friction.squall = true;
                events.push(note(
                    "a Sudden Squall: every shooting pool of both sides is halved this turn".into(),
                ));
            }
            (FrictionEvent::MisinterpretedOrders, Some(id)) => {
                let inches = rules.tables.misread_march;
                report.march = Some((id, inches));
                events
                    .push(note(format!("{name} misreads its orders and marches {inches}\" straight ahead")));
            }
            (FrictionEvent::GeneralAtTheFront, _) => {
                let brigade = match pick {
                    Some(Pick::Brigade(b)) => b,
                    _ => {
                        return Err(illegal(event.title(), "fall on no brigadier: the log names him".into()));
                    }
                };
                let b = state
                    .brigades
                    .get_mut(brigade.0)
                    .ok_or_else(|| EngineError::Unknown(format!("brigade #{}", brigade.0)))?;
                if b.side != active {
                    return Err(illegal(
                        &b.name.clone(),
                        "take the General at the Front: it is not the active side's".into(),
                    ));
                }
                let extra = rules.tables.front_pips;
                b.pips += extra;
                events.push(Event::new(
                    What::Pips {
                        brigade: b.name.clone(),
                        change: i32::try_from(extra).unwrap_or(i32::MAX),
                        pips: b.pips,
                        banked: b.banked,
                    },
                    RULE,
                ));
                state.friction.general_at_the_front = Some(brigade);
            }
            (FrictionEvent::PanicInTheRanks, Some(id)) => {
                let face = roll(dice, Purpose::Friction, 1, events, RULE)?.first().copied().unwrap_or(1);
                let panics = u32::from(face) < rules.tables.panic_check;
                report.panicked = Some(panics);
                if panics {
                    morale::place_disorder(rules, state, id, &mut report.events, "Ch13 3.0, dotc D19")?;
                } else {
                    events.push(note(format!("{name} rolls {face}: the rumour does not take")));
                }
            }
            (FrictionEvent::HeroicMomentum, Some(id)) => {
                if let Some(u) = state.unit_mut(id) {
                    u.turn.heroic = true;
                }
                events.push(note(format!(
                    "{name} may assault this turn for no pips, and passes its check to close"
                )));
            }
            (_, None) => return Err(illegal(event.title(), "fall on no unit".into())),
        }
        Ok(report)
    })
}

/// The unit an event may fall on (Ch13 3.0): on the table, of the active side; a regiment (no
/// battery) but for the ammunition wagons; a formed one (line or column: no gaps and no cover of
/// its own, [`super::melee::is_formed`]; not skirmishers, open order or sharpshooters) for
/// Misinterpreted Orders.
fn picked_unit(
    rules: &Rules,
    state: &GameState,
    active: super::state::SideId,
    event: FrictionEvent,
    id: UnitId,
) -> Result<UnitId, EngineError> {
    let u = state.unit(id).ok_or_else(|| EngineError::Unknown(format!("unit #{}", id.0)))?;
    let why = if u.removed || !u.on_table {
        Some("it is not on the table".to_string())
    } else if u.side != active {
        Some("it is not one of the active side's units".to_string())
    } else if u.is_battery() && event != FrictionEvent::AmmunitionDelayed {
        Some("it is a battery, not a regiment".to_string())
    } else if event == FrictionEvent::MisinterpretedOrders
        && !rules.data.formation(&u.formation).is_some_and(super::melee::is_formed)
    {
        Some(format!("it is in {}, not a formed regiment", u.formation))
    } else {
        None
    };
    match why {
        Some(why) => Err(illegal(&u.name, format!("be picked for {}: {why}", event.title()))),
        None => Ok(id),
    }
}

/// Ch13 3.0, dotc D20: a casualty (an unsaved hit or a stand lost) to `unit` while its brigadier
/// is at the front this turn wounds him out of the game, as the leader casualty table's row that
/// removes a leader without killing him (Ch16 2.4); his colonel commands from the next turn.
pub fn general_hit(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), EngineError> {
    let Some(brigade) = state.friction.general_at_the_front else { return Ok(()) };
    if state.unit(unit).and_then(|u| u.brigade) != Some(brigade) {
        return Ok(());
    }
    state.friction.general_at_the_front = None;
    let Some(leader) = state.brigade(brigade).and_then(|b| b.brigadier) else { return Ok(()) };
    let (who, whose) = match (state.leader(leader), state.unit(unit)) {
        (Some(l), Some(u)) => (l.name.clone(), u.name.clone()),
        _ => return Ok(()),
    };
    let text =
        format!("{whose} takes a casualty with {who} at the front: he is wounded and leaves the field");
    events.push(Event::new(What::Note { text }, "Ch13 3.0, dotc D20"));
    morale::leader_struck_off(rules, state, leader, events)
}

fn note(text: String) -> Event {
    Event::new(What::Note { text }, RULE)
}

fn illegal(unit: &str, why: String) -> EngineError {
    EngineError::Illegal { unit: unit.to_string(), why, rule: RULE }
}

#[cfg(test)]
mod tests;
