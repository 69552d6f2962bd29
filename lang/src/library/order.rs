//! Special orders and free maneuvers (Ch16 2.3).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// The Defensive Reactions of Ch16 6.0 that orders and traits refer to.
    pub enum Reaction {
        ClosingVolley = "closing_volley",
        OpportunityFire = "opportunity_fire",
        SkirmishEvade = "skirmish_evade",
        RefuseFlank = "refuse_flank",
        CounterCharge = "counter_charge",
    }
}

pub const ORDER_PROPS: &[PropSpec] = &[
    req("phase", "phase <n> [, <n>]", "The phase(s) the order is given in (Ch16 1.0, 2.3)."),
    opt("resolved_in", "resolved_in <n>", "The phase it takes effect in, if later (RULINGS C18)."),
    PropSpec {
        key: "pips",
        usage: "pips <count> [within <inches> | beyond <inches> | per regiment|brigade]",
        doc: "Its price in staff pips, by distance where it varies (Ch16 2.3).",
        required: true,
        repeatable: true,
    },
    opt("min_regiments", "min_regiments <count>", "Least regiments it must involve."),
    opt("max_regiments", "max_regiments <count>", "Most regiments it may involve."),
    opt("max_sections", "max_sections <count>", "Most artillery sections it may combine."),
    opt("adjacent_within", "adjacent_within <inches>", "Greatest lateral gap between the regiments."),
    opt("charge", "charge <inches>", "Charge distance."),
    opt("move_bonus", "move_bonus <inches>", "Extra movement it grants."),
    opt("target_save", "target_save <+n|-n>", "Modifier to the target's cover saves."),
    opt("removes_disorder", "removes_disorder <count>", "Disorder markers it removes with no roll."),
    opt("banks", "banks <count> [for <reaction>, ...]", "Pips reserved for reactions in the enemy turn."),
    opt("formations", "formations <formation id>, ...", "Formations it may be given to."),
    opt("max_wheel", "max_wheel <degrees>", "Largest wheel it allows."),
    opt(
        "interruption",
        "interruption <inches>",
        "Distance from the target at which the charge pauses for the Closing Volley (Ch16 7.2).",
    ),
    opt(
        "stall",
        "stall <inches>",
        "Distance from the target at which a charger that fails its check stops (Ch16 7.2, RULINGS G10).",
    ),
];

/// `banks 1 for refuse_flank, counter_charge`
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Banks {
    pub pips: u32,
    pub reactions: Vec<Reaction>,
}

/// A special order or free maneuver (Ch16 2.3).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Order {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub phases: Vec<u32>,
    /// RULINGS C18: concentrated battery fire is paid in Phase 1, resolved in Phase 3.
    pub resolved_in: Option<u32>,
    pub pips: Vec<PipCost>,
    pub min_regiments: Option<u32>,
    pub max_regiments: Option<u32>,
    pub max_sections: Option<u32>,
    pub adjacent_within: Option<f64>,
    pub charge: Option<f64>,
    pub move_bonus: Option<f64>,
    pub target_save: i32,
    pub removes_disorder: u32,
    pub banks: Option<Banks>,
    pub formations: Vec<String>,
    pub max_wheel: Option<u32>,
    /// Ch16 7.2: the charge pauses this far from the target for the Closing Volley.
    pub interruption: Option<f64>,
    /// Ch16 7.2, RULINGS G10: a charger failing its check is placed this far from the target.
    pub stall: Option<f64>,
}

impl Order {
    /// Its pip price at tiers 1-2 for a unit `distance` inches from the brigadier (the first
    /// matching line; a line with no condition always matches).
    pub fn pip_cost(&self, distance: f64) -> Option<u32> {
        self.pips
            .iter()
            .find(|p| match p.condition {
                PipCondition::Always | PipCondition::Per(_) => true,
                PipCondition::Within(d) => distance <= d,
                PipCondition::Beyond(d) => distance > d,
            })
            .map(|p| p.pips)
    }
}

