//! The cover a target has against one firer: Ch16 4.1-4.3, 5.4, RULE-05-3.2, RULINGS G17.
//!
//! Three sources, and the best one wins (RULINGS G17: cover never stacks):
//!
//! - **A garrison** (Ch16 4.3): a unit in a building has the structure's cover (heavy 4+).
//! - **Area terrain** the target stands in (woods, fields, town blocks, and line kinds such as a
//!   sunken road or lane it stands on): the kind's cover when **more than half** of the
//!   target's stands are in it. A stand is in an area when more than half of the stand's own
//!   area lies inside the outline, so a unit touching a wood's edge from outside is not in it,
//!   and a stand exactly half in does not count; a stand is on a line when the line runs through
//!   it, not merely along its edge. Half the stands is not "most": a tie gives no cover.
//! - **A linear obstacle on the target's front** (Ch16 4.2, RULE-05-3.2 "standing behind"): the
//!   target stands behind the obstacle, which runs through the strip [`OBSTACLE_REACH`] (1.0")
//!   deep in front of its front edge, and the line of fire (the range line, RULINGS G4) crosses
//!   that obstacle no more than 1.0" in front of the line of the target's front edge, touching
//!   included: a fence exactly 1.0" in front counts, one 1.1" in front does not, nor one the line
//!   of fire never crosses (fire from the flank or rear). The firer may be anywhere in front of
//!   the target, not only in front of its frontage: fire from off to one side still crosses the
//!   fence the target lines (RULE-05-3.2); only enfilade denies the save (RULE-05-1.5, RULINGS
//!   C15). Such cover is marked `frontal_obstacle`: enfilade and a howitzer's shells (Ch16 5.3)
//!   take it away, which is the engine's to apply.
//!
//! Between two sources of the same class, one that is not a frontal obstacle is preferred: it is
//! the one enfilade cannot take away.

use dotc_lang::library::{Cover, CoverClass};
use geo::line_intersection::{LineIntersection, line_intersection};
use geo::{Area, BoundingRect, Coord, Intersects, Line, Point, Polygon};

use super::Battlefield;
use super::body::Body;
use super::range::range_line;
use super::sight::inside_length;
use crate::engine::fire::CoverInput;
use crate::geometry::MEASURE_PRECISION;

pub use super::tolerances::OBSTACLE_REACH;

impl Battlefield {
    /// The cover `target` has against fire from `firer` (`garrison`: the building it holds, if
    /// any), as the engine's fire resolution takes it.
    pub fn cover(&self, firer: &Body, target: &Body, garrison: Option<&str>) -> CoverInput {
        self.cover_on(firer, target, garrison, &self.ground_cover(target))
    }

    /// The cover the ground `target` stands on gives it against any firer: each area and line
    /// most of its stands are in, as (cover, terrain id), in the order [`Battlefield::cover`]
    /// weighs them. A function of the body and the terrain alone, which a replay never changes,
    /// so it may keep the answer per body (issue 16).
    pub fn ground_cover(&self, target: &Body) -> Vec<(Cover, String)> {
        let stands = target.stands();
        let most = |inside: usize| 2 * inside > stands.len();
        let mut ground = Vec::new();
        // An area or line whose box misses the target's holds none of its stands (issue 16).
        let reach = crate::geometry::bounds(&stands);
        for area in &self.areas {
            if crate::geometry::rects_apart(reach, area.outline.bounding_rect()) {
                continue;
            }
            if most(stands.iter().filter(|s| stand_in_area(s, &area.outline)).count()) {
                ground.push((area.terrain.cover, area.terrain.meta.id.clone()));
            }
        }
        for lane in &self.lines {
            if crate::geometry::rects_apart(reach, lane.line.bounding_rect()) {
                continue;
            }
            let on = |s: &&Polygon<f64>| lane.line.lines().any(|segment| inside_length(s, &segment) > 0.0);
            if most(stands.iter().filter(on).count()) {
                ground.push((lane.terrain.cover, lane.terrain.meta.id.clone()));
            }
        }
        ground
    }

