//! Commanders above the brigade (Ch16 2.1, RULE-07-4.1): the bonus pip a division or corps
//! commander gives a brigadier near him, and the base he stands on.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const COMMANDER_PROPS: &[PropSpec] = &[
    opt("bonus_pips", "bonus_pips <count>", "Pips he may give one brigadier once a turn."),
    opt("within", "within <inches>", "How far from him that brigadier may be."),
    opt("base", "base <inches>", "The side of his square base (RULE-07-4.1)."),
];

/// A commander above the brigade; the id is the level a scenario's `commander` gives
/// (`division`, `corps`).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Commander {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub bonus_pips: Option<u32>,
    /// Inches.
    pub within: Option<f64>,
    /// The side of his square base, inches.
    pub base: Option<f64>,
}

pub(super) fn read_commander(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Commander {
    Commander {
        meta,
        bonus_pips: r.read("bonus_pips", |c| c.count("a number of pips")),
        within: r.read("within", |c| c.inches()),
        base: r.read("base", |c| c.inches()),
    }
}

impl Describe for Commander {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(n) = self.bonus_pips {
            parts.push(format!("+{} a turn to one brigadier", plural(n, "pip")));
        }
        if let Some(d) = self.within {
            parts.push(format!("within {}\"", fmt_num(d)));
        }
        if let Some(b) = self.base {
            parts.push(format!("on a {}\" square base", fmt_num(b)));
        }
        if parts.is_empty() {
            parts.push(String::from("commander"));
        }
        parts
    }
}
