//! Ground conditions of the weather module (Ch13 21.0): what soft ground or deep mud takes off
//! a move, and what it costs a battery to unlimber.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const GROUND_PROPS: &[PropSpec] = &[
    many("penalty", "penalty <inches> <arm>, ...", "Inches off every move of the arms named (Ch13 21.0)."),
    opt("unlimber_pips", "unlimber_pips <count>", "Staff pips a battery pays to unlimber."),
    opt(
        "artillery_range",
        "artillery_range <-n>",
        "Inches taken off every gun's maximum range while it lasts (Ch13 21.0).",
    ),
];

/// Inches off a move, for some arms.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GroundPenalty {
    pub inches: f64,
    pub arms: Vec<Arm>,
}

/// A ground condition (Ch13 21.0); the id is the word a file's `weather ground` gives.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct GroundCondition {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub penalties: Vec<GroundPenalty>,
    pub unlimber_pips: Option<u32>,
    /// Inches added to every gun's maximum range (Ch13 21.0: soft ground's -6).
    pub artillery_range: i32,
}

impl GroundCondition {
    /// Inches it takes off a move by `arm` (the first line naming the arm).
    pub fn penalty(&self, arm: Arm) -> f64 {
        self.penalties.iter().find(|p| p.arms.contains(&arm)).map_or(0.0, |p| p.inches)
    }
}

pub(super) fn read_ground(r: &mut Reader<'_, '_>, meta: EntryMeta) -> GroundCondition {
    let penalties = r.read_all("penalty", |c| {
        let inches = c.inches()?;
        Ok(GroundPenalty { inches, arms: c.choices::<Arm>()? })
    });
    GroundCondition {
        meta,
        penalties,
        unlimber_pips: r.read("unlimber_pips", |c| c.count("a number of pips")),
        artillery_range: r.read("artillery_range", |c| c.modifier()).unwrap_or(0),
    }
}

impl Describe for GroundCondition {
    fn parts(&self) -> Vec<String> {
        let mut parts: Vec<String> = self
            .penalties
            .iter()
            .map(|p| {
                let arms: Vec<&str> = p.arms.iter().map(|a| a.word()).collect();
                format!("{} -{}\"", arms.join(", "), fmt_num(p.inches))
            })
            .collect();
        if let Some(n) = self.unlimber_pips {
            parts.push(format!("unlimbering costs {}", plural(n, "pip")));
        }
        if self.artillery_range != 0 {
            parts.push(format!("artillery range {}\"", fmt_mod(self.artillery_range)));
        }
        if parts.is_empty() {
            parts.push(String::from("standard movement"));
        }
        parts
    }
}
