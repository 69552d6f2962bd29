//! The allowed range of every number a `.dotc` file gives, and the one check of a number
//! against its range ([`NumberRange::read`]).
//!
//! Lowering reads every number through here, from its source text, before it is converted: a
//! number too long for any type (`99999999999999999999`, a 400-digit size) is reported, never
//! saturated or wrapped. The later checks then judge only numbers within their range
//! ([`NumberRange::admits`]), so one bad number gives one diagnostic.
//!
//! The bounds come from the rulebook's scale where it has one (Ch15 8.0: 1" = 25 yards, a turn
//! of 10-15 minutes, a 5-stand regiment, 6-8 turns a scenario) with room for the large and the
//! odd; beyond them a number is a typo or an attack, not a battle. `docs/language.md` lists them.
//!
//! Codes: a value below a minimum of 0 or more (0 stands, a table 0 deep) or a fraction where a
//! count is wanted is a value the rules cannot mean (`dotc::impossible-value`, as before these
//! ranges); a value above the maximum, beyond either end of a range around 0 (a coordinate), or
//! too large to read at all, is `dotc::number-range`.

use crate::ast::Span;
use crate::diagnostic::Diagnostic;

/// The code of a number above its range.
pub const OUT_OF_RANGE: &str = "dotc::number-range";
/// The code of a number below its range or not whole (a value the rules cannot mean).
pub const IMPOSSIBLE_VALUE: &str = "dotc::impossible-value";

/// The largest table side, and so the largest distance or coordinate anywhere: 2400" is 200
/// feet, 60,000 yards at the ground scale of Ch15 8.0 (1" = 25 yards).
pub const MAX_INCHES: f64 = 2400.0;

/// The range of one kind of number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberRange {
    /// What the number is, as the message names it: `stands`, `the table's width`.
    pub what: &'static str,
    pub min: f64,
    /// The minimum itself is not allowed (a size must be above 0).
    pub above_min: bool,
    pub max: f64,
    /// Only whole numbers (counts, turns, minutes).
    pub whole: bool,
    /// The unit after the bounds: `inches`, `minutes`, or nothing.
    pub unit: &'static str,
    /// An example of a good statement, for the help line.
    pub example: &'static str,
    /// The diagnostic code for any value outside the range, when it is not the usual pair.
    pub code: Option<&'static str>,
    /// The help line, when a better one than the example is known.
    pub help: Option<&'static str>,
    /// The rule the bound comes from, cited by the diagnostic.
    pub rule: Option<&'static str>,
}

const fn whole(what: &'static str, min: f64, max: f64, example: &'static str) -> NumberRange {
    NumberRange {
        what,
        min,
        above_min: false,
        max,
        whole: true,
        unit: "",
        example,
        code: None,
        help: None,
        rule: None,
    }
}

const fn inches_above_0(what: &'static str, example: &'static str) -> NumberRange {
    NumberRange {
        what,
        min: 0.0,
        above_min: true,
        max: MAX_INCHES,
        whole: false,
        unit: "inches",
        example,
        code: None,
        help: None,
        rule: None,
    }
}

// ------------------------------------------------------------------ scenario

