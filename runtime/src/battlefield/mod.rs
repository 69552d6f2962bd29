//! The battlefield: the table, its terrain resolved against the rule data, and the geometric
//! questions the rules ask of it.
//!
//! Pure: no IO. Distances are in inches, positions are (x, y) from the south-west corner (x east,
//! y north), facings are compass bearings (0 = north, 90 = east). [`Battlefield::from_scenario`]
//! builds the model from a scenario's `table` and `terrain` block; units are [`Body`]s (where the
//! stands of a regiment or battery lie). The queries, one module per rulebook area:
//!
//! - [`range`]: the firing range (RULE-05-1.4, RULINGS G4) and its band.
//! - [`arcs`]: the 45-degree front arc, the flank zones and the rear (Ch16 4.5, RULINGS G13), and
//!   enfilade (RULE-05-1.5, RULINGS C15).
//! - [`sight`]: line of sight through terrain, buildings, friends, smoke, weather and dead ground
//!   (Ch16 4.1, 4.4, 4.5, RULE-05-5.x, RULE-05-6.x).
//! - [`cover`]: the cover a target has against a firer (Ch16 4.1-4.3, 5.4, RULE-05-3.2, RULINGS
//!   G17), as the engine's [`crate::engine::fire::CoverInput`].
//! - [`elevation`]: levels, crests, slopes and overhead artillery fire (Ch16 4.4, RULE-05-6.3,
//!   RULINGS C2).
//! - [`contact`]: contact between units and engaged stands (RULINGS G3).
//! - [`movement`]: a move's allowance and the distance it uses, and what it runs into: terrain
//!   (RULINGS C24), obstacles (C25), roads, fords, the table edge, friends (Ch16 3.1-3.3, 4.1,
//!   4.2), Disorder (RULE-05-4.4, C6), the charge's interruption line (Ch16 7.2).
//!
//! Boundaries. Every query says whether touching counts. The common rule: a boundary belongs to
//! the zone a rule names (a target on the 45-degree ray is in the arc, a stand on the 90-degree
//! line is behind it, exactly 6.0" is Short range, exactly 1.0" behind a crest is visible), and
//! ties are judged at [`crate::geometry::MEASURE_PRECISION`] so the rounding of sines and cosines
//! never decides a rule. Where a shape must be *entered* to have an effect (woods, friends in the
//! way, buildings), grazing its edge does not count.

pub mod arcs;
pub mod body;
pub mod contact;
pub mod cover;
pub mod elevation;
pub mod movement;
pub mod range;
pub mod reach;
pub mod scouting;
pub mod sight;
pub mod support;
pub mod tolerances;
pub mod works;

#[cfg(test)]
mod tests;

use dotc_lang::ast::{FeatureAttr, Point as AstPoint, Scenario, Spanned};
use dotc_lang::library::{Obstacle, RuleData, Structure, TerrainKind};
use geo::{Coord, LineString, Polygon};

pub use arcs::{EnfiladeTest, Zone};
pub use body::Body;
pub use contact::{CONTACT_TOLERANCE, EDGE_CONTACT_MIN};
pub use cover::OBSTACLE_REACH;
pub use elevation::{DeadGround, OverheadBar, OverheadFire, Slope};
pub use movement::{
    Ground, Move, MoveKind, MoveReport, Mover, Pose, charge_halted_short, check_move, interruption_point,
};
pub use scouting::Scout;
pub use sight::{Friend, Sight, SightBlock, SightQuery, Smoke, Smoker, smoke_walls};
pub use works::HastyWorks;

