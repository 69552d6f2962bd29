//! The scale of the table (Ch15 8.0, Ch16 3.2): how wide a stand is and how many yards
//! an inch stands for.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const SCALE_PROPS: &[PropSpec] = &[
    req(
        "stand_width",
        "stand_width <inches>",
        "The frontage of one stand: a line of five is five stands wide (Ch15 8.0, Ch16 3.2).",
    ),
    req(
        "yards_per_inch",
        "yards_per_inch <yards>",
        "The ground scale: yards of ground one inch of table stands for (Ch15 8.0).",
    ),
];

/// The scale of the table; the stdlib's id is `table`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Scale {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Inches.
    pub stand_width: Option<f64>,
    pub yards_per_inch: Option<f64>,
}

pub(super) fn read_scale(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Scale {
    Scale {
        meta,
        stand_width: r.read("stand_width", |c| c.inches()),
        yards_per_inch: r.read("yards_per_inch", |c| c.count("a number of yards").map(f64::from)),
    }
}

impl Describe for Scale {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(w) = self.stand_width {
            parts.push(format!("stands {}\" wide", fmt_num(w)));
        }
        if let Some(y) = self.yards_per_inch {
            parts.push(format!("1\" = {} yards", fmt_num(y)));
        }
        if parts.is_empty() {
            parts.push(String::from("scale"));
        }
        parts
    }
}
