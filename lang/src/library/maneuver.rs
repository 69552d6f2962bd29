//! Set moves: the special movement of Ch16 3.3 and the other moves the rules fix in inches or
//! in movement spent (dismounting, Ch16 10.2; falling back after a failed check, RULE-07-1.5;
//! the frenzied pursuit of Ch13 12.0; the horse holders' place, Ch16 10.2).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const MANEUVER_PROPS: &[PropSpec] = &[
    opt(
        "distance",
        "distance <inches> [to <inches>]",
        "How far the unit goes (at most, or between the two), in inches.",
    ),
    opt("cost", "cost half|all|<inches>", "The movement it uses up."),
    opt("check", "check <n>+", "The Discipline check it takes (RULE-07-1.1)."),
    opt(
        "within",
        "within <inches>",
        "With a check, how near an enemy in sight makes the move need it (Ch13 13.0); without, how near \
         the unit must stay (the horse holders to their line, Ch13 6.0).",
    ),
    opt(
        "spotting",
        "spotting <inches>",
        "How near an enemy unit or blind unmasks a blind (Ch13 4.0, visual spotting range).",
    ),
    opt(
        "staff_points",
        "staff_points <count>",
        "The pool of staff points each side splits across the pre-game bids (Ch13 1.0).",
    ),
];

/// A set move: how far it goes, what it costs, the check it takes.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Maneuver {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Inches: the most, or the least and the most (`distance 2 to 3`).
    pub distance: Option<(f64, f64)>,
    pub cost: Option<Cost>,
    /// The Discipline check's target (`check 4+`).
    pub check: Option<u32>,
    /// Inches: an enemy in sight this near makes the move need its check (`within 12`, Ch13 13.0).
    pub within: Option<f64>,
    /// The staff points each side bids with before the game (`staff_points 15`, Ch13 1.0): kept
    /// on the Scouting move, the first category of the bidding.
    #[serde(default)]
    pub staff_points: Option<u32>,
    /// Inches: an enemy unit or blind this near unmasks a blind (`spotting 12`, Ch13 4.0).
    #[serde(default)]
    pub spotting: Option<f64>,
}

impl Maneuver {
    /// The farthest it goes, in inches.
    pub fn most(&self) -> Option<f64> {
        self.distance.map(|(_, most)| most)
    }
}

pub(super) fn read_maneuver(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Maneuver {
    let distance_prop = r.first("distance");
    let distance = r.read("distance", |c| {
        let first = c.inches()?;
        if c.eat("to") { Ok((first, c.inches()?)) } else { Ok((first, first)) }
    });
    if let (Some((least, most)), Some(prop)) = (distance, distance_prop) {
        if least > most {
            r.inconsistent(
                prop.span,
                "distance",
                &format!("{}\" is more than {}\"", fmt_num(least), fmt_num(most)),
                "write the shorter distance first",
            );
        }
    }
    Maneuver {
        meta,
        distance,
        cost: r.read("cost", read_cost),
        check: r.read("check", |c| c.target()),
        within: r.read("within", |c| c.inches()),
        staff_points: r.read("staff_points", |c| c.count("a number of staff points")),
        spotting: r.read("spotting", |c| c.inches()),
    }
}

impl Describe for Maneuver {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        match self.distance {
            Some((least, most)) if least < most => {
                parts.push(format!("{}\"-{}\"", fmt_num(least), fmt_num(most)))
            }
            Some((_, most)) => parts.push(format!("{}\"", fmt_num(most))),
            None => {}
        }
        if let Some(cost) = &self.cost {
            parts.push(format!("costs {}", fmt_cost(cost)));
        }
        if let Some(check) = self.check {
            parts.push(format!("Discipline check {check}+"));
        }
        match (self.within, self.check) {
            (Some(within), Some(_)) => {
                parts.push(format!("with an enemy in sight within {}\"", fmt_num(within)))
            }
            (Some(within), None) if self.spotting.is_some() => {
                parts.push(format!("units revealed within {}\" of it", fmt_num(within)))
            }
            (Some(within), None) => parts.push(format!("kept within {}\"", fmt_num(within))),
            _ => {}
        }
        if let Some(spotting) = self.spotting {
            parts.push(format!("unmasked by an enemy within {}\"", fmt_num(spotting)));
        }
        if let Some(points) = self.staff_points {
            parts.push(format!("after bids of {} a side", plural(points, "staff point")));
        }
        if parts.is_empty() {
            parts.push(String::from("maneuver"));
        }
        parts
    }
}
