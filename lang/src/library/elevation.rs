//! Elevation (Ch16 4.4): how far behind a crest a unit is out of sight from below.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const ELEVATION_PROPS: &[PropSpec] = &[opt(
    "dead_ground",
    "dead_ground <inches>",
    "Units farther than this behind the crest are hidden from the foot of the hill (Ch16 4.4).",
)];

/// A feature of the high ground (Ch16 4.4): `crest`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Elevation {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Inches behind the crest line.
    pub dead_ground: Option<f64>,
}

pub(super) fn read_elevation(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Elevation {
    Elevation { meta, dead_ground: r.read("dead_ground", |c| c.inches()) }
}

impl Describe for Elevation {
    fn parts(&self) -> Vec<String> {
        match self.dead_ground {
            Some(d) => vec![format!("dead ground more than {}\" behind the crest", fmt_num(d))],
            None => vec![String::from("elevation")],
        }
    }
}
