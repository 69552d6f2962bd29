//! Terrain kinds: areas and lines (Ch16 4.1).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// The geometry a terrain kind is drawn with in a scenario.
    pub enum Shape {
        /// `polygon (x, y) ...`
        Area = "area",
        /// `line (x, y) ...`
        Line = "line",
        /// `at (x, y) size W x D`
        Building = "building",
    }
}

word_enum! {
    /// A column of the movement table (Ch16 3.1).
    pub enum MoveColumn {
        Open = "open",
        /// "Woods / Rough".
        Rough = "rough",
        /// "Road March".
        Road = "road",
    }
}

pub const TERRAIN_PROPS: &[PropSpec] = &[
    req(
        "shape",
        "shape area|line|building [, ...]",
        "The geometry scenarios give it; the first is the usual one.",
    ),
    req(
        "move",
        "move open|rough|road [<-n>] [max <inches>] | move impassable",
        "The movement column used inside it, a penalty in inches and a cap (Ch16 4.1, RULINGS C24).",
    ),
    req("cover", COVER_USAGE, "The cover save inside or behind it (Ch16 5.4)."),
    req("los", "los unlimited | los <inches>", "How far sight reaches into or through it (Ch16 4.1)."),
    opt(
        "melee",
        "melee none | melee <+n|-n> <side>",
        "Shock modifier for a unit fighting from it (Ch16 7.3, RULINGS C29).",
    ),
    opt("charge", "charge <-n>", "Change to the charge distance of a charge across it, in inches."),
    opt("structure", "structure <structure id>", "The building rules its garrisons follow."),
    flag("exit_full_turn", "Leaving it takes the unit's whole move (Ch16 4.1 sunken road)."),
    flag("conceals", "Hides formed units inside it."),
    flag("halts_charges", "A charge stops at its edge with no melee (RULINGS G10)."),
    flag("formed_disorder", "Formed units are disordered on entering (RULINGS G17)."),
    flag("skirmishers_free", "Skirmishers move through it without penalty."),
    flag("line_moves_freely", "A line of battle moves through it without disorder."),
    flag("crossings_only", "Crossable only at fords and bridges the scenario places."),
    flag("no_hasty_works", "Hasty works cannot be dug in it (Ch13 14.0)."),
    flag("river", "A watercourse: the Scouting winner cannot move or remove it (Ch13 1.0, dotc D22)."),
];

/// Movement inside a terrain kind (Ch16 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TerrainMove {
    /// Move at the unit's `column` rate, plus `penalty` (0 or negative), at most `cap`.
    Passable {
        column: MoveColumn,
        penalty: f64,
        cap: Option<f64>,
    },
    Impassable,
}

/// How far sight reaches into or through a terrain kind (Ch16 4.1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SightLimit {
    Unlimited,
    /// Blocked beyond this many inches into it.
    Inches(f64),
}

/// An area or line terrain kind: Ch16 4.1, plus the road, marsh and town kinds scenarios draw.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct TerrainKind {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub shapes: Vec<Shape>,
    /// The "Movement Impact" column; RULINGS C24 takes the slower of rate and cap.
    pub movement: TerrainMove,
    /// Sunken road: "Full Turn to Exit".
    pub exit_full_turn: bool,
    /// The "Cover Save" column (Ch16 5.4; RULINGS G17: cover does not stack).
    pub cover: Cover,
    /// The "LOS Distance Limit" column.
    pub los: SightLimit,
    /// Sunken road +2 defender (Ch16 4.1, 7.3; RULINGS C29: only where the table gives one).
    pub melee: Option<MeleeModifier>,
    /// Ploughed field: -1" to charge distance.
    pub charge_penalty: f64,
    /// The structure rules a garrison of this kind follows (town blocks).
    pub structure: Option<String>,
    pub conceals: bool,
    /// Minor stream: the charge stops at the bank with no melee (RULINGS G10).
    pub halts_charges: bool,
    /// Dense woods: every formed formation is disordered entering (RULINGS G17).
    pub formed_disorder: bool,
    pub skirmishers_free: bool,
    pub line_moves_freely: bool,
    /// Major river: fords and bridges only.
    pub crossings_only: bool,
    /// Ch13 14.0: no hasty works in watercourses or buildings.
    pub no_hasty_works: bool,
    /// A watercourse: not a piece the Scouting winner may move or remove (Ch13 1.0, dotc D22).
    #[serde(default)]
    pub river: bool,
}