    /// [`Battlefield::cover`] with the target's [`Battlefield::ground_cover`] given.
    pub fn cover_on(
        &self,
        firer: &Body,
        target: &Body,
        garrison: Option<&str>,
        ground: &[(Cover, String)],
    ) -> CoverInput {
        let mut best: Option<(Cover, String, bool)> = None;
        let mut consider = |cover: Cover, id: &str, frontal: bool| {
            if cover.class == CoverClass::None {
                return;
            }
            let better = match &best {
                None => true,
                Some((held, _, held_frontal)) => {
                    (rank(cover.class), !frontal) > (rank(held.class), !*held_frontal)
                }
            };
            if better {
                best = Some((cover, id.to_string(), frontal));
            }
        };
        if let Some(building) = garrison.and_then(|name| self.building(name)) {
            // Ch16 4.3, dotc D6: the survivors of a collapse are in its rubble.
            match (building.collapsed, building.structure.rubble) {
                (false, _) => consider(building.structure.cover, &building.structure.meta.id, false),
                (true, Some(rubble)) => consider(rubble, &rubble_id(building), false),
                (true, None) => {}
            }
        }
        // Ch16 4.3: rubble covers a unit most of whose stands stand in it, as area terrain does.
        let mut stands = Vec::new();
        for building in self.buildings.iter().filter(|b| b.collapsed) {
            let (Some(walls), Some(rubble)) = (&building.footprint, building.structure.rubble) else {
                continue;
            };
            if stands.is_empty() {
                stands = target.stands();
            }
            let most = |inside: usize| 2 * inside > stands.len();
            if most(stands.iter().filter(|s| stand_in_area(s, walls)).count()) {
                consider(rubble, &rubble_id(building), false);
            }
        }
        for (cover, id) in ground {
            consider(*cover, id, false);
        }
        let fire = range_line(firer, target);
        let front = front_strip(target);
        for obstacle in obstacles_lined(&self.obstacles, &front) {
            let crossings = obstacle.line.lines().flat_map(|segment| crossing_points(fire, segment));
            if crossings.into_iter().any(|p| within_reach_ahead(target, p)) {
                consider(obstacle.obstacle.cover, &obstacle.obstacle.meta.id, true);
            }
        }
        // Ch13 14.0 (module digging_in): hasty works it stands behind, against fire from its
        // front arc (`works.rs`).
        for works in self.works_lined(firer, target, &front) {
            consider(works.cover, &works.id, true);
        }
        match best {
            Some((cover, id, frontal)) => CoverInput::of(cover.class, &id, frontal),
            None => CoverInput::open(),
        }
    }
}

impl Battlefield {
    /// The ground a defender holds against a charge, for its melee modifiers (Ch16 4.2, 7.3,
    /// RULINGS G17): an obstacle it stands behind that the charge crosses within reach of its
    /// front, when the obstacle changes a melee (a stone wall's +2; an abatis, which gives no
    /// cover but costs the attacker 2 and its momentum); otherwise the cover it holds against the
    /// charger's line, as a volley from there would see it.
    pub fn melee_ground(&self, attacker: &Body, defender: &Body) -> Option<String> {
        let charge = range_line(attacker, defender);
        let front = front_strip(defender);
        let crossed = obstacles_lined(&self.obstacles, &front).find(|o| {
            (o.obstacle.melee.is_some() || o.obstacle.cancels_momentum)
                && o.line
                    .lines()
                    .flat_map(|segment| crossing_points(charge, segment))
                    .any(|p| within_reach_ahead(defender, p))
        });
        match crossed {
            Some(o) => Some(o.obstacle.meta.id.clone()),
            None => self.cover(attacker, defender, None).from,
        }
    }
}

/// The name a collapsed building's rubble goes by in a cover finding: "masonry_building rubble".
fn rubble_id(building: &super::Building) -> String {
    format!("{} rubble", building.structure.meta.id)
}

pub(super) fn rank(class: CoverClass) -> u8 {
    match class {
        CoverClass::None => 0,
        CoverClass::Light => 1,
        CoverClass::Heavy => 2,
    }
}

/// Boolean operations work on a fixed grid: areas closer than this (square inches) are equal.
const AREA_NOISE: f64 = 1e-6;

/// More than half of the stand lies inside the outline.
pub(super) fn stand_in_area(stand: &Polygon<f64>, outline: &Polygon<f64>) -> bool {
    2.0 * crate::geometry::overlap_area(stand, outline) > stand.unsigned_area() + AREA_NOISE
}

