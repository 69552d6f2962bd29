//! Brigadier promotion and officer casualties between a campaign's battles (Ch14 4.0): the roll
//! that promotes a brigadier, the ladder of ratings he climbs, how long a severely wounded one is
//! out and who commands meanwhile, and the rating of a new brigadier after one is killed.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const STAFF_PROPS: &[PropSpec] = &[
    req(
        "promotion",
        "promotion <target>",
        "The roll from which a brigadier who earned it rises one rating tier (Ch14 4.0).",
    ),
    req(
        "ladder",
        "ladder <rating id> <rating id> ...",
        "The rating tiers from lowest to highest: a promotion climbs one (Ch14 4.0).",
    ),
    req(
        "out",
        "out d<sides>",
        "The die of campaign battles a severely wounded brigadier misses: `d3`, read off a d6 (Ch14 4.0, RULINGS G2).",
    ),
    req(
        "stand_in",
        "stand_in <rating id>",
        "The rating of the senior colonel who commands while the brigadier is out (Ch14 4.0).",
    ),
    many(
        "successor",
        "successor <rating id> <1-6> to <1-6>",
        "The rating of a new brigadier after one is killed, by the d6 rolled (Ch14 4.0, RULINGS C9).",
    ),
];

/// The staff rules of a campaign (Ch14 4.0); the stdlib's id is `officers`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Staff {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub promotion: Option<u32>,
    /// Rating ids, lowest first.
    pub ladder: Vec<String>,
    /// The sides of the die of battles missed (3: a d3 read off a d6).
    pub out: Option<u32>,
    pub stand_in: Option<String>,
    /// A new brigadier's rating id and the d6 rolls that give it (both included).
    pub successors: Vec<(String, (u32, u32))>,
}

impl Staff {
    /// The new brigadier's rating for a d6 roll (Ch14 4.0).
    pub fn successor(&self, roll: u32) -> Option<&str> {
        self.successors
            .iter()
            .find(|(_, (low, high))| (*low..=*high).contains(&roll))
            .map(|(r, _)| r.as_str())
    }

    /// The tier above `rating` on the ladder; None at the top or off it.
    pub fn above(&self, rating: &str) -> Option<&str> {
        let at = self.ladder.iter().position(|r| r == rating)?;
        self.ladder.get(at + 1).map(String::as_str)
    }
}

/// A die word, `d3`: its sides.
pub(super) fn die_sides(c: &mut Cursor<'_>) -> Result<u32, Problem> {
    let word = c.word("a die such as `d3`")?;
    word.value
        .strip_prefix('d')
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| [3, 6].contains(n))
        .ok_or_else(|| Problem::new(word.span, format!("expected `d3` or `d6`, found `{}`", word.value)))
}

pub(super) fn read_staff(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Staff {
    let promotion = r.read("promotion", |c| c.target());
    let ladder = r.read("ladder", |c| c.ids("a rating id", None)).unwrap_or_default();
    for rating in &ladder {
        r.refer(EntryKind::Rating, rating);
    }
    let out = r.read("out", die_sides);
    let stand_in = r.read("stand_in", |c| c.word("a rating id"));
    if let Some(rating) = &stand_in {
        r.refer(EntryKind::Rating, rating);
    }
    let successors = r.read_all("successor", |c| {
        let rating = c.word("a rating id")?;
        let low = c.face()?;
        c.keyword("to")?;
        let high = c.face()?;
        if high < low {
            return Err(Problem::new(rating.span, format!("a run of rolls goes upward: `{high} to {low}`")));
        }
        Ok((rating, (low, high)))
    });
    for (rating, _) in &successors {
        r.refer(EntryKind::Rating, rating);
    }
    Staff {
        meta,
        promotion,
        ladder: ladder.into_iter().map(|r| r.value).collect(),
        out,
        stand_in: stand_in.map(|r| r.value),
        successors: successors.into_iter().map(|(r, rolls)| (r.value, rolls)).collect(),
    }
}

impl Describe for Staff {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(t) = self.promotion {
            parts.push(format!("promoted on {t}+"));
        }
        if !self.ladder.is_empty() {
            parts.push(self.ladder.join(" -> "));
        }
        if let Some(d) = self.out {
            parts.push(format!("severely wounded: out 1D{d} battles"));
        }
        if let Some(s) = &self.stand_in {
            parts.push(format!("a {s} colonel meanwhile"));
        }
        for (rating, (low, high)) in &self.successors {
            parts.push(format!("killed: {low}-{high} a {rating} successor"));
        }
        if parts.is_empty() {
            parts.push(String::from("staff and officers"));
        }
        parts
    }
}