/// `turns N`: a scenario lasts 6-8 turns by the rulebook's pacing (Ch15 8.0) and a day of
/// 10-minute turns is under 100; the bound is far above both so that the long generated games of
/// the benchmarks and fuzzers (3,500 turns for 100,000 lines, 35,000 for a million) stay valid,
/// and low enough that every clock and count derived from it fits in 32 bits (100,000 turns of
/// the longest turn length, 240 minutes, is 24 million minutes).
pub const TURNS: NumberRange = whole("turns", 1.0, MAX_TURNS, "turns 8");
/// The most turns a scenario may last (see [`TURNS`]).
pub const MAX_TURNS: f64 = 100_000.0;
/// A turn number: `turn 3 union {` in a log, `turn 3` for a reinforcement, the turn of a victory
/// condition; within the longest scenario [`TURNS`] allows.
pub const TURN: NumberRange = whole("a turn number", 1.0, MAX_TURNS, "turn 3");
/// `for N turns` of a held objective.
pub const HOLD_TURNS: NumberRange = whole("the turns an objective is held", 1.0, MAX_TURNS, "for 2 turns");
/// `turn_length N min`: a game turn is 10-15 minutes (Ch15 8.0); up to 4 hours is allowed.
pub const TURN_LENGTH: NumberRange = NumberRange {
    what: "turn_length",
    min: 1.0,
    above_min: false,
    max: 240.0,
    whole: true,
    unit: "minutes",
    example: "turn_length 15 min",
    code: None,
    help: None,
    rule: None,
};
/// `table W x D`, its width, in inches (ground scale Ch15 8.0).
pub const TABLE_WIDTH: NumberRange = inches_above_0("the table's width", "table 72 x 48");
/// `table W x D`, its depth, in inches.
pub const TABLE_DEPTH: NumberRange = inches_above_0("the table's depth", "table 72 x 48");
/// `men_per_stand N`: a stand is 60-75 men (Ch15 8.0, RULE-05-3.3).
pub const MEN_PER_STAND: NumberRange = whole("men_per_stand", 1.0, 1000.0, "men_per_stand 75");
/// A coordinate of a position `(x, y)`, in inches from the south-west corner: within the largest
/// table either way (whether it is on this table is `dotc::off-table`'s business).
pub const COORDINATE: NumberRange = NumberRange {
    what: "a coordinate",
    min: -MAX_INCHES,
    above_min: false,
    max: MAX_INCHES,
    whole: false,
    unit: "inches",
    example: "at (12, 24)",
    code: None,
    help: None,
    rule: None,
};

// ------------------------------------------------------------------ units and brigades

/// `stands N`: a regiment is 5 stands (Ch15 8.0), 3-7 in the odds table (Ch15); 60 is a
/// regiment twelve times the standard one.
pub const STANDS: NumberRange = whole("stands", 1.0, 60.0, "stands 5");
/// `men N`, converted by `men_per_stand`: a regiment was 1,000 men on paper (the field manual,
/// chapter 1).
pub const MEN: NumberRange = whole("men", 1.0, 6000.0, "men 350");
/// `sections N` of a battery: 2 dice a section (Ch16 5.3); a 6-gun battery is 3 sections.
pub const SECTIONS: NumberRange = whole("sections", 1.0, 12.0, "sections 2");
/// `lost N`: stands a unit lost before the scenario (Ch16 8.1, RULE-07-2.2).
pub const LOST: NumberRange =
    NumberRange { rule: Some("RULE-07-2.2"), ..whole("stands lost", 0.0, 60.0, "lost 2") };
/// `losses N`: stands a brigade lost before the scenario (RULE-07-2.2); a brigade's tally table
/// runs to 32 stands.
pub const LOSSES: NumberRange =
    NumberRange { rule: Some("RULE-07-2.2"), ..whole("a brigade's stands lost", 0.0, 600.0, "losses 3") };
/// `wounded N`: light wounds a brigadier carries, each a staff pip less (Ch16 2.4, RULINGS G18).
pub const WOUNDED: NumberRange =
    NumberRange { rule: Some("Ch16 2.4, RULINGS G18"), ..whole("light wounds", 1.0, 10.0, "wounded 1") };

// ------------------------------------------------------------------ terrain

/// `size W x D` of a feature placed `at` a point, in inches.
pub const SIZE: NumberRange = inches_above_0("a feature's size", "size 2 x 1");
/// `level N` of a hill: contour levels above the table, Level 0 the table itself (Ch16 4.4).
pub const LEVEL: NumberRange = whole("level", 0.0, 10.0, "level 1");
/// `capacity N` of a building, in stands: 2 for masonry (Ch16 4.3).
pub const CAPACITY: NumberRange = whole("capacity", 0.0, 60.0, "capacity 2");
/// `vp N` of an objective.
pub const VP: NumberRange = whole("vp", 0.0, 1000.0, "vp 3");
/// `within N`: how near a Color Stand holds an objective, in inches.
pub const WITHIN: NumberRange = inches_above_0("an objective's holding distance", "within 4");

// ------------------------------------------------------------------ victory

/// The staff points a side bids on one category of the pre-game bidding (Ch13 1.0): whole and
/// not negative; that a side's bids add up to its pool is the rules core's check.
pub const BID_POINTS: NumberRange = NumberRange {
    rule: Some("Ch13 1.0"),
    ..whole("staff points bid", 0.0, 1000.0, "bid union scouting 5 march 3 initiative 4 logistics 3")
};