/// The table and everything drawn on it.
#[derive(Clone, Debug)]
pub struct Battlefield {
    /// Width (west to east) and depth (south to north) in inches, when the scenario gives a
    /// usable `table`.
    pub table: Option<(f64, f64)>,
    /// Area terrain: woods, fields, marsh, town blocks (a town placed `at ... size` is an area).
    pub areas: Vec<TerrainArea>,
    /// Terrain drawn as a line: roads, streams, sunken lanes.
    pub lines: Vec<TerrainLine>,
    /// Linear obstacles: fences, walls, hedges, abatis, breastworks (Ch16 4.2).
    pub obstacles: Vec<ObstacleLine>,
    /// Buildings (Ch16 4.3).
    pub buildings: Vec<Building>,
    /// Hills with their level and crest (Ch16 4.4).
    pub hills: Vec<Hill>,
    pub objectives: Vec<Objective>,
    /// What gunsmoke does to sight, from the rule data's `gunsmoke` marker.
    pub smoke: SmokeRule,
    /// A unit more than this far (inches) behind a crest is dead ground to the foot of the hill
    /// (Ch16 4.4): the rule data's `elevation crest` `dead_ground`. Without it no ground is dead
    /// (the engine refuses such rule data anyway).
    pub dead_ground_depth: Option<f64>,
    /// Which way a crest's dead ground blocks sight (dotc D53): the scenario's ruling, or the
    /// game's in force, set by the replay ([`Battlefield::with_rulings`]).
    pub dead_ground_sight: crate::rulings::DeadGroundSight,
    /// Hasty works dug in play (module digging_in, Ch13 14.0): none at the start, placed by the
    /// replay at the end of a turn ([`works`]).
    pub works: Vec<HastyWorks>,
}

/// An area of one terrain kind.
#[derive(Clone, Debug)]
pub struct TerrainArea {
    pub name: Option<String>,
    /// The rule data entry of its kind (Ch16 4.1): cover, sight limit, movement.
    pub terrain: TerrainKind,
    pub outline: Polygon<f64>,
    /// Bare words of the feature (`sunken`, `impassable`, ...).
    pub flags: Vec<String>,
}

/// A terrain kind drawn as a line, with the fords and bridges placed on it.
#[derive(Clone, Debug)]
pub struct TerrainLine {
    pub name: Option<String>,
    pub terrain: TerrainKind,
    pub line: LineString<f64>,
    pub fords: Vec<(f64, f64)>,
    pub bridges: Vec<(f64, f64)>,
    pub flags: Vec<String>,
}

/// A linear obstacle (Ch16 4.2).
#[derive(Clone, Debug)]
pub struct ObstacleLine {
    pub name: Option<String>,
    pub obstacle: Obstacle,
    pub line: LineString<f64>,
    pub flags: Vec<String>,
}

/// A building (Ch16 4.3).
#[derive(Clone, Debug)]
pub struct Building {
    pub name: Option<String>,
    pub structure: Structure,
    /// Where it stands.
    pub at: (f64, f64),
    /// Its walls: `size W x D` centred on `at`, W west to east. None when the scenario gives no
    /// size: the building is then a point that blocks no sight, though its garrison still has
    /// its cover.
    pub footprint: Option<Polygon<f64>>,
    /// Stands it holds: the feature's `capacity`, else the structure's.
    pub capacity: u32,
    pub flags: Vec<String>,
    /// Structural hits solid shot has done to it (Ch16 4.3, dotc D6).
    pub damage: u32,
    /// Brought down by artillery (Ch16 4.3): from then on its footprint is rubble, which blocks
    /// no sight and gives the structure's `rubble` cover, and it holds no garrison.
    pub collapsed: bool,
}

/// A hill (Ch16 4.4).
#[derive(Clone, Debug)]
pub struct Hill {
    pub name: Option<String>,
    /// Contours above the table.
    pub level: u32,
    pub outline: Polygon<f64>,
    /// The line of its brow, if drawn: without one the hill has no dead ground.
    pub crest: Option<LineString<f64>>,
}

/// A named point victory conditions refer to.
#[derive(Clone, Debug)]
pub struct Objective {
    pub name: String,
    pub at: (f64, f64),
    pub vp: Option<f64>,
    /// A side holds it with a Color Stand this close (inches): its `within`, or [`HOLD_RADIUS`].
    pub within: f64,
}

pub use tolerances::HOLD_RADIUS;

