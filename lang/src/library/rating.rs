//! Brigadier ratings (Ch16 2.1).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// Rounding of a halved pip roll (RULINGS G2: Timid rounds up).
    pub enum Rounding {
        Up = "up",
        Down = "down",
    }
}

pub const RATING_PROPS: &[PropSpec] = &[
    req("pips", "pips d<sides> [<+n>] [halve up|down]", "The staff pip formula (Ch16 2.1, RULINGS G2)."),
    opt("range", "range <count> to <count>", "The pip spread the table prints; checked against the formula."),
    opt("bank", "bank <count>", "Unspent pips that carry over to the next turn (Ch16 2.1)."),
];

/// A brigadier rating (Ch16 2.1).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Rating {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// The die rolled: 3 for a d3 (RULINGS G2 reads it off a d6).
    pub die: u32,
    pub bonus: i32,
    /// Timid halves, rounding up (Ch16 2.1, RULINGS G2).
    pub halve: Option<Rounding>,
    /// The spread the table prints.
    pub range: Option<(u32, u32)>,
    /// Unspent pips carried to the next turn (Ch16 2.1 Pip Hoarding).
    pub bank: Option<u32>,
}

impl Rating {
    /// Pips for a roll of the rating's die; never below 0 (RULINGS G2).
    pub fn pips(&self, roll: u32) -> u32 {
        let value = (roll as i64 + self.bonus as i64).max(0);
        let value = match self.halve {
            None => value,
            Some(Rounding::Up) => (value + 1) / 2,
            Some(Rounding::Down) => value / 2,
        };
        value as u32
    }

    /// The least and most pips the formula gives.
    pub fn pip_range(&self) -> (u32, u32) {
        (self.pips(1), self.pips(self.die.max(1)))
    }
}

pub(super) fn read_rating(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Rating {
    let (die, bonus, halve) = r
        .read("pips", |c| {
            let word = c.word("a die such as `d3`")?;
            let die = word
                .value
                .strip_prefix('d')
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (2..=20).contains(n))
                .ok_or_else(|| {
                    Problem::new(word.span, format!("expected a die such as `d3`, found `{}`", word.value))
                })?;
            let bonus = if c.next_is_signed() { c.modifier()? } else { 0 };
            let halve = if c.eat("halve") { Some(c.choice::<Rounding>()?) } else { None };
            Ok((die, bonus, halve))
        })
        .unwrap_or((3, 0, None));
    let range_prop = r.first("range");
    let range = r.read("range", |c| {
        let low = c.count("the fewest pips")?;
        c.keyword("to")?;
        Ok((low, c.count("the most pips")?))
    });
    let rating =
        Rating { meta, die, bonus, halve, range, bank: r.read("bank", |c| c.count("a number of pips")) };
    if let (Some((low, high)), Some(prop)) = (range, range_prop) {
        let (min, max) = rating.pip_range();
        if (low, high) != (min, max) {
            r.inconsistent(
                prop.span,
                "range",
                &format!("the formula gives {min} to {max} pips, not {low} to {high}"),
                "correct the formula or the range so they agree",
            );
        }
    }
    rating
}

impl Describe for Rating {
    fn parts(&self) -> Vec<String> {
        let mut formula = format!("1D{}", self.die);
        if self.bonus != 0 {
            formula.push_str(&fmt_mod(self.bonus));
        }
        let (low, high) = self.pip_range();
        let halved = match self.halve {
            Some(Rounding::Up) => ", halved rounding up",
            Some(Rounding::Down) => ", halved rounding down",
            None => "",
        };
        vec![format!("{formula} pips{halved} ({low}-{high})")]
    }
}
