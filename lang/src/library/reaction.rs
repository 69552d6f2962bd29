//! Defensive reactions (Ch16 6.0): how near the enemy must come, how far the reacting unit goes,
//! and the check that stands in for a reserved pip.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const REACTION_PROPS: &[PropSpec] = &[
    opt("within", "within <inches>", "How near the enemy's move or charge must come to trigger it."),
    opt("move", "move <inches> to <inches>", "How far the reacting unit goes, least and most."),
    opt("check", "check <n>+", "The Discipline check taken when no pip was reserved for it."),
];

/// A defensive reaction (Ch16 6.0). The id is one of the reaction words orders and traits use
/// (`opportunity_fire`, `skirmish_evade`, `refuse_flank`, `counter_charge`).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct ReactionRule {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Inches: the trigger distance.
    pub within: Option<f64>,
    /// Inches, least and most.
    pub moves: Option<(f64, f64)>,
    /// The Discipline check's target (`check 4+`).
    pub check: Option<u32>,
}

pub(super) fn read_reaction(r: &mut Reader<'_, '_>, meta: EntryMeta) -> ReactionRule {
    let within = r.read("within", |c| c.inches());
    let move_prop = r.first("move");
    let moves = r.read("move", |c| {
        let least = c.inches()?;
        c.keyword("to")?;
        Ok((least, c.inches()?))
    });
    if let (Some((least, most)), Some(prop)) = (moves, move_prop) {
        if least > most {
            r.inconsistent(
                prop.span,
                "move",
                &format!("{}\" is more than {}\"", fmt_num(least), fmt_num(most)),
                "write the shorter distance first",
            );
        }
    }
    ReactionRule { meta, within, moves, check: r.read("check", |c| c.target()) }
}

impl Describe for ReactionRule {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(d) = self.within {
            parts.push(format!("triggered within {}\"", fmt_num(d)));
        }
        if let Some((least, most)) = self.moves {
            parts.push(format!("moves {}\"-{}\"", fmt_num(least), fmt_num(most)));
        }
        if let Some(check) = self.check {
            parts.push(format!("Discipline check {check}+ without a reserved pip"));
        }
        if parts.is_empty() {
            parts.push(String::from("reaction"));
        }
        parts
    }
}