/// Gunsmoke's effect on sight, read from the rule data's `gunsmoke` marker (Ch16 5.7,
/// RULE-05-5.2, 5.5). Without that marker smoke has no effect here (the engine refuses such rule
/// data anyway).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SmokeRule {
    /// A line of sight through smoke at a range beyond this costs the marker's to-hit modifier
    /// (`to_hit -1 beyond 6`).
    pub penalty_beyond: Option<f64>,
    /// A smoke wall blocks sight beyond this range (`smoke_wall 3 beyond 8`).
    pub wall_beyond: Option<f64>,
    /// How many adjacent regiments' markers merge into a wall (`smoke_wall 3 ...`); None
    /// without the entry: no wall ever forms.
    pub wall_regiments: Option<u32>,
    /// The widest gap (inches) between two regiments of a wall (`smoke_wall ... within 1`, the
    /// lateral interval of Ch16 3.3); 0 without it: they must touch.
    pub wall_within: f64,
    /// The side of the square marker a unit places when it fires (`size 1`, RULE-05-5.1); 0
    /// without the entry (the engine refuses such rule data).
    pub size: f64,
}

impl SmokeRule {
    fn from_data(data: &RuleData) -> SmokeRule {
        let Some(marker) = data.marker("gunsmoke") else { return SmokeRule::default() };
        SmokeRule {
            penalty_beyond: marker.to_hit.iter().find_map(|m| m.beyond),
            wall_beyond: marker.smoke_wall.map(|w| w.beyond),
            wall_regiments: marker.smoke_wall.map(|w| w.regiments),
            wall_within: marker.smoke_wall.and_then(|w| w.within).unwrap_or(0.0),
            size: marker.size.unwrap_or(0.0),
        }
    }
}

/// The built-in feature kinds of the language (`dotc_lang::check::BUILTIN_FEATURES`).
const HILL: &str = "hill";
const OBJECTIVE: &str = "objective";

impl Battlefield {
    /// The battlefield with the rulings in force for a game (scenario and log together), where
    /// they decide what the table does: which way dead ground blocks sight (dotc D53).
    pub fn with_rulings(mut self, rulings: &crate::rulings::Rulings) -> Battlefield {
        self.dead_ground_sight = rulings.dead_ground_sight;
        self
    }

