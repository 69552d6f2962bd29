//! Refusing the flank (module `refusing_the_flank`, Ch13 13.0, dotc D13): a regiment bending a
//! wing back within 12" and in sight of an enemy, for a staff pip and a Discipline check.
//!
//! The check is the stdlib's `maneuver refusing_the_flank` (`check 4+`) with the regiment's
//! standing modifiers (its command tier, an attached brigadier, a Hesitant brigade: RULE-07-1.4,
//! Ch16 2.2), a 1 failing and a 6 passing (RULINGS G1):
//!
//! - passed (4, 5, 6): the wing wheels back, up to the `order refuse_the_flank`'s `max_wheel`;
//! - failed on a natural 1: panic, the regiment keeps its facing and takes a Disorder marker;
//! - failed otherwise (2, 3): the men hesitate; the regiment stays where it is.
//!
//! The pip is spent either way (the replay pays it before the roll); another pip buys another
//! try.

use super::morale;
use super::state::{GameState, UnitId};
use super::{EngineError, Event, Rules, What};
use crate::dice::DiceSource;
use crate::engine::events::TestKind;

/// The rule data id of the set move that holds the check and the distance (Ch13 13.0).
pub const REFUSING_THE_FLANK: &str = "refusing_the_flank";

const RULE: &str = "Ch13 13.0";

/// How an attempt to refuse the flank ends (Ch13 13.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The check passed: the wing wheels back.
    Refused,
    /// The check failed (2-3): the regiment stays in place; the pip is spent.
    Held,
    /// The check failed on a natural 1: the regiment keeps its facing and is disordered.
    Panicked,
}

impl Refusal {
    /// The claim word a log writes for it (`=> refused`).
    pub fn word(self) -> &'static str {
        match self {
            Refusal::Refused => "refused",
            Refusal::Held => "held",
            Refusal::Panicked => "panicked",
        }
    }
}

/// The check's target (`check 4+`) and how near an enemy in sight must be for the move to need
/// it (`within 12`), from the stdlib's `maneuver refusing_the_flank`.
pub fn refusal_terms(rules: &Rules) -> Result<(u32, f64), EngineError> {
    let entry = rules
        .data
        .maneuver(REFUSING_THE_FLANK)
        .ok_or(EngineError::MissingRuleData("maneuver refusing_the_flank"))?;
    let check = entry.check.ok_or(EngineError::MissingRuleData("refusing_the_flank: check"))?;
    let within = entry.within.ok_or(EngineError::MissingRuleData("refusing_the_flank: within"))?;
    Ok((check, within))
}

/// Ch13 13.0: the regiment's Discipline check to refuse its flank, and what it brings: a
/// Disorder marker on a natural 1. The wheel itself is the caller's to make (it is a move).
pub fn refuse_the_flank(
    rules: &Rules,
    state: &mut GameState,
    unit: UnitId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Result<Refusal, EngineError> {
    let (check, _) = refusal_terms(rules)?;
    let name = state
        .unit(unit)
        .map(|u| u.name.clone())
        .ok_or_else(|| EngineError::Unknown(format!("unit {unit:?}")))?;
    let modifiers = morale::standing_discipline_modifiers(rules, state, unit, None);
    let base = i32::try_from(check).unwrap_or(i32::MAX);
    let passed = morale::test_roll(name.clone(), TestKind::Discipline, base, modifiers, dice, events, RULE)?;
    if passed {
        return Ok(Refusal::Refused);
    }
    let natural = events.iter().rev().find_map(|e| match &e.what {
        What::Test { rolled, .. } => Some(*rolled),
        _ => None,
    });
    if natural != Some(1) {
        let text = format!("{name}'s men hesitate in the noise and smoke: the wing stays where it is");
        events.push(Event::new(What::Note { text }, RULE));
        return Ok(Refusal::Held);
    }
    let text = format!("{name} takes the order for a general retreat: panic");
    events.push(Event::new(What::Note { text }, RULE));
    morale::place_disorder(rules, state, unit, events, RULE)?;
    Ok(Refusal::Panicked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Purpose;
    use crate::engine::testkit::{Table, dice, rules_with};

    fn rules() -> Rules {
        rules_with(crate::rulings::Rulings::default(), &["refusing_the_flank"])
    }

    fn attempt(face: i64) -> (Refusal, bool) {
        let rules = rules();
        let mut t = Table::new();
        let blue = t.blue;
        let unit = t.infantry("Wing", blue, 5, "regular", "rifled_musket", "line");
        let mut dice = dice(&[(Purpose::Discipline, &[face])]);
        let mut events = Vec::new();
        let outcome = refuse_the_flank(&rules, &mut t.state, unit, &mut dice, &mut events).expect("a check");
        let disordered = t.state.unit(unit).is_some_and(|u| u.markers.disorder);
        (outcome, disordered)
    }

    #[test]
    fn ch13_13_0_four_five_six_refuse_two_three_hold_one_panics() {
        // The stdlib's check is 4+ with no modifier here (no tier known, no brigadier attached).
        for face in [4, 5, 6] {
            assert_eq!(attempt(face), (Refusal::Refused, false), "{face}");
        }
        for face in [2, 3] {
            assert_eq!(attempt(face), (Refusal::Held, false), "{face}");
        }
        assert_eq!(attempt(1), (Refusal::Panicked, true));
    }

    #[test]
    fn ch13_13_0_the_stdlib_gives_the_check_and_the_distance() {
        assert_eq!(refusal_terms(&rules()).ok(), Some((4, 12.0)));
    }
}