/// The ground up to [`OBSTACLE_REACH`] in front of a unit's front edge (widened by
/// [`MEASURE_PRECISION`], so its limits count as inside).
pub(super) fn front_strip(body: &Body) -> Polygon<f64> {
    let (w, e) = (body.half_width(), MEASURE_PRECISION);
    body.frame().rectangle(-w - e, w + e, -e, OBSTACLE_REACH + e)
}

/// The obstacles a unit stands behind: those running through its front strip.
pub(super) fn obstacles_lined<'a>(
    obstacles: &'a [super::ObstacleLine],
    front: &'a Polygon<f64>,
) -> impl Iterator<Item = &'a super::ObstacleLine> {
    obstacles.iter().filter(|o| o.line.intersects(front))
}

/// A point no more than [`OBSTACLE_REACH`] ahead of the line of `body`'s front edge (and not
/// behind it), however far to either side (limits included, at [`MEASURE_PRECISION`]).
fn within_reach_ahead(body: &Body, point: Point<f64>) -> bool {
    let (_, ahead) = body.frame().to_local(point.0);
    (-MEASURE_PRECISION..=OBSTACLE_REACH + MEASURE_PRECISION).contains(&ahead)
}

/// Where two segments meet: one point, or the two ends of their shared stretch.
fn crossing_points(a: Line<f64>, b: Line<f64>) -> Vec<Point<f64>> {
    match line_intersection(a, b) {
        None => Vec::new(),
        Some(LineIntersection::SinglePoint { intersection, .. }) => vec![Point::from(intersection)],
        Some(LineIntersection::Collinear { intersection }) => {
            let ends: [Coord<f64>; 2] = [intersection.start, intersection.end];
            ends.into_iter().map(Point::from).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::tests::{field, line};

    /// Light woods x = 0..10, y = 10..20.
    const WOODS: &str = "light_woods \"Wood\" polygon (0, 10) (10, 10) (10, 20) (0, 20)";

    fn firer() -> Body {
        line((5.0, 40.0), 180.0, 5)
    }

    #[test]
    fn most_stands_in_the_woods_take_its_cover() {
        let f = field(WOODS);
        // 5 stands facing south at (5, 15): x = 2.5..7.5, y = 15..15.75, all inside.
        assert_eq!(
            f.cover(&firer(), &line((5.0, 15.0), 180.0, 5), None),
            CoverInput::of(CoverClass::Light, "light_woods", false)
        );
        // At (9.9, 15) the stands are x = 7.4..8.4, 8.4..9.4, 9.4..10.4 (0.6 of it inside),
        // 10.4..11.4, 11.4..12.4: 3 of 5 in: cover.
        assert_eq!(f.cover(&firer(), &line((9.9, 15.0), 180.0, 5), None).class, CoverClass::Light);
        // At (10, 15): x = 7.5..8.5 and 8.5..9.5 in, 9.5..10.5 exactly half in (does not
        // count), the rest out: 2 of 5: no cover.
        assert_eq!(f.cover(&firer(), &line((10.0, 15.0), 180.0, 5), None), CoverInput::open());
    }

    #[test]
    fn touching_the_woods_edge_from_outside_is_no_cover() {
        // Facing south at (5, 9.25): stands y = 9.25..10, their backs on the edge y = 10.
        let f = field(WOODS);
        assert_eq!(f.cover(&firer(), &line((5.0, 9.25), 180.0, 5), None), CoverInput::open());
    }

    #[test]
    fn a_fence_within_an_inch_in_front_covers_against_fire_across_it() {
        // Rail fence along x = 20. Target: 5-stand line facing east, front edge x = 19.5 (0.5"
        // behind the fence). Firer: facing west at (30, 15). The range line from (30, 15) to
        // (19.5, 15) crosses the fence at (20, 15), 0.5" in front of the target: light, frontal.
        let f = field("rail_fence \"Fence\" line (20, 0) (20, 30)");
        let firer = line((30.0, 15.0), 270.0, 5);
        let light = CoverInput::of(CoverClass::Light, "rail_fence", true);
        assert_eq!(f.cover(&firer, &line((19.5, 15.0), 90.0, 5), None), light);
        // Exactly 1.0" behind it: covered. 1.1": not.
        assert_eq!(f.cover(&firer, &line((19.0, 15.0), 90.0, 5), None), light);
        assert_eq!(f.cover(&firer, &line((18.9, 15.0), 90.0, 5), None), CoverInput::open());
        // The same target fired on from behind (a firer west of it): the line of fire never
        // crosses the fence.
        let behind = line((10.0, 15.0), 90.0, 5);
        assert_eq!(f.cover(&behind, &line((19.5, 15.0), 90.0, 5), None), CoverInput::open());
    }

    #[test]
    fn rule_05_3_2_frontal_fire_from_off_the_frontage_still_crosses_the_fence() {
        // Rail fence along x = 20; the target faces east, its front edge x = 19.5 from y = 12.5
        // to 17.5 (0.5" behind the fence). Only enfilade denies a fence's save (RULINGS C15), so
        // fire from anywhere in front of it that crosses the fence within 1" gets it.
        let f = field("rail_fence \"Fence\" line (20, 0) (20, 30)");
        let target = line((19.5, 15.0), 90.0, 5);
        let light = CoverInput::of(CoverClass::Light, "rail_fence", true);
        // From (30, 20), 2.5" north of the frontage: the line to the corner (19.5, 17.5) crosses
        // the fence at y = 17.62, outside the frontage but 0.5" in front of the target.
        assert_eq!(f.cover(&line((30.0, 20.0), 270.0, 5), &target, None), light);
        // From (25, 30), in the target's flank zone (past the 45-degree ray from its left front
        // corner) but in front of its 90-degree line: not enfilade, and the line crosses the
        // fence 0.5" in front of the target at y = 18.6.
        assert_eq!(f.cover(&line((25.0, 30.0), 180.0, 5), &target, None), light);
    }

    #[test]
    fn a_fence_beside_the_target_is_not_one_it_stands_behind() {
        // A rail fence along y = 17.6 from the target's front line eastward runs beside its north
        // flank, not across its front: the line of fire from (30, 20) crosses it 0.4" in front of
        // the target's front line, yet the target does not stand behind it.
        let f = field("rail_fence \"Fence\" line (19.5, 17.6) (30, 17.6)");
        let target = line((19.5, 15.0), 90.0, 5);
        assert_eq!(f.cover(&line((30.0, 20.0), 270.0, 5), &target, None), CoverInput::open());
    }

    #[test]
    fn cover_does_not_stack_and_the_best_wins() {
        // RULINGS G17. A stone wall 0.5" in front of a unit standing in light woods: heavy.
        let f = field(&format!("{WOODS}\nstone_wall line (10.5, 0) (10.5, 30)"));
        let firer = line((20.0, 15.0), 270.0, 5);
        let target = line((10.0, 15.0), 90.0, 5); // x = 9.25..10, y = 12.5..17.5: in the woods
        assert_eq!(f.cover(&firer, &target, None), CoverInput::of(CoverClass::Heavy, "stone_wall", true));
        // A rail fence instead: light either way, and the woods' cover is the one kept, since
        // enfilade cannot take it away.
        let f = field(&format!("{WOODS}\nrail_fence line (10.5, 0) (10.5, 30)"));
        assert_eq!(f.cover(&firer, &target, None), CoverInput::of(CoverClass::Light, "light_woods", false));
    }

    #[test]
    fn a_garrison_has_its_buildings_cover() {
        // Ch16 4.3: heavy, from the structure.
        let f = field("masonry_building \"House\" at (0, 5) size 2 x 2");
        let target = line((0.0, 5.0), 180.0, 2);
        assert_eq!(
            f.cover(&firer(), &target, Some("House")),
            CoverInput::of(CoverClass::Heavy, "masonry_building", false)
        );
        assert_eq!(f.cover(&firer(), &target, Some("Barn")), CoverInput::open());
    }

    #[test]
    fn a_unit_on_a_sunken_lane_has_its_cover() {
        // A sunken road drawn as a line along y = 10.4, under a line of stands facing south at
        // (0, 10): stands y = 10..10.75, the road runs through every one of them.
        let f = field("sunken_road line (-10, 10.4) (10, 10.4)");
        assert_eq!(
            f.cover(&firer(), &line((0.0, 10.0), 180.0, 5), None),
            CoverInput::of(CoverClass::Heavy, "sunken_road", false)
        );
        // A line beside the road (its back edge along it) is not on it.
        assert_eq!(f.cover(&firer(), &line((0.0, 9.65), 180.0, 5), None), CoverInput::open());
    }
}
