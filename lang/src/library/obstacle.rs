//! Linear obstacles (Ch16 4.2).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const OBSTACLE_PROPS: &[PropSpec] = &[
    req(
        "cross",
        "cross <inches> [check <target>] | cross unlisted",
        "Inches lost crossing it and any Discipline check (Ch16 4.2, RULINGS C25).",
    ),
    req("cover", COVER_USAGE, "The cover save behind it (Ch16 5.4)."),
    opt(
        "melee",
        "melee none | melee <+n|-n> <side>",
        "Shock modifier it gives (Ch16 4.2, RULINGS C29, G17).",
    ),
    opt("dismantle_phases", "dismantle_phases <count>", "Phases a unit spends to pull a stretch down."),
    flag("conceals", "Gives visual concealment."),
    flag("cancels_momentum", "An attacker crossing it gets no charging momentum bonus."),
    flag("anchored_flank_immune", "A securely anchored line behind it cannot be shocked in the flank."),
    flag("formed_disorder", "Formed units are disordered crossing it."),
];

/// Crossing a linear obstacle (Ch16 4.2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crossing {
    /// `cross 2 check 4+`: inches lost, and a Discipline check that disorders on failure.
    Inches { cost: f64, check: Option<u32> },
    /// The table gives no figure ("—"): only the formation's own cost applies.
    Unlisted,
}

/// A linear obstacle (Ch16 4.2).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Obstacle {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub crossing: Crossing,
    pub cover: Cover,
    /// RULINGS C29 (hedge: none), G17 (abatis -2 to the attacker).
    pub melee: Option<MeleeModifier>,
    pub dismantle_phases: Option<u32>,
    pub conceals: bool,
    pub cancels_momentum: bool,
    pub anchored_flank_immune: bool,
    pub formed_disorder: bool,
}

impl Obstacle {
    /// Inches a unit moving by `row` loses crossing it, or None if it cannot cross. RULINGS
    /// C25: the higher of the row's figure and the obstacle's own; a row marked `free` crosses
    /// at no cost; where one side is unlisted, the other decides.
    pub fn crossing_cost(&self, row: &MovementRate) -> Option<f64> {
        let own = match self.crossing {
            Crossing::Inches { cost, .. } => Some(cost),
            Crossing::Unlisted => None,
        };
        match row.obstacle {
            ObstacleCost::Impassable => None,
            ObstacleCost::Free => Some(0.0),
            ObstacleCost::Unlisted => Some(own.unwrap_or(0.0)),
            ObstacleCost::Penalty(p) => Some(own.map_or(p.abs(), |own| own.max(p.abs()))),
        }
    }
}

pub(super) fn read_obstacle(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Obstacle {
    let crossing = r
        .read("cross", |c| {
            if c.eat("unlisted") {
                return Ok(Crossing::Unlisted);
            }
            let cost = c.inches()?;
            let check = if c.eat("check") { Some(c.target()?) } else { None };
            Ok(Crossing::Inches { cost, check })
        })
        .unwrap_or(Crossing::Unlisted);
    Obstacle {
        meta,
        crossing,
        cover: r.read("cover", read_cover).unwrap_or(Cover::NONE),
        melee: r.read("melee", read_optional_melee).flatten(),
        dismantle_phases: r.read("dismantle_phases", |c| c.count("a number of phases")),
        conceals: r.flag("conceals"),
        cancels_momentum: r.flag("cancels_momentum"),
        anchored_flank_immune: r.flag("anchored_flank_immune"),
        formed_disorder: r.flag("formed_disorder"),
    }
}

impl Describe for Obstacle {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![match self.crossing {
            Crossing::Unlisted => String::from("crossing cost unlisted"),
            Crossing::Inches { cost, check: None } => format!("crossing {}\"", fmt_num(cost)),
            Crossing::Inches { cost, check: Some(t) } => {
                format!("crossing {}\" and a {t}+ Discipline check", fmt_num(cost))
            }
        }];
        parts.push(fmt_cover(&self.cover));
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        let flags = [
            (self.conceals, "conceals"),
            (self.cancels_momentum, "no charging momentum"),
            (self.formed_disorder, "formed units disorder crossing"),
            (self.anchored_flank_immune, "no flank shock when anchored"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}