pub(super) fn read_order(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Order {
    let formations = r.read("formations", |c| c.ids("a formation id", None)).unwrap_or_default();
    for f in &formations {
        r.refer(EntryKind::Formation, f);
    }
    // Ch16 7.2: a stalled charger stops short of the line where the charge paused.
    let interruption = r.read("interruption", |c| c.inches());
    let stall = r.read("stall", |c| c.inches());
    if let (Some(line), Some(short), Some(prop)) = (interruption, stall, r.first("stall")) {
        if short >= line {
            r.inconsistent(
                prop.span,
                "stall",
                &format!(
                    "a charger stalls short of the {}\" interruption line, not {}\" away",
                    fmt_num(line),
                    fmt_num(short)
                ),
                "make `stall` less than `interruption`",
            );
        }
    }
    Order {
        meta,
        phases: r
            .read("phase", |c| {
                let mut phases = Vec::new();
                loop {
                    let at = c.peek().map(|v| v.span).unwrap_or_default();
                    let phase = c.count("a phase number")?;
                    if !(1..=5).contains(&phase) {
                        return Err(Problem::new(at, "phases are numbered 1 to 5 (Ch16 1.0)"));
                    }
                    phases.push(phase);
                    if c.at_end() {
                        return Ok(phases);
                    }
                }
            })
            .unwrap_or_default(),
        resolved_in: r.read("resolved_in", |c| c.count("a phase number")),
        pips: r.read_all("pips", read_pip_cost),
        min_regiments: r.read("min_regiments", |c| c.count("a number of regiments")),
        max_regiments: r.read("max_regiments", |c| c.count("a number of regiments")),
        max_sections: r.read("max_sections", |c| c.count("a number of sections")),
        adjacent_within: r.read("adjacent_within", |c| c.inches()),
        charge: r.read("charge", |c| c.inches()),
        move_bonus: r.read("move_bonus", |c| c.inches()),
        target_save: r.read("target_save", |c| c.modifier()).unwrap_or(0),
        removes_disorder: r.read("removes_disorder", |c| c.count("a number of markers")).unwrap_or(0),
        banks: r.read("banks", |c| {
            let pips = c.count("a number of pips")?;
            let reactions = if c.eat("for") { c.choices::<Reaction>()? } else { Vec::new() };
            Ok(Banks { pips, reactions })
        }),
        formations: formations.into_iter().map(|f| f.value).collect(),
        max_wheel: r.read("max_wheel", |c| c.count("an angle in degrees")),
        interruption,
        stall,
    }
}

impl Describe for Order {
    fn parts(&self) -> Vec<String> {
        let phases: Vec<String> = self.phases.iter().map(u32::to_string).collect();
        let mut parts = vec![format!("phase {}", phases.join(" or "))];
        if let Some(p) = self.resolved_in {
            parts.push(format!("resolved in phase {p}"));
        }
        let pips: Vec<String> = self.pips.iter().map(fmt_pips).collect();
        parts.push(pips.join(", "));
        if let Some(n) = self.min_regiments {
            parts.push(format!("at least {}", plural(n, "regiment")));
        }
        if let Some(n) = self.max_regiments {
            parts.push(format!("at most {}", plural(n, "regiment")));
        }
        if let Some(d) = self.adjacent_within {
            parts.push(format!("side by side within {}\"", fmt_num(d)));
        }
        if let Some(d) = self.charge {
            parts.push(format!("charge {}\"", fmt_num(d)));
        }
        if let Some(d) = self.move_bonus {
            parts.push(format!("+{}\" move", fmt_num(d)));
        }
        if let Some(n) = self.max_sections {
            parts.push(format!("up to {}", plural(n, "section")));
        }
        if self.target_save != 0 {
            parts.push(format!("target saves {}", fmt_mod(self.target_save)));
        }
        if self.removes_disorder > 0 {
            parts.push(format!("removes {} Disorder", self.removes_disorder));
        }
        if let Some(banks) = &self.banks {
            let reactions: Vec<String> = banks.reactions.iter().map(|r| r.word().replace('_', " ")).collect();
            parts.push(format!("banks {} for {}", plural(banks.pips, "pip"), reactions.join(" or ")));
        }
        if let Some(d) = self.max_wheel {
            parts.push(format!("wheel up to {d} degrees"));
        }
        if let Some(d) = self.interruption {
            parts.push(format!("pauses {}\" from the target for the Closing Volley", fmt_num(d)));
        }
        if let Some(d) = self.stall {
            parts.push(format!("a failed charger stops {}\" away", fmt_num(d)));
        }
        parts
    }
}