/// `vp SIDE >= N`.
pub const VP_TOTAL: NumberRange = whole("a victory point total", 0.0, 100_000.0, "vp union >= 5");
/// `broken SIDE >= N`: brigades broken.
pub const BROKEN: NumberRange = whole("a count of broken brigades", 0.0, 1000.0, "broken confederate >= 2");

// ------------------------------------------------------------------ game logs and rule data

/// A die face: every die is a d6. Its code is `dotc::impossible-die`, as before these ranges.
pub const DIE: NumberRange = NumberRange {
    what: "a die's face",
    min: 1.0,
    above_min: false,
    max: 6.0,
    whole: true,
    unit: "",
    example: "roll [3, 5]",
    code: Some("dotc::impossible-die"),
    help: Some("every die in Dress on the Colors is a d6: record faces 1 to 6"),
    rule: None,
};
/// A bare number in a log line or a claimed result (`=> hits 2`, a distance): at most the
/// largest table either way.
pub const LOG_NUMBER: NumberRange = NumberRange {
    what: "a number in a log",
    min: -MAX_INCHES,
    above_min: false,
    max: MAX_INCHES,
    whole: false,
    unit: "",
    example: "=> hits 2",
    code: None,
    help: None,
    rule: None,
};
/// A number of a rule-data property; each property bounds its own further (library/read.rs).
pub const PROPERTY: NumberRange = NumberRange {
    what: "a property's number",
    min: -1_000_000.0,
    above_min: false,
    max: 1_000_000.0,
    whole: false,
    unit: "",
    example: "short to 6 hits 3+",
    code: None,
    help: None,
    rule: None,
};

impl NumberRange {
    /// Whether `value` is within the range.
    pub fn admits(&self, value: f64) -> bool {
        value.is_finite()
            && value <= self.max
            && (value > self.min || (!self.above_min && value == self.min))
            && (!self.whole || value.fract() == 0.0)
    }

    /// The range in words: "a whole number from 1 to 60", "a number of inches above 0, at most
    /// 2400".
    pub fn describe(&self) -> String {
        let kind = if self.whole { "a whole number" } else { "a number" };
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        if self.above_min {
            format!("{kind} above {}, at most {}{unit}", self.min, self.max)
        } else {
            format!("{kind} from {} to {}{unit}", self.min, self.max)
        }
    }

    /// Read the number written as `text` at `span` (digits, an optional fraction and sign), or
    /// say why it is not in this range. Nothing is converted before it is known to fit.
    pub fn read(&self, text: &str, span: Span) -> Result<f64, Box<Diagnostic>> {
        let value = parse_decimal(text);
        match value {
            Some(v) if self.admits(v) => Ok(v),
            // Below a range that starts at 0 or above: a value the rules cannot mean. Beyond either
            // end of a range around 0 (a coordinate) it is out of range like any other.
            Some(v) if v.is_finite() && v <= self.max && (v >= self.min || self.min >= 0.0) => {
                let whole_problem = self.whole && v.fract() != 0.0 && v > self.min;
                let (why, label) = if whole_problem {
                    (format!("{text} is not a whole number"), "not a whole number")
                } else {
                    (format!("{text} is too small"), "below the range")
                };
                Err(Box::new(self.diagnostic(self.code.unwrap_or(IMPOSSIBLE_VALUE), span, &why, label)))
            }
            _ => {
                let why = format!("{text} is out of range");
                Err(Box::new(self.diagnostic(self.code.unwrap_or(OUT_OF_RANGE), span, &why, "out of range")))
            }
        }
    }

    /// The diagnostic of a number outside this range, `why` saying how.
    pub fn diagnostic(&self, code: &'static str, span: Span, why: &str, label: &str) -> Diagnostic {
        let help = self.help.map_or_else(|| format!("write e.g. `{}`", self.example), str::to_string);
        let d =
            Diagnostic::error(code, format!("{} must be {}; {why}", self.what, self.describe()), span, label)
                .with_help(help);
        match self.rule {
            Some(rule) => d.with_rule(rule),
            None => d,
        }
    }
}