    /// The battlefield a scenario describes. Each terrain feature is resolved to its rule data
    /// kind (a terrain kind, an obstacle or a structure), or is one of the language's `hill` and
    /// `objective`. A feature whose kind is unknown, or whose shape is missing or unreadable
    /// (too few points, a coordinate that is not a finite number, a size that is not above 0, a
    /// hill without a whole `level`), is left out: the language checks report it. Never panics.
    ///
    /// Shapes: an area takes its `polygon` (or, for a kind like `town`, `at ... size`); a line
    /// kind and an obstacle take their `line`; a building takes `at` and an optional `size`
    /// (centred on `at`, W west to east, D south to north) or a `polygon`. The first usable shape
    /// attribute decides.
    pub fn from_scenario(scenario: &Scenario, data: &RuleData) -> Battlefield {
        let table = scenario
            .table
            .as_ref()
            .map(|t| (t.value.width, t.value.depth))
            .filter(|&(w, d)| w.is_finite() && d.is_finite() && w > 0.0 && d > 0.0);
        let mut field = Battlefield {
            table,
            areas: Vec::new(),
            lines: Vec::new(),
            obstacles: Vec::new(),
            buildings: Vec::new(),
            hills: Vec::new(),
            objectives: Vec::new(),
            smoke: SmokeRule::from_data(data),
            dead_ground_depth: data.elevation("crest").and_then(|e| e.dead_ground),
            dead_ground_sight: scenario_dead_ground_sight(scenario),
            works: Vec::new(),
        };
        for feature in &scenario.terrain {
            let kind = feature.kind.value.as_str();
            let name = feature.name.as_ref().map(|n| n.value.clone());
            let shapes = Shapes::read(&feature.attrs);
            if kind == HILL {
                let (Some(outline), Some(level)) = (shapes.polygon, shapes.level) else { continue };
                field.hills.push(Hill { name, level, outline, crest: shapes.crest });
            } else if kind == OBJECTIVE {
                let (Some(name), Some(at)) = (name, shapes.at) else { continue };
                let within = shapes.within.unwrap_or(HOLD_RADIUS);
                field.objectives.push(Objective { name, at, vp: shapes.vp, within });
            } else if let Some(terrain) = data.terrain(kind) {
                let area = shapes.polygon.clone().or_else(|| shapes.sized_rectangle());
                if let Some(line) = shapes.line.clone().filter(|_| shapes.line_first || area.is_none()) {
                    field.lines.push(TerrainLine {
                        name,
                        terrain: terrain.clone(),
                        line,
                        fords: shapes.fords,
                        bridges: shapes.bridges,
                        flags: shapes.flags,
                    });
                } else if let Some(outline) = area {
                    field.areas.push(TerrainArea {
                        name,
                        terrain: terrain.clone(),
                        outline,
                        flags: shapes.flags,
                    });
                }
            } else if let Some(obstacle) = data.obstacle(kind) {
                let Some(line) = shapes.line else { continue };
                field.obstacles.push(ObstacleLine {
                    name,
                    obstacle: obstacle.clone(),
                    line,
                    flags: shapes.flags,
                });
            } else if let Some(structure) = data.structure(kind) {
                let footprint = shapes.sized_rectangle().or(shapes.polygon.clone());
                let at = match (shapes.at, &footprint) {
                    (Some(at), _) => at,
                    (None, Some(outline)) => match geo::Centroid::centroid(outline) {
                        Some(c) => (c.x(), c.y()),
                        None => continue,
                    },
                    (None, None) => continue,
                };
                let capacity = shapes.capacity.unwrap_or(structure.capacity);
                field.buildings.push(Building {
                    name,
                    structure: structure.clone(),
                    at,
                    footprint,
                    capacity,
                    flags: shapes.flags,
                    damage: 0,
                    collapsed: false,
                });
            }
        }
        field
    }

    /// The building of that name.
    pub fn building(&self, name: &str) -> Option<&Building> {
        self.buildings.iter().find(|b| b.name.as_deref() == Some(name))
    }

    /// The hill of that name.
    pub fn hill(&self, name: &str) -> Option<&Hill> {
        self.hills.iter().find(|h| h.name.as_deref() == Some(name))
    }

    /// The area of that name.
    pub fn area(&self, name: &str) -> Option<&TerrainArea> {
        self.areas.iter().find(|a| a.name.as_deref() == Some(name))
    }

    /// The line terrain of that name.
    pub fn line(&self, name: &str) -> Option<&TerrainLine> {
        self.lines.iter().find(|l| l.name.as_deref() == Some(name))
    }

    /// The obstacle of that name.
    pub fn obstacle(&self, name: &str) -> Option<&ObstacleLine> {
        self.obstacles.iter().find(|o| o.name.as_deref() == Some(name))
    }

    /// The objective of that name.
    pub fn objective(&self, name: &str) -> Option<&Objective> {
        self.objectives.iter().find(|o| o.name == name)
    }
}

/// The usable shape attributes of one feature.
#[derive(Default)]
struct Shapes {
    polygon: Option<Polygon<f64>>,
    line: Option<LineString<f64>>,
    /// `line` came before any area shape.
    line_first: bool,
    at: Option<(f64, f64)>,
    size: Option<(f64, f64)>,
    level: Option<u32>,
    crest: Option<LineString<f64>>,
    fords: Vec<(f64, f64)>,
    bridges: Vec<(f64, f64)>,
    capacity: Option<u32>,
    vp: Option<f64>,
    within: Option<f64>,
    flags: Vec<String>,
}

