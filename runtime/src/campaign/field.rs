//! Step 1 of the post-battle sequence, objective verification (Ch14 1.0): which side holds the
//! field, from the replay of the battle's log.

use crate::replay::Summary;

/// The side that controlled the field at the battle's end (Ch14 1.0, dotc D31): the side the
/// scenario's victory conditions make the winner (`union minor`, `confederate major`); nobody on
/// a draw, or when the game reached no result (unfinished, or no condition held). Victory points
/// alone decide nothing: the scenario's own conditions already weigh them.
pub fn holder(summary: &Summary, sides: &[&str]) -> Option<String> {
    let result = summary.result.as_ref()?;
    let first = result.result.split_whitespace().next()?;
    sides.iter().find(|s| **s == first).map(|s| s.to_string())
}