impl TerrainKind {
    /// How far a unit moving by `row` gets inside this terrain, or None if it cannot enter.
    /// The penalty comes off the column's rate and the cap applies last (RULINGS C24). The
    /// Minimum Guaranteed Move (`row.minimum`) is the caller's to apply: it depends on command.
    pub fn move_rate(&self, row: &MovementRate) -> Option<f64> {
        match self.movement {
            TerrainMove::Impassable => None,
            TerrainMove::Passable { column, penalty, cap } => {
                let rate = (row.rate(column) + penalty).max(0.0);
                Some(cap.map_or(rate, |cap| rate.min(cap)))
            }
        }
    }
}

pub(super) fn read_terrain(r: &mut Reader<'_, '_>, meta: EntryMeta) -> TerrainKind {
    let shapes = r.read("shape", |c| c.choices::<Shape>()).unwrap_or_else(|| vec![Shape::Area]);
    let movement = r
        .read("move", |c| {
            if c.eat("impassable") {
                return Ok(TerrainMove::Impassable);
            }
            let column = c.choice::<MoveColumn>()?;
            let penalty = if c.next_is_signed() { c.signed_inches()? } else { 0.0 };
            let cap = if c.eat("max") { Some(c.inches()?) } else { None };
            Ok(TerrainMove::Passable { column, penalty, cap })
        })
        .unwrap_or(TerrainMove::Passable { column: MoveColumn::Open, penalty: 0.0, cap: None });
    let cover = r.read("cover", read_cover).unwrap_or(Cover::NONE);
    let los = r
        .read("los", |c| {
            if c.eat("unlimited") { Ok(SightLimit::Unlimited) } else { Ok(SightLimit::Inches(c.inches()?)) }
        })
        .unwrap_or(SightLimit::Unlimited);
    let melee = r.read("melee", read_optional_melee).flatten();
    let charge_penalty = r.read("charge", |c| c.signed_inches()).unwrap_or(0.0);
    let structure = r.read("structure", |c| c.word("a structure id"));
    if let Some(s) = &structure {
        r.refer(EntryKind::Structure, s);
    }
    TerrainKind {
        meta,
        shapes,
        movement,
        exit_full_turn: r.flag("exit_full_turn"),
        cover,
        los,
        melee,
        charge_penalty,
        structure: structure.map(|s| s.value),
        conceals: r.flag("conceals"),
        halts_charges: r.flag("halts_charges"),
        formed_disorder: r.flag("formed_disorder"),
        skirmishers_free: r.flag("skirmishers_free"),
        line_moves_freely: r.flag("line_moves_freely"),
        crossings_only: r.flag("crossings_only"),
        no_hasty_works: r.flag("no_hasty_works"),
        river: r.flag("river"),
    }
}

impl Describe for TerrainKind {
    fn parts(&self) -> Vec<String> {
        let shapes: Vec<&str> = self.shapes.iter().map(|s| s.word()).collect();
        let mut parts = vec![shapes.join("/")];
        parts.push(match self.movement {
            TerrainMove::Impassable => String::from("impassable"),
            TerrainMove::Passable { column, penalty, cap } => {
                let mut m = format!("{} rate", column.word());
                if penalty != 0.0 {
                    m.push_str(&format!(" {}\"", fmt_signed(penalty)));
                }
                if let Some(cap) = cap {
                    m.push_str(&format!(", at most {}\"", fmt_num(cap)));
                }
                m
            }
        });
        if self.exit_full_turn {
            parts.push(String::from("leaving takes a full turn"));
        }
        parts.push(fmt_cover(&self.cover));
        match self.los {
            SightLimit::Inches(0.0) => parts.push(String::from("blocks sight")),
            SightLimit::Inches(d) => parts.push(format!("sight stops {}\" in", fmt_num(d))),
            SightLimit::Unlimited => {}
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if self.charge_penalty != 0.0 {
            parts.push(format!("charge {}\"", fmt_signed(self.charge_penalty)));
        }
        let flags = [
            (self.conceals, "conceals"),
            (self.halts_charges, "halts charges"),
            (self.formed_disorder, "formed units disorder on entering"),
            (self.crossings_only, "fords and bridges only"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}
