//! Rows of the leader casualty table (Ch16 2.4, RULINGS C9).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const LEADER_RESULT_PROPS: &[PropSpec] = &[
    req(
        "roll",
        "roll <1-6> [to <1-6>]",
        "The d6 roll, or the run of rolls, that gives this result (Ch16 2.4).",
    ),
    opt(
        "pips",
        "pips <+n|-n>",
        "Change to the brigadier's pips on every later turn; light wounds add up (RULINGS G18).",
    ),
    flag("removed", "The leader's stand is taken off the table."),
    opt(
        "replacement",
        "replacement <rating id>",
        "The rating of the colonel who takes over the brigade (RULINGS C9, G18).",
    ),
    flag("permanent", "The loss is for good: the replacement keeps that rating to the end."),
    flag("disorders_unit", "The regiment the leader was with takes a Disorder marker."),
    flag("loses_unspent_pips", "The brigade loses its unspent pips this turn."),
];

/// A row of the leader casualty table (Ch16 2.4; RULINGS C9 takes it over Ch7 4.0).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct LeaderResult {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// The d6 rolls that give it, least and most (both included); (0, 0) if unreadable.
    pub rolls: (u32, u32),
    /// Change to the brigadier's pips on every later turn (RULINGS G18: wounds add up).
    pub pips: i32,
    pub removed: bool,
    pub disorders_unit: bool,
    pub loses_unspent_pips: bool,
    /// The replacement keeps its rating for good.
    pub permanent: bool,
    /// The rating id of the colonel who takes over (RULINGS G18: next Phase 1).
    pub replacement: Option<String>,
}

impl LeaderResult {
    /// Whether a d6 roll of `roll` gives this result.
    pub fn covers(&self, roll: u32) -> bool {
        (self.rolls.0..=self.rolls.1).contains(&roll) && roll > 0
    }
}

pub(super) fn read_leader_result(r: &mut Reader<'_, '_>, meta: EntryMeta) -> LeaderResult {
    let rolls = r
        .read("roll", |c| {
            let low = c.face()?;
            if !c.eat("to") {
                return Ok((low, low));
            }
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let high = c.face()?;
            if high < low {
                return Err(Problem::new(at, format!("a run of rolls goes upward: `{high} to {low}`")));
            }
            Ok((low, high))
        })
        .unwrap_or((0, 0));
    let replacement = r.read("replacement", |c| c.word("a rating id"));
    if let Some(rating) = &replacement {
        r.refer(EntryKind::Rating, rating);
    }
    let removed = r.flag("removed");
    if let (Some(prop), false) = (r.first("replacement"), removed) {
        r.inconsistent(
            prop.span,
            "replacement",
            "a colonel takes over only from a leader who is removed",
            "add `removed`, or leave out `replacement`",
        );
    }
    LeaderResult {
        meta,
        rolls,
        pips: r.read("pips", |c| c.modifier()).unwrap_or(0),
        removed,
        disorders_unit: r.flag("disorders_unit"),
        loses_unspent_pips: r.flag("loses_unspent_pips"),
        permanent: r.flag("permanent"),
        replacement: replacement.map(|w| w.value),
    }
}

impl Describe for LeaderResult {
    fn parts(&self) -> Vec<String> {
        let (low, high) = self.rolls;
        let mut parts = vec![if low == high {
            format!("on a roll of {low}")
        } else {
            format!("on a roll of {low}-{high}")
        }];
        if self.pips != 0 {
            parts.push(format!("{} every later turn", plural_signed(self.pips, "pip")));
        }
        if self.removed {
            parts.push(String::from("leader removed"));
        }
        if let Some(rating) = &self.replacement {
            let kept = if self.permanent { " for good" } else { "" };
            parts.push(format!("a {rating} colonel takes over{kept}"));
        }
        if self.disorders_unit {
            parts.push(String::from("the regiment is disordered"));
        }
        if self.loses_unspent_pips {
            parts.push(String::from("unspent pips lost"));
        }
        if parts.len() == 1 {
            parts.push(String::from("no effect"));
        }
        parts
    }
}