/// `seed N`: any whole number a u64 holds, 0 to 18446744073709551615.
pub fn read_seed(text: &str, span: Span) -> Result<u64, Box<Diagnostic>> {
    let digits = text.trim_start_matches('+');
    match digits.parse::<u64>() {
        Ok(seed) => Ok(seed),
        Err(_) => {
            let fraction = digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') && digits.contains('.');
            let (code, why, label) =
                if fraction && digits.split('.').next().is_some_and(|w| w.parse::<u64>().is_ok()) {
                    (IMPOSSIBLE_VALUE, format!("{text} is not a whole number"), "not a whole number")
                } else {
                    (OUT_OF_RANGE, format!("{text} is out of range"), "out of range")
                };
            Err(Box::new(
                Diagnostic::error(
                    code,
                    format!("seed must be a whole number from 0 to {}; {why}", u64::MAX),
                    span,
                    label,
                )
                .with_help("write e.g. `seed 1863`"),
            ))
        }
    }
}

/// A decimal as the grammar writes it (`-`/`+`, digits, an optional fraction), as an `f64`:
/// infinite when it is too long for one, which no range admits. None for anything else.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let mut parts = unsigned.splitn(2, '.');
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return None;
    }
    // Rust parses any length of digits, giving infinity past f64::MAX; a leading `+` it takes too.
    text.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(range: &NumberRange, text: &str) -> Option<&'static str> {
        range.read(text, Span::new(0, text.len())).err().map(|d| d.code)
    }

    #[test]
    fn numbers_within_their_range_are_read() {
        assert_eq!(STANDS.read("5", Span::default()).ok(), Some(5.0));
        assert_eq!(STANDS.read("60", Span::default()).ok(), Some(60.0));
        assert_eq!(TABLE_WIDTH.read("48.5", Span::default()).ok(), Some(48.5));
        assert_eq!(COORDINATE.read("-2400", Span::default()).ok(), Some(-2400.0));
        assert_eq!(LOST.read("0", Span::default()).ok(), Some(0.0));
    }

    #[test]
    fn each_side_of_a_range_has_its_code() {
        assert_eq!(code(&STANDS, "61"), Some(OUT_OF_RANGE));
        assert_eq!(code(&STANDS, "99999999999999999999"), Some(OUT_OF_RANGE));
        assert_eq!(code(&SIZE, &format!("1{}", "0".repeat(400))), Some(OUT_OF_RANGE));
        assert_eq!(code(&STANDS, "0"), Some(IMPOSSIBLE_VALUE));
        assert_eq!(code(&STANDS, "2.5"), Some(IMPOSSIBLE_VALUE));
        assert_eq!(code(&TABLE_WIDTH, "0"), Some(IMPOSSIBLE_VALUE));
        assert_eq!(code(&COORDINATE, "-2400.5"), Some(OUT_OF_RANGE));
        assert_eq!(code(&COORDINATE, "-1.5"), None);
        assert_eq!(code(&DIE, "7"), Some("dotc::impossible-die"));
        assert_eq!(code(&DIE, "-99999999999999999999"), Some("dotc::impossible-die"));
    }

    #[test]
    fn the_message_names_the_range_and_the_number_as_written() {
        let d = STANDS.read("99999999999999999999", Span::new(3, 23)).unwrap_err();
        assert_eq!(
            d.message,
            "stands must be a whole number from 1 to 60; 99999999999999999999 is out of range"
        );
        assert_eq!(d.primary.span, Span::new(3, 23));
        let d = TABLE_WIDTH.read("0", Span::default()).unwrap_err();
        assert_eq!(
            d.message,
            "the table's width must be a number above 0, at most 2400 inches; 0 is too small"
        );
    }

    #[test]
    fn seeds_take_every_u64_and_nothing_more() {
        assert_eq!(read_seed("18446744073709551615", Span::default()).ok(), Some(u64::MAX));
        let d = read_seed("18446744073709551616", Span::default()).unwrap_err();
        assert_eq!(d.code, OUT_OF_RANGE);
        assert_eq!(read_seed("7.5", Span::default()).unwrap_err().code, IMPOSSIBLE_VALUE);
    }
}
