//! The dice of one log line, and what a seed fills in where the log recorded none.

use crate::dice::{DiceError, DiceSource, Purpose, RecordedDice, Roll, RollFor, SeededDice, Unrecorded};
use crate::engine::events::TestKind;
use crate::engine::fire::{SHARPSHOOTERS_REROLL, STEADY_REROLL};
use crate::engine::melee::DEFENDER_DIE;

/// The dice an action's line recorded, handed out exactly as written (see [`RecordedDice`]), with
/// the seeded source of a what-if replay (`dotc replay --seed N`) behind them.
///
/// Only a roll the line recorded *nothing* for is filled from the seed: a list that is too short is
/// still the log's mistake and stays an error, so a seed never hides a miscount.
pub struct LogDice<'a> {
    recorded: RecordedDice,
    seeded: Option<&'a mut SeededDice>,
    consumed: Vec<Roll>,
    filled: Vec<Roll>,
    /// What the engine said its next roll is for: the test, its rule, what came before it.
    next: Option<(String, String, Option<String>)>,
}

impl<'a> LogDice<'a> {
    pub fn new(recorded: RecordedDice, seeded: Option<&'a mut SeededDice>) -> LogDice<'a> {
        LogDice { recorded, seeded, consumed: Vec::new(), filled: Vec::new(), next: None }
    }

    /// The line's own dice.
    pub fn recorded(&self) -> &RecordedDice {
        &self.recorded
    }

    /// The rolls the seed supplied because the line recorded none, in order.
    pub fn filled(&self) -> &[Roll] {
        &self.filled
    }
}

impl DiceSource for LogDice<'_> {
    fn roll(&mut self, purpose: Purpose, count: usize) -> Result<Vec<u8>, DiceError> {
        let faces = match (self.recorded.roll(purpose, count), self.seeded.as_deref_mut()) {
            (Ok(faces), _) => faces,
            (Err(DiceError::Missing { available: 0, .. }), Some(seeded)) => {
                let faces = seeded.roll(purpose, count)?;
                self.filled.push(Roll { purpose, faces: faces.clone() });
                faces
            }
            // A die the log left out, of a roll the engine named: the finding names the test.
            (Err(DiceError::Missing { purpose, wanted, available }), _) => {
                let Some((what, rule, after)) = self.next.take() else {
                    return Err(DiceError::Missing { purpose, wanted, available });
                };
                return Err(DiceError::Unrecorded(Box::new(Unrecorded {
                    purpose,
                    wanted,
                    available,
                    what,
                    rule,
                    after,
                })));
            }
            (Err(e), _) => return Err(e),
        };
        self.next = None;
        self.consumed.push(Roll { purpose, faces: faces.clone() });
        Ok(faces)
    }

    fn consumed(&self) -> &[Roll] {
        &self.consumed
    }

    fn announce(&mut self, roll: RollFor<'_>) {
        self.next = Some((roll.what.to_string(), roll.rule.to_string(), roll.after.map(|a| a.to_string())));
    }
}

/// `[d, d, d]`: a list of `n` dice to fill in.
fn blanks(n: usize) -> String {
    format!("[{}]", vec!["d"; n.clamp(1, 12)].join(", "))
}

