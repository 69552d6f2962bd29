//! Rows of the movement table (Ch16 3.1, 10.4).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// The state of a cavalry unit, battery or leader a movement row is for.
    pub enum MoveState {
        Mounted = "mounted",
        Dismounted = "dismounted",
        Limbered = "limbered",
        /// Unlimbered guns moved by hand.
        Prolonge = "prolonge",
    }
}

pub const MOVEMENT_PROPS: &[PropSpec] = &[
    req("arm", "arm infantry|cavalry|artillery|horse_artillery|leader", "The arm the row is for."),
    opt("formation", "formation <formation id>", "The formation the row is for."),
    opt("state", "state mounted|dismounted|limbered|prolonge", "The state the row is for."),
    req("open", "open <inches>", "Rate in open ground (Ch16 3.1)."),
    req("rough", "rough <inches>", "Rate in woods or rough ground (Ch16 3.1, RULINGS C24)."),
    req("road", "road <inches>", "Rate along a road in march order (Ch16 3.1)."),
    req(
        "obstacle",
        "obstacle <-n> | obstacle free|impassable|unlisted",
        "Inches lost crossing a linear obstacle (Ch16 3.1, RULINGS C25).",
    ),
    req("charge", "charge <inches> | charge prohibited|none", "Charge distance (Ch16 3.1, 7.1)."),
    opt("minimum", "minimum <inches>", "The least an in-command unit may always move (Ch16 3.1)."),
    opt("limber", "limber half|all|<inches>", "Movement spent to limber or unlimber (Ch8 2.0, Ch16 10.4)."),
    flag("unlimber_and_fire", "May unlimber and fire in the same turn (Ch16 10.4, RULINGS C31)."),
];

/// The "Obstacle Crossing" column of Ch16 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObstacleCost {
    /// Inches lost, written negative: -2.
    Penalty(f64),
    Free,
    Impassable,
    /// A dash in the table: the obstacle's own cost applies alone.
    Unlisted,
}

/// The "Charge Speed" column of Ch16 3.1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Charge {
    Inches(f64),
    Prohibited,
    /// A dash in the table: the row has no charge at all (leaders).
    NotApplicable,
}

/// One row of Ch16 3.1 (and Ch16 10.4 for horse artillery by hand).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct MovementRate {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub arm: Arm,
    pub formation: Option<String>,
    pub state: Option<MoveState>,
    pub open: f64,
    pub rough: f64,
    pub road: f64,
    pub obstacle: ObstacleCost,
    pub charge: Charge,
    /// Minimum Guaranteed Move for formed units in command (Ch16 3.1).
    pub minimum: Option<f64>,
    /// Movement spent to limber or unlimber (Ch8 2.0: all; Ch16 10.4: 4").
    pub limber: Option<Cost>,
    /// Horse artillery may unlimber and fire in one turn (Ch16 10.4, RULINGS C31).
    pub unlimber_and_fire: bool,
}

impl MovementRate {
    pub fn rate(&self, column: MoveColumn) -> f64 {
        match column {
            MoveColumn::Open => self.open,
            MoveColumn::Rough => self.rough,
            MoveColumn::Road => self.road,
        }
    }
}

pub(super) fn read_movement(r: &mut Reader<'_, '_>, meta: EntryMeta) -> MovementRate {
    let formation = r.read("formation", |c| c.word("a formation id"));
    if let Some(f) = &formation {
        r.refer(EntryKind::Formation, f);
    }
    MovementRate {
        meta,
        arm: r.read("arm", |c| c.choice::<Arm>()).unwrap_or(Arm::Infantry),
        formation: formation.map(|f| f.value),
        state: r.read("state", |c| c.choice::<MoveState>()),
        open: r.read("open", |c| c.inches()).unwrap_or(0.0),
        rough: r.read("rough", |c| c.inches()).unwrap_or(0.0),
        road: r.read("road", |c| c.inches()).unwrap_or(0.0),
        obstacle: r
            .read("obstacle", |c| {
                if c.eat("free") {
                    Ok(ObstacleCost::Free)
                } else if c.eat("impassable") {
                    Ok(ObstacleCost::Impassable)
                } else if c.eat("unlisted") {
                    Ok(ObstacleCost::Unlisted)
                } else {
                    let at = c.peek().map(|v| v.span).unwrap_or_default();
                    let penalty = c.signed_inches()?;
                    if penalty > 0.0 {
                        Err(Problem::new(at, "an obstacle penalty is written negative, e.g. `-2`"))
                    } else {
                        Ok(ObstacleCost::Penalty(penalty))
                    }
                }
            })
            .unwrap_or(ObstacleCost::Unlisted),
        charge: r
            .read("charge", |c| {
                if c.eat("prohibited") {
                    Ok(Charge::Prohibited)
                } else if c.eat("none") {
                    Ok(Charge::NotApplicable)
                } else {
                    Ok(Charge::Inches(c.inches()?))
                }
            })
            .unwrap_or(Charge::Prohibited),
        minimum: r.read("minimum", |c| c.inches()),
        limber: r.read("limber", read_cost),
        unlimber_and_fire: r.flag("unlimber_and_fire"),
    }
}

impl Describe for MovementRate {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!(
            "open {}\", rough {}\", road {}\"",
            fmt_num(self.open),
            fmt_num(self.rough),
            fmt_num(self.road)
        )];
        parts.push(match self.obstacle {
            ObstacleCost::Penalty(p) => format!("obstacles {}\"", fmt_signed(p)),
            ObstacleCost::Free => String::from("obstacles free"),
            ObstacleCost::Impassable => String::from("cannot cross obstacles"),
            ObstacleCost::Unlisted => String::from("obstacle cost unlisted"),
        });
        parts.push(match self.charge {
            Charge::Inches(d) => format!("charge {}\"", fmt_num(d)),
            Charge::Prohibited => String::from("cannot charge"),
            Charge::NotApplicable => String::from("no charge"),
        });
        if let Some(limber) = &self.limber {
            parts.push(format!("limbering costs {}", fmt_cost(limber)));
        }
        if self.unlimber_and_fire {
            parts.push(String::from("may unlimber and fire in one turn"));
        }
        parts
    }
}
