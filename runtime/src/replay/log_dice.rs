//! The dice of one log line, and what a seed fills in where the log recorded none.

use crate::dice::{DiceError, DiceSource, Purpose, RecordedDice, Roll, SeededDice};

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
}

impl<'a> LogDice<'a> {
    pub fn new(recorded: RecordedDice, seeded: Option<&'a mut SeededDice>) -> LogDice<'a> {
        LogDice { recorded, seeded, consumed: Vec::new(), filled: Vec::new() }
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
            (Err(e), _) => return Err(e),
        };
        self.consumed.push(Roll { purpose, faces: faces.clone() });
        Ok(faces)
    }

    fn consumed(&self) -> &[Roll] {
        &self.consumed
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