/// How to add the dice a roll lacks, in the log's own words: the label each kind of roll is
/// written under (`roll`, `saves`, `discipline`, `vs`, `reroll`, `leader_casualty`), as a step of
/// its own in an assault (`in_steps`). Ends with the count.
pub(super) fn how_to_add(
    purpose: Purpose,
    wanted: usize,
    available: usize,
    what: &str,
    in_steps: bool,
) -> String {
    let more = wanted.saturating_sub(available);
    let count = |n: usize| if n == 1 { "1 die".to_string() } else { format!("{n} dice") };
    // A list that is there but short takes the rest at its end.
    let short = |list: &str| format!("add {} at the end of `{list} [...]` ({} in all)", count(more), wanted);
    match purpose {
        Purpose::ToHit if what == SHARPSHOOTERS_REROLL => {
            "add the re-rolled die after the to-hit dice as `reroll [d]` (1 die), or decline the re-roll \
             with `no_reroll`"
                .to_string()
        }
        Purpose::Save if what == STEADY_REROLL => {
            "add the re-rolled die at the end of `saves [...]` (1 die), or decline the re-roll with \
             `no_save_reroll`"
                .to_string()
        }
        Purpose::ToHit if available > 0 => short("roll"),
        Purpose::ToHit => format!("add the to-hit dice: `roll {}` ({})", blanks(wanted), count(wanted)),
        Purpose::Save if available > 0 => short("saves"),
        Purpose::Save => {
            format!("add the cover saves: `saves {}` ({}, one per hit)", blanks(wanted), count(wanted))
        }
        Purpose::Discipline if in_steps && what == TestKind::RebelYell.the_label() => {
            "add the step `rebel_yell roll [d]` (1 die)".to_string()
        }
        Purpose::Discipline if in_steps && what == TestKind::PrematureFire.the_label() => {
            "add the step `premature_fire roll [d]` (1 die)".to_string()
        }
        Purpose::Discipline if in_steps && what == TestKind::FlatFooted.the_label() => {
            "add the step `flat_footed roll [d]` (1 die)".to_string()
        }
        // Ch13 17.0: a check with Advantage rolls two dice; one is written.
        Purpose::Discipline if in_steps && wanted == 2 && available == 1 => {
            "a check with Advantage (Desperate Valor) rolls two dice: write both, `discipline roll [d, d]`"
                .to_string()
        }
        Purpose::Discipline if in_steps => {
            "add the step `discipline roll [d]` (1 die), one step per test in the order they are rolled"
                .to_string()
        }
        Purpose::Discipline => {
            format!(
                "add `discipline {}` ({}), one die per test in the order they are taken",
                blanks(more),
                count(more)
            )
        }
        Purpose::Melee if what == DEFENDER_DIE => "add the defender's die: `vs [d]` (1 die)".to_string(),
        Purpose::Melee if in_steps => "add the step `melee roll [a] vs [d]` (2 dice)".to_string(),
        Purpose::Melee => "add the melee dice: `roll [a] vs [d]` (2 dice)".to_string(),
        Purpose::LeaderCasualty => "add `leader_casualty [d]` (1 die)".to_string(),
        Purpose::Rally | Purpose::StaffPips | Purpose::Friction if available == 0 => {
            format!("add `roll {}` ({})", blanks(wanted), count(wanted))
        }
        other if available > 0 => short(other.label()),
        other => format!("add `{} {}` ({})", other.label(), blanks(wanted), count(wanted)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_fills_only_what_the_line_left_out() {
        let mut seed = SeededDice::new(7);
        let recorded = RecordedDice::labelled([(Purpose::ToHit, vec![3, 5, 2])]);
        let mut dice = LogDice::new(recorded, Some(&mut seed));
        assert_eq!(dice.roll(Purpose::ToHit, 3).unwrap(), vec![3, 5, 2]);
        let saves = dice.roll(Purpose::Save, 2).unwrap();
        assert_eq!(saves, SeededDice::new(7).roll(Purpose::Save, 2).unwrap());
        assert_eq!(dice.filled().len(), 1);
        assert_eq!(dice.filled()[0].purpose, Purpose::Save);
        assert_eq!(dice.consumed().len(), 2);
    }

    #[test]
    fn a_short_list_stays_the_logs_mistake_even_with_a_seed() {
        let mut seed = SeededDice::new(7);
        let recorded = RecordedDice::labelled([(Purpose::ToHit, vec![3, 5])]);
        let mut dice = LogDice::new(recorded, Some(&mut seed));
        assert!(matches!(dice.roll(Purpose::ToHit, 3), Err(DiceError::Missing { available: 2, .. })));
        assert!(dice.filled().is_empty());
    }

    #[test]
    fn without_a_seed_missing_dice_are_an_error() {
        let mut dice = LogDice::new(RecordedDice::default(), None);
        assert!(matches!(dice.roll(Purpose::Rally, 1), Err(DiceError::Missing { .. })));
    }
}