impl Shapes {
    fn read(attrs: &[FeatureAttr]) -> Shapes {
        let mut shapes = Shapes::default();
        for attr in attrs {
            match attr {
                FeatureAttr::Polygon(points) => {
                    if shapes.polygon.is_none() {
                        shapes.polygon = polygon(points);
                    }
                }
                FeatureAttr::Line(points) => {
                    if shapes.line.is_none() {
                        shapes.line = line_string(points);
                        shapes.line_first =
                            shapes.line.is_some() && shapes.polygon.is_none() && shapes.at.is_none();
                    }
                }
                FeatureAttr::Crest(points) => {
                    if shapes.crest.is_none() {
                        shapes.crest = line_string(points);
                    }
                }
                FeatureAttr::At(p) => {
                    if shapes.at.is_none() {
                        shapes.at = point(&p.value);
                    }
                }
                FeatureAttr::Size(size) => {
                    let (w, d) = size.value;
                    if shapes.size.is_none() && w.is_finite() && d.is_finite() && w > 0.0 && d > 0.0 {
                        shapes.size = Some((w, d));
                    }
                }
                FeatureAttr::Level(n) => {
                    if shapes.level.is_none() {
                        shapes.level = whole(n.value);
                    }
                }
                FeatureAttr::Capacity(n) => {
                    if shapes.capacity.is_none() {
                        shapes.capacity = whole(n.value);
                    }
                }
                FeatureAttr::Vp(n) => {
                    if shapes.vp.is_none() && n.value.is_finite() {
                        shapes.vp = Some(n.value);
                    }
                }
                FeatureAttr::Within(n) => {
                    if shapes.within.is_none() && n.value.is_finite() && n.value > 0.0 {
                        shapes.within = Some(n.value);
                    }
                }
                FeatureAttr::Ford(p) => shapes.fords.extend(point(&p.value)),
                FeatureAttr::Bridge(p) => shapes.bridges.extend(point(&p.value)),
                FeatureAttr::Flag(word) => shapes.flags.push(word.value.clone()),
            }
        }
        shapes
    }

    /// `at (x, y) size W x D`: the rectangle centred on the point, W west to east.
    fn sized_rectangle(&self) -> Option<Polygon<f64>> {
        let ((x, y), (w, d)) = (self.at?, self.size?);
        let (hw, hd) = (w / 2.0, d / 2.0);
        let ring =
            vec![(x - hw, y - hd), (x + hw, y - hd), (x + hw, y + hd), (x - hw, y + hd), (x - hw, y - hd)];
        Some(Polygon::new(LineString::from(ring), vec![]))
    }
}

fn point(p: &AstPoint) -> Option<(f64, f64)> {
    (p.x.is_finite() && p.y.is_finite()).then_some((p.x, p.y))
}

fn coords(points: &Spanned<Vec<AstPoint>>) -> Option<Vec<Coord<f64>>> {
    points.value.iter().map(|p| point(p).map(|(x, y)| Coord { x, y })).collect()
}

/// A polygon of at least 3 finite corners; the outline closes by itself.
fn polygon(points: &Spanned<Vec<AstPoint>>) -> Option<Polygon<f64>> {
    let corners = coords(points)?;
    (corners.len() >= 3).then(|| Polygon::new(LineString::from(corners), vec![]))
}

/// A line of at least 2 finite points.
fn line_string(points: &Spanned<Vec<AstPoint>>) -> Option<LineString<f64>> {
    let points = coords(points)?;
    (points.len() >= 2).then(|| LineString::from(points))
}

/// A whole number, 0 or more, that fits a u32.
fn whole(value: f64) -> Option<u32> {
    (value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= u32::MAX as f64)
        .then_some(value as u32)
}

/// The scenario's own `ruling dead_ground_sight` (dotc D53), its default when the scenario sets
/// none or a value this build does not know (the language checks report that).
fn scenario_dead_ground_sight(scenario: &Scenario) -> crate::rulings::DeadGroundSight {
    let settings = dotc_lang::model::effective_rulings(scenario.rules.iter());
    crate::rulings::Rulings::from_settings(&settings).map(|r| r.dead_ground_sight).unwrap_or_default()
}
