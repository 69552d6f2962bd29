//! Melee outcomes (Ch16 7.4, 10.1).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const MELEE_RESULT_PROPS: &[PropSpec] = &[
    flag("cavalry", "The outcome of a melee between two cavalry units (Ch16 10.1)."),
    opt("margin", "margin <count>", "The least winning margin the outcome needs (Ch16 7.4)."),
    flag("fresh_only", "Only a Fresh unit gets it (Ch16 7.4, 8.1)."),
    flag("enemy_removed", "Only once the beaten enemy is routed or destroyed (RULINGS G14)."),
    opt("stands", "stands <count>", "Stands the unit loses."),
    opt("micro_hits", "micro_hits <count>", "Micro-hits the unit takes (RULE-05-3.3)."),
    flag("disorder", "The unit takes a Disorder marker; a second becomes a micro-hit (RULINGS C1)."),
    opt("retreat", "retreat <inches>", "Inches the unit falls back, straight to its rear."),
    flag("locked", "Both units stay in contact."),
    opt(
        "consolidate",
        "consolidate <inches>",
        "A free move of up to this many inches: advance, pivot up to 45 degrees or dress ranks.",
    ),
    opt("pips", "pips <count>", "Extra staff pips it costs."),
    opt("sweep", "sweep <inches>", "A sweeping advance of this many inches against another enemy unit."),
];

/// A melee outcome (Ch16 7.4; cavalry against cavalry Ch16 10.1).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct MeleeResult {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Only between two cavalry units (Ch16 10.1).
    pub cavalry: bool,
    /// The least winning margin it needs (Breakthrough: 4).
    pub margin: Option<u32>,
    /// Only for a Fresh unit.
    pub fresh_only: bool,
    /// Only once the beaten enemy is routed or destroyed (RULINGS G14).
    pub enemy_removed: bool,
    /// Stands lost.
    pub stands: u32,
    pub micro_hits: u32,
    /// A Disorder marker (a Disordered loser takes a micro-hit instead, RULINGS C1).
    pub disorder: bool,
    /// Inches fallen back, straight to the rear.
    pub retreat: Option<f64>,
    /// Both units stay in contact (Bloody Draw).
    pub locked: bool,
    /// A free move of up to this many inches.
    pub consolidate: Option<f64>,
    /// Extra staff pips it costs.
    pub pips: u32,
    /// A sweeping advance of this many inches.
    pub sweep: Option<f64>,
}

pub(super) fn read_melee_result(r: &mut Reader<'_, '_>, meta: EntryMeta) -> MeleeResult {
    let result = MeleeResult {
        meta,
        cavalry: r.flag("cavalry"),
        margin: r.read("margin", |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let margin = c.count("a winning margin")?;
            if margin == 0 { Err(Problem::new(at, "a winning margin is at least 1")) } else { Ok(margin) }
        }),
        fresh_only: r.flag("fresh_only"),
        enemy_removed: r.flag("enemy_removed"),
        stands: r.read("stands", |c| c.count("a number of stands")).unwrap_or(0),
        micro_hits: r.read("micro_hits", |c| c.count("a number of micro-hits")).unwrap_or(0),
        disorder: r.flag("disorder"),
        retreat: r.read("retreat", |c| c.inches()),
        locked: r.flag("locked"),
        consolidate: r.read("consolidate", |c| c.inches()),
        pips: r.read("pips", |c| c.count("a number of pips")).unwrap_or(0),
        sweep: r.read("sweep", |c| c.inches()),
    };
    if let (Some(_), Some(prop)) = (result.retreat, r.first("locked")) {
        r.inconsistent(
            prop.span,
            "locked",
            "a unit cannot both stay in contact and retreat",
            "keep `locked` or `retreat`, not both",
        );
    }
    result
}

impl Describe for MeleeResult {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if self.cavalry {
            parts.push(String::from("between two cavalry units"));
        }
        if let Some(m) = self.margin {
            parts.push(format!("won by {m} or more"));
        }
        if self.fresh_only {
            parts.push(String::from("Fresh units only"));
        }
        if self.enemy_removed {
            parts.push(String::from("the enemy routed or destroyed"));
        }
        if self.stands > 0 {
            parts.push(format!("loses {}", plural(self.stands, "stand")));
        }
        if self.micro_hits > 0 {
            parts.push(plural(self.micro_hits, "micro-hit"));
        }
        if let Some(d) = self.retreat {
            parts.push(format!("retreats {}\"", fmt_num(d)));
        }
        if self.disorder {
            parts.push(String::from("disordered"));
        }
        if self.locked {
            parts.push(String::from("stays in contact"));
        }
        if let Some(d) = self.consolidate {
            parts.push(format!("may consolidate {}\"", fmt_num(d)));
        }
        if self.pips > 0 {
            parts.push(format!("costs {}", plural(self.pips, "pip")));
        }
        if let Some(d) = self.sweep {
            parts.push(format!("sweeps {}\" on", fmt_num(d)));
        }
        if parts.is_empty() {
            parts.push(String::from("no effect"));
        }
        parts
    }
}
